// discoverSitemaps against a test server on 127.0.0.1: every case of issue #5 "Tests" with its asserted
// outcome (URLs found, diagnostics, requests made, bounded time and memory).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { discoverSitemaps, type DiscoverOptions, type DiscoveryTree, type SitemapNode } from '../../src/node/discover.js';
import { WELL_KNOWN_SITEMAP_PATHS } from '../../src/core/discover/inputs.js';
import fc from 'fast-check';
import type { Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { validateSitemap } from '../../src/node/validate-sitemap.js';
import { closedPort, startRawServer } from '../helpers/raw-server.js';
import { pages, sitemapIndex, startSiteServer, urlset, type Route, type SiteServer } from '../helpers/site-server.js';

const FAST: DiscoverOptions = { allowPrivate: true, retryBaseDelayMs: 10 };

interface Found {
  tree: DiscoveryTree;
  urls: string[];
}

async function discover(urls: string | string[], options: DiscoverOptions = {}): Promise<Found> {
  const found: string[] = [];
  let tree: DiscoveryTree | undefined;
  for await (const event of discoverSitemaps(urls, { ...FAST, ...options })) {
    if (event.type === 'url') found.push(event.entry.loc);
    if (event.type === 'end') tree = event.tree;
  }
  assert.ok(tree !== undefined);
  return { tree, urls: found };
}

function nodes(tree: DiscoveryTree): SitemapNode[] {
  const all: SitemapNode[] = [];
  const walk = (list: readonly SitemapNode[]): void => {
    for (const n of list) {
      all.push(n);
      walk(n.children);
    }
  };
  for (const input of tree.inputs) walk(input.sitemaps);
  return all;
}

function codes(tree: DiscoveryTree): string[] {
  return nodes(tree).flatMap((n) => n.diagnostics.map((d) => d.code));
}

function node(tree: DiscoveryTree, suffix: string): SitemapNode {
  const found = nodes(tree).find((n) => n.url.endsWith(suffix));
  assert.ok(found !== undefined, `no node for ${suffix}`);
  return found;
}

describe('discover: robots.txt', () => {
  let server: SiteServer;
  before(async () => {
    server = await startSiteServer({
      '/a.xml': { body: urlset(pages('a', 3)) },
      '/dir/b.xml': { body: urlset(pages('b', 2)) },
    });
    // Mixed case keys, CRLF, a relative value, a duplicate (once absolute, once relative), a BOM,
    // Sitemap lines before, inside and after groups.
    server.route('/robots.txt', {
      type: 'text/plain',
      body: `\uFEFFSITEMAP: ${server.url('/a.xml')}\r\nUser-Agent: *\r\nDisallow: /private\r\nsitemap:/dir/b.xml\r\n\r\nSiteMap: /a.xml # again\r\nSitemap:   ${server.url('/dir/b.xml')}  \r\n`,
    });
  });
  after(() => server.close());

  it('finds every Sitemap line once, resolving relative ones', async () => {
    const { tree, urls } = await discover(server.url('/'));
    assert.deepEqual(tree.inputs[0]?.robots?.sitemaps, [server.url('/a.xml'), server.url('/dir/b.xml')]);
    assert.deepEqual(urls.sort(), [...pages('a', 3), ...pages('b', 2)].sort());
    assert.equal(server.count('/a.xml'), 1);
    assert.equal(server.count('/dir/b.xml'), 1);
    // robots.txt named sitemaps: no probing.
    assert.equal(server.count('/sitemap.xml'), 0);
    assert.equal(tree.totals.errors, 0);
  });

  it('a robots.txt past 500 KiB: what follows is not read, and a warning says so', async () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(520); // 520 KiB of comments
    const s = await startSiteServer({ '/a.xml': { body: urlset(pages('early', 1)) }, '/z.xml': { body: urlset(pages('late', 1)) } });
    s.route('/robots.txt', { type: 'text/plain', body: `Sitemap: ${s.url('/a.xml')}\n${filler}Sitemap: ${s.url('/z.xml')}\n` });
    try {
      const { tree, urls } = await discover(s.url('/'));
      assert.deepEqual(urls, pages('early', 1));
      const robots = tree.inputs[0]?.robots;
      assert.deepEqual(robots?.diagnostics.map((d) => [d.code, d.severity]), [['discover/robots-sitemap', 'warning']]);
      assert.match(robots?.diagnostics[0]?.message ?? '', /larger than 500 KiB/);
    } finally {
      await s.close();
    }
  });

  it('a robots.txt cut by the 500 KiB limit in the middle of a Sitemap line: that line is not read (its URL would be a stump)', async () => {
    const s = await startSiteServer({ '/a.xml': { body: urlset(pages('early', 1)) } });
    const head = `Sitemap: ${s.url('/a.xml')}\n`;
    const filler = `# ${'x'.repeat(500 * 1024 - head.length - 4)}\n`;
    // The limit falls after "/z" of the last line.
    const cut = `Sitemap: ${s.url('/z')}`;
    s.route('/robots.txt', { type: 'text/plain', body: `${head}${filler.slice(0, filler.length - cut.length)}\n${cut}zzz.xml\n` });
    try {
      const { tree, urls } = await discover(s.url('/'));
      assert.deepEqual(urls, pages('early', 1));
      assert.deepEqual(tree.inputs[0]?.robots?.sitemaps, [s.url('/a.xml')]);
      assert.equal(s.count('/z'), 0);
    } finally {
      await s.close();
    }
  });

  it('a robots.txt whose bytes pause at exactly 500 KiB, more to come: the warning is said too', async () => {
    const first = `# ${'x'.repeat(500 * 1024 - 3)}\n`;
    const rest = 'Sitemap: /z.xml\n';
    const raw = await startRawServer((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${first.length + rest.length}\r\n\r\n${first}`);
      setTimeout(() => socket.end(rest), 100);
    });
    try {
      const { tree } = await discover(raw.url('/robots.txt'), { retries: 0 });
      assert.match(tree.inputs[0]?.robots?.diagnostics[0]?.message ?? '', /larger than 500 KiB/);
    } finally {
      await raw.close();
    }
  });

  it('a robots.txt in UTF-16 or binary: a warning that crawlers may read nothing in it; UTF-8 cut at 500 KiB is no fault', async () => {
    const s = await startSiteServer({ '/sitemap.xml': { body: urlset(pages('probed', 1)) } });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`User-agent: *\nSitemap: ${s.url('/a.xml')}\n`, 'utf16le')]);
    const utf16NoBom = Buffer.from(`Sitemap: ${s.url('/a.xml')}\n`, 'utf16le');
    // 'é' (2 bytes) split by the 500 KiB limit: the file is UTF-8.
    const cut = Buffer.concat([Buffer.from(`# ${'x'.repeat(511_997)}`), Buffer.from('é\n')]);
    const warned = (tree: DiscoveryTree): string[] => (tree.inputs[0]?.robots?.diagnostics ?? []).map((d) => d.message).filter((m) => m.includes('not UTF-8'));
    try {
      for (const body of [utf16, utf16NoBom]) {
        s.route('/robots.txt', { type: 'text/plain', body });
        const { tree, urls } = await discover(s.url('/'));
        assert.deepEqual(urls, pages('probed', 1)); // no Sitemap line read: the well-known paths are probed
        assert.equal(warned(tree).length, 1);
      }
      s.route('/robots.txt', { type: 'text/plain', body: cut });
      assert.deepEqual(warned((await discover(s.url('/'))).tree), []);
      // A whole file (not cut by the limit) that ends inside a character is not UTF-8.
      s.route('/robots.txt', { type: 'text/plain', body: Buffer.concat([Buffer.from(`Sitemap: ${s.url('/a.xml')}\n# `), Buffer.from('é').subarray(0, 1)]) });
      assert.equal(warned((await discover(s.url('/'))).tree).length, 1);
    } finally {
      await s.close();
    }
  });

  it('a robots.txt that is not UTF-8 (Latin-1): its bytes above 0x7f are percent-encoded as written, as Google escapes them, not replaced by U+FFFD', async () => {
    const s = await startSiteServer({ '/caf%E9.xml': { body: urlset(pages('latin', 1)) } });
    try {
      s.route('/robots.txt', { type: 'text/plain', body: Buffer.from('# R\xe9glages\nSitemap: /caf\xe9.xml\n', 'latin1') });
      const { tree, urls } = await discover(s.url('/'));
      assert.deepEqual(urls, pages('latin', 1));
      assert.deepEqual(tree.inputs[0]?.robots?.sitemaps, [s.url('/caf%E9.xml')]);
    } finally {
      await s.close();
    }
  });

  it('a robots.txt that is an HTML page (an SPA or soft-404 answering 200): a warning, the well-known paths probed', async () => {
    const s = await startSiteServer({
      '/sitemap.xml': { body: urlset(pages('probed', 1)) },
      '/robots.txt': { type: 'text/html', body: '\n<!DOCTYPE html>\n<html><body><p>Page not found</p></body></html>\n' },
    });
    try {
      const { tree, urls } = await discover(s.url('/'));
      assert.deepEqual(urls, pages('probed', 1));
      const robots = tree.inputs[0]?.robots;
      assert.deepEqual(robots?.diagnostics.map((d) => [d.code, d.severity]), [['discover/robots-sitemap', 'warning']]);
      assert.match(robots?.diagnostics[0]?.message ?? '', /HTML page/);
      // A plain robots.txt whose comment starts with "<html" is no page.
      s.route('/robots.txt', { type: 'text/plain', body: `# <html> is not a page\nUser-agent: *\nDisallow:\n` });
      assert.deepEqual((await discover(s.url('/'))).tree.inputs[0]?.robots?.diagnostics, []);
    } finally {
      await s.close();
    }
  });

  it('sends the user agent', async () => {
    const before = server.requests.length;
    await discover(server.url('/a.xml'), { userAgent: 'sitemapkit/9.9 (+https://example.org)' });
    assert.equal(server.requests[before]?.headers['user-agent'], 'sitemapkit/9.9 (+https://example.org)');
  });

  it('with respectRobots, does not fetch a disallowed sitemap', async () => {
    const s = await startSiteServer({ '/private/s.xml': { body: urlset(pages('p', 1)) }, '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' } });
    try {
      const { tree, urls } = await discover(s.url('/private/s.xml'), { respectRobots: true });
      assert.deepEqual(urls, []);
      assert.equal(s.count('/private/s.xml'), 0);
      assert.deepEqual(codes(tree), ['discover/robots-disallowed']);
      const again = await discover(s.url('/private/s.xml'));
      assert.deepEqual(again.urls, pages('p', 1));
    } finally {
      await s.close();
    }
  });

  it('with respectRobots and a browser-style user agent, obeys the group of the name after "compatible;" (as Googlebot does)', async () => {
    const s = await startSiteServer({ '/s.xml': { body: urlset(pages('p', 1)) }, '/robots.txt': { type: 'text/plain', body: 'User-agent: MyBot\nDisallow: /\n\nUser-agent: Mozilla\nUser-agent: *\nAllow: /\n' } });
    try {
      const { tree, urls } = await discover(s.url('/s.xml'), { respectRobots: true, userAgent: 'Mozilla/5.0 (compatible; MyBot/1.0; +https://example.org/bot)' });
      assert.deepEqual(urls, []);
      assert.equal(s.count('/s.xml'), 0);
      assert.match(nodes(tree)[0]?.diagnostics[0]?.message ?? '', /disallows it for mybot/);
    } finally {
      await s.close();
    }
  });

  it('with respectRobots, does not follow a redirect to a disallowed sitemap (RFC 9309 §2: every URI fetched)', async () => {
    const s = await startSiteServer({ '/private/s.xml': { body: urlset(pages('p', 1)) }, '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' } });
    s.route('/s.xml', { status: 301, headers: { location: '/private/s.xml' } });
    try {
      const { tree, urls } = await discover(s.url('/s.xml'), { respectRobots: true });
      assert.deepEqual([urls, s.count('/private/s.xml'), codes(tree), node(tree, '/s.xml').outcome], [[], 0, ['discover/robots-disallowed'], 'skipped']);
      assert.deepEqual((await discover(s.url('/s.xml'))).urls, pages('p', 1));
    } finally {
      await s.close();
    }
  });

  it('a robots.txt that redirects without end (a loop, or past five hops) is unavailable, as a 4xx: no rules (RFC 9309 §2.3.1.2), with a warning', async () => {
    const s = await startSiteServer({ '/sitemap.xml': { body: urlset(pages('p', 1)) } });
    s.route('/robots.txt', { status: 301, headers: { location: '/r1' } });
    s.route('/r1', { status: 301, headers: { location: '/robots.txt' } });
    try {
      const { tree, urls } = await discover(s.url('/'), { respectRobots: true });
      assert.deepEqual(urls, pages('p', 1));
      const robots = tree.inputs[0]?.robots;
      assert.deepEqual([robots?.outcome, robots?.failure, robots?.diagnostics.map((d) => d.code)], ['absent', 'fetch/redirect-loop', ['discover/robots-sitemap']]);
      assert.equal(tree.totals.robotsFailed, 0);
      assert.equal(tree.totals.errors, 0);
    } finally {
      await s.close();
    }
  });

  it('a robots.txt given below the root is read for its Sitemap lines, with a warning; its rules are not the origin\'s (RFC 9309 §2.3)', async () => {
    const s = await startSiteServer({
      '/a.xml': { body: urlset(pages('a', 1)) },
      '/private/b.xml': { body: urlset(pages('b', 1)) },
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' },
    });
    s.route('/sub/robots.txt', { type: 'text/plain', body: `User-agent: *\nDisallow: /a.xml\nSitemap: ${s.url('/a.xml')}\nSitemap: ${s.url('/private/b.xml')}\n` });
    try {
      const { tree, urls } = await discover(s.url('/sub/robots.txt'), { respectRobots: true });
      assert.deepEqual(urls, pages('a', 1));
      assert.equal(s.count('/private/b.xml'), 0);
      assert.deepEqual(codes(tree), ['discover/robots-disallowed']);
      assert.deepEqual(tree.inputs[0]?.robots?.diagnostics.map((d) => d.code), ['discover/robots-sitemap']);
      assert.match(tree.inputs[0]?.robots?.diagnostics[0]?.message ?? '', /not at \/robots\.txt .*RFC 9309 §2\.3/);
    } finally {
      await s.close();
    }
  });
});

