// The reader's lane (src/core/read/lane.ts) must change nothing but speed: every
// input read with it and without it (the tokenizer's events only) gives the same entries, positions,
// diagnostics and format, however the input is split. These tests also check that the lane is
// really taken where it should be, so that the comparison compares two different paths.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { xmlFixturesAndCorpus } from '../../helpers/files.js';
import { splitAt } from '../../helpers/split.js';
import type { Diagnostic } from '../../../src/core/diagnostics.js';
import type { SitemapRef, UrlEntry } from '../../../src/core/model.js';
import type { EntryPosition, ReaderBudgets, SitemapFormat } from '../../../src/core/read/types.js';
import { XmlSitemapReader } from '../../../src/core/read/xml-reader.js';
import { XmlTokenizer, type XmlLane, type XmlTokenHandler } from '../../../src/core/xml/tokenizer.js';
import { edgeDocument } from '../../helpers/edge-entries.js';


interface Outcome {
  format: SitemapFormat | undefined;
  urls: UrlEntry[];
  sitemaps: SitemapRef[];
  positions: EntryPosition[];
  diagnostics: Diagnostic[];
  /** Entries the lane took (always 0 without it). */
  taken: number;
}

/** The two ways a reader reads entries: the tokenizer's events only, and the lane (lane.ts) for runs of entries. */
type Way = 'events' | 'lane';

