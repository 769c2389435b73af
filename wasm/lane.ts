// AssemblyScript source of the lane of the reader and the validator (src/core/read/lane.ts
// loads the compiled module from lane-wasm.ts; `npm run build:wasm` makes it, and a test checks
// that it is in step with this file).
//
// It reads, from bytes the caller copied into memory (an all-ASCII buffer of the XML tokenizer), a
// run of `<url>` elements in the forms the writers write (blanks between elements; references to
// URL characters in a loc; both W3C date forms; image:image and xhtml:link alternates with the
// prefixes bound on the root), in values every check of the reader and the schema passes, and
// stops at the first element that does not fit, leaving that one to the script (which calls again
// after it). For each element it writes a record of values, not verdicts: where it starts, its line
// and column, its loc's fingerprint (core/fingerprint.ts's, of the decoded value; when asked for),
// where its loc, lastmod (and its date as a number), changefreq and priority are, where it ends, and
// its extensions as extras. What a record means for the reader, the structure and the protocol is
// decided in script: the rules look at the records in batches (pick), and the validator's
// duplicate rule keeps its table of fingerprints in an instance of its own (the "seen" functions
// below, addSeen for a run), so that script does not visit every record (a fresh process runs such
// a loop interpreted for most of a 50,000-url file).
//
// Memory: [input, at most MAX_INPUT bytes][records, attention pairs, page quads of up to
// MAX_RECORDS records][fingerprint table, from TABLE_AT on, growing upwards][scratch: seenFirst's
// fingerprints, packLocs' lines]. The table never moves, so the input and the records stay where
// reserve put them while it grows.
//
// Build: asc wasm/lane.ts -O3 --runtime stub --noAssert --enable simd (see scripts/build-wasm.js).

/** Int32 fields of a record. */
const FIELDS: i32 = 18;
const R_START: i32 = 0;
const R_LINE: i32 = 1;
const R_COLUMN: i32 = 2;
const R_HASH_1: i32 = 3;
const R_HASH_2: i32 = 4;
const R_LOC_START: i32 = 5;
const R_LOC_LENGTH: i32 = 6;
const R_LASTMOD_START: i32 = 7;
const R_LASTMOD_LENGTH: i32 = 8;
const R_END: i32 = 9;
/** The changefreq's index in the names script wrote in (setProtocol) + 1; 0 when the url has none. */
const R_CHANGEFREQ: i32 = 10;
const R_PRIORITY_START: i32 = 11;
const R_PRIORITY_LENGTH: i32 = 12;
/** Bit F_LOC_REFERENCES: the loc holds references (its value is the decoded text; fingerprinted so). */
const R_FLAGS: i32 = 13;
const F_LOC_REFERENCES: i32 = 1;
/** Bit F_LOC_UNUSUAL: the loc may not be in the form url.ts comparableUrl gives it (readLoc: locUnusual). */
const F_LOC_UNUSUAL: i32 = 2;
/** The url's extensions: extras R_EXTRA_FROM to R_EXTRA_FROM + R_EXTRA_COUNT - 1, R_IMAGES of them images. */
const R_EXTRA_FROM: i32 = 14;
const R_EXTRA_COUNT: i32 = 15;
const R_IMAGES: i32 = 16;
/** The lastmod's date as YYYYMMDD (0: none), for a rule to pick records by (pick). */
const R_LASTMOD_DAY: i32 = 17;

let input: usize = 0;
let records: usize = 0;
let recordCapacity: i32 = 0;

/** The most input bytes and records a call takes (lane.ts: LANE_WINDOW, MAX_RECORDS). */
const MAX_INPUT: usize = 1 << 20;
const MAX_RECORDS: i32 = 4096;
/** Int32s kept per record: its fields, an attention pair (addSeen, pick) and a page quad (packPages). */
const RECORD_ROOM: usize = <usize>(FIELDS + 2 + 4) * 4;
const BASE: usize = (__heap_base + 15) & ~(<usize>15);
const TABLE_AT: usize = (BASE + MAX_INPUT + 32 + <usize>MAX_RECORDS * RECORD_ROOM + 15) & ~(<usize>15);

/** The line and the offset where it starts, after the last element read (for the tokenizer). */
export let endLine: i32 = 0;
export let endLineStart: i32 = 0;

/** Memory up to address `need`; false when it cannot grow. */
function ensureMemory(need: usize): bool {
  const have: usize = (<usize>memory.size()) << 16;
  return need <= have || memory.grow(<i32>((need - have + 0xffff) >> 16)) >= 0;
}

/** Makes room for `bytes` of input and `count` records; returns where the input goes (0: no room). */
export function reserve(bytes: i32, count: i32): usize {
  if (bytes < 0 || <usize>bytes > MAX_INPUT || count < 0 || count > MAX_RECORDS) return 0;
  const recordsAt: usize = (BASE + <usize>bytes + 16) & ~(<usize>15);
  if (!ensureMemory(recordsAt + <usize>count * RECORD_ROOM)) return 0;
  input = BASE;
  records = recordsAt;
  recordCapacity = count;
  return BASE;
}

/** Where the records are. */
export function recordsAt(): usize {
  return records;
}

// ---- reading ------------------------------------------------------------------------------------
//
// The readers take the address they read at and the end of the input, and return the address after
// what they read, or 0 when it is not there: addresses stay in locals (globals would be loaded and
// stored at every step). Only the line state is global, written once per line break.

// Character classes, one byte per code: a table read once per character in the loops below.
const URL_CHAR: u8 = 1; // the characters a URL may hold as they are (RFC 3986 unreserved and reserved but [ ] #): A-Za-z0-9 -._~!$'()*+,;=:@%
const PATH_CHAR: u8 = 2; // URL_CHARS and / ?
const DIGIT: u8 = 4;
const HEX_DIGIT: u8 = 8;
const CLASSES: usize = memory.data(256);

function addClass(chars: string, bits: u8): void {
  for (let k = 0; k < chars.length; k++) {
    const c = <usize>chars.charCodeAt(k);
    store<u8>(CLASSES + c, load<u8>(CLASSES + c) | bits);
  }
}
addClass("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*+,;=:@%", URL_CHAR | PATH_CHAR);
addClass('/?', PATH_CHAR);
addClass('0123456789', DIGIT | HEX_DIGIT);
addClass('abcdefABCDEF', HEX_DIGIT);
const LANGUAGE_CHAR: u8 = 16; // a language tag: [A-Za-z0-9_-]
addClass('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-', LANGUAGE_CHAR);
const PLAIN_HOST_CHAR: u8 = 32; // a host in comparableUrl's form: [a-z0-9.-]
addClass('abcdefghijklmnopqrstuvwxyz0123456789.-', PLAIN_HOST_CHAR);
const UNRESERVED: u8 = 64; // RFC 3986 §2.3
addClass('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~', UNRESERVED);

let line: i32 = 0;
/** Offset (from `input`) where the current line starts. */
let lineStart: i32 = 0;
/** Where the input starts in the caller's text: added to every offset handed back. */
let textOffset: i32 = 0;

@inline function byte(q: usize): u32 {
  return <u32>load<u8>(q);
}

@inline function is(q: usize, bits: u8): bool {
  return (load<u8>(CLASSES + <usize>load<u8>(q)) & bits) != 0;
}

@inline function mask(n: usize): u64 {
  return n >= 8 ? <u64>-1 : (<u64>1 << (<u64>n * 8)) - 1;
}

// Tags and words as little-endian u64 constants (8 characters a word). The input area has 16 bytes
// to spare after it, so a word may be read past the end; the length is checked first.

/** The `n` (at most 8) characters of `text` at q. */
@inline function has8(q: usize, end: usize, n: usize, text: u64): bool {
  return q + n <= end && (load<u64>(q) & mask(n)) == text;
}

