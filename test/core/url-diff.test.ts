// core/url-diff.ts (issue 26): the exact field comparison of `diff`, the fields' fingerprint, and
// the table that tells added, removed, changed and unchanged URLs apart from fingerprints only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FINGERPRINT, fingerprint } from '../../src/core/fingerprint.js';
import type { UrlEntry } from '../../src/core/model.js';
import { ADDED, DIFF_FIELDS, REMOVED, REPEATED, UNCHANGED_URL, UNKNOWN, UrlDiffTable, changedFields, fingerprintFields } from '../../src/core/url-diff.js';

const fieldsHash = (entry: UrlEntry): [number, number] => {
  fingerprintFields(entry);
  return [FINGERPRINT[0] as number, FINGERPRINT[1] as number];
};
const locHash = (loc: string): [number, number] => {
  fingerprint(loc);
  return [FINGERPRINT[0] as number, FINGERPRINT[1] as number];
};

const BASE: UrlEntry = {
  loc: 'https://example.com/a',
  lastmod: '2024-01-01',
  changefreq: 'daily',
  priority: 0.5,
  images: [{ loc: 'https://example.com/i.jpg', title: 'I' }],
  videos: [{ thumbnailLoc: 'https://example.com/t.jpg', title: 'T', description: 'D', contentLoc: 'https://example.com/v.mp4' }],
  news: { publication: { name: 'P', language: 'en' }, publicationDate: '2024-01-01', title: 'N' },
  alternates: [{ hreflang: 'de', href: 'https://example.com/de/a' }],
};

const CHANGED: Record<(typeof DIFF_FIELDS)[number], Partial<UrlEntry>> = {
  lastmod: { lastmod: '2024-02-01' },
  changefreq: { changefreq: 'weekly' },
  priority: { priority: 0.8 },
  images: { images: [{ loc: 'https://example.com/j.jpg', title: 'I' }] },
  videos: { videos: [{ thumbnailLoc: 'https://example.com/t.jpg', title: 'T2', description: 'D', contentLoc: 'https://example.com/v.mp4' }] },
  news: { news: { publication: { name: 'P', language: 'en' }, publicationDate: '2024-01-01', title: 'N2' } },
  alternates: { alternates: [{ hreflang: 'fr', href: 'https://example.com/fr/a' }] },
};

test('each field that differs is named, with its old and new value; equal entries differ in nothing', () => {
  assert.deepEqual(changedFields(BASE, { ...BASE }), []);
  for (const field of DIFF_FIELDS) {
    const after = { ...BASE, ...CHANGED[field] };
    assert.deepEqual(changedFields(BASE, after), [{ field, old: BASE[field], new: after[field] }], field);
    assert.notDeepEqual(fieldsHash(BASE), fieldsHash(after), `${field}: the fingerprint differs too`);
    // A field that appears or disappears is a change.
    const without: UrlEntry = { ...BASE };
    delete without[field];
    assert.deepEqual(changedFields(without, BASE), [{ field, old: undefined, new: BASE[field] }], field);
    assert.notDeepEqual(fieldsHash(without), fieldsHash(BASE), field);
  }
  // Several at once, in the order of DIFF_FIELDS.
  assert.deepEqual(changedFields(BASE, { ...BASE, priority: 0.1, lastmod: '2025-01-01' }).map((c) => c.field), ['lastmod', 'priority']);
});

test('the same values are the same fingerprint, whatever order their objects were built in; the loc is not part of it', () => {
  const reordered: UrlEntry = {
    alternates: [{ href: 'https://example.com/de/a', hreflang: 'de' }],
    news: { title: 'N', publicationDate: '2024-01-01', publication: { language: 'en', name: 'P' } },
    videos: [{ contentLoc: 'https://example.com/v.mp4', description: 'D', title: 'T', thumbnailLoc: 'https://example.com/t.jpg' }],
    images: [{ title: 'I', loc: 'https://example.com/i.jpg' }],
    priority: 0.5,
    changefreq: 'daily',
    lastmod: '2024-01-01',
    loc: 'https://example.com/other',
  };
  assert.deepEqual(fieldsHash(reordered), fieldsHash(BASE));
  assert.deepEqual(changedFields(BASE, reordered), []);
  // Values are compared as written: two spellings of one instant differ.
  assert.deepEqual(changedFields({ loc: 'x', lastmod: '2024-01-01' }, { loc: 'x', lastmod: '2024-01-01T00:00:00Z' }).map((c) => c.field), ['lastmod']);
});