describe('discover: well-known paths', () => {
  it('probes them in a fixed order when robots.txt names none; 404s and soft-404 pages are quiet', async () => {
    const s = await startSiteServer({
      '/sitemap_index.xml': { body: '' },
      '/sitemap.txt': { type: 'text/plain', body: 'https://www.example.com/t/1\nhttps://www.example.com/t/2\n' },
      '/sitemap': { type: 'text/html', body: '<!DOCTYPE html><html><head><title>Not found</title></head><body>Sorry</body></html>' },
    });
    s.route('/sitemap_index.xml', { body: sitemapIndex([s.url('/sitemap.xml')]) });
    try {
      const { tree, urls } = await discover(s.url('/'));
      assert.deepEqual(urls.sort(), ['https://www.example.com/t/1', 'https://www.example.com/t/2']);
      assert.equal(tree.inputs[0]?.robots?.outcome, 'absent');
      // Requested concurrently, listed in the fixed order.
      const probed = ['/sitemap.xml', '/sitemap_index.xml', '/sitemap-index.xml', '/sitemap.xml.gz', '/sitemap_index.xml.gz', '/sitemap-index.xml.gz', '/sitemap.txt', '/sitemap', '/sitemap_news.xml', '/sitemap-news.xml'];
      assert.deepEqual(tree.inputs[0]?.sitemaps.map((n) => new URL(n.url).pathname), probed);
      assert.deepEqual(s.requests.map((r) => r.path).filter((p) => p !== '/robots.txt').sort(), [...probed].sort());
      // sitemap_index.xml lists /sitemap.xml, which was probed already: not fetched twice.
      assert.equal(s.count('/sitemap.xml'), 1);
      assert.equal(tree.totals.errors, 0, JSON.stringify(codes(tree)));
      assert.equal(node(tree, '/sitemap').outcome, 'absent');
    } finally {
      await s.close();
    }
  });

  it('a site that redirects every unknown path to its home page: every probe is a quiet miss', async () => {
    const s = await startSiteServer({ '/': { type: 'text/html', body: '<!DOCTYPE html><html><body>Home</body></html>' } });
    for (const path of WELL_KNOWN_SITEMAP_PATHS) s.route(`/${path}`, { status: 302, headers: { location: '/' }, body: '' });
    try {
      const { tree, urls } = await discover(s.url('/'));
      assert.deepEqual(urls, []);
      assert.deepEqual(tree.inputs[0]?.sitemaps.map((n) => n.outcome), WELL_KNOWN_SITEMAP_PATHS.map(() => 'absent'));
      assert.deepEqual([tree.totals.documents, tree.totals.skipped, tree.totals.errors], [0, 0, 0]);
      assert.deepEqual(codes(tree), []);
    } finally {
      await s.close();
    }
  });

  it('a site answering every path 200 "OK" or JSON: every probe is a quiet miss; a probe with some URL lines, or a document named, is reported', async () => {
    for (const [type, body] of [['text/plain', 'OK'], ['application/json', '{"status":"ok",\n"path":"/sitemap.xml"}']] as const) {
      const s = await startSiteServer({});
      for (const path of [...WELL_KNOWN_SITEMAP_PATHS, 'given.txt']) s.route(`/${path}`, { type, body });
      try {
        const { tree } = await discover(s.url('/'));
        assert.deepEqual(tree.inputs[0]?.sitemaps.map((n) => n.outcome), WELL_KNOWN_SITEMAP_PATHS.map(() => 'absent'), body);
        assert.deepEqual([tree.totals.documents, tree.totals.errors, codes(tree)], [0, 0, []], body);
        // Named by the user (or robots.txt), the same body is a sitemap that lists nothing: said.
        const given = await discover(s.url('/given.txt'));
        assert.deepEqual([given.tree.totals.failed, codes(given.tree)[0]], [1, 'text/not-a-url'], body);
      } finally {
        await s.close();
      }
    }
    // Some URL lines among relative paths: a broken text sitemap, reported on the probe that found it.
    const s = await startSiteServer({ '/sitemap.txt': { type: 'text/plain', body: '/a\nhttps://www.example.com/b\n' } });
    try {
      const { tree, urls } = await discover(s.url('/'));
      assert.deepEqual(urls, ['https://www.example.com/b']);
      assert.deepEqual([node(tree, '/sitemap.txt').outcome, codes(tree)], ['ok', ['text/not-a-url']]);
    } finally {
      await s.close();
    }
  });
});

