// An address without a scheme (issue 23: "`discover example.com` (no scheme) tries https and says
// so"), treated alike by discover, validate and read: tried over https with one line on standard
// error; when https does not answer, a hint to give the http:// address, and never a silent second
// try over plain http. For validate and read a file comes first: only an argument that names no
// file and starts with a host name is an address.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assumedHttpsUrl } from '../../src/cli/fetch-input.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { startSiteServer, urlset, type SiteServer } from '../helpers/site-server.js';

describe('assumedHttpsUrl', () => {
  it('takes a host name, localhost or an IP address, with a port and a path, for an https URL', () => {
    assert.equal(assumedHttpsUrl('example.com'), 'https://example.com/');
    assert.equal(assumedHttpsUrl('www.example.com/sitemap.xml'), 'https://www.example.com/sitemap.xml');
    assert.equal(assumedHttpsUrl('Example.COM/a?b=1'), 'https://example.com/a?b=1');
    assert.equal(assumedHttpsUrl('localhost:8080/sitemap.xml'), 'https://localhost:8080/sitemap.xml');
    assert.equal(assumedHttpsUrl('127.0.0.1:9/s.xml'), 'https://127.0.0.1:9/s.xml');
    assert.equal(assumedHttpsUrl('[::1]:8443/s.xml'), 'https://[::1]:8443/s.xml');
    assert.equal(assumedHttpsUrl('bücher.de'), 'https://xn--bcher-kva.de/');
  });

  it('leaves alone what has a scheme, and what names a file rather than a host', () => {
    for (const text of ['https://example.com/', 'ftp://example.com/x', 'sitemap.xml', 'sitemap.xml.gz', 'urls.txt', 'public/sitemap.xml', './example.com', '../a.xml', 'feed.rss', '-', '', 'a b.com']) {
      assert.equal(assumedHttpsUrl(text), undefined, JSON.stringify(text));
    }
  });
});

describe('an address without a scheme', () => {
  let server: SiteServer;
  /** The test server's host:port: it speaks plain http only, so https to it fails its handshake. */
  let host: string;
  const cwd = tempDir('sitemapkit-no-scheme-');
  before(async () => {
    server = await startSiteServer({ '/sitemap.xml': { body: urlset(['https://www.example.com/']) } });
    host = server.origin.slice('http://'.length);
  });
  after(() => server.close());

  const commands = {
    discover: (address: string) => runCli(['discover', address, '--allow-private', '--retries', '0'], { cwd }),
    validate: (address: string) => runCli(['validate', address, '--allow-private'], { cwd }),
    read: (address: string) => runCli(['read', address, '--allow-private'], { cwd }),
  };

  it('is tried over https, said in one line, and when https does not answer the hint names http://, in every command', async () => {
    for (const [name, command] of Object.entries(commands)) {
      const from = server.requests.length;
      const r = await command(`${host}/sitemap.xml`);
      assert.notEqual(r.code, 0, name);
      const lines = r.stderr.split('\n');
      const notice = lines.filter((l) => l.startsWith(`sitemapkit ${name}: no scheme given: trying https://${host}/sitemap.xml`));
      assert.equal(notice.length, 1, `${name}: ${r.stderr}`);
      const hints = lines.filter((l) => l.includes(`use http://${host}/sitemap.xml if the site has no https`));
      assert.equal(hints.length, 1, `${name}: ${r.stderr}`);
      assert.ok(lines.indexOf(notice[0] as string) < lines.indexOf(hints[0] as string), name);
      // No fallback: nothing was asked of the server over plain http.
      assert.equal(server.requests.length, from, name);
    }
  });

  it('diff and report: the hint too, for a source of theirs given without a scheme', async () => {
    writeFileSync(join(cwd, 'old.xml'), urlset(['https://www.example.com/']));
    for (const argv of [['diff', 'old.xml', `${host}/sitemap.xml`], ['report', `${host}/sitemap.xml`, '--compare', 'old.xml', '--out', 'r.html']]) {
      const r = await runCli([...argv, '--allow-private'], { cwd });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`no scheme given: trying https://${host}/sitemap\\.xml.*\n(.*\n)*.*use http://${host}/sitemap\\.xml if the site has no https`), r.stderr);
    }
  });

  it('discover takes a bare host for its site', async () => {
    const r = await commands.discover(host);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^sitemapkit discover: no scheme given: trying https://${host.replace(/\./g, '\\.')}/$`, 'm'));
    assert.match(r.stderr, new RegExp(`use http://${host.replace(/\./g, '\\.')}/ if the site has no https`));
  });

  it('no hint when http would fail alike (an address the policy refuses)', async () => {
    for (const name of ['discover', 'validate', 'read'] as const) {
      const r = await runCli([name, '10.0.0.1/sitemap.xml', ...(name === 'discover' ? ['--retries', '0'] : [])], { cwd });
      assert.notEqual(r.code, 0, name);
      assert.match(r.stderr, /no scheme given: trying https:\/\/10\.0\.0\.1\/sitemap\.xml/, name);
      assert.match(r.stderr, /fetch\/address-refused|private address/, name);
      assert.doesNotMatch(r.stderr, /use http:\/\//, name);
    }
  });

  it('validate and read: a file of that name is read, not fetched', async () => {
    const dir = tempDir('sitemapkit-no-scheme-file-');
    mkdirSync(join(dir, 'example.com'));
    writeFileSync(join(dir, 'example.com', 'sitemap.xml'), urlset(['https://example.com/a']));
    const v = await runCli(['validate', 'example.com/sitemap.xml', '--location', 'https://example.com/sitemap.xml'], { cwd: dir });
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.doesNotMatch(v.stderr, /no scheme/);
    const r = await runCli(['read', 'example.com/sitemap.xml', '--format', 'urls'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'https://example.com/a\n');
    assert.equal(r.stderr, '');
  });

  it('validate and read: a missing file that names no host stays a missing file', async () => {
    for (const name of ['validate', 'read']) {
      const r = await runCli([name, 'sitemap.xml'], { cwd });
      assert.equal(r.code, 2, name);
      assert.doesNotMatch(r.stderr, /no scheme|https:/, name);
      assert.match(r.stderr, /sitemap\.xml/, name);
    }
  });

  it('discover refuses what is neither a URL nor a host name, as a usage error', async () => {
    const r = await runCli(['discover', 'sitemap.xml'], { cwd });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not an http\(s\) URL nor a host name: "sitemap\.xml"/);
  });
});
