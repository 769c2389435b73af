// `sitemapkit apply CHANGES... --out DIR`: a change feed applied to a published sharded set.

import { resolve } from 'node:path';
import { applyChanges } from '../../node/scale/apply.js';
import { UsageError, fatalFailure } from '../args.js';
import { commandLine, definedOnly } from '../command.js';
import { APPLY } from '../declarations.js';
import { formatDuration, plural } from '../format.js';
import { EXIT_OK, EXIT_PROBLEMS, printSummary, type CliIo } from '../io.js';
import { ProblemPrinter } from '../problems.js';
import { indexLines } from './index-command.js';

export async function runApply(argv: string[], io: CliIo): Promise<number> {
  const line = await commandLine(APPLY, argv, io, (args) => {
    if (!args.has('out')) throw new UsageError('--out DIR is required (the folder of the set)');
    if (args.positionals.length === 0) throw new UsageError('no change feed: give one or more JSON Lines files of changes');
    if (args.positionals.includes('-')) throw new UsageError('standard input (-) cannot be applied: save the change feed to a file');
  });
  if ('exit' in line) return line.exit;
  const { args } = line;
  const printer = ProblemPrinter.for(io.stderr);
  try {
    const summary = await applyChanges({
      changes: args.positionals.map((path) => resolve(io.cwd, path)),
      outDir: resolve(io.cwd, args.text('out') as string),
      ...definedOnly({ name: args.text('name'), maxSitemapsPerIndex: args.number('sitemaps-per-index') }),
      onProblem: (problem) => printer.print(problem),
    });
    printer.finish();
    printSummary(io, args, summary, () =>
      `Applied ${plural(summary.upserts, 'upsert')} and ${plural(summary.deletes, 'delete')} to ${summary.outDir} in ${formatDuration(summary.durationMs)}: ` +
        `${plural(new Set(summary.written.map((file) => file.child)).size, 'child', 'children')} rewritten (${plural(summary.written.length, 'file')}), ` +
        (summary.emptied > 0 ? `${plural(summary.emptied, 'child', 'children')} emptied (every URL deleted), ` : '') +
        `${plural(summary.kept, 'child', 'children')} untouched.\n${indexLines(summary.indexFiles)}` +
        (summary.rejected > 0 ? `  ${plural(summary.rejected, 'line')} rejected (see above)\n` : '') +
        (summary.warnings > 0 ? `  ${plural(summary.warnings, 'warning')}: applied, but not as the feed said (see above)\n` : ''),
    );
    return summary.rejected > 0 || summary.warnings > 0 ? EXIT_PROBLEMS : EXIT_OK;
  } catch (error) {
    printer.finish();
    return fatalFailure(io, 'apply', error, '', '; the previous set is still published');
  }
}
