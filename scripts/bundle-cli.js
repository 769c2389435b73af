#!/usr/bin/env node
// Bundles the CLI after tsc (`npm run build`): Node's ESM loader costs ~0.5 ms a module and a command
// loaded 36-58 of them, so the CLI's start was 28-38 ms above `node -e 0` in imports alone (issue 24
// asks at most 20; docs/performance.md, "The CLI's start"). Outputs, all CommonJS but the workers':
//   dist/cli/bin.cjs              the bin: main.js, io, version and the help declarations
//   dist/cli/bin.js               tsc's bin.js replaced by an import of bin.cjs, for whoever runs it by path
//   dist/cli/bundle/<command>.cjs one file per command, everything under it (the package's modules),
//                                 run through V8's code cache by dist/cli/bundle/<command>.load.cjs (below)
// CommonJS from the entry on: a run that starts in an ES module pays for the ES module loader and for
// a facade of each node: module it imports, about 5 ms of `validate FILE` (best of 15: 43.3 → 38.5 ms
// for a one-URL file; 2.4 ms of it with only the command's loader made CommonJS).
//   dist/cli/bundle/scan-worker.js  build's worker script, a file of its own as a Worker needs
//   dist/cli/bundle/discover-worker.js  discover's reading thread (node/discover-readers.ts), likewise
// One file per command rather than one bundle with code splitting: measured, validate FILE started
// in 100 ms CPU against 112 split (shared chunks are 10-20 files again), read 90 against 103.
// Whitespace and comments are stripped (minifyWhitespace, ASCII output): with the code cache, reading
// the source and matching the cache to it is what is left of compiling, and the `validate` bundle went
// 524 → 369 KB, its load (read, compile from the cache, run) 9.2 → 7.2 ms (medians of 10); names are
// not minified, so stack traces keep them. htmlparser2 is bundled: as an import of node_modules it
// would be loaded at build's start (an external import is hoisted to the top of the file; bundled, it
// is initialised with the scan it serves). picomatch (CommonJS, imported with
// import() where a glob is given) stays an import of node_modules, as do bullmq and its Redis driver
// ioredis (CommonJS, imported with import() by the queue commands). The library is bundled apart
// (scripts/bundle-library.js); the rest of dist/cli stays tsc's output (cli-docs.js for docs:cli, main.js for
// test/cli/startup.test.ts's check of which modules a command initialises).

import { build } from 'esbuild';
import { moduleUrls } from './module-urls.js';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const DIST = join(ROOT, 'dist');
const CLI = join(DIST, 'cli');
const BUNDLE = join(CLI, 'bundle');
const SCAN_WORKER = join(DIST, 'node', 'build', 'scan-worker.js');
const DISCOVER_WORKER = join(DIST, 'node', 'discover-worker.js');

const common = { bundle: true, format: 'esm', platform: 'node', target: 'node20', external: ['picomatch', 'bullmq', 'ioredis'], logLevel: 'warning', legalComments: 'none', minifyWhitespace: true, charset: 'ascii' };

// The bin: main.js loads './commands/NAME.js' when a command runs; here it loads the command's bundle.
const toCommandBundle = {
  name: 'command-bundles',
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) => ({ path: `./bundle/${args.path.slice('./commands/'.length, -'.js'.length)}.load.cjs`, external: true }));
  },
};

/** CommonJS output where the sources say `import.meta.url` and `import()` (of a bundle's own modules, or a loader). */
const commonJs = {
  format: 'cjs',
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: 'var __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
};

// The bin bundle replaces tsc's bin.js, its own entry: a second run would bundle the bundle.
if (!readFileSync(join(CLI, 'bin.js'), 'utf8').includes("from './main.js'")) throw new Error('dist/cli/bin.js is not tsc\'s output (bundled already?): run `npm run build`');

