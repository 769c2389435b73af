// SitemapDocument: one sitemap document's bytes, pushed chunk by chunk, to entries and diagnostics, in
// constant memory and without I/O; node/parse-sitemap.ts is its Node adapter (and inflates gzip).
//
//   bytes ─► StreamDecoder ─► format sniff ─┬► XmlTokenizer ─► XmlSitemapReader ─┐
//                                            ├► TextSitemapReader ───────────────┼► entries + diagnostics
//                                            └► html / empty: a diagnostic      ┘
//
// Once the input is known to be XML, the lane reads ASCII chunks from their bytes (lane-bytes.ts).
// Leading whitespace goes to both candidate readers while the format is open, so none is kept. Lines
// are counted here (once, over the decoded text) only to place the decoder's diagnostics and a cut.

import { isAsciiWhitespace } from '../ascii-whitespace.js';
import { DiagnosticCollector, checkDiagnosticCap, type Diagnostic } from '../diagnostics.js';
import { SitemapError, checkCount } from '../errors.js';
import type { SitemapRef, UrlEntry } from '../model.js';
import type { JsonLines } from '../model-json.js';
import { readAsciiChunk } from './lane-bytes.js';
import { StreamDecoder, textAfterBom } from './decode.js';
import { ENCODING_SNIFF_BYTES, FORMAT_SNIFF_CHARS, isGzip, sniffFormat } from './sniff.js';
import { LineCounter } from '../xml/lines.js';
import { DEFAULT_MAX_VALUE_LENGTH, TextSitemapReader } from './text.js';
import type { EntryPosition, ReaderBudgets, ReaderSink, SitemapFormat } from './types.js';
import { XmlSitemapReader } from './xml-reader.js';
import { XmlTokenizer, type XmlTokenHandler } from '../xml/tokenizer.js';

/**
 * Bytes are decoded this many at a time. A decoded string survives the scavenges while it is read, and
 * V8 grows the young generation once survivors add up to its capacity: 256 KiB strings did so early
 * (+35 MB RSS on a 500 MB input). Past DECODE_SMALL_AFTER, 16 KiB pieces put it off twice as far;
 * small pieces from the start made a cold 10 MB read about 6% slower.
 */
const DECODE_PIECE = 32 * 1024;
const DECODE_SMALL_PIECE = 16 * 1024;
const DECODE_SMALL_AFTER = 32 * 1024 * 1024;
/** writeAscii: ASCII chunks in a row in which the lane read no bytes before it stops trying. */
const LANE_BYTES_TRIES = 4;

export interface SitemapDocumentOptions extends ReaderBudgets {
  /** Put into every diagnostic's `file`. */
  file?: string;
  /** Advanced: wraps the XML reader's tokenizer handler to see its events; it must forward each, in order. */
  xmlHandler?: (reader: XmlSitemapReader) => XmlTokenHandler;
  /** Advanced: false reads every chunk as text (lane-bytes.ts); the results are the same, true is faster. */
  laneFromBytes?: boolean;
  /** @deprecated the first name of `laneFromBytes`. */
  bulkFromBytes?: boolean;
  /** Diagnostics of one code kept (default 1,000; then a `diagnostics/truncated` entry); the sink gets every one. */
  maxDiagnosticsPerCode?: number;
  /** A platform's fast paths: whether bytes are all ASCII (Node: `buffer.isAscii`), and their text if so. */
  isAscii?: (bytes: Uint8Array) => boolean;
  asciiText?: (bytes: Uint8Array) => string | undefined;
}

