// `sitemapkit validate`: will search engines accept these sitemaps, and if not, what to fix.

import { resolve } from 'node:path';
import { TRUNCATED_CODE, type Diagnostic, type DiagnosticCounts } from '../../core/diagnostics.js';
import { ruleInfo } from '../../core/validate/rules.js';
import { reportCounts, schemaVerdict, summarize, type FileReport } from '../../core/validate/types.js';
import type { RuleSetting } from '../../core/validate/validator.js';
import type { SitemapInput } from '../../node/parse-sitemap.js';
import type { EntryPosition } from '../../core/read/types.js';
import { validateSitemap, type ValidateSitemapOptions } from '../../node/validate-sitemap.js';
import { STYLISH_BLOCK_ROWS, StylishWriter, formatJson, formatJunit, formatSarif, githubLine, type ReportFormat, type StylishOutcome } from '../report/index.js';
import { EXIT_FATAL, EXIT_OK, EXIT_PROBLEMS, commandMessage, wantsColor, type CliIo, type OutputStream } from '../io.js';
import { plural, shownPath } from '../format.js';
import { terminalColumns } from '../problems.js';
import { Progress } from '../progress.js';
import { Output } from '../output.js';
import { validationSettings } from '../validation-settings.js';
import { UsageError } from '../args.js';
import { commandLine, definedOnly } from '../command.js';
import { VALIDATE } from '../declarations.js';
import { version } from '../version.js';
import { checkSitemapInputs, httpClientOptions, inputFailure, LazyHttpClient, sitemapInput } from '../fetch-input.js';
import { isFile, localChildPath } from '../../node/local-child.js';

export async function runValidate(argv: string[], io: CliIo): Promise<number> {
  const line = await commandLine(VALIDATE, argv, io, async (args) => {
    checkSitemapInputs(args.positionals, io);
    if (args.flag('follow') && args.positionals.includes('-')) throw new UsageError('--follow cannot find the children of standard input (they are found relative to the index file): give the index by its path');
    const config = validationSettings(args, io.cwd);
    const format = args.choice<ReportFormat>('format') ?? 'stylish';
    return { format, config, maxWarnings: args.number('max-warnings') ?? config.maxWarnings, client: new LazyHttpClient(await httpClientOptions(args)) };
  });
  if ('exit' in line) return line.exit;
  const { args, checked: { format, config, maxWarnings, client } } = line;

  const base: ValidateSitemapOptions = { cwd: io.cwd, rules: config.rules, ...definedOnly({ limits: config.limits, now: config.now }) };
  const reports: FileReport[] = [];
  let unreadable = 0;
  const quiet = args.flag('quiet');
  let entriesDone = 0;
  let entriesNow = 0;
  const files = { current: '', get done() { return reports.length; } };
  const progress = Progress.ofFiles(io, !quiet, 'validating', files, () => entriesDone + entriesNow);
  // stylish and github print each diagnostic as it is found; the others render the reports at the end.
  const stream = streamFor(format, io, quiet, args.flag('verbose'), progress);

  /** Validates a file, standard input or (`{ url }`) what a URL answers, collecting the children an index lists for --follow. */
  const validateOne: Validate = async (input, file, locationUrl, children) => {
    const remote = typeof input === 'object' && 'url' in input ? input : undefined;
    try {
      const options: ValidateSitemapOptions = {
        ...base,
        file,
        ...definedOnly({ location: locationUrl }),
        ...progress.onProgress((entries: number) => (entriesNow = entries)),
      };
      files.current = file;
      entriesNow = 0;
      if (children !== undefined) options.onSitemap = (ref, at) => children.push({ loc: ref.loc, ...at });
      if (stream !== undefined) {
        stream.startFile(file);
        options.onDiagnostic = (d) => stream.diagnostic(d);
        options.backpressure = () => stream.drain();
      }
      const result = remote !== undefined ? await (await import('../../node/validate-url.js')).validateSitemapUrl(remote.url, { ...options, client: await client.get() }) : await validateSitemap(input as SitemapInput, options);
      const report: FileReport = { ...result, schemaValid: schemaVerdict(result.format, result.schemaValid) };
      entriesDone += result.entries;
      entriesNow = 0;
      stream?.endFile(report.schemaValid);
      reports.push(report);
      return report;
    } catch (error) {
      stream?.endFile();
      progress.clear();
      await inputFailure(io, 'validate', error, remote?.assumed === true);
      unreadable++;
      // The reports say it too: a CI step that reads only the JUnit or SARIF file must not see green.
      // Every format counts it from here: a file, and its input/unreadable error.
      const report: FileReport = { file, format: undefined, entries: 0, diagnostics: [{ code: 'input/unreadable', severity: 'error', message: (error as Error).message, file }] };
      reports.push(report);
      stream?.unreadable?.(report);
      return undefined;
    }
  };

  // Each file or URL validated once across the inputs (given twice, or given beside the index that lists it), and whether it is an index.
  const isIndex = new Map<string, boolean>();
  for (const path of args.positionals) {
    const { remote, file, local } = sitemapInput(path, io, 'validate', quiet, progress);
    const key = remote?.url ?? (path === '-' ? '-' : resolve(io.cwd, path));
    if (isIndex.has(key)) continue;
    const children: Child[] | undefined = args.flag('follow') && path !== '-' ? [] : undefined;
    const result = await validateOne(remote ?? (local as SitemapInput), file, config.location, children);
    if (path !== '-') isIndex.set(key, result?.format === 'sitemapindex');
    if (result === undefined || children === undefined || result.format !== 'sitemapindex') continue;
    const found = remote !== undefined ? await followUrls(file, children, isIndex, validateOne) : await followChildren(key, file, config.location, io.cwd, children, isIndex, validateOne);
    addFollowed(result, found, config.rules, stream);
  }
  await client.close();
  progress.clear();

  return printReports(io, reports, { format, quiet, unreadable, maxWarnings }, stream);
}

