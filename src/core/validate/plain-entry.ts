// The validator's fast path (issue #4, bench:validate): the entries of a good sitemap are handed to
// the reader and counted by the structure checker without their events, so that the bulk of it
// costs next to no script. A urlset's `<url>` elements are read by the bulk lane
// (read/plain-lane.ts, WebAssembly: the one fast path for them; where it cannot run, they go through
// the events); a sitemap index's `<sitemap>` elements, few, by one sticky RegExp:
//
//   <sitemap><loc>…</loc>[<lastmod>…</lastmod>]</sitemap>
//
// unprefixed names in the sitemap namespace, no attributes, whitespace only between elements, and
// values in forms that every check passes: the schemas (sitemap.xsd: loc an anyURI of 12 to 2,048
// characters, lastmod an xsd:date or xsd:dateTime), the reader (no diagnostic) and the protocol's
// encoding rule (only characters a URL may hold). Anything else is declined and goes through the
// events, diagnostics and all. The reports are the same either way:
// test/core/validate/plain-entry.test.ts validates every fixture and corpus file both ways, and
// fast-check mutations of them, and compares.

import type { SitemapRef, UrlEntry } from '../model.js';
import type { XmlShortcut } from '../xml/tokenizer.js';
import type { XmlSitemapReader } from '../read/xml-reader.js';
import type { StructureChecker } from './structure.js';
import { addLaneExtensions, LANE_FIELDS, laneLoc, PlainLane, R_COLUMN, R_END, R_HASH_1, R_HASH_2, R_LASTMOD_LENGTH, R_LASTMOD_START, R_LINE, R_START, type RunText } from '../read/plain-lane.js';

const WS = '[ \\t\\n\\r]*';
/** sitemaps.org protocol: entity escaping, RFC 3986. Unreserved and reserved characters but `&` (an entity in XML), `[`, `]`, `#`; `%` checked after. */
const URL_CHARS = "A-Za-z0-9\\-._~!$'()*+,;=:@%";
/** The characters of a host or of user information here: URL_CHARS but `:` and `@`, which only separate them. */
const AUTHORITY_CHARS = "A-Za-z0-9\\-._~!$'()*+,;=%";
/**
 * An absolute http(s) URL: an authority (a host, with user information before an `@` and a port of
 * digits after a `:`, as libxml2 parses it), then a path and query, then a fragment; every such
 * string is an xsd:anyURI.
 */
const LOC = `(https?://(?:[${AUTHORITY_CHARS}]+@)?[${AUTHORITY_CHARS}]+(?::[0-9]+)?(?:[/?][${URL_CHARS}/?]*)?(?:#[${URL_CHARS}/?]*)?)`;
/** xsd:date or xsd:dateTime in the W3C Datetime forms the reader takes as they are; days 29–31 are checked after. */
const DATE = '((?!0000)\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])(?:T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:Z|[+-](?:(?:0\\d|1[0-3]):[0-5]\\d|14:00)))?)';
/** The blank run after an entry, when the next entry starts right after it (the events would ignore it too). */
const after = (element: string): string => `(?:[ \\t\\n\\r]+(?=<${element}>))?`;

const SITEMAP_PATTERN = `<sitemap>${WS}<loc>${LOC}</loc>${WS}(?:<lastmod>${DATE}</lastmod>${WS})?</sitemap>${after('sitemap')}`;

const G_LOC = 1;
const G_LASTMOD = 2;

/** Namespace prefixes bound on the root to the image and XHTML namespaces; absent: those elements go the long way. */
export interface PlainPrefixes {
  image?: string;
  xhtml?: string;
}

/** sitemap.xsd: loc is 12 to 2,048 characters; the protocol wants fewer than 2,048. */
const MIN_LOC = 12;
const MAX_LOC = 2047;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether a loc matched by LOC is all a valid URL needs: its length, and `%` only in escapes. */
function isPlainLoc(loc: string): boolean {
  return loc.length >= MIN_LOC && loc.length <= MAX_LOC && hasValidEscapes(loc);
}

/** Whether every `%` in a URL matched by LOC starts an escape (an xsd:anyURI, RFC 3986). */
function hasValidEscapes(loc: string): boolean {
  for (let i = loc.indexOf('%'); i !== -1; i = loc.indexOf('%', i + 3)) {
    if (!isHexDigit(loc.charCodeAt(i + 1)) || !isHexDigit(loc.charCodeAt(i + 2))) return false;
  }
  return true;
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

/** Whether a date matched by DATE exists (the pattern lets days 29 to 31 through in any month). */
function isRealDate(date: string): boolean {
  const tens = date.charCodeAt(8);
  if (tens < 0x32 || (tens === 0x32 && date.charCodeAt(9) < 0x39)) return true;
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number));
}

/**
 * The shortcut for the entries of a urlset (`url`) or sitemap index (`sitemap`) whose root and names
 * are the plain ones (StructureChecker.plainEntryName), for the tokenizer at depth 1. `delivering`
 * is told of each entry just before the reader delivers it (its loc needs no encoding check).
 */
export function plainEntryShortcut(name: 'url' | 'sitemap', reader: XmlSitemapReader, structure: StructureChecker, delivering: Delivering, prefixes: PlainPrefixes = {}, lane: LaneOptions | null = null): XmlShortcut {
  if (name === 'sitemap') return sitemapShortcut(reader, structure, delivering);
  // A url holds up to image:image > image:loc (three levels).
  const shortcut: XmlShortcut = { depth: 1, nesting: prefixes.image !== undefined ? 3 : 2, endTag: '</url>' };
  const plainLane = lane?.lane;
  if (plainLane !== undefined) {
    plainLane.readExtensions(prefixes);
    const options = lane as LaneOptions;
    const textOf = asciiTextOf();
    shortcut.bulk = (buf, at, lines, maxLength) => takeRun(plainLane, buf, at, lines, maxLength, options, reader, structure, delivering, textOf);
    shortcut.bulkBytes = (bytes, at, lines, maxLength) => takeRun(plainLane, bytes, at, lines, maxLength, options, reader, structure, delivering, textOf);
  }
  return shortcut;
}

