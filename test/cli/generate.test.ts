import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { xmllint } from '../helpers/xmllint.js';

const locsOf = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] as string);
const read = (path: string): string => (path.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString('utf8');
const unescape = (loc: string): string => loc.replaceAll('&amp;', '&');

test('120,000 URLs: an index and three gzip children, each valid, every URL exactly once', async () => {
  const dir = tempDir();
  const urls = Array.from({ length: 120_000 }, (_, i) => `https://www.example.com/section-${i % 97}/item-${i}?ref=${i % 13}&page=${i}`);
  writeFileSync(join(dir, 'urls.txt'), urls.join('\n') + '\n');
  const result = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--json'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const out = join(dir, 'out');
  // Children are numbered and carry a token of their content (8 hex digits of its CRC-32).
  const children = readdirSync(out).filter((f) => f !== 'sitemap.xml').sort();
  assert.equal(children.length, 3);
  children.forEach((name, i) => assert.match(name, new RegExp(`^sitemap-0000${i + 1}\\.[0-9a-f]{8}\\.xml\\.gz$`)));
  const index = read(join(out, 'sitemap.xml'));
  const indexCheck = await xmllint(index, 'siteindex', 'sitemap.xml');
  assert.deepEqual(indexCheck.errors, []);
  assert.deepEqual(locsOf(index), children.map((name) => `https://www.example.com/${name}`));
  const written: string[] = [];
  for (const child of children) {
    const xml = read(join(out, child));
    const check = await xmllint(xml, 'sitemap', child);
    assert.deepEqual(check.errors, [], child);
    written.push(...locsOf(xml).map(unescape));
  }
  assert.equal(written.length, urls.length);
  assert.deepEqual(new Set(written).size, urls.length);
  assert.deepEqual(written, urls);
  const summary = JSON.parse(result.stdout);
  assert.equal(summary.urls, 120_000);
  assert.equal(summary.sitemaps.length, 3);
  assert.deepEqual(summary.sitemaps.map((s: { urls: number }) => s.urls), [50_000, 50_000, 20_000]);
});

test('--max-bytes 1000000: no child exceeds 1,000,000 bytes uncompressed', async () => {
  const dir = tempDir();
  const urls = Array.from({ length: 30_000 }, (_, i) => `https://www.example.com/a/rather/long/path/to/make/files/grow/quickly/página-${i}`);
  writeFileSync(join(dir, 'urls.txt'), urls.join('\n'));
  const result = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--max-bytes', '1000000', '--quiet'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const children = readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.gz'));
  assert.ok(children.length >= 3, `${children.length} children`);
  let total = 0;
  for (const child of children) {
    const bytes = gunzipSync(readFileSync(join(dir, 'out', child))).length;
    assert.ok(bytes <= 1_000_000, `${child}: ${bytes} bytes`);
    total += locsOf(read(join(dir, 'out', child))).length;
  }
  assert.equal(total, 30_000);
});

test("the Spanish seed's example URLs come out escaped and encoded as the protocol shows", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'seed.txt'), ['http://www.ejemplo.com/catalogo?objeto=12&desc=madrid', 'http://www.ejemplo.com/españa.html&q=nombre'].join('\n'));
  const result = await runCli(['generate', 'seed.txt', '--base-url', 'http://www.ejemplo.com/', '--out', 'out'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const xml = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
  assert.ok(xml.includes('<loc>http://www.ejemplo.com/catalogo?objeto=12&amp;desc=madrid</loc>'));
  assert.ok(xml.includes('<loc>http://www.ejemplo.com/espa%C3%B1a.html&amp;q=nombre</loc>'));
  assert.ok((await xmllint(xml, 'sitemap')).valid);
});

test('a bad optional field is left out with a FILE:LINE warning and a stable code; the URL is written; exit 1', async () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'pages.csv'),
    ['loc,lastmod,changefreq,priority', '/ok,2024-01-01,daily,0.5', 'https://other.example.org/x,,,', '/bad-priority,,,1.5', '/bad-date,yesterday,,', '/bad-freq,,Weekly,', '/ok2,,,'].join('\n'),
  );
  const result = await runCli(['generate', 'pages.csv', '--base-url', 'https://www.example.com/', '--out', 'out'], { cwd: dir });
  assert.equal(result.code, 1, 'a warning is a problem CI sees');
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 4, result.stderr);
  assert.match(lines[0] as string, /^pages\.csv:3: .*outside.*host "other\.example\.org"/);
  assert.match(lines[1] as string, /^pages\.csv:4: warning priority\/out-of-range priority "1\.5" is outside .*; the URL is written without priority$/);
  assert.match(lines[2] as string, /^pages\.csv:5: warning lastmod\/invalid lastmod "yesterday".*; the URL is written without lastmod$/);
  assert.match(lines[3] as string, /^pages\.csv:6: warning changefreq\/invalid changefreq "Weekly" is not one of .*write it as "weekly".*without changefreq$/);
  const xml = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
  assert.deepEqual(locsOf(xml), ['https://www.example.com/ok', 'https://www.example.com/bad-priority', 'https://www.example.com/bad-date', 'https://www.example.com/bad-freq', 'https://www.example.com/ok2']);
  assert.ok(!xml.includes('1.5') && !xml.includes('yesterday') && !xml.includes('Weekly'));
  assert.match(result.stdout, /1 line rejected/);
  assert.match(result.stdout, /3 warnings/);
});

