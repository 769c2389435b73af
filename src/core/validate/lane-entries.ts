// The validator's fast path: the `<url>` or `<sitemap>` elements of a good sitemap are read by the
// WebAssembly lane (read/lane.ts) in runs, counted by the structure checker and checked from the
// records (protocol.ts laneUrls), at next to no script cost. Anything else is declined and goes through
// the XML events. test/core/validate/lane-entries.test.ts checks that the reports are the same.

import type { SitemapRef, UrlEntry } from '../model.js';
import type { XmlLane } from '../xml/tokenizer.js';
import type { XmlSitemapReader } from '../read/xml-reader.js';
import type { StructureChecker } from './structure.js';
import { addLaneExtensions, asciiTextOf, LANE_FIELDS, laneLoc, laneSitemapRef, Lane, R_COLUMN, R_HASH_1, R_HASH_2, R_LASTMOD_LENGTH, R_LASTMOD_START, R_LINE, type LaneReading, type RunText } from '../read/lane.js';

/**
 * The tokenizer's lane for the entries of a plain urlset or index; `reading`: the prefixes bound on the
 * root; `lane`: the validator's, with the duplicate check's table in it.
 */
export function laneEntries(name: 'url' | 'sitemap', reader: XmlSitemapReader, structure: StructureChecker, delivering: Delivering, reading: LaneReading, lane: Lane, checkRun: CheckRun): XmlLane {
  const sitemap = name === 'sitemap';
  lane.configure({ ...reading, sitemap });
  const textOf = asciiTextOf();
  const take = (source: string | Uint8Array, at: number, lines: Int32Array, maxLength: number): number => takeRun(lane, sitemap, source, at, lines, maxLength, checkRun, reader, structure, delivering, textOf);
  // A url holds up to image:image > image:loc (three levels).
  return { depth: 1, nesting: !sitemap && reading.image !== undefined ? 3 : 2, endTag: sitemap ? '</sitemap>' : '</url>', readRun: take, readRunBytes: take };
}

/** Told of an entry just before the reader delivers it; `hash1`, `hash2`: its loc's fingerprint, when known. */
type Delivering = (entry: UrlEntry | SitemapRef, hash1?: number, hash2?: number) => void;

/** The validator's checks of a run the sink counted (ReaderSink.urlRun): the lane's last `count` records. */
type CheckRun = (text: RunText, count: number, bytes: Uint8Array | undefined) => void;

/**
 * The lane's run of entries from `at` in `source` (text or ASCII bytes), to `checkRun` or one by one
 * (no check reads changefreq, priority or a past lastmod the lane passed). The index after it, or -1.
 */
function takeRun(lane: Lane, sitemap: boolean, source: string | Uint8Array, at: number, lines: Int32Array, maxLength: number, checkRun: CheckRun, reader: XmlSitemapReader, structure: StructureChecker, delivering: Delivering, textOf: (bytes: Uint8Array) => string): number {
  const budget = reader.laneBudget();
  if (budget === 0) return -1;
  const bytes = typeof source === 'string' ? undefined : source;
  const count = bytes === undefined
    ? lane.scan(source as string, at, lines[0] as number, lines[1] as number, maxLength, budget)
    : lane.scanBytes(bytes, at, lines[0] as number, lines[1] as number, maxLength, budget);
  if (count === 0) return -1;
  const taken = structure.takeLaneEntries(sitemap ? 'sitemap' : 'url', count);
  if (taken === 0) return -1;
  const counted = sitemap ? -1 : reader.deliverLaneRun(taken);
  if (counted !== -1) {
    checkRun(bytes === undefined ? (source as string) : () => textOf(bytes), counted, bytes);
  } else {
    const buf = bytes === undefined ? (source as string) : textOf(bytes);
    for (let k = 0; k < taken; k++) {
      // Taken afresh for each: the checks of the last one may have grown the lane's memory.
      const records = lane.records;
      const r = k * LANE_FIELDS;
      const line = records[r + R_LINE] as number;
      const column = records[r + R_COLUMN] as number;
      if (sitemap) {
        const ref = laneSitemapRef(buf, records, r);
        delivering(ref, records[r + R_HASH_1], records[r + R_HASH_2]);
        reader.deliverLaneEntry(ref, line, column, true);
        continue;
      }
      const entry: UrlEntry = { loc: laneLoc(buf, records, r) };
      addLaneExtensions(buf, records, r, lane.extras, entry);
      const lastmodStart = records[r + R_LASTMOD_START] as number;
      if (lastmodStart !== -1) entry.lastmod = buf.slice(lastmodStart, lastmodStart + (records[r + R_LASTMOD_LENGTH] as number));
      delivering(entry, records[r + R_HASH_1], records[r + R_HASH_2]);
      reader.deliverLaneEntry(entry, line, column, false);
    }
  }
  return lane.stopAfter(taken, lines);
}
