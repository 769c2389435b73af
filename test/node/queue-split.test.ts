// A queued run's shard files (node/scale/queue-split.ts): each entry is checked and serialised once,
// where it is split, and its shard's file holds it as a spill record, grouped by child, that the shard
// job reads child by child as it is; an entry the set refuses is reported there, with its code; a
// file cut short is an error, not a shard written from part of its entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shardOf } from '../helpers/shard-of.js';
import { ShardFiles, ShardRecords } from '../../src/node/scale/queue-split.js';
import { FileSystemStorage } from '../../src/node/scale/storage.js';
import { tempDir } from '../helpers/tmp.js';
import type { UrlEntry } from '../../src/core/model.js';

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
  // A refused lastmod is dropped with a warning, as generate drops it: the URL is routed.
  assert.equal(files.outcome.entries, 301);
  assert.equal(files.outcome.rejected, 1);
  assert.equal(files.outcome.warnings, 1);
  assert.match(problems[0] as string, /^in\.jsonl:301: warning lastmod\/invalid .*; the URL is written without lastmod$/);
  assert.match(problems[1] as string, /^in\.jsonl:302: loc\/out-of-scope /);
  // Each shard's file, read back child by child, holds its entries under the child of each URL, in the order given.
  for (const file of written) {
    const shard = Number(/shard-(\d+)/.exec(file)?.[1]);
    const mine = [...entries, { loc: `${BASE}shoes/bad` }].filter((e) => shardOf(e.loc, { shards: 3, baseUrl: BASE }).bucket === shard);
    const records = new ShardRecords([join(storage.localDir, file)]);
    const children = [...new Set(mine.map((e) => shardOf(e.loc, { shards: 3, baseUrl: BASE }).child))].sort();
    assert.deepEqual(records.stems(), children);
    for (const child of children) {
      assert.deepEqual(locsOf(records.read(child)), mine.filter((e) => shardOf(e.loc, { shards: 3, baseUrl: BASE }).child === child).map((e) => e.loc));
    }
    records.close();
  }
});

/** The locs of records (spill.ts encodeRecord: the sixth field). */
const locsOf = (records: Buffer): string[] => records.toString('utf8').split('\0').slice(0, -1).map((record) => record.split('\x01')[5] as string);

test('ShardFiles (queue generate, its files and its source parts) drops the refused part of an entry as generate does (a bad image, a news, a fragment), with a warning; the URL is routed', async () => {
  const storage = new FileSystemStorage(tempDir());
  const problems: string[] = [];
  const files = new ShardFiles(storage, { baseUrl: BASE }, 1, () => 'input/shard-0.records', (problem) => problems.push(problem));
  const news = { publication: { name: 'D', language: 'en-US' }, publicationDate: '2024-03-01', title: 'T' };
  await files.add({ loc: `${BASE}a#top`, images: [{ loc: 'http://exa mple.com/x.jpg' }, { loc: `${BASE}ok.jpg` }], news } as UrlEntry, 'in.jsonl:1');
  const [written] = await files.close();
  assert.deepEqual([files.outcome.entries, files.outcome.rejected, files.outcome.warnings], [1, 0, 3]);
  assert.deepEqual(problems.map((p) => / warning (\S+) .*(so .* is written|without this .*)$/.exec(p)?.slice(1).join(' ')), [
    `loc/fragment so "${BASE}a" is written`,
    'news:language/invalid without this news',
    'loc/invalid without this image',
  ]);
  const records = new ShardRecords([join(storage.localDir, written as string)]);
  const [stem] = records.stems();
  const record = records.read(stem as string).toString('utf8');
  assert.ok(record.includes(`${BASE}ok.jpg`) && !record.includes('exa mple') && !record.includes('news:') && !record.includes('#top'), record);
});

