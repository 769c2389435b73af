// The directory source behind a real node:http server: what is served, how a replaced set is followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync, renameSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createSitemapHandler, type SitemapFile } from '../../../src/core/serve/handler.js';
import { openDirectorySource, type DirectorySource } from '../../../src/node/serve/directory-source.js';
import { toNodeListener } from '../../../src/node/serve/node-listener.js';
import { tempDir } from '../../helpers/tmp.js';
import { BASE, listen, rawStatus, taggedEntries, writeSet, type Listening } from '../../helpers/serve.js';
import { writeSitemaps } from '../../../src/node/write-sitemaps.js';

const locs = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] as string);

async function serveDir(dir: string, options: { graceMs?: number } = {}): Promise<{ source: DirectorySource; server: Listening }> {
  const source = await openDirectorySource({ dir, baseUrl: BASE, ...options });
  const server = await listen(toNodeListener(createSitemapHandler({ source, baseUrl: BASE })));
  return { source, server };
}

test('the entry file and the children it names are served; gzip negotiated; everything else is 404', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const { source, server } = await serveDir(dir);
  t.after(async () => {
    source.close();
    await server.close();
  });
  const index = await fetch(`${server.origin}/sitemap.xml`, { headers: { 'accept-encoding': 'identity' } });
  assert.equal(index.status, 200);
  const children = locs(await index.text());
  assert.equal(children.length, 3);
  for (const loc of children) {
    const name = loc.slice(BASE.length);
    const gz = await fetch(`${server.origin}/${name}`);
    assert.equal(gz.headers.get('content-type'), 'application/gzip');
    assert.equal(locs(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).length, 10);
    // Asked for as .xml: fetch accepts gzip and decodes it; the body is the child's XML.
    const xml = await fetch(`${server.origin}/${name.replace(/\.gz$/, '')}`);
    assert.equal(xml.headers.get('content-encoding'), 'gzip');
    assert.equal(locs(await xml.text()).length, 10);
  }
  // The state file, a temporary folder, a dotfile, a stray file, a symlink out of the directory: none is named by the set.
  mkdirSync(join(dir, '.sitemapkit'));
  writeFileSync(join(dir, '.sitemapkit', 'state'), '{}');
  mkdirSync(join(dir, '.sitemapkit-tmp-1-x'));
  writeFileSync(join(dir, '.sitemapkit-tmp-1-x', 'sitemap.xml'), '<x/>');
  writeFileSync(join(dir, '.hidden.xml'), '<x/>');
  // A temporary file as writeFileAtomic names it (staged-output.ts), and one without the dot.
  writeFileSync(join(dir, '.sitemap.xml.tmp-123-kx1'), '<x/>');
  writeFileSync(join(dir, 'sitemap.xml.tmp'), '<x/>');
  writeFileSync(join(dir, 'other.xml'), '<x/>');
  symlinkSync('/etc/passwd', join(dir, 'passwd.txt'));
  const targets = [
    '/.sitemapkit/state', '/.sitemapkit-tmp-1-x/sitemap.xml', '/.hidden.xml', '/other.xml', '/passwd.txt', '/../etc/passwd', '/%2e%2e/etc/passwd',
    '/%2E%2E%2Fetc%2Fpasswd', '/..%5c..%5cetc%5cpasswd', '/%252e%252e%252fetc%252fpasswd', '//etc/passwd', '/etc/passwd', '/sitemap.xml%00.txt',
    '/%00', '/.', '/..', '/', '/sitemap.xml/', '/.sitemap.xml.tmp-123-kx1', '/sitemap.xml.tmp', `/${dir}/sitemap.xml`, `http://127.0.0.1${dir}/sitemap.xml`,
  ];
  for (const target of targets) assert.equal(await rawStatus(server.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`), 404, target);
  // A raw NUL or backslash in the request line: refused (400 by node:http's parser, or 404), never served.
  for (const target of ['/sitemap.xml\0', '/\\etc\\passwd']) {
    const status = await rawStatus(server.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    assert.ok(status === 400 || status === 404, `${JSON.stringify(target)}: ${status}`);
  }
  // Another spelling of a file's path (RFC 3986 §6.2.2) is that file, as nginx serves it.
  assert.equal(await rawStatus(server.port, 'GET /./x/%2E%2E/%73itemap.xml HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'), 200);
  // The Host header does not choose anything.
  assert.equal(await rawStatus(server.port, 'GET /sitemap.xml HTTP/1.1\r\nHost: evil.test\r\nConnection: close\r\n\r\n'), 200);
});

test('options out of range are refused before anything is read: a poll every 0 ms, a negative grace, page or memory budget', async () => {
  for (const bad of [{ pollMs: 0 }, { pollMs: -5 }, { graceMs: -1 }, { pageUrls: -1 }, { maxBytes: -1 }, { pollMs: 1.5 }]) {
    await assert.rejects(openDirectorySource({ dir: '/nonexistent', ...bad }), { code: 'ERR_SITEMAP_OPTION' }, JSON.stringify(bad));
  }
});

test('a child that is a symlink (out of the directory) is never served: the set does not load', async () => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const child = readdirSync(dir).find((name) => name.endsWith('.gz')) as string;
  rmSync(join(dir, child));
  symlinkSync('/etc/passwd', join(dir, child));
  await assert.rejects(openDirectorySource({ dir }), { code: 'ERR_SITEMAP_SERVE' });
});

test('a child that is a FIFO stops the set from loading at once (its open does not wait for a writer)', { timeout: 5000 }, async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const source = await openDirectorySource({ dir });
  t.after(() => source.close());
  const names = source.names;
  const child = readdirSync(dir).find((name) => name.endsWith('.gz')) as string;
  rmSync(join(dir, child));
  execFileSync('mkfifo', [join(dir, child)]);
  writeFileSync(join(dir, 'sitemap.xml'), `${readFileSync(join(dir, 'sitemap.xml'), 'utf8')}\n`);
  await source.reload();
  assert.deepEqual(source.names, names);
  await assert.rejects(openDirectorySource({ dir }), { code: 'ERR_SITEMAP_SERVE', message: /not a regular file/ });
});

test('a replaced set is followed; the old children stay fetchable for the grace period, then 404', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const { source, server } = await serveDir(dir, { graceMs: 1500 });
  t.after(async () => {
    source.close();
    await server.close();
  });
  const oldChildren = locs(await (await fetch(`${server.origin}/sitemap.xml`)).text());
  const before = await fetch(`${server.origin}/sitemap.xml`);
  await writeSet(dir, 'b');
  await source.reload();
  const newChildren = locs(await (await fetch(`${server.origin}/sitemap.xml`)).text());
  assert.notDeepEqual(newChildren, oldChildren);
  assert.notEqual((await fetch(`${server.origin}/sitemap.xml`)).headers.get('etag'), before.headers.get('etag'));
  for (const loc of [...oldChildren, ...newChildren]) assert.equal((await fetch(`${server.origin}/${loc.slice(BASE.length)}`)).status, 200, loc);
  // The old files are gone from the disk; they are served from memory.
  assert.deepEqual(readdirSync(dir).filter((name) => oldChildren.some((loc) => loc.endsWith(name))), []);
  await new Promise((resolve) => setTimeout(resolve, 1600));
  for (const loc of oldChildren) assert.equal((await fetch(`${server.origin}/${loc.slice(BASE.length)}`)).status, 404, loc);
  for (const loc of newChildren) assert.equal((await fetch(`${server.origin}/${loc.slice(BASE.length)}`)).status, 200, loc);
});

test('a set larger than maxBytes is served: children beyond it are read from disk, still after a new set removed them', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  // Room for nothing but the entry file (always held): every child is read from disk when asked for.
  const source = await openDirectorySource({ dir, baseUrl: BASE, maxBytes: 1 });
  const server = await listen(toNodeListener(createSitemapHandler({ source, baseUrl: BASE })));
  t.after(async () => {
    source.close();
    await server.close();
  });
  const names = locs(await (await fetch(`${server.origin}/sitemap.xml`)).text()).map((loc) => loc.slice(BASE.length));
  assert.equal(names.length, 3);
  const onDisk = new Map(names.map((name) => [name, readFileSync(join(dir, name))]));
  const tags = new Map<string, string>();
  for (const [name, bytes] of onDisk) {
    const response = await fetch(`${server.origin}/${name}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-length'), String(bytes.byteLength));
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), bytes);
    tags.set(name, response.headers.get('etag') as string);
    assert.equal((await fetch(`${server.origin}/${name}`, { headers: { 'if-none-match': tags.get(name) as string } })).status, 304);
    const xml = await fetch(`${server.origin}/${name.replace(/\.gz$/, '')}`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(xml.headers.get('content-encoding'), null);
    assert.equal(locs(await xml.text()).length, 10);
  }
  assert.match(await (await fetch(`${server.origin}/sitemap.html`)).text(), /30 URLs/);
  // A new set removes the old children from the directory: the handles opened for them still read them.
  await writeSet(dir, 'b');
  await source.reload();
  for (const [name, bytes] of onDisk) {
    assert.equal(existsSync(join(dir, name)), false, name);
    const response = await fetch(`${server.origin}/${name}`);
    assert.equal(response.headers.get('etag'), tags.get(name));
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), bytes);
  }
});

