// Counts in what the commands print are worded by one function (format.ts plural): "1 URL", "2 URLs",
// in summaries and in the progress lines a terminal sees alike.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startServe } from '../helpers/serve-process.js';
import { sitemapIndex, startSiteServer, urlset } from '../helpers/site-server.js';
import { tempDir } from '../helpers/tmp.js';

/** A count of one in the plural (not 21, 1,001 or 0.1). */
const ONE = /(?<![\d,.])1 (URLs|files|documents|sitemaps)\b/;

it('generate: the progress line of one URL says "1 URL"', async () => {
  const dir = tempDir('sitemapkit-counts-');
  writeFileSync(join(dir, 'urls.txt'), 'https://example.com/a\n');
  const r = await runCli(['generate', 'urls.txt', '--base-url', 'https://example.com/', '--out', 'out'], { cwd: dir, tty: true });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /generating: 1 URL,/);
  assert.doesNotMatch(r.stderr + r.stdout, ONE);
});

it('discover: the progress line of one document fetched says "1 document"', async () => {
  // The index is fetched at once; its child sends half its body, then the rest 300 ms later: the line redraws in between.
  const child = urlset(Array.from({ length: 2000 }, (_, i) => `https://example.com/p${i}`));
  const site = await startSiteServer({
    '/child.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write(child.slice(0, child.length >> 1));
      setTimeout(() => res.end(child.slice(child.length >> 1)), 300);
    },
  });
  site.route('/sitemap.xml', { body: sitemapIndex([site.url('/child.xml')]) });
  try {
    const r = await runCli(['discover', site.url('/sitemap.xml'), '--allow-private', '--format', 'urls'], { cwd: tempDir('sitemapkit-counts-'), tty: true });
    assert.match(r.stderr, /(?<![\d,.])1 document fetched,/);
    assert.doesNotMatch(r.stderr, ONE);
  } finally {
    await site.close();
  }
});

it('serve: a set of one file is "(1 file)"', async () => {
  const dir = tempDir('sitemapkit-counts-');
  mkdirSync(join(dir, 'set'));
  writeFileSync(join(dir, 'set', 'sitemap.xml'), urlset(['https://example.com/a']));
  const serve = await startServe(join(dir, 'set'), ['--log', 'none']);
  await serve.stop();
  assert.match(serve.stderr(), /\(1 file\); Ctrl-C to stop/);
});
