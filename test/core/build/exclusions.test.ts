import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dominantExclusion } from '../../../src/core/build/exclusions.js';
import { contentToken, contentTokens, withContentToken, numberedStem } from '../../../src/core/write/child-names.js';

const BASE = 'https://www.example.com/';
const outside = (url: string) => ({ reason: 'canonical-outside', detail: url });

describe('dominantExclusion', () => {
  it('names the reason more than half of the pages are left out for, and none at half or less', () => {
    assert.deepEqual(dominantExclusion([{ reason: 'noindex' }, { reason: 'noindex' }, { reason: 'redirect' }], 3, BASE), { reason: 'noindex', count: 2, pages: 3 });
    assert.equal(dominantExclusion([{ reason: 'noindex' }, { reason: 'noindex' }], 4, BASE), undefined);
    assert.equal(dominantExclusion([], 0, BASE), undefined);
    assert.deepEqual(dominantExclusion([{ reason: 'noindex' }, { reason: 'redirect' }, { reason: 'redirect' }], 3, BASE), { reason: 'redirect', count: 2, pages: 3 });
  });

  it('for canonicals outside the site, names the origin most of them are on', () => {
    const excluded = [outside('https://example.org/a'), outside('https://example.org/b?x'), outside('http://cdn.example.net:8080/c'), outside('not a url')];
    assert.deepEqual(dominantExclusion(excluded, 5, BASE), { reason: 'canonical-outside', count: 4, pages: 5, canonicalOrigin: 'https://example.org/' });
  });

  it('gives no origin when the canonicals are on the base URL\'s own origin (outside its path)', () => {
    const excluded = [outside('https://www.example.com/other/a'), outside('https://www.example.com/other/b')];
    assert.deepEqual(dominantExclusion(excluded, 2, 'https://www.example.com/blog/'), { reason: 'canonical-outside', count: 2, pages: 2 });
  });
});

describe('child names', () => {
  it('put 8 hex digits of the content token before the .xml suffix', () => {
    assert.equal(contentToken(0), '00000000');
    assert.equal(contentToken(0xdeadbeef), 'deadbeef');
    assert.equal(contentToken(-1), 'ffffffff');
    assert.equal(withContentToken(`${numberedStem('sitemap', 0)}.xml.gz`, 'deadbeef'), 'sitemap-00001.deadbeef.xml.gz');
    assert.equal(withContentToken(`${numberedStem('map', 41)}.xml`, '0000abcd'), 'map-00042.0000abcd.xml');
    assert.equal(withContentToken('sitemap-blog.xml.gz', '1a2b3c4d'), 'sitemap-blog.1a2b3c4d.xml.gz');
    assert.equal(withContentToken('sitemap-shop.3.xml', '1a2b3c4d'), 'sitemap-shop.3.1a2b3c4d.xml');
    assert.throws(() => withContentToken('sitemap-blog.txt', '1a2b3c4d'), RangeError);
  });

  it('offer the CRC first, then other tokens, all different', () => {
    const tokens: string[] = [];
    for (const token of contentTokens(0x12345678)) {
      tokens.push(token);
      if (tokens.length === 64) break;
    }
    assert.equal(tokens[0], '12345678');
    assert.equal(new Set(tokens).size, 64);
    assert.ok(tokens.every((token) => /^[0-9a-f]{8}$/.test(token)));
  });
});
