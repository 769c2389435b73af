// `sitemapkit report https://site/` (issue 26: SOURCE may be "a site or sitemap URL, read with
// discover's fetch, policy and budgets"): a site URL stands for the sitemaps found as `discover` finds
// them, robots.txt's Sitemap lines, else the well-known paths; none found is a fatal error (exit 2).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WELL_KNOWN_SITEMAP_PATHS } from '../../src/core/discover/inputs.js';
import type { ReportModel } from '../../src/core/report/model.js';
import { runCli } from '../helpers/cli.js';
import { sitemapIndex, startSiteServer, urlset, type Handler, type SiteServer, type StaticRoute } from '../helpers/site-server.js';
import { tempDir } from '../helpers/tmp.js';

function reportModel(path: string): ReportModel {
  const model = /<script type="application\/json" id="sitemapkit-model">([^<]*)<\/script>/.exec(readFileSync(path, 'utf8'));
  assert.ok(model !== null, 'the model element is there');
  return JSON.parse(model[1] as string) as ReportModel;
}

async function withSite(routes: (server: SiteServer) => void, check: (server: SiteServer, dir: string) => Promise<void>): Promise<void> {
  const server = await startSiteServer({ '/': { body: '<!doctype html><title>home</title>', type: 'text/html' } });
  try {
    routes(server);
    await check(server, tempDir());
  } finally {
    await server.close();
  }
}

const locs = (server: SiteServer, prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => server.url(`/${prefix}/${i}`));