test('--strict rejects an entry with a bad optional field instead, as FILE:LINE: error CODE reason', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'pages.csv'), ['loc,lastmod,changefreq,priority', '/ok,2024-01-01,daily,0.5', '/bad-priority,,,1.5', '/bad-date,yesterday,,', '/bad-freq,,Weekly,', '/ok2,,,'].join('\n'));
  const result = await runCli(['generate', 'pages.csv', '--base-url', 'https://www.example.com/', '--out', 'out', '--strict'], { cwd: dir });
  assert.equal(result.code, 1);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 3, result.stderr);
  assert.match(lines[0] as string, /^pages\.csv:3: error priority\/out-of-range priority "1\.5" is outside/);
  assert.match(lines[1] as string, /^pages\.csv:4: error lastmod\/invalid lastmod "yesterday"/);
  assert.match(lines[2] as string, /^pages\.csv:5: error changefreq\/invalid changefreq "Weekly" is not one of .*write it as "weekly"/);
  const xml = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
  assert.deepEqual(locsOf(xml), ['https://www.example.com/ok', 'https://www.example.com/ok2']);
  assert.match(result.stdout, /3 lines rejected/);
});

test('duplicates after normalisation are written once and counted; exit 0', async () => {
  const dir = tempDir();
  const input = Readable.from(['https://www.example.com/a\nHTTPS://WWW.EXAMPLE.COM:443/a\n# comment\n\n/a\n/b\n']);
  const result = await runCli(['generate', '-', '--base-url', 'https://www.example.com/', '--out', 'out', '--json'], { cwd: dir, stdin: input });
  assert.equal(result.code, 0, result.stderr);
  const summary = JSON.parse(result.stdout);
  assert.equal(summary.urls, 2);
  assert.equal(summary.duplicates, 2);
  assert.equal(summary.ok, true);
});

test('JSON Lines input carries extensions', async () => {
  const dir = tempDir();
  const lines = [
    { loc: '/p1', lastmod: '2024-03-01T10:00:00+01:00', images: [{ loc: 'https://cdn.example.com/1.jpg', title: 'Uno & dos' }], alternates: [{ hreflang: 'es', href: 'https://www.example.com/es/p1' }] },
    { loc: '/p2', news: { publication: { name: 'Diario', language: 'es' }, publicationDate: '2024-03-01', title: 'Título' } },
    { loc: '/p3', lastMod: '2024-01-01' },
  ];
  writeFileSync(join(dir, 'pages.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
  const result = await runCli(['generate', 'pages.jsonl', '--base-url', 'https://www.example.com/', '--out', 'out'], { cwd: dir });
  // An unknown field is treated as an unknown CSV column: one warning per file, ignored, the entry written.
  assert.equal(result.code, 0, result.stderr);
  // ...and --help says so: it had promised exit 1 for anything warned about.
  const help = await runCli(['generate', '--help'], { cwd: dir });
  assert.match(help.stdout, /0 every entry written as given \(unknown columns only warned about\)/);
  assert.equal(result.stderr, 'pages.jsonl:3: warning input/unknown-field unknown field "lastMod" ignored (did you mean "lastmod"?); the entry model\'s fields are in README "JSON Lines input"; not reported again for this file\n');
  const xml = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
  assert.deepEqual(locsOf(xml), ['https://www.example.com/p1', 'https://www.example.com/p2', 'https://www.example.com/p3']);
  assert.ok(xml.includes('xmlns:image=') && xml.includes('xmlns:news=') && xml.includes('xmlns:xhtml='));
  assert.ok(!xml.includes('xmlns:video='));
  const check = await xmllint(xml, 'all');
  assert.deepEqual(check.errors, []);
});

test('the summary names the folder as it was given, below the working folder (as usage.md and the README show it)', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), 'https://www.example.com/a\n');
  const r = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'public'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Wrote 1 URL in 1 sitemap to public \(/);
  assert.match(r.stdout, /^ {2}entry file: public\/sitemap\.xml \(submit /m);
  // Outside the working folder, the absolute path.
  const elsewhere = tempDir();
  const outside = await runCli(['generate', join(dir, 'urls.txt'), '--base-url', 'https://www.example.com/', '--out', elsewhere], { cwd: dir });
  assert.ok(outside.stdout.includes(`\n  entry file: ${join(elsewhere, 'sitemap.xml')} (`), outside.stdout);
});

