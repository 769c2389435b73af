import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { constants } from 'node:buffer';
import { basename, join } from 'node:path';
import { crc32, gunzipSync } from 'node:zlib';
import { execFileSync, spawnSync } from 'node:child_process';
import { runCli } from '../helpers/cli.js';
import { buildSite } from '../../src/node/build-site.js';
import { tempDir } from '../helpers/tmp.js';
import { page, writeSite } from '../helpers/site.js';
import { xmllint } from '../helpers/xmllint.js';
import { startSiteServer } from '../helpers/site-server.js';

const BASE = 'https://www.example.com/';
const T1 = 1_790_000_000; // 2026-09-21T...
const iso = (epoch: number) => new Date(epoch * 1000).toISOString().replace('.000Z', 'Z');

interface BuildJson {
  listed: number;
  pages: number;
  newPages: number;
  changedPages: number;
  removedPages: number;
  excluded: { relPath: string; reason: string; detail?: string }[];
  problems: { relPath: string; code: string }[];
  files: { name: string; status: string; urls: number; lastmod?: string }[];
  indexFile: { name: string; status: string; lastmod?: string };
}

async function build(site: string, epoch: number, extra: string[] = []): Promise<{ code: number; json: BuildJson; stderr: string }> {
  const result = await runCli(['build', site, '--base-url', BASE, '--json', ...extra], { cwd: site, env: { SOURCE_DATE_EPOCH: String(epoch) } });
  assert.ok(result.stdout.startsWith('{'), result.stderr);
  return { code: result.code, json: JSON.parse(result.stdout) as BuildJson, stderr: result.stderr };
}

/** loc → lastmod of every URL in the set (children read back from disk). */
function readSet(site: string, index = 'sitemap.xml'): Map<string, string | undefined> {
  const urls = new Map<string, string | undefined>();
  const indexXml = readFileSync(join(site, index), 'utf8');
  for (const [, loc] of indexXml.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const name = (loc as string).slice(BASE.length);
    const bytes = readFileSync(join(site, name));
    const xml = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    for (const [, url] of xml.matchAll(/<url>(.*?)<\/url>/gs)) {
      const at = /<loc>([^<]+)<\/loc>/.exec(url as string)?.[1] as string;
      urls.set(at, /<lastmod>([^<]+)<\/lastmod>/.exec(url as string)?.[1]);
    }
  }
  return urls;
}

/** A child's name without its content token: `sitemap-blog.1a2b3c4d.xml.gz` → `sitemap-blog.xml.gz`. */
const layoutName = (name: string): string => name.replace(/\.[0-9a-f]{8}(?=\.xml(?:\.gz)?$)/, '');
const changedFiles = (json: BuildJson) => json.files.filter((f) => f.status !== 'unchanged').map((f) => `${layoutName(f.name)}:${f.status}`);

/** The path of the one child in `dir` named `name` once its content token is left out. */
function child(dir: string, name: string): string {
  const found = readdirSync(dir).filter((file) => file !== name && layoutName(file) === name);
  assert.equal(found.length, 1, `${name} in ${readdirSync(dir).join(', ')}`);
  return join(dir, found[0] as string);
}

function fixtureSite(): string {
  const site = tempDir('sitemapkit-build-');
  writeSite(site, {
    'index.html': page({ title: 'Home' }),
    'about.html': page({ title: 'About' }),
    'blog/index.html': page({ title: 'Blog' }),
    'blog/first-post.html': page({
      title: 'First post',
      head: '<link rel="alternate" hreflang="en" href="https://www.example.com/blog/first-post.html">\n<link rel="alternate" hreflang="fr" href="/fr/blog/premier-article.html">\n<link rel="alternate" hreflang="x-default" href="/blog/first-post.html">',
      body: '<article><p>Hello.</p><img src="/img/hello.png" alt=""></article>',
    }),
    'blog/second-post.html': page({ title: 'Second post', body: '<p>Second.</p>' }),
    'fr/blog/premier-article.html': page({
      title: 'Premier article',
      head: '<link rel="alternate" hreflang="en" href="/blog/first-post.html"><link rel="alternate" hreflang="fr" href="/fr/blog/premier-article.html">',
    }),
    'blog/print/first-post.html': page({ title: 'Print', head: '<link rel="canonical" href="https://www.example.com/blog/first-post.html">' }),
    'private.html': page({ title: 'Private', head: '<meta name="robots" content="noindex, follow">' }),
    'googlebot-only.html': page({ title: 'G', head: '<meta name="googlebot" content="NOINDEX">' }),
    'old-page.html': '<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=/about.html"></head><body></body></html>',
    'syndicated.html': page({ title: 'Elsewhere', head: '<link rel="canonical" href="https://news.example.org/story">' }),
    '404.html': page({ title: 'Not found' }),
    'drafts/wip.html': page({ title: 'WIP' }),
    'assets/site.css': 'body{}',
    '.hidden/secret.html': page({ title: 'hidden' }),
  });
  return site;
}

