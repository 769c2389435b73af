// The Redis side of the queue against a real redis-server: BullMQ's connections (ioredis) take the
// password and the database from the URL; pingRedis fails at once, and says why, when Redis is not
// there or does not answer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { pingRedis } from '../../src/node/scale/queue-redis.js';
import { enqueueApply, enqueueGenerate, queueStatus, RunLock, waitForRun } from '../../src/node/scale/queue.js';
import { jobId, SCRATCH } from '../../src/node/scale/queue-jobs.js';
import { LAYOUT_VERSION } from '../../src/core/scale/layout.js';
import type { Job } from 'bullmq';
import { FileSystemStorage } from '../../src/node/scale/storage.js';
import { startWorker } from '../../src/node/scale/worker.js';
import { redisUnavailable, REDIS_SERVER, startRedis, startServer, type RedisServer } from '../helpers/redis-server.js';
const skip = redisUnavailable();
let redis: RedisServer;
before(async () => {
  if (skip === undefined) redis = await startRedis();
});
after(async () => redis?.stop());

test('the URL gives the password and the database to every connection BullMQ opens; a wrong password, a refused connection and a silent server are one clear error', { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-redis-auth-'));
  const { port, stop } = await startServer({ what: 'redis-server', argv: (p) => [REDIS_SERVER, '--port', String(p), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--requirepass', 's3cret'], ready: 'Ready to accept connections', stopSignal: 'SIGTERM', dir, timeoutMs: 10_000 });
  t.after(stop);
  const url = `redis://:s3cret@127.0.0.1:${port}/3`;
  await pingRedis(url);
  const out = mkdtempSync(join(tmpdir(), 'sitemapkit-redis-db-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  writeFileSync(join(out, 'urls.txt'), 'https://example.com/a\n');
  const { run } = await enqueueGenerate({ redis: url, queue: 'db3', out: join(out, 'set'), shards: 2, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: join(out, 'urls.txt'), format: 'text' }] });
  assert.deepEqual((await queueStatus(url, 'db3')).map((r) => r.run), [run]);
  // The run's keys are in database 3, none in database 0.
  const raw = new Redis(port, '127.0.0.1', { password: 's3cret' });
  t.after(() => raw.disconnect());
  assert.deepEqual(await raw.keys('bull:db3:*'), []);
  await raw.select(3);
  assert.ok((await raw.keys('bull:db3:*')).length > 0);

  await assert.rejects(pingRedis(`redis://:wrong@127.0.0.1:${port}`), /^SitemapError: cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+: (WRONGPASS|ERR invalid password)/);
  // Port 1, where nothing listens: a free port of a moment ago may be another test's server by now.
  await assert.rejects(pingRedis('redis://127.0.0.1:1', 2000), /^SitemapError: cannot reach Redis at redis:\/\/127\.0\.0\.1:1: E[A-Z]+$/);
  // A server that accepts the connection and never answers: the bound holds.
  const silent = createServer(() => {}).listen(0, '127.0.0.1');
  t.after(() => silent.close());
  await new Promise((listening) => silent.once('listening', listening));
  const started = Date.now();
  await assert.rejects(pingRedis(`redis://127.0.0.1:${(silent.address() as { port: number }).port}`, 500), /: no answer within 0\.5 s$/);
  assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
});

test('waitForRun polls without piling listeners on its signal (no MaxListenersExceededWarning), and stops when aborted, even between two polls', { skip, timeout: 20_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'sitemapkit-wait-'));
  after(() => rmSync(out, { recursive: true, force: true }));
  const input = join(out, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\n');
  const { run } = await enqueueGenerate({ redis: redis.url, queue: 'wait', out: join(out, 'set'), shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning.name);
  process.on('warning', onWarning);
  const controller = new AbortController();
  let ticks = 0;
  try {
    // No worker: the run waits for its children, tick after tick.
    await assert.rejects(waitForRun(redis.url, 'wait', run, { signal: controller.signal, intervalMs: 5, onTick: () => ++ticks === 40 && controller.abort(new Error('enough')) }), /enough/);
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  assert.equal(ticks, 40);
  assert.deepEqual(warnings, []);
});

test("a parent killed while it removes the run's scratch files (its manifests already gone) is retried into a completed run: the set stays published, the scratch is removed", { skip, timeout: 20_000 }, async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'sitemapkit-clean-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const input = join(out, 'urls.txt');
  writeFileSync(input, Array.from({ length: 50 }, (_, i) => `https://example.com/p/${i}\n`).join(''));
  const set = join(out, 'set');
  const { run } = await enqueueGenerate({ redis: redis.url, queue: 'clean', out: set, shards: 2, set: { baseUrl: 'https://example.com/' }, attempts: 2, inputs: [{ path: input, format: 'text' }] });
  // The first removal of the run's folder takes its manifests, then the worker "dies" (the job is
  // tried again, as BullMQ does with a stalled job).
  let killed = false;
  const storage = (dir: string): FileSystemStorage => {
    const files = new FileSystemStorage(dir);
    const remove = files.remove.bind(files);
    files.remove = async (name) => {
      if (!killed && name === `${SCRATCH}/${run}`) {
        killed = true;
        await remove(`${name}/manifests`);
        throw new Error('killed while removing the scratch files');
      }
      await remove(name);
    };
    return files;
  };
  const worker = await startWorker({ redis: redis.url, queue: 'clean', storage });
  t.after(() => worker.close(true));
  const status = await waitForRun(redis.url, 'clean', run, { intervalMs: 20 });
  assert.ok(killed);
  assert.equal(status.state, 'completed', status.reason);
  assert.equal(status.outcome?.urls, 50);
  assert.deepEqual(readdirSync(set).filter((name) => name.startsWith('.')), []);
  assert.match(readFileSync(join(set, 'sitemap.xml'), 'utf8'), /<sitemapindex/);
});

test('one run at a time per set: a run on a folder another run is still writing is refused (its scratch files removed), also when two coordinators add at once; once the first is done the next is taken', { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-one-run-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\nhttps://example.com/b\n');
  const set = join(dir, 'set');
  const enqueue = (out = set): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue: 'one', out, shards: 2, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  // Two coordinators at once, no worker yet: one run is added, the other refused.
  const both = await Promise.allSettled([enqueue(), enqueue()]);
  const added = both.flatMap((r) => (r.status === 'fulfilled' ? [r.value.run] : []));
  assert.equal(added.length, 1, JSON.stringify(both));
  const refused = both.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  assert.match(String(refused.reason), new RegExp(`^SitemapError: run ${added[0]} is writing .*set \\(waiting\\): one run at a time per set`));
  assert.deepEqual(readdirSync(join(set, SCRATCH)), added);
  // Another folder is another set.
  await enqueue(join(dir, 'other'));
  const worker = await startWorker({ redis: redis.url, queue: 'one' });
  t.after(() => worker.close(true));
  assert.equal((await waitForRun(redis.url, 'one', added[0] as string, { intervalMs: 20 })).state, 'completed');
  const next = await enqueue();
  assert.equal((await waitForRun(redis.url, 'one', next.run, { intervalMs: 20 })).state, 'completed');
});

test('the run lock of a coordinator that died holding it frees the set within seconds; a live holder keeps it past its time to live (no two holders)', { skip, timeout: 30_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-run-lock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\n');
  const set = join(dir, 'set');
  const lockKey = `sitemapkit:lock:out:${set}:lock`;
  // The locks' time to live, shorter than the default 5 s: the test waits for it twice.
  const lockTtlMs = 2_000;
  const raw = new Redis(redis.url);
  t.after(() => raw.disconnect());
  // A coordinator in a process of its own, killed (-9) while it holds the lock: its storage never answers.
  const script = join(dir, 'holder.mts');
  writeFileSync(script, `
    import { enqueueGenerate } from ${JSON.stringify(new URL('../../src/node/scale/queue.ts', import.meta.url).pathname)};
    import { FileSystemStorage } from ${JSON.stringify(new URL('../../src/node/scale/storage.ts', import.meta.url).pathname)};
    const storage = new FileSystemStorage(${JSON.stringify(set)});
    storage.list = () => new Promise(() => {});
    await enqueueGenerate({ redis: ${JSON.stringify(redis.url)}, queue: 'lock', out: ${JSON.stringify(set)}, shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: ${JSON.stringify(input)}, format: 'text' }], storage, lockTtlMs: ${lockTtlMs} });
  `);
  const holder = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'ignore' });
  t.after(() => holder.kill('SIGKILL'));
  // Killed once it holds the set's lock file too (its owner written): killed between making and writing
  // that file, it leaves an empty lock, which is taken over only once 10 s old (staged-output.ts lockSet).
  const lockFile = join(set, '.sitemapkit-lock-sitemap');
  const ownerWritten = (): boolean => existsSync(lockFile) && readFileSync(lockFile, 'utf8') !== '';
  for (const deadline = Date.now() + 15_000; (await raw.get(lockKey)) === null || !ownerWritten(); ) {
    assert.ok(Date.now() < deadline, 'the holder took the lock');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  holder.kill('SIGKILL');
  const enqueue = (storage?: FileSystemStorage): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue: 'lock', out: set, shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }], lockTtlMs, ...(storage !== undefined ? { storage } : {}) });
  const started = Date.now();
  const first = await enqueue();
  assert.ok(Date.now() - started < 10_000, `waited ${Date.now() - started} ms for a dead holder's lock`);
  // A live holder slower than the lock's time to live (its storage answers 1 s after it): the next
  // coordinator waits for it, then finds its run and is refused; not both added.
  const slow = new FileSystemStorage(set);
  const list = slow.list.bind(slow);
  slow.list = async (prefix) => {
    await new Promise((resolve) => setTimeout(resolve, lockTtlMs + 1_000));
    return list(prefix);
  };
  await raw.del(`sitemapkit:lock:out:${set}`);
  const both = await Promise.allSettled([enqueue(slow), new Promise((resolve) => setTimeout(resolve, 200)).then(() => enqueue())]);
  assert.equal(both[0].status, 'fulfilled', String((both[0] as PromiseRejectedResult).reason));
  assert.equal(both[1].status, 'rejected');
  assert.match(String((both[1] as PromiseRejectedResult).reason), /one run at a time per set/);
  assert.notEqual((both[0] as PromiseFulfilledResult<{ run: string }>).value.run, first.run);
});

