// writeSitemaps: entries → a sitemap set on disk, written atomically. SitemapSetWriter builds the XML on
// this thread; the StagedOutput compresses it on worker threads and moves the set into place, the entry
// file last. Children of an index are named by content (core/write/child-names.ts), so none is written
// over a file the old index names.

import { createReadStream, createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { InvalidValueError, SitemapError, plural } from '../core/errors.js';
import { LIMITS_PROFILES, type Limits, type LimitsProfileName, type UrlEntry } from '../core/model.js';
import { scopeOf, normalizeUrl } from '../core/url.js';
import { SitemapSetWriter, type SitemapFileInfo } from '../core/write/sitemap-set-writer.js';
import { serializeSitemapIndex } from '../core/write/sitemap-index.js';
import { StagedOutput, isFile, type StagedFile } from './staged-output.js';
import { abortedError, stopIfAborted, writeError } from './io-errors.js';
import type { ParallelFileWriter } from './parallel-gzip.js';
import { numberedSetPattern, numberedStem, withContentToken } from '../core/write/child-names.js';

export type IndexMode = 'auto' | 'always' | 'never';

export interface WriteSitemapsOptions {
  /** Target directory; created when missing. Files there that are not part of the set are left alone. */
  outDir: string;
  /**
   * Where the set will be served, e.g. `https://www.example.com/`: relative locs resolve against it, every
   * loc must lie in its scope, and the index lists the children under it. Required for an index.
   */
  baseUrl?: string;
  /** Reject locs outside the base URL's scope (sitemaps.org protocol: location). Default true when baseUrl is set. */
  enforceScope?: boolean;
  /**
   * Entry file `NAME.xml`; children of an index `NAME-00001.TOKEN.xml.gz` (TOKEN: their content's CRC-32 in
   * hex); with `index: never`, `NAME-00001.xml.gz`. Default `sitemap`.
   */
  name?: string;
  /** gzip the children (default true). The entry file is always plain XML. */
  gzip?: boolean;
  /** zlib level 1–9, default 6. */
  gzipLevel?: number;
  /** Threads that compress while the main thread builds XML; default: the cores less one (at least 1). */
  compressionThreads?: number;
  /** `auto` (default): an index only when there is more than one file. */
  index?: IndexMode;
  /** Limit profile (default `current`). */
  profile?: LimitsProfileName;
  /** Lower the URL limit per file. */
  maxUrls?: number;
  /** Lower the uncompressed byte limit per file. */
  maxBytes?: number;
  /** URL of an XSL stylesheet for browsers (`<?xml-stylesheet?>`). */
  xslUrl?: string;
  /** Write each normalised loc once and count the rest as duplicates (default false; ~16 bytes per URL). */
  dedupe?: boolean;
  /** Called for a refused entry, which is skipped; without it the first refused entry throws its InvalidValueError. */
  onInvalid?: (error: InvalidValueError, entry: UrlEntry) => void;
  /**
   * Called for a refused entry before `onInvalid` (which it needs): an entry returned (e.g. without the
   * refused field) is tried in its place; undefined rejects it.
   */
  replaceInvalid?: (error: InvalidValueError, entry: UrlEntry) => UrlEntry | undefined;
  /**
   * Called for each entry just before it is written (in order with the writer's refusals): it may change
   * it; false leaves it out (not rejected); an InvalidValueError it throws rejects it.
   */
  prepare?: (entry: UrlEntry) => boolean;
  /** Called about every `progressIntervalMs` (default 200) while writing. */
  onProgress?: (progress: WriteProgress) => void;
  progressIntervalMs?: number;
  /** Stops the run: it rejects with `ERR_SITEMAP_ABORTED` (the signal's reason is its `cause`); the previous set stays. */
  signal?: AbortSignal;
  /** Compute the set in a system temporary folder, writing nothing into `outDir`; the summary says what would be. */
  dryRun?: boolean;
}

export interface WriteProgress {
  urls: number;
  files: number;
  rejected: number;
  duplicates: number;
  elapsedMs: number;
}

export interface WrittenFile {
  name: string;
  /** Path in the target directory. */
  path: string;
  /** Absolute URL where it will be served, when a base URL was given. */
  loc?: string;
  urls: number;
  /** Uncompressed size. */
  bytes: number;
  diskBytes: number;
  lastmod?: string;
}

export interface WriteSummary {
  outDir: string;
  /** The file to submit or list in robots.txt: the index, or the single sitemap. Absent with `index: never` and several files. */
  entryFile?: WrittenFile;
  indexed: boolean;
  /** The urlset files (with `index: auto` and one file, that file is `entryFile`). */
  sitemaps: WrittenFile[];
  urls: number;
  duplicates: number;
  rejected: number;
  /** Uncompressed bytes of all files written. */
  bytes: number;
  diskBytes: number;
  /** Files of an earlier run that the new set replaced and removed. */
  removed: string[];
  durationMs: number;
  /** Present on a dry run: nothing was written or removed; the summary says what would be. */
  dryRun?: true;
}

/** The limits in force: a profile, optionally lowered. */
export function resolveLimits(profile: LimitsProfileName = 'current', maxUrls?: number, maxBytes?: number): Limits {
  const base = LIMITS_PROFILES[profile];
  if (base === undefined) throw new SitemapError('ERR_SITEMAP_OPTION', `unknown limits profile ${JSON.stringify(profile)}; use current or legacy`);
  const lowered = (value: number | undefined, most: number, range: string): number => {
    if (value === undefined) return most;
    if (!Number.isInteger(value) || value < 1 || value > most) throw new SitemapError('ERR_SITEMAP_OPTION', `${range} ${most}, got ${value}`);
    return value;
  };
  return {
    ...base,
    maxUrlsPerSitemap: lowered(maxUrls, base.maxUrlsPerSitemap, 'max URLs must be a whole number from 1 to'),
    maxBytesPerSitemap: lowered(maxBytes, base.maxBytesPerSitemap, 'max bytes must be a whole number up to'),
  };
}

/** A plain file name: a set's, or a run's (its scratch folder). */
export const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Replacements tried for one refused entry (one per refused optional field is the use); then it is rejected. */
const MAX_REPLACEMENTS = 16;

export type Admission = Pick<WriteSitemapsOptions, 'onInvalid' | 'replaceInvalid' | 'prepare'> & {
  /** Change a copy, not the caller's entry (a queue source's may be frozen, or share its lists); without it, the caller's entry is the one its callbacks see (generate finds its line by it). */
  copy?: boolean;
};

/**
 * An entry through `prepare`, `place` and `replaceInvalid` (a refused entry leaves nothing placed: its
 * replacement is placed as if first): placed, undefined when left out, null when rejected.
 */
export function admit<T>(entry: UrlEntry, options: Admission, place: (entry: UrlEntry) => T): T | null | undefined {
  let current = options.copy === true ? { ...entry } : entry;
  try {
    if (options.prepare !== undefined && !options.prepare(current)) return undefined;
    return place(current);
  } catch (first) {
    if (!(first instanceof InvalidValueError) || options.onInvalid === undefined) throw first;
    let error = first;
    // A refused part is removed from the list holding it: a copy's, placed again for its refusal to name it.
    if (options.copy === true && error.at !== undefined) {
      current = plainCopy(current);
      try {
        return place(current);
      } catch (again) {
        error = again as InvalidValueError;
      }
    }
    for (let attempt = 0; attempt < MAX_REPLACEMENTS && options.replaceInvalid !== undefined; attempt++) {
      const replacement = options.replaceInvalid(error, current);
      if (replacement === undefined) break;
      current = replacement;
      try {
        return place(current);
      } catch (next) {
        if (!(next instanceof InvalidValueError)) throw next;
        error = next;
      }
    }
    options.onInvalid(error, current);
    return null;
  }
}

/** `value` with its own copy of each array and object in it (a Date as it is). */
function plainCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(plainCopy) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainCopy(item)])) as T;
}

