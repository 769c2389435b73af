// Issue 27: `apply`'s memory depends on the children it touches, not on how many changes went through
// them. 100,000 new URLs (19 MB of feed) applied over 128 children of a small set, by the built CLI
// (dist/, `npm run build`) in a child process: its peak RSS stays near the 125-130 MB measured, far from
// the 190-215 MB of a run that kept each child's changes alive (a lastmod sliced from them) and let
// V8 grow its heap to four times the live size (bench:scale has the 20,000,000-URL figures).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBuiltCli, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const BASE = 'https://www.example.com/';
const MAX_RSS_BYTES = 160 * 1024 * 1024;

test('apply: 100,000 changes over 128 children in a child process, peak RSS under 160 MB', async () => {
  const dir = tempDir();
  const sections = ['a', 'b', 'c', 'd', 'e', 'f'];
  const entries = Array.from({ length: 6000 }, (_, i) => JSON.stringify({ loc: `${BASE}${sections[i % 6]}/item-${i}`, lastmod: `2025-01-0${1 + (i % 9)}` }));
  writeFileSync(join(dir, 'in.jsonl'), entries.join('\n') + '\n');
  assert.equal((await runCli(['generate', 'in.jsonl', '--shards', '64', '--out', 'out', '--base-url', BASE, '--quiet'], { cwd: dir })).code, 0);
  // New items in sections a and b: every one of their 2 × 64 children touched, ~780 changes each.
  const changes = Array.from({ length: 100_000 }, (_, i) => {
    const section = i % 2 === 0 ? 'a' : 'b';
    return JSON.stringify({ op: 'upsert', loc: `${BASE}${section}/new-item-with-a-longer-name-${i}?colour=blue&size=${i % 7}`, lastmod: '2026-11-26T12:00:00Z', images: [{ loc: `https://img.example.com/${section}/${i}.jpg` }] });
  });
  writeFileSync(join(dir, 'changes.jsonl'), changes.join('\n') + '\n');
  const applied = await runBuiltCli(['apply', 'changes.jsonl', '--out', 'out', '--format', 'json'], dir);
  assert.equal(applied.code, 0, applied.stderr);
  const summary = JSON.parse(applied.stdout);
  assert.equal(summary.upserts, 100_000);
  assert.equal(summary.touched.length, 128);
  assert.ok(applied.maxRss > 0, 'no RSS reported');
  assert.ok(applied.maxRss < MAX_RSS_BYTES, `peak RSS ${(applied.maxRss / 1048576).toFixed(0)} MB, over 160 MB`);
});
