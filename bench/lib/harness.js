// Shared by the bench scripts (generate.js, read.js): one contender per child process, its result as
// one tagged JSON line on stdout; machine load and hypervisor steal measured around each child.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus, platform, release, arch, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';

export const RESULT_TAG = '@@bench-result ';

/**
 * This workplace sets NODE_EXTRA_CA_CERTS to Debian's whole CA bundle, which every Node process parses
 * before its first line of script: `node -e 0` took 48 ms with it and 19 ms without, here. A default
 * Node install sets nothing, and a user waits for that; so the commands the benches time run without
 * it (every child inherits this environment), unless SITEMAPKIT_BENCH_KEEP_ENV=1. environment()
 * records which, with Node's start both ways, so the figures with it can be told from the results.
 */
const EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
const KEEP_ENV = process.env.SITEMAPKIT_BENCH_KEEP_ENV === '1';
if (!KEEP_ENV) delete process.env.NODE_EXTRA_CA_CERTS;

/** `node -e 0`'s best wall time of 5, in ms, with the given extra CA bundle (or none). */
function nodeStartMs(caCerts) {
  const env = { ...process.env };
  if (caCerts === undefined) delete env.NODE_EXTRA_CA_CERTS;
  else env.NODE_EXTRA_CA_CERTS = caCerts;
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env, stdio: 'ignore' });
    best = Math.min(best, performance.now() - started);
  }
  return Math.round(best * 10) / 10;
}

/** What environment() says of NODE_EXTRA_CA_CERTS, measured once. */
function extraCaCerts() {
  if (EXTRA_CA_CERTS === undefined) return undefined;
  return { path: EXTRA_CA_CERTS, keptForCommands: KEEP_ENV, nodeStartWithMs: nodeStartMs(EXTRA_CA_CERTS), nodeStartWithoutMs: nodeStartMs(undefined) };
}

/** A markdown sentence on NODE_EXTRA_CA_CERTS for a bench's results ('' when it was not set). */
export function extraCaCertsNote(env) {
  const ca = env.extraCaCerts;
  if (ca === undefined) return '';
  const start = `\`node -e 0\` ${ca.nodeStartWithMs} ms with it, ${ca.nodeStartWithoutMs} ms without (best of 5)`;
  return ca.keptForCommands
    ? `This machine sets NODE_EXTRA_CA_CERTS=${ca.path}, which every Node process parses at its start (${start}); it was kept for the commands timed here (SITEMAPKIT_BENCH_KEEP_ENV=1).`
    : `This machine sets NODE_EXTRA_CA_CERTS=${ca.path}, which every Node process parses at its start (${start}); a default Node install does not, so the commands timed here ran without it (SITEMAPKIT_BENCH_KEEP_ENV=1 keeps it).`;
}

/** Peak resident set size of this process so far, in KiB (main thread and workers). */
export function peakRssKiB() {
  return process.resourceUsage().maxRSS;
}

/** This process's own high-water RSS (Linux VmHWM, KiB): unlike maxRSS, it does not start from the parent's RSS at fork. */
export function vmHwmKiB() {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m === null ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

/** User + system CPU time of this process so far, in ms (all threads). */
export function processCpuMs() {
  const usage = process.resourceUsage();
  return (usage.userCPUTime + usage.systemCPUTime) / 1000;
}

export function check(condition, message) {
  if (!condition) throw new Error(`correctness check failed: ${message}`);
}

/** KiB → MB (10^6 bytes). */
export const mb = (kib) => (kib * 1024) / 1e6;

/** CPU time of the whole machine so far, in ms (Linux /proc/stat; undefined elsewhere). */
export function machineCpu() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields;
    // USER_HZ is 100 on Linux. steal: time the hypervisor gave this VM's CPUs to someone else.
    return { busy: ((user + nice + system + irq + softirq) * 1000) / 100, steal: ((steal ?? 0) * 1000) / 100 };
  } catch {
    return undefined;
  }
}

function machineBusyMs() {
  return machineCpu()?.busy;
}

/**
 * Waits (up to `maxMs`, at most BENCH_MAX_QUIET_WAIT_MS when set: on a machine shared with work that
 * does not stop, every round would wait the whole time) for a second in which other processes use
 * under 0.3 cores; returns the ms waited. The load left is recorded with every run.
 */
export async function waitForQuiet(maxMs = 120_000) {
  if (process.env.BENCH_MAX_QUIET_WAIT_MS !== undefined) maxMs = Math.min(maxMs, Number(process.env.BENCH_MAX_QUIET_WAIT_MS));
  const start = performance.now();
  while (performance.now() - start < maxMs) {
    const before = machineBusyMs();
    if (before === undefined) return 0;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if ((machineBusyMs() - before) / 1000 < 0.3) break;
  }
  return performance.now() - start;
}

