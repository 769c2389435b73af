// A set in a directory as a serve source: only the entry file and the files it names, held in memory
// (beyond `maxBytes`, read through a handle opened at load, so the bytes stay those tagged). Sets are
// committed by renaming the entry file last (staged-output.ts); a change to any file of the set loads
// it again, and the new set replaces the old in one assignment so no answer mixes two. Old children
// stay served for a grace period: crawlers fetch children long after the index.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { watch, constants, type FSWatcher, type Stats } from 'node:fs';
import { lstat, open, readdir, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import { SitemapError, checkCount } from '../../core/errors.js';
import { dedupeKey, scopeOf } from '../../core/url.js';
import { readXmlSitemapText } from '../../core/read/xml-reader.js';
import { SAFE_NAME as PLAIN_NAME, strongEtag, type SitemapFile, type SitemapSource } from '../../core/serve/handler.js';
import { textOf, viewOfFiles, type SetView } from '../../core/serve/set-page.js';
import { decompressed } from '../decompress.js';
import { ioErrorReason } from '../io-errors.js';

const gzipAsync = promisify(gzip);

export interface DirectorySourceOptions {
  dir: string;
  /** The entry file: the index or the single sitemap (default `sitemap.xml`). */
  entry?: string;
  /** Where the set is served: a child of the index is served only when its loc sits under it, at its path below it. */
  baseUrl?: string;
  /** How long the children of a replaced set stay served, in milliseconds (default one hour). */
  graceMs?: number;
  /** Bytes of files held in memory at most, the old sets' children included (default 512 MiB); the others are read from disk when asked for. */
  maxBytes?: number;
  /** How often the set's files are checked when no change was notified, in milliseconds (default 1000): the entry file and 500 children a poll, so a child rewritten in place is seen within ceil(children / 500) polls, loaded once unchanged at two looks half this apart. */
  pollMs?: number;
  /** URLs listed on the page for people (default 10,000; every URL is counted). */
  pageUrls?: number;
  /** Called after a new set is loaded, and when one cannot be (the previous set is still served). */
  onChange?: (event: { loaded: string[] } | { error: SitemapError }) => void;
}

export interface DirectorySource extends SitemapSource {
  /** What the page for people shows of the current set (core/serve/set-page.ts). */
  view(): Promise<SetView>;
  /** The names of the current set, the entry file first. */
  readonly names: readonly string[];
  /** The children the current set's index lists that are not served, with why. */
  readonly skipped: readonly Skipped[];
  /** Loads the set again now (what a change of one of its files does); resolves once the new set is served, or the old one kept. */
  reload(): Promise<void>;
  /** Stops following the directory. */
  close(): void;
}

/** A child of the index that is not served, and why. */
export interface Skipped {
  loc: string;
  reason: string;
}

/** A file as loaded, and what identifies its version on disk. */
interface Loaded {
  file: SitemapFile;
  version: string;
  /** Bytes held in memory (0 for a file read from disk). */
  bytes: number;
  /** The open file a file read from disk is read through. */
  held?: Held;
}

/** An open file, with the responses reading it: closed once the set no longer serves it and the last of them ends. */
type Held = { handle: FileHandle; readers: number; released: boolean };

interface LoadedSet {
  files: Map<string, Loaded>;
  /** The children its entry file lists, by their path in `dir` (to the loc): kept while the entry file is. */
  children: Map<string, string>;
  /** Bytes its files hold in memory. */
  bytes: number;
  skipped: Skipped[];
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*\.(?:xml|xml\.gz|txt)$/;
/** Children a poll looks at, beside the entry file. */
const LOOKS = 500;

/** Opens the set in `options.dir`; throws a SitemapError (ERR_SITEMAP_SERVE) when there is none to serve. */
// eslint-disable-next-line max-lines-per-function -- a closure factory: loads, polls and lookups share the set served, the retired children and the last failure
export async function openDirectorySource(options: DirectorySourceOptions): Promise<DirectorySource> {
  const entryName = options.entry ?? 'sitemap.xml';
  if (!SAFE_NAME.test(entryName)) throw new SitemapError('ERR_SITEMAP_OPTION', `the entry file must be a plain name ending in .xml or .txt, got ${JSON.stringify(entryName)}`);
  for (const [name, least] of [['graceMs', 0], ['maxBytes', 0], ['pollMs', 1], ['pageUrls', 0]] as const) checkCount(name, options[name], least);
  const graceMs = options.graceMs ?? 3_600_000;
  const maxBytes = options.maxBytes ?? 512 * 1024 * 1024;
  const childBase = options.baseUrl === undefined ? undefined : scopeOf(options.baseUrl).prefix;
  const pollMs = options.pollMs ?? 1000;
  // The version of each child last seen, and since when: one rewritten in place is loaded once it stops changing.
  const settle: Settle = { looks: new Map(), ms: pollMs / 2 };
  let current = await loadSet(options.dir, entryName, childBase, undefined, maxBytes, settle);
  // Children of earlier sets, with the time until which they are served.
  const retired = new Map<string, { loaded: Loaded; until: number }>();

  let pending: Promise<void> | undefined;
  /** The versions of the files and of a folder (that of the file that failed) when loading last failed: reported once per versions. */
  let failed: Map<string, string> | undefined;
  let failedFolder = '.';
  /** A child was being written when loading last failed: the next poll loads again, whichever children it looks at. */
  let settling = false;
  /** The versions on disk of files and folders (in `dir`), by name. */
  const look = async (names: string[]): Promise<Map<string, string>> => new Map(await Promise.all(names.map(async (name) => [name, await versionAt(join(options.dir, name))] as const)));
  // What the next load looks at: the children told changed since the last began and those of a load that failed, or (undefined) every file.
  let queued: Set<string> | undefined = new Set();
  let again = false;
  const tell = (event: Parameters<NonNullable<DirectorySourceOptions['onChange']>>[0]): void => {
    try {
      options.onChange?.(event);
    } catch {
      // A callback that throws changes nothing served.
    }
  };
  const reload = (changed?: Iterable<string>): Promise<void> => {
    if (changed === undefined) queued = undefined;
    else for (const name of changed) queued?.add(name);
    again = true;
    pending ??= (async () => {
      while (again) {
        // The entry file unchanged: the same children, of which only those told changed are looked at (a change costs them, not the set).
        const only = (await versionAt(join(options.dir, entryName))) === current.files.get(entryName)?.version ? queued : undefined;
        [again, settling, queued] = [false, false, new Set()];
        // The versions before the load: a change since (a named child arriving late) is worth another attempt.
        const before = await look(['.', entryName, ...(only ?? current.files.keys())]);
        try {
          const next = await loadSet(options.dir, entryName, childBase, current, maxBytes, settle, only);
          failed = undefined;
          if (next === current) continue;
          const now = Date.now();
          for (const [name, loaded] of current.files) {
            if (name !== entryName && !next.files.has(name)) retired.set(name, { loaded, until: now + graceMs });
            else if (next.files.get(name) !== loaded) release(loaded);
          }
          for (const name of next.files.keys()) {
            const old = retired.get(name);
            if (old !== undefined && next.files.get(name) !== old.loaded) release(old.loaded);
            retired.delete(name);
          }
          current = next;
          for (const name of settle.looks.keys()) if (!next.files.has(name)) settle.looks.delete(name);
          pruneRetired(retired, now, maxBytes - current.bytes);
          tell({ loaded: [...current.files.keys()] });
        } catch (error) {
          // Reported once per version of the set's files and of the folder (a child's subfolder), not at every poll; a child being written is looked at again.
          const { folder = '.', version, settling: writing = false } = error as { folder?: string; version?: string; settling?: boolean };
          [failedFolder, failed, settling, queued] = [folder, version === undefined ? before : before.set(folder, version), writing, only && queued && new Set([...queued, ...only])];
          if (!writing) tell({ error: error instanceof SitemapError ? error : new SitemapError('ERR_SITEMAP_SERVE', `cannot load the set in ${options.dir}: ${ioErrorReason(error)}`) });
        }
      }
    })().finally(() => {
      pending = undefined;
    });
    return pending;
  };

  // The children looked at in turn, LOOKS a poll: a poll's work does not grow with the set (docs/performance.md).
  let round: string[] = [];
  let at = 0;
  const check = async (): Promise<void> => {
    // From 1: the entry file, first, is looked at every poll.
    if (at >= round.length) [round, at] = [[...current.files.keys()], 1];
    const seen = await look([failedFolder, entryName, ...round.slice(at, (at += LOOKS))]);
    // Changed since the last load that failed, else since the set served.
    const changed = [...seen].filter(([name, version]) => (failed?.get(name) ?? current.files.get(name)?.version ?? version) !== version).map(([name]) => name);
    if (settling || changed.length > 0) await reload(changed);
  };
  const stopFollowing = follow(options.dir, (name) => current.files.has(name), pollMs, (name) => void reload(name === null ? undefined : [name]), check);

  // The page for people, made once per set when first asked for.
  const views = new WeakMap<LoadedSet, Promise<SetView>>();
  return {
    view() {
      let view = views.get(current);
      if (view === undefined) views.set(current, (view = viewOf(current, entryName, options.pageUrls ?? 10_000)));
      return view;
    },
    get names() {
      return [...current.files.keys()];
    },
    get skipped() {
      return current.skipped;
    },
    // From the set served until the one being loaded, if any, is whole (one commit point): no request waits for it.
    file: lookup,
    reload,
    close() {
      stopFollowing();
      // Once a load under way is done: the files it opened are closed too.
      void Promise.resolve(pending).then(() => {
        for (const loaded of [...current.files.values(), ...[...retired.values()].map((old) => old.loaded)]) void loaded.held?.handle.close().catch(() => {});
      });
    },
  };

  function lookup(name: string): SitemapFile | undefined {
    const found = current.files.get(name);
    if (found !== undefined) return found.file;
    const old = retired.get(name);
    if (old === undefined) return undefined;
    if (old.until > Date.now()) return old.loaded.file;
    retired.delete(name);
    release(old.loaded);
    return undefined;
  }
}

/** Calls `changed` when fs.watch tells of a file `followed` (null: unnamed), and `poll` every `pollMs` (for what watching misses); returns the stop. */
function follow(dir: string, followed: (name: string) => boolean, pollMs: number, changed: (name: string | null) => void, poll: () => Promise<void>): () => void {
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, { persistent: false }, (_event, filename) => {
      if (filename === null || followed(filename)) changed(filename);
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    // No watching here: the poll alone follows the set.
  }
  // The next poll `pollMs` after the last ended: polls of a large set or a slow disk never pile up.
  let timer: NodeJS.Timeout | undefined;
  const again = (): void => void (timer = setTimeout(() => void poll().finally(() => timer && again()), pollMs).unref());
  again();
  return () => {
    clearTimeout(timer);
    timer = undefined;
    watcher?.close();
  };
}

/** Loads the entry file and the files it names (unchanged ones from `previous`, which is returned if all are; the entry unchanged, those not in `only` unlooked at), again if the entry changes meanwhile. */
async function loadSet(dir: string, entryName: string, childBase: string | undefined, previous: LoadedSet | undefined, maxBytes: number, settle: Settle, only?: ReadonlySet<string>): Promise<LoadedSet> {
  for (let attempt = 0; ; attempt++) {
    const entry = await loadFile(dir, entryName, previous?.files.get(entryName));
    // The entry file unchanged, and only some children told changed: the rest of the set as it was, its list as read last.
    const kept = only !== undefined && entry === previous?.files.get(entryName) ? previous : undefined;
    const files = new Map<string, Loaded>(kept?.files ?? [[entryName, entry]]);
    let total = kept?.bytes ?? entry.bytes;
    let failure: { error: unknown } | undefined;
    const skipped: Skipped[] = kept?.skipped ?? [];
    let children = new Map<string, string>();
    try {
      children = kept?.children ?? (await childNames(dir, entry.file, entryName, childBase, skipped));
      for (const name of kept === undefined ? children.keys() : [...(only ?? [])].filter((name) => children.has(name))) {
        const loc = children.get(name) as string;
        // With its folder and the versions before the child was opened: a change since (a file added there) is worth another attempt.
        const folder = dirname(name);
        const version = folder === '.' ? undefined : await versionAt(join(dir, folder));
        const child = await loadFile(dir, name, previous?.files.get(name), maxBytes - total, settle).catch((error: SitemapError & { settling?: boolean; version?: string }) => {
          // A child cut short is looked at itself: written on in place, its folder does not change.
          const looked = error.version === undefined ? { folder, version } : { folder: name, version: error.version };
          throw Object.assign(new SitemapError('ERR_SITEMAP_SERVE', `the child sitemap ${JSON.stringify(loc)} listed by ${entryName}: ${error.message}`), { ...looked, settling: error.settling });
        });
        total += child.bytes - (files.get(name)?.bytes ?? 0);
        files.set(name, child);
      }
    } catch (error) {
      failure = { error };
    }
    const changed = attempt < 3 && (await versionAt(join(dir, entryName))) !== entry.version;
    if (failure === undefined && !changed) return previous !== undefined && files.size === previous.files.size && [...files].every(([name, loaded]) => previous.files.get(name) === loaded) ? previous : { files, children, bytes: total, skipped };
    // Handles opened for this attempt: closed, as it does not become the set.
    for (const [name, loaded] of files) if (previous?.files.get(name) !== loaded) release(loaded);
    if (failure !== undefined && !changed) throw failure.error;
  }
}

/** The files the entry file lists: the children of an index, by their path in `dir` (to the loc); those not served to `skipped`. */
async function childNames(dir: string, entry: SitemapFile, entryName: string, childBase: string | undefined, skipped: Skipped[]): Promise<Map<string, string>> {
  if (!entryName.endsWith('.xml')) return new Map();
  const reading = readXmlSitemapText(await textOf(entry), { maxEntries: 50_000 });
  // An entry file cut short is no set: serving it would hide the children it no longer names.
  const broken = reading.diagnostics.find((d) => d.code.startsWith('xml/') && d.severity === 'error');
  if (broken !== undefined) throw new SitemapError('ERR_SITEMAP_SERVE', `${entryName}${broken.line === undefined ? '' : `:${broken.line}:${broken.column ?? 1}`}: not well-formed XML: ${broken.message}`);
  if (reading.format === 'urlset') return new Map();
  if (reading.format !== 'sitemapindex') throw new SitemapError('ERR_SITEMAP_SERVE', `${entryName} is not a sitemap or a sitemap index (${reading.format})`);
  // The entry file's name is taken, by no loc ('').
  const names = new Map<string, string>([[entryName, '']]);
  // The folders in `dir`: a path whose first folder is not one is not looked for (a loc of a thousand segments costs none).
  const top = new Set(childBase === undefined ? (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name) : []);
  for (const { loc } of reading.sitemaps) {
    const name = await childPath(dir, top, loc, childBase);
    const taken = typeof name === 'string' ? names.get(name) : undefined;
    const reason = typeof name !== 'string' ? name.reason : taken === '' ? "its file name is the entry file's" : taken !== undefined && taken !== loc ? `its file name is that of ${taken}, listed before` : undefined;
    if (reason !== undefined) skipped.push({ loc, reason });
    else names.set(name as string, loc);
  }
  names.delete(entryName);
  return names;
}

/**
 * A child's file in `dir`, by the path a client asks for it (its loc's, RFC 3986 §6.2.2 normalised: dedupeKey), below the base URL;
 * without one (the index's own URL unknown), the longest end of that path naming a file in `dir` (so a set made for
 * https://x/maps/ is served from its top), else in a folder of `dir`. Else why it is not served.
 */
async function childPath(dir: string, top: ReadonlySet<string>, given: string, childBase: string | undefined): Promise<string | { reason: string }> {
  const loc = dedupeKey(given);
  const last = loc.slice(loc.lastIndexOf('/') + 1);
  if (!SAFE_NAME.test(last)) return { reason: `its last path segment ${JSON.stringify(last)} is no file name served (a plain name ending in .xml, .xml.gz or .txt)` };
  const url = URL.canParse(loc) ? new URL(loc) : undefined;
  if (childBase !== undefined) {
    if (url === undefined || !url.href.startsWith(childBase)) return { reason: `it is not under the base URL ${childBase}` };
    const name = url.href.slice(childBase.length);
    return name.split('/').every((segment) => PLAIN_NAME.test(segment)) ? name : { reason: `its path below the base URL ${JSON.stringify(name)} has a folder that is no plain name` };
  }
  const segments = top.size > 0 && url !== undefined ? url.pathname.split('/') : [last];
  let from = segments.length - 1;
  while (from > 0 && PLAIN_NAME.test(segments[from - 1] as string)) from--;
  // None: the longest whose folder is there, where the file may yet come (its last segment, in `dir` itself).
  let inFolder = last;
  for (; from < segments.length - 1; from++) {
    if (!top.has(segments[from] as string)) continue;
    const name = segments.slice(from).join('/');
    if (await lstat(join(dir, name)).then(() => true, () => false)) return name;
    if (inFolder === last && (await lstat(dirname(join(dir, name))).then((info) => info.isDirectory(), () => false))) inFolder = name;
  }
  return inFolder;
}

/** The versions of the children last seen (name → version, since when), and how long one rewritten in place must stay unchanged. */
type Settle = { looks: Map<string, { version: string; at: number }>; ms: number };

/** Reads one file of the set (never through a symlink); one that does not fit in `room` is read when sent; a child rewritten in place once it `settle`s. */
async function loadFile(dir: string, name: string, previous: Loaded | undefined, room = Infinity, settle?: Settle): Promise<Loaded> {
  let handle: FileHandle;
  try {
    // O_NOFOLLOW guards the file only: each folder on its path is checked not to be a symlink.
    for (let slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
      if ((await lstat(join(dir, name.slice(0, slash)))).isSymbolicLink()) throw new Error(`${name.slice(0, slash)} is a symbolic link`);
    }
    // O_NONBLOCK: a FIFO named by the set would otherwise block the open, and every request with it.
    handle = await open(join(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw new SitemapError('ERR_SITEMAP_SERVE', `cannot read ${join(dir, name)}: ${ioErrorReason(error)}`);
  }
  let kept = false;
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new SitemapError('ERR_SITEMAP_SERVE', `${join(dir, name)} is not a regular file`);
    const version = versionOf(info);
    if (previous !== undefined && previous.version === version) return previous;
    if (settle !== undefined && !settled(settle, name, info)) throw Object.assign(new SitemapError('ERR_SITEMAP_SERVE', `${join(dir, name)} is being written`), { settling: true });
    const read = await handle.readFile();
    // Written in place while it was read (a copy over it): the bytes may be a mix of two versions.
    if (versionOf(await handle.stat()) !== version) throw new SitemapError('ERR_SITEMAP_SERVE', `${join(dir, name)} was written to while it was read`);
    // A view of the bytes read, not a copy: the whole set passes through here at start.
    const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    // A .gz file is sent as gzip (Content-Encoding: gzip for its .xml name): one that is not would fail every client.
    if (name.endsWith('.gz') && (bytes[0] !== 0x1f || bytes[1] !== 0x8b)) throw new SitemapError('ERR_SITEMAP_SERVE', `${join(dir, name)} is not gzip data (no gzip header, RFC 1952 §2.3.1)`);
    // A child is taken once whole (one being written is no child, as an entry file cut short is no set): its version is looked at till then.
    if (settle !== undefined && !name.endsWith('.txt') && !(name.endsWith('.gz') ? await isWholeGzip(bytes) : isWholeXml(bytes))) {
      throw Object.assign(new SitemapError('ERR_SITEMAP_SERVE', `${join(dir, name)} is cut short (being written?): its root element ${name.endsWith('.gz') ? 'or gzip data ' : ''}does not end`), { version });
    }
    const etag = await strongEtag(bytes);
    // Last-Modified: when the bytes last changed; the later of mtime and ctime, never earlier than the change.
    const same = previous !== undefined && (previous.file.identity ?? previous.file.gzip)?.etag === etag;
    const lastModified = same ? previous.file.lastModified : Math.max(info.mtimeMs, info.ctimeMs);
    if (bytes.byteLength > room) {
      kept = true;
      const held = { handle, readers: 0, released: false };
      const onDisk = { etag, length: bytes.byteLength, stream: () => streamFrom(held, info) };
      return { version, bytes: 0, held, file: name.endsWith('.gz') ? { lastModified, gzip: onDisk } : { lastModified, identity: onDisk } };
    }
    const representation = { body: bytes, etag };
    if (name.endsWith('.gz')) return { version, bytes: bytes.byteLength, file: { lastModified, gzip: representation } };
    // The entry file is plain XML: gzipped once here, for clients that accept it.
    const gzipped = new Uint8Array(await gzipAsync(bytes, { level: 9 }));
    const file: SitemapFile = { lastModified, identity: representation, gzip: { body: gzipped, etag: await strongEtag(gzipped) } };
    return { version, bytes: bytes.byteLength + gzipped.byteLength, file };
  } catch (error) {
    if (error instanceof SitemapError) throw error;
    throw new SitemapError('ERR_SITEMAP_SERVE', `cannot read ${join(dir, name)}: ${ioErrorReason(error)}`);
  } finally {
    if (!kept) await handle.close();
  }
}

/**
 * The bytes of an open file, read as sent (positioned: streams share the handle). One written in place
 * since it was loaded is cut before its last bytes: never sent whole under the tag of other bytes.
 */
function streamFrom(held: Held, loaded: Stats): ReadableStream<Uint8Array> {
  const length = loaded.size;
  let position = 0;
  let reading = true;
  held.readers++;
  const end = (): void => {
    if (reading) held.readers--;
    reading = false;
    closeIdle(held);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (position < length) {
          const buffer = new Uint8Array(Math.min(64 * 1024, length - position));
          const { bytesRead } = await held.handle.read(buffer, 0, buffer.byteLength, position);
          // Its mtime, not its ctime: a file removed by a new set (and still served) has a new ctime.
          const last = position + bytesRead >= length;
          if (bytesRead === 0 || (last && (await held.handle.stat()).mtimeMs !== loaded.mtimeMs)) throw new SitemapError('ERR_SITEMAP_SERVE', 'a file of the set was changed while served');
          position += bytesRead;
          controller.enqueue(buffer.subarray(0, bytesRead));
          if (!last) return;
        }
        controller.close();
      } catch (error) {
        controller.error(error);
      }
      end();
    },
    cancel: end,
  });
}

