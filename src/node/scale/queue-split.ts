// Routing entries to the shard that writes them (the coordinator for input files, a `split` job for a
// part of a source module). Each entry is checked and serialised here, once, as a spill record
// (spill.ts): a shard job sets the records aside by child without parsing or checking them again.

import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ioErrorReason } from '../io-errors.js';
import type { UrlEntry } from '../../core/model.js';
import { SitemapError } from '../../core/errors.js';
import type { UrlEntrySerializer } from '../../core/write/url-entry.js';
import { admit, placedEntry, policyAdmission, setSerializer, shardSettings, type ShardSettings } from './shard-set.js';
import { encodeRecord } from './spill.js';
import { MAX_PROBLEMS_KEPT, partFile, partFolder, type JobOutcome, type SetOptions, type SplitJob } from './queue-jobs.js';
import { openFiles, type PooledFile, type SetStorage, type StorageWriter } from './storage.js';
import { importModule } from '../import-module.js';

/** Each group's buffer is handed to its file past this many characters (a few large writes, not one per line). */
const FLUSH_AT = 32 * 1024;

/** Lines routed to one file per key (a child), written in the order they came. */
export class GroupFiles {
  private readonly buffers = new Map<string, string>();
  private readonly writers = new Map<string, StorageWriter>();

  /** `fileOf(key)`: the name of the key's file in `storage`. */
  constructor(
    private readonly storage: SetStorage,
    private readonly fileOf: (key: string) => string,
  ) {}

  /** Appends `text` (whole lines or records) to the key's file. */
  async write(key: string, text: string): Promise<void> {
    const buffer = (this.buffers.get(key) ?? '') + text;
    this.buffers.set(key, buffer);
    if (buffer.length >= FLUSH_AT) await this.flush(key);
  }

  private async flush(key: string): Promise<void> {
    const text = this.buffers.get(key) ?? '';
    this.buffers.set(key, '');
    let writer = this.writers.get(key);
    if (writer === undefined) this.writers.set(key, (writer = await this.storage.writer(this.fileOf(key))));
    await writer.write(text);
  }

  /** Writes what is buffered and closes every file; returns the keys that have one. */
  async close(): Promise<string[]> {
    for (const [key, text] of this.buffers) if (text.length > 0) await this.flush(key);
    for (const writer of this.writers.values()) await writer.close();
    return [...this.writers.keys()];
  }
}

/** Bytes of records a split holds before it writes them out, grouped by child, as one segment of each shard's file. */
const SEGMENT_AT = 8 * 1024 * 1024;

/**
 * A shard's records waiting for their segment, in one growing Buffer with each record's child and end
 * in a typed array: off the JS heap (as strings they outlived the young generation and were copied).
 */
class PendingRecords {
  // Small at first: a segment has one per shard, up to 65,536 (at 16 KB each, 200 MB for 13,000 shards).
  bytes = Buffer.allocUnsafe(1024);
  length = 0;
  /** Per record: its child's number in `stems`, and where its bytes end. */
  private ends = new Uint32Array(16);
  private count = 0;
  private readonly stems = new Map<string, number>();

  /** Appends `record`; returns the bytes it took. */
  add(stem: string, record: string): number {
    if (this.length + record.length * 3 > this.bytes.length) this.bytes = grown(this.bytes, this.length + record.length * 3, this.length);
    if (this.count * 2 + 2 > this.ends.length) this.ends = grown(this.ends, this.count * 2 + 2, this.count * 2);
    let id = this.stems.get(stem);
    if (id === undefined) this.stems.set(stem, (id = this.stems.size));
    const written = this.bytes.write(record, this.length);
    this.length += written;
    this.ends[this.count * 2] = id;
    this.ends[this.count * 2 + 1] = this.length;
    this.count++;
    return written;
  }

  /** The records as a segment: `u32 length, [[stem, bytes], …] as JSON`, then each child's records in the order given. */
  segment(): Buffer[] {
    const sizes = new Array<number>(this.stems.size).fill(0);
    for (let i = 0, start = 0; i < this.count; start = this.ends[i * 2 + 1] as number, i++) {
      const id = this.ends[i * 2] as number;
      sizes[id] = (sizes[id] as number) + (this.ends[i * 2 + 1] as number) - start;
    }
    const at: number[] = [];
    sizes.reduce((offset, size) => (at.push(offset), offset + size), 0);
    const body = Buffer.allocUnsafe(this.length);
    for (let i = 0, start = 0; i < this.count; start = this.ends[i * 2 + 1] as number, i++) {
      const id = this.ends[i * 2] as number;
      at[id] = (at[id] as number) + this.bytes.copy(body, at[id], start, this.ends[i * 2 + 1]);
    }
    const header = Buffer.from(JSON.stringify([...this.stems.keys()].map((stem, id) => [stem, sizes[id]])));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length);
    return [length, header, body];
  }
}

