// The fetch handler over an in-memory source: methods, names, conditional requests, negotiation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { acceptsGzip, createSitemapHandler, strongEtag, type SitemapFile, type SitemapSource } from '../../../src/core/serve/handler.js';
import { renderSetPage, viewOfFiles } from '../../../src/core/serve/set-page.js';

const INDEX = '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/maps/s-00001.xml.gz</loc></sitemap></sitemapindex>\n';
const CHILD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>\n';
const MODIFIED = Date.UTC(2026, 0, 2, 3, 4, 5, 678);

async function representation(text: string | Uint8Array): Promise<{ body: Uint8Array; etag: string }> {
  const body = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return { body, etag: await strongEtag(body) };
}

async function memorySource(): Promise<SitemapSource & { files: Map<string, SitemapFile> }> {
  const files = new Map<string, SitemapFile>([
    ['sitemap.xml', { lastModified: MODIFIED, identity: await representation(INDEX), gzip: await representation(gzipSync(INDEX)) }],
    ['s-00001.xml.gz', { lastModified: MODIFIED, gzip: await representation(gzipSync(CHILD)) }],
    ['urls.txt', { lastModified: MODIFIED, identity: await representation('https://example.com/a\n') }],
  ]);
  return { files, file: (name) => files.get(name) };
}

const base = 'https://example.com/maps/';

async function get(path: string, headers: Record<string, string> = {}, method = 'GET', options: { robotsHeader?: boolean; cacheControl?: string } = {}) {
  const handler = createSitemapHandler({ source: await memorySource(), baseUrl: base, ...options });
  // The Host of the request is not the configured one: the handler never looks at it.
  return handler(new Request(`http://evil.test${path}`, { method, headers }));
}

