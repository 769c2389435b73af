// The tokenizer knows XML only; a handler may read runs of elements itself, beside it (for a sitemap,
// the lane: read/lane.ts). XmlLane is that hook; LaneOffer is the tokenizer's side of it: where it is
// offered, the line state handed over and back, how it fares, and an element a chunk cut.

import type { LineCounter } from './lines.js';

/**
 * A handler may read a run of elements itself (for a sitemap: the lane, read/lane.ts, reads
 * runs of `<url>` or `<sitemap>` entries in WebAssembly). Why a hook: the bulk of a sitemap is tens of
 * thousands of elements of one shape, and their events cost far more than reading them whole. The
 * tokenizer knows nothing of what they are: at a `<` that starts an element while exactly `depth`
 * elements are open, it offers the handler `readRun`. If that returns an index after whole elements (and
 * after whitespace that follows them when the tokenizer would have ignored it), they count as read, no
 * events for them; if -1, the tokenizer reads on as usual.
 *
 * The contract that keeps both ways equivalent is the handler's: it takes only whole, balanced
 * elements that the tokenizer would read without any diagnostic, each no longer than `maxLength`
 * (the value budget), and returns -1 having done nothing observable otherwise. The tokenizer offers
 * the hook only where `depth + nesting` is within `maxDepth`. Only the current buffer is looked at, so
 * an element cut by a chunk boundary waits for the next chunk (`endTag`); a hook that keeps declining
 * is dropped for the rest of the input.
 */
export interface XmlLane {
  /** The number of open elements at which the hook applies. */
  readonly depth: number;
  /** How many levels of elements an element read may contain (the element itself counts as one). */
  readonly nesting: number;
  /**
   * The elements' end tag (`</url>`): when the buffer ends before it, the tokenizer keeps the element
   * for the next chunk (as it does with cut markup) rather than reading it the long way.
   */
  readonly endTag?: string;
  /**
   * Read a run of elements from the `<` at `at`. `lines` holds the line at `at` and the index in `buf`
   * where that line starts (negative when it began in an earlier buffer); when elements were read, the
   * handler leaves in it the same for the index it returns (after the last one). Returns -1 when it
   * read none.
   */
  readRun(buf: string, at: number, lines: Int32Array, maxLength: number): number;
  /**
   * Optional: `readRun` over ASCII bytes, for input the tokenizer reads from its bytes
   * (XmlTokenizer.writeLaneBytes): indexes are byte indexes, which for ASCII are character indexes.
   */
  readRunBytes?(bytes: Uint8Array, at: number, lines: Int32Array, maxLength: number): number;
}

/** How the tokenizer offers a handler's lane (XmlLane), and how the lane fares on this input. */
export class LaneOffer {
  /** The line state handed to a lane's readRun and back (XmlLane.readRun). */
  private readonly lines = new Int32Array(2);
  private hits = 0;
  private misses = 0;
  /** The lane given up on for the rest of the input. */
  private dropped: XmlLane | null = null;
  /** When the tokenizer's carry is a lane element cut by the end of its chunk: its end tag, to look for in the next one. */
  cutEndTag = '';

  /** Whether `lane` is offered at a `<` that starts an element while `open` elements are open (none beyond the tokenizer's maxDepth). */
  offered(lane: XmlLane | null | undefined, open: number, overDepth: number): lane is XmlLane {
    return lane != null && lane.depth === open && overDepth === 0 && lane !== this.dropped;
  }

  /** The end tag of `lane`'s elements while it reads from bytes (readRunBytes), else undefined. */
  bytesEndTag(lane: XmlLane | null | undefined): string | undefined {
    return lane == null || lane.readRunBytes === undefined || lane === this.dropped ? undefined : lane.endTag;
  }

  /**
   * `lane.readRun` at `at` in `buf` (whose index 0 is at absolute offset `base`), on line `line`: the
   * index after the run, the line breaks up to there counted in `counter`; or -1.
   */
  read(lane: XmlLane, buf: string, at: number, base: number, line: number, counter: LineCounter, maxLength: number): number {
    const lines = this.lines;
    lines[0] = line;
    lines[1] = counter.lineStart - base;
    const end = lane.readRun(buf, at, lines, maxLength);
    if (end !== -1) {
      // The handler counted the line breaks up to `end`; the next ones are looked for from there.
      counter.setLine(lines[0] as number, (lines[1] as number) + base);
      counter.load(buf, base, end);
      this.hits++;
    }
    // Misses are counted on every call: a path first taken after V8 optimized this function (the
    // first miss comes at the end of the first chunk) would throw the optimized code away.
    const misses = this.misses + (end === -1 ? 1 : 0);
    this.misses = misses;
    // A lane that rarely fits this input only costs time: stop trying it (64 misses, and more
    // than 4 per hit; computed without a branch, for the same reason).
    if (Math.min(misses - 63, misses - 4 * this.hits) > 0) this.dropped = lane;
    return end;
  }

  /**
   * `lane.readRunBytes` at `at` in ASCII `bytes` (index 0 at absolute offset `base`), after the
   * whitespace from `from`: the index after the run, the line breaks from `from` counted in
   * `counter`; or -1, nothing counted.
   */
  readBytes(lane: XmlLane, bytes: Uint8Array, from: number, at: number, base: number, counter: LineCounter, maxLength: number): number {
    const { line, lineStart, lastCR } = counter;
    counter.countBytes(bytes, base, from, at);
    const lines = this.lines;
    lines[0] = counter.line;
    lines[1] = counter.lineStart - base;
    const end = (lane.readRunBytes as NonNullable<XmlLane['readRunBytes']>)(bytes, at, lines, maxLength);
    if (end === -1) {
      counter.setLine(line, lineStart);
      counter.lastCR = lastCR;
      return -1;
    }
    this.hits++;
    counter.setLine(lines[0] as number, (lines[1] as number) + base);
    return end;
  }

  /**
   * Whether the lane element at `lt`, which the lane did not take, is cut by the end of `buf`: then
   * it waits for the next chunk (cutEndTag), to be read in one step there (the long way costs far
   * more, once per chunk), unless it is too long to be or waiting is not `allowed`.
   */
  keepsCut(lane: XmlLane, buf: string, lt: number, maxLength: number, allowed: boolean): boolean {
    const endTag = lane.endTag;
    if (endTag === undefined || !allowed || buf.length - lt > maxLength || buf.indexOf(endTag, lt) !== -1) return false;
    this.cutEndTag = endTag;
    return true;
  }
}
