// A built site's sitemap children, whose bytes depend only on the pages they hold: laid out by
// partition.ts, entries sorted by URL, the root declaring exactly the namespaces the file uses.

import type { Limits, UrlEntry } from '../model.js';
import { InvalidValueError, SitemapError } from '../errors.js';
import { dedupeKey, scopeOf } from '../url.js';
import { UrlEntrySerializer, ALL_EXTENSIONS, NS_NEWS } from '../write/url-entry.js';
import { FOOTER, rootStart, xmlDeclaration } from '../write/sitemap-set-writer.js';
import { utf8Length } from '../write/utf8.js';
import { childFileName, childParts, ownSections, sectionFileStem, type BucketSizing } from './partition.js';
import { FINGERPRINT, fingerprint } from '../fingerprint.js';
import { definedOnly } from '../defined-only.js';

/** The urlset's start and end, as the set writer writes them (node/scale frames its children with them). */
export { FOOTER, rootStart };

export interface StableEntry {
  entry: UrlEntry;
  /** The page's section (first path segment, '' at the top). */
  section: string;
}

export interface StableSetOptions {
  baseUrl: string;
  limits: Readonly<Limits>;
  /** File name prefix (default `sitemap`). */
  name?: string;
  gzip: boolean;
  /** Buckets per stem from the previous build (every section that had files of its own is there). */
  previousBuckets?: ReadonlyMap<string, number>;
  xslUrl?: string;
}

export interface StableChild {
  name: string;
  /** The whole uncompressed document. */
  text: string;
  urls: number;
  /** The newest `<lastmod>` among its entries, as written; absent when none has one. */
  lastmod?: string;
}

export interface RefusedEntry {
  entry: UrlEntry;
  error: InvalidValueError;
  /** True when the entry was kept without its extensions (images, alternates) rather than dropped. */
  keptWithout?: 'alternates' | 'images' | 'extensions' | 'images past the limit';
}

export interface StableSet {
  children: StableChild[];
  /** Buckets per stem, to remember for the next build (every section with files of its own is there). */
  buckets: Map<string, number>;
  refused: RefusedEntry[];
}

/** One entry as its `<url>` element (every extension namespace declared on the root). */
export interface SerializedEntry {
  loc: string;
  xml: string;
  bytes: number;
  namespaces: number;
  /** Epoch ms of its lastmod, NaN without one. */
  lastmodMs: number;
  lastmodText?: string;
  /** A hash of its loc (53 bits), the sort key with `byHash`. */
  hash?: number;
}

/** Lays out and serialises the children. Throws only on misuse (bad options). */
export function buildStableSet(entries: Iterable<StableEntry>, options: StableSetOptions): StableSet {
  const name = options.name ?? 'sitemap';
  const serializer = new UrlEntrySerializer({ limits: options.limits, baseUrl: options.baseUrl, scope: scopeOf(options.baseUrl) });
  const refused: RefusedEntry[] = [];
  const sections = new Map<string, SerializedEntry[]>();
  for (const { entry, section } of entries) {
    const item = serializeOne(serializer, entry, refused, options.limits.maxImagesPerUrl);
    if (item === undefined) continue;
    let list = sections.get(section);
    if (list === undefined) sections.set(section, (list = []));
    list.push(item);
  }
  const own = ownSections(new Map([...sections].map(([section, items]) => [section, items.length])), (section) => options.previousBuckets?.has(sectionFileStem(name, section)) === true);
  const stems = new Map<string, SerializedEntry[]>();
  for (const [section, items] of sections) {
    const stem = sectionFileStem(name, own.has(section) ? section : '');
    const list = stems.get(stem);
    if (list === undefined) stems.set(stem, items);
    else for (const item of items) list.push(item);
  }
  return { ...layOutStems(stems, options), refused };
}

/**
 * The children of entries grouped by file stem (node/scale: a section's bucket): sorted by URL, or
 * `byHash` by urlHash, repeats of a URL dropped and counted, split into the buckets the limits need.
 */
export function layOutStems(stems: ReadonlyMap<string, SerializedEntry[]>, options: Omit<StableSetOptions, 'baseUrl' | 'name'> & { byHash?: boolean }): { children: StableChild[]; buckets: Map<string, number>; duplicates: number } {
  const children: StableChild[] = [];
  const buckets = new Map<string, number>();
  let duplicates = 0;
  for (const stem of [...stems.keys()].sort()) {
    const given = stems.get(stem) as SerializedEntry[];
    const sorted = options.byHash === true ? sortByHash(given) : given.sort(byLoc);
    // The sort is stable: of one URL given twice, the first given is kept.
    const items = sorted.filter((item, i) => i === 0 || item.loc !== (sorted[i - 1] as SerializedEntry).loc);
    duplicates += given.length - items.length;
    // The largest entry alone in a file sets the smallest byte limit that works (generate refuses a
    // limit below its frame as an option, too: core/write/sitemap-set-writer.ts).
    let largest: SerializedEntry | undefined;
    let used = 0;
    for (const item of items) {
      used |= item.namespaces;
      if (item.bytes > (largest?.bytes ?? 0)) largest = item;
    }
    const { declaration, sizing } = childFrame(options, used);
    if (largest !== undefined && sizing.overheadBytes + largest.bytes > sizing.maxBytes) {
      const needed = sizing.overheadBytes + largest.bytes;
      throw new SitemapError('ERR_SITEMAP_OPTION', `a byte limit of ${sizing.maxBytes} leaves no room for ${largest.loc}: its <url> takes ${largest.bytes} bytes and a file's start and end ${sizing.overheadBytes}, so the limit must be at least ${needed}`);
    }
    const parts = childParts(
      items.map((item) => item.loc),
      items.map((item) => item.bytes),
      sizing,
      options.previousBuckets?.get(stem) ?? 1,
      items.map((item) => (item.namespaces & NS_NEWS) !== 0),
      options.byHash,
    );
    const count = parts.length;
    buckets.set(stem, count);
    const groups = parts.map((part) => part.map((i) => items[i] as SerializedEntry));
    groups.forEach((group, bucket) => {
      if (group.length === 0) return;
      let namespaces = 0;
      let newest: SerializedEntry | undefined;
      for (const item of group) {
        namespaces |= item.namespaces;
        if (item.lastmodMs > (newest?.lastmodMs ?? Number.NEGATIVE_INFINITY)) newest = item;
      }
      const text = [declaration, rootStart(namespaces), ...group.map((item) => item.xml), FOOTER].join('');
      children.push({ name: childFileName(stem, bucket, count, options.gzip), text, urls: group.length, ...definedOnly({ lastmod: newest?.lastmodText }) });
    });
  }
  return { children, buckets, duplicates };
}

