// `generate`'s inputs (files or stdin, plain or gzip; text, CSV, TSV or JSON Lines): streamed, gunzipped,
// decoded and split into lines here, parsed by src/core/input.

import { createReadStream } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { SitemapError } from '../core/errors.js';
import type { UrlEntry } from '../core/model.js';
import { locProblem, parseTextLine, sniffInputFormat } from '../core/input/text.js';
import { splitTsvLine } from '../core/input/tsv.js';
import { StreamDecoder } from '../core/read/decode.js';
import { CsvParser, KNOWN_COLUMNS, csvHeader, csvRecordToEntry, type ColumnMapping, type CsvColumns } from '../core/input/csv.js';
import { parseJsonLine } from '../core/input/jsonl.js';
import { ioErrorReason, rethrowing } from './io-errors.js';
import { decompressed } from './decompress.js';

export type InputFormat = 'text' | 'csv' | 'tsv' | 'jsonl';

/** Why an input line was skipped (docs/rules.md "Input"). */
export type InputErrorCode = 'input/text' | 'input/csv' | 'input/jsonl' | 'input/encoding' | 'input/line-too-long';

/** One input record: an entry, or an `error` (with its `code`) for a line that was skipped. `line` is 1-based. */
export interface InputRecord {
  entry?: UrlEntry;
  error?: string;
  code?: InputErrorCode;
  /** The path as the user gave it; stdin is `<stdin>`. */
  file: string;
  line: number;
}

/** Input read but ignored, reported once per file (docs/rules.md "Input"). */
export type InputWarningCode = 'input/unknown-column' | 'input/unknown-field' | 'input/no-records';

export interface InputWarning {
  code: InputWarningCode;
  message: string;
  /** The path as the user gave it; stdin is `<stdin>`. */
  file: string;
  /** 1-based: the header line, or the first line with the field. */
  line: number;
}

export interface ReadInputOptions {
  /** Read for the path `-`; defaults to `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
  /** The bytes of `path` when it names no file: a URL's response body (`queue generate URL`). */
  body?: AsyncIterable<Uint8Array>;
  /** Base for relative paths; defaults to `process.cwd()`. */
  cwd?: string;
  /** Input that is ignored: unknown CSV/TSV columns, unknown JSON Lines fields; each once per file; a CSV/TSV header without records. */
  onWarning?: (warning: InputWarning) => void;
  /** Which CSV/TSV header names hold the known columns (`--columns`); others are found by their common names. */
  columns?: ColumnMapping;
  /** With the format `auto`: the format the content was recognised as, before its first record. */
  onFormat?: (format: InputFormat) => void;
}

const CHUNK = 256 * 1024;
/** A line (a CSV record) longer than this is reported and skipped rather than buffered further. */
const MAX_LINE = 8 * 1024 * 1024;
const INVALID_UTF8 = 'invalid UTF-8 (or U+FFFD) in the line; it was skipped';

const EXTENSIONS: Readonly<Record<string, InputFormat>> = {
  '': 'text',
  '.txt': 'text',
  '.lst': 'text',
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.tab': 'tsv',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
};

/**
 * The input format a path's extension implies (a `.gz` suffix ignored; none: text; `-`: `auto`, by content).
 * Throws `ERR_SITEMAP_INPUT_FORMAT` for any other extension.
 */
export function detectInputFormat(path: string): InputFormat | 'auto' {
  if (path === '-') return 'auto';
  const name = basename(path).replace(/\.gz$/i, '');
  const ext = extname(name).toLowerCase();
  const format = Object.hasOwn(EXTENSIONS, ext) ? EXTENSIONS[ext] : undefined;
  if (format === undefined) {
    throw new SitemapError(
      'ERR_SITEMAP_INPUT_FORMAT',
      `cannot tell the input format of ${path} from its extension "${ext}"; use --input-format text|csv|tsv|jsonl${ext === '.xml' ? `, or for a sitemap's URLs sitemapkit read ${path} | sitemapkit generate -` : ''}`,
    );
  }
  return format;
}

