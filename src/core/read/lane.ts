// The lane: a WebAssembly module (wasm/lane.ts) that reads runs of `<url>` (or index `<sitemap>`)
// elements in the forms writers write, as records of values, and stops at the first element that
// does not fit; the tokenizer reads that one the long way and offers the next to the lane again. Why:
// script pays per element and runs interpreted until V8 warms up; the module costs the same from the
// first element on. It reads ASCII only (a byte offset is then a string index), so a window of text
// ends before its first non-ASCII character. One instance serves every reading (calls are
// synchronous and leave only scratch memory); a validation has its own (createWithTable) for its
// fingerprint table, given back when it ends (release) for the next one: making one cost ~0.8 ms.
// test/core/{read,validate}/lane-entries.test.ts check it against the events.

import type { FingerprintSet } from '../fingerprint-table.js';
import { CHANGEFREQS, type AlternateLink, type ImageEntry, type SitemapRef, type UrlEntry } from '../model.js';
import { MAX_URL_LENGTH, MIN_URL_LENGTH } from '../url.js';
import { LANE_WASM_BASE64 } from './lane-wasm.js';
import type { EntryPosition } from './types.js';

/**
 * Int32 fields of a record (wasm/lane.ts). A *_START is -1 when the url has no such element;
 * R_CHANGEFREQ and R_LASTMOD_DAY are 0 then.
 */
export const LANE_FIELDS = 18;
export const R_START = 0;
export const R_LINE = 1;
export const R_COLUMN = 2;
export const R_HASH_1 = 3;
export const R_HASH_2 = 4;
export const R_LOC_START = 5;
export const R_LOC_LENGTH = 6;
export const R_LASTMOD_START = 7;
export const R_LASTMOD_LENGTH = 8;
export const R_END = 9;
export const R_CHANGEFREQ = 10; // the index in CHANGEFREQS + 1
export const R_PRIORITY_START = 11;
export const R_PRIORITY_LENGTH = 12;
export const R_FLAGS = 13; // F_LOC_* bits
/** The loc holds references (`&amp;`, `&#N;`, …) of URL characters: laneLoc decodes them. */
export const F_LOC_REFERENCES = 1;
/** The loc may differ from its comparableUrl (upper-case host, port, escape, dot segment…: wasm/lane.ts locUnusual). */
export const F_LOC_UNUSUAL = 2;
/** Extras R_EXTRA_FROM to R_EXTRA_FROM + R_EXTRA_COUNT - 1 (Lane.extras), R_IMAGES of them images. */
export const R_EXTRA_FROM = 14;
export const R_EXTRA_COUNT = 15;
export const R_IMAGES = 16;
export const R_LASTMOD_DAY = 17; // YYYYMMDD

/**
 * Int32 fields of an extra (an image:image or xhtml:link alternate): the value is an image's loc or an
 * alternate's href; the hashes (of a scan that hashes) are of the decoded href and of the hreflang.
 */
export const EXTRA_FIELDS = 10;
export const X_KIND = 0; // X_IMAGE, or an alternate
export const X_VALUE_START = 1;
export const X_VALUE_LENGTH = 2;
export const X_FLAGS = 3; // F_LOC_* bits, of the value
export const X_HREFLANG_START = 4;
export const X_HREFLANG_LENGTH = 5;
export const X_HREF_HASH_1 = 6;
export const X_HREF_HASH_2 = 7;
export const X_HREFLANG_HASH_1 = 8;
export const X_HREFLANG_HASH_2 = 9;
export const X_IMAGE = 0;

/** Records per call (wasm/lane.ts MAX_RECORDS): a 256 KiB buffer holds about 1,300 urls. */
const MAX_RECORDS = 4096;

