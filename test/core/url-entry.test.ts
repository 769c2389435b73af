import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UrlEntrySerializer, ALL_EXTENSIONS, namespaceDeclarations } from '../../src/core/write/url-entry.js';
import { LIMITS_PROFILES, NS, type UrlEntry } from '../../src/core/model.js';
import { InvalidValueError } from '../../src/core/errors.js';
import { scopeOf } from '../../src/core/url.js';
import { xmllint } from '../helpers/xmllint.js';

const serializer = new UrlEntrySerializer({ limits: LIMITS_PROFILES.current });

function doc(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS.sitemap}"${namespaceDeclarations(ALL_EXTENSIONS)}>\n${body}</urlset>\n`;
}

function refused(entry: unknown, rule: string, mentions?: string): void {
  assert.throws(
    () => serializer.serialize(entry as UrlEntry, ALL_EXTENSIONS),
    (error: unknown) => {
      assert.ok(error instanceof InvalidValueError, `expected InvalidValueError, got ${String(error)}`);
      assert.equal(error.code, 'ERR_SITEMAP_INVALID_VALUE');
      assert.equal(error.rule, rule);
      if (mentions !== undefined) assert.ok(error.message.includes(mentions), `message ${JSON.stringify(error.message)} should mention ${mentions}`);
      return true;
    },
  );
}

test('the seed examples come out escaped and encoded as the protocol shows', () => {
  assert.equal(
    serializer.serialize({ loc: 'http://www.ejemplo.com/españa.html&q=nombre' }, 0),
    '<url><loc>http://www.ejemplo.com/espa%C3%B1a.html&amp;q=nombre</loc></url>\n',
  );
  assert.equal(
    serializer.serialize({ loc: 'http://www.ejemplo.com/catalogo?objeto=12&desc=madrid', changefreq: 'weekly' }, 0),
    '<url><loc>http://www.ejemplo.com/catalogo?objeto=12&amp;desc=madrid</loc><changefreq>weekly</changefreq></url>\n',
  );
});

test('core fields in sitemap.xsd order, with values as the schema wants them', () => {
  const xml = serializer.serialize({ loc: 'https://example.com/a', lastmod: '2004-12-23T18:00:15+00:00', changefreq: 'monthly', priority: 0.8 }, 0);
  assert.equal(xml, '<url><loc>https://example.com/a</loc><lastmod>2004-12-23T18:00:15+00:00</lastmod><changefreq>monthly</changefreq><priority>0.8</priority></url>\n');
  assert.match(serializer.serialize({ loc: 'https://example.com/', priority: 1 }, 0), /<priority>1\.0<\/priority>/);
  assert.match(serializer.serialize({ loc: 'https://example.com/', priority: 0 }, 0), /<priority>0\.0<\/priority>/);
  assert.match(serializer.serialize({ loc: 'https://example.com/', priority: '0.50' }, 0), /<priority>0\.50<\/priority>/);
  // Numbers JavaScript prints in exponent form are written out in full, and one too small for 20 places is 0.0, not "0."
  assert.match(serializer.serialize({ loc: 'https://example.com/', priority: 1e-7 }, 0), /<priority>0\.0000001<\/priority>/);
  assert.match(serializer.serialize({ loc: 'https://example.com/', priority: 5e-324 }, 0), /<priority>0\.0<\/priority>/);
  assert.equal(serializer.lastmodText, undefined);
});

test('every special character of a value is escaped, nothing else is altered', () => {
  const xml = serializer.serialize({ loc: 'https://example.com/', images: [{ loc: 'https://example.com/i.jpg', title: `Tom & Jerry's "<best>" ñ` }] }, ALL_EXTENSIONS);
  assert.ok(xml.includes('<image:title>Tom &amp; Jerry&apos;s &quot;&lt;best&gt;&quot; ñ</image:title>'));
});