export interface SitemapSummary {
  /** What the input turned out to be; `unknown` when it could not be told (e.g. a budget stopped reading first). */
  format: SitemapFormat;
  /** Entries delivered. */
  urls: number;
  sitemaps: number;
  /** In the order reported, at most `maxDiagnosticsPerCode` of a code, then a `diagnostics/truncated` entry if needed. */
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

/** The end of the piece of ASCII `bytes` from `at` (writeAscii): after the last `endTag` within DECODE_PIECE bytes, if any. */
function pieceEnd(bytes: Uint8Array, at: number, endTag: string | undefined): number {
  const most = at + DECODE_PIECE;
  if (most >= bytes.length || endTag === undefined) return Math.min(most, bytes.length);
  search: for (let lt = bytes.lastIndexOf(0x3c, most - endTag.length); lt > at; lt = bytes.lastIndexOf(0x3c, lt - 1)) {
    for (let k = 1; k < endTag.length; k++) if (bytes[lt + k] !== endTag.charCodeAt(k)) continue search;
    return lt + endTag.length;
  }
  return most;
}

/** A sink that holds events until `open()`, then forwards them. */
class Relay implements ReaderSink {
  private held: (() => void)[] | undefined = [];
  constructor(private readonly target: ReaderSink) {}
  get wantsLocHashes(): boolean {
    return this.target.wantsLocHashes === true;
  }
  open(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const event of held) event();
  }
  /** `event` now, or when opened. */
  private pass(event: () => void): void {
    if (this.held !== undefined) this.held.push(event);
    else event();
  }
  format(f: SitemapFormat): void {
    this.pass(() => this.target.format(f));
  }
  url(e: UrlEntry, at: EntryPosition, locHash?: Int32Array): void {
    // A held url loses its fingerprint (the array is reused): the sink computes it then.
    if (this.held !== undefined) this.held.push(() => this.target.url(e, at));
    else this.target.url(e, at, locHash);
  }
  sitemap(r: SitemapRef, at: EntryPosition): void {
    this.pass(() => this.target.sitemap(r, at));
  }
  diagnostic(d: Diagnostic): void {
    this.pass(() => this.target.diagnostic(d));
  }
}

interface TextTarget {
  write(text: string): void;
  end(): void;
  /** An XML target's tokenizer, for the input read from its bytes (SitemapDocument.writeAscii). */
  readonly tokenizer?: XmlTokenizer;
}

const NOT_A_SITEMAP = {
  html: {
    message: 'sitemap is HTML: the input is a web page, not a sitemap; no URLs were taken from it',
    hint: 'serve the sitemap file itself, XML or one URL per line; check the address, redirects and error pages',
  },
  empty: { message: 'the sitemap is empty', hint: 'a sitemap lists at least one URL' },
};

/** Decoded text → the reader the format calls for. */
class FormatRouter {
  private target: TextTarget | undefined;
  private pending = '';
  private leading = true;
  /** Counts the leading whitespace: where it ends, the document starts. */
  private readonly leadingCounter = new LineCounter();
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
      while (i < text.length && isAsciiWhitespace(text.charCodeAt(i))) i++;
      if (i > 0) {
        const space = text.slice(0, i);
        this.leadingCounter.advance(space, 0, space.length);
        const c = this.candidatesForLeadingSpace();
        c.xml.write(space);
        c.text.write(space);
      }
      if (i === text.length) return;
      this.leading = false;
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
    const { maxDepth, maxValueLength } = this.budgets;
    const tokenizer = new XmlTokenizer(this.xmlHandler?.(reader) ?? reader, { maxDepth, maxValueLength });
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
    // A U+FEFF here is no byte order mark (textAfterBom): the sniffer looks past it, the reader reports it.
    const format = this.leading ? 'empty' : sniffFormat(pending);
    const c = this.candidates;
    this.candidates = undefined;
    if (format === 'xml' || format === 'text') {
      if (c !== undefined) {
        (format === 'xml' ? c.xmlRelay : c.textRelay).open();
        this.target = format === 'xml' ? c.xml : c.text;
      } else {
        this.target = format === 'xml' ? this.xmlTarget(this.sink) : new TextSitemapReader(this.sink, this.budgets);
      }
      this.target.write(pending);
      return;
    }
    this.finished = true;
    const { line, column, offset } = this.leadingCounter;
    this.sink.format(format);
    this.sink.diagnostic({ code: `format/${format}`, severity: 'error', ...NOT_A_SITEMAP[format], line, column, offset });
  }
}

/** Codes after which reading stops. */
const STOPPING_CODES = new Set(['budget/entries', 'format/compressed']);

/** ERR_SITEMAP_API for a chunk of another type than `method` takes (a caller without types: `push(42)` read nothing). */
function wrongChunk(method: string, takes: string, chunk: unknown): SitemapError {
  const got = chunk === null ? 'null' : typeof chunk === 'object' ? (chunk.constructor?.name ?? 'an object') : typeof chunk;
  return new SitemapError('ERR_SITEMAP_API', `SitemapDocument.${method}() takes ${takes}, got ${got}`);
}