interface LaneExports {
  memory: WebAssembly.Memory;
  reserve(bytes: number, count: number): number;
  recordsAt(): number;
  scan(from: number, length: number, startLine: number, startLineStart: number, maxLength: number, maxCount: number, offset: number, mode: number): number;
  changefreqNamesAt(): number;
  changefreqLengthsAt(): number;
  setProtocol(changefreqs: number, minLocLength: number, maxLocLength: number): void;
  fingerprintOf(start: number, end: number, half: number): number;
  endLine: WebAssembly.Global;
  endLineStart: WebAssembly.Global;
  seenInit(capacity: number): number;
  seenGet(hash1: number, hash2: number): number;
  seenAdd(hash1: number, hash2: number, value: number): number;
  seenScratch(count: number): number;
  seenFirst(count: number): number;
  seenCount: WebAssembly.Global;
  addSeen(count: number, maxTracked: number): number;
  pick(count: number, field: number, min: number): number;
  attentionAt(): number;
  attentionCount: WebAssembly.Global;
  packPages(from: number, count: number): void;
  pagesAt(): number;
  packLocs(from: number, to: number, room: number): number;
  locsAt(): number;
  packedBytes: WebAssembly.Global;
  extrasAt(): number;
  extraCount: WebAssembly.Global;
  linkedCount: WebAssembly.Global;
  mostImages: WebAssembly.Global;
  prefixesAt(): number;
  setPrefixes(image: number, xhtml: number): void;
}

/**
 * An instance and what its input area holds: `text` (or `bytes`) from `from` to `end`. Readings that
 * share it may interleave between chunks, so one that scans another buffer copies its own first.
 */
interface LaneInstance {
  readonly exports: LaneExports;
  text: string | undefined;
  bytes: Uint8Array | undefined;
  from: number;
  end: number;
  loaded: boolean;
  /** The window of `text` ends before a non-ASCII character. */
  cut: boolean;
  /** Lane.prefixKey of the prefixes set in the instance. */
  prefixes: string;
}

let compiled: WebAssembly.Module | null | undefined;

/** A new instance of the module (compiled on first use); null where WebAssembly is not available. */
function newInstance(): LaneInstance | null {
  if (compiled === null) return null;
  try {
    if (compiled === undefined) {
      const text = atob(LANE_WASM_BASE64);
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      compiled = new WebAssembly.Module(bytes);
    }
    const instance = new WebAssembly.Instance(compiled, {
      env: {
        abort: (): never => {
          throw new Error('lane: abort');
        },
        // wasm/lane.ts usableHost: a host it cannot judge (an A-label, a number, an escape), read once per host.
        hostUsable: (from: number, length: number): boolean =>
          URL.canParse(`http://${String.fromCharCode(...new Uint8Array((instance.exports.memory as WebAssembly.Memory).buffer, from, length))}/`),
      },
    });
    const exports = instance.exports as unknown as LaneExports;
    setProtocol(exports);
    return { exports, text: undefined, bytes: undefined, from: 0, end: 0, loaded: false, cut: false, prefixes: '' };
  } catch {
    // A runtime without WebAssembly (or one that forbids compiling it): the events do it all.
    compiled = null;
    return null;
  }
}

/** The protocol's constants (changefreq names, loc bounds) written into a new instance: model.ts and url.ts own them. */
function setProtocol(exports: LaneExports): void {
  const memory = new Uint8Array(exports.memory.buffer);
  const names = exports.changefreqNamesAt();
  const lengths = exports.changefreqLengthsAt();
  CHANGEFREQS.forEach((name, k) => {
    encoder.encodeInto(name, memory.subarray(names + k * 16, names + k * 16 + 16));
    memory[lengths + k] = name.length;
  });
  exports.setProtocol(CHANGEFREQS.length, MIN_URL_LENGTH, MAX_URL_LENGTH);
}

let shared: LaneInstance | null | undefined;
/** An instance a lane gave back (Lane.release), for the next createWithTable; only one, unless its memory grew past SPARE_MOST_BYTES. */
let spare: LaneInstance | undefined;
const SPARE_MOST_BYTES = 16 << 20;

/** The instance every reading shares, made on first use; null where WebAssembly is not available. */
function sharedInstance(): LaneInstance | null {
  return (shared ??= newInstance());
}

