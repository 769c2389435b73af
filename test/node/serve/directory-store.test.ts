// The directory store of a live source: made files outlive the process, bounded, never half-read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createSitemapHandler, strongEtag, type Representation } from '../../../src/core/serve/handler.js';
import { liveSource } from '../../../src/core/serve/live-source.js';
import type { UrlEntry } from '../../../src/core/model.js';
import { directoryStore } from '../../../src/node/serve/directory-store.js';
import { tempDir } from '../../helpers/tmp.js';

const BASE = 'https://www.example.com/';

function live(dir: string, maxBytes?: number) {
  const calls: number[] = [];
  const store = directoryStore(dir, maxBytes === undefined ? {} : { maxBytes });
  const source = liveSource({
    baseUrl: BASE,
    count: () => 300,
    maxUrls: 100,
    store,
    range: ({ offset, limit }) => {
      calls.push(offset);
      const rows: UrlEntry[] = [];
      for (let i = offset; i < offset + limit; i++) rows.push({ loc: `${BASE}p/${i}` });
      return rows;
    },
  });
  const handler = createSitemapHandler({ source });
  const get = async (path: string) => {
    const response = await handler(new Request(`http://x${path}`));
    return { status: response.status, body: Buffer.from(await response.arrayBuffer()), etag: response.headers.get('etag') };
  };
  return { calls, get };
}

test('made files are kept in the directory: a new process serves them without asking the source', async () => {
  const dir = tempDir();
  const first = live(dir);
  const made = await first.get('/sitemap-00002.xml.gz');
  assert.equal(made.status, 200);
  assert.deepEqual(first.calls, [100]);
  assert.ok(readdirSync(dir).includes('sitemap-00002.xml.gz.json'));
  const second = live(dir);
  const again = await second.get('/sitemap-00002.xml.gz');
  assert.deepEqual(second.calls, []);
  assert.deepEqual(again.body, made.body);
  assert.equal(again.etag, made.etag);
  assert.match(gunzipSync(again.body).toString(), /p\/100</);
});

test('a body cut short since it was stored is not served: the file is made again', async () => {
  const dir = tempDir();
  await live(dir).get('/sitemap-00001.xml.gz');
  writeFileSync(join(dir, 'sitemap-00001.xml.gz.gzip'), Buffer.alloc(10));
  const restarted = live(dir);
  const answer = await restarted.get('/sitemap-00001.xml.gz');
  assert.deepEqual(restarted.calls, [0]);
  assert.match(gunzipSync(answer.body).toString(), /p\/99</);
});

test('the directory store is bounded in bytes: the oldest made go first', async () => {
  const dir = tempDir();
  const small = live(dir, 800);
  for (const k of [1, 2, 3]) await small.get(`/sitemap-0000${k}.xml.gz`);
  const kept = readdirSync(dir).filter((name) => name.endsWith('.json'));
  assert.ok(kept.length < 3, kept.join());
  assert.ok(kept.includes('sitemap-00003.xml.gz.json'), kept.join());
});

test('a child kept in the directory store keeps its URL count and lastmod (the page for people)', async () => {
  const dir = tempDir();
  const store = directoryStore(dir);
  const body = new Uint8Array([1, 2, 3]);
  await store.set('sitemap-00001.xml.gz', { madeAt: 1, lastModified: 2, lastmod: '2026-01-02', urls: 7, gzip: { body, etag: '"t"' } });
  const again = await directoryStore(dir).get('sitemap-00001.xml.gz');
  assert.deepEqual([again?.urls, again?.lastmod], [7, '2026-01-02']);
});

test('a maxBytes that means nothing is refused (ERR_SITEMAP_OPTION)', () => {
  for (const maxBytes of [-1, NaN, 0.5]) assert.throws(() => directoryStore(tempDir(), { maxBytes }), { code: 'ERR_SITEMAP_OPTION' });
});

test('a file stored again while its body is read is not given with the new body under the old tag, though both have one length', async () => {
  const dir = tempDir();
  const store = directoryStore(dir);
  const version = async (c: string): Promise<Representation> => {
    const body = new TextEncoder().encode(c.repeat(1000));
    return { body, etag: await strongEtag(body) };
  };
  const before = await version('a');
  const after = await version('b');
  await store.set('k.xml.gz', { madeAt: 1, lastModified: 1, gzip: before });
  // The body as a FIFO: the read waits there, its meta (the first version) read, while the file is stored again.
  const body = join(dir, 'k.xml.gz.gzip');
  rmSync(body);
  execFileSync('mkfifo', [body]);
  const reading = store.get('k.xml.gz');
  // Opened for writing once the read has opened it, so after the meta was read.
  const fifo = await open(body, 'w');
  await store.set('k.xml.gz', { madeAt: 2, lastModified: 2, gzip: after });
  await fifo.write(after.body);
  await fifo.close();
  const read = await reading;
  assert.ok(read === undefined || read.gzip?.etag === after.etag, `the body of the second version under the tag of the ${read?.gzip?.etag === before.etag ? 'first' : 'unknown'}`);
  assert.equal((await store.get('k.xml.gz'))?.gzip?.etag, after.etag);
});
