import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SitemapSetWriter, type SitemapFileInfo, type SitemapSetWriterOptions } from '../../src/core/write/sitemap-set-writer.js';
import { serializeSitemapIndex } from '../../src/core/write/sitemap-index.js';
import { serializeSitemap } from '../../src/core/write/serialize.js';
import { LIMITS_PROFILES, NS, type Limits, type UrlEntry } from '../../src/core/model.js';
import { SitemapError } from '../../src/core/errors.js';
import { xmllint } from '../helpers/xmllint.js';

interface Collected {
  files: string[];
  infos: SitemapFileInfo[];
}

function limits(overrides: Partial<Limits> = {}): Limits {
  return { ...LIMITS_PROFILES.current, ...overrides };
}

function run(entries: UrlEntry[], options: Partial<SitemapSetWriterOptions> = {}): Collected & { writer: SitemapSetWriter } {
  const chunks: Uint8Array[][] = [];
  const infos: SitemapFileInfo[] = [];
  const writer = new SitemapSetWriter(
    {
      open: (index) => {
        assert.equal(index, chunks.length);
        chunks.push([]);
      },
      write: (bytes) => (chunks.at(-1) as Uint8Array[]).push(bytes.slice()),
      close: (info) => infos.push(info),
    },
    { limits: limits(), ...options },
  );
  for (const entry of entries) writer.add(entry);
  writer.end();
  const files = chunks.map((parts) => Buffer.concat(parts).toString('utf8'));
  return { files, infos, writer };
}

const locsOf = (xml: string): string[] => [...xml.matchAll(/<url><loc>([^<]*)<\/loc>/g)].map((m) => m[1] as string);

test('a new file starts before the URL limit would be exceeded', () => {
  const entries = Array.from({ length: 25 }, (_, i) => ({ loc: `https://example.com/p${i}` }));
  const { files, infos } = run(entries, { limits: limits({ maxUrlsPerSitemap: 10 }) });
  assert.equal(files.length, 3);
  assert.deepEqual(infos.map((i) => i.urls), [10, 10, 5]);
  assert.deepEqual(files.flatMap(locsOf), entries.map((e) => e.loc));
});

test('a new file starts before the byte limit would be exceeded, and sizes are exact', () => {
  const entries = Array.from({ length: 500 }, (_, i) => ({ loc: `https://example.com/página-${i}`, lastmod: '2024-01-01' }));
  const { files, infos } = run(entries, { limits: limits({ maxBytesPerSitemap: 4000 }), chunkSize: 256 });
  assert.ok(files.length > 5);
  for (const [i, file] of files.entries()) {
    const bytes = Buffer.byteLength(file);
    assert.equal(bytes, infos[i]?.bytes, 'reported size is the real size');
    assert.ok(bytes <= 4000, `file ${i} has ${bytes} bytes`);
  }
  assert.equal(files.flatMap(locsOf).length, 500);
});

test('a file is filled up to the byte limit exactly, counted with the start tag it really has', () => {
  for (const images of [undefined, [{ loc: 'https://example.com/i.jpg' }]]) {
    const entries: UrlEntry[] = Array.from({ length: 20 }, (_, i) => ({ loc: `https://example.com/page-${i}`, ...(images ? { images } : {}) }));
    const size = Buffer.byteLength(run(entries).files[0] as string);
    const exact = run(entries, { limits: limits({ maxBytesPerSitemap: size }) });
    assert.deepEqual(exact.infos.map((i) => i.bytes), [size]);
    assert.equal(run(entries, { limits: limits({ maxBytesPerSitemap: size - 1 }) }).files.length, 2);
  }
});

test('a byte limit that holds a small file is taken: room for the start tag it writes, not for one declaring every extension', () => {
  const entries = [{ loc: 'https://example.com/a' }, { loc: 'https://example.com/b' }];
  const one = Buffer.byteLength(run(entries.slice(0, 1)).files[0] as string);
  assert.deepEqual(run(entries, { limits: limits({ maxBytesPerSitemap: one }) }).infos.map((i) => [i.urls, i.bytes]), [[1, one], [1, one]]);
  assert.throws(() => run(entries, { limits: limits({ maxBytesPerSitemap: one - 1 }) }), { rule: 'entry/too-large' });
  // The start and end of a file alone fill the limit: the option is refused.
  const frame = 2 * one - Buffer.byteLength(run(entries).files[0] as string);
  assert.throws(() => run(entries, { limits: limits({ maxBytesPerSitemap: frame }) }), { code: 'ERR_SITEMAP_OPTION', message: /leaves no room for a single URL/ });
});

