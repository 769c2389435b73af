// Sharded sets (issue 27): shards written apart and indexed give the bytes of `generate --shards`; a
// change feed rewrites only the children it touches; the index splits past its limit; a run stopped
// or killed anywhere leaves the previous set published.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync, lstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { crc32, gunzipSync } from 'node:zlib';
import { hostname } from 'node:os';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { interceptSteps } from '../helpers/commit-steps.js';
import { shardOf } from '../helpers/shard-of.js';
import { manifestOf, manifestText, setSerializer, shardSettings, writeIndexFromManifests } from '../../src/node/scale/shard-set.js';
import { writeShard } from '../helpers/write-shard.js';
import { applyChanges, placeChange, setSettings } from '../../src/node/scale/apply.js';
import { planQueuedApply } from '../../src/node/scale/queue-apply.js';
import { FileSystemStorage } from '../../src/node/scale/storage.js';
import { writeShardedSet } from '../../src/node/scale/generate-sharded.js';
import { writeSitemaps } from '../../src/node/write-sitemaps.js';
import { LIMITS_PROFILES, type UrlEntry } from '../../src/core/model.js';

const BASE = 'https://www.example.com/';
const KILL_AT_STEP = fileURLToPath(new URL('./kill-at-step.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** Sections of uneven sizes, with lastmods, an image now and then and a query string. */
function catalogue(sizes: Record<string, number>): UrlEntry[] {
  const entries: UrlEntry[] = [];
  for (const [section, count] of Object.entries(sizes)) {
    for (let i = 0; i < count; i++) {
      const entry: UrlEntry = { loc: `${BASE}${section}/item-${i}${i % 7 === 0 ? `?color=red&size=${i % 5}` : ''}`, lastmod: `2025-0${1 + (i % 9)}-1${i % 10}` };
      if (i % 11 === 0) entry.images = [{ loc: `${BASE}img/${section}/${i}.jpg` }];
      entries.push(entry);
    }
  }
  entries.push({ loc: `${BASE}about`, lastmod: '2024-05-01' });
  return entries;
}

const jsonl = (entries: readonly object[]): string => entries.map((e) => JSON.stringify(e)).join('\n') + '\n';

/** Every visible file of a folder (links followed), name → bytes. */
function files(dir: string, prefix = ''): Map<string, Buffer> {
  const all = new Map<string, Buffer>();
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [inner, bytes] of files(path, `${prefix}${name}/`)) all.set(inner, bytes);
    else all.set(prefix + name, readFileSync(path));
  }
  return all;
}

const inodes = (dir: string): Map<string, number> => new Map(readdirSync(dir).filter((f) => !f.startsWith('.')).map((f) => [f, lstatSync(join(dir, f)).ino]));

/** The published set: each index file and every file it names (uncompressed), name → text; 'missing' for a named file that is not there. */
function published(out: string): Map<string, string> {
  const set = new Map<string, string>();
  const link = join(out, 'sitemap-indexes');
  const indexes = (() => {
    try {
      return readdirSync(link).sort().map((f) => `sitemap-indexes/${f}`);
    } catch {
      return ['sitemap.xml'];
    }
  })();
  for (const index of indexes) {
    const xml = readFileSync(join(out, index), 'utf8');
    set.set(index, xml);
    for (const [, loc] of xml.matchAll(/<loc>([^<]+)<\/loc>/g)) {
      const name = (loc as string).slice(BASE.length);
      try {
        set.set(name, gunzipSync(readFileSync(join(out, name))).toString('utf8'));
      } catch {
        set.set(name, 'missing');
      }
    }
  }
  return set;
}

/** The locs of a published set, sorted. */
function locsOf(set: Map<string, string>): string[] {
  const locs: string[] = [];
  for (const [name, text] of set) if (!name.endsWith('.xml')) for (const [, loc] of text.matchAll(/<url><loc>([^<]+)<\/loc>/g)) locs.push(loc as string);
  return locs.sort();
}

async function generate(dir: string, entries: readonly UrlEntry[], out: string, ...args: string[]): Promise<void> {
  writeFileSync(join(dir, 'urls.jsonl'), jsonl(entries));
  const result = await runCli(['generate', 'urls.jsonl', '--base-url', BASE, '--out', out, '--quiet', '--shards', '4', '--max-urls', '40', ...args], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
}

test('a sharded set takes its name as generate does, with or without .xml: --name map.xml is map.xml, not map.xml.xml', () => {
  const settings = (name: string): string => shardSettings({ outDir: '.', baseUrl: BASE, shards: 2, name }).name;
  assert.deepEqual([settings('map.xml'), settings('map')], ['map', 'map']);
  assert.throws(() => settings('../map'), { code: 'ERR_SITEMAP_OPTION', message: 'name "../map" must be a plain file name such as "sitemap"' });
});

test('generate --shards gives, byte for byte, what shards written apart and then indexed give; a second run keeps every file', async () => {
  const dir = tempDir();
  const entries = catalogue({ products: 300, blog: 45, help: 7 });
  await generate(dir, entries, 'one');
  // Four writers, each given only its shard's entries (in another order), then `index` over their manifests.
  const apart = join(dir, 'apart');
  for (const shard of [2, 0, 3, 1]) {
    const mine = entries.filter((e) => shardOf(e.loc, { shards: 4, baseUrl: BASE }).bucket === shard).reverse();
    await writeShard({ entries: mine, shard, shards: 4, outDir: apart, baseUrl: BASE, maxUrls: 40, compressionThreads: 1 });
  }
  const manifests = [0, 1, 2, 3].map((shard) => join(apart, `sitemap-shard-${shard}-of-4.json`));
  const set = await writeIndexFromManifests({ manifests, outDir: apart });
  // The input order differs: the children are sorted, so only a URL given twice could tell them apart.
  assert.deepEqual(files(apart), files(join(dir, 'one')));
  assert.equal(set.urls, entries.length);
  assert.ok(set.files.some((f) => /^sitemap-products\.\d\.\d\.[0-9a-f]{8}\.xml\.gz$/.test(f.name)), 'a child over 40 URLs is split');
  assert.ok(set.files.some((f) => f.name.startsWith('sitemap-root.')), 'top-level pages have their section');
  const manifest = JSON.parse(readFileSync(manifests[0] as string, 'utf8'));
  assert.deepEqual(Object.keys(manifest.files[0]).sort(), ['bytes', 'child', 'crc32', 'diskBytes', 'lastmod', 'name', 'urls']);
  assert.equal(manifest.urls, manifest.files.reduce((n: number, f: { urls: number }) => n + f.urls, 0));

  const before = inodes(join(dir, 'one'));
  await generate(dir, entries, 'one');
  const after = inodes(join(dir, 'one'));
  for (const [name, ino] of before) if (name !== 'sitemap.xml' && !name.endsWith('.json')) assert.equal(after.get(name), ino, `${name} was written again`);
});

test('generate --shards writes a URL once however its escapes are spelt (%c3%bc, %C3%BC), as generate without shards does, in any section; manifests carry the layout that places it so', async () => {
  const dir = tempDir();
  const urls = ['%c3%bc/a', '%C3%BC/a', 'x/%c3%bc', 'x/%C3%BC', 'x/%7e', 'x/~', 'top%c3%a9', 'top%C3%A9'].map((p) => `${BASE}${p}`);
  writeFileSync(join(dir, 'urls.txt'), urls.join('\n') + '\n');
  const counts = async (shards: string[]): Promise<[number, number]> => {
    const run = await runCli(['generate', 'urls.txt', '--base-url', BASE, '--out', shards.length > 0 ? 'sharded' : 'plain', '--format', 'json', ...shards], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout);
    return [summary.urls, summary.duplicates];
  };
  assert.deepEqual(await counts([]), [4, 4]);
  assert.deepEqual(await counts(['--shards', '16']), [4, 4]);
  assert.equal(locsOf(published(join(dir, 'sharded'))).length, 4);
  assert.equal(JSON.parse(readFileSync(join(dir, 'sharded', 'sitemap-shard-0-of-16.json'), 'utf8')).layout, 3);
});

test('generate --shards with a byte limit of a URL or two a file writes every URL, as generate without shards does (no hash split meets such limits)', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), Array.from({ length: 200 }, (_, i) => `${BASE}p/page-${i}`).join('\n') + '\n');
  for (const [out, shards] of [['plain', []], ['sharded', ['--shards', '1']]] as const) {
    const run = await runCli(['generate', 'urls.txt', '--base-url', BASE, '--out', out, '--max-bytes', '450', '--quiet', ...shards], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
  }
  const set = published(join(dir, 'sharded'));
  for (const [name, text] of set) if (name !== 'sitemap.xml') assert.ok(Buffer.byteLength(text) <= 450, `${name}: ${Buffer.byteLength(text)} bytes`);
  assert.deepEqual(locsOf(set), locsOf(published(join(dir, 'plain'))));
  assert.equal(locsOf(set).length, 200);
});

