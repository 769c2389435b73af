import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { crc32, gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { ParallelFileWriter } from '../../src/node/parallel-gzip.js';
import { SitemapError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/tmp.js';

const KiB = 1024;
const hasGzip = spawnSync('gzip', ['--version']).error === undefined;

/** A small deterministic PRNG (LCG): numbers below `n`. */
function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const WORDS = ['shoes', 'red', 'blue', 'garden', 'chair', 'table', 'lamp', 'outdoor', 'kids', 'sale', 'new', 'classic', 'leather', 'cotton', 'oak', 'vintage', 'modern', 'premium', 'smart', 'wireless'];

/** About `bytes` of sitemap-like XML with varied slugs and dates. */
function sitemapXml(bytes: number, seed = 1): Uint8Array {
  const rnd = prng(seed);
  const two = (n: number): string => String(n).padStart(2, '0');
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'];
  let length = (parts[0] as string).length;
  while (length < bytes) {
    const slug = Array.from({ length: 2 + rnd(4) }, () => WORDS[rnd(WORDS.length)]).join('-');
    const line =
      `<url><loc>https://www.example.com/${WORDS[rnd(8)]}/${slug}-${rnd(1e7)}.html</loc>` +
      `<lastmod>20${20 + rnd(5)}-${two(1 + rnd(12))}-${two(1 + rnd(28))}T${two(rnd(24))}:${two(rnd(60))}:${two(rnd(60))}Z</lastmod>` +
      `<changefreq>${['daily', 'weekly', 'monthly'][rnd(3)]}</changefreq><priority>0.${rnd(10)}</priority></url>\n`;
    parts.push(line);
    length += line.length;
  }
  parts.push('</urlset>\n');
  return new TextEncoder().encode(parts.join(''));
}

function randomBytes(size: number, seed: number): Uint8Array {
  const rnd = prng(seed);
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = rnd(256);
  return bytes;
}

/** A block described by fast-check and built here (large arbitrary arrays are slow to shrink). */
const blockSpec = fc.record({
  kind: fc.constantFrom('text', 'random'),
  size: fc.oneof(fc.constant(0), fc.constant(1), fc.integer({ min: 2, max: 40 * KiB }), fc.integer({ min: 128 * KiB, max: 300 * KiB }), fc.constant(300 * KiB)),
  seed: fc.integer({ min: 0, max: 2 ** 31 }),
});
type BlockSpec = { kind: string; size: number; seed: number };

function build(spec: BlockSpec): Uint8Array {
  if (spec.kind === 'random') return randomBytes(spec.size, spec.seed);
  return sitemapXml(spec.size, spec.seed).subarray(0, spec.size).slice();
}

function concat(blocks: readonly Uint8Array[]): Buffer {
  return Buffer.concat(blocks.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
}

/** Writes `blocks` as one file; a copy of each block is handed over (the writer takes the buffer). */
async function writeFile(writer: ParallelFileWriter, path: string, blocks: readonly Uint8Array[]): Promise<number> {
  const id = writer.open(path);
  for (const block of blocks) {
    if (writer.full) await writer.whenWritable();
    writer.write(id, block.slice());
  }
  return writer.close(id);
}

function assertGzipOf(path: string, expected: Buffer, size?: number): void {
  const file = readFileSync(path);
  if (size !== undefined) assert.equal(size, file.length, 'close() resolves with the size on disk');
  assert.deepEqual(file.subarray(0, 10), Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), 'gzip header, OS unix, mtime 0');
  assert.ok(gunzipSync(file).equals(expected), 'gunzip gives back the input');
  if (hasGzip) assert.equal(spawnSync('gzip', ['-t', path]).status, 0, 'gzip -t accepts the file');
}

function errorOf(expected: RegExp): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof SitemapError, `a SitemapError, got ${String(error)}`);
    assert.equal(error.code, 'ERR_SITEMAP_WRITE');
    assert.match(error.message, expected);
    return true;
  };
}

