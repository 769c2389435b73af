// The layout of a sharded set (issue 27): a URL's child depends on the URL and the shard count alone,
// so any process can write any shard. Child `NAME-SECTION.B` holds the URLs of a section (first path
// segment, as `build` lays out a site) whose hash modulo the shard count is B; shard B writes bucket B
// of every section, and a child is split further only when it outgrows the limits.

import { urlHash } from '../build/stable-set.js';
import { sectionFileStem, sectionOf } from '../build/partition.js';
import { dedupeKey } from '../url.js';
import { SitemapError } from '../errors.js';
import { TOKEN_LENGTH } from '../write/child-names.js';

export interface UrlPlace {
  /** The URL's section: its first path segment under the base URL ('' at the top level, and for a folder's own page). */
  section: string;
  /** Its bucket within the section, which is also the shard that writes it (0 … shards-1). */
  bucket: number;
  /** The stem of its child's files, `NAME-SECTION.BUCKET` (see childStemOf for the file names). */
  child: string;
  /** A 53-bit hash of the URL (stable-set.ts urlHash): its place within the child. */
  hash: number;
}

/** The most shards a set may have: every section has a child per shard it holds URLs of. */
const MAX_SHARDS = 65_536;

export function checkShards(shards: number): number {
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_SHARDS) {
    throw new SitemapError('ERR_SITEMAP_OPTION', `shards must be a whole number from 1 to ${MAX_SHARDS}, got ${shards}`);
  }
  return shards;
}

/**
 * The layout's version, in every manifest: changes cannot be applied to a set of another (apply.ts).
 * 2: a folder's own page at the top level; 3: URLs placed as the dedupe compares them (`%c3%bc` is `%C3%BC`).
 */
export const LAYOUT_VERSION = 3;

/** A folder's own page (`/blog/`) goes at the top level: a site of one-page folders is not a child per page. */
const FOLDER_PAGE = /^[^/]*\/(?:index\.[a-z0-9]+)?$/i;

/** Where `loc`, already normalised (what UrlEntrySerializer gives), goes: its section, bucket and child; `prefix` is the base URL's scope prefix (url.ts scopeOf). */
export function placeOf(loc: string, prefix: string, shards: number, name: string): UrlPlace {
  // Spellings of one URL meet in one child, where the set writes it once (urlHash hashes that form too).
  const path = pathUnder(dedupeKey(loc), prefix);
  const section = FOLDER_PAGE.test(path) ? '' : sectionOf(path);
  const hash = urlHash(loc);
  // The first half of the fingerprint: partition.ts splits an outgrown child by the second.
  const bucket = Math.floor(hash / 2 ** 21) % shards;
  return { section, bucket, child: `${sectionFileStem(name, section)}.${bucket}`, hash };
}

/** The path of `loc` under the base URL, without query or fragment (under the host's root when outside it). */
function pathUnder(loc: string, baseUrl: string): string {
  const rest = loc.startsWith(baseUrl) ? loc.slice(baseUrl.length) : loc.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\/?/i, '');
  const end = rest.search(/[?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

/** The stem of a child's file name (`STEM[.PART].TOKEN.xml[.gz]`); undefined for another file. */
export function childStemOf(file: string): string | undefined {
  const match = new RegExp(`^(.+?\\.\\d+)(?:\\.\\d+)?\\.[0-9a-f]{${TOKEN_LENGTH}}\\.xml(?:\\.gz)?$`).exec(file);
  return match?.[1];
}

/**
 * The index files of a set: `NAME.xml`, or past 50,000 children `NAME-indexes/NAME-index-K.xml` in a
 * folder reached through one link, replaced together (the protocol forbids an index of indexes).
 */
export function indexFileNames(name: string, indexes: number): string[] {
  return indexes === 1 ? [`${name}.xml`] : Array.from({ length: indexes }, (_, i) => `${indexLink(name)}/${name}-index-${i + 1}.xml`);
}

/** The link naming the folder of a set's index files when it has several. */
export function indexLink(name: string): string {
  return `${name}-indexes`;
}

/** A shard's manifest file: `NAME-shard-B-of-N.json`. */
export function manifestFileName(name: string, shard: number, shards: number): string {
  return `${name}-shard-${shard}-of-${shards}.json`;
}
