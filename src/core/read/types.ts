// What every reader (urlset, sitemapindex, RSS, Atom, text) produces: entries of the one model
// (model.ts), diagnostics as data, and the detected format. Readers are push-based and synchronous.

import type { Diagnostic } from '../diagnostics.js';
import type { JsonLines } from '../model-json.js';
import type { SitemapRef, UrlEntry } from '../model.js';
import type { Lane } from './lane.js';

export type SitemapFormat = 'urlset' | 'sitemapindex' | 'rss' | 'atom' | 'atom03' | 'text' | 'html' | 'unknown' | 'empty';

/** The feeds the protocol accepts as sitemaps (sitemaps.org, "Other formats"); no sitemap schema declares them. */
export function isFeed(format: SitemapFormat | undefined): boolean {
  return format === 'rss' || format === 'atom' || format === 'atom03';
}

/** Where an entry starts in the decoded text: 1-based line and column (UTF-16 code units). */
export interface EntryPosition {
  line: number;
  column: number;
}

/**
 * Receives what a reader finds, in document order.
 * Values are trimmed. A value that is present but invalid (a priority of 1.5, a lastmod of
 * `not-a-date`) is kept as its raw text, with a diagnostic; it is never silently replaced.
 * An entry whose loc cannot be trusted is not delivered; a diagnostic says it was dropped.
 */
export interface ReaderSink {
  format(format: SitemapFormat): void;
  /**
   * `locHash`: the loc's fingerprint (core/fingerprint.ts, its two halves), given for the urls the
   * lane read when `wantsLocHashes` is true (the lane computes it at little cost); read it at once,
   * the array is reused.
   */
  url(entry: UrlEntry, at: EntryPosition, locHash?: Int32Array): void;
  /** Whether the sink uses `url`'s `locHash` (a duplicate check): the lane then computes it. */
  readonly wantsLocHashes?: boolean;
  sitemap(ref: SitemapRef, at: EntryPosition): void;
  diagnostic(diagnostic: Diagnostic): void;
  /**
   * Optional: `count` urls read in one step by the handler that consumes them itself (the
   * validator's lane, read/lane.ts), so they are counted here, not given. Returns
   * how many the sink takes: all of them, or none once it has stopped taking entries.
   */
  urlRun?(count: number): number;
  /**
   * Optional, with `urlRun`: the urls the lane reads from bytes are written here as JSON lines
   * (read/lane-json.ts) and counted with `urlRun`, not given to `url`; the others still are (a sink
   * that prints them writes them here too, in order). Not through a Relay (document.ts), which has
   * neither.
   */
  readonly urlLines?: JsonLines | undefined;
  /**
   * Optional, with `urlRun` and `wantsLocHashes`: the urls the lane reads from bytes are given here as
   * runs of its records, and counted with `urlRun`, not given to `url`: for a sink that keeps only
   * their locs (`discover --format urls`). The reader reads with this lane. Not through a Relay either.
   */
  readonly urlLocs?: LaneLocs | undefined;
}

/** ReaderSink.urlLocs: a lane (made with the sink's fingerprint table, say) and what takes its runs. */
export interface LaneLocs {
  readonly lane: Lane;
  /** Records 0 to `count - 1` of the lane's last scan; `text()` makes the text they index (laneLoc). */
  take(count: number, text: () => string): void;
}

export interface ReaderBudgets {
  /** Most entries (urls or sitemaps) delivered; past it `budget/entries` and the rest is skipped. Default 1,000,000. */
  maxEntries?: number;
  /** Most element nesting depth. Default 256. */
  maxDepth?: number;
  /** Longest single value (text node or attribute), in UTF-16 code units. Default 1 MiB. */
  maxValueLength?: number;
}