test('GET of the index: plain XML with a strong ETag, Last-Modified at whole seconds, cache and robots headers', async () => {
  const response = await get('/maps/sitemap.xml');
  assert.equal(response.status, 200);
  assert.equal(await response.text(), INDEX);
  assert.equal(response.headers.get('content-type'), 'application/xml; charset=utf-8');
  assert.match(response.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
  assert.equal(response.headers.get('last-modified'), 'Fri, 02 Jan 2026 03:04:05 GMT');
  assert.equal(response.headers.get('cache-control'), 'public, max-age=300');
  assert.equal(response.headers.get('x-robots-tag'), 'noindex');
  assert.equal(response.headers.get('vary'), 'accept-encoding');
  assert.equal(response.headers.get('content-encoding'), null);
  assert.equal(response.headers.get('content-length'), String(Buffer.byteLength(INDEX)));
});

test('the robots header can be turned off and Cache-Control set', async () => {
  const response = await get('/maps/sitemap.xml', {}, 'GET', { robotsHeader: false, cacheControl: 'no-cache' });
  assert.equal(response.headers.get('x-robots-tag'), null);
  assert.equal(response.headers.get('cache-control'), 'no-cache');
});

test('a .xml request accepting gzip gets the precompressed bytes with Content-Encoding and Vary', async () => {
  const handler = createSitemapHandler({ source: await memorySource(), baseUrl: base });
  const answer = await handler.answer('GET', '/maps/s-00001.xml', (name) => (name === 'accept-encoding' ? 'br, gzip;q=0.5' : undefined));
  assert.equal(answer.status, 200);
  const headers = Object.fromEntries(pairs(answer.headers));
  assert.equal(headers['content-encoding'], 'gzip');
  assert.equal(headers['vary'], 'accept-encoding');
  assert.equal(headers['content-type'], 'application/xml; charset=utf-8');
  assert.deepEqual(Buffer.from(answer.body as Uint8Array), gzipSync(CHILD));
});

test('a text sitemap with a gzipped copy (a directory source makes one) is negotiated with Vary, 304 too', async () => {
  const text = 'https://example.com/a\n';
  const file: SitemapFile = { lastModified: MODIFIED, identity: await representation(text), gzip: await representation(gzipSync(text)) };
  const handler = createSitemapHandler({ source: { file: (name) => (name === 'urls.txt' ? file : undefined) }, baseUrl: base });
  for (const [accept, match] of [['gzip', undefined], [undefined, undefined], [undefined, file.identity?.etag]]) {
    const answer = await handler.answer('GET', '/maps/urls.txt', (name) => (name === 'accept-encoding' ? accept : name === 'if-none-match' ? match : undefined));
    assert.equal(Object.fromEntries(pairs(answer.headers))['vary'], 'accept-encoding', `${answer.status} ${accept}`);
  }
});

test('a .xml request not accepting gzip gets plain XML decompressed as a stream, with its own ETag', async () => {
  for (const acceptEncoding of [undefined, 'identity', 'gzip;q=0', 'br', '*;q=0']) {
    const response = await get('/maps/s-00001.xml', acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding });
    assert.equal(response.status, 200, acceptEncoding);
    assert.equal(response.headers.get('content-encoding'), null, acceptEncoding);
    assert.equal(await response.text(), CHILD, acceptEncoding);
    assert.match(response.headers.get('etag') ?? '', /-identity"$/);
  }
  // `*` accepts gzip.
  const handler = createSitemapHandler({ source: await memorySource(), baseUrl: base });
  const answer = await handler.answer('GET', '/maps/s-00001.xml', (name) => (name === 'accept-encoding' ? '*' : undefined));
  assert.equal(Object.fromEntries(pairs(answer.headers))['content-encoding'], 'gzip');
});

test('Accept-Encoding as RFC 9110 §12.5.3 reads it: the most explicit entry for gzip decides, x-gzip its alias, q=0 refuses', async () => {
  // [value, accepts gzip, what nginx 1.22's gzip_static does when it differs]
  const table: [string | string[] | undefined, boolean, string?][] = [
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['GZIP', true],
    ['gzip;q=0.5', true],
    ['gzip; q=0.001', true],
    ['gzip;q=0', false],
    ['gzip;Q=0', false],
    ['gzip ;q=0.000', false],
    ['gzip;q=', false],
    ['gzip;q=abc', false],
    ['x-gzip', true, 'nginx: identity (it does not know the alias)'],
    ['x-gzip;q=0', false],
    // The canonical name is more explicit than its alias, whichever comes first.
    ['x-gzip;q=0, gzip', true],
    ['gzip, x-gzip;q=0', true],
    ['gzip;q=0, x-gzip', false],
    ['*', true, 'nginx: identity (it ignores *)'],
    ['*;q=0', false],
    // An explicit entry beats `*` in either order.
    ['gzip;q=0, *', false],
    ['*, gzip;q=0', false],
    ['*;q=0, gzip', true],
    ['identity;q=0, *', true, 'nginx: identity'],
    // identity says nothing of gzip; gzip not listed and no `*`: not acceptable (identity is sent).
    ['identity;q=0', false],
    ['identity;q=0, *;q=0', false],
    ['br, deflate', false],
    ['br, gzip;q=0.5', true],
    ['gzipfoo, xgzip', false],
    [['br', 'gzip'], true],
    [['x-gzip;q=0', 'gzip'], true],
  ];
  for (const [value, accepts] of table) assert.equal(acceptsGzip(value), accepts, JSON.stringify(value));
  const answer = await get('/maps/s-00001.xml', { 'accept-encoding': 'x-gzip;q=0, gzip' });
  assert.equal(answer.headers.get('content-encoding'), 'gzip');
});

test('a .xml.gz child is application/gzip, the file itself, no Content-Encoding; .txt is text/plain', async () => {
  const gz = await get('/maps/s-00001.xml.gz', { 'accept-encoding': 'gzip' });
  assert.equal(gz.headers.get('content-type'), 'application/gzip');
  assert.equal(gz.headers.get('content-encoding'), null);
  assert.equal(gz.headers.get('vary'), null);
  const text = await get('/maps/urls.txt');
  assert.equal(text.headers.get('content-type'), 'text/plain; charset=utf-8');
});

test('HEAD has the headers of GET and no body; other methods are 405 with Allow', async () => {
  const head = await get('/maps/sitemap.xml', {}, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(INDEX)));
  assert.equal(await head.text(), '');
  for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
    const response = await get('/maps/sitemap.xml', {}, method);
    assert.equal(response.status, 405, method);
    assert.equal(response.headers.get('allow'), 'GET, HEAD');
  }
  // A path that names no file is 404 for every method (as middleware, the app answers it).
  assert.equal((await get('/maps/nope.xml', {}, 'POST')).status, 404);
  assert.equal((await get('/api/items', {}, 'POST')).status, 404);
  // HEAD has no body whatever the status (RFC 9110 §9.3.2): an error's headers, Content-Length too, without its text.
  for (const [headers, path, status] of [[{}, '/maps/nope.xml', 404], [{ 'if-match': '"other"' }, '/maps/sitemap.xml', 412]] as const) {
    const response = await get(path, headers, 'HEAD');
    assert.deepEqual([response.status, response.headers.get('content-length') !== null, await response.text()], [status, true, ''], path);
  }
});

