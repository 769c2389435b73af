#!/usr/bin/env node
// bench:read — readSitemap (callback form) on a 50,000-URL sitemap, plain and gzipped, with and without
// image and hreflang extensions, against the npm `sitemap` package's XMLToSitemapItemStream, a
// straightforward saxes extraction of the same fields, and the floor: TextDecoder over the same bytes
// (gunzip + TextDecoder for the gzipped inputs). Then peak RSS on a ~500 MB input (sitemapkit, floor).
// Rows: the uniform inputs the writer makes and the realistic ones (bench/lib/realistic.js), on which
// issue 24's targets are judged. Beside the library call, the whole commands a user runs, from spawn to
// exit with the output to /dev/null: `sitemapkit read FILE` (cli) against a script around the
// `sitemap` parser printing the same JSON lines (script, bench/lib/sitemap-read-script.js).
//
// Every contender runs in its own child process, several times (the best wall time counts, the spread
// is reported); contenders rotate order from one round to the next. That is the first call, cold: JIT
// warm-up and a young heap included. Then the steady state, the throughput the targets are about: each
// contender reads the same input several times in one process and the median of the calls after the
// first counts (what a crawler or any long-running reader sees).
//
//   npm run bench:read                             everything (a few minutes)
//   node bench/read.js --reps 3 --peer-reps 1      a quicker run
//   node bench/read.js --only sitemapkit,floor --no-rss
//   node bench/read.js --rss-mb 200               a smaller memory run
//   node bench/read.js --steady-calls 6 --peer-steady-calls 3   fewer calls in the steady-state phase
//   node bench/read.js --no-steady                 cold calls only
//   node bench/read.js --inputs real,plain        only these rows
//   node bench/read.js --baseline /tmp/base/dist  the old build's library and CLI too, interleaved (bench/lib/builds.js)
//   node bench/read.js --dir /tmp/x               keep the generated inputs there (e.g. for node --cpu-prof:
//                                                  node --cpu-prof bench/read.js --child sitemapkit --input /tmp/x/plain.xml)
//
// Results: bench/results/read.json and bench/results/read.md.
// Imports the BUILT library (dist/): run `npm run build` first (npm run bench:read does).

import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createGunzip } from 'node:zlib';
import { BASE_URL, SEED, generateEntries } from './lib/entries.js';
import { probeGnuTime, RESULT_TAG, vmHwmKiB, check, median, environment, mb, peakRssKiB, processCpuMs, spawnChild, waitForQuiet, argumentReader, summarizeRuns, exitWithUsage, writeResults, extraCaCertsNote } from './lib/harness.js';
import { GZIP_LEVEL as LEVEL, INPUTS, REALISTIC_INPUTS, URLS as N, makeInputs } from './lib/inputs.js';
import { OWN_DIST, buildsOf, cliBin, distIndex, newOverOld, newOverOldTable, tagged } from './lib/builds.js';
import { countOutputLines, runToDevNull } from './lib/commands.js';

const SCRIPT = fileURLToPath(import.meta.url);
/** Every contender reads files in chunks of this size and gunzips with this chunkSize (sitemapkit's own). */
const CHUNK = 256 * 1024;
/** Budgets for sitemapkit, large enough for the ~500 MB input. */
const MAX_BYTES = 1024 ** 3;
const MAX_ENTRIES = 100_000_000;

const CONTENDERS = {
  sitemapkit: 'readSitemap(path, { onUrl }) from dist/: sniffing, decoding, tokenizer, reader, diagnostics (full entry model)',
  saxes: 'saxes 6 (xmlns off, names matched as written), text accumulated per element; builds { loc, lastmod, changefreq, priority, images, alternates } per URL; file → [gunzip] → TextDecoder → parser.write',
  sitemap: 'npm sitemap 9: createReadStream → [createGunzip] → XMLToSitemapItemStream (level SILENT) → object-mode Writable',
  floor: 'TextDecoder (stream mode) over the same file chunks, after createGunzip for .gz; nothing parsed',
  cli: '`node dist/cli/bin.cjs read FILE > /dev/null`, the whole command from spawn to exit (Node start, module loading, JSON lines out)',
  script: '`node bench/lib/sitemap-read-script.js FILE > /dev/null`: npm sitemap 9 XMLToSitemapItemStream printing the same JSON lines, from spawn to exit',
};
const ORDER = ['sitemapkit', 'saxes', 'sitemap', 'floor', 'cli', 'script'];
/** Contenders that are whole commands (no steady state; counted by one untimed run). */
const COMMANDS = new Set(['cli', 'script']);
/** Contenders that run for both builds under --baseline. */
const BUILT = new Set(['sitemapkit', 'cli']);
const SCRIPT_PEER = fileURLToPath(new URL('./lib/sitemap-read-script.js', import.meta.url));
const RSS_CONTENDERS = ['sitemapkit', 'floor'];

const TARGETS = { speedupVsSitemap: 20, shareOfFloor: 0.4, peakRssMB: 100, cliVsScript: 8 };

// ---------------------------------------------------------------------------------------------
// Arguments

