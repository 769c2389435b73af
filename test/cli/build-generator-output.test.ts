// `sitemapkit build` on what generators really write (issue 23, "Inputs people already have"): a
// Hugo-like multilingual output (test/fixtures/build/hugo-site: en/ and es/ with hreflang, canonicals
// with a trailing slash, a noindex translation, an untranslated page canonicalised to English, the
// root redirect stub and Hugo's own sitemap.xml index of en/sitemap.xml and es/sitemap.xml).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { page, writeSite } from '../helpers/site.js';
import { xmllint } from '../helpers/xmllint.js';

const BASE = 'https://www.example.com/';
const HUGO = fileURLToPath(new URL('../fixtures/build/hugo-site/', import.meta.url));
const T1 = 1_790_000_000;

interface Problem {
  relPath: string;
  url: string;
  code: string;
  severity: string;
  message: string;
}

/**
 * A fresh copy of the Hugo fixture: the build writes into it. Without `hugoSitemaps`, as Hugo writes
 * it with `disableKinds = ["sitemap"]`: no sitemap of its own.
 */
function hugoSite(hugoSitemaps = true): string {
  const site = tempDir('sitemapkit-build-hugo-');
  cpSync(HUGO, site, { recursive: true });
  if (!hugoSitemaps) for (const file of ['sitemap.xml', 'en/sitemap.xml', 'es/sitemap.xml']) rmSync(join(site, file));
  return site;
}

/** Every file under `dir` with its bytes (base64), for "nothing was written". */
function snapshot(dir: string): Map<string, string> {
  return new Map(
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .sort()
      .map((f) => [f, statSync(join(dir, f)).isFile() ? readFileSync(join(dir, f)).toString('base64') : 'dir']),
  );
}

