// `sitemapkit generate`: URL lists (text, CSV, JSON Lines) → a complete sitemap set.

import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { SitemapError, type InvalidValueError } from '../../core/errors.js';
import type { UrlEntry } from '../../core/model.js';
import { parseColumnMapping, type ColumnMapping } from '../../core/input/csv.js';
import { EntryPolicy, FUTURE_LEEWAY_MS, type EntryDefaults } from '../../core/input/entry-policy.js';
import { UrlEntrySerializer } from '../../core/write/url-entry.js';
import { LIMITS_PROFILES } from '../../core/model.js';
import { detectInputFormat, pathFilter, readInput, type InputFormat, type InputRecord, type InputWarning } from '../../node/input.js';
import { writeSitemaps, type IndexMode, type WriteProgress, type WriteSummary } from '../../node/write-sitemaps.js';
import { EXIT_FATAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_PROBLEMS, type CliIo } from '../io.js';
import { formatBytes, formatCount, formatDuration, plural } from '../format.js';
import { UsageError, choice, positiveInteger, usageFailure } from '../args.js';
import { ProblemPrinter } from '../problems.js';
import { Progress, ratePerSecond } from '../progress.js';

export const GENERATE_HELP = `Usage: sitemapkit generate [FILE|-]... --base-url URL --out DIR [options]

Write a complete sitemap set from lists of URLs: split at 50,000 URLs and at the
byte limit, gzipped, with a sitemap index when there is more than one file.
Every URL is normalised (IRIs become RFC 3986 URIs, hosts punycode), escaped,
checked against the location rules of the protocol, and written once.

Input (FILE, or - for standard input; several files are read in order):
  text    one URL per line: an absolute http(s) URL, or a path starting with /
          (resolved against --base-url). Blank lines and lines starting with #
          are ignored; any other line (a URL without its scheme, a relative
          path, a space or tab inside) is rejected, never turned into a URL
  csv     a header line naming the columns loc,lastmod,changefreq,priority,
          found by common names in any case (url or Address for loc, Last
          Modified, Change Frequency) or named with --columns; other columns
          are ignored with one warning
  tsv     the same with tabs (\t \n \r \\ escapes), as "read --format tsv"
  jsonl   one JSON object per line with the full entry model (images, videos,
          news, alternates); see README "JSON Lines input"; an unknown field
          is ignored with one warning per file
  The format comes from the extension (.txt .csv .tsv .jsonl .ndjson, also
  .gz) or --input-format. Standard input is recognised by its content: JSON
  Lines when its first line starts with {, CSV or TSV when it is a header
  naming a loc column, otherwise text; so "sitemapkit read X | sitemapkit
  generate - ..." works with every --format of read. gzip input is detected
  by content.

Options:
  --base-url URL        where the set will be served, e.g. https://www.example.com/
                        (required). Relative inputs (/a/b) are resolved against
                        it, and so are the image, video and alternate URLs of
                        JSON Lines entries; every page URL must share its scheme, host and port and
                        sit under its path, or the line is rejected.
  --out DIR             directory to write into (required); created if missing.
                        Other files there are left alone.
  --input-format FMT    text, csv, tsv or jsonl (default: from each file's
                        extension; standard input: from its content)
  --columns MAP         CSV/TSV columns by header name, e.g.
                        --columns loc=Address,lastmod="Last Modified"
  --lastmod now|DATE    lastmod of entries that have none (now: the run's start)
  --changefreq VALUE    changefreq of entries that have none (e.g. weekly)
  --priority VALUE      priority of entries that have none (0.0 to 1.0)
  --include GLOB        write only URLs whose path matches (repeatable), e.g.
                        --include 'blog/**'; the path is from the host's root,
                        without the leading /, query and fragment
  --exclude GLOB        leave out URLs whose path matches (repeatable),
                        e.g. --exclude 'drafts/**' --exclude '**/print'
  --strict              reject an entry with a bad lastmod, changefreq,
                        priority or hreflang, or a #fragment, instead of writing
                        the URL without it
  --name NAME           entry file NAME.xml, children NAME-00001.TOKEN.xml.gz,
                        TOKEN a hash of the content (default: sitemap)
  --index MODE          auto: an index only for more than one file (default)
                        always: an index even for one file
                        never: no index
  --profile NAME        limits: current (50,000 URLs, 52,428,800 bytes, 50,000
                        sitemaps per index; default) or legacy (10,485,760
                        bytes, 1,000 sitemaps per index, as in the 2008 text)
  --max-urls N          fewer URLs per file than the profile allows
  --max-bytes N         fewer uncompressed bytes per file than the profile allows
  --no-gzip             write plain .xml children (default: .xml.gz)
  --gzip-level N        1 (fastest) to 9 (smallest); default 6
  --xsl URL             add <?xml-stylesheet type="text/xsl" href="URL"?>
  --no-dedupe           do not drop repeated URLs (saves ~16 bytes of memory per URL)
  --no-scope            do not reject URLs outside --base-url (for cross-site
                        submission authorised in robots.txt)
  --json                print the summary as JSON on standard output
  -q, --quiet           no progress line and no summary; problems still go to stderr
  -h, --help            this help

Output is atomic, with one commit point: the set is written to a temporary
directory inside DIR; its children go in under new names (named by their
content, they never replace a file the old index names), then the entry file is
renamed over the old one, then the files it no longer names are removed. A run
stopped at any point leaves the old set or the new one, never a mix.

Problems go to standard error, one per line: FILE:LINE: error CODE reason (a
rejected line) or FILE:LINE: warning CODE reason (written, but not as the input
said: a bad optional field left out, a #fragment dropped, a lastmod in the
future, an hreflang that is no BCP 47 tag). On a terminal each code is shown 5
times per file, then counted, and lines are cut to the width.

Exit status: 0 every input entry was written as given (repeats count as
written; --include/--exclude leave entries out without a problem), 1 some lines
were rejected or warned about, 2 usage or fatal error, 130 interrupted.

Examples:
  sitemapkit generate urls.txt --base-url https://www.example.com/ --out public/
  sitemapkit generate pages.csv --base-url https://example.com/ --out dist --max-urls 10000
  cat urls.txt | sitemapkit generate - --base-url https://example.com/ --out out --json
`;