/** The `n` (9 to 16) characters of `first` and `rest` at q. */
@inline function has16(q: usize, end: usize, n: usize, first: u64, rest: u64): bool {
  return q + n <= end && load<u64>(q) == first && (load<u64>(q + 8) & mask(n - 8)) == rest;
}

const URL_START: u64 = 0x0000003e6c72753c; // <url>, 5
const LOC_START: u64 = 0x0000003e636f6c3c; // <loc>, 5
const LOC_END: u64 = 0x00003e636f6c2f3c; // </loc>, 6
const URL_END: u64 = 0x00003e6c72752f3c; // </url>, 6
const HTTP: u64 = 0x70747468; // http, 4
const COLON_SLASHES: u64 = 0x2f2f3a; // ://, 3

/** `[ \t\n\r]*`, counting line breaks as the tokenizer does (CRLF, CR and LF are one break each). */
function skipBlanks(q: usize, end: usize): usize {
  while (q < end) {
    const c = byte(q);
    if (c == 0x20 || c == 0x09) {
      q++;
    } else if (c == 0x0a) {
      q++;
      line++;
      lineStart = <i32>(q - input);
    } else if (c == 0x0d) {
      q++;
      if (q < end && byte(q) == 0x0a) q++;
      line++;
      lineStart = <i32>(q - input);
    } else {
      break;
    }
  }
  return q;
}

/**
 * Whether the loc being read may not be in the form url.ts comparableUrl gives it (RFC 3986 §6.2:
 * the form a duplicate is recognised by): unless it has a host of labels of [a-z0-9-], each starting
 * with a letter, or an IPv4 address as WHATWG URL writes it (plainHost); no user information; no port
 * or one that is not the scheme's default nor starts with 0 (a server on a loopback port); a path ("/", not "?", after the host) without "/." (a
 * dot segment); every escape in upper case and not of an unreserved character (§6.2.2.1-2); no
 * reference to "." or "/". Such a loc comparableUrl's fast path takes as it is, but for an "xn--"
 * (IDNA), where the slow path gives it back the same: a valid A-label stays as it is (an invalid one
 * is left to the long way: usableHost). Script normalises the few that have it (validate/protocol.ts).
 */
let locUnusual = false;

/** The last host plainHost found plain (at most 64 bytes, 8 to spare; plainHostLength 0: none): locs mostly share one. */
const PLAIN_HOST: usize = memory.data(72);
let plainHostLength: usize = 0;

/** Whether the host from `from` to `to` is in comparableUrl's form (plainHostLong): the last one found so, else plainHostLong. */
@inline function plainHost(from: usize, to: usize): bool {
  const n = to - from;
  return (n == plainHostLength && sameAsPlainHost(from, n)) || plainHostLong(from, to);
}

/** Whether the `n` bytes at `from` are PLAIN_HOST's, word by word (the input area has bytes to spare after it, as has8 says; PLAIN_HOST too). */
@inline function sameAsPlainHost(from: usize, n: usize): bool {
  let k: usize = 0;
  for (; k + 8 <= n; k += 8) {
    if (load<u64>(from + k) != load<u64>(PLAIN_HOST + k)) return false;
  }
  return k == n || ((load<u64>(from + k) ^ load<u64>(PLAIN_HOST + k)) & mask(n - k)) == 0;
}

/**
 * plainHost byte by byte; a host found plain is remembered. One with an A-label is plain once WHATWG
 * URL takes it (usableHost); so is an IPv4 address as WHATWG writes it (dottedQuad: a loopback server).
 */
function plainHostLong(from: usize, to: usize): bool {
  const n = to - from;
  if (!(from < to && byte(from) - 0x30 <= 9 && dottedQuad(from, to))) {
    let before: u32 = 0x2e;
    let ace = false;
    for (let q = from; q < to; q++) {
      const c = byte(q);
      if (!is(q, PLAIN_HOST_CHAR) || (before == 0x2e && c - 0x61 > 25)) return false;
      if (before == 0x2e && aceLabel(q, to)) ace = true;
      before = c;
    }
    if (ace && !usableHost(from, to)) return false;
  }
  if (n <= 64) {
    memory.copy(PLAIN_HOST, from, n);
    plainHostLength = n;
  }
  return true;
}

/** Whether the label at `q` (before `to`) starts with "xn--", any case: an A-label, which IDNA decodes and checks. */
@inline function aceLabel(q: usize, to: usize): bool {
  return q + 4 <= to && (byte(q) | 0x20) == 0x78 && (byte(q + 1) | 0x20) == 0x6e && byte(q + 2) == 0x2d && byte(q + 3) == 0x2d;
}

/**
 * Whether WHATWG URL may refuse the host from `from` to `to`: it holds an escape or a reference, or an
 * A-label (aceLabel, whose punycode IDNA checks), or its last label (a final dot aside) starts with a
 * digit (WHATWG parses it as an IPv4 address: 256.1.1.1 is none).
 */
function hostNeedsParser(from: usize, to: usize): bool {
  if (to > from && byte(to - 1) == 0x2e) to--;
  let label = from;
  for (let q = from; q < to; q++) {
    const c = byte(q);
    if (c == 0x25 || c == 0x26 || (q == label && aceLabel(q, to))) return true;
    if (c == 0x2e) label = q + 1;
  }
  return label < to && byte(label) - 0x30 <= 9;
}

/** Whether the host from `from` to `to` is an IPv4 address as WHATWG URL writes it: four numbers 0 to 255, none with a leading 0. */
function dottedQuad(from: usize, to: usize): bool {
  let parts = 0;
  let q = from;
  while (q < to) {
    let value: u32 = 0;
    const start = q;
    for (; q < to && byte(q) - 0x30 <= 9; q++) value = value * 10 + (byte(q) - 0x30);
    if (q == start || q - start > 3 || value > 255 || (q - start > 1 && byte(start) == 0x30)) return false;
    if (++parts == 4) return q == to;
    if (q >= to || byte(q) != 0x2e) return false;
    q++;
  }
  return false;
}

/** Script's answer (lane.ts): whether WHATWG URL takes the `length` bytes at `from` as the host of an http URL. */
@external("env", "hostUsable")
declare function hostUsable(from: usize, length: usize): bool;

/** The last host hostUsable took (at most 64 bytes, 8 to spare; usableHostLength 0: none): an IDN site's locs share one. */
const USABLE_HOST: usize = memory.data(72);
let usableHostLength: usize = 0;

/**
 * Whether the host from `from` to `to`, which WHATWG URL may refuse (hostNeedsParser), is one it
 * takes: asked of script once per host (the last one is remembered). One with a reference is left
 * to the long way, which decodes it first. Else the loc goes the long way, where the reader refuses
 * it (loc/invalid: url.ts unusableUrl says why).
 */
function usableHost(from: usize, to: usize): bool {
  const n = to - from;
  if (n == usableHostLength && n <= 64 && memory.compare(from, USABLE_HOST, n) == 0) return true;
  for (let q = from; q < to; q++) if (byte(q) == 0x26) return false;
  if (!hostUsable(from, n)) return false;
  if (n <= 64) {
    memory.copy(USABLE_HOST, from, n);
    usableHostLength = n;
  }
  return true;
}

/** Whether the escape at q (`%` and two hex digits) is not in its normal form: lower-case hex, or an unreserved character (§6.2.2.1-2). */
@inline function changedEscape(q: usize): bool {
  const high = byte(q + 1);
  const low = byte(q + 2);
  if (high >= 0x61 || low >= 0x61) return true;
  const value = ((high <= 0x39 ? high - 0x30 : high - 0x37) << 4) | (low <= 0x39 ? low - 0x30 : low - 0x37);
  return (load<u8>(CLASSES + <usize>value) & UNRESERVED) != 0;
}

/**
 * LOC: `https?://AUTHORITY(?:[/?][URL_CHARS/?]*)?(?:#[URL_CHARS/?]*)?`, AUTHORITY being
 * `(?:A+@)?A+(?::[0-9]{1,5})?` (a port to 65535) with A the URL_CHARS but `:` and `@`, with the
 * check that every `%` starts an escape (two hex digits, which are URL characters); locUnusual said.
 */
