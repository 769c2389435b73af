// The XML Schema simple types the sitemap schemas use (XSD 1.1 part 2), checked as libxml2 checks
// them, so that validate and `xmllint --schema` agree. A check takes the value as written and returns
// undefined when it is valid, else a short reason.

import { daysInMonth } from '../datetime.js';
import { xmlTrim } from '../xml/whitespace.js';

export type SimpleTypeCheck = (value: string) => string | undefined;

/** XSD whiteSpace="collapse": runs of space, tab, CR, LF become one space; leading and trailing removed. */
function collapse(value: string): string {
  return xmlTrim(value.replace(/[\x20\t\r\n]+/g, ' ')); // not String#trim, which takes U+00A0, U+FEFF... too
}

// RFC 3986 URI-reference, as libxml2's xmlParseURI accepts it.
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = '%[0-9A-Fa-f]{2}';
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const SCHEME = '[A-Za-z][A-Za-z0-9+\\-.]*';
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
// libxml2 takes whatever stands between '[' and the next ']' as an IP literal, unchecked: `[zz]` too.
const IP_LITERAL = '\\[[^\\]]*\\]';
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
// RFC 3986 allows an empty port (`host:`); libxml2's xmlParse3986Port wants a digit.
const AUTHORITY = `(?:${USERINFO}@)?(?:${IP_LITERAL}|${REG_NAME})(?::[0-9]+)?`;
const PATH = `(?:${PCHAR}|/)*`;
const QUERY = `(?:${PCHAR}|[/?])*`;
// libxml2's xmlParse3986Fragment takes '[' and ']' too (RFC 3986 §3.5 does not).
const FRAGMENT = `(?:${PCHAR}|[/?[\\]])*`;
// After an authority the path is empty or starts with `/` (path-abempty); without one, not with `//`.
const HIER_PART = `(?://${AUTHORITY}(?:/${PATH})?|(?!//)${PATH})(?:\\?${QUERY})?(?:#${FRAGMENT})?`;
/** What starts with a scheme must be an absolute URI (libxml2 tries that first). */
const STARTS_WITH_SCHEME = new RegExp(`^${SCHEME}:`);
const ABSOLUTE_URI = new RegExp(`^${SCHEME}:${HIER_PART}$`);
const RELATIVE_REFERENCE = new RegExp(`^${HIER_PART}$`);
/** The significant digits of an authority's port of ten digits or more. */
const LONG_PORT = new RegExp(`^(?:${SCHEME}:)?//[^/?#]*:0*([1-9][0-9]{9,})(?:[/?#]|$)`);

/** libxml2 reads a port into an int: it refuses a URI whose port is past 2,147,483,647. */
function portProblem(v: string): string | undefined {
  // Most URIs have no ':' after their '//' (no port): two string scans, not the expression.
  const slashes = v.indexOf('//');
  if (slashes === -1 || v.indexOf(':', slashes) === -1) return undefined;
  const digits = LONG_PORT.exec(v)?.[1];
  return digits !== undefined && (digits.length > 10 || digits > '2147483647') ? 'not a URI reference libxml2 takes: the port is past 2147483647' : undefined;
}

/**
 * xsd:anyURI. libxml2 collapses whitespace, replaces the characters RFC 3986 leaves out with `_`, and
 * parses the rest as a URI reference: a raw space passes (loc/not-encoded flags it), a bad `%` not.
 */