test('a commit is followed without being told (fs.watch or the poll)', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const source = await openDirectorySource({ dir, pollMs: 100 });
  t.after(() => source.close());
  const first = source.names;
  await writeSet(dir, 'b');
  const deadline = Date.now() + 3000;
  while (source.names.join() === first.join() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.notDeepEqual(source.names, first);
  assert.ok(source.names.every((name) => readdirSync(dir).includes(name)));
});

test('while a new set loads, requests are answered at once from the old one (one commit point), not held until it is loaded', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const source = await openDirectorySource({ dir });
  t.after(() => source.close());
  const old = source.file('sitemap.xml');
  const next = tempDir();
  await writeSet(next, 'b');
  for (const name of readdirSync(next)) if (name.endsWith('.gz')) renameSync(join(next, name), join(dir, name));
  // Committed, reloaded and asked for in one synchronous run: no watcher's reload can come between.
  renameSync(join(next, 'sitemap.xml'), join(dir, 'sitemap.xml'));
  const loading = source.reload();
  assert.equal(source.file('sitemap.xml'), old);
  await loading;
  assert.notEqual(source.file('sitemap.xml'), old);
});

test('Last-Modified is when the bytes changed: a child kept by a new set keeps it; the entry file rewritten alike keeps it', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a', 30);
  const source = await openDirectorySource({ dir });
  t.after(() => source.close());
  const times = new Map(source.names.map((name) => [name, (source.file(name) as { lastModified: number }).lastModified]));
  await new Promise((resolve) => setTimeout(resolve, 1100));
  // The same 30 URLs and 10 more: the first three children keep their bytes, a fourth is added, the index changes.
  await writeSet(dir, 'a', 40);
  await source.reload();
  const kept = source.names.filter((name) => times.has(name) && name !== 'sitemap.xml');
  assert.equal(kept.length, 3);
  for (const name of kept) assert.equal((source.file(name) as { lastModified: number }).lastModified, times.get(name), name);
  const indexTime = (source.file('sitemap.xml') as { lastModified: number }).lastModified;
  assert.ok(indexTime > (times.get('sitemap.xml') as number));
  // The entry file replaced by a copy of itself (same bytes, new inode and times): its time stays.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  writeFileSync(join(dir, 'copy.tmp'), readdirSync(dir).includes('sitemap.xml') ? (await import('node:fs')).readFileSync(join(dir, 'sitemap.xml')) : '');
  renameSync(join(dir, 'copy.tmp'), join(dir, 'sitemap.xml'));
  await source.reload();
  assert.equal((source.file('sitemap.xml') as { lastModified: number }).lastModified, indexTime);
});

