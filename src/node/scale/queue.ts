// The coordinator's side of a queued run: split the inputs by shard, add the run's flow, wait for it,
// and tell what each run's jobs are doing (`queue status`).

import { SitemapError } from '../../core/errors.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { readdir } from 'node:fs/promises';
import type { FlowJob, Job, Queue } from 'bullmq';
import type { ColumnMapping } from '../../core/input/csv.js';
import { checkShards, LAYOUT_VERSION } from '../../core/scale/layout.js';
import { readInput, type InputFormat, type InputRecord } from '../input.js';
import type { FetchedSitemap } from '../fetch-sitemap.js';
import type { HttpClient } from '../http/client.js';
import { changeFile, jobId, jobOptions, jobSubject, MAX_PROBLEMS_KEPT, newRunId, removeScratch, runLockOwner, SCRATCH, shardInput, type JobData, type RunOutcome, type SetJob, type SetOptions } from './queue-jobs.js';
import { loadBullMQ } from './queue-redis.js';
import { ShardFiles } from './queue-split.js';
import { emptyInput } from './generate-sharded.js';
import { planQueuedApply } from './queue-apply.js';
import { FileSystemStorage, type SetStorage } from './storage.js';
import { checkNamesApart, PLAIN_NAME } from './shard-set.js';
import { ensureDirectory, lockSet, LOCK_PREFIX, removeEmptyFolders, setLockOwner, unlockSet } from '../staged-output.js';
import { writeError } from '../io-errors.js';

export interface EnqueueOptions {
  redis: string;
  queue: string;
  /** The set's folder, as every worker sees it. */
  out: string;
  shards: number;
  set: SetOptions;
  /** Attempts per job before it fails for good (and its run with it). */
  attempts: number;
  run?: string;
  /** Input files, or http(s) URLs (`url`) read with `client`: split into one file per shard. */
  inputs?: readonly { path: string; format: InputFormat | 'auto'; url?: boolean }[];
  /** The HTTP client of the URL inputs (its address policy: the command's network options). */
  client?: () => Promise<HttpClient>;
  columns?: ColumnMapping;
  cwd?: string;
  /** A source module read by the workers, part by part (queue-split.ts SourceModule). */
  source?: { path: string; parts: number; options: Record<string, string> };
  storage?: SetStorage;
  /** A line of input that could not be routed (FILE:LINE: CODE message). */
  onProblem?: (problem: string) => void;
  /** The time to live of the coordinator's locks (default 5 s): what one that died makes the next wait, at most. */
  lockTtlMs?: number;
}

export interface EnqueuedRun {
  run: string;
  /** Entries routed by the coordinator (files only; a source's are counted by its split jobs). */
  entries: number;
  rejected: number;
  warnings: number;
}

export async function enqueueGenerate(options: EnqueueOptions): Promise<EnqueuedRun> {
  const shards = checkShards(options.shards);
  const run = runId(options.run);
  const storage = options.storage ?? new FileSystemStorage(options.out);
  return whileSplitting(options, run, storage, (redis) => splitAndAdd(options, shards, run, storage, redis));
}

async function splitAndAdd(options: EnqueueOptions, shards: number, run: string, storage: SetStorage, redis: Coordinator): Promise<EnqueuedRun> {
  let entries = 0;
  let rejected = 0;
  let warnings = 0;
  // The parent adds its children itself, a batch at a time (worker.ts runSetJob): a flow of 65,536
  // shard jobs held 900 MB of the coordinator, and one of 16,384 parts outlasted the lock of its add.
  const { source } = options;
  const parent: SetJob = { run, out: storage.localDir, shards, set: options.set, layout: LAYOUT_VERSION, kind: 'set', mode: 'generate', step: source === undefined ? 'split' : 'parts', ...(source !== undefined ? { parts: source.parts, source: { source: source.path, sourceOptions: source.options } } : {}) };
  if (source === undefined) {
    const files = new ShardFiles(storage, options.set, shards, (shard) => shardInput(run, shard), options.onProblem);
    try {
      for (const input of options.inputs ?? []) await splitInput(input, files, options);
    } catch (error) {
      await files.close().catch(() => undefined);
      throw error;
    }
    await files.close();
    ({ entries, rejected, warnings } = files.outcome);
    // Refused now, as generate --shards refuses it, not by its index job after every attempt.
    if (entries === 0) throw emptyInput(rejected);
    parent.routed = entries;
  }
  await addFlow(redis, { name: 'set', queueName: options.queue, data: parent, opts: { ...jobOptions(options.attempts), jobId: jobId(run, 'set') } }, storage);
  return { run, entries, rejected, warnings };
}

