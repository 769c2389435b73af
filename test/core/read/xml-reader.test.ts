import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { CORPUS, filesUnder } from '../../helpers/files.js';
import type { Diagnostic } from '../../../src/core/diagnostics.js';
import { NS, type UrlEntry } from '../../../src/core/model.js';
import type { EntryPosition, ReaderBudgets, SitemapFormat } from '../../../src/core/read/types.js';
import { XML_READER_CODES, XmlSitemapReader, readXmlSitemapText, type XmlSitemapReadResult } from '../../../src/core/read/xml-reader.js';
import { sniffEncoding } from '../../../src/core/read/sniff.js';
import { formatSitemapDate } from '../../../src/core/datetime.js';
import { comparableUrl, normalizeUrl } from '../../../src/core/url.js';
import { serializeSitemap } from '../../../src/core/write/serialize.js';
import type { AlternateLink, ImageEntry, NewsEntry, VideoEntry } from '../../../src/core/model.js';
import { XML_TOKENIZER_CODES, XmlTokenizer } from '../../../src/core/xml/tokenizer.js';

const EXPECTED = fileURLToPath(new URL('../../fixtures/read/xml/expected/', import.meta.url));
const hasCorpus = existsSync(CORPUS);
const UPDATE = process.env.UPDATE_EXPECTED === '1';

// ---- helpers ------------------------------------------------------------------------------------

interface Read extends XmlSitemapReadResult {
  positions: EntryPosition[];
  formatCalls: number;
}

/** Tokenize `chunks` into a reader; everything the sink got. */
function readChunks(chunks: readonly string[], budgets: ReaderBudgets = {}): Read {
  const r: Read = { format: 'unknown', urls: [], sitemaps: [], diagnostics: [], positions: [], formatCalls: 0 };
  const reader = new XmlSitemapReader(
    {
      format: (f: SitemapFormat) => {
        r.format = f;
        r.formatCalls++;
      },
      url: (e, at) => {
        r.urls.push(e);
        r.positions.push(at);
      },
      sitemap: (s, at) => {
        r.sitemaps.push(s);
        r.positions.push(at);
      },
      diagnostic: (d) => r.diagnostics.push(d),
    },
    budgets,
  );
  const tokenizer = new XmlTokenizer(reader, { maxDepth: budgets.maxDepth, maxValueLength: budgets.maxValueLength ?? 1024 * 1024 });
  for (const chunk of chunks) tokenizer.write(chunk);
  tokenizer.end();
  reader.end();
  return r;
}

const read = (text: string, budgets?: ReaderBudgets): XmlSitemapReadResult => readXmlSitemapText(text, budgets);
const codes = (r: { diagnostics: Diagnostic[] }): string[] => r.diagnostics.map((d) => d.code);
const find = (r: { diagnostics: Diagnostic[] }, code: string): Diagnostic => {
  const d = r.diagnostics.find((x) => x.code === code);
  assert.ok(d, `no ${code} in ${JSON.stringify(codes(r))}`);
  return d;
};
const locs = (r: XmlSitemapReadResult): string[] => r.urls.map((u) => u.loc);

const URLSET = `<urlset xmlns="${NS.sitemap}" xmlns:image="${NS.image}" xmlns:video="${NS.video}" xmlns:news="${NS.news}" xmlns:xhtml="${NS.xhtml}">`;
const urlset = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?>\n${URLSET}\n${body}\n</urlset>\n`;
const url = (loc: string, rest = ''): string => `<url><loc>${loc}</loc>${rest}</url>\n`;

/** The text of a corpus file: gunzipped when it is gzip, decoded as UTF-8 (latin1 for encoding/, BOM skipped). */
function corpusText(path: string): string {
  let bytes: Uint8Array = readFileSync(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  const sniff = sniffEncoding(bytes.subarray(0, 1024));
  const body = bytes.subarray(sniff.bomLength);
  return new TextDecoder(path.includes('/encoding/') && sniff.encoding !== 'utf-8' ? 'latin1' : 'utf-8').decode(body);
}

function corpusFiles(): string[] {
  return filesUnder([CORPUS], /\.(xml|rss|atom)(\.gz)?$/);
}

// ---- registry -----------------------------------------------------------------------------------

describe('XML_READER_CODES', () => {
  it('gives every code one severity and does not clash with the tokenizer', () => {
    for (const [code, severity] of Object.entries(XML_READER_CODES)) {
      assert.match(code, /^[a-z-]+\/[a-z-]+$/);
      assert.ok(['error', 'warning', 'info'].includes(severity));
      assert.equal(XML_TOKENIZER_CODES[code], undefined, code);
    }
  });

  it('every diagnostic of the corpus has a registered code and its severity, and a position', { skip: !hasCorpus }, () => {
    for (const file of corpusFiles()) {
      for (const d of read(corpusText(file)).diagnostics) {
        const severity = XML_READER_CODES[d.code] ?? XML_TOKENIZER_CODES[d.code];
        assert.equal(d.severity, severity, `${d.code} in ${file}`);
        assert.ok(typeof d.line === 'number' && d.line >= 1 && typeof d.column === 'number' && d.column >= 1, `${d.code} position in ${file}`);
      }
    }
  });
});

// ---- formats ------------------------------------------------------------------------------------

describe('the root decides the format', () => {
  it('urlset: loc, lastmod, changefreq, priority; the format is reported once, before entries', () => {
    const r = readChunks([urlset(url('https://example.com/', '<lastmod>2024-01-02</lastmod><changefreq>daily</changefreq><priority>0.8</priority>'))]);
    assert.equal(r.format, 'urlset');
    assert.equal(r.formatCalls, 1);
    assert.deepEqual(r.urls, [{ loc: 'https://example.com/', lastmod: '2024-01-02', changefreq: 'daily', priority: 0.8 }]);
    assert.deepEqual(r.positions, [{ line: 3, column: 1 }]);
    assert.deepEqual(r.diagnostics, []);
  });

  it('a malformed XML declaration is reported, as validate reports it (libxml2 refuses version="2.0")', () => {
    const r = read(urlset(url('https://example.com/')).replace('version="1.0"', 'version="2.0"'));
    assert.deepEqual(locs(r), ['https://example.com/']);
    assert.deepEqual(codes(r), ['xml/bad-declaration']);
  });

  it('sitemapindex: sitemap → SitemapRef', () => {
    const r = read(`<sitemapindex xmlns="${NS.sitemap}"><sitemap><loc> https://example.com/s1.xml.gz </loc><lastmod>2004-10-01T18:23:17+00:00</lastmod></sitemap><sitemap><loc>https://example.com/s2.xml</loc></sitemap></sitemapindex>`);
    assert.equal(r.format, 'sitemapindex');
    assert.deepEqual(r.sitemaps, [{ loc: 'https://example.com/s1.xml.gz', lastmod: '2004-10-01T18:23:17+00:00' }, { loc: 'https://example.com/s2.xml' }]);
    assert.deepEqual(r.urls, []);
    assert.deepEqual(codes(r), []);
  });

  it('a sitemap namespace bound to a prefix works; so do extension namespaces under other prefixes', () => {
    const r = read(
      `<s:urlset xmlns:s="${NS.sitemap}" xmlns:i="${NS.image}"><s:url><s:loc>https://example.com/</s:loc><i:image><i:loc>https://example.com/a.jpg</i:loc></i:image></s:url></s:urlset>`,
    );
    assert.equal(r.format, 'urlset');
    assert.deepEqual(r.urls, [{ loc: 'https://example.com/', images: [{ loc: 'https://example.com/a.jpg' }] }]);
    assert.deepEqual(codes(r), []);
  });

  it('matches extension elements by namespace URI, not by prefix', () => {
    // `image:` bound to the video namespace: image:video is a video.
    const r = read(
      `<urlset xmlns="${NS.sitemap}" xmlns:image="${NS.video}"><url><loc>https://e.com/</loc><image:video><image:thumbnail_loc>https://e.com/t.jpg</image:thumbnail_loc><image:title>T</image:title><image:description>D</image:description><image:content_loc>https://e.com/v.mp4</image:content_loc></image:video></url></urlset>`,
    );
    assert.deepEqual(r.urls[0]?.videos, [{ thumbnailLoc: 'https://e.com/t.jpg', title: 'T', description: 'D', contentLoc: 'https://e.com/v.mp4' }]);
  });

  it('legacy Google namespaces and a missing namespace are read, with a warning', () => {
    for (const [ns, code] of [
      ['http://www.google.com/schemas/sitemap/0.84', 'namespace/legacy'],
      ['http://www.google.com/schemas/sitemap/0.9', 'namespace/legacy'],
      ['', 'namespace/missing'],
    ] as const) {
      const r = read(`<urlset${ns === '' ? '' : ` xmlns="${ns}"`}><url><loc>https://example.com/</loc></url></urlset>`);
      assert.equal(r.format, 'urlset');
      assert.deepEqual(locs(r), ['https://example.com/']);
      assert.deepEqual(codes(r), [code]);
      assert.equal(r.diagnostics[0]?.severity, 'warning');
      assert.deepEqual([r.diagnostics[0]?.line, r.diagnostics[0]?.column], [1, 1]);
    }
  });

  it("the Spanish seed's example: wrong namespace, raw & in locs → those entries dropped as untrusted, the others kept", () => {
    const seed = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset',
      'xmlns="http://www.sobjetoaps.org/schemas/sobjetoap/0.9">',
      '<url>',
      '<loc>http://www.ejemplo.com/</loc>',
      '<lastmod>2005-01-01</lastmod>',
      '<changefreq>monthly</changefreq>',
      '<priority>0.8</priority>',
      '</url>',
      '<url>',
      '<loc>http://www.ejemplo.com/catalogo?objeto=12&desc=madrid</loc>',
      '<changefreq>weekly</changefreq>',
      '</url>',
      '<url>',
      '<loc>http://www.ejemplo.com/catalogo?objeto=73&amp;desc=bcn</loc>',
      '<lastmod>2004-12-23</lastmod>',
      '<changefreq>weekly</changefreq>',
      '</url>',
      '<url>',
      '<loc>http://www.ejemplo.com/catalogo?objeto=74&desc=londres</loc>',
      '<lastmod>2004-12-23T18:00:15+00:00</lastmod>',
      '<priority>0.3</priority>',
      '</url>',
      '</urlset>',
    ].join('\n');
    const r = read(seed);
    assert.equal(r.format, 'urlset');
    assert.deepEqual(r.urls, [
      { loc: 'http://www.ejemplo.com/', lastmod: '2005-01-01', changefreq: 'monthly', priority: 0.8 },
      { loc: 'http://www.ejemplo.com/catalogo?objeto=73&desc=bcn', lastmod: '2004-12-23', changefreq: 'weekly' },
    ]);
    assert.deepEqual(codes(r), ['namespace/wrong', 'xml/raw-ampersand', 'loc/untrusted', 'xml/raw-ampersand', 'loc/untrusted']);
    const ns = find(r, 'namespace/wrong');
    assert.equal(ns.severity, 'error');
    assert.ok(ns.message.includes('http://www.sobjetoaps.org/schemas/sobjetoap/0.9') && ns.message.includes(NS.sitemap));
    assert.deepEqual([ns.line, ns.column], [2, 1]);
    const untrusted = r.diagnostics.filter((d) => d.code === 'loc/untrusted');
    assert.deepEqual(untrusted.map((d) => [d.line, d.column]), [[11, 1], [20, 1]]);
    assert.ok(untrusted[0]?.message.includes('catalogo?objeto=12&desc=madrid'));
    assert.ok(untrusted[0]?.message.includes('xml/raw-ampersand'));
    assert.equal(untrusted[0]?.hint, 'escape & as &amp;');
  });

  it('an HTML page is "sitemap is HTML" with no URLs, even when it wraps a urlset', () => {
    const r = read(`<!DOCTYPE html>\n<html><head><title>x</title></head><body>${URLSET}${url('https://example.com/')}</urlset></body></html>`);
    assert.equal(r.format, 'html');
    assert.deepEqual(r.urls, []);
    const d = find(r, 'format/html');
    assert.match(d.message, /sitemap is HTML/);
    assert.deepEqual([d.line, d.column], [2, 1]);
    assert.equal(read('<HTML xmlns="http://www.w3.org/1999/xhtml"><body/></HTML>').format, 'html');
  });

  it('an unknown root → unknown, with format/unknown-root; an Atom-named feed in no namespace too', () => {
    for (const doc of ['<catalog><item/></catalog>', '<feed><entry/></feed>', '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>']) {
      const r = read(doc);
      assert.equal(r.format, 'unknown', doc);
      assert.deepEqual(codes(r), ['format/unknown-root'], doc);
    }
  });

  it('no root: empty for whitespace (and comments), unknown for text; the tokenizer says there is no root', () => {
    assert.equal(read('').format, 'empty');
    assert.equal(read('  \n<!-- nothing -->\n').format, 'empty');
    const text = read('https://example.com/\n');
    assert.equal(text.format, 'unknown');
    assert.deepEqual(codes(text), ['xml/content-before-root', 'xml/no-root-element']);
  });

  it('an empty urlset, sitemapindex or feed is reported', () => {
    assert.deepEqual(codes(read(`${URLSET}</urlset>`)), ['urlset/empty']);
    assert.deepEqual(codes(read(`<sitemapindex xmlns="${NS.sitemap}"/>`)), ['sitemapindex/empty']);
    assert.deepEqual(codes(read('<rss version="2.0"><channel><title>t</title></channel></rss>')), ['feed/empty']);
    assert.deepEqual(codes(read('<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>')), ['feed/empty']);
    // An entry that is dropped still counts as an entry: not "empty".
    assert.deepEqual(codes(read(`${URLSET}<url/></urlset>`)), ['loc/missing']);
  });

  it('a second root of the same kind (two files joined) is read too; another kind is skipped', () => {
    const r = read(`${URLSET}${url('https://a.example/')}</urlset>\n${URLSET}${url('https://b.example/')}</urlset>\n<rss><channel><item><link>https://c.example/</link></item></channel></rss>`);
    assert.deepEqual(locs(r), ['https://a.example/', 'https://b.example/']);
    assert.deepEqual(codes(r), ['xml/content-after-root']);
  });

  it('a second root after one that is no sitemap is skipped too, not read as a feed', () => {
    assert.deepEqual(codes(read('<html></html><html></html>')), ['format/html', 'xml/content-after-root']);
    assert.deepEqual(codes(read('<foo/><foo/>')), ['format/unknown-root', 'xml/content-after-root']);
  });
});

