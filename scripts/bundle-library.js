#!/usr/bin/env node
// Bundles the library after tsc (`npm run build`), as bundle-cli.js does the CLI: the package's entries
// ("." , "./core", "./html-page" in package.json's "exports") are dist/lib/index.js, core.js and
// html-page.js, built from tsc's output with esbuild's code splitting, so that the three share one copy
// of each module (one SitemapError class, one lane instance) in chunks next to them.
// Why: tsc's output is some 170 modules, and Node's ES module loader resolves each one: importing the
// package took 57-65 ms (the bundle: 26), and the loader's own URL and path functions grew hot enough
// for V8 to optimise them in the background while the caller's first call ran; with the garbage the
// loading left, a cold validateSitemap of a realistic 10 MB .xml.gz took 68.1 ms at best against 61.6
// (docs/performance.md, "The package and the bin bundled"). Names are kept (stack traces); comments are not.
// tsc's modules stay where they are: the types (.d.ts) are theirs, the worker threads' entries
// (dist/node/discover-worker.js, dist/node/build/scan-worker.js) are started from them, and the CLI's
// bundles are made from them. Dependencies in node_modules stay imports.

import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleUrls } from './module-urls.js';

const DIST = join(dirname(dirname(fileURLToPath(import.meta.url))), 'dist');
const LIB = join(DIST, 'lib');

rmSync(LIB, { recursive: true, force: true });
await build({
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  legalComments: 'none',
  charset: 'ascii',
  entryPoints: { index: join(DIST, 'index.js'), core: join(DIST, 'core', 'index.js'), 'html-page': join(DIST, 'core', 'build', 'html-page.js') },
  outdir: LIB,
  // Chunks in the same folder as the entries: a worker's URL is rewritten relative to it (moduleUrls).
  chunkNames: '[name]-[hash]',
  plugins: [moduleUrls(LIB, new Map())],
});
