// `sitemapkit worker`: runs the jobs of queued runs (queue-jobs.ts). Workers on any machines that see
// the set's folder at the same path share them; BullMQ retries failed jobs and takes back stalled
// ones. A job writes the same bytes however often it runs (names of content, nothing published
// before the parent's index).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SitemapError } from '../../core/errors.js';
import { LAYOUT_VERSION } from '../../core/scale/layout.js';
import type { Job, Queue } from 'bullmq';
import { shardSettings, writeIndexFromManifests, writeShardStems, type SetSummary, type ShardFile } from './shard-set.js';
import { jobId, jobOptions, jobSubject, MAX_PROBLEMS_KEPT, partFile, removeScratch, runLockOwner, runManifest, SCRATCH, shardInput, type JobData, type JobOutcome, type RunOutcome, type SetJob, type ShardJob, type SplitJob, type SplitSource } from './queue-jobs.js';
import { loadBullMQ, shownRedis, type BullMQ } from './queue-redis.js';
import { ShardRecords, splitSourcePart } from './queue-split.js';
import { FileSystemStorage, type SetStorage } from './storage.js';
import { childJobs, publishApplied, rewriteChild } from './queue-apply.js';
import { keepCompressionThreads } from '../parallel-gzip.js';
import { emptyInput } from './generate-sharded.js';
import { setLockOwner, unlockSet } from '../staged-output.js';

export interface QueueWorkerOptions {
  redis: string;
  queue: string;
  /** Jobs at once in this process (default 1). */
  concurrency?: number;
  /** How long a job stays this worker's without a renewal before another worker takes it (default 30 s). */
  lockDurationMs?: number;
  /** The storage of a set's folder (default: that folder on this machine's filesystem). */
  storage?: (out: string) => SetStorage;
  /** One line per job done or failed. */
  log?: (line: string) => void;
}

export interface RunningWorker {
  /** Stops taking jobs and resolves once the active ones are done (`force`: released at once, for another worker to take). */
  close(force?: boolean): Promise<void>;
}

export async function startWorker(options: QueueWorkerOptions): Promise<RunningWorker> {
  const bull = await loadBullMQ();
  // Each job writes through its own output stage: their compression threads are started once.
  keepCompressionThreads(options.concurrency ?? 1);
  const connection = { url: options.redis };
  const storageOf = options.storage ?? ((out: string) => new FileSystemStorage(out));
  const queue = new bull.Queue(options.queue, { connection });
  const lockDuration = options.lockDurationMs ?? 30_000;
  const worker = new bull.Worker<JobData>(options.queue, (job, token) => runJob(bull, queue, job, token, storageOf, lockDuration), {
    connection,
    concurrency: options.concurrency ?? 1,
    lockDuration,
    // A killed worker's job is taken over within about two lock durations.
    stalledInterval: lockDuration,
    maxStalledCount: 3,
  });
  const log = options.log ?? (() => {});
  // BullMQ reconnects by itself, with an error at every attempt (the queue's, unheard, a stack trace):
  // a Redis lost is said once, until a job runs again.
  let lost = false;
  const onError = (error: Error & { code?: unknown }): void => {
    // A socket's error has a string code (ECONNREFUSED); BullMQ's own a number (-2: a lock missing).
    if (typeof error.code !== 'string') return log(`error: ${error.message}`);
    if (!lost) log(`lost Redis at ${shownRedis(options.redis)} (${error.code}); waiting for it to come back`);
    lost = true;
  };
  queue.on('error', onError);
  worker.on('error', onError);
  worker.on('active', () => (lost = false));
  worker.on('completed', (job) => log(`done ${describe(job.data)} (${((Date.now() - (job.processedOn ?? Date.now())) / 1000).toFixed(1)} s)`));
  worker.on('failed', (job, error) => {
    if (job !== undefined) log(`failed ${describe(job.data)} (attempt ${job.attemptsMade} of ${job.opts.attempts ?? 1}): ${error.message}`);
  });
  await worker.waitUntilReady();
  return {
    async close(force = false) {
      // BullMQ closes once: a close waiting for the jobs would make a later forced one wait too. A pause waits
      // instead; it reconnects once they end, after a forced close too, hence the disconnect.
      if (!force) await worker.pause();
      await worker.close(force);
      await queue.close();
      if (!force) await worker.disconnect();
    },
  };
}

