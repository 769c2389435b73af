// A built site's sitemap children, laid out so that their bytes depend only on the pages they hold:
// a file per section (split into hash buckets when a section outgrows the limits, see partition.ts),
// entries sorted by URL, the root declaring exactly the extension namespaces the file uses.

import { NS, type Limits, type UrlEntry } from '../model.js';
import { InvalidValueError } from '../errors.js';
import { scopeOf } from '../url.js';
import { UrlEntrySerializer, ALL_EXTENSIONS, namespaceDeclarations } from '../write/url-entry.js';
import { xmlDeclaration } from '../write/sitemap-set-writer.js';
import { utf8Length } from '../write/utf8.js';
import { bucketCount, bucketOf, childFileName, sectionFileStem } from './partition.js';

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
  /** Buckets per section stem from the previous build. */
  previousBuckets?: ReadonlyMap<string, number>;
  xslUrl?: string;
}

export interface StableChild {
  name: string;
  /** The whole uncompressed document. */
  text: string;
  urls: number;
}

export interface RefusedEntry {
  entry: UrlEntry;
  error: InvalidValueError;
  /** True when the entry was kept without its extensions (images, alternates) rather than dropped. */
  keptWithout?: 'alternates' | 'images' | 'extensions';
}

export interface StableSet {
  children: StableChild[];
  /** Buckets per section stem, to remember for the next build (only split sections). */
  buckets: Map<string, number>;
  refused: RefusedEntry[];
}

interface Serialized {
  loc: string;
  xml: string;
  bytes: number;
  namespaces: number;
}

/** Lays out and serialises the children. Throws only on misuse (bad options). */
export function buildStableSet(entries: Iterable<StableEntry>, options: StableSetOptions): StableSet {
  const name = options.name ?? 'sitemap';
  const serializer = new UrlEntrySerializer({ limits: options.limits, baseUrl: options.baseUrl, scope: scopeOf(options.baseUrl) });
  const refused: RefusedEntry[] = [];
  const sections = new Map<string, Serialized[]>();
  for (const { entry, section } of entries) {
    const item = serializeOne(serializer, entry, refused);
    if (item === undefined) continue;
    const stem = sectionFileStem(name, section);
    let list = sections.get(stem);
    if (list === undefined) sections.set(stem, (list = []));
    list.push(item);
  }
  const declaration = xmlDeclaration(options.xslUrl);
  const overheadBytes = utf8Length(declaration + rootStart(ALL_EXTENSIONS) + FOOTER);
  const sizing = { maxUrls: options.limits.maxUrlsPerSitemap, maxBytes: options.limits.maxBytesPerSitemap, overheadBytes };
  const children: StableChild[] = [];
  const buckets = new Map<string, number>();
  for (const stem of [...sections.keys()].sort()) {
    const items = (sections.get(stem) as Serialized[]).sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0));
    const count = bucketCount(
      items.map((item) => item.loc),
      items.map((item) => item.bytes),
      sizing,
      options.previousBuckets?.get(stem) ?? 1,
    );
    if (count > 1) buckets.set(stem, count);
    const groups: Serialized[][] = Array.from({ length: count }, () => []);
    for (const item of items) (groups[bucketOf(item.loc, count)] as Serialized[]).push(item);
    groups.forEach((group, bucket) => {
      if (group.length === 0) return;
      let namespaces = 0;
      for (const item of group) namespaces |= item.namespaces;
      const parts = [declaration, rootStart(namespaces)];
      for (const item of group) parts.push(item.xml);
      parts.push(FOOTER);
      children.push({ name: childFileName(stem, bucket, count, options.gzip), text: parts.join(''), urls: group.length });
    });
  }
  return { children, buckets, refused };
}

const FOOTER = '</urlset>\n';

function rootStart(namespaces: number): string {
  return `<urlset xmlns="${NS.sitemap}"${namespaceDeclarations(namespaces)}>\n`;
}

// An entry whose extensions are refused (a malformed hreflang, an image URL too long) is still a
// page worth listing: it is kept without them, and the refusal is reported.
function serializeOne(serializer: UrlEntrySerializer, entry: UrlEntry, refused: RefusedEntry[]): Serialized | undefined {
  const attempts: [UrlEntry, RefusedEntry['keptWithout']][] = [[entry, undefined]];
  if (entry.alternates !== undefined && entry.images !== undefined) {
    attempts.push([{ ...entry, alternates: undefined }, 'alternates'], [{ ...entry, images: undefined }, 'images']);
  }
  if (entry.alternates !== undefined || entry.images !== undefined) {
    const bare = { ...entry, alternates: undefined, images: undefined };
    const what = entry.alternates === undefined ? 'images' : entry.images === undefined ? 'alternates' : 'extensions';
    attempts.push([bare, what]);
  }
  let first: InvalidValueError | undefined;
  for (const [candidate, keptWithout] of attempts) {
    try {
      const xml = serializer.serialize(candidate, ALL_EXTENSIONS);
      if (first !== undefined) refused.push({ entry, error: first, ...(keptWithout !== undefined ? { keptWithout } : {}) });
      return { loc: serializer.loc, xml, bytes: utf8Length(xml), namespaces: serializer.usedNamespaces };
    } catch (error) {
      if (!(error instanceof InvalidValueError)) throw error;
      first ??= error;
    }
  }
  refused.push({ entry, error: first as InvalidValueError });
  return undefined;
}
