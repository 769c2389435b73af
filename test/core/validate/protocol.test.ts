import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from '../../../src/core/diagnostics.js';
import { LIMITS_PROFILES } from '../../../src/core/model.js';
import { ProtocolChecker } from '../../../src/core/validate/protocol.js';

function tooLong(loc: string, maxLocLength: number): Diagnostic[] {
  const found: Diagnostic[] = [];
  const checker = new ProtocolChecker({ limits: { ...LIMITS_PROFILES.current, maxLocLength }, now: Date.UTC(2024, 0, 1) }, (d) => found.push(d));
  checker.url({ loc }, { line: 1, column: 1 });
  return found.filter((d) => d.code === 'loc/too-long');
}

describe('ProtocolChecker: loc/too-long', () => {
  it('takes the bound from Limits.maxLocLength', () => {
    const loc = `https://example.com/${'a'.repeat(80)}`;
    assert.equal(tooLong(loc, 100).length, 0);
    assert.deepEqual(tooLong(loc, 99).map((d) => d.message), ['the URL is 100 characters long; at most 99 are allowed']);
  });

  it('allows 2,047 characters and refuses 2,048 by default (sitemaps.org: less than 2,048)', () => {
    const max = LIMITS_PROFILES.current.maxLocLength;
    const loc = (n: number): string => `https://example.com/${'a'.repeat(n - 20)}`;
    assert.equal(tooLong(loc(2047), max).length, 0);
    assert.equal(tooLong(loc(2048), max).length, 1);
  });
});

describe("ProtocolChecker: an index's <sitemap> entries", () => {
  function indexFindings(ref: { loc: string; lastmod?: string }): Diagnostic[] {
    const found: Diagnostic[] = [];
    const checker = new ProtocolChecker({ limits: LIMITS_PROFILES.current, location: 'https://example.com/blog/index.xml', now: Date.UTC(2024, 0, 1) }, (d) => found.push(d));
    checker.sitemap(ref, { line: 1, column: 1 });
    return found;
  }

  it('words loc/out-of-scope for the index, not for a sitemap of pages', () => {
    const [d] = indexFindings({ loc: 'https://example.com/shop/s.xml' });
    assert.equal(d?.code, 'loc/out-of-scope');
    assert.match(d?.message ?? '', /outside the index's location https:\/\/example\.com\/blog\//);
    assert.match(d?.hint ?? '', /^a sitemap listed by an index must share the scheme, host and port of the index and sit under its directory; move the index up/);
  });

  it("asks lastmod/future for when the sitemap changed, not a page (a <sitemap>'s lastmod is its file's)", () => {
    const [d] = indexFindings({ loc: 'https://example.com/blog/s.xml', lastmod: '2024-02-01' });
    assert.equal(d?.code, 'lastmod/future');
    assert.doesNotMatch(d?.hint ?? '', /page/);
  });
});
