// The layout of a sharded set (core/scale/layout.ts): a URL's child is a function of the URL and the
// shard count alone, and a change within one section lands only in that section's children.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { childStemOf, placeOf } from '../../src/core/scale/layout.js';
import { shardOf } from '../helpers/shard-of.js';
import { scopeOf } from '../../src/core/url.js';

const BASE = 'https://www.example.com/shop/';
const segment = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
const shards = fc.integer({ min: 1, max: 300 });

test('the same URL lands in the same child, whatever the other URLs and however it is spelt', () => {
  fc.assert(
    fc.property(path, shards, fc.array(path, { maxLength: 20 }), (p, n, others) => {
      const layout = { shards: n, baseUrl: BASE };
      const place = shardOf(`${BASE}${p}`, layout);
      // Other URLs placed before change nothing (no state), and another spelling of the URL is the same URL.
      for (const other of others) shardOf(`${BASE}${other}`, layout);
      assert.deepEqual(shardOf(`${BASE}${p}`, layout), place);
      assert.deepEqual(shardOf(`HTTPS://WWW.EXAMPLE.COM:443/shop/${p}`, layout), place);
      assert.deepEqual(shardOf(`/shop/${p}`, layout), place);
      assert.ok(Number.isInteger(place.bucket) && place.bucket >= 0 && place.bucket < n);
      assert.equal(place.section, p.includes('/') ? p.slice(0, p.indexOf('/')) : '');
    }),
  );
});

test('the bucket is a hash of the URL: stable across runs and machines (fixed values)', () => {
  // Fixed expectations: a change of the hash would move every URL of every published set.
  const layout = { shards: 64, baseUrl: BASE };
  const place = (loc: string, name?: string): unknown => {
    const { hash: _hash, ...rest } = shardOf(loc, { ...layout, ...(name !== undefined ? { name } : {}) });
    return rest;
  };
  assert.deepEqual(place(`${BASE}products/123`), { section: 'products', bucket: 8, child: 'sitemap-products.8' });
  assert.deepEqual(place(`${BASE}about`, 'site'), { section: '', bucket: 23, child: 'site-root.23' });
  // A section that is not a clean slug gets a hash of its exact name in its stem (partition.ts).
  assert.deepEqual(place(`${BASE}Ünïcode/x?q=a/b#f`), { section: '%C3%9Cn%C3%AFcode', bucket: 34, child: 'sitemap-c3-9cn-c3-afcode-0alo1i4.34' });
  assert.equal(shardOf(`${BASE}products/123`, layout).hash, 9072734412364);
});

test('spellings of one URL whose escapes differ in case are placed as one URL (the set writes them once, as the writer dedupes them)', () => {
  const layout = { shards: 64, baseUrl: BASE };
  assert.deepEqual(shardOf(`${BASE}caf%c3%a9/p%c3%bc%7e`, layout), shardOf(`${BASE}caf%C3%A9/p%C3%BC~`, layout));
  assert.deepEqual(shardOf(`${BASE}x/a%2fb`, layout), shardOf(`${BASE}x/a%2Fb`, layout));
});

test('URLs spread over the buckets: no bucket holds more than twice its share', () => {
  const counts = new Array<number>(16).fill(0);
  const prefix = scopeOf(BASE).prefix;
  for (let i = 0; i < 16_000; i++) counts[placeOf(`${BASE}item/${i}`, prefix, 16, 'sitemap').bucket]! += 1;
  for (const count of counts) assert.ok(count > 500 && count < 2000, counts.join(' '));
});

test('changes within one section touch only that section\'s children', () => {
  fc.assert(
    fc.property(segment, fc.array(segment, { minLength: 1, maxLength: 30 }), fc.array(path, { maxLength: 30 }), shards, (section, changed, unrelated, n) => {
      const layout = { shards: n, baseUrl: BASE };
      const touched = new Set(changed.map((rest) => shardOf(`${BASE}${section}/${rest}`, layout).child));
      for (const p of unrelated) {
        const place = shardOf(`${BASE}${p}`, layout);
        if (place.section !== section) assert.ok(!touched.has(place.child), `${p} shares a child with section ${section}`);
      }
    }),
  );
});

test('a child\'s files give their stem back', () => {
  fc.assert(
    fc.property(segment, fc.nat({ max: 1000 }), fc.option(fc.nat({ max: 64 })), fc.integer({ min: 0, max: 0xffffffff }), fc.boolean(), (section, bucket, part, crc, gzip) => {
      const stem = `sitemap-${section}.${bucket}`;
      const file = `${stem}${part === null ? '' : `.${part}`}.${crc.toString(16).padStart(8, '0')}.xml${gzip ? '.gz' : ''}`;
      assert.equal(childStemOf(file), stem);
    }),
  );
});

test("a folder's own page is at the top level (a site of one-page folders is not a child per page); a page beneath a folder is in its section", () => {
  const layout = { shards: 8, baseUrl: BASE };
  for (const path of ['post-1/', 'post-1/index.html', 'Post-1/INDEX.HTM', 'post-1/?page=2', 'about']) assert.equal(shardOf(`${BASE}${path}`, layout).section, '', path);
  for (const [path, section] of [['post-1/comments', 'post-1'], ['post-1/2024/', 'post-1'], ['post-1/index.html/x', 'post-1'], ['post-1/index-old.html', 'post-1']]) assert.equal(shardOf(`${BASE}${path}`, layout).section, section, path);
});
