// The report's one pass over a set (issue 26): fed files, entries and diagnostics as the validating
// reader finds them, it fills a ReportModel with aggregates and bounded samples and hands the URL rows
// on as TSV lines (model.ts ROW_FIELDS). Memory: URL fingerprints (no string), capped maps, and the
// current file's rows (at most ROW_WINDOW), so problems found after an entry still mark its row.

import { definedOnly } from '../defined-only.js';
import { READING_STOPPED, type Diagnostic } from '../diagnostics.js';
import { dateText, isFutureLastmod, NewestLastmod, parseW3cDatetime, surelyPastBefore } from '../datetime.js';
import { FINGERPRINT, fingerprint } from '../fingerprint.js';
import { doubled, FingerprintTable } from '../fingerprint-table.js';
import type { LimitsProfileName, SitemapRef, UrlEntry } from '../model.js';
import type { EntryPosition } from '../read/types.js';
import { comparableUrl, locFingerprint } from '../url.js';
import { ruleInfo } from '../validate/rules.js';
import { CountMap, DirectoryCounts, own } from './counts.js';
import { REPORT_SAMPLES, type ReportFile, type ReportModel, type ReportProblem } from './model.js';

export interface ReportAggregatorOptions {
  source: string;
  /** "Now" in epoch milliseconds: lastmods more than a day after it are in the future; news age. */
  now: number;
  sitemapkitVersion: string;
  limits?: LimitsProfileName;
  /** Receives the URL table's rows: whole UTF-8 lines, each ending with LF, in set order. */
  onRows: (lines: Uint8Array) => void;
}

/** What is known of a file when its reading starts. */
export type FileStart = Pick<ReportFile, 'name' | 'parent' | 'indexLastmod' | 'http'>;

/** What is known of a file once it is read. */
export interface FileEnd {
  kind: ReportFile['kind'];
  bytes: number;
  plainBytes: number;
  gzipped: boolean;
  errors: number;
  warnings: number;
  /** The schema verdict: null where no sitemap schema applies (a feed, a text file). */
  schemaValid: boolean | null;
}

/** Rows of one file held for the problems found after their entry; past it, the older ones go out as they are. */
const ROW_WINDOW = 50_000;
/** Distinct problem codes, changefreq and priority values kept (the rest are summed as "other"). */
const MAX_CODES = 512;
const MAX_VALUES = 32;
/** Months of the lastmod histogram (two centuries); later ones are counted under "other". */
const MAX_MONTHS = 2_400;
const DAY_MS = 86_400_000;

/** A field of a row: TAB and line breaks (possible in an invalid value kept as written) become spaces. */
function field(text: string): string {
  return /[\t\n\r]/.test(text) ? text.replace(/[\t\n\r]/g, ' ') : text;
}

/** The first value a `quoteValue` message names (`"https://…" lists …`), or undefined. */
function firstQuoted(message: string): string | undefined {
  const match = /^"(?:[^"\\]|\\.)*"/.exec(message);
  return match === null ? undefined : (JSON.parse(match[0]) as string);
}

const FLAG_DUPLICATE = 1;
const FLAG_ERROR = 2;
const FLAG_WARNING = 4;
const FLAG_FUTURE = 8;
const FLAG_STOPPED = 16;
const FLAG_LETTERS: readonly [number, number][] = [[FLAG_DUPLICATE, 0x64], [FLAG_ERROR, 0x65], [FLAG_WARNING, 0x77], [FLAG_FUTURE, 0x66], [FLAG_STOPPED, 0x73]];

/** The rows of the file being read, as UTF-8 without their flags, with their positions and flags. */
class PendingRows {
  private bytes = new Uint8Array(1 << 20);
  private used = 0;
  private ends = new Int32Array(1024);
  private lines = new Int32Array(1024);
  private columns = new Int32Array(1024);
  flags = new Uint8Array(1024);
  count = 0;
  private readonly encoder = new TextEncoder();

  add(row: string, at: EntryPosition, flags: number): void {
    if (this.count === this.ends.length) this.growRows();
    while (this.used + row.length * 3 > this.bytes.length) this.bytes = doubled(this.bytes);
    this.used += this.encoder.encodeInto(row, this.bytes.subarray(this.used)).written;
    const k = this.count++;
    this.ends[k] = this.used;
    this.lines[k] = at.line;
    this.columns[k] = at.column;
    this.flags[k] = flags;
  }

