// `sitemapkit serve` as a process: log lines, graceful stop, slow and oversized headers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeSitemaps } from '../../src/node/write-sitemaps.js';
import { tempDir } from '../helpers/tmp.js';
import { BASE, rawStatus, taggedEntries, writeSet } from '../helpers/serve.js';
import { startServe } from '../helpers/serve-process.js';
import { runCli } from '../helpers/cli.js';
import { run } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';

test('serves the set, logs one line per request (common and json), and exits 0 on SIGTERM', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  for (const format of ['common', 'json'] as const) {
    const serve = await startServe(dir, ['--log', format]);
    t.after(() => serve.stop('SIGKILL'));
    assert.equal((await fetch(`${serve.origin}/sitemap.xml`)).status, 200);
    assert.equal((await fetch(`${serve.origin}/nope.xml`)).status, 404);
    assert.equal((await fetch(`${serve.origin}/sitemap.xml`, { method: 'POST' })).status, 405);
    assert.equal(await serve.stop(), 0);
    const lines = serve.stdout().trim().split('\n');
    assert.equal(lines.length, 3, serve.stdout());
    if (format === 'common') {
      assert.match(lines[0] as string, /^127\.0\.0\.1 - - \[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000\] "GET \/sitemap\.xml HTTP\/1\.1" 200 \d+ [\d.]+$/);
      assert.match(lines[1] as string, /"GET \/nope\.xml HTTP\/1\.1" 404 /);
    } else {
      const records = lines.map((line) => JSON.parse(line) as { method: string; path: string; status: number; bytes: number | null });
      assert.deepEqual(records.map((r) => [r.method, r.path, r.status]), [['GET', '/sitemap.xml', 200], ['GET', '/nope.xml', 404], ['POST', '/sitemap.xml', 405]]);
      assert.ok((records[0]?.bytes ?? 0) > 0);
    }
  }
});

test('--log none logs nothing; --no-robots-header and --cache-control change the headers; --base-url sets the path; --host', async (t) => {
  const dir = tempDir();
  await writeSitemaps(taggedEntries(30, 'maps/m'), { outDir: dir, baseUrl: `${BASE}maps/`, maxUrls: 10, compressionThreads: 1 });
  const serve = await startServe(dir, ['--log', 'none', '--no-robots-header', '--cache-control', 'no-cache', '--base-url', `${BASE}maps/`, '--host', '127.0.0.1']);
  t.after(() => serve.stop('SIGKILL'));
  assert.equal((await fetch(`${serve.origin}/sitemap.xml`)).status, 404);
  const response = await fetch(`${serve.origin}/maps/sitemap.xml`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('x-robots-tag'), null);
  assert.equal(response.headers.get('cache-control'), 'no-cache');
  for (const loc of [...(await response.text()).matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] as string)) {
    assert.equal((await fetch(`${serve.origin}${new URL(loc).pathname}`)).status, 200, loc);
  }
  const page = await fetch(`${serve.origin}/maps/sitemap.html`);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(await page.text(), /30 URLs in 3 files/);
  assert.equal(await serve.stop(), 0);
  assert.equal(serve.stdout(), '');
  assert.match(serve.stderr(), new RegExp(`at ${serve.origin}/maps/sitemap\\.xml `));
  // A base URL without its final slash names a file: its folder is where the set is served, and said.
  const file = await startServe(dir, ['--base-url', `${BASE}maps/sitemap.xml`]);
  t.after(() => file.stop('SIGKILL'));
  assert.match(file.stderr(), new RegExp(`at ${file.origin}/maps/sitemap\\.xml `));
  assert.equal((await fetch(`${file.origin}/maps/sitemap.xml`)).status, 200);
  // Served at https://www.example.com/, the set's children (/maps/…) would be in DIR/maps/: none there, no set.
  const off = await runCli(['serve', dir, '--base-url', `${BASE}maps`, '--port', '0'], { cwd: dir });
  assert.equal(off.code, 2);
  assert.match(off.stderr, /listed by sitemap\.xml: cannot read .*\/maps\/[^/]+\.xml\.gz: no such file/);
});

test('usage errors and a folder without a set exit 2', async () => {
  const dir = tempDir();
  assert.equal((await runCli(['serve'], { cwd: dir })).code, 2);
  assert.equal((await runCli(['serve', 'a', 'b'], { cwd: dir })).code, 2);
  assert.equal((await runCli(['serve', '.', '--base-url', 'ftp://x/'], { cwd: dir })).code, 2);
  // A --name that is no plain file name is named as the option, not as a folder without a set.
  const named = await runCli(['serve', '.', '--name', '../x'], { cwd: dir });
  assert.equal(named.code, 2);
  assert.match(named.stderr, /^sitemapkit serve: --name "\.\.\/x": .*\nRun "sitemapkit serve --help" for usage\.\n$/);
  const empty = await runCli(['serve', '.'], { cwd: dir });
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /no set to serve/);
});

