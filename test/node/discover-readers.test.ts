// The reading threads of discover (node/discover-readers.ts) directly: a body streamed in chunks comes
// back as its page URLs' lines, and a thread that stops fails its readings, those under way and those
// asked after, instead of leaving them waiting for ever.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Worker } from 'node:worker_threads';
import { DocumentReaders, MAX_READINGS, type TextSink } from '../../src/node/discover-readers.js';
import { pages, urlset } from '../helpers/site-server.js';

const SETTINGS = { file: 'test.xml', maxBytes: 10_000_000, maxEntries: undefined, maxTrackedUrls: undefined };
const CONTROL = { backpressure: () => undefined, hold: (wait: Promise<void>) => wait };

function sink(): TextSink & { lines: string } {
  const decoder = new TextDecoder();
  return {
    lines: '',
    format() {},
    diagnostic() {},
    sitemap() {},
    urls(lines) {
      this.lines += decoder.decode(lines);
    },
  };
}

async function* chunks(bytes: Uint8Array, size: number, pause?: Promise<void>): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) {
    if (at > 0 && pause !== undefined) await pause;
    yield bytes.subarray(at, at + size);
  }
}

describe('discover reading threads', () => {
  it('a gzipped body in small chunks: its page URLs as lines, in order', async () => {
    const readers = new DocumentReaders();
    try {
      const locs = pages('r', 5_000);
      const into = sink();
      const summary = await readers.read(chunks(gzipSync(urlset(locs)), 1_000), SETTINGS, into, CONTROL);
      assert.equal(summary.format, 'urlset');
      assert.equal(into.lines, `${locs.join('\n')}\n`);
    } finally {
      await readers.close();
    }
  });

  it('reads MAX_READINGS documents at once; the next bodies wait, unread, so fetching waits with them', async () => {
    const readers = new DocumentReaders();
    try {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let started = 0;
      async function* held(name: string): AsyncGenerator<Uint8Array> {
        started++;
        await gate;
        yield Buffer.from(urlset(pages(name, 2)));
      }
      const into = Array.from({ length: MAX_READINGS + 10 }, () => sink());
      const readings = into.map((s, i) => readers.read(held(`d${i}`), SETTINGS, s, CONTROL));
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(started, MAX_READINGS);
      open();
      await Promise.all(readings);
      assert.equal(started, MAX_READINGS + 10);
      assert.deepEqual(into.map((s) => s.lines), into.map((_, i) => `${pages(`d${i}`, 2).join('\n')}\n`));
    } finally {
      await readers.close();
    }
  });

  it('a thread that stops fails the reading under way and the next one, at once', async () => {
    const readers = new DocumentReaders();
    try {
      let resume!: () => void;
      const paused = new Promise<void>((resolve) => (resume = resolve));
      const underWay = readers.read(chunks(Buffer.from(urlset(pages('s', 2_000))), 4_096, paused), SETTINGS, sink(), CONTROL);
      await (readers as unknown as { worker: Worker }).worker.terminate();
      resume();
      await assert.rejects(underWay, /reading thread stopped/);
      await assert.rejects(readers.read(chunks(Buffer.from(urlset(pages('t', 3))), 100), SETTINGS, sink(), CONTROL), /reading thread stopped/);
    } finally {
      await readers.close();
    }
  });
});
