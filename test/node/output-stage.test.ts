// `generate` (writeSitemaps) and `build` (buildSite) share one output stage: the same compression,
// on worker threads, never on the main thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { writeSitemaps } from '../../src/node/write-sitemaps.js';
import { buildSite } from '../../src/node/build-site.js';
import { ensureDirectory, ofOtherSets, StagedOutput, writeFileAtomic } from '../../src/node/staged-output.js';
import { HttpCache } from '../../src/node/http/cache.js';
import type { HttpBody } from '../../src/node/http/client.js';
import { tempDir } from '../helpers/tmp.js';
import { page, writeSite } from '../helpers/site.js';

type Zlib = typeof import('node:zlib');
const zlib = createRequire(import.meta.url)('node:zlib') as Zlib;
const COMPRESSORS = ['gzipSync', 'deflateSync', 'deflateRawSync', 'gzip', 'deflate', 'deflateRaw', 'createGzip', 'createDeflate', 'createDeflateRaw'] as const;

/** Runs `body` with every zlib compressor of the main thread counting its calls (ESM imports included). */
async function countMainThreadCompression(body: () => Promise<unknown>): Promise<number> {
  const original = COMPRESSORS.map((name) => [name, Object.getOwnPropertyDescriptor(zlib, name) as PropertyDescriptor] as const);
  let calls = 0;
  for (const [name, descriptor] of original) {
    const real = descriptor.value as (...args: unknown[]) => unknown;
    Object.defineProperty(zlib, name, { ...descriptor, value: (...args: unknown[]) => (calls++, real(...args)) });
  }
  syncBuiltinESMExports();
  try {
    await body();
  } finally {
    for (const [name, descriptor] of original) Object.defineProperty(zlib, name, descriptor);
    syncBuiltinESMExports();
  }
  return calls;
}

const BASE = 'https://www.example.com/';

test('build compresses its children off the main thread, as generate does', async () => {
  const site = tempDir();
  const pages: Record<string, string> = { 'index.html': page({ title: 'Home' }) };
  for (let i = 0; i < 5; i++) pages[`blog/post-${i}.html`] = page({ title: `Post ${i}` });
  writeSite(site, pages);
  const calls = await countMainThreadCompression(() => buildSite({ siteDir: site, baseUrl: BASE, initialLastmod: 'none', threads: 0, now: new Date(1_790_000_000_000) }));
  assert.equal(calls, 0);
  const children = readdirSync(site).filter((name) => name.endsWith('.xml.gz'));
  assert.equal(children.length, 2);
  for (const name of children) assert.match(gunzipSync(readFileSync(join(site, name))).toString(), /^<\?xml[^]*<\/urlset>\n?$/);

  const out = tempDir();
  const entries = Array.from({ length: 30 }, (_, i) => ({ loc: `${BASE}p/${i}` }));
  assert.equal(await countMainThreadCompression(() => writeSitemaps(entries, { outDir: out, baseUrl: BASE, maxUrls: 10 })), 0);
});

test('the same document is compressed to the same bytes by generate and by build', async () => {
  // One page listed by build, and the same entry given to generate: the children hold the same XML,
  // and one strategy at one level makes the same gzip bytes of it.
  const site = tempDir();
  writeSite(site, { 'index.html': page({ title: 'Home' }), 'about.html': page({ title: 'About' }) });
  await buildSite({ siteDir: site, baseUrl: BASE, initialLastmod: 'none', threads: 0, gzipLevel: 9, maxUrls: 1 });
  const built = readdirSync(site).filter((name) => name.endsWith('.xml.gz')).sort();
  assert.equal(built.length, 2);
  const bytes = readFileSync(join(site, built[0] as string));
  const out = tempDir();
  const loc = /<loc>([^<]+)<\/loc>/.exec(gunzipSync(bytes).toString())?.[1] as string;
  await writeSitemaps([{ loc }, { loc: `${BASE}other` }], { outDir: out, baseUrl: BASE, maxUrls: 1, gzipLevel: 9 });
  const generated = readdirSync(out).filter((name) => name.endsWith('.xml.gz')).sort();
  assert.deepEqual(gunzipSync(readFileSync(join(out, generated[0] as string))), gunzipSync(bytes));
  assert.deepEqual(readFileSync(join(out, generated[0] as string)), bytes);
});

