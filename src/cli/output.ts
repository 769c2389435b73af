// Output helpers shared by the commands that print entries (read, discover).

import { dateText } from '../core/datetime.js';
import type { DateInput } from '../core/model.js';
import { JsonLines } from '../core/model-json.js';
import { Writable } from 'node:stream';
import type { OutputStream } from './io.js';

/** Bytes gathered before they are handed to a byte stream (a file, a pipe): few, large writes. */
const CHUNK_BYTES = 256 * 1024;
/** UTF-8 takes at most 3 bytes per UTF-16 code unit (a surrogate pair: 4 bytes for 2 units). */
const MAX_UTF8_PER_UNIT = 3;
/** Lines are gathered up to this many characters, then joined and encoded in one Buffer#write. */
const LINES_CHARS = 32 * 1024;

/**
 * Buffers output and hands it to the stream in large writes, waiting for 'drain' when it asks to.
 * A Node stream gets bytes; lines are joined first and encoded a few hundred at a time (a call per
 * line cost about 1.6 times as much in bench:discover). Anything else gets strings.
 */
export class Output {
  private text = '';
  private bytes: Buffer | undefined;
  private used = 0;
  private readonly lines: string[] = [];
  /** JSON lines of a byte stream (jsonLines); whichever is written hands the other's bytes over first. */
  private json: JsonLines | undefined;
  private linesLength = 0;
  private needsDrain = false;
  private broken = false;
  private readonly onError = (): void => {
    this.broken = true;
  };
  constructor(private readonly stream: OutputStream) {
    if (stream instanceof Writable) this.bytes = Buffer.allocUnsafe(CHUNK_BYTES);
    // A closed pipe (`sitemapkit read big.xml | head`) is an 'error' event: stop writing, don't crash.
    (stream as { on?: (event: string, fn: () => void) => unknown }).on?.('error', this.onError);
  }

  close(): void {
    (this.stream as { off?: (event: string, fn: () => void) => unknown }).off?.('error', this.onError);
  }

  write(text: string): void {
    if (this.bytes === undefined) {
      this.text += text;
      return;
    }
    if (this.lines.length > 0) this.writeLines();
    this.sendJson();
    this.encode(text);
  }

  /** UTF-8 text. */
  writeBytes(bytes: Uint8Array): void {
    if (this.bytes === undefined) {
      this.text += Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      return;
    }
    if (this.lines.length > 0) this.writeLines();
    if (this.used + bytes.length > CHUNK_BYTES) this.handOff();
    if (bytes.length > CHUNK_BYTES) {
      this.send(bytes);
      return;
    }
    (this.bytes as Buffer).set(bytes, this.used);
    this.used += bytes.length;
  }

  writeLine(text: string): void {
    if (this.bytes === undefined) {
      this.text += text;
      this.text += '\n';
      return;
    }
    this.sendJson();
    this.lines.push(text);
    this.linesLength += text.length + 1;
    if (this.linesLength >= LINES_CHARS) this.writeLines();
  }

  writeJsonLine(value: object): void {
    const json = this.jsonLines();
    if (json === undefined) {
      this.writeLine(JSON.stringify(value));
      return;
    }
    json.line(value);
    if (json.length >= CHUNK_BYTES) this.sendJson();
  }

  /**
   * Where JSON lines are written as bytes on a byte stream (undefined on another): by writeJsonLine,
   * or by the reader it is handed to (ReaderSink.urlLines), until the next write of anything else.
   */
  jsonLines(): JsonLines | undefined {
    if (this.bytes === undefined) return undefined;
    if (this.lines.length > 0) this.writeLines();
    this.handOff();
    return (this.json ??= new JsonLines(CHUNK_BYTES, Buffer.allocUnsafe));
  }

  private sendJson(): void {
    const json = this.json;
    if (json === undefined || json.length === 0) return;
    const bytes = json.take();
    // A stream on a file descriptor keeps no chunk once written, so the buffer serves again; another
    // Writable may keep it (a PassThrough does).
    this.send(bytes, typeof (this.stream as { fd?: unknown }).fd === 'number' ? () => json.recycle(bytes) : undefined);
  }

  private writeLines(): void {
    const lines = this.lines;
    lines.push('');
    const text = lines.join('\n');
    lines.length = 0;
    this.linesLength = 0;
    this.encode(text);
  }

  private encode(text: string): void {
    const bytes = this.bytes as Buffer;
    if (this.used + text.length * MAX_UTF8_PER_UNIT > bytes.length) {
      this.handOff();
      if (text.length * MAX_UTF8_PER_UNIT > CHUNK_BYTES) {
        this.send(text);
        return;
      }
    }
    this.used += (this.bytes as Buffer).write(text, this.used);
  }

  get closed(): boolean {
    return this.broken;
  }

  async flush(): Promise<void> {
    if (this.bytes !== undefined) {
      if (this.lines.length > 0) this.writeLines();
      this.handOff();
      this.sendJson();
    } else if (this.text.length > 0) {
      const text = this.text;
      this.text = '';
      this.send(text);
    }
    if (!this.needsDrain || this.broken) return;
    this.needsDrain = false;
    const stream = this.stream as OutputStream & { once?: (event: string, fn: (...args: unknown[]) => void) => unknown; off?: (event: string, fn: (...args: unknown[]) => void) => unknown; writableNeedDrain?: boolean };
    if (typeof stream.once !== 'function') return;
    // The drain may have come while something else was awaited: waiting for another would hang.
    if (stream.writableNeedDrain === false) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        stream.off?.('drain', done);
        stream.off?.('error', fail);
        stream.off?.('close', fail);
        resolve();
      };
      const fail = (): void => {
        this.broken = true;
        done();
      };
      stream.once?.('drain', done);
      stream.once?.('error', fail);
      stream.once?.('close', fail);
    });
  }

  /** The bytes gathered go to the stream in a buffer of their own (the stream keeps it until written). */
  private handOff(): void {
    if (this.used === 0) return;
    const full = (this.bytes as Buffer).subarray(0, this.used);
    this.bytes = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
    this.send(full);
  }

  /** `written`: called once the stream has written `data` (a Node stream's write callback). */
  private send(data: string | Uint8Array, written?: () => void): void {
    if (this.broken) return;
    let ok: unknown;
    try {
      ok = (this.stream as { write(data: string | Uint8Array, callback?: (error?: unknown) => void): unknown }).write(data, written === undefined ? undefined : (error) => error == null && written());
    } catch {
      this.broken = true;
      return;
    }
    if (ok === false) this.needsDrain = true;
  }
}

/** A lastmod as written (strings unchanged), a Date as ISO 8601 (core's dateText); '' for none. */
export function lastmodText(value: DateInput | undefined): string {
  return value === undefined ? '' : dateText(value);
}

/** A cell a spreadsheet may run as a formula (OWASP, "CSV Injection"); sitemaps are anyone's to write. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180 quoting, when needed; a cell a spreadsheet would run as a formula starts with `'`. */
export function csvField(value: string): string {
  const cell = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(cell) || cell.startsWith(' ') || cell.endsWith(' ') || cell !== value ? `"${cell.replace(/"/g, '""')}"` : cell;
}
