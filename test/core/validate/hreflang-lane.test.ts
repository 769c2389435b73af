// The hreflang rules on the urls the lane reads from bytes (as files are read): a url whose alternates
// the rules have nothing to say of is remembered from the fingerprints the module gives, its loc kept
// as its bytes (HreflangChecker.addLaneUrl); the reports must be those of the events, byte for byte.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateSitemap } from '../../../src/node/validate-sitemap.js';
import { HreflangChecker } from '../../../src/core/validate/hreflang.js';

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n';
const link = (hreflang: string, href: string): string => `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${href}"/>`;

async function bothWays(text: string): Promise<{ lane: unknown; events: unknown; laneUrls: number }> {
  const bytes = new TextEncoder().encode(text);
  const proto = HreflangChecker.prototype;
  const original = proto.addLaneUrl;
  let laneUrls = 0;
  proto.addLaneUrl = function (this: HreflangChecker, ...args: Parameters<HreflangChecker['addLaneUrl']>) {
    laneUrls++;
    return original.apply(this, args);
  };
  try {
    const options = { now: Date.UTC(2026, 0, 1), file: 'x.xml' };
    const lane = await validateSitemap(bytes, options);
    const events = await validateSitemap(bytes, { ...options, fastPath: false });
    return { lane, events, laneUrls };
  } finally {
    proto.addLaneUrl = original;
  }
}

describe('hreflang rules on the lane\'s urls read from bytes', () => {
  it('report return links, with the locs kept from bytes (references decoded), as the events do', async () => {
    const page = (group: number, language: string): string => `https://example.com/${group}/${language}${group % 3 === 0 ? '?a=1&amp;b=2' : ''}`;
    const urls: string[] = [];
    for (let group = 0; group < 200; group++) {
      for (const own of ['en', 'de', 'fr']) {
        // Every fifth group's French page does not link back to the German one.
        const links = ['en', 'de', 'fr'].filter((l) => !(group % 5 === 0 && own === 'fr' && l === 'de')).map((l) => link(l, page(group, l)));
        urls.push(`  <url>\n    <loc>${page(group, own)}</loc>\n${links.join('\n')}\n  </url>`);
      }
    }
    const { lane, events, laneUrls } = await bothWays(`${HEAD}${urls.join('\n')}\n</urlset>\n`);
    assert.deepEqual(lane, events);
    const missing = (lane as { diagnostics: { code: string; message: string }[] }).diagnostics.filter((d) => d.code === 'hreflang/missing-return-link');
    assert.equal(missing.length, 40);
    assert.ok(missing[0]?.message.startsWith('"https://example.com/0/de?a=1&b=2" lists "https://example.com/0/fr?a=1&b=2"'), missing[0]?.message);
    assert.ok(laneUrls >= 590, `the lane read the urls (${laneUrls})`);
  });

  it('take a host or scheme in another case for the same page (RFC 3986 §6.2), as the events do', async () => {
    const page = (group: number, language: string, host: string): string => `${group % 2 === 0 ? 'HTTPS' : 'https'}://${host}/${group}/${language}`;
    const urls: string[] = [];
    for (let group = 0; group < 200; group++) {
      for (const own of ['en', 'de']) {
        // Each page linked to by the other with its host in another case (by itself as written: the lane's
        // way); every fourth group's German page does not link back.
        const links = ['en', 'de'].filter((l) => !(group % 4 === 1 && own === 'de' && l === 'en')).map((l) => link(l, page(group, l, l === own ? 'example.com' : 'example.COM')));
        urls.push(`  <url>\n    <loc>${page(group, own, 'example.com')}</loc>\n${links.join('\n')}\n  </url>`);
      }
    }
    const { lane, events, laneUrls } = await bothWays(`${HEAD}${urls.join('\n')}\n</urlset>\n`);
    assert.deepEqual(lane, events);
    const found = (lane as { diagnostics: { code: string; message: string }[] }).diagnostics;
    assert.deepEqual(found.map((d) => d.code), Array(50).fill('hreflang/missing-return-link'));
    assert.ok(found[0]?.message.startsWith('"https://example.com/1/en" lists "https://example.com/1/de"'), found[0]?.message);
    // The lane reads every url of a lower-case scheme (the events, the others).
    assert.ok(laneUrls >= 195, `the lane read the urls (${laneUrls})`);
  });

  it('an href with references too long for the module to fingerprint is read the long way', async () => {
    // 2,750 characters decoded: past the module's room for a decoded value.
    const long = `https://example.com/${'abcdefghij&amp;'.repeat(250)}`;
    const text = `${HEAD}  <url>\n    <loc>https://example.com/en</loc>\n${link('en', 'https://example.com/en')}\n${link('de', long)}\n  </url>\n  <url>\n    <loc>https://example.com/x</loc>\n${link('x', 'https://example.com/x')}\n  </url>\n</urlset>\n`;
    const { lane, events } = await bothWays(text);
    assert.deepEqual(lane, events);
    assert.deepEqual((lane as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code), ['hreflang/invalid-language']);
  });
});
