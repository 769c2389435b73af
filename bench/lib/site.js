// The loopback site of bench/discover.js: robots.txt → a sitemap index → ten 50,000-URL gzipped urlsets,
// a 40,000-line text sitemap and a 10,000-item RSS 2.0 feed: 550,000 distinct page URLs in all, written
// from the deterministic entries of entries.js, and a plain node:http server for them.
//
// Every URL of the site, pages included, is under http://127.0.0.1:PORT/ (the pages are in the scope of
// the robots.txt and sitemaps that list them), so the files are written for one port: the server
// listens first, then writes the site for its port, then serves it from memory.
//
// Two shapes of the same site: `uniform` (one <url> a line, one lastmod form, the writer's shapes) and
// `realistic` (as bench/lib/realistic.js: 30% of the pages with a query string, so `&amp;` in <loc>;
// lastmod as a date or a date-time in three forms; priorities written 1, 0.5, 1.0; indentation, a
// comment every 1,000 entries, an image on 10% of the entries), on which issue 24's targets are judged.

import { createServer } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BASE_URL, generateEntries } from './entries.js';

export const GZIP_LEVEL = 6;
export const URLSET_FILES = 10;
export const URLS_PER_URLSET = 50_000;
export const TEXT_URLS = 40_000;
export const RSS_ITEMS = 10_000;
export const TOTAL_URLS = URLSET_FILES * URLS_PER_URLSET + TEXT_URLS + RSS_ITEMS;
export const ROBOTS_FILE = 'robots.txt';
export const INDEX_FILE = 'sitemap_index.xml';
export const MANIFEST_FILE = 'site.json';
export const SHAPES = ['uniform', 'realistic'];

/** The documents the index lists, in its order; page URLs are dealt to them in this order too. */
export const DOCUMENTS = [
  ...Array.from({ length: URLSET_FILES }, (_, k) => ({ file: `sitemap-${k + 1}.xml.gz`, kind: 'urlset', urls: URLS_PER_URLSET })),
  { file: 'sitemap.txt', kind: 'text', urls: TEXT_URLS },
  { file: 'feed.rss', kind: 'rss', urls: RSS_ITEMS },
];

export const CONTENT_TYPES = {
  '.xml': 'application/xml',
  '.gz': 'application/gzip',
  '.txt': 'text/plain; charset=utf-8',
  '.rss': 'application/rss+xml',
};

export const origin = (port) => `http://127.0.0.1:${port}`;

/**
 * Yields every page of the site once, in document order: `{ loc, lastmod, changefreq, priority, doc }`,
 * `doc` the index into DOCUMENTS. loc is entries.js's URL moved under the loopback origin, in the
 * WHATWG URL serialisation (the 5% non-ASCII paths percent-encoded as UTF-8), so it is printed the same
 * whether a tool copies it as written or normalises it.
 */
export function* sitePages(port, shape = 'uniform') {
  const base = origin(port) + '/';
  let doc = 0;
  let left = DOCUMENTS[0].urls;
  let k = 0;
  for (const entry of generateEntries(TOTAL_URLS)) {
    if (left === 0) left = DOCUMENTS[++doc].urls;
    left--;
    const path = entry.loc.slice(BASE_URL.length);
    // Only the non-ASCII paths change; everything else is already in its serialised form.
    let loc = /^[\x21-\x7e]*$/.test(path) ? base + path : new URL(path, base).href;
    // The realistic shape: a query string of one to three parameters on 30% of the pages.
    if (shape === 'realistic' && k % 10 < 3) loc += `?id=${k}` + (k % 10 > 0 ? `&ref=r${k % 97}` : '') + (k % 10 > 1 ? `&page=${k % 13}` : '');
    yield { loc, lastmod: entry.lastmod, changefreq: entry.changefreq, priority: entry.priority, doc, k: k++ };
  }
}

const escapeXml = (text) => text.replace(/&/g, '&amp;');

/** lastmod in the forms real files mix: a date, a date-time with an offset, with Z, with a fraction. */
function realisticLastmod(w3c, k) {
  if (k % 5 < 2) return w3c.slice(0, 10);
  if (k % 5 === 2) return w3c;
  return w3c.slice(0, 19) + (k % 5 === 3 ? 'Z' : '.250Z');
}