  /** The row whose entry starts last at or before this position, or -1. */
  at(line: number, column: number): number {
    let low = 0;
    let high = this.count - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const l = this.lines[mid] as number;
      if (l < line || (l === line && (this.columns[mid] as number) <= column)) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    return found;
  }

  /** The loc of row k (its first field). */
  loc(k: number): string {
    const start = k === 0 ? 0 : (this.ends[k - 1] as number);
    const row = this.bytes.subarray(start, this.ends[k] as number);
    return new TextDecoder().decode(row.subarray(0, row.indexOf(9)));
  }

  /** The rows as lines, flags written; then empty. */
  take(): Uint8Array {
    const out = new Uint8Array(this.used + this.count * 5);
    let o = 0;
    let start = 0;
    for (let k = 0; k < this.count; k++) {
      const end = this.ends[k] as number;
      out.set(this.bytes.subarray(start, end), o);
      o += end - start;
      start = end;
      const flags = this.flags[k] as number;
      for (const [bit, letter] of FLAG_LETTERS) if ((flags & bit) !== 0) out[o++] = letter;
      out[o++] = 0x0a;
    }
    this.used = 0;
    this.count = 0;
    return out.subarray(0, o);
  }

  private growRows(): void {
    this.ends = doubled(this.ends);
    this.lines = doubled(this.lines);
    this.columns = doubled(this.columns);
    this.flags = doubled(this.flags);
  }
}

export class ReportAggregator {
  private readonly files: ReportFile[] = [];
  /** The first file of each name: a finding about a file already read counts for it without a scan. */
  private readonly fileByName = new Map<string, ReportFile>();
  /** The file being read, the last of `files`. */
  private current: ReportFile | undefined;
  /** Whether the current file's reading is over (endFile): its counts are in. */
  private currentEnded = false;
  /** The errors and warnings of the file being read so far (for one that stops before its end). */
  private readonly found = { errors: 0, warnings: 0 };
  /** The newest lastmod of the file being read, as an instant (ReportFile.newestLastmod). */
  private newest = new NewestLastmod();
  /** Problems of no file of the set. */
  private readonly elsewhere = { errors: 0, warnings: 0 };
  private readonly rows = new PendingRows();
  private readonly pastBefore: string;
  private schemaSeen = { valid: 0, invalid: 0 };

  // Duplicates: each distinct URL's ordinal in the table, its first file, and its state.
  private readonly seen = new FingerprintTable(1 << 16);
  private firstFile = new Int32Array(1 << 16);
  private repeatState = new Uint8Array(1 << 16);
  private readonly duplicates: ReportModel['duplicates'] = { count: 0, inSeveralFiles: 0, examples: [] };
  /** The ordinal in `seen` of the URL of each duplicate example. */
  private readonly exampleOrdinals: number[] = [];

  private readonly problems = new Map<string, ReportProblem>();
  private readonly directories = new DirectoryCounts();
  /** By year × 100 + month (a number: no string made per URL). */
  private readonly months = new CountMap<number>(MAX_MONTHS);
  private readonly changefreqs = new CountMap(MAX_VALUES);
  private readonly priorities = new CountMap<string | number>(MAX_VALUES);
  private readonly freshness = { future: 0, missing: 0, withLastmod: 0, first: undefined as string | undefined, allSame: true };
  private readonly extensions: ReportModel['extensions'] = {
    urlsWithImages: 0, images: 0, imagesPerUrl: new Array<number>(10).fill(0), videos: 0, news: 0,
    newsAge: { recent: 0, month: 0, older: 0 }, hreflangUrls: 0, hreflangGroups: 0, hreflangProblems: { count: 0, examples: [] },
  };
  /** hreflang groups by the fingerprint of their sorted hrefs. */
  private readonly groups = new FingerprintTable(1024);
  private urls = 0;
  private compare: ReportModel['compare'];

  constructor(private readonly options: ReportAggregatorOptions) {
    this.pastBefore = surelyPastBefore(options.now);
  }