/**
 * The `--include` / `--exclude` test on URL paths without their leading `/` (core/input/entry-policy.ts),
 * with build's glob semantics (picomatch, `dot`). Undefined when no glob is given.
 */
export async function pathFilter(include: readonly string[], exclude: readonly string[]): Promise<((path: string) => boolean) | undefined> {
  if (include.length === 0 && exclude.length === 0) return undefined;
  // A CommonJS package: only runs with globs pay for Node's CommonJS loader.
  const picomatch = (await import('picomatch')).default;
  const compile = (globs: readonly string[]): ((path: string) => boolean) | undefined =>
    globs.length === 0 ? undefined : picomatch(globs.map((glob) => (glob.startsWith('/') ? glob.slice(1) : glob)), { dot: true });
  const included = compile(include);
  const excluded = compile(exclude);
  return (path) => (included === undefined || included(path)) && (excluded === undefined || !excluded(path));
}

/** Chunks as bytes (stdin in text mode, or a test's Readable.from([...strings]), yields strings). */
async function* bytesOf(source: AsyncIterable<unknown>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Uint8Array);
}

/** Rethrows I/O and gzip failures as one-line `ERR_SITEMAP_INPUT` errors. */
function guarded(source: AsyncIterable<Uint8Array>, file: string): AsyncGenerator<Uint8Array> {
  return rethrowing(source, (error) => {
    // A fetched body's failure says already what could not be read (fetch-sitemap.ts); gunzip's (a rule) does not.
    if (error instanceof SitemapError && error.code === 'ERR_SITEMAP_INPUT' && (error.rule === undefined || error.rule.startsWith('fetch/'))) return error;
    return new SitemapError('ERR_SITEMAP_INPUT', `cannot read ${file}: ${ioErrorReason(error)}`);
  });
}

/** Splits text into lines at LF (a CR before it removed) and, with `crEndsLines` (not JSON Lines), a lone CR. */
class LineSplitter {
  private carry = '';
  private line = 0;
  private overlong = false;
  /** The last chunk ended with a CR: a LF that starts the next one ends the same line. */
  private afterCr = false;
  constructor(
    private readonly onLine: (line: string, number: number) => void,
    private readonly onOverlong: (number: number) => void,
    private readonly crEndsLines = true,
  ) {}

  push(chunk: string): void {
    let text = chunk;
    if (this.afterCr && text.charCodeAt(0) === 0x0a) text = text.slice(1);
    if (this.crEndsLines && text.includes('\r')) {
      this.afterCr = text.charCodeAt(text.length - 1) === 0x0d;
      text = text.replace(/\r\n?/g, '\n');
    } else this.afterCr = false;
    let nl = text.indexOf('\n');
    if (nl === -1) {
      this.append(text);
      return;
    }
    this.take(this.carry + text.slice(0, nl));
    this.carry = '';
    let start = nl + 1;
    while ((nl = text.indexOf('\n', start)) !== -1) {
      this.take(text.slice(start, nl));
      start = nl + 1;
    }
    this.append(text.slice(start));
  }

  end(): void {
    if (this.carry.length > 0 || this.overlong) this.take(this.carry);
    this.carry = '';
  }

  private append(text: string): void {
    if (this.overlong) return;
    this.carry += text;
    if (this.carry.length > MAX_LINE) {
      this.overlong = true;
      this.carry = '';
    }
  }

  private take(line: string): void {
    const number = ++this.line;
    if (this.overlong || line.length > MAX_LINE) {
      this.overlong = false;
      this.onOverlong(number);
      return;
    }
    this.onLine(line.length > 0 && line.charCodeAt(line.length - 1) === 0x0d ? line.slice(0, -1) : line, number);
  }
}

interface Sink {
  push(text: string): void;
  end(): void;
}

const FORMAT_OPTION: Readonly<Record<Exclude<InputFormat, 'text'>, string>> = {
  csv: 'CSV (a header naming a loc column): use --input-format csv',
  tsv: 'TSV (a header naming a loc column): use --input-format tsv',
  jsonl: 'JSON Lines: use --input-format jsonl',
};

