#!/usr/bin/env node
// bench:diff — `sitemapkit diff OLD NEW` (the whole command, node dist/cli/bin.cjs) on two realistic
// sets (bench/lib/realistic.js: query strings, both date forms, some images and hreflang), each an
// index and gzipped children of 50,000 URLs. NEW differs from OLD in about 1.2% of its URLs: every
// 100th URL has another lastmod, every 1000th is gone and another one is new. Wall time and peak
// RSS (GNU time, else the process's VmHWM) at two sizes, 100,000 and 1,000,000 URLs by default,
// and a straight-line projection through them to 10,000,000 URLs (the issue's target: the diff of
// two 1,000,000-URL sets in under 10 s; memory bounded for two 10,000,000-URL sets). The projection
// of memory is high: the reader's buffers of finished files wait for the garbage collector, a cost
// that stops growing. So the fingerprint table is also measured alone at 10,000,000 URLs a side
// (NEW added, OLD matched against it: 1% changed, 0.1% replaced), in a process of its own.
//
//   npm run bench:diff                     both sizes, 3 runs each (a few minutes, most of it gzip)
//   node bench/diff.js --sizes 1000000 --reps 1
//   node bench/diff.js --dir /tmp/x        keep the generated sets there (reused when present)
//
// Results: bench/results/diff.json and bench/results/diff.md. Exit 1 when a target fails, 2 on errors
// (the diff's counts not the ones the generator made included).
// Runs the BUILT CLI (dist/): run `npm run build` first (npm run bench:diff does).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BASE_URL } from './lib/entries.js';
import { RESULT_TAG, argumentReader, check, environment, exitWithUsage, mb, median, probeGnuTime, runTimedCommand, waitForQuiet, writeResults } from './lib/harness.js';
import { REALISTIC_SEED, realisticSitemap } from './lib/realistic.js';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = join(dirname(SCRIPT), '..');
const BIN = join(ROOT, 'dist', 'cli', 'bin.cjs');
const PER_CHILD = 50_000;
const PROJECTED = 10_000_000;
const TARGETS = { wallMs1M: 10_000 };

const USAGE = `Usage: node bench/diff.js [--sizes 100000,1000000] [--reps 3] [--dir DIR] [--no-table]`;

function parseArgs(argv) {
  const args = { sizes: [100_000, 1_000_000], reps: 3, dir: undefined, table: true };
  const usage = (problem) => exitWithUsage('diff.js', USAGE, problem);
  const reader = argumentReader(argv, usage);
  for (let flag = reader.next(); flag !== undefined; flag = reader.next()) {
    if (flag === '--sizes') args.sizes = reader.list().map((s) => Number(s.replace(/_/g, '')));
    else if (flag === '--reps') args.reps = reader.count();
    else if (flag === '--dir') args.dir = reader.value();
    else if (flag === '--no-table') args.table = false;
    else if (flag === '--help') usage();
    else usage(`unknown option ${flag}`);
  }
  if (args.sizes.some((n) => !Number.isInteger(n) || n < PER_CHILD || n % PER_CHILD !== 0)) usage(`--sizes must be multiples of ${PER_CHILD}`);
  return args;
}

/**
 * Writes OLD and NEW sets of `n` URLs under `dir` (index sitemap.xml, children sitemap-C.xml.gz) and
 * returns the differences made. Child C's URLs sit under BASE_URL/cC/, so that they are unique.
 */
