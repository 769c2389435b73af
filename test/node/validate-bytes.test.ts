// validateSitemap reads the bulk of an ASCII XML input from its bytes (core/read/lane-bytes.ts,
// `bulkFromBytes`, default on): the report must be the one of reading every chunk as text, for every
// fixture and corpus file in chunks of many sizes, plain and gzipped, and positions reported after a
// chunk read from bytes (a decoder's diagnostic, a budget's cut) must not move.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { validateSitemap, type SitemapValidationResult } from '../../src/node/validate-sitemap.js';
import { XmlTokenizer } from '../../src/core/xml/tokenizer.js';
import { xmlFixturesAndCorpus } from '../helpers/files.js';

const NOW = Date.UTC(2026, 0, 1);

async function* chunked(bytes: Uint8Array, sizes: readonly number[]): AsyncGenerator<Uint8Array> {
  let k = 0;
  for (let at = 0; at < bytes.length; ) {
    const size = sizes[k++ % sizes.length] as number;
    // A copy each time, as a stream hands over fresh buffers.
    yield bytes.slice(at, at + size);
    at += size;
  }
}

/** The tokenizer's bulk reads from bytes during `run`: how many took something. */
async function countingBulkReads<T>(run: () => Promise<T>): Promise<{ result: T; reads: number }> {
  const original = XmlTokenizer.prototype.writeLaneBytes;
  let reads = 0;
  XmlTokenizer.prototype.writeLaneBytes = function (this: XmlTokenizer, bytes: Uint8Array, from: number): number {
    const end = original.call(this, bytes, from);
    if (end > from) reads++;
    return end;
  };
  try {
    return { result: await run(), reads };
  } finally {
    XmlTokenizer.prototype.writeLaneBytes = original;
  }
}

async function both(bytes: Uint8Array, sizes: readonly number[], options: { location?: string; maxEntries?: number; maxBytes?: number } = {}): Promise<{ text: SitemapValidationResult; fromBytes: SitemapValidationResult; reads: number }> {
  const text = await validateSitemap(chunked(bytes, sizes), { now: NOW, file: 'f', ...options, bulkFromBytes: false });
  const { result: fromBytes, reads } = await countingBulkReads(() => validateSitemap(chunked(bytes, sizes), { now: NOW, file: 'f', ...options }));
  return { text, fromBytes, reads };
}