function describe(data: JobData): string {
  if (data.kind === 'set') return `the index of run ${data.run}`;
  const of = data.kind === 'split' ? ` of ${data.parts}` : data.kind === 'shard' ? ` of ${data.shards}` : '';
  return `${jobSubject(data)}${of} of run ${data.run}`;
}

async function runJob(bull: BullMQ, queue: Queue, job: Job<JobData>, token: string | undefined, storageOf: (out: string) => SetStorage, lockDuration: number): Promise<JobOutcome | RunOutcome> {
  const data = job.data;
  if (data.layout !== LAYOUT_VERSION) throw new SitemapError('ERR_SITEMAP_QUEUE', `${describe(data)} was planned with the layout ${data.layout ?? 'of an older sitemapkit'}, and this worker writes layout ${LAYOUT_VERSION}: run workers of the coordinator's version`);
  const stillOurs = lockCheck(job, token, lockDuration);
  const storage = guardedStorage(storageOf(data.out), stillOurs);
  switch (data.kind) {
    case 'split':
      return splitSourcePart(data, storage);
    case 'shard':
      return writeShardJob(data, storage, stillOurs);
    case 'set':
      return runSetJob(bull, queue, job as Job<SetJob>, token, storage, stillOurs);
    case 'child':
      return rewriteChild(data, storage, stillOurs);
  }
}

/**
 * Throws unless `job`'s lock is still this worker's (renewing it): a worker frozen past its lock runs on
 * after another took the job, so it checks before every write others see. One renewed less than half
 * its duration ago (monotonic clock) is ours without asking: a split part closes up to 65,536 files.
 */
function lockCheck(job: Job<JobData>, token: string | undefined, lockDuration: number): () => Promise<void> {
  let oursUntil = 0;
  return async () => {
    const asked = performance.now();
    if (asked < oursUntil) return;
    if (token !== undefined && (await job.extendLock(token, lockDuration)) === 1) {
      oursUntil = asked + lockDuration / 2;
      return;
    }
    throw new SitemapError('ERR_SITEMAP_QUEUE', `job ${job.id as string} is no longer this worker's (its lock expired: another worker took it over, or its run ended); nothing more of it is written`);
  };
}

/** `storage`, each of whose writes and removals (a writer's file on close) waits for `check` first. */
function guardedStorage(storage: SetStorage, check: () => Promise<void>): SetStorage {
  return {
    localDir: storage.localDir,
    read: (name) => storage.read(name),
    list: (prefix) => storage.list(prefix),
    write: async (name, data) => {
      await check();
      await storage.write(name, data);
    },
    writer: async (name) => {
      const writer = await storage.writer(name);
      return {
        write: (chunk) => writer.write(chunk),
        close: async () => {
          await check();
          await writer.close();
        },
      };
    },
    remove: async (name) => {
      await check();
      await storage.remove(name);
    },
  };
}

