// The bulk lane (issues #3 and #4, bench:discover and bench:validate): the plain `<url>` elements
// of a buffer are read by a small WebAssembly module (wasm/plain-lane.ts, AssemblyScript) instead of
// one RegExp match and a few script calls each. It matches the shape validate/plain-entry.ts's
// URL_PATTERN takes whole (with its `</url>`, no extensions), makes the checks plain-entry.ts leaves
// to script, hashes the loc as core/fingerprint.ts does (when asked: the validator does) and counts
// lines as the tokenizer does, and stops at the first element that does not fit. Why: script pays
// per element (a match array and its strings, calls) and, in a fresh process, runs interpreted until
// V8 has seen enough of it; the module is compiled before its first call and costs the same from the
// first element to the last.
//
// What it hands back is records (LaneRecord fields). The validator (plain-entry.ts) checks them as
// they are; the reader (xml-reader.ts) makes entries of them (laneUrlEntry), the same its RegExp
// shortcut makes: the shape is a subset of the one entry-shortcut.ts's pattern takes.
// test/core/validate/plain-entry.test.ts compares the validator's reports of every way, and
// test/core/read/entry-shortcut.test.ts the reader's entries, on every fixture and corpus file and
// on fast-check mutations.
//
// Only windows that are all ASCII are read this way (then a byte offset is a string index); others
// go the RegExp way. One module instance serves every reading in the process: a call leaves nothing
// behind but scratch memory, and its records are read before any other call can run (everything
// here is synchronous).

import type { Changefreq, UrlEntry } from '../model.js';
import { PLAIN_LANE_WASM_BASE64 } from './plain-lane-wasm.js';

/** Int32 fields of a record (wasm/plain-lane.ts). */
export const LANE_FIELDS = 13;
export const R_START = 0;
export const R_LINE = 1;
export const R_COLUMN = 2;
export const R_HASH_1 = 3;
export const R_HASH_2 = 4;
export const R_LOC_START = 5;
export const R_LOC_LENGTH = 6;
/** -1 when the url has no lastmod, or one before the scan's `pastBefore`. */
export const R_LASTMOD_START = 7;
export const R_LASTMOD_LENGTH = 8;
export const R_END = 9;
/** The changefreq's first letter (a character code), 0 when the url has none. */
export const R_CHANGEFREQ_INITIAL = 10;
/** -1 when the url has no priority. */
export const R_PRIORITY_START = 11;
export const R_PRIORITY_LENGTH = 12;

/** Records per call: a 256 KiB buffer holds about 1,300 urls; more calls follow when it holds more. */
const MAX_RECORDS = 4096;

interface LaneExports {
  memory: WebAssembly.Memory;
  reserve(bytes: number, count: number): number;
  recordsAt(): number;
  scan(from: number, length: number, startLine: number, startLineStart: number, maxLength: number, maxCount: number, pastBefore: number, offset: number, hash: number): number;
  fingerprintOf(start: number, end: number, half: number): number;
  endLine: WebAssembly.Global;
  endLineStart: WebAssembly.Global;
}

let shared: LaneExports | null | undefined;

/** The module's exports, made on first use; null where WebAssembly is not available. */
function laneExports(): LaneExports | null {
  if (shared !== undefined) return shared;
  try {
    const text = atob(PLAIN_LANE_WASM_BASE64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
      env: {
        abort: (): never => {
          throw new Error('plain-lane: abort');
        },
      },
    });
    shared = instance.exports as unknown as LaneExports;
  } catch {
    // A runtime without WebAssembly (or one that forbids compiling it): the RegExp way does it all.
    shared = null;
  }
  return shared;
}

const encoder = new TextEncoder();

/**
 * The most of a buffer the module holds at once (its memory grows to this and not further: a whole
 * document given as one string is read a window at a time).
 */
export const LANE_WINDOW = 1 << 20;
/** A window is reloaded from the read position when less than this is left in it (a url is shorter). */
const WINDOW_ROOM = 64 * 1024;

// What the module's input area holds: `loadedText` from index `loadedFrom` to `loadedEnd`. Shared by
// every reading, so whichever scans next with another buffer copies its own first (readings and
// validations may interleave between chunks).
let loadedText: string | undefined;
let loadedFrom = 0;
let loadedEnd = 0;
let loadedAscii = false;

/**
 * Puts the window of `text` that starts at `from` in the module's input area, unless the one there
 * serves; whether it is all ASCII.
 */
