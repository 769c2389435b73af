// A live source behind the handler: layout, lastmods, the cache (TTL, stale-while-revalidate, one
// generation at a time, bounded bytes) and failures (503 with Retry-After, or the stale copy).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { createSitemapHandler } from '../../../src/core/serve/handler.js';
import { liveSource, memoryStore, type LivePage, type LiveSourceOptions } from '../../../src/core/serve/live-source.js';
import type { UrlEntry } from '../../../src/core/model.js';
import { InvalidValueError } from '../../../src/core/errors.js';
import { xmllint } from '../../helpers/xmllint.js';
import { setTimeout as sleep } from 'node:timers/promises';

const BASE = 'https://www.example.com/';
const locs = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] as string);
const lastmods = (xml: string): string[] => [...xml.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)].map((m) => m[1] as string);

/** `n` rows of a "database"; entry i was modified on day i of 2026. */
function table(n: number, version = 'v1') {
  const calls: { offset: number; limit: number }[] = [];
  const range = ({ offset, limit }: { offset: number; limit: number }): UrlEntry[] => {
    calls.push({ offset, limit });
    const rows: UrlEntry[] = [];
    for (let i = offset; i < Math.min(n, offset + limit); i++) rows.push({ loc: `${BASE}${version}/${i}`, lastmod: new Date(Date.UTC(2026, 0, 1 + i)) });
    return rows;
  };
  return { calls, range };
}

function serve(options: Omit<LiveSourceOptions, 'baseUrl'>) {
  const handler = createSitemapHandler({ source: liveSource({ baseUrl: BASE, ...options }), baseUrl: BASE });
  return async (path: string) => {
    const response = await handler(new Request(`http://x${path}`, { headers: { 'accept-encoding': 'identity' } }));
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, xml: (path.endsWith('.gz') && response.status === 200 ? gunzipSync(body) : body).toString('utf8') };
  };
}

test('the set is laid out in children of maxUrls, each generated on request, the index with their newest lastmod', async () => {
  const { calls, range } = table(25);
  const get = serve({ count: () => 25, range, maxUrls: 10 });
  const index = await get('/sitemap.xml');
  assert.equal(index.status, 200);
  assert.deepEqual(locs(index.xml), [1, 2, 3].map((k) => `${BASE}sitemap-0000${k}.xml.gz`));
  assert.deepEqual(lastmods(index.xml), ['2026-01-10T00:00:00Z', '2026-01-20T00:00:00Z', '2026-01-25T00:00:00Z']);
  assert.ok((await xmllint(index.xml, 'siteindex')).valid);
  assert.deepEqual(calls, [{ offset: 0, limit: 10 }, { offset: 10, limit: 10 }, { offset: 20, limit: 10 }]);
  const third = await get('/sitemap-00003.xml.gz');
  assert.equal(third.headers.get('content-type'), 'application/gzip');
  assert.deepEqual(locs(third.xml), [20, 21, 22, 23, 24].map((i) => `${BASE}v1/${i}`));
  assert.ok((await xmllint(third.xml, 'sitemap')).valid);
  // Asked for as .xml, without gzip: the same child, decompressed.
  assert.deepEqual(locs((await get('/sitemap-00003.xml')).xml), locs(third.xml));
  // From the cache: no new call.
  assert.equal(calls.length, 3);
  for (const path of ['/sitemap-00004.xml.gz', '/sitemap-00000.xml.gz', '/sitemap-3.xml.gz', '/sitemap-000003.xml.gz', '/other.xml']) assert.equal((await get(path)).status, 404, path);
});

