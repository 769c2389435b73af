// parseSitemap / readSitemap: any sitemap (urlset, sitemap index, RSS, Atom, text; plain or gzipped;
// any encoding) from a file, bytes, a stream or an async iterable, to entries and diagnostics
// (issue #3 "API and command").
//
// Pipeline, in constant memory (DESIGN.md "Streaming, constant memory"; the input is never buffered whole):
//
//   bytes ─► decompressed() ─► StreamDecoder ─► format sniff ─┬► XmlTokenizer ─► XmlSitemapReader ─┐
//   (gzip by magic, byte        (encoding by BOM,              ├► TextSitemapReader ───────────────┼► entries
//    budgets)                    pattern, declaration)         └► html / empty: a diagnostic      ┘  + diagnostics
//
// Once the input is known to be XML, an ASCII chunk (in an encoding that maps ASCII to itself) has
// its bulk read from the bytes where the XML handler's shortcut offers that (core/read/ascii-bulk.ts:
// a validation's runs of plain `<url>` elements), the rest decoded as text; `bulkFromBytes: false`
// decodes everything.
//
// The format is sniffed on the first decoded characters after leading whitespace (sniff.ts
// `sniffFormat`); the leading whitespace itself, however long, is not kept: it is fed to both
// candidate readers while the format is still open (it produces no entries in either).
//
// Budgets (options) and what happens when one is exceeded. Every one is a diagnostic of severity
// error in `diagnostics` and the summary, never an exception:
// - `maxBytes` (default 100 MiB, after decompression): `budget/decompressed-size`; reading stops.
//   `maxCompressedBytes`: `budget/compressed-size`; `maxGzipDepth` (default 2): `budget/gzip-depth`;
//   both stop reading. Corrupt or truncated gzip: `gzip/corrupt` (error), reading stops the same way.
// - `maxEntries` (default 1,000,000): `budget/entries`; reading stops.
// - `maxDepth` (default 256): `budget/depth`; the deeper elements are skipped, reading goes on.
// - `maxValueLength` (default 1 MiB): `budget/value-length`; the value (or text line) is skipped.
// When reading stops on a byte budget or a corrupt gzip, the text up to the cut is read but the readers
// are not ended: no entry is made from a cut-off value or text line, and no `xml/truncated` is reported
// for a cut the budget made.
//
// Other diagnostics of this layer: `format/html` (error): the input is an HTML page, no URLs are taken
// from it (the XML reader reports the same for an `<html>` root); `format/empty` (error): nothing but
// whitespace. Exceptions: `ERR_SITEMAP_INPUT` for I/O failures (a missing file, a stream that errors),
// `ERR_SITEMAP_OPTION` for bad options, `ERR_SITEMAP_API` for misuse (an unknown input type, reading
// one result twice). Messages are one line.

import { isAscii } from 'node:buffer';
import { open, type FileHandle, type FileReadResult } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DiagnosticCollector, isDiagnosticCap, type Diagnostic, type Severity } from '../core/diagnostics.js';
import { SitemapError, quoteValue } from '../core/errors.js';
import type { SitemapRef, UrlEntry } from '../core/model.js';
import { readAsciiChunk } from '../core/read/ascii-bulk.js';
import { StreamDecoder } from '../core/read/decode.js';
import { ENCODING_SNIFF_BYTES, FORMAT_SNIFF_CHARS, sniffFormat } from '../core/read/sniff.js';
import { DEFAULT_MAX_ENTRIES, DEFAULT_MAX_VALUE_LENGTH, TextSitemapReader } from '../core/read/text.js';
import type { EntryPosition, ReaderBudgets, ReaderSink, SitemapFormat } from '../core/read/types.js';
import { XmlSitemapReader } from '../core/read/xml-reader.js';
import { XmlTokenizer, type XmlTokenHandler } from '../core/xml/tokenizer.js';
import { DEFAULT_MAX_DECOMPRESSED_BYTES, DEFAULT_MAX_GZIP_DEPTH, decompressed } from './decompress.js';
import { ioErrorReason } from './io-errors.js';

/** Files are read in chunks of this size (DESIGN.md: large chunks across stream boundaries). */
const READ_CHUNK = 256 * 1024;
/** Chunks of a regular file being read while the last one is parsed (fileChunks). */
const READ_AHEAD = 2;
/**
 * Buffers a regular file is read into, in turn, after its first chunk (fileChunks). The read of
 * chunk j + 2 starts when chunk j is handed on, and by then chunk j - 2 is used up, whichever way it
 * went: decoded at once, or written into a gunzip, which takes the next chunk only once the one
 * before has drained (a chunk is above its input high-water mark); chunk j - 1 may still be in the
 * gunzip. So four would do (three fail a test); five leave a chunk of margin. The first chunk gets
 * its own buffer: the gzip and encoding sniffs hold on to it.
 */
const READ_RING = READ_AHEAD + 3;
/** Bytes and text given whole are fed in slices of this size, so the iterator can batch. */
const SLICE = 256 * 1024;
const DEFAULT_MAX_DEPTH = 256;
/**
 * Bytes are decoded (and tokenized) this many at a time. The decoded string is alive, and so survives,
 * every scavenge that happens while it is read; V8 grows the young generation once the bytes that
 * survived scavenges since it last grew add up to its capacity (8 MB, then 16 MB). With one 256 KiB
 * string per input chunk that happens early (some 35 MB of RSS over the floor on a 500 MB input).
 * 32 KiB pieces put it off to about 230 scavenges, which a 500 MB input reaches, or not, from one run to
 * the next (peak RSS 89 or 105 MB, measured); past DECODE_SMALL_AFTER bytes, 16 KiB pieces put it off
 * twice as far. Smaller pieces from the start made a cold 10 MB read about 6% slower (medians of 14
 * interleaved runs on a noisy machine), hence the switch.
 */