/** The XML of each child the index in `dir` names, by file name. */
function children(dir: string, index = 'sitemap.xml'): Map<string, string> {
  const out = new Map<string, string>();
  for (const [, loc] of readFileSync(join(dir, index), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const name = (loc as string).slice(BASE.length);
    const bytes = readFileSync(join(dir, name));
    out.set(name, (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
  }
  return out;
}

/** loc → its alternates (`hreflang href`) and images, over the whole set. */
function entries(dir: string): Map<string, { alternates: string[]; images: string[] }> {
  const out = new Map<string, { alternates: string[]; images: string[] }>();
  for (const xml of children(dir).values()) {
    for (const [, body] of xml.matchAll(/<url>(.*?)<\/url>/gs)) {
      const loc = /<loc>([^<]+)<\/loc>/.exec(body as string)?.[1] as string;
      const alternates = [...(body as string).matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
      const images = [...(body as string).matchAll(/<image:loc>([^<]+)<\/image:loc>/g)].map((m) => m[1] as string);
      out.set(loc, { alternates, images });
    }
  }
  return out;
}

/** sitemapkit's own validator over the index and the children beside it: every diagnostic code. */
async function validateSet(dir: string): Promise<string[]> {
  const result = await runCli(['validate', 'sitemap.xml', '--follow', '--location', `${BASE}sitemap.xml`, '--format', 'json', '--now', '2030-01-01'], { cwd: dir });
  const out = JSON.parse(result.stdout) as { files: { file: string; diagnostics: { code: string }[] }[] };
  assert.ok(out.files.length > 1, 'the children were followed');
  return out.files.flatMap((file) => file.diagnostics.map((d) => d.code));
}

async function xmllintSet(dir: string): Promise<void> {
  assert.deepEqual(await xmllint(readFileSync(join(dir, 'sitemap.xml')), 'siteindex'), { valid: true, errors: [] });
  for (const [name, xml] of children(dir)) assert.deepEqual(await xmllint(xml, 'all', name), { valid: true, errors: [] }, name);
}

describe('sitemapkit build on a generator\'s output', () => {
  it('refuses to replace a sitemap.xml another generator wrote: exit 2, the file named, nothing written', async () => {
    const site = hugoSite();
    const before = snapshot(site);
    const result = await runCli(['build', site, '--base-url', BASE], { cwd: site });
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /^sitemapkit build: .*hugo-[^/]*\/sitemap\.xml was not written by sitemapkit build \(a sitemap index of https:\/\/www\.example\.com\/en\/sitemap\.xml, https:\/\/www\.example\.com\/es\/sitemap\.xml\); nothing was written\. .*--name.*--out.*--force\n$/,
    );
    assert.deepEqual(snapshot(site), before);

    // A urlset (Jekyll, Eleventy) is not ours either.
    const jekyll = tempDir('sitemapkit-build-');
    writeSite(jekyll, { 'index.html': page(), 'sitemap.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${BASE}</loc></url></urlset>\n` });
    const refused = await runCli(['build', jekyll, '--base-url', BASE], { cwd: jekyll });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /sitemap\.xml was not written by sitemapkit build \(a sitemap of 1 URL\)/);
    assert.deepEqual(readdirSync(jekyll).sort(), ['index.html', 'sitemap.xml']);

    // Written elsewhere (--name), Hugo's index stays as it was.
    const named = await runCli(['build', site, '--base-url', BASE, '--name', 'sitemapkit'], { cwd: site });
    assert.equal(named.code, 0, named.stderr);
    assert.equal(readFileSync(join(site, 'sitemap.xml'), 'utf8'), readFileSync(join(HUGO, 'sitemap.xml'), 'utf8'));
    assert.ok(existsSync(join(site, 'sitemapkit.xml')));
  });

  it('tells a foreign index whose <loc> holds a long run of white space in its middle in linear time', async () => {
    const site = tempDir('sitemapkit-build-');
    // A <loc> of 60,000 spaces between two characters: each length tried of the loc re-read the run (12 s).
    writeSite(site, { 'index.html': page(), 'sitemap.xml': `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc> ${BASE}a${' '.repeat(60_000)}b </loc></sitemap></sitemapindex>` });
    const started = process.cpuUsage();
    const refused = await runCli(['build', site, '--base-url', BASE], { cwd: site });
    const { user, system } = process.cpuUsage(started);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /was not written by sitemapkit build \(a sitemap index of https:\/\/www\.example\.com\/a {60000}b\)/);
    assert.ok(user + system < 2_000_000, `took ${Math.round((user + system) / 1000)} ms of CPU`);
  });

  it('--force replaces it; afterwards the index is known as ours, by the state or else by its children\'s names', async () => {
    const site = hugoSite();
    const forced = await runCli(['build', site, '--base-url', BASE, '--force'], { cwd: site });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(readFileSync(join(site, 'sitemap.xml'), 'utf8'), /<loc>https:\/\/www\.example\.com\/sitemap-en\.[0-9a-f]{8}\.xml\.gz<\/loc>/);
    // The next build replaces its own index without being told.
    writeFileSync(join(site, 'en/posts/a/index.html'), readFileSync(join(site, 'en/posts/a/index.html'), 'utf8').replace('How we moved.', 'How we moved, again.'));
    const again = await runCli(['build', site, '--base-url', BASE], { cwd: site, env: { SOURCE_DATE_EPOCH: String(T1) } });
    assert.equal(again.code, 0, again.stderr);
    // The state gone (a fresh CI checkout keeps the folder but not the state): the children's names say it is ours.
    rmSync(join(site, '.sitemapkit'), { recursive: true });
    const stateless = await runCli(['build', site, '--base-url', BASE], { cwd: site });
    assert.equal(stateless.code, 0, stateless.stderr);
    // Hugo runs again and writes its index over ours: refused again.
    cpSync(join(HUGO, 'sitemap.xml'), join(site, 'sitemap.xml'));
    assert.equal((await runCli(['build', site, '--base-url', BASE], { cwd: site })).code, 2);
  });

  it('lists the listed pages only, and drops alternates to pages it left out, with a warning naming both', async () => {
    const site = hugoSite(false);
    const result = await runCli(['build', site, '--base-url', BASE, '--images', '--json'], { cwd: site });
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as { problems: Problem[]; excluded: { relPath: string; reason: string }[] };
    const set = entries(site);
    assert.deepEqual([...set.keys()].sort(), [
      `${BASE}en/`,
      `${BASE}en/posts/`,
      `${BASE}en/posts/a/`,
      `${BASE}en/posts/b/`,
      `${BASE}en/posts/c/`,
      `${BASE}es/`,
      `${BASE}es/posts/`,
      `${BASE}es/posts/a/`,
    ]);
    assert.deepEqual(Object.fromEntries(json.excluded.map((e) => [e.relPath, e.reason])), {
      '404.html': 'error-page',
      'index.html': 'redirect',
      'es/posts/b/index.html': 'noindex',
      'es/posts/c/index.html': 'canonical-elsewhere',
    });
    // The noindex translation and the canonicalised one are not named as alternates.
    assert.deepEqual(set.get(`${BASE}en/posts/b/`)?.alternates, [`en ${BASE}en/posts/b/`]);
    assert.deepEqual(set.get(`${BASE}en/posts/c/`)?.alternates, [`en ${BASE}en/posts/c/`]);
    assert.deepEqual(set.get(`${BASE}en/posts/a/`)?.alternates, [`en ${BASE}en/posts/a/`, `es ${BASE}es/posts/a/`]);
    assert.deepEqual(
      json.problems.map((p) => [p.relPath, p.code, p.severity]),
      [
        ['en/posts/b/index.html', 'build/alternate-left-out', 'warning'],
        ['en/posts/c/index.html', 'build/alternate-left-out', 'warning'],
      ],
    );
    assert.equal(json.problems[0]?.message, `hreflang="es" alternate ${BASE}es/posts/b/ dropped: es/posts/b/index.html is not listed (noindex)`);
    assert.equal(json.problems[1]?.message, `hreflang="es" alternate ${BASE}es/posts/c/ dropped: es/posts/c/index.html is not listed (canonical-elsewhere)`);
    // Relative images are the page folder's files.
    assert.deepEqual(set.get(`${BASE}es/posts/a/`)?.images, [`${BASE}es/posts/a/cover.png`]);

    const codes = await validateSet(site);
    assert.ok(!codes.includes('hreflang/missing-self'), codes.join(', '));
    assert.ok(!codes.some((code) => code.startsWith('loc/') || code.startsWith('xml/')), codes.join(', '));
    await xmllintSet(site);

    // In words: one line per warning on stderr, and the exit status stays 0.
    const human = await runCli(['build', site, '--base-url', BASE], { cwd: site });
    assert.equal(human.code, 0);
    assert.match(human.stderr, /^en\/posts\/b\/index\.html: warning build\/alternate-left-out hreflang="es" alternate https:\/\/www\.example\.com\/es\/posts\/b\/ dropped: es\/posts\/b\/index\.html is not listed \(noindex\)$/m);
  });

  it('--trailing-slash never: every URL it writes takes that form, and each page whose canonical says otherwise is reported', async () => {
    const site = hugoSite(false);
    const result = await runCli(['build', site, '--base-url', BASE, '--images', '--trailing-slash', 'never', '--json'], { cwd: site });
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as { problems: Problem[] };
    // The symptom reported: sitemapkit's validator found every <url> without itself among its alternates.
    const codes = await validateSet(site);
    assert.ok(!codes.includes('hreflang/missing-self'), codes.join(', '));
    await xmllintSet(site);
    const set = entries(site);
    assert.deepEqual([...set.keys()].sort(), [`${BASE}en`, `${BASE}en/posts`, `${BASE}en/posts/a`, `${BASE}en/posts/b`, `${BASE}en/posts/c`, `${BASE}es`, `${BASE}es/posts`, `${BASE}es/posts/a`]);
    // The alternates name the listed URLs (the pages wrote `/es/posts/a/`), the page itself included.
    assert.deepEqual(set.get(`${BASE}en/posts/a`)?.alternates, [`en ${BASE}en/posts/a`, `es ${BASE}es/posts/a`]);
    assert.deepEqual(set.get(`${BASE}es`)?.alternates, [`en ${BASE}en`, `es ${BASE}es`]);
    // A relative image of posts/a/index.html is posts/a/cover.png, not posts/cover.png.
    assert.deepEqual(set.get(`${BASE}en/posts/a`)?.images, [`${BASE}en/posts/a/cover.png`]);

    const contradictions = json.problems.filter((p) => p.code === 'build/loc-not-canonical');
    assert.equal(contradictions.length, 8);
    const a = contradictions.find((p) => p.relPath === 'en/posts/a/index.html');
    assert.deepEqual(a, {
      relPath: 'en/posts/a/index.html',
      url: `${BASE}en/posts/a`,
      code: 'build/loc-not-canonical',
      severity: 'warning',
      message: `listed as ${BASE}en/posts/a, but the page's canonical is ${BASE}en/posts/a/; make --trailing-slash and --clean-urls match the site's canonical URLs`,
    });

    // On a terminal: the first five, then a count (over the site: each page has one of its own).
    const human = await runCli(['build', site, '--base-url', BASE, '--trailing-slash', 'never'], { cwd: site, tty: true, columns: 200 });
    assert.equal(human.code, 0);
    assert.equal(human.stderr.match(/: warning build\/loc-not-canonical /g)?.length, 5, human.stderr);
    assert.match(human.stderr, /^\u2026 and 3 more: build\/loc-not-canonical; -v or --json lists them$/m);
    assert.match(human.stdout, /^ {2}warnings: 8 build\/loc-not-canonical, 2 build\/alternate-left-out \(on standard error; docs\/rules\.md says what to do\)$/m);
    const verbose = await runCli(['build', site, '--base-url', BASE, '--trailing-slash', 'never', '-v'], { cwd: site, tty: true, columns: 200 });
    assert.equal(verbose.stderr.match(/: warning build\/loc-not-canonical /g)?.length, 8);
    // A pipe or a file gets every one.
    const piped = await runCli(['build', site, '--base-url', BASE, '--trailing-slash', 'never'], { cwd: site });
    assert.equal(piped.stderr.match(/^[^\n]*: warning build\/loc-not-canonical /gm)?.length, 8);
  });

  it('an alternate under the base URL that no page serves is dropped; one on another site is kept as written', async () => {
    const site = tempDir('sitemapkit-build-');
    writeSite(site, {
      'posts/a/index.html': page({
        head: [
          '<link rel="alternate" hreflang="en" href="/posts/a/">',
          '<link rel="alternate" hreflang="fr" href="/fr/posts/a/">',
          '<link rel="alternate" hreflang="de" href="https://www.example.de/posts/a/">',
        ].join(''),
      }),
    });
    const result = await runCli(['build', site, '--base-url', BASE, '--json'], { cwd: site });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(entries(site).get(`${BASE}posts/a/`)?.alternates, [`en ${BASE}posts/a/`, 'de https://www.example.de/posts/a/']);
    const json = JSON.parse(result.stdout) as { problems: Problem[] };
    assert.deepEqual(json.problems.map((p) => [p.relPath, p.code, p.message]), [
      ['posts/a/index.html', 'build/alternate-not-built', `hreflang="fr" alternate ${BASE}fr/posts/a/ dropped: no page of the site folder is served at it`],
    ]);
  });

  describe('lastmod from sources', () => {
    const gitEnv = (date: string) => ({ ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' });

    /** A repository with content/ committed and public/ (the generator's output) git-ignored. */
    function repository(): { repo: string; site: string; git: (args: string[], date: string) => void } {
      const repo = tempDir('sitemapkit-build-git-');
      writeSite(repo, {
        '.gitignore': 'public/\n',
        'content/posts/a.md': '# A',
        'content/posts/b.md': '# B',
        'public/posts/a/index.html': page({ title: 'A' }),
        'public/posts/b/index.html': page({ title: 'B' }),
        'source-map.json': JSON.stringify({ 'posts/a/index.html': 'content/posts/a.md', 'posts/b/index.html': 'content/posts/b.md' }),
      });
      const git = (args: string[], date: string) => void execFileSync('git', args, { cwd: repo, env: gitEnv(date) });
      git(['init', '-q'], '2024-01-01T00:00:00Z');
      git(['add', '.gitignore', 'content', 'source-map.json'], '2024-01-01T00:00:00Z');
      git(['commit', '-qm', 'one'], '2024-01-02T03:04:05Z');
      return { repo, site: join(repo, 'public'), git };
    }

    it('the "no git history" note names the ways out', async () => {
      const { repo, site } = repository();
      const result = await runCli(['build', site, '--base-url', BASE], { cwd: repo });
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        /^sitemapkit build: note: 2 pages seen for the first time have no git history \(untracked, never committed, or older than a shallow clone's history; a generator's output folder is usually git-ignored\): no lastmod; map the pages to their sources in the repository with --source-map FILE, or date them with --initial-lastmod mtime or now$/m,
      );
      const outside = tempDir('sitemapkit-build-');
      writeSite(outside, { 'index.html': page() });
      const none = await runCli(['build', outside, '--base-url', BASE], { cwd: outside });
      assert.match(none.stderr, /is not in a git repository: pages seen for the first time have no lastmod; map the pages to their sources in the repository with --source-map FILE, or date them with --initial-lastmod mtime or now/);
    });

    it('with --source-map, a changed page takes its source\'s commit date, not the build time', async () => {
      const { repo, site, git } = repository();
      const build = (epoch: number) =>
        runCli(['build', site, '--base-url', BASE, '--source-map', 'source-map.json', '--json'], { cwd: repo, env: { SOURCE_DATE_EPOCH: String(epoch) } });
      const lastmods = () => {
        const out = new Map<string, string | undefined>();
        for (const xml of children(site).values()) {
          for (const [, body] of xml.matchAll(/<url>(.*?)<\/url>/gs)) out.set(/<loc>([^<]+)</.exec(body as string)?.[1] as string, /<lastmod>([^<]+)</.exec(body as string)?.[1]);
        }
        return out;
      };
      const first = await build(T1);
      assert.equal(first.code, 0, first.stderr);
      assert.equal(lastmods().get(`${BASE}posts/a/`), '2024-01-02T03:04:05Z');

      // The author edits a.md and commits; the generator rebuilds public/ later (CI).
      writeFileSync(join(repo, 'content/posts/a.md'), '# A, edited');
      git(['commit', '-qam', 'two'], '2024-02-03T04:05:06Z');
      writeSite(site, { 'posts/a/index.html': page({ title: 'A', body: '<p>Edited.</p>' }) });
      const second = await build(T1 + 86_400);
      assert.equal(second.code, 0, second.stderr);
      assert.equal(JSON.parse(second.stdout).changedPages, 1);
      assert.equal(lastmods().get(`${BASE}posts/a/`), '2024-02-03T04:05:06Z');
      assert.equal(lastmods().get(`${BASE}posts/b/`), '2024-01-02T03:04:05Z');

      // A change that did not come from b.md (a template): its source says nothing new, so the build time.
      writeSite(site, { 'posts/b/index.html': page({ title: 'B', body: '<p>New footer.</p>' }) });
      const third = await build(T1 + 2 * 86_400);
      assert.equal(third.code, 0, third.stderr);
      assert.equal(lastmods().get(`${BASE}posts/b/`), new Date((T1 + 2 * 86_400) * 1000).toISOString().replace('.000Z', 'Z'));
      assert.equal(lastmods().get(`${BASE}posts/a/`), '2024-02-03T04:05:06Z');
    });

    it('--source-map takes rules too: the first whose source exists (a Hugo page or a page bundle)', async () => {
      const { repo, site, git } = repository();
      writeSite(repo, { 'content/posts/c/index.md': '# C, a bundle', 'public/posts/c/index.html': page({ title: 'C' }) });
      git(['add', 'content/posts/c/index.md'], '2024-03-01T00:00:00Z');
      git(['commit', '-qm', 'three'], '2024-03-04T05:06:07Z');
      const rules = ['--source-map', 'posts/*/index.html=content/posts/*.md', '--source-map', 'posts/*/index.html=content/posts/*/index.md'];
      const result = await runCli(['build', site, '--base-url', BASE, ...rules], { cwd: repo, env: { SOURCE_DATE_EPOCH: String(T1) } });
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stderr, /no git history/);
      const index = children(site);
      const all = [...index.values()].join('');
      assert.match(all, /<loc>https:\/\/www\.example\.com\/posts\/a\/<\/loc><lastmod>2024-01-02T03:04:05Z<\/lastmod>/);
      assert.match(all, /<loc>https:\/\/www\.example\.com\/posts\/c\/<\/loc><lastmod>2024-03-04T05:06:07Z<\/lastmod>/);

      const bad = await runCli(['build', site, '--base-url', BASE, '--source-map', 'posts/*/index.html=content/posts/a.md'], { cwd: repo });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--source-map "posts\/\*\/index\.html=content\/posts\/a\.md": put one \* on each side of =, or none/);
    });
  });
});