test('generate --shards fits as many URLs in a file as generate does under one --max-bytes: a URL list exactly one file long is one child', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), Array.from({ length: 40 }, (_, i) => `${BASE}p/page-${i}`).join('\n') + '\n');
  const plain = await runCli(['generate', 'urls.txt', '--base-url', BASE, '--out', 'plain', '--quiet'], { cwd: dir });
  assert.equal(plain.code, 0, plain.stderr);
  const maxBytes = String(statSync(join(dir, 'plain', 'sitemap.xml')).size);
  const sharded = await runCli(['generate', 'urls.txt', '--base-url', BASE, '--out', 'sharded', '--max-bytes', maxBytes, '--quiet', '--shards', '1'], { cwd: dir });
  assert.equal(sharded.code, 0, sharded.stderr);
  const children = [...published(join(dir, 'sharded'))].filter(([name]) => name !== 'sitemap.xml');
  assert.deepEqual(children.map(([, text]) => [Buffer.byteLength(text), locsOf(new Map([['x', text]])).length]), [[Number(maxBytes), 40]]);
});

test('apply changes a URL however its escapes are spelt, as the set placed and wrote it once: an upsert replaces it, a delete removes it', async () => {
  const dir = tempDir();
  await generate(dir, [{ loc: `${BASE}caf%c3%a9/a`, lastmod: '2024-01-01' }, { loc: `${BASE}caf%c3%a9/b` }, { loc: `${BASE}x` }], 'out');
  writeFileSync(join(dir, 'changes.jsonl'), jsonl([{ op: 'upsert', loc: `${BASE}caf%C3%A9/a`, lastmod: '2026-01-02' }, { op: 'delete', loc: `${BASE}caf%C3%A9/b` }]));
  const applied = await runCli(['apply', 'changes.jsonl', '--out', 'out'], { cwd: dir });
  assert.equal(applied.code, 0, applied.stderr);
  const text = [...published(join(dir, 'out')).values()].join('');
  assert.deepEqual(locsOf(published(join(dir, 'out'))), [`${BASE}caf%C3%A9/a`, `${BASE}x`]);
  assert.match(text, /caf%C3%A9\/a<\/loc><lastmod>2026-01-02</);
  // Two spellings in one feed: the last change wins, as for one spelling, a spelling given again too (it lost to the other).
  writeFileSync(join(dir, 'changes.jsonl'), jsonl([{ op: 'upsert', loc: `${BASE}caf%c3%a9/a`, lastmod: '2026-03-03' }, { op: 'upsert', loc: `${BASE}caf%C3%A9/a`, lastmod: '2026-04-04' }]));
  assert.equal((await runCli(['apply', 'changes.jsonl', '--out', 'out'], { cwd: dir })).code, 0);
  assert.match([...published(join(dir, 'out')).values()].join(''), /caf%C3%A9\/a<\/loc><lastmod>2026-04-04</);
  writeFileSync(join(dir, 'changes.jsonl'), jsonl([{ op: 'upsert', loc: `${BASE}caf%c3%a9/a`, lastmod: '2026-05-05' }, { op: 'upsert', loc: `${BASE}caf%C3%A9/a`, lastmod: '2026-06-06' }, { op: 'upsert', loc: `${BASE}caf%c3%a9/a`, lastmod: '2026-07-07' }]));
  assert.equal((await runCli(['apply', 'changes.jsonl', '--out', 'out'], { cwd: dir })).code, 0);
  assert.match([...published(join(dir, 'out')).values()].join(''), /caf%c3%a9\/a<\/loc><lastmod>2026-07-07</);
});

test('a set written under the legacy limits records them in its manifests, so apply and index keep them (1,000 sitemaps an index); a manifest without them is of the current limits', async () => {
  const out = tempDir();
  const entries = [{ loc: `${BASE}a/1` }, { loc: `${BASE}b/2` }];
  for (const shard of [0, 1]) await writeShard({ entries, shard, shards: 2, outDir: out, baseUrl: BASE, profile: 'legacy' });
  // apply (and a queued apply) read the set's settings here; index reads them from the manifests given.
  assert.deepEqual((await setSettings(out, 'sitemap')).limits, LIMITS_PROFILES.legacy);
  const manifest = join(out, 'sitemap-shard-0-of-2.json');
  const legacy = JSON.parse(readFileSync(manifest, 'utf8'));
  assert.equal(legacy.profile, 'legacy');
  const { profile: _, ...earlier } = legacy;
  writeFileSync(manifest, JSON.stringify(earlier));
  // Its sizes as recorded; the rest as now.
  assert.deepEqual((await setSettings(out, 'sitemap')).limits, { ...LIMITS_PROFILES.current, maxBytesPerSitemap: LIMITS_PROFILES.legacy.maxBytesPerSitemap });
  await assert.rejects(writeIndexFromManifests({ manifests: [manifest, join(out, 'sitemap-shard-1-of-2.json')], outDir: out }), { code: 'ERR_SITEMAP_STATE', message: /the manifests are of different sets/ });
});

test("a sharded set leaves alone plain sets of longer names in its folder (sitemap-news): their children's names matched its own children's pattern, and it removed them", async () => {
  const out = tempDir();
  const list = [{ loc: `${BASE}a/1` }, { loc: `${BASE}b/1` }];
  // A plain set of its own name is replaced.
  await writeSitemaps(list, { outDir: out, baseUrl: BASE, maxUrls: 1 });
  await writeSitemaps(list, { outDir: out, baseUrl: BASE, name: 'sitemap-news', maxUrls: 1 });
  const before = readdirSync(out).sort();
  await writeShardedSet(list, { outDir: out, baseUrl: BASE, shards: 2 });
  const gone = before.filter((file) => !readdirSync(out).includes(file));
  assert.deepEqual(gone, before.filter((file) => /^sitemap-0000[12]\./.test(file)));
  assert.equal(gone.length, 2);
});

