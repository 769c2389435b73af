#!/usr/bin/env node
// bench:report — `sitemapkit report` (the whole command, node dist/cli/bin.cjs) on a realistic set of
// 1,000,000 URLs (bench/lib/realistic.js shapes: query strings, both date forms, some images and
// hreflang) written by `sitemapkit generate` from JSON Lines: an index and 20 gzipped children. The
// issue's targets (26): the report written in < 15 s with a peak RSS < 300 MB, an HTML file < 40 MB;
// `sitemapkit diff` of two such sets (the second with every 100th lastmod changed, every 1000th URL
// gone and another new) in < 10 s. The page's own figures (first paint, filter) are measured in the
// browser, elsewhere. Informational: `report --compare` (the report and the diff in one run).
//
//   npm run bench:report                   (generating the sets takes a minute or two)
//   node bench/report.js --urls 100000 --dir /tmp/x   a smaller set; keep the sets there (reused)
//
// Results: bench/results/report.json and report.md. Exit 1 when a target fails, 2 on errors (counts in
// the report or the diff other than the ones the generator made included).
// Runs the BUILT CLI (dist/): run `npm run build` first (npm run bench:report does).

import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { BASE_URL, mulberry32 } from './lib/entries.js';
import { argumentReader, check, environment, exitWithUsage, mb, probeGnuTime, runTimedCommand, waitForQuiet, writeResults } from './lib/harness.js';
import { REALISTIC_SEED, nextRealisticEntry } from './lib/realistic.js';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = join(dirname(SCRIPT), '..');
const BIN = join(ROOT, 'dist', 'cli', 'bin.cjs');
const TARGETS = { reportMs: 15_000, reportPeakRssMB: 300, htmlMB: 40, diffMs: 10_000 };
const USAGE = 'Usage: node bench/report.js [--urls 1000000] [--dir DIR]';

function parseArgs(argv) {
  const args = { urls: 1_000_000, dir: undefined };
  const usage = (problem) => exitWithUsage('report.js', USAGE, problem);
  const reader = argumentReader(argv, usage);
  for (let flag = reader.next(); flag !== undefined; flag = reader.next()) {
    if (flag === '--urls') args.urls = reader.count();
    else if (flag === '--dir') args.dir = reader.value();
    else if (flag === '--help') usage();
    else usage(`unknown option ${flag}`);
  }
  return args;
}

/**
 * Writes old.jsonl and new.jsonl of `n` realistic entries; NEW: every 100th lastmod changed, every
 * 1000th entry gone and another one new. Returns what was made.
 */
async function writeLists(dir, n) {
  const made = { added: 0, removed: 0, changed: 0, newUrls: 0 };
  const rand = mulberry32(REALISTIC_SEED);
  const old = createWriteStream(join(dir, 'old.jsonl'));
  const next = createWriteStream(join(dir, 'new.jsonl'));
  const write = async (stream, text) => {
    if (!stream.write(text)) await once(stream, 'drain');
  };
  for (let i = 0; i < n; i++) {
    const entry = nextRealisticEntry(i, rand);
    const line = `${JSON.stringify(entry)}\n`;
    await write(old, line);
    if (i % 1000 === 13) {
      made.removed++;
      continue;
    }
    if (i % 100 === 7) {
      made.changed++;
      await write(next, `${JSON.stringify({ ...entry, lastmod: '2026-01-01' })}\n`);
    } else await write(next, line);
    made.newUrls++;
    if (i % 1000 === 17) {
      made.added++;
      made.newUrls++;
      await write(next, `${JSON.stringify({ ...entry, loc: `${entry.loc}${entry.loc.includes('?') ? '&' : '?'}v=2`, alternates: undefined })}\n`);
    }
  }
  old.end();
  next.end();
  await Promise.all([once(old, 'close'), once(next, 'close')]);
  return made;
}

/** The embedded model and the number of rows of a report file. */
function readReport(path) {
  const html = readFileSync(path, 'utf8');
  const model = JSON.parse(/<script type="application\/json" id="sitemapkit-model">([^<]*)<\/script>/.exec(html)[1]);
  const rows = gunzipSync(Buffer.from(/<script type="application\/gzip" id="sitemapkit-rows">([^<]*)<\/script>/.exec(html)[1], 'base64'));
  let lines = 0;
  for (let at = rows.indexOf(10); at !== -1; at = rows.indexOf(10, at + 1)) lines++;
  return { model, rows: lines };
}

