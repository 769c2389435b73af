// The synthetic built site of bench/build.js: the output folder of a static site generator, N HTML
// pages (100,000 by default) in 20 sections, written deterministically (mulberry32) so that every run,
// and every process, sees the same pages.
//
// Layout (URLs as `sitemapkit build --base-url https://www.example.com/` lists them by default):
//   index.html                                → https://www.example.com/
//   SECTION/index.html                        → …/SECTION/              (one per section)
//   SECTION/TOPIC/index.html                  → …/SECTION/TOPIC/        (one per ~250 pages)
//   SECTION/TOPIC/WORD-WORD-WORD-K.html       → …/SECTION/TOPIC/WORD-WORD-WORD-K.html
// Sections are unequal, as on real sites: `products` holds 52% of the pages (52,000 of 100,000: more
// than one sitemap file holds, so the build splits it into hash buckets), the smallest 1% each.
//
// Every page is a whole document of about 5–10 KB: head (title, description, self-canonical, Open
// Graph, JSON-LD), header with the 20-section navigation, breadcrumbs, an article of 3–9 paragraphs
// with inline links to other pages and 1–3 images, a related-pages aside, a footer. And build noise, as
// a real generator leaves it, which changes on every build although the page does not:
//   - the build id and build time in an HTML comment after the doctype;
//   - the build id and time in an inline <script> (window.__BUILD__);
//   - `?v=BUILDID` cache-busting queries on the stylesheet and the script;
//   - content-hashed asset names (`/assets/app.3f2a1b9c.js`, `/assets/site.0c1d2e3f.css`) that change
//     from one build to the next.
// A page's real content changes only with its `revision` (0 at first): one paragraph of the article
// is replaced by another text.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mulberry32 } from './entries.js';

export const BASE_URL = 'https://www.example.com/';
export const SITE_SEED = 0xb111_d5e5;
export const DEFAULT_PAGES = 100_000;
/** About this many pages per topic folder. */
const TOPIC_PAGES = 250;

/** The 20 sections and their share of the pages (in %, summing to 100). */
export const SECTIONS = [
  ['products', 52], ['blog', 8], ['docs', 6], ['news', 5], ['help', 4], ['recipes', 3], ['reviews', 3],
  ['guides', 2], ['events', 2], ['stores', 2], ['community', 2], ['learn', 2], ['careers', 2],
  ['press', 1], ['partners', 1], ['api', 1], ['legal', 1], ['about', 1], ['authors', 1], ['support', 1],
].map(([name, weight]) => ({ name, weight }));

const WORDS = (
  'the of and to in is that for it as was with be by on not he this are or his from at which but have an they you ' +
  'were her she there been one all we their has would when if so no will more can out who them some time could ' +
  'about into than only other new people year way may should also after first well work over just any most even ' +
  'because these two use good make through back much before must great where made right think still between ' +
  'garden kitchen travel summer winter coffee bicycle mountain river market design camera battery window light ' +
  'season recipe bread cheese tomato pepper ocean forest city village museum library concert festival weekend ' +
  'review guide price quality delivery warranty feature update release version support account order return ' +
  'simple quick easy careful modern classic local fresh quiet bright heavy small large early late daily weekly'
).split(' ');
const SLUG_WORDS = WORDS.slice(WORDS.indexOf('garden'));
const CAPS = (w) => w[0].toUpperCase() + w.slice(1);

/** Paragraphs the pages are made of: 4,096 of 200–550 characters, drawn once. */
const POOL_SIZE = 4096;
let pool;
function paragraphs() {
  if (pool !== undefined) return pool;
  const rand = mulberry32(SITE_SEED ^ 0x9a7a);
  pool = [];
  for (let p = 0; p < POOL_SIZE; p++) {
    const target = 200 + Math.floor(rand() * 350);
    let text = '';
    while (text.length < target) {
      const n = 8 + Math.floor(rand() * 13);
      const words = [];
      for (let k = 0; k < n; k++) words.push(WORDS[Math.floor(rand() * WORDS.length)]);
      words[0] = CAPS(words[0]);
      text += (text === '' ? '' : ' ') + words.join(' ') + (rand() < 0.1 ? '?' : '.');
    }
    pool.push(text);
  }
  return pool;
}