function parseArgs(argv) {
  const args = { reps: 5, peerReps: 3, steadyCalls: 8, peerSteadyCalls: 4, calls: 1, only: undefined, inputs: undefined, baseline: undefined, dist: OWN_DIST, rss: true, rssMB: 500, dir: undefined, child: undefined, input: undefined, make: undefined, bytesPerUrl: undefined };
  const arg = argumentReader(argv, usage);
  for (let a = arg.next(); a !== undefined; a = arg.next()) {
    if (a === '--reps') args.reps = arg.count();
    else if (a === '--peer-reps') args.peerReps = arg.count();
    else if (a === '--only') args.only = arg.list();
    else if (a === '--no-rss') args.rss = false;
    else if (a === '--steady-calls') args.steadyCalls = arg.count();
    else if (a === '--peer-steady-calls') args.peerSteadyCalls = arg.count();
    else if (a === '--no-steady') args.steadyCalls = 0;
    else if (a === '--calls') args.calls = arg.count();
    else if (a === '--rss-mb') args.rssMB = arg.count();
    else if (a === '--inputs') args.inputs = arg.list();
    else if (a === '--baseline') args.baseline = arg.value();
    else if (a === '--dist') args.dist = arg.value();
    else if (a === '--dir') args.dir = arg.value();
    else if (a === '--child') args.child = arg.value();
    else if (a === '--input') args.input = arg.value();
    else if (a === '--make') args.make = arg.value();
    else if (a === '--bytes-per-url') args.bytesPerUrl = Number(arg.value());
    else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument ${a}`);
  }
  for (const name of [...(args.only ?? []), ...(args.child !== undefined ? [args.child] : [])]) {
    if (!(name in CONTENDERS)) usage(`unknown contender ${name}; use ${Object.keys(CONTENDERS).join(', ')}`);
  }
  for (const key of args.inputs ?? []) if (!(key in INPUTS)) usage(`unknown input ${key}; use ${Object.keys(INPUTS).join(', ')}`);
  if (args.child !== undefined && args.input === undefined) usage('--child needs --input FILE');
  if (args.steadyCalls === 1 || args.peerSteadyCalls === 1) usage('the steady state needs at least 2 calls (the first is the cold one)');
  return args;
}

function usage(problem) {
  const text = `usage: node bench/read.js [--reps N] [--peer-reps N] [--steady-calls N] [--peer-steady-calls N] [--no-steady] [--only ${ORDER.join(',')}] [--inputs ${Object.keys(INPUTS).join(',')}] [--baseline DIST] [--no-rss] [--rss-mb MB] [--dir DIR]`;
  exitWithUsage('read', text, problem);
}

// ---------------------------------------------------------------------------------------------
// Children: one contender on one file, one JSON line on stdout.

async function loadLibrary(dist = OWN_DIST) {
  if (!existsSync(distIndex(dist))) throw new Error(`${distIndex(dist)} is missing: run \`npm run build\` first (npm run bench:read does)`);
  return import(pathToFileURL(distIndex(dist)).href);
}

/** The file's bytes as a stream of large chunks, gunzipped when the name says .gz (the peers are told; sitemapkit sniffs). */
function byteStreams(path) {
  const streams = [createReadStream(path, { highWaterMark: CHUNK })];
  if (path.endsWith('.gz')) streams.push(createGunzip({ chunkSize: CHUNK }));
  return streams;
}

/** Counts of the parts every parser must agree on. `locChars`: the UTF-16 length of every page loc, summed. */
function tally() {
  return { urls: 0, locChars: 0, images: 0, alternates: 0 };
}

/**
 * Untimed, after the measurement: counts `<url>`, `<image:loc>` and `<xhtml:link` in the decompressed
 * bytes (the writer's own spelling), so the floor, which parses nothing, can be checked too.
 */
async function countTags(path) {
  const patterns = { urls: Buffer.from('<url>'), images: Buffer.from('<image:loc>'), alternates: Buffer.from('<xhtml:link ') };
  const counts = { urls: 0, images: 0, alternates: 0 };
  let carry = Buffer.alloc(0);
  await pipeline(...byteStreams(path), async (source) => {
    for await (const chunk of source) {
      const buf = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      for (const [key, p] of Object.entries(patterns)) {
        // A match must end in the new bytes, so none is counted twice.
        for (let i = buf.indexOf(p, Math.max(0, carry.length - p.length + 1)); i !== -1; i = buf.indexOf(p, i + 1)) counts[key]++;
      }
      carry = Buffer.from(buf.subarray(Math.max(0, buf.length - 16)));
    }
  });
  return counts;
}


/** Peak memory so far: maxRSS (the brief's measure) and VmHWM. */
function peaks() {
  const hwm = vmHwmKiB();
  return { peakRssKiB: peakRssKiB(), ...(hwm !== undefined ? { vmHwmKiB: hwm } : {}) };
}

