// A set's folder shared by several machines (the workers of a sharded set): a run removes what runs
// of its own machine left when their process is gone, never another machine's temporary folder
// (whose process it cannot see).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { writeShard } from '../../src/node/scale/shard-set.js';
import { tempDir } from '../helpers/tmp.js';

test('a shard writer removes its own machine\'s stale temporary folders, not another machine\'s', async () => {
  const out = tempDir();
  const here = (crc32(hostname()) >>> 0).toString(16).padStart(8, '0');
  const elsewhere = here === 'deadbeef' ? 'feedface' : 'deadbeef';
  // A process id above any pid_max: no such process here.
  const gone = 4_194_305;
  const names = [`.sitemapkit-tmp-${gone}-${elsewhere}-a1b2c3`, `.sitemapkit-tmp-${gone}-${here}-a1b2c3`, `.sitemapkit-tmp-${gone}-a1b2c3`];
  for (const name of names) mkdirSync(join(out, name));
  await writeShard({ entries: [{ loc: 'https://www.example.com/a/1' }], shard: 0, shards: 1, outDir: out, baseUrl: 'https://www.example.com/' });
  assert.deepEqual(readdirSync(out).filter((f) => f.startsWith('.')), [names[0]]);
});