test('entries given as one iterable: a child skips to its first entry', async () => {
  const all = table(25).range({ offset: 0, limit: 25 });
  const get = serve({ count: () => 25, entries: () => all, maxUrls: 10 });
  assert.deepEqual(locs((await get('/sitemap-00002.xml.gz')).xml), [10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map((i) => `${BASE}v1/${i}`));
});

test('one generation per child however many requests wait for it', async () => {
  let calls = 0;
  const get = serve({
    count: () => 10,
    maxUrls: 10,
    async *range({ offset, limit }) {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (let i = offset; i < offset + limit; i++) yield { loc: `${BASE}p/${i}` };
    },
  });
  const answers = await Promise.all(Array.from({ length: 20 }, () => get('/sitemap-00001.xml.gz')));
  assert.ok(answers.every((a) => a.status === 200 && locs(a.xml).length === 10));
  assert.equal(calls, 1);
});

test('a range function may return a promise of the rows (a database page)', async () => {
  const get = serve({ count: () => 3, range: async ({ offset, limit }) => Array.from({ length: Math.min(limit, 3 - offset) }, (_, i) => ({ loc: `${BASE}row/${offset + i}` })) });
  const answer = await get('/sitemap-00001.xml.gz');
  assert.equal(answer.status, 200);
  assert.deepEqual(locs(answer.xml), [`${BASE}row/0`, `${BASE}row/1`, `${BASE}row/2`]);
});

test('TTL and stale-while-revalidate: fresh from the cache, then the stale copy while one new generation runs', async () => {
  let clock = 1_000_000;
  let version = 'v1';
  let calls = 0;
  const get = serve({
    count: () => 5,
    range: (page) => {
      calls++;
      return table(5, version).range(page);
    },
    ttlMs: 1000,
    staleMs: 5000,
    now: () => clock,
  });
  assert.deepEqual(locs((await get('/sitemap-00001.xml.gz')).xml)[0], `${BASE}v1/0`);
  version = 'v2';
  clock += 500;
  assert.deepEqual(locs((await get('/sitemap-00001.xml.gz')).xml)[0], `${BASE}v1/0`);
  assert.equal(calls, 1);
  clock += 1000;
  // Stale: answered at once from the old copy; a new one is made meanwhile.
  assert.deepEqual(locs((await get('/sitemap-00001.xml.gz')).xml)[0], `${BASE}v1/0`);
  // Until the new one is made (a loaded machine may take more than a few ms), still the stale copy.
  let served = `${BASE}v1/0`;
  for (let tries = 0; tries < 200 && served === `${BASE}v1/0`; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    served = locs((await get('/sitemap-00001.xml.gz')).xml)[0] as string;
  }
  assert.equal(served, `${BASE}v2/0`);
  assert.equal(calls, 2);
  // Expired (past TTL + stale): the request waits for the new one.
  version = 'v3';
  clock += 10_000;
  assert.deepEqual(locs((await get('/sitemap-00001.xml.gz')).xml)[0], `${BASE}v3/0`);
});

test('Last-Modified stays while a child made again has the same bytes', async () => {
  // In the past: a Last-Modified later than now is sent as now (RFC 9110 §8.8.2.1), which would change between the two requests.
  let clock = 1_700_000_000_000;
  const { range } = table(5);
  const get = serve({ count: () => 5, range, ttlMs: 1000, staleMs: 0, now: () => clock });
  const first = (await get('/sitemap-00001.xml.gz')).headers.get('last-modified');
  clock += 5000;
  const again = await get('/sitemap-00001.xml.gz');
  assert.equal(again.headers.get('last-modified'), first);
});

test('a source failing in the middle of a child: 503 with Retry-After, nothing cached; later it recovers', async () => {
  let fail = true;
  const errors: unknown[] = [];
  const get = serve({
    count: () => 10,
    async *range({ offset }) {
      for (let i = offset; i < offset + 10; i++) {
        if (fail && i === 5) throw new Error('connection lost');
        yield { loc: `${BASE}p/${i}` };
      }
    },
    onError: (error) => errors.push(error),
  });
  const failed = await get('/sitemap-00001.xml.gz');
  assert.equal(failed.status, 503);
  assert.ok(Number(failed.headers.get('retry-after')) > 0);
  assert.equal(errors.length, 1);
  fail = false;
  const ok = await get('/sitemap-00001.xml.gz');
  assert.equal(ok.status, 200);
  assert.equal(locs(ok.xml).length, 10);
});

test('one child that always fails: the index is served listing it without lastmod, the child answers 503 itself; made again once it works', async () => {
  let broken = true;
  const errors: string[] = [];
  const { range } = table(30);
  const get = serve({
    count: () => 30,
    maxUrls: 10,
    range: (page) => {
      if (broken && page.offset === 10) throw new Error('shard 2 unreachable');
      return range(page);
    },
    onError: (_error, name) => errors.push(name),
  });
  const index = await get('/sitemap.xml');
  assert.equal(index.status, 200);
  // Still listed (a crawler keeps what it knew of it and retries it), its lastmod unknown so not claimed.
  assert.deepEqual(locs(index.xml), [1, 2, 3].map((k) => `${BASE}sitemap-0000${k}.xml.gz`));
  assert.match(index.xml, /sitemap-00001\.xml\.gz<\/loc><lastmod>2026-01-10T00:00:00Z<\/lastmod><\/sitemap>\n<sitemap><loc>[^<]*sitemap-00002\.xml\.gz<\/loc><\/sitemap>/);
  assert.deepEqual(lastmods(index.xml), ['2026-01-10T00:00:00Z', '2026-01-30T00:00:00Z']);
  assert.ok((await xmllint(index.xml, 'siteindex')).valid);
  assert.deepEqual(errors, ['sitemap-00002.xml.gz']);
  const child = await get('/sitemap-00002.xml.gz');
  assert.equal(child.status, 503);
  assert.ok(Number(child.headers.get('retry-after')) > 0);
  assert.equal((await get('/sitemap-00003.xml.gz')).status, 200);
  // The page for people lists URLs and counts them: it does not show a set with a hole as whole.
  assert.equal((await get('/sitemap.html')).status, 503);
  // Once the shard is back, the index is made again with its lastmod (it was not kept as fresh).
  broken = false;
  let served = index.xml;
  for (let tries = 0; tries < 200 && lastmods(served).length < 3; tries++) {
    served = (await get('/sitemap.xml')).xml;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.deepEqual(lastmods(served), ['2026-01-10T00:00:00Z', '2026-01-20T00:00:00Z', '2026-01-30T00:00:00Z']);
  assert.equal((await get('/sitemap.html')).status, 200);
  // Past the count (looked at because the last child is full) a child that fails is not listed: the
  // count says it has no entry, and a slow source must not make the index name a child that is a 404.
  const { range: twenty } = table(20);
  const past = serve({
    count: () => 20,
    maxUrls: 10,
    range: (page) => {
      if (page.offset === 20) throw new Error('statement timeout');
      return twenty(page);
    },
  });
  const pastIndex = await past('/sitemap.xml');
  assert.equal(pastIndex.status, 200);
  assert.deepEqual(locs(pastIndex.xml), [1, 2].map((k) => `${BASE}sitemap-0000${k}.xml.gz`));
});

test('a failing or slow source with a stale copy: the stale copy; a slow one without: 503', async () => {
  // Unref'd: the generations it holds up never need to finish for the test to end.
  const slowerThanAnyTimeout = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1500).unref());
  let clock = 1_000_000;
  let mode: 'ok' | 'fail' | 'slow' = 'ok';
  const get = serve({
    count: () => 3,
    async *range() {
      if (mode === 'fail') throw new Error('down');
      if (mode === 'slow') await slowerThanAnyTimeout();
      yield { loc: `${BASE}p/${mode}` };
    },
    ttlMs: 1000,
    staleMs: 1000,
    timeoutMs: 100,
    sleep,
    now: () => clock,
  });
  assert.deepEqual(locs((await get('/sitemap-00001.xml.gz')).xml), [`${BASE}p/ok`]);
  clock += 10_000;
  mode = 'fail';
  assert.deepEqual(locs((await get('/sitemap-00001.xml.gz')).xml), [`${BASE}p/ok`]);
  mode = 'slow';
  const started = Date.now();
  assert.deepEqual(locs((await get('/sitemap-00001.xml.gz')).xml), [`${BASE}p/ok`]);
  // Well under the slow source's 1.5 s: the stale copy came at the 100 ms timeout (a loaded machine adds its delay).
  assert.ok(Date.now() - started < 1000);
  // No copy at all (another source): 503 after the timeout.
  const cold = serve({ count: () => 1, range: async function* () { await slowerThanAnyTimeout(); yield { loc: `${BASE}x` }; }, timeoutMs: 100, sleep });
  assert.equal((await cold('/sitemap-00001.xml.gz')).status, 503);
});

