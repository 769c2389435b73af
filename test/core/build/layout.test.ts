import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { pageUrlPath, pageUrlPathVariants } from '../../../src/core/build/page-path.js';
import { bucketCount, bucketOf, childFileName, sectionFileStem, sectionOf } from '../../../src/core/build/partition.js';
import { isErrorPage, selectPages, siteUrlIndex, type PageCandidate } from '../../../src/core/build/select-pages.js';
import { siteAlternates, type AlternateTarget } from '../../../src/core/build/site-alternates.js';
import { parseSourceRule, ruleSource } from '../../../src/core/build/source-rules.js';
import { buildStableSet, type StableEntry } from '../../../src/core/build/stable-set.js';
import { pendingAnnouncements, recordAnnounced, type AnnouncedPage } from '../../../src/core/build/announce.js';
import { LIMITS_PROFILES } from '../../../src/core/model.js';
import { SitemapSetWriter } from '../../../src/core/write/sitemap-set-writer.js';

describe('pageUrlPath', () => {
  const cases: [string, Parameters<typeof pageUrlPath>[1], string][] = [
    ['index.html', {}, ''],
    ['index.html', { trailingSlash: 'never' }, ''],
    ['blog/index.html', {}, 'blog/'],
    ['blog/index.html', { trailingSlash: 'never' }, 'blog'],
    ['blog/index.html', { trailingSlash: 'always' }, 'blog/'],
    ['blog/post.html', {}, 'blog/post.html'],
    ['blog/post.html', { trailingSlash: 'always' }, 'blog/post.html'],
    ['blog/post.html', { cleanUrls: true }, 'blog/post'],
    ['blog/post.html', { cleanUrls: true, trailingSlash: 'always' }, 'blog/post/'],
    ['blog/post.html', { cleanUrls: true, trailingSlash: 'never' }, 'blog/post'],
    // Apache's DirectoryIndex and nginx's index match the name case-sensitively: `blog/` serves no INDEX.HTM.
    ['blog/INDEX.HTM', {}, 'blog/INDEX.HTM'],
    ['blog/index.htm', { trailingSlash: 'never' }, 'blog'],
    ['about.htm', { cleanUrls: true }, 'about'],
    ['a b/c#d?.html', {}, 'a%20b/c%23d%3F.html'],
    ['50%/x.html', {}, '50%25/x.html'],
    ['españa.html', {}, 'espa%C3%B1a.html'],
    ['a:b/c@d.html', {}, 'a:b/c@d.html'],
  ];
  for (const [path, options, expected] of cases) {
    it(`${path} ${JSON.stringify(options)} → ${JSON.stringify(expected)}`, () => assert.equal(pageUrlPath(path, options), expected));
  }

  it('lists every form a static host serves a page under', () => {
    assert.deepEqual(pageUrlPathVariants('index.html'), ['', 'index.html']);
    assert.deepEqual(pageUrlPathVariants('blog/index.html').sort(), ['blog', 'blog/', 'blog/index.html']);
    assert.deepEqual(pageUrlPathVariants('blog/post.html').sort(), ['blog/post', 'blog/post.html', 'blog/post/']);
    assert.deepEqual(pageUrlPathVariants('blog/INDEX.HTM').sort(), ['blog/INDEX', 'blog/INDEX.HTM', 'blog/INDEX/']);
  });

  it('the chosen URL path is always one of the variants', () => {
    const segment = fc.stringMatching(/^[a-z0-9é -]{1,8}$/);
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 3 }), fc.oneof(fc.constant('index.html'), segment.map((s) => `${s}.html`)), fc.constantFrom('always', 'never', 'preserve' as const), fc.boolean(), (dirs, file, trailingSlash, cleanUrls) => {
        const rel = [...dirs, file].join('/');
        assert.ok(pageUrlPathVariants(rel).includes(pageUrlPath(rel, { trailingSlash, cleanUrls })), rel);
      }),
    );
  });
});

