// generate --shards under --limits legacy: the index holds at most the profile's 1,000 sitemaps.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tempDir } from '../helpers/tmp.js';
import { writeShardedSet } from '../../src/node/scale/generate-sharded.js';

test('a sharded set of 1,001 files under the legacy profile has two indexes of at most 1,000 sitemaps', async () => {
  const outDir = tempDir();
  const entries = Array.from({ length: 1001 }, (_, i) => ({ loc: `https://a.example/p/${i}` }));
  const set = await writeShardedSet(entries, { outDir, baseUrl: 'https://a.example/', shards: 1, profile: 'legacy', maxUrls: 1, gzip: false, compressionThreads: 1 });
  assert.deepEqual(set.indexFiles.map((f) => f.sitemaps), [1000, 1]);
  for (const f of set.indexFiles) assert.equal(readFileSync(f.path, 'utf8').split('<sitemap>').length - 1, f.sitemaps);
});
