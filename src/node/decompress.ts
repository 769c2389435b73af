// Gunzip by content (DESIGN.md "Sniff, don't trust": magic bytes 1f 8b, never a header or `.gz`), layer
// by layer up to `maxDepth`, within byte budgets checked while streaming: a gzip bomb costs the budget,
// never its full size. Concatenated members (RFC 1952 2.2) are one stream; bytes after the last member
// end the layer as gzip -d does: zero padding in silence, anything else with `gzip/trailing-garbage`.
// Errors (`ERR_SITEMAP_INPUT`): `budget/decompressed-size` (per layer and on the output),
// `budget/compressed-size` (an endless run of empty members produces no output), `budget/gzip-depth`,
// `gzip/corrupt`; the source's own I/O errors pass through.

import type { InflateRaw } from 'node:zlib';
import type { Diagnostic } from '../core/diagnostics.js';
import { SitemapError, checkCount } from '../core/errors.js';
import { isGzip } from '../core/read/sniff.js';

const DEFAULT_MAX_DECOMPRESSED_BYTES = 100 * 1024 * 1024;
const DEFAULT_MAX_GZIP_DEPTH = 2;
const DEFAULT_CHUNK_BYTES = 256 * 1024; // 3× faster than zlib's 16 KiB (DESIGN.md "Measured")

export interface DecompressOptions {
  /** Bytes after decompression (of each layer and of the output), default 100 MiB. */
  maxBytes?: number;
  /** gzip layers unwrapped at most, default 2 (a gzip inside a gzip). 0 refuses gzip input. */
  maxDepth?: number;
  /** Bytes read from `source`, default `maxBytes` + `maxBytes / 1024` + 4 KiB. */
  maxCompressedBytes?: number;
  /** Most bytes in one gunzipped chunk, default 256 KiB (internal callers only: zlib takes 64 or more). */
  chunkBytes?: number;
  /** Receives `gzip/trailing-garbage` (a warning, no position); the reading goes on. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/** `10485760 bytes (10 MiB)`. */
function describeBytes(n: number): string {
  if (n < 1024 * 1024) return n === 1 ? '1 byte' : `${n} bytes`;
  const mib = n / (1024 * 1024);
  return `${n} bytes (${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB)`;
}

/**
 * The bytes of `source`, gunzipped layer by layer while they start with the gzip magic bytes, within the
 * budgets above (each thrown once the bytes up to it are yielded). Breaking out closes `source`.
 */
export async function* decompressed(source: AsyncIterable<Uint8Array>, options: DecompressOptions = {}): AsyncGenerator<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_GZIP_DEPTH;
  checkCount('maxBytes', maxBytes, 1);
  checkCount('maxDepth', maxDepth, 0);
  const maxCompressed = options.maxCompressedBytes ?? Math.min(Number.MAX_SAFE_INTEGER, maxBytes + Math.ceil(maxBytes / 1024) + 4096);
  checkCount('maxCompressedBytes', maxCompressed, 1);
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;

  const tooBig = (): SitemapError =>
    new SitemapError('ERR_SITEMAP_INPUT', `the decompressed sitemap is larger than the limit of ${describeBytes(maxBytes)}; reading stopped there`, 'budget/decompressed-size');
  const input = capped(source, maxCompressed, () =>
    new SitemapError('ERR_SITEMAP_INPUT', `the compressed input is larger than the limit of ${describeBytes(maxCompressed)}; reading stopped there`, 'budget/compressed-size'),
  );

  async function* layer(bytes: AsyncIterable<Uint8Array>, depth: number): AsyncGenerator<Uint8Array> {
    const input = new Pieces(bytes);
    try {
      const magic = await input.take(2);
      input.unshift(magic);
      if (!isGzip(magic)) {
        yield* input;
        return;
      }
      if (depth >= maxDepth) {
        throw new SitemapError('ERR_SITEMAP_INPUT', `gzip nested more than ${maxDepth} deep (the limit); not decompressed`, 'budget/gzip-depth');
      }
      yield* layer(capped(gunzip(input, chunkBytes, options.onDiagnostic), maxBytes, tooBig), depth + 1);
    } finally {
      await input.close();
    }
  }