describe('sections and buckets', () => {
  it('a page in a directory belongs to its first segment; a top-level page to the root section', () => {
    assert.equal(sectionOf('blog/2024/post.html'), 'blog');
    assert.equal(sectionOf('about.html'), '');
    assert.equal(sectionOf('index.html'), '');
  });

  it('file stems depend on the section name alone and never collide with another section', () => {
    assert.equal(sectionFileStem('sitemap', ''), 'sitemap-root');
    assert.equal(sectionFileStem('sitemap', 'blog'), 'sitemap-blog');
    assert.match(sectionFileStem('sitemap', 'root'), /^sitemap-root-[0-9a-z]{7}$/);
    assert.match(sectionFileStem('sitemap', 'Blog'), /^sitemap-blog-[0-9a-z]{7}$/);
    assert.match(sectionFileStem('sitemap', 'noticias de españa'), /^sitemap-noticias-de-espan-a-[0-9a-z]{7}$|^sitemap-noticias-de-espana-[0-9a-z]{7}$/);
    assert.notEqual(sectionFileStem('sitemap', 'Blog'), sectionFileStem('sitemap', 'BLOG'));
    assert.equal(childFileName('sitemap-blog', 0, 1, true), 'sitemap-blog.xml.gz');
    assert.equal(childFileName('sitemap-blog', 3, 4, false), 'sitemap-blog.3.xml');
    // A split section's files cannot be confused with a section called "blog-1".
    assert.notEqual(childFileName(sectionFileStem('sitemap', 'blog'), 1, 2, true), childFileName(sectionFileStem('sitemap', 'blog-1'), 0, 1, true));
  });

  const sizing = { maxUrls: 100, maxBytes: 1_000_000, overheadBytes: 100 };
  const urls = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `https://example.com/s/${i + from}`);

  it('a section that fits stays whole; one that outgrows the limits is split in hash buckets that each fit', () => {
    assert.equal(bucketCount(urls(100), new Array(100).fill(50), sizing), 1);
    const many = urls(101);
    const buckets = bucketCount(many, new Array(101).fill(50), sizing);
    assert.ok(buckets >= 2);
    const counts = new Array(buckets).fill(0);
    for (const url of many) counts[bucketOf(url, buckets)]++;
    assert.ok(counts.every((c) => c <= 100), String(counts));
  });

  it('the byte limit splits too', () => {
    assert.equal(bucketCount(urls(10), new Array(10).fill(50_000), { ...sizing, maxBytes: 600_000 }), 1);
    assert.ok(bucketCount(urls(20), new Array(20).fill(50_000), { ...sizing, maxBytes: 600_000 }) >= 2);
  });

  it('the news limit splits too: no bucket holds more entries with <news:news> than a file may', () => {
    const news = new Array(30).fill(true);
    assert.equal(bucketCount(urls(30), new Array(30).fill(50), { ...sizing, maxNews: 30 }, 1, news), 1);
    const buckets = bucketCount(urls(30), new Array(30).fill(50), { ...sizing, maxNews: 20 }, 1, news);
    assert.ok(buckets >= 2);
    const counts = new Array(buckets).fill(0);
    for (const url of urls(30)) counts[bucketOf(url, buckets)]++;
    assert.ok(counts.every((c) => c <= 20), String(counts));
    // Entries without news do not count.
    assert.equal(bucketCount(urls(30), new Array(30).fill(50), { ...sizing, maxNews: 20 }, 1, news.map((_, i) => i < 20)), 1);
  });

  it('limits too tight for hash buckets to meet (one URL a file over 2,000 URLs) are refused as an option, naming them', () => {
    assert.throws(
      () => bucketCount(urls(2000), new Array(2000).fill(50), { ...sizing, maxUrls: 1 }),
      (error: Error & { code?: string }) =>
        error.code === 'ERR_SITEMAP_OPTION' && /^the 2,000 URLs of the section of https:\/\/example\.com\/s\/0 cannot be split by their hash into files within 1 URL and 1,000,000 bytes a file: raise the limits$/.test(error.message),
    );
    // A limit of more than one is said in the plural.
    assert.throws(() => bucketCount(urls(3), new Array(3).fill(2_000_000), { ...sizing, maxUrls: 2 }), /the 3 URLs .* within 2 URLs and 1,000,000 bytes a file/);
  });

  it('keeps the previous split while it fits, merges only far below capacity (no flapping)', () => {
    // 60 URLs fit one file, but a section split into 2 last time stays split.
    assert.equal(bucketCount(urls(60), new Array(60).fill(50), sizing, 2), 2);
    // Down to a quarter of the capacity of 2 files: merged.
    assert.equal(bucketCount(urls(50), new Array(50).fill(50), sizing, 2), 1);
  });

  it('a URL keeps its bucket when other URLs come and go', () => {
    fc.assert(
      fc.property(fc.webUrl(), fc.constantFrom(2, 4, 8, 16), (url, n) => {
        assert.equal(bucketOf(url, n), bucketOf(url, n));
        assert.ok(bucketOf(url, n) < n);
      }),
    );
  });
});

