#!/usr/bin/env node
// bench:discover — finding every page URL of a site from its robots.txt, over HTTP: `sitemapkit discover`
// (the CLI as a user runs it) against the npm `sitemapper` package, on a loopback site (bench/lib/site.js)
// whose robots.txt points to a sitemap index of ten 50,000-URL gzipped urlsets, a 40,000-line text
// sitemap and a 10,000-item RSS 2.0 feed: 550,000 distinct page URLs. Wall time, peak RSS, URLs found
// (checked against the site's exact set), requests served, in the same run.
//
// The site is served by a plain node:http server in its own child process (so its CPU is not on the
// contender's event loop, and the contenders' RSS does not start from its buffers); it listens on an
// ephemeral port of 127.0.0.1, writes the site for that port into --dir, then serves it from memory.
// Every contender runs in its own process, several times (the best wall time counts, the spread is
// reported); contenders rotate order from one round to the next. Two rows: the site in the uniform shape
// and in the realistic one (bench/lib/site.js: query strings with &amp;, both date forms, indentation,
// comments, images), each with its own server.
//
//   npm run bench:discover                        everything (a few minutes: sitemapper is slow)
//   node bench/discover.js --reps 1               a quicker run
//   node bench/discover.js --only sitemapkit,floor
//   node bench/discover.js --shapes realistic     only this row (uniform, realistic)
//   node bench/discover.js --baseline /tmp/base/dist   the old build's CLI too, interleaved (bench/lib/builds.js)
//   node bench/discover.js --dir /tmp/site        keep the site's files there
//   node bench/discover.js --serve --dir /tmp/site   only serve the site (written for the port it gets),
//                                                 until Ctrl-C; e.g. for node --cpu-prof dist/cli/bin.cjs discover …
//
// Results: bench/results/discover.json and bench/results/discover.md. Exit 1 when a target fails,
// 2 on errors. Runs the BUILT CLI (dist/): run `npm run build` first (npm run bench:discover does).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
// Only harness.js statically: the sitemapper and floor children carry nothing else (lib/site.js is
// loaded by the server and checker children, and by the parent).
import { OWN_DIST, buildsOf, cliBin, newOverOldTable } from './lib/builds.js';
import { RESULT_TAG, vmHwmKiB, environment, mb, peakRssKiB, processCpuMs, spawnChild, waitForQuiet, argumentReader, summarizeRuns, GNU_TIME, GNU_TIME_FORMAT, probeGnuTime, exitWithUsage, writeResults, runTimedCommand, extraCaCertsNote } from './lib/harness.js';

const loadSiteModule = () => import('./lib/site.js');

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = join(dirname(SCRIPT), '..');
const CLI_BIN = cliBin(OWN_DIST);
const SHAPES = ['uniform', 'realistic'];
/** sitemapper's per-request timeout (its default is 15 s), raised so that it completes. */
const SITEMAPPER_TIMEOUT_MS = 600_000;
/** A contender still running after this long is killed (its run counts as failed). */
const KILL_AFTER_MS = 15 * 60_000;

const CONTENDERS = {
  sitemapkit: '`node dist/cli/bin.cjs discover http://127.0.0.1:PORT/ --allow-private --format urls --out FILE --quiet`, the whole command from spawn to exit (Node startup and module loading included); it starts from the site root, reads robots.txt and follows it',
  sitemapper: `npm sitemapper: \`new Sitemapper({ url: INDEX, timeout: ${SITEMAPPER_TIMEOUT_MS}, retries: 0 })\` (concurrency: its default, 10), \`await sitemapper.fetch()\`; given the sitemap index URL (it takes a sitemap URL and does not read robots.txt); timed around fetch() (the import of the package excluded, shown as load)`,
  floor: 'global fetch() of robots.txt, then the index, then the 12 documents at once, gunzip where gzipped (zlib, thread pool); nothing parsed but a regex over robots.txt and the index (pages counted afterwards, untimed); it holds every document, decompressed, at once',
};
const ORDER = ['sitemapkit', 'sitemapper', 'floor'];

const TARGETS = { speedupVsSitemapper: 10, peakRssMB: 200 };

// ---------------------------------------------------------------------------------------------
// Arguments