  /** A file starts; its number in ReportModel.files. */
  startFile(start: FileStart): number {
    this.flushRows();
    const { parent, name, indexLastmod, http } = start;
    const file: ReportFile = { parent, name, kind: 'unknown', entries: 0, bytes: 0, plainBytes: 0, gzipped: false, errors: 0, warnings: 0, ...definedOnly({ indexLastmod, http }) };
    this.files.push(file);
    if (!this.fileByName.has(name)) this.fileByName.set(name, file);
    this.current = file;
    this.currentEnded = false;
    this.found.errors = 0;
    this.found.warnings = 0;
    this.newest = new NewestLastmod();
    return this.files.length - 1;
  }

  /** A `<sitemap>` of the index being read. */
  sitemap(_ref: SitemapRef, _at: EntryPosition): void {
    (this.current as ReportFile).entries++;
  }

  /** A page of the file being read; `locHash`, its loc's fingerprint when known (fingerprint.ts). */
  url(entry: UrlEntry, at: EntryPosition, locHash?: Int32Array): void {
    const file = this.current as ReportFile;
    file.entries++;
    this.urls++;
    // The same URL as RFC 3986 §6.2 has it (`%7e` and `~`), as diff compares them; rows keep their spelling.
    const url = comparableUrl(entry.loc);
    let flags = this.countDuplicate(entry.loc, locFingerprint(entry.loc, locHash, url));
    const lastmod = entry.lastmod === undefined ? '' : dateText(entry.lastmod);
    if (lastmod !== '' && this.lastmod(lastmod, file)) flags |= FLAG_FUTURE;
    else if (lastmod === '') this.freshness.missing++;
    const changefreq = entry.changefreq === undefined ? '' : field(String(entry.changefreq));
    const priority = entry.priority === undefined ? '' : field(String(entry.priority));
    this.changefreqs.add(changefreq === '' ? '(none)' : changefreq);
    this.priorities.add(entry.priority ?? '(none)');
    this.directories.add(url, entry.loc);
    const images = entry.images?.length ?? 0;
    const alternates = entry.alternates?.length ?? 0;
    if (images > 0 || alternates > 0 || entry.videos !== undefined || entry.news !== undefined) this.countExtensions(entry, images, alternates);
    if (this.rows.count >= ROW_WINDOW) this.flushRows();
    this.rows.add(`${field(entry.loc)}\t${field(lastmod)}\t${this.files.length - 1}\t${changefreq}\t${priority}\t${images}\t${alternates}\t`, at, flags);
  }

  /** Every diagnostic of the set, rule settings applied; `ofSet` false for another source's (the previous version's, with --compare). */
  diagnostic(d: Diagnostic, ofSet = true): void {
    let problem = this.problems.get(d.code);
    if (problem === undefined) {
      const code = this.problems.size < MAX_CODES ? d.code : 'other';
      problem = this.problems.get(code);
      if (problem === undefined) {
        const info = ruleInfo(code);
        problem = { code, severity: d.severity, count: 0, title: info?.title ?? code, examples: [], ...definedOnly({ searchConsole: info?.searchConsole, fix: d.hint }) };
        this.problems.set(code, problem);
      }
    }
    problem.count++;
    // The file being read counts its own at its end (endFile); the walk's findings about a file already
    // read (`index/nested`) count for that file; those of no file of the set in the summary only.
    const counts = !ofSet ? this.elsewhere : !this.currentEnded && d.file === this.current?.name ? this.found : (d.file === undefined ? undefined : this.fileByName.get(d.file)) ?? this.elsewhere;
    if (d.severity === 'error') counts.errors++;
    else if (d.severity === 'warning') counts.warnings++;
    if (problem.examples.length < REPORT_SAMPLES) problem.examples.push({ file: d.file ?? '', message: own(d.message), ...definedOnly({ line: d.line, column: d.column }) });
    const row = d.file === this.current?.name && d.line !== undefined ? this.rows.at(d.line, d.column ?? 1) : -1;
    // Reading stopped at the entry after the row's (or within it, undelivered): the row read last, not in error.
    const flag = READING_STOPPED.has(d.code) ? FLAG_STOPPED : d.severity === 'error' ? FLAG_ERROR : FLAG_WARNING;
    if (row !== -1 && d.severity !== 'info') this.rows.flags[row] = (this.rows.flags[row] as number) | flag;
    if (d.code === 'hreflang/missing-return-link') this.returnLinkProblem(d, row);
  }