test('children of the index that cannot be served are said once each on standard error, at start and at each new set, never per request', async (t) => {
  const dir = tempDir();
  const index = (locs: string[]): string => `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`;
  writeFileSync(join(dir, 's1.xml'), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>');
  writeFileSync(join(dir, 'sitemap.xml'), index([`${BASE}s1.xml`, `${BASE}en/sitemap.xml`]));
  let stderr = '';
  let interrupt: (() => void) | undefined;
  const io: CliIo = {
    stdout: { write: () => true }, stderr: { write: (text: string) => (stderr += text) }, cwd: dir, env: {},
    onInterrupt: (handler) => ((interrupt = handler), () => (interrupt = undefined)),
  };
  const until = async (pattern: RegExp): Promise<void> => {
    for (let tries = 0; tries < 100 && !pattern.test(stderr); tries++) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const exited = run(['serve', '.', '--port', '0', '--log', 'none'], io);
  t.after(() => interrupt?.());
  await until(/Ctrl-C/);
  const origin = (/at (http:\/\/[^/]+)\//.exec(stderr) as RegExpExecArray)[1] as string;
  for (const path of ['/sitemap.xml', '/s1.xml', '/en/sitemap.xml', '/sitemap.xml']) await (await fetch(origin + path)).arrayBuffer();
  const notServed = (): string => stderr.split(/(?<=\n)/).filter((line) => line.includes('not served')).join('');
  const said = `sitemapkit serve: ${BASE}en/sitemap.xml, listed by sitemap.xml, is not served: its file name is the entry file's\n`;
  assert.equal(notServed(), said);
  // A new set: said again, with the new child that cannot be.
  const next = join(dir, 'next.xml');
  writeFileSync(next, index([`${BASE}s1.xml`, `${BASE}en/sitemap.xml`, `${BASE}list/`]));
  renameSync(next, join(dir, 'sitemap.xml'));
  await until(/list\//);
  interrupt?.();
  assert.equal(await exited, 0);
  assert.equal(notServed(), `${said}${said}sitemapkit serve: ${BASE}list/, listed by sitemap.xml, is not served: its last path segment "" is no file name served (a plain name ending in .xml, .xml.gz or .txt)\n`);
});

test('a --cache-control that is no header value (a line break) is a usage error, not a server that fails at its first request', async () => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  await assert.rejects(
    startServe(dir, ['--cache-control', 'public\r\nSet-Cookie: a=1']),
    /^Error: serve exited with 2: sitemapkit serve: --cache-control "public\\r\\nSet-Cookie: a=1" is not a header value: printable ASCII on one line \(RFC 9110 §5\.5\)\n/,
  );
});

test('on SIGTERM and on SIGINT a response under way finishes whole; new connections are refused', async (t) => {
  const dir = tempDir();
  // One plain child of ~3.5 MB, asked for without gzip: more than the socket buffers hold.
  await writeSitemaps(taggedEntries(100_000, 'big-set-with-long-paths'), { outDir: dir, baseUrl: BASE, gzip: false, index: 'always', compressionThreads: 1 });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const serve = await startServe(dir, ['--log', 'none']);
    t.after(() => serve.stop('SIGKILL'));
    const index = await (await fetch(`${serve.origin}/sitemap.xml`)).text();
    const child = new URL((/<loc>([^<]*)<\/loc>/.exec(index) as RegExpExecArray)[1] as string).pathname;
    const body = await new Promise<{ length: number; expected: number }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: serve.port, path: child }, (response) => {
        response.pause();
        // The answer has started and waits on this client: now stop the server.
        void serve.child.kill(signal);
        setTimeout(() => {
          let length = 0;
          response.on('data', (chunk: Buffer) => (length += chunk.length));
          response.on('end', () => resolve({ length, expected: Number(response.headers['content-length']) }));
          response.on('error', reject);
          response.resume();
        }, 500);
      });
      req.on('error', reject);
      req.end();
    });
    assert.ok(body.expected > 3_000_000, String(body.expected));
    assert.equal(body.length, body.expected);
    assert.equal(await serve.exited, 0);
    await assert.rejects(fetch(`${serve.origin}/sitemap.xml`));
  }
});

