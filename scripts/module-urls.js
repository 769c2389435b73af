// The esbuild plugin both bundlers share (scripts/bundle-cli.js, scripts/bundle-library.js).

import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/**
 * `new URL('./x', import.meta.url)` names a file next to the module, but in a bundle import.meta.url is
 * the bundle's: each such URL is rewritten relative to the bundle's folder (package.json for the
 * version), or to the worker's own bundle when it names one (`entries`: source path → output path).
 */
export function moduleUrls(outdir, entries) {
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