test('crcOf is the CRC-32 of the blocks handed over, empty ones (also views of no memory) ignored, and the trailer holds it', async () => {
  const dir = tempDir();
  const noMemory = (): Uint8Array => {
    const buffer = new ArrayBuffer(8);
    const view = new Uint8Array(buffer);
    structuredClone(buffer, { transfer: [buffer] });
    return view;
  };
  for (const gzipLevel of [0, 6]) {
    const writer = new ParallelFileWriter({ gzipLevel, workers: 2 });
    try {
      const path = join(dir, `crc-${gzipLevel}.gz`);
      const id = writer.open(path);
      const blocks: Uint8Array[] = [];
      for (let i = 0; i < 12; i++) {
        writer.write(id, [new Uint8Array(0), new Uint8Array(new ArrayBuffer(0)), noMemory()][i % 3] as Uint8Array);
        const block = i % 4 === 3 ? randomBytes(70 * KiB, i) : sitemapXml(1 + i * 5 * KiB, i);
        writer.write(id, block);
        blocks.push(block);
        assert.equal(writer.crcOf(id), crc32(concat(blocks)), `after block ${i}`);
      }
      const crc = writer.crcOf(id);
      await writer.close(id);
      if (gzipLevel > 0) {
        assertGzipOf(path, concat(blocks));
        assert.equal(readFileSync(path).readUInt32LE(readFileSync(path).length - 8), crc);
      } else assert.ok(readFileSync(path).equals(concat(blocks)));
    } finally {
      await writer.destroy();
    }
  }
});

test('round trip: random blocks (empty, 1 byte, up to 300 KiB, text and random bytes) give one valid gzip file', async () => {
  const dir = tempDir();
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(blockSpec, { maxLength: 12 }), fc.integer({ min: 1, max: 3 }), fc.constantFrom(1, 6, 9), async (specs, workers, gzipLevel) => {
      const blocks = specs.map(build);
      const writer = new ParallelFileWriter({ gzipLevel, workers, maxPendingBlocks: 1 + (run % 4) });
      try {
        const path = join(dir, `run-${run++}.gz`);
        const size = await writeFile(writer, path, blocks);
        assertGzipOf(path, concat(blocks), size);
      } finally {
        await writer.destroy();
      }
    }),
    { numRuns: 25 },
  );
});

test('several files open at once with interleaved writes', async () => {
  const dir = tempDir();
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), blockSpec), { maxLength: 24 }), async (steps) => {
      const writer = new ParallelFileWriter({ gzipLevel: 6, workers: 2 });
      try {
        const paths = [0, 1, 2, 3].map((i) => join(dir, `run-${run}-${i}.gz`));
        run++;
        const ids = paths.map((path) => writer.open(path));
        const written: Uint8Array[][] = [[], [], [], []];
        for (const [file, spec] of steps) {
          const block = build(spec);
          (written[file] as Uint8Array[]).push(block);
          if (writer.full) await writer.whenWritable();
          writer.write(ids[file] as number, block.slice());
        }
        const sizes = await Promise.all(ids.map((id) => writer.close(id)));
        paths.forEach((path, i) => assertGzipOf(path, concat(written[i] as Uint8Array[]), sizes[i]));
      } finally {
        await writer.destroy();
      }
    }),
    { numRuns: 15 },
  );
});

test('many files in sequence through one writer, each closed before the next opens or all closed at the end', async () => {
  const dir = tempDir();
  const writer = new ParallelFileWriter({ gzipLevel: 6, workers: 2 });
  try {
    const later: Promise<void>[] = [];
    for (let i = 0; i < 60; i++) {
      const blocks = [sitemapXml(1 + ((i * 7919) % (200 * KiB)), i), sitemapXml(i * 10, i + 1), randomBytes(i, i)];
      const path = join(dir, `sitemap-${i}.xml.gz`);
      const done = writeFile(writer, path, blocks).then((size) => assertGzipOf(path, concat(blocks), size));
      if (i % 2 === 0) await done;
      else later.push(done);
    }
    await Promise.all(later);
  } finally {
    await writer.destroy();
  }
});

test('an empty file is a valid gzip file of nothing', async () => {
  const dir = tempDir();
  const writer = new ParallelFileWriter({ gzipLevel: 6 });
  try {
    const path = join(dir, 'empty.gz');
    const id = writer.open(path);
    writer.write(id, new Uint8Array(0));
    const size = await writer.close(id);
    assert.equal(size, 20);
    assertGzipOf(path, Buffer.alloc(0), size);
  } finally {
    await writer.destroy();
  }
});

