// discoverSitemaps with `urlsAsText` (documents read on a worker thread, page URLs handed back as UTF-8
// lines: node/discover-readers.ts) says exactly what it says without: the same URLs of each sitemap in
// the same order, the same diagnostics in the same order, the same tree, whatever stops a document
// (a budget, corrupt gzip, a body cut short); and a consumer that falls behind holds the thread back.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { discoverSitemaps, type DiscoverOptions, type DiscoveryTree } from '../../src/node/discover.js';
import { startRawServer } from '../helpers/raw-server.js';
import { pages, sitemapIndex, startSiteServer, urlset, type Handler } from '../helpers/site-server.js';

const FAST: DiscoverOptions = { allowPrivate: true, retryBaseDelayMs: 10, retries: 0 };

interface Said {
  /** Page URLs by the sitemap that listed them, in order. */
  urls: Record<string, string[]>;
  /**
   * Diagnostic events by sitemap: the reader's in order, discover's own (no line) sorted (they may be
   * of another node of the same URL, e.g. skipped as listed twice, whose order to this one is timing).
   */
  diagnostics: Record<string, string[]>;
  /** The tree, its times left out (they differ from run to run). */
  tree: unknown;
}

function timeless(tree: DiscoveryTree): unknown {
  return JSON.parse(JSON.stringify(tree, (key, value: unknown) => (key === 'timeMs' ? undefined : value)));
}

async function said(urls: string, options: DiscoverOptions): Promise<Said> {
  const found: Said = { urls: {}, diagnostics: {}, tree: undefined };
  const lines = new TextDecoder();
  for await (const event of discoverSitemaps(urls, { ...FAST, ...options })) {
    if (event.type === 'url') (found.urls[event.sitemap] ??= []).push(event.entry.loc);
    else if (event.type === 'urls') {
      const text = lines.decode(event.lines);
      assert.ok(text.endsWith('\n'));
      // An answer holds no buffer much larger than its lines (the queue's bound counts lines).
      assert.ok(event.lines.buffer.byteLength <= Math.max(2.25 * event.lines.length, 256), `${event.lines.length} bytes of lines in a buffer of ${event.lines.buffer.byteLength}`);
      const locs = text.slice(0, -1).split('\n');
      assert.equal(locs.length, event.count);
      (found.urls[event.sitemap] ??= []).push(...locs);
    } else if (event.type === 'diagnostic') {
      const d = event.diagnostic;
      (found.diagnostics[`${event.sitemap}${d.line === undefined ? ' (discover)' : ''}`] ??= []).push(`${d.code} ${d.line ?? ''}:${d.column ?? ''} ${d.message}`);
    } else if (event.type === 'end') found.tree = timeless(event.tree);
  }
  for (const [key, list] of Object.entries(found.diagnostics)) if (key.endsWith(' (discover)')) list.sort();
  return found;
}

/**
 * A body sent chunked, without Content-Length: read on the thread however small (a small body with a
 * Content-Length is read on the main thread).
 */
function chunked(body: string | Uint8Array, type = 'application/xml'): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': type });
    res.write(body);
    res.end();
  };
}

/** What discover says of `urls` with and without `urlsAsText`: asserted equal, returned. */
async function sameBothWays(urls: string, options: DiscoverOptions = {}): Promise<Said> {
  const entries = await said(urls, options);
  const text = await said(urls, { ...options, urlsAsText: true });
  assert.deepEqual(text.urls, entries.urls);
  assert.deepEqual(text.diagnostics, entries.diagnostics);
  assert.deepEqual(text.tree, entries.tree);
  return text;
}

