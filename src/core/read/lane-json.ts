// The JSON lines of a run of urls the lane read from bytes, copied from the spans of their values:
// the bytes of JSON.stringify(laneUrlEntry(...)) (test/core/read/lane-json.test.ts checks it). A url
// with a value JSON does not write as it is (a reference other than `&amp;`, a character JSON escapes,
// a priority not seen before) is written from its entry. Few small functions on purpose: V8 compiles
// them while the command runs, and more inlined helpers cost that compiler more than the copying.

import type { JsonLines } from '../model-json.js';
import { CHANGEFREQS } from '../model.js';
import { EXTRA_FIELDS, F_LOC_REFERENCES, LANE_FIELDS, laneUrlEntry, R_CHANGEFREQ, R_END, R_EXTRA_COUNT, R_EXTRA_FROM, R_FLAGS, R_LASTMOD_LENGTH, R_LASTMOD_START, R_LOC_LENGTH, R_LOC_START, R_PRIORITY_LENGTH, R_PRIORITY_START, R_START, X_FLAGS, X_HREFLANG_LENGTH, X_HREFLANG_START, X_IMAGE, X_KIND, X_VALUE_LENGTH, X_VALUE_START } from './lane.js';

const encoder = new TextEncoder();
const piece = (text: string): Uint8Array => encoder.encode(text);
const LOC = piece('{"loc":');
const LASTMOD = piece(',"lastmod":');
const CHANGEFREQ = CHANGEFREQS.map((name) => piece(`,"changefreq":"${name}"`));
const PRIORITY = piece(',"priority":');
const IMAGES = piece(',"images":[{"loc":');
const IMAGE = piece(',{"loc":');
const ALTERNATES = piece(',"alternates":[{"hreflang":');
const ALTERNATE = piece(',{"hreflang":');
const HREF = piece(',"href":');
/** A line is shorter than its element (names and tags longer than keys, `&amp;` than `&`), but for this much at most (`.5` → `0.5`). */
const LINE_SLACK = 64;

/** Priorities' JSON text by their characters as written (priorityKey): a sitemap has a few spellings. */
const priorityKeys: number[] = [];
const priorityTexts: Uint8Array[] = [];
const MAX_PRIORITIES = 64;

/** The bytes of a priority (at most 7) and their count as one number (below 2^53); -1 for a longer one. */
function priorityKey(source: Uint8Array, start: number, end: number): number {
  if (end - start > 7) return -1;
  let key = end - start;
  for (let i = start; i < end; i++) key = key * 128 + (source[i] as number);
  return key;
}

/** The JSON lines of the records before field index `size` of a scan of ASCII `source`; `text()` is its text. */
export function writeLaneUrlLines(out: JsonLines, source: Uint8Array, text: () => string, records: Int32Array, size: number, extras: Int32Array): void {
  for (let r = 0; r < size; r += LANE_FIELDS) {
    const start = out.length;
    const bytes = out.reserve((records[r + R_END] as number) - (records[r + R_START] as number) + LINE_SLACK);
    const end = copyLine(bytes, start, source, records, r, extras);
    if (end !== -1) {
      out.commitLine(end);
      continue;
    }
    const entry = laneUrlEntry(text(), records, r, extras);
    out.line(entry);
    const priority = records[r + R_PRIORITY_START] as number;
    const key = priority === -1 ? -1 : priorityKey(source, priority, priority + (records[r + R_PRIORITY_LENGTH] as number));
    if (key !== -1 && priorityKeys.length < MAX_PRIORITIES && !priorityKeys.includes(key)) {
      priorityKeys.push(key);
      priorityTexts.push(piece(JSON.stringify(entry.priority)));
    }
  }
}