const encoder = new TextEncoder();

/** The most of a buffer the module holds at once: a longer one is read a window at a time. */
export const LANE_WINDOW = 1 << 20;
/** A window is reloaded from the read position when less than this is left in it (a url is shorter). */
const WINDOW_ROOM = 64 * 1024;

const NOT_ASCII = /[^\x00-\x7f]/g;

/** The index of the first character of `text` from `from` on that is not ASCII; text.length when none. */
function notAsciiFrom(text: string, from: number): number {
  NOT_ASCII.lastIndex = from;
  return NOT_ASCII.exec(text)?.index ?? text.length;
}

/**
 * Puts the window of `text` from `from` in the input area unless the one there serves: at most
 * LANE_WINDOW characters, ending before the first non-ASCII one. After a window cut so, that character
 * is looked for before copying, so each character is copied about once. False when there is no room.
 */
function load(lane: LaneInstance, text: string, from: number): boolean {
  if (text === lane.text && lane.loaded && from >= lane.from && from < lane.end && (lane.end === text.length || lane.cut || from + WINDOW_ROOM <= lane.end)) return true;
  const most = Math.min(text.length, from + LANE_WINDOW);
  let end = text === lane.text && lane.cut ? Math.min(most, notAsciiFrom(text, from)) : most;
  const at = lane.exports.reserve(end - from, MAX_RECORDS);
  lane.text = text;
  lane.bytes = undefined;
  lane.from = from;
  lane.loaded = at !== 0;
  if (at !== 0) {
    // The module's memory may have grown (its old buffer detached) since the last call: a new view.
    const { read, written } = encoder.encodeInto(from === 0 && end === text.length ? text : text.slice(from, end), new Uint8Array(lane.exports.memory.buffer, at, end - from));
    // Not all ASCII: the window ends before the first character that is not (the bytes before it are the characters).
    if (read !== end - from || written !== end - from) end = notAsciiFrom(text, from);
  }
  lane.end = end;
  lane.cut = end < most;
  return lane.loaded;
}

/**
 * `load` for ASCII `bytes`: the window there serves when it is of the same array (a caller hands each
 * chunk in an array of its own). False when there is no room.
 */
function loadBytes(lane: LaneInstance, bytes: Uint8Array, from: number): boolean {
  if (bytes === lane.bytes && from >= lane.from && (lane.end === bytes.length || from + WINDOW_ROOM <= lane.end)) return true;
  const end = Math.min(bytes.length, from + LANE_WINDOW);
  const length = end - from;
  const at = lane.exports.reserve(length, MAX_RECORDS);
  lane.text = undefined;
  if (at === 0) {
    lane.bytes = undefined;
    return false;
  }
  lane.bytes = bytes;
  lane.from = from;
  lane.end = end;
  new Uint8Array(lane.exports.memory.buffer, at, length).set(bytes.subarray(from, end));
  return true;
}

/** What a lane reads (Lane.configure). */
export interface LaneReading {
  sitemap?: boolean;
  readerForms?: boolean;
  image?: string | undefined;
  xhtml?: string | undefined;
}

// wasm/lane.ts's scan modes.
const MODE_HASH = 1;
const MODE_SITEMAP = 2;
const MODE_MINUTES = 4;
const MODE_BLANKS = 8;

/** The text a scan's records index, or a function that makes it (for a scan of bytes). */
export type RunText = string | (() => string);

/** A reader of runs of entries: the records of its last scan. */
export class Lane {
  private readonly lane: LaneInstance;
  private view: Int32Array = new Int32Array(0);
  private recordCount = 0;
  /** The line, and the index in the buffer where it starts, after the last url of the last scan. */
  endLine = 0;
  endLineStart = 0;
  /** The instance's fingerprint table; undefined unless made by createWithTable. */
  readonly seen: FingerprintSet | undefined;
  /** MODE_* bits of what this lane reads (configure). */
  private mode = 0;
  /** The extension prefixes this lane reads (configure), as the instance keeps them: image, NUL, xhtml. */
  private prefixKey = '';
  private packedLines: Uint8Array = new Uint8Array(0);
  private released = false;