/** Routes the entries of one input file or URL to the shard files. */
async function splitInput(input: NonNullable<EnqueueOptions['inputs']>[number], files: ShardFiles, options: EnqueueOptions): Promise<void> {
  let fetched: FetchedSitemap | undefined;
  if (input.url === true) {
    if (options.client === undefined) throw new SitemapError('ERR_SITEMAP_INPUT', `cannot fetch ${input.path}: no HTTP client given`);
    // A URL list has no size limit, as a file has none; the client's policy, retries and deadline hold.
    fetched = await (await import('../fetch-sitemap.js')).fetchSitemap(input.path, await options.client());
  }
  const route = async (batch: InputRecord[]): Promise<void> => {
    for (const record of batch) {
      const where = `${record.file}:${record.line}`;
      if (record.entry !== undefined) await files.add(record.entry, where);
      else files.report(`${where}: ${record.code ?? 'input'} ${record.error ?? 'unreadable line'}`);
    }
  };
  const records = readInput(input.path, input.format, {
    cwd: options.cwd ?? process.cwd(),
    ...(options.columns !== undefined ? { columns: options.columns } : {}),
    ...(fetched !== undefined ? { body: fetched.body } : {}),
  });
  // Writing the shard files holds the body back: that time is not the server's (the request's deadline).
  for await (const batch of records) await (fetched === undefined ? route(batch) : fetched.held(route(batch)));
}

export interface ApplyRunOptions {
  redis: string;
  queue: string;
  out: string;
  /** The set's name (default sitemap). */
  name?: string;
  /** Change feeds (JSON Lines), applied in order. */
  changes: readonly string[];
  attempts: number;
  run?: string;
  storage?: SetStorage;
  onProblem?: (problem: string) => void;
  lockTtlMs?: number;
}

/** Plans an apply (changes checked and routed per touched child) and adds its parent, which adds a child job per touched child. */
export async function enqueueApply(options: ApplyRunOptions): Promise<EnqueuedRun & { touched: number }> {
  const run = runId(options.run);
  const storage = options.storage ?? new FileSystemStorage(options.out);
  return whileSplitting(options, run, storage, async (redis) => {
    const plan = await planQueuedApply(storage, options.name ?? 'sitemap', options.changes, (stem) => changeFile(run, stem), options.onProblem);
    const { settings } = plan;
    const set: SetOptions = { baseUrl: settings.baseUrl, name: settings.name };
    const parent: SetJob = { run, out: storage.localDir, shards: settings.shards, set, layout: LAYOUT_VERSION, kind: 'set', mode: 'apply', step: 'split', touched: plan.touched, routed: plan.outcome.entries };
    await addFlow(redis, { name: 'set', queueName: options.queue, data: parent, opts: { ...jobOptions(options.attempts), jobId: jobId(run, 'set') } }, storage);
    return { run, entries: plan.outcome.entries, rejected: plan.outcome.rejected, warnings: plan.outcome.warnings, touched: plan.touched.length };
  });
}

/** The key that says run `run`'s coordinator is alive and writing its scratch folder: of any queue, as the folder may be another queue's too. */
function splittingKey(run: string): string {
  return `sitemapkit:splitting:${run}`;
}

/**
 * Runs `split` (writing run `run`'s scratch files, then adding it) while a renewed Redis key says so:
 * others never remove a split in progress (which could then add a run of part of its entries). A
 * second coordinator with the same --run is refused before it writes.
 */