describe('selectPages', () => {
  const base = 'https://example.com/';
  const page = (relPath: string, url: string, extra: Partial<PageCandidate> = {}): PageCandidate => ({ relPath, url: base + url, noindex: false, ...extra });

  it('leaves out noindex pages, redirect stubs and pages canonicalised elsewhere; keeps self-canonical forms', () => {
    const pages = [
      page('index.html', ''),
      page('a/index.html', 'a/', { canonical: 'https://example.com/a' }), // another form of itself
      page('b.html', 'b.html', { canonical: 'https://example.com/a/' }), // another page of the site
      page('c.html', 'c.html', { canonical: 'https://other.example/c' }),
      page('d.html', 'd.html', { noindex: true }),
      page('e.html', 'e.html', { refresh: 'https://example.com/' }),
      page('f.html', 'f.html', { canonical: 'https://example.com/f.html#top' }),
      page('g.html', 'g.html', { canonical: 'http://[' }), // unusable: ignored
      page('h.html', 'h.html', { refresh: '' }), // reloads itself: a live page, not a redirect
      page('news/index.html', 'news/', { refresh: 'https://example.com/news/' }), // reloads itself by URL
      page('live/index.html', 'live', { refresh: 'https://example.com/live/#now' }), // itself in another form
    ];
    const decisions = selectPages(pages, base);
    assert.deepEqual(
      decisions.map((d) => (d.listed ? 'listed' : d.reason)),
      ['listed', 'listed', 'canonical-elsewhere', 'canonical-outside', 'noindex', 'redirect', 'listed', 'listed', 'listed', 'listed', 'listed'],
    );
    assert.equal(decisions[2]?.detail, 'https://example.com/a/');
    // Listed, and the other form of itself it declares is said: the listed URL contradicts the page.
    assert.equal(decisions[1]?.canonicalForm, 'https://example.com/a');
    assert.equal(decisions[6]?.canonicalForm, undefined);
  });

  it('knows a page by its URL whatever the case of its escapes (RFC 3986 §6.2.2.1)', () => {
    const pages = [
      page('café/index.html', 'caf%C3%A9/', { canonical: 'https://example.com/caf%c3%a9/' }), // itself
      page('café/print.html', 'caf%C3%A9/print.html', { canonical: 'https://example.com/caf%c3%a9/' }), // that page
      page('café/live.html', 'caf%C3%A9/live.html', { refresh: 'https://example.com/caf%c3%a9/live.html' }), // reloads itself
    ];
    const decisions = selectPages(pages, base);
    assert.deepEqual(
      decisions.map((d) => (d.listed ? 'listed' : d.reason)),
      ['listed', 'canonical-elsewhere', 'listed'],
    );
    assert.equal(decisions[0]?.canonicalForm, undefined);
  });

  it('a canonical or refresh with an empty query (a?) names the page a static host serves there, the query being ignored', () => {
    const pages = [
      page('a.html', 'a.html', { canonical: 'https://example.com/a.html?' }),
      page('b/index.html', 'b/', { canonical: 'https://example.com/b?#top' }),
      page('c.html', 'c.html', { canonical: 'https://example.com/b/?' }),
      page('d.html', 'd.html', { refresh: 'https://example.com/d.html?' }),
      page('e.html', 'e.html', { canonical: 'https://example.com/e.html?p=2' }), // another URL: content may differ
    ];
    const decisions = selectPages(pages, base);
    assert.deepEqual(decisions.map((d) => (d.listed ? 'listed' : d.reason)), ['listed', 'listed', 'canonical-elsewhere', 'listed', 'canonical-outside']);
    // Listed at the page's own URL; the declared form (RFC 3986 §6.2.3: `a?` is not `a`) is said.
    assert.deepEqual(decisions.map((d) => d.canonicalForm), ['https://example.com/a.html?', 'https://example.com/b?', undefined, undefined, undefined]);
  });

  it('a URL a page is served at as named (c/ for c/index.html) is that page, though a page before it (c.html) may be served there too', () => {
    const pages = [page('c.html', 'c.html', { canonical: 'https://example.com/c/' }), page('c/index.html', 'c/'), page('d.html', 'd.html', { canonical: 'https://example.com/d/' })];
    // c.html was taken as a canonical to itself (listed, the listed form said to be wrong) as it came first.
    assert.deepEqual(selectPages(pages, base).map((d) => (d.listed ? 'listed' : d.reason)), ['canonical-elsewhere', 'listed', 'listed']);
  });

  it('recognises error pages', () => {
    for (const path of ['404.html', '500.html', 'fr/404.html', '404/index.html', '200.html']) assert.ok(isErrorPage(path), path);
    for (const path of ['a404.html', 'blog/404/index.html', '4040.html', 'status/200.html']) assert.ok(!isErrorPage(path), path);
  });
});

