// The JSON line of a url the lane read, written from the spans of its values in the scanned input
// (model-json.ts says why): the bytes of JSON.stringify(laneUrlEntry(...)), as
// test/core/read/lane-json.test.ts checks on fixtures and fast-check sitemaps. A value is copied
// when it is ASCII that JSON writes as it is, with `&amp;` (the reference a URL's query needs) as `&`;
// a url with any other value (another reference, a character JSON escapes, a priority not seen
// before) is written from its entry instead.

import type { JsonLines } from '../model-json.js';
import { CHANGEFREQS } from '../model.js';
import {
  EXTRA_FIELDS,
  F_LOC_REFERENCES,
  laneUrlEntry,
  R_CHANGEFREQ,
  R_EXTRA_COUNT,
  R_EXTRA_FROM,
  R_FLAGS,
  R_LASTMOD_LENGTH,
  R_LASTMOD_START,
  R_LOC_LENGTH,
  R_LOC_START,
  R_PRIORITY_LENGTH,
  R_PRIORITY_START,
  X_FLAGS,
  X_HREFLANG_LENGTH,
  X_HREFLANG_START,
  X_IMAGE,
  X_KIND,
  X_VALUE_LENGTH,
  X_VALUE_START,
} from './lane.js';

const CHANGEFREQ_MEMBERS = CHANGEFREQS.map((name) => `,"changefreq":"${name}"`);

/** A priority's JSON text by its characters as written (priorityKey): a sitemap has a few spellings. */
const priorityTexts = new Map<number, string>();
const MAX_PRIORITY_TEXTS = 256;

/** The characters of a priority of at most 7 (ASCII) and their count as one number (below 2^53), -1 for a longer one. */
function priorityKey(source: string | Uint8Array, start: number, end: number): number {
  if (end - start > 7) return -1;
  let key = end - start;
  for (let i = start; i < end; i++) key = key * 128 + (typeof source === 'string' ? source.charCodeAt(i) : (source[i] as number));
  return key;
}

/**
 * The JSON line of record `r` (its first field's index) of a scan of `source` (the text, or the
 * ASCII bytes, the records index) into `out`; `text()` gives the text of `source` (made when needed).
 */
export function writeLaneUrlLine(out: JsonLines, source: string | Uint8Array, text: () => string, records: Int32Array, r: number, extras: Int32Array): void {
  const start = out.length;
  if (copyLine(out, source, records, r, extras)) return;
  out.rewind(start);
  const entry = laneUrlEntry(text(), records, r, extras);
  out.line(entry);
  const priorityStart = records[r + R_PRIORITY_START] as number;
  const key = priorityStart === -1 ? -1 : priorityKey(source, priorityStart, priorityStart + (records[r + R_PRIORITY_LENGTH] as number));
  if (key !== -1 && priorityTexts.size < MAX_PRIORITY_TEXTS) priorityTexts.set(key, JSON.stringify(entry.priority));
}

/** The line of record `r` copied from the spans of its values; false when one of them is not copied so. */
function copyLine(out: JsonLines, source: string | Uint8Array, records: Int32Array, r: number, extras: Int32Array): boolean {
  out.ascii('{"loc":');
  const locStart = records[r + R_LOC_START] as number;
  if (!out.span(source, locStart, locStart + (records[r + R_LOC_LENGTH] as number), ((records[r + R_FLAGS] as number) & F_LOC_REFERENCES) !== 0)) return false;
  const lastmodStart = records[r + R_LASTMOD_START] as number;
  if (lastmodStart !== -1) {
    out.ascii(',"lastmod":');
    if (!out.span(source, lastmodStart, lastmodStart + (records[r + R_LASTMOD_LENGTH] as number), false)) return false;
  }
  const changefreq = records[r + R_CHANGEFREQ] as number;
  if (changefreq !== 0) out.ascii(CHANGEFREQ_MEMBERS[changefreq - 1] as string);
  const priorityStart = records[r + R_PRIORITY_START] as number;
  if (priorityStart !== -1) {
    const priority = priorityTexts.get(priorityKey(source, priorityStart, priorityStart + (records[r + R_PRIORITY_LENGTH] as number)));
    if (priority === undefined) return false;
    out.ascii(',"priority":');
    out.ascii(priority);
  }
  const count = records[r + R_EXTRA_COUNT] as number;
  if (count !== 0) {
    // As laneUrlEntry makes them: the images, then the alternates, each in document order.
    const from = (records[r + R_EXTRA_FROM] as number) * EXTRA_FIELDS;
    const to = from + count * EXTRA_FIELDS;
    if (!copyExtras(out, source, extras, from, to, true) || !copyExtras(out, source, extras, from, to, false)) return false;
  }
  out.ascii('}');
  out.end();
  return true;
}

/** The images (or the alternates) among extras `from` to `to` (field indexes), if any, as a member of the entry. */
function copyExtras(out: JsonLines, source: string | Uint8Array, extras: Int32Array, from: number, to: number, images: boolean): boolean {
  let first = true;
  for (let x = from; x < to; x += EXTRA_FIELDS) {
    if ((extras[x + X_KIND] === X_IMAGE) !== images) continue;
    out.ascii(first ? (images ? ',"images":[{"loc":' : ',"alternates":[{"hreflang":') : images ? ',{"loc":' : ',{"hreflang":');
    first = false;
    if (!images) {
      const hreflang = extras[x + X_HREFLANG_START] as number;
      if (!out.span(source, hreflang, hreflang + (extras[x + X_HREFLANG_LENGTH] as number), false)) return false;
      out.ascii(',"href":');
    }
    const value = extras[x + X_VALUE_START] as number;
    if (!out.span(source, value, value + (extras[x + X_VALUE_LENGTH] as number), ((extras[x + X_FLAGS] as number) & F_LOC_REFERENCES) !== 0)) return false;
    out.ascii('}');
  }
  if (!first) out.ascii(']');
  return true;
}