describe('discover: loops and limits', () => {
  let server: SiteServer;
  before(async () => {
    server = await startSiteServer({});
    const u = (p: string): string => server.url(p);
    server.route('/self.xml', { body: sitemapIndex([u('/self.xml'), u('/leaf.xml')]) });
    server.route('/leaf.xml', { body: urlset(pages('leaf', 2)) });
    server.route('/A.xml', { body: sitemapIndex([u('/B.xml')]) });
    server.route('/B.xml', { body: sitemapIndex([u('/A.xml'), u('/leaf2.xml')]) });
    server.route('/leaf2.xml', { body: urlset(pages('leaf2', 1)) });
    server.route('/parent.xml', { body: sitemapIndex([u('/child.xml'), u('/leaf3.xml')]) });
    server.route('/child.xml', { status: 301, headers: { location: '/parent.xml' } });
    server.route('/leaf3.xml', { body: urlset(pages('leaf3', 1)) });
    server.route('/r1.xml', { status: 302, headers: { location: '/r2.xml' } });
    server.route('/r2.xml', { status: 302, headers: { location: '/r1.xml' } });
    for (let i = 0; i < 15; i++) server.route(`/nest-${i}.xml`, { body: sitemapIndex([u(`/nest-${i + 1}.xml`)]) });
    server.route('/nest-15.xml', { body: urlset(pages('deep', 1)) });
  });
  after(() => server.close());

  it('an index listing itself is fetched once', async () => {
    const { tree, urls } = await discover(server.url('/self.xml'));
    assert.equal(server.count('/self.xml'), 1);
    assert.deepEqual(urls, pages('leaf', 2));
    assert.deepEqual(codes(tree), ['discover/loop']);
    // Not "X lists itself through X".
    assert.equal(node(tree, '/self.xml').children.find((c) => c.via === 'index' && c.url === server.url('/self.xml'))?.diagnostics[0]?.message, `not fetched again: ${server.url('/self.xml')} lists itself`);
    assert.equal(tree.totals.errors, 0);
  });

  it('A → B → A stops at once', async () => {
    const { tree, urls } = await discover(server.url('/A.xml'));
    assert.equal(server.count('/A.xml'), 1);
    assert.equal(server.count('/B.xml'), 1);
    assert.deepEqual(urls, pages('leaf2', 1));
    assert.deepEqual(codes(tree).sort(), ['discover/loop', 'index/nested']);
  });

  it('a child redirecting to its parent is not read twice', async () => {
    const { tree, urls } = await discover(server.url('/parent.xml'));
    assert.equal(server.count('/parent.xml'), 1);
    assert.equal(server.count('/child.xml'), 1);
    assert.deepEqual(urls, pages('leaf3', 1));
    assert.equal(node(tree, '/child.xml').outcome, 'skipped');
    assert.deepEqual(codes(tree), ['discover/loop']);
  });

  it('a redirect loop fails after one round', async () => {
    const { tree } = await discover(server.url('/r1.xml'));
    assert.equal(server.count('/r1.xml'), 1);
    assert.equal(server.count('/r2.xml'), 1);
    assert.deepEqual(codes(tree), ['fetch/redirect-loop']);
    assert.equal(tree.totals.failed, 1);
  });

  it('15 nested indexes: fetched down to the depth limit (5), the rest reported', async () => {
    const { tree, urls } = await discover(server.url('/nest-0.xml'));
    assert.deepEqual(urls, []);
    for (let i = 0; i <= 5; i++) assert.equal(server.count(`/nest-${i}.xml`), 1, `nest-${i}`);
    for (let i = 6; i <= 15; i++) assert.equal(server.count(`/nest-${i}.xml`), 0, `nest-${i}`);
    // nest-1 … nest-5 are indexes listed by an index: a warning each.
    assert.deepEqual(codes(tree).sort(), ['discover/depth-limit', ...Array<string>(5).fill('index/nested')]);
    const deeper = await discover(server.url('/nest-0.xml'), { maxDepth: 20 });
    assert.deepEqual(deeper.urls, pages('deep', 1));
  });

  it('stops at the number of sitemaps', async () => {
    const s = await startSiteServer({});
    s.route('/index.xml', { body: sitemapIndex(Array.from({ length: 10 }, (_, i) => s.url(`/s${i}.xml`))) });
    for (let i = 0; i < 10; i++) s.route(`/s${i}.xml`, { body: urlset(pages(`s${i}`, 1)) });
    try {
      const { tree, urls } = await discover(s.url('/index.xml'), { maxSitemaps: 4 });
      // The index given does not count: four of its children are fetched.
      assert.equal(urls.length, 4);
      assert.equal(s.requests.length, 5);
      assert.deepEqual(codes(tree), ['discover/too-many-sitemaps']);
      // An index of as many children as the limit, found through robots.txt, is read whole.
      s.route('/robots.txt', { type: 'text/plain', body: `Sitemap: ${s.url('/index.xml')}\n` });
      const full = await discover(s.url('/'), { maxSitemaps: 10 });
      assert.equal(full.urls.length, 10);
      assert.deepEqual(codes(full.tree), []);
    } finally {
      await s.close();
    }
  });
});

describe('discover: formats and encodings, by content', () => {
  let server: SiteServer;
  before(async () => {
    const latin1 = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/espa\u00f1a.html</loc></url></urlset>\n', 'latin1');
    const utf16 = Buffer.from('\uFEFF<?xml version="1.0" encoding="UTF-16"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/\u0436</loc></url></urlset>\n', 'utf16le');
    server = await startSiteServer({
      '/gzipped': { type: 'application/octet-stream', body: gzipSync(urlset(pages('gz', 3))) },
      '/plain.xml.gz': { type: 'application/gzip', body: urlset(pages('plain', 2)) },
      '/latin1.xml': { type: 'text/xml', body: latin1 },
      '/utf16.xml': { type: 'text/xml', body: utf16 },
      '/soft404.xml': { type: 'text/html', body: '<!DOCTYPE html>\n<html><body><h1>Page not found</h1></body></html>\n' },
    });
  });
  after(() => server.close());

  it('a gzip file at a URL without .gz, served as application/octet-stream', async () => {
    const { urls, tree } = await discover(server.url('/gzipped'));
    assert.deepEqual(urls, pages('gz', 3));
    assert.equal(tree.totals.errors, 0);
  });

  it('plain XML at a .gz URL', async () => {
    const { urls, tree } = await discover(server.url('/plain.xml.gz'));
    assert.deepEqual(urls, pages('plain', 2));
    assert.equal(tree.totals.errors, 0);
  });

  it('ISO-8859-1 and UTF-16 documents', async () => {
    const { urls, tree } = await discover([server.url('/latin1.xml'), server.url('/utf16.xml')]);
    // Decoded right: the characters, as the documents wrote them (the reader does not re-encode).
    assert.deepEqual(urls.sort(), ['https://www.example.com/espa\u00f1a.html', 'https://www.example.com/\u0436'].sort());
    assert.equal(tree.totals.errors, 0, JSON.stringify(codes(tree)));
  });

  it('an HTML soft-404 with status 200 is an error, with no URLs', async () => {
    const { urls, tree } = await discover(server.url('/soft404.xml'));
    assert.deepEqual(urls, []);
    assert.equal(node(tree, '/soft404.xml').format, 'html');
    assert.ok(codes(tree).includes('format/html'));
    assert.equal(tree.totals.failed, 1);
  });
});

