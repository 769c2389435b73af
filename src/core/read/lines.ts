// Lines and columns of decoded text, counted in one place: the document pipeline (document.ts) and
// the encoding sniff (sniff.ts) place their diagnostics with it.

const LF = 0x0a;
const CR = 0x0d;

/** Counts lines over decoded text; LF, CRLF and a lone CR each end a line (also across chunks). */
export class LineCounter {
  line = 1;
  lineStart = 0;
  offset = 0;
  private cr = false;

  /** Consume `text[from, to)`. */
  advance(text: string, from: number, to: number): void {
    if (from >= to) return;
    const base = this.offset - from;
    let k = from;
    if (this.cr) {
      this.cr = false;
      if (text.charCodeAt(k) === LF) {
        k++;
        this.lineStart = base + k;
      }
    }
    const firstCr = text.indexOf('\r', k);
    if (firstCr === -1 || firstCr >= to) {
      for (let j = text.indexOf('\n', k); j !== -1 && j < to; j = text.indexOf('\n', j + 1)) {
        this.line++;
        this.lineStart = base + j + 1;
      }
    } else {
      for (let j = k; j < to; j++) {
        const c = text.charCodeAt(j);
        if (c === LF) {
          this.line++;
          this.lineStart = base + j + 1;
        } else if (c === CR) {
          if (j + 1 < to) {
            if (text.charCodeAt(j + 1) === LF) j++;
          } else {
            this.cr = true;
          }
          this.line++;
          this.lineStart = base + j + 1;
        }
      }
    }
    this.offset = base + to;
  }

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
    this.cr = false;
  }
}