test('conditional requests: If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2)', async () => {
  const etag = (await get('/maps/sitemap.xml')).headers.get('etag') as string;
  const lastModified = 'Fri, 02 Jan 2026 03:04:05 GMT';
  const cases: [Record<string, string>, number][] = [
    [{ 'if-none-match': etag }, 304],
    [{ 'if-none-match': `W/${etag}` }, 304],
    [{ 'if-none-match': `"other", ${etag}` }, 304],
    [{ 'if-none-match': '*' }, 304],
    [{ 'if-none-match': '"other"' }, 200],
    // If-None-Match present: If-Modified-Since is not looked at.
    [{ 'if-none-match': '"other"', 'if-modified-since': lastModified }, 200],
    [{ 'if-modified-since': lastModified }, 304],
    [{ 'if-modified-since': 'Fri, 02 Jan 2026 03:04:04 GMT' }, 200],
    [{ 'if-modified-since': 'Sunday, 06-Nov-94 08:49:37 GMT' }, 200],
    [{ 'if-modified-since': 'Sat Jan  3 00:00:00 2026' }, 304],
    // Not a date: ignored.
    [{ 'if-modified-since': '1' }, 200],
    [{ 'if-match': '"other"' }, 412],
    [{ 'if-match': etag, 'if-none-match': etag }, 304],
    [{ 'if-match': `W/${etag}` }, 412],
    [{ 'if-unmodified-since': 'Fri, 02 Jan 2026 03:04:04 GMT' }, 412],
    [{ 'if-unmodified-since': lastModified }, 200],
  ];
  for (const [headers, status] of cases) {
    const response = await get('/maps/sitemap.xml', headers);
    assert.equal(response.status, status, JSON.stringify(headers));
    if (status === 304) {
      assert.equal(await response.text(), '');
      assert.equal(response.headers.get('etag'), etag);
      assert.equal(response.headers.get('vary'), 'accept-encoding');
      assert.equal(response.headers.get('content-length'), null);
      // Only what updates a stored copy (RFC 9110 §15.4.5): with an ETag, no Last-Modified nor other metadata.
      assert.equal(response.headers.get('cache-control'), 'public, max-age=300');
      assert.equal(response.headers.get('last-modified'), null);
      assert.equal(response.headers.get('x-robots-tag'), null);
    }
  }
  // A gzip answer has its own tag: the identity tag does not validate it.
  const gzipped = await get('/maps/sitemap.xml', { 'accept-encoding': 'gzip', 'if-none-match': etag });
  assert.equal(gzipped.status, 200);
});

test('HTTP dates as RFC 9110 §5.6.7 reads them: an RFC 850 two-digit year not more than 50 years ahead of now, else in the past; a date that is none is ignored', async (t) => {
  // The file last changed on 2 January 2026.
  const cases: [number, Record<string, string>, number][] = [
    // Now is 27 November 2026, noon: -76 is 2076 up to 50 years ahead, 1976 beyond.
    [Date.UTC(2026, 10, 27, 12), { 'if-modified-since': 'Friday, 06-Nov-76 08:49:37 GMT' }, 304],
    [Date.UTC(2026, 10, 27, 12), { 'if-modified-since': 'Friday, 27-Nov-76 12:00:01 GMT' }, 200],
    [Date.UTC(2026, 10, 27, 12), { 'if-unmodified-since': 'Saturday, 06-Nov-60 08:49:37 GMT' }, 200],
    [Date.UTC(2026, 10, 27, 12), { 'if-unmodified-since': 'Sunday, 06-Nov-94 08:49:37 GMT' }, 412],
    [Date.UTC(2026, 10, 27, 12), { 'if-modified-since': 'Thursday, 06-Nov-25 08:49:37 GMT' }, 200],
    // In 2060, -94 is 2094.
    [Date.UTC(2060, 0, 1), { 'if-modified-since': 'Saturday, 06-Nov-94 08:49:37 GMT' }, 304],
    // No such day, no such hour: not a date, ignored (RFC 9110 §13.1.3). Second 60 is a leap second.
    [Date.UTC(2026, 10, 27), { 'if-modified-since': 'Tue, 31 Feb 2026 08:49:37 GMT' }, 200],
    [Date.UTC(2026, 10, 27), { 'if-modified-since': 'Fri, 02 Jan 2026 24:00:00 GMT' }, 200],
    [Date.UTC(2026, 10, 27), { 'if-unmodified-since': 'Fri, 02 Jan 2026 03:03:60 GMT' }, 412],
    [Date.UTC(2026, 10, 27), { 'if-modified-since': 'Fri, 02 Jan 2026 03:04:60 GMT' }, 304],
    [Date.UTC(2026, 10, 27), { 'if-modified-since': 'Fri Jan  2 03:04:05 2026' }, 304],
  ];
  for (const [now, headers, status] of cases) {
    t.mock.method(Date, 'now', () => now);
    assert.equal((await get('/maps/sitemap.xml', headers)).status, status, `${new Date(now).toISOString()} ${JSON.stringify(headers)}`);
    t.mock.restoreAll();
  }
});

