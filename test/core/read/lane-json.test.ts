// The JSON lines a reading writes for `sitemapkit read` (ReaderSink.urlLines: the lane's urls copied
// from their spans, read/lane-json.ts; the others from their entries) must be the bytes of
// JSON.stringify of the entries the reading gives without it, in any chunking, from bytes or text.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { JsonLines } from '../../../src/core/model-json.js';
import { SitemapDocument } from '../../../src/core/read/document.js';
import { copy } from '../../../src/core/read/lane-json.js';
import type { ReaderSink } from '../../../src/core/read/types.js';
import { xmlFixturesAndCorpus } from '../../helpers/files.js';
// @ts-expect-error: a plain ES module of the benchmarks, untyped
import { realisticSitemap } from '../../../bench/lib/realistic.js';

const decoder = new TextDecoder();

/** Where a reading has decided the format (FORMAT_SNIFF_CHARS): from there on, it reads what is ASCII from its bytes. */
const SNIFFED = 1100;

/** Read `input` pushed in pieces at `cuts` and SNIFFED (bytes, or text), with or without the lines written by the reading itself. */
function read(input: Uint8Array | string, cuts: number[], written: boolean): { text: string; copied: number } {
  const lines = new JsonLines(4096);
  const out: Uint8Array[] = [];
  let given = 0;
  const sink: ReaderSink = {
    format: () => {},
    url: (entry) => {
      given++;
      // As the command prints a url given to it.
      lines.line(entry);
    },
    sitemap: (ref) => lines.line({ sitemap: ref }),
    diagnostic: () => {},
    ...(written ? { urlLines: lines } : {}),
  };
  const doc = new SitemapDocument({ file: 'doc.xml' }, sink);
  let from = 0;
  for (const cut of [...cuts, SNIFFED].filter((c) => c < input.length).sort((a, b) => a - b).concat(input.length)) {
    if (cut <= from || !doc.wantsMore) continue;
    if (typeof input === 'string') doc.pushText(input.slice(from, cut));
    else doc.push(input.slice(from, cut));
    out.push(lines.take());
    from = cut;
  }
  if (doc.wantsMore) doc.end();
  out.push(lines.take());
  return { text: out.map((b) => decoder.decode(b)).join(''), copied: doc.summary().urls - given };
}

