// Sitemaps made on request from PostgreSQL (PGHOST… in the environment), a child a page: node examples/serve-postgres.js
import { createServer } from 'node:http';
import pg from 'pg';
import { createSitemapHandler, liveSource, toNodeListener } from 'sitemapkit';

const db = new pg.Pool();
const baseUrl = 'https://www.example.com/';
const source = liveSource({
  baseUrl,
  count: async () => Number((await db.query('SELECT count(*) FROM products')).rows[0].count),
  // After the child before it was made, by its last id (a keyset cursor); else by OFFSET.
  range: async ({ offset, limit, after }) => {
    const { rows } = after
      ? await db.query('SELECT id, slug, updated_at FROM products WHERE id > $1 ORDER BY id LIMIT $2', [after.id, limit])
      : await db.query('SELECT id, slug, updated_at FROM products ORDER BY id OFFSET $1 LIMIT $2', [offset, limit]);
    return rows.map((row) => ({ id: row.id, loc: `${baseUrl}p/${row.slug}`, lastmod: row.updated_at }));
  },
});
const server = createServer(toNodeListener(createSitemapHandler({ baseUrl, source }))).listen(process.env.PORT ?? 8080, '127.0.0.1');
server.on('listening', () => console.log(`http://127.0.0.1:${server.address().port}/sitemap.xml`));