  yield* capped(layer(input, 0), maxBytes, tooBig);
}

/**
 * One gzip layer, for a `Content-Encoding: gzip` body: bytes after its members are ignored in silence,
 * as browsers do (Chromium's GzipSourceStream); a body that does not start as gzip is `gzip/corrupt`.
 */
export async function* gunzipped(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const input = new Pieces(source);
  try {
    const magic = await input.take(2);
    // No bytes at all are an empty body, as curl and browsers read them: no gzip data to be cut or corrupt.
    if (magic.length === 0) return;
    if (!isGzip(magic)) throw corrupt(magic.length < 2 ? TRUNCATED : 'incorrect header check');
    input.unshift(magic);
    yield* gunzip(input, DEFAULT_CHUNK_BYTES, undefined);
  } finally {
    await input.close();
  }
}

/** Passes at most `limit` bytes, then throws `error()`: the bytes up to the limit go through first. */
async function* capped(source: AsyncIterable<Uint8Array>, limit: number, error: () => SitemapError): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of source) {
    if (total + chunk.length > limit) {
      if (limit > total) yield chunk.subarray(0, limit - total);
      throw error();
    }
    total += chunk.length;
    yield chunk;
  }
}

/** FLG bits of a member header (RFC 1952 2.3.1); the three high bits are reserved. */
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
/** The header's fields ended by a zero byte: the file name, then the comment. */
const STRINGS = [FNAME, FCOMMENT];
const TRUNCATED = 'truncated (unexpected end of file)';
/** Bytes joined onto a short piece, and the most read by one Gunzip (see gunzip()). */
const JOIN_BYTES = 64 * 1024;
/** The first bytes of a gzip member: magic and CM (deflate). */
const MEMBER_START = Buffer.from([0x1f, 0x8b, 8]);

/**
 * One gzip layer: its members, until bytes that do not start another. zlib's Gunzip cannot say where a
 * member ends (it fails on trailing garbage, losing its last step's output), so members are framed here,
 * each piece (64 KiB at least) the first of three ways that reads something:
 * - the members before the last `1f 8b 08`, by one Gunzip (gunzipWhole), when they prove whole;
 * - the members lying whole at its start, synchronously (WholeMembers);
 * - one member by skipHeader and an InflateRaw of its own, its trailer checked here: a member that goes
 *   past the piece, or one that is wrong (the error is told here).
 */
async function* gunzip(input: Pieces, chunkBytes: number, onDiagnostic: ((d: Diagnostic) => void) | undefined): AsyncGenerator<Uint8Array> {
  // Loaded here, where gzip is found: node:zlib took 0.4 ms of the start of every plain reading.
  const zlib = await import('node:zlib');
  const whole = new WholeMembers(zlib, chunkBytes);
  // Output bytes from here on that a Gunzip step yielded before it failed: not yielded twice.
  let skip = 0;
  const fresh = (chunk: Uint8Array): Uint8Array => {
    const n = Math.min(skip, chunk.length);
    skip -= n;
    return n === 0 ? chunk : chunk.subarray(n);
  };
  try {
    for (;;) {
      let piece = await input.next();
      if (piece === undefined) return;
      if (piece.length < JOIN_BYTES) {
        // Likely to end inside a member (the rest of a piece read before): the next piece joined on.
        input.unshift(piece);
        piece = await input.take(piece.length + JOIN_BYTES);
      }
      const cut = Buffer.from(piece.buffer, piece.byteOffset, piece.length).lastIndexOf(MEMBER_START, JOIN_BYTES);
      if (cut > 0) {
        const before = skip;
        let produced = 0;
        const step = { whole: false };
        for await (const chunk of gunzipWhole(zlib, piece.subarray(0, cut), chunkBytes, step)) {
          produced += chunk.length;
          const out = fresh(chunk);
          if (out.length > 0) yield out;
        }
        if (step.whole) {
          input.unshift(piece.subarray(cut));
          continue;
        }
        // Not whole members: the framing below reads the same bytes, and drops what was yielded.
        skip = Math.max(before, produced);
      }
      const read = whole.read(piece);
      input.unshift(piece.subarray(read.taken));
      const out = fresh(read.output);
      if (out.length > 0) yield out;
      if (read.taken > 0) continue;
      const magic = await input.take(2);
      if (!isGzip(magic)) {
        await ignoreTrailing(input, magic, onDiagnostic);
        return;
      }
      await skipHeader(input, magic, zlib.crc32);
      let crc = 0;
      let size = 0;
      for await (const chunk of inflated(input, zlib.createInflateRaw({ chunkSize: chunkBytes }))) {
        crc = zlib.crc32(chunk, crc);
        size += chunk.length;
        const out = fresh(chunk);
        if (out.length > 0) yield out;
      }
      const trailer = await input.take(8);
      if (trailer.length < 8) throw corrupt(TRUNCATED);
      if (uint32(trailer, 0) !== crc) throw corrupt('incorrect data check');
      if (uint32(trailer, 4) !== size % 2 ** 32) throw corrupt('incorrect length check');
    }
  } finally {
    whole.close();
  }
}