function grown<T extends Buffer | Uint32Array>(array: T, needed: number, used: number): T {
  const larger = (Buffer.isBuffer(array) ? Buffer.allocUnsafe(Math.max(needed, array.length * 2)) : new Uint32Array(Math.max(needed, array.length * 2))) as T;
  larger.set(array.subarray(0, used));
  return larger;
}

/** Entries routed to their shard's file, a series of segments (PendingRecords.segment); the refused counted. */
export class ShardFiles {
  private readonly pending = new Map<number, PendingRecords>();
  private pendingBytes = 0;
  private readonly writers = new Map<number, StorageWriter>();
  readonly outcome: JobOutcome & { warnings: number } = { entries: 0, rejected: 0, warnings: 0, problems: [] };

  private readonly settings: ShardSettings;
  private readonly serializer: UrlEntrySerializer;
  /** Where the entry being added is, for its problems. */
  private where = '';
  private readonly admission = policyAdmission(
    (code, message) => this.report(`${this.where}: warning ${code} ${message}`, 'warnings'),
    (error) => this.report(`${this.where}: ${error.rule} ${error.message}`),
  );

  /** `onReject`: each problem as it comes (the outcome keeps the first MAX_PROBLEMS_KEPT). */
  constructor(
    private readonly storage: SetStorage,
    set: SetOptions,
    shards: number,
    private readonly fileOf: (shard: number) => string,
    private readonly onReject?: (problem: string) => void,
    private readonly segmentAt = SEGMENT_AT,
  ) {
    this.settings = shardSettings({ ...set, outDir: storage.localDir, shards });
    this.serializer = setSerializer(this.settings);
  }

  /** Routes `entry` as generate writes it (a refused optional part dropped, with a warning); one the set refuses is counted and reported, not routed. */
  async add(entry: UrlEntry, where: string): Promise<void> {
    this.where = where;
    const placed = admit(entry, this.admission, (admitted) => placedEntry(this.serializer, this.settings, admitted));
    if (placed == null) return;
    this.outcome.entries++;
    let records = this.pending.get(placed.bucket);
    if (records === undefined) this.pending.set(placed.bucket, (records = new PendingRecords()));
    this.pendingBytes += records.add(placed.child, encodeRecord(placed.child, placed.item.loc, placed.item));
    if (this.pendingBytes >= this.segmentAt) await this.flush();
  }

  /** Counts `problem` as a rejected entry, or as a warning on one routed. */
  report(problem: string, count: 'rejected' | 'warnings' = 'rejected'): void {
    this.outcome[count]++;
    if (this.outcome.problems.length < MAX_PROBLEMS_KEPT) this.outcome.problems.push(problem);
    this.onReject?.(problem);
  }

  /** Writes a segment to each shard's file that has records waiting. */
  private async flush(): Promise<void> {
    for (const [shard, records] of this.pending) {
      let writer = this.writers.get(shard);
      if (writer === undefined) this.writers.set(shard, (writer = await this.storage.writer(this.fileOf(shard))));
      for (const piece of records.segment()) await writer.write(piece);
    }
    this.pending.clear();
    this.pendingBytes = 0;
  }

  /** Writes what waits and closes every file: the names of those written (a shard that got no entry has none). */
  async close(): Promise<string[]> {
    await this.flush();
    for (const writer of this.writers.values()) await writer.close();
    return [...this.writers.keys()].sort((a, b) => a - b).map((shard) => this.fileOf(shard));
  }
}

/**
 * A shard's files (ShardFiles wrote them), read child by child in the order routed; they stay open
 * while the process's pool (storage.ts openFiles) has room: a source's run has up to 65,536.
 */
export class ShardRecords {
  /** Open files by their number in `paths`. */
  private readonly open = new Map<number, PooledFile & { fd: number }>();
  private readonly ranges = new Map<string, [file: number, at: number, length: number][]>();

  constructor(private readonly paths: readonly string[]) {
    for (const [file, path] of paths.entries()) {
      try {
        this.index(file, path);
      } catch (error) {
        this.close();
        throw error instanceof SitemapError ? error : new SitemapError('ERR_SITEMAP_INPUT', `cannot read ${path}: ${ioErrorReason(error)}`);
      }
    }
  }