/** Read `chunks` one way, counting what the lane takes. */
function readWith(way: Way, chunks: readonly string[], budgets: ReaderBudgets = {}): Outcome {
  const out: Outcome = { format: undefined, urls: [], sitemaps: [], positions: [], diagnostics: [], taken: 0 };
  const reader = new XmlSitemapReader(
    {
      format: (f) => {
        out.format = f;
      },
      url: (e, at) => {
        out.urls.push(e);
        out.positions.push(at);
      },
      sitemap: (s, at) => {
        out.sitemaps.push(s);
        out.positions.push(at);
      },
      diagnostic: (d) => out.diagnostics.push(d),
    },
    budgets,
  );
  // The same reader behind a proxy that hides the lane, or wraps it to count what it takes.
  const wrapped = new WeakMap<XmlLane, XmlLane>();
  const handler = new Proxy(reader, {
    get(target, key) {
      if (key === 'lane') {
        const sc = target.lane;
        if (way === 'events' || sc === null) return null;
        let w = wrapped.get(sc);
        if (w === undefined) {
          w = {
            ...sc,
            readRun: (buf, at, lines, maxLength) => {
              const before = out.urls.length + out.sitemaps.length;
              const end = sc.readRun(buf, at, lines, maxLength);
              out.taken += out.urls.length + out.sitemaps.length - before;
              return end;
            },
          };
          wrapped.set(sc, w);
        }
        return w;
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as XmlTokenHandler;
  const tokenizer = new XmlTokenizer(handler, { maxDepth: budgets.maxDepth, maxValueLength: budgets.maxValueLength ?? 1024 * 1024 });
  for (const chunk of chunks) tokenizer.write(chunk);
  tokenizer.end();
  reader.end();
  return out;
}

/** The two ways agree on `text` read whole, and in the given pieces too; returns the lane way's outcome (whole). */
function assertSame(text: string, budgets: ReaderBudgets = {}, pieces: number[] = []): Outcome {
  const { taken: _e, ...long } = readWith('events', [text], budgets);
  const { taken, ...lane } = readWith('lane', [text], budgets);
  assert.deepStrictEqual(lane, long, 'whole, lane');
  if (pieces.length > 0) {
    const { taken: _u, ...split } = readWith('lane', splitAt(text, pieces), budgets);
    assert.deepStrictEqual(split, long, 'split, lane');
  }
  return { ...lane, taken };
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n';
const urlset = (...urls: string[]): string => `${HEAD}${urls.join('\n')}\n</urlset>\n`;
const PLAIN = '<url><loc>https://example.com/a</loc><lastmod>2024-01-02T03:04:05+00:00</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>';

describe('reader lane: taken for plain entries, same result', () => {
  it('reads plain urls, images and hreflang links by the lane', () => {
    const r = assertSame(urlset(
      PLAIN,
      '<url>\n  <loc> https://example.com/b </loc>\n  <lastmod>2024-01-02</lastmod>\n</url>',
      '<url><loc>https://example.com/c</loc><image:image><image:loc>https://example.com/c.jpg</image:loc></image:image>' +
        '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/c"/><xhtml:link href="https://example.com/de/c" hreflang="de" rel="alternate" />' +
        '<xhtml:link rel="amphtml" href="https://example.com/amp/c"/></url>',
    ));
    // The lane reads the first two (blanks around a value: the reader trims them) and leaves the third
    // (its alternates' attributes in another order) to the events.
    assert.equal(r.taken, 2);
    assert.equal(r.urls.length, 3);
    assert.deepStrictEqual(r.urls[0], { loc: 'https://example.com/a', lastmod: '2024-01-02T03:04:05+00:00', changefreq: 'daily', priority: 0.5 });
    assert.deepStrictEqual(r.urls[1], { loc: 'https://example.com/b', lastmod: '2024-01-02' });
    assert.deepStrictEqual(r.urls[2], {
      loc: 'https://example.com/c',
      images: [{ loc: 'https://example.com/c.jpg' }],
      alternates: [{ hreflang: 'en', href: 'https://example.com/c' }, { hreflang: 'de', href: 'https://example.com/de/c' }],
    });
    assert.deepStrictEqual(r.diagnostics, []);
  });

  it('reads runs of the plainest urls by the lane: every changefreq, priorities of any length', () => {
    const changefreqs = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'];
    const priorities = ['0', '1', '0.', '1.', '1.000', '.5', '0.5', ...Array.from({ length: 18 }, (_, n) => `0.${'123456789'.repeat(2).slice(0, n + 1)}`), '.999999999999999999'];
    const urls = [
      ...changefreqs.map((c, i) => `<url><loc>https://example.com/c${i}</loc><lastmod>2024-02-29</lastmod><changefreq>${c}</changefreq></url>`),
      ...priorities.map((p, i) => `<url><loc>https://example.com/p${i}</loc><priority>${p}</priority></url>`),
    ];
    const r = assertSame(urlset(...urls), {}, [200, 900, 901]);
    assert.equal(r.taken, urls.length);
    assert.deepStrictEqual(r.urls.map((u) => u.changefreq).slice(0, 7), changefreqs);
    assert.deepStrictEqual(r.urls.slice(7).map((u) => u.priority), priorities.map(Number));
  });

  it('reads plain sitemap index entries by the lane', () => {
    const text = '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap><loc>https://example.com/s1.xml</loc><lastmod>2024-01-01</lastmod></sitemap>\n<sitemap>\n<loc>https://example.com/s2.xml</loc>\n</sitemap>\n</sitemapindex>';
    const r = assertSame(text);
    assert.equal(r.taken, 2);
    assert.deepStrictEqual(r.sitemaps, [{ loc: 'https://example.com/s1.xml', lastmod: '2024-01-01' }, { loc: 'https://example.com/s2.xml' }]);
  });

  it('works with other prefixes for the extensions, and the legacy or missing namespace', () => {
    const other = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:img.x-1="http://www.google.com/schemas/sitemap-image/1.1" xmlns:h="http://www.w3.org/1999/xhtml">' +
      '<url><loc>https://example.com/a</loc><img.x-1:image><img.x-1:loc>https://example.com/a.png</img.x-1:loc></img.x-1:image><h:link rel="alternate" hreflang="fr" href="https://example.com/fr/a"/></url></urlset>';
    assert.equal(assertSame(other).taken, 1);
    assert.equal(assertSame(`<urlset xmlns="http://www.google.com/schemas/sitemap/0.84">${PLAIN}</urlset>`).taken, 1);
    assert.equal(assertSame(`<urlset>${PLAIN}</urlset>`).taken, 1);
    // Any decimal from 0 to 1 is a priority the reader takes as it is.
    const r = assertSame(urlset('<url><loc>https://example.com/a</loc><priority> 0.55 </priority></url>', '<url><loc>https://example.com/b</loc><priority>.5</priority></url>', '<url><loc>https://example.com/c</loc><priority>1.</priority></url>'));
    assert.deepStrictEqual([r.taken, r.urls.map((u) => u.priority)], [3, [0.55, 0.5, 1]]);
    // W3C Datetime allows minutes without seconds (the XSD does not: that is validate's business).
    const minutes = assertSame(urlset('<url><loc>https://example.com/?a=1&amp;b=2</loc><lastmod> 2024-01-01T10:20+01:00 </lastmod><changefreq>\n daily\n</changefreq></url>', '<url><loc>https://example.com/b</loc><lastmod>2024-02-30T10:20Z</lastmod></url>'), {}, [150, 260]);
    assert.deepStrictEqual([minutes.taken, minutes.urls[0]], [1, { loc: 'https://example.com/?a=1&b=2', lastmod: '2024-01-01T10:20+01:00', changefreq: 'daily' }]);
    assert.equal(assertSame(urlset('<url><loc>https://example.com/a</loc><lastmod>2024-01-01T10:00+01:00</lastmod></url>')).taken, 1);
  });
});

describe('reader lane: declines what the full reader must see', () => {
  const declined: Array<[string, string]> = [
    ['a raw ampersand', '<url><loc>https://example.com/?a=1&b=2</loc></url>'],
    ['a line break inside a loc', '<url><loc>https://example.com/a\r\nb</loc></url>'],
    ['a comment', '<url><!-- x --><loc>https://example.com/a</loc></url>'],
    ['CDATA', '<url><loc><![CDATA[https://example.com/a]]></loc></url>'],
    ['an attribute on url', '<url id="1"><loc>https://example.com/a</loc></url>'],
    ['another order', '<url><lastmod>2024-01-01</lastmod><loc>https://example.com/a</loc></url>'],
    ['a relative loc', '<url><loc>/a</loc></url>'],
    ['an empty loc', '<url><loc> </loc></url>'],
    ['an ftp loc', '<url><loc>ftp://example.com/a</loc></url>'],
    ['an invalid lastmod', '<url><loc>https://example.com/a</loc><lastmod>not-a-date</lastmod></url>'],
    ['a lenient lastmod', '<url><loc>https://example.com/a</loc><lastmod>2024-01-01 10:00:00Z</lastmod></url>'],
    ['an upper-case changefreq', '<url><loc>https://example.com/a</loc><changefreq>Daily</changefreq></url>'],
    ['a priority of 1.5', '<url><loc>https://example.com/a</loc><priority>1.5</priority></url>'],
    ['a priority of +0.5', '<url><loc>https://example.com/a</loc><priority>+0.5</priority></url>'],
    ['stray text', '<url>https://example.com/a<loc>https://example.com/a</loc></url>'],
    ['a duplicate loc', '<url><loc>https://example.com/a</loc><loc>https://example.com/b</loc></url>'],
    ['an image without loc', '<url><loc>https://example.com/a</loc><image:image><image:loc></image:loc></image:image></url>'],
    ['an image with a title', '<url><loc>https://example.com/a</loc><image:image><image:loc>https://example.com/a.jpg</image:loc><image:title>T</image:title></image:image></url>'],
    ['a link without href', '<url><loc>https://example.com/a</loc><xhtml:link rel="alternate" hreflang="en"/></url>'],
    ['a link without hreflang', '<url><loc>https://example.com/a</loc><xhtml:link rel="alternate" href="https://example.com/a"/></url>'],
    ['a duplicate attribute', '<url><loc>https://example.com/a</loc><xhtml:link rel="alternate" rel="alternate" hreflang="en" href="https://example.com/a"/></url>'],
    ['single quotes', "<url><loc>https://example.com/a</loc><xhtml:link rel='alternate' hreflang='en' href='https://example.com/a'/></url>"],
    ['a link with an end tag', '<url><loc>https://example.com/a</loc><xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"></xhtml:link></url>'],
    ['an unknown element', '<url><loc>https://example.com/a</loc><foo>x</foo></url>'],
    ['a video', '<url><loc>https://example.com/a</loc><video:video xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"><video:title>t</video:title></video:video></url>'],
  ];
  for (const [what, entry] of declined) {
    it(`declines ${what}, with the same result as the long way`, () => {
      const r = assertSame(urlset(PLAIN, entry, PLAIN));
      assert.equal(r.taken, 2, 'only the two plain entries around it');
    });
  }

  it('leaves an unclosed url and what it swallows to the long way', () => {
    // The next <url> opens inside the unclosed one, deeper than the lane applies.
    assert.equal(assertSame(urlset(PLAIN, '<url><loc>https://example.com/a</loc>', PLAIN, PLAIN)).taken, 1);
  });

  it('declines past the entry budget, the value budget and the depth budget', () => {
    const text = urlset(PLAIN, PLAIN, PLAIN);
    assert.equal(assertSame(text, { maxEntries: 2 }).taken, 2);
    assert.equal(assertSame(text, { maxValueLength: 60 }).taken, 0);
    assert.equal(assertSame(text, { maxDepth: 3 }).taken, 0);
    assert.equal(assertSame(text, { maxDepth: 4 }).taken, 3);
  });

  it('declines prefixed sitemap elements and links whose prefix is not XHTML', () => {
    // Prefixed sitemap elements go the long way; unprefixed ones (no namespace: read, with a warning) may not.
    const prefixed = `<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>https://example.com/a</s:loc></s:url><url><loc>https://example.com/b</loc></url></s:urlset>`;
    assert.equal(assertSame(prefixed).taken, 1);
    const redefined = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://example.com/not-xhtml"><url><loc>https://example.com/a</loc><xhtml:link rel="alternate" hreflang="en" href="https://example.com/a"/></url></urlset>`;
    assert.equal(assertSame(redefined).taken, 0);
  });
});

describe('reader lane: same result on every file and on mutated sitemaps', () => {
  const files = xmlFixturesAndCorpus();

  it(`every XML fixture and corpus file (${files.length}), whole and split`, () => {
    let taken = 0;
    for (const file of files) {
      const text = new TextDecoder().decode(readFileSync(file));
      const third = Math.floor(text.length / 3);
      try {
        const r = assertSame(text, {}, [third, 2 * third, 2 * third + 7]);
        taken += r.taken;
      } catch (error) {
        throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
      }
    }
    assert.ok(taken > 0, 'the lane read some');
  });

  // Plain entries with snippets dropped in at random places: whatever breaks the plain shape must
  // send that entry the long way, and both ways must still agree, in any chunking.
  const snippets = ['2024-02-30', '2023-02-29T00:00:00Z', '1.', '.5', '0.55', '+14:00', '+14:01', 'Z', '0000', '&amp;', '&', '<', '\r\n', '\r', ' ', '\t', '<!-- c -->', '<![CDATA[x]]>', '<?pi x?>', 'x', '</url>', '<url>', '</loc>', ' a="b"', '"', "'", '/>', '<image:image>', '</image:image>', 'é', '\u{1F600}', '<xhtml:link rel="alternate" hreflang="en" href="https://e.com/"/>'];
  it('mutated sitemaps, in random chunks (fast-check)', () => {
    const base = urlset(
      PLAIN,
      '<url><loc>https://example.com/c</loc><image:image><image:loc>https://example.com/c.jpg</image:loc></image:image><xhtml:link rel="alternate" hreflang="en" href="https://example.com/c"/></url>',
      '<url>\n <loc>https://example.com/d</loc>\n <priority>1.0</priority>\n</url>',
      PLAIN,
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(base.length), fc.constantFrom(...snippets)), { maxLength: 4 }),
        fc.array(fc.nat(base.length + 200), { maxLength: 6 }),
        (inserts, pieces) => {
          let text = base;
          for (const [at, s] of [...inserts].sort((a, b) => b[0] - a[0])) text = text.slice(0, at) + s + text.slice(at);
          assertSame(text, {}, pieces);
        },
      ),
      { numRuns: 400 },
    );
  });

  // Values near the edges of what the pattern checks itself (dates, priorities, URL starts).
  const digits = (n: number): fc.Arbitrary<string> => fc.array(fc.constantFrom('0', '1', '2', '3', '4', '5', '9'), { minLength: n, maxLength: n }).map((d) => d.join(''));
  const dateArb = fc.oneof(
    fc.tuple(digits(4), digits(2), digits(2)).map(([y, m, d]) => `${y}-${m}-${d}`),
    fc.tuple(digits(4), digits(2), digits(2), digits(2), digits(2), digits(2), fc.constantFrom('Z', '+', '-'), digits(2), digits(2))
      .map(([y, mo, d, h, mi, s, z, oh, om]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${z === 'Z' ? 'Z' : `${z}${oh}:${om}`}`),
    fc.constantFrom('2024-02-29', '2023-02-29', '2024-04-31', '2024-01-01T10:00:00.5Z', '2024-01-01T10:00Z', '2024', ' 2024-01-01 ', ''),
  );
  const priorityArb = fc.oneof(fc.constantFrom('0', '1', '0.', '1.', '.5', '1.00', '1.01', '0.999', '00.5', '-0', '+1', '', ' 0.5 ', '1e0'), fc.double({ min: -0.5, max: 1.5, noNaN: true }).map(String), fc.stringMatching(/^(0\.\d{1,20}|\.\d{1,20})$/));
  const locArb = fc.constantFrom('https://example.com/a', 'HTTP://example.com/a', 'http://e.com', 'https:///a', 'https://?a', 'https:// a', ' https://e.com/ ', 'https://e.com/\t', 'mailto:a@b', '', 'https://例え.jp/パス');
  const changefreqArb = fc.constantFrom('always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never', ' weekly ', 'Daily', 'sometimes', '');
  const entryArb = fc.record({ loc: locArb, lastmod: fc.option(dateArb), changefreq: fc.option(changefreqArb), priority: fc.option(priorityArb) });
  it('entries with edge values (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { minLength: 1, maxLength: 6 }), fc.boolean(), (entries, index) => {
        assertSame(edgeDocument(entries, index, urlset));
      }),
      { numRuns: 500 },
    );
  });
});
