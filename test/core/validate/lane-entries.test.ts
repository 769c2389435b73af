// The validator's fast path (src/core/validate/lane-entries.ts) must change nothing but speed: every
// input validated with it and without it (every element through the XML events) gives the same
// report and schema verdict, however the input is split. These tests also check that the fast path
// is really taken where it should be, so that the comparison compares two different paths.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { xmlFixturesAndCorpus } from '../../helpers/files.js';
import { splitAt } from '../../helpers/split.js';
import type { ReaderBudgets, ReaderSink } from '../../../src/core/read/types.js';
import { XmlSitemapReader } from '../../../src/core/read/xml-reader.js';
import { XmlTokenizer, type XmlLane, type XmlTokenHandler } from '../../../src/core/xml/tokenizer.js';
import { SitemapValidation, type ValidationOptions } from '../../../src/core/validate/validator.js';
import { F_LOC_UNUSUAL, Lane, LANE_WINDOW, laneLoc, R_FLAGS } from '../../../src/core/read/lane.js';
import { comparableUrl } from '../../../src/core/url.js';
import { HreflangChecker } from '../../../src/core/validate/hreflang.js';
import { readAsciiChunk } from '../../../src/core/read/lane-bytes.js';
import type { FileReport } from '../../../src/core/validate/types.js';
import { edgeDocument } from '../../helpers/edge-entries.js';

const NOW = Date.UTC(2026, 0, 1);

interface Outcome {
  report: FileReport;
  schemaValid: boolean;
  /** Entries the lane (lane.ts) took (always 0 without it). */
  taken: number;
  /** The same (the lane is the one fast path). */
  lane: number;
  /** Of those, the ones it read from bytes (the `lane-bytes` way). */
  bytesLane: number;
}

/**
 * The ways: every element through the events; the lane, its runs counted by the sink
 * (ReaderSink.urlRun) or, for a sink that does not count runs (`lane-per-url`), delivered one by one;
 * and `lane-bytes`: `lane`, with every ASCII chunk read by readAsciiChunk (its bulk from the bytes, as
 * node/parse-sitemap.ts reads files).
 */
type Way = 'events' | 'lane' | 'lane-per-url' | 'lane-bytes';

/** The entries in a run the lane read: a value holds no `<`, so each entry start tag is one. */
function entriesIn(text: string): number {
  return text.split(/<url>|<sitemap>/).length - 1;
}

function validateWith(way: Way, chunks: readonly string[], options: ValidationOptions = {}, budgets: ReaderBudgets = {}): Outcome {
  const validation = new SitemapValidation('<test>', { now: NOW, ...options, fastPath: way !== 'events' });
  const sink: ReaderSink = way !== 'lane-per-url' ? validation : {
    format: (f) => validation.format(f),
    url: (e, at) => validation.url(e, at),
    sitemap: (r, at) => validation.sitemap(r, at),
    diagnostic: (d) => validation.diagnostic(d),
  };
  const reader = new XmlSitemapReader(sink, budgets);
  const handler = validation.xmlHandler(reader);
  let lane = 0;
  let bytesLane = 0;
  // The handler's lane, wrapped to count what it takes.
  const wrapped = new WeakMap<XmlLane, XmlLane>();
  const counting = new Proxy(handler, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (key !== 'lane' || value === null || value === undefined) return value;
      const sc = value as XmlLane;
      let w = wrapped.get(sc);
      if (w === undefined) {
        w = {
          ...sc,
          readRun: (buf, at, lines, maxLength) => {
            const end = sc.readRun(buf, at, lines, maxLength);
            if (end !== -1) lane += entriesIn(buf.slice(at, end));
            return end;
          },
        };
        const readRunBytes = sc.readRunBytes;
        if (readRunBytes !== undefined) {
          w.readRunBytes = (bytes, at, lines, maxLength) => {
            const end = readRunBytes(bytes, at, lines, maxLength);
            if (end !== -1) {
              const read = entriesIn(new TextDecoder().decode(bytes.subarray(at, end)));
              lane += read;
              bytesLane += read;
            }
            return end;
          };
        }
        wrapped.set(sc, w);
      }
      return w;
    },
  }) as XmlTokenHandler;
  const tokenizer = new XmlTokenizer(counting, { maxDepth: budgets.maxDepth, maxValueLength: budgets.maxValueLength ?? 1024 * 1024 });
  for (const chunk of chunks) {
    if (way === 'lane-bytes' && ASCII.test(chunk)) {
      readAsciiChunk(tokenizer, new TextEncoder().encode(chunk), { text: (from, to) => tokenizer.write(chunk.slice(from, to)), skipped: () => {}, wantsMore: () => true });
    } else {
      tokenizer.write(chunk);
    }
  }
  tokenizer.end();
  reader.end();
  const report = validation.finish(new TextEncoder().encode(chunks.join('')).length);
  return { report, schemaValid: validation.schemaValid, taken: lane, lane, bytesLane };
}

const ASCII = /^[\x00-\x7f]*$/;

/** Where the first `<url` or `<sitemap>` is (else the middle): a cut there puts the entries in a chunk of their own. */
function firstEntry(text: string): number {
  const at = text.search(/<(url|sitemap)[\s>]/);
  return at === -1 ? text.length >> 1 : at;
}

