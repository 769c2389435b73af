import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createGzip, gzipSync } from 'node:zlib';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { parseSitemap, readSitemap, type SitemapInput, type SitemapItem, type SitemapSummary } from '../../src/node/parse-sitemap.js';
import { tempDir } from '../helpers/tmp.js';

const API = fileURLToPath(new URL('../fixtures/read/api/', import.meta.url));
const ENCODING = fileURLToPath(new URL('../fixtures/read/encoding/', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));

const fixture = (name: string): Buffer => readFileSync(join(API, name));

interface Result {
  items: SitemapItem[];
  summary: SitemapSummary;
}

async function readAll(input: SitemapInput, options: Parameters<typeof parseSitemap>[1] = {}): Promise<Result> {
  const reading = parseSitemap(input, options);
  const items: SitemapItem[] = [];
  for await (const item of reading) items.push(item);
  return { items, summary: await reading.summary() };
}

const locs = (r: Result): string[] => r.items.map((i) => (i.kind === 'url' ? i.entry.loc : i.ref.loc));
const codes = (s: SitemapSummary): string[] => s.diagnostics.map((d) => d.code);

const URLSET_LOCS = ['https://www.example.com/', 'https://www.example.com/a?x=1&y=2', 'https://www.example.com/caf%C3%A9, "quoted"'];

function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

