// W3C Datetime (https://www.w3.org/TR/NOTE-datetime) parse / format for lastmod and the other dates.
// Input: the note's six forms, plus the ISO 8601 variants people write (`t`/`z`, a space for `T`,
// `+hhmm` and `+hh` offsets, surrounding whitespace). Output: a form sitemap.xsd accepts (xsd:date or
// xsd:dateTime), so `YYYY`, `YYYY-MM` and `hh:mm` are completed (protocol-facts.md §1); years 0001–9999.
// It runs once per entry: one regex checks the shape, fields are read by character code, the instant is
// integer arithmetic (no Date), and text already in the emitted form is returned as is.

import type { DateInput } from './model.js';
import { InvalidValueError, quoteValue, shortened, valueText } from './errors.js';
import { trimAsciiWhitespace } from './ascii-whitespace.js';

export interface SitemapDate {
  /** The value as written to the XML: a form sitemap.xsd accepts (xsd:date `YYYY-MM-DD`, or xsd:dateTime `YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)`). */
  text: string;
  /** The instant it denotes in epoch milliseconds (a date alone: midnight UTC of that day), for comparing values written in different time zones. */
  epochMs: number;
}

/** How far ahead a lastmod may be before it is future: a date is midnight UTC, zones reach UTC+14, clocks differ. */
const FUTURE_LEEWAY_MS = 24 * 60 * 60 * 1000;

/** A date value as written (the reader keeps strings as they are), a Date or epoch milliseconds as ISO 8601. */
export function dateText(value: DateInput): string {
  if (typeof value === 'string') return value;
  const date = typeof value === 'number' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
}

/** Whether a lastmod at the instant `epochMs` is in the future, seen at `now`. */
export function isFutureLastmod(epochMs: number, now: number): boolean {
  return epochMs > now + FUTURE_LEEWAY_MS;
}

/** A `YYYY-MM-DD` before which (as strings) a W3C Datetime is surely not in the future at `now`, in any time zone. */
export function surelyPastBefore(now: number): string {
  return new Date(now - 2 * FUTURE_LEEWAY_MS).toISOString().slice(0, 10);
}

/** What a W3C Datetime string says, as its readers ask it. */
interface ParsedW3cDatetime {
  /** How much was written: `year` (YYYY), `month` (YYYY-MM), `day` (YYYY-MM-DD), `minute` (…Thh:mm), `second` (…Thh:mm:ss[.s]). */
  precision: 'year' | 'month' | 'day' | 'minute' | 'second';
  /** The form sitemap.xsd accepts, as `toSitemapDate` emits it. */
  text: string;
  /** The instant in epoch milliseconds (fraction truncated to milliseconds; a date alone: midnight UTC). */
  epochMs: number;
  /** Written exactly in one of the W3C note's forms (no lowercase `t`/`z`, space, `+hhmm` or `+hh`). */
  w3c: boolean;
}

const EXPECTED = 'expected YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm';

// The shape of every accepted string (after trimming); values are range-checked afterwards.
// Fixed offsets: year 0, month 5, day 8, separator 10, hour 11, minute 14, then `:ss` at 16.
const SHAPE = /^\d{4}(?:-\d\d(?:-\d\d(?:[Tt ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:[Zz]|[+-]\d\d(?::?\d\d)?)?)?)?)?$/;

/** 00 … 99, for building texts without padStart. */
const P2: readonly string[] = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : `${i}`));

const MS_PER_DAY = 86_400_000;
/** 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the instants a Date or epoch number may take. */
const MIN_EPOCH_MS = -62_135_596_800_000;
const END_EPOCH_MS = 253_402_300_800_000;

// Scratch results of the last parse in module variables: the hot path allocates only the output text.
let pPrecision: ParsedW3cDatetime['precision'] = 'day';
let pText = '';
let pEpochMs = 0;
let pW3c = true;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Days in a month (1–12) of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return 30 + ((month + (month >> 3)) & 1);
}