function parseArgs(argv) {
  const args = { reps: 3, peerReps: undefined, only: undefined, shapes: SHAPES, shape: 'uniform', baseline: undefined, dir: undefined, child: undefined, url: undefined, out: undefined, serve: false, port: 0, check: undefined };
  const arg = argumentReader(argv, usage);
  for (let a = arg.next(); a !== undefined; a = arg.next()) {
    if (a === '--reps') args.reps = arg.count();
    else if (a === '--peer-reps') args.peerReps = arg.count();
    else if (a === '--only') args.only = arg.list();
    else if (a === '--dir') args.dir = arg.value();
    else if (a === '--serve') args.serve = true;
    else if (a === '--shapes') args.shapes = arg.list();
    else if (a === '--shape') args.shape = arg.value();
    else if (a === '--baseline') args.baseline = arg.value();
    else if (a === '--port') args.port = arg.count();
    else if (a === '--child') args.child = arg.value();
    else if (a === '--url') args.url = arg.value();
    else if (a === '--out') args.out = arg.value();
    else if (a === '--check') args.check = arg.value();
    else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument ${a}`);
  }
  for (const name of args.only ?? []) {
    if (!(name in CONTENDERS)) usage(`unknown contender ${name}; use ${ORDER.join(', ')}`);
  }
  if (args.only !== undefined && args.only.length === 0) usage('--only needs at least one contender');
  for (const shape of [...args.shapes, args.shape]) if (!SHAPES.includes(shape)) usage(`unknown shape ${shape}; use ${SHAPES.join(', ')}`);
  if (args.child !== undefined && !['sitemapper', 'floor'].includes(args.child)) usage(`--child runs in-process contenders only (sitemapper, floor), not ${args.child}`);
  if (args.child !== undefined && args.url === undefined) usage('--child needs --url URL');
  if (args.child === 'sitemapper' && args.out === undefined) usage('--child sitemapper needs --out FILE');
  if (args.serve && args.dir === undefined) usage('--serve needs --dir DIR');
  if (args.check !== undefined && args.port === 0) usage('--check needs --port PORT');
  args.peerReps = Math.min(args.peerReps ?? args.reps, args.reps);
  return args;
}

function usage(problem) {
  const text = [
    `usage: node bench/discover.js [--reps N] [--peer-reps N] [--only ${ORDER.join(',')}] [--shapes ${SHAPES.join(',')}] [--baseline DIST] [--dir DIR]`,
    '       node bench/discover.js --serve --dir DIR [--port PORT] [--shape uniform|realistic]',
    '',
    '  --reps N       rounds (default 3); the best wall time counts',
    '  --peer-reps N  rounds of sitemapper among them (default: all)',
    `  --only LIST    run only these contenders (${ORDER.join(', ')})`,
    '  --shapes LIST  the site\'s shapes to run, a row each (default: uniform,realistic)',
    '  --baseline D   the old build\'s CLI (another checkout\'s dist/) run beside the new one, interleaved',
    '  --dir DIR      write the site\'s files there and keep them (default: a temporary directory, removed)',
    '  --serve        only write the site into DIR and serve it (ephemeral port unless --port) until Ctrl-C',
    '',
    'Results: bench/results/discover.json and bench/results/discover.md. Needs dist/ (npm run build)',
    'and node_modules/sitemapper.',
  ].join('\n');
  exitWithUsage('discover', text, problem);
}

// ---------------------------------------------------------------------------------------------
// The server child: listens, writes the site for its port, serves it from memory. Under the bench
// (an IPC channel) it answers `reset` and `stats` messages; alone, it prints where it is.

async function runServer(args) {
  const { siteServer, writeSite, DOCUMENTS } = await loadSiteModule();
  const site = siteServer();
  await new Promise((resolve, reject) => {
    site.server.once('error', reject);
    site.server.listen(args.port, '127.0.0.1', resolve);
  });
  const { port } = site.server.address();
  const t0 = performance.now();
  const manifest = writeSite(args.dir, port, args.shape);
  const writeMs = performance.now() - t0;
  site.load(args.dir, manifest);
  site.reset();
  if (process.send === undefined) {
    console.log(`serving ${manifest.origin}/ from ${args.dir} (${manifest.pages} pages: robots.txt → ${manifest.index} → ${DOCUMENTS.length} documents); Ctrl-C to stop`);
    console.log(`  node ${relative(process.cwd(), CLI_BIN)} discover ${manifest.origin}/ --allow-private --format urls --out /tmp/urls.txt`);
    process.on('SIGINT', () => {
      console.log(`\n${JSON.stringify(site.stats())}`);
      process.exit(0);
    });
    return;
  }
  process.on('message', (message) => {
    if (message.type === 'reset') {
      site.reset();
      process.send({ type: 'reset' });
    } else if (message.type === 'stats') {
      process.send({ type: 'stats', stats: site.stats() });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', manifest, writeMs });
}

/** Starts the server child; resolves with `{ manifest, writeMs, ask(type), stop() }` once it serves. */
function startServer(dir, shape) {
  const child = spawn(process.execPath, [SCRIPT, '--serve', '--dir', dir, '--shape', shape], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let waiting;
  let exited;
  const pending = new Promise((resolve, reject) => {
    waiting = { type: 'ready', resolve, reject };
  });
  child.on('message', (message) => {
    if (waiting?.type === message.type) {
      const w = waiting;
      waiting = undefined;
      w.resolve(message);
    }
  });
  child.on('exit', (code, signal) => {
    exited = `the site server exited (${code ?? signal})`;
    waiting?.reject(new Error(exited));
    waiting = undefined;
  });
  child.on('error', (error) => waiting?.reject(error));
  const ask = (type) => {
    if (exited !== undefined) return Promise.reject(new Error(exited));
    return new Promise((resolve, reject) => {
      waiting = { type, resolve, reject };
      child.send({ type });
    });
  };
  const stop = () => {
    if (exited === undefined) child.kill();
  };
  return pending.then((ready) => ({ manifest: ready.manifest, writeMs: ready.writeMs, ask, stop }));
}

// ---------------------------------------------------------------------------------------------
// Children: the in-process contenders and the checker, one JSON line on stdout.

function peaks() {
  const hwm = vmHwmKiB();
  return { peakRssKiB: peakRssKiB(), ...(hwm !== undefined ? { vmHwmKiB: hwm } : {}) };
}

const children = {
  /** `--url` is the sitemap index; the URLs found are written to `--out` (untimed) for the checker. */
  async sitemapper({ url, out }) {
    const loadStart = performance.now();
    const { default: Sitemapper } = await import('sitemapper');
    const loadMs = performance.now() - loadStart;
    const sitemapper = new Sitemapper({ url, timeout: SITEMAPPER_TIMEOUT_MS, retries: 0 });
    const t0 = performance.now();
    const { sites, errors } = await sitemapper.fetch();
    const wallMs = performance.now() - t0;
    const rss = peaks();
    writeFileSync(out, sites.length > 0 ? sites.join('\n') + '\n' : '');
    return {
      wallMs,
      loadMs,
      ...rss,
      urls: sites.length,
      errors: errors.map((e) => ({ url: e.url, type: e.type, message: e.message })),
    };
  },

  /** `--url` is the site's origin. */
  async floor({ url }) {
    const gunzipAsync = promisify(gunzip);
    const get = async (u) => {
      const response = await globalThis.fetch(u);
      if (response.status !== 200) throw new Error(`floor: ${u}: HTTP ${response.status}`);
      return Buffer.from(await response.arrayBuffer());
    };
    let bytes = 0;
    const t0 = performance.now();
    const robots = (await get(`${url}/robots.txt`)).toString();
    const indexUrl = /^Sitemap:\s*(\S+)/im.exec(robots)[1];
    const index = (await get(indexUrl)).toString();
    const locs = [...index.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    const documents = await Promise.all(
      locs.map(async (u) => {
        const body = await get(u);
        bytes += body.length;
        return { url: u, content: body[0] === 0x1f && body[1] === 0x8b ? await gunzipAsync(body) : body };
      }),
    );
    const wallMs = performance.now() - t0;
    const rss = peaks();
    // Untimed: the pages, counted the way each kind is written by lib/site.js.
    let urls = 0;
    let contentBytes = 0;
    for (const d of documents) {
      const text = d.content.toString();
      contentBytes += d.content.length;
      if (text.startsWith('<?xml') && text.includes('<urlset')) urls += text.split('<loc>').length - 1;
      else if (text.includes('<rss')) urls += text.split('<item>').length - 1;
      else urls += text.split('\n').filter((l) => l.trim() !== '').length;
    }
    return { wallMs, ...rss, urls, documents: documents.length, bytes, contentBytes };
  },
};

async function runChild(args) {
  const result = await children[args.child](args);
  process.stdout.write(RESULT_TAG + JSON.stringify({ contender: args.child, ...result, childCpuMs: processCpuMs() }) + '\n');
  // got's and undici's keep-alive sockets may hold the loop a while; the result is out.
  process.exit(0);
}

/** The checker: the URLs of FILE (one a line) against the site's pages for PORT. */
async function runCheck(args) {
  const { compareWithSite } = await loadSiteModule();
  const lines = readFileSync(args.check, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '');
  process.stdout.write(RESULT_TAG + JSON.stringify({ ...compareWithSite(lines, args.port, args.shape), childCpuMs: processCpuMs() }) + '\n');
}

// ---------------------------------------------------------------------------------------------
// The CLI, timed from spawn to exit (under GNU time when it is there)

/** Whether `sitemapkit discover` exists in dist/: `{ available, reason }`. */
function probeDiscover() {
  if (!existsSync(CLI_BIN)) return { available: false, reason: 'dist/cli/bin.cjs is missing (npm run build)' };
  const probe = spawnSync(process.execPath, [CLI_BIN, 'discover', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if (probe.status === 0) return { available: true };
  const said = (probe.stderr || probe.stdout || '').trim().split('\n')[0];
  return { available: false, reason: `\`sitemapkit discover --help\` exited ${probe.status ?? probe.signal}${said !== '' ? `: ${said}` : ''}` };
}