test('usage errors exit 2 with one line and no stack trace', async () => {
  const dir = tempDir();
  const cases: [string[], RegExp][] = [
    [['generate', 'x.txt', '--out', 'out'], /--base-url URL is required/],
    [['generate', 'x.txt', '--base-url', 'https://e.com/'], /--out DIR is required/],
    [['generate', '--base-url', 'https://e.com/', '--out', 'o'], /no input/],
    [['generate', 'x.txt', '--base-url', 'https://e.com/', '--out', 'o', '--index', 'sometimes'], /--index must be one of auto, always, never/],
    [['generate', 'x.txt', '--base-url', 'https://e.com/', '--out', 'o', '--max-urls', 'lots'], /--max-urls needs a whole number/],
    [['generate', 'x.txt', '--base-url', 'https://e.com/', '--out', 'o', '--bogus'], /^sitemapkit generate: unknown option --bogus\n/],
    [['generate', 'x.txt', '--base-url', 'https://e.com/', '--out', 'o', '--max-byte', '1M'], /^sitemapkit generate: unknown option --max-byte; did you mean --max-bytes\?\n/],
    [['generate', 'missing.txt', '--base-url', 'https://e.com/', '--out', 'o'], /cannot read missing\.txt: no such file/],
    [['generate', 'x.txt', '--base-url', 'ftp://e.com/', '--out', 'o'], /ftp/],
    [['generate', 'x.txt', '--base-url', 'https://e.com/', '--out', 'o', '--max-urls', '60000'], /max URLs must be a whole number from 1 to 50000/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ];
  writeFileSync(join(dir, 'x.txt'), 'https://e.com/a\n');
  for (const [argv, message] of cases) {
    const result = await runCli(argv, { cwd: dir });
    assert.equal(result.code, 2, `${argv.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message, argv.join(' '));
    assert.ok(!/\n\s+at /.test(result.stderr), 'no stack trace');
  }
  // A limit above the protocol's names the option and points to the help, as every usage error does.
  for (const [flag, value, most] of [['--max-urls', '60000', '50000'], ['--max-bytes', '11M', '10485760']] as const) {
    const result = await runCli(['generate', 'x.txt', '--base-url', 'https://e.com/', '--out', 'o', '--limits', 'legacy', flag, value], { cwd: dir });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, new RegExp(`^sitemapkit generate: ${flag} \\d+: .* ${most}, the 2008 protocol's limit \\(--limits legacy\\)\nRun "sitemapkit generate --help" for usage\\.\n$`));
  }
});

test('an input refused whole writes nothing and says so: not even the --out folder is made', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'empty.txt'), '# nothing here\n');
  writeFileSync(join(dir, 'bad.txt'), 'not a url\n');
  const empty = await runCli(['generate', 'empty.txt', '--base-url', 'https://e.com/', '--out', 'out'], { cwd: dir });
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /no URLs to write/);
  writeFileSync(join(dir, 'header.csv'), 'loc,lastmod\n');
  const header = await runCli(['generate', 'header.csv', '--base-url', 'https://e.com/', '--out', 'out'], { cwd: dir });
  assert.equal(header.code, 2);
  assert.match(header.stderr, /^header\.csv:1: warning input\/no-records the CSV has a header and no records\n.*no URLs to write: the input lists none\n/);
  const refused: [string[], number][] = [
    [['missing.txt', '--out', 'out/a'], 2],
    [['bad.txt', '--out', 'out/a/b'], 1],
    [['bad.txt', '--out', 'out', '--shards', '2'], 1],
  ];
  for (const [argv, code] of refused) assert.equal((await runCli(['generate', ...argv, '--base-url', 'https://e.com/'], { cwd: dir })).code, code, argv.join(' '));
  assert.equal(existsSync(join(dir, 'out')), false);
  // A folder that was there stays.
  mkdirSync(join(dir, 'kept'));
  assert.equal((await runCli(['generate', 'bad.txt', '--base-url', 'https://e.com/', '--out', 'kept'], { cwd: dir })).code, 1);
  assert.deepEqual(readdirSync(join(dir, 'kept')), []);
});

test('--help teaches the command; --version prints the version', async () => {
  const dir = tempDir();
  const help = await runCli(['generate', '--help'], { cwd: dir });
  assert.equal(help.code, 0);
  for (const flag of ['--base-url', '--out', '--input-format', '--index', '--max-urls', '--max-bytes', '--no-gzip', '--xsl', '--name', '--quiet', '--json', 'Exit status']) {
    assert.ok(help.stdout.includes(flag), flag);
  }
  const version = await runCli(['--version'], { cwd: dir });
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  // After a command, alone, as --help is: every command prints the same version (build -v stays --verbose).
  for (const command of ['generate', 'build', 'validate', 'worker']) {
    for (const flag of ['--version', '-V']) assert.deepEqual(await runCli([command, flag], { cwd: dir }), { code: 0, stdout: version.stdout, stderr: '' }, `${command} ${flag}`);
  }
  // Among other arguments it is a usage error that says where the version is.
  const mixed = await runCli(['build', 'site', '--version'], { cwd: dir });
  assert.equal(mixed.code, 2);
  assert.match(mixed.stderr, /unknown option --version; the version: sitemapkit --version/);
});

test('--xsl, --no-gzip, --name and --profile legacy', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'u.txt'), Array.from({ length: 5 }, (_, i) => `/p${i}`).join('\n'));
  const result = await runCli(['generate', 'u.txt', '--base-url', 'https://e.com/', '--out', 'out', '--xsl', '/style.xsl', '--no-gzip', '--name', 'map', '--max-urls', '2', '--profile', 'legacy', '--quiet'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, '');
  const files = readdirSync(join(dir, 'out')).sort();
  assert.deepEqual(files.map((f) => f.replace(/\.[0-9a-f]{8}\.xml$/, '.xml')), ['map-00001.xml', 'map-00002.xml', 'map-00003.xml', 'map.xml']);
  assert.match(readFileSync(join(dir, 'out', files[0] as string), 'utf8'), /<\?xml-stylesheet type="text\/xsl" href="\/style.xsl"\?>/);
  assert.ok(statSync(join(dir, 'out', 'map.xml')).size > 0);
});

test('on a terminal a live progress line shows URLs, files and the rate; --quiet silences it', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'u.txt'), Array.from({ length: 400_000 }, (_, i) => `/p/${i}`).join('\n'));
  const tty = await runCli(['generate', 'u.txt', '--base-url', 'https://e.com/', '--out', 'out'], { cwd: dir, tty: true });
  assert.equal(tty.code, 0, tty.stderr);
  assert.match(tty.stderr, /\r\x1b\[Kgenerating: [\d,]+ URLs, \d+ files?, [\d,]+ URLs\/s/);
  assert.match(tty.stdout, /Wrote 400,000 URLs in 8 sitemaps and an index/);
  const quiet = await runCli(['generate', 'u.txt', '--base-url', 'https://e.com/', '--out', 'out', '--quiet'], { cwd: dir, tty: true });
  assert.equal(quiet.code, 0);
  assert.equal(quiet.stderr, '');
  assert.equal(quiet.stdout, '');
});

