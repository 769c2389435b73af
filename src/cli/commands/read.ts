// `sitemapkit read`: sitemaps (any format, plain or gzipped, any encoding) → entries on stdout,
// problems on stderr as FILE:LINE:COL: severity code message (problems.ts).

import type { Diagnostic } from '../../core/diagnostics.js';
import type { SitemapRef, UrlEntry } from '../../core/model.js';
import { urlLine, type JsonLines } from '../../core/model-json.js';
import { readSitemap, type ParseSitemapOptions, type SitemapInput, type SitemapSummary } from '../../node/parse-sitemap.js';
import { EXIT_FATAL, EXIT_OK, EXIT_PROBLEMS, commandMessage, type CliIo } from '../io.js';
import { formatBytes, plural } from '../format.js';
import { commandLine, definedOnly, type ParsedArgs } from '../command.js';
import { READ } from '../declarations.js';
import { csvField, lastmodText, Output } from '../output.js';
import { ProblemPrinter } from '../problems.js';
import { Progress } from '../progress.js';
import type { FetchedSitemap } from '../../node/fetch-sitemap.js';
import { checkSitemapInputs, httpClientOptions, inputFailure, LazyHttpClient, sitemapInput } from '../fetch-input.js';

type OutputFormat = 'jsonl' | 'csv' | 'tsv' | 'urls';

