// Files replaced together: each is written in full to a temporary file beside its target and flushed
// (`stage`), and only when every one is ready are they renamed into place, in the order staged, with
// one flush per directory after (`commit`). The costly part (compressing, writing, fsync) happens
// before the first rename, so a failure there (disk full, a kill) leaves every target as it was. A
// set is committed by staging its entry file last, with its other files under names no file has
// (build-site.ts): readers then see the old set until that last rename and the new one after.

import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SitemapError } from '../../core/errors.js';
import { ioErrorReason } from '../io-errors.js';
import { isProcessAlive, syncDirectory } from '../staged-output.js';

/** `.TARGET.tmp-PID-TIME-N`: the name `stage` gives a temporary file. */
const TEMP_NAME = /^\.(.+)\.tmp-(\d+)-[0-9a-z]+-\d+$/;

interface Staged {
  temp: string;
  target: string;
}

export class FileBatch {
  private readonly staged: Staged[] = [];
  private settled = false;
  private committed = false;

  /** Writes `data` to a temporary file beside `target` and flushes it; `target` is not touched yet. */
  async stage(target: string, data: string | Uint8Array, mode?: number): Promise<void> {
    if (this.settled) throw new SitemapError('ERR_SITEMAP_API', 'a file batch is used once: it was committed or discarded');
    const dir = dirname(target);
    const temp = join(dir, `.${basename(target)}.tmp-${process.pid}-${Date.now().toString(36)}-${this.staged.length}`);
    try {
      await mkdir(dir, { recursive: true });
      const handle = await open(temp, 'w', mode);
      this.staged.push({ temp, target });
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw new SitemapError('ERR_SITEMAP_WRITE', `cannot write ${target}: ${ioErrorReason(error)}`);
    }
  }

  /** How many files are staged. */
  get size(): number {
    return this.staged.length;
  }

  /**
   * Renames every staged file over its target, in the order staged, then flushes their directories.
   * The last one staged is the commit point of a set (its entry file): the renames before it are
   * flushed to disk before it is renamed, so that it never names a file a power cut could lose.
   */
  async commit(): Promise<void> {
    this.settled = true;
    const dirs = new Set<string>();
    for (const [index, { temp, target }] of this.staged.entries()) {
      try {
        if (index > 0 && index === this.staged.length - 1) for (const dir of dirs) await syncDirectory(dir);
        await rename(temp, target);
      } catch (error) {
        await this.removeTemps(index);
        throw new SitemapError('ERR_SITEMAP_WRITE', `cannot write ${target}: ${ioErrorReason(error)}`);
      }
      dirs.add(dirname(target));
    }
    this.committed = true;
    // Makes the renames durable (best effort where a directory cannot be opened).
    for (const dir of dirs) await syncDirectory(dir);
  }

  /** Removes the staged files that were not renamed; no target is touched. Nothing to do after a commit. */
  async discard(): Promise<void> {
    this.settled = true;
    if (!this.committed) await this.removeTemps(0);
  }

  /**
   * Removes the temporary files a batch of a process that no longer runs left in `dir` (it was killed
   * between `stage` and `commit`), for targets `isOurs` claims. Returns the names removed.
   */
  static async removeStale(dir: string, isOurs: (target: string) => boolean): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return []; // no directory yet: nothing left behind
    }
    const removed: string[] = [];
    for (const name of names.sort()) {
      const m = TEMP_NAME.exec(name);
      if (m === null || !isOurs(m[1] as string)) continue;
      const pid = Number(m[2]);
      if (pid === process.pid || isProcessAlive(pid)) continue;
      await rm(join(dir, name), { force: true });
      removed.push(name);
    }
    return removed;
  }

  private async removeTemps(from: number): Promise<void> {
    for (const { temp } of this.staged.slice(from)) await rm(temp, { force: true }).catch(() => undefined);
  }
}
