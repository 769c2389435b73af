// parseSitemap / readSitemap: any sitemap (urlset, index, RSS, Atom, text; plain or gzipped; any
// encoding) from a file, bytes, a stream or an async iterable, to entries and diagnostics, in constant
// memory: bytes ─► decompressed() ─► SitemapDocument (core/read/document.ts) ─► entries + diagnostics.
// Every budget exceeded (byte caps, gzip depth, entries, depth, value length) and a corrupt gzip is a
// diagnostic, never an exception; after a byte budget no entry is made from the cut-off text.
// Exceptions: `ERR_SITEMAP_INPUT` (I/O), `ERR_SITEMAP_OPTION` (bad options), `ERR_SITEMAP_API` (misuse).

import { setImmediate as nextTurn } from 'node:timers/promises';
import { isAscii } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { BYTE_BUDGET_CODES, type Diagnostic } from '../core/diagnostics.js';
import { SitemapError, checkCount, quoteValue } from '../core/errors.js';
import type { SitemapRef, UrlEntry } from '../core/model.js';
import type { JsonLines } from '../core/model-json.js';
import { SitemapDocument, type SitemapDocumentOptions, type SitemapSummary } from '../core/read/document.js';
import type { EntryPosition, ReaderSink, SitemapFormat } from '../core/read/types.js';
import { decompressed } from './decompress.js';
import { ioErrorReason, rethrowing } from './io-errors.js';

/** Files are read in chunks of this size (DESIGN.md: large chunks across stream boundaries). */
const READ_CHUNK = 256 * 1024;
/** Buffers a regular file is read into in turn after its first (which the sniffs hold on to); three leave margin. */
const READ_RING = 3;
/** Reads between two turns of the event loop (2 MiB). */
const READS_PER_TURN = 8;
/** Bytes and text given whole are fed in slices of this size, so the iterator can batch. */
const SLICE = 256 * 1024;
/**
 * Input with more than one diagnostic per DENSE_BYTES_PER_DIAGNOSTIC bytes, and the start of every input,
 * is read in DENSE_PIECE pieces: a 256 KiB chunk of `x` lines made 131,072 diagnostics at once (~300 MB peak RSS).
 */
const DENSE_BYTES_PER_DIAGNOSTIC = 256;
const DENSE_PIECE = 4 * 1024;

/**
 * What `parseSitemap` and `readSitemap` read: a `string` is a FILE PATH (against `options.cwd`), never the
 * content; `{ path }`; `{ text }` (decoded content: no gzip or encoding sniffing); bytes; a web
 * `ReadableStream`; an async iterable of `Uint8Array` or UTF-8 `string` chunks (a Node `Readable`).
 * Gzip is recognised by its magic bytes whatever the input.
 */
export type SitemapInput =
  | string
  | { path: string }
  | { text: string }
  | Uint8Array
  | ArrayBuffer
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

export type { SitemapSummary };

export interface ParseSitemapOptions extends Omit<SitemapDocumentOptions, 'isAscii' | 'asciiText'> {
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
  /** Advanced: called before each chunk (≤ 256 KiB decompressed) is read; reading waits for a promise it returns. */
  backpressure?: () => Promise<void> | undefined;
  /** Receives every diagnostic as it is found, kept or not. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** Advanced: most bytes in one gunzipped chunk (at least 64), default 256 KiB. */
  gunzipChunkBytes?: number;
}

/** One entry and where it starts (1-based line and column, UTF-16 code units); `sitemap`: a child of an index. */
export type SitemapItem =
  | { kind: 'url'; entry: UrlEntry; line: number; column: number }
  | { kind: 'sitemap'; ref: SitemapRef; line: number; column: number };

export interface ReadSitemapOptions extends ParseSitemapOptions {
  /** `locHash`: the loc's fingerprint (core/fingerprint.ts) when `locHashes` is set and the reader had it; read it at once. */
  onUrl?: (entry: UrlEntry, at: EntryPosition, locHash?: Int32Array) => void;
  /** Ask for `onUrl`'s `locHash` where the reader computes it cheaply (its bulk lane). */
  locHashes?: boolean;
  onSitemap?: (ref: SitemapRef, at: EntryPosition) => void;
  /** Called when the format is known (at most a few characters into the input). */
  onFormat?: (format: SitemapFormat) => void;
  /** Asked after each chunk: true stops reading (and closes the input); the summary is of what was read. */
  stop?: () => boolean;
  /** The urls of the reader's fast path, written here as JSON lines instead of to `onUrl` (`sitemapkit read`). */
  urlLines?: JsonLines;
  /** With `locHashes`: the fast path's urls as loc spans instead of to `onUrl` (`discover`). */
  urlLocs?: ReaderSink['urlLocs'];
}

