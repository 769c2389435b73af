// The hreflang alternates of a built site, decided across the whole set rather than page by page.
// Google Search Central ("Tell Google about localized versions of your page"): each language version
// lists every version, itself included, and links must go both ways; Google reads only alternates
// that are canonical, indexable pages. So an alternate written by the build
// - that names a page of this run which is listed is written as that page's listed URL (the same
//   trailing-slash and clean-URL form as its loc: `/es/a/` in the page becomes `/es/a` with
//   `--trailing-slash never`, so the set stays consistent and its own self-link matches its loc);
// - that names a page this run left out (noindex, a redirect stub, canonicalised elsewhere, excluded,
//   an error page…) is dropped: it would point search engines at a page the sitemap says not to index;
// - that lies under the base URL but is served by no page of the folder is dropped too: the folder is
//   the whole site at that URL, so it would be a missing page (a 404);
// - that lies outside the base URL (another host, a language built by another run under its own base
//   URL) is kept as written: this run cannot see it. Validate that set on its own.

import type { AlternateLink } from '../model.js';

/** What the run decided for a page the alternate names. */
export interface AlternateTarget {
  relPath: string;
  /** The URL the page is listed at; undefined when the run left it out. */
  listedUrl?: string;
  /** Why the page was left out (`noindex`, `canonical-elsewhere`, …). */
  reason?: string;
}

export interface DroppedAlternate {
  hreflang: string;
  href: string;
  /** `left-out`: a page of the site this run did not list; `not-built`: no page of the folder is served at it. */
  why: 'left-out' | 'not-built';
  /** For `left-out`: the page's path in the folder and why it was left out. */
  target?: AlternateTarget;
}

export interface SiteAlternates {
  alternates: AlternateLink[];
  dropped: DroppedAlternate[];
}

/**
 * Decides the alternates of one listed page. `alternates` are absolute, normalised URLs without a
 * fragment (as the page scanner gives them); `pageAt` finds the page of the site served at a URL in any
 * of its forms; `baseUrl` ends in `/`. Each (hreflang, href) pair is kept once.
 */
export function siteAlternates(
  alternates: readonly AlternateLink[],
  pageAt: (url: string) => AlternateTarget | undefined,
  baseUrl: string,
): SiteAlternates {
  const kept: AlternateLink[] = [];
  const dropped: DroppedAlternate[] = [];
  const seen = new Set<string>();
  for (const { hreflang, href } of alternates) {
    let written = href;
    const target = pageAt(href);
    if (target !== undefined) {
      if (target.listedUrl === undefined) {
        dropped.push({ hreflang, href, why: 'left-out', target });
        continue;
      }
      written = target.listedUrl;
    } else if (href.startsWith(baseUrl)) {
      dropped.push({ hreflang, href, why: 'not-built' });
      continue;
    }
    const key = `${hreflang}\n${written}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push({ hreflang, href: written });
  }
  return { alternates: kept, dropped };
}
