import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { crc32, gunzipSync } from 'node:zlib';
import { admit, writeSitemaps } from '../../src/node/write-sitemaps.js';
import type { UrlEntry } from '../../src/core/model.js';
import { InvalidValueError, SitemapError } from '../../src/core/errors.js';
import { xmllint } from '../helpers/xmllint.js';
import { tempDir } from '../helpers/tmp.js';
import { interceptSteps } from '../helpers/commit-steps.js';

const locsOf = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] as string);
/** A child's name without its content token: `sitemap-00001.1a2b3c4d.xml.gz` → `sitemap-00001.xml.gz`. */
const untokened = (name: string): string => name.replace(/\.[0-9a-f]{8}(?=\.xml(?:\.gz)?$)/, '');
const children = (out: string): string[] => readdirSync(out).filter((f) => /-\d{5}\./.test(f)).sort();
const read = (path: string): string => (path.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString('utf8');

function* entries(n: number, from = 0): Generator<UrlEntry> {
  for (let i = from; i < from + n; i++) yield { loc: `https://www.example.com/p/${i}`, lastmod: new Date(Date.UTC(2024, 0, 1) + i * 60_000) };
}

test('one file: the entry file is the sitemap itself, plain XML', async () => {
  const out = tempDir();
  const summary = await writeSitemaps(entries(10), { outDir: out, baseUrl: 'https://www.example.com/' });
  assert.deepEqual(readdirSync(out), ['sitemap.xml']);
  assert.equal(summary.indexed, false);
  assert.equal(summary.entryFile?.loc, 'https://www.example.com/sitemap.xml');
  assert.equal(locsOf(read(join(out, 'sitemap.xml'))).length, 10);
  assert.ok((await xmllint(read(join(out, 'sitemap.xml')), 'sitemap')).valid);
});

test('several files: gzip children with fixed-width numbers and content tokens, and an index with true lastmods', async () => {
  const out = tempDir();
  const summary = await writeSitemaps(entries(25), { outDir: out, baseUrl: 'https://www.example.com/maps/', enforceScope: false, maxUrls: 10, name: 'site' });
  assert.deepEqual(readdirSync(out).sort().map(untokened), ['site-00001.xml.gz', 'site-00002.xml.gz', 'site-00003.xml.gz', 'site.xml']);
  // The token is the CRC-32 of the child's uncompressed XML.
  for (const name of children(out)) {
    assert.equal(name.split('.')[1], crc32(gunzipSync(readFileSync(join(out, name)))).toString(16).padStart(8, '0'), name);
  }
  const index = read(join(out, 'site.xml'));
  assert.deepEqual(locsOf(index), children(out).map((name) => `https://www.example.com/maps/${name}`));
  assert.deepEqual(summary.sitemaps.map((file) => file.name), children(out));
  // Entry i has lastmod 2024-01-01 + i minutes: the newest of child 1 is entry 9.
  assert.ok(index.includes('<lastmod>2024-01-01T00:09:00Z</lastmod>'));
  assert.ok(index.includes('<lastmod>2024-01-01T00:24:00Z</lastmod>'));
  assert.equal(summary.sitemaps.length, 3);
  assert.equal(summary.sitemaps[2]?.urls, 5);
  assert.equal(summary.urls, 25);
  assert.ok((await xmllint(index, 'siteindex')).valid);
});

test('--index always and never', async () => {
  const always = tempDir();
  await writeSitemaps(entries(3), { outDir: always, baseUrl: 'https://www.example.com/', index: 'always' });
  assert.deepEqual(readdirSync(always).sort().map(untokened), ['sitemap-00001.xml.gz', 'sitemap.xml']);
  // Without an index each file is an entry file of its own: a fixed name, no token.
  const never = tempDir();
  const summary = await writeSitemaps(entries(3), { outDir: never, baseUrl: 'https://www.example.com/', index: 'never', maxUrls: 2, gzip: false });
  assert.deepEqual(readdirSync(never).sort(), ['sitemap-00001.xml', 'sitemap-00002.xml']);
  assert.equal(summary.entryFile, undefined);
});

test('a later, smaller run removes the children of the earlier, larger one and keeps unrelated files', async () => {
  const out = tempDir();
  writeFileSync(join(out, 'index.html'), '<p>mine</p>');
  await writeSitemaps(entries(50), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10 });
  const before = children(out);
  assert.equal(before.length, 5);
  const summary = await writeSitemaps(entries(15), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10 });
  assert.deepEqual(readdirSync(out).sort().map(untokened), ['index.html', 'sitemap-00001.xml.gz', 'sitemap-00002.xml.gz', 'sitemap.xml']);
  // The first child holds the same 10 URLs: same name, kept; the second changed: new name.
  assert.equal(children(out)[0], before[0]);
  assert.notEqual(children(out)[1], before[1]);
  assert.deepEqual(summary.removed, before.slice(1));
  assert.equal(readFileSync(join(out, 'index.html'), 'utf8'), '<p>mine</p>');
});

