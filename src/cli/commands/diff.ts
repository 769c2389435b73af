// `sitemapkit diff OLD NEW`: the URLs added, removed and changed between two sources (node/diff-sitemaps.ts);
// exit 0 when equal, 1 when they differ, 2 on error, as diff(1) does.

import { READING_STOPPED, type Diagnostic } from '../../core/diagnostics.js';
import { SitemapError } from '../../core/errors.js';
import type { FieldChange } from '../../core/url-diff.js';
import { diffSitemaps, type DiffListener, type DiffSitemapsOptions, type DiffSummary } from '../../node/diff-sitemaps.js';
import { sourceName, type SitemapSource } from '../../node/sitemap-source.js';
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_PROBLEMS, fatal, type CliIo } from '../io.js';
import { formatCount, plural, printable } from '../format.js';
import { UsageError } from '../args.js';
import { commandLine, definedOnly } from '../command.js';
import { DIFF } from '../declarations.js';
import { Output } from '../output.js';
import { ProblemPrinter } from '../problems.js';
import { Progress } from '../progress.js';
import { httpClientOptions, inputFailure, LazyHttpClient, sitemapSource } from '../fetch-input.js';

type DiffFormat = 'text' | 'jsonl' | 'json';

/** URLs of each kind listed by --format json; the counts are of all of them. */
const JSON_LISTED = 1000;

/** A field's value in a text line: as written; an extension by its item count, or that it changed. */
function shown(change: FieldChange): string {
  const { field, old: before, new: after } = change;
  if (field === 'lastmod' || field === 'changefreq' || field === 'priority') {
    return `${field} ${before === undefined ? '(none)' : printable(String(before))} \u2192 ${after === undefined ? '(none)' : printable(String(after))}`;
  }
  const size = (value: unknown): number => (value === undefined ? 0 : Array.isArray(value) ? value.length : 1);
  return size(before) === size(after) ? `${field} changed` : `${field} ${size(before)} \u2192 ${size(after)}`;
}

/** The changed fields as JSON members: `"lastmod":{"old":…,"new":…}` (null where there was none). */
function changeObject(loc: string, changes: readonly FieldChange[]): Record<string, unknown> {
  const object: Record<string, unknown> = { loc };
  for (const c of changes) object[c.field] = { old: c.old ?? null, new: c.new ?? null };
  return object;
}

const SIGNS = { removed: '-', added: '+', changed: '~' } as const;

/** Lists differences as the format says; --format json gathers the first JSON_LISTED of each. */
function listenerFor(format: DiffFormat, out: Output): DiffListener & { listed?: Record<keyof typeof SIGNS, unknown[]> } {
  const listed = { added: [] as unknown[], removed: [] as unknown[], changed: [] as unknown[] };
  const list = (op: keyof typeof SIGNS, loc: string, changes?: readonly FieldChange[]): void => {
    if (format === 'text') out.writeLine(`${SIGNS[op]} ${printable(loc)}${changes === undefined ? '' : ` ${changes.map(shown).join(', ')}`}`);
    else if (format === 'jsonl') out.writeLine(JSON.stringify({ op, ...(changes === undefined ? { loc } : changeObject(loc, changes)) }));
    // Copies: a value read may be a slice of the reader's chunk, and would hold the whole chunk in memory.
    else if (listed[op].length < JSON_LISTED) listed[op].push(JSON.parse(JSON.stringify(changes === undefined ? loc : changeObject(loc, changes))));
  };
  return {
    ...(format === 'json' ? { listed } : {}),
    removed: (loc) => list('removed', loc),
    added: (loc) => list('added', loc),
    changed: (loc, changes) => list('changed', loc, changes),
  };
}

function summaryLine(s: DiffSummary, equal: boolean): string {
  const outcome = equal ? 'equal' : `${formatCount(s.added)} added, ${formatCount(s.removed)} removed, ${formatCount(s.changed)} changed`;
  return `${outcome} (${plural(s.oldUrls, 'URL')} in OLD, ${plural(s.newUrls, 'URL')} in NEW)`;
}

/** Ctrl-C: reading stops at the next chunk, and the temporary file goes. */
class Interrupted extends Error {}

