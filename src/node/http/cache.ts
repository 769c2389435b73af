// Conditional requests: each document fetched with 200 is stored with its ETag and Last-Modified, sent
// back on the next run (RFC 9110 §13.1), and a 304 reads the stored copy. One entry per URL that answered
// (a redirect's answer is not kept: asked again each time, it cannot send a moved URL to an old copy):
// `<sha256 of the URL>.json` and `.body` (as fetch handed it: Content-Encoding undone, a gzip file
// still gzipped), written to a temporary file and renamed only when whole (DESIGN.md "Never lose data").

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ioErrorReason } from '../io-errors.js';
import { ensureDirectory } from '../staged-output.js';
import type { HttpBody } from './client.js';

interface CachedDocument {
  url: string;
  etag?: string;
  lastModified?: string;
  storedAt: string;
  bytes: number;
}

function keyOf(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}

export class HttpCache {
  /** The directory made, at the first document stored. */
  private ready: Promise<unknown> | undefined;

  constructor(readonly dir: string) {}

  /**
   * The headers that make a request for `url` conditional on what is stored (RFC 9110 §13.1); none
   * unless its body is there whole (else a 304 would have nothing to read).
   */
  async conditionalHeaders(url: string): Promise<Record<string, string> | undefined> {
    try {
      const key = keyOf(url);
      const meta = JSON.parse(await readFile(join(this.dir, `${key}.json`), 'utf8')) as CachedDocument;
      if (meta.url !== url || (await stat(join(this.dir, `${key}.body`))).size !== meta.bytes) return undefined;
      return { ...(meta.etag !== undefined ? { 'if-none-match': meta.etag } : {}), ...(meta.lastModified !== undefined ? { 'if-modified-since': meta.lastModified } : {}) };
    } catch {
      return undefined;
    }
  }

  /** The stored body, in large chunks. */
  body(url: string): AsyncIterable<Uint8Array> {
    return createReadStream(join(this.dir, `${keyOf(url)}.body`), { highWaterMark: 256 * 1024 });
  }

  /** Drops what is stored for `url` (a body that turned out to be cut short). */
  async forget(url: string): Promise<void> {
    const key = keyOf(url);
    await rm(join(this.dir, `${key}.json`), { force: true });
    await rm(join(this.dir, `${key}.body`), { force: true });
  }

  /** Passes `body` through and stores it under `url` once read to the end, if it has a validator. */
  async *recording(url: string, headers: Headers, body: HttpBody): AsyncGenerator<Uint8Array> {
    const etag = headers.get('etag') ?? undefined;
    const lastModified = headers.get('last-modified') ?? undefined;
    if (etag === undefined && lastModified === undefined) {
      yield* body;
      return;
    }
    const key = keyOf(url);
    const temp = join(this.dir, `.${key}.${process.pid}.tmp`);
    let file: FileHandle;
    try {
      await (this.ready ??= ensureDirectory(this.dir));
      file = await open(temp, 'w');
    } catch (error) {
      // Unread, the body would hold its connection, and the run, open for good.
      await body.cancel();
      throw new Error(`the cache folder ${this.dir}: ${ioErrorReason(error)}`, { cause: error });
    }
    let bytes = 0;
    let complete = false;
    try {
      for await (const chunk of body) {
        await file.write(chunk);
        bytes += chunk.byteLength;
        yield chunk;
      }
      complete = true;
    } finally {
      await file.close();
      if (complete) {
        // A validator the response lacks is undefined, which JSON.stringify leaves out.
        const meta: CachedDocument = { url, etag, lastModified, storedAt: new Date().toISOString(), bytes };
        await rename(temp, join(this.dir, `${key}.body`));
        await writeFile(join(this.dir, `${key}.json`), `${JSON.stringify(meta)}\n`);
      } else {
        await rm(temp, { force: true });
      }
    }
  }
}