test('two sharded sets whose names are one and one plus "-…" (sitemap, sitemap-news) are refused in one folder, either first: section news-x of one and x of the other are both sitemap-news-x, and publishing sitemap-news removed the children of sitemap', async () => {
  for (const [first, second] of [['sitemap', 'sitemap-news'], ['sitemap-news', 'sitemap']] as const) {
    const out = tempDir();
    await writeShardedSet([{ loc: `${BASE}news-x/a` }, { loc: `${BASE}x/b` }], { outDir: out, baseUrl: BASE, name: first, shards: 2 });
    const before = files(out);
    await assert.rejects(writeShardedSet([{ loc: `${BASE}x/c` }, { loc: `${BASE}news-x/d` }], { outDir: out, baseUrl: BASE, name: second, shards: 2 }), {
      code: 'ERR_SITEMAP_STATE',
      message: new RegExp(`^the set "${second}" cannot be published in ${out} beside the sharded set "${first}": `),
    });
    assert.deepEqual(files(out), before, `${first} stays as it was, nothing of ${second} written`);
  }
});

test('a sharded set with a section extending the name of another set beside it (section a-1 of sitemap, the set sitemap-a) is refused before a shard is written, and at its index: its children sitemap-a-1.… were kept as sitemap-a\'s, never removed', async () => {
  const out = tempDir();
  await writeSitemaps([{ loc: `${BASE}z` }], { outDir: out, baseUrl: BASE, name: 'sitemap-a' });
  const before = readdirSync(out).sort();
  const refused = { code: 'ERR_SITEMAP_STATE', message: /^the set "sitemap" cannot be published in \S+ beside the set "sitemap-a": its child sitemap-a-1\.\d would be taken for one of "sitemap-a" and never removed/ };
  await assert.rejects(writeShardedSet([{ loc: `${BASE}a/1` }, { loc: `${BASE}a-1/2` }], { outDir: out, baseUrl: BASE, shards: 2, compressionThreads: 1 }), refused);
  assert.deepEqual(readdirSync(out).sort(), before);
  // Its shard written by another process, its index refused all the same.
  await writeShard({ entries: [{ loc: `${BASE}a-1/2` }], shard: 0, shards: 1, outDir: out, baseUrl: BASE, compressionThreads: 1 });
  await assert.rejects(writeIndexFromManifests({ manifests: [join(out, 'sitemap-shard-0-of-1.json')], outDir: out }), { ...refused, message: /its child sitemap-a-1\.0\.[0-9a-f]{8}\.xml\.gz would be taken/ });
  // Sections a and b: apart from sitemap-a's names (sitemap-a.0.….xml.gz).
  await writeShardedSet([{ loc: `${BASE}a/1` }, { loc: `${BASE}b/2` }], { outDir: out, baseUrl: BASE, shards: 1, compressionThreads: 1 });
});

test("the help says what the commands do: queue's --input-format tells no stdin (queue refuses -); index's exit 2 names a set whose names clash and a folder it cannot write", async () => {
  const queue = await runCli(['queue', '--help'], { cwd: tempDir() });
  assert.match(queue.stdout, /--input-format FMT .*\n/);
  assert.doesNotMatch(/--input-format FMT .*\n/.exec(queue.stdout)?.[0] ?? '', /stdin/);
  const index = (await runCli(['index', '--help'], { cwd: tempDir() })).stdout.replace(/\s+/g, ' ');
  assert.match(index, /Exit status: 0 published, 2 [^.]*name[^.]*cannot be written/);
});

test('index refuses a set that is not whole: a shard missing, a child missing', async () => {
  const dir = tempDir();
  await generate(dir, catalogue({ a: 30, b: 30 }), 'out');
  const out = join(dir, 'out');
  const missing = await runCli(['index', 'out/sitemap-shard-0-of-4.json', 'out/sitemap-shard-2-of-4.json', '--out', 'out'], { cwd: dir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /not whole: no manifest for shards 1, 3 of 4/);
  const child = readdirSync(out).find((f) => f.startsWith('sitemap-a.')) as string;
  writeFileSync(join(out, child), 'truncated');
  const all = [0, 1, 2, 3].map((s) => `out/sitemap-shard-${s}-of-4.json`);
  const broken = await runCli(['index', ...all, '--out', 'out'], { cwd: dir });
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, new RegExp(`${child.replace(/\./g, '\\.')}, listed by a manifest, is 9 bytes`));
  // A manifest naming a file outside the folder, of the size it says: refused, never published.
  writeFileSync(join(dir, 'outside.txt'), 'x'.repeat(10));
  const manifest = JSON.parse(readFileSync(join(out, 'sitemap-shard-1-of-4.json'), 'utf8'));
  Object.assign(manifest.files[0], { name: '../outside.txt', diskBytes: 10 });
  writeFileSync(join(out, 'sitemap-shard-1-of-4.json'), JSON.stringify(manifest));
  const before = readFileSync(join(out, 'sitemap.xml'));
  const stray = await runCli(['index', ...all, '--out', 'out'], { cwd: dir });
  assert.equal(stray.code, 2);
  assert.match(stray.stderr, /lists "\.\.\/outside\.txt", which is not a child file of the set "sitemap"/);
  assert.deepEqual(readFileSync(join(out, 'sitemap.xml')), before);
});

test("index refuses a manifest edited against its place: a shard number not its file name's, a child of another shard's bucket (listed twice, or under the wrong shard)", async () => {
  const out = tempDir();
  await writeShardedSet(catalogue({ a: 20, b: 20, c: 20 }), { outDir: out, baseUrl: BASE, shards: 2 });
  const paths = [0, 1].map((shard) => join(out, `sitemap-shard-${shard}-of-2.json`));
  const [zero, one] = paths.map((path) => readFileSync(path, 'utf8')) as [string, string];
  // The shard numbers swapped: each shard still there once, as the set's check saw it.
  writeFileSync(paths[0] as string, zero.replace('"shard": 0,', '"shard": 1,'));
  writeFileSync(paths[1] as string, one.replace('"shard": 1,', '"shard": 0,'));
  await assert.rejects(writeIndexFromManifests({ manifests: paths, outDir: out }), { code: 'ERR_SITEMAP_STATE', message: new RegExp(`^${out}/sitemap-shard-(?:0-of-2\\.json holds shard 1 of 2 of the set "sitemap", whose manifest is sitemap-shard-1|1-of-2\\.json holds shard 0 of 2 of the set "sitemap", whose manifest is sitemap-shard-0)-of-2\\.json: a manifest edited or renamed is not trusted; write its shard again$`) });
  // A child of shard 0 listed by shard 1 too: the index named it twice.
  const moved = JSON.parse(one);
  moved.files.push(JSON.parse(zero).files[0]);
  writeFileSync(paths[0] as string, zero);
  writeFileSync(paths[1] as string, JSON.stringify(moved));
  await assert.rejects(writeIndexFromManifests({ manifests: paths, outDir: out }), { code: 'ERR_SITEMAP_STATE', message: new RegExp(`lists "${JSON.parse(zero).files[0].name.replace(/\./g, '\\.')}", which is not a child file of the set "sitemap" in shard 1`) });
});