async function timed(argv, cwd, label) {
  await waitForQuiet(30_000);
  const run = await runTimedCommand([process.execPath, BIN, ...argv], { gnuTime: probeGnuTime(), cwd, label, killAfterMs: 600_000 });
  console.error(`  ${label}: ${(run.wallMs / 1000).toFixed(2)} s, ${mb(run.peakRssKiB).toFixed(0)} MB, exit ${run.exitCode}`);
  return run;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  check(existsSync(BIN), `${BIN} is missing: run npm run build first`);
  const root = args.dir ?? mkdtempSync(join(tmpdir(), 'sitemapkit-bench-report-'));
  const n = args.urls;
  try {
    mkdirSync(root, { recursive: true });
    const madePath = join(root, `made-${n}.json`);
    let made;
    if (existsSync(madePath)) made = JSON.parse(readFileSync(madePath, 'utf8'));
    else {
      console.error(`writing two lists of ${n.toLocaleString('en-US')} URLs and their sets (sitemapkit generate) in ${root} ...`);
      made = await writeLists(root, n);
      for (const name of ['old', 'new']) {
        rmSync(join(root, name), { recursive: true, force: true });
        const generated = await runTimedCommand([process.execPath, BIN, 'generate', `${name}.jsonl`, '--base-url', BASE_URL, '--out', name, '-q'], { gnuTime: false, cwd: root, label: `generate ${name}`, killAfterMs: 600_000 });
        check(generated.exitCode === 0, `generate ${name}: exit ${generated.exitCode} ${generated.stderr}`);
      }
      writeFileSync(madePath, JSON.stringify(made));
    }
    const report = await timed(['report', 'new', '--out', 'report.html', '-q'], root, 'report');
    check(report.exitCode === 0, `report: exit ${report.exitCode} ${report.stderr}`);
    const html = join(root, 'report.html');
    const htmlBytes = statSync(html).size;
    const { model, rows } = readReport(html);
    check(model.summary.urls === made.newUrls && rows === made.newUrls, `report: ${model.summary.urls} URLs and ${rows} rows, ${made.newUrls} made`);
    const children = model.files.filter((f) => f.kind === 'urlset').length;
    const diff = await timed(['diff', 'old', 'new', '--format', 'json'], root, 'diff');
    check(diff.exitCode === 1, `diff: exit ${diff.exitCode} ${diff.stderr}`);
    const found = JSON.parse(diff.stdout);
    check(found.added === made.added && found.removed === made.removed && found.changed === made.changed, `diff: ${found.added}/${found.removed}/${found.changed} found, ${made.added}/${made.removed}/${made.changed} made`);
    const compared = await timed(['report', 'new', '--compare', 'old', '--out', 'compared.html', '-q'], root, 'report --compare');
    check(compared.exitCode === 0, `report --compare: exit ${compared.exitCode} ${compared.stderr}`);
    const { compare } = readReport(join(root, 'compared.html')).model;
    check(compare.added === made.added && compare.removed === made.removed && compare.changed === made.changed, `report --compare: ${compare.added}/${compare.removed}/${compare.changed} found`);
    const row = (run) => ({ wallMs: run.wallMs, peakRssMB: mb(run.peakRssKiB), backgroundCores: run.backgroundCores ?? null });
    const run = {
      date: new Date().toISOString(),
      environment: environment(),
      settings: { urls: n, children, made, seed: REALISTIC_SEED },
      report: { ...row(report), htmlBytes, rows, problems: model.problems.map((p) => [p.code, p.count]) },
      diff: row(diff),
      reportCompare: row(compared),
      targets: TARGETS,
    };
    run.targetsMet = n !== 1_000_000 ? null : run.report.wallMs < TARGETS.reportMs && run.report.peakRssMB < TARGETS.reportPeakRssMB && htmlBytes / 1e6 < TARGETS.htmlMB && run.diff.wallMs < TARGETS.diffMs;
    writeResults('report', run, render);
    if (run.targetsMet === false) process.exitCode = 1;
  } finally {
    if (args.dir === undefined) rmSync(root, { recursive: true, force: true });
  }
}

function render(run) {
  const { settings: s, report: r, diff: d, reportCompare: c, targets: t } = run;
  const secs = (ms) => (ms / 1000).toFixed(2);
  const verdict = (ok) => (ok ? 'PASS' : '**FAIL**');
  return [
    '# bench:report',
    '',
    'Written by `bench/report.js` (`npm run bench:report`); do not edit by hand.',
    '',
    `${run.date} · Node ${run.environment.node} · ${run.environment.cpus} × ${run.environment.cpuModel} · ${run.environment.platform}`,
    '',
    `The set: ${s.urls.toLocaleString('en-US')} URLs of realistic shapes (bench/lib/realistic.js: query strings, lastmod as a date or a date-time, 10% with an image, 10% with four hreflang alternates) written by \`sitemapkit generate\` from JSON Lines: an index and ${s.children} gzipped children. The previous version: every 100th lastmod other, every 1000th URL gone and another new (${s.made.added} added, ${s.made.removed} removed, ${s.made.changed} changed). Each command whole, from spawn to exit; peak RSS by GNU time (%M).`,
    '',
    '| command | wall (s) | peak RSS (MB) | other load (cores) |',
    '| --- | ---: | ---: | ---: |',
    `| \`report new --out report.html\` | ${secs(r.wallMs)} | ${r.peakRssMB.toFixed(0)} | ${(r.backgroundCores ?? 0).toFixed(2)} |`,
    `| \`diff old new --format json\` | ${secs(d.wallMs)} | ${d.peakRssMB.toFixed(0)} | ${(d.backgroundCores ?? 0).toFixed(2)} |`,
    `| \`report new --compare old\` | ${secs(c.wallMs)} | ${c.peakRssMB.toFixed(0)} | ${(c.backgroundCores ?? 0).toFixed(2)} |`,
    '',
    `The report: ${(r.htmlBytes / 1e6).toFixed(1)} MB of HTML, ${r.rows.toLocaleString('en-US')} rows; problems found: ${r.problems.length === 0 ? 'none' : r.problems.map(([code, count]) => `${code} ${count}`).join(', ')}.`,
    '',
    `- report written in < ${t.reportMs / 1000} s: ${secs(r.wallMs)} s — ${verdict(r.wallMs < t.reportMs)}`,
    `- report peak RSS < ${t.reportPeakRssMB} MB: ${r.peakRssMB.toFixed(0)} MB — ${verdict(r.peakRssMB < t.reportPeakRssMB)}`,
    `- HTML < ${t.htmlMB} MB: ${(r.htmlBytes / 1e6).toFixed(1)} MB — ${verdict(r.htmlBytes / 1e6 < t.htmlMB)}`,
    `- diff of two such sets < ${t.diffMs / 1000} s: ${secs(d.wallMs)} s — ${verdict(d.wallMs < t.diffMs)}`,
    '',
  ].join('\n');
}

main().catch((error) => {
  console.error(error.message);
  process.exit(2);
});
