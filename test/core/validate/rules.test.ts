// The rule tester: each validation rule with documents that must not trigger it and documents that
// must, asserting codes and positions (never message prose). One table per family.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXmlSitemapText } from '../../../src/core/validate/validator.js';
import { VALIDATION_RULES } from '../../../src/core/validate/rules.js';
import type { ValidationOptions } from '../../../src/core/validate/validator.js';

const NOW = Date.UTC(2026, 0, 1);
const S = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const EXT = `${S} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"`;
/** A urlset whose first <url> starts at line 2, column 1; each argument is one line. */
const urlset = (...lines: string[]): string => `<urlset ${EXT}>\n${lines.join('\n')}\n</urlset>`;
const u = (inner: string): string => `<url>${inner}</url>`;
const LOC = '<loc>https://example.com/a</loc>';

/** Codes with positions (`code@line:column`), for codes of the given families. */
function found(text: string, families: readonly string[], options: ValidationOptions = {}): string[] {
  const r = validateXmlSitemapText(text, { now: NOW, ...options });
  return r.diagnostics.filter((d) => families.some((f) => d.code.startsWith(f))).map((d) => `${d.code}@${d.line ?? '-'}:${d.column ?? '-'}`);
}

interface Case {
  doc: string;
  expect: string[];
  options?: ValidationOptions;
}

function table(name: string, families: readonly string[], cases: Record<string, Case>): void {
  describe(name, () => {
    for (const [title, c] of Object.entries(cases)) {
      it(title, () => assert.deepStrictEqual(found(c.doc, families, c.options), c.expect));
    }
  });
}

