// Writes (and gzips) files on a worker thread so that building XML on the main thread and
// compressing overlap on a 2-core machine (DESIGN.md: async zlib driven from a busy main thread does
// not overlap; a worker does). Chunks are transferred, not copied; a bounded number are in flight.

import { Worker } from 'node:worker_threads';
import { SitemapError } from '../core/errors.js';

// The worker is plain CommonJS run with `eval: true`, so it works the same from the TypeScript
// sources (tests through tsx) and from the compiled package.
const WORKER_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const zlib = require('node:zlib');
const files = new Map();
let failed = false;

function fail(id, error) {
  if (failed) return;
  failed = true;
  parentPort.postMessage({ type: 'error', id, code: error && error.code, message: String(error && error.message || error) });
}

function writeAll(fd, bytes) {
  let offset = 0;
  while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
}

parentPort.on('message', (m) => {
  if (failed) return;
  try {
    if (m.type === 'open') {
      const f = { fd: fs.openSync(m.path, 'w'), teeFd: m.teePath ? fs.openSync(m.teePath, 'w') : -1, out: 0, gzip: null, id: m.id };
      if (m.gzip) {
        f.gzip = zlib.createGzip({ level: m.level, chunkSize: 256 * 1024 });
        f.gzip.on('data', (d) => { try { writeAll(f.fd, d); f.out += d.length; } catch (e) { fail(f.id, e); } });
        f.gzip.on('error', (e) => fail(f.id, e));
      }
      files.set(m.id, f);
    } else if (m.type === 'chunk') {
      const f = files.get(m.id);
      const bytes = new Uint8Array(m.buffer, 0, m.length);
      if (f.teeFd >= 0) writeAll(f.teeFd, bytes);
      if (f.gzip) {
        f.gzip.write(bytes, () => parentPort.postMessage({ type: 'ack' }));
      } else {
        writeAll(f.fd, bytes);
        f.out += bytes.length;
        parentPort.postMessage({ type: 'ack' });
      }
    } else if (m.type === 'close') {
      const f = files.get(m.id);
      const done = () => {
        try {
          fs.closeSync(f.fd);
          if (f.teeFd >= 0) fs.closeSync(f.teeFd);
          files.delete(m.id);
          parentPort.postMessage({ type: 'closed', id: m.id, bytes: f.out });
        } catch (e) { fail(m.id, e); }
      };
      if (f.gzip) { f.gzip.on('end', done); f.gzip.end(); } else done();
    }
  } catch (e) {
    fail(m.id, e);
  }
});
`;

interface WorkerMessage {
  type: 'ack' | 'closed' | 'error';
  id?: number;
  bytes?: number;
  code?: string;
  message?: string;
}

export interface BackgroundWriterOptions {
  /** gzip level 1–9; 0 writes plain files. */
  gzipLevel: number;
  /** Chunks handed over but not yet written before `whenWritable` waits. */
  maxInFlight?: number;
}

/** One worker thread that writes files from transferred chunks, optionally gzipping them. */
export class BackgroundWriter {
  private readonly worker: Worker;
  private readonly gzipLevel: number;
  private readonly maxInFlight: number;
  private inFlight = 0;
  private nextId = 1;
  private error: SitemapError | undefined;
  private readonly closing = new Map<number, { resolve: (bytes: number) => void; reject: (e: Error) => void }>();
  private waiter: (() => void) | undefined;
  private readonly paths = new Map<number, string>();

  constructor(options: BackgroundWriterOptions) {
    this.gzipLevel = options.gzipLevel;
    this.maxInFlight = options.maxInFlight ?? 8;
    this.worker = new Worker(WORKER_SOURCE, { eval: true });
    this.worker.on('message', (m: WorkerMessage) => this.onMessage(m));
    this.worker.on('error', (e) => this.onFailure(new SitemapError('ERR_SITEMAP_WRITE', `file writer failed: ${e.message}`)));
  }

  /** Starts a file; `teePath` also receives the uncompressed bytes. Returns its id. */
  open(path: string, teePath?: string): number {
    this.throwIfFailed();
    const id = this.nextId++;
    this.paths.set(id, path);
    this.worker.postMessage({ type: 'open', id, path, teePath, gzip: this.gzipLevel > 0, level: this.gzipLevel });
    return id;
  }

  /** Hands `bytes` to the worker; the buffer is transferred and must not be used afterwards. */
  write(id: number, bytes: Uint8Array): void {
    this.throwIfFailed();
    let buffer = bytes.buffer as ArrayBuffer;
    if (bytes.byteOffset !== 0 || bytes.byteLength !== buffer.byteLength) buffer = bytes.slice().buffer as ArrayBuffer;
    this.inFlight++;
    this.worker.postMessage({ type: 'chunk', id, buffer, length: bytes.byteLength }, [buffer]);
  }

  /** Finishes a file; resolves with its size on disk. */
  close(id: number): Promise<number> {
    this.throwIfFailed();
    return new Promise((resolve, reject) => {
      this.closing.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'close', id });
    });
  }

  /** True when the caller should `await whenWritable()` before writing more. */
  get full(): boolean {
    return this.inFlight >= this.maxInFlight;
  }

  /** Resolves once fewer than `maxInFlight` chunks are pending; rejects if the worker failed. */
  whenWritable(): Promise<void> {
    if (this.error !== undefined) return Promise.reject(this.error);
    if (!this.full) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiter = () => (this.error !== undefined ? reject(this.error) : resolve());
    });
  }

  async destroy(): Promise<void> {
    await this.worker.terminate();
  }

  private throwIfFailed(): void {
    if (this.error !== undefined) throw this.error;
  }

  private onMessage(m: WorkerMessage): void {
    if (m.type === 'ack') {
      this.inFlight--;
      if (this.waiter !== undefined && !this.full) this.wake();
    } else if (m.type === 'closed') {
      const pending = this.closing.get(m.id as number);
      this.closing.delete(m.id as number);
      pending?.resolve(m.bytes as number);
    } else {
      const path = this.paths.get(m.id as number) ?? 'output';
      const reason = m.code === 'ENOSPC' ? 'no space left on device' : m.message;
      this.onFailure(new SitemapError('ERR_SITEMAP_WRITE', `cannot write ${path}: ${reason}`));
    }
  }

  private onFailure(error: SitemapError): void {
    if (this.error === undefined) this.error = error;
    for (const pending of this.closing.values()) pending.reject(error);
    this.closing.clear();
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }
}