/** Both ways agree on `text`, whole and in the given pieces; returns the fast path's outcome (whole). */
function assertSame(text: string, pieces: readonly number[] = [], options: ValidationOptions = {}, budgets: ReaderBudgets = {}): Outcome {
  const long = validateWith('events', [text], options, budgets);
  assert.equal(long.taken, 0);
  const fast = validateWith('lane', [text], options, budgets);
  assert.deepStrictEqual(fast.report, long.report, 'report, whole (lane)');
  assert.equal(fast.schemaValid, long.schemaValid, 'schema verdict, whole (lane)');
  const perUrl = validateWith('lane-per-url', [text], options, budgets);
  assert.deepStrictEqual(perUrl.report, long.report, 'report, whole (lane, url by url)');
  assert.equal(perUrl.lane, fast.lane);
  // The bytes way reads the bulk of every chunk after the first (the first holds the root's start tag).
  const bytes = validateWith('lane-bytes', splitAt(text, [...pieces, firstEntry(text)]), options, budgets);
  assert.deepStrictEqual(bytes.report, long.report, 'report (lane, bytes)');
  assert.equal(bytes.schemaValid, long.schemaValid, 'schema verdict (lane, bytes)');
  if (pieces.length > 0) {
    for (const way of ['lane', 'lane-per-url', 'lane-bytes'] as const) {
      const chunked = validateWith(way, splitAt(text, pieces), options, budgets);
      assert.deepStrictEqual(chunked.report, long.report, `report, split (${way})`);
      assert.equal(chunked.schemaValid, long.schemaValid, `schema verdict, split (${way})`);
    }
  }
  return fast;
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n';
const urlset = (...urls: string[]): string => `${HEAD}${urls.join('\n')}\n</urlset>\n`;
const IMAGE = '<image:image><image:loc>https://example.com/i.jpg</image:loc></image:image>';
const link = (hreflang: string, href: string): string => `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${href}"/>`;
const PLAIN = '<url><loc>https://example.com/a</loc><lastmod>2024-01-02T03:04:05+00:00</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>';
const url = (loc: string): string => `<url><loc>${loc}</loc></url>`;

describe('validation fast path: taken for valid entries, same report', () => {
  it('takes plain urls, pretty-printed or not', () => {
    const text = urlset(PLAIN, url('https://example.com/b'), '<url>\n  <loc>https://example.com/c?x=1;y=%C3%A9#top</loc>\n  <lastmod>2024-02-29</lastmod>\n</url>');
    const out = assertSame(text);
    assert.equal(out.taken, 3);
    assert.equal(out.lane, 3, 'read by the bulk lane');
    assert.equal(out.report.entries, 3);
    assert.equal(out.schemaValid, true);
    assert.deepEqual(out.report.diagnostics, []);
  });

  it('takes urls with images and hreflang links in the writer\'s form, and checks their groups', () => {
    const en = 'https://example.com/en/';
    const de = 'https://example.com/de/';
    const text = urlset(
      `<url><loc>${en}</loc>${IMAGE}${link('en', en)}${link('de', de)}</url>`,
      `<url>\n  <loc>${de}</loc>\n  ${link('de', de)}\n  ${IMAGE}\n</url>`, // no link back to en
      `<url><loc>https://example.com/x/</loc>${link('en_US', 'https://example.com/x/')}${link('x-default', 'https://example.com/x/')}${link('x-default', 'https://example.com/y/')}</url>`,
    );
    const out = assertSame(text);
    assert.equal(out.taken, 3);
    assert.deepEqual(out.report.diagnostics.map((d) => d.code).sort(), ['hreflang/duplicate-x-default', 'hreflang/invalid-language', 'hreflang/missing-return-link']);
  });

  it('the lane reads them too, in a run with plain urls, references decoded; an alternate group is checked as by the events', () => {
    const en = 'https://example.com/en/?a=1&amp;b=2';
    const de = 'https://example.com/de/?a=1&#38;b=2';
    const body: string[] = [];
    for (let i = 0; i < 300; i++) body.push(url(`https://example.com/p/${i}`));
    body[100] = `<url>\n  <loc>${en}</loc>\n  <image:image>\n    <image:loc>https://example.com/i.jpg?s=1&amp;t=2</image:loc>\n  </image:image>\n  ${link('en', en)}\n  ${link('de', de)}\n</url>`;
    body[200] = `<url><loc>${de}</loc>${link('de', de)}${IMAGE}${IMAGE}</url>`; // no link back to en
    const out = assertSame(urlset(...body), [5000]);
    assert.equal(out.lane, 300);
    assert.deepEqual(out.report.diagnostics.map((d) => d.code), ['hreflang/missing-return-link']);
    // Past the limit of images in one url.
    const many = assertSame(urlset(PLAIN, `<url><loc>https://example.com/m</loc>${IMAGE.repeat(1001)}</url>`));
    assert.equal(many.lane, 2);
    assert.deepEqual(many.report.diagnostics.map((d) => d.code), ['image/too-many']);
  });

  it('declines extensions in other forms', () => {
    for (const extension of [
      '<image:image><image:loc>https://example.com/i.jpg</image:loc><image:caption>c</image:caption></image:image>',
      '<image:image><image:loc>/relative.jpg</image:loc></image:image>',
      '<image:image><image:loc>https://example.com/a b.jpg</image:loc></image:image>',
      '<xhtml:link hreflang="en" rel="alternate" href="https://example.com/a"/>',
      '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/%zz"/>',
      '<xhtml:link rel="alternate" hreflang="" href="https://example.com/a"/>',
      '<xhtml:link rel="alternate" hreflang=" en" href="https://example.com/a"/>',
      '<xhtml:link rel="alternate" hreflang="en" href=" https://example.com/a"/>',
      '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"></xhtml:link>',
      '<video:video xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"/>',
    ]) {
      const out = assertSame(urlset(PLAIN, `<url><loc>https://example.com/a</loc>${extension}</url>`));
      assert.equal(out.taken, 1, extension);
    }
    // Prefixes bound on the url, or not at all: the long way.
    const local = '<url xmlns:i="http://www.google.com/schemas/sitemap-image/1.1"><loc>https://example.com/a</loc><i:image><i:loc>https://example.com/i.jpg</i:loc></i:image></url>';
    assert.equal(assertSame(urlset(PLAIN, local)).taken, 1);
    const bare = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + `<url><loc>https://example.com/a</loc>${IMAGE}</url>\n</urlset>`;
    assert.equal(assertSame(bare).taken, 0);
  });

  it('takes the entries of a sitemap index', () => {
    const text = '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap><loc>https://example.com/s1.xml</loc><lastmod>2024-01-01</lastmod></sitemap>\n<sitemap><loc>https://example.com/s2.xml</loc></sitemap>\n</sitemapindex>';
    assert.equal(assertSame(text, [], { location: 'https://example.com/sitemap.xml' }).taken, 2);
    // References in a loc are read; a lastmod to the minute and blanks around a value are left to the events (they report them).
    const shapes = [
      '<sitemap>\n  <loc>https://example.com/s.xml?a=1&amp;b=&apos;2&apos;</loc>\n  <lastmod>2024-01-01T10:20:30.5+01:00</lastmod>\n</sitemap>',
      '<sitemap><loc>https://example.com/m.xml</loc><lastmod>2024-01-01T10:20+01:00</lastmod></sitemap>',
      '<sitemap><loc> https://example.com/b.xml </loc></sitemap>',
      '<sitemap><loc>https://example.com/s.xml?a=1&amp;b=&apos;2&apos;</loc></sitemap>',
    ];
    const out = assertSame(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${shapes.join('\n')}\n</sitemapindex>`, [40, 200], { location: 'https://example.com/sitemap.xml' });
    assert.equal(out.taken, 2);
    assert.deepEqual(out.report.diagnostics.map((d) => d.code), ['lastmod/not-xsd', 'value/whitespace', 'loc/duplicate']);
  });

  it('still finds duplicates, scope and future dates among entries it takes', () => {
    const text = urlset(url('https://example.com/a'), url('https://example.com/a'), url('https://other.example/x'), '<url><loc>https://example.com/f</loc><lastmod>2030-01-01</lastmod></url>');
    const out = assertSame(text, [], { location: 'https://example.com/sitemap.xml' });
    assert.equal(out.taken, 4);
    assert.deepEqual(out.report.diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`), ['loc/duplicate@4:1', 'loc/out-of-scope@5:1', 'lastmod/future@6:1']);
  });

  it('takes urls with a user name, which loc/credentials finds among its records as among the events, the location known or not', () => {
    const text = urlset(url('https://u:p@example.com/a'), url('https://example.com/b'), url('https://u@other.example/c'), url('https://example.com/d@e'));
    for (const options of [{}, { location: 'https://example.com/sitemap.xml' }]) {
      const out = assertSame(text, [], options);
      // All but user:password@, which it declines (its ":" would start a port).
      assert.equal(out.taken, 3);
      assert.deepEqual(out.report.diagnostics.filter((d) => d.code === 'loc/credentials').map((d) => d.line), [3, 5]);
    }
  });

  it('declines what a check would report, and the report is the same', () => {
    const declined = [
      url('https://example.com/a b'), // not encoded
      url('https://example.com/%zz'), // bad escape
      url('http://a.c/'), // shorter than 12
      url(`https://example.com/${'a'.repeat(2030)}`), // 2,048 or more
      url('HTTPS://example.com/a'),
      url('https://example.com/a&lt;b'), // a reference to a character a URL must encode
      url('https://[::1]/path/x'),
      '<url><loc>https://example.com/a </loc></url>', // whitespace in the value
      '<url><loc>https://example.com/a</loc><lastmod>2023-02-29</lastmod></url>',
      '<url><loc>https://example.com/a</loc><lastmod>2024-04-31T00:00:00Z</lastmod></url>',
      '<url><loc>https://example.com/a</loc><lastmod>2024-01-01T10:00Z</lastmod></url>',
      '<url><loc>https://example.com/a</loc><priority>1.5</priority></url>',
      '<url><loc>https://example.com/a</loc><changefreq>Daily</changefreq></url>',
      '<url><loc>https://example.com/a</loc><priority>0.5</priority><changefreq>daily</changefreq></url>',
      '<url id="1"><loc>https://example.com/a</loc></url>',
      '<url><loc>https://example.com/a</loc><!-- c --></url>',
    ];
    for (const entry of declined) {
      const out = assertSame(urlset(PLAIN, entry));
      assert.equal(out.taken, 1, entry);
    }
    // A reference to a character a URL may hold is the lane's (the RegExp declines it).
    assert.equal(assertSame(urlset(PLAIN, url('https://example.com/a&amp;b'))).lane, 2);
  });

  it('places text in element-only content at the start of its run however the input is cut (a blank piece, then the text)', () => {
    const text = urlset(PLAIN, url('https://example.com/b')).replace('\n</urlset>', '\n2024-02-30\n</urlset>');
    const cut = text.indexOf('2024-02-30');
    for (const way of ['events', 'lane'] as const) {
      const whole = validateWith(way, [text]);
      assert.deepStrictEqual(whole.report.diagnostics.map((d) => `${d.code}@${d.line}:${d.column} ${d.severity}`), ['element/stray-text@4:44 error'], way);
      assert.deepStrictEqual(validateWith(way, splitAt(text, [cut])).report, whole.report, `${way}, cut before the text`);
    }
    assertSame(text, [cut]);
  });

  it('is not taken where the names are not the sitemap namespace\'s', () => {
    const prefixed = '<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://example.com/a</loc></url>\n</s:urlset>';
    assert.equal(assertSame(prefixed).taken, 0);
    const legacy = '<urlset xmlns="http://www.google.com/schemas/sitemap/0.84">\n<url><loc>https://example.com/a</loc></url>\n</urlset>';
    assert.equal(assertSame(legacy).taken, 0);
    const none = '<urlset>\n<url><loc>https://example.com/a</loc></url>\n</urlset>';
    assert.equal(assertSame(none).taken, 0);
  });

  it('declines past the entry budget and the value budget', () => {
    const text = urlset(PLAIN, PLAIN, PLAIN);
    assertSame(text, [], {}, { maxEntries: 2 });
    assertSame(text, [], {}, { maxValueLength: 40 });
  });
});