test("index of manifests given from another folder (a queued run's) takes time linear in the shards: each was looked for among all the given ones (2,048 shards: 28.6 s, now 4.8 s on a loaded machine)", async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  const shards = 64;
  // One shard with a URL, the others empty.
  const loc = `${BASE}a/1`;
  const bucket = shardOf(loc, { shards, baseUrl: BASE }).bucket;
  await writeShard({ entries: [{ loc }], shard: bucket, shards, outDir: out, baseUrl: BASE });
  const settings = shardSettings({ outDir: out, baseUrl: BASE, shards });
  const manifests = Array.from({ length: shards }, (_, shard) => join(dir, `sitemap-shard-${shard}-of-${shards}.json`));
  manifests.forEach((path, shard) => writeFileSync(path, shard === bucket ? readFileSync(join(out, basename(path))) : manifestText(manifestOf(settings, shard, [], 0))));
  const path = createRequire(import.meta.url)('node:path') as typeof import('node:path');
  const original = path.resolve;
  let calls = 0;
  path.resolve = (...paths: string[]) => (calls++, original(...paths));
  syncBuiltinESMExports();
  try {
    await writeIndexFromManifests({ manifests, outDir: out });
  } finally {
    path.resolve = original;
    syncBuiltinESMExports();
  }
  assert.ok(calls < 4 * shards, `${calls} path resolutions for ${shards} manifests`);
});

test('apply rewrites only the children of the changed URLs, and the set equals a fresh generate of the new list', async () => {
  const dir = tempDir();
  const entries = catalogue({ products: 200, blog: 60, help: 9 });
  await generate(dir, entries, 'out');
  const out = join(dir, 'out');
  const beforeBytes = files(out);
  const beforeInodes = inodes(out);
  // Changes in blog only, plus a new section: an updated lastmod, a new item, a deleted one, a URL changed twice.
  const changes = [
    { op: 'upsert', loc: `${BASE}blog/item-3`, lastmod: '2026-01-02' },
    { op: 'upsert', loc: `${BASE}blog/new-post` },
    { op: 'delete', loc: `${BASE}blog/item-4` },
    { op: 'upsert', loc: `${BASE}blog/item-5`, lastmod: '2026-01-01' },
    { op: 'delete', loc: `${BASE}blog/item-5` },
    { op: 'delete', loc: `${BASE}blog/never-listed` },
    { op: 'upsert', loc: `${BASE}careers/engineer`, lastmod: '2026-02-03T10:00:00Z' },
  ];
  writeFileSync(join(dir, 'changes.jsonl'), jsonl(changes));
  const result = await runCli(['apply', 'changes.jsonl', '--out', 'out', '--format', 'json'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const summary = JSON.parse(result.stdout);
  const layout = { shards: 4, baseUrl: BASE };
  const expectedTouched = [...new Set(changes.map((c) => shardOf(c.loc, layout).child))].sort();
  assert.deepEqual(summary.touched, expectedTouched);
  assert.deepEqual([summary.upserts, summary.deletes], [4, 3]);

  const touched = (name: string): boolean => expectedTouched.some((stem) => name.startsWith(`${stem}.`));
  const afterInodes = inodes(out);
  const afterBytes = files(out);
  for (const [name, ino] of beforeInodes) {
    if (name === 'sitemap.xml' || name.endsWith('.json') || touched(name)) continue;
    assert.equal(afterInodes.get(name), ino, `${name} (untouched) has another inode`);
    assert.deepEqual(afterBytes.get(name), beforeBytes.get(name), `${name} (untouched) has other bytes`);
  }
  assert.ok([...afterBytes.keys()].some((name) => name.startsWith('sitemap-careers.')), 'the new section has its child');

  // The same set as generating the changed list from scratch.
  const next = entries.filter((e) => !['blog/item-4', 'blog/item-5'].some((p) => e.loc === `${BASE}${p}`)).map((e) => (e.loc === `${BASE}blog/item-3` ? { loc: e.loc, lastmod: '2026-01-02' } : e));
  next.push({ loc: `${BASE}blog/new-post` }, { loc: `${BASE}careers/engineer`, lastmod: '2026-02-03T10:00:00Z' });
  await generate(dir, next, 'fresh');
  assert.deepEqual(published(out), published(join(dir, 'fresh')));
  assert.match(published(out).get('sitemap.xml') as string, /sitemap-careers\.\d\.[0-9a-f]{8}\.xml\.gz<\/loc><lastmod>2026-02-03T10:00:00Z</);
  // The manifests follow the published set.
  const listed = [0, 1, 2, 3].flatMap((s) => JSON.parse(readFileSync(join(out, `sitemap-shard-${s}-of-4.json`), 'utf8')).files.map((f: { name: string }) => f.name)).sort();
  assert.deepEqual(listed, [...published(out).keys()].filter((n) => n !== 'sitemap.xml').sort());
});

test('apply on a set one of whose children went missing refuses, naming it, and publishes nothing: an index never names a missing child (as index checks)', async () => {
  const dir = tempDir();
  await generate(dir, catalogue({ shoes: 20, hats: 20 }), 'out');
  const out = join(dir, 'out');
  const lost = readdirSync(out).find((f) => f.startsWith('sitemap-hats.')) as string;
  rmSync(join(out, lost));
  const index = readFileSync(join(out, 'sitemap.xml'));
  writeFileSync(join(dir, 'changes.jsonl'), JSON.stringify({ op: 'upsert', loc: '/shoes/item-1', lastmod: '2026-01-01' }) + '\n');
  const result = await runCli(['apply', 'changes.jsonl', '--out', 'out'], { cwd: dir });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, new RegExp(`${lost.replace(/\./g, '\\.')}, a child the index names, is missing`));
  assert.deepEqual(readFileSync(join(out, 'sitemap.xml')), index);
});

test("apply refuses a set whose manifest of a touched shard cannot be read, and publishes nothing: it wrote that shard's manifest anew with the touched children alone, and the next index dropped the others' URLs", async () => {
  const out = tempDir();
  await writeShardedSet(catalogue({ a: 30, b: 30, c: 30 }), { outDir: out, baseUrl: BASE, shards: 2 });
  const loc = `${BASE}b/new`;
  // Not shard 0, whose manifest apply reads the set's settings from.
  assert.equal(shardOf(loc, { shards: 2, baseUrl: BASE }).bucket, 1);
  const manifest = join(out, 'sitemap-shard-1-of-2.json');
  writeFileSync(manifest, '{');
  writeFileSync(join(out, 'changes.jsonl'), jsonl([{ op: 'upsert', loc }]));
  const before = files(out);
  await assert.rejects(applyChanges({ changes: [join(out, 'changes.jsonl')], outDir: out }), { code: 'ERR_SITEMAP_STATE', message: new RegExp(`^cannot read the manifest ${manifest}: `) });
  assert.deepEqual(files(out), before);
});

test("apply refuses manifests that are not the published set's (a generate --shards stopped between its index and its manifests, with another shard count): it placed a change by their layout, and published a URL twice", async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  const entries = catalogue({ a: 20, b: 20 });
  await writeShardedSet(entries, { outDir: out, baseUrl: BASE, shards: 4 });
  const old = readdirSync(out).filter((file) => file.endsWith('.json'));
  for (const file of old) writeFileSync(join(dir, file), readFileSync(join(out, file)));
  await writeShardedSet(entries, { outDir: out, baseUrl: BASE, shards: 8 });
  for (const file of readdirSync(out).filter((f) => f.endsWith('.json'))) rmSync(join(out, file));
  for (const file of old) writeFileSync(join(out, file), readFileSync(join(dir, file)));
  // A URL of bucket 4 to 7 of 8: its bucket of 4 is another child.
  const moved = entries.find((entry) => shardOf(entry.loc, { shards: 8, baseUrl: BASE }).bucket >= 4) as UrlEntry;
  writeFileSync(join(dir, 'changes.jsonl'), jsonl([{ op: 'upsert', loc: moved.loc, lastmod: '2026-01-01' }]));
  const before = published(out);
  await assert.rejects(applyChanges({ changes: [join(dir, 'changes.jsonl')], outDir: out }), { code: 'ERR_SITEMAP_STATE', message: /sitemap-shard-\d-of-4\.json does not list the children of shard \d that the published index names/ });
  assert.deepEqual(published(out), before);
});

