// `sitemapkit read URL` (issue 23): a URL is read with the same fetch, policy and budgets as
// `validate URL` (src/node/fetch-sitemap.ts, shared): loopback needs --allow-private, gzip is
// recognised by its magic bytes, redirects pass the address policy, and every fetch failure is the
// same line with the same code, and the same exit status, in both commands.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { gzipSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runRead } from '../../src/cli/commands/read.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { startSiteServer, urlset, type SiteServer } from '../helpers/site-server.js';

const LOCS = ['https://www.example.com/', 'https://www.example.com/a', 'https://www.example.com/b'];
const BODY = urlset(LOCS);
const MANY = Array.from({ length: 400 }, (_, i) => `https://www.example.com/page/${i}`);
const MANY_BODY = urlset(MANY);
const LARGE = Array.from({ length: 30_000 }, (_, i) => `https://www.example.com/large/${i}`);

describe('sitemapkit read URL', () => {
  let server: SiteServer;
  const cwd = tempDir('sitemapkit-read-url-');
  before(async () => {
    server = await startSiteServer({
      '/sitemap.xml': { body: BODY },
      // Gzip served as is, under a name and a type that do not say so: the magic bytes do.
      '/feed': { body: gzipSync(BODY), type: 'application/octet-stream' },
      '/moved': { status: 301, headers: { location: '/sitemap.xml' } },
      // A hop to the cloud metadata address: refused by the policy before any request.
      '/to-metadata': { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
      '/gone.xml': { status: 404, body: 'not here', type: 'text/plain' },
      // Announces 400 entries, sends 200, then the connection breaks.
      '/cut.xml': (_req, res) => {
        const head = MANY_BODY.slice(0, MANY_BODY.indexOf('</url>', MANY_BODY.indexOf('/page/199<')) + '</url>'.length);
        res.writeHead(200, { 'content-type': 'application/xml', 'content-length': String(MANY_BODY.length) });
        res.write(head);
        setTimeout(() => res.destroy(), 50);
      },
      // Sends the start, then nothing more.
      '/slow.xml': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.write(BODY.slice(0, 60));
      },
      '/big.xml': { body: MANY_BODY },
      '/large.xml': { body: urlset(LARGE) },
      // Always busy; Retry-After: 0 so that the retries do not wait.
      '/busy.xml': { status: 503, body: 'busy', type: 'text/plain', headers: { 'retry-after': '0' } },
      '/later.xml': { status: 429, body: '', headers: { 'retry-after': '3600' } },
      '/hop1': { status: 302, headers: { location: '/hop2' } },
      '/hop2': { status: 302, headers: { location: '/sitemap.xml' } },
    });
  });
  after(() => server.close());

  const read = (path: string, extra: string[] = []) => runCli(['read', server.url(path), '--format', 'urls', '--allow-private', ...extra], { cwd });
  const validate = (path: string, extra: string[] = []) => runCli(['validate', server.url(path), '--allow-private', ...extra], { cwd });

  it('--retries and --max-redirects are the network options discover has, in read and validate alike', async () => {
    for (const [name, run] of [['read', read], ['validate', validate]] as const) {
      let before = server.count('/busy.xml');
      const once = await run('/busy.xml', ['--retries', '0']);
      assert.equal(once.code, 2, `${name}: ${once.stderr}`);
      assert.equal(server.count('/busy.xml') - before, 1, `${name} --retries 0: one request`);
      before = server.count('/busy.xml');
      const thrice = await run('/busy.xml', ['--retries', '2']);
      assert.equal(thrice.code, 2, `${name}: ${thrice.stderr}`);
      assert.equal(server.count('/busy.xml') - before, 3, `${name} --retries 2: three requests`);
      // Two hops to the sitemap: one redirect allowed is too few, two are enough.
      const short = await run('/hop1', ['--max-redirects', '1']);
      assert.equal(short.code, 2, `${name}: ${short.stderr}`);
      assert.match(short.stderr, /fetch\/too-many-redirects/, name);
      before = server.count('/sitemap.xml');
      const enough = await run('/hop1', ['--max-redirects', '2']);
      // Fetched (validate then finds the locs outside the fetched URL's scope: exit 1, not 2).
      assert.notEqual(enough.code, 2, `${name}: ${enough.stderr}`);
      assert.doesNotMatch(enough.stderr, /fetch\//, name);
      assert.equal(server.count('/sitemap.xml') - before, 1, name);
      const bad = await run('/busy.xml', ['--retries', '100']);
      assert.equal(bad.code, 2, name);
      assert.match(bad.stderr, /--retries needs a whole number from 0 to 99, got "100"/, bad.stderr);
    }
  });

  it('reads a URL as it reads a file: the entries, exit 0', async () => {
    const r = await read('/sitemap.xml');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${LOCS.join('\n')}\n`);
    assert.equal(r.stderr, '');
  });

  it('recognises gzip by its magic bytes, whatever the name and the Content-Type', async () => {
    const r = await read('/feed', ['--summary']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${LOCS.join('\n')}\n`);
    assert.match(r.stderr, /decompressed/);
  });

  it('follows a redirect', async () => {
    const r = await runCli(['read', server.url('/moved'), '--allow-private'], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, 3);
  });

  it('refuses a loopback address without --allow-private, before any request', async () => {
    const before = server.requests.length;
    const r = await runCli(['read', server.url('/sitemap.xml')], { cwd });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /fetch\/address-refused/);
    assert.match(r.stderr, /--allow-private/);
    assert.equal(server.requests.length, before);
  });

  it('--allow-address allows a range, and a redirect out of it is refused at its hop', async () => {
    const ok = await runCli(['read', server.url('/sitemap.xml'), '--allow-address', '127.0.0.1/32'], { cwd });
    assert.equal(ok.code, 0, ok.stderr);
    const hop = await runCli(['read', server.url('/to-metadata'), '--allow-address', '127.0.0.1/32'], { cwd });
    assert.equal(hop.code, 2);
    assert.match(hop.stderr, /169\.254\.169\.254.*fetch\/address-refused/);
  });

  it('a body cut short: the entries read before the cut, then fetch/truncated and exit 2', async () => {
    const r = await read('/cut.xml');
    assert.equal(r.code, 2);
    assert.equal(r.stdout, `${MANY.slice(0, 200).join('\n')}\n`);
    assert.match(r.stderr, /^sitemapkit read: cannot fetch http:\/\/127\.0\.0\.1:\d+\/cut\.xml: the body was cut short .*\(fetch\/truncated\)$/m);
  });

  it('--timeout covers the whole body: fetch/timeout and exit 2', async () => {
    const started = performance.now();
    const r = await read('/slow.xml', ['--timeout', '0.5']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\(fetch\/timeout\)/);
    assert.ok(performance.now() - started < 5_000);
  });

  it('time spent waiting for a slow reader of the output is not charged to --timeout', async () => {
    // Every write is taken 30 ms later: some 40 writes wait over a second in all.
    let written = '';
    const stdout = Object.assign(new EventEmitter(), {
      write(text: string): boolean {
        written += text;
        setTimeout(() => stdout.emit('drain'), 30);
        return false;
      },
    });
    let stderr = '';
    const started = performance.now();
    const code = await runRead([server.url('/large.xml'), '--format', 'urls', '--allow-private', '--timeout', '0.4'], { stdout, stderr: { write: (t: string) => (stderr += t) }, cwd, env: {} });
    assert.equal(code, 0, stderr);
    assert.ok(performance.now() - started > 400, 'the output was slower than the deadline');
    assert.equal(written, `${LARGE.join('\n')}\n`);
  });

  it('--max-bytes stops a URL where it stops the same bytes in a file: budget/decompressed-size, what was read printed, exit 1', async () => {
    writeFileSync(join(cwd, 'big.xml'), MANY_BODY);
    const url = await read('/big.xml', ['--max-bytes', '1K']);
    const file = await runCli(['read', 'big.xml', '--format', 'urls', '--max-bytes', '1K'], { cwd });
    assert.equal(file.code, 1, file.stderr);
    assert.match(file.stderr, /budget\/decompressed-size/);
    const sameLines = (text: string): string => text.replace(/^\S*big\.xml:/gm, 'big.xml:');
    assert.deepEqual([url.code, url.stdout, sameLines(url.stderr)], [file.code, file.stdout, sameLines(file.stderr)]);
  });

  it('a status other than 2xx: HTTP 404 and exit 2', async () => {
    const r = await read('/gone.xml');
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^sitemapkit read: cannot fetch http:\/\/127\.0\.0\.1:\d+\/gone\.xml: HTTP 404$/m);
  });

  it('a Retry-After past the longest wait is not waited for, and the message says so, as discover says it', async () => {
    const r = await read('/later.xml');
    const v = await validate('/later.xml');
    const said = 'HTTP 429; not retried: its Retry-After asks for 3600 s, more than the 60 s waited at most';
    assert.equal(r.code, 2);
    assert.ok(r.stderr.includes(`cannot fetch ${server.url('/later.xml')}: ${said}\n`), r.stderr);
    assert.ok(v.stderr.includes(said), v.stderr);
    assert.equal(server.count('/later.xml'), 2);
  });

  it('fails as validate URL fails: the same line, the same code, the same exit status', async () => {
    for (const [path, extra] of [['/gone.xml', []], ['/cut.xml', []], ['/slow.xml', ['--timeout', '0.5']], ['/to-metadata', []]] as const) {
      const policy = path === '/to-metadata' ? ['--allow-address', '127.0.0.1/32'] : [];
      const r = await runCli(['read', server.url(path), ...policy, ...(policy.length === 0 ? ['--allow-private'] : []), ...extra], { cwd });
      const v = await runCli(['validate', server.url(path), ...policy, ...(policy.length === 0 ? ['--allow-private'] : []), ...extra], { cwd });
      const line = (stderr: string, command: string) => stderr.split('\n').find((l) => l.startsWith(`sitemapkit ${command}: cannot fetch`))?.slice(`sitemapkit ${command}: `.length);
      assert.equal(r.code, 2, path);
      assert.equal(v.code, 2, path);
      const readLine = line(r.stderr, 'read');
      assert.ok(readLine !== undefined, r.stderr);
      // The byte counts of a cut body may differ by a chunk; the rest is the same.
      assert.equal(readLine.replace(/\d+ bytes/g, 'N bytes'), line(v.stderr, 'validate')?.replace(/\d+ bytes/g, 'N bytes'), path);
    }
    const clean = await validate('/sitemap.xml', ['--location', 'https://www.example.com/sitemap.xml']);
    assert.equal(clean.code, 0, clean.stdout);
  });

  it('refuses a bad --allow-address or --timeout as a usage error, before any request (read and validate alike)', async () => {
    const before = server.requests.length;
    for (const command of ['read', 'validate']) {
      for (const extra of [['--allow-address', 'nope'], ['--timeout', '0']]) {
        const r = await runCli([command, server.url('/sitemap.xml'), ...extra], { cwd });
        assert.equal(r.code, 2, `${command} ${extra.join(' ')}`);
        assert.match(r.stderr, new RegExp(`^sitemapkit ${command}: ${extra[0]} needs .*\\nRun "sitemapkit ${command} --help"`), r.stderr);
      }
    }
    assert.equal(server.requests.length, before);
  });

  it('--help lists the network options as validate does', async () => {
    const help = (await runCli(['read', '--help'], { cwd })).stdout;
    const vhelp = (await runCli(['validate', '--help'], { cwd })).stdout;
    for (const flag of ['--allow-private', '--allow-address CIDR', '--timeout S', '--user-agent UA']) {
      const line = (text: string) => text.split('\n').find((l) => l.trimStart().startsWith(flag))?.trim().replace(/\s+/g, ' ');
      assert.ok(line(help) !== undefined, flag);
      assert.equal(line(help), line(vhelp), flag);
    }
  });
});
