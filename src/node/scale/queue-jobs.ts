// The jobs of a queued run, as data: all a job needs is in its data or on the shared location, so any
// worker can run any job, and a job run twice does the same. A run is one BullMQ flow
// (https://docs.bullmq.io/guide/flows): a parent `set` adds its `split` jobs (for a source module),
// then its `shard` jobs (`child` ones for apply), in batches, waits for them, then writes the index.

import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { manifestFileName } from '../../core/scale/layout.js';
import type { ShardSetOptions } from './shard-set.js';
import type { SetStorage } from './storage.js';

export const DEFAULT_QUEUE = 'sitemapkit';
/** The run's scratch folder, inside the set's folder: a dot folder, never served nor named by an index. */
export const SCRATCH = '.sitemapkit-queue';

/** How the set is written: the options of `generate --shards` that decide its bytes, the same for every shard. */
export type SetOptions = Omit<ShardSetOptions, 'outDir' | 'shards' | 'compressionThreads'>;

interface RunJob {
  run: string;
  /** The set's folder, as every worker sees it (the shared location). */
  out: string;
  shards: number;
  set: SetOptions;
  /** The placement its coordinator routed entries with (layout.ts): a worker of another one would stamp its manifests with a layout not used. */
  layout: number;
}

/** Reads part `part` of a source module and routes its entries to `SCRATCH/RUN/parts/PART/shard-S.records`. */
export interface SplitJob extends RunJob {
  kind: 'split';
  source: string;
  part: number;
  parts: number;
  /** The module's own settings (`--source-option KEY=VALUE`), passed to it as they are. */
  sourceOptions: Record<string, string>;
}

/** Writes shard `shard` from its input files (its entries as records, queue-split.ts, on the shared location, in order). */
export interface ShardJob extends RunJob {
  kind: 'shard';
  shard: number;
  /** Its input files: those missing had none of its entries (the coordinator's shardInput). */
  inputs: string[];
  /** A source's run: its parts' files for this shard are inputs too, after `inputs` (partFile). */
  parts?: number;
}

/** Rewrites one child of an existing set with the changes that fall in it. */
export interface ChildJob extends RunJob {
  kind: 'child';
  /** The child's stem (`NAME-SECTION.BUCKET`). */
  child: string;
  /** Its changes: a file of change lines in the run's scratch folder. */
  changes: string;
  /** Its files in the index published when the run was planned. */
  files: string[];
  /** The set's shard count (its manifests' names). */
  shards: number;
}

/** The parent: adds a step's children (a source's parts, then the shards), waits for them, then writes the index. */
export interface SetJob extends RunJob {
  kind: 'set';
  step: 'parts' | 'split' | 'write' | 'clean';
  /** For a source's run: how many parts the split step had (their files are the shards' inputs). */
  parts?: number;
  /** For a source's run: its module and options. */
  source?: SplitSource;
  mode: 'generate' | 'apply';
  /** For an apply: the stems of the children it rewrites (one may come out empty, with no file). */
  touched?: string[];
  /** Once the index is published (step `clean`): what the job returns. */
  outcome?: RunOutcome;
  /** Entries (changes, for an apply) the coordinator routed to the run's scratch files: its shard (child) jobs must read them all back. */
  routed?: number;
}

export type SplitSource = Pick<SplitJob, 'source' | 'sourceOptions'>;

export type JobData = SplitJob | ShardJob | ChildJob | SetJob;

/** What a child job returns (kept by BullMQ, read by the parent and by `queue status`). */
export interface JobOutcome {
  entries: number;
  rejected: number;
  /** Entries routed without a refused optional part, as generate writes them (a split job's). */
  warnings?: number;
  /** The first problems, as "FILE:LINE: [warning ]CODE message" lines (`rejected` and `warnings` count them). */
  problems: string[];
  /** A shard's or a child's job: the records (changes) it read from the run's scratch files. */
  read?: number;
}

/** What the parent job returns: the published set and what its children reported. */
export interface RunOutcome extends JobOutcome {
  indexFiles: string[];
  /** Children in the set. */
  files: number;
  /** URLs in the set (generate), or in the children rewritten (apply). */
  urls: number;
  /** Files of the previous set removed. */
  removed: number;
}

export const MAX_PROBLEMS_KEPT = 20;

/** Where shard `shard` of run `run` leaves its manifest until the index job publishes the run. */
export function runManifest(run: string, name: string, shard: number, shards: number): string {
  return `${SCRATCH}/${run}/manifests/${manifestFileName(name, shard, shards)}`;
}

/** Where the coordinator leaves shard `shard`'s entries of run `run` (queue-split.ts ShardFiles), when it has some. */
export function shardInput(run: string, shard: number): string {
  return `${SCRATCH}/${run}/input/shard-${shard}.records`;
}

/** Where split job `part` of run `run` leaves shard `shard`'s entries (queue-split.ts splitSourcePart), when it has some. */
export function partFile(run: string, part: number, shard: number): string {
  return `${partFolder(run, part)}/shard-${shard}.records`;
}

/** The folder of split job `part`'s files. */
export function partFolder(run: string, part: number): string {
  return `${SCRATCH}/${run}/parts/${part}`;
}

/** Removes run `run`'s scratch files, and the scratch folder once empty (rmdir: never another run's files). */
export async function removeScratch(storage: SetStorage, run: string): Promise<void> {
  await storage.remove(`${SCRATCH}/${run}`);
  await rmdir(join(storage.localDir, SCRATCH)).catch(() => undefined);
}

/** Where the coordinator of an apply leaves the changes of child `stem` (queue-apply.ts planQueuedApply). */
export function changeFile(run: string, stem: string): string {
  return `${SCRATCH}/${run}/changes/${stem}.jsonl`;
}

/** The set's lock file (lockSet) while run `run` is queued: other runs of the set are refused meanwhile. */
export function runLockOwner(run: string, queue: string): string {
  return `run ${run} of queue ${queue}`;
}

/** The ids of a run's jobs: fixed, so that status and the coordinator find them without a search. */
export function jobId(run: string, kind: JobData['kind'], n?: number | string): string {
  return n === undefined ? `${run}.${kind}` : `${run}.${kind}.${n}`;
}

/** What a job does, as `queue status` says it. */
export function jobSubject(data: JobData): string {
  switch (data.kind) {
    case 'split':
      return `part ${data.part}`;
    case 'shard':
      return `shard ${data.shard}`;
    case 'child':
      return `child ${data.child}`;
    case 'set':
      return 'index';
  }
}

/** A run's id: when it started, and a random tail so that two coordinators never share one. */
export function newRunId(): string {
  return `${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The retry policy of every job: attempts, then the job (and so the run) fails for good. */
export function jobOptions(attempts: number): { attempts: number; backoff: { type: 'exponential'; delay: number }; removeOnComplete: { age: number }; removeOnFail: { age: number } } {
  // Kept a week (completed) and a month (failed), for `queue status`.
  return { attempts, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: { age: 7 * 86_400 }, removeOnFail: { age: 30 * 86_400 } };
}
