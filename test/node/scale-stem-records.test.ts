// A child stem laid out from its records' bytes (node/scale/stem-records.ts) gives the children that
// layOutStems gives for the same entries (the layout apply and a read back child use): the same
// names, bytes, URL counts and lastmods, duplicates dropped the same way, split the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { crc32 } from 'node:zlib';
import { layOutStems, type SerializedEntry } from '../../src/core/build/stable-set.js';
import { layOutRecords } from '../../src/node/scale/stem-records.js';
import { encodeRecord } from '../../src/node/scale/spill.js';
import { placedEntry, setSerializer, shardSettings } from '../../src/node/scale/shard-set.js';
import type { UrlEntry } from '../../src/core/model.js';

const BASE = 'https://www.example.com/';

async function compare(entries: readonly UrlEntry[], maxUrls: number, dropHashes = false): Promise<void> {
  const settings = shardSettings({ outDir: '/unused', baseUrl: BASE, shards: 1, maxUrls });
  const serializer = setSerializer(settings);
  const placed = entries.map((entry) => placedEntry(serializer, settings, entry));
  // Records without a hash (as apply's may be) get theirs from the URL, as layOutStems does.
  if (dropHashes) for (const p of placed.filter((_, i) => i % 2 === 0)) delete p.item.hash;
  const stem = (placed[0] as (typeof placed)[number]).child;
  const mine = placed.filter((p) => p.child === stem);
  const records = Buffer.from(mine.map((p) => encodeRecord(p.child, p.item.loc, p.item)).join(''));
  const layout = { limits: settings.limits, gzip: true };
  const expected = layOutStems(new Map([[stem, mine.map((p) => ({ ...p.item }) as SerializedEntry)]]), { ...layout, byHash: true });
  const got = await layOutRecords(stem, records, layout);
  assert.equal(got.duplicates, expected.duplicates);
  if (maxUrls < mine.length / 2) assert.ok(got.children.length > 1, 'the stem is split');
  // Each block is copied as it comes (the next one reuses its memory).
  const texts = got.children.map((c) => Buffer.concat(Array.from(c.text, (block) => Buffer.from(block))));
  assert.deepEqual(
    got.children.map((c, i) => ({ name: c.name, urls: c.urls, ...(c.lastmod !== undefined ? { lastmod: c.lastmod } : {}), text: (texts[i] as Buffer).toString('utf8') })),
    expected.children,
  );
  if (mine.length > 2000 && maxUrls > mine.length) assert.ok((texts[0] as Buffer).length > 256 * 1024, 'a child of several blocks');
  got.children.forEach((c, i) => {
    assert.equal(c.bytes, (texts[i] as Buffer).length);
    assert.equal(c.crc, crc32(texts[i] as Buffer));
  });
}

const entry = (i: number, extra: Partial<UrlEntry> = {}): UrlEntry => ({ loc: `${BASE}shoes/item-${i}?c=${i % 7}&q=é`, ...extra });

test('layOutRecords: the children of layOutStems, byte for byte (lastmods, images, duplicates, one child and several)', async () => {
  const entries: UrlEntry[] = [];
  // 2,400 entries: a child of several blocks (256 KB each) when unsplit.
  for (let i = 0; i < 2400; i++) {
    entries.push(entry(i % 2000, {
      ...(i % 3 === 0 ? { lastmod: `2024-0${1 + (i % 9)}-1${i % 10}` } : i % 3 === 1 ? { lastmod: `2024-05-0${1 + (i % 9)}T10:00:0${i % 10}+02:00` } : {}),
      ...(i % 2 === 0 ? { images: [{ loc: `${BASE}img/${i}.jpg` }] } : {}),
    }));
  }
  // 1: limits no hash split can meet (a file a URL): the entries in their order, a part each.
  for (const maxUrls of [50_000, 600, 33, 1]) {
    await compare(entries, maxUrls);
    await compare(entries, maxUrls, true);
  }
});

