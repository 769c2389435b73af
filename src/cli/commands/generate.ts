// `sitemapkit generate`: URL lists (text, CSV, JSON Lines) → a complete sitemap set.

import { resolve } from 'node:path';
import { SitemapError, type InvalidValueError } from '../../core/errors.js';
import { parseColumnMapping } from '../../core/input/csv.js';
import { EntryPolicy, type EntryDefaults } from '../../core/input/entry-policy.js';
import { isFutureLastmod } from '../../core/datetime.js';
import { UrlEntrySerializer } from '../../core/write/url-entry.js';
import { LIMITS_PROFILES, type UrlEntry } from '../../core/model.js';
import { detectInputFormat, pathFilter, readInput, type InputFormat, type InputRecord, type InputWarning } from '../../node/input.js';
import { writeSitemaps, type IndexMode, type WriteProgress, type WriteSummary, type WriteSitemapsOptions } from '../../node/write-sitemaps.js';
import type { IndexFile } from '../../node/scale/shard-set.js';
import { commandMessage, EXIT_FATAL, EXIT_OK, EXIT_PROBLEMS, printSummary, type CliIo } from '../io.js';
import { formatBytes, formatCount, formatDuration, plural, shownPath } from '../format.js';
import { asUsage, fatalFailure, setOutputOptions, UsageError, writeSet } from '../args.js';
import { commandLine, definedOnly, type ParsedArgs } from '../command.js';
import { GENERATE } from '../declarations.js';
import { ProblemPrinter, type Problem } from '../problems.js';
import { DiagnosticCollector, type Diagnostic } from '../../core/diagnostics.js';
import { Progress, ratePerSecond } from '../progress.js';

/** What the options of `generate` make (a UsageError when they cannot); `startedAt` is "now". */
async function generateSettings(args: ParsedArgs, startedAt: number) {
  if (!args.has('base-url')) throw new UsageError('--base-url URL is required (where the sitemaps will be served, e.g. https://www.example.com/)');
  if (!args.has('out')) throw new UsageError('--out DIR is required');
  if (args.positionals.length === 0) throw new UsageError('no input: give one or more files, or - for standard input');
  const output = setOutputOptions(args);
  if (args.positionals.filter((p) => p === '-').length > 1) throw new UsageError('standard input (-) can be read only once');
  if (args.has('shards')) {
    // A sharded set has its own layout: always an index, each URL once, written for real.
    for (const option of ['index', 'no-dedupe', 'dry-run'] as const) if (args.has(option)) throw new UsageError(`--${option} does not apply to a sharded set (--shards)`);
  }
  const columnsText = args.text('columns');
  const columns = columnsText === undefined ? undefined : asUsage(() => parseColumnMapping(columnsText));
  const defaults = entryDefaults(args, startedAt);
  const inputFormat = args.choice<InputFormat>('input-format');
  const formats = asUsage(() => new Map(args.positionals.map((path) => [path, inputFormat ?? detectInputFormat(path)])));
  try {
    return { output, columns, defaults, formats, keepPath: await pathFilter(args.list('include'), args.list('exclude')) };
  } catch (error) {
    // picomatch refuses an empty glob.
    throw new UsageError(`--include/--exclude: ${(error as Error).message}`);
  }
}