const children = {
  async sitemapkit(path, dist) {
    const { readSitemap } = await loadLibrary(dist);
    const t = tally();
    const onUrl = (entry) => {
      t.urls++;
      t.locChars += entry.loc.length;
      if (entry.images !== undefined) t.images += entry.images.length;
      if (entry.alternates !== undefined) t.alternates += entry.alternates.length;
    };
    const t0 = performance.now();
    const summary = await readSitemap(path, { onUrl, maxBytes: MAX_BYTES, maxEntries: MAX_ENTRIES });
    const wallMs = performance.now() - t0;
    const rss = peaks();
    check(summary.urls === t.urls, `summary.urls ${summary.urls}, onUrl calls ${t.urls}`);
    check(summary.format === 'urlset', `format ${summary.format}`);
    const first = summary.diagnostics.slice(0, 3).map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`);
    check(summary.errors === 0, `${summary.errors} error diagnostics: ${first.join('; ')}`);
    return { wallMs, ...rss, ...t, xmlBytes: summary.bytesDecompressed, diagnostics: summary.diagnostics.length, ...(first.length > 0 ? { firstDiagnostics: first } : {}) };
  },

  async saxes(path) {
    const { SaxesParser } = await import('saxes');
    const t = tally();
    let xmlBytes = 0;
    const t0 = performance.now();
    const parser = new SaxesParser({ xmlns: false });
    let entry;
    let image;
    let text = '';
    let capturing = false;
    parser.on('opentag', (tag) => {
      switch (tag.name) {
        case 'url':
          entry = { loc: '' };
          break;
        case 'loc':
        case 'lastmod':
        case 'changefreq':
        case 'priority':
        case 'image:loc':
          text = '';
          capturing = true;
          break;
        case 'image:image':
          image = { loc: '' };
          break;
        case 'xhtml:link':
          if (entry !== undefined && tag.attributes.rel === 'alternate') (entry.alternates ??= []).push({ hreflang: tag.attributes.hreflang, href: tag.attributes.href });
          break;
      }
    });
    parser.on('text', (s) => {
      if (capturing) text += s;
    });
    parser.on('cdata', (s) => {
      if (capturing) text += s;
    });
    parser.on('closetag', (tag) => {
      switch (tag.name) {
        case 'loc':
          if (entry !== undefined) entry.loc = text.trim();
          capturing = false;
          break;
        case 'lastmod':
        case 'changefreq':
        case 'priority':
          if (entry !== undefined) entry[tag.name] = text.trim();
          capturing = false;
          break;
        case 'image:loc':
          if (image !== undefined) image.loc = text.trim();
          capturing = false;
          break;
        case 'image:image':
          if (entry !== undefined && image !== undefined) (entry.images ??= []).push(image);
          image = undefined;
          break;
        case 'url':
          if (entry !== undefined) {
            t.urls++;
            t.locChars += entry.loc.length;
            if (entry.images !== undefined) t.images += entry.images.length;
            if (entry.alternates !== undefined) t.alternates += entry.alternates.length;
          }
          entry = undefined;
          break;
      }
    });
    parser.on('error', (error) => {
      throw error;
    });
    const decoder = new TextDecoder();
    await pipeline(...byteStreams(path), async (source) => {
      for await (const chunk of source) {
        xmlBytes += chunk.length;
        parser.write(decoder.decode(chunk, { stream: true }));
      }
      parser.write(decoder.decode());
      parser.close();
    });
    const wallMs = performance.now() - t0;
    return { wallMs, ...peaks(), ...t, xmlBytes };
  },

  async sitemap(path) {
    const { XMLToSitemapItemStream, ErrorLevel } = await import('sitemap');
    const t = tally();
    let xmlBytes = 0;
    const t0 = performance.now();
    const parser = new XMLToSitemapItemStream({ level: ErrorLevel.SILENT, logger: false });
    const streams = byteStreams(path);
    streams[streams.length - 1].on('data', (chunk) => (xmlBytes += chunk.length));
    await pipeline(
      ...streams,
      parser,
      new Writable({
        objectMode: true,
        write(item, _encoding, callback) {
          t.urls++;
          t.locChars += item.url.length;
          t.images += item.img.length;
          t.alternates += item.links.length;
          callback();
        },
      }),
    );
    const wallMs = performance.now() - t0;
    const rss = peaks();
    return { wallMs, ...rss, ...t, xmlBytes, parserErrors: parser.errorCount };
  },

  async floor(path) {
    let xmlBytes = 0;
    let chars = 0;
    const t0 = performance.now();
    const decoder = new TextDecoder();
    await pipeline(...byteStreams(path), async (source) => {
      for await (const chunk of source) {
        xmlBytes += chunk.length;
        chars += decoder.decode(chunk, { stream: true }).length;
      }
      chars += decoder.decode().length;
    });
    const wallMs = performance.now() - t0;
    const rss = peaks();
    const counts = await countTags(path); // untimed
    return { wallMs, ...rss, ...counts, xmlBytes, chars };
  },
};

/** The tally every call must repeat exactly. */
const TALLY_FIELDS = ['urls', 'locChars', 'images', 'alternates', 'xmlBytes'];

async function runChild(args) {
  // With --calls K, the same input K times in this process: the first call cold, the others warm.
  const result = await children[args.child](args.input, args.dist);
  const callsMs = [result.wallMs];
  for (let i = 1; i < args.calls; i++) {
    const again = await children[args.child](args.input, args.dist);
    for (const field of TALLY_FIELDS) check(again[field] === result[field], `call ${i + 1} gave ${field} = ${again[field]}, the first ${result[field]}`);
    callsMs.push(again.wallMs);
    Object.assign(result, peaksOf(again));
  }
  const calls = args.calls > 1 ? { callsMs } : {};
  process.stdout.write(RESULT_TAG + JSON.stringify({ contender: args.child, input: args.input, ...result, ...calls, childCpuMs: processCpuMs() }) + '\n');
}

function peaksOf(r) {
  return { peakRssKiB: r.peakRssKiB, ...(r.vmHwmKiB !== undefined ? { vmHwmKiB: r.vmHwmKiB } : {}) };
}

/** The inputs are written in a child too: the parent stays small, since a child's maxRSS starts at its parent's RSS. */
async function runMake(args) {
  const lib = await loadLibrary();
  const result = args.make === 'inputs' ? await makeInputs(lib, args.dir, args.inputs) : await makeBigInput(lib, args.dir, args.rssMB, args.bytesPerUrl);
  process.stdout.write(RESULT_TAG + JSON.stringify({ ...result, childCpuMs: processCpuMs() }) + '\n');
}

// ---------------------------------------------------------------------------------------------
// The ~500 MB input (the 50,000-URL ones come from lib/inputs.js)

/** A urlset of about `megabytes` MB (the same entries, more of them), written by serializeSitemap with the limits lifted. */
async function makeBigInput(lib, dir, megabytes, bytesPerUrl) {
  const n = Math.ceil((megabytes * 1e6) / bytesPerUrl);
  const limits = { ...lib.LIMITS_PROFILES.current, maxUrlsPerSitemap: Number.MAX_SAFE_INTEGER, maxBytesPerSitemap: Number.MAX_SAFE_INTEGER };
  const path = join(dir, `big-${megabytes}mb.xml`);
  const out = createWriteStream(path);
  let buffered = [];
  let size = 0;
  for await (const chunk of lib.serializeSitemap(generateEntries(n), { limits, baseUrl: BASE_URL })) {
    buffered.push(chunk);
    size += chunk.length;
    if (size >= 1 << 20) {
      if (!out.write(Buffer.concat(buffered))) await once(out, 'drain');
      buffered = [];
      size = 0;
    }
  }
  out.end(Buffer.concat(buffered));
  await once(out, 'finish');
  return { path, urls: n, fileBytes: statSync(path).size };
}

// ---------------------------------------------------------------------------------------------
// Parent

function describeRun(r) {
  const background = r.backgroundCores !== undefined ? `, other load ${r.backgroundCores.toFixed(2)} / steal ${r.stealCores.toFixed(2)} cores` : '';
  return `${r.wallMs.toFixed(0)} ms, peak RSS ${mb(r.peakRssKiB).toFixed(1)} MB, ${r.urls.toLocaleString('en-US')} URLs${background}`;
}

let parentRssMaxKiB = 0;
/** Set by runParent: the baseline's dist/ (--baseline) and whether GNU time measures the whole commands' RSS. */
const session = { baselineDist: undefined, gnuTime: false };

/** One run of contender `name` (`NAME@old`: the baseline build's) on `input`: a child of this script, or a whole command. */
async function runChildOn(name, input, calls = 1) {
  parentRssMaxKiB = Math.max(parentRssMaxKiB, process.memoryUsage().rss / 1024);
  const [base, build] = name.split('@');
  const dist = build === 'old' ? session.baselineDist : OWN_DIST;
  if (COMMANDS.has(base)) {
    const argv = [process.execPath, ...(base === 'cli' ? [cliBin(dist), 'read'] : [SCRIPT_PEER]), input.path];
    const r = await runToDevNull(argv, { gnuTime: session.gnuTime, label: `${name} on ${input.path}` });
    if (r.exitCode !== 0) throw new Error(`${name} on ${input.path} exited ${r.exitCode}: ${r.stderr.slice(0, 500)}`);
    return { ...r, urls: input.verifiedUrls[base], xmlBytes: input.xmlBytes, measuredAt: new Date().toISOString() };
  }
  const path = input.path ?? input;
  const r = await spawnChild(SCRIPT, ['--child', base, '--input', path, '--calls', String(calls), '--dist', dist], { label: `${name} on ${path}` });
  r.measuredAt = new Date().toISOString();
  if (r.stderr !== undefined) process.stderr.write(`  (${name} wrote to stderr: ${r.stderr.split('\n')[0]})\n`);
  return r;
}

/** Every contender must agree with the input: N URLs; the parsers also on loc lengths, images and alternates. */
function verify(key, contenders) {
  const problems = [];
  const reference = contenders.sitemapkit ?? Object.values(contenders)[0];
  for (const [name, c] of Object.entries(contenders)) {
    for (const run of c.allRuns) {
      if (run.urls !== N) problems.push(`${name} reported ${run.urls} URLs, expected ${N}`);
      if (COMMANDS.has(name.split('@')[0])) continue; // counted by their untimed run (verifyCommands)
      for (const field of ['images', 'alternates', ...(name === 'floor' ? [] : ['locChars'])]) {
        if (reference.allRuns[0][field] !== undefined && run[field] !== reference.allRuns[0][field]) {
          problems.push(`${name} reported ${field} = ${run[field]}, sitemapkit ${reference.allRuns[0][field]}`);
        }
      }
      if (run.xmlBytes !== reference.allRuns[0].xmlBytes) problems.push(`${name} saw ${run.xmlBytes} decompressed bytes, sitemapkit ${reference.allRuns[0].xmlBytes}`);
    }
  }
  if (problems.length > 0) throw new Error(`CORRECTNESS FAILURE on input ${key}:\n  ${[...new Set(problems)].join('\n  ')}`);
}

/** Each whole command, once per input, untimed: exit 0 and a JSON line per URL (sets input.verifiedUrls). */
async function verifyCommands(inputs, names) {
  for (const input of Object.values(inputs)) {
    input.verifiedUrls = {};
    for (const base of ['cli', 'script'].filter((n) => names.some((name) => name.split('@')[0] === n))) {
      for (const dist of [OWN_DIST, ...(session.baselineDist !== undefined && base === 'cli' ? [session.baselineDist] : [])]) {
        const out = await countOutputLines([process.execPath, ...(base === 'cli' ? [cliBin(dist), 'read'] : [SCRIPT_PEER]), input.path]);
        if (out.exitCode !== 0 || out.lines !== N) throw new Error(`CORRECTNESS FAILURE: ${base} (${dist}) on ${input.path}: exit ${out.exitCode}, ${out.lines} lines, expected ${N}: ${out.stderr.slice(0, 300)}`);
      }
      input.verifiedUrls[base] = N;
    }
  }
}

/** The steady state of one contender on one input: the calls after the first (warm), by their median. */
function summarizeSteady(r) {
  const warm = r.callsMs.slice(1);
  return { ...r, firstMs: r.callsMs[0], steadyMs: median(warm), bestWarmMs: Math.min(...warm), worstWarmMs: Math.max(...warm) };
}

/** sitemapkit against the others: `pick` is the time that counts (the best cold call, or the steady median). */
function ratiosOf(contenders, pick) {
  const kit = contenders.sitemapkit;
  if (kit === undefined) return undefined;
  const r = {};
  if (contenders.sitemap !== undefined) r.speedupVsSitemap = pick(contenders.sitemap) / pick(kit);
  if (contenders.saxes !== undefined) r.speedupVsSaxes = pick(contenders.saxes) / pick(kit);
  if (contenders.floor !== undefined) r.shareOfFloor = pick(contenders.floor) / pick(kit);
  if (contenders.cli !== undefined && contenders.script !== undefined) r.cliVsScript = pick(contenders.script) / pick(contenders.cli);
  return r;
}

/**
 * The speed targets are about throughput (MB/s, URLs/s), so they are judged on the steady state when it
 * was measured; the cold first call is reported beside them, informational. Without a steady-state
 * phase (--no-steady), the cold calls are judged.
 */
function evaluate(results, rss, steady) {
  const ratios = {};
  const steadyRatios = {};
  const targets = [];
  const speedTargets = (r, key, how, informational) => {
    if (r.cliVsScript !== undefined) {
      const judged = REALISTIC_INPUTS.includes(key);
      targets.push({ name: `\`sitemapkit read FILE\` vs the \`sitemap\` parser's script, whole commands (${key})`, value: r.cliVsScript, unit: '×', target: `≥ ${TARGETS.cliVsScript}×`, pass: r.cliVsScript >= TARGETS.cliVsScript, informational: !judged });
    }
    if (r.speedupVsSitemap !== undefined) targets.push({ name: `sitemapkit speed vs sitemap, ${how} (${key})`, value: r.speedupVsSitemap, unit: '×', target: `≥ ${TARGETS.speedupVsSitemap}×`, pass: r.speedupVsSitemap >= TARGETS.speedupVsSitemap, informational });
    if (r.shareOfFloor !== undefined) targets.push({ name: `sitemapkit rate / TextDecoder rate, ${how} (${key})`, value: r.shareOfFloor * 100, unit: '%', target: `≥ ${TARGETS.shareOfFloor * 100}%`, pass: r.shareOfFloor >= TARGETS.shareOfFloor, informational });
  };
  for (const key of Object.keys(results)) {
    const r = ratiosOf(results[key], (c) => c.wallMs);
    if (r !== undefined) ratios[key] = r;
    const s = steady?.[key] !== undefined ? ratiosOf(steady[key], (c) => c.steadyMs) : undefined;
    if (s !== undefined) {
      steadyRatios[key] = s;
      speedTargets(s, key, 'steady state', false);
    }
    if (r !== undefined) speedTargets(r, key, 'first call', s !== undefined);
  }
  if (rss?.contenders.sitemapkit !== undefined) {
    const v = mb(rss.contenders.sitemapkit.peakRssKiB);
    targets.push({ name: `sitemapkit peak RSS on a ${(rss.input.fileBytes / 1e6).toFixed(0)} MB input (MB)`, value: v, unit: ' MB', target: `< ${TARGETS.peakRssMB} MB`, pass: v < TARGETS.peakRssMB, informational: false });
  }
  return { ratios, steadyRatios, targets, newOverOld: newOverOld(results, (c) => c.wallMs), steadyNewOverOld: steady !== undefined ? newOverOld(steady, (c) => c.steadyMs) : {} };
}