test("ShardRecords: a child's records come from every segment of every file, in the order routed", async () => {
  const storage = new FileSystemStorage(tempDir());
  const paths: string[] = [];
  for (const part of [0, 1]) {
    // A segment every few records: each file holds many.
    const files = new ShardFiles(storage, { baseUrl: BASE }, 1, () => `part-${part}.records`, undefined, 700);
    for (let i = 0; i < 60; i++) await files.add({ loc: `${BASE}${i % 3 === 0 ? 'a' : 'b'}/${part}-${i}` }, `x:${i}`);
    paths.push(join(storage.localDir, (await files.close())[0] as string));
  }
  const records = new ShardRecords(paths);
  const expected = (section: string): string[] => [0, 1].flatMap((part) => Array.from({ length: 60 }, (_, i) => i).filter((i) => (i % 3 === 0 ? 'a' : 'b') === section).map((i) => `${BASE}${section}/${part}-${i}`));
  assert.deepEqual(records.stems(), ['sitemap-a.0', 'sitemap-b.0']);
  assert.deepEqual(locsOf(records.read('sitemap-a.0')), expected('a'));
  assert.deepEqual(locsOf(records.read('sitemap-b.0')), expected('b'));
  records.close();
});

test('ShardRecords: a file cut inside a segment is an error, not part of a shard', async () => {
  const storage = new FileSystemStorage(tempDir());
  const files = new ShardFiles(storage, { baseUrl: BASE }, 1, () => 'shard-0.records');
  for (let i = 0; i < 50; i++) await files.add({ loc: `${BASE}a/${i}` }, `x:${i}`);
  const [file] = await files.close();
  const path = join(storage.localDir, file as string);
  assert.ok(readFileSync(path, 'utf8').endsWith('\0'));
  truncateSync(path, statSync(path).size - 3);
  assert.throws(() => new ShardRecords([path]), /ends inside a segment: it was not written whole/);
  assert.throws(() => new ShardRecords([join(storage.localDir, 'missing.records')]), /cannot read .*missing\.records: no such file/);
});

const SPLIT_MODULES = { split: new URL('../../src/node/scale/queue-split.ts', import.meta.url).href, storage: new URL('../../src/node/scale/storage.ts', import.meta.url).href };
const KEYS = 600;

/** Runs the ES module `script` in a process that may open `openFiles` files: its output. */
function runWithOpenFiles(openFiles: number, script: string): Promise<string> {
  const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', script];
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', `ulimit -n ${openFiles} && exec "$@"`, 'sh', ...node], { cwd: fileURLToPath(new URL('../..', import.meta.url)) }, (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve(stdout.trim())));
  });
}

/** Writes KEYS shard files (ShardFiles, a segment every 40 KB) and KEYS child files (GroupFiles) into `dir`, in a process that may open `openFiles` files. */
function splitInChild(dir: string, openFiles: number): Promise<string> {
  return runWithOpenFiles(
    openFiles,
    `
    const { ShardFiles, GroupFiles } = await import(${JSON.stringify(SPLIT_MODULES.split)});
    const { FileSystemStorage } = await import(${JSON.stringify(SPLIT_MODULES.storage)});
    const storage = new FileSystemStorage(${JSON.stringify(dir)});
    const shards = new ShardFiles(storage, { baseUrl: ${JSON.stringify(BASE)} }, ${KEYS}, (shard) => 'input/shard-' + shard + '.records', undefined, 40_000);
    for (let i = 0; i < ${KEYS * 5}; i++) await shards.add({ loc: ${JSON.stringify(BASE)} + (i % 2 ? 'a' : 'b') + '/item-' + i }, 'x:' + i);
    const changes = new GroupFiles(storage, (key) => 'changes/' + key + '.jsonl');
    for (let i = 0; i < ${KEYS * 5}; i++) await changes.write('child-' + (i % ${KEYS}), 'line ' + i + '\\n');
    console.log(JSON.stringify([(await shards.close()).length, (await changes.close()).length]));`,
  );
}