test('a broken new set (a named child missing) leaves the previous set served and is reported', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const errors: string[] = [];
  const source = await openDirectorySource({ dir, onChange: (event) => 'error' in event && errors.push(event.error.code) });
  t.after(() => source.close());
  const names = source.names;
  writeFileSync(join(dir, 'sitemap.xml'), '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.example.com/missing.xml.gz</loc></sitemap></sitemapindex>');
  await source.reload();
  // Reported (once per change seen: fs.watch may see the write as two), not again at every poll.
  assert.ok(errors.length >= 1 && errors.every((code) => code === 'ERR_SITEMAP_SERVE'), errors.join());
  const seen = errors.length;
  await new Promise((resolve) => setTimeout(resolve, 1200));
  assert.equal(errors.length, seen);
  assert.deepEqual(source.names, names);
});

test('a child that cannot be read is named as the index lists it, beside the file looked for', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/set/../out/b.xml</loc></sitemap></sitemapindex>');
  await assert.rejects(openDirectorySource({ dir }), { message: `the child sitemap "https://example.com/set/../out/b.xml" listed by sitemap.xml: cannot read ${join(dir, 'b.xml')}: no such file` });
});

test('children of the index that cannot be served are named with why: a name that is no file, off the base URL, the entry file\'s or another child\'s name', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 's1.xml'), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>');
  writeFileSync(join(dir, 's2.xml'), readFileSync(join(dir, 's1.xml')));
  const notFiles = [['list?page=2', `${BASE}list?page=2`], ['cdn.example.net', 'https://cdn.example.net']].map(([name, loc]) => ({ loc, reason: `its last path segment "${name}" is no file name served (a plain name ending in .xml, .xml.gz or .txt)` }));
  const off = ['https://cdn.example.net/s1.xml', `${BASE}.well-known/s1.xml`];
  // Without a base URL, /en/sitemap.xml and /fr/s1.xml not in subfolders of the directory are looked for at
  // its top. The same loc twice is one child, served; so is one whose host is in capitals, with the default
  // port (the same URL: RFC 3986 §6.2.2.1, §6.2.3).
  for (const [baseUrl, more, skipped] of [
    [undefined, [`${BASE}en/sitemap.xml`, `${BASE}fr/s1.xml`], [{ loc: `${BASE}en/sitemap.xml`, reason: 'its file name is the entry file\'s' }, { loc: `${BASE}fr/s1.xml`, reason: `its file name is that of ${BASE}s1.xml, listed before` }, ...notFiles]],
    [BASE, off, [{ loc: off[0], reason: `it is not under the base URL ${BASE}` }, { loc: off[1], reason: 'its path below the base URL ".well-known/s1.xml" has a folder that is no plain name' }, ...notFiles]],
  ] as const) {
    const listed = [`${BASE}s1.xml`, ...more, `${BASE}list?page=2`, `${BASE}s1.xml`, 'HTTPS://WWW.Example.COM:443/s2.xml', 'https://cdn.example.net'];
    writeFileSync(join(dir, 'sitemap.xml'), `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${listed.map((loc) => `<sitemap><loc>${loc.replace('&', '&amp;')}</loc></sitemap>`).join('')}</sitemapindex>`);
    const source = await openDirectorySource({ dir, ...(baseUrl === undefined ? {} : { baseUrl }) });
    source.close();
    assert.deepEqual(source.names, ['sitemap.xml', 's1.xml', 's2.xml'], baseUrl);
    assert.deepEqual(source.skipped, skipped, baseUrl);
  }
});

test('a child whose loc escapes unreserved characters (RFC 3986 §6.2.2.2: %31 is 1) is the file of the plain name, served at either spelling', async (t) => {
  const dir = tempDir();
  mkdirSync(join(dir, 'en'));
  writeFileSync(join(dir, 'en', 's1.xml'), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>');
  writeFileSync(join(dir, 'sitemap.xml'), `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${BASE}%65n/s%31.xml</loc></sitemap></sitemapindex>`);
  for (const baseUrl of [undefined, BASE]) {
    const source = await openDirectorySource({ dir, ...(baseUrl === undefined ? {} : { baseUrl }) });
    t.after(() => source.close());
    assert.deepEqual([source.names, source.skipped], [['sitemap.xml', 'en/s1.xml'], []], baseUrl);
    const answer = await createSitemapHandler({ source, baseUrl: BASE }).answer('GET', '/%65n/s%31.xml', () => undefined);
    assert.equal(answer.status, 200, baseUrl);
  }
});

test('a child in a subfolder is served at the path its loc has (Hugo: /en/sitemap.xml beside /sitemap.xml); a subfolder that is a symlink is never followed', async (t) => {
  const dir = tempDir();
  const urlset = (tag: string): string => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${BASE}${tag}</loc></url></urlset>`;
  mkdirSync(join(dir, 'sub'));
  mkdirSync(join(dir, 'en'));
  writeFileSync(join(dir, 'sub', 'sitemap-1.xml'), urlset('sub'));
  writeFileSync(join(dir, 'en', 'sitemap.xml'), urlset('en'));
  writeFileSync(join(dir, 'sitemap.xml'), `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${BASE}sub/sitemap-1.xml</loc></sitemap><sitemap><loc>${BASE}en/sitemap.xml</loc></sitemap></sitemapindex>`);
  for (const baseUrl of [undefined, BASE]) {
    const source = await openDirectorySource({ dir, ...(baseUrl === undefined ? {} : { baseUrl }) });
    const server = await listen(toNodeListener(createSitemapHandler({ source, ...(baseUrl === undefined ? {} : { baseUrl }) })));
    t.after(async () => {
      source.close();
      await server.close();
    });
    for (const tag of ['sub', 'en']) assert.deepEqual(locs(await (await fetch(`${server.origin}/${tag}/${tag === 'sub' ? 'sitemap-1' : 'sitemap'}.xml`)).text()), [`${BASE}${tag}`], `${baseUrl} ${tag}`);
    assert.equal((await fetch(`${server.origin}/sitemap-1.xml`)).status, 404);
    assert.deepEqual(source.skipped, []);
  }
  const outside = tempDir();
  writeFileSync(join(outside, 'sitemap-1.xml'), urlset('outside'));
  rmSync(join(dir, 'sub'), { recursive: true });
  symlinkSync(outside, join(dir, 'sub'));
  await assert.rejects(openDirectorySource({ dir }), { code: 'ERR_SITEMAP_SERVE' });
  await assert.rejects(openDirectorySource({ dir, baseUrl: BASE }), { code: 'ERR_SITEMAP_SERVE' });
});

test('a .xml.gz child that is no gzip (plain XML under that name) stops the set from loading: it would be sent as gzip, to every client\'s failure', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${BASE}s1.xml.gz</loc></sitemap></sitemapindex>`);
  writeFileSync(join(dir, 's1.xml.gz'), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>');
  await assert.rejects(openDirectorySource({ dir }), { message: `the child sitemap "${BASE}s1.xml.gz" listed by sitemap.xml: ${join(dir, 's1.xml.gz')} is not gzip data (no gzip header, RFC 1952 §2.3.1)` });
});

test('a .xml.gz child whose XML is past the decompression budget (a bomb of gzip members) stops the set with that limit, read as a stream, not whole into memory', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${BASE}s1.xml.gz</loc></sitemap></sitemapindex>`);
  // 101 members of 1 MiB of blanks between a whole root: 101 MiB of XML from ~100 KB.
  const blanks = gzipSync(Buffer.alloc(1024 * 1024, ' '));
  writeFileSync(join(dir, 's1.xml.gz'), Buffer.concat([gzipSync('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'), ...Array<Buffer>(101).fill(blanks), gzipSync('</urlset>')]));
  await assert.rejects(openDirectorySource({ dir }), { message: /s1\.xml\.gz" listed by sitemap\.xml: the decompressed sitemap is larger than the limit of 104857600 bytes \(100 MiB\)/ });
});

test('a small .xml.gz child with bytes after its gzip data (appended by an upload) is served, as gzip -d reads it; one cut short is not', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${BASE}s1.xml.gz</loc></sitemap></sitemapindex>`);
  const child = gzipSync('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>');
  writeFileSync(join(dir, 's1.xml.gz'), Buffer.concat([child, Buffer.from('garbage\n')]));
  const source = await openDirectorySource({ dir });
  assert.deepEqual([...source.names].sort(), ['s1.xml.gz', 'sitemap.xml']);
  await source.close();
  writeFileSync(join(dir, 's1.xml.gz'), child.subarray(0, child.length - 12));
  await assert.rejects(openDirectorySource({ dir }), { message: /s1\.xml\.gz is cut short/ });
});