function readLoc(q: usize, end: usize): usize {
  locShrink = 0;
  locUnusual = false;
  if (!has8(q, end, 4, HTTP)) return 0;
  q += 4;
  const secure = q < end && byte(q) == 0x73;
  if (secure) q++; // s
  if (!has8(q, end, 3, COLON_SLASHES)) return 0;
  q += 3;
  const authority = q;
  // Where the `@` ending the user information and the `:` before the port are (0: none).
  let at: usize = 0;
  let colon: usize = 0;
  let port: u32 = 0;
  while (q < end && is(q, URL_CHAR)) {
    const c = byte(q);
    if (c == 0x25 && !(q + 2 < end && is(q + 1, HEX_DIGIT) && is(q + 2, HEX_DIGIT))) return 0;
    if (c == 0x40) {
      if (at != 0 || colon != 0 || q == authority) return 0;
      at = q;
    } else if (c == 0x3a) {
      if (colon != 0 || q == authority || q == at + 1) return 0;
      colon = q;
    } else if (colon != 0) {
      if (!(c >= 0x30 && c <= 0x39)) return 0;
      port = port * 10 + (c - 0x30);
    }
    q++;
  }
  if (q == authority || (at != 0 && q == at + 1) || (colon != 0 && q == colon + 1)) return 0;
  // A port past 65535 (or of more than five digits) goes the long way, where the reader refuses it (loc/invalid).
  if (colon != 0 && (q - colon > 6 || port > 65535)) return 0;
  const hostFrom = at != 0 ? at + 1 : authority;
  const hostTo = colon != 0 ? colon : q;
  const plain = plainHost(hostFrom, hostTo);
  // So does a host WHATWG URL refuses.
  if (!plain && hostNeedsParser(hostFrom, hostTo) && !usableHost(hostFrom, hostTo)) return 0;
  const portKept = colon == 0 || (byte(colon + 1) != 0x30 && port != (secure ? 443 : 80));
  if (!plain || at != 0 || !portKept || q >= end || byte(q) != 0x2f) locUnusual = true;
  if (q < end && (byte(q) == 0x2f || byte(q) == 0x3f)) {
    q = pathRun(q + 1, end);
    if (q == 0) return 0;
  }
  if (q < end && byte(q) == 0x23) {
    q++;
    while (q < end && is(q, PATH_CHAR)) {
      const c = byte(q);
      if (c == 0x25) {
        if (!(q + 2 < end && is(q + 1, HEX_DIGIT) && is(q + 2, HEX_DIGIT))) return 0;
        if (changedEscape(q)) locUnusual = true;
      } else if (c == 0x2e && byte(q - 1) == 0x2f) {
        locUnusual = true;
      }
      q++;
    }
  }
  return q;
}

// PATH_CHAR as a SIMD class test: a byte b is in it when LOW[b & 15] & HIGH[b >> 4] is not 0 (bit h
// of LOW[l] is set when the byte h * 16 + l is; HIGH is 0 from 8 on, so no byte of 0x80 or above is).
const PATH_LOW = i8x16(<i8>0xb8, <i8>0xfc, <i8>0xf8, <i8>0xf8, <i8>0xfc, <i8>0xfc, <i8>0xf8, <i8>0xfc, <i8>0xfc, <i8>0xfc, <i8>0xfc, 0x5c, 0x54, 0x5c, <i8>0xd4, 0x7c);
const PATH_HIGH = i8x16(0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, <i8>0x80, 0, 0, 0, 0, 0, 0, 0, 0);

/**
 * `[URL_CHARS/?]*` from q, sixteen bytes a step, with the check that every `%` starts an escape:
 * the address after the run, or 0 for a bad `%`.
 */
@inline function pathRun(q: usize, end: usize): usize {
  while (q < end) {
    const v = v128.load(q);
    const classes = v128.and(i8x16.swizzle(PATH_LOW, v128.and(v, i8x16.splat(0x0f))), i8x16.swizzle(PATH_HIGH, i8x16.shr_u(v, 4)));
    const outside = <u32>i8x16.bitmask(i8x16.eq(classes, i8x16.splat(0)));
    // The bytes of this step that are in the run: up to the first outside the class, and before `end`.
    let n = outside == 0 ? <usize>16 : <usize>ctz(outside);
    if (q + n > end) n = end - q;
    const inRun = (<u32>1 << <u32>n) - 1;
    let percents = <u32>i8x16.bitmask(i8x16.eq(v, i8x16.splat(0x25))) & inRun;
    while (percents != 0) {
      const at = q + <usize>ctz(percents);
      if (!(at + 2 < end && is(at + 1, HEX_DIGIT) && is(at + 2, HEX_DIGIT))) return 0;
      if (changedEscape(at)) locUnusual = true;
      percents &= percents - 1;
    }
    // A "." after a "/" (locUnusual), each "." against the byte before it (q - 1 is in the input: pathRun starts after a "/" or "?").
    const dots = <u32>i8x16.bitmask(i8x16.eq(v, i8x16.splat(0x2e))) & inRun;
    if (dots != 0 && (<u32>i8x16.bitmask(i8x16.eq(v128.load(q - 1), i8x16.splat(0x2f))) & dots) != 0) locUnusual = true;
    q += n;
    if (n < 16) {
      // A reference (`&amp;` in a query string above all) whose character may stand there as it is.
      if (q >= end || byte(q) != 0x26) return q;
      const after = readReference(q, end);
      if (after == 0) return q;
      locShrink += <i32>(after - q) - 1;
      if (referenceChar == 0x2e || referenceChar == 0x2f) locUnusual = true;
      q = after;
    }
  }
  return q;
}

/** Characters the references of the loc being read save: its decoded length is its length less this. */
let locShrink: i32 = 0;
/** The character of the last reference readReference read. */
let referenceChar: u32 = 0;

const AMP_REF: u64 = 0x3b706d6126; // &amp;, 5
const APOS_REF: u64 = 0x3b736f706126; // &apos;, 6

/**
 * A reference at q that decodes to a character a loc may hold as it is (the tokenizer decodes it so):
 * `&amp;`, `&apos;`, `&#N;` or `&#xH;` of a URL character, `/`, `?` or `&`, but not `%` (it would
 * start an escape the raw text does not show). The address after it, or 0; its character in referenceChar.
 */
function readReference(q: usize, end: usize): usize {
  if (has8(q, end, 5, AMP_REF)) {
    referenceChar = 0x26;
    return q + 5;
  }
  if (has8(q, end, 6, APOS_REF)) {
    referenceChar = 0x27;
    return q + 6;
  }
  if (!has8(q, end, 2, 0x2326)) return 0; // &#
  let p = q + 2;
  const hex = p < end && byte(p) == 0x78;
  if (hex) p++;
  const first = p;
  let code: u32 = 0;
  while (p < end && p - first < 7) {
    const c = byte(p);
    if (isDigit(c)) code = code * (hex ? 16 : 10) + (c - 0x30);
    else if (hex && (c | 0x20) - 0x61 <= 5) code = code * 16 + ((c | 0x20) - 0x61 + 10);
    else break;
    p++;
  }
  if (p == first || p >= end || byte(p) != 0x3b || code > 0x7f || code == 0x25) return 0;
  if (code != 0x26 && (load<u8>(CLASSES + <usize>code) & PATH_CHAR) == 0) return 0;
  referenceChar = code;
  return p + 1;
}

/** Decodes the loc of `n` bytes at `loc` (read by readLoc, so its references are readReference's) into DECODED: its length. */
function decodeLoc(loc: usize, n: i32): i32 {
  const end = loc + <usize>n;
  let to = DECODED;
  let q = loc;
  while (q < end) {
    const c = byte(q);
    if (c == 0x26) {
      q = readReference(q, end);
      store<u8>(to++, <u8>referenceChar);
    } else {
      store<u8>(to++, <u8>c);
      q++;
    }
  }
  return <i32>(to - DECODED);
}