describe('validation bulk lane: runs of urls, chunk boundaries, line counting', () => {
  /** 2,000 urls in the shapes the lane reads, with every kind of line break between and inside them. */
  function manyUrls(): string[] {
    const breaks = ['\n', '\r\n', '\r', '\n  ', ' ', ''];
    const urls: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const b = breaks[i % breaks.length] as string;
      const lastmod = i % 3 === 0 ? `${b}<lastmod>20${10 + (i % 15)}-0${1 + (i % 9)}-2${i % 10}T0${i % 10}:00:00Z</lastmod>` : '';
      const rest = i % 4 === 0 ? `${b}<changefreq>weekly</changefreq>${b}<priority>0.${i % 10}</priority>` : '';
      urls.push(`<url>${b}<loc>https://example.com/p/${i}?q=%2F${i % 7}</loc>${lastmod}${rest}${b}</url>`);
    }
    return urls;
  }

  it('reads them whole and in chunks of every size, with the report of the events', () => {
    const text = urlset(...manyUrls());
    for (const size of [97, 1000, 4096, 65536]) {
      const pieces: number[] = [];
      for (let at = size; at < text.length; at += size) pieces.push(at);
      const out = assertSame(text, pieces);
      assert.equal(out.report.entries, 2000);
      assert.ok(out.lane >= 1990, `${out.lane} read by the lane`);
    }
  });

  it('reads the bulk of ASCII chunks from their bytes, with the report of the events', () => {
    const text = urlset(...manyUrls());
    const long = validateWith('events', [text]);
    for (const size of [97, 1000, 4096, 65536]) {
      const pieces: number[] = [firstEntry(text)];
      for (let at = size; at < text.length; at += size) pieces.push(at);
      const out = validateWith('lane-bytes', splitAt(text, pieces));
      assert.deepStrictEqual(out.report, long.report, `chunks of ${size}`);
      // Where a chunk cuts a url, that url goes as text; the rest are read from the bytes.
      assert.ok(out.bytesLane >= 2000 - 2 * pieces.length && out.bytesLane > 0, `${out.bytesLane} read from bytes in chunks of ${size}`);
    }
  });

  it('counts the line breaks between urls read from bytes as the events do, a CRLF cut by a chunk too', () => {
    for (const sep of ['\r\n', '\r', '\n\r', ' \t\r\n  ', '\r\r\n']) {
      const urls = manyUrls().slice(0, 300);
      // A diagnostic after each stretch, to show where the lines are.
      for (let i = 50; i < 300; i += 50) urls[i] = `<url><loc>https://example.com/bad ${i}</loc></url>`;
      const text = `${HEAD}${urls.join(sep)}${sep}</urlset>${sep}`;
      const long = validateWith('events', [text]);
      assert.ok(long.report.diagnostics.length >= 5);
      // Chunks that start just before, inside or after the separator that follows a url.
      const pieces: number[] = [firstEntry(text)];
      let k = 0;
      for (let at = text.indexOf('</url>', 1000); at !== -1; at = text.indexOf('</url>', at + 3000)) pieces.push(at + 6 + (k++ % 3));
      const out = validateWith('lane-bytes', splitAt(text, pieces));
      assert.deepStrictEqual(out.report, long.report, JSON.stringify(sep));
      // A lone CR between urls ends the lane's runs: then most urls go as text.
      assert.ok(out.bytesLane > (/\r(?!\n)/.test(sep) ? 0 : 100), `${out.bytesLane} read from bytes (${JSON.stringify(sep)})`);
    }
  });

  it('stops at what it does not read, and positions what comes after as the events do', () => {
    const urls = manyUrls();
    // A duplicate, a future lastmod, an entity, a comment, an unencoded space and a bad date, spread out.
    urls[500] = '<url><loc>https://example.com/p/3?q=%2F3</loc></url>';
    urls[900] = '<url><loc>https://example.com/future</loc><lastmod>2031-01-01</lastmod></url>';
    urls[1200] = '<url><loc>https://example.com/a?b=1&amp;c=2</loc></url>';
    urls[1300] = '<url><!-- c --><loc>https://example.com/comment</loc></url>';
    urls[1700] = '<url><loc>https://example.com/a b</loc></url>';
    urls[1999] = '<url><loc>https://example.com/date</loc><lastmod>2023-02-29</lastmod></url>';
    // A character that is not ASCII costs its url only, not the chunk around it.
    urls[100] = '<url><loc>https://example.com/café</loc></url>';
    const text = urlset(...urls);
    const out = assertSame(text, [777, 20000, 20001, 50000, 90000]);
    const codes = out.report.diagnostics.map((d) => `${d.code}@${d.line}`);
    assert.ok(codes.some((c) => c.startsWith('loc/duplicate@')), codes.join(' '));
    assert.ok(codes.some((c) => c.startsWith('lastmod/future@')), codes.join(' '));
    assert.ok(out.lane > 1900);
  });

  it('reads references in a loc and fractions of a second; a loc is its value (a duplicate however it is written)', () => {
    const urls = manyUrls();
    for (let i = 0; i < 2000; i += 3) urls[i] = `<url>\n  <loc>https://example.com/q/${i}?a=1&amp;b=&#x32;&#38;c=&apos;d&apos;</loc>\n  <lastmod>2024-03-05T10:20:30.${i}Z</lastmod>\n</url>`;
    // The same value written another way, and the same loc with an escaped `<` (not a URL character: read by the events).
    urls[1001] = '<url><loc>https://example.com/q/0?a=1&#38;b=2&amp;c=\'d\'</loc></url>';
    urls[1501] = '<url><loc>https://example.com/q/0?a=1&amp;b=2&lt;</loc></url>';
    const text = urlset(...urls);
    const out = assertSame(text, [777, 20000, 20001, 50000, 90000]);
    assert.ok(out.lane >= 1990, `${out.lane} read by the lane`);
    const duplicates = out.report.diagnostics.filter((d) => d.code === 'loc/duplicate');
    assert.equal(duplicates.length, 1, JSON.stringify(out.report.diagnostics));
    assert.match(duplicates[0]?.message ?? '', /q\/0\?a=1&b=2&c='d'/);
  });

  it('takes URLs that RFC 3986 §6.2 makes one as one: a duplicate, as diff and report count them (comparableUrl)', () => {
    // Escapes in upper case and of unreserved characters decoded (§6.2.2.1-2), scheme and host in
    // lower case, the empty path "/" and no default port (§6.2.3), no dot segments (§6.2.2.3).
    const pairs = [
      ['http://Example.com/a%7e', 'http://example.com/a~'],
      ['https://example.com/caf%c3%a9', 'https://example.com/caf%C3%A9'],
      ['HTTPS://EXAMPLE.COM', 'https://example.com/'],
      ['https://example.com:443/x/./y', 'https://example.com/x/y'],
      ['https://example.com/&#126;z?a=%41', 'https://example.com/%7Ez?a=A'],
    ];
    const urls = manyUrls();
    pairs.forEach(([first, again], i) => {
      urls[200 + i * 100] = url(first as string);
      urls[250 + i * 100] = `<url>\n<loc>${again as string}</loc><lastmod>2024-01-01</lastmod></url>`;
    });
    const text = urlset(...urls);
    // Located too: each url is checked the long way then (its scope), with the same outcome.
    for (const options of [{}, { location: 'https://example.com/sitemap.xml' }]) {
      const out = assertSame(text, [777, 20000, 20001, 50000, 90000], options);
      assert.ok(out.lane > 1900, `${out.lane} read by the lane`);
      const duplicates = out.report.diagnostics.filter((d) => d.code === 'loc/duplicate');
      const lineOf = (loc: string): string => String(text.slice(0, text.indexOf(url(loc))).split(/\r\n|\r|\n/).length);
      assert.deepEqual(duplicates.map((d) => /first on line (\d+)\)/.exec(d.message)?.[1]), pairs.map(([first]) => lineOf(first as string)));
    }
  });

  it('marks every loc that may not be its own comparableUrl F_LOC_UNUSUAL, and the usual ones not (fast-check)', () => {
    // Locs without the mark go into the duplicate check's table as written: that must be their comparable form.
    const lane = Lane.create() as Lane;
    lane.configure({});
    const scanned = (loc: string): { loc: string; unusual: boolean } | undefined => {
      const text = `<url><loc>${loc}</loc></url>`;
      if (lane.scan(text, 0, 1, 0, text.length, 1) !== 1) return undefined;
      const records = lane.records;
      return { loc: laneLoc(text, records, 0), unusual: ((records[R_FLAGS] as number) & F_LOC_UNUSUAL) !== 0 };
    };
    for (const usual of ['https://www.example.com/', 'https://www.example.com/products/caf%C3%A9?a=1&amp;b=%2F', 'http://a.b.example/x-y/z.html#top', 'https://example.com/p/1?q=%2F1', 'https://xn--bcher-kva.example/xn--a', 'http://127.0.0.1:8080/a', 'https://example.com:8443/x', 'http://10.0.0.255/', 'https://1.2.3.4:65535/']) {
      assert.equal(scanned(usual)?.unusual, false, usual);
    }
    // A host WHATWG URL refuses (bad punycode, a number that is no IPv4 address, an escape of "/") goes the long way, where the reader refuses it (loc/invalid); so does one with a reference.
    for (const declined of ['https://a.XN--zz/', 'https://xn--zz.example/', 'http://256.1.1.1/', 'https://a.0x/', 'https://a.1./', 'https://e%2F.com/', 'https://e&#46;1/']) {
      scanned('https://www.example.com/');
      assert.equal(scanned(declined), undefined, declined);
    }
    // Each changed by comparableUrl, in the host (after a usual one, which the lane remembers), the authority, the path.
    for (const unusual of ['https://WWW.example.com/', 'https://www.example.COM/', 'http://1.2.3/abc', 'https://0x7f.1/abc', 'https://e%41.com/', 'https://EXAMPLE.com/', 'https://example.com:443/', 'http://example.com:80/', 'http://e.com:080/', 'https://e.com:0443/', 'http://01.2.3.4/', 'http://1.2.3.04:8080/', 'https://example.com?q=1', 'https://example.com/a/./b', 'https://example.com/a/%2e%2e/b', 'https://example.com/%7e', 'https://example.com/%7E', 'https://example.com/%c3%a9', 'https://example.com/&#46;&#46;/b', 'https://example.com/#%7e']) {
      scanned('https://www.example.com/');
      const found = scanned(unusual);
      assert.equal(found?.unusual, true, unusual);
      assert.notEqual(comparableUrl(found.loc), found.loc, unusual);
    }
    const part = fc.constantFrom('a', 'Z', '0', '9', '.', '-', '--', '/', '/.', '/..', '?', '#', ':', ':80', ':443', '@', '%41', '%7e', '%7E', '%2F', '%2f', '%2E', '%C3%A9', '%c3', '~', '_', '!', '&amp;', '&#46;', '&#47;', '&#45;', '&#x41;', 'xn--', 'xn--bcher-kva', '256', '.1', '0x', ':8080', ':0', ':08', '127.0.0.1', '1.2.3.4', '255', '01');
    const tail = fc.array(part, { maxLength: 12 }).map((parts) => parts.join(''));
    let read = 0;
    fc.assert(
      fc.property(fc.constantFrom('http://', 'https://', 'https://example.com', 'https://example.com/', 'https://a.b', 'http://127.0.0.1', 'https://1.2.3.4:8443/'), tail, (start, rest) => {
        const found = scanned(start + rest);
        if (found === undefined) return;
        read++;
        // The lane reads no loc that a crawler cannot fetch (reader: loc/invalid).
        assert.ok(URL.canParse(found.loc), found.loc);
        if (!found.unusual) assert.equal(comparableUrl(found.loc), found.loc);
      }),
      { numRuns: 3000 },
    );
    assert.ok(read > 1000, `${read} locs read by the lane`);
  });

  it('reads a loc exactly when the RegExp would (any printable ASCII, fast-check)', () => {
    // The lane tests sixteen characters at a time: every character class, `%` anywhere, at every offset.
    const char = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
    const tail = fc.array(fc.oneof(char, fc.constantFrom('%', '%4', '%41', '%zz', '/', '?', '#', 'a')), { maxLength: 40 }).map((parts) => parts.join(''));
    const loc = fc.tuple(fc.constantFrom('https://example.com/', 'http://e.com?', 'https://a.b/c/d/e/f/g/h/'), tail, fc.nat(3)).map(([start, rest, padding]) => `${start}${'p'.repeat(padding * 5)}${rest}`.replace(/[<&]/g, 'x'));
    // Three locs a document (600 locs, as many as one a document took 600 documents for): a validation
    // costs far more than a loc, and the lane takes up again after each loc it declines.
    fc.assert(
      fc.property(fc.array(loc, { minLength: 3, maxLength: 3 }), (locs) => {
        assertSame(urlset(PLAIN, ...locs.map(url), PLAIN.replace('/a<', '/b<')));
      }),
      { numRuns: 200 },
    );
  });

  it('reads a buffer longer than its window (a document given as one string) a window at a time', () => {
    const urls: string[] = [];
    for (let i = 0; i < 30_000; i++) urls.push(`<url>\n  <loc>https://example.com/section-${i % 97}/page-${i}</loc>\n  <lastmod>2024-01-0${1 + (i % 9)}</lastmod>\n</url>`);
    urls[29_000] = urls[10] as string; // a duplicate in the last window, of a url in the first
    const text = urlset(...urls);
    assert.ok(text.length > 2 * LANE_WINDOW, `${text.length} characters`);
    const out = assertSame(text);
    assert.ok(out.lane >= 29_990, `${out.lane} read by the lane`);
    assert.deepEqual(out.report.diagnostics.map((d) => d.code), ['loc/duplicate']);
  });

  it('finds duplicates across the lane and the long way while its table grows (100,000 urls)', () => {
    // The lane's table (lane.ts, in WebAssembly memory) starts with room for 98,304 locs and
    // grows past them; urls with an image go the long way, into the same table.
    const urls: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const loc = `https://example.com/p/${i}`;
      urls.push(i % 1000 === 999 ? `<url><loc>${loc}</loc>${IMAGE}</url>` : `<url><loc>${loc}</loc></url>`);
    }
    urls.push('<url><loc>https://example.com/p/999</loc></url>'); // the lane, of one read the long way
    urls.push(`<url><loc>https://example.com/p/5</loc>${IMAGE}</url>`); // the long way, of one the lane read
    urls.push('<url><loc>https://example.com/p/99998</loc></url>'); // the lane, of one read after the growth
    const out = assertSame(urlset(...urls));
    assert.ok(out.lane >= 99_000, `${out.lane} read by the lane`);
    // url i is on line i + 3; more than 50,000 urls is over the limit, too.
    assert.deepEqual(out.report.diagnostics.map((d) => `${d.code}@${d.line}`), ['loc/duplicate@100003', 'loc/duplicate@100004', 'loc/duplicate@100005', 'limits/too-many-urls@undefined']);
    assert.deepEqual(out.report.diagnostics.slice(0, 3).map((d) => /first on line (\d+)\)/.exec(d.message)?.[1]), ['1002', '8', '100001']);
  });

  it('stops checking duplicates past maxTrackedUrls, in the middle of a run, as the events do', () => {
    const urls = manyUrls();
    urls[150] = urls[20] as string; // found: both within the first 700
    urls[1500] = urls[30] as string; // not looked for: after the cap
    const text = urlset(...urls);
    for (const maxTrackedUrls of [1, 700, 1999, 2000]) {
      const out = assertSame(text, [5000, 60000], { maxTrackedUrls });
      const codes = out.report.diagnostics.map((d) => d.code);
      assert.equal(codes.includes('duplicates/not-checked'), maxTrackedUrls < 1999, `${maxTrackedUrls}: ${codes.join(' ')}`);
    }
    assert.throws(() => new SitemapValidation('<test>', { maxTrackedUrls: 0 }), /maxTrackedUrls must be a whole number/);
  });

  it('an element longer than several chunks is read the long way, once', () => {
    const long = `https://example.com/${'x'.repeat(300_000)}`;
    const text = urlset(PLAIN, url(long), PLAIN.replace('/a<', '/b<'));
    const pieces: number[] = [];
    for (let at = 1000; at < text.length; at += 65536) pieces.push(at);
    const out = assertSame(text, pieces);
    assert.ok(out.report.diagnostics.some((d) => d.code === 'loc/too-long'));
  });
});

