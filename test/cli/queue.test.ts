// `sitemapkit queue` and `sitemapkit worker` as processes against a real redis-server: several
// workers share a run; a worker killed with kill -9 mid-shard has its job taken over; a shard that
// fails for good fails the run and the previous set stays; the sets are byte-identical to
// `generate --shards N` in one process.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/tmp.js';
import { runCli } from '../helpers/cli.js';
import { queueStatus } from '../../src/node/scale/queue.js';
import { run as runCommand } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { WORKER } from '../../src/cli/declarations.js';
import { killOnExit, REDIS_SERVER, redisUnavailable, startRedis, startServer, type RedisServer } from '../helpers/redis-server.js';

const BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));
const HOLD_SHARD = fileURLToPath(new URL('../helpers/hold-shard.js', import.meta.url));
const BASE = 'https://shop.example.com/';
const skip = redisUnavailable();
let redis: RedisServer;

before(async () => {
  if (skip !== undefined) return;
  if (!existsSync(BIN)) throw new Error('dist/ is missing: run npm run build');
  redis = await startRedis();
});
after(async () => redis?.stop());

interface Proc {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** `hold`: the process is held at the start of its first shard (helpers/hold-shard.js; see heldWorker). */
function cli(args: string[], hold?: string): Proc {
  const preload = hold !== undefined ? ['--import', HOLD_SHARD] : [];
  const child = spawn(process.execPath, [...preload, BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(hold !== undefined ? { env: { ...process.env, HOLD_SHARD: hold } } : {}) });
  const forget = killOnExit(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => (forget(), resolve(code))));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/**
 * The lock of every worker of the takeover tests: the worker killed, frozen or stopped holds a short
 * one, so its job is taken over soon, and the worker that takes over checks for stalled jobs as often
 * as its lock lasts, so its lock is the test's wait (each takeover test took about 70 s with the 30 s
 * default). 2 s: a renewal is due every second, and these workers' event loops are never busy that
 * long (their shards are small, held idle: heldWorker); a shard of 150,000 URLs held one 2.1 s under load.
 */
const SHORT_LOCK = ['--lock-duration', '2'];

/** A worker process (`hold`: see heldWorker); stopped (SIGKILL) when the test file ends if still running. */
function worker(queue: string, args: readonly string[] = [], hold?: string): Proc {
  const proc = cli(['worker', '--redis', redis.url, '--queue', queue, ...args], hold);
  after(() => {
    if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
  });
  return proc;
}

interface HeldWorker extends Proc {
  /** Resolves once the worker is inside its shard job, held before it writes anything; `coordinator`'s run queued first. */
  inShard(coordinator: Proc): Promise<void>;
  /** Lets the shard job go on. */
  release(): void;
}

/**
 * A worker held at the start of its first shard job (helpers/hold-shard.js) until released: the
 * kill, freeze or stop of a test lands mid-shard on a small input, however loaded the machine is.
 */
function heldWorker(queue: string, args: readonly string[] = []): HeldWorker {
  const hold = join(tempDir(), 'hold');
  const proc = worker(queue, args, hold);
  return {
    ...proc,
    async inShard(coordinator) {
      await queuedRun(coordinator);
      await until('the worker in its shard', () => existsSync(`${hold}.held`));
    },
    release: () => writeFileSync(`${hold}.release`, ''),
  };
}

async function stop(proc: Proc): Promise<number | null> {
  proc.child.kill('SIGTERM');
  return proc.exited;
}

async function untilAsync(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The id of `coordinator`'s run once it says it is queued. No deadline: its split takes what the input's
 * size and the machine's load make it, and it ends or queues.
 */
async function queuedRun(coordinator: Proc): Promise<string> {
  for (;;) {
    const id = /run (\S+) queued/.exec(coordinator.stderr())?.[1];
    if (id !== undefined) return id;
    if (coordinator.child.exitCode !== null || coordinator.child.signalCode !== null) throw new Error(`the coordinator ended before its run was queued: ${coordinator.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The published files of a set folder (dot entries, the runs' scratch and staging, left out), with their bytes. */
function setFiles(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue;
    if (statSync(join(dir, name)).isFile()) files.set(name, readFileSync(join(dir, name)));
  }
  return files;
}

function assertSameSet(actual: string, expected: string): void {
  const a = setFiles(actual);
  const b = setFiles(expected);
  assert.deepEqual([...a.keys()], [...b.keys()]);
  for (const [name, bytes] of b) assert.ok(bytes.equals(a.get(name) as Buffer), `${name} differs`);
  assert.ok(a.has('sitemap.xml') && a.size > 3, `a set: ${[...a.keys()].join(' ')}`);
}

/** URL i of a catalogue: in sections of uneven sizes (p 3/7, c 2/7, blog and help 1/7 each), with a query. */
function itemUrl(i: number, seed: number): string {
  const sections = ['p', 'p', 'p', 'c', 'c', 'blog', 'help'];
  return `${BASE}${sections[(i * 3 + seed) % sections.length]}/item-${i}-${seed}?ref=${i % 5}&x=1`;
}

function catalogue(n: number, seed = 0): string {
  return Array.from({ length: n }, (_, i) => itemUrl(i, seed)).join('\n') + '\n';
}

/** The same input written by `generate --shards N` in one process: started at once, awaited when its set is compared (it runs while the queued run waits). */
async function generateSharded(input: string, out: string, shards: number, expectedCode = 0): Promise<void> {
  const result = cli(['generate', input, '--base-url', BASE, '--out', out, '--shards', String(shards), '-q']);
  assert.equal(await result.exited, expectedCode, result.stderr());
}

test('three workers write a set byte-identical to generate --shards; a line the coordinator cannot place is reported (exit 1); status tells the run', { skip }, async () => {
  const dir = tempDir();
  const input = join(dir, 'urls.txt');
  writeFileSync(input, catalogue(6000) + 'ftp://shop.example.com/p/nope\n');
  const workers = [worker('q1'), worker('q1'), worker('q1', ['--concurrency', '2'])];
  const run = cli(['queue', 'generate', input, '--redis', redis.url, '--queue', 'q1', '--out', join(dir, 'queued'), '--base-url', BASE, '--shards', '5']);
  const single = generateSharded(input, join(dir, 'single'), 5, 1);
  assert.equal(await run.exited, 1, run.stderr());
  assert.match(run.stderr(), /urls\.txt:6001: /);
  assert.match(run.stdout(), /^Published 6,000 URLs in \d+ sitemaps \(5 shards\) to .*queued in .*: sitemap\.xml\.$/m);
  await single;
  assertSameSet(join(dir, 'queued'), join(dir, 'single'));
  assert.ok(!existsSync(join(dir, 'queued', '.sitemapkit-queue')), 'the scratch files are removed');
  // Each worker process took jobs from the one queue (the three of them did the 6 jobs between them).
  const done = workers.map((w) => (w.stderr().match(/: done /g) ?? []).length);
  assert.equal(done.reduce((a, b) => a + b, 0), 6, workers.map((w) => w.stderr()).join('\n'));

  const status = cli(['queue', 'status', '--redis', redis.url, '--queue', 'q1', '--format', 'json']);
  assert.equal(await status.exited, 0, status.stderr());
  const [shown] = JSON.parse(status.stdout()) as { state: string; jobs: Record<string, number>; shards: number }[];
  assert.equal(shown?.state, 'completed');
  assert.deepEqual(shown?.jobs, { completed: 5 });
  for (const w of workers) assert.equal(await stop(w), 0, w.stderr());
});

test('a run done twice writes the same bytes: the second keeps every file (same inode) and removes none', { skip }, async () => {
  const dir = tempDir();
  const input = join(dir, 'urls.txt');
  writeFileSync(input, catalogue(3000, 1));
  const w = worker('q2');
  const args = ['queue', 'generate', input, '--redis', redis.url, '--queue', 'q2', '--out', join(dir, 'out'), '--base-url', BASE, '--shards', '3'];
  const first = cli(args);
  assert.equal(await first.exited, 0, first.stderr());
  const inodes = new Map([...setFiles(join(dir, 'out')).keys()].map((name) => [name, statSync(join(dir, 'out', name)).ino]));
  const before = setFiles(join(dir, 'out'));
  const second = cli(args);
  assert.equal(await second.exited, 0, second.stderr());
  assert.doesNotMatch(second.stdout(), /removed/);
  const afterwards = setFiles(join(dir, 'out'));
  assert.deepEqual([...afterwards.keys()], [...before.keys()]);
  for (const [name, bytes] of before) {
    assert.ok(bytes.equals(afterwards.get(name) as Buffer), name);
    if (name.endsWith('.xml.gz')) assert.equal(statSync(join(dir, 'out', name)).ino, inodes.get(name), `${name} was rewritten`);
  }
  assert.equal(await stop(w), 0);
});

test('a worker killed with kill -9 mid-shard: another takes the job over and the set is byte-identical to one process', { skip }, async () => {
  const dir = tempDir();
  const input = join(dir, 'urls.txt');
  writeFileSync(input, catalogue(3000, 2));
  const out = join(dir, 'out');
  const run = cli(['queue', 'generate', input, '--redis', redis.url, '--queue', 'q3', '--out', out, '--base-url', BASE, '--shards', '1']);
  // Worker A alone, and one shard: A is inside it, held there.
  const a = heldWorker('q3', SHORT_LOCK);
  await a.inShard(run);
  a.child.kill('SIGKILL');
  await a.exited;
  assert.doesNotMatch(a.stderr(), /: done shard/, 'A was killed before the end of its shard');
  const b = worker('q3', SHORT_LOCK);
  // Written while B waits for A's lock to expire.
  const single = generateSharded(input, join(dir, 'single'), 1);
  assert.equal(await run.exited, 0, run.stderr() + b.stderr());
  assert.match(b.stderr(), /done shard 0 of 1/);
  await single;
  assertSameSet(out, join(dir, 'single'));
  assert.equal(await stop(b), 0);
});

test('a worker frozen (SIGSTOP) mid-shard past its lock, resumed after the run: it writes nothing, the scratch stays removed', { skip }, async () => {
  const dir = tempDir();
  const input = join(dir, 'urls.txt');
  writeFileSync(input, catalogue(3000, 5));
  const out = join(dir, 'out');
  const run = cli(['queue', 'generate', input, '--redis', redis.url, '--queue', 'q-frozen', '--out', out, '--base-url', BASE, '--shards', '1']);
  const a = heldWorker('q-frozen', SHORT_LOCK);
  await a.inShard(run);
  a.child.kill('SIGSTOP');
  // B takes the job over once A's lock has expired, and the run ends: published, its scratch removed.
  const b = worker('q-frozen', SHORT_LOCK);
  assert.equal(await run.exited, 0, run.stderr() + b.stderr());
  assert.ok(!existsSync(join(out, '.sitemapkit-queue')));
  const published = setFiles(out);
  a.child.kill('SIGCONT');
  a.release();
  // A goes on with its shard, and finds its lock gone before it writes anything others see; BullMQ
  // then refuses to move the job on (whatever A's outcome: done or failed).
  await until('worker A to end its shard', () => /Missing lock for job \S+\.shard\.0/.test(a.stderr()));
  assert.ok(!existsSync(join(out, '.sitemapkit-queue')), `A wrote into the ended run's scratch: ${a.stderr()}`);
  assert.deepEqual([...setFiles(out).keys()], [...published.keys()]);
  assert.equal(await stop(b), 0);
});

test('a shard that fails for good fails the run: exit 2, the failed shard and its reason, the previous set stays, manifests included; status says it', { skip }, async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  const input = join(dir, 'urls.txt');
  writeFileSync(input, catalogue(2000, 3));
  await generateSharded(input, out, 4);
  const published = setFiles(out);
  writeFileSync(input, catalogue(2500, 4));
  const run = cli(['queue', 'generate', input, '--redis', redis.url, '--queue', 'q4', '--out', out, '--base-url', BASE, '--shards', '4', '--attempts', '2']);
  // No worker yet: once the coordinator has split the input, shard 1's file is made unreadable.
  const scratch = join(out, '.sitemapkit-queue');
  const shardFile = await until('the split', () => {
    const runs = existsSync(scratch) ? readdirSync(scratch) : [];
    const file = runs.length === 1 ? join(scratch, runs[0] as string, 'input', 'shard-1.records') : undefined;
    return file !== undefined && existsSync(file) && /queued/.test(run.stderr()) ? file : undefined;
  });
  rmSync(shardFile);
  mkdirSync(shardFile);
  const w = worker('q4');
  assert.equal(await run.exited, 2, run.stderr());
  assert.match(run.stderr(), /run \S+ failed; nothing of it is published in .*out \(a set there before stays as it was\)/);
  assert.match(run.stderr(), /^ {2}shard 1 failed after 2 attempts: cannot read .*shard-1\.records: is a directory$/m);
  // The other shards of the failed run are written (the failure does not stop them)…
  await until('the other shards', () => [0, 2, 3].every((shard) => w.stderr().includes(`done shard ${shard} of 4`)));
  // …and the published set is the previous one, whole: its index, every child it names and the
  // manifests that describe them, same bytes (apply and index read the manifests).
  const kept = setFiles(out);
  for (const [name, bytes] of published) assert.ok(kept.get(name)?.equals(bytes), `${name} of the previous set`);
  const status = cli(['queue', 'status', '--redis', redis.url, '--queue', 'q4']);
  assert.equal(await status.exited, 1);
  assert.match(status.stdout(), /: failed .*\n {2}shard 1 failed after 2 attempts: /);
  assert.equal(await stop(w), 0);
});

test('a run whose set clashes with a sharded set of the folder (sitemap beside sitemap-news) is refused before it is queued, leaving nothing (no empty scratch folder); so is one with an unreadable input, its folder removed; a folder that cannot be made (/proc/nope) is refused in the words of generate, not a spin for ever', { skip }, async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), '/a/1\n/b/2\n');
  assert.equal((await runCli(['generate', 'urls.txt', '--base-url', BASE, '--out', 'out', '--name', 'sitemap-news', '--shards', '2'], { cwd: dir })).code, 0);
  const before = readdirSync(join(dir, 'out')).sort();
  const queue = ['--redis', redis.url, '--queue', 'q-names', '--base-url', BASE, '--shards', '2', '--no-wait'];
  const clash = await runCli(['queue', 'generate', 'urls.txt', '--out', 'out', ...queue], { cwd: dir });
  assert.equal(clash.code, 2, clash.stderr);
  assert.match(clash.stderr, /the set "sitemap" cannot be published in \S+ beside the sharded set "sitemap-news"/);
  assert.deepEqual(readdirSync(join(dir, 'out')).sort(), before);
  // The first input is split before the second is found missing: the folders the run made go.
  const unreadable = await runCli(['queue', 'generate', 'urls.txt', 'nope.txt', '--out', 'new/out', ...queue], { cwd: dir });
  assert.equal(unreadable.code, 2, unreadable.stderr);
  assert.equal(existsSync(join(dir, 'new')), false);
  const noSet = await runCli(['queue', 'apply', 'urls.txt', '--out', 'new', ...queue.slice(0, 4)], { cwd: dir });
  assert.match(noSet.stderr, /new holds no sharded set named "sitemap"/);
  assert.equal(existsSync(join(dir, 'new')), false);
  if (!existsSync('/proc/self')) return;
  const proc = await runCli(['queue', 'generate', 'urls.txt', '--out', '/proc/nope/x', ...queue], { cwd: dir });
  assert.equal(proc.code, 2, proc.stderr);
  assert.equal(proc.stderr, 'sitemapkit queue: cannot write to /proc/nope/x: no such file\n');
});