describe('sitemapkit report SITE', () => {
  it('reports the sitemaps robots.txt names: the index and its children, the site as the source', async () => {
    await withSite((server) => {
      server.route('/robots.txt', { body: `User-agent: *\nAllow: /\nSitemap: ${server.url('/index.xml')}\n`, type: 'text/plain' });
      server.route('/index.xml', { body: sitemapIndex([server.url('/a.xml'), server.url('/b.xml')]) });
      server.route('/a.xml', { body: urlset(locs(server, 'a', 3)) });
      server.route('/b.xml', { body: urlset(locs(server, 'b', 2)) });
    }, async (server, dir) => {
      const result = await runCli(['report', `${server.origin}/`, '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Wrote r\.html: 3 files, 5 URLs, 0 errors/);
      const model = reportModel(join(dir, 'r.html'));
      assert.equal(model.source, `${server.origin}/`);
      assert.deepEqual(model.files.map((f) => [f.name, f.kind, f.entries, f.http?.status]), [
        [server.url('/index.xml'), 'sitemapindex', 2, 200], [server.url('/a.xml'), 'urlset', 3, 200], [server.url('/b.xml'), 'urlset', 2, 200],
      ]);
      assert.equal(model.summary.urls, 5);
      assert.equal(server.count('/'), 0, 'the home page is not read as a sitemap');
      assert.equal(server.count('/sitemap.xml'), 0, 'robots.txt named a sitemap: nothing probed');
      assert.equal(server.count('/index.xml'), 1, 'the sitemap robots.txt names is fetched once, by the report');
      writeFileSync(join(dir, 'old.xml'), urlset(locs(server, 'a', 3)));
      const compared = await runCli(['report', `${server.origin}/`, '--compare', 'old.xml', '--out', 'c.html', '--allow-private'], { cwd: dir });
      assert.equal(compared.code, 0, compared.stderr);
      const changes = reportModel(join(dir, 'c.html')).compare;
      assert.deepEqual([changes?.added, changes?.removed], [2, 0], 'one sitemap (an index) found: compared with old.xml');
    });
  });

  it('a sitemap robots.txt names twice, spelt two ways (escapes in two cases), is read once', async () => {
    await withSite((server) => {
      server.route('/robots.txt', { body: `Sitemap: ${server.url('/s%2dmap.xml')}\nSitemap: ${server.url('/s%2Dmap.xml')}\n`, type: 'text/plain' });
      for (const path of ['/s%2dmap.xml', '/s%2Dmap.xml']) server.route(path, { body: urlset(locs(server, 'a', 2)) });
    }, async (server, dir) => {
      const result = await runCli(['report', `${server.origin}/`, '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      const model = reportModel(join(dir, 'r.html'));
      assert.deepEqual(model.files.map((f) => [f.name, f.entries]), [[server.url('/s%2dmap.xml'), 2]]);
      assert.deepEqual([model.summary.urls, model.duplicates.count], [2, 0]);
    });
  });

  it('a sitemap robots.txt names that cannot be fetched is a problem of the report, as discover has it, not the end of the run', async () => {
    await withSite((server) => {
      server.route('/robots.txt', { body: `Sitemap: ${server.url('/a.xml')}\nSitemap: ${server.url('/gone.xml')}\n`, type: 'text/plain' });
      server.route('/a.xml', { body: urlset(locs(server, 'a', 2)) });
    }, async (server, dir) => {
      const result = await runCli(['report', `${server.origin}/`, '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      const model = reportModel(join(dir, 'r.html'));
      assert.deepEqual(model.files.map((f) => [f.name, f.kind, f.entries, f.errors]), [[server.url('/a.xml'), 'urlset', 2, 0], [server.url('/gone.xml'), 'unknown', 0, 1]]);
      assert.deepEqual(model.problems.map((p) => [p.code, p.count]), [['input/unreadable', 1]]);
      assert.match(model.problems[0]?.examples[0]?.message ?? '', /HTTP 404/);
    });
  });

  it('a probed path cut short once it showed a sitemap is that sitemap, unreadable; one that fails before is left out', async () => {
    const partial = `${urlset(Array.from({ length: 2_000 }, (_, i) => `http://127.0.0.1/c/${i}`)).replace('</urlset>', '')}<url><loc>`;
    await withSite((server) => {
      server.route('/sitemap.xml', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(partial) + 1_000 });
        res.write(partial, () => setTimeout(() => res.destroy(), 50));
      });
      server.route('/sitemap_index.xml', (_req, res) => {
        res.destroy();
      });
    }, async (server, dir) => {
      const result = await runCli(['report', `${server.origin}/`, '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      const model = reportModel(join(dir, 'r.html'));
      assert.deepEqual(model.files.map((f) => [f.name, f.kind, f.errors]), [[server.url('/sitemap.xml'), 'unknown', 1]]);
      assert.ok((model.files[0]?.entries ?? 0) > 0, 'the URLs read before the cut');
      assert.deepEqual(model.problems.map((p) => [p.code, p.count]), [['input/unreadable', 1]]);
    });
  });

  it('--compare with a site that publishes several sitemaps: exit 2, one of them is asked for', async () => {
    await withSite((server) => {
      server.route('/robots.txt', { body: `Sitemap: ${server.url('/a.xml')}\nSitemap: ${server.url('/b.xml')}\n`, type: 'text/plain' });
      server.route('/a.xml', { body: urlset(locs(server, 'a', 1)) });
      server.route('/b.xml', { body: urlset(locs(server, 'b', 1)) });
    }, async (server, dir) => {
      const result = await runCli(['report', `${server.origin}/`, '--compare', `${server.origin}/a.xml`, '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /has 2 sitemaps: give one of them/);
      assert.equal(existsSync(join(dir, 'r.html')), false);
    });
  });

  it('without robots.txt, reports the well-known path that holds a sitemap', async () => {
    await withSite((server) => {
      server.route('/sitemap.xml', { body: urlset(locs(server, 'p', 4)) });
      server.route('/sitemap_index.xml', { body: '<!doctype html><title>not found</title>', type: 'text/html' });
    }, async (server, dir) => {
      const result = await runCli(['report', `${server.origin}/`, '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      const model = reportModel(join(dir, 'r.html'));
      assert.equal(model.source, `${server.origin}/`);
      assert.deepEqual(model.files.map((f) => [f.name, f.entries]), [[server.url('/sitemap.xml'), 4]], 'a soft-404 page at a probed path is no sitemap');
      assert.equal(server.count('/sitemap.xml'), 1, 'the probed sitemap is fetched once');
    });
  });

  it('probed paths that miss or send a page leave no trace; --compare takes the one that holds a sitemap, refuses two', async () => {
    await withSite((server) => {
      server.route('/sitemap.xml', { status: 410, body: 'gone' });
      server.route('/sitemap_index.xml', { body: '<!doctype html><title>not found</title><p>'.padEnd(300_000, 'x'), type: 'text/html' });
      server.route('/sitemap.txt', { body: `${locs(server, 't', 2).join('\n')}\n`, type: 'text/plain' });
    }, async (server, dir) => {
      writeFileSync(join(dir, 'old.txt'), `${server.url('/t/0')}\n`);
      const result = await runCli(['report', `${server.origin}/`, '--compare', 'old.txt', '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      const model = reportModel(join(dir, 'r.html'));
      assert.deepEqual(model.files.map((f) => [f.name, f.kind, f.entries]), [[server.url('/sitemap.txt'), 'text', 2]]);
      assert.deepEqual(model.problems, [], 'nothing of the pages that hold no sitemap');
      assert.deepEqual([model.compare?.added, model.compare?.removed], [1, 0]);
      server.route('/sitemap.xml', { body: urlset(locs(server, 'p', 1)) });
      const two = await runCli(['report', `${server.origin}/`, '--compare', 'old.txt', '--out', 'r2.html', '--allow-private'], { cwd: dir });
      assert.equal(two.code, 2, two.stderr);
      assert.match(two.stderr, /^sitemapkit report: a comparison takes one source, and \S+ has 2 sitemaps: give one of them\n$/);
      assert.equal(existsSync(join(dir, 'r2.html')), false);
    });
  });

  it('a site answering every path 200 "OK" or JSON: every probe is a quiet miss, as for discover; a probe with some URL lines is reported', async () => {
    for (const [type, body] of [['text/plain', 'OK'], ['application/json', '{"status":"ok",\n"path":"/sitemap.xml"}']] as const) {
      await withSite((server) => {
        for (const path of WELL_KNOWN_SITEMAP_PATHS) server.route(`/${path}`, { type, body });
      }, async (server, dir) => {
        const result = await runCli(['report', `${server.origin}/`, '--out', 'r.html', '--allow-private'], { cwd: dir });
        assert.equal(result.code, 2, `${body}: ${result.stdout}`);
        assert.match(result.stderr, /no sitemap found for .*none of \d+ well-known paths holds one/);
        assert.equal(existsSync(join(dir, 'r.html')), false);
      });
    }
    // Some URL lines after relative paths: a broken text sitemap, its problems from before the first URL line too.
    await withSite((server) => server.route('/sitemap.txt', { type: 'text/plain', body: `/a\n${server.url('/b')}\n` }), async (server, dir) => {
      const result = await runCli(['report', `${server.origin}/`, '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      const model = reportModel(join(dir, 'r.html'));
      assert.deepEqual(model.files.map((f) => [f.name, f.kind, f.entries, f.errors]), [[server.url('/sitemap.txt'), 'text', 1, 1]]);
      assert.deepEqual(model.problems.map((p) => [p.code, p.count]), [['text/not-a-url', 1]]);
    });
  });

  it('probes the well-known paths at the same time, as discover does; the report keeps their order, each fetched once', async () => {
    // The first probe answers only once another one is in flight (or after 2 s): probed one after
    // another, none is, and the server never sees two at once. Not a timing bound: a count of overlaps.
    let inFlight = 0;
    let most = 0;
    let company: (() => void) | undefined;
    let first = true;
    const probed = (route: StaticRoute): Handler => async (_req, res) => {
      most = Math.max(most, ++inFlight);
      company?.();
      if (first) {
        first = false;
        await new Promise<void>((resolve) => {
          company = resolve;
          setTimeout(resolve, 2_000);
        });
      }
      const body = route.body ?? '';
      res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'application/xml', 'content-length': Buffer.byteLength(body) }).end(body);
      inFlight--;
    };
    const softPage: StaticRoute = { body: '<!doctype html><title>not found</title>', type: 'text/html' };
    const missing: StaticRoute = { status: 404, body: 'not found', type: 'text/plain' };
    await withSite((server) => {
      WELL_KNOWN_SITEMAP_PATHS.forEach((path, i) => server.route(`/${path}`, probed(i % 2 === 0 ? softPage : missing)));
      server.route('/sitemap.xml', probed({ body: sitemapIndex([server.url('/a.xml'), server.url('/b.xml')]) }));
      server.route('/sitemap.txt', probed({ body: `${locs(server, 't', 2).join('\n')}\n`, type: 'text/plain' }));
      server.route('/a.xml', { body: urlset(locs(server, 'a', 3)) });
      server.route('/b.xml', { body: urlset(locs(server, 'b', 1)) });
    }, async (server, dir) => {
      const result = await runCli(['report', `${server.origin}/`, '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      assert.ok(most > 1, `the probes overlapped at the server (most at once: ${most})`);
      const model = reportModel(join(dir, 'r.html'));
      assert.deepEqual(model.files.map((f) => [f.name, f.kind, f.entries]), [
        [server.url('/sitemap.xml'), 'sitemapindex', 2], [server.url('/a.xml'), 'urlset', 3], [server.url('/b.xml'), 'urlset', 1], [server.url('/sitemap.txt'), 'text', 2],
      ], 'in the order of the well-known paths, the index followed by its children; the soft-404 pages left out');
      assert.deepEqual(model.problems, []);
      for (const path of WELL_KNOWN_SITEMAP_PATHS) assert.equal(server.count(`/${path}`), 1, `/${path} fetched once`);
    });
  });

  it('a sitemap reached again by a redirect (WordPress: /sitemap.xml to /sitemap_index.xml) is read once, as discover reads it', async () => {
    await withSite((server) => {
      server.route('/sitemap.xml', { status: 301, headers: { location: '/sitemap_index.xml' } });
      server.route('/sitemap_index.xml', { body: sitemapIndex([server.url('/post-sitemap.xml')]) });
      server.route('/post-sitemap.xml', { body: urlset(locs(server, 'p', 2)) });
    }, async (server, dir) => {
      const expected = [[server.url('/sitemap_index.xml'), 'sitemapindex', 1], [server.url('/post-sitemap.xml'), 'urlset', 2]];
      const probed = await runCli(['report', `${server.origin}/`, '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(probed.code, 0, probed.stderr);
      const model = reportModel(join(dir, 'r.html'));
      assert.deepEqual(model.files.map((f) => [f.name, f.kind, f.entries]), expected);
      assert.deepEqual([model.summary.urls, model.duplicates.count], [2, 0]);
      server.route('/robots.txt', { body: `Sitemap: ${server.url('/sitemap.xml')}\nSitemap: ${server.url('/sitemap_index.xml')}\n`, type: 'text/plain' });
      const named = await runCli(['report', `${server.origin}/`, '--out', 'n.html', '--allow-private'], { cwd: dir });
      assert.equal(named.code, 0, named.stderr);
      assert.deepEqual(reportModel(join(dir, 'n.html')).files.map((f) => [f.name, f.kind, f.entries]), expected);
    });
  });

  it('a site with no robots.txt and no sitemap at a well-known path: exit 2, what was tried, no report', async () => {
    await withSite(() => {}, async (server, dir) => {
      const result = await runCli(['report', `${server.origin}/`, '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 2, result.stderr);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0] as string, new RegExp(`^sitemapkit report: no sitemap found for ${server.origin}/: ${server.origin}/robots\\.txt answered 404, and none of \\d+ well-known paths holds one \\(/sitemap\\.xml, /sitemap_index\\.xml, `));
      assert.equal(existsSync(join(dir, 'r.html')), false);
    });
  });

  it('the address policy holds: a private site without --allow-private is refused, and says so', async () => {
    await withSite((server) => server.route('/sitemap.xml', { body: urlset(locs(server, 'p', 1)) }), async (server, dir) => {
      const result = await runCli(['report', `${server.origin}/`, '--out', 'r.html'], { cwd: dir });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /no sitemap found for .*robots\.txt failed \(/);
      assert.equal(server.requests.length, 0, 'nothing requested');
      assert.equal(existsSync(join(dir, 'r.html')), false);
    });
  });
});