test('a failure is reported once: a generation that fails, however many requests wait for it; each request that stopped waiting; the error that came after', async () => {
  const errors: string[] = [];
  const onError = (error: unknown, name: string): number => errors.push(`${name}: ${(error as Error).message}`);
  const failing = (delay: number) => async (): Promise<UrlEntry[]> => {
    await sleep(delay);
    throw new Error('connection reset');
  };
  const get = serve({ count: () => 1, range: failing(20), onError });
  assert.deepEqual((await Promise.all([1, 2, 3].map(() => get('/sitemap-00001.xml.gz')))).map((a) => a.status), [503, 503, 503]);
  assert.deepEqual(errors, ['sitemap-00001.xml.gz: connection reset']);
  // Slower than timeoutMs, then failing: each request is told it stopped waiting, and the cause comes once.
  errors.length = 0;
  const slow = serve({ count: () => 1, range: failing(150), timeoutMs: 30, sleep, onError });
  assert.deepEqual((await Promise.all([1, 2].map(() => slow('/sitemap-00001.xml.gz')))).map((a) => a.status), [503, 503]);
  for (let tries = 0; tries < 100 && errors.length < 3; tries++) await sleep(10);
  assert.deepEqual(errors, [...Array(2).fill('sitemap-00001.xml.gz: the live source took more than 30 ms'), 'sitemap-00001.xml.gz: connection reset']);
});

/** One child whose query hangs while `at.hang` (then gives one URL), on a clock the test moves (`at.clock`), a TTL of 1 s. */
function hangingSource(options: Partial<LiveSourceOptions> = {}) {
  const at = { clock: 1_000_000, hang: true };
  const range = async (): Promise<UrlEntry[]> => {
    if (at.hang) await new Promise(() => {});
    return [{ loc: `${BASE}a` }];
  };
  return { at, get: serve({ count: () => 1, range, ttlMs: 1000, now: () => at.clock, ...options }) };
}

test('a generation that never ends (a query that hangs) is given up after a TTL, reported: the next request starts another', async () => {
  const errors: string[] = [];
  const { at, get } = hangingSource({
    // Room for the new generation on a loaded machine; the hung one is waited for this long twice.
    timeoutMs: 300,
    sleep,
    onError: (error, name) => errors.push(`${name}: ${(error as Error).message}`),
  });
  assert.equal((await get('/sitemap-00001.xml.gz')).status, 503);
  at.hang = false;
  // Within the TTL the one generation under way is still waited for.
  assert.equal((await get('/sitemap-00001.xml.gz')).status, 503);
  at.clock += 1001;
  const after = await get('/sitemap-00001.xml.gz');
  assert.equal(after.status, 200);
  assert.deepEqual(locs(after.xml), [`${BASE}a`]);
  assert.ok(errors.includes('sitemap-00001.xml.gz: the live source took more than 1000 ms (ttlMs) to make it; given up'), errors.join('\n'));
});

test('a request waiting (no timeoutMs) for a child made whole that is given up is answered then, not left hanging', async () => {
  const { at, get } = hangingSource();
  // The index waits for its child whole (for its lastmod), the child's query hangs.
  const waiting = get('/sitemap.xml');
  await sleep(20);
  at.hang = false;
  at.clock += 1001;
  // A request for the child gives the hung generation up and makes it again.
  assert.equal((await get('/sitemap-00001.xml.gz')).status, 200);
  const first = await Promise.race([waiting, sleep(2000).then(() => 'still waiting')]);
  assert.notEqual(first, 'still waiting');
});

test('a generation given up that ends later stores nothing: the cache keeps the newer file made after it, the next child its cursor', async () => {
  let clock = 1_000_000;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let version = 'old';
  const cursors: (string | undefined)[] = [];
  const range = async ({ offset, after }: LivePage): Promise<UrlEntry[]> => {
    if (offset === 1) {
      cursors.push(after?.loc);
      return [{ loc: `${BASE}second` }];
    }
    const rows = [{ loc: `${BASE}${version}` }];
    if (version === 'old') await released;
    return rows;
  };
  const get = serve({ count: () => 2, range, maxUrls: 1, ttlMs: 1000, now: () => clock });
  const first = get('/sitemap-00001.xml.gz');
  await sleep(20);
  clock += 1001;
  version = 'new';
  assert.deepEqual(locs((await get('/sitemap-00001.xml.gz')).xml), [`${BASE}new`]);
  // The hung query returns at last: its file is not stored over the newer one.
  release();
  await first.catch(() => {});
  await sleep(20);
  assert.deepEqual(locs((await get('/sitemap-00001.xml.gz')).xml), [`${BASE}new`]);
  assert.equal((await get('/sitemap-00002.xml.gz')).status, 200);
  assert.deepEqual(cursors, [`${BASE}new`]);
});