// ---------------------------------------------------------------------------------------------
// Parent

const fmtMB = (kib) => (typeof kib === 'number' ? mb(kib).toFixed(1) : 'unknown');
const fmtInt = (x) => (x === undefined || x === null ? '' : Math.round(x).toLocaleString('en-US'));
const fmtS = (ms) => (ms / 1000).toFixed(2);

function describeRun(r) {
  if (r.failed !== undefined) return `FAILED: ${r.failed.split('\n')[0]}`;
  const background = r.backgroundCores !== undefined ? `, other load ${r.backgroundCores.toFixed(2)} / steal ${r.stealCores.toFixed(2)} cores` : '';
  const load = r.loadMs !== undefined ? ` (+ ${r.loadMs.toFixed(0)} ms import)` : '';
  const found = r.check !== undefined ? `, ${fmtInt(r.check.matched)} of ${fmtInt(r.check.expected)} pages found (${fmtInt(r.check.lines)} URLs out)` : `, ${fmtInt(r.urls)} URLs`;
  return `${fmtS(r.wallMs)} s${load}, peak RSS ${fmtMB(r.peakRssKiB)} MB${found}, ${r.server.requests} requests${background}`;
}

let parentRssMaxKiB = 0;

/** One run of one contender, with the server's counts for it and (sitemapkit, sitemapper) the checker's verdict on the URLs. */
/** The CLI run as a user runs it (lib/harness.js runTimedCommand), its stdout kept to 64 KiB and trimmed. */
async function runCommand(argv, options) {
  const result = await runTimedCommand(argv, { cwd: ROOT, killAfterMs: KILL_AFTER_MS, maxStdout: 64 * 1024, ...options });
  result.stdout = result.stdout.trim();
  return result;
}

