// A run killed with SIGKILL in the middle leaves the previous output unchanged; a run stopped at any
// step of its commit leaves the old set or the new one, never a mix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { interceptSteps } from '../helpers/commit-steps.js';
import { page, writeSite } from '../helpers/site.js';

const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
// Resolved here, not from the child's working directory (a temporary one).
const TSX = import.meta.resolve('tsx');

function snapshot(dir: string): Map<string, Buffer> {
  return new Map(
    readdirSync(dir)
      .filter((f) => !f.startsWith('.'))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f))]),
  );
}

/** Bytes written so far into the run's temporary directory, if it exists. */
function stagedBytes(out: string): number {
  let total = 0;
  for (const name of readdirSync(out).filter((f) => f.startsWith('.sitemapkit-tmp-'))) {
    for (const file of readdirSync(join(out, name))) total += statSync(join(out, name, file)).size;
  }
  return total;
}

test('SIGKILL in the middle of a run leaves the previous set exactly as it was', async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  writeFileSync(join(dir, 'old.txt'), Array.from({ length: 120 }, (_, i) => `/old/${i}`).join('\n'));
  const first = await runCli(['generate', 'old.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--max-urls', '50', '--quiet'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  const before = snapshot(out);
  const children = [...before.keys()].filter((name) => name !== 'sitemap.xml');
  assert.equal(children.length, 3);
  children.forEach((name, i) => assert.match(name, new RegExp(`^sitemap-0000${i + 1}\\.[0-9a-f]{8}\\.xml\\.gz$`)));

  // A run fed through stdin that never ends: it is certainly in the middle when killed.
  const child = spawn(process.execPath, ['--import', TSX, BIN, 'generate', '-', '--base-url', 'https://www.example.com/', '--out', 'out', '--max-urls', '1000'], {
    cwd: dir,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  // Writes still queued when the child is killed fail with EPIPE; that is expected here.
  child.stdin.on('error', () => {});
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  let written = 0;
  const deadline = Date.now() + 60_000;
  while (stagedBytes(out) < 200_000) {
    assert.ok(Date.now() < deadline, `the run never started writing: ${stderr}`);
    const lines = Array.from({ length: 5000 }, () => `/new/${written++}`).join('\n') + '\n';
    if (!child.stdin.write(lines)) await new Promise((resolve) => child.stdin.once('drain', resolve));
    await sleep(5);
  }
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');

  // The visible set is byte for byte the previous one; only the hidden staging directory is left, and
  // the set's lock, which names the killed process (the next run takes it over).
  assert.deepEqual(snapshot(out), before);
  const hidden = readdirSync(out).filter((f) => f.startsWith('.')).sort();
  assert.equal(hidden.length, 2);
  assert.equal(hidden[0], '.sitemapkit-lock-sitemap');
  assert.match(hidden[1] as string, /^\.sitemapkit-tmp-\d+-/);

  // The next run replaces the set and clears what the killed run left.
  writeFileSync(join(dir, 'new.txt'), '/fresh\n');
  const next = await runCli(['generate', 'new.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--json'], { cwd: dir });
  assert.equal(next.code, 0, next.stderr);
  assert.deepEqual(readdirSync(out).sort(), ['sitemap.xml']);
  assert.deepEqual(JSON.parse(next.stdout).removed, children);
});

test('Ctrl-C (SIGINT) stops the run, removes its temporary files and keeps the previous set', async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  writeFileSync(join(dir, 'old.txt'), '/old\n');
  assert.equal((await runCli(['generate', 'old.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--quiet'], { cwd: dir })).code, 0);
  const before = snapshot(out);
  const child = spawn(process.execPath, ['--import', TSX, BIN, 'generate', '-', '--base-url', 'https://www.example.com/', '--out', 'out'], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  // Writes still queued when the child is killed fail with EPIPE; that is expected here.
  child.stdin.on('error', () => {});
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let n = 0;
  const deadline = Date.now() + 60_000;
  while (stagedBytes(out) === 0) {
    assert.ok(Date.now() < deadline, `the run never started writing: ${stderr}`);
    if (!child.stdin.write(Array.from({ length: 5000 }, () => `/new/${n++}`).join('\n') + '\n')) await new Promise((resolve) => child.stdin.once('drain', resolve));
    await sleep(5);
  }
  child.kill('SIGINT');
  // Keep stdin open: the run must stop on the signal, not because its input ended.
  assert.equal(await exited, 130, stderr);
  assert.match(stderr, /interrupted/);
  assert.deepEqual(snapshot(out), before);
  assert.deepEqual(readdirSync(out).filter((f) => f.startsWith('.')), []);
  child.stdin.destroy();
});

// ---- One commit point -------------------------------------------------------------------------------
// A run stopped at any rename or removal in the output folder (a kill there, or that step failing)
// must leave the entry file and every file it names exactly as the old set or exactly as the new one.

const BASE = 'https://www.example.com/';

/** The entry file and every file it names, name → bytes (base64), or 'missing' for a name with no file. */
function publishedSet(out: string, entry = 'sitemap.xml'): Map<string, string> {
  const set = new Map<string, string>();
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(out, entry));
  } catch {
    return set.set(entry, 'missing');
  }
  set.set(entry, bytes.toString('base64'));
  const xml = bytes.toString('utf8');
  if (!xml.includes('<sitemapindex')) return set;
  for (const [, loc] of xml.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const name = (loc as string).slice(BASE.length);
    try {
      set.set(name, readFileSync(join(out, name)).toString('base64'));
    } catch {
      set.set(name, 'missing');
    }
  }
  return set;
}

function describeSet(set: Map<string, string>, old: Map<string, string>, next: Map<string, string>): string {
  return [...set].map(([name, bytes]) => `${name}: ${bytes === 'missing' ? 'missing' : bytes === old.get(name) ? 'old' : bytes === next.get(name) ? 'new' : 'other bytes'}`).join(', ');
}

function assertOldOrNew(out: string, old: Map<string, string>, next: Map<string, string>, at: string): void {
  const now = publishedSet(out);
  assert.ok(isDeepStrictEqual(now, old) || isDeepStrictEqual(now, next), `${at}: the published set is neither the old nor the new one: ${describeSet(now, old, next)}`);
}

const visibleFiles = (out: string): string[] => readdirSync(out).filter((f) => !f.startsWith('.')).sort();

interface Scenario {
  /** Writes the old set into `dir` (its output in `dir/out`); `dir` copied elsewhere is the same state there. */
  before(dir: string): Promise<void>;
  /** Writes the new set; resolves with the exit code. */
  after(dir: string): Promise<number>;
}

/**
 * Runs `after` once to count its steps, then again from the old set for every step, stopped there
 * (frozen, as by a kill) or failing there, and checks the published set each time; a complete run
 * after a stopped one publishes the new set and leaves no file of either run behind.
 */
async function everyStep(scenario: Scenario): Promise<number> {
  // The old set is made once and copied for each stop (a third of the runs were making it again).
  const origin = tempDir();
  await scenario.before(origin);
  const reference = tempDir();
  cpSync(origin, reference, { recursive: true, preserveTimestamps: true });
  const old = publishedSet(join(reference, 'out'));
  const counting = interceptSteps(join(reference, 'out'));
  let code: number;
  try {
    code = await scenario.after(reference);
  } finally {
    counting.restore();
  }
  assert.equal(code, 0);
  const next = publishedSet(join(reference, 'out'));
  assert.notDeepEqual(next, old);
  const files = visibleFiles(join(reference, 'out'));
  const steps = counting.steps.length;
  assert.ok(steps >= 2, counting.steps.join(', '));
  // The shape of a commit: children in, the entry file in, old files out.
  const entryAt = counting.steps.indexOf('rename sitemap.xml');
  assert.ok(entryAt >= 0, counting.steps.join(', '));
  counting.steps.forEach((step, i) => assert.match(step, i < entryAt ? /^rename / : i > entryAt ? /^remove / : /./, counting.steps.join(', ')));

  for (let at = 1; at <= steps; at++) {
    for (const action of ['freeze', 'fail'] as const) {
      const dir = tempDir();
      const out = join(dir, 'out');
      cpSync(origin, dir, { recursive: true, preserveTimestamps: true });
      const stop = interceptSteps(out, at, action);
      let outcome: string;
      try {
        const running = scenario.after(dir);
        running.catch(() => {});
        outcome = await Promise.race([stop.reached.then(() => 'stopped'), running.then(() => 'finished', () => 'failed')]);
        if (action === 'fail') await running.catch(() => {});
      } finally {
        stop.restore();
      }
      const where = `${action} at step ${at} (${stop.steps[at - 1] ?? '?'}) of ${counting.steps.join(', ')}`;
      assert.equal(outcome, 'stopped', where);
      assertOldOrNew(out, old, next, where);
      assert.equal(await scenario.after(dir), 0, where);
      assert.deepEqual(publishedSet(out), next, where);
      assert.deepEqual(visibleFiles(out), files, where);
    }
  }
  return steps;
}

function generateScenario(old: { urls: string[]; args: string[] }, next: { urls: string[]; args: string[] }): Scenario {
  const run = async (dir: string, urls: string[], args: string[], file: string): Promise<number> => {
    writeFileSync(join(dir, file), urls.join('\n') + '\n');
    const result = await runCli(['generate', file, '--base-url', BASE, '--out', 'out', '--quiet', ...args], { cwd: dir });
    return result.code;
  };
  return {
    async before(dir) {
      assert.equal(await run(dir, old.urls, old.args, 'old.txt'), 0);
    },
    after: (dir) => run(dir, next.urls, next.args, 'new.txt'),
  };
}

const paths = (prefix: string, n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `/${prefix}/${from + i}`);

test('generate: an index of 3 children replaced by one of 5, stopped at every step, is the old set or the new one', async () => {
  await everyStep(generateScenario({ urls: paths('old', 120), args: ['--max-urls', '50'] }, { urls: paths('new', 150), args: ['--max-urls', '30'] }));
});

test('generate: an index of 5 children replaced by one of 3 that shares its first 2 children, at every step', async () => {
  await everyStep(generateScenario({ urls: paths('p', 250), args: ['--max-urls', '50'] }, { urls: [...paths('p', 100), ...paths('q', 20)], args: ['--max-urls', '50'] }));
});

test('generate: a single sitemap replaced by an index, and an index by a single sitemap, at every step', async () => {
  await everyStep(generateScenario({ urls: paths('one', 10), args: [] }, { urls: paths('many', 90), args: ['--max-urls', '40'] }));
  await everyStep(generateScenario({ urls: paths('many', 90), args: ['--max-urls', '40', '--no-gzip'] }, { urls: paths('one', 10), args: ['--no-gzip'] }));
});

const buildArgs = (dir: string): string[] => ['build', join(dir, 'site'), '--base-url', BASE, '--out', join(dir, 'out'), '--initial-lastmod', 'now', '--threads', '0', '--max-urls', '4', '--quiet'];
const BUILD_TIMES = [1_790_000_000, 1_790_086_400];

/** The site's pages before, and the change made to them before the second build. */
function writeBuildSite(dir: string, version: 0 | 1): void {
  const site = join(dir, 'site');
  if (version === 0) {
    const pages: Record<string, string> = { 'index.html': page({ title: 'Home' }), 'about.html': page({ title: 'About' }) };
    for (let i = 0; i < 6; i++) pages[`blog/post-${i}.html`] = page({ title: `Post ${i}` });
    for (let i = 0; i < 3; i++) pages[`docs/page-${i}.html`] = page({ title: `Doc ${i}` });
    writeSite(site, pages);
    return;
  }
  // One post edited, the docs section gone, a shop section new; the root section unchanged.
  rmSync(join(site, 'docs'), { recursive: true, force: true });
  const pages: Record<string, string> = { 'blog/post-2.html': page({ title: 'Post 2', body: '<p>Revised.</p>' }) };
  for (let i = 0; i < 2; i++) pages[`shop/item-${i}.html`] = page({ title: `Item ${i}` });
  writeSite(site, pages);
}

function buildScenario(): Scenario {
  const build = async (dir: string, epoch: number): Promise<number> => (await runCli(buildArgs(dir), { cwd: dir, env: { SOURCE_DATE_EPOCH: String(epoch) } })).code;
  return {
    async before(dir) {
      writeBuildSite(dir, 0);
      assert.equal(await build(dir, BUILD_TIMES[0] as number), 0);
    },
    async after(dir) {
      writeBuildSite(dir, 1);
      return build(dir, BUILD_TIMES[1] as number);
    },
  };
}

test('build: a new set (one section changed, one gone, one new) stopped at every step is the old set or the new one', async () => {
  await everyStep(buildScenario());
});

test('SIGKILL at a rename of the commit (a real kill, in a child process) leaves the old set or the new one', async () => {
  const KILLER = fileURLToPath(new URL('./kill-at-step.ts', import.meta.url));
  const scenario = generateScenario({ urls: paths('old', 120), args: ['--max-urls', '50'] }, { urls: paths('new', 150), args: ['--max-urls', '30'] });
  const reference = tempDir();
  await scenario.before(reference);
  const old = publishedSet(join(reference, 'out'));
  await scenario.after(reference);
  const next = publishedSet(join(reference, 'out'));
  // A step of each kind (every step is stopped in this process above; a spawn costs seconds): the last
  // child's rename before the entry file's, the entry file's own, and the first removal of an old child.
  for (const at of [5, 6, 7]) {
    const dir = tempDir();
    await scenario.before(dir);
    writeFileSync(join(dir, 'new.txt'), paths('new', 150).join('\n') + '\n');
    const child = spawnSync(process.execPath, ['--import', TSX, KILLER, join(dir, 'out'), String(at), '--', 'generate', 'new.txt', '--base-url', BASE, '--out', 'out', '--max-urls', '30', '--quiet'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(child.signal, 'SIGKILL', `step ${at}: ${child.stderr}`);
    assertOldOrNew(join(dir, 'out'), old, next, `SIGKILL at step ${at}`);
  }
});

test('build: SIGKILL (a real kill, in a child process) at a rename or removal of the commit leaves the old set or the new one', async () => {
  const KILLER = fileURLToPath(new URL('./kill-at-step.ts', import.meta.url));
  const scenario = buildScenario();
  const reference = tempDir();
  await scenario.before(reference);
  const old = publishedSet(join(reference, 'out'));
  await scenario.after(reference);
  const next = publishedSet(join(reference, 'out'));
  // Between the two new children, at the index, at the first removal after it.
  for (const at of [2, 3, 4]) {
    const dir = tempDir();
    await scenario.before(dir);
    writeBuildSite(dir, 1);
    const child = spawnSync(process.execPath, ['--import', TSX, KILLER, join(dir, 'out'), String(at), '--', ...buildArgs(dir)], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, SOURCE_DATE_EPOCH: String(BUILD_TIMES[1]) },
    });
    assert.equal(child.signal, 'SIGKILL', `step ${at}: ${child.stderr}`);
    assertOldOrNew(join(dir, 'out'), old, next, `SIGKILL at step ${at}`);
  }
});