/** Where a loc (or an alternate's href) with references is decoded to be fingerprinted (a decoded loc is at most 2,048 bytes). */
const DECODED_ROOM: usize = 2048;
const DECODED: usize = memory.data(<i32>DECODED_ROOM);

/** Two digits at q, or -1. */
@inline function twoDigits(q: usize): i32 {
  const a = byte(q) - 0x30;
  const b = byte(q + 1) - 0x30;
  return a > 9 || b > 9 ? -1 : <i32>(a * 10 + b);
}

/**
 * DATE (with MODE_MINUTES, the W3C form `Thh:mmTZD` too): `(?!0000)\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])` and optionally
 * `T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00))`; with isRealDate.
 */
function readDate(q: usize, end: usize): usize {
  if (q + 10 > end) return 0;
  const century = twoDigits(q);
  const decade = twoDigits(q + 2);
  if (century < 0 || decade < 0) return 0;
  const year = century * 100 + decade;
  if (year == 0 || byte(q + 4) != 0x2d || byte(q + 7) != 0x2d) return 0;
  const month = twoDigits(q + 5);
  const day = twoDigits(q + 8);
  if (month < 1 || month > 12 || day < 1 || day > 31) return 0;
  // Days 29 to 31 exist in some months only (the calendar of core/datetime.ts daysInMonth).
  if (day >= 29) {
    const leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = 31;
    if (month == 2) days = leap ? 29 : 28;
    else if (month == 4 || month == 6 || month == 9 || month == 11) days = 30;
    if (day > days) return 0;
  }
  q += 10;
  if (q < end && byte(q) == 0x54) {
    // T hh:mm[:ss[.s+]] then Z or ±hh:mm; any other form is not this pattern's.
    const t = q + 1;
    if (t + 6 > end) return 0;
    const hours = twoDigits(t);
    const minutes = twoDigits(t + 3);
    if (hours < 0 || hours > 23 || byte(t + 2) != 0x3a || minutes < 0 || minutes > 59) return 0;
    let z = t + 5;
    if (byte(z) == 0x3a) {
      const seconds = t + 8 <= end ? twoDigits(t + 6) : -1;
      if (seconds < 0 || seconds > 59) return 0;
      z = t + 8;
      // Fractions of a second: `(\.\d+)?`.
      if (z < end && byte(z) == 0x2e) {
        const digits = ++z;
        while (z < end && isDigit(byte(z))) z++;
        if (z == digits) return 0;
      }
    } else if ((mode & MODE_MINUTES) == 0) {
      // `hh:mmTZD`, a W3C Datetime that sitemap.xsd does not take: the validator's rules see it in the events.
      return 0;
    }
    if (z >= end) return 0;
    const c = byte(z);
    if (c == 0x5a) return z + 1;
    if (c != 0x2b && c != 0x2d) return 0;
    if (z + 6 > end || byte(z + 3) != 0x3a) return 0;
    const offsetHours = twoDigits(z + 1);
    const offsetMinutes = twoDigits(z + 4);
    if (offsetHours < 0 || offsetMinutes < 0 || offsetMinutes > 59 || offsetHours > 14 || (offsetHours == 14 && offsetMinutes != 0)) return 0;
    return z + 6;
  }
  return q;
}

// The changefreq names (model.ts CHANGEFREQS) and the loc bounds (url.ts) are written in by script
// (lane.ts setProtocol), so that they are written down once.

/** CHANGEFREQ_COUNT names at CHANGEFREQ_NAMES, 16 bytes each, their lengths at CHANGEFREQ_LENGTHS. */
const CHANGEFREQ_NAMES: usize = memory.data(8 * 16);
const CHANGEFREQ_LENGTHS: usize = memory.data(8);
let changefreqCount: i32 = 0;
/** The bounds of a loc's length (of its value, references decoded). */
let minLoc: i32 = 0;
let maxLoc: i32 = 0;

export function changefreqNamesAt(): usize {
  return CHANGEFREQ_NAMES;
}

export function changefreqLengthsAt(): usize {
  return CHANGEFREQ_LENGTHS;
}

/** Each changefreq name as a little-endian word (the names are at most 8 characters), made by setProtocol. */
const CHANGEFREQ_WORDS: usize = memory.data(8 * 8);

/** The protocol's constants script wrote in (changefreqNamesAt) and the loc bounds. */
export function setProtocol(changefreqs: i32, minLocLength: i32, maxLocLength: i32): void {
  changefreqCount = changefreqs;
  for (let k = 0; k < changefreqs; k++) {
    const n = <usize>load<u8>(CHANGEFREQ_LENGTHS + <usize>k);
    store<u64>(CHANGEFREQ_WORDS + <usize>k * 8, load<u64>(CHANGEFREQ_NAMES + <usize>k * 16) & mask(n));
  }
  minLoc = minLocLength;
  maxLoc = maxLocLength;
}

/** The changefreq read last: its index in the names + 1. */
let changefreqIndex: i32 = 0;

/** One of the changefreq names at q: the address after it (its index + 1 in changefreqIndex), or 0. */
function readChangefreq(q: usize, end: usize): usize {
  for (let k = 0; k < changefreqCount; k++) {
    const n = <usize>load<u8>(CHANGEFREQ_LENGTHS + <usize>k);
    if (has8(q, end, n, load<u64>(CHANGEFREQ_WORDS + <usize>k * 8))) {
      changefreqIndex = k + 1;
      return q + n;
    }
  }
  return 0;
}

@inline function isDigit(c: u32): bool {
  return c - 0x30 <= 9;
}

/** PRIORITY: `0(\.\d*)?|1(\.0*)?|\.\d+` (then `</priority>` must follow: no other reading of the text fits). */
function readPriority(q: usize, end: usize): usize {
  if (q >= end) return 0;
  const c = byte(q);
  if (c == 0x30) {
    q++;
    if (q < end && byte(q) == 0x2e) {
      q++;
      while (q < end && isDigit(byte(q))) q++;
    }
  } else if (c == 0x31) {
    q++;
    if (q < end && byte(q) == 0x2e) {
      q++;
      while (q < end && byte(q) == 0x30) q++;
    }
  } else if (c == 0x2e) {
    q++;
    const first = q;
    while (q < end && isDigit(byte(q))) q++;
    if (q == first) return 0;
  } else {
    return 0;
  }
  return q;
}

// ---- the fingerprint (core/fingerprint.ts, on one byte per UTF-16 code unit) --------------------

let hash1: i32 = 0;
let hash2: i32 = 0;

// The steps of the fingerprint, shared by the one-loc and the two-loc loops.

/** Two characters at q as the script reads them: the first in the low 16 bits, the second in the high. */
@inline function pairAt(q: usize): i32 {
  const pair = <i32>load<u16>(q);
  return (pair & 0xff) | ((pair & 0xff00) << 8);
}

@inline function mix1(h1: i32, word: i32): i32 {
  const k = rotl<i32>(word * 0xcc9e2d51, 15) * 0x1b873593;
  return rotl<i32>(h1 ^ k, 13) * 5 + 0xe6546b64;
}

@inline function mix2(h2: i32, word: i32): i32 {
  const h = (h2 ^ word) * 0x5bd1e995;
  return h ^ <i32>(<u32>h >> 15);
}

/** The last, odd character. */
@inline function last1(h1: i32, c: i32): i32 {
  return h1 ^ (rotl<i32>(c * 0xcc9e2d51, 15) * 0x1b873593);
}

@inline function last2(h2: i32, c: i32): i32 {
  return mix2(h2, c ^ 0x10000);
}

@inline function final1(h: i32): i32 {
  h ^= <i32>(<u32>h >> 16);
  h = h * 0x85ebca6b;
  h ^= <i32>(<u32>h >> 13);
  h = h * 0xc2b2ae35;
  return h ^ <i32>(<u32>h >> 16);
}