/** The name of a numbered file of a set without an index (`index: never`): `NAME-00001.xml[.gz]`. */
function childName(name: string, index: number, gzip: boolean): string {
  return `${numberedStem(name, index)}.xml${gzip ? '.gz' : ''}`;
}

type EntrySource = Iterable<UrlEntry | readonly UrlEntry[]> | AsyncIterable<UrlEntry | readonly UrlEntry[]>;

/** The options of a set, checked, with their defaults. */
export type SetSettings = ReturnType<typeof checkOptions>;

/** A set's name, `NAME` of its entry file `NAME.xml` (given with `.xml` or without): a plain file name. */
export function setName(given = 'sitemap'): string {
  const name = given.replace(/\.xml$/, '');
  if (!PLAIN_NAME.test(name)) throw new SitemapError('ERR_SITEMAP_OPTION', `name ${JSON.stringify(name)} must be a plain file name such as "sitemap"`);
  return name;
}

export function checkOptions(options: WriteSitemapsOptions) {
  const name = setName(options.name);
  const indexMode = options.index ?? 'auto';
  if (!['auto', 'always', 'never'].includes(indexMode)) throw new SitemapError('ERR_SITEMAP_OPTION', `index must be auto, always or never, got ${JSON.stringify(indexMode)}`);
  const gzip = options.gzip ?? true;
  const gzipLevel = gzip ? (options.gzipLevel ?? 6) : 0;
  if (gzip && (!Number.isInteger(gzipLevel) || gzipLevel < 1 || gzipLevel > 9)) throw new SitemapError('ERR_SITEMAP_OPTION', `gzip level must be 1 to 9, got ${gzipLevel}`);
  const limits = resolveLimits(options.profile, options.maxUrls, options.maxBytes);
  const scope = options.baseUrl === undefined ? undefined : scopeOf(options.baseUrl);
  if (scope === undefined && indexMode === 'always') {
    throw new SitemapError('ERR_SITEMAP_OPTION', 'an index lists its sitemaps by absolute URL: give a base URL (--base-url) to write one');
  }
  return { name, entryName: `${name}.xml`, indexMode, gzip, gzipLevel, limits, baseUrl: scope?.href, scope, xslUrl: options.xslUrl };
}

