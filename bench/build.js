#!/usr/bin/env node
// bench:build — `sitemapkit build` on a synthetic built site (bench/lib/built-site.js): 100,000 HTML
// pages of 6–10 KB in 20 sections, each with build noise (a build id in a comment and in an inline
// script, `?v=BUILDID` on assets, content-hashed asset names). Measured, in the same run:
//
//   1. the first build (SOURCE_DATE_EPOCH=T1, `--initial-lastmod now`): wall time and peak RSS, and
//      that every page is listed once with lastmod T1;
//   2. a first IndexNow submission (`sitemapkit indexnow`) to a fake endpoint (node:http on 127.0.0.1,
//      in this process, answering 200): every listed URL must arrive once; this records them as
//      submitted in the build state;
//   3. two rebuilds (SOURCE_DATE_EPOCH=T2), each from the state of step 2 (restored from a copy): EVERY
//      page rewritten with a new build id and new asset hashes, as a real rebuild does, and the real
//      content of 1% of the pages changed (one paragraph replaced), (a) scattered over the whole site,
//      (b) all inside two sections (products, split into hash buckets at 100,000 pages, and recipes).
//      Targets: the children rewritten are exactly those holding changed pages (found by reading the
//      first build's children), and the index; every other child untouched (same inode) and byte-
//      identical; lastmod moved to T2 for exactly the changed pages; then `indexnow --dry-run`
//      prints exactly the changed URLs (payload size reported);
//   4. the npm `sitemap` package writing the same URLs with the same lastmod (SitemapAndIndexStream,
//      50,000 a file, createGzip level 6, as bench/generate.js drives it), timed around the writing
//      (import excluded); first build ÷ sitemap is printed. No target: the build reads and parses every
//      page; the peer is only given the URLs.
//
// Every step is its own process, timed by this one from spawn to exit under GNU time (wall, peak RSS
// %M, CPU); the CLI's own durationMs is shown too. The site is written (untimed, reported) just
// before, so its pages are in the OS page cache, as after a real static-site build. First builds and
// the peer alternate when --reps > 1; the best wall time counts, the spread is reported.
//
//   npm run bench:build                         everything, 100,000 pages (a few minutes)
//   node bench/build.js --pages 5000            a quick run
//   node bench/build.js --reps 3                three first builds, rebuilds and peer runs
//   node bench/build.js --only build,sitemap    the first build and the peer only (also: scattered, sections)
//   node bench/build.js --dir /tmp/site         write the site there and keep it (as the last rebuild left it)
//
// Results: bench/results/build.json and bench/results/build.md. Exit 1 when a target fails, 2 on
// errors. Runs the BUILT CLI (dist/): run `npm run build` first (npm run bench:build does).

import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { RESULT_TAG, environment, mb, processCpuMs, vmHwmKiB, peakRssKiB, waitForQuiet, argumentReader, summarizeRuns, GNU_TIME, GNU_TIME_FORMAT, probeGnuTime, exitWithUsage, writeResults, runTimedCommand } from './lib/harness.js';
import { writeWithSitemapPackage } from './lib/sitemap-peer.js';
import { BASE_URL, DEFAULT_PAGES, SECTIONS, SITE_SEED, choosePages, makeBuild, planSite, writeSite } from './lib/built-site.js';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = join(dirname(SCRIPT), '..');
const CLI_BIN = join(ROOT, 'dist', 'cli', 'bin.cjs');
/** SOURCE_DATE_EPOCH of the first build (2025-01-01T00:00:00Z) and of the rebuilds (a week later). */
const T1 = 1_735_689_600;
const T2 = T1 + 7 * 86_400;
const KEY = 'b3nch-5f2b8c1d9e7a4b3c';
const CHANGE_SHARE = 0.01;
const LIMIT = 50_000;
const LEVEL = 6;
/** A step still running after this long is killed (its run fails). */
const KILL_AFTER_MS = 20 * 60_000;
/** Marks a --dir this script wrote, so that a second run may empty it. */
const MARKER = '.bench-built-site.json';

const SCENARIOS = {
  scattered: { label: '(a) scattered', text: '1% of the pages drawn uniformly over the whole site', seed: SITE_SEED ^ 0x5ca7 },
  sections: { label: '(b) two sections', text: '1% of the pages, half in `products`, half in `recipes`', sections: ['products', 'recipes'], seed: SITE_SEED ^ 0x5ec7 },
};
const PARTS = ['build', 'scattered', 'sections', 'sitemap'];

// ---------------------------------------------------------------------------------------------
// Arguments

