// The handler mounted in a real Express 5 app through toNodeListener: at the root and under a mount
// path, next to the app's own routes, which get every path the set does not name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSitemapHandler } from '../../../src/core/serve/handler.js';
import { openDirectorySource } from '../../../src/node/serve/directory-source.js';
import { toNodeListener } from '../../../src/node/serve/node-listener.js';
import { writeSitemaps } from '../../../src/node/write-sitemaps.js';
import { tempDir } from '../../helpers/tmp.js';
import { BASE, taggedEntries } from '../../helpers/serve.js';

// Express ships no types and @types/express is not a dependency: the little used here.
type Route = (request: IncomingMessage, response: ServerResponse & { type(t: string): { send(body: string): void }; send(body: string): void }) => void;
interface App {
  get(path: string, route: Route): void;
  use(path: string, listener: (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void): void;
  listen(port: number, host: string): Server;
}
const { default: express } = (await import('express' as string)) as { default: () => App };

/** `app` listening on a free port of 127.0.0.1 until the test ends (then `source` closed too); its origin. */
async function listenApp(t: { after(fn: () => void): void }, app: App, source: { close(): void }): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.after(() => {
    source.close();
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const locs = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] as string);

test('in Express 5: app.use(toNodeListener(handler)), mounted at a path too; the app answers every other path', async (t) => {
  const dir = tempDir();
  const maps = `${BASE}maps/`;
  await writeSitemaps(taggedEntries(30, 'maps/m'), { outDir: dir, baseUrl: maps, maxUrls: 10, compressionThreads: 1 });
  const source = await openDirectorySource({ dir, baseUrl: maps });
  const sitemaps = toNodeListener(createSitemapHandler({ source, baseUrl: maps }));
  const app = express();
  app.get('/maps/about.xml', (_request, response) => void response.type('text/plain').send('the app\n'));
  // Mounted: Express cuts /maps off request.url; the handler matches the base URL's path on originalUrl.
  app.use('/maps', sitemaps);
  app.get('/hello', (_request, response) => void response.send('hello'));
  const origin = await listenApp(t, app, source);

  const index = await fetch(`${origin}/maps/sitemap.xml`);
  assert.equal(index.status, 200);
  assert.equal(index.headers.get('content-type'), 'application/xml; charset=utf-8');
  assert.equal(index.headers.get('content-encoding'), 'gzip');
  assert.equal(index.headers.get('x-robots-tag'), 'noindex');
  assert.equal(index.headers.get('x-powered-by'), 'Express');
  const children = locs(await index.text());
  assert.equal(children.length, 3);
  for (const loc of children) {
    const child = await fetch(`${origin}${new URL(loc).pathname}`);
    assert.equal(child.status, 200, loc);
    assert.equal(child.headers.get('content-type'), 'application/gzip');
  }
  const again = await fetch(`${origin}/maps/sitemap.xml`, { headers: { 'if-none-match': index.headers.get('etag') as string } });
  assert.equal(again.status, 304);
  const head = await fetch(`${origin}/maps/sitemap.xml`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
  assert.equal(head.status, 200);
  assert.ok(Number(head.headers.get('content-length')) > 0);
  assert.equal((await fetch(`${origin}/maps/sitemap.xml`, { method: 'DELETE' })).status, 405);
  // Not named by the set: the app's routes, then Express's own 404.
  assert.equal(await (await fetch(`${origin}/maps/about.xml`)).text(), 'the app\n');
  assert.equal(await (await fetch(`${origin}/hello`)).text(), 'hello');
  const missing = await fetch(`${origin}/maps/nope.xml`);
  assert.equal(missing.status, 404);
  assert.match(await missing.text(), /Cannot GET \/maps\/nope\.xml/);
  assert.equal((await fetch(`${origin}/maps/%2e%2e/package.json`)).status, 404);
  assert.equal((await fetch(`${origin}/sitemap.xml`)).status, 404);
});

test('in Express 5, mounted at a path without a base URL: the set is answered below the mount path', async (t) => {
  const dir = tempDir();
  await writeSitemaps(taggedEntries(30, 'seo/m'), { outDir: dir, baseUrl: `${BASE}seo/`, maxUrls: 10, compressionThreads: 1 });
  const source = await openDirectorySource({ dir });
  const app = express();
  app.use('/seo', toNodeListener(createSitemapHandler({ source })));
  app.get('/hello', (_request, response) => void response.send('hello'));
  const origin = await listenApp(t, app, source);
  const index = await fetch(`${origin}/seo/sitemap.xml`);
  assert.equal(index.status, 200);
  for (const loc of locs(await index.text())) assert.equal((await fetch(`${origin}${new URL(loc).pathname}`)).status, 200, loc);
  assert.equal(await (await fetch(`${origin}/hello`)).text(), 'hello');
  assert.equal((await fetch(`${origin}/seo/nope.xml`)).status, 404);
});