/** Writes `entries` (sync or async, entries or batches) as a sitemap set into `outDir`; returns what was written. */
export async function writeSitemaps(entries: EntrySource, options: WriteSitemapsOptions): Promise<WriteSummary> {
  const started = performance.now();
  const settings = checkOptions(options);
  const { name, gzip, indexMode, baseUrl, limits } = settings;
  stopIfAborted(options.signal);
  // Each file's CRC-32 (the token of its name) and its size on disk, once written.
  const staged: { crc: number; diskBytes: Promise<number> }[] = [];
  let fileId = 0;
  // Made before the output, so that its options are checked first; it opens a file only once the output is there.
  const writer = new SitemapSetWriter(
    {
      open(index) {
        if (index === 1 && indexMode === 'auto' && baseUrl === undefined) {
          throw new SitemapError('ERR_SITEMAP_OPTION', 'the URLs need more than one sitemap file, so an index is needed, and an index lists its sitemaps by absolute URL: give a base URL (--base-url)');
        }
        fileId = output.files.open(output.path(childName(name, index, gzip)));
      },
      write: (bytes) => output.files.write(fileId, bytes),
      close: () => staged.push({ crc: output.files.crcOf(fileId), diskBytes: output.files.close(fileId) }),
    },
    { limits, baseUrl, scope: (options.enforceScope ?? true) ? settings.scope : undefined, xslUrl: options.xslUrl, dedupe: options.dedupe, maxFiles: indexMode === 'never' ? Number.POSITIVE_INFINITY : limits.maxSitemapsPerIndex },
  );
  // The main thread builds the XML; the output stage's threads compress.
  const output = await StagedOutput.create(options.outDir, { dryRun: options.dryRun === true, name, gzipLevel: settings.gzipLevel, workers: options.compressionThreads, exclusive: true });
  const progress = (rejected: number): WriteProgress => ({ urls: writer.urls, files: writer.fileCount, rejected, duplicates: writer.duplicates, elapsedMs: performance.now() - started });
  try {
    const rejected = await feed(entries, writer, output.files, options, progress);
    const infos = writer.end();
    if (infos.length === 0) throw new SitemapError('ERR_SITEMAP_EMPTY', rejected > 0 ? `no URL could be written: every entry was refused (${plural(rejected, 'entry', 'entries')})` : 'no URLs to write: the input lists none');
    const diskSizes = await Promise.all(staged.map((file) => file.diskBytes));
    options.onProgress?.(progress(rejected));
    // Its own writes in the staging folder (the entry file) fail as the output stage's do.
    const set = await commitSet(output, settings, infos, staged.map((file) => file.crc), diskSizes).catch((error: unknown) => {
      throw writeError(error, `to ${options.outDir}`);
    });
    const all = set.entryFile !== undefined && set.entryFile !== set.sitemaps[0] ? [...set.sitemaps, set.entryFile] : set.sitemaps;
    return {
      outDir: options.outDir,
      ...(set.entryFile !== undefined ? { entryFile: set.entryFile } : {}),
      indexed: set.indexed,
      sitemaps: set.sitemaps,
      urls: writer.urls,
      duplicates: writer.duplicates,
      rejected,
      bytes: all.reduce((sum, f) => sum + f.bytes, 0),
      diskBytes: all.reduce((sum, f) => sum + f.diskBytes, 0),
      removed: set.removed,
      durationMs: performance.now() - started,
      ...(options.dryRun === true ? { dryRun: true as const } : {}),
    };
  } finally {
    await output.abort();
  }
}

