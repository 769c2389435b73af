// Where validate and `xmllint --schema` must agree, at the edges: attributes the schemas do not
// declare but XML and XSD give a meaning, and integers past a double's. xsi:type (XSD 1.0 Structures §3.3.4, Element Locally Valid (Element) clause 4): the type it
// names must resolve and be the element's own or derived from it, and then the element is checked as
// that type. Namespace declarations: what libxml2 binds. Integers: xsd:integer has no bound (a
// value the model cannot hold is the reader's video/invalid, not a schema error). Each case pins what `validateXmlSitemapText`
// reports (code@line:column) and that libxml2 agrees on the verdict (xmllint-wasm against
// schemas/all.xsd or all-index.xsd, one run for all).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateXmlSitemapText } from '../../../src/core/validate/validator.js';
import { xmllintEach } from '../../helpers/xmllint.js';

const NOW = Date.UTC(2026, 0, 1);
const NAMESPACES = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"'
  + ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml"';
const LOC = '<loc>https://example.com/a</loc>';
/** A urlset whose one <url> is on line 2: `<url${attributes}>${LOC}${inner}</url>`. */
const urlset = (attributes: string, inner = ''): string => `<urlset ${NAMESPACES}>\n<url${attributes}>${LOC}${inner}</url>\n</urlset>`;
/** An image:image whose caption (column 99 of line 2 in urlset('', …), its attribute at 114) has the attribute `xsi:type="${type}"`. */
const caption = (type: string, text: string): string => `<image:image><image:loc>https://example.com/i.jpg</image:loc><image:caption xsi:type="${type}">${text}</image:caption></image:image>`;
// A content_loc unless `more` has a player_loc (Google's video sitemaps need one of them: video/no-content).
const video = (more: string): string =>
  `<video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description>${more.startsWith('<video:player_loc') ? '' : '<video:content_loc>https://example.com/v.mp4</video:content_loc>'}${more}</video:video>`;

interface Case {
  doc: string;
  /** What xmllint --schema says. */
  valid: boolean;
  /** Our errors, as code@line:column. */
  expect: string[];
}

