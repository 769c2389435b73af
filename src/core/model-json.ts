// JSON lines of the entry model as UTF-8 bytes (`sitemapkit read`). The urls the lane read are written
// by read/lane-json.ts straight from their spans in the input: making the entries and JSON.stringify of
// them took a third of the command.

const encoder = new TextEncoder();

/** Room kept above the capacity, so that a line seldom grows the buffer. */
const SLACK = 64 * 1024;

// Tested first: most URLs have none, and a test is cheaper than a replace that finds none.
const LINE_BREAK = /[\r\n]/;
const LINE_BREAKS = /[\r\n]/g;

/** A URL as one line of text (`--format urls`): a line break in it (`&#10;` in a loc) percent-encoded. */
export function urlLine(url: string): string {
  return LINE_BREAK.test(url) ? url.replace(LINE_BREAKS, (c) => (c === '\n' ? '%0A' : '%0D')) : url;
}

/** A buffer of UTF-8 lines (JSON, or plain text such as URLs): `take()` hands the bytes over. */
export class JsonLines {
  private bytes: Uint8Array;
  private at = 0;
  /** A buffer given back (recycle), for the next take. */
  private spare: Uint8Array | undefined;
  /** Lines written. */
  count = 0;

  /** `allocate`: a new buffer (Node: Buffer.allocUnsafe; each is handed over whole). */
  constructor(
    private readonly capacity: number,
    private readonly allocate: (size: number) => Uint8Array = (size) => new Uint8Array(size),
    private readonly slack = SLACK,
  ) {
    this.bytes = allocate(capacity + slack);
  }

  /** Bytes written and not yet taken. */
  get length(): number {
    return this.at;
  }

  /** JSON.stringify(value) and a line feed (well-formed UTF-8: JSON.stringify escapes a lone surrogate). */
  line(value: object): void {
    this.text(JSON.stringify(value));
  }

  /** `text` and a line feed, in UTF-8. */
  text(text: string): void {
    this.room(text.length * 3 + 1);
    this.at += encoder.encodeInto(text, this.bytes.subarray(this.at)).written;
    this.bytes[this.at++] = 0x0a;
    this.count++;
  }

  /** The bytes written so far (the buffer itself); the next go to a new buffer. */
  take(): Uint8Array {
    const full = this.bytes.subarray(0, this.at);
    this.bytes = this.spare ?? this.allocate(this.capacity + this.slack);
    this.spare = undefined;
    this.at = 0;
    return full;
  }

  /**
   * Bytes of take() given back once nothing holds them, for a later take(): with no entries made, V8
   * collects seldom, and buffers piled up until it did (peak RSS +16 MB).
   */
  recycle(bytes: Uint8Array): void {
    if (bytes.byteOffset === 0 && bytes.buffer.byteLength === this.capacity + this.slack) this.spare = new Uint8Array(bytes.buffer);
  }

  /** The buffer, with room for `n` bytes from `length` on, to write a line by its bytes (read/lane-json.ts). */
  reserve(n: number): Uint8Array {
    this.room(n);
    return this.bytes;
  }

  /** A line written in the buffer from `length` to `end` (its line feed included). */
  commitLine(end: number): void {
    this.at = end;
    this.count++;
  }

  /** `count` whole lines, their line feeds included (a lane's packed locs, say). */
  append(lines: Uint8Array, count: number): void {
    this.room(lines.length);
    this.bytes.set(lines, this.at);
    this.at += lines.length;
    this.count += count;
  }

  /** At least `n` bytes free. */
  private room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const grown = this.allocate(Math.max(2 * this.bytes.length, this.at + n));
    grown.set(this.bytes.subarray(0, this.at));
    this.bytes = grown;
  }
}