/** Hands the entries to the writer: refusals, replacements, backpressure, abort and progress. Resolves with the entries rejected. */
async function feed(entries: EntrySource, writer: SitemapSetWriter, files: ParallelFileWriter, options: WriteSitemapsOptions, progress: (rejected: number) => WriteProgress): Promise<number> {
  const { signal, onProgress } = options;
  const interval = options.progressIntervalMs ?? 200;
  let nextProgress = performance.now() + interval;
  let rejected = 0;
  /** Entries added since progress was last considered. */
  let added = 0;
  const add = (entry: UrlEntry): void => {
    if (admit(entry, options, (admitted) => writer.add(admitted)) === null) rejected++;
  };
  const iterator = Symbol.asyncIterator in entries ? entries[Symbol.asyncIterator]() : entries[Symbol.iterator]();
  let finished = false;
  try {
    for (;;) {
      let next = iterator.next();
      // An abort must not wait for the source: stdin may not send anything for a long time.
      if (next instanceof Promise) next = await (signal === undefined ? next : untilAborted(next, signal));
      if (next.done === true) {
        finished = true;
        return rejected;
      }
      const item = next.value;
      if (!Array.isArray(item)) add(item as UrlEntry);
      else for (const entry of item as readonly UrlEntry[]) add(entry);
      added += Array.isArray(item) ? item.length : 1;
      if (files.full) await files.whenWritable();
      stopIfAborted(signal);
      if (onProgress !== undefined && added >= 1024) {
        added = 0;
        if (performance.now() >= nextProgress) {
          nextProgress = performance.now() + interval;
          onProgress(progress(rejected));
        }
      }
    }
  } finally {
    // Not awaited: a generator suspended in a pending read would only return after that read.
    if (!finished) (async () => iterator.return?.())().catch(() => {});
  }
}

/** The files of the set, named, with its entry file, moved into place (StagedOutput.commit). */
async function commitSet(
  output: StagedOutput,
  { name, entryName, gzip, indexMode, baseUrl, limits, xslUrl }: SetSettings,
  infos: readonly SitemapFileInfo[],
  crcs: readonly number[],
  diskSizes: readonly number[],
): Promise<{ entryFile?: WrittenFile; indexed: boolean; sitemaps: WrittenFile[]; removed: string[] }> {
  const outDir = output.outDir;
  // The files a run with this name may have written (child-names.ts, numberedSetPattern).
  const owned = numberedSetPattern(name);
  const isOwned = (file: string): boolean => owned.test(file);
  const indexed = indexMode === 'always' || (indexMode === 'auto' && infos.length > 1);
  if (infos.length === 1 && !indexed) {
    // A lone sitemap is the entry file itself, as plain XML.
    const child = childName(name, 0, gzip);
    if (gzip) await pipeline(createReadStream(output.path(child)), createGunzip({ chunkSize: 256 * 1024 }), createWriteStream(output.path(entryName)));
    const entryFile = describeFile(entryName, infos[0] as SitemapFileInfo, (infos[0] as SitemapFileInfo).bytes, outDir, baseUrl);
    const removed = await output.commit({ children: [], entry: { staged: gzip ? entryName : child, name: entryName }, isOwned });
    return { entryFile, indexed, sitemaps: [entryFile], removed };
  }
  // Named by content under an index; fixed without one (each file is then an entry file of its own).
  const children: StagedFile[] = [];
  for (const info of infos) {
    const staged = childName(name, info.index, gzip);
    children.push(indexed ? await output.place(staged, crcs[info.index] as number, (token) => withContentToken(staged, token)) : { staged, name: staged, inPlace: false });
  }
  const sitemaps = infos.map((info, i) => describeFile((children[i] as StagedFile).name, info, diskSizes[i] as number, outDir, baseUrl));
  if (!indexed) {
    // Fixed names are replaced in place: an old index that may name them goes first.
    const replacedInPlace = (await Promise.all(children.map((file) => isFile(join(outDir, file.name))))).includes(true);
    return { indexed, sitemaps, removed: await output.commit({ children, removeFirst: replacedInPlace ? [entryName] : [], isOwned }) };
  }
  const text = serializeSitemapIndex(sitemaps.map((file) => ({ loc: file.loc as string, lastmod: file.lastmod })), { limits, xslUrl });
  await writeFile(output.path(entryName), text);
  const bytes = Buffer.byteLength(text);
  const entryFile = describeFile(entryName, { urls: 0, bytes }, bytes, outDir, baseUrl);
  // The old index goes after, with the other old files, so that a failed run leaves it whole.
  return { entryFile, indexed, sitemaps, removed: await output.commit({ children, entry: { staged: entryName, name: entryName }, isOwned }) };
}

/** `promise`, or a rejection with abortedError as soon as `signal` is aborted. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortedError(signal));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describeFile(name: string, info: Pick<SitemapFileInfo, 'urls' | 'bytes' | 'lastmod'>, diskBytes: number, outDir: string, baseUrl: string | undefined): WrittenFile {
  const file: WrittenFile = { name, path: join(outDir, name), urls: info.urls, bytes: info.bytes, diskBytes };
  if (baseUrl !== undefined) file.loc = normalizeUrl(name, 'loc', baseUrl);
  if (info.lastmod !== undefined) file.lastmod = info.lastmod;
  return file;
}
