// The package's entries as built (scripts/bundle-library.js): dist/lib/index.js, core.js and
// html-page.js, bundled with shared chunks. They must export what the sources export, share one copy
// of every module, and reach the worker threads' entries, which stay tsc's modules. Needs dist/
// (`npm test` builds first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as core from '../../src/core/index.js';
import * as entry from '../../src/index.js';
import * as htmlPage from '../../src/core/build/html-page.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIB = join(ROOT, 'dist', 'lib');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string; exports: Record<string, Record<string, string>> };

const built = (name: string): Promise<Record<string, unknown>> => {
  if (!existsSync(join(LIB, name))) throw new Error(`dist/lib/${name} is missing: run \`npm run build\` first (npm test does)`);
  return import(pathToFileURL(join(LIB, name)).href) as Promise<Record<string, unknown>>;
};

test('package.json sends every runtime condition of each entry to its bundle', () => {
  const bundles: Record<string, string> = { '.': './dist/lib/index.js', './core': './dist/lib/core.js', './html-page': './dist/lib/html-page.js' };
  for (const [subpath, file] of Object.entries(bundles)) {
    const conditions = PKG.exports[subpath] as Record<string, string>;
    for (const condition of ['import', 'module-sync', 'default']) assert.equal(conditions[condition], file, `${subpath} ${condition}`);
  }
  assert.equal(PKG.main, './dist/lib/index.js');
});

test('each bundled entry exports the names its source exports', async () => {
  for (const [name, source] of [['index.js', entry], ['core.js', core], ['html-page.js', htmlPage]] as const) {
    assert.deepEqual(Object.keys(await built(name)).sort(), Object.keys(source).sort(), name);
  }
});

test('the entries share one copy of each module: one SitemapError class, one CHANGEFREQS array', async () => {
  const [index, coreEntry] = await Promise.all([built('index.js'), built('core.js')]);
  assert.equal(index.SitemapError, coreEntry.SitemapError);
  assert.equal(index.CHANGEFREQS, coreEntry.CHANGEFREQS);
  // A SitemapError thrown by a function of one entry is an instance of the other entry's class.
  const validate = index.validateSitemap as (input: unknown) => Promise<unknown>;
  await assert.rejects(validate(join(tmpdir(), 'sitemapkit-no-such-file.xml')), (error) => error instanceof (coreEntry.SitemapError as new () => Error));
});

test('every module URL a bundle names (a worker thread\'s entry) is a file of dist/', () => {
  const named = readdirSync(LIB)
    .filter((name) => name.endsWith('.js'))
    .flatMap((name) => [...readFileSync(join(LIB, name), 'utf8').matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map((m) => join(LIB, m[1] as string)));
  assert.ok(named.some((path) => path.endsWith(join('node', 'build', 'scan-worker.js'))), named.join(', '));
  assert.ok(named.some((path) => path.endsWith(join('node', 'discover-worker.js'))), named.join(', '));
  for (const path of named) assert.ok(existsSync(path), path);
});

test('buildSite from the bundle scans pages in worker threads', async () => {
  const { buildSite } = (await built('index.js')) as { buildSite: (options: Record<string, unknown>) => Promise<{ pages: number; listed: number }> };
  const site = mkdtempSync(join(tmpdir(), 'sitemapkit-bundle-'));
  try {
    cpSync(join(ROOT, 'test', 'fixtures', 'build', 'hugo-site'), site, { recursive: true });
    const result = await buildSite({ siteDir: site, baseUrl: 'https://www.example.com/', initialLastmod: 'none', threads: 2, force: true, now: new Date(1_790_000_000_000) });
    assert.ok(result.pages > 0 && result.listed > 0, JSON.stringify(result));
  } finally {
    rmSync(site, { recursive: true, force: true });
  }
});

test('the bundled package entry loads none of the lazily imported modules (test/package-weight.test.ts, as built)', () => {
  const files = new Set<string>();
  const external = new Set<string>();
  const stack = ['index.js'];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    // esbuild writes each static import as `} from "x";`, `import … from "x";` or `import "x";`; import() is left out.
    for (const [, specifier] of readFileSync(join(LIB, file), 'utf8').matchAll(/^(?:import\s[^;(]*?from\s*|\}\s*from\s*|import\s*)"([^"]+)";/gm)) {
      if ((specifier as string).startsWith('./')) stack.push((specifier as string).slice(2));
      else external.add(specifier as string);
    }
  }
  assert.ok(files.size > 2 && external.has('node:zlib'), `the import scan is broken: ${[...files].join(', ')}; ${[...external].join(', ')}`);
  for (const lazy of ['htmlparser2', 'picomatch', 'bullmq', 'ioredis', 'node:http', 'node:https', 'node:dns', 'node:child_process']) {
    assert.ok(!external.has(lazy), `${lazy} is imported statically by dist/lib/index.js or a chunk it imports`);
  }
});
