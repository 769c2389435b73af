// Which pages of a built site belong in its sitemap. Google: list only canonical URLs you want in
// search results; Search Console reports a listed noindex page, redirect or non-canonical page.

import { comparableUrl, normalizeUrl } from '../url.js';
import { pageUrlPathVariants } from './page-path.js';

export type ExclusionReason = 'excluded' | 'error-page' | 'noindex' | 'redirect' | 'canonical-elsewhere' | 'canonical-outside';

/** What the build knows of one page before deciding. */
export interface PageCandidate {
  relPath: string;
  /** The URL the page is listed at (base URL + its URL path). */
  url: string;
  noindex: boolean;
  /** The target of a `<meta http-equiv="refresh">`: a redirect stub; '' for a refresh of the page itself. */
  refresh?: string;
  canonical?: string;
}

export interface PageDecision {
  listed: boolean;
  reason?: ExclusionReason;
  /** For a canonical exclusion: the canonical URL (normalised when it could be). */
  detail?: string;
  /** For a listed page whose canonical names itself in another form than `url` (`a/` for `a`): that canonical. */
  canonicalForm?: string;
}

// `200.html` at the top is the SPA fallback of Surge and `nuxt generate`.
const ERROR_PAGE = /(?:^|\/)(?:404|500)\.html?$|^(?:404|500)\/index\.html?$|^200\.html?$/i;

/** Whether `relPath` is a 404 / 500 error page (`404.html`, `500.html` anywhere; `404/index.html` and the `200.html` fallback at the top). */
export function isErrorPage(relPath: string): boolean {
  return ERROR_PAGE.test(relPath);
}

/** Decides every page: one whose canonical is another page or outside the site is left out. `baseUrl` ends in `/`. */
export function selectPages(pages: readonly PageCandidate[], baseUrl: string): PageDecision[] {
  const byUrl = siteUrlIndex(pages, baseUrl);
  return pages.map((page, i): PageDecision => {
    // A refresh without a URL, or to the page itself (`content="300; url=/news/"` on /news/), only
    // reloads the page (a live page): not a redirect.
    if (page.refresh !== undefined && page.refresh !== '' && byUrl.get(siteUrlKey(page.refresh)) !== i) return { listed: false, reason: 'redirect', detail: page.refresh };
    if (page.noindex) return { listed: false, reason: 'noindex' };
    if (page.canonical === undefined) return { listed: true };
    let canonical: string;
    try {
      canonical = withoutFragment(normalizeUrl(page.canonical, 'canonical'));
    } catch {
      // An unusable canonical is ignored by search engines, as if there were none.
      return { listed: true };
    }
    if (comparableUrl(canonical) === comparableUrl(page.url)) return { listed: true };
    const target = byUrl.get(siteUrlKey(canonical));
    if (target === i) return { listed: true, canonicalForm: canonical };
    return { listed: false, reason: target === undefined ? 'canonical-outside' : 'canonical-elsewhere', detail: canonical };
  });
}

/**
 * Every URL a static host serves each page under (`/a`, `/a/`, `/a/index.html`), to the page's
 * position in `pages`; a page's own URL (`a/` for `a/index.html`) is its, else the first page wins a
 * shared URL (`a/` of `a.html`). Look a URL up by its `siteUrlKey`.
 */
export function siteUrlIndex(pages: readonly { relPath: string }[], baseUrl: string): Map<string, number> {
  const byUrl = new Map<string, number>();
  // The paths' escapes are upper case already and no unreserved character is escaped (page-path.ts).
  const base = comparableUrl(baseUrl);
  for (const own of [true, false]) {
    pages.forEach((page, i) => {
      const paths = pageUrlPathVariants(page.relPath);
      for (const path of own ? paths.slice(0, 1) : paths) if (!byUrl.has(base + path)) byUrl.set(base + path, i);
    });
  }
  return byUrl;
}

/** The key of `url` in a `siteUrlIndex`: without fragment or empty query (a static host serves `a?` as `a`), escapes normalised (RFC 3986 §6.2.2.1). */
export function siteUrlKey(url: string): string {
  return comparableUrl(withoutFragment(url).replace(/\?$/, ''));
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}