function parseArgs(argv) {
  const args = { reps: 1, pages: DEFAULT_PAGES, only: undefined, dir: undefined, child: undefined, urls: undefined, out: undefined, lastmod: undefined };
  const arg = argumentReader(argv, usage);
  for (let a = arg.next(); a !== undefined; a = arg.next()) {
    if (a === '--reps') args.reps = arg.count();
    else if (a === '--pages') args.pages = arg.count();
    else if (a === '--only') args.only = arg.list();
    else if (a === '--dir') args.dir = arg.value();
    else if (a === '--child') args.child = arg.value();
    else if (a === '--urls') args.urls = arg.value();
    else if (a === '--out') args.out = arg.value();
    else if (a === '--lastmod') args.lastmod = arg.value();
    else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument ${a}`);
  }
  for (const name of args.only ?? []) if (!PARTS.includes(name)) usage(`unknown part ${name}; use ${PARTS.join(', ')}`);
  if (args.only !== undefined && args.only.length === 0) usage('--only needs at least one part');
  if (args.pages < 1 + 2 * SECTIONS.length + 100) usage(`--pages must be at least ${1 + 2 * SECTIONS.length + 100}`);
  if (args.child !== undefined && (args.child !== 'sitemap' || args.urls === undefined || args.out === undefined || args.lastmod === undefined)) {
    usage('--child sitemap needs --urls FILE --out DIR --lastmod DATE');
  }
  return args;
}

function usage(problem) {
  const text = [
    `usage: node bench/build.js [--pages N] [--reps N] [--only ${PARTS.join(',')}] [--dir DIR]`,
    '',
    `  --pages N     pages of the site (default ${DEFAULT_PAGES.toLocaleString('en-US')}); 1% of them change`,
    '  --reps N      first builds, rebuilds and peer runs (default 1); the best wall time counts',
    '  --only LIST   build: the first build and the IndexNow submission; scattered, sections: the',
    '                rebuild scenarios (they need the first build: it runs too); sitemap: the npm peer',
    "  --dir DIR     write the site there and keep it (default: a temporary directory, removed); DIR",
    '                must be empty, missing, or a site this script wrote',
    '',
    'Results: bench/results/build.json and bench/results/build.md. Needs dist/ (npm run build) and',
    'node_modules/sitemap.',
  ].join('\n');
  exitWithUsage('build', text, problem);
}

// ---------------------------------------------------------------------------------------------
// The peer child: the npm `sitemap` package writes the URLs of --urls, with lastmod --lastmod.

async function runPeerChild({ urls: urlsFile, out, lastmod }) {
  const urls = readFileSync(urlsFile, 'utf8').split('\n').filter((l) => l !== '');
  // The package is imported first and its load timed apart (loadMs), as before the write.
  const loadStart = performance.now();
  await import('sitemap');
  const loadMs = performance.now() - loadStart;
  const t0 = performance.now();
  await writeWithSitemapPackage(
    urls.map((url) => ({ url, lastmod })),
    { out, baseUrl: BASE_URL, limit: LIMIT, level: LEVEL },
  );
  const wallMs = performance.now() - t0;
  const rss = peakRssKiB();
  const hwm = vmHwmKiB();
  const files = readdirSync(out).sort();
  let written = 0;
  for (const f of files.filter((f) => f !== 'sitemap-index.xml.gz')) written += gunzipSync(readFileSync(join(out, f))).toString().split('<loc>').length - 1;
  const result = { wallMs, loadMs, peakRssKiB: rss, ...(hwm !== undefined ? { vmHwmKiB: hwm } : {}), files: files.length, urls: written, diskBytes: files.reduce((s, f) => s + statSync(join(out, f)).size, 0), childCpuMs: processCpuMs() };
  process.stdout.write(RESULT_TAG + JSON.stringify(result) + '\n');
}

// ---------------------------------------------------------------------------------------------
// Processes: one step each, timed from spawn to exit (under GNU time when it is there)

const runCommand = (argv, options) => runTimedCommand(argv, { cwd: ROOT, killAfterMs: KILL_AFTER_MS, ...options });


/** The CLI's JSON on stdout, or an error naming the step, its exit status and its stderr. */
function jsonOf(r, label) {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`${label}: exit ${r.exitCode}, no JSON on stdout${r.stderr ? `; stderr:\n${r.stderr.split('\n').slice(0, 10).join('\n')}` : ''}`);
  }
}

/** Whether dist/ has `build` and `indexnow`; throws with what to do when not. */
function requireCli() {
  if (!existsSync(CLI_BIN)) throw new Error('dist/cli/bin.cjs is missing: run `npm run build` first (npm run bench:build does)');
  for (const command of ['build', 'indexnow']) {
    const probe = spawnSync(process.execPath, [CLI_BIN, command, '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    if (probe.status !== 0) {
      const said = (probe.stderr || probe.stdout || '').trim().split('\n')[0];
      throw new Error(`\`sitemapkit ${command} --help\` exited ${probe.status ?? probe.signal}${said !== '' ? `: ${said}` : ''} (run \`npm run build\`)`);
    }
  }
}

const cliBuild = (siteDir) => [process.execPath, CLI_BIN, 'build', siteDir, '--base-url', BASE_URL, '--initial-lastmod', 'now', '--json'];
const cliIndexNow = (siteDir, endpoint, dryRun) => [process.execPath, CLI_BIN, 'indexnow', '--key', KEY, '--out', siteDir, '--endpoint', endpoint, ...(dryRun ? ['--dry-run'] : ['--json'])];

// ---------------------------------------------------------------------------------------------
// The fake IndexNow endpoint: answers 200 to a well-formed POST, counts what it received.