// ---- urlset values ------------------------------------------------------------------------------

describe('urlset values', () => {
  it('trims XML whitespace only (not NBSP), keeps a valid lastmod as written', () => {
    const r = read(urlset(url('\n   https://example.com/a \t', '<lastmod>\n 2024-01-02T03:04:05.123+02:00 </lastmod><changefreq> weekly </changefreq><priority>\n1.00\n</priority>')));
    assert.deepEqual(r.urls, [{ loc: 'https://example.com/a', lastmod: '2024-01-02T03:04:05.123+02:00', changefreq: 'weekly', priority: 1 }]);
    const nbsp = read(urlset(url('https://example.com/b', '<news:news><news:publication><news:name>\u00a0N\u00a0</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-01-01</news:publication_date><news:title>t</news:title></news:news>')));
    assert.equal(nbsp.urls[0]?.news?.publication.name, '\u00a0N\u00a0');
  });

  it('priority: valid → number; invalid or out of range → raw text with a diagnostic', () => {
    const cases: [string, number | string, string[]][] = [
      ['0.5', 0.5, []],
      ['0', 0, []],
      ['1.0', 1, []],
      ['.3', 0.3, []],
      ['1.5', '1.5', ['priority/out-of-range']],
      ['-0.1', '-0.1', ['priority/out-of-range']],
      // Past 1.0 as a decimal (tPriority's maxInclusive), though a double rounds it to 1.
      ['1.0000000000000001', '1.0000000000000001', ['priority/out-of-range']],
      ['high', 'high', ['priority/invalid']],
      ['0,5', '0,5', ['priority/invalid']],
      ['', '', ['priority/invalid']],
    ];
    for (const [text, value, expected] of cases) {
      const r = read(urlset(url('https://e.com/', `\n  <priority>${text}</priority>`)));
      assert.deepEqual(r.urls[0]?.priority, value, text);
      assert.deepEqual(codes(r), expected, text);
      if (expected.length > 0) {
        assert.equal(r.diagnostics[0]?.severity, 'error');
        assert.deepEqual([r.diagnostics[0]?.line, r.diagnostics[0]?.column], [4, 3]);
      }
    }
  });

  it('changefreq: the seven, case-sensitive; a case difference is a warning with the fix', () => {
    for (const f of ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never']) {
      assert.deepEqual(codes(read(urlset(url('https://e.com/', `<changefreq>${f}</changefreq>`)))), [], f);
    }
    const upper = read(urlset(url('https://e.com/', '<changefreq>Daily</changefreq>')));
    assert.equal(upper.urls[0]?.changefreq, 'Daily');
    assert.equal(find(upper, 'changefreq/case').severity, 'warning');
    assert.equal(find(upper, 'changefreq/case').hint, 'write "daily"');
    const bad = read(urlset(url('https://e.com/', '<changefreq>fortnightly</changefreq>')));
    assert.equal(bad.urls[0]?.changefreq, 'fortnightly');
    assert.equal(find(bad, 'changefreq/invalid').severity, 'error');
  });

  it('lastmod: not a W3C Datetime → raw text kept + lastmod/invalid with the reason; ISO 8601 variants → lastmod/lenient', () => {
    const bad = read(urlset(url('https://e.com/', '<lastmod>not-a-date</lastmod>')));
    assert.equal(bad.urls[0]?.lastmod, 'not-a-date');
    assert.match(find(bad, 'lastmod/invalid').message, /W3C Datetime grammar/);
    const month = read(urlset(url('https://e.com/', '<lastmod>2024-13-01</lastmod>')));
    assert.match(find(month, 'lastmod/invalid').message, /month 13 is out of range/);
    const space = read(urlset(url('https://e.com/', '<lastmod>2024-01-02 10:00:00+0100</lastmod>')));
    assert.equal(space.urls[0]?.lastmod, '2024-01-02 10:00:00+0100');
    assert.equal(find(space, 'lastmod/lenient').hint, 'write 2024-01-02T10:00:00+01:00');
    for (const ok of ['2024', '2024-01', '2024-01-02', '2024-01-02T10:00Z', '2024-01-02T10:00:00-05:00']) {
      assert.deepEqual(codes(read(urlset(url('https://e.com/', `<lastmod>${ok}</lastmod>`)))), [], ok);
    }
  });

  it('loc: missing or empty → loc/missing; relative or not http(s) → loc/not-absolute; the entry is dropped', () => {
    const r = read(urlset([url(''), '<url><lastmod>2024-01-01</lastmod></url>', url('/relative/page'), url('ftp://e.com/file'), url('https:/one-slash'), url('HTTPS://E.COM/ok')].join('\n')));
    assert.deepEqual(locs(r), ['HTTPS://E.COM/ok']);
    assert.deepEqual(codes(r), ['loc/missing', 'loc/missing', 'loc/not-absolute', 'loc/not-absolute', 'loc/not-absolute']);
    assert.match(r.diagnostics[1]?.message ?? '', /without <loc>/);
  });

  it('loc: a port past 65535 (no URL parser a crawler uses takes it) → loc/invalid; the entry is dropped, in a feed too', () => {
    const r = read(urlset([url('http://example.com:70000/a'), url('http://example.com:65535/b'), url('http://example.com:0000080/c')].join('\n')));
    assert.deepEqual(locs(r), ['http://example.com:65535/b', 'http://example.com:0000080/c']);
    assert.deepEqual(codes(r), ['loc/invalid']);
    assert.deepEqual([r.diagnostics[0]?.line, r.diagnostics[0]?.column], [3, 6]);
    assert.match(r.diagnostics[0]?.message ?? '', /port 70000 is past 65535/);
    const feed = read('<rss><channel><item><link>https://e.com:65536/x</link></item><item><link>https://e.com/y</link></item></channel></rss>');
    assert.deepEqual(locs(feed), ['https://e.com/y']);
    assert.deepEqual(codes(feed), ['loc/invalid']);
  });

  it('loc: a host WHATWG URL refuses (256.1.1.1, bad punycode xn--zz) → loc/invalid; the entry is dropped, in a feed too', () => {
    const r = read(urlset([url('http://256.1.1.1/a'), url('http://1.2.3.4/b'), url('http://a.xn--zz/c'), url('http://xn--80ak6aa92e.com/d')].join('\n')));
    assert.deepEqual(locs(r), ['http://1.2.3.4/b', 'http://xn--80ak6aa92e.com/d']);
    assert.deepEqual(codes(r), ['loc/invalid', 'loc/invalid']);
    assert.match(r.diagnostics[0]?.message ?? '', /host "256\.1\.1\.1" ends in a number/);
    assert.match(r.diagnostics[1]?.message ?? '', /refuse its host "a\.xn--zz"/);
    const feed = read('<rss><channel><item><link>https://xn--zz/x</link></item><item><link>https://e.com/y</link></item></channel></rss>');
    assert.deepEqual(locs(feed), ['https://e.com/y']);
    assert.deepEqual(codes(feed), ['loc/invalid']);
  });

  it('a loc is reported as written, not normalised', () => {
    const r = read(urlset(url('http://Example.COM:80/a b/./c?q=é#f')));
    assert.deepEqual(locs(r), ['http://Example.COM:80/a b/./c?q=é#f']);
  });

  it('duplicate elements: the first is kept, with a warning', () => {
    const r = read(urlset(url('https://e.com/1', '<loc>https://e.com/2</loc><priority>0.1</priority><priority>0.9</priority>')));
    assert.deepEqual(r.urls, [{ loc: 'https://e.com/1', priority: 0.1 }]);
    assert.deepEqual(codes(r), ['element/duplicate', 'element/duplicate']);
  });

  it('unknown elements of the sitemap namespace are warned about; other namespaces are skipped silently', () => {
    const r = read(
      `<urlset xmlns="${NS.sitemap}" xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0" xmlns:image="${NS.image}">` +
        '<foo>not a url</foo>' +
        '<url><loc>https://e.com/</loc><mobile:mobile/><location>x</location><image:foo/><PageMap xmlns="http://www.google.com/schemas/sitemap-pagemap/1.0"><DataObject type="x"/></PageMap><sitemap/></url>' +
        '</urlset>',
    );
    assert.deepEqual(r.urls, [{ loc: 'https://e.com/' }]);
    assert.deepEqual(codes(r), ['element/unexpected', 'element/unexpected', 'element/unexpected', 'element/unexpected']);
    assert.match(r.diagnostics[0]?.message ?? '', /<foo> is not expected inside <urlset>/);
  });

  it('text directly inside <url> or <sitemap> is reported; a URL written bare inside <sitemap> gets a hint', () => {
    const r = read(`<sitemapindex xmlns="${NS.sitemap}">\n<sitemap>\n  https://e.com/s.xml\n</sitemap>\n</sitemapindex>`);
    assert.deepEqual(codes(r), ['element/stray-text', 'loc/missing']);
    assert.match(r.diagnostics[0]?.message ?? '', /"https:\/\/e.com\/s.xml"/);
    assert.match(r.diagnostics[1]?.hint ?? '', /wrap it in <loc>/);
  });
});

