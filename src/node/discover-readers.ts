// Reading threads for `discover` (`urlsAsText`): the main thread fetches and gunzips each body and
// streams it to a thread (discover-worker.ts), which reads it with the same discover-document.ts and
// answers with its page URLs as UTF-8 lines: on bench:discover the main thread's reading was the
// critical path (docs/performance.md). Memory stays bounded both ways: at most CHUNK_WINDOW chunks of
// a body wait on the thread, and its answers wait for the consumer.

import type { Diagnostic } from '../core/diagnostics.js';
import type { SitemapRef } from '../core/model.js';
import type { SitemapFormat } from '../core/read/types.js';
import type { SitemapError } from '../core/errors.js';
import { byteBudgets, type DocumentSettings, type DocumentSink, type DocumentSummary } from './discover-document.js';
import { decompressed } from './decompress.js';
import { rethrowing } from './io-errors.js';
import { startWorker } from './worker-thread.js';

/** Chunks of a body (≤ 256 KiB, gunzipped) sent to the thread and not yet taken, past which the body waits. */
export const CHUNK_WINDOW = 8;

/** Documents read at once; the next waits, holding its connection slot (unbounded: 966 MB of peak RSS). */
export const MAX_READINGS = 16;

/** A reading thread's young generation (V8's default ~32 MB): 16 MB saved 15-20 MB of peak RSS at no cost. */
const YOUNG_GENERATION_MB = 16;

/** What a thread hands back for a document, in the document's order. */
export type ReaderItem = ['format', SitemapFormat] | ['diagnostic', Diagnostic] | ['urls', Uint8Array, number] | ['sitemap', SitemapRef];

export type ToReader =
  | { type: 'open'; doc: number; settings: DocumentSettings }
  | { type: 'chunk'; doc: number; bytes: Uint8Array }
  | { type: 'stop'; doc: number; error: Pick<SitemapError, 'code' | 'message' | 'rule'> }
  | { type: 'end' | 'fail' | 'ack'; doc: number };

type FromReader =
  | { type: 'took'; doc: number; taken: number }
  | { type: 'items'; doc: number; items: ReaderItem[]; taken: number }
  | { type: 'done'; doc: number; summary: DocumentSummary }
  | { type: 'failed'; doc: number; message?: string };

/** A document's sink with its page URLs as UTF-8 lines: `lines` holds `count` of them, each ending with a line feed. */
export interface TextSink extends Omit<DocumentSink, 'url'> {
  urls(lines: Uint8Array, count: number): void;
}

/** The caller's side of a reading: `hold` waits for a promise without charging it to the request's deadline. */
export interface ReadingControl {
  backpressure(): Promise<void> | undefined;
  hold(wait: Promise<void>): Promise<void>;
}

interface Reading {
  sink: TextSink;
  control: ReadingControl;
  sent: number;
  taken: number;
  done: boolean;
  wake: (() => void) | undefined;
  /** What the body threw, when it did. */
  failure: unknown;
  resolve(summary: DocumentSummary): void;
  reject(error: unknown): void;
}

