// IndexNow submission against a fake endpoint on 127.0.0.1 (issue #6 "Announcing"): the exact
// requests (method, path, Content-Type, JSON body, how many), each status code, retries with their
// waits, the deadline, redirects, connection failures and a stopped run.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { indexNowPayloads, type IndexNowPayload } from '../../src/core/indexnow.js';
import { submitIndexNow, type IndexNowResult, type IndexNowSubmitOptions } from '../../src/node/indexnow.js';
import { startSiteServer, type SiteServer } from '../helpers/site-server.js';

const KEY = '73134416ae45434d98edc086e0bf6740';
const USER_AGENT = 'sitemapkit-test/1.0';

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (for the deadline and for a stopped run). */
  hang?: boolean;
}

interface Received {
  method: string;
  path: string;
  contentType: string | undefined;
  userAgent: string | undefined;
  body: string;
}

interface FakeEndpoint {
  server: SiteServer;
  received: Received[];
  /** The most requests the endpoint had under way at once. */
  maxInFlight: number;
}

/** An IndexNow endpoint at /indexnow that gives `answers` in turn (then 500s). */
async function fakeEndpoint(answers: Answer[]): Promise<FakeEndpoint> {
  const fake: FakeEndpoint = { server: undefined as unknown as SiteServer, received: [], maxInFlight: 0 };
  let inFlight = 0;
  fake.server = await startSiteServer({
    '/indexnow': async (req, res) => {
      inFlight++;
      fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
      res.on('close', () => inFlight--);
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      fake.received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        userAgent: req.headers['user-agent'],
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = answers.shift() ?? { status: 500, body: 'the test gave no answer for this request' };
      if (answer.hang === true) return;
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? '');
    },
  });
  return fake;
}