/** A record of a CSV, TSV or JSON Lines input: the entry `read` makes, or why it makes none or its loc cannot be written (as for a text line). */
function pageRecord(read: () => UrlEntry, code: InputErrorCode, file: string, line: number): InputRecord {
  try {
    const entry = read();
    const problem = locProblem(entry.loc);
    return problem === undefined ? { entry, file, line } : { error: problem, code, file, line };
  } catch (error) {
    if (!(error instanceof SitemapError)) throw error;
    return { error: error.message, code, file, line };
  }
}

/** What a line longer than MAX_LINE becomes: a record that says it was skipped. */
function overlongLine(file: string, out: () => InputRecord[]): (line: number) => void {
  return (line) => out().push({ error: `line longer than ${MAX_LINE} characters; it was skipped`, code: 'input/line-too-long', file, line });
}

function textSink(file: string, out: () => InputRecord[], suspect: () => boolean): Sink {
  let first = true;
  return new LineSplitter(
    (line, number) => {
      const read = parseTextLine(line);
      if (read === undefined) return;
      if (first) {
        first = false;
        // A CSV/TSV header or JSON object first: stop, rather than turn its records into URLs.
        const format = sniffInputFormat(line);
        if (format !== 'text') throw new SitemapError('ERR_SITEMAP_INPUT_FORMAT', `${file}:${number}: this text input looks like ${FORMAT_OPTION[format]}`);
        // An XML sitemap, index or feed: its lines that are URLs (a pretty-printed loc, an index's children) are no pages to list.
        if (/^\s*<(?!https?:)[?!a-z]/i.test(line)) {
          throw new SitemapError('ERR_SITEMAP_INPUT_FORMAT', `${file}:${number}: this text input looks like XML (a sitemap?); generate reads lists of URLs: take a sitemap's URLs with sitemapkit read FILE | sitemapkit generate -`);
        }
        // A header naming no loc column too: `https://e.com/a,2024-01-01` is a URL.
        if (read.error !== undefined && /[,;\t]/.test(line) && !/^\s*(?:https?:|\/)/i.test(line)) {
          throw new SitemapError('ERR_SITEMAP_INPUT_FORMAT', `${file}:${number}: this text input starts with a line that is no URL but has the commas, semicolons or tabs of a CSV or TSV header: use --input-format csv or tsv, with --columns loc=NAME`);
        }
      }
      if (read.error !== undefined) out().push({ error: read.error, code: 'input/text', file, line: number });
      else if (suspect() && read.loc.includes('\uFFFD')) out().push({ error: INVALID_UTF8, code: 'input/encoding', file, line: number });
      else out().push({ entry: { loc: read.loc }, file, line: number });
    },
    overlongLine(file, out),
  );
}

/** Distinct unknown JSON Lines fields reported per file; past this, new ones are not reported (the memory stays bounded). */
const MAX_UNKNOWN_FIELDS = 100;

function jsonlSink(file: string, out: () => InputRecord[], suspect: () => boolean, onWarning?: (warning: InputWarning) => void): Sink {
  const reported = new Set<string>();
  let lineNumber = 0;
  // Once per file and field: `images[0].foo` and `images[3].foo` are one field.
  const onUnknownField = (path: string, suggestion: string | undefined): void => {
    const field = path.includes('[') ? path.replace(/\[\d+\]/g, '[]') : path;
    if (reported.has(field) || reported.size >= MAX_UNKNOWN_FIELDS) return;
    reported.add(field);
    onWarning?.({
      code: 'input/unknown-field',
      message: `unknown field "${field}" ignored${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}; the entry model's fields are in README "JSON Lines input"; not reported again for this file`,
      file,
      line: lineNumber,
    });
  };
  return new LineSplitter(
    (line, number) => {
      if (line.charCodeAt(0) !== 0x7b /* { */ && line.trim() === '') return;
      if (suspect() && line.includes('\uFFFD')) {
        out().push({ error: INVALID_UTF8, code: 'input/encoding', file, line: number });
        return;
      }
      lineNumber = number;
      out().push(pageRecord(() => parseJsonLine(line, onUnknownField), 'input/jsonl', file, number));
    },
    overlongLine(file, out),
    false,
  );
}