/** Two ASCII digits at i as a number (the caller has checked they are digits). */
function d2(s: string, i: number): number {
  return (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48;
}

/**
 * Parses `raw` into the scratch results: undefined, or why it is not a W3C Datetime.
 */
// eslint-disable-next-line max-lines-per-function -- one pass over the grammar, each part checked where it is read
function parseInto(raw: string, unicodeTrim = false): string | undefined {
  // Trim only when an end is not a digit/Z. A value read from XML keeps a no-break space (the schema
  // collapses XML whitespace only); an API caller's string, say from a spreadsheet, loses it.
  let s = raw;
  const first = s.charCodeAt(0);
  const last = s.charCodeAt(s.length - 1);
  if (!(first >= 48 && first <= 57) || (last <= 32 || last > 122)) s = unicodeTrim ? s.trim() : trimAsciiWhitespace(s);
  if (!SHAPE.test(s)) {
    return s.length === 0 ? 'the value is empty' : 'it does not match the W3C Datetime grammar';
  }
  const len = s.length;
  const year = (s.charCodeAt(0) - 48) * 1000 + (s.charCodeAt(1) - 48) * 100 + d2(s, 2);
  if (year === 0) return 'year 0000 is out of range (0001–9999)';
  pW3c = true;
  if (len === 4) {
    pPrecision = 'year';
    // A year alone stands for its first day: sitemap.xsd has no year-only form.
    pText = `${s}-01-01`;
    pEpochMs = daysFromCivil(year, 1, 1) * MS_PER_DAY;
    return undefined;
  }
  const month = d2(s, 5);
  if (month < 1 || month > 12) return `month ${s.slice(5, 7)} is out of range (01–12)`;
  if (len === 7) {
    pPrecision = 'month';
    // A month alone stands for its first day: sitemap.xsd has no year-month form.
    pText = `${s}-01`;
    pEpochMs = daysFromCivil(year, month, 1) * MS_PER_DAY;
    return undefined;
  }
  const day = d2(s, 8);
  const dim = daysInMonth(year, month);
  if (day < 1 || day > dim) {
    return day === 29 && month === 2
      ? `day 29 is out of range: ${s.slice(0, 4)} is not a leap year`
      : `day ${s.slice(8, 10)} is out of range (01–${dim} for month ${s.slice(5, 7)})`;
  }
  const days = daysFromCivil(year, month, day);
  if (len === 10) {
    pPrecision = 'day';
    pText = s;
    pEpochMs = days * MS_PER_DAY;
    return undefined;
  }
  // A time. Separator at 10, hh at 11, mm at 14.
  const sep = s.charCodeAt(10);
  if (sep !== 84 /* T */) pW3c = false;
  const hour = d2(s, 11);
  if (hour > 23) return `hour ${s.slice(11, 13)} is out of range (00–23)`;
  const minute = d2(s, 14);
  if (minute > 59) return `minute ${s.slice(14, 16)} is out of range (00–59)`;
  let second = 0;
  let ms = 0;
  let i = 16;
  let c = s.charCodeAt(i);
  if (c === 58 /* : */) {
    pPrecision = 'second';
    second = d2(s, 17);
    if (second > 59) return `second ${s.slice(17, 19)} is out of range (00–59)`;
    i = 19;
    c = s.charCodeAt(i);
    if (c === 46 /* . */) {
      const from = ++i;
      c = s.charCodeAt(i);
      while (c >= 48 && c <= 57) c = s.charCodeAt(++i);
      // Milliseconds from the first three digits; further digits are truncated (kept in the text).
      ms = (s.charCodeAt(from) - 48) * 100;
      if (i - from > 1) ms += (s.charCodeAt(from + 1) - 48) * 10;
      if (i - from > 2) ms += s.charCodeAt(from + 2) - 48;
    }
  } else {
    pPrecision = 'minute';
  }
  // Time zone designator from i to the end; tz stays undefined when it is written as it is emitted.
  let tz: string | undefined;
  let offset = 0;
  if (i === len) {
    return 'a time needs a time zone; add "Z" (UTC) or an offset such as "+02:00"';
  } else if (c === 90 /* Z */ || c === 122 /* z */) {
    if (c === 122) {
      pW3c = false;
      tz = 'Z';
    }
  } else {
    const oh = d2(s, i + 1);
    let om = 0;
    const rest = len - i; // 3: ±hh, 5: ±hhmm, 6: ±hh:mm
    if (rest === 6) om = d2(s, i + 4);
    else if (rest === 5) om = d2(s, i + 3);
    if (om > 59) return `the offset's minutes ${P2[om] ?? om} are out of range (00–59)`;
    const total = oh * 60 + om;
    if (total > 840) return `offset ${s.slice(i)} is out of range (-14:00 to +14:00)`;
    offset = c === 45 /* - */ ? -total : total;
    if (rest !== 6) {
      pW3c = false;
      tz = `${c === 45 ? '-' : '+'}${P2[oh]}:${P2[om]}`;
    }
  }
  pEpochMs = days * MS_PER_DAY + hour * 3_600_000 + minute * 60_000 + second * 1000 + ms - offset * 60_000;
  if (pPrecision === 'minute') {
    // sitemap.xsd's xsd:dateTime needs seconds: hh:mm becomes hh:mm:00.
    pText = `${s.slice(0, 10)}T${s.slice(11, 16)}:00${tz ?? s.slice(i)}`;
  } else if (sep === 84 && tz === undefined) {
    pText = s;
  } else {
    pText = `${s.slice(0, 10)}T${s.slice(11, i)}${tz ?? s.slice(i)}`;
  }
  return undefined;
}

/**
 * Format an instant (already range-checked) as `YYYY-MM-DDThh:mm:ss[.sss]Z`.
 * Measured on Node 20 for 1M values: one String.fromCharCode call ≈150 ns, a template of P2 pieces
 * ≈260 ns, `new Date(t).toISOString()` and trimming `.000` ≈800 ns.
 */
function formatEpoch(t: number): string {
  const days = Math.floor(t / MS_PER_DAY);
  let rem = t - days * MS_PER_DAY;
  // civil_from_days (H. Hinnant); every quotient below is of non-negative values, so `| 0` floors.
  const z = days + 719_468;
  const era = (z / 146_097) | 0;
  const doe = z - era * 146_097;
  const yoe = ((doe - ((doe / 1460) | 0) + ((doe / 36_524) | 0) - ((doe / 146_096) | 0)) / 365) | 0;
  const doy = doe - (365 * yoe + ((yoe / 4) | 0) - ((yoe / 100) | 0));
  const mp = ((5 * doy + 2) / 153) | 0;
  const day = doy - (((153 * mp + 2) / 5) | 0) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const ms = rem % 1000;
  rem = (rem - ms) / 1000;
  const sec = rem % 60;
  rem = (rem - sec) / 60;
  const min = rem % 60;
  const hour = (rem - min) / 60;
  const yh = (year / 100) | 0;
  const yl = year % 100;
  // Character codes: 48 '0', 45 '-', 84 'T', 58 ':', 46 '.', 90 'Z'.
  const text = String.fromCharCode(
    48 + ((yh / 10) | 0), 48 + (yh % 10), 48 + ((yl / 10) | 0), 48 + (yl % 10), 45,
    48 + ((month / 10) | 0), 48 + (month % 10), 45, 48 + ((day / 10) | 0), 48 + (day % 10), 84,
    48 + ((hour / 10) | 0), 48 + (hour % 10), 58, 48 + ((min / 10) | 0), 48 + (min % 10), 58,
    48 + ((sec / 10) | 0), 48 + (sec % 10),
  );
  return ms === 0 ? `${text}Z` : text + String.fromCharCode(46, 48 + ((ms / 100) | 0), 48 + (((ms / 10) | 0) % 10), 48 + (ms % 10), 90);
}

function fail(field: string, input: unknown, shown: string, what: string, reason: string, expected = EXPECTED): never {
  throw new InvalidValueError(`${field}/invalid`, field, input, `${field} ${shown} ${what}: ${reason}; ${expected}`);
}

const EXPECTED_INPUT = 'expected a Date, epoch milliseconds or a W3C Datetime string such as 2024-05-10 or 2024-05-10T17:33:30+08:00';

/** Core of toSitemapDate: returns the text and leaves the instant in pEpochMs. */
function convert(input: DateInput, field: string): string {
  if (typeof input === 'string') {
    const reason = parseInto(input, true);
    if (reason !== undefined) fail(field, input, quoteValue(input), 'is not a W3C Datetime', reason);
    return pText;
  }
  let t: number;
  if (typeof input === 'number') {
    t = input;
    if (!Number.isInteger(t)) {
      fail(field, input, String(input), 'is not a valid epoch time', Number.isFinite(t) ? 'milliseconds must be an integer' : 'it is not a finite number', EXPECTED_INPUT);
    }
  } else if (input instanceof Date || Object.prototype.toString.call(input) === '[object Date]') {
    t = Date.prototype.getTime.call(input);
    if (t !== t) fail(field, input, '"Invalid Date"', 'is not a valid Date', 'its time value is NaN', EXPECTED_INPUT);
  } else {
    fail(field, input, shortened(valueText(input), 120), 'is not a date', `got ${input === null ? 'null' : typeof input}`, EXPECTED_INPUT);
  }
  if (t < MIN_EPOCH_MS || t >= END_EPOCH_MS) {
    const epoch = typeof input === 'number' ? ' (epoch milliseconds -62135596800000 to 253402300799999)' : '';
    fail(field, input, epoch === '' ? new Date(t).toISOString() : String(input), 'is out of range', `the year must be 0001–9999${epoch}`, EXPECTED_INPUT);
  }
  pEpochMs = t;
  return formatEpoch(t);
}

/**
 * The form of a date value that sitemap.xsd accepts, and the instant it denotes. A `Date` or epoch
 * milliseconds → `YYYY-MM-DDThh:mm:ss[.sss]Z`; a W3C Datetime string (or a lenient ISO 8601 variant) is
 * kept as written where sitemap.xsd allows it, else completed (`YYYY` → `YYYY-01-01`, `YYYY-MM` →
 * `YYYY-MM-01`, `hh:mm` → `hh:mm:00`) with the time zone as `Z` or `±hh:mm`.
 * @param field the field name as written in the XML, for the error (`lastmod`, `news:publication_date`, …).
 * @throws InvalidValueError with rule `${field}/invalid` (e.g. `lastmod/invalid`) for anything else.
 */
export function toSitemapDate(input: DateInput, field = 'lastmod'): SitemapDate {
  return { text: convert(input, field), epochMs: pEpochMs }; // in this order: convert sets pEpochMs
}

/** `toSitemapDate(input).text`. */
export function formatSitemapDate(input: DateInput): string {
  return convert(input, 'lastmod');
}

/** A W3C Datetime string (a form `toSitemapDate` accepts) read; undefined (never a throw) for anything else. */
export function parseW3cDatetime(text: string): ParsedW3cDatetime | undefined {
  if (typeof text !== 'string' || parseInto(text) !== undefined) return undefined;
  return { precision: pPrecision, text: pText, epochMs: pEpochMs, w3c: pW3c };
}

/** The newest of the items' lastmods, compared as instants; a lastmod that is no W3C Datetime is passed over. */
export function newestLastmod(items: Iterable<{ readonly lastmod?: string | undefined }>): string | undefined {
  const newest = new NewestLastmod();
  for (const { lastmod } of items) newest.add(lastmod);
  return newest.text;
}

/** newestLastmod of values given one at a time (a document read as pushed): each parsed once. */
export class NewestLastmod {
  text: string | undefined;
  private ms = Number.NEGATIVE_INFINITY;
  /** Two days before the newest (surelyPastBefore): a lastmod that starts with a digit and sorts before it is older in any time zone. */
  private floor = '';

  add(lastmod: string | undefined): void {
    // Most lastmods of a set are surely older: compared as strings, not parsed.
    if (lastmod === undefined || (lastmod < this.floor && lastmod >= '0')) return;
    const ms = parseW3cDatetime(lastmod)?.epochMs;
    if (ms !== undefined && ms > this.ms) [this.ms, this.text, this.floor] = [ms, lastmod, surelyPastBefore(ms)];
  }
}

/** Why `text` is not a W3C Datetime (a phrase such as `month 13 is out of range (01–12)`), or `undefined` if it is one. */
export function w3cDatetimeProblem(text: string): string | undefined {
  return isCanonicalW3c(text) ? undefined : parseInto(text);
}

/** Whether ASCII digits are at `s[i]` and `s[i + 1]`. */
function digits2(s: string, i: number): boolean {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9;
}

/**
 * `YYYY-MM-DDThh:mm:ssZ` or `…±hh:mm`, every field in range: what parseInto accepts, found without the
 * regex; false for anything else, valid or not.
 */
function isCanonicalW3c(s: string): boolean {
  const n = s.length;
  if (n === 25) {
    const sign = s.charCodeAt(19);
    if ((sign !== 43 && sign !== 45) || s.charCodeAt(22) !== 58 || !digits2(s, 20) || !digits2(s, 23)) return false;
    const om = d2(s, 23);
    if (om > 59 || d2(s, 20) * 60 + om > 840) return false;
  } else if (n !== 20 || s.charCodeAt(19) !== 90 /* Z */) {
    return false;
  }
  if (
    s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 ||
    !digits2(s, 0) || !digits2(s, 2) || !digits2(s, 5) || !digits2(s, 8) || !digits2(s, 11) || !digits2(s, 14) || !digits2(s, 17)
  ) return false;
  const year = d2(s, 0) * 100 + d2(s, 2);
  const month = d2(s, 5);
  const day = d2(s, 8);
  return year !== 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) &&
    d2(s, 11) <= 23 && d2(s, 14) <= 59 && d2(s, 17) <= 59;
}