/** A page's own random stream: the page can be rendered alone, in any order. */
function pageRandom(i) {
  return mulberry32(SITE_SEED ^ Math.imul(i + 1, 0x9e37_79b1));
}

/**
 * The site's pages, in a fixed order: `{ i, relPath, path, url, section, kind }` (`path` is the URL
 * path, `/…`; kind `home`, `section`, `topic` or `page`), and the sections with their page counts.
 */
export function planSite(total = DEFAULT_PAGES) {
  if (total < 1 + 2 * SECTIONS.length) throw new RangeError(`a site needs at least ${1 + 2 * SECTIONS.length} pages`);
  // The home page, then the rest dealt by weight (largest remainder), at least 2 a section.
  const rest = total - 1;
  const exact = SECTIONS.map((s) => (rest * s.weight) / 100);
  const counts = exact.map((x) => Math.max(2, Math.floor(x)));
  let left = rest - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, k) => [x - Math.floor(x), k]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let j = 0; left > 0; j = (j + 1) % order.length, left--) counts[order[j][1]]++;
  for (let k = counts.length - 1; left < 0; k = (k - 1 + counts.length) % counts.length) {
    if (counts[k] > 2) {
      counts[k]--;
      left++;
    }
  }
  const pages = [{ i: 0, relPath: 'index.html', path: '/', section: '', kind: 'home' }];
  const sections = [];
  SECTIONS.forEach(({ name }, s) => {
    const n = counts[s];
    sections.push({ name, pages: n, first: pages.length });
    pages.push({ i: pages.length, relPath: `${name}/index.html`, path: `/${name}/`, section: name, kind: 'section' });
    // n − 1 pages: `topics` topic indexes and the leaves under them.
    const topics = Math.max(1, Math.round((n - 1) / (TOPIC_PAGES + 1)));
    const leaves = n - 1 - topics;
    const topicNames = [];
    for (let t = 0; t < topics; t++) {
      const word = SLUG_WORDS[(t * 7 + s * 3) % SLUG_WORDS.length];
      topicNames.push(t < SLUG_WORDS.length ? word : `${word}-${Math.floor(t / SLUG_WORDS.length) + 1}`);
    }
    let leaf = 0;
    for (let t = 0; t < topics; t++) {
      const topic = topicNames[t];
      pages.push({ i: pages.length, relPath: `${name}/${topic}/index.html`, path: `/${name}/${topic}/`, section: name, kind: 'topic' });
      const end = Math.floor(((t + 1) * leaves) / topics);
      for (; leaf < end; leaf++) {
        const rand = pageRandom(pages.length);
        const slug = [0, 1, 2].map(() => SLUG_WORDS[Math.floor(rand() * SLUG_WORDS.length)]).join('-') + `-${leaf + 1}`;
        pages.push({ i: pages.length, relPath: `${name}/${topic}/${slug}.html`, path: `/${name}/${topic}/${slug}.html`, section: name, kind: 'page' });
      }
    }
  });
  for (const page of pages) page.url = BASE_URL + page.path.slice(1);
  return { total, pages, sections };
}

/** A build: its id (20 hex digits), its time, and the content hashes of its assets. */
export function makeBuild(label, epochSeconds) {
  let h = 0x811c9dc5;
  for (const c of label) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  const rand = mulberry32(h);
  const hex = (n) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
  return { label, id: hex(20), time: new Date(epochSeconds * 1000).toISOString(), app: hex(8), vendor: hex(8), css: hex(8) };
}

function navigation() {
  const items = SECTIONS.map(({ name }) => `        <li><a href="/${name}/">${CAPS(name)}</a></li>`).join('\n');
  return `    <nav class="site-nav" aria-label="Main">\n      <ul>\n${items}\n      </ul>\n    </nav>`;
}