test("--run: a name that is not one plain name is refused before anything is written ('..' named the set's folder, removed with the scratch files); a run already on the queue is not added again over its scratch files", { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-run-id-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const set = join(dir, 'set');
  mkdirSync(set);
  writeFileSync(join(set, 'keep.txt'), 'mine');
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\n');
  const enqueue = (run: string): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue: 'runid', out: set, run, shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  for (const run of ['..', '.', 'a/b', '', 'a:b']) await assert.rejects(enqueue(run), /^SitemapError: run ".*" must be a plain name/, run);
  assert.deepEqual(readdirSync(set), ['keep.txt']);
  await enqueue('r-1');
  const split = join(set, SCRATCH, 'r-1', 'input', 'shard-0.records');
  const bytes = readFileSync(split);
  writeFileSync(input, 'https://example.com/b\nhttps://example.com/c\n');
  await assert.rejects(enqueue('r-1'), /^SitemapError: run r-1 is already on queue runid \(waiting\)/);
  assert.ok(readFileSync(split).equals(bytes));
});

test('the coordinator adds one job whatever the shard count or the children an apply touches (the parent adds them, a batch at a time: a flow of 65,536 shard jobs held 900 MB of the coordinator); status counts them by id pages', { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-many-shards-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\n');
  const { run } = await enqueueGenerate({ redis: redis.url, queue: 'many', out: join(dir, 'set'), shards: 20_000, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  const raw = new Redis(redis.url);
  t.after(() => raw.disconnect());
  assert.deepEqual(await raw.lrange('bull:many:wait', 0, -1), [`${run}.set`]);
  const [status] = await queueStatus(redis.url, 'many', run);
  assert.equal(status?.state, 'waiting');
  assert.deepEqual(status?.jobs, {});
  // A source's split jobs too: 65,536 parts, one job added (a flow of 16,384 outlasted the lock of its add: never added).
  const source = join(dir, 'source.mjs');
  writeFileSync(source, 'export default function* () {}');
  const parted = await enqueueGenerate({ redis: redis.url, queue: 'many-parts', out: join(dir, 'parted'), shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, source: { path: source, parts: 65_536, options: {} } });
  assert.deepEqual(await raw.lrange('bull:many-parts:wait', 0, -1), [`${parted.run}.set`]);
  // An apply's child jobs too: every child touched (4 sections × 30 shards), one job added; a worker's parent adds them and the run is done.
  const { writeShardedSet } = await import('../../src/node/scale/generate-sharded.js');
  const set = join(dir, 'applied');
  const locs = Array.from({ length: 600 }, (_, i) => `https://example.com/s${i % 4}/p-${i}`);
  await writeShardedSet(locs.map((loc) => ({ loc })), { outDir: set, baseUrl: 'https://example.com/', shards: 30, compressionThreads: 1 });
  writeFileSync(join(dir, 'changes.jsonl'), locs.map((loc) => JSON.stringify({ op: 'upsert', loc, lastmod: '2026-01-01' })).join('\n') + '\n');
  const applied = await enqueueApply({ redis: redis.url, queue: 'many-apply', out: set, changes: [join(dir, 'changes.jsonl')], attempts: 1 });
  assert.ok(applied.touched > 100, `${applied.touched} children`);
  assert.deepEqual(await raw.lrange('bull:many-apply:wait', 0, -1), [`${applied.run}.set`]);
  const worker = await startWorker({ redis: redis.url, queue: 'many-apply', concurrency: 4 });
  t.after(() => worker.close(true));
  const done = await waitForRun(redis.url, 'many-apply', applied.run, { intervalMs: 20 });
  assert.equal(done.state, 'completed', done.reason);
  assert.deepEqual(done.jobs, { completed: applied.touched });
  assert.equal(done.outcome?.urls, 600);
});

test("what a failed run leaves in the set's scratch folder is removed by the next run on the set", { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-failed-left-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\nhttps://example.com/b\nhttps://example.com/c\n');
  const set = join(dir, 'set');
  const enqueue = (): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue: 'left', out: set, shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  const failed = await enqueue();
  // Its shard cannot read its input: the run fails for good, its scratch folder stays behind.
  const split = join(set, SCRATCH, failed.run, 'input', 'shard-0.records');
  rmSync(split);
  mkdirSync(split);
  const worker = await startWorker({ redis: redis.url, queue: 'left' });
  t.after(() => worker.close(true));
  assert.equal((await waitForRun(redis.url, 'left', failed.run, { intervalMs: 20 })).state, 'failed');
  assert.deepEqual(readdirSync(join(set, SCRATCH)), [failed.run]);
  const next = await enqueue();
  assert.deepEqual(readdirSync(join(set, SCRATCH)), [next.run]);
  assert.equal((await waitForRun(redis.url, 'left', next.run, { intervalMs: 20 })).state, 'completed');
  assert.equal(existsSync(join(set, SCRATCH)), false);
});

test("a coordinator whose lock is lost between its check and its add adds nothing (the add is fenced in Redis); one frozen just after its add has claimed the set already, so the next is refused", { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-fenced-add-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\n');
  const set = join(dir, 'set');
  const enqueue = (): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue: 'fenced', out: set, shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  const raw = new Redis(redis.url);
  t.after(() => raw.disconnect());
  const lockKey = `sitemapkit:fenced:out:${set}:lock`;
  // What happens to the coordinator in the middle of its add, once: the step runs just before the add (or after it).
  const { FlowProducer } = await import('bullmq');
  const add = FlowProducer.prototype.add;
  let before: (() => Promise<void>) | undefined;
  let after: (() => Promise<void>) | undefined;
  FlowProducer.prototype.add = async function (this: InstanceType<typeof FlowProducer>, ...args: Parameters<typeof add>) {
    const [first, then] = [before, after];
    before = after = undefined;
    await first?.();
    const added = await add.apply(this, args);
    await then?.();
    return added;
  };
  t.after(() => (FlowProducer.prototype.add = add));

  // Frozen past the lock's time to live after its last check: another coordinator holds the lock by then.
  before = async () => void (await raw.set(lockKey, 'another-coordinator', 'PX', 5000));
  await assert.rejects(enqueue(), /^SitemapError: the lock of .* expired before this run was added/);
  assert.deepEqual(await raw.lrange('bull:fenced:wait', 0, -1), []);
  // Nothing of the refused run is left, not even the folder it made.
  assert.equal(existsSync(set), false);
  await raw.del(lockKey);

  // Frozen just after its add, past the lock's time to live: the next coordinator finds the run.
  let next: PromiseSettledResult<unknown> | undefined;
  after = async () => {
    await raw.del(lockKey);
    [next] = await Promise.allSettled([enqueue()]);
  };
  const { run } = await enqueue();
  assert.equal(next?.status, 'rejected', JSON.stringify(next));
  assert.match(String((next as PromiseRejectedResult).reason), new RegExp(`^SitemapError: run ${run} is writing .*: one run at a time per set`));
  assert.deepEqual(await raw.lrange('bull:fenced:wait', 0, -1), [`${run}.set`]);
});

test("a coordinator removes the scratch folder of a run that is done or whose coordinator is gone, not the split another coordinator is writing (that one is refused, not failed by its files going)", { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-split-kept-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\nhttps://example.com/b\n');
  const set = join(dir, 'set');
  const enqueue = (storage?: FileSystemStorage): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue: 'split-kept', out: set, shards: 2, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }], ...(storage !== undefined ? { storage } : {}) });
  // A coordinator whose split is slow: its files are closed once the other coordinator has added its run.
  let closing!: () => void;
  const closed = new Promise<void>((resolve) => (closing = resolve));
  let started!: () => void;
  const splitting = new Promise<void>((resolve) => (started = resolve));
  const slow = new FileSystemStorage(set);
  const writer = slow.writer.bind(slow);
  slow.writer = async (name) => {
    const file = await writer(name);
    return {
      write: (chunk) => file.write(chunk),
      close: async () => {
        started();
        await closed;
        await file.close();
      },
    };
  };
  const second = enqueue(slow);
  second.catch(() => undefined);
  await splitting;
  const first = await enqueue();
  closing();
  await assert.rejects(second, new RegExp(`^SitemapError: run ${first.run} is writing .*: one run at a time per set`));
  assert.deepEqual(readdirSync(join(set, SCRATCH)), [first.run]);
  // A folder of a run that was never added, whose coordinator is gone: removed by the next run on the set.
  const other = join(dir, 'other');
  mkdirSync(join(other, SCRATCH, 'dead-run', 'input'), { recursive: true });
  const next = await enqueueGenerate({ redis: redis.url, queue: 'split-kept', out: other, shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  assert.deepEqual(readdirSync(join(other, SCRATCH)), [next.run]);
});