/** Submits to `fake` with an injected sleep that records its waits instead of waiting. */
async function submit(fake: FakeEndpoint, payloads: IndexNowPayload[], options: IndexNowSubmitOptions = {}): Promise<{ results: IndexNowResult[]; waits: number[] }> {
  const waits: number[] = [];
  const results = await submitIndexNow(payloads, {
    endpoint: fake.server.origin, // no path: /indexnow is added
    userAgent: USER_AGENT,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { results, waits };
}

function payload(host = 'www.example.com', count = 3): IndexNowPayload {
  return { host, key: KEY, urlList: Array.from({ length: count }, (_, i) => `https://${host}/page/${i}`) };
}

function assertRequestsCarry(fake: FakeEndpoint, payloads: IndexNowPayload[]): void {
  assert.equal(fake.received.length, payloads.length, 'number of requests');
  fake.received.forEach((request, i) => {
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/indexnow');
    assert.equal(request.contentType, 'application/json; charset=utf-8');
    assert.equal(request.userAgent, USER_AGENT);
    assert.equal(request.body, JSON.stringify(payloads[i]));
  });
}

/** A port on 127.0.0.1 with nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('submitIndexNow', () => {
  it('200: one POST of the JSON payload to /indexnow, accepted', async () => {
    const fake = await fakeEndpoint([{ status: 200 }]);
    try {
      const sent = payload();
      const { results, waits } = await submit(fake, [sent]);
      assertRequestsCarry(fake, [sent]);
      assert.deepEqual(JSON.parse(fake.received[0]?.body ?? ''), {
        host: 'www.example.com',
        key: KEY,
        urlList: ['https://www.example.com/page/0', 'https://www.example.com/page/1', 'https://www.example.com/page/2'],
      });
      const [result] = results;
      assert.ok(result !== undefined);
      assert.deepEqual([result.accepted, result.status, result.code, result.attempts], [true, 200, 'indexnow/accepted', 1]);
      assert.equal(result.endpoint, `${fake.server.origin}/indexnow`);
      assert.equal(result.payload, sent);
      assert.equal(result.response, undefined);
      assert.deepEqual(waits, []);
    } finally {
      await fake.server.close();
    }
  });

  it('202: accepted, with the key validation pending and where the key file must stay', async () => {
    const fake = await fakeEndpoint([{ status: 202 }]);
    try {
      const { results } = await submit(fake, [payload()]);
      assert.equal(fake.received.length, 1);
      const [result] = results;
      assert.deepEqual([result?.accepted, result?.status, result?.code, result?.attempts], [true, 202, 'indexnow/accepted', 1]);
      assert.match(result?.message ?? '', /key is not validated yet/);
      assert.match(result?.hint ?? '', new RegExp(`https://www\\.example\\.com/${KEY}\\.txt`));
    } finally {
      await fake.server.close();
    }
  });

  it('400, 403, 422: one request each, not retried, explained, with what the endpoint said', async () => {
    const fake = await fakeEndpoint([
      { status: 400, body: 'Invalid format' },
      { status: 403, headers: { 'content-type': 'application/json' }, body: '{"code":"UserForbiddedToAccessSite",\n  "message":"User is unauthorized to access the site."}' },
      { status: 422, body: 'Invalid url' },
    ]);
    try {
      const payloads = [payload('a.example'), payload('b.example'), payload('c.example')];
      const seen: string[] = [];
      const { results, waits } = await submit(fake, payloads, { onResult: (r) => seen.push(r.code) });
      assertRequestsCarry(fake, payloads);
      assert.deepEqual(waits, []);
      assert.deepEqual(
        results.map((r) => [r.status, r.accepted, r.code, r.attempts]),
        [
          [400, false, 'indexnow/bad-request', 1],
          [403, false, 'indexnow/forbidden', 1],
          [422, false, 'indexnow/unprocessable', 1],
        ],
      );
      assert.deepEqual(seen, ['indexnow/bad-request', 'indexnow/forbidden', 'indexnow/unprocessable']);
      assert.equal(results[0]?.response, 'Invalid format');
      assert.equal(results[1]?.response, '{"code":"UserForbiddedToAccessSite", "message":"User is unauthorized to access the site."}');
      assert.match(results[1]?.hint ?? '', new RegExp(`https://b\\.example/${KEY}\\.txt.*--write-key-file`));
      assert.match(results[2]?.hint ?? '', /every URL must be on c\.example/);
    } finally {
      await fake.server.close();
    }
  });

  it('429 with Retry-After: 1, then 200: retried once after waiting the 1,000 ms asked for', async () => {
    const fake = await fakeEndpoint([{ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }]);
    try {
      const sent = payload();
      const { results, waits } = await submit(fake, [sent]);
      assertRequestsCarry(fake, [sent, sent]);
      assert.deepEqual(waits, [1_000]);
      assert.deepEqual([results[0]?.accepted, results[0]?.status, results[0]?.attempts], [true, 200, 2]);
    } finally {
      await fake.server.close();
    }
  });

  it('429 with Retry-After: 1 really waits that long with the default sleep', async () => {
    const fake = await fakeEndpoint([{ status: 429, headers: { 'retry-after': '1' } }, { status: 202 }]);
    try {
      const started = performance.now();
      const results = await submitIndexNow([payload()], { endpoint: fake.server.origin });
      const elapsed = performance.now() - started;
      assert.equal(fake.received.length, 2);
      assert.ok(elapsed >= 950, `waited ${elapsed} ms`);
      assert.deepEqual([results[0]?.accepted, results[0]?.attempts], [true, 2]);
      assert.equal(fake.received[0]?.userAgent, 'sitemapkit');
    } finally {
      await fake.server.close();
    }
  });

  it('429 with an HTTP-date Retry-After waits until that date', async () => {
    const when = new Date(Date.now() + 5_000).toUTCString(); // whole seconds: 4 to 5 s from now
    const fake = await fakeEndpoint([{ status: 429, headers: { 'retry-after': when } }, { status: 200 }]);
    try {
      const { results, waits } = await submit(fake, [payload()]);
      assert.equal(fake.received.length, 2);
      assert.equal(waits.length, 1);
      assert.ok(waits[0] !== undefined && waits[0] > 3_000 && waits[0] <= 5_000, `waited ${waits[0]} ms`);
      assert.equal(results[0]?.accepted, true);
    } finally {
      await fake.server.close();
    }
  });

  it('429 asking for longer than the 60 s cap is not waited for, and the message says so', async () => {
    const fake = await fakeEndpoint([{ status: 429, headers: { 'retry-after': '3600' } }]);
    try {
      const { results, waits } = await submit(fake, [payload()]);
      assert.equal(fake.received.length, 1);
      assert.deepEqual(waits, []);
      const [result] = results;
      assert.deepEqual([result?.accepted, result?.status, result?.code, result?.attempts], [false, 429, 'indexnow/too-many-requests', 1]);
      assert.match(result?.message ?? '', /asked to wait 3600 s before a retry, more than the 60 s this waits; not retried/);
    } finally {
      await fake.server.close();
    }
  });

  it('429 every time: 1 + 3 retries with doubling, jittered waits, then gives up', async () => {
    const fake = await fakeEndpoint([{ status: 429 }, { status: 429 }, { status: 429 }, { status: 429 }, { status: 200 }]);
    try {
      const sent = payload();
      const { results, waits } = await submit(fake, [sent]);
      assertRequestsCarry(fake, [sent, sent, sent, sent]);
      assert.equal(waits.length, 3);
      [1_000, 2_000, 4_000].forEach((backoff, i) => {
        const wait = waits[i] ?? -1;
        assert.ok(wait >= backoff / 2 && wait <= backoff, `wait ${i + 1}: ${wait} ms for a ${backoff} ms backoff`);
      });
      const [result] = results;
      assert.deepEqual([result?.accepted, result?.status, result?.code, result?.attempts], [false, 429, 'indexnow/too-many-requests', 4]);
      assert.match(result?.message ?? '', /gave up after 4 attempts/);
    } finally {
      await fake.server.close();
    }
  });

  it('500 then 200: retried once after a backoff', async () => {
    const fake = await fakeEndpoint([{ status: 500, body: 'internal error' }, { status: 200 }]);
    try {
      const sent = payload();
      const { results, waits } = await submit(fake, [sent], { retryBaseDelayMs: 200 });
      assertRequestsCarry(fake, [sent, sent]);
      assert.equal(waits.length, 1);
      assert.ok((waits[0] ?? -1) >= 100 && (waits[0] ?? -1) <= 200, `waited ${waits[0]} ms`);
      assert.deepEqual([results[0]?.accepted, results[0]?.status, results[0]?.code, results[0]?.attempts], [true, 200, 'indexnow/accepted', 2]);
    } finally {
      await fake.server.close();
    }
  });

  it('retries: 0 sends a 503 once', async () => {
    const fake = await fakeEndpoint([{ status: 503 }, { status: 200 }]);
    try {
      const { results, waits } = await submit(fake, [payload()], { retries: 0 });
      assert.equal(fake.received.length, 1);
      assert.deepEqual(waits, []);
      assert.deepEqual([results[0]?.accepted, results[0]?.code, results[0]?.attempts], [false, 'indexnow/server-error', 1]);
      // Sent once: nothing may say it was retried.
      assert.equal(results[0]?.message, '503: the endpoint failed (a server error) (not retried)');
    } finally {
      await fake.server.close();
    }
  });

  it('connection refused: retried, then reported with the error', async () => {
    const port = await closedPort();
    const waits: number[] = [];
    const results = await submitIndexNow([payload()], {
      endpoint: `http://127.0.0.1:${port}`,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const [result] = results;
    assert.deepEqual([result?.accepted, result?.status, result?.code, result?.attempts], [false, undefined, 'indexnow/connection', 4]);
    assert.match(result?.error ?? '', /ECONNREFUSED/);
    assert.equal(waits.length, 3);
  });

  it('an endpoint that does not answer within the deadline: timeout, not retried', async () => {
    const fake = await fakeEndpoint([{ status: 200, hang: true }, { status: 200 }]);
    try {
      const { results, waits } = await submit(fake, [payload()], { timeoutMs: 200 });
      assert.equal(fake.received.length, 1);
      assert.deepEqual(waits, []);
      assert.deepEqual([results[0]?.accepted, results[0]?.code, results[0]?.attempts], [false, 'indexnow/timeout', 1]);
      assert.match(results[0]?.message ?? '', /within 0\.2 s/);
    } finally {
      await fake.server.close();
    }
  });

  it('a redirect is not followed (a POST would lose its body)', async () => {
    const fake = await fakeEndpoint([{ status: 301, headers: { location: '/elsewhere' } }]);
    try {
      const { results } = await submit(fake, [payload()]);
      assert.equal(fake.received.length, 1);
      assert.equal(fake.server.count('/elsewhere'), 0);
      assert.deepEqual([results[0]?.accepted, results[0]?.status, results[0]?.code, results[0]?.attempts], [false, 301, 'indexnow/unexpected-status', 1]);
      assert.match(results[0]?.message ?? '', /Location: \/elsewhere/);
    } finally {
      await fake.server.close();
    }
  });

  it('payloads of two hosts from indexNowPayloads: one request each, in order, one at a time, keyLocation only on its host', async () => {
    const fake = await fakeEndpoint([{ status: 200 }, { status: 202 }, { status: 200 }]);
    try {
      const keyLocation = 'https://www.example.com/indexnow-key.txt';
      const payloads = indexNowPayloads(
        ['https://www.example.com/a', 'https://blog.example.com/a', 'https://www.example.com/b', 'https://www.example.com/c'],
        { key: KEY, keyLocation, maxUrlsPerPost: 2 },
      );
      const { results } = await submit(fake, payloads);
      assertRequestsCarry(fake, payloads);
      assert.equal(fake.maxInFlight, 1);
      assert.deepEqual(
        fake.received.map((r) => JSON.parse(r.body) as unknown),
        [
          { host: 'www.example.com', key: KEY, keyLocation, urlList: ['https://www.example.com/a', 'https://www.example.com/b'] },
          { host: 'www.example.com', key: KEY, keyLocation, urlList: ['https://www.example.com/c'] },
          { host: 'blog.example.com', key: KEY, urlList: ['https://blog.example.com/a'] },
        ],
      );
      assert.deepEqual(results.map((r) => [r.payload, r.accepted]), payloads.map((p) => [p, true]));
    } finally {
      await fake.server.close();
    }
  });

  it('a stopped run: the request under way is aborted, the payloads after it are not sent', async () => {
    const fake = await fakeEndpoint([{ status: 200, hang: true }]);
    const controller = new AbortController();
    try {
      const payloads = [payload('a.example'), payload('b.example')];
      const done = submit(fake, payloads, { signal: controller.signal });
      while (fake.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort();
      const { results } = await done;
      assert.equal(fake.received.length, 1);
      assert.deepEqual(
        results.map((r) => [r.accepted, r.code, r.attempts]),
        [
          [false, 'indexnow/aborted', 1],
          [false, 'indexnow/aborted', 0],
        ],
      );
    } finally {
      await fake.server.close();
    }
  });

  it('refuses an endpoint that is not http(s) before sending anything', async () => {
    await assert.rejects(submitIndexNow([payload()], { endpoint: 'ftp://api.indexnow.org/' }), (e: { code?: string }) => e.code === 'ERR_SITEMAP_OPTION');
  });
});
