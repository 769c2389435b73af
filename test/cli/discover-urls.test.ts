// `sitemapkit discover --format urls`, the built CLI (dist/, `npm run build`: its bundle starts the
// bundled reading thread, cli/bundle/discover-worker.js) in a child process: the page URLs it prints
// are those `--format jsonl` gives, in each document's order, once each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runBuiltCli, runCli } from '../helpers/cli.js';
import { pages, sitemapIndex, startSiteServer, urlset } from '../helpers/site-server.js';
import { tempDir } from '../helpers/tmp.js';

test('discover --format urls (built CLI): the URLs of --format jsonl, in order, each once', async () => {
  const big = pages('big', 60_000);
  big.splice(100, 0, big[5] as string);
  const site = await startSiteServer({
    '/big.xml.gz': { type: 'application/gzip', body: gzipSync(urlset(big)) },
    '/list.txt': { type: 'text/plain', body: `${pages('txt', 3_000).join('\n')}\n` },
  });
  site.route('/index.xml', { body: sitemapIndex([site.url('/big.xml.gz'), site.url('/list.txt')]) });
  site.route('/robots.txt', { type: 'text/plain', body: `Sitemap: ${site.url('/index.xml')}\n` });
  const dir = tempDir();
  try {
    const printed = await runBuiltCli(['discover', site.url('/'), '--allow-private', '--format', 'urls', '--out', 'urls.txt'], dir);
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stderr, /63,000 URLs/);
    const jsonl = await runCli(['discover', site.url('/'), '--allow-private', '--format', 'jsonl'], { cwd: dir });
    const bySitemap = new Map<string, string[]>();
    for (const line of jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; loc: string; sitemap: string })) {
      if (line.type !== 'url') continue;
      const locs = bySitemap.get(line.sitemap);
      if (locs === undefined) bySitemap.set(line.sitemap, [line.loc]);
      else locs.push(line.loc);
    }
    const urls = readFileSync(join(dir, 'urls.txt'), 'utf8');
    assert.ok(urls.endsWith('\n'));
    const lines = urls.slice(0, -1).split('\n');
    assert.equal(lines.length, 63_000);
    // Each document's URLs in its order (the two documents' may interleave).
    for (const [sitemap, locs] of bySitemap) {
      const mine = new Set(locs);
      assert.deepEqual(lines.filter((l) => mine.has(l)), locs, sitemap);
    }
    assert.deepEqual([...lines].sort(), [...bySitemap.values()].flat().sort());
  } finally {
    await site.close();
  }
});

test('discover --format urls (built CLI): a line break inside a loc is written %0A / %0D, one URL a line', async () => {
  const locs = ['https://www.example.com/a&#10;https://evil.example/b', 'https://www.example.com/c&#13;d', 'https://www.example.com/e'];
  const body = urlset(locs);
  const site = await startSiteServer({
    // Read on the main thread (a small body with a Content-Length), and on the reading thread (chunked).
    '/small.xml': { body },
    '/chunked.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(body);
    },
  });
  const dir = tempDir();
  try {
    for (const path of ['/small.xml', '/chunked.xml']) {
      const printed = await runBuiltCli(['discover', site.url(path), '--allow-private', '--format', 'urls'], dir);
      assert.equal(printed.code, 0, printed.stderr);
      assert.equal(printed.stdout, 'https://www.example.com/a%0Ahttps://evil.example/b\nhttps://www.example.com/c%0Dd\nhttps://www.example.com/e\n', path);
    }
  } finally {
    await site.close();
  }
});