function tsvField(value: string): string {
  return /[\t\r\n\\]/.test(value) ? value.replace(/[\t\r\n\\]/g, (c) => (c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\\\')) : value;
}

class Formatter {
  private columns: 4 | 2 | undefined;
  private mixedWarned = false;
  /** On a byte stream: the reader's fast path writes JSON lines itself (ReaderSink.urlLines). */
  readonly jsonLines: JsonLines | undefined;
  /** Entries written but for the lines in jsonLines. */
  private entries = 0;
  constructor(
    private readonly format: OutputFormat,
    private readonly out: Output,
    private readonly warn: (message: string) => void,
  ) {
    this.jsonLines = format === 'jsonl' ? out.jsonLines() : undefined;
  }

  readonly url = (entry: UrlEntry): void => this.entry(entry, true);
  readonly sitemap = (ref: SitemapRef): void => this.entry(ref, false);

  get written(): number {
    return this.entries + (this.jsonLines?.count ?? 0);
  }

  private entry(e: UrlEntry | SitemapRef, page: boolean): void {
    if (this.jsonLines === undefined) this.entries++;
    if (this.format === 'jsonl') this.out.writeJsonLine(page ? e : { sitemap: e });
    else if (this.format === 'urls') this.out.writeLine(urlLine(e.loc));
    else this.row(e, page);
  }

  private row(item: UrlEntry | SitemapRef, page: boolean): void {
    const field = this.format === 'csv' ? csvField : tsvField;
    const sep = this.format === 'csv' ? ',' : '\t';
    if (this.columns === undefined) {
      this.columns = page ? 4 : 2;
      this.out.write((this.columns === 4 ? ['loc', 'lastmod', 'changefreq', 'priority'] : ['loc', 'lastmod']).join(sep) + '\n');
    }
    const values = [item.loc, lastmodText(item.lastmod)];
    if (page) {
      const e = item as UrlEntry;
      if (this.columns === 4) values.push(e.changefreq ?? '', e.priority === undefined ? '' : String(e.priority));
      else if (!this.mixedWarned && (e.changefreq !== undefined || e.priority !== undefined)) {
        this.mixedWarned = true;
        this.warn('pages after a sitemap index: their changefreq and priority are left out of the loc,lastmod columns; read urlsets and indexes separately');
      }
    } else if (this.columns === 4) values.push('', '');
    this.out.write(values.map(field).join(sep) + '\n');
  }
}

function summaryLine(file: string, s: SitemapSummary): string {
  const entries = s.format === 'sitemapindex' ? plural(s.sitemaps, 'sitemap') : plural(s.urls, 'URL') + (s.sitemaps > 0 ? `, ${plural(s.sitemaps, 'sitemap')}` : '');
  const problems = `${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}`;
  const bytes = s.bytesRead === s.bytesDecompressed ? formatBytes(s.bytesRead) : `${formatBytes(s.bytesRead)} (${formatBytes(s.bytesDecompressed)} decompressed)`;
  const encoding = s.encoding !== undefined ? `, ${s.encoding}` : '';
  return `${file}: ${s.format}, ${entries}, ${problems}; ${bytes} read${encoding}\n`;
}

export async function runRead(argv: string[], io: CliIo): Promise<number> {
  const line = await commandLine(READ, argv, io, async (args) => {
    checkSitemapInputs(args.positionals, io);
    return new LazyHttpClient(await httpClientOptions(args));
  });
  if ('exit' in line) return line.exit;
  const run = readRun(line.args, io, line.checked);
  const { out, problemsOut, progress, printer } = run;
  let errors = 0;
  let fatal = false;
  try {
    for (const path of line.args.positionals) {
      const found = await readOne(path, run);
      if (found === undefined) fatal = true;
      else errors += found;
      if (out.closed) break;
    }
    await out.flush();
  } finally {
    progress.clear();
    printer.finish();
    await problemsOut.flush();
    out.close();
    problemsOut.close();
    await line.checked.close();
  }
  return fatal ? EXIT_FATAL : errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

/** What every file of a run of `read` is read with, as its options say. */
function readRun(args: ParsedArgs, io: CliIo, client: LazyHttpClient) {
  const quiet = args.flag('quiet');
  const out = new Output(io.stdout);
  const problemsOut = new Output(io.stderr);
  const formatter = new Formatter(args.choice<OutputFormat>('format') ?? 'jsonl', out, (message) => {
    if (quiet) return;
    progress.clear();
    io.stderr.write(commandMessage('read', `warning: ${message}`));
  });
  const files = { current: '', done: 0 };
  // No progress line when the entries themselves scroll on the terminal.
  const progress = Progress.ofFiles(io, !quiet && io.stdout.isTTY !== true, 'reading', files, () => formatter.written);
  const printer = ProblemPrinter.for(io.stderr, { progress, capped: !args.flag('verbose') }, problemsOut);
  const options: ParseSitemapOptions = {
    cwd: io.cwd,
    ...definedOnly({ maxBytes: args.number('max-bytes'), maxEntries: args.number('max-entries'), maxDepth: args.number('max-nesting'), maxValueLength: args.number('max-value-length') }),
  };
  // --summary: a line per file on standard error.
  return { io, quiet, summary: args.flag('summary'), client, options, out, problemsOut, formatter, progress, printer, files };
}

/** Reads one input to the run's outputs; its errors, or undefined when it could not be read (said on standard error). */
async function readOne(path: string, run: ReturnType<typeof readRun>): Promise<number | undefined> {
  const { io, out, problemsOut, progress } = run;
  const { remote, file, local } = sitemapInput(path, io, 'read', run.quiet, progress);
  run.files.current = file;
  let fetched: FetchedSitemap | undefined;
  // Waiting for our own output is not charged to the request's deadline.
  const held = (wait: Promise<void>): Promise<void> => (fetched === undefined ? wait : fetched.held(wait));
  try {
    if (remote !== undefined) fetched = await (await import('../../node/fetch-sitemap.js')).fetchSitemap(remote.url, await run.client.get());
    // Entries and diagnostics are written as found (a problem per line must not pile up); before
    // each chunk, reading waits while both outputs drain.
    const summary = await readSitemap(fetched?.body ?? (local as SitemapInput), {
      ...run.options,
      file,
      maxDiagnosticsPerCode: 0,
      onDiagnostic: (d: Diagnostic) => {
        if (!run.quiet || d.severity === 'error') run.printer.print(d, file);
      },
      onUrl: run.formatter.url,
      onSitemap: run.formatter.sitemap,
      ...(run.formatter.jsonLines !== undefined ? { urlLines: run.formatter.jsonLines } : {}),
      backpressure: async () => {
        await held(out.flush());
        await held(problemsOut.flush());
        progress.tick();
      },
      stop: () => out.closed,
    });
    await held(out.flush());
    await held(problemsOut.flush());
    run.files.done++;
    if (run.summary) {
      progress.clear();
      io.stderr.write(summaryLine(file, summary));
    }
    return summary.errors;
  } catch (error) {
    await out.flush();
    progress.clear();
    await problemsOut.flush();
    await inputFailure(io, 'read', error, remote?.assumed === true);
    return undefined;
  } finally {
    await fetched?.cancel();
  }
}
