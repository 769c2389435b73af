// `sitemapkit discover` in-process against a test server on 127.0.0.1: the public interface of issue #5
// "Output" (formats, --out, exit codes, usage errors, the address policy, --quiet).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { closedPort, startRawServer } from '../helpers/raw-server.js';
import { pages, sitemapIndex, startSiteServer, urlset, type SiteServer } from '../helpers/site-server.js';

/** URL[:LINE[:COL]]: severity code message (the position only when known, 1-based; src/cli/problems.ts) */
const DIAGNOSTIC_LINE = /^(\S+?)(?::(\d+)(?::(\d+))?)?: (error|warning|info) ([a-z0-9-]+\/[a-z0-9-]+) (.+)$/;

interface Reported {
  file: string;
  code: string;
  severity: string;
  message: string;
}

/** The diagnostic lines of stderr (the summary line and other messages left out). */
function diagnostics(stderr: string): Reported[] {
  const found: Reported[] = [];
  for (const line of stderr.split('\n')) {
    const m = DIAGNOSTIC_LINE.exec(line);
    if (m !== null) found.push({ file: m[1] as string, code: m[5] as string, severity: m[4] as string, message: m[6] as string });
  }
  return found;
}

type Json = Record<string, unknown>;

function jsonLines(stdout: string): Json[] {
  const lines = stdout.trimEnd().split('\n');
  return lines.map((line, i) => {
    try {
      return JSON.parse(line) as Json;
    } catch {
      assert.fail(`line ${i + 1} is not JSON: ${line}`);
    }
  });
}

/** The options every run against the test server needs: its address allowed, no retry backoff. */
const LOCAL = ['--allow-private', '--retries', '0'];
const BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));