/** The text of bytes that are all ASCII, else undefined: a SIMD check and a copy, twice TextDecoder's speed. */
function asciiText(bytes: Uint8Array): string | undefined {
  return isAscii(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1') : undefined;
}

function inputError(what: string, error: unknown, hint = ''): SitemapError {
  if (error instanceof SitemapError) return error;
  const e = new SitemapError('ERR_SITEMAP_INPUT', `cannot read ${what}: ${ioErrorReason(error)}${hint}`);
  e.cause = error;
  return e;
}

/** For a string that names no file: a hint when it looks like XML or a URL passed by mistake. */
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
 * A file's bytes in READ_CHUNK pieces. A regular file is read on this thread (readSync: ~0.1 ms from the
 * page cache, less than a round trip to libuv's pool); anything else (a FIFO, /dev/stdin, whose open
 * waits for its writer, maybe this process) is opened on the pool and read through a stream.
 */
async function* fileChunks(path: string, shown: string, given: string): AsyncGenerator<Uint8Array> {
  const fd = regularFileFd(path);
  if (fd === undefined) {
    let handle: FileHandle;
    try {
      // node:fs/promises loaded here only: it took 1.1-1.5 ms of the start of every reading.
      const { open } = await import('node:fs/promises');
      handle = await open(path, 'r');
    } catch (error) {
      throw inputError(shown, error, pathHint(given, error));
    }
    // Read in order by a stream over the handle, which closes it.
    yield* iterableChunks(handle.createReadStream({ highWaterMark: READ_CHUNK }), shown);
    return;
  }
  // Reused: a 500 MB file read into fresh buffers kept ~7 MB of them waiting for the garbage collector.
  const ring: Buffer[] = [];
  try {
    for (let reads = 0; ; reads++) {
      const buffer = reads === 0 ? Buffer.allocUnsafe(READ_CHUNK) : (ring[reads % READ_RING] ??= Buffer.allocUnsafe(READ_CHUNK));
      const bytesRead = readSync(fd, buffer, 0, READ_CHUNK, null);
      if (bytesRead > 0) yield buffer.subarray(0, bytesRead);
      // A short read is the end of the file (as it was when read).
      if (bytesRead < READ_CHUNK) return;
      // Read on this thread, a large file would hold the event loop to its end, a Ctrl-C handler with it.
      if (reads % READS_PER_TURN === READS_PER_TURN - 1) await nextTurn();
    }
  } catch (error) {
    throw inputError(shown, error);
  } finally {
    closeSync(fd);
  }
}

/** `path` opened when a regular file; O_NONBLOCK keeps a FIFO swapped in between the calls from blocking. */
function regularFileFd(path: string): number | undefined {
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return undefined;
    const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    if (fstatSync(fd).isFile()) return fd;
    closeSync(fd);
  } catch {
    // Opened on the pool instead, which reports the error.
  }
  return undefined;
}

async function* iterableChunks(source: AsyncIterable<unknown>, shown: string): AsyncGenerator<Uint8Array> {
  for await (const chunk of rethrowing(source, (error) => inputError(shown, error))) yield toBytes(chunk);
}

function* sliced(bytes: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += SLICE) yield bytes.subarray(i, i + SLICE);
}

type Source = { kind: 'bytes'; chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>; file: string | undefined } | { kind: 'text'; text: string; file: string | undefined };

function sourceOf(input: SitemapInput, options: ParseSitemapOptions): Source {
  const fromPath = (path: string): Source => {
    if (path.length === 0) throw new SitemapError('ERR_SITEMAP_API', 'the sitemap path is empty');
    const full = options.cwd !== undefined ? resolve(options.cwd, path) : resolve(path);
    // Quoted and shortened when no file name (XML passed by mistake): the message stays one line.
    const shown = path.length > 200 || /[\x00-\x1f]/.test(path) ? quoteValue(path) : path;
    return { kind: 'bytes', chunks: fileChunks(full, options.file ?? shown, path), file: options.file ?? path };
  };
  const shown = options.file ?? 'the sitemap input';
  if (typeof input === 'string') return fromPath(input);
  if (input instanceof Uint8Array) return { kind: 'bytes', chunks: sliced(input), file: options.file };
  if (input instanceof ArrayBuffer) return { kind: 'bytes', chunks: sliced(new Uint8Array(input)), file: options.file };
  const o = input as Record<string | symbol, unknown> | null;
  if (typeof o === 'object' && o !== null) {
    if (typeof o[Symbol.asyncIterator] === 'function') return { kind: 'bytes', chunks: iterableChunks(o as unknown as AsyncIterable<unknown>, shown), file: options.file };
    if (typeof o.text === 'string') return { kind: 'text', text: o.text, file: options.file };
    if (typeof o.path === 'string') return fromPath(o.path);
  }
  throw new SitemapError(
    'ERR_SITEMAP_API',
    'parseSitemap needs a file path, { path }, { text }, bytes, a ReadableStream or an async iterable of chunks',
  );
}

