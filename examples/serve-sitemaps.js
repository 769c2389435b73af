// Serve a set made on request from a database, with node:http: node examples/serve-sitemaps.js
import { createServer } from 'node:http';
import { createSitemapHandler, liveSource, toNodeListener } from 'sitemapkit';

// 120,000 products, 50,000 to a child, read a page at a time as from PostgreSQL:
// SELECT loc, lastmod FROM products ORDER BY id OFFSET $1 LIMIT $2
const total = 120_000;
const page = async ({ offset, limit }) =>
  Array.from({ length: Math.min(limit, total - offset) }, (_, i) => ({ loc: `https://www.example.com/p/${offset + i}`, lastmod: '2024-06-01' }));
const baseUrl = 'https://www.example.com/';
const handler = createSitemapHandler({ baseUrl, source: liveSource({ baseUrl, count: () => total, range: page }) });
// A set that generate or build wrote instead: { source: await openDirectorySource({ dir: 'out' }) }.
// In Express or Connect: app.use(toNodeListener(handler)).
const server = createServer(toNodeListener(handler)).listen(0, '127.0.0.1');
await new Promise((listening) => server.on('listening', listening));

const origin = `http://127.0.0.1:${server.address().port}`;
for (const path of ['/sitemap.xml', '/sitemap-00003.xml.gz']) {
  const res = await fetch(origin + path);
  const again = await fetch(origin + path, { headers: { 'if-none-match': res.headers.get('etag') } });
  console.log(`${path}: ${res.status} ${res.headers.get('content-type')}; again with its ETag: ${again.status}`);
}
server.close();