const fmtInt = (x) => (x === undefined ? '' : Math.round(x).toLocaleString('en-US'));
const rate = (bytes, ms) => bytes / 1e6 / (ms / 1000);
const hwm = (r) => (r.vmHwmKiB ? mb(r.vmHwmKiB).toFixed(1) : '');
const load = (r) => (r.backgroundCores !== undefined ? `${r.backgroundCores.toFixed(2)} / ${(r.stealCores ?? 0).toFixed(2)}` : '');

/** The ratios of sitemapkit to the others, a row per input, as markdown lines (a blank line first). */
function ratioTable(how, ratios) {
  const lines = ['', `| input (${how}) | sitemapkit vs sitemap | sitemapkit vs saxes | sitemapkit rate / TextDecoder rate | cli vs script (whole commands) |`, '| --- | ---: | ---: | ---: | ---: |'];
  const times = (x) => (x !== undefined ? x.toFixed(1) + '×' : '');
  for (const [key, r] of Object.entries(ratios)) {
    lines.push(`| ${key} | ${times(r.speedupVsSitemap)} | ${times(r.speedupVsSaxes)} | ${r.shareOfFloor !== undefined ? (r.shareOfFloor * 100).toFixed(0) + '%' : ''} | ${times(r.cliVsScript)} |`);
  }
  return lines;
}

