// The shared location of queued runs: FileSystemStorage, and the staging folders of several machines
// writing into one set folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOST_TAG, StagedOutput } from '../../src/node/staged-output.js';
import { FileSystemStorage } from '../../src/node/scale/storage.js';
import { tempDir } from '../helpers/tmp.js';

/** A process id no process has here (above Linux's pid_max). */
const DEAD_PID = 4_194_305;

test("a staging folder of another machine (its host tag) is left alone; this machine's, of a dead process, is removed", async () => {
  const out = tempDir();
  const otherMachine = `.sitemapkit-tmp-${DEAD_PID}-h00000000-abc123`;
  const thisMachine = `.sitemapkit-tmp-${DEAD_PID}-${HOST_TAG}-def456`;
  const untagged = `.sitemapkit-tmp-${DEAD_PID}-ghi789`;
  for (const name of [otherMachine, thisMachine, untagged]) mkdirSync(join(out, name));
  assert.notEqual(HOST_TAG, 'h00000000');
  const output = await StagedOutput.create(out, { name: 'sitemap', gzipLevel: 1 });
  try {
    const left = readdirSync(out).filter((name) => name.startsWith('.sitemapkit-tmp-'));
    assert.ok(left.includes(otherMachine), 'another machine may still be writing into it');
    assert.ok(!left.includes(thisMachine) && !left.includes(untagged), left.join(' '));
    // Its own folder carries this machine's tag.
    assert.ok(left.some((name) => name.startsWith(`.sitemapkit-tmp-${process.pid}-${HOST_TAG}-`)), left.join(' '));
  } finally {
    await output.abort();
  }
});

test('FileSystemStorage: a large file appears under its name only once closed; names stay inside the folder', async () => {
  const storage = new FileSystemStorage(tempDir());
  const writer = await storage.writer('run/input/shard-0.jsonl');
  await writer.write('{"loc":"/a"}\n');
  assert.deepEqual(await storage.list('run/input'), []);
  assert.equal(await storage.read('run/input/shard-0.jsonl'), undefined);
  await writer.write('{"loc":"/b"}\n');
  await writer.close();
  assert.deepEqual(await storage.list('run/input'), ['shard-0.jsonl']);
  assert.equal((await storage.read('run/input/shard-0.jsonl'))?.toString(), '{"loc":"/a"}\n{"loc":"/b"}\n');
  await storage.write('run/plan.json', '{}');
  assert.deepEqual(await storage.list('run'), ['input', 'plan.json']);
  await assert.rejects(storage.read('../outside'), /outside the set's folder/);
  await assert.rejects(storage.write('/etc/x', 'no'), /outside the set's folder/);
  await storage.remove('run');
  assert.equal(existsSync(join(storage.localDir, 'run')), false);
  writeFileSync(join(storage.localDir, '.hidden'), '');
  assert.deepEqual(await storage.list('.'), []);
});

test('FileSystemStorage: a writer waiting for the disk many times leaves no listener behind (no MaxListenersExceededWarning)', async () => {
  const storage = new FileSystemStorage(tempDir());
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning.name);
  process.on('warning', onWarning);
  try {
    const writer = await storage.writer('big.jsonl');
    // Each chunk is past the stream's buffer: every write waits for 'drain'.
    for (let i = 0; i < 40; i++) await writer.write('x'.repeat(64 * 1024));
    await writer.close();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  assert.deepEqual(warnings, []);
  assert.equal((await storage.read('big.jsonl'))?.length, 40 * 64 * 1024);
});