test('a run with no URL to write (an empty input, every line refused) is refused before it is queued, as generate --shards refuses it, not failed by its index job after every attempt; nothing is left', { skip }, async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'empty.txt'), '');
  writeFileSync(join(dir, 'bad.txt'), 'a b\n');
  const queue = ['--redis', redis.url, '--queue', 'q-empty', '--base-url', BASE, '--shards', '2', '--no-wait', '--out', 'out'];
  const empty = await runCli(['queue', 'generate', 'empty.txt', ...queue], { cwd: dir });
  assert.equal(empty.code, 2, empty.stderr);
  assert.equal(empty.stderr, 'sitemapkit queue: no URLs to write: the input lists none\n');
  const bad = await runCli(['queue', 'generate', 'bad.txt', ...queue], { cwd: dir });
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /\/bad\.txt:1: input\/text .*\nsitemapkit queue: no URL could be written: every entry was refused \(1 entry\)\n$/);
  assert.equal(existsSync(join(dir, 'out')), false);
  assert.deepEqual(await queueStatus(redis.url, 'q-empty'), []);
});

test('usage: --redis is required and is a redis:// URL; an unreachable Redis is one line, exit 2', { skip }, async () => {
  // In this process: the messages and codes are the command's, not the process's.
  const cwd = tempDir();
  const missing = await runCli(['queue', 'status'], { cwd });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--redis URL is required/);
  const down = await runCli(['worker', '--redis', 'redis://127.0.0.1:1'], { cwd });
  assert.equal(down.code, 2);
  // The reason is the socket's error code, whichever the kernel gave (refused, or reset under load).
  assert.match(down.stderr, /^sitemapkit worker: cannot reach Redis at redis:\/\/127\.0\.0\.1:1: E[A-Z]+\n$/);
  const notRedis = await runCli(['queue', 'status', '--redis', 'http://127.0.0.1:6379'], { cwd });
  assert.equal(notRedis.code, 2);
  assert.match(notRedis.stderr, /--redis http:\/\/127\.0\.0\.1:6379: not a Redis URL \(redis:\/\/host:port, or rediss:\/\/ for TLS\)/);
});