function tsvSink(file: string, out: () => InputRecord[], suspect: () => boolean, options: ReadInputOptions): Sink {
  return tableSink('TSV', file, out, options, (record) =>
    new LineSplitter(
      (line, number) => record(splitTsvLine(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line), number, suspect() && line.includes('\uFFFD')),
      overlongLine(file, out),
    ),
  );
}

function csvSink(file: string, out: () => InputRecord[], suspect: () => boolean, options: ReadInputOptions): Sink {
  return tableSink('CSV', file, out, options, (record) =>
    new CsvParser({
      onRecord: (fields, line) => record(fields, line, suspect() && fields.some((f) => f.includes('\uFFFD'))),
      onError(message, line, tooLong) {
        out().push({ error: message, code: tooLong === true ? 'input/line-too-long' : 'input/csv', file, line });
      },
    }, MAX_LINE),
  );
}

/** Unknown columns named in a warning; the rest are counted (a crawler's export has dozens). */
const NAMED_COLUMNS = 8;

type TableRecord = (fields: string[], line: number, invalidUtf8: boolean) => void;

/** A CSV or TSV input: `splitter` hands its records to `record`, the header first. */
function tableSink(kind: 'CSV' | 'TSV', file: string, out: () => InputRecord[], options: ReadInputOptions, splitter: (record: TableRecord) => Sink): Sink {
  let columns: CsvColumns | undefined;
  // The header's line while no record has followed it: an export of nothing is not an empty input.
  let headerOnly = 0;
  const records = splitter((fields, line, invalidUtf8) => {
    // An empty row (a line of spaces, a spreadsheet's ",,,") is a blank line, skipped as in a text input.
    if (fields.every((field) => field.trim() === '')) return;
    if (columns === undefined) {
      try {
        columns = csvHeader(fields, kind, options.columns);
      } catch (error) {
        if (error instanceof SitemapError) throw new SitemapError(error.code, `${file}:${line}: ${error.message}`, error.rule);
        throw error;
      }
      warnUnknownColumns(kind, file, line, columns, options.onWarning);
      headerOnly = line;
      return;
    }
    headerOnly = 0;
    if (invalidUtf8) {
      out().push({ error: 'invalid UTF-8 (or U+FFFD) in the record; it was skipped', code: 'input/encoding', file, line });
      return;
    }
    out().push(pageRecord(() => csvRecordToEntry(fields, columns as CsvColumns, kind), 'input/csv', file, line));
  });
  return {
    push: (text) => records.push(text),
    end(): void {
      records.end();
      if (columns === undefined) {
        const header = kind === 'CSV' ? 'loc,lastmod,changefreq,priority' : 'loc<TAB>lastmod<TAB>changefreq<TAB>priority';
        throw new SitemapError('ERR_SITEMAP_INPUT_FORMAT', `${file}: empty ${kind} input; expected a header line such as ${header}`, 'input/csv-header');
      }
      if (headerOnly > 0) options.onWarning?.({ code: 'input/no-records', message: `the ${kind} has a header and no records`, file, line: headerOnly });
    },
  };
}

function warnUnknownColumns(kind: 'CSV' | 'TSV', file: string, line: number, columns: CsvColumns, onWarning?: (warning: InputWarning) => void): void {
  const unknown = columns.unknown;
  if (unknown.length === 0) return;
  const names = unknown.slice(0, NAMED_COLUMNS).map((n) => JSON.stringify(n)).join(', ') + (unknown.length > NAMED_COLUMNS ? ` and ${unknown.length - NAMED_COLUMNS} more` : '');
  onWarning?.({
    code: 'input/unknown-column',
    message: `unknown ${kind} column${unknown.length === 1 ? '' : 's'} ${names} ignored (known: ${KNOWN_COLUMNS.join(', ')}; name one with --columns lastmod=NAME)`,
    file,
    line,
  });
}

