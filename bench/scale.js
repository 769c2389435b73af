#!/usr/bin/env node
// bench:scale — a sharded set of N URLs of realistic shapes (bench/lib/realistic.js) in 60 sections of
// uneven sizes (Zipf-like: the largest ~16%, the smallest ~0.4%), written in full by one process
// (`generate --shards`, the library's writeShardedSet), then a 1% change feed within two sections
// (40% updated lastmods, 40% new items, 20% deletes) applied with `apply`. Targets (issue 27): the
// apply in under a tenth of the full generation, its peak RSS under 200 MB.
//
// Each row runs in its own child process (wall time and peak RSS are its alone). A row is a function
// in ROWS, (options) => result: other rows (the BullMQ workers) are added there and run the same way.
//
//   npm run bench:scale                          20,000,000 URLs (minutes)
//   node bench/scale.js --n 2000000              a shorter run
//   node bench/scale.js --rows full,apply --shards 64   (rows: full, apply, scattered, plain)
//
// Results: bench/results/scale-<N>.json and bench/results/scale.md (every N found there).
// Imports the BUILT library (dist/): run `npm run build` first (npm run bench:scale does).

import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { RESULT_TAG, argumentReader, check, environment, exitWithUsage, mb, processCpuMs, spawnChild, vmHwmKiB, waitForQuiet } from './lib/harness.js';
import { realisticEntry } from './lib/realistic.js';
import { BASE_URL, mulberry32 } from './lib/entries.js';
import { QUEUE_ROWS, queueNotes } from './lib/scale-queue.js';

const SCRIPT = fileURLToPath(import.meta.url);
const RESULTS_DIR = join(dirname(SCRIPT), 'results');
const TARGETS = { applyToFull: 0.1, applyPeakRssMB: 200 };

// ---------------------------------------------------------------------------------------------
// The catalogue: 60 sections, section k (0-based) weighted 1/(k+1)^0.9.

const SECTION_NAMES = [
  'products', 'category', 'blog', 'news', 'search', 'store', 'help', 'tag', 'brand', 'reviews',
  ...Array.from({ length: 50 }, (_, k) => `dept-${String(k + 1).padStart(2, '0')}`),
];
const WEIGHTS = SECTION_NAMES.map((_, k) => 1 / (k + 1) ** 0.9);
const TOTAL_WEIGHT = WEIGHTS.reduce((a, b) => a + b);
const CUMULATIVE = WEIGHTS.map(((sum) => (w) => (sum += w / TOTAL_WEIGHT))(0));
/** The sections the change feed touches: the 9th and 10th largest (together about 5% of the URLs). */
export const CHANGED_SECTIONS = [SECTION_NAMES[8], SECTION_NAMES[9]];

/** The section of entry i: a function of i alone. */
export function sectionOf(i) {
  const x = mulberry32((i * 2654435761) >>> 0)();
  let k = 0;
  while (k < CUMULATIVE.length - 1 && x >= CUMULATIVE[k]) k++;
  return SECTION_NAMES[k];
}

/** Entries 0 … n-1 in batches of 1,000 (a sync iterable, as an input reader would hand them). */
export function catalogue(n) {
  return catalogueRange(0, n);
}

/** Entries from … to-1 (a part of the catalogue, as the queue rows' source module reads it). */
export function* catalogueRange(from, to) {
  for (let start = from; start < to; start += 1000) {
    const batch = [];
    for (let i = start; i < Math.min(to, start + 1000); i++) batch.push(realisticEntry(i, sectionOf(i)));
    yield batch;
  }
}

/**
 * The change feed: 1% of n changes within CHANGED_SECTIONS, as JSON Lines: updated lastmods of
 * existing entries, new entries (numbers from n on), deletes. Returns how many of each.
 */
