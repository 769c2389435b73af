// The progress line of long work on a terminal (standard error): rewritten in place at most ten times
// a second, cleared before anything else is printed and at the end. Not on a terminal: nothing.

import { takesEscapes, type CliIo, type OutputStream } from './io.js';
import { fit, formatCount, plural, printable } from './format.js';
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

  /** `stream`: undefined for no line (not a terminal, --quiet). */
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
  }

  /** A progress line on standard error when `enabled` and it is a terminal that takes escapes. */
  static onTerminal(io: CliIo, enabled: boolean, render: (elapsedMs: number) => string, delayMs = 0, large?: () => boolean): Progress {
    return new Progress(enabled && takesEscapes(io, io.stderr) ? io.stderr : undefined, render, delayMs, large);
  }

  /** The progress of a run that counts entries: silent for a small input. */
  static ofEntries(io: CliIo, enabled: boolean, render: (elapsedMs: number) => string, entries: () => number): Progress {
    return Progress.onTerminal(io, enabled, render, ENTRIES_DELAY_MS, () => entries() >= ENTRIES_LARGE);
  }

  /** The progress of a run over files, counted in entries (read, validate). */
  static ofFiles(io: CliIo, enabled: boolean, verb: string, files: { readonly current: string; readonly done: number }, entries: () => number): Progress {
    return Progress.ofEntries(io, enabled, (ms) => `${verb} ${files.current}: ${plural(entries(), 'entry', 'entries')}, ${plural(files.done, 'file')} done, ${formatCount(ratePerSecond(entries(), ms))} entries/s`, entries);
  }

  get active(): boolean {
    return this.stream !== undefined;
  }

  tick(): void {
    if (this.stream === undefined) return;
    const now = performance.now();
    if (now - this.last < INTERVAL_MS) return;
    if (!this.shown && now - this.started < this.delayMs && this.large?.() !== true) return;
    this.last = now;
    // One column short: a line that fills the width wraps on some terminals; the width as it is now (a
    // resized terminal). printable: the line names URLs of a hostile index, whose control characters
    // must not reach the terminal.
    this.stream.write(`\r\x1b[K${fit(printable(this.render(now - this.started)), terminalColumns(this.stream) - 1)}`);
    this.shown = true;
  }

  /** A writer's `onProgress` option while the line is shown: `keep` takes the figures, then the line redraws. */
  onProgress<T>(keep: (progress: T) => void): { onProgress?: (progress: T) => void } {
    return this.active ? { onProgress: (p: T) => { keep(p); this.tick(); } } : {};
  }

  clear(): void {
    if (this.shown) this.stream?.write('\r\x1b[K');
    this.shown = false;
  }
}

/** "N per second", from a count and the milliseconds it took. */
export function ratePerSecond(count: number, elapsedMs: number): number {
  return elapsedMs > 0 ? Math.round((count * 1000) / elapsedMs) : 0;
}
