// Atomic output of a sitemap set (DESIGN.md "Never lose data", "One commit point"). Every file is
// first written into a temporary directory inside the target directory (same filesystem, so a rename
// is atomic). Once the whole set is complete it is committed:
//
// 1. each child goes in under a name no file has (children are named by their content, see
//    core/write/child-names.ts), or stays as it is when a file of that name already holds its bytes:
//    no file the old entry file names is replaced or removed;
// 2. the children are flushed to disk, then the directory;
// 3. the entry file (the index, or the single sitemap) is renamed over the old one: the commit point.
//    Before it, the old entry file and everything it names are untouched; after it, the new entry
//    file and everything it names are in place;
// 4. files of earlier runs that the new entry file does not name are removed.
//
// A run killed or failing before step 3 leaves the old set (and perhaps new children that nothing
// names yet, removed by the next run); after it, the new set. A temporary directory left by a killed
// run is removed by the next run.

import { mkdir, mkdtemp, open, readdir, rename, rm, stat, lstat, readFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SitemapError } from '../core/errors.js';
import { ioErrorReason } from './io-errors.js';

const TEMP_PREFIX = '.sitemapkit-tmp-';

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
  /** The entry file, renamed last: the commit point. Absent for a set without one (`index: never`). */
  entry?: { staged: string; name: string };
  /**
   * Files removed before anything goes in: an entry file that the new set does not replace (an index
   * followed by a set with no index), so that it never names a child replaced in place.
   */
  removeFirst?: readonly string[];
  /** Whether a file of the target directory was written by an earlier run of this set (removed when not in the new set). */
  isOwned: (name: string) => boolean;
}

export class StagedOutput {
  readonly outDir: string;
  /** Where the files of the new set are written before `commit`. */
  readonly tempDir: string;
  /** A dry run: the set is staged outside the target directory and `commit` only says what it would do. */
  readonly dryRun: boolean;
  private done = false;

  private constructor(outDir: string, tempDir: string, dryRun: boolean) {
    this.outDir = outDir;
    this.tempDir = tempDir;
    this.dryRun = dryRun;
  }

  static async create(outDir: string, options: { dryRun?: boolean } = {}): Promise<StagedOutput> {
    if (options.dryRun === true) {
      // Nothing in or under the target directory is created, not even the directory itself.
      return new StagedOutput(outDir, await mkdtemp(join(tmpdir(), `${TEMP_PREFIX}dry-run-`)), true);
    }
    try {
      await ensureDirectory(outDir);
      await removeStaleTempDirs(outDir);
      const tempDir = await mkdtemp(join(outDir, `${TEMP_PREFIX}${process.pid}-`));
      return new StagedOutput(outDir, tempDir, false);
    } catch (error) {
      throw new SitemapError('ERR_SITEMAP_WRITE', `cannot write to ${outDir}: ${ioErrorReason(error)}`);
    }
  }

  /** Path of a file inside the temporary directory. */
  path(name: string): string {
    return join(this.tempDir, name);
  }

  /**
   * The name the staged file `staged` goes in under: the first of `candidates` that no file of the
   * target directory has, or that a file holding exactly the same bytes has (`inPlace`).
   */
  async place(staged: string, candidates: Iterable<string>): Promise<StagedFile> {
    try {
      const name = await firstFreeName(this.outDir, candidates, (existing) => sameFileBytes(existing, this.path(staged)));
      return { staged, ...name };
    } catch (error) {
      if (error instanceof SitemapError) throw error;
      throw new SitemapError('ERR_SITEMAP_WRITE', `cannot write to ${this.outDir}: ${ioErrorReason(error)}`);
    }
  }