/** One reading thread beside the main thread: a second was no faster and took more memory (docs/performance.md). */
export class DocumentReaders {
  private readonly worker = startWorker(new URL('./discover-worker.js', import.meta.url), import.meta.url, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  /** Why the thread is gone, once it is. */
  private gone: Error | undefined;
  private readonly readings = new Map<number, Reading>();
  /** Readings waiting for one of MAX_READINGS to end. */
  private readonly waitingToRead: (() => void)[] = [];
  private nextDoc = 0;

  constructor() {
    this.worker.on('message', (message: FromReader) => this.receive(message));
    this.worker.on('error', (error) => this.lost(error));
    this.worker.on('exit', (code) => this.lost(new Error(`a reading thread stopped (exit ${code})`)));
  }

  /** Reads `body` on the thread into `sink`; rejects with what the body threw, if it did. */
  async read(body: AsyncIterable<Uint8Array>, settings: DocumentSettings, sink: TextSink, control: ReadingControl): Promise<DocumentSummary> {
    while (this.readings.size >= MAX_READINGS) await control.hold(new Promise<void>((resolve) => this.waitingToRead.push(resolve)));
    const doc = this.nextDoc++;
    return new Promise((resolve, reject) => {
      if (this.gone !== undefined) return reject(this.gone);
      const reading: Reading = { sink, control, sent: 0, taken: 0, done: false, wake: undefined, failure: undefined, resolve, reject };
      this.readings.set(doc, reading);
      this.worker.postMessage({ type: 'open', doc, settings } satisfies ToReader);
      void this.pump(doc, reading, body, settings);
    });
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }

  /**
   * Streams the body, gunzipped here, CHUNK_WINDOW chunks ahead of the thread's reader at most. A budget or
   * corrupt gzip stops that reader with the error it would have met itself; what the body threw fails it.
   */
  private async pump(doc: number, reading: Reading, body: AsyncIterable<Uint8Array>, settings: DocumentSettings): Promise<void> {
    const post = (message: ToReader, transfer?: ArrayBuffer[]): void => this.worker.postMessage(message, transfer);
    try {
      // A warning of the gunzip (trailing garbage) goes to the sink from here: the thread sees plain bytes.
      const onDiagnostic = (d: Diagnostic): void => reading.sink.diagnostic({ ...d, file: settings.file });
      for await (const chunk of decompressed(rethrowing(body, (error) => (reading.failure = error)), { ...byteBudgets(settings), onDiagnostic })) {
        if (reading.done) break;
        // A copy of its own, moved rather than copied again: zlib's and a socket's chunks share memory.
        const bytes = new Uint8Array(chunk);
        post({ type: 'chunk', doc, bytes }, [bytes.buffer]);
        if (++reading.sent - reading.taken >= CHUNK_WINDOW) await reading.control.hold(new Promise<void>((resolve) => (reading.wake = resolve)));
        if (reading.done) break;
      }
      if (!reading.done) post({ type: 'end', doc });
    } catch (error) {
      if (reading.done) return;
      const { code, message, rule } = error as SitemapError;
      post(error === reading.failure ? { type: 'fail', doc } : { type: 'stop', doc, error: { code, message, ...(rule !== undefined ? { rule } : {}) } });
    }
  }

  private receive(message: FromReader): void {
    const reading = this.readings.get(message.doc);
    if (reading === undefined) return;
    if (message.type === 'took' || message.type === 'items') {
      reading.taken = message.taken;
      if (reading.sent - reading.taken < CHUNK_WINDOW) this.wake(reading);
    }
    if (message.type === 'items') {
      for (const item of message.items) {
        if (item[0] === 'urls') reading.sink.urls(item[1], item[2]);
        else if (item[0] === 'diagnostic') reading.sink.diagnostic(item[1]);
        else if (item[0] === 'sitemap') reading.sink.sitemap(item[1]);
        else reading.sink.format(item[1]);
      }
      // The consumer's backpressure holds the thread's reading of this document, as it holds the main thread's.
      const ack = (): void => this.worker.postMessage({ type: 'ack', doc: message.doc } satisfies ToReader);
      const wait = reading.control.backpressure();
      if (wait === undefined) ack();
      else void reading.control.hold(wait).then(ack);
    } else if (message.type !== 'took') {
      this.finish(message.doc, reading);
      if (message.type === 'done') reading.resolve(message.summary);
      else reading.reject(reading.failure ?? new Error(`reading ${message.doc} failed on its thread: ${message.message ?? ''}`));
    }
  }

  private wake(reading: Reading): void {
    const wake = reading.wake;
    reading.wake = undefined;
    wake?.();
  }

  private finish(doc: number, reading: Reading): void {
    reading.done = true;
    this.readings.delete(doc);
    this.wake(reading);
    this.waitingToRead.shift()?.();
  }

  /** The thread failed: its documents fail with it (a defect, not a document's problem). */
  private lost(error: Error): void {
    this.gone ??= error;
    for (const [doc, reading] of this.readings) {
      this.finish(doc, reading);
      reading.reject(error);
    }
  }
}