/** The RegExp shortcut for the `<sitemap>` entries of an index. */
function sitemapShortcut(reader: XmlSitemapReader, structure: StructureChecker, delivering: Delivering): XmlShortcut {
  const take = (m: RegExpExecArray, maxLength: number, line: number, column: number): number => {
    const lastmod = m[G_LASTMOD];
    if (m[0].length > maxLength || !isPlainLoc(m[G_LOC] as string) || (lastmod !== undefined && !isRealDate(lastmod))) return -1;
    const ref: SitemapRef = { loc: m[G_LOC] as string };
    if (lastmod !== undefined) ref.lastmod = lastmod;
    if (!reader.acceptsPlainEntry() || !structure.takePlainEntry('sitemap')) return -1;
    delivering(ref);
    reader.deliverPlainSitemap(ref, line, column);
    return m.index + m[0].length;
  };
  return { depth: 1, nesting: 2, pattern: new RegExp(SITEMAP_PATTERN, 'y'), endTag: '</sitemap>', take };
}

/** The bulk lane's settings. */
export interface LaneOptions {
  /** The lane to read with (the validator's, with the duplicate check's table in it). */
  lane: PlainLane;
  checkRun: CheckRun;
}

/** Told of an entry just before the reader delivers it; `hash1`, `hash2`: its loc's fingerprint, when known. */
export type Delivering = (entry: UrlEntry | SitemapRef, hash1?: number, hash2?: number) => void;

/**
 * The validator's checks for a run of the lane's urls that the reader's sink counted instead of
 * taking one by one (ReaderSink.urlRun): records `0` to `count - 1` of the lane's last scan, over
 * `text` (the text the records index), or a function that makes it (a run read from bytes: the
 * string is made only when a check needs a value, which is rare).
 */
export type CheckRun = (text: RunText, count: number) => void;

/**
 * A function that gives the text of ASCII bytes, every byte a character (what the records of a bytes
 * scan index). It keeps the last one: the runs of a chunk index the same bytes (an array of the
 * chunk's own, as the lane requires), and each would otherwise decode the whole chunk again.
 */
function asciiTextOf(): (bytes: Uint8Array) => string {
  let decoded: Uint8Array | undefined;
  let text = '';
  return (bytes) => {
    if (bytes !== decoded) {
      text = new TextDecoder().decode(bytes);
      decoded = bytes;
    }
    return text;
  };
}

/**
 * The lane's run of urls from `at`, delivered as `take` delivers a match: to `checkRun` when the
 * reader's sink counts runs, else one by one (the same entries but for changefreq, priority and a
 * lastmod surely in the past, which no check reads once the pattern has passed them). `source` is
 * the text or the ASCII bytes the run is read from; `textOf` makes the text of bytes when a string is
 * needed. Returns the index after the last one, or -1 when it read none.
 */
function takeRun(lane: PlainLane, source: string | Uint8Array, at: number, lines: Int32Array, maxLength: number, options: LaneOptions, reader: XmlSitemapReader, structure: StructureChecker, delivering: Delivering, textOf: (bytes: Uint8Array) => string): number {
  const budget = reader.plainEntryBudget();
  if (budget === 0) return -1;
  const bytes = typeof source === 'string' ? undefined : source;
  const count = bytes === undefined
    ? lane.scan(source as string, at, lines[0] as number, lines[1] as number, maxLength, budget)
    : lane.scanBytes(bytes, at, lines[0] as number, lines[1] as number, maxLength, budget);
  if (count === 0) return -1;
  const taken = structure.takePlainEntries('url', count);
  if (taken === 0) return -1;
  const counted = reader.deliverPlainRun(taken);
  if (counted !== -1) {
    options.checkRun(bytes === undefined ? (source as string) : () => textOf(bytes), counted);
  } else {
    const buf = bytes === undefined ? (source as string) : textOf(bytes);
    for (let k = 0; k < taken; k++) {
      // Taken afresh for each: the checks of the last one may have grown the lane's memory.
      const records = lane.records;
      const r = k * LANE_FIELDS;
      const entry: UrlEntry = { loc: laneLoc(buf, records, r) };
      addLaneExtensions(buf, records, r, lane.extras, entry);
      const lastmodStart = records[r + R_LASTMOD_START] as number;
      if (lastmodStart !== -1) entry.lastmod = buf.slice(lastmodStart, lastmodStart + (records[r + R_LASTMOD_LENGTH] as number));
      const line = records[r + R_LINE] as number;
      const column = records[r + R_COLUMN] as number;
      delivering(entry, records[r + R_HASH_1], records[r + R_HASH_2]);
      reader.deliverPlainUrl(entry, line, column);
    }
  }
  const records = lane.records;
  if (taken < count) {
    // Stopped before a url the structure did not take: the line state is that url's.
    const r = taken * LANE_FIELDS;
    const start = records[r + R_START] as number;
    lines[0] = records[r + R_LINE] as number;
    lines[1] = start - (records[r + R_COLUMN] as number) + 1;
    return start;
  }
  lines[0] = lane.endLine;
  lines[1] = lane.endLineStart;
  return records[(count - 1) * LANE_FIELDS + R_END] as number;
}
