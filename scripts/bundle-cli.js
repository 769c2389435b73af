#!/usr/bin/env node
// Bundles the CLI after tsc (`npm run build`): Node's ESM loader costs ~0.5 ms a module and a command
// loaded 36-58 of them, so the CLI's start was 28-38 ms above `node -e 0` in imports alone (issue 24
// asks at most 20; docs/performance.md, "The CLI's start"). Three outputs:
//   dist/cli/bin.js               the bin: main.js, io, version and the help declarations (tsc's bin.js replaced)
//   dist/cli/bundle/<command>.js  one file per command, everything under it (the package's modules)
//   dist/cli/bundle/scan-worker.js  build's worker script, a file of its own as a Worker needs
// One file per command rather than one bundle with code splitting: measured, validate FILE started
// in 100 ms CPU against 112 split (shared chunks are 10-20 files again), read 90 against 103.
// Not minified: no faster (measured), and stack traces keep their names. htmlparser2 is bundled: as an
// import of node_modules it would be loaded at build's start (an external import is hoisted to the top
// of the file; bundled, it is initialised with the scan it serves). picomatch (CommonJS, imported with
// import() where a glob is given) stays an import of node_modules, as do bullmq and its Redis driver
// ioredis (CommonJS, imported with import() by the queue commands). The library (dist/index.js, the
// subpath exports) and the rest of dist/cli stay tsc's output (cli-docs.js for docs:cli, main.js for
// test/cli/startup.test.ts's check of which modules a command initialises).

import { build } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const DIST = join(ROOT, 'dist');
const CLI = join(DIST, 'cli');
const BUNDLE = join(CLI, 'bundle');
const SCAN_WORKER = join(DIST, 'node', 'build', 'scan-worker.js');

/**
 * `new URL('./x', import.meta.url)` names a file next to the module, but in a bundle import.meta.url is
 * the bundle's: each such URL is rewritten relative to the bundle's folder (package.json for the
 * version), or to the worker's own bundle when it names one (`entries`: source path → output path).
 */
function moduleUrls(outdir, entries) {
  const pattern = /new URL\((['"])(\.{1,2}\/[^'"]+)\1, import\.meta\.url\)/g;
  return {
    name: 'module-urls',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const contents = source.replace(pattern, (_, quote, path) => {
          const target = resolve(dirname(args.path), path);
          const moved = relative(outdir, entries.get(target) ?? target);
          return `new URL(${JSON.stringify(moved.startsWith('.') ? moved : `./${moved}`)}, import.meta.url)`;
        });
        return { contents, loader: 'js' };
      });
    },
  };
}

const common = { bundle: true, format: 'esm', platform: 'node', target: 'node20', external: ['picomatch', 'bullmq', 'ioredis'], logLevel: 'warning', legalComments: 'none' };

// The bin: main.js loads './commands/NAME.js' when a command runs; here it loads the command's bundle.
const toCommandBundle = {
  name: 'command-bundles',
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) => ({ path: `./bundle/${args.path.slice('./commands/'.length)}`, external: true }));
  },
};

// The bin bundle replaces tsc's bin.js, its own entry: a second run would bundle the bundle.
if (!readFileSync(join(CLI, 'bin.js'), 'utf8').includes("from './main.js'")) throw new Error('dist/cli/bin.js is not tsc\'s output (bundled already?): run `npm run build`');

const commands = readdirSync(join(CLI, 'commands')).filter((name) => name.endsWith('.js'));
await build({ ...common, entryPoints: [join(CLI, 'bin.js')], outfile: join(CLI, 'bin.js'), allowOverwrite: true, plugins: [toCommandBundle, moduleUrls(CLI, new Map())] });
await build({
  ...common,
  entryPoints: { ...Object.fromEntries(commands.map((name) => [name.slice(0, -'.js'.length), join(CLI, 'commands', name)])), 'scan-worker': SCAN_WORKER },
  outdir: BUNDLE,
  plugins: [moduleUrls(BUNDLE, new Map([[SCAN_WORKER, join(BUNDLE, 'scan-worker.js')]]))],
});