@inline function final2(h: i32, n: i32): i32 {
  h ^= n;
  h ^= <i32>(<u32>h >> 13);
  h = h * 0xc2b2ae35;
  return h ^ <i32>(<u32>h >> 16);
}

/** The fingerprint of bytes `start` to `end`, into hash1 and hash2. */
function fingerprint(start: usize, end: usize): void {
  const n = <i32>(end - start);
  hashRest(start, 0, n, 0x811c9dc5 ^ n, 0x9747b28c);
}

/** Goes on hashing the `n` bytes at `loc` from byte `i`, from the state (h1, h2): the fingerprint into hash1, hash2. */
function hashRest(loc: usize, i: i32, n: i32, h1: i32, h2: i32): void {
  for (; i + 1 < n; i += 2) {
    const w = pairAt(loc + <usize>i);
    h1 = mix1(h1, w);
    h2 = mix2(h2, w);
  }
  if (i < n) {
    const c = <i32>byte(loc + <usize>i);
    h1 = last1(h1, c);
    h2 = last2(h2, c);
  }
  hash1 = final1(h1);
  hash2 = final2(h2, n);
}

/** hash1 and hash2 into a record. */
@inline function storeHash(record: usize): void {
  store<i32>(record + R_HASH_1 * 4, hash1);
  store<i32>(record + R_HASH_2 * 4, hash2);
}

/** The loc of a record, from its start and length (indexes in the caller's text). */
@inline function locOf(record: usize): usize {
  return input + <usize>(load<i32>(record + R_LOC_START * 4) - textOffset);
}

/**
 * The fingerprints of the locs of two records, written into them. Each step of one chain waits for
 * the multiply before it; two locs hashed side by side keep the processor busy in those waits.
 */
function fingerprintPair(recordA: usize, recordB: usize): void {
  const a = locOf(recordA);
  const b = locOf(recordB);
  const na = load<i32>(recordA + R_LOC_LENGTH * 4);
  const nb = load<i32>(recordB + R_LOC_LENGTH * 4);
  let a1: i32 = 0x811c9dc5 ^ na;
  let a2: i32 = 0x9747b28c;
  let b1: i32 = 0x811c9dc5 ^ nb;
  let b2: i32 = 0x9747b28c;
  const both = (na < nb ? na : nb) & ~1;
  let i = 0;
  for (; i < both; i += 2) {
    const wa = pairAt(a + <usize>i);
    const wb = pairAt(b + <usize>i);
    a1 = mix1(a1, wa);
    b1 = mix1(b1, wb);
    a2 = mix2(a2, wa);
    b2 = mix2(b2, wb);
  }
  // The longer one goes on alone.
  hashRest(a, i, na, a1, a2);
  storeHash(recordA);
  hashRest(b, i, nb, b1, b2);
  storeHash(recordB);
}

/** For the test that checks this fingerprint against core/fingerprint.ts: of input bytes `start` to `end`. */
export function fingerprintOf(start: i32, end: i32, half: i32): i32 {
  fingerprint(input + <usize>start, input + <usize>end);
  return half == 0 ? hash1 : hash2;
}

// ---- extensions: image:image and xhtml:link alternates, in the writer's form -------------------------
//
// What the lane takes, after the priority, in any order:
//   <I:image>WS<I:loc>LOC</I:loc>WS</I:image>   and   <X:link rel="alternate" hreflang="H" href="LOC"WS/>
// with I and X the prefixes bound on the root (setPrefixes; none: not read). Each is an extra:
// (kind, value start, value length, flags, hreflang start, hreflang length) and, for an alternate of a
// scan that hashes, the fingerprints of its href (decoded) and hreflang, at extrasAt().

const EXTRA_FIELDS: i32 = 10;
const X_KIND: i32 = 0; // 0: image, 1: alternate
const X_VALUE_START: i32 = 1;
const X_VALUE_LENGTH: i32 = 2;
const X_FLAGS: i32 = 3; // F_LOC_REFERENCES, F_LOC_UNUSUAL
const X_HREFLANG_START: i32 = 4;
const X_HREFLANG_LENGTH: i32 = 5;
const X_HREF_HASH: i32 = 6; // and 7
const X_HREFLANG_HASH: i32 = 8; // and 9
const MAX_EXTRAS: i32 = 4096;
const EXTRAS: usize = memory.data(MAX_EXTRAS * EXTRA_FIELDS * 4);
/** Extras written by the last scan. */
export let extraCount: i32 = 0;
/** Of the records of the last scan: how many have alternates, and the most images one has (script looks at records only when these call for it). */
export let linkedCount: i32 = 0;
export let mostImages: i32 = 0;

/** The image prefix at PREFIXES, the XHTML one at PREFIXES + 32 (written by script). */
const PREFIXES: usize = memory.data(64);
let imagePrefixLength: i32 = 0;
let xhtmlPrefixLength: i32 = 0;

export function extrasAt(): usize {
  return EXTRAS;
}

export function prefixesAt(): usize {
  return PREFIXES;
}

/** The lengths of the prefixes script wrote at prefixesAt (0: that namespace is not read here). */
export function setPrefixes(image: i32, xhtml: i32): void {
  imagePrefixLength = image;
  xhtmlPrefixLength = xhtml;
}

/** `<` (or `</` when `close`), the `n` bytes of the prefix at `prefix`, `:` at q: the address after, or 0. */
function prefixed(q: usize, end: usize, prefix: usize, n: i32, close: bool): usize {
  if (q >= end || byte(q) != 0x3c) return 0;
  q++;
  if (close) {
    if (q >= end || byte(q) != 0x2f) return 0;
    q++;
  }
  if (q + <usize>n + 1 > end || memory.compare(q, prefix, <usize>n) != 0 || byte(q + <usize>n) != 0x3a) return 0;
  return q + <usize>n + 1;
}

/** An extra of kind `kind` for the value at `start` to `valueEnd`; false when there is no room. */
function addExtra(kind: i32, start: usize, valueEnd: usize, hreflangStart: usize, hreflangEnd: usize): bool {
  if (extraCount >= MAX_EXTRAS) return false;
  const x = EXTRAS + <usize>(extraCount * EXTRA_FIELDS) * 4;
  store<i32>(x + X_KIND * 4, kind);
  store<i32>(x + X_VALUE_START * 4, <i32>(start - input) + textOffset);
  store<i32>(x + X_VALUE_LENGTH * 4, <i32>(valueEnd - start));
  store<i32>(x + X_FLAGS * 4, (locShrink != 0 ? F_LOC_REFERENCES : 0) | (locUnusual ? F_LOC_UNUSUAL : 0));
  store<i32>(x + X_HREFLANG_START * 4, <i32>(hreflangStart - input) + textOffset);
  store<i32>(x + X_HREFLANG_LENGTH * 4, <i32>(hreflangEnd - hreflangStart));
  extraCount++;
  return true;
}

const IMAGE_TAG: u64 = 0x3e6567616d69; // image>, 6
const LOC_TAG: u64 = 0x3e636f6c; // loc>, 4

/** `<I:image>WS<I:loc>LOC</I:loc>WS</I:image>` at q: the address after (its extra written), or 0. */
function readImage(q: usize, end: usize): usize {
  q = prefixed(q, end, PREFIXES, imagePrefixLength, false);
  if (q == 0 || !has8(q, end, 6, IMAGE_TAG)) return 0;
  q = prefixed(skipBlanks(q + 6, end), end, PREFIXES, imagePrefixLength, false);
  if (q == 0 || !has8(q, end, 4, LOC_TAG)) return 0;
  const start = q + 4;
  const valueEnd = readLoc(start, end);
  if (valueEnd == 0) return 0;
  q = prefixed(valueEnd, end, PREFIXES, imagePrefixLength, true);
  if (q == 0 || !has8(q, end, 4, LOC_TAG)) return 0;
  q = prefixed(skipBlanks(q + 4, end), end, PREFIXES, imagePrefixLength, true);
  if (q == 0 || !has8(q, end, 6, IMAGE_TAG) || !addExtra(0, start, valueEnd, start, start)) return 0;
  return q + 6;
}