test('an --out that cannot be a directory is a one-line error, never a hang', { timeout: 20_000 }, async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'u.txt'), '/a\n');
  writeFileSync(join(dir, 'afile'), '');
  const outs: [string, RegExp][] = [['afile', /cannot write to .*afile: not a directory/]];
  // Node 20's recursive mkdir spins forever on a path like this one.
  if (existsSync('/proc/self')) outs.push(['/proc/nope/out', /cannot write to \/proc\/nope\/out: no such file/]);
  for (const [out, message] of outs) {
    const result = await runCli(['generate', 'u.txt', '--base-url', 'https://e.com/', '--out', out], { cwd: dir });
    assert.equal(result.code, 2, out);
    assert.match(result.stderr, message);
  }
  const nested = await runCli(['generate', 'u.txt', '--base-url', 'https://e.com/', '--out', 'a/b/c', '--quiet'], { cwd: dir });
  assert.equal(nested.code, 0, nested.stderr);
  assert.ok(existsSync(join(dir, 'a/b/c/sitemap.xml')));
});

// Issue 22 "Text input is strict": each of these lines was written as a URL, with exit 0.
test('a text line that is no absolute http(s) URL nor /path is rejected as FILE:LINE: reason, with a hint', async () => {
  const dir = tempDir();
  const lines = [
    'https://www.example.com/blog/ok',
    'www.example.com/page',
    'not a url at all',
    'https://www.example.com/blog/a\tb',
    '{"loc":"/blog/x"}',
    'page.html',
    '/blog/fine',
  ];
  writeFileSync(join(dir, 'urls.txt'), lines.join('\n') + '\n');
  const result = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/blog/', '--out', 'out', '--no-gzip'], { cwd: dir });
  assert.equal(result.code, 1, result.stderr);
  const gist = (line: string): string => `${line.split(': ')[0]} ${(/looks like [^:]+|contains a \w+/.exec(line) ?? ['neither an absolute'])[0]}`;
  assert.deepEqual(result.stderr.trim().split('\n').map(gist), [
    'urls.txt:2 looks like a URL without its scheme',
    'urls.txt:3 contains a space',
    'urls.txt:4 contains a tab',
    'urls.txt:5 looks like JSON Lines',
    'urls.txt:6 neither an absolute',
  ]);
  assert.match(result.stderr, /^urls\.txt:2: error input\/text .*looks like a URL without its scheme: https:\/\/www\.example\.com\/page\?$/m);
  const xml = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
  assert.deepEqual(locsOf(xml), ['https://www.example.com/blog/ok', 'https://www.example.com/blog/fine']);
  assert.match(result.stdout, /5 lines rejected/);
});

test('a .txt file holding CSV is refused at its header: exit 2, nothing written, the way out named', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), 'loc,lastmod\nhttps://www.example.com/a,2024-01-01\n');
  const result = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out'], { cwd: dir });
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stderr, 'sitemapkit generate: urls.txt:1: this text input looks like CSV (a header naming a loc column): use --input-format csv\n');
  assert.ok(!existsSync(join(dir, 'out', 'sitemap.xml')));
});

test('standard input is recognised by its content: CSV and JSON Lines piped without --input-format', async () => {
  const dir = tempDir();
  const csv = await runCli(['generate', '-', '--base-url', 'https://www.example.com/', '--out', 'csv', '--no-gzip', '-q'], {
    cwd: dir,
    stdin: Readable.from(['loc,lastmod\n', '/a,2024-01-01\n"https://www.example.com/b,c",\n']),
  });
  assert.equal(csv.code, 0, csv.stderr);
  const csvXml = readFileSync(join(dir, 'csv', 'sitemap.xml'), 'utf8');
  assert.deepEqual(locsOf(csvXml), ['https://www.example.com/a', 'https://www.example.com/b,c']);
  assert.ok(csvXml.includes('<lastmod>2024-01-01</lastmod>'));

  const jsonl = await runCli(['generate', '-', '--base-url', 'https://www.example.com/', '--out', 'jsonl', '--no-gzip', '-q'], {
    cwd: dir,
    stdin: Readable.from(['{"loc":"/a","images":[{"loc":"https://cdn.example.com/a.jpg"}]}\n{"loc":"/b"}\n']),
  });
  assert.equal(jsonl.code, 0, jsonl.stderr);
  const jsonlXml = readFileSync(join(dir, 'jsonl', 'sitemap.xml'), 'utf8');
  assert.deepEqual(locsOf(jsonlXml), ['https://www.example.com/a', 'https://www.example.com/b']);
  assert.ok(jsonlXml.includes('<image:loc>https://cdn.example.com/a.jpg</image:loc>'));
});

