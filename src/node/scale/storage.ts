// Where a set lives, as the queue's jobs see it: a filesystem path every worker mounts (NFS, EFS, a
// shared volume). An object store would implement the same interface with `localDir` a staging folder.

import { SitemapError } from '../../core/errors.js';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { ensureDirectory, writeFileAtomic } from '../staged-output.js';

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
    return unlessMissing(readFile(this.path(name)), undefined);
  }

  async write(name: string, data: string | Uint8Array): Promise<void> {
    await writeFileAtomic(this.path(name), data);
  }

  async writer(name: string): Promise<StorageWriter> {
    const path = this.path(name);
    await ensureDirectory(dirname(path));
    // Unique per process and moment: a retried job's writer never appends to a killed attempt's.
    return new FileWriter(join(dirname(path), `.${process.pid}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}.tmp`), path);
  }

  async list(prefix: string): Promise<string[]> {
    return (await unlessMissing(readdir(this.path(prefix)), [])).filter((name) => !name.startsWith('.')).sort();
  }

  async remove(name: string): Promise<void> {
    await rm(this.path(name), { recursive: true, force: true });
  }
}

/** What `step` gives, or `missing` when it fails for want of its file (ENOENT). */
function unlessMissing<T, M>(step: Promise<T>, missing: M): Promise<T | M> {
  return step.catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? missing : Promise.reject(error)));
}

/**
 * The most files this process holds open for queued runs (openFiles): a quarter of its limit (1,024
 * where /proc/self/limits cannot be read). A run has up to 65,536 files; all open, they hit EMFILE.
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

/** A file held open in an OpenFiles pool, which closes it through `release` when it needs room. */
export interface PooledFile {
  /** Closes the file: a reader's at once, a writer's once its bytes are written (the promise). */
  release(): void | Promise<void>;
}

/**
 * The files a process holds open for queued runs, at most `limit` across its jobs; past it the least
 * recently used is closed, to be reopened when next used. A writer waits for room; a reader, being
 * synchronous, never waits: when writers hold every place it opens and closes its own descriptor.
 */
class OpenFiles {
  /** Open files by their last use (a count of uses), the least recently used first. */
  private readonly readers = new Map<PooledFile, number>();
  private readonly writers = new Map<PooledFile, number>();
  /** Writers' files closing: they hold their descriptor until closed. */
  private readonly closing = new Set<Promise<void>>();
  private uses = 0;

  constructor(readonly limit: number) {}

  /** Descriptors held: files open, and writers' files closing. */
  get size(): number {
    return this.readers.size + this.writers.size + this.closing.size;
  }

  /** Makes room for writer `file`'s file, about to be opened, closing the least recently used files. */
  async openWriter(file: PooledFile): Promise<void> {
    this.writers.delete(file);
    while (this.size >= this.limit) {
      const oldest = leastRecent(this.readers, this.writers);
      if (oldest === undefined) await Promise.race(this.closing);
      else await oldest.release();
    }
    this.writers.set(file, ++this.uses);
  }

  /** Whether reader `file`'s file, about to be opened, may stay open (room made by closing the least recently read); false: writers hold every place. */
  openReader(file: PooledFile): boolean {
    if (this.size >= this.limit) {
      const [oldest] = this.readers.keys();
      if (oldest === undefined) return false;
      void oldest.release();
    }
    this.readers.set(file, ++this.uses);
    return true;
  }

  /** `file` was used now: it is closed after the others. */
  used(file: PooledFile): void {
    for (const open of [this.readers, this.writers]) if (open.delete(file)) open.set(file, ++this.uses);
  }

  /** `file` is closed, or closing until `closing` settles. */
  closed(file: PooledFile, closing?: Promise<void>): void {
    this.readers.delete(file);
    this.writers.delete(file);
    if (closing === undefined) return;
    this.closing.add(closing);
    void closing.finally(() => this.closing.delete(closing));
  }
}

function leastRecent(a: Map<PooledFile, number>, b: Map<PooledFile, number>): PooledFile | undefined {
  const [first] = a.entries();
  const [second] = b.entries();
  if (first === undefined || second === undefined) return (first ?? second)?.[0];
  return first[1] < second[1] ? first[0] : second[0];
}

/** The files of this process's storage writers and shard readers (queue-split.ts ShardRecords). */
export const openFiles = new OpenFiles(MAX_OPEN_FILES);

/** A file written through a temporary one, renamed on close; closed for room, reopened to append. */
class FileWriter implements StorageWriter, PooledFile {
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
    if (this.stream === undefined) {
      await this.released;
      await openFiles.openWriter(this);
      this.stream = createWriteStream(this.temporary, { flags: this.created ? 'a' : 'w' });
      this.stream.on('error', (error) => (this.failed ??= error));
      this.created = true;
    } else {
      openFiles.used(this);
    }
    return this.stream;
  }

  /** Closes the file (its bytes written first); a failure is this writer's, thrown by its next write or close. */
  release(): Promise<void> {
    const stream = this.stream;
    if (stream === undefined) {
      openFiles.closed(this);
      return this.released;
    }
    this.stream = undefined;
    stream.end();
    // A stream that failed (its file not opened: EMFILE) has closed already: 'close' will not come again.
    this.released = stream.closed ? Promise.resolve() : new Promise((resolve) => stream.once('close', () => resolve()));
    openFiles.closed(this, this.released);
    return this.released;
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