test('apply: deleting every URL of a child removes its file; a bad line is reported and skipped', async () => {
  const dir = tempDir();
  await generate(dir, catalogue({ big: 50, tiny: 2 }), 'out');
  const out = join(dir, 'out');
  const tiny = readdirSync(out).filter((f) => f.startsWith('sitemap-tiny.'));
  assert.ok(tiny.length >= 1);
  const deletes = ['/tiny/item-0?color=red&size=0', '/tiny/item-1'].map((loc) => JSON.stringify({ op: 'delete', loc }));
  const bad = ['{"op":"rename"}', '{"op":"upsert","loc":"/tiny/x","lastMod":"2026-01-01"}'];
  // And a delete of a URL the set never had, in a section it has no child of: nothing to rewrite.
  const ghost = JSON.stringify({ op: 'delete', loc: '/ghost/item-0' });
  writeFileSync(join(dir, 'changes.jsonl'), `${deletes[0]}\n${bad[0]}\n${deletes[1]}\n${bad[1]}\n${ghost}\n`);
  const result = await runCli(['apply', 'changes.jsonl', '--out', 'out'], { cwd: dir });
  assert.equal(result.code, 1, result.stderr);
  // The summary counts what happened to the children: no "1 child rewritten (0 files)".
  const emptied = new Set(tiny.map((file) => file.split('.').slice(0, 2).join('.'))).size;
  const kept = new Set(readdirSync(out).filter((f) => f.endsWith('.xml.gz')).map((file) => file.split('.').slice(0, 2).join('.'))).size;
  assert.match(result.stdout, new RegExp(`: 0 children rewritten \\(0 files\\), ${emptied} child(ren)? emptied \\(every URL deleted\\), ${kept} children untouched\\.\n`));
  assert.match(result.stderr, /changes\.jsonl:2: error input\/change .*"op": "upsert" or "delete", got "rename"/);
  assert.match(result.stderr, /changes\.jsonl:4: error input\/jsonl unknown field "lastMod"/);
  for (const file of tiny) assert.ok(!existsIn(out, file), `${file} is left`);
  assert.ok(!(readFileSync(join(out, 'sitemap.xml'), 'utf8').includes('sitemap-tiny.')));
  assert.equal(locsOf(published(out)).length, 51);
  assert.ok(locsOf(published(out)).every((loc) => !loc.includes('/tiny/')));
});

test('apply and the coordinator of queue apply drop the refused part of an upsert as generate does (a bad image, a news, a fragment), with a warning (exit 1), not the whole change', async () => {
  const dir = tempDir();
  await generate(dir, catalogue({ a: 5 }), 'out');
  const news = { publication: { name: 'D', language: 'en-US' }, publicationDate: '2024-03-01', title: 'T' };
  const images = [{ loc: 'http://exa mple.com/x.jpg' }, { loc: `${BASE}ok.jpg` }];
  writeFileSync(join(dir, 'changes.jsonl'), jsonl([{ op: 'upsert', loc: `${BASE}a/new`, images, news }, { op: 'delete', loc: `${BASE}a/item-1#top` }]));
  // The coordinator of queue apply: the lines it leaves for the child jobs are the entries as they will be written.
  const plan = await planQueuedApply(new FileSystemStorage(join(dir, 'out')), 'sitemap', [join(dir, 'changes.jsonl')], (stem) => `plan/${stem}.jsonl`);
  assert.deepEqual([plan.outcome.entries, plan.outcome.rejected, plan.outcome.warnings], [2, 0, 3]);
  assert.match(plan.outcome.problems[1] as string, /changes\.jsonl:1: warning loc\/invalid .*; the URL is written without this image$/);
  const lines = plan.touched.map((stem) => readFileSync(join(dir, 'out', `plan/${stem}.jsonl`), 'utf8')).join('');
  assert.ok(lines.includes('ok.jpg') && !lines.includes('exa mple') && !lines.includes('news') && !lines.includes('#top'), lines);
  const result = await runCli(['apply', 'changes.jsonl', '--out', 'out'], { cwd: dir });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /changes\.jsonl:1: warning news:language\/invalid .*; the URL is written without this news/);
  assert.match(result.stderr, /changes\.jsonl:2: warning loc\/fragment /);
  assert.match(result.stdout, /Applied 1 upsert and 1 delete /);
  const set = [...published(join(dir, 'out')).values()].join('');
  assert.match(set, /<url><loc>https:\/\/www\.example\.com\/a\/new<\/loc><image:image><image:loc>https:\/\/www\.example\.com\/ok\.jpg</);
  assert.ok(!set.includes('/a/item-1<'), 'the delete of its #fragment removed the URL');
});

function existsIn(dir: string, name: string): boolean {
  return readdirSync(dir).includes(name);
}

test('past the per-index limit, several index files behind one link, replaced at one instant; apply keeps the split', async () => {
  const dir = tempDir();
  await generate(dir, catalogue({ a: 100, b: 100, c: 100 }), 'out', '--max-urls', '10');
  const out = join(dir, 'out');
  const manifests = [0, 1, 2, 3].map((s) => `out/sitemap-shard-${s}-of-4.json`);
  const split = await runCli(['index', ...manifests, '--out', 'out', '--sitemaps-per-index', '16', '--format', 'json'], { cwd: dir });
  assert.equal(split.code, 0, split.stderr);
  const set = JSON.parse(split.stdout);
  const children = set.files.length as number;
  assert.ok(children > 32, `${children} children`);
  assert.deepEqual(set.indexFiles.map((f: { name: string }) => f.name), Array.from({ length: Math.ceil(children / 16) }, (_, i) => `sitemap-indexes/sitemap-index-${i + 1}.xml`));
  assert.deepEqual(set.indexFiles.map((f: { sitemaps: number }) => f.sitemaps).reduce((a: number, b: number) => a + b), children);
  assert.match(readlinkSync(join(out, 'sitemap-indexes')), /^sitemap-indexes\.[0-9a-f]{8}$/);
  assert.ok(!existsIn(out, 'sitemap.xml'), 'the single index of the previous set is gone');
  const locs = locsOf(published(out));
  assert.equal(locs.length, 301);

  writeFileSync(join(dir, 'changes.jsonl'), jsonl([{ op: 'upsert', loc: `${BASE}a/added`, lastmod: '2026-03-01' }]));
  const oldTarget = readlinkSync(join(out, 'sitemap-indexes'));
  // Without --sitemaps-per-index: the split the set was published with is kept.
  const applied = await runCli(['apply', 'changes.jsonl', '--out', 'out', '--format', 'json'], { cwd: dir });
  assert.equal(applied.code, 0, applied.stderr);
  const perFile = JSON.parse(applied.stdout).indexFiles.map((f: { sitemaps: number }) => f.sitemaps) as number[];
  assert.ok(perFile.length > 1 && perFile.slice(0, -1).every((n) => n === 16), perFile.join(' '));
  assert.notEqual(readlinkSync(join(out, 'sitemap-indexes')), oldTarget);
  assert.ok(!existsIn(out, oldTarget), 'the previous index folder is removed');
  assert.deepEqual(locsOf(published(out)), [...locs, `${BASE}a/added`].sort());

  // Back under the limit: one sitemap.xml, the link and its folder removed.
  const single = await runCli(['index', ...manifests, '--out', 'out'], { cwd: dir });
  assert.equal(single.code, 0, single.stderr);
  assert.deepEqual(readdirSync(out).filter((f) => f.startsWith('sitemap-indexes') || f === 'sitemap.xml'), ['sitemap.xml']);
});