// ---- extensions ---------------------------------------------------------------------------------

describe('extensions', () => {
  it("video: the case forms sitemap-video.xsd allows (YES, Yes, HD, RENT) are read without a diagnostic, in the model's lower case", () => {
    const r = read(
      urlset(
        url(
          'https://e.com/',
          '<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description>' +
            '<video:player_loc allow_embed="Yes">https://e.com/p</video:player_loc><video:family_friendly>NO</video:family_friendly>' +
            '<video:price currency="EUR" type="RENT" resolution="HD">1.99</video:price><video:requires_subscription>YES</video:requires_subscription><video:live>No</video:live></video:video>',
        ),
      ),
    );
    assert.deepEqual(codes(r), []);
    const v = r.urls[0]?.videos?.[0];
    assert.deepEqual([v?.playerLocAllowEmbed, v?.familyFriendly, v?.prices?.[0]?.type, v?.prices?.[0]?.resolution, v?.requiresSubscription, v?.live], ['yes', 'no', 'rent', 'hd', 'yes', 'no']);
  });

  it('image: loc, caption, geo_location, title, license', () => {
    const r = read(
      urlset(
        url(
          'https://e.com/',
          '<image:image><image:loc>https://e.com/a.jpg</image:loc><image:caption> A &amp; B </image:caption><image:geo_location>Limerick, Ireland</image:geo_location><image:title>T</image:title><image:license>https://e.com/lic</image:license></image:image>' +
            '<image:image><image:loc>https://e.com/b.jpg</image:loc></image:image><image:image><image:caption>no loc</image:caption></image:image>',
        ),
      ),
    );
    assert.deepEqual(r.urls[0]?.images, [
      { loc: 'https://e.com/a.jpg', caption: 'A & B', geoLocation: 'Limerick, Ireland', title: 'T', license: 'https://e.com/lic' },
      { loc: 'https://e.com/b.jpg' },
    ]);
    assert.deepEqual(codes(r), ['image/invalid']);
  });

  it('video: every field of the model, attributes included', () => {
    const video = `<video:video>
      <video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc>
      <video:title>Grilling</video:title>
      <video:description>Steaks</video:description>
      <video:content_loc>https://e.com/v.mp4</video:content_loc>
      <video:player_loc allow_embed="yes" autoplay="ap=1">https://e.com/player?v=1</video:player_loc>
      <video:duration>600</video:duration>
      <video:expiration_date>2030-11-05T19:20:30+08:00</video:expiration_date>
      <video:rating>4.2</video:rating>
      <video:content_segment_loc duration="30">https://e.com/s1.mp4</video:content_segment_loc>
      <video:content_segment_loc>https://e.com/s2.mp4</video:content_segment_loc>
      <video:view_count>12345</video:view_count>
      <video:publication_date>2007-11-05T19:20:30+08:00</video:publication_date>
      <video:tag>steak</video:tag><video:tag>meat</video:tag>
      <video:category>Grilling</video:category>
      <video:family_friendly>yes</video:family_friendly>
      <video:restriction relationship="allow">IE  GB
        US</video:restriction>
      <video:gallery_loc title="Cooking">https://e.com/gallery</video:gallery_loc>
      <video:price currency="EUR" type="rent" resolution="hd">1.99</video:price>
      <video:price currency="USD">2</video:price>
      <video:requires_subscription>no</video:requires_subscription>
      <video:uploader info="https://e.com/users/g">Grilly</video:uploader>
      <video:tvshow>
        <video:show_title>Show</video:show_title><video:video_type>full</video:video_type><video:episode_title>Ep</video:episode_title>
        <video:season_number>3</video:season_number><video:episode_number>7</video:episode_number><video:premier_date>2020-01-01</video:premier_date>
      </video:tvshow>
      <video:platform relationship="deny">tv mobile</video:platform>
      <video:live>no</video:live>
      <video:id type="url">https://e.com/id/1</video:id>
      <video:id type="tms:program">MV000</video:id>
    </video:video>`;
    const r = read(urlset(url('https://e.com/', video)));
    assert.deepEqual(codes(r), []);
    assert.deepEqual(r.urls[0]?.videos, [
      {
        thumbnailLoc: 'https://e.com/t.jpg',
        title: 'Grilling',
        description: 'Steaks',
        contentLoc: 'https://e.com/v.mp4',
        playerLoc: 'https://e.com/player?v=1',
        playerLocAllowEmbed: 'yes',
        playerLocAutoplay: 'ap=1',
        duration: 600,
        expirationDate: '2030-11-05T19:20:30+08:00',
        rating: 4.2,
        contentSegmentLocs: [{ loc: 'https://e.com/s1.mp4', duration: 30 }, { loc: 'https://e.com/s2.mp4' }],
        viewCount: 12345,
        publicationDate: '2007-11-05T19:20:30+08:00',
        tags: ['steak', 'meat'],
        category: 'Grilling',
        familyFriendly: 'yes',
        restriction: { relationship: 'allow', countries: ['IE', 'GB', 'US'] },
        galleryLoc: 'https://e.com/gallery',
        galleryLocTitle: 'Cooking',
        prices: [{ value: '1.99', currency: 'EUR', type: 'rent', resolution: 'hd' }, { value: '2', currency: 'USD' }],
        requiresSubscription: 'no',
        uploader: 'Grilly',
        uploaderInfo: 'https://e.com/users/g',
        tvshow: { showTitle: 'Show', videoType: 'full', episodeTitle: 'Ep', seasonNumber: 3, episodeNumber: 7, premierDate: '2020-01-01' },
        platform: { relationship: 'deny', platforms: ['tv', 'mobile'] },
        live: 'no',
        ids: [{ type: 'url', value: 'https://e.com/id/1' }, { type: 'tms:program', value: 'MV000' }],
      },
    ]);
  });

  it('video: an invalid number is omitted (its raw text in the message); an invalid enumeration is kept as written', () => {
    const r = read(
      urlset(
        url(
          'https://e.com/',
          '<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description>' +
            '<video:duration>2459.1</video:duration><video:rating>five</video:rating><video:view_count>1e3</video:view_count><video:family_friendly>yEs</video:family_friendly>' +
            '<video:price currency="EUR">1,99</video:price><video:expiration_date>soon</video:expiration_date><video:restriction>IE</video:restriction></video:video>',
        ),
      ),
    );
    const v = r.urls[0]?.videos?.[0];
    assert.ok(v);
    assert.equal(v.duration, undefined);
    assert.equal(v.rating, undefined);
    assert.equal(v.viewCount, undefined);
    assert.equal(v.familyFriendly, 'yEs');
    assert.deepEqual(v.prices, [{ value: '1,99', currency: 'EUR' }]);
    assert.equal(v.expirationDate, 'soon');
    assert.equal(v.restriction, undefined);
    assert.deepEqual(codes(r), Array(7).fill('video/invalid'));
    assert.ok(r.diagnostics[0]?.message.includes('"2459.1"'));
    assert.equal(r.diagnostics[3]?.hint, 'write "yes"');
  });

  it('video: an integer in every form xsd:integer takes (-0, +5, 007, -3: the range is the schema check\'s); past 2^53 - 1 omitted, said so', () => {
    const head = '<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description>';
    const r = read(
      urlset(
        url('https://e.com/', `${head}<video:player_loc>https://e.com/p</video:player_loc><video:duration>-0</video:duration><video:content_segment_loc duration="+5">https://e.com/s</video:content_segment_loc>` +
          '<video:view_count>007</video:view_count><video:tvshow><video:show_title>S</video:show_title><video:video_type>full</video:video_type><video:season_number>-3</video:season_number></video:tvshow></video:video>') +
          url('https://e.com/b', `${head}<video:view_count>9007199254740993</video:view_count></video:video>`),
      ),
    );
    const v = r.urls[0]?.videos?.[0];
    assert.ok(v);
    assert.ok(Object.is(v.duration, 0));
    assert.deepEqual(v.contentSegmentLocs, [{ loc: 'https://e.com/s', duration: 5 }]);
    assert.equal(v.viewCount, 7);
    assert.equal(v.tvshow?.seasonNumber, -3);
    assert.equal(r.urls[1]?.videos?.[0]?.viewCount, undefined);
    assert.deepEqual(codes(r), ['video/invalid']);
    assert.equal(r.diagnostics[0]?.message, 'video:view_count "9007199254740993" is past 9,007,199,254,740,991, beyond which the model\'s numbers do not hold every whole number exactly; omitted');
  });

  it('video: missing required fields are read as "" with a diagnostic', () => {
    const r = read(urlset(url('https://e.com/', '<video:video><video:content_loc>https://e.com/v.mp4</video:content_loc></video:video>')));
    assert.deepEqual(r.urls[0]?.videos, [{ thumbnailLoc: '', title: '', description: '', contentLoc: 'https://e.com/v.mp4' }]);
    assert.deepEqual(codes(r), ['video/invalid']);
    assert.match(r.diagnostics[0]?.message ?? '', /video:thumbnail_loc, video:title, video:description/);
  });

  it('news: publication, access, genres/keywords/stock_tickers split on commas', () => {
    const r = read(
      urlset(
        url(
          'https://e.com/n',
          '<news:news><news:publication><news:name>The Times</news:name><news:language>en</news:language></news:publication><news:access>Subscription</news:access>' +
            '<news:genres>PressRelease, Blog,</news:genres><news:publication_date>2008-12-23</news:publication_date><news:title>A, B in talks</news:title>' +
            '<news:keywords> business, merger , A </news:keywords><news:stock_tickers>NASDAQ:A, NASDAQ:B</news:stock_tickers><news:geo_locations>Detroit</news:geo_locations></news:news>',
        ),
      ),
    );
    assert.deepEqual(codes(r), []);
    assert.deepEqual(r.urls[0]?.news, {
      publication: { name: 'The Times', language: 'en' },
      publicationDate: '2008-12-23',
      title: 'A, B in talks',
      access: 'Subscription',
      genres: ['PressRelease', 'Blog'],
      keywords: ['business', 'merger', 'A'],
      stockTickers: ['NASDAQ:A', 'NASDAQ:B'],
    });
  });

  it('news: an undefined entity keeps its text with the tokenizer diagnostic; missing parts read as ""', () => {
    const r = read(urlset(url('https://e.com/n', '<news:news><news:publication><news:name>Le Caf&eacute;</news:name></news:publication><news:title>Caf&eacute; &amp; cr&egrave;me</news:title></news:news>')));
    assert.deepEqual(r.urls[0]?.news, { publication: { name: 'Le Caf&eacute;', language: '' }, publicationDate: '', title: 'Caf&eacute; & cr&egrave;me' });
    assert.deepEqual(codes(r), ['xml/undefined-entity', 'xml/undefined-entity', 'xml/undefined-entity', 'news/invalid']);
  });

  it('an empty required field that its schema type takes (a news name or title, a video title) is missing: news/invalid, video/invalid', () => {
    const news = (name: string, title: string): string =>
      `<news:news><news:publication><news:name>${name}</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-01-01</news:publication_date><news:title>${title}</news:title></news:news>`;
    const video = (title: string, date = ''): string =>
      `<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>${title}</video:title><video:description>D</video:description><video:content_loc>https://e.com/v.mp4</video:content_loc>${date}</video:video>`;
    const r = read(urlset([url('https://e.com/1', news('', ' ')), url('https://e.com/2', news('N', 'T')), url('https://e.com/3', video('')), url('https://e.com/4', video('T'))].join('')));
    assert.deepEqual(codes(r), ['news/invalid', 'video/invalid']);
    assert.match(r.diagnostics[0]?.message ?? '', /news:news has no news:name \(only an empty one\), news:title \(only an empty one\)/);
    assert.match(r.diagnostics[1]?.message ?? '', /the video has no video:title \(only an empty one\)/);
    // An empty value its type refuses is that check's alone: news:language, news:publication_date.
    const refused = read(urlset(url('https://e.com/5', news('N', 'T').replace('<news:language>en', '<news:language>').replace('>2024-01-01<', '><'))));
    assert.deepEqual(codes(refused), ['news/invalid']);
    assert.match(refused.diagnostics[0]?.message ?? '', /publication_date "" is not a W3C Datetime/);
  });

  it('hreflang alternates; rel other than alternate is ignored; without hreflang or href → diagnostic, skipped', () => {
    const r = read(
      urlset(
        url(
          'https://e.com/en',
          '<xhtml:link rel="alternate" hreflang="en" href="https://e.com/en"/>\n<xhtml:link\n  rel="alternate"\n  hreflang="de-CH"\n  href=" https://e.com/de "\n/>' +
            '<xhtml:link rel="amphtml" href="https://e.com/amp"/><xhtml:link rel="alternate" href="android-app://x/y"/><xhtml:link rel="alternate" hreflang="fr"/>',
        ),
      ),
    );
    assert.deepEqual(r.urls[0]?.alternates, [{ hreflang: 'en', href: 'https://e.com/en' }, { hreflang: 'de-CH', href: 'https://e.com/de' }]);
    assert.deepEqual(codes(r), ['alternate/invalid', 'alternate/invalid']);
  });

  it("rel=\"alternate\" with media and no hreflang is Google's annotation of a separate mobile URL: not an hreflang alternate, not a problem", () => {
    const mobile = '<xhtml:link\n  rel="alternate"\n  media="only screen and (max-width: 640px)"\n  href="http://m.example.com/page-1" />';
    const r = read(urlset(url('https://e.com/page-1', mobile) + url('https://e.com/page-2', `<xhtml:link rel="alternate" hreflang="es" media="only screen and (max-width: 640px)" href="https://m.e.com/es/2"/>`)));
    assert.deepEqual(r.urls.map((u) => u.alternates), [undefined, [{ hreflang: 'es', href: 'https://m.e.com/es/2' }]]);
    assert.deepEqual(codes(r), []);
  });

  it('an image, video or alternate whose URL is relative or WHATWG URL refuses (as a loc would be) is skipped: image/invalid, video/invalid, alternate/invalid', () => {
    const video = (thumb: string, content: string, player: string): string =>
      `<video:video><video:thumbnail_loc>${thumb}</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:content_loc>${content}</video:content_loc><video:player_loc>${player}</video:player_loc></video:video>`;
    const r = read(
      urlset(
        url(
          'https://e.com/a',
          '<image:image><image:loc>https://e.com:70000/i.jpg</image:loc></image:image><image:image><image:loc>https://e.com/ok.jpg</image:loc></image:image>' +
            '<image:image><image:loc>https://256.1.1.1/i.jpg</image:loc></image:image>' +
            video('https://e.com/t.jpg', 'https://xn--zz/v.mp4', 'https://e.com/p') + video('https://e.com:99999/t.jpg', 'https://e.com/v.mp4', 'https://e.com/p') +
            video('https://e.com/t.jpg', 'https://e.com/v.mp4', 'https://0x100000000/p') + video('https://e.com/t.jpg', 'https://e.com/ok.mp4', 'https://e.com/p') +
            '<xhtml:link rel="alternate" hreflang="en" href="https://xn--zz/a"/><xhtml:link rel="alternate" hreflang="de" href="https://e.com/de"/>' +
            // Relative: a sitemap has nothing to resolve them against.
            '<image:image><image:loc>/i.jpg</image:loc></image:image>' + video('t.jpg', 'https://e.com/v.mp4', 'https://e.com/p') + '<xhtml:link rel="alternate" hreflang="fr" href="/fr"/>' +
            // Google's video sitemaps take FTP for the files.
            video('https://e.com/t.jpg', 'ftp://e.com/ftp.mp4', 'https://e.com/p'),
        ),
      ),
    );
    const [entry] = r.urls;
    assert.deepEqual(entry?.images, [{ loc: 'https://e.com/ok.jpg' }]);
    assert.deepEqual(entry?.videos?.map((v) => v.contentLoc), ['https://e.com/ok.mp4', 'ftp://e.com/ftp.mp4']);
    assert.deepEqual(entry?.alternates, [{ hreflang: 'de', href: 'https://e.com/de' }]);
    assert.deepEqual(codes(r), ['image/invalid', 'image/invalid', 'video/invalid', 'video/invalid', 'video/invalid', 'alternate/invalid', 'image/invalid', 'video/invalid', 'alternate/invalid']);
    assert.match(r.diagnostics[6]?.message ?? '', /image:loc "\/i\.jpg" is not a URL anything can fetch: it is not an absolute http\(s\) URL/);
    assert.match(r.diagnostics[2]?.message ?? '', /video:content_loc "https:\/\/xn--zz\/v\.mp4" is not a URL anything can fetch/);
    assert.match(r.diagnostics[3]?.message ?? '', /video:thumbnail_loc .*port 99999 is past 65535/);
  });
});