describe('siteAlternates', () => {
  const base = 'https://example.com/';
  // A site listed with --trailing-slash never: en/a/index.html at en/a, es/a/index.html noindex.
  const files = ['en/a/index.html', 'es/a/index.html', 'fr/a/index.html'];
  const fates: AlternateTarget[] = [
    { relPath: 'en/a/index.html', listedUrl: `${base}en/a` },
    { relPath: 'es/a/index.html', reason: 'noindex' },
    { relPath: 'fr/a/index.html', listedUrl: `${base}fr/a` },
  ];
  const byUrl = siteUrlIndex(files.map((relPath) => ({ relPath })), base);
  const pageAt = (url: string) => {
    const i = byUrl.get(url);
    return i === undefined ? undefined : fates[i];
  };

  it('writes alternates to listed pages in their listed form, drops those to pages left out or missing, keeps other sites', () => {
    const result = siteAlternates(
      [
        { hreflang: 'en', href: `${base}en/a/` },
        { hreflang: 'en', href: `${base}en/a/index.html` }, // the same page again: once
        { hreflang: 'fr', href: `${base}fr/a` },
        { hreflang: 'es', href: `${base}es/a/` },
        { hreflang: 'it', href: `${base}it/a/` },
        { hreflang: 'de', href: 'https://example.de/a/' },
      ],
      pageAt,
      base,
    );
    assert.deepEqual(result.alternates, [
      { hreflang: 'en', href: `${base}en/a` },
      { hreflang: 'fr', href: `${base}fr/a` },
      { hreflang: 'de', href: 'https://example.de/a/' },
    ]);
    assert.deepEqual(result.dropped, [
      { hreflang: 'es', href: `${base}es/a/`, why: 'left-out', target: { relPath: 'es/a/index.html', reason: 'noindex' } },
      { hreflang: 'it', href: `${base}it/a/`, why: 'not-built' },
    ]);
  });

  it('drops an alternate whose hreflang Google does not read (a withdrawn code, UK for GB), with the problem and its fix', () => {
    const result = siteAlternates([{ hreflang: 'iw', href: 'https://example.co.il/a/' }, { hreflang: 'en-UK', href: `${base}fr/a` }, { hreflang: 'X-Default', href: `${base}fr/a` }], pageAt, base);
    assert.deepEqual(result.alternates, [{ hreflang: 'X-Default', href: `${base}fr/a` }]);
    assert.deepEqual(result.dropped.map((d) => [d.hreflang, d.why, d.language?.fix]), [['iw', 'invalid-language', 'he'], ['en-UK', 'invalid-language', 'en-GB']]);
  });
});

describe('source rules', () => {
  it('map a page to its source through one * (any run of characters, / included), or one file to one file', () => {
    const rule = parseSourceRule('posts/*/index.html=content/posts/*.md');
    assert.ok(!('problem' in rule));
    assert.equal(ruleSource(rule, 'posts/a/index.html'), 'content/posts/a.md');
    assert.equal(ruleSource(rule, 'posts/2024/a/index.html'), 'content/posts/2024/a.md');
    assert.equal(ruleSource(rule, 'posts/index.html'), undefined); // * matches one character or more
    assert.equal(ruleSource(rule, 'docs/a/index.html'), undefined);
    const one = parseSourceRule('./index.html=content/_index.md');
    assert.ok(!('problem' in one));
    assert.equal(ruleSource(one, 'index.html'), 'content/_index.md');
    assert.equal(ruleSource(one, 'a/index.html'), undefined);
    for (const bad of ['posts/*/index.html', '=content/*.md', 'posts/*/*.html=content/*.md', 'posts/*.html=content/a.md']) assert.ok('problem' in parseSourceRule(bad), bad);
  });
});

