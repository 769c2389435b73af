// The hreflang alternates of a built site, decided across the whole set. Google reads only alternates
// that are canonical, indexable pages, linked both ways ("Tell Google about localized versions of your
// page"). So an alternate naming a listed page is written as that page's listed URL (the form of its
// loc, so self-links match); one naming a page the run left out, or a URL under the base URL that no
// page serves (a 404), is dropped; one outside the base URL is kept as written: this run cannot see it.

import type { AlternateLink } from '../model.js';
import { languageTagProblem, type LanguageTagProblem } from '../validate/language-tag.js';

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
  /** `left-out`: a page this run did not list; `not-built`: no page is served at it; `invalid-language`: a hreflang Google does not read. */
  why: 'left-out' | 'not-built' | 'invalid-language';
  /** For `left-out`: the page's path in the folder and why it was left out. */
  target?: AlternateTarget;
  /** For `invalid-language`: what is wrong with the hreflang. */
  language?: LanguageTagProblem;
}

export interface SiteAlternates {
  alternates: AlternateLink[];
  dropped: DroppedAlternate[];
}

/**
 * The alternates of one listed page (absolute, normalised, without fragment), each pair once. `pageAt`
 * finds the site's page served at a URL in any of its forms; `baseUrl` ends in `/`.
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
    const language = languageTagProblem(hreflang);
    if (language !== undefined) {
      dropped.push({ hreflang, href, why: 'invalid-language', language });
      continue;
    }
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