test(`ShardFiles and GroupFiles: ${KEYS} files written by a process that may open 256 files, the same bytes as with every file open at once`, async () => {
  const [limited, open] = [tempDir(), tempDir()];
  // Each file open until close, they failed with EMFILE past the limit (a queued run: up to 65,536 shards or touched children).
  const [fromLimited, fromOpen] = await Promise.all([splitInChild(limited, 256), splitInChild(open, 4 * KEYS)]);
  const [shards, children] = JSON.parse(fromLimited) as [number, number];
  assert.ok(shards > 500, `${shards} shards with entries`);
  assert.equal(children, KEYS);
  assert.equal(fromOpen, fromLimited);
  for (const folder of ['input', 'changes']) {
    const names = readdirSync(join(limited, folder)).sort();
    assert.deepEqual(names, readdirSync(join(open, folder)).sort());
    for (const name of names) assert.ok(readFileSync(join(limited, folder, name)).equals(readFileSync(join(open, folder, name))), `${folder}/${name} differs`);
  }
  // Each shard's records are its own entries, every segment read back; each child's lines in the order written.
  let records = 0;
  for (const name of readdirSync(join(limited, 'input'))) {
    const shard = new ShardRecords([join(limited, 'input', name)]);
    for (const stem of shard.stems()) {
      const locs = locsOf(shard.read(stem));
      records += locs.length;
      for (const loc of locs) assert.equal(`shard-${shardOf(loc, { shards: KEYS, baseUrl: BASE }).bucket}.records`, name);
    }
    shard.close();
  }
  assert.equal(records, KEYS * 5);
  const lines = (key: number): string => Array.from({ length: 5 }, (_, n) => `line ${key + n * KEYS}\n`).join('');
  for (const key of [0, 1, KEYS - 1]) assert.equal(readFileSync(join(limited, 'changes', `child-${key}.jsonl`), 'utf8'), lines(key));
});

test('ShardFiles: records waiting for a segment cost about their bytes, however many shards they are spread over', async () => {
  const storage = new FileSystemStorage(tempDir());
  const shards = 20_000;
  const files = new ShardFiles(storage, { baseUrl: BASE }, shards, (shard) => `input/shard-${shard}.records`);
  const before = process.memoryUsage().arrayBuffers;
  // ~13,000 shards get a record each (~100 bytes): 1.3 MB waiting. Each shard's buffer began at
  // 16 KB: 210 MB at 13,000 shards, a GB at the 65,536 a set may have.
  for (let i = 0; i < shards; i++) await files.add({ loc: `${BASE}a/${i}` }, `x:${i}`);
  const grownMB = (process.memoryUsage().arrayBuffers - before) / 1048576;
  assert.ok(grownMB < 40, `${grownMB.toFixed(0)} MB of buffers for ${files.outcome.entries} records`);
});

test(`ShardRecords: a shard's records from ${KEYS} files (a source's parts), read by a process that may open 256 files`, async () => {
  const storage = new FileSystemStorage(tempDir());
  const paths: string[] = [];
  for (let part = 0; part < KEYS; part++) {
    const files = new ShardFiles(storage, { baseUrl: BASE }, 1, () => `parts/${part}/shard-0.records`);
    for (const section of ['a', 'b']) await files.add({ loc: `${BASE}${section}/${part}` }, `x:${part}`);
    paths.push(join(storage.localDir, (await files.close())[0] as string));
  }
  // Each file open until close, the shard job failed with EMFILE past the limit.
  const read = await runWithOpenFiles(
    256,
    `
    const { ShardRecords } = await import(${JSON.stringify(SPLIT_MODULES.split)});
    const records = new ShardRecords(${JSON.stringify(paths)});
    const read = records.stems().map((stem) => [stem, records.read(stem).toString('utf8')]);
    records.close();
    console.log(JSON.stringify(read));`,
  );
  const expected = (section: string): string[] => Array.from({ length: KEYS }, (_, part) => `${BASE}${section}/${part}`);
  const stems = JSON.parse(read) as [string, string][];
  assert.deepEqual(stems.map(([stem]) => stem), ['sitemap-a.0', 'sitemap-b.0']);
  assert.deepEqual(locsOf(Buffer.from(stems[0]?.[1] as string)), expected('a'));
  assert.deepEqual(locsOf(Buffer.from(stems[1]?.[1] as string)), expected('b'));
});