table('schema structure (xsd/*, and the reader where it says the same)', ['xsd/', 'element/', 'loc/missing', 'urlset/', 'namespace/', 'image/', 'video/', 'news/', 'alternate/'], {
  'a minimal valid urlset': { doc: urlset(u(LOC)), expect: [] },
  'every field, in order, valid': { doc: urlset(u(`${LOC}<lastmod>2024-01-01T10:00:00+02:00</lastmod><changefreq>daily</changefreq><priority>0.5</priority>`)), expect: [] },
  'fields out of order': { doc: urlset(u(`${LOC}<priority>0.5</priority><lastmod>2024-01-01</lastmod>`)), expect: ['xsd/unexpected-element@2:62'] },
  'loc missing': { doc: urlset(u('<lastmod>2024-01-01</lastmod>')), expect: ['loc/missing@2:1', 'xsd/unexpected-element@2:6'] },
  'a field twice': { doc: urlset(u(`${LOC}<changefreq>daily</changefreq><changefreq>daily</changefreq>`)), expect: ['element/duplicate@2:68'] },
  'an unknown element in the sitemap namespace': { doc: urlset(u(`${LOC}<foo>x</foo>`)), expect: ['element/unexpected@2:38'] },
  'an element of an unknown namespace': { doc: urlset(u(`${LOC}<x:y xmlns:x="http://example.com/x">1</x:y>`)), expect: ['xsd/unknown-namespace@2:38'] },
  'image:loc outside image:image': { doc: urlset(u(`${LOC}<image:loc>https://example.com/i.jpg</image:loc>`)), expect: ['element/unexpected@2:38'] },
  'an attribute on url': { doc: urlset(`<url id="1">${LOC}</url>`), expect: ['xsd/unexpected-attribute@2:6'] },
  'an attribute whose prefix is not declared (xsi:type without xmlns:xsi, where type is declared)': { doc: urlset(u(`${LOC}<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a" xsi:type="x"/>`)), expect: ['xsd/unexpected-attribute@2:109'] },
  'xsi attributes are allowed': { doc: `<urlset ${S} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="a b">\n${u(LOC)}\n</urlset>`, expect: [] },
  'xsi:nil, even false (no element is nillable)': { doc: urlset(`<url><loc xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="false">https://example.com/a</loc></url>`), expect: ['xsd/unexpected-attribute@2:65'] },
  'xml:lang, xml:space (no schema declares them)': { doc: `<urlset ${S} xml:lang="en">\n<url xml:space="preserve">${LOC}</url>\n</urlset>`, expect: ['xsd/unexpected-attribute@1:61', 'xsd/unexpected-attribute@2:6'] },
  'an empty urlset': { doc: `<urlset ${S}>\n</urlset>`, expect: ['urlset/empty@1:1'] },
  'foreign elements only before the first url': { doc: urlset(u(LOC), '<xhtml:link rel="alternate" href="https://example.com/"/>'), expect: ['element/unexpected@3:1'] },
  'a loc of 12 characters': { doc: urlset(u('<loc>http://ab.cd</loc>')), expect: [] },
  'a loc of 11 characters': { doc: urlset(u('<loc>http://a.b</loc>')), expect: ['xsd/invalid-value@2:6'] },
  'a bad percent escape in loc': { doc: urlset(u('<loc>https://example.com/%zz</loc>')), expect: ['xsd/invalid-value@2:6'] },
  'changefreq with a space (xsd:string keeps it)': { doc: urlset(u(`${LOC}<changefreq>daily </changefreq>`)), expect: ['xsd/invalid-value@2:38'] },
  'priority with spaces (decimal collapses them)': { doc: urlset(u(`${LOC}<priority> 0.5 </priority>`)), expect: [] },
  'an empty or blank CDATA section inside url or urlset (character content to libxml2)': { doc: urlset(`<url><![CDATA[]]>${LOC}</url><![CDATA[ ]]>`), expect: ['xsd/text-not-allowed@2:6', 'xsd/text-not-allowed@2:56'] },
  'a blank text inside xhtml:link, whose content is empty (cvc-complex-type.2.1)': { doc: urlset(u(`${LOC}<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a">\n</xhtml:link>`)), expect: ['xsd/text-not-allowed@2:109'] },
  'text inside url': { doc: urlset(u(`${LOC}stray`)), expect: ['element/stray-text@2:38'] /* the reader's element/stray-text says it, at the same place */ },
  'image: loc required, order': { doc: urlset(u(`${LOC}<image:image><image:title>t</image:title></image:image>`)), expect: ['image/invalid@2:38', 'xsd/unexpected-element@2:51'] },
  'video: required fields': { doc: urlset(u(`${LOC}<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>t</video:title></video:video>`)), expect: ['video/no-content@2:1', 'video/invalid@2:38'] },
  'video: attribute values': { doc: urlset(u(`${LOC}<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>t</video:title><video:description>d</video:description><video:player_loc allow_embed="maybe">https://e.com/p</video:player_loc></video:video>`)), expect: ['video/invalid@2:181'] },
  'video: required attribute': { doc: urlset(u(`${LOC}<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>t</video:title><video:description>d</video:description><video:content_loc>https://e.com/v.mp4</video:content_loc><video:restriction>US</video:restriction></video:video>`)), expect: ['video/invalid@2:239'] },
  'news: publication required': { doc: urlset(u(`${LOC}<news:news><news:publication_date>2024-01-01</news:publication_date><news:title>t</news:title></news:news>`)), expect: ['news/invalid@2:38', 'xsd/unexpected-element@2:49'] },
  'news: language pattern': { doc: urlset(u(`${LOC}<news:news><news:publication><news:name>N</news:name><news:language>en-US</news:language></news:publication><news:publication_date>2024-01-01</news:publication_date><news:title>t</news:title></news:news>`)), expect: ['xsd/invalid-value@2:91'] },
  'xhtml:link needs href': { doc: urlset(u(`${LOC}<xhtml:link rel="alternate" hreflang="en"/>`)), expect: ['alternate/invalid@2:38'] },
  'a sitemap index': { doc: `<sitemapindex ${S}>\n<sitemap><loc>https://example.com/s.xml</loc><lastmod>2024-01-01</lastmod></sitemap>\n</sitemapindex>`, expect: [] },
  'an index entry with priority': { doc: `<sitemapindex ${S}>\n<sitemap><loc>https://example.com/s.xml</loc><priority>0.5</priority></sitemap>\n</sitemapindex>`, expect: ['element/unexpected@2:46'] },
});

