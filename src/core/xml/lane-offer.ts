// XmlLane, the hook by which a handler reads runs of elements itself, and LaneOffer, the tokenizer's
// side of it: where it is offered, the line state handed over and back, how it fares.

import type { LineCounter } from './lines.js';

/**
 * A handler's way to read a run of elements itself (for a sitemap: read/lane.ts, in WebAssembly): the
 * bulk of a sitemap is thousands of elements of one shape, whose events cost far more than reading them
 * whole. At a `<` that starts an element while exactly `depth` are open (and `depth + nesting` is within
 * maxDepth), the tokenizer offers `readRun`; what it returns counts as read, with no events.
 *
 * Both ways stay equivalent by the handler's contract: it takes only whole elements the tokenizer
 * would read without a diagnostic, each within `maxLength`, or returns -1 having done nothing. A lane
 * that keeps declining is dropped for the rest of the input.
 */
export interface XmlLane {
  /** The number of open elements at which the hook applies. */
  readonly depth: number;
  /** How many levels of elements an element read may contain (the element itself counts as one). */
  readonly nesting: number;
  /** The elements' end tag (`</url>`): an element cut by a chunk waits for the next one, not read the long way. */
  readonly endTag?: string;
  /**
   * Read a run of elements from the `<` at `at`: the index after the last, or -1. `lines` holds the line
   * at `at` and the index in `buf` where it starts (negative: an earlier buffer); the handler leaves in it
   * the same for the index it returns.
   */
  readRun(buf: string, at: number, lines: Int32Array, maxLength: number): number;
  /** `readRun` over ASCII bytes (XmlTokenizer.writeLaneBytes): a byte index is a character index. */
  readRunBytes?(bytes: Uint8Array, at: number, lines: Int32Array, maxLength: number): number;
}

export class LaneOffer {
  /** The line state handed to a lane's readRun and back. */
  private readonly lines = new Int32Array(2);
  private hits = 0;
  private misses = 0;
  /** The lane given up on for the rest of the input. */
  private dropped: XmlLane | null = null;
  /** When the tokenizer's carry is a lane element cut by its chunk: the end tag to look for in the next one. */
  cutEndTag = '';

  /** Whether `lane` is offered at a start tag while `open` elements are open (none beyond maxDepth). */
  offered(lane: XmlLane | null | undefined, open: number, overDepth: number): lane is XmlLane {
    return lane != null && lane.depth === open && overDepth === 0 && lane !== this.dropped;
  }

  /** The end tag of `lane`'s elements while it reads from bytes (readRunBytes), else undefined. */
  bytesEndTag(lane: XmlLane | null | undefined): string | undefined {
    return lane == null || lane.readRunBytes === undefined || lane === this.dropped ? undefined : lane.endTag;
  }

  /** `lane.readRun` at `at` in `buf` (index 0 at offset `base`): the index after the run (lines counted), or -1. */
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
    // Counted on every call, without a branch: one first taken late (the first miss) would deoptimize this.
    const misses = this.misses + (end === -1 ? 1 : 0);
    this.misses = misses;
    // A lane that rarely fits this input only costs time: stop after 64 misses, more than 4 per hit.
    if (Math.min(misses - 63, misses - 4 * this.hits) > 0) this.dropped = lane;
    return end;
  }

  /** `lane.readRunBytes` at `at` after the whitespace from `from`: as `read`, nothing counted on -1. */
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

  /** Whether the lane element at `lt`, declined, is cut by the end of `buf`: it then waits for the next chunk. */
  keepsCut(lane: XmlLane, buf: string, lt: number, maxLength: number, allowed: boolean): boolean {
    const endTag = lane.endTag;
    if (endTag === undefined || !allowed || buf.length - lt > maxLength || buf.indexOf(endTag, lt) !== -1) return false;
    this.cutEndTag = endTag;
    return true;
  }
}
