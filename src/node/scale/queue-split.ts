// Routing entries to the shard that writes them: the coordinator splits input files this way before
// it enqueues (so each shard job reads only its own entries), and a `split` job does the same for one
// part of a source module. A shard's file is JSON Lines of entries, in the order they came, so the
// shard writes them in the order a single process would.

import { pathToFileURL } from 'node:url';
import type { UrlEntry } from '../../core/model.js';
import { SitemapError } from '../../core/errors.js';
import { shardOf } from '../../core/scale/layout.js';
import { MAX_PROBLEMS_KEPT, type JobOutcome, type SetOptions, type SplitJob } from './queue-jobs.js';
import type { SetStorage, StorageWriter } from './storage.js';

/** Each shard's buffer is handed to its file past this many characters (a few large writes, not one per entry). */
const FLUSH_AT = 32 * 1024;

export class ShardFiles {
  private readonly buffers: string[];
  private readonly writers: (StorageWriter | undefined)[];
  readonly outcome: JobOutcome = { entries: 0, rejected: 0, problems: [] };

  /** `fileOf(shard)`: the name of shard `shard`'s file in `storage`. */
  constructor(
    private readonly storage: SetStorage,
    private readonly set: SetOptions,
    private readonly shards: number,
    private readonly fileOf: (shard: number) => string,
  ) {
    this.buffers = new Array<string>(shards).fill('');
    this.writers = new Array<StorageWriter | undefined>(shards).fill(undefined);
  }

  /** Routes `entry`; an entry whose loc is no URL of the set is counted and reported, not routed. */
  async add(entry: UrlEntry, where: string): Promise<void> {
    let shard: number;
    try {
      shard = shardOf(entry.loc, { shards: this.shards, baseUrl: this.set.baseUrl, ...(this.set.name !== undefined ? { name: this.set.name } : {}) }).bucket;
    } catch (error) {
      if (!(error instanceof SitemapError)) throw error;
      this.reject(`${where}: ${error.code} ${error.message}`);
      return;
    }
    this.outcome.entries++;
    const buffer = (this.buffers[shard] += `${JSON.stringify(entry)}\n`);
    if (buffer.length >= FLUSH_AT) await this.flush(shard);
  }

  reject(problem: string): void {
    this.outcome.rejected++;
    if (this.outcome.problems.length < MAX_PROBLEMS_KEPT) this.outcome.problems.push(problem);
  }

  private async flush(shard: number): Promise<void> {
    const text = this.buffers[shard] as string;
    this.buffers[shard] = '';
    const writer = (this.writers[shard] ??= await this.storage.writer(this.fileOf(shard)));
    await writer.write(text);
  }

  /** Writes what is buffered and closes every file: the shards that got no entry have no file. */
  async close(): Promise<string[]> {
    const files: string[] = [];
    for (let shard = 0; shard < this.shards; shard++) {
      if ((this.buffers[shard] as string).length > 0) await this.flush(shard);
      const writer = this.writers[shard];
      if (writer === undefined) continue;
      await writer.close();
      files.push(this.fileOf(shard));
    }
    return files;
  }
}

/**
 * A source module (`--source FILE`): its default export is called with the part to read and yields
 * that part's entries, one by one or in arrays:
 *
 *   export default async function* (part, { parts, options }) { … yield { loc, lastmod } … }
 *
 * `part` is 0 … parts-1; the parts together must yield every entry once (e.g. key ranges of a table).
 * `options` holds the `--source-option KEY=VALUE` pairs. It runs on the workers, so every worker must be
 * able to import it from the same path and reach what it reads.
 */
export type SourceModule = (part: number, context: { parts: number; options: Readonly<Record<string, string>> }) => AsyncIterable<UrlEntry | UrlEntry[]> | Iterable<UrlEntry | UrlEntry[]>;

export async function loadSource(path: string): Promise<SourceModule> {
  const module = (await import(pathToFileURL(path).href)) as { default?: unknown };
  if (typeof module.default !== 'function') {
    throw new SitemapError('ERR_SITEMAP_INPUT', `${path} has no default export function (export default async function* (part, { parts, options }) { yield … })`);
  }
  return module.default as SourceModule;
}

/** The file of part `part`'s entries for shard `shard`. */
export function partFile(run: string, part: number, shard: number, scratch: string): string {
  return `${scratch}/${run}/parts/${part}/shard-${shard}.jsonl`;
}

/** A `split` job: part `job.part` of the source, routed to per-shard files. */
export async function splitSourcePart(job: SplitJob, storage: SetStorage, scratch: string): Promise<JobOutcome> {
  const source = await loadSource(job.source);
  // A retried part starts over: what a killed attempt left is replaced file by file (writers rename on close).
  const files = new ShardFiles(storage, job.set, job.shards, (shard) => partFile(job.run, job.part, shard, scratch));
  let n = 0;
  for await (const item of source(job.part, { parts: job.parts, options: job.sourceOptions })) {
    for (const entry of Array.isArray(item) ? item : [item]) {
      n++;
      if (entry === null || typeof entry !== 'object' || typeof entry.loc !== 'string') files.reject(`${job.source} part ${job.part} entry ${n}: not an entry with a loc`);
      else await files.add(entry, `${job.source} part ${job.part} entry ${n}`);
    }
  }
  await files.close();
  return files.outcome;
}