test('a client sending its headers one byte a second is cut off while others are served; headers are bounded', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const serve = await startServe(dir, ['--log', 'none', '--header-timeout', '1']);
  t.after(() => serve.stop('SIGKILL'));
  const started = Date.now();
  const slow = connect(serve.port, '127.0.0.1');
  const head = 'GET /sitemap.xml HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'a'.repeat(100);
  let sent = 0;
  const drip = setInterval(() => slow.write(head[sent++ % head.length] as string), 1000);
  t.after(() => clearInterval(drip));
  let answer = '';
  slow.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  const cut = new Promise<number>((resolve) => slow.on('close', () => resolve(Date.now() - started)));
  slow.on('error', () => {});
  // Meanwhile the others are served.
  for (let i = 0; i < 20; i++) assert.equal((await fetch(`${serve.origin}/sitemap.xml`)).status, 200);
  const after = await cut;
  clearInterval(drip);
  assert.ok(after < 4000, `cut after ${after} ms`);
  assert.match(answer, /^HTTP\/1\.1 408/);
  // 12 KB of headers (under node:http's default of 16 KiB, over serve's 8 KiB): 431.
  assert.equal(await rawStatus(serve.port, `GET /sitemap.xml HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(12_000)}\r\nConnection: close\r\n\r\n`), 431);
  assert.equal((await fetch(`${serve.origin}/sitemap.xml`)).status, 200);
});

test('a client that takes no byte of an answer for --send-timeout seconds is cut off; one that reads gets it whole', async (t) => {
  const dir = tempDir();
  // A plain child of ~5 MB asked for without gzip: more than the socket buffers take at once.
  await writeSitemaps(taggedEntries(50_000, 'big-set-with-long-paths'), { outDir: dir, baseUrl: BASE, gzip: false, index: 'always', compressionThreads: 1 });
  const serve = await startServe(dir, ['--log', 'json', '--send-timeout', '1']);
  t.after(() => serve.stop('SIGKILL'));
  const index = await (await fetch(`${serve.origin}/sitemap.xml`)).text();
  const child = new URL((/<loc>([^<]*)<\/loc>/.exec(index) as RegExpExecArray)[1] as string).pathname;
  const stuck = connect(serve.port, '127.0.0.1', () => stuck.write(`GET ${child} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
  stuck.on('error', () => {});
  stuck.pause();
  // Read nothing for 2.5 s (a paused socket sees no close either), then take what is left: cut short.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  let answer = '';
  stuck.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  stuck.resume();
  await new Promise((resolve) => stuck.on('close', resolve));
  const length = Number(/content-length: (\d+)/i.exec(answer)?.[1]);
  assert.ok(length > 1_000_000 && answer.length < length, `${answer.length} bytes of ${length}`);
  const whole = await fetch(`${serve.origin}${child}`, { headers: { 'accept-encoding': 'identity' } });
  assert.equal((await whole.arrayBuffer()).byteLength, Number(whole.headers.get('content-length')));
  // The log does not count a body cut short as sent: its size only for the answer sent whole.
  assert.equal(await serve.stop(), 0);
  const logged = serve.stdout().trim().split('\n').map((line) => JSON.parse(line) as { path: string; bytes: number | null; remote: string });
  assert.deepEqual(logged.slice(1).map((r) => [r.path, r.bytes]), [[child, null], [child, length]]);
  // The client cut off is named too (its socket no longer knows it when the line is written).
  assert.deepEqual(logged.map((r) => r.remote), ['127.0.0.1', '127.0.0.1', '127.0.0.1']);
});

test('an access log whose reader is gone (serve … | head) is dropped, said once; the serving goes on', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const serve = await startServe(dir);
  t.after(() => serve.stop('SIGKILL'));
  assert.equal((await fetch(`${serve.origin}/sitemap.xml`)).status, 200);
  serve.child.stdout?.destroy();
  for (let i = 0; i < 5; i++) {
    assert.equal((await fetch(`${serve.origin}/sitemap.xml`)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(serve.stderr().match(/the access log cannot be written \(EPIPE\)/g)?.length, 1, serve.stderr());
  // Standard error gone too: the line saying a new set is served is dropped, the new set served.
  serve.child.stderr?.destroy();
  const before = await (await fetch(`${serve.origin}/sitemap.xml`)).text();
  await writeSet(dir, 'b');
  for (let tries = 0; tries < 40 && (await (await fetch(`${serve.origin}/sitemap.xml`)).text()) === before; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.notEqual(await (await fetch(`${serve.origin}/sitemap.xml`)).text(), before);
  assert.equal(await serve.stop(), 0);
});

test('a request with two Host fields is a 400 (RFC 9112 §3.2, as nginx answers it); one Host is served', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const serve = await startServe(dir, ['--log', 'none']);
  t.after(() => serve.stop('SIGKILL'));
  assert.equal(await rawStatus(serve.port, 'GET /sitemap.xml HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\nConnection: close\r\n\r\n'), 400);
  assert.equal(await rawStatus(serve.port, 'GET /sitemap.xml HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n'), 200);
});
