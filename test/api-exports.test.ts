// The package entry exports what the README tells people to import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as core from '../src/core/index.js';
import * as entry from '../src/index.js';
import * as htmlPage from '../src/core/build/html-page.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('every library function the README names in `name(…)` form is exported by sitemapkit, sitemapkit/core or sitemapkit/html-page', () => {
  // Methods of returned objects, not exports: reading.summary(), run.batches(), writer.add()/end(), and
  // the platform's fetch() and assert().
  const methods = new Set(['summary', 'batches', 'tree', 'add', 'end', 'fetch', 'assert']);
  const named = new Set([...README.matchAll(/`([a-zA-Z]+)\(/g)].map((m) => m[1] as string).filter((name) => !methods.has(name)));
  assert.ok(named.has('discoverSitemaps') && named.has('validateSitemapUrl') && named.has('parseSitemap'), [...named].join(', '));
  const exported = { ...core, ...entry, ...htmlPage } as Record<string, unknown>;
  const missing = [...named].filter((name) => typeof exported[name] !== 'function');
  assert.deepEqual(missing, []);
});

test('the `import { … } from \'sitemapkit\'` and \'sitemapkit/core\' lines of the README name real exports', () => {
  for (const [, names, from] of README.matchAll(/import \{([^}]+)\} from '(sitemapkit(?:\/core)?)'/g)) {
    const module = (from === 'sitemapkit/core' ? core : entry) as Record<string, unknown>;
    for (const name of (names as string).split(',').map((n) => n.trim()).filter((n) => n !== '' && !n.startsWith('type '))) {
      assert.notEqual(module[name], undefined, `${name} from ${from}`);
    }
  }
});
