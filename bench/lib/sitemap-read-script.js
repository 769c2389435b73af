#!/usr/bin/env node
// The whole-command peer of `sitemapkit read FILE` in bench:read: a script around the npm `sitemap`
// package's parser, as its README shows (createReadStream → [createGunzip] → XMLToSitemapItemStream),
// printing each URL entry as a JSON line ({ loc, lastmod, changefreq, priority }, as `sitemapkit read`
// does) on standard output.
//   node bench/lib/sitemap-read-script.js FILE[.gz] > /dev/null

import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { ErrorLevel, XMLToSitemapItemStream } from 'sitemap';

const path = process.argv[2];
const streams = [createReadStream(path, { highWaterMark: 256 * 1024 })];
if (path.endsWith('.gz')) streams.push(createGunzip({ chunkSize: 256 * 1024 }));
const toLine = new Transform({
  writableObjectMode: true,
  transform(item, _encoding, callback) {
    const entry = { loc: item.url };
    if (item.lastmod !== undefined) entry.lastmod = item.lastmod;
    if (item.changefreq !== undefined) entry.changefreq = item.changefreq;
    if (item.priority !== undefined) entry.priority = item.priority;
    callback(null, JSON.stringify(entry) + '\n');
  },
});
await pipeline(...streams, new XMLToSitemapItemStream({ level: ErrorLevel.SILENT, logger: false }), toLine, process.stdout);
