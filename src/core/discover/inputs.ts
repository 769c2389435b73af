// What `discover` starts from and where it looks (issue #5 "Discovery"); pure.

import { comparableUrl } from '../url.js';

/** Paths probed, in order, when robots.txt names no sitemap (or with `--probe`): common CMS and generator names. */
export const WELL_KNOWN_SITEMAP_PATHS: readonly string[] = [
  'sitemap.xml',
  'sitemap_index.xml',
  'sitemap-index.xml',
  'sitemap.xml.gz',
  'sitemap_index.xml.gz',
  'sitemap-index.xml.gz',
  'sitemap.txt',
  'sitemap',
  'sitemap_news.xml',
  'sitemap-news.xml',
];

export type DiscoveryInputKind = 'site' | 'robots' | 'sitemap';

export interface ClassifiedInput {
  kind: DiscoveryInputKind;
  /** The URL as it will be requested (normalised, without fragment). */
  url: string;
  /** `scheme://host[:port]` */
  origin: string;
}

/**
 * A site URL (`https://example.com/`: a bare origin), a robots.txt URL (its path ends in
 * `/robots.txt`) or a sitemap URL (anything else). Undefined when `text` is not an http(s) URL.
 */
export function classifyInput(text: string): ClassifiedInput | undefined {
  if (!URL.canParse(text.trim())) return undefined;
  const url = new URL(text.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  const kind: DiscoveryInputKind = url.pathname === '/' && url.search === '' ? 'site' : /\/robots\.txt$/i.test(url.pathname) ? 'robots' : 'sitemap';
  return { kind, url: url.href, origin: url.origin };
}

/**
 * The key of the visited set: the URL without fragment, compared as `validate` and `diff` compare URLs
 * (comparableUrl, RFC 3986 §6.2: `%7e` and `~` are one document). Undefined for a non-URL.
 */
export function visitKey(text: string): string | undefined {
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  url.hash = '';
  return comparableUrl(url.href);
}

/** `https://example.com/robots.txt` for any URL of that origin (RFC 9309 §2.3: robots.txt is at the root). */
export function robotsUrlOf(url: string): string {
  return `${new URL(url).origin}/robots.txt`;
}

/** Whether `a` and `b` are on other hosts for `--cross-host`: host and port, not the scheme (sitemaps.org cross-submits are per host). */
export function otherHost(a: string, b: string): boolean {
  return new URL(a).host !== new URL(b).host;
}
