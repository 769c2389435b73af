// The JSON line of a url the lane read, written from the spans of its values in the scanned input
// (model-json.ts says why): the bytes of JSON.stringify(laneUrlEntry(...)), as
// test/core/read/lane-json.test.ts checks on fixtures and fast-check sitemaps. A value the lane
// decodes (a loc with references), one that JSON escapes, and the extensions are written from the
// values laneUrlEntry would make; the rest is copied.

import type { JsonLines } from '../model-json.js';
import { CHANGEFREQS, type AlternateLink, type ImageEntry, type UrlEntry } from '../model.js';
import {
  addLaneExtensions,
  F_LOC_REFERENCES,
  laneLoc,
  laneUrlEntry,
  R_CHANGEFREQ,
  R_EXTRA_COUNT,
  R_FLAGS,
  R_LASTMOD_LENGTH,
  R_LASTMOD_START,
  R_LOC_LENGTH,
  R_LOC_START,
  R_PRIORITY_LENGTH,
  R_PRIORITY_START,
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
 * ASCII bytes, the records index), whose text is `text` (the same characters), into `out`.
 */
export function writeLaneUrlLine(out: JsonLines, source: string | Uint8Array, text: string, records: Int32Array, r: number, extras: Int32Array): void {
  out.ascii('{"loc":');
  const locStart = records[r + R_LOC_START] as number;
  if (((records[r + R_FLAGS] as number) & F_LOC_REFERENCES) !== 0 || !out.span(source, locStart, locStart + (records[r + R_LOC_LENGTH] as number))) {
    out.string(laneLoc(text, records, r));
  }
  const lastmodStart = records[r + R_LASTMOD_START] as number;
  if (lastmodStart !== -1) {
    out.ascii(',"lastmod":');
    const end = lastmodStart + (records[r + R_LASTMOD_LENGTH] as number);
    if (!out.span(source, lastmodStart, end)) out.string(text.slice(lastmodStart, end));
  }
  const changefreq = records[r + R_CHANGEFREQ] as number;
  if (changefreq !== 0) out.ascii(CHANGEFREQ_MEMBERS[changefreq - 1] as string);
  const priorityStart = records[r + R_PRIORITY_START] as number;
  if (priorityStart !== -1) {
    out.ascii(',"priority":');
    const key = priorityKey(source, priorityStart, priorityStart + (records[r + R_PRIORITY_LENGTH] as number));
    let priority = priorityTexts.get(key);
    if (priority === undefined) {
      // The number the entry holds, as JSON writes it.
      priority = JSON.stringify(laneUrlEntry(text, records, r, extras).priority);
      if (key !== -1 && priorityTexts.size < MAX_PRIORITY_TEXTS) priorityTexts.set(key, priority);
    }
    out.ascii(priority);
  }
  if ((records[r + R_EXTRA_COUNT] as number) !== 0) writeExtensions(out, text, records, r, extras);
  out.ascii('}');
  out.end();
}

/** The images and alternates of record `r`, as the members of its entry that laneUrlEntry makes. */
function writeExtensions(out: JsonLines, text: string, records: Int32Array, r: number, extras: Int32Array): void {
  const entry: UrlEntry = { loc: '' };
  addLaneExtensions(text, records, r, extras, entry);
  const { images, alternates } = entry;
  if (images !== undefined) {
    out.ascii(',"images":[');
    for (let i = 0; i < images.length; i++) {
      out.ascii(i === 0 ? '{"loc":' : ',{"loc":');
      out.string((images[i] as ImageEntry).loc);
      out.ascii('}');
    }
    out.ascii(']');
  }
  if (alternates !== undefined) {
    out.ascii(',"alternates":[');
    for (let i = 0; i < alternates.length; i++) {
      const alternate = alternates[i] as AlternateLink;
      out.ascii(i === 0 ? '{"hreflang":' : ',{"hreflang":');
      out.string(alternate.hreflang);
      out.ascii(',"href":');
      out.string(alternate.href);
      out.ascii('}');
    }
    out.ascii(']');
  }
}
