#!/usr/bin/env node
// bench:serve — serving a sitemap set over HTTP (issue 25), under autocannon with 64 connections, each
// contender in its own process, in the same run, on the same set: 1,000,000 URLs that `sitemapkit
// generate` wrote as an index and 20 gzipped children.
//   - sitemapkit: `node dist/cli/bin.cjs serve DIR --port 0 --log none` (the CLI as a user runs it);
//   - express.static (serve-static, through Express 5) on the same directory;
//   - nginx (Debian's package; installed with apt-get when missing, else skipped and said so): one
//     process (`master_process off`, so that process is the one worker), `gzip_static on; etag on;`,
//     on a free port of 127.0.0.1, as the current user, with a temporary prefix.
// Scenarios: the index (a small body), a child (.xml.gz), a 304 (the index with its If-None-Match),
// and a child asked for as .xml with Accept-Encoding: gzip (sitemapkit and nginx negotiate it; for
// express.static, which cannot, the .xml.gz file itself). Then a live source of 1,000,000 entries
// (sitemapkit only, bench/serve.js --child live: liveSource + toNodeListener on node:http): the time
// to the first byte and to the last of cold children (50,000 URLs, each made on that request), and a
// warm child under load. Requests per second, p50 and p99 latency, and the server's own peak RSS
// (VmHWM of its process) are reported; every figure is the median of the rounds.
//
//   npm run bench:serve
//   node bench/serve.js --reps 1 --duration 3       a quicker run
//   node bench/serve.js --only sitemapkit,nginx     (sitemapkit, express, nginx, live)
//   node bench/serve.js --dir /tmp/serve-set        write the set there once and keep it
//
// Results: bench/results/serve.json and serve.md. Exit 1 when a target fails, 2 on errors. Runs the
// BUILT package (dist/): run `npm run build` first (npm run bench:serve does).

import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distIndex } from './lib/builds.js';
import { environment, argumentReader, exitWithUsage, median, waitForQuiet, writeResults, mb } from './lib/harness.js';
import { BASE_URL, SEED, generateEntries } from './lib/entries.js';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = join(dirname(SCRIPT), '..');
const CLI_BIN = join(ROOT, 'dist', 'cli', 'bin.cjs');
const PORT_TAG = '@@bench-port ';
const URLS = 1_000_000;
const CONNECTIONS = 64;
const COLD_CHILDREN = 5;

const CONTENDERS = {
  sitemapkit: '`node dist/cli/bin.cjs serve DIR --port 0 --log none`: the set held in memory with its headers, written by toNodeListener without fetch objects',
  express: '`express().use(express.static(DIR))` (Express 5, serve-static): a stat and a file stream per request, weak ETag',
  nginx: "Debian's nginx, one process (`master_process off`), `gzip_static on; etag on; sendfile on; access_log off; keepalive_requests 1000000`",
};
const ORDER = ['sitemapkit', 'express', 'nginx'];

const TARGETS = { timesExpress: 5, shareOfNginx: 0.6, p99Ms: 10, peakRssMB: 150, coldFirstByteMs: 150 };