describe('parseSitemap: inputs', () => {
  const bytes = fixture('urlset.xml');

  it('reads a file path (a plain string is a path), relative to cwd', async () => {
    const r = await readAll('urlset.xml', { cwd: API });
    assert.deepEqual(locs(r), URLSET_LOCS);
    assert.equal(r.summary.format, 'urlset');
    assert.equal(r.summary.urls, 3);
    assert.equal(r.summary.bytesRead, bytes.length);
    assert.equal(r.summary.bytesDecompressed, bytes.length);
    assert.equal(r.summary.encoding, 'utf-8');
    assert.deepEqual(r.summary.diagnostics, []);
    const first = r.items[0] as SitemapItem & { kind: 'url' };
    assert.deepEqual(first.entry, { loc: 'https://www.example.com/', lastmod: '2024-05-01', changefreq: 'daily', priority: 1 });
    assert.deepEqual([first.line, first.column], [4, 3]);
  });

  it('reads { path }, { text }, bytes, ArrayBuffer, a Readable, a web ReadableStream and an async iterable', async () => {
    const inputs: Array<[string, () => SitemapInput]> = [
      ['{ path }', () => ({ path: join(API, 'urlset.xml') })],
      ['{ text }', () => ({ text: bytes.toString('utf8') })],
      ['Uint8Array', () => new Uint8Array(bytes)],
      ['ArrayBuffer', () => new Uint8Array(bytes).buffer],
      ['Readable', () => Readable.from(chunksOf(bytes, 7))],
      [
        'ReadableStream',
        () => {
          const parts = chunksOf(bytes, 13);
          return new ReadableStream<Uint8Array>({
            pull(controller) {
              const next = parts.shift();
              if (next === undefined) controller.close();
              else controller.enqueue(next);
            },
          });
        },
      ],
      [
        'async iterable of bytes and strings',
        () =>
          (async function* () {
            yield bytes.subarray(0, 100);
            yield bytes.subarray(100).toString('utf8');
          })(),
      ],
    ];
    for (const [name, make] of inputs) {
      const r = await readAll(make());
      assert.deepEqual(locs(r), URLSET_LOCS, name);
      assert.equal(r.summary.format, 'urlset', name);
      assert.deepEqual(codes(r.summary), [], name);
    }
    const text = await readAll({ text: bytes.toString('utf8') });
    assert.equal(text.summary.encoding, undefined);
    assert.equal(text.summary.bytesRead, 0);
  });

  it('throws ERR_SITEMAP_INPUT with a one-line message for a missing file', async () => {
    const reading = parseSitemap('no-such-file.xml', { cwd: API });
    await assert.rejects(reading.summary(), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'ERR_SITEMAP_INPUT');
      assert.equal(e.message, 'cannot read no-such-file.xml: no such file');
      return true;
    });
    await assert.rejects(readAll(API), { code: 'ERR_SITEMAP_INPUT', message: /is a directory/ });
  });

  it('a string is a path: XML or a URL given as one gets a one-line hint at what to pass instead', async () => {
    const cases: [string, RegExp][] = [
      ['<urlset><url><loc>https://example.com/</loc></url></urlset>', /no such file; a string is read as a file path: pass \{ text \}/],
      [`<?xml version="1.0"?>\n<urlset>\n${'<url><loc>https://example.com/</loc></url>\n'.repeat(200)}</urlset>`, /^cannot read "<\?xml[^\n]*\.\.\.": file name too long; a string is read as a file path: pass \{ text \}/],
      ['https://example.com/sitemap.xml', /no such file; a string is read as a file path: to read a URL/],
      ['missing.xml', /^cannot read missing\.xml: no such file$/],
    ];
    for (const [input, message] of cases) {
      await assert.rejects(parseSitemap(input, { cwd: API }).summary(), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'ERR_SITEMAP_INPUT');
        assert.match(e.message, message);
        assert.ok(!e.message.includes('\n'), 'one line');
        return true;
      });
    }
  });

  it('refuses inputs and options it cannot use', () => {
    assert.throws(() => parseSitemap(42 as unknown as SitemapInput), { code: 'ERR_SITEMAP_API' });
    assert.throws(() => parseSitemap({ text: '' }, { maxBytes: 0 }), { code: 'ERR_SITEMAP_OPTION' });
    assert.throws(() => parseSitemap({ text: '' }, { maxEntries: 1.5 }), { code: 'ERR_SITEMAP_OPTION' });
    // zlib's own RangeError (ERR_OUT_OF_RANGE) came out of the first gzip chunk before.
    assert.throws(() => parseSitemap(gzipSync('https://a.example/'), { gunzipChunkBytes: 1 }), { code: 'ERR_SITEMAP_OPTION' });
  });

  it('is read once; a second iteration is a misuse', async () => {
    const reading = parseSitemap({ text: 'https://a.example/' });
    await reading.summary();
    assert.throws(() => reading.batches(), { code: 'ERR_SITEMAP_API' });
  });

  it('stops reading and closes the input when the iteration is broken off', async () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `https://a.example/${i}`).join('\n');
    const stream = Readable.from(chunksOf(Buffer.from(text), 64 * 1024));
    const reading = parseSitemap(stream);
    let n = 0;
    for await (const _ of reading) if (++n === 10) break;
    const summary = await reading.summary();
    assert.ok(summary.urls < 200_000);
    assert.ok(stream.destroyed);
  });

  it('readSitemap: stops reading and closes the input when stop() says so; the summary is of what was read', async () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `https://a.example/${i}`).join('\n');
    const stream = Readable.from(chunksOf(Buffer.from(text), 64 * 1024));
    let urls = 0;
    const summary = await readSitemap(stream, { onUrl: () => urls++, stop: () => urls >= 10 });
    assert.ok(urls >= 10 && urls < 200_000, String(urls));
    assert.equal(summary.urls, urls);
    assert.ok(stream.destroyed);
  });
});

