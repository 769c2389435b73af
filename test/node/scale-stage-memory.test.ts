// stageChildren keeps, for each child written, its file's record (name, counts, newest lastmod) until
// the run ends: that record must not keep the child's entries alive. A lastmod sliced from a larger
// string (the spill file of the child's changes, read whole; a chunk of the reader) kept the whole
// string alive in V8: apply at 20,000,000 URLs grew by ~0.4 MB of live heap a child, 50 MB in all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { serializedFrom, type SerializedEntry } from '../../src/core/build/stable-set.js';
import { ALL_EXTENSIONS } from '../../src/core/write/url-entry.js';
import { setSerializer, shardOutput, shardSettings, stageChildren } from '../../src/node/scale/shard-set.js';
import { tempDir } from '../helpers/tmp.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

test("the files stageChildren returns do not hold their children's entries alive", async () => {
  const settings = shardSettings({ outDir: tempDir(), baseUrl: 'https://www.example.com/', shards: 1, gzip: false });
  const serializer = setSerializer(settings);
  const output = await shardOutput(settings);
  const stems = Array.from({ length: 40 }, (_, k) => `sitemap-s${String(k).padStart(2, '0')}.0`);
  // Each child's one entry has its lastmod sliced out of 2 MB of text of its own, as a spill's records are.
  const load = (stem: string): SerializedEntry[] => {
    const text = `${'x'.repeat(2_000_000)}${stem}\x012026-11-26T12:00:00Z\x01`;
    const at = text.indexOf('\x01') + 1;
    const item = serializedFrom(serializer, serializer.serialize({ loc: `https://www.example.com/s/${stem}`, lastmod: '2026-11-26T12:00:00Z' }, ALL_EXTENSIONS));
    item.lastmodText = text.slice(at, text.indexOf('\x01', at));
    return [item];
  };
  try {
    gc();
    const before = process.memoryUsage().heapUsed;
    const { files } = await stageChildren(output, stems, load, settings);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    assert.equal(files.length, 40);
    assert.ok(files.every((file) => file.lastmod === '2026-11-26T12:00:00Z'));
    // 40 children × 2 MB when each lastmod held its text; a few hundred KB otherwise.
    assert.ok(grown < 10 * 1024 * 1024, `the heap grew by ${(grown / 1048576).toFixed(1)} MB over 40 children`);
  } finally {
    await output.abort();
  }
});
