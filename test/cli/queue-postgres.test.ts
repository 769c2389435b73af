// examples/sources/postgres-source.js against a real PostgreSQL server: a table of URLs read by key range
// through server-side cursors by two worker processes (`queue generate --source`), giving the set
// `generate --shards` writes from the same rows in one process.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { tempDir } from '../helpers/tmp.js';
import { killOnExit, redisUnavailable, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { postgresUnavailable, startPostgres, type PostgresServer } from '../helpers/postgres-server.js';

const BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../../examples/sources/postgres-source.js', import.meta.url));
const BASE = 'https://shop.example.com/';
const skip = redisUnavailable() ?? postgresUnavailable();
let redis: RedisServer;
let postgres: PostgresServer;

before(async () => {
  if (skip !== undefined) return;
  if (!existsSync(BIN)) throw new Error('dist/ is missing: run npm run build');
  [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
});
after(async () => Promise.all([redis?.stop(), postgres?.stop()]));

function worker(): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [BIN, 'worker', '--redis', redis.url, '--queue', 'pg'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const forget = killOnExit(child);
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    forget();
  });
  return { child, stderr: () => err };
}

function publishedFiles(dir: string): Map<string, Buffer> {
  return new Map(readdirSync(dir).filter((name) => !name.startsWith('.') && statSync(join(dir, name)).isFile()).sort().map((name) => [name, readFileSync(join(dir, name))]));
}

test('examples/sources/postgres-source.js: two workers read a table by key range with cursors; the set equals generate --shards over the same rows', { skip }, async () => {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    // Sections of uneven sizes, keys with gaps (deleted rows), some rows without a date and some unpublished.
    await client.query(`CREATE TABLE products (id bigint PRIMARY KEY, path text NOT NULL, updated_at timestamptz, published boolean NOT NULL)`);
    await client.query(`INSERT INTO products
      SELECT i * 3, (ARRAY['p','p','p','c','blog','help'])[1 + i % 6] || '/item-' || i || CASE WHEN i % 7 = 0 THEN '?colour=red&size=m' ELSE '' END,
             CASE WHEN i % 11 = 0 THEN NULL ELSE timestamptz '2024-01-01 00:00:00+00' + (i || ' minutes')::interval + interval '0.25 seconds' END,
             i % 13 <> 0
      FROM generate_series(1, 4000) AS i`);
    const expected = await client.query<{ path: string; lastmod: string | null }>(`SELECT path, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS lastmod FROM products WHERE published ORDER BY id`);
    const dir = tempDir();
    writeFileSync(join(dir, 'rows.jsonl'), expected.rows.map((row) => JSON.stringify(row.lastmod === null ? { loc: `/${row.path}` } : { loc: `/${row.path}`, lastmod: row.lastmod })).join('\n') + '\n');
    const single = spawnSync(process.execPath, [BIN, 'generate', join(dir, 'rows.jsonl'), '--base-url', BASE, '--out', join(dir, 'single'), '--shards', '4', '-q'], { encoding: 'utf8' });
    assert.equal(single.status, 0, single.stderr);

    const workers = [worker(), worker()];
    // The table's paths have no leading slash: a view gives the source module locs resolved against --base-url.
    await client.query(`CREATE VIEW product_urls AS SELECT id, '/' || path AS loc, updated_at, published FROM products`);
    const run = spawnSync(
      process.execPath,
      [BIN, 'queue', 'generate', '--source', EXAMPLE, '--parts', '3', '--shards', '4', '--redis', redis.url, '--queue', 'pg', '--out', join(dir, 'queued'), '--base-url', BASE,
        '--source-option', `url=${postgres.url}`, '--source-option', 'table=product_urls', '--source-option', 'lastmod=updated_at', '--source-option', 'where=published', '--source-option', 'batch=500'],
      { encoding: 'utf8', timeout: 40_000 },
    );
    assert.equal(run.status, 0, run.stderr + workers.map((w) => w.stderr()).join(''));
    assert.match(run.stdout, new RegExp(`^Published ${expected.rows.length.toLocaleString('en-US')} URLs in `, 'm'));
    const queued = publishedFiles(join(dir, 'queued'));
    const reference = publishedFiles(join(dir, 'single'));
    assert.deepEqual([...queued.keys()], [...reference.keys()]);
    for (const [name, bytes] of reference) assert.ok(bytes.equals(queued.get(name) as Buffer), `${name} differs`);
    // The three parts were read by the workers, between them (their logs read once they have stopped).
    await Promise.all(workers.map((w) => new Promise((resolve) => (w.child.once('exit', resolve), w.child.kill('SIGTERM')))));
    const parts = workers.flatMap((w) => w.stderr().match(/done part \d of 3/g) ?? []).sort();
    assert.deepEqual(parts, ['done part 0 of 3', 'done part 1 of 3', 'done part 2 of 3']);
  } finally {
    await client.end();
  }
});