/** `<X:link rel="alternate" hreflang="H" href="LOC"WS/>` at q: the address after (its extra written), or 0. */
function readLink(q: usize, end: usize): usize {
  q = prefixed(q, end, PREFIXES + 32, xhtmlPrefixLength, false);
  // link rel="alternate" hreflang=" (31 characters)
  if (q == 0 || !has16(q, end, 16, 0x6c6572206b6e696c, 0x6e7265746c61223d) || !has16(q + 16, end, 15, 0x6572682022657461, 0x223d676e616c66)) return 0;
  const hreflangStart = q + 31;
  q = hreflangStart;
  while (q < end && is(q, LANGUAGE_CHAR)) q++;
  const hreflangEnd = q;
  if (q == hreflangStart || !has8(q, end, 8, 0x223d666572682022)) return 0; // " href="
  const start = q + 8;
  const valueEnd = readLoc(start, end);
  // An href with references is decoded to be fingerprinted (fingerprintAlternates), in DECODED.
  if (valueEnd == 0 || valueEnd >= end || byte(valueEnd) != 0x22 || (locShrink != 0 && valueEnd - start > DECODED_ROOM)) return 0;
  q = skipBlanks(valueEnd + 1, end);
  if (!has8(q, end, 2, 0x3e2f) || !addExtra(1, start, valueEnd, hreflangStart, hreflangEnd)) return 0; // />
  return q + 2;
}

/** Images among the extensions readExtensions read last. */
let images: i32 = 0;

/**
 * The extensions of a url at q, up to its end tag: the address of `</url>` (their extras written, and
 * the images counted in `images`), or 0 for anything else before it.
 */
function readExtensions(q: usize, end: usize): usize {
  images = 0;
  for (;;) {
    if (has8(q, end, 6, URL_END)) return q;
    let next: usize = 0;
    if (imagePrefixLength > 0) {
      next = readImage(q, end);
      if (next != 0) images++;
    }
    if (next == 0 && xhtmlPrefixLength > 0) next = readLink(q, end);
    if (next == 0) return 0;
    q = skipBlanks(next, end);
  }
  return 0;
}

// ---- the run of elements ------------------------------------------------------------------------

/** What a scan reads (its `mode` argument): bits. */
const MODE_HASH: i32 = 1;
/** `<sitemap>` elements of an index, not `<url>` elements. */
const MODE_SITEMAP: i32 = 2;
/** Lastmods in the W3C form `Thh:mmTZD` too (the reader takes them; sitemap.xsd does not). */
const MODE_MINUTES: i32 = 4;
/** Blanks around the values of loc, lastmod, changefreq and priority (the reader trims them; the validator warns). */
const MODE_BLANKS: i32 = 8;
let mode: i32 = 0;

const SITEMAP_START: u64 = 0x70616d657469733c; // <sitemap (then >), 9

/** `(?:[ \t\n\r]+(?=<url>))?` (or `<sitemap>`) at q: the blank run before the next entry, taken only when one follows. */
function blanksBeforeEntry(q: usize, end: usize): usize {
  if (q >= end) return q;
  const c = byte(q);
  if (c != 0x20 && c != 0x09 && c != 0x0a && c != 0x0d) return q;
  const afterLine = line;
  const afterLineStart = lineStart;
  const next = skipBlanks(q, end);
  if ((mode & MODE_SITEMAP) == 0 ? has8(next, end, 5, URL_START) : has16(next, end, 9, SITEMAP_START, 0x3e)) return next;
  line = afterLine;
  lineStart = afterLineStart;
  return q;
}

/** With MODE_BLANKS, the blanks at q around a value (the value is what is between them, as the events trim it). */
@inline function blanksInValue(q: usize, end: usize): usize {
  return (mode & MODE_BLANKS) != 0 ? skipBlanks(q, end) : q;
}

// The values of the entry being read (readLocField, readLastmodField, readOptionalFields).
let locAt: usize = 0;
let locEndAt: usize = 0;
let locFlags: i32 = 0;
/** 0 when the entry has no lastmod. */
let lastmodAt: usize = 0;
let lastmodEndAt: usize = 0;
/** 0 when the entry has no priority. */
let priorityAt: usize = 0;
let priorityEndAt: usize = 0;

/** `<loc>LOC</loc>WS` at q: the address after (the value at locAt to locEndAt), or 0. */
function readLocField(q: usize, end: usize): usize {
  if (!has8(q, end, 5, LOC_START)) return 0;
  locAt = blanksInValue(q + 5, end);
  locEndAt = readLoc(locAt, end);
  if (locEndAt == 0) return 0;
  q = blanksInValue(locEndAt, end);
  if (!has8(q, end, 6, LOC_END)) return 0;
  // sitemap.xsd and the protocol bound the length of the value (references decoded).
  const n = <i32>(locEndAt - locAt) - locShrink;
  if (n < minLoc || n > maxLoc) return 0;
  locFlags = (locShrink != 0 ? F_LOC_REFERENCES : 0) | (locUnusual ? F_LOC_UNUSUAL : 0);
  return skipBlanks(q + 6, end);
}

/** `(<lastmod>DATE</lastmod>WS)?` at q: the address after (lastmodAt 0 when there is none), or 0. */
function readLastmodField(q: usize, end: usize): usize {
  lastmodAt = 0;
  if (!has16(q, end, 9, 0x646f6d7473616c3c, 0x3e)) return q; // <lastmod>
  const s = blanksInValue(q + 9, end);
  const e = readDate(s, end);
  if (e == 0) return 0;
  q = blanksInValue(e, end);
  if (!has16(q, end, 10, 0x6f6d7473616c2f3c, 0x3e64)) return 0; // </lastmod>
  lastmodAt = s;
  lastmodEndAt = e;
  return skipBlanks(q + 10, end);
}

/** `(<changefreq>…</changefreq>WS)?(<priority>…</priority>WS)?` at q: the address after, or 0. */
function readOptionalFields(q: usize, end: usize): usize {
  changefreqIndex = 0;
  if (has16(q, end, 12, 0x6665676e6168633c, 0x3e716572)) { // <changefreq>
    q = readChangefreq(blanksInValue(q + 12, end), end);
    if (q == 0) return 0;
    q = blanksInValue(q, end);
    if (!has16(q, end, 13, 0x65676e6168632f3c, 0x3e71657266)) return 0; // </changefreq>
    q = skipBlanks(q + 13, end);
  }
  priorityAt = 0;
  if (has16(q, end, 10, 0x7469726f6972703c, 0x3e79)) { // <priority>
    const s = blanksInValue(q + 10, end);
    const e = readPriority(s, end);
    if (e == 0) return 0;
    q = blanksInValue(e, end);
    if (!has16(q, end, 11, 0x69726f6972702f3c, 0x3e7974)) return 0; // </priority>
    priorityAt = s;
    priorityEndAt = e;
    q = skipBlanks(q + 11, end);
  }
  return q;
}

/** An offset in the caller's text. */
@inline function textIndex(q: usize): i32 {
  return <i32>(q - input) + textOffset;
}