// ---- trust --------------------------------------------------------------------------------------

describe('an entry whose loc cannot be trusted is dropped, never corrupted', () => {
  it('a raw & in the 5th of 10 URLs: the other 9 come out intact', () => {
    const body = Array.from({ length: 10 }, (_, i) => url(i === 4 ? 'https://e.com/p?a=1&b=2' : `https://e.com/p?i=${i}&amp;j=${i}`, `<priority>0.${i}</priority>`)).join('');
    const r = read(urlset(body));
    assert.deepEqual(
      r.urls,
      Array.from({ length: 10 }, (_, i) => i)
        .filter((i) => i !== 4)
        .map((i) => ({ loc: `https://e.com/p?i=${i}&j=${i}`, priority: i / 10 })),
    );
    assert.deepEqual(codes(r), ['xml/raw-ampersand', 'loc/untrusted']);
    assert.match(r.diagnostics[1]?.message ?? '', /xml\/raw-ampersand/);
  });

  it('an undefined entity, an invalid character reference or a raw < in a loc', () => {
    for (const [loc, code] of [
      ['https://e.com/caf&eacute;', 'xml/undefined-entity'],
      ['https://e.com/&#0;', 'xml/invalid-char-ref'],
      ['https://e.com/a<1', 'xml/raw-less-than'],
    ]) {
      const r = read(urlset(url(loc as string) + url('https://e.com/ok')));
      assert.deepEqual(locs(r), ['https://e.com/ok'], loc);
      assert.deepEqual(codes(r), [code, 'loc/untrusted'], loc);
    }
  });

  it('CDATA in a loc is plain text (a & inside it is fine)', () => {
    const r = read(urlset(url('<![CDATA[https://e.com/?a=1&b=2]]>') + url(' <![CDATA[ https://e.com/x ]]> ')));
    assert.deepEqual(locs(r), ['https://e.com/?a=1&b=2', 'https://e.com/x']);
    assert.deepEqual(codes(r), []);
  });

  it('markup inside a loc makes it untrusted', () => {
    const r = read(urlset(url('https://e.com/<b>x</b>')));
    assert.deepEqual(r.urls, []);
    assert.deepEqual(codes(r), ['loc/untrusted']);
    assert.match(r.diagnostics[0]?.message ?? '', /contains the element <b>/);
  });

  it('a loc cut at the value-length budget is dropped', () => {
    const long = `https://e.com/${'a'.repeat(100)}`;
    const r = read(urlset(url(long) + url('https://e.com/short')), { maxValueLength: 50 });
    assert.deepEqual(locs(r), ['https://e.com/short']);
    assert.deepEqual(codes(r), ['budget/value-length', 'loc/untrusted']);
  });

  it('a <loc> closed by recovery (mismatched tag) drops the entry', () => {
    const r = read(`${URLSET}<url><loc>https://www.example.com/video/1</url>${url('https://e.com/ok')}</urlset>`);
    assert.deepEqual(locs(r), ['https://e.com/ok']);
    assert.deepEqual(codes(r), ['xml/mismatched-tag', 'loc/untrusted']);
  });

  it('a <url> closed by recovery drops the entry; a stray end tag inside <url> does not', () => {
    const r = read(`${URLSET}${url('https://e.com/1')}<url><loc>https://e.com/2</loc></urlset>`);
    assert.deepEqual(locs(r), ['https://e.com/1']);
    assert.deepEqual(codes(r), ['xml/mismatched-tag', 'loc/untrusted']);
    assert.match(r.diagnostics[1]?.message ?? '', /<url> element is not closed properly/);
    const stray = read(`${URLSET}<url><loc>https://e.com/1</loc></lastmod></url></urlset>`);
    assert.deepEqual(locs(stray), ['https://e.com/1']);
    assert.deepEqual(codes(stray), ['xml/mismatched-tag']);
  });

  it('an unclosed <url> at the end of input is dropped; the entries before it are kept', () => {
    const r = read(`${URLSET}${url('https://e.com/1')}<url><loc>https://e.com/2</loc><lastmod>2024-01-01</lastmod>`);
    assert.deepEqual(locs(r), ['https://e.com/1']);
    assert.deepEqual(codes(r), ['xml/unclosed-element', 'loc/untrusted', 'xml/unclosed-element']);
  });

  it('a file truncated inside a loc or a tag', () => {
    for (const tail of ['<url><loc>https://e.com/2', '<url><loc>https://e.com/2</lo', '<url><loc>https://e.com/2</loc></ur']) {
      const r = read(`${URLSET}${url('https://e.com/1')}${tail}`);
      assert.deepEqual(locs(r), ['https://e.com/1'], tail);
      assert.ok(codes(r).includes('loc/untrusted'), tail);
    }
  });

  it('URLs in extensions: an untrusted image:loc drops the image, an untrusted href the alternate, an untrusted video URL the video', () => {
    const r = read(
      urlset(
        url(
          'https://e.com/',
          '<image:image><image:loc>https://e.com/a.jpg?x=1&y=2</image:loc></image:image><image:image><image:loc>https://e.com/b.jpg</image:loc><image:license>https://e.com/l?a&b</image:license></image:image>' +
            '<xhtml:link rel="alternate" hreflang="en" href="https://e.com/?a=1&b=2"/><xhtml:link rel="alternate" hreflang="de" href="https://e.com/de"/>' +
            '<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:content_loc>https://e.com/v?a&b</video:content_loc></video:video>',
        ),
      ),
    );
    assert.deepEqual(r.urls, [{ loc: 'https://e.com/', images: [{ loc: 'https://e.com/b.jpg' }], alternates: [{ hreflang: 'de', href: 'https://e.com/de' }] }]);
    assert.deepEqual(codes(r).filter((c) => !c.startsWith('xml/')), ['url/untrusted', 'url/untrusted', 'url/untrusted', 'url/untrusted']);
  });
});

