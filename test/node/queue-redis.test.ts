// RespConnection, the connection BullMQ talks to Redis through, against a real redis-server: replies
// cut anywhere by TCP, pipelined commands, errors in place inside EXEC, binary-safe arguments, AUTH and
// SELECT from the URL, a refused connection.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRedisUrl, pingRedis, RespConnection } from '../../src/node/scale/queue-redis.js';
import { enqueueGenerate, waitForRun } from '../../src/node/scale/queue.js';
import { freePort, redisUnavailable, REDIS_SERVER, startRedis, startServer, type RedisServer } from '../helpers/redis-server.js';

const skip = redisUnavailable();
let redis: RedisServer;
before(async () => {
  if (skip === undefined) redis = await startRedis();
});
after(async () => redis?.stop());

async function connected(url = redis.url): Promise<RespConnection> {
  const connection = new RespConnection(url);
  await connection.connect();
  after(() => connection.close());
  return connection;
}

test('a large value in many TCP chunks, multi-byte text and binary arguments come back whole', { skip }, async () => {
  const c = await connected();
  const big = 'é€𝄞a'.repeat(300_000);
  assert.equal(await c.send('SET', ['big', big]), 'OK');
  assert.equal(await c.send('GET', ['big']), big);
  assert.equal(await c.send('SET', ['bin', Buffer.from([0x0d, 0x0a, 0x24, 0x2a])]), 'OK');
  assert.equal(await c.send('STRLEN', ['bin']), 4);
  assert.equal(await c.send('GET', ['missing']), null);
});

test('pipelined commands are answered in order; an error rejects its own command only', { skip }, async () => {
  const c = await connected();
  await c.send('SET', ['big-text', 'x']);
  const replies = await Promise.allSettled(Array.from({ length: 2000 }, (_, i) => (i === 1000 ? c.send('INCR', ['big-text']) : c.send('INCR', ['counter']))));
  assert.equal((await c.send('GET', ['counter'])) as string, '1999');
  const values = replies.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'));
  assert.deepEqual(values.slice(998, 1003), [999, 1000, 'rejected', 1001, 1002]);
});

test('MULTI/EXEC: an error inside the transaction is an Error in place; nested arrays and HGETALL are flat RESP2 arrays', { skip }, async () => {
  const c = await connected();
  await c.send('DEL', ['h', 'text']);
  await c.send('SET', ['text', 'a']);
  void c.send('MULTI');
  void c.send('HSET', ['h', 'f', 'v', 'g', 'w']);
  void c.send('INCR', ['text']);
  const exec = (await c.send('EXEC')) as unknown[];
  assert.equal(exec[0], 2);
  assert.ok(exec[1] instanceof Error && /not an integer/.test(exec[1].message));
  assert.deepEqual(await c.send('HGETALL', ['h']), ['f', 'v', 'g', 'w']);
  await assert.rejects(c.send('NOSUCHCOMMAND'), /unknown command/);
});

test('the URL gives AUTH and the database; a refused connection and a wrong password are errors', { skip }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-redis-auth-'));
  const { port, stop } = await startServer({ what: 'redis-server', argv: (p) => [REDIS_SERVER, '--port', String(p), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--requirepass', 's3cret'], ready: 'Ready to accept connections', stopSignal: 'SIGTERM', dir, timeoutMs: 10_000 });
  t.after(stop);
  const c = await connected(`redis://:s3cret@127.0.0.1:${port}/3`);
  await c.send('SET', ['k', 'in db 3']);
  const zero = await connected(`redis://:s3cret@127.0.0.1:${port}`);
  assert.equal(await zero.send('GET', ['k']), null);
  await zero.send('SELECT', [3]);
  assert.equal(await zero.send('GET', ['k']), 'in db 3');
  await assert.rejects(new RespConnection(`redis://:wrong@127.0.0.1:${port}`).connect(), /WRONGPASS|invalid password/);
  await assert.rejects(pingRedis(`redis://127.0.0.1:${await freePort()}`, 2000), /cannot reach Redis at .*: ECONNREFUSED/);
});

test('parseRedisUrl: redis:// and rediss://, credentials decoded, the default port, a bad URL refused', () => {
  assert.deepEqual(parseRedisUrl('redis://u%40x:p%3Aw@10.0.0.5/2'), { host: '10.0.0.5', port: 6379, tls: false, username: 'u@x', password: 'p:w', db: 2 });
  assert.deepEqual(parseRedisUrl('rediss://[::1]:6380'), { host: '::1', port: 6380, tls: true, db: 0 });
  assert.throws(() => parseRedisUrl('http://127.0.0.1:6379'), /not a Redis URL/);
  assert.throws(() => parseRedisUrl('127.0.0.1:6379'), /not a Redis URL/);
});

test('waitForRun polls without piling listeners on its signal (no MaxListenersExceededWarning), and stops when aborted, even between two polls', { skip, timeout: 20_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'sitemapkit-wait-'));
  after(() => rmSync(out, { recursive: true, force: true }));
  const input = join(out, 'urls.txt');
  writeFileSync(input, 'https://example.com/a\n');
  const { run } = await enqueueGenerate({ redis: redis.url, queue: 'wait', out: join(out, 'set'), shards: 1, set: { baseUrl: 'https://example.com/' }, attempts: 1, inputs: [{ path: input, format: 'text' }] });
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning.name);
  process.on('warning', onWarning);
  const controller = new AbortController();
  let ticks = 0;
  try {
    // No worker: the run waits for its children, tick after tick.
    await assert.rejects(waitForRun(redis.url, 'wait', run, { signal: controller.signal, intervalMs: 5, onTick: () => ++ticks === 40 && controller.abort(new Error('enough')) }), /enough/);
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  assert.equal(ticks, 40);
  assert.deepEqual(warnings, []);
});