test('a text staged whole is cut into blocks between characters, never inside a surrogate pair', async () => {
  const text = `${'a'.repeat(256 * 1024 - 1)}😀${'b'.repeat(300 * 1024)}é😀`;
  const output = await StagedOutput.create(tempDir(), { name: 'sitemap', gzipLevel: 6, workers: 1 });
  try {
    await output.write('t.xml.gz', text);
    assert.equal(gunzipSync(readFileSync(output.path('t.xml.gz'))).toString(), text);
  } finally {
    await output.abort();
  }
});

type FsPromises = typeof import('node:fs/promises');
const fsPromises = createRequire(import.meta.url)('node:fs/promises') as FsPromises;

/** Runs `body` counting the listings of `dir` (readdir, ESM imports included). */
async function countListings(dir: string, body: () => Promise<unknown>): Promise<number> {
  const real = fsPromises.readdir;
  let listings = 0;
  fsPromises.readdir = ((path: unknown, ...rest: unknown[]) => {
    if (String(path) === dir) listings++;
    return (real as (...args: unknown[]) => unknown)(path, ...rest);
  }) as FsPromises['readdir'];
  syncBuiltinESMExports();
  try {
    await body();
  } finally {
    fsPromises.readdir = real;
    syncBuiltinESMExports();
  }
  return listings;
}

test('a set is staged and committed many times (each shard of generate --shards): its folder is listed a few times per set, not per shard', async () => {
  const { writeShardedSet } = await import('../../src/node/scale/generate-sharded.js');
  const locs = Array.from({ length: 400 }, (_, i) => ({ loc: `https://www.example.com/s${i % 4}/p-${i}` }));
  const listings = async (shards: number): Promise<number> => {
    const dir = tempDir();
    return countListings(dir, () => writeShardedSet(locs, { outDir: dir, baseUrl: 'https://www.example.com/', shards, compressionThreads: 1 }));
  };
  // A folder of 100,000 files listed at each of 128 shards took 80 s (the sweep of killed runs'
  // temporary files, and a removal of old files by commits that remove none).
  const few = await listings(2);
  assert.equal(await listings(8), few);
  // One of them before the shards are written: a name that clashes with another set's is refused first (checkNamesApart).
  assert.ok(few <= 5, `${few} listings`);
});

test('the folders made for the target go again when the run commits nothing; the target folder with a committed set stays', async () => {
  const dir = tempDir();
  const target = join(dir, 'a', 'b');
  await (await StagedOutput.create(target, { name: 'sitemap', gzipLevel: 0, exclusive: true })).abort();
  assert.deepEqual(readdirSync(dir), []);
  const output = await StagedOutput.create(target, { name: 'sitemap', gzipLevel: 0, exclusive: true });
  await output.write('sitemap.xml', '<urlset/>');
  await output.commit({ children: [], entry: { staged: 'sitemap.xml', name: 'sitemap.xml' } });
  assert.deepEqual(readdirSync(target), ['sitemap.xml']);
});

test('a build stopped by its signal in the write phase commits nothing and leaves no staging folder or lock behind', async () => {
  const site = tempDir('sitemapkit-stage-');
  writeSite(site, { 'index.html': page(), 'a/b.html': page(), 'c/d.html': page() });
  const before = readdirSync(site).sort();
  const controller = new AbortController();
  const onProgress = (p: { phase: string }): void => {
    if (p.phase === 'write') controller.abort();
  };
  await assert.rejects(
    buildSite({ siteDir: site, baseUrl: BASE, initialLastmod: 'none', threads: 0, signal: controller.signal, onProgress }),
    (error: unknown) => (error as { code?: string }).code === 'ERR_SITEMAP_ABORTED',
  );
  assert.deepEqual(readdirSync(site).sort(), before);
});

