// Output: what the commands print reaches the stream whole and in order, as strings for a plain
// writer (the tests' fake stdout) and as UTF-8 bytes for a Node stream (a file, a pipe).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, createWriteStream, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Output } from '../../src/cli/output.js';
import { BUILT_BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

/** A Node stream that keeps what it is given, and says "wait" after every `full` bytes. */
function collector(full = 1 << 30): { stream: Writable; chunks: Buffer[]; drains: number } {
  const state = { chunks: [] as Buffer[], drains: 0, stream: undefined as unknown as Writable };
  state.stream = new Writable({
    highWaterMark: full,
    write(chunk: Buffer, _encoding, callback) {
      state.chunks.push(Buffer.from(chunk));
      setImmediate(callback);
    },
  });
  state.stream.on('drain', () => state.drains++);
  return state;
}

test('a Node stream gets the UTF-8 bytes of every piece, in order, across many chunks', async () => {
  const { stream, chunks } = collector();
  const out = new Output(stream);
  const lines: string[] = [];
  // Non-ASCII, a surrogate pair and a lone surrogate (encoded as U+FFFD, as Buffer.from does).
  const samples = ['https://example.com/españa.html', 'https://例え.jp/パス', 'emoji 😀 here', 'lone \ud800 surrogate', 'x'.repeat(300)];
  for (let i = 0; i < 20_000; i++) lines.push(`${samples[i % samples.length]} ${i}`);
  for (const line of lines) out.writeLine(line);
  out.write('tail without newline');
  await out.flush();
  stream.end();
  await finished(stream);
  const expected = Buffer.from(`${lines.join('\n')}\ntail without newline`);
  const got = Buffer.concat(chunks);
  assert.equal(got.length, expected.length);
  assert.ok(got.equals(expected));
  // Large writes, not one per line.
  assert.ok(chunks.length > 1 && chunks.length < 100, `${chunks.length} writes`);
});

test('a piece larger than the buffer goes out whole, after what came before it', async () => {
  const { stream, chunks } = collector();
  const out = new Output(stream);
  const big = 'é'.repeat(200_000);
  out.write('before\n');
  out.writeLine(big);
  out.write('after');
  await out.flush();
  stream.end();
  await finished(stream);
  assert.equal(Buffer.concat(chunks).toString('utf8'), `before\n${big}\nafter`);
});

test('flush waits for the stream to drain when it asked to', async () => {
  const { stream, chunks } = collector(1024);
  const out = new Output(stream);
  out.write('y'.repeat(4096));
  await out.flush();
  // Resolved only after 'drain': the stream has taken everything.
  assert.equal(stream.writableLength, 0);
  assert.equal(Buffer.concat(chunks).toString(), 'y'.repeat(4096));
});

test('a plain writer gets strings', async () => {
  let text = '';
  const out = new Output({ write: (t: string) => (text += t) });
  out.writeLine('a');
  out.write('b');
  assert.equal(text, '', 'nothing before flush');
  await out.flush();
  assert.equal(text, 'a\nb');
});

test('a broken stream is not written to again, and flush still returns', async () => {
  const stream = new Writable({
    write(_chunk, _encoding, callback) {
      callback(new Error('EPIPE'));
    },
  });
  const out = new Output(stream);
  out.writeLine('first');
  await out.flush();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(out.closed, true);
  out.writeLine('second');
  await out.flush();
  out.close();
});

test('flush returns when the stream drained already, while something else was awaited (issue 22: two outputs)', async () => {
  const { stream } = collector(16);
  const out = new Output(stream);
  out.write('x'.repeat(300_000)); // more than a buffer: sent at once, and the stream asks to wait
  assert.equal(stream.writableNeedDrain, true);
  await new Promise((resolve) => stream.once('drain', resolve)); // drained before flush is called
  const flushed = await Promise.race([out.flush().then(() => 'flushed'), new Promise((resolve) => setTimeout(() => resolve('waiting for a drain that already came'), 1_000))]);
  assert.equal(flushed, 'flushed');
});

test('JSON lines (writeJsonLine, and lines written straight into jsonLines) go out in order with the rest, as JSON.stringify and UTF-8', async () => {
  const { stream, chunks } = collector();
  const out = new Output(stream);
  const entries = [{ loc: 'https://example.com/espa\u00f1a', lastmod: 'lone \ud800 \u2028 "q" \\' }, { sitemap: { loc: 'https://example.com/s.xml' } }];
  let expected = '';
  for (let i = 0; i < 3000; i++) {
    const entry = entries[i % 2] as object;
    out.writeJsonLine(entry);
    expected += `${JSON.stringify(entry)}\n`;
    if (i % 500 === 0) {
      out.write('piece;');
      out.writeLine(`text ${i}`);
      expected += `piece;text ${i}\n`;
      // Written by a reader it was handed to (ReaderSink.urlLines).
      out.jsonLines()?.line({ loc: `https://example.com/${i}` });
      expected += `{"loc":"https://example.com/${i}"}\n`;
    }
  }
  out.write('tail');
  expected += 'tail';
  await out.flush();
  stream.end();
  await finished(stream);
  assert.ok(Buffer.concat(chunks).equals(Buffer.from(expected)));

  let text = '';
  const plain = new Output({ write: (t: string) => (text += t) });
  assert.equal(plain.jsonLines(), undefined, 'a plain writer gets strings: no bytes');
  plain.writeJsonLine(entries[0] as object);
  await plain.flush();
  assert.equal(text, `${JSON.stringify(entries[0])}\n`);
});

test('JSON lines: a buffer is used again only once a file descriptor has written it, never after a Writable that keeps its chunks', async () => {
  const entries = Array.from({ length: 20_000 }, (_, i) => ({ loc: `https://example.com/${i}/${'x'.repeat(i % 97)}`, priority: (i % 10) / 10 }));
  const expected = Buffer.from(entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  const writeAll = async (out: Output): Promise<void> => {
    for (const [i, e] of entries.entries()) {
      out.writeJsonLine(e);
      if (i % 1000 === 0) {
        await out.flush();
        // As reading waits for its input: the write callbacks come meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await out.flush();
  };
  // A file: its write callbacks hand the buffers back.
  const path = join(tempDir(), 'lines.jsonl');
  const file = createWriteStream(path);
  await new Promise((resolve) => file.once('open', resolve));
  await writeAll(new Output(file));
  file.end();
  await finished(file);
  assert.ok(readFileSync(path).equals(expected), 'file');
  // A Writable that keeps the chunks it is given, and calls back at once.
  const kept: Uint8Array[] = [];
  const keeper = new Writable({
    write(chunk: Uint8Array, _encoding, callback) {
      kept.push(chunk);
      callback();
    },
  });
  await writeAll(new Output(keeper));
  assert.ok(Buffer.concat(kept).equals(expected), 'kept chunks');
});

test('a closed standard output (`sitemapkit … | head`) ends the command quietly: no stack trace, its own exit status', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), 'https://www.example.com/a\nnot a url\n');
  for (const [args, status] of [[['--version'], 0], [['validate', 'urls.txt', '--format', 'json'], 1], [['read', 'urls.txt'], 1]] as const) {
    assert.ok(existsSync(BUILT_BIN), 'run npm run build first');
    const child = spawn(process.execPath, [BUILT_BIN, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader is gone before the command writes: every write fails with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number];
    assert.doesNotMatch(stderr, /Unhandled 'error' event|EPIPE|\n\s+at /, `${args.join(' ')}: ${stderr}`);
    assert.equal(code, status, `${args.join(' ')}: ${stderr}`);
  }
});

test('a standard output that cannot be written (a full disk) is one line and exit 2, not a stack trace', { skip: !existsSync('/dev/full') && 'no /dev/full' }, async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), 'https://www.example.com/a\n');
  const full = openSync('/dev/full', 'w');
  const child = spawn(process.execPath, [BUILT_BIN, 'read', 'urls.txt'], { cwd: dir, stdio: ['ignore', full, 'pipe'] });
  closeSync(full);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number];
  assert.equal(stderr, 'sitemapkit: cannot write standard output: no space left on device\n');
  assert.equal(code, 2);
});