test('levels 1, 6 and 9: size on sitemap XML within 3% of zlib.gzipSync', async () => {
  const dir = tempDir();
  const xml = sitemapXml(10 * 1024 * KiB, 42);
  const blocks: Uint8Array[] = [];
  for (let offset = 0; offset < xml.length; offset += 192 * KiB) blocks.push(xml.subarray(offset, offset + 192 * KiB));
  for (const gzipLevel of [1, 6, 9]) {
    const writer = new ParallelFileWriter({ gzipLevel, workers: 2 });
    try {
      const path = join(dir, `level-${gzipLevel}.gz`);
      const size = await writeFile(writer, path, blocks);
      assertGzipOf(path, Buffer.from(xml), size);
      const reference = gzipSync(xml, { level: gzipLevel }).length;
      assert.ok(Math.abs(size / reference - 1) < 0.03, `level ${gzipLevel}: ${size} bytes vs gzipSync ${reference}`);
    } finally {
      await writer.destroy();
    }
  }
});

test('gzipLevel 0 writes the bytes as they are, in order, with no workers', async () => {
  const dir = tempDir();
  const writer = new ParallelFileWriter({ gzipLevel: 0, maxPendingBlocks: 2 });
  try {
    const blocks = [sitemapXml(300 * KiB, 1), new Uint8Array(0), Uint8Array.of(7), randomBytes(70 * KiB, 2), sitemapXml(5000, 3)];
    const a = writer.open(join(dir, 'a.xml'));
    const b = writer.open(join(dir, 'b.xml'));
    for (const block of blocks) {
      if (writer.full) await writer.whenWritable();
      writer.write(a, block.slice());
      writer.write(b, block.slice().reverse());
    }
    const expected = concat(blocks);
    assert.equal(await writer.close(a), expected.length);
    assert.equal(await writer.close(b), expected.length);
    assert.ok(readFileSync(join(dir, 'a.xml')).equals(expected));
    assert.ok(readFileSync(join(dir, 'b.xml')).equals(concat(blocks.map((x) => x.slice().reverse()))));
  } finally {
    await writer.destroy();
  }
});

test('a block that is a view into a larger buffer is copied, leaving the larger buffer usable', async () => {
  const dir = tempDir();
  const writer = new ParallelFileWriter({ gzipLevel: 6, workers: 1 });
  try {
    const big = Buffer.from(sitemapXml(100 * KiB, 9));
    const small = Buffer.from('<urlset/>'); // from Node's shared pool
    const id = writer.open(join(dir, 'view.gz'));
    writer.write(id, big.subarray(10, 50 * KiB));
    writer.write(id, small);
    await writer.close(id);
    assert.ok(big.equals(sitemapXml(100 * KiB, 9)), 'the larger buffer is neither detached nor changed');
    assert.ok(gunzipSync(readFileSync(join(dir, 'view.gz'))).equals(Buffer.concat([big.subarray(10, 50 * KiB), Buffer.from('<urlset/>')])));
  } finally {
    await writer.destroy();
  }
});

test('gzipLevel 0 copies a Buffer block as it is handed over: the caller may reuse the Buffer at once (Buffer#slice is a view; generate --shards --no-gzip wrote one child over another)', async () => {
  const dir = tempDir();
  const writer = new ParallelFileWriter({ gzipLevel: 0 });
  try {
    const block = Buffer.from('<urlset>first</urlset>');
    const id = writer.open(join(dir, 'a.xml'));
    writer.write(id, block);
    block.fill('x');
    await writer.close(id);
    assert.equal(readFileSync(join(dir, 'a.xml'), 'utf8'), '<urlset>first</urlset>');
  } finally {
    await writer.destroy();
  }
});

test('full turns true at maxPendingBlocks and whenWritable resolves once blocks reach the disk', async () => {
  const dir = tempDir();
  const writer = new ParallelFileWriter({ gzipLevel: 1, workers: 2, maxPendingBlocks: 2 });
  try {
    const id = writer.open(join(dir, 'bp.gz'));
    assert.equal(writer.full, false);
    writer.write(id, sitemapXml(100 * KiB, 1));
    assert.equal(writer.full, false);
    writer.write(id, sitemapXml(100 * KiB, 2));
    assert.equal(writer.full, true);
    await writer.whenWritable();
    assert.equal(writer.full, false);
    await writer.close(id);
  } finally {
    await writer.destroy();
  }
});