/**
 * Applies a feed to a set stopped (frozen, as by a kill) at every step of its commit in turn, and
 * checks the published set each time: the old one up to the rename of `entryStep`, the new one after.
 */
async function everyApplyStep(generateArgs: string[], applyArgs: string[], entryStep: string): Promise<{ prepare: () => Promise<string>; entryAt: number; old: Map<string, string>; next: Map<string, string> }> {
  const entries = catalogue({ a: 40, b: 40 });
  const changes = jsonl([{ op: 'upsert', loc: `${BASE}a/item-1`, lastmod: '2026-01-01' }, { op: 'delete', loc: `${BASE}b/item-2` }, { op: 'upsert', loc: `${BASE}b/fresh` }]);
  const prepare = async (): Promise<string> => {
    const dir = tempDir();
    await generate(dir, entries, 'out', ...generateArgs);
    if (applyArgs.length > 0) {
      // The set indexed as apply will index it (generate writes one index).
      const manifests = [0, 1, 2, 3].map((s) => `out/sitemap-shard-${s}-of-4.json`);
      assert.equal((await runCli(['index', ...manifests, '--out', 'out', ...applyArgs], { cwd: dir })).code, 0);
    }
    writeFileSync(join(dir, 'changes.jsonl'), changes);
    return dir;
  };
  const apply = async (dir: string): Promise<number> => (await runCli(['apply', 'changes.jsonl', '--out', 'out', '--quiet', ...applyArgs], { cwd: dir })).code;
  const reference = await prepare();
  const old = published(join(reference, 'out'));
  const counting = interceptSteps(join(reference, 'out'));
  try {
    assert.equal(await apply(reference), 0);
  } finally {
    counting.restore();
  }
  const next = published(join(reference, 'out'));
  assert.notDeepEqual(next, old);
  const entryAt = counting.steps.indexOf(`rename ${entryStep}`);
  assert.ok(entryAt > 0, counting.steps.join(', '));
  // The first step, the steps around the entry's rename, and the last (each run from a fresh copy).
  const last = counting.steps.length;
  for (const at of [...new Set([1, entryAt, entryAt + 1, entryAt + 2, last])].filter((n) => n >= 1 && n <= last)) {
    const dir = await prepare();
    const stop = interceptSteps(join(dir, 'out'), at, 'freeze');
    try {
      const running = apply(dir);
      running.catch(() => {});
      await stop.reached;
    } finally {
      stop.restore();
    }
    // Up to the entry's rename (step entryAt + 1, stopped before it is made) the old set; after it, the new one.
    assert.ok(isDeepStrictEqual(published(join(dir, 'out')), at <= entryAt + 1 ? old : next), `stopped at ${counting.steps[at - 1]} of ${counting.steps.join(', ')}`);
  }
  return { prepare, entryAt, old, next };
}

test('apply stopped at any step of its commit, or killed there, leaves the previous set or the new one published', async () => {
  const { prepare, entryAt, old, next } = await everyApplyStep([], [], 'sitemap.xml');
  // A real SIGKILL at the index's rename, in a child process: the old set stays; the next apply publishes the new one.
  const dir = await prepare();
  const killed = spawnSync(process.execPath, ['--import', TSX, KILL_AT_STEP, join(dir, 'out'), String(entryAt + 1), '--', 'apply', 'changes.jsonl', '--out', 'out'], { cwd: dir, encoding: 'utf8' });
  assert.equal(killed.signal, 'SIGKILL', killed.stderr);
  assert.deepEqual(published(join(dir, 'out')), old);
  assert.equal((await runCli(['apply', 'changes.jsonl', '--out', 'out', '--quiet'], { cwd: dir })).code, 0);
  assert.deepEqual(published(join(dir, 'out')), next);
  assert.deepEqual(readdirSync(join(dir, 'out')).filter((f) => f.startsWith('.')), []);
});

test('with several index files too, a stopped apply leaves the old index files or the new ones, never a mix', async () => {
  const { old } = await everyApplyStep(['--max-urls', '5'], ['--sitemaps-per-index', '8'], 'sitemap-indexes');
  assert.ok([...old.keys()].filter((name) => name.startsWith('sitemap-indexes/')).length > 1);
});