/** One `<url>` (or with MODE_SITEMAP, `<sitemap>`) at `q`: writes its record and returns the address after it, or 0 (nothing written, line state to restore). */
function readEntry(q: usize, end: usize, maxLength: i32, record: usize): usize {
  const start = q;
  const startLine = line;
  const startColumn = <i32>(q - input) - lineStart + 1;
  const sitemap = (mode & MODE_SITEMAP) != 0;
  if (sitemap ? !has16(q, end, 9, SITEMAP_START, 0x3e) : !has8(q, end, 5, URL_START)) return 0;
  q = readLocField(skipBlanks(q + (sitemap ? 9 : 5), end), end);
  if (q == 0) return 0;
  q = readLastmodField(q, end);
  if (q == 0) return 0;
  const extrasFrom = extraCount;
  images = 0;
  if (sitemap) {
    changefreqIndex = 0;
    priorityAt = 0;
    if (!has16(q, end, 10, 0x616d657469732f3c, 0x3e70)) return 0; // </sitemap>
    q += 10;
  } else {
    q = readOptionalFields(q, end);
    if (q == 0) return 0;
    q = readExtensions(q, end);
    if (q == 0) return 0;
    q += 6;
  }
  q = blanksBeforeEntry(q, end);
  if (<i32>(q - start) > maxLength) return 0;
  store<i32>(record + R_START * 4, textIndex(start));
  store<i32>(record + R_LINE * 4, startLine);
  store<i32>(record + R_COLUMN * 4, startColumn);
  store<i32>(record + R_END * 4, textIndex(q));
  writeValues(record, extrasFrom);
  return q;
}

/** The values readEntry read into the record. */
function writeValues(record: usize, extrasFrom: i32): void {
  store<i32>(record + R_LOC_START * 4, textIndex(locAt));
  store<i32>(record + R_LOC_LENGTH * 4, <i32>(locEndAt - locAt));
  store<i32>(record + R_FLAGS * 4, locFlags);
  const lastmod = lastmodAt;
  store<i32>(record + R_LASTMOD_START * 4, lastmod == 0 ? -1 : textIndex(lastmod));
  store<i32>(record + R_LASTMOD_LENGTH * 4, <i32>(lastmodEndAt - lastmod));
  store<i32>(record + R_LASTMOD_DAY * 4, lastmod == 0 ? 0 : (twoDigits(lastmod) * 100 + twoDigits(lastmod + 2)) * 10000 + twoDigits(lastmod + 5) * 100 + twoDigits(lastmod + 8));
  store<i32>(record + R_CHANGEFREQ * 4, changefreqIndex);
  store<i32>(record + R_PRIORITY_START * 4, priorityAt == 0 ? -1 : textIndex(priorityAt));
  store<i32>(record + R_PRIORITY_LENGTH * 4, <i32>(priorityEndAt - priorityAt));
  store<i32>(record + R_EXTRA_FROM * 4, extrasFrom);
  store<i32>(record + R_EXTRA_COUNT * 4, extraCount - extrasFrom);
  store<i32>(record + R_IMAGES * 4, images);
  if (extraCount - extrasFrom > images) linkedCount++;
  if (images > mostImages) mostImages = images;
}

/**
 * The locs' fingerprints of records 0 to `count - 1`: two at a time (fingerprintPair), but a loc with
 * references alone, decoded (its value is what core/fingerprint.ts hashes).
 */
function fingerprintRecords(count: i32): void {
  let waiting: usize = 0;
  for (let k = 0; k < count; k++) {
    const record = records + <usize>k * <usize>FIELDS * 4;
    if ((load<i32>(record + R_FLAGS * 4) & F_LOC_REFERENCES) != 0) {
      fingerprint(DECODED, DECODED + <usize>decodeLoc(locOf(record), load<i32>(record + R_LOC_LENGTH * 4)));
      storeHash(record);
    } else if (waiting == 0) {
      waiting = record;
    } else {
      fingerprintPair(waiting, record);
      waiting = 0;
    }
  }
  if (waiting != 0) {
    const loc = locOf(waiting);
    fingerprint(loc, loc + <usize>load<i32>(waiting + R_LOC_LENGTH * 4));
    storeHash(waiting);
  }
}

/** The fingerprints of the alternates' hrefs (decoded, as a loc's) and hreflangs of the last scan's extras. */
function fingerprintAlternates(): void {
  for (let k = 0; k < extraCount; k++) {
    const x = EXTRAS + <usize>(k * EXTRA_FIELDS) * 4;
    if (load<i32>(x + X_KIND * 4) == 0) continue;
    const href = input + <usize>(load<i32>(x + X_VALUE_START * 4) - textOffset);
    const n = load<i32>(x + X_VALUE_LENGTH * 4);
    if ((load<i32>(x + X_FLAGS * 4) & F_LOC_REFERENCES) != 0) fingerprint(DECODED, DECODED + <usize>decodeLoc(href, n));
    else fingerprint(href, href + <usize>n);
    store<i32>(x + X_HREF_HASH * 4, hash1);
    store<i32>(x + X_HREF_HASH * 4 + 4, hash2);
    const hreflang = input + <usize>(load<i32>(x + X_HREFLANG_START * 4) - textOffset);
    fingerprint(hreflang, hreflang + <usize>load<i32>(x + X_HREFLANG_LENGTH * 4));
    store<i32>(x + X_HREFLANG_HASH * 4, hash1);
    store<i32>(x + X_HREFLANG_HASH * 4 + 4, hash2);
  }
}

/**
 * Reads `<url>` (or `<sitemap>`) elements from offset `from` of the input (`length` bytes in all),
 * the first on line `startLine`, which starts at offset `startLineStart` (negative when it started in
 * an earlier buffer), each at most `maxLength` bytes, at most `maxCount` of them. The input is the
 * caller's text from its index `offset` on: records and `endLineStart` give indexes in that text
 * (offsets in the input + `offset`). `scanMode`: MODE_* bits (MODE_HASH: the locs are fingerprinted).
 * Returns how many were read; `endLine`, `endLineStart` are the line state after the last one.
 */
export function scan(from: i32, length: i32, startLine: i32, startLineStart: i32, maxLength: i32, maxCount: i32, offset: i32, scanMode: i32): i32 {
  textOffset = offset;
  mode = scanMode;
  let q: usize = input + <usize>from;
  const end: usize = input + <usize>length;
  line = startLine;
  lineStart = startLineStart;
  let count = 0;
  const most = maxCount < recordCapacity ? maxCount : recordCapacity;
  extraCount = 0;
  linkedCount = 0;
  mostImages = 0;
  while (count < most) {
    const entryLine = line;
    const entryLineStart = lineStart;
    const entryExtras = extraCount;
    const next = readEntry(q, end, maxLength, records + <usize>count * <usize>FIELDS * 4);
    if (next == 0) {
      line = entryLine;
      lineStart = entryLineStart;
      extraCount = entryExtras;
      break;
    }
    q = next;
    count++;
  }
  if ((mode & MODE_HASH) != 0) {
    fingerprintRecords(count);
    if (linkedCount > 0) fingerprintAlternates();
  }
  endLine = line;
  endLineStart = lineStart + textOffset;
  return count;
}

// ---- the fingerprint table (the validator's duplicate check, validate/protocol.ts) ---------------
//
// Open addressing over (hash 1, hash 2, value + 1) triples, 12 bytes a slot, as core/fingerprint-table.ts
// (the same slot function, the same growth at three quarters full), at TABLE_AT.

let tableMask: i32 = -1;
/** Fingerprints in the table. */
export let seenCount: i32 = 0;

@inline function slotAddress(slot: i32): usize {
  return TABLE_AT + <usize>slot * 12;
}

@inline function firstSlot(h1: i32, h2: i32, mask: i32): i32 {
  return (h1 ^ (h2 * 0x27d4eb2d)) & mask;
}

/** An empty table of `capacity` slots (a power of two); 0 when memory cannot grow. */
export function seenInit(capacity: i32): i32 {
  if (capacity < 16 || (capacity & (capacity - 1)) != 0) return 0;
  if (!ensureMemory(slotAddress(capacity))) return 0;
  // A fresh instance's memory is zero: only a table made before is cleared (untouched pages cost nothing).
  if (tableMask != -1) memory.fill(TABLE_AT, 0, <usize>capacity * 12);
  tableMask = capacity - 1;
  seenCount = 0;
  return 1;
}

/**
 * The slot that holds these hashes, or else the empty slot where they would go. Under three quarters
 * full: an empty slot ends every probe.
 */