const commands = readdirSync(join(CLI, 'commands')).filter((name) => name.endsWith('.js'));
await build({ ...common, ...commonJs, entryPoints: [join(CLI, 'bin.js')], outfile: join(CLI, 'bin.cjs'), plugins: [toCommandBundle, moduleUrls(CLI, new Map())] });
writeFileSync(join(CLI, 'bin.js'), "#!/usr/bin/env node\n// Made by scripts/bundle-cli.js: the bin is bin.cjs.\nimport './bin.cjs';\n");
const urls = moduleUrls(BUNDLE, new Map([[SCAN_WORKER, join(BUNDLE, 'scan-worker.js')], [DISCOVER_WORKER, join(BUNDLE, 'discover-worker.js')]]));
await build({ ...common, entryPoints: { 'scan-worker': SCAN_WORKER, 'discover-worker': DISCOVER_WORKER }, outdir: BUNDLE, plugins: [urls] });

/** A user's module (node/import-module.js) is imported by the loader's own import(), which it lends the bundle. */
const loaderImport = {
  name: 'loader-import',
  setup(b) {
    b.onLoad({ filter: /[\\/]node[\\/]import-module\.js$/ }, () => ({ contents: 'export const importModule = (href) => __importModule(href);', loader: 'js' }));
  },
};

// A command's bundle (`<command>.cjs`) is compiled through V8's code cache by a small module
// (`<command>.load.cjs`, what the bin loads): Node 20 caches no compiled module, and compiling a
// 300-600 KB bundle took 8-12 ms of every run (docs/performance.md, "The whole `read` command").
// import() becomes require() (a vm.Script has no ES module loader of its own); `import.meta.url` is
// the bundle file's URL.
await build({
  ...common,
  ...commonJs,
  entryPoints: Object.fromEntries(commands.map((name) => [name.slice(0, -'.js'.length), join(CLI, 'commands', name)])),
  outdir: BUNDLE,
  outExtension: { '.js': '.cjs' },
  plugins: [loaderImport, urls],
});
for (const name of commands) {
  const command = name.slice(0, -'.js'.length);
  writeFileSync(join(BUNDLE, `${command}.load.cjs`), cachedLoader(`${command}.cjs`));
}

/**
 * The module that runs the CommonJS bundle `file` (next to it) through a vm.Script with V8's code
 * cache, and exports what the bundle exports. The cache is made when there is none or V8 rejected it
 * (another Node, another bundle), after a run that did its work (exit status 0 or 1), so that it holds
 * the functions such a run compiles: a cache made by a run that stopped at a missing file left a
 * realistic validation 2.5 ms slower (medians of 11). It is written next to the bundle only (a cache
 * where others can write could run their code), to a file of its own, then renamed (concurrent runs);
 * where it cannot be written (a read-only install) or read, the bundle is compiled as if there were none.
 */
function cachedLoader(file) {
  return `// Made by scripts/bundle-cli.js: loads ${file} through V8's code cache.
'use strict';
const { readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { Script } = require('node:vm');

const file = join(__dirname, ${JSON.stringify(file)});
const cacheFile = \`\${file}.\${process.version}-\${process.arch}.v8cache\`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {}
const script = new Script(\`(function (exports, require, module, __filename, __dirname, __importModule) {\${readFileSync(file, 'utf8')}\\n})\`, { filename: file, ...(cachedData !== undefined ? { cachedData } : {}) });
const bundle = { exports: {} };
script.runInThisContext().call(bundle.exports, bundle.exports, createRequire(file), bundle, file, __dirname, (href) => import(href));
if (cachedData === undefined || script.cachedDataRejected === true) {
  process.once('beforeExit', () => {
    // A run stopped by a usage or input error (exit status 2) compiled little of the bundle: such a
    // cache, once accepted, would be kept, and every later run would compile the rest itself.
    if (process.exitCode === 2) return;
    const temporary = \`\${cacheFile}.\${process.pid}\`;
    try {
      writeFileSync(temporary, script.createCachedData());
      renameSync(temporary, cacheFile);
    } catch {
      rmSync(temporary, { force: true });
    }
  });
}
module.exports = bundle.exports;
`;
}
