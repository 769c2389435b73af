// The package as a user gets it: `npm pack`, the tarball installed into an empty folder, then its bin,
// its subpath exports (imported and required) and its types (a consumer type-checked with the
// `nodenext` and `bundler` resolutions). Needs dist/ (`npm test` builds first).
//
// No network: the runtime dependencies (and theirs) are installed from this repository's node_modules
// as local folders next to the tarball, with `--offline`, so npm never asks the registry.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  license: string;
  dependencies: Record<string, string>;
  exports: Record<string, Record<string, string>>;
};
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

let packed: Packed;
let tarball: string;
let app: string;
// One folder for the whole file (an `after` registered inside `before` would run right after the hook).
const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-pack-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A runtime dependency's folder as Node would find it from `from` (its own node_modules, then the repository's). */
function dependencyFolder(name: string, from: string): string {
  for (const base of [join(from, 'node_modules'), join(ROOT, 'node_modules')]) {
    if (existsSync(join(base, name, 'package.json'))) return join(base, name);
  }
  throw new Error(`${name} (a runtime dependency) is not installed in ${ROOT}node_modules: run npm ci`);
}

/** The folders of the runtime dependencies and of everything they depend on. */
function runtimeDependencyFolders(): string[] {
  const folders = new Map<string, string>();
  const pending: [string, string][] = Object.keys(PKG.dependencies).map((name) => [name, ROOT]);
  while (pending.length > 0) {
    const [name, from] = pending.pop() as [string, string];
    if (folders.has(name)) continue;
    const folder = dependencyFolder(name, from);
    folders.set(name, folder);
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) pending.push([dependency, folder]);
  }
  return [...folders.values()];
}

function run(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 60_000 });
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  assert.equal(result.status, 0, `${what} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

before(() => {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  packed = (JSON.parse(out) as Packed[])[0] as Packed;
  tarball = join(dir, packed.filename);
  app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  ok(
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--install-links', '--no-save', '--no-package-lock', tarball, ...runtimeDependencyFolders()], app),
    'npm install',
  );
});

test('the package has the LICENSE package.json names', (t) => {
  t.diagnostic(`${packed.filename}: ${packed.size.toLocaleString('en-US')} bytes, ${packed.unpackedSize.toLocaleString('en-US')} unpacked, ${packed.files.length} files`);
  assert.equal(PKG.license, 'MIT');
  assert.ok(packed.files.some((f) => f.path === 'LICENSE'), 'LICENSE is in the package');
  const license = readFileSync(join(app, 'node_modules', PKG.name, 'LICENSE'), 'utf8');
  assert.match(license, /^MIT License\n\nCopyright \(c\) \d{4} sitemapkit contributors\n/);
});

test('the package has the extension schemas, for xmllint', () => {
  const paths = new Set(packed.files.map((f) => f.path));
  const schemas = readdirSync(join(ROOT, 'schemas')).filter((name) => name.endsWith('.xsd'));
  assert.ok(schemas.includes('all.xsd') && schemas.includes('sitemap-video.xsd'), schemas.join(', '));
  for (const schema of schemas) assert.ok(paths.has(`schemas/${schema}`), `schemas/${schema} is in the package`);
});

test('the package has no source map without the sources it points at', () => {
  const paths = new Set(packed.files.map((f) => f.path));
  for (const path of paths) {
    if (!path.endsWith('.map')) continue;
    const map = JSON.parse(readFileSync(join(app, 'node_modules', PKG.name, path), 'utf8')) as { sources: string[]; sourceRoot?: string };
    for (const source of map.sources) {
      const shipped = posix.normalize(posix.join(posix.dirname(path), map.sourceRoot ?? '', source));
      assert.ok(paths.has(shipped), `${path} points at ${shipped}, which is not in the package`);
    }
  }
});

test('the installed sitemapkit bin runs: --version, and generate on a small list', () => {
  const bin = join(app, 'node_modules', '.bin', 'sitemapkit');
  assert.equal(ok(run(bin, ['--version'], app), 'sitemapkit --version').trim(), PKG.version);
  writeFileSync(join(app, 'urls.txt'), 'https://www.example.com/\nhttps://www.example.com/a\n');
  ok(run(bin, ['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'public'], app), 'sitemapkit generate');
  const xml = readFileSync(join(app, 'public', 'sitemap.xml'), 'utf8');
  assert.match(xml, /<loc>https:\/\/www\.example\.com\/a<\/loc>/);
});

test('every subpath export imports, and require() loads it where Node has require(esm), else says to use import', () => {
  const specifiers = Object.keys(PKG.exports).map((key) => (key === '.' ? PKG.name : `${PKG.name}/${key.slice(2)}`));
  assert.deepEqual(specifiers, ['sitemapkit', 'sitemapkit/core', 'sitemapkit/html-page']);
  // Each module's export names, by import and by require, in the installed package.
  writeFileSync(join(app, 'load.mjs'), `for (const s of ${JSON.stringify(specifiers)}) console.log(s, Object.keys(await import(s)).sort().join(','));\n`);
  writeFileSync(
    join(app, 'load.cjs'),
    `for (const s of ${JSON.stringify(specifiers)}) {
  try { console.log(s, Object.keys(require(s)).sort().join(',')); }
  catch (e) { console.log(s, 'threw', e.code, JSON.stringify(e.message)); }
}\n`,
  );
  const imported = ok(run(process.execPath, ['load.mjs'], app), 'import').trim().split('\n');
  assert.equal(imported.length, 3);
  for (const line of imported) assert.match(line, /^\S+ \w+(,\w+)+$/, line);
  assert.ok(imported[0]?.includes(',writeSitemaps') && imported[1]?.includes(',serializeSitemap,') && imported[2]?.includes(',scanHtmlPage,'), imported.join('\n'));

  // This Node (20.19+) loads ES modules with require(), so `require` gives the very same names…
  assert.equal((process as { features: { require_module?: boolean } }).features.require_module, true, 'this Node has require(esm)');
  assert.deepEqual(ok(run(process.execPath, ['load.cjs'], app), 'require').trim().split('\n'), imported);
  // …and one without it (as Node 20 before 20.19) gets an error that says how to load the package instead.
  const refused = ok(run(process.execPath, ['--no-experimental-require-module', 'load.cjs'], app), 'require without require(esm)').trim().split('\n');
  assert.equal(refused.length, 3);
  for (const [i, line] of refused.entries()) {
    const specifier = specifiers[i] as string;
    assert.ok(line.startsWith(`${specifier} threw ERR_REQUIRE_ESM "${specifier} is an ES module: use import { … } from '${specifier}', or await import('${specifier}')`), line);
  }
});