async function runContender(name, { server, manifest, scratch, tools, rep }) {
  parentRssMaxKiB = Math.max(parentRssMaxKiB, process.memoryUsage().rss / 1024);
  const out = join(scratch, `${name}-${rep}.txt`);
  rmSync(out, { force: true });
  await server.ask('reset');
  let r;
  const base = name.split('@')[0];
  if (base === 'sitemapkit') {
    const argv = [process.execPath, name === 'sitemapkit' ? CLI_BIN : cliBin(tools.baseline), 'discover', `${manifest.origin}/`, '--allow-private', '--format', 'urls', '--out', out, '--quiet'];
    r = await runCommand(argv, { gnuTime: tools.gnuTime, label: 'sitemapkit discover' });
    r.command = `node dist/cli/bin.cjs discover ${manifest.origin}/ --allow-private --format urls --out FILE --quiet`;
    if (r.killedAfterMs !== undefined) r.failed = `killed after ${r.killedAfterMs / 60_000} min`;
    else if (!existsSync(out)) r.failed = `exit ${r.exitCode}, no output file${r.stderr !== '' ? `: ${r.stderr.split('\n').slice(0, 3).join(' | ')}` : ''}`;
    if (r.stdout === '') delete r.stdout;
    if (r.stderr === '') delete r.stderr;
  } else {
    const url = name === 'sitemapper' ? manifest.index : manifest.origin;
    r = await spawnChild(SCRIPT, ['--child', name, '--url', url, ...(name === 'sitemapper' ? ['--out', out] : [])], { label: name });
    if (r.stderr !== undefined) process.stderr.write(`  (${name} wrote to stderr: ${r.stderr.split('\n')[0]})\n`);
  }
  r.server = (await server.ask('stats')).stats;
  // The server's CPU is its own process's, not "other load": take it out of the figure.
  const wall = r.processMs ?? r.wallMs;
  if (r.backgroundCores !== undefined) r.backgroundCores = Math.max(0, r.backgroundCores - r.server.cpuMs / wall);
  if (r.failed === undefined && name !== 'floor') {
    r.check = await spawnChild(SCRIPT, ['--check', out, '--port', String(manifest.port), '--shape', manifest.shape], { label: `checking the URLs of ${name}` });
    delete r.check.processMs;
    delete r.check.childCpuMs;
    delete r.check.backgroundCores;
    delete r.check.stealCores;
    r.urls = r.check.lines;
  }
  rmSync(out, { force: true });
  r.contender = name;
  r.measuredAt = new Date().toISOString();
  return r;
}

/** The runs of one contender: the summary of those that completed, with the first failure if any. */
function summarize(runs) {
  const ok = runs.filter((r) => r.failed === undefined);
  const failed = runs.filter((r) => r.failed !== undefined);
  if (ok.length === 0) return { runs: runs.length, failed: failed[0].failed, exitCode: failed[0].exitCode };
  const s = summarizeRuns(ok);
  if (failed.length > 0) s.failedRuns = failed.map((r) => r.failed);
  // Correctness over all runs: the worst of them.
  if (ok.every((r) => r.check !== undefined)) {
    s.allExact = ok.every((r) => r.check.exact);
    s.minMatched = Math.min(...ok.map((r) => r.check.matched));
  }
  return s;
}