test('Last-Modified is never later than now, and a client sending it back is answered 304 later on too', async (t) => {
  const source = await memorySource();
  const future = Date.now() + 86_400_000;
  source.files.set('sitemap.xml', { ...(source.files.get('sitemap.xml') as SitemapFile), lastModified: future });
  const handler = createSitemapHandler({ source });
  const response = await handler(new Request('http://x/sitemap.xml'));
  const sent = response.headers.get('last-modified') as string;
  assert.ok(Date.parse(sent) <= Date.now());
  // Seconds later (the file's time still ahead): the date sent is still the date compared.
  const later = Date.now() + 5_000;
  t.mock.method(Date, 'now', () => later);
  const again = await handler(new Request('http://x/sitemap.xml', { headers: { 'if-modified-since': sent } }));
  assert.equal(again.status, 304);
  assert.equal((await handler(new Request('http://x/sitemap.xml'))).headers.get('last-modified'), sent);
});

test('only names of the set below the base path are served; path tricks are 404', async () => {
  const handler = createSitemapHandler({ source: await memorySource(), baseUrl: base });
  const targets = [
    '/sitemap.xml', '/maps/', '/maps', '/maps/other.xml', '/maps/..%2fsitemap.xml', '/maps/../sitemap.xml', '/maps/%2e%2e/sitemap.xml', '/../sitemap.xml',
    '/maps/%2fsitemap.xml', '/maps/%5csitemap.xml', '/maps/..%5csitemap.xml', '/maps/%252e%252e/sitemap.xml', '/maps//sitemap.xml', '/maps/sitemap.xml/.',
    '//maps/sitemap.xml', '/maps/sitemap.xml%00', '/maps/sitemap.xml\0', '/maps/.sitemap.xml', '/maps/.sitemapkit/state', '/maps/sub/sitemap.xml',
    '/maps/\\sitemap.xml', 'maps/sitemap.xml', '/maps/sitemap.xml.gz', '/maps/s-00001.txt', '/maps/urls.txt.gz', '*',
  ];
  for (const target of targets) {
    const answer = await handler.answer('GET', target, () => undefined);
    assert.equal(answer.status, 404, target);
  }
  for (const target of ['/maps/sitemap.xml', '/maps/sitemap.xml?x=1', 'http://other.test/maps/sitemap.xml', '/maps/s-00001.xml.gz']) {
    assert.equal((await handler.answer('GET', target, () => undefined)).status, 200, target);
  }
});

test('other spellings of a path (RFC 3986 §6.2.2: dot segments, percent-encoded unreserved characters) answer the same bytes, as nginx does', async () => {
  const handler = createSitemapHandler({ source: await memorySource(), baseUrl: base });
  const bytes = async (target: string): Promise<string> => {
    const { status, body } = await handler.answer('GET', target, () => undefined);
    return `${status} ${body instanceof Uint8Array ? Buffer.from(body).toString() : ''}`;
  };
  for (const target of ['/maps/./sitemap.xml', '/maps/x/../sitemap.xml', '/maps/../maps/sitemap.xml', '/maps/%2e%2e/maps/sitemap.xml', '/maps/x/.%2E/sitemap.xml', '/../maps/sitemap.xml', '/maps/%73itemap%2Exml', '/%6Daps/sitemap.xml?x', 'http://other.test/x/../maps/sitemap.xml']) {
    assert.equal(await bytes(target), `200 ${INDEX}`, target);
  }
});