test('the memory store is bounded in bytes: the least recently used file goes first', async () => {
  // About 700 bytes a child: two fit.
  const store = memoryStore(2000);
  const { calls, range } = table(400);
  const get = serve({ count: () => 400, range, maxUrls: 100, store });
  for (const k of [1, 2, 3, 4]) assert.equal((await get(`/sitemap-0000${k}.xml.gz`)).status, 200);
  assert.ok(store.bytes <= 2000, String(store.bytes));
  const before = calls.length;
  await get('/sitemap-00004.xml.gz');
  assert.equal(calls.length, before, 'the newest is kept');
  await get('/sitemap-00001.xml.gz');
  assert.equal(calls.length, before + 1, 'the oldest was dropped');
});

test('a cache store that fails (a full disk, a read-only one) is reported; the files made are still served', async () => {
  const errors: string[] = [];
  const store = { get: () => undefined, set: () => Promise.reject(new Error('ENOSPC: no space left on device')) };
  const get = serve({ count: () => 25, range: table(25).range, maxUrls: 10, store, onError: (error, name) => errors.push(`${name}: ${(error as Error).message}`) });
  const index = await get('/sitemap.xml');
  assert.equal(index.status, 200);
  assert.equal(lastmods(index.xml).length, 3);
  assert.equal(locs((await get('/sitemap-00002.xml.gz')).xml).length, 10);
  assert.ok(errors.includes('sitemap.xml: ENOSPC: no space left on device'), errors.join('\n'));
  // One that cannot be read either (a cache server down): a miss, reported.
  errors.length = 0;
  const down = { get: () => Promise.reject(new Error('ECONNREFUSED')), set: () => Promise.reject(new Error('ECONNREFUSED')) };
  const cold = serve({ count: () => 25, range: table(25).range, maxUrls: 10, store: down, onError: (error, name) => errors.push(`${name}: ${(error as Error).message}`) });
  assert.equal((await cold('/sitemap.xml')).status, 200);
  assert.equal(locs((await cold('/sitemap-00003.xml.gz')).xml).length, 5);
  assert.ok(errors.includes('sitemap-00003.xml.gz: ECONNREFUSED'), errors.join('\n'));
});

/** A child of `n` URLs whose range stops after `before` entries until `gate` resolves (then throws when `failAfterGate`). */
function gatedChild(n: number, before: number, gate: Promise<void>, failAfterGate = () => false) {
  return async function* range({ offset }: { offset: number; limit: number }): AsyncGenerator<UrlEntry> {
    for (let i = offset; i < offset + n; i++) {
      if (i === offset + before) {
        await gate;
        if (failAfterGate()) throw new Error('connection lost');
      }
      yield { loc: `${BASE}products/${i.toString(36)}/item-${(i * 7919) % 100_003}` };
    }
  };
}