function evaluate(results, availability, included) {
  const targets = [];
  const ratios = {};
  const kit = results.sitemapkit;
  const peer = results.sitemapper;
  if (kit !== undefined && peer !== undefined && kit.wallMs !== undefined && peer.wallMs !== undefined) ratios.sitemapperOverSitemapkit = peer.wallMs / kit.wallMs;
  if (peer?.wallMs !== undefined && results.floor?.wallMs !== undefined) ratios.sitemapperOverFloor = peer.wallMs / results.floor.wallMs;
  if (kit?.wallMs !== undefined && results.floor?.wallMs !== undefined) ratios.sitemapkitOverFloor = kit.wallMs / results.floor.wallMs;
  if (kit?.wallMs !== undefined && results['sitemapkit@old']?.wallMs !== undefined) ratios.newOverOld = kit.wallMs / results['sitemapkit@old'].wallMs;
  if (!included) return { targets, ratios };
  const measured = availability.available && kit?.wallMs !== undefined;
  targets.push({
    name: 'sitemapkit found every one of the 550,000 page URLs, and nothing else (every run)',
    value: measured && kit.minMatched !== undefined ? kit.minMatched : null,
    unit: ' pages',
    target: '550,000 exactly',
    // Every run failing (a crash, a timeout, no output) counts as not finding them.
    pass: measured ? kit.allExact === true : availability.available && kit !== undefined ? false : null,
  });
  const speed = ratios.sitemapperOverSitemapkit;
  targets.push({
    name: `sitemapkit ≥ ${TARGETS.speedupVsSitemapper}× faster than sitemapper (best wall times; sitemapkit's whole command vs sitemapper's fetch() alone)`,
    value: speed ?? null,
    unit: '×',
    target: `≥ ${TARGETS.speedupVsSitemapper}×`,
    pass: speed === undefined ? null : speed >= TARGETS.speedupVsSitemapper,
  });
  const rss = measured && typeof kit.peakRssKiB === 'number' ? mb(kit.peakRssKiB) : null;
  targets.push({ name: 'sitemapkit peak RSS (the highest of its runs)', value: rss, unit: ' MB', target: `< ${TARGETS.peakRssMB} MB`, pass: rss === null ? null : rss < TARGETS.peakRssMB });
  return { targets, ratios };
}

const load = (r) => (r.backgroundCores !== undefined ? `${r.backgroundCores.toFixed(2)} / ${(r.stealCores ?? 0).toFixed(2)}` : '');
const verdict = (t) => (t.pass === null ? 'NOT MEASURED' : t.pass ? 'PASS' : 'FAIL');

function render(run) {
  const lines = [
    '# bench:discover',
    '',
    'Written by `bench/discover.js` (`npm run bench:discover`); do not edit by hand.',
    '',
    `${run.date} · Node ${run.environment.node} · ${run.environment.cpus} × ${run.environment.cpuModel} · ${run.environment.platform} · sitemapper ${run.environment.sitemapper ?? '?'}`,
    ...(extraCaCertsNote(run.environment) !== '' ? ['', extraCaCertsNote(run.environment)] : []),
  ];
  for (const [shape, row] of Object.entries(run.rows)) lines.push('', `## The ${shape} site`, '', renderRow({ ...run, ...row }));
  const ratios = Object.fromEntries(Object.entries(run.rows).filter(([, row]) => row.ratios.newOverOld !== undefined).map(([shape, row]) => [shape, { sitemapkit: row.ratios.newOverOld }]));
  lines.push(...newOverOldTable(ratios, 'best wall time', run.settings.baseline));
  return lines.join('\n') + '\n';
}

