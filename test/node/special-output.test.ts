// Output to a device or a FIFO (`--out /dev/null`) is written into it, never replaced by a rename:
// as root, `discover --out /dev/null` and `report --out /dev/null` used to put a regular file in the
// place of /dev/null (the atomic writers renamed a temporary file over it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../src/node/staged-output.js';
import { runCli } from '../helpers/cli.js';

const SITEMAP = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>\n';

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'sitemapkit-special-'));
}

/**
 * A FIFO at `path` with a reader (`cat`, started now); `read()` gives what was written into it. A
 * writer that never opens the FIFO (it was renamed over) leaves the reader waiting: `read()` stops
 * it after 3 s and gives what it had, so that the test fails rather than hangs.
 */
function fifo(path: string): { read(): Promise<string> } {
  const made = spawnSync('mkfifo', [path]);
  assert.equal(made.status, 0, `mkfifo: ${made.stderr}`);
  const reader = spawn('cat', [path], { stdio: ['ignore', 'pipe', 'ignore'] });
  let text = '';
  reader.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const ended = new Promise<void>((resolve) => reader.once('close', () => resolve()));
  return {
    async read() {
      const timer = setTimeout(() => reader.kill(), 3000);
      await ended;
      clearTimeout(timer);
      return text;
    },
  };
}

/** A null character device at `path` (mknod needs root): false when it cannot be made. */
function nullDevice(path: string): boolean {
  return spawnSync('mknod', ['-m', '666', path, 'c', '1', '3']).status === 0;
}

test('writeFileAtomic into a FIFO writes into it and leaves it a FIFO', async () => {
  const dir = scratch();
  try {
    const path = join(dir, 'pipe');
    const read = fifo(path);
    await writeFileAtomic(path, 'hello\n');
    assert.equal(await read.read(), 'hello\n');
    assert.ok(lstatSync(path).isFIFO());
    assert.deepEqual(readdirSync(dir), ['pipe']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('report --out FIFO writes the page into it and leaves it a FIFO', async () => {
  const dir = scratch();
  try {
    writeFileSync(join(dir, 'sitemap.xml'), SITEMAP);
    const read = fifo(join(dir, 'page'));
    const result = await runCli(['report', 'sitemap.xml', '--out', 'page'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(await read.read(), /^<!DOCTYPE html>/i);
    assert.ok(lstatSync(join(dir, 'page')).isFIFO());
    assert.deepEqual(readdirSync(dir).sort(), ['page', 'sitemap.xml']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('discover --out FIFO writes into it and leaves it a FIFO', async () => {
  const dir = scratch();
  try {
    const read = fifo(join(dir, 'urls'));
    // Nothing listens on port 1: the run ends with nothing found, its (empty) output still written.
    const result = await runCli(['discover', 'http://127.0.0.1:1/', '--allow-private', '--format', 'urls', '--out', 'urls', '--quiet'], { cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(await read.read(), '');
    assert.ok(lstatSync(join(dir, 'urls')).isFIFO());
    assert.deepEqual(readdirSync(dir), ['urls']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a null device given as --out or --file stays a device (discover, report, robots, writeFileAtomic)', async (t) => {
  const dir = scratch();
  try {
    const device = join(dir, 'null');
    if (!nullDevice(device)) return t.skip('mknod needs root');
    writeFileSync(join(dir, 'sitemap.xml'), SITEMAP);
    await writeFileAtomic(device, 'x');
    assert.equal((await runCli(['report', 'sitemap.xml', '--out', 'null'], { cwd: dir })).code, 0);
    assert.equal((await runCli(['discover', 'http://127.0.0.1:1/', '--allow-private', '--format', 'urls', '--out', 'null', '--quiet'], { cwd: dir })).code, 1);
    assert.equal((await runCli(['robots', '--sitemap', 'https://a.example/sitemap.xml', '--file', 'null'], { cwd: dir })).code, 0);
    assert.ok(lstatSync(device).isCharacterDevice());
    assert.deepEqual(readdirSync(dir).sort(), ['null', 'sitemap.xml']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