test('a failed run leaves the previous set as it was and no temporary files', async () => {
  const out = tempDir();
  await writeSitemaps(entries(20), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10 });
  const before = new Map(readdirSync(out).map((f) => [f, readFileSync(join(out, f))]));
  function* failing(): Generator<UrlEntry> {
    yield* entries(30);
    throw new Error('source broke');
  }
  await assert.rejects(writeSitemaps(failing(), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10 }), /source broke/);
  assert.deepEqual(readdirSync(out).sort(), [...before.keys()].sort());
  for (const [f, bytes] of before) assert.deepEqual(readFileSync(join(out, f)), bytes);
});

test('an abort rejects with ERR_SITEMAP_ABORTED, whatever the reason (its cause), also while the source waits; the previous set stays', async () => {
  const out = tempDir();
  await writeSitemaps(entries(20), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10 });
  const before = readdirSync(out).sort();
  const mine = new Error('mine');
  const stopped = new AbortController();
  stopped.abort(mine);
  await assert.rejects(writeSitemaps(entries(30), { outDir: out, baseUrl: 'https://www.example.com/', signal: stopped.signal }), (error: unknown) => {
    assert.ok(error instanceof SitemapError);
    assert.equal(error.code, 'ERR_SITEMAP_ABORTED');
    assert.equal(error.cause, mine);
    return true;
  });
  // Aborted before it starts: not even an empty input is looked at.
  await assert.rejects(writeSitemaps([], { outDir: join(out, 'new'), signal: stopped.signal }), { code: 'ERR_SITEMAP_ABORTED' });
  const later = new AbortController();
  async function* waiting(): AsyncGenerator<UrlEntry> {
    yield* entries(30);
    setTimeout(() => later.abort('a string'), 10);
    await new Promise(() => {});
  }
  await assert.rejects(writeSitemaps(waiting(), { outDir: out, baseUrl: 'https://www.example.com/', signal: later.signal }), { code: 'ERR_SITEMAP_ABORTED', cause: 'a string' });
  assert.deepEqual(readdirSync(out).sort(), before);
});

test('refused entries go to onInvalid and the rest is written', async () => {
  const out = tempDir();
  const refused: string[] = [];
  const summary = await writeSitemaps(
    [{ loc: 'https://www.example.com/a' }, { loc: 'https://other.example.com/b' }, { loc: 'https://www.example.com/c', priority: 2 }, { loc: '/d' }],
    { outDir: out, baseUrl: 'https://www.example.com/', onInvalid: (error) => refused.push(error.rule) },
  );
  assert.deepEqual(refused, ['loc/out-of-scope', 'priority/out-of-range']);
  assert.equal(summary.rejected, 2);
  assert.deepEqual(locsOf(read(join(out, 'sitemap.xml'))), ['https://www.example.com/a', 'https://www.example.com/d']);
});

test('prepare runs before each entry (false leaves it out, a throw rejects it); replaceInvalid offers a replacement, tried in its place', async () => {
  const out = tempDir();
  const order: string[] = [];
  const summary = await writeSitemaps(
    [{ loc: '/a' }, { loc: '/skip' }, { loc: '/b', priority: 2, changefreq: 'Weekly' as never }, { loc: '/c', priority: 2 }, { loc: '/throw' }, { loc: '/d' }],
    {
      outDir: out,
      baseUrl: 'https://www.example.com/',
      prepare: (entry) => {
        order.push(`prepare ${entry.loc}`);
        if (entry.loc === '/throw') throw new InvalidValueError('loc/fragment', 'loc', entry.loc, 'refused by prepare');
        return entry.loc !== '/skip';
      },
      // Drops the refused field of /b only (one at a time: priority, then changefreq); /c is rejected.
      replaceInvalid: (error, entry) => {
        order.push(`replace ${entry.loc} ${error.field}`);
        if (entry.loc !== '/b') return undefined;
        const copy = { ...entry };
        delete copy[error.field as 'priority' | 'changefreq'];
        return copy;
      },
      onInvalid: (error, entry) => order.push(`invalid ${entry.loc} ${error.rule}`),
    },
  );
  assert.deepEqual(order, [
    'prepare /a',
    'prepare /skip',
    'prepare /b',
    'replace /b changefreq',
    'replace /b priority',
    'prepare /c',
    'replace /c priority',
    'invalid /c priority/out-of-range',
    'prepare /throw',
    'replace /throw loc',
    'invalid /throw loc/fragment',
    'prepare /d',
  ]);
  assert.equal(summary.rejected, 2);
  assert.deepEqual(locsOf(read(join(out, 'sitemap.xml'))), ['https://www.example.com/a', 'https://www.example.com/b', 'https://www.example.com/d']);
});