/** One row (one shape of the site): its files, contenders, what they found, ratios and targets. */
function renderRow(run) {
  const { manifest, settings } = run;
  const lines = [
    `The site (bench/lib/site.js, ${manifest.shape} shape): a node:http server on ${manifest.origin} (its own process; keep-alive, Content-Length, Content-Type by extension, anything else 404), its files written for that port from deterministic entries (bench/lib/entries.js, mulberry32 seed 0x${settings.seed.toString(16)}; page URLs of 60–120 characters under the site's origin, 5% with a percent-encoded non-ASCII path): ${fmtInt(manifest.pages)} distinct page URLs.`,
    '',
    '| file | what | pages | bytes served | bytes after gunzip | Content-Type |',
    '| --- | --- | ---: | ---: | ---: | --- |',
  ];
  const types = { robots: 'text/plain; charset=utf-8', sitemapindex: 'application/xml', urlset: 'application/gzip', text: 'text/plain; charset=utf-8', rss: 'application/rss+xml' };
  const what = { robots: `\`Sitemap: ${manifest.index}\``, sitemapindex: 'sitemap index of the 12 below', urlset: `urlset, gzip level ${manifest.gzipLevel}`, text: 'text sitemap, one URL a line', rss: 'RSS 2.0, `<item><link>` + `<pubDate>` (RFC 822)' };
  const order = ['robots', 'sitemapindex', 'urlset', 'text', 'rss'];
  for (const f of [...manifest.files].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))) {
    lines.push(`| ${f.file} | ${what[f.kind]} | ${f.urls > 0 ? fmtInt(f.urls) : ''} | ${fmtInt(f.bytes)} | ${fmtInt(f.contentBytes)} | ${types[f.kind]} |`);
  }
  lines.push('', 'Contenders (each in its own process, every run):', '');
  for (const name of ORDER) if (settings.contenders.includes(name)) lines.push(`- **${name}**: ${CONTENDERS[name]}`);
  if (settings.baseline !== undefined) lines.push(`- **sitemapkit@old**: the same command with the baseline build, ${settings.baseline}, run beside it in every round`);
  const rssHow = settings.gnuTime ? "GNU time's %M (the command's own maxRSS; it is forked from the small `time` process)" : 'its VmHWM (GNU time, /usr/bin/time, is not installed)';
  lines.push(
    '',
    `Wall time: the best of ${settings.reps} run${settings.reps === 1 ? '' : 's'}${settings.contenders.includes('sitemapper') && settings.peerReps !== settings.reps ? ` (sitemapper: ${settings.peerReps})` : ''}; spread = (slowest − best) / best. sitemapkit is timed by the parent from spawn to exit${settings.gnuTime ? ' (under /usr/bin/time)' : ''}; sitemapper and floor inside their process, from the first request to the last URL. Peak RSS, the highest of the runs: sitemapkit, ${rssHow}, and VmHWM (its own high-water mark, /proc/self/status, written at exit by a one-line \`--import\` preload); sitemapper and floor, the process's maxRSS (\`process.resourceUsage()\`; it starts from the parent's RSS at fork, so the parent stays small, at most ${run.parentRssMaxMB.toFixed(0)} MB when spawning), with VmHWM. URLs out: lines printed (sitemapkit, \`--format urls\`) or \`sites\` returned (sitemapper); pages found: those lines that are the site's page URLs, checked against the exact set in a separate process. Requests: what the server answered during the run. Other load / steal: the most any run saw, in cores (of ${run.environment.cpus}), the server's own CPU taken out.`,
    '',
    '| contender | best (s) | median (s) | spread | URLs out | pages found (of 550,000) | peak RSS (MB) | VmHWM (MB) | requests | connections | other load / steal (cores) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const name of [...ORDER, 'sitemapkit@old']) {
    const r = run.results[name];
    if (r === undefined) {
      if (name === 'sitemapkit' && settings.contenders.includes(name)) lines.push(`| sitemapkit | not available | | | | | | | | | |`);
      continue;
    }
    if (r.wallMs === undefined) {
      lines.push(`| ${name} | failed (${r.runs} run${r.runs === 1 ? '' : 's'}) | | | | | | | | | |`);
      continue;
    }
    const best = r.loadMs !== undefined ? `${fmtS(r.wallMs)} (+ ${(r.loadMs / 1000).toFixed(2)} load)` : fmtS(r.wallMs);
    const pages = r.check !== undefined ? fmtInt(r.check.matched) : `(${fmtInt(r.urls)} counted)`;
    lines.push(`| ${name} | ${best} | ${fmtS(r.medianWallMs)} | ${(r.spread * 100).toFixed(1)}% (${r.runs}) | ${r.check !== undefined ? fmtInt(r.check.lines) : ''} | ${pages} | ${fmtMB(r.peakRssKiB)} | ${r.vmHwmKiB ? mb(r.vmHwmKiB).toFixed(1) : ''} | ${r.server.requests} | ${r.server.connections} | ${load(r)} |`);
  }
  if (!run.discover.available) lines.push('', `sitemapkit: not available — ${run.discover.reason}.`);
  for (const name of ORDER) {
    const r = run.results[name];
    if (r?.wallMs === undefined && r?.failed !== undefined) lines.push('', `${name}: every run failed — ${r.failed}`);
  }

  lines.push('', 'Requests served during the best run of each (method, path, status: count):', '');
  for (const name of ORDER) {
    const r = run.results[name];
    if (r?.server === undefined) continue;
    const byRequest = Object.entries(r.server.byRequest).map(([k, n]) => `${k}${n > 1 ? ` ×${n}` : ''}`).join(', ');
    lines.push(`- **${name}**: ${r.server.requests} requests on ${r.server.connections} connection${r.server.connections === 1 ? '' : 's'}, ${fmtInt(r.server.bytes)} bytes of bodies; ${byRequest}`);
  }

  const notes = [];
  for (const name of ['sitemapkit', 'sitemapper']) {
    const c = run.results[name]?.check;
    if (c === undefined) continue;
    const parts = [];
    if (c.missing > 0) parts.push(`missed ${fmtInt(c.missing)} pages (${Object.entries(c.missingByDocument).map(([f, n]) => `${f}: ${fmtInt(n)}`).join(', ')})`);
    if (c.duplicates > 0) parts.push(`printed ${fmtInt(c.duplicates)} duplicate lines`);
    if (c.unexpected > 0) parts.push(`printed ${fmtInt(c.unexpected)} URLs that are no page of the site (${fmtInt(c.unexpectedSiteFiles)} of them the site's robots.txt/sitemap URLs${c.sampleUnexpected.length > 0 ? `; e.g. ${c.sampleUnexpected.join(', ')}` : ''})`);
    if (parts.length === 0) parts.push(`exactly the site's ${fmtInt(c.expected)} page URLs`);
    notes.push(`- **${name}**: ${parts.join('; ')}.`);
  }
  const peer = run.results.sitemapper;
  if (peer?.errors !== undefined && peer.errors.length > 0) {
    notes.push(`- sitemapper's \`errors\`: ${peer.errors.map((e) => `${e.url.replace(manifest.origin, '')} ${e.type}${e.message ? ` (“${e.message}”)` : ''}`).join('; ')}. It parses every document with fast-xml-parser and keeps only a \`urlset\` or a \`sitemapindex\`: a text sitemap and an RSS feed are neither, so each ends as an error and its pages are not returned (the index's other children are).`);
  }
  if (run.results.sitemapkit?.exitCode !== undefined && run.results.sitemapkit.exitCode !== 0) notes.push(`- sitemapkit exited ${run.results.sitemapkit.exitCode} (best run)${run.results.sitemapkit.stderr ? `: ${run.results.sitemapkit.stderr.split('\n')[0]}` : ''}.`);
  if (notes.length > 0) lines.push('', 'What was found:', '', ...notes);

  const ratio = (x) => (x !== undefined ? `${x.toFixed(2)}×` : '');
  lines.push('', '| sitemapper ÷ sitemapkit | sitemapper ÷ floor | sitemapkit ÷ floor |', '| ---: | ---: | ---: |', `| ${ratio(run.ratios.sitemapperOverSitemapkit)} | ${ratio(run.ratios.sitemapperOverFloor)} | ${ratio(run.ratios.sitemapkitOverFloor)} |`);
  lines.push('', `Targets: every one of the 550,000 URLs found; at least ${TARGETS.speedupVsSitemapper}× faster than sitemapper; peak RSS under ${TARGETS.peakRssMB} MB.`, '');
  for (const t of run.targets) {
    const value = t.value === null ? 'unknown' : t.unit === '×' ? `${t.value.toFixed(2)}×` : t.unit === ' MB' ? `${t.value.toFixed(1)} MB` : `${fmtInt(t.value)}${t.unit}`;
    lines.push(`- ${t.name}: **${value}** (target ${t.target}) — **${verdict(t)}**`);
  }
  const busy = [];
  for (const [name, r] of Object.entries(run.results)) if ((r.backgroundCores ?? 0) + (r.stealCores ?? 0) > 0.25) busy.push(`${name} (${(r.backgroundCores + r.stealCores).toFixed(1)} cores)`);
  if (busy.length > 0) lines.push(`- **noisy**: other processes or the hypervisor were busy during ${busy.join(', ')}; rerun on an idle machine for figures to compare.`);
  return lines.join('\n');
}

