#!/usr/bin/env node
// bench:report-page — the report page of a 1,000,000-URL set in headless Chromium (issue 26: first
// paint < 3 s, a filter over 1,000,000 rows answered in < 200 ms, measured in the browser).
// The page is built by dist/core/report/page.js from a model and rows made here, with the shapes of
// bench/lib/realistic.js (query strings, both date forms, some images and hreflang, 20 files under
// an index); or, with --report FILE, a report `sitemapkit report` wrote (bench/report.js's).
// Measured in the page, each run in a fresh page:
//   first paint          first-contentful-paint (the sections drawn from the model)
//   table ready          the rows unpacked (base64 → gzip → TSV), indexed, the first page drawn
//   filter               time of the input handler (match every row, draw the page), per query
//   sort                 the first sort by URL (informational: no target)
//
//   npm run bench:report-page                 1,000,000 rows, 3 runs
//   node bench/report-page.js --urls 100000 --reps 1
//   node bench/report-page.js --report /tmp/report.html
//
// Results: bench/results/report-page.json and .md. Exit 1 when a target fails.
// Uses Debian's chromium (CHROMIUM to name another) through playwright-core; `npm run build` first.
/* global document, performance -- the functions given to page.evaluate run in the page */

import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { BASE_URL, CHANGEFREQS, mulberry32 } from './lib/entries.js';
import { argumentReader, environment, exitWithUsage, median, waitForQuiet, writeResults } from './lib/harness.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = { firstPaintMs: 3000, filterMs: 200 };
const FILES = 20;
const USAGE = 'Usage: node bench/report-page.js [--urls 1000000] [--reps 3] [--report FILE]';

function parseArgs(argv) {
  const args = { urls: 1_000_000, reps: 3, report: undefined };
  const reader = argumentReader(argv, (problem) => exitWithUsage('report-page.js', USAGE, problem));
  for (let flag = reader.next(); flag !== undefined; flag = reader.next()) {
    if (flag === '--urls') args.urls = reader.count();
    else if (flag === '--reps') args.reps = reader.count();
    else if (flag === '--report') args.report = reader.value();
    else if (flag === '--help') exitWithUsage('report-page.js', USAGE);
    else exitWithUsage('report-page.js', USAGE, `unknown argument ${flag}`);
  }
  return args;
}

const SECTIONS = ['products', 'blog', 'news', 'category', 'search', 'help', 'store', 'tag'];
const WORDS = ['garden', 'kitchen', 'outdoor', 'summer', 'winter', 'sale', 'review', 'guide', 'shoes', 'laptops', 'travel'];
const pad = (n) => String(n).padStart(2, '0');

/** TSV rows (model.ts ROW_FIELDS) shaped like bench/lib/realistic.js's entries, in 20 files (1..20). */
function rows(count) {
  const rand = mulberry32(0x7ea1_5171);
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    let loc = `${BASE_URL}${SECTIONS[i % SECTIONS.length]}/${WORDS[Math.floor(rand() * WORDS.length)]}-${i.toString(36)}`;
    if (rand() < 0.3) loc += `?id=${Math.floor(rand() * 10_000)}&sort=${i % 3}`;
    const t = new Date(Date.UTC(2019, 0, 1) + Math.floor(rand() * 6 * 365 * 86_400) * 1000);
    const date = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
    const lastmod = rand() < 0.1 ? '' : rand() < 0.4 ? date : `${date}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:00+01:00`;
    const file = 1 + Math.floor((i * FILES) / count);
    out[i] = `${loc}\t${lastmod}\t${file}\t${rand() < 0.6 ? CHANGEFREQS[i % 7] : ''}\t${rand() < 0.7 ? '0.5' : ''}\t${i % 10 === 3 ? 1 : 0}\t${i % 10 === 7 ? 4 : 0}\t${i % 5000 === 0 ? 'w' : ''}`;
  }
  return out;
}

function model(count) {
  const per = Math.ceil(count / FILES);
  const files = [{ parent: -1, name: 'sitemap_index.xml', kind: 'sitemapindex', entries: FILES, bytes: 2000, plainBytes: 2000, gzipped: false, errors: 0, warnings: 0 }];
  for (let f = 1; f <= FILES; f++) files.push({ parent: 0, name: `sitemap-${f}.xml.gz`, kind: 'urlset', entries: per, bytes: per * 40, plainBytes: per * 200, gzipped: true, errors: 0, warnings: 0 });
  return {
    source: 'bench', generatedAt: new Date().toISOString(), sitemapkitVersion: 'bench', files,
    summary: { files: FILES + 1, urls: count, distinctUrls: count, bytes: count * 40, plainBytes: count * 200, errors: 0, warnings: 0, schema: 'valid', largestFileUrls: per, largestFilePlainBytes: per * 200 },
    problems: [], directories: SECTIONS.map((s) => ({ prefix: `/${s}/`, urls: Math.round(count / SECTIONS.length) })),
    freshness: { byMonth: Array.from({ length: 72 }, (_, m) => ({ month: `${2019 + Math.floor(m / 12)}-${pad((m % 12) + 1)}`, urls: Math.round((count * 0.9) / 72) })), future: 0, missing: Math.round(count / 10), changefreq: [], priority: [] },
    extensions: { urlsWithImages: count / 10, images: count / 10, imagesPerUrl: [count / 10, 0, 0, 0, 0, 0, 0, 0, 0, 0], videos: 0, news: 0, newsAge: { recent: 0, month: 0, older: 0 }, hreflangUrls: count / 10, hreflangGroups: count / 10, hreflangProblems: { count: 0, examples: [] } },
    duplicates: { count: 0, inSeveralFiles: 0, examples: [] },
  };
}