test('too many sitemaps for an index is an error before anything is written', async () => {
  const out = tempDir();
  await assert.rejects(writeSitemaps(entries(1001), { outDir: out, baseUrl: 'https://www.example.com/', profile: 'legacy', maxUrls: 1 }), { code: 'ERR_SITEMAP_LIMIT', rule: 'limits/too-many-sitemaps' });
  assert.deepEqual(readdirSync(out), []);
});

test('an index without a base URL is refused with a clear message', async () => {
  const out = tempDir();
  await assert.rejects(writeSitemaps(entries(3), { outDir: out, maxUrls: 1 }), /base URL/);
  assert.equal(existsSync(join(out, 'sitemap.xml')), false);
});

test('async iterables and batches are accepted; progress is reported', async () => {
  const out = tempDir();
  async function* batches(): AsyncGenerator<UrlEntry[]> {
    for (let b = 0; b < 5; b++) yield [...entries(1000, b * 1000)];
  }
  const seen: number[] = [];
  const summary = await writeSitemaps(batches(), { outDir: out, baseUrl: 'https://www.example.com/', onProgress: (p) => seen.push(p.urls), progressIntervalMs: 0 });
  assert.equal(summary.urls, 5000);
  assert.equal(seen.at(-1), 5000);
  // Progress comes after each 1,024 entries or more (once the interval has passed), however they are batched.
  assert.deepEqual(seen, [2000, 4000, 5000]);
});

test('the last progress counts the files written: one sitemap is one file, not the closed one and again as open', async () => {
  for (const [urls, maxUrls] of [[1, 50_000], [5, 2]] as const) {
    const files: number[] = [];
    const summary = await writeSitemaps(entries(urls), { outDir: tempDir(), baseUrl: 'https://www.example.com/', maxUrls, onProgress: (p) => files.push(p.files), progressIntervalMs: 0 });
    assert.equal(files.at(-1), summary.sitemaps.length, `${urls} URLs, ${maxUrls} a file`);
  }
});

test('a refused option leaves no temporary directory behind', async () => {
  const out = tempDir();
  await assert.rejects(writeSitemaps(entries(3), { outDir: out, baseUrl: 'https://www.example.com/', maxBytes: 100 }), /leaves no room/);
  await assert.rejects(writeSitemaps(entries(3), { outDir: out, baseUrl: 'https://www.example.com/', xslUrl: 'a?>b' }), /must not contain/);
  await assert.rejects(writeSitemaps(entries(3), { outDir: out, baseUrl: 'https://www.example.com/', compressionThreads: 0 }), { code: 'ERR_SITEMAP_OPTION', message: /^compressionThreads must be/ });
  assert.deepEqual(readdirSync(out), []);
});

test('the same input again: the same names and bytes, nothing moved or removed', async () => {
  const out = tempDir();
  await writeSitemaps(entries(30), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10 });
  const before = new Map(readdirSync(out).map((f) => [f, { bytes: readFileSync(join(out, f)), ino: statSync(join(out, f)).ino }]));
  const summary = await writeSitemaps(entries(30), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10 });
  assert.deepEqual(summary.removed, []);
  assert.deepEqual(readdirSync(out).sort(), [...before.keys()].sort());
  for (const [name, { bytes, ino }] of before) {
    assert.deepEqual(readFileSync(join(out, name)), bytes, name);
    // A child already in place is not replaced (the entry file is: one rename, same bytes).
    if (name !== 'sitemap.xml') assert.equal(statSync(join(out, name)).ino, ino, name);
  }
});