describe('discover: retries', () => {
  it('500 then 200: retried, read', async () => {
    let calls = 0;
    const s = await startSiteServer({
      '/flaky.xml': (_req, res) => {
        calls++;
        if (calls === 1) res.writeHead(500).end('oops');
        else res.writeHead(200, { 'content-type': 'application/xml' }).end(urlset(pages('flaky', 1)));
      },
    });
    try {
      const { urls, tree } = await discover(s.url('/flaky.xml'));
      assert.deepEqual(urls, pages('flaky', 1));
      assert.equal(node(tree, '/flaky.xml').attempts, 2);
      assert.equal(tree.totals.errors, 0);
    } finally {
      await s.close();
    }
  });

  it('429 with Retry-After: 1 waits a second, then reads', async () => {
    const times: number[] = [];
    const s = await startSiteServer({
      '/busy.xml': (_req, res) => {
        times.push(performance.now());
        if (times.length === 1) res.writeHead(429, { 'retry-after': '1' }).end();
        else res.writeHead(200).end(urlset(pages('busy', 1)));
      },
    });
    try {
      const { urls } = await discover(s.url('/busy.xml'));
      assert.deepEqual(urls, pages('busy', 1));
      assert.equal(times.length, 2);
      assert.ok((times[1] as number) - (times[0] as number) >= 950, `waited ${(times[1] as number) - (times[0] as number)} ms`);
    } finally {
      await s.close();
    }
  });

  it('429 with a Retry-After past the longest wait: not waited for, and the message says why', async () => {
    const s = await startSiteServer({ '/later.xml': { status: 429, headers: { 'retry-after': '3600' }, body: '' } });
    try {
      const { tree } = await discover(s.url('/later.xml'));
      assert.equal(s.count('/later.xml'), 1);
      const [d] = node(tree, '/later.xml').diagnostics;
      assert.equal(d?.code, 'fetch/http-status');
      assert.equal(d?.message, 'HTTP 429 Too Many Requests; not retried: its Retry-After asks for 3600 s, more than the 60 s waited at most');
    } finally {
      await s.close();
    }
  });

  it('gives up after the retries, and never retries a 404', async () => {
    const s = await startSiteServer({ '/down.xml': { status: 503, body: 'down' } });
    try {
      const { tree } = await discover([s.url('/down.xml'), s.url('/missing.xml')], { retries: 2 });
      assert.equal(s.count('/down.xml'), 3);
      assert.equal(s.count('/missing.xml'), 1);
      assert.deepEqual(codes(tree).sort(), ['fetch/http-status', 'fetch/http-status']);
      assert.equal(tree.totals.failed, 2);
    } finally {
      await s.close();
    }
  });
});

describe('discover: hostile servers', () => {
  let bomb: Buffer;
  before(() => {
    // 300 MB of one repeated URL line's worth of XML whitespace: ~300 KB gzipped.
    const head = Buffer.from('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/</loc></url>');
    bomb = gzipSync(Buffer.concat([head, Buffer.alloc(300 * 1000 * 1000 - head.length, 0x20)]), { level: 9 });
  });

  it('a 300 MB gzip bomb as a file: stopped at the byte cap, in bounded memory', async () => {
    const s = await startSiteServer({ '/bomb.xml.gz': { type: 'application/gzip', body: bomb } });
    try {
      const rss = process.memoryUsage().rss;
      const started = performance.now();
      const { tree, urls } = await discover(s.url('/bomb.xml.gz'), { maxBodyBytes: 20 * 1024 * 1024 });
      assert.deepEqual(urls, ['https://www.example.com/']);
      assert.ok(codes(tree).includes('budget/decompressed-size'), JSON.stringify(codes(tree)));
      assert.ok(node(tree, '/bomb.xml.gz').bytesDecompressed <= 21 * 1024 * 1024);
      assert.ok(process.memoryUsage().rss - rss < 150 * 1024 * 1024);
      assert.ok(performance.now() - started < 20_000);
    } finally {
      await s.close();
    }
  });

  it('a 300 MB gzip bomb as Content-Encoding: stopped at the byte cap', async () => {
    const s = await startSiteServer({ '/bomb.xml': { type: 'application/xml', headers: { 'content-encoding': 'gzip' }, body: bomb } });
    try {
      const rss = process.memoryUsage().rss;
      const { tree } = await discover(s.url('/bomb.xml'), { maxBodyBytes: 20 * 1024 * 1024 });
      assert.ok(codes(tree).includes('fetch/too-large'), JSON.stringify(codes(tree)));
      assert.ok(node(tree, '/bomb.xml').bytes <= 21 * 1024 * 1024);
      assert.ok(process.memoryUsage().rss - rss < 150 * 1024 * 1024);
    } finally {
      await s.close();
    }
  });

  it('a server that sends one URL every 2 seconds is cut off at the deadline; the others are read', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const s = await startSiteServer({
      '/ok.xml': { body: urlset(pages('ok', 2)) },
      '/drip.xml': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.write('<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n');
        let i = 0;
        const timer = setInterval(() => {
          res.write(`<url><loc>https://www.example.com/drip/${i++}</loc></url>\n`);
          if (i === 30) {
            clearInterval(timer);
            res.end('</urlset>\n');
          }
        }, 2000);
        timers.add(timer);
        res.on('close', () => clearInterval(timer));
      },
    });
    s.route('/index.xml', { body: sitemapIndex([s.url('/drip.xml'), s.url('/ok.xml')]) });
    try {
      const started = performance.now();
      const { tree, urls } = await discover(s.url('/index.xml'), { timeoutMs: 3000 });
      const took = performance.now() - started;
      assert.ok(took >= 2900 && took < 6000, `took ${took} ms`);
      assert.deepEqual(codes(tree), ['fetch/timeout']);
      assert.ok(urls.includes('https://www.example.com/ok/1'));
      assert.equal(s.count('/drip.xml'), 1, 'a timeout is not retried');
    } finally {
      for (const t of timers) clearInterval(t);
      await s.close();
    }
  });

  it('a file:// and a private-address child in a remote index are refused without a request', async () => {
    const s = await startSiteServer({ '/ok.xml': { body: urlset(pages('ok', 1)) }, '/to-file.xml': { status: 302, headers: { location: 'file:///etc/passwd' } } });
    s.route('/index.xml', {
      body: sitemapIndex(['file:///etc/passwd', 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/sitemap.xml', `http://[::1]:${new URL(s.origin).port}/ok.xml`, s.url('/to-file.xml'), s.url('/ok.xml')]),
    });
    try {
      // Only the test server's own address is allowed: everything else private stays refused.
      const { tree, urls } = await discover(s.url('/index.xml'), { allowPrivate: false, allowAddresses: ['127.0.0.1/32'] });
      assert.deepEqual(urls, pages('ok', 1));
      const index = node(tree, '/index.xml');
      // The reader itself drops a file: loc from the index (an error there); the fetcher refuses the rest.
      assert.deepEqual(index.diagnostics.map((d) => d.code), ['loc/not-absolute']);
      assert.deepEqual(
        index.children.filter((c) => c.outcome === 'failed').map((c) => c.diagnostics[0]?.code),
        ['fetch/address-refused', 'fetch/address-refused', 'fetch/address-refused', 'fetch/scheme-refused'],
      );
      assert.deepEqual(s.requests.map((r) => r.path).sort(), ['/index.xml', '/ok.xml', '/to-file.xml']);
      // The address policy refuses a redirect's target before robots.txt is asked about it (a file: URL has none).
      const robots = await discover(s.url('/to-file.xml'), { respectRobots: true });
      assert.deepEqual(codes(robots.tree), ['fetch/scheme-refused']);
      // And without the allowance, the loopback server itself is refused.
      const strict = await discover(s.url('/index.xml'), { allowPrivate: false });
      assert.deepEqual(codes(strict.tree), ['fetch/address-refused']);
    } finally {
      await s.close();
    }
  });
});

