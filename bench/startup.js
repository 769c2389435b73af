#!/usr/bin/env node
// bench:startup — what the CLI's own start costs: `node dist/cli/bin.cjs <command>` on a tiny input (or
// a closed local port for discover) against `node -e 0`, many runs, interleaved
// (every round runs every case once, in a rotated order). The median counts; the difference to
// `node -e 0` is the cost of importing the package and the command plus the command's fixed work.
// Target (issue 24): at most 20 ms above `node -e 0` for every command. The import alone of each
// command (its loader and bundle, dist/cli/bundle/NAME.load.cjs) is timed too, in `node -e`: the package and the
// command, without the command's own work (generate and build start worker threads, for instance).
//
//   npm run bench:startup
//   node bench/startup.js --runs 10                 a quicker run
//   node bench/startup.js --baseline /tmp/base/dist  the old build's CLI too (see bench/lib/builds.js)
//
// Results: bench/results/startup.json and bench/results/startup.md. Exit 1 when a target fails.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { argumentReader, environment, exitWithUsage, median, writeResults, extraCaCertsNote } from './lib/harness.js';
import { buildsOf, cliBin, newOverOld, newOverOldTable, tagged } from './lib/builds.js';
import { realisticSitemap } from './lib/realistic.js';

const TARGET_MS = 20;

/**
 * The commands timed, as argv after bin.cjs, each with the exit status it must end with. FILE, LIST,
 * SITE are tiny inputs, OUT a scratch folder (built once before the rounds, for indexnow's state).
 * discover is pointed at a closed local port (refused at once): the whole command loads and runs.
 */
const CASES = {
  '--version': { argv: ['--version'] },
  'read FILE': { argv: ['read', 'FILE'] },
  'validate FILE': { argv: ['validate', 'FILE'] },
  'validate FILE --format json': { argv: ['validate', 'FILE', '--format', 'json'] },
  'generate LIST': { argv: ['generate', 'LIST', '--base-url', 'https://www.example.com/', '--out', 'OUT/generated', '--quiet'] },
  'build SITE': { argv: ['build', 'SITE', '--base-url', 'https://www.example.com/', '--out', 'OUT/built', '--quiet'] },
  'indexnow --dry-run': { argv: ['indexnow', '--key', 'abcdef12345678', '--out', 'OUT/built', '--dry-run'] },
  'robots --check': { argv: ['robots', '--sitemap', 'https://www.example.com/sitemap.xml', '--file', 'OUT/robots.txt', '--check'], exit: 1 },
  'discover (refused)': { argv: ['discover', 'http://127.0.0.1:9/', '--allow-private', '--retries', '0', '--format', 'urls', '--quiet'], exit: 1 },
  'validate --help': { argv: ['validate', '--help'] },
};

/**
 * The import alone of each command (what the issue's +20 ms is about), in `node -e`: its loader and
 * bundle (dist/cli/bundle/NAME.load.cjs, required as the CommonJS bin does), the ES module loader of a
 * build from before that (dist/cli/bundle/NAME.js), or main.js and the command's module in a build
 * from before the bundle (a baseline).
 */
const IMPORTS = ['generate', 'read', 'validate', 'discover', 'build', 'robots', 'indexnow'];
function importArgv(dist, name) {
  const loader = join(dist, 'cli', 'bundle', `${name}.load.cjs`);
  if (existsSync(loader)) return ['-e', `require(${JSON.stringify(loader)});`];
  const bundle = join(dist, 'cli', 'bundle', `${name}.js`);
  const files = existsSync(bundle) ? [bundle] : [join(dist, 'cli', 'main.js'), join(dist, 'cli', 'commands', `${name}.js`)];
  return ['--input-type=module', '-e', files.map((f) => `await import(${JSON.stringify(pathToFileURL(f).href)});`).join(' ')];
}