export async function writeChangeFeed(n, path, sections = CHANGED_SECTIONS) {
  const target = Math.max(3, Math.floor(n / 100));
  const counts = { updates: 0, inserts: 0, deletes: 0 };
  const out = createWriteStream(path);
  const write = async (line) => {
    if (!out.write(line + '\n')) await once(out, 'drain');
  };
  const wanted = new Set(sections);
  // Existing entries of the two sections, every k-th, so that updates and deletes spread over them.
  let existing = 0;
  for (let i = 0; i < n; i++) if (wanted.has(sectionOf(i))) existing++;
  const step = Math.max(1, Math.floor(existing / Math.ceil(target * 0.6)));
  let seen = 0;
  for (let i = 0; i < n && counts.updates + counts.deletes < Math.ceil(target * 0.6); i++) {
    const section = sectionOf(i);
    if (!wanted.has(section) || seen++ % step !== 0) continue;
    const entry = realisticEntry(i, section);
    if ((counts.updates + counts.deletes) % 3 === 2) {
      counts.deletes++;
      await write(JSON.stringify({ op: 'delete', loc: entry.loc }));
    } else {
      counts.updates++;
      await write(JSON.stringify({ op: 'upsert', ...entry, lastmod: '2026-11-26T12:00:00Z' }));
    }
  }
  for (let i = n; counts.updates + counts.deletes + counts.inserts < target; i++) {
    counts.inserts++;
    await write(JSON.stringify({ op: 'upsert', ...realisticEntry(i, sections[i % sections.length]) }));
  }
  out.end();
  await once(out, 'finish');
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Rows: each runs in a child process with { n, shards, out, feed, dist } and returns its figures.

async function library() {
  const dist = join(dirname(SCRIPT), '..', 'dist');
  const [{ writeShardedSet }, { applyChanges }, { writeSitemaps }] = await Promise.all([
    import(join(dist, 'node/scale/generate-sharded.js')),
    import(join(dist, 'node/scale/apply.js')),
    import(join(dist, 'node/write-sitemaps.js')),
  ]);
  return { writeShardedSet, applyChanges, writeSitemaps };
}

export const ROWS = {
  /** The whole set by one process: generate --shards. */
  async full({ n, shards, out }) {
    const { writeShardedSet } = await library();
    const started = performance.now();
    const summary = await writeShardedSet(catalogue(n), { outDir: out, baseUrl: BASE_URL, shards });
    const wallMs = performance.now() - started;
    check(summary.urls === n, `${summary.urls} URLs written, ${n} expected`);
    return { wallMs, urls: summary.urls, files: summary.sitemaps.length, indexFiles: summary.indexFiles.length, diskBytes: summary.diskBytes };
  },
  /** The same URLs by the single-process writer without shards (generate), for reference. */
  async plain({ n, out }) {
    const { writeSitemaps } = await library();
    const started = performance.now();
    const summary = await writeSitemaps(catalogue(n), { outDir: out, baseUrl: BASE_URL });
    return { wallMs: performance.now() - started, urls: summary.urls, files: summary.sitemaps.length, diskBytes: summary.diskBytes };
  },
  /** The change feed (1% of the URLs within two sections) applied to the set `full` wrote. */
  async apply({ out, feed }) {
    const result = await applyFeed(out, feed);
    const sections = new Set(result.sections);
    check([...sections].every((s) => CHANGED_SECTIONS.includes(s)), `apply touched other sections: ${[...sections].join(', ')}`);
    return { ...result, sections: undefined };
  },
  /** 1% of the URLs changed over every section: every child is touched (after `apply`). */
  async scattered({ out, feed }) {
    const result = await applyFeed(out, feed);
    return { ...result, sections: result.sections.length };
  },
  ...QUEUE_ROWS,
};

async function applyFeed(out, feed) {
  const { applyChanges } = await library();
  const started = performance.now();
  const summary = await applyChanges({ changes: [feed], outDir: out });
  const wallMs = performance.now() - started;
  const sections = [...new Set(summary.touched.map((stem) => stem.slice('sitemap-'.length, stem.lastIndexOf('.'))))];
  return { wallMs, upserts: summary.upserts, deletes: summary.deletes, touched: summary.touched.length, written: summary.written.length, kept: summary.kept, sections };
}

// ---------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const args = { n: 20_000_000, shards: undefined, rows: ['full', 'apply', 'scattered', 'plain'], child: undefined, out: undefined, feed: undefined, keep: false };
  const arg = argumentReader(argv, usage);
  for (let a = arg.next(); a !== undefined; a = arg.next()) {
    if (a === '--n') args.n = arg.count();
    else if (a === '--shards') args.shards = arg.count();
    else if (a === '--rows') args.rows = arg.list();
    else if (a === '--child') args.child = arg.value();
    else if (a === '--out') args.out = arg.value();
    else if (a === '--feed') args.feed = arg.value();
    else if (a === '--keep') args.keep = true;
    else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument ${a}`);
  }
  for (const row of [...args.rows, ...(args.child !== undefined ? [args.child] : [])]) if (!(row in ROWS)) usage(`unknown row ${row}; rows: ${Object.keys(ROWS).join(', ')}`);
  // About 300,000 URLs a shard: the largest section's bucket (what memory holds) stays near 50,000.
  args.shards ??= Math.max(1, 2 ** Math.round(Math.log2(Math.max(1, args.n / 300_000))));
  return args;
}

function usage(problem) {
  exitWithUsage('scale', `usage: node bench/scale.js [--n N] [--shards S] [--rows ${Object.keys(ROWS).join(',')}] [--keep]`, problem);
}

async function runChild(args) {
  const result = await ROWS[args.child](args);
  // A queue row's workers and coordinator are this row's processes too: their CPU is the row's, not
  // "other processes'" (backgroundCores is the machine's CPU less childCpuMs).
  const ownCpuMs = processCpuMs();
  const rowCpuMs = (result.workerCpuMs ?? []).reduce((sum, ms) => sum + (ms ?? 0), ownCpuMs + (result.coordinatorCpuMs ?? 0));
  process.stdout.write(RESULT_TAG + JSON.stringify({ row: args.child, n: args.n, shards: args.shards, ...result, peakRssKiB: process.resourceUsage().maxRSS, vmHwmKiB: vmHwmKiB(), ownCpuMs, childCpuMs: rowCpuMs }) + '\n');
}

/** Runs one row in a child process. Other scripts (the queue rows) call it the same way. */
export async function measureRow(row, { n, shards, out, feed }) {
  await waitForQuiet(30_000);
  return spawnChild(SCRIPT, ['--child', row, '--n', String(n), '--shards', String(shards), '--out', out, ...(feed !== undefined ? ['--feed', feed] : [])], { label: row });
}

function markdown(all) {
  const lines = ['# bench:scale', '', 'One process writes a sharded set of N realistic URLs in 60 uneven sections (`generate --shards`), then applies a 1% change feed within two sections (`apply`). Targets: apply < 0.1× the full generation, apply peak RSS < 200 MB.', ''];
  for (const run of all) {
    lines.push(`## ${run.n.toLocaleString('en-US')} URLs, ${run.shards} shards (${run.date})`, '', `Node ${run.environment.node}, ${run.environment.cpus} × ${run.environment.cpuModel}.`, '', '| row | wall | peak RSS (VmHWM) | other processes (cores) | notes |', '|---|---:|---:|---:|---|');
    for (const r of run.rows) {
      const notes = queueNotes(r, run.rows) ?? (r.upserts !== undefined ? `${r.upserts} upserts, ${r.deletes} deletes; ${r.touched} children rewritten (${r.written} files), ${r.kept} untouched` : r.files !== undefined ? `${r.files} files, ${(r.diskBytes / 1e6).toFixed(0)} MB on disk` : '');
      lines.push(`| ${r.row} | ${(r.wallMs / 1000).toFixed(1)} s | ${mb(r.vmHwmKiB ?? r.peakRssKiB).toFixed(0)} MB | ${(r.backgroundCores ?? 0).toFixed(2)} | ${notes} |`);
    }
    if (run.applyToFull !== undefined) lines.push('', `apply / full: **${run.applyToFull.toFixed(3)}×** (target < ${TARGETS.applyToFull}); the feed: ${JSON.stringify(run.feed)} in sections ${CHANGED_SECTIONS.join(', ')} (${(run.changedShare * 100).toFixed(1)}% of the URLs).`);
    if (run.scatteredToFull !== undefined) lines.push('', `scattered / full: ${run.scatteredToFull.toFixed(2)}× (the same 1% spread over every section: every child touched); full (sharded) / plain (generate without shards): ${run.fullToPlain?.toFixed(2) ?? '?'}×.`);
    lines.push('');
  }
  return lines.join('\n');
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.child !== undefined) return runChild(args);
  const work = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-scale-'));
  try {
    const out = join(work, 'set');
    const rows = [];
    const run = { n: args.n, shards: args.shards, date: new Date().toISOString().slice(0, 10), environment: environment(), rows };
    for (const row of args.rows) {
      if (row === 'apply') {
        const feed = join(work, 'changes.jsonl');
        run.feed = await writeChangeFeed(args.n, feed);
        let changed = 0;
        for (let i = 0; i < Math.min(args.n, 1_000_000); i++) if (CHANGED_SECTIONS.includes(sectionOf(i))) changed++;
        run.changedShare = changed / Math.min(args.n, 1_000_000);
        rows.push(await measureRow('apply', { ...args, out, feed }));
      } else if (row === 'scattered') {
        const feed = join(work, 'scattered.jsonl');
        run.scatteredFeed = await writeChangeFeed(args.n, feed, SECTION_NAMES);
        rows.push(await measureRow('scattered', { ...args, out, feed }));
      } else {
        // The queue rows write beside the full row's set (and queue-apply takes the apply row's feed).
        rows.push(await measureRow(row, { ...args, out: row === 'plain' ? join(work, 'plain') : out, ...(row in QUEUE_ROWS ? { feed: join(work, 'changes.jsonl') } : {}) }));
      }
      const last = rows.at(-1);
      console.log(`${row}: ${(last.wallMs / 1000).toFixed(1)} s, peak RSS ${mb(last.vmHwmKiB ?? last.peakRssKiB).toFixed(0)} MB`);
    }
    const full = rows.find((r) => r.row === 'full');
    const applied = rows.find((r) => r.row === 'apply');
    const scattered = rows.find((r) => r.row === 'scattered');
    const plain = rows.find((r) => r.row === 'plain');
    if (full !== undefined && scattered !== undefined) run.scatteredToFull = scattered.wallMs / full.wallMs;
    if (full !== undefined && plain !== undefined) run.fullToPlain = full.wallMs / plain.wallMs;
    if (full !== undefined && applied !== undefined) {
      run.applyToFull = applied.wallMs / full.wallMs;
      console.log(`apply / full = ${run.applyToFull.toFixed(3)} (target < ${TARGETS.applyToFull}); apply peak RSS ${mb(applied.vmHwmKiB ?? applied.peakRssKiB).toFixed(0)} MB (target < ${TARGETS.applyPeakRssMB})`);
    }
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, `scale-${args.n}.json`), JSON.stringify(run, null, 2) + '\n');
    const all = readdirSync(RESULTS_DIR).filter((f) => /^scale-\d+\.json$/.test(f)).map((f) => JSON.parse(readFileSync(join(RESULTS_DIR, f), 'utf8'))).sort((a, b) => a.n - b.n);
    writeFileSync(join(RESULTS_DIR, 'scale.md'), markdown(all));
  } finally {
    if (!args.keep) rmSync(work, { recursive: true, force: true });
    else console.log(`kept ${work}`);
  }
}

if (process.argv[1] === SCRIPT) await main();