describe('buildStableSet', () => {
  const limits = { ...LIMITS_PROFILES.current, maxUrlsPerSitemap: 10 };
  const entry = (path: string, lastmod?: string): StableEntry => ({
    entry: { loc: `https://example.com/${path}`, ...(lastmod !== undefined ? { lastmod } : {}) },
    section: path.includes('/') ? (path.split('/')[0] as string) : '',
  });

  it('writes a file per section, entries sorted by URL, whatever the input order', () => {
    const one = buildStableSet([entry('b/2'), entry('a/1'), entry('x'), entry('b/1')], { baseUrl: 'https://example.com/', limits, gzip: false });
    const two = buildStableSet([entry('b/1'), entry('x'), entry('b/2'), entry('a/1')], { baseUrl: 'https://example.com/', limits, gzip: false });
    assert.deepEqual(
      one.children.map((c) => [c.name, c.urls]),
      [
        ['sitemap-a.xml', 1],
        ['sitemap-b.xml', 2],
        ['sitemap-root.xml', 1],
      ],
    );
    assert.deepEqual(one.children, two.children);
    const b = one.children[1]?.text ?? '';
    assert.ok(b.indexOf('/b/1<') < b.indexOf('/b/2<'));
  });

  it('adding a page changes only the file of its section', () => {
    const pages = [...Array.from({ length: 25 }, (_, i) => entry(`blog/p${i}`)), ...Array.from({ length: 5 }, (_, i) => entry(`docs/d${i}`))];
    const before = buildStableSet(pages, { baseUrl: 'https://example.com/', limits, gzip: true });
    const after = buildStableSet([...pages, entry('docs/new')], { baseUrl: 'https://example.com/', limits, gzip: true, previousBuckets: before.buckets });
    const changed = after.children.filter((c) => before.children.find((b) => b.name === c.name)?.text !== c.text).map((c) => c.name);
    assert.deepEqual(changed, ['sitemap-docs.xml.gz']);
    assert.ok((before.buckets.get('sitemap-blog') ?? 1) > 1, 'blog (25 URLs, 10 per file) is split');
    for (const child of before.children) assert.ok(child.urls <= 10);
  });

  it('pages in many small folders share the top level\'s files: 50,001 one-page folders are 2 files, not 50,001', () => {
    // /{slug}/index.html sites (Jekyll/Gatsby pretty URLs, product exports): a section per page.
    const pages = Array.from({ length: 50_001 }, (_, i) => entry(`p${i}/`));
    const set = buildStableSet(pages, { baseUrl: 'https://example.com/', limits: LIMITS_PROFILES.current, gzip: true });
    assert.deepEqual(
      set.children.map((c) => c.name),
      ['sitemap-root.0.xml.gz', 'sitemap-root.1.xml.gz'],
    );
    assert.equal(set.children.reduce((sum, c) => sum + c.urls, 0), 50_001);
  });

  it('a section has files of its own from a 32nd of the site, and keeps them down to a 128th (no flapping)', () => {
    const options = { baseUrl: 'https://example.com/', limits: LIMITS_PROFILES.current, gzip: false };
    const folders = (n: number, from = 0) => Array.from({ length: n }, (_, i) => entry(`p${i + from}/`));
    const shop = Array.from({ length: 4 }, (_, i) => entry(`shop/${i}`));
    const names = (set: ReturnType<typeof buildStableSet>) => set.children.map((c) => c.name);
    // 4 of 104 URLs: its own file.
    const first = buildStableSet([...shop, ...folders(100)], options);
    assert.deepEqual(names(first), ['sitemap-root.xml', 'sitemap-shop.xml']);
    // The site doubles: 4 of 204 is under a 32nd, but the shop keeps its file (the root's changes alone).
    const grown = buildStableSet([...shop, ...folders(200)], { ...options, previousBuckets: first.buckets });
    assert.deepEqual(names(grown), ['sitemap-root.xml', 'sitemap-shop.xml']);
    assert.equal(grown.children[1]?.text, first.children[1]?.text);
    // Without that memory it would not have earned one.
    assert.deepEqual(names(buildStableSet([...shop, ...folders(200)], options)), ['sitemap-root.xml']);
    // Under a 128th (4 of 604): merged into the top level's file.
    assert.deepEqual(names(buildStableSet([...shop, ...folders(600)], { ...options, previousBuckets: grown.buckets })), ['sitemap-root.xml']);
  });

  it('a file holds as many URLs under a byte limit as generate puts in one: the start tag counted is the one written', () => {
    // The plain writer's one file of these entries, exactly its size as the limit (and one image on one page).
    for (const images of [false, true]) {
      const entries = Array.from({ length: 40 }, (_, i) => entry(`shop/item-${i}`)).map((e, i) => (images && i === 7 ? { ...e, entry: { ...e.entry, images: [{ loc: 'https://example.com/i.png' }] } } : e));
      const plain: number[] = [];
      const writer = new SitemapSetWriter({ open: () => undefined, write: () => undefined, close: () => undefined }, { limits: LIMITS_PROFILES.current, baseUrl: 'https://example.com/' });
      for (const { entry: e } of entries) writer.add(e);
      const maxBytes = (writer.end()[0] as { bytes: number }).bytes;
      const exact = { ...LIMITS_PROFILES.current, maxBytesPerSitemap: maxBytes };
      const generated = new SitemapSetWriter({ open: () => undefined, write: () => undefined, close: () => undefined }, { limits: exact, baseUrl: 'https://example.com/' });
      for (const { entry: e } of entries) generated.add(e);
      for (const file of generated.end()) plain.push(file.urls);
      assert.deepEqual(plain, [40]);
      const set = buildStableSet(entries, { baseUrl: 'https://example.com/', limits: exact, gzip: false });
      assert.deepEqual(set.children.map((c) => [c.urls, Buffer.byteLength(c.text)]), [[40, maxBytes]], images ? 'with an image' : 'plain');
    }
  });

  it('a page with more than 1,000 images is listed with its first 1,000, as generate writes it (not without any)', () => {
    const images = Array.from({ length: 1003 }, (_, i) => ({ loc: `https://example.com/${i}.png` }));
    const set = buildStableSet([{ entry: { loc: 'https://example.com/p', images }, section: '' }], { baseUrl: 'https://example.com/', limits, gzip: false });
    assert.deepEqual(set.refused.map((r) => [r.error.rule, r.keptWithout]), [['image/too-many', 'images past the limit']]);
    const written = [...(set.children[0]?.text ?? '').matchAll(/<image:loc>https:\/\/example\.com\/(\d+)\.png</g)].map((m) => Number(m[1]));
    assert.deepEqual(written, Array.from({ length: 1000 }, (_, i) => i));
  });

  it('declares only the extension namespaces a file uses, and keeps a page whose alternates are refused', () => {
    const set = buildStableSet(
      [
        { entry: { loc: 'https://example.com/a/1', alternates: [{ hreflang: 'en_US', href: 'https://example.com/a/1' }] }, section: 'a' },
        { entry: { loc: 'https://example.com/b/1', images: [{ loc: 'https://cdn.example.com/i.png' }] }, section: 'b' },
      ],
      { baseUrl: 'https://example.com/', limits, gzip: false },
    );
    assert.equal(set.refused.length, 1);
    assert.equal(set.refused[0]?.keptWithout, 'alternates');
    const [a, b] = set.children;
    assert.ok(!a?.text.includes('xmlns:xhtml') && !a?.text.includes('xmlns:image'));
    assert.ok(b?.text.includes('xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'));
  });
});

