// A queued run's shard job holds one child stem at a time, and a stem costs about its records' size
// (node/scale/stem-records.ts): a 40,000-URL stem (one section, one shard) is written by a process
// whose peak RSS stays far below what a record as an object with strings cost (~2.5 KB a URL: the
// worker passed 250 MB at 25,000-URL stems). Measured in a child process of the built modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ShardFiles } from '../../src/node/scale/queue-split.js';
import { FileSystemStorage } from '../../src/node/scale/storage.js';
import { runNode } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const BASE = 'https://shop.example.com/';
const URLS = 40_000;
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

test(`a shard job with one ${URLS}-URL child stem: peak RSS of the process under 135 MB`, async () => {
  assert.ok(existsSync(join(DIST, 'node/scale/worker.js')), 'dist/ is missing: run npm run build');
  const storage = new FileSystemStorage(tempDir());
  const files = new ShardFiles(storage, { baseUrl: BASE }, 1, () => 'input/shard-0.records');
  for (let i = 0; i < URLS; i++) {
    const loc = `${BASE}products/item-${i}-${(i * 7919) % 100_003}?color=${['red', 'blue', 'green'][i % 3]}&size=${i % 13}`;
    await files.add({ loc, lastmod: `2025-0${1 + (i % 9)}-1${i % 10}T08:30:00Z`, images: [{ loc: `${BASE}img/${i}/front.jpg` }, { loc: `${BASE}img/${i}/back.jpg` }] }, `in:${i}`);
  }
  assert.deepEqual(await files.close(), ['input/shard-0.records']);
  const job = { kind: 'shard', run: 'r1', out: storage.localDir, shards: 1, set: { baseUrl: BASE }, shard: 0, inputs: ['input/shard-0.records'] };
  const script = `
    const { writeShardJob } = await import(${JSON.stringify(pathToFileURL(join(DIST, 'node/scale/worker.js')).href)});
    const { FileSystemStorage } = await import(${JSON.stringify(pathToFileURL(join(DIST, 'node/scale/storage.js')).href)});
    const job = ${JSON.stringify(job)};
    console.log(JSON.stringify(await writeShardJob(job, new FileSystemStorage(job.out))));`;
  // As the worker runs: V8's heap held to 1.3 times what is live (worker.ts).
  const run = await runNode(['--heap-growing-percent=30', '--input-type=module', '-e', script]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).entries, URLS);
  const manifest = JSON.parse(readFileSync(join(storage.localDir, '.sitemapkit-queue/r1/manifests/sitemap-shard-0-of-1.json'), 'utf8')) as { urls: number; files: unknown[] };
  assert.equal(manifest.urls, URLS);
  const peakMB = run.maxRss / 1048576;
  assert.ok(peakMB < 135, `peak RSS ${peakMB.toFixed(0)} MB`);
  console.log(`shard job, one ${URLS}-URL stem: peak RSS ${peakMB.toFixed(0)} MB`);
});
