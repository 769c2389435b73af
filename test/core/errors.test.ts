// Thrown errors carry a code of one closed set, documented in docs/rules.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidValueError, SITEMAP_ERROR_CODES, SitemapError, show } from '../../src/core/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The TypeScript sources under src/: file → text (errors.ts without the list of the set itself). */
function sources(): Map<string, string> {
  const texts = new Map<string, string>();
  for (const file of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (!/\.c?ts$/.test(file)) continue;
    const text = readFileSync(join(ROOT, 'src', file), 'utf8');
    texts.set(file, file.endsWith('core/errors.ts') ? text.replace(/SITEMAP_ERROR_CODES = \[[^]*?\] as const/, '') : text);
  }
  return texts;
}

/** Every `ERR_SITEMAP_…` written in src/: file → codes. */
function codesInSources(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const [file, text] of sources()) {
    for (const [code] of text.matchAll(/ERR_SITEMAP_[A-Z_]+/g)) {
      if (!found.has(code)) found.set(code, new Set());
      found.get(code)?.add(file);
    }
  }
  return found;
}

test('every ERR_SITEMAP_ code in the sources is one of the closed set, and every code of the set is used', () => {
  const used = codesInSources();
  const known = new Set<string>(SITEMAP_ERROR_CODES);
  const unknown = [...used].filter(([code]) => !known.has(code)).map(([code, files]) => `${code} (${[...files].join(', ')})`);
  assert.deepEqual(unknown, []);
  assert.deepEqual(SITEMAP_ERROR_CODES.filter((code) => !used.has(code)), []);
  assert.equal(new Set(SITEMAP_ERROR_CODES).size, SITEMAP_ERROR_CODES.length);
});

test('docs/rules.md documents exactly the closed set, in its order', () => {
  const rules = readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8');
  const section = rules.slice(rules.indexOf('## Thrown errors'), rules.indexOf('\n## ', rules.indexOf('## Thrown errors') + 1));
  const documented = [...section.matchAll(/^\| `(ERR_SITEMAP_[A-Z_]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual(documented, [...SITEMAP_ERROR_CODES]);
});

test('a SitemapError is thrown with a code of the set only; a rule id goes in `rule`', () => {
  const known = new Set<string>(SITEMAP_ERROR_CODES);
  const wrong: string[] = [];
  for (const [file, text] of sources()) {
    // The first argument of every SitemapError (and of its subclasses' super calls) written as a literal;
    // a super call counts inside a class that extends an error only.
    const errorClasses = text.split(/^(?=(?:export )?class )/m).filter((part) => /^(?:export )?class \w+ extends \w*Error\b/.test(part));
    const calls = [...text.matchAll(/new SitemapError\(\s*['`]([^'`]*)['`]/g), ...errorClasses.flatMap((part) => [...part.matchAll(/super\(\s*['`]([^'`]*)['`]/g)])];
    for (const [, code] of calls) {
      if (!known.has(code as string)) wrong.push(`${code} (${file})`);
    }
  }
  assert.deepEqual(wrong, []);
  const refused = new InvalidValueError('loc/not-absolute', 'loc', '/a', 'not absolute');
  assert.equal(refused.code, 'ERR_SITEMAP_INVALID_VALUE');
  assert.equal(refused.rule, 'loc/not-absolute');
  assert.ok(!('rule' in new SitemapError('ERR_SITEMAP_OPTION', 'no rule')));
});

test('a refused value that JSON cannot write (a BigInt, a cycle, Infinity) is still refused with its rule, not a TypeError from the message', async () => {
  const { normalizeUrl } = await import('../../src/core/url.js');
  const { UrlEntrySerializer, ALL_EXTENSIONS } = await import('../../src/core/write/url-entry.js');
  const { LIMITS_PROFILES } = await import('../../src/core/model.js');
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const serializer = new UrlEntrySerializer({ limits: LIMITS_PROFILES.current });
  const cases: [() => unknown, string, string][] = [
    [() => normalizeUrl(10n as never), 'loc/invalid', '"10n"'],
    [() => normalizeUrl(cyclic as never), 'loc/invalid', '[object Object]'],
    [() => serializer.serialize({ loc: 'https://example.com/', priority: 1n as never }, ALL_EXTENSIONS), 'priority/invalid', '"1n"'],
    // JSON writes them as null; a JSON Lines priority of 1e400 is Infinity.
    [() => serializer.serialize({ loc: 'https://example.com/', priority: Infinity }, ALL_EXTENSIONS), 'priority/out-of-range', 'priority "Infinity"'],
    [() => serializer.serialize({ loc: 'https://example.com/', priority: NaN }, ALL_EXTENSIONS), 'priority/out-of-range', 'priority "NaN"'],
  ];
  for (const [refuse, rule, shown] of cases) {
    assert.throws(refuse, (error: unknown) => error instanceof InvalidValueError && error.rule === rule && error.message.includes(shown), rule);
  }
});

test('a value shown in a message is cut between characters, never inside a surrogate pair', () => {
  const emoji = '\u{1F600}'.repeat(101);
  assert.equal(show(emoji, 80), JSON.stringify(`${'\u{1F600}'.repeat(38)}...`));
  assert.equal(show('a'.repeat(100), 80), JSON.stringify(`${'a'.repeat(77)}...`));
  assert.equal(show('short', 80), '"short"');
});
