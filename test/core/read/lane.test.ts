// The bulk lane's module (wasm/lane.ts, compiled into src/core/read/lane-wasm.ts):
// the committed bytes are those of its source, its fingerprint is core/fingerprint.ts's, and it reads
// only what it may. What its records mean is tested through the validator (validate/lane-entries.test.ts) and
// the reader (read/lane-entries.test.ts).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { fingerprint, FINGERPRINT } from '../../../src/core/fingerprint.js';
import { daysInMonth } from '../../../src/core/datetime.js';
import { CHANGEFREQS } from '../../../src/core/model.js';
import { FingerprintTable } from '../../../src/core/fingerprint-table.js';
import { LANE_FIELDS, Lane, R_END, R_HASH_1, R_HASH_2, R_LASTMOD_DAY, R_LASTMOD_LENGTH, R_LASTMOD_START, R_LINE, R_COLUMN, R_LOC_LENGTH, R_LOC_START, R_START, laneFingerprint } from '../../../src/core/read/lane.js';
// @ts-expect-error: a plain JavaScript build script, without type declarations
import { wasmModuleSource } from '../../../scripts/build-wasm.js';

describe('lane module', () => {
  it('is the compiled form of wasm/lane.ts (npm run build:wasm)', async () => {
    const fresh = (await wasmModuleSource()) as string;
    const committed = readFileSync(new URL('../../../src/core/read/lane-wasm.ts', import.meta.url), 'utf8');
    assert.equal(committed, fresh, 'run npm run build:wasm and commit the result');
  });

  it('fingerprints ASCII text as core/fingerprint.ts does', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 300 }), (text) => {
        fingerprint(text);
        assert.deepEqual(laneFingerprint(text), [FINGERPRINT[0], FINGERPRINT[1]]);
      }),
      { numRuns: 500 },
    );
  });

  it('fingerprints the loc of every record as core/fingerprint.ts does (two at a time, any lengths)', () => {
    const lane = Lane.create();
    assert.ok(lane !== undefined);
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9/._~-]{0,60}$/), { minLength: 1, maxLength: 9 }), (paths) => {
        const locs = paths.map((p, i) => `https://example.com/${i}${p}`);
        const text = locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('\n');
        const count = lane.scan(text, 0, 1, 0, 1 << 20, 100);
        assert.equal(count, locs.length);
        locs.forEach((loc, k) => {
          fingerprint(loc);
          assert.deepEqual([lane.records[k * LANE_FIELDS + R_HASH_1], lane.records[k * LANE_FIELDS + R_HASH_2]], [FINGERPRINT[0], FINGERPRINT[1]], loc);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('knows the calendar of core/datetime.ts (daysInMonth): the days 28 to 31 of every month of common, leap and century years', () => {
    const lane = Lane.create();
    assert.ok(lane !== undefined);
    for (const year of [1900, 2000, 2023, 2024, 2100]) {
      for (let month = 1; month <= 12; month++) {
        for (let day = 28; day <= 31; day++) {
          const date = `${year}-${String(month).padStart(2, '0')}-${day}`;
          const count: number = lane.scan(`<url><loc>https://example.com/a</loc><lastmod>${date}</lastmod></url>`, 0, 1, 0, 1 << 20, 1);
          assert.equal(count, day <= daysInMonth(year, month) ? 1 : 0, date);
        }
      }
    }
  });

  it('reads the changefreq names of model.ts (written into it by script), and no other word', () => {
    const lane = Lane.create();
    assert.ok(lane !== undefined);
    for (const word of [...CHANGEFREQS, 'sometimes', 'Daily', 'dail']) {
      const count = lane.scan(`<url><loc>https://example.com/a</loc><changefreq>${word}</changefreq></url>`, 0, 1, 0, 1 << 20, 1);
      assert.equal(count, (CHANGEFREQS as readonly string[]).includes(word) ? 1 : 0, word);
    }
  });

  it('reads a run of urls into records: positions, lines, loc and lastmod', () => {
    const lane = Lane.create();
    assert.ok(lane !== undefined);
    const text = '<url><loc>https://example.com/a</loc></url>\r\n<url>\n <loc>https://example.com/b</loc>\r <lastmod>2024-02-29</lastmod></url>\n<url><loc>https://example.com/c d</loc></url>';
    const count = lane.scan(text, 0, 7, -3, 1 << 20, 100);
    assert.equal(count, 2, 'the third has a space: not read');
    const r = lane.records;
    const field = (k: number, f: number): number => r[k * LANE_FIELDS + f] as number;
    assert.equal(field(0, R_START), 0);
    assert.deepEqual([field(0, R_LINE), field(0, R_COLUMN)], [7, 4]);
    assert.equal(text.slice(field(0, R_LOC_START), field(0, R_LOC_START) + field(0, R_LOC_LENGTH)), 'https://example.com/a');
    assert.equal(field(0, R_LASTMOD_START), -1);
    // After `</url>\r\n`: the CRLF is one line break, and the blank run before `<url>` is part of the first.
    assert.equal(field(0, R_END), text.indexOf('<url>', 1));
    assert.deepEqual([field(1, R_LINE), field(1, R_COLUMN)], [8, 1]);
    assert.equal(text.slice(field(1, R_LASTMOD_START), field(1, R_LASTMOD_START) + field(1, R_LASTMOD_LENGTH)), '2024-02-29');
    // After the second: its `\n` and `\r` are two more lines, and the `\n` after it a third (taken: a <url> follows).
    assert.equal(lane.endLine, 11);
    assert.equal(field(1, R_END), text.lastIndexOf('<url>'));
    assert.equal(lane.endLineStart, text.lastIndexOf('<url>'));
  });

  it('where WebAssembly cannot run (node --jitless), there is no lane and the report is the same', () => {
    const script = `
      const { Lane } = await import('./src/core/read/lane.ts');
      const { validateXmlSitemapText } = await import('./src/core/validate/validator.ts');
      const urls = Array.from({ length: 300 }, (_, i) => '<url><loc>https://example.com/' + (i % 250) + '</loc><lastmod>2031-01-01</lastmod></url>').join('\\n');
      const report = validateXmlSitemapText('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\\n' + urls + '\\n</urlset>', { now: 0 });
      console.log(JSON.stringify({ lane: Lane.create() !== undefined, report }));`;
    const run = (flags: string[]): { lane: boolean; report: unknown } => {
      const r = spawnSync(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: new URL('../../../', import.meta.url), encoding: 'utf8', timeout: 120_000 });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout) as { lane: boolean; report: unknown };
    };
    const withWasm = run([]);
    const without = run(['--jitless']);
    assert.equal(withWasm.lane, true);
    assert.equal(without.lane, false);
    assert.deepEqual(without.report, withWasm.report);
  });

  it('reads no url that holds a character that is not ASCII, but the ones around it; nothing past maxCount or maxLength', () => {
    const lane = Lane.create();
    assert.ok(lane !== undefined);
    const one = '<url><loc>https://example.com/a</loc></url>';
    const other = '<url><loc>https://example.com/é</loc></url>';
    const text = `${one}${other}${one}${one}é${one}`;
    assert.equal(lane.scan(text, 0, 1, 0, 1 << 20, 100), 1);
    assert.equal(lane.scan(text, one.length, 1, 0, 1 << 20, 100), 0);
    assert.equal(lane.scan(text, one.length + other.length, 1, 0, 1 << 20, 100), 2);
    assert.equal(lane.records[LANE_FIELDS + R_END], one.length * 3 + other.length);
    assert.equal(lane.scan(one + one + one, 0, 1, 0, 1 << 20, 2), 2);
    assert.equal(lane.scan(one, 0, 1, 0, one.length - 1, 100), 0);
    assert.equal(lane.scan(one, 0, 1, 0, one.length, 100), 1);
  });

  it('keeps a fingerprint table in its own instance that answers as core/fingerprint-table.ts does, through growth', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 3 }), fc.nat(1000)), { maxLength: 300 }), (ops) => {
        const lane = Lane.createWithTable(16);
        assert.ok(lane?.seen !== undefined);
        const expected = new FingerprintTable(16);
        for (const [a, b, value] of ops) {
          // Few distinct keys: repeats, and pairs that share one half.
          const h1 = (a * 0x9e3779b1) | 0;
          const h2 = b - 2;
          assert.equal(lane.seen.get(h1, h2), expected.get(h1, h2));
          assert.equal(lane.seen.add(h1, h2, value), expected.add(h1, h2, value));
          assert.equal(lane.seen.size, expected.size);
        }
      }),
      { numRuns: 200 },
    );
    // firstOf: many look-ups at once, as get one by one, in the module's table and in script's.
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 3 })), { maxLength: 200 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 3 })), { maxLength: 100 }), (stored, asked) => {
        const lane = Lane.createWithTable(16);
        assert.ok(lane?.seen !== undefined);
        const expected = new FingerprintTable(16);
        const key = ([a, b]: [number, number]): [number, number] => [(a * 0x9e3779b1) | 0, b - 2];
        for (const pair of stored) {
          const [h1, h2] = key(pair);
          lane.seen.add(h1, h2, 0);
          expected.add(h1, h2, 0);
        }
        const pairs = new Int32Array(asked.flatMap((pair) => key(pair)));
        const first = asked.findIndex((pair) => expected.get(...key(pair)) !== -1);
        assert.equal(expected.firstOf(pairs, asked.length), first);
        assert.equal(lane.seen.firstOf(pairs, asked.length), first);
        // Only the first `count` pairs are looked at.
        assert.equal(lane.seen.firstOf(pairs, first === -1 ? asked.length : first), -1);
      }),
      { numRuns: 200 },
    );
    // Each lane made so has a table of its own.
    const one = Lane.createWithTable(16);
    const other = Lane.createWithTable(16);
    one?.seen?.add(1, 2, 3);
    assert.equal(one?.seen?.get(1, 2), 3);
    assert.equal(other?.seen?.get(1, 2), -1);
    assert.equal(Lane.create()?.seen, undefined);
  });

  it('addSeen: adds a run to the table and lists the records found there; pick lists records by a field; stops at maxTracked', () => {
    const urls = ['a', 'b', 'a', 'c', 'b', 'd', 'e'].map((p, i) => `<url><loc>https://example.com/${p}</loc>${i === 3 ? '<lastmod>2031-01-01</lastmod>' : ''}</url>`);
    const text = urls.join('\n');
    const lane = Lane.createWithTable(16);
    assert.ok(lane !== undefined);
    // A loc the table has from elsewhere (validate/protocol.ts adds the ones read the long way).
    fingerprint('https://example.com/e');
    lane.seen?.add(FINGERPRINT[0] as number, FINGERPRINT[1] as number, 99);
    assert.equal(lane.scan(text, 0, 10, 0, 1 << 20, 100), 7);
    assert.equal(lane.addSeen(7, 1_000_000), 7);
    // (record, line first seen): the second a, the second b, the e from elsewhere.
    assert.deepEqual([...lane.attention], [2, 10, 4, 11, 6, 99]);
    assert.equal(lane.seen?.size, 5);
    // The records with a lastmod from 2030 on (the c), with the date as a number.
    assert.equal(lane.pick(7, R_LASTMOD_DAY, 2030_01_01), 1);
    assert.deepEqual([...lane.attention], [3, 2031_01_01]);

    // With room for two more locs than it holds: stops before the third new one.
    const capped = Lane.createWithTable(16);
    assert.ok(capped !== undefined);
    assert.equal(capped.scan(text, 0, 1, 0, 1 << 20, 100), 7);
    assert.equal(capped.addSeen(7, 2), 3, 'a, b, a (known), then c would be the third');
    assert.deepEqual([...capped.attention], [2, 1]);
    assert.equal(capped.seen?.size, 2);
  });

  it('addSeen grows the table in the middle of a run; the records are taken afresh after it', () => {
    const lane = Lane.createWithTable(16);
    assert.ok(lane !== undefined);
    const text = Array.from({ length: 3000 }, (_, i) => `<url><loc>https://example.com/page/${i % 2500}</loc></url>`).join('\n');
    const count = lane.scan(text, 0, 1, 0, 1 << 20, 4096);
    assert.equal(count, 3000);
    const before = lane.records;
    assert.equal(lane.addSeen(count, 1_000_000), 3000);
    assert.equal(lane.seen?.size, 2500);
    // The memory grew (the old view is detached); the getter gives a view of the same records.
    assert.equal(before.length, 0);
    const records = lane.records;
    assert.equal(records.length, 3000 * LANE_FIELDS);
    assert.equal(text.slice(records[2999 * LANE_FIELDS + R_LOC_START], records[2999 * LANE_FIELDS + R_LOC_START]! + records[2999 * LANE_FIELDS + R_LOC_LENGTH]!), 'https://example.com/page/499');
    const attention = lane.attention;
    assert.equal(attention.length, 500 * 2);
    for (let a = 0; a < attention.length; a += 2) assert.equal(attention[a + 1], (attention[a] as number) - 2500 + 1, 'first seen 2,500 lines before');
    // (line, column, hash 1, hash 2) of each record.
    const pages = lane.pages(0, count);
    fingerprint('https://example.com/page/7');
    assert.deepEqual([...pages.subarray(7 * 4, 8 * 4)], [8, 1, FINGERPRINT[0], FINGERPRINT[1]]);
  });

  it('packLocs: the locs of a range of records, references decoded, one a line, as many as fit', () => {
    const lane = Lane.createWithTable(16);
    assert.ok(lane !== undefined);
    const locs = ['https://example.com/a', 'https://example.com/s?x=1&amp;y=2', 'https://example.com/r?q=&#x26;&apos;&#47;', 'https://example.com/d'];
    const text = locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('\n');
    assert.equal(lane.scanBytes(new TextEncoder().encode(text), 0, 1, 0, 1 << 20, 100), 4);
    const lines = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
    assert.equal(lane.packLocs(0, 4, 1 << 16), 4);
    assert.equal(lines(lane.packed), "https://example.com/a\nhttps://example.com/s?x=1&y=2\nhttps://example.com/r?q=&'/\nhttps://example.com/d\n");
    assert.equal(lane.packLocs(1, 3, 1 << 16), 3);
    assert.equal(lines(lane.packed), "https://example.com/s?x=1&y=2\nhttps://example.com/r?q=&'/\n");
    // Room for the first line and part of the second: the first alone; for none: nothing.
    assert.equal(lane.packLocs(0, 4, 'https://example.com/a\n'.length + 5), 1);
    assert.equal(lines(lane.packed), 'https://example.com/a\n');
    assert.equal(lane.packLocs(2, 4, 10), 2);
    assert.equal(lane.packed.length, 0);
    // After the table grew (the memory with it), the lines are past it, the same.
    for (let i = 0; i < 1000; i++) lane.seen?.add(i, i, i);
    assert.equal(lane.packLocs(3, 4, 100), 4);
    assert.equal(lines(lane.packed), 'https://example.com/d\n');
  });
});
