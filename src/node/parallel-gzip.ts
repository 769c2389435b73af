// A pigz-style parallel gzip writer: each block is deflated on a worker thread, primed with the last
// 32 KiB of the file's earlier input as a dictionary and ended with a sync flush (byte-aligned, not
// final), so the pieces concatenated in order form one deflate stream; the main thread adds the gzip
// header and trailer (RFC 1952), with the CRC-32 it takes of each block as handed over. Compression
// never runs on the main thread (DESIGN.md "Measured": gzip is the bottleneck).

import { open as openFile, type FileHandle } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import { SitemapError, positiveInteger } from '../core/errors.js';

// CommonJS run with `eval: true`: works from the TypeScript sources (tsx) and the compiled package alike.
const WORKER_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
const zlib = require('node:zlib');
parentPort.on('message', (m) => {
  try {
    // One buffer carries the dictionary (the file's previous ≤ 32 KiB) followed by the block.
    const all = new Uint8Array(m.buffer);
    const input = all.subarray(m.dictionaryLength, m.dictionaryLength + m.length);
    const options = { level: m.level, finishFlush: zlib.constants.Z_SYNC_FLUSH };
    if (m.dictionaryLength > 0) options.dictionary = all.subarray(0, m.dictionaryLength);
    const deflated = zlib.deflateRawSync(input, options);
    // The result may be a view into a larger or pooled ArrayBuffer: send an exact copy then.
    const out = deflated.byteOffset === 0 && deflated.buffer.byteLength === deflated.byteLength ? deflated : new Uint8Array(deflated);
    // The input buffer goes back to the main thread's pool to carry the next block.
    parentPort.postMessage({ type: 'done', file: m.file, seq: m.seq, length: m.length, out: out.buffer, input: m.buffer }, [out.buffer, m.buffer]);
  } catch (e) {
    parentPort.postMessage({ type: 'error', file: m.file, seq: m.seq, code: e && e.code, message: String((e && e.message) || e) });
  }
});
`;

const WINDOW = 32 * 1024; // deflate's window: the most a back-reference can reach
/** Pooled buffers fit a typical block (≤ 256 KiB) after its dictionary. */
const POOLED_BUFFER_SIZE = WINDOW + 256 * 1024;
/** gzip header: magic, CM=8 (deflate), no flags, mtime 0, XFL 0, OS 3 (unix). */
const GZIP_HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3);
/** An empty final fixed-Huffman block: BFINAL=1, BTYPE=01, end-of-block. Ends the deflate stream. */
const FINAL_BLOCK = Uint8Array.of(0x03, 0x00);

/** Compression threads kept idle for the next writer of this process, and how many at most. */
const idleThreads: Worker[] = [];
let keptThreads = 0;

/**
 * Keeps up to `count` idle compression threads for the next writer of this process: a queue worker
 * writes hundreds of outputs (a thread costs ~25 ms of CPU to start, and each left memory behind).
 */
export function keepCompressionThreads(count: number): void {
  keptThreads = count;
  for (const worker of idleThreads.splice(count)) void worker.terminate();
}

function newCompressionThread(): Worker {
  // A small young generation collects transferred buffers early instead of holding tens of MB; execArgv []
  // keeps the parent's flags (--input-type=module) from changing how the CommonJS source is evaluated.
  const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 64 } });
  // An idle thread that fails or stops is forgotten (a writer's own listeners report it while in use).
  const forget = (): void => {
    const at = idleThreads.indexOf(worker);
    if (at !== -1) idleThreads.splice(at, 1);
  };
  return worker.on('error', forget).on('exit', forget);
}

export interface ParallelFileWriterOptions {
  /** gzip level 1–9; 0 writes plain files (no workers needed). */
  gzipLevel: number;
  /** Compression threads; default: the cores less one (at least 1), so the main thread keeps a core. */
  workers?: number;
  /** Blocks handed over but not yet written to disk, before `full` turns true; default 2 × workers + 2. */
  maxPendingBlocks?: number;
}

interface WorkerDone {
  type: 'done';
  file: number;
  seq: number;
  length: number;
  out: ArrayBuffer;
  /** The buffer the block came in, returned for reuse. */
  input: ArrayBuffer;
}

interface WorkerFailed {
  type: 'error';
  file: number;
  seq: number;
  code?: string;
  message: string;
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
  /** Finished blocks (deflated, or plain at level 0) that arrived ahead of their turn, by sequence number. */
  pieces: Map<number, Uint8Array>;
  /** The last (≤ 32 KiB) bytes of the input so far: the next block's dictionary. */
  window: Uint8Array;
  /** CRC-32 and number of the bytes handed over so far. */
  crc: number;
  length: number;
  diskBytes: number;
  pumping: boolean;
  closing: Deferred<number> | undefined;
}

interface Slot {
  worker: Worker;
  /** Removes this writer's listeners (the worker goes back to the idle threads). */
  detach: () => void;
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
  // A close promise nobody awaits must not crash the process (the error reaches the others too).
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** Writes several files at once from blocks handed over in order, each one gzip member. */
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
  private readonly pool: ArrayBuffer[] = [];

  constructor(options: ParallelFileWriterOptions) {
    const level = options.gzipLevel;
    if (!Number.isInteger(level) || level < 0 || level > 9) throw new SitemapError('ERR_SITEMAP_OPTION', `gzip level must be 0 to 9, got ${level}`);
    // Named as writeSitemaps' option, which is what reaches `workers`.
    const workers = positiveInteger(options.workers, Math.max(1, availableParallelism() - 1), 'compressionThreads');
    this.gzipLevel = level;
    this.workerCount = level === 0 ? 0 : workers;
    this.maxPendingBlocks = positiveInteger(options.maxPendingBlocks, 2 * workers + 2, 'maxPendingBlocks');
  }

  /** Starts a file and returns its id; several files may be open at once. */
  open(path: string): number {
    if (this.error !== undefined) throw this.error;
    const id = this.nextId++;
    const file: OpenFile = {
      id,
      path,
      handle: undefined,
      ready: Promise.resolve(),
      dispatched: 0,
      written: 0,
      pieces: new Map(),
      window: new Uint8Array(0),
      crc: 0,
      length: 0,
      diskBytes: 0,
      pumping: false,
      closing: undefined,
    };
    file.ready = openFile(path, 'w').then(
      (handle) => {
        if (this.error === undefined) file.handle = handle;
        else handle.close().catch(() => {});
      },
      (error: unknown) => this.fail(file, error),
    );
    this.files.set(id, file);
    return id;
  }

  /** Hands over the next block of file `id`; the bytes are copied, so `bytes` may be reused at once. */
  write(id: number, bytes: Uint8Array): void {
    if (this.error !== undefined) throw this.error;
    const file = this.openFileOf(id);
    if (file.closing !== undefined) throw new SitemapError('ERR_SITEMAP_WRITE', `cannot write ${file.path}: the file is already closed`);
    if (bytes.byteLength === 0) return;
    file.crc = crc32(bytes, file.crc);
    file.length += bytes.byteLength;
    const seq = file.dispatched++;
    this.pending++;
    if (this.gzipLevel === 0) {
      // Plain: already in order; the bytes go to the file as they are, copied (a Buffer's slice is a view).
      file.pieces.set(seq, new Uint8Array(bytes));
      void this.pump(file);
      return;
    }
    const dictionaryLength = file.window.length;
    const end = dictionaryLength + bytes.byteLength;
    const buffer = this.acquire(end);
    const block = new Uint8Array(buffer);
    block.set(file.window, 0);
    block.set(bytes, dictionaryLength);
    // The next block's dictionary: the last 32 KiB of the input so far.
    file.window = block.slice(Math.max(0, end - WINDOW), end);
    const slot = this.pickSlot();
    if (slot.jobs++ === 0) slot.worker.ref();
    slot.load += bytes.byteLength;
    slot.worker.postMessage({ file: id, seq, level: this.gzipLevel, buffer, dictionaryLength, length: bytes.byteLength }, [buffer]);
  }

  /** A buffer of at least `size` bytes: reused, as transferred buffers that die on a worker wait for its next GC. */
  private acquire(size: number): ArrayBuffer {
    for (let i = this.pool.length - 1; i >= 0; i--) {
      const buffer = this.pool[i] as ArrayBuffer;
      if (buffer.byteLength >= size) {
        this.pool.splice(i, 1);
        return buffer;
      }
    }
    return new ArrayBuffer(Math.max(size, POOLED_BUFFER_SIZE));
  }

  private release(buffer: ArrayBuffer): void {
    if (this.pool.length < this.maxPendingBlocks + this.workerCount) this.pool.push(buffer);
  }

  /** The CRC-32 of the bytes handed over for file `id` so far (its gzip trailer's, once it is closed). */
  crcOf(id: number): number {
    return this.openFileOf(id).crc;
  }

  /** Finishes file `id` after its blocks; resolves with its size on disk once written and closed. */
  close(id: number): Promise<number> {
    if (this.error !== undefined) throw this.error;
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
    // After a failure a thread may be the cause (or gone): none is kept.
    const healthy = this.error === undefined;
    const files = [...this.files.values()];
    this.fail(undefined, new SitemapError('ERR_SITEMAP_WRITE', 'the file writer was destroyed'));
    this.files.clear();
    // Threads with no block in flight are kept for the next writer, up to keepCompressionThreads.
    const slots = this.slots.splice(0).filter((slot) => {
      if (!healthy || slot.jobs > 0 || idleThreads.length >= keptThreads) return true;
      slot.detach();
      slot.worker.unref();
      idleThreads.push(slot.worker);
      return false;
    });
    // An awaited terminate() of an unref'd worker may let the loop end with this promise never settled.
    for (const slot of slots) slot.worker.ref();
    await Promise.all([...slots.map((slot) => slot.worker.terminate().catch(() => {})), ...files.map((file) => this.closeHandle(file))]);
  }

  private openFileOf(id: number): OpenFile {
    const file = this.files.get(id);
    if (file === undefined) throw new SitemapError('ERR_SITEMAP_WRITE', `no open file with id ${id}`);
    return file;
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
    const worker = idleThreads.pop() ?? newCompressionThread();
    const onMessage = (m: WorkerDone | WorkerFailed): void => this.onMessage(slot, m);
    const onError = (e: Error): void => this.fail(undefined, e, 'compression worker failed: ');
    const onExit = (code: number): void => {
      if (!this.destroyed && this.error === undefined) this.fail(undefined, new Error(`exited with code ${code}`), 'compression worker stopped: ');
    };
    const slot: Slot = { worker, jobs: 0, load: 0, detach: () => worker.off('message', onMessage).off('error', onError).off('exit', onExit) };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    this.slots.push(slot);
    return slot;
  }

  private onMessage(slot: Slot, m: WorkerDone | WorkerFailed): void {
    // Idle workers do not keep the process alive (unless destroy() has ref'd them to await their exit).
    if (--slot.jobs === 0 && !this.destroyed) slot.worker.unref();
    if (m.type === 'error') {
      this.fail(this.files.get(m.file), Object.assign(new Error(m.message), { code: m.code }));
      return;
    }
    slot.load -= m.length;
    this.release(m.input);
    const file = this.files.get(m.file);
    if (file === undefined || this.error !== undefined) return;
    file.pieces.set(m.seq, new Uint8Array(m.out));
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
        const out: Uint8Array[] = this.gzipLevel > 0 && file.diskBytes === 0 ? [GZIP_HEADER] : [];
        let blocks = 0;
        for (let piece = file.pieces.get(file.written); piece !== undefined; piece = file.pieces.get(file.written)) {
          file.pieces.delete(file.written);
          file.written++;
          blocks++;
          out.push(piece);
        }
        const finishing = blocks === 0 && file.closing !== undefined && file.written === file.dispatched;
        if (finishing && this.gzipLevel > 0) {
          const trailer = new Uint8Array(8);
          const view = new DataView(trailer.buffer);
          view.setUint32(0, file.crc, true);
          view.setUint32(4, file.length >>> 0, true); // ISIZE: length mod 2^32
          out.push(FINAL_BLOCK, trailer);
        }
        for (const piece of out) {
          // On from the handle's position; a short write goes on with the rest.
          await handle.writeFile(piece);
          file.diskBytes += piece.byteLength;
        }
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

  /** Closes the file's handle once open (after a write in flight). Idempotent; errors ignored when `quiet`. */
  private async closeHandle(file: OpenFile, quiet = true): Promise<void> {
    await file.ready;
    const handle = file.handle;
    file.handle = undefined;
    const closed = handle?.close() ?? Promise.resolve();
    await (quiet ? closed.catch(() => {}) : closed);
  }
}