async function writeSyntheticReport(path, count) {
  const { reportPageParts } = await import(pathToFileURL(join(ROOT, 'dist', 'core', 'report', 'page.js')).href);
  const lines = rows(count);
  const { head, tail } = reportPageParts(model(count));
  writeFileSync(path, head + gzipSync(lines.join('\n') + '\n').toString('base64') + tail);
  return lines;
}

async function measure(browser, url, queries) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.route('**', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForSelector('html[data-rows]', { timeout: 120_000 });
  if ((await page.getAttribute('html', 'data-rows')) !== 'ready') throw new Error(`the rows were not unpacked: ${await page.textContent('#url-status')} ${errors.join(' ')}`);
  const [firstPaintMs, readyMs] = await page.evaluate(() => [
    performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    performance.getEntriesByName('sitemapkit-rows-ready')[0]?.startTime ?? NaN,
  ]);
  const total = Number((/ of ([\d,]+)\.$/.exec(await page.textContent('#url-status') ?? '')?.[1] ?? 'NaN').replace(/,/g, ''));
  const filters = {};
  for (const query of queries) {
    await page.fill('#url-filter', query);
    filters[query] = { ms: Number(await page.getAttribute('#url-table', 'data-filter-milliseconds')), status: await page.textContent('#url-status') };
  }
  await page.fill('#url-filter', '');
  const sortStart = Date.now();
  await page.click('#url-table thead button >> text=URL');
  await page.waitForFunction(() => document.querySelector('#url-table thead th')?.getAttribute('aria-sort') === 'ascending' && !document.querySelector('#url-status')?.textContent?.startsWith('Sorting'), undefined, { timeout: 120_000 });
  const sortMs = Date.now() - sortStart;
  await page.close();
  if (errors.length > 0) throw new Error(`page errors: ${errors.join(' ')}`);
  return { total, firstPaintMs, readyMs, filters, sortMs };
}

function render(run) {
  const r = run.result;
  const lines = [
    '# bench:report-page', '', 'Written by `bench/report-page.js` (`npm run bench:report-page`); do not edit by hand.', '',
    `${run.date} · Node ${run.environment.node} · ${run.environment.cpus} × ${run.environment.cpuModel.split(' ').slice(0, 2).join(' ')} · ${run.browser}`, '',
    `The report page of ${r.urls.toLocaleString('en-US')} URLs (${r.source}), ${(r.htmlBytes / 1e6).toFixed(1)} MB of HTML, opened from file:// in headless Chromium, ${r.runs.length} run(s) in a fresh page each; medians. Times are the page's own (performance entries, the filter's input handler).`, '',
    '| measure | median (ms) | runs (ms) | target |', '| --- | ---: | ---: | --- |',
    `| first contentful paint | ${r.firstPaintMs.toFixed(0)} | ${r.runs.map((x) => x.firstPaintMs.toFixed(0)).join(', ')} | < ${TARGETS.firstPaintMs} |`,
    `| table ready (rows unpacked, first page drawn) | ${r.readyMs.toFixed(0)} | ${r.runs.map((x) => x.readyMs.toFixed(0)).join(', ')} | |`,
    ...Object.keys(r.runs[0].filters).map((q) => `| filter \`${q}\` (${r.runs[0].filters[q].status.replace(/\|/g, '\\|')}) | ${median(r.runs.map((x) => x.filters[q].ms)).toFixed(1)} | ${r.runs.map((x) => x.filters[q].ms.toFixed(1)).join(', ')} | < ${TARGETS.filterMs} |`),
    `| first sort by URL | ${r.sortMs.toFixed(0)} | ${r.runs.map((x) => x.sortMs).join(', ')} | |`,
    '', `Targets: first paint < ${TARGETS.firstPaintMs} ms: ${r.firstPaintMs < TARGETS.firstPaintMs ? 'met' : 'NOT met'}; every filter < ${TARGETS.filterMs} ms: ${r.filterMsMax < TARGETS.filterMs ? 'met' : 'NOT met'} (slowest ${r.filterMsMax.toFixed(1)} ms).`, '',
  ];
  return lines.join('\n');
}

const args = parseArgs(process.argv.slice(2));
const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-report-page-'));
try {
  let path = args.report;
  let queries;
  if (path === undefined) {
    path = join(dir, 'report.html');
    const lines = await writeSyntheticReport(path, args.urls);
    const one = lines[Math.floor(lines.length * 0.777)].split('\t')[0];
    // One URL; a section (an eighth of the rows); a date (a few hundred); nothing; one letter (nearly all).
    queries = [one.slice(BASE_URL.length), '/blog/', '2021-03-1', 'no-such-page', 'e'];
  } else queries = ['/', 'no-such-page', 'e'];
  const htmlBytes = statSync(path).size;
  await waitForQuiet();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const runs = [];
  try {
    for (let rep = 0; rep < args.reps; rep++) runs.push(await measure(browser, pathToFileURL(path).href, queries));
  } finally {
    await browser.close();
  }
  const urls = runs[0].total;
  const result = {
    source: args.report === undefined ? 'built by bench/report-page.js' : args.report, urls, htmlBytes, runs,
    firstPaintMs: median(runs.map((r) => r.firstPaintMs)), readyMs: median(runs.map((r) => r.readyMs)), sortMs: median(runs.map((r) => r.sortMs)),
    filterMsMax: Math.max(...queries.map((q) => median(runs.map((r) => r.filters[q].ms)))),
  };
  const run = { date: new Date().toISOString(), environment: environment(), browser: `Chromium ${browser.version()}`, targets: TARGETS, result };
  writeResults('report-page', run, render);
  process.exitCode = result.firstPaintMs < TARGETS.firstPaintMs && result.filterMsMax < TARGETS.filterMs ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