/** priority as real files write it: `1`, `0.5`, `1.0`, `0.80`. */
const realisticPriority = (p, k) => (k % 3 === 0 ? String(p) : k % 3 === 1 ? p.toFixed(1) : p.toFixed(2));

function realisticUrl(p, port) {
  let out = `  <url>\n    <loc>${escapeXml(p.loc)}</loc>\n    <lastmod>${realisticLastmod(p.lastmod, p.k)}</lastmod>\n`;
  if (p.k % 5 !== 4) out += `    <changefreq>${p.changefreq}</changefreq>\n`;
  if (p.k % 4 !== 3) out += `    <priority>${realisticPriority(p.priority, p.k)}</priority>\n`;
  if (p.k % 10 === 3) out += `    <image:image>\n      <image:loc>${origin(port)}/img/${p.k.toString(36)}.jpg</image:loc>\n    </image:image>\n`;
  return (p.k % 1000 === 0 ? `  <!-- section ${p.k / 1000} -->\n` : '') + out + '  </url>\n';
}

/** `YYYY-MM-DDThh:mm:ss+00:00` → RFC 822 (as RSS 2.0 asks): `Wed, 01 Jan 2020 00:00:00 GMT`. */
const rfc822 = (w3c) => new Date(w3c).toUTCString();

