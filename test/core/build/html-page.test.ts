import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { SitemapError } from '../../../src/core/errors.js';
import { HTML_PRESCAN_BYTES, scanHtmlPage, sniffHtmlEncoding, type PageFacts } from '../../../src/core/build/html-page.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/build/', import.meta.url));
const fixture = (name: string): string => readFileSync(`${FIXTURES}${name}`, 'utf8');

const PAGE = 'https://www.example.com/blog/post/';
const scan = (html: string, pageUrl = PAGE): PageFacts => scanHtmlPage(html, pageUrl);
const content = (html: string): string => scanHtmlPage(html, PAGE).content;
const images = (html: string, pageUrl = PAGE): string[] => scanHtmlPage(html, pageUrl, { images: true }).images;

/** A small page with `head` and `body` slotted in. */
const page = (head: string, body = '<p>Hello</p>'): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>T</title>${head}</head><body>${body}</body></html>`;

/** Two pages that differ only in noise: their content must be equal (and not empty, so the test can fail). */
function assertSameContent(a: string, b: string): void {
  assert.notEqual(a, b, 'the two inputs should differ');
  const ca = content(a);
  assert.ok(ca.length > 0);
  assert.equal(content(b), ca);
}

function assertDifferentContent(a: string, b: string): void {
  assert.notEqual(content(a), content(b));
}

// ---------------------------------------------------------------------------------------------------

describe('scanHtmlPage: real-looking pages', () => {
  it('a Hugo page: canonical, hreflang alternates (not the RSS alternate), images of <main> only', () => {
    const html = fixture('hugo-page.html');
    const facts = scanHtmlPage(html, 'https://www.example.com/blog/moving-to-the-edge/', { images: true });
    assert.equal(facts.noindex, false);
    assert.equal(facts.refresh, undefined);
    assert.equal(facts.canonical, 'https://www.example.com/blog/moving-to-the-edge/');
    assert.equal(facts.canonicalConflict, undefined);
    assert.deepEqual(facts.alternates, [
      { hreflang: 'en', href: 'https://www.example.com/blog/moving-to-the-edge/' },
      { hreflang: 'de', href: 'https://www.example.com/de/blog/moving-to-the-edge/' },
    ]);
    // The image URL is a fact, not content: its query stays.
    assert.deepEqual(facts.images, [
      'https://www.example.com/blog/moving-to-the-edge/pipeline.png',
      'https://www.example.com/blog/moving-to-the-edge/graph.svg?w=800',
    ]);
    assert.deepEqual(scan(html).images, [], 'images only with the option');
  });

  it('a Hugo page: content keeps text, links and meta, drops the build noise', () => {
    const c = content(fixture('hugo-page.html'));
    assert.match(c, /<title>Moving to the edge \| Example Engineering<\/title>/);
    assert.match(c, /<p>Last year our documentation site took<strong>eleven minutes<\/strong>to build and another four to upload\. This post/);
    assert.match(c, /<a href="https:\/\/gohugo\.io\/getting-started\/usage\/">the Hugo docs<\/a>/);
    assert.match(c, /<meta content="2026-03-04T17:12:00\+01:00" property="article:modified_time">/);
    assert.match(c, /<link crossorigin="anonymous" href="\/css\/main\.min\.\[hash\]\.css" rel="stylesheet">/);
    assert.match(c, /<link href="\/favicon\.ico" rel="icon">/);
    assert.match(c, /<script defer="" src="\/js\/theme\.min\.\[hash\]\.js">/);
    for (const noise of ['generator', 'Hugo 0.121', 'integrity', 'sha256', 'class=', 'dateModified', 'classList', '?v=3', '<!', '\n']) {
      assert.ok(!c.includes(noise), `no ${JSON.stringify(noise)} in the content`);
    }
  });

  it('a Next.js page: hashed chunks, the build id in paths, nonces and __NEXT_DATA__ leave no trace', () => {
    const html = fixture('next-page.html');
    const facts = scanHtmlPage(html, 'https://acme.example/pricing', { images: true });
    assert.equal(facts.canonical, 'https://acme.example/pricing');
    assert.deepEqual(facts.images, ['https://acme.example/_next/static/media/dashboard.4b2c1f0e.png']);
    const c = facts.content;
    assert.match(c, /<script defer="" src="\/_next\/static\/chunks\/pages\/_app-\[hash\]\.js">/);
    assert.match(c, /<script defer="" src="\/_next\/static\/\[hash\]\/\[hash\]\.js">/);
    assert.match(c, /<h2>Team<\/h2><p>\$20<span>\/user\/month<\/span><\/p>/);
    for (const noise of ['6ZhkqB1CYP_OZ1GznbIjs', 'r4nd0mN0nce1', '__NEXT_DATA__', 'buildId', 'c67a75d1b6f99dc8', 'Pricing_main__']) {
      assert.ok(!c.includes(noise), `no ${JSON.stringify(noise)} in the content`);
    }
  });

  it('a Jekyll page: comments and the JSON-LD block are gone, the post is there', () => {
    const facts = scan(fixture('jekyll-page.html'));
    assert.equal(facts.canonical, 'https://blog.example.org/jekyll/update/2026/01/10/welcome-to-jekyll.html');
    assert.deepEqual(facts.alternates, []);
    assert.match(facts.content, /<h1 itemprop="name headline">Welcome to Jekyll!<\/h1>/);
    assert.match(facts.content, /<link href="\/assets\/main\.css" rel="stylesheet">/);
    for (const noise of ['built at', 'abc123', 'Jekyll SEO tag', 'Jekyll v4', '2026-11-21']) {
      assert.ok(!facts.content.includes(noise), `no ${JSON.stringify(noise)} in the content`);
    }
  });

  it('a redirect stub: refresh target, delay, noindex and canonical', () => {
    const facts = scan(fixture('redirect-stub.html'));
    assert.equal(facts.refresh, 'https://www.example.com/blog/new-home/');
    assert.equal(facts.refreshSeconds, 0);
    assert.equal(facts.noindex, true);
    assert.equal(facts.canonical, 'https://www.example.com/blog/new-home/');
  });
});

// ---------------------------------------------------------------------------------------------------

describe('scanHtmlPage: noindex', () => {
  const cases: [meta: string, noindex: boolean][] = [
    ['<meta name="robots" content="noindex">', true],
    ['<meta name="ROBOTS" content="NOINDEX, FOLLOW">', true],
    ['<meta name=" robots " content="nofollow,noindex">', true],
    ['<meta name="robots" content="noindex nofollow">', true],
    ['<meta name="robots" content="none">', true],
    ['<meta name="robots" content="max-snippet:-1, noindex">', true],
    ['<meta name="googlebot" content="noindex">', true],
    ['<meta name="bingbot" content="noindex">', true],
    ['<meta http-equiv="X-Robots-Tag" content="noindex">', true],
    ['<meta http-equiv="x-robots-tag" content="googlebot: noindex">', true],
    ['<meta name="robots" content="index, follow">', false],
    ['<meta name="robots" content="nofollow">', false],
    ['<meta name="robots" content="noimageindex, nosnippet">', false],
    ['<meta name="robots" content="max-image-preview:none-ish">', false],
    // `none` is a value of max-image-preview there (developers.google.com/search/docs/crawling-indexing/robots-meta-tag).
    ['<meta name="robots" content="max-image-preview:none">', false],
    ['<meta name="robots" content="index, follow, max-image-preview : none">', false],
    ['<meta http-equiv="X-Robots-Tag" content="googlebot: max-image-preview:none, noindex">', true],
    ['<meta name="googlebot-news" content="noindex">', false],
    ['<meta name="otherbot" content="noindex">', false],
    ['<meta name="description" content="We never use noindex here">', false],
    ['<meta content="noindex">', false],
  ];
  for (const [meta, noindex] of cases) {
    it(`${meta} → ${noindex}`, () => assert.equal(scan(page(meta)).noindex, noindex));
  }

  it('counts a robots meta in the body too (leaving a page out is the safe mistake)', () => {
    assert.equal(scan(page('', '<div><meta name="robots" content="noindex"></div>')).noindex, true);
  });

  it('does not read a robots meta inside a <template>, whose content is inert, but does in a <noscript>', () => {
    const meta = '<meta name="robots" content="noindex"><meta http-equiv="X-Robots-Tag" content="noindex">';
    assert.equal(scan(page(`<template>${meta}</template>`, `<template><div>${meta}</div></template>`)).noindex, false);
    assert.equal(scan(page(`<noscript>${meta}</noscript>`)).noindex, true);
  });

  it('does not read "noindex" in text or in a comment', () => {
    assert.equal(scan(page('<!-- <meta name="robots" content="noindex"> -->', '<p>&lt;meta name="robots" content="noindex"&gt;</p>')).noindex, false);
  });
});

describe('scanHtmlPage: meta refresh', () => {
  const cases: [content: string, refresh: string | undefined, seconds?: number][] = [
    ['0; url=/new/', 'https://www.example.com/new/', 0],
    ['0;URL=https://other.example/x', 'https://other.example/x', 0],
    ["5; url='../moved.html'", 'https://www.example.com/blog/moved.html', 5],
    ['3, "target.html"', 'https://www.example.com/blog/post/target.html', 3],
    ['  0 ;  url  =  /spaced  ', 'https://www.example.com/spaced', 0],
    ['0.5; url=/half', 'https://www.example.com/half', 0],
    ['.5; url=/dot', 'https://www.example.com/dot', 0],
    ['0; /bare', 'https://www.example.com/bare', 0],
    ['0; urn:isbn:1234', 'urn:isbn:1234', 0], // "ur" then not "l": the whole rest is the URL; not http(s): as written
    ['300', '', 300],
    ['0; url=/x#frag', 'https://www.example.com/x', 0],
    ['soon', undefined],
    ['', undefined],
    ['0x; url=/no', undefined],
  ];
  for (const [value, refresh, seconds] of cases) {
    it(`content=${JSON.stringify(value)} → ${JSON.stringify(refresh)}`, () => {
      const facts = scan(page(`<meta http-equiv="refresh" content="${value.replaceAll('"', '&quot;')}">`));
      assert.equal(facts.refresh, refresh);
      assert.equal(facts.refreshSeconds, seconds);
    });
  }

  it('the first refresh that parses wins, wherever it is', () => {
    const facts = scan(page('<meta http-equiv="refresh" content="later">', '<meta http-equiv="Refresh" content="1; url=/second"><meta http-equiv="refresh" content="0; url=/third">'));
    assert.equal(facts.refresh, 'https://www.example.com/second');
    assert.equal(facts.refreshSeconds, 1);
  });

  it('resolves against <base href>', () => {
    assert.equal(scan(page('<base href="https://cdn.example.net/docs/"><meta http-equiv="refresh" content="0; url=intro">')).refresh, 'https://cdn.example.net/docs/intro');
  });

  it('ignores a refresh inside <noscript> (the fallback of a page that runs scripts)', () => {
    assert.equal(scan(page('<noscript><meta http-equiv="refresh" content="0; url=/no-js"></noscript>')).refresh, undefined);
  });
});

