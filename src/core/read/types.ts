// What every reader (urlset, sitemapindex, RSS, Atom, text) produces: entries of the one model,
// diagnostics as data, and the detected format.

import type { Diagnostic } from '../diagnostics.js';
import type { JsonLines } from '../model-json.js';
import type { SitemapRef, UrlEntry } from '../model.js';
import type { Lane } from './lane.js';

export type SitemapFormat = 'urlset' | 'sitemapindex' | 'rss' | 'atom' | 'atom03' | 'text' | 'html' | 'unknown' | 'empty';

/** The feeds the protocol accepts as sitemaps (sitemaps.org, "Other formats"); no sitemap schema declares them. */
export function isFeed(format: SitemapFormat | undefined): boolean {
  return format === 'rss' || format === 'atom' || format === 'atom03';
}

/** What a document holds when it is no sitemap: a web page (a soft 404), nothing, or what could not be told. */
export function notASitemap(format: SitemapFormat | undefined): boolean {
  return format === 'html' || format === 'empty' || format === 'unknown';
}

/** Whether a probed document's format shows it holds a sitemap: text shows one only by a URL line. */
export function showsSitemap(format: SitemapFormat | undefined): boolean {
  return !notASitemap(format) && format !== 'text';
}

/** Where an entry starts in the decoded text: 1-based line and column (UTF-16 code units). */
export interface EntryPosition {
  line: number;
  column: number;
}

/**
 * Receives what a reader finds, in document order. Values are trimmed; an invalid one (a priority of
 * 1.5) is kept as written, with a diagnostic. An entry whose loc cannot be trusted is dropped, diagnosed.
 */
export interface ReaderSink {
  format(format: SitemapFormat): void;
  /** `locHash`: the loc's fingerprint (fingerprint.ts), for lane urls when `wantsLocHashes`; the array is reused. */
  url(entry: UrlEntry, at: EntryPosition, locHash?: Int32Array): void;
  /** Whether the sink uses `url`'s `locHash` (a duplicate check): the lane then computes it. */
  readonly wantsLocHashes?: boolean;
  sitemap(ref: SitemapRef, at: EntryPosition): void;
  diagnostic(diagnostic: Diagnostic): void;
  /**
   * `count` urls read in one step by a handler that consumes them itself (the validator's lane): counted
   * here, not given. Returns how many the sink takes: all, or none once it has stopped taking entries.
   */
  urlRun?(count: number): number;
  /**
   * With `urlRun`: the urls the lane reads from bytes are written here as JSON lines (lane-json.ts) and
   * counted with `urlRun`, not given to `url` (the others still are). Not through a Relay (document.ts).
   */
  readonly urlLines?: JsonLines | undefined;
  /**
   * With `urlRun` and `wantsLocHashes`: the urls the lane reads from bytes come here as runs of its
   * records, counted with `urlRun` (`discover --format urls`); read with this lane. Not through a Relay.
   */
  readonly urlLocs?: LaneLocs | undefined;
}

/** ReaderSink.urlLocs: a lane (made with the sink's fingerprint table, say) and what takes its runs. */
export interface LaneLocs {
  readonly lane: Lane;
  /** Records 0 to `count - 1` of the lane's last scan; `text()` makes the text they index. */
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