describe('parseSitemap: files', () => {
  /** A urlset of `n` urls, each line naming its number. */
  const urlset = (n: number): string => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from({ length: n }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>\n`).join('')}</urlset>\n`;

  it('reads a file of many chunks whole and in order (reads ahead), and one of exactly a chunk', async () => {
    const dir = tempDir();
    const big = join(dir, 'big.xml');
    writeFileSync(big, urlset(40_000)); // about 1.5 MB: six 256 KiB reads
    const r = await readAll(big);
    assert.equal(r.items.length, 40_000);
    assert.deepEqual(locs(r).slice(0, 2), ['https://example.com/0', 'https://example.com/1']);
    assert.equal(locs(r)[39_999], 'https://example.com/39999');
    assert.equal(r.summary.bytesRead, statSync(big).size);
    assert.deepEqual(codes(r.summary), []);
    // A file that ends exactly at a chunk boundary: the read after it is empty.
    const exact = join(dir, 'exact.xml');
    const text = urlset(1);
    writeFileSync(exact, text.replace('</urlset>', `${' '.repeat(256 * 1024 - text.length)}</urlset>`));
    assert.equal(statSync(exact).size, 256 * 1024);
    const e = await readAll(exact);
    assert.equal(e.items.length, 1);
    assert.equal(e.summary.bytesRead, 256 * 1024);
  });

  it('gives the event loop a turn while it reads a large file: a signal handler (Ctrl-C) runs before the reading ends', async () => {
    const dir = tempDir();
    const big = join(dir, 'turns.xml');
    writeFileSync(big, urlset(200_000)); // about 8 MB: 32 reads
    let urls = 0;
    let urlsAtTurn: number | undefined;
    setImmediate(() => (urlsAtTurn = urls));
    await readSitemap(big, { onUrl: () => void urls++ });
    assert.equal(urls, 200_000);
    assert.ok(urlsAtTurn !== undefined && urlsAtTurn < urls, `the event loop turned after ${urlsAtTurn} of ${urls} URLs`);
  });

  it('reads a file of many chunks into reused buffers: the same as the bytes given whole, plain and gzipped', async () => {
    // Random, so that the gzip too spans many 256 KiB reads; multi-byte characters across every
    // chunk boundary. A buffer reused before its chunk was used up would show as a changed entry.
    let seed = 7;
    const random = (): string => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed.toString(16);
    };
    const urls = Array.from({ length: 60_000 }, (_, i) => `<url><loc>https://example.com/${i}/${random()}${random()}${random()}${random()}${random()}/é€😀</loc><lastmod>2024-01-${String((i % 28) + 1).padStart(2, '0')}</lastmod></url>\n`);
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('')}</urlset>\n`;
    const dir = tempDir();
    const plain = join(dir, 'plain.xml');
    const gz = join(dir, 'plain.xml.gz');
    writeFileSync(plain, text);
    writeFileSync(gz, gzipSync(text));
    assert.ok(statSync(plain).size > 16 * 256 * 1024 && statSync(gz).size > 4 * 256 * 1024, `many chunks: ${statSync(plain).size}, ${statSync(gz).size}`);
    const expected = await readAll(Buffer.from(text));
    assert.equal(expected.items.length, 60_000);
    for (const file of [plain, gz]) {
      const r = await readAll(file);
      assert.deepEqual(r.items, expected.items, file);
      assert.deepEqual(codes(r.summary), []);
    }
  });

  it('reads ASCII chunks from a source that writes over each buffer once it is handed on: the same as the bytes given whole', async () => {
    // All ASCII, so every piece takes the decoder's fast path and the bulk lane (the test above has
    // multi-byte characters everywhere). Bytes read after their chunk was handed on would show as
    // changed or missing entries.
    const urls = Array.from({ length: 20_000 }, (_, i) => `<url><loc>https://example.com/${i}/${(i * 7919).toString(36)}</loc><lastmod>2024-01-${String((i % 28) + 1).padStart(2, '0')}</lastmod></url>\n`);
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('')}</urlset>\n`;
    const bytes = Buffer.from(text);
    async function* scribbled(size: number): AsyncGenerator<Uint8Array> {
      const buffer = Buffer.alloc(size);
      for (let i = 0; i < bytes.length; i += size) {
        const n = bytes.copy(buffer, 0, i, i + size);
        yield buffer.subarray(0, n);
        buffer.fill(0x78);
      }
    }
    const expected = await readAll(bytes);
    assert.equal(expected.items.length, 20_000);
    for (const size of [100_003, 256 * 1024, 4096]) {
      const r = await readAll(scribbled(size));
      assert.deepEqual(r.items, expected.items, `chunks of ${size}`);
      assert.deepEqual(codes(r.summary), []);
    }
  });

  it('stops reading when the caller stops, and the next read of the file works', async () => {
    const dir = tempDir();
    const big = join(dir, 'big.xml');
    writeFileSync(big, urlset(40_000));
    let seen = 0;
    for await (const item of parseSitemap(big)) {
      assert.equal(item.kind, 'url');
      if (++seen === 10) break;
    }
    assert.equal(seen, 10);
    assert.equal((await readAll(big)).items.length, 40_000);
  });

  it('reads what is not a regular file (a FIFO) in order', { skip: process.platform === 'win32', timeout: 30_000 }, async () => {
    const dir = tempDir();
    const fifo = join(dir, 'sitemap.fifo');
    execFileSync('mkfifo', [fifo]);
    const source = join(dir, 'source.xml');
    writeFileSync(source, urlset(20_000));
    // The writer opens the FIFO once the reader has; it writes in pieces so that reads come back short.
    const script = `const fs = require('fs'); const t = fs.readFileSync(process.argv[1]); const fd = fs.openSync(process.argv[2], 'w'); for (let i = 0; i < t.length; i += 9000) fs.writeSync(fd, t.subarray(i, i + 9000)); fs.closeSync(fd);`;
    const writer = new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', script, source, fifo], { stdio: 'inherit' });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
    });
    const r = await readAll(fifo);
    await writer;
    assert.equal(r.items.length, 20_000);
    assert.equal(locs(r)[19_999], 'https://example.com/19999');
  });

  it('reads a FIFO that this same process writes (opening it must not block the event loop)', { skip: process.platform === 'win32', timeout: 30_000 }, async () => {
    const dir = tempDir();
    const fifo = join(dir, 'sitemap.fifo');
    execFileSync('mkfifo', [fifo]);
    const reading = readAll(fifo);
    // Opening a FIFO waits for the other end: the writer below opens it only if the reader's open
    // left the event loop running.
    const writer = await open(fifo, 'w');
    await writer.writeFile(urlset(3));
    await writer.close();
    const r = await reading;
    assert.deepEqual(locs(r), ['https://example.com/0', 'https://example.com/1', 'https://example.com/2']);
  });
});

describe('parseSitemap: formats and the summary', () => {
  it('reads a sitemap index as sitemap items', async () => {
    const r = await readAll(fixture('index.xml'));
    assert.equal(r.summary.format, 'sitemapindex');
    assert.deepEqual(
      r.items.map((i) => i.kind),
      ['sitemap', 'sitemap'],
    );
    assert.deepEqual((r.items[0] as SitemapItem & { kind: 'sitemap' }).ref, { loc: 'https://www.example.com/sitemap-1.xml.gz', lastmod: '2024-05-01' });
    assert.equal(r.summary.sitemaps, 2);
  });

  it('reads a text sitemap, reporting the line that is not a URL', async () => {
    const r = await readAll(fixture('urls.txt'));
    assert.equal(r.summary.format, 'text');
    assert.deepEqual(locs(r), ['https://www.example.com/', 'https://www.example.com/about', 'https://www.example.com/contact']);
    assert.deepEqual(
      r.summary.diagnostics.map((d) => [d.code, d.line, d.column]),
      [['text/not-a-url', 4, 1]],
    );
    assert.equal(r.summary.errors, 1);
  });

  it('recognises an HTML page: format html, no URLs, format/html', async () => {
    const r = await readAll(fixture('page.html'));
    assert.equal(r.summary.format, 'html');
    assert.deepEqual(r.items, []);
    assert.deepEqual(
      r.summary.diagnostics.map((d) => [d.code, d.severity, d.line, d.column]),
      [['format/html', 'error', 2, 1]],
    );
  });

  it('reports an empty or blank input as format/empty', async () => {
    for (const text of ['', '  \n\r\n\t ']) {
      const r = await readAll(Buffer.from(text));
      assert.equal(r.summary.format, 'empty');
      assert.deepEqual(codes(r.summary), ['format/empty']);
    }
  });

  it('keeps long leading whitespace out of memory and positions right', async () => {
    const lead = '\n'.repeat(3000) + ' '.repeat(5000);
    const r = await readAll(Buffer.from(lead + 'https://a.example/x\n'));
    assert.equal(r.summary.format, 'text');
    assert.deepEqual(
      r.items.map((i) => [i.line, i.column]),
      [[3001, 5001]],
    );
    const x = await readAll(Buffer.from(lead + fixture('index.xml').toString('utf8')));
    assert.equal(x.summary.format, 'sitemapindex');
    assert.equal(x.items[0]?.line, 3001 + 2);
    assert.deepEqual(
      x.summary.diagnostics.map((d) => [d.code, d.line, d.column]),
      [['xml/declaration-not-at-start', 3001, 5001]],
    );
  });

  it('reads the 9 intact URLs around a raw & in the 5th', async () => {
    const r = await readAll(fixture('raw-ampersand.xml'));
    const all = locs(r);
    for (const i of [1, 2, 3, 4, 6, 7, 8, 9, 10]) assert.ok(all.includes(`https://www.example.com/${i}`), `URL ${i}`);
    assert.ok(r.summary.errors > 0);
    assert.ok(r.summary.diagnostics.every((d) => d.line !== undefined && d.column !== undefined));
  });

  it('fills diagnostics in as it goes, and the format once known', async () => {
    const reading = parseSitemap(fixture('urls.txt'));
    assert.equal(reading.format, undefined);
    const seen: number[] = [];
    for await (const _ of reading) seen.push(reading.diagnostics.length);
    assert.equal(reading.format, 'text');
    assert.equal(reading.diagnostics.length, 1);
  });

  it('gives the same entries and diagnostics for any chunking', async () => {
    for (const name of ['urlset.xml', 'index.xml', 'urls.txt', 'raw-ampersand.xml', 'page.html']) {
      const bytes = fixture(name);
      const whole = await readAll(bytes);
      for (const size of [1, 3, 64]) {
        const r = await readAll(Readable.from(chunksOf(bytes, size)));
        assert.deepEqual(r.items, whole.items, `${name} in ${size}-byte chunks`);
        assert.deepEqual(r.summary.diagnostics, whole.summary.diagnostics, `${name} in ${size}-byte chunks`);
      }
    }
  });

  it('readSitemap: the callback form gives the same', async () => {
    const urls: string[] = [];
    const diagnostics: Diagnostic[] = [];
    const formats: string[] = [];
    const summary = await readSitemap(fixture('urls.txt'), {
      onUrl: (e) => urls.push(e.loc),
      onDiagnostic: (d) => diagnostics.push(d),
      onFormat: (f) => formats.push(f),
      file: 'urls.txt',
    });
    assert.deepEqual(urls, ['https://www.example.com/', 'https://www.example.com/about', 'https://www.example.com/contact']);
    assert.deepEqual(formats, ['text']);
    assert.equal(diagnostics[0]?.file, 'urls.txt');
    assert.deepEqual(summary.diagnostics, diagnostics);
    const sitemaps: string[] = [];
    await readSitemap(join(API, 'index.xml'), { onSitemap: (r) => sitemaps.push(r.loc) });
    assert.equal(sitemaps.length, 2);
  });

  it('names the file in diagnostics: the path, or options.file', async () => {
    const r = await readAll('urls.txt', { cwd: API });
    assert.equal(r.summary.diagnostics[0]?.file, 'urls.txt');
    const s = await readAll(fixture('urls.txt'), { file: 'x.txt' });
    assert.equal(s.summary.diagnostics[0]?.file, 'x.txt');
  });
});