  private constructor(lane: LaneInstance, tableCapacity: number) {
    this.lane = lane;
    this.seen = tableCapacity > 0 ? new LaneFingerprintTable(lane.exports, tableCapacity) : undefined;
  }

  /** A lane, or undefined where WebAssembly cannot run. */
  static create(): Lane | undefined {
    const lane = sharedInstance();
    return lane === null ? undefined : new Lane(lane, 0);
  }

  /** A lane with an instance of its own holding a fingerprint table of `capacity` slots (a power of two), for addSeen. */
  static createWithTable(capacity: number): Lane | undefined {
    const lane = spare ?? newInstance();
    spare = undefined;
    return lane === null ? undefined : new Lane(lane, capacity);
  }

  /** Gives a createWithTable lane's instance to the next one (its table is cleared then): this lane must not be used after. */
  release(): void {
    if (this.seen === undefined || this.released || this.lane.exports.memory.buffer.byteLength > SPARE_MOST_BYTES) return;
    this.released = true;
    // What the input area holds is known by the array it came from: the next owner's may be this one, changed.
    this.lane.bytes = undefined;
    this.lane.loaded = false;
    spare = this.lane;
  }

  /** The records of the last scan, valid until the next; take them afresh after addSeen (memory growth detaches a view). */
  get records(): Int32Array {
    const memory = this.lane.exports.memory.buffer;
    if (this.view.buffer !== memory) this.view = new Int32Array(memory, this.lane.exports.recordsAt(), this.recordCount * LANE_FIELDS);
    return this.view;
  }

  /**
   * Reads up to `maxCount` urls (each at most `maxLength` characters) of `buf` from `from`, on line
   * `line` that starts at `lineStart` (negative: in an earlier buffer). Returns how many (`records`).
   */
  scan(buf: string, from: number, line: number, lineStart: number, maxLength: number, maxCount: number, hash = true): number {
    if (!load(this.lane, buf, from)) return 0;
    return this.scanLoaded(from, line, lineStart, maxLength, maxCount, hash);
  }

  /** `scan` of all-ASCII `bytes`; changed bytes must come in a new array (the loaded window is known by its array). */
  scanBytes(bytes: Uint8Array, from: number, line: number, lineStart: number, maxLength: number, maxCount: number, hash = true): number {
    if (!loadBytes(this.lane, bytes, from)) return 0;
    return this.scanLoaded(from, line, lineStart, maxLength, maxCount, hash);
  }

  /**
   * What this lane reads: index `<sitemap>`s or `<url>`s, with image:image and xhtml:link alternates of
   * these prefixes (undefined, or longer than 32 or not ASCII: such elements end a run). `readerForms`:
   * also what the reader takes but the validator reports (blanks around a value, a lastmod to the minute).
   */
  configure(reading: LaneReading): void {
    const usable = (p: string | undefined): string => (p !== undefined && p.length <= 32 && /^[\x21-\x7e]+$/.test(p) ? p : '');
    this.prefixKey = `${usable(reading.image)}\u0000${usable(reading.xhtml)}`;
    this.mode = (reading.sitemap === true ? MODE_SITEMAP : 0) | (reading.readerForms === true ? MODE_MINUTES | MODE_BLANKS : 0);
  }

  /** The instance's prefixes made this lane's. */
  private setPrefixes(): void {
    const lane = this.lane;
    if (lane.prefixes === this.prefixKey) return;
    const [image, xhtml] = this.prefixKey.split('\u0000') as [string, string];
    const at = lane.exports.prefixesAt();
    encoder.encodeInto(image, new Uint8Array(lane.exports.memory.buffer, at, 32));
    encoder.encodeInto(xhtml, new Uint8Array(lane.exports.memory.buffer, at + 32, 32));
    lane.exports.setPrefixes(image.length, xhtml.length);
    lane.prefixes = this.prefixKey;
  }