describe('sitemapkit build', () => {
  it('lists the pages that belong in a sitemap and reports why the others are left out', async () => {
    const site = fixtureSite();
    const { code, json } = await build(site, T1, ['--exclude', 'drafts/**', '--initial-lastmod', 'none', '--images']);
    assert.equal(code, 0);
    const urls = readSet(site);
    assert.deepEqual([...urls.keys()].sort(), [
      'https://www.example.com/',
      'https://www.example.com/about.html',
      'https://www.example.com/blog/',
      'https://www.example.com/blog/first-post.html',
      'https://www.example.com/blog/second-post.html',
      'https://www.example.com/fr/blog/premier-article.html',
    ]);
    const reasons = Object.fromEntries(json.excluded.map((e) => [e.relPath, e.reason]));
    assert.deepEqual(reasons, {
      'drafts/wip.html': 'excluded',
      '404.html': 'error-page',
      'blog/print/first-post.html': 'canonical-elsewhere',
      'private.html': 'noindex',
      'googlebot-only.html': 'noindex',
      'old-page.html': 'redirect',
      'syndicated.html': 'canonical-outside',
    });
    assert.equal(json.pages, 13);
    assert.equal(json.listed, 6);
    // hreflang alternates resolved against the page; images of the main content only.
    const blog = gunzipSync(readFileSync(child(site, 'sitemap-blog.xml.gz'))).toString('utf8');
    assert.match(blog, /<xhtml:link rel="alternate" hreflang="fr" href="https:\/\/www\.example\.com\/fr\/blog\/premier-article\.html"\/>/);
    assert.match(blog, /<image:loc>https:\/\/www\.example\.com\/img\/hello\.png<\/image:loc>/);
    // Stable files: one per section, named by the section and a token of the content; an index always.
    assert.deepEqual(json.files.map((f) => layoutName(f.name)).sort(), ['sitemap-blog.xml.gz', 'sitemap-fr.xml.gz', 'sitemap-root.xml.gz']);
    for (const file of json.files) {
      assert.match(file.name, /^sitemap-[a-z]+\.[0-9a-f]{8}\.xml\.gz$/);
      // The token is the CRC-32 of the child's uncompressed XML, as for generate.
      assert.equal(file.name.split('.')[1], crc32(gunzipSync(readFileSync(join(site, file.name)))).toString(16).padStart(8, '0'));
    }
    assert.equal(json.indexFile.name, 'sitemap.xml');
    // No lastmod was known (--initial-lastmod none), so none is invented.
    assert.ok([...urls.values()].every((lastmod) => lastmod === undefined));
  });

  it('scans on worker threads the same as on the main thread', async () => {
    const site = fixtureSite();
    const inThread = await build(site, T1, ['--threads', '0', '--initial-lastmod', 'now', '--images']);
    const set = readSet(site);
    const threaded = await build(site, T1 + 60, ['--threads', '2', '--initial-lastmod', 'now', '--images']);
    assert.deepEqual(changedFiles(threaded.json), []);
    assert.deepEqual(threaded.json.excluded, inThread.json.excluded);
    assert.deepEqual(readSet(site), set);
  });

  it('validates against sitemap.xsd and siteindex.xsd', async () => {
    const site = fixtureSite();
    await build(site, T1, ['--no-gzip', '--initial-lastmod', 'now']);
    assert.deepEqual(await xmllint(readFileSync(join(site, 'sitemap.xml')), 'siteindex'), { valid: true, errors: [] });
    for (const name of ['sitemap-root.xml', 'sitemap-blog.xml', 'sitemap-fr.xml']) {
      assert.deepEqual(await xmllint(readFileSync(child(site, name)), 'all', name), { valid: true, errors: [] }, name);
    }
  });

  it('changes lastmod and rewrites files only where content changed', async () => {
    const site = fixtureSite();
    const T2 = T1 + 86_400;
    const T3 = T2 + 86_400;
    const T4 = T3 + 86_400;
    const first = await build(site, T1, ['--initial-lastmod', 'now']);
    assert.equal(first.json.newPages, 12); // every page but 404.html, which is never read
    const before = readSet(site);
    assert.ok([...before.values()].every((lastmod) => lastmod === iso(T1)));
    const mtimes = Object.fromEntries(first.json.files.map((f) => [f.name, statSync(join(site, f.name)).mtimeMs]));

    // 1. Nothing changed: nothing is written.
    const same = await build(site, T2, ['--initial-lastmod', 'now']);
    assert.deepEqual(changedFiles(same.json), []);
    assert.equal(same.json.indexFile.status, 'unchanged');
    assert.deepEqual(readSet(site), before);

    // 2. Only build noise changed (build id, timestamps in a comment and a script, ?v= queries).
    writeSite(site, {
      'index.html': page({ title: 'Home', buildId: 'b2-7f3a9c' }),
      'blog/second-post.html': page({ title: 'Second post', body: '<p>Second.</p>', buildId: 'zz-another-build' }),
    });
    const noise = await build(site, T3, ['--initial-lastmod', 'now']);
    assert.equal(noise.json.changedPages, 0);
    assert.deepEqual(changedFiles(noise.json), []);
    assert.deepEqual(readSet(site), before);

    // 3. One page's content changed: its lastmod moves, its file is written under a new name, the
    // index is rewritten, and the file of the old content is removed.
    writeSite(site, { 'blog/second-post.html': page({ title: 'Second post', body: '<p>Second, revised.</p>' }) });
    const edit = await build(site, T4, ['--initial-lastmod', 'now']);
    assert.equal(edit.json.changedPages, 1);
    assert.deepEqual(changedFiles(edit.json), ['sitemap-blog.xml.gz:written', 'sitemap-blog.xml.gz:removed']);
    assert.equal(edit.json.indexFile.status, 'written');
    const after = readSet(site);
    assert.equal(after.get('https://www.example.com/blog/second-post.html'), iso(T4));
    for (const [url, lastmod] of after) if (!url.endsWith('second-post.html')) assert.equal(lastmod, iso(T1), url);
    for (const name of ['sitemap-root.xml.gz', 'sitemap-fr.xml.gz']) {
      const path = child(site, name);
      assert.equal(statSync(path).mtimeMs, mtimes[basename(path)], `${name} not rewritten`);
    }
    const index = readFileSync(join(site, 'sitemap.xml'), 'utf8');
    assert.match(index, new RegExp(`sitemap-blog\\.[0-9a-f]{8}\\.xml\\.gz</loc><lastmod>${iso(T4)}</lastmod>`));
    assert.match(index, new RegExp(`sitemap-root\\.[0-9a-f]{8}\\.xml\\.gz</loc><lastmod>${iso(T1)}</lastmod>`));
  });

  it('adding a page in a new section adds one file and leaves the others byte for byte', async () => {
    const site = fixtureSite();
    await build(site, T1, ['--initial-lastmod', 'now']);
    const bytes = (name: string) => [basename(child(site, name)), readFileSync(child(site, name)).toString('base64')];
    const root = bytes('sitemap-root.xml.gz');
    const blog = bytes('sitemap-blog.xml.gz');
    writeSite(site, { 'docs/index.html': page({ title: 'Docs' }), 'docs/start.html': page({ title: 'Start' }) });
    const { json } = await build(site, T1 + 60, ['--initial-lastmod', 'now']);
    assert.deepEqual(changedFiles(json), ['sitemap-docs.xml.gz:written']);
    assert.equal(json.newPages, 2);
    // Same names, same bytes.
    assert.deepEqual(bytes('sitemap-root.xml.gz'), root);
    assert.deepEqual(bytes('sitemap-blog.xml.gz'), blog);
    assert.match(readFileSync(join(site, 'sitemap.xml'), 'utf8'), /sitemap-docs\.[0-9a-f]{8}\.xml\.gz/);
  });

  it('pages in one-page folders (/{slug}/index.html) share the top level\'s file, not a file each', async () => {
    const site = tempDir('sitemapkit-build-');
    const posts = Array.from({ length: 40 }, (_, i) => [`post-${i}/index.html`, page({ title: `Post ${i}` })]);
    const docs = Array.from({ length: 5 }, (_, i) => [`docs/p${i}.html`, page({ title: `Doc ${i}` })]);
    writeSite(site, { 'index.html': page({ title: 'Home' }), ...Object.fromEntries([...posts, ...docs]) });
    const { code, json } = await build(site, T1, ['--initial-lastmod', 'now']);
    assert.equal(code, 0);
    assert.deepEqual(json.files.map((f) => [layoutName(f.name), f.urls]).sort(), [
      ['sitemap-docs.xml.gz', 5],
      ['sitemap-root.xml.gz', 41],
    ]);
    // Another post rewrites only the file that holds it.
    const docsFile = basename(child(site, 'sitemap-docs.xml.gz'));
    writeSite(site, { 'post-40/index.html': page({ title: 'Post 40' }) });
    const again = await build(site, T1 + 60, ['--initial-lastmod', 'now']);
    assert.deepEqual(changedFiles(again.json).sort(), ['sitemap-root.xml.gz:removed', 'sitemap-root.xml.gz:written']);
    assert.equal(basename(child(site, 'sitemap-docs.xml.gz')), docsFile);
  });

  it('removes the file of a section that disappeared (only files it wrote)', async () => {
    const site = fixtureSite();
    writeFileSync(join(site, 'sitemap-mine.xml'), 'not ours');
    await build(site, T1);
    execFileSync('rm', ['-r', join(site, 'fr')]);
    const { json } = await build(site, T1 + 60);
    // The blog's child changes too: its hreflang="fr" alternate named the page now gone, and is dropped.
    assert.deepEqual(changedFiles(json).sort(), ['sitemap-blog.xml.gz:removed', 'sitemap-blog.xml.gz:written', 'sitemap-fr.xml.gz:removed']);
    assert.deepEqual(json.problems.map((p) => [p.relPath, p.code]), [['blog/first-post.html', 'build/alternate-not-built']]);
    assert.equal(json.removedPages, 1);
    assert.deepEqual(readdirSync(site).filter((f) => f.startsWith('sitemap-fr')), []);
    assert.ok(existsSync(join(site, 'sitemap-mine.xml')));
  });

  it('writes the index again when it is not on disk as the state says (edited by hand): it never names a file that is not there', async () => {
    const site = fixtureSite();
    await build(site, T1);
    const index = readFileSync(join(site, 'sitemap.xml'), 'utf8');
    writeFileSync(join(site, 'sitemap.xml'), index.replace('sitemap-blog.', 'sitemap-gone.'));
    const { json } = await build(site, T1 + 60);
    assert.deepEqual([changedFiles(json), json.indexFile.status], [[], 'written']);
    assert.equal(readFileSync(join(site, 'sitemap.xml'), 'utf8'), index);
  });

  it('removes what a run killed between writing and renaming left behind, and only that', async () => {
    const site = fixtureSite();
    await build(site, T1);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid as number; // an exited process: certainly not running
    const stale = [`.sitemap-blog.xml.gz.tmp-${gone}-m1abc-0`, `.sitemap.xml.tmp-${gone}-m1abc-3`];
    const foreign = `.notes.txt.tmp-${gone}-m1abc-0`;
    for (const name of [...stale, foreign]) writeFileSync(join(site, name), 'partial');
    const { code } = await build(site, T1 + 60);
    assert.equal(code, 0);
    for (const name of stale) assert.ok(!existsSync(join(site, name)), name);
    assert.ok(existsSync(join(site, foreign)));
    assert.deepEqual(readdirSync(site).filter((f) => f.includes('.tmp-')), [foreign]);
  });

  it('splits a section that outgrows the limits into hash buckets and keeps them stable', async () => {
    const site = tempDir('sitemapkit-build-');
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`shop/item-${i}.html`] = page({ title: `Item ${i}` });
    writeSite(site, files);
    const first = await build(site, T1, ['--max-urls', '10', '--initial-lastmod', 'now']);
    const names = first.json.files.map((f) => f.name).sort();
    assert.ok(names.length >= 3 && names.every((n) => /^sitemap-shop\.\d+\.[0-9a-f]{8}\.xml\.gz$/.test(n)), String(names));
    assert.ok(first.json.files.every((f) => f.urls <= 10));
    writeSite(site, { 'shop/item-7.html': page({ title: 'Item 7', body: '<p>On sale</p>' }) });
    const second = await build(site, T1 + 60, ['--max-urls', '10', '--initial-lastmod', 'now']);
    // One bucket changed: its new file written, its old one removed.
    const changed = changedFiles(second.json);
    assert.equal(changed.length, 2, JSON.stringify(second.json.files));
    assert.deepEqual(changed.map((f) => f.split(':')[0]).filter((n, i, all) => all.indexOf(n) === i).length, 1, String(changed));
  });

  it('maps files to URLs with --trailing-slash and --clean-urls', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page(), 'a/index.html': page(), 'a/b.html': page() });
    await build(site, T1, ['--clean-urls', '--trailing-slash', 'never']);
    assert.deepEqual([...readSet(site).keys()].sort(), [BASE, `${BASE}a`, `${BASE}a/b`]);
    await build(site, T1, ['--clean-urls', '--trailing-slash', 'always']);
    assert.deepEqual([...readSet(site).keys()].sort(), [BASE, `${BASE}a/`, `${BASE}a/b/`]);
  });

  it('reads each page in its declared encoding (windows-1252, UTF-16 with a BOM)', async () => {
    const site = tempDir('sitemapkit-build-');
    const latin = '<html><head><meta charset="windows-1252"><title>Caf\u00e9 \u201cBar\u201d</title>' +
      '<link rel="alternate" hreflang="es" href="/es/caf\u00e9.html"></head><body><main><img src="/img/caf\u00e9.png"></main></body></html>';
    const bytes = Buffer.from(latin.replace('\u201c', '\x93').replace('\u201d', '\x94'), 'latin1');
    writeSite(site, { 'es/caf\u00e9.html': '<html><body><main>x</main></body></html>' });
    writeFileSync(join(site, 'cafe.html'), bytes);
    writeFileSync(join(site, 'utf16.html'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<html><head><link rel="canonical" href="/cafe.html"></head><body>\u00e9</body></html>', 'utf16le')]));
    const { json } = await build(site, T1, ['--images']);
    const root = gunzipSync(readFileSync(child(site, 'sitemap-root.xml.gz'))).toString('utf8');
    assert.match(root, /hreflang="es" href="https:\/\/www\.example\.com\/es\/caf%C3%A9\.html"/);
    assert.match(root, /<image:loc>https:\/\/www\.example\.com\/img\/caf%C3%A9\.png<\/image:loc>/);
    // The UTF-16 page was read: its canonical sends it to cafe.html.
    assert.deepEqual(json.excluded, [{ relPath: 'utf16.html', url: `${BASE}utf16.html`, reason: 'canonical-elsewhere', detail: `${BASE}cafe.html` }]);
  });

  it('a page left out for its canonical, whose canonical is left out too (a loop, a noindex page), is warned about: it is in no sitemap', async () => {
    const site = tempDir('sitemapkit-build-');
    const canonical = (path: string): string => page({ head: `<link rel="canonical" href="/${path}">` });
    writeSite(site, { 'a.html': canonical('b.html'), 'b.html': canonical('a.html'), 'c.html': canonical('d.html'), 'd.html': page({ head: '<meta name="robots" content="noindex">' }), 'e.html': canonical('f.html'), 'f.html': page() });
    const { code, json } = await build(site, T1, ['--initial-lastmod', 'none']);
    assert.equal(code, 0);
    assert.equal(json.listed, 1);
    assert.deepEqual(json.problems.map((p) => [p.relPath, p.code]), [['a.html', 'build/canonical-left-out'], ['b.html', 'build/canonical-left-out'], ['c.html', 'build/canonical-left-out']]);
  });

  it('a canonical under --base-url that no file answers is "no page of the site", not "outside the site" (it was), which stays for another host', async () => {
    const site = tempDir('sitemapkit-build-');
    const canonical = (url: string): string => page({ head: `<link rel="canonical" href="${url}">` });
    writeSite(site, { 'a.html': canonical('/a.html?x=1'), 'b.html': canonical('/gone.html'), 'c.html': canonical('https://other.example.org/c.html'), 'd.html': page() });
    const run = async (base = BASE) => (await runCli(['build', site, '--base-url', base, '--initial-lastmod', 'none', '-v', '--dry-run'], { cwd: site })).stdout;
    const out = await run();
    assert.match(out, /left out: 2 its canonical is no page of the site, 1 its canonical is outside the site\n/);
    assert.match(out, /left out a\.html: its canonical is no page of the site \(https:\/\/www\.example\.com\/a\.html\?x=1\)/);
    assert.match(out, /left out c\.html: its canonical is outside the site \(https:\/\/other\.example\.org\/c\.html\)/);
    // Most pages left out so: the note says which, and names no other origin.
    assert.match(out, /note: 3 of 4 pages excluded: its canonical is no page of the site\n/);
    // Under another base URL, they are all outside it.
    assert.match(await run('https://www.example.com/sub/'), /left out: 3 its canonical is outside the site\n/);
  });

  it('reads a page in the encoding it declares past the first 1,024 bytes, as a browser changes to it', async () => {
    const site = tempDir('sitemapkit-build-');
    // "статья" in windows-1251, in a canonical that names the page itself.
    const article = Buffer.from([0xf1, 0xf2, 0xe0, 0xf2, 0xfc, 0xff]);
    const head = `<html><head><script>${'var x = 1;'.repeat(120)}</script><meta charset="windows-1251"><link rel="canonical" href="${BASE}`;
    writeSite(site, { 'статья/index.html': '' });
    writeFileSync(join(site, 'статья', 'index.html'), Buffer.concat([Buffer.from(head), article, Buffer.from('/"></head><body><p>x</p></body></html>')]));
    const { code, json } = await build(site, T1, ['--initial-lastmod', 'none']);
    assert.equal(code, 0);
    assert.deepEqual([json.listed, json.excluded], [1, []]);
  });

  it('sitemaps written into a sub-folder of the site are listed at its URL, with a warning on the location rule', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page(), 'a/b.html': page() });
    const result = await runCli(['build', site, '--base-url', BASE, '--out', join(site, 'maps')], { cwd: site });
    assert.equal(result.code, 0);
    assert.match(readFileSync(join(site, 'maps', 'sitemap.xml'), 'utf8'), /<loc>https:\/\/www\.example\.com\/maps\/sitemap-a\.[0-9a-f]{8}\.xml\.gz<\/loc>/);
    assert.match(result.stderr, /warning: the sitemaps are served from https:\/\/www\.example\.com\/maps\/, so by the protocol they may list only URLs under it/);
  });

  it('a sub-folder whose name starts with two dots (..maps) is inside the site too', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page(), 'a/b.html': page() });
    const result = await runCli(['build', site, '--base-url', BASE, '--out', join(site, '..maps')], { cwd: site });
    assert.equal(result.code, 0, result.stderr);
    assert.match(readFileSync(join(site, '..maps', 'sitemap.xml'), 'utf8'), /<loc>https:\/\/www\.example\.com\/\.\.maps\/sitemap-a\.[0-9a-f]{8}\.xml\.gz<\/loc>/);
  });

  it('a --base-url with a path serves the site under it (/docs is /docs/); a query is refused', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page(), 'a/b.html': page() });
    const result = await runCli(['build', site, '--base-url', 'https://www.example.com/docs', '--initial-lastmod', 'none'], { cwd: site });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /entry file: https:\/\/www\.example\.com\/docs\/sitemap\.xml /);
    assert.match(readFileSync(join(site, 'sitemap.xml'), 'utf8'), /<loc>https:\/\/www\.example\.com\/docs\/sitemap-a\.[0-9a-f]{8}\.xml\.gz<\/loc>/);
    assert.match(gunzipSync(readFileSync(child(site, 'sitemap-a.xml.gz'))).toString(), /<loc>https:\/\/www\.example\.com\/docs\/a\/b\.html<\/loc>/);
    const query = await runCli(['build', site, '--base-url', 'https://www.example.com/docs?lang=en'], { cwd: site });
    assert.equal(query.code, 2);
    assert.match(query.stderr, /^sitemapkit build: --base-url https:\/\/www\.example\.com\/docs\?lang=en: a site is served under a path, without a query or fragment$/m);
  });

  it('a page or folder whose name is not UTF-8 is named in a warning (bytes escaped), the others listed', { skip: process.platform !== 'linux' ? 'only Linux file systems take any bytes as a name' : false }, async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page() });
    // Names as bytes: d<FF>/ and caf<E9>.html (Latin-1), which no UTF-8 string spells.
    const dir = Buffer.concat([Buffer.from(join(site, 'd')), Buffer.from([0xff])]);
    mkdirSync(dir);
    writeFileSync(Buffer.concat([dir, Buffer.from('/index.html')]), page());
    writeFileSync(Buffer.concat([Buffer.from(join(site, 'caf')), Buffer.from([0xe9]), Buffer.from('.html')]), page());
    const { code, json, stderr } = await build(site, T1, ['--initial-lastmod', 'none']);
    assert.equal(code, 0, stderr);
    assert.equal(json.listed, 1);
    assert.deepEqual(json.problems.map((p) => [p.relPath, p.code]), [['caf\\xE9.html', 'build/name-not-utf8'], ['d\\xFF/', 'build/name-not-utf8']]);
    assert.match(stderr, /^caf\\xE9\.html: warning build\/name-not-utf8 left out: its name is not UTF-8/m);
  });

  it('a page name with control characters is escaped in the summary, as on standard error: no escape reaches the terminal, no line is broken', { skip: process.platform === 'win32' ? 'no control characters in Windows file names' : false }, async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page(), 'red\x1b[31m\nx.html': page({ head: '<meta name="robots" content="noindex">' }) });
    const result = await runCli(['build', site, '--base-url', BASE, '--dry-run', '-v', '--initial-lastmod', 'none'], { cwd: site });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!result.stdout.includes('\x1b'), result.stdout);
    assert.match(result.stdout, /^ {4}left out red\\u001b\[31m\\nx\.html: noindex$/m);
  });

  it('a folder that cannot be read stops the build with a message naming it (exit 2), not a raw EACCES', { skip: process.getuid?.() === 0 ? 'root reads any folder' : false }, async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page(), 'locked/index.html': page() });
    chmodSync(join(site, 'locked'), 0);
    try {
      const result = await runCli(['build', site, '--base-url', BASE], { cwd: site });
      assert.equal(result.code, 2);
      assert.equal(result.stderr, `sitemapkit: cannot read the folder ${join(site, 'locked')}: permission denied\n`);
    } finally {
      chmodSync(join(site, 'locked'), 0o755);
    }
  });

  it('a link to no page (dangling, or a loop) is an unreadable page, not silence', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page() });
    symlinkSync('missing.html', join(site, 'gone.html'));
    symlinkSync('loop.html', join(site, 'loop.html'));
    const { code, json, stderr } = await build(site, T1, ['--initial-lastmod', 'none']);
    assert.equal(code, 1);
    assert.deepEqual(json.excluded.map((p) => [p.relPath, p.reason]), [['gone.html', 'unreadable'], ['loop.html', 'unreadable']]);
    assert.match(stderr, /^gone\.html: error cannot read .*gone\.html: no such file$/m);
    assert.match(stderr, /^loop\.html: error cannot read .*loop\.html: a loop of symbolic links$/m);
  });

  it('a link to a folder is followed as a web server follows it: listed under its name once, never back up the tree', async () => {
    const site = tempDir('sitemapkit-build-');
    const outside = tempDir('sitemapkit-build-manual-');
    writeSite(site, { 'index.html': page(), 'docs/a.html': page() });
    writeSite(outside, { 'b.html': page() });
    symlinkSync(outside, join(site, 'guide'));
    symlinkSync('docs', join(site, 'again'));
    symlinkSync('.', join(site, 'self'));
    symlinkSync('..', join(site, 'up'));
    symlinkSync(site, join(outside, 'back'));
    const result = await runCli(['build', site, '--base-url', BASE], { cwd: site });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual([...readSet(site).keys()].sort(), [BASE, `${BASE}docs/a.html`, `${BASE}guide/b.html`]);
  });

  it('a page whose path makes a URL of 2,048 characters or more is left out and reported; the others are listed', async () => {
    const site = tempDir('sitemapkit-build-');
    const deep = Array.from({ length: 9 }, () => 'd'.repeat(240)).join('/');
    writeSite(site, { 'index.html': page(), [`${deep}/index.html`]: page() });
    const result = await runCli(['build', site, '--base-url', BASE], { cwd: site });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /d{240}\/index\.html: error loc\/too-long left out: .* characters long once normalised; at most 2047 are allowed$/m);
    assert.deepEqual([...readSet(site).keys()], [BASE]);
  });

  it('a page too large to decode is left out and named, not the end of the run; the others are listed', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page(), 'huge.html': '' });
    // Sparse: nothing is written, and the build must not read it either.
    truncateSync(join(site, 'huge.html'), constants.MAX_STRING_LENGTH + 1);
    const { code, json, stderr } = await build(site, T1, ['--initial-lastmod', 'none']);
    assert.equal(code, 1);
    assert.equal(json.listed, 1);
    assert.deepEqual(json.excluded.map((p) => [p.relPath, p.reason]), [['huge.html', 'unreadable']]);
    assert.match(stderr, /^huge\.html: error cannot read .*huge\.html: \d+ bytes, more than a page can have/m);
  });

  it('a page that cannot be read for a run keeps its lastmod for when it can again', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page(), 'a.html': page({ title: 'A' }) });
    const kept = readFileSync(join(site, 'a.html'));
    await build(site, T1, ['--initial-lastmod', 'now']);
    truncateSync(join(site, 'a.html'), constants.MAX_STRING_LENGTH + 1);
    const unreadable = await build(site, T1 + 60, ['--initial-lastmod', 'now']);
    assert.equal(unreadable.code, 1);
    assert.equal(unreadable.json.removedPages, 0);
    writeFileSync(join(site, 'a.html'), kept);
    const back = await build(site, T1 + 120, ['--initial-lastmod', 'now']);
    assert.equal(back.json.newPages, 0);
    assert.equal(readSet(site).get(`${BASE}a.html`), iso(T1));
  });

  it('reports two files served at one URL and exits 1', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'a.html': page(), 'a/index.html': page() });
    const result = await runCli(['build', site, '--base-url', BASE, '--clean-urls', '--trailing-slash', 'never'], { cwd: site });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /a\/index\.html: error left out: https:\/\/www\.example\.com\/a is also the URL of a\.html/);
  });

  it('-v lists a page left out for its URL once as left out, not "left out …: left out:"', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'a.html': page(), 'a/index.html': page() });
    const result = await runCli(['build', site, '--base-url', BASE, '--clean-urls', '--trailing-slash', 'never', '-v'], { cwd: site });
    assert.match(result.stdout, /^ {4}left out a\/index\.html: https:\/\/www\.example\.com\/a is also the URL of a\.html; one file per URL$/m);
  });

  it('takes the first lastmod from git, through --source-map when given, or from mtime', async () => {
    const repo = tempDir('sitemapkit-build-git-');
    writeSite(repo, {
      'content/post.md': '# Post',
      'public/index.html': page({ title: 'Home' }),
      'public/post/index.html': page({ title: 'Post' }),
      'public/untracked.html': page({ title: 'Untracked' }),
      'source-map.json': JSON.stringify({ 'post/index.html': 'content/post.md' }),
    });
    const git = (args: string[], date: string) =>
      execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' } });
    git(['init', '-q'], '2024-01-01T00:00:00Z');
    git(['add', 'content/post.md', 'public/index.html', 'public/post/index.html'], '2024-01-01T00:00:00Z');
    git(['commit', '-qm', 'one'], '2024-01-02T03:04:05Z');
    writeFileSync(join(repo, 'content/post.md'), '# Post, edited');
    git(['commit', '-qam', 'two'], '2024-02-03T04:05:06Z');

    const site = join(repo, 'public');
    const out = tempDir('sitemapkit-build-out-');
    const result = await runCli(['build', site, '--base-url', BASE, '--out', out, '--source-map', join(repo, 'source-map.json'), '--json'], { cwd: repo });
    assert.equal(result.code, 0, result.stderr);
    const urls = readSet(out);
    assert.equal(urls.get(BASE), '2024-01-02T03:04:05Z'); // the page file's own commit
    assert.equal(urls.get(`${BASE}post/`), '2024-02-03T04:05:06Z'); // its source's last commit
    assert.equal(urls.get(`${BASE}untracked.html`), undefined); // never committed: none
    assert.match(result.stderr, /: 1 page seen for the first time has no git history/);

    const mtimeSite = tempDir('sitemapkit-build-');
    writeSite(mtimeSite, { 'index.html': page() });
    utimesSync(join(mtimeSite, 'index.html'), new Date('2023-05-06T07:08:09Z'), new Date('2023-05-06T07:08:09Z'));
    await build(mtimeSite, T1, ['--initial-lastmod', 'mtime']);
    assert.equal(readSet(mtimeSite).get(BASE), '2023-05-06T07:08:09Z');

    // A date after the build (a clock set wrong, a copy that kept a future mtime) is the build time.
    const futureSite = tempDir('sitemapkit-build-');
    writeSite(futureSite, { 'index.html': page() });
    utimesSync(join(futureSite, 'index.html'), new Date('2031-01-01T00:00:00Z'), new Date('2031-01-01T00:00:00Z'));
    await build(futureSite, T1, ['--initial-lastmod', 'mtime']);
    assert.equal(readSet(futureSite).get(BASE), iso(T1));
  });

  it('a page an earlier run could not date takes its date once the way out the note gives is taken', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page() });
    utimesSync(join(site, 'index.html'), new Date('2023-05-06T07:08:09Z'), new Date('2023-05-06T07:08:09Z'));
    const first = await build(site, T1); // no git history: no lastmod, and a note saying what to do
    assert.equal(readSet(site).get(BASE), undefined);
    assert.match(first.stderr, /date them with --initial-lastmod mtime or now/);
    const second = await build(site, T1 + 60, ['--initial-lastmod', 'mtime']);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.json.newPages, 0);
    assert.equal(readSet(site).get(BASE), '2023-05-06T07:08:09Z');
    // Dated now: the date is kept while the page does not change.
    await build(site, T1 + 120, ['--initial-lastmod', 'now']);
    assert.equal(readSet(site).get(BASE), '2023-05-06T07:08:09Z');
  });

  it('a page no run could date does not send git looking again at every run (only a way out given does)', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page() });
    const bin = tempDir('sitemapkit-fake-git-');
    const calls = join(bin, 'calls');
    writeFileSync(calls, '');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$@" >> '${calls}'\nexit 128\n`, { mode: 0o755 });
    const path = process.env['PATH'];
    process.env['PATH'] = `${bin}:${path ?? ''}`;
    try {
      await build(site, T1);
      assert.notEqual(readFileSync(calls, 'utf8'), '', 'the first run asks git');
      writeFileSync(calls, '');
      await build(site, T1 + 60);
      assert.equal(readFileSync(calls, 'utf8'), '', 'nothing new to ask');
    } finally {
      process.env['PATH'] = path;
    }
  });

  it('--dry-run computes the whole build and writes nothing: what it reports is what the real build does', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page({ title: 'Home' }), 'posts/a.html': page({ title: 'A' }), 'docs/b.html': page({ title: 'B' }) });
    assert.equal((await build(site, T1)).code, 0);
    const snapshot = (): Map<string, string> => {
      const files = new Map<string, string>();
      const walk = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) walk(path);
          else files.set(path, readFileSync(path).toString('base64'));
        }
      };
      walk(site);
      return files;
    };
    writeSite(site, { 'posts/a.html': page({ title: 'A', body: '<p>Changed.</p>' }), 'posts/c.html': page({ title: 'C' }) });
    rmSync(join(site, 'docs'), { recursive: true });
    const before = snapshot();
    const dry = await build(site, T1 + 60, ['--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal((dry.json as unknown as { dryRun?: boolean }).dryRun, true);
    assert.deepEqual(snapshot(), before, 'no file written, renamed or removed, the state included');
    const text = await runCli(['build', site, '--base-url', BASE, '--dry-run'], { cwd: site, env: { SOURCE_DATE_EPOCH: String(T1 + 60) } });
    assert.match(text.stdout, /^Dry run, nothing written: would list 3 URLs/);
    assert.match(text.stdout, /files that would change: .*\(removed\)/);
    const real = await build(site, T1 + 60);
    assert.deepEqual(dry.json.files, real.json.files);
    assert.deepEqual(dry.json.indexFile, real.json.indexFile);
    assert.deepEqual([dry.json.newPages, dry.json.changedPages, dry.json.removedPages], [real.json.newPages, real.json.changedPages, real.json.removedPages]);
  });

  it('--name takes NAME or NAME.xml, as generate does (it wrote sitemap.xml.xml); the library refuses a name that is no plain file name', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page() });
    const { code, json } = await build(site, T1, ['--name', 'sitemap.xml', '--initial-lastmod', 'none']);
    assert.equal(code, 0);
    assert.equal(json.indexFile.name, 'sitemap.xml');
    assert.deepEqual(readdirSync(site).filter((name) => name.startsWith('sitemap')).map(layoutName).sort(), ['sitemap-root.xml.gz', 'sitemap.xml']);
    await assert.rejects(buildSite({ siteDir: site, baseUrl: BASE, name: '../escaped', initialLastmod: 'none' }), { code: 'ERR_SITEMAP_OPTION' });
    assert.equal(existsSync(join(site, '..', 'escaped.xml')), false);
  });

  it('refuses bad usage with exit 2 and a one-line reason', async () => {
    const site = tempDir('sitemapkit-build-');
    // Placed as validate --config places its errors; a byte order mark (Notepad's) is no error.
    writeFileSync(join(site, 'bad.json'), '{\n  "a.html": "a.md",\n  "b.html": }');
    writeFileSync(join(site, 'bom.json'), '\uFEFF{"a.html": 1}');
    const cases: [string[], RegExp][] = [
      [['build', site, '--base-url', BASE, '--source-map', 'bad.json'], /^sitemapkit build: cannot read the source map .*bad\.json:3:13: /],
      [['build', site, '--base-url', BASE, '--source-map', 'bom.json'], /the source of "a\.html" must be a string/],
      [['build', site], /--base-url URL is required/],
      [['build', '--base-url', BASE], /give the built site's folder/],
      [['build', join(site, 'missing'), '--base-url', BASE], /cannot read the site folder .*missing: no such file/],
      [['build', site, '--base-url', BASE, '--trailing-slash', 'sometimes'], /--trailing-slash/],
      [['build', site, '--base-url', BASE, '--initial-lastmod', 'yesterday'], /--initial-lastmod/],
      [['build', site, '--base-url', 'ftp://example.com/'], /base-url|http/],
      // --dry-run is a dry run of the whole build now (issue 23); the IndexNow options still need a key.
      [['build', site, '--base-url', BASE, '--endpoint', 'https://e.com/indexnow'], /go with --indexnow-key/],
      [['build', site, '--base-url', BASE, '--indexnow-key', 'short'], /--key/],
      // An empty value of a repeatable option: picomatch's own words named no option; '' read the working folder as a source map.
      [['build', site, '--base-url', BASE, '--exclude', ''], /^sitemapkit build: --exclude needs a value: GLOB\n/],
      [['build', site, '--base-url', BASE, '--source-map', ' '], /^sitemapkit build: --source-map needs a value: FILE\|RULE\n/],
    ];
    for (const [argv, message] of cases) {
      const result = await runCli(argv, { cwd: site });
      assert.equal(result.code, 2, argv.join(' '));
      assert.match(result.stderr, message, argv.join(' '));
      assert.ok(!result.stderr.includes('    at '), 'no stack trace');
    }
  });

  it('refuses a --max-bytes too small for one of its URLs with exit 2, naming the smallest that works', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page(), 'blog/a.html': page(), 'blog/a-longer-name.html': page() });
    const tooSmall = await runCli(['build', site, '--base-url', BASE, '--max-bytes', '100'], { cwd: site });
    assert.equal(tooSmall.code, 2, tooSmall.stderr);
    const smallest = /leaves no room for https:\/\/www\.example\.com\/blog\/a-longer-name\.html: .*, so the limit must be at least (\d+)\n/.exec(tooSmall.stderr)?.[1];
    assert.ok(smallest !== undefined, tooSmall.stderr);
    assert.ok(!tooSmall.stderr.includes('    at '), 'no stack trace');
    assert.equal((await runCli(['build', site, '--base-url', BASE, '--max-bytes', String(Number(smallest) - 1), '--dry-run'], { cwd: site })).code, 2);
    const fits = await runCli(['build', site, '--base-url', BASE, '--max-bytes', smallest, '--json'], { cwd: site });
    assert.equal(fits.code, 0, fits.stderr);
    assert.equal(JSON.parse(fits.stdout).listed, 3);
  });

  it('a build that lists no URL of a site (a wrong --base-url) exits 1, writes and removes nothing, and names the host the pages use', async () => {
    const site = tempDir('sitemapkit-build-');
    const pages: Record<string, string> = {};
    for (const path of ['index.html', 'about.html', 'blog/a.html', 'blog/b.html', 'docs/c.html']) {
      pages[path] = page({ head: `<link rel="canonical" href="https://example.org/${path.replace(/index\.html$/, '')}">` });
    }
    writeSite(site, pages);
    const good = await runCli(['build', site, '--base-url', 'https://example.org/', '--json'], { cwd: site });
    assert.equal(good.code, 0, good.stderr);
    assert.equal(JSON.parse(good.stdout).listed, 5);
    const snapshot = () => new Map(readdirSync(site, { recursive: true, encoding: 'utf8' }).sort().map((f) => [f, statSync(join(site, f)).isFile() ? readFileSync(join(site, f)).toString('base64') : 'dir']));
    const before = snapshot();

    // Every canonical is now "outside the site": nothing to list.
    const wrong = await runCli(['build', site, '--base-url', BASE, '--json'], { cwd: site });
    assert.equal(wrong.code, 1, wrong.stderr);
    assert.match(wrong.stderr, /no URL to list of 5 pages: 5 of 5 pages excluded: canonical outside https:\/\/www\.example\.com\/ — the pages use https:\/\/example\.org\/; check --base-url; the previous sitemaps in .* were left as they were/);
    const json = JSON.parse(wrong.stdout);
    assert.equal(json.ok, false);
    assert.equal(json.committed, false);
    assert.equal(json.listed, 0);
    assert.deepEqual(json.files, []);
    // The index JSON speaks of is the one on disk: the previous one, kept.
    assert.deepEqual(json.indexFile, { name: 'sitemap.xml', status: 'kept', urls: 0, bytes: 0 });
    assert.deepEqual(json.dominantExclusion, { reason: 'canonical-outside', count: 5, pages: 5, canonicalOrigin: 'https://example.org/' });
    // Nothing written or removed: sitemaps and state byte for byte.
    assert.deepEqual(snapshot(), before);
    // …and the index still names children that are all there.
    const named = [...readFileSync(join(site, 'sitemap.xml'), 'utf8').matchAll(/<loc>https:\/\/example\.org\/([^<]+)<\/loc>/g)].map((m) => m[1] as string);
    assert.equal(named.length, 3);
    for (const name of named) assert.ok(existsSync(join(site, name)), name);

    // In words, without --json.
    const human = await runCli(['build', site, '--base-url', BASE], { cwd: site });
    assert.equal(human.code, 1);
    assert.match(human.stdout, /^Listed 0 URLs of 5 pages: nothing written or removed in .* \(/);
    assert.match(human.stdout, /\n {2}5 of 5 pages excluded: canonical outside https:\/\/www\.example\.com\/ — the pages use https:\/\/example\.org\/; check --base-url\n/);
    assert.doesNotMatch(human.stdout, /entry file/);
    assert.deepEqual(snapshot(), before);

    // With no previous set, none is claimed.
    const fresh = tempDir('sitemapkit-build-out-');
    const none = await runCli(['build', site, '--base-url', BASE, '--out', fresh, '--json'], { cwd: site });
    assert.equal(none.code, 1);
    assert.deepEqual(JSON.parse(none.stdout).indexFile, { name: 'sitemap.xml', status: 'absent', urls: 0, bytes: 0 });
    assert.match(none.stderr, /; no sitemap was written/);
    assert.deepEqual(readdirSync(fresh), []);
  });

  it('an empty site folder lists nothing: exit 1, the previous set kept', async () => {
    const site = tempDir('sitemapkit-build-');
    const out = tempDir('sitemapkit-build-out-');
    writeSite(site, { 'index.html': page() });
    assert.equal((await runCli(['build', site, '--base-url', BASE, '--out', out], { cwd: site })).code, 0);
    rmSync(join(site, 'index.html'));
    const result = await runCli(['build', site, '--base-url', BASE, '--out', out], { cwd: site });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no page to list: the site folder has no \.html page; the previous sitemaps in .* were left as they were/);
    assert.deepEqual([...readSet(out).keys()], [BASE]);
  });

  it('a build that lists nothing announces nothing to IndexNow (not every URL as removed)', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, { 'index.html': page(), 'a.html': page() });
    const submissions: string[][] = [];
    const endpoint = await startSiteServer({
      '/indexnow': async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        submissions.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { urlList: string[] }).urlList.sort());
        res.writeHead(200).end();
      },
    });
    after(() => endpoint.close());
    const announce = ['--indexnow-key', '5f2b8c1d9e7a4b3c', '--endpoint', endpoint.url('/indexnow')];
    assert.equal((await runCli(['build', site, '--base-url', BASE, ...announce], { cwd: site })).code, 0);
    assert.deepEqual(submissions, [[BASE, `${BASE}a.html`]]);
    // A staging build deployed by mistake: every page noindex.
    writeSite(site, { 'index.html': page({ head: '<meta name="robots" content="noindex">' }), 'a.html': page({ head: '<meta name="robots" content="noindex">' }) });
    const result = await runCli(['build', site, '--base-url', BASE, ...announce], { cwd: site });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no URL to list of 2 pages: 2 of 2 pages excluded: noindex; the previous sitemaps/);
    assert.equal(submissions.length, 1);
  });

  it('says when most pages are left out for one reason, even when some are listed', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, {
      'index.html': page(),
      'a.html': page({ head: '<meta name="robots" content="noindex">' }),
      'b.html': page({ head: '<meta name="robots" content="noindex">' }),
    });
    const result = await runCli(['build', site, '--base-url', BASE], { cwd: site });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\n {2}note: 2 of 3 pages excluded: noindex\n/);
  });

  it('refuses a damaged state file instead of forgetting every lastmod', async () => {
    const site = fixtureSite();
    await build(site, T1);
    writeFileSync(join(site, '.sitemapkit', 'state'), '{"format":"sitemapkit-state","version":1,"pages":[');
    const result = await runCli(['build', site, '--base-url', BASE], { cwd: site });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /the build state .*state cannot be read: it is not valid JSON\. Remove it to start afresh/);
  });

  it('--state /dev/null builds without a state (every page new each run), not "remove /dev/null"', { skip: existsSync('/dev/null') ? false : 'no /dev/null' }, async () => {
    const site = fixtureSite();
    const runs = [await build(site, T1, ['--state', '/dev/null']), await build(site, T1 + 60, ['--state', '/dev/null'])];
    assert.deepEqual(runs.map(({ code, json }) => [code, json.newPages, json.changedPages]), [[0, 12, 0], [0, 12, 0]]);
    assert.deepEqual([existsSync(join(site, 'sitemap.xml')), existsSync(join(site, '.sitemapkit'))], [true, false]);
  });

  it('--state at the index it writes (OUT/sitemap.xml) is refused: the state was renamed over the index, and the published sitemap was JSON', async () => {
    const site = tempDir();
    writeSite(site, { 'index.html': page() });
    await assert.rejects(buildSite({ siteDir: site, baseUrl: BASE, statePath: join(site, 'sitemap.xml'), initialLastmod: 'none', threads: 0 }), {
      code: 'ERR_SITEMAP_OPTION',
      message: `--state ${join(site, 'sitemap.xml')} is the index this build writes; keep the state in another file (default ${join(site, '.sitemapkit', 'state')})`,
    });
    assert.deepEqual(readdirSync(site), ['index.html']);
  });

  it('a state that cannot be saved (--state /proc/nope/state) commits nothing: the set and its state stay as they were, so the next run sees the change', { skip: existsSync('/proc/self') ? false : 'no /proc' }, async () => {
    const site = fixtureSite();
    await build(site, T1);
    const before = readdirSync(site).sort();
    const index = readFileSync(join(site, 'sitemap.xml'), 'utf8');
    writeSite(site, { 'about.html': page({ title: 'About', body: '<p>New.</p>' }) });
    const failed = await runCli(['build', site, '--base-url', BASE, '--state', '/proc/nope/state'], { cwd: site });
    assert.equal(failed.code, 2);
    assert.match(failed.stderr, /cannot write \/proc\/nope\/state: no such file/);
    assert.deepEqual([readdirSync(site).sort(), readFileSync(join(site, 'sitemap.xml'), 'utf8')], [before, index]);
    const { json } = await build(site, T1 + 60);
    assert.deepEqual([json.newPages, json.changedPages], [0, 1]);
  });
});
