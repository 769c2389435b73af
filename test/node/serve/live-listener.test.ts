// A live source through toNodeListener on a real node:http server: answers that come asynchronously.
import { test } from 'node:test';
import { connect } from 'node:net';
import assert from 'node:assert/strict';
import { createSitemapHandler } from '../../../src/core/serve/handler.js';
import { liveSource } from '../../../src/core/serve/live-source.js';
import { toNodeListener } from '../../../src/node/serve/node-listener.js';
import { listen } from '../../helpers/serve.js';

const BASE = 'https://www.example.com/';

test('a live source behind node:http: the index, children negotiated, a failing child 503 with Retry-After', async (t) => {
  const source = liveSource({
    baseUrl: BASE,
    count: () => 25,
    maxUrls: 10,
    async *range({ offset, limit }) {
      for (let i = offset; i < Math.min(25, offset + limit); i++) yield { loc: `${BASE}p/${i}` };
    },
  });
  const server = await listen(toNodeListener(createSitemapHandler({ source, baseUrl: BASE })));
  t.after(() => server.close());
  const index = await fetch(`${server.origin}/sitemap.xml`);
  assert.equal(index.status, 200);
  assert.equal([...(await index.text()).matchAll(/<sitemap>/g)].length, 3);
  const child = await fetch(`${server.origin}/sitemap-00002.xml`);
  assert.equal(child.headers.get('content-encoding'), 'gzip');
  assert.match(await child.text(), /p\/19<\/loc><\/url>\n<\/urlset>/);
  // A source that fails: 503, the error not leaked.
  const failing = liveSource({
    baseUrl: BASE,
    count: () => 25,
    maxUrls: 10,
    // eslint-disable-next-line require-yield
    range: async function* () {
      throw new Error('database gone');
    },
  });
  const server2 = await listen(toNodeListener(createSitemapHandler({ source: failing })));
  t.after(() => server2.close());
  const unavailable = await fetch(`${server2.origin}/sitemap-00003.xml.gz`);
  assert.equal(unavailable.status, 503);
  assert.ok(Number(unavailable.headers.get('retry-after')) > 0);
  assert.doesNotMatch(await unavailable.text(), /database/);
});

test('a large body is written in pieces as the socket drains, byte for byte, to clients at once', async (t) => {
  const body = new Uint8Array(300_000 + 17);
  for (let i = 0; i < body.length; i++) body[i] = (i * 2654435761) >>> 24;
  const source = { file: (name: string) => (name === 'big.xml.gz' ? { lastModified: 0, gzip: { body, etag: '"big"' } } : undefined) };
  const server = await listen(toNodeListener(createSitemapHandler({ source })));
  t.after(() => server.close());
  const answers = await Promise.all(Array.from({ length: 4 }, () => fetch(`${server.origin}/big.xml.gz`)));
  for (const answer of answers) {
    assert.equal(answer.headers.get('content-length'), String(body.length));
    assert.deepEqual(new Uint8Array(await answer.arrayBuffer()), body);
  }
});

test('a body that fails once sent in part resets the connection: an HTTP/1.0 client (no chunks, the end is the close) never sees a clean end', async (t) => {
  const stream = (): ReadableStream<Uint8Array> => {
    let sent = 0;
    return new ReadableStream({
      // The database lost once the bytes sent are out (the client has read them all).
      async pull(controller) {
        if (sent++ < 4) controller.enqueue(new Uint8Array(64 * 1024));
        else await new Promise((resolve) => setTimeout(resolve, 100)).then(() => controller.error(new Error('database gone')));
      },
    });
  };
  const source = { file: (name: string) => (name === 'cut.xml.gz' ? { lastModified: 0, gzip: { stream } } : undefined) };
  const server = await listen(toNodeListener(createSitemapHandler({ source })));
  t.after(() => server.close());
  for (const version of ['1.0', '1.1']) {
    const ending = await new Promise<string>((resolve) => {
      const socket = connect(server.port, '127.0.0.1');
      socket.on('data', () => {});
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      socket.on('end', () => resolve('clean end'));
      socket.write(`GET /cut.xml.gz HTTP/${version}\r\nHost: x\r\nConnection: close\r\n\r\n`);
    });
    assert.equal(ending, 'ECONNRESET', version);
  }
});

test('a client that stops reading a large body held in memory (sent in pieces) is cut off after sendTimeoutMs: it holds neither the socket nor those bytes for ever', async (t) => {
  // More than the sockets' buffers hold: the response waits for the client.
  const body = new Uint8Array(16_000_000).fill(0x20);
  const source = { file: (name: string) => (name === 'big.txt' ? { lastModified: 0, identity: { body, etag: '"big"' } } : undefined) };
  const server = await listen(toNodeListener(createSitemapHandler({ source }), { sendTimeoutMs: 300 }));
  t.after(() => server.close());
  const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /big.txt HTTP/1.1\r\nHost: x\r\n\r\n'));
  t.after(() => socket.destroy());
  let got = 0;
  socket.on('data', (chunk: Buffer) => (got += chunk.byteLength));
  await new Promise((resolve) => socket.once('data', resolve));
  socket.pause();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  // Read on: the connection was closed while the client took nothing (it would otherwise give the whole body and stay open).
  socket.resume();
  const closed = await Promise.race([new Promise((resolve) => socket.once('close', () => resolve(true))), new Promise((resolve) => setTimeout(() => resolve(false), 2000))]);
  assert.ok(closed && got < body.byteLength, `closed: ${String(closed)}, ${got} bytes of ${body.byteLength}`);
});