describe('discover urlsAsText: the same as entries', () => {
  it('a site of every kind of document, with repeats, problems, corrupt gzip and a byte cap', async () => {
    const big = pages('big', 30_000);
    big.push(big[7] as string, big[29_000] as string);
    const bomb = gzipSync(Buffer.concat([Buffer.from(urlset(pages('bomb', 3)).replace('</urlset>', '')), Buffer.alloc(5_000_000, 0x20)]));
    const corrupt = gzipSync(urlset(pages('corrupt', 5_000)));
    const odd = urlset(['https://www.example.com/a?x=1&amp;y=2', 'relative/path', 'https://www.example.com/b']).replace('<loc>https://www.example.com/b', '<lastmod>yesterday</lastmod><loc>https://www.example.com/b');
    const site = await startSiteServer({
      '/big.xml.gz': { type: 'application/gzip', body: gzipSync(urlset(big).replace('<url>', '<url><!-- a comment -->')) },
      '/feed.rss': chunked(`<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>${pages('rss', 50).map((p) => `<item><link>${p}</link><pubDate>Tue, 10 Jun 2025 04:00:00 GMT</pubDate></item>`).join('')}</channel></rss>`),
      '/list.txt': chunked(`${pages('txt', 2_000).join('\n')}\nnot a url\n${pages('txt', 1)[0] as string}\n`, 'text/plain'),
      // The same small document twice: once read on the main thread (Content-Length), once on the thread.
      '/odd.xml': chunked(odd),
      '/odd-small.xml': { body: odd },
      '/bomb.xml.gz': chunked(bomb, 'application/gzip'),
      '/corrupt.xml.gz': chunked(corrupt.subarray(0, corrupt.length >> 1), 'application/gzip'),
      '/appended.xml.gz': chunked(Buffer.concat([gzipSync(urlset(pages('appended', 3_000))), Buffer.from('\r\n')]), 'application/gzip'),
      '/gone.xml': { status: 404 },
    });
    const children = ['/big.xml.gz', '/feed.rss', '/list.txt', '/odd.xml', '/odd-small.xml', '/bomb.xml.gz', '/corrupt.xml.gz', '/appended.xml.gz', '/gone.xml', '/nested.xml'].map((p) => site.url(p));
    site.route('/nested.xml', { body: sitemapIndex([site.url('/odd.xml'), site.url('/feed.rss')]) });
    site.route('/index.xml', { body: sitemapIndex([...children, site.url('/big.xml.gz')]) });
    site.route('/robots.txt', { type: 'text/plain', body: `Sitemap: ${site.url('/index.xml')}\n` });
    try {
      const found = await sameBothWays(site.url('/'), { maxBodyBytes: 3_000_000 });
      assert.equal(found.urls[site.url('/big.xml.gz')]?.length, 30_000);
      assert.equal(found.urls[site.url('/list.txt')]?.length, 2_000);
      assert.equal(found.urls[site.url('/appended.xml.gz')]?.length, 3_000);
      const codes = Object.values(found.diagnostics).flat().map((d) => d.split(' ')[0]);
      assert.equal(found.urls[site.url('/odd.xml')]?.length, found.urls[site.url('/odd-small.xml')]?.length);
      for (const code of ['loc/duplicate', 'budget/decompressed-size', 'gzip/corrupt', 'fetch/http-status', 'index/nested', 'discover/duplicate', 'gzip/trailing-garbage']) {
        assert.ok(codes.includes(code), `${code} in ${JSON.stringify(codes)}`);
      }
    } finally {
      await site.close();
    }
  });

  it('a small document (read on the main thread) hands its URLs out as urls events too, never as url events, as the thread does', async () => {
    const body = urlset([...pages('small', 3), 'https://www.example.com/line\nbreak']);
    const site = await startSiteServer({ '/small.xml': { body }, '/chunked.xml': chunked(body) });
    try {
      for (const path of ['/small.xml', '/chunked.xml']) {
        const events: string[] = [];
        let text = '';
        for await (const event of discoverSitemaps(site.url(path), { ...FAST, urlsAsText: true })) {
          events.push(event.type);
          if (event.type === 'urls') text += new TextDecoder().decode(event.lines);
        }
        assert.ok(!events.includes('url'), `${path}: ${events.join()}`);
        assert.equal(text, `${[...pages('small', 3), 'https://www.example.com/line%0Abreak'].join('\n')}\n`, path);
      }
    } finally {
      await site.close();
    }
  });

  it('probed paths: a soft-404 page is quiet, a sitemap found is read', async () => {
    const site = await startSiteServer({
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow:\n' },
      '/sitemap.xml': chunked(urlset([...pages('probe', 300), 'not a url'])),
      '/sitemap_index.xml': chunked(`<!doctype html><html><body>${'<p>not here</p>'.repeat(500)}</body></html>`, 'text/html'),
    });
    try {
      const found = await sameBothWays(site.url('/'));
      assert.equal(found.urls[site.url('/sitemap.xml')]?.length, 300);
      assert.equal(found.diagnostics[site.url('/sitemap_index.xml')], undefined);
    } finally {
      await site.close();
    }
  });

  it('the reader budget (maxEntries) and maxTrackedUrls', async () => {
    const site = await startSiteServer({ '/s.xml': chunked(urlset([...pages('s', 40), ...pages('s', 3)])) });
    try {
      const capped = await sameBothWays(site.url('/s.xml'), { maxEntries: 25 });
      assert.equal(capped.urls[site.url('/s.xml')]?.length, 25);
      const untracked = await sameBothWays(site.url('/s.xml'), { maxTrackedUrls: 10 });
      assert.equal(untracked.urls[site.url('/s.xml')]?.length, 43);
    } finally {
      await site.close();
    }
  });

  it('a body cut short: fetch/truncated, the URLs read before the cut', async () => {
    const body = urlset(pages('cut', 3_000));
    const cutAt = Buffer.byteLength(body) - 5_000;
    const raw = await startRawServer((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
      socket.write(body.slice(0, cutAt), () => setTimeout(() => socket.destroy(), 20));
    });
    try {
      const found = await sameBothWays(raw.url('/s.xml'));
      const read = found.urls[raw.url('/s.xml')] ?? [];
      assert.ok(read.length > 2_000 && read.length < 3_000, `${read.length} URLs read`);
      assert.match(found.diagnostics[`${raw.url('/s.xml')} (discover)`]?.join('\n') ?? '', /^fetch\/truncated /m);
    } finally {
      await raw.close();
    }
  });
});