test('writeFileAtomic: a symlink stays a link, its target replaced with the bits it had; writes of one path at once each land whole', async () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'shared'));
  writeFileSync(join(dir, 'shared', 'state.json'), '{}');
  chmodSync(join(dir, 'shared', 'state.json'), 0o664);
  symlinkSync(join('shared', 'state.json'), join(dir, 'state.json'));
  await writeFileAtomic(join(dir, 'state.json'), '{"a":1}');
  assert.ok(lstatSync(join(dir, 'state.json')).isSymbolicLink());
  assert.equal(readFileSync(join(dir, 'shared', 'state.json'), 'utf8'), '{"a":1}');
  assert.equal(statSync(join(dir, 'shared', 'state.json')).mode & 0o777, 0o664);
  // One temporary name per write: two in one millisecond do not share (and rename away) one file.
  const texts = Array.from({ length: 20 }, (_, i) => String(i).padStart(2, '0').repeat(50_000));
  await Promise.all(texts.map((text) => writeFileAtomic(join(dir, 'one.txt'), text)));
  assert.ok(texts.includes(readFileSync(join(dir, 'one.txt'), 'utf8')));
  assert.deepEqual(readdirSync(dir).sort(), ['one.txt', 'shared', 'state.json']);
});

test('writeFileAtomic and the HTTP cache refuse a folder that cannot be made (/proc/nope) instead of spinning for ever in Node 20\'s recursive mkdir', { skip: existsSync('/proc/self') ? false : 'no /proc' }, async () => {
  await assert.rejects(writeFileAtomic('/proc/nope/state', '{}'), { code: 'ERR_SITEMAP_WRITE', message: 'cannot write /proc/nope/state: no such file' });
  const cached = new HttpCache('/proc/nope/cache').recording('https://e.com/', new Headers({ etag: '"1"' }), { cancel: async () => {} } as unknown as HttpBody);
  await assert.rejects(cached.next(), { message: 'the cache folder /proc/nope/cache: no such file' });
});

/** A site of `pages` in a temporary folder, the sitemaps' folder beside it, and writeShardedSet. */
async function siteBesideOut(pages: Record<string, string>) {
  const { writeShardedSet } = await import('../../src/node/scale/generate-sharded.js');
  const dir = tempDir('sitemapkit-stage-');
  writeSite(join(dir, 'site'), pages);
  return { writeShardedSet, dir, site: join(dir, 'site'), out: join(dir, 'out') };
}

test('sets of names one extends (sitemap, sitemap-news) share a folder: a run removes its own old children, never the other set\'s', async () => {
  const pages: Record<string, string> = { 'index.html': page() };
  for (let i = 0; i < 6; i++) pages[`blog/p${i}.html`] = page({ title: `P${i}` });
  const { writeShardedSet, site, out } = await siteBesideOut(pages);
  const urls = [{ loc: `${BASE}n/1` }, { loc: `${BASE}n/2` }];
  const built = (name: string): Promise<unknown> => buildSite({ siteDir: site, outDir: out, name, baseUrl: BASE, initialLastmod: 'none', threads: 0, maxUrls: 2, now: new Date(1_790_000_000_000) });
  const news = (): string[] => readdirSync(out).filter((file) => file.startsWith('sitemap-news')).sort();
  // build's sitemap beside generate's sitemap-news, plain then sharded.
  for (const shards of [undefined, 2]) {
    rmSync(out, { recursive: true, force: true });
    await (shards === undefined ? writeSitemaps(urls, { outDir: out, baseUrl: BASE, name: 'sitemap-news', index: 'always' }) : writeShardedSet(urls, { outDir: out, baseUrl: BASE, name: 'sitemap-news', shards, compressionThreads: 1 }));
    const theirs = news();
    await built('sitemap');
    assert.deepEqual(news(), theirs);
  }
  // The reverse: build's sitemap-news (its blog section split in buckets) beside generate's sitemap, plain then sharded.
  for (const shards of [undefined, 2]) {
    rmSync(out, { recursive: true, force: true });
    await built('sitemap-news');
    const theirs = news();
    assert.ok(theirs.some((file) => /^sitemap-news-blog\.\d+\./.test(file)), String(theirs));
    await (shards === undefined ? writeSitemaps(urls, { outDir: out, baseUrl: BASE, index: 'always' }) : writeShardedSet(urls, { outDir: out, baseUrl: BASE, shards, compressionThreads: 1 }));
    assert.deepEqual(news(), theirs);
  }
  // A build renamed (--name sitemap-news, then sitemap; one state) still removes all of its old set.
  await built('sitemap');
  assert.deepEqual(news(), []);
});