/** Prints the reports (the end of the streamed ones) and returns the exit status they give. */
async function printReports(io: CliIo, reports: readonly FileReport[], { format, quiet, unreadable, maxWarnings }: { format: ReportFormat; quiet: boolean; unreadable: number; maxWarnings: number | undefined }, stream: ReportStream | undefined): Promise<number> {
  const shown = quiet ? reports.map(errorsOnly) : reports;
  const summary = summarize(reports);
  // The summary line states the outcome the exit status gives (-q hides rows, not problems).
  const outcome: StylishOutcome = { unreadable, summary, ...(maxWarnings !== undefined ? { maxWarnings } : {}) };
  if (stream !== undefined) {
    stream.end(shown, outcome);
    await stream.drain();
    stream.close();
  } else {
    io.stdout.write(render(format, shown));
  }
  if (unreadable > 0) return EXIT_FATAL;
  if (summary.errors > 0) return EXIT_PROBLEMS;
  if (maxWarnings !== undefined && summary.warnings > maxWarnings) {
    io.stderr.write(commandMessage('validate', `${plural(summary.warnings, 'warning')}, more than --max-warnings ${maxWarnings}`));
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}

type Child = EntryPosition & { loc: string };
type Validate = (input: SitemapInput | { url: string; assumed?: boolean }, file: string, location: string | undefined, children?: Child[]) => Promise<FileReport | undefined>;

/**
 * --follow: validates the children of an index file where they sit relative to it (localChildPath),
 * those not in `isIndex` (validated already: an index that lists itself, a child listed twice or given).
 */
async function followChildren(
  indexPath: string,
  indexFile: string,
  indexUrl: string | undefined,
  cwd: string,
  children: readonly Child[],
  isIndex: Map<string, boolean>,
  validateOne: Validate,
): Promise<Diagnostic[]> {
  const found: Diagnostic[] = [];
  for (const child of children) {
    const local = localChildPath(indexPath, indexUrl, child.loc);
    if (local === undefined) continue;
    const path = 'path' in local ? local.path : undefined;
    const shown = path === undefined ? '' : shownPath(path, cwd);
    if (path === undefined || !isFile(path)) {
      found.push({
        code: 'index/child-missing', severity: 'error', file: indexFile, line: child.line, column: child.column,
        message: `the child sitemap ${JSON.stringify(child.loc)} is not on disk: ${path === undefined ? (local as { unnamable: string }).unnamable : `no file ${shown}`}`,
        hint: indexUrl === undefined
          ? 'write the child, or remove it from the index; if the index is not served at the root of its site, give where it is served with --base-url'
          : 'write the child, or remove it from the index',
      });
      continue;
    }
    if (!isIndex.has(path)) isIndex.set(path, (await validateOne(path, shown, child.loc))?.format === 'sitemapindex');
    if (isIndex.get(path) === true) found.push(nestedIndex(child, indexFile));
  }
  return found;
}

/** --follow of an index fetched from `indexUrl`: each child fetched once, as followChildren does for files. */
async function followUrls(indexUrl: string, children: readonly Child[], isIndex: Map<string, boolean>, validateOne: Validate): Promise<Diagnostic[]> {
  const nested: Diagnostic[] = [];
  for (const child of children) {
    if (!isIndex.has(child.loc)) isIndex.set(child.loc, (await validateOne({ url: child.loc }, child.loc, undefined))?.format === 'sitemapindex');
    if (isIndex.get(child.loc) === true) nested.push(nestedIndex(child, indexUrl));
  }
  return nested;
}

function nestedIndex(child: Child, indexFile: string): Diagnostic {
  return { code: 'index/nested', severity: 'warning', message: `${JSON.stringify(child.loc)} is itself a sitemap index; Google does not follow nested indexes`, file: indexFile, line: child.line, column: child.column, hint: 'list its children in this index instead' };
}

/** Adds what following the children found to the index's report and counts, at the configured levels. */
function addFollowed(result: FileReport, found: readonly Diagnostic[], rules: Readonly<Record<string, RuleSetting>>, stream: ReportStream | undefined): void {
  if (found.length === 0) return;
  const counts = reportCounts(result);
  stream?.startFile(result.file);
  for (const one of found) {
    const setting = rules[one.code];
    // An index that lists itself is found by its own validation too, where its URL is known.
    if (setting === 'off' || result.diagnostics.some((d) => d.code === one.code && d.line === one.line && d.column === one.column)) continue;
    const d = setting === undefined ? one : { ...one, severity: setting };
    (result.diagnostics as Diagnostic[]).push(d);
    if (d.severity === 'error') counts.errors++;
    else if (d.severity === 'warning') counts.warnings++;
    else counts.infos++;
    stream?.diagnostic(d);
  }
  stream?.endFile(result.schemaValid);
  (result as { counts?: DiagnosticCounts }).counts = counts;
}

/** --quiet: errors only (and what the list leaves out); the counts stay exact. */
function errorsOnly(report: FileReport): FileReport {
  const diagnostics = report.diagnostics.filter((d) => d.severity === 'error' || d.code === TRUNCATED_CODE);
  return { ...report, diagnostics, counts: reportCounts(report) };
}

/** Where the streamed formats write, per file, every diagnostic as it is found. */
interface ReportStream {
  startFile(file: string): void;
  diagnostic(d: Diagnostic): void;
  endFile(schemaValid?: boolean | null): void;
  end(reports: readonly FileReport[], outcome: StylishOutcome): void;
  /** github annotates an unreadable input; stylish counts it in its summary. */
  unreadable?(report: FileReport): void;
  drain(): Promise<void>;
  close(): void;
}

function streamFor(format: ReportFormat, io: CliIo, quiet: boolean, verbose: boolean, progress: Progress): ReportStream | undefined {
  if (format !== 'stylish' && format !== 'github') return undefined;
  // Rows and the progress line may share the terminal.
  const out = new Output(progress.active && io.stdout.isTTY === true ? clearingFirst(io.stdout, progress) : io.stdout);
  const shown = (d: Diagnostic): boolean => !quiet || d.severity === 'error';
  const common = { drain: () => out.flush(), close: () => out.close() };
  if (format === 'stylish') {
    const terminal = io.stdout.isTTY === true;
    const writer = new StylishWriter(out, {
      color: wantsColor(io, io.stdout),
      sort: true,
      ...(terminal ? { columns: terminalColumns(io.stdout), capped: !verbose, allHints: verbose } : {}),
    });
    return {
      ...common,
      startFile: (file) => writer.startFile(file),
      diagnostic: (d) => {
        if (shown(d)) writer.diagnostic(d);
      },
      endFile: (schemaValid) => writer.endFile(schemaValid),
      end: (reports, outcome) => writer.end(reports, outcome),
    };
  }
  // In document order within blocks, as the stylish rows.
  let file = '';
  let block: Diagnostic[] = [];
  const flush = (): void => {
    block.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0));
    for (const d of block) out.write(githubLine(file, d));
    block = [];
  };
  return {
    ...common,
    startFile: (name) => {
      flush();
      file = name;
    },
    diagnostic: (d) => {
      if (!shown(d)) return;
      block.push(d);
      if (block.length >= STYLISH_BLOCK_ROWS) flush();
    },
    endFile: flush,
    unreadable: (report) => {
      for (const d of report.diagnostics) out.write(githubLine(report.file, d));
    },
    end: flush,
  };
}

/** `stream`, with `progress` cleared before each write. */
function clearingFirst(stream: OutputStream, progress: Progress): OutputStream {
  return {
    write(text: string) {
      progress.clear();
      return stream.write(text);
    },
  };
}

function render(format: ReportFormat, reports: readonly FileReport[]): string {
  switch (format) {
    case 'json':
      return formatJson(reports);
    case 'sarif':
      return formatSarif(reports, { toolVersion: version(), rules: ruleInfo });
    default:
      return formatJunit(reports);
  }
}