test('relative image, video and alternate URLs in JSON Lines resolve against --base-url like loc', async () => {
  const dir = tempDir();
  const entry = {
    loc: '/blog/p',
    images: [{ loc: '/img/p.jpg', license: 'license.html' }],
    videos: [{ thumbnailLoc: '/thumbs/p.jpg', title: 'T', description: 'D', contentLoc: 'video/p.mp4', playerLoc: '//player.example.com/p' }],
    alternates: [{ hreflang: 'en', href: '/en/blog/p' }],
  };
  writeFileSync(join(dir, 'pages.jsonl'), JSON.stringify(entry) + '\n');
  const result = await runCli(['generate', 'pages.jsonl', '--base-url', 'https://www.example.com/blog/', '--out', 'out', '--no-gzip'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const xml = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
  for (const expected of [
    '<loc>https://www.example.com/blog/p</loc>',
    '<image:loc>https://www.example.com/img/p.jpg</image:loc>',
    '<image:license>https://www.example.com/blog/license.html</image:license>',
    '<video:thumbnail_loc>https://www.example.com/thumbs/p.jpg</video:thumbnail_loc>',
    '<video:content_loc>https://www.example.com/blog/video/p.mp4</video:content_loc>',
    '<video:player_loc>https://player.example.com/p</video:player_loc>',
    'hreflang="en" href="https://www.example.com/en/blog/p"',
  ]) {
    assert.ok(xml.includes(expected), `${expected} in\n${xml}`);
  }
  assert.deepEqual((await xmllint(xml, 'all')).errors, []);
});

// `sitemapkit read X | sitemapkit generate - …`: whatever --format read prints, generate takes it as
// it is (no --input-format) and writes the same entries: read back, the set prints what read printed.
const ROUND_TRIP_FIXTURES = [
  'test/fixtures/generate/every-extension.xml',
  'test/fixtures/xml/prefixed-sitemap.xml',
  'test/fixtures/validate/seed-es-example.xml',
];
const ROOT = join(import.meta.dirname, '..', '..');
for (const fixture of ROUND_TRIP_FIXTURES) {
  for (const format of ['jsonl', 'csv', 'tsv', 'urls']) {
    test(`round trip: read ${fixture} --format ${format} | generate - writes the entries read printed`, async () => {
      const dir = tempDir();
      const printed = await runCli(['read', join(ROOT, fixture), '--format', format, '-q'], { cwd: dir });
      assert.equal(printed.code, 0, printed.stderr);
      const firstLoc = (format === 'jsonl' ? (JSON.parse(printed.stdout.split('\n')[0] as string) as { loc: string }).loc : (printed.stdout.split('\n')[format === 'urls' ? 0 : 1] as string).split(/[,\t]/)[0]) as string;
      const generated = await runCli(['generate', '-', '--base-url', new URL('/', firstLoc).href, '--out', 'out', '--no-gzip', '-q'], {
        cwd: dir,
        stdin: Readable.from([printed.stdout]),
      });
      assert.equal(generated.code, 0, generated.stderr);
      const readBack = await runCli(['read', join(dir, 'out', 'sitemap.xml'), '--format', format, '-q'], { cwd: dir });
      assert.equal(readBack.code, 0, readBack.stderr);
      assert.equal(readBack.stdout, printed.stdout);
      if (fixture.endsWith('every-extension.xml') && format === 'jsonl') {
        // The fixture does hold every extension, so the comparison above covers them.
        for (const field of ['"images"', '"videos"', '"news"', '"alternates"']) assert.ok(printed.stdout.includes(field), field);
      }
    });
  }
}

test('CSV columns are found by common names in any case (a Screaming Frog export), other columns warned about once', async () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'internal_all.csv'),
    ['"Address","Content Type","Status Code","Last Modified","Change Frequency","Priority"', '"https://www.example.com/a","text/html",200,"2024-05-01","weekly","0.8"', '"https://www.example.com/b","text/html",200,"","",""'].join('\r\n'),
  );
  const result = await runCli(['generate', 'internal_all.csv', '--base-url', 'https://www.example.com/', '--out', 'out'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, 'internal_all.csv:1: warning input/unknown-column unknown CSV columns "Content Type", "Status Code" ignored (known: loc, lastmod, changefreq, priority; name one with --columns lastmod=NAME)\n');
  const xml = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
  assert.ok(xml.includes('<url><loc>https://www.example.com/a</loc><lastmod>2024-05-01</lastmod><changefreq>weekly</changefreq><priority>0.8</priority></url>'), xml);
  assert.ok(xml.includes('<url><loc>https://www.example.com/b</loc></url>'), xml);
});

test('--columns maps CSV and TSV columns by header name, quoted names with commas too', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'pages.csv'), ['Page,"Changed, last",URL', 'https://www.example.com/a,2024-05-01,https://elsewhere.example/'].join('\n'));
  const csv = await runCli(['generate', 'pages.csv', '--base-url', 'https://www.example.com/', '--out', 'out', '--columns', 'loc=page,lastmod="Changed, last"'], { cwd: dir });
  assert.equal(csv.code, 0, csv.stderr);
  assert.match(csv.stderr, /^pages\.csv:1: warning input\/unknown-column unknown CSV column "URL" ignored/);
  assert.ok(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8').includes('<loc>https://www.example.com/a</loc><lastmod>2024-05-01</lastmod>'));

  writeFileSync(join(dir, 'pages.tsv'), ['Seite\tGeändert', 'https://www.example.com/b\t2024-06-01'].join('\n'));
  const tsv = await runCli(['generate', 'pages.tsv', '--base-url', 'https://www.example.com/', '--out', 'out2', '--columns', 'loc=Seite,lastmod=Geändert'], { cwd: dir });
  assert.equal(tsv.code, 0, tsv.stderr);
  assert.ok(readFileSync(join(dir, 'out2', 'sitemap.xml'), 'utf8').includes('<loc>https://www.example.com/b</loc><lastmod>2024-06-01</lastmod>'));

  const missing = await runCli(['generate', 'pages.tsv', '--base-url', 'https://www.example.com/', '--out', 'out3', '--columns', 'loc=Address'], { cwd: dir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /pages\.tsv:1: TSV header has no column "Address" for --columns loc=/);
  const bad = await runCli(['generate', 'pages.tsv', '--base-url', 'https://www.example.com/', '--out', 'out3', '--columns', 'url=Seite'], { cwd: dir });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--columns "url=Seite": "url" is not one of loc, lastmod, changefreq, priority/);
});