@inline function findSlot(h1: i32, h2: i32): i32 {
  let slot = firstSlot(h1, h2, tableMask);
  let at = slotAddress(slot);
  while (load<i32>(at, 8) != 0 && !(load<i32>(at) == h1 && load<i32>(at, 4) == h2)) {
    slot = (slot + 1) & tableMask;
    at = slotAddress(slot);
  }
  return slot;
}

/** The value stored for these hashes, or -1. */
export function seenGet(h1: i32, h2: i32): i32 {
  return load<i32>(slotAddress(findSlot(h1, h2)), 8) - 1;
}

/** Where seenFirst reads its fingerprints: just past the table, with room for `count` of them (0: no memory). */
export function seenScratch(count: i32): usize {
  const at = slotAddress(tableMask + 1);
  return ensureMemory(at + <usize>count * 8) ? at : 0;
}

/**
 * The index of the first of the `count` fingerprints (hash 1, hash 2) at seenScratch that the table
 * holds, or -1: many look-ups in one call (each call from script costs more than its look-up).
 */
export function seenFirst(count: i32): i32 {
  const at = slotAddress(tableMask + 1);
  for (let k = 0; k < count; k++) {
    const pair = at + <usize>k * 8;
    if (load<i32>(slotAddress(findSlot(load<i32>(pair), load<i32>(pair, 4))), 8) != 0) return k;
  }
  return -1;
}

/**
 * Stores `value` (>= 0) for these hashes unless they have one: the value already there, or -1 when
 * added; -2 when the table could not grow (memory).
 */
export function seenAdd(h1: i32, h2: i32, value: i32): i32 {
  const at = slotAddress(findSlot(h1, h2));
  const entry = load<i32>(at, 8);
  if (entry != 0) return entry - 1;
  store<i32>(at, h1);
  store<i32>(at, h2, 4);
  store<i32>(at, value + 1, 8);
  // Under three quarters full, so that probes stay short.
  if (++seenCount * 4 > (tableMask + 1) * 3 && !growTable()) {
    // Take it back: the table is as it was.
    store<i32>(at, 0, 8);
    seenCount--;
    return -2;
  }
  return -1;
}

/** Twice the slots: the old ones are copied past the new table's end, then put back by hash. */
function growTable(): bool {
  const oldSlots = tableMask + 1;
  const newSlots = oldSlots * 2;
  const scratch = slotAddress(newSlots);
  if (!ensureMemory(scratch + <usize>oldSlots * 12)) return false;
  memory.copy(scratch, TABLE_AT, <usize>oldSlots * 12);
  memory.fill(TABLE_AT, 0, <usize>newSlots * 12);
  const mask = newSlots - 1;
  for (let i = 0; i < oldSlots; i++) {
    const from = scratch + <usize>i * 12;
    const entry = load<i32>(from, 8);
    if (entry == 0) continue;
    const h1 = load<i32>(from);
    const h2 = load<i32>(from, 4);
    let slot = firstSlot(h1, h2, mask);
    while (load<i32>(slotAddress(slot), 8) != 0) slot = (slot + 1) & mask;
    const to = slotAddress(slot);
    store<i32>(to, h1);
    store<i32>(to, h2, 4);
    store<i32>(to, entry, 8);
  }
  tableMask = mask;
  return true;
}

/** Pairs listed by addSeen or pick at attentionAt (the last call's). */
export let attentionCount: i32 = 0;

export function attentionAt(): usize {
  return records + <usize>recordCapacity * <usize>FIELDS * 4;
}

/**
 * Each loc's fingerprint of records 0 to `count - 1` of the last scan (hashed) into the table, with
 * the record's line, unless it is there: the records whose fingerprint was there are listed at
 * attentionAt, as (record index, the value found) pairs; what that means (validate/protocol.ts: a
 * duplicate) is the caller's to say. Once the table holds `maxTracked`, a fingerprint is only looked
 * up; stops before the first record not found then, and before one the table has no memory for.
 * Returns how many records were taken.
 */
export function addSeen(count: i32, maxTracked: i32): i32 {
  const attention = attentionAt();
  let n = 0;
  let k = 0;
  for (; k < count; k++) {
    const record = records + <usize>k * <usize>FIELDS * 4;
    const h1 = load<i32>(record + R_HASH_1 * 4);
    const h2 = load<i32>(record + R_HASH_2 * 4);
    let first: i32;
    if (seenCount >= maxTracked) {
      first = seenGet(h1, h2);
      if (first == -1) break;
    } else {
      first = seenAdd(h1, h2, load<i32>(record + R_LINE * 4));
      if (first == -2) break;
    }
    if (first != -1) {
      store<i32>(attention + <usize>n * 8, k);
      store<i32>(attention + <usize>n * 8, first, 4);
      n++;
    }
  }
  attentionCount = n;
  return k;
}

/**
 * The records among 0 to `count - 1` of the last scan whose int32 field `field` is at least `min`,
 * listed at attentionAt as (record index, field) pairs (a query for a rule: the lastmods it wants
 * to look at, say). Returns how many.
 */
export function pick(count: i32, field: i32, min: i32): i32 {
  const attention = attentionAt();
  let n = 0;
  for (let k = 0; k < count; k++) {
    const value = load<i32>(records + (<usize>k * <usize>FIELDS + <usize>field) * 4);
    if (value >= min) {
      store<i32>(attention + <usize>n * 8, k);
      store<i32>(attention + <usize>n * 8, value, 4);
      n++;
    }
  }
  attentionCount = n;
  return n;
}

/** Bytes packLocs wrote (at locsAt). */
export let packedBytes: i32 = 0;

/** Where packLocs writes: just past the fingerprint table (or where it would start). */
export function locsAt(): usize {
  return tableMask == -1 ? TABLE_AT : slotAddress(tableMask + 1);
}

/**
 * The locs of records `from` to `to - 1` of the last scan, references decoded, each followed by a LF
 * (discover's lines of page URLs), at locsAt: as many whole ones as fit in `room` bytes (packedBytes
 * of them). Returns the index of the first record not written; `from` when the next one does not fit,
 * or when memory cannot grow.
 */
export function packLocs(from: i32, to: i32, room: i32): i32 {
  const out = locsAt();
  packedBytes = 0;
  if (room <= 0 || !ensureMemory(out + <usize>room)) return from;
  let at = out;
  const end = out + <usize>room;
  let k = from;
  for (; k < to; k++) {
    const record = records + <usize>k * <usize>FIELDS * 4;
    const loc = locOf(record);
    const n = load<i32>(record + R_LOC_LENGTH * 4);
    if (at + <usize>n + 1 > end) break;
    if ((load<i32>(record + R_FLAGS * 4) & F_LOC_REFERENCES) != 0) {
      const decoded = decodeLoc(loc, n);
      memory.copy(at, DECODED, <usize>decoded);
      at += <usize>decoded;
    } else {
      memory.copy(at, loc, <usize>n);
      at += <usize>n;
    }
    store<u8>(at++, 0x0a);
  }
  packedBytes = <i32>(at - out);
  return k;
}

/** Where packPages writes. */
export function pagesAt(): usize {
  return attentionAt() + <usize>recordCapacity * 8;
}

/** Records `from` to `from + count - 1` of the last scan as (line, column, hash 1, hash 2) quads at pagesAt (validate/hreflang.ts keeps them). */
export function packPages(from: i32, count: i32): void {
  const pages = pagesAt();
  for (let k = 0; k < count; k++) {
    const record = records + <usize>(from + k) * <usize>FIELDS * 4;
    const to = pages + <usize>k * 16;
    store<i32>(to, load<i32>(record + R_LINE * 4));
    store<i32>(to, load<i32>(record + R_COLUMN * 4), 4);
    store<i32>(to, load<i32>(record + R_HASH_1 * 4), 8);
    store<i32>(to, load<i32>(record + R_HASH_2 * 4), 12);
  }
}