test("a run whose shard input or change file went while it ran fails, and publishes nothing: a missing file read as a shard (child) with nothing in it", { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-input-gone-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  const locs = Array.from({ length: 40 }, (_, i) => `https://example.com/s${i % 4}/p-${i}`);
  writeFileSync(input, locs.join('\n') + '\n');
  const set = join(dir, 'set');
  const { run } = await enqueueGenerate({ redis: redis.url, queue: 'gone', out: set, shards: 2, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  // Removed before any worker runs (as a stale process's removal would).
  rmSync(join(set, SCRATCH, run, 'input', 'shard-1.records'));
  const worker = await startWorker({ redis: redis.url, queue: 'gone' });
  t.after(() => worker.close(true));
  const status = await waitForRun(redis.url, 'gone', run, { intervalMs: 20 });
  assert.equal(status.state, 'failed');
  assert.match(status.reason ?? '', /^the run's jobs read \d+ of the 40 entries routed to them: a file of its scratch folder .* went or changed while it ran; nothing is published$/);
  assert.equal(existsSync(join(set, 'sitemap.xml')), false);

  // An apply whose change file of one child went: the set stays as it was.
  const { writeShardedSet } = await import('../../src/node/scale/generate-sharded.js');
  const applied = join(dir, 'applied');
  await writeShardedSet(locs.map((loc) => ({ loc })), { outDir: applied, baseUrl: 'https://example.com/', shards: 2, compressionThreads: 1 });
  const index = readFileSync(join(applied, 'sitemap.xml'));
  writeFileSync(join(dir, 'changes.jsonl'), locs.map((loc) => JSON.stringify({ op: 'upsert', loc, lastmod: '2026-01-01' })).join('\n') + '\n');
  const changes = await enqueueApply({ redis: redis.url, queue: 'gone', out: applied, changes: [join(dir, 'changes.jsonl')], attempts: 1 });
  const [gone] = readdirSync(join(applied, SCRATCH, changes.run, 'changes'));
  rmSync(join(applied, SCRATCH, changes.run, 'changes', gone as string));
  const done = await waitForRun(redis.url, 'gone', changes.run, { intervalMs: 20 });
  assert.equal(done.state, 'failed');
  assert.match(done.reason ?? '', /^the run's jobs read \d+ of the 40 changes routed to them/);
  assert.deepEqual(readFileSync(join(applied, 'sitemap.xml')), index);
});

test('two coordinators given the same --run at once: one adds it, the other is refused before it writes (while the first splits, or once its run is on the queue), and the run keeps its scratch files', { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-same-run-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const inputs = [0, 1].map((n) => join(dir, `urls-${n}.txt`));
  inputs.forEach((input, n) => writeFileSync(input, Array.from({ length: 20 }, (_, i) => `https://example.com/${n}/p-${i}\n`).join('')));
  const set = join(dir, 'set');
  const enqueue = (input: string): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue: 'same-run', out: set, run: 'nightly', shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  const both = await Promise.allSettled(inputs.map(enqueue));
  assert.equal(both.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(both));
  const refused = both.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  assert.match(String(refused.reason), /^SitemapError: run nightly is (being split by another coordinator|already on queue same-run \(waiting\))/);
  // The run's input is the one its coordinator split, whole: its worker publishes its 20 URLs.
  const added = inputs[both.findIndex((r) => r.status === 'fulfilled')] as string;
  const worker = await startWorker({ redis: redis.url, queue: 'same-run' });
  t.after(() => worker.close(true));
  const status = await waitForRun(redis.url, 'same-run', 'nightly', { intervalMs: 20 });
  assert.equal(status.state, 'completed', status.reason);
  assert.equal(status.outcome?.urls, 20);
  const index = readFileSync(join(set, 'sitemap.xml'), 'utf8');
  const child = /<loc>https:\/\/example\.com\/([^<]+)<\/loc>/.exec(index)?.[1] as string;
  const { gunzipSync } = await import('node:zlib');
  assert.match(gunzipSync(readFileSync(join(set, child))).toString(), new RegExp(`example\\.com/${/urls-(\d)/.exec(added)?.[1]}/p-19<`));
});

test("a source's part retried starts over: what an attempt that failed after writing a shard's file left is not read with the next attempt's entries (a source whose rows changed between the two)", { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-part-retry-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { shardOf } = await import('../helpers/shard-of.js');
  const inShard = (shard: number): string => Array.from({ length: 100 }, (_, i) => `https://example.com/p-${i}`).find((loc) => shardOf(loc, { shards: 2, baseUrl: 'https://example.com/' }).bucket === shard) as string;
  // Attempt 1 reads a row of shard 0; by attempt 2 that row is gone and one of shard 1 came.
  const source = join(dir, 'source.mjs');
  writeFileSync(source, `
    import { readFileSync, writeFileSync } from 'node:fs';
    export default function* () {
      const attempt = Number(readFileSync(${JSON.stringify(join(dir, 'attempts'))}, 'utf8')) + 1;
      writeFileSync(${JSON.stringify(join(dir, 'attempts'))}, String(attempt));
      yield { loc: attempt === 1 ? ${JSON.stringify(inShard(0))} : ${JSON.stringify(inShard(1))} };
    }`);
  writeFileSync(join(dir, 'attempts'), '0');
  const set = join(dir, 'set');
  const { run } = await enqueueGenerate({ redis: redis.url, queue: 'part-retry', out: set, shards: 2, set: { baseUrl: 'https://example.com/' }, attempts: 2, source: { path: source, parts: 1, options: {} } });
  // Attempt 1 fails once its shard's file is in place (a worker killed there is retried the same way).
  let failed = false;
  const storage = (out: string): FileSystemStorage => {
    const files = new FileSystemStorage(out);
    const writer = files.writer.bind(files);
    files.writer = async (name) => {
      const file = await writer(name);
      return {
        write: (chunk) => file.write(chunk),
        close: async () => {
          await file.close();
          if (!failed && name.endsWith('/parts/0/shard-0.records')) {
            failed = true;
            throw new Error('failed after its file went in');
          }
        },
      };
    };
    return files;
  };
  const worker = await startWorker({ redis: redis.url, queue: 'part-retry', storage });
  t.after(() => worker.close(true));
  const status = await waitForRun(redis.url, 'part-retry', run, { intervalMs: 20 });
  assert.ok(failed);
  assert.equal(readFileSync(join(dir, 'attempts'), 'utf8'), '2');
  assert.equal(status.state, 'completed', status.reason);
  assert.equal(status.outcome?.urls, 1);
});

test("a source that yields no URL (none, or every entry refused) fails its run once its parts are split, as generate --shards refuses it: no shard job, no retry of its index, nothing left in the set's folder", { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-empty-source-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const worker = await startWorker({ redis: redis.url, queue: 'empty-source' });
  t.after(() => worker.close(true));
  const bull = await import('bullmq');
  const queue = new bull.Queue('empty-source', { connection: { url: redis.url } });
  t.after(() => queue.close());
  for (const [body, reason] of [['', 'no URLs to write: the input lists none'], ['yield { loc: "ftp://example.com/a" };', 'no URL could be written: every entry was refused (1 entry)']] as const) {
    // A name each: the worker's import of the first is cached.
    const source = join(dir, `source-${body.length}.mjs`);
    writeFileSync(source, `export default async function* () { ${body} }`);
    const set = join(dir, 'set');
    const { run } = await enqueueGenerate({ redis: redis.url, queue: 'empty-source', out: set, shards: 2, set: { baseUrl: 'https://example.com/' }, attempts: 3, source: { path: source, parts: 1, options: {} } });
    const status = await waitForRun(redis.url, 'empty-source', run, { intervalMs: 20 });
    assert.equal(status.state, 'failed');
    assert.equal(status.reason, reason);
    assert.deepEqual(status.jobs, { completed: 1 });
    assert.equal((await queue.getJob(jobId(run, 'set')))?.attemptsMade, 1);
    assert.deepEqual(readdirSync(set), []);
  }
});

test("a parent reads its children's values a page at a time (those of 65,536 parts, read at once, held 470 MB of its worker): 2,500 parts each refusing its entry fail the run, each counted once", { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-paged-children-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bull = await import('bullmq');
  const raw = new Redis(redis.url);
  t.after(() => raw.disconnect());
  // The parts' values as BullMQ keeps them for their parent: its split step is all that runs.
  const run = 'paged';
  const values = Array.from({ length: 2500 }, (_, n) => [`bull:paged:${jobId(run, 'split', n)}`, JSON.stringify({ entries: 0, rejected: 1, problems: [] })]);
  await raw.hset(`bull:paged:${jobId(run, 'set')}:processed`, ...values.flat());
  // How many values each read brought back, by either getter.
  const reads: number[] = [];
  const { getChildrenValues, getDependencies } = bull.Job.prototype;
  t.after(() => Object.assign(bull.Job.prototype, { getChildrenValues, getDependencies }));
  Object.assign(bull.Job.prototype, {
    async getChildrenValues(this: Job) {
      const all = await getChildrenValues.call(this);
      reads.push(Object.keys(all).length);
      return all;
    },
    async getDependencies(this: Job, opts: Parameters<Job['getDependencies']>[0]) {
      const page = await getDependencies.call(this, opts);
      reads.push(Object.keys(page.processed ?? {}).length);
      return page;
    },
  });
  const queue = new bull.Queue('paged', { connection: { url: redis.url } });
  t.after(() => queue.close());
  await queue.add('set', { kind: 'set', step: 'split', run, out: dir, shards: 1, set: { baseUrl: 'https://example.com/' }, layout: LAYOUT_VERSION, parts: 2500, mode: 'generate' }, { jobId: jobId(run, 'set') });
  const worker = await startWorker({ redis: redis.url, queue: 'paged' });
  t.after(() => worker.close(true));
  const status = await waitForRun(redis.url, 'paged', run, { intervalMs: 20 });
  assert.equal(status.reason, 'no URL could be written: every entry was refused (2,500 entries)');
  assert.equal(reads.reduce((n, read) => n + read, 0), 2500);
  assert.ok(Math.max(...reads) <= 1500, `values read at once: ${reads.join(', ')}`);
});

test('a --run whose coordinator died while splitting, given again: the new split starts from an empty folder (what the dead one left is not read as entries)', { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-run-again-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  const set = join(dir, 'set');
  // The dead coordinator's split: a file for every one of 8 shards.
  const { ShardFiles } = await import('../../src/node/scale/queue-split.js');
  const dead = new ShardFiles(new FileSystemStorage(set), { baseUrl: 'https://example.com/' }, 8, (shard) => `${SCRATCH}/again/input/shard-${shard}.records`);
  for (let i = 0; i < 200; i++) await dead.add({ loc: `https://example.com/old-${i}` }, `old:${i}`);
  assert.equal((await dead.close()).length, 8);
  writeFileSync(input, 'https://example.com/new\n');
  const { run } = await enqueueGenerate({ redis: redis.url, queue: 'run-again', out: set, run: 'again', shards: 8, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  const worker = await startWorker({ redis: redis.url, queue: 'run-again' });
  t.after(() => worker.close(true));
  const status = await waitForRun(redis.url, 'run-again', run, { intervalMs: 20 });
  assert.equal(status.state, 'completed', status.reason);
  assert.equal(status.outcome?.urls, 1);
});

test('a connection lost between the WATCH of the fenced add and its EXEC adds nothing: the fenced connection never reconnects, so the EXEC is not sent again on a connection without the WATCH', { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-fence-reconnect-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\n');
  const set = join(dir, 'set');
  const raw = new Redis(redis.url);
  t.after(() => raw.disconnect());
  const lockKey = `sitemapkit:reconnect:out:${set}:lock`;
  const { FlowProducer } = await import('bullmq');
  const add = FlowProducer.prototype.add;
  FlowProducer.prototype.add = async function (this: InstanceType<typeof FlowProducer>, ...args: Parameters<typeof add>) {
    // After the WATCH and the check: every other connection dropped (a network blip), and the lock
    // taken meanwhile by another coordinator.
    await raw.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
    await raw.set(lockKey, 'another-coordinator', 'PX', 5000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    return add.apply(this, args);
  };
  t.after(() => (FlowProducer.prototype.add = add));
  await assert.rejects(enqueueGenerate({ redis: redis.url, queue: 'reconnect', out: set, shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] }), /^SitemapError: the lock of .* expired before this run was added/);
  FlowProducer.prototype.add = add;
  assert.deepEqual(await raw.lrange('bull:reconnect:wait', 0, -1), []);
});

test("a local run and a queued run of one set exclude each other through the set's lock file: the second is refused, named the first; the lock goes with the run", { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-local-queued-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\nhttps://example.com/b/c\n');
  const set = join(dir, 'set');
  const { writeShardedSet } = await import('../../src/node/scale/generate-sharded.js');
  const local = (): Promise<unknown> => writeShardedSet([{ loc: 'https://example.com/x' }], { outDir: set, baseUrl: 'https://example.com/', shards: 2, compressionThreads: 1 });
  const enqueue = (): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue: 'local-queued', out: set, shards: 2, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  // A queued run on the set, no worker yet: a local run stops before it writes.
  const { run } = await enqueue();
  await assert.rejects(local(), { code: 'ERR_SITEMAP_WRITE', message: new RegExp(`^run ${run} of queue local-queued is writing the sitemaps "sitemap" into ${set}`) });
  assert.equal(existsSync(join(set, 'sitemap.xml')), false);
  const worker = await startWorker({ redis: redis.url, queue: 'local-queued' });
  t.after(() => worker.close(true));
  assert.equal((await waitForRun(redis.url, 'local-queued', run, { intervalMs: 20 })).state, 'completed');
  assert.deepEqual(readdirSync(set).filter((name) => name.startsWith('.')), []);
  // A local run of another process holds the set: the coordinator is refused, naming it, and adds nothing.
  const machine = (await import('node:zlib')).crc32((await import('node:os')).hostname()).toString(16).padStart(8, '0');
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  t.after(() => other.kill('SIGKILL'));
  writeFileSync(join(set, '.sitemapkit-lock-sitemap'), `${other.pid as number} ${machine}`);
  await assert.rejects(enqueue(), { code: 'ERR_SITEMAP_WRITE', message: new RegExp(`^another run \\(process ${other.pid as number}\\) is writing the sitemaps "sitemap" into ${set}`) });
  assert.deepEqual((await queueStatus(redis.url, 'local-queued')).map((status) => status.run), [run]);
  assert.equal(existsSync(join(set, SCRATCH)), false);
  assert.equal(readFileSync(join(set, '.sitemapkit-lock-sitemap'), 'utf8'), `${other.pid as number} ${machine}`);
  await local().catch((error: Error) => assert.match(error.message, /another run \(process/));
  rmSync(join(set, '.sitemapkit-lock-sitemap'));
  await local();
});

test("a worker frozen in its index job right before the index's rename, past its lock, woken once its run was published by another worker and the next run too: it puts nothing back (its staged index went with its run's scratch folder)", { skip, timeout: 30_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-frozen-publish-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const set = join(dir, 'set');
  const inputs = [0, 1].map((n) => join(dir, `urls-${n}.txt`));
  inputs.forEach((input, n) => writeFileSync(input, `https://example.com/run-${n}/a\n`));
  // A worker process that stops itself (SIGSTOP) once, right before it renames an index into the set.
  const script = join(dir, 'frozen.mts');
  writeFileSync(script, `
    import { createRequire, syncBuiltinESMExports } from 'node:module';
    import { startWorker } from ${JSON.stringify(new URL('../../src/node/scale/worker.ts', import.meta.url).pathname)};
    const fsp = createRequire(import.meta.url)('node:fs/promises');
    const rename = fsp.rename;
    let stopped = false;
    fsp.rename = async (from, to) => {
      if (!stopped && String(to) === ${JSON.stringify(join(set, 'sitemap.xml'))}) {
        stopped = true;
        process.kill(process.pid, 'SIGSTOP');
      }
      return rename(from, to);
    };
    syncBuiltinESMExports();
    await startWorker({ redis: ${JSON.stringify(redis.url)}, queue: 'frozen', lockDurationMs: 1000, log: (line) => console.log(line) });
  `);
  const enqueue = (input: string): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue: 'frozen', out: set, shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  const first = await enqueue(inputs[0] as string);
  let log = '';
  const frozen = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  frozen.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  t.after(() => frozen.kill('SIGKILL'));
  const state = (): string => readFileSync(`/proc/${frozen.pid as number}/stat`, 'utf8').split(') ')[1]?.[0] ?? '';
  for (const deadline = Date.now() + 20_000; state() !== 'T'; ) {
    assert.ok(Date.now() < deadline, 'the worker stopped before the rename');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const worker = await startWorker({ redis: redis.url, queue: 'frozen', lockDurationMs: 1000 });
  t.after(() => worker.close(true));
  assert.equal((await waitForRun(redis.url, 'frozen', first.run, { intervalMs: 20 })).state, 'completed');
  const second = await enqueue(inputs[1] as string);
  assert.equal((await waitForRun(redis.url, 'frozen', second.run, { intervalMs: 20 })).state, 'completed');
  const index = readFileSync(join(set, 'sitemap.xml'));
  frozen.kill('SIGCONT');
  // Its job ends (BullMQ cannot move it, not being its worker's any more) once its processor returns.
  for (const deadline = Date.now() + 10_000; !log.includes(`failed the index of run ${first.run}`) && !log.includes(`job ${first.run}.set. moveTo`); ) {
    assert.ok(Date.now() < deadline, `the woken worker's index job ended: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.deepEqual(readFileSync(join(set, 'sitemap.xml')), index);
});

test('a run Redis lost (restarted without its data) while its coordinator waits: no such run, and the set\'s lock is released', { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-lost-run-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\n');
  const set = join(dir, 'set');
  const { run } = await enqueueGenerate({ redis: redis.url, queue: 'lost', out: set, shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  assert.ok(existsSync(join(set, '.sitemapkit-lock-sitemap')));
  const raw = new Redis(redis.url);
  t.after(() => raw.disconnect());
  let lost = false;
  const onTick = (): void => {
    if (lost) return;
    lost = true;
    void raw.keys('bull:lost:*').then((keys) => raw.del(...keys));
  };
  await assert.rejects(waitForRun(redis.url, 'lost', run, { intervalMs: 20, onTick }), new RegExp(`^SitemapError: no run ${run} on queue lost`));
  assert.equal(existsSync(join(set, '.sitemapkit-lock-sitemap')), false);
});

test('a queued apply whose every change is refused completes, and leaves the set as it was (its run has no scratch folder to stage in)', { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-empty-apply-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { writeShardedSet } = await import('../../src/node/scale/generate-sharded.js');
  const set = join(dir, 'set');
  await writeShardedSet([{ loc: 'https://example.com/a/b' }], { outDir: set, baseUrl: 'https://example.com/', shards: 2, compressionThreads: 1 });
  const index = readFileSync(join(set, 'sitemap.xml'));
  writeFileSync(join(dir, 'changes.jsonl'), '{"op":"rename"}\n');
  const { run, touched } = await enqueueApply({ redis: redis.url, queue: 'empty-apply', out: set, changes: [join(dir, 'changes.jsonl')], attempts: 1, onProblem: () => {} });
  assert.equal(touched, 0);
  const worker = await startWorker({ redis: redis.url, queue: 'empty-apply' });
  t.after(() => worker.close(true));
  const status = await waitForRun(redis.url, 'empty-apply', run, { intervalMs: 20 });
  assert.equal(status.state, 'completed', status.reason);
  assert.deepEqual(status.outcome?.indexFiles, ['sitemap.xml']);
  assert.deepEqual(readFileSync(join(set, 'sitemap.xml')), index);
  assert.deepEqual(readdirSync(set).filter((name) => name.startsWith('.')), []);
});

test('runs on two queues are two runs on one set when their folder is one: the second is refused by the set\'s lock file, named the first', { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-two-queues-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\n');
  const set = join(dir, 'set');
  const enqueue = (queue: string): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue, out: set, shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  const { run } = await enqueue('queue-a');
  await assert.rejects(enqueue('queue-b'), { code: 'ERR_SITEMAP_WRITE', message: new RegExp(`^run ${run} of queue queue-a is writing the sitemaps "sitemap" into ${set}`) });
  assert.deepEqual(await queueStatus(redis.url, 'queue-b'), []);
  // The refused run removed none of the first one's scratch files (it took them for a dead run's).
  assert.deepEqual(readdirSync(join(set, SCRATCH)), [run]);
});

test('a forced close while a close waits for the jobs at hand (the worker\'s second signal) releases them at once: another worker takes the job over', { skip, timeout: 30_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-force-close-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // The first attempt holds its part until `go` exists; the next one does not.
  const source = join(dir, 'source.mjs');
  writeFileSync(source, `
    import { existsSync, readFileSync, writeFileSync } from 'node:fs';
    import { setTimeout as sleep } from 'node:timers/promises';
    export default async function* () {
      const calls = Number(readFileSync(${JSON.stringify(join(dir, 'calls'))}, 'utf8')) + 1;
      writeFileSync(${JSON.stringify(join(dir, 'calls'))}, String(calls));
      yield { loc: 'https://example.com/a' };
      while (calls === 1 && !existsSync(${JSON.stringify(join(dir, 'go'))})) await sleep(20);
    }`);
  writeFileSync(join(dir, 'calls'), '0');
  const { run } = await enqueueGenerate({ redis: redis.url, queue: 'force-close', out: join(dir, 'set'), shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, source: { path: source, parts: 1, options: {} } });
  const first = await startWorker({ redis: redis.url, queue: 'force-close', lockDurationMs: 1000 });
  while (readFileSync(join(dir, 'calls'), 'utf8') !== '1') await new Promise((resolve) => setTimeout(resolve, 20));
  const graceful = first.close();
  const late = new Promise((resolve) => setTimeout(resolve, 5000, 'still waiting for its job'));
  assert.equal(await Promise.race([first.close(true).then(() => 'closed'), late]), 'closed');
  const second = await startWorker({ redis: redis.url, queue: 'force-close', lockDurationMs: 1000 });
  t.after(() => second.close(true));
  const status = await waitForRun(redis.url, 'force-close', run, { intervalMs: 20 });
  assert.equal(status.state, 'completed', status.reason);
  assert.equal(readFileSync(join(dir, 'calls'), 'utf8'), '2');
  // The first attempt, let go, writes nothing (its lock is gone) and the first close ends with it.
  writeFileSync(join(dir, 'go'), '');
  await graceful;
});

test('a fenced step on a connection still connecting waits for it (it queues nothing), not "Stream isn\'t writeable"', { skip }, async () => {
  const client = new Redis(redis.url);
  const lock = await RunLock.take(client, 'sitemapkit:test:fenced-lock', 'run-1', 5_000);
  const fenced = new Redis(redis.url, { retryStrategy: () => null, enableOfflineQueue: false, autoResendUnfulfilledCommands: false, maxRetriesPerRequest: 0 });
  try {
    assert.equal(await lock.fenced(fenced, async () => (await fenced.multi().set('sitemapkit:test:fenced', 'x').exec())?.length), 1);
  } finally {
    await lock.release();
    fenced.disconnect();
    client.disconnect();
  }
});

test("a worker refuses a job planned with another layout (a coordinator of another version): its manifests would name a placement it did not use", { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-layout-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, Array.from({ length: 20 }, (_, i) => `https://example.com/p-${i}`).join('\n') + '\n');
  const set = join(dir, 'set');
  const { run } = await enqueueGenerate({ redis: redis.url, queue: 'layout', out: set, shards: 2, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  const { Queue } = await import('bullmq');
  const queue = new Queue('layout', { connection: { url: redis.url } });
  t.after(() => queue.close());
  const job = await queue.getJob(jobId(run, 'set'));
  await job?.updateData({ ...job.data, layout: 2 });
  const worker = await startWorker({ redis: redis.url, queue: 'layout' });
  t.after(() => worker.close(true));
  const status = await waitForRun(redis.url, 'layout', run, { intervalMs: 20 });
  assert.equal(status.state, 'failed');
  assert.match(status.reason ?? '', /planned with the layout 2, and this worker writes layout \d+: run workers of the coordinator's version/);
  assert.equal(existsSync(join(set, 'sitemap.xml')), false);
});

test('a run whose set overlaps the set another queue\'s run is writing in the folder (sitemap beside sitemap-news, neither published yet) is refused when it is added, not by its index job after its shards', { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-queued-names-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/news-x/a\nhttps://example.com/x/b\n');
  const set = join(dir, 'set');
  const enqueue = (queue: string, name: string): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue, out: set, shards: 1, set: { baseUrl: 'https://example.com/', name }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  await enqueue('names-a', 'sitemap-news');
  await assert.rejects(enqueue('names-b', 'sitemap'), { code: 'ERR_SITEMAP_STATE', message: /the set "sitemap" cannot be published in \S+ beside the sharded set "sitemap-news"/ });
  assert.deepEqual(await queueStatus(redis.url, 'names-b'), []);
  assert.deepEqual(readdirSync(join(set, SCRATCH)).length, 1);
});

test("runs of two queues writing two sets of one folder: the second's coordinator leaves the first's scratch files (it took them for a done run's), and both complete", { skip, timeout: 20_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-two-queues-sweep-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\nhttps://example.com/b\n');
  const set = join(dir, 'set');
  const enqueue = (queue: string): ReturnType<typeof enqueueGenerate> => enqueueGenerate({ redis: redis.url, queue, out: set, shards: 1, set: { baseUrl: 'https://example.com/', name: queue }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  const first = await enqueue('sweep-a');
  const second = await enqueue('sweep-b');
  assert.deepEqual(readdirSync(join(set, SCRATCH)).sort(), [first.run, second.run].sort());
  for (const [queue, { run }] of [['sweep-a', first], ['sweep-b', second]] as const) {
    const worker = await startWorker({ redis: redis.url, queue });
    t.after(() => worker.close(true));
    const status = await waitForRun(redis.url, queue, run, { intervalMs: 20 });
    assert.equal(status.state, 'completed', status.reason);
  }
});