describe('discover urlsAsText: the locs copied from the bytes (ReaderSink.urlLocs)', () => {
  it('a realistic sitemap: `&amp;` queries, other references, images, alternates, repeats, non-ASCII locs', async () => {
    const urls: string[] = [];
    for (let i = 0; i < 12_000; i++) {
      const page = `https://www.example.com/p/${i}`;
      const loc = i % 7 === 0 ? `${page}?a=${i}&amp;b=2&amp;c` : i % 997 === 0 ? `${page}?q=&#x26;&apos;` : i % 1_499 === 0 ? `${page}?"quoted"` : page;
      const extras = i % 5 === 0 ? `<image:image><image:loc>https://img.example.com/${i}.jpg?w=1&amp;h=2</image:loc></image:image><xhtml:link rel="alternate" hreflang="de" href="https://www.example.de/p/${i}"/>` : '';
      const lastmod = i % 2 === 0 ? '<lastmod>2025-06-10</lastmod>' : '<lastmod>2025-06-10T04:00:00+00:00</lastmod>';
      urls.push(`<url>\n  <loc>${loc}</loc>${lastmod}${i % 3 === 0 ? '<priority>0.5</priority>' : ''}${extras}\n</url>`);
    }
    // Repeats, with and without references, amid ASCII (read by the lane) and at the end, then locs of
    // another script (a chunk read as text).
    urls.splice(6_000, 0, urls[7] as string, urls[14] as string, urls[997] as string);
    urls.push(urls[11_000] as string);
    for (let i = 0; i < 50; i++) urls.push(`<url><loc>https://www.example.com/straße/${i}?x=1&amp;y=ü</loc></url>`);
    urls.push(urls[21] as string, urls[12_010] as string);
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
    const site = await startSiteServer({ '/s.xml': chunked(body), '/s.xml.gz': chunked(gzipSync(body), 'application/gzip') });
    try {
      for (const path of ['/s.xml', '/s.xml.gz']) {
        const found = await sameBothWays(site.url(path));
        const read = found.urls[site.url(path)] ?? [];
        assert.equal(read.length, 12_050);
        assert.equal(read[7], 'https://www.example.com/p/7?a=7&b=2&c');
        assert.equal(read[997], "https://www.example.com/p/997?q=&'");
        assert.equal(read[12_049], 'https://www.example.com/straße/49?x=1&y=ü');
        const repeats = (found.diagnostics[site.url(path)] ?? []).filter((d) => d.startsWith('loc/duplicate'));
        assert.equal(repeats.length, 6);
        assert.match(repeats[0] as string, /"https:\/\/www\.example\.com\/p\/7\?a=7&b=2&c" is listed again/);
      }
    } finally {
      await site.close();
    }
  });
});

