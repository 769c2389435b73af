// One sitemap document of `discover` read: the reader of `read` with `validate`'s duplicate check, so
// both say the same of the same bytes. It runs on the main thread and on a reading thread alike.

import type { Diagnostic } from '../core/diagnostics.js';
import { FingerprintTable, type FingerprintSet } from '../core/fingerprint-table.js';
import type { SitemapRef, UrlEntry } from '../core/model.js';
import { Lane, LANE_FIELDS, laneLoc, R_COLUMN, R_HASH_1, R_HASH_2, R_LINE } from '../core/read/lane.js';
import type { EntryPosition, LaneLocs, SitemapFormat } from '../core/read/types.js';
import { locFingerprint } from '../core/url.js';
import { comparableRecordHashes, DEFAULT_MAX_TRACKED_URLS, duplicateDiagnostic, markSeen, notCheckedDiagnostic, SEEN_CAPACITY, SEEN_FULL, SEEN_NEW } from '../core/validate/protocol.js';
import { readSitemap } from './parse-sitemap.js';

/** What a document is read with (plain data: it crosses to a reading thread). */
export interface DocumentSettings {
  /** Put into every diagnostic's `file`. */
  file: string;
  maxBytes: number;
  maxEntries: number | undefined;
  maxTrackedUrls: number | undefined;
}

/** What reading a document hands out, in the document's order; a URL or child listed again is reported, not handed out. */
export interface DocumentSink {
  format(format: SitemapFormat): void;
  diagnostic(diagnostic: Diagnostic): void;
  url(entry: UrlEntry): void;
  /** For a sink of page URLs only: new urls of the lane's records `from` to `to - 1`, taken by their locs. */
  urlLocs?(lane: Lane, from: number, to: number): void;
  sitemap(ref: SitemapRef): void;
}

/** The byte budgets of a document's reading (decompress.ts). */
export function byteBudgets(settings: DocumentSettings): { maxBytes: number; maxCompressedBytes: number } {
  return { maxBytes: settings.maxBytes, maxCompressedBytes: settings.maxBytes + 1 };
}

export interface DocumentSummary {
  format: SitemapFormat;
  bytesDecompressed: number;
}

/**
 * `validate`'s duplicate check (markSeen) on one document: `loc/duplicate` naming the first line, and
 * `duplicates/not-checked` past `maxTracked` distinct URLs (64-bit fingerprints, no strings kept).
 */
class RepeatCheck {
  /** Made at the first entry: a document without any costs nothing. */
  private seen: FingerprintSet | undefined;
  private stopped = false;
  private readonly maxTracked: number;

  constructor(
    maxTracked: number | undefined,
    private readonly report: (d: Diagnostic) => void,
    /** The reading's lane, made with the table (Lane.createWithTable), when it has one. */
    private readonly lane?: Lane,
  ) {
    this.maxTracked = maxTracked ?? DEFAULT_MAX_TRACKED_URLS;
  }

  /** Whether `loc` was listed before in this document (compared as validate does), reporting it then. */
  repeated(loc: string, at: EntryPosition, locHash?: Int32Array): boolean {
    if (this.stopped) return false;
    const hash = locFingerprint(loc, locHash);
    const first = this.firstLine(hash[0] as number, hash[1] as number, at.line, at.column);
    if (first === SEEN_NEW) return false;
    this.report(duplicateDiagnostic(loc, first, at));
    return true;
  }

  /** The line where this fingerprint was first listed, or SEEN_NEW (a first, or past `maxTracked`). */
  private firstLine(hash1: number, hash2: number, line: number, column: number): number {
    if (this.stopped) return SEEN_NEW;
    const first = markSeen(this.table(), this.maxTracked, hash1, hash2, line);
    if (first !== SEEN_FULL) return first;
    this.stopped = true;
    this.report(notCheckedDiagnostic(this.maxTracked, { line, column }));
    return SEEN_NEW;
  }

