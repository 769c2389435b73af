// Sharded sets on disk (issue 27; layout in core/scale/layout.ts). A shard's children go in place under
// names of their content, recorded in its manifest; the index file(s) are the set's one commit point,
// and old children are removed only after it: a run killed at any moment leaves the previous set whole.

import { lstat, mkdir, readFile, readdir, readlink, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { newestLastmod } from '../../core/datetime.js';
import { InvalidValueError, SitemapError } from '../../core/errors.js';
import type { Limits, LimitsProfileName, UrlEntry } from '../../core/model.js';
import { normalizeUrl, type UrlScope } from '../../core/url.js';
import { UrlEntrySerializer, ALL_EXTENSIONS } from '../../core/write/url-entry.js';
import { layOutStems, serializedFrom, type SerializedEntry } from '../../core/build/stable-set.js';
import { contentToken, numberedSetPattern, withContentToken } from '../../core/write/child-names.js';
import { serializeSitemapIndex } from '../../core/write/sitemap-index.js';
import { checkShards, childStemOf, indexFileNames, indexLink, LAYOUT_VERSION, manifestFileName, placeOf } from '../../core/scale/layout.js';
import { ofLongerSet, ofOtherSets, StagedOutput, syncFiles, writeFileAtomic, type StagedFile } from '../staged-output.js';
import { checkOptions, type Admission, type SetSettings, type WriteSitemapsOptions } from '../write-sitemaps.js';
// The scale modules admit entries and check names as writeSitemaps does, through the set's module.
export { admit, PLAIN_NAME } from '../write-sitemaps.js';
import { layOutRecords, type RecordChild } from './stem-records.js';
import { ioErrorReason } from '../io-errors.js';
import { EntryPolicy, type EntryWarningHandler } from '../../core/input/entry-policy.js';

/** The set's options, as writeSitemaps takes them (name, gzip, limits, xsl, scope, threads), and its shards. */
export interface ShardSetOptions extends Pick<WriteSitemapsOptions, 'name' | 'gzip' | 'gzipLevel' | 'profile' | 'maxUrls' | 'maxBytes' | 'xslUrl' | 'enforceScope' | 'compressionThreads'> {
  /** The set's folder, shared by every process that writes a shard of it. */
  outDir: string;
  /** Where the set is served (the index lists the children under it). */
  baseUrl: string;
  /** Shards (buckets per section): fixed for the life of the set. Children are `NAME-SECTION.BUCKET.TOKEN.xml.gz`. */
  shards: number;
}

/** One child file of a shard, as its manifest records it. */
export interface ShardFile {
  name: string;
  /** Its child's stem (`NAME-SECTION.BUCKET`; a child outgrowing the limits has several files). */
  child: string;
  urls: number;
  /** Uncompressed bytes. */
  bytes: number;
  diskBytes: number;
  /** Newest `<lastmod>` of its entries. */
  lastmod?: string;
  /** CRC-32 of its uncompressed XML, 8 hex digits (also the token in its name, unless two contents collided). */
  crc32: string;
}

/** What a shard wrote: every value a function of the shard's entries and the set's options. */
export interface ShardManifest {
  format: 'sitemapkit-shard';
  version: 1;
  /** The placement it was written with (layout.ts LAYOUT_VERSION); absent: the first. */
  layout?: number;
  name: string;
  shard: number;
  shards: number;
  baseUrl: string;
  gzip: boolean;
  gzipLevel: number;
  maxUrls: number;
  maxBytes: number;
  /** Present for the 2008 limits (the index's 1,000 sitemaps); absent: current. */
  profile?: 'legacy';
  xslUrl?: string;
  /** Present when locs outside the base URL were accepted (`enforceScope: false`, --no-scope). */
  noScope?: true;
  urls: number;
  bytes: number;
  diskBytes: number;
  /** URLs given more than once (each written once, the first given). */
  duplicates: number;
  /** Newest `<lastmod>` of the shard. */
  lastmod?: string;
  files: ShardFile[];
}

/** The options, checked, with their defaults. */
export interface ShardSettings {
  outDir: string;
  name: string;
  shards: number;
  /** The base URL's scope prefix: sections are path segments under it. */
  prefix: string;
  scope: UrlScope | undefined;
  baseUrl: string;
  gzip: boolean;
  gzipLevel: number;
  profile: LimitsProfileName;
  limits: Limits;
  xslUrl?: string;
  compressionThreads?: number;
}

export function shardSettings(options: ShardSetOptions): ShardSettings {
  let checked: SetSettings;
  try {
    checked = checkOptions(options);
  } catch (error) {
    if (error instanceof InvalidValueError) throw new SitemapError('ERR_SITEMAP_OPTION', error.message);
    throw error;
  }
  const { name, gzip, gzipLevel, limits, scope } = checked as SetSettings & { scope: UrlScope };
  return {
    outDir: options.outDir,
    name,
    shards: checkShards(options.shards),
    prefix: scope.prefix,
    scope: options.enforceScope === false ? undefined : scope,
    baseUrl: scope.href,
    gzip,
    gzipLevel,
    profile: options.profile ?? 'current',
    limits,
    ...(options.xslUrl !== undefined ? { xslUrl: options.xslUrl } : {}),
    ...(options.compressionThreads !== undefined ? { compressionThreads: options.compressionThreads } : {}),
  };
}

/** The settings a manifest was written with (apply and index read a set's settings from it). */
export function settingsOfManifest(manifest: ShardManifest, outDir: string): ShardSettings {
  return shardSettings({
    outDir,
    baseUrl: manifest.baseUrl,
    shards: manifest.shards,
    name: manifest.name,
    gzip: manifest.gzip,
    ...(manifest.gzip ? { gzipLevel: manifest.gzipLevel } : {}),
    maxUrls: manifest.maxUrls,
    maxBytes: manifest.maxBytes,
    profile: manifest.profile ?? 'current',
    ...(manifest.xslUrl !== undefined ? { xslUrl: manifest.xslUrl } : {}),
    ...(manifest.noScope === true ? { enforceScope: false } : {}),
  });
}

/** The entries of a child (by stem), serialised: read from a child's files, or its records as they sit on disk (stem-records.ts). */
export type StemLoader = (stem: string) => StemEntries | Promise<StemEntries>;
type StemEntries = SerializedEntry[] | Buffer;

/** The serializer of a set's entries: the same for every shard, so a shard's bytes never depend on who writes it. */
export function setSerializer(settings: ShardSettings): UrlEntrySerializer {
  return new UrlEntrySerializer({ limits: settings.limits, baseUrl: settings.baseUrl, ...(settings.scope !== undefined ? { scope: settings.scope } : {}) });
}

/** generate's EntryPolicy (no option of its own) as admit's options, for apply and queued runs: a refused optional part dropped with a warning. */
export function policyAdmission(warn: EntryWarningHandler, onInvalid: Admission['onInvalid']): Admission {
  const policy = new EntryPolicy({ now: Date.now() });
  return { prepare: (entry) => policy.prepare(entry, warn), replaceInvalid: (error, entry) => policy.replace(error, entry, warn), onInvalid, copy: true };
}

/** An entry as the set writes it, with its place: its child (stem), its bucket (shard), and its hash in `item`. */
export interface PlacedEntry {
  item: SerializedEntry;
  child: string;
  bucket: number;
}

/** Serialises `entry` (InvalidValueError when refused) and places it in the layout. */
export function placedEntry(serializer: UrlEntrySerializer, settings: ShardSettings, entry: UrlEntry): PlacedEntry {
  const item = serializedFrom(serializer, serializer.serialize(entry, ALL_EXTENSIONS));
  const place = placeOf(item.loc, settings.prefix, settings.shards, settings.name);
  item.hash = place.hash;
  return { item, child: place.child, bucket: place.bucket };
}

/** The output stage a shard or an apply writes through; `exclusive` (holding the set's lock) for a whole-set commit. */
export function shardOutput(settings: ShardSettings, exclusive = false): Promise<StagedOutput> {
  return StagedOutput.create(settings.outDir, { name: settings.name, gzipLevel: settings.gzipLevel, exclusive, ...(settings.compressionThreads !== undefined ? { workers: settings.compressionThreads } : {}) });
}

/**
 * Writes the children of shard `shard`, then its manifest. `durable: false` leaves the flush to the
 * index's commit (flushing each shard while others are written stalls on all). `beforePublish` runs
 * before each of the two writes and throws to stop them (a queue job whose lock is lost).
 */
export async function writeShardStems(settings: ShardSettings, shard: number, stems: readonly string[], load: StemLoader, options: { output?: StagedOutput; durable?: false; manifestPath?: string; beforePublish?: () => Promise<void> } = {}): Promise<ShardManifest> {
  const output = options.output ?? (await shardOutput(settings));
  try {
    const { files, placed, duplicates } = await stageChildren(output, stems, load, settings);
    await options.beforePublish?.();
    // No entry file and nothing removed: the children go in beside the published set.
    await output.commit({ children: placed, ...(options.durable === false ? { durable: false } : {}) });
    const manifest = manifestOf(settings, shard, files, duplicates);
    await options.beforePublish?.();
    await writeFileAtomic(options.manifestPath ?? join(settings.outDir, manifestFileName(settings.name, shard, settings.shards)), manifestText(manifest));
    return manifest;
  } finally {
    await output.abort();
  }
}

export function manifestText(manifest: ShardManifest): string {
  return JSON.stringify(manifest, null, 1) + '\n';
}

/**
 * Stages the children of `stems`, each under the name of its content, one stem at a time. An async
 * loader reads the next stem ahead (two stems in memory); a synchronous one (a spill) is called in turn.
 */
export async function stageChildren(output: StagedOutput, stems: readonly string[], load: StemLoader, settings: ShardSettings): Promise<{ files: ShardFile[]; placed: StagedFile[]; duplicates: number }> {
  const files: ShardFile[] = [];
  const placed: StagedFile[] = [];
  const writes: Promise<number>[] = [];
  let duplicates = 0;
  let backlog: Promise<unknown> = Promise.resolve();
  const sorted = [...stems].sort();
  const readAhead = (i: number): Promise<StemEntries> | undefined => {
    if (i >= sorted.length) return undefined;
    const next = Promise.resolve(load(sorted[i] as string));
    // A failed read ahead is reported by its own await, not as an unhandled rejection meanwhile.
    next.catch(() => {});
    return next;
  };
  let next: StemEntries | Promise<StemEntries> | undefined = sorted.length > 0 ? load(sorted[0] as string) : undefined;
  // One stem, in a function of its own: once it returns, nothing refers to its entries or its text.
  const stageStem = async (i: number): Promise<void> => {
    const stem = sorted[i] as string;
    const items = await (next ?? load(stem));
    next = next instanceof Promise ? readAhead(i + 1) : undefined;
    const layout = { limits: settings.limits, gzip: settings.gzip, ...(settings.xslUrl !== undefined ? { xslUrl: settings.xslUrl } : {}) };
    const laid = Buffer.isBuffer(items) ? await layOutRecords(stem, items, layout) : layOutStems(new Map([[stem, items]]), { ...layout, byHash: true });
    duplicates += laid.duplicates;
    const written: Promise<number>[] = [];
    for (const child of laid.children) {
      const crc = typeof child.text === 'string' ? crc32(child.text) : (child as RecordChild).crc;
      const bytes = typeof child.text === 'string' ? Buffer.byteLength(child.text) : (child as RecordChild).bytes;
      const write = output.write(child.name, child.text);
      // Its failure is thrown by the awaits below; meanwhile (a full disk) it was an unhandled rejection.
      write.catch(() => {});
      written.push(write);
      const file = await output.place(child.name, crc, (token) => withContentToken(child.name, token), { written: () => write });
      placed.push(file);
      files.push({ name: file.name, child: stem, urls: child.urls, bytes, diskBytes: 0, ...(child.lastmod !== undefined ? { lastmod: detached(child.lastmod) } : {}), crc32: contentToken(crc) });
    }
    writes.push(...written);
    // Compression is the slower side: waiting for the stem before keeps at most two stems' texts queued.
    await backlog;
    backlog = Promise.all(written);
    backlog.catch(() => {});
  };
  for (let i = 0; i < sorted.length; i++) await stageStem(i);
  const sizes = await Promise.all(writes);
  sizes.forEach((size, i) => ((files[i] as ShardFile).diskBytes = size));
  return { files, placed, duplicates };
}

/**
 * `text` as a string of its own: V8 keeps a slice's parent alive, and each child's lastmod, a slice of a
 * spill file read whole, held ~0.5 MB until the end of the run (+50 MB at 20,000,000 URLs).
 */
function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

export function manifestOf(settings: ShardSettings, shard: number, files: ShardFile[], duplicates: number): ShardManifest {
  const sorted = sortByName(files);
  const manifest: ShardManifest = {
    format: 'sitemapkit-shard',
    version: 1,
    layout: LAYOUT_VERSION,
    name: settings.name,
    shard,
    shards: settings.shards,
    baseUrl: settings.baseUrl,
    gzip: settings.gzip,
    gzipLevel: settings.gzipLevel,
    maxUrls: settings.limits.maxUrlsPerSitemap,
    maxBytes: settings.limits.maxBytesPerSitemap,
    ...(settings.profile === 'legacy' ? { profile: 'legacy' as const } : {}),
    ...(settings.xslUrl !== undefined ? { xslUrl: settings.xslUrl } : {}),
    ...(settings.scope === undefined ? { noScope: true as const } : {}),
    urls: sum(sorted, 'urls'),
    bytes: sum(sorted, 'bytes'),
    diskBytes: sum(sorted, 'diskBytes'),
    duplicates,
    files: sorted,
  };
  const newest = newestLastmod(sorted);
  if (newest !== undefined) manifest.lastmod = newest;
  return manifest;
}

function sum(files: readonly ShardFile[], field: 'urls' | 'bytes' | 'diskBytes'): number {
  return files.reduce((total, file) => total + file[field], 0);
}

export interface IndexOptions extends Omit<PublishOptions, 'manifests'> {
  /** Manifest files, one per shard, all of one set. */
  manifests: readonly string[];
  /** The set's folder (not assumed from the manifests). */
  outDir: string;
  /** Flush every child to disk before the index names them (when the shards were written with `durable: false`). */
  syncChildren?: boolean;
}

export interface IndexFile {
  /** Path under the set's folder: `NAME.xml`, or `NAME-indexes/NAME-index-K.xml`. */
  name: string;
  path: string;
  loc: string;
  sitemaps: number;
}

export interface SetSummary {
  outDir: string;
  /** The index files to submit (several past 50,000 children). */
  indexFiles: IndexFile[];
  files: ShardFile[];
  urls: number;
  bytes: number;
  diskBytes: number;
  duplicates: number;
  /** Files of the previous set removed after the commit. */
  removed: string[];
}

/** Reads and checks the manifests (one per shard of one set), then publishes the set's index file(s). */
export async function writeIndexFromManifests(options: IndexOptions): Promise<SetSummary> {
  const manifests = await Promise.all(options.manifests.map(readManifest));
  const settings = checkWholeSet(manifests, options.outDir);
  const files = manifests.flatMap((m) => m.files);
  // An index never names a missing child. 64 at a time: 15,000 stats at once held 25 MB.
  for (let i = 0; i < files.length; i += 64) {
    await Promise.all(
      files.slice(i, i + 64).map(async (file) => {
        const size = await stat(join(options.outDir, file.name)).then((s) => s.size, () => -1);
        if (size !== file.diskBytes) throw new SitemapError('ERR_SITEMAP_STATE', `${file.name}, listed by a manifest, is ${size === -1 ? 'missing' : `${size} bytes, not ${file.diskBytes}`} in ${options.outDir}; write its shard again`);
      }),
    );
  }
  if (options.syncChildren === true) await syncFiles(files.map((file) => join(options.outDir, file.name)));
  // Manifests from elsewhere (a run's folder) go in only once the set is published: until then the
  // folder's manifests stay the published set's.
  const copied = manifests.filter((_, i) => dirname(resolve(options.manifests[i] as string)) !== resolve(options.outDir));
  const { indexFiles, removed } = await publishInPlace(settings, files, { ...options, manifests: copied });
  return { outDir: options.outDir, indexFiles, files: sortByName(files), urls: sum(files, 'urls'), bytes: sum(files, 'bytes'), diskBytes: sum(files, 'diskBytes'), duplicates: manifests.reduce((n, m) => n + m.duplicates, 0), removed };
}

export async function readManifest(path: string): Promise<ShardManifest> {
  let manifest: ShardManifest;
  try {
    manifest = JSON.parse(await readFile(path, 'utf8')) as ShardManifest;
  } catch (error) {
    throw new SitemapError('ERR_SITEMAP_STATE', `cannot read the manifest ${path}: ${error instanceof SyntaxError ? error.message : ioErrorReason(error)}`);
  }
  if (manifest?.format !== 'sitemapkit-shard' || manifest.version !== 1 || !Array.isArray(manifest.files)) {
    throw new SitemapError('ERR_SITEMAP_STATE', `${path} is not a shard manifest of sitemapkit (version 1)`);
  }
  const expected = manifestFileName(String(manifest.name), manifest.shard, manifest.shards);
  if (basename(path) !== expected) throw new SitemapError('ERR_SITEMAP_STATE', `${path} holds shard ${manifest.shard} of ${manifest.shards} of the set "${String(manifest.name)}", whose manifest is ${expected}: a manifest edited or renamed is not trusted; write its shard again`);
  // A name with a path in it (`../x`) would be checked, listed and published outside the set's folder; one of another bucket, listed twice.
  const stray = manifest.files.find((file) => typeof file?.name !== 'string' || /[/\\]/.test(file.name) || childStemOf(file.name) !== file.child || !file.child.startsWith(`${manifest.name}-`) || !file.child.endsWith(`.${manifest.shard}`));
  if (stray !== undefined) throw new SitemapError('ERR_SITEMAP_STATE', `${path} lists ${JSON.stringify(stray?.name)}, which is not a child file of the set "${String(manifest.name)}" in shard ${manifest.shard}`);
  return manifest;
}

/** The set's settings, once every manifest is of one set and every shard is there exactly once. */
function checkWholeSet(manifests: readonly ShardManifest[], outDir: string): ShardSettings {
  const first = manifests[0];
  if (first === undefined) throw new SitemapError('ERR_SITEMAP_OPTION', 'no manifest: give the manifest of every shard');
  const key = (m: ShardManifest): string => JSON.stringify([m.layout, m.name, m.shards, m.baseUrl, m.gzip, m.gzipLevel, m.maxUrls, m.maxBytes, m.profile, m.xslUrl, m.noScope]);
  const seen = new Set<number>();
  for (const manifest of manifests) {
    if (key(manifest) !== key(first)) throw new SitemapError('ERR_SITEMAP_STATE', `the manifests are of different sets: shard ${manifest.shard} of ${manifest.shards} of "${manifest.name}" (${manifest.baseUrl}) and shard ${first.shard} of ${first.shards} of "${first.name}" (${first.baseUrl})`);
    if (seen.has(manifest.shard)) throw new SitemapError('ERR_SITEMAP_STATE', `shard ${manifest.shard} is given twice`);
    seen.add(manifest.shard);
  }
  const missing = Array.from({ length: first.shards }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length > 0) throw new SitemapError('ERR_SITEMAP_STATE', `the set is not whole: no manifest for shard${missing.length > 1 ? 's' : ''} ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''} of ${first.shards}`);
  return settingsOfManifest(first, outDir);
}

function sortByName<T extends { name: string }>(files: readonly T[]): T[] {
  return [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** How a set is published, besides its files: see publishSet. */
export interface PublishOptions {
  /** Children per index file; default the limits' 50,000. Lower it only to see the split. */
  maxSitemapsPerIndex?: number;
  /** Runs before each write of the publish (the index, each removal, each manifest); throws to stop it (a queue job whose lock is lost). */
  beforeWrite?: () => Promise<void>;
  /** Where the publish is staged (StagedOutputOptions.stageIn). */
  stageIn?: string;
  /** Manifests written once the set is published (the shards' of a run, or those an apply changed). */
  manifests?: readonly ShardManifest[];
}

/**
 * Commits a set: the staged children, then its index file(s) at one instant (a rename of `NAME.xml`, or
 * of the link `NAME-indexes`), then removes the previous set's unnamed files, then writes `manifests`.
 * Every write is a rename out of (a removal: into) the temporary folder, so a process whose folder
 * went (a finished queued run's) writes nothing.
 */
export async function publishSet(output: StagedOutput, settings: ShardSettings, files: readonly ShardFile[], placed: readonly StagedFile[], options: PublishOptions = {}): Promise<{ indexFiles: IndexFile[]; removed: string[] }> {
  const { outDir, name } = settings;
  const sorted = sortByName(files);
  await checkNamesApart(outDir, name, sorted.map((file) => file.name));
  const beforeWrite = options.beforeWrite;
  if (sorted.length === 0) throw new SitemapError('ERR_SITEMAP_EMPTY', 'no URLs to write: the set is empty');
  const per = Math.max(1, Math.min(options.maxSitemapsPerIndex ?? Infinity, settings.limits.maxSitemapsPerIndex));
  const chunks: ShardFile[][] = [];
  for (let i = 0; i < sorted.length; i += per) chunks.push(sorted.slice(i, i + per));
  const names = indexFileNames(name, chunks.length);
  const texts = chunks.map((chunk) => serializeSitemapIndex(chunk.map((f) => ({ loc: normalizeUrl(f.name, 'loc', settings.baseUrl), ...(f.lastmod !== undefined ? { lastmod: f.lastmod } : {}) })), { limits: settings.limits, ...(settings.xslUrl !== undefined ? { xslUrl: settings.xslUrl } : {}) }));
  const indexFiles = names.map((file, i) => ({ name: file, path: join(outDir, file), loc: normalizeUrl(file, 'loc', settings.baseUrl), sitemaps: (chunks[i] as ShardFile[]).length }));
  const keep = new Set([...sorted.map((f) => f.name), ...Array.from({ length: settings.shards }, (_, shard) => manifestFileName(name, shard, settings.shards))]);
  let removed: string[] = [];
  const after = async (): Promise<void> => {
    removed = await removeUnnamed(output, settings, keep, beforeWrite);
    const manifests = (options.manifests ?? []).map((manifest) => manifestFileName(manifest.name, manifest.shard, manifest.shards));
    for (const [i, file] of manifests.entries()) await writeFile(output.path(file), manifestText(options.manifests?.[i] as ShardManifest));
    await syncFiles(manifests.map((file) => output.path(file)));
    for (const file of manifests) {
      await beforeWrite?.();
      await rename(output.path(file), join(outDir, file));
    }
    // The renames made durable (as writeFileAtomic's); best effort where a folder cannot be opened.
    if (manifests.length > 0) await syncFiles([outDir]).catch(() => undefined);
  };
  if (texts.length === 1) {
    await writeFile(output.path(names[0] as string), texts[0] as string);
    keep.add(names[0] as string);
    await beforeWrite?.();
    await output.commit({ children: placed, entry: { staged: names[0] as string, name: names[0] as string }, after });
  } else {
    // Several index files: a folder named by their content, and a link to it renamed over the old one.
    const folder = `${indexLink(name)}.${contentToken(crc32(texts.join('\0')))}`;
    const exists = await lstat(join(outDir, folder)).then((s) => s.isDirectory(), () => false);
    if (!exists) {
      await mkdir(output.path(folder));
      await Promise.all(texts.map((text, i) => writeFile(output.path(folder + (names[i] as string).slice(indexLink(name).length)), text)));
    }
    const link = join(outDir, indexLink(name));
    const linked = (await readlink(link).catch(() => undefined)) === folder;
    if (!linked) await symlink(folder, output.path(indexLink(name)));
    keep.add(indexLink(name)).add(folder);
    await beforeWrite?.();
    await output.commit({
      children: [...placed, { staged: folder, name: folder, inPlace: exists }],
      after: async () => {
        if (!linked) {
          await beforeWrite?.();
          await rename(output.path(indexLink(name)), link);
        }
        await after();
      },
    });
  }
  return { indexFiles, removed };
}

/**
 * Refuses the set `name` beside a sharded set named `name-…`, or whose name `name` extends: section
 * `news-x` of `sitemap` and `x` of `sitemap-news` are both `sitemap-news-x`, so neither could tell its
 * old children (to remove them) from the other's. Beside a set of another kind named `name-…` (build's,
 * generate's), only `children` (names or stems) of that name are refused: they would be kept as its, stale for ever.
 * `unpublished`: sharded sets being written, with no manifest yet.
 */
export async function checkNamesApart(outDir: string, name: string, children: Iterable<string> = [], unpublished: readonly string[] = []): Promise<void> {
  const listing = await readdir(outDir);
  for (const other of [...listing.map((file) => /^(.+)-shard-\d+-of-\d+\.json$/.exec(file)?.[1]), ...unpublished]) {
    if (other === undefined || !(other.startsWith(`${name}-`) || name.startsWith(`${other}-`))) continue;
    const [short, long] = other.length < name.length ? [other, name] : [name, other];
    throw new SitemapError('ERR_SITEMAP_STATE', `the set "${name}" cannot be published in ${outDir} beside the sharded set "${other}": their children's names overlap (section ${long.slice(short.length + 1)}-x of "${short}" and x of "${long}" are both ${long}-x); give one of them another name or folder`);
  }
  const theirs = ofLongerSet(name, listing);
  for (const child of children) {
    const other = theirs(child);
    if (other !== undefined) throw new SitemapError('ERR_SITEMAP_STATE', `the set "${name}" cannot be published in ${outDir} beside the set "${other}": its child ${child} would be taken for one of "${other}" and never removed; give one of them another name or folder`);
  }
}

/** publishSet for a set whose children are all in its folder already (written by shards, or by a queued apply's jobs). */
export async function publishInPlace(settings: ShardSettings, files: readonly ShardFile[], options: PublishOptions = {}): Promise<{ indexFiles: IndexFile[]; removed: string[] }> {
  // Holding the set's lock; a queued run's index job stages in its run's folder, whose run holds it.
  const output = await StagedOutput.create(settings.outDir, { name: settings.name, gzipLevel: 0, ...(options.stageIn !== undefined ? { stageIn: options.stageIn } : { exclusive: true }) });
  try {
    return await publishSet(output, settings, files, [], options);
  } finally {
    await output.abort();
  }
}

/** After the commit: files of earlier sets of this name that the new set does not name, moved into the output's temporary folder (removed with it). */
async function removeUnnamed(output: StagedOutput, { outDir, name }: ShardSettings, keep: ReadonlySet<string>, beforeWrite?: () => Promise<void>): Promise<string[]> {
  const link = indexLink(name);
  const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const others = new RegExp(`^(?:${literal(name)}(?:\\.xml|-shard-\\d+-of-\\d+\\.json)|${literal(link)}(?:\\.[0-9a-f]{8})?)$`);
  const listing = (await readdir(outDir)).sort();
  // Children of this name, sharded or plain (an earlier generate's), not of another set: `NAME-news-00001` is a plain `NAME-news`'s (a sharded one is refused: checkNamesApart).
  const plain = numberedSetPattern(name);
  const ours = (file: string): boolean => !keep.has(file) && (plain.test(file) || childStemOf(file)?.startsWith(`${name}-`) === true);
  const theirs = await ofOtherSets(outDir, name, listing, listing.filter(ours));
  const child = (file: string): boolean => ours(file) && !theirs.has(file);
  const removed: string[] = [];
  for (const file of listing) {
    if (keep.has(file) || !(child(file) || others.test(file))) continue;
    await beforeWrite?.();
    try {
      await rename(join(outDir, file), output.path(`removed-${file}`));
    } catch (error) {
      throw new SitemapError('ERR_SITEMAP_WRITE', `the new sitemaps are in place, but ${join(outDir, file)}, no longer part of them, cannot be removed: ${ioErrorReason(error)}`);
    }
    removed.push(file);
  }
  return removed;
}
