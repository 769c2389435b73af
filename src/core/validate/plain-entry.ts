// The validator's fast path (issue #4, bench:validate): a `<url>` or `<sitemap>` element that is
// valid as a whole, matched by one sticky RegExp, is handed to the reader and counted by the
// structure checker without its events, so that the bulk of a good sitemap costs next to no script.
// The shape, stricter than the reader's own shortcut (read/entry-shortcut.ts):
//
//   <url><loc>…</loc>[<lastmod>…</lastmod>][<changefreq>…</changefreq>][<priority>…</priority>]
//        then any number of <image:image><image:loc>…</image:loc></image:image>
//        and <xhtml:link rel="alternate" hreflang="…" href="…"/>, in any order</url>
//
// unprefixed names in the sitemap namespace (the extensions' prefixes bound on the root), no other
// attributes, whitespace only between elements, and
// values in forms that every check passes: the schemas (sitemap.xsd: loc an anyURI of 12 to 2,048
// characters, lastmod an xsd:date or xsd:dateTime, the seven changefreqs, priority a decimal in
// 0.0–1.0), the reader (no diagnostic) and the protocol's encoding rule (only characters a URL may
// hold). Anything else (extensions, whitespace around a value, entities, comments, a date the
// reader or the XSD would question) is declined and goes through the events, diagnostics and all.
// The reports are the same either way: test/core/validate/plain-entry.test.ts validates every
// fixture and corpus file both ways, and fast-check mutations of them, and compares.

import type { AlternateLink, Changefreq, ImageEntry, SitemapRef, UrlEntry } from '../model.js';
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
const CHANGEFREQ = '(always|hourly|daily|weekly|monthly|yearly|never)';
const PRIORITY = '(0(?:\\.\\d*)?|1(?:\\.0*)?|\\.\\d+)';
/** The blank run after an entry, when the next entry starts right after it (the events would ignore it too). */
const after = (element: string): string => `(?:[ \\t\\n\\r]+(?=<${element}>))?`;

/** Up to the priority; group G_END is the end tag when no extension follows. */
const URL_PATTERN = `<url>${WS}<loc>${LOC}</loc>${WS}(?:<lastmod>${DATE}</lastmod>${WS})?(?:<changefreq>${CHANGEFREQ}</changefreq>${WS})?(?:<priority>${PRIORITY}</priority>${WS})?(</url>${after('url')})?`;
/** A language tag's characters (the hreflang rules judge the tag itself). */
const HREFLANG = '([A-Za-z0-9_-]+)';
const SITEMAP_PATTERN = `<sitemap>${WS}<loc>${LOC}</loc>${WS}(?:<lastmod>${DATE}</lastmod>${WS})?</sitemap>${after('sitemap')}`;

const G_LOC = 1;
const G_LASTMOD = 2;
const G_CHANGEFREQ = 3;
const G_PRIORITY = 4;
const G_END = 5;

// Groups of the extension pattern.
const G_IMAGE_LOC = 1;
const G_HREFLANG = 2;
const G_HREF = 3;
const G_URL_END = 4;

/** Namespace prefixes bound on the root to the image and XHTML namespaces; absent: those elements go the long way. */
export interface PlainPrefixes {
  image?: string;
  xhtml?: string;
}

function escapeName(name: string): string {
  return name.replace(/[.-]/g, '\\$&');
}

