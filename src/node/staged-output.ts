// The output stage of `generate` and `build` (DESIGN.md "Never lose data"): every file of a new set is
// compressed on worker threads and staged in a temporary directory inside the target (same filesystem,
// so a rename is atomic). The commit:
// 1. each child goes in under a name no file has (named by content, core/write/child-names.ts), or stays
//    when a file of that name holds its bytes: nothing the old entry file names is replaced or removed;
// 2. the children are flushed to disk, then the directory;
// 3. the entry file (index or single sitemap) is renamed over the old one: the commit point;
// 4. files of earlier runs the new entry file does not name are removed.
// A run killed before step 3 leaves the old set; after it, the new one. What it left is swept by the next run.
// Two runs committing one set at once would remove each other's files: an `exclusive` output holds the
// set's lock file from `create` to `abort`.

import { mkdir, mkdtemp, open, readFile, readdir, realpath, rename, rm, rmdir, stat, lstat, writeFile } from 'node:fs/promises';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { hostname, tmpdir } from 'node:os';
import { crc32 } from 'node:zlib';
import { basename, dirname, join, resolve } from 'node:path';
import { SitemapError } from '../core/errors.js';
import { contentTokens } from '../core/write/child-names.js';
import { ioErrorReason, writeError } from './io-errors.js';
import { ParallelFileWriter, type ParallelFileWriterOptions } from './parallel-gzip.js';

const TEMP_PREFIX = '.sitemapkit-tmp-';
/** This machine, in temporary folder names (`.sitemapkit-tmp-PID-HOST-…`): a run sweeps only its own. */
const HOST_TAG = (crc32(hostname()) >>> 0).toString(16).padStart(8, '0');
/** `.TARGET.tmp-PID-HOST-TIME-N`: the temporary file writeFileAtomic writes beside TARGET. */
const TEMP_FILE = /^\.(.+)\.tmp-(\d+(?:-[0-9a-z]+)+)$/;
/** `.sitemapkit-lock-NAME`, holding `PID HOST`: the run writing the set NAME into the folder. */
export const LOCK_PREFIX = '.sitemapkit-lock-';
/** Characters of a whole text handed to the compressor at a time. */
const BLOCK = 256 * 1024;

/** A file of the new set, staged under `staged` in the temporary directory, to go in as `name`. */
export interface StagedFile {
  staged: string;
  name: string;
  /** True when a file `name` already holds exactly these bytes: it is left as it is. */
  inPlace: boolean;
}

export interface CommitPlan {
  /** Files put in place before the entry file, in this order. */
  children: readonly StagedFile[];
  /** The entry file, renamed last: the commit point. Absent for a set without one (`index: never`) or whose entry file is unchanged. */
  entry?: { staged: string; name: string };
  /** Removed first: an old entry file the new set does not replace, so it never names a child replaced in place. */
  removeFirst?: readonly string[];
  /** Whether a file of the target was written by an earlier run of this set (removed when not in the new one). */
  isOwned?: (name: string) => boolean;
  /** `false`: no flush here; a later commit flushes them before its entry file names them (generate --shards). */
  durable?: false;
  /** Writes made after the commit, before the temporary directory goes and the lock is released. */
  after?: () => Promise<void>;
}

/** With the options of `files`: how it compresses. */
export interface StagedOutputOptions extends ParallelFileWriterOptions {
  /** A dry run: the set is staged outside the target directory and `commit` only says what it would do. */
  dryRun?: boolean;
  /** The set's name (`sitemap`): temporary files of killed runs for `NAME.xml` and `NAME-….xml[.gz]` are removed. */
  name: string;
  /** Hold the set's lock until `abort`: `create` fails while another run (alive, or of another machine) holds it. */
  exclusive?: boolean;
  /**
   * Where the temporary directory is made (default: the target), on its filesystem. A queued run stages in
   * its scratch folder: a worker frozen mid-commit after the run is done finds its files gone and commits nothing.
   */
  stageIn?: string;
}

export class StagedOutput {
  private done = false;

