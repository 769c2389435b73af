// The vocabulary (src/core/vocabulary.ts) against the parts it does not drive: the writer's element
// order and coverage, and a round trip through the reader and the JSON Lines input.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS_PROFILES, NS, type UrlEntry } from '../../src/core/model.js';
import { ALL_EXTENSIONS, UrlEntrySerializer, namespaceDeclarations } from '../../src/core/write/url-entry.js';
import { readXmlSitemapText } from '../../src/core/read/xml-reader.js';
import { validateXmlSitemapText } from '../../src/core/validate/validator.js';
import { parseJsonLine } from '../../src/core/input/jsonl.js';
import { GLOBAL_ELEMENTS, URL_ELEMENT, URL_EXTENSIONS, elementsOf, type ElementDecl } from '../../src/core/vocabulary.js';

/** An entry that fills every property the vocabulary declares, in the forms the writer emits. */
const EVERY_FIELD: UrlEntry = {
  loc: 'https://example.com/a',
  lastmod: '2024-01-02T03:04:05Z',
  changefreq: 'weekly',
  priority: 0.5,
  images: [{ loc: 'https://example.com/i.jpg', caption: 'c', geoLocation: 'g', title: 't', license: 'https://example.com/l' }],
  videos: [{
    thumbnailLoc: 'https://example.com/t.jpg', title: 'T', description: 'D', contentLoc: 'https://example.com/v.mp4',
    playerLoc: 'https://example.com/p', playerLocAllowEmbed: 'yes', playerLocAutoplay: 'ap=1', duration: 600,
    expirationDate: '2030-01-01', rating: 4.5, contentSegmentLocs: [{ loc: 'https://example.com/s1', duration: 60 }], viewCount: 7,
    publicationDate: '2024-01-01', tags: ['a', 'b'], category: 'cat', familyFriendly: 'no',
    restriction: { relationship: 'allow', countries: ['IE', 'GB'] }, galleryLoc: 'https://example.com/g', galleryLocTitle: 'G',
    prices: [{ value: '1.99', currency: 'EUR', type: 'rent', resolution: 'hd' }], requiresSubscription: 'no', uploader: 'U',
    uploaderInfo: 'https://example.com/u',
    tvshow: { showTitle: 'S', videoType: 'full', episodeTitle: 'E', seasonNumber: 1, episodeNumber: 2, premierDate: '2020-01-01' },
    platform: { relationship: 'deny', platforms: ['tv'] }, live: 'no', ids: [{ type: 'url', value: 'https://example.com/id' }],
  }],
  news: {
    publication: { name: 'P', language: 'en' }, publicationDate: '2024-01-01', title: 'N', access: 'Subscription',
    genres: ['Blog', 'OpEd'], keywords: ['k1', 'k2'], stockTickers: ['NASDAQ:AMAT'],
  },
  alternates: [{ hreflang: 'en', href: 'https://example.com/a' }],
};

function written(entry: UrlEntry): string {
  const body = new UrlEntrySerializer({ limits: LIMITS_PROFILES.current }).serialize(entry, ALL_EXTENSIONS);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS.sitemap}"${namespaceDeclarations(ALL_EXTENSIONS)}>\n${body}</urlset>\n`;
}

/** The model properties the vocabulary declares, as dotted paths (`videos.tvshow.showTitle`). */
function declaredPaths(decl: ElementDecl, extensions: readonly { element?: ElementDecl }[] = [], at = ''): string[] {
  const paths: string[] = [];
  const add = (prop: string | undefined): void => {
    if (prop !== undefined) paths.push(at === '' ? prop : `${at}.${prop}`);
  };
  add(decl.textProp);
  for (const a of Object.values(decl.type.attributes ?? {})) add(a.prop);
  for (const p of [...(decl.type.sequence ?? []), ...extensions]) {
    const e = p.element;
    if (e?.prop === undefined) continue;
    if (e.type.sequence !== undefined || e.textProp !== undefined) paths.push(...declaredPaths(e, [], at === '' ? e.prop : `${at}.${e.prop}`));
    else {
      add(e.prop);
      for (const a of Object.values(e.type.attributes ?? {})) add(a.prop);
    }
  }
  return paths;
}

/** The model properties an entry sets, as dotted paths (arrays looked into). */
function setPaths(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.every((v) => typeof v !== 'object') ? [at] : [...new Set(value.flatMap((v) => setPaths(v, at)))];
  if (typeof value !== 'object' || value === null) return [at];
  return Object.entries(value).flatMap(([k, v]) => setPaths(v, at === '' ? k : `${at}.${k}`));
}

describe('the vocabulary', () => {
  it('declares every model property the fixture sets, and the fixture sets every one it declares', () => {
    assert.deepEqual(setPaths(EVERY_FIELD).sort(), declaredPaths(URL_ELEMENT, URL_EXTENSIONS).sort());
  });

  it('the writer emits every element of every namespace, in the order the vocabulary declares (the structure checks find nothing)', () => {
    const xml = written(EVERY_FIELD);
    for (const root of [URL_ELEMENT, ...GLOBAL_ELEMENTS.filter((e) => e.ns !== NS.sitemap)]) {
      for (const decl of elementsOf(root)) {
        const prefix = decl.ns === NS.sitemap ? '' : `${Object.entries(NS).find(([, uri]) => uri === decl.ns)?.[0] as string}:`;
        assert.ok(xml.includes(`<${prefix}${decl.name}`), `the writer emits <${prefix}${decl.name}>`);
      }
    }
    const report = validateXmlSitemapText(xml, { now: Date.UTC(2024, 5, 1) });
    assert.deepEqual(report.diagnostics.map((d) => `${d.code} ${d.message}`), []);
    assert.equal(report.schemaValid, true);
  });

  it('the reader and the JSON Lines input give back every property', () => {
    const read = readXmlSitemapText(written(EVERY_FIELD));
    assert.deepEqual(read.diagnostics, []);
    assert.deepEqual(read.urls, [EVERY_FIELD]);
    assert.deepEqual(parseJsonLine(JSON.stringify(EVERY_FIELD)), EVERY_FIELD);
  });
});
