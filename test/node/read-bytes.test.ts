// readSitemap reads the entries of an ASCII XML input from its bytes (the reader's lane offers
// readRunBytes; core/read/lane-bytes.ts): the entries, their positions, the diagnostics and the
// summary must be those of reading every chunk as text (`laneFromBytes: false`), for a realistic
// sitemap (query strings with &amp;, comments, images, alternates, CRLF lines, bad values) and for
// every fixture and corpus file, in chunks of many sizes.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { readSitemap } from '../../src/node/parse-sitemap.js';
import { Lane } from '../../src/core/read/lane.js';
import { xmlFixturesAndCorpus } from '../helpers/files.js';
// @ts-expect-error: a plain ES module of the benchmarks, untyped
import { realisticSitemap } from '../../bench/lib/realistic.js';

/** `bytes` in copies (as a stream hands over fresh buffers) of the given sizes, in turn. */
async function* chunked(bytes: Uint8Array, sizes: readonly number[]): AsyncGenerator<Uint8Array> {
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const end = at + (sizes[k % sizes.length] as number);
    yield bytes.slice(at, end);
    at = end;
  }
}

/** Everything a reading reports, in order, and how many runs of entries the lane read from bytes. */
async function reading(bytes: Uint8Array, sizes: readonly number[], options: { laneFromBytes?: boolean; maxEntries?: number; maxBytes?: number }): Promise<{ events: unknown[]; reads: number }> {
  const events: unknown[] = [];
  const scanBytes = Lane.prototype.scanBytes;
  let reads = 0;
  Lane.prototype.scanBytes = function (this: Lane, ...args: Parameters<Lane['scanBytes']>): number {
    const count = scanBytes.apply(this, args);
    reads += count > 0 ? 1 : 0;
    return count;
  };
  try {
    const summary = await readSitemap(chunked(bytes, sizes), {
      file: 'f',
      ...options,
      onUrl: (e, at) => events.push(['url', structuredClone(e), at.line, at.column]),
      onSitemap: (r, at) => events.push(['sitemap', structuredClone(r), at.line, at.column]),
      onDiagnostic: (d) => events.push(['diagnostic', { ...d }]),
    });
    events.push(['summary', summary]);
  } finally {
    Lane.prototype.scanBytes = scanBytes;
  }
  return { events, reads };
}

async function both(bytes: Uint8Array, sizes: readonly number[], options: { maxEntries?: number; maxBytes?: number } = {}): Promise<number> {
  const text = await reading(bytes, sizes, { ...options, laneFromBytes: false });
  const fromBytes = await reading(bytes, sizes, options);
  assert.equal(text.reads, 0);
  assert.deepStrictEqual(fromBytes.events, text.events, `chunks of ${sizes.join(', ')} ${JSON.stringify(options)}`);
  return fromBytes.reads;
}

describe('readSitemap: the lane read from bytes', () => {
  it('gives the entries, positions and diagnostics of reading as text, and is taken, on a realistic sitemap', async () => {
    const xml = (realisticSitemap(3000) as string)
      .replace(/\n/g, (nl: string, at: number) => (at % 7 === 0 ? '\r\n' : nl))
      .replace('<priority>1.0</priority>', '<priority>1.5</priority>')
      .replace('<changefreq>daily</changefreq>', '<changefreq>sometimes</changefreq>')
      .replace('</url>', '</url><foo>stray</foo>');
    const bytes = new TextEncoder().encode(xml);
    for (const sizes of [[65_536], [262_144], [1000, 77_777, 3], [4096, 4097]]) {
      assert.ok((await both(bytes, sizes)) > 0, `read from bytes in chunks of ${sizes.join(', ')}`);
    }
    for (const options of [{ maxEntries: 1500 }, { maxBytes: 300_000 }]) await both(bytes, [16_384], options);
  });

  it('gives the entries, positions and diagnostics of reading as text on every fixture and corpus file (fast-check chunks)', async () => {
    const files = xmlFixturesAndCorpus();
    assert.ok(files.length > 20);
    for (const file of files) {
      const bytes = readFileSync(file);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 4 }), async (sizes) => {
          await both(bytes, sizes);
        }),
        { numRuns: 4 },
      );
    }
  });
});