describe('discover: other hosts, cache', () => {
  it("children on another host whose robots.txt has many Sitemap lines: that list is read once, not once per child", async () => {
    const other = await startSiteServer({});
    const home = await startSiteServer({});
    other.route('/robots.txt', { type: 'text/plain', body: Array.from({ length: 3_000 }, (_, i) => `Sitemap: ${other.url(`/listed-${i}.xml`)}\n`).join('') });
    home.route('/index.xml', { body: sitemapIndex(Array.from({ length: 100 }, (_, i) => other.url(i === 0 ? '/listed-2999.xml' : `/child-${i}.xml`))) });
    try {
      // CPU time (the servers' included), not wall time. Every child parsed every line's URL twice: 5 s.
      const started = process.cpuUsage();
      const { tree } = await discover(home.url('/index.xml'), { retries: 0 });
      const { user, system } = process.cpuUsage(started);
      assert.equal(tree.totals.documents, 101);
      assert.deepEqual(new Set(codes(tree)), new Set(['discover/cross-host-submitted', 'discover/cross-host', 'fetch/http-status']));
      assert.ok(user + system < 2_000_000, `took ${Math.round((user + system) / 1000)} ms of CPU`);
    } finally {
      await other.close();
      await home.close();
    }
  });

  it('a child on another host is followed with a warning, or refused with crossHost deny', async () => {
    const other = await startSiteServer({ '/theirs.xml': { body: urlset(pages('theirs', 1)) } });
    const home = await startSiteServer({});
    home.route('/index.xml', { body: sitemapIndex([other.url('/theirs.xml')]) });
    try {
      const followed = await discover(home.url('/index.xml'));
      assert.deepEqual(followed.urls, pages('theirs', 1));
      assert.deepEqual(codes(followed.tree), ['discover/cross-host']);
      other.route('/robots.txt', { type: 'text/plain', body: `Sitemap: ${other.url('/theirs.xml')}\n` });
      const submitted = await discover(home.url('/index.xml'));
      assert.deepEqual(codes(submitted.tree), ['discover/cross-host-submitted']);
      const before = other.count('/theirs.xml');
      const denied = await discover(home.url('/index.xml'), { crossHost: 'deny' });
      assert.deepEqual(denied.urls, []);
      assert.equal(other.count('/theirs.xml'), before);
      assert.deepEqual(codes(denied.tree), ['discover/cross-host-refused']);
      // Nor by a redirect: a child on the index's host that sends the crawler to the other host.
      home.route('/moved.xml', { status: 301, headers: { location: other.url('/theirs.xml') }, body: '' });
      home.route('/index.xml', { body: sitemapIndex([home.url('/moved.xml')]) });
      const redirected = await discover(home.url('/index.xml'), { crossHost: 'deny' });
      assert.deepEqual(redirected.urls, []);
      assert.equal(other.count('/theirs.xml'), before);
      assert.deepEqual(codes(redirected.tree), ['discover/cross-host-refused']);
      assert.equal(node(redirected.tree, '/moved.xml').outcome, 'skipped');
      // What deny refuses, warn says: the redirect to the other host, whose robots.txt lists the target.
      const warned = await discover(home.url('/index.xml'));
      assert.deepEqual([warned.urls, codes(warned.tree)], [pages('theirs', 1), ['discover/cross-host-submitted']]);
      other.route('/robots.txt', { status: 404 });
      const unlisted = await discover(home.url('/index.xml'));
      assert.deepEqual([unlisted.urls, codes(unlisted.tree)], [pages('theirs', 1), ['discover/cross-host']]);
      assert.match(node(unlisted.tree, '/moved.xml').diagnostics[0]?.message ?? '', /redirects to .*theirs\.xml, on another host than its index/);
    } finally {
      await other.close();
      await home.close();
    }
  });

  it('a scheme change on the same host is no other host: followed under crossHost deny, no cross-host warning', async () => {
    // http → https on one host is the most common redirect there is (default ports: no port to tell them apart).
    const moved = (to: string): Response => new Response(null, { status: 301, headers: { location: to } });
    const site: Record<string, () => Response> = {
      'http://example.com/index.xml': () => new Response(sitemapIndex(['http://example.com/a.xml'])),
      'http://example.com/a.xml': () => moved('https://example.com/a.xml'),
      'https://example.com/a.xml': () => new Response(urlset(['https://example.com/p'])),
      'http://example.com/up.xml': () => moved('https://example.com/up.xml'),
      'https://example.com/up.xml': () => new Response(sitemapIndex(['https://example.com/b.xml'])),
      'https://example.com/b.xml': () => new Response(urlset(['https://example.com/q'])),
    };
    const fetch = (async (url: string) => site[url]?.() ?? new Response('', { status: 404 })) as typeof globalThis.fetch;
    for (const crossHost of ['warn', 'deny'] as const) {
      const child = await discover('http://example.com/index.xml', { fetch, crossHost });
      assert.deepEqual([child.urls, codes(child.tree)], [['https://example.com/p'], []], crossHost);
      const index = await discover('http://example.com/up.xml', { fetch, crossHost });
      assert.deepEqual([index.urls, codes(index.tree)], [['https://example.com/q'], []], crossHost);
    }
  });

  it("an index redirected to another host is on that host: its children there are on the index's host", async () => {
    const site: Record<string, () => Response> = {
      'https://example.com/index.xml': () => new Response(null, { status: 301, headers: { location: 'https://www.example.com/index.xml' } }),
      'https://www.example.com/index.xml': () => new Response(sitemapIndex(['https://www.example.com/a.xml'])),
      'https://www.example.com/a.xml': () => new Response(urlset(['https://www.example.com/p'])),
    };
    const fetch = (async (url: string) => site[url]?.() ?? new Response('', { status: 404 })) as typeof globalThis.fetch;
    for (const crossHost of ['warn', 'deny'] as const) {
      const found = await discover('https://example.com/index.xml', { fetch, crossHost });
      assert.deepEqual([found.urls, codes(found.tree)], [['https://www.example.com/p'], []], crossHost);
    }
  });

  it('with a cache directory, sends If-None-Match / If-Modified-Since and reuses the copy on 304', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-cache-'));
    const body = urlset(pages('cached', 3));
    const s = await startSiteServer({
      '/s.xml': (req, res) => {
        if (req.headers['if-none-match'] === '"v1"') {
          res.writeHead(304, { etag: '"v1"' }).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/xml', etag: '"v1"', 'last-modified': 'Wed, 01 May 2024 00:00:00 GMT' }).end(body);
      },
    });
    try {
      const first = await discover(s.url('/s.xml'), { cacheDir: dir });
      assert.equal(first.urls.length, 3);
      const second = await discover(s.url('/s.xml'), { cacheDir: dir });
      assert.deepEqual(second.urls, first.urls);
      assert.equal(s.requests[1]?.headers['if-none-match'], '"v1"');
      assert.equal(s.requests[1]?.headers['if-modified-since'], 'Wed, 01 May 2024 00:00:00 GMT');
      const n = node(second.tree, '/s.xml');
      assert.equal(n.status, 304);
      assert.equal(n.fromCache, true);
    } finally {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the cache keeps what the final URL answered: two URLs redirected to one sitemap share its copy; a changed redirect is not served the old target', async () => {
    const { mkdtemp, readdir, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-cache-'));
    let target = '/b.xml';
    const redirect: Route = (_req, res) => void res.writeHead(301, { location: target }).end();
    const s = await startSiteServer({
      '/a.xml': redirect,
      '/a2.xml': redirect,
      '/b.xml': (req, res) => {
        if (req.headers['if-none-match'] === '"b"') res.writeHead(304, { etag: '"b"' }).end();
        else res.writeHead(200, { etag: '"b"', 'last-modified': 'Wed, 01 May 2024 00:00:00 GMT' }).end(urlset(pages('b', 2)));
      },
      // RFC 9110 §13.1.3: not modified since a date at or after its own Last-Modified.
      '/c.xml': (req, res) => {
        const since = Date.parse(req.headers['if-modified-since'] ?? '');
        if (since >= Date.parse('Mon, 01 Jun 2020 00:00:00 GMT')) res.writeHead(304).end();
        else res.writeHead(200, { 'last-modified': 'Mon, 01 Jun 2020 00:00:00 GMT' }).end(urlset(pages('c', 3)));
      },
    });
    try {
      assert.deepEqual((await discover(s.url('/a.xml'), { cacheDir: dir })).urls, pages('b', 2));
      const other = await discover(s.url('/a2.xml'), { cacheDir: dir });
      assert.deepEqual([other.urls, node(other.tree, '/a2.xml').fromCache], [pages('b', 2), true]);
      assert.equal((await readdir(dir)).filter((name) => name.endsWith('.body')).length, 1);
      target = '/c.xml';
      const moved = await discover(s.url('/a.xml'), { cacheDir: dir });
      assert.deepEqual([moved.urls, node(moved.tree, '/a.xml').fromCache], [pages('c', 3), false]);
      // A redirect is asked again every time, unconditionally: its answer is not kept.
      assert.deepEqual(s.requests.filter((r) => r.path.startsWith('/a')).map((r) => r.headers['if-none-match'] ?? r.headers['if-modified-since']), [undefined, undefined, undefined]);
    } finally {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a cache entry whose body is gone or cut short is fetched again, not asked for a 304', async () => {
    const { mkdtemp, readdir, rm, truncate } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-cache-'));
    const s = await startSiteServer({
      '/s.xml': (req, res) => {
        if (req.headers['if-none-match'] === '"v1"') res.writeHead(304, { etag: '"v1"' }).end();
        else res.writeHead(200, { etag: '"v1"' }).end(urlset(pages('kept', 2)));
      },
    });
    const bodyFile = async (): Promise<string> => join(dir, (await readdir(dir)).find((name) => name.endsWith('.body')) as string);
    try {
      await discover(s.url('/s.xml'), { cacheDir: dir });
      await truncate(await bodyFile(), 10);
      const cut = await discover(s.url('/s.xml'), { cacheDir: dir });
      await rm(await bodyFile());
      const gone = await discover(s.url('/s.xml'), { cacheDir: dir });
      for (const run of [cut, gone]) {
        assert.deepEqual(run.urls, pages('kept', 2));
        assert.equal(node(run.tree, '/s.xml').status, 200);
      }
      assert.deepEqual(s.requests.map((r) => r.headers['if-none-match']), [undefined, undefined, undefined]);
    } finally {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** Every document of the tree (absent probes left out), as the totals must count them. */
function documents(tree: DiscoveryTree): SitemapNode[] {
  return nodes(tree).filter((n) => n.outcome !== 'absent');
}

function assertTotalsAddUp(tree: DiscoveryTree, urls: readonly string[]): void {
  const t = tree.totals;
  const docs = documents(tree);
  assert.deepEqual(docs.filter((n) => n.outcome === 'pending'), []);
  assert.equal(t.documents, t.ok + t.failed + t.skipped, JSON.stringify(t));
  assert.equal(t.documents, docs.length, JSON.stringify(t));
  assert.equal(t.ok, docs.filter((n) => n.outcome === 'ok').length);
  assert.equal(t.failed, docs.filter((n) => n.outcome === 'failed').length);
  assert.equal(t.skipped, docs.filter((n) => n.outcome === 'skipped').length);
  assert.equal(t.cut, docs.filter((n) => n.cut !== undefined).length);
  assert.ok(t.cut <= t.failed);
  assert.equal(t.urls, urls.length);
  assert.equal(t.urlsFromCut, docs.filter((n) => n.cut !== undefined).reduce((sum, n) => sum + n.urls, 0));
}

describe('discover: totals add up (issue 22)', () => {
  it('documents = ok + failed + skipped on a site with failures and skips', async () => {
    const s = await startSiteServer({ '/ok.xml': { body: urlset(pages('ok', 2)) }, '/private/p.xml': { body: urlset(pages('p', 1)) } });
    s.route('/robots.txt', { type: 'text/plain', body: `User-agent: *\nDisallow: /private/\nSitemap: ${s.url('/index.xml')}\n` });
    // A child listed by robots.txt and the index (skipped once), one disallowed (skipped), one 404 (failed).
    s.route('/index.xml', { body: sitemapIndex([s.url('/ok.xml'), s.url('/private/p.xml'), s.url('/missing.xml'), s.url('/index.xml')]) });
    try {
      const { tree, urls } = await discover(s.url('/'), { respectRobots: true });
      assert.deepEqual(urls, pages('ok', 2));
      assertTotalsAddUp(tree, urls);
      assert.deepEqual([tree.totals.documents, tree.totals.ok, tree.totals.failed, tree.totals.skipped], [5, 2, 1, 2]);
    } finally {
      await s.close();
    }
  });

  it('a failed robots.txt is counted apart, not among the failed documents', async () => {
    const s = await startSiteServer({ '/robots.txt': { status: 500, body: 'oops' }, '/sitemap.xml': { body: urlset(pages('p', 1)) } });
    try {
      const { tree, urls } = await discover(s.url('/'), { retries: 0 });
      assertTotalsAddUp(tree, urls);
      assert.equal(tree.totals.robotsFailed, 1);
      assert.deepEqual([tree.totals.documents, tree.totals.ok, tree.totals.failed], [1, 1, 0]);
    } finally {
      await s.close();
    }
  });

  it('a failed robots.txt is counted once, whether two inputs share it or another host\'s is read for a cross-host child', async () => {
    const s = await startSiteServer({ '/robots.txt': { status: 503, body: 'down' } });
    const other = await startSiteServer({ '/robots.txt': { status: 404, body: '' } });
    other.route('/index.xml', { body: sitemapIndex([s.url('/child.xml')]) });
    s.route('/child.xml', { body: urlset(pages('c', 1)) });
    try {
      const shared = (await discover([s.url('/'), s.url('/robots.txt')], { retries: 0 })).tree.totals;
      assert.deepEqual([shared.robotsFailed, shared.errors], [1, 1]);
      // The child's host's robots.txt, read for the cross-host check, printed its error: counted too.
      const crossTree = (await discover(other.url('/index.xml'), { retries: 0 })).tree;
      const cross = crossTree.totals;
      assert.deepEqual([cross.robotsFailed, cross.errors, cross.ok], [1, 1, 2]);
      // Said where the tree shows it too: on the child, whose cross-host warning says why robots.txt lists nothing.
      assert.match(node(crossTree, '/child.xml').diagnostics[0]?.message ?? '', /does not list it \(it could not be read: robots\.txt answered 503\)$/);
    } finally {
      await Promise.all([s.close(), other.close()]);
    }
  });

  it('a robots.txt answering 503 says its retries, and a Retry-After too long to wait for, as a sitemap does', async () => {
    const s = await startSiteServer({ '/robots.txt': { status: 503, headers: { 'retry-after': '3600' } }, '/s.xml': { status: 503, headers: { 'retry-after': '3600' } } });
    const other = await startSiteServer({ '/robots.txt': { status: 503 } });
    try {
      const { tree } = await discover([s.url('/'), s.url('/s.xml'), other.url('/')], { retries: 2 });
      const notRetried = '; not retried: its Retry-After asks for 3600 s, more than the 60 s waited at most';
      assert.equal(tree.inputs[0]?.robots?.diagnostics[0]?.message, `robots.txt answered 503${notRetried}`);
      assert.equal(node(tree, '/s.xml').diagnostics[0]?.message, `HTTP 503 Service Unavailable${notRetried}`);
      assert.equal(tree.inputs[2]?.robots?.diagnostics[0]?.message, 'robots.txt answered 503 after 3 attempts');
    } finally {
      await Promise.all([s.close(), other.close()]);
    }
  });

  it('a robots.txt answering 429 failed, as a 5xx (busy, not absent): with respectRobots nothing is fetched', async () => {
    const s = await startSiteServer({ '/robots.txt': { status: 429, body: 'slow down' }, '/sitemap.xml': { body: urlset(pages('p', 1)) } });
    try {
      const { tree, urls } = await discover(s.url('/sitemap.xml'), { retries: 0, respectRobots: true });
      assert.deepEqual([codes(tree), urls, s.count('/sitemap.xml')], [['discover/robots-disallowed'], [], 0]);
      const site = (await discover(s.url('/'), { retries: 0 })).tree;
      assert.deepEqual([site.inputs[0]?.robots?.outcome, site.totals.robotsFailed], ['failed', 1]);
    } finally {
      await s.close();
    }
  });

  it('a robots.txt answering a 3xx that cannot be followed (no Location) is unavailable, not unreachable: it disallows nothing', async () => {
    // RFC 9309 §2.3.1.4: only 5xx (and network errors) are unreachable; §2.3.1.2: redirects not followed to a file are unavailable.
    const s = await startSiteServer({ '/robots.txt': { status: 301, body: '' }, '/sitemap.xml': { body: urlset(pages('p', 1)) } });
    try {
      const { tree, urls } = await discover(s.url('/sitemap.xml'), { retries: 0, respectRobots: true });
      assert.deepEqual([codes(tree), urls, tree.totals.robotsFailed], [[], pages('p', 1), 0]);
    } finally {
      await s.close();
    }
  });

  it('holds over random site shapes (fast-check)', async () => {
    type Kind = 'ok' | 'missing' | 'html' | 'disallowed' | 'again' | 'self' | 'cut' | 'repeats' | 'nested';
    const kinds: Kind[] = ['ok', 'missing', 'html', 'disallowed', 'again', 'self', 'cut', 'repeats', 'nested'];
    const raw = await startRawServer((socket, path) => {
      // /cut-N-…: N URLs, then the connection ends 10 bytes short of the Content-Length.
      const body = urlset(pages(path, Number(/^\/cut-(\d+)-/.exec(path)?.[1] ?? '1')));
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: ${Buffer.byteLength(body) + 10}\r\n\r\n${body}`);
      setTimeout(() => socket.destroy(), 5);
    });
    const s = await startSiteServer({ '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' } });
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...kinds), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 1_000_000 }), async (children, run) => {
          const locs: string[] = [];
          children.forEach(([kind, n], i) => {
            const path = `/r${run}/${kind}-${i}.xml`;
            if (kind === 'ok') s.route(path, { body: urlset(pages(`${run}-${i}`, n)) });
            if (kind === 'html') s.route(path, { type: 'text/html', body: '<!DOCTYPE html><html><body>not found</body></html>' });
            if (kind === 'repeats') s.route(path, { body: urlset([...pages(`${run}-${i}`, n), ...pages(`${run}-${i}`, n)]) });
            if (kind === 'nested') s.route(path, { body: sitemapIndex([s.url(`/r${run}/nested-leaf-${i}.xml`), s.url('/missing.xml')]) });
            s.route(`/r${run}/nested-leaf-${i}.xml`, { body: urlset(pages(`${run}-leaf-${i}`, n)) });
            if (kind === 'disallowed') locs.push(s.url(`/private/${run}-${i}.xml`));
            else if (kind === 'again') locs.push(s.url(`/r${run}/index.xml`));
            else if (kind === 'self') locs.push(locs[0] ?? s.url(`/r${run}/index.xml`));
            else if (kind === 'cut') locs.push(raw.url(`/cut-${n + 1}-r${run}-${i}.xml`));
            else locs.push(s.url(path));
          });
          s.route(`/r${run}/index.xml`, { body: sitemapIndex(locs) });
          const { tree, urls } = await discover(s.url(`/r${run}/index.xml`), { respectRobots: true, retries: 0 });
          assertTotalsAddUp(tree, urls);
        }),
        { numRuns: 40 },
      );
    } finally {
      await s.close();
      await raw.close();
    }
  });
});

/** A urlset of `count` URLs under /cut/, big enough that the reader hands URLs out before the cut. */
const LONG_BODY = urlset(pages('cut', 2000));
const CUT_AT = Buffer.byteLength(LONG_BODY) - 4000;

describe('discover: a body cut short is a failed document (issue 22)', () => {
  const cases: Record<string, { respond: (socket: Socket) => void; reason: RegExp }> = {
    'shorter than its Content-Length': {
      respond: (socket) => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: ${Buffer.byteLength(LONG_BODY)}\r\n\r\n`);
        socket.write(LONG_BODY.slice(0, CUT_AT), () => setTimeout(() => socket.destroy(), 20));
      },
      reason: /Content-Length/,
    },
    'chunked without its last chunk': {
      respond: (socket) => {
        const part = LONG_BODY.slice(0, CUT_AT);
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nTransfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`, () => setTimeout(() => socket.destroy(), 20));
      },
      reason: /last chunk/,
    },
    'closed (no Content-Length) with the XML unclosed': {
      respond: (socket) => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nConnection: close\r\n\r\n`);
        socket.write(LONG_BODY.slice(0, CUT_AT), () => setTimeout(() => socket.destroy(), 20));
      },
      reason: /closed the connection .*xml\/unclosed-element/,
    },
    'reset (no Content-Length)': {
      respond: (socket) => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nConnection: close\r\n\r\n`);
        socket.write(LONG_BODY.slice(0, CUT_AT), () => setTimeout(() => socket.resetAndDestroy(), 20));
      },
      reason: /broke instead of closing/,
    },
  };
  for (const [name, { respond, reason }] of Object.entries(cases)) {
    it(`${name}: fetch/truncated, outcome failed, its URLs counted apart`, async () => {
      const raw = await startRawServer((socket) => respond(socket));
      try {
        const { tree, urls } = await discover(raw.url('/s.xml'), { retries: 0 });
        const n = node(tree, '/s.xml');
        assert.equal(n.outcome, 'failed');
        assert.equal(n.cut, 'fetch/truncated');
        const truncated = n.diagnostics.filter((d) => d.code === 'fetch/truncated');
        assert.equal(truncated.length, 1, JSON.stringify(n.diagnostics));
        assert.match(truncated[0]?.message ?? '', reason);
        assert.ok(urls.length > 0 && urls.length < 2000, `${urls.length} URLs read before the cut`);
        assert.deepEqual(urls, pages('cut', urls.length));
        assert.deepEqual([tree.totals.failed, tree.totals.cut, tree.totals.ok, tree.totals.urlsFromCut], [1, 1, 0, urls.length]);
        assertTotalsAddUp(tree, urls);
      } finally {
        await raw.close();
      }
    });
  }

  it('cut inside its first KiB (before the format and encoding are sniffed): the URLs whole before the cut are still handed out', async () => {
    const short = urlset(pages('cut', 30));
    const at = short.indexOf('</url>', 600) + '</url>'.length;
    const whole = short.slice(0, at).split('<url>').length - 1;
    const raw = await startRawServer((socket) => {
      // Chunked: no Content-Length that would keep the body on the main thread with urlsAsText.
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nTransfer-Encoding: chunked\r\n\r\n${at.toString(16)}\r\n${short.slice(0, at)}\r\n`, () => setTimeout(() => socket.destroy(), 20));
    });
    try {
      for (const urlsAsText of [false, true]) {
        const found: string[] = [];
        let tree: DiscoveryTree | undefined;
        for await (const event of discoverSitemaps(raw.url('/s.xml'), { ...FAST, retries: 0, urlsAsText })) {
          if (event.type === 'url') found.push(event.entry.loc);
          if (event.type === 'urls') found.push(...new TextDecoder().decode(event.lines).split('\n').slice(0, -1));
          if (event.type === 'end') tree = event.tree;
        }
        assert.ok(tree !== undefined);
        const n = node(tree, '/s.xml');
        assert.deepEqual([n.outcome, n.cut, n.bytes], ['failed', 'fetch/truncated', at]);
        assert.match(n.diagnostics.find((d) => d.code === 'fetch/truncated')?.message ?? '', new RegExp(`after ${at} bytes`));
        assert.deepEqual(found, pages('cut', whole), `urlsAsText: ${urlsAsText}`);
        assert.deepEqual([tree.totals.cut, tree.totals.urlsFromCut], [1, whole]);
      }
    } finally {
      await raw.close();
    }
  });

  it('a body closed cleanly without Content-Length, and whole, is a good document (RFC 9112 §6.3)', async () => {
    const raw = await startRawServer((socket) => socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nConnection: close\r\n\r\n${LONG_BODY}`));
    try {
      const { tree, urls } = await discover(raw.url('/s.xml'), { retries: 0 });
      assert.equal(urls.length, 2000);
      assert.equal(node(tree, '/s.xml').outcome, 'ok');
      assert.deepEqual(codes(tree), []);
    } finally {
      await raw.close();
    }
  });

  it('a body stopped by the timeout: fetch/timeout, outcome failed', async () => {
    const raw = await startRawServer((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: ${Buffer.byteLength(LONG_BODY)}\r\n\r\n${LONG_BODY.slice(0, CUT_AT)}`);
      // …and the rest never comes.
    });
    try {
      const { tree, urls } = await discover(raw.url('/s.xml'), { retries: 0, timeoutMs: 400 });
      const n = node(tree, '/s.xml');
      assert.equal(n.outcome, 'failed');
      assert.equal(n.cut, 'fetch/timeout');
      assert.deepEqual(n.diagnostics.map((d) => d.code), ['fetch/timeout']);
      assert.ok(urls.length > 0);
      assert.deepEqual([tree.totals.failed, tree.totals.cut, tree.totals.urlsFromCut], [1, 1, urls.length]);
      assertTotalsAddUp(tree, urls);
    } finally {
      await raw.close();
    }
  });
});

describe('discover: an unreachable host is reported once (issue 22)', () => {
  it('a site whose port refuses connections: robots.txt fails once, no well-known path is probed', async () => {
    const port = await closedPort();
    const { tree } = await discover(`http://127.0.0.1:${port}/`, { retries: 1 });
    // robots.txt and its one retry; nothing else.
    assert.equal(tree.totals.requests, 2);
    assert.equal(tree.totals.errors, 1);
    assert.equal(tree.inputs[0]?.robots?.outcome, 'failed');
    assert.deepEqual(tree.inputs[0]?.sitemaps, []);
  });

  it('a site whose robots.txt does not answer in time (a host that drops packets, a hung server): one error, no well-known path waited for', async () => {
    const s = await startSiteServer({ '/robots.txt': () => {}, '/sitemap.xml': () => {} });
    try {
      const { tree } = await discover(s.url('/'), { timeoutMs: 300, retries: 0 });
      assert.deepEqual(s.requests.map((r) => r.path), ['/robots.txt']);
      assert.equal(tree.inputs[0]?.robots?.failure, 'fetch/timeout');
      assert.equal(tree.totals.errors, 1);
      assert.deepEqual(tree.inputs[0]?.sitemaps, []);
    } finally {
      await s.close();
    }
  });

  it('a site whose robots.txt redirects to a host that refuses connections is still probed: the other host is the unreachable one', async () => {
    const port = await closedPort();
    const s = await startSiteServer({ '/sitemap.xml': { body: urlset(pages('p', 1)) } });
    s.route('/robots.txt', { status: 301, headers: { location: `http://127.0.0.1:${port}/robots.txt` } });
    try {
      const { tree, urls } = await discover(s.url('/'), { retries: 0 });
      assert.equal(tree.inputs[0]?.robots?.outcome, 'failed');
      assert.deepEqual(urls, pages('p', 1));
    } finally {
      await s.close();
    }
  });

  it('a site whose name does not resolve: one fetch/dns on robots.txt, no probing, one lookup', async () => {
    let lookups = 0;
    const lookup = async (hostname: string): Promise<never> => {
      lookups++;
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    const { tree } = await discover('https://nowhere.example/', { allowPrivate: false, lookup });
    assert.equal(lookups, 1);
    assert.equal(tree.totals.requests, 0);
    assert.equal(tree.totals.errors, 1);
    assert.match(tree.inputs[0]?.robots?.diagnostics[0]?.message ?? '', /could not be resolved/);
    assert.deepEqual(tree.inputs[0]?.sitemaps, []);
    // Sitemaps named directly: the first gets the error, the others say where it was reported.
    const named = await discover(['https://nowhere.example/a.xml', 'https://nowhere.example/b.xml', 'https://nowhere.example/c.xml'], { allowPrivate: false, lookup });
    assert.deepEqual(codes(named.tree).sort(), ['discover/host-unreachable', 'discover/host-unreachable', 'fetch/dns']);
    assert.equal(named.tree.totals.errors, 1);
    assertTotalsAddUp(named.tree, named.urls);
  });

  it('a site the address policy refuses: robots.txt refused once, no probing', async () => {
    const s = await startSiteServer({ '/sitemap.xml': { body: urlset(pages('private', 1)) } });
    try {
      const { tree } = await discover(s.url('/'), { allowPrivate: false });
      assert.equal(tree.inputs[0]?.robots?.failure, 'fetch/address-refused');
      assert.match(tree.inputs[0]?.robots?.diagnostics[0]?.message ?? '', /127\.0\.0\.1 is a loopback address/);
      assert.deepEqual(tree.inputs[0]?.sitemaps, []);
      assert.equal(s.requests.length, 0);
    } finally {
      await s.close();
    }
  });

  it('the children of an index on a host that refuses connections: one error, the rest not requested', async () => {
    const port = await closedPort();
    const dead = Array.from({ length: 10 }, (_, i) => `http://127.0.0.1:${port}/s${i}.xml`);
    const s = await startSiteServer({ '/ok.xml': { body: urlset(pages('ok', 1)) } });
    s.route('/index.xml', { body: sitemapIndex([...dead, s.url('/ok.xml')]) });
    try {
      const { tree, urls } = await discover(s.url('/index.xml'), { retries: 0, perHostConcurrency: 1 });
      assert.deepEqual(urls, pages('ok', 1));
      assert.deepEqual(codes(tree).filter((c) => c === 'fetch/connection'), ['fetch/connection']);
      assert.equal(codes(tree).filter((c) => c === 'discover/host-unreachable').length, 9);
      // That one, and the dead host's robots.txt's (printed too, as each error counted is).
      assert.equal(tree.totals.errors, 2);
      // The index, ok.xml and the dead host's robots.txt (asked for the cross-host check); no child.
      assert.equal(tree.totals.requests, 3);
      assertTotalsAddUp(tree, urls);
    } finally {
      await s.close();
    }
  });
});

describe('discover: a URL repeated inside a sitemap (issue 22)', () => {
  it('is handed out once, with the loc/duplicate warning validate gives for the same bytes', async () => {
    const body = urlset(['https://www.example.com/a', 'https://www.example.com/b', 'https://www.example.com/a', 'https://www.example.com/a']);
    const s = await startSiteServer({ '/s.xml': { body } });
    try {
      const { tree, urls } = await discover(s.url('/s.xml'));
      assert.deepEqual(urls, ['https://www.example.com/a', 'https://www.example.com/b']);
      const found = node(tree, '/s.xml').diagnostics.filter((d) => d.code === 'loc/duplicate');
      const validated = await validateSitemap(Buffer.from(body), { file: s.url('/s.xml') });
      const expected = validated.diagnostics.filter((d) => d.code === 'loc/duplicate');
      assert.equal(found.length, 2);
      const shape = (d: { code: string; severity: string; message: string; line?: number; column?: number }): unknown => [d.code, d.severity, d.message, d.line, d.column];
      assert.deepEqual(found.map(shape), expected.map(shape));
      assert.equal(node(tree, '/s.xml').urls, 2);
      assert.equal(tree.totals.warnings, 2);
    } finally {
      await s.close();
    }
  });

  it('in a large plain sitemap (read by the bulk lane, whose fingerprints the check takes), every repeat is found, as validate finds it', async () => {
    const locs = Array.from({ length: 20_000 }, (_, i) => `https://www.example.com/p/${i}`);
    for (const i of [10, 9_999]) locs.push(locs[i] as string);
    // One repeat the lane does not read (a comment inside): its fingerprint is computed apart, and must
    // match the lane's of the first.
    const body = urlset(locs).replace('</urlset>', `<url><!-- again --><loc>${locs[19_000] as string}</loc></url>\n</urlset>`);
    const s = await startSiteServer({ '/s.xml': { body } });
    try {
      const { tree, urls } = await discover(s.url('/s.xml'));
      assert.equal(urls.length, 20_000);
      const found = node(tree, '/s.xml').diagnostics.filter((d) => d.code === 'loc/duplicate');
      const validated = await validateSitemap(Buffer.from(body), { file: s.url('/s.xml') });
      const shape = (d: { message: string; line?: number; column?: number }): unknown => [d.message, d.line, d.column];
      assert.equal(found.length, 3);
      assert.deepEqual(found.map(shape), validated.diagnostics.filter((d) => d.code === 'loc/duplicate').map(shape));
    } finally {
      await s.close();
    }
  });

  it('compares URLs as validate does (RFC 3986 §6.2: Example.com and example.com, %7e and ~ are one URL), page by page and in the lane', async () => {
    const small = urlset(['http://Example.com/a%7e', 'http://example.com/a~', 'http://example.com/b']);
    const locs = Array.from({ length: 20_000 }, (_, i) => `https://www.example.com/p/${i}`);
    locs.push('https://WWW.example.com/p/%31%30', 'https://www.example.com:443/p/./20');
    const large = urlset(locs);
    const s = await startSiteServer({ '/small.xml': { body: small }, '/large.xml': { body: large } });
    try {
      for (const urlsAsText of [false, true]) {
        const { tree } = await discover([s.url('/small.xml'), s.url('/large.xml')], { urlsAsText });
        for (const [path, body] of [['/small.xml', small], ['/large.xml', large]] as const) {
          const found = node(tree, path).diagnostics.filter((d) => d.code === 'loc/duplicate');
          const validated = (await validateSitemap(Buffer.from(body), { file: s.url(path) })).diagnostics.filter((d) => d.code === 'loc/duplicate');
          assert.equal(found.length, path === '/small.xml' ? 1 : 2, `${path} urlsAsText ${urlsAsText}`);
          assert.deepEqual(found.map((d) => [d.message, d.line]), validated.map((d) => [d.message, d.line]));
        }
        assert.equal(tree.totals.urls, 2 + 20_000);
      }
    } finally {
      await s.close();
    }
  });

  it('a sitemap named twice in two spellings of one URL (%7e and ~) is fetched once', async () => {
    const s = await startSiteServer({ '/a~.xml': { body: urlset(pages('a', 1)) } });
    try {
      const { tree, urls } = await discover([s.url('/a~.xml'), s.url('/a%7e.xml')]);
      assert.deepEqual(urls, pages('a', 1));
      assert.equal(s.count('/a~.xml'), 1);
      assert.deepEqual(codes(tree), ['discover/duplicate']);
    } finally {
      await s.close();
    }
  });

  it('a child listed twice by one index (once with a fragment) is said to be listed by this index, not by another', async () => {
    const s = await startSiteServer({ '/a.xml': { body: urlset(pages('a', 1)) } });
    s.route('/index.xml', { body: sitemapIndex([s.url('/a.xml'), s.url('/a.xml#top')]) });
    s.route('/other.xml', { body: sitemapIndex([s.url('/a.xml')]) });
    try {
      const { tree } = await discover([s.url('/index.xml'), s.url('/other.xml')], { perHostConcurrency: 1 });
      const said = nodes(tree).filter((n) => n.outcome === 'skipped').map((n) => [n.url, n.diagnostics[0]?.message]);
      assert.deepEqual(said, [
        [s.url('/a.xml#top'), 'not fetched again: already listed (by this index)'],
        [s.url('/a.xml'), 'not fetched again: already listed (by another index)'],
      ]);
    } finally {
      await s.close();
    }
  });

  it('past maxTrackedUrls distinct URLs, says so (duplicates/not-checked) as validate does, and lets repeats through', async () => {
    const s = await startSiteServer({ '/s.xml': { body: urlset(['https://www.example.com/a', 'https://www.example.com/b', 'https://www.example.com/c', 'https://www.example.com/a']) } });
    try {
      const { tree, urls } = await discover(s.url('/s.xml'), { maxTrackedUrls: 2 });
      assert.deepEqual(urls, ['https://www.example.com/a', 'https://www.example.com/b', 'https://www.example.com/c', 'https://www.example.com/a']);
      assert.deepEqual(codes(tree), ['duplicates/not-checked']);
      assert.throws(() => discoverSitemaps(s.url('/s.xml'), { maxTrackedUrls: 0 }), (e: { code?: string }) => e.code === 'ERR_SITEMAP_OPTION');
    } finally {
      await s.close();
    }
  });

  it('a child listed twice by one index is fetched once, with loc/duplicate on the index', async () => {
    const s = await startSiteServer({ '/a.xml': { body: urlset(pages('a', 1)) } });
    s.route('/index.xml', { body: sitemapIndex([s.url('/a.xml'), s.url('/a.xml')]) });
    try {
      const { tree, urls } = await discover(s.url('/index.xml'));
      assert.deepEqual(urls, pages('a', 1));
      assert.equal(s.count('/a.xml'), 1);
      assert.deepEqual(codes(tree), ['loc/duplicate']);
      assert.equal(node(tree, '/index.xml').children.length, 1);
    } finally {
      await s.close();
    }
  });
});

describe('discover: an index with many children', () => {
  it('keeps them waiting as bare nodes: little heap each while their host is busy, and all read once it answers', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const count = 2_000;
    let unblock = (): void => {};
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    const children = Array.from({ length: count }, (_, i) => `/c/${i}.xml`);
    const routes: Record<string, (req: unknown, res: import('node:http').ServerResponse) => void> = {};
    for (const path of children) routes[path] = (_req, res) => void blocked.then(() => res.writeHead(200, { 'content-type': 'application/xml' }).end(urlset([`https://example.com${path}`])));
    const s = await startSiteServer(routes);
    s.route('/index.xml', { body: sitemapIndex(children.map((path) => s.url(path))) });
    try {
      gc();
      const before = process.memoryUsage().heapUsed;
      let perChild = 0;
      let read = 0;
      for await (const event of discoverSitemaps(s.url('/index.xml'), FAST)) {
        if (event.type !== 'sitemap') continue;
        if (event.sitemap.via === 'index') read += event.sitemap.outcome === 'ok' ? 1 : 0;
        else {
          // The index is read and its children queued; a few of them are at the server, held.
          await new Promise((resolve) => setTimeout(resolve, 100));
          gc();
          perChild = (process.memoryUsage().heapUsed - before) / count;
          unblock();
        }
      }
      assert.equal(read, count);
      // Each child's node in the tree, its visited and parent entries: ~600 bytes. A task each (promise,
      // closures, its wait for a slot) took it to ~5,400.
      assert.ok(perChild < 1_200, `${Math.round(perChild)} bytes per waiting child`);
    } finally {
      await s.close();
    }
  });
});
