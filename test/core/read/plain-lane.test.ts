// The bulk lane's module (wasm/plain-lane.ts, compiled into src/core/read/plain-lane-wasm.ts):
// the committed bytes are those of its source, its fingerprint is core/fingerprint.ts's, and it reads
// only what it may. What its records mean is tested through the validator (plain-entry.test.ts) and
// the reader (entry-shortcut.test.ts).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { fingerprint, FINGERPRINT } from '../../../src/core/fingerprint.js';
import { LANE_FIELDS, PlainLane, R_END, R_HASH_1, R_HASH_2, R_LASTMOD_LENGTH, R_LASTMOD_START, R_LINE, R_COLUMN, R_LOC_LENGTH, R_LOC_START, R_START, laneFingerprint } from '../../../src/core/read/plain-lane.js';
// @ts-expect-error: a plain JavaScript build script, without type declarations
import { wasmModuleSource } from '../../../scripts/build-wasm.js';

describe('plain lane module', () => {
  it('is the compiled form of wasm/plain-lane.ts (npm run build:wasm)', async () => {
    const fresh = (await wasmModuleSource()) as string;
    const committed = readFileSync(new URL('../../../src/core/read/plain-lane-wasm.ts', import.meta.url), 'utf8');
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
    const lane = PlainLane.create();
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

  it('reads a run of urls into records: positions, lines, loc and lastmod', () => {
    const lane = PlainLane.create();
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
      const { PlainLane } = await import('./src/core/read/plain-lane.ts');
      const { validateXmlSitemapText } = await import('./src/core/validate/validator.ts');
      const urls = Array.from({ length: 300 }, (_, i) => '<url><loc>https://example.com/' + (i % 250) + '</loc><lastmod>2031-01-01</lastmod></url>').join('\\n');
      const report = validateXmlSitemapText('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\\n' + urls + '\\n</urlset>', { now: 0 });
      console.log(JSON.stringify({ lane: PlainLane.create() !== undefined, report }));`;
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

  it('reads nothing from a buffer that is not all ASCII, nor past maxCount or maxLength', () => {
    const lane = PlainLane.create();
    assert.ok(lane !== undefined);
    const one = '<url><loc>https://example.com/a</loc></url>';
    assert.equal(lane.scan(`${one}é`, 0, 1, 0, 1 << 20, 100), 0);
    assert.equal(lane.scan(one + one + one, 0, 1, 0, 1 << 20, 2), 2);
    assert.equal(lane.scan(one, 0, 1, 0, one.length - 1, 100), 0);
    assert.equal(lane.scan(one, 0, 1, 0, one.length, 100), 1);
  });
});