test('invalid values are refused with a message naming the value', () => {
  refused({ loc: 'https://example.com/', changefreq: 'Weekly' }, 'changefreq/invalid', '"Weekly"');
  refused({ loc: 'https://example.com/', changefreq: 'sometimes' }, 'changefreq/invalid', '"sometimes"');
  refused({ loc: 'https://example.com/', priority: 1.5 }, 'priority/out-of-range', '1.5');
  refused({ loc: 'https://example.com/', priority: -0.1 }, 'priority/out-of-range');
  refused({ loc: 'https://example.com/', priority: 'high' }, 'priority/invalid', '"high"');
  refused({ loc: 'https://example.com/', priority: Number.NaN }, 'priority/out-of-range');
  // Written decimals are read as xsd:decimal, bounds compared exactly (xmllint refuses a digit past 1.0).
  refused({ loc: 'https://example.com/', priority: '-0.1' }, 'priority/out-of-range', '"-0.1"');
  refused({ loc: 'https://example.com/', priority: '1.0000000000000000000001' }, 'priority/out-of-range');
  refused({ loc: 'https://example.com/', lastmod: 'not-a-date' }, 'lastmod/invalid', 'not-a-date');
  refused({ loc: 'ftp://example.com/' }, 'loc/unsupported-scheme');
  refused({ loc: '/relative' }, 'loc/not-absolute');
  refused({ loc: 'https://example.com/' + 'a'.repeat(2048) }, 'loc/too-long');
  // sitemap.xsd's tLoc has minLength 12: xmllint and validate refuse http://a.b/ (11); http://a.bc/ passes.
  refused({ loc: 'HTTP://A.B' }, 'loc/too-short', '"http://a.b/" has 11 characters');
  assert.ok(serializer.serialize({ loc: 'http://a.bc' }, 0).startsWith('<url><loc>http://a.bc/</loc>'));
  assert.ok(serializer.serialize({ loc: 'http://a.bc/', images: [{ loc: 'http://a.b/' }] }, ALL_EXTENSIONS).includes('<image:loc>http://a.b/</image:loc>'));
  refused({ loc: 42 }, 'loc/invalid');
  refused(null, 'entry/invalid');
  refused({ loc: 'https://example.com/', images: [{ loc: 'https://example.com/i.jpg', caption: 'bell \u0007' }] }, 'image:caption/invalid-char', 'U+0007');
  refused({ loc: 'https://example.com/', images: Array.from({ length: 1001 }, (_, i) => ({ loc: `https://example.com/${i}.jpg` })) }, 'image/too-many', '1001');
});

test('scope: a loc outside the base URL is refused with the reason', () => {
  const scoped = new UrlEntrySerializer({ limits: LIMITS_PROFILES.current, baseUrl: 'http://ejemplo.com/catalogo/', scope: scopeOf('http://ejemplo.com/catalogo/') });
  assert.match(scoped.serialize({ loc: 'http://ejemplo.com/catalogo/mostrar?objeto=23' }, 0), /catalogo\/mostrar/);
  assert.match(scoped.serialize({ loc: '/catalogo/x' }, 0), /<loc>http:\/\/ejemplo.com\/catalogo\/x<\/loc>/);
  assert.throws(() => scoped.serialize({ loc: 'http://ejemplo.com/imagenes/mostrar?objeto=23' }, 0), { code: 'ERR_SITEMAP_INVALID_VALUE', rule: 'loc/out-of-scope' });
  assert.throws(() => scoped.serialize({ loc: 'https://ejemplo.com/catalogo/pagina1.html' }, 0), { code: 'ERR_SITEMAP_INVALID_VALUE', rule: 'loc/out-of-scope' });
  // Extensions may point elsewhere (a CDN, another language's domain).
  assert.doesNotThrow(() => scoped.serialize({ loc: '/catalogo/y', images: [{ loc: 'https://cdn.example.net/y.jpg' }], alternates: [{ hreflang: 'en', href: 'https://example.co.uk/y' }] }, ALL_EXTENSIONS));
});

