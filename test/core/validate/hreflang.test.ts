import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Diagnostic } from '../../../src/core/diagnostics.js';
import { SitemapError } from '../../../src/core/errors.js';
import type { AlternateLink, UrlEntry } from '../../../src/core/model.js';
import { HREFLANG_RULES, HreflangChecker, type HreflangCheckerOptions } from '../../../src/core/validate/hreflang.js';

const EN = 'https://example.com/en/';
const DE = 'https://example.com/de/';
const FR = 'https://example.com/fr/';
const HOME = 'https://example.com/';

/** A `<url>` with alternates written as [hreflang, href] pairs. */
function url(loc: string, ...links: [hreflang: string, href: string][]): UrlEntry {
  const alternates: AlternateLink[] = links.map(([hreflang, href]) => ({ hreflang, href }));
  return alternates.length > 0 ? { loc, alternates } : { loc };
}

interface Run {
  /** What `add` returned for each entry, in order. */
  perEntry: (readonly Diagnostic[])[];
  /** What `finish` returned. */
  finish: Diagnostic[];
}

/** Entry i is at line 2 + 3·i, column 3, as in a pretty-printed urlset. */
function check(entries: readonly UrlEntry[], options?: HreflangCheckerOptions): Run {
  const checker = new HreflangChecker(options);
  const perEntry = entries.map((entry, i) => checker.add(entry, { line: lineOf(i), column: 3 }));
  return { perEntry, finish: checker.finish() };
}

function lineOf(index: number): number {
  return 2 + 3 * index;
}

