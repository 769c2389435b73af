// Feeds as sitemaps (sitemaps.org, "Syndication feed"): RSS `pubDate` (RFC 822 / 2822) to W3C
// Datetime, and relative Atom links resolved against `xml:base` or the feed's own link.

import { daysFromCivil, daysInMonth } from '../datetime.js';

interface Rfc822Conversion {
  /** `YYYY-MM-DDThh:mm:ss` and `Z` or `±hh:mm`; '' when `problem` is set. */
  text: string;
  /** Why the value is not an RFC 822 date (a phrase). */
  problem?: string;
  /** When the written weekday is not the date's: `Mon` written, `Sun` true. */
  weekday?: { written: string; actual: string };
  /** What was read leniently (a phrase). */
  lenient?: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Lower-case month and weekday names, short and full, to their numbers. */
const MONTH_NUMBER = new Map<string, number>([...MONTHS.map((m, i) => [m, i + 1] as const), ...MONTH_NAMES.map((m, i) => [m, i + 1] as const)]);
const WEEKDAY_NUMBER = new Map<string, number>([...DAYS.map((d, i) => [d.toLowerCase(), i] as const), ...DAY_NAMES.map((d, i) => [d, i] as const)]);

/** RFC 822 §5.1 zone names and their offsets from UTC in minutes. */
const ZONES: Readonly<Record<string, number>> = {
  UT: 0, UTC: 0, GMT: 0, Z: 0,
  EST: -300, EDT: -240, CST: -360, CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420,
};

// [weekday ","] day month year hh ":" mm [":" ss] [zone]
const RFC822 = /^(?:([A-Za-z]{3,9})\s*,?\s*)?(\d{1,2})[\s-]+([A-Za-z]{3,9})\.?[\s-]+(\d{4}|\d{2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(?:([A-Za-z]{1,5})|([+-])(\d{2}):?(\d{2}))?$/;

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

/** `reasons` with `why` added, comma-separated. */
function withReason(reasons: string | undefined, why: string): string {
  return reasons === undefined ? why : `${reasons}, ${why}`;
}

/**
 * An RFC 822 date-time as RSS 2.0 uses it (`Sat, 07 Sep 2002 09:42:31 GMT`, or a `+0200` zone) as W3C
 * Datetime. Read leniently, and said so: a two-digit year (RFC 2822 §4.3), full names, a missing or a
 * military zone (read as UTC), a `+hh:mm` zone. A wrong weekday is reported; the date wins.
 */
export function rfc822ToW3c(raw: string): Rfc822Conversion {
  // RFC 2822 §3.3 ends a date-time with [CFWS]: a comment after the zone, `+0000 (UTC)`, says nothing more.
  const s = raw.replace(/\([^()]*\)\s*$/, '').trim();
  const m = RFC822.exec(s);
  if (m === null) return { text: '', problem: s === '' ? 'the value is empty' : 'it does not match the RFC 822 date-time grammar (e.g. "Sat, 07 Sep 2002 09:42:31 GMT")' };
  // By index, not destructuring: once per feed item.
  const weekday = m[1];
  const dayText = m[2] as string;
  const monthText = m[3] as string;
  const yearText = m[4] as string;
  const hourText = m[5] as string;
  const minuteText = m[6] as string;
  const secondText = m[7];
  const zoneName = m[8];
  const sign = m[9];
  let lenient: string | undefined;
  const month = MONTH_NUMBER.get(monthText.toLowerCase()) ?? 0;
  if (month === 0) return { text: '', problem: `"${monthText}" is not a month name` };
  if (monthText.length !== 3) lenient = withReason(lenient, 'a full month name');
  let year = Number(yearText);
  if (yearText.length === 2) {
    year += year < 50 ? 2000 : 1900;
    lenient = withReason(lenient, 'a two-digit year');
  }
  if (year < 1) return { text: '', problem: 'year 0000 is out of range' };
  const day = Number(dayText);
  if (day < 1 || day > daysInMonth(year, month)) return { text: '', problem: `day ${dayText} is out of range for ${MONTHS[month - 1] as string} ${year}` };
  const hour = Number(hourText);
  const minute = Number(minuteText);
  const second = secondText === undefined ? 0 : Number(secondText);
  if (hour > 23) return { text: '', problem: `hour ${hourText} is out of range (00–23)` };
  if (minute > 59) return { text: '', problem: `minute ${minuteText} is out of range (00–59)` };
  if (second > 60) return { text: '', problem: `second ${secondText as string} is out of range (00–60)` };
  // RFC 2822 §3.3 allows a leap second; W3C Datetime (and xsd:dateTime) stop at 59.
  if (second === 60) lenient = withReason(lenient, 'a leap second (second 60) read as 59');

  let zone: string;
  if (zoneName !== undefined) {
    const upper = zoneName.toUpperCase();
    const offset = ZONES[upper];
    if (offset !== undefined) {
      zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad2(Math.abs(offset) / 60)}:00`;
    } else if (upper.length === 1 && upper !== 'J') {
      zone = 'Z';
      lenient = withReason(lenient, `the military zone "${zoneName}" (RFC 2822: treated as -0000, unknown) read as UTC`);
    } else {
      return { text: '', problem: `"${zoneName}" is not an RFC 822 zone (GMT, UT, EST, EDT, CST, CDT, MST, MDT, PST, PDT or ±hhmm)` };
    }
  } else if (sign !== undefined) {
    const zoneHours = m[10] as string;
    const zoneMinutes = m[11] as string;
    const hh = Number(zoneHours);
    const mm = Number(zoneMinutes);
    if (hh > 23 || mm > 59) return { text: '', problem: `zone ${sign}${zoneHours}${zoneMinutes} is out of range` };
    if (s.charCodeAt(s.length - 3) === 0x3a) lenient = withReason(lenient, 'a zone written ±hh:mm');
    zone = `${hh === 0 && mm === 0 ? '+' : sign}${zoneHours}:${zoneMinutes}`;
  } else {
    zone = 'Z';
    lenient = withReason(lenient, 'no time zone (read as UTC)');
  }
  if (hourText.length === 1) lenient = withReason(lenient, 'a one-digit hour');

  const text = `${year < 1000 ? String(year).padStart(4, '0') : year}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(Math.min(second, 59))}${zone}`;
  const result: Rfc822Conversion = { text };
  if (weekday !== undefined) {
    const lower = weekday.toLowerCase();
    const written = WEEKDAY_NUMBER.get(lower) ?? -1;
    if (written < 0) {
      lenient = withReason(lenient, `"${weekday}" is not a weekday name`);
    } else {
      if (lower.length !== 3) lenient = withReason(lenient, 'a full weekday name');
      const actual = ((daysFromCivil(year, month, day) % 7) + 11) % 7; // 0 = Sunday; 1970-01-01 was a Thursday
      if (actual !== written) result.weekday = { written: weekday, actual: DAYS[actual] as string };
    }
  }
  if (lenient !== undefined) result.lenient = lenient;
  return result;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** True when `url` is an absolute http(s) URL with a host (`http://x...`, any case of the scheme). */
export function isAbsoluteHttpUrl(url: string): boolean {
  // By character codes: this runs once per entry.
  if ((url.charCodeAt(0) | 0x20) !== 0x68 || (url.charCodeAt(1) | 0x20) !== 0x74 || (url.charCodeAt(2) | 0x20) !== 0x74 || (url.charCodeAt(3) | 0x20) !== 0x70) return false;
  let i = 4;
  if ((url.charCodeAt(4) | 0x20) === 0x73) i = 5;
  if (url.charCodeAt(i) !== 0x3a || url.charCodeAt(i + 1) !== 0x2f || url.charCodeAt(i + 2) !== 0x2f) return false;
  const c = url.charCodeAt(i + 3); // the host's first character: not '/', '?', '#', whitespace or the end
  return c === c && c !== 0x2f && c !== 0x3f && c !== 0x23 && c > 0x20;
}

/** True when `ref` starts with a scheme (`mailto:`, `urn:`, `http:`), i.e. is not a relative reference. */
export function hasScheme(ref: string): boolean {
  return SCHEME.test(ref);
}

/** `ref` resolved against the absolute http(s) URL `base` (RFC 3986 §5), or undefined when that fails. */
export function resolveReference(ref: string, base: string): string | undefined {
  return URL.canParse(ref, base) ? new URL(ref, base).href : undefined;
}

/**
 * The base URL an `xml:base` value establishes under `parent` (the base in scope, if any): the value
 * itself when it is an absolute http(s) URL, else the value resolved against `parent`, else `parent`.
 */
export function resolveBase(value: string | undefined, parent: string | undefined): string | undefined {
  if (value === undefined) return parent;
  const v = value.trim();
  if (isAbsoluteHttpUrl(v)) return v;
  if (parent === undefined || hasScheme(v)) return parent;
  return resolveReference(v, parent) ?? parent;
}