/**
 * One sitemap document read from its bytes (or its text), pushed in chunks of any size: the entries,
 * the format and every diagnostic go to `sink` as they are found, and `summary()` gives the counts.
 * The results do not depend on where the chunks split the input.
 *
 * ```ts
 * const doc = new SitemapDocument({ file: 'sitemap.xml' }, { format() {}, url: (e) => console.log(e.loc), sitemap() {}, diagnostic() {} });
 * for await (const chunk of response.body) if (doc.wantsMore) doc.push(chunk);
 * doc.end();
 * const { urls, errors } = doc.summary();
 * ```
 */
export class SitemapDocument implements ReaderSink {
  /** What is kept of the diagnostics (capped per code), with exact counts. */
  readonly diagnostics: DiagnosticCollector;
  /** The format, once known. */
  detected: SitemapFormat | undefined;
  urls = 0;
  sitemaps = 0;
  errors = 0;
  warnings = 0;
  /** Bytes read from the input before decompression, when an adapter inflated them; else the bytes pushed. */
  bytesRead: number | undefined;
  bytesDecompressed = 0;
  stopped = false;
  private readonly file: string | undefined;
  private readonly isAscii: (bytes: Uint8Array) => boolean;
  private readonly decoder: StreamDecoder;
  private usedDecoder = false;
  /** pushText has had a character: a U+FEFF now is text, not the byte order mark. */
  private textStarted = false;
  private decoderSeen = 0;
  private readonly decoderKeys = new Set<string>();
  private readonly counter = new LineCounter();
  private readonly router: FormatRouter;
  /** Chunks left to try reading from their bytes (writeAscii) before giving up on it. */
  private laneBytesTries: number;
  /** The first byte pushed, while the gzip magic is still open. */
  private firstByte = -1;

  constructor(
    options: SitemapDocumentOptions,
    private readonly out: ReaderSink,
  ) {
    // ERR_SITEMAP_OPTION for a budget that is not a whole number in range.
    for (const name of ['maxEntries', 'maxDepth', 'maxValueLength'] as const) checkCount(name, options[name], 1);
    checkDiagnosticCap(options.maxDiagnosticsPerCode);
    this.file = options.file;
    this.isAscii = options.isAscii ?? ((bytes) => bytes.every((b) => b < 0x80));
    this.decoder = new StreamDecoder(ENCODING_SNIFF_BYTES, options.asciiText);
    this.diagnostics = new DiagnosticCollector({ maxPerCode: options.maxDiagnosticsPerCode });
    // The readers and the tokenizer default the same, but for the tokenizer's longer maxValueLength.
    const budgets = { ...options, maxValueLength: options.maxValueLength ?? DEFAULT_MAX_VALUE_LENGTH };
    this.router = new FormatRouter(this, budgets, options.xmlHandler);
    this.laneBytesTries = (options.laneFromBytes ?? options.bulkFromBytes) === false ? 0 : LANE_BYTES_TRIES;
  }

  /** ReaderSink.wantsLocHashes: the sink's. */
  get wantsLocHashes(): boolean {
    return this.out.wantsLocHashes === true;
  }

  /** ReaderSink.urlLines: the sink's, until reading stopped. */
  get urlLines(): JsonLines | undefined {
    return this.stopped ? undefined : this.out.urlLines;
  }

  /** ReaderSink.urlLocs: the sink's, until reading stopped. */
  get urlLocs(): ReaderSink['urlLocs'] {
    return this.stopped ? undefined : this.out.urlLocs;
  }

  get wantsMore(): boolean {
    return !this.stopped && !this.router.finished;
  }

  get encoding(): string | undefined {
    return this.usedDecoder && this.decoder.sniffed !== undefined ? this.decoder.encoding : undefined;
  }

  /** The next bytes of the document (plain, not gzip). */
  push(bytes: Uint8Array): void {
    if (!(bytes instanceof Uint8Array)) throw wrongChunk('push', 'a Uint8Array', bytes);
    if (this.bytesDecompressed < 2 && bytes.length > 0) this.refuseGzip(bytes);
    this.usedDecoder = true;
    this.bytesDecompressed += bytes.length;
    // XML, ASCII, an encoding that takes it as is, nothing the decoder has yet to place: read from the bytes.
    const tokenizer = this.router.xmlTokenizer;
    if (tokenizer !== undefined && this.laneBytesTries > 0 && this.decoder.takesAsciiAsIs && this.decoderSeen === this.decoder.diagnostics.length && this.wantsMore && this.isAscii(bytes)) {
      this.writeAscii(bytes, tokenizer);
      return;
    }
    this.decodeAndRead(bytes, 0, bytes.length);
  }