const PASSES = ['reading NEW', 'reading OLD against NEW', 'reading NEW again'];

export async function runDiff(argv: string[], io: CliIo): Promise<number> {
  // Ctrl-C also ends a request in flight: a stalled body would otherwise hold it until --timeout.
  const stop = new AbortController();
  const line = await commandLine(DIFF, argv, io, async (args) => {
    if (args.positionals.length !== 2) throw new UsageError(`give two sources, OLD and NEW (got ${args.positionals.length})`);
    if (args.positionals.includes('-')) throw new UsageError('standard input (-) cannot be compared: NEW is read twice; save it to a file');
    return new LazyHttpClient({ ...(await httpClientOptions(args)), signal: stop.signal });
  });
  if ('exit' in line) return line.exit;
  const { args, checked: client } = line;
  const format = args.choice<DiffFormat>('format') ?? 'text';
  const quiet = args.flag('quiet');
  const [oldSource, newSource] = args.positionals.map((p) => sitemapSource(p, io, 'diff', quiet)) as [SitemapSource, SitemapSource];
  const out = new Output(io.stdout);
  const problemsOut = new Output(io.stderr);
  let pass = 1;
  let entries = 0;
  const progress = Progress.ofEntries(io, !quiet, () => `diff: ${PASSES[pass - 1]} (${pass}/3): ${plural(entries, 'URL')}`, () => entries);
  const printer = ProblemPrinter.for(io.stderr, { progress, ...(args.flag('verbose') ? { capped: false } : {}) }, problemsOut);
  const listener = listenerFor(format, out);
  let stopped: Diagnostic | undefined;
  const removeInterrupt = io.onInterrupt?.(() => stop.abort());
  const options: DiffSitemapsOptions = {
    cwd: io.cwd,
    client: () => client.get(),
    onDiagnostic: (d) => {
      if (READING_STOPPED.has(d.code)) stopped ??= d;
      if (!quiet || d.severity === 'error') printer.print(d);
    },
    onProgress: (at, urls) => {
      // A source not read whole: no further line, as what follows would be wrong.
      if (stop.signal.aborted || stopped !== undefined) throw new Interrupted();
      [pass, entries] = [at, urls];
      progress.tick();
    },
    backpressure: () => Promise.all([out.flush(), problemsOut.flush()]).then(() => {}),
    ...definedOnly({ maxBytes: args.number('max-bytes'), maxEntries: args.number('max-entries') }),
  };
  let summary: DiffSummary | undefined;
  let unreadable: SitemapError | undefined;
  try {
    summary = await diffSitemaps(oldSource, newSource, listener, options);
  } catch (error) {
    if (error instanceof SitemapError && error.code === 'ERR_SITEMAP_INPUT') unreadable = error;
    else if (!stop.signal.aborted && stopped === undefined) throw error;
  } finally {
    removeInterrupt?.();
    progress.clear();
    await client.close();
  }
  // Interrupted: no summary, however the reading ended (the aborted request fails it).
  const interrupted = stop.signal.aborted;
  if (interrupted) [summary, unreadable] = [undefined, undefined];
  const notWhole = interrupted ? undefined : stopped;
  if (notWhole !== undefined) summary = undefined;
  const equal = summary !== undefined && summary.added + summary.removed + summary.changed === 0;
  if (summary !== undefined && format === 'text' && !quiet) out.writeLine(summaryLine(summary, equal));
  const report = { old: sourceName(oldSource, io.cwd), new: sourceName(newSource, io.cwd), equal, ...summary, listed: listener.listed };
  if (summary !== undefined && listener.listed !== undefined) out.write(`${JSON.stringify(report, null, 2)}\n`);
  await out.flush();
  printer.finish();
  await problemsOut.flush();
  out.close();
  problemsOut.close();
  if (unreadable !== undefined) return inputFailure(io, 'diff', unreadable, [oldSource, newSource].some((s) => 'assumed' in s && s.assumed === true));
  if (notWhole !== undefined) return fatal(io, 'diff', `${notWhole.file ?? 'a source'} was not read whole (${notWhole.code}): the comparison would be wrong`);
  if (summary === undefined) return EXIT_INTERRUPTED;
  return equal ? EXIT_OK : EXIT_PROBLEMS;
}
