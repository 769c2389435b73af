// The progress line of long work on a terminal (progress.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Progress } from '../../src/cli/progress.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

test('the progress line writes the control characters of a name as escapes: a hostile name cannot drive the terminal', () => {
  let written = '';
  const io = { stdout: { write: () => {} }, stderr: { write: (text: string) => (written += text), isTTY: true }, cwd: '.', env: {} };
  const progress = Progress.onTerminal(io, true, () => 'report: reading sitemap-\u001b]0;pwned\u0007.xml\n: 1 URL');
  progress.tick();
  assert.equal(written, '\r\u001b[Kreport: reading sitemap-\\u001b]0;pwned\\u0007.xml\\n: 1 URL');
});

test('TERM=dumb (terminfo: no escapes) gets no progress line, which is redrawn with a carriage return and an ANSI erase', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), '/a\n/b\n');
  const stderr = async (env: Record<string, string>): Promise<string> => (await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out'], { cwd: dir, tty: true, env })).stderr;
  assert.match(await stderr({ TERM: 'xterm-256color' }), /\r\u001b\[Kgenerating: 2 URLs/);
  assert.equal(await stderr({ TERM: 'dumb' }), '');
});

test('the progress line fits the terminal as it is at each redraw: after a resize, a line cut to the old width would wrap and stay', async () => {
  let written = '';
  const stderr = { write: (text: string) => (written += text), isTTY: true, columns: 80 };
  const progress = Progress.onTerminal({ stdout: { write: () => {} }, stderr, cwd: '.', env: {} }, true, () => 'x'.repeat(100));
  progress.tick();
  assert.equal(written, `\r\u001b[K${'x'.repeat(78)}\u2026`);
  stderr.columns = 40;
  written = '';
  // Past the redraw interval (100 ms).
  await new Promise((resolve) => setTimeout(resolve, 150));
  progress.tick();
  assert.equal(written, `\r\u001b[K${'x'.repeat(38)}\u2026`);
});