const S1_BODY = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a/0</loc><lastmod>2024-05-01</lastmod><changefreq>daily</changefreq><priority>0.8</priority></url>
<url><loc>https://www.example.com/a/1?x=1,2</loc></url>
<url><loc>https://www.example.com/a/2</loc><lastmod>2024-05-02T10:00:00+02:00</lastmod></url>
</urlset>
`;
const S1_PAGES = ['https://www.example.com/a/0', 'https://www.example.com/a/1?x=1,2', 'https://www.example.com/a/2'];
const ALL_PAGES = [...S1_PAGES, ...pages('b', 2)].sort();

describe('sitemapkit discover: robots.txt → index → 2 sitemaps', () => {
  let server: SiteServer;
  let cwd: string;
  before(async () => {
    cwd = tempDir();
    server = await startSiteServer({ '/s1.xml': { body: S1_BODY }, '/s2.xml': { body: urlset(pages('b', 2)) } });
    server.route('/robots.txt', { type: 'text/plain', body: `User-agent: *\nDisallow: /private/\n\nSitemap: ${server.url('/index.xml')}\n` });
    server.route('/index.xml', { body: sitemapIndex([server.url('/s1.xml'), server.url('/s2.xml')]) });
  });
  after(() => server.close());

  it('--format urls prints exactly the page URLs, exit 0', async () => {
    const r = await runCli(['discover', server.url('/'), '--format', 'urls', ...LOCAL], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trimEnd().split('\n').sort(), ALL_PAGES);
    assert.deepEqual(diagnostics(r.stderr), []);
    // Named by robots.txt: no probing of the well-known paths.
    assert.equal(server.count('/sitemap.xml'), 0);
  });

  it('--format jsonl: url lines with their sitemap, one sitemap line per document, totals last', async () => {
    const r = await runCli(['discover', server.url('/'), '--format', 'jsonl', ...LOCAL], { cwd });
    assert.equal(r.code, 0, r.stderr);
    const lines = jsonLines(r.stdout);

    const urls = lines.filter((l) => l.type === 'url');
    assert.deepEqual(urls.map((l) => l.loc).sort(), ALL_PAGES);
    for (const l of urls) {
      const expected = String(l.loc).includes('/a/') ? server.url('/s1.xml') : server.url('/s2.xml');
      assert.equal(l.sitemap, expected, JSON.stringify(l));
    }
    // The entry's own fields travel with it.
    assert.deepEqual(
      urls.find((l) => l.loc === 'https://www.example.com/a/0'),
      { type: 'url', sitemap: server.url('/s1.xml'), loc: 'https://www.example.com/a/0', lastmod: '2024-05-01', changefreq: 'daily', priority: 0.8 },
    );

    const sitemaps = lines.filter((l) => l.type === 'sitemap');
    assert.deepEqual(sitemaps.map((l) => l.url).sort(), [server.url('/index.xml'), server.url('/s1.xml'), server.url('/s2.xml')].sort());
    for (const l of sitemaps) {
      assert.equal(l.status, 200, JSON.stringify(l));
      assert.equal(l.format, l.url === server.url('/index.xml') ? 'sitemapindex' : 'urlset', JSON.stringify(l));
      assert.equal('children' in l, false, 'a sitemap line does not nest its children');
    }
    assert.equal(sitemaps.find((l) => l.url === server.url('/s1.xml'))?.urls, 3);
    assert.equal(sitemaps.find((l) => l.url === server.url('/s2.xml'))?.urls, 2);
    assert.equal(sitemaps.find((l) => l.url === server.url('/index.xml'))?.sitemaps, 2);

    const robots = lines.filter((l) => l.type === 'robots');
    assert.equal(robots.length, 1);
    assert.equal(robots[0]?.url, server.url('/robots.txt'));
    assert.equal(robots[0]?.status, 200);
    assert.deepEqual(robots[0]?.sitemaps, [server.url('/index.xml')]);

    const last = lines.at(-1) as Json;
    assert.equal(last.type, 'totals');
    assert.equal(lines.filter((l) => l.type === 'totals').length, 1);
    assert.equal(last.documents, 3);
    assert.equal(last.ok, 3);
    assert.equal(last.failed, 0);
    assert.equal(last.urls, 5);
    assert.equal(last.errors, 0);
    assert.deepEqual(new Set(lines.map((l) => l.type)), new Set(['robots', 'sitemap', 'url', 'totals']));
  });

  it('--format csv: the header, then one quoted row per URL with its sitemap', async () => {
    const r = await runCli(['discover', server.url('/'), '--format', 'csv', ...LOCAL], { cwd });
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    assert.equal(header, 'loc,lastmod,changefreq,priority,sitemap');
    const s1 = server.url('/s1.xml');
    const s2 = server.url('/s2.xml');
    assert.deepEqual(
      rows.sort(),
      [
        `https://www.example.com/a/0,2024-05-01,daily,0.8,${s1}`,
        `"https://www.example.com/a/1?x=1,2",,,,${s1}`,
        `https://www.example.com/a/2,2024-05-02T10:00:00+02:00,,,${s1}`,
        `https://www.example.com/b/0,,,,${s2}`,
        `https://www.example.com/b/1,,,,${s2}`,
      ].sort(),
    );
  });

  function assertTree(stdout: string): void {
    const lines = stdout.split('\n');
    const line = (needle: string): string => {
      const found = lines.find((l) => l.includes(needle));
      assert.ok(found !== undefined, `no line with ${needle} in\n${stdout}`);
      return found;
    };
    assert.match(line(server.url('/robots.txt')), /\b200\b.*1 Sitemap line\b/);
    assert.match(line(server.url('/index.xml')), /\b200\b.*sitemapindex.*\b2 sitemaps\b/);
    assert.match(line(server.url('/s1.xml')), /\b200\b.*urlset.*\b3 URLs\b.*\d+(\.\d+)? (B|KiB)\b.*\d+ ms\b/);
    assert.match(line(server.url('/s2.xml')), /\b200\b.*urlset.*\b2 URLs\b/);
    // robots.txt → index → sitemaps: the sitemaps are drawn below the index.
    assert.ok(lines.indexOf(line(server.url('/robots.txt'))) < lines.indexOf(line(server.url('/index.xml'))));
    assert.ok(lines.indexOf(line(server.url('/index.xml'))) < lines.indexOf(line(server.url('/s1.xml'))));
    assert.match(line(server.url('/s1.xml')), /^\s*[│ ]\s*[├└]─ /u);
    // Totals.
    assert.match(stdout, /^3 documents \(3 ok, 0 failed, 0 skipped\), 5 URLs, .*\b0 errors, 0 warnings$/m);
    // No JSON in the tree.
    assert.equal(/^\{/m.test(stdout), false);
  }

  it('--format tree: robots.txt, the index and both sitemaps with their counts, then totals', async () => {
    const r = await runCli(['discover', server.url('/'), '--format', 'tree', ...LOCAL], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assertTree(r.stdout);
  });

  it('the default on a terminal is the tree', async () => {
    const r = await runCli(['discover', server.url('/'), ...LOCAL], { cwd, tty: true });
    assert.equal(r.code, 0, r.stderr);
    assertTree(r.stdout);
  });

  it('the default without a terminal is jsonl', async () => {
    const r = await runCli(['discover', server.url('/'), ...LOCAL], { cwd });
    assert.equal(r.code, 0, r.stderr);
    const lines = jsonLines(r.stdout);
    assert.equal(lines.filter((l) => l.type === 'url').length, 5);
    assert.equal(lines.filter((l) => l.type === 'sitemap').length, 3);
    assert.equal(lines.at(-1)?.type, 'totals');
  });

  it('--out FILE: the output in the file, nothing on stdout, written whole at the end', async () => {
    const dir = tempDir();
    const target = join(dir, 'urls.txt');
    const seenDuringRun: boolean[] = [];
    // While a sitemap is being served, the run is not over: the target must not exist yet.
    server.route('/s2.xml', (_req, res) => {
      seenDuringRun.push(existsSync(target));
      res.writeHead(200, { 'content-type': 'application/xml' }).end(urlset(pages('b', 2)));
    });
    try {
      const r = await runCli(['discover', server.url('/'), '--format', 'urls', '--out', 'urls.txt', ...LOCAL], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '');
      assert.deepEqual(readFileSync(target, 'utf8').trimEnd().split('\n').sort(), ALL_PAGES);
      assert.deepEqual(seenDuringRun, [false]);
      assert.deepEqual(readdirSync(dir), ['urls.txt'], 'no temporary file left');
    } finally {
      server.route('/s2.xml', { body: urlset(pages('b', 2)) });
    }
  });

  it('--out FILE keeps jsonl as the default format, even on a terminal', async () => {
    const dir = tempDir();
    const r = await runCli(['discover', server.url('/'), '--out', 'found.jsonl', ...LOCAL], { cwd: dir, tty: true });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    const lines = jsonLines(readFileSync(join(dir, 'found.jsonl'), 'utf8'));
    assert.equal(lines.at(-1)?.type, 'totals');
    assert.deepEqual(readdirSync(dir), ['found.jsonl']);
  });

  it('--allow-address 127.0.0.1/32 is enough for the test server', async () => {
    const r = await runCli(['discover', server.url('/'), '--format', 'urls', '--allow-address', '127.0.0.1/32', '--retries', '0'], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trimEnd().split('\n').sort(), ALL_PAGES);
  });
});