describe('IndexNow announcements', () => {
  it('are the URLs added, updated and removed since the last accepted submission', () => {
    const pages = new Map<string, AnnouncedPage>([
      ['https://e.com/a', { hash: 'A', listed: true }],
      ['https://e.com/b', { hash: 'B2', listed: true }],
      ['https://e.com/c', { hash: 'C', listed: true }],
      ['https://e.com/n', { hash: 'N', listed: false }], // noindex now
      ['https://e.com/never', { hash: 'X', listed: false }], // never listed: not announced
    ]);
    const announced = new Map([
      ['https://e.com/b', 'B1'],
      ['https://e.com/c', 'C'],
      ['https://e.com/n', 'N'],
      ['https://e.com/gone', 'G'],
    ]);
    const pending = pendingAnnouncements(pages, announced);
    assert.deepEqual(pending, [
      { url: 'https://e.com/a', kind: 'added' },
      { url: 'https://e.com/b', kind: 'updated' },
      { url: 'https://e.com/n', kind: 'removed' },
      { url: 'https://e.com/gone', kind: 'removed' },
    ]);
    recordAnnounced(pages, announced, pending.map((p) => p.url));
    assert.deepEqual(pendingAnnouncements(pages, announced), []);
    assert.deepEqual([...announced.keys()].sort(), ['https://e.com/a', 'https://e.com/b', 'https://e.com/c']);
  });
});
