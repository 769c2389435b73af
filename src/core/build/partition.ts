// Stable children for a built site: cutting URLs in walk order every 50,000 would move every later
// URL when one page is added. Here a URL's file depends only on the URL and the previous layout (its
// section's files, or the top level's, and a hash bucket when a group outgrows one file), so a few
// pages added or removed rewrite only the children that hold them.

import { SitemapError, plural } from '../errors.js';
import { FINGERPRINT, fingerprint } from '../fingerprint.js';

/** The section of a page: its first path segment when it sits in a directory, '' at the top level. */
export function sectionOf(relPath: string): string {
  const slash = relPath.indexOf('/');
  return slash === -1 ? '' : relPath.slice(0, slash);
}

/** A section gets files of its own once it holds this share of the site's URLs (1/32). */
const OWN_FILES_SHARE = 32;

/**
 * The sections with files of their own; the others share the top level's, so that a site of one-page
 * folders is not one file per page. A section keeps its files until it has shrunk to a quarter of the
 * share, so one near the threshold does not move as pages come and go elsewhere.
 *
 * `urls` counts each section's URLs ('' is the top level); `hadOwn`: it had files of its own last build.
 */
export function ownSections(urls: ReadonlyMap<string, number>, hadOwn: (section: string) => boolean): Set<string> {
  let total = 0;
  for (const count of urls.values()) total += count;
  const own = new Set<string>();
  for (const [section, count] of urls) {
    const share = hadOwn(section) ? OWN_FILES_SHARE * 4 : OWN_FILES_SHARE;
    if (section !== '' && count * share >= total) own.add(section);
  }
  return own;
}

const CLEAN_SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * The stem of a section's child files (`NAME-SLUG`), from its name alone; a name that is no clean
 * lower-case slug (or is `root`, the top level's) gets a hash of the exact name.
 */
export function sectionFileStem(name: string, section: string): string {
  if (section === '') return `${name}-root`;
  if (CLEAN_SLUG.test(section) && section !== 'root') return `${name}-${section}`;
  const slug = section
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  fingerprint(section);
  const hash = ((FINGERPRINT[0] as number) >>> 0).toString(36).padStart(7, '0');
  return `${name}-${slug === '' ? 'section' : slug}-${hash}`;
}

/** File name of bucket `bucket` of `buckets` for a section stem: `STEM.xml`, or `STEM.3.xml` when split. */
export function childFileName(stem: string, bucket: number, buckets: number, gzip: boolean): string {
  const suffix = gzip ? '.xml.gz' : '.xml';
  return buckets === 1 ? stem + suffix : `${stem}.${bucket}${suffix}`;
}

/** The bucket of `url` among `buckets` (a power of two): a hash of the URL, so it never moves on its own. */
export function bucketOf(url: string, buckets: number): number {
  if (buckets === 1) return 0;
  fingerprint(url);
  return ((FINGERPRINT[1] as number) >>> 0) & (buckets - 1);
}

export interface BucketSizing {
  maxUrls: number;
  maxBytes: number;
  /** Entries with `<news:news>` a file may hold (Google News: 1,000); no limit when absent. */
  maxNews?: number;
  /** Bytes of a child without its entries (declaration, root element). */
  overheadBytes: number;
}

/**
 * How many buckets a section needs: the previous count while every bucket fits the limits, else doubled
 * until each does; halved only below a quarter of capacity, so one page at the boundary never flips it.
 * `sizes` are the byte sizes of `urls`, `news` whether each carries `<news:news>`. With `inOrder`, 0
 * once a split would need more buckets than URLs (limits of a URL or two a file): see childParts.
 */
export function bucketCount(urls: readonly string[], sizes: readonly number[], sizing: BucketSizing, previous = 1, news: readonly boolean[] = [], inOrder = false): number {
  let buckets = Math.max(1, previous);
  const bytes = sizes.reduce((sum, size) => sum + size, 0);
  const capacityBytes = Math.max(1, sizing.maxBytes - sizing.overheadBytes);
  while (buckets > 1 && urls.length * 4 <= sizing.maxUrls * buckets && bytes * 4 <= capacityBytes * buckets && fits(urls, sizes, news, sizing, buckets / 2)) {
    buckets /= 2;
  }
  while (!fits(urls, sizes, news, sizing, buckets)) {
    if (inOrder && buckets >= urls.length) return 0;
    if (buckets >= 1 << 20) {
      const limits = `${plural(sizing.maxUrls, 'URL')} and ${plural(sizing.maxBytes, 'byte')} a file`;
      throw new SitemapError('ERR_SITEMAP_OPTION', `the ${plural(urls.length, 'URL')} of the section of ${urls[0]} cannot be split by their hash into files within ${limits}: raise the limits`);
    }
    buckets *= 2;
  }
  return buckets;
}

/**
 * The entries of each file of a child (indices into `urls`, by bucket). A sharded child (`inOrder`: its
 * entries in hash order) whose limits no hash split meets is cut in runs of that order, each as long as
 * the limits allow: the same entries still give the same files.
 */
export function childParts(urls: readonly string[], sizes: readonly number[], sizing: BucketSizing, previous = 1, news: readonly boolean[] = [], inOrder = false): number[][] {
  const count = bucketCount(urls, sizes, sizing, previous, news, inOrder);
  const groups: number[][] = Array.from({ length: Math.max(count, 1) }, () => []);
  if (count > 0) {
    for (let i = 0; i < urls.length; i++) (groups[bucketOf(urls[i] as string, count)] as number[]).push(i);
    return groups;
  }
  let bytes = sizing.overheadBytes;
  let newsCount = 0;
  for (let i = 0; i < urls.length; i++) {
    const size = sizes[i] as number;
    const isNews = news[i] === true ? 1 : 0;
    if (sizing.overheadBytes + size > sizing.maxBytes) throw new SitemapError('ERR_SITEMAP_OPTION', `a byte limit of ${sizing.maxBytes} leaves no room for ${urls[i]}: its <url> takes ${size} bytes and a file's start and end ${sizing.overheadBytes}`);
    let group = groups[groups.length - 1] as number[];
    if (group.length === sizing.maxUrls || bytes + size > sizing.maxBytes || newsCount + isNews > (sizing.maxNews ?? Infinity)) {
      groups.push((group = []));
      bytes = sizing.overheadBytes;
      newsCount = 0;
    }
    group.push(i);
    bytes += size;
    newsCount += isNews;
  }
  return groups;
}

function fits(urls: readonly string[], sizes: readonly number[], news: readonly boolean[], sizing: BucketSizing, buckets: number): boolean {
  const maxNews = sizing.maxNews ?? Number.POSITIVE_INFINITY;
  const counts = new Array<number>(buckets).fill(0);
  const bytes = new Array<number>(buckets).fill(sizing.overheadBytes);
  const newsCounts = new Array<number>(buckets).fill(0);
  for (let i = 0; i < urls.length; i++) {
    const b = bucketOf(urls[i] as string, buckets);
    counts[b] = (counts[b] as number) + 1;
    bytes[b] = (bytes[b] as number) + (sizes[i] as number);
    if (news[i] === true) newsCounts[b] = (newsCounts[b] as number) + 1;
    if ((counts[b] as number) > sizing.maxUrls || (bytes[b] as number) > sizing.maxBytes || (newsCounts[b] as number) > maxNews) return false;
  }
  return true;
}