const FOOTER = `  <footer class="site-footer">
    <div class="footer-columns">
      <section><h2>Company</h2><ul><li><a href="/about/">About us</a></li><li><a href="/careers/">Careers</a></li><li><a href="/press/">Press</a></li><li><a href="/partners/">Partners</a></li></ul></section>
      <section><h2>Help</h2><ul><li><a href="/help/">Help centre</a></li><li><a href="/support/">Contact support</a></li><li><a href="/stores/">Find a store</a></li></ul></section>
      <section><h2>Legal</h2><ul><li><a href="/legal/">Terms</a></li><li><a href="/legal/">Privacy</a></li><li><a href="/legal/">Cookies</a></li></ul></section>
    </div>
    <p class="copyright">© 2016–2025 Example Ltd. All rights reserved.</p>
  </footer>`;

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/**
 * The HTML of `page` as `build` writes it; `revision` counts the changes of its real content (0: as
 * first written). Deterministic: the same (page, build, revision) gives the same bytes.
 */
export function renderPage(site, page, build, revision = 0) {
  const texts = paragraphs();
  const rand = pageRandom(page.i);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const words = 3 + Math.floor(rand() * 4);
  const title = Array.from({ length: words }, () => CAPS(pick(SLUG_WORDS))).join(' ');
  const published = new Date(Date.UTC(2016, 0, 1) + Math.floor(rand() * 3300) * 86_400_000).toISOString().slice(0, 10);
  const count = 3 + Math.floor(rand() * 7);
  const chosen = Array.from({ length: count }, () => Math.floor(rand() * POOL_SIZE));
  const other = () => site.pages[Math.floor(rand() * site.pages.length)];
  const links = Array.from({ length: 3 }, other);
  const related = Array.from({ length: 5 }, other);
  const images = 1 + Math.floor(rand() * 3);
  const author = pick(SLUG_WORDS);
  const description = texts[chosen[0]].slice(0, 150);
  // The real change: a paragraph replaced by another text.
  if (revision > 0) {
    const at = (page.i + revision) % count;
    chosen[at] = (chosen[at] + 1 + ((revision * 977 + page.i) % (POOL_SIZE - 1))) % POOL_SIZE; // never the same one
  }

  const sectionTitle = page.section === '' ? '' : CAPS(page.section);
  const crumbs = ['<a href="/">Home</a>'];
  if (page.kind !== 'home') crumbs.push(`<a href="/${page.section}/">${sectionTitle}</a>`);
  if (page.kind === 'page') crumbs.push(`<a href="${page.path.slice(0, page.path.lastIndexOf('/') + 1)}">${CAPS(page.path.split('/')[2])}</a>`);
  const body = [];
  chosen.forEach((p, k) => {
    let text = texts[p];
    if (k < links.length) {
      // One word in the middle becomes a link to another page of the site.
      const cut = text.indexOf(' ', text.length >> 1);
      const end = cut < 0 ? -1 : text.indexOf(' ', cut + 1);
      if (end > 0) text = `${text.slice(0, cut + 1)}<a href="${links[k].path}">${text.slice(cut + 1, end)}</a>${text.slice(end)}`;
    }
    if (k === 2) body.push(`        <h2>${CAPS(pick(SLUG_WORDS))} and ${pick(SLUG_WORDS)}</h2>`);
    if (k < images) {
      const img = `/images/${page.section || 'home'}/${page.i.toString(36)}-${k + 1}.jpg`;
      body.push(`        <figure><img src="${img}" alt="${escapeHtml(title)} ${k + 1}" width="800" height="533" loading="lazy"><figcaption>${texts[p].slice(0, 60)}</figcaption></figure>`);
    }
    body.push(`        <p>${text}</p>`);
  });
  if (page.kind === 'section' || page.kind === 'topic') {
    const list = [];
    for (let k = 1; k <= 24 && page.i + k < site.pages.length; k++) {
      const child = site.pages[page.i + k];
      if (child.section !== page.section) break;
      list.push(`          <li><a href="${child.path}">${CAPS(child.path.split('/').filter(Boolean).pop().replace(/\.html$/, '').replace(/-/g, ' '))}</a></li>`);
    }
    if (list.length > 0) body.push('        <ul class="listing">', ...list, '        </ul>');
  }
  const url = page.url;
  return `<!DOCTYPE html>
<!-- Built by Statica 3.8.2 · build ${build.id} · ${build.time} -->
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} | Example</title>
  <meta name="description" content="${escapeHtml(description)}">
  <link rel="canonical" href="${url}">
  <meta property="og:type" content="article">
  <meta property="og:title" content="${escapeHtml(title)}">
  <meta property="og:url" content="${url}">
  <meta property="og:image" content="${BASE_URL}images/${page.section || 'home'}/${page.i.toString(36)}-1.jpg">
  <link rel="icon" href="/favicon.ico">
  <link rel="stylesheet" href="/assets/site.${build.css}.css?v=${build.id}">
  <link rel="modulepreload" href="/assets/vendor.${build.vendor}.js">
  <script>window.__BUILD__ = { id: "${build.id}", time: "${build.time}", env: "production" };</script>
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":${JSON.stringify(title)},"datePublished":"${published}","author":{"@type":"Person","name":${JSON.stringify(CAPS(author))}},"mainEntityOfPage":"${url}"}</script>
</head>
<body class="${page.kind}">
  <header class="site-header">
    <a class="logo" href="/"><img src="/assets/logo.svg" alt="Example" width="120" height="32"></a>
    <form class="search" action="/search/" role="search"><input type="search" name="q" placeholder="Search"><button>Search</button></form>
${navigation()}
  </header>
  <nav class="breadcrumbs" aria-label="Breadcrumb">${crumbs.join(' › ')}</nav>
  <main>
    <article>
      <header>
        <h1>${escapeHtml(title)}</h1>
        <p class="byline">By <a href="/authors/">${CAPS(author)}</a> · <time datetime="${published}">${published}</time></p>
      </header>
      <div class="content">
${body.join('\n')}
      </div>
    </article>
    <aside class="related">
      <h2>Related</h2>
      <ul>
${related.map((r) => `        <li><a href="${r.path}">${CAPS(r.path.split('/').filter(Boolean).pop()?.replace(/\.html$/, '').replace(/-/g, ' ') ?? 'Home')}</a></li>`).join('\n')}
      </ul>
    </aside>
  </main>
${FOOTER}
  <script src="/assets/app.${build.app}.js?v=${build.id}" defer></script>
</body>
</html>
`;
}