/**
 * The output of `bytes` through one Gunzip; `step.whole` then says whether they were whole, right gzip
 * members and nothing else. Their inflating and CRC-32 stay in zlib's thread pool, ahead of the reader
 * (5,000 members of 2 KB: 25-30 ms of this thread's CPU, against 44 through WholeMembers).
 */
async function* gunzipWhole(zlib: typeof import('node:zlib'), bytes: Uint8Array, chunkBytes: number, step: { whole: boolean }): AsyncGenerator<Uint8Array> {
  const z = zlib.createGunzip({ chunkSize: chunkBytes });
  z.end(bytes);
  try {
    for await (const chunk of z) yield chunk as Uint8Array;
    step.whole = z.bytesWritten === bytes.length;
  } catch {
    // Not whole members (zlib's error): step.whole stays false.
  } finally {
    z.destroy();
  }
}

/** The part of a zlib engine's native handle that WholeMembers drives, as Node's zlib.js drives it. */
interface NativeZlib {
  writeSync(flush: number, input: Uint8Array, inOffset: number, inLength: number, output: Uint8Array, outOffset: number, outLength: number): void;
}

/**
 * Reads, synchronously, the gzip members lying whole at the start of a piece, with one raw-inflate
 * engine reset between members: under a microsecond a member, where an engine of its own costs 40-60 µs
 * (which a run of empty members would multiply). Node has no public way to run one engine synchronously
 * twice, so this drives its native handle as zlib.js does (`_handle.writeSync`, `_writeState`); where
 * that is missing, every member takes the slow way.
 */
class WholeMembers {
  private engine: InflateRaw | undefined;
  private output: Buffer;

  constructor(
    private readonly zlib: typeof import('node:zlib'),
    private readonly limit: number,
  ) {
    this.output = Buffer.allocUnsafe(limit);
  }

  /**
   * The output (at most `limit` bytes) of the whole, right members at the start of `piece`, and the bytes
   * they took. A member that goes past the piece or `limit`, or is wrong, ends the pass (the slow way tells why).
   */
  read(piece: Uint8Array): { output: Uint8Array; taken: number } {
    const { zlib, limit, output } = this;
    if (this.engine === undefined || this.engine.destroyed) {
      this.engine = zlib.createInflateRaw();
      // Bad deflate data destroys the engine with an error, emitted later: the slow way tells it.
      this.engine.on('error', () => {});
    }
    const engine = this.engine as InflateRaw & { _handle?: Partial<NativeZlib>; _writeState?: Uint32Array };
    const handle = engine._handle;
    const state = engine._writeState;
    let taken = 0;
    let produced = 0;
    while (typeof handle?.writeSync === 'function' && state !== undefined && produced < limit) {
      const data = headerEnd(piece, taken, zlib.crc32);
      if (data < 0) break;
      engine.reset();
      handle.writeSync(zlib.constants.Z_NO_FLUSH, piece, data, piece.length - data, output, produced, limit - produced);
      if (engine.destroyed) break;
      const outLeft = state[0] as number;
      const inLeft = state[1] as number;
      // Input left while there was room for output: zlib stopped at the end of the deflate data.
      if (inLeft === 0 || outLeft === 0) break;
      const end = piece.length - inLeft + 8;
      const size = limit - produced - outLeft;
      if (end > piece.length || uint32(piece, end - 4) !== size) break;
      if (uint32(piece, end - 8) !== (size === 0 ? 0 : zlib.crc32(output.subarray(produced, produced + size)))) break;
      produced += size;
      taken = end;
    }
    if (produced === 0) return { output: EMPTY, taken };
    this.output = Buffer.allocUnsafe(limit);
    return { output: output.subarray(0, produced), taken };
  }