describe('parseSitemap: budgets', () => {
  it('maxEntries: budget/entries, reading stops', async () => {
    const text = Array.from({ length: 1000 }, (_, i) => `https://a.example/${i}`).join('\n');
    const r = await readAll(Buffer.from(text), { maxEntries: 10 });
    assert.equal(r.items.length, 10);
    assert.deepEqual(codes(r.summary), ['budget/entries']);
    const x = await readAll(fixture('urlset.xml'), { maxEntries: 2 });
    assert.equal(x.items.length, 2);
    assert.ok(codes(x.summary).includes('budget/entries'));
  });

  it('maxBytes: budget/decompressed-size at the position reached, no truncation noise', async () => {
    const r = await readAll(fixture('urlset.xml'), { maxBytes: 200 });
    assert.deepEqual(codes(r.summary), ['budget/decompressed-size']);
    const d = r.summary.diagnostics[0] as Diagnostic;
    assert.equal(d.severity, 'error');
    assert.ok((d.line ?? 0) > 1);
    assert.equal(r.summary.bytesDecompressed, 200);
  });

  it('maxValueLength: a long text line is skipped', async () => {
    const r = await readAll(Buffer.from(`https://a.example/${'x'.repeat(5000)}\nhttps://a.example/ok\n`), { maxValueLength: 1000 });
    assert.deepEqual(locs(r), ['https://a.example/ok']);
    assert.deepEqual(codes(r.summary), ['budget/value-length']);
  });

  it('maxDepth: budget/depth', async () => {
    const deep = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc>${'<x>'.repeat(50)}${'</x>'.repeat(50)}</url></urlset>`;
    const r = await readAll({ text: deep }, { maxDepth: 10 });
    assert.ok(codes(r.summary).includes('budget/depth'));
  });
});

describe('parseSitemap: gzip and encodings', () => {
  it('reads gzip, and gzip inside gzip, by content', async () => {
    const bytes = fixture('urlset.xml');
    const once = gzipSync(bytes);
    const r = await readAll(once);
    assert.deepEqual(locs(r), URLSET_LOCS);
    assert.equal(r.summary.bytesRead, once.length);
    assert.equal(r.summary.bytesDecompressed, bytes.length);
    const twice = await readAll(Readable.from(chunksOf(gzipSync(once), 5)));
    assert.deepEqual(locs(twice), URLSET_LOCS);
    const thrice = await readAll(gzipSync(gzipSync(once)));
    assert.deepEqual(codes(thrice.summary), ['budget/gzip-depth']);
    assert.deepEqual(thrice.items, []);
  });

  it('gunzips in chunks of gunzipChunkBytes (default 256 KiB): backpressure is asked once a piece', async () => {
    const urls = Array.from({ length: 30_000 }, (_, i) => `<url><loc>https://www.example.com/page/${i}</loc></url>\n`).join('');
    const xml = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`);
    const gz = gzipSync(xml);
    for (const chunk of [undefined, 1024 * 1024]) {
      let asked = 0;
      const summary = await readSitemap(gz, { ...(chunk !== undefined ? { gunzipChunkBytes: chunk } : {}), backpressure: () => void asked++ });
      assert.equal(summary.urls, 30_000);
      // The first chunk is read in two pieces (its first 4 KiB alone), every other one whole.
      assert.equal(asked, Math.ceil(xml.length / (chunk ?? 256 * 1024)) + 1);
    }
  });

  it('reports a truncated gzip as gzip/corrupt and keeps what came before', async () => {
    const text = Array.from({ length: 2000 }, (_, i) => `https://a.example/${i}`).join('\n');
    const gz = gzipSync(Buffer.from(text));
    const r = await readAll(gz.subarray(0, gz.length - 100));
    assert.ok(codes(r.summary).includes('gzip/corrupt'));
    assert.ok(r.items.length > 100);
    assert.ok(locs(r).every((loc, i) => loc === `https://a.example/${i}`));
  });

  it('reads every entry of a gzip followed by bytes that are not gzip, with a gzip/trailing-garbage warning', async () => {
    const bytes = fixture('urlset.xml');
    const gz = gzipSync(bytes);
    for (const junk of ['\n', 'garbage after the gzip data']) {
      const r = await readAll(Buffer.concat([gz, Buffer.from(junk)]), { file: 'sitemap.xml.gz' });
      assert.deepEqual(locs(r), URLSET_LOCS);
      assert.deepEqual(r.summary.diagnostics.map((d) => [d.file, d.severity, d.code, d.line]), [['sitemap.xml.gz', 'warning', 'gzip/trailing-garbage', undefined]]);
      assert.deepEqual([r.summary.errors, r.summary.warnings], [0, 1]);
    }
  });

  it('stops a gzip bomb (300 MB of whitespace) at the 100 MiB default, in bounded memory', async () => {
    const dir = tempDir();
    const path = join(dir, 'bomb.xml.gz');
    const gzip = createGzip({ level: 9 });
    const parts: Buffer[] = [];
    gzip.on('data', (c: Buffer) => parts.push(c));
    const done = new Promise((resolve) => gzip.on('end', resolve));
    const mib = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 300; i++) if (!gzip.write(mib)) await new Promise((resolve) => gzip.once('drain', resolve));
    gzip.end();
    await done;
    writeFileSync(path, Buffer.concat(parts));
    assert.ok(statSync(path).size < 1024 * 1024);

    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    let summary: SitemapSummary;
    try {
      summary = await readSitemap(path);
    } finally {
      clearInterval(timer);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    assert.deepEqual(codes(summary), ['budget/decompressed-size']);
    assert.equal(summary.bytesDecompressed, 100 * 1024 * 1024);
    assert.ok(peak - before < 80 * 1024 * 1024, `RSS grew by ${Math.round((peak - before) / 1048576)} MiB`);
  });

  it('reads a UTF-16 file', async () => {
    for (const name of ['utf16le-bom.xml', 'utf16be-bom.xml', 'utf16le-no-bom.xml']) {
      const r = await readAll(join(ENCODING, name));
      assert.deepEqual(locs(r), ['http://www.ejemplo.com/café', 'http://www.ejemplo.com/日本/😀'], name);
      assert.match(r.summary.encoding ?? '', /^utf-16/);
      assert.ok(codes(r.summary).includes('encoding/declared-not-utf8'));
    }
    // Built here too: UTF-16LE with a BOM, one byte at a time.
    const xml = '<?xml version="1.0" encoding="UTF-16"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/ü</loc></url></urlset>';
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
    const r = await readAll(Readable.from(chunksOf(bytes, 1)));
    assert.deepEqual(locs(r), ['https://a.example/ü']);
  });

  it('reads an ISO-8859-1 file with café', async () => {
    const r = await readAll(join(ENCODING, 'iso-8859-1-cafe.xml'));
    assert.ok(locs(r).includes('http://www.ejemplo.com/café'));
    assert.equal(r.summary.encoding, 'windows-1252');
    const xml = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/caf\xe9</loc></url></urlset>', 'latin1');
    assert.deepEqual(locs(await readAll(xml)), ['https://a.example/café']);
  });

  it('reads a document past 32 MiB (where bytes are decoded in smaller pieces) with every entry and line right', async () => {
    // 2-, 3- and 4-byte UTF-8 characters in every loc, so that piece boundaries of both sizes cut sequences.
    const head = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
    const loc = (i: number): string => `https://a.example/caf\u00e9/\u65e5\u672c/\u{1f600}/${i}`;
    const n = 420_000;
    const lines: string[] = [head];
    for (let i = 0; i < n; i++) lines.push(`<url><loc>${loc(i)}</loc><lastmod>2024-01-02</lastmod></url>\n`);
    lines.push('</urlset>\n');
    const bytes = Buffer.from(lines.join(''));
    assert.ok(bytes.length > 34 * 1024 * 1024, `${bytes.length} bytes`);
    let count = 0;
    let wrong = 0;
    let lastLine = 0;
    const summary = await readSitemap(bytes, {
      onUrl: (entry, at) => {
        if (entry.loc !== loc(count) || at.line !== count + 3) wrong++;
        lastLine = at.line;
        count++;
      },
    });
    assert.equal(count, n);
    assert.equal(wrong, 0);
    assert.equal(lastLine, n + 2);
    assert.equal(summary.errors, 0);
  });

  it('places invalid bytes on a line and column', async () => {
    const bytes = Buffer.concat([Buffer.from('https://a.example/1\nhttps://a.example/'), Buffer.from([0xe9]), Buffer.from('\n')]);
    const r = await readAll(bytes);
    const d = r.summary.diagnostics.find((x) => x.code === 'encoding/invalid-bytes') as Diagnostic;
    assert.deepEqual([d.line, d.column], [2, 19]);
  });
});