describe('validation fast path: same report on every file and on mutated sitemaps', () => {
  const files = xmlFixturesAndCorpus();

  it(`every XML fixture and corpus file (${files.length}), whole and split`, () => {
    let taken = 0;
    let lane = 0;
    for (const file of files) {
      const text = new TextDecoder().decode(readFileSync(file));
      const third = Math.floor(text.length / 3);
      try {
        const out = assertSame(text, [third, 2 * third, 2 * third + 7], { location: 'https://www.example.com/sitemap.xml' });
        taken += out.taken;
        lane += out.lane;
      } catch (error) {
        throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
      }
    }
    assert.ok(taken > 0, 'the fast path was taken somewhere');
    assert.ok(lane > 0, 'the bulk lane read some');
  });

  const snippets = ['2024-02-30', '2023-02-29T00:00:00Z', '2024-02-29', '1.', '.5', '0.55', '+14:00', '+14:01', 'Z', '0000', '%', '%4', '%41', '[', ']', '#', '##', '&amp;', '&#38;', '&#x26;', '&apos;', '&#37;', '&#x3c;', '&lt;', '&#0;', '&#xZ;', '.5', '.', '&', '<', '\r\n', '\r', ' ', '\t', '<!-- c -->', '<![CDATA[x]]>', '<?pi x?>', 'x', 'A', '</url>', '<url>', '</loc>', '<loc>', ' a="b"', '"', "'", '/>', 'é', '\u{1F600}', '<image:image><image:loc>https://example.com/i.jpg</image:loc></image:image>', '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"/>', '<other:x xmlns:other="urn:x"/>', '%7e', '%7E', '~', 'E', '/.', '--', ':443', '&#46;'];
  it('mutated sitemaps, in random chunks (fast-check)', () => {
    const base = urlset(
      PLAIN,
      url('https://example.com/b?q=1'),
      '<url>\n <loc>https://example.com/d</loc>\n <priority>1.0</priority>\n</url>',
      '<url><loc>https://example.com/e</loc><lastmod>2024-03-31</lastmod><changefreq>never</changefreq></url>',
      `<url><loc>https://example.com/f</loc>${IMAGE}${link('en', 'https://example.com/f')}${link('de', 'https://example.com/b?q=1')}</url>`,
      `<url><loc>https://example.com/b?q=1</loc>${link('de', 'https://example.com/b?q=1')}${IMAGE}</url>`,
      url('https://Example.com/b?q=%31'),
      PLAIN,
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(base.length), fc.constantFrom(...snippets)), { maxLength: 4 }),
        fc.array(fc.nat(base.length + 200), { maxLength: 6 }),
        fc.boolean(),
        (inserts, pieces, located) => {
          let text = base;
          for (const [at, s] of [...inserts].sort((a, b) => b[0] - a[0])) text = text.slice(0, at) + s + text.slice(at);
          assertSame(text, pieces, located ? { location: 'https://example.com/sitemap.xml' } : {});
        },
      ),
      { numRuns: 300 },
    );
  });

  const locArb = fc.oneof(
    fc.constantFrom('https://example.com/a', 'http://example.com:8080/a', 'https://user@example.com/a', 'https://example.com/a?b=c#d', 'https://example.com/a#b#c', 'https://example.com/%41%zz', 'https://example.com/é', 'https://e.com', 'https://example.com/a/../../b', 'https://example.com/a?b=1&amp;c=2', 'https://example.com/a?b=1&#38;c=&#x26;&apos;', 'https://example.com/&#37;41', 'https://example.com/&#x3C;', 'https://example.com/&lt;&quot;', 'https://ex&amp;ample.com/', 'https://example.com/&#0000000000038;', 'https://example.com/&amp;amp;'),
    fc.constantFrom('https://EXAMPLE.com/a', 'https://example.com/%7e', 'https://example.com/%7E', 'https://example.com/~', 'https://example.com/%c3%a9', 'https://example.com/%C3%A9', 'https://example.com:443/a', 'https://example.com/./a', 'https://example.com/b/%2e%2e/a', 'https://xn--bcher-kva.example/', 'https://example.com/&#46;/a'),
    fc.stringMatching(/^https?:\/\/[A-Za-z.:@%0-9-]{1,12}(\/[A-Za-z0-9._~!$'()*+,;=:@%/?#-]{0,20})?$/),
  );
  const dateArb = fc.oneof(
    fc.date({ min: new Date('1999-01-01'), max: new Date('2031-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    fc.date({ min: new Date('1999-01-01'), max: new Date('2031-12-31'), noInvalidDate: true }).map((d) => d.toISOString().replace(/\.\d{3}Z$/, '+00:00')),
    fc.constantFrom('2024-02-29', '2023-02-29', '2024-04-31', '2100-02-29', '2000-02-29', '2025-12-31T23:59:59+14:00', '2024', '2024-01', '2024-03-05T10:20:30.123Z', '2024-03-05T10:20:30.5+01:00', '2024-03-05T10:20:30.Z', '2024-03-05T10:20:30.1234567890123Z', '2024-03-05T10:20:30.1'),
  );
  const priorityArb = fc.constantFrom('0', '1', '0.', '1.', '.5', '1.00', '1.01', '0.999', '00.5', '-0', '+1');
  const entryArb = fc.record({ loc: locArb, lastmod: fc.option(dateArb), changefreq: fc.option(fc.constantFrom('daily', 'never', 'Weekly')), priority: fc.option(priorityArb) });
  it('entries with edge values, urlset and index (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { minLength: 1, maxLength: 6 }), fc.boolean(), (entries, index) => {
        const text = edgeDocument(entries, index, urlset);
        assertSame(text, [], { location: 'https://example.com/sitemap.xml' });
      }),
      { numRuns: 400 },
    );
  });
});