describe('scanHtmlPage: canonical', () => {
  it('resolves against <base href> wherever the base is in the head; a canonical in the body is ignored', () => {
    const facts = scan(fixture('canonical-base.html'), 'https://docs.example.net/v2/install/index.html');
    assert.equal(facts.canonical, 'https://docs.example.net/v2/install/');
    assert.equal(facts.canonicalConflict, undefined);
  });

  it('without a base, resolves against the page URL; the fragment is dropped', () => {
    assert.equal(scan(page('<link rel="canonical" href="../other/#top">')).canonical, 'https://www.example.com/blog/other/');
  });

  it('the first one wins; several that disagree are a conflict', () => {
    const facts = scan(page('<link rel="canonical" href="/a/"><link rel="canonical" href="/b/">'));
    assert.equal(facts.canonical, 'https://www.example.com/a/');
    assert.equal(facts.canonicalConflict, true);
  });

  it('several that resolve to the same URL are no conflict', () => {
    const facts = scan(page('<link rel="canonical" href="/a/"><link rel="Canonical" href="https://WWW.example.com/a/">'));
    assert.equal(facts.canonical, 'https://www.example.com/a/');
    assert.equal(facts.canonicalConflict, undefined);
  });

  it('a tab or line break inside an href is no part of the URL (WHATWG URL: removed before parsing); it was escaped, %0A', () => {
    assert.equal(scan(page('<link rel="canonical" href="/a\n/b\t.html\r\n">')).canonical, 'https://www.example.com/a/b.html');
    assert.equal(scan(page('<link rel="canonical" href="https://www.exam\nple.com/c">')).canonical, 'https://www.example.com/c');
  });

  it('skips empty and non-http(s) hrefs', () => {
    assert.equal(scan(page('<link rel="canonical" href=""><link rel="canonical" href="javascript:void(0)">')).canonical, undefined);
    assert.equal(scan(page('<link rel="canonical" href="mailto:x@example.com"><link rel="canonical" href="/ok">')).canonical, 'https://www.example.com/ok');
  });

  it('an element that does not belong in the head ends it: a later canonical is in the body', () => {
    assert.equal(scan(page('<div></div><link rel="canonical" href="/late">')).canonical, undefined);
    assert.equal(scan(page('stray text<link rel="canonical" href="/late">')).canonical, undefined);
    assert.equal(scan(page('<noscript><img src="/pixel.gif"></noscript><link rel="canonical" href="/kept">')).canonical, 'https://www.example.com/kept');
    assert.equal(scan('<title>No head tags</title><link rel="canonical" href="/implied-head">').canonical, 'https://www.example.com/implied-head');
  });

  it('ignores a canonical inside <noscript>', () => {
    assert.equal(scan(page('<noscript><link rel="canonical" href="/no-js"></noscript>')).canonical, undefined);
  });

  it('a <template> of the head is inert: its canonical, refresh and markup neither count nor end the head', () => {
    assert.equal(scan(page('<template><link rel="canonical" href="/inert"></template>')).canonical, undefined);
    assert.equal(scan(page('<template><meta http-equiv="refresh" content="0; url=/inert"></template>')).refresh, undefined);
    assert.equal(scan(page('<template><div>card</div></template><link rel="canonical" href="/kept">')).canonical, 'https://www.example.com/kept');
  });

  it('a <base> in a <template> or a <noscript> sets no base URL: the canonical resolves against the page', () => {
    for (const inert of ['template', 'noscript']) {
      const facts = scan(page(`<${inert}><base href="https://cdn.example.net/"></${inert}><link rel="canonical" href="/kept"><meta http-equiv="refresh" content="0; url=/next">`));
      assert.deepEqual([facts.canonical, facts.refresh], ['https://www.example.com/kept', 'https://www.example.com/next'], inert);
    }
  });
});