function writeSets(dir, n) {
  const made = { added: 0, removed: 0, changed: 0 };
  const children = n / PER_CHILD;
  for (const name of ['old', 'new']) mkdirSync(join(dir, name), { recursive: true });
  let k = 0;
  for (let c = 0; c < children; c++) {
    const xml = realisticSitemap(PER_CHILD, REALISTIC_SEED + c).replaceAll(BASE_URL, `${BASE_URL}c${c}/`);
    // The <url> elements, each with the text before it (comments, indentation), and the closing tag.
    const parts = xml.split(/(?= {2}<url>\n)/);
    const head = parts.shift();
    const out = [head];
    for (const part of parts) {
      const element = part.includes('</urlset>') ? part.slice(0, part.indexOf('</urlset>')) : part;
      const tail = part.slice(element.length);
      let next = element;
      if (k % 1000 === 13) {
        next = '';
        made.removed++;
      } else if (k % 100 === 7) {
        next = /<lastmod>[^<]*<\/lastmod>/.test(element) ? element.replace(/<lastmod>[^<]*<\/lastmod>/, '<lastmod>2026-01-01</lastmod>') : element.replace('</loc>\n', '</loc>\n    <lastmod>2026-01-01</lastmod>\n');
        made.changed++;
      } else if (k % 1000 === 17) {
        next = element + element.replace(/<loc>([^<]*)<\/loc>/, (_, loc) => `<loc>${loc.includes('?') ? `${loc}&amp;v=2` : `${loc}-v2`}</loc>`);
        made.added++;
      }
      out.push(next + tail);
      k++;
    }
    writeFileSync(join(dir, 'old', `sitemap-${c}.xml.gz`), gzipSync(xml, { level: 6 }));
    writeFileSync(join(dir, 'new', `sitemap-${c}.xml.gz`), gzipSync(out.join(''), { level: 6 }));
  }
  const index = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from({ length: children }, (_, c) => `  <sitemap><loc>${BASE_URL}sitemap-${c}.xml.gz</loc></sitemap>\n`).join('')}</sitemapindex>\n`;
  for (const name of ['old', 'new']) writeFileSync(join(dir, name, 'sitemap.xml'), index);
  return made;
}

/** The child of the table measurement: NEW's and OLD's `n` URLs through the table, no I/O. */
async function tableChild(n) {
  const { UrlDiffTable, fingerprintFields, locFingerprint } = await import(pathToFileURL(join(ROOT, 'dist', 'core', 'url-diff.js')).href);
  const { FINGERPRINT } = await import(pathToFileURL(join(ROOT, 'dist', 'core', 'fingerprint.js')).href);
  const table = new UrlDiffTable();
  const pass = (old, step) => {
    for (let i = 0; i < n; i++) {
      const entry = { loc: `${BASE_URL}p/${old && i % 1000 === 1 ? 'gone-' : ''}${i}`, lastmod: old && i % 100 === 0 ? '2024-02-01' : '2024-01-01' };
      const loc = locFingerprint(entry.loc);
      const hash1 = loc[0];
      const hash2 = loc[1];
      fingerprintFields(entry);
      step(hash1, hash2, FINGERPRINT[0], FINGERPRINT[1]);
    }
  };
  pass(false, (a, b, c, d) => table.addNew(a, b, c, d));
  pass(true, (a, b, c, d) => table.matchOld(a, b, c, d));
  check(table.changed === n / 100 && table.oldUrls === n && table.newUrls === n, `table: ${table.changed} changed, ${table.oldUrls} and ${table.newUrls} URLs`);
  console.log(`${RESULT_TAG}${JSON.stringify({ urls: n, changed: table.changed, oldUrls: table.oldUrls, newUrls: table.newUrls })}`);
}

async function main() {
  if (process.argv[2] === '--child-table') return tableChild(Number(process.argv[3]));
  const args = parseArgs(process.argv.slice(2));
  check(existsSync(BIN), `${BIN} is missing: run npm run build first`);
  const gnuTime = probeGnuTime();
  const root = args.dir ?? mkdtempSync(join(tmpdir(), 'sitemapkit-bench-diff-'));
  const rows = [];
  try {
    for (const n of args.sizes) {
      const dir = join(root, String(n));
      const madePath = join(dir, 'made.json');
      let made;
      if (existsSync(madePath)) made = JSON.parse(readFileSync(madePath, 'utf8'));
      else {
        console.error(`writing two ${n.toLocaleString('en-US')}-URL sets in ${dir} ...`);
        mkdirSync(dir, { recursive: true });
        made = writeSets(dir, n);
        writeFileSync(madePath, JSON.stringify(made));
      }
      const runs = [];
      for (let r = 0; r < args.reps; r++) {
        await waitForQuiet(30_000);
        const run = await runTimedCommand([process.execPath, BIN, 'diff', 'old', 'new', '--format', 'json'], { gnuTime, cwd: dir, label: `diff ${n}`, killAfterMs: 600_000 });
        check(run.exitCode === 1, `diff ${n}: exit ${run.exitCode} ${run.stderr}`);
        const report = JSON.parse(run.stdout);
        check(report.added === made.added && report.removed === made.removed && report.changed === made.changed, `diff ${n}: ${report.added}/${report.removed}/${report.changed} found, ${made.added}/${made.removed}/${made.changed} made`);
        check(report.oldUrls === n && report.newUrls === n - made.removed + made.added, `diff ${n}: ${report.oldUrls} and ${report.newUrls} URLs`);
        console.error(`  ${n}: ${(run.wallMs / 1000).toFixed(2)} s, ${mb(run.peakRssKiB).toFixed(0)} MB`);
        runs.push(run);
      }
      const walls = runs.map((r) => r.wallMs);
      rows.push({ urls: n, made, bestMs: Math.min(...walls), medianMs: median(walls), peakRssMB: Math.max(...runs.map((r) => mb(r.peakRssKiB))), backgroundCores: Math.max(...runs.map((r) => r.backgroundCores ?? 0)) });
    }
  } finally {
    if (args.dir === undefined) rmSync(root, { recursive: true, force: true });
  }
  let table = null;
  if (args.table) {
    await waitForQuiet(30_000);
    const measured = await runTimedCommand([process.execPath, SCRIPT, '--child-table', String(PROJECTED)], { gnuTime, cwd: ROOT, label: 'table', killAfterMs: 600_000 });
    check(measured.exitCode === 0, `table: exit ${measured.exitCode} ${measured.stderr}`);
    table = { urls: PROJECTED, wallMs: measured.wallMs, peakRssMB: mb(measured.peakRssKiB) };
    console.error(`  table of ${PROJECTED}: ${(measured.wallMs / 1000).toFixed(2)} s, ${table.peakRssMB.toFixed(0)} MB`);
  }
  const run = { date: new Date().toISOString(), environment: environment(), gnuTime, reps: args.reps, rows, projection: project(rows), table, targets: TARGETS };
  const oneMillion = rows.find((r) => r.urls === 1_000_000);
  run.targetsMet = oneMillion === undefined ? null : oneMillion.bestMs < TARGETS.wallMs1M;
  writeResults('diff', run, render);
  if (run.targetsMet === false) process.exitCode = 1;
}

/** A straight line through the two largest sizes, to PROJECTED URLs (median time, peak RSS). */
function project(rows) {
  if (rows.length < 2) return null;
  const [a, b] = rows.slice(-2);
  const at = (ya, yb) => yb + ((yb - ya) / (b.urls - a.urls)) * (PROJECTED - b.urls);
  return { urls: PROJECTED, medianMs: at(a.medianMs, b.medianMs), peakRssMB: at(a.peakRssMB, b.peakRssMB), rssPerUrlBytes: ((b.peakRssMB - a.peakRssMB) * 1e6) / (b.urls - a.urls) };
}

function render(run) {
  const lines = [
    '# bench:diff',
    '',
    'Written by `bench/diff.js` (`npm run bench:diff`); do not edit by hand.',
    '',
    `${run.date} · Node ${run.environment.node} · ${run.environment.cpus} × ${run.environment.cpuModel} · ${run.environment.platform}`,
    '',
    `\`sitemapkit diff old new --format json\` (the whole command, from spawn to exit), ${run.reps} run(s) per size. Each set: an index and gzipped children of ${PER_CHILD.toLocaleString('en-US')} realistic URLs (bench/lib/realistic.js). NEW: every 100th URL with another lastmod, every 1000th gone, every 1000th followed by a new one. Peak RSS: ${run.gnuTime ? 'GNU time (%M)' : "the process's VmHWM"}, the highest of the runs.`,
    '',
    '| URLs per set | added | removed | changed | best (s) | median (s) | peak RSS (MB) | other load (cores) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...run.rows.map((r) => `| ${r.urls.toLocaleString('en-US')} | ${r.made.added.toLocaleString('en-US')} | ${r.made.removed.toLocaleString('en-US')} | ${r.made.changed.toLocaleString('en-US')} | ${(r.bestMs / 1000).toFixed(2)} | ${(r.medianMs / 1000).toFixed(2)} | ${r.peakRssMB.toFixed(0)} | ${r.backgroundCores.toFixed(2)} |`),
  ];
  if (run.projection !== null) {
    const p = run.projection;
    lines.push('', `Projected to ${p.urls.toLocaleString('en-US')} URLs per set (a straight line through the two largest sizes): ${(p.medianMs / 1000).toFixed(0)} s, peak RSS ${p.peakRssMB.toFixed(0)} MB (${p.rssPerUrlBytes.toFixed(0)} bytes a URL).`);
  }
  if (run.table !== null) {
    lines.push('', `The fingerprint table alone (core/url-diff.ts), ${run.table.urls.toLocaleString('en-US')} URLs a side through it, no I/O, in a process of its own: peak RSS ${run.table.peakRssMB.toFixed(0)} MB (Node's own ~45 MB included), ${(run.table.wallMs / 1000).toFixed(1)} s.`);
  }
  if (run.targetsMet !== null) lines.push('', `Target: two 1,000,000-URL sets in under ${TARGETS.wallMs1M / 1000} s: ${run.targetsMet ? 'met' : 'NOT met'}.`);
  return lines.join('\n') + '\n';
}

main().catch((error) => {
  console.error(error.message);
  process.exit(2);
});