test('layOutRecords: property, any entries of one stem', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.record({ i: fc.integer({ min: 0, max: 40 }), lastmod: fc.option(fc.date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })), day: fc.boolean() }), { minLength: 1, maxLength: 80 }), fc.integer({ min: 1, max: 30 }), async (rows, maxUrls) => {
      await compare(rows.map((r) => entry(r.i, r.lastmod === null ? {} : { lastmod: r.day ? r.lastmod.toISOString().slice(0, 10) : r.lastmod.toISOString() })), maxUrls);
    }),
    { numRuns: 60 },
  );
});

test('layOutRecords: a stem with more <news:news> than one file may hold (1,000) is split as layOutStems splits it', async () => {
  const news = Array.from({ length: 1100 }, (_, i) => entry(i, { news: { publication: { name: 'P', language: 'en' }, publicationDate: '2024-01-01', title: `t${i}` } }));
  await compare(news, 50_000);
  const settings = shardSettings({ outDir: '/unused', baseUrl: BASE, shards: 1 });
  const serializer = setSerializer(settings);
  const placed = news.map((e) => placedEntry(serializer, settings, e));
  const records = Buffer.from(placed.map((p) => encodeRecord(p.child, p.item.loc, p.item)).join(''));
  const children = (await layOutRecords((placed[0] as (typeof placed)[number]).child, records, { limits: settings.limits, gzip: true })).children;
  assert.ok(children.length > 1 && children.every((c) => c.urls <= 1000), children.map((c) => c.urls).join(', '));
});

test('layOutRecords and layOutStems: spellings of one URL whose escapes differ in case (%c3%bc, %C3%BC) are one URL, the first given kept, as generate without --shards keeps it', async () => {
  const spelt = (i: number, lower: boolean): UrlEntry => ({ loc: `${BASE}shoes/${lower ? '%c3%bc' : '%C3%BC'}-${i}`, lastmod: `2024-01-0${lower ? 1 : 2}` });
  const entries = Array.from({ length: 60 }, (_, i) => spelt(i % 30, i % 4 === 1));
  await compare(entries, 50_000);
  const settings = shardSettings({ outDir: '/unused', baseUrl: BASE, shards: 1 });
  const serializer = setSerializer(settings);
  const placed = entries.map((e) => placedEntry(serializer, settings, e));
  const records = Buffer.from(placed.map((p) => encodeRecord(p.child, p.item.loc, p.item)).join(''));
  const laid = await layOutRecords((placed[0] as (typeof placed)[number]).child, records, { limits: settings.limits, gzip: true });
  assert.equal(laid.duplicates, 30);
  const text = Buffer.concat(Array.from((laid.children[0] as (typeof laid.children)[number]).text, (block) => Buffer.from(block))).toString('utf8');
  // i % 4 === 1 gave the first spelling of the odd URLs 1, 5, 9, …: lower case.
  assert.equal(text.match(/<loc>/g)?.length, 30);
  assert.equal(text.match(/%c3%bc/g)?.length, 8);
});

test("layOutRecords lets the event loop run while it lays out a large stem: a queue job's lock is renewed by a timer meanwhile", async () => {
  const settings = shardSettings({ outDir: '/unused', baseUrl: BASE, shards: 1 });
  const serializer = setSerializer(settings);
  const placed = Array.from({ length: 20_000 }, (_, i) => placedEntry(serializer, settings, entry(i)));
  const records = Buffer.from(placed.map((p) => encodeRecord(p.child, p.item.loc, p.item)).join(''));
  let turns = 0;
  let laying = true;
  const turn = (): void => {
    turns++;
    if (laying) setImmediate(turn);
  };
  setImmediate(turn);
  const laid = await layOutRecords((placed[0] as (typeof placed)[number]).child, records, { limits: settings.limits, gzip: true });
  laying = false;
  assert.equal(laid.children[0]?.urls, 20_000);
  // Twice while the records are parsed, once after the sort, twice while the child's CRC is taken.
  assert.ok(turns >= 5, `the event loop ran ${turns} times`);
});
