// The CLI's own start (issue 24: at most 20 ms above `node -e 0`, measured by bench/startup.js): a
// command loads what its run needs and no more. Checked on the built CLI (dist/, `npm run build`) by
// the modules a run loads, which a loader hook lists; the time itself is the benchmark's to measure.
// The bin is bundled as CommonJS (scripts/bundle-cli.js): one file for main and one per command, with
// its loader. Which modules a command initialises is checked on tsc's unbundled tree of the same
// sources (dist/cli/main.js), where each is a file of its own; in the bundle a module reached by
// import() is initialised on that call.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { formatCount } from '../../src/cli/format.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const BIN = join(DIST, 'cli', 'bin.cjs');
const TAG = '@@loaded ';
const HOOK = `import { writeSync } from 'node:fs'; export async function load(url, context, next) { writeSync(2, ${JSON.stringify(TAG)} + url + '\\n'); return next(url, context); }`;
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`;
/** The same list for CommonJS (the bundled bin): each module require() loads, and each script a loader compiles. */
const CJS_HOOK = `const Module = require('node:module'); const vm = require('node:vm'); const { writeSync } = require('node:fs'); const { pathToFileURL } = require('node:url');
const tell = (path) => writeSync(2, ${JSON.stringify(TAG)} + pathToFileURL(path).href + '\\n');
const load = Module._load; Module._load = function (request, parent, isMain) { if (!request.startsWith('node:')) tell(Module._resolveFilename(request, parent, isMain)); return load.apply(this, arguments); };
const Script = vm.Script; vm.Script = class extends Script { constructor(code, options) { tell(options.filename); super(code, options); } };`;
/** tsc's CLI, unbundled: what bin.js did before the bundle, main.js's run on the process. */
const UNBUNDLED = `import { run } from ${JSON.stringify(pathToFileURL(join(DIST, 'cli', 'main.js')).href)}; import { processIo } from ${JSON.stringify(pathToFileURL(join(DIST, 'cli', 'io.js')).href)}; process.exitCode = await run(process.argv.slice(1), processIo());`;

/** Runs the built CLI (the bundled bin, or tsc's tree); its exit status, stdout and the dist/ modules it loaded (paths under dist/). */
function modulesLoaded(args: string[], unbundled = true): { status: number | null; stdout: string; modules: string[] } {
  const hooks = unbundled ? ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, '--input-type=module', '-e', UNBUNDLED, '--'] : ['--require', CJS_PRELOAD, BIN];
  const r = spawnSync(process.execPath, [...hooks, ...args], { encoding: 'utf8' });
  const modules = r.stderr
    .split('\n')
    .filter((l) => l.startsWith(TAG) && l.includes('/dist/'))
    .map((l) => l.slice(l.indexOf('/dist/') + '/dist/'.length));
  return { status: r.status, stdout: r.stdout, modules };
}

let CJS_PRELOAD = '';
before(() => {
  CJS_PRELOAD = join(mkdtempSync(join(tmpdir(), 'sitemapkit-preload-')), 'list-modules.cjs');
  writeFileSync(CJS_PRELOAD, CJS_HOOK);
});
after(() => rmSync(dirname(CJS_PRELOAD), { recursive: true, force: true }));

const NETWORK = /^(node\/http\/|node\/fetch-sitemap\.js|node\/validate-url\.js|core\/net\/)/;

test('read and validate of a file load no network module (the HTTP client, fetching, address ranges)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-startup-'));
  try {
    const file = join(dir, 'sitemap.xml');
    writeFileSync(file, '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a?x=1&amp;y=2</loc></url></urlset>\n');
    for (const args of [['read', file], ['validate', file], ['validate', file, '--format', 'json']]) {
      const { status, modules } = modulesLoaded(args);
      assert.equal(status, 0, args.join(' '));
      assert.ok(modules.includes('cli/main.js'), `the hook saw the CLI load (${args.join(' ')})`);
      assert.deepEqual(modules.filter((m) => NETWORK.test(m)), [], args.join(' '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a command's --help comes from its declaration: no command module is loaded", () => {
  for (const name of ['generate', 'read', 'validate', 'discover', 'build', 'robots', 'indexnow']) {
    for (const args of [[name, '--help'], [name, '-h'], ['help', name]]) {
      const { status, modules } = modulesLoaded(args);
      assert.equal(status, 0, args.join(' '));
      assert.deepEqual(modules.filter((m) => m.startsWith('cli/commands/')), [], args.join(' '));
    }
  }
});

test('the bundled bin loads one file of the package for --help and a command\'s loader and bundle for a command, and prints what the unbundled CLI prints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-startup-'));
  try {
    const file = join(dir, 'sitemap.xml');
    writeFileSync(file, '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a?x=1&amp;y=2</loc><lastmod>2024-01-02</lastmod></url></urlset>\n');
    const site = join(dir, 'site');
    mkdirSync(site);
    writeFileSync(join(site, 'index.html'), '<!doctype html><html lang="en"><head><title>Home</title></head><body><img src="/a.png" alt="A"></body></html>\n');
    const cases: [string[], string[]][] = [
      [['--version'], ['cli/bin.cjs']],
      [['validate', '--help'], ['cli/bin.cjs']],
      [['read', file], ['cli/bin.cjs', 'cli/bundle/read.load.cjs', 'cli/bundle/read.cjs']],
      [['validate', file, '--format', 'json'], ['cli/bin.cjs', 'cli/bundle/validate.load.cjs', 'cli/bundle/validate.cjs']],
      [['validate', file, '--format', 'sarif'], ['cli/bin.cjs', 'cli/bundle/validate.load.cjs', 'cli/bundle/validate.cjs']], // the version, from package.json
    ];
    for (const [args, files] of cases) {
      const bundled = modulesLoaded(args, false);
      assert.equal(bundled.status, 0, args.join(' '));
      assert.deepEqual(bundled.modules, files, args.join(' '));
      assert.equal(bundled.stdout, modulesLoaded(args).stdout, args.join(' '));
    }
    // The page scan in a worker thread, started from its own bundle (dist/cli/bundle/scan-worker.js).
    const out = join(dir, 'out');
    const built = modulesLoaded(['build', site, '--base-url', 'https://www.example.com/', '--out', out, '--threads', '1', '--images', '--no-gzip', '--quiet'], false);
    assert.equal(built.status, 0);
    const urlset = readdirSync(out).filter((name) => name.startsWith('sitemap-')).map((name) => readFileSync(join(out, name), 'utf8')).join('');
    assert.match(urlset, /<loc>https:\/\/www\.example\.com\/<\/loc>[^]*<image:loc>https:\/\/www\.example\.com\/a\.png<\/image:loc>/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("importing a command calls no toLocaleString (ICU's number formatting costs ~11 ms at start), and the vocabulary's bounds read as en-US numbers", async () => {
  const THROWING = 'Number.prototype.toLocaleString = () => { throw new Error("toLocaleString called at import"); };';
  for (const name of ['read', 'validate', 'generate', 'discover', 'build']) {
    const bundle = pathToFileURL(join(DIST, 'cli', 'bundle', `${name}.load.cjs`)).href;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `${THROWING} await import(${JSON.stringify(bundle)});`], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${name}: ${r.stderr}`);
  }
  const { VIDEO } = await import('../../src/core/vocabulary.js');
  const whats = VIDEO.type.sequence?.map((p) => p.element?.type.textWhat);
  assert.ok(whats?.includes('text of at most 2,048 characters'), String(whats));
  assert.ok(whats?.includes('whole seconds from 0 to 28,800'), String(whats));
});

