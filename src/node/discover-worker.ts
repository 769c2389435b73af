// A reading thread of discover-readers.ts: reads the documents the main thread streams to it
// (discover-document.ts, as on the main thread) and answers with page URLs as UTF-8 lines, moved to
// the main thread rather than copied. Both directions are windowed: the main thread sends while few
// chunks wait here (`took`), and a document reads on only while fewer than MAX_UNACKED answers are unread.

import { parentPort } from 'node:worker_threads';
import { SitemapError } from '../core/errors.js';
import { JsonLines, urlLine } from '../core/model-json.js';
import type { Lane } from '../core/read/lane.js';
import { readDocument, type DocumentSettings } from './discover-document.js';
import { CHUNK_WINDOW, type ToReader, type ReaderItem } from './discover-readers.js';

/** Answers of one document sent and not yet acknowledged, past which its reading waits. */
const MAX_UNACKED = 2;
/**
 * Page URLs go into buffers of TEXT_BYTES, and an answer once it holds ANSWER_CHARS (an item counts
 * ITEM_CHARS): fewer, larger messages, bytes moved not copied (~250 ms less over 550,000 URLs).
 */
const TEXT_BYTES = 64 * 1024;
/** Room past TEXT_BYTES in a buffer of lines, so that most buffers take the next line whole. */
const TEXT_SLACK = 8 * 1024;
const ANSWER_CHARS = 256 * 1024;
const ITEM_CHARS = 128;
/** Thrown into a reading whose body failed on the main thread (which reports the failure itself). */
const BODY_FAILED = new Error('the body failed');

const port = parentPort;
if (port === null) throw new Error('discover-worker.js runs as a worker thread');

class Document {
  private readonly chunks: (Uint8Array | 'end' | 'fail' | SitemapError)[] = [];
  private wake: (() => void) | undefined;
  private items: ReaderItem[] = [];
  /** Page URLs read since the last answer, as UTF-8 lines; each buffer taken is moved to the main thread. */
  private readonly lines = new JsonLines(TEXT_BYTES, undefined, TEXT_SLACK);
  /** `lines.count` when its bytes were last taken. */
  private linesTaken = 0;
  /** Characters of the answer being gathered. */
  private answerChars = 0;
  private unacked = 0;
  private acked: (() => void) | undefined;
  /** Chunks received, taken by the reader, and taken as last told to the main thread. */
  private received = 0;
  private taken = 0;
  private reported = 0;

  constructor(private readonly doc: number) {}

  put(chunk: Uint8Array | 'end' | 'fail' | SitemapError): void {
    if (chunk instanceof Uint8Array) this.received++;
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
      else if (next instanceof SitemapError) throw next;
      else {
        this.taken++;
        // Told with every answer, and alone when the main thread waits and half its window is taken.
        if (this.received - this.reported >= CHUNK_WINDOW && this.taken - this.reported >= CHUNK_WINDOW / 2) {
          this.reported = this.taken;
          (port as NonNullable<typeof port>).postMessage({ type: 'took', doc: this.doc, taken: this.taken });
        }
        yield next;
      }
    }
  }

  add(item: ReaderItem): void {
    this.flushText();
    this.items.push(item);
    this.answerChars += ITEM_CHARS;
  }

  url(loc: string): void {
    this.lines.text(urlLine(loc));
    if (this.lines.length >= TEXT_BYTES) this.flushText();
  }

  /** DocumentSink.urlLocs: the locs of the lane's records `from` to `to - 1`, packed by the lane into the lines. */
  urlLocs(lane: Lane, from: number, to: number): void {
    while (from < to) {
      const next = lane.packLocs(from, to, TEXT_BYTES + TEXT_SLACK - this.lines.length);
      if (next === from) {
        // Not one more fits: send the lines on (an empty buffer fits any loc, unless memory could not grow).
        if (this.lines.count === this.linesTaken) throw new Error('discover: no memory to pack the locs of a run');
        this.flushText();
        continue;
      }
      this.lines.append(lane.packed, next - from);
      if (this.lines.length >= TEXT_BYTES) this.flushText();
      from = next;
    }
  }

  private flushText(): void {
    const count = this.lines.count - this.linesTaken;
    if (count === 0) return;
    this.answerChars += this.lines.length;
    this.linesTaken = this.lines.count;
    const taken = this.lines.take();
    // Less than half a buffer is copied out and the buffer kept: moved whole, each small document's
    // 72 KiB would wait unseen by the queue's bound, which counts lines (16,000 children: 80 MB).
    if (taken.length >= TEXT_BYTES / 2) this.items.push(['urls', taken, count]);
    else {
      this.items.push(['urls', taken.slice(), count]);
      this.lines.recycle(taken);
    }
  }

  /** Sends what was read once it is ANSWER_CHARS long (or `all`); a promise while too many answers are unread. */
  send(all = false): Promise<void> | undefined {
    if (all) this.flushText();
    if (this.items.length > 0 && (all || this.answerChars >= ANSWER_CHARS)) {
      const moved = this.items.flatMap((item) => (item[0] === 'urls' ? [item[1].buffer as ArrayBuffer] : []));
      (port as NonNullable<typeof port>).postMessage({ type: 'items', doc: this.doc, items: this.items, taken: this.taken }, moved);
      this.reported = this.taken;
      this.items = [];
      this.answerChars = 0;
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
        urlLocs: (lane, from, to) => document.urlLocs(lane, from, to),
        sitemap: (ref) => document.add(['sitemap', ref]),
      },
      () => document.send(),
    );
    void document.send(true);
    port?.postMessage({ type: 'done', doc, summary });
  } catch (error) {
    void document.send(true);
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
  // The gunzip on the main thread stopped (a budget, corrupt data): the reader stops as on that error.
  else if (message.type === 'stop') document.put(new SitemapError(message.error.code, message.error.message, message.error.rule));
  else if (message.type === 'ack') document.ack();
  else document.put(message.type);
});