const DECODE_PIECE = 32 * 1024;
/**
 * Input that made more than one diagnostic per DENSE_BYTES_PER_DIAGNOSTIC bytes is read on in pieces
 * of DENSE_PIECE bytes (drive), and so is the start of every input: 4 KiB of `x` lines make 2,048
 * diagnostics, under 1 MB, where a 256 KiB chunk made 131,072 at once, ~45 MB held until the
 * consumer took them (discover's event queue). V8 lets the heap grow to about four times what is
 * live at a full collection, so such a burst cost ~300 MB of peak RSS (measured, 16 KiB: ~160 MB).
 */
const DENSE_BYTES_PER_DIAGNOSTIC = 256;
const DENSE_PIECE = 4 * 1024;
const DECODE_SMALL_PIECE = 16 * 1024;
const DECODE_SMALL_AFTER = 32 * 1024 * 1024;
/** Pipeline.writeAscii: ASCII chunks in a row in which no bytes were read in bulk before it stops trying. */
const BULK_BYTES_TRIES = 4;

/**
 * What `parseSitemap` and `readSitemap` read:
 * - a `string` is a FILE PATH (resolved against `options.cwd`), never the content: pass `{ text }` for that;
 * - `{ path }`: the same, explicitly;
 * - `{ text }`: the decoded content (no gzip, no encoding sniffing: it is already text);
 * - bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`);
 * - a web `ReadableStream` of bytes;
 * - an async iterable of chunks, `Uint8Array` or `string` (strings are taken as UTF-8): a Node
 *   `Readable` (`process.stdin`, `fs.createReadStream`, an HTTP response) is one.
 * Gzip is recognised by its magic bytes whatever the input, also a gzip inside a gzip.
 */
export type SitemapInput =
  | string
  | { path: string }
  | { text: string }
  | Uint8Array
  | ArrayBuffer
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