async function startEndpoint() {
  let stats;
  const reset = () => (stats = { requests: 0, bytes: 0, urls: 0, received: new Set(), duplicates: 0, refused: 0, hosts: new Set() });
  reset();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      stats.requests++;
      const body = Buffer.concat(chunks);
      stats.bytes += body.length;
      let payload;
      try {
        payload = JSON.parse(body.toString('utf8'));
      } catch {
        payload = undefined;
      }
      if (req.method !== 'POST' || payload?.key !== KEY || typeof payload.host !== 'string' || !Array.isArray(payload.urlList) || payload.urlList.length > 10_000) {
        stats.refused++;
        res.writeHead(400).end();
        return;
      }
      stats.hosts.add(payload.host);
      for (const url of payload.urlList) {
        stats.urls++;
        if (stats.received.has(url)) stats.duplicates++;
        else stats.received.add(url);
      }
      res.writeHead(200).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}/indexnow`,
    reset,
    stats: () => stats,
    close: () => server.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// The site's output: sitemap files, state, snapshots

const isSitemapFile = (name) => /^sitemap.*\.xml(\.gz)?$/.test(name);
/** A child's name without its content token: `sitemap-blog.1a2b3c4d.xml.gz` → `sitemap-blog.xml.gz`. */
const layoutName = (name) => name.replace(/\.[0-9a-f]{8}(?=\.xml(?:\.gz)?$)/, '');

/** Removes what a build wrote into the site folder: the sitemaps and the state. */
function clearOutput(siteDir) {
  for (const name of readdirSync(siteDir)) if (isSitemapFile(name)) rmSync(join(siteDir, name), { force: true });
  rmSync(join(siteDir, '.sitemapkit'), { recursive: true, force: true });
}

function saveSnapshot(siteDir, snapDir) {
  rmSync(snapDir, { recursive: true, force: true });
  mkdirSync(snapDir, { recursive: true });
  for (const name of readdirSync(siteDir)) if (isSitemapFile(name)) cpSync(join(siteDir, name), join(snapDir, name));
  cpSync(join(siteDir, '.sitemapkit'), join(snapDir, '.sitemapkit'), { recursive: true });
}

function restoreSnapshot(snapDir, siteDir) {
  clearOutput(siteDir);
  for (const name of readdirSync(snapDir)) cpSync(join(snapDir, name), join(siteDir, name), { recursive: true });
}

/** The sitemap files in the folder: name → { ino, mtimeMs, sha256 }. */
function fingerprintFiles(siteDir) {
  const files = new Map();
  for (const name of readdirSync(siteDir).filter(isSitemapFile).sort()) {
    const path = join(siteDir, name);
    const info = statSync(path);
    files.set(name, { ino: info.ino, mtimeMs: info.mtimeMs, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') });
  }
  return files;
}

const decodeXml = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** Every <url> of the children (`*.xml.gz` / `*.xml` other than the index): loc → { file, lastmod }, and duplicates. */
function readChildren(siteDir, indexName) {
  const urls = new Map();
  const perFile = {};
  let duplicates = 0;
  for (const name of readdirSync(siteDir).filter(isSitemapFile).sort()) {
    if (name === indexName) continue;
    const raw = readFileSync(join(siteDir, name));
    const text = (name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
    let n = 0;
    for (const m of text.matchAll(/<url>\s*<loc>([^<]*)<\/loc>(?:\s*<lastmod>([^<]*)<\/lastmod>)?/g)) {
      const loc = decodeXml(m[1]);
      if (urls.has(loc)) duplicates++;
      urls.set(loc, { file: name, lastmod: m[2] });
      n++;
    }
    perFile[name] = n;
  }
  return { urls, perFile, duplicates };
}

const sameInstant = (text, epochSeconds) => text !== undefined && Date.parse(text) === epochSeconds * 1000;

/** Who listed the same set: `{ missing, extra }` counts and a few examples. */
function compareSets(got, want) {
  const missing = [...want].filter((u) => !got.has(u));
  const extra = [...got].filter((u) => !want.has(u));
  return { equal: missing.length === 0 && extra.length === 0, missing: missing.length, extra: extra.length, examples: [...missing.slice(0, 3).map((u) => `missing ${u}`), ...extra.slice(0, 3).map((u) => `extra ${u}`)] };
}

// ---------------------------------------------------------------------------------------------
// The steps

async function firstBuild(ctx) {
  const { siteDir, site, gnuTime } = ctx;
  clearOutput(siteDir);
  const r = await runCommand(cliBuild(siteDir), { gnuTime, env: { SOURCE_DATE_EPOCH: String(T1) }, label: 'first build' });
  const json = jsonOf(r, 'first build');
  const issues = [];
  if (r.exitCode !== 0) issues.push(`exit ${r.exitCode}${r.stderr ? `: ${r.stderr.split('\n')[0]}` : ''}`);
  if (json.pages !== site.total) issues.push(`pages ${json.pages}, expected ${site.total}`);
  if (json.listed !== site.total) issues.push(`listed ${json.listed}, expected ${site.total}`);
  if ((json.excluded ?? []).length > 0) issues.push(`${json.excluded.length} pages left out (e.g. ${json.excluded[0].relPath}: ${json.excluded[0].reason})`);
  if ((json.problems ?? []).length > 0) issues.push(`${json.problems.length} problems (e.g. ${json.problems[0].relPath}: ${json.problems[0].message})`);
  const children = json.files.filter((f) => f.status !== 'removed');
  if (children.some((f) => f.status !== 'written')) issues.push('a child of the first build is not reported as written');
  if (json.indexFile?.status !== 'written') issues.push(`index ${json.indexFile?.name}: ${json.indexFile?.status}`);
  // What the children hold: every page once, lastmod T1.
  const read = readChildren(siteDir, json.indexFile.name);
  const cmp = compareSets(new Set(read.urls.keys()), new Set(site.pages.map((p) => p.url)));
  if (!cmp.equal) issues.push(`the children list ${read.urls.size} URLs: ${cmp.missing} pages missing, ${cmp.extra} URLs not pages (${cmp.examples.join('; ')})`);
  if (read.duplicates > 0) issues.push(`${read.duplicates} URLs listed twice`);
  const wrongLastmod = [...read.urls.values()].filter((u) => !sameInstant(u.lastmod, T1)).length;
  if (wrongLastmod > 0) issues.push(`${wrongLastmod} URLs without lastmod = the build time`);
  const onDisk = Object.keys(read.perFile).sort();
  const reported = children.map((f) => f.name).sort();
  if (onDisk.join() !== reported.join()) issues.push(`children on disk (${onDisk.join(', ')}) ≠ reported (${reported.join(', ')})`);
  return {
    ...measure(r),
    inProcessMs: json.durationMs,
    issues,
    children: read.perFile,
    indexName: json.indexFile.name,
    urlToFile: new Map([...read.urls].map(([u, v]) => [u, v.file])),
    diskBytes: onDisk.reduce((s, f) => s + statSync(join(siteDir, f)).size, 0) + statSync(join(siteDir, json.indexFile.name)).size,
  };
}

async function submitAll(ctx, endpoint) {
  const { siteDir, site, gnuTime } = ctx;
  endpoint.reset();
  const r = await runCommand(cliIndexNow(siteDir, endpoint.url, false), { gnuTime, label: 'indexnow' });
  const stats = endpoint.stats();
  const issues = [];
  if (r.exitCode !== 0) issues.push(`exit ${r.exitCode}${r.stderr ? `: ${r.stderr.split('\n')[0]}` : ''}`);
  const cmp = compareSets(stats.received, new Set(site.pages.map((p) => p.url)));
  if (!cmp.equal) issues.push(`the endpoint received ${stats.received.size} distinct URLs: ${cmp.missing} missing, ${cmp.extra} extra (${cmp.examples.join('; ')})`);
  if (stats.duplicates > 0) issues.push(`${stats.duplicates} URLs received twice`);
  if (stats.refused > 0) issues.push(`${stats.refused} malformed requests`);
  return { ...measure(r), issues, requests: stats.requests, urls: stats.urls, payloadBytes: stats.bytes, hosts: [...stats.hosts] };
}

/** The pages whose content changes in a scenario (page indexes). */
function changedPages(site, name, count) {
  const scenario = SCENARIOS[name];
  if (scenario.sections === undefined) return choosePages(site.pages.map((p) => p.i), count, scenario.seed);
  const [a, b] = scenario.sections.map((s) => site.sections.find((x) => x.name === s));
  const range = (s) => Array.from({ length: s.pages }, (_, k) => s.first + k);
  const inA = Math.min(a.pages, Math.ceil(count / 2));
  return [...choosePages(range(a), inA, scenario.seed), ...choosePages(range(b), Math.min(b.pages, count - inA), scenario.seed ^ 1)].sort((x, y) => x - y);
}

async function rebuild(ctx, first, changed, changedUrls) {
  const { siteDir, snapDir, gnuTime, endpoint, site } = ctx;
  restoreSnapshot(snapDir, siteDir);
  const before = fingerprintFiles(siteDir);
  await waitForQuiet(30_000);
  const r = await runCommand(cliBuild(siteDir), { gnuTime, env: { SOURCE_DATE_EPOCH: String(T2) }, label: 'rebuild' });
  const json = jsonOf(r, 'rebuild');
  const after = fingerprintFiles(siteDir);
  // What went wrong, by target: the run itself and lastmod, the files rewritten, the other files.
  const issues = [];
  const fileIssues = [];
  const otherIssues = [];
  if (r.exitCode !== 0) issues.push(`exit ${r.exitCode}${r.stderr ? `: ${r.stderr.split('\n')[0]}` : ''}`);
  if (json.changedPages !== changed.length) issues.push(`the build reports ${json.changedPages} changed pages, ${changed.length} changed`);
  if (json.newPages !== 0 || json.removedPages !== 0) issues.push(`the build reports ${json.newPages} new and ${json.removedPages} removed pages (none were)`);
  if (json.listed !== site.total) issues.push(`listed ${json.listed}, expected ${site.total}`);

  // Files: which the CLI says it wrote, which changed on disk, which should have. A child is named
  // by its section and a token of its content: a rewritten child is a new name plus its old name
  // removed, so children are compared by their name without the token (`layoutName`).
  const expected = new Set([...changedUrls].map((u) => first.urlToFile.get(u)).filter((f) => f !== undefined).map(layoutName));
  const written = new Set(json.files.filter((f) => f.status === 'written').map((f) => layoutName(f.name)));
  const removed = json.files.filter((f) => f.status === 'removed').map((f) => layoutName(f.name)).filter((n) => !written.has(n));
  const touched = new Set();
  const bytesChanged = new Set();
  for (const [name, b] of before) {
    const a = after.get(name);
    if (a === undefined || a.ino !== b.ino || a.mtimeMs !== b.mtimeMs) touched.add(layoutName(name));
    if (a === undefined || a.sha256 !== b.sha256) bytesChanged.add(layoutName(name));
  }
  for (const name of after.keys()) if (!before.has(name)) touched.add(layoutName(name));
  touched.delete(first.indexName);
  const indexWritten = json.indexFile?.status === 'written' && bytesChanged.has(first.indexName);
  bytesChanged.delete(first.indexName);
  const filesCmp = compareSets(written, expected);
  const filesOk = filesCmp.equal && removed.length === 0 && indexWritten;
  if (!filesCmp.equal) fileIssues.push(`children rewritten: ${[...written].sort().join(', ') || 'none'}; expected: ${[...expected].sort().join(', ')}`);
  if (removed.length > 0) fileIssues.push(`children removed: ${removed.join(', ')}`);
  if (!indexWritten) fileIssues.push(`the index was not rewritten (status ${json.indexFile?.status})`);
  // Every child not expected to change: not rewritten, same bytes.
  const untouchedOk = [...before.keys()].map(layoutName).filter((n) => n !== first.indexName && !expected.has(n)).every((n) => !touched.has(n) && !bytesChanged.has(n));
  const sneaky = [...touched].filter((n) => !written.has(n));
  if (!untouchedOk) otherIssues.push(`other children modified on disk: ${[...touched, ...bytesChanged].filter((n) => !expected.has(n)).sort().join(', ')}`);
  if (sneaky.length > 0) otherIssues.push(`files replaced on disk but reported unchanged: ${sneaky.join(', ')}`);

  // lastmod: T2 for exactly the changed pages, T1 for the others.
  const read = readChildren(siteDir, first.indexName);
  let lastmodWrong = 0;
  for (const page of site.pages) {
    const entry = read.urls.get(page.url);
    if (entry === undefined || !sameInstant(entry.lastmod, changedUrls.has(page.url) ? T2 : T1)) lastmodWrong++;
  }
  if (lastmodWrong > 0) issues.push(`${lastmodWrong} URLs with a wrong lastmod (T2 for changed pages, T1 for the others)`);

  // IndexNow: what would be submitted now.
  const dry = await runCommand(cliIndexNow(siteDir, endpoint.url, true), { gnuTime, label: 'indexnow --dry-run' });
  const lines = dry.stdout.split('\n').filter((l) => l.trim() !== '');
  const submitted = [];
  let payloadBytes = 0;
  const dryIssues = [];
  if (dry.exitCode !== 0) dryIssues.push(`indexnow --dry-run exit ${dry.exitCode}${dry.stderr ? `: ${dry.stderr.split('\n')[0]}` : ''}`);
  for (const line of lines) {
    try {
      const payload = JSON.parse(line);
      submitted.push(...payload.urlList);
      payloadBytes += Buffer.byteLength(line);
      if (payload.key !== KEY) dryIssues.push(`a payload with key ${payload.key}`);
    } catch {
      dryIssues.push(`not a JSON payload: ${line.slice(0, 80)}`);
    }
  }
  const payloadSet = new Set(submitted);
  const payloadCmp = compareSets(payloadSet, changedUrls);
  if (!payloadCmp.equal) dryIssues.push(`payload: ${payloadSet.size} URLs, ${payloadCmp.missing} changed ones missing, ${payloadCmp.extra} unchanged ones (${payloadCmp.examples.join('; ')})`);
  if (payloadSet.size !== submitted.length) dryIssues.push(`${submitted.length - payloadSet.size} URLs twice in the payloads`);

  return {
    ...measure(r),
    inProcessMs: json.durationMs,
    issues: [...issues, ...fileIssues, ...otherIssues],
    runIssues: issues,
    fileIssues,
    otherIssues,
    filesOk,
    untouchedOk: untouchedOk && sneaky.length === 0,
    lastmodOk: issues.length === 0,
    written: [...written].sort(),
    expected: [...expected].sort(),
    indexWritten,
    children: before.size - 1,
    dry: { ...measure(dry), issues: dryIssues, payloads: lines.length, urls: submitted.length, payloadBytes, ok: dryIssues.length === 0 },
  };
}

/** The npm `sitemap` package on the same URLs, in its own process (GNU time for its peak RSS). */
async function runPeer(ctx) {
  const out = mkdtempSync(join(ctx.work, 'peer-'));
  try {
    const r = await runCommand([process.execPath, SCRIPT, '--child', 'sitemap', '--urls', ctx.urlsFile, '--out', out, '--lastmod', new Date(T1 * 1000).toISOString()], { gnuTime: ctx.gnuTime, label: 'sitemap' });
    const line = r.stdout.split('\n').find((l) => l.startsWith(RESULT_TAG));
    if (r.exitCode !== 0 || line === undefined) throw new Error(`the sitemap peer failed: exit ${r.exitCode}\n${r.stderr}`);
    const result = JSON.parse(line.slice(RESULT_TAG.length));
    const issues = [];
    if (result.urls !== ctx.site.total) issues.push(`wrote ${result.urls} URLs, expected ${ctx.site.total}`);
    if (result.files !== Math.ceil(ctx.site.total / LIMIT) + 1) issues.push(`wrote ${result.files} files`);
    return { ...measure(r), wallMs: result.wallMs, processMs: r.wallMs, loadMs: result.loadMs, files: result.files, urls: result.urls, diskBytes: result.diskBytes, issues };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The timing fields of a runCommand result. */
function measure(r) {
  const m = { wallMs: r.wallMs, peakRssKiB: r.peakRssKiB, exitCode: r.exitCode };
  for (const k of ['vmHwmKiB', 'childCpuMs', 'backgroundCores', 'stealCores', 'killedAfterMs']) if (r[k] !== undefined) m[k] = r[k];
  return m;
}

function say(text) {
  process.stderr.write(text);
}

const fmtS = (ms) => (ms === undefined ? '' : (ms / 1000).toFixed(2));
const fmtInt = (x) => (x === undefined ? '' : Math.round(x).toLocaleString('en-US'));
const fmtMB = (kib) => (typeof kib === 'number' ? mb(kib).toFixed(1) : '');
const describe = (r) => `${fmtS(r.wallMs)} s, peak RSS ${fmtMB(r.peakRssKiB)} MB${r.backgroundCores !== undefined ? `, other load ${r.backgroundCores.toFixed(2)} cores` : ''}`;

/** Several runs of a step: summarizeRuns for the times, every run's issues. */
function summarize(runs) {
  const summary = summarizeRuns(runs);
  summary.issues = [...new Set(runs.flatMap((r) => r.issues ?? []))];
  if (runs.some((r) => r.childCpuMs !== undefined)) summary.childCpuMs = Math.min(...runs.map((r) => r.childCpuMs ?? Infinity));
  return summary;
}

// ---------------------------------------------------------------------------------------------
// Parent

function prepareDir(dir) {
  if (!existsSync(dir)) return mkdirSync(dir, { recursive: true });
  const entries = readdirSync(dir);
  if (entries.length === 0) return;
  if (!entries.includes(MARKER)) usage(`--dir ${dir} is not empty and was not written by this script (no ${MARKER}); give an empty or new folder`);
  for (const name of entries) rmSync(join(dir, name), { recursive: true, force: true });
}

function gitCommit() {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (head.status !== 0) return undefined;
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8' });
  return head.stdout.trim() + (dirty.stdout.trim() !== '' ? ' + uncommitted changes in src/' : '');
}

async function runParent(args) {
  let parts = args.only ?? PARTS;
  if (parts.includes('scattered') || parts.includes('sections')) parts = [...new Set(['build', ...parts])];
  const withBuild = parts.includes('build');
  const withPeer = parts.includes('sitemap');
  if (withBuild) requireCli();
  const gnuTime = probeGnuTime();
  if (!gnuTime) say(`bench: ${GNU_TIME} (GNU time) is missing or unusable: peak RSS will be each process's VmHWM\n`);
  let sitemapVersion;
  try {
    sitemapVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'sitemap', 'package.json'), 'utf8')).version;
  } catch {
    if (withPeer) throw new Error('node_modules/sitemap is missing: npm install');
  }

  const site = planSite(args.pages);
  const changes = Math.max(1, Math.round(args.pages * CHANGE_SHARE));
  if (args.dir !== undefined) prepareDir(args.dir); // may exit (usage): before anything is made
  const work = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-build-'));
  const siteDir = args.dir ?? join(work, 'site');
  const ctx = { site, siteDir, snapDir: join(work, 'snapshot'), work, gnuTime, urlsFile: join(work, 'urls.txt'), endpoint: undefined };
  const builds = { first: makeBuild('first', T1), scattered: makeBuild('rebuild-a', T2), sections: makeBuild('rebuild-b', T2) };
  const results = { siteSections: site.sections.map(({ name, pages }) => ({ name, pages })) };
  try {
    if (withBuild) {
      say(`bench: writing ${fmtInt(site.total)} pages into ${siteDir} … `);
      const gen = writeSite(siteDir, site, builds.first);
      writeFileSync(join(siteDir, MARKER), JSON.stringify({ pages: site.total, seed: SITE_SEED }) + '\n');
      results.site = { ...gen, buildId: builds.first.id };
      say(`${(gen.bytes / 1e6).toFixed(0)} MB in ${fmtS(gen.ms)} s (pages of ${fmtInt(gen.minBytes)}–${fmtInt(gen.maxBytes)} bytes, mean ${fmtInt(gen.bytes / gen.files)})\n`);
    }
    if (withPeer) writeFileSync(ctx.urlsFile, site.pages.map((p) => p.url).join('\n') + '\n');

    // First builds and the peer, alternating.
    const firstRuns = [];
    const peerRuns = [];
    let first;
    for (let rep = 0; rep < args.reps; rep++) {
      const order = (rep % 2 === 0 ? ['build', 'sitemap'] : ['sitemap', 'build']).filter((p) => parts.includes(p));
      for (const name of order) {
        await waitForQuiet(30_000);
        say(`bench: round ${rep + 1}/${args.reps} ${name === 'build' ? 'first build' : `npm sitemap ${sitemapVersion}`} … `);
        if (name === 'build') {
          first = await firstBuild(ctx);
          firstRuns.push(first);
          say(`${describe(first)} (in-process ${fmtS(first.inProcessMs)} s), ${Object.keys(first.children).length} children${first.issues.length > 0 ? `\n  PROBLEMS: ${first.issues.join('\n  ')}` : ''}\n`);
        } else {
          const peer = await runPeer(ctx);
          peerRuns.push(peer);
          say(`${describe(peer)} (writing; process ${fmtS(peer.processMs)} s)\n`);
        }
      }
    }
    if (firstRuns.length > 0) results.first = { ...summarize(firstRuns.map(({ urlToFile: _, ...r }) => r)), children: first.children, indexName: first.indexName, diskBytes: first.diskBytes };
    if (peerRuns.length > 0) results.sitemap = summarize(peerRuns);

    if (withBuild) {
      ctx.endpoint = await startEndpoint();
      await waitForQuiet(30_000);
      say(`bench: first IndexNow submission to ${ctx.endpoint.url} … `);
      results.submit = await submitAll(ctx, ctx.endpoint);
      say(`${describe(results.submit)}, ${fmtInt(results.submit.urls)} URLs in ${results.submit.requests} POST${results.submit.requests === 1 ? "" : "s"}${results.submit.issues.length > 0 ? `\n  PROBLEMS: ${results.submit.issues.join('\n  ')}` : ''}\n`);
      saveSnapshot(siteDir, ctx.snapDir);
    }

    for (const name of ['scattered', 'sections'].filter((p) => parts.includes(p))) {
      const changed = changedPages(site, name, changes);
      const changedUrls = new Set(changed.map((i) => site.pages[i].url));
      say(`bench: ${SCENARIOS[name].label}: rewriting every page with build ${builds[name].id}, ${fmtInt(changed.length)} with new content … `);
      const gen = writeSite(siteDir, site, builds[name], new Map(changed.map((i) => [i, 1])));
      say(`${fmtS(gen.ms)} s\n`);
      const runs = [];
      for (let rep = 0; rep < args.reps; rep++) {
        say(`bench: ${SCENARIOS[name].label}: round ${rep + 1}/${args.reps} rebuild … `);
        const r = await rebuild(ctx, first, changed, changedUrls);
        runs.push(r);
        say(`${describe(r)} (in-process ${fmtS(r.inProcessMs)} s), ${r.written.length} children rewritten (expected ${r.expected.length})${r.indexWritten ? ' + the index' : ''}; dry run: ${fmtInt(r.dry.urls)} URLs, ${fmtInt(r.dry.payloadBytes)} bytes${[...r.issues, ...r.dry.issues].length > 0 ? `\n  PROBLEMS: ${[...r.issues, ...r.dry.issues].join('\n  ')}` : ''}\n`);
      }
      const last = runs.at(-1);
      const dry = summarize(runs.map((r) => r.dry));
      results[name] = {
        ...summarize(runs.map(({ dry: _, ...r }) => r)),
        changed: changed.length,
        changedBySection: Object.fromEntries(site.sections.map((s) => [s.name, changed.filter((i) => site.pages[i].section === s.name).length]).filter(([, n]) => n > 0)),
        rewriteMs: gen.ms,
        fileIssues: [...new Set(runs.flatMap((r) => r.fileIssues))],
        otherIssues: [...new Set(runs.flatMap((r) => r.otherIssues))],
        runIssues: [...new Set(runs.flatMap((r) => r.runIssues))],
        filesOk: runs.every((r) => r.filesOk),
        untouchedOk: runs.every((r) => r.untouchedOk),
        lastmodOk: runs.every((r) => r.lastmodOk),
        written: last.written,
        expected: last.expected,
        dry: { ...dry, ok: runs.every((r) => r.dry.ok), payloads: last.dry.payloads, urls: last.dry.urls, payloadBytes: last.dry.payloadBytes },
      };
    }

    const { targets, ratios } = evaluate(results, changes, site.total);
    const run = {
      benchmark: 'build',
      date: new Date().toISOString(),
      environment: { ...environment(), sitemap: sitemapVersion, gnuTime, commit: gitCommit() },
      settings: {
        pages: site.total,
        changes,
        reps: args.reps,
        parts,
        seed: SITE_SEED,
        baseUrl: BASE_URL,
        sourceDateEpoch: { first: T1, rebuild: T2 },
        builds: Object.fromEntries(Object.entries(builds).map(([k, b]) => [k, { id: b.id, time: b.time, app: b.app, css: b.css, vendor: b.vendor }])),
        commands: {
          build: `SOURCE_DATE_EPOCH=T node dist/cli/bin.cjs build SITE --base-url ${BASE_URL} --initial-lastmod now --json`,
          indexnow: `node dist/cli/bin.cjs indexnow --key ${KEY} --out SITE --endpoint http://127.0.0.1:PORT/indexnow [--dry-run | --json]`,
          sitemap: `SitemapAndIndexStream({ limit: ${LIMIT} }), SitemapStream({ hostname: '${BASE_URL}' }) → createGzip({ level: ${LEVEL} }) → file; write({ url, lastmod })`,
        },
        gnuTimeFormat: gnuTime ? GNU_TIME_FORMAT : undefined,
      },
      targets,
      ratios,
      results,
    };
    writeResults('build', run, render);
    return targets.every((t) => t.pass !== false);
  } finally {
    ctx.endpoint?.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function evaluate(results, changes, total) {
  const targets = [];
  const ratios = {};
  const { first, submit, sitemap } = results;
  if (first !== undefined) {
    targets.push({ name: `first build: every one of the ${fmtInt(total)} pages listed once, with lastmod = the build time (every run)`, pass: first.issues.length === 0, detail: first.issues.join('; ') });
  }
  if (submit !== undefined) {
    targets.push({ name: `first IndexNow submission: the endpoint received every listed URL once (${fmtInt(submit.urls)} URLs in ${submit.requests} POST${submit.requests === 1 ? "" : "s"})`, pass: submit.issues.length === 0, detail: submit.issues.join('; ') });
  }
  for (const name of ['scattered', 'sections']) {
    const r = results[name];
    if (r === undefined) continue;
    const label = SCENARIOS[name].label;
    targets.push({ name: `${label}: children rewritten = those holding changed pages (${r.written.length} of ${Object.keys(first.children).length}; expected ${r.expected.length}), and the index`, pass: r.filesOk, detail: r.fileIssues.join('; ') });
    targets.push({ name: `${label}: every other child untouched (same inode) and byte-identical`, pass: r.untouchedOk, detail: r.otherIssues.join('; ') });
    targets.push({ name: `${label}: lastmod moved to the rebuild time for exactly the ${fmtInt(changes)} changed pages, all pages listed, the changes counted`, pass: r.lastmodOk, detail: r.runIssues.join('; ') });
    targets.push({ name: `${label}: IndexNow payload = exactly the ${fmtInt(changes)} changed URLs (${fmtInt(r.dry.urls)} URLs, ${fmtInt(r.dry.payloadBytes)} bytes)`, pass: r.dry.ok, detail: r.dry.issues.join('; ') });
    if (first?.wallMs !== undefined) ratios[`${name}RebuildOverFirstBuild`] = r.wallMs / first.wallMs;
  }
  if (sitemap !== undefined) {
    if (sitemap.issues.length > 0) targets.push({ name: 'npm sitemap wrote every URL', pass: false, detail: sitemap.issues.join('; ') });
    if (first?.wallMs !== undefined) {
      ratios.firstBuildOverSitemap = first.wallMs / sitemap.wallMs;
      ratios.firstBuildOverSitemapProcess = first.wallMs / sitemap.processMs;
    }
  }
  return { targets, ratios };
}

function render(run) {
  const { results: res, settings, environment: env } = run;
  const lines = [
    '# bench:build',
    '',
    'Written by `bench/build.js` (`npm run bench:build`); do not edit by hand.',
    '',
    `${run.date} · Node ${env.node} · ${env.cpus} × ${env.cpuModel} · ${env.platform} · sitemap ${env.sitemap ?? '?'}${env.commit ? ` · sitemapkit ${env.commit}` : ''}`,
    '',
  ];
  if (res.site !== undefined) {
    lines.push(
      `The site (bench/lib/built-site.js, mulberry32 seed 0x${settings.seed.toString(16)}): ${fmtInt(settings.pages)} HTML pages, ${(res.site.bytes / 1e6).toFixed(0)} MB (${fmtInt(res.site.minBytes)}–${fmtInt(res.site.maxBytes)} bytes, mean ${fmtInt(res.site.bytes / res.site.files)}): the home page and 20 sections (${res.siteSections.map((s) => `${s.name} ${fmtInt(s.pages)}`).join(', ')}), each with a section index, topic indexes and pages. Each page: head with a self-canonical, header and 20-link navigation, an article of 3–9 paragraphs with links and 1–3 images, an aside, a footer; and build noise: the build id and time in a comment and an inline script, \`?v=BUILDID\` on the stylesheet and script, content-hashed asset names. Written in ${fmtS(res.site.ms)} s (setup, untimed), so the pages are in the OS page cache, as after a real build.`,
      '',
      `Steps: each is one process, timed from spawn to exit${env.gnuTime ? ' under GNU time (peak RSS: its %M; CPU: user + system)' : ' (peak RSS: its VmHWM)'}, Node startup included; "in-process" is the CLI's own durationMs. The first build runs with SOURCE_DATE_EPOCH=${settings.sourceDateEpoch.first} (${new Date(settings.sourceDateEpoch.first * 1000).toISOString()}) and \`--initial-lastmod now\`, the rebuilds with ${settings.sourceDateEpoch.rebuild}, each from the state after the first submission (restored from a copy). Before each rebuild every page is rewritten with a new build id and new asset hashes, and ${fmtInt(settings.changes)} pages (1%) get new content (one paragraph replaced): ${SCENARIOS.scattered.text} (a), or ${SCENARIOS.sections.text} (b). Best of ${settings.reps} run${settings.reps === 1 ? '' : 's'}.`,
      '',
    );
  }
  lines.push(
    '| step | wall (s) | in-process (s) | peak RSS (MB) | CPU (s) | children rewritten / expected | URLs in payload / expected | payload bytes | other load / steal (cores) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  const load = (r) => (r.backgroundCores !== undefined ? `${r.backgroundCores.toFixed(2)} / ${(r.stealCores ?? 0).toFixed(2)}` : '');
  const cpu = (r) => (r.childCpuMs !== undefined ? fmtS(r.childCpuMs) : '');
  const wall = (r) => fmtS(r.wallMs) + (r.runs > 1 ? ` (median ${fmtS(r.medianWallMs)}, spread ${(r.spread * 100).toFixed(0)}%)` : '');
  const row = (cells) => lines.push(`| ${cells.join(' | ')} |`);
  if (res.site !== undefined) row([`site written (${fmtInt(res.site.files)} pages; setup, untimed)`, fmtS(res.site.ms), '', '', '', '', '', '', '']);
  const children = res.first !== undefined ? Object.keys(res.first.children).length : undefined;
  if (res.first !== undefined) row(['**first build**', wall(res.first), fmtS(res.first.inProcessMs), fmtMB(res.first.peakRssKiB), cpu(res.first), `${children} / ${children} + index`, '', '', load(res.first)]);
  if (res.submit !== undefined) row([`first IndexNow submission (fake endpoint; ${res.submit.requests} POST${res.submit.requests === 1 ? "" : "s"})`, fmtS(res.submit.wallMs), '', fmtMB(res.submit.peakRssKiB), cpu(res.submit), '', `${fmtInt(res.submit.urls)} / ${fmtInt(settings.pages)}`, fmtInt(res.submit.payloadBytes), load(res.submit)]);
  for (const name of ['scattered', 'sections']) {
    const r = res[name];
    if (r === undefined) continue;
    const label = SCENARIOS[name].label;
    row([`${label}: every page rewritten, ${fmtInt(r.changed)} changed (setup, untimed)`, fmtS(r.rewriteMs), '', '', '', '', '', '', '']);
    row([`**${label}: rebuild**`, wall(r), fmtS(r.inProcessMs), fmtMB(r.peakRssKiB), cpu(r), `${r.written.length} / ${r.expected.length}${r.filesOk ? ' + index' : ''}`, '', '', load(r)]);
    row([`${label}: indexnow --dry-run`, fmtS(r.dry.wallMs), '', fmtMB(r.dry.peakRssKiB), cpu(r.dry), '', `${fmtInt(r.dry.urls)} / ${fmtInt(r.changed)} (${r.dry.payloads} payload${r.dry.payloads === 1 ? '' : 's'})`, fmtInt(r.dry.payloadBytes), load(r.dry)]);
  }
  if (res.sitemap !== undefined) {
    const s = res.sitemap;
    row([`npm sitemap ${env.sitemap}: the same ${fmtInt(s.urls)} URLs + lastmod (writing; process ${fmtS(s.processMs)} s)`, wall(s), '', fmtMB(s.peakRssKiB), cpu(s), `${s.files - 1} + index`, '', '', load(s)]);
  }
  const ratio = (x) => (x === undefined ? '' : `${x.toFixed(2)}×`);
  const r = run.ratios;
  lines.push('');
  if (r.firstBuildOverSitemap !== undefined) {
    lines.push(`- first build ÷ npm sitemap: **${ratio(r.firstBuildOverSitemap)}** (its writing alone; ${ratio(r.firstBuildOverSitemapProcess)} against its whole process). No target: the build walks, reads, decodes, parses and hashes ${fmtInt(settings.pages)} pages (${res.site !== undefined ? `${(res.site.bytes / 1e6).toFixed(0)} MB` : ''}) and keeps a state; the peer is handed the URLs.`);
  }
  for (const name of ['scattered', 'sections']) if (r[`${name}RebuildOverFirstBuild`] !== undefined) lines.push(`- ${SCENARIOS[name].label}: rebuild ÷ first build: ${ratio(r[`${name}RebuildOverFirstBuild`])}`);
  if (res.first !== undefined) lines.push(`- first build's children: ${Object.entries(res.first.children).map(([f, n]) => `${f} (${fmtInt(n)})`).join(', ')}; ${(res.first.diskBytes / 1e6).toFixed(2)} MB on disk with the index.`);
  for (const name of ['scattered', 'sections']) {
    const s = res[name];
    if (s === undefined) continue;
    lines.push(`- ${SCENARIOS[name].label}: changed pages by section: ${Object.entries(s.changedBySection).map(([k, n]) => `${k} ${fmtInt(n)}`).join(', ')}; rewritten: ${s.written.join(', ') || 'none'}.`);
  }
  lines.push('', 'Targets (issue 6): only the children holding changed pages are rewritten; the IndexNow payload holds only the changed URLs.', '');
  for (const t of run.targets) lines.push(`- ${t.name}: **${t.pass === null ? 'NOT MEASURED' : t.pass ? 'PASS' : 'FAIL'}**${!t.pass && t.detail ? ` — ${t.detail}` : ''}`);
  const busy = [];
  for (const [name, x] of Object.entries(res)) if ((x?.backgroundCores ?? 0) + (x?.stealCores ?? 0) > 0.25) busy.push(`${name} (${(x.backgroundCores + (x.stealCores ?? 0)).toFixed(1)} cores)`);
  if (busy.length > 0) lines.push(`- **noisy**: other processes or the hypervisor were busy during ${busy.join(', ')}; rerun on an idle machine for figures to compare.`);
  return lines.join('\n') + '\n';
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.child !== undefined) return runPeerChild(args);
  if (!(await runParent(args))) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 2;
});
