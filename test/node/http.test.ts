// The HTTP layer of discover: the node:http transport (Content-Encoding, connection close under
// backpressure), the idle-time deadline, an injected fetch, and validate URL.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Readable } from 'node:stream';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { HttpClient, retryAfterMs } from '../../src/node/http/client.js';
import { IdleDeadline } from '../../src/node/http/deadline.js';
import { HostSlots, type Release } from '../../src/node/http/slots.js';
import { createNodeFetch, NODE_BODY } from '../../src/node/http/node-fetch.js';
import { discoverSitemaps } from '../../src/node/discover.js';
import { validateSitemapUrl } from '../../src/node/validate-url.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { closedPort, startRawServer } from '../helpers/raw-server.js';
import { pages, sitemapIndex, startSiteServer, urlset } from '../helpers/site-server.js';

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of body) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

describe('node:http transport', () => {
  it('undoes Content-Encoding gzip, deflate (zlib and raw) and br', async () => {
    const plain = urlset(pages('enc', 50));
    const s = await startSiteServer({
      '/gzip': { headers: { 'content-encoding': 'gzip' }, body: gzipSync(plain) },
      '/deflate': { headers: { 'content-encoding': 'deflate' }, body: deflateSync(plain) },
      '/raw-deflate': { headers: { 'content-encoding': 'deflate' }, body: deflateRawSync(plain) },
      '/br': { headers: { 'content-encoding': 'br' }, body: brotliCompressSync(plain) },
    });
    const client = new HttpClient({ allowPrivate: true });
    try {
      for (const path of ['/gzip', '/deflate', '/raw-deflate', '/br']) {
        const r = await client.get(s.url(path));
        assert.ok(r.ok);
        assert.equal(await text(r.body), plain, path);
        assert.equal(r.body.bytes, Buffer.byteLength(plain));
      }
    } finally {
      await client.close();
      await s.close();
    }
  });

  it('Content-Encoding gzip: bytes after the gzip data are ignored, as browsers do; a body that is no gzip stays an error', async () => {
    const plain = urlset(pages('trailing', 50));
    // A script that prints a newline after its gzip output (Chromium's GzipSourceStream ignores it); a server that says gzip and sends none.
    const s = await startSiteServer({
      '/trailing': { headers: { 'content-encoding': 'gzip' }, body: Buffer.concat([gzipSync(plain), Buffer.from('\n\n')]) },
      '/plain': { headers: { 'content-encoding': 'gzip' }, body: plain },
    });
    const client = new HttpClient({ allowPrivate: true, retries: 0 });
    try {
      const trailing = await client.get(s.url('/trailing'));
      assert.ok(trailing.ok);
      assert.equal(await text(trailing.body), plain);
      const lie = await client.get(s.url('/plain'));
      assert.ok(lie.ok);
      await assert.rejects(text(lie.body), (e: { rule?: string; message?: string }) => e.rule === 'fetch/body' && /incorrect header check/.test(e.message ?? ''));
    } finally {
      await client.close();
      await s.close();
    }
  });

  it("headers over Node's 16 KiB (a long Content-Security-Policy, many cookies) are read, as browsers read them", async () => {
    const plain = urlset(pages('big-head', 2));
    const raw = await startRawServer((socket) => socket.end(`HTTP/1.1 200 OK\r\nX-Policy: ${'a'.repeat(40_000)}\r\nConnection: close\r\n\r\n${plain}`));
    const client = new HttpClient({ allowPrivate: true, retries: 0 });
    try {
      const r = await client.get(raw.url('/s.xml'));
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(await text(r.body), plain);
    } finally {
      await client.close();
      await raw.close();
    }
  });

  it('a deflate body held back by its reader is not inflated ahead into memory (a deflate bomb)', async () => {
    const inflated = 16 * 1024 * 1024;
    const spaces = Buffer.alloc(inflated, 0x20);
    const s = await startSiteServer({
      '/deflate': { headers: { 'content-encoding': 'deflate' }, body: deflateSync(spaces) },
      '/raw-deflate': { headers: { 'content-encoding': 'deflate' }, body: deflateRawSync(spaces) },
    });
    const { fetch, close } = createNodeFetch();
    try {
      for (const path of ['/deflate', '/raw-deflate']) {
        const response = await fetch(s.url(path));
        await new Promise((resolve) => setTimeout(resolve, 300)); // all of it has arrived; nothing read yet
        const held = (response as unknown as Record<typeof NODE_BODY, Readable>)[NODE_BODY];
        assert.ok(held.readableLength <= 1024 * 1024, `${path}: ${held.readableLength} bytes inflated ahead of the reader`);
        let length = 0;
        for await (const chunk of held as AsyncIterable<Buffer>) length += chunk.length;
        assert.equal(length, inflated, path);
      }
    } finally {
      close();
      await s.close();
    }
  });

  it('caps the bytes received before decoding', async () => {
    const noise = randomBytes(64 * 1024); // incompressible: gzip makes it larger, not smaller
    const s = await startSiteServer({
      '/noise': (_req, res) => {
        res.writeHead(200, { 'content-encoding': 'gzip' }); // chunked: no Content-Length to refuse early
        res.end(gzipSync(noise));
      },
    });
    const client = new HttpClient({ allowPrivate: true, maxBodyBytes: 16 * 1024 });
    try {
      const r = await client.get(s.url('/noise'));
      assert.ok(r.ok);
      await assert.rejects(text(r.body), (e: { code?: string; rule?: string }) => e.code === 'ERR_SITEMAP_INPUT' && e.rule === 'fetch/too-large');
    } finally {
      await client.close();
      await s.close();
    }
  });

  it('a server closing the connection while the reader holds the body back (nodejs/undici#5360) is read whole', async () => {
    const body = Buffer.from(urlset(pages('close', 20_000)));
    const server = createServer((socket) => {
      socket.once('data', () => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
        socket.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { fetch, close } = createNodeFetch();
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await new Promise((resolve) => setTimeout(resolve, 200)); // the server has sent all and closed
      // Read as the client reads it (HttpBody), slowly.
      let length = 0;
      for await (const chunk of (response as unknown as Record<typeof NODE_BODY, Readable>)[NODE_BODY] as AsyncIterable<Buffer>) {
        length += chunk.byteLength;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      assert.equal(length, body.length);
    } finally {
      close();
      server.close();
    }
  });
});

describe('idle-time deadline', () => {
  it('does not count time the event loop spent working', async () => {
    let expired = false;
    const deadline = new IdleDeadline(150, () => (expired = true));
    const until = performance.now() + 400;
    while (performance.now() < until) {
      // Parsing another document: the loop is busy for 400 ms.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(expired, false, 'busy time was charged');
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal(expired, true, 'idle time was not charged');
    deadline.clear();
  });

  it('does not count time paused for backpressure', async () => {
    let expired = false;
    const deadline = new IdleDeadline(150, () => (expired = true));
    deadline.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(expired, false);
    deadline.resume();
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal(expired, true);
  });
});

describe('a request waiting for a connection slot', () => {
  it('is not charged the wait: a server slower than the deadline allows only in total still answers every request', async () => {
    const s = await startSiteServer({
      '/slow': (_req, res) => {
        setTimeout(() => res.writeHead(200).end('ok'), 150);
      },
    });
    // One request at a time, each answered in 150 ms: the fourth waits 450 ms for its slot, past the 300 ms deadline.
    const client = new HttpClient({ allowPrivate: true, perHostConcurrency: 1, timeoutMs: 300, retries: 0 });
    try {
      const outcomes = await Promise.all([1, 2, 3, 4].map(async () => {
        const r = await client.get(s.url('/slow'));
        return r.ok ? await text(r.body) : r.code;
      }));
      assert.deepEqual(outcomes, ['ok', 'ok', 'ok', 'ok']);
    } finally {
      await client.close();
      await s.close();
    }
  });
});

describe('connection slots', () => {
  it('serve a host with room while another host is full, and one host with many waiters in time linear in them', async () => {
    const slots = new HostSlots(16, 1);
    const order: string[] = [];
    const take = (host: string, label: string): Promise<Release> => slots.acquire(host).then((release) => (order.push(label), release));
    const firstA = await take('a', 'a0');
    const queuedA = take('a', 'a1');
    await take('b', 'b0'); // a is full: b, come later, is not held back
    assert.deepEqual(order, ['a0', 'b0']);
    firstA();
    (await queuedA)();
    assert.deepEqual(order, ['a0', 'b0', 'a1']);
    // 30,000 waiters on one host, one at a time: each release used to scan every waiter left (~4.5e8 steps, seconds).
    // CPU time, not wall time: a loaded machine makes the wall clock long, not the work.
    const started = process.cpuUsage();
    let served = 0;
    await Promise.all(Array.from({ length: 30_000 }, () => slots.acquire('c').then((release) => (served++, release()))));
    assert.equal(served, 30_000);
    const { user, system } = process.cpuUsage(started);
    assert.ok(user + system < 1_000_000, `${Math.round((user + system) / 1000)} ms of CPU`);
  });
});

describe('requests waiting for a slot', () => {
  it('cost little memory each: the signal, deadline and closures of a request are made once it has its slot', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let unblock = (): void => {};
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    const s = await startSiteServer({ '/s': (_req, res) => void blocked.then(() => res.writeHead(200).end('ok')) });
    // A run signal, as discover passes one: each request's own signal then joins it (AbortSignal.any).
    const client = new HttpClient({ allowPrivate: true, perHostConcurrency: 1, retries: 0, signal: new AbortController().signal });
    try {
      const first = client.get(s.url('/s'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      gc();
      const before = process.memoryUsage().heapUsed;
      const waiting = Array.from({ length: 1_000 }, () => client.get(s.url('/s')));
      await new Promise((resolve) => setTimeout(resolve, 50));
      gc();
      const perRequest = (process.memoryUsage().heapUsed - before) / 1_000;
      unblock();
      // One slot: each body is let go of before the next request can have it.
      for (const r of [first, ...waiting]) {
        const outcome = await r;
        if (outcome.ok) await outcome.body.cancel();
      }
      assert.ok(perRequest < 4_000, `${Math.round(perRequest)} bytes per waiting request`);
    } finally {
      await client.close();
      await s.close();
    }
  });
});

describe('injected fetch', () => {
  it("discover runs on Node's own fetch when it is injected", async () => {
    const s = await startSiteServer({ '/s.xml': { headers: { 'content-encoding': 'gzip' }, body: gzipSync(urlset(pages('injected', 3))) } });
    s.route('/robots.txt', { type: 'text/plain', body: `Sitemap: ${s.url('/s.xml')}\n` });
    try {
      const urls: string[] = [];
      for await (const event of discoverSitemaps(s.url('/'), { allowPrivate: true, fetch: globalThis.fetch })) if (event.type === 'url') urls.push(event.entry.loc);
      assert.deepEqual(urls, pages('injected', 3));
    } finally {
      await s.close();
    }
  });
});

describe('validate URL', () => {
  it('checks the location scope against the URL that answered', async () => {
    const s = await startSiteServer({});
    s.route('/blog/sitemap.xml', { body: urlset([s.url('/blog/a'), s.url('/shop/b')]) });
    s.route('/old.xml', { status: 301, headers: { location: '/blog/sitemap.xml' } });
    try {
      const result = await validateSitemapUrl(s.url('/old.xml'), { allowPrivate: true });
      assert.equal(result.finalUrl, s.url('/blog/sitemap.xml'));
      assert.deepEqual(
        result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
        ['loc/out-of-scope'],
      );
    } finally {
      await s.close();
    }
  });

  it('does not charge the time its reader holds the body back (backpressure) to the deadline', async () => {
    const s = await startSiteServer({ '/large.xml': { body: urlset(pages('held', 30_000)) } });
    try {
      let waits = 0;
      const started = performance.now();
      const result = await validateSitemapUrl(s.url('/large.xml'), {
        allowPrivate: true,
        timeoutMs: 300,
        location: 'https://www.example.com/sitemap.xml',
        backpressure: () => {
          waits++;
          return new Promise((resolve) => setTimeout(resolve, 25));
        },
      });
      assert.ok(performance.now() - started > 300, `held ${waits} times, not longer than the deadline`);
      assert.equal(result.counts?.errors ?? 0, 0);
      assert.equal(result.status, 200);
    } finally {
      await s.close();
    }
  });

  it('sitemapkit validate URL --follow fetches the children; a failed fetch exits 2', async () => {
    const s = await startSiteServer({});
    s.route('/index.xml', { body: sitemapIndex([s.url('/a.xml'), s.url('/b.xml')]) });
    s.route('/a.xml', { body: urlset([s.url('/one')]) });
    s.route('/b.xml', { body: urlset([s.url('/two'), 'https://elsewhere.example/three']) });
    const cwd = tempDir();
    try {
      const r = await runCli(['validate', s.url('/index.xml'), '--follow', '--allow-private', '--format', 'json'], { cwd });
      assert.equal(r.code, 1, r.stderr);
      const { files } = JSON.parse(r.stdout) as { files: Array<{ file: string; diagnostics: Array<{ code: string }> }> };
      assert.deepEqual(
        files.map((f) => f.file),
        [s.url('/index.xml'), s.url('/a.xml'), s.url('/b.xml')],
      );
      assert.deepEqual(files[2]?.diagnostics.map((d) => d.code), ['loc/out-of-scope']);
      const refused = await runCli(['validate', s.url('/a.xml')], { cwd });
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /fetch\/address-refused/);
      const missing = await runCli(['validate', s.url('/missing.xml'), '--allow-private'], { cwd });
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /HTTP 404/);
    } finally {
      await s.close();
    }
  });
});

describe('a body cut short (issue 22)', () => {
  const body = urlset(pages('cut', 500));
  const part = body.slice(0, 10_000);
  const head = 'HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\n';
  const cases: Record<string, { respond: (socket: import('node:net').Socket) => void; code: string | undefined }> = {
    'shorter than its Content-Length': { respond: (s) => s.write(`${head}Content-Length: ${body.length}\r\n\r\n${part}`, () => s.destroy()), code: 'fetch/truncated' },
    'chunked without its last chunk': { respond: (s) => s.write(`${head}Transfer-Encoding: chunked\r\n\r\n${part.length.toString(16)}\r\n${part}\r\n`, () => s.destroy()), code: 'fetch/truncated' },
    'close-delimited, then reset': { respond: (s) => s.write(`${head}Connection: close\r\n\r\n${part}`, () => setTimeout(() => s.resetAndDestroy(), 20)), code: 'fetch/truncated' },
    // RFC 9112 §6.3 item 8: the close ends the body; the transport cannot tell it is short.
    'close-delimited, then closed': { respond: (s) => s.end(`${head}Connection: close\r\n\r\n${part}`), code: undefined },
  };
  for (const [name, { respond, code }] of Object.entries(cases)) {
    it(`${name}: ${code ?? 'read to its end'}`, async () => {
      const raw = await startRawServer((socket) => respond(socket));
      const client = new HttpClient({ allowPrivate: true, retries: 0 });
      try {
        const r = await client.get(raw.url('/s.xml'));
        assert.ok(r.ok);
        if (code === undefined) {
          assert.equal(await text(r.body), part);
          assert.equal(r.body.delimitation, 'close');
        } else {
          await assert.rejects(text(r.body), (e: { code?: string; rule?: string }) => e.code === 'ERR_SITEMAP_INPUT' && e.rule === code);
        }
      } finally {
        await client.close();
        await raw.close();
      }
    });
  }
});

describe('a Content-Encoding body cut short or corrupt (issue 22)', () => {
  const gzipped = gzipSync(urlset(pages('gz', 2000)));
  const head = 'HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n';
  const half = gzipped.subarray(0, gzipped.length >> 1);
  const chunked = Buffer.concat([Buffer.from(`${half.length.toString(16)}\r\n`), half, Buffer.from('\r\n0\r\n\r\n')]);
  const cases: Record<string, { body: Buffer; code: string; framing?: string; encoding?: string }> = {
    // A clean close ends the body by HTTP, but the gzip stream inside it is unfinished: cut short.
    'gzip stream cut, then closed': { body: half, code: 'fetch/truncated' },
    'gzip stream corrupt': { body: Buffer.concat([gzipped.subarray(0, 10), Buffer.alloc(200, 0xff)]), code: 'fetch/body' },
    // Brotli names its errors ERR__ERROR_FORMAT_…, not Z_…: gzip data sent as br is corrupt, not cut (curl: exit 61).
    'br stream corrupt': { body: gzipped, code: 'fetch/body', encoding: 'br' },
    // The response arrived whole by its own framing: the server sent an unfinished gzip stream; no connection cut it.
    'gzip stream unfinished in a whole Content-Length body': { body: half, code: 'fetch/body', framing: `Content-Length: ${half.length}\r\n` },
    'gzip stream unfinished in a whole chunked body': { body: chunked, code: 'fetch/body', framing: 'Transfer-Encoding: chunked\r\n' },
  };
  for (const [name, { body, code, framing = '', encoding = 'gzip' }] of Object.entries(cases)) {
    it(`${name}: ${code}`, async () => {
      const response = Buffer.concat([Buffer.from(head.replace('\r\n\r\n', `\r\n${framing}\r\n`).replace('gzip', encoding)), body]);
      const raw = await startRawServer((socket) => socket.end(response));
      const client = new HttpClient({ allowPrivate: true, retries: 0 });
      try {
        const r = await client.get(raw.url('/s.xml'));
        assert.ok(r.ok);
        await assert.rejects(text(r.body), (e: { code?: string; rule?: string }) => e.code === 'ERR_SITEMAP_INPUT' && e.rule === code);
      } finally {
        await client.close();
        await raw.close();
      }
    });
  }
});

describe('an empty body', () => {
  // curl and browsers read no bytes as an empty body whatever its Content-Encoding (denoland/deno#29281);
  // ended by a clean close it is as whole as with Content-Length: 0 (RFC 9112 §6.3 item 8).
  it('is empty, not a corrupt or cut Content-Encoding, whatever its coding and framing', async () => {
    const raw = await startRawServer((socket, path) => {
      const [, encoding, framing] = path.split('/');
      const coding = encoding === 'none' ? '' : `Content-Encoding: ${encoding}\r\n`;
      socket.end(`HTTP/1.1 200 OK\r\n${coding}${framing === 'close' ? '' : 'Content-Length: 0\r\n'}Connection: close\r\n\r\n`);
    });
    const client = new HttpClient({ allowPrivate: true, retries: 0 });
    try {
      for (const encoding of ['none', 'gzip', 'deflate', 'br']) {
        for (const framing of ['close', 'length']) {
          const r = await client.get(raw.url(`/${encoding}/${framing}`));
          assert.ok(r.ok, `${encoding}, ${framing}: ${r.ok ? '' : r.message}`);
          assert.equal(await text(r.body).catch((e: Error) => e.message), '', `${encoding}, ${framing}`);
        }
      }
    } finally {
      await client.close();
      await raw.close();
    }
  });
});

describe('a status HTTP does not define', () => {
  it('is fetch/http-status, not retried, and said without an internal marker', async () => {
    const raw = await startRawServer((socket) => socket.end('HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n'));
    const client = new HttpClient({ allowPrivate: true, retryBaseDelayMs: 1 });
    try {
      const r = await client.get(raw.url('/s.xml'));
      assert.ok(!r.ok);
      assert.deepEqual([r.code, r.message, r.attempts], ['fetch/http-status', 'HTTP 999, which is no final status (RFC 9110 §15: 200 to 599)', 1]);
      assert.equal(raw.requests.length, 1);
    } finally {
      await client.close();
      await raw.close();
    }
  });
});

describe('a 206 Partial Content to a request without Range', () => {
  it('is fetch/http-status naming the part, not read as the whole document (RFC 9110 §15.3.7)', async () => {
    const whole = urlset(pages('part', 20));
    const s = await startSiteServer({ '/s.xml': { status: 206, headers: { 'content-range': `bytes 0-99/${whole.length}` }, body: whole.slice(0, 100) } });
    const client = new HttpClient({ allowPrivate: true, retryBaseDelayMs: 1 });
    try {
      const r = await client.get(s.url('/s.xml'));
      assert.ok(!r.ok);
      const message = `HTTP 206 Partial Content (bytes 0-99/${whole.length}) to a request for the whole document: a 206 answers a Range request only, and none was sent (RFC 9110 §15.3.7)`;
      assert.deepEqual([r.code, r.message, r.attempts], ['fetch/http-status', message, 1]);
      const [node] = (await discoverSitemaps(s.url('/s.xml'), { allowPrivate: true }).tree()).inputs[0]?.sitemaps ?? [];
      assert.deepEqual([node?.outcome, node?.urls, node?.diagnostics.map((d) => d.code)], ['failed', 0, ['fetch/http-status']]);
    } finally {
      await client.close();
      await s.close();
    }
  });
});

describe('a response that is no valid HTTP', () => {
  it('is not retried: headers over the parser limit, or no HTTP at all, fail the same way every time', async () => {
    const answers: Record<string, string> = {
      '/big.xml': `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(300_000)}\r\nContent-Length: 0\r\n\r\n`,
      '/banner.xml': 'SSH-2.0-OpenSSH_9.6\r\n\r\n',
    };
    const raw = await startRawServer((socket, path) => socket.end(answers[path] ?? ''));
    const client = new HttpClient({ allowPrivate: true, retries: 3, retryBaseDelayMs: 1 });
    try {
      for (const [path, code] of [['/big.xml', 'HPE_HEADER_OVERFLOW'], ['/banner.xml', 'HPE_INVALID_CONSTANT']]) {
        const r = await client.get(raw.url(path as string));
        assert.ok(!r.ok);
        assert.deepEqual([r.code, r.cause, r.attempts], ['fetch/connection', code, 1]);
      }
      assert.equal(raw.requests.length, 2);
    } finally {
      await client.close();
      await raw.close();
    }
  });
});

describe('a Location in raw UTF-8', () => {
  it('is read as UTF-8, as browsers read it (Node gives header bytes as Latin-1)', async () => {
    const raw = await startRawServer((socket, path) => {
      if (path === '/caf%C3%A9.xml') socket.end(`HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n${urlset(pages('cafe', 1))}`);
      else socket.end(Buffer.from('HTTP/1.1 301 Moved\r\nLocation: /café.xml\r\nConnection: close\r\n\r\n', 'utf8'));
    });
    const client = new HttpClient({ allowPrivate: true, retries: 0 });
    try {
      const r = await client.get(raw.url('/old.xml'));
      assert.ok(r.ok);
      await r.body.cancel();
      assert.deepEqual([r.status, r.url], [200, raw.url('/caf%C3%A9.xml')]);
    } finally {
      await client.close();
      await raw.close();
    }
  });
});

describe('a timeout after a redirect', () => {
  it('names the URL that did not answer in time, not only the one asked for', async () => {
    const s = await startSiteServer({ '/moved.xml': { status: 302, headers: { location: '/slow.xml' } }, '/slow.xml': () => {} });
    const client = new HttpClient({ allowPrivate: true, timeoutMs: 200, retries: 0 });
    try {
      const r = await client.get(s.url('/moved.xml'));
      assert.ok(!r.ok);
      assert.equal(r.code, 'fetch/timeout');
      assert.match(r.message, new RegExp(`^no complete response from ${s.url('/slow.xml')} \\(redirected\\) within 0.2 s`));
      const direct = await client.get(s.url('/slow.xml'));
      assert.ok(!direct.ok);
      assert.match(direct.message, /^no complete response within 0.2 s/);
    } finally {
      await client.close();
      await s.close();
    }
  });
});

describe('a URL that URL parsers refuse', () => {
  it('is fetch/bad-url saying why (a port past 65535, a broken IPv6 host), not only "not a URL"', async () => {
    const client = new HttpClient({ retries: 0 });
    try {
      for (const [url, why] of [['https://e.com:99999/s.xml', 'its port 99999 is past 65535'], ['http://[::1/s.xml', 'its host "[::1" is not an IPv6 address in brackets']]) {
        const r = await client.get(url as string);
        assert.ok(!r.ok);
        assert.deepEqual([r.code, r.message], ['fetch/bad-url', `not a URL: ${JSON.stringify(url)} (${why})`]);
      }
      const usage = await runCli(['discover', 'https://e.com:99999/'], { cwd: tempDir() });
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /^sitemapkit discover: not a URL: "https:\/\/e\.com:99999\/" \(its port 99999 is past 65535\)$/m);
    } finally {
      await client.close();
    }
  });
});

describe('a redirect the address policy refuses', () => {
  it('names the target it refused, not only the URL asked for', async () => {
    const s = await startSiteServer({ '/to-file.xml': { status: 302, headers: { location: 'file:///etc/passwd' } }, '/to-private.xml': { status: 302, headers: { location: 'http://10.0.0.1/s.xml' } } });
    const client = new HttpClient({ allowAddresses: ['127.0.0.1/32'], retries: 0 });
    try {
      const file = await client.get(s.url('/to-file.xml'));
      assert.ok(!file.ok);
      assert.deepEqual([file.code, file.message], ['fetch/scheme-refused', 'not followed: redirects to file:///etc/passwd, and file: URLs are not fetched (only http and https)']);
      const hop = await client.get(s.url('/to-private.xml'));
      assert.ok(!hop.ok);
      assert.equal(hop.message, 'not followed: redirects to http://10.0.0.1/s.xml, and 10.0.0.1 is a private address (use --allow-private to fetch from private networks)');
      // Asked directly, the URL is the caller's to name.
      const direct = await client.get('http://10.0.0.1/s.xml');
      assert.ok(!direct.ok);
      assert.equal(direct.message, '10.0.0.1 is a private address (use --allow-private to fetch from private networks)');
    } finally {
      await client.close();
      await s.close();
    }
  });
});

describe('a status other than 2xx after a redirect', () => {
  it('names the URL that answered it, in read and in discover', async () => {
    const s = await startSiteServer({ '/moved.xml': { status: 302, headers: { location: '/gone.xml' } }, '/gone.xml': { status: 404, body: 'no' } });
    const client = new HttpClient({ allowPrivate: true, retries: 0 });
    try {
      const { fetchSitemap } = await import('../../src/node/fetch-sitemap.js');
      await assert.rejects(fetchSitemap(s.url('/moved.xml'), client), { message: `cannot fetch ${s.url('/moved.xml')}: HTTP 404 from ${s.url('/gone.xml')} (redirected)` });
      await assert.rejects(fetchSitemap(s.url('/gone.xml'), client), { message: `cannot fetch ${s.url('/gone.xml')}: HTTP 404` });
      const messages: string[] = [];
      for await (const event of discoverSitemaps(s.url('/moved.xml'), { allowPrivate: true, retries: 0 })) {
        if (event.type === 'sitemap') messages.push(...event.sitemap.diagnostics.map((d) => d.message));
      }
      assert.deepEqual(messages, [`HTTP 404 Not Found from ${s.url('/gone.xml')} (redirected)`]);
    } finally {
      await client.close();
      await s.close();
    }
  });

  it('a redirect status without a Location says there is nowhere to go, not only "HTTP 302"', async () => {
    const s = await startSiteServer({ '/nowhere.xml': { status: 302, body: 'moved' } });
    const client = new HttpClient({ allowPrivate: true, retries: 0 });
    try {
      const { fetchSitemap } = await import('../../src/node/fetch-sitemap.js');
      await assert.rejects(fetchSitemap(s.url('/nowhere.xml'), client), { message: `cannot fetch ${s.url('/nowhere.xml')}: HTTP 302, a redirect without a Location header: nowhere to follow (RFC 9110 §10.2.2)` });
    } finally {
      await client.close();
      await s.close();
    }
  });
});

describe('a run stopped by its signal with a reason of its own', () => {
  it('is fetch/aborted, not retried, before the answer and during the body, whatever the reason', async () => {
    const raw = await startRawServer((socket, path) => {
      // /silent answers nothing; the others headers and a first part of the body, then nothing: the run's signal ends it.
      if (path !== '/silent') socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n<urlset>');
    });
    try {
      for (const reason of [new Error('mine'), 'a string', undefined]) {
        for (const where of ['headers', 'body'] as const) {
          const controller = new AbortController();
          const client = new HttpClient({ allowPrivate: true, retryBaseDelayMs: 1, signal: controller.signal });
          try {
            if (where === 'headers') {
              setTimeout(() => controller.abort(reason), 20);
              const r = await client.get(raw.url('/silent'));
              assert.ok(!r.ok);
              assert.equal(r.code, 'fetch/aborted', `${String(reason)} ${where}: ${r.message}`);
              assert.equal(r.attempts, 1);
            } else {
              const r = await client.get(raw.url('/s.xml'));
              assert.ok(r.ok);
              const reading = text(r.body);
              setTimeout(() => controller.abort(reason), 20);
              await assert.rejects(reading, (e: { rule?: string }) => e.rule === 'fetch/aborted');
            }
          } finally {
            await client.close();
          }
        }
      }
    } finally {
      await raw.close();
    }
  });
});

describe('an unreachable host (issue 22)', () => {
  it('a redirect to a name that does not resolve: the message names that host', async () => {
    const s = await startSiteServer({ '/moved.xml': { status: 301, headers: { location: 'http://gone.example/s.xml' }, body: '' } });
    const lookup = async (hostname: string): Promise<never> => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    // allowPrivate: no lookup before the request; the name fails at connect time.
    const client = new HttpClient({ allowPrivate: true, retries: 0, lookup });
    try {
      const r = await client.get(s.url('/moved.xml'));
      assert.ok(!r.ok);
      assert.deepEqual([r.code, r.url, r.message], ['fetch/dns', 'http://gone.example/s.xml', 'gone.example could not be resolved (ENOTFOUND)']);
    } finally {
      await client.close();
      await s.close();
    }
  });

  it('is asked once: later requests to its origin fail the same way without a request', async () => {
    const port = await closedPort();
    const client = new HttpClient({ allowPrivate: true, retries: 1, retryBaseDelayMs: 1 });
    try {
      const first = await client.get(`http://127.0.0.1:${port}/a.xml`);
      assert.ok(!first.ok);
      assert.equal(first.code, 'fetch/connection');
      assert.equal(first.cause, 'ECONNREFUSED');
      assert.equal(client.requests, 2); // the request and its retry
      const second = await client.get(`http://127.0.0.1:${port}/b.xml`);
      assert.ok(!second.ok);
      assert.equal(second.code, 'fetch/connection');
      assert.match(second.message, /not requested again/);
      assert.equal(client.requests, 2);
    } finally {
      await client.close();
    }
  });
});

describe('a failed TLS handshake (issue 23)', () => {
  it('is not retried, stops the origin like a refused connection, and is said in one line', async () => {
    // https asked of a port that speaks plain http: the handshake fails the same way every time.
    const s = await startSiteServer({ '/a.xml': { body: urlset(pages('tls', 1)) } });
    const origin = s.origin.replace('http:', 'https:');
    const client = new HttpClient({ allowPrivate: true, retries: 3, retryBaseDelayMs: 1 });
    try {
      const first = await client.get(`${origin}/a.xml`);
      assert.ok(!first.ok);
      assert.equal(first.code, 'fetch/connection');
      assert.equal(first.cause, 'EPROTO');
      assert.match(first.message, /^TLS handshake failed: /);
      assert.doesNotMatch(first.message, /\n/);
      assert.equal(first.attempts, 1);
      assert.equal(client.requests, 1);
      const second = await client.get(`${origin}/b.xml`);
      assert.ok(!second.ok);
      assert.match(second.message, /not requested again/);
      assert.equal(client.requests, 1);
      assert.equal(s.requests.length, 0, 'no HTTP request reached the server');
    } finally {
      await client.close();
      await s.close();
    }
  });
});

describe('AddressPolicy: why an address is refused, in one sentence', () => {
  it('names the host, the address it resolves to and its kind', async () => {
    const { AddressPolicy } = await import('../../src/node/http/policy.js');
    const policy = new AddressPolicy({ lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
    const refusal = await policy.check(new URL('http://localhost:8080/sitemap.xml'));
    assert.equal(refusal?.code, 'fetch/address-refused');
    assert.equal(refusal?.message, 'localhost resolves to 127.0.0.1, a loopback address (use --allow-private to fetch from private networks)');
    const literal = await policy.check(new URL('http://10.1.2.3/s.xml'));
    assert.equal(literal?.message, '10.1.2.3 is a private address (use --allow-private to fetch from private networks)');
    const unspecified = await policy.check(new URL('http://0.0.0.0/s.xml'));
    assert.equal(unspecified?.message, '0.0.0.0 is an unspecified address (use --allow-private to fetch from private networks)');
  });
});

describe('Retry-After', () => {
  const now = Date.UTC(2026, 10, 27, 10, 0, 0);

  it('is delay-seconds or an HTTP-date (RFC 9110 §10.2.3), nothing else', () => {
    assert.equal(retryAfterMs(' 120 ', now), 120_000);
    assert.equal(retryAfterMs('Fri, 27 Nov 2026 10:00:30 GMT', now), 30_000);
    assert.equal(retryAfterMs('Fri, 27 Nov 2026 09:00:00 GMT', now), 0);
    assert.equal(retryAfterMs('2026-11-27T10:00:30Z', now), undefined);
    assert.equal(retryAfterMs(null, now), undefined);
  });
});

describe('HttpClient options', () => {
  it('refuses counts that would wait for ever or mean nothing (concurrency 0 hung discover)', async () => {
    for (const options of [{ concurrency: 0 }, { perHostConcurrency: 0 }, { concurrency: -1 }, { retries: Number.NaN }, { maxRedirects: -1 }]) {
      assert.throws(() => new HttpClient(options), (error: Error & { code?: string }) => error.code === 'ERR_SITEMAP_OPTION', JSON.stringify(options));
    }
    const run = (async () => {
      for await (const event of discoverSitemaps('http://127.0.0.1:1/sitemap.xml', { concurrency: 0, allowPrivate: true })) void event;
    })();
    await assert.rejects(run, (error: Error & { code?: string }) => error.code === 'ERR_SITEMAP_OPTION');
  });
});