/** Resolves with `promise`, or rejects after `ms` (so that a response that never starts fails the test instead of hanging it). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what}: nothing after ${ms} ms`)))]);
}

test('a cold child is sent as it is made: its first bytes before the source has given its last entry', async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const handler = createSitemapHandler({ source: liveSource({ baseUrl: BASE, count: () => 50_000, range: gatedChild(50_000, 20_000, gate) }) });
  const response = await within(handler(new Request('http://x/sitemap-00001.xml.gz')), 3000, 'the response');
  assert.equal(response.status, 200);
  // Its bytes are not all known yet: no tag, no length; the next request, from the cache, has both.
  assert.equal(response.headers.get('etag'), null);
  assert.equal(response.headers.get('content-length'), null);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  const first = await within(reader.read(), 3000, 'the first bytes');
  assert.ok(!first.done && first.value.byteLength > 0);
  chunks.push(first.value);
  open();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  const streamed = Buffer.concat(chunks);
  const xml = gunzipSync(streamed).toString('utf8');
  assert.equal(locs(xml).length, 50_000);
  assert.match(xml, /<\/urlset>\n$/);
  const cached = await handler(new Request('http://x/sitemap-00001.xml.gz'));
  assert.match(cached.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
  assert.deepEqual(Buffer.from(await cached.arrayBuffer()), streamed);
});

test('a child sent as it is made, then revalidated with the Last-Modified it was sent with: 304, though its making took seconds', async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  // In the past: a Last-Modified is never later than the real now.
  let clock = 1_700_000_000_000;
  const handler = createSitemapHandler({ source: liveSource({ baseUrl: BASE, count: () => 30_000, range: gatedChild(30_000, 20_000, gate), now: () => clock }) });
  const response = await within(handler(new Request('http://x/sitemap-00001.xml.gz')), 3000, 'the response');
  const sent = response.headers.get('last-modified') as string;
  clock += 2500;
  open();
  await response.arrayBuffer();
  const again = await handler(new Request('http://x/sitemap-00001.xml.gz', { headers: { 'if-modified-since': sent } }));
  assert.equal(again.status, 304);
});

test('a source failing after the first bytes were sent: the body ends in an error, nothing is cached', async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let fail = true;
  const errors: unknown[] = [];
  const handler = createSitemapHandler({
    source: liveSource({ baseUrl: BASE, count: () => 30_000, range: gatedChild(30_000, 20_000, gate, () => fail), onError: (error) => errors.push(error) }),
  });
  const response = await within(handler(new Request('http://x/sitemap-00001.xml', { headers: { 'accept-encoding': 'identity' } })), 3000, 'the response');
  assert.equal(response.status, 200);
  open();
  await assert.rejects(response.arrayBuffer());
  assert.equal(errors.length, 1);
  fail = false;
  const again = await handler(new Request('http://x/sitemap-00001.xml.gz'));
  assert.equal(again.status, 200);
  assert.equal(locs(gunzipSync(Buffer.from(await again.arrayBuffer())).toString('utf8')).length, 30_000);
});

test('an entry outside the base URL is left out of its child and reported (to onInvalid, else once per child to onError); the child is served', async () => {
  const rows = ({ offset, limit }: { offset: number; limit: number }): UrlEntry[] =>
    Array.from({ length: Math.min(limit, 10 - offset) }, (_, i) => ({ loc: offset + i === 3 ? 'https://elsewhere.example/3' : `${BASE}p/${offset + i}` }));
  const errors: [unknown, string][] = [];
  const onError = (error: unknown, name: string): number => errors.push([error, name]);
  const quiet = await serve({ count: () => 10, range: rows, onError })('/sitemap-00001.xml.gz');
  assert.equal(quiet.status, 200);
  assert.equal(locs(quiet.xml).length, 9);
  assert.ok(!quiet.xml.includes('elsewhere'));
  assert.equal(errors.length, 1);
  const [error, name] = errors[0] as [InvalidValueError, string];
  assert.equal(name, 'sitemap-00001.xml.gz');
  assert.ok(error instanceof InvalidValueError);
  assert.equal(error.code, 'ERR_SITEMAP_INVALID_VALUE');
  assert.equal(error.rule, 'loc/out-of-scope');
  assert.match(error.message, /^1 entry left out of sitemap-00001\.xml\.gz .*elsewhere\.example\/3/);
  // Nobody listening: still served.
  assert.equal(locs((await serve({ count: () => 10, range: rows })('/sitemap-00001.xml.gz')).xml).length, 9);
  // With onInvalid: each entry to it, nothing to onError.
  const invalid: [string, string][] = [];
  const told = await serve({ count: () => 10, range: rows, onError, onInvalid: (error, entry) => invalid.push([error.rule, String(entry.loc)]) })('/sitemap-00001.xml.gz');
  assert.equal(told.status, 200);
  assert.equal(locs(told.xml).length, 9);
  assert.deepEqual(invalid, [['loc/out-of-scope', 'https://elsewhere.example/3']]);
  assert.equal(errors.length, 1);
  // The index lists the child.
  assert.deepEqual(locs((await serve({ count: () => 10, range: rows })('/sitemap.xml')).xml), [`${BASE}sitemap-00001.xml.gz`]);
});

test('a keyset cursor: each page after the first made is asked for after the last entry of the one before', async () => {
  const pages: { offset: number; after: string | undefined }[] = [];
  const keys = Array.from({ length: 25 }, (_, i) => `${BASE}k/${String(i).padStart(3, '0')}`);
  const get = serve({
    count: () => 25,
    maxUrls: 10,
    // As `SELECT loc FROM t WHERE loc > $after ORDER BY loc LIMIT $limit`, or OFFSET when no cursor is known.
    range: ({ offset, limit, after }) => {
      pages.push({ offset, after: after?.loc as string | undefined });
      const from = after === undefined ? offset : keys.indexOf(after.loc as string) + 1;
      return keys.slice(from, from + limit).map((loc) => ({ loc }));
    },
  });
  // A child asked for first: no cursor known, its offset.
  assert.deepEqual(locs((await get('/sitemap-00003.xml.gz')).xml), keys.slice(20));
  assert.deepEqual(pages, [{ offset: 20, after: undefined }]);
  // The index makes the others in order: each after the last entry of the one before.
  assert.equal(locs((await get('/sitemap.xml')).xml).length, 3);
  assert.deepEqual(pages.slice(1), [{ offset: 0, after: undefined }, { offset: 10, after: keys[9] }]);
  assert.deepEqual(locs((await get('/sitemap-00002.xml.gz')).xml), keys.slice(10, 20));
});

test('the count is asked once a TTL, not at every request; a count that fails leaves the cached set served', async () => {
  let clock = 1_000_000;
  let counts = 0;
  let failing = false;
  const errors: unknown[] = [];
  const { range } = table(25);
  const get = serve({
    count: () => {
      counts++;
      if (failing) throw new Error('database gone');
      return 25;
    },
    range,
    maxUrls: 10,
    ttlMs: 1000,
    staleMs: 5000,
    now: () => clock,
    onError: (error) => errors.push(error),
  });
  assert.equal((await get('/sitemap.xml')).status, 200);
  for (let i = 0; i < 5; i++) assert.equal((await get('/sitemap-00002.xml.gz')).status, 200);
  assert.equal(counts, 1);
  // Past the TTL the count is asked again; it fails: the last one known holds, the copies are served stale.
  clock += 2000;
  failing = true;
  for (const path of ['/sitemap-00002.xml.gz', '/sitemap-00003.xml.gz', '/sitemap.xml']) assert.equal((await get(path)).status, 200, path);
  assert.equal((await get('/sitemap-00004.xml.gz')).status, 404);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(errors.length >= 1);
});

test('a slow or hung count holds no request once a count is known: the one known is used while the next is asked for', async () => {
  let clock = 1_000_000;
  let hang = false;
  let counts = 0;
  const { range } = table(25);
  const get = serve({
    count: async () => {
      counts++;
      if (hang) await new Promise(() => {});
      return 25;
    },
    range,
    maxUrls: 10,
    ttlMs: 1000,
    now: () => clock,
  });
  assert.equal((await get('/sitemap-00002.xml.gz')).status, 200);
  clock += 1500;
  hang = true;
  // Past the TTL of the count (and of the child): answered at once, from what is known.
  const answers = await within(Promise.all(['/sitemap-00002.xml.gz', '/sitemap-00003.xml.gz', '/sitemap.xml'].map((path) => get(path))), 3000, 'the answers');
  assert.deepEqual(answers.map((a) => a.status), [200, 200, 200]);
  assert.equal(counts, 2);
});

/** A count on a clock the test moves (`at.clock`, a TTL of 1 s) that never returns while `at.hang`, else `at.rows`. */
function hangingCount(options: Partial<LiveSourceOptions> = {}) {
  const at = { clock: 1_000_000, hang: true, rows: 25, counts: 0 };
  const errors: string[] = [];
  const count = async (): Promise<number> => {
    at.counts++;
    if (at.hang) await new Promise(() => {});
    return at.rows;
  };
  const onError = (error: unknown, name: string): number => errors.push(`${name}: ${(error as Error).message}`);
  return { at, errors, get: serve({ count, range: table(40).range, maxUrls: 10, ttlMs: 1000, now: () => at.clock, onError, ...options }) };
}