// RFC 9110 §5.6.7 HTTP-date: IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must
// accept (the day name is not checked: recipients are to be robust, and nginx ignores it).
const IMF_FIXDATE = /^[A-Z][a-z]{2}, (?<day>\d\d) (?<month>[A-Z][a-z]{2}) (?<year>\d{4}) (?<hour>\d\d):(?<minute>\d\d):(?<second>\d\d) GMT$/;
const RFC850_DATE = /^[A-Z][a-z]{5,8}, (?<day>\d\d)-(?<month>[A-Z][a-z]{2})-(?<year>\d\d) (?<hour>\d\d):(?<minute>\d\d):(?<second>\d\d) GMT$/;
const ASCTIME_DATE = /^[A-Z][a-z]{2} (?<month>[A-Z][a-z]{2}) (?<day>[ \d]\d) (?<hour>\d\d):(?<minute>\d\d):(?<second>\d\d) (?<year>\d{4})$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An HTTP-date in epoch milliseconds; undefined for anything else (31 February, 24:00, a list of
 * dates…: nginx's parser refuses them too). `now` places RFC 850's two-digit years; `obsoleteForms`
 * false reads IMF-fixdate only, the one form senders generate (§5.6.7).
 */
export function parseHttpDate(value: string | undefined, now = Date.now(), obsoleteForms = true): number | undefined {
  const text = value?.trim() ?? '';
  const imf = IMF_FIXDATE.exec(text);
  const fields = (obsoleteForms ? (imf ?? RFC850_DATE.exec(text) ?? ASCTIME_DATE.exec(text)) : imf)?.groups;
  if (fields === undefined) return undefined;
  const [day, year, hour, minute, second] = [fields['day'], fields['year'], fields['hour'], fields['minute'], fields['second']].map(Number) as [number, number, number, number, number];
  const month = MONTHS.indexOf(fields['month'] as string) + 1;
  // Second 60 is a leap second (§5.6.7), read as the next one.
  if (month < 1 || hour > 23 || minute > 59 || second > 60 || day < 1) return undefined;
  const at = (fullYear: number): number => daysFromCivil(fullYear, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000;
  let fullYear = year;
  if (fields['year']?.length === 2) {
    // RFC 850's two-digit year: one more than 50 years ahead is the most recent past year with those digits.
    const thisYear = new Date(now).getUTCFullYear();
    fullYear = thisYear + ((((year - thisYear) % 100) + 100) % 100);
    const fiftyYearsAhead = new Date(now).setUTCFullYear(thisYear + 50);
    if (at(fullYear) > fiftyYearsAhead) fullYear -= 100;
  }
  return day <= daysInMonth(fullYear, month) ? at(fullYear) : undefined;
}