/** Record `r`'s line into `bytes` from `at` (room enough); the index after it, or -1 when a value is not copied so. */
function copyLine(bytes: Uint8Array, at: number, source: Uint8Array, records: Int32Array, r: number, extras: Int32Array): number {
  at = put(bytes, at, LOC);
  const loc = records[r + R_LOC_START] as number;
  at = copy(bytes, at, source, loc, loc + (records[r + R_LOC_LENGTH] as number), ((records[r + R_FLAGS] as number) & F_LOC_REFERENCES) !== 0);
  const lastmod = records[r + R_LASTMOD_START] as number;
  if (lastmod !== -1 && at !== -1) at = copy(bytes, put(bytes, at, LASTMOD), source, lastmod, lastmod + (records[r + R_LASTMOD_LENGTH] as number), false);
  const changefreq = records[r + R_CHANGEFREQ] as number;
  if (changefreq !== 0 && at !== -1) at = put(bytes, at, CHANGEFREQ[changefreq - 1] as Uint8Array);
  const priority = records[r + R_PRIORITY_START] as number;
  if (priority !== -1 && at !== -1) {
    const known = priorityKeys.indexOf(priorityKey(source, priority, priority + (records[r + R_PRIORITY_LENGTH] as number)));
    at = known === -1 ? -1 : put(bytes, put(bytes, at, PRIORITY), priorityTexts[known] as Uint8Array);
  }
  const count = records[r + R_EXTRA_COUNT] as number;
  if (count !== 0 && at !== -1) at = copyExtras(bytes, at, source, extras, (records[r + R_EXTRA_FROM] as number) * EXTRA_FIELDS, count);
  if (at === -1) return -1;
  bytes[at++] = 0x7d; // }
  bytes[at++] = 0x0a;
  return at;
}

/** The images, then the alternates (as laneUrlEntry makes them, each in document order), of `count` extras from field index `from`, as members; -1 for a value not copied. */
function copyExtras(bytes: Uint8Array, at: number, source: Uint8Array, extras: Int32Array, from: number, count: number): number {
  const to = from + count * EXTRA_FIELDS;
  for (let pass = 0; pass < 2; pass++) {
    const images = pass === 0;
    let first = true;
    for (let x = from; x < to; x += EXTRA_FIELDS) {
      if ((extras[x + X_KIND] === X_IMAGE) !== images) continue;
      at = put(bytes, at, images ? (first ? IMAGES : IMAGE) : first ? ALTERNATES : ALTERNATE);
      first = false;
      if (!images) {
        const hreflang = extras[x + X_HREFLANG_START] as number;
        at = copy(bytes, at, source, hreflang, hreflang + (extras[x + X_HREFLANG_LENGTH] as number), false);
        if (at === -1) return -1;
        at = put(bytes, at, HREF);
      }
      const value = extras[x + X_VALUE_START] as number;
      at = copy(bytes, at, source, value, value + (extras[x + X_VALUE_LENGTH] as number), ((extras[x + X_FLAGS] as number) & F_LOC_REFERENCES) !== 0);
      if (at === -1) return -1;
      bytes[at++] = 0x7d; // }
    }
    if (!first) bytes[at++] = 0x5d; // ]
  }
  return at;
}

/** A piece of JSON's own syntax: a builtin's copy (the line's first thousands run before V8 has optimized a loop of our own). */
function put(bytes: Uint8Array, at: number, text: Uint8Array): number {
  bytes.set(text, at);
  return at + text.length;
}

/** Bytes `start` to `end` of `source` as a JSON string into `bytes` from `at` (copyText in quotes): the index after it, or -1. */
export function copy(bytes: Uint8Array, at: number, source: Uint8Array, start: number, end: number, ampersands: boolean): number {
  bytes[at] = 0x22;
  at = copyText(bytes, at + 1, source, start, end, ampersands);
  if (at === -1) return -1;
  bytes[at] = 0x22;
  return at + 1;
}

/**
 * Bytes `start` to `end` of `source` into `bytes` from `at`: the index after them, or -1 unless they are
 * ASCII that JSON writes as it is (ECMA-262 QuoteJSONString) with no `&` but `&amp;` when `ampersands`.
 */
function copyText(bytes: Uint8Array, at: number, source: Uint8Array, start: number, end: number, ampersands: boolean): number {
  for (let i = start; i < end; i++) {
    const c = source[i] as number;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7f) return -1;
    if (c === 0x26) {
      if (!ampersands || source[i + 1] !== 0x61 || source[i + 2] !== 0x6d || source[i + 3] !== 0x70 || source[i + 4] !== 0x3b) return -1;
      i += 4;
    }
    bytes[at++] = c;
  }
  return at;
}
