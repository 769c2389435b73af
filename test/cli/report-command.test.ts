// `sitemapkit report SOURCE...` (issue 26): one HTML file whose model and rows hold what the source
// holds (counts equal the reader's and validate's), with --compare's changes; written whole or not at
// all; exit 0 clean, 1 the set has errors, 2 usage or an unreadable source; --open opens it.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ReportModel } from '../../src/core/report/model.js';
import { readSitemap } from '../../src/node/parse-sitemap.js';
import { browserCommands, runReport } from '../../src/cli/commands/report.js';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS, filesUnder } from '../helpers/files.js';
import { startSiteServer, type Route } from '../helpers/site-server.js';
import { tempDir } from '../helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SITE = 'https://www.example.com';
const urlset = (urls: readonly string[]): string => `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
const url = (path: string, inner = ''): string => `<url><loc>${SITE}${path}</loc>${inner}</url>`;
const index = (children: readonly string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${children.map((c) => `<sitemap><loc>${c}</loc><lastmod>2024-05-01</lastmod></sitemap>`).join('\n')}\n</sitemapindex>\n`;

/** What a report file holds: the embedded model, and the rows (base64 of gzipped TSV lines) split into fields. */
function readReport(path: string): { model: ReportModel; rows: string[][]; html: string } {
  const html = readFileSync(path, 'utf8');
  const model = /<script type="application\/json" id="sitemapkit-model">([^<]*)<\/script>/.exec(html);
  const rows = /<script type="application\/gzip" id="sitemapkit-rows">([A-Za-z0-9+/=]*)<\/script>/.exec(html);
  assert.ok(model !== null && rows !== null, 'the model and rows elements are there');
  const lines = gunzipSync(Buffer.from(rows[1] as string, 'base64')).toString('utf8').split('\n');
  assert.equal(lines.pop(), '', 'every row ends with a line feed');
  return { model: JSON.parse(model[1] as string) as ReportModel, rows: lines.map((l) => l.split('\t')), html };
}

/** Every URL of a file as the reader gives it. */
async function locs(path: string): Promise<string[]> {
  const out: string[] = [];
  await readSitemap(path, { onUrl: (e) => out.push(e.loc) });
  return out;
}