  private index(file: number, path: string): void {
    const size = statSync(path).size;
    const length = Buffer.alloc(4);
    for (let at = 0; at < size; ) {
      if (this.readAt(file, length, 0, 4, at) !== 4) throw cut(path);
      const header = Buffer.alloc(length.readUInt32LE());
      if (this.readAt(file, header, 0, header.length, at + 4) !== header.length) throw cut(path);
      at += 4 + header.length;
      for (const [stem, bytes] of JSON.parse(header.toString('utf8')) as [string, number][]) {
        const list = this.ranges.get(stem);
        if (list === undefined) this.ranges.set(stem, [[file, at, bytes]]);
        else list.push([file, at, bytes]);
        at += bytes;
      }
      if (at > size) throw cut(path);
    }
  }

  /** Reads `length` bytes of file `file` from `position` into `into` at `offset`, keeping the file open if the pool lets it. */
  private readAt(file: number, into: Buffer, offset: number, length: number, position: number): number {
    const open = this.open.get(file);
    if (open !== undefined) {
      openFiles.used(open);
      return readSync(open.fd, into, offset, length, position);
    }
    const held = { fd: -1, release: () => this.release(file, held) };
    const kept = openFiles.openReader(held);
    try {
      held.fd = openSync(this.paths[file] as string, 'r');
    } catch (error) {
      openFiles.closed(held);
      throw error;
    }
    if (kept) this.open.set(file, held);
    try {
      return readSync(held.fd, into, offset, length, position);
    } finally {
      if (!kept) closeSync(held.fd);
    }
  }

  private release(file: number, held: PooledFile & { fd: number }): void {
    this.open.delete(file);
    openFiles.closed(held);
    closeSync(held.fd);
  }

  /** The child stems that have records. */
  stems(): string[] {
    return [...this.ranges.keys()].sort();
  }

  /** The records of `stem`, from every file, in order. */
  read(stem: string): Buffer {
    const ranges = this.ranges.get(stem) ?? [];
    const records = Buffer.allocUnsafe(ranges.reduce((n, [, , length]) => n + length, 0));
    let at = 0;
    try {
      for (const [file, from, length] of ranges) if (this.readAt(file, records, at, length, from) === length) at += length;
    } catch (error) {
      throw new SitemapError('ERR_SITEMAP_INPUT', `cannot read the records of ${stem}: ${ioErrorReason(error)}`);
    }
    this.ranges.delete(stem);
    if (at !== records.length) throw new SitemapError('ERR_SITEMAP_INPUT', `the records of ${stem} were cut short: a shard file changed while it was read`);
    return records;
  }

  close(): void {
    for (const [file, held] of this.open) this.release(file, held);
  }
}

function cut(path: string): SitemapError {
  return new SitemapError('ERR_SITEMAP_INPUT', `${path} ends inside a segment: it was not written whole`);
}

/**
 * A source module (`--source FILE`): `export default async function* (part, { parts, options })` yields
 * part `part`'s entries, alone or in arrays; the parts together yield every entry once. It runs on the
 * workers, which must all import it from the same path.
 */
export type SourceModule = (part: number, context: { parts: number; options: Readonly<Record<string, string>> }) => AsyncIterable<UrlEntry | UrlEntry[]> | Iterable<UrlEntry | UrlEntry[]>;

async function loadSource(path: string): Promise<SourceModule> {
  const module = (await importModule(pathToFileURL(path).href)) as { default?: unknown };
  if (typeof module.default !== 'function') {
    throw new SitemapError('ERR_SITEMAP_INPUT', `${path} has no default export function (export default async function* (part, { parts, options }) { yield … })`);
  }
  return module.default as SourceModule;
}

/** A `split` job: part `job.part` of the source, routed to per-shard files. */
export async function splitSourcePart(job: SplitJob, storage: SetStorage): Promise<JobOutcome> {
  const source = await loadSource(job.source);
  // A retried part starts over: a source whose rows changed since may have no entry for some shards,
  // whose files, left by the attempt before, would be read with the new ones.
  await storage.remove(partFolder(job.run, job.part));
  const files = new ShardFiles(storage, job.set, job.shards, (shard) => partFile(job.run, job.part, shard));
  let n = 0;
  for await (const item of source(job.part, { parts: job.parts, options: job.sourceOptions })) {
    for (const entry of Array.isArray(item) ? item : [item]) {
      n++;
      if (entry === null || typeof entry !== 'object' || typeof entry.loc !== 'string') files.report(`${job.source} part ${job.part} entry ${n}: not an entry with a loc`);
      else await files.add(entry, `${job.source} part ${job.part} entry ${n}`);
    }
  }
  await files.close();
  return files.outcome;
}