test('a new set whose named child arrives after its entry file (a copy in any order) is served once the child is there', async (t) => {
  const dir = tempDir();
  const next = tempDir();
  await writeSet(dir, 'a');
  await writeSet(next, 'b');
  const errors: string[] = [];
  const source = await openDirectorySource({ dir, pollMs: 50, onChange: (event) => 'error' in event && errors.push(event.error.message) });
  t.after(() => source.close());
  writeFileSync(join(dir, 'sitemap.xml'), readFileSync(join(next, 'sitemap.xml')));
  await source.reload();
  assert.match(errors[0] ?? '', /no such file/);
  for (const name of readdirSync(next)) if (name.endsWith('.gz')) writeFileSync(join(dir, name), readFileSync(join(next, name)));
  const served = (): string => [...source.names].sort().join();
  for (let tries = 0; tries < 40 && served() !== readdirSync(next).sort().join(); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(served(), readdirSync(next).sort().join());
});

test('a new set whose child in a subfolder arrives after its entry file is served once the child is there (the subfolder changed, not the directory)', async (t) => {
  for (const baseUrl of [undefined, BASE]) {
    const dir = tempDir();
    await writeSet(dir, 'a');
    mkdirSync(join(dir, 'en'));
    const source = await openDirectorySource({ dir, pollMs: 50, ...(baseUrl === undefined ? {} : { baseUrl }) });
    t.after(() => source.close());
    writeFileSync(join(dir, 'sitemap.xml'), `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${BASE}en/s.xml</loc></sitemap></sitemapindex>`);
    await source.reload();
    writeFileSync(join(dir, 'en', 's.xml'), `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${BASE}en/</loc></url></urlset>`);
    for (let tries = 0; tries < 40 && !source.names.includes('en/s.xml'); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(source.names, ['sitemap.xml', 'en/s.xml'], baseUrl);
  }
});

/** `fs.promises.stat` and `open` and `fs.watch` replaced for the source's imports (syncBuiltinESMExports): `onStat(path)` runs before each stat, `onOpen(path)` each open; watching fails. */
/** fs/promises' `key` replaced by `by` for the test. */
function replaceFs<K extends 'stat' | 'readdir'>(t: { after: (f: () => void) => void }, key: K, by: (typeof fsPromises)[K]): void {
  const original = fsPromises[key];
  fsPromises[key] = by;
  syncBuiltinESMExports();
  t.after(() => {
    fsPromises[key] = original;
    syncBuiltinESMExports();
  });
}

function hookFs(t: { after: (f: () => void) => void }, onStat: (path: string) => void, onOpen = (_path: string): void => {}): void {
  const { stat, open } = fsPromises;
  const { watch } = fs;
  fsPromises.stat = ((path: string, ...rest: []) => {
    onStat(String(path));
    return stat(path, ...rest);
  }) as typeof stat;
  fsPromises.open = ((path: string, ...rest: []) => {
    onOpen(String(path));
    return open(path, ...rest);
  }) as typeof open;
  fs.watch = (() => {
    throw new Error('no watching here');
  }) as unknown as typeof watch;
  syncBuiltinESMExports();
  t.after(() => {
    [fsPromises.stat, fsPromises.open] = [stat, open];
    fs.watch = watch;
    syncBuiltinESMExports();
  });
}

test('a child in a subfolder arriving just after its open failed (before the load failing is reported) is served at the next poll', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  mkdirSync(join(dir, 'en'));
  let opened = false;
  // The child is written at the first look at its folder once the new entry file is in place: after its open failed, before.
  hookFs(t, (path) => {
    if (path !== join(dir, 'en') || opened) return;
    opened = true;
    writeFileSync(join(dir, 'en', 's.xml'), `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${BASE}en/</loc></url></urlset>`);
  });
  const source = await openDirectorySource({ dir, baseUrl: BASE, pollMs: 300 });
  t.after(() => source.close());
  writeFileSync(join(dir, 'sitemap.xml'), `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${BASE}en/s.xml</loc></sitemap></sitemapindex>`);
  await source.reload();
  for (let tries = 0; tries < 20 && !source.names.includes('en/s.xml'); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(source.names, ['sitemap.xml', 'en/s.xml']);
});

test('an entry file replaced just after a load failed (before it is reported) is loaded at the next poll', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const entry = join(dir, 'sitemap.xml');
  const child = readdirSync(dir).find((name) => name.endsWith('.gz')) as string;
  const good = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${BASE}${child}</loc></sitemap></sitemapindex>`;
  // Once armed, the failed load checks whether the entry file changed meanwhile (one look); at the next look, the good one is copied over it.
  let looks: number | undefined;
  hookFs(t, (path) => {
    if (path !== entry || looks === undefined || ++looks !== 2) return;
    writeFileSync(entry, good);
  });
  const source = await openDirectorySource({ dir, baseUrl: BASE, pollMs: 300 });
  t.after(() => source.close());
  writeFileSync(entry, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${BASE}missing.xml</loc></sitemap></sitemapindex>`);
  looks = 0;
  await source.reload();
  for (let tries = 0; tries < 20 && source.names.length !== 2; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(source.names, ['sitemap.xml', child]);
});

test('as Express or Connect middleware, a 404 goes to next()', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const source = await openDirectorySource({ dir });
  const sitemaps = toNodeListener(createSitemapHandler({ source }));
  const server = await listen((request, response) => {
    sitemaps(request, response, () => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('the app\n');
    });
  });
  t.after(async () => {
    source.close();
    await server.close();
  });
  assert.equal(await (await fetch(`${server.origin}/about`)).text(), 'the app\n');
  assert.equal((await fetch(`${server.origin}/sitemap.xml`)).headers.get('content-type'), 'application/xml; charset=utf-8');
});