function load(lane: LaneExports, text: string, from: number): boolean {
  if (text === loadedText && from >= loadedFrom && (loadedEnd === text.length || from + WINDOW_ROOM <= loadedEnd)) return loadedAscii;
  const end = Math.min(text.length, from + LANE_WINDOW);
  const length = end - from;
  loadedText = text;
  loadedFrom = from;
  loadedEnd = end;
  const at = lane.reserve(length, MAX_RECORDS);
  if (at === 0) {
    loadedAscii = false;
  } else {
    // The module's memory may have grown (its old buffer detached) since the last call: a new view.
    const window = from === 0 && end === text.length ? text : text.slice(from, end);
    const { read, written } = encoder.encodeInto(window, new Uint8Array(lane.memory.buffer, at, length));
    // All ASCII exactly when every character became one byte.
    loadedAscii = read === length && written === length;
  }
  return loadedAscii;
}

/** A reader of plain urls: the records of its last scan. */
export class PlainLane {
  private readonly lane: LaneExports;
  /** The records of the last scan (a view of the module's memory, valid until the next call). */
  records: Int32Array = new Int32Array(0);
  /** The line, and the index in the buffer where it starts, after the last url of the last scan. */
  endLine = 0;
  endLineStart = 0;

  private constructor(lane: LaneExports) {
    this.lane = lane;
  }

  /** A lane, or undefined where WebAssembly cannot run. */
  static create(): PlainLane | undefined {
    const lane = laneExports();
    return lane === null ? undefined : new PlainLane(lane);
  }

  /**
   * Reads up to `maxCount` urls of `buf` from index `from`, the first on line `line`, which starts
   * at index `lineStart` (negative when it began in an earlier buffer); each at most `maxLength`
   * characters long. Returns how many were read (their records in `records`). A lastmod whose date
   * (YYYYMMDD) is before `pastBefore` is not handed back (0: every one is). The locs' fingerprints
   * are in the records when `hash` is true.
   */
  scan(buf: string, from: number, line: number, lineStart: number, maxLength: number, maxCount: number, pastBefore = 0, hash = true): number {
    const lane = this.lane;
    if (!load(lane, buf, from)) return 0;
    const offset = loadedFrom;
    const count = lane.scan(from - offset, loadedEnd - offset, line, lineStart - offset, Math.min(maxLength, 0x7fffffff), Math.min(maxCount, 0x7fffffff), pastBefore, offset, hash ? 1 : 0);
    if (count > 0) {
      this.records = new Int32Array(lane.memory.buffer, lane.recordsAt(), count * LANE_FIELDS);
      this.endLine = lane.endLine.value;
      this.endLineStart = lane.endLineStart.value;
    }
    return count;
  }
}

/** The module's fingerprint of the ASCII text `text` (for the test that compares it with core/fingerprint.ts). */
export function laneFingerprint(text: string): [number, number] | undefined {
  const lane = laneExports();
  if (lane === null || text.length > LANE_WINDOW || !load(lane, text, 0)) return undefined;
  return [lane.fingerprintOf(0, text.length, 0), lane.fingerprintOf(0, text.length, 1)];
}

/** The entry of record `r` (its first field's index) of a scan of `text`, as the reader makes it. */
export function laneUrlEntry(text: string, records: Int32Array, r: number): UrlEntry {
  const locStart = records[r + R_LOC_START] as number;
  const loc = text.slice(locStart, locStart + (records[r + R_LOC_LENGTH] as number));
  const lastmodStart = records[r + R_LASTMOD_START] as number;
  const lastmod = lastmodStart === -1 ? undefined : text.slice(lastmodStart, lastmodStart + (records[r + R_LASTMOD_LENGTH] as number));
  const changefreq = changefreqOf(records[r + R_CHANGEFREQ_INITIAL] as number);
  const priorityStart = records[r + R_PRIORITY_START] as number;
  const priority = priorityStart === -1 ? undefined : priorityOf(text, priorityStart, priorityStart + (records[r + R_PRIORITY_LENGTH] as number));
  // The usual entry made whole, else field by field: the key order of entry-shortcut.ts's entries.
  if (lastmod !== undefined && changefreq !== undefined && priority !== undefined) return { loc, lastmod, changefreq, priority };
  const entry: UrlEntry = { loc };
  if (lastmod !== undefined) entry.lastmod = lastmod;
  if (changefreq !== undefined) entry.changefreq = changefreq;
  if (priority !== undefined) entry.priority = priority;
  return entry;
}

/** The changefreq a record names by its first letter (the module read the whole word). */
function changefreqOf(initial: number): Changefreq | undefined {
  switch (initial) {
    case 0x61:
      return 'always';
    case 0x68:
      return 'hourly';
    case 0x64:
      return 'daily';
    case 0x77:
      return 'weekly';
    case 0x6d:
      return 'monthly';
    case 0x79:
      return 'yearly';
    case 0x6e:
      return 'never';
    default:
      return undefined;
  }
}

const POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * Number(text.slice(start, end)) for a priority the module read (`0`, `0.`, `0.ddd`, `1`, `1.000`,
 * `.ddd`), without making the string: the fraction's digits over a power of ten is one correctly
 * rounded division, and Number() is correctly rounded, so the two are the same double.
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