test('--lastmod, --changefreq and --priority fill in entries that lack the field, validated like the fields', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'pages.csv'), ['loc,lastmod,changefreq,priority', '/given,2024-01-01,daily,0.9', '/bare,,,'].join('\n'));
  const before = Date.now();
  const result = await runCli(['generate', 'pages.csv', '--base-url', 'https://www.example.com/', '--out', 'out', '--lastmod', 'now', '--changefreq', 'weekly', '--priority', '0.3'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const xml = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
  assert.ok(xml.includes('<loc>https://www.example.com/given</loc><lastmod>2024-01-01</lastmod><changefreq>daily</changefreq><priority>0.9</priority>'), xml);
  const now = /<loc>https:\/\/www\.example\.com\/bare<\/loc><lastmod>(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)<\/lastmod><changefreq>weekly<\/changefreq><priority>0\.3<\/priority>/.exec(xml);
  assert.ok(now !== null, xml);
  const stamp = Date.parse(now[1] as string);
  assert.ok(stamp >= Math.floor(before / 1000) * 1000 && stamp <= Date.now(), now[1]);

  const dated = await runCli(['generate', 'pages.csv', '--base-url', 'https://www.example.com/', '--out', 'out', '--lastmod', '2023-02-03'], { cwd: dir });
  assert.equal(dated.code, 0, dated.stderr);
  assert.ok(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8').includes('<loc>https://www.example.com/bare</loc><lastmod>2023-02-03</lastmod></url>'));

  const cases: [string[], RegExp][] = [
    [['--changefreq', 'Weekly'], /--changefreq: changefreq "Weekly" is not one of .*write it as "weekly"/],
    [['--priority', '1.5'], /--priority: priority "1\.5" is outside/],
    [['--lastmod', 'yesterday'], /--lastmod: lastmod "yesterday"/],
    [['--lastmod', '2999-01-01'], /--lastmod "2999-01-01" is in the future/],
  ];
  for (const [flags, message] of cases) {
    const bad = await runCli(['generate', 'pages.csv', '--base-url', 'https://www.example.com/', '--out', 'out', ...flags], { cwd: dir });
    assert.equal(bad.code, 2, flags.join(' '));
    assert.match(bad.stderr, message);
  }
});

test('a refused field with a default given is replaced by the default, with a warning', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'pages.csv'), ['loc,changefreq', '/a,Weekly'].join('\n'));
  const result = await runCli(['generate', 'pages.csv', '--base-url', 'https://www.example.com/', '--out', 'out', '--changefreq', 'monthly'], { cwd: dir });
  assert.equal(result.code, 1);
  assert.match(result.stderr.trim(), /^pages\.csv:2: warning changefreq\/invalid .*; --changefreq monthly is written instead$/);
  assert.ok(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8').includes('<loc>https://www.example.com/a</loc><changefreq>monthly</changefreq>'));
});