test('a count that never returns before any is known is given up after a TTL, reported once, the request waiting answered 503; the next request counts again', async () => {
  const { at, errors, get } = hangingCount();
  // A child and the index (made on the count) wait for it.
  const waiting = Promise.all(['/sitemap-00001.xml.gz', '/sitemap.xml'].map((path) => get(path)));
  await sleep(20);
  at.hang = false;
  at.clock += 1001;
  // The next request gives the hung count up and asks again.
  assert.equal((await within(get('/sitemap-00001.xml.gz'), 3000, 'the next answer')).status, 200);
  assert.deepEqual((await within(waiting, 3000, 'the answers waiting')).map((a) => a.status), [503, 503]);
  assert.equal(at.counts, 2);
  assert.deepEqual(errors, ['sitemap.xml: the live source took more than 1000 ms (ttlMs) to count; given up']);
});

test('a request waits timeoutMs at most for a count that never returns (none known), reported as a request that stopped waiting', async () => {
  const { errors, get } = hangingCount({ timeoutMs: 50, sleep });
  for (const path of ['/sitemap-00001.xml.gz', '/sitemap.xml']) assert.equal((await within(get(path), 3000, path)).status, 503, path);
  assert.deepEqual(errors, ['sitemap-00001.xml.gz: the live source took more than 50 ms', 'sitemap.xml: the live source took more than 50 ms']);
});

test('a count that hangs once a count is known does not freeze the layout: given up after a TTL, reported once, the next request counts again', async () => {
  const { at, errors, get } = hangingCount();
  at.hang = false;
  assert.equal((await get('/sitemap-00003.xml.gz')).status, 200);
  at.hang = true;
  at.rows = 35;
  at.clock += 1500;
  // The count is asked again and hangs: the layout known (three children) answers meanwhile.
  assert.equal((await within(get('/sitemap-00004.xml.gz'), 3000, 'the answer')).status, 404);
  at.hang = false;
  at.clock += 1001;
  // Given up: this request counts again (answered from the layout known), the next sees 35 rows.
  assert.equal((await within(get('/sitemap-00004.xml.gz'), 3000, 'the answer')).status, 404);
  await sleep(10);
  assert.equal((await within(get('/sitemap-00004.xml.gz'), 3000, 'the answer')).status, 200);
  assert.equal(at.counts, 3);
  assert.deepEqual(errors, ['sitemap.xml: the live source took more than 1000 ms (ttlMs) to count; given up']);
});

test('a count that throws before any is known: 503 with Retry-After, reported, and the next request asks again', async () => {
  let down = true;
  const errors: string[] = [];
  const get = serve({
    count: () => {
      if (down) throw new Error('database gone');
      return 5;
    },
    range: table(5).range,
    onError: (error, name) => errors.push(`${name}: ${(error as Error).message}`),
  });
  const failed = await get('/sitemap-00001.xml.gz');
  assert.equal(failed.status, 503);
  assert.ok(Number(failed.headers.get('retry-after')) > 0);
  assert.deepEqual(errors, ['sitemap.xml: database gone']);
  down = false;
  assert.equal((await get('/sitemap-00001.xml.gz')).status, 200);
});

test('a count that is no number (a row, not its value) or infinite fails as a count does, reported; one as a string or a BigInt (pg) is read', async () => {
  const errors: string[] = [];
  const { calls, range } = table(25);
  const row = serve({ count: (() => ({ n: 25 })) as unknown as () => number, range, maxUrls: 10, onError: (error, name) => errors.push(`${name}: ${(error as Error).message}`) });
  for (const path of ['/sitemap.xml', '/sitemap-99999.xml.gz']) assert.equal((await row(path)).status, 503, path);
  assert.deepEqual(calls, []);
  assert.ok(errors.length > 0 && errors.every((e) => e === 'sitemap.xml: count() gave an object, not a number of entries'), errors.join('\n'));
  const reported: string[] = [];
  const endless = serve({ count: () => Infinity, range, maxUrls: 10, onError: (error, name) => reported.push(`${name}: ${(error as Error).message}`) });
  assert.equal((await endless('/sitemap.xml')).status, 503);
  assert.deepEqual(calls, []);
  assert.deepEqual(reported, ['sitemap.xml: count() gave "Infinity", not a number of entries']);
  for (const count of ['25', 25n]) {
    const get = serve({ count: (() => count) as unknown as () => number, range: table(25).range, maxUrls: 10 });
    assert.equal(locs((await get('/sitemap.xml')).xml).length, 3);
  }
});

