// The text sitemap reader (sitemaps.org "Text file"): one URL per line and nothing else. Each line
// (LF, CRLF or a lone CR ends one, also across chunks) is trimmed as `String.prototype.trim` does; a
// blank one is ignored; an absolute http(s) URL is delivered exactly as written, at its first
// character; anything else is `text/not-a-url` and not delivered: the reader never repairs a URL.
// A line longer than `maxValueLength` is never buffered whole (`budget/value-length`, skipped).

import { diagnosticAt, type Severity } from '../diagnostics.js';
import { SitemapError, plural, positiveInteger, show } from '../errors.js';
import type { ReaderBudgets, ReaderSink } from './types.js';
import { unusableUrl } from '../url.js';

/** Default of `ReaderBudgets.maxEntries`. */
export const DEFAULT_MAX_ENTRIES = 1_000_000;
/** Default of `ReaderBudgets.maxValueLength` (UTF-16 code units). */
export const DEFAULT_MAX_VALUE_LENGTH = 1024 * 1024;

export const TEXT_READER_CODES: Readonly<Record<string, Severity>> = Object.freeze({
  'text/not-a-url': 'error',
  'budget/value-length': 'error',
  'budget/entries': 'error',
});

const LF = 0x0a;
const CR = 0x0d;

/** Whitespace as `String.prototype.trim` sees it, except the line terminators LF and CR. */
function isSpace(c: number): boolean {
  if (c > 0x20 && c < 0x7f) return false;
  return (
    c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c || c === 0xa0 || c === 0xfeff || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

const HTTP_URL = /^https?:\/\/([^/?#]*)/i;
/** Whitespace or a control character anywhere. */
const BAD_CHAR = /[\s\x00-\x1f\x7f]/;

/** Why `value` (trimmed, non-empty) is not an absolute http(s) URL, or undefined when it is one. */
function notAUrl(value: string): { why: string; hint: string } | undefined {
  const m = HTTP_URL.exec(value);
  if (m !== null) {
    const authority = m[1] as string;
    const host = authority.slice(authority.lastIndexOf('@') + 1).replace(/:\d*$/, '');
    if (host.length === 0) return { why: 'it has no host', hint: 'write the full URL, e.g. https://www.example.com/page' };
    if (BAD_CHAR.test(value)) {
      return { why: 'it contains whitespace or a control character', hint: 'a line holds one URL and nothing else; percent-encode spaces as %20' };
    }
    return unusableUrl(value);
  }
  const c = value.charCodeAt(0);
  if (c === 0x23 /* # */) return { why: 'it is a comment', hint: 'a text sitemap has no comments: it "should contain no information other than the list of URLs"' };
  if (c === 0x2f /* / */ || c === 0x2e /* . */ || c === 0x3f /* ? */) {
    return { why: 'it is a relative URL', hint: 'text sitemaps need full URLs, scheme and host included, e.g. https://www.example.com/page' };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return { why: 'only http and https URLs can be listed', hint: 'list only the http(s) URLs of pages' };
  if (/^(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:[/:?#]|$)/i.test(value) && !BAD_CHAR.test(value)) {
    return { why: 'the scheme is missing', hint: 'write the full URL, scheme included, e.g. https://www.example.com/page' };
  }
  return { why: 'the line is not a URL', hint: 'a text sitemap has one full URL per line (https://www.example.com/page) and nothing else' };
}

/** Push decoded text with `write`, then `end()`; `format('text')` comes first, at either. */
export class TextSitemapReader {
  private readonly maxEntries: number;
  private readonly maxValueLength: number;

  private announced = false;
  private ended = false;
  /** `budget/entries` was reported: everything after is skipped. */
  private full = false;
  private entries = 0;

  /** Offset of the next chunk's first character in the whole text. */
  private offset = 0;
  /** The previous chunk ended with a CR: a LF at the start of this one belongs to it. */
  private afterCR = false;

  // The current line.
  private line = 1;
  private lineOffset = 0;
  private started = false;
  private startColumn = 0;
  private startOffset = 0;
  /** From the first to the last non-space character seen so far. */
  private buf = '';
  /** Spaces after `buf`, kept only while `buf` + `spaces` fits the budget. */
  private spaces = '';
  private spacesTooLong = false;
  /** `budget/value-length` was reported for this line. */
  private skipping = false;

  constructor(
    private readonly sink: ReaderSink,
    budgets: ReaderBudgets = {},
  ) {
    this.maxEntries = positiveInteger(budgets.maxEntries, DEFAULT_MAX_ENTRIES, 'maxEntries');
    this.maxValueLength = positiveInteger(budgets.maxValueLength, DEFAULT_MAX_VALUE_LENGTH, 'maxValueLength');
  }

  write(text: string): void {
    if (this.ended) throw new SitemapError('ERR_SITEMAP_API', 'TextSitemapReader.write() after end()');
    this.announce();
    const n = text.length;
    if (this.full || n === 0) {
      this.offset += n;
      return;
    }
    let i = 0;
    if (this.afterCR) {
      this.afterCR = false;
      if (text.charCodeAt(0) === LF) {
        i = 1;
        this.lineOffset++;
      }
    }
    let nextLf = -2;
    let nextCr = -2;
    while (i < n) {
      if (nextLf !== -1 && nextLf < i) nextLf = text.indexOf('\n', i);
      if (nextCr !== -1 && nextCr < i) nextCr = text.indexOf('\r', i);
      const end = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      if (end === -1) {
        this.segment(text, i, n);
        break;
      }
      this.segment(text, i, end);
      this.finishLine();
      let next = end + 1;
      if (text.charCodeAt(end) === CR) {
        if (next === n) this.afterCR = true;
        else if (text.charCodeAt(next) === LF) next++;
      }
      this.line++;
      this.lineOffset = this.offset + next;
      i = next;
      if (this.full) break;
    }
    this.offset += n;
  }

  end(): void {
    if (this.ended) return;
    this.announce();
    this.ended = true;
    if (!this.full) this.finishLine();
  }

  private announce(): void {
    if (this.announced) return;
    this.announced = true;
    this.sink.format('text');
  }

  /** Characters [a, b) of `text`, all inside the current line. */
  private segment(text: string, a: number, b: number): void {
    if (this.skipping || a === b) return;
    let s = a;
    if (!this.started) {
      while (s < b && isSpace(text.charCodeAt(s))) s++;
      if (s === b) return;
      this.started = true;
      this.startOffset = this.offset + s;
      this.startColumn = this.startOffset - this.lineOffset + 1;
    }
    let e = b;
    while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
    if (e > s) {
      if (this.spacesTooLong || this.buf.length + this.spaces.length + (e - s) > this.maxValueLength) {
        this.tooLong();
        return;
      }
      this.buf += this.spaces + text.slice(s, e);
      this.spaces = '';
    }
    if (e < b && !this.spacesTooLong) {
      if (this.buf.length + this.spaces.length + (b - e) > this.maxValueLength) {
        this.spacesTooLong = true;
        this.spaces = '';
      } else {
        this.spaces += text.slice(e, b);
      }
    }
  }

  private tooLong(): void {
    this.skipping = true;
    this.buf = '';
    this.spaces = '';
    this.report(
      'budget/value-length',
      `the line is longer than the limit of ${plural(this.maxValueLength, 'character')}; it was skipped`,
      'a text sitemap has one URL per line, and a URL must be shorter than 2,048 characters',
    );
  }

  private finishLine(): void {
    const value = this.buf;
    const deliver = this.started && !this.skipping;
    this.started = false;
    this.skipping = false;
    this.buf = '';
    this.spaces = '';
    this.spacesTooLong = false;
    if (!deliver) return;
    const problem = notAUrl(value);
    if (problem !== undefined) {
      this.report('text/not-a-url', `not an absolute http(s) URL (${problem.why}): ${show(value)}; the line was skipped`, problem.hint);
      return;
    }
    if (this.entries >= this.maxEntries) {
      this.full = true;
      this.report('budget/entries', `more than ${plural(this.maxEntries, 'URL')} (the limit); the rest of the sitemap was not read`);
      return;
    }
    this.entries++;
    this.sink.url({ loc: value }, { line: this.line, column: this.startColumn });
  }

  private report(code: string, message: string, hint?: string): void {
    this.sink.diagnostic(diagnosticAt(code, TEXT_READER_CODES[code] as Severity, message, this.line, this.startColumn, this.startOffset, hint));
  }
}