export async function runGenerate(argv: string[], io: CliIo): Promise<number> {
  // "now" for --lastmod now and for lastmod in the future: the run's start, to the second.
  const startedAt = Math.floor(Date.now() / 1000) * 1000;
  const line = await commandLine(GENERATE, argv, io, (args) => generateSettings(args, startedAt));
  if ('exit' in line) return line.exit;
  const { args, checked: { output, columns, defaults, formats, keepPath } } = line;

  const policy = new EntryPolicy({ defaults, strict: args.flag('strict'), now: startedAt, ...(keepPath !== undefined ? { keepPath } : {}) });
  const quiet = args.flag('quiet');
  const json = args.choice('format') === 'json';
  const verbose = args.flag('verbose');
  let lastProgress: WriteProgress | undefined;
  const progress = Progress.onTerminal(io, !quiet && !json, () => (lastProgress !== undefined ? progressLine(lastProgress) : 'generating…'));
  const problems = new Problems(ProblemPrinter.for(io.stderr, { progress, capped: !verbose }), quiet, json);
  async function* entries(): AsyncGenerator<UrlEntry[]> {
    for (const path of args.positionals) {
      yield* problems.batches(readInput(path, formats.get(path) as InputFormat | 'auto', { cwd: io.cwd, onWarning: (w) => problems.inputWarnings.push(w), ...definedOnly({ stdin: io.stdin, columns }) }));
    }
  }
  const shards = args.number('shards');
  const summary = await writeSet(io, 'generate', progress, async (signal) => {
    const options: WriteSitemapsOptions = {
      outDir: resolve(io.cwd, args.text('out') as string),
      baseUrl: args.text('base-url') as string,
      enforceScope: !args.flag('no-scope'),
      ...output,
      ...definedOnly({ index: args.choice<IndexMode>('index'), xslUrl: args.text('xsl') }),
      dedupe: !args.flag('no-dedupe'),
      dryRun: args.flag('dry-run'),
      signal,
      onInvalid: (error: InvalidValueError, entry: UrlEntry) => problems.rejectAt(entry, error.message, error.rule),
      replaceInvalid: (error: InvalidValueError, entry: UrlEntry) => policy.replace(error, problems.preparing(entry), problems.warnEntry),
      prepare: (entry: UrlEntry) => {
        if (policy.prepare(problems.preparing(entry), problems.warnEntry)) return true;
        problems.excluded++;
        return false;
      },
      ...progress.onProgress((p: WriteProgress) => (lastProgress = p)),
    };
    return shards === undefined ? writeSitemaps(entries(), options) : (await import('../../node/scale/generate-sharded.js')).writeShardedSet(entries(), { ...options, baseUrl: options.baseUrl as string, shards });
  }, (error) => problems.failed(io, error));
  if (typeof summary === 'number') return summary;
  problems.printer.finish();
  const { rejected, warnings, excluded } = problems;
  printSummary(io, args, { ...summary, ...problems.json(rejected === 0 && warnings === 0) }, () => humanSummary(summary, rejected, warnings, excluded, verbose, io.cwd));
  return rejected > 0 || warnings > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

/** The problems of a run of `generate`, printed in line order as found, counted, and the first of each code listed for --format json. */
class Problems {
  /** Lines rejected: by the reader, or by the writer (its summary's `rejected`, each one also an onInvalid). */
  rejected = 0;
  /** The written sitemap says something else than the input (exit status 1). */
  warnings = 0;
  /** Entries left out by --include/--exclude. */
  excluded = 0;
  /** Ignored input (unknown columns and fields): said before the chunk's batch, it waits for its line. */
  readonly inputWarnings: InputWarning[] = [];
  private readonly positions = new WeakMap<UrlEntry, InputRecord>();
  private readonly listed = new DiagnosticCollector();
  private current: UrlEntry | undefined;

  constructor(readonly printer: ProblemPrinter, private readonly quiet: boolean, private readonly listing: boolean) {}

  private problem(p: Problem): void {
    if (!this.quiet || p.severity === 'error') this.printer.print(p);
    if (this.listing) this.listed.add(p as Diagnostic);
  }

  private reject(file: string, line: number | undefined, message: string, code?: string): void {
    this.rejected++;
    this.problem({ severity: 'error', message, file, ...definedOnly({ line, code }) });
  }

  private warnAt(file: string, line: number | undefined, code: string, message: string): void {
    this.problem({ severity: 'warning', code, message, file, ...definedOnly({ line }) });
  }

  /** An entry the writer refused, said at its input line. */
  rejectAt(entry: UrlEntry, message: string, code?: string): void {
    const at = this.positions.get(entry);
    this.reject(at?.file ?? '<input>', at?.line, message, code);
  }

  /** `entry`, which the warnings said next are about. */
  preparing(entry: UrlEntry): UrlEntry {
    return (this.current = entry);
  }

  readonly warnEntry = (code: string, message: string): void => {
    this.warnings++;
    const at = this.current === undefined ? undefined : this.positions.get(this.current);
    this.warnAt(at?.file ?? '<input>', at?.line, code, message);
  };

  private sayInputWarnings(upTo: number): void {
    while (this.inputWarnings.length > 0 && (this.inputWarnings[0] as InputWarning).line <= upTo) {
      const w = this.inputWarnings.shift() as InputWarning;
      this.warnAt(w.file, w.line, w.code, w.message);
    }
  }

  /**
   * The entries of an input's records, then the warnings left about it. Problems in line order with no buffer: the writer reports an
   * entry's problems as it takes its batch, so a batch is cut before each line the reader has something to say about.
   */
  async *batches(records: AsyncIterable<InputRecord[]>): AsyncGenerator<UrlEntry[]> {
    for await (const batch of records) {
      let out: UrlEntry[] = [];
      for (const record of batch) {
        const warned = this.inputWarnings.length > 0 && (this.inputWarnings[0] as InputWarning).line <= record.line;
        if (record.entry === undefined || warned) {
          if (out.length > 0) yield out;
          out = [];
          this.sayInputWarnings(record.line);
        }
        if (record.entry !== undefined) {
          this.positions.set(record.entry, record);
          out.push(record.entry);
        } else {
          this.reject(record.file, record.line, record.error ?? 'unreadable line', record.code);
        }
      }
      // Even empty: the writer checks for an interrupt between batches.
      yield out;
    }
    this.sayInputWarnings(Infinity);
  }

  /** The counts and the problems listed, for --format json. */
  json(ok: boolean): object {
    return { rejected: this.rejected, warnings: this.warnings, excluded: this.excluded, ok, problems: this.listed.retained, problemsNotListed: this.listed.dropped };
  }

  /** The writing failed: an empty set because of the input is said as such; the exit status. */
  failed(io: CliIo, error: unknown): number {
    this.printer.finish();
    if (!(error instanceof SitemapError && error.code === 'ERR_SITEMAP_EMPTY' && (this.rejected > 0 || this.excluded > 0))) return fatalFailure(io, 'generate', error);
    const why = this.rejected > 0 ? `every entry was rejected (${plural(this.rejected, 'problem')} above)` : `--include/--exclude left out all ${plural(this.excluded, 'URL')}`;
    io.stderr.write(commandMessage('generate', `no URL could be written: ${why}`));
    if (this.listing) io.stdout.write(JSON.stringify({ urls: 0, ...this.json(false) }, null, 2) + '\n');
    return this.rejected > 0 ? EXIT_PROBLEMS : EXIT_FATAL;
  }
}

/** Defaults for entries that lack a field, each validated as the field itself would be. */
function entryDefaults(args: ParsedArgs, now: number): EntryDefaults {
  const lastmod = args.text('lastmod');
  const defaults: EntryDefaults = definedOnly({
    lastmod: lastmod?.trim().toLowerCase() === 'now' ? new Date(now).toISOString().replace('.000Z', 'Z') : lastmod,
    changefreq: args.text('changefreq') as EntryDefaults['changefreq'],
    priority: args.text('priority'),
  });
  const serializer = new UrlEntrySerializer({ limits: LIMITS_PROFILES.current });
  for (const field of ['lastmod', 'changefreq', 'priority'] as const) {
    if (defaults[field] === undefined) continue;
    asUsage(() => serializer.serialize({ loc: 'https://example.com/', [field]: defaults[field] }, 0), `--${field}: `);
    if (field === 'lastmod' && isFutureLastmod(serializer.lastmodMs, now)) {
      throw new UsageError(`--lastmod ${JSON.stringify(lastmod)} is in the future; give the date the pages last changed, or now`);
    }
  }
  return defaults;
}

function progressLine(p: WriteProgress): string {
  const rate = ratePerSecond(p.urls, p.elapsedMs);
  return `generating: ${plural(p.urls, 'URL')}, ${plural(p.files, 'file')}, ${formatCount(rate)} URLs/s` + (p.rejected > 0 ? `, ${formatCount(p.rejected)} rejected` : '');
}

function humanSummary(s: WriteSummary & { indexFiles?: IndexFile[] }, rejected: number, warnings: number, excluded: number, verbose: boolean, cwd: string): string {
  const lines: string[] = [];
  const files = s.indexed ? `${plural(s.sitemaps.length, 'sitemap')} and ${(s.indexFiles?.length ?? 1) === 1 ? 'an index' : plural(s.indexFiles?.length ?? 1, 'index', 'indexes')}` : plural(s.sitemaps.length, 'sitemap');
  lines.push(`${s.dryRun === true ? 'Dry run, nothing written: would write' : 'Wrote'} ${plural(s.urls, 'URL')} in ${files} to ${shownPath(s.outDir, cwd)} (${formatBytes(s.bytes)} of XML, ${formatBytes(s.diskBytes)} on disk) in ${formatDuration(s.durationMs)}.`);
  if (s.indexFiles !== undefined && s.indexFiles.length > 1) {
    lines.push(`  ${s.indexFiles.length} index files (submit each, or list each in robots.txt):`, ...s.indexFiles.map((file) => `    ${shownPath(file.path, cwd)} (${file.loc}, ${plural(file.sitemaps, 'sitemap')})`));
  } else if (s.entryFile !== undefined) {
    lines.push(`  entry file: ${shownPath(s.entryFile.path, cwd)}` + (s.entryFile.loc !== undefined ? ` (submit ${s.entryFile.loc}, or add "Sitemap: ${s.entryFile.loc}" to robots.txt)` : ''));
  }
  const shown = s.sitemaps.length <= 10 || verbose ? s.sitemaps : [...s.sitemaps.slice(0, 5), undefined, ...s.sitemaps.slice(-3)];
  if (s.sitemaps.length > 1 || s.indexed) {
    for (const file of shown) {
      if (file === undefined) lines.push(`    ... ${s.sitemaps.length - 8} more`);
      else lines.push(`    ${file.name}: ${plural(file.urls, 'URL')}, ${formatBytes(file.bytes)}` + (file.lastmod !== undefined ? `, lastmod ${file.lastmod}` : ''));
    }
  }
  if (s.duplicates > 0) lines.push(`  ${plural(s.duplicates, 'repeated URL')} written once`);
  if (excluded > 0) lines.push(`  ${plural(excluded, 'URL')} left out by --include/--exclude`);
  if (rejected > 0) lines.push(`  ${plural(rejected, 'line')} rejected (see above)`);
  if (warnings > 0) lines.push(`  ${plural(warnings, 'warning')}: written, but not as the input said (see above)`);
  if (s.removed.length > 0) lines.push(`  ${s.dryRun === true ? 'would remove' : 'removed'} from an earlier run: ${s.removed.join(', ')}`);
  return lines.join('\n') + '\n';
}