test('at most 1,000 news entries per file', () => {
  const entries = Array.from({ length: 2500 }, (_, i) => ({
    loc: `https://example.com/n${i}`,
    ...(i % 2 === 0 ? { news: { publication: { name: 'P', language: 'en' }, publicationDate: '2024-01-01', title: `t${i}` } } : {}),
  }));
  const { infos } = run(entries);
  assert.deepEqual(infos.map((i) => i.news), [1000, 250]);
  assert.equal(infos.reduce((s, i) => s + i.urls, 0), 2500);
});

test('an entry larger than a whole file is refused, not split', () => {
  const writer = new SitemapSetWriter({ open() {}, write() {}, close() {} }, { limits: limits({ maxBytesPerSitemap: 700 }) });
  assert.throws(() => writer.add({ loc: `https://example.com/${'a'.repeat(600)}` }), { code: 'ERR_SITEMAP_INVALID_VALUE', rule: 'entry/too-large' });
});

test('more files than an index may list is a fatal error', () => {
  const writer = new SitemapSetWriter({ open() {}, write() {}, close() {} }, { limits: limits({ maxUrlsPerSitemap: 1 }), maxFiles: 3 });
  writer.add({ loc: 'https://example.com/1' });
  writer.add({ loc: 'https://example.com/2' });
  writer.add({ loc: 'https://example.com/3' });
  assert.throws(() => writer.add({ loc: 'https://example.com/4' }), (e: unknown) => e instanceof SitemapError && e.code === 'ERR_SITEMAP_LIMIT' && e.rule === 'limits/too-many-sitemaps');
});

test('an entry added after end() is a misuse (ERR_SITEMAP_API): the set is finished, no file is opened after it', () => {
  const { writer, infos } = run([{ loc: 'https://www.example.com/a' }]);
  assert.throws(() => writer.add({ loc: 'https://www.example.com/b' }), (error: unknown) => error instanceof SitemapError && error.code === 'ERR_SITEMAP_API');
  assert.deepEqual(writer.end(), infos);
  assert.equal(writer.urls, 1);
});

test('namespaces are declared only when used', () => {
  const plain = run([{ loc: 'https://example.com/' }]).files[0] as string;
  assert.ok(plain.includes(`<urlset xmlns="${NS.sitemap}">`));
  assert.ok(!plain.includes('xmlns:'));
  const withImage = run([{ loc: 'https://example.com/' }, { loc: 'https://example.com/i', images: [{ loc: 'https://example.com/i.jpg' }] }]).files[0] as string;
  assert.ok(withImage.includes(`<urlset xmlns="${NS.sitemap}" xmlns:image="${NS.image}">`));
  assert.ok(!withImage.includes('xmlns:video'));
  assert.ok(withImage.includes('<image:image><image:loc>'));
});

test('an extension first used after the root was flushed is declared locally, and the file still validates', async () => {
  const entries: UrlEntry[] = Array.from({ length: 50 }, (_, i) => ({ loc: `https://example.com/${i}` }));
  entries.push({ loc: 'https://example.com/v', videos: [{ thumbnailLoc: 'https://example.com/t.jpg', title: 't', description: 'd', contentLoc: 'https://example.com/v.mp4' }] });
  const file = run(entries, { chunkSize: 200 }).files[0] as string;
  assert.ok(file.includes(`<video:video xmlns:video="${NS.video}">`));
  const result = await xmllint(file, 'all');
  assert.deepEqual(result.errors, []);
});

