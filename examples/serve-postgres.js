// A set made on request from PostgreSQL (PGHOST…): node examples/serve-postgres.js
import { createServer } from 'node:http';
import pg from 'pg';
import { createSitemapHandler, liveSource, toNodeListener } from 'sitemapkit';

const db = new pg.Pool({ query_timeout: 60_000 }).on('error', console.error);
const baseUrl = 'https://www.example.com/';
const source = liveSource({
  baseUrl,
  count: async () => (await db.query('SELECT count(*)::int AS n FROM products')).rows[0].n,
  // Keyset, else OFFSET.
  range: async ({ offset, limit, after, until }) =>
    (await db.query('SELECT id, slug, updated_at FROM products WHERE id > $1 AND id <= coalesce($2, id) ORDER BY id OFFSET $3 LIMIT $4', [after?.id ?? 0, until?.id, after ? 0 : offset, limit]))
      .rows.map((row) => ({ id: row.id, loc: `${baseUrl}p/${row.slug}`, lastmod: row.updated_at })),
  onError: (error, name) => console.error(name, error.message),
});
createServer(toNodeListener(createSitemapHandler({ baseUrl, source }))).listen(process.env.PORT ?? 8080);