test('a child whose entries take more than maxBytes is never served: 503, reported with what to do', async () => {
  const errors: [unknown, string][] = [];
  const { range } = table(100);
  const get = serve({ count: () => 100, range, maxUrls: 50, maxBytes: 3000, onError: (error, name) => errors.push([error, name]) });
  const answer = await get('/sitemap-00001.xml.gz');
  assert.equal(answer.status, 503);
  assert.equal(errors[0]?.[1], 'sitemap-00001.xml.gz');
  assert.match(String((errors[0]?.[0] as Error).message), /^its 50 entries take more than 3000 bytes; lower maxUrls/);
  assert.equal((await serve({ count: () => 100, range, maxUrls: 20, maxBytes: 3000 })('/sitemap-00001.xml.gz')).status, 200);
  assert.throws(() => liveSource({ baseUrl: BASE, count: () => 1, range, maxBytes: 0.5 }), { code: 'ERR_SITEMAP_OPTION' });
});

test('the page for people of a live set: its children with their URL counts and newest lastmod, the first URLs; made once per index', async () => {
  const { calls, range } = table(25);
  const handler = createSitemapHandler({ source: liveSource({ baseUrl: BASE, count: () => 25, range, maxUrls: 10, pageUrls: 12 }), baseUrl: BASE });
  const page = await handler(new Request('http://x/sitemap.html'));
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  const html = await page.text();
  assert.match(html, /25 URLs in 3 files; newest lastmod 2026-01-25T00:00:00Z/);
  assert.match(html, /the first 12 listed/);
  for (const [k, urls, lastmod] of [[1, 10, '2026-01-10'], [2, 10, '2026-01-20'], [3, 5, '2026-01-25']] as const) {
    assert.match(html, new RegExp(`sitemap-0000${k}\\.xml\\.gz</a></td><td class="n">${urls}</td><td>${lastmod}T00:00:00Z<`));
  }
  assert.ok(html.includes(`${BASE}v1/11<`) && !html.includes(`${BASE}v1/12<`));
  assert.equal((await handler(new Request('http://x/sitemap.html', { headers: { 'if-none-match': page.headers.get('etag') as string } }))).status, 304);
  assert.equal(calls.length, 3);
});

test('a count that is a low estimate loses nothing: the index goes on while the last child is full; a high one lists no empty child', async () => {
  const { range } = table(25);
  const low = serve({ count: () => 12, range, maxUrls: 10 });
  const index = await low('/sitemap.xml');
  assert.deepEqual(locs(index.xml), [1, 2, 3].map((k) => `${BASE}sitemap-0000${k}.xml.gz`));
  assert.deepEqual(locs((await low('/sitemap-00003.xml.gz')).xml), [20, 21, 22, 23, 24].map((i) => `${BASE}v1/${i}`));
  assert.equal((await low('/sitemap-00004.xml.gz')).status, 404);
  // Exactly full: one more child is asked for, and has nothing.
  const exact = serve({ count: () => 10, range: table(20).range, maxUrls: 10 });
  assert.equal(locs((await exact('/sitemap.xml')).xml).length, 2);
  const high = serve({ count: () => 60, range, maxUrls: 10 });
  assert.equal(locs((await high('/sitemap.xml')).xml).length, 3);
  // A child the count names but the source has no entry for: 404, not a failure.
  assert.equal((await serve({ count: () => 60, range, maxUrls: 10 })('/sitemap-00005.xml.gz')).status, 404);
  // No entry at all (an empty table): the index and the page are 404 too, nothing reported.
  const errors: unknown[] = [];
  const empty = serve({ count: () => 0, range: () => [], onError: (error) => errors.push(error) });
  for (const path of ['/sitemap.xml', '/sitemap.html', '/sitemap-00001.xml.gz']) assert.equal((await empty(path)).status, 404, path);
  assert.deepEqual(errors, []);
});

test('numeric options that mean nothing are refused (ERR_SITEMAP_OPTION), and timeoutMs without the sleep it needs', () => {
  const base = { baseUrl: BASE, count: () => 1, range: () => [], sleep };
  for (const [option, value] of [['timeoutMs', -1], ['timeoutMs', 0], ['timeoutMs', NaN], ['timeoutMs', Infinity], ['ttlMs', 0], ['ttlMs', NaN], ['staleMs', -1], ['staleMs', 1.5], ['pageUrls', -1]] as const) {
    assert.throws(() => liveSource({ ...base, [option]: value }), { code: 'ERR_SITEMAP_OPTION', message: new RegExp(`^${option} must be`) }, `${option} ${value}`);
  }
  assert.throws(() => liveSource({ ...base, sleep: undefined, timeoutMs: 100 }), { code: 'ERR_SITEMAP_OPTION', message: /^timeoutMs needs sleep/ });
  for (const [option, value] of [['staleMs', 0], ['pageUrls', 0], ['timeoutMs', 1]] as const) liveSource({ ...base, [option]: value });
  for (const bytes of [-1, NaN, 0.5]) assert.throws(() => memoryStore(bytes), { code: 'ERR_SITEMAP_OPTION' });
});

