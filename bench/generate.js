#!/usr/bin/env node
// bench:generate — writeSitemaps on N deterministic synthetic entries (gzip on, 50,000 URLs per file)
// against the npm `sitemap` package (SitemapAndIndexStream + createGzip, as its README shows) and
// against the floor: zlib.gzipSync, same level, over the same XML bytes, on one thread.
//
// Every contender runs in its own child process, so wall time and peak RSS (maxRSS) are its alone.
//
//   npm run bench:generate                       1,000,000 entries, every contender
//   node bench/generate.js --n 100000            a quick run
//   node bench/generate.js --n 10000000 --only sitemapkit    (or --rss-only) the 10M RSS check
//   node bench/generate.js --with-10m            the default run, then the 10M sitemapkit-only run
//   node bench/generate.js --only sitemapkit,floor
//   node bench/generate.js --peer-n 100000       run the `sitemap` peer at a smaller N, extrapolate linearly
//   node bench/generate.js --level 3             every contender at gzip level 3 (default 6, zlib's default,
//                                                which `sitemap` and `sitemapkit generate` use)
//
// Results: bench/results/generate-<N>.json and bench/results/generate.md (all N found there).
// Imports the BUILT library (dist/): run `npm run build` first (npm run bench:generate does).

import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createGunzip, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { OWN_DIST, distIndex } from './lib/builds.js';
import { BASE_URL, SEED, generateEntries } from './lib/entries.js';
import { writeWithSitemapPackage } from './lib/sitemap-peer.js';
import { RESULT_TAG, check, environment, mb, peakRssKiB, spawnChild as spawnNode, waitForQuiet, argumentReader, exitWithUsage } from './lib/harness.js';

const SCRIPT = fileURLToPath(import.meta.url);
const RESULTS_DIR = join(dirname(SCRIPT), 'results');
const LIMIT = 50_000;
/** zlib's default level: what `sitemap` (createGzip()) and `sitemapkit generate` use unless told. */
const DEFAULT_LEVEL = 6;
let LEVEL = DEFAULT_LEVEL;

const CONTENDERS = {
  generator: 'the entry generator alone (iterating N entries; included in every other contender\'s time)',
  sitemapkit: 'writeSitemaps, gzip at the run\'s level, 50,000 URLs per file (worker-thread gzip)',
  'sitemapkit-plain': 'writeSitemaps, gzip off (plain XML), 50,000 URLs per file',
  floor: 'zlib.gzipSync at the same level over the same XML bytes, one thread (XML built and read untimed)',
  sitemap: 'npm sitemap: SitemapAndIndexStream limit 50,000, SitemapStream → createGzip({ level }) → file',
};
const DEFAULT_ORDER = ['generator', 'sitemapkit', 'sitemapkit-plain', 'floor', 'sitemap'];

const TARGETS = { speedupVsSitemap: 50, ratioToFloor: 1.3, peakRssMB: 150 };

// ---------------------------------------------------------------------------------------------
// Arguments

function parseArgs(argv) {
  const args = { n: 1_000_000, peerN: undefined, only: undefined, child: undefined, out: undefined, with10m: false, hash: false, level: DEFAULT_LEVEL };
  const arg = argumentReader(argv, usage);
  for (let a = arg.next(); a !== undefined; a = arg.next()) {
    if (a === '--n') args.n = arg.count();
    else if (a === '--peer-n') args.peerN = arg.count();
    else if (a === '--only') args.only = arg.list();
    else if (a === '--rss-only') args.only = ['sitemapkit'];
    else if (a === '--with-10m') args.with10m = true;
    else if (a === '--child') args.child = arg.value();
    else if (a === '--out') args.out = arg.value();
    else if (a === '--hash') args.hash = true;
    else if (a === '--level') {
      args.level = arg.count();
      if (args.level < 1 || args.level > 9) usage(`--level takes 1 to 9, not ${args.level}`);
    }
    else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument ${a}`);
  }
  for (const name of [...(args.only ?? []), ...(args.child !== undefined ? [args.child] : [])]) {
    if (!(name in CONTENDERS)) usage(`unknown contender ${name}; use ${Object.keys(CONTENDERS).join(', ')}`);
  }
  return args;
}

function usage(problem) {
  const text = `usage: node bench/generate.js [--n N] [--only ${Object.keys(CONTENDERS).join(',')}] [--rss-only] [--peer-n N] [--with-10m] [--level 1-9]`;
  exitWithUsage('generate', text, problem);
}

// ---------------------------------------------------------------------------------------------
// Children: one contender each, one JSON line on stdout.

const expectedSitemaps = (n) => Math.ceil(n / LIMIT);

async function loadLibrary() {
  const entry = distIndex(OWN_DIST);
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (npm run bench:generate does)`);
  return import(pathToFileURL(entry).href);
}

