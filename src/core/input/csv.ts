// CSV input (RFC 4180): an incremental record parser and the mapping of records to entries.
// Quoted fields may hold commas, doubled quotes and line breaks; records end with LF, CRLF or a lone
// CR (old Mac spreadsheets' "CSV (Macintosh)" export). A first line `sep=;` (Excel's) names another separator.

import { parseHttpDate } from '../datetime.js';
import { SitemapError, plural } from '../errors.js';
import type { Changefreq, UrlEntry } from '../model.js';

export interface CsvParserHandlers {
  /** A complete record. `line` is the 1-based line the record starts on. Blank lines are not records. */
  onRecord(fields: string[], line: number): void;
  /**
   * A malformed record, skipped. `line`: the bad character's, or the record's for an unterminated quote
   * or one longer than `maxRecordLength` (`tooLong`).
   */
  onError(message: string, line: number, tooLong?: boolean): void;
}

const enum State {
  FieldStart,
  Unquoted,
  Quoted,
  /** A `"` inside a quoted field: either the first of a doubled quote or the closing quote. */
  QuoteInQuoted,
  AfterClose,
  /** A CR ended the record: a LF right after it belongs to the same line end. */
  AfterRecordCr,
  /** Skipping the rest of a malformed record, up to the next line end. */
  Skip,
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const UNQUOTED_SPECIAL = /[,\n\r"]/g;
const LINE_END = /[\n\r]/g;

/**
 * An incremental RFC 4180 parser: `push(text)` chunks split anywhere (the result does not depend on
 * where), then `end()`; handlers hear of records and errors synchronously, in order. A leading BOM is
 * dropped; outside quotes a CR ends the record (with the LF after it, if any); inside quotes it is kept.
 */
export class CsvParser {
  private state = State.FieldStart;
  private fields: string[] = [];
  private field = '';
  /** Current 1-based line. */
  private line = 1;
  /** Line the current record starts on. */
  private recordLine = 1;
  private started = false;
  private ended = false;
  /** Characters of the current record's fields before the one being read (with their commas). */
  private held = 0;
  /** The current record passed maxRecordLength: its text is dropped as it comes, and it is reported, not emitted. */
  private overlong = false;
  /** The field separator, a comma unless a `sep=X` first line names another. */
  private separator = ',';
  private unquotedSpecial = UNQUOTED_SPECIAL;

  /** `maxRecordLength`: a record longer than this (in characters) is skipped with an error, its text not kept. */
  constructor(
    private readonly handlers: CsvParserHandlers,
    private readonly maxRecordLength = Number.POSITIVE_INFINITY,
  ) {}

  // eslint-disable-next-line max-lines-per-function -- one loop whose states (RFC 4180 quoting) share the position, the field and the record's line
  push(text: string): void {
    if (this.ended) throw new SitemapError('ERR_SITEMAP_API', 'CsvParser.push() called after end()');
    let i = 0;
    const n = text.length;
    if (!this.started && n > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    while (i < n) {
      switch (this.state) {
        case State.FieldStart: {
          // Fast path: a whole record without quotes in this chunk is split in one go.
          if (this.fields.length === 0) {
            const j = text.indexOf('\n', i);
            if (j !== -1) {
              const segment = text.slice(i, j);
              const cr = segment.indexOf('\r');
              if (segment.indexOf('"') === -1 && (cr === -1 || cr === segment.length - 1)) {
                i = j + 1;
                const end = segment.length > 0 && segment.charCodeAt(segment.length - 1) === CR ? segment.length - 1 : segment.length;
                if (end > 0) {
                  this.fields = (end === segment.length ? segment : segment.slice(0, end)).split(this.separator);
                  this.emit();
                }
                this.line++;
                this.recordLine = this.line;
                break;
              }
            }
          }
          if (text.charCodeAt(i) === QUOTE) {
            this.state = State.Quoted;
            i++;
          } else {
            this.state = State.Unquoted;
          }
          break;
        }
        case State.Unquoted: {
          const special = this.unquotedSpecial;
          special.lastIndex = i;
          const m = special.exec(text);
          const j = m === null ? n : m.index;
          if (j > i) this.field += text.slice(i, j);
          if (j === n) {
            i = n;
            break;
          }
          i = j + 1;
          this.afterField(text.charCodeAt(j), 'stray quote in an unquoted field (quote the whole field and double the quote)');
          break;
        }
        case State.Quoted: {
          const j = text.indexOf('"', i);
          const end = j === -1 ? n : j;
          if (end > i) {
            const part = text.slice(i, end);
            // Lines end inside quotes as outside: LF, CRLF (cut between chunks too: the field holds its CR), a lone CR.
            LINE_END.lastIndex = 0;
            for (let m = LINE_END.exec(part); m !== null; m = LINE_END.exec(part)) {
              if (part.charCodeAt(m.index) === CR || (m.index > 0 ? part.charCodeAt(m.index - 1) : this.field.charCodeAt(this.field.length - 1)) !== CR) this.line++;
            }
            this.field += part;
          }
          if (j === -1) i = n;
          else {
            this.state = State.QuoteInQuoted;
            i = j + 1;
          }
          break;
        }
        case State.QuoteInQuoted:
          if (text.charCodeAt(i) === QUOTE) {
            this.field += '"';
            this.state = State.Quoted;
            i++;
          } else {
            this.state = State.AfterClose;
          }
          break;
        case State.AfterClose:
          this.afterField(text.charCodeAt(i++), 'unexpected character after a closing quote (expected a comma or the end of the line)');
          break;
        case State.AfterRecordCr:
          if (text.charCodeAt(i) === LF) i++;
          this.state = State.FieldStart;
          break;
        case State.Skip: {
          LINE_END.lastIndex = i;
          const m = LINE_END.exec(text);
          if (m === null) i = n;
          else {
            i = m.index + 1;
            this.state = State.FieldStart;
            this.endLine(text.charCodeAt(m.index));
          }
          break;
        }
      }
    }
    if (this.held + this.field.length > this.maxRecordLength) {
      // A record still open at the end of a chunk is held until it ends: past the limit, its text is
      // dropped (one placeholder field keeps it an open record) while its end is still sought.
      this.overlong = true;
      this.fields = [''];
      this.field = '';
    }
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    const state = this.state;
    if (state === State.Quoted) {
      this.handlers.onError('unterminated quoted field at the end of the input', this.recordLine);
    } else if (state === State.QuoteInQuoted || state === State.AfterClose || ((state === State.FieldStart || state === State.Unquoted) && (this.fields.length > 0 || this.field.length > 0))) {
      // The last record without its line end (a field being read, or one ended by a separator).
      this.fields.push(this.field);
      this.emit();
    }
  }

  /** The character `c` after a field, unquoted or closed: a separator, a line end, or else `problem`. */
  private afterField(c: number, problem: string): void {
    if (c === this.separator.charCodeAt(0)) {
      this.held += this.field.length + 1;
      this.fields.push(this.field);
      this.field = '';
      this.state = State.FieldStart;
    } else if (c === LF || c === CR) {
      // A blank line (no field, not even a quoted empty one) is no record.
      if (this.state === State.Unquoted && this.fields.length === 0 && this.field.length === 0) this.nextRecord();
      else {
        this.fields.push(this.field);
        this.emit();
      }
      this.endLine(c);
    } else {
      // Malformed: the rest of the record is skipped, up to the next line end.
      this.nextRecord();
      this.state = State.Skip;
      this.handlers.onError(problem, this.line);
    }
  }

  /** A record ended at the LF or CR `c`, the current state already set: count the line. */
  private endLine(c: number): void {
    this.line++;
    this.recordLine = this.line;
    if (c === CR) this.state = State.AfterRecordCr;
  }

  private emit(): void {
    const fields = this.fields;
    const line = this.recordLine;
    const overlong = this.overlong;
    this.nextRecord();
    // Excel writes and reads a first line `sep=X`: X separates the fields, and the line is no record.
    const directive = line === 1 && !overlong ? /^sep=([^"\n\r])$/.exec(fields.join(this.separator)) : null;
    if (directive !== null) {
      this.separator = directive[1] as string;
      this.unquotedSpecial = new RegExp(`[\\u${this.separator.charCodeAt(0).toString(16).padStart(4, '0')}\\n\\r"]`, 'g');
    } else if (overlong) this.handlers.onError(`record longer than ${plural(this.maxRecordLength, 'character')}; it was skipped`, line, true);
    else this.handlers.onRecord(fields, line);
  }

  private nextRecord(): void {
    this.fields = [];
    this.field = '';
    this.state = State.FieldStart;
    this.held = 0;
    this.overlong = false;
  }
}

/** The known columns of a CSV input, as indexes into a record. */
export interface CsvColumns {
  loc: number;
  lastmod?: number;
  changefreq?: number;
  priority?: number;
  /** Number of columns in the header; every record must have as many fields. */
  count: number;
  /** Header names (trimmed, as written) that are not known columns; they are ignored. */
  unknown: string[];
}

export const KNOWN_COLUMNS = ['loc', 'lastmod', 'changefreq', 'priority'] as const;
export type KnownColumn = (typeof KNOWN_COLUMNS)[number];

/** `--columns loc=Address,lastmod="Last Modified"`: the header name (any case) that holds each known column. */
export type ColumnMapping = Partial<Record<KnownColumn, string>>;

/** Header names of the known columns (as `aliasKey` gives them): the element names, and crawler exports' names. */
const COLUMN_ALIASES: ReadonlyMap<string, KnownColumn> = new Map<string, KnownColumn>([
  ...KNOWN_COLUMNS.map((column) => [column, column] as const),
  ['url', 'loc'],
  ['address', 'loc'],
  ['lastmodified', 'lastmod'],
  ['changefrequency', 'changefreq'],
]);

/** A name as compared loosely (header aliases, JSON field suggestions): lower case, without spaces, `-` and `_`. */
export function aliasKey(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/** The known column a header name stands for, by its common names (see COLUMN_ALIASES), or undefined. */
export function knownColumnOf(name: string): KnownColumn | undefined {
  return COLUMN_ALIASES.get(aliasKey(name.trim()));
}

// A name in double quotes (a quote inside doubled), spaces around it: its text, and the closing quote if any.
const QUOTED_NAME = /^ *"((?:[^"]|"")*)("?) */;

/**
 * Reads `--columns`: comma-separated `COLUMN=NAME` pairs, COLUMN one of loc, lastmod, changefreq,
 * priority, NAME a header name, in double quotes when it holds a comma (`lastmod="Last, Modified"`,
 * `""` for a quote inside). Throws `SitemapError('ERR_SITEMAP_OPTION')` saying what is wrong.
 */
export function parseColumnMapping(text: string): ColumnMapping {
  const mapping: ColumnMapping = {};
  let i = 0;
  const usage = (message: string): never => {
    throw new SitemapError('ERR_SITEMAP_OPTION', `--columns ${JSON.stringify(text)}: ${message}; write e.g. loc=Address,lastmod="Last Modified"`);
  };
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq === -1) usage(`${JSON.stringify(text.slice(i))} has no "="`);
    const key = text.slice(i, eq).trim().toLowerCase();
    if (!(KNOWN_COLUMNS as readonly string[]).includes(key)) usage(`${JSON.stringify(key)} is not one of ${KNOWN_COLUMNS.join(', ')}`);
    let name: string;
    let j: number;
    const quoted = QUOTED_NAME.exec(text.slice(eq + 1));
    if (quoted !== null) {
      if (quoted[2] === '') usage('a quoted name has no closing quote');
      name = (quoted[1] as string).replaceAll('""', '"');
      j = eq + 1 + quoted[0].length;
      if (j < text.length && text.charCodeAt(j) !== COMMA) usage(`unexpected text after the quoted name "${name}"`);
    } else {
      j = text.indexOf(',', eq + 1);
      if (j === -1) j = text.length;
      name = text.slice(eq + 1, j);
    }
    name = name.trim();
    if (name === '') usage(`no header name for ${key}`);
    if (mapping[key as KnownColumn] !== undefined) usage(`${key} is mapped twice`);
    mapping[key as KnownColumn] = name;
    i = j + 1;
  }
  if (Object.keys(mapping).length === 0) usage('no mapping given');
  return mapping;
}

/** Why a TSV field in double quotes is refused, header or row alike: TSV has escapes, not quoting (text/tab-separated-values, docs/usage.md). */
function tsvQuoted(field: string): string {
  return `field ${JSON.stringify(field.trim())} is in double quotes, which TSV has not (a tab, newline or backslash in a value is written \\t, \\n, \\\\): save the file as CSV, or without quotes`;
}

/**
 * Maps a header record to column indexes, by `mapping` (any case) where it names a column, otherwise by
 * {@link knownColumnOf}. Throws `ERR_SITEMAP_INPUT_FORMAT` (`input/csv-header`) when there is no `loc`
 * column, a known column is found twice, or a mapped name is not in the header.
 */
export function csvHeader(fields: readonly string[], kind: 'CSV' | 'TSV' = 'CSV', mapping: ColumnMapping = {}): CsvColumns {
  const quoted = kind === 'TSV' ? fields.find((f) => f.trimStart().startsWith('"')) : undefined;
  if (quoted !== undefined) throw new SitemapError('ERR_SITEMAP_INPUT_FORMAT', `TSV header ${tsvQuoted(quoted)}`, 'input/csv-header');
  const found: Partial<Record<KnownColumn, number>> = {};
  const unknown: string[] = [];
  const mappedBy = new Map<string, KnownColumn>();
  for (const key of KNOWN_COLUMNS) {
    const name = mapping[key];
    if (name !== undefined) mappedBy.set(name.trim().toLowerCase(), key);
  }
  fields.forEach((raw, index) => {
    const name = raw.trim();
    const mapped = mappedBy.get(name.toLowerCase());
    const alias = knownColumnOf(name);
    // A mapped column is taken from its mapping only; an alias of it elsewhere is an ordinary column.
    const key = mapped ?? (alias !== undefined && mapping[alias] === undefined ? alias : undefined);
    if (key === undefined) {
      unknown.push(name);
      return;
    }
    const earlier = found[key];
    if (earlier !== undefined) {
      throw new SitemapError(
        'ERR_SITEMAP_INPUT_FORMAT',
        `${kind} header names column "${key}" twice (${JSON.stringify(fields[earlier]?.trim())}, column ${earlier + 1}, and ${JSON.stringify(name)}, column ${index + 1}); choose one with --columns ${key}=NAME`,
        'input/csv-header',
      );
    }
    found[key] = index;
  });
  const names = (): string => fields.map((f) => JSON.stringify(f.trim())).join(', ');
  for (const key of mappedBy.values()) {
    if (found[key] === undefined) {
      throw new SitemapError('ERR_SITEMAP_INPUT_FORMAT', `${kind} header has no column ${JSON.stringify(mapping[key])} for --columns ${key}=… (found ${names()})`, 'input/csv-header');
    }
  }
  if (found.loc === undefined) {
    // One field with another format's separators: a spreadsheet in a locale whose decimal mark is the comma
    // exports CSV separated by semicolons; Ahrefs exports tab-separated UTF-16 named .csv.
    const one = fields.length === 1 ? (fields[0] as string) : '';
    const why = kind === 'CSV' && one.includes(';') ? 'the header is separated by semicolons: save the file as CSV with commas, or put the line sep=; above it (as Excel does)'
      : kind === 'CSV' && one.includes('\t') ? 'the header is separated by tabs: use --input-format tsv'
      : kind === 'TSV' && one.includes(',') ? 'the header is separated by commas: use --input-format csv'
      : 'expected loc (or url, address),lastmod,changefreq,priority, or name it with --columns loc=NAME';
    throw new SitemapError(
      'ERR_SITEMAP_INPUT_FORMAT',
      `${kind} header has no "loc" column (found ${names()}); ${why}`,
      'input/csv-header',
    );
  }
  return { ...found, loc: found.loc, count: fields.length, unknown };
}

/**
 * An IMF-fixdate (a copied `Last-Modified` header) as W3C Datetime, or undefined; not the obsolete
 * forms: an RFC 850 two-digit year in a data file would be a guess.
 */
export function httpDateToW3c(value: string): string | undefined {
  const ms = parseHttpDate(value, Date.now(), false);
  return ms === undefined ? undefined : new Date(ms).toISOString().replace('.000Z', 'Z');
}

/**
 * A record as an entry: cells trimmed, an empty one (TSV: or NULL) absent, values as written for the writer to
 * validate, but a lastmod written as an HTTP date converted. Throws `ERR_SITEMAP_INPUT` (`input/csv`)
 * when the record has another number of fields than the header, or no `loc`, or (TSV) one in quotes.
 */
export function csvRecordToEntry(fields: readonly string[], columns: CsvColumns, kind: 'CSV' | 'TSV' = 'CSV'): UrlEntry {
  if (fields.length !== columns.count) {
    throw new SitemapError(
      'ERR_SITEMAP_INPUT',
      `record has ${plural(fields.length, 'field')}, the header has ${columns.count} (${kind === 'CSV' ? 'an unquoted comma' : 'a tab not written as \\t'} in a value?)`,
    );
  }
  const loc = (fields[columns.loc] ?? '').trim();
  if (loc === '') throw new SitemapError('ERR_SITEMAP_INPUT', 'record has an empty "loc"');
  if (kind === 'TSV' && loc.charCodeAt(0) === QUOTE) throw new SitemapError('ERR_SITEMAP_INPUT', `TSV ${tsvQuoted(loc)}`);
  const entry: UrlEntry = { loc };
  const optional = (column: number | undefined): string => {
    const v = column === undefined ? '' : (fields[column] ?? '').trim();
    // `mysql -B` writes SQL NULL as NULL, never a lastmod, changefreq or priority: empty, as TSV's \N.
    return kind === 'TSV' && v === 'NULL' ? '' : v;
  };
  const lastmod = optional(columns.lastmod);
  // A date starts with a digit; one that starts with a letter may be an HTTP date.
  if (lastmod !== '') entry.lastmod = lastmod.charCodeAt(0) > 0x39 ? (httpDateToW3c(lastmod) ?? lastmod) : lastmod;
  const changefreq = optional(columns.changefreq);
  if (changefreq !== '') entry.changefreq = changefreq as Changefreq;
  const priority = optional(columns.priority);
  if (priority !== '') entry.priority = priority;
  return entry;
}