describe('discover urlsAsText: the duplicate check of runs (Lane.addSeen)', () => {
  it('repeats in a row, at a run\'s start and end, and past maxTrackedUrls: as without', async () => {
    const all = pages('capped', 12_000);
    all.splice(100, 0, all[3] as string, all[3] as string, all[99] as string);
    all.splice(6_000, 0, all[0] as string);
    all.push(all[5] as string, all[11_999] as string);
    const site = await startSiteServer({ '/s.xml': chunked(urlset(all)), '/s.xml.gz': chunked(gzipSync(urlset(all)), 'application/gzip') });
    try {
      for (const path of ['/s.xml', '/s.xml.gz']) {
        const found = await sameBothWays(site.url(path));
        assert.equal(found.urls[site.url(path)]?.length, 12_000);
        assert.equal(found.diagnostics[site.url(path)]?.filter((d) => d.startsWith('loc/duplicate')).length, 6);
        // Past 5,000 distinct URLs: the repeats of tracked ones still found until the first new one.
        const capped = await sameBothWays(site.url(path), { maxTrackedUrls: 5_000 });
        const said = capped.diagnostics[site.url(path)] ?? [];
        assert.deepEqual(said.map((d) => d.split(' ')[0]), ['loc/duplicate', 'loc/duplicate', 'loc/duplicate', 'duplicates/not-checked']);
        assert.equal(capped.urls[site.url(path)]?.length, all.length - 3);
      }
    } finally {
      await site.close();
    }
  });
});

describe('discover urlsAsText: backpressure', () => {
  it('a consumer that stops reading holds the thread back: a few MB queued, not the document', async () => {
    // 200,000 URLs, ~11 MB of lines: more than twice the queue's bound.
    const all = pages('slow', 200_000);
    const site = await startSiteServer({ '/s.txt': chunked(`${all.join('\n')}\n`, 'text/plain') });
    try {
      const run = discoverSitemaps(site.url('/s.txt'), { ...FAST, urlsAsText: true });
      let count = 0;
      let largest = 0;
      let paused = false;
      for await (const batch of run.batches()) {
        let bytes = 0;
        for (const event of batch) {
          if (event.type !== 'urls') continue;
          count += event.count;
          bytes += event.lines.length;
        }
        largest = Math.max(largest, bytes);
        if (!paused && count > 0) {
          paused = true;
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      }
      assert.equal(count, 200_000);
      // The queue's bound (4 MiB) and what was on its way (two answers of the thread, 256 KiB each).
      assert.ok(largest < 5 * 1024 * 1024, `${largest} bytes of lines queued at once`);
    } finally {
      await site.close();
    }
  });
});
