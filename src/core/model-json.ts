// JSON lines of the entry model as UTF-8 bytes (`sitemapkit read`): an entry is JSON.stringify's
// text of it, but the urls the lane read are written by read/lane-json.ts from the spans of their
// values in the input, the same bytes without the entry or its string. Why: on Node 20, making the
// 50,000 entries of a realistic sitemap and JSON.stringify of them took about 30 ms each, together a
// third of the whole command; a writer of the entry as script (a loop per character) measured no
// faster than JSON.stringify, a copy of the input's bytes a fraction of either.

const encoder = new TextEncoder();

/** Whether `amp;` follows at `i` in `source` (text, or bytes one per character). */
function isAmp(source: string | Uint8Array, i: number): boolean {
  return typeof source === 'string'
    ? source.startsWith('amp;', i)
    : source[i] === 0x61 && source[i + 1] === 0x6d && source[i + 2] === 0x70 && source[i + 3] === 0x3b;
}

/** Bytes kept free above the capacity, so that a line seldom grows the buffer. */
const SLACK = 64 * 1024;

/** A buffer of JSON lines: written line by line or piece by piece; `take()` hands the bytes over. */
export class JsonLines {
  private bytes: Uint8Array;
  private at = 0;
  /** Lines written. */
  count = 0;

  /** `allocate`: a new buffer (Node: Buffer.allocUnsafe, not zeroed; each is handed over whole). */
  constructor(
    private readonly capacity: number,
    private readonly allocate: (size: number) => Uint8Array = (size) => new Uint8Array(size),
  ) {
    this.bytes = allocate(capacity + SLACK);
  }

  /** Bytes written and not yet taken. */
  get length(): number {
    return this.at;
  }

  /** JSON.stringify(value) and a line feed, in UTF-8 (well formed: JSON.stringify escapes a lone surrogate). */
  line(value: object): void {
    const text = JSON.stringify(value);
    this.room(text.length * 3 + 1);
    this.at += encoder.encodeInto(text, this.bytes.subarray(this.at)).written;
    this.end();
  }

  /** The bytes written so far (the buffer's own: it is not written again); the next go to a new buffer. */
  take(): Uint8Array {
    const full = this.bytes.subarray(0, this.at);
    this.bytes = this.allocate(this.capacity + SLACK);
    this.at = 0;
    return full;
  }

  // A line piece by piece (read/lane-json.ts).

  /** Back to `length` bytes written (what came after it is dropped). */
  rewind(length: number): void {
    this.at = Math.min(this.at, length);
  }

  /** ASCII text as it is: JSON's own syntax, a number's text. */
  ascii(text: string): void {
    this.room(text.length);
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    this.at = at;
  }

  /**
   * The characters `start` to `end` of `source` (text, or bytes one per character) as a JSON string,
   * when they are ASCII that JSON writes as it is (no `"`, `\` or control: ECMA-262 QuoteJSONString)
   * and no `&`, but for `&amp;` when `ampersands` (XML text whose references are to be decoded), the
   * `&` it stands for; else false, with what it wrote left after `length`.
   */
  span(source: string | Uint8Array, start: number, end: number, ampersands: boolean): boolean {
    this.room(end - start + 2);
    const bytes = this.bytes;
    let at = this.at;
    bytes[at++] = 0x22;
    const text = typeof source === 'string';
    for (let i = start; i < end; i++) {
      const c = text ? source.charCodeAt(i) : (source[i] as number);
      if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7f) return false;
      if (c === 0x26) {
        if (!ampersands || !isAmp(source, i + 1)) return false;
        i += 4;
      }
      bytes[at++] = c;
    }
    bytes[at++] = 0x22;
    this.at = at;
    return true;
  }

  /** The line feed that ends a line. */
  end(): void {
    this.room(1);
    this.bytes[this.at++] = 0x0a;
    this.count++;
  }

  /** At least `n` bytes free. */
  private room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const grown = this.allocate(Math.max(2 * this.bytes.length, this.at + n));
    grown.set(this.bytes.subarray(0, this.at));
    this.bytes = grown;
  }
}
