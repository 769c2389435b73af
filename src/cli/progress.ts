// The progress line of long work on a terminal (issue 23): every command that can run for more than
// a moment says how far it is on standard error, rewritten in place, at most ten times a second, and
// cleared before anything else is printed and at the end. Not on a terminal: nothing.

import type { OutputStream } from './io.js';
import { fit, printable } from './format.js';
import { terminalColumns } from './problems.js';

/** A run of entries shorter than this shows no progress line… */
const ENTRIES_DELAY_MS = 500;
/** …unless it has read this many entries already. */
const ENTRIES_LARGE = 20_000;

/** Between two redraws. */
const INTERVAL_MS = 100;

export class Progress {
  private last = -Infinity;
  private shown = false;
  private readonly started: number;
  private readonly columns: number;

  /**
   * `stream`: where the line goes, or undefined for none (not a terminal, --quiet); `render` says
   * the line, given the milliseconds since the start.
   */
  constructor(
    private readonly stream: OutputStream | undefined,
    private readonly render: (elapsedMs: number) => string,
    /** Nothing is shown before this much time has passed (a short run stays silent)… */
    private readonly delayMs = 0,
    /** …unless this says the work is large (e.g. many entries read). */
    private readonly large?: () => boolean,
  ) {
    // No clock without a line: Node's first performance.now() loads perf_hooks (0.7 ms of a start).
    this.started = stream !== undefined ? performance.now() : 0;
    this.columns = stream !== undefined ? terminalColumns(stream) : 0;
  }

  /** A progress line on `stream` when it is a terminal and `enabled` (not --quiet, not --json). */
  static onTerminal(stream: OutputStream, enabled: boolean, render: (elapsedMs: number) => string, delayMs = 0, large?: () => boolean): Progress {
    return new Progress(enabled && stream.isTTY === true ? stream : undefined, render, delayMs, large);
  }

  /**
   * The progress of a run that counts entries (read, validate): silent for a small input, shown
   * after ENTRIES_DELAY_MS or once ENTRIES_LARGE entries are read.
   */
  static ofEntries(stream: OutputStream, enabled: boolean, render: (elapsedMs: number) => string, entries: () => number): Progress {
    return Progress.onTerminal(stream, enabled, render, ENTRIES_DELAY_MS, () => entries() >= ENTRIES_LARGE);
  }

  get active(): boolean {
    return this.stream !== undefined;
  }

  /** Redraws the line, if the last redraw is old enough. */
  tick(): void {
    if (this.stream === undefined) return;
    const now = performance.now();
    if (now - this.last < INTERVAL_MS) return;
    if (!this.shown && now - this.started < this.delayMs && this.large?.() !== true) return;
    this.last = now;
    // One column short of the width: a line that fills it wraps on some terminals, and \r then
    // returns to the second row. The line names files and URLs, a hostile index's among them:
    // their control characters are written as escapes (printable), not sent to the terminal.
    this.stream.write(`\r\x1b[K${fit(printable(this.render(now - this.started)), this.columns - 1)}`);
    this.shown = true;
  }

  /** A writer's `onProgress` option while the line is shown: `keep` takes the figures, then the line redraws. */
  onProgress<T>(keep: (progress: T) => void): { onProgress?: (progress: T) => void } {
    return this.active ? { onProgress: (p: T) => { keep(p); this.tick(); } } : {};
  }

  /** Removes the line, if shown. */
  clear(): void {
    if (this.shown) this.stream?.write('\r\x1b[K');
    this.shown = false;
  }
}

/** "N per second", from a count and the milliseconds it took. */
export function ratePerSecond(count: number, elapsedMs: number): number {
  return elapsedMs > 0 ? Math.round((count * 1000) / elapsedMs) : 0;
}