test('--include and --exclude filter URLs by path (repeatable, picomatch as build), counted, not problems', async () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'urls.txt'),
    ['https://www.example.com/', 'https://www.example.com/blog/a?x=1', '/blog/drafts/b', '/blog/c/print', '/docs/d', '/shop/e'].join('\n'),
  );
  const result = await runCli(
    ['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--include', 'blog/**', '--include', '/docs/**', '--exclude', 'blog/drafts/**', '--exclude', '**/print', '--json'],
    { cwd: dir },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(locsOf(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8')).map(unescape), ['https://www.example.com/blog/a?x=1', 'https://www.example.com/docs/d']);
  const summary = JSON.parse(result.stdout);
  assert.equal(summary.excluded, 4);
  assert.equal(summary.ok, true);
  const human = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--exclude', 'shop/*'], { cwd: dir });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /1 URL left out by --include\/--exclude/);
  const empty = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--exclude', ''], { cwd: dir });
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /^sitemapkit generate: --include\/--exclude: /);
  const none = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--include', 'nothing/**'], { cwd: dir });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no URL could be written: --include\/--exclude left out all 6 URLs/);
});

test('a #fragment is dropped from the written URL with a warning; the two URLs it made one are written once', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), ['https://www.example.com/faq#shipping', 'https://www.example.com/faq#returns', '/plain'].join('\n'));
  const result = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out'], { cwd: dir });
  assert.equal(result.code, 1);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 2, result.stderr);
  assert.match(lines[0] as string, /^urls\.txt:1: warning loc\/fragment "https:\/\/www\.example\.com\/faq#shipping" has the fragment "#shipping"; search engines drop it .*RFC 3986 §3\.5.*, so "https:\/\/www\.example\.com\/faq" is written$/);
  assert.match(lines[1] as string, /^urls\.txt:2: warning loc\/fragment /);
  assert.deepEqual(locsOf(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8')), ['https://www.example.com/faq', 'https://www.example.com/plain']);
  assert.match(result.stdout, /1 repeated URL written once/);

  const strict = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--strict'], { cwd: dir });
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /^urls\.txt:1: error loc\/fragment "https:\/\/www\.example\.com\/faq#shipping" has the fragment .*\(--strict\)$/m);
  assert.deepEqual(locsOf(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8')), ['https://www.example.com/plain']);
});

test('a lastmod in the future is written as given, with a warning (a day of leeway, as validate)', async () => {
  const dir = tempDir();
  const tomorrowNoon = new Date(Date.now() + 6 * 3600_000).toISOString().slice(0, 19) + 'Z';
  writeFileSync(join(dir, 'pages.csv'), ['loc,lastmod', '/past,2024-01-01', '/soon,' + tomorrowNoon, '/future,2999-01-01'].join('\n'));
  const result = await runCli(['generate', 'pages.csv', '--base-url', 'https://www.example.com/', '--out', 'out'], { cwd: dir });
  assert.equal(result.code, 1);
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  assert.match(result.stderr, /^pages\.csv:4: warning lastmod\/future lastmod "2999-01-01" is in the future; it is written as given/);
  assert.ok(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8').includes('<loc>https://www.example.com/future</loc><lastmod>2999-01-01</lastmod>'));
});

test('an hreflang that is no BCP 47 tag is left out with "write en-US"; --strict rejects the entry', async () => {
  const dir = tempDir();
  const entry = { loc: '/p', alternates: [{ hreflang: 'en_US', href: '/p' }, { hreflang: 'en-UK', href: '/uk/p' }, { hreflang: 'de', href: '/de/p' }] };
  writeFileSync(join(dir, 'pages.jsonl'), JSON.stringify(entry) + '\n');
  const result = await runCli(['generate', 'pages.jsonl', '--base-url', 'https://www.example.com/', '--out', 'out'], { cwd: dir });
  assert.equal(result.code, 1);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 2, result.stderr);
  assert.match(lines[0] as string, /^pages\.jsonl:1: warning hreflang\/invalid-language hreflang "en_US" is not a BCP 47 language tag .*: write en-US; the URL is written without the alternate "\/p"$/);
  assert.match(lines[1] as string, /^pages\.jsonl:1: warning hreflang\/invalid-language hreflang "en-UK" .*: write en-GB;/);
  const xml = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
  assert.ok(xml.includes('hreflang="de"') && !xml.includes('en_US') && !xml.includes('en-UK'), xml);

  // A well-formed BCP 47 tag the writer's hreflang syntax refuses (a variant): its alternate is left out too.
  writeFileSync(join(dir, 'variant.jsonl'), JSON.stringify({ loc: '/v', alternates: [{ hreflang: 'de-DE-1996', href: '/de' }, { hreflang: 'fr', href: '/fr' }] }) + '\n');
  const variant = await runCli(['generate', 'variant.jsonl', '--base-url', 'https://www.example.com/', '--out', 'out3'], { cwd: dir });
  assert.equal(variant.code, 1);
  assert.match(variant.stderr.trim(), /^variant\.jsonl:1: warning hreflang\/invalid hreflang "de-DE-1996" .*; the URL is written without this alternate$/);
  const variantXml = readFileSync(join(dir, 'out3', 'sitemap.xml'), 'utf8');
  assert.ok(variantXml.includes('hreflang="fr"') && !variantXml.includes('1996'), variantXml);

  const strict = await runCli(['generate', 'pages.jsonl', '--base-url', 'https://www.example.com/', '--out', 'out2', '--strict'], { cwd: dir });
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /^pages\.jsonl:1: error hreflang\/invalid-language hreflang "en_US" .*write en-US \(--strict\)$/m);
  assert.match(strict.stderr, /sitemapkit generate: no URL could be written: every entry was rejected \(1 problem above\)/);
});

test('on a terminal a repeated problem is shown 5 times, then counted; in a pipe every line is printed', async () => {
  const dir = tempDir();
  const urls = Array.from({ length: 2000 }, (_, i) => `http://www.example.com/p${i}`);
  writeFileSync(join(dir, 'urls.txt'), ['https://www.example.com/ok', ...urls, ...urls.slice(0, 7).map((u) => `${u.replace('http:', 'https:')}#x`)].join('\n'));
  // --format json, for no progress line and no summary: -q would hide the warnings (issue 23: errors only).
  const tty = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--format', 'json'], { cwd: dir, tty: true });
  assert.equal(tty.code, 1);
  const lines = tty.stderr.split('\n').map((l) => l.replace(/^(\r\x1b\[K)+/, '')).filter((l) => l !== '');
  assert.equal(lines.filter((l) => l.includes(' is outside ')).length, 5, tty.stderr);
  assert.equal(lines.filter((l) => l.includes('warning loc/fragment')).length, 5, tty.stderr);
  assert.ok(lines.includes('urls.txt: \u2026 and 1,995 more: URLs outside --base-url (loc/out-of-scope)'), tty.stderr);
  assert.ok(lines.includes('urls.txt: \u2026 and 2 more: URLs written without their #fragment (loc/fragment)'), tty.stderr);
  assert.equal(lines.length, 12, tty.stderr);
  const pipe = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--format', 'json'], { cwd: dir });
  assert.equal(pipe.stderr.trim().split('\n').length, 2007);
});

test('--dry-run makes the whole set and writes nothing: what it prints is what a real run writes', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'a.txt'), Array.from({ length: 30 }, (_, i) => `https://e.com/a${i}`).join('\n') + '\n');
  writeFileSync(join(dir, 'b.txt'), Array.from({ length: 25 }, (_, i) => `https://e.com/b${i}`).join('\n') + '\n');
  const common = ['--base-url', 'https://e.com/', '--out', 'out', '--max-urls', '10'];
  // Into a folder that does not exist: not even the folder is made.
  const first = await runCli(['generate', 'a.txt', ...common, '--dry-run'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^Dry run, nothing written: would write 30 URLs in 3 sitemaps and an index/);
  assert.equal(existsSync(join(dir, 'out')), false);
  // Over an existing set: every file stays as it was, and the names printed are those a real run writes.
  assert.equal((await runCli(['generate', 'a.txt', ...common], { cwd: dir })).code, 0);
  const before = new Map(readdirSync(join(dir, 'out')).map((name) => [name, readFileSync(join(dir, 'out', name))]));
  const dry = await runCli(['generate', 'b.txt', ...common, '--dry-run', '--format', 'json'], { cwd: dir });
  assert.equal(dry.code, 0, dry.stderr);
  const planned = JSON.parse(dry.stdout);
  assert.equal(planned.dryRun, true);
  assert.deepEqual(new Map(readdirSync(join(dir, 'out')).map((name) => [name, readFileSync(join(dir, 'out', name))])), before);
  const real = JSON.parse((await runCli(['generate', 'b.txt', ...common, '--json'], { cwd: dir })).stdout);
  assert.deepEqual(
    planned.sitemaps.map((f: { name: string; urls: number; bytes: number }) => [f.name, f.urls, f.bytes]),
    real.sitemaps.map((f: { name: string; urls: number; bytes: number }) => [f.name, f.urls, f.bytes]),
  );
  assert.deepEqual(planned.removed, real.removed);
  assert.ok(planned.removed.length > 0, 'the old children would be removed');
});

test('-v lists every file in the summary and, on a terminal, every problem', async () => {
  const dir = tempDir();
  const lines = [...Array.from({ length: 12 }, (_, i) => `https://e.com/p${i}`), ...Array.from({ length: 7 }, (_, i) => `not a url ${i}`)];
  writeFileSync(join(dir, 'u.txt'), lines.join('\n') + '\n');
  const argv = ['generate', 'u.txt', '--base-url', 'https://e.com/', '--out', 'out', '--max-urls', '1'];
  const plain = await runCli(argv, { cwd: dir, tty: true });
  const verbose = await runCli([...argv, '-v'], { cwd: dir, tty: true });
  assert.equal(plain.code, 1);
  assert.equal(verbose.code, 1);
  assert.match(plain.stdout, /\.\.\. 4 more/);
  assert.equal((verbose.stdout.match(/: 1 URL, /g) ?? []).length, 12);
  assert.equal((plain.stderr.match(/not a url/g) ?? []).length, 5);
  assert.equal((verbose.stderr.match(/not a url/g) ?? []).length, 7);
});

test('a loc in JSON Lines or CSV follows the rule of a text line: no bare host, no whitespace, no other scheme (exit 1, nothing made up)', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'pages.jsonl'), ['{"loc":"www.example.com/h"}', '{"loc":"https://www.example.com/a\\tb"}', '{"loc":"ftp://www.example.com/f"}', '{"loc":"/ok"}'].join('\n') + '\n');
  writeFileSync(join(dir, 'pages.csv'), 'loc,lastmod\n"https://www.example.com/x\ny",2024-01-01\n/fine,2024-01-01\n');
  const r = await runCli(['generate', 'pages.jsonl', 'pages.csv', '--base-url', 'https://www.example.com/', '--out', 'out', '--no-gzip'], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /^pages\.jsonl:1: error input\/jsonl loc "www\.example\.com\/h" .*looks like a URL without its scheme: https:\/\/www\.example\.com\/h\?/m);
  assert.match(r.stderr, /^pages\.jsonl:2: error input\/jsonl loc .* contains a tab at column 26/m);
  assert.match(r.stderr, /^pages\.jsonl:3: error input\/jsonl .*the scheme is "ftp"/m);
  assert.match(r.stderr, /^pages\.csv:2: error input\/csv loc .* contains a white space \(U\+000A\)/m);
  const xml = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
  assert.deepEqual([...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]), ['https://www.example.com/ok', 'https://www.example.com/fine']);
});

test('--format json lists the problems (file, line, severity, code, message), not only their counts', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'pages.csv'), 'loc,changefreq\n/a,Weekly\nhttps://other.example.org/x,\n/b,\n');
  const r = await runCli(['generate', 'pages.csv', '--base-url', 'https://www.example.com/', '--out', 'out', '--format', 'json'], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  const summary = JSON.parse(r.stdout) as { warnings: number; rejected: number; problems: Array<{ file: string; line?: number; severity: string; code?: string }>; problemsNotListed: number };
  assert.deepEqual(summary.problems.map((p) => [p.file, p.line, p.severity, p.code]), [
    ['pages.csv', 2, 'warning', 'changefreq/invalid'],
    ['pages.csv', 3, 'error', 'loc/out-of-scope'],
  ]);
  assert.equal(summary.problemsNotListed, 0);
  assert.equal(summary.rejected, 1);
  assert.equal(summary.warnings, 1);
});

test('--format json when every line was rejected: the problems on standard output all the same, exit 1', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), 'www.example.com/a\nhttps://other.example.org/b\n');
  const r = await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out', '--format', 'json'], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  const summary = JSON.parse(r.stdout) as { urls: number; rejected: number; ok: boolean; problems: Array<{ line?: number; code?: string }> };
  assert.deepEqual(summary.problems.map((p) => [p.line, p.code]), [[1, 'input/text'], [2, 'loc/out-of-scope']]);
  assert.equal(summary.urls, 0);
  assert.equal(summary.rejected, 2);
  assert.equal(summary.ok, false);
});