table('values (value/whitespace, lastmod/not-xsd)', ['value/', 'lastmod/not-xsd'], {
  'clean values': { doc: urlset(u(`${LOC}<lastmod>2024-01-01</lastmod>`)), expect: [] },
  'whitespace around lastmod (the seed)': { doc: urlset(u(`${LOC}<lastmod>2005-01-01 </lastmod>`)), expect: ['value/whitespace@2:38'] },
  'a line break inside loc': { doc: urlset(u('<loc>\n  https://example.com/a\n</loc>')), expect: ['value/whitespace@2:6'] },
  'whitespace around an attribute value the reader trims (hreflang=" en", an href), at the attribute': {
    doc: urlset(u(`${LOC}<xhtml:link rel="alternate" hreflang=" en" href="https://example.com/a "/>`)),
    expect: ['value/whitespace@2:66', 'value/whitespace@2:81'],
  },
  'a year alone': { doc: urlset(u(`${LOC}<lastmod>2005</lastmod>`)), expect: ['lastmod/not-xsd@2:38'] },
  'a year and month': { doc: urlset(u(`${LOC}<lastmod>2005-01</lastmod>`)), expect: ['lastmod/not-xsd@2:38'] },
  'minutes without seconds': { doc: urlset(u(`${LOC}<lastmod>2005-01-01T10:00+01:00</lastmod>`)), expect: ['lastmod/not-xsd@2:38'] },
});

describe('an index that lists itself', () => {
  it('is index/nested at the entry where its own URL is known (a URL input, --base-url), written alike or in an equivalent form', () => {
    const doc = `<sitemapindex ${S}>\n<sitemap><loc>https://example.com/sitemap.xml</loc></sitemap>\n<sitemap><loc>HTTPS://Example.com:443/sitemap.xml</loc></sitemap>\n<sitemap><loc>https://example.com/a.xml</loc></sitemap>\n</sitemapindex>`;
    assert.deepEqual(found(doc, ['index/'], { location: 'https://example.com/sitemap.xml' }), ['index/nested@2:1', 'index/nested@3:1']);
    assert.deepEqual(found(doc, ['index/'], { location: 'https://example.com/other.xml' }), []);
    assert.deepEqual(found(doc, ['index/']), []);
  });
});