async function whileSplitting<T>({ redis: url, queue: queueName, lockTtlMs = 5_000 }: Pick<ApplyRunOptions, 'redis' | 'queue' | 'lockTtlMs'>, run: string, storage: SetStorage, split: (redis: Coordinator) => Promise<T>): Promise<T> {
  const client = new (await import('ioredis')).Redis(url);
  const queue = new (await loadBullMQ()).Queue(queueName, { connection: { url } });
  try {
    const busy = (): Error => new SitemapError('ERR_SITEMAP_QUEUE', `run ${run} is being split by another coordinator: give another --run`);
    const lease = await RunLock.take(client, splittingKey(run), run, lockTtlMs, busy);
    try {
      // A run's jobs are never added twice.
      const state = await queue.getJobState(jobId(run, 'set'));
      if (state !== 'unknown') throw new SitemapError('ERR_SITEMAP_QUEUE', `run ${run} is already on queue ${queueName} (${state}): give another --run, or follow it with queue status --run ${run}`);
      // What a coordinator of this --run that died while splitting left.
      await storage.remove(`${SCRATCH}/${run}`);
      const made: string[] = [];
      await ensureDirectory(storage.localDir, made).catch((error: unknown) => Promise.reject(writeError(error, `to ${storage.localDir}`)));
      try {
        return await split({ url, client, queue, lockTtlMs });
      } catch (error) {
        // A run refused (bad input, a name clash, another run of the set) leaves nothing it made.
        await removeScratch(storage, run);
        await removeEmptyFolders(made);
        throw error;
      }
    } finally {
      await lease.release();
    }
  } finally {
    client.disconnect();
    await queue.close();
  }
}

/** A coordinator's connections to Redis: a client for its locks, and the queue. */
interface Coordinator {
  url: string;
  client: import('ioredis').Redis;
  queue: Queue;
  lockTtlMs: number;
}

/** The id of a run to add: `run`, checked, names its scratch folder (`..` would name the set's folder). */
function runId(run: string | undefined): string {
  if (run === undefined) return newRunId();
  if (!PLAIN_NAME.test(run)) throw new SitemapError('ERR_SITEMAP_OPTION', `run ${JSON.stringify(run)} must be a plain name: letters, digits, '.', '_' and '-', not starting with a dot`);
  return run;
}

/**
 * Adds a run's flow unless another run on the folder is not done (each run's index removes the files it
 * does not name). Check, claim and add hold a lock, claim and add fenced in Redis: a coordinator frozen
 * past the lock's time to live adds nothing.
 */
async function addFlow(coordinator: Coordinator, flow: FlowJob & { data: SetJob }, storage: SetStorage): Promise<void> {
  const { url, client, queue, lockTtlMs } = coordinator;
  // Never reconnects nor resends: a WATCH lives with its connection, and ioredis resent the MULTI/EXEC
  // unWATCHed on the next one (the add unfenced).
  const fencedConnection = new (await import('ioredis')).Redis(url, { retryStrategy: () => null, enableOfflineQueue: false, autoResendUnfulfilledCommands: false, maxRetriesPerRequest: 0 });
  const producer = new (await loadBullMQ()).FlowProducer({ connection: fencedConnection });
  const { run, out } = flow.data;
  const setName = flow.data.set.name ?? 'sitemap';
  const claim = `sitemapkit:${flow.queueName}:out:${out}`;
  try {
    const lock = await RunLock.take(client, `${claim}:lock`, run, lockTtlMs);
    try {
      const other = await client.get(claim);
      const state = other === null ? 'unknown' : await queue.getJobState(jobId(other, 'set'));
      if (state !== 'completed' && state !== 'failed' && state !== 'unknown') throw new SitemapError('ERR_SITEMAP_QUEUE', `run ${other as string} is writing ${out} (${state}): one run at a time per set; wait for it (queue status --run ${other as string})`);
      // The set's lock file, which local runs take; one a run of this queue left is taken over.
      const ofThisQueue = async (owner: string): Promise<boolean> => owner.endsWith(` of queue ${flow.queueName}`);
      await lockSet(out, setName, runLockOwner(run, flow.queueName), ofThisQueue);
      // Refused now, not at its index job once its shards are written over the other set's names. A set
      // another queue's run writes has no manifest yet, but its lock: looked for once ours is held (of two at once, one sees the other).
      const others = await otherQueuesRuns(coordinator, out, flow.queueName);
      await checkNamesApart(out, setName, [], [...others.keys()]);
      // The runs before are done: what they or a dead coordinator left goes; not a split being written, nor another queue's run.
      for (const name of await storage.list(SCRATCH)) {
        if (name === run || [...others.values()].includes(name) || (await running(client, queue, name))) continue;
        await lock.held();
        await storage.remove(`${SCRATCH}/${name}`);
      }
      await lock.claim(claim, jobOptions(1).removeOnFail.age * 1000);
      await lock.fenced(fencedConnection, () => producer.add(flow));
      // An EXEC aborted gives BullMQ no reply to read (it throws); should it ever not, the run is looked for.
      if ((await queue.getJobState(jobId(run, 'set'))) === 'unknown') throw lock.lostError();
    } finally {
      await lock.release();
    }
  } catch (error) {
    await unlockSet(out, setName, runLockOwner(run, flow.queueName));
    throw error;
  } finally {
    await producer.close();
    fencedConnection.disconnect();
  }
}