// ---- feeds --------------------------------------------------------------------------------------

describe('RSS 2.0', () => {
  const rss = (items: string): string => `<?xml version="1.0"?>\n<rss version="2.0"><channel><title>t</title><link>https://e.com/</link>${items}</channel></rss>`;

  it('item → loc from <link>, lastmod from pubDate converted to W3C Datetime', () => {
    const r = read(
      rss(
        '<item><link> https://e.com/1 </link><pubDate>Sat, 07 Sep 2002 09:42:31 GMT</pubDate></item>' +
          '<item><link>https://e.com/2</link><pubDate>Tue, 10 Jun 2003 04:00:00 EST</pubDate></item>' +
          '<item><link>https://e.com/3</link><pubDate>Wed, 02 Oct 2002 15:00:00 +0200</pubDate></item>' +
          '<item><link>https://e.com/4</link></item>',
      ),
    );
    assert.equal(r.format, 'rss');
    assert.deepEqual(r.urls, [
      { loc: 'https://e.com/1', lastmod: '2002-09-07T09:42:31Z' },
      { loc: 'https://e.com/2', lastmod: '2003-06-10T04:00:00-05:00' },
      { loc: 'https://e.com/3', lastmod: '2002-10-02T15:00:00+02:00' },
      { loc: 'https://e.com/4' },
    ]);
    assert.deepEqual(codes(r), []);
  });

  it('a permalink guid stands in for a missing link; isPermaLink="false" does not', () => {
    const r = read(rss('<item><guid>https://e.com/g</guid></item><item><guid isPermaLink="true">https://e.com/h</guid></item><item><guid isPermaLink="false">https://e.com/i</guid></item><item><guid>not a url</guid></item>'));
    assert.deepEqual(locs(r), ['https://e.com/g', 'https://e.com/h']);
    assert.deepEqual(codes(r), ['loc/missing', 'loc/not-absolute']);
  });

  it('dc:date is the fallback when there is no pubDate', () => {
    const r = read(
      '<rss xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><item><link>https://e.com/1</link><dc:date>2018-11-28T13:55:00-07:00</dc:date></item>' +
        '<item><link>https://e.com/2</link><dc:date>2018-11-28</dc:date><pubDate>Thu, 29 Nov 2018 00:00:00 GMT</pubDate></item></channel></rss>',
    );
    assert.deepEqual(r.urls, [
      { loc: 'https://e.com/1', lastmod: '2018-11-28T13:55:00-07:00' },
      { loc: 'https://e.com/2', lastmod: '2018-11-29T00:00:00Z' },
    ]);
    assert.deepEqual(codes(r), []);
  });

  it('a wrong weekday is a warning (the date wins); an unreadable pubDate is kept raw with lastmod/invalid', () => {
    const r = read(rss('<item><link>https://e.com/1</link><pubDate>Mon, 06 Sep 2009 16:45:00 +0000 </pubDate></item><item><link>https://e.com/2</link><pubDate>03:24PM on May 05, 2018</pubDate></item>'));
    assert.deepEqual(r.urls, [
      { loc: 'https://e.com/1', lastmod: '2009-09-06T16:45:00+00:00' },
      { loc: 'https://e.com/2', lastmod: '03:24PM on May 05, 2018' },
    ]);
    assert.deepEqual(codes(r), ['lastmod/weekday', 'lastmod/invalid']);
    assert.equal(r.diagnostics[0]?.severity, 'warning');
    assert.match(r.diagnostics[0]?.message ?? '', /Sun, not a Mon/);
  });

  it('a raw & in a link drops the item', () => {
    const r = read(rss('<item><link>https://e.com/?a&b</link></item><item><link>https://e.com/ok</link></item>'));
    assert.deepEqual(locs(r), ['https://e.com/ok']);
    assert.deepEqual(codes(r), ['xml/raw-ampersand', 'loc/untrusted']);
  });
});

