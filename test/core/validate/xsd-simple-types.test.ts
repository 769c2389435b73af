// Every enumeration and pattern of Google's image, video and news schemas (and sitemap.xsd's
// changefreq), one table per simple type: each value the XSD allows is accepted, near misses are
// rejected, and on each value `validateXmlSitemapText` gives libxml2's answer (xmllint-wasm, one
// run for all the documents): the same schema verdict, and an error exactly where xmllint refuses
// the file (no false `video/invalid` for `YES` or `resolution="HD"`).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXmlSitemapText } from '../../../src/core/validate/validator.js';
import { xmllintEach } from '../../helpers/xmllint.js';

const SCHEMAS = fileURLToPath(new URL('../../../schemas/', import.meta.url));
const NOW = Date.UTC(2026, 0, 1);

const ROOT = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">';
const LOC = '<loc>https://example.com/a</loc>';
const escape = (v: string): string => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
/** A video with its required fields, then `more`. */
// A content_loc unless `more` has a player_loc (Google's video sitemaps need one of them: video/no-content).
const video = (more: string): string =>
  `${ROOT}<url>${LOC}<video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description>${more.startsWith('<video:player_loc') ? '' : '<video:content_loc>https://example.com/v.mp4</video:content_loc>'}${more}</video:video></url></urlset>`;
/** A news entry with `language`, `access`, `genres` and `tickers` where given. */
const news = (f: { language?: string; access?: string; genres?: string; tickers?: string }): string =>
  `${ROOT}<url>${LOC}<news:news><news:publication><news:name>N</news:name><news:language>${escape(f.language ?? 'en')}</news:language></news:publication>` +
  (f.access !== undefined ? `<news:access>${escape(f.access)}</news:access>` : '') +
  (f.genres !== undefined ? `<news:genres>${escape(f.genres)}</news:genres>` : '') +
  '<news:publication_date>2024-01-01</news:publication_date><news:title>T</news:title>' +
  (f.tickers !== undefined ? `<news:stock_tickers>${escape(f.tickers)}</news:stock_tickers>` : '') +
  '</news:news></url></urlset>';

interface SimpleType {
  /** Where the type sits, as the XSD has it: enumeration values or the pattern, for the check against the XSD text. */
  readonly enumeration?: readonly string[];
  readonly pattern?: string;
  readonly doc: (value: string) => string;
  readonly accepted: readonly string[];
  readonly rejected: readonly string[];
}

const YES_NO = ['yes', 'Yes', 'YES', 'no', 'No', 'NO'];
const YES_NO_MISSES = ['yEs', 'y', 'true', '1', '', 'yes ', ' NO', 'Yes.'];