test('xml-stylesheet processing instruction', async () => {
  const file = run([{ loc: 'https://example.com/' }], { xslUrl: '/sitemap.xsl?a=1&b=2' }).files[0] as string;
  assert.ok(file.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet type="text/xsl" href="/sitemap.xsl?a=1&amp;b=2"?>\n<urlset'));
  assert.ok((await xmllint(file, 'sitemap')).valid);
});

test('an xml-stylesheet URL that would end the instruction or that XML cannot carry is refused', () => {
  for (const xslUrl of ['/a.xsl?>', '/a\u0001.xsl', '/a\ufffe.xsl', '/a\ud800.xsl']) {
    assert.throws(() => run([{ loc: 'https://example.com/' }], { xslUrl }), { code: 'ERR_SITEMAP_OPTION' }, JSON.stringify(xslUrl));
  }
});

test("each file's lastmod is the newest among its entries, compared as instants", () => {
  const { infos } = run(
    [
      { loc: 'https://example.com/1', lastmod: '2024-01-01T10:00:00+02:00' },
      { loc: 'https://example.com/2', lastmod: '2024-01-01T09:30:00Z' },
      { loc: 'https://example.com/3' },
      { loc: 'https://example.com/4', lastmod: '2023-12-31' },
      { loc: 'https://example.com/5' },
      { loc: 'https://example.com/6' },
    ],
    { limits: limits({ maxUrlsPerSitemap: 3 }) },
  );
  assert.equal(infos[0]?.lastmod, '2024-01-01T09:30:00Z');
  assert.equal(infos[1]?.lastmod, '2023-12-31');
  const none = run([{ loc: 'https://example.com/' }]).infos[0] as SitemapFileInfo;
  assert.equal(none.lastmod, undefined);
});

test('dedupe writes each normalised URL once and counts the rest', () => {
  const { files, writer } = run(
    [{ loc: 'https://example.com/a' }, { loc: 'HTTPS://EXAMPLE.COM:443/a' }, { loc: 'https://example.com/b' }, { loc: 'https://example.com/a' }],
    { dedupe: true },
  );
  assert.deepEqual(locsOf(files[0] as string), ['https://example.com/a', 'https://example.com/b']);
  assert.equal(writer.duplicates, 2);
  assert.equal(writer.urls, 2);
  // Escapes compared as validate's loc/duplicate compares them (RFC 3986 §6.2.2): one page, listed once.
  const escaped = run([{ loc: 'https://example.com/%C3%BC' }, { loc: 'https://example.com/%c3%bc' }, { loc: 'https://example.com/ü' }, { loc: 'https://example.com/%7Ea' }, { loc: 'https://example.com/~a' }], { dedupe: true });
  assert.deepEqual(locsOf(escaped.files[0] as string), ['https://example.com/%C3%BC', 'https://example.com/%7Ea']);
});

test('property: every entry lands exactly once, in order, and no file breaks a limit', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ path: fc.stringMatching(/^[a-zñé0-9/]{0,40}$/), images: fc.nat(3) }), { maxLength: 120 }),
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 700, max: 5000 }),
      fc.integer({ min: 16, max: 4096 }),
      (items, maxUrls, maxBytes, chunkSize) => {
        const entries: UrlEntry[] = items.map((item, i) => ({
          loc: `https://example.com/${i}/${item.path}`,
          images: Array.from({ length: item.images }, (_, k) => ({ loc: `https://example.com/${i}-${k}.jpg` })),
        }));
        const { files, infos } = run(entries, { limits: limits({ maxUrlsPerSitemap: maxUrls, maxBytesPerSitemap: maxBytes }), chunkSize });
        const written = files.flatMap(locsOf);
        assert.equal(written.length, entries.length);
        for (const [i, file] of files.entries()) {
          assert.ok(Buffer.byteLength(file) <= maxBytes);
          assert.equal(Buffer.byteLength(file), infos[i]?.bytes);
          assert.ok((infos[i]?.urls ?? 0) <= maxUrls);
          assert.ok(file.endsWith('</urlset>\n'));
        }
      },
    ),
    { numRuns: 150 },
  );
});

test('the index lists children with their lastmod and validates against siteindex.xsd', async () => {
  const text = serializeSitemapIndex(
    [
      { loc: 'https://example.com/sitemap-00001.xml.gz', lastmod: '2024-01-01T09:30:00Z' },
      { loc: 'https://example.com/sitemap-00002.xml.gz' },
    ],
    { limits: LIMITS_PROFILES.current },
  );
  assert.ok(text.includes('<sitemap><loc>https://example.com/sitemap-00001.xml.gz</loc><lastmod>2024-01-01T09:30:00Z</lastmod></sitemap>'));
  const result = await xmllint(text, 'siteindex');
  assert.deepEqual(result.errors, []);
  const tooMany = Array.from({ length: 1001 }, (_, i) => ({ loc: `https://example.com/s${i}.xml` }));
  assert.throws(() => serializeSitemapIndex(tooMany, { limits: LIMITS_PROFILES.legacy }), { code: 'ERR_SITEMAP_LIMIT', rule: 'limits/too-many-sitemaps' });
  assert.throws(() => serializeSitemapIndex([{ loc: 'http://a.b' }], { limits: LIMITS_PROFILES.current }), { code: 'ERR_SITEMAP_INVALID_VALUE', rule: 'loc/too-short' });
});

test('serializeSitemap yields one document as byte chunks', async () => {
  const entries = Array.from({ length: 8000 }, (_, i) => ({ loc: `https://example.com/${i}`, priority: 0.5 }));
  const chunks: Uint8Array[] = [];
  for await (const chunk of serializeSitemap(entries)) chunks.push(chunk);
  assert.ok(chunks.length > 1, 'streamed in several chunks');
  const xml = Buffer.concat(chunks).toString('utf8');
  assert.equal(locsOf(xml).length, 8000);
  assert.ok((await xmllint(xml, 'sitemap')).valid);
  await assert.rejects(async () => {
    for await (const _ of serializeSitemap(entries, { limits: limits({ maxUrlsPerSitemap: 10 }) })) void _;
  }, { code: 'ERR_SITEMAP_LIMIT', rule: 'limits/document-full' });
});