describe('Atom', () => {
  const ATOM = 'http://www.w3.org/2005/Atom';

  it('1.0: link rel="alternate" or without rel; self/edit/others ignored; updated → lastmod', () => {
    const r = read(
      `<feed xmlns="${ATOM}"><link rel="self" href="https://e.com/feed"/>` +
        '<entry><link rel="edit" href="https://e.com/edit/1"/><link rel="alternate" type="text/html" href="https://e.com/1"/><link href="https://e.com/1b"/><updated>2003-12-13T18:30:02Z</updated></entry>' +
        '<entry><link rel="enclosure" href="https://e.com/x.mp3"/><link href="https://e.com/2"/><published>2003-12-14T00:00:00Z</published></entry>' +
        '<entry><link rel="self" href="https://e.com/3"/></entry></feed>',
    );
    assert.equal(r.format, 'atom');
    assert.deepEqual(r.urls, [
      { loc: 'https://e.com/1', lastmod: '2003-12-13T18:30:02Z' },
      { loc: 'https://e.com/2', lastmod: '2003-12-14T00:00:00Z' },
    ]);
    assert.deepEqual(codes(r), ['loc/missing']);
    // rel="alternate" written out wins over an earlier link without rel.
    const both = read(`<feed xmlns="${ATOM}"><entry><link href="https://e.com/a"/><link rel="alternate" href="https://e.com/b"/><link rel="alternate" href="https://e.com/c"/></entry></feed>`);
    assert.deepEqual(locs(both), ['https://e.com/b']);
  });

  it('a date-only updated is accepted with a warning', () => {
    const r = read(`<feed xmlns="${ATOM}"><entry><link href="https://e.com/1"/><updated>2024-01-01</updated></entry></feed>`);
    assert.deepEqual(r.urls, [{ loc: 'https://e.com/1', lastmod: '2024-01-01' }]);
    assert.deepEqual(codes(r), ['lastmod/date-only']);
    assert.equal(r.diagnostics[0]?.severity, 'warning');
  });

  it('a leap second in updated (RFC 3339 §5.6 allows 23:59:60) is read as :59 with lastmod/lenient, as RSS pubDate is', () => {
    const r = read(`<feed xmlns="${ATOM}"><entry><link href="https://e.com/1"/><updated>2016-12-31T23:59:60Z</updated></entry></feed>`);
    assert.deepEqual(r.urls, [{ loc: 'https://e.com/1', lastmod: '2016-12-31T23:59:59Z' }]);
    assert.deepEqual(codes(r), ['lastmod/lenient']);
    assert.match(r.diagnostics[0]?.message ?? '', /leap second/);
    // The same in a pubDate written as a W3C Datetime (and in dc:date): one reading of the leap second for every feed date.
    for (const item of ['<pubDate>2016-12-31T23:59:60Z</pubDate>', `<dc:date xmlns:dc="http://purl.org/dc/elements/1.1/">2016-12-31T23:59:60Z</dc:date>`]) {
      const rss = read(`<rss version="2.0"><channel><item><link>https://e.com/1</link>${item}</item></channel></rss>`);
      assert.deepEqual(rss.urls, [{ loc: 'https://e.com/1', lastmod: '2016-12-31T23:59:59Z' }], item);
      assert.deepEqual(codes(rss), ['lastmod/lenient'], item);
      assert.match(rss.diagnostics[0]?.message ?? '', /leap second/, item);
    }
    // A sitemap's lastmod is xsd:dateTime, which stops at 59: there :60 stays invalid.
    const urlset = read(`<urlset xmlns="${NS.sitemap}"><url><loc>https://e.com/1</loc><lastmod>2016-12-31T23:59:60Z</lastmod></url></urlset>`);
    assert.deepEqual(codes(urlset), ['lastmod/invalid']);
  });

  it('relative hrefs: resolved against xml:base (feed, entry, link); else against the feed link with an info; else dropped', () => {
    const r = read(
      `<feed xmlns="${ATOM}" xml:base="https://base.example/blog/"><entry><link href="post/1"/></entry>` +
        '<entry xml:base="2024/"><link href="post/2"/></entry><entry><link xml:base="https://other.example/x/" href="../3"/></entry></feed>',
    );
    assert.deepEqual(locs(r), ['https://base.example/blog/post/1', 'https://base.example/blog/2024/post/2', 'https://other.example/3']);
    assert.deepEqual(codes(r), []);
    const viaLink = read(`<feed xmlns="${ATOM}"><link href="https://e.com/releases" rel="alternate"/><entry><link href="/tag/1.0"/></entry></feed>`);
    assert.deepEqual(locs(viaLink), ['https://e.com/tag/1.0']);
    assert.deepEqual(codes(viaLink), ['loc/relative']);
    assert.equal(viaLink.diagnostics[0]?.severity, 'info');
    const none = read(`<feed xmlns="${ATOM}"><entry><link href="/tag/1.0"/></entry></feed>`);
    assert.deepEqual(none.urls, []);
    assert.deepEqual(codes(none), ['loc/not-absolute']);
  });

  it('a namespace prefix on every element (a:feed) works', () => {
    const r = read(`<a:feed xmlns:a="${ATOM}"><a:entry><a:link href="https://e.com/1"/><a:updated>2014-12-03T00:00:00Z</a:updated></a:entry></a:feed>`);
    assert.equal(r.format, 'atom');
    assert.deepEqual(r.urls, [{ loc: 'https://e.com/1', lastmod: '2014-12-03T00:00:00Z' }]);
  });

  it('0.3: modified, else issued', () => {
    const r = read(
      '<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><link rel="alternate" type="text/html" href="https://e.com/1"/><issued>2004-01-01T00:00:00Z</issued><modified>2004-01-02T00:00:00Z</modified></entry>' +
        '<entry><link rel="alternate" href="https://e.com/2"/><issued>2004-01-03T00:00:00Z</issued></entry></feed>',
    );
    assert.equal(r.format, 'atom03');
    assert.deepEqual(r.urls, [
      { loc: 'https://e.com/1', lastmod: '2004-01-02T00:00:00Z' },
      { loc: 'https://e.com/2', lastmod: '2004-01-03T00:00:00Z' },
    ]);
  });

  it('an href with a raw & drops the entry', () => {
    const r = read(`<feed xmlns="${ATOM}"><entry><link href="https://e.com/?a&b"/></entry><entry><link href="https://e.com/ok"/></entry></feed>`);
    assert.deepEqual(locs(r), ['https://e.com/ok']);
    assert.deepEqual(codes(r), ['xml/raw-ampersand', 'loc/untrusted']);
  });

  it('an untrusted Atom href is placed at its entry', () => {
    const r = read(`<feed xmlns="${ATOM}">\n<entry><link href="https://e.com/a"/></entry>\n  <entry><link href="https://e.com/?a&b"/></entry></feed>`);
    const d = find(r, 'loc/untrusted');
    assert.deepEqual([d.line, d.column], [3, 3]);
  });
});

// ---- budgets ------------------------------------------------------------------------------------

