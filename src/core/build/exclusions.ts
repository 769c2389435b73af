// When most pages of a site are left out for one reason, that is rarely what was meant: a wrong
// --base-url sends every canonical "outside the site", a staging build marks every page noindex. The
// build says so, and for canonicals names where the pages point, which is the likely base URL.

export interface DominantExclusion<R extends string = string> {
  reason: R;
  /** Pages left out for this reason. */
  count: number;
  /** Pages of the site. */
  pages: number;
  /** For canonicals outside the site: the origin most of them are on, when it is not the base URL's. */
  canonicalOrigin?: string;
}

/** The reason more than half of the site's `pages` are left out for, if any (`detail`: a canonical URL). */

export function dominantExclusion<R extends string>(excluded: readonly { reason: R; detail?: string }[], pages: number, baseUrl: string): DominantExclusion<R> | undefined {
  const counts = new Map<R, number>();
  for (const page of excluded) counts.set(page.reason, (counts.get(page.reason) ?? 0) + 1);
  let top: [R, number] | undefined;
  for (const entry of counts) if (top === undefined || entry[1] > top[1]) top = entry;
  if (top === undefined || top[1] * 2 <= pages) return undefined;
  const [reason, count] = top;
  const result: DominantExclusion<R> = { reason, count, pages };
  if (reason === 'canonical-outside') {
    const origins = new Map<string, number>();
    for (const page of excluded) {
      if (page.reason !== reason || page.detail === undefined) continue;
      const origin = originOf(page.detail);
      if (origin !== undefined) origins.set(origin, (origins.get(origin) ?? 0) + 1);
    }
    let best: [string, number] | undefined;
    for (const entry of origins) if (best === undefined || entry[1] > best[1]) best = entry;
    if (best !== undefined && best[0] !== originOf(baseUrl)) result.canonicalOrigin = best[0];
  }
  return result;
}

/** `https://example.org:8443/a/b` → `https://example.org:8443/`; undefined for what is no URL. */
function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : `${parsed.origin}/`;
  } catch {
    return undefined;
  }
}