test('a set whose name extends another\'s (sitemap-a beside sitemap, whose section a-1 is sitemap-a-1) never removes the children the other\'s index names: build, generate and a sharded set removed them, and the index named missing files', async () => {
  // Sections a-1 and news-x split in buckets by build (sitemap-a-1.0.….xml.gz), a-00001 not (sitemap-a-00001.….xml.gz).
  const pages: Record<string, string> = { 'a-00001/p.html': page() };
  for (let i = 0; i < 2; i++) Object.assign(pages, { [`a-1/p${i}.html`]: page({ title: `A${i}` }), [`news-x/p${i}.html`]: page({ title: `X${i}` }) });
  const { writeShardedSet, dir, site, out } = await siteBesideOut(pages);
  const build = (name: string): Promise<unknown> => buildSite({ siteDir: site, outDir: out, name, statePath: join(dir, `${name}.state`), baseUrl: BASE, initialLastmod: 'none', threads: 0, maxUrls: 1 });
  const named = (): string[] => [...readFileSync(join(out, 'sitemap.xml'), 'utf8').matchAll(/<loc>[^<]*\/([^<]+)<\/loc>/g)].map((match) => match[1] as string);
  const runs: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
    ['sharded sitemap, build sitemap-a', () => writeShardedSet([{ loc: `${BASE}a-1/1` }, { loc: `${BASE}a-1/2` }], { outDir: out, baseUrl: BASE, shards: 2, compressionThreads: 1 }), () => build('sitemap-a')],
    ['build sitemap, build sitemap-a', () => build('sitemap'), () => build('sitemap-a')],
    ['build sitemap, generate sitemap-a', () => build('sitemap'), () => writeSitemaps([{ loc: `${BASE}z/1` }, { loc: `${BASE}z/2` }], { outDir: out, baseUrl: BASE, name: 'sitemap-a', maxUrls: 1 })],
    ['build sitemap, sharded sitemap-news', () => build('sitemap'), () => writeShardedSet([{ loc: `${BASE}x/1` }, { loc: `${BASE}x/2` }], { outDir: out, baseUrl: BASE, name: 'sitemap-news', shards: 2, compressionThreads: 1 })],
  ];
  for (const [what, first, second] of runs) {
    rmSync(out, { recursive: true, force: true });
    await first();
    const children = named();
    await second();
    assert.deepEqual(named(), children, what);
    for (const child of children) assert.ok(existsSync(join(out, child)), `${what}: ${child}`);
  }
  // An index on one line (minified), read in chunks: every name it gives is found, cut at a chunk's end or not.
  const names = Array.from({ length: 3000 }, (_, i) => `sitemap-a-${i}.0.${String(i).padStart(8, '0')}.xml.gz`);
  writeFileSync(join(out, 'sitemap.xml'), `<sitemapindex>${names.map((name) => `<sitemap><loc> ${BASE}${name} </loc></sitemap>`).join('')}</sitemapindex>`);
  assert.deepEqual(await ofOtherSets(out, 'sitemap-a', ['sitemap.xml'], [...names, 'sitemap-a-x.0.00000000.xml.gz']), new Set(names));
});

test('a set\'s lock that cannot be written whole (a full disk) is not left behind empty, refusing every run for 10 s', async (t) => {
  const out = tempDir();
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', out]).status !== 0) return t.skip('cannot mount a small tmpfs (needs root)');
  try {
    spawnSync('sh', ['-c', 'head -c 100000 /dev/zero > fill'], { cwd: out });
    await assert.rejects(StagedOutput.create(out, { name: 'sitemap', gzipLevel: 0, exclusive: true }), { code: 'ERR_SITEMAP_WRITE', message: /no space left on device/ });
    assert.deepEqual(readdirSync(out), ['fill']);
  } finally {
    spawnSync('umount', ['-l', out]);
  }
});

test('writeFileAtomic runs beforeRename when it writes into a device too: what it commits (build\'s set, before its state) is not skipped', { skip: existsSync('/dev/null') ? false : 'no /dev/null' }, async () => {
  let ran = 0;
  await writeFileAtomic('/dev/null', '{}', { beforeRename: async () => void ran++ });
  assert.equal(ran, 1);
});

test('folders made by two runs at once: each finds the path made, neither fails (two coordinators adding a queued run)', async () => {
  for (let round = 0; round < 20; round++) {
    const path = join(tempDir(), 'a', 'b', 'c', 'd');
    await Promise.all([ensureDirectory(path), ensureDirectory(path), ensureDirectory(path)]);
    assert.ok(statSync(path).isDirectory());
  }
});
