// A run a signal stops exits 128 + the signal's number, as a shell reports it: 130 for Ctrl-C
// (SIGINT), 143 for SIGTERM (what `kill`, systemd and Docker send).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDir } from '../helpers/tmp.js';

const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  test(`generate stopped by ${signal} exits ${code}`, async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['--import', TSX, BIN, 'generate', '-', '--base-url', 'https://www.example.com/', '--out', 'out'], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdin.on('error', () => {});
    const exited = new Promise<number | null>((resolve) => child.on('exit', (status) => resolve(status)));
    // Its staging directory exists: the run is under way, its handler installed. stdin stays open.
    const deadline = Date.now() + 60_000;
    while (!readdirSync(dir).includes('out') || !readdirSync(join(dir, 'out')).some((f) => f.startsWith('.sitemapkit-tmp-'))) {
      assert.ok(Date.now() < deadline, `the run never started writing: ${stderr}`);
      child.stdin.write('/page\n');
      await sleep(20);
    }
    child.kill(signal);
    assert.equal(await exited, code, stderr);
    assert.match(stderr, /interrupted/);
    child.stdin.destroy();
  });
}