/** code@line:column of each diagnostic. */
function where(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`);
}

function all(run: Run): string[] {
  return [...run.perEntry.flatMap(where), ...where(run.finish)];
}

function assertWellFormed(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) {
    const rule = HREFLANG_RULES[d.code as keyof typeof HREFLANG_RULES];
    assert.ok(rule !== undefined, `${d.code} is not in HREFLANG_RULES`);
    assert.equal(d.severity, rule.severity, d.code);
    assert.ok(d.message.length > 0 && d.hint !== undefined && d.hint.length > 0, d.code);
  }
}

const GROUP: UrlEntry[] = [
  url(HOME, ['x-default', HOME], ['en', EN], ['de', DE], ['fr', FR]),
  url(EN, ['x-default', HOME], ['en', EN], ['de', DE], ['fr', FR]),
  url(DE, ['x-default', HOME], ['en', EN], ['de', DE], ['fr', FR]),
  url(FR, ['x-default', HOME], ['en', EN], ['de', DE], ['fr', FR]),
];

describe('HreflangChecker: groups', () => {
  // [name, entries, expected code@line:column of add's results then finish's]
  const cases: [name: string, entries: UrlEntry[], expected: string[]][] = [
    ['a correct 3-language group with x-default', GROUP, []],
    ['the group in another order, with EN-us casing', [...GROUP].reverse().map((e) => ({ ...e, alternates: e.alternates?.map((a) => ({ ...a, hreflang: a.hreflang.toUpperCase() })) })), []],
    ['urls without alternates', [url(EN), url(DE)], []],
    ['alternates outside this sitemap cannot be checked', [url(EN, ['en', EN], ['de', 'https://example.de/'])], []],
    ['missing self', [url(EN, ['de', DE]), url(DE, ['de', DE], ['en', EN])], ['hreflang/missing-self@2:3']],
    ['missing return link, reported at the later B', [url(EN, ['en', EN], ['de', DE]), url(DE, ['de', DE])], ['hreflang/missing-return-link@5:3']],
    ['missing return link, reported at the earlier B', [url(DE, ['de', DE]), url(EN, ['en', EN], ['de', DE])], ['hreflang/missing-return-link@2:3']],
    ['B without any alternates', [url(EN, ['en', EN], ['de', DE]), url(DE)], ['hreflang/missing-return-link@5:3']],
    [
      'B that lists neither A nor C',
      [url(EN, ['en', EN], ['de', DE], ['fr', FR]), url(FR, ['fr', FR], ['en', EN], ['de', DE]), url(DE, ['de', DE])],
      ['hreflang/missing-return-link@8:3', 'hreflang/missing-return-link@8:3'],
    ],
    [
      'finish reports in document order',
      [url(EN, ['en', EN], ['de', DE], ['fr', FR]), url(FR), url(DE)],
      ['hreflang/missing-return-link@5:3', 'hreflang/missing-return-link@8:3'],
    ],
    ['a loc given twice is one page: the links of both count', [url(EN, ['en', EN], ['de', DE]), url(DE, ['de', DE]), url(DE, ['de', DE], ['en', EN])], []],
    ['the same page under two values is one link', [url(EN, ['en', EN], ['en-GB', EN], ['de', DE]), url(DE, ['de', DE])], ['hreflang/missing-return-link@5:3']],
    ['duplicate x-default', [url(EN, ['en', EN], ['x-default', EN], ['x-default', HOME])], ['hreflang/duplicate-x-default@2:3']],
    ['duplicate x-default, same href', [url(EN, ['en', EN], ['x-default', EN], ['X-Default', EN])], ['hreflang/duplicate-x-default@2:3']],
    ['duplicate language', [url(EN, ['en', EN], ['de', DE], ['de', FR])], ['hreflang/duplicate-language@2:3']],
    ['duplicate language, other casing', [url(EN, ['en', EN], ['de', DE], ['DE', FR])], ['hreflang/duplicate-language@2:3']],
    ['duplicate language, reported once', [url(EN, ['en', EN], ['de', DE], ['de', FR], ['de', HOME])], ['hreflang/duplicate-language@2:3']],
    ['the same language and href twice is harmless', [url(EN, ['en', EN], ['en', EN])], []],
    ['a mistake and its fix are one language', [url(EN, ['en', EN], ['en_US', DE], ['en-US', FR])], ['hreflang/invalid-language@2:3', 'hreflang/duplicate-language@2:3']],
    ['invalid languages, one per link', [url(EN, ['en', EN], ['xx', DE], ['US', FR])], ['hreflang/invalid-language@2:3', 'hreflang/invalid-language@2:3']],
    // RFC 3986 §3.1, §3.2.2, §6.2: scheme and host in any case, one page; the path keeps its case.
    [
      'a host or scheme in another case is the same page',
      [url('https://Example.COM/en/', ['en', EN], ['de', DE], ['de', 'HTTPS://EXAMPLE.COM/de/']), url(DE, ['de', 'https://EXAMPLE.com/de/'], ['en', 'https://example.Com/en/'])],
      [],
    ],
    ['a path in another case is another page', [url(EN, ['en', 'https://example.com/EN/'], ['de', DE]), url(DE, ['de', DE], ['en', EN])], ['hreflang/missing-self@2:3']],
  ];
  for (const [name, entries, expected] of cases) {
    it(name, () => {
      const run = check(entries);
      assert.deepEqual(all(run), expected);
      assertWellFormed([...run.perEntry.flat(), ...run.finish]);
    });
  }

  it('a missing return link names A and B, and the hint gives the link with A’s own language', () => {
    const { finish } = check([url(EN, ['en_GB', EN], ['de', DE]), url(DE, ['de', DE])]);
    const [d] = finish;
    assert.ok(d !== undefined);
    assert.ok(d.message.includes(EN) && d.message.includes(DE));
    assert.ok(d.hint?.includes(`hreflang="en-GB" href="${EN}"`));
  });

  it('the hint of missing-self names the loc', () => {
    const [[d]] = check([url(EN, ['de', DE])]).perEntry as [Diagnostic[]];
    assert.ok(d?.hint?.includes(`href="${EN}"`));
  });

  it('an invalid language has its fix as the hint', () => {
    const [diagnostics] = check([url(EN, ['en_US', EN], ['en-UK', DE], ['xx', FR])]).perEntry as [Diagnostic[]];
    assert.deepEqual(where(diagnostics), ['hreflang/invalid-language@2:3', 'hreflang/invalid-language@2:3', 'hreflang/invalid-language@2:3']);
    assert.ok(diagnostics[0]?.hint?.includes('"en-US"'));
    assert.ok(diagnostics[1]?.hint?.includes('"en-GB"'));
    assert.ok(!diagnostics[2]?.hint?.includes('"xx"'));
  });

  it('escapes the href in the hint as an XML attribute', () => {
    const loc = 'https://example.com/?a=1&b=2';
    const [[d]] = check([url(loc, ['de', DE])]).perEntry as [Diagnostic[]];
    assert.ok(d?.hint?.includes('href="https://example.com/?a=1&amp;b=2"'));
  });
});

describe('HreflangChecker: the cap', () => {
  it('past maxUrls, one not-checked at the first url not remembered; per-entry rules go on', () => {
    const run = check([url(EN, ['en', EN], ['de', DE]), url(FR, ['fr', FR]), url(DE, ['en', EN]), url(HOME, ['x-default', EN])], { maxUrls: 2 });
    assert.deepEqual(all(run), ['hreflang/missing-self@8:3', 'hreflang/missing-self@11:3', 'hreflang/not-checked@8:3']);
    assertWellFormed(run.finish);
  });

  it('exactly maxUrls urls are checked', () => {
    const run = check([url(EN, ['en', EN], ['de', DE]), url(DE, ['de', DE])], { maxUrls: 2 });
    assert.deepEqual(where(run.finish), ['hreflang/missing-return-link@5:3']);
  });

  it('refuses a maxUrls that is not a whole number of at least 1', () => {
    for (const maxUrls of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => new HreflangChecker({ maxUrls }), (error: unknown) => error instanceof SitemapError && error.code === 'ERR_SITEMAP_OPTION');
    }
  });
});

describe('HreflangChecker: memory', () => {
  it('finish empties the checker for the next sitemap', () => {
    const checker = new HreflangChecker();
    checker.add(url(EN, ['en', EN], ['de', DE]), { line: 1, column: 1 });
    checker.add(url(DE, ['de', DE]), { line: 2, column: 1 });
    assert.equal(checker.finish().length, 1);
    checker.add(url(DE, ['de', DE]), { line: 1, column: 1 });
    assert.deepEqual(checker.finish(), []);
  });

  it('50,000 pairs: every broken return link is found, and only those', () => {
    const checker = new HreflangChecker();
    const pairs = 50_000;
    let line = 1;
    for (let i = 0; i < pairs; i++) {
      const en = `https://example.com/en/page-${i}`;
      const de = `https://example.com/de/seite-${i}`;
      checker.add(url(en, ['en', en], ['de', de]), { line: line++, column: 1 });
      // Every 1,000th German page forgets its English version.
      checker.add(i % 1000 === 0 ? url(de, ['de', de]) : url(de, ['de', de], ['en', en]), { line: line++, column: 1 });
    }
    const found = checker.finish();
    assert.deepEqual(
      found.map((d) => d.line),
      Array.from({ length: pairs / 1000 }, (_, k) => 2 * k * 1000 + 2),
    );
  });

  it('locs longer than a text page and outside ASCII come back intact in messages', () => {
    const long = `https://example.com/${'a'.repeat(1_500_000)}`;
    const unicode = 'https://example.com/中文/ページ?q=é';
    const { finish } = check([url(long, ['en', long], ['zh', unicode]), url(unicode, ['zh', unicode])]);
    assert.deepEqual(where(finish), ['hreflang/missing-return-link@5:3']);
    assert.ok(finish[0]?.message.includes(unicode));
  });
});