test('an extension namespace the root did not declare is declared on the element', () => {
  const xml = serializer.serialize({ loc: 'https://example.com/', images: [{ loc: 'https://example.com/i.jpg' }] }, 0);
  assert.ok(xml.includes(`<image:image xmlns:image="${NS.image}">`));
  assert.equal(namespaceDeclarations(serializer.usedNamespaces), ` xmlns:image="${NS.image}"`);
  const declared = serializer.serialize({ loc: 'https://example.com/', images: [{ loc: 'https://example.com/i.jpg' }] }, serializer.usedNamespaces);
  assert.ok(declared.includes('<image:image><image:loc>'));
});

const full: UrlEntry = {
  loc: 'https://www.example.com/videos/some_video_landing_page.html',
  lastmod: '2024-05-01',
  changefreq: 'daily',
  priority: '0.5',
  images: [
    { loc: 'https://www.example.com/image.jpg', caption: 'A caption', geoLocation: 'Limerick, Ireland', title: 'Título', license: 'https://www.example.com/license' },
    { loc: 'https://www.example.com/photo ñ.jpg' },
  ],
  videos: [
    {
      thumbnailLoc: 'https://www.example.com/thumbs/123.jpg',
      title: 'Grilling steaks for summer',
      description: 'Alkis shows you how to get perfectly done steaks every time',
      contentLoc: 'http://streamserver.example.com/video123.mp4',
      playerLoc: 'https://www.example.com/videoplayer.php?video=123',
      playerLocAllowEmbed: 'yes',
      playerLocAutoplay: 'ap=1',
      duration: 600,
      expirationDate: '2030-11-05T19:20:30+08:00',
      rating: 4.2,
      contentSegmentLocs: [{ loc: 'https://www.example.com/seg1.mp4', duration: 30 }],
      viewCount: 12345,
      publicationDate: '2007-11-05T19:20:30+08:00',
      tags: ['steak', 'meat'],
      category: 'Grilling',
      familyFriendly: 'yes',
      restriction: { relationship: 'allow', countries: ['IE', 'GB', 'US', 'CA'] },
      galleryLoc: 'https://www.example.com/gallery',
      galleryLocTitle: 'Cooking & grilling',
      prices: [{ value: '1.99', currency: 'EUR', type: 'rent', resolution: 'hd' }],
      requiresSubscription: 'no',
      uploader: 'GrillyMcGrillserson',
      uploaderInfo: 'https://www.example.com/users/grillymcgrillerson',
      tvshow: { showTitle: 'Grill show', videoType: 'full', episodeTitle: 'Steaks', seasonNumber: 3, episodeNumber: 7, premierDate: '2007-11-05' },
      platform: { relationship: 'allow', platforms: ['web', 'tv'] },
      live: 'no',
      ids: [{ type: 'url', value: 'https://www.example.com/id/123' }],
    },
  ],
  news: {
    publication: { name: 'The Example Times', language: 'en' },
    publicationDate: '2008-12-23',
    title: 'Companies A, B in Merger Talks',
    access: 'Subscription',
    genres: ['PressRelease', 'Blog'],
    keywords: ['business', 'merger', 'acquisition'],
    stockTickers: ['NASDAQ:A', 'NASDAQ:B'],
  },
  alternates: [
    { hreflang: 'en', href: 'https://www.example.com/videos/some_video_landing_page.html' },
    { hreflang: 'de-CH', href: 'https://www.example.ch/videos/seite.html' },
    { hreflang: 'x-default', href: 'https://www.example.com/' },
  ],
};

