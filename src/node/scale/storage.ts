// Where a set lives, as the queue's jobs see it. Every worker must reach the same set: a shared
// filesystem path (NFS, EFS, a volume mounted on every machine) is what is implemented. An object
// store (S3, GCS) would implement the same interface: `localDir` a local staging folder the writers
// write into, `publish` an upload of the files named (children first, the index files last, as the
// filesystem commit does), and the scratch files of a run objects under a prefix.

import { SitemapError } from '../../core/errors.js';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { once } from 'node:events';
import { writeFileAtomic } from '../staged-output.js';

/** A file being written whole: nobody sees it under its name before `close`. */
export interface StorageWriter {
  write(chunk: string | Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface SetStorage {
  /** The folder of this machine the shard and index writers write the set into. */
  readonly localDir: string;
  /** A file's bytes, or undefined when there is none. `name` is relative to the set, `/`-separated. */
  read(name: string): Promise<Buffer | undefined>;
  /** Writes a small file whole, atomically. */
  write(name: string, data: string | Uint8Array): Promise<void>;
  /** Writes a large file in chunks; it appears under its name only once closed. */
  writer(name: string): Promise<StorageWriter>;
  /** The names of the files under folder `prefix` (not recursive), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Removes a file or a folder and everything under it; nothing when missing. */
  remove(name: string): Promise<void>;
}

/** The set in a folder that every worker mounts at the same path (or at its own `dir`). */
export class FileSystemStorage implements SetStorage {
  readonly localDir: string;

  constructor(dir: string) {
    this.localDir = resolve(dir);
  }

  private path(name: string): string {
    const path = resolve(this.localDir, name);
    // Names come from job data: a job must not reach outside the set's folder.
    if (path !== this.localDir && !path.startsWith(this.localDir + sep)) throw new SitemapError('ERR_SITEMAP_OPTION', `${JSON.stringify(name)} is outside the set's folder`);
    return path;
  }

  async read(name: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.path(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async write(name: string, data: string | Uint8Array): Promise<void> {
    const path = this.path(name);
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, data);
  }

  async writer(name: string): Promise<StorageWriter> {
    const path = this.path(name);
    await mkdir(dirname(path), { recursive: true });
    // A temporary name beside it (unique per process and moment): a retried job's writer never
    // appends to the one of a killed attempt.
    const temporary = join(dirname(path), `.${process.pid}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}.tmp`);
    const stream = createWriteStream(temporary);
    let failed: Error | undefined;
    stream.on('error', (error) => (failed = error));
    return {
      async write(chunk) {
        if (failed !== undefined) throw failed;
        if (!stream.write(chunk)) {
          // Drained, or closed by an error (the stream destroys itself): one listener each, removed after.
          await new Promise<void>((resolve) => {
            const done = (): void => {
              stream.off('drain', done).off('close', done);
              resolve();
            };
            stream.on('drain', done).on('close', done);
          });
        }
        if (failed !== undefined) throw failed;
      },
      async close() {
        stream.end();
        // A stream that failed (its file not opened: EMFILE) has closed already: 'close' will not come again.
        if (!stream.closed) await once(stream, 'close');
        if (failed !== undefined) {
          await rm(temporary, { force: true });
          throw failed;
        }
        await rename(temporary, path);
      },
    };
  }

  async list(prefix: string): Promise<string[]> {
    try {
      return (await readdir(this.path(prefix))).filter((name) => !name.startsWith('.')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    await rm(this.path(name), { recursive: true, force: true });
  }
}