/** Shard `data.shard` from the split's records; its manifest in the run's folder until the index job. */
export async function writeShardJob(data: ShardJob, storage: SetStorage, beforePublish?: () => Promise<void>): Promise<JobOutcome> {
  // One compression thread: a worker process is one of many (one per core), not the machine's only writer.
  const settings = shardSettings({ ...data.set, outDir: storage.localDir, shards: data.shards, compressionThreads: 1 });
  // A source's parts' files for this shard, in order (a part with no entry of it wrote none).
  const parts = Array.from({ length: data.parts ?? 0 }, (_, part) => partFile(data.run, part, data.shard));
  const records = new ShardRecords([...data.inputs, ...parts].map((name) => join(storage.localDir, name)).filter((path) => existsSync(path)));
  try {
    const manifestPath = join(storage.localDir, runManifest(data.run, settings.name, data.shard, data.shards));
    // Flushed to disk once, by the index job, before the index names them (as generate --shards does).
    const manifest = await writeShardStems(settings, data.shard, records.stems(), (stem) => records.read(stem), { durable: false, manifestPath, ...(beforePublish !== undefined ? { beforePublish } : {}) });
    return { entries: manifest.urls, rejected: 0, problems: [], read: manifest.urls + manifest.duplicates };
  } finally {
    records.close();
  }
}

/** Child jobs a parent adds, or whose values it reads, at once. */
const BATCH = 1000;

/** The parent: adds the split jobs (a source's run), then the shard jobs, waits for them, publishes the index and removes the scratch files. */
async function runSetJob(bull: BullMQ, queue: Queue, job: Job<SetJob>, token: string | undefined, storage: SetStorage, stillOurs: () => Promise<void>): Promise<RunOutcome> {
  let data = job.data;
  const { run, out, shards, set, layout, parts } = data;
  if (data.step === 'parts') await addThenWait(bull, queue, job, token as string, 'split', parts ?? 0, (part): SplitJob => ({ kind: 'split', run, out, shards, set, layout, ...(data.source as SplitSource), part, parts: parts ?? 0 }), 'split');
  if (data.step === 'parts' || data.step === 'split') {
    // A source with no URL is refused once its parts are split, as generate --shards refuses it: not by its index after every attempt.
    const splits = parts === undefined ? undefined : await sumChildren(job);
    if (splits?.routed === 0) {
      await removeScratch(storage, run);
      await unlockSet(out, set.name ?? 'sitemap', runLockOwner(run, job.queueName));
      throw new bull.UnrecoverableError(emptyInput(splits.rejected).message);
    }
    if (data.mode === 'apply') await addThenWait(bull, queue, job, token as string, 'child', (data.touched ?? []).length, await childJobs(data, storage), 'write');
    else await addThenWait(bull, queue, job, token as string, 'shard', shards, (shard): ShardJob => ({ kind: 'shard', run, out, shards, set, layout, shard, inputs: [shardInput(run, shard)], ...(parts !== undefined ? { parts } : {}) }), 'write');
  }
  if (data.step !== 'clean') {
    // Once published (step 'clean'), a retry only removes what is left. The job's lock is checked before
    // each write of the publish, not once: a worker frozen during the long checks could else publish
    // over a later run. A run not holding the set's lock (queue.ts addFlow) publishes nothing.
    const owner = await setLockOwner(data.out, data.set.name ?? 'sitemap');
    if (owner !== runLockOwner(data.run, job.queueName)) throw new SitemapError('ERR_SITEMAP_STATE', `the lock of ${data.out} is not run ${data.run}'s (${owner === undefined ? 'no lock' : owner}): another run is writing the set; nothing is published`);
    const outcome = await publishRun(job, storage, stillOurs);
    await stillOurs();
    await job.updateData((data = { ...data, step: 'clean', outcome }));
  }
  // A part's folder at a time: removing parts × shards files at once held ~90 MB per 65,536.
  for (const part of await storage.list(`${SCRATCH}/${data.run}/parts`)) await storage.remove(`${SCRATCH}/${data.run}/parts/${part}`);
  await removeScratch(storage, data.run);
  await stillOurs();
  await unlockSet(data.out, data.set.name ?? 'sitemap', runLockOwner(data.run, job.queueName));
  return data.outcome as RunOutcome;
}

/**
 * Adds `count` children of `job`, a batch at a time (65,536 jobs at once held 900 MB), moves it to step
 * `next`, and waits for them (a WaitingChildrenError, BullMQ's way to end a step and run the job again
 * once its children are done); returns at once when there are none to wait for.
 */
