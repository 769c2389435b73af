// Where a set lives, as the queue's jobs see it. Every worker must reach the same set: a shared
// filesystem path (NFS, EFS, a volume mounted on every machine) is what is implemented. An object
// store (S3, GCS) would implement the same interface: `localDir` a local staging folder the writers
// write into, `publish` an upload of the files named (children first, the index files last, as the
// filesystem commit does), and the scratch files of a run objects under a prefix.

import { SitemapError } from '../../core/errors.js';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
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
    return new FileWriter(join(dirname(path), `.${process.pid}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}.tmp`), path);
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

/**
 * The most files the writers of this process hold open at once, and the most one ShardRecords holds:
 * a quarter each of the process's limit (Linux: /proc/self/limits; 1,024 where it cannot be read),
 * the rest left to the rest of the process. A queued run writes a file per shard or per touched
 * child, up to 65,536, and a shard job reads a file per part of a source: all open at once, they
 * failed with EMFILE past the limit (20,000 here).
 */
export const MAX_OPEN_FILES = Math.max(16, Math.floor(openFileLimit() / 4));

function openFileLimit(): number {
  try {
    const limit = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    if (limit !== undefined) return Number(limit);
  } catch {
    // Not Linux.
  }
  return 1024;
}

/** The writers whose file is open, the least recently written first. */
const openWriters = new Set<FileWriter>();

/**
 * A file written through a temporary one, renamed on close. Past MAX_OPEN_FILES open files, the
 * least recently written writer's file is closed, and opened again to append at its next write.
 */
class FileWriter implements StorageWriter {
  private stream: WriteStream | undefined;
  /** Settles once the last stream closed: a file is opened again only then, so its bytes stay in order. */
  private released = Promise.resolve();
  private created = false;
  private failed: Error | undefined;

  constructor(
    private readonly temporary: string,
    private readonly path: string,
  ) {}

  async write(chunk: string | Uint8Array): Promise<void> {
    const stream = await this.open();
    // Drained, or closed by an error (the stream destroys itself) or by its release.
    if (!stream.write(chunk)) await drainedOrClosed(stream);
    if (this.failed !== undefined) throw this.failed;
  }

  async close(): Promise<void> {
    // Opened once at least, so that a writer given nothing leaves an empty file.
    if (!this.created) await this.open();
    await this.release();
    if (this.failed !== undefined) {
      await rm(this.temporary, { force: true });
      throw this.failed;
    }
    await rename(this.temporary, this.path);
  }

  /** The open stream: the file opened (created the first time, appended to after), the least recently written writers released to make room. */
  private async open(): Promise<WriteStream> {
    if (this.failed !== undefined) throw this.failed;
    openWriters.delete(this);
    if (this.stream === undefined) {
      await this.released;
      while (openWriters.size >= MAX_OPEN_FILES) {
        const [oldest] = openWriters;
        await oldest?.release();
      }
      this.stream = createWriteStream(this.temporary, { flags: this.created ? 'a' : 'w' });
      this.stream.on('error', (error) => (this.failed ??= error));
      this.created = true;
    }
    openWriters.add(this);
    return this.stream;
  }

  /** Closes the file (its bytes written first); a failure is this writer's, thrown by its next write or close. */
  private release(): Promise<void> {
    const stream = this.stream;
    openWriters.delete(this);
    if (stream === undefined) return this.released;
    this.stream = undefined;
    stream.end();
    // A stream that failed (its file not opened: EMFILE) has closed already: 'close' will not come again.
    return (this.released = stream.closed ? Promise.resolve() : new Promise((resolve) => stream.once('close', () => resolve())));
  }
}

/** Resolves on the stream's 'drain' or 'close', with one listener each, removed after. */
function drainedOrClosed(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done).off('close', done);
      resolve();
    };
    stream.on('drain', done).on('close', done);
  });
}
