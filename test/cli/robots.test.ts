import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const S = 'https://www.example.com/sitemap.xml';
const NEWS = 'https://www.example.com/news.xml';

/** A directory holding robots.txt with `content` (none when undefined). */
function site(content?: string | Buffer): { dir: string; file: string } {
  const dir = tempDir();
  const file = join(dir, 'robots.txt');
  if (content !== undefined) writeFileSync(file, content);
  return { dir, file };
}

/** Sets the file's times in the past, so that a write would show. */
function age(file: string): number {
  utimesSync(file, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
  return statSync(file).mtimeMs;
}

test('a missing robots.txt is created with the Sitemap line, and nothing else appears', async () => {
  const { dir, file } = site();
  const result = await runCli(['robots', '--sitemap', S], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(file, 'utf8'), `Sitemap: ${S}\n`);
  assert.deepEqual(readdirSync(dir), ['robots.txt']);
  assert.equal(result.stdout, `robots.txt: created; added Sitemap: ${S}\n`);
  assert.equal(result.stderr, '');
});

test('--file names the file, relative to the working directory', async () => {
  const { dir } = site();
  mkdirSync(join(dir, 'public'));
  const result = await runCli(['robots', '--sitemap', S, '--file', 'public/robots.txt'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(join(dir, 'public', 'robots.txt'), 'utf8'), `Sitemap: ${S}\n`);
  assert.match(result.stdout, /^public\/robots\.txt: created; /);
});

test('a CRLF file with a BOM keeps both; every other byte stays', async () => {
  const before = '\ufeffUser-agent: *\r\nDisallow: /private # keep out\r\n';
  const { dir, file } = site(Buffer.from(before, 'utf8'));
  const result = await runCli(['robots', '--sitemap', S], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const bytes = readFileSync(file);
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.equal(bytes.toString('utf8'), `${before}\r\nSitemap: ${S}\r\n`);
});

test('a URL already listed is not added again, and the file is not written at all', async () => {
  const before = `User-agent: *\nDisallow:\n\nsitemap: ${S} # main\n`;
  const { dir, file } = site(before);
  const mtime = age(file);
  const result = await runCli(['robots', '--sitemap', S], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(file, 'utf8'), before);
  assert.equal(statSync(file).mtimeMs, mtime);
  assert.equal(result.stdout, 'robots.txt: up to date; 1 already present\n');
});

test('a line spelling the URL differently is rewritten in place; a repeat of it is removed', async () => {
  const { dir, file } = site('User-agent: *\nsitemap:http://WWW.EXAMPLE.com:80/sitemap.xml\nDisallow: /x\nSitemap: http://www.example.com/sitemap.xml\n');
  const result = await runCli(['robots', '--sitemap', 'http://www.example.com/sitemap.xml', '--sitemap', NEWS], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(file, 'utf8'), `User-agent: *\nSitemap: http://www.example.com/sitemap.xml\nDisallow: /x\nSitemap: ${NEWS}\n`);
  assert.equal(
    result.stdout,
    `robots.txt: added Sitemap: ${NEWS}; rewrote line 2 to Sitemap: http://www.example.com/sitemap.xml; removed repeated line 4\n`,
  );
});

test('--replace removes the Sitemap lines of other URLs', async () => {
  const { dir, file } = site(`User-agent: *\nDisallow: /x\n\nSitemap: https://old.example.com/a.xml\nSitemap: ${S}\nSitemap: /b.xml\n`);
  const result = await runCli(['robots', '--sitemap', S, '--sitemap', NEWS, '--replace'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(file, 'utf8'), `User-agent: *\nDisallow: /x\n\nSitemap: ${S}\nSitemap: ${NEWS}\n`);
  assert.equal(result.stdout, `robots.txt: added Sitemap: ${NEWS}; removed lines 4, 6 (not given with --sitemap); 1 already present\n`);
});

test('the summary names at most 10 line numbers of a kind, and counts the rest: 2,000 repeats make one short line', async () => {
  const { dir, file } = site(`Sitemap: ${S}\n`.repeat(2_000));
  const result = await runCli(['robots', '--sitemap', S], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(file, 'utf8'), `Sitemap: ${S}\n`);
  assert.equal(result.stdout, 'robots.txt: removed repeated lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 1,989 more; 1 already present\n');
});

test('without --replace, other Sitemap lines stay', async () => {
  const { dir, file } = site('Sitemap: https://old.example.com/a.xml\n');
  const result = await runCli(['robots', '--sitemap', S], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(file, 'utf8'), `Sitemap: https://old.example.com/a.xml\nSitemap: ${S}\n`);
});

test('--check: exit 1 and no write when the file would change, exit 0 when up to date', async () => {
  const before = 'User-agent: *\nDisallow: /x\n';
  const { dir, file } = site(before);
  const mtime = age(file);
  const stale = await runCli(['robots', '--sitemap', S, '--check'], { cwd: dir });
  assert.equal(stale.code, 1);
  assert.equal(stale.stdout, `robots.txt: would add Sitemap: ${S}\n`);
  assert.equal(readFileSync(file, 'utf8'), before);
  assert.equal(statSync(file).mtimeMs, mtime);

  assert.equal((await runCli(['robots', '--sitemap', S], { cwd: dir })).code, 0);
  const fresh = await runCli(['robots', '--sitemap', S, '--check'], { cwd: dir });
  assert.equal(fresh.code, 0, fresh.stderr);
  assert.equal(fresh.stdout, 'robots.txt: up to date; 1 already present\n');
  const quiet = await runCli(['robots', '--sitemap', NEWS, '--check', '--quiet'], { cwd: dir });
  assert.deepEqual([quiet.code, quiet.stdout, quiet.stderr], [1, '', '']);
});

test('--check on a missing file: exit 1, and the file is not created', async () => {
  const { dir, file } = site();
  const result = await runCli(['robots', '--sitemap', S, '--check'], { cwd: dir });
  assert.equal(result.code, 1);
  assert.equal(existsSync(file), false);
  assert.equal(result.stdout, `robots.txt: would create; would add Sitemap: ${S}\n`);
});

test('--dry-run prints the resulting file, writes nothing, and reports on stderr', async () => {
  const before = 'User-agent: *\r\nDisallow: /x\r\n';
  const { dir, file } = site(before);
  const result = await runCli(['robots', '--sitemap', S, '--dry-run'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${before}\r\nSitemap: ${S}\r\n`);
  assert.equal(result.stderr, `robots.txt: would add Sitemap: ${S}\n`);
  assert.equal(readFileSync(file, 'utf8'), before);

  const { dir: empty, file: missing } = site();
  assert.equal((await runCli(['robots', '--sitemap', S, '--dry-run'], { cwd: empty })).stdout, `Sitemap: ${S}\n`);
  assert.equal(existsSync(missing), false);
});

test('--json: a machine summary', async () => {
  const { dir } = site(`Sitemap: ${S}\n`);
  const result = await runCli(['robots', '--sitemap', S, '--sitemap', 'https://WWW.example.com/news.xml', '--json'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), {
    file: 'robots.txt',
    created: false,
    changed: true,
    written: true,
    added: [NEWS],
    updated: [],
    present: [S],
    removed: [],
    kept: [],
    touched: [],
    problems: [],
  });
});

test('--quiet prints nothing on success', async () => {
  const { dir, file } = site();
  const result = await runCli(['robots', '--sitemap', S, '-q'], { cwd: dir });
  assert.deepEqual([result.code, result.stdout, result.stderr], [0, '', '']);
  assert.equal(readFileSync(file, 'utf8'), `Sitemap: ${S}\n`);
});

test('warns when the file grows past the 500 KiB crawlers must read (RFC 9309 §2.5)', async () => {
  const { dir } = site(`# ${'x'.repeat(520 * 1024)}\n`);
  const result = await runCli(['robots', '--sitemap', S], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /^robots\.txt: warning robots\/too-large the file is 520\.\d KiB; crawlers may read only the first 500\.0 KiB \(RFC 9309 §2\.5\)\n$/);
});

test('keeps the permission bits of the file it replaces and leaves no temporary file', async () => {
  const { dir, file } = site('User-agent: *\n');
  chmodSync(file, 0o664); // group write, which the usual umask (022) would drop from a plain create
  const result = await runCli(['robots', '--sitemap', S], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(statSync(file).mode & 0o777, 0o664);
  assert.deepEqual(readdirSync(dir), ['robots.txt']);
});

test('a symlinked robots.txt: the target is edited and the link stays a link', async () => {
  const { dir } = site();
  mkdirSync(join(dir, 'shared'));
  writeFileSync(join(dir, 'shared', 'robots.txt'), 'User-agent: *\n');
  symlinkSync(join('shared', 'robots.txt'), join(dir, 'robots.txt'));
  const result = await runCli(['robots', '--sitemap', S], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(lstatSync(join(dir, 'robots.txt')).isSymbolicLink(), true);
  assert.equal(readFileSync(join(dir, 'shared', 'robots.txt'), 'utf8'), `User-agent: *\n\nSitemap: ${S}\n`);
});

for (const [label, url, reason] of [
  ['a relative URL', '/sitemap.xml', 'is not an absolute URL'],
  ['an ftp: URL', 'ftp://example.com/sitemap.xml', 'uses the scheme "ftp"'],
  ['a URL with a fragment', `${S}#part`, 'has a fragment'],
] as const) {
  test(`${label} as --sitemap: exit 2, one-line message, nothing written`, async () => {
    const { dir, file } = site();
    const result = await runCli(['robots', '--sitemap', S, '--sitemap', url], { cwd: dir });
    assert.equal(result.code, 2);
    const [first, second, ...rest] = result.stderr.split('\n');
    assert.ok(first?.startsWith(`sitemapkit robots: --sitemap ${JSON.stringify(url)}`), first);
    assert.ok(first?.includes(reason), first);
    assert.deepEqual([second, rest], ['Run "sitemapkit robots --help" for usage.', ['']]);
    assert.equal(existsSync(file), false);
  });
}

test('usage errors: no --sitemap, an unknown option, a positional', async () => {
  const { dir } = site();
  for (const argv of [['robots'], ['robots', '--sitemap', S, '--frobnicate'], ['robots', 'robots.txt', '--sitemap', S]]) {
    const result = await runCli(argv, { cwd: dir });
    assert.equal(result.code, 2, argv.join(' '));
    assert.match(result.stderr, /^sitemapkit robots: .+\nRun "sitemapkit robots --help" for usage\.\n$/);
  }
  assert.deepEqual(readdirSync(dir), []);
});

test('a directory as --file: exit 2 with the name and the reason', async () => {
  const { dir } = site();
  mkdirSync(join(dir, 'public'));
  const result = await runCli(['robots', '--sitemap', S, '--file', 'public'], { cwd: dir });
  assert.equal(result.code, 2);
  assert.equal(result.stderr, 'sitemapkit robots: cannot read public: is a directory\n');
});

test('a path through a file: exit 2, "not a directory"', async () => {
  const { dir } = site('User-agent: *\n');
  const result = await runCli(['robots', '--sitemap', S, '--file', 'robots.txt/robots.txt'], { cwd: dir });
  assert.equal(result.code, 2);
  assert.equal(result.stderr, 'sitemapkit robots: cannot read robots.txt/robots.txt: not a directory\n');
});

test('a file in a directory that does not exist: exit 2, and the directory is not made', async () => {
  const { dir } = site();
  const result = await runCli(['robots', '--sitemap', S, '--file', 'public/robots.txt'], { cwd: dir });
  assert.equal(result.code, 2);
  assert.equal(result.stderr, 'sitemapkit robots: cannot create public/robots.txt: the directory public does not exist\n');
  assert.deepEqual(readdirSync(dir), []);
});

test('an unreadable file: exit 2, "permission denied"', { skip: process.getuid?.() === 0 ? 'root reads any file' : false }, async () => {
  const { dir, file } = site('User-agent: *\n');
  chmodSync(file, 0o000);
  const result = await runCli(['robots', '--sitemap', S], { cwd: dir });
  chmodSync(file, 0o644);
  assert.equal(result.code, 2);
  assert.equal(result.stderr, 'sitemapkit robots: cannot read robots.txt: permission denied\n');
});

test('a file that is not UTF-8: exit 2 and the bytes stay as they were', async () => {
  const latin1 = Buffer.from('User-agent: *\nDisallow: /caf\xe9\n', 'latin1');
  const { dir, file } = site(latin1);
  const result = await runCli(['robots', '--sitemap', S], { cwd: dir });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^sitemapkit robots: cannot edit robots\.txt: it is not UTF-8 text .*\n$/);
  assert.deepEqual(readFileSync(file), latin1);
});

test('"sitemapkit --help" lists the command, and --help teaches with examples', async () => {
  const { dir } = site();
  assert.match((await runCli(['--help'], { cwd: dir })).stdout, /\n {2}robots +add or update the Sitemap: lines/);
  const help = await runCli(['robots', '--help'], { cwd: dir });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: sitemapkit robots --sitemap URL/);
  assert.match(help.stdout, /Examples:\n {2}sitemapkit robots --sitemap https:/);
});

test('a relative Sitemap line is matched against the site of the --sitemap URLs and rewritten to the full URL', async () => {
  const { dir, file } = site('User-agent: *\nDisallow:\nSitemap: /sitemap.xml\n');
  const result = await runCli(['robots', '--sitemap', S, '--json'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(file, 'utf8'), `User-agent: *\nDisallow:\nSitemap: ${S}\n`);
  const summary = JSON.parse(result.stdout) as { updated: string[]; added: string[] };
  assert.deepEqual(summary.updated, [S]);
  assert.deepEqual(summary.added, []);
});

test('--robots-url says where the file is served; a relative line then resolves against it', async () => {
  const other = 'https://cdn.example.net/sitemap.xml';
  // Sitemaps on two sites: no default base, so the relative line matches nothing and is kept.
  const before = 'Sitemap: /sitemap.xml\n';
  const kept = site(before);
  const plain = await runCli(['robots', '--sitemap', S, '--sitemap', other], { cwd: kept.dir });
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(readFileSync(kept.file, 'utf8'), `${before}Sitemap: ${S}\nSitemap: ${other}\n`);
  // Told where the file lives, the same line is the first sitemap, rewritten in place.
  const told = site(before);
  const result = await runCli(['robots', '--sitemap', S, '--sitemap', other, '--robots-url', 'https://www.example.com/robots.txt'], { cwd: told.dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(told.file, 'utf8'), `Sitemap: ${S}\nSitemap: ${other}\n`);
});

test('--robots-url must be an absolute http(s) URL (exit 2, nothing written)', async () => {
  for (const bad of ['/robots.txt', 'ftp://example.com/robots.txt']) {
    const { dir, file } = site('Sitemap: /sitemap.xml\n');
    const result = await runCli(['robots', '--sitemap', S, '--robots-url', bad], { cwd: dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--robots-url .* is not an absolute http\(s\) URL/);
    assert.equal(readFileSync(file, 'utf8'), 'Sitemap: /sitemap.xml\n');
  }
});

test('Sitemap lines that crawlers skip are reported with their line, left as they are, and listed in --json', async () => {
  const before = 'User-agent: *\nSitemap https://www.example.com/old.xml\nSitemap: {{blog-url}}/sitemap.xml\n';
  const { dir, file } = site(before);
  const result = await runCli(['robots', '--sitemap', S], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  // Neither is a Sitemap line to a crawler, so the new line goes at the end, after a blank line.
  assert.equal(readFileSync(file, 'utf8'), `${before}\nSitemap: ${S}\n`);
  const warnings = result.stderr.trim().split('\n');
  assert.equal(warnings.length, 2, result.stderr);
  assert.match(warnings[0] ?? '', /^robots\.txt:2: warning robots\/sitemap-no-colon no ":" after Sitemap/);
  assert.match(warnings[1] ?? '', /^robots\.txt:3: warning robots\/sitemap-placeholder .*template placeholder/);
  const json = await runCli(['robots', '--sitemap', S, '--json', '--check'], { cwd: dir });
  assert.equal(json.code, 0, json.stderr);
  const summary = JSON.parse(json.stdout) as { problems: { newLine: number; oldLine?: number; directive: string }[] };
  assert.deepEqual(summary.problems.map((p) => [p.oldLine, p.newLine, p.directive]), [[2, 2, 'sitemap'], [3, 3, 'sitemap']]);
  const quiet = await runCli(['robots', '--sitemap', S, '--quiet'], { cwd: dir });
  assert.equal(quiet.stderr, '');
});

// Issue 22: with --replace --json, `touched` counted lines of the old file and `problems` lines of the
// new one, both as "line": line 5 named two different lines.
test('--replace --json: every line number says which file it counts in (oldLine, newLine)', async () => {
  const before = [
    'User-agent: *',
    'Sitemap: https://www.example.com/old-1.xml',
    'Sitemap: https://www.example.com/old-2.xml',
    'sitemap: HTTPS://WWW.EXAMPLE.COM/sitemap.xml',
    'Sitemap: {{blog-url}}/sitemap.xml',
    'Disallow: /private',
    '',
  ].join('\n');
  const { dir, file } = site(before);
  const result = await runCli(['robots', '--sitemap', S, '--replace', '--json'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const after = readFileSync(file, 'utf8');
  assert.equal(after, `User-agent: *\nSitemap: ${S}\nSitemap: {{blog-url}}/sitemap.xml\nDisallow: /private\n`);
  const summary = JSON.parse(result.stdout) as {
    touched: { oldLine: number; newLine?: number; value: string; change: string }[];
    problems: { oldLine?: number; newLine: number; value: string }[];
  };
  assert.deepEqual(
    summary.touched.map((t) => [t.oldLine, t.newLine ?? null, t.change]),
    [
      [2, null, 'unrequested'],
      [3, null, 'unrequested'],
      [4, 2, 'rewritten'],
    ],
  );
  assert.deepEqual(summary.problems.map((p) => [p.oldLine, p.newLine, p.value]), [[5, 3, '{{blog-url}}/sitemap.xml']]);
  const oldLines = before.split('\n');
  const newLines = after.split('\n');
  for (const t of summary.touched) assert.ok((oldLines[t.oldLine - 1] as string).includes(t.value));
  for (const p of summary.problems) {
    assert.ok((newLines[p.newLine - 1] as string).includes(p.value));
    assert.ok((oldLines[(p.oldLine as number) - 1] as string).includes(p.value));
  }
  assert.ok(!/"line"/.test(result.stdout), 'no bare "line" left to guess about');
});

test('the FILE:LINE of a warning counts in the file on disk: the new one once written, the old one with --check', async () => {
  const before = `Sitemap: https://www.example.com/old.xml\nSitemap: {{blog-url}}/sitemap.xml\nSitemap: ${S}\n`;
  const { dir } = site(before);
  const check = await runCli(['robots', '--sitemap', S, '--replace', '--check'], { cwd: dir });
  assert.equal(check.code, 1);
  assert.match(check.stderr, /^robots\.txt:2: warning .*template placeholder/m);
  const written = await runCli(['robots', '--sitemap', S, '--replace'], { cwd: dir });
  assert.equal(written.code, 0, written.stderr);
  assert.match(written.stdout, /removed line 1 \(not given with --sitemap\)/);
  // Line 1 was removed: the placeholder is line 1 now.
  assert.equal(readFileSync(join(dir, 'robots.txt'), 'utf8').split('\n')[0], 'Sitemap: {{blog-url}}/sitemap.xml');
  assert.match(written.stderr, /^robots\.txt:1: warning .*template placeholder/m);
});

// Issue 23: robots printed its problems without a code, unlike every other command, and its JSON had none.
test('every problem robots reports has a stable code, on standard error and in --format json', async () => {
  const before = ['User-agent: *', 'Sitemap', 'Sitemap: ftp://example.com/s.xml', 'Sitemap: /relative.xml', `Sitemap: ${NEWS}`, `Sitemap: ${NEWS}`, `# ${'x'.repeat(520 * 1024)}`, ''].join('\n');
  const { dir } = site(before);
  const result = await runCli(['robots', '--sitemap', S, '--check'], { cwd: dir });
  assert.equal(result.code, 1);
  const printed = result.stderr.trim().split('\n');
  const expected = [
    'robots.txt:3: warning robots/sitemap-scheme ',
    'robots.txt:4: warning robots/sitemap-relative ',
    'robots.txt:6: warning robots/sitemap-duplicate ',
    'robots.txt: warning robots/too-large ',
  ];
  assert.equal(printed.length, expected.length, result.stderr);
  printed.forEach((line, i) => assert.ok(line.startsWith(expected[i] as string), `${line} should start with ${expected[i]}`));
  const json = await runCli(['robots', '--sitemap', S, '--check', '--format', 'json'], { cwd: dir });
  const summary = JSON.parse(json.stdout) as { problems: { code: string; oldLine?: number }[] };
  assert.deepEqual(
    summary.problems.map((p) => [p.oldLine, p.code]),
    [[3, 'robots/sitemap-scheme'], [4, 'robots/sitemap-relative'], [6, 'robots/sitemap-duplicate'], [undefined, 'robots/too-large']],
  );
  // Every code is documented.
  const rules = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
  for (const p of summary.problems) assert.ok(rules.includes(`| \`${p.code}\` |`), p.code);
});