  /** How many records of the last scan have alternates. */
  get linkedCount(): number {
    return this.lane.exports.linkedCount.value as number;
  }

  /** The most images a record of the last scan has. */
  get mostImages(): number {
    return this.lane.exports.mostImages.value as number;
  }

  /** The extras of the last scan (their values index the scan's text): valid until the next scan. */
  get extras(): Int32Array {
    const exports = this.lane.exports;
    return new Int32Array(exports.memory.buffer, exports.extrasAt(), (exports.extraCount.value as number) * EXTRA_FIELDS);
  }

  /** `scan` of the loaded window from `from`. */
  private scanLoaded(from: number, line: number, lineStart: number, maxLength: number, maxCount: number, hash: boolean): number {
    const lane = this.lane;
    const exports = lane.exports;
    this.setPrefixes();
    const offset = lane.from;
    const count = exports.scan(from - offset, lane.end - offset, line, lineStart - offset, Math.min(maxLength, 0x7fffffff), Math.min(maxCount, 0x7fffffff), offset, this.mode | (hash ? MODE_HASH : 0));
    if (count > 0) {
      this.recordCount = count;
      this.view = new Int32Array(exports.memory.buffer, exports.recordsAt(), count * LANE_FIELDS);
      this.endLine = exports.endLine.value;
      this.endLineStart = exports.endLineStart.value;
    }
    return count;
  }

  /**
   * Where a run of the first `taken` (> 0) records of the last scan ends, with the line state there in
   * `lines`: after the last of them, or at the start of the next record when the scan read more.
   */
  stopAfter(taken: number, lines: Int32Array): number {
    const records = this.records;
    if (taken < this.recordCount) {
      const r = taken * LANE_FIELDS;
      const start = records[r + R_START] as number;
      lines[0] = records[r + R_LINE] as number;
      lines[1] = start - (records[r + R_COLUMN] as number) + 1;
      return start;
    }
    lines[0] = this.endLine;
    lines[1] = this.endLineStart;
    return records[(taken - 1) * LANE_FIELDS + R_END] as number;
  }

  /**
   * Adds the fingerprints of the first `count` records of the last scan (hashed) to `seen` with their
   * lines; once it holds `maxTracked`, only looks them up and stops before the first not found. Returns
   * how many were taken; `attention` pairs each found already with the value stored for it.
   */
  addSeen(count: number, maxTracked: number): number {
    if (this.seen === undefined) throw new Error('lane: addSeen needs a lane made by createWithTable');
    return this.lane.exports.addSeen(count, maxTracked);
  }

  /** The records among 0 to `count - 1` of the last scan whose field `field` is at least `min`: `attention` lists them as (record index, field) pairs. */
  pick(count: number, field: number, min: number): number {
    return this.lane.exports.pick(count, field, min);
  }

  /** The pairs of the last addSeen or pick; valid until the next call. */
  get attention(): Int32Array {
    const exports = this.lane.exports;
    return new Int32Array(exports.memory.buffer, exports.attentionAt(), exports.attentionCount.value * 2);
  }

  /** Records `from` to `from + count - 1` of the last scan as (line, column, hash 1, hash 2) quads; valid until the next call. */
  pages(from: number, count: number): Int32Array {
    const exports = this.lane.exports;
    exports.packPages(from, count);
    return new Int32Array(exports.memory.buffer, exports.pagesAt(), count * 4);
  }

  /**
   * The decoded locs of records `from` to `to - 1` as UTF-8 lines in `packed`, as many as fit in `room`
   * bytes; returns the index of the first record left out.
   */
  packLocs(from: number, to: number, room: number): number {
    const exports = this.lane.exports;
    const next = exports.packLocs(from, to, room);
    this.packedLines = new Uint8Array(exports.memory.buffer, exports.locsAt(), exports.packedBytes.value as number);
    return next;
  }

  /** The lines of the last packLocs; valid until the next call. */
  get packed(): Uint8Array {
    return this.packedLines;
  }
}