test('a set written with --no-scope is applied to with the same rule: a loc of another host is kept and can be changed', async () => {
  const dir = tempDir();
  await generate(dir, [...catalogue({ a: 5 }), { loc: 'https://cdn.example.net/a/elsewhere', lastmod: '2024-01-01' }], 'out', '--no-scope');
  writeFileSync(join(dir, 'changes.jsonl'), jsonl([{ op: 'upsert', loc: 'https://cdn.example.net/a/elsewhere', lastmod: '2026-01-01' }, { op: 'upsert', loc: 'https://other.example.org/b/new' }]));
  const result = await runCli(['apply', 'changes.jsonl', '--out', 'out', '--format', 'json'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const locs = locsOf(published(join(dir, 'out')));
  assert.ok(locs.includes('https://cdn.example.net/a/elsewhere') && locs.includes('https://other.example.org/b/new'), locs.join(' '));
  assert.match([...published(join(dir, 'out')).values()].join(''), /elsewhere<\/loc><lastmod>2026-01-01</);
});

test('a delete of a loc outside the set\'s location is refused as an upsert of it is (loc/out-of-scope), not counted as a delete that finds nothing; under --no-scope both are taken', () => {
  for (const enforceScope of [true, false]) {
    const settings = shardSettings({ outDir: '.', baseUrl: BASE, shards: 2, enforceScope });
    const serializer = setSerializer(settings);
    for (const change of [{ op: 'upsert' as const, entry: { loc: 'https://other.example/a/1' } }, { op: 'delete' as const, loc: 'https://other.example/a/1' }]) {
      if (enforceScope) assert.throws(() => placeChange(change, serializer, settings), { rule: 'loc/out-of-scope' }, change.op);
      else assert.equal(placeChange(change, serializer, settings).loc, 'https://other.example/a/1');
    }
  }
});

test('apply opens only the children of the changed URLs (and the index): never a file of another child', async () => {
  const dir = tempDir();
  await generate(dir, catalogue({ products: 200, blog: 60, help: 9 }), 'out');
  const out = join(dir, 'out');
  const change = { op: 'upsert', loc: `${BASE}help/item-1`, lastmod: '2026-04-01' };
  writeFileSync(join(dir, 'changes.jsonl'), jsonl([change]));
  const stem = shardOf(change.loc, { shards: 4, baseUrl: BASE }).child;
  const fsp = createRequire(import.meta.url)('node:fs/promises') as typeof import('node:fs/promises');
  const original = fsp.open;
  const opened: string[] = [];
  fsp.open = ((path: string, ...rest: unknown[]) => {
    if (dirname(String(path)) === out) opened.push(basename(String(path)));
    return (original as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fsp.open;
  syncBuiltinESMExports();
  try {
    assert.equal((await runCli(['apply', 'changes.jsonl', '--out', 'out', '--quiet'], { cwd: dir })).code, 0);
  } finally {
    fsp.open = original;
    syncBuiltinESMExports();
  }
  const children = opened.filter((name) => /\.xml\.gz$/.test(name));
  assert.ok(children.length > 0 && children.every((name) => name.startsWith(`${stem}.`)), opened.join(', '));
});

test('generate --shards on a full disk fails with ERR_SITEMAP_WRITE, the previous set staying: a child\'s write failing while the next was placed was an unhandled rejection that killed the process', async (t) => {
  const out = tempDir();
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', out]).status !== 0) return t.skip('cannot mount a small tmpfs (needs root)');
  try {
    await writeShardedSet(catalogue({ a: 3 }), { outDir: out, baseUrl: BASE, shards: 2 });
    const before = files(out);
    // Many small children, so that one fails while the next is placed (~100 KB gzipped).
    const entries = Array.from({ length: 3_000 }, (_, i) => ({ loc: `${BASE}s${i % 300}/${crc32(String(i)).toString(36)}-${i}` }));
    await assert.rejects(writeShardedSet(entries, { outDir: out, baseUrl: BASE, shards: 2 }), { code: 'ERR_SITEMAP_WRITE', message: /no space left on device/ });
    assert.deepEqual(files(out), before);
  } finally {
    spawnSync('umount', ['-l', out]);
  }
});

test('generate --shards refuses the options a sharded set has no use for; index and apply need their arguments', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), '/a/1\n');
  for (const option of [['--dry-run'], ['--no-dedupe'], ['--index', 'never']]) {
    const result = await runCli(['generate', 'urls.txt', '--base-url', BASE, '--out', 'out', '--shards', '2', ...option], { cwd: dir });
    assert.equal(result.code, 2, option.join(' '));
    assert.match(result.stderr, new RegExp(`${option[0]} does not apply to a sharded set`));
  }
  assert.equal((await runCli(['index', '--out', 'out'], { cwd: dir })).code, 2);
  assert.equal((await runCli(['apply', 'changes.jsonl'], { cwd: dir })).code, 2);
  const noSet = await runCli(['apply', 'urls.txt', '--out', '.'], { cwd: dir });
  assert.equal(noSet.code, 2);
  assert.match(noSet.stderr, /holds no sharded set named "sitemap"/);
});

test('generate --shards stopped between two shards leaves the published set whole, its manifests included', async () => {
  const { writeShardedSet } = await import('../../src/node/scale/generate-sharded.js');
  const out = tempDir();
  await writeShardedSet(catalogue({ shoes: 300, hats: 200 }), { outDir: out, baseUrl: BASE, shards: 4, compressionThreads: 1 });
  const before = files(out);
  // Aborted once shard 0 of the next run is written: the signal is asked once per batch of input, then after each shard.
  let asked = 0;
  const signal = { get aborted() { return ++asked > 2; }, reason: new Error('stopped') } as unknown as AbortSignal;
  await assert.rejects(writeShardedSet([catalogue({ shoes: 350, hats: 150 })], { outDir: out, baseUrl: BASE, shards: 4, compressionThreads: 1, signal }), /stopped/);
  assert.equal(asked, 3, 'stopped after the first shard');
  const after = files(out);
  for (const [name, bytes] of before) assert.ok(after.get(name)?.equals(bytes), `${name} of the published set`);
});

test('generate --shards given its entries as an array lets the event loop run while it reads them (it held it for the whole input: 200,000 entries, 3-5 s)', async () => {
  const { writeShardedSet } = await import('../../src/node/scale/generate-sharded.js');
  const total = 9_000;
  // The highest entry read when a turn of the event loop, asked for at the first entry, came.
  let read = 0;
  let readAtTurn: number | undefined;
  const entries = Array.from({ length: total }, (_, i) => ({
    get loc(): string {
      if (i === 0 && readAtTurn === undefined) setImmediate(() => (readAtTurn = read));
      read = Math.max(read, i);
      return `${BASE}p/${i}`;
    },
  }));
  for (const input of [entries, [entries]]) {
    read = 0;
    readAtTurn = undefined;
    await writeShardedSet(input, { outDir: tempDir(), baseUrl: BASE, shards: 2, compressionThreads: 1 });
    assert.ok(readAtTurn !== undefined && readAtTurn < total / 2, `a turn after ${readAtTurn} of ${total} entries`);
  }
});

test('generate --shards and apply hold the set\'s lock: while another process\'s run writes the set, they stop before writing', async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  writeFileSync(join(dir, 'urls.txt'), `${catalogue({ shoes: 30, hats: 20 }).map((e) => e.loc).join('\n')}\n`);
  assert.equal((await runCli(['generate', 'urls.txt', '--shards', '2', '--base-url', BASE, '--out', 'out', '--quiet'], { cwd: dir })).code, 0);
  writeFileSync(join(dir, 'changes.jsonl'), jsonl([{ op: 'upsert', loc: `${BASE}shoes/new` }]));
  const before = files(out);
  const machine = (crc32(hostname()) >>> 0).toString(16).padStart(8, '0');
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  try {
    writeFileSync(join(out, '.sitemapkit-lock-sitemap'), `${other.pid as number} ${machine}`);
    for (const args of [['generate', 'urls.txt', '--shards', '2', '--base-url', BASE, '--out', 'out'], ['apply', 'changes.jsonl', '--out', 'out']]) {
      const refused = await runCli(args, { cwd: dir });
      assert.equal(refused.code, 2, args[0]);
      assert.match(refused.stderr, /another run \(process \d+\) is writing the sitemaps "sitemap"/, args[0]);
      assert.deepEqual(files(out), before, args[0]);
    }
  } finally {
    other.kill('SIGKILL');
    await new Promise((resolve) => other.once('exit', resolve));
  }
  assert.equal((await runCli(['apply', 'changes.jsonl', '--out', 'out', '--quiet'], { cwd: dir })).code, 0);
  assert.ok(!readdirSync(out).some((name) => name.startsWith('.sitemapkit-')), 'the lock taken over and let go');
});

test('a sharded set splits a section whose entries carry more <news:news> than one file may hold (Google News: 1,000)', async () => {
  const dir = tempDir();
  const news = Array.from({ length: 1100 }, (_, i): UrlEntry => ({ loc: `${BASE}news/${i}`, news: { publication: { name: 'P', language: 'en' }, publicationDate: '2024-01-01', title: `t${i}` } }));
  // Written by one shard writer (its entries in memory), and by generate (spilled to disk, then laid out).
  await writeShard({ entries: news, shard: 0, shards: 1, outDir: join(dir, 'shard'), baseUrl: BASE, compressionThreads: 1 });
  writeFileSync(join(dir, 'news.jsonl'), jsonl(news));
  const result = await runCli(['generate', 'news.jsonl', '--base-url', BASE, '--out', 'generated', '--quiet', '--shards', '1'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  for (const out of ['shard', 'generated']) {
    const children = readdirSync(join(dir, out)).filter((f) => f.endsWith('.xml.gz'));
    assert.ok(children.length >= 2, `${out}: ${children.join(', ')}`);
    for (const name of children) assert.ok(gunzipSync(readFileSync(join(dir, out, name))).toString().split('<news:news>').length - 1 <= 1000, `${out}/${name}`);
  }
});

test("the index's publish checks before each of its writes (the index, each removal, each manifest), and one check that throws stops it there: a queue job whose lock was lost while the children were checked and flushed", async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  const manifestsIn = (folder: string): string[] => [0, 1].map((shard) => join(folder, `sitemap-shard-${shard}-of-2.json`));
  await generate(dir, catalogue({ a: 30, b: 30 }), 'out', '--shards', '2');
  const published = files(out);
  // The next set's shards written beside it, their manifests in a run's folder (the queue's scratch).
  const next = catalogue({ a: 10, c: 30 });
  const run = join(dir, 'run');
  for (const shard of [0, 1]) {
    await writeShard({ entries: next.filter((e) => shardOf(e.loc, { shards: 2, baseUrl: BASE }).bucket === shard), shard, shards: 2, outDir: run, baseUrl: BASE, maxUrls: 40, compressionThreads: 1 });
  }
  for (const name of readdirSync(run)) if (!name.endsWith('.json')) writeFileSync(join(out, name), readFileSync(join(run, name)));
  const publish = async (stopAt: number): Promise<number> => {
    let calls = 0;
    const beforeWrite = async (): Promise<void> => {
      if (++calls === stopAt) throw new Error('lock lost');
    };
    await writeIndexFromManifests({ manifests: manifestsIn(run), outDir: out, beforeWrite }).catch((error: Error) => assert.equal(error.message, 'lock lost'));
    return calls;
  };
  // Stopped before the index: the previous set, whole.
  assert.equal(await publish(1), 1);
  assert.deepEqual(readFileSync(join(out, 'sitemap.xml')), published.get('sitemap.xml'));
  for (const [name, bytes] of published) assert.deepEqual(readFileSync(join(out, name)), bytes, name);
  // Stopped after the index, before its first removal: the new index, the previous set's files all there.
  assert.equal(await publish(2), 2);
  assert.notDeepEqual(readFileSync(join(out, 'sitemap.xml')), published.get('sitemap.xml'));
  for (const name of published.keys()) assert.ok(readdirSync(out).includes(name), name);
  // Never stopped: a check before the index, each removal and each manifest copied from the run's folder.
  const calls = await publish(0);
  const removed = [...published.keys()].filter((name) => !readdirSync(out).includes(name));
  assert.ok(removed.length > 0);
  assert.equal(calls, 1 + removed.length + 2);
  for (const path of manifestsIn(run)) assert.deepEqual(readFileSync(join(out, basename(path))), readFileSync(path));
});

test("a site of one-page folders (/{slug}/, /{slug}/index.html) has its pages in the top level's children, not a child per page; apply refuses a set of the earlier layout", async () => {
  const dir = tempDir();
  const pages = Array.from({ length: 3000 }, (_, i) => ({ loc: `${BASE}post-${i}/${i % 10 === 0 ? 'index.html' : ''}` }));
  const { writeShardedSet } = await import('../../src/node/scale/generate-sharded.js');
  const out = join(dir, 'out');
  const set = await writeShardedSet([...pages, { loc: `${BASE}blog/first` }], { outDir: out, baseUrl: BASE, shards: 4, compressionThreads: 1 });
  assert.ok(set.sitemaps.length <= 8, `${set.sitemaps.length} children`);
  assert.equal(set.sitemaps.filter((f) => f.name.startsWith('sitemap-root.')).reduce((n, f) => n + f.urls, 0), 3000);
  assert.ok(set.sitemaps.some((f) => f.name.startsWith('sitemap-blog.')), 'a folder with a page beneath it keeps its section');
  // A set whose manifests were written with the earlier layout (a folder's own page in its folder's section).
  for (const shard of [0, 1, 2, 3]) {
    const path = join(out, `sitemap-shard-${shard}-of-4.json`);
    const { layout: _layout, ...earlier } = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, JSON.stringify(earlier));
  }
  writeFileSync(join(dir, 'changes.jsonl'), jsonl([{ op: 'delete', loc: `${BASE}post-1/` }]));
  const refused = await runCli(['apply', 'changes.jsonl', '--out', 'out'], { cwd: dir });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /written with the layout of an earlier sitemapkit/);
});