describe('sitemapkit discover: failures (exit 1)', () => {
  let server: SiteServer;
  let cwd: string;
  before(async () => {
    cwd = tempDir();
    server = await startSiteServer({
      '/ok.xml': { body: urlset(pages('ok', 2)) },
      '/soft404.xml': { type: 'text/html', body: '<!DOCTYPE html>\n<html><head><title>Not found</title></head><body><h1>Page not found</h1></body></html>\n' },
      // A urlset without its namespace: a warning, the URLs are read.
      '/no-ns.xml': { body: '<?xml version="1.0" encoding="UTF-8"?>\n<urlset><url><loc>https://www.example.com/warn/0</loc></url></urlset>\n' },
    });
    server.route('/index.xml', { body: sitemapIndex([server.url('/ok.xml'), server.url('/missing.xml')]) });
    server.route('/mixed.xml', { body: sitemapIndex([server.url('/no-ns.xml'), server.url('/missing.xml')]) });
  });
  after(() => server.close());

  it('a listed sitemap that 404s: exit 1, URL: error fetch/http-status HTTP 404 Not Found (no made-up position); the others are read', async () => {
    const r = await runCli(['discover', server.url('/index.xml'), '--format', 'urls', ...LOCAL], { cwd });
    assert.equal(r.code, 1);
    assert.deepEqual(r.stdout.trimEnd().split('\n'), pages('ok', 2));
    assert.ok(r.stderr.split('\n').includes(`${server.url('/missing.xml')}: error fetch/http-status HTTP 404 Not Found`), r.stderr);
    assert.deepEqual(
      diagnostics(r.stderr).map((d) => [d.file, d.code, d.severity]),
      [[server.url('/missing.xml'), 'fetch/http-status', 'error']],
    );
    // The failed document in the jsonl view.
    const j = await runCli(['discover', server.url('/index.xml'), '--format', 'jsonl', ...LOCAL], { cwd });
    assert.equal(j.code, 1);
    const failed = jsonLines(j.stdout).find((l) => l.type === 'sitemap' && l.url === server.url('/missing.xml'));
    assert.equal(failed?.status, 404);
    assert.equal(failed?.outcome, 'failed');
    assert.equal((jsonLines(j.stdout).at(-1) as Json).failed, 1);
  });

  it('the tree lists the failure under its document, and stderr holds no diagnostic lines', async () => {
    const r = await runCli(['discover', server.url('/index.xml'), '--format', 'tree', ...LOCAL], { cwd });
    assert.equal(r.code, 1);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.includes(server.url('/missing.xml')));
    assert.ok(at >= 0, r.stdout);
    assert.match(lines[at] as string, /\b404\b.*FAILED/);
    assert.match(lines[at + 1] as string, /error fetch\/http-status HTTP 404 Not Found/);
    assert.match(r.stdout, /^3 documents \(2 ok, 1 failed, 0 skipped\), 2 URLs, .*\b1 error, 0 warnings$/m);
    assert.deepEqual(diagnostics(r.stderr), []);
  });

  it('the tree names the redirect hop whose request failed', async () => {
    const port = await closedPort();
    const hop = `http://127.0.0.1:${port}/s.xml`;
    server.route('/moved-away.xml', { status: 301, headers: { location: hop }, body: '' });
    const r = await runCli(['discover', server.url('/moved-away.xml'), '--format', 'tree', ...LOCAL], { cwd });
    assert.equal(r.code, 1);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.includes(server.url('/moved-away.xml')));
    assert.match(lines[at] as string, /FAILED/);
    assert.equal((lines[at + 1] as string).trim(), `→ ${hop}`, r.stdout);
    assert.match(lines[at + 2] as string, /error fetch\/connection ECONNREFUSED/);
  });

  it('an HTML soft-404 served with 200: exit 1, format/html error', async () => {
    const r = await runCli(['discover', server.url('/soft404.xml'), '--format', 'urls', ...LOCAL], { cwd });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    const reported = diagnostics(r.stderr);
    assert.ok(
      reported.some((d) => d.file === server.url('/soft404.xml') && d.code === 'format/html' && d.severity === 'error'),
      r.stderr,
    );
  });

  it('nothing found (no robots.txt, no well-known path): exit 1, "no sitemap found"', async () => {
    const empty = await startSiteServer({});
    try {
      const r = await runCli(['discover', empty.url('/'), '--format', 'urls', ...LOCAL], { cwd });
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /no sitemap found/);
      // robots.txt and every well-known path were asked for, once.
      assert.equal(empty.count('/robots.txt'), 1);
      assert.equal(empty.count('/sitemap.xml'), 1);
      assert.equal(empty.count('/sitemap-news.xml'), 1);
      // Missing probes are quiet: no diagnostic lines.
      assert.deepEqual(diagnostics(r.stderr), []);
    } finally {
      await empty.close();
    }
  });

  it('nothing found, in the tree: exit 1 too', async () => {
    const empty = await startSiteServer({});
    try {
      const r = await runCli(['discover', empty.url('/'), ...LOCAL], { cwd, tty: true });
      assert.equal(r.code, 1);
      assert.match(r.stdout, /probed 10 well-known paths: 0 found\n/);
      assert.match(r.stderr, /no sitemap found/);
    } finally {
      await empty.close();
    }
  });

  it('nothing found on a site that answers every path 200 "OK": the tree says the probes answered with no sitemap', async () => {
    const catchAll = await startSiteServer({ '/robots.txt': { type: 'text/plain', body: 'User-agent: *\n' } });
    for (const path of ['/sitemap.xml', '/sitemap.txt']) catchAll.route(path, { type: 'text/plain', body: 'OK' });
    try {
      const r = await runCli(['discover', catchAll.url('/'), ...LOCAL], { cwd, tty: true });
      assert.equal(r.code, 1);
      assert.match(r.stdout, /probed 10 well-known paths: 0 found, 2 answered with something that is no sitemap\n/);
      assert.deepEqual(diagnostics(r.stderr), []);
    } finally {
      await catchAll.close();
    }
  });

  it('the tree escapes control characters of what it quotes, as the problem lines do: an ESC of robots.txt does not reach the terminal', async () => {
    const hostile = await startSiteServer({ '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nSitemap http://\u001b[32mx/s.xml\n' } });
    try {
      const r = await runCli(['discover', hostile.url('/'), '--format', 'tree', ...LOCAL], { cwd });
      assert.ok(!r.stdout.includes('\u001b'), JSON.stringify(r.stdout));
      assert.match(r.stdout, /^ {2}2 warning discover\/robots-sitemap no ":" after Sitemap.*"Sitemap: http:\/\/\\u001b\[32mx\/s\.xml"/m);
    } finally {
      await hostile.close();
    }
  });

  it('without --allow-private a 127.0.0.1 URL is refused before any request: exit 1, fetch/address-refused', async () => {
    const before = server.requests.length;
    const r = await runCli(['discover', server.url('/ok.xml'), '--format', 'urls', '--retries', '0'], { cwd });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.deepEqual(
      diagnostics(r.stderr).map((d) => [d.file, d.code, d.severity]),
      [[server.url('/ok.xml'), 'fetch/address-refused', 'error']],
    );
    assert.match(r.stderr, /--allow-private/);
    assert.equal(server.requests.length, before, 'the server received no request');
  });

  it('without --allow-private a 127.0.0.1 site is refused too: not even robots.txt is requested', async () => {
    const before = server.requests.length;
    const r = await runCli(['discover', server.url('/'), '--format', 'urls', '--retries', '0'], { cwd });
    assert.equal(r.code, 1);
    // Said once, for robots.txt, with the reason; the well-known paths are not probed (each would be refused alike).
    const said = diagnostics(r.stderr).filter((d) => d.severity === 'error');
    assert.deepEqual(said.map((d) => d.code), ['discover/robots-unreachable'], r.stderr);
    assert.match(r.stderr, /127\.0\.0\.1 is a loopback address \(use --allow-private/);
    assert.equal(server.requests.length, before, 'the server received no request');
  });

  it('--quiet drops warnings (and the summary) from stderr, never errors', async () => {
    const loud = await runCli(['discover', server.url('/mixed.xml'), '--format', 'urls', ...LOCAL], { cwd });
    assert.equal(loud.code, 1);
    assert.deepEqual(loud.stdout, 'https://www.example.com/warn/0\n');
    const loudCodes = diagnostics(loud.stderr).map((d) => `${d.code} ${d.severity}`);
    assert.ok(loudCodes.includes('namespace/missing warning'), loud.stderr);
    assert.ok(loudCodes.includes('fetch/http-status error'), loud.stderr);

    const quiet = await runCli(['discover', server.url('/mixed.xml'), '--format', 'urls', '--quiet', ...LOCAL], { cwd });
    assert.equal(quiet.code, 1);
    assert.deepEqual(quiet.stdout, loud.stdout);
    assert.equal(quiet.stderr, `${server.url('/missing.xml')}: error fetch/http-status HTTP 404 Not Found\n`);
    const short = await runCli(['discover', server.url('/mixed.xml'), '--format', 'urls', '-q', ...LOCAL], { cwd });
    assert.equal(short.stderr, quiet.stderr);
  });

  it('a warning alone does not fail the run', async () => {
    const r = await runCli(['discover', server.url('/no-ns.xml'), '--format', 'urls', ...LOCAL], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(diagnostics(r.stderr).map((d) => d.code), ['namespace/missing']);
  });
});