describe('scanHtmlPage: hreflang alternates', () => {
  it('reads the head set: resolved, trimmed, each pair once, feeds and body links left out', () => {
    assert.deepEqual(scan(fixture('hreflang-set.html'), 'https://shop.example/de/preise').alternates, [
      { hreflang: 'en', href: 'https://shop.example/en/pricing' },
      { hreflang: 'de', href: 'https://shop.example/de/preise' },
      { hreflang: 'de-AT', href: 'https://shop.example/de-at/preise' },
      { hreflang: 'x-default', href: 'https://shop.example/pricing' },
      { hreflang: 'fr-CA', href: 'https://shop.example/fr-ca/prix' },
    ]);
  });

  it('resolves against <base href>', () => {
    assert.deepEqual(scan(fixture('canonical-base.html'), 'https://docs.example.net/v2/install/').alternates, [
      { hreflang: 'en', href: 'https://docs.example.net/v2/install/' },
      { hreflang: 'fr', href: 'https://docs.example.net/fr/v2/install/' },
    ]);
  });

  it('skips links without hreflang, with an empty one, or without an href', () => {
    const head = '<link rel="alternate" href="/x"><link rel="alternate" hreflang=" " href="/y"><link rel="alternate" hreflang="es"><link rel="alternate" hreflang="it" href="/it/" type="text/html">';
    assert.deepEqual(scan(page(head)).alternates, [{ hreflang: 'it', href: 'https://www.example.com/it/' }]);
  });
});