test('a field moved into another is a change (the separators keep fields apart)', () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), (a, b) => {
      const x: UrlEntry = { loc: 'u', lastmod: a, changefreq: b as UrlEntry['changefreq'] };
      const y: UrlEntry = { loc: 'u', lastmod: a + b };
      fc.pre(b !== '');
      assert.notDeepEqual(fieldsHash(x), fieldsHash(y));
    }),
  );
});

test('the table: NEW, then OLD against it, then NEW again tells every kind of URL apart', () => {
  const table = new UrlDiffTable();
  const NEW: UrlEntry[] = [
    { loc: 'https://e.com/added' },
    { loc: 'https://e.com/same', lastmod: '2024-01-01' },
    { loc: 'https://e.com/changed', lastmod: '2024-02-01' },
    { loc: 'https://e.com/same', lastmod: '1999-01-01' }, // a repeat: the first occurrence counts
  ];
  const OLD: UrlEntry[] = [
    { loc: 'https://e.com/changed', lastmod: '2024-01-01' },
    { loc: 'https://e.com/removed' },
    { loc: 'https://e.com/same', lastmod: '2024-01-01' },
    { loc: 'https://e.com/removed' },
    { loc: 'https://e.com/changed', lastmod: '2030-01-01' },
  ];
  assert.deepEqual(NEW.map((e) => table.addNew(...locHash(e.loc), ...fieldsHash(e))), [true, true, true, false]);
  assert.deepEqual(OLD.map((e) => table.matchOld(...locHash(e.loc), ...fieldsHash(e))), [0, REMOVED, UNCHANGED_URL, REPEATED, REPEATED]);
  assert.equal(table.changed, 1);
  assert.deepEqual(NEW.map((e) => table.matchNew(...locHash(e.loc))), [ADDED, UNCHANGED_URL, 0, REPEATED]);
  // A URL NEW did not hold the first time, or one only OLD held: NEW changed between its readings.
  assert.equal(table.matchNew(...locHash('https://e.com/new-since')), UNKNOWN);
  assert.equal(table.matchNew(...locHash('https://e.com/removed')), UNKNOWN);
  assert.equal(table.newUrls, 3);
  assert.equal(table.oldUrls, 3);
});

test('the table holds many URLs (its columns grow): every change is found, nothing else', () => {
  const table = new UrlDiffTable();
  const n = 200_000;
  const entry = (i: number, version: number): UrlEntry => ({ loc: `https://e.com/p/${i}`, lastmod: i % 97 === 0 ? `2024-01-0${version}` : '2024-01-01' });
  for (let i = 0; i < n; i++) if (i % 89 !== 0) table.addNew(...locHash(entry(i, 2).loc), ...fieldsHash(entry(i, 2)));
  let removed = 0;
  let changed = 0;
  for (let i = 0; i < n; i++) {
    const match = table.matchOld(...locHash(entry(i, 1).loc), ...fieldsHash(entry(i, 1)));
    if (match === REMOVED) removed++;
    else if (match >= 0) changed++;
  }
  const expectedRemoved = Math.floor((n - 1) / 89) + 1;
  assert.equal(removed, expectedRemoved);
  // Multiples of 97 that are not multiples of 89 (8633 = 89 × 97).
  assert.equal(changed, Math.floor((n - 1) / 97) + 1 - (Math.floor((n - 1) / 8633) + 1));
  assert.equal(table.newUrls, n - expectedRemoved);
});