  close(): void {
    this.engine?.close();
  }
}

const EMPTY = new Uint8Array(0);

/** The little-endian 32-bit number at `at` (RFC 1952 2.1). */
function uint32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16) | ((bytes[at + 3] as number) << 24)) >>> 0;
}

/**
 * Where the deflate data of the member whose header starts at `at` begins, when the header lies whole
 * in `bytes` and is right (RFC 1952 2.3.1); -1 otherwise (skipHeader reads it, and says what is wrong).
 */
function headerEnd(bytes: Uint8Array, at: number, crc32: (data: Uint8Array) => number): number {
  if (at + 10 > bytes.length || bytes[at] !== 0x1f || bytes[at + 1] !== 0x8b || bytes[at + 2] !== 8) return -1;
  const flags = bytes[at + 3] as number;
  if ((flags & 0xe0) !== 0) return -1;
  let end = at + 10;
  if ((flags & FEXTRA) !== 0) end += 2 + ((bytes[end] as number) | ((bytes[end + 1] as number) << 8));
  for (const flag of STRINGS) {
    if ((flags & flag) === 0) continue;
    const zero = bytes.indexOf(0, end);
    end = zero < 0 ? bytes.length + 1 : zero + 1;
  }
  if ((flags & FHCRC) !== 0) {
    end += 2;
    if (end <= bytes.length && (crc32(bytes.subarray(at, end - 2)) & 0xffff) !== ((bytes[end - 2] as number) | ((bytes[end - 1] as number) << 8))) return -1;
  }
  return end <= bytes.length ? end : -1;
}

/** Reads past a member's header after its magic bytes (RFC 1952 2.3.1), refusing what zlib refuses. */
async function skipHeader(input: Pieces, magic: Uint8Array, crc32: (data: Uint8Array, value?: number) => number): Promise<void> {
  let crc = crc32(magic);
  const field = async (length: number): Promise<Uint8Array> => {
    const bytes = await input.take(length);
    if (bytes.length < length) throw corrupt(TRUNCATED);
    // Not for no bytes (an empty FEXTRA): zlib.crc32 of an empty view of no memory is 0, not `crc`.
    if (length > 0) crc = crc32(bytes, crc);
    return bytes;
  };
  // CM, FLG, MTIME, XFL, OS
  const fixed = await field(8);
  if (fixed[0] !== 8) throw corrupt('unknown compression method');
  const flags = fixed[1] as number;
  if ((flags & 0xe0) !== 0) throw corrupt('unknown header flags set');
  if ((flags & FEXTRA) !== 0) {
    const xlen = await field(2);
    await field((xlen[0] as number) | ((xlen[1] as number) << 8));
  }
  // File name and comment, each ended by a zero byte.
  for (const flag of STRINGS) {
    if ((flags & flag) === 0) continue;
    for (let end = -1; end < 0; ) {
      const piece = await input.next();
      if (piece === undefined) throw corrupt(TRUNCATED);
      end = piece.indexOf(0);
      crc = crc32(end < 0 ? piece : piece.subarray(0, end + 1), crc);
      if (end >= 0) input.unshift(piece.subarray(end + 1));
    }
  }
  if ((flags & FHCRC) !== 0) {
    const stored = await input.take(2);
    if (stored.length < 2) throw corrupt(TRUNCATED);
    if (((stored[0] as number) | ((stored[1] as number) << 8)) !== (crc & 0xffff)) throw corrupt('header crc mismatch');
  }
}