/** Files a sitemapkit run left in `dir` (no staging leftovers), sorted. */
function listFiles(dir) {
  return readdirSync(dir).filter((f) => !f.startsWith('.')).sort();
}

async function hashGunzipped(paths) {
  const hash = createHash('sha256');
  for (const path of paths) {
    await pipeline(createReadStream(path), createGunzip({ chunkSize: 256 * 1024 }), async (source) => {
      for await (const chunk of source) hash.update(chunk);
    });
  }
  return hash.digest('hex');
}

/** CPU milliseconds of the whole process (every thread, GC helpers included) since `start`. */
function cpuMsSince(start) {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

const children = {
  async generator({ n }) {
    // Timed: iterating alone. Then, untimed, a second pass for the statistics of the entries.
    let chars = 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (const e of generateEntries(n)) chars += e.loc.length;
    const wallMs = performance.now() - t0;
    const timedCpuMs = cpuMsSince(c0);
    const rss = peakRssKiB();
    let min = Infinity;
    let max = 0;
    let nonAscii = 0;
    for (const e of generateEntries(n)) {
      const len = e.loc.length;
      if (len < min) min = len;
      if (len > max) max = len;
      if (!/^[\x00-\x7f]*$/.test(e.loc)) nonAscii++;
    }
    return { wallMs, timedCpuMs, peakRssKiB: rss, entries: { minUrlLength: min, maxUrlLength: max, meanUrlLength: chars / n, nonAscii, nonAsciiShare: nonAscii / n } };
  },

  async sitemapkit({ n, out, hash }, gzip = true) {
    const { writeSitemaps } = await loadLibrary();
    const t0 = performance.now();
    const summary = await writeSitemaps(generateEntries(n), { outDir: out, baseUrl: BASE_URL, gzip, gzipLevel: LEVEL, maxUrls: LIMIT, dedupe: false });
    const wallMs = performance.now() - t0;
    const rss = peakRssKiB(); // before the (untimed) checks below
    const sitemaps = expectedSitemaps(n);
    const files = listFiles(out);
    check(summary.urls === n, `summary.urls is ${summary.urls}, expected ${n}`);
    check(summary.sitemaps.length === sitemaps, `${summary.sitemaps.length} sitemaps in the summary, expected ${sitemaps}`);
    check(files.length === sitemaps + (sitemaps > 1 ? 1 : 0), `${files.length} files written (${files.slice(0, 5).join(', ')}…), expected ${sitemaps}${sitemaps > 1 ? ' + 1 index' : ''}`);
    check(summary.sitemaps.reduce((s, f) => s + f.urls, 0) === n, 'per-file URL counts do not add up to N');
    const diskTotal = files.reduce((s, f) => s + statSync(join(out, f)).size, 0);
    check(diskTotal === summary.diskBytes, `files on disk take ${diskTotal} bytes, summary.diskBytes says ${summary.diskBytes}`);
    const paths = sitemaps > 1 ? summary.sitemaps.map((f) => join(out, f.name)) : [join(out, 'sitemap.xml')];
    if (gzip && sitemaps > 1) {
      const head = readFileSync(paths[0]).subarray(0, 2);
      check(head[0] === 0x1f && head[1] === 0x8b, `${paths[0]} is not gzip`);
    }
    let xmlSha256;
    if (hash) xmlSha256 = gzip && sitemaps > 1 ? await hashGunzipped(paths) : createHash('sha256').update(Buffer.concat(paths.map((p) => readFileSync(p)))).digest('hex');
    return {
      wallMs,
      peakRssKiB: rss,
      files: files.length,
      sitemaps: summary.sitemaps.length,
      urls: summary.urls,
      xmlBytes: summary.bytes,
      sitemapXmlBytes: summary.sitemaps.reduce((s, f) => s + f.bytes, 0),
      diskBytes: summary.diskBytes,
      ...(xmlSha256 !== undefined ? { xmlSha256 } : {}),
    };
  },

  async 'sitemapkit-plain'(opts) {
    return children.sitemapkit(opts, false);
  },

  async floor({ n, out }) {
    const { writeSitemaps } = await loadLibrary();
    // Untimed: the same XML the sitemapkit run compresses, written plain, then read into memory.
    const summary = await writeSitemaps(generateEntries(n), { outDir: out, baseUrl: BASE_URL, gzip: false, maxUrls: LIMIT, dedupe: false });
    const paths = summary.sitemaps.length > 1 ? summary.sitemaps.map((f) => join(out, f.name)) : [join(out, 'sitemap.xml')];
    const buffers = paths.map((p) => readFileSync(p));
    rmSync(out, { recursive: true, force: true }); // the XML now lives in memory only
    const xmlBytes = buffers.reduce((s, b) => s + b.length, 0);
    // Timed: gzipSync per file, at the run's level, main thread.
    let gzBytes = 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (const b of buffers) gzBytes += gzipSync(b, { level: LEVEL }).length;
    const wallMs = performance.now() - t0;
    const timedCpuMs = cpuMsSince(c0);
    const rss = peakRssKiB();
    const xmlSha256 = createHash('sha256');
    for (const b of buffers) xmlSha256.update(b);
    return { wallMs, timedCpuMs, peakRssKiB: rss, files: buffers.length, xmlBytes, gzBytes, xmlSha256: xmlSha256.digest('hex') };
  },

  async sitemap({ n, out }) {
    await import('sitemap'); // loaded before the clock starts, as before
    const t0 = performance.now();
    await writeWithSitemapPackage(generateEntries(n, 'sitemap'), { out, baseUrl: BASE_URL, limit: LIMIT, level: LEVEL });
    const wallMs = performance.now() - t0;
    const rss = peakRssKiB();
    const files = listFiles(out);
    const sitemaps = expectedSitemaps(n);
    check(files.length === sitemaps + 1, `${files.length} files written, expected ${sitemaps} + 1 index`);
    const diskBytes = files.reduce((s, f) => s + statSync(join(out, f)).size, 0);
    return { wallMs, peakRssKiB: rss, files: files.length, sitemaps, diskBytes };
  },
};

async function runChild(args) {
  let out = args.out;
  const own = out === undefined;
  if (own) out = mkdtempSync(join(tmpdir(), `sitemapkit-bench-${args.child}-`));
  try {
    const result = await children[args.child]({ n: args.n, out, hash: args.hash });
    const usage = process.resourceUsage();
    const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
    process.stdout.write(RESULT_TAG + JSON.stringify({ contender: args.child, n: args.n, ...result, childCpuMs: cpuMs }) + '\n');
  } finally {
    if (own) rmSync(out, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Parent

function spawnChild(name, n, extra = []) {
  const out = mkdtempSync(join(tmpdir(), `sitemapkit-bench-${name}-`));
  return spawnNode(SCRIPT, ['--child', name, '--n', String(n), '--out', out, '--level', String(LEVEL), ...extra], {
    label: `${name} (n=${n})`,
    cleanup: () => rmSync(out, { recursive: true, force: true }),
  });
}

async function runSet(n, names, peerN) {
  const results = {};
  const hash = names.includes('floor') && names.includes('sitemapkit');
  for (const name of names) {
    const runN = name === 'sitemap' && peerN !== undefined ? peerN : n;
    const waited = await waitForQuiet();
    process.stderr.write(`bench: ${name} at N=${runN.toLocaleString('en-US')}${waited > 1500 ? ` (waited ${(waited / 1000).toFixed(0)} s for other processes to quiet down)` : ''} … `);
    const r = await spawnChild(name, runN, name === 'sitemapkit' && hash ? ['--hash'] : []);
    if (runN !== n) {
      r.measuredN = runN;
      r.measuredWallMs = r.wallMs;
      r.wallMs = (r.wallMs * n) / runN;
      r.extrapolated = true;
      r.n = n;
    }
    r.measuredAt = new Date().toISOString();
    const background = r.backgroundCores !== undefined ? `, other processes used ${r.backgroundCores.toFixed(2)} cores meanwhile, steal ${r.stealCores.toFixed(2)} cores` : '';
    process.stderr.write(`${(r.wallMs / 1000).toFixed(2)} s${r.extrapolated ? ' (extrapolated)' : ''}, peak RSS ${mb(r.peakRssKiB).toFixed(1)} MB${background}\n`);
    if (r.stderr !== undefined) process.stderr.write(`  (${name} wrote to stderr: ${r.stderr.split('\n')[0]})\n`);
    results[name] = r;
  }
  return results;
}

function evaluate(n, contenders, cores) {
  const kit = contenders.sitemapkit;
  const peer = contenders.sitemap;
  const floor = contenders.floor;
  const ratios = {};
  const targets = [];
  if (kit !== undefined && peer !== undefined) {
    ratios.speedupVsSitemap = peer.wallMs / kit.wallMs;
    // Issue 24 retired this target (level 6's deflate alone exceeds its budget on two cores, as
    // cpuBudget below shows): it is printed for information and fails nothing.
    targets.push({ name: '(retired, informational) sitemap / sitemapkit wall time', value: ratios.speedupVsSitemap, target: `≥ ${TARGETS.speedupVsSitemap}`, pass: ratios.speedupVsSitemap >= TARGETS.speedupVsSitemap, informational: true, ...(peer.extrapolated ? { note: `sitemap measured at N=${peer.measuredN}, extrapolated linearly` } : {}) });
  }
  if (kit !== undefined && floor !== undefined) {
    ratios.ratioToFloor = kit.wallMs / floor.wallMs;
    targets.push({ name: 'sitemapkit / gzip floor wall time', value: ratios.ratioToFloor, target: `≤ ${TARGETS.ratioToFloor}`, pass: ratios.ratioToFloor <= TARGETS.ratioToFloor });
    if (kit.xmlSha256 !== undefined) ratios.sameXmlAsFloor = kit.xmlSha256 === floor.xmlSha256;
  }
  if (kit !== undefined) {
    ratios.peakRssMB = mb(kit.peakRssKiB);
    targets.push({ name: `sitemapkit peak RSS at N=${n.toLocaleString('en-US')} (MB)`, value: ratios.peakRssMB, target: `< ${TARGETS.peakRssMB}`, pass: ratios.peakRssMB < TARGETS.peakRssMB });
  }
  if (kit !== undefined && contenders.generator !== undefined) ratios.generatorShareOfSitemapkit = contenders.generator.wallMs / kit.wallMs;
  const generator = contenders.generator;
  if (peer !== undefined && floor?.timedCpuMs !== undefined && generator?.timedCpuMs !== undefined) {
    // What the speed target leaves: at 50× the peer's time, every core busy the whole time, the
    // CPU-seconds there are. Deflating the XML at this level and making the entries are work any
    // writer pays (the floor's and the generator's timed CPU, measured alone); the rest is the writer's.
    const wallMs = peer.wallMs / TARGETS.speedupVsSitemap;
    ratios.cpuBudget = { cores, wallMs, cpuMs: wallMs * cores, deflateCpuMs: floor.timedCpuMs, generatorCpuMs: generator.timedCpuMs };
  }
  return { ratios, targets };
}

/** The gzip level of a stored run (runs written before `--level` existed used the default). */
function runLevel(run) {
  return run.settings?.gzipLevel ?? DEFAULT_LEVEL;
}

/** Runs at the default level first, then the others by level. */
function levelOrder(run) {
  const level = runLevel(run);
  return level === DEFAULT_LEVEL ? 0 : level;
}

function fmtInt(x) {
  return x === undefined ? '' : Math.round(x).toLocaleString('en-US');
}

function renderRun(run) {
  const lines = [];
  const level = runLevel(run);
  lines.push(`### N = ${run.n.toLocaleString('en-US')}${level === DEFAULT_LEVEL ? '' : `, gzip level ${level}`}`);
  lines.push('');
  lines.push(`${run.date} · Node ${run.environment.node} · ${run.environment.cpus} × ${run.environment.cpuModel} · ${run.environment.platform}`);
  lines.push('');
  lines.push('| contender | wall time (s) | URLs/s | peak RSS (MB) | files | XML bytes | bytes on disk | CPU (s) | other load / steal (cores) |');
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const name of DEFAULT_ORDER) {
    const r = run.contenders[name];
    if (r === undefined) continue;
    const time = (r.wallMs / 1000).toFixed(2) + (r.extrapolated ? ` (extrapolated from N=${r.measuredN.toLocaleString('en-US')}: ${(r.measuredWallMs / 1000).toFixed(2)} s)` : '');
    const rss = mb(r.peakRssKiB).toFixed(1) + (r.extrapolated ? ` (at N=${r.measuredN.toLocaleString('en-US')})` : '') + (name === 'floor' ? ' (holds all XML)' : '');
    const disk = name === 'floor' ? r.gzBytes : r.diskBytes;
    lines.push(`| ${name} | ${time} | ${fmtInt((run.n / r.wallMs) * 1000)} | ${rss} | ${fmtInt(r.files)} | ${fmtInt(r.sitemapXmlBytes ?? r.xmlBytes)} | ${fmtInt(disk)} | ${r.childCpuMs !== undefined ? (r.childCpuMs / 1000).toFixed(2) : ''} | ${r.backgroundCores !== undefined ? `${r.backgroundCores.toFixed(2)} / ${(r.stealCores ?? 0).toFixed(2)}` : ''} |`);
  }
  lines.push('');
  for (const t of run.targets) {
    const v = t.value >= 100 ? t.value.toFixed(0) : t.value.toFixed(2);
    lines.push(`- ${t.name}: **${v}** (${t.informational ? 'was ' : ''}target ${t.target}) — **${t.pass ? 'PASS' : t.informational ? 'below it' : 'FAIL'}**${t.note !== undefined ? ` — ${t.note}` : ''}`);
  }
  if (run.ratios.sameXmlAsFloor !== undefined) lines.push(`- sitemapkit's gunzipped output is byte-identical to the floor's input: ${run.ratios.sameXmlAsFloor ? 'yes' : '**NO**'}`);
  const budget = run.ratios.cpuBudget;
  if (budget !== undefined) {
    const fixed = budget.deflateCpuMs + budget.generatorCpuMs;
    const s = (ms) => (ms / 1000).toFixed(2);
    const verdict =
      fixed >= budget.cpuMs
        ? `**${((fixed / budget.cpuMs) * 100).toFixed(0)}% of it before any XML is built**: ${TARGETS.speedupVsSitemap}× is out of reach at level ${runLevel(run)} on this machine, whatever the writer does`
        : `${((fixed / budget.cpuMs) * 100).toFixed(0)}% of it, leaving ${s(budget.cpuMs - fixed)} CPU-s (${((budget.cpuMs - fixed) / 1000 / run.n * 1e9).toFixed(0)} ns an entry) for building the XML, and only if every core is busy the whole time`;
    lines.push(
      `- what ${TARGETS.speedupVsSitemap}× leaves on this machine: sitemap's ${s(budget.wallMs * TARGETS.speedupVsSitemap)} s / ${TARGETS.speedupVsSitemap} = ${s(budget.wallMs)} s, at most ${s(budget.cpuMs)} CPU-s on ${budget.cores} cores. Deflating the XML at level ${runLevel(run)} takes ${s(budget.deflateCpuMs)} CPU-s (the floor's timed part) and making the entries ${s(budget.generatorCpuMs)} CPU-s (the generator's): ${s(fixed)} CPU-s, ${verdict}.`,
    );
  }
  if (run.ratios.generatorShareOfSitemapkit !== undefined) lines.push(`- entry generation alone: ${(run.contenders.generator.wallMs / 1000).toFixed(2)} s (${(run.ratios.generatorShareOfSitemapkit * 100).toFixed(0)}% of sitemapkit's time; every contender but the floor pays it)`);
  const busy = Object.entries(run.contenders).filter(([, r]) => (r.backgroundCores ?? 0) + (r.stealCores ?? 0) > 0.25);
  if (busy.length > 0) lines.push(`- **noisy**: other processes or the hypervisor took ${busy.map(([k, r]) => `${((r.backgroundCores ?? 0) + (r.stealCores ?? 0)).toFixed(1)} cores during ${k}`).join(', ')} (of ${run.environment.cpus}); rerun on an idle machine for figures to compare.`);
  lines.push('- CPU (s) is the child process\'s whole user + system time (all threads, untimed set-up and checks included).');
  const stats = run.contenders.generator?.entries;
  if (stats !== undefined) lines.push(`- entries: URL length ${stats.minUrlLength}–${stats.maxUrlLength} characters (mean ${stats.meanUrlLength.toFixed(1)}), ${(stats.nonAsciiShare * 100).toFixed(1)}% with a non-ASCII path`);
  const times = new Set(Object.values(run.contenders).map((r) => r.measuredAt?.slice(0, 10)));
  if (times.size > 1) lines.push('- note: rows of this table were measured in separate runs (see generate-N.json, `measuredAt`).');
  return lines.join('\n');
}

function writeMarkdown() {
  const runs = readdirSync(RESULTS_DIR)
    .filter((f) => /^generate-\d+(?:-level\d)?\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(join(RESULTS_DIR, f), 'utf8')))
    .sort((a, b) => levelOrder(a) - levelOrder(b) || a.n - b.n);
  const head = [
    '# bench:generate',
    '',
    'Written by `bench/generate.js` (`npm run bench:generate`); do not edit by hand.',
    '',
    `Entries: deterministic (mulberry32, seed 0x${SEED.toString(16)}), https URLs of 60–120 characters under ${BASE_URL}, 5% with a non-ASCII path segment, every entry with lastmod (date-time), changefreq and priority. gzip level ${DEFAULT_LEVEL} (zlib's default, which \`sitemap\` and \`sitemapkit generate\` use) unless a section says otherwise (\`--level\`; every contender then uses that level), ${LIMIT.toLocaleString('en-US')} URLs per file. Each contender runs in its own process; peak RSS is that process's maxRSS (main thread and workers; MB = 10^6 bytes).`,
    '',
    ...Object.entries(CONTENDERS).map(([k, v]) => `- **${k}**: ${v}`),
    '',
    `Targets: sitemapkit wall time ≤ ${TARGETS.ratioToFloor}× the gzip floor; sitemapkit peak RSS < ${TARGETS.peakRssMB} MB at 1,000,000 and 10,000,000 entries. The old ${TARGETS.speedupVsSitemap}× \`sitemap\` target is retired (issue 24) and shown for information.`,
    '',
  ];
  writeFileSync(join(RESULTS_DIR, 'generate.md'), [...head, ...runs.map(renderRun).flatMap((s) => [s, ''])].join('\n'));
}

async function runParent(n, names, peerN) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const contenders = await runSet(n, names, peerN);
  const file = join(RESULTS_DIR, `generate-${n}${LEVEL === DEFAULT_LEVEL ? '' : `-level${LEVEL}`}.json`);
  // A partial run (--only) keeps the other contenders' rows of an earlier run at the same N.
  let merged = contenders;
  if (existsSync(file)) {
    try {
      const previous = JSON.parse(readFileSync(file, 'utf8'));
      merged = { ...previous.contenders, ...contenders };
    } catch {
      merged = contenders;
    }
  }
  const env = environment();
  const { ratios, targets } = evaluate(n, merged, env.cpus);
  const run = {
    benchmark: 'generate',
    n,
    date: new Date().toISOString(),
    environment: env,
    settings: { seed: SEED, baseUrl: BASE_URL, gzipLevel: LEVEL, maxUrlsPerFile: LIMIT, ...(peerN !== undefined ? { peerN } : {}) },
    targets,
    ratios,
    contenders: merged,
  };
  writeFileSync(file, JSON.stringify(run, null, 2) + '\n');
  writeMarkdown();
  console.log('\n' + renderRun(run) + '\n');
  console.log(`written: ${file} and ${join(RESULTS_DIR, 'generate.md')}`);
  return targets.every((t) => t.pass || t.informational);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  LEVEL = args.level;
  if (args.child !== undefined) {
    await runChild(args);
    return;
  }
  const names = args.only ?? DEFAULT_ORDER;
  const ordered = DEFAULT_ORDER.filter((name) => names.includes(name));
  let ok = await runParent(args.n, ordered, args.peerN);
  if (args.with10m) ok = (await runParent(10_000_000, ['sitemapkit'], undefined)) && ok;
  if (!ok) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 2;
});