test('queue apply: two workers rewrite only the touched children, byte-identical to apply in one process; untouched files keep their inode', { skip }, async () => {
  const dir = tempDir();
  const input = join(dir, 'urls.txt');
  writeFileSync(input, catalogue(4000, 5));
  await Promise.all([generateSharded(input, join(dir, 'single'), 4), generateSharded(input, join(dir, 'queued'), 4)]);
  const inodes = new Map([...setFiles(join(dir, 'queued')).keys()].map((name) => [name, statSync(join(dir, 'queued', name)).ino]));
  // Changes within the help section only: new items, a new lastmod, deletes (one of a new item); and one bad line.
  assert.match(itemUrl(5, 5), /\/help\//);
  assert.match(itemUrl(12, 5), /\/help\//);
  const changes = [
    ...Array.from({ length: 30 }, (_, i) => JSON.stringify({ op: 'upsert', loc: `${BASE}help/new-${i}`, lastmod: '2026-11-20' })),
    JSON.stringify({ op: 'upsert', loc: itemUrl(5, 5), lastmod: '2026-11-21T10:00:00Z' }),
    JSON.stringify({ op: 'delete', loc: itemUrl(12, 5) }),
    JSON.stringify({ op: 'delete', loc: `${BASE}help/new-3` }),
    '{"op":"rename"}',
  ];
  writeFileSync(join(dir, 'changes.jsonl'), changes.join('\n') + '\n');
  const single = cli(['apply', join(dir, 'changes.jsonl'), '--out', join(dir, 'single'), '-q']);
  const workers = [worker('q5'), worker('q5')];
  const run = cli(['queue', 'apply', join(dir, 'changes.jsonl'), '--redis', redis.url, '--queue', 'q5', '--out', join(dir, 'queued')]);
  assert.equal(await single.exited, 1, single.stderr());
  assert.equal(await run.exited, 1, run.stderr());
  assert.match(run.stderr(), /changes\.jsonl:34: input\/change /);
  assert.match(run.stdout(), /^Applied 32 changes to .*queued in .*: 16 sitemaps in the set, \d+ URLs in those rewritten; sitemap\.xml; removed 4 files of the previous set\.$/m);
  assertSameSet(join(dir, 'queued'), join(dir, 'single'));
  // Only help's children were written again: every other child kept its file.
  for (const [name, ino] of inodes) {
    if (!name.endsWith('.xml.gz') || name.startsWith('sitemap-help.')) continue;
    assert.equal(statSync(join(dir, 'queued', name)).ino, ino, `${name} was rewritten`);
  }
  const rewrote = workers.flatMap((w) => w.stderr().match(/done child sitemap-help\.\d/g) ?? []);
  assert.ok(rewrote.length >= 1 && rewrote.length <= 4, workers.map((w) => w.stderr()).join(''));
  for (const w of workers) assert.equal(await stop(w), 0);
});

test('SIGTERM to a worker in the middle of a shard: it finishes the shard, exits 0, and leaves the next job (the index) to the next worker', { skip }, async () => {
  const dir = tempDir();
  const input = join(dir, 'urls.txt');
  writeFileSync(input, catalogue(3000, 6));
  const run = cli(['queue', 'generate', input, '--redis', redis.url, '--queue', 'q6', '--out', join(dir, 'out'), '--base-url', BASE, '--shards', '1']);
  const a = heldWorker('q6');
  await a.inShard(run);
  a.child.kill('SIGTERM');
  await until('the signal heard', () => a.stderr().includes('stopping once the jobs at hand are done'));
  a.release();
  assert.equal(await a.exited, 0, a.stderr());
  assert.match(a.stderr(), /stopping once the jobs at hand are done\n(?:.*\n)*.*done shard 0 of 1/);
  // The index job was not taken: it is left for the next worker.
  assert.doesNotMatch(a.stderr(), /done the index/);
  const b = worker('q6');
  assert.equal(await run.exited, 0, run.stderr());
  assert.match(b.stderr(), /done the index/);
  assert.doesNotMatch(b.stderr(), /done shard/);
  assert.equal(await stop(b), 0);
});

test('a second SIGTERM mid-shard: the worker releases the shard and exits 143 (128 + SIGTERM) at once; the next worker does it', { skip }, async () => {
  const dir = tempDir();
  const input = join(dir, 'urls.txt');
  writeFileSync(input, catalogue(3000, 6));
  const run = cli(['queue', 'generate', input, '--redis', redis.url, '--queue', 'q6b', '--out', join(dir, 'out'), '--base-url', BASE, '--shards', '1']);
  const a = heldWorker('q6b', SHORT_LOCK);
  await a.inShard(run);
  a.child.kill('SIGTERM');
  await until('the first signal heard', () => a.stderr().includes('stopping once the jobs at hand are done'));
  a.child.kill('SIGTERM');
  assert.equal(await a.exited, 143, a.stderr());
  assert.match(WORKER.exit, /130 or 143 by a second one/, 'worker --help lists the exit code');
  assert.doesNotMatch(a.stderr(), /done shard/);
  const b = worker('q6b', SHORT_LOCK);
  assert.equal(await run.exited, 0, run.stderr());
  assert.match(b.stderr(), /done shard 0 of 1/);
  assert.equal(await stop(b), 0);
});

test('every line the coordinator rejects is reported once, past the first 20 too; an unreadable input leaves no run and no scratch files', { skip }, async () => {
  const dir = tempDir();
  const input = join(dir, 'urls.txt');
  const lines = Array.from({ length: 60 }, (_, i) => (i % 2 === 1 ? `${BASE}p/bad line ${i}` : itemUrl(i, 7)));
  writeFileSync(input, lines.join('\n') + '\n');
  const w = worker('q7');
  const run = cli(['queue', 'generate', input, '--redis', redis.url, '--queue', 'q7', '--out', join(dir, 'out'), '--base-url', BASE, '--shards', '2']);
  assert.equal(await run.exited, 1, run.stderr());
  const reported = [...run.stderr().matchAll(/urls\.txt:(\d+): input\/text /g)].map((m) => Number(m[1]));
  assert.deepEqual(reported, Array.from({ length: 30 }, (_, i) => 2 * i + 2));

  const missing = cli(['queue', 'generate', join(dir, 'nope.txt'), '--redis', redis.url, '--queue', 'q7', '--out', join(dir, 'out2'), '--base-url', BASE, '--shards', '2']);
  assert.equal(await missing.exited, 2);
  assert.match(missing.stderr(), /^sitemapkit queue: .*nope\.txt/m);
  assert.deepEqual(existsSync(join(dir, 'out2')) ? readdirSync(join(dir, 'out2')) : [], []);
  const status = await queueStatus(redis.url, 'q7');
  assert.equal(status.length, 1, 'only the first run is on the queue');
  assert.equal(await stop(w), 0);
});

test('Ctrl-C stops the coordinator waiting (exit 130), not the run: a worker started later finishes it', { skip }, async () => {
  const dir = tempDir();
  const input = join(dir, 'urls.txt');
  writeFileSync(input, catalogue(500, 8));
  const run = cli(['queue', 'generate', input, '--redis', redis.url, '--queue', 'q8', '--out', join(dir, 'out'), '--base-url', BASE, '--shards', '2']);
  const runId = await queuedRun(run);
  run.child.kill('SIGINT');
  assert.equal(await run.exited, 130);
  assert.match(run.stderr(), new RegExp(`stopped waiting; run ${runId} goes on on the workers \\(sitemapkit queue status --run ${runId}\\)`));
  // No worker yet: the parent waits to add the shard jobs (it adds them itself, a batch at a time).
  assert.equal((await queueStatus(redis.url, 'q8', runId))[0]?.state, 'waiting');
  const w = worker('q8');
  await untilAsync('the run done', async () => (await queueStatus(redis.url, 'q8', runId))[0]?.state === 'completed');
  assert.ok(existsSync(join(dir, 'out', 'sitemap.xml')));
  assert.equal(await stop(w), 0);
});

test('queue generate URL: the coordinator reads the list with the HTTP client and splits it as a file, byte-identical to generate --shards; a private address needs --allow-private', { skip }, async () => {
  const dir = tempDir();
  const input = join(dir, 'urls.txt');
  writeFileSync(input, catalogue(3000, 9) + 'ftp://shop.example.com/p/nope\n');
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/lists/cut.txt') {
      // A body that breaks off: its Content-Length is never reached.
      res.writeHead(200, { 'content-length': '1000000' });
      return void res.write(catalogue(100, 3), () => res.destroy());
    }
    if (req.url !== '/lists/urls.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain' });
    createReadStream(input).pipe(res);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  after(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/lists/urls.txt`;
  const args = (out: string): string[] => ['queue', 'generate', url, '--redis', redis.url, '--queue', 'q9', '--out', join(dir, out), '--base-url', BASE, '--shards', '2'];

  // 127.0.0.1 is refused as any private address is: nothing fetched, no run, no scratch files.
  const refused = cli(args('refused'));
  assert.equal(await refused.exited, 2, refused.stderr());
  assert.match(refused.stderr(), /^sitemapkit queue: cannot fetch http:\/\/127\.0\.0\.1:\d+\/lists\/urls\.txt: .*--allow-private.*\(fetch\/address-refused\)$/m);
  assert.deepEqual(requests, []);
  assert.deepEqual(existsSync(join(dir, 'refused')) ? readdirSync(join(dir, 'refused')) : [], []);
  assert.deepEqual(await queueStatus(redis.url, 'q9'), []);

  const w = worker('q9');
  const run = cli([...args('queued'), '--allow-private']);
  const single = generateSharded(input, join(dir, 'single'), 2, 1);
  assert.equal(await run.exited, 1, run.stderr());
  assert.equal(run.stderr().match(/^http:\/\/127\.0\.0\.1:\d+\/lists\/urls\.txt:3001: input\/text /gm)?.length, 1, run.stderr());
  assert.match(run.stdout(), /^Published 3,000 URLs in \d+ sitemaps \(2 shards\) to .*queued/m);
  assert.deepEqual(requests, ['/lists/urls.txt']);
  await single;
  assertSameSet(join(dir, 'queued'), join(dir, 'single'));

  // A list cut short is a fatal error of the coordinator, said once: no run, none of its scratch files.
  const cut = cli(['queue', 'generate', url.replace('urls.txt', 'cut.txt'), '--allow-private', ...args('cut').slice(3)]);
  assert.equal(await cut.exited, 2, cut.stderr());
  assert.match(cut.stderr(), /^sitemapkit queue: cannot fetch http:\/\/127\.0\.0\.1:\d+\/lists\/cut\.txt: the body was cut short after [\d,]+ bytes: .*\(fetch\/truncated\)$/m);
  const cutScratch = join(dir, 'cut', '.sitemapkit-queue');
  assert.deepEqual(existsSync(cutScratch) ? readdirSync(cutScratch) : [], [], 'nothing of the run is left');
  assert.ok(!existsSync(join(dir, 'cut', 'sitemap.xml')));
  assert.equal((await queueStatus(redis.url, 'q9')).length, 1, 'only the first run is on the queue');
  assert.equal(await stop(w), 0);
});

test('Redis lost while the coordinator waits: one line says so (no stack trace each reconnect); the coordinator keeps waiting for it, and Ctrl-C stops it at once', { skip, timeout: 20_000 }, async () => {
  const own = await startRedis();
  after(() => own.stop());
  const dir = tempDir();
  const input = join(dir, 'urls.txt');
  writeFileSync(input, catalogue(10));
  const run = cli(['queue', 'generate', input, '--redis', own.url, '--out', join(dir, 'out'), '--base-url', BASE, '--shards', '2']);
  await queuedRun(run);
  await own.stop();
  await until('the lost connection told', () => /lost Redis/.test(run.stderr()));
  // BullMQ retries the connection meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(run.child.exitCode, null);
  // Ctrl-C stops the waiting at once, Redis or not.
  const interrupted = Date.now();
  run.child.kill('SIGINT');
  assert.equal(await run.exited, 130);
  assert.ok(Date.now() - interrupted < 3000, `${Date.now() - interrupted} ms`);
  assert.match(run.stderr(), new RegExp(`^sitemapkit queue: run \\S+ queued: 10 URLs in 2 shards on sitemapkit\\nsitemapkit queue: lost Redis at ${own.url} \\(E[A-Z]+\\); waiting for it to come back\\nsitemapkit queue: stopped waiting; `));
});

test('the password of --redis is never printed: a worker says where it waits without it', { skip }, async () => {
  const dir = tempDir();
  const secured = await startServer({
    what: 'redis-server',
    argv: (port) => [REDIS_SERVER, '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--requirepass', 's3cret'],
    ready: 'Ready to accept connections',
    stopSignal: 'SIGTERM',
    dir,
    timeoutMs: 10_000,
  });
  after(() => secured.stop());
  const w = cli(['worker', '--redis', `redis://:s3cret@127.0.0.1:${secured.port}`, '--queue', 'q-secret']);
  await until('the worker waiting', () => /waiting for jobs/.test(w.stderr()));
  assert.equal(await stop(w), 0);
  assert.match(w.stderr(), new RegExp(`waiting for jobs on q-secret at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${secured.port}\\n`));
  assert.doesNotMatch(w.stderr(), /s3cret/);
});

/**
 * Runs `argv` in this process, sending an interrupt the moment stderr gets a line matching `on`, as a
 * test does once it reads that line. `unheard`: no handler was in place then (a real signal's default
 * action would have killed the process); it is then sent again a moment later, so the run still ends.
 */
async function interruptOnLine(argv: string[], on: RegExp): Promise<{ code: number; stderr: string; unheard: boolean }> {
  const handlers = new Set<() => void>();
  const interrupt = (): void => handlers.forEach((handler) => handler());
  let stderr = '';
  let unheard = false;
  const io: CliIo = {
    stdout: { write: () => true },
    stderr: {
      write: (text: string) => {
        stderr += text;
        if (!on.test(text)) return;
        if (handlers.size > 0) interrupt();
        else {
          unheard = true;
          setTimeout(interrupt, 200);
        }
      },
    },
    cwd: tempDir(),
    env: {},
    onInterrupt: (handler) => (handlers.add(handler), () => void handlers.delete(handler)),
  };
  const code = await runCommand(argv, io);
  return { code, stderr, unheard };
}

test('the worker\'s "waiting for jobs" and the coordinator\'s "queued" line come once their signal handler is in place: a signal sent on reading them is heard', { skip }, async () => {
  const worker = await interruptOnLine(['worker', '--redis', redis.url, '--queue', 'q-heard'], /waiting for jobs/);
  assert.equal(worker.unheard, false, 'the worker said it waits before it listened for signals');
  assert.equal(worker.code, 0, worker.stderr);
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), catalogue(10));
  const coordinator = await interruptOnLine(['queue', 'generate', join(dir, 'urls.txt'), '--redis', redis.url, '--queue', 'q-heard', '--out', join(dir, 'out'), '--base-url', BASE], / queued: /);
  assert.equal(coordinator.unheard, false, 'the coordinator said the run is queued before it listened for Ctrl-C');
  assert.equal(coordinator.code, 130, coordinator.stderr);
  assert.match(coordinator.stderr, /stopped waiting; run \S+ goes on on the workers/);
});