/**
 * Writes every page of `site` as `build` makes it (`revisions`: page index → revision, default 0) into
 * `dir`. Returns `{ files, bytes, minBytes, maxBytes, ms }`.
 */
export function writeSite(dir, site, build, revisions = new Map()) {
  const t0 = performance.now();
  const dirs = new Set();
  for (const page of site.pages) {
    const slash = page.relPath.lastIndexOf('/');
    if (slash > 0) dirs.add(page.relPath.slice(0, slash));
  }
  mkdirSync(dir, { recursive: true });
  for (const d of [...dirs].sort()) mkdirSync(join(dir, d), { recursive: true });
  let bytes = 0;
  let minBytes = Infinity;
  let maxBytes = 0;
  for (const page of site.pages) {
    const html = Buffer.from(renderPage(site, page, build, revisions.get(page.i) ?? 0));
    writeFileSync(join(dir, page.relPath), html);
    bytes += html.length;
    if (html.length < minBytes) minBytes = html.length;
    if (html.length > maxBytes) maxBytes = html.length;
  }
  return { files: site.pages.length, bytes, minBytes, maxBytes, ms: performance.now() - t0 };
}

/** `count` distinct page indexes drawn from `candidates` (a list of indexes), deterministically, sorted. */
export function choosePages(candidates, count, seed) {
  if (count > candidates.length) throw new RangeError(`cannot choose ${count} of ${candidates.length} pages`);
  const rand = mulberry32(seed);
  const a = [...candidates];
  // Partial Fisher–Yates: the first `count` places.
  for (let k = 0; k < count; k++) {
    const j = k + Math.floor(rand() * (a.length - k));
    [a[k], a[j]] = [a[j], a[k]];
  }
  return a.slice(0, count).sort((x, y) => x - y);
}
