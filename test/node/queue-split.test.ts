// A queued run's shard files (node/scale/queue-split.ts): each entry is checked and serialised once,
// where it is split, and its shard's file holds it as a spill record that the shard job sets aside
// as it is; an entry the set refuses is reported there, with its code; a file cut short is an error,
// not a shard written from part of its entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, truncateSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { shardOf } from '../../src/core/scale/layout.js';
import { ShardFiles, readShardRecords } from '../../src/node/scale/queue-split.js';
import { Spill, stemOfRecord } from '../../src/node/scale/spill.js';
import { FileSystemStorage } from '../../src/node/scale/storage.js';
import { tempDir } from '../helpers/tmp.js';

const BASE = 'https://www.example.com/';

test('ShardFiles: entries routed to their shard as records, in order; a refused entry is reported with its code, not routed', async () => {
  const storage = new FileSystemStorage(tempDir());
  const problems: string[] = [];
  const files = new ShardFiles(storage, { baseUrl: BASE }, 3, (shard) => `input/shard-${shard}.records`, (problem) => problems.push(problem));
  const entries = Array.from({ length: 300 }, (_, i) => ({ loc: `${BASE}${i % 2 === 0 ? 'shoes' : 'hats'}/item-${i}?size=${i % 5}&color=r`, lastmod: '2025-01-02' }));
  for (const [i, entry] of entries.entries()) await files.add(entry, `in.jsonl:${i + 1}`);
  await files.add({ loc: `${BASE}shoes/bad`, lastmod: 'yesterday' }, 'in.jsonl:301');
  await files.add({ loc: 'https://other.example.org/x' }, 'in.jsonl:302');
  const written = await files.close();
  assert.equal(files.outcome.entries, 300);
  assert.equal(files.outcome.rejected, 2);
  assert.match(problems[0] as string, /^in\.jsonl:301: lastmod\/invalid /);
  assert.match(problems[1] as string, /^in\.jsonl:302: loc\/out-of-scope /);
  // Each shard's records, read back, are its entries in the order given, under the child of each URL.
  for (const file of written) {
    const shard = Number(/shard-(\d+)/.exec(file)?.[1]);
    const spill = new Spill(() => join(storage.localDir, 'unused'));
    const stems: string[] = [];
    for await (const record of readShardRecords(join(storage.localDir, file))) {
      stems.push(stemOfRecord(record));
      spill.addEncoded(stemOfRecord(record), record);
    }
    const mine = entries.filter((e) => shardOf(e.loc, { shards: 3, baseUrl: BASE }).bucket === shard);
    assert.deepEqual(stems, mine.map((e) => shardOf(e.loc, { shards: 3, baseUrl: BASE }).child));
    const locs = spill.keys().flatMap((stem) => spill.take(stem).map((r) => r.item?.loc));
    assert.deepEqual(locs.sort(), mine.map((e) => e.loc).sort());
  }
});

test('readShardRecords: a file cut inside a record is an error, not part of a shard', async () => {
  const storage = new FileSystemStorage(tempDir());
  const files = new ShardFiles(storage, { baseUrl: BASE }, 1, () => 'shard-0.records');
  for (let i = 0; i < 50; i++) await files.add({ loc: `${BASE}a/${i}` }, `x:${i}`);
  const [file] = await files.close();
  const path = join(storage.localDir, file as string);
  assert.ok(readFileSync(path, 'utf8').endsWith('\0'));
  truncateSync(path, statSync(path).size - 3);
  await assert.rejects(async () => {
    for await (const record of readShardRecords(path)) void record;
  }, /ends inside a record: it was not written whole/);
  await assert.rejects(async () => {
    for await (const record of readShardRecords(join(storage.localDir, 'missing.records'))) void record;
  }, /cannot read .*missing\.records: no such file/);
});