/** The reader budgets are checked by SitemapDocument, these here. */
function checkOptions(options: ParseSitemapOptions): void {
  checkCount('maxBytes', options.maxBytes, 1);
  checkCount('maxCompressedBytes', options.maxCompressedBytes, 1);
  checkCount('maxGzipDepth', options.maxGzipDepth, 0);
  checkCount('gunzipChunkBytes', options.gunzipChunkBytes, 64);
}

/** The core's document reader with Node's fast ASCII check and copy. */
function documentFor(source: Source, options: ParseSitemapOptions, sink: ReaderSink): SitemapDocument {
  return new SitemapDocument({ ...options, file: source.file, isAscii, asciiText }, sink);
}

/** Drives the pipeline chunk by chunk; yields after each input chunk (the unit of batching). */
async function* drive(source: Source, options: ParseSitemapOptions, pipeline: SitemapDocument): AsyncGenerator<void> {
  if (source.kind === 'text') {
    const text = source.text;
    for (let i = 0; i < text.length && pipeline.wantsMore; i += SLICE) {
      pipeline.pushText(text.slice(i, i + SLICE));
      yield;
    }
    if (pipeline.wantsMore) pipeline.end();
    yield;
    return;
  }
  const chunks = source.chunks;
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      pipeline.bytesRead = (pipeline.bytesRead ?? 0) + chunk.length;
      yield chunk;
    }
  }
  let dense = true;
  const bytes = decompressed(counted(), {
    maxBytes: options.maxBytes,
    maxDepth: options.maxGzipDepth,
    maxCompressedBytes: options.maxCompressedBytes,
    chunkBytes: options.gunzipChunkBytes,
    onDiagnostic: (d) => pipeline.diagnostic(d),
  });
  try {
    for (;;) {
      let r: IteratorResult<Uint8Array>;
      try {
        r = await bytes.next();
      } catch (error) {
        const budget = error instanceof SitemapError && BYTE_BUDGET_CODES.has(error.rule ?? '');
        // A failed input (a body cut short) still hands out what was read whole before it, even in the sniffs' first KiB.
        pipeline.stop(budget ? error : undefined);
        yield;
        if (budget) return;
        throw error;
      }
      if (r.done === true) break;
      const chunk = r.value;
      // Dense input (and the first piece) is pushed in small pieces, each after the consumer caught up.
      for (let at = 0; at < chunk.length; ) {
        const wait = options.backpressure?.();
        if (wait !== undefined) await wait;
        const end: number = dense ? Math.min(chunk.length, at + DENSE_PIECE) : chunk.length;
        const part: Uint8Array = at === 0 && end === chunk.length ? chunk : chunk.subarray(at, end);
        at = end;
        const before = pipeline.diagnostics.total;
        pipeline.push(part);
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

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * One reading of a sitemap, read once, lazily: iterate it for the entries, or `batches()` for arrays of
 * them (the fast way), or await `summary()`. Breaking out stops reading and closes the input.
 */
export class SitemapReading implements AsyncIterable<SitemapItem> {
  private readonly pipeline: SitemapDocument;
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
    this.pipeline = documentFor(source, options, {
      format: () => {},
      url: (entry, at) => {
        if (this.collect) this.batch.push({ kind: 'url', entry, line: at.line, column: at.column });
      },
      sitemap: (ref, at) => {
        if (this.collect) this.batch.push({ kind: 'sitemap', ref, line: at.line, column: at.column });
      },
      diagnostic: options.onDiagnostic ?? (() => {}),
    });
    this.finished = new Promise<void>((resolve, reject) => {
      this.finishedResolve = resolve;
      this.finishedReject = reject;
    });
    this.finished.catch(() => {});
  }

  /** The diagnostics kept so far, at most `maxDiagnosticsPerCode` of each code (`onDiagnostic` gets every one). */
  get diagnostics(): readonly Diagnostic[] {
    return this.pipeline.diagnostics.retained;
  }

  /** The format, once known (after the first characters, or the root element for XML). */
  get format(): SitemapFormat | undefined {
    return this.pipeline.detected;
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

  /** The summary once reading is over (reading to the end first if nobody iterates); rejects with an I/O error. */
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
 * Read a sitemap as an async iterable of entries (a plain string is a file path; content goes in
 * `{ text }`), lazily. Problems of the input are diagnostics; exceptions are for I/O, options and misuse.
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
  const pipeline = documentFor(source, options, {
    format: onFormat ?? noop,
    url: onUrl ?? noop,
    sitemap: onSitemap ?? noop,
    diagnostic: onDiagnostic ?? noop,
    wantsLocHashes: options.locHashes === true,
    urlLines: options.urlLines,
    urlLocs: options.urlLocs,
  });
  // One step per input chunk.
  for await (const _ of drive(source, options, pipeline)) if (options.stop?.() === true) break;
  return pipeline.summary();
}
