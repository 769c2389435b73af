import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
// The reading under test uses the core entry only; node:* above serves the comparison and the checks.
import { readXmlSitemapText, SitemapDocument, SitemapError, validateXmlSitemapText, type ReaderSink, type SitemapSummary } from '../../../src/core/index.js';
import { readSitemap } from '../../../src/node/parse-sitemap.js';
import { validateSitemap } from '../../../src/node/validate-sitemap.js';
import type { Diagnostic } from '../../../src/core/diagnostics.js';

type Event = unknown[];

function recorder(): { sink: ReaderSink; events: Event[] } {
  const events: Event[] = [];
  return {
    events,
    sink: {
      format: (f) => events.push(['format', f]),
      url: (e, at) => events.push(['url', structuredClone(e), at.line, at.column]),
      sitemap: (r, at) => events.push(['sitemap', structuredClone(r), at.line, at.column]),
      diagnostic: (d) => events.push(['diagnostic', { ...d }]),
    },
  };
}

function readChunks(chunks: Uint8Array[], options = {}): { events: Event[]; summary: SitemapSummary } {
  const { sink, events } = recorder();
  const doc = new SitemapDocument({ file: 'doc.xml', ...options }, sink);
  for (const chunk of chunks) if (doc.wantsMore) doc.push(chunk);
  if (doc.wantsMore) doc.end();
  return { events, summary: doc.summary() };
}

async function readNode(bytes: Uint8Array): Promise<{ events: Event[]; summary: SitemapSummary }> {
  const { sink, events } = recorder();
  const summary = await readSitemap(bytes, {
    file: 'doc.xml',
    onFormat: (f) => sink.format(f),
    onUrl: (e, at) => sink.url(e, at),
    onSitemap: (r, at) => sink.sitemap(r, at),
    onDiagnostic: (d) => sink.diagnostic(d),
  });
  return { events, summary };
}

// A BOM, CRLF and LF lines, a multi-byte character, an entity, an invalid byte (a decoder
// diagnostic placed by the line count), a bad priority (a reader diagnostic).
const XML = Buffer.concat([
  Buffer.from('\ufeff<?xml version="1.0" encoding="UTF-8"?>\r\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\r\n'),
  Buffer.from('  <url><loc>https://example.com/caf\u00e9?a=1&amp;b=2</loc><lastmod>2024-03-05</lastmod></url>\n'),
  Buffer.from('  <url><loc>https://example.com/x</loc><priority>1.5</priority></url>\n  <!-- '),
  Buffer.from([0xff]),
  Buffer.from(' -->\n  <url><loc>https://example.com/y</loc></url>\n</urlset>\n'),
]);
const TEXT = Buffer.from('https://example.com/a\r\nnot a url\r\rhttps://example.com/\u00e9\n');

