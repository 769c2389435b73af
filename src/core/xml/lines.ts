// Lines and columns of decoded text, for the tokenizer, the document pipeline and the encoding sniff.
// LF, CRLF and a lone CR each end a line (XML 1.0 §2.11), also across chunks. Offsets are absolute; the
// next LF and CR are kept, so positions asked one tag at a time do not rescan the text.

/** Its fields are the position counted so far. */
export class LineCounter {
  /** The line (1-based) of the last position counted, and the absolute offset where it starts. */
  line = 1;
  lineStart = 0;
  /** Where `advance` and `skip` got to (absolute offset); `countTo` leaves it alone. */
  offset = 0;
  /** The last CR counted (absolute offset): an LF right after it ends no line of its own. */
  lastCR = -2;
  // The text loaded, its index 0's offset, and its next LF and CR (-1: none left). Not Infinity: a field
  // that ever holds a non-integer makes every offset computed from it a boxed double (an allocation per
  // position, and V8 reshapes the position objects with deoptimizations).
  private text = '';
  private base = 0;
  nextNL = -1;
  nextCR = -1;

  /** Start again at line `line`, which starts at offset `lineStart`, with nothing loaded (offset 0). */
  reset(line = 1, lineStart = 0): void {
    this.line = line;
    this.lineStart = lineStart;
    this.offset = 0;
    this.lastCR = -2;
    this.load('', 0, 0);
  }

  /** Count in `text`, whose index 0 is at absolute offset `base`, from its index `from` on. */
  load(text: string, base: number, from: number): void {
    this.text = text;
    this.base = base;
    const nl = text.indexOf('\n', from);
    const cr = text.indexOf('\r', from);
    this.nextNL = nl === -1 ? -1 : nl + base;
    this.nextCR = cr === -1 ? -1 : cr + base;
  }

  /** Count the line breaks of the loaded text before absolute offset `to` (calls must not go backwards). */
  countTo(to: number): void {
    for (;;) {
      const nl = this.nextNL;
      const cr = this.nextCR;
      if (nl !== -1 && (cr === -1 || nl < cr)) {
        if (nl >= to) return;
        if (nl !== this.lastCR + 1) this.line++;
        this.lineStart = nl + 1;
        const k = this.text.indexOf('\n', nl + 1 - this.base);
        this.nextNL = k === -1 ? -1 : k + this.base;
      } else {
        if (cr === -1 || cr >= to) return;
        this.line++;
        this.lineStart = cr + 1;
        this.lastCR = cr;
        const k = this.text.indexOf('\r', cr + 1 - this.base);
        this.nextCR = k === -1 ? -1 : k + this.base;
      }
    }
  }

  /** Consume `text[from, to)`, which follows what was counted (`from` is at `offset`). */
  advance(text: string, from: number, to: number): void {
    if (from >= to) return;
    const base = this.offset - from;
    this.load(text, base, from);
    this.countTo(base + to);
    this.offset = base + to;
  }

  /** Count the line breaks of ASCII `bytes[from, to)`, index 0 at offset `base` (not what is loaded). */
  countBytes(bytes: Uint8Array, base: number, from: number, to: number): void {
    for (let at = from; at < to; at++) {
      const c = bytes[at] as number;
      if (c === 0x0a) {
        if (base + at !== this.lastCR + 1) this.line++;
        this.lineStart = base + at + 1;
      } else if (c === 0x0d) {
        this.line++;
        this.lineStart = base + at + 1;
        this.lastCR = base + at;
      }
    }
  }

  /** The line as counted by someone else (a lane). */
  setLine(line: number, lineStart: number): void {
    this.line = line;
    this.lineStart = lineStart;
  }

  /** The 1-based column at `offset`. */
  get column(): number {
    return this.offset - this.lineStart + 1;
  }

  /** Consume `length` characters that hold `lines` line breaks and end at `column`, not given as text. */
  skip(length: number, lines: number, column: number): void {
    this.offset += length;
    if (lines > 0) {
      this.line += lines;
      this.lineStart = this.offset - column + 1;
    }
    this.lastCR = -2;
  }
}