  /** The file being read is over. */
  endFile(end: FileEnd): void {
    const file = this.current as ReportFile;
    Object.assign(file, { kind: end.kind, bytes: end.bytes, plainBytes: end.plainBytes, gzipped: end.gzipped });
    file.errors += end.errors;
    file.warnings += end.warnings;
    this.currentEnded = true;
    if (end.schemaValid === true) this.schemaSeen.valid++;
    else if (end.schemaValid === false) this.schemaSeen.invalid++;
    this.flushRows();
  }

  /** The file being read could not be read to its end: an `input/unreadable` problem, and the file ends. */
  unreadable(message: string): void {
    this.diagnostic({ code: 'input/unreadable', severity: 'error', message, file: (this.current as ReportFile).name });
    this.endFile({ kind: 'unknown', bytes: 0, plainBytes: 0, gzipped: false, errors: this.found.errors, warnings: this.found.warnings, schemaValid: null });
  }

  /** With --compare: the changes against the previous version (report-set.ts fills it). */
  setCompare(compare: NonNullable<ReportModel['compare']>): void {
    this.compare = compare;
  }

  finish(generatedAt: string): ReportModel {
    this.flushRows();
    const files = this.files;
    const sum = (pick: (f: ReportFile) => number): number => files.reduce((total, f) => total + pick(f), 0);
    // Not Math.max(...files): an index may list more children than a call takes arguments.
    const largest = (among: ReportFile[], pick: (f: ReportFile) => number): number => among.reduce((most, f) => Math.max(most, pick(f)), 0);
    const pages = files.filter((f) => f.kind !== 'sitemapindex');
    const { valid, invalid } = this.schemaSeen;
    const severityRank = { error: 0, warning: 1, info: 2 } as const;
    const model: ReportModel = {
      source: this.options.source,
      generatedAt,
      sitemapkitVersion: this.options.sitemapkitVersion,
      files,
      summary: {
        files: files.length, urls: this.urls, distinctUrls: this.seen.size, bytes: sum((f) => f.bytes), plainBytes: sum((f) => f.plainBytes),
        errors: sum((f) => f.errors) + this.elsewhere.errors, warnings: sum((f) => f.warnings) + this.elsewhere.warnings,
        schema: invalid > 0 ? 'invalid' : valid > 0 ? 'valid' : 'not-checked',
        largestFileUrls: largest(pages, (f) => f.entries), largestFilePlainBytes: largest(files, (f) => f.plainBytes), ...definedOnly({ limits: this.options.limits }),
      },
      problems: [...this.problems.values()].sort((a, b) => severityRank[a.severity] - severityRank[b.severity] || b.count - a.count || (a.code < b.code ? -1 : 1)),
      directories: this.directories.top(200),
      freshness: {
        byMonth: this.months.entries().sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([month, urls]) => ({ month: typeof month === 'number' ? `${String(Math.floor(month / 100)).padStart(4, '0')}-${String(month % 100).padStart(2, '0')}` : month, urls })),
        future: this.freshness.future,
        missing: this.freshness.missing,
        changefreq: this.changefreqs.entries().sort((a, b) => b[1] - a[1]).map(([value, urls]) => ({ value, urls })),
        priority: this.priorities.entries().sort((a, b) => b[1] - a[1]).map(([value, urls]) => ({ value: String(value), urls })),
      },
      extensions: this.extensions,
      duplicates: this.duplicates,
    };
    const { first, allSame, withLastmod } = this.freshness;
    if (allSame && first !== undefined && withLastmod > 1) model.freshness.allSame = first;
    if (this.compare !== undefined) model.compare = this.compare;
    return model;
  }

  private flushRows(): void {
    if (this.rows.count > 0) this.options.onRows(this.rows.take());
  }

  /** Counts a listing of `loc` (`hash`: its comparable form's fingerprint) in the duplicate table; FLAG_DUPLICATE when it was listed before. */
  private countDuplicate(loc: string, hash: Int32Array): number {
    const ordinal = this.seen.size;
    const found = this.seen.add(hash[0] as number, hash[1] as number, ordinal);
    if (found === -1) {
      if (ordinal === this.firstFile.length) {
        this.firstFile = doubled(this.firstFile);
        this.repeatState = doubled(this.repeatState);
      }
      this.firstFile[ordinal] = this.files.length - 1;
      return 0;
    }
    const state = this.repeatState[found] as number;
    const otherFile = this.firstFile[found] !== this.files.length - 1;
    if ((state & 1) === 0) this.duplicates.count++;
    if (otherFile && (state & 2) === 0) this.duplicates.inSeveralFiles++;
    this.repeatState[found] = state | 1 | (otherFile ? 2 : 0);
    this.duplicateExample(loc, found);
    return FLAG_DUPLICATE;
  }

  /** An example of the URL of ordinal `found` listed again, as `loc`: the spelling of its first repeat. */
  private duplicateExample(loc: string, found: number): void {
    const examples = this.duplicates.examples;
    const name = (this.current as ReportFile).name;
    const known = examples[this.exampleOrdinals.indexOf(found)];
    if (known !== undefined) {
      if (!known.files.includes(name) && known.files.length < REPORT_SAMPLES) known.files.push(name);
      return;
    }
    if (examples.length >= REPORT_SAMPLES) return;
    const first = (this.files[this.firstFile[found] as number] as ReportFile).name;
    examples.push({ loc: own(loc), files: first === name ? [first] : [first, name] });
    this.exampleOrdinals.push(found);
  }

  /** Counts a lastmod (as written); true when it is in the future. */
  private lastmod(lastmod: string, file: ReportFile): boolean {
    const freshness = this.freshness;
    freshness.withLastmod++;
    if (freshness.first === undefined) freshness.first = own(lastmod);
    else if (freshness.allSame && lastmod !== freshness.first) freshness.allSame = false;
    const month = yearMonth(lastmod);
    if (month !== -1) this.months.add(month);
    const newest = this.newest.text;
    this.newest.add(lastmod);
    if (this.newest.text !== newest) file.newestLastmod = own(lastmod);
    // As lastmod/future decides (validate/protocol.ts): one sorting before pastBefore is surely past.
    if (lastmod < this.pastBefore && lastmod.length >= 4) return false;
    const parsed = parseW3cDatetime(lastmod);
    if (parsed === undefined || !isFutureLastmod(parsed.epochMs, this.options.now)) return false;
    freshness.future++;
    return true;
  }

  private countExtensions(entry: UrlEntry, images: number, alternates: number): void {
    const x = this.extensions;
    if (images > 0) {
      x.urlsWithImages++;
      x.images += images;
      x.imagesPerUrl[Math.min(images, 10) - 1] = (x.imagesPerUrl[Math.min(images, 10) - 1] as number) + 1;
    }
    x.videos += entry.videos?.length ?? 0;
    if (entry.news !== undefined) {
      x.news++;
      const published = parseW3cDatetime(dateText(entry.news.publicationDate));
      const days = published === undefined ? Infinity : (this.options.now - published.epochMs) / DAY_MS;
      if (days <= 2) x.newsAge.recent++;
      else if (days <= 30) x.newsAge.month++;
      else x.newsAge.older++;
    }
    if (alternates > 0) {
      x.hreflangUrls++;
      // The pages of one group list the same alternates: a group is the set of its hrefs, compared as URLs.
      fingerprint((entry.alternates ?? []).map((a) => comparableUrl(a.href)).sort().join('\n'));
      if (this.groups.add(FINGERPRINT[0] as number, FINGERPRINT[1] as number, 0) === -1) x.hreflangGroups++;
    }
  }

  /** `hreflang/missing-return-link`: the page that is named (the row at the position) does not name back the page that names it. */
  private returnLinkProblem(d: Diagnostic, row: number): void {
    const problems = this.extensions.hreflangProblems;
    problems.count++;
    if (problems.examples.length >= REPORT_SAMPLES) return;
    const naming = firstQuoted(d.message);
    if (naming === undefined) return;
    const named = row === -1 ? '' : this.rows.loc(row);
    problems.examples.push({ loc: naming, alternate: named });
  }
}

/** `YYYY-MM` of a lastmod as year × 100 + month, or -1 when it does not start so (month 01 to 12). */
function yearMonth(lastmod: string): number {
  if (lastmod.length < 7 || lastmod.charCodeAt(4) !== 0x2d) return -1;
  let value = 0;
  for (const i of [0, 1, 2, 3, 5, 6]) {
    const digit = lastmod.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  const month = value % 100;
  return month >= 1 && month <= 12 ? value : -1;
}
