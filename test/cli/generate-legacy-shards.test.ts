// generate --shards under --limits legacy: an index holds at most the profile's 1,000 sitemaps, and the
// summary counts the indexes; index keeps the profile. Slow (~12 s): 1,001 child files are the least that need two indexes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

test('a sharded set of 1,001 files under the legacy profile has two indexes of at most 1,000 sitemaps', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), Array.from({ length: 1001 }, (_, i) => `https://a.example/p/${i}\n`).join(''));
  const run = await runCli(['generate', 'urls.txt', '--base-url', 'https://a.example/', '--out', 'out', '--shards', '1', '--limits', 'legacy', '--max-urls', '1', '--no-gzip'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^Wrote 1,001 URLs in 1,001 sitemaps and 2 indexes to /);
  const counts = [1, 2].map((k) => readFileSync(join(dir, 'out', 'sitemap-indexes', `sitemap-index-${k}.xml`), 'utf8').split('<sitemap>').length - 1);
  assert.deepEqual(counts, [1000, 1]);
  // index, given the manifests, keeps the profile they were written with (it published one index of 1,001).
  const index = await runCli(['index', 'out/sitemap-shard-0-of-1.json', '--out', 'out', '--format', 'json'], { cwd: dir });
  assert.equal(index.code, 0, index.stderr);
  assert.deepEqual(JSON.parse(index.stdout).indexFiles.map((f: { sitemaps: number }) => f.sitemaps), [1000, 1]);
});
