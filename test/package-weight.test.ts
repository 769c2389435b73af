// What `import 'sitemapkit'` loads. The heavy or rarely needed modules are loaded by the function that
// uses them (dynamic import), so that a program validating or writing sitemaps does not carry them:
// the heap they keep made a cold 50,000-URL validation pay a full garbage collection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Every module specifier reached from `entry` through static imports and re-exports (type-only ones left out). */
function staticImports(entry: string): { local: Set<string>; external: Set<string> } {
  const local = new Set<string>();
  const external = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (local.has(file)) continue;
    local.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^;'"]*?\sfrom\s+)?'([^']+)'/gms)) {
      const [, typeOnly, specifier] = match as unknown as [string, string | undefined, string];
      if (typeOnly !== undefined) continue;
      if (specifier.startsWith('.')) stack.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else external.add(specifier);
    }
  }
  return { local, external };
}

test('the package entry does not load the HTML scanner, glob matching, HTTP, DNS or child processes', () => {
  const { local, external } = staticImports(resolve(SRC, 'index.ts'));
  assert.ok(local.size > 40, `only ${local.size} modules found: the import scan is broken`);
  assert.ok(external.has('node:zlib'), 'the scan sees external imports');
  for (const lazy of ['htmlparser2', 'picomatch', 'bullmq', 'ioredis', 'node:http', 'node:https', 'node:dns', 'node:child_process']) {
    assert.ok(!external.has(lazy), `${lazy} is imported statically by the package entry`);
  }
  assert.ok(!local.has(resolve(SRC, 'core/build/html-page.ts')), 'core/build/html-page.ts is imported statically');
});

test('sitemapkit/html-page is its own entry, and the scanner still works through it', async () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, { import: string }> };
  assert.equal(pkg.exports['./html-page']?.import, './dist/lib/html-page.js');
  const { scanHtmlPage } = await import('../src/core/build/html-page.js');
  const facts = scanHtmlPage('<html><head><meta name="robots" content="noindex"></head></html>', 'https://example.com/a.html');
  assert.equal(facts.noindex, true);
});