test('a name held by a file with other bytes is never written over: the child takes another token', async () => {
  const reference = tempDir();
  await writeSitemaps(entries(20), { outDir: reference, baseUrl: 'https://www.example.com/', maxUrls: 10 });
  const [first] = children(reference);
  const out = tempDir();
  writeFileSync(join(out, first as string), 'someone else');
  const summary = await writeSitemaps(entries(20), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10 });
  const taken = summary.sitemaps[0]?.name as string;
  assert.notEqual(taken, first);
  assert.equal(untokened(taken), untokened(first as string));
  assert.deepEqual(readFileSync(join(out, taken)), readFileSync(join(reference, first as string)));
  assert.ok(locsOf(read(join(out, 'sitemap.xml'))).includes(`https://www.example.com/${taken}`));
  // Named like a child of this set and named by no index: removed once the new set is in place.
  assert.deepEqual(summary.removed, [first]);
});

test('an index followed by a set without one: the files go in, then the old index and children go', async () => {
  const out = tempDir();
  await writeSitemaps(entries(20), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10 });
  const old = children(out);
  const steps = interceptSteps(out);
  let summary;
  try {
    summary = await writeSitemaps(entries(20), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10, index: 'never' });
  } finally {
    steps.restore();
  }
  assert.equal(summary.entryFile, undefined);
  assert.deepEqual(readdirSync(out).sort(), ['sitemap-00001.xml.gz', 'sitemap-00002.xml.gz']);
  assert.deepEqual(summary.removed, [...old, 'sitemap.xml'].sort());
  // Nothing the old index names is replaced, so it stays whole until the new files are in.
  assert.deepEqual(steps.steps, ['rename sitemap-00001.xml.gz', 'rename sitemap-00002.xml.gz', ...[...old, 'sitemap.xml'].sort().map((f) => `remove ${f}`)]);
});

test('an old index naming files that a set without an index replaces in place is removed first', async () => {
  const out = tempDir();
  // As written before children had tokens: sitemap.xml naming sitemap-00001.xml.gz.
  await writeSitemaps(entries(20), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10, index: 'never' });
  writeFileSync(join(out, 'sitemap.xml'), '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.example.com/sitemap-00001.xml.gz</loc></sitemap></sitemapindex>\n');
  const steps = interceptSteps(out);
  try {
    await writeSitemaps(entries(20, 100), { outDir: out, baseUrl: 'https://www.example.com/', maxUrls: 10, index: 'never' });
  } finally {
    steps.restore();
  }
  assert.deepEqual(steps.steps, ['remove sitemap.xml', 'rename sitemap-00001.xml.gz', 'rename sitemap-00002.xml.gz']);
});

test('while a run of another process holds the set, a run stops before writing; a lock of a process gone is taken over', async () => {
  const out = tempDir();
  const base = 'https://www.example.com/';
  await writeSitemaps(entries(30), { outDir: out, baseUrl: base, maxUrls: 10 });
  const before = new Map(readdirSync(out).map((f) => [f, readFileSync(join(out, f))]));
  const lock = join(out, '.sitemapkit-lock-sitemap');
  const thisMachine = (crc32(hostname()) >>> 0).toString(16).padStart(8, '0');
  // Two processes committing one set at once each removed the other's children: an index naming missing files.
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  try {
    writeFileSync(lock, `${other.pid as number} ${thisMachine}`);
    await assert.rejects(writeSitemaps(entries(30, 100), { outDir: out, baseUrl: base, maxUrls: 10 }), {
      code: 'ERR_SITEMAP_WRITE',
      message: new RegExp(`another run \\(process ${other.pid as number}\\) is writing the sitemaps "sitemap" into .*; run again once it is done`),
    });
    assert.deepEqual(new Map(readdirSync(out).map((f) => [f, readFileSync(join(out, f))])), new Map([...before, ['.sitemapkit-lock-sitemap', readFileSync(lock)]]));
  } finally {
    other.kill('SIGKILL');
    await new Promise((resolve) => other.once('exit', resolve));
  }
  await writeSitemaps(entries(3), { outDir: out, baseUrl: base });
  assert.deepEqual(readdirSync(out), ['sitemap.xml']);
});

test('a lock of a process killed but not yet reaped by its parent (a zombie) is taken over: it holds nothing', { skip: !existsSync('/proc/self/stat') }, async () => {
  const out = tempDir();
  const thisMachine = (crc32(hostname()) >>> 0).toString(16).padStart(8, '0');
  // sh starts `sleep 0` and becomes `sleep 5`, which never waits for it: the exited child stays a zombie.
  const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (data: Buffer) => resolve(data.toString()))));
    for (let tries = 0; tries < 100 && !/\) Z/.test(readFileSync(`/proc/${zombie}/stat`, 'latin1')); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    writeFileSync(join(out, '.sitemapkit-lock-sitemap'), `${zombie} ${thisMachine}`);
    await writeSitemaps(entries(3), { outDir: out, baseUrl: 'https://www.example.com/' });
    assert.deepEqual(readdirSync(out), ['sitemap.xml']);
  } finally {
    parent.kill('SIGKILL');
  }
});