function render(run) {
  const lines = [
    '# bench:read',
    '',
    'Written by `bench/read.js` (`npm run bench:read`); do not edit by hand.',
    '',
    `${run.date} · Node ${run.environment.node} · ${run.environment.cpus} × ${run.environment.cpuModel} · ${run.environment.platform}`,
    '',
    ...(extraCaCertsNote(run.environment) !== '' ? [extraCaCertsNote(run.environment), ''] : []),
    `Inputs: the uniform ones written by sitemapkit's writeSitemaps from deterministic entries (bench/lib/entries.js, mulberry32 seed 0x${SEED.toString(16)}; URLs of 60–120 characters, 5% with a non-ASCII path, every entry with lastmod, changefreq, priority); the realistic ones (${REALISTIC_INPUTS.join(', ')}) by bench/lib/realistic.js, where issue 24's targets are judged:`,
    '',
  ];
  for (const [key, spec] of Object.entries(INPUTS)) {
    const i = run.inputs[key];
    if (i === undefined) continue;
    lines.push(`- **${key}** (${spec.file}): ${spec.text}; ${fmtInt(i.fileBytes)} bytes on disk, ${fmtInt(i.xmlBytes)} bytes of XML${(spec.extensions || spec.realistic) && i.images !== undefined ? `, ${fmtInt(i.images)} images, ${fmtInt(i.alternates)} alternates` : ''}`);
  }
  lines.push('', 'Contenders (each in its own process; files read in 256 KiB chunks, gunzip chunkSize 256 KiB for all):', '');
  for (const [k, v] of Object.entries(CONTENDERS)) lines.push(`- **${k}**: ${v}`);
  if (run.settings.baseline !== undefined) lines.push(`- **NAME@old**: the same contender with the baseline build, ${run.settings.baseline}, run beside it in every round`);
  lines.push(
    '',
    `Wall time: the best of ${run.settings.reps} runs (\`sitemap\`: ${run.settings.peerReps}), from opening the file to the last entry, library import excluded; spread = (slowest − best) / best. MB/s is of decompressed XML (MB = 10^6 bytes). Peak RSS: the process's maxRSS (\`process.resourceUsage()\`), the highest of its runs; on Linux it starts from the parent's RSS at fork, so the parent writes the inputs in a child and stays small (at most ${run.parentRssMaxMB.toFixed(0)} MB when spawning). VmHWM: the child's own high-water mark (/proc/self/status), for comparison. Other load / steal: the most any run saw, in cores (of ${run.environment.cpus}).`,
    '',
    '| input | contender | best (ms) | median (ms) | spread | MB/s | URLs/s | peak RSS (MB) | VmHWM (MB) | URLs | other load / steal (cores) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const key of Object.keys(run.results)) {
    for (const [name, r] of Object.entries(run.results[key])) {
      lines.push(`| ${key} | ${name} | ${r.wallMs.toFixed(1)} | ${r.medianWallMs.toFixed(1)} | ${(r.spread * 100).toFixed(1)}% (${r.runs}) | ${rate(r.xmlBytes, r.wallMs).toFixed(1)} | ${fmtInt((N / r.wallMs) * 1000)} | ${mb(r.peakRssKiB).toFixed(1)} | ${hwm(r)} | ${fmtInt(r.urls)} | ${load(r)} |`);
    }
  }
  lines.push(...ratioTable('first call', run.ratios));
  lines.push(...newOverOldTable(run.newOverOld, 'best cold wall time', run.settings.baseline));
  if (run.steady !== undefined) {
    lines.push(
      '',
      `Steady state: each contender reads the input ${run.settings.steadyCalls} times in one fresh process (\`sitemap\`: ${run.settings.peerSteadyCalls}), one call after the other; the first call is cold, the median of the others is the steady state (every call must give the same counts). MB/s and URLs/s are of the steady state. Peak RSS: the process's maxRSS after all its calls.`,
      '',
      '| input | contender | first call (ms) | steady, median (ms) | warm calls: best – worst (ms) | MB/s | URLs/s | peak RSS (MB) | other load / steal (cores) |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const key of Object.keys(run.steady)) {
      for (const [name, r] of Object.entries(run.steady[key])) {
        lines.push(`| ${key} | ${name} | ${r.firstMs.toFixed(1)} | ${r.steadyMs.toFixed(1)} | ${r.bestWarmMs.toFixed(1)} – ${r.worstWarmMs.toFixed(1)} (${r.callsMs.length - 1}) | ${rate(r.xmlBytes, r.steadyMs).toFixed(1)} | ${fmtInt((N / r.steadyMs) * 1000)} | ${mb(r.peakRssKiB).toFixed(1)} | ${load(r)} |`);
      }
    }
    lines.push(...ratioTable('steady state', run.steadyRatios));
    lines.push(...newOverOldTable(run.steadyNewOverOld, 'steady state', run.settings.baseline));
  }
  if (run.rss !== undefined) {
    const i = run.rss.input;
    lines.push('', `Memory: one ${fmtInt(i.fileBytes)}-byte urlset of ${fmtInt(i.urls)} URLs (the same entries, more of them; serializeSitemap with the protocol limits lifted; readSitemap with maxBytes 1 GiB), one run each.`, '');
    lines.push('| contender | wall time (s) | MB/s | URLs/s | peak RSS (MB) | VmHWM (MB) | URLs | other load / steal (cores) |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const name of RSS_CONTENDERS) {
      const r = run.rss.contenders[name];
      if (r === undefined) continue;
      lines.push(`| ${name} | ${(r.wallMs / 1000).toFixed(2)} | ${rate(r.xmlBytes, r.wallMs).toFixed(1)} | ${fmtInt((i.urls / r.wallMs) * 1000)} | ${mb(r.peakRssKiB).toFixed(1)} | ${hwm(r)} | ${fmtInt(r.urls)} | ${load(r)} |`);
    }
  }
  const judged = run.steady !== undefined ? 'judged on the steady state (throughput); the first, cold call is shown beside, informational' : 'judged on the first call (no steady-state phase in this run)';
  lines.push('', `Targets: sitemapkit ≥ ${TARGETS.speedupVsSitemap}× the \`sitemap\` parser; sitemapkit ≥ ${TARGETS.shareOfFloor * 100}% of the TextDecoder rate (both ${judged}); sitemapkit peak RSS < ${TARGETS.peakRssMB} MB on a 500 MB input.`, '');
  for (const t of run.targets) lines.push(`- ${t.informational ? '(informational) ' : ''}${t.name}: **${t.value.toFixed(1)}${t.unit}** (target ${t.target}) — **${t.pass ? 'PASS' : 'FAIL'}**`);
  lines.push(`- correctness: every run of every contender reported ${N.toLocaleString('en-US')} URLs; the parsers agreed on the summed loc lengths, images and alternates, and all saw the same decompressed bytes${run.checkedFloor ? ' (the floor: counted tags, untimed)' : ''}.`);
  const busy = [];
  for (const [key, c] of Object.entries(run.results)) for (const [name, r] of Object.entries(c)) if (r.backgroundCores + r.stealCores > 0.25) busy.push(`${name} on ${key} (${(r.backgroundCores + r.stealCores).toFixed(1)} cores)`);
  for (const [key, c] of Object.entries(run.steady ?? {})) for (const [name, r] of Object.entries(c)) if (r.backgroundCores + r.stealCores > 0.25) busy.push(`${name} on ${key}, steady state (${(r.backgroundCores + r.stealCores).toFixed(1)} cores)`);
  if (busy.length > 0) lines.push(`- **noisy**: other processes or the hypervisor were busy during ${busy.join(', ')}; rerun on an idle machine for figures to compare.`);
  return lines.join('\n') + '\n';
}