describe('HreflangChecker: agrees with a plain Map-based reference', () => {
  const pool = [EN, DE, FR, HOME, 'https://elsewhere.example/'];
  const entry = fc.record({
    loc: fc.constantFrom(...pool.slice(0, 4)),
    hrefs: fc.array(fc.constantFrom(...pool), { maxLength: 5 }),
  });

  /** Return links the simple way: every loc's links are the union over its records. */
  function reference(entries: readonly { loc: string; hrefs: string[] }[]): string[] {
    const firstLine = new Map<string, number>();
    const links = new Map<string, Set<string>>();
    entries.forEach((e, i) => {
      if (!firstLine.has(e.loc)) firstLine.set(e.loc, lineOf(i));
      const set = links.get(e.loc) ?? new Set<string>();
      for (const href of e.hrefs) set.add(href);
      links.set(e.loc, set);
    });
    const lines: number[] = [];
    for (const [a, hrefs] of links) {
      for (const b of hrefs) {
        if (b === a || !links.has(b)) continue;
        if (!(links.get(b) as Set<string>).has(a)) lines.push(firstLine.get(b) as number);
      }
    }
    return lines.sort((x, y) => x - y).map((line) => `hreflang/missing-return-link@${line}:3`);
  }

  it('on random small sitemaps', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
        const urls = entries.map((e) => url(e.loc, ...e.hrefs.map((href): [string, string] => ['en', href])));
        assert.deepEqual(where(check(urls).finish), reference(entries));
      }),
      { numRuns: 500 },
    );
  });
});