describe('scanHtmlPage: images', () => {
  it('inside <main> when the page has one (a header or article inside main counts)', () => {
    assert.deepEqual(images(fixture('images-main.html'), 'https://www.example.com/gallery/'), [
      'https://www.example.com/gallery/photos/one.jpg',
      'https://www.example.com/gallery/photos/two.jpg?w=640',
      'https://cdn.example.org/photos/three.jpg',
      'https://www.example.com/gallery/photos/in-main-header.jpg',
      'https://www.example.com/gallery/photos/four.jpg',
    ]);
  });

  it('else inside <article>', () => {
    assert.deepEqual(images(fixture('images-article.html')), ['https://www.example.com/posts/hero.jpg', 'https://www.example.com/posts/figure-1.png']);
  });

  it('else in the body outside header, nav, footer and aside', () => {
    assert.deepEqual(images(fixture('images-body.html')), [
      'https://www.example.com/team.jpg',
      'https://www.example.com/office.jpg',
      'https://www.example.com/after-footer.jpg',
    ]);
  });

  it('resolves against <base href>, keeps images in <noscript> (lazy-loading fallbacks)', () => {
    assert.deepEqual(images(fixture('canonical-base.html')), ['https://docs.example.net/v2/img/terminal.png']);
    assert.deepEqual(images(page('', '<main><img data-src="/real.jpg"><noscript><img src="/real.jpg"></noscript></main>')), ['https://www.example.com/real.jpg']);
  });
});

