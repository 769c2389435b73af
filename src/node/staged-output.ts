// Atomic output of a sitemap set (DESIGN.md "Never lose data"). Every file is first written into a
// temporary directory inside the target directory (same filesystem, so a rename is atomic), and
// renamed into place only once the whole set is complete: children first, the entry file last, then
// children left over from an earlier, larger run are removed. A run killed before that point (Ctrl-C,
// kill -9, a full disk) leaves the previous set exactly as it was; its temporary directory is removed
// by the next run.

import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SitemapError } from '../core/errors.js';
import { ioErrorReason } from './io-errors.js';

const TEMP_PREFIX = '.sitemapkit-tmp-';

export class StagedOutput {
  readonly outDir: string;
  /** Where the files of the new set are written before `commit`. */
  readonly tempDir: string;
  private done = false;

  private constructor(outDir: string, tempDir: string) {
    this.outDir = outDir;
    this.tempDir = tempDir;
  }

  static async create(outDir: string): Promise<StagedOutput> {
    try {
      await ensureDirectory(outDir);
      await removeStaleTempDirs(outDir);
      const tempDir = await mkdtemp(join(outDir, `${TEMP_PREFIX}${process.pid}-`));
      return new StagedOutput(outDir, tempDir);
    } catch (error) {
      throw new SitemapError('ERR_SITEMAP_WRITE', `cannot write to ${outDir}: ${ioErrorReason(error)}`);
    }
  }

  /** Path of a file inside the temporary directory. */
  path(name: string): string {
    return join(this.tempDir, name);
  }

  /**
   * Moves `names` (files in the temporary directory) into the target, the last one last, then
   * removes files of the target that `isOwned` claims and the new set does not have.
   * Returns the names removed.
   */
  async commit(names: readonly string[], isOwned: (name: string) => boolean): Promise<string[]> {
    const keep = new Set(names);
    try {
      for (const name of names) await rename(this.path(name), join(this.outDir, name));
      const removed: string[] = [];
      for (const name of (await readdir(this.outDir)).sort()) {
        if (!keep.has(name) && isOwned(name)) {
          await rm(join(this.outDir, name), { force: true });
          removed.push(name);
        }
      }
      return removed;
    } catch (error) {
      throw new SitemapError('ERR_SITEMAP_WRITE', `cannot move the new sitemaps into ${this.outDir}: ${ioErrorReason(error)}`);
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

