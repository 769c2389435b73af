// Gunzip what needs it, by content (DESIGN.md "Sniff, don't trust"), within byte budgets checked while
// streaming ("Hostile input is normal input").
//
// - gzip is recognised by its magic bytes 1f 8b, never by Content-Type, Content-Encoding or `.gz`;
//   after a layer is gunzipped its output is sniffed again, so a gzip inside a gzip (a `.xml.gz` served
//   with `Content-Encoding: gzip` and saved as is) is unwrapped too, up to `maxDepth` layers.
// - Concatenated gzip members (RFC 1952 2.2, what `cat a.gz b.gz` and pigz produce) are read as one
//   stream. Zero bytes after the last member are ignored (padding); other bytes there are read as the
//   header of another member and fail as gzip/corrupt (Node's zlib), where gzip -d and libxml2 ignore them.
// - `createGunzip({ chunkSize })`, 256 KiB by default: 3× faster than zlib's 16 KiB (DESIGN.md "Measured").
// - Budgets, each its own `SitemapError` rule, thrown as soon as a chunk crosses the limit (after the
//   bytes up to the limit have been yielded), which stops the reading: a gzip bomb costs the budget
//   and a few hundred KiB of buffers, never its full size.
//   - `budget/decompressed-size`: more than `maxBytes` bytes out (default 100 MiB). Counted on the
//     final output (plain input included) and on every intermediate layer.
//   - `budget/compressed-size`: more than `maxCompressedBytes` bytes in. Output alone does not bound the
//     work: an endless run of empty gzip members (20 bytes each) produces nothing. The default,
//     `maxBytes` + 1/1024 + 4 KiB, is more than any gzip of at most `maxBytes` bytes of content needs
//     (stored blocks add 5 bytes per 64 KiB).
//   - `budget/gzip-depth`: a gzip layer deeper than `maxDepth` (default 2).
// - `gzip/corrupt`: zlib refused the data (truncated: "unexpected end of file"; a bad header, block or
//   CRC); the message says why. Other errors of the source (I/O) pass through unchanged.

import type { Gunzip } from 'node:zlib';
import { SitemapError } from '../core/errors.js';
import { checkCount } from '../core/read/document.js';
import { isGzip } from '../core/read/sniff.js';

export const DEFAULT_MAX_DECOMPRESSED_BYTES = 100 * 1024 * 1024;
export const DEFAULT_MAX_GZIP_DEPTH = 2;
const DEFAULT_CHUNK_BYTES = 256 * 1024;

export interface DecompressOptions {
  /** Bytes after decompression (of each layer and of the output), default 100 MiB. */
  maxBytes?: number;
  /** gzip layers unwrapped at most, default 2 (a gzip inside a gzip). 0 refuses gzip input. */
  maxDepth?: number;
  /** Bytes read from `source`, default `maxBytes` + `maxBytes / 1024` + 4 KiB. */
  maxCompressedBytes?: number;
  /** Most bytes in one gunzipped chunk, default 256 KiB (internal callers only: zlib takes 64 or more). */
  chunkBytes?: number;
}

/** `10485760 bytes (10 MiB)`. */
function describeBytes(n: number): string {
  if (n < 1024 * 1024) return `${n} bytes`;
  const mib = n / (1024 * 1024);
  return `${n} bytes (${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB)`;
}

/**
 * The bytes of `source`, gunzipped layer by layer while they start with the gzip magic bytes, within
 * the budgets above. Errors: `ERR_SITEMAP_INPUT` with rule `budget/decompressed-size`,
 * `budget/compressed-size`, `budget/gzip-depth` or `gzip/corrupt`; `ERR_SITEMAP_OPTION` for bad options.
 * Breaking out of the iteration stops the gunzip and closes `source`.
 */
