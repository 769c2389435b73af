// A run killed with SIGKILL in the middle leaves the previous output unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

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
  assert.deepEqual([...before.keys()], ['sitemap-00001.xml.gz', 'sitemap-00002.xml.gz', 'sitemap-00003.xml.gz', 'sitemap.xml']);

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

  // The visible set is byte for byte the previous one; only the hidden staging directory is left.
  assert.deepEqual(snapshot(out), before);
  const hidden = readdirSync(out).filter((f) => f.startsWith('.'));
  assert.equal(hidden.length, 1);
  assert.match(hidden[0] as string, /^\.sitemapkit-tmp-\d+-/);

  // The next run replaces the set and clears what the killed run left.
  writeFileSync(join(dir, 'new.txt'), '/fresh\n');
  const next = await runCli(['generate', 'new.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--json'], { cwd: dir });
  assert.equal(next.code, 0, next.stderr);
  assert.deepEqual(readdirSync(out).sort(), ['sitemap.xml']);
  assert.deepEqual(JSON.parse(next.stdout).removed, ['sitemap-00001.xml.gz', 'sitemap-00002.xml.gz', 'sitemap-00003.xml.gz']);
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
