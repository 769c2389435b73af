// The shared location of queued runs: FileSystemStorage (the staging folders of several machines in
// one set folder: test/node/scale-shared-folder.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

test('FileSystemStorage: more writers than the process may open files, each file whole; one that cannot be opened again fails on close', async () => {
  const dir = tempDir();
  // 200 writers in a process that may open 64 files: the least recently written ones' files are
  // closed, then opened again to append. The first writer's folder is removed once its file is closed.
  const script = `
    const { rmSync } = await import('node:fs');
    const { FileSystemStorage } = await import(${JSON.stringify(new URL('../../src/node/scale/storage.ts', import.meta.url).href)});
    const storage = new FileSystemStorage(${JSON.stringify(dir)});
    const writers = [];
    for (let i = 0; i < 200; i++) writers.push(await storage.writer((i === 0 ? 'gone/' : 'kept/') + i + '.txt'));
    for (let round = 0; round < 3; round++) for (const [i, writer] of writers.entries()) if (i > 0 || round === 0) await writer.write(i + ':' + round + '\\n');
    rmSync(${JSON.stringify(join(dir, 'gone'))}, { recursive: true });
    await writers[0].write('0:3\\n');
    const closed = await Promise.allSettled(writers.map((writer) => writer.close()));
    console.log(JSON.stringify(closed.map((c) => c.status === 'fulfilled' ? 'ok' : c.reason.code)));`;
  const run = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    execFile('sh', ['-c', 'ulimit -n 64 && exec "$@"', 'sh', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve({ stdout, stderr })));
  });
  assert.deepEqual(JSON.parse(run.stdout), ['ENOENT', ...Array<string>(199).fill('ok')]);
  assert.equal(existsSync(join(dir, 'gone')), false);
  for (const i of [1, 100, 199]) assert.equal(readFileSync(join(dir, 'kept', `${i}.txt`), 'utf8'), `${i}:0\n${i}:1\n${i}:2\n`);
  assert.equal(readdirSync(join(dir, 'kept')).length, 199);
});

test('FileSystemStorage refuses a folder that cannot be made (/proc/nope) instead of spinning for ever in Node 20\'s recursive mkdir', { skip: existsSync('/proc/self') ? false : 'no /proc', timeout: 10_000 }, async () => {
  const storage = new FileSystemStorage('/proc/nope');
  await assert.rejects(storage.write('a/state.json', '{}'), { code: 'ERR_SITEMAP_WRITE' });
  await assert.rejects(storage.writer('a/shard-0.records'), { code: 'ENOENT' });
});