/** Holds the text until its first line that is not blank is complete, then hands it all to the sink of its format. */
function sniffingSink(makeSink: (format: InputFormat) => Sink, locName: string | undefined, onFormat?: (format: InputFormat) => void): Sink {
  let held = '';
  let sink: Sink | undefined;
  const choose = (): Sink => {
    const firstLine = held.split('\n').find((line) => line.trim() !== '') ?? '';
    const format = sniffInputFormat(firstLine, locName);
    onFormat?.(format);
    sink = makeSink(format);
    if (held.length > 0) sink.push(held);
    held = '';
    return sink;
  };
  return {
    push(text) {
      if (sink !== undefined) {
        sink.push(text);
        return;
      }
      held += text;
      // Decided once a line with something on it has ended (or the held text is as long as a line may be).
      const start = held.search(/\S/);
      if ((start !== -1 && held.indexOf('\n', start) !== -1) || held.length > MAX_LINE) choose();
    },
    end() {
      (sink ?? choose()).end();
    },
  };
}

/**
 * Reads one input (a path, or '-' for `stdin`) and yields its records in batches, one per chunk. With
 * `auto` the first line that is not blank decides: `{` JSON Lines, a header naming `loc` CSV or TSV, else
 * text. gzip is found by magic bytes; UTF-16 by its BOM (Excel's "Unicode Text") or the byte pattern of its first two characters (core/read/sniff.ts), else UTF-8. A bad line
 * is a record with `error`. Throws `ERR_SITEMAP_INPUT` when unreadable, `ERR_SITEMAP_INPUT_FORMAT` for a
 * CSV/TSV input without a usable header or a text input that starts like another format.
 */
export async function* readInput(path: string, format: InputFormat | 'auto', options: ReadInputOptions = {}): AsyncGenerator<InputRecord[]> {
  const file = path === '-' ? '<stdin>' : path;
  let batch: InputRecord[] = [];
  let suspicious = false;
  const out = (): InputRecord[] => batch;
  const suspect = (): boolean => suspicious;
  const makeSink = (chosen: InputFormat): Sink => {
    switch (chosen) {
      case 'text':
        return textSink(file, out, suspect);
      case 'csv':
        return csvSink(file, out, suspect, options);
      case 'tsv':
        return tsvSink(file, out, suspect, options);
      case 'jsonl':
        return jsonlSink(file, out, suspect, options.onWarning);
      default:
        throw new SitemapError('ERR_SITEMAP_OPTION', `unknown input format ${JSON.stringify(chosen)}; expected text, csv, tsv, jsonl or auto`);
    }
  };
  const sink = format === 'auto' ? sniffingSink(makeSink, options.columns?.loc, options.onFormat) : makeSink(format);

  const source: AsyncIterable<unknown> =
    options.body ??
    (path === '-' ? ((options.stdin ?? process.stdin) as AsyncIterable<unknown>) : createReadStream(resolve(options.cwd ?? process.cwd(), path), { highWaterMark: CHUNK }));
  // A window of 4 bytes: the BOM or the UTF-16 pattern decides, as for a sitemap; the declaration is XML's.
  const decoder = new StreamDecoder(4);

  // A URL list has no size limit. Bytes after the gzip data may be lines appended (`echo URL >> urls.gz`):
  // they fail the list rather than go unread.
  const gunzip = {
    maxBytes: Number.MAX_SAFE_INTEGER,
    maxCompressedBytes: Number.MAX_SAFE_INTEGER,
    onDiagnostic: (): never => {
      throw new SitemapError('ERR_SITEMAP_INPUT', 'bytes after the end of the gzip data that are not gzip (lines appended to the compressed file?)', 'gzip/trailing-garbage');
    },
  };
  for await (const bytes of guarded(decompressed(bytesOf(source), gunzip), file)) {
    const text = decoder.write(bytes);
    if (!suspicious && text.includes('\uFFFD')) suspicious = true;
    // Half a UTF-16 code unit decodes to nothing: no chunk to the sink, which would forget a CR before it.
    if (text.length > 0) sink.push(text);
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
  }
  const tail = decoder.end();
  if (tail.includes('\uFFFD')) suspicious = true;
  if (tail.length > 0) sink.push(tail);
  sink.end();
  if (batch.length > 0) yield batch;
}