describe('validation fast path: hreflang alternates from the lane', () => {
  // The lane's urls with alternates are checked from their values (HreflangChecker.addLaneUrl), the
  // others' as entries (add): every hreflang rule must say the same, at the same place, in the same order.
  // The loc and the href of a page are compared as written (the duplicate rule's table, in another form: HreflangChecker.finish).
  const pages = ['https://example.com/en', 'https://example.com/de', 'https://example.com/fr?a=1&amp;b=2', 'https://example.com/x', 'https://example.com/&#x41;', 'https://Example.com/en', 'https://example.com/%41'];
  const hreflangs = ['en', 'de', 'EN', 'en-GB', 'en-gb', 'en_US', 'x-default', 'X-Default', 'zz-ZZ', 'english', 'fr', 'zh-Hant-TW'];
  const linkArb = fc.tuple(fc.constantFrom(...hreflangs), fc.constantFrom(...pages));
  const urlArb = fc.record({ loc: fc.constantFrom(...pages), links: fc.array(linkArb, { maxLength: 5 }), image: fc.boolean() });
  const countingLaneUrls = (): { count: () => number; restore: () => void } => {
    const proto = HreflangChecker.prototype;
    const original = Object.getOwnPropertyDescriptor(proto, 'addLaneUrl') as PropertyDescriptor;
    let calls = 0;
    proto.addLaneUrl = function (this: HreflangChecker, ...args: Parameters<HreflangChecker['addLaneUrl']>) {
      calls++;
      return (original.value as HreflangChecker['addLaneUrl']).apply(this, args);
    };
    return { count: () => calls, restore: () => Object.defineProperty(proto, 'addLaneUrl', original) };
  };

  it('gives the diagnostics of the entry form: codes, messages, positions, order (fast-check)', () => {
    const counter = countingLaneUrls();
    try {
      fc.assert(
        // With few urls tracked, the duplicate rule's table no longer says which locs the file has (HreflangChecker.finish).
        fc.property(fc.array(urlArb, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(1200), { maxLength: 3 }), fc.boolean(), (urls, pieces, fewTracked) => {
          const text = urlset(...urls.map(({ loc, links, image }) => `<url>\n  <loc>${loc}</loc>\n${image ? `  ${IMAGE}\n` : ''}${links.map(([h, href]) => `  ${link(h, href)}\n`).join('')}</url>`));
          assertSame(text, pieces, fewTracked ? { maxTrackedUrls: 2 } : {});
        }),
        { numRuns: 300 },
      );
      assert.ok(counter.count() > 300, `the lane's form was taken (${counter.count()} urls)`);
    } finally {
      counter.restore();
    }
  });
});