  private table(): FingerprintSet {
    return (this.seen ??= this.lane?.seen ?? new FingerprintTable(SEEN_CAPACITY));
  }

  /**
   * ReaderSink.urlLocs for `take`: a run of the lane's urls checked in one call (Lane.addSeen) and
   * handed out between its duplicates, reported in their place. Past `maxTracked`, url by url.
   */
  takeLocs(lane: Lane, take: (lane: Lane, from: number, to: number) => void): LaneLocs {
    return {
      lane,
      take: (count, text) => {
        let k = 0;
        if (!this.stopped) {
          comparableRecordHashes(lane, text, count);
          k = lane.addSeen(count, Math.min(this.maxTracked, 0x7fffffff));
          // Copied: the calls below may grow the lane's memory.
          const repeats = lane.attention.slice();
          let from = 0;
          for (let a = 0; a < repeats.length; a += 2) {
            const record = repeats[a] as number;
            if (record > from) take(lane, from, record);
            this.reportRecord(text(), lane.records, record * LANE_FIELDS, repeats[a + 1] as number);
            from = record + 1;
          }
          if (k > from) take(lane, from, k);
        }
        for (; k < count; k++) {
          if (this.stopped) {
            take(lane, k, count);
            return;
          }
          const records = lane.records;
          const r = k * LANE_FIELDS;
          const first = this.firstLine(records[r + R_HASH_1] as number, records[r + R_HASH_2] as number, records[r + R_LINE] as number, records[r + R_COLUMN] as number);
          if (first === SEEN_NEW) take(lane, k, k + 1);
          else this.reportRecord(text(), records, r, first);
        }
      },
    };
  }

  private reportRecord(text: string, records: Int32Array, r: number, first: number): void {
    this.report(duplicateDiagnostic(laneLoc(text, records, r), first, { line: records[r + R_LINE] as number, column: records[r + R_COLUMN] as number }));
  }
}

/** Reads `body` into `sink`, asking `backpressure` before each piece; throws what the body throws. */
export async function readDocument(body: AsyncIterable<Uint8Array>, settings: DocumentSettings, sink: DocumentSink, backpressure?: () => Promise<void> | undefined): Promise<DocumentSummary> {
  const urlLocs = sink.urlLocs;
  // A sink that takes the lane's runs by their locs reads with a lane of its own, the table in it.
  const lane = urlLocs === undefined ? undefined : Lane.createWithTable(SEEN_CAPACITY);
  const repeats = new RepeatCheck(settings.maxTrackedUrls, (d) => sink.diagnostic({ ...d, file: settings.file }), lane);
  const summary = await readSitemap(body, {
    file: settings.file,
    // The node keeps the diagnostics; the reading keeps none of its own.
    maxDiagnosticsPerCode: 0,
    // The duplicate check takes the fingerprints the bulk lane computes (no second hash of each loc).
    locHashes: true,
    ...byteBudgets(settings),
    ...(settings.maxEntries !== undefined ? { maxEntries: settings.maxEntries } : {}),
    ...(backpressure !== undefined ? { backpressure } : {}),
    // A sink that keeps only page URLs takes the lane's runs by their locs, no entries.
    ...(lane !== undefined && urlLocs !== undefined ? { urlLocs: repeats.takeLocs(lane, urlLocs.bind(sink)) } : {}),
    onUrl: (entry, at, locHash) => {
      if (!repeats.repeated(entry.loc, at, locHash)) sink.url(entry);
    },
    onSitemap: (ref, at) => {
      if (!repeats.repeated(ref.loc, at)) sink.sitemap(ref);
    },
    onDiagnostic: (d) => sink.diagnostic(d),
    onFormat: (format) => sink.format(format),
  });
  // The next document's reading takes its instance: making one was most of a small child's time.
  lane?.release();
  return { format: summary.format, bytesDecompressed: summary.bytesDecompressed };
}