const TYPES: Record<string, SimpleType> = {
  'tYesNo: video:family_friendly': { enumeration: YES_NO, doc: (v) => video(`<video:family_friendly>${escape(v)}</video:family_friendly>`), accepted: YES_NO, rejected: YES_NO_MISSES },
  'tYesNo: video:requires_subscription': { enumeration: YES_NO, doc: (v) => video(`<video:requires_subscription>${escape(v)}</video:requires_subscription>`), accepted: YES_NO, rejected: YES_NO_MISSES },
  'tYesNo: video:live': { enumeration: YES_NO, doc: (v) => video(`<video:live>${escape(v)}</video:live>`), accepted: YES_NO, rejected: YES_NO_MISSES },
  'tYesNo: video:player_loc@allow_embed': { enumeration: YES_NO, doc: (v) => video(`<video:player_loc allow_embed="${escape(v)}">https://example.com/p</video:player_loc>`), accepted: YES_NO, rejected: YES_NO_MISSES },
  'tCountryList: video:restriction': {
    pattern: '([A-Z]{2}( +[A-Z]{2})*)?',
    doc: (v) => video(`<video:restriction relationship="allow">${escape(v)}</video:restriction>`),
    accepted: ['', 'US', 'US CA', 'US   CA GB', 'ZZ'],
    rejected: ['us', 'USA', 'U', 'US,CA', ' US', 'US ', 'US\tCA', 'Us'],
  },
  'video:restriction@relationship': {
    enumeration: ['allow', 'deny'],
    doc: (v) => video(`<video:restriction relationship="${escape(v)}">US</video:restriction>`),
    accepted: ['allow', 'deny'],
    rejected: ['Allow', 'DENY', '', 'allowed'],
  },
  'tPlatformList: video:platform': {
    pattern: '((web|mobile|tv)( (web|mobile|tv))*)?',
    doc: (v) => video(`<video:platform relationship="deny">${escape(v)}</video:platform>`),
    accepted: ['', 'web', 'mobile', 'tv', 'web mobile tv', 'tv web tv'],
    rejected: ['WEB', 'Web', 'web  tv', 'web,tv', 'desktop', ' web', 'web '],
  },
  'video:platform@relationship': {
    enumeration: ['allow', 'deny'],
    doc: (v) => video(`<video:platform relationship="${escape(v)}">web</video:platform>`),
    accepted: ['allow', 'deny'],
    rejected: ['Deny', 'block'],
  },
  'video:price@currency': {
    pattern: '[A-Z]{3}',
    doc: (v) => video(`<video:price currency="${escape(v)}">1.99</video:price>`),
    accepted: ['USD', 'EUR', 'JPY'],
    rejected: ['usd', 'US', 'USDX', '', 'U$D'],
  },
  'video:price@type': {
    enumeration: ['purchase', 'PURCHASE', 'rent', 'RENT'],
    doc: (v) => video(`<video:price currency="EUR" type="${escape(v)}">1.99</video:price>`),
    accepted: ['purchase', 'PURCHASE', 'rent', 'RENT'],
    rejected: ['Purchase', 'Rent', 'buy', '', 'rental'],
  },
  'video:price@resolution': {
    enumeration: ['sd', 'SD', 'hd', 'HD'],
    doc: (v) => video(`<video:price currency="EUR" resolution="${escape(v)}">1.99</video:price>`),
    accepted: ['sd', 'SD', 'hd', 'HD'],
    rejected: ['Hd', 'sD', 'uhd', '4k', ''],
  },
  'video:tvshow/video:video_type': {
    enumeration: ['full', 'preview', 'clip', 'interview', 'news', 'other'],
    doc: (v) => video(`<video:tvshow><video:show_title>S</video:show_title><video:video_type>${escape(v)}</video:video_type></video:tvshow>`),
    accepted: ['full', 'preview', 'clip', 'interview', 'news', 'other'],
    rejected: ['Full', 'CLIP', 'trailer', '', 'full '],
  },
  'video:id@type': {
    enumeration: ['tms:series', 'tms:program', 'rovi:series', 'rovi:program', 'freebase', 'url'],
    doc: (v) => video(`<video:id type="${escape(v)}">x</video:id>`),
    accepted: ['tms:series', 'tms:program', 'rovi:series', 'rovi:program', 'freebase', 'url'],
    rejected: ['URL', 'Freebase', 'tms', 'tms:Series', ''],
  },
  'news:language': {
    pattern: 'zh-cn|zh-tw|([a-z]{2,3})',
    doc: (v) => news({ language: v }),
    accepted: ['en', 'fra', 'zh-cn', 'zh-tw', 'pt'],
    rejected: ['en-US', 'EN', 'e', 'engl', 'zh-CN', 'zh-hk', 'zh', ' en', ''].filter((v) => v !== 'zh'),
  },
  'news:access': {
    enumeration: ['Subscription', 'Registration'],
    doc: (v) => news({ access: v }),
    accepted: ['Subscription', 'Registration'],
    rejected: ['subscription', 'REGISTRATION', 'Free', '', 'Subscription '],
  },
  'news:genres': {
    pattern: '(PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated)(, *(PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated))*',
    doc: (v) => news({ genres: v }),
    accepted: ['PressRelease', 'Satire', 'Blog, OpEd', 'Opinion,UserGenerated', 'Blog,   Satire, Blog'],
    rejected: ['blog', 'Blog;OpEd', 'Blog ,OpEd', '', 'Blog,', 'Editorial', ' Blog'],
  },
  'news:stock_tickers': {
    pattern: '(\\w+:\\w+(, *\\w+:\\w+){0,4})?',
    doc: (v) => news({ tickers: v }),
    // XSD's \w is every character but punctuation, separators and others (XSD 1.1 part 2, G.4.2.5):
    // letters beyond ASCII and symbols such as $ are in, the underscore (punctuation) is out.
    accepted: ['', 'NASDAQ:AMAT', 'NASDAQ:AMAT, BOM:500325', 'A:1,B:2, C:3,  D:4,E:5', 'BÖRSE:SAP', 'X$:Y'],
    rejected: ['AMAT', 'NASDAQ: AMAT', 'NASDAQ:AMAT,,BOM:1', 'A:1,B:2,C:3,D:4,E:5,F:6', 'NAS_DAQ:AMAT', 'NASDAQ:AMAT '],
  },
  // libxml2 reads a port into an int; the lane leaves a port past 65535 to the long way.
  // (One from 65536 to 2147483647 is schema-valid, and loc/invalid: xsd-agreement.test.ts.)
  'xsd:anyURI (loc): the port': {
    doc: (v) => `${ROOT}<url><loc>${escape(v)}</loc></url><url>${LOC}</url></urlset>`,
    accepted: ['https://example.com:8080/a', 'https://example.com:65535/a', 'https://example.com:0000000000080/a', 'https://example.com/a:99999999999'],
    rejected: ['https://example.com:2147483648/a', 'https://example.com:99999999999', 'https://example.com:00002147483648/a?q'],
  },
  // libxml2 takes anything from '[' to the next ']' as a host (an IP literal it does not check).
  'xsd:anyURI (loc): an IP literal': {
    doc: (v) => `${ROOT}<url><loc>${escape(v)}</loc></url><url>${LOC}</url></urlset>`,
    accepted: ['http://[::1]/abcdef', 'http://[v7.fe80::a+en1]/abc', 'http://[zz]/abcdef', 'http://[]/abcdefgh', 'http://[/?#@]/abcdef', 'http://u@[[]:80/abcdef'],
    rejected: ['http://[::1/abcdef', 'http://[::1]]/abcdef', 'http://[::1]x/abcdef', 'http://[::1]:/abcdef'],
  },
  // libxml2 takes '[' and ']' in a fragment, not in a path or query.
  'xsd:anyURI (loc): brackets': {
    doc: (v) => `${ROOT}<url><loc>${escape(v)}</loc></url><url>${LOC}</url></urlset>`,
    accepted: ['https://example.com/a#[x]', 'https://example.com/a?b#c?[/]'],
    rejected: ['https://example.com/a?[x]', 'https://example.com/[x]', 'https://example.com/a#b#[x]'],
  },
  // libxml2 compares decimals exactly; as doubles, 1.0000000000000000000001 is 1.
  'tPriority (sitemap.xsd): the bounds': {
    doc: (v) => `${ROOT}<url>${LOC}<priority>${escape(v)}</priority></url></urlset>`,
    accepted: ['0', '1', '1.000', '-0.0', '.5', '0.99999999999999999999', '0.00000000000000000001'],
    rejected: ['1.0000000000000000000001', '-0.0000000000000000000001', '1.01', '-1'],
  },
  'changefreq (sitemap.xsd)': {
    doc: (v) => `${ROOT}<url>${LOC}<changefreq>${escape(v)}</changefreq></url></urlset>`,
    accepted: ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'],
    rejected: ['Daily', 'DAILY', 'day', '', ' daily', 'daily '],
  },
};

