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
  const top = mostCommon(excluded.map((page) => page.reason));
  if (top === undefined || top[1] * 2 <= pages) return undefined;
  const [reason, count] = top;
  const result: DominantExclusion<R> = { reason, count, pages };
  if (reason === 'canonical-outside') {
    const origin = mostCommon(excluded.map((page) => (page.reason === reason && page.detail !== undefined ? originOf(page.detail) : undefined)))?.[0];
    if (origin !== undefined && origin !== originOf(baseUrl)) result.canonicalOrigin = origin;
  }
  return result;
}

/** The value given most often (the first of a tie) and how often; undefined values are not counted. */
function mostCommon<T>(values: readonly (T | undefined)[]): [T, number] | undefined {
  const counts = new Map<T, number>();
  for (const value of values) if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
  let top: [T, number] | undefined;
  for (const entry of counts) if (top === undefined || entry[1] > top[1]) top = entry;
  return top;
}

/** `https://example.org:8443/a/b` → `https://example.org:8443/`; undefined for what is no URL. */
function originOf(url: string): string | undefined {
  const origin = URL.canParse(url) ? new URL(url).origin : 'null';
  return origin === 'null' ? undefined : `${origin}/`;
}