const CASES: Record<string, Case> = {
  "the element's own type (tUrl on url)": { doc: urlset(' xsi:type="tUrl"'), valid: true, expect: [] },
  "the element's own type with its namespace's prefix": { doc: urlset(' xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9" xsi:type="s:tUrl"'), valid: true, expect: [] },
  "a simple type's own (tPriority on priority), its value still checked": { doc: urlset('', '<priority xsi:type="tPriority">1.5</priority>'), valid: false, expect: ['priority/out-of-range@2:38'] },
  'an unknown type': { doc: urlset(' xsi:type="tFoo"'), valid: false, expect: ['xsd/invalid-attribute@2:6'] },
  "an unprefixed built-in's name (in the default namespace, not XSD's)": { doc: urlset(' xsi:type="string"'), valid: false, expect: ['xsd/invalid-attribute@2:6'] },
  'whitespace around the name (resolved as written, so not found)': { doc: urlset(' xsi:type="tUrl "'), valid: false, expect: ['xsd/invalid-attribute@2:6'] },
  'an undeclared prefix': { doc: urlset(' xsi:type="zz:tUrl"'), valid: false, expect: ['xsd/invalid-attribute@2:6'] },
  'the xmlns prefix': { doc: urlset(' xsi:type="xmlns:tUrl"'), valid: false, expect: ['xsd/invalid-attribute@2:6'] },
  'not a QName': { doc: urlset(' xsi:type="a b"'), valid: false, expect: ['xsd/invalid-attribute@2:6'] },
  'empty': { doc: urlset(' xsi:type=""'), valid: false, expect: ['xsd/invalid-attribute@2:6'] },
  "a type of another namespace (the video schema's tYesNo on url)": { doc: urlset(' xsi:type="video:tYesNo"'), valid: false, expect: ['xsd/invalid-attribute@2:6'] },
  'a built-in simple type on an element of complex type (xsd:string on url)': { doc: urlset(' xsi:type="xsd:string"'), valid: false, expect: ['xsd/invalid-attribute@2:6'] },
  'xsd:anyType on url (the base, not derived)': { doc: urlset(' xsi:type="xsd:anyType"'), valid: false, expect: ['xsd/invalid-attribute@2:6'] },
  "a simple type's base (xsd:decimal on priority, of type tPriority)": { doc: urlset('', '<priority xsi:type="xsd:decimal">0.5</priority>'), valid: false, expect: ['xsd/invalid-attribute@2:48'] },
  "tLoc's base (xsd:anyURI on loc)": { doc: urlset('', '').replace('<loc>', '<loc xsi:type="xsd:anyURI">'), valid: false, expect: ['xsd/invalid-attribute@2:11'] },
  "an index's own type (tSitemap, of siteindex.xsd)": { doc: `<sitemapindex ${NAMESPACES}>\n<sitemap xsi:type="tSitemap">${LOC}</sitemap>\n</sitemapindex>`, valid: true, expect: [] },
  "sitemap.xsd's tLoc in an index (all-index.xsd loads siteindex.xsd)": { doc: `<sitemapindex ${NAMESPACES}>\n<sitemap><loc xsi:type="tLoc">https://example.com/a</loc></sitemap>\n</sitemapindex>`, valid: false, expect: ['xsd/invalid-attribute@2:15'] },
  'any type on the root (its type has no name)': { doc: urlset('').replace('<urlset ', '<urlset xsi:type="xsd:anyType" '), valid: false, expect: ['xsd/invalid-attribute@1:9'] },
  'any type on xhtml:link (its type has no name)': { doc: urlset('', '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a" xsi:type="xsd:anyType"/>'), valid: false, expect: ['xsd/invalid-attribute@2:109'] },
  'xsd:anyURI on image:loc (its own type)': { doc: urlset('', '<image:image><image:loc xsi:type="xsd:anyURI">https://example.com/i.jpg</image:loc></image:image>'), valid: true, expect: [] },
  'tLoc on image:loc (derived from xsd:anyURI), its facets applied': { doc: urlset('', '<image:image><image:loc xsi:type="tLoc">/i.jpg</image:loc></image:image>'), valid: false, expect: ['image/invalid@2:38', 'xsd/invalid-value@2:51'] },
  'xsd:token on image:caption (derived from xsd:string)': { doc: urlset('', caption('xsd:token', ' a  b ')), valid: true, expect: [] },
  'xsd:language on image:caption, a valid tag': { doc: urlset('', caption('xsd:language', 'en-US')), valid: true, expect: [] },
  'xsd:language on image:caption, not a tag': { doc: urlset('', caption('xsd:language', 'en_US')), valid: false, expect: ['xsd/invalid-value@2:99'] },
  'xsd:NCName on image:caption, with a space': { doc: urlset('', caption('xsd:NCName', 'a b')), valid: false, expect: ['xsd/invalid-value@2:99'] },
  'xsd:ID on image:caption (an ID in element content need not be unique for libxml2)': { doc: urlset('', caption('xsd:ID', 'a') + caption('xsd:ID', 'a')), valid: true, expect: [] },
  'xsd:ENTITY on image:caption (no entity is declared)': { doc: urlset('', caption('xsd:ENTITY', 'a')), valid: false, expect: ['xsd/invalid-value@2:99'] },
  'xsd:NMTOKENS on image:caption (a list type: not derived from xsd:string)': { doc: urlset('', caption('xsd:NMTOKENS', 'a')), valid: false, expect: ['xsd/invalid-attribute@2:114'] },
  "the video schema's tYesNo on image:caption (derived from xsd:string), its enumeration applied": { doc: urlset('', caption('video:tYesNo', 'maybe')), valid: false, expect: ['xsd/invalid-value@2:99'] },
  "tLastmod on image:caption (a union: not derived from xsd:string)": { doc: urlset('', caption('tLastmod', '2024-01-01')), valid: false, expect: ['xsd/invalid-attribute@2:114'] },
  'xmlns:p="" (an error in XML 1.0) leaves p bound as it was: libxml2 ignores it': {
    doc: urlset('', '<p:image xmlns:p="" xmlns:q="http://www.google.com/schemas/sitemap-image/1.1"><p:loc>https://example.com/i.jpg</p:loc></p:image>').replace('<urlset ', '<urlset xmlns:p="http://www.google.com/schemas/sitemap-image/1.1" '),
    valid: true,
    expect: [],
  },
  'xmlns:p="" for a prefix bound nowhere: p is undeclared': { doc: urlset('', '<p:image xmlns:p=""/>'), valid: false, expect: ['element/unexpected@2:38'] },
  'xmlns:p="" and xmlns:p="…" on one element: libxml2 drops the empty one, so there is no duplicate': {
    doc: urlset('', '<p:image xmlns:p="" xmlns:p="http://www.google.com/schemas/sitemap-image/1.1"><p:loc>https://example.com/i.jpg</p:loc></p:image>'),
    valid: true,
    expect: [],
  },
  'xmlns:p="…" and xmlns:p="" on one element, likewise': {
    doc: urlset('', '<p:image xmlns:p="http://www.google.com/schemas/sitemap-image/1.1" xmlns:p=""><p:loc>https://example.com/i.jpg</p:loc></p:image>'),
    valid: true,
    expect: [],
  },
  'xmlns:p="" twice, and xmlns:xml twice (libxml2 drops every declaration of xml and xmlns)': {
    doc: urlset(' xmlns:p="" xmlns:p="" xmlns:xml="http://www.w3.org/XML/1998/namespace" xmlns:xml="http://www.w3.org/XML/1998/namespace" xmlns:xmlns="urn:x" xmlns:xmlns="urn:x"'),
    valid: true,
    expect: [],
  },
  'xmlns:p="…" twice is a duplicate attribute, so is xmlns:p=" " then xmlns:p="…"': {
    doc: urlset(' xmlns:p="urn:x" xmlns:p="urn:x" xmlns:q=" " xmlns:q="urn:y"'),
    valid: false,
    expect: ['xml/duplicate-attribute@2:22', 'xml/duplicate-attribute@2:50'],
  },
  'xmlns:1a="" twice is a duplicate attribute (no declaration: its prefix is no NCName)': { doc: urlset(' xmlns:1a="" xmlns:1a=""'), valid: false, expect: ['xsd/unexpected-attribute@2:6', 'xml/duplicate-attribute@2:18'] },
  'xmlns:1a="…" (its name is no QName): no declaration, but an attribute url does not have': { doc: urlset(' xmlns:1a="urn:x"'), valid: false, expect: ['xsd/unexpected-attribute@2:6'] },
  'xmlns:="…" likewise': { doc: urlset(' xmlns:="urn:x"'), valid: false, expect: ['xsd/unexpected-attribute@2:6'] },
  'xmlns:a.b="…", a prefix that is an NCName, declares it': { doc: urlset(' xmlns:a.b="urn:x"'), valid: true, expect: [] },
  'a view_count past 2^53 (xsd:nonNegativeInteger is unbounded)': { doc: urlset('', video('<video:view_count>99999999999999999999999</video:view_count>')), valid: true, expect: ['video/invalid@2:251'] },
  'integers as xsd:integer writes them: -0 for a nonNegativeInteger, +5 and leading zeros': {
    doc: urlset('', video('<video:player_loc>https://example.com/p</video:player_loc><video:duration>-0</video:duration><video:content_segment_loc duration="-00">https://example.com/s</video:content_segment_loc><video:view_count>+007</video:view_count>')),
    valid: true,
    expect: [],
  },
  'a negative duration is a whole number out of its range (the schema check says so)': { doc: urlset('', video('<video:duration>-1</video:duration>')), valid: false, expect: ['xsd/invalid-value@2:251'] },
  'a loc whose port is past 65535 (xsd:anyURI takes it; no crawler can fetch it)': { doc: urlset('', '').replace(LOC, '<loc>http://example.com:70000/a</loc>'), valid: true, expect: ['loc/invalid@2:6'] },
  'a loc whose host WHATWG URL refuses (xsd:anyURI takes it; no crawler can fetch it)': { doc: urlset('', '').replace(LOC, '<loc>http://256.1.1.1/a</loc>'), valid: true, expect: ['loc/invalid@2:6'] },
  'a loc whose port is 2147483647, the last libxml2 takes': { doc: urlset('', '').replace(LOC, '<loc>http://example.com:2147483647/a</loc>'), valid: true, expect: ['loc/invalid@2:6'] },
  'a loc whose port is 2147483648 (libxml2 refuses it too)': { doc: urlset('', '').replace(LOC, '<loc>http://example.com:2147483648/a</loc>'), valid: false, expect: ['loc/invalid@2:6'] },
  'xsd:unsignedLong on video:view_count, its maximum': { doc: urlset('', video('<video:view_count xsi:type="xsd:unsignedLong">18446744073709551615</video:view_count>')), valid: true, expect: ['video/invalid@2:251'] },
  'xsd:unsignedLong on video:view_count, past it': { doc: urlset('', video('<video:view_count xsi:type="xsd:unsignedLong">18446744073709551616</video:view_count>')), valid: false, expect: ['video/invalid@2:251'] },
  'xsd:unsignedByte on video:view_count (derived from xsd:nonNegativeInteger), out of its range': { doc: urlset('', video('<video:view_count xsi:type="xsd:unsignedByte">256</video:view_count>')), valid: false, expect: ['xsd/invalid-value@2:251'] },
};

