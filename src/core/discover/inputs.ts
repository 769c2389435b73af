// What `discover` starts from and where it looks (issue #5 "Discovery"); pure.

import { comparableUrl } from '../url.js';

/**
 * Paths probed, in this order, when a site's robots.txt names no sitemap (or always with `--probe`).
 * The common names of CMSs and generators (WordPress, Yoast, Rank Math, next-sitemap, Google News).
 */
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
 * The key of the visited set: the URL without its fragment in the form `validate`, `diff` and `report`
 * compare URLs in (url.ts comparableUrl, RFC 3986 §6.2: `Example.com` and `example.com`, `%7e` and
 * `~`, `%2f` and `%2F` are one document). Undefined for a string that is not a URL.
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