describe('SitemapDocument (sitemapkit/core): bytes pushed in chunks', () => {
  for (const [name, bytes] of [['an XML sitemap', XML], ['a text sitemap', TEXT]] as const) {
    it(`reads ${name} split at every point as the Node reader reads it whole`, async () => {
      const expected = await readNode(bytes);
      assert.ok(expected.events.some((e) => e[0] === 'url') && expected.events.some((e) => e[0] === 'diagnostic'));
      for (let i = 0; i <= bytes.length; i++) {
        const got = readChunks([bytes.subarray(0, i), bytes.subarray(i)]);
        assert.deepEqual(got.events, expected.events, `split at ${i}`);
        assert.deepEqual(got.summary, expected.summary, `split at ${i}`);
      }
      const bytewise = readChunks([...bytes].map((b) => Uint8Array.of(b)), { bulkFromBytes: false });
      assert.deepEqual(bytewise.events, expected.events, 'one byte at a time');
    });
  }

  it('reads text with a byte order mark as its bytes: the first U+FEFF is the BOM, a second one is text before the root (libxml2)', async () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/\u00e9</loc></url></urlset>\n';
    for (const text of [`\ufeff${xml}`, `\ufeff\ufeff${xml}`, `\ufeff\ufeff${xml.slice(xml.indexOf('<urlset'))}`]) {
      const expected = await readNode(Buffer.from(text));
      const { sink, events } = recorder();
      const doc = new SitemapDocument({ file: 'doc.xml' }, sink);
      for (const piece of [text.slice(0, 1), text.slice(1, 3), text.slice(3)]) doc.pushText(piece);
      doc.end();
      assert.deepEqual(events, expected.events, JSON.stringify(text.slice(0, 8)));
      const codes = events.filter((e) => e[0] === 'diagnostic').map((e) => (e[1] as { code: string }).code);
      assert.equal(codes.some((c) => c.startsWith('xml/')), text.startsWith('\ufeff\ufeff'), JSON.stringify(text.slice(0, 8)));
      const at = (d: Diagnostic): string => `${d.code}@${d.line}:${d.column}`;
      const report = validateXmlSitemapText(text);
      const fromBytes = await validateSitemap(Buffer.from(text));
      assert.deepEqual(report.diagnostics.map(at), fromBytes.diagnostics.map(at));
      assert.equal(report.schemaValid, fromBytes.schemaValid);
      assert.equal(report.schemaValid, !text.startsWith('\ufeff\ufeff'));
      assert.deepEqual(readXmlSitemapText(text).diagnostics.map((d) => d.code), codes);
    }
  });


  it('reads a UTF-16 text sitemap without a byte order mark by its byte pattern, as it reads UTF-16 XML', () => {
    const text = 'https://example.com/a\nhttps://example.com/b\n';
    for (const encoding of ['utf-16le', 'utf-16be'] as const) {
      const le = Buffer.from(text, 'utf16le');
      const bytes = encoding === 'utf-16le' ? le : Buffer.from(le).swap16();
      const { events, summary } = readChunks([bytes]);
      assert.equal(summary.format, 'text', encoding);
      assert.deepEqual(events.filter((e) => e[0] === 'url').map((e) => (e[1] as { loc: string }).loc), ['https://example.com/a', 'https://example.com/b'], encoding);
      // UTF-16 is no XML parser's business here: the protocol's UTF-8 only (the warning a BOM gets too).
      const codes = events.filter((e) => e[0] === 'diagnostic').map((e) => (e[1] as { code: string }).code);
      assert.deepEqual(codes, ['encoding/declared-not-utf8'], encoding);
    }
  });
  it('reads a UTF-16 sitemap whose last byte is odd with one error for that byte, at the end, and nothing after the root', () => {
    const text = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>\n';
    const { events } = readChunks([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le'), Buffer.from([0x0a])]);
    assert.deepEqual(events.filter((e) => e[0] === 'url').map((e) => (e[1] as { loc: string }).loc), ['https://example.com/']);
    const diagnostics = events.filter((e) => e[0] === 'diagnostic').map((e) => e[1] as Diagnostic);
    assert.deepEqual(diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`), ['encoding/declared-not-utf8@1:1', 'encoding/invalid-bytes@2:1']);
  });
  it('says once that a zip, bzip2, xz, zstd or zlib file is compressed in a way the protocol does not take (only gzip), and reads nothing of it', async () => {
    const junk = Buffer.from([0x9f, 0xc3, 0x28, 0x0a, 0xff, 0x3c, 0x80, 0xfe]);
    // zlib: PHP's gzcompress() where gzencode() was meant, saved as .gz.
    const magics = { zip: 'PK\x03\x04', bzip2: 'BZh91AY&SY', xz: '\xfd7zXZ\x00', zstd: '\x28\xb5\x2f\xfd', zlib: 'x\x9c' };
    for (const [name, magic] of Object.entries(magics)) {
      const bytes = Buffer.concat([Buffer.from(magic, 'latin1'), ...Array<Buffer>(300).fill(junk)]);
      for (const got of [readChunks([bytes]), readChunks([...bytes].map((b) => Uint8Array.of(b)))]) {
        const diagnostics = got.events.filter((e) => e[0] === 'diagnostic').map((e) => e[1] as Diagnostic);
        assert.deepEqual(diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`), ['format/compressed@1:1'], name);
        assert.match(diagnostics[0]?.message ?? '', new RegExp(`${name}.*only gzip`), name);
        assert.equal(got.summary.urls, 0, name);
      }
      const report = await validateSitemap(bytes);
      assert.deepEqual([report.diagnostics.map((d) => d.code), report.schemaValid], [['format/compressed'], false], name);
    }
    // A text line that merely starts like one is read as text.
    assert.equal(readChunks([Buffer.from('BZh9 https://example.com/\n')]).summary.format, 'text');
  });

  it('refuses gzip bytes (the caller inflates them), also when the magic is split across two pushes', () => {
    const gz = gzipSync(XML);
    for (const chunks of [[gz], [gz.subarray(0, 1), gz.subarray(1)]]) {
      assert.throws(() => readChunks(chunks), (e: unknown) => e instanceof SitemapError && e.code === 'ERR_SITEMAP_INPUT_FORMAT');
    }
  });

  it('refuses a chunk of another type (a caller without types) with ERR_SITEMAP_API, and reads on', () => {
    const { sink, events } = recorder();
    const doc = new SitemapDocument({}, sink);
    const api = (got: string) => (e: unknown) => e instanceof SitemapError && e.code === 'ERR_SITEMAP_API' && e.message.endsWith(`got ${got}`);
    for (const [chunk, got] of [[42, 'number'], ['<urlset/>', 'string'], [[60], 'Array'], [new ArrayBuffer(2), 'ArrayBuffer'], [null, 'null'], [undefined, 'undefined']] as const) {
      assert.throws(() => doc.push(chunk as unknown as Uint8Array), api(got));
    }
    assert.throws(() => doc.pushText(Buffer.from('x') as unknown as string), api('Buffer'));
    doc.push(Buffer.from(TEXT));
    doc.end();
    assert.equal(doc.bytesDecompressed, TEXT.length);
    assert.equal(events.filter((e) => e[0] === 'url').length, 2);
  });

  it('reads gzip inflated by a DecompressionStream (the web way) as the Node reader reads the .gz', async () => {
    const gz = gzipSync(XML);
    const chunks: Uint8Array[] = [];
    for await (const chunk of new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'))) chunks.push(chunk);
    const got = readChunks(chunks);
    const expected = await readNode(gz);
    assert.deepEqual(got.events, expected.events);
    assert.deepEqual({ ...got.summary, bytesRead: gz.length }, expected.summary);
  });

  it('is pure: the document module and what it imports name no node: module', () => {
    const seen = new Set<string>();
    const visit = (url: URL): void => {
      if (seen.has(url.href)) return;
      seen.add(url.href);
      const source = readFileSync(fileURLToPath(url), 'utf8');
      for (const [, spec] of source.matchAll(/^import [^;]*?from '([^']+)'/gms)) {
        assert.ok(!(spec as string).startsWith('node:'), `${url.pathname} imports ${spec}`);
        if ((spec as string).startsWith('.')) visit(new URL((spec as string).replace(/\.js$/, '.ts'), url));
      }
    };
    visit(new URL('../../../src/core/read/document.ts', import.meta.url));
    assert.ok(seen.size > 5);
  });
});
