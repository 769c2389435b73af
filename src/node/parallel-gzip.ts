// A pigz-style parallel gzip file writer: each block of a file is deflated on its own on one of several
// worker threads, primed with the last 32 KiB of the file's earlier input as a dictionary and ended
// with a sync flush (byte-aligned, not final). Concatenated in order, the pieces form one deflate
// stream; the main thread wraps it in a gzip header and trailer, combining the workers' per-block
// CRCs with crc32Combine. So a 2-core machine compresses one file on both cores while the main
// thread builds the XML (DESIGN.md "Measured on these machines": gzip is the bottleneck).
// Callers open files, hand over blocks in order, and wait on `full`/`whenWritable` for backpressure.

import { open as openFile, type FileHandle } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { SitemapError } from '../core/errors.js';
import { crc32Combine } from './crc32-combine.js';

// Plain CommonJS run with `eval: true`, so it works from the TypeScript sources (tests through tsx)
// and from the compiled package alike.
const WORKER_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
const zlib = require('node:zlib');
const SYNC_FLUSH = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
parentPort.on('message', (m) => {
  try {
    const input = new Uint8Array(m.buffer);
    const crc = zlib.crc32(input);
    const options = { level: m.level, finishFlush: SYNC_FLUSH.finishFlush };
    if (m.dictionary !== undefined) options.dictionary = m.dictionary;
    const deflated = zlib.deflateRawSync(input, options);
    // The result may be a view into a larger or pooled ArrayBuffer: send an exact copy then.
    let out = deflated;
    if (deflated.byteOffset !== 0 || deflated.buffer.byteLength !== deflated.byteLength) {
      out = new Uint8Array(deflated.byteLength);
      out.set(deflated);
    }
    // The plain bytes go back too, for the main thread to drop: a worker allocates almost nothing
    // on its own heap, so garbage left here would wait long for a GC.
    parentPort.postMessage({ type: 'done', file: m.file, seq: m.seq, crc, length: input.byteLength, out: out.buffer, input: m.buffer }, [out.buffer, m.buffer]);
  } catch (e) {
    parentPort.postMessage({ type: 'error', file: m.file, seq: m.seq, code: e && e.code, message: String((e && e.message) || e) });
  }
});
`;

const WINDOW = 32 * 1024; // deflate's window: the most a back-reference can reach
/** gzip header: magic, CM=8 (deflate), no flags, mtime 0, XFL 0, OS 3 (unix). */
const GZIP_HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3);
/** An empty final fixed-Huffman block: BFINAL=1, BTYPE=01, end-of-block. Ends the deflate stream. */
const FINAL_BLOCK = Uint8Array.of(0x03, 0x00);
/** Most buffers handed to one writev call. */
const MAX_BATCH = 64;

export interface ParallelFileWriterOptions {
  /** gzip level 1–9; 0 writes plain files (no workers needed). */
  gzipLevel: number;
  /** Compression worker threads; default os.availableParallelism(). */
  workers?: number;
  /** Blocks handed over but not yet written to disk, before `full` turns true; default 2 × workers + 2. */
  maxPendingBlocks?: number;
}

interface WorkerDone {
  type: 'done';
  file: number;
  seq: number;
  crc: number;
  length: number;
  out: ArrayBuffer;
  /** The block's plain bytes, handed back only so they are freed on the main thread. */
  input: ArrayBuffer;
}

interface WorkerFailed {
  type: 'error';
  file: number;
  seq: number;
  code?: string;
  message: string;
}

interface Piece {
  /** Bytes for the file (deflated, or plain at level 0). */
  out: Uint8Array;
  crc: number;
  length: number;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

interface OpenFile {
  id: number;
  path: string;
  handle: FileHandle | undefined;
  /** Settles (never rejects) once the handle is open or opening failed. */
  ready: Promise<void>;
  /** Blocks handed over so far: the next block's sequence number. */
  dispatched: number;
  /** Blocks written to disk so far: the sequence number the reorder buffer waits for. */
  written: number;
  /** Finished blocks that arrived ahead of their turn, by sequence number. */
  pieces: Map<number, Piece>;
  /** The last ≤ 32 KiB of the input so far: the next block's dictionary. */
  window: Uint8Array | undefined;
  crc: number;
  /** Uncompressed bytes written so far. */
  length: number;
  diskBytes: number;
  headerWritten: boolean;
  pumping: boolean;
  closing: Deferred<number> | undefined;
}

interface Slot {
  worker: Worker;
  /** Blocks sent and not yet answered. */
  jobs: number;
  /** Bytes sent and not yet answered: the load used to pick a worker. */
  load: number;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // The error also reaches whenWritable/write/close; a close promise nobody awaits must not crash
  // the process with an unhandled rejection. Awaiting it still rejects.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** A copy of `bytes[start..]` in a new ArrayBuffer (Buffer#slice would return a view, not a copy). */
function copyOf(bytes: Uint8Array, start = 0): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes.byteLength - start);
  copy.set(bytes.subarray(start));
  return copy;
}

/** An exactly sized ArrayBuffer holding `bytes`, to be transferred: its own buffer, or a copy. */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const buffer = bytes.buffer;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) return buffer;
  return copyOf(bytes).buffer;
}

async function writeAll(handle: FileHandle, chunks: Uint8Array[]): Promise<number> {
  let total = 0;
  for (const chunk of chunks) total += chunk.byteLength;
  let written = 0;
  let rest = chunks;
  while (written < total) {
    const { bytesWritten } = rest.length === 1 ? await handle.write(rest[0] as Uint8Array) : await handle.writev(rest);
    if (bytesWritten <= 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    written += bytesWritten;
    if (written < total) {
      // Partial write: drop what went out and go on with the remainder.
      let skip = bytesWritten;
      const next: Uint8Array[] = [];
      for (const chunk of rest) {
        if (skip >= chunk.byteLength) skip -= chunk.byteLength;
        else {
          next.push(skip > 0 ? chunk.subarray(skip) : chunk);
          skip = 0;
        }
      }
      rest = next;
    }
  }
  return total;
}

/**
 * Writes several files at once from blocks handed over in order, gzipping them on a pool of worker
 * threads (pigz-style: blocks compressed in parallel, one valid gzip member per file).
 */
export class ParallelFileWriter {
  private readonly gzipLevel: number;
  private readonly workerCount: number;
  private readonly maxPendingBlocks: number;
  private readonly slots: Slot[] = [];
  private readonly files = new Map<number, OpenFile>();
  private nextId = 1;
  /** Blocks handed over and not yet written to disk. */
  private pending = 0;
  private error: SitemapError | undefined;
  private destroyed = false;
  private waiters: Deferred<void>[] = [];

  constructor(options: ParallelFileWriterOptions) {
    const level = options.gzipLevel;
    if (!Number.isInteger(level) || level < 0 || level > 9) throw new SitemapError('ERR_SITEMAP_OPTION', `gzip level must be 0 to 9, got ${level}`);
    const workers = options.workers ?? availableParallelism();
    if (!Number.isInteger(workers) || workers < 1) throw new SitemapError('ERR_SITEMAP_OPTION', `workers must be a whole number of at least 1, got ${workers}`);
    const maxPending = options.maxPendingBlocks ?? 2 * workers + 2;
    if (!Number.isInteger(maxPending) || maxPending < 1) throw new SitemapError('ERR_SITEMAP_OPTION', `maxPendingBlocks must be a whole number of at least 1, got ${maxPending}`);
    this.gzipLevel = level;
    this.workerCount = level === 0 ? 0 : workers;
    this.maxPendingBlocks = maxPending;
  }

  /** Starts a file and returns its id; several files may be open at once. */
  open(path: string): number {
    this.throwIfFailed();
    const id = this.nextId++;
    const file: OpenFile = {
      id,
      path,
      handle: undefined,
      ready: Promise.resolve(),
      dispatched: 0,
      written: 0,
      pieces: new Map(),
      window: undefined,
      crc: 0,
      length: 0,
      diskBytes: 0,
      headerWritten: this.gzipLevel === 0,
      pumping: false,
      closing: undefined,
    };
    file.ready = (async () => {
      let handle: FileHandle;
      try {
        handle = await openFile(path, 'w');
      } catch (error) {
        this.fail(file, error);
        return;
      }
      if (this.error !== undefined) {
        handle.close().catch(() => {});
        return;
      }
      file.handle = handle;
    })();
    this.files.set(id, file);
    return id;
  }

  /**
   * Hands over the next block of file `id`. Its buffer is transferred to a worker: the caller must not
   * use it afterwards. Empty blocks are accepted and ignored.
   */
  write(id: number, bytes: Uint8Array): void {
    this.throwIfFailed();
    const file = this.openFileOf(id);
    if (file.closing !== undefined) throw new SitemapError('ERR_SITEMAP_WRITE', `cannot write ${file.path}: the file is already closed`);
    if (bytes.byteLength === 0) return;
    const seq = file.dispatched++;
    this.pending++;
    if (this.gzipLevel === 0) {
      // Plain: already in order; the bytes go to the file as they are.
      file.pieces.set(seq, { out: bytes, crc: 0, length: bytes.byteLength });
      void this.pump(file);
      return;
    }
    const dictionary = file.window;
    // The next block's dictionary, copied before the block's buffer goes away.
    if (bytes.byteLength >= WINDOW || dictionary === undefined) {
      file.window = copyOf(bytes, Math.max(0, bytes.byteLength - WINDOW));
    } else {
      const keep = Math.min(dictionary.byteLength, WINDOW - bytes.byteLength);
      const window = new Uint8Array(keep + bytes.byteLength);
      window.set(dictionary.subarray(dictionary.byteLength - keep), 0);
      window.set(bytes, keep);
      file.window = window;
    }
    const buffer = ownBuffer(bytes);
    const slot = this.pickSlot();
    if (slot.jobs++ === 0) slot.worker.ref();
    slot.load += buffer.byteLength;
    // The dictionary is cloned (≤ 32 KiB): file.window may still be needed for the next small block.
    slot.worker.postMessage({ file: id, seq, level: this.gzipLevel, buffer, dictionary }, [buffer]);
  }

  /** Finishes file `id` after its blocks; resolves with its size on disk once written and closed. */
  close(id: number): Promise<number> {
    this.throwIfFailed();
    const file = this.openFileOf(id);
    if (file.closing !== undefined) return file.closing.promise;
    file.closing = deferred<number>();
    void this.pump(file);
    return file.closing.promise;
  }

  /** True while `maxPendingBlocks` or more blocks are handed over and not yet on disk. */
  get full(): boolean {
    return this.pending >= this.maxPendingBlocks;
  }

  /** Resolves when not full; rejects with the first error. */
  whenWritable(): Promise<void> {
    if (this.error !== undefined) return Promise.reject(this.error);
    if (!this.full) return Promise.resolve();
    const waiter = deferred<void>();
    this.waiters.push(waiter);
    return waiter.promise;
  }

  /** Terminates the workers and closes the files still open. Safe to call twice. */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    const files = [...this.files.values()];
    this.fail(undefined, new SitemapError('ERR_SITEMAP_WRITE', 'the file writer was destroyed'));
    this.files.clear();
    const slots = this.slots.splice(0);
    await Promise.all([...slots.map((slot) => slot.worker.terminate().catch(() => {})), ...files.map((file) => this.closeHandle(file))]);
  }

  private openFileOf(id: number): OpenFile {
    const file = this.files.get(id);
    if (file === undefined) throw new SitemapError('ERR_SITEMAP_WRITE', `no open file with id ${id}`);
    return file;
  }

  private throwIfFailed(): void {
    if (this.error !== undefined) throw this.error;
  }

  /** An idle worker, else a new one while under the limit, else the one with the fewest bytes queued. */
  private pickSlot(): Slot {
    let best: Slot | undefined;
    for (const slot of this.slots) {
      if (slot.jobs === 0) return slot;
      if (best === undefined || slot.load < best.load) best = slot;
    }
    if (best === undefined || this.slots.length < this.workerCount) return this.spawn();
    return best;
  }

  private spawn(): Slot {
    // Compression allocates little on the JS heap: a small young generation makes the worker collect its
    // transferred buffers early instead of holding tens of MB until a late GC.
    const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 64 } });
    const slot: Slot = { worker, jobs: 0, load: 0 };
    worker.on('message', (m: WorkerDone | WorkerFailed) => this.onMessage(slot, m));
    worker.on('error', (e: Error) => this.fail(undefined, e, 'compression worker failed: '));
    worker.on('exit', (code) => {
      if (!this.destroyed && this.error === undefined) this.fail(undefined, new Error(`exited with code ${code}`), 'compression worker stopped: ');
    });
    this.slots.push(slot);
    return slot;
  }

  private onMessage(slot: Slot, m: WorkerDone | WorkerFailed): void {
    // Idle workers do not keep the process alive; busy ones do.
    if (--slot.jobs === 0) slot.worker.unref();
    if (m.type === 'error') {
      this.fail(this.files.get(m.file), Object.assign(new Error(m.message), { code: m.code }));
      return;
    }
    slot.load -= m.length;
    const file = this.files.get(m.file);
    if (file === undefined || this.error !== undefined) return;
    file.pieces.set(m.seq, { out: new Uint8Array(m.out), crc: m.crc, length: m.length });
    void this.pump(file);
  }

  /** Writes the file's pieces that are next in order; finishes the file when closing and all are in. */
  private async pump(file: OpenFile): Promise<void> {
    if (file.pumping) return;
    file.pumping = true;
    try {
      await file.ready;
      for (;;) {
        const handle = file.handle;
        if (this.error !== undefined || handle === undefined) return;
        const out: Uint8Array[] = [];
        if (!file.headerWritten) {
          out.push(GZIP_HEADER);
          file.headerWritten = true;
        }
        let blocks = 0;
        for (let piece = file.pieces.get(file.written); piece !== undefined && blocks < MAX_BATCH; piece = file.pieces.get(file.written)) {
          file.pieces.delete(file.written);
          file.written++;
          blocks++;
          out.push(piece.out);
          if (this.gzipLevel > 0) file.crc = crc32Combine(file.crc, piece.crc, piece.length);
          file.length += piece.length;
        }
        const finishing = blocks === 0 && file.closing !== undefined && file.written === file.dispatched;
        if (finishing && this.gzipLevel > 0) {
          const trailer = new Uint8Array(8);
          const view = new DataView(trailer.buffer);
          view.setUint32(0, file.crc, true);
          view.setUint32(4, file.length >>> 0, true); // ISIZE: length mod 2^32
          out.push(FINAL_BLOCK, trailer);
        }
        if (out.length > 0) file.diskBytes += await writeAll(handle, out);
        if (blocks > 0) {
          this.pending -= blocks;
          this.wakeWaiters();
        }
        if (finishing) {
          await this.closeHandle(file, false);
          this.files.delete(file.id);
          if (this.error === undefined) file.closing?.resolve(file.diskBytes);
          return;
        }
        // Pieces that arrived while this pump was writing found it busy: look again, unless nothing was awaited.
        if (blocks === 0 && out.length === 0) return;
      }
    } catch (error) {
      this.fail(file, error);
    } finally {
      file.pumping = false;
    }
  }

  private wakeWaiters(): void {
    if (this.full || this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.resolve();
  }

  /** Records the first error, rejects everything waiting, and closes the files. */
  private fail(file: OpenFile | undefined, cause: unknown, prefix = ''): void {
    if (this.error !== undefined) return;
    if (cause instanceof SitemapError) this.error = cause;
    else {
      const { code, message } = (cause ?? {}) as { code?: string; message?: string };
      const path = file?.path ?? this.files.values().next().value?.path ?? 'output';
      const reason = code === 'ENOSPC' ? 'no space left on device' : (message ?? String(cause));
      this.error = new SitemapError('ERR_SITEMAP_WRITE', `cannot write ${path}: ${prefix}${reason}`);
    }
    const error = this.error;
    file?.closing?.reject(error);
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(error);
    for (const open of this.files.values()) {
      open.closing?.reject(error);
      open.pieces.clear();
      void this.closeHandle(open);
    }
  }

  /**
   * Closes the file's handle once it is open (after a write still in flight on it). Idempotent.
   * Errors are ignored unless `quiet` is false.
   */
  private async closeHandle(file: OpenFile, quiet = true): Promise<void> {
    await file.ready;
    const handle = file.handle;
    file.handle = undefined;
    const closed = handle?.close() ?? Promise.resolve();
    await (quiet ? closed.catch(() => {}) : closed);
  }
}