describe('parseSitemap: the corpus', () => {
  function* files(dir: string): Generator<string> {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) yield* files(path);
      else if (name !== 'MANIFEST.tsv') yield path;
    }
  }

  it('reads every file without an exception, within the budgets', async () => {
    const formats = new Map<string, string>();
    const found = new Map<string, string[]>();
    for (const path of files(CORPUS)) {
      const rel = path.slice(CORPUS.length);
      const summary = await readSitemap(path, { onUrl: () => {}, onSitemap: () => {} });
      formats.set(rel, summary.format);
      found.set(rel, codes(summary));
      for (const d of summary.diagnostics) {
        assert.ok(d.line !== undefined && d.column !== undefined, `${rel}: ${d.code} has a position`);
        assert.ok(!/\n/.test(d.message), `${rel}: ${d.code} message is one line`);
      }
    }
    assert.ok(formats.size > 90);
    const byCategory = (category: string): string[] => [...formats].filter(([rel]) => rel.startsWith(`${category}/`)).map(([, f]) => f);
    assert.ok(byCategory('text').every((f) => f === 'text'));
    assert.ok(byCategory('feed-rss').every((f) => f === 'rss'));
    assert.ok(byCategory('feed-atom').every((f) => f === 'atom' || f === 'atom03'));
    assert.ok(byCategory('urlset').every((f) => f === 'urlset'));
    assert.ok(byCategory('index').every((f) => f === 'sitemapindex'));
    assert.ok(byCategory('robots').every((f) => f === 'text'));
    const file = (prefix: string): string => [...formats.keys()].find((k) => k.startsWith(prefix)) as string;
    // Jekyll wrapped the sitemap in the HTML layout.
    assert.equal(formats.get(file('malformed/13protons__')), 'html');
    assert.deepEqual(found.get(file('malformed/13protons__')), ['format/html']);
    // A prose line before the URLs.
    assert.ok(found.get(file('text/GateNLP__'))?.includes('text/not-a-url'));
    // A raw '<' in <lastmod>, an unescaped '&' in a video sitemap.
    assert.ok(found.get(file('malformed/ekalinin__sitemap.js__tests__mocks__index-unescaped-lt'))?.includes('xml/raw-less-than'));
    assert.ok(found.get(file('malformed/Colinmcdonaldd__'))?.includes('xml/raw-ampersand'));
    // An undefined HTML entity.
    assert.ok(found.get(file('malformed/simplepie__'))?.includes('xml/undefined-entity'));
    // Encoding: a BOM that contradicts the declaration; ISO-8859-1 declared.
    assert.ok(found.get(file('encoding/bart-turczynski__sitemapr__tests__testthat__fixtures__corpus__encoding__bom-conflict'))?.includes('encoding/bom-conflict'));
    assert.ok(found.get(file('encoding/bart-turczynski__sitemapr__tests__testthat__fixtures__corpus__encoding__declared-iso8859'))?.includes('encoding/declared-not-utf8'));
    // robots.txt read as a text sitemap: its directives are not URLs.
    assert.ok([...found].filter(([rel]) => rel.startsWith('robots/')).every(([, c]) => c.includes('text/not-a-url')));
  });
});