describe('sitemapkit report', () => {
  it('reports a set written by generate: counts, rows and file facts equal the files\'', async () => {
    const dir = tempDir();
    const list = Array.from({ length: 2_500 }, (_, i) => `${SITE}/${['blog', 'shop', 'help'][i % 3]}/page-${i}`).join('\n');
    writeFileSync(join(dir, 'urls.txt'), `${list}\n`);
    assert.equal((await runCli(['generate', 'urls.txt', '--base-url', `${SITE}/`, '--out', 'set', '--max-urls', '1000', '-q'], { cwd: dir })).code, 0);
    const result = await runCli(['report', 'set', '--out', 'out/report.html'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Wrote out\/report.html: 4 files, 2,500 URLs, 0 errors, 0 warnings/, 'the path as typed, not the absolute one');
    const { model, rows, html } = readReport(join(dir, 'out/report.html'));
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
    const children = readdirSync(join(dir, 'set')).filter((n) => n.endsWith('.xml.gz')).sort();
    assert.equal(children.length, 3);
    const expected: string[] = [];
    for (const child of children) expected.push(...(await locs(join(dir, 'set', child))));
    assert.deepEqual(rows.map((r) => r[0]), expected, 'every URL, in set order');
    assert.equal(model.summary.urls, 2_500);
    assert.equal(model.summary.distinctUrls, 2_500);
    assert.equal(model.summary.schema, 'valid');
    assert.equal(model.summary.largestFileUrls, 1_000);
    assert.deepEqual(model.files.map((f) => [f.name, f.kind, f.parent, f.entries]), [
      [join('set', 'sitemap.xml'), 'sitemapindex', -1, 3],
      ...children.map((c, i) => [join('set', c), 'urlset', 0, i < 2 ? 1_000 : 500]),
    ]);
    for (const file of model.files.slice(1)) {
      const bytes = readFileSync(join(dir, file.name));
      assert.equal(file.bytes, bytes.length);
      assert.equal(file.plainBytes, gunzipSync(bytes).length);
      assert.equal(file.gzipped, true);
    }
    assert.equal(model.summary.bytes, model.files.reduce((sum, f) => sum + statSync(join(dir, f.name)).size, 0));
    assert.deepEqual(model.directories.map((d) => d.urls).sort(), [833, 833, 834]);
    assert.deepEqual(readdirSync(join(dir, 'out')), ['report.html'], 'nothing else left beside it');
  });

  it('counts what the reader reads and what validate finds, file by file over the corpus; exit 1 where validate exits 1', async () => {
    const dir = tempDir();
    const files = filesUnder([join(CORPUS, 'urlset'), join(CORPUS, 'ext-image'), join(CORPUS, 'ext-hreflang'), join(CORPUS, 'ext-news'), join(CORPUS, 'ext-video'), join(CORPUS, 'malformed')], /\.xml$/);
    assert.ok(files.length >= 10, 'the corpus is there');
    for (const file of files) {
      const validated = await runCli(['validate', file, '--format', 'json', '--now', '2025-01-01'], { cwd: dir });
      const report = await runCli(['report', file, '--out', 'r.html', '--now', '2025-01-01'], { cwd: dir });
      if (validated.code === 2) {
        assert.equal(report.code, 2, file);
        continue;
      }
      const { model, rows } = readReport(join(dir, 'r.html'));
      const { summary } = JSON.parse(validated.stdout) as { summary: { errors: number; warnings: number } };
      const root = model.files[0];
      assert.deepEqual([root?.errors, root?.warnings], [summary.errors, summary.warnings], file);
      // An index's children are read too (validate reads them with --follow): they are not on disk here.
      if (root?.kind === 'sitemapindex') continue;
      assert.equal(report.code, validated.code, `${file}: ${report.stderr}`);
      const expected = await locs(file);
      assert.equal(model.summary.urls, expected.length, file);
      assert.deepEqual(rows.map((r) => r[0]), expected, file);
      assert.deepEqual([model.summary.errors, model.summary.warnings], [summary.errors, summary.warnings], file);
      assert.equal(model.problems.reduce((sum, p) => sum + (p.severity === 'error' ? p.count : 0), 0), summary.errors, `${file}: problems by code add up`);
    }
  });

  it('finds duplicates within and across files, and marks their rows', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.xml'), urlset([url('/x'), url('/y'), url('/x')]));
    writeFileSync(join(dir, 'b.xml.gz'), gzipSync(urlset([url('/y'), url('/z')])));
    writeFileSync(join(dir, 'sitemap.xml'), index([`${SITE}/a.xml`, `${SITE}/b.xml.gz`]));
    const result = await runCli(['report', '.', '--out', 'r.html'], { cwd: dir });
    const { model, rows } = readReport(join(dir, 'r.html'));
    assert.equal(model.summary.urls, 5);
    assert.equal(model.summary.distinctUrls, 3);
    assert.equal(model.duplicates.count, 2);
    assert.equal(model.duplicates.inSeveralFiles, 1);
    assert.deepEqual(model.duplicates.examples, [{ loc: `${SITE}/x`, files: ['a.xml'] }, { loc: `${SITE}/y`, files: ['a.xml', 'b.xml.gz'] }]);
    // The repeat within a.xml is a validate warning (loc/duplicate) too.
    assert.deepEqual(rows.map((r) => r[7]), ['', '', 'dw', 'd', '']);
    assert.equal(model.files[0]?.kind, 'sitemapindex');
    assert.equal(model.files[2]?.indexLastmod, '2024-05-01');
    assert.equal(result.code, 0, 'warnings only');
  });

  it('reads each file of a set once, as validate --follow does: a child listed again, or the index listing itself, is not read (nor counted) again', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.xml'), urlset([url('/x'), url('/y')]));
    writeFileSync(join(dir, 'sitemap.xml'), index([`${SITE}/a.xml`, `${SITE}/sitemap.xml`, `${SITE}/a.xml`]));
    const result = await runCli(['report', '.', '--out', 'r.html'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const { model } = readReport(join(dir, 'r.html'));
    assert.deepEqual(model.files.map((f) => [f.name, f.kind, f.entries]), [['sitemap.xml', 'sitemapindex', 3], ['a.xml', 'urlset', 2]]);
    assert.deepEqual([model.summary.urls, model.duplicates.count, model.duplicates.inSeveralFiles], [2, 0, 0]);
    const validated = await runCli(['validate', 'sitemap.xml', '--follow', '--format', 'json'], { cwd: dir });
    const problems = (JSON.parse(validated.stdout) as { files: { diagnostics: { code: string }[] }[] }).files.flatMap((f) => f.diagnostics.map((d) => d.code));
    assert.deepEqual(model.problems.map((p) => [p.code, p.count]), [...new Set(problems)].sort().map((code) => [code, problems.filter((c) => c === code).length]), 'the problems validate --follow finds: the repeat, the nested index');
    assert.deepEqual([model.summary.errors, model.summary.warnings], [0, problems.length]);
    // Its own URL known (--base-url): the index's validation finds it listing itself too; counted once.
    assert.equal((await runCli(['report', '.', '--out', 'r.html', '--base-url', `${SITE}/sitemap.xml`], { cwd: dir })).code, 0);
    assert.deepEqual(readReport(join(dir, 'r.html')).model.problems.map((p) => [p.code, p.count]), model.problems.map((p) => [p.code, p.count]));
    // Across sources too: a file given twice, or given beside the index that lists it (report out/*).
    for (const sources of [['a.xml', 'sitemap.xml'], ['a.xml', './a.xml']]) {
      assert.equal((await runCli(['report', ...sources, '--out', 'r.html'], { cwd: dir })).code, 0, sources.join(' '));
      const { model: again } = readReport(join(dir, 'r.html'));
      assert.deepEqual([again.files.map((f) => f.name), again.summary.urls, again.duplicates.count], [[...new Set(sources.map((s) => s.replace('./', '')))], 2, 0], sources.join(' '));
    }
  });

  it('reads at most 50,000 children of an index (the most one may list), as discover does; the rest are reported, not read', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.xml'), urlset([url('/x')]));
    writeFileSync(join(dir, 'b.xml'), urlset([url('/y')]));
    writeFileSync(join(dir, 'sitemap.xml'), index([...Array.from({ length: 50_000 }, () => `${SITE}/a.xml`), `${SITE}/b.xml`]));
    const result = await runCli(['report', '.', '--out', 'r.html'], { cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    const { model } = readReport(join(dir, 'r.html'));
    assert.deepEqual(model.files.map((f) => f.name), ['sitemap.xml', 'a.xml'], 'b.xml, the 50,001st, is not read');
    const walk = model.problems.find((p) => p.code === 'discover/too-many-sitemaps');
    assert.deepEqual([walk?.count, walk?.examples[0]?.file, walk?.examples[0]?.line], [1, 'sitemap.xml', 50_003]);
    assert.match(walk?.examples[0]?.message ?? '', /^more than 50000 sitemaps; the rest \(1\) are not read/);
    assert.equal(model.problems.find((p) => p.code === 'limits/too-many-sitemaps')?.count, 1, 'validate\'s finding, beside it');
    assert.deepEqual([model.files[0]?.errors, model.summary.errors], [2, 2], 'both count for the index, and in the summary');
  });

  it('takes validate\'s settings: --rule, --base-url, the config file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 's.xml'), urlset([url('/x'), url('/x')]));
    const problems = async (...argv: string[]): Promise<[number, string[]]> => {
      const result = await runCli(['report', 's.xml', '--out', 'r.html', ...argv], { cwd: dir });
      return [result.code, readReport(join(dir, 'r.html')).model.problems.map((p) => `${p.code} ${p.severity} ${p.count}`)];
    };
    assert.deepEqual(await problems(), [0, ['loc/duplicate warning 1']]);
    assert.deepEqual(await problems('--rule', 'loc/duplicate=off'), [0, []]);
    assert.deepEqual(await problems('--rule', 'loc/duplicate=error'), [1, ['loc/duplicate error 1']]);
    const one = await runCli(['report', 's.xml', '--out', 'r.html', '--rule', 'loc/duplicate=error'], { cwd: dir });
    assert.match(one.stdout, /^Wrote r\.html: 1 file, 2 URLs, 1 error, 0 warnings /, 'one error, in the singular');
    assert.deepEqual(await problems('--base-url', 'https://elsewhere.example/'), [1, ['loc/out-of-scope error 2', 'loc/duplicate warning 1']]);
    writeFileSync(join(dir, 'sitemapkit.config.json'), JSON.stringify({ rules: { 'loc/duplicate': 'off' } }));
    assert.deepEqual(await problems(), [0, []]);
    assert.equal((await runCli(['report', 's.xml', '--rule', 'no/such-rule=off'], { cwd: dir })).code, 2);
  });

  it('--compare: URLs added, removed and changed, per file of the new set', async () => {
    const dir = tempDir();
    for (const [name, a, b] of [['old', [url('/same'), url('/gone'), url('/moved', '<lastmod>2024-01-01</lastmod>')], [url('/kept')]], ['new', [url('/same'), url('/moved', '<lastmod>2024-02-01</lastmod>'), url('/new-1')], [url('/kept', '<priority>0.5</priority>'), url('/new-2')]]] as const) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'one.xml'), urlset(a));
      writeFileSync(join(dir, name, 'two.xml'), urlset(b));
      writeFileSync(join(dir, name, 'sitemap.xml'), index([`${SITE}/one.xml`, `${SITE}/two.xml`]));
    }
    const result = await runCli(['report', 'new', '--compare', 'old', '--out', 'r.html'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const compare = readReport(join(dir, 'r.html')).model.compare;
    assert.ok(compare !== undefined);
    assert.deepEqual([compare.previous, compare.added, compare.removed, compare.changed], ['old', 2, 1, 2]);
    assert.deepEqual(compare.perFile.sort((a, b) => (a.file < b.file ? -1 : 1)), [
      { file: join('new', 'one.xml'), added: 1, removed: 1, changed: 1 },
      { file: join('new', 'two.xml'), added: 1, removed: 0, changed: 1 },
    ]);
    assert.deepEqual(compare.examples.map((e) => [e.kind, e.loc.slice(SITE.length), e.fields]), [
      ['changed', '/moved', ['lastmod']], ['added', '/new-1', undefined], ['changed', '/kept', ['priority']], ['added', '/new-2', undefined], ['removed', '/gone', undefined],
    ]);
  });

  it('--compare: a file and its .gz twin are one file; a removed URL is counted under the new set\'s file even where nothing else changed', async () => {
    const dir = tempDir();
    for (const [name, gz, one, two] of [['old', '.gz', [url('/same'), url('/gone')], [url('/kept'), url('/gone-2')]], ['new', '', [url('/same'), url('/new')], [url('/kept')]]] as const) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, `one.xml${gz}`), gz === '' ? urlset(one) : gzipSync(urlset(one)));
      writeFileSync(join(dir, name, 'two.xml'), urlset(two));
      writeFileSync(join(dir, name, 'sitemap.xml'), index([`${SITE}/one.xml${gz}`, `${SITE}/two.xml`]));
    }
    const result = await runCli(['report', 'new', '--compare', 'old', '--out', 'r.html'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const compare = readReport(join(dir, 'r.html')).model.compare;
    assert.ok(compare !== undefined);
    assert.deepEqual(compare.perFile, [
      { file: join('new', 'one.xml'), added: 1, removed: 1, changed: 0 },
      { file: join('new', 'two.xml'), added: 0, removed: 1, changed: 0 },
    ]);
    assert.deepEqual(compare.examples.filter((e) => e.kind === 'removed').map((e) => e.file), [join('new', 'one.xml'), join('new', 'two.xml')]);
  });

  it('--compare: a removed URL is counted under the new set\'s file at its place under the set\'s folder, not another folder\'s file of that name', async () => {
    const dir = tempDir();
    for (const [name, en, de] of [['old', [url('/en/a'), url('/en/gone')], [url('/de/a')]], ['new', [url('/en/a')], [url('/de/a'), url('/de/new')]]] as const) {
      for (const [lang, urls] of [['en', en], ['de', de]] as const) {
        mkdirSync(join(dir, name, lang), { recursive: true });
        writeFileSync(join(dir, name, lang, 'sitemap.xml'), urlset(urls));
      }
      writeFileSync(join(dir, name, 'sitemap.xml'), index([`${SITE}/en/sitemap.xml`, `${SITE}/de/sitemap.xml`]));
    }
    const result = await runCli(['report', 'new', '--compare', 'old', '--out', 'r.html'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const compare = readReport(join(dir, 'r.html')).model.compare;
    assert.deepEqual(compare?.perFile.sort((a, b) => (a.file < b.file ? -1 : 1)), [
      { file: join('new', 'de', 'sitemap.xml'), added: 1, removed: 0, changed: 0 },
      { file: join('new', 'en', 'sitemap.xml'), added: 0, removed: 1, changed: 0 },
    ]);
  });

  it('--compare: a child missing from either set is a problem of the report, as without --compare, and the comparison goes on', async () => {
    const dir = tempDir();
    for (const [name, one, two] of [['old', [url('/same'), url('/gone')], undefined], ['new', [url('/same')], [url('/kept')]], ['full', [url('/same'), url('/gone')], [url('/kept')]]] as const) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'one.xml'), urlset(one));
      if (two !== undefined) writeFileSync(join(dir, name, 'two.xml'), urlset(two));
      writeFileSync(join(dir, name, 'sitemap.xml'), index([`${SITE}/one.xml`, `${SITE}/two.xml`]));
    }
    const outcome = async (args: string[]): Promise<unknown[]> => {
      const result = await runCli(['report', ...args, '--out', 'r.html'], { cwd: dir });
      const { model } = readReport(join(dir, 'r.html'));
      const unreadable = model.problems.filter((p) => p.code === 'input/unreadable');
      return [result.code, model.summary.errors, unreadable.flatMap((p) => p.examples.map((e) => e.file)), model.compare === undefined ? undefined : [model.compare.added, model.compare.removed]];
    };
    // The previous version misses two.xml: its URLs are added, and the missing file is a problem.
    assert.deepEqual(await outcome(['new', '--compare', 'old']), [1, 1, [`${SITE}/two.xml`], [1, 1]]);
    // The new set misses it: reported once, as without --compare; its URLs are removed.
    assert.deepEqual(await outcome(['old']), [1, 1, [`${SITE}/two.xml`], undefined]);
    assert.deepEqual(await outcome(['old', '--compare', 'full']), [1, 1, [`${SITE}/two.xml`], [0, 1]]);
    // Missing from both, under one name: the previous version's is no error of the set's file.
    assert.deepEqual(await outcome(['old', '--compare', 'old']), [1, 2, [`${SITE}/two.xml`, `${SITE}/two.xml`], [0, 0]]);
    assert.deepEqual(readReport(join(dir, 'r.html')).model.files.map((f) => f.errors), [0, 0, 1]);
  });

  it('--compare: a source whose format cannot be told is its problem, as without --compare; a previous version so is unreadable (exit 2)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'old.xml'), urlset([url('/a'), url('/b')]));
    writeFileSync(join(dir, 'cut.xml.gz'), gzipSync(urlset([url('/a')])).subarray(0, 12));
    const alone = await runCli(['report', 'cut.xml.gz', '--out', 'alone.html'], { cwd: dir });
    const compared = await runCli(['report', 'cut.xml.gz', '--compare', 'old.xml', '--out', 'r.html'], { cwd: dir });
    assert.equal(alone.code, 1, alone.stderr);
    assert.equal(compared.code, 1, compared.stderr);
    const { model } = readReport(join(dir, 'r.html'));
    assert.deepEqual(model.problems, readReport(join(dir, 'alone.html')).model.problems);
    assert.deepEqual([model.compare?.added, model.compare?.removed], [0, 2]);
    const previous = await runCli(['report', 'old.xml', '--compare', 'cut.xml.gz', '--out', 'r.html'], { cwd: dir });
    assert.equal(previous.code, 2);
    assert.match(previous.stderr, /cut\.xml\.gz is not a sitemap/);
  });

  it('--compare: a previous version not read whole (a truncated gzip) is an error of the report, not URLs silently taken as added', async () => {
    const dir = tempDir();
    const many = urlset(Array.from({ length: 2000 }, (_, i) => url(`/p${i}`)));
    writeFileSync(join(dir, 'new.xml'), many);
    const gzipped = gzipSync(many);
    writeFileSync(join(dir, 'cut.xml.gz'), gzipped.subarray(0, gzipped.length >> 1));
    const result = await runCli(['report', 'new.xml', '--compare', 'cut.xml.gz', '--out', 'r.html'], { cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    const { model } = readReport(join(dir, 'r.html'));
    assert.equal(model.summary.errors, 1);
    assert.deepEqual(model.problems.map((p) => [p.code, p.examples.map((e) => e.file)]), [['gzip/corrupt', ['cut.xml.gz']]]);
  });

  it('reads a served set: the HTTP answer of each file; a child that cannot be fetched is a problem, not a failure', async () => {
    const server = await startSiteServer({});
    try {
      server.route('/sitemap.xml', { body: index([server.url('/a.xml'), server.url('/missing.xml')]), headers: { etag: '"v1"', 'last-modified': 'Wed, 01 May 2024 00:00:00 GMT' } });
      server.route('/a.xml', { body: urlset([`<url><loc>${server.url('/p')}</loc></url>`]) });
      const dir = tempDir();
      const result = await runCli(['report', server.url('/sitemap.xml'), '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      const { model } = readReport(join(dir, 'r.html'));
      assert.deepEqual(model.files.map((f) => [f.name, f.http?.status, f.errors]), [[server.url('/sitemap.xml'), 200, 0], [server.url('/a.xml'), 200, 0], [server.url('/missing.xml'), undefined, 1]]);
      assert.equal(model.files[0]?.http?.etag, '"v1"');
      assert.equal(model.files[0]?.http?.lastModified, 'Wed, 01 May 2024 00:00:00 GMT');
      assert.deepEqual(model.problems.map((p) => [p.code, p.count]), [['input/unreadable', 1]]);
    } finally {
      await server.close();
    }
  });

  it('a served index whose children are gzipped: each child is gzipped, its stored and plain sizes, however its bytes arrive', async () => {
    const server = await startSiteServer({});
    try {
      const gz = gzipSync(urlset([url('/a'), url('/b')]));
      server.route('/sitemap.xml', { body: index([server.url('/whole.xml.gz'), server.url('/pieces.xml.gz')]) });
      server.route('/whole.xml.gz', { body: gz, type: 'application/gzip' });
      // The first byte alone, then the rest: the magic number (1f 8b) spans two chunks.
      server.route('/pieces.xml.gz', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/gzip' });
        res.write(gz.subarray(0, 1));
        setTimeout(() => res.end(gz.subarray(1)), 50);
      });
      const dir = tempDir();
      const result = await runCli(['report', server.url('/sitemap.xml'), '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      const { model } = readReport(join(dir, 'r.html'));
      assert.deepEqual(model.files.slice(1).map((f) => [f.kind, f.gzipped, f.bytes, f.entries]), [['urlset', true, gz.byteLength, 2], ['urlset', true, gz.byteLength, 2]]);
    } finally {
      await server.close();
    }
  });

  it('a child cut short is one file of the report, unreadable, with what was read of it and the problems found before the cut', async () => {
    const server = await startSiteServer({});
    try {
      // Several chunks of URLs (the first with a problem), then the body stops in its middle.
      const partial = urlset([`<url><loc>${server.url('/q')}</loc><priority>2</priority></url>`, ...Array.from({ length: 3_000 }, (_, i) => `<url><loc>${server.url(`/p${i}`)}</loc></url>`)]).replace('</urlset>', '<url><loc>');
      server.route('/sitemap.xml', { body: index([server.url('/cut.xml'), server.url('/b.xml')]) });
      server.route('/cut.xml', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(partial) + 1_000 });
        res.write(partial, () => setTimeout(() => res.destroy(), 50));
      });
      server.route('/b.xml', { body: urlset([`<url><loc>${server.url('/b')}</loc></url>`]) });
      const dir = tempDir();
      const result = await runCli(['report', server.url('/sitemap.xml'), '--out', 'r.html', '--allow-private'], { cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      const { model, rows } = readReport(join(dir, 'r.html'));
      const cut = rows.filter((r) => r[2] === '1').length;
      assert.ok(cut > 0, 'URLs were read before the cut');
      assert.deepEqual(model.files.map((f) => [f.name, f.entries, f.errors]), [[server.url('/sitemap.xml'), 2, 0], [server.url('/cut.xml'), cut, 2], [server.url('/b.xml'), 1, 0]]);
      assert.deepEqual(model.problems.map((p) => [p.code, p.count]).sort(), [['input/unreadable', 1], ['priority/out-of-range', 1]]);
      assert.equal(model.summary.errors, 2);
      assert.deepEqual(rows.at(-1)?.slice(0, 3), [server.url('/b'), '', '2']);
    } finally {
      await server.close();
    }
  });

  it('a run that fails leaves no report, and the one before in place', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'r.html'), 'the previous report');
    const missing = await runCli(['report', 'nowhere.xml', '--out', 'r.html'], { cwd: dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nowhere\.xml/);
    mkdirSync(join(dir, 'empty'));
    const noSet = await runCli(['report', 'empty', '--out', 'r.html'], { cwd: dir });
    assert.equal(noSet.code, 2);
    assert.match(noSet.stderr, /a directory without a sitemap\.xml/);
    assert.equal(readFileSync(join(dir, 'r.html'), 'utf8'), 'the previous report');
    assert.deepEqual(readdirSync(dir).sort(), ['empty', 'r.html']);
    writeFileSync(join(dir, 'empty', 'a.xml'), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>');
    const intoFolder = await runCli(['report', 'empty/a.xml', '--out', 'empty'], { cwd: dir });
    assert.equal(intoFolder.code, 2);
    assert.match(intoFolder.stderr, /cannot write the report to .*empty: it is a directory/);
    assert.deepEqual(readdirSync(join(dir, 'empty')), ['a.xml']);
    // --out naming a file it reports on (by a slip) would replace a sitemap with the page.
    writeFileSync(join(dir, 'empty', 'sitemap.xml'), index([`${SITE}/a.xml`]));
    for (const out of ['empty/a.xml', 'empty/sitemap.xml']) {
      const over = await runCli(['report', 'empty', '--out', out], { cwd: dir });
      assert.equal(over.code, 2, out);
      assert.match(over.stderr, /the report would replace .*, which it reports on/);
    }
    // The same file by another name (a hard link, a symbolic link to its folder), and the --compare set's files.
    writeFileSync(join(dir, 'old.xml'), urlset([url('/old')]));
    linkSync(join(dir, 'empty', 'a.xml'), join(dir, 'hard.html'));
    symlinkSync('empty', join(dir, 'here'));
    for (const [out, more] of [['hard.html', []], ['here/a.xml', []], ['old.xml', ['--compare', 'old.xml']], ['empty/a.xml', ['--compare', 'empty/a.xml']]] as const) {
      const over = await runCli(['report', 'empty/sitemap.xml', '--out', out, ...more], { cwd: dir });
      assert.equal(over.code, 2, out);
      assert.match(over.stderr, /the report would replace .*, which it reports on/, out);
    }
    assert.match(readFileSync(join(dir, 'old.xml'), 'utf8'), /^<\?xml/);
    assert.match(readFileSync(join(dir, 'empty', 'a.xml'), 'utf8'), /^<urlset/);
    assert.match(readFileSync(join(dir, 'hard.html'), 'utf8'), /^<urlset/);
    assert.match(readFileSync(join(dir, 'empty', 'sitemap.xml'), 'utf8'), /<sitemapindex/);
  });

  it('a killed run leaves no report (nor half of one); the next run clears what it left', async () => {
    const server = await startSiteServer({});
    const dir = tempDir();
    try {
      server.route('/a.xml', { body: urlset([`<url><loc>${server.url('/p')}</loc></url>`]) });
      // The second child never ends: the run is killed while it reads it.
      server.route('/slow.xml', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.write(urlset([`<url><loc>${server.url('/q')}</loc></url>`]).slice(0, 80));
      });
      server.route('/sitemap.xml', { body: index([server.url('/a.xml'), server.url('/slow.xml')]) });
      const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/bin.ts'), 'report', server.url('/sitemap.xml'), '--out', join(dir, 'r.html'), '--allow-private', '--timeout', '60'], { cwd: ROOT, stdio: 'ignore' });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      for (let i = 0; i < 400 && server.count('/slow.xml') === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      assert.equal(server.count('/slow.xml'), 1, 'the run reached the slow child');
      assert.ok(readdirSync(dir).some((n) => n.startsWith('.sitemapkit-tmp-')), 'it was writing into a staged directory');
      child.kill('SIGKILL');
      await exited;
      assert.ok(!existsSync(join(dir, 'r.html')), 'no report');
      writeFileSync(join(dir, 'ok.xml'), urlset([url('/a')]));
      assert.equal((await runCli(['report', join(dir, 'ok.xml'), '--out', join(dir, 'r.html')], { cwd: dir })).code, 0);
      assert.deepEqual(readdirSync(dir).sort(), ['ok.xml', 'r.html'], 'the killed run\'s staged directory is gone');
    } finally {
      await server.close();
    }
  });

  it('Ctrl-C stops the run: exit 130, no report, nothing left beside it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 's.xml'), urlset([url('/a'), url('/b')]));
    let stderr = '';
    const io: CliIo = {
      stdout: { write: () => true }, stderr: { write: (text: string) => (stderr += text) }, cwd: dir, env: {},
      // Interrupted as soon as the handler is installed: before the first piece of input is read.
      onInterrupt: (handler) => {
        handler();
        return () => {};
      },
    };
    assert.equal(await runReport(['s.xml', '--out', 'r.html'], io), 130, stderr);
    assert.deepEqual(readdirSync(dir), ['s.xml']);
  });

  /** `report PATH` on a server whose /stalled.xml sends the start of a body, then nothing: Ctrl-C 300 ms after. */
  async function interruptedWhileStalling(path: string, routes: Record<string, Route> = {}): Promise<{ code: number; dir: string; ms: number }> {
    const dir = tempDir();
    let interrupt: (() => void) | undefined;
    const server = await startSiteServer({
      ...routes,
      '/stalled.xml': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml' }).write(urlset([url('/b'), url('/c')]).slice(0, 150));
        setTimeout(() => interrupt?.(), 300);
      },
    });
    const io: CliIo = {
      stdout: { write: () => true }, stderr: { write: () => true }, cwd: dir, env: {},
      onInterrupt: (handler) => ((interrupt = handler), () => (interrupt = undefined)),
    };
    try {
      const started = Date.now();
      const code = await runReport([server.url(path), '--out', 'r.html', '--allow-private', '--timeout', '60', '--retries', '0'], io);
      return { code, dir, ms: Date.now() - started };
    } finally {
      await server.close();
    }
  }

  it('Ctrl-C ends a request whose body stalls at once, not at --timeout: exit 130, no report', async () => {
    const { code, dir, ms } = await interruptedWhileStalling('/stalled.xml');
    assert.equal(code, 130);
    assert.ok(ms < 10_000, `stopped after ${ms} ms`);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('Ctrl-C while the last child of an index stalls: exit 130 and no report, not one with the child unreadable', async () => {
    const { code, dir } = await interruptedWhileStalling('/index.xml', {
      '/index.xml': (req, res) => void res.end(index([`http://${req.headers.host}/a.xml`, `http://${req.headers.host}/stalled.xml`])),
      '/a.xml': (_req, res) => void res.end(urlset([url('/a')])),
    });
    assert.equal(code, 130);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('--open opens the written report with $BROWSER', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 's.xml'), urlset([url('/a')]));
    const recorded = join(dir, 'opened.txt');
    const browser = join(dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(recorded)}\n`);
    chmodSync(browser, 0o755);
    const result = await runCli(['report', 's.xml', '--out', 'r.html', '--open'], { cwd: dir, env: { BROWSER: browser } });
    assert.equal(result.code, 0, result.stderr);
    for (let i = 0; i < 200 && !existsSync(recorded); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(readFileSync(recorded, 'utf8'), join(dir, 'r.html'));
  });

  it('--open: $BROWSER is split into words as xdg-open splits it, %s stands for the file, and a list separated by : is tried in order', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 's.xml'), urlset([url('/a')]));
    const recorded = join(dir, 'opened.txt');
    const browser = join(dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s|' "$@" > ${JSON.stringify(recorded)}\n`);
    chmodSync(browser, 0o755);
    const result = await runCli(['report', 's.xml', '--out', 'r.html', '--open'], { cwd: dir, env: { BROWSER: `${join(dir, 'missing')}:${browser} --new-window` } });
    assert.equal(result.code, 0, result.stderr);
    for (let i = 0; i < 200 && !existsSync(recorded); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(readFileSync(recorded, 'utf8'), `--new-window|${join(dir, 'r.html')}|`);
    assert.equal(result.stderr, '');
    assert.deepEqual(browserCommands(`firefox -P 'my profile' --new-tab=%s:"a \\"b\\"" c\\ d`, '/r$&.html'), [
      ['firefox', '-P', 'my profile', '--new-tab=/r$&.html'],
      ['a "b"', 'c d', '/r$&.html'],
    ]);
    assert.deepEqual(browserCommands(' : ', '/r.html'), []);
  });

  it('a source that is no URL (http://[::1) is said so, as read says it, not taken for a site without a sitemap', async () => {
    const result = await runCli(['report', 'http://[::1', '--out', 'r.html'], { cwd: tempDir() });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'sitemapkit report: cannot fetch http://[::1: not a URL: "http://[::1" (its host "[::1" is not an IPv6 address in brackets) (fetch/bad-url)\n');
  });

  it('usage errors exit 2', async () => {
    const dir = tempDir();
    assert.equal((await runCli(['report'], { cwd: dir })).code, 2);
    assert.equal((await runCli(['report', 'a.xml', 'b.xml', '--compare', 'c.xml'], { cwd: dir })).code, 2);
    assert.equal((await runCli(['report', '-'], { cwd: dir })).code, 2);
    assert.equal((await runCli(['report', 'a.xml', '--now', 'soon'], { cwd: dir })).code, 2);
    assert.deepEqual(readdirSync(dir), []);
  });
});