test('a source that throws (or rejects) is a 503 with Retry-After', async () => {
  for (const source of [{ file: (): never => { throw new Error('down'); } }, { file: async (): Promise<never> => { throw new Error('down'); } }]) {
    const response = await createSitemapHandler({ source })(new Request('http://x/sitemap.xml'));
    assert.equal(response.status, 503);
    assert.ok(Number(response.headers.get('retry-after')) > 0);
  }
});

function pairs(flat: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i] as string, flat[i + 1] as string]);
  return out;
}

test('the page for people: the set as HTML at its own address, escaped, under a strict policy; never at a sitemap address', async () => {
  const { createHash } = await import('node:crypto');
  const source = await memorySource();
  const view = {
    lastModified: MODIFIED,
    files: [{ name: 's-00001.xml.gz', urls: 2, lastmod: '2026-01-02' }],
    urls: [{ loc: 'https://example.com/a?x=1&y=<b>"', lastmod: '2026-01-02' }, { loc: 'https://example.com/b' }],
    totalUrls: 2,
  };
  const withView = { ...source, view: () => view };
  const handler = createSitemapHandler({ source: withView, baseUrl: base });
  const page = await handler(new Request('http://x/maps/sitemap.html'));
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(page.headers.get('x-robots-tag'), 'noindex');
  const html = await page.text();
  assert.ok(html.includes('https://example.com/a?x=1&amp;y=&lt;b&gt;&quot;'), html);
  assert.ok(!html.includes('<b>'));
  assert.match(html, /2 URLs in 1 file; newest lastmod 2026-01-02/);
  // The one inline script is allowed by its hash, and nothing else is.
  const script = (/<script>([\s\S]*?)<\/script>/.exec(html) as RegExpExecArray)[1] as string;
  const policy = page.headers.get('content-security-policy') ?? '';
  assert.ok(policy.includes(`'sha256-${createHash('sha256').update(script).digest('base64')}'`), policy);
  assert.match(policy, /default-src 'none'/);
  // Conditional requests work there too.
  assert.equal((await handler(new Request('http://x/maps/sitemap.html', { headers: { 'if-none-match': page.headers.get('etag') as string } }))).status, 304);
  // The sitemap's own address stays XML, whatever the client accepts.
  const xml = await handler(new Request('http://x/maps/sitemap.xml', { headers: { accept: 'text/html' } }));
  assert.equal(xml.headers.get('content-type'), 'application/xml; charset=utf-8');
  // No page: turned off, or a source without a view.
  assert.equal((await createSitemapHandler({ source: withView, baseUrl: base, page: false })(new Request('http://x/maps/sitemap.html'))).status, 404);
  assert.equal((await createSitemapHandler({ source, baseUrl: base })(new Request('http://x/maps/sitemap.html'))).status, 404);
  assert.equal((await handler(new Request('http://x/maps/other.html'))).status, 404);
});

test('a base URL that is no absolute http(s) URL is refused when the handler is made: base-url/invalid, as liveSource refuses it', async () => {
  const { InvalidValueError } = await import('../../../src/core/errors.js');
  for (const baseUrl of ['not a url', '/maps/', 'ftp://example.com/maps/']) {
    assert.throws(() => createSitemapHandler({ source: { file: () => undefined }, baseUrl }), (error: unknown) => error instanceof InvalidValueError && error.rule === 'base-url/invalid', baseUrl);
  }
});