test('an entry with every extension and every field validates against the XSDs', async () => {
  const body = serializer.serialize(full, ALL_EXTENSIONS);
  const result = await xmllint(doc(body), 'all');
  assert.deepEqual(result.errors, []);
  assert.ok(result.valid);
  assert.ok(body.includes('<image:loc>https://www.example.com/photo%20%C3%B1.jpg</image:loc>'));
  assert.ok(body.includes('<video:gallery_loc title="Cooking &amp; grilling">'));
  assert.ok(serializer.hasNews);
});

test('a minimal video, news and image validate too', async () => {
  const body = serializer.serialize(
    {
      loc: 'https://example.com/p',
      videos: [{ thumbnailLoc: 'https://example.com/t.jpg', title: 't', description: 'd', playerLoc: 'https://example.com/player' }],
      news: { publication: { name: 'N', language: 'zh-cn' }, publicationDate: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), title: 'T' },
      images: [{ loc: 'https://example.com/i.png' }],
    },
    ALL_EXTENSIONS,
  );
  assert.ok(body.includes('<news:publication_date>2024-01-02T03:04:05Z</news:publication_date>'));
  const result = await xmllint(doc(body), 'all');
  assert.deepEqual(result.errors, []);
});

test('extension values outside their schemas are refused', () => {
  const base = { loc: 'https://example.com/' };
  const video = full.videos?.[0] as NonNullable<UrlEntry['videos']>[number];
  refused({ ...base, videos: [{ ...video, contentLoc: undefined, playerLoc: undefined }] }, 'video/no-content');
  // What validate calls an error (video/same-as-loc) is not written: the page's own loc, however spelt.
  refused({ ...base, videos: [{ ...video, contentLoc: 'https://EXAMPLE.com:443/' }] }, 'video/same-as-loc');
  refused({ ...base, videos: [{ ...video, contentLoc: undefined, playerLoc: 'https://example.com' }] }, 'video/same-as-loc');
  refused({ ...base, videos: [{ ...video, duration: 28801 }] }, 'video:duration/out-of-range');
  refused({ ...base, videos: [{ ...video, duration: 2459.1 }] }, 'video:duration/invalid');
  refused({ ...base, videos: [{ ...video, duration: '-5' }] }, 'video:duration/out-of-range');
  // Untyped input (JSON Lines) may give a number as text.
  assert.match(serializer.serialize({ ...base, videos: [{ ...video, duration: '+600' as unknown as number }] }, ALL_EXTENSIONS), /<video:duration>600<\/video:duration>/);
  refused({ ...base, videos: [{ ...video, rating: 5.5 }] }, 'video:rating/out-of-range');
  refused({ ...base, videos: [{ ...video, title: 'x'.repeat(101) }] }, 'video:title/too-long');
  // XSD's maxLength counts characters: 100 emoji (200 UTF-16 units) are a title, 101 are not.
  assert.match(serializer.serialize({ ...base, videos: [{ ...video, title: '😀'.repeat(100) }] }, ALL_EXTENSIONS), /<video:title>(😀){100}<\/video:title>/);
  refused({ ...base, videos: [{ ...video, title: '😀'.repeat(101) }] }, 'video:title/too-long', 'has 101 characters');
  refused({ ...base, videos: [{ ...video, tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }] }, 'video:tag/too-many');
  // A blank required text is what validate calls missing (video/invalid, news/invalid): not written.
  refused({ ...base, videos: [{ ...video, title: '' }] }, 'video:title/empty');
  refused({ ...base, videos: [{ ...video, description: ' \n' }] }, 'video:description/empty');
  refused({ ...base, videos: [{ ...video, tvshow: { showTitle: '', videoType: 'full' } }] }, 'video:show_title/empty');
  refused({ ...base, news: { ...full.news, title: '\t' } }, 'news:title/empty');
  refused({ ...base, news: { ...full.news, publication: { name: ' ', language: 'en' } } }, 'news:name/empty');
  refused({ ...base, videos: [{ ...video, restriction: { relationship: 'allow', countries: ['ie'] } }] }, 'video:restriction/invalid');
  refused({ ...base, videos: [{ ...video, prices: [{ value: 1, currency: 'euro' }] }] }, 'video:price/invalid');
  refused({ ...base, videos: [{ ...video, familyFriendly: 'maybe' }] }, 'video:family_friendly/invalid');
  refused({ ...base, news: { ...full.news, publication: { name: 'X', language: 'en-US' } } }, 'news:language/invalid', 'en-US');
  refused({ ...base, news: { ...full.news, genres: ['Gossip'] } }, 'news:genres/invalid');
  // sitemap-news.xsd's genres pattern needs one genre: an empty list would make the file schema-invalid.
  refused({ ...base, news: { ...full.news, genres: [] } }, 'news:genres/invalid');
  refused({ ...base, news: { ...full.news, publicationDate: 'yesterday' } }, 'news:publication_date/invalid');
  refused({ ...base, news: { ...full.news, stockTickers: ['A:B', 'C:D', 'E:F', 'G:H', 'I:J', 'K:L'] } }, 'news:stock_tickers/too-many');
  refused({ ...base, alternates: [{ hreflang: 'en_US', href: 'https://example.com/' }] }, 'hreflang/invalid', 'en_US');
  // As validate's hreflang rules want: one URL per language (the same pair twice is no conflict), one x-default.
  refused({ ...base, alternates: [{ hreflang: 'de', href: 'https://example.com/a' }, { hreflang: 'DE', href: 'https://example.com/b' }] }, 'hreflang/duplicate-language', '"https://example.com/a" and "https://example.com/b"');
  refused({ ...base, alternates: [{ hreflang: 'x-default', href: 'https://example.com/a' }, { hreflang: 'x-default', href: 'https://example.com/a' }] }, 'hreflang/duplicate-x-default');
  const twice = new UrlEntrySerializer({ limits: LIMITS_PROFILES.current, baseUrl: 'https://example.com/' }).serialize({ ...base, alternates: [{ hreflang: 'de', href: '/a' }, { hreflang: 'DE', href: 'https://example.com/a' }] }, ALL_EXTENSIONS);
  assert.equal(twice.match(/<xhtml:link /g)?.length, 2);
  // Case carries no meaning in a language tag (RFC 5646 §2.1.1), x-default's included.
  assert.match(serializer.serialize({ ...base, alternates: [{ hreflang: 'X-Default', href: 'https://example.com/' }] }, ALL_EXTENSIONS), /hreflang="X-Default"/);
});