export interface ParseSitemapOptions extends ReaderBudgets {
  /** Most bytes after decompression, default 100 MiB (`budget/decompressed-size`). */
  maxBytes?: number;
  /** Most bytes read from the input, default `maxBytes` + 1/1024 + 4 KiB (`budget/compressed-size`). */
  maxCompressedBytes?: number;
  /** Most gzip layers unwrapped, default 2: a gzip inside a gzip (`budget/gzip-depth`). */
  maxGzipDepth?: number;
  /** Put into every diagnostic's `file`; defaults to the path for a path input. */
  file?: string;
  /** Base of a relative path; default `process.cwd()`. */
  cwd?: string;
  /**
   * Advanced: wrap the XML reader's tokenizer handler to see the same XML events (validation does).
   * The wrapper must forward every event to the reader, in order.
   */
  xmlHandler?: (reader: XmlSitemapReader) => XmlTokenHandler;
  /**
   * Advanced: called before each chunk (≤ 256 KiB of decompressed input) is read; when it returns a
   * promise, reading waits for it. A consumer of the callbacks that falls behind holds reading back
   * this way (discover does), whatever the compression ratio of the input.
   */
  backpressure?: () => Promise<void> | undefined;
  /**
   * Advanced: read what the XML handler's shortcut takes in bulk (a validation's plain `<url>`
   * elements) from the bytes of ASCII chunks, without making strings of them (default true); false
   * reads every chunk as text. The results are the same either way; true is faster.
   */
  bulkFromBytes?: boolean;
  /**
   * Diagnostics of one code kept in `diagnostics` (default 1,000); past it they are counted and passed
   * to `onDiagnostic`, and the summary ends with one `diagnostics/truncated` entry giving how many of
   * each code were left out. The counts (`errors`, `warnings`) stay exact.
   */
  maxDiagnosticsPerCode?: number;
  /** Receives every diagnostic as it is found, kept or not. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/**
 * One entry, where it starts in the decoded text (1-based line and column, UTF-16 code units).
 * `kind` tells a page of a urlset / feed / text sitemap (`url`) from a child of a sitemap index (`sitemap`).
 */
export type SitemapItem =
  | { kind: 'url'; entry: UrlEntry; line: number; column: number }
  | { kind: 'sitemap'; ref: SitemapRef; line: number; column: number };

export interface SitemapSummary {
  /** What the input turned out to be; `unknown` when it could not be told (e.g. a budget stopped reading first). */
  format: SitemapFormat;
  /** Entries delivered. */
  urls: number;
  sitemaps: number;
  /**
   * The diagnostics in the order reported: at most `maxDiagnosticsPerCode` of each code, then, when
   * some were left out, one `diagnostics/truncated` entry with how many of each code.
   */
  diagnostics: Diagnostic[];
  /** Diagnostics by severity. */
  errors: number;
  warnings: number;
  /** Bytes read from the input (compressed, if it was); 0 for `{ text }`. */
  bytesRead: number;
  /** Bytes after decompression (equal to `bytesRead` for plain input); 0 for `{ text }`. */
  bytesDecompressed: number;
  /** The WHATWG name of the encoding the bytes were decoded with; undefined for `{ text }` or no bytes. */
  encoding: string | undefined;
}

export interface ReadSitemapOptions extends ParseSitemapOptions {
  /** `locHash`: the loc's fingerprint (core/fingerprint.ts) when `locHashes` is set and the reader had it; read it at once. */
  onUrl?: (entry: UrlEntry, at: EntryPosition, locHash?: Int32Array) => void;
  /** Ask for `onUrl`'s `locHash` where the reader computes it cheaply (its bulk lane). */
  locHashes?: boolean;
  onSitemap?: (ref: SitemapRef, at: EntryPosition) => void;
  /** Called when the format is known (at most a few characters into the input). */
  onFormat?: (format: SitemapFormat) => void;
}

/** The text of bytes that are all ASCII, else undefined: a SIMD check and a copy, twice TextDecoder's speed. */
function asciiText(bytes: Uint8Array): string | undefined {
  return isAscii(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1') : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Positions

const LF = 0x0a;
const CR = 0x0d;

/** Counts lines over decoded text; LF, CRLF and a lone CR each end a line (also across chunks). */
class LineCounter {
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

// ---------------------------------------------------------------------------------------------------
// Format routing

type Event = [0, SitemapFormat] | [1, UrlEntry, EntryPosition] | [2, SitemapRef, EntryPosition] | [3, Diagnostic];

/** A sink that holds events until `open()`, then forwards them. */
class Relay implements ReaderSink {
  private held: Event[] | undefined = [];
  constructor(private readonly target: ReaderSink) {}
  get wantsLocHashes(): boolean {
    return this.target.wantsLocHashes === true;
  }
  open(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const e of held) {
      if (e[0] === 0) this.target.format(e[1]);
      else if (e[0] === 1) this.target.url(e[1], e[2]);
      else if (e[0] === 2) this.target.sitemap(e[1], e[2]);
      else this.target.diagnostic(e[1]);
    }
  }
  format(f: SitemapFormat): void {
    if (this.held !== undefined) this.held.push([0, f]);
    else this.target.format(f);
  }
  url(e: UrlEntry, at: EntryPosition, locHash?: Int32Array): void {
    // A held url loses its fingerprint (the array is reused): the sink computes it then.
    if (this.held !== undefined) this.held.push([1, e, at]);
    else this.target.url(e, at, locHash);
  }
  sitemap(r: SitemapRef, at: EntryPosition): void {
    if (this.held !== undefined) this.held.push([2, r, at]);
    else this.target.sitemap(r, at);
  }
  diagnostic(d: Diagnostic): void {
    if (this.held !== undefined) this.held.push([3, d]);
    else this.target.diagnostic(d);
  }
}

interface TextTarget {
  write(text: string): void;
  end(): void;
  /** An XML target's tokenizer, for the input the pipeline reads from its bytes (Pipeline.writeAscii). */
  readonly tokenizer?: XmlTokenizer;
}

/** What sniff.ts skips before looking at the format: a BOM at the very start, then these. */
function isLeadingSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c;
}

/** Decoded text → the reader the format calls for. */
class FormatRouter {
  private target: TextTarget | undefined;
  private pending = '';
  private leading = true;
  private atStart = true;
  private readonly leadingCounter = new LineCounter();
  private start: { line: number; column: number; offset: number } | undefined;
  private candidates: { xml: TextTarget; xmlRelay: Relay; text: TextTarget; textRelay: Relay } | undefined;
  /** Nothing more to read (an HTML page). */
  finished = false;

  constructor(
    private readonly sink: ReaderSink,
    private readonly budgets: ReaderBudgets,
    private readonly xmlHandler?: (reader: XmlSitemapReader) => XmlTokenHandler,
  ) {}

  /** The XML tokenizer, once the input is known to be XML. */
  get xmlTokenizer(): XmlTokenizer | undefined {
    return this.target?.tokenizer;
  }

  write(text: string): void {
    if (this.target !== undefined) {
      this.target.write(text);
      return;
    }
    if (this.finished || text.length === 0) return;
    let i = 0;
    if (this.leading) {
      if (this.atStart && text.charCodeAt(0) === 0xfeff) i = 1;
      this.atStart = false;
      while (i < text.length && isLeadingSpace(text.charCodeAt(i))) i++;
      if (i > 0) {
        const space = text.slice(0, i);
        this.leadingCounter.advance(space, 0, space.length);
        const c = this.candidatesForLeadingSpace();
        c.xml.write(space);
        c.text.write(space);
      }
      if (i === text.length) return;
      this.leading = false;
      const lc = this.leadingCounter;
      this.start = { line: lc.line, column: lc.column, offset: lc.offset };
    }
    this.pending += i === 0 ? text : text.slice(i);
    if (this.pending.length >= FORMAT_SNIFF_CHARS) this.decide();
  }

  end(): void {
    if (this.target === undefined && !this.finished) this.decide();
    this.target?.end();
  }

  /** Reading was cut: decide the format on what there is (unless it is all whitespace), without ending. */
  cut(): void {
    if (this.target === undefined && !this.finished && !this.leading) this.decide();
  }

  private candidatesForLeadingSpace(): NonNullable<FormatRouter['candidates']> {
    if (this.candidates === undefined) {
      const xmlRelay = new Relay(this.sink);
      const textRelay = new Relay(this.sink);
      this.candidates = { xml: this.xmlTarget(xmlRelay), xmlRelay, text: new TextSitemapReader(textRelay, this.budgets), textRelay };
    }
    return this.candidates;
  }

  private xmlTarget(sink: ReaderSink): TextTarget {
    const reader = new XmlSitemapReader(sink, this.budgets);
    const tokenizer = new XmlTokenizer(this.xmlHandler?.(reader) ?? reader, {
      maxDepth: this.budgets.maxDepth ?? DEFAULT_MAX_DEPTH,
      maxValueLength: this.budgets.maxValueLength ?? DEFAULT_MAX_VALUE_LENGTH,
    });
    return {
      tokenizer,
      write: (text) => tokenizer.write(text),
      end: () => {
        tokenizer.end();
        reader.end();
      },
    };
  }

  private decide(): void {
    const pending = this.pending;
    this.pending = '';
    // A BOM that is not at the very start is not skipped by the sniffer: keep it in front.
    const format = this.leading ? 'empty' : sniffFormat(pending.charCodeAt(0) === 0xfeff ? ` ${pending}` : pending);
    const c = this.candidates;
    this.candidates = undefined;
    if (format === 'xml' || format === 'text') {
      if (c !== undefined) {
        const relay = format === 'xml' ? c.xmlRelay : c.textRelay;
        relay.open();
        this.target = format === 'xml' ? c.xml : c.text;
      } else {
        this.target = format === 'xml' ? this.xmlTarget(this.sink) : new TextSitemapReader(this.sink, this.budgets);
      }
      this.target.write(pending);
      return;
    }
    this.finished = true;
    const at = this.start ?? { line: this.leadingCounter.line, column: this.leadingCounter.column, offset: this.leadingCounter.offset };
    this.sink.format(format);
    if (format === 'html') {
      this.sink.diagnostic({
        code: 'format/html',
        severity: 'error',
        message: 'sitemap is HTML: the input is a web page, not a sitemap; no URLs were taken from it',
        ...at,
        hint: 'serve the sitemap file itself, XML or one URL per line; check the address, redirects and error pages',
      });
    } else {
      this.sink.diagnostic({
        code: 'format/empty',
        severity: 'error',
        message: 'the sitemap is empty',
        ...at,
        hint: 'a sitemap lists at least one URL',
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// The pipeline

/** Codes after which reading stops (besides the byte budgets, which end the byte stream). */
const STOPPING_CODES = new Set(['budget/entries']);
/** Errors of decompressed() that are reported as diagnostics. */
const BYTE_BUDGET_CODES = new Set(['budget/decompressed-size', 'budget/compressed-size', 'budget/gzip-depth', 'gzip/corrupt']);

interface PipelineSink {
  format(format: SitemapFormat): void;
  url(entry: UrlEntry, at: EntryPosition, locHash?: Int32Array): void;
  sitemap(ref: SitemapRef, at: EntryPosition): void;
  diagnostic(d: Diagnostic): void;
}

class Pipeline implements ReaderSink {
  /** What is kept of the diagnostics (capped per code), with exact counts. */
  readonly diagnostics: DiagnosticCollector;
  format_: SitemapFormat | undefined;
  urls = 0;
  sitemaps = 0;
  errors = 0;
  warnings = 0;
  bytesRead = 0;
  bytesDecompressed = 0;
  stopped = false;
  /** ReaderSink.wantsLocHashes: set by readSitemap's `locHashes`. */
  wantsLocHashes = false;
  private readonly decoder = new StreamDecoder(ENCODING_SNIFF_BYTES, asciiText);
  private usedDecoder = false;
  private decoderSeen = 0;
  private readonly decoderKeys = new Set<string>();
  private readonly counter = new LineCounter();
  private readonly router: FormatRouter;
  /** Chunks left to try reading from their bytes (writeAscii) before giving up on it. */
  private bulkBytes: number;

  constructor(
    private readonly out: PipelineSink,
    budgets: ReaderBudgets,
    private readonly file: string | undefined,
    xmlHandler?: (reader: XmlSitemapReader) => XmlTokenHandler,
    bulkFromBytes = true,
    maxDiagnosticsPerCode?: number,
  ) {
    this.diagnostics = new DiagnosticCollector({ maxPerCode: maxDiagnosticsPerCode });
    this.router = new FormatRouter(this, budgets, xmlHandler);
    this.bulkBytes = bulkFromBytes ? BULK_BYTES_TRIES : 0;
  }

  get wantsMore(): boolean {
    return !this.stopped && !this.router.finished;
  }

  get encoding(): string | undefined {
    return this.usedDecoder && this.decoder.sniffed !== undefined ? this.decoder.encoding : undefined;
  }

  writeBytes(bytes: Uint8Array): void {
    this.usedDecoder = true;
    this.bytesDecompressed += bytes.length;
    // XML, ASCII, in an encoding that takes ASCII as is, nothing the decoder has yet to place: the
    // bulk from the bytes.
    const tokenizer = this.router.xmlTokenizer;
    if (tokenizer !== undefined && this.bulkBytes > 0 && this.decoder.takesAsciiAsIs && this.decoderSeen === this.decoder.diagnostics.length && this.wantsMore && isAscii(bytes)) {
      this.writeAscii(bytes, tokenizer);
      return;
    }
    this.decodeAndRead(bytes, 0, bytes.length);
  }

  /** Decodes `bytes[from, to)` and reads the text. */
  private decodeAndRead(bytes: Uint8Array, from: number, to: number): void {
    // Decoded in pieces (see DECODE_PIECE), not as one 256 KiB string.
    const piece = this.bytesDecompressed > DECODE_SMALL_AFTER ? DECODE_SMALL_PIECE : DECODE_PIECE;
    for (let i = from; i < to; i += piece) this.takeText(this.decoder.write(bytes.subarray(i, Math.min(to, i + piece))));
  }

  /** An ASCII chunk of XML: its bulk read from the bytes (core/read/ascii-bulk.ts), the rest as text. */
  private writeAscii(chunk: Uint8Array, tokenizer: XmlTokenizer): void {
    // An array of its own (readAsciiChunk).
    const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const read = readAsciiChunk(tokenizer, bytes, {
      text: (from, to) => this.decodeAndRead(bytes, from, to),
      skipped: (from, to, lines, column) => {
        this.decoder.skipAscii(bytes.subarray(from, to));
        this.counter.skip(to - from, lines, column);
      },
      wantsMore: () => this.wantsMore,
    });
    // A reading whose shortcut takes no bytes (it has no bulk read, or none fits) stops trying.
    this.bulkBytes = read ? BULK_BYTES_TRIES : this.bulkBytes - 1;
  }

  writeText(text: string): void {
    this.counter.advance(text, 0, text.length);
    this.router.write(text);
  }

  /** The input ended. */
  end(): void {
    if (this.usedDecoder) this.takeText(this.decoder.end());
    if (this.wantsMore) this.router.end();
  }

  /**
   * Reading stopped on a byte budget or a corrupt gzip: the bytes that came before are decoded and
   * read, but the readers are not ended, so nothing is made of the part the cut went through (the
   * last text line, an open element); then a diagnostic at the position reached.
   */
  stop(error: SitemapError): void {
    if (this.usedDecoder) this.takeText(this.decoder.end(), true);
    if (this.wantsMore) this.router.cut();
    this.diagnostic({ code: error.code, severity: 'error', message: error.message, line: this.counter.line, column: this.counter.column, offset: this.counter.offset });
    this.stopped = true;
  }

  /**
   * Decoded text: first the decoder's diagnostics (placed on lines and columns), then the reader.
   * `cut`: the text ends where reading was stopped; an invalid byte sequence at its very end is the
   * cut, not the input's fault, and is not reported.
   */
  private takeText(text: string, cut = false): void {
    const all = this.decoder.diagnostics;
    let from = 0;
    let unplaced: Diagnostic[] | undefined;
    while (this.decoderSeen < all.length) {
      const d = all[this.decoderSeen++] as Diagnostic;
      if (cut && d.code === 'encoding/invalid-bytes' && (d.offset === undefined || d.offset >= this.counter.offset + text.length - 1)) continue;
      if (d.line !== undefined) {
        this.decoderKeys.add(`${d.code}:${d.line}:${d.column}`);
        this.diagnostic(d);
        continue;
      }
      if (d.offset === undefined || d.offset < this.counter.offset || d.offset > this.counter.offset + text.length - from) {
        (unplaced ??= []).push(d);
        continue;
      }
      const to = from + (d.offset - this.counter.offset);
      this.counter.advance(text, from, to);
      from = to;
      d.line = this.counter.line;
      d.column = this.counter.column;
      this.diagnostic(d);
    }
    this.counter.advance(text, from, text.length);
    for (const d of unplaced ?? []) {
      d.line = this.counter.line;
      d.column = this.counter.column;
      this.diagnostic(d);
    }
    if (this.wantsMore && text.length > 0) this.router.write(text);
  }

  // ReaderSink, from the readers (and the router).
  format(format: SitemapFormat): void {
    this.format_ = format;
    this.out.format(format);
  }

  url(entry: UrlEntry, at: EntryPosition, locHash?: Int32Array): void {
    if (this.stopped) return;
    this.urls++;
    this.out.url(entry, at, locHash);
  }

  urlRun(count: number): number {
    if (this.stopped) return 0;
    this.urls += count;
    return count;
  }

  sitemap(ref: SitemapRef, at: EntryPosition): void {
    if (this.stopped) return;
    this.sitemaps++;
    this.out.sitemap(ref, at);
  }

  diagnostic(d: Diagnostic): void {
    if (this.stopped) return;
    // The encoding sniff and the tokenizer both see whitespace before `<?xml`: report it once.
    if (this.decoderKeys.size > 0 && d.line !== undefined && this.decoderKeys.has(`${d.code}:${d.line}:${d.column}`) && !this.decoder.diagnostics.includes(d)) return;
    if (this.file !== undefined && d.file === undefined) d.file = this.file;
    if (d.severity === 'error') this.errors++;
    else if (d.severity === 'warning') this.warnings++;
    this.diagnostics.add(d);
    this.out.diagnostic(d);
    if (STOPPING_CODES.has(d.code)) this.stopped = true;
  }

  summary(): SitemapSummary {
    return {
      format: this.format_ ?? 'unknown',
      urls: this.urls,
      sitemaps: this.sitemaps,
      diagnostics: this.diagnostics.list(this.file),
      errors: this.errors,
      warnings: this.warnings,
      bytesRead: this.bytesRead,
      bytesDecompressed: this.bytesDecompressed,
      encoding: this.encoding,
    };
  }
}

// ---------------------------------------------------------------------------------------------------
// Inputs


function inputError(what: string, error: unknown, hint = ''): SitemapError {
  if (error instanceof SitemapError) return error;
  const e = new SitemapError('ERR_SITEMAP_INPUT', `cannot read ${what}: ${ioErrorReason(error)}${hint}`);
  e.cause = error;
  return e;
}

/**
 * For a string that names no file: a hint when it looks like what people pass by mistake, since a
 * string is always a path (XML given as text, or a URL).
 */
function pathHint(given: string, error: unknown): string {
  const code = (error as { code?: string } | null)?.code;
  if (code !== 'ENOENT' && code !== 'ENAMETOOLONG') return '';
  if (/^[\s\ufeff]*</.test(given)) return '; a string is read as a file path: pass { text } to read XML given as a string';
  if (/^https?:\/\//i.test(given)) return '; a string is read as a file path: to read a URL, pass the fetch response\'s body, or use discoverSitemaps()';
  return '';
}

function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new SitemapError('ERR_SITEMAP_API', `a sitemap input chunk must be bytes or a string, got ${chunk === null ? 'null' : typeof chunk}`);
}

/**
 * A file's bytes in READ_CHUNK pieces. A regular file is read READ_AHEAD chunks ahead (positional
 * reads in flight while the last chunk is parsed: with one read at a time, as a read stream does,
 * a cold 10 MB validation waited some 10 ms of its 70 for the disk cache); anything else (a FIFO,
 * /dev/stdin) through a read stream, in order.
 */
async function* fileChunks(path: string, shown: string, given: string): AsyncGenerator<Uint8Array> {
  let handle: FileHandle;
  let regular: boolean;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw inputError(shown, error, pathHint(given, error));
  }
  try {
    regular = (await handle.stat()).isFile();
  } catch (error) {
    await handle.close();
    throw inputError(shown, error);
  }
  if (!regular) {
    yield* streamChunks(handle, shown);
    return;
  }
  const pending: Promise<FileReadResult<Buffer>>[] = [];
  let position = 0;
  // Reused rather than one new buffer a read: a 500 MB file read into fresh buffers kept ~7 MB of
  // them waiting for the garbage collector (bench:read's peak RSS, 4-6 MB more).
  const ring: Buffer[] = [];
  let reads = 0;
  const readNext = (): void => {
    const buffer = reads === 0 ? Buffer.allocUnsafe(READ_CHUNK) : (ring[reads % READ_RING] ??= Buffer.allocUnsafe(READ_CHUNK));
    reads++;
    pending.push(handle.read(buffer, 0, READ_CHUNK, position));
    position += READ_CHUNK;
  };
  try {
    for (let i = 0; i < READ_AHEAD; i++) readNext();
    for (;;) {
      const { bytesRead, buffer } = await (pending.shift() as Promise<FileReadResult<Buffer>>);
      // A short read is the end of the file (as it was when read).
      const last = bytesRead < READ_CHUNK;
      if (!last) readNext();
      if (bytesRead > 0) yield buffer.subarray(0, bytesRead);
      if (last) return;
    }
  } catch (error) {
    throw inputError(shown, error);
  } finally {
    // Reads still in flight (the reading stopped early) finish before the file is closed.
    await Promise.allSettled(pending);
    await handle.close();
  }
}

/** What is not a regular file, read in order by a stream over its handle (which closes it). */
async function* streamChunks(handle: FileHandle, shown: string): AsyncGenerator<Uint8Array> {
  const stream = handle.createReadStream({ highWaterMark: READ_CHUNK });
  try {
    for await (const chunk of stream) yield chunk as Uint8Array;
  } catch (error) {
    throw inputError(shown, error);
  } finally {
    stream.destroy();
  }
}

async function* iterableChunks(source: AsyncIterable<unknown>, shown: string): AsyncGenerator<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let r: IteratorResult<unknown>;
      try {
        r = await it.next();
      } catch (error) {
        throw inputError(shown, error);
      }
      if (r.done === true) return;
      yield toBytes(r.value);
    }
  } finally {
    await it.return?.();
  }
}

async function* webStreamChunks(stream: ReadableStream<Uint8Array>, shown: string): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      let r: Awaited<ReturnType<typeof reader.read>>;
      try {
        r = await reader.read();
      } catch (error) {
        done = true;
        throw inputError(shown, error);
      }
      if (r.done) {
        done = true;
        return;
      }
      yield toBytes(r.value);
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function* sliced(bytes: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += SLICE) yield bytes.subarray(i, i + SLICE);
}

type Source = { kind: 'bytes'; chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>; file: string | undefined } | { kind: 'text'; text: string; file: string | undefined };

function isObject(value: unknown): value is Record<string | symbol, unknown> {
  return typeof value === 'object' && value !== null;
}

function sourceOf(input: SitemapInput, options: ParseSitemapOptions): Source {
  const fromPath = (path: string): Source => {
    if (path.length === 0) throw new SitemapError('ERR_SITEMAP_API', 'the sitemap path is empty');
    const full = options.cwd !== undefined ? resolve(options.cwd, path) : resolve(path);
    // A path that cannot be a file name as it stands (XML passed by mistake) is quoted and shortened, so
    // the message stays one line.
    const shown = path.length > 200 || /[\x00-\x1f]/.test(path) ? quoteValue(path) : path;
    return { kind: 'bytes', chunks: fileChunks(full, options.file ?? shown, path), file: options.file ?? path };
  };
  const shown = options.file ?? 'the sitemap input';
  if (typeof input === 'string') return fromPath(input);
  if (input instanceof Uint8Array) return { kind: 'bytes', chunks: sliced(input), file: options.file };
  if (input instanceof ArrayBuffer) return { kind: 'bytes', chunks: sliced(new Uint8Array(input)), file: options.file };
  const o: unknown = input;
  if (isObject(o)) {
    if (typeof o.getReader === 'function') return { kind: 'bytes', chunks: webStreamChunks(o as unknown as ReadableStream<Uint8Array>, shown), file: options.file };
    if (typeof o[Symbol.asyncIterator] === 'function') return { kind: 'bytes', chunks: iterableChunks(o as unknown as AsyncIterable<unknown>, shown), file: options.file };
    if (typeof o.text === 'string') return { kind: 'text', text: o.text, file: options.file };
    if (typeof o.path === 'string') return fromPath(o.path);
  }
  throw new SitemapError(
    'ERR_SITEMAP_API',
    'parseSitemap needs a file path, { path }, { text }, bytes, a ReadableStream or an async iterable of chunks',
  );
}

function checkCount(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < min)) {
    throw new SitemapError('ERR_SITEMAP_OPTION', `${name} must be a whole number of at least ${min}, got ${value}`);
  }
}