describe('the simple types of the extension schemas', () => {
  it('the tables hold every enumeration value and pattern of the image, video and news schemas', () => {
    const xsd = ['sitemap-image.xsd', 'sitemap-video.xsd', 'sitemap-news.xsd'].map((f) => readFileSync(SCHEMAS + f, 'utf8')).join('\n');
    const unescape = (v: string): string => v.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    const enumerations = new Set([...xsd.matchAll(/<xsd:enumeration value="([^"]*)"/g)].map((m) => unescape(m[1] as string)));
    const patterns = new Set([...xsd.matchAll(/<xsd:pattern value="([^"]*)"/g)].map((m) => unescape(m[1] as string)));
    const tabled = Object.values(TYPES);
    assert.deepStrictEqual([...enumerations].filter((v) => !tabled.some((t) => t.enumeration?.includes(v) === true && t.accepted.includes(v))), []);
    assert.deepStrictEqual([...patterns].filter((p) => !tabled.some((t) => t.pattern === p)), []);
  });

  const cases = Object.entries(TYPES).flatMap(([name, t]) => [
    ...t.accepted.map((value) => ({ name, value, valid: true, doc: t.doc(value) })),
    ...t.rejected.map((value) => ({ name, value, valid: false, doc: t.doc(value) })),
  ]);
  const verdicts = xmllintEach(cases.map((c) => c.doc), 'all');

  for (const name of Object.keys(TYPES)) {
    it(`${name}: the allowed values pass, the near misses fail, as xmllint says`, async () => {
      const all = await verdicts;
      const wrong: string[] = [];
      cases.forEach((c, i) => {
        if (c.name !== name) return;
        const theirs = all[i];
        const ours = validateXmlSitemapText(c.doc, { now: NOW });
        // A loc WHATWG URL refuses (http://[zz]/) may be schema-valid, and is loc/invalid: no crawler can fetch it.
        const errors = ours.diagnostics.filter((d) => d.severity === 'error' && !(c.valid && d.code === 'loc/invalid' && !URL.canParse(c.value))).map((d) => d.code);
        const what = `${JSON.stringify(c.value)} (expected ${c.valid ? 'valid' : 'invalid'})`;
        if (theirs !== c.valid) wrong.push(`${what}: xmllint says ${theirs === true ? 'valid' : 'invalid'}`);
        if (ours.schemaValid !== c.valid) wrong.push(`${what}: schemaValid ${ours.schemaValid}`);
        if (c.valid && errors.length > 0) wrong.push(`${what}: false errors ${errors.join(', ')}`);
        if (!c.valid && errors.length === 0) wrong.push(`${what}: no error (${ours.diagnostics.map((d) => d.code).join(', ')})`);
      });
      assert.deepStrictEqual(wrong, []);
    });
  }
});