  /** `files` writes (and compresses, off the main thread) the staged files: `files.open(output.path(name))`. */
  private constructor(
    readonly outDir: string,
    readonly name: string,
    private readonly tempDir: string,
    readonly dryRun: boolean,
    readonly files: ParallelFileWriter,
    private readonly lock?: string,
    /** The folders `create` made for the target, outermost first: `abort` removes them while empty. */
    private readonly made: readonly string[] = [],
  ) {}

  static async create(outDir: string, options: StagedOutputOptions): Promise<StagedOutput> {
    // Made first: a refused option leaves nothing behind.
    const files = new ParallelFileWriter(options);
    if (options.dryRun === true) {
      // Nothing is created in or under the target; named as there, so a killed dry run is swept the same way.
      await removeStaleTemps(tmpdir(), options.name).catch(() => undefined);
      return new StagedOutput(outDir, options.name, await mkdtemp(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-${HOST_TAG}-`)), true, files);
    }
    let lock: string | undefined;
    const made: string[] = [];
    try {
      await ensureDirectory(outDir, made);
      // Swept once per lock: a run stages many times (128 shards listing 100,000 files took 80 s).
      const swept = options.exclusive !== true && locksHeld.has(resolve(outDir, `${LOCK_PREFIX}${options.name}`));
      if (options.exclusive === true) lock = await lockSet(outDir, options.name);
      if (!swept) await removeStaleTemps(outDir, options.name);
      const tempDir = await mkdtemp(join(options.stageIn ?? outDir, `${TEMP_PREFIX}${process.pid}-${HOST_TAG}-`));
      return new StagedOutput(outDir, options.name, tempDir, false, files, lock, made);
    } catch (error) {
      await files.destroy();
      await releaseLock(lock);
      await removeEmptyFolders(made);
      throw writeError(error, `to ${outDir}`);
    }
  }

  /** Path of a file inside the temporary directory. */
  path(name: string): string {
    return join(this.tempDir, name);
  }

  /** Writes `text` (or blocks of bytes, each copied) as the staged file `name`; resolves with its size on disk. */
  async write(name: string, text: string | Iterable<Uint8Array>): Promise<number> {
    const id = this.files.open(this.path(name));
    const blocks = (typeof text === 'string' ? utf8Blocks(text) : text)[Symbol.iterator]();
    // A block is taken only when the writer can take it: it is handed over before anything else runs.
    for (;;) {
      if (this.files.full) await this.files.whenWritable();
      const block = blocks.next();
      if (block.done === true) break;
      this.files.write(id, block.value);
    }
    return this.files.close(id);
  }

  /**
   * The name `staged` goes in under: the first `nameFor` a token of `crc` (its content's CRC-32) that no
   * file has, or a file of the same bytes has (`inPlace`). `known` vouches for a file without reading it;
   * `written` resolves once the staged file is complete. A name held by anything else is passed over:
   * nothing is renamed over a file an entry file may name.
   */
  async place(staged: string, crc: number, nameFor: (token: string) => string, options: { known?: (name: string) => boolean; written?: () => Promise<unknown> } = {}): Promise<StagedFile> {
    const holdsSame = async (path: string, name: string): Promise<boolean> => {
      if (options.known?.(name) === true) return true;
      await options.written?.();
      return sameFileBytes(path, this.path(staged));
    };
    try {
      let tried = 0;
      for (const token of contentTokens(crc)) {
        const name = nameFor(token);
        const path = join(this.outDir, name);
        const info = await lstat(path).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        });
        if (info === undefined) return { staged, name, inPlace: false };
        if (info.isFile() && (await holdsSame(path, name))) return { staged, name, inPlace: true };
        // Sixteen names of one content all taken by other files: not chance, something else writes here.
        if (++tried >= 16) break;
      }
    } catch (error) {
      throw writeError(error, `to ${this.outDir}`);
    }
    throw new SitemapError('ERR_SITEMAP_WRITE', `cannot find a free name for a sitemap in ${this.outDir}: the names it may take are held by other files`);
  }

  /** Commits the set (see the top of this file); returns the names removed (a dry run: those it would remove). */
  async commit(plan: CommitPlan): Promise<string[]> {
    const { outDir, dryRun } = this;
    // The new set's names, and those already gone when the old files are listed (step 4).
    const keep = new Set(plan.children.map((file) => file.name));
    if (plan.entry !== undefined) keep.add(plan.entry.name);
    try {
      await this.files.destroy();
      const removed: string[] = [];
      for (const name of plan.removeFirst ?? []) if (!keep.has(name) && (await isFile(join(outDir, name)))) removed.push(name);
      if (!dryRun) await this.moveIn(plan, removed);
      for (const name of removed) keep.add(name);
      const names = plan.isOwned === undefined ? [] : await readdir(outDir).catch((error: unknown) => {
        if (dryRun) return [];
        throw new SitemapError('ERR_SITEMAP_WRITE', `the new sitemaps are in place, but ${outDir} cannot be read to remove the old ones: ${ioErrorReason(error)}`);
      });
      // Step 4: the files of earlier runs that the new set does not name.
      // An index this run removes (a build renamed) is no other set's.
      const owned = names.filter((name) => !keep.has(name) && plan.isOwned?.(name) === true);
      const theirs = await ofOtherSets(outDir, this.name, names.filter((name) => plan.isOwned?.(name) !== true), owned);
      for (const name of owned.sort()) {
        if (theirs.has(name)) continue;
        if (!dryRun) {
          await rm(join(outDir, name), { force: true }).catch((error: unknown) => {
            throw new SitemapError('ERR_SITEMAP_WRITE', `the new sitemaps are in place, but ${join(outDir, name)}, no longer part of them, cannot be removed: ${ioErrorReason(error)}`);
          });
        }
        removed.push(name);
      }
      if (!dryRun) await plan.after?.();
      return removed.sort();
    } finally {
      await this.abort();
    }
  }

  /** Steps 1–3, after removing `first` (plan.removeFirst, those there). */
  private async moveIn(plan: CommitPlan, first: readonly string[]): Promise<void> {
    let removed = 0;
    const moved: string[] = [];
    try {
      for (const name of first) {
        await rm(join(this.outDir, name), { force: true });
        removed++;
      }
      for (const file of plan.children) {
        if (file.inPlace) continue;
        await rename(this.path(file.staged), join(this.outDir, file.name));
        moved.push(join(this.outDir, file.name));
      }
      // What the entry file names, and itself, must survive a power cut its rename survives.
      if (plan.durable !== false || plan.entry !== undefined) {
        await syncFiles(plan.entry === undefined ? moved : [...moved, this.path(plan.entry.staged)]);
        await syncDirectory(this.outDir);
      }
      if (plan.entry !== undefined) {
        const entry = join(this.outDir, plan.entry.name);
        // Written into as it is (not copyFile: libuv's removes the target when it fails, and it fails on a FIFO).
        if (await isSpecialFile(entry)) await pipeline(createReadStream(this.path(plan.entry.staged)), createWriteStream(entry));
        else {
          await rename(this.path(plan.entry.staged), entry);
          await syncDirectory(this.outDir);
        }
      }
    } catch (error) {
      // Without an entry file each child is published by its own rename (a set without an index).
      const last = plan.entry === undefined ? moved.at(-1) : undefined;
      const done = last !== undefined ? `${basename(last)} is new, the files after it are not` : plan.entry === undefined && removed > 0 ? `${first.slice(0, removed).join(', ')} removed, no new file in place` : 'the previous set is still in place';
      throw new SitemapError('ERR_SITEMAP_WRITE', `cannot move the new sitemaps into ${this.outDir}: ${ioErrorReason(error)}; ${done}`);
    }
  }

  /** Stops the compressor and removes the temporary directory and everything in it. Safe to call more than once. */
  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.files.destroy();
    await rm(this.tempDir, { recursive: true, force: true });
    await releaseLock(this.lock);
    // A run that wrote nothing (refused, failed, stopped) leaves no folder of its own behind.
    await removeEmptyFolders(this.made);
  }
}

/** `text` in UTF-8, encoded a block at a time (never cutting a surrogate pair): a 50 MB child is not copied whole. */
function* utf8Blocks(text: string): Generator<Uint8Array> {
  for (let at = 0, end; at < text.length; at = end) {
    end = Math.min(text.length, at + BLOCK);
    if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    yield Buffer.from(text.slice(at, end));
  }
}

/** The set locks (their paths) this process holds. */
const locksHeld = new Set<string>();

/**
 * Takes the lock of the set `name` in `dir`; returns its path. A lock of a gone process of this machine,
 * or of this process, is taken over: it keeps processes apart, not calls of one. A queued run of several
 * processes (node/scale/queue.ts) holds it as `owner` until `unlockSet`, taken over only when `ownerGone` says so.
 */
export async function lockSet(dir: string, name: string, owner?: string, ownerGone?: (owner: string) => Promise<boolean>): Promise<string> {
  const path = resolve(dir, `${LOCK_PREFIX}${name}`);
  for (let attempt = 0; ; attempt++) {
    const handle = await open(path, 'wx').catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    });
    if (handle !== undefined) {
      // Made but not written (a full disk): removed, not left to refuse every run until it is stale.
      await handle.writeFile(owner ?? `${process.pid} ${HOST_TAG}`).finally(() => handle.close()).catch(async (error: unknown) => {
        await rm(path, { force: true });
        throw error;
      });
      if (owner === undefined) locksHeld.add(path);
      return path;
    }
    const text = await readFile(path, 'utf8').catch(() => '');
    const pidHost = /^(\d+) ([0-9a-f]{8})$/.exec(text);
    // Empty: a run killed between making and writing the file. This process's own: a run of it that was stopped.
    const gone =
      pidHost !== null
        ? pidHost[2] === HOST_TAG && (Number(pidHost[1]) === process.pid || !isProcessAlive(Number(pidHost[1])))
        : text === ''
          ? Date.now() - ((await stat(path).catch(() => undefined))?.mtimeMs ?? 0) > 10_000
          : ((await ownerGone?.(text)) ?? false);
    if (attempt === 0 && gone) {
      await rm(path, { force: true });
      continue;
    }
    const who = pidHost !== null ? `another run (process ${pidHost[1]}${pidHost[2] === HOST_TAG ? '' : ' of another machine'})` : text === '' ? 'another run' : text;
    throw new SitemapError('ERR_SITEMAP_WRITE', `${who} is writing the sitemaps "${name}" into ${dir}; run again once it is done (if none is, remove ${path})`);
  }
}

async function releaseLock(lock: string | undefined): Promise<void> {
  if (lock === undefined) return;
  locksHeld.delete(lock);
  await rm(lock, { force: true });
}

/** Who holds the lock of the set `name` in `dir` (what lockSet wrote), undefined when none does. */
export function setLockOwner(dir: string, name: string): Promise<string | undefined> {
  return readFile(resolve(dir, `${LOCK_PREFIX}${name}`), 'utf8').catch(() => undefined);
}

/** Removes the lock of the set `name` in `dir` if `owner` holds it (lockSet). */
export async function unlockSet(dir: string, name: string, owner: string): Promise<void> {
  if ((await setLockOwner(dir, name)) === owner) await rm(resolve(dir, `${LOCK_PREFIX}${name}`), { force: true });
}

/**
 * Whether `path` is neither a regular file nor a directory (a device, a FIFO, a socket): output is written
 * into it, as `>` would; a rename would replace it (as root, `--out /dev/null` replaced the device).
 */
export async function isSpecialFile(path: string): Promise<boolean> {
  const stats = await stat(path).catch(() => undefined);
  return stats !== undefined && !stats.isFile() && !stats.isDirectory();
}

export interface AtomicWriteOptions {
  /** `false`: a missing folder is an error (its ENOENT the `cause`), not made. */
  makeFolder?: boolean;
  /** `false`: a device, FIFO or socket at `path` is replaced like a file, not written into (a folder the caller owns). */
  intoSpecial?: boolean;
  /** Runs once `data` is on disk under its temporary name (into a device: before the write); its failure leaves `path` as it was (a state committed with its set). */
  beforeRename?: () => Promise<void>;
}

/** Numbers the temporaries of one process: two writes of a path in one millisecond get two names. */
let temporaries = 0;

/**
 * Writes `data` to `path` so that a reader (or a crash) sees the old content or the new, never a mix:
 * a temporary file beside it, fsync, rename, fsync of the directory. A symlink's target is replaced (the
 * link stays), with the permission bits it had. For a single file; a set uses StagedOutput.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  if (options.intoSpecial !== false && (await isSpecialFile(path))) {
    await options.beforeRename?.();
    await writeFile(path, data).catch((error: unknown) => {
      throw writeError(error, path);
    });
    return;
  }
  // A dangling link or no file: written at `path` with the umask's bits.
  const target = await realpath(path).catch(() => path);
  const mode = await stat(target).then((s) => s.mode & 0o7777, () => undefined);
  const temp = join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${HOST_TAG}-${Date.now().toString(36)}-${++temporaries}`);
  try {
    if (options.makeFolder !== false) await ensureDirectory(dirname(target));
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(data);
      // `open` applies the umask: the replaced file's bits are restored as they were.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await options.beforeRename?.();
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw writeError(error, path);
  }
  await syncDirectory(dirname(target));
}

/** Whether `path` is a file (not followed if a link). */
export async function isFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
}

/** Whether two files hold the same bytes (read in 1 MiB steps: children may be 50 MB each). */
async function sameFileBytes(a: string, b: string): Promise<boolean> {
  const [infoA, infoB] = await Promise.all([stat(a), stat(b)]);
  if (infoA.size !== infoB.size) return false;
  const [handleA, handleB] = await Promise.all([open(a, 'r'), open(b, 'r')]);
  try {
    const size = Math.min(infoA.size, 1 << 20);
    const bufferA = Buffer.alloc(size);
    const bufferB = Buffer.alloc(size);
    for (let position = 0; position < infoA.size; ) {
      const [readA, readB] = await Promise.all([handleA.read(bufferA, 0, size, position), handleB.read(bufferB, 0, size, position)]);
      if (readA.bytesRead !== readB.bytesRead || readA.bytesRead === 0) return false;
      if (!bufferA.subarray(0, readA.bytesRead).equals(bufferB.subarray(0, readB.bytesRead))) return false;
      position += readA.bytesRead;
    }
    return true;
  } finally {
    await Promise.all([handleA.close(), handleB.close()]);
  }
}

/** Flushes a file, or a directory's entries, to disk. */
async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes files to disk, a few at a time. */
export async function syncFiles(paths: readonly string[]): Promise<void> {
  for (let i = 0; i < paths.length; i += 8) await Promise.all(paths.slice(i, i + 8).map(syncPath));
}

/** Makes renames in `dir` durable. Not every platform can open a directory (Windows): best effort. */
async function syncDirectory(dir: string): Promise<void> {
  // The rename is still atomic without it; only its durability across a power cut is not guaranteed.
  await syncPath(dir).catch(() => undefined);
}

/** `mkdir -p` by hand (Node 20's recursive mkdir spins forever on `/proc/nope`); each folder made is added to `made`. */
export async function ensureDirectory(path: string, made: string[] = []): Promise<void> {
  let error = await mkdir(path).catch((e: NodeJS.ErrnoException) => e);
  const parent = dirname(path);
  if (error?.code === 'ENOENT' && parent !== path) {
    await ensureDirectory(parent, made);
    error = await mkdir(path).catch((e: NodeJS.ErrnoException) => e);
  }
  // Made meanwhile by another run (two coordinators at once) is made as asked.
  if (error?.code === 'EEXIST') {
    if (!(await stat(path)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    return;
  }
  if (error !== undefined) throw error;
  made.push(path);
}

/** Removes `folders`, innermost first, up to the first that is not empty (rmdir removes only an empty one). */
export async function removeEmptyFolders(folders: readonly string[]): Promise<void> {
  for (let i = folders.length - 1; i >= 0; i--) if (!(await rmdir(folders[i] as string).then(() => true, () => false))) return;
}

/** Removes what gone runs left: temporary folders, and writeFileAtomic's temporaries of the set's files. */
async function removeStaleTemps(outDir: string, setName: string): Promise<void> {
  const ofTheSet = (target: string): boolean => target === `${setName}.xml` || (target.startsWith(`${setName}-`) && /\.xml(?:\.gz)?$/.test(target));
  for (const name of await readdir(outDir)) {
    const file = TEMP_FILE.exec(name);
    const dir = name.startsWith(TEMP_PREFIX);
    if (!dir && (file === null || !ofTheSet(file[1] as string))) continue;
    const [pidText, host] = (dir ? name.slice(TEMP_PREFIX.length) : (file?.[2] as string)).split('-');
    // Another machine's run (an older name has mkdtemp's 6 characters there, or a time in base 36: judged as this machine's unless all hex).
    if (host !== undefined && /^[0-9a-f]{8}$/.test(host) && host !== HOST_TAG) continue;
    const pid = Number(pidText);
    if (pid === process.pid || (Number.isInteger(pid) && pid > 0 && isProcessAlive(pid))) continue;
    await rm(join(outDir, name), { recursive: true, force: true });
  }
}

/**
 * The set in the folder whose name extends `name` (`NAME-news`, seen by its index `NAME-news.xml` or its
 * index link) that a file belongs to: `NAME-news-….xml.gz` is that set's child, never NAME's to remove.
 */
export function ofLongerSet(name: string, listing: readonly string[]): (file: string) => string | undefined {
  const longer = listing.flatMap((file) => SET_ENTRY.exec(file)?.[1] ?? []).filter((other) => other.startsWith(`${name}-`));
  return (file) => longer.find((other) => file.startsWith(`${other}-`));
}

/** A set's entry in its folder: its index `NAME.xml`, or the link `NAME-indexes` to its index files. */
const SET_ENTRY = /^(.+?)(?:\.xml|-indexes)$/;

/**
 * Of `files` in `dir` (`listing`), a set `name`'s by their names, those of another set: of a set whose name
 * extends `name` (ofLongerSet), or named by the index of a set whose name `name` extends (section `a-1`
 * of `S` and section `1` of `S-a` are both `S-a-1`: only that index tells them apart).
 */
export async function ofOtherSets(dir: string, name: string, listing: readonly string[], files: readonly string[]): Promise<Set<string>> {
  const longer = ofLongerSet(name, listing);
  const theirs = new Set(files.filter((file) => longer(file) !== undefined));
  const wanted = new Set(files);
  for (const entry of wanted.size === 0 ? [] : listing) {
    const other = SET_ENTRY.exec(entry)?.[1];
    if (other === undefined || !name.startsWith(`${other}-`)) continue;
    const indexes = entry.endsWith('.xml') ? [entry] : (await readdir(join(dir, entry)).catch(() => [])).map((index) => join(entry, index));
    for (const index of indexes) {
      // A link is followed (a published index may be one); a FIFO is not opened (it would wait for a writer).
      if ((await stat(join(dir, index)).catch(() => undefined))?.isFile() !== true) continue;
      try {
        // In chunks (a minified index is one line): the text after the last <loc> found goes on to the next, 4 KiB at most (a URL has 2,048 characters at most).
        let rest = '';
        for await (const chunk of createReadStream(join(dir, index), 'utf8')) {
          const text = rest + (chunk as string);
          let end = 0;
          for (const match of text.matchAll(/<loc>([^<]*)<\/loc>/g)) {
            const child = (match[1] as string).trim().replace(/^.*\//, '');
            if (wanted.has(child)) theirs.add(child);
            end = match.index + match[0].length;
          }
          rest = text.slice(Math.max(end, text.length - 4096));
        }
      } catch (error) {
        throw new SitemapError('ERR_SITEMAP_WRITE', `cannot read ${join(dir, index)}, the index of another set, to keep the files it names: ${ioErrorReason(error)}`);
      }
    }
  }
  return theirs;
}

/** Whether a process with this id runs (one we may not signal counts too). */
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A process killed and not yet reaped by its parent (state Z, proc(5)) still answers signal 0; it holds nothing.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return true;
  }
}