/** After the last member: zero padding passes in silence, anything else is `gzip/trailing-garbage` (as gzip -d). */
async function ignoreTrailing(input: Pieces, first: Uint8Array, onDiagnostic: ((d: Diagnostic) => void) | undefined): Promise<void> {
  const at = input.offset - first.length;
  for (let piece: Uint8Array | undefined = first; piece !== undefined; piece = await input.next()) {
    if (!piece.some((byte) => byte !== 0)) continue;
    onDiagnostic?.({
      code: 'gzip/trailing-garbage',
      severity: 'warning',
      message: `bytes after the end of the gzip data (from byte ${at}) that do not start another gzip member: ignored`,
      hint: 'something appended them after compression (a server, an upload, block padding); compress the file again',
    });
    return;
  }
}

/** A layer's output from `z`, fed from `input` by `feed`; zlib's errors become gzip/corrupt. */
async function* inflated(input: Pieces, z: InflateRaw): AsyncGenerator<Uint8Array> {
  const feeding = feed(input, z);
  try {
    for await (const chunk of z) yield chunk as Uint8Array;
  } catch (error) {
    throw gzipError(error);
  } finally {
    z.destroy();
    // The input is left as the feeding left it (the rest of a piece put back) before reading on.
    await feeding;
  }
}

/**
 * Writes the pieces of `input` into `z`, each once zlib has taken the one before, then ends it. Where zlib
 * took less than a piece, the deflate data ended or `z` was destroyed: the rest goes back into `input`.
 * A source error destroys `z` with it (its reading throws it). Never rejects. Not `stream.pipeline`:
 * its first call compiles Node's pipeline machinery (2-3 ms before a cold gzip validation's first byte).
 */
async function feed(input: Pieces, z: InflateRaw): Promise<void> {
  try {
    for (let piece = await input.next(); piece !== undefined; piece = await input.next()) {
      const before = z.bytesWritten;
      if (!z.destroyed) await takenOrClosed(z, piece);
      const taken = z.bytesWritten - before;
      if (taken < piece.length) {
        input.unshift(piece.subarray(taken));
        break;
      }
    }
    if (!z.destroyed) z.end();
  } catch (error) {
    z.destroy(error as Error);
  }
}

/** Writes `piece` into `z`; resolves when zlib has taken it or `z` closed, whichever comes first. */
function takenOrClosed(z: InflateRaw, piece: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      z.off('close', done);
      resolve();
    };
    z.on('close', done);
    z.write(piece, done);
  });
}

/** A source read piece by piece, where what was not used can be put back. */
class Pieces {
  /** Bytes handed out and not put back: the offset of the next byte in the layer's input. */
  offset = 0;
  private back: Uint8Array | undefined;
  private readonly it: AsyncIterator<Uint8Array>;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.it = source[Symbol.asyncIterator]();
  }

  /** The next bytes (never empty), or undefined at the end. */
  async next(): Promise<Uint8Array | undefined> {
    let piece = this.back;
    this.back = undefined;
    while (piece === undefined || piece.length === 0) {
      const r = await this.it.next();
      if (r.done === true) return undefined;
      piece = r.value;
    }
    this.offset += piece.length;
    return piece;
  }

  /** Puts `bytes` back in front of the input: a view just before what is back joins it without a copy. */
  unshift(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const back = this.back;
    if (back === undefined) this.back = bytes;
    else if (bytes.buffer === back.buffer && bytes.byteOffset + bytes.length === back.byteOffset) this.back = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length + back.length);
    else this.back = Buffer.concat([bytes, back]);
    this.offset -= bytes.length;
  }

  /** The next `length` bytes; fewer at the end. */
  async take(length: number): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    let have = 0;
    while (have < length) {
      const piece = await this.next();
      if (piece === undefined) break;
      parts.push(piece);
      have += piece.length;
    }
    const all = parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts);
    this.unshift(all.subarray(length));
    return all.subarray(0, length);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    for (let piece = await this.next(); piece !== undefined; piece = await this.next()) yield piece;
  }

  async close(): Promise<void> {
    await this.it.return?.();
  }
}

function corrupt(reason: string): SitemapError {
  return new SitemapError('ERR_SITEMAP_INPUT', `invalid gzip data: ${reason}`, 'gzip/corrupt');
}

function gzipError(error: unknown): unknown {
  if (error instanceof SitemapError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('Z_')) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return corrupt(reason === 'unexpected end of file' ? TRUNCATED : reason);
}
