// `sitemapkit index MANIFEST... --out DIR`: publish a sharded set from its shards' manifests.

import { resolve } from 'node:path';
import { writeIndexFromManifests, type IndexFile } from '../../node/scale/shard-set.js';
import { UsageError, fatalFailure } from '../args.js';
import { commandLine, definedOnly } from '../command.js';
import { INDEX } from '../declarations.js';
import { formatBytes, plural } from '../format.js';
import { EXIT_OK, printSummary, type CliIo } from '../io.js';

export async function runIndex(argv: string[], io: CliIo): Promise<number> {
  const line = await commandLine(INDEX, argv, io, (args) => {
    if (!args.has('out')) throw new UsageError('--out DIR is required (the folder the shards wrote into)');
    if (args.positionals.length === 0) throw new UsageError('no manifest: give the manifest of every shard (NAME-shard-B-of-N.json)');
  });
  if ('exit' in line) return line.exit;
  const { args } = line;
  try {
    const set = await writeIndexFromManifests({
      manifests: args.positionals.map((path) => resolve(io.cwd, path)),
      outDir: resolve(io.cwd, args.text('out') as string),
      ...definedOnly({ maxSitemapsPerIndex: args.number('sitemaps-per-index') }),
    });
    printSummary(io, args, set, () =>
      `Published ${plural(set.urls, 'URL')} in ${plural(set.files.length, 'sitemap')} (${formatBytes(set.diskBytes)} on disk) to ${set.outDir}.\n${indexLines(set.indexFiles)}` +
      (set.removed.length > 0 ? `  removed from the previous set: ${plural(set.removed.length, 'file')}\n` : ''),
    );
    return EXIT_OK;
  } catch (error) {
    return fatalFailure(io, 'index', error);
  }
}

/** The index files to submit, one a line (several past 50,000 children). */
export function indexLines(files: readonly IndexFile[]): string {
  const head = files.length === 1 ? '  index: ' : `  ${files.length} index files (submit each, or list each in robots.txt):\n    `;
  return head + files.map((file) => `${file.path} (submit ${file.loc}, ${plural(file.sitemaps, 'sitemap')})`).join('\n    ') + '\n';
}