test('formatCount writes whole numbers as toLocaleString("en-US") does, without calling it (ICU costs 10-15 ms at start)', () => {
  const original = Number.prototype.toLocaleString;
  const expected = (n: number): string => original.call(n, 'en-US');
  fc.assert(fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 0, 999, 1000, -1000)), (n) => {
    Number.prototype.toLocaleString = () => {
      throw new Error('toLocaleString called');
    };
    try {
      assert.equal(formatCount(n), expected(Object.is(n, -0) ? 0 : n));
    } finally {
      Number.prototype.toLocaleString = original;
    }
  }));
  assert.equal(formatCount(1234.5), '1,234.5'); // not a whole number: toLocaleString still
});

test('validate and read of a valid file never call toLocaleString (its first call loads ICU): not at import, not in their output', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-icu-'));
  try {
    const file = join(dir, 'sitemap.xml');
    writeFileSync(file, '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>\n');
    const trap = `Number.prototype.toLocaleString = function () { throw new Error('toLocaleString called'); };`;
    for (const args of [['validate', file], ['read', file]]) {
      const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(trap)}`, BIN, ...args], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${args[0]}: ${r.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('read and validate of a file leave standard input, perf_hooks and node:fs/promises alone (1-1.5, 0.7 and 1.1-1.5 ms of the start, each made or loaded on first use)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-stdin-'));
  try {
    const file = join(dir, 'sitemap.xml');
    writeFileSync(file, '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>\n');
    // Nor, not on a terminal (no progress line), a clock: Node's first performance.now() loads perf_hooks;
    // nor node:fs/promises, which a regular file is not opened with.
    const unwanted = ['NativeModule perf_hooks', 'NativeModule fs/promises'];
    const trap = `Object.defineProperty(process, 'stdin', { configurable: true, get() { throw new Error('process.stdin made'); } }); process.on('exit', () => { const loaded = ${JSON.stringify(unwanted)}.filter((m) => process.moduleLoadList.includes(m)); if (loaded.length > 0) { process.stderr.write('loaded: ' + loaded.join(', ')); process.exitCode = 9; } });`;
    for (const args of [['validate', file], ['validate', file, '--format', 'json'], ['read', file]]) {
      const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(trap)}`, BIN, ...args], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a command's bundle runs through V8's code cache: made after a first run that did its work, used after, and a missing, rejected or unwritable cache changes nothing but the time", () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-cache-'));
  const cache = join(DIST, 'cli', 'bundle', `read.cjs.${process.version}-${process.arch}.v8cache`);
  try {
    const file = join(dir, 'sitemap.xml');
    writeFileSync(file, '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a?x=1&amp;y=2</loc><priority>0.5</priority></url></urlset>\n');
    const read = (): string => {
      const r = spawnSync(process.execPath, [BIN, 'read', file], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    const expected = '{"loc":"https://example.com/a?x=1&y=2","priority":0.5}\n';
    rmSync(cache, { recursive: true, force: true });
    const missing = spawnSync(process.execPath, [BIN, 'read', join(dir, 'missing.xml')], { encoding: 'utf8' });
    assert.equal(missing.status, 2, missing.stderr);
    assert.ok(!existsSync(cache), 'a run stopped by an input error makes no cache: it compiled little');
    assert.equal(read(), expected);
    const made = readFileSync(cache);
    assert.ok(made.length > 10_000, `a cache of ${made.length} bytes`);
    assert.equal(read(), expected);
    assert.deepEqual(readFileSync(cache), made, 'an accepted cache is left as it is');
    writeFileSync(cache, 'not a code cache');
    assert.equal(read(), expected);
    assert.ok(readFileSync(cache).length > 10_000, 'a rejected cache is made again');
    rmSync(cache);
    mkdirSync(cache);
    assert.equal(read(), expected, 'a cache that cannot be read nor written');
    assert.deepEqual(readdirSync(join(DIST, 'cli', 'bundle')).filter((name) => name.includes('.v8cache.')), [], 'no temporary file left');
  } finally {
    rmSync(cache, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});