/**
 * Whether a child's version is whole enough to load: one first seen, or renamed into place (a new file), is; one rewritten
 * in place (the same file, other size or times than last seen) is once seen unchanged for `settle.ms`.
 */
function settled({ looks, ms }: Settle, name: string, info: Stats): boolean {
  const version = versionOf(info);
  const seen = looks.get(name);
  const now = Date.now();
  if (seen?.version !== version) looks.set(name, { version, at: now });
  if (seen === undefined || !seen.version.startsWith(`${info.dev}:${info.ino}:`)) return true;
  return seen.version === version && now - seen.at >= ms;
}

/** What isWholeXml reads of each end. */
const LOOK = 64 * 1024;

/**
 * Whether XML bytes are a whole document: its root element ended (empty, or by its end tag followed by blanks, comments and
 * PIs only: XML 1.0 §2.1), which a file being written is not yet. `head` and `tail` are its first and last bytes (`bytes`
 * whole by default). UTF-16's NULs are dropped (the names are ASCII).
 */
export function isWholeXml(head: Uint8Array, tail = head): boolean {
  const latin1 = (part: Uint8Array): string => Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('latin1').replaceAll('\0', '');
  const root = /^(?:\xef\xbb\xbf|\xff\xfe|\xfe\xff|\s|<\?[^]*?\?>|<!--[^]*?-->|<!DOCTYPE[^[>]*(?:\[[^]*?\])?\s*>)*<([A-Za-z_:][^\s/>]*)[^<]*?(\/?)>/.exec(latin1(head.subarray(0, LOOK)));
  if (root === null || root[2] === '/') return root !== null;
  let end = latin1(tail.subarray(-LOOK)).trimEnd();
  while (end.endsWith('-->') || end.endsWith('?>')) end = end.slice(0, end.lastIndexOf(end.endsWith('-->') ? '<!--' : '<?')).trimEnd();
  return /<\/([^\s<>]+)\s*>$/.exec(end)?.[1] === root[1];
}

/** A child this small is gunzipped at once on this thread (to at most AT_ONCE bytes): a trip to zlib's pool, or a stream, costs more. */
const SMALL = 64 * 1024;
const AT_ONCE = 8 * 1024 * 1024;

/** isWholeXml of gzipped XML, read within decompress's budgets (a bomb costs at most them, and throws); false where the gzip data is cut short or wrong. */
async function isWholeGzip(bytes: Uint8Array): Promise<boolean> {
  if (bytes.length <= SMALL) {
    try {
      return isWholeXml(gunzipSync(bytes, { maxOutputLength: AT_ONCE }));
    } catch {
      // Past AT_ONCE, or gzip data zlib refuses (cut short, or bytes after its members): the stream tells which.
    }
  }
  let head: Uint8Array = new Uint8Array(0);
  let tail = head;
  try {
    for await (const chunk of decompressed((async function* () { yield bytes; })(), { maxDepth: 1 })) {
      if (head.length < LOOK) head = Buffer.concat([head, chunk]);
      tail = chunk.length >= LOOK ? chunk : Buffer.concat([tail.subarray(-LOOK), chunk]);
    }
  } catch (error) {
    if (error instanceof SitemapError && error.rule?.startsWith('budget/') === true) throw error;
    return false;
  }
  return isWholeXml(head, tail);
}

/** A file no longer served: its handle, if any, closed once no response reads it. */
function release(loaded: Loaded): void {
  if (loaded.held === undefined) return;
  loaded.held.released = true;
  closeIdle(loaded.held);
}

function closeIdle(held: Held): void {
  if (held.readers === 0 && held.released) void held.handle.close().catch(() => {});
}

/** The set's files (the children of an index, else the entry file), their URL counts and newest lastmod, its first URLs. */
function viewOf(set: LoadedSet, entryName: string, listed: number): Promise<SetView> {
  const names = set.files.size === 1 ? [entryName] : [...set.files.keys()].filter((name) => name !== entryName);
  let lastModified = 0;
  for (const loaded of set.files.values()) lastModified = Math.max(lastModified, loaded.file.lastModified);
  return viewOfFiles(lastModified, names.map((name) => ({ name, file: (set.files.get(name) as Loaded).file })), listed, nextTurn);
}

/** What changes when a file is replaced or rewritten. */
function versionOf(info: Stats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

/** The version of the file or folder at `path`, `missing` when there is none. */
function versionAt(path: string): Promise<string> {
  return stat(path).then(versionOf, () => 'missing');
}

/** Drops the expired children of old sets, then the oldest ones while they take more than `room`. */
function pruneRetired(retired: Map<string, { loaded: Loaded; until: number }>, now: number, room: number): void {
  let held = 0;
  for (const [name, old] of retired) {
    if (old.until > now) held += old.loaded.bytes;
    else {
      retired.delete(name);
      release(old.loaded);
    }
  }
  // Files read from disk hold no bytes: they are never dropped for room.
  for (const [name, old] of retired) {
    if (held <= room) break;
    if (old.loaded.bytes === 0) continue;
    retired.delete(name);
    held -= old.loaded.bytes;
  }
}