test('a consumer type-checks against the installed package with moduleResolution nodenext and bundler', async () => {
  const consumer = `import { writeSitemaps, validateSitemap, parseSitemap, discoverSitemaps, type UrlEntry, type SitemapValidationResult } from 'sitemapkit';
import { serializeSitemap, normalizeUrl, InvalidValueError } from 'sitemapkit/core';
import { scanHtmlPage } from 'sitemapkit/html-page';
// @ts-expect-error: the command line's run is not part of the API
import { run } from 'sitemapkit';

// @ts-expect-error: the types are real (not any): loc is a string
export const wrong: UrlEntry = { loc: 1 };
export const internal = run;
const entries: UrlEntry[] = [{ loc: 'https://www.example.com/', lastmod: new Date(), images: [{ loc: 'https://www.example.com/a.png' }] }];

export async function main(): Promise<number> {
  const summary = await writeSitemaps(entries, { outDir: 'public', baseUrl: 'https://www.example.com/', onInvalid: (error: InvalidValueError) => console.warn(error.code) });
  const report: SitemapValidationResult = await validateSitemap(summary.entryFile?.path ?? 'public/sitemap.xml');
  let urls = 0;
  for await (const item of parseSitemap('public/sitemap.xml')) if ('loc' in item) urls++;
  for await (const event of discoverSitemaps('https://www.example.com/')) if (event.type === 'end') break;
  for await (const chunk of serializeSitemap(entries)) urls += chunk.length > 0 ? 0 : 1;
  const facts = scanHtmlPage('<html><head><meta name="robots" content="noindex"></head></html>', 'https://www.example.com/');
  return report.diagnostics.length + urls + normalizeUrl('https://www.example.com/').length + (facts.noindex ? 1 : 0);
}
`;
  writeFileSync(join(app, 'consumer.ts'), consumer);
  // CommonJS code that requires the package (TypeScript allows it under nodenext, as Node 20.19+ does).
  writeFileSync(
    join(app, 'consumer.cts'),
    `import sitemapkit = require('sitemapkit');
import core = require('sitemapkit/core');
export const length: number = sitemapkit.normalizeUrl('https://www.example.com/').length + core.escapeXml('&').length;
`,
  );
  const base = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    lib: ['ES2023'],
    // The package's declarations are checked too: a type they name must resolve for a user.
    skipLibCheck: false,
    typeRoots: [join(ROOT, 'node_modules', '@types')],
    types: ['node'],
  };
  const checks = (
    [
      ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, ['consumer.ts', 'consumer.cts']],
      // The nodenext run checks the declarations; this one, how the "exports" map resolves for a bundler.
      ['bundler', { module: 'esnext', moduleResolution: 'bundler', skipLibCheck: true }, ['consumer.ts']],
    ] as const
  ).map(([name, options, files]) => {
    const config = join(app, `tsconfig.${name}.json`);
    writeFileSync(config, JSON.stringify({ compilerOptions: { ...base, ...options }, files }));
    // Both at once: each is a few seconds of one core.
    return new Promise<void>((resolve, reject) => {
      execFile(process.execPath, [TSC, '-p', config], { cwd: app, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error === null) resolve();
        else reject(new Error(`tsc with moduleResolution ${name} failed (${error.code}):\n${stdout}${stderr}`));
      });
    });
  });
  await Promise.all(checks);
});