/** A urlset of `n` plain urls, with every kind of line break, and `extra` spliced in before url `at`. */
function urlset(n: number, extra: Record<number, string> = {}): string {
  const breaks = ['\n', '\r\n', '\r', '\n  ', ' ', ''];
  const urls: string[] = [];
  for (let i = 0; i < n; i++) {
    const b = breaks[i % breaks.length] as string;
    const lastmod = i % 3 === 0 ? `${b}<lastmod>20${10 + (i % 15)}-0${1 + (i % 9)}-1${i % 10}</lastmod>` : '';
    urls.push(`${extra[i] ?? ''}<url>${b}<loc>https://example.com/p/${i}/${(i * 7919).toString(36)}</loc>${lastmod}${b}</url>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

describe('validateSitemap: the bulk read from bytes', () => {
  it('gives the report of reading as text, and is taken, on a large sitemap in chunks of many sizes', async () => {
    const bytes = new TextEncoder().encode(urlset(20_000));
    for (const sizes of [[65_536], [262_144], [1000, 77_777, 3], [4096, 4097]]) {
      const { text, fromBytes, reads } = await both(bytes, sizes);
      assert.deepStrictEqual(fromBytes, text, `chunks of ${sizes.join(', ')}`);
      assert.equal(fromBytes.entries, 20_000);
      assert.ok(reads > 0, `read from bytes in chunks of ${sizes.join(', ')}`);
    }
  });

  it('gives the report of reading as text where the bulk stops: duplicates, future dates, extensions, comments, bad values', async () => {
    const extra: Record<number, string> = {
      2000: `<url><loc>https://example.com/p/3/${(3 * 7919).toString(36)}</loc></url>\n`,
      4000: '<url><loc>https://example.com/future</loc><lastmod>2031-01-01</lastmod></url>\n',
      6000: '<url><loc>https://example.com/a?b=1&amp;c=2</loc></url>\n<!-- a comment -->\n',
      8000: '<url><loc>https://example.com/a b</loc><lastmod>2023-02-29</lastmod></url>\n',
      9000: '<url><loc>https://example.com/i</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://example.com/i.jpg</image:loc></image:image></url>\n',
      11000: '<foo>text</foo>\n',
    };
    const bytes = new TextEncoder().encode(urlset(12_000, extra));
    for (const sizes of [[65_536], [30_000, 7]]) {
      for (const location of [undefined, 'https://example.com/sitemap.xml']) {
        const { text, fromBytes, reads } = await both(bytes, sizes, location === undefined ? {} : { location });
        assert.deepStrictEqual(fromBytes, text, `chunks of ${sizes.join(', ')}, location ${location}`);
        assert.ok(reads > 0);
        const codes = fromBytes.diagnostics.map((d) => d.code);
        for (const code of ['loc/duplicate', 'lastmod/future', 'loc/not-encoded', 'lastmod/invalid', 'element/unexpected']) assert.ok(codes.includes(code), `${code} in ${codes.join(' ')}`);
      }
    }
  });

  it('places what is reported after chunks read from bytes where reading as text does: invalid bytes, a budget', async () => {
    const good = new TextEncoder().encode(urlset(6000));
    // An invalid UTF-8 byte in a loc near the end, after many chunks read from bytes.
    const at = good.lastIndexOf(0x2f) - 3; // inside the last loc
    const bad = good.slice();
    bad[at] = 0xff;
    const { text, fromBytes, reads } = await both(bad, [16_384]);
    assert.deepStrictEqual(fromBytes, text);
    assert.ok(reads > 0);
    const invalid = fromBytes.diagnostics.find((d) => d.code === 'encoding/invalid-bytes');
    assert.ok(invalid !== undefined && (invalid.line as number) > 5000, JSON.stringify(invalid));
    // Budgets: entries and bytes stop reading in the middle.
    for (const options of [{ maxEntries: 3000 }, { maxBytes: 300_000 }]) {
      const r = await both(good, [16_384], options);
      assert.deepStrictEqual(r.fromBytes, r.text, JSON.stringify(options));
      assert.ok(r.fromBytes.diagnostics.some((d) => d.code.startsWith('budget/')), JSON.stringify(options));
    }
  });

  it('reports a NUL or another character XML forbids in the bytes as reading as text does, and calls the file invalid', async () => {
    for (const bad of ['\u0000', '\u0001', '\u001f', '\uffff']) {
      const extra: Record<number, string> = {
        2500: `<url><loc>https://example.com/a${bad}b</loc></url>\n`,
        5000: `<url><loc>https://example.com/c</loc><lastmod>2024-01-0${bad}1</lastmod></url>\n`,
        5500: `<url><loc>https://example.com/d</loc></url>${bad}\n`,
      };
      const bytes = new TextEncoder().encode(urlset(6000, extra));
      for (const sizes of [[65_536], [9_999, 3]]) {
        const { text, fromBytes, reads } = await both(bytes, sizes);
        assert.deepStrictEqual(fromBytes, text, `${JSON.stringify(bad)} in chunks of ${sizes.join(', ')}`);
        assert.ok(reads > 0);
        assert.equal(fromBytes.schemaValid, false);
        const found = fromBytes.diagnostics.filter((d) => d.code === 'xml/invalid-char');
        assert.equal(found.length, 3, JSON.stringify(bad));
        assert.ok(found.every((d) => d.severity === 'error'));
        assert.ok(fromBytes.diagnostics.some((d) => d.code === 'loc/untrusted'), 'the URL holding it is not trusted');
      }
    }
  });

  it('gives the report of reading as text on every fixture and corpus file, plain and gzipped, in random chunks (fast-check)', async () => {
    const files = xmlFixturesAndCorpus();
    assert.ok(files.length > 20);
    let reads = 0;
    for (const file of files) {
      const bytes = readFileSync(file);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 5 }), fc.boolean(), async (sizes, gzip) => {
          const input = gzip ? gzipSync(bytes) : bytes;
          const r = await both(input, sizes, { location: 'https://www.example.com/sitemap.xml' });
          reads += r.reads;
          assert.deepStrictEqual(r.fromBytes, r.text, `${file} in chunks of ${sizes.join(', ')}${gzip ? ', gzipped' : ''}`);
        }),
        { numRuns: 3 },
      );
    }
    assert.ok(reads > 0, 'some files were read partly from bytes');
  });
});