async function addThenWait(bull: BullMQ, queue: Queue, job: Job<SetJob>, token: string, kind: JobData['kind'], count: number, childOf: (n: number) => JobData, next: SetJob['step']): Promise<void> {
  for (let first = 0; first < count; first += BATCH) {
    const children = Array.from({ length: Math.min(BATCH, count - first) }, (_, i) => ({
      name: kind,
      data: childOf(first + i),
      opts: { ...jobOptions(job.opts.attempts ?? 1), jobId: jobId(job.data.run, kind, first + i), parent: { id: job.id as string, queue: job.queueQualifiedName }, failParentOnFailure: true },
    }));
    await queue.addBulk(children);
  }
  await job.updateData({ ...job.data, step: next });
  if (await job.moveToWaitingChildren(token)) throw new bull.WaitingChildrenError();
}

/** The run's index, from its children's values: the shards' manifests (generate) or the rewritten children (apply). */
async function publishRun(job: Job<SetJob>, storage: SetStorage, beforeWrite: () => Promise<void>): Promise<RunOutcome> {
  const data = job.data;
  const { entries, rejected, warnings, problems, read, written, routed: split } = await sumChildren(job);
  // Every entry routed must be read back: a missing input reads as a shard with no entries.
  const routed = data.routed ?? (data.parts !== undefined ? split : undefined);
  if (routed !== undefined && read !== routed) throw new SitemapError('ERR_SITEMAP_STATE', `the run's jobs read ${read} of the ${routed} ${data.mode === 'apply' ? 'changes' : 'entries'} routed to them: a file of its scratch folder (${SCRATCH}/${data.run}) went or changed while it ran; nothing is published`);
  let published: Omit<RunOutcome, keyof JobOutcome>;
  // Staged in the run's scratch folder: a worker frozen past its lock, woken once the run is done, writes nothing.
  const publish = { beforeWrite, stageIn: join(storage.localDir, SCRATCH, data.run) };
  if (data.mode === 'apply') {
    published = await publishApplied(data, storage, written, publish);
  } else {
    const name = data.set.name ?? 'sitemap';
    const manifests = Array.from({ length: data.shards }, (_, shard) => join(storage.localDir, runManifest(data.run, name, shard, data.shards)));
    const summary: SetSummary = await writeIndexFromManifests({ manifests, outDir: storage.localDir, syncChildren: true, ...publish });
    published = { indexFiles: summary.indexFiles.map((f) => f.name), files: summary.files.length, urls: summary.urls, removed: summary.removed.length };
  }
  return { entries, rejected, warnings, problems, ...published };
}

/** What `job`'s children did, summed; a split's entries are `routed` (its shards write them), not `entries`. */
type ChildrenSum = JobOutcome & { warnings: number; routed: number; read: number; written: ShardFile[] };

/** Sums `job`'s children's values, a page at a time: read at once, those of 65,536 parts held 470 MB of the worker. */
async function sumChildren(job: Job<SetJob>): Promise<ChildrenSum> {
  const total: ChildrenSum = { entries: 0, rejected: 0, warnings: 0, problems: [], routed: 0, read: 0, written: [] };
  let cursor = 0;
  do {
    // HSCAN: each child comes once, as none is added or removed while its parent runs (they are all done).
    const page = await job.getDependencies({ processed: { cursor, count: BATCH } });
    for (const [key, o] of Object.entries<Partial<ChildrenSum> & JobOutcome>(page.processed ?? {})) {
      total[key.includes(`${job.data.run}.split.`) ? 'routed' : 'entries'] += o.entries;
      total.rejected += o.rejected;
      total.warnings += o.warnings ?? 0;
      total.read += o.read ?? 0;
      total.written.push(...(o.written ?? []));
      total.problems.push(...o.problems.slice(0, MAX_PROBLEMS_KEPT - total.problems.length));
    }
    cursor = page.nextProcessedCursor ?? 0;
  } while (cursor !== 0);
  return total;
}