describe('sitemapkit discover: options reach the discovery', () => {
  let server: SiteServer;
  let other: SiteServer;
  let cwd: string;
  before(async () => {
    cwd = tempDir();
    // Another port is another origin, so another host for the cross-host rules.
    other = await startSiteServer({ '/theirs.xml': { body: urlset(pages('theirs', 1)) } });
    server = await startSiteServer({
      '/private/p.xml': { body: urlset(pages('p', 1)) },
      '/s.xml': { body: urlset(pages('s', 2)) },
      '/sitemap.xml': { body: urlset(pages('probed', 1)) },
      '/etag.xml': (req, res) => {
        if (req.headers['if-none-match'] === '"v1"') {
          res.writeHead(304, { etag: '"v1"' }).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/xml', etag: '"v1"' }).end(urlset(pages('etag', 3)));
      },
    });
    server.route('/robots.txt', { type: 'text/plain', body: `User-agent: *\nDisallow: /private/\n\nSitemap: ${server.url('/index.xml')}\n` });
    server.route('/index.xml', { body: sitemapIndex([server.url('/private/p.xml'), server.url('/s.xml')]) });
    server.route('/cross.xml', { body: sitemapIndex([other.url('/theirs.xml'), server.url('/s.xml')]) });
  });
  after(async () => {
    await server.close();
    await other.close();
  });

  it('--user-agent is sent', async () => {
    const before = server.requests.length;
    const r = await runCli(['discover', server.url('/s.xml'), '--format', 'urls', '--user-agent', 'TestBot/1.0 (+https://example.org/bot)', ...LOCAL], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests[before]?.headers['user-agent'], 'TestBot/1.0 (+https://example.org/bot)');
  });

  it('--respect-robots: a disallowed sitemap is not fetched (a warning); without it, it is', async () => {
    const before = server.count('/private/p.xml');
    const r = await runCli(['discover', server.url('/'), '--format', 'urls', '--respect-robots', ...LOCAL], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trimEnd().split('\n').sort(), pages('s', 2));
    assert.equal(server.count('/private/p.xml'), before);
    assert.deepEqual(
      diagnostics(r.stderr).map((d) => [d.file, d.code, d.severity]),
      [[server.url('/private/p.xml'), 'discover/robots-disallowed', 'warning']],
    );
    const plain = await runCli(['discover', server.url('/'), '--format', 'urls', ...LOCAL], { cwd });
    assert.deepEqual(plain.stdout.trimEnd().split('\n').sort(), [...pages('p', 1), ...pages('s', 2)].sort());
  });

  it('--probe: the well-known paths too, although robots.txt names a sitemap', async () => {
    const before = server.count('/sitemap.xml');
    const r = await runCli(['discover', server.url('/'), '--format', 'urls', '--probe', ...LOCAL], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.count('/sitemap.xml'), before + 1);
    assert.ok(r.stdout.split('\n').includes(pages('probed', 1)[0] as string), r.stdout);
  });

  it('--cross-host: followed with a warning by default, not fetched with deny', async () => {
    const followed = await runCli(['discover', server.url('/cross.xml'), '--format', 'urls', ...LOCAL], { cwd });
    assert.equal(followed.code, 0, followed.stderr);
    assert.deepEqual(followed.stdout.trimEnd().split('\n').sort(), [...pages('s', 2), ...pages('theirs', 1)].sort());
    assert.ok(diagnostics(followed.stderr).some((d) => d.code === 'discover/cross-host' && d.severity === 'warning'), followed.stderr);

    const before = other.count('/theirs.xml');
    const denied = await runCli(['discover', server.url('/cross.xml'), '--format', 'urls', '--cross-host', 'deny', ...LOCAL], { cwd });
    assert.equal(denied.code, 0, denied.stderr);
    assert.deepEqual(denied.stdout.trimEnd().split('\n').sort(), pages('s', 2));
    assert.equal(other.count('/theirs.xml'), before);
    assert.deepEqual(
      diagnostics(denied.stderr).map((d) => [d.file, d.code, d.severity]),
      [[other.url('/theirs.xml'), 'discover/cross-host-refused', 'warning']],
    );
  });

  it("--format tree: another host's robots.txt that fails is printed on stderr, since the tree shows only the inputs' own", async () => {
    const down = await startSiteServer({ '/robots.txt': { status: 503, body: 'down' }, '/child.xml': (_req, res, self) => void res.end(urlset([self.url('/x')])) });
    const up = await startSiteServer({ '/index.xml': (_req, res) => void res.end(sitemapIndex([down.url('/child.xml')])) });
    try {
      const r = await runCli(['discover', up.url('/index.xml'), '--format', 'tree', ...LOCAL], { cwd });
      assert.equal(r.code, 1, r.stderr);
      assert.deepEqual(diagnostics(r.stderr).map((d) => [d.file, d.code]), [[down.url('/robots.txt'), 'discover/robots-unreachable']]);
      assert.match(r.stdout, /1 robots\.txt failed, .*; 1 error, 1 warning/);
    } finally {
      await Promise.all([down.close(), up.close()]);
    }
  });

  it('--max-depth 0: the children of an index are not fetched (an error, exit 1)', async () => {
    const before = server.count('/s.xml');
    const r = await runCli(['discover', server.url('/index.xml'), '--format', 'urls', '--max-depth', '0', ...LOCAL], { cwd });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(server.count('/s.xml'), before);
    assert.ok(diagnostics(r.stderr).every((d) => d.code === 'discover/depth-limit' && d.severity === 'error'), r.stderr);
    assert.equal(diagnostics(r.stderr).length, 2);
  });

  it('--cache DIR: the second run sends a conditional request and reads the copy after a 304', async () => {
    const cache = 'cache';
    const first = await runCli(['discover', server.url('/etag.xml'), '--format', 'urls', '--cache', cache, ...LOCAL], { cwd });
    assert.equal(first.code, 0, first.stderr);
    const before = server.requests.length;
    const second = await runCli(['discover', server.url('/etag.xml'), '--format', 'tree', '--cache', cache, ...LOCAL], { cwd });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(server.requests[before]?.headers['if-none-match'], '"v1"');
    assert.match(second.stdout, /etag\.xml {2}304 {2}\(cached\) {2}urlset {2}3 URLs/);
    const third = await runCli(['discover', server.url('/etag.xml'), '--format', 'urls', '--cache', cache, ...LOCAL], { cwd });
    assert.deepEqual(third.stdout, first.stdout);
    assert.ok(existsSync(join(cwd, cache)), 'the cache directory is relative to the working directory');
  });

  it('a closed standard output (`| head`) stops the crawl: the children not fetched yet are not fetched', async () => {
    const children = Array.from({ length: 40 }, (_, i) => `/slow-${i}.xml`);
    const slow = await startSiteServer();
    slow.route('/slow-index.xml', { body: sitemapIndex(children.map((path) => slow.url(path))) });
    for (const path of children) {
      slow.route(path, (_req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/xml' }).end(urlset(pages(path.slice(1, -4), 2))), 50);
      });
    }
    try {
      const child = spawn(process.execPath, [BIN, 'discover', slow.url('/slow-index.xml'), '--format', 'urls', '--concurrency', '1', ...LOCAL], { cwd });
      child.stdout.once('data', () => child.stdout.destroy());
      const [status] = (await once(child, 'close')) as [number];
      assert.equal(status, 0);
      const fetched = children.filter((path) => slow.count(path) > 0).length;
      assert.ok(fetched < children.length / 2, `${fetched} of ${children.length} children fetched after the reader went away`);
    } finally {
      await slow.close();
    }
  });

  it('--cache that cannot be made (a file): the error, exit 2, and the process ends (the unread body held it open)', async () => {
    writeFileSync(join(cwd, 'cache-file'), 'x');
    // The server runs in this process: the CLI is run without blocking it.
    const child = spawn(process.execPath, [BIN, 'discover', server.url('/etag.xml'), '--cache', 'cache-file', ...LOCAL], { cwd, timeout: 20_000 });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [status, signal] = (await once(child, 'close')) as [number | null, string | null];
    assert.equal(signal, null, 'ended on its own');
    assert.equal(status, 2);
    assert.match(stderr, /: the cache folder \S*cache-file: not a directory \(ERR_SITEMAP_INPUT\)\n$/);
  });
});

/** A full garbage collection now, without starting node with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('sitemapkit discover: --run-timeout', () => {
  let server: SiteServer;
  let cwd: string;
  let collect = false;
  // How long the CLI held the slow sitemap's connection; none when the run ended before asking.
  let held: Promise<number> | undefined;
  const heldFor = async () => (held ? await held : 0);
  before(async () => {
    cwd = tempDir();
    server = await startSiteServer({
      '/ok.xml': { body: urlset(pages('ok', 2)) },
      // Headers and the start of the body at once, the end 10 s later. The time the client holds
      // the connection is read on the server, so a slow start of the CLI under load does not count.
      '/slow.xml': (_req, res) => {
        const requested = performance.now();
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.write('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://www.example.com/slow/0</loc></url>\n');
        if (collect) collectGarbage();
        const timer = setTimeout(() => res.end('</urlset>\n'), 10_000);
        held = new Promise((resolve) =>
          res.on('close', () => {
            clearTimeout(timer);
            resolve(performance.now() - requested);
          }),
        );
      },
    });
  });
  after(() => server.close());

  it('what is not fetched by the end of the run fails with fetch/aborted; the rest is kept', async () => {
    collect = false;
    held = undefined;
    const r = await runCli(['discover', server.url('/ok.xml'), server.url('/slow.xml'), '--format', 'urls', '--run-timeout', '2', ...LOCAL], { cwd });
    assert.equal(r.code, 1);
    const ms = await heldFor();
    assert.ok(ms < 8000, `the slow sitemap was held ${Math.round(ms)} ms`);
    assert.ok(r.stdout.split('\n').includes('https://www.example.com/ok/1'), r.stdout);
    assert.deepEqual(
      diagnostics(r.stderr).map((d) => [d.file, d.code, d.severity]),
      [[server.url('/slow.xml'), 'fetch/aborted', 'error']],
      r.stderr,
    );
  });

  it('the run deadline holds when a garbage collection happens during the run', async () => {
    collect = true;
    try {
      held = undefined;
      const r = await runCli(['discover', server.url('/slow.xml'), '--format', 'urls', '--run-timeout', '2', ...LOCAL], { cwd });
      const ms = await heldFor();
      assert.ok(ms < 8000, `the slow sitemap was held ${Math.round(ms)} ms: the run deadline did not fire`);
      assert.equal(r.code, 1, r.stderr);
    } finally {
      collect = false;
    }
  });
});

describe('sitemapkit discover: usage (exit 2)', () => {
  const cwd = tempDir();

  it('exits 2 with one line and no stack trace', async () => {
    const cases = [
      ['discover'],
      ['discover', 'ftp://x'],
      ['discover', 'http://[::1'], // an http(s) URL no parser takes
      ['discover', 'sitemap.xml'], // neither a URL nor a host name (example.com is tried over https: no-scheme.test.ts)
      ['discover', 'https://example.com/', '--format', 'xml'],
      ['discover', 'https://example.com/', '--cross-host', 'maybe'],
      ['discover', 'https://example.com/', '--timeout', 'abc'],
      ['discover', 'https://example.com/', '--timeout', '0'],
      ['discover', 'https://example.com/', '--retries=-1'],
      ['discover', 'https://example.com/', '--retries', '1.5'],
      ['discover', 'https://example.com/', '--concurrency', '0'],
      ['discover', 'https://example.com/', '--max-bytes', 'lots'],
      ['discover', 'https://example.com/', '--allow-address', 'bogus'],
      ['discover', 'https://example.com/', '--nope'],
      ['discover', 'https://example.com/', '--format'],
    ];
    for (const argv of cases) {
      const r = await runCli(argv, { cwd });
      assert.equal(r.code, 2, argv.join(' '));
      assert.equal(r.stdout, '', argv.join(' '));
      assert.match(r.stderr, /^sitemapkit discover: [^\n]+\nRun "sitemapkit discover --help" for usage\.\n$/, `${argv.join(' ')}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /\n\s+at /, argv.join(' '));
    }
  });

  it('names the offending value', async () => {
    const ftp = await runCli(['discover', 'ftp://x'], { cwd });
    assert.match(ftp.stderr, /ftp:\/\/x/);
    const format = await runCli(['discover', 'https://example.com/', '--format', 'xml'], { cwd });
    assert.match(format.stderr, /--format.*tree, jsonl, urls, csv.*"xml"/);
    const cross = await runCli(['discover', 'https://example.com/', '--cross-host', 'maybe'], { cwd });
    assert.match(cross.stderr, /--cross-host.*"maybe"/);
    const timeout = await runCli(['discover', 'https://example.com/', '--timeout', 'abc'], { cwd });
    assert.match(timeout.stderr, /--timeout.*"abc"/);
  });

  it('a bad --allow-address range is a usage error, and --out leaves no file behind', async () => {
    const dir = tempDir();
    const r = await runCli(['discover', 'https://example.com/', '--allow-address', 'bogus', '--out', 'out.jsonl'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^sitemapkit discover: [^\n]*--allow-address[^\n]*"bogus"\nRun "sitemapkit discover --help" for usage\.\n$/);
    // The output file is opened asynchronously: give it the time to appear if it was opened at all.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(readdirSync(dir), [], 'no temporary or output file left');
  });

  it('--out in a directory that does not exist: exit 2, one line naming the file', async () => {
    const server = await startSiteServer({ '/ok.xml': { body: urlset(pages('ok', 1)) } });
    try {
      const dir = tempDir();
      const r = await runCli(['discover', server.url('/ok.xml'), '--out', 'nodir/urls.txt', ...LOCAL], { cwd: dir });
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^sitemapkit discover: [^\n]*nodir[^\n]*\n/, r.stderr);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      await server.close();
    }
  });

  it('--out naming a directory: exit 2 before any request, one line, no temporary file left', async () => {
    const server = await startSiteServer({ '/ok.xml': { body: urlset(pages('ok', 1)) } });
    try {
      const dir = tempDir();
      mkdirSync(join(dir, 'found'));
      const r = await runCli(['discover', server.url('/ok.xml'), '--out', 'found', ...LOCAL], { cwd: dir });
      assert.equal(r.code, 2);
      assert.equal(r.stderr, 'sitemapkit discover: cannot write found: is a directory\n');
      assert.deepEqual(server.requests, [], 'nothing fetched for an output that cannot be written');
      assert.deepEqual(readdirSync(dir), ['found']);
    } finally {
      await server.close();
    }
  });

  it('--out that cannot be written to (a full disk: /dev/full): exit 2, "cannot write FILE: no space left on device"', { skip: !existsSync('/dev/full') }, async () => {
    const server = await startSiteServer({ '/ok.xml': { body: urlset(pages('ok', 20_000)) } });
    try {
      const r = await runCli(['discover', server.url('/ok.xml'), '--out', '/dev/full', ...LOCAL], { cwd });
      assert.equal(r.stderr, 'sitemapkit discover: cannot write /dev/full: no space left on device\n');
      assert.equal(r.code, 2);
    } finally {
      await server.close();
    }
  });

  it('--help exits 0 and lists every option', async () => {
    const r = await runCli(['discover', '--help'], { cwd });
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^Usage: sitemapkit discover URL\.\.\. \[--format tree\|jsonl\|urls\|csv\] \[--out FILE\]/);
    for (const option of [
      '--format',
      '--out',
      '--probe',
      '--respect-robots',
      '--cross-host',
      '--allow-private',
      '--allow-address',
      '--user-agent',
      '--concurrency',
      '--per-host',
      '--timeout',
      '--run-timeout',
      '--retries',
      '--max-redirects',
      '--max-bytes',
      '--max-depth',
      '--max-sitemaps',
      '--cache',
      '--quiet',
      '--help',
    ]) {
      assert.ok(r.stdout.includes(option), `--help does not mention ${option}`);
    }
    assert.match(r.stdout, /Exit status: 0\b[^]*\b1\b[^]*\b2 usage error/);
    const short = await runCli(['discover', '-h'], { cwd });
    assert.equal(short.stdout, r.stdout);
    const viaHelp = await runCli(['help', 'discover'], { cwd });
    assert.equal(viaHelp.stdout, r.stdout);
  });
});

/** The numbers of the summary line: documents, ok, failed, skipped (as printed). */
function summaryCounts(text: string): number[] {
  const m = /^(\d+) documents? \((\d+) ok, (\d+) failed, (\d+) skipped(?:; (\d+) cut short)?\)/m.exec(text);
  assert.ok(m !== null, text);
  return m.slice(1, 5).map(Number);
}

describe('sitemapkit discover: outcomes tell the truth (issue 22)', () => {
  let server: SiteServer;
  let cwd: string;
  before(async () => {
    cwd = tempDir();
    server = await startSiteServer({ '/ok.xml': { body: urlset(pages('ok', 2)) }, '/private/p.xml': { body: urlset(pages('p', 1)) } });
    // Line 4 holds an empty Sitemap value (ignored): a problem with a line and no column.
    server.route('/robots.txt', { type: 'text/plain', body: `User-agent: *\nDisallow: /private/\nSitemap: ${server.url('/index.xml')}\nSitemap:\n` });
    server.route('/index.xml', { body: sitemapIndex([server.url('/ok.xml'), server.url('/private/p.xml'), server.url('/missing.xml'), server.url('/index.xml')]) });
  });
  after(() => server.close());

  it('the summary adds up: documents = ok + failed + skipped, on stderr and in the tree', async () => {
    for (const format of ['jsonl', 'tree']) {
      const r = await runCli(['discover', server.url('/'), '--respect-robots', '--format', format, ...LOCAL], { cwd });
      assert.equal(r.code, 1, r.stderr);
      const [documents, ok, failed, skipped] = summaryCounts(format === 'tree' ? r.stdout : r.stderr);
      assert.equal(documents, (ok as number) + (failed as number) + (skipped as number), format);
      // index.xml and ok.xml; missing.xml; private/p.xml (disallowed) and index.xml listed by itself.
      assert.deepEqual([documents, ok, failed, skipped], [5, 2, 1, 2], format);
    }
  });

  it('the progress line ends on the real outcome: its documents fetched (ok + failed), URLs and bytes are the summary\'s, nothing left queued', async () => {
    const site = await startSiteServer({ '/ok.xml': { body: urlset(pages('ok', 2)) }, '/private/p.xml': { body: urlset(pages('p', 1)) }, '/moved.xml': { status: 301, headers: { location: '/ok.xml' } } });
    // Read last, well after the rest: the line is redrawn for its batch (at most every 100 ms).
    site.route('/slow.xml', (_req, res) => void setTimeout(() => res.writeHead(404).end(), 800));
    // Listed twice, disallowed, failing, redirected to one read already, itself, and one failing late.
    const children = ['/ok.xml', '/ok.xml', '/private/p.xml', '/missing.xml', '/moved.xml', '/index.xml', '/slow.xml'];
    site.route('/index.xml', { body: sitemapIndex(children.map((path) => site.url(path))) });
    site.route('/robots.txt', { type: 'text/plain', body: `User-agent: *\nDisallow: /private/\nSitemap: ${site.url('/index.xml')}\nSitemap: ${site.url('/ok.xml')}\n` });
    try {
      // --probe: the well-known paths too, each a 404, absent (no document).
      const r = await runCli(['discover', site.url('/'), '--respect-robots', '--probe', ...LOCAL], { cwd, tty: true });
      assert.equal(r.code, 1, r.stderr);
      const last = r.stderr.split('\r\u001b[K').filter((text) => text !== '').at(-1) ?? '';
      const shown = /^(\d+) documents? fetched, (\d+) queued · (\d+) URLs? · ([\d.]+ \S+) · /.exec(last);
      assert.ok(shown !== null, r.stderr);
      const outcome = /^\d+ documents? \((\d+) ok, (\d+) failed, \d+ skipped\), (\d+) URLs?, ([\d.]+ \S+), /m.exec(r.stdout);
      assert.ok(outcome !== null, r.stdout);
      assert.deepEqual(shown.slice(1), [String(Number(outcome[1]) + Number(outcome[2])), '0', outcome[3], outcome[4]], last);
    } finally {
      await site.close();
    }
  });

  it('positions are 1-based, and a robots.txt line without a column is LINE alone: never :0', async () => {
    const r = await runCli(['discover', server.url('/'), '--format', 'urls', ...LOCAL], { cwd });
    assert.ok(r.stderr.split('\n').some((l) => l.startsWith(`${server.url('/robots.txt')}:4: warning discover/robots-sitemap `)), r.stderr);
    assert.ok(r.stderr.split('\n').includes(`${server.url('/missing.xml')}: error fetch/http-status HTTP 404 Not Found`), r.stderr);
    assert.doesNotMatch(r.stderr, /:0[: ]/);
    const tree = await runCli(['discover', server.url('/'), '--format', 'tree', ...LOCAL], { cwd });
    assert.match(tree.stdout, /^ {2}4 warning discover\/robots-sitemap /m);
    assert.doesNotMatch(tree.stdout, /^\s+\d+:\d+ warning discover\/robots-sitemap/m);
  });

  it('a body cut short: exit 1, fetch/truncated, its URLs output and its sitemap line marked "cut"; counted apart', async () => {
    const body = urlset(pages('cut', 2000));
    const raw = await startRawServer((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, body.length - 4000)}`, () => setTimeout(() => socket.destroy(), 20));
    });
    try {
      const r = await runCli(['discover', raw.url('/s.xml'), '--format', 'jsonl', ...LOCAL], { cwd });
      assert.equal(r.code, 1, r.stderr);
      const lines = jsonLines(r.stdout);
      const urls = lines.filter((l) => l.type === 'url');
      assert.ok(urls.length > 0 && urls.length < 2000, String(urls.length));
      const sitemap = lines.find((l) => l.type === 'sitemap');
      assert.equal(sitemap?.outcome, 'failed');
      assert.equal(sitemap?.cut, 'fetch/truncated');
      assert.equal(sitemap?.urls, urls.length);
      const totals = lines.at(-1) as Json;
      assert.deepEqual([totals.documents, totals.ok, totals.failed, totals.cut, totals.urlsFromCut], [1, 0, 1, 1, urls.length]);
      assert.deepEqual(diagnostics(r.stderr).map((d) => d.code), ['fetch/truncated']);
      const n = urls.length.toLocaleString('en-US');
      assert.match(r.stderr, new RegExp(`^1 document \\(0 ok, 1 failed, 0 skipped; 1 cut short\\), ${n} URLs \\(${n} from documents cut short\\)`, 'm'));
      const tree = await runCli(['discover', raw.url('/s.xml'), '--format', 'tree', ...LOCAL], { cwd });
      assert.equal(tree.code, 1);
      assert.match(tree.stdout, /s\.xml .*FAILED \(cut short\)/);
      assert.match(tree.stdout, /^1 document \(0 ok, 1 failed, 0 skipped; 1 cut short\), [\d,]+ URLs \([\d,]+ from documents cut short\)/m);
    } finally {
      await raw.close();
    }
  });

  it('a site on a port nothing listens on: one error, no probing of the well-known paths', async () => {
    const port = await closedPort();
    const r = await runCli(['discover', `http://127.0.0.1:${port}/`, '--allow-private', '--retries', '1', '--format', 'jsonl'], { cwd });
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(diagnostics(r.stderr).map((d) => d.code), ['discover/robots-unreachable']);
    const totals = jsonLines(r.stdout).at(-1) as Json;
    assert.deepEqual([totals.requests, totals.errors, totals.documents, totals.robotsFailed], [2, 1, 0, 1]);
  });
});
