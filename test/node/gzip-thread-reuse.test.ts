// A queue worker writes hundreds of outputs one after the other: keepCompressionThreads lets the
// next writer of the process take the compression threads of the last one (parallel-gzip.ts) rather
// than start its own (~25 ms of CPU each); the files stay whole gzip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { keepCompressionThreads, ParallelFileWriter } from '../../src/node/parallel-gzip.js';
import { tempDir } from '../helpers/tmp.js';

const threads = (): number => readdirSync('/proc/self/task').length;

async function writeOne(path: string, text: string, during?: () => void): Promise<ParallelFileWriter> {
  const writer = new ParallelFileWriter({ gzipLevel: 6, workers: 1 });
  const id = writer.open(path);
  writer.write(id, Buffer.from(text));
  during?.();
  await writer.close(id);
  return writer;
}

test('keepCompressionThreads: the next writer takes the idle thread of the last one; without it, threads end with their writer', { skip: process.platform !== 'linux' ? 'counts threads in /proc' : false }, async () => {
  const dir = tempDir();
  const text = 'x'.repeat(100_000) + 'end';
  const base = threads();
  await (await writeOne(join(dir, 'a.gz'), text)).destroy();
  assert.equal(threads(), base, 'not kept by default');

  keepCompressionThreads(1);
  await (await writeOne(join(dir, 'b.gz'), text)).destroy();
  assert.equal(threads(), base + 1, 'one thread kept');
  let during = 0;
  await (await writeOne(join(dir, 'c.gz'), text, () => (during = threads()))).destroy();
  assert.equal(during, base + 1, 'the second writer compresses on the kept thread, starting none');
  for (const name of ['a.gz', 'b.gz', 'c.gz']) assert.equal(gunzipSync(readFileSync(join(dir, name))).toString(), text);

  keepCompressionThreads(0);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(threads(), base, 'released when no longer kept');
});