function checkOptions(options: ParseSitemapOptions): void {
  checkCount('maxBytes', options.maxBytes, 1);
  checkCount('maxCompressedBytes', options.maxCompressedBytes, 1);
  checkCount('maxGzipDepth', options.maxGzipDepth, 0);
  checkCount('maxEntries', options.maxEntries, 1);
  checkCount('maxDepth', options.maxDepth, 1);
  checkCount('maxValueLength', options.maxValueLength, 1);
  if (options.maxDiagnosticsPerCode !== undefined && !isDiagnosticCap(options.maxDiagnosticsPerCode)) {
    throw new SitemapError('ERR_SITEMAP_OPTION', `maxDiagnosticsPerCode must be a whole number ≥ 0 or Infinity, got ${String(options.maxDiagnosticsPerCode)}`);
  }
}

function budgetsOf(options: ParseSitemapOptions): ReaderBudgets {
  return {
    maxEntries: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxValueLength: options.maxValueLength ?? DEFAULT_MAX_VALUE_LENGTH,
  };
}

/** Drives the pipeline chunk by chunk; yields after each input chunk (the unit of batching). */
async function* drive(source: Source, options: ParseSitemapOptions, pipeline: Pipeline): AsyncGenerator<void> {
  if (source.kind === 'text') {
    const text = source.text;
    for (let i = 0; i < text.length && pipeline.wantsMore; i += SLICE) {
      pipeline.writeText(text.slice(i, i + SLICE));
      yield;
    }
    if (pipeline.wantsMore) pipeline.end();
    yield;
    return;
  }
  const chunks = source.chunks;
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      pipeline.bytesRead += chunk.length;
      yield chunk;
    }
  }
  let dense = true;
  const bytes = decompressed(counted(), {
    maxBytes: options.maxBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES,
    maxDepth: options.maxGzipDepth ?? DEFAULT_MAX_GZIP_DEPTH,
    ...(options.maxCompressedBytes !== undefined ? { maxCompressedBytes: options.maxCompressedBytes } : {}),
  });
  try {
    for (;;) {
      let r: IteratorResult<Uint8Array>;
      try {
        r = await bytes.next();
      } catch (error) {
        if (error instanceof SitemapError && BYTE_BUDGET_CODES.has(error.code)) {
          pipeline.stop(error);
          yield;
          return;
        }
        throw error;
      }
      if (r.done === true) break;
      const chunk = r.value;
      // A chunk dense with problems (one every few bytes: a hostile or broken input) is read in small
      // pieces, each after the consumer has caught up (backpressure) and taken the last one's (yield),
      // so that what one piece makes stays small whatever the input holds (issue 22).
      // The first piece is small too: nothing is known of the input yet.
      for (let at = 0; at < chunk.length; ) {
        const wait = options.backpressure?.();
        if (wait !== undefined) await wait;
        const end: number = dense ? Math.min(chunk.length, at + DENSE_PIECE) : chunk.length;
        const part: Uint8Array = at === 0 && end === chunk.length ? chunk : chunk.subarray(at, end);
        at = end;
        const before = pipeline.diagnostics.total;
        pipeline.writeBytes(part);
        dense = (pipeline.diagnostics.total - before) * DENSE_BYTES_PER_DIAGNOSTIC > part.length;
        yield;
        if (!pipeline.wantsMore) return;
      }
    }
    pipeline.end();
    yield;
  } finally {
    await bytes.return(undefined);
  }
}