async function runParent(args) {
  buildsOf(args.baseline); // both built
  const names = ORDER.filter((n) => (args.only ?? ORDER).includes(n));
  const discover = names.includes('sitemapkit') ? probeDiscover() : { available: false, reason: 'not run (--only)' };
  if (names.includes('sitemapkit') && !discover.available) process.stderr.write(`bench: sitemapkit discover is not available (${discover.reason}); its row will say so\n`);
  const runnable = names.filter((n) => n !== 'sitemapkit' || discover.available).flatMap((n) => (n === 'sitemapkit' && args.baseline !== undefined ? [n, 'sitemapkit@old'] : [n]));
  const gnuTime = probeGnuTime();
  if (!gnuTime && runnable.includes('sitemapkit')) process.stderr.write(`bench: ${GNU_TIME} (GNU time) is missing or unusable: sitemapkit's peak RSS will be its VmHWM\n`);
  let sitemapperVersion;
  try {
    sitemapperVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'sitemapper', 'package.json'), 'utf8')).version;
  } catch {
    if (names.includes('sitemapper')) throw new Error('node_modules/sitemapper is missing: npm install');
  }
  const { SEED } = await import('./lib/entries.js');
  const settings = {
    seed: SEED,
    reps: args.reps,
    peerReps: args.peerReps,
    contenders: names,
    shapes: args.shapes,
    baseline: args.baseline,
    gnuTime,
    gnuTimeFormat: gnuTime ? GNU_TIME_FORMAT : undefined,
    sitemapperTimeoutMs: SITEMAPPER_TIMEOUT_MS,
    server: 'own child process; node:http, keepAliveTimeout 5 s, files from memory',
  };
  const rows = {};
  for (const shape of args.shapes) rows[shape] = await runShape(shape, args, { runnable, discover, tools: { gnuTime, baseline: args.baseline }, included: names.includes('sitemapkit') });
  const run = { benchmark: 'discover', date: new Date().toISOString(), environment: { ...environment(), sitemapper: sitemapperVersion, gnuTime }, settings, discover, rows, parentRssMaxMB: mb(parentRssMaxKiB) };
  writeResults('discover', run, render);
  return Object.values(rows).every((row) => row.targets.every((t) => t.pass !== false));
}