test("mounted as Express mounts middleware (url cut, originalUrl whole), the base URL's path still matches", async (t) => {
  const dir = tempDir();
  await writeSitemaps(taggedEntries(30, 'maps/m'), { outDir: dir, baseUrl: `${BASE}maps/`, maxUrls: 10, compressionThreads: 1 });
  const source = await openDirectorySource({ dir, baseUrl: `${BASE}maps/` });
  const sitemaps = toNodeListener(createSitemapHandler({ source, baseUrl: `${BASE}maps/` }));
  const server = await listen((request, response) => {
    const mounted = request as typeof request & { originalUrl?: string };
    mounted.originalUrl = request.url;
    if (request.url?.startsWith('/maps/') === true) request.url = request.url.slice('/maps'.length);
    sitemaps(request, response, () => {
      response.writeHead(418);
      response.end();
    });
  });
  t.after(async () => {
    source.close();
    await server.close();
  });
  const index = await fetch(`${server.origin}/maps/sitemap.xml`);
  assert.equal(index.status, 200);
  for (const loc of locs(await index.text())) assert.equal((await fetch(`${server.origin}${new URL(loc).pathname}`)).status, 200, loc);
  assert.equal((await fetch(`${server.origin}/sitemap.xml`)).status, 418);
});

test('a plain fetch handler (no answer method) works through the general path', async (t) => {
  const server = await listen(toNodeListener(async (request: Request) => new Response(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('x-a')}`, { status: 201, headers: { 'x-b': '1' } })));
  t.after(() => server.close());
  const response = await fetch(`${server.origin}/p?q`, { headers: { 'x-a': 'z' } });
  assert.equal(response.status, 201);
  assert.equal(response.headers.get('x-b'), '1');
  assert.equal(await response.text(), 'GET /p z');
  // The request-target never chooses the host: `//evil.test/p` is a path; an absolute-form target gives its path; no 500.
  const urls = await listen(toNodeListener(async (request: Request) => new Response(request.url)));
  t.after(() => urls.close());
  const urlOf = (path: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: urls.port, path }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${text}`));
      });
      req.on('error', reject);
      req.end();
    });
  assert.equal(await urlOf('//evil.test/p?q'), '200 http://localhost//evil.test/p?q');
  assert.equal(await urlOf('http://evil.test/p?q'), '200 http://localhost/p?q');
  assert.equal(await urlOf('//[::1/p'), '200 http://localhost//[::1/p');
  // A bad origin is refused when the listener is made, not answered 500 at every request.
  for (const origin of ['nope', 'file:///srv/', 'ftp://example.com']) {
    assert.throws(() => toNodeListener(async () => new Response(''), { origin }), { code: 'ERR_SITEMAP_OPTION' }, origin);
  }
  const configured = await listen(toNodeListener(async (request: Request) => new Response(request.url), { origin: 'https://example.com:8443/any/path' }));
  t.after(() => configured.close());
  assert.equal(await (await fetch(`${configured.origin}/p?q`)).text(), 'https://example.com:8443/p?q');
});

test('the page for people lists the children with their URL counts and newest lastmod, and the URLs', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a', 25);
  const source = await openDirectorySource({ dir, pageUrls: 12 });
  t.after(() => source.close());
  const view = await source.view();
  assert.deepEqual(view.files.map((f) => f.urls), [10, 10, 5]);
  assert.deepEqual(view.files.map((f) => f.name), source.names.slice(1));
  assert.ok(view.files.every((f) => f.lastmod === '2026-01-01'));
  assert.equal(view.totalUrls, 25);
  assert.equal(view.urls.length, 12);
  assert.equal(view.urls[0]?.loc, `${BASE}a/0`);
  const html = await (await createSitemapHandler({ source })(new Request('http://x/sitemap.html'))).text();
  assert.match(html, /25 URLs in 3 files/);
  assert.match(html, /the first 12 listed/);
});

test('the page for people reads a large child a chunk at a time: the event loop turns while it is made', async (t) => {
  const dir = tempDir();
  const urls = Array.from({ length: 40_000 }, (_, i) => ({ loc: `${BASE}a/${i}?q=${i}&r=x`, lastmod: `2026-01-${String((i % 28) + 1).padStart(2, '0')}` }));
  await writeSitemaps(urls, { outDir: dir, baseUrl: BASE, gzip: false });
  const source = await openDirectorySource({ dir });
  t.after(() => source.close());
  let turns = 0;
  let ticking = true;
  const tick = (): void => void (ticking && (turns++, setImmediate(tick)));
  t.after(() => (ticking = false));
  tick();
  const view = await source.view();
  ticking = false;
  assert.equal(view.totalUrls, 40_000);
  assert.equal(view.files[0]?.lastmod, '2026-01-28');
  // The child is over 3 MiB: read a MiB at a time, the loop turns once per chunk at least.
  assert.ok(turns >= 4, `${turns} turns`);
});

test('an entry file cut short (written in place) is no set: the previous one stays served, the problem reported with its line', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const errors: string[] = [];
  const source = await openDirectorySource({ dir, onChange: (event) => 'error' in event && errors.push(event.error.message) });
  t.after(() => source.close());
  const names = source.names;
  const whole = readFileSync(join(dir, 'sitemap.xml'), 'utf8');
  // Cut inside the second <sitemap>: the first child is still named, the others are not.
  writeFileSync(join(dir, 'sitemap.xml'), whole.slice(0, whole.indexOf('<sitemap>', whole.indexOf('</sitemap>')) + 12));
  await source.reload();
  assert.deepEqual(source.names, names);
  assert.match(errors[0] ?? '', /^sitemap\.xml:\d+:\d+: not well-formed XML/);
  // A urlset cut short, too; and at the start there is no set to serve.
  writeFileSync(join(dir, 'sitemap.xml'), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url>');
  await source.reload();
  assert.deepEqual(source.names, names);
  await assert.rejects(openDirectorySource({ dir }), { code: 'ERR_SITEMAP_SERVE', message: /not well-formed/ });
});

test('a child read from disk that is written in place since it was tagged (a copy over it, the same length) is cut, never sent whole under the old tag', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const source = await openDirectorySource({ dir, baseUrl: BASE, maxBytes: 1 });
  t.after(() => source.close());
  const handler = createSitemapHandler({ source, baseUrl: BASE });
  const name = source.names[1] as string;
  const before = await handler(new Request(`http://x/${name}`));
  assert.deepEqual(Buffer.from(await before.arrayBuffer()), readFileSync(join(dir, name)));
  writeFileSync(join(dir, name), Buffer.alloc(readFileSync(join(dir, name)).byteLength, 'x'));
  const after = await handler(new Request(`http://x/${name}`));
  assert.equal(after.headers.get('etag'), before.headers.get('etag'));
  await assert.rejects(after.arrayBuffer(), { code: 'ERR_SITEMAP_SERVE' });
});

test('a child written in place while the set is loaded is not loaded as a mix of its versions under one tag', async () => {
  const dir = tempDir();
  await writeSet(dir, 'a', 10);
  // The set's one file made an index naming one large child, rewritten without pause, whole a or whole b.
  writeFileSync(join(dir, 'sitemap.xml'), `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${BASE}c.xml.gz</loc></sitemap></sitemapindex>`);
  const versions = [Buffer.alloc(4 << 20, 'a'), Buffer.alloc(4 << 20, 'b')];
  let writes = 0;
  let stop = false;
  const rewrite = (): void => {
    if (stop) return;
    writeFileSync(join(dir, 'c.xml.gz'), versions[writes++ % 2] as Buffer);
    setImmediate(rewrite);
  };
  rewrite();
  const mixed: string[] = [];
  for (let loads = 0; loads < 4; loads++) {
    const source = await openDirectorySource({ dir, baseUrl: BASE }).catch(() => undefined);
    const body = ((await source?.file('c.xml.gz'))?.gzip as { body: Uint8Array } | undefined)?.body;
    source?.close();
    if (body !== undefined && !versions.some((version) => version.equals(body))) mixed.push(`${body.byteLength} bytes, ${body[0]}…${body[body.byteLength - 1]}`);
  }
  stop = true;
  assert.deepEqual(mixed, []);
});

test('an onChange that throws changes nothing served: the new set is loaded, no rejection is left unhandled', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const problems: string[] = [];
  const unhandled = (error: unknown): number => problems.push(`unhandled: ${(error as Error).message}`);
  process.on('unhandledRejection', unhandled);
  const source = await openDirectorySource({
    dir,
    onChange: () => {
      throw new Error('the callback broke');
    },
  });
  t.after(() => {
    process.off('unhandledRejection', unhandled);
    source.close();
  });
  const before = source.names;
  await writeSet(dir, 'b');
  await source.reload().catch((error: unknown) => problems.push(`reload: ${(error as Error).message}`));
  // Long enough for a reload the watcher started on its own to end.
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(problems, []);
  assert.notDeepEqual(source.names, before);
});

const urlset = (path: string): string => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${BASE}${path}</loc></url></urlset>`;
const indexOf = (...names: string[]): string => `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${names.map((name) => `<sitemap><loc>${BASE}${name}</loc></sitemap>`).join('')}</sitemapindex>`;
const bodyOf = (source: DirectorySource, name: string): string | undefined => {
  const identity = (source.file(name) as SitemapFile | undefined)?.identity;
  return identity !== undefined && 'body' in identity ? Buffer.from(identity.body).toString() : undefined;
};
const until = async (done: () => boolean, ms = 3000): Promise<void> => {
  for (const deadline = Date.now() + ms; !done() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 25));
};

test('a child rewritten in place (its entry file untouched) is followed: the poll notices it and the set reloads', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), indexOf('c.xml'));
  writeFileSync(join(dir, 'c.xml'), urlset('old'));
  const source = await openDirectorySource({ dir, baseUrl: BASE, pollMs: 50 });
  t.after(() => source.close());
  writeFileSync(join(dir, 'c.xml'), urlset('new/page'));
  await until(() => bodyOf(source, 'c.xml') === urlset('new/page'));
  assert.equal(bodyOf(source, 'c.xml'), urlset('new/page'));
});

test('a named child copied in two writes after its entry file is served whole once the second write lands, not cut at the first', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), indexOf('a.xml'));
  writeFileSync(join(dir, 'a.xml'), urlset('a'));
  const source = await openDirectorySource({ dir, baseUrl: BASE, pollMs: 50, onChange: () => {} });
  t.after(() => source.close());
  writeFileSync(join(dir, 'sitemap.xml'), indexOf('a.xml', 'c.xml'));
  await source.reload();
  const whole = urlset('c/a-page-long-enough-to-cut-in-two');
  writeFileSync(join(dir, 'c.xml'), whole.slice(0, 60));
  await new Promise((resolve) => setTimeout(resolve, 300));
  writeFileSync(join(dir, 'c.xml'), whole.slice(60), { flag: 'a' });
  await until(() => bodyOf(source, 'c.xml') === whole);
  assert.equal(bodyOf(source, 'c.xml'), whole);
});

test('a child still being written in place (changed since the last look) is not committed until it settles; the old bytes are served meanwhile', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), indexOf('c.xml'));
  writeFileSync(join(dir, 'c.xml'), urlset('old'));
  hookFs(t, () => {});
  const source = await openDirectorySource({ dir, baseUrl: BASE, pollMs: 400 });
  t.after(() => source.close());
  const whole = urlset('new/a-page-long-enough-to-cut-in-two');
  writeFileSync(join(dir, 'c.xml'), whole.slice(0, 60));
  await source.reload();
  assert.equal(bodyOf(source, 'c.xml'), urlset('old'));
  writeFileSync(join(dir, 'c.xml'), whole.slice(60), { flag: 'a' });
  await source.reload();
  assert.equal(bodyOf(source, 'c.xml'), urlset('old'));
  await until(() => bodyOf(source, 'c.xml') === whole);
  assert.equal(bodyOf(source, 'c.xml'), whole);
});

test('a response still reading a replaced file from disk is sent whole however long it takes: the handle is closed when the last response using it ends', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), indexOf('c.xml'));
  const old = Buffer.from(urlset('old').replace('<url>', `<url><loc>${BASE}${'x'.repeat(200_000)}</loc></url><url>`));
  writeFileSync(join(dir, 'c.xml'), old);
  // Room for the entry file only: c.xml is read from disk as it is sent.
  const source = await openDirectorySource({ dir, baseUrl: BASE, maxBytes: 1, pollMs: 60_000 });
  t.after(() => source.close());
  const served = (source.file('c.xml') as SitemapFile).identity as { etag: string; stream(): ReadableStream<Uint8Array> };
  const reader = served.stream().getReader();
  const chunks = [(await reader.read()).value as Uint8Array];
  writeFileSync(join(dir, 'next.xml'), urlset('new'));
  renameSync(join(dir, 'next.xml'), join(dir, 'c.xml'));
  t.mock.timers.enable({ apis: ['setTimeout'] });
  await source.reload();
  assert.notEqual((source.file('c.xml') as SitemapFile).identity?.etag, served.etag);
  // Long after the replacement (the old code closed the handle a minute after it), the response reads on.
  t.mock.timers.tick(3_600_000);
  await new Promise((resolve) => setImmediate(resolve));
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  assert.deepEqual(Buffer.concat(chunks), old);
});

test('a poll slower than pollMs (a large set, a slow disk) is not overlapped by the next: looks never pile up', async (t) => {
  const dir = tempDir();
  await writeSet(dir, 'a');
  const { stat } = fsPromises;
  let looking = 0;
  let most = 0;
  // Each look at the entry file takes 100 ms: ten polls' time.
  replaceFs(t, 'stat', (async (path: string, ...rest: []) => {
    if (String(path) !== join(dir, 'sitemap.xml')) return stat(path, ...rest);
    most = Math.max(most, ++looking);
    await new Promise((resolve) => setTimeout(resolve, 100));
    looking--;
    return stat(path, ...rest);
  }) as typeof stat);
  const source = await openDirectorySource({ dir, pollMs: 10 });
  t.after(() => source.close());
  await new Promise((resolve) => setTimeout(resolve, 350));
  assert.equal(most, 1);
});

test('a poll of a large set looks at a slice of its children, not every one (its cost does not grow with the set); a child rewritten in place is still noticed, and loaded without looking at the others', async (t) => {
  const dir = tempDir();
  const names = Array.from({ length: 600 }, (_, i) => `c${i}.xml`);
  for (const name of names) writeFileSync(join(dir, name), urlset(name));
  writeFileSync(join(dir, 'sitemap.xml'), indexOf(...names));
  const last = names.at(-1) as string;
  let [polls, looks, opens] = [0, 0, 0];
  // No watching: the poll alone follows the set.
  hookFs(
    t,
    (path) => {
      looks++;
      // Each poll looks at the folder once.
      if (path === dir) polls++;
    },
    (path) => void (path !== join(dir, last) && opens++),
  );
  const source = await openDirectorySource({ dir, baseUrl: BASE, pollMs: 10 });
  t.after(() => source.close());
  await until(() => polls >= 6);
  assert.ok(looks / polls < names.length, `${looks} looks in ${polls} polls`);
  opens = 0;
  writeFileSync(join(dir, last), urlset('new/page'));
  await until(() => bodyOf(source, last) === urlset('new/page'), 20_000);
  assert.equal(bodyOf(source, last), urlset('new/page'));
  // The child settling took a load or two (a loaded machine, a few more): the entry file opened by each, no other child.
  assert.ok(opens < names.length / 10, `${opens} other files opened`);
});

/** How many files this process has open at `path` (the listing's own, closed meanwhile, is none). */
const openFiles = (path: string): number =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;

test('a client that stops reading a file sent from disk (and never closes) is cut off after sendTimeoutMs: the handle of the replaced file is closed', { skip: !existsSync('/proc/self/fd') }, async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), indexOf('c.xml'));
  // More than the sockets' buffers hold: the response waits for the client.
  writeFileSync(join(dir, 'c.xml'), urlset('old').replace('<url>', `<url><loc>${BASE}${'x'.repeat(16_000_000)}</loc></url><url>`));
  const source = await openDirectorySource({ dir, baseUrl: BASE, maxBytes: 1, pollMs: 60_000 });
  t.after(() => source.close());
  const server = await listen(toNodeListener(createSitemapHandler({ source, baseUrl: BASE }), { sendTimeoutMs: 300 }));
  t.after(() => server.close());
  const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /c.xml HTTP/1.1\r\nHost: x\r\n\r\n'));
  t.after(() => socket.destroy());
  await new Promise((resolve) => socket.once('data', resolve));
  socket.pause();
  writeFileSync(join(dir, 'next.xml'), urlset('new'));
  renameSync(join(dir, 'next.xml'), join(dir, 'c.xml'));
  await source.reload();
  const replaced = (): number => openFiles(`${join(dir, 'c.xml')} (deleted)`);
  assert.equal(replaced(), 1);
  await until(() => replaced() === 0);
  assert.equal(replaced(), 0);
});

test('a source closed while a new set loads closes the files that load opened too', { skip: !existsSync('/proc/self/fd') }, async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), indexOf('c.xml'));
  writeFileSync(join(dir, 'c.xml'), urlset('old'));
  // Room for the entry file only: c.xml is held open, read as it is sent.
  const source = await openDirectorySource({ dir, baseUrl: BASE, maxBytes: 1, pollMs: 60_000 });
  t.after(() => source.close());
  writeFileSync(join(dir, 'next.xml'), urlset('new'));
  renameSync(join(dir, 'next.xml'), join(dir, 'c.xml'));
  const loading = source.reload();
  source.close();
  await loading;
  await until(() => openFiles(join(dir, 'c.xml')) === 0, 1000);
  assert.equal(openFiles(join(dir, 'c.xml')), 0);
});

test('a child rewritten in place in writes slower than the poll is never served cut short: it is taken once whole, its half versions reported, not loaded', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), indexOf('c.xml', 'd.xml.gz'));
  writeFileSync(join(dir, 'c.xml'), urlset('old'));
  writeFileSync(join(dir, 'd.xml.gz'), gzipSync(urlset('old')));
  const events: string[] = [];
  const source = await openDirectorySource({ dir, baseUrl: BASE, pollMs: 20, onChange: (event) => events.push('error' in event ? event.error.message : 'loaded') });
  t.after(() => source.close());
  const whole = urlset('new/a-page-long-enough-to-cut-in-three');
  // Each part stays unchanged for many polls (the half-poll settling saw each as done); the last is no end tag either.
  for (const part of [whole.slice(0, 50), whole.slice(50, 100), whole.slice(100, -3)]) {
    writeFileSync(join(dir, 'c.xml'), part, { flag: part === whole.slice(0, 50) ? 'w' : 'a' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(bodyOf(source, 'c.xml'), urlset('old'));
  }
  assert.deepEqual(events.filter((event) => event === 'loaded'), []);
  assert.match(events.at(-1) as string, /c\.xml is cut short/);
  writeFileSync(join(dir, 'c.xml'), whole.slice(-3), { flag: 'a' });
  await until(() => bodyOf(source, 'c.xml') === whole);
  assert.equal(bodyOf(source, 'c.xml'), whole);
  // A gzip child cut short (its deflate stream unfinished) is not taken either.
  const gz = gzipSync(whole);
  writeFileSync(join(dir, 'd.xml.gz'), gz.subarray(0, gz.length - 8));
  await new Promise((resolve) => setTimeout(resolve, 150));
  assert.match(events.at(-1) as string, /d\.xml\.gz is cut short/);
  writeFileSync(join(dir, 'd.xml.gz'), gz.subarray(gz.length - 8), { flag: 'a' });
  await until(() => (source.file('d.xml.gz') as SitemapFile).gzip?.etag !== undefined && events.at(-1) === 'loaded');
  assert.deepEqual(gunzipSync(((source.file('d.xml.gz') as SitemapFile).gzip as { body: Uint8Array }).body).toString(), whole);
});

test('whole documents with what may follow their root (comments, PIs, blanks), an empty root, a BOM or a prolog are taken; any cut of one is not', async () => {
  const { isWholeXml } = await import('../../../src/node/serve/directory-source.js');
  const wholes = [
    urlset('a'),
    `\ufeff<?xml version="1.0"?>\n<!-- made by x -->\n<!DOCTYPE urlset [<!ENTITY a "b">]>${urlset('a')}\n<!-- generated in 1 s -->\n<?pi x?>\n\n`,
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>',
    '<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"></s:urlset >',
  ];
  for (const xml of wholes) {
    assert.equal(isWholeXml(Buffer.from(xml)), true, xml);
    assert.equal(isWholeXml(Buffer.from(xml, 'utf16le')), true, `UTF-16: ${xml}`);
    // Every cut before the root's end (and inside a comment after it) is not whole.
    const end = xml.lastIndexOf('>', xml.includes('generated') ? xml.indexOf('generated') : xml.length) + 1;
    for (let cut = 0; cut < end; cut++) assert.equal(isWholeXml(Buffer.from(xml.slice(0, cut))), false, JSON.stringify(xml.slice(0, cut)));
  }
  const trailed = wholes[1] as string;
  for (let cut = trailed.indexOf('<!-- generated') + 1; cut < trailed.indexOf('<?pi'); cut++) assert.equal(isWholeXml(Buffer.from(trailed.slice(0, cut))), trailed[cut - 1] === '>' || trailed[cut - 1] === '\n');
});

test('a child changed, its entry file not, is loaded without reading the index again (50,000 children: that read was ~0.7 s of CPU a change)', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sitemap.xml'), indexOf('a.xml', 'b.xml'));
  for (const name of ['a.xml', 'b.xml']) writeFileSync(join(dir, name), urlset(name));
  const { readdir } = fsPromises;
  let listed = 0;
  // Without a base URL the index's children are looked for by the folders in `dir`, listed once per read of the index.
  replaceFs(t, 'readdir', ((...args: Parameters<typeof readdir>) => (listed++, readdir(...args))) as typeof readdir);
  const source = await openDirectorySource({ dir, pollMs: 20 });
  t.after(() => source.close());
  assert.equal(listed, 1);
  writeFileSync(join(dir, 'next.xml'), urlset('new'));
  renameSync(join(dir, 'next.xml'), join(dir, 'b.xml'));
  await until(() => bodyOf(source, 'b.xml') === urlset('new'));
  assert.equal(bodyOf(source, 'b.xml'), urlset('new'));
  assert.equal(listed, 1);
});