/** Whether run `run` of `queue` is not done: on the queue and not ended, or not yet added by its coordinator, which is splitting it. */
async function running(client: import('ioredis').Redis, queue: Queue, run: string): Promise<boolean> {
  const state = await queue.getJobState(jobId(run, 'set'));
  return state === 'unknown' ? (await client.exists(splittingKey(run))) === 1 : state !== 'completed' && state !== 'failed';
}

/** The runs of queues other than `ours` writing sets in `out`, by set (their lock files: runLockOwner). */
async function otherQueuesRuns({ url, client }: Coordinator, out: string, ours: string): Promise<Map<string, string>> {
  const runs = new Map<string, string>();
  for (const file of (await readdir(out)).filter((name) => name.startsWith(LOCK_PREFIX))) {
    const set = file.slice(LOCK_PREFIX.length);
    const [, run, queueName] = /^run (\S+) of queue (.+)$/.exec((await setLockOwner(out, set)) ?? '') ?? [];
    if (run === undefined || queueName === ours) continue;
    const queue = new (await loadBullMQ()).Queue(queueName as string, { connection: { url } });
    if (await running(client, queue, run).finally(() => queue.close())) runs.set(set, run);
  }
  return runs;
}

// Renewed, only by its holder (its token), compared and set in one step.
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const CLAIM = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2]) end return 0`;

/**
 * The lock of a set's check and add: a short time to live renewed by a heartbeat, so a holder that died
 * frees it within its time to live; one that could not renew has lost it, which `held` says before a scratch
 * removal (see docs/scale.md). The claim and the add are checked in Redis itself (`claim`, `fenced`).
 */
export class RunLock {
  private lost = false;
  private heartbeat: NodeJS.Timeout;

  private constructor(private readonly client: import('ioredis').Redis, private readonly key: string, private readonly token: string, private readonly ttlMs: number) {
    this.heartbeat = this.beat();
  }

  private beat(): NodeJS.Timeout {
    return setInterval(() => {
      this.renew().then((ours) => (this.lost ||= !ours), () => (this.lost = true));
    }, this.ttlMs / 4);
  }

  /** Waits for the lock, or, given `busy`, throws what it makes when another holds it. */
  static async take(client: import('ioredis').Redis, key: string, token: string, ttlMs: number, busy?: () => Error): Promise<RunLock> {
    while ((await client.set(key, token, 'PX', ttlMs, 'NX')) === null) {
      if (busy !== undefined) throw busy();
      await sleep(50);
    }
    return new RunLock(client, key, token, ttlMs);
  }

  /** Throws unless the lock is still this holder's (renewing it). */
  async held(): Promise<void> {
    if (!this.lost && (await this.renew())) return;
    throw this.lostError();
  }

  lostError(): SitemapError {
    this.lost = true;
    return new SitemapError('ERR_SITEMAP_QUEUE', `the lock of ${this.key} expired before this run was added (the coordinator stalled past ${this.ttlMs / 1000} s); nothing was added: run it again`);
  }

  /** Sets `key` to this holder's token for `ttlMs`, in the step that checks the lock is still its own. */
  async claim(key: string, ttlMs: number): Promise<void> {
    if (this.lost || (await this.client.eval(CLAIM, 2, this.key, key, this.token, ttlMs)) !== 'OK') throw this.lostError();
  }

  /**
   * Runs `step`, one MULTI/EXEC on `connection`, only while the lock is this holder's: the key is
   * WATCHed then read, so Redis aborts an EXEC after the lock was lost. The heartbeat pauses (a
   * renewal touches the key and would abort it too).
   */
  async fenced<T>(connection: import('ioredis').Redis, step: () => Promise<T>): Promise<T> {
    // The connection queues nothing (enableOfflineQueue off): a WATCH sent while it connects would fail.
    // BullMQ's wait reads only ioredis's status and events; its type names its own client adapter.
    await (await loadBullMQ()).RedisConnection.waitUntilReady(connection as never);
    await this.held();
    clearInterval(this.heartbeat);
    try {
      await connection.watch(this.key);
      if ((await connection.get(this.key)) !== this.token) {
        await connection.unwatch();
        throw this.lostError();
      }
      try {
        return await step();
      } catch (error) {
        // An aborted EXEC: BullMQ fails to read its reply.
        if ((await this.client.get(this.key)) !== this.token) throw this.lostError();
        throw error;
      }
    } finally {
      this.heartbeat = this.beat();
    }
  }

  async release(): Promise<void> {
    clearInterval(this.heartbeat);
    // Only its own: a lock lost meanwhile is another coordinator's.
    await this.client.eval(RELEASE, 1, this.key, this.token);
  }

  private async renew(): Promise<boolean> {
    return (await this.client.eval(RENEW, 1, this.key, this.token, this.ttlMs)) === 1;
  }
}

export interface FailedJob {
  job: string;
  what: string;
  attempts: number;
  reason: string;
}

export interface RunStatus {
  run: string;
  mode: 'generate' | 'apply';
  out: string;
  shards: number;
  /** The parent's state: waiting (to add its shard jobs), waiting-children while its children run, active, completed or failed. */
  state: string;
  /** The children (split, shard and child jobs) by state. */
  jobs: Record<string, number>;
  /** The first failed children (MAX_PROBLEMS_KEPT of them; `jobs.failed` counts them all). */
  failed: FailedJob[];
  startedAt: number;
  finishedAt?: number;
  outcome?: RunOutcome;
  /** The parent's reason, when it failed. */
  reason?: string;
}

const STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'completed', 'failed'] as const;

/** The runs on the queue (or run `run`), newest first, each with its jobs counted by state. */
export async function queueStatus(redis: string, queueName: string, run?: string): Promise<RunStatus[]> {
  const bull = await loadBullMQ();
  const queue = new bull.Queue(queueName, { connection: { url: redis } });
  try {
    return await collectStatus(queue, run);
  } finally {
    await queue.close();
  }
}

/** Job ids read at a time: a queue keeps every job of a week (a run has up to 65,536), never all held at once. */
const PAGE = 1000;
const JOB_ID = /^(.+)\.(set|split|shard|child)(?:\.\d+)?$/;

/** The runs on the queue (or run `run`): children counted by state a page of ids at a time, then each parent. */
async function collectStatus(queue: Queue, run?: string): Promise<RunStatus[]> {
  const runs = new Map<string, { jobs: Record<string, number>; failed: string[] }>();
  const tally = (id: string) => {
    const match = JOB_ID.exec(id);
    if (match === null || (run !== undefined && match[1] !== run)) return undefined;
    let counts = runs.get(match[1] as string);
    if (counts === undefined) runs.set(match[1] as string, (counts = { jobs: {}, failed: [] }));
    return match[2] === 'set' ? undefined : counts;
  };
  for (const state of STATES) {
    for (let at = 0, page: string[] = []; at === 0 || page.length === PAGE; at += PAGE) {
      page = await queue.getRanges([state], at, at + PAGE - 1);
      for (const id of page) {
        const counts = tally(id);
        if (counts === undefined) continue;
        counts.jobs[state] = (counts.jobs[state] ?? 0) + 1;
        if (state === 'failed' && counts.failed.length < MAX_PROBLEMS_KEPT) counts.failed.push(id);
      }
    }
  }
  const statuses: RunStatus[] = [];
  for (const [id, counts] of runs) {
    const parent = (await queue.getJob(jobId(id, 'set'))) as Job<SetJob> | undefined;
    if (parent?.data?.kind !== 'set') continue;
    const state = await parent.getState();
    const failed = (await Promise.all(counts.failed.map((child) => queue.getJob(child) as Promise<Job<JobData> | undefined>))).flatMap((job) => (job === undefined ? [] : [{ job: job.id as string, what: jobSubject(job.data), attempts: job.attemptsMade, reason: job.failedReason }]));
    statuses.push({
      run: id,
      mode: parent.data.mode,
      out: parent.data.out,
      shards: parent.data.shards,
      state,
      jobs: counts.jobs,
      failed,
      startedAt: parent.timestamp,
      ...(parent.finishedOn !== undefined ? { finishedAt: parent.finishedOn } : {}),
      ...(state === 'completed' ? { outcome: parent.returnvalue as RunOutcome } : {}),
      ...(state === 'failed' ? { reason: parent.failedReason } : {}),
    });
  }
  return statuses.sort((a, b) => b.startedAt - a.startedAt);
}

/** Waits until run `run`'s parent has completed or failed (polling its state every `intervalMs`). */
export async function waitForRun(redis: string, queueName: string, run: string, options: { signal?: AbortSignal; intervalMs?: number; onTick?: (state: string) => void; onError?: (error: Error) => void } = {}): Promise<RunStatus> {
  const bull = await loadBullMQ();
  const queue = new bull.Queue(queueName, { connection: { url: redis } });
  // BullMQ reconnects by itself, and prints an unlistened error's stack trace every attempt.
  queue.on('error', (error) => options.onError?.(error));
  // Every step races the signal: while Redis is away a request waits for minutes.
  const signal = options.signal ?? new AbortController().signal;
  const unlessAborted = <T>(step: Promise<T>): Promise<T> =>
    new Promise<T>((done, fail) => {
      const abort = (): void => fail(signal.reason);
      if (signal.aborted) abort();
      signal.addEventListener('abort', abort, { once: true });
      step.then(done, fail).finally(() => signal.removeEventListener('abort', abort));
    });
  // A failed run's index job never runs, and a run Redis lost never ends: the set's lock is released here.
  let seen: SetJob | undefined;
  const unlock = (): Promise<void> => (seen === undefined ? Promise.resolve() : unlockSet(seen.out, seen.set.name ?? 'sitemap', runLockOwner(run, queueName)));
  try {
    for (;;) {
      const parent = (await unlessAborted(bull.Job.fromId(queue, jobId(run, 'set')))) as Job<SetJob> | undefined;
      if (parent === undefined) {
        await unlock();
        throw new SitemapError('ERR_SITEMAP_QUEUE', `no run ${run} on queue ${queueName}`);
      }
      seen = parent.data;
      const state = await unlessAborted(parent.getState());
      if (state === 'failed') await unlock();
      if (state === 'completed' || state === 'failed') return (await unlessAborted(collectStatus(queue, run)))[0] as RunStatus;
      options.onTick?.(state);
      await unlessAborted(sleep(options.intervalMs ?? 250));
    }
  } finally {
    // Closing waits for Redis too: not once aborted.
    if (signal.aborted) void queue.close().catch(() => {});
    else await queue.close();
  }
}
