// The serve examples (examples/serve-*.js), run as a user runs them: each starts a server and says
// where; the test fetches from it, checks the answers, and stops it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { writeSet, BASE } from '../helpers/serve.js';
import { tempDir } from '../helpers/tmp.js';
import { postgresUnavailable, startPostgres } from '../helpers/postgres-server.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const locs = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] as string);

/** A port free on this machine now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** Runs examples/`name` in `cwd` (`sitemapkit` is the built package: dist/) on a free PORT, until the test ends; resolves with its index's URL once it answers. */
async function runExample(t: { after(fn: () => unknown): void }, name: string, cwd: string, env: Record<string, string> = {}): Promise<string> {
  assert.ok(existsSync(fileURLToPath(new URL('../../dist/index.js', import.meta.url))), 'dist/ is missing: run npm run build');
  const port = await freePort();
  const child = spawn(process.execPath, [EXAMPLES + name], { cwd, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = once(child, 'exit');
  t.after(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const url = `http://127.0.0.1:${port}/sitemap.xml`;
  for (let tries = 0; tries < 100; tries++) {
    if (child.exitCode !== null) break;
    if (await fetch(url, { method: 'HEAD' }).then(() => true, () => false)) return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not answer: ${err}`);
}

for (const name of ['serve-node-http.js', 'serve-express.js']) {
  test(`examples/${name} serves the set in out/: the index, its children, 304 on revalidation`, { timeout: 30_000 }, async (t) => {
    const cwd = tempDir();
    await writeSet(`${cwd}/out`, 'ex');
    const url = await runExample(t, name, cwd);
    const index = await fetch(url);
    assert.equal(index.status, 200);
    const children = locs(await index.text());
    assert.equal(children.length, 3);
    for (const loc of children) {
      const child = await fetch(new URL(new URL(loc).pathname, url));
      assert.equal(locs(gunzipSync(Buffer.from(await child.arrayBuffer())).toString()).length, 10);
    }
    assert.equal((await fetch(url, { headers: { 'if-none-match': index.headers.get('etag') as string } })).status, 304);
    if (name === 'serve-express.js') assert.equal(await (await fetch(new URL('/', url))).text(), 'Home');
  });
}

test('examples/serve-postgres.js: a set of 120,000 rows made on request from PostgreSQL, a child a page', { skip: postgresUnavailable(), timeout: 60_000 }, async (t) => {
  const postgres = await startPostgres();
  t.after(() => postgres.stop());
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  await db.query(`CREATE TABLE products (id integer PRIMARY KEY, slug text NOT NULL, updated_at timestamptz NOT NULL);
    INSERT INTO products SELECT i, 'item-' || i, timestamptz '2026-01-01 00:00:00+00' + i * interval '1 minute' FROM generate_series(1, 120000) AS i`);
  await db.end();
  // The example's pg.Pool reads libpq's variables.
  const url = await runExample(t, 'serve-postgres.js', tempDir(), { PGHOST: '127.0.0.1', PGPORT: String(postgres.port), PGUSER: 'postgres', PGDATABASE: 'postgres' });
  const index = await (await fetch(url)).text();
  assert.deepEqual(locs(index), [1, 2, 3].map((k) => `${BASE}sitemap-0000${k}.xml.gz`));
  // Each child's newest lastmod: its last row's.
  assert.deepEqual([...index.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)].map((m) => m[1]), ['2026-02-04T17:20:00Z', '2026-03-11T10:40:00Z', '2026-03-25T08:00:00Z']);
  const third = locs(gunzipSync(Buffer.from(await (await fetch(new URL('/sitemap-00003.xml.gz', url))).arrayBuffer())).toString());
  assert.equal(third.length, 20_000);
  assert.equal(third[0], `${BASE}p/item-100001`);
  const second = await fetch(new URL('/sitemap-00002.xml', url));
  assert.equal(second.headers.get('content-encoding'), 'gzip');
  const rows = locs(await second.text());
  assert.deepEqual([rows.length, rows[0], rows.at(-1)], [50_000, `${BASE}p/item-50001`, `${BASE}p/item-100000`]);
  // The pool's idle connections cut (a restart, a failover, an idle timeout): the example goes on serving.
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  const { rowCount } = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'");
  await admin.end();
  assert.ok((rowCount ?? 0) > 0);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal((await fetch(url)).status, 200);
});