test('the shard readers and the storage writers of jobs run at once share one pool of open files: 6 shard jobs over 40 part files each, and 40 writers, in a process that may open 64 files', async () => {
  const storage = new FileSystemStorage(tempDir());
  const jobs: string[][] = [];
  for (let job = 0; job < 6; job++) {
    const paths: string[] = [];
    for (let part = 0; part < 40; part++) {
      const files = new ShardFiles(storage, { baseUrl: BASE }, 1, () => `job-${job}/parts/${part}/shard-0.records`);
      for (const section of ['a', 'b', 'c', 'd']) await files.add({ loc: `${BASE}${section}/${job}-${part}` }, `x:${part}`);
      paths.push(join(storage.localDir, (await files.close())[0] as string));
    }
    jobs.push(paths);
  }
  // A cap per job let each of them hold a quarter of the limit (16): six at once failed with EMFILE.
  const read = await runWithOpenFiles(
    64,
    `
    const { readdirSync } = await import('node:fs');
    const { ShardRecords } = await import(${JSON.stringify(SPLIT_MODULES.split)});
    const { FileSystemStorage, MAX_OPEN_FILES } = await import(${JSON.stringify(SPLIT_MODULES.storage)});
    const before = readdirSync('/proc/self/fd').length;
    let peak = 0;
    const count = () => (peak = Math.max(peak, readdirSync('/proc/self/fd').length - before));
    const storage = new FileSystemStorage(${JSON.stringify(join(storage.localDir, 'written'))});
    const writers = [];
    for (let i = 0; i < 40; i++) writers.push(await storage.writer(i + '.txt'));
    const locs = await Promise.all(${JSON.stringify(jobs)}.map(async (paths, job) => {
      const records = new ShardRecords(paths);
      count();
      let n = 0;
      for (const stem of records.stems()) {
        for (let i = job; i < 40; i += 6) await writers[i].write(stem + '\\n');
        count();
        n += records.read(stem).toString('utf8').split('\\0').length - 1;
        count();
        await new Promise((resolve) => setImmediate(resolve));
      }
      records.close();
      return n;
    }));
    await Promise.all(writers.map((writer) => writer.close()));
    console.log(JSON.stringify({ locs, peak, max: MAX_OPEN_FILES }));`,
  );
  const { locs, peak, max } = JSON.parse(read) as { locs: number[]; peak: number; max: number };
  assert.deepEqual(locs, Array<number>(6).fill(160));
  assert.equal(max, 16);
  // The pool's files, and one a reader opens for one read when writers hold every place.
  assert.ok(peak <= max + 1, `${peak} files open at once`);
  assert.equal(readFileSync(join(storage.localDir, 'written', '0.txt'), 'utf8'), 'sitemap-a.0\nsitemap-b.0\nsitemap-c.0\nsitemap-d.0\n');
});

/** Splits part 0 of a source yielding `entries` (the objects themselves) into `dir`: its outcome. */
async function splitEntries(entries: readonly object[]): Promise<import('../../src/node/scale/queue-jobs.js').JobOutcome> {
  const { splitSourcePart } = await import('../../src/node/scale/queue-split.js');
  const dir = tempDir();
  (globalThis as { splitSourceEntries?: unknown }).splitSourceEntries = entries;
  const source = join(dir, 'source.mjs');
  writeFileSync(source, 'export default function* () { yield globalThis.splitSourceEntries; }');
  return splitSourcePart({ kind: 'split', run: 'r', out: dir, shards: 1, set: { baseUrl: BASE }, layout: 3, source, part: 0, parts: 1, sourceOptions: {} }, new FileSystemStorage(dir));
}

test("a source's frozen entry is not changed by the split: with a fragment and a bad hreflang, it is routed with their warnings (it was a TypeError)", async () => {
  const frozen = Object.freeze({ loc: `${BASE}a#top`, alternates: Object.freeze([Object.freeze({ hreflang: 'english', href: `${BASE}a` })]) });
  const outcome = await splitEntries([frozen]);
  assert.deepEqual([outcome.entries, outcome.rejected, outcome.warnings], [1, 0, 2], outcome.problems.join('\n'));
});

test("a source's entries sharing an images array: each is warned of its bad image and written without it, and the source's array keeps both images", async () => {
  const images = [{ loc: 'http://exa mple.com/x.jpg' }, { loc: `${BASE}ok.jpg` }];
  const outcome = await splitEntries([{ loc: `${BASE}b`, images }, { loc: `${BASE}c`, images }]);
  assert.deepEqual([outcome.entries, outcome.rejected, outcome.warnings], [2, 0, 2], outcome.problems.join('\n'));
  assert.deepEqual(images, [{ loc: 'http://exa mple.com/x.jpg' }, { loc: `${BASE}ok.jpg` }]);
});