test("queue apply refuses every option of generate's it has no use for (the set's settings are its manifests'), not only some: --no-gzip, --max-urls, --xsl were taken and ignored", async () => {
  const cwd = tempDir();
  for (const option of [['--no-gzip'], ['--gzip-level', '9'], ['--max-urls', '10'], ['--xsl', '/s.xsl'], ['--no-scope'], ['--limits', 'legacy'], ['--source-option', 'a=b'], ['--shards', '4']]) {
    const result = await runCli(['queue', 'apply', 'changes.jsonl', '--redis', 'redis://127.0.0.1:1', '--out', 'set', ...option], { cwd });
    assert.equal(result.code, 2, option.join(' '));
    assert.match(result.stderr, new RegExp(`${option[0]} is for queue generate: apply takes the set's settings from its manifests`));
  }
});

test('Redis lost under a worker: one line says so, not a stack trace or a line at every reconnect; once it is back the worker runs the next run', { skip, timeout: 60_000 }, async () => {
  const own = await startRedis();
  after(() => own.stop());
  const w = cli(['worker', '--redis', own.url, '--queue', 'q-lost']);
  after(() => void w.child.kill('SIGKILL'));
  await until('the worker waiting', () => /waiting for jobs/.test(w.stderr()));
  await own.stop();
  await until('the lost connection told', () => /lost Redis/.test(w.stderr()));
  // BullMQ retries the connection meanwhile (several times a second).
  await new Promise((resolve) => setTimeout(resolve, 2000));
  assert.match(w.stderr(), new RegExp(`waiting for jobs on q-lost at ${own.url}\\nsitemapkit worker \\d+: lost Redis at ${own.url} \\(E[A-Z]+\\); waiting for it to come back\\n$`));
  const dir = tempDir();
  const back = await startServer({ what: 'redis-server', argv: () => [REDIS_SERVER, '--port', String(own.port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''], ready: 'Ready to accept connections', stopSignal: 'SIGTERM', dir, timeoutMs: 10_000 });
  after(() => back.stop());
  writeFileSync(join(dir, 'urls.txt'), catalogue(10));
  const run = cli(['queue', 'generate', join(dir, 'urls.txt'), '--redis', own.url, '--queue', 'q-lost', '--out', join(dir, 'out'), '--base-url', BASE, '--shards', '2']);
  assert.equal(await run.exited, 0, run.stderr() + w.stderr());
  assert.doesNotMatch(w.stderr(), /^\s+at |^Error/m);
  assert.equal(await stop(w), 0);
});