test('ENOSPC: /dev/full makes whenWritable and close reject with ERR_SITEMAP_WRITE, and later calls throw', { skip: !existsSync('/dev/full') && 'no /dev/full' }, async () => {
  for (const gzipLevel of [0, 6]) {
    const writer = new ParallelFileWriter({ gzipLevel, workers: 2, maxPendingBlocks: 2 });
    try {
      const id = writer.open('/dev/full');
      const expected = /^cannot write \/dev\/full: no space left on device$/;
      writer.write(id, sitemapXml(64 * KiB, 1));
      writer.write(id, sitemapXml(64 * KiB, 2));
      await assert.rejects(writer.whenWritable(), errorOf(expected));
      assert.throws(() => writer.write(id, Uint8Array.of(1)), errorOf(expected));
      assert.throws(() => writer.open('/dev/null'), errorOf(expected));
      assert.throws(() => writer.close(id), errorOf(expected));
    } finally {
      await writer.destroy();
    }
  }
});

test('ENOSPC at close: close rejects (the trailer does not fit)', { skip: !existsSync('/dev/full') && 'no /dev/full' }, async () => {
  const writer = new ParallelFileWriter({ gzipLevel: 6 });
  try {
    const id = writer.open('/dev/full');
    await assert.rejects(writer.close(id), errorOf(/^cannot write \/dev\/full: no space left on device$/));
    await assert.rejects(writer.whenWritable(), errorOf(/no space left on device/));
  } finally {
    await writer.destroy();
  }
});

test('a file that cannot be opened fails with its path', async () => {
  const dir = tempDir();
  const writer = new ParallelFileWriter({ gzipLevel: 6 });
  try {
    const path = join(dir, 'missing', 'sitemap.xml.gz');
    const id = writer.open(path);
    writer.write(id, sitemapXml(1000));
    await assert.rejects(writer.close(id), errorOf(new RegExp(`^cannot write ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*ENOENT`)));
  } finally {
    await writer.destroy();
  }
});

test('destroy closes open files, is safe to call twice, and later calls throw', async () => {
  const dir = tempDir();
  const writer = new ParallelFileWriter({ gzipLevel: 6, workers: 2 });
  const id = writer.open(join(dir, 'left-open.gz'));
  writer.write(id, sitemapXml(300 * KiB));
  await writer.destroy();
  await writer.destroy();
  assert.throws(() => writer.write(id, Uint8Array.of(1)), errorOf(/destroyed/));
  assert.throws(() => writer.open(join(dir, 'x.gz')), errorOf(/destroyed/));
});

test('options are checked', () => {
  assert.throws(() => new ParallelFileWriter({ gzipLevel: 10 }), { code: 'ERR_SITEMAP_OPTION' });
  assert.throws(() => new ParallelFileWriter({ gzipLevel: 6, workers: 0 }), { code: 'ERR_SITEMAP_OPTION' });
  assert.throws(() => new ParallelFileWriter({ gzipLevel: 6, maxPendingBlocks: 0 }), { code: 'ERR_SITEMAP_OPTION' });
});

test('in a process of its own, started with --input-type=module, files are written and destroy() settles', async () => {
  // The workers must not inherit the parent's flags (their CommonJS source would be read as a module),
  // and with nothing else keeping the event loop alive, close() and destroy() must still resolve.
  const dir = mkdtempSync(join(tmpdir(), 'pgz-destroy-'));
  try {
    const moduleUrl = new URL('../../src/node/parallel-gzip.ts', import.meta.url).href;
    const script = [
      `const { ParallelFileWriter } = await import(${JSON.stringify(moduleUrl)});`,
      'for (let round = 0; round < 20; round++) {',
      '  const w = new ParallelFileWriter({ gzipLevel: 6, workers: 2 });',
      `  const id = w.open(${JSON.stringify(join(dir, 'f'))} + round + '.gz');`,
      "  w.write(id, new TextEncoder().encode('<url>x</url>'.repeat(5000)));",
      '  await w.close(id);',
      '  await w.destroy();',
      '}',
      "console.log('destroyed');",
    ].join('\n');
    const result = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(result.stdout.trim(), 'destroyed', result.stderr);
    assert.equal(result.status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
