// One sitemap document of `discover` read: the reader of `read` (parse-sitemap.ts) with `validate`'s
// duplicate check, so that both say the same of the same bytes. The same code runs on the main thread
// and on a reading thread (discover-readers.ts): what it hands out is the same either way.

import type { Diagnostic } from '../core/diagnostics.js';
import { FINGERPRINT, fingerprint } from '../core/fingerprint.js';
import { FingerprintTable } from '../core/fingerprint-table.js';
import type { SitemapRef, UrlEntry } from '../core/model.js';
import type { EntryPosition, SitemapFormat } from '../core/read/types.js';
import { DEFAULT_MAX_TRACKED_URLS, duplicateDiagnostic, markSeen, notCheckedDiagnostic, SEEN_CAPACITY, SEEN_FULL, SEEN_NEW } from '../core/validate/protocol.js';
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
 * `validate`'s duplicate check (validate/protocol.ts, markSeen) on one document: `loc/duplicate` at a
 * repeat, naming the line of the first, and `duplicates/not-checked` past `maxTracked` distinct URLs
 * (64-bit fingerprints, no strings kept). Only the duplicate check: the rest of validate's protocol
 * checks is validate's to report.
 */
class RepeatCheck {
  /** Made at the first entry: a document without any costs nothing. */
  private seen: FingerprintTable | undefined;
  private stopped = false;
  private readonly maxTracked: number;

  constructor(
    maxTracked: number | undefined,
    private readonly report: (d: Diagnostic) => void,
  ) {
    this.maxTracked = maxTracked ?? DEFAULT_MAX_TRACKED_URLS;
  }

  /** Whether `loc` was listed before in this document (it is reported then); `locHash`, its fingerprint if the reader had it. */
  repeated(loc: string, at: EntryPosition, locHash?: Int32Array): boolean {
    if (this.stopped) return false;
    let hash = locHash;
    if (hash === undefined) {
      fingerprint(loc);
      hash = FINGERPRINT;
    }
    const first = markSeen((this.seen ??= new FingerprintTable(SEEN_CAPACITY)), this.maxTracked, hash[0] as number, hash[1] as number, at.line);
    if (first === SEEN_NEW) return false;
    if (first === SEEN_FULL) {
      this.stopped = true;
      this.report(notCheckedDiagnostic(this.maxTracked, at));
      return false;
    }
    this.report(duplicateDiagnostic(loc, first, at));
    return true;
  }
}

/**
 * Reads `body` into `sink`. `backpressure`: asked before each piece is read (readSitemap's option).
 * Throws what the body throws (a `FetchFailure` when it is cut short).
 */
export async function readDocument(body: AsyncIterable<Uint8Array>, settings: DocumentSettings, sink: DocumentSink, backpressure?: () => Promise<void> | undefined): Promise<DocumentSummary> {
  const repeats = new RepeatCheck(settings.maxTrackedUrls, (d) => sink.diagnostic({ ...d, file: settings.file }));
  const summary = await readSitemap(body, {
    file: settings.file,
    // The node keeps the diagnostics; the reading keeps none of its own.
    maxDiagnosticsPerCode: 0,
    // The duplicate check takes the fingerprints the bulk lane computes (no second hash of each loc).
    locHashes: true,
    ...byteBudgets(settings),
    ...(settings.maxEntries !== undefined ? { maxEntries: settings.maxEntries } : {}),
    ...(backpressure !== undefined ? { backpressure } : {}),
    onUrl: (entry, at, locHash) => {
      if (!repeats.repeated(entry.loc, at, locHash)) sink.url(entry);
    },
    onSitemap: (ref, at) => {
      if (!repeats.repeated(ref.loc, at)) sink.sitemap(ref);
    },
    onDiagnostic: (d) => sink.diagnostic(d),
    onFormat: (format) => sink.format(format),
  });
  return { format: summary.format, bytesDecompressed: summary.bytesDecompressed };
}