/**
 * What every child of a stem shares: its XML declaration, and the sizing its bucket count follows, whose
 * start tag declares the namespaces the stem's entries use (a child declares those of its own, no more).
 */
export function childFrame(options: { limits: Readonly<Limits>; xslUrl?: string }, namespaces: number): { declaration: string; sizing: BucketSizing } {
  const declaration = xmlDeclaration(options.xslUrl);
  const overheadBytes = utf8Length(declaration + rootStart(namespaces) + FOOTER);
  return { declaration, sizing: { maxUrls: options.limits.maxUrlsPerSitemap, maxBytes: options.limits.maxBytesPerSitemap, maxNews: options.limits.maxNewsPerSitemap, overheadBytes } };
}

const byLoc = (a: SerializedEntry, b: SerializedEntry): number => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0);

/** A 53-bit hash of a URL as the dedupe compares it (two halves of its fingerprint): the order of a sharded set's entries. */
export function urlHash(loc: string): number {
  fingerprint(dedupeKey(loc));
  return ((FINGERPRINT[0] as number) >>> 0) * 2 ** 21 + (((FINGERPRINT[1] as number) >>> 0) >>> 11);
}

// A sharded set takes any order that is a function of the URLs: hashes sort natively as a typed array,
// where URLs compare as long strings sharing their start. Entries sharing a hash sort by URL as the
// dedupe compares it, and the repeats of one URL, however its escapes are spelt (`%c3%bc`, `%C3%BC`), go.

function sortByHash(items: SerializedEntry[]): SerializedEntry[] {
  const byHash = new Map<number, SerializedEntry | SerializedEntry[]>();
  for (const item of items) {
    const hash = (item.hash ??= urlHash(item.loc));
    const seen = byHash.get(hash);
    if (seen === undefined) byHash.set(hash, item);
    else if (Array.isArray(seen)) seen.push(item);
    else byHash.set(hash, [seen, item]);
  }
  const sorted: SerializedEntry[] = [];
  for (const hash of Float64Array.from(byHash.keys()).sort()) {
    const entry = byHash.get(hash) as SerializedEntry | SerializedEntry[];
    if (!Array.isArray(entry)) {
      sorted.push(entry);
      continue;
    }
    // The sort is stable: of one URL given twice, the first given is kept.
    const keyed = entry.map((item) => ({ item, key: dedupeKey(item.loc) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const [i, { item, key }] of keyed.entries()) if (key !== keyed[i - 1]?.key) sorted.push(item);
  }
  return sorted;
}

// An entry whose extensions are refused (a malformed hreflang, an image URL too long) is still a
// page worth listing: it is kept without them, and the refusal is reported. Past Google's limit of
// images a page keeps its first (main content first), as generate writes it.
function serializeOne(serializer: UrlEntrySerializer, entry: UrlEntry, refused: RefusedEntry[], maxImages: number): SerializedEntry | undefined {
  const { alternates, images } = entry;
  const attempts: [UrlEntry, RefusedEntry['keptWithout']][] = [[entry, undefined]];
  if (images !== undefined && images.length > maxImages) attempts.push([{ ...entry, images: images.slice(0, maxImages) }, 'images past the limit']);
  if (alternates !== undefined && images !== undefined) attempts.push([{ ...entry, alternates: undefined }, 'alternates'], [{ ...entry, images: undefined }, 'images']);
  const without = alternates === undefined ? 'images' : images === undefined ? 'alternates' : 'extensions';
  if (alternates !== undefined || images !== undefined) attempts.push([{ ...entry, alternates: undefined, images: undefined }, without]);
  let first: InvalidValueError | undefined;
  for (const [candidate, keptWithout] of attempts) {
    try {
      const xml = serializer.serialize(candidate, ALL_EXTENSIONS);
      if (first !== undefined) refused.push({ entry, error: first, ...definedOnly({ keptWithout }) });
      return serializedFrom(serializer, xml);
    } catch (error) {
      if (!(error instanceof InvalidValueError)) throw error;
      first ??= error;
    }
  }
  refused.push({ entry, error: first as InvalidValueError });
  return undefined;
}

/** What `serializer` just serialised as `xml`. */
export function serializedFrom(serializer: UrlEntrySerializer, xml: string): SerializedEntry {
  const item: SerializedEntry = { loc: serializer.loc, xml, bytes: utf8Length(xml), namespaces: serializer.usedNamespaces, lastmodMs: serializer.lastmodMs };
  if (serializer.lastmodText !== undefined) item.lastmodText = serializer.lastmodText;
  return item;
}