function urlsetXml(pages, shape, port) {
  if (shape === 'realistic') {
    const head = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"\n        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n';
    return head + pages.map((p) => realisticUrl(p, port)).join('') + '</urlset>\n';
  }
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'];
  for (const p of pages) {
    parts.push(`<url><loc>${p.loc}</loc><lastmod>${p.lastmod}</lastmod><changefreq>${p.changefreq}</changefreq><priority>${p.priority.toFixed(1)}</priority></url>\n`);
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

function textSitemap(pages) {
  return pages.map((p) => p.loc + '\n').join('');
}

function rssFeed(pages, port) {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0">\n<channel>\n',
    `<title>bench:discover feed</title>\n<link>${origin(port)}/</link>\n<description>The ${pages.length} most recent pages</description>\n`,
  ];
  pages.forEach((p, k) => parts.push(`<item><title>Page ${k + 1}</title><link>${escapeXml(p.loc)}</link><pubDate>${rfc822(p.lastmod)}</pubDate></item>\n`));
  parts.push('</channel>\n</rss>\n');
  return parts.join('');
}

function indexXml(port, lastmods) {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'];
  DOCUMENTS.forEach((d, k) => parts.push(`<sitemap><loc>${origin(port)}/${d.file}</loc><lastmod>${lastmods[k]}</lastmod></sitemap>\n`));
  parts.push('</sitemapindex>\n');
  return parts.join('');
}

const robotsTxt = (port) => `User-agent: *\nAllow: /\n\nSitemap: ${origin(port)}/${INDEX_FILE}\n`;

/**
 * Writes the site for `port` into `dir` (robots.txt, the index, the twelve documents, site.json).
 * Resolves with the manifest: per file its URL, bytes, content bytes (after gunzip) and pages.
 */
export function writeSite(dir, port, shape = 'uniform') {
  mkdirSync(dir, { recursive: true });
  const files = [];
  const put = (file, content, { kind, urls = 0, gzip = false }) => {
    const text = Buffer.from(content, 'utf8');
    const bytes = gzip ? gzipSync(text, { level: GZIP_LEVEL }) : text;
    writeFileSync(join(dir, file), bytes);
    files.push({ file, url: `${origin(port)}/${file}`, kind, urls, bytes: bytes.length, contentBytes: text.length });
  };
  put(ROBOTS_FILE, robotsTxt(port), { kind: 'robots' });
  const lastmods = [];
  let pages = [];
  let doc = 0;
  const flush = () => {
    const d = DOCUMENTS[doc];
    lastmods.push(pages.reduce((a, p) => (p.lastmod > a ? p.lastmod : a), '').slice(0, 10));
    if (d.kind === 'urlset') put(d.file, urlsetXml(pages, shape, port), { kind: d.kind, urls: pages.length, gzip: true });
    else if (d.kind === 'text') put(d.file, textSitemap(pages), { kind: d.kind, urls: pages.length });
    else put(d.file, rssFeed(pages, port), { kind: d.kind, urls: pages.length });
    pages = [];
  };
  for (const page of sitePages(port, shape)) {
    if (page.doc !== doc) {
      flush();
      doc = page.doc;
    }
    pages.push(page);
  }
  flush();
  put(INDEX_FILE, indexXml(port, lastmods), { kind: 'sitemapindex' });
  const manifest = { origin: origin(port), port, shape, robots: `${origin(port)}/${ROBOTS_FILE}`, index: `${origin(port)}/${INDEX_FILE}`, pages: TOTAL_URLS, gzipLevel: GZIP_LEVEL, files };
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/**
 * A node:http server for the files of `manifest` (read from `dir` into memory), on 127.0.0.1.
 * GET and HEAD; Content-Type by extension, Content-Length, keep-alive (Node's default, 5 s idle);
 * anything else is a 404. `stats()` gives the requests since `reset()`: count, per "METHOD path status",
 * bytes of bodies sent, connections opened and the server process's CPU time.
 */
export function siteServer() {
  const files = new Map();
  let counts;
  let cpuStart;
  const reset = () => {
    counts = { requests: 0, bytes: 0, connections: 0, byRequest: {} };
    cpuStart = process.cpuUsage();
  };
  reset();
  const server = createServer({ keepAlive: true }, (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const file = files.get(path);
    let status;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      status = 405;
      res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': 0, Allow: 'GET, HEAD' }).end();
    } else if (file === undefined) {
      status = 404;
      const body = Buffer.from('not found\n');
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length }).end(req.method === 'HEAD' ? undefined : body);
    } else {
      status = 200;
      res.writeHead(status, { 'Content-Type': file.type, 'Content-Length': file.body.length });
      if (req.method === 'HEAD') res.end();
      else {
        res.end(file.body);
        counts.bytes += file.body.length;
      }
    }
    counts.requests++;
    const key = `${req.method} ${path} ${status}`;
    counts.byRequest[key] = (counts.byRequest[key] ?? 0) + 1;
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', () => counts.connections++);
  return {
    server,
    /** Serves the files of `manifest` from `dir` (replacing any served before). */
    load(dir, manifest) {
      files.clear();
      for (const f of manifest.files) {
        files.set('/' + f.file, { body: readFileSync(join(dir, f.file)), type: f.kind === 'robots' ? 'text/plain; charset=utf-8' : CONTENT_TYPES[extname(f.file)] });
      }
    },
    reset,
    stats() {
      const cpu = process.cpuUsage(cpuStart);
      return { ...counts, cpuMs: (cpu.user + cpu.system) / 1000 };
    },
  };
}

/**
 * Compares `lines` (URLs, in any order) with the site's pages for `port`: how many lines, distinct,
 * duplicated; how many pages found, missing (per document) and lines that are no page (those that are
 * the site's own robots/sitemap URLs counted apart); a few examples of each.
 */
export function compareWithSite(lines, port, shape = 'uniform') {
  const found = new Map();
  for (const line of lines) found.set(line, (found.get(line) ?? 0) + 1);
  const missingByDocument = {};
  const sampleMissing = [];
  let matched = 0;
  for (const page of sitePages(port, shape)) {
    if (found.delete(page.loc)) matched++;
    else {
      const file = DOCUMENTS[page.doc].file;
      missingByDocument[file] = (missingByDocument[file] ?? 0) + 1;
      if (sampleMissing.length < 3) sampleMissing.push(page.loc);
    }
  }
  const siteFiles = new Set([ROBOTS_FILE, INDEX_FILE, ...DOCUMENTS.map((d) => d.file)].map((f) => `${origin(port)}/${f}`));
  let unexpectedSiteFiles = 0;
  const sampleUnexpected = [];
  for (const url of found.keys()) {
    if (siteFiles.has(url)) unexpectedSiteFiles++;
    else if (sampleUnexpected.length < 3) sampleUnexpected.push(url);
  }
  const distinct = matched + found.size;
  return {
    lines: lines.length,
    distinct,
    duplicates: lines.length - distinct,
    expected: TOTAL_URLS,
    matched,
    missing: TOTAL_URLS - matched,
    missingByDocument,
    unexpected: found.size,
    unexpectedSiteFiles,
    sampleMissing,
    sampleUnexpected,
    exact: matched === TOTAL_URLS && lines.length === TOTAL_URLS,
  };
}
