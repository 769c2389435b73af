// `sitemapkit validate`: exit codes, formats, rule settings, --max-warnings, config, --follow, and the
// seeds' examples (test/fixtures/validate/).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { xmllint } from '../helpers/xmllint.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/validate/', import.meta.url));
const NOW = ['--now', '2026-01-01'];
const S = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const VALID = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${S}>\n<url><loc>https://example.com/a</loc><lastmod>2024-01-01</lastmod></url>\n</urlset>\n`;
const DUPLICATE = `<urlset ${S}>\n<url><loc>https://example.com/a</loc></url>\n<url><loc>https://example.com/a</loc></url>\n</urlset>\n`;

interface JsonOut {
  summary: { files: number; errors: number; warnings: number };
  files: { file: string; diagnostics: { code: string; line: number | null; column: number | null; hint?: string }[] }[];
}

async function json(args: string[], cwd: string): Promise<{ code: number; out: JsonOut }> {
  const r = await runCli(['validate', ...args, '--format', 'json', ...NOW], { cwd });
  return { code: r.code, out: JSON.parse(r.stdout) as JsonOut };
}

describe('sitemapkit validate', () => {
  it('exits 0 on a valid sitemap, plain or gzipped', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.xml'), VALID);
    writeFileSync(join(dir, 'a.xml.gz'), gzipSync(VALID));
    const r = await runCli(['validate', 'a.xml', 'a.xml.gz', ...NOW], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /no problems/);
  });

  it("reports the seeds' examples with codes, positions and fixes", async () => {
    const { code, out } = await json(['seed-es-example.xml', 'seed-es-sobjetoap.xml', 'seed-es-siteindex.xml', 'seed-fr.xml'], FIXTURES);
    assert.equal(code, 1);
    const by = (name: string): string[] => (out.files.find((f) => f.file === name)?.diagnostics ?? []).map((d) => `${d.code}@${d.line}:${d.column}`);
    assert.ok(by('seed-es-example.xml').includes('value/whitespace@5:2'), 'the lastmod "2005-01-01 " gets the whitespace warning');
    assert.deepStrictEqual(by('seed-es-sobjetoap.xml'), ['namespace/wrong@2:1']);
    assert.deepStrictEqual(by('seed-es-siteindex.xml'), ['namespace/wrong@2:1']);
    assert.deepStrictEqual(by('seed-fr.xml'), ['loc/not-encoded@10:7']);
    const fr = out.files.find((f) => f.file === 'seed-fr.xml')?.diagnostics[0];
    assert.equal(fr?.hint, 'write http://www.journaldunet.com/developpeur/%20fil/tous_itws.shtml');
  });

  it('--max-warnings: warnings alone exit 0, more than N exit 1', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'dup.xml'), DUPLICATE);
    assert.equal((await runCli(['validate', 'dup.xml', ...NOW], { cwd: dir })).code, 0);
    assert.equal((await runCli(['validate', 'dup.xml', '--max-warnings', '1', ...NOW], { cwd: dir })).code, 0);
    assert.equal((await runCli(['validate', 'dup.xml', '--max-warnings', '0', ...NOW], { cwd: dir })).code, 1);
  });

  it('--now is a W3C Datetime, as a lastmod is: a day that does not exist is refused, not moved to the next month', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.xml'), VALID);
    const r = await runCli(['validate', 'a.xml', '--now', '2024-02-30'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^sitemapkit validate: --now "2024-02-30" is not a W3C Datetime: day 30 is out of range/);
    // A lastmod of 2024-03-01 is in the future of 2024-02-29, not of a made-up 2024-03-01.
    writeFileSync(join(dir, 'b.xml'), VALID.replace('2024-01-01', '2024-03-01T12:00:00Z'));
    const future = await runCli(['validate', 'b.xml', '--now', '2024-02-29', '--format', 'json'], { cwd: dir });
    assert.deepEqual((JSON.parse(future.stdout) as JsonOut).files[0]?.diagnostics.map((d) => d.code), ['lastmod/future']);
  });

  it('--rule and the config file change severities or turn rules off', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'dup.xml'), DUPLICATE);
    assert.equal((await runCli(['validate', 'dup.xml', '--rule', 'loc/duplicate=error', ...NOW], { cwd: dir })).code, 1);
    const off = await json(['dup.xml', '--rule', 'loc/duplicate=off'], dir);
    assert.deepStrictEqual(off.out.files[0]?.diagnostics, []);
    writeFileSync(join(dir, 'sitemapkit.config.json'), JSON.stringify({ rules: { 'loc/duplicate': 'error' } }));
    assert.equal((await runCli(['validate', 'dup.xml', ...NOW], { cwd: dir })).code, 1);
    assert.equal((await runCli(['validate', 'dup.xml', '--rule', 'loc/duplicate=info', ...NOW], { cwd: dir })).code, 0, 'the command line wins');
  });

  it('a config file that is not JSON is named with the line and column of the fault (FILE:LINE:COL), exit 2', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'dup.xml'), DUPLICATE);
    writeFileSync(join(dir, 'sitemapkit.config.json'), '{\n  "rules": {\n    "loc/duplicate": "error",\n  }\n}\n');
    const r = await runCli(['validate', 'dup.xml', ...NOW], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^sitemapkit validate: \S*sitemapkit\.config\.json:4:3: .*JSON/);
    // A token Node 20 does not expect is placed by the text it quotes, not "at position N".
    writeFileSync(join(dir, 'sitemapkit.config.json'), '{\n  "rules": {\n    "loc/duplicate": error\n  }\n}\n');
    const quoted = await runCli(['validate', 'dup.xml', ...NOW], { cwd: dir });
    assert.match(quoted.stderr, /^sitemapkit validate: \S*sitemapkit\.config\.json:3:22: Unexpected token 'e'/);
  });

  it('a config file that starts with a UTF-8 byte order mark (Notepad) is read: JSON parsers may ignore it (RFC 8259 §8.1)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'dup.xml'), DUPLICATE);
    writeFileSync(join(dir, 'sitemapkit.config.json'), `\uFEFF${JSON.stringify({ rules: { 'loc/duplicate': 'error' } })}`);
    const r = await runCli(['validate', 'dup.xml', ...NOW], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /loc\/duplicate/);
  });

  it('--location checks the scope', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.xml'), VALID);
    const { code, out } = await json(['a.xml', '--location', 'https://example.com/blog/sitemap.xml'], dir);
    assert.equal(code, 1);
    assert.deepStrictEqual(out.files[0]?.diagnostics.map((d) => d.code), ['loc/out-of-scope']);
  });

  it('--limits legacy applies the 2008 limits', async () => {
    const dir = tempDir();
    const urls = Array.from({ length: 5900 }, (_, i) => `<url><loc>https://example.com/${i}/${'x'.repeat(1800)}</loc></url>`).join('\n');
    writeFileSync(join(dir, 'big.xml'), `<urlset ${S}>\n${urls}\n</urlset>\n`);
    assert.equal((await runCli(['validate', 'big.xml', ...NOW], { cwd: dir })).code, 0);
    const legacy = await json(['big.xml', '--limits', 'legacy'], dir);
    assert.equal(legacy.code, 1);
    assert.deepStrictEqual(legacy.out.files[0]?.diagnostics.map((d) => d.code), ['limits/file-too-large']);
  });

  it('--follow validates the children beside an index and flags a nested index', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'index.xml'), `<sitemapindex ${S}>\n<sitemap><loc>https://example.com/a.xml</loc></sitemap>\n<sitemap><loc>https://example.com/inner.xml</loc></sitemap>\n</sitemapindex>\n`);
    writeFileSync(join(dir, 'a.xml'), DUPLICATE);
    writeFileSync(join(dir, 'inner.xml'), `<sitemapindex ${S}>\n<sitemap><loc>https://example.com/a.xml</loc></sitemap>\n</sitemapindex>\n`);
    const { out } = await json(['index.xml', '--follow'], dir);
    const files = out.files.map((f) => f.file.replace(/^.*[\\/]/, ''));
    assert.deepStrictEqual(files, ['index.xml', 'a.xml', 'inner.xml']);
    assert.deepStrictEqual(out.files[0]?.diagnostics.map((d) => `${d.code}@${d.line}`), ['index/nested@3']);
    assert.deepStrictEqual(out.files[1]?.diagnostics.map((d) => d.code), ['loc/duplicate']);
    const off = await json(['index.xml', '--follow', '--rule', 'index/nested=off'], dir);
    assert.deepStrictEqual(off.out.files[0]?.diagnostics, []);
    const error = await json(['index.xml', '--follow', '--rule', 'index/nested=error'], dir);
    assert.deepStrictEqual(error.out.files[0]?.diagnostics.map((d) => `${d.code}:${(d as { severity?: string }).severity}`), ['index/nested:error']);
  });

  it('--follow with standard input is a usage error: its children could not be found, and a ✔ would say they were checked', async () => {
    const index = `<sitemapindex ${S}><sitemap><loc>https://example.com/missing.xml</loc></sitemap></sitemapindex>\n`;
    const r = await runCli(['validate', '-', '--follow', ...NOW], { cwd: tempDir(), stdin: Readable.from([index]) });
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'sitemapkit validate: --follow cannot find the children of standard input (they are found relative to the index file): give the index by its path\nRun "sitemapkit validate --help" for usage.\n');
  });

  it('--follow validates each file once: an index that lists itself, or a child listed twice', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'index.xml'), `<sitemapindex ${S}>\n<sitemap><loc>https://example.com/index.xml</loc></sitemap>\n<sitemap><loc>https://example.com/a.xml</loc></sitemap>\n<sitemap><loc>https://example.com/a.xml</loc></sitemap>\n</sitemapindex>\n`);
    writeFileSync(join(dir, 'a.xml'), DUPLICATE);
    const { out } = await json(['index.xml', '--follow', '--rule', 'loc/duplicate=off'], dir);
    assert.deepStrictEqual(out.files.map((f) => f.file.replace(/^.*[\\/]/, '')), ['index.xml', 'a.xml']);
    assert.deepStrictEqual(out.files[0]?.diagnostics.map((d) => `${d.code}@${d.line}`), ['index/nested@2']);
    // Its own URL known: the index's validation finds it too, and it is said once.
    const based = await json(['index.xml', '--follow', '--rule', 'loc/duplicate=off', '--base-url', 'https://example.com/index.xml'], dir);
    assert.deepStrictEqual(based.out.files[0]?.diagnostics.map((d) => `${d.code}@${d.line}`), ['index/nested@2']);
    assert.equal(based.out.summary.warnings, 1);
  });

  it('--follow validates each file once across the inputs: an index given beside its children (validate --follow dir/*), or a file given twice', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'index.xml'), `<sitemapindex ${S}>\n<sitemap><loc>https://example.com/a.xml</loc></sitemap>\n<sitemap><loc>https://example.com/inner.xml</loc></sitemap>\n</sitemapindex>\n`);
    writeFileSync(join(dir, 'a.xml'), DUPLICATE);
    writeFileSync(join(dir, 'inner.xml'), `<sitemapindex ${S}>\n<sitemap><loc>https://example.com/a.xml</loc></sitemap>\n</sitemapindex>\n`);
    // Children before the index, and after it; one given twice, by another spelling of its path.
    for (const args of [['a.xml', 'inner.xml', 'index.xml'], ['index.xml', 'a.xml', './a.xml', 'inner.xml']]) {
      const { out } = await json([...args, '--follow'], dir);
      assert.deepStrictEqual(out.files.map((f) => f.file.replace(/^.*[\\/]/, '')).sort(), ['a.xml', 'index.xml', 'inner.xml'], args.join(' '));
      assert.equal(out.summary.files, 3, args.join(' '));
      assert.equal(out.summary.warnings, 2, args.join(' ')); // a.xml's loc/duplicate, index.xml's index/nested
      assert.deepStrictEqual(out.files.find((f) => f.file.endsWith('index.xml'))?.diagnostics.map((d) => `${d.code}@${d.line}`), ['index/nested@3'], args.join(' '));
    }
    const stylish = await runCli(['validate', 'a.xml', 'index.xml', '--follow', ...NOW], { cwd: dir });
    assert.equal(stylish.stdout.match(/loc\/duplicate/g)?.length, 1);
  });

  it('renders every format', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'dup.xml'), DUPLICATE);
    const sarif = JSON.parse((await runCli(['validate', 'dup.xml', '--format', 'sarif', ...NOW], { cwd: dir })).stdout) as { version: string; runs: { results: { ruleId: string }[] }[] };
    assert.equal(sarif.version, '2.1.0');
    assert.deepStrictEqual(sarif.runs[0]?.results.map((r) => r.ruleId), ['loc/duplicate']);
    assert.match((await runCli(['validate', 'dup.xml', '--format', 'github', ...NOW], { cwd: dir })).stdout, /^::warning file=dup\.xml,line=3,col=1,title=loc\/duplicate::/);
    assert.match((await runCli(['validate', 'dup.xml', '--format', 'junit', ...NOW], { cwd: dir })).stdout, /<testsuites[^>]* failures="1"/);
    assert.match((await runCli(['validate', 'dup.xml', ...NOW], { cwd: dir })).stdout, /3:1\s+warning\s+.*loc\/duplicate/);
  });

  it('exits 2 on usage errors and unreadable input', async () => {
    const dir = tempDir();
    for (const args of [[], ['a.xml', '--format', 'xml'], ['a.xml', '--rule', 'no/such=off'], ['a.xml', '--rule', 'loc/duplicate=loud'], ['a.xml', '--location', 'ftp://x'], ['https://example.com/sitemap.xml']]) {
      const r = await runCli(['validate', ...args], { cwd: dir });
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stderr.split('\n').filter(Boolean).length <= 2, true);
    }
    const missing = await runCli(['validate', 'missing.xml'], { cwd: dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing\.xml/);
  });

  it('a name that is not valid UTF-8 (Node reads it from argv with U+FFFD in its place) is said to be one, not "no such file"', async () => {
    const dir = tempDir();
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0xff]), Buffer.from('.xml')]), `<urlset ${S}><url><loc>https://example.com/</loc></url></urlset>\n`);
    for (const command of ['validate', 'read']) {
      const r = await runCli([command, '\uFFFD.xml'], { cwd: dir });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /cannot read \uFFFD\.xml: its name is not valid UTF-8/, r.stderr);
    }
  });

  describe('a success line only on exit 0', () => {
    const FIVE_WARNINGS = `<urlset ${S}>\n` + Array.from({ length: 6 }, () => '<url><loc>https://example.com/a</loc></url>').join('\n') + '\n</urlset>\n';

    it('a missing file: exit 2 and a ✖ saying it could not be read', async () => {
      const r = await runCli(['validate', 'missing.xml', ...NOW], { cwd: tempDir() });
      assert.equal(r.code, 2);
      assert.doesNotMatch(r.stdout, /✔|no problems/);
      assert.match(r.stdout, /^✖ 1 input could not be read/m);
    });

    it('stylish and json count an unreadable input alike: a file, and an input/unreadable error', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'good.xml'), `<urlset ${S}><url><loc>https://example.com/</loc></url></urlset>\n`);
      mkdirSync(join(dir, 'folder'));
      const args = ['validate', 'good.xml', 'missing.xml', 'folder', ...NOW];
      const json = await runCli([...args, '--format', 'json'], { cwd: dir });
      assert.equal(json.code, 2);
      assert.deepEqual(JSON.parse(json.stdout).summary, { files: 3, entries: 1, errors: 2, warnings: 0, infos: 0 });
      const stylish = await runCli(args, { cwd: dir });
      assert.equal(stylish.code, 2);
      assert.match(stylish.stdout, /^✖ 2 inputs could not be read; 2 problems \(2 errors, 0 warnings, 0 infos\)/m);
    });

    it('--format github: standard input gets annotations without a file (there is no file <stdin> to annotate)', async () => {
      const r = await runCli(['validate', '-', '--format', 'github', ...NOW], { cwd: tempDir(), stdin: Readable.from([DUPLICATE]) });
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^::warning line=3,col=1,title=loc\/duplicate::/);
    });

    it('a missing file is in the json, sarif, junit and github reports too (input/unreadable), not an empty green report', async () => {
      const cwd = tempDir();
      const json = await runCli(['validate', 'missing.xml', '--format', 'json', ...NOW], { cwd });
      assert.equal(json.code, 2);
      const report = JSON.parse(json.stdout) as { summary: { errors: number }; files: Array<{ file: string; diagnostics: Array<{ code: string }> }> };
      assert.equal(report.summary.errors, 1);
      assert.deepEqual(report.files.map((f) => [f.file, f.diagnostics.map((d) => d.code)]), [['missing.xml', ['input/unreadable']]]);
      const junit = await runCli(['validate', 'missing.xml', '--format', 'junit', ...NOW], { cwd });
      assert.match(junit.stdout, /<testsuites [^>]*failures="1"/);
      const sarif = await runCli(['validate', 'missing.xml', '--format', 'sarif', ...NOW], { cwd });
      const log = JSON.parse(sarif.stdout) as { runs: Array<{ results: Array<{ ruleId: string }> }> };
      assert.deepEqual(log.runs[0]?.results.map((r) => r.ruleId), ['input/unreadable']);
      // An annotation of the pull request too, besides the line on stderr.
      const github = await runCli(['validate', 'missing.xml', '--format', 'github', ...NOW], { cwd });
      assert.equal(github.code, 2);
      assert.match(github.stdout, /^::error file=missing\.xml,title=input\/unreadable::cannot read missing\.xml/);
    });

    it('-q --max-warnings 2 with 5 warnings: exit 1 and a ✖ with the counts', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'dup.xml'), FIVE_WARNINGS);
      const r = await runCli(['validate', '-q', '--max-warnings', '2', 'dup.xml', ...NOW], { cwd: dir });
      assert.equal(r.code, 1);
      assert.doesNotMatch(r.stdout, /✔|no problems/);
      assert.match(r.stdout, /^✖ more than --max-warnings 2; 5 problems \(0 errors, 5 warnings, 0 infos\)/m);
      assert.doesNotMatch(r.stdout, /loc\/duplicate/, '-q still hides the warning rows');
      const within = await runCli(['validate', '-q', '--max-warnings', '5', 'dup.xml', ...NOW], { cwd: dir });
      assert.equal(within.code, 0);
      assert.match(within.stdout, /^✖ 5 problems \(0 errors, 5 warnings, 0 infos\)/m, 'warnings within the limit are still counted');
    });

    it('-q --format json: the warnings are not listed but still counted, as the exit status counts them', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'dup.xml'), FIVE_WARNINGS);
      const { code, out } = await json(['-q', '--max-warnings', '2', 'dup.xml'], dir);
      assert.equal(code, 1);
      assert.equal(out.summary.warnings, 5, 'the summary says why the exit status is 1');
      assert.deepEqual(out.files.map((f) => [(f as unknown as { warnings: number }).warnings, f.diagnostics.length]), [[5, 0]]);
      writeFileSync(join(dir, 'one.xml'), DUPLICATE);
      const one = await runCli(['validate', '-q', '--max-warnings', '0', 'one.xml', ...NOW], { cwd: dir });
      assert.equal(one.stderr, 'sitemapkit validate: 1 warning, more than --max-warnings 0\n');
    });

    it('a refused URL: exit 2 and no ✔', async () => {
      const r = await runCli(['validate', 'http://127.0.0.1:9/sitemap.xml', ...NOW], { cwd: tempDir() });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /127\.0\.0\.1/);
      assert.doesNotMatch(r.stdout, /✔|no problems/);
      assert.match(r.stdout, /^✖ 1 input could not be read/m);
    });

    it('a good file beside a missing one: exit 2, no ✔', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'a.xml'), VALID);
      const r = await runCli(['validate', 'a.xml', 'missing.xml', ...NOW], { cwd: dir });
      assert.equal(r.code, 2);
      assert.doesNotMatch(r.stdout, /✔/);
    });

    it('exit 0 with no problems: the ✔, with the schema verdict', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'a.xml'), VALID);
      const r = await runCli(['validate', 'a.xml', ...NOW], { cwd: dir });
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^✔ 1 file, 1 entry, no problems; schemas: 1 valid, 0 invalid$/m);
    });
  });

  it('a list of URLs named .xml is not a pass (text/xml-name); named .txt it is', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'urls.xml'), 'https://example.com/a\nhttps://example.com/b\n');
    writeFileSync(join(dir, 'urls.txt'), 'https://example.com/a\nhttps://example.com/b\n');
    const named = await runCli(['validate', 'urls.xml', ...NOW], { cwd: dir });
    assert.equal(named.code, 1, named.stdout);
    assert.match(named.stdout, /error .*text\/xml-name/);
    assert.equal((await runCli(['validate', 'urls.txt', ...NOW], { cwd: dir })).code, 0);
  });

  it('a feed is not a pass: no schema accepts it (feed/no-schema), unless --rule lowers it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'feed.rss'), '<rss version="2.0"><channel><item><link>https://example.com/a</link></item></channel></rss>\n');
    writeFileSync(join(dir, 'feed.atom'), '<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/b"/><updated>2024-01-01T00:00:00Z</updated></entry></feed>\n');
    for (const file of ['feed.rss', 'feed.atom']) {
      const r = await runCli(['validate', file, ...NOW], { cwd: dir });
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, /error .*feed\/no-schema/);
      assert.equal((await runCli(['validate', file, '--rule', 'feed/no-schema=warning', ...NOW], { cwd: dir })).code, 0);
    }
  });

  it('every format states each file\'s schema verdict', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'good.xml'), VALID);
    writeFileSync(join(dir, 'bad.xml'), VALID.replace('<lastmod>2024-01-01</lastmod>', '<lastmod>2024-01-01</lastmod><foo>1</foo>'));
    writeFileSync(join(dir, 'feed.xml'), '<rss version="2.0"><channel><item><link>https://example.com/a</link></item></channel></rss>\n');
    const files = ['good.xml', 'bad.xml', 'feed.xml'];
    const out = JSON.parse((await runCli(['validate', ...files, '--format', 'json', ...NOW], { cwd: dir })).stdout) as { files: { file: string; schemaValid: boolean | null }[] };
    assert.deepStrictEqual(out.files.map((f) => [f.file, f.schemaValid]), [['good.xml', true], ['bad.xml', false], ['feed.xml', null]]);
    const sarif = JSON.parse((await runCli(['validate', ...files, '--format', 'sarif', ...NOW], { cwd: dir })).stdout) as { runs: { artifacts: { location: { uri: string }; properties: { schemaValid: boolean | null } }[] }[] };
    assert.deepStrictEqual(sarif.runs[0]?.artifacts.map((a) => [a.location.uri, a.properties.schemaValid]), [['good.xml', true], ['bad.xml', false], ['feed.xml', null]]);
    const junit = (await runCli(['validate', ...files, '--format', 'junit', ...NOW], { cwd: dir })).stdout;
    assert.deepStrictEqual([...junit.matchAll(/<testsuite name="([^"]+)"[^>]*>\s*<properties>\s*<property name="schemaValid" value="([a-z]+)"\/>/g)].map((m) => [m[1], m[2]]), [['good.xml', 'true'], ['bad.xml', 'false'], ['feed.xml', 'null']]);
    const stylish = (await runCli(['validate', ...files, ...NOW], { cwd: dir })).stdout;
    assert.match(stylish, /^bad\.xml {2}\(not valid against the sitemap schemas\)$/m);
    assert.match(stylish, /; schemas: 1 valid, 1 invalid$/m);
  });

  describe('the exit status agrees with the schema', () => {
    const I = (body: string): string => `<sitemapindex ${S}>\n${body}\n</sitemapindex>\n`;
    const CASES: Record<string, string> = {
      'a wrong namespace': VALID.replace('sitemap/0.9', 'sitemap/0.8'),
      'no namespace': VALID.replace(` ${S}`, ''),
      "Google's old namespace": VALID.replace('http://www.sitemaps.org/schemas/sitemap/0.9', 'http://www.google.com/schemas/sitemap/0.84'),
      "<changefreq> inside an index's <sitemap>": I('<sitemap><loc>https://example.com/a.xml</loc><changefreq>daily</changefreq></sitemap>'),
      'an unknown element inside <sitemapindex>': I('<sitemap><loc>https://example.com/a.xml</loc></sitemap>\n<foo>1</foo>'),
      'an element of an unknown namespace': VALID.replace('</lastmod>', '</lastmod><x:y xmlns:x="https://x.example/">1</x:y>'),
      'a W3C date the schema rejects': VALID.replace('2024-01-01', '2024-01'),
      'a changefreq in the wrong case': VALID.replace('</lastmod>', '</lastmod><changefreq>Daily</changefreq>'),
      'whitespace before the XML declaration': ` ${VALID}`,
      'an empty urlset': `<urlset ${S}></urlset>\n`,
      'a space inside <xhtml:link>, whose content is empty': VALID.replace('</lastmod>', '</lastmod><xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="en" href="https://example.com/a"> </xhtml:link>'),
    };
    for (const [name, doc] of Object.entries(CASES)) {
      it(`${name}: exit 1, as xmllint rejects it; --rule may still lower it`, async () => {
        const dir = tempDir();
        writeFileSync(join(dir, 'f.xml'), doc);
        const theirs = await xmllint(doc, doc.includes('<sitemapindex') ? 'all-index' : 'all');
        assert.equal(theirs.valid, false, 'xmllint rejects the file');
        const r = await runCli(['validate', 'f.xml', '--format', 'json', ...NOW], { cwd: dir });
        assert.equal(r.code, 1, r.stdout);
        const out = JSON.parse(r.stdout) as { files: { schemaValid: boolean; diagnostics: { code: string; severity: string }[] }[] };
        assert.equal(out.files[0]?.schemaValid, false);
        const lowered = [...new Set(out.files[0]?.diagnostics.filter((d) => d.severity === 'error').map((d) => `--rule=${d.code}=warning`))];
        const again = await runCli(['validate', 'f.xml', ...lowered, ...NOW], { cwd: dir });
        assert.equal(again.code, 0, `${lowered.join(' ')}: ${again.stdout}`);
      });
    }

    it('the schema finding a reader diagnostic stands for lends it its level: lowering the xsd/* rule lowers both', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'i.xml'), CASES["<changefreq> inside an index's <sitemap>"] as string);
      const codes = async (...args: string[]): Promise<{ code: number; found: string[] }> => {
        const r = await runCli(['validate', 'i.xml', '--format', 'json', ...args, ...NOW], { cwd: dir });
        return { code: r.code, found: (JSON.parse(r.stdout) as { files: { diagnostics: { code: string; severity: string }[] }[] }).files[0]?.diagnostics.map((d) => `${d.code}:${d.severity}`) ?? [] };
      };
      assert.deepStrictEqual(await codes(), { code: 1, found: ['element/unexpected:error'] });
      assert.deepStrictEqual(await codes('--rule', 'xsd/unexpected-element=warning'), { code: 0, found: ['element/unexpected:warning'] });
      assert.deepStrictEqual(await codes('--rule', 'xsd/unexpected-element=off'), { code: 0, found: ['element/unexpected:warning'] });
      assert.deepStrictEqual(await codes('--rule', 'element/unexpected=info'), { code: 0, found: ['element/unexpected:info'] });
    });
  });

  describe('--follow finds children by their path relative to the index', () => {
    const index = (...locs: string[]): string => `<sitemapindex ${S}>\n${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`;
    const urls = (...locs: string[]): string => `<urlset ${S}>\n${locs.map((l) => `<url><loc>${l}</loc></url>`).join('\n')}\n</urlset>\n`;

    it("Hugo's per-language children (en/sitemap.xml, es/sitemap.xml) are read, not the index itself", async () => {
      const dir = tempDir();
      mkdirSync(join(dir, 'public', 'en'), { recursive: true });
      mkdirSync(join(dir, 'public', 'es'), { recursive: true });
      writeFileSync(join(dir, 'public', 'sitemap.xml'), index('https://example.com/en/sitemap.xml', 'https://example.com/es/sitemap.xml'));
      writeFileSync(join(dir, 'public', 'en', 'sitemap.xml'), urls('https://example.com/en/', 'https://example.com/en/a'));
      writeFileSync(join(dir, 'public', 'es', 'sitemap.xml'), urls('https://example.com/es/', 'https://example.com/es/a', 'https://example.com/es/a'));
      const { code, out } = await json(['public/sitemap.xml', '--follow'], dir);
      assert.deepStrictEqual(out.files.map((f) => [f.file, f.diagnostics.map((d) => d.code)]), [
        ['public/sitemap.xml', []],
        [join('public', 'en', 'sitemap.xml'), []],
        [join('public', 'es', 'sitemap.xml'), ['loc/duplicate']],
      ]);
      assert.equal(code, 0);
    });

    it('a child missing on disk is an error on the index, at its entry', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'sitemap.xml'), index('https://example.com/a.xml', 'https://example.com/gone.xml', 'https://example.com/deep/gone.xml.gz'));
      writeFileSync(join(dir, 'a.xml'), VALID);
      const { code, out } = await json(['sitemap.xml', '--follow'], dir);
      assert.equal(code, 1);
      assert.deepStrictEqual(out.files.map((f) => f.file), ['sitemap.xml', 'a.xml']);
      assert.deepStrictEqual(out.files[0]?.diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`), ['index/child-missing@3:1', 'index/child-missing@4:1']);
      const stylish = await runCli(['validate', 'sitemap.xml', '--follow', ...NOW], { cwd: dir });
      assert.doesNotMatch(stylish.stdout, /✔/);
      assert.match(stylish.stdout, /no file deep[\\/]gone\.xml\.gz/);
      assert.equal((await runCli(['validate', 'sitemap.xml', '--follow', '--rule', 'index/child-missing=warning', ...NOW], { cwd: dir })).code, 0);
    });

    it('the children of an index outside the working folder are named by their path, never climbed to with ../', async () => {
      const dir = tempDir();
      mkdirSync(join(dir, 'elsewhere'));
      writeFileSync(join(dir, 'sitemap.xml'), index('https://example.com/a.xml', 'https://example.com/gone.xml'));
      writeFileSync(join(dir, 'a.xml'), VALID);
      const { out } = await json([join(dir, 'sitemap.xml'), '--follow'], join(dir, 'elsewhere'));
      assert.deepStrictEqual(out.files.map((f) => f.file), [join(dir, 'sitemap.xml'), join(dir, 'a.xml')]);
      const stylish = await runCli(['validate', join(dir, 'sitemap.xml'), '--follow', ...NOW], { cwd: join(dir, 'elsewhere') });
      assert.ok(stylish.stdout.includes(`no file ${join(dir, 'gone.xml')}`), stylish.stdout);
    });

    it('--location puts the index in a directory of its site', async () => {
      const dir = tempDir();
      mkdirSync(join(dir, 'posts'));
      writeFileSync(join(dir, 'index.xml'), index('https://example.com/blog/posts/1.xml', 'https://example.com/blog/2.xml'));
      writeFileSync(join(dir, 'posts', '1.xml'), urls('https://example.com/blog/posts/a'));
      const { out } = await json(['index.xml', '--follow', '--location', 'https://example.com/blog/index.xml'], dir);
      assert.deepStrictEqual(out.files.map((f) => f.file), ['index.xml', join('posts', '1.xml')]);
      assert.deepStrictEqual(out.files[0]?.diagnostics.map((d) => `${d.code}@${d.line}`), ['index/child-missing@3']);
    });

    it('a child URL never names a file outside the index directory, nor the index for another path', async () => {
      const dir = tempDir();
      mkdirSync(join(dir, 'site'));
      writeFileSync(join(dir, 'secret.xml'), urls('https://example.com/secret'));
      writeFileSync(join(dir, 'site', 'sitemap.xml'), index('https://example.com/..%2Fsecret.xml', 'https://example.com/x/%2e%2e/%2e%2e/secret.xml', 'https://example.com/other/sitemap.xml'));
      const { out } = await json(['site/sitemap.xml', '--follow'], dir);
      assert.deepStrictEqual(out.files.map((f) => f.file), ['site/sitemap.xml']);
      assert.deepStrictEqual(out.files[0]?.diagnostics.filter((d) => d.code.startsWith('index/')).map((d) => `${d.code}@${d.line}`), ['index/child-missing@2', 'index/child-missing@3', 'index/child-missing@4']);
    });
  });
});
