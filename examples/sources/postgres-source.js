// A source module for `sitemapkit queue generate --source`: each worker reads its part of a PostgreSQL
// table, a range of its key, through a server-side cursor (DECLARE … CURSOR, FETCH n), so that a
// part of any size costs one batch of rows in memory. Install the driver beside it: npm install pg.
//
//   sitemapkit queue generate --source examples/sources/postgres-source.js --parts 64 --shards 32 \
//     --source-option table=products --source-option loc=path --source-option lastmod=updated_at \
//     --redis redis://10.0.0.5 --out /mnt/sitemaps --base-url https://shop.example.com/
//
// Options (--source-option KEY=VALUE): url (default: the DATABASE_URL variable, else libpq's PG*
// variables), table (required), key (an integer column, default id), loc (a URL, or a path from
// --base-url, default loc), lastmod (a date or timestamp column; none by default), where (an extra SQL
// condition, e.g. "published"), batch (rows per FETCH, default 5000).
import pg from 'pg';

export default async function* postgresSource(part, { parts, options }) {
  if (options.table === undefined) throw new Error('postgres-source: --source-option table=NAME is required');
  const client = new pg.Client(options.url !== undefined ? { connectionString: options.url } : process.env.DATABASE_URL !== undefined ? { connectionString: process.env.DATABASE_URL } : {});
  await client.connect();
  try {
    const id = (name) => client.escapeIdentifier(name);
    const table = options.table.split('.').map(id).join('.');
    const key = id(options.key ?? 'id');
    const where = options.where !== undefined ? `AND (${options.where})` : '';
    // Each part is a range of the key, the same in every worker: [low + part·span, low + (part+1)·span).
    const { rows } = await client.query(`SELECT min(${key})::text AS low, max(${key})::text AS high FROM ${table}`);
    if (rows[0].low === null) return;
    const low = BigInt(rows[0].low);
    const span = (BigInt(rows[0].high) - low) / BigInt(parts) + 1n;
    const from = low + BigInt(part) * span;
    // lastmod as text in UTC: pg would make a date column a Date at local midnight.
    await client.query("SET TIME ZONE 'UTC'");
    const columns = [`${id(options.loc ?? 'loc')} AS loc`, ...(options.lastmod !== undefined ? [`${id(options.lastmod)}::text AS lastmod`] : [])];
    // A cursor lives in a transaction; READ ONLY, and the rows in key order (the order they are written in).
    await client.query('BEGIN READ ONLY');
    await client.query(`DECLARE part_rows NO SCROLL CURSOR FOR SELECT ${columns.join(', ')} FROM ${table} WHERE ${key} >= $1 AND ${key} < $2 ${where} ORDER BY ${key}`, [String(from), String(from + span)]);
    const batch = Number(options.batch ?? 5000);
    for (;;) {
      const result = await client.query(`FETCH ${batch} FROM part_rows`);
      if (result.rows.length === 0) break;
      yield result.rows.map((row) => (row.lastmod === null || row.lastmod === undefined ? { loc: row.loc } : { loc: row.loc, lastmod: w3cDate(row.lastmod) }));
    }
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

/** A W3C Datetime: a date as it is; a timestamp ('2024-05-01 10:20:30.5+00') to the second, in UTC. */
function w3cDate(text) {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})/.exec(text);
  return match === null ? text : `${match[1]}T${match[2]}Z`;
}