function parseArgs(argv) {
  const args = { reps: 3, duration: 5, warmup: 1, only: undefined, dir: undefined, child: undefined };
  const arg = argumentReader(argv, usage);
  for (let a = arg.next(); a !== undefined; a = arg.next()) {
    if (a === '--reps') args.reps = arg.count();
    else if (a === '--duration') args.duration = arg.count();
    else if (a === '--warmup') args.warmup = arg.count();
    else if (a === '--only') args.only = arg.list();
    else if (a === '--dir') args.dir = arg.value();
    else if (a === '--child') args.child = arg.value();
    else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument ${a}`);
  }
  for (const name of args.only ?? []) if (!ORDER.includes(name) && name !== 'live') usage(`unknown contender ${name}; use ${[...ORDER, 'live'].join(', ')}`);
  if (args.child !== undefined && !['express', 'live'].includes(args.child)) usage('--child is express or live');
  if (args.child === 'express' && args.dir === undefined) usage('--child express needs --dir DIR');
  return args;
}

function usage(problem) {
  const text = [
    'usage: node bench/serve.js [--reps N] [--duration S] [--warmup S] [--only LIST] [--dir DIR]',
    '',
    '  --reps N       rounds (default 3); the median of each figure counts',
    '  --duration S   seconds of load per scenario (default 5), after --warmup S (default 1)',
    `  --only LIST    run only these (${[...ORDER, 'live'].join(', ')})`,
    "  --dir DIR      the set's folder: written there when it holds no sitemap.xml, and kept",
    '',
    'Results: bench/results/serve.json and bench/results/serve.md. Needs dist/ (npm run build),',
    'node_modules/autocannon and node_modules/express.',
  ].join('\n');
  exitWithUsage('serve', text, problem);
}

// ---------------------------------------------------------------------------------------------
// The servers that are no CLI: express.static, and a live source. Each prints its port.

async function runExpressChild(dir) {
  const { default: express } = await import('express');
  const app = express();
  app.use(express.static(dir));
  const server = app.listen(0, '127.0.0.1', () => console.log(`${PORT_TAG}${server.address().port}`));
}

async function runLiveChild() {
  const { liveSource, createSitemapHandler, toNodeListener } = await import(pathToFileURL(distIndex(join(ROOT, 'dist'))).href);
  const { createServer: createHttpServer } = await import('node:http');
  // Entry i of a "table" of 1,000,000 rows: a page is made from its offset alone, and read as a
  // database cursor gives its rows, one after the other.
  const range = function* ({ offset, limit }) {
    for (const { loc, lastmod } of generateEntries(Math.min(limit, URLS - offset), 'sitemapkit', SEED + offset, offset)) yield { loc, lastmod };
  };
  const handler = createSitemapHandler({ source: liveSource({ baseUrl: BASE_URL, count: () => URLS, range }) });
  const server = createHttpServer(toNodeListener(handler));
  server.listen(0, '127.0.0.1', () => console.log(`${PORT_TAG}${server.address().port}`));
}

// ---------------------------------------------------------------------------------------------
// The set, and the contenders' processes.

/** Writes 1,000,000 entries (loc and lastmod) as JSON Lines and runs `sitemapkit generate` on them into `dir`. */
async function writeSet(dir) {
  const work = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-serve-input-'));
  try {
    const input = join(work, 'entries.jsonl');
    const out = createWriteStream(input);
    let chunk = '';
    for (const { loc, lastmod } of generateEntries(URLS)) {
      chunk += `{"loc":${JSON.stringify(loc)},"lastmod":"${lastmod}"}\n`;
      if (chunk.length > 1 << 20) {
        if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
        chunk = '';
      }
    }
    await new Promise((resolve, reject) => out.end(chunk, (error) => (error ? reject(error) : resolve())));
    const run = spawnSync(process.execPath, [CLI_BIN, 'generate', input, '--base-url', BASE_URL, '--out', dir, '--quiet'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`generate failed: ${run.stderr}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The set's files: the index's children by name, and their sizes. */
function describeSet(dir) {
  const index = readFileSync(join(dir, 'sitemap.xml'), 'utf8');
  const children = [...index.matchAll(/<loc>[^<]*\/([^/<]+)<\/loc>/g)].map((m) => m[1]);
  const sizes = children.map((name) => readFileSync(join(dir, name)).byteLength);
  return { indexBytes: Buffer.byteLength(index), children, childBytes: { min: Math.min(...sizes), median: median(sizes), max: Math.max(...sizes) } };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** nginx's binary: found, installed now with apt-get, or undefined with the reason. */
function findNginx() {
  const which = () => ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
  if (which() !== undefined) return { bin: which(), how: 'found' };
  const install = spawnSync('apt-get', ['install', '-y', '-qq', 'nginx'], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (which() !== undefined) return { bin: which(), how: 'installed with apt-get' };
  return { bin: undefined, how: `skipped: apt-get install -y nginx failed (${(install.error?.message ?? install.stderr ?? '').trim().split('\n').at(-1)})` };
}

function nginxConfig(prefix, dir, port) {
  return `daemon off;
master_process off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  types { application/xml xml; application/gzip gz; }
  default_type application/octet-stream;
  sendfile on;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${port};
    root ${dir};
    gzip_static on;
    etag on;
  }
}
`;
}

/** Starts a contender's server; resolves with its port, its pid and `stop()` once it answers. */
async function startServer(name, dir, nginxBin) {
  let argv;
  let port;
  let cleanup = () => {};
  if (name === 'sitemapkit') argv = [process.execPath, CLI_BIN, 'serve', dir, '--port', '0', '--log', 'none'];
  else if (name === 'express') argv = [process.execPath, SCRIPT, '--child', 'express', '--dir', dir];
  else if (name === 'live') argv = [process.execPath, SCRIPT, '--child', 'live'];
  else {
    const prefix = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-nginx-'));
    port = await freePort();
    writeFileSync(join(prefix, 'nginx.conf'), nginxConfig(prefix, dir, port));
    argv = [nginxBin, '-p', prefix, '-e', join(prefix, 'error.log'), '-c', join(prefix, 'nginx.conf')];
    cleanup = () => rmSync(prefix, { recursive: true, force: true });
  }
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  port ??= await new Promise((resolve, reject) => {
    const look = (data) => {
      output += data;
      const m = /@@bench-port (\d+)|serving .* at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (m !== null) resolve(Number(m[1] ?? m[2]));
    };
    child.stdout.setEncoding('utf8').on('data', look);
    child.stderr.setEncoding('utf8').on('data', look);
    exited.then((code) => reject(new Error(`${name} exited (${code}) before listening: ${output}`)));
  });
  child.stdout.resume();
  child.stderr.resume();
  await waitUntilAnswering(port, name);
  return {
    port,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      cleanup();
    },
  };
}

async function waitUntilAnswering(port, name) {
  for (let i = 0; i < 100; i++) {
    try {
      // A path no contender serves: asking a live source for its index would make every child.
      await fetch(`http://127.0.0.1:${port}/not-served.txt`, { method: 'HEAD' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`${name} does not answer on port ${port}`);
}

/** The process's own peak RSS (Linux VmHWM), in KiB. */
function vmHwmOf(pid) {
  const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? null : Number(m[1]);
}

// ---------------------------------------------------------------------------------------------
// Scenarios

/** What each contender is asked in each scenario: path, headers, the status and body size expected. */
function scenarios(set, name, indexEtag) {
  const child = set.children[0];
  const childBytes = readFileSync(join(set.dir, child)).byteLength;
  const negotiated = name === 'express' ? { path: `/${child}`, headers: {} } : { path: `/${child.replace(/\.gz$/, '')}`, headers: { 'accept-encoding': 'gzip' } };
  return {
    index: { path: '/sitemap.xml', headers: {}, status: 200, bytes: set.indexBytes },
    child: { path: `/${child}`, headers: {}, status: 200, bytes: childBytes },
    304: { path: '/sitemap.xml', headers: { 'if-none-match': indexEtag }, status: 304, bytes: 0 },
    'xml-gzip': { ...negotiated, status: 200, bytes: childBytes },
  };
}

/** One request: checks the status and the body's size, so that the load measures correct answers; resolves with the response headers. */
async function checkOnce(port, scenario, label) {
  const response = await timedGet(port, scenario.path, scenario.headers);
  if (response.status !== scenario.status) throw new Error(`${label}: status ${response.status}, expected ${scenario.status}`);
  if (response.bytes !== scenario.bytes) throw new Error(`${label}: ${response.bytes} bytes, expected ${scenario.bytes}`);
  return response.headers;
}

async function load(port, scenario, seconds, label) {
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({ url: `http://127.0.0.1:${port}${scenario.path}`, headers: scenario.headers, connections: CONNECTIONS, duration: seconds });
  const wrong = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => Number(code) !== scenario.status);
  if (result.errors > 0 || result.timeouts > 0 || wrong.length > 0) throw new Error(`${label}: ${result.errors} errors, ${result.timeouts} timeouts, other statuses ${JSON.stringify(Object.fromEntries(wrong))}`);
  return { rps: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99, requests: result.requests.total, mbPerS: result.throughput.average / 1e6 };
}

async function measureStatic(name, set, args, nginxBin) {
  const server = await startServer(name, set.dir, nginxBin);
  try {
    const { etag } = await checkOnce(server.port, { path: '/sitemap.xml', headers: {}, status: 200, bytes: set.indexBytes }, name);
    const results = {};
    for (const [scenarioName, scenario] of Object.entries(scenarios(set, name, etag))) {
      await checkOnce(server.port, scenario, `${name} ${scenarioName}`);
      await load(server.port, scenario, args.warmup, `${name} ${scenarioName} warm-up`);
      results[scenarioName] = await load(server.port, scenario, args.duration, `${name} ${scenarioName}`);
    }
    return { scenarios: results, peakRssKiB: vmHwmOf(server.pid) };
  } finally {
    await server.stop();
  }
}

/** Times one GET (node:http: fetch would add Cache-Control: no-cache to a conditional request): to the response headers, the first body byte and the last. */
function timedGet(port, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, agent: false }, (response) => {
      const headersMs = performance.now() - started;
      let firstByteMs;
      let bytes = 0;
      response.on('data', (data) => {
        firstByteMs ??= performance.now() - started;
        bytes += data.byteLength;
      });
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, headersMs, firstByteMs, lastByteMs: performance.now() - started, bytes }));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function measureLive(set, args) {
  const server = await startServer('live', undefined);
  try {
    const cold = [];
    for (let k = 1; k <= COLD_CHILDREN; k++) {
      const timed = await timedGet(server.port, `/sitemap-${String(k).padStart(5, '0')}.xml.gz`);
      if (timed.status !== 200 || timed.bytes === 0) throw new Error(`live child ${k}: status ${timed.status}, ${timed.bytes} bytes`);
      cold.push(timed);
    }
    const warm = { path: '/sitemap-00001.xml.gz', headers: {}, status: 200 };
    await load(server.port, warm, args.warmup, 'live warm child warm-up');
    const result = await load(server.port, warm, args.duration, 'live warm child');
    return {
      coldFirstByteMs: median(cold.map((c) => c.firstByteMs)),
      coldLastByteMs: median(cold.map((c) => c.lastByteMs)),
      coldBytes: median(cold.map((c) => c.bytes)),
      scenarios: { 'warm child': result },
      peakRssKiB: vmHwmOf(server.pid),
    };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// The run

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.child === 'express') return runExpressChild(args.dir);
  if (args.child === 'live') return runLiveChild();
  if (!existsSync(CLI_BIN)) throw new Error('dist/ is missing: run npm run build first');
  const dir = args.dir ?? mkdtempSync(join(tmpdir(), 'sitemapkit-bench-serve-'));
  mkdirSync(dir, { recursive: true });
  try {
    if (!existsSync(join(dir, 'sitemap.xml'))) await writeSet(dir);
    const set = { dir, ...describeSet(dir) };
    console.error(`set: ${set.children.length} children of ${(set.childBytes.median / 1e6).toFixed(2)} MB gzipped (median), index ${set.indexBytes} bytes, in ${dir}`);
    const wanted = (name) => args.only === undefined || args.only.includes(name);
    const nginx = wanted('nginx') ? findNginx() : { bin: undefined, how: 'not asked for' };
    if (nginx.bin === undefined && wanted('nginx')) console.error(`nginx ${nginx.how}`);
    const contenders = ORDER.filter((name) => wanted(name) && (name !== 'nginx' || nginx.bin !== undefined));
    const rounds = Object.fromEntries([...contenders, ...(wanted('live') ? ['live'] : [])].map((name) => [name, []]));
    for (let rep = 0; rep < args.reps; rep++) {
      // Contenders rotate order from one round to the next.
      const order = contenders.map((_, i) => contenders[(i + rep) % contenders.length]);
      for (const name of order) {
        await waitForQuiet(10_000);
        console.error(`round ${rep + 1}/${args.reps}: ${name}`);
        rounds[name].push(await measureStatic(name, set, args, nginx.bin));
      }
      if (wanted('live')) {
        await waitForQuiet(10_000);
        console.error(`round ${rep + 1}/${args.reps}: live`);
        rounds.live.push(await measureLive(set, args));
      }
    }
    const results = Object.fromEntries(Object.entries(rounds).map(([name, runs]) => [name, summarize(runs)]));
    const run = { date: new Date().toISOString(), environment: environment(), urls: URLS, connections: CONNECTIONS, reps: args.reps, durationS: args.duration, set: { children: set.children.length, indexBytes: set.indexBytes, childBytes: set.childBytes }, nginx: nginx.how, contenders: CONTENDERS, results, targets: targets(results) };
    writeResults('serve', run, render);
    return run.targets.every((t) => t.met !== false) ? 0 : 1;
  } finally {
    if (args.dir === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

/** The median of every figure over the rounds, and the rounds' req/s. */
function summarize(runs) {
  const summary = { rounds: runs.length, peakRssKiB: Math.max(...runs.map((r) => r.peakRssKiB ?? 0)), scenarios: {} };
  for (const key of ['coldFirstByteMs', 'coldLastByteMs', 'coldBytes']) if (runs[0][key] !== undefined) summary[key] = median(runs.map((r) => r[key]));
  for (const scenario of Object.keys(runs[0].scenarios)) {
    const of = (field) => median(runs.map((r) => r.scenarios[scenario][field]));
    summary.scenarios[scenario] = { rps: of('rps'), p50Ms: of('p50Ms'), p99Ms: of('p99Ms'), mbPerS: of('mbPerS'), rpsRounds: runs.map((r) => Math.round(r.scenarios[scenario].rps)) };
  }
  return summary;
}

function targets(results) {
  const list = [];
  const ours = results.sitemapkit?.scenarios;
  for (const scenario of ['index', '304']) {
    if (ours === undefined) break;
    const rps = ours[scenario].rps;
    if (results.express !== undefined) list.push({ target: `${scenario}: ≥ ${TARGETS.timesExpress}× express.static`, measured: `${(rps / results.express.scenarios[scenario].rps).toFixed(1)}×`, met: rps >= TARGETS.timesExpress * results.express.scenarios[scenario].rps });
    if (results.nginx !== undefined) list.push({ target: `${scenario}: ≥ ${TARGETS.shareOfNginx * 100}% of nginx`, measured: `${Math.round((rps / results.nginx.scenarios[scenario].rps) * 100)}%`, met: rps >= TARGETS.shareOfNginx * results.nginx.scenarios[scenario].rps });
    list.push({ target: `${scenario}: p99 < ${TARGETS.p99Ms} ms at ${CONNECTIONS} connections`, measured: `${ours[scenario].p99Ms} ms`, met: ours[scenario].p99Ms < TARGETS.p99Ms });
  }
  for (const name of ['sitemapkit', 'live']) {
    if (results[name] !== undefined) list.push({ target: `${name === 'live' ? 'live source' : 'sitemapkit serve'}: peak RSS < ${TARGETS.peakRssMB} MB`, measured: `${mb(results[name].peakRssKiB).toFixed(0)} MB`, met: mb(results[name].peakRssKiB) < TARGETS.peakRssMB });
  }
  if (results.live !== undefined) list.push({ target: `cold live child of 50,000 URLs: first byte within ${TARGETS.coldFirstByteMs} ms`, measured: `${results.live.coldFirstByteMs.toFixed(0)} ms`, met: results.live.coldFirstByteMs < TARGETS.coldFirstByteMs });
  return list;
}

function render(run) {
  const names = Object.keys(run.results).filter((name) => name !== 'live');
  const scenarioNames = ['index', 'child', '304', 'xml-gzip'];
  const lines = [
    '# bench:serve',
    '',
    `${run.date}, ${run.environment.cpus} × ${run.environment.cpuModel}, Node ${run.environment.node}; autocannon, ${run.connections} connections, ${run.durationS} s a scenario after a warm-up; median of ${run.reps} rounds (req/s of each round in brackets). nginx: ${run.nginx}.`,
    '',
    `The set: ${run.urls.toLocaleString('en-US')} URLs written by \`sitemapkit generate\`, an index of ${run.set.indexBytes} bytes and ${run.set.children} children of ${(run.set.childBytes.median / 1e6).toFixed(2)} MB gzipped (median).`,
    '',
    '| contender | scenario | req/s | p50 | p99 | MB/s | vs express.static | vs nginx |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const name of names) {
    for (const scenario of scenarioNames) {
      const s = run.results[name].scenarios[scenario];
      const ratio = (other) => (run.results[other] === undefined || other === name ? '' : `${(s.rps / run.results[other].scenarios[scenario].rps).toFixed(2)}×`);
      lines.push(`| ${name} | ${scenario} | ${Math.round(s.rps).toLocaleString('en-US')} (${s.rpsRounds.join(', ')}) | ${s.p50Ms} ms | ${s.p99Ms} ms | ${s.mbPerS.toFixed(0)} | ${ratio('express')} | ${ratio('nginx')} |`);
    }
  }
  lines.push('', '| contender | peak RSS (VmHWM of the server process) |', '| --- | ---: |');
  for (const name of Object.keys(run.results)) lines.push(`| ${name} | ${mb(run.results[name].peakRssKiB).toFixed(0)} MB |`);
  const live = run.results.live;
  if (live !== undefined) {
    const warm = live.scenarios['warm child'];
    lines.push('', `Live source of ${run.urls.toLocaleString('en-US')} entries (liveSource + toNodeListener on node:http, the default memory store): a cold child of 50,000 URLs (${(live.coldBytes / 1e6).toFixed(2)} MB gzipped, made on that request; median of ${COLD_CHILDREN} children a round) has its first byte after ${live.coldFirstByteMs.toFixed(1)} ms and its last after ${live.coldLastByteMs.toFixed(1)} ms; a warm child: ${Math.round(warm.rps).toLocaleString('en-US')} req/s (${warm.rpsRounds.join(', ')}), p50 ${warm.p50Ms} ms, p99 ${warm.p99Ms} ms.`);
  }
  lines.push('', '| target | measured | |', '| --- | ---: | --- |');
  for (const t of run.targets) lines.push(`| ${t.target} | ${t.measured} | ${t.met ? 'met' : 'not met'} |`);
  lines.push('', ...ORDER.filter((name) => run.results[name] !== undefined).map((name) => `- ${name}: ${run.contenders[name]}`), '');
  return lines.join('\n');
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error) => {
    console.error(`bench/serve: ${error.stack ?? error.message}`);
    process.exitCode = 2;
  },
);