  /**
   * Commits the set (see the top of this file) and returns the names of the files removed after. A
   * dry run moves and removes nothing, and returns the names it would remove.
   */
  async commit(plan: CommitPlan): Promise<string[]> {
    const keep = new Set(plan.children.map((file) => file.name));
    if (plan.entry !== undefined) keep.add(plan.entry.name);
    const removed: string[] = [];
    if (this.dryRun) {
      try {
        for (const name of plan.removeFirst ?? []) if (!keep.has(name) && (await isFile(join(this.outDir, name)))) removed.push(name);
        const names = await readdir(this.outDir).catch(() => [] as string[]);
        for (const name of names) if (!keep.has(name) && !removed.includes(name) && plan.isOwned(name)) removed.push(name);
        return removed.sort();
      } finally {
        await this.abort();
      }
    }
    try {
      try {
        for (const name of plan.removeFirst ?? []) {
          if (keep.has(name) || !(await isFile(join(this.outDir, name)))) continue;
          await rm(join(this.outDir, name), { force: true });
          removed.push(name);
        }
        const moved: string[] = [];
        for (const file of plan.children) {
          if (file.inPlace) continue;
          await rename(this.path(file.staged), join(this.outDir, file.name));
          moved.push(join(this.outDir, file.name));
        }
        // What the entry file is about to name, and the entry file itself, must survive a power cut
        // that the entry file's rename survives.
        await syncFiles(plan.entry === undefined ? moved : [...moved, this.path(plan.entry.staged)]);
        await syncDirectory(this.outDir);
        if (plan.entry !== undefined) {
          await rename(this.path(plan.entry.staged), join(this.outDir, plan.entry.name));
          await syncDirectory(this.outDir);
        }
      } catch (error) {
        throw new SitemapError('ERR_SITEMAP_WRITE', `cannot move the new sitemaps into ${this.outDir}: ${ioErrorReason(error)}; the previous set is still in place`);
      }
      let names: string[];
      try {
        names = (await readdir(this.outDir)).sort();
      } catch (error) {
        throw new SitemapError('ERR_SITEMAP_WRITE', `the new sitemaps are in place, but ${this.outDir} cannot be read to remove the old ones: ${ioErrorReason(error)}`);
      }
      for (const name of names) {
        if (keep.has(name) || !plan.isOwned(name)) continue;
        await rm(join(this.outDir, name), { force: true }).catch((error: unknown) => {
          throw new SitemapError('ERR_SITEMAP_WRITE', `the new sitemaps are in place, but ${join(this.outDir, name)}, no longer part of them, cannot be removed: ${ioErrorReason(error)}`);
        });
        removed.push(name);
      }
      return removed.sort();
    } finally {
      await this.abort();
    }
  }

  /** Removes the temporary directory and everything in it. Safe to call more than once. */
  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await rm(this.tempDir, { recursive: true, force: true });
  }

  /** For signal handlers, where there is no time for promises. */
  abortSync(): void {
    if (this.done) return;
    this.done = true;
    rmSync(this.tempDir, { recursive: true, force: true });
  }
}

/**
 * The first of `candidates` that names no file in `dir`, or names a file `holdsSame` accepts (then
 * `inPlace`). A name held by anything else is passed over: nothing is ever renamed over a file that
 * an entry file may name.
 */
export async function firstFreeName(dir: string, candidates: Iterable<string>, holdsSame: (existing: string) => Promise<boolean>): Promise<{ name: string; inPlace: boolean }> {
  let tried = 0;
  for (const name of candidates) {
    const path = join(dir, name);
    let info;
    try {
      info = await lstat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { name, inPlace: false };
      throw error;
    }
    if (info.isFile() && (await holdsSame(path))) return { name, inPlace: true };
    // Sixteen names of one content all taken by other files: not chance, something else writes here.
    if (++tried >= 16) break;
  }
  throw new SitemapError('ERR_SITEMAP_WRITE', `cannot find a free name for a sitemap in ${dir}: the names it may take are held by other files`);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
}

/** Whether two files hold the same bytes (read in 1 MiB steps: children may be 50 MB each). */
export async function sameFileBytes(a: string, b: string): Promise<boolean> {
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

/** Whether the file at `path` holds exactly `bytes`. */
export async function fileHolds(path: string, bytes: Uint8Array): Promise<boolean> {
  const info = await stat(path);
  if (info.size !== bytes.byteLength) return false;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(await readFile(path));
}

/** Flushes files to disk, a few at a time. */
async function syncFiles(paths: readonly string[]): Promise<void> {
  for (let i = 0; i < paths.length; i += 8) {
    await Promise.all(
      paths.slice(i, i + 8).map(async (path) => {
        const handle = await open(path, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      }),
    );
  }
}

/** Makes renames in `dir` durable. Not every platform can open a directory (Windows): best effort. */
export async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The rename is still atomic; only its durability across a power cut is not guaranteed.
  }
}

/**
 * `mkdir -p`, by hand: Node 20's `mkdir(path, { recursive: true })` spins forever on some paths
 * (`/proc/nope`). Each missing parent is made once; any other failure is reported.
 */
async function ensureDirectory(path: string): Promise<void> {
  try {
    await mkdir(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if (!(await stat(path)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      return;
    }
    const parent = dirname(path);
    if (code !== 'ENOENT' || parent === path) throw error;
    await ensureDirectory(parent);
    await mkdir(path);
  }
}

/** Temporary directories left by runs whose process is gone (killed with -9, power loss). */
async function removeStaleTempDirs(outDir: string): Promise<void> {
  for (const name of await readdir(outDir)) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const pid = Number(name.slice(TEMP_PREFIX.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isProcessAlive(pid)) continue;
    if (pid === process.pid) continue;
    await rm(join(outDir, name), { recursive: true, force: true });
  }
}

/** Whether a process with this id exists (one we may not signal exists too). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