/** One image or hreflang link in the writer's form, or the `</url>` end tag: tried in a loop after the url pattern. */
function extensionPattern(prefixes: PlainPrefixes): RegExp {
  const never = '(?!)()';
  const image = prefixes.image === undefined ? never : `<${escapeName(prefixes.image)}:image>${WS}<${escapeName(prefixes.image)}:loc>${LOC}</${escapeName(prefixes.image)}:loc>${WS}</${escapeName(prefixes.image)}:image>`;
  const link = prefixes.xhtml === undefined ? `${never}()` : `<${escapeName(prefixes.xhtml)}:link rel="alternate" hreflang="${HREFLANG}" href="${LOC}"${WS}/>`;
  return new RegExp(`(?:${image}|${link})${WS}|(</url>${after('url')})`, 'y');
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

/** What the patterns leave to script in a url or sitemap match: its length within the budget, the loc's length and escapes, the lastmod's day. */
function hasPlainLocAndDate(m: RegExpExecArray, maxLength: number): boolean {
  const lastmod = m[G_LASTMOD];
  return m[0].length <= maxLength && isPlainLoc(m[G_LOC] as string) && (lastmod === undefined || isRealDate(lastmod));
}

/**
 * The shortcut for the entries of a urlset (`url`) or sitemap index (`sitemap`) whose root and names
 * are the plain ones (StructureChecker.plainEntryName), for the tokenizer at depth 1. `delivering`
 * is told of each entry just before the reader delivers it (its loc needs no encoding check).
 */
export function plainEntryShortcut(name: 'url' | 'sitemap', reader: XmlSitemapReader, structure: StructureChecker, delivering: Delivering, prefixes: PlainPrefixes = {}, lane: LaneOptions | null = null): XmlShortcut {
  const pattern = new RegExp(name === 'url' ? URL_PATTERN : SITEMAP_PATTERN, 'y');
  const extension = extensionPattern(prefixes);
  /** Images and links from `from` to `</url>` (ending by `limit`) into `entry`: the index after the url, or -1 to decline. */
  const readExtensions = (text: string, from: number, limit: number, entry: UrlEntry): number => {
    let images: ImageEntry[] | undefined;
    let alternates: AlternateLink[] | undefined;
    extension.lastIndex = from;
    for (;;) {
      const m = extension.exec(text);
      if (m === null || extension.lastIndex > limit) return -1;
      if (m[G_URL_END] !== undefined) break;
      const imageLoc = m[G_IMAGE_LOC];
      if (imageLoc !== undefined) {
        if (!hasValidEscapes(imageLoc)) return -1;
        (images ??= []).push({ loc: imageLoc });
      } else {
        const href = m[G_HREF] as string;
        if (!hasValidEscapes(href)) return -1;
        (alternates ??= []).push({ hreflang: m[G_HREFLANG] as string, href });
      }
    }
    if (images !== undefined) entry.images = images;
    if (alternates !== undefined) entry.alternates = alternates;
    return extension.lastIndex;
  };
  const take = name === 'url'
    ? (m: RegExpExecArray, maxLength: number, line: number, column: number): number => {
        if (!hasPlainLocAndDate(m, maxLength)) return -1;
        const whole = m[0];
        const lastmod = m[G_LASTMOD];
        const entry: UrlEntry = { loc: m[G_LOC] as string };
        if (lastmod !== undefined) entry.lastmod = lastmod;
        const changefreq = m[G_CHANGEFREQ];
        if (changefreq !== undefined) entry.changefreq = changefreq as Changefreq;
        const priority = m[G_PRIORITY];
        if (priority !== undefined) entry.priority = Number(priority);
        const end = m[G_END] !== undefined ? m.index + whole.length : readExtensions(m.input, m.index + whole.length, m.index + maxLength, entry);
        if (end === -1 || !reader.acceptsPlainEntry() || !structure.takePlainEntry('url')) return -1;
        delivering(entry);
        reader.deliverPlainUrl(entry, line, column);
        return end;
      }
    : (m: RegExpExecArray, maxLength: number, line: number, column: number): number => {
        if (!hasPlainLocAndDate(m, maxLength)) return -1;
        const lastmod = m[G_LASTMOD];
        const ref: SitemapRef = { loc: m[G_LOC] as string };
        if (lastmod !== undefined) ref.lastmod = lastmod;
        if (!reader.acceptsPlainEntry() || !structure.takePlainEntry('sitemap')) return -1;
        delivering(ref);
        reader.deliverPlainSitemap(ref, line, column);
        return m.index + m[0].length;
      };
  // A url holds up to image:image > image:loc (three levels); a sitemap loc and lastmod.
  const shortcut: XmlShortcut = { depth: 1, nesting: name === 'url' && prefixes.image !== undefined ? 3 : 2, pattern, endTag: `</${name}>`, take };
  const plainLane = name === 'url' && lane !== null ? lane.lane : undefined;
  if (plainLane !== undefined) {
    plainLane.readExtensions(prefixes);
    const options = lane as LaneOptions;
    const textOf = asciiTextOf();
    shortcut.bulk = (buf, at, lines, maxLength) => takeRun(plainLane, buf, at, lines, maxLength, options, reader, structure, delivering, textOf);
    shortcut.bulkBytes = (bytes, at, lines, maxLength) => takeRun(plainLane, bytes, at, lines, maxLength, options, reader, structure, delivering, textOf);
  }
  return shortcut;
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