const OPTIONS = {
  'base-url': { type: 'string' },
  out: { type: 'string' },
  'input-format': { type: 'string' },
  columns: { type: 'string' },
  lastmod: { type: 'string' },
  changefreq: { type: 'string' },
  priority: { type: 'string' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  strict: { type: 'boolean' },
  name: { type: 'string' },
  index: { type: 'string' },
  profile: { type: 'string' },
  'max-urls': { type: 'string' },
  'max-bytes': { type: 'string' },
  'no-gzip': { type: 'boolean' },
  'gzip-level': { type: 'string' },
  xsl: { type: 'string' },
  'no-dedupe': { type: 'boolean' },
  'no-scope': { type: 'boolean' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runGenerate(argv: string[], io: CliIo): Promise<number> {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (error) {
    return usage(io, (error as Error).message);
  }
  if (values.help === true) {
    io.stdout.write(GENERATE_HELP);
    return EXIT_OK;
  }

  let inputFormat: InputFormat | undefined;
  let indexMode: IndexMode | undefined;
  let profile: 'current' | 'legacy' | undefined;
  let maxUrls: number | undefined;
  let maxBytes: number | undefined;
  let gzipLevel: number | undefined;
  let columns: ColumnMapping | undefined;
  let defaults: EntryDefaults;
  // "now" for --lastmod now and for lastmod in the future: the run's start, to the second.
  const startedAt = Math.floor(Date.now() / 1000) * 1000;
  try {
    if (values['base-url'] === undefined) throw new UsageError('--base-url URL is required (where the sitemaps will be served, e.g. https://www.example.com/)');
    if (values.out === undefined) throw new UsageError('--out DIR is required');
    if (positionals.length === 0) throw new UsageError('no input: give one or more files, or - for standard input');
    inputFormat = choice(values['input-format'], '--input-format', ['text', 'csv', 'tsv', 'jsonl'] as const);
    indexMode = choice(values.index, '--index', ['auto', 'always', 'never'] as const);
    profile = choice(values.profile, '--profile', ['current', 'legacy'] as const);
    maxUrls = positiveInteger(values['max-urls'], '--max-urls');
    maxBytes = positiveInteger(values['max-bytes'], '--max-bytes');
    gzipLevel = positiveInteger(values['gzip-level'], '--gzip-level');
    if (gzipLevel !== undefined && gzipLevel > 9) throw new UsageError('--gzip-level must be 1 to 9');
    if (gzipLevel !== undefined && values['no-gzip'] === true) throw new UsageError('--gzip-level and --no-gzip contradict each other');
    if (positionals.filter((p) => p === '-').length > 1) throw new UsageError('standard input (-) can be read only once');
    if (values.columns !== undefined) {
      try {
        columns = parseColumnMapping(values.columns);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    }
    defaults = entryDefaults(values, startedAt);
  } catch (error) {
    if (error instanceof UsageError) return usage(io, error.message);
    throw error;
  }

  const formats = new Map<string, InputFormat | 'auto'>();
  try {
    for (const path of positionals) formats.set(path, inputFormat ?? detectInputFormat(path));
  } catch (error) {
    return usage(io, (error as Error).message);
  }

  let keepPath: ((path: string) => boolean) | undefined;
  try {
    keepPath = await pathFilter(values.include ?? [], values.exclude ?? []);
  } catch (error) {
    // picomatch refuses an empty glob.
    return usage(io, `--include/--exclude: ${(error as Error).message}`);
  }
  const policy = new EntryPolicy({ defaults, strict: values.strict === true, now: startedAt, ...(keepPath !== undefined ? { keepPath } : {}) });

  const quiet = values.quiet === true;
  const json = values.json === true;
  const positions = new WeakMap<UrlEntry, InputRecord>();
  let inputErrors = 0;
  let problems = 0;
  let warnings = 0;
  let excluded = 0;
  let lastProgress: WriteProgress | undefined;
  const progress = Progress.onTerminal(io.stderr, !quiet && !json, () => (lastProgress !== undefined ? progressLine(lastProgress) : 'generating…'));
  const printer = ProblemPrinter.for(io.stderr, { progress });
  // A rejected line: an error (its code, when the reader gave one).
  const report = (file: string, line: number | undefined, message: string, code?: string): void => {
    problems++;
    printer.print({ severity: 'error', message, file, ...(line !== undefined ? { line } : {}), ...(code !== undefined ? { code } : {}) });
  };
  const warnAt = (file: string, line: number | undefined, code: string, message: string): void => {
    printer.print({ severity: 'warning', code, message, file, ...(line !== undefined ? { line } : {}) });
  };
  // Warnings about an entry: the written sitemap says something else than the input (exit status 1).
  // The entry is looked up only when there is something to say.
  let current: UrlEntry | undefined;
  const warnEntry = (code: string, message: string): void => {
    warnings++;
    const at = current === undefined ? undefined : positions.get(current);
    warnAt(at?.file ?? '<input>', at?.line, code, message);
  };
  // Ignored input (unknown columns and fields), once per file: a note, not a problem in the output.
  const onInputWarning = (w: InputWarning): void => warnAt(w.file, w.line, w.code, w.message);

  async function* entries(): AsyncGenerator<UrlEntry[]> {
    for (const path of positionals) {
      const records = readInput(path, formats.get(path) as InputFormat | 'auto', {
        cwd: io.cwd,
        ...(io.stdin !== undefined ? { stdin: io.stdin } : {}),
        onWarning: onInputWarning,
        ...(columns !== undefined ? { columns } : {}),
      });
      for await (const batch of records) {
        const out: UrlEntry[] = [];
        for (const record of batch) {
          if (record.entry !== undefined) {
            positions.set(record.entry, record);
            out.push(record.entry);
          } else {
            inputErrors++;
            report(record.file, record.line, record.error ?? 'unreadable line', record.code);
          }
        }
        yield out;
      }
    }
  }

  const controller = new AbortController();
  let interrupted = false;
  const removeHandler = io.onInterrupt?.(() => {
    interrupted = true;
    controller.abort(new SitemapError('ERR_SITEMAP_ABORTED', 'interrupted'));
  });

  let summary: WriteSummary;
  try {
    summary = await writeSitemaps(entries(), {
      outDir: resolve(io.cwd, values.out as string),
      baseUrl: values['base-url'] as string,
      enforceScope: values['no-scope'] !== true,
      ...(values.name !== undefined ? { name: values.name } : {}),
      gzip: values['no-gzip'] !== true,
      ...(gzipLevel !== undefined ? { gzipLevel } : {}),
      ...(indexMode !== undefined ? { index: indexMode } : {}),
      ...(profile !== undefined ? { profile } : {}),
      ...(maxUrls !== undefined ? { maxUrls } : {}),
      ...(maxBytes !== undefined ? { maxBytes } : {}),
      ...(values.xsl !== undefined ? { xslUrl: values.xsl } : {}),
      dedupe: values['no-dedupe'] !== true,
      signal: controller.signal,
      onInvalid: (error: InvalidValueError, entry: UrlEntry) => {
        const at = positions.get(entry);
        report(at?.file ?? '<input>', at?.line, error.message, error.code);
      },
      replaceInvalid: (error: InvalidValueError, entry: UrlEntry) => {
        current = entry;
        return policy.replace(error, entry, warnEntry);
      },
      prepare: (entry: UrlEntry) => {
        current = entry;
        if (policy.prepare(entry, warnEntry)) return true;
        excluded++;
        return false;
      },
      ...(progress.active
        ? {
            onProgress: (p: WriteProgress) => {
              lastProgress = p;
              progress.tick();
            },
          }
        : {}),
    });
  } catch (error) {
    progress.clear();
    if (interrupted) {
      io.stderr.write('sitemapkit: interrupted; the previous sitemaps were left as they were\n');
      return EXIT_INTERRUPTED;
    }
    printer.finish();
    if (error instanceof SitemapError && error.code === 'ERR_SITEMAP_EMPTY' && (problems > 0 || excluded > 0)) {
      // The writer saw no entry; the reader or the filters took them all.
      const why = problems > 0 ? `every entry was rejected (${plural(problems, 'problem')} above)` : `--include/--exclude left out all ${plural(excluded, 'URL')}`;
      io.stderr.write(`sitemapkit: no URL could be written: ${why}\n`);
      return problems > 0 ? EXIT_PROBLEMS : EXIT_FATAL;
    }
    if (error instanceof SitemapError) {
      io.stderr.write(`sitemapkit: ${error.message}\n`);
      return error.code === 'ERR_SITEMAP_EMPTY' && problems > 0 ? EXIT_PROBLEMS : EXIT_FATAL;
    }
    throw error;
  } finally {
    removeHandler?.();
  }
  progress.clear();
  printer.finish();
  const rejected = summary.rejected + inputErrors;
  if (json) {
    io.stdout.write(JSON.stringify({ ...summary, rejected, warnings, excluded, ok: rejected === 0 && warnings === 0 }, null, 2) + '\n');
  } else if (!quiet) {
    io.stdout.write(humanSummary(summary, rejected, warnings, excluded));
  }
  return rejected > 0 || warnings > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

/**
 * Defaults for entries that lack a field, each validated by the writer as the field itself would be;
 * `--lastmod now` is `now` as a W3C Datetime (UTC, to the second). A default in the future is refused.
 */
function entryDefaults(values: { lastmod?: string | undefined; changefreq?: string | undefined; priority?: string | undefined }, now: number): EntryDefaults {
  const defaults: EntryDefaults = {};
  if (values.lastmod !== undefined) defaults.lastmod = values.lastmod.trim().toLowerCase() === 'now' ? new Date(now).toISOString().replace('.000Z', 'Z') : values.lastmod;
  if (values.changefreq !== undefined) defaults.changefreq = values.changefreq as EntryDefaults['changefreq'];
  if (values.priority !== undefined) defaults.priority = values.priority;
  const serializer = new UrlEntrySerializer({ limits: LIMITS_PROFILES.current });
  for (const field of ['lastmod', 'changefreq', 'priority'] as const) {
    if (defaults[field] === undefined) continue;
    try {
      serializer.serialize({ loc: 'https://example.com/', [field]: defaults[field] }, 0);
    } catch (error) {
      if (error instanceof SitemapError) throw new UsageError(`--${field}: ${error.message}`);
      throw error;
    }
    if (field === 'lastmod' && serializer.lastmodMs > now + FUTURE_LEEWAY_MS) {
      throw new UsageError(`--lastmod ${JSON.stringify(values.lastmod)} is in the future; give the date the pages last changed, or now`);
    }
  }
  return defaults;
}

function progressLine(p: WriteProgress): string {
  const rate = ratePerSecond(p.urls, p.elapsedMs);
  return `generating: ${formatCount(p.urls)} URLs, ${plural(p.files, 'file')}, ${formatCount(rate)} URLs/s` + (p.rejected > 0 ? `, ${formatCount(p.rejected)} rejected` : '');
}

function humanSummary(s: WriteSummary, rejected: number, warnings: number, excluded: number): string {
  const lines: string[] = [];
  const files = s.indexed ? `${plural(s.sitemaps.length, 'sitemap')} and an index` : plural(s.sitemaps.length, 'sitemap');
  lines.push(`Wrote ${plural(s.urls, 'URL')} in ${files} to ${s.outDir} (${formatBytes(s.bytes)} of XML, ${formatBytes(s.diskBytes)} on disk) in ${formatDuration(s.durationMs)}.`);
  if (s.entryFile !== undefined) {
    lines.push(`  entry file: ${s.entryFile.path}` + (s.entryFile.loc !== undefined ? ` (submit ${s.entryFile.loc}, or add "Sitemap: ${s.entryFile.loc}" to robots.txt)` : ''));
  }
  const shown = s.sitemaps.length <= 10 ? s.sitemaps : [...s.sitemaps.slice(0, 5), undefined, ...s.sitemaps.slice(-3)];
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
  if (s.removed.length > 0) lines.push(`  removed from an earlier run: ${s.removed.join(', ')}`);
  return lines.join('\n') + '\n';
}

function usage(io: CliIo, message: string): number {
  return usageFailure(io, 'generate', message);
}