function make(what, dir, extra = []) {
  return spawnChild(SCRIPT, ['--make', what, '--dir', dir, ...extra], { label: `writing the ${what} input` });
}

async function runParent(args) {
  buildsOf(args.baseline); // both built
  session.baselineDist = args.baseline;
  session.gnuTime = probeGnuTime();
  const names = ORDER.filter((n) => (args.only ?? ORDER).includes(n)).flatMap((n) => (args.baseline !== undefined && BUILT.has(n) ? [n, tagged(n, 'old')] : [n]));
  const own = args.dir === undefined;
  const dir = own ? mkdtempSync(join(tmpdir(), 'sitemapkit-bench-read-')) : args.dir;
  mkdirSync(dir, { recursive: true });
  try {
    process.stderr.write(`bench: writing the inputs in ${dir} … `);
    const { inputs } = await make('inputs', dir, args.inputs !== undefined ? ['--inputs', args.inputs.join(',')] : []);
    await verifyCommands(inputs, names);
    process.stderr.write(Object.entries(inputs).map(([k, i]) => `${k} ${(i.fileBytes / 1e6).toFixed(1)} MB`).join(', ') + '\n');

    const runs = {};
    for (const key of Object.keys(inputs)) runs[key] = Object.fromEntries(names.map((n) => [n, []]));
    for (let rep = 0; rep < args.reps; rep++) {
      for (const key of Object.keys(inputs)) {
        const waited = await waitForQuiet();
        if (waited > 1500) process.stderr.write(`bench: waited ${(waited / 1000).toFixed(0)} s for other processes to quiet down\n`);
        const order = names.map((_, k) => names[(k + rep) % names.length]);
        for (const name of order) {
          if ((name === 'sitemap' || name === 'script') && rep >= args.peerReps) continue;
          process.stderr.write(`bench: round ${rep + 1}/${args.reps} ${key} ${name} … `);
          const r = await runChildOn(name, inputs[key]);
          process.stderr.write(describeRun(r) + '\n');
          runs[key][name].push(r);
        }
      }
    }

    const results = {};
    let checkedFloor = false;
    for (const key of Object.keys(inputs)) {
      const contenders = {};
      for (const name of names) contenders[name] = { allRuns: runs[key][name] };
      verify(key, contenders);
      results[key] = {};
      for (const name of names) results[key][name] = summarizeRuns(runs[key][name]);
      const any = results[key].sitemapkit ?? results[key].saxes ?? results[key].floor ?? results[key].sitemap;
      // The whole commands (cli, script) count no images: with only those, the input's line leaves them out.
      inputs[key].images = any?.images;
      inputs[key].alternates = any?.alternates;
      if (names.includes('floor')) checkedFloor = true;
    }
    process.stderr.write(`bench: correctness: every contender reported ${N} URLs on every input\n`);

    let steady;
    if (args.steadyCalls > 0) {
      steady = {};
      for (const key of Object.keys(inputs)) {
        await waitForQuiet();
        const stRuns = {};
        for (const name of names) {
          const calls = name === 'sitemap' ? args.peerSteadyCalls : args.steadyCalls;
          if (calls === 0 || COMMANDS.has(name.split('@')[0])) continue;
          process.stderr.write(`bench: steady state ${key} ${name}, ${calls} calls … `);
          const r = await runChildOn(name, inputs[key].path, calls);
          process.stderr.write(`${r.callsMs.map((ms) => ms.toFixed(0)).join(' ')} ms\n`);
          stRuns[name] = { allRuns: [r] };
        }
        verify(key, stRuns);
        steady[key] = Object.fromEntries(Object.entries(stRuns).map(([name, c]) => [name, summarizeSteady(c.allRuns[0])]));
      }
    }

    let rss;
    if (args.rss) {
      const rssNames = RSS_CONTENDERS.filter((n) => names.includes(n));
      process.stderr.write(`bench: writing a ~${args.rssMB} MB input … `);
      const big = await make('big', dir, ['--rss-mb', String(args.rssMB), '--bytes-per-url', String((inputs.plain ?? Object.values(inputs)[0]).xmlBytes / N)]);
      process.stderr.write(`${fmtInt(big.fileBytes)} bytes, ${fmtInt(big.urls)} URLs\n`);
      try {
        rss = { input: { fileBytes: big.fileBytes, xmlBytes: big.fileBytes, urls: big.urls }, contenders: {} };
        for (const name of rssNames) {
          await waitForQuiet();
          process.stderr.write(`bench: ${args.rssMB} MB input, ${name} … `);
          const r = await runChildOn(name, big.path);
          process.stderr.write(describeRun(r) + '\n');
          if (r.urls !== big.urls) throw new Error(`CORRECTNESS FAILURE on the ${args.rssMB} MB input: ${name} reported ${r.urls} URLs, expected ${big.urls}`);
          if (r.xmlBytes !== big.fileBytes) throw new Error(`CORRECTNESS FAILURE on the ${args.rssMB} MB input: ${name} saw ${r.xmlBytes} bytes, the file has ${big.fileBytes}`);
          rss.contenders[name] = r;
        }
      } finally {
        rmSync(big.path, { force: true });
      }
    }

    const { ratios, steadyRatios, targets, newOverOld: oldRatios, steadyNewOverOld } = evaluate(results, rss, steady);
    const run = {
      benchmark: 'read',
      date: new Date().toISOString(),
      environment: environment(),
      settings: { seed: SEED, baseUrl: BASE_URL, urls: N, gzipLevel: LEVEL, readChunk: CHUNK, reps: args.reps, peerReps: args.peerReps, steadyCalls: args.steadyCalls, peerSteadyCalls: args.peerSteadyCalls, baseline: args.baseline, realisticInputs: REALISTIC_INPUTS, rssMB: args.rss ? args.rssMB : undefined },
      inputs: Object.fromEntries(Object.entries(inputs).map(([k, i]) => [k, { file: INPUTS[k].file, description: INPUTS[k].text, fileBytes: i.fileBytes, xmlBytes: i.xmlBytes, images: i.images, alternates: i.alternates }])),
      targets,
      ratios,
      newOverOld: oldRatios,
      results,
      ...(steady !== undefined ? { steady, steadyRatios, steadyNewOverOld } : {}),
      checkedFloor,
      parentRssMaxMB: mb(parentRssMaxKiB),
      ...(rss !== undefined ? { rss } : {}),
    };
    writeResults('read', run, render);
    return targets.every((t) => t.informational || t.pass);
  } finally {
    if (own) rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.child !== undefined) {
    await runChild(args);
    return;
  }
  if (args.make !== undefined) {
    await runMake(args);
    return;
  }
  if (!(await runParent(args))) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 2;
});
