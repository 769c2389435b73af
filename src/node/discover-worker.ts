// A reading thread of discover-readers.ts: reads the documents the main thread streams to it
// (discover-document.ts, the same code as on the main thread) and answers with what they hold, page
// URLs as one text (a line each) rather than an object each: a string crosses threads at copy speed.
// Both directions are windowed, so that memory stays bounded: the main thread sends a chunk when
// fewer than a few are waiting here (`took`), and a document waits for `ack` before it reads on when
// two of its answers are unread there (the consumer's backpressure reaches the reader).

import { parentPort } from 'node:worker_threads';
import { readDocument, type DocumentSettings } from './discover-document.js';
import type { ToReader, ReaderItem } from './discover-readers.js';

/** Answers of one document sent and not yet acknowledged, past which its reading waits. */
const MAX_UNACKED = 2;
/** Thrown into a reading whose body failed on the main thread (which reports the failure itself). */
const BODY_FAILED = new Error('the body failed');

const port = parentPort;
if (port === null) throw new Error('discover-worker.js runs as a worker thread');

class Document {
  private readonly chunks: (Uint8Array | 'end' | 'fail')[] = [];
  private wake: (() => void) | undefined;
  private items: ReaderItem[] = [];
  private text = '';
  private count = 0;
  private unacked = 0;
  private acked: (() => void) | undefined;

  constructor(private readonly doc: number) {}

  put(chunk: Uint8Array | 'end' | 'fail'): void {
    this.chunks.push(chunk);
    this.wake?.();
    this.wake = undefined;
  }

  ack(): void {
    this.unacked--;
    this.acked?.();
    this.acked = undefined;
  }

  async *body(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const next = this.chunks.shift();
      if (next === undefined) await new Promise<void>((resolve) => (this.wake = resolve));
      else if (next === 'end') return;
      else if (next === 'fail') throw BODY_FAILED;
      else {
        (port as NonNullable<typeof port>).postMessage({ type: 'took', doc: this.doc });
        yield next;
      }
    }
  }

  add(item: ReaderItem): void {
    this.flushText();
    this.items.push(item);
  }

  url(loc: string): void {
    this.text += `${loc}\n`;
    this.count++;
  }

  private flushText(): void {
    if (this.count === 0) return;
    this.items.push(['urls', this.text, this.count]);
    this.text = '';
    this.count = 0;
  }

  /** Sends what was read since the last call; a promise while too many answers are unread. */
  send(): Promise<void> | undefined {
    this.flushText();
    if (this.items.length > 0) {
      (port as NonNullable<typeof port>).postMessage({ type: 'items', doc: this.doc, items: this.items });
      this.items = [];
      this.unacked++;
    }
    return this.unacked < MAX_UNACKED ? undefined : new Promise<void>((resolve) => (this.acked = resolve));
  }
}

const documents = new Map<number, Document>();

async function read(doc: number, settings: DocumentSettings): Promise<void> {
  const document = new Document(doc);
  documents.set(doc, document);
  try {
    const summary = await readDocument(
      document.body(),
      settings,
      {
        format: (format) => document.add(['format', format]),
        diagnostic: (d) => document.add(['diagnostic', d]),
        url: (entry) => document.url(entry.loc),
        sitemap: (ref) => document.add(['sitemap', ref]),
      },
      () => document.send(),
    );
    void document.send();
    port?.postMessage({ type: 'done', doc, summary });
  } catch (error) {
    void document.send();
    // The reader wraps what its input throws (parse-sitemap.ts inputError).
    const bodyFailed = error === BODY_FAILED || (error as { cause?: unknown }).cause === BODY_FAILED;
    port?.postMessage({ type: 'failed', doc, ...(bodyFailed ? {} : { message: (error as Error).stack ?? String(error) }) });
  } finally {
    documents.delete(doc);
  }
}

port.on('message', (message: ToReader) => {
  if (message.type === 'open') {
    void read(message.doc, message.settings);
    return;
  }
  const document = documents.get(message.doc);
  if (document === undefined) return; // read to its end already (a budget stopped it)
  if (message.type === 'chunk') document.put(message.bytes);
  else if (message.type === 'ack') document.ack();
  else document.put(message.type);
});