describe('budgets', () => {
  it('maxEntries: the rest is not delivered, one budget/entries diagnostic', () => {
    const body = Array.from({ length: 20 }, (_, i) => url(`https://e.com/${i}`)).join('');
    const r = read(urlset(body), { maxEntries: 5 });
    assert.deepEqual(locs(r), [0, 1, 2, 3, 4].map((i) => `https://e.com/${i}`));
    assert.deepEqual(codes(r), ['budget/entries']);
    assert.equal(r.diagnostics[0]?.severity, 'error');
    // Exactly at the limit: no diagnostic.
    assert.deepEqual(codes(read(urlset(body), { maxEntries: 20 })), []);
  });

  it('a huge number of entries stops at maxEntries with one diagnostic (sitemapindex too)', () => {
    const n = 100_000;
    const r = readChunks(Array.from({ length: n / 1000 }, (_, k) => (k === 0 ? `<sitemapindex xmlns="${NS.sitemap}">` : '') + Array.from({ length: 1000 }, (_, i) => `<sitemap><loc>https://e.com/${k * 1000 + i}.xml</loc></sitemap>`).join('')).concat(['</sitemapindex>']), { maxEntries: 1000 });
    assert.equal(r.sitemaps.length, 1000);
    assert.deepEqual(codes(r), ['budget/entries']);
  });

  it('hostile: entities declared in a DOCTYPE are never expanded (a loc using one is untrusted); deep nesting stays bounded', () => {
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE urlset [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;"><!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n${URLSET}${url('https://e.com/&lol2;')}${url('https://e.com/&xxe;')}${url('https://e.com/ok')}</urlset>`;
    const r = read(laughs);
    assert.deepEqual(locs(r), ['https://e.com/ok']);
    assert.deepEqual(codes(r), ['xml/doctype', 'xml/undefined-entity', 'loc/untrusted', 'xml/undefined-entity', 'loc/untrusted']);
    const deep = read(urlset(url('https://e.com/deep', `${'<x>'.repeat(10_000)}${'</x>'.repeat(10_000)}`)), { maxDepth: 64 });
    assert.deepEqual(locs(deep), ['https://e.com/deep']);
    assert.deepEqual(codes(deep), ['element/unexpected', 'budget/depth']);
  });

  it('refuses a budget that is not a positive integer', () => {
    assert.throws(() => read('<urlset/>', { maxEntries: 0 }), { code: 'ERR_SITEMAP_OPTION' });
  });
});

// ---- corpus -------------------------------------------------------------------------------------

/** Files with checked-in expected outputs, and what each shows. */
const EXPECTED_FILES: Record<string, string> = {
  'index/adbar__trafilatura__tests__resources__sitemap2.xml': 'index: blank line between every line, mixed date/dateTime',
  'index/0xtrou__solo.engineer__sitemap-index.xml': 'index: one line, no whitespace',
  'urlset/crawler-commons__crawler-commons__src__test__resources__sitemaps__sitemap.ns.xml': 'urlset: sitemap namespace bound to a prefix',
  'urlset/bart-turczynski__sitemapr__tests__testthat__fixtures__corpus__xml__cdata-in-loc.xml': 'urlset: CDATA locs, & inside CDATA',
  'urlset/crawler-commons__crawler-commons__src__test__resources__sitemaps__sitemap-all.xml': 'urlset: &amp; in loc, CRLF',
  'ext-image/GateNLP__ultimate-sitemap-parser__docs__reference__formats_examples__google-image.xml': 'ext-image',
  'ext-video/crawler-commons__crawler-commons__src__test__resources__sitemaps__extension__sitemap-videos-tvshow.xml': 'ext-video: tvshow, non-integer duration',
  'ext-video/ekalinin__sitemap.js__tests__mocks__video.xml': 'ext-video: newlines inside URL values',
  'ext-news/crawler-commons__crawler-commons__src__test__resources__sitemaps__extension__sitemap-news.xml': 'ext-news: genres, keywords, tickers, empty name',
  'ext-hreflang/eliasdabbas__advertools__tests__sitemap.xml': 'ext-hreflang: an alternate without hreflang',
  'ext-mixed/apache__incubator-stormcrawler__core__src__test__resources__digitalpebble.sitemap.extensions.all.xml': 'ext-mixed: every extension in one url',
  'ext-other/crawler-commons__crawler-commons__src__test__resources__sitemaps__extension__sitemap-mobile.xml': 'ext-other: mobile skipped silently',
  'feed-rss/webignition__sitemap-model__tests__fixtures__Common__rss.xml': 'feed-rss: wrong weekday',
  'feed-rss/Allan-Cao__AlbertaEmergencyAlerts__feed.rss': 'feed-rss: real feed, no pubDate but dc:date',
  'feed-atom/lemon24__reader__atom.xml': 'feed-atom: link choice',
  'feed-atom/GateNLP__ultimate-sitemap-parser__docs__guides___sitemap_examples__atom0.3.xml': 'feed-atom: Atom 0.3',
  'feed-atom/io7m__jnull__releases.atom': 'feed-atom: prefixed, no links',
  'malformed/simplepie__simplepie-ng__releases.atom': 'malformed: &copy;, relative links',
  'malformed/shutterstock__streaming-sitemaps__packages__kinesis-sitemap-writer__src__mocks__malformed-small.xml': 'malformed: unclosed loc',
  'malformed/ekalinin__sitemap.js__tests__mocks__bad-tag-sitemap.xml': 'malformed: unknown element, escapes everywhere',
  'malformed/ekalinin__sitemap.js__tests__mocks__unescaped-lt.xml': 'malformed: raw < in changefreq',
  'malformed/bart-turczynski__sitemapr__tests__testthat__fixtures__corpus__xml__priority-out-of-range.xml': 'malformed: priority 1.5 and -0.1',
  'malformed/13protons__13protons___site__sitemap.xml': 'malformed: HTML served as a sitemap',
  'malformed/crawler-commons__crawler-commons__src__test__resources__sitemaps__sitemap.index.xml': 'malformed: bare URLs in <sitemap>',
  'malformed/webignition__sitemap-model__tests__fixtures__Common__sitemap.index.google.com.0.84.xml': 'malformed: legacy namespace',
  'malformed/Colinmcdonaldd__video-sitemap.xml__video-sitemap.xml': 'malformed: raw & in a description (kept)',
  'encoding/bart-turczynski__sitemapr__tests__testthat__fixtures__corpus__encoding__declared-iso8859-no-bom.xml': 'encoding: declared ISO-8859-1',
};

interface Expected {
  file: string;
  about: string;
  format: SitemapFormat;
  urls: UrlEntry[];
  sitemaps: { loc: string; lastmod?: unknown }[];
  diagnostics: string[];
}

function expectedOf(file: string): Expected {
  const r = read(corpusText(join(CORPUS, file)));
  return { file, about: EXPECTED_FILES[file] as string, format: r.format, urls: r.urls, sitemaps: r.sitemaps, diagnostics: codes(r) };
}

const expectedName = (file: string): string => `${file.replace(/\//g, '__')}.json`;

describe('corpus', { skip: !hasCorpus }, () => {
  it('every XML file is read without an exception, whole and in 4 KiB chunks, with the same result', () => {
    const files = corpusFiles();
    assert.ok(files.length >= 60, `${files.length} files`);
    for (const file of files) {
      const text = corpusText(file);
      const whole = readChunks([text]);
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += 4096) chunks.push(text.slice(i, i + 4096));
      assert.deepEqual(readChunks(chunks), whole, relative(CORPUS, file));
      assert.equal(whole.formatCalls, 1);
    }
  });

  it('matches the expected outputs checked in under test/fixtures/read/xml/expected/', () => {
    if (UPDATE) mkdirSync(EXPECTED, { recursive: true });
    for (const file of Object.keys(EXPECTED_FILES)) {
      const actual = expectedOf(file);
      const path = join(EXPECTED, expectedName(file));
      if (UPDATE) writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
      assert.deepEqual(actual, JSON.parse(readFileSync(path, 'utf8')), file);
    }
    assert.equal(readdirSync(EXPECTED).length, Object.keys(EXPECTED_FILES).length, 'stale expected files');
  });
});

// ---- chunk invariance ---------------------------------------------------------------------------

const SYNTHETIC: string[] = [
  urlset(url('https://e.com/p?a=1&b=2') + url('https://e.com/ok', '<lastmod>2024-01-01</lastmod><priority>1.5</priority>')),
  urlset(url('https://e.com/\r\n', '<changefreq>Daily</changefreq> stray\r\n text <news:news><news:title>Caf&eacute;</news:title></news:news>')),
  `${URLSET}<url><loc>https://e.com/1</url><url><loc>https://e.com/&#x1F600;</loc></url><url><loc>https://e.com/3</loc>`,
  '<rss><channel><item><link>https://e.com/1</link><pubDate>Mon, 06 Sep 2009 16:45:00 +0000</pubDate></item><item><guid>https://e.com/2</guid></item></channel></rss>',
  '<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://e.com/"><entry><link href="a?x=1&amp;y=2"/><updated>2024-01-01</updated></entry><entry><link href="b&c"/></entry></feed>',
];

function splitAt(text: string, points: number[]): string[] {
  const cuts = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const c of cuts) {
    out.push(text.slice(last, c));
    last = c;
  }
  out.push(text.slice(last));
  return out;
}

describe('chunk invariance', () => {
  const fixtures = (): string[] => {
    const out = [...SYNTHETIC];
    if (hasCorpus) {
      for (const f of [
        'ext-mixed/apache__incubator-stormcrawler__core__src__test__resources__digitalpebble.sitemap.extensions.all.xml',
        'malformed/ekalinin__sitemap.js__tests__mocks__bad-tag-sitemap.xml',
        'malformed/simplepie__simplepie-ng__releases.atom',
        'feed-rss/Allan-Cao__AlbertaEmergencyAlerts__feed.rss',
        'malformed/crawler-commons__crawler-commons__src__test__resources__sitemaps__sitemap.index.xml',
        'urlset/crawler-commons__crawler-commons__src__test__resources__sitemaps__sitemap-all.xml',
      ]) {
        out.push(corpusText(join(CORPUS, f)));
      }
    }
    return out;
  };

  it('whole vs one character at a time: identical entries, positions and diagnostics', () => {
    for (const text of fixtures()) {
      assert.deepEqual(readChunks([...text]), readChunks([text]), text.slice(0, 80));
    }
  });

  it('whole vs random splits', () => {
    const texts = fixtures();
    const wholes = texts.map((t) => readChunks([t]));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: texts.length - 1 }), fc.array(fc.nat(), { maxLength: 40 }), (k, points) => {
        const text = texts[k] as string;
        assert.deepEqual(readChunks(splitAt(text, points)), wholes[k]);
      }),
      { numRuns: 150 },
    );
  });
});

// ---- round trip ---------------------------------------------------------------------------------