  /** Decodes `bytes[from, to)` and reads the text. */
  private decodeAndRead(bytes: Uint8Array, from: number, to: number): void {
    const piece = this.bytesDecompressed > DECODE_SMALL_AFTER ? DECODE_SMALL_PIECE : DECODE_PIECE;
    for (let i = from; i < to; i += piece) this.takeText(this.decoder.write(bytes.subarray(i, Math.min(to, i + piece))));
  }

  /**
   * An ASCII chunk of XML: the lane's elements read from the bytes, the rest as text. In pieces of about
   * DECODE_PIECE bytes, as text is decoded (the reader makes a piece's text for its values: whole 256 KiB
   * chunks raised peak RSS from 77 to 120 MB); a piece ends after an end tag where it can.
   */
  private writeAscii(chunk: Uint8Array, tokenizer: XmlTokenizer): void {
    let read = false;
    for (let at = 0; at < chunk.length && this.wantsMore; ) {
      const end = pieceEnd(chunk, at, tokenizer.laneEndTag);
      // An array of its own (readAsciiChunk).
      const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset + at, end - at);
      read = readAsciiChunk(tokenizer, bytes, {
        text: (from, to) => this.decodeAndRead(bytes, from, to),
        skipped: (from, to, lines, column) => {
          this.decoder.skipAscii(bytes.subarray(from, to));
          this.counter.skip(to - from, lines, column);
        },
        wantsMore: () => this.wantsMore,
      }) || read;
      at = end;
    }
    // A reading whose lane takes no bytes (it has none, or none fits) stops trying.
    this.laneBytesTries = read ? LANE_BYTES_TRIES : this.laneBytesTries - 1;
  }

  /** Inflating is the adapter's job: gzip magic (RFC 1952 2.3.1) at the start throws, also when split across two pushes. */
  private refuseGzip(bytes: Uint8Array): void {
    const head = this.bytesDecompressed === 0 ? bytes : Uint8Array.of(this.firstByte, bytes[0] as number);
    if (head.length < 2) this.firstByte = bytes[0] as number;
    else if (isGzip(head)) throw new SitemapError('ERR_SITEMAP_INPUT_FORMAT', 'the bytes are gzip: decompress them first (e.g. through a DecompressionStream("gzip"))');
  }

  /** The next part of a document given as text (no encoding to sniff, no gzip). */
  pushText(text: string): void {
    if (typeof text !== 'string') throw wrongChunk('pushText', 'a string', text);
    if (!this.textStarted && text.length > 0) {
      this.textStarted = true;
      text = textAfterBom(text);
    }
    this.counter.advance(text, 0, text.length);
    this.router.write(text);
  }

  /** The input ended. */
  end(): void {
    if (this.usedDecoder) this.takeText(this.decoder.end());
    if (this.wantsMore) this.router.end();
  }

  /**
   * Reading stopped on a byte budget, a corrupt gzip or a failed input: what came before is read, but the
   * readers are not ended (nothing is made of a cut line or element); then `error` as a diagnostic where
   * reading stopped (none for a failed input, which its caller reports).
   */
  stop(error?: SitemapError): void {
    if (this.usedDecoder) this.takeText(this.decoder.end(), true);
    if (this.wantsMore) this.router.cut();
    if (error !== undefined) this.diagnostic({ code: error.rule ?? error.code, severity: 'error', message: error.message, line: this.counter.line, column: this.counter.column, offset: this.counter.offset });
    this.stopped = true;
  }

  /**
   * Decoded text: the decoder's diagnostics placed on lines and columns, then the text to the reader.
   * `cut`: reading was stopped, so an invalid sequence at the very end is the cut's and not reported.
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
  /** @internal */
  format(format: SitemapFormat): void {
    this.detected = format;
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
      format: this.detected ?? 'unknown',
      urls: this.urls,
      sitemaps: this.sitemaps,
      diagnostics: this.diagnostics.list(this.file),
      errors: this.errors,
      warnings: this.warnings,
      bytesRead: this.bytesRead ?? this.bytesDecompressed,
      bytesDecompressed: this.bytesDecompressed,
      encoding: this.encoding,
    };
  }
}