/**
 * Runs `node [nodeArgs] script args` and resolves with the JSON of its RESULT_TAG line, plus
 * `processMs` (spawn to exit), `backgroundCores` (CPU other processes used meanwhile, in cores),
 * `stealCores` and the first lines of its stderr, if any. Rejects with `label failed: …` when the child
 * exits non-zero or prints no result. `cleanup` runs when the child has exited, before settling.
 */
export function spawnChild(script, args, { label, nodeArgs = [], cleanup } = {}) {
  const started = performance.now();
  const cpuBefore = machineCpu();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => {
      if (stderr.length < 64 * 1024) stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      cleanup?.();
      const processMs = performance.now() - started;
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_TAG));
      if (code !== 0 || line === undefined) {
        reject(new Error(`${label} failed: exit ${code ?? signal}\n${stderr.trim()}`));
        return;
      }
      const result = JSON.parse(line.slice(RESULT_TAG.length));
      result.processMs = processMs;
      const cpuAfter = machineCpu();
      // CPU used by other processes while this child ran, in cores, and CPU time stolen by the
      // hypervisor: both make the figures noisy (the machine has os.cpus().length cores).
      if (cpuBefore !== undefined && cpuAfter !== undefined) {
        result.backgroundCores = Math.max(0, (cpuAfter.busy - cpuBefore.busy - result.childCpuMs) / processMs);
        result.stealCores = (cpuAfter.steal - cpuBefore.steal) / processMs;
      }
      if (stderr.trim() !== '') result.stderr = stderr.trim().split('\n').slice(0, 5).join('\n');
      resolve(result);
    });
  });
}