describe('xsi:type, namespace declarations and big integers, as xmllint --schema takes them', () => {
  it('each case: our findings, and the verdict libxml2 gives', async () => {
    const entries = Object.entries(CASES);
    const index = (doc: string): boolean => doc.includes('<sitemapindex');
    const urlsets = entries.filter(([, c]) => !index(c.doc));
    const indexes = entries.filter(([, c]) => index(c.doc));
    const [a, b] = await Promise.all([xmllintEach(urlsets.map(([, c]) => c.doc), 'all'), xmllintEach(indexes.map(([, c]) => c.doc), 'all-index')]);
    const theirs = new Map([...urlsets.map(([name], i) => [name, a[i]] as const), ...indexes.map(([name], i) => [name, b[i]] as const)]);
    for (const [name, c] of entries) {
      assert.equal(theirs.get(name), c.valid, `${name}: xmllint`);
      for (const fastPath of [true, false]) {
        const r = validateXmlSitemapText(c.doc, { now: NOW, fastPath });
        assert.deepStrictEqual(r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}@${d.line}:${d.column}`), c.expect, name);
        assert.equal(r.schemaValid, c.valid, `${name}: our verdict`);
      }
    }
  });

  it('says what the type is and what to do', () => {
    const [d] = validateXmlSitemapText(urlset('', '<priority xsi:type="xsd:decimal">0.5</priority>'), { now: NOW }).diagnostics;
    assert.match(d?.message ?? '', /xsd:decimal.*not derived from the element's type tPriority/);
    assert.match(d?.hint ?? '', /remove the attribute/);
  });
});

describe('a sitemap element in another namespace or none', () => {
  it('says which namespace it is in and which one the element has there, not "expected <loc>" for a <loc>', () => {
    const doc = (loc: string): string => `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sm:url>${loc}</sm:url>\n</sm:urlset>`;
    for (const [loc, where] of [['<loc>https://example.com/a</loc>', 'no namespace'], ['<x:loc xmlns:x="urn:x">https://example.com/a</x:loc>', 'the namespace "urn:x"']] as const) {
      const d = validateXmlSitemapText(doc(loc), { now: NOW }).diagnostics.find((one) => one.code === 'xsd/unexpected-element');
      assert.ok(d?.message.includes(`is in ${where}, but the <loc> of <sm:url> is in "http://www.sitemaps.org/schemas/sitemap/0.9"`), d?.message);
    }
  });
});