describe('the XML version', () => {
  it('warns of a declared version other than 1.0, which xmllint accepts with a warning: the verdict stands', () => {
    for (const [version, expect] of [['1.0', []], ['1.1', ['xml/version@1:1']], ['1.', ['xml/version@1:1']]] as const) {
      const r = validateXmlSitemapText(`<?xml version="${version}" encoding="UTF-8"?>\n${urlset(u(LOC))}`, { now: NOW });
      assert.deepEqual(r.diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`), expect, version);
      assert.equal(r.schemaValid, true, version);
    }
  });
});

describe('the schema verdict on values', () => {
  it('a lastmod ending in a no-break space is no W3C Datetime, not a lenient one nor one of the wrong precision', () => {
    assert.deepEqual(found(urlset(u(`${LOC}<lastmod>2024-01-01&#xA0;</lastmod>`)), ['lastmod/']), ['lastmod/invalid@2:38']);
  });

  it('a no-break space around loc, lastmod or priority is not collapsed whitespace (XML has only space, tab, CR, LF)', () => {
    const verdict = (inner: string): boolean => validateXmlSitemapText(urlset(u(inner)), { now: NOW }).schemaValid;
    assert.equal(verdict(`<loc>\t https://example.com/a\n</loc><lastmod> 2024-01-01 </lastmod><priority> 0.5 </priority>`), true);
    assert.equal(verdict('<loc>&#xA0;https://example.com/a</loc>'), false);
    assert.equal(verdict(`${LOC}<lastmod>2024-01-01&#xA0;</lastmod>`), false);
    assert.equal(verdict(`${LOC}<priority>&#xFEFF;0.5</priority>`), false);
  });
});

table('protocol (loc/*, lastmod/future, limits/*, image/*, video/*, news/*)', ['loc/', 'lastmod/future', 'limits/', 'image/too-many', 'video/no-content', 'video/same-as-loc', 'video/zero-duration', 'news/too-many'], {
  'a clean URL': { doc: urlset(u(LOC)), expect: [] },
  'an unencoded space (the French seed), at the loc': { doc: urlset(u('<loc>http://www.journaldunet.com/developpeur/ fil/tous_itws.shtml</loc>')), expect: ['loc/not-encoded@2:6'] },
  'non-ASCII': { doc: urlset(u('<loc>http://www.ejemplo.com/españa.html</loc>')), expect: ['loc/not-encoded@2:6'] },
  'an unencoded loc of an index, on a line of its own': { doc: `<sitemapindex ${S}>\n<sitemap>\n  <loc>https://example.com/a b.xml</loc>\n</sitemap>\n</sitemapindex>`, expect: ['loc/not-encoded@3:3'] },
  'unencoded URLs of images, videos and alternates': {
    doc: urlset(u(`${LOC}<image:image><image:loc>https://example.com/a b.jpg</image:loc></image:image><video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>t</video:title><video:description>d</video:description><video:content_loc>https://e.com/v|1.mp4</video:content_loc></video:video><xhtml:link rel="alternate" hreflang="es" href="https://example.com/españa"/>`), u('<loc>https://example.com/b</loc><image:image><image:loc>https://example.com/b%20c.jpg</image:loc></image:image>')),
    expect: ['loc/not-encoded@2:1', 'loc/not-encoded@2:1', 'loc/not-encoded@2:1'],
  },
  'a URL of 2,048 characters': { doc: urlset(u(`<loc>https://example.com/${'a'.repeat(2048 - 20)}</loc>`)), expect: ['loc/too-long@2:1'] },
  'duplicates': { doc: urlset(u(LOC), u(LOC)), expect: ['loc/duplicate@3:1'] },
  'in scope': { doc: urlset(u('<loc>https://example.com/blog/a</loc>')), options: { location: 'https://example.com/blog/sitemap.xml' }, expect: [] },
  'out of the directory': { doc: urlset(u('<loc>https://example.com/shop/a</loc>')), options: { location: 'https://example.com/blog/sitemap.xml' }, expect: ['loc/out-of-scope@2:1'] },
  'another host': { doc: urlset(u('<loc>https://www.example.com/blog/a</loc>')), options: { location: 'https://example.com/blog/sitemap.xml' }, expect: ['loc/out-of-scope@2:1'] },
  'another scheme': { doc: urlset(u('<loc>http://example.com/blog/a</loc>')), options: { location: 'https://example.com/blog/sitemap.xml' }, expect: ['loc/out-of-scope@2:1'] },
  'another port': { doc: urlset(u('<loc>https://example.com:8443/blog/a</loc>')), options: { location: 'https://example.com/blog/sitemap.xml' }, expect: ['loc/out-of-scope@2:1'] },
  'a URL no parser takes (a port past 65535, host 256.1.1.1, bad punycode) is no URL at all (its entry skipped)': {
    doc: urlset(...['https://example.com:99999/blog/a', 'https://256.1.1.1/blog/a', 'https://xn--zz.com/blog/a'].map((loc) => u(`<loc>${loc}</loc>`))),
    options: { location: 'https://example.com/blog/sitemap.xml' },
    expect: ['loc/invalid@2:6', 'loc/invalid@3:6', 'loc/invalid@4:6'],
  },
  'a port past 65535 (WHATWG URL refuses it; RFC 3986 and xsd:anyURI do not), in a urlset and an index': {
    doc: urlset(...['https://example.com:65535/a', 'https://example.com:65536/a', 'https://example.com:00080/a', 'https://u:99999@example.com/a:99999', 'https://[::1]:70000/a'].map((loc) => u(`<loc>${loc}</loc>`))),
    expect: ['loc/invalid@3:6', 'loc/credentials@5:1', 'loc/invalid@6:6'],
  },
  'a user name or password in a URL (RFC 3986 §3.2.1 userinfo), the location unknown': {
    doc: urlset(...['https://user:pw@example.com/a', 'https://user@example.com/b', 'https://example.com/c@d', 'https://example.com/e?f=g@h', 'https://u:p@other.example/i'].map((loc) => u(`<loc>${loc}</loc>`))),
    expect: ['loc/credentials@2:1', 'loc/credentials@3:1', 'loc/credentials@6:1'],
  },
  'credentials, with a location': {
    doc: urlset(...['https://user:pw@example.com/a', 'https://example.com/c@d', 'https://u:p@other.example/i'].map((loc) => u(`<loc>${loc}</loc>`))),
    options: { location: 'https://example.com/sitemap.xml' },
    expect: ['loc/credentials@2:1', 'loc/credentials@4:1', 'loc/out-of-scope@4:1'],
  },
  'credentials, by the events alone': {
    doc: urlset(u('<loc>https://user:pw@example.com/a</loc>')), options: { fastPath: false }, expect: ['loc/credentials@2:1'],
  },
  'credentials in an index': {
    doc: `<sitemapindex ${S}>\n<sitemap><loc>https://user:pw@example.com/s.xml</loc></sitemap>\n</sitemapindex>`, expect: ['loc/credentials@2:1'],
  },
  'a port past 65535 in an index': {
    doc: `<sitemapindex ${S}>\n<sitemap><loc>https://example.com:2147483647/s.xml</loc></sitemap>\n</sitemapindex>`,
    expect: ['loc/invalid@2:10'],
  },
  'lastmod in the future': { doc: urlset(u(`${LOC}<lastmod>2026-03-01</lastmod>`)), expect: ['lastmod/future@2:1'] },
  'lastmod today': { doc: urlset(u(`${LOC}<lastmod>2026-01-01</lastmod>`)), expect: [] },
  'too many URLs (a lowered limit is not possible: 50,001 entries)': { doc: urlset(...Array.from({ length: 50_001 }, (_, i) => u(`<loc>https://example.com/${i}</loc>`))), expect: ['limits/too-many-urls@-:-'] },
  'the legacy byte limit': { doc: urlset(...Array.from({ length: 5900 }, (_, i) => u(`<loc>https://example.com/${i}/${'x'.repeat(1800)}</loc>`))), options: { limits: 'legacy' }, expect: ['limits/file-too-large@-:-'] },
  'the current byte limit is not the legacy one': { doc: urlset(...Array.from({ length: 5900 }, (_, i) => u(`<loc>https://example.com/${i}/${'x'.repeat(1800)}</loc>`))), expect: [] },
  'a video with neither content_loc nor player_loc (sitemap-video.xsd takes it), and one with either': {
    doc: urlset(...['', '<video:content_loc>https://e.com/v.mp4</video:content_loc>', '<video:player_loc>https://e.com/p</video:player_loc>', '<video:content_loc></video:content_loc>'].map((where) =>
      u(`${LOC}<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>t</video:title><video:description>d</video:description>${where}</video:video>`))),
    expect: ['video/no-content@2:1', 'loc/duplicate@3:1', 'loc/duplicate@4:1', 'loc/duplicate@5:1', 'video/no-content@5:1'],
  },
  "a video whose content_loc or player_loc is the page's loc (as an equivalent URL too)": {
    doc: urlset(...[['a', '<video:content_loc>https://example.com/a</video:content_loc>'], ['b', '<video:player_loc>https://EXAMPLE.com/b</video:player_loc>'], ['c', '<video:content_loc>https://example.com/c.mp4</video:content_loc><video:player_loc>https://example.com/c?p</video:player_loc>']].map(([page, where]) =>
      u(`<loc>https://example.com/${page}</loc><video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>t</video:title><video:description>d</video:description>${where}</video:video>`))),
    expect: ['video/same-as-loc@2:1', 'video/same-as-loc@3:1'],
  },
  'a video:duration of 0 (sitemap-video.xsd takes it; Google takes 1 to 28,800), 1 and 28,800': {
    doc: urlset(...['0', '1', '28800', '+0'].map((duration, i) =>
      u(`<loc>https://example.com/${i}</loc><video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>t</video:title><video:description>d</video:description><video:content_loc>https://e.com/v.mp4</video:content_loc><video:duration>${duration}</video:duration></video:video>`))),
    expect: ['video/zero-duration@2:1', 'video/zero-duration@5:1'],
  },
  'too many images': { doc: urlset(u(`${LOC}${'<image:image><image:loc>https://example.com/i.jpg</image:loc></image:image>'.repeat(1001)}`)), expect: ['image/too-many@2:1'] },
});

table('hreflang (the group rules, through the validator)', ['hreflang/'], {
  'a complete group': { doc: urlset(u('<loc>https://e.com/en</loc><xhtml:link rel="alternate" hreflang="en" href="https://e.com/en"/><xhtml:link rel="alternate" hreflang="de" href="https://e.com/de"/>'), u('<loc>https://e.com/de</loc><xhtml:link rel="alternate" hreflang="en" href="https://e.com/en"/><xhtml:link rel="alternate" hreflang="de" href="https://e.com/de"/>')), expect: [] },
  'a page without alternates that another lists': { doc: urlset(u('<loc>https://e.com/en</loc><xhtml:link rel="alternate" hreflang="en" href="https://e.com/en"/><xhtml:link rel="alternate" hreflang="de" href="https://e.com/de"/>'), u('<loc>https://e.com/de</loc>')), expect: ['hreflang/missing-return-link@3:1'] },
  'en_US': { doc: urlset(u('<loc>https://e.com/en</loc><xhtml:link rel="alternate" hreflang="en_US" href="https://e.com/en"/>')), expect: ['hreflang/invalid-language@2:1'] },
});

describe('rule settings', () => {
  it('turns rules off and changes severities', () => {
    const doc = urlset(u(LOC), u(LOC));
    assert.deepStrictEqual(validateXmlSitemapText(doc, { rules: { 'loc/duplicate': 'off' } }).diagnostics, []);
    assert.deepStrictEqual(validateXmlSitemapText(doc, { rules: { 'loc/duplicate': 'error' } }).diagnostics.map((d) => d.severity), ['error']);
  });

  it('refuses options it would misread: a level spelt wrong made an error an info, and the file pass', () => {
    const doc = urlset(u(LOC));
    const refused = (options: unknown, message: RegExp): void => {
      assert.throws(() => validateXmlSitemapText(doc, options as ValidationOptions), (error: Error & { code?: string }) => error.code === 'ERR_SITEMAP_OPTION' && message.test(error.message));
    };
    refused({ rules: { 'loc/not-encoded': 'eror' } }, /the level of rule loc\/not-encoded must be one of error, warning, info, off, got "eror"/);
    refused({ rules: { 'loc/not-encodd': 'off' } }, /unknown rule "loc\/not-encodd" in rules/);
    refused({ limits: 'future' }, /limits must be one of current, legacy/);
    refused({ baseUrl: '/relative/' }, /baseUrl must be an absolute http\(s\) URL/);
    refused({ location: 'ftp://e.com/' }, /baseUrl must be an absolute http\(s\) URL/);
    refused({ now: Number.NaN }, /now must be epoch milliseconds/);
    refused({ now: 1e20 }, /now must be epoch milliseconds/);
  });
});

describe('the seeds', () => {
  it("the Spanish seed's index example gets an incorrect namespace that names the right one", () => {
    const r = validateXmlSitemapText(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/siteindex/0.9">\n<sitemap><loc>http://www.ejemplo.com/s1.xml.gz</loc></sitemap>\n</sitemapindex>`);
    assert.deepStrictEqual(r.diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`), ['namespace/wrong@1:1']);
    assert.match(r.diagnostics[0]?.hint ?? '', /http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9/);
    assert.equal(r.schemaValid, false);
  });
  it("the Spanish seed's second example (sobjetoap) likewise", () => {
    const r = validateXmlSitemapText(`<urlset xmlns="http://www.sobjetoaps.org/schemas/sobjetoap/0.9">\n${u(LOC)}\n</urlset>`);
    assert.deepStrictEqual(r.diagnostics.map((d) => d.code), ['namespace/wrong']);
    assert.match(r.diagnostics[0]?.hint ?? '', /http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9/);
  });
});

describe('docs/rules.md', () => {
  const doc = readFileSync(fileURLToPath(new URL('../../../docs/rules.md', import.meta.url)), 'utf8');

  it('documents every rule the validator can report', () => {
    const missing = [...VALIDATION_RULES.keys()].filter((code) => !doc.includes(`\`${code}\``));
    assert.deepStrictEqual(missing, []);
  });

  it("gives each rule a section that states the rule's default severity and Search Console wording", () => {
    for (const rule of VALIDATION_RULES.values()) {
      const start = doc.indexOf(`\n### \`${rule.code}\`\n`);
      assert.ok(start >= 0, `a section for ${rule.code}`);
      const end = doc.indexOf('\n### ', start + 1);
      const section = doc.slice(start, end === -1 ? undefined : end);
      assert.equal(/\*\*Severity\*\*: (\w+)/.exec(section)?.[1], rule.severity, `the severity of ${rule.code}`);
      const searchConsole = rule.searchConsole === undefined ? '—' : `"${rule.searchConsole}"`;
      assert.equal(/\*\*Search Console\*\*: (.*)/.exec(section)?.[1], searchConsole, `the Search Console wording of ${rule.code}`);
    }
  });
});

describe('xsd/invalid-value on a type with no upper bound', () => {
  it('says the bound it misses and the hint names it (not "within 0–∞", "write a whole number" for -1)', () => {
    const doc = urlset(u(`${LOC}<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc><video:title>t</video:title><video:description>d</video:description><video:content_loc>https://e.com/v.mp4</video:content_loc><video:view_count>-1</video:view_count></video:video>`));
    const d = validateXmlSitemapText(doc, { now: NOW }).diagnostics.find((x) => x.code === 'xsd/invalid-value');
    assert.equal(d?.message, '<video:view_count> "-1" is less than 0');
    assert.equal(d?.hint, 'write a whole number, 0 or more');
  });
});