test("apply holds the set's lock through the writes after its commit (the removals, the manifests), not only up to the index's rename", async () => {
  const dir = tempDir();
  await generate(dir, catalogue({ a: 40, b: 40 }), 'out');
  writeFileSync(join(dir, 'changes.jsonl'), jsonl([{ op: 'upsert', loc: `${BASE}a/item-1`, lastmod: '2026-01-01' }]));
  const apply = (): Promise<unknown> => runCli(['apply', 'changes.jsonl', '--out', 'out', '--quiet'], { cwd: dir });
  const counting = interceptSteps(join(dir, 'out'));
  try {
    await apply();
  } finally {
    counting.restore();
  }
  const manifestAt = counting.steps.findIndex((step) => /^rename sitemap-shard-\d+-of-4\.json$/.test(step)) + 1;
  assert.ok(manifestAt > counting.steps.indexOf('rename sitemap.xml') + 1, counting.steps.join(', '));
  writeFileSync(join(dir, 'changes.jsonl'), jsonl([{ op: 'upsert', loc: `${BASE}a/item-2`, lastmod: '2026-01-01' }]));
  const stop = interceptSteps(join(dir, 'out'), manifestAt, 'freeze');
  try {
    void apply();
    await stop.reached;
  } finally {
    stop.restore();
  }
  assert.ok(readdirSync(join(dir, 'out')).includes('.sitemapkit-lock-sitemap'), 'the lock is held while the manifests go in');
});

test("index holds the set's lock: while another process's run writes the set, it stops before writing", async () => {
  const dir = tempDir();
  await generate(dir, catalogue({ a: 30, b: 30 }), 'out');
  const out = join(dir, 'out');
  const before = files(out);
  const machine = (crc32(hostname()) >>> 0).toString(16).padStart(8, '0');
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  try {
    writeFileSync(join(out, '.sitemapkit-lock-sitemap'), `${other.pid as number} ${machine}`);
    const refused = await runCli(['index', ...[0, 1, 2, 3].map((s) => `out/sitemap-shard-${s}-of-4.json`), '--out', 'out', '--sitemaps-per-index', '2'], { cwd: dir });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /another run \(process \d+\) is writing the sitemaps "sitemap"/);
    assert.deepEqual(files(out), before);
  } finally {
    other.kill('SIGKILL');
    await new Promise((resolve) => other.once('exit', resolve));
  }
});
