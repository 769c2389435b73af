// Issue 22, "Memory never grows with the number of problems": every entry point streams its
// diagnostics out and keeps a capped sample with exact counts, so an input that holds millions of
// problems runs in bounded memory. The peak RSS of the built CLI (dist/, `npm run build`) is measured
// in a child process, for read, validate in every --format, and discover. Inputs of a few MB keep the
// tests fast, with 150,000 to 1,000,000 problems each (the README has the figures of the issue's
// full-size inputs: 100 MiB of junk lines through discover, 24 MB of bad XML).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { REPORT_RSS, runCli } from '../helpers/cli.js';
import { startSiteServer, type SiteServer } from '../helpers/site-server.js';
import { tempDir } from '../helpers/tmp.js';

const BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));
/** The bound for every entry point. */
const MAX_RSS_BYTES = 200 * 1024 * 1024;

interface Measured {
  code: number | null;
  maxRss: number;
  stdoutBytes: number;
  stderrBytes: number;
  /** The last few KB of each stream (the summary lines). */
  stdoutTail: string;
  stderrTail: string;
}

/** Runs the built CLI; its output is read and dropped as it comes, as a terminal or a pipe would. */
function measure(args: string[], cwd: string): Promise<Measured> {
  assert.ok(existsSync(BIN), `${BIN} is missing: run npm run build first`);
  const child = spawn(process.execPath, [REPORT_RSS, BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  const result: Measured = { code: null, maxRss: 0, stdoutBytes: 0, stderrBytes: 0, stdoutTail: '', stderrTail: '' };
  let rss = '';
  (child.stdout as NodeJS.ReadableStream).on('data', (d: Buffer) => {
    result.stdoutBytes += d.length;
    result.stdoutTail = (result.stdoutTail + d.toString('utf8')).slice(-4096);
  });
  (child.stderr as NodeJS.ReadableStream).on('data', (d: Buffer) => {
    result.stderrBytes += d.length;
    result.stderrTail = (result.stderrTail + d.toString('utf8')).slice(-4096);
  });
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (rss += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      result.code = code;
      result.maxRss = Number(rss);
      resolve(result);
    });
  });
}

function assertBounded(m: Measured, what: string): void {
  assert.ok(m.maxRss > 0, `${what}: no RSS reported (${m.stderrTail})`);
  assert.ok(m.maxRss < MAX_RSS_BYTES, `${what}: peak RSS ${(m.maxRss / 1048576).toFixed(0)} MB, over 200 MB`);
}