export const anyUri: SimpleTypeCheck = (value) => {
  // The common case, in one pass: collapsing and the replacement change nothing in an absolute URI.
  if (ABSOLUTE_URI.test(value)) return portProblem(value);
  const v = collapse(value).replace(/[\x00-\x20\x7f-\uffff<>"{}|\\^`']/g, '_');
  if (v === '') return undefined;
  if (STARTS_WITH_SCHEME.test(v)) return ABSOLUTE_URI.test(v) ? portProblem(v) : 'not a URI reference (RFC 3986)';
  if (!RELATIVE_REFERENCE.test(v)) return 'not a URI reference (RFC 3986)';
  // A relative reference's first segment cannot hold a ':' (it would read as a scheme): RFC 3986 §4.2.
  if (!v.startsWith('/')) {
    const first = /^[^/?#]*/.exec(v)?.[0] ?? '';
    if (first.includes(':')) return 'not a URI reference (RFC 3986): a relative path cannot start with a segment holding ":"';
  }
  return portProblem(v);
};

// The fields of the last value readDate read (module scratch: a check allocates nothing).
let readYear = '';
let readMonth = 0;
let readDay = 0;
let readHour = 0;
let readMinute = 0;
let readSecond = 0;
let readZeroFraction = true;
let readZone: string | undefined;

/** The number written by the `n` ASCII digits at `at`, or -1. */
function digitsAt(v: string, at: number, n: number): number {
  let x = 0;
  for (let k = 0; k < n; k++) {
    const d = v.charCodeAt(at + k) - 0x30;
    if (!(d >= 0 && d <= 9)) return -1;
    x = x * 10 + d;
  }
  return x;
}

/**
 * Whether `v` is an xsd:date (`-?YYYY-MM-DD`), or an xsd:dateTime when `withTime`, as a form; leaves
 * the fields in the scratch above. By hand: lastmod is checked on every entry, and a match array costs.
 */
function readDate(v: string, withTime: boolean): boolean {
  const n = v.length;
  let i = v.charCodeAt(0) === 0x2d ? 1 : 0;
  const yearStart = i;
  while (i < n && digitsAt(v, i, 1) !== -1) i++;
  if (i - yearStart < 4 || v.charCodeAt(i) !== 0x2d || v.charCodeAt(i + 3) !== 0x2d) return false;
  readYear = v.slice(yearStart, i);
  readMonth = digitsAt(v, i + 1, 2);
  readDay = digitsAt(v, i + 4, 2);
  if (readMonth === -1 || readDay === -1) return false;
  i += 6;
  readZeroFraction = true;
  if (withTime) {
    if (v.charCodeAt(i) !== 0x54 || v.charCodeAt(i + 3) !== 0x3a || v.charCodeAt(i + 6) !== 0x3a) return false;
    readHour = digitsAt(v, i + 1, 2);
    readMinute = digitsAt(v, i + 4, 2);
    readSecond = digitsAt(v, i + 7, 2);
    if (readHour === -1 || readMinute === -1 || readSecond === -1) return false;
    i += 9;
    if (v.charCodeAt(i) === 0x2e) {
      const start = ++i;
      for (let d = digitsAt(v, i, 1); d !== -1; d = digitsAt(v, ++i, 1)) if (d !== 0) readZeroFraction = false;
      if (i === start) return false;
    }
  }
  readZone = undefined;
  if (i === n) return true;
  const c = v.charCodeAt(i);
  if (c === 0x5a) readZone = 'Z';
  else if ((c === 0x2b || c === 0x2d) && digitsAt(v, i + 1, 2) !== -1 && v.charCodeAt(i + 3) === 0x3a && digitsAt(v, i + 4, 2) !== -1) readZone = v.slice(i, i + 6);
  return readZone !== undefined && i + readZone.length === n;
}

function dateProblem(yearText: string, month: number, day: number, tz: string | undefined): string | undefined {
  if (yearText.length > 4 && yearText.startsWith('0')) return 'a year of more than four digits cannot start with 0';
  if (/^0+$/.test(yearText)) return 'there is no year 0000';
  if (month < 1 || month > 12) return 'the month is not 01–12';
  if (day < 1 || day > daysInMonth(Number(yearText), month)) return 'no such day in that month';
  if (tz !== undefined && tz !== 'Z') {
    const h = Number(tz.slice(1, 3));
    const m = Number(tz.slice(4, 6));
    if (m > 59 || h * 60 + m > 840) return 'the time zone is not within ±14:00';
  }
  return undefined;
}

/** xsd:date: `YYYY-MM-DD` with an optional time zone. */
const xsdDate: SimpleTypeCheck = (value) => {
  // As written first: a value in the form has no whitespace to collapse.
  if (!readDate(value, false) && !readDate(collapse(value), false)) return 'not an xsd:date (YYYY-MM-DD)';
  return dateProblem(readYear, readMonth, readDay, readZone);
};

/** xsd:dateTime: `YYYY-MM-DDThh:mm:ss[.s]` with an optional time zone; 24:00:00 is midnight at the end of the day. */
const xsdDateTime: SimpleTypeCheck = (value) => {
  if (!readDate(value, true) && !readDate(collapse(value), true)) return 'not an xsd:dateTime (YYYY-MM-DDThh:mm:ss with a time zone)';
  const date = dateProblem(readYear, readMonth, readDay, readZone);
  if (date !== undefined) return date;
  if (readHour === 24 ? readMinute !== 0 || readSecond !== 0 || !readZeroFraction : readHour > 23 || readMinute > 59 || readSecond > 59) return 'the time is out of range';
  return undefined;
};

/** The union xsd:date | xsd:dateTime of lastmod and the other dates. */
export const dateOrDateTime: SimpleTypeCheck = (value) => {
  // The likelier one first (a date-time is longer than a date with a time zone).
  const valid = value.length > 16 ? xsdDateTime(value) === undefined || xsdDate(value) === undefined : xsdDate(value) === undefined || xsdDateTime(value) === undefined;
  return valid ? undefined : 'not an xsd:date or xsd:dateTime (YYYY-MM-DD, or YYYY-MM-DDThh:mm:ss with a time zone)';
};

/** xsd:decimal's lexical form (Part 2 §3.2.3): no exponent. */
export const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
// Part 2 §3.3.13; the derived types keep the form (nonNegativeInteger's zero may be "-0", §3.3.20).
const INTEGER = /^[+-]?\d+$/;

/** The value of an xsd:integer written `v` (collapsed) as the nearest double (`-0` is 0); undefined if not one. */
export function integerValue(v: string): number | undefined {
  return INTEGER.test(v) ? Number(v) + 0 : undefined;
}

/** The sign of a - b, compared exactly as libxml2 does: 1.0000000000000000000001 is past 1.0 (as a double, 1). */
function compareDecimal(a: string, b: number): number {
  const parts = (d: string): [negative: boolean, whole: string, fraction: string] => {
    const [whole = '', fraction = ''] = d.replace(/^[+-]/, '').split('.');
    const w = whole.replace(/^0+/, '');
    const f = fraction.replace(/0+$/, '');
    return [d.startsWith('-') && (w !== '' || f !== ''), w, f];
  };
  const [an, aw, af] = parts(a);
  const [bn, bw, bf] = parts(String(b));
  if (an !== bn) return an ? -1 : 1;
  const magnitude = aw.length !== bw.length ? aw.length - bw.length : aw !== bw ? (aw < bw ? -1 : 1) : af === bf ? 0 : af < bf ? -1 : 1;
  return an ? -magnitude : magnitude;
}

/** xsd:decimal within [min, max]. */
export function decimalIn(min: number, max: number): SimpleTypeCheck {
  return (value) => {
    const v = collapse(value);
    if (!DECIMAL.test(v)) return 'not a decimal number';
    return decimalWithin(v, min, max) ? undefined : `not within ${min}–${max}`;
  };
}

/** Whether a decimal written `v` (DECIMAL's form) lies within [min, max]. */
export function decimalWithin(v: string, min: number, max: number): boolean {
  const n = Number(v);
  // A double on a bound may stand for a decimal just past it: those are compared exactly.
  return !(n < min || n > max || (n === min && compareDecimal(v, min) < 0) || (n === max && compareDecimal(v, max) > 0));
}

/** xsd:integer (or nonNegativeInteger) within [min, max] (Infinity: no bound), compared as doubles. */
export function integerIn(min: number, max: number): SimpleTypeCheck {
  return (value) => {
    const n = integerValue(collapse(value));
    if (n === undefined) return 'not an integer';
    if (max === Number.POSITIVE_INFINITY) return n < min ? `less than ${min}` : undefined;
    return n < min || n > max ? `not within ${min}–${max}` : undefined;
  };
}

/** A string type restricted to values (enumeration); xsd:string keeps whitespace as written. */
export function oneOf(values: readonly string[]): SimpleTypeCheck {
  const set = new Set(values);
  return (value) => (set.has(value) ? undefined : `not one of ${values.join(', ')}`);
}

/** An XSD regular expression as a JavaScript one (Part 2 appendix G): `\w` takes `é` and `$`, not `_`. */
function xsdRegExpSource(pattern: string): string {
  // Each escape as [set] or [^set]: \w is "not punctuation, separator or other", \W its complement.
  const SETS: Readonly<Record<string, readonly [set: string, negated: boolean]>> = {
    w: ['\\p{P}\\p{Z}\\p{C}', true], W: ['\\p{P}\\p{Z}\\p{C}', false],
    d: ['\\p{Nd}', false], D: ['\\p{Nd}', true],
    s: ['\\x20\\t\\n\\r', false], S: ['\\x20\\t\\n\\r', true],
  };
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[++i] as string;
      const escape = SETS[next];
      if (escape === undefined) {
        out += c + next;
      } else if (!inClass) {
        out += escape[1] ? `[^${escape[0]}]` : `[${escape[0]}]`;
      } else if (!escape[1]) {
        out += escape[0];
      } else {
        throw new Error(`XSD pattern ${JSON.stringify(pattern)}: \\${next} inside a character class is not supported`);
      }
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    out += c;
  }
  return out;
}

/**
 * An xsd:string restricted by an XSD pattern (anchored). The expression is made at the first check:
 * V8 parses a `u` expression when it is made, which cost every command's start 0.6 ms.
 */
export function matching(pattern: string, what: string): SimpleTypeCheck {
  let re: RegExp | undefined;
  return (value) => ((re ??= new RegExp(`^(?:${xsdRegExpSource(pattern)})$`, 'u')).test(value) ? undefined : `not ${what}`);
}

/** xsd:string with a maximum length (in characters, as XSD counts them: code points). */
export function maxLength(max: number): SimpleTypeCheck {
  return (value) => {
    let n = 0;
    for (const _ of value) if (++n > max) return `longer than ${max} characters`;
    return undefined;
  };
}

export const anyString: SimpleTypeCheck = () => undefined;

/** Two checks that must both pass. */
export function both(a: SimpleTypeCheck, b: SimpleTypeCheck): SimpleTypeCheck {
  return (value) => a(value) ?? b(value);
}

const SPACE_OR_SURROGATE = /[\x20\t\r\n\ud800-\udfff]/;

/** Length of the collapsed value within [min, max] characters (the facets of tLoc on xsd:anyURI). */
export function collapsedLengthIn(min: number, max: number): SimpleTypeCheck {
  return (value) => {
    // Characters, not code units: a surrogate pair is one.
    const n = SPACE_OR_SURROGATE.test(value) ? [...collapse(value)].length : value.length;
    return n < min ? `shorter than ${min} characters` : n > max ? `longer than ${max} characters` : undefined;
  };
}

export const XSD_NAMESPACE = 'http://www.w3.org/2001/XMLSchema';

/** XSD 1.0's built-in types (Part 2 §3) and their bases ('' for anyType): what an xsi:type can name. */
export const XSD_BUILTIN_BASES: Readonly<Record<string, string>> = {
  anyType: '',
  anySimpleType: 'anyType',
  ...Object.fromEntries(['string', 'boolean', 'decimal', 'float', 'double', 'duration', 'dateTime', 'time', 'date', 'gYearMonth', 'gYear', 'gMonthDay',
    'gDay', 'gMonth', 'hexBinary', 'base64Binary', 'anyURI', 'QName', 'NOTATION', 'NMTOKENS', 'IDREFS', 'ENTITIES'].map((name) => [name, 'anySimpleType'])),
  normalizedString: 'string', token: 'normalizedString', language: 'token', NMTOKEN: 'token', Name: 'token', NCName: 'Name', ID: 'NCName', IDREF: 'NCName', ENTITY: 'NCName',
  integer: 'decimal', nonPositiveInteger: 'integer', negativeInteger: 'nonPositiveInteger', long: 'integer', int: 'long', short: 'int', byte: 'short',
  nonNegativeInteger: 'integer', positiveInteger: 'nonNegativeInteger', unsignedLong: 'nonNegativeInteger', unsignedInt: 'unsignedLong', unsignedShort: 'unsignedInt', unsignedByte: 'unsignedShort',
};

// XML 1.0 (fifth edition) NameStartChar and NameChar, without the colon: an NCName.
const NAME_START = 'A-Z_a-z\\xC0-\\xD6\\xD8-\\xF6\\xF8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME_CHAR = `\\u0300-\\u036F${NAME_START}\\-.0-9\\xB7\\u203F\\u2040`;
const NCNAME = `[${NAME_START}][${NAME_CHAR}]*`;
/** A collapsed value matching a pattern (the string types derived by pattern in Part 2). */
function collapsedMatching(pattern: string, what: string): SimpleTypeCheck {
  const check = matching(pattern, what);
  return (value) => check(collapse(value));
}

const QNAME = collapsedMatching(`(?:${NCNAME}:)?${NCNAME}`, 'a QName');

/** xsd:QName (an NCName, or two joined by a colon), whitespace collapsed as libxml2 does before it checks. */
export function isQName(value: string): boolean {
  return QNAME(value) === undefined;
}

/** The built-in types derived from the elements' ones, as libxml2 checks them (an ENTITY never: no DTD). */
export const XSD_DERIVED_CHECKS: Readonly<Record<string, SimpleTypeCheck>> = {
  normalizedString: anyString,
  token: anyString,
  language: collapsedMatching('[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*', 'a language tag (xsd:language)'),
  NMTOKEN: collapsedMatching(`[${NAME_CHAR}:]+`, 'a name token (xsd:NMTOKEN)'),
  Name: collapsedMatching(`[${NAME_START}:][${NAME_CHAR}:]*`, 'an XML name (xsd:Name)'),
  NCName: collapsedMatching(NCNAME, 'an XML name without a colon (xsd:NCName)'),
  ID: collapsedMatching(NCNAME, 'an XML name without a colon (xsd:ID)'),
  IDREF: collapsedMatching(NCNAME, 'an XML name without a colon (xsd:IDREF)'),
  ENTITY: () => 'not the name of an unparsed entity the document declares (xsd:ENTITY)',
  positiveInteger: integerIn(1, Number.POSITIVE_INFINITY),
  // 2^64 - 1 is past a double's integers: compared as digits.
  unsignedLong: both(integerIn(0, Number.POSITIVE_INFINITY), (value) => {
    const digits = collapse(value).replace(/^\+?0*/, '');
    return digits.length > 20 || (digits.length === 20 && digits > '18446744073709551615') ? 'not within 0–18446744073709551615' : undefined;
  }),
  unsignedInt: integerIn(0, 4_294_967_295),
  unsignedShort: integerIn(0, 65_535),
  unsignedByte: integerIn(0, 255),
};