// ---------------------------------------------------------------------------------------------------
// Public API

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * One reading of a sitemap: iterate it (`for await (const item of reading)`) for the entries, or
 * `batches()` for arrays of them (one per input chunk: the fast way for bulk work), or just await
 * `summary()`. It is read once, lazily, when one of these starts. `diagnostics` and `format` fill in
 * as reading goes. Breaking out of the iteration stops reading and closes the input.
 */
export class SitemapReading implements AsyncIterable<SitemapItem> {
  private readonly pipeline: Pipeline;
  private batch: SitemapItem[] = [];
  private collect = true;
  private started = false;
  private finishedResolve!: () => void;
  private finishedReject!: (error: unknown) => void;
  private readonly finished: Promise<void>;

  /** @internal Use `parseSitemap`. */
  constructor(
    private readonly source: Source,
    private readonly options: ParseSitemapOptions,
  ) {
    this.pipeline = new Pipeline(
      {
        format: () => {},
        url: (entry, at) => {
          if (this.collect) this.batch.push({ kind: 'url', entry, line: at.line, column: at.column });
        },
        sitemap: (ref, at) => {
          if (this.collect) this.batch.push({ kind: 'sitemap', ref, line: at.line, column: at.column });
        },
        diagnostic: options.onDiagnostic ?? (() => {}),
      },
      budgetsOf(options),
      source.file,
      options.xmlHandler,
      options.bulkFromBytes,
      options.maxDiagnosticsPerCode,
    );
    this.finished = new Promise<void>((resolve, reject) => {
      this.finishedResolve = resolve;
      this.finishedReject = reject;
    });
    this.finished.catch(() => {});
  }