// Text the writer can carry and the reader gives back unchanged: anything but leading or trailing XML
// whitespace (values are trimmed). CR in text, and tab/LF/CR in attribute values, are written as
// character references so that XML's line-end and attribute-value normalisation keep them.
const TEXT_UNITS = ['a', 'Z', '7', ' ', '&', '<', '>', '"', "'", 'é', '€', '😀', '\n', '\t', '\r', ';', '#'];
const noEdgeSpace = (s: string): boolean => s !== '' && !/^[ \t\n\r]|[ \t\n\r]$/.test(s);
const text = fc.string({ unit: fc.constantFrom(...TEXT_UNITS), minLength: 1, maxLength: 12 }).filter(noEdgeSpace);
const attrText = text;
const keyword = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '&', 'é'), minLength: 1, maxLength: 8 }).filter(noEdgeSpace);

const host = fc.constantFrom('example.com', 'www.Example.org', 'bücher.example', 'xn--bcher-kva.example', '127.0.0.1:8080');
const segment = fc.constantFrom('a', 'page-1', 'café', 'a b', '%41', 'x&y', "it's", '..', 'index.html', '');
const locArb = fc
  .tuple(fc.constantFrom('http', 'https', 'HTTPS'), host, fc.array(segment, { maxLength: 3 }), fc.constantFrom('', '?a=1&b=2', '?q=<tag>&r="x"', '#frag'))
  .map(([scheme, h, path, tail]) => `${scheme}://${h}/${path.join('/')}${tail}`);
const dateArb = fc.oneof(
  fc.constantFrom('2024', '2024-07', '2024-02-29', '2024-01-02T03:04Z', '2024-01-02T03:04:05Z', '2024-01-02T03:04:05.120+02:00', '1999-12-31T23:59:59-05:30', '2024-01-02t03:04:05z'),
  fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
);
const yesNo = fc.constantFrom<'yes' | 'no'>('yes', 'no');
const relationship = fc.constantFrom<'allow' | 'deny'>('allow', 'deny');

const imageArb: fc.Arbitrary<ImageEntry> = fc.record(
  { loc: locArb, caption: text, geoLocation: text, title: text, license: locArb },
  { requiredKeys: ['loc'], noNullPrototype: true },
);
const alternateArb: fc.Arbitrary<AlternateLink> = fc.record({ hreflang: fc.constantFrom('en', 'de-CH', 'x-default', 'zh-Hant-TW', 'es-419'), href: locArb }, { noNullPrototype: true });
const newsArb: fc.Arbitrary<NewsEntry> = fc.record(
  {
    publication: fc.record({ name: text, language: fc.constantFrom('en', 'zh-cn', 'fra') }, { noNullPrototype: true }),
    publicationDate: dateArb,
    title: text,
    access: fc.constantFrom<'Subscription' | 'Registration'>('Subscription', 'Registration'),
    // At least one: sitemap-news.xsd's pattern takes no empty genres, and the writer refuses it.
    genres: fc.subarray(['PressRelease', 'Satire', 'Blog', 'OpEd', 'Opinion', 'UserGenerated'], { minLength: 1 }),
    keywords: fc.array(keyword, { maxLength: 4 }),
    stockTickers: fc.subarray(['NASDAQ:A', 'NYSE:IBM', 'LON:BP']),
  },
  { requiredKeys: ['publication', 'publicationDate', 'title'], noNullPrototype: true },
);
const videoArb: fc.Arbitrary<VideoEntry> = fc
  .record(
    {
      thumbnailLoc: locArb,
      title: text,
      description: text,
      contentLoc: locArb,
      playerLoc: locArb,
      playerLocAllowEmbed: yesNo,
      playerLocAutoplay: attrText,
      duration: fc.integer({ min: 0, max: 28_800 }),
      expirationDate: dateArb,
      rating: fc.integer({ min: 0, max: 50 }).map((n) => n / 10),
      contentSegmentLocs: fc.array(fc.record({ loc: locArb, duration: fc.integer({ min: 0, max: 28_800 }) }, { requiredKeys: ['loc'], noNullPrototype: true }), { maxLength: 2 }),
      viewCount: fc.nat(),
      publicationDate: dateArb,
      tags: fc.array(text, { maxLength: 3 }),
      category: text,
      familyFriendly: yesNo,
      restriction: fc.record({ relationship, countries: fc.subarray(['IE', 'GB', 'US']) }, { noNullPrototype: true }),
      galleryLoc: locArb,
      galleryLocTitle: attrText,
      prices: fc.array(
        fc.record({ value: fc.constantFrom('1.99', '2', '0.5'), currency: fc.constantFrom('EUR', 'USD'), type: fc.constantFrom<'rent' | 'purchase'>('rent', 'purchase'), resolution: fc.constantFrom<'hd' | 'sd'>('hd', 'sd') }, { requiredKeys: ['value', 'currency'], noNullPrototype: true }),
        { maxLength: 2 },
      ),
      requiresSubscription: yesNo,
      uploader: text,
      uploaderInfo: locArb,
      tvshow: fc.record(
        {
          showTitle: text,
          videoType: fc.constantFrom<'full' | 'clip'>('full', 'clip'),
          episodeTitle: text,
          seasonNumber: fc.integer({ min: 1, max: 99 }),
          episodeNumber: fc.integer({ min: 1, max: 999 }),
          premierDate: dateArb,
        },
        { requiredKeys: ['showTitle', 'videoType'], noNullPrototype: true },
      ),
      platform: fc.record({ relationship, platforms: fc.subarray<'web' | 'mobile' | 'tv'>(['web', 'mobile', 'tv']) }, { noNullPrototype: true }),
      live: yesNo,
      ids: fc.array(fc.record({ type: fc.constantFrom<'url' | 'freebase'>('url', 'freebase'), value: text }, { noNullPrototype: true }), { maxLength: 2 }),
    },
    { requiredKeys: ['thumbnailLoc', 'title', 'description'], noNullPrototype: true },
  )
  .filter((v) => v.contentLoc !== undefined || v.playerLoc !== undefined)
  // The writer writes galleryLocTitle / uploaderInfo only with their element.
  .map((v) => {
    const out = { ...v };
    if (out.galleryLoc === undefined) delete out.galleryLocTitle;
    if (out.uploader === undefined) delete out.uploaderInfo;
    if (out.playerLoc === undefined) {
      delete out.playerLocAllowEmbed;
      delete out.playerLocAutoplay;
    }
    return out;
  });
const entryArb: fc.Arbitrary<UrlEntry> = fc.record(
  {
    loc: locArb,
    lastmod: dateArb,
    changefreq: fc.constantFrom('always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never') as fc.Arbitrary<UrlEntry['changefreq']>,
    priority: fc.integer({ min: 0, max: 10 }).map((n) => n / 10),
    images: fc.array(imageArb, { maxLength: 2 }),
    videos: fc.array(videoArb, { maxLength: 2 }),
    news: newsArb,
    // One URL per language: the writer refuses another (hreflang/duplicate-language, -x-default).
    alternates: fc.uniqueArray(alternateArb, { maxLength: 3, selector: (a) => a.hreflang }),
  },
  { requiredKeys: ['loc'], noNullPrototype: true },
).filter((e) => !(e.videos ?? []).some((v) => [v.contentLoc, v.playerLoc].some((u) => u !== undefined && comparableUrl(u) === comparableUrl(e.loc)))); // the writer refuses a video of the page's own loc (video/same-as-loc)

/** What the reader should give back for an entry the writer accepted: its normalised URLs and formatted dates. */
function afterWriter(e: UrlEntry): UrlEntry {
  const u = (s: string): string => normalizeUrl(s, 'loc');
  const d = (x: Parameters<typeof formatSitemapDate>[0]): string => formatSitemapDate(x);
  const out: UrlEntry = { ...e, loc: u(e.loc) };
  if (e.lastmod !== undefined) out.lastmod = d(e.lastmod);
  if (e.images !== undefined) out.images = e.images.map((i) => ({ ...i, loc: u(i.loc), ...(i.license !== undefined ? { license: u(i.license) } : {}) }));
  if (e.alternates !== undefined) out.alternates = e.alternates.map((a) => ({ hreflang: a.hreflang, href: u(a.href) }));
  if (e.news !== undefined) out.news = { ...e.news, publicationDate: d(e.news.publicationDate) };
  if (e.videos !== undefined) {
    out.videos = e.videos.map((v) => {
      const w: VideoEntry = { ...v, thumbnailLoc: u(v.thumbnailLoc) };
      for (const k of ['contentLoc', 'playerLoc', 'galleryLoc', 'uploaderInfo'] as const) if (v[k] !== undefined) w[k] = u(v[k]);
      for (const k of ['expirationDate', 'publicationDate'] as const) if (v[k] !== undefined) w[k] = d(v[k]);
      if (v.contentSegmentLocs !== undefined) w.contentSegmentLocs = v.contentSegmentLocs.map((s) => ({ ...s, loc: u(s.loc) }));
      for (const k of ['contentSegmentLocs', 'tags', 'prices', 'ids'] as const) if (w[k]?.length === 0) delete w[k];
      if (v.tvshow !== undefined) w.tvshow = { ...v.tvshow, ...(v.tvshow.premierDate !== undefined ? { premierDate: d(v.tvshow.premierDate) } : {}) };
      return w;
    });
  }
  // Empty lists are written as nothing (images, videos, alternates) or as an empty element (read back as []).
  for (const k of ['images', 'videos', 'alternates'] as const) if (out[k]?.length === 0) delete out[k];
  return out;
}

async function writeToText(entries: UrlEntry[]): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of serializeSitemap(entries)) parts.push(chunk);
  return new TextDecoder().decode(Buffer.concat(parts));
}

describe('round trip: written by the writer, read back → the same model', () => {
  it('entries generated by fast-check', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entryArb, { minLength: 1, maxLength: 5 }), async (entries) => {
        const xml = await writeToText(entries);
        const r = read(xml);
        assert.deepEqual(r.diagnostics, [], xml);
        assert.equal(r.format, 'urlset');
        assert.deepEqual(r.urls, entries.map(afterWriter));
      }),
      { numRuns: 150 },
    );
  });
});