/** A fingerprint table in a lane instance's memory (wasm/lane.ts), as core/fingerprint-table.ts's. */
class LaneFingerprintTable implements FingerprintSet {
  constructor(
    private readonly exports: LaneExports,
    capacity: number,
  ) {
    if (exports.seenInit(capacity) === 0) throw new RangeError(`lane: no memory for a fingerprint table of ${capacity} slots`);
  }

  get size(): number {
    return this.exports.seenCount.value as number;
  }

  get(hash1: number, hash2: number): number {
    return this.exports.seenGet(hash1, hash2);
  }

  add(hash1: number, hash2: number, value: number): number {
    const found = this.exports.seenAdd(hash1, hash2, value);
    if (found === -2) throw new RangeError('lane: no memory to grow the fingerprint table');
    return found;
  }

  /** Looked up in the module, FIRST_OF_BLOCK pairs a call: 15,000 calls of get took 3 ms of a cold validation. */
  firstOf(pairs: Int32Array, count: number): number {
    for (let from = 0; from < count; from += FIRST_OF_BLOCK) {
      const n = Math.min(FIRST_OF_BLOCK, count - from);
      const at = this.exports.seenScratch(n);
      if (at === 0) throw new RangeError('lane: no memory to look up fingerprints');
      new Int32Array(this.exports.memory.buffer, at, n * 2).set(pairs.subarray(from * 2, (from + n) * 2));
      const found = this.exports.seenFirst(n);
      if (found !== -1) return from + found;
    }
    return -1;
  }
}

/** Fingerprints looked up per call of the module (512 KiB of its memory). */
const FIRST_OF_BLOCK = 1 << 16;

/** The module's fingerprint of ASCII `text`, for the test that compares it with core/fingerprint.ts. */
export function laneFingerprint(text: string): [number, number] | undefined {
  const lane = sharedInstance();
  if (lane === null || text.length > LANE_WINDOW || !load(lane, text, 0) || lane.end !== text.length) return undefined;
  return [lane.exports.fingerprintOf(0, text.length, 0), lane.exports.fingerprintOf(0, text.length, 1)];
}

/** The position of record `r` (its first field's index). */
export function recordPosition(records: Int32Array, r: number): EntryPosition {
  return { line: records[r + R_LINE] as number, column: records[r + R_COLUMN] as number };
}

/** The decoded loc of record `r` (its first field's index) of a scan of `text`, which starts at `base` in the buffer. */
export function laneLoc(text: string, records: Int32Array, r: number, base = 0): string {
  const locStart = (records[r + R_LOC_START] as number) - base;
  const loc = text.slice(locStart, locStart + (records[r + R_LOC_LENGTH] as number));
  return ((records[r + R_FLAGS] as number) & F_LOC_REFERENCES) === 0 ? loc : decodeLaneReferences(loc);
}

/** The value of extra `x` (its first field's index) of a scan of `text` (from `base`, as laneLoc): an image's loc or an alternate's href, references decoded. */
export function extraValue(text: string, extras: Int32Array, x: number, base = 0): string {
  const start = (extras[x + X_VALUE_START] as number) - base;
  const value = text.slice(start, start + (extras[x + X_VALUE_LENGTH] as number));
  return ((extras[x + X_FLAGS] as number) & F_LOC_REFERENCES) === 0 ? value : decodeLaneReferences(value);
}

/** The images and alternates of record `r` of a scan of `text` (from `base`, as laneLoc) into `entry` (none: nothing is set). */
export function addLaneExtensions(text: string, records: Int32Array, r: number, extras: Int32Array, entry: UrlEntry, base = 0): void {
  const count = records[r + R_EXTRA_COUNT] as number;
  if (count === 0) return;
  let images: ImageEntry[] | undefined;
  let alternates: AlternateLink[] | undefined;
  const from = (records[r + R_EXTRA_FROM] as number) * EXTRA_FIELDS;
  for (let x = from; x < from + count * EXTRA_FIELDS; x += EXTRA_FIELDS) {
    if (extras[x + X_KIND] === X_IMAGE) {
      (images ??= []).push({ loc: extraValue(text, extras, x, base) });
    } else {
      const start = (extras[x + X_HREFLANG_START] as number) - base;
      (alternates ??= []).push({ hreflang: text.slice(start, start + (extras[x + X_HREFLANG_LENGTH] as number)), href: extraValue(text, extras, x, base) });
    }
  }
  if (images !== undefined) entry.images = images;
  if (alternates !== undefined) entry.alternates = alternates;
}

