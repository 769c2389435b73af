// The npm `sitemap` package writing a gzipped sitemap set, as its README shows (v9: getSitemapStream
// returns [url, sitemapStream, writeStream]): SitemapAndIndexStream with `limit` URLs per file, each
// file SitemapStream → createGzip(level) → NAME-i.xml.gz, the index → sitemap-index.xml.gz.
// Shared by bench:generate and bench:build so that both measure the peer the same way.

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/** Writes `items` (`{ url, lastmod?, … }`, sync or async iterable) into `out`; resolves when every file is closed. */
export async function writeWithSitemapPackage(items, { out, baseUrl, limit, level }) {
  const { SitemapAndIndexStream, SitemapStream } = await import('sitemap');
  const fileStreams = [];
  const sms = new SitemapAndIndexStream({
    limit,
    getSitemapStream: (i) => {
      const sitemapStream = new SitemapStream({ hostname: baseUrl });
      const path = `sitemap-${i}.xml.gz`;
      const ws = sitemapStream.pipe(createGzip({ level })).pipe(createWriteStream(join(out, path)));
      fileStreams.push(finished(ws));
      return [new URL(path, baseUrl).toString(), sitemapStream, ws];
    },
  });
  const indexDone = finished(sms.pipe(createGzip({ level })).pipe(createWriteStream(join(out, 'sitemap-index.xml.gz'))));
  for await (const item of items) {
    if (!sms.write(item)) await once(sms, 'drain'); // backpressure
  }
  sms.end();
  await indexDone;
  await Promise.all(fileStreams);
}
