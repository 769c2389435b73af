// Thrown errors carry a code of one closed set, documented in docs/rules.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SITEMAP_ERROR_CODES } from '../../src/core/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every `ERR_SITEMAP_…` written in src/, outside errors.ts: file → codes. */
function codesInSources(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const file of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (!/\.c?ts$/.test(file) || file.endsWith('errors.ts')) continue;
    for (const [code] of readFileSync(join(ROOT, 'src', file), 'utf8').matchAll(/ERR_SITEMAP_[A-Z_]+/g)) {
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
