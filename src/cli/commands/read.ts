// `sitemapkit read`: sitemaps (any format, plain or gzipped, any encoding) → entries on stdout,
// problems on stderr as FILE:LINE:COL: severity code message (problems.ts).

import type { Diagnostic } from '../../core/diagnostics.js';
import type { SitemapRef, UrlEntry } from '../../core/model.js';
import { urlLine, type JsonLines } from '../../core/model-json.js';
import { SitemapError } from '../../core/errors.js';
import { readSitemap, type ParseSitemapOptions, type SitemapInput, type SitemapSummary } from '../../node/parse-sitemap.js';
import { EXIT_FATAL, EXIT_OK, EXIT_PROBLEMS, commandMessage, type CliIo } from '../io.js';
import { formatBytes, formatCount, plural } from '../format.js';
import { commandLine, definedOnly } from '../command.js';
import { READ } from '../declarations.js';
import { csvField, lastmodText, Output } from '../output.js';
import { ProblemPrinter } from '../problems.js';
import { Progress, ratePerSecond } from '../progress.js';
import type { FetchedSitemap } from '../../node/fetch-sitemap.js';
import { checkSitemapInputs, httpClientOptions, inputFailure, inputUrl, LazyHttpClient } from '../fetch-input.js';

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
  const { args, checked: client } = line;
  const format = args.choice<OutputFormat>('format') ?? 'jsonl';
  const options: ParseSitemapOptions = {
    cwd: io.cwd,
    ...definedOnly({ maxBytes: args.number('max-bytes'), maxEntries: args.number('max-entries'), maxDepth: args.number('max-nesting'), maxValueLength: args.number('max-value-length') }),
  };

  const quiet = args.flag('quiet');
  const out = new Output(io.stdout);
  const problemsOut = new Output(io.stderr);
  const formatter = new Formatter(format, out, (message) => {
    if (quiet) return;
    progress.clear();
    io.stderr.write(commandMessage('read', `warning: ${message}`));
  });
  let errors = 0;
  let fatal = false;
  // No progress line when the entries themselves scroll on the terminal.
  let filesDone = 0;
  let current = '';
  const progress = Progress.ofEntries(io, !quiet && io.stdout.isTTY !== true, (ms) => `reading ${current}: ${plural(formatter.written, 'entry', 'entries')}, ${plural(filesDone, 'file')} done, ${formatCount(ratePerSecond(formatter.written, ms))} entries/s`, () => formatter.written);
  const printer = ProblemPrinter.for(io.stderr, { progress, capped: !args.flag('verbose') }, problemsOut);

  try {
    for (const path of args.positionals) {
      const remote = inputUrl(path, io, 'read', quiet, progress);
      const file = remote !== undefined ? remote.url : path === '-' ? '<stdin>' : path;
      current = file;
      let fetched: FetchedSitemap | undefined;
      // Waiting for our own output is not charged to the request's deadline.
      const held = (wait: Promise<void>): Promise<void> => (fetched === undefined ? wait : fetched.held(wait));
      const onDiagnostic = (d: Diagnostic): void => {
        if (!quiet || d.severity === 'error') printer.print(d, file);
      };
      try {
        let input: SitemapInput;
        if (remote !== undefined) {
          fetched = await (await import('../../node/fetch-sitemap.js')).fetchSitemap(remote.url, await client.get());
          input = fetched.body;
        } else {
          input = path === '-' ? (io.stdin as NodeJS.ReadableStream as AsyncIterable<Uint8Array | string>) : path;
        }
        // Entries and diagnostics are written as found (a problem per line must not pile up); before
        // each chunk, reading waits while both outputs drain.
        const summary = await readSitemap(input, {
          ...options,
          file,
          maxDiagnosticsPerCode: 0,
          onDiagnostic,
          onUrl: formatter.url,
          onSitemap: formatter.sitemap,
          ...(formatter.jsonLines !== undefined ? { urlLines: formatter.jsonLines } : {}),
          backpressure: async () => {
            await held(out.flush());
            await held(problemsOut.flush());
            progress.tick();
          },
          stop: () => out.closed,
        });
        await held(out.flush());
        await held(problemsOut.flush());
        filesDone++;
        errors += summary.errors;
        if (args.flag('summary')) {
          progress.clear();
          io.stderr.write(summaryLine(file, summary));
        }
      } catch (error) {
        await out.flush();
        progress.clear();
        await problemsOut.flush();
        if (!(error instanceof SitemapError) || error.code !== 'ERR_SITEMAP_INPUT') throw error;
        await inputFailure(io, 'read', error, remote?.assumed === true);
        fatal = true;
      } finally {
        await fetched?.cancel();
      }
      if (out.closed) break;
    }
    await out.flush();
  } finally {
    progress.clear();
    printer.finish();
    await problemsOut.flush();
    out.close();
    problemsOut.close();
    await client.close();
  }
  return fatal ? EXIT_FATAL : errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