function parseArgs(argv) {
  const args = { runs: 25, baseline: undefined };
  const arg = argumentReader(argv, usage);
  for (let a = arg.next(); a !== undefined; a = arg.next()) {
    if (a === '--runs') args.runs = arg.count();
    else if (a === '--baseline') args.baseline = arg.value();
    else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument ${a}`);
  }
  return args;
}

function usage(problem) {
  exitWithUsage('startup', 'usage: node bench/startup.js [--runs N] [--baseline DIST]', problem);
}

/** CPU time of this process's waited-for children so far, in ms (Linux: cutime + cstime, 10 ms ticks), else NaN. */
function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return NaN;
  }
}

/** One run of `node ARGV`, output discarded (as to /dev/null): wall ms from spawn to exit, and its CPU ms. */
function timeOnce(argv, label, exit = 0) {
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== exit) throw new Error(`${label} exited ${r.status ?? r.signal}: ${String(r.stderr).slice(0, 500)}`);
  return { ms, cpuMs: childrenCpuMs() - cpu0 };
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

function render(run) {
  const lines = ['# bench:startup', '', 'Written by `bench/startup.js` (`npm run bench:startup`); do not edit by hand.', '', `${run.date} · Node ${run.environment.node} · ${run.environment.cpus} × ${run.environment.cpuModel}`, '', ...(extraCaCertsNote(run.environment) !== '' ? [extraCaCertsNote(run.environment), ''] : [])];
  lines.push(`Each case run ${run.runs} times, interleaved with the others; output discarded. FILE: a ${run.fileUrls}-URL realistic urlset; LIST: ${run.fileUrls} URLs as text. \`node -e 0\`: median **${run.nodeMs.toFixed(1)} ms** wall, ${run.nodeCpuMs.toFixed(1)} ms CPU. Judged on the median wall time; the CPU time (user + system, the mean of 10 ms ticks) is shown because it varies less on a shared machine.`, '');
  lines.push('| command | build | median (ms) | best (ms) | above `node -e 0` (ms) | CPU (ms) | CPU above `node -e 0` (ms) | target |', '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const row of run.rows) lines.push(`| ${row.command.startsWith('(') ? row.command : `\`sitemapkit ${row.command}\``} | ${row.build} | ${row.medianMs.toFixed(1)} | ${row.bestMs.toFixed(1)} | ${row.aboveNodeMs.toFixed(1)} | ${row.cpuMs.toFixed(1)} | ${(row.cpuMs - run.nodeCpuMs).toFixed(1)} | ${row.build === 'new' ? `≤ +${TARGET_MS} ms: **${row.pass ? 'PASS' : 'FAIL'}**` : ''} |`);
  lines.push(...newOverOldTable(run.newOverOld, 'median wall time', run.baseline));
  return lines.join('\n') + '\n';
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const builds = buildsOf(args.baseline);
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-startup-'));
  try {
    const urls = 3;
    const file = join(dir, 'tiny.xml');
    const list = join(dir, 'tiny.txt');
    writeFileSync(file, realisticSitemap(urls));
    writeFileSync(list, Array.from({ length: urls }, (_, i) => `https://www.example.com/page-${i}\n`).join(''));
    const site = join(dir, 'site');
    mkdirSync(join(site, 'a'), { recursive: true });
    for (const page of ['index.html', 'a/index.html']) writeFileSync(join(site, page), '<!doctype html><html><head><title>A page</title></head><body>Text</body></html>\n');
    const fill = (argv) => argv.map((a) => ({ FILE: file, LIST: list, SITE: site })[a] ?? a.replace(/^OUT\//, join(dir, 'out') + '/'));
    const cases = [{ name: 'node -e 0', build: 'node', argv: ['-e', '0'] }];
    for (const [command, { argv, exit }] of Object.entries(CASES)) for (const { build, dist } of builds) cases.push({ name: command, build, argv: [cliBin(dist), ...fill(argv)], exit });
    for (const name of IMPORTS) for (const { build, dist } of builds) cases.push({ name: `(import of ${name})`, build, argv: importArgv(dist, name) });
    timeOnce([cliBin(builds[0].dist), ...fill(CASES['build SITE'].argv)], 'build SITE'); // the state indexnow reads
    const times = cases.map(() => []);
    for (let round = 0; round < args.runs; round++) {
      for (let k = 0; k < cases.length; k++) {
        const i = (k + round) % cases.length;
        times[i].push(timeOnce(cases[i].argv, cases[i].name, cases[i].exit));
      }
      process.stderr.write(`\rbench: round ${round + 1}/${args.runs}`);
    }
    process.stderr.write('\n');
    const walls = times.map((t) => t.map((x) => x.ms));
    const nodeMs = median(walls[0]);
    const rows = cases.slice(1).map((c, k) => {
      const medianMs = median(walls[k + 1]);
      return { command: c.name, build: c.build, medianMs, bestMs: Math.min(...walls[k + 1]), aboveNodeMs: medianMs - nodeMs, cpuMs: mean(times[k + 1].map((x) => x.cpuMs)), pass: medianMs - nodeMs <= TARGET_MS, timesMs: walls[k + 1] };
    });
    const byCommand = {};
    for (const row of rows) (byCommand[row.command] ??= {})[tagged('cli', row.build)] = row;
    const run = { benchmark: 'startup', date: new Date().toISOString(), environment: environment(), runs: args.runs, fileUrls: urls, baseline: args.baseline, targetMs: TARGET_MS, nodeMs, nodeCpuMs: mean(times[0].map((x) => x.cpuMs)), nodeTimesMs: walls[0], rows, newOverOld: newOverOld(byCommand, (r) => r.medianMs) };
    writeResults('startup', run, render);
    if (!rows.every((r) => r.build !== 'new' || r.pass)) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 2;
});