/** The references the lane takes in a loc (wasm/lane.ts readReference), decoded as the tokenizer does. */
function decodeLaneReferences(raw: string): string {
  let out = '';
  let last = 0;
  for (let amp = raw.indexOf('&'); amp !== -1; amp = raw.indexOf('&', last)) {
    const semicolon = raw.indexOf(';', amp);
    const name = raw.slice(amp + 1, semicolon);
    const code = name === 'amp' ? 0x26 : name === 'apos' ? 0x27 : name.charCodeAt(1) === 0x78 ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    out += raw.slice(last, amp) + String.fromCharCode(code);
    last = semicolon + 1;
  }
  return out + raw.slice(last);
}

/** The entry of record `r` (its first field's index) of a scan of `text`, as the reader makes it. */
export function laneUrlEntry(text: string, records: Int32Array, r: number, extras: Int32Array): UrlEntry {
  const loc = laneLoc(text, records, r);
  const lastmod = laneLastmod(text, records, r);
  const changefreq = CHANGEFREQS[(records[r + R_CHANGEFREQ] as number) - 1];
  const priorityStart = records[r + R_PRIORITY_START] as number;
  const priority = priorityStart === -1 ? undefined : priorityOf(text, priorityStart, priorityStart + (records[r + R_PRIORITY_LENGTH] as number));
  // The usual entry made whole (one object shape), else field by field.
  const whole = lastmod !== undefined && changefreq !== undefined && priority !== undefined;
  const entry: UrlEntry = whole ? { loc, lastmod, changefreq, priority } : { loc };
  if (!whole) {
    if (lastmod !== undefined) entry.lastmod = lastmod;
    if (changefreq !== undefined) entry.changefreq = changefreq;
    if (priority !== undefined) entry.priority = priority;
  }
  addLaneExtensions(text, records, r, extras, entry);
  return entry;
}

/** The lastmod of record `r` of a scan of `text`; undefined when it has none. */
function laneLastmod(text: string, records: Int32Array, r: number): string | undefined {
  const start = records[r + R_LASTMOD_START] as number;
  return start === -1 ? undefined : text.slice(start, start + (records[r + R_LASTMOD_LENGTH] as number));
}

/** The index entry of record `r` of a scan (with `sitemap`) of `text`. */
export function laneSitemapRef(text: string, records: Int32Array, r: number): SitemapRef {
  const ref: SitemapRef = { loc: laneLoc(text, records, r) };
  const lastmod = laneLastmod(text, records, r);
  if (lastmod !== undefined) ref.lastmod = lastmod;
  return ref;
}

const POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * Number(text.slice(start, end)) for a priority the module read (`0`, `0.`, `0.ddd`, `1`, `1.000`, `.ddd`),
 * without the string: digits over a power of ten is one correctly rounded division, as Number() is.
 */
function priorityOf(text: string, start: number, end: number): number {
  const first = text.charCodeAt(start);
  if (first === 0x31) return 1;
  let i = first === 0x30 ? start + 2 : start + 1; // after the point
  const digits = end - i;
  if (digits <= 0) return 0;
  if (digits >= POWERS_OF_TEN.length) return Number(text.slice(start, end));
  let fraction = 0;
  for (; i < end; i++) fraction = fraction * 10 + (text.charCodeAt(i) - 0x30);
  return fraction / (POWERS_OF_TEN[digits] as number);
}

/** The text of ASCII bytes (what a bytes scan's records index), kept for the last array: a chunk's runs share it. */
export function asciiTextOf(): (bytes: Uint8Array) => string {
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
