// The spill of sharded writes (node/scale/spill.ts): records set aside by key come back in the order
// given, whether they waited in memory or went to disk, with every field and deletions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Spill } from '../../src/node/scale/spill.js';
import type { SerializedEntry } from '../../src/core/build/stable-set.js';
import { tempDir } from '../helpers/tmp.js';

const item = (loc: string, i: number): SerializedEntry => {
  const xml = `<url><loc>${loc.replace(/&/g, '&amp;')}</loc>${i % 2 === 0 ? '<lastmod>2025-01-02</lastmod>' : ''}<image:image><image:loc>https://x.example/${i}.jpg</image:loc></image:image></url>\n`;
  return {
  loc,
  xml,
  bytes: Buffer.byteLength(xml),
  namespaces: i % 3,
  lastmodMs: i % 2 === 0 ? Date.UTC(2025, 0, 2) : Number.NaN,
  ...(i % 2 === 0 ? { lastmodText: '2025-01-02' } : {}),
  ...(i % 5 === 0 ? {} : { hash: i * 1_000_003 }),
  };
};

for (const maxPending of [1, 300, 1 << 30]) {
  test(`records come back per key in the order given (at most ${maxPending} characters waiting in memory)`, () => {
    const dir = tempDir();
    const spill = new Spill((key) => join(dir, `k-${key}`), maxPending);
    const expected = new Map<string, { stem: string; loc: string; item: SerializedEntry | null }[]>();
    for (let i = 0; i < 60; i++) {
      const key = `sitemap-s${i % 3}.${i % 2}`;
      const loc = `https://www.example.com/s${i % 3}/p?a=${i}&b=ü`;
      const value = i % 7 === 3 ? null : item(loc, i);
      spill.add(key, loc, value);
      const list = expected.get(key) ?? [];
      list.push({ stem: key, loc, item: value });
      expected.set(key, list);
    }
    assert.deepEqual(spill.keys(), [...expected.keys()].sort());
    if (maxPending === 1) assert.equal(readdirSync(dir).length, 6, 'every key went to disk');
    if (maxPending === 1 << 30) assert.deepEqual(readdirSync(dir), [], 'nothing went to disk');
    for (const key of spill.keys()) {
      assert.deepEqual(spill.take(key), expected.get(key), key);
      assert.ok(!existsSync(join(dir, `k-${key}`)), 'a key taken leaves no file');
      assert.deepEqual(spill.take(key), [], 'a key is taken once');
    }
    assert.deepEqual(readdirSync(dir), []);
  });
}

test('flush puts every waiting record on disk; they come back in order from there', () => {
  const dir = tempDir();
  const spill = new Spill((key) => join(dir, `k-${key}`), 1 << 30);
  spill.add('a', 'https://www.example.com/1', item('https://www.example.com/1', 1));
  spill.add('b', 'https://www.example.com/2', null);
  spill.add('a', 'https://www.example.com/3', item('https://www.example.com/3', 2));
  assert.deepEqual(readdirSync(dir), []);
  spill.flush();
  assert.deepEqual(readdirSync(dir).sort(), ['k-a', 'k-b']);
  assert.deepEqual(spill.take('a').map((r) => r.loc), ['https://www.example.com/1', 'https://www.example.com/3']);
  assert.deepEqual(spill.take('b'), [{ stem: 'b', loc: 'https://www.example.com/2', item: null }]);
});

test('generate --shards lays out a large child without holding the event loop: the stem is read as bytes, in steps (stem-records.ts)', async () => {
  const { writeShardedSet } = await import('../../src/node/scale/generate-sharded.js');
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  // One section, one child of 10,000 URLs: laid out whole from entry objects, it held the loop for ~40% of the run, now ~12%.
  // Read in batches, as the CLI reads a file: the input itself yields between them.
  async function* locs(): AsyncGenerator<{ loc: string }[]> {
    for (let from = 0; from < 10_000; from += 1000) {
      await new Promise(setImmediate);
      yield Array.from({ length: 1000 }, (_, i) => ({ loc: `https://www.example.com/shop/item-${from + i}?colour=${i % 13}` }));
    }
  }
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  await writeShardedSet(locs(), { outDir: tempDir(), baseUrl: 'https://www.example.com/', shards: 1, gzip: false });
  delay.disable();
  const wall = performance.now() - started;
  assert.ok(delay.max / 1e6 < wall / 4, `longest stall ${Math.round(delay.max / 1e6)} ms of a ${Math.round(wall)} ms run`);
});
