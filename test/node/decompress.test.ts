import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { constants, crc32, deflateRawSync, gunzipSync, gzipSync } from 'node:zlib';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { SitemapError } from '../../src/core/errors.js';
import { decompressed, type DecompressOptions } from '../../src/node/decompress.js';

const MiB = 1024 * 1024;
const XML = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://www.ejemplo.com/</loc></url></urlset>\n');

/** An async source over the chunks, recording how many bytes were pulled and whether it was closed. */
function source(chunks: Iterable<Uint8Array>): AsyncIterable<Uint8Array> & { pulled: number; closed: boolean } {
  const state = {
    pulled: 0,
    closed: false,
    async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
      try {
        for (const c of chunks) {
          state.pulled += c.length;
          yield c;
        }
      } finally {
        state.closed = true;
      }
    },
  };
  return state;
}

function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function collect(input: AsyncIterable<Uint8Array>, options?: DecompressOptions): Promise<Buffer> {
  const out: Uint8Array[] = [];
  for await (const c of decompressed(input, options)) out.push(c);
  return Buffer.concat(out);
}

/** Rejects with `expected`: a code (`ERR_SITEMAP_OPTION`), or the rule of an `ERR_SITEMAP_INPUT` (`gzip/corrupt`, `budget/…`). */
async function rejectsWith(promise: Promise<unknown>, expected: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof SitemapError, String(error));
    assert.equal(error.code, expected.startsWith('ERR_SITEMAP_') ? expected : 'ERR_SITEMAP_INPUT');
    assert.equal(error.rule, expected.startsWith('ERR_SITEMAP_') ? undefined : expected);
    assert.match(error.message, message);
    return true;
  });
}

/**
 * A gzip of `mib` MiB of spaces, as chunks of about 16 KiB, built without ever holding the spaces: one
 * MiB deflated with a full flush (a byte-aligned, self-contained run of blocks) repeated `mib` times,
 * then an empty final block and the trailer (CRC-32 and size of the whole).
 */
function gzipBomb(mib: number): Uint8Array[] {
  const spaces = Buffer.alloc(MiB, 0x20);
  const block = deflateRawSync(spaces, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = crc32(spaces, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((mib * MiB) % 2 ** 32, 4);
  const perChunk = Math.max(1, Math.floor((16 * 1024) / block.length));
  const chunks: Uint8Array[] = [Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 2, 3])];
  for (let i = 0; i < mib; i += perChunk) chunks.push(Buffer.concat(Array<Buffer>(Math.min(perChunk, mib - i)).fill(block)));
  chunks.push(Buffer.from([0x03, 0x00]), trailer);
  return chunks;
}