test('Range (RFC 9110 §14) as nginx answers one range: 206 with Content-Range, 416 past the end; several or malformed ones are ignored (200)', async () => {
  const whole = Buffer.from(INDEX);
  const size = whole.byteLength;
  const ranged = async (range: string, headers: Record<string, string> = {}, method = 'GET') => {
    const response = await get('/maps/sitemap.xml', { 'accept-encoding': 'identity', range, ...headers }, method);
    return { status: response.status, range: response.headers.get('content-range'), length: response.headers.get('content-length'), body: Buffer.from(await response.arrayBuffer()) };
  };
  for (const [range, first, last] of [['bytes=0-9', 0, 9], ['bytes=-10', size - 10, size - 1], ['bytes=10-', 10, size - 1], ['BYTES=5-5', 5, 5], ['bytes=20-99999', 20, size - 1], ['bytes=-99999', 0, size - 1], ['bytes= 0-9', 0, 9], ['bytes=,0-9,', 0, 9]] as const) {
    const answer = await ranged(range);
    assert.deepEqual([answer.status, answer.range, answer.length], [206, `bytes ${first}-${last}/${size}`, String(last - first + 1)], range);
    assert.deepEqual(answer.body, whole.subarray(first, last + 1), range);
  }
  for (const range of [`bytes=${size}-`, 'bytes=99999-', 'bytes=-0']) {
    const answer = await ranged(range);
    assert.deepEqual([answer.status, answer.range], [416, `bytes */${size}`], range);
  }
  // What a server may ignore: several ranges (nginx answers multipart/byteranges), another unit, what does not parse.
  for (const range of ['bytes=0-0,5-9', 'items=0-9', 'bytes=5-2', 'bytes=abc', 'bytes = 0-9', 'bytes=-']) {
    const answer = await ranged(range);
    assert.deepEqual([answer.status, answer.range, answer.body.byteLength], [200, null, size], range);
  }
  // HEAD: range handling is defined for GET only (§14.2).
  assert.equal((await ranged('bytes=0-9', {}, 'HEAD')).status, 200);
  // If-Range (§13.1.5): the strong tag; else the whole body. A date, even exactly the Last-Modified, is not
  // strong (§8.8.2.2: two versions may share its second), so it never gets a range.
  const full = await get('/maps/sitemap.xml', { 'accept-encoding': 'identity' });
  assert.equal(full.headers.get('accept-ranges'), 'bytes');
  const etag = full.headers.get('etag') as string;
  for (const [ifRange, status] of [[etag, 206], [full.headers.get('last-modified') as string, 200], [`W/${etag}`, 200], ['"other"', 200], ['Fri, 02 Jan 2026 03:04:04 GMT', 200], ['junk', 200]] as const) {
    assert.equal((await ranged('bytes=0-9', { 'if-range': ifRange })).status, status, ifRange);
  }
  // The gzip bytes sent for .xml are ranged as they are (the selected representation); decompressed as a stream, not at all.
  const encoded = await get('/maps/sitemap.xml', { 'accept-encoding': 'gzip', range: 'bytes=0-1' });
  assert.deepEqual([encoded.status, encoded.headers.get('content-encoding'), [...Buffer.from(await encoded.arrayBuffer())]], [206, 'gzip', [0x1f, 0x8b]]);
  const decoded = await get('/maps/s-00001.xml', { 'accept-encoding': 'identity', range: 'bytes=0-1' });
  assert.deepEqual([decoded.status, decoded.headers.get('accept-ranges'), await decoded.text()], [200, null, CHILD]);
});

test('the page for people names the newest lastmod that is a date, passing over one that is not', () => {
  const files = [{ name: 'a.xml', urls: 1, lastmod: 'soon' }, { name: 'b.xml', urls: 1, lastmod: '2024-01-01' }, { name: 'c.xml', urls: 1, lastmod: '2023-12-31T23:00:00-02:00' }];
  const html = renderSetPage({ lastModified: 0, files, urls: [], totalUrls: 3 }, 'S');
  assert.match(html, /newest lastmod 2023-12-31T23:00:00-02:00/);
});

test("a file's newest lastmod on the page: the latest instant (offsets counted, the first of equal ones), one that is not a date passed over", async () => {
  const lastmods = ['soon', '2024-01-01', '2023-12-31T23:00:00-02:00', '2024-01-01T01:00:00Z', '2023-06-01'];
  const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${lastmods.map((m, i) => `<url><loc>https://example.com/${i}</loc><lastmod>${m}</lastmod></url>`).join('')}</urlset>`;
  const view = await viewOfFiles(0, [{ name: 'a.xml', file: { lastModified: 0, identity: await representation(xml) } }], 2);
  assert.deepEqual(view.files, [{ name: 'a.xml', urls: 5, lastmod: '2023-12-31T23:00:00-02:00' }]);
  assert.deepEqual(view.urls, [{ loc: 'https://example.com/0', lastmod: 'soon' }, { loc: 'https://example.com/1', lastmod: '2024-01-01' }]);
});