  /**
   * The diagnostics kept so far (the array grows while reading): at most `maxDiagnosticsPerCode` of
   * each code. `onDiagnostic` receives every one; the summary's counts are exact.
   */
  get diagnostics(): readonly Diagnostic[] {
    return this.pipeline.diagnostics.retained;
  }

  /** The format, once known (after the first characters, or the root element for XML). */
  get format(): SitemapFormat | undefined {
    return this.pipeline.format_;
  }

  /** The entries in arrays, one per input chunk (about 256 KiB of input); empty arrays are skipped. */
  batches(): AsyncGenerator<SitemapItem[]> {
    if (this.started) throw new SitemapError('ERR_SITEMAP_API', 'a sitemap reading can be read only once; call parseSitemap() again');
    this.started = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<SitemapItem[]> {
    try {
      for await (const _ of drive(this.source, this.options, this.pipeline)) {
        if (this.batch.length > 0) {
          const out = this.batch;
          this.batch = [];
          yield out;
        }
      }
      this.finishedResolve();
    } catch (error) {
      this.finishedReject(error);
      throw error;
    } finally {
      this.finishedResolve();
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<SitemapItem> {
    const batches = this.batches();
    let batch: SitemapItem[] = [];
    let i = 0;
    const pull = async (): Promise<IteratorResult<SitemapItem>> => {
      for (;;) {
        const r = await batches.next();
        if (r.done === true) return DONE;
        if (r.value.length > 0) {
          batch = r.value;
          i = 1;
          return { done: false, value: r.value[0] as SitemapItem };
        }
      }
    };
    return {
      next: () => (i < batch.length ? Promise.resolve({ done: false, value: batch[i++] as SitemapItem }) : pull()),
      return: async () => {
        batch = [];
        await batches.return(undefined);
        return DONE;
      },
    };
  }

  /**
   * The summary once reading is over. If nobody is iterating, reads to the end first (discarding the
   * entries). If an iteration is under way, waits for it to finish or be broken off. Rejects with the
   * I/O error that stopped reading, if any.
   */
  async summary(): Promise<SitemapSummary> {
    if (!this.started) {
      this.collect = false;
      for await (const _ of this.batches()) {
        // Entries are not collected; the summary counts them.
      }
    } else {
      await this.finished;
    }
    return this.pipeline.summary();
  }
}

/**
 * Read a sitemap as an async iterable of entries (see `SitemapInput` for what can be read — a plain
 * string is a file path; the content goes in `{ text }`). Nothing is read until the result is iterated
 * or `summary()` is awaited. Budgets and problems of the input are diagnostics, never exceptions;
 * exceptions are `ERR_SITEMAP_INPUT` (I/O), `ERR_SITEMAP_OPTION` and `ERR_SITEMAP_API`.
 *
 * ```ts
 * const reading = parseSitemap('sitemap.xml.gz');
 * for await (const item of reading) if (item.kind === 'url') console.log(item.entry.loc);
 * const { format, urls, diagnostics } = await reading.summary();
 * ```
 */
export function parseSitemap(input: SitemapInput, options: ParseSitemapOptions = {}): SitemapReading {
  checkOptions(options);
  return new SitemapReading(sourceOf(input, options), options);
}

/**
 * The callback form, for bulk work: no promise and no wrapper object per entry. Calls `onFormat`,
 * `onUrl`, `onSitemap` and `onDiagnostic` as the reader finds them and resolves with the summary.
 */
export async function readSitemap(input: SitemapInput, options: ReadSitemapOptions = {}): Promise<SitemapSummary> {
  checkOptions(options);
  const source = sourceOf(input, options);
  const { onUrl, onSitemap, onDiagnostic, onFormat } = options;
  const noop = (): void => {};
  const pipeline = new Pipeline(
    { format: onFormat ?? noop, url: onUrl ?? noop, sitemap: onSitemap ?? noop, diagnostic: onDiagnostic ?? noop },
    budgetsOf(options),
    source.file,
    options.xmlHandler,
    options.bulkFromBytes,
    options.maxDiagnosticsPerCode,
  );
  pipeline.wantsLocHashes = options.locHashes === true;
  for await (const _ of drive(source, options, pipeline)) {
    // One step per input chunk.
  }
  return pipeline.summary();
}

/** Severity of the diagnostics this module reports itself. */
export const PARSE_SITEMAP_CODES: Readonly<Record<string, Severity>> = Object.freeze({
  'format/html': 'error',
  'format/empty': 'error',
  'budget/decompressed-size': 'error',
  'budget/compressed-size': 'error',
  'budget/gzip-depth': 'error',
  'gzip/corrupt': 'error',
});