test('a request for a child waits timeoutMs in all, the count and the child together, not timeoutMs for each', async () => {
  // A clock the test moves: sleep(ms) resolves once it has moved ms past the call.
  let clock = 0;
  const timers: { due: number; fire: () => void }[] = [];
  const fakeSleep = (ms: number): Promise<void> => new Promise((fire) => timers.push({ due: clock + ms, fire }));
  const advance = (ms: number): void => {
    clock += ms;
    for (const timer of timers.filter((t) => t.due <= clock)) timer.fire();
  };
  let counted!: (n: number) => void;
  const count = new Promise<number>((resolve) => (counted = resolve));
  const range = (): Promise<UrlEntry[]> => new Promise(() => {});
  const answer = serve({ count: () => count, range, timeoutMs: 100, sleep: fakeSleep })('/sitemap-00001.xml.gz');
  await sleep(5);
  advance(90);
  counted(5);
  await sleep(5);
  // 100 ms after the request came: its time is up, though the child was asked for 10 ms ago.
  advance(10);
  assert.equal((await within(answer, 2000, 'the answer')).status, 503);
});

test('an onError that throws (a logger that broke) changes no answer: no request left waiting, no file failed for it', async () => {
  const onError = (): never => {
    throw new Error('the logger broke');
  };
  const failing = serve({ count: () => 1, range: () => Promise.reject(new Error('db down')), onError });
  assert.equal((await within(failing('/sitemap-00001.xml.gz'), 2000, 'the answer')).status, 503);
  // An entry left out (reported to onError), a store that fails (reported too): the child is served.
  const brokenStore = { get: () => undefined, set: () => Promise.reject(new Error('disk full')) };
  const get = serve({ count: () => 2, range: () => [{ loc: 'ftp://elsewhere/a' }, { loc: `${BASE}b` }], store: brokenStore, onError });
  const child = await within(get('/sitemap-00001.xml.gz'), 2000, 'the answer');
  assert.equal(child.status, 200);
  assert.deepEqual(locs(child.xml), [`${BASE}b`]);
});

test('a request answered from what is known (the count, a fresh child) starts no timer: none is left running per request', async () => {
  let timers = 0;
  const get = serve({ count: () => 3, range: table(3).range, maxUrls: 1, timeoutMs: 1000, sleep: () => new Promise(() => timers++) });
  assert.equal((await get('/sitemap-00001.xml.gz')).status, 200);
  timers = 0;
  for (let i = 0; i < 5; i++) assert.equal((await get('/sitemap-00001.xml.gz')).status, 200);
  assert.equal(timers, 0);
});

const idOf = (entry: UrlEntry): number => Number(String(entry.loc).slice(`${BASE}p/`.length));

/** Rows by id, read as `SELECT … WHERE id > $after AND id <= $until ORDER BY id LIMIT $limit`, OFFSET when no cursor is known. */
function keyed(ids: () => number[]): (page: LivePage) => UrlEntry[] {
  return ({ offset, limit, after, until }) => {
    const rows = after === undefined ? ids().slice(offset) : ids().filter((id) => id > idOf(after));
    return rows.slice(0, limit).filter((id) => until === undefined || id <= idOf(until)).map((id) => ({ loc: `${BASE}p/${id}` }));
  };
}

test('children are cut by key: rows deleted before a child made again do not pull the next child\'s first rows into it (a URL in two children); rows added after the last child still join it', async () => {
  let ids = Array.from({ length: 25 }, (_, i) => i + 1);
  const range = keyed(() => ids);
  let clock = 0;
  const get = serve({ count: () => ids.length, maxUrls: 10, range, ttlMs: 100, staleMs: 0, now: () => clock });
  const served = async (): Promise<string[]> => {
    const all = [];
    for (const k of [1, 2, 3]) all.push(...locs((await get(`/sitemap-0000${k}.xml.gz`)).xml));
    return all;
  };
  assert.equal(locs((await get('/sitemap.xml')).xml).length, 3);
  // The second child made again (its copy expired), then rows of the first deleted before the first is made again.
  clock = 150;
  await get('/sitemap-00002.xml.gz');
  ids = ids.filter((id) => id > 2);
  clock = 160;
  assert.deepEqual(await served(), ids.map((id) => `${BASE}p/${id}`));
  ids.push(26, 27);
  clock = 300;
  assert.deepEqual(await served(), ids.map((id) => `${BASE}p/${id}`));
});

test('a row inserted below a full child\'s end (its until known) is served once the children are made again, in any order: the child is cut anew and its last rows move on', async () => {
  let ids = Array.from({ length: 25 }, (_, i) => (i + 1) * 10);
  const range = keyed(() => ids);
  let clock = 0;
  const get = serve({ count: () => ids.length, maxUrls: 10, range, ttlMs: 100, staleMs: 0, now: () => clock });
  const served = async (order: number[]): Promise<string[]> => {
    const all = [];
    for (const k of order) all.push(...locs((await get(`/sitemap-0000${k}.xml.gz`)).xml));
    return all.sort((a, b) => idOf({ loc: a }) - idOf({ loc: b }));
  };
  const expected = (): string[] => ids.map((id) => `${BASE}p/${id}`);
  assert.deepEqual(await served([1, 2, 3]), expected());
  // Below the ends of the full first and second children (100 and 200).
  ids = [...ids, 15, 115, 116].sort((a, b) => a - b);
  // The children asked for last first: each round made again, a row pushed out of one reaches the next a round later.
  let rounds = 0;
  for (let got: string[] = []; got.join() !== expected().join(); rounds++) {
    assert.ok(rounds < 4, `still missing after ${rounds} rounds: ${expected().filter((loc) => !got.includes(loc)).join(' ')}`);
    clock += 150;
    await get('/sitemap.xml');
    got = await served([4, 3, 2, 1]);
  }
  clock += 150;
  assert.deepEqual(await served([1, 2, 3, 4]), expected());
});