test('a dry run sweeps what a dry run killed left in the system temporary folder, as a real run does in its own', async () => {
  const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => gone.once('exit', resolve));
  const left = join(tmpdir(), `.sitemapkit-tmp-${gone.pid as number}-${(crc32(hostname()) >>> 0).toString(16).padStart(8, '0')}-a1b2c3`);
  mkdirSync(left);
  writeFileSync(join(left, 'sitemap-00001.xml.gz'), 'staged');
  const out = tempDir();
  const summary = await writeSitemaps(entries(3), { outDir: join(out, 'nothing'), baseUrl: 'https://www.example.com/', dryRun: true });
  assert.equal(summary.dryRun, true);
  assert.ok(!existsSync(left), 'the killed dry run\'s folder is gone');
  assert.ok(!existsSync(join(out, 'nothing')));
  assert.deepEqual(readdirSync(tmpdir()).filter((f) => f.startsWith(`.sitemapkit-tmp-${process.pid}-`)), [], 'and its own');
});

test('a full disk while the entry file is staged: ERR_SITEMAP_WRITE "cannot write to OUT: no space left on device"; the previous set stays', async (t) => {
  // A 64 KiB filesystem: the gzipped child fits, the plain sitemap made of it does not.
  const out = tempDir();
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', out]).status !== 0) return t.skip('cannot mount a small tmpfs (needs root)');
  try {
    await writeSitemaps(entries(3), { outDir: out, baseUrl: 'https://www.example.com/' });
    const before = readFileSync(join(out, 'sitemap.xml'));
    await assert.rejects(writeSitemaps(entries(3000), { outDir: out, baseUrl: 'https://www.example.com/' }), {
      code: 'ERR_SITEMAP_WRITE',
      message: `cannot write to ${out}: no space left on device`,
    });
    assert.deepEqual(readdirSync(out), ['sitemap.xml']);
    assert.deepEqual(readFileSync(join(out, 'sitemap.xml')), before);
  } finally {
    spawnSync('umount', ['-l', out]);
  }
});

test('a commit without an index that fails after replacing a file in place does not say the previous set is whole', async () => {
  const out = tempDir();
  const base = 'https://www.example.com/';
  await writeSitemaps(entries(20), { outDir: out, baseUrl: base, maxUrls: 10, index: 'never' });
  const failing = interceptSteps(out, 2, 'fail');
  try {
    await assert.rejects(writeSitemaps(entries(20, 100), { outDir: out, baseUrl: base, maxUrls: 10, index: 'never' }), (error: unknown) => {
      assert.ok(error instanceof SitemapError && error.code === 'ERR_SITEMAP_WRITE', String(error));
      assert.match(error.message, /^cannot move the new sitemaps into .*: injected failure at step 2: rename sitemap-00002\.xml\.gz; sitemap-00001\.xml\.gz is new, the files after it are not/);
      return true;
    });
  } finally {
    failing.restore();
  }
  // Stopped before its first step, the same failure leaves the previous set, and says so.
  const before = interceptSteps(out, 1, 'fail');
  try {
    await assert.rejects(writeSitemaps(entries(20, 200), { outDir: out, baseUrl: base, maxUrls: 10, index: 'never' }), /; the previous set is still in place$/);
  } finally {
    before.restore();
  }
});

test("admit hands the caller's entry to prepare and onInvalid (generate, with or without --shards, finds its FILE:LINE by it); with copy, a copy", () => {
  const refuse = (): never => {
    throw new InvalidValueError('loc/unsupported-scheme', 'loc', 'ftp://x', 'not http(s)');
  };
  for (const copy of [false, true]) {
    const entry: UrlEntry = { loc: 'ftp://x' };
    const seen: UrlEntry[] = [];
    const result = admit(entry, { prepare: (e) => seen.push(e) > 0, onInvalid: (_, e) => seen.push(e), copy }, refuse);
    assert.equal(result, null);
    assert.deepEqual(seen.map((e) => e === entry), [!copy, !copy]);
  }
});
