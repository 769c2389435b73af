// bench:scale's queue rows (issue 27): the same catalogue written by 1, 2 and 4 `sitemapkit worker`
// processes over a local redis-server (`queue generate --source bench/lib/scale-source.js`), compared
// byte for byte with the set the `full` row wrote in one process; the time from the coordinator's start
// to the published index; each worker's peak RSS (its VmHWM, reported as it exits). `queue-apply`
// applies the `apply` row's change feed through the queue to the set queue-2 wrote, and compares it
// with the set `apply` left. Targets: 2 workers ≤ 1.15× the single process; < 200 MB per worker.
//
// The rows run in the child process bench/scale.js starts for each (measureRow), as the others do.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { HWM_PRELOAD, HWM_TAG, check, mb } from './harness.js';
import { BASE_URL } from './entries.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'dist', 'cli', 'bin.cjs');
const SOURCE = join(ROOT, 'bench', 'lib', 'scale-source.js');
const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
export const QUEUE_TARGETS = { twoWorkersToFull: 1.15, workerPeakRssMB: 200 };
/** Written by CPU_PRELOAD on a process's stderr as it exits: its CPU time (every thread), in ms. */
const CPU_TAG = '@@bench-cpu ';
const CPU_PRELOAD = `data:text/javascript,${encodeURIComponent(`import { writeSync } from 'node:fs';
process.on('exit', () => { const c = process.cpuUsage(); writeSync(2, '\\n${CPU_TAG}' + (c.user + c.system) / 1000 + '\\n'); });`)}`;

/** The value of the line of `tag` in `text`, as a number (undefined without one). */
function tagged(text, tag) {
  const line = text.split('\n').find((l) => l.startsWith(tag));
  return line === undefined ? undefined : Number(line.slice(tag.length));
}

/** A redis-server of the row's own: 127.0.0.1, a free port, no persistence. */
async function startRedis() {
  const port = await new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port: p } = server.address();
      server.close(() => resolve(p));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-redis-'));
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--logfile', ''], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    let log = '';
    child.stdout.on('data', (chunk) => {
      log += chunk;
      if (log.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${log}`)));
    setTimeout(() => reject(new Error('redis-server did not start')), 10_000).unref();
  });
  child.stdout.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function startWorkers(count, redis) {
  return Array.from({ length: count }, () => {
    const child = spawn(process.execPath, ['--import', HWM_PRELOAD, '--import', CPU_PRELOAD, BIN, 'worker', '--redis', redis, '--queue', 'bench', '-q'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const exited = new Promise((resolve) => child.on('close', resolve));
    return {
      /** Stops it (SIGTERM: nothing is running) and resolves with its peak RSS in KiB and its CPU time in ms. */
      async stop() {
        child.kill('SIGTERM');
        const code = await exited;
        check(code === 0, `a worker exited with ${code}: ${stderr}`);
        return { peakRssKiB: tagged(stderr, HWM_TAG), cpuMs: tagged(stderr, CPU_TAG) };
      },
    };
  });
}

/** Runs the CLI; resolves with its wall time, rejects on a non-zero exit. */
function coordinator(args) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', CPU_PRELOAD, BIN, 'queue', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (output += d));
    child.on('close', (code) => (code === 0 ? resolve({ wallMs: performance.now() - started, coordinatorCpuMs: tagged(output, CPU_TAG), output }) : reject(new Error(`queue ${args[0]} exited with ${code}: ${output}`))));
  });
}

/** Whether two set folders hold the same published files (dot entries left out) with the same bytes. */
function sameSet(a, b) {
  const list = (dir) => readdirSync(dir).filter((name) => !name.startsWith('.') && statSync(join(dir, name)).isFile()).sort();
  const names = list(a);
  if (names.join('\n') !== list(b).join('\n')) return false;
  return names.every((name) => readFileSync(join(a, name)).equals(readFileSync(join(b, name))));
}

async function withWorkers(count, run) {
  const redis = await startRedis();
  const workers = startWorkers(count, redis.url);
  try {
    const result = await run(redis.url);
    const stopped = await Promise.all(workers.map((w) => w.stop()));
    return { ...result, workers: count, workerPeakRssKiB: stopped.map((w) => w.peakRssKiB), workerCpuMs: stopped.map((w) => w.cpuMs) };
  } finally {
    await redis.stop();
  }
}

/** `queue generate` with `count` workers, into OUT-queue-COUNT; compared with OUT, the full row's set. */
function generateRow(count) {
  return async ({ n, shards, out }) => {
    check(existsSync(join(out, 'sitemap.xml')), `run the full row first: ${out} holds no set`);
    const target = `${out}-queue-${count}`;
    rmSync(target, { recursive: true, force: true });
    const parts = Math.max(shards, 2 * count);
    return withWorkers(count, async (redis) => {
      const { wallMs, coordinatorCpuMs } = await coordinator(['generate', '--source', SOURCE, '--source-option', `n=${n}`, '--parts', String(parts), '--shards', String(shards), '--redis', redis, '--queue', 'bench', '--out', target, '--base-url', BASE_URL, '-q']);
      return { wallMs, coordinatorCpuMs, parts, identical: sameSet(target, out) };
    });
  };
}

export const QUEUE_ROWS = {
  'queue-1': generateRow(1),
  'queue-2': generateRow(2),
  'queue-4': generateRow(4),
  /** The apply row's feed through the queue (2 workers) to the set queue-2 wrote; compared with the set apply left. */
  async 'queue-apply'({ out, feed }) {
    const target = `${out}-queue-2`;
    check(existsSync(join(target, 'sitemap.xml')) && feed !== undefined && existsSync(feed), 'run the full, queue-2 and apply rows first');
    return withWorkers(2, async (redis) => {
      const { wallMs, coordinatorCpuMs } = await coordinator(['apply', feed, '--redis', redis, '--queue', 'bench', '--out', target, '-q']);
      return { wallMs, coordinatorCpuMs, identical: sameSet(target, out) };
    });
  },
};

/** The notes of a queue row in bench/results/scale.md: identity, the ratio to the full row, the workers' peaks. */
export function queueNotes(row, rows) {
  if (!(row.row in QUEUE_ROWS)) return undefined;
  const reference = rows.find((r) => r.row === (row.row === 'queue-apply' ? 'apply' : 'full'));
  const cpuMs = (row.workerCpuMs ?? []).reduce((sum, ms) => sum + (ms ?? 0), row.coordinatorCpuMs ?? 0);
  const ratio = reference === undefined ? '' : `${(row.wallMs / reference.wallMs).toFixed(2)}× ${reference.row} (CPU ${(cpuMs / reference.childCpuMs).toFixed(2)}×); `;
  const peaks = (row.workerPeakRssKiB ?? []).map((kib) => (kib === undefined || kib === null ? '?' : mb(kib).toFixed(0))).join(', ');
  return `${row.identical ? 'byte-identical' : '**NOT identical**'} to ${row.row === 'queue-apply' ? 'apply' : 'full'}; ${ratio}${plural(row.workers, 'worker')}, their peak RSS ${peaks} MB`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