describe('decompressed', () => {
  it('passes plain bytes through unchanged, chunk by chunk', async () => {
    const chunks = pieces(XML, 7);
    const src = source(chunks);
    const out: Uint8Array[] = [];
    for await (const c of decompressed(src)) out.push(c);
    assert.deepEqual(Buffer.concat(out), XML);
    assert.equal(out.length, chunks.length);
    assert.equal(src.closed, true);
    assert.deepEqual(await collect(source([])), Buffer.alloc(0));
    assert.deepEqual(await collect(source([Uint8Array.of(0x1f)])), Buffer.from([0x1f]));
  });

  it('gunzips by the magic bytes, however the input is chunked', async () => {
    const gz = gzipSync(XML);
    assert.deepEqual(await collect(source([gz])), XML);
    assert.deepEqual(await collect(source(pieces(gz, 1))), XML);
    assert.deepEqual(await collect(source([new Uint8Array(0), gz.subarray(0, 1), new Uint8Array(0), gz.subarray(1)])), XML);
  });

  it('gunzips in chunks of at most chunkBytes (256 KiB by default)', async () => {
    const content = Buffer.alloc(3 * MiB, 'x');
    const gz = gzipSync(content);
    for (const [options, size] of [[{}, 256 * 1024], [{ chunkBytes: 512 * 1024 }, 512 * 1024]] as const) {
      const sizes: number[] = [];
      for await (const c of decompressed(source([gz]), options)) sizes.push(c.length);
      assert.equal(sizes.reduce((a, b) => a + b, 0), content.length);
      assert.deepEqual(sizes, Array<number>(content.length / size).fill(size));
    }
  });

  it('gunzips a gzip inside a gzip, up to maxDepth layers', async () => {
    const twice = gzipSync(gzipSync(XML));
    assert.deepEqual(await collect(source(pieces(twice, 5))), XML);
    const thrice = gzipSync(twice);
    await rejectsWith(collect(source([thrice])), 'budget/gzip-depth', /more than 2 deep/);
    assert.deepEqual(await collect(source([thrice]), { maxDepth: 3 }), XML);
    await rejectsWith(collect(source([gzipSync(XML)]), { maxDepth: 0 }), 'budget/gzip-depth', /more than 0 deep/);
  });

  it('reads concatenated gzip members as one stream', async () => {
    const a = XML.subarray(0, 40);
    const b = XML.subarray(40);
    const members = Buffer.concat([gzipSync(a), gzipSync(b, { level: 1 }), gzipSync(Buffer.alloc(0))]);
    assert.deepEqual(await collect(source(pieces(members, 13))), XML);
    // Many members, then zero padding.
    const lines = Array.from({ length: 40 }, (_, i) => Buffer.from(`line ${i}\n`));
    const many = Buffer.concat([...lines.map((line) => gzipSync(line)), Buffer.alloc(512)]);
    for (const size of [many.length, 13]) assert.deepEqual(await collect(source(pieces(many, size))), Buffer.concat(lines));
  });

  it('ignores bytes after the last member that do not start another, with a gzip/trailing-garbage warning', async () => {
    // Large enough that the member's last output and the garbage would meet in one step of zlib.
    const content = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `<url><loc>https://www.example.com/${i}</loc></url>\n`).join(''));
    const gz = gzipSync(content);
    const members = Buffer.concat([gzipSync(XML), gz]);
    for (const [input, output] of [[gz, content], [gzipSync(XML), XML], [members, Buffer.concat([XML, content])]] as const) {
      for (const junk of ['\n', '\x1f', 'junk appended by a server\r\n', '\0\0\0\0junk']) {
        const bytes = Buffer.concat([input, Buffer.from(junk, 'latin1')]);
        for (const size of [bytes.length, 64 * 1024, 7]) {
          const found: Diagnostic[] = [];
          const src = source(pieces(bytes, size));
          assert.deepEqual(await collect(src, { onDiagnostic: (d) => found.push(d) }), output, `${JSON.stringify(junk)} in pieces of ${size}`);
          assert.deepEqual(found, [
            {
              code: 'gzip/trailing-garbage',
              severity: 'warning',
              message: `bytes after the end of the gzip data (from byte ${input.length}) that do not start another gzip member: ignored`,
              hint: 'something appended them after compression (a server, an upload, block padding); compress the file again',
            },
          ]);
          assert.equal(src.closed, true);
        }
      }
      // Zero bytes are padding: ignored in silence.
      const found: Diagnostic[] = [];
      assert.deepEqual(await collect(source([input, Buffer.alloc(10_000)]), { onDiagnostic: (d) => found.push(d) }), output);
      assert.deepEqual(found, []);
    }
    // In a gzip inside a gzip too.
    const found: Diagnostic[] = [];
    assert.deepEqual(await collect(source([gzipSync(Buffer.concat([gzipSync(XML), Buffer.from('\n')]))]), { onDiagnostic: (d) => found.push(d) }), XML);
    assert.deepEqual(found.map((d) => d.code), ['gzip/trailing-garbage']);
  });

  it('ignores bytes after the last of many members (past 16) with a warning, every member read', async () => {
    // A sitemap cut into 40 members, 39 small and one large, as gzip -d reads it. Read with zlib's chunks
    // of 1 KiB too, so that members go through an InflateRaw stream of their own.
    const content = Buffer.from(Array.from({ length: 4_000 }, (_, i) => `<url><loc>https://www.example.com/${i}</loc></url>\n`).join(''));
    const cuts = [...Array.from({ length: 40 }, (_, i) => i * 100), content.length];
    const members = Buffer.concat(cuts.slice(1).map((end, i) => gzipSync(content.subarray(cuts[i], end))));
    for (const junk of ['\n', 'junk appended by a server\r\n']) {
      const bytes = Buffer.concat([members, Buffer.from(junk)]);
      for (const [size, chunkBytes] of [[bytes.length, undefined], [bytes.length, 1024], [4096, undefined], [7, 1024]] as const) {
        const found: Diagnostic[] = [];
        const output = await collect(source(pieces(bytes, size)), { chunkBytes, onDiagnostic: (d) => found.push(d) });
        assert.deepEqual(output, content, `${JSON.stringify(junk)} in pieces of ${size}, chunks of ${chunkBytes}`);
        assert.deepEqual(found.map((d) => [d.code, d.message]), [['gzip/trailing-garbage', `bytes after the end of the gzip data (from byte ${members.length}) that do not start another gzip member: ignored`]]);
      }
    }
  });

  it('reads members whole and once where the bytes 1f 8b 08 occur inside a member or in trailing garbage', async () => {
    // A stored member holding a member start near its end, and junk holding one: a Gunzip over the bytes
    // up to that point fails after output went out; the framing reads them again without repeating it.
    const lines = (tag: string): Buffer => Buffer.from(Array.from({ length: 60 }, (_, i) => `<url><loc>https://e.com/${tag}/${i}</loc></url>\n`).join(''));
    const [a, b, c] = [lines('a'), Buffer.concat([lines('b'), Buffer.from('\x1f\x8b\x08\x00 inside'), lines('b2')]), lines('c')];
    const members = Buffer.concat([gzipSync(a), gzipSync(b, { level: 0 }), gzipSync(c)]);
    for (const junk of ['', 'junk \x1f\x8b\x08\x00 appended']) {
      const bytes = Buffer.concat([members, Buffer.from(junk, 'latin1')]);
      for (const [size, chunkBytes] of [[bytes.length, 64], [bytes.length, undefined], [7, 64], [1000, 1024]] as const) {
        const found: Diagnostic[] = [];
        const output = await collect(source(pieces(bytes, size)), { chunkBytes, onDiagnostic: (d) => found.push(d) });
        assert.deepEqual(output, Buffer.concat([a, b, c]), `${JSON.stringify(junk)} in pieces of ${size}, chunks of ${chunkBytes}`);
        assert.deepEqual(found.map((d) => d.code), junk === '' ? [] : ['gzip/trailing-garbage']);
      }
    }
  });

  it('reads a member header with every optional field (RFC 1952 2.3.1) and checks its CRC-16', async () => {
    const name = Buffer.from('sitemap.xml\0');
    const comment = Buffer.from('made by hand\0');
    const extra = Buffer.from([4, 0, 0x41, 0x70, 0, 0]); // XLEN 4: one subfield "Ap" of length 0
    const head = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0x02 | 0x04 | 0x08 | 0x10, 0, 0, 0, 0, 0, 3]), extra, name, comment]);
    const hcrc = Buffer.alloc(2);
    hcrc.writeUInt16LE(crc32(head) & 0xffff);
    const body = gzipSync(XML).subarray(10);
    const gz = Buffer.concat([head, hcrc, body]);
    assert.deepEqual(gunzipSync(gz), XML);
    for (const size of [gz.length, 1, 5]) assert.deepEqual(await collect(source(pieces(gz, size))), XML);
    hcrc[0] = (hcrc[0] as number) ^ 1;
    await rejectsWith(collect(source([Buffer.concat([head, hcrc, body])])), 'gzip/corrupt', /header crc mismatch/);
    await rejectsWith(collect(source([head.subarray(0, 20)])), 'gzip/corrupt', /truncated/);
    // An empty extra field (XLEN 0), as gzip -d reads it; also by the stream (output over chunkBytes).
    const bare = Buffer.from([0x1f, 0x8b, 8, 0x02 | 0x04, 0, 0, 0, 0, 0, 3, 0, 0]);
    const bareCrc = Buffer.alloc(2);
    bareCrc.writeUInt16LE(crc32(bare) & 0xffff);
    for (const chunkBytes of [undefined, 64]) assert.deepEqual(await collect(source(pieces(Buffer.concat([bare, bareCrc, body]), 5)), { chunkBytes }), XML);
    const reserved = Buffer.from(gzipSync(XML));
    reserved[3] = 0x20;
    await rejectsWith(collect(source([reserved])), 'gzip/corrupt', /unknown header flags set/);
  });

  it('reports a truncated gzip as gzip/corrupt', async () => {
    const gz = gzipSync(Buffer.concat(Array<Buffer>(50).fill(XML)));
    await rejectsWith(collect(source([gz.subarray(0, gz.length - 20)])), 'gzip/corrupt', /truncated \(unexpected end of file\)/);
    await rejectsWith(collect(source([gz.subarray(0, 2)])), 'gzip/corrupt', /truncated/);
    for (const cut of [3, 8]) await rejectsWith(collect(source([gz.subarray(0, gz.length - cut)])), 'gzip/corrupt', /truncated/);
    // A second member cut short is a cut file, not trailing garbage.
    const second = gzipSync(XML);
    for (const cut of [3, 12, second.length - 1]) await rejectsWith(collect(source([gz, second.subarray(0, cut)])), 'gzip/corrupt', /truncated/);
  });

  it('reports corrupt gzip data as gzip/corrupt with the reason', async () => {
    const gz = Buffer.from(gzipSync(XML));
    gz[gz.length - 8] = (gz[gz.length - 8] as number) ^ 0xff; // CRC
    await rejectsWith(collect(source([gz])), 'gzip/corrupt', /incorrect data check/);
    gz[gz.length - 8] = (gz[gz.length - 8] as number) ^ 0xff;
    gz[gz.length - 4] = (gz[gz.length - 4] as number) ^ 0x01; // size
    await rejectsWith(collect(source([gz])), 'gzip/corrupt', /incorrect length check/);
    await rejectsWith(collect(source([Buffer.from([0x1f, 0x8b, 0x07, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3])])), 'gzip/corrupt', /unknown compression method/);
  });

  it('passes errors of the source through unchanged', async () => {
    const gz = gzipSync(XML);
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield gz.subarray(0, 10);
      throw Object.assign(new Error('read failed'), { code: 'EIO' });
    }
    await assert.rejects(collect(failing()), (e: unknown) => e instanceof Error && !(e instanceof SitemapError) && e.message === 'read failed');
  });

  it('stops plain input at maxBytes, after yielding exactly that many bytes', async () => {
    const src = source(pieces(Buffer.alloc(5000, 0x61), 512));
    const out: Uint8Array[] = [];
    await rejectsWith(
      (async () => {
        for await (const c of decompressed(src, { maxBytes: 1000 })) out.push(c);
      })(),
      'budget/decompressed-size',
      /limit of 1000 bytes/,
    );
    assert.equal(Buffer.concat(out).length, 1000);
    assert.equal(src.closed, true);
    assert.ok(src.pulled <= 1024 + 512, `pulled ${src.pulled}`);
    // Exactly at the limit is fine.
    assert.equal((await collect(source([Buffer.alloc(1000)]), { maxBytes: 1000 })).length, 1000);
  });

  it('builds a valid gzip bomb', () => {
    const small = Buffer.concat(gzipBomb(3));
    assert.deepEqual(gunzipSync(small), Buffer.alloc(3 * MiB, 0x20));
  });

  it('stops a gzip bomb (300 MiB of spaces) at a 10 MiB budget, quickly and in little memory', async () => {
    const bomb = gzipBomb(300);
    const size = bomb.reduce((n, c) => n + c.length, 0);
    assert.ok(size < 1 * MiB, `the bomb is ${size} bytes`);
    const src = source(bomb);
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    let out = 0;
    const started = performance.now();
    await rejectsWith(
      (async () => {
        for await (const c of decompressed(src, { maxBytes: 10 * MiB })) {
          out += c.length;
          peak = Math.max(peak, process.memoryUsage().rss);
        }
      })(),
      'budget/decompressed-size',
      /larger than the limit of 10485760 bytes \(10 MiB\)/,
    );
    const ms = performance.now() - started;
    assert.equal(out, 10 * MiB);
    assert.equal(src.closed, true);
    // 10 MiB need ~10 KB of this input; the rest is read-ahead, bounded whatever the size of the bomb.
    assert.ok(src.pulled < 128 * 1024, `pulled ${src.pulled} of ${size} compressed bytes`);
    assert.ok(ms < 5000, `${ms.toFixed(0)} ms`);
    assert.ok(peak - rss0 < 64 * MiB, `RSS grew by ${((peak - rss0) / MiB).toFixed(1)} MiB`);
  });

  it('stops a gzip bomb inside a gzip at the budget too', async () => {
    const inner = Buffer.concat(gzipBomb(100));
    const outer = gzipSync(inner);
    const src = source(pieces(outer, 16 * 1024));
    let out = 0;
    await rejectsWith(
      (async () => {
        for await (const c of decompressed(src, { maxBytes: 4 * MiB })) out += c.length;
      })(),
      'budget/decompressed-size',
      /4 MiB/,
    );
    assert.equal(out, 4 * MiB);
    assert.equal(src.closed, true);
  });

  it('stops an endless run of empty gzip members at the compressed-input budget', async () => {
    const empty = gzipSync(Buffer.alloc(0));
    const chunk = Buffer.concat(Array<Buffer>(3000).fill(empty));
    let pulled = 0;
    let closed = false;
    async function* endless(): AsyncGenerator<Uint8Array> {
      try {
        for (;;) {
          pulled += chunk.length;
          yield chunk;
        }
      } finally {
        closed = true;
      }
    }
    await rejectsWith(collect(endless(), { maxBytes: MiB }), 'budget/compressed-size', /compressed input is larger than the limit of 1053696 bytes \(1\.0 MiB\)/);
    assert.ok(closed);
    assert.ok(pulled < 2 * MiB, `pulled ${pulled}`);
    await rejectsWith(collect(source([gzipSync(XML)]), { maxCompressedBytes: 20 }), 'budget/compressed-size', /limit of 20 bytes/);
  });

  it('closes the source when the consumer stops early', async () => {
    const src = source(pieces(gzipSync(Buffer.alloc(4 * MiB, 0x61)), 1024));
    for await (const c of decompressed(src)) {
      assert.ok(c.length > 0);
      break;
    }
    assert.equal(src.closed, true);
  });

  it('refuses bad options', async () => {
    await rejectsWith(collect(source([XML]), { maxBytes: 0 }), 'ERR_SITEMAP_OPTION', /maxBytes/);
    await rejectsWith(collect(source([XML]), { maxDepth: 1.5 }), 'ERR_SITEMAP_OPTION', /maxDepth/);
    await rejectsWith(collect(source([XML]), { maxCompressedBytes: -1 }), 'ERR_SITEMAP_OPTION', /maxCompressedBytes/);
  });

  it('takes the largest maxBytes without a maxCompressedBytes: the default derived from it stays a safe integer', async () => {
    assert.equal((await collect(source([gzipSync(XML)]), { maxBytes: Number.MAX_SAFE_INTEGER })).toString(), XML.toString());
  });
});