/** The rounds on one shape of the site, with its own server: `{ manifest, commands, targets, ratios, results, runs }`. */
async function runShape(shape, args, { runnable, discover, tools, included }) {
  const own = args.dir === undefined;
  const dir = own ? mkdtempSync(join(tmpdir(), 'sitemapkit-bench-discover-site-')) : join(args.dir, shape);
  const scratch = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-discover-out-'));
  mkdirSync(dir, { recursive: true });
  let server;
  try {
    process.stderr.write(`bench: writing the ${shape} site in ${dir} and serving it … `);
    server = await startServer(dir, shape);
    const { manifest } = server;
    process.stderr.write(`${manifest.origin}/, ${fmtInt(manifest.pages)} pages in ${manifest.files.length} files, ${(manifest.files.reduce((s, f) => s + f.bytes, 0) / 1e6).toFixed(1)} MB (written in ${(server.writeMs / 1000).toFixed(1)} s)\n`);

    const runs = Object.fromEntries(runnable.map((n) => [n, []]));
    for (let rep = 0; rep < args.reps; rep++) {
      const waited = await waitForQuiet();
      if (waited > 1500) process.stderr.write(`bench: waited ${(waited / 1000).toFixed(0)} s for other processes to quiet down\n`);
      const order = runnable.map((_, k) => runnable[(k + rep) % runnable.length]);
      for (const name of order) {
        if (name === 'sitemapper' && rep >= args.peerReps) continue;
        // Every run leaves ~50 MB of URLs written and deleted: let the writeback settle too.
        if (name !== order[0]) await waitForQuiet(30_000);
        process.stderr.write(`bench: ${shape} round ${rep + 1}/${args.reps} ${name} … `);
        const r = await runContender(name, { server, manifest, scratch, tools, rep });
        process.stderr.write(describeRun(r) + '\n');
        if (r.check !== undefined && !r.check.exact) {
          const c = r.check;
          process.stderr.write(`  ${name}: ${fmtInt(c.lines)} URLs out, ${fmtInt(c.matched)} pages found, ${fmtInt(c.missing)} missing ${JSON.stringify(c.missingByDocument)}, ${fmtInt(c.duplicates)} duplicates, ${fmtInt(c.unexpected)} not pages${c.sampleUnexpected.length > 0 ? ` (e.g. ${c.sampleUnexpected[0]})` : ''}\n`);
        }
        runs[name].push(r);
      }
    }
    const results = Object.fromEntries(runnable.map((n) => [n, summarize(runs[n])]));
    const { targets, ratios } = evaluate(results, discover, included);
    for (const t of targets) t.name += ` (${shape})`;
    const commands = {
      sitemapkit: `node dist/cli/bin.cjs discover ${manifest.origin}/ --allow-private --format urls --out FILE --quiet`,
      sitemapper: `new Sitemapper({ url: '${manifest.index}', timeout: ${SITEMAPPER_TIMEOUT_MS}, retries: 0 }).fetch()`,
      floor: `fetch ${manifest.robots}, ${manifest.index}, then its 12 documents; gunzip`,
    };
    return { manifest, commands, targets, ratios, results, runs };
  } finally {
    server?.stop();
    rmSync(scratch, { recursive: true, force: true });
    if (own) rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.serve) return runServer(args);
  if (args.child !== undefined) return runChild(args);
  if (args.check !== undefined) return runCheck(args);
  if (!(await runParent(args))) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 2;
});
