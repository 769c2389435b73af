import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { languageTagProblem } from '../../../src/core/validate/language-tag.js';

describe('languageTagProblem: values Google understands', () => {
  const valid = [
    'en',
    'en-US',
    'EN-us', // RFC 5646 §2.1.1: case carries no meaning
    'zh-Hant-TW',
    'zh-hant-tw',
    'es-419', // UN M.49 region
    'x-default',
    'X-Default',
    'de',
    'uk', // Ukrainian, not the United Kingdom
    'fil-PH', // three-letter languages: syntax only
    'yue',
    'zh-yue-HK', // extended language subtag, RFC 5646 §2.2.2
    'sr-Latn-RS',
    'de-DE-1996', // variant, RFC 5646 §2.2.5
    'sl-rozaj-biske',
    'en-u-ca-gregory', // extension, RFC 5646 §2.2.6
    'en-US-x-twain', // private use after a language, RFC 5646 §2.2.7
  ];
  for (const tag of valid) {
    it(JSON.stringify(tag), () => assert.equal(languageTagProblem(tag), undefined));
  }
});

describe('languageTagProblem: mistakes', () => {
  // [value, fix]: undefined when no correction can be derived.
  const cases: [tag: string, fix: string | undefined][] = [
    ['en_US', 'en-US'],
    ['en_us', 'en-US'],
    ['zh_hant_tw', 'zh-Hant-TW'],
    ['en-UK', 'en-GB'],
    ['EN-uk', 'en-GB'],
    ['en_UK', 'en-GB'],
    [' en-US', 'en-US'],
    ['en-us ', 'en-US'],
    ['en US', 'en-US'],
    ['x_default', 'x-default'],
    [' x-default ', 'x-default'],
    ['iw', 'he'], // withdrawn ISO 639-1 codes: IANA Preferred-Value
    ['iw_IL', 'he-IL'],
    ['in-ID', 'id-ID'],
    ['mo', 'ro'],
    ['US', undefined], // a region alone
    ['gb', undefined],
    ['419', undefined],
    ['xx', undefined], // no such ISO 639-1 language
    ['xx-US', undefined],
    ['xx_US', undefined],
    ['sh', undefined],
    ['e', undefined],
    ['', undefined],
    ['   ', undefined],
    ['engl', undefined], // 4 letters: reserved, RFC 5646 §2.2.1
    ['english', undefined], // 5–8 letters: none registered
    ['abcdefghi', undefined], // longer than 8
    ['en-XY', undefined], // no such ISO 3166-1 country
    ['en-EU', undefined],
    ['en--US', undefined],
    ['en-', undefined],
    ['-en', undefined],
    ['en-US-Latn', undefined], // script after region
    ['en.US', undefined],
    ['fr-ç', undefined],
    ['de-1996-1996', undefined], // variant twice, RFC 5646 §2.2.9
    ['en-a-bbb-a-ccc', undefined], // extension twice
    ['en-a', undefined], // extension without subtags
    ['en-x', undefined], // private use without subtags
    ['x-klingon', undefined], // private use only: no language
    ['i-klingon', undefined], // grandfathered, deprecated
    ['12', undefined],
    ['en_XY', undefined], // one correctable and one uncorrectable problem: no fix
  ];
  for (const [tag, fix] of cases) {
    it(`${JSON.stringify(tag)} → fix ${JSON.stringify(fix)}`, () => {
      const problem = languageTagProblem(tag);
      assert.ok(problem !== undefined, 'expected a problem');
      assert.ok(problem.message.length > 0);
      assert.equal(problem.fix, fix);
    });
  }
});

describe('languageTagProblem: the embedded ISO lists', () => {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const pairs = [...letters].flatMap((a) => [...letters].map((b) => a + b));

  it('accepts exactly the 184 ISO 639-1 languages as two-letter languages', () => {
    const accepted = pairs.filter((code) => languageTagProblem(code) === undefined);
    assert.equal(accepted.length, 184);
    for (const code of ['en', 'de', 'fr', 'ja', 'zh', 'nb', 'bh', 'zu']) assert.ok(accepted.includes(code), code);
  });

  it('accepts exactly the 249 ISO 3166-1 alpha-2 countries as two-letter regions', () => {
    const accepted = pairs.filter((code) => languageTagProblem(`en-${code.toUpperCase()}`) === undefined);
    assert.equal(accepted.length, 249);
    for (const code of ['us', 'gb', 'de', 'ss', 'ax', 'bq']) assert.ok(accepted.includes(code), code);
  });
});

describe('languageTagProblem: properties', () => {
  const valid = fc.constantFrom('en', 'en-US', 'zh-Hant-TW', 'es-419', 'x-default', 'sr-Latn-RS', 'de-DE-1996', 'pt-BR');
  const withFix = fc.constantFrom('en_US', 'en-UK', ' de-AT', 'iw_IL', 'zh_hant_tw', 'x_default');

  function randomCase(text: string, flips: boolean[]): string {
    return [...text].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c.toLowerCase())).join('');
  }

  it('casing never makes a valid tag invalid', () => {
    fc.assert(
      fc.property(valid, fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), (tag, flips) => {
        assert.equal(languageTagProblem(randomCase(tag, flips)), undefined);
      }),
    );
  });

  it('a fix is itself valid, and the same whatever the casing of the mistake', () => {
    fc.assert(
      fc.property(withFix, fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), (tag, flips) => {
        const fix = languageTagProblem(tag)?.fix;
        assert.ok(fix !== undefined);
        assert.equal(languageTagProblem(fix), undefined);
        assert.equal(languageTagProblem(randomCase(tag, flips))?.fix, fix);
      }),
    );
  });

  it('never throws, and a fix is always valid', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'e', 'n', 'U', 'S', 'K', 'x', '-', '_', ' ', '4', '1', '9', 'é') }), (tag) => {
        const fix = languageTagProblem(tag)?.fix;
        if (fix !== undefined) assert.equal(languageTagProblem(fix), undefined, `fix ${fix} of ${tag}`);
      }),
      { numRuns: 2000 },
    );
  });
});