export async function* decompressed(source: AsyncIterable<Uint8Array>, options: DecompressOptions = {}): AsyncGenerator<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_GZIP_DEPTH;
  checkCount('maxBytes', maxBytes, 1);
  checkCount('maxDepth', maxDepth, 0);
  const maxCompressed = options.maxCompressedBytes ?? maxBytes + Math.ceil(maxBytes / 1024) + 4096;
  checkCount('maxCompressedBytes', maxCompressed, 1);
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;

  const tooBig = (): SitemapError =>
    new SitemapError('ERR_SITEMAP_INPUT', `the decompressed sitemap is larger than the limit of ${describeBytes(maxBytes)}; reading stopped there`, 'budget/decompressed-size');
  const input = capped(source, maxCompressed, () =>
    new SitemapError('ERR_SITEMAP_INPUT', `the compressed input is larger than the limit of ${describeBytes(maxCompressed)}; reading stopped there`, 'budget/compressed-size'),
  );

  async function* layer(bytes: AsyncIterable<Uint8Array>, depth: number): AsyncGenerator<Uint8Array> {
    const it = bytes[Symbol.asyncIterator]();
    try {
      const head: Uint8Array[] = [];
      let length = 0;
      let done = false;
      while (length < 2) {
        const r = await it.next();
        if (r.done === true) {
          done = true;
          break;
        }
        if (r.value.length === 0) continue;
        head.push(r.value);
        length += r.value.length;
      }
      const first = head.length === 1 ? (head[0] as Uint8Array) : Buffer.concat(head);
      const all = replay(head, done ? undefined : it);
      if (!isGzip(first)) {
        yield* all;
        return;
      }
      if (depth >= maxDepth) {
        throw new SitemapError('ERR_SITEMAP_INPUT', `gzip nested more than ${maxDepth} deep (the limit); not decompressed`, 'budget/gzip-depth');
      }
      yield* layer(capped(gunzip(all, chunkBytes), maxBytes, tooBig), depth + 1);
    } finally {
      await it.return?.();
    }
  }

  yield* capped(layer(input, 0), maxBytes, tooBig);
}

/** The chunks already read, then the rest of the iterator (if any). */
async function* replay(head: Uint8Array[], rest: AsyncIterator<Uint8Array> | undefined): AsyncGenerator<Uint8Array> {
  yield* head;
  if (rest === undefined) return;
  for (;;) {
    const r = await rest.next();
    if (r.done === true) return;
    yield r.value;
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

/**
 * One gzip layer (all its members). Stopping the iteration destroys the gunzip and closes `source`.
 *
 * The input is written into the gunzip by a loop of our own rather than `stream.pipeline` and
 * `Readable.from`: the first call of those loads and compiles Node's pipeline machinery (2.1-2.9 ms
 * measured), which a cold gzip validation paid before its first byte (its first decompressed chunk
 * came 7.3-9.2 ms in this way, 9.6-12.3 ms that way).
 */
async function* gunzip(source: AsyncIterable<Uint8Array>, chunkBytes: number): AsyncGenerator<Uint8Array> {
  // Loaded here, where gzip is found: node:zlib took 0.4 ms of the start of every plain reading.
  const { createGunzip } = await import('node:zlib');
  const z = createGunzip({ chunkSize: chunkBytes });
  const feeding = feed(source, z);
  try {
    for await (const chunk of z) yield chunk as Uint8Array;
  } catch (error) {
    throw gzipError(error);
  } finally {
    z.destroy();
    // The source is closed (its iteration returned) before this layer is done.
    await feeding;
  }
}

/**
 * Writes `source` into `z` as fast as `z` takes it, then ends it. An error of the source destroys
 * `z` with it, which makes the reading of `z` throw it; a destroyed `z` (an error, or the reading
 * stopped) stops the writing and closes the source. Never rejects.
 */
async function feed(source: AsyncIterable<Uint8Array>, z: Gunzip): Promise<void> {
  try {
    for await (const chunk of source) {
      if (z.destroyed) return;
      if (!z.write(chunk)) await drainedOrClosed(z);
      if (z.destroyed) return;
    }
    z.end();
  } catch (error) {
    z.destroy(error as Error);
  }
}

/** Resolves at the next 'drain' or 'close' of `z`, whichever comes first. */
function drainedOrClosed(z: Gunzip): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      z.off('drain', done);
      z.off('close', done);
      resolve();
    };
    z.on('drain', done);
    z.on('close', done);
  });
}

function gzipError(error: unknown): unknown {
  if (error instanceof SitemapError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('Z_')) return error;
  const reason = error instanceof Error ? error.message : String(error);
  const why = reason === 'unexpected end of file' ? 'truncated (unexpected end of file)' : reason;
  return new SitemapError('ERR_SITEMAP_INPUT', `invalid gzip data: ${why}`, 'gzip/corrupt');
}