test('a missing item of a video list is refused with its field, not a TypeError', () => {
  const video = full.videos?.[0] as NonNullable<UrlEntry['videos']>[number];
  const entry = (v: Record<string, unknown>): unknown => ({ loc: 'https://example.com/', videos: [{ ...video, ...v }] });
  refused(entry({ prices: [null] }), 'video:price/invalid');
  refused(entry({ ids: [null] }), 'video:id/invalid');
  refused(entry({ contentSegmentLocs: [{ loc: 'https://example.com/s' }, null] }), 'video:content_segment_loc/invalid');
  refused(entry({ tvshow: 'a show' }), 'video:tvshow/invalid');
});

test('CR in text and tab/LF/CR in attribute values are written as references, so a parser reads them back', () => {
  const xml = serializer.serialize(
    {
      loc: 'https://example.com/',
      images: [{ loc: 'https://example.com/i.jpg', caption: 'line 1\r\nline 2' }],
      videos: [{ thumbnailLoc: 'https://example.com/t.jpg', title: 't', description: 'd', contentLoc: 'https://example.com/v.mp4', galleryLoc: 'https://example.com/g', galleryLocTitle: 'a\tb\nc\rd' }],
    },
    ALL_EXTENSIONS,
  );
  assert.ok(xml.includes('<image:caption>line 1&#13;\nline 2</image:caption>'));
  assert.ok(xml.includes('title="a&#9;b&#10;c&#13;d"'));
});