/** The lines written by the reading equal JSON.stringify's of the entries, whole and in pieces, from bytes and from text; how many were copied (in pieces, from bytes). */
function assertSameLines(xml: string, cuts: number[] = []): number {
  const bytes = new TextEncoder().encode(xml);
  const expected = read(bytes, [], false).text;
  assert.equal(read(bytes, [], true).text, expected, 'whole, bytes');
  const pieces = read(bytes, cuts, true);
  assert.equal(pieces.text, expected, 'pieces, bytes');
  // Text given as text (not sniffed: a file in another encoding reads otherwise than from its bytes).
  assert.equal(read(xml, cuts, true).text, read(xml, [], false).text, 'pieces, text');
  return pieces.copied;
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n';
// A comment first: the urls come after the part read as text (SNIFFED).
const urlset = (...urls: string[]): string => `${HEAD}<!--${' '.repeat(SNIFFED)}-->\n${urls.join('\n')}\n</urlset>\n`;
const url = (loc: string, rest = ''): string => `<url><loc>${loc}</loc>${rest}</url>`;

describe('JSON lines of a reading (ReaderSink.urlLines)', () => {
  it('copies the plain urls, references decoded, extensions in the entry order; the rest as JSON.stringify writes them', () => {
    const xml = urlset(
      url('https://example.com/a', '<lastmod>2024-01-02T03:04:05+00:00</lastmod><changefreq>daily</changefreq><priority>0.5</priority>'),
      url('https://example.com/?a=1&amp;b=2&amp;c=3', '<lastmod>2024-01-02</lastmod><priority>1.0</priority>'),
      url("https://example.com/?q=&apos;x&apos;&amp;r=&#38;&#x26;", '<priority>.50</priority>'),
      // An alternate before the image: the entry lists the images first.
      url('https://example.com/c', '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/c?x=1&amp;y=2"/><image:image><image:loc>https://example.com/c.jpg?s=1&amp;t=2</image:loc></image:image><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/c"/><image:image><image:loc>https://example.com/c2.jpg</image:loc></image:image>'),
      url('https://example.com/"quoted"\\back'),
      url('https://example.com/espa\u00f1a/\u2028/\ud83d\ude00', '<lastmod>2024-01-02</lastmod>'),
      url('https://example.com/p', '<priority>0.123456789</priority>'),
      url('https://example.com/p1', '<priority>1</priority><changefreq>never</changefreq>'),
      url('https://example.com/tab', '<lastmod>\t2024-01-02 </lastmod>'),
    );
    // Pieces that start with a url (a piece that starts inside an element is read as text up to its end), the last one not ASCII (read from its text).
    const at = (text: string): number => new TextEncoder().encode(xml.slice(0, xml.indexOf(text))).length;
    const copied = assertSameLines(xml, [at('<url>'), at('<url><loc>https://example.com/"')]);
    assert.ok(copied >= 4, `the lane's urls are written by the reading (${copied})`);
  });

  it('every XML fixture and corpus file, whole and in pieces', () => {
    let copied = 0;
    for (const file of xmlFixturesAndCorpus()) {
      const xml = decoder.decode(readFileSync(file));
      const third = Math.floor(xml.length / 3);
      try {
        copied += assertSameLines(xml, [third, 2 * third, 2 * third + 7]);
      } catch (error) {
        throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
      }
    }
    assert.ok(copied > 0);
  });

  it('a realistic sitemap (bench/lib/realistic.js): queries with &amp;, both lastmod forms, images, alternates', () => {
    const xml = realisticSitemap(3000) as string;
    assert.ok(assertSameLines(xml, [65_536, 200_000, 400_001]) > 2500);
  });

  // Values the lane copies, decodes, declines or leaves to the entry: whatever is dropped in, the lines are JSON.stringify's.
  const snippets = ['&amp;', '&apos;', '&#38;', '&#x27;', '&#34;', '&quot;', '&lt;', '"', '\\', '\t', ' ', '\u2028', '\u00e9', '\u{1F600}', '\u007f', '0.5', '1.0', '.25', '</loc>', '<!-- c -->', '<![CDATA[x"\\]]>', 'x', '2024-02-29', 'T10:20+01:00', '<image:image><image:loc>https://e.com/i?a=1&amp;b=2</image:loc></image:image>', '<xhtml:link rel="alternate" hreflang="x-default" href="https://e.com/&amp;"/>'];
  it('mutated sitemaps, in random pieces (fast-check)', () => {
    const base = urlset(
      url('https://example.com/a?x=1&amp;y=2', '<lastmod>2024-01-02T03:04:05Z</lastmod><changefreq>weekly</changefreq><priority>0.8</priority>'),
      url('https://example.com/c', '<image:image><image:loc>https://example.com/c.jpg</image:loc></image:image><xhtml:link rel="alternate" hreflang="en" href="https://example.com/c"/>'),
      '<url>\n <loc>https://example.com/d</loc>\n <priority>1.0</priority>\n</url>',
      url('https://example.com/e', '<lastmod>2024-01-02</lastmod>'),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(base.length), fc.constantFrom(...snippets)), { maxLength: 4 }),
        fc.array(fc.nat(base.length + 200), { maxLength: 5 }),
        (inserts, cuts) => {
          let xml = base;
          for (const [at, s] of [...inserts].sort((a, b) => b[0] - a[0])) xml = xml.slice(0, at) + s + xml.slice(at);
          assertSameLines(xml, cuts);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('JsonLines', () => {
  it('a value is copied only when JSON writes it as it is, with &amp; as & when asked', () => {
    const spans: Array<[string, boolean, string | false]> = [
      ['https://example.com/a?b=1', false, '"https://example.com/a?b=1"'],
      ['a&amp;b&amp;', true, '"a&b&"'],
      ['a&amp;b', false, false],
      ["a&apos;b", true, false],
      ['a&amp', true, false],
      ['a"b', false, false],
      ['a\\b', false, false],
      ['a\u0001b', false, false],
      ['a\tb', false, false],
      ['a\u00e9b', false, false],
      ['a\u007fb', false, '"a\u007fb"'],
    ];
    for (const [value, ampersands, expected] of spans) {
      const source = new TextEncoder().encode(`<${value}>`);
      const bytes = new Uint8Array(source.length + 2);
      const end = copy(bytes, 0, source, 1, source.length - 1, ampersands);
      assert.equal(end === -1 ? false : decoder.decode(bytes.subarray(0, end)), expected, JSON.stringify(value));
    }
  });

  it('writes JSON.stringify of any entry as UTF-8, lone surrogates escaped (fast-check)', () => {
    const text = fc.string({ unit: 'binary' });
    const entry = fc.record(
      { loc: text, lastmod: text, changefreq: text, priority: fc.oneof(fc.double(), fc.string()), images: fc.array(fc.record({ loc: text, title: text }, { requiredKeys: ['loc'] })) },
      { requiredKeys: ['loc'] },
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), fc.nat(64), (entries, capacity) => {
        const lines = new JsonLines(capacity);
        const parts: Uint8Array[] = [];
        for (const e of entries) {
          lines.line(e);
          if (lines.length > capacity) parts.push(lines.take());
        }
        parts.push(lines.take());
        assert.equal(lines.count, entries.length);
        assert.equal(parts.map((b) => decoder.decode(b)).join(''), entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      }),
      { numRuns: 200 },
    );
  });
});