describe('scanHtmlPage: misuse', () => {
  it('throws ERR_SITEMAP_OPTION for a page URL that is not absolute http(s)', () => {
    for (const bad of ['/relative/', 'ftp://example.com/', '']) {
      assert.throws(
        () => scanHtmlPage('<p>x</p>', bad),
        (err: unknown) => err instanceof SitemapError && err.code === 'ERR_SITEMAP_OPTION',
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------------

describe('content: build noise does not count', () => {
  const hugo = fixture('hugo-page.html');
  const next = fixture('next-page.html');
  const jekyll = fixture('jekyll-page.html');

  it('whitespace: re-indented, minified between tags, or re-flowed inside text', () => {
    assertSameContent(hugo, hugo.replace(/>\s+</g, '><'));
    assertSameContent(hugo, hugo.replace(/\n\s*/g, '\n\t\t    '));
    assertSameContent(hugo, hugo.replace(/ /g, ' \n '));
    assertSameContent(page('', '<p>Hello <b>world</b>!</p>'), page('', '<p>\n  Hello\n  <b>  world </b>\n  !\n</p>'));
    // An end tag that closes nothing is still a tag: the whitespace next to it does not count either.
    assertSameContent(page('', '<div>a</p>b</div>'), page('', '<div>a </p> b</div>'));
  });

  it('comments: build ids and timestamps, anywhere, even inside a sentence', () => {
    assertSameContent(jekyll, jekyll.replace('2026-11-21T10:00:00Z by jekyll 4.3.3, build abc123', '2026-11-22T08:30:00Z by jekyll 4.3.4, build def456'));
    assertSameContent(jekyll, jekyll.replaceAll(/<!--[^]*?-->/g, ''));
    assertSameContent(page('', '<p>Hello world</p>'), page('<!-- built 2026-11-21T10:00:00Z -->', '<p>Hello<!-- build abc123 --> world</p>'));
  });

  it('inline scripts and styles, JSON-LD and __NEXT_DATA__ included', () => {
    assertSameContent(jekyll, jekyll.replace('"dateModified":"2026-11-21T10:00:00+00:00"', '"dateModified":"2026-11-22T08:30:00+00:00"'));
    assertSameContent(hugo, hugo.replace("classList.add('js')", "classList.add('js', 'v2')"));
    assertSameContent(next, next.replace('"buildId":"6ZhkqB1CYP_OZ1GznbIjs"', '"buildId":"Q9xw2LmN4pRs7TuV0wXyZ"'));
    assertSameContent(page('', '<p>Hi</p>'), page('<style>body{color:red}</style>', '<p>Hi<script>track()</script></p><style>.x{}</style>'));
  });

  it('cache-busting query strings and fragments on stylesheets, scripts, icons and media', () => {
    assertSameContent(jekyll, jekyll.replace('main.css?v=1763719200', 'main.css?v=1763805600'));
    assertSameContent(hugo, hugo.replace('favicon.ico?v=3', 'favicon.ico?v=4'));
    assertSameContent(
      page('<script src="/app.js?t=1"></script>', '<img src="/a.png?v=1" srcset="/a.png?v=1 1x, /a@2x.png?v=1 2x"><video src="/v.mp4?cb=1"><source src="/v.webm?cb=1"></video>'),
      page('<script src="/app.js?t=2#x"></script>', '<img src="/a.png?v=2" srcset="/a.png?v=2  1x,\n /a@2x.png?v=2 2x"><video src="/v.mp4?cb=2"><source src="/v.webm?cb=2"></video>'),
    );
  });

  it('content-hashed file names of scripts, stylesheets and preloads (webpack, Next.js, Vite, Hugo, Parcel)', () => {
    let rebuilt = next.replaceAll('6ZhkqB1CYP_OZ1GznbIjs', 'Q9xw2LmN4pRs7TuV0wXyZ');
    for (const [old, fresh] of [
      ['c67a75d1b6f99dc8', '0a1b2c3d4e5f6071'],
      ['59c5c889f52620d6', 'f00dfeedbeef1234'],
      ['2c79e2a64abdb08b', '9f8e7d6c5b4a3928'],
      ['6f3d2f7c1c0b5a9e', '1d2e3f4a5b6c7d8e'],
      ['e11418ac562b8ac1', '7a6b5c4d3e2f1a0b'],
    ]) {
      rebuilt = rebuilt.replaceAll(old as string, fresh as string);
    }
    assertSameContent(next, rebuilt);
    assertSameContent(hugo, hugo.replace('theme.min.2b7e151628aed2a6abf7158809cf4f3c.js', 'theme.min.9d5ed678fe57bcca610140957afab571.js'));
    const vite = (hash: string, css: string) =>
      page(`<script type="module" crossorigin src="/assets/index-${hash}.js"></script><link rel="modulepreload" href="/assets/vendor.${hash}.js"><link rel="stylesheet preload" href="/assets/style-${css}.css">`);
    assertSameContent(vite('DyUkeFpz', 'Bx3-8aQw'), vite('C3jV2k1p', 'a_9Zk-Lm'));
    assertSameContent(page('<script src="/main.3f2a1b9c.chunk.js"></script>'), page('<script src="/main.77aa00ff.chunk.js"></script>'));
    const island = (component: string, renderer: string) =>
      page('', `<astro-island uid="Z1x2y3" component-url="/_astro/Counter.${component}.js" component-export="default" renderer-url="/_astro/client.${renderer}.js" before-hydration-url="/_astro/hydrate.${renderer}.js" props="{}" ssr="" client="load"><p>1</p></astro-island>`);
    assertSameContent(island('Bq5sLm2a', 'CbXhg3dY'), island('Zz9kPq1b', 'Qw3eRt5y'));
    assert.ok(content(island('Bq5sLm2a', 'CbXhg3dY')).includes('component-url="/_astro/Counter.[hash].js"'));
  });

  it('nonces, integrity hashes and data-build* attributes', () => {
    assertSameContent(next, next.replaceAll('r4nd0mN0nce1', 'an0therN0nce'));
    assertSameContent(hugo, hugo.replace('sha256-jzwqceS11smgscLT5PWmt8jZ4PGis8TV5vequcDR4vM=', 'sha256-AAAAceS11smgscLT5PWmt8jZ4PGis8TV5vequcDR4vM='));
    assertSameContent(page('', '<div data-build="41" data-buildid="x1">Hi</div>'), page('', '<div data-build="42" data-buildid="x2">Hi</div>'));
  });

  it('generator, build-id and build-time metas, and framework versions', () => {
    assertSameContent(hugo, hugo.replace('Hugo 0.121.1', 'Hugo 0.122.0'));
    assertSameContent(page('<meta name="build-id" content="a1"><meta name="build_time" content="10:00">'), page('<meta name="build-id" content="b2"><meta name="build_time" content="11:00">'));
    assertSameContent(page('<meta name="docusaurus_version" content="3.1.0">'), page('<meta name="docusaurus_version" content="3.2.1">'));
    assertSameContent(page('', '<app-root ng-version="17.0.0">x</app-root>'), page('', '<app-root ng-version="18.1.2">x</app-root>'));
  });

  it('presentation: class and style attributes, scoped-style hashes of Vue, Astro and Angular, React markers', () => {
    assertSameContent(page('', '<p class="a" style="color:red">Hi</p>'), page('', '<p class="b css-1n7v3ny">Hi</p>'));
    assertSameContent(page('', '<p data-v-7ba5bd90="">Hi</p>'), page('', '<p data-v-0f1e2d3c="">Hi</p>'));
    assertSameContent(page('', '<p data-astro-cid-j7pv25f6>Hi</p>'), page('', '<p data-astro-cid-x2k9q1ab>Hi</p>'));
    assertSameContent(page('', '<p _ngcontent-ng-c2943247389="">Hi</p>'), page('', '<p _ngcontent-ng-c1111111111="">Hi</p>'));
    assertSameContent(page('', '<div data-reactroot="">Hi</div>'), page('', '<div>Hi</div>'));
  });

  it('attribute order and quoting, entity spelling, tag and attribute case', () => {
    assertSameContent(page('', '<img src="/a.png" alt="A" width="10">'), page('', "<IMG WIDTH=10 alt='A' Src=\"/a.png\">"));
    assertSameContent(page('', '<p>Fish &amp; chips &mdash; &lt;b&gt;</p>'), page('', '<p>Fish &#38; chips — &#x3C;b&#x3e;</p>'));
    assertSameContent(page('', '<a href="/?a=1&amp;b=2">x</a>'), page('', '<a href="/?a=1&b=2">x</a>'));
  });

  it('optional tags: omitted end tags, html/head/body tags, the doctype, a repeated attribute', () => {
    assertSameContent(page('', '<p>a</p><p>b</p><ul><li>1</li><li>2</li></ul>'), page('', '<p>a<p>b<ul><li>1<li>2</ul>'));
    assertSameContent('<!DOCTYPE html><html><head><title>T</title></head><body><p>x</p></body></html>', '<title>T</title><p>x');
    assertSameContent(page('', '<p id="a">x</p>'), page('', '<p id="a" id="b">x</p>'));
  });
});

describe('content: real changes count', () => {
  const hugo = fixture('hugo-page.html');
  const cases: [what: string, from: string, to: string][] = [
    ['a changed sentence', 'what we would do differently', 'what we would keep'],
    ['a changed word gap', 'eleven minutes', 'elevenminutes'],
    ['a changed title', '<title>Moving to the edge', '<title>Moving to the cloud'],
    ['a changed link href', 'href="/privacy/"', 'href="/legal/privacy/"'],
    ['a changed link query', 'href="/blog/cdn-basics/"', 'href="/blog/cdn-basics/?ref=related"'],
    ['a changed image src', 'pipeline.png', 'pipeline-v2.png'],
    ['a changed alt text', 'alt="The old and the new pipeline"', 'alt="Old and new pipelines"'],
    ['a changed meta description', 'cut build times in half', 'cut build times by 60%'],
    ['a changed canonical', 'rel="canonical" href="https://www.example.com/blog/moving-to-the-edge/"', 'rel="canonical" href="https://www.example.com/blog/edge/"'],
    ['a changed hreflang', 'hreflang="de"', 'hreflang="de-DE"'],
    ['a changed modified time', 'content="2026-03-04T17:12:00+01:00"', 'content="2026-03-05T09:00:00+01:00"'],
    ['an added element', '<li>Upload: 4 min &rarr; 6 s</li>', '<li>Upload: 4 min &rarr; 6 s</li><li>Deploy: 1 min</li>'],
    ['a removed element', '<li>Cache hit rate: 71 % &rarr; 98 %</li>', ''],
    ['a changed heading level', '<h2 id="caching">Caching the right things</h2>', '<h3 id="caching">Caching the right things</h3>'],
    ['a changed id', 'id="caching"', 'id="cache"'],
    ['changed code in <pre>', 'hugo --gc --minify', 'hugo --gc'],
    ['a renamed stylesheet', '/css/main.min.', '/css/print.min.'],
    ['an added external script', '</head>', '<script src="/js/search.js" defer></script></head>'],
  ];
  for (const [what, from, to] of cases) {
    it(what, () => {
      assert.ok(hugo.includes(from), `fixture has ${from}`);
      assertDifferentContent(hugo, hugo.replace(from, to));
    });
  }

  it('nesting and text versus markup', () => {
    assertDifferentContent(page('', '<div>a</div><div>b</div>'), page('', '<div>a<div>b</div></div>'));
    assertDifferentContent(page('', '<p>&lt;b&gt;x&lt;/b&gt;</p>'), page('', '<p><b>x</b></p>'));
    assertDifferentContent(page('', '<p>a</p>'), page('', '<p>a</p><p></p>'));
  });

  it('<noscript> content is content', () => {
    assertDifferentContent(page('', '<noscript><p>Enable JavaScript</p></noscript>'), page('', '<noscript><p>Please enable JavaScript</p></noscript>'));
  });

  it('non-breaking spaces are content', () => {
    assertDifferentContent(page('', '<p>10 km</p>'), page('', '<p>10&nbsp;km</p>'));
  });
});

// ---------------------------------------------------------------------------------------------------

describe('content: properties', () => {
  // Documents as token lists: what a template renders, before its whitespace is laid out.
  type Token = { kind: 'open'; name: string; attrs: [string, string][] } | { kind: 'close'; name: string } | { kind: 'text'; words: string[] };

  const word = fc.oneof(
    { weight: 8, arbitrary: fc.stringMatching(/^[A-Za-z0-9äé]{1,8}$/) },
    { weight: 1, arbitrary: fc.constantFrom('&amp;', '&lt;', '&nbsp;', '—', '&#169;', '!', '.', ',') },
  );
  const text: fc.Arbitrary<Token> = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => ({ kind: 'text', words }));
  const attrs = fc.uniqueArray(
    fc.tuple(fc.constantFrom('href', 'src', 'alt', 'id', 'title', 'data-x', 'lang'), fc.stringMatching(/^[a-z0-9/._-]{0,10}$/)),
    { selector: ([name]) => name, maxLength: 3 },
  );
  const element: fc.Arbitrary<Token[]> = fc.letrec<{ node: Token[] }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text.map((t) => [t]),
      fc.tuple(fc.constantFrom('img', 'br', 'hr', 'input'), attrs).map(([name, a]): Token[] => [{ kind: 'open', name, attrs: a }]),
      fc
        .tuple(fc.constantFrom('div', 'p', 'span', 'a', 'section', 'ul', 'li', 'em', 'strong', 'main', 'h2', 'noscript'), attrs, fc.array(tie('node'), { maxLength: 4 }))
        .map(([name, a, children]): Token[] => [{ kind: 'open', name, attrs: a }, ...children.flat(), { kind: 'close', name }]),
    ),
  })).node;
  const documentTokens = fc.array(element, { minLength: 1, maxLength: 5 }).map((parts) => parts.flat());

  const whitespace = fc.stringMatching(/^[ \t\n\r\f]{0,4}$/);
  const someWhitespace = fc.stringMatching(/^[ \t\n\r\f]{1,4}$/);

  const BODY = '<!doctype html><html><head><title>T</title></head><body>';

  /**
   * Render with the whitespace `gap()` gives between tokens, between words and between attributes.
   * Two texts in a row are two words: a gap between them is a word gap, never nothing.
   */
  function render(tokens: Token[], gap: (where: 'between' | 'word' | 'attr') => string): string {
    const out: string[] = [BODY];
    let previous: Token['kind'] | undefined;
    for (const t of tokens) {
      out.push(previous === 'text' && t.kind === 'text' ? gap('word') || ' ' : gap('between'));
      previous = t.kind;
      if (t.kind === 'open') out.push(`<${t.name}${t.attrs.map(([n, v]) => `${gap('attr') || ' '}${n}="${v}"`).join('')}${gap('attr')}>`);
      else if (t.kind === 'close') out.push(`</${t.name}${gap('attr')}>`);
      else out.push(t.words.map((w, i) => (i === 0 ? w : `${gap('word') || ' '}${w}`)).join(''));
    }
    out.push(gap('between'), '</body></html>');
    return out.join('');
  }

  const tidy = (tokens: Token[]) => render(tokens, (where) => (where === 'word' ? ' ' : ''));

  it('whitespace laid out differently between tags and text, between words and inside tags never changes content', () => {
    fc.assert(
      fc.property(documentTokens, fc.infiniteStream(whitespace), fc.infiniteStream(someWhitespace), (tokens, gaps, wordGaps) => {
        const laidOut = render(tokens, (where) => (where === 'word' ? wordGaps.next().value : gaps.next().value));
        assert.equal(content(laidOut), content(tidy(tokens)));
      }),
      { numRuns: 300 },
    );
  });

  it('a comment inserted anywhere between tokens or inside a word never changes content', () => {
    fc.assert(
      fc.property(documentTokens, fc.nat(), fc.stringMatching(/^[a-zA-Z0-9 :.#-]{0,20}$/), (tokens, at, note) => {
        const comment = `<!--${note.replace(/^-|-$/g, 'x')}-->`;
        const html = tidy(tokens);
        // Slots in the body: before every tag and between two letters or digits of a word (never inside
        // an entity or a tag; in the head, `<title>` text is RCDATA, where `<!--` is text).
        const slots: number[] = [];
        let inTag = false;
        for (let i = BODY.length; i < html.length; i++) {
          const c = html[i] as string;
          if (c === '<') {
            inTag = true;
            slots.push(i);
          } else if (c === '>') {
            inTag = false;
          } else if (!inTag && /[A-Za-z0-9]/.test(c) && /[A-Za-z0-9]/.test(html[i - 1] ?? '') && !/&[#A-Za-z0-9]*$/.test(html.slice(Math.max(0, i - 10), i))) {
            slots.push(i);
          }
        }
        const slot = slots[at % slots.length] as number;
        assert.equal(content(html.slice(0, slot) + comment + html.slice(slot)), content(html));
      }),
      { numRuns: 300 },
    );
  });

  it('attribute order never changes content', () => {
    fc.assert(
      fc.property(documentTokens, fc.infiniteStream(fc.boolean()), (tokens, flips) => {
        const shuffled = tokens.map((t) => (t.kind === 'open' && flips.next().value ? { ...t, attrs: [...t.attrs].reverse() } : t));
        assert.equal(content(tidy(shuffled)), content(tidy(tokens)));
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary markup-ish input, and gives the same answer twice', () => {
    const piece = fc.oneof(
      fc.constantFrom('<', '>', '</', '/>', '<!--', '-->', '<!', '<?', ']]>', '<![CDATA[', '&', '&amp', '&#', '&#x', ';', '"', "'", '=', ' ', '\n', '\0'),
      fc.constantFrom('script', 'style', 'title', 'textarea', 'svg', 'math', 'p', 'div', 'main', 'meta', 'link', 'base', 'img', 'noscript', 'head', 'body'),
      fc.constantFrom('rel=canonical', 'href=', 'src=', 'hreflang=', 'http-equiv=refresh', 'content=', 'name=robots', 'noindex'),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }).map((p) => p.join('')), fc.boolean(), (html, withImages) => {
        const first = scanHtmlPage(html, PAGE, { images: withImages });
        assert.equal(typeof first.content, 'string');
        assert.deepEqual(scanHtmlPage(html, PAGE, { images: withImages }), first);
      }),
      { numRuns: 500 },
    );
  });
});

describe('scanHtmlPage: hostile input stays linear', () => {
  // htmlparser2's own Parser keeps open elements with Array#unshift: 200,000 unclosed <div> took 19 s.
  // These inputs take milliseconds when the work is linear; the bound leaves a margin of 100x.
  const cases: [string, string][] = [
    ['200,000 unclosed <div>', '<div>'.repeat(200_000)],
    ['100,000 open then 200,000 stray end tags', `${'<b>'.repeat(100_000)}${'</span>'.repeat(200_000)}`],
    ['a 1 MB whitespace run in text', `<p>a${' \n'.repeat(500_000)}b</p>`],
    ['a srcset of 1 MB of commas', `<img srcset="a${','.repeat(1_000_000)}b 1x">`],
    ['a script src of 1 MB of dashes', `<script src="/${'-'.repeat(1_000_000)}.js"></script>`],
    ['a robots content of 1 MB of separators', `<meta name="robots" content="${', :'.repeat(330_000)}x">`],
    ['a refresh content of 1 MB of digits', `<meta http-equiv="refresh" content="${'9'.repeat(1_000_000)}">`],
    // Each attribute was looked for among the tag's earlier ones: 60,000 took 22 s.
    ['a tag of 60,000 attributes', `<div ${Array.from({ length: 60_000 }, (_, i) => `a${i}`).join(' ')}>x</div>`],
  ];
  for (const [what, html] of cases) {
    it(what, () => {
      // CPU time, not wall time: a loaded machine makes the wall clock long, not the work.
      const started = process.cpuUsage();
      const facts = scanHtmlPage(html, PAGE, { images: true });
      const { user, system } = process.cpuUsage(started);
      assert.equal(typeof facts.content, 'string');
      assert.ok(user + system < 5_000_000, `${what}: ${Math.round((user + system) / 1000)} ms of CPU`);
    });
  }

  it('the encoding prescan of a whole page (scan-pages.ts reads one that decodes badly again) over a tag of 60,000 attributes', () => {
    const bytes = new TextEncoder().encode(`<div ${Array.from({ length: 60_000 }, (_, i) => `a${i}`).join(' ')}><meta charset="koi8-r">`);
    const started = process.cpuUsage();
    assert.equal(sniffHtmlEncoding(bytes, bytes.length), 'koi8-r');
    const { user, system } = process.cpuUsage(started);
    assert.ok(user + system < 5_000_000, `${Math.round((user + system) / 1000)} ms of CPU`);
  });

  it('closes every element left open, once', () => {
    const c = content('<div>'.repeat(1_000));
    assert.equal(c, '<div>'.repeat(1_000) + '</div>'.repeat(1_000));
  });
});

// ---------------------------------------------------------------------------------------------------

describe('sniffHtmlEncoding', () => {
  const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

  it('a BOM wins over everything', () => {
    assert.equal(sniffHtmlEncoding(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('<meta charset="iso-8859-2">')])), 'utf-8');
    assert.equal(sniffHtmlEncoding(new Uint8Array([0xfe, 0xff, 0, 0x3c])), 'utf-16be');
    assert.equal(sniffHtmlEncoding(new Uint8Array([0xff, 0xfe, 0x3c, 0])), 'utf-16le');
    // WHATWG Encoding knows no UTF-32: FF FE 00 00 is UTF-16LE with a U+0000; a BOM alone is one too.
    assert.equal(sniffHtmlEncoding(new Uint8Array([0xff, 0xfe, 0, 0])), 'utf-16le');
    assert.equal(sniffHtmlEncoding(new Uint8Array([0xfe, 0xff])), 'utf-16be');
  });

  const cases: [html: string, encoding: string][] = [
    ['<!doctype html><html><head><meta charset="windows-1251">', 'windows-1251'],
    ['<META CHARSET=Shift_JIS>', 'shift_jis'],
    ["<meta charset='ISO-8859-1'>", 'windows-1252'],
    ['<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-2">', 'iso-8859-2'],
    ['<meta content="text/html;charset=euc-jp" http-equiv="content-type">', 'euc-jp'],
    ['<meta content=\'text/html; charset="koi8-r"\' http-equiv=content-type>', 'koi8-r'],
    ['<meta content="text/html; charset=iso-8859-2">', 'utf-8'], // no http-equiv: the standard needs the pragma
    ['<meta charset="bogus"><meta charset="gbk">', 'gbk'],
    ['<meta charset="utf-16">', 'utf-8'], // a meta tag read as ASCII cannot be UTF-16
    ['<meta charset="iso-8859-5" charset="iso-8859-7">', 'iso-8859-5'],
    ['<!-- <meta charset="iso-8859-2"> --><meta charset="iso-8859-7">', 'iso-8859-7'],
    ['<!-- a > b <meta charset="iso-8859-2"> --><meta charset="iso-8859-7">', 'iso-8859-7'],
    ['<!--><meta charset="iso-8859-7">', 'iso-8859-7'],
    ['<div title="<meta charset=iso-8859-2>"><meta charset="iso-8859-7">', 'iso-8859-7'],
    ['<metadata charset="iso-8859-2"><meta/charset="iso-8859-7">', 'iso-8859-7'],
    // Out of bytes inside a tag: the prescan is aborted (HTML standard §13.2.3.2), nothing declared.
    ['<meta charset="koi8-r"', 'utf-8'],
    ["<meta charset='gbk' content=\"text/html", 'utf-8'],
    ['<p>no declaration at all</p>', 'utf-8'],
    ['', 'utf-8'],
  ];
  for (const [html, encoding] of cases) {
    it(`${JSON.stringify(html)} → ${encoding}`, () => assert.equal(sniffHtmlEncoding(bytes(html)), encoding));
  }

  it(`reads only the first ${HTML_PRESCAN_BYTES} bytes`, () => {
    assert.equal(sniffHtmlEncoding(bytes(`${' '.repeat(HTML_PRESCAN_BYTES - 30)}<meta charset="koi8-r">`)), 'koi8-r');
    assert.equal(sniffHtmlEncoding(bytes(`${' '.repeat(HTML_PRESCAN_BYTES)}<meta charset="koi8-r">`)), 'utf-8');
    // Further, where a browser's parser meets the declaration and changes to it.
    assert.equal(sniffHtmlEncoding(bytes(`${' '.repeat(HTML_PRESCAN_BYTES)}<meta charset="koi8-r">`), 4096), 'koi8-r');
  });

  it('gives a label TextDecoder accepts, which decodes the page', () => {
    // "Привет" in windows-1251.
    const page1251 = new Uint8Array([...bytes('<meta charset="cp1251"><p>'), 0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);
    const label = sniffHtmlEncoding(page1251);
    assert.equal(label, 'windows-1251');
    assert.match(new TextDecoder(label).decode(page1251), /<p>Привет$/);
  });

  it('never throws on arbitrary bytes and always names an encoding TextDecoder knows', () => {
    const ascii = fc.constantFrom(...'<>!-/?="\' \tmetaMETAcharsethttp-equivcontentutf-8iso-8859-2;'.split(''));
    const chunk = fc.oneof(
      fc.array(ascii, { maxLength: 40 }).map((a) => bytes(a.join(''))),
      fc.constantFrom(...['<meta ', 'charset=', '<!--', '-->', 'http-equiv="content-type"', 'content="text/html; charset=koi8-r"'].map(bytes)),
      fc.uint8Array({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 30 }), (chunks) => {
        const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let at = 0;
        for (const c of chunks) {
          all.set(c, at);
          at += c.length;
        }
        const label = sniffHtmlEncoding(all);
        assert.doesNotThrow(() => new TextDecoder(label));
      }),
      { numRuns: 500 },
    );
  });
});