/** ~`bytes` of a urlset whose every url has 4 problems (relative loc, bad lastmod, priority out of range, unknown element). */
function badXml(bytes: number): string {
  const line = '<url><loc>/relative page</loc><lastmod>2024-13-45</lastmod><priority>7</priority><bogus>x</bogus></url>\n';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${line.repeat(Math.ceil(bytes / line.length))}</urlset>\n`;
}

describe('peak RSS with a problem every few bytes (built CLI, child process)', () => {
  const dir = tempDir();
  const xml = join(dir, 'bad.xml');
  const text = join(dir, 'bad.txt');
  const urls = Math.ceil(4_000_000 / 104);
  before(() => {
    writeFileSync(xml, badXml(4_000_000)); // ~38,500 urls, ~154,000 problems
    writeFileSync(text, 'not a url\n'.repeat(400_000)); // 4 MB, 400,000 problems
  });

  it('read: text between two tags that is all problems (a run of raw "<") is not held until the next tag', async () => {
    // 12 MB of "< " lines inside <urlset>: 4,000,000 xml/raw-less-than and no tag after the root. The
    // reader kept every one of them for the attributes of the next tag (over 250 MB here).
    writeFileSync(join(dir, 'lt.xml'), `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'< \n'.repeat(4_000_000)}`);
    const m = await measure(['read', 'lt.xml', '--summary'], dir);
    assertBounded(m, 'read lt.xml');
    assert.equal(m.code, 1, m.stderrTail);
    assert.match(m.stderrTail, /lt\.xml: urlset, 0 URLs, 4,000,00\d errors/);
    // The text itself is not kept whole either (it was a chain of millions of string pieces).
    const v = await measure(['validate', 'lt.xml', '--format', 'json'], dir);
    assertBounded(v, 'validate --format json lt.xml');
    assert.equal(v.code, 1, v.stderrTail);
  });

  it('read: a text sitemap with a bad line per line, then bad XML', async () => {
    const t = await measure(['read', 'bad.txt', '--summary'], dir);
    assertBounded(t, 'read bad.txt');
    assert.equal(t.code, 1, t.stderrTail);
    assert.match(t.stderrTail, /bad\.txt: text, 0 URLs, 400,000 errors, 0 warnings/);
    assert.ok(t.stderrBytes > 400_000 * 50, 'every problem is printed');

    const x = await measure(['read', 'bad.xml', '--summary'], dir);
    assertBounded(x, 'read bad.xml');
    assert.equal(x.code, 1, x.stderrTail);
    assert.match(x.stderrTail, /bad\.xml: urlset, 0 URLs, [\d,]+ errors/);
  });

  for (const format of ['json', 'stylish', 'sarif', 'junit', 'github']) {
    it(`validate --format ${format}: bad XML`, async () => {
      const m = await measure(['validate', 'bad.xml', '--format', format], dir);
      assertBounded(m, `validate --format ${format}`);
      assert.equal(m.code, 1, m.stderrTail);
      if (format === 'stylish') assert.match(m.stdoutTail, new RegExp(`✖ ${(urls * 4).toLocaleString('en-US')} problems \\(${(urls * 4).toLocaleString('en-US')} errors, 0 warnings, 0 infos\\); schemas: 0 valid, 1 invalid\\n$`));
      if (format === 'json') assert.match(m.stdoutTail, /"diagnostics\/truncated"/);
    });
  }

  describe('discover', () => {
    let server: SiteServer;
    // 2 MiB of `x` lines once inflated (1,048,576 problems), from a gzip of about 2 KB.
    const inflated = 2 * 1024 * 1024;
    before(async () => {
      server = await startSiteServer({
        '/junk.txt.gz': { body: gzipSync(Buffer.alloc(inflated, 'x\n'), { level: 9 }), type: 'application/gzip' },
      });
      server.route('/robots.txt', { type: 'text/plain', body: `Sitemap: ${server.url('/junk.txt.gz')}\n` });
    });
    after(() => server.close());

    it('a small gzip of junk lines named by robots.txt', async () => {
      const m = await measure(['discover', server.url('/'), '--allow-private', '--retries', '0'], dir);
      assertBounded(m, 'discover');
      assert.equal(m.code, 1, m.stderrTail);
      assert.match(m.stderrTail, /1,048,576 errors/);
      // The document's JSON Lines record holds the capped list and the exact count.
      assert.ok(m.stdoutBytes < 1024 * 1024, `${m.stdoutBytes} bytes of JSON Lines`);
    });
  });
});

describe('validate stylish with 200,000 problems', () => {
  it('a realistic 50,000-URL file with 4 problems per URL gives a report and exit 1 (no stack overflow)', async () => {
    const dir = tempDir();
    let body = '';
    for (let i = 0; i < 50_000; i++) {
      body += `<url><loc>https://www.example.com/page ${i}</loc><lastmod>2024-13-01</lastmod><changefreq>sometimes</changefreq><priority>1.5</priority></url>\n`;
    }
    writeFileSync(join(dir, 'sitemap.xml'), `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}</urlset>\n`);
    const r = await runCli(['validate', 'sitemap.xml'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr.slice(0, 2000));
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /✖ 200,000 problems \(/);
    // Every problem has its row (rows start with two spaces, LINE:COL, two spaces, the severity).
    assert.equal(r.stdout.match(/^ {2} *\d+:\d+ {2}(?:error|warning|info) /gm)?.length, 200_000);
  });
});

describe('discover --format tree with a capped list', () => {
  let server: SiteServer;
  before(async () => {
    server = await startSiteServer({ '/urls.txt': { type: 'text/plain', body: 'not a url\n'.repeat(2_500) } });
  });
  after(() => server.close());

  it('counts what the list left out in "… and N more"', async () => {
    const r = await runCli(['discover', server.url('/urls.txt'), '--format', 'tree', '--allow-private', '--retries', '0'], { cwd: tempDir() });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /2,500 errors, 0 warnings/);
    assert.match(r.stdout, /… and 2,495 more\n/);
    assert.doesNotMatch(r.stdout, /diagnostics\/truncated/);
  });
});