export function environment() {
  const c = cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${platform()} ${release()} ${arch()}`,
    cpus: c.length,
    cpuModel: c[0]?.model ?? 'unknown',
    totalMemoryMB: Math.round(totalmem() / 1e6),
    extraCaCerts: extraCaCerts(),
  };
}

/**
 * Reads a bench script's arguments one by one: `next()` the next flag, `value()` the value after it,
 * `count()` that value as a positive whole number (underscores allowed); `usage(problem)` on errors.
 */
export function argumentReader(argv, usage) {
  let i = -1;
  let flag = '';
  const value = () => {
    const v = argv[++i];
    if (v === undefined) usage(`${flag} needs a value`);
    return v;
  };
  return {
    next() {
      flag = argv[++i];
      return flag;
    },
    value,
    count() {
      const v = value();
      const x = Number(String(v).replace(/_/g, ''));
      if (!Number.isInteger(x) || x < 1) usage(`${flag} must be a positive whole number, got ${v}`);
      return x;
    },
    list() {
      return value().split(',').map((s) => s.trim()).filter(Boolean);
    },
  };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Several runs of one contender: best, median and worst wall time; the best run's fields, with the worst RSS and load of all runs (RSS null when unknown). */
export function summarizeRuns(runs) {
  const walls = runs.map((r) => r.wallMs);
  const best = runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
  const min = Math.min(...walls);
  const max = Math.max(...walls);
  const rssKnown = runs.every((r) => typeof r.peakRssKiB === 'number');
  const summary = {
    ...best,
    runs: runs.length,
    wallMs: min,
    medianWallMs: median(walls),
    maxWallMs: max,
    spread: (max - min) / min,
    peakRssKiB: rssKnown ? Math.max(...runs.map((r) => r.peakRssKiB)) : null,
    wallsMs: walls,
  };
  if (runs.some((r) => r.vmHwmKiB !== undefined)) summary.vmHwmKiB = Math.max(...runs.map((r) => r.vmHwmKiB ?? 0));
  if (runs.some((r) => r.loadMs !== undefined)) summary.loadMs = Math.min(...runs.map((r) => r.loadMs));
  if (runs.some((r) => r.backgroundCores !== undefined)) {
    summary.backgroundCores = Math.max(...runs.map((r) => r.backgroundCores ?? 0));
    summary.stealCores = Math.max(...runs.map((r) => r.stealCores ?? 0));
  }
  return summary;
}

/** GNU time, for a child's peak RSS and CPU (validate.js and discover.js time whole commands with it). */
export const GNU_TIME = '/usr/bin/time';
/** Wall seconds, peak RSS in KiB, user and system CPU seconds. */
export const GNU_TIME_FORMAT = '%e %M %U %S';

/** Whether /usr/bin/time is GNU time and prints our format as the last line of stderr. */
export function probeGnuTime() {
  if (!existsSync(GNU_TIME)) return false;
  const probe = spawnSync(GNU_TIME, ['-f', GNU_TIME_FORMAT, process.execPath, '-e', '0'], { encoding: 'utf8' });
  return probe.status === 0 && parseGnuTime(probe.stderr) !== undefined;
}

/** The last line of stderr as GNU_TIME_FORMAT: { peakRssKiB, cpuMs }, or undefined. */
export function parseGnuTime(stderr) {
  const last = stderr.trimEnd().split('\n').at(-1) ?? '';
  const m = /^(\d+(?:\.\d+)?) (\d+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(last.trim());
  if (m === null) return undefined;
  return { peakRssKiB: Number(m[2]), cpuMs: (Number(m[3]) + Number(m[4])) * 1000 };
}

/**
 * A command timed under GNU time: takes GNU time's line off `stderr` into `result` (peakRssKiB,
 * childCpuMs, and as spawnChild does, the CPU other processes used meanwhile and the time the
 * hypervisor stole, in cores, from `cpuBefore` to now). Returns the stderr left, or undefined when
 * there is no such line.
 */
export function takeGnuTime(result, stderr, cpuBefore) {
  const timed = parseGnuTime(stderr);
  if (timed === undefined) return undefined;
  const cpuAfter = machineCpu();
  result.peakRssKiB = timed.peakRssKiB;
  result.childCpuMs = timed.cpuMs;
  if (cpuBefore !== undefined && cpuAfter !== undefined) {
    result.backgroundCores = Math.max(0, (cpuAfter.busy - cpuBefore.busy - timed.cpuMs) / result.wallMs);
    result.stealCores = (cpuAfter.steal - cpuBefore.steal) / result.wallMs;
  }
  return stderr.trimEnd().split('\n').slice(0, -1).join('\n');
}

/** Prints `text` (the usage) and exits: 0 for --help, 2 with `problem` on stderr. */
export function exitWithUsage(script, text, problem) {
  if (problem !== undefined) {
    console.error(`bench/${script}: ${problem}\n${text}`);
    process.exit(2);
  }
  console.log(text);
  process.exit(0);
}

/** bench/results/ */
export const RESULTS_DIR = join(dirname(dirname(fileURLToPath(import.meta.url))), 'results');

/** Writes bench/results/NAME.json (the run) and NAME.md (`render(run)`), and prints the markdown. */
export function writeResults(name, run, render) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const jsonPath = join(RESULTS_DIR, `${name}.json`);
  const mdPath = join(RESULTS_DIR, `${name}.md`);
  writeFileSync(jsonPath, JSON.stringify(run, null, 2) + '\n');
  const md = render(run);
  writeFileSync(mdPath, md);
  console.log('\n' + md);
  console.log(`written: ${relative(process.cwd(), jsonPath)} and ${relative(process.cwd(), mdPath)}`);
}

/** Written by HWM_PRELOAD on a child's stderr as it exits: that process's own VmHWM, in KiB. */
export const HWM_TAG = '@@bench-vmhwm ';
/** A `--import` preload that reports the process's VmHWM (peak RSS of that process alone) on exit. */
export const HWM_PRELOAD = `data:text/javascript,${encodeURIComponent(
  `import { readFileSync, writeSync } from 'node:fs';
process.on('exit', () => {
  try {
    const m = /^VmHWM:\\s+(\\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m !== null) writeSync(2, '\\n${HWM_TAG}' + m[1] + '\\n');
  } catch {}
});`,
)}`;

/**
 * Runs `argv` (argv[0] is node) with HWM_PRELOAD, under GNU time when `gnuTime`, in `cwd`, in its own
 * process group (killed whole after `killAfterMs`). Resolves with `wallMs` (spawn to close, measured
 * here), `exitCode`, `stdout` (whole, or its first `maxStdout` characters), `stderr` (the tools' lines
 * removed), `vmHwmKiB`, and under GNU time `peakRssKiB`, `childCpuMs`, `backgroundCores`, `stealCores`
 * (else `peakRssKiB` is the VmHWM, or null); `killedAfterMs` when it was killed.
 */
export function runTimedCommand(argv, { gnuTime, cwd, env = {}, label, killAfterMs, maxStdout = Infinity }) {
  const node = [argv[0], '--import', HWM_PRELOAD, ...argv.slice(1)];
  const command = gnuTime ? [GNU_TIME, '-f', GNU_TIME_FORMAT, ...node] : node;
  const cpuBefore = machineCpu();
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out = [];
    let outLength = 0;
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, killAfterMs);
    child.stdout.on('data', (d) => {
      if (outLength < maxStdout) {
        out.push(d);
        outLength += d.length;
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      if (stderr.length < 256 * 1024) stderr += d;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${label}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const wallMs = performance.now() - started;
      const stdout = Buffer.concat(out).toString('utf8');
      const result = { wallMs, exitCode: code ?? signal, stdout: maxStdout === Infinity ? stdout : stdout.slice(0, maxStdout), ...(killed ? { killedAfterMs: killAfterMs } : {}) };
      if (gnuTime) stderr = takeGnuTime(result, stderr, cpuBefore) ?? stderr;
      const lines = stderr.split('\n');
      const hwmLine = lines.find((l) => l.startsWith(HWM_TAG));
      if (hwmLine !== undefined) result.vmHwmKiB = Number(hwmLine.slice(HWM_TAG.length));
      result.peakRssKiB ??= result.vmHwmKiB ?? null;
      result.stderr = lines.filter((l) => !l.startsWith(HWM_TAG)).join('\n').trim();
      resolve(result);
    });
  });
}
