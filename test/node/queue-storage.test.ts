// The shared location of queued runs: FileSystemStorage (the staging folders of several machines in
// one set folder: test/node/scale-shared-folder.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSystemStorage } from '../../src/node/scale/storage.js';
import { tempDir } from '../helpers/tmp.js';

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

test('FileSystemStorage: a writer whose file could not be opened fails on close, rather than waiting for ever', async () => {
  const storage = new FileSystemStorage(tempDir());
  const writer = await storage.writer('gone/shard-0.records');
  // Its folder removed before the file is opened: the stream fails and closes before close() is
  // called, as one refused by EMFILE does (a queued apply touching more children than the process
  // may open files: its coordinator exited 13, an await left unsettled, with no word).
  rmSync(join(storage.localDir, 'gone'), { recursive: true });
  await new Promise((resolve) => setTimeout(resolve, 50));
  await assert.rejects(writer.close(), /ENOENT/);
});
