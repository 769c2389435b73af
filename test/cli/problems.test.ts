// Issue 23, "one grammar": every command prints a problem as one line, FILE:LINE:COL: severity code
// message (hint), the parts not known left out; on a terminal each line fits its width and a
// repeated problem is shown a few times, then counted; a pipe gets every line, whole. Long work shows
// a progress line on a terminal, cleared at the end.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { ProblemPrinter, formatProblem } from '../../src/cli/problems.js';
import { width } from '../../src/cli/format.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { startSiteServer } from '../helpers/site-server.js';

/** FILE[:LINE[:COL]]: severity [code] message: the compiler convention. */
const PROBLEM_LINE = /^[^\s:]+(?::[1-9]\d*(?::[1-9]\d*)?)?: (error|warning|info)(?: [a-z0-9-]+\/[a-z0-9-]+)? \S.*$/;

/** What a terminal shows of `text`: the progress line's rewrites and clears taken out. */
function screenLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.split('\r\x1b[K').at(-1) as string)
    .filter((line) => line !== '');
}

const BAD_SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a</loc><priority>high</priority><changefreq>Weekly</changefreq></url>
<url><loc>/relative/page-with-a-rather-long-name-to-make-the-message-long</loc></url>
</urlset>
`;

test('formatProblem: FILE:LINE:COL: severity code message (hint), positions only when known and never 0', () => {
  assert.equal(formatProblem({ code: 'loc/not-absolute', severity: 'error', message: 'not absolute', line: 4, column: 6, hint: 'write the full URL' }, 'a.xml'), 'a.xml:4:6: error loc/not-absolute not absolute (write the full URL)');
  assert.equal(formatProblem({ code: 'x/y', severity: 'warning', message: 'm', line: 2, file: 'robots.txt' }, 'ignored'), 'robots.txt:2: warning x/y m');
  assert.equal(formatProblem({ severity: 'error', message: 'unreadable', line: 0, column: 0 }, 'f.txt'), 'f.txt: error unreadable');
  // A newline or an ESC from a hostile input cannot break the line or drive the terminal.
  assert.equal(formatProblem({ code: 'x/y', severity: 'info', message: 'a\nb\x1b[2J' }, 'f'), 'f: info x/y a\\nb\\u001b[2J');
  // Nor can a bidi control reorder what is shown (U+202E: …/\u202Egnp.exe drawn as …/exe.png).
  assert.equal(formatProblem({ severity: 'error', message: 'https://e.com/\u202egnp.exe \u2067\u200e' }, 'f'), 'f: error https://e.com/\\u202egnp.exe \\u2067\\u200e');
});

test('every command prints its problems in the one line shape', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'bad.xml'), BAD_SITEMAP);
  writeFileSync(join(dir, 'urls.txt'), 'https://www.example.com/a\nwww.example.com/b\nhttp://www.example.com/c\n');
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nSitemap {{url}}/x.xml\n');
  const runs = [
    await runCli(['read', 'bad.xml'], { cwd: dir }),
    await runCli(['generate', 'urls.txt', '--base-url', 'https://www.example.com/', '--out', 'out'], { cwd: dir }),
    await runCli(['robots', '--sitemap', 'https://www.example.com/sitemap.xml', '--check'], { cwd: dir }),
  ];
  for (const result of runs) {
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    assert.ok(lines.length > 0, 'some problem was reported');
    for (const line of lines) assert.match(line, PROBLEM_LINE);
  }
  assert.ok(runs[0]?.stderr.includes('bad.xml:4:6: error loc/not-absolute '), runs[0]?.stderr);
  assert.match(runs[1]?.stderr ?? '', /^urls\.txt:2: error input\/text /m);
  assert.match(runs[1]?.stderr ?? '', /^urls\.txt:3: error loc\/out-of-scope /m);
  assert.match(runs[2]?.stderr ?? '', /^robots\.txt:2: warning /m);
});

test('read on a terminal: 5 problems of a code per file, then a count; a pipe gets every line', async () => {
  const dir = tempDir();
  // A text sitemap: each line that is not a URL is a text/not-a-url error.
  writeFileSync(join(dir, 'junk.txt'), Array.from({ length: 2000 }, (_, i) => `not a url ${i}`).join('\n') + '\n');
  writeFileSync(join(dir, 'junk2.txt'), Array.from({ length: 7 }, (_, i) => `still not a url ${i}`).join('\n') + '\n');
  const tty = await runCli(['read', 'junk.txt', 'junk2.txt'], { cwd: dir, tty: true });
  assert.equal(tty.code, 1);
  const lines = screenLines(tty.stderr);
  assert.equal(lines.filter((line) => /^junk\.txt:\d/.test(line)).length, 5, tty.stderr);
  assert.equal(lines.filter((line) => /^junk2\.txt:\d/.test(line)).length, 5, tty.stderr);
  assert.ok(lines.includes('junk.txt: \u2026 and 1,995 more: text/not-a-url'), tty.stderr);
  assert.ok(lines.includes('junk2.txt: \u2026 and 2 more: text/not-a-url'), tty.stderr);
  assert.equal(lines.length, 12, tty.stderr);
  const pipe = await runCli(['read', 'junk.txt', 'junk2.txt'], { cwd: dir });
  assert.equal(pipe.stderr.trimEnd().split('\n').length, 2007);
  // -v: every line on a terminal too.
  const verbose = await runCli(['read', 'junk.txt', 'junk2.txt', '-v'], { cwd: dir, tty: true });
  assert.equal(screenLines(verbose.stderr).filter((line) => /^junk2?\.txt:\d/.test(line)).length, 2007, verbose.stderr.slice(0, 500));
});

test('discover on a terminal: the same cap, per fetched document; a pipe gets every line', async () => {
  const server = await startSiteServer();
  try {
    server.route('/junk.txt', { type: 'text/plain', body: Array.from({ length: 30 }, (_, i) => `not a url ${i}`).join('\n') + '\n' });
    const url = server.url('/junk.txt');
    const argv = ['discover', url, '--format', 'urls', '--allow-private', '--retries', '0'];
    const tty = await runCli(argv, { cwd: tempDir(), tty: true, columns: 200 });
    const lines = screenLines(tty.stderr);
    assert.equal(lines.filter((line) => line.startsWith(`${url}:`) && line.includes(': error text/not-a-url ')).length, 5, tty.stderr);
    assert.ok(lines.includes(`${url}: \u2026 and 25 more: text/not-a-url`), tty.stderr);
    const pipe = await runCli(argv, { cwd: tempDir() });
    assert.equal(pipe.stderr.split('\n').filter((line) => line.includes(': error text/not-a-url ')).length, 30, pipe.stderr);
    // -v: every line on a terminal too.
    const verbose = await runCli([...argv, '-v'], { cwd: tempDir(), tty: true, columns: 200 });
    assert.equal(screenLines(verbose.stderr).filter((line) => line.includes(': error text/not-a-url ')).length, 30, verbose.stderr);
  } finally {
    await server.close();
  }
});

test('on a terminal a problem line is cut to its width with …; a pipe gets it whole', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'bad.xml'), BAD_SITEMAP);
  const tty = await runCli(['read', 'bad.xml'], { cwd: dir, tty: true, columns: 60 });
  const lines = screenLines(tty.stderr);
  assert.equal(lines.length, 3, tty.stderr);
  for (const line of lines) assert.ok(width(line) <= 60, `${width(line)} columns: ${line}`);
  assert.ok(lines.some((line) => line.endsWith('\u2026')), tty.stderr);
  const pipe = await runCli(['read', 'bad.xml'], { cwd: dir });
  assert.ok(pipe.stderr.split('\n').some((line) => width(line) > 100 && line.endsWith('the entry is skipped (write the full URL, with scheme and host (https://example.com/page))')), pipe.stderr);
});

test('the printer counts per file and code on a terminal only, and -v style (capped: false) shows all', () => {
  let text = '';
  const out = { write: (t: string) => (text += t) };
  const printer = new ProblemPrinter(out, { terminal: true, columns: 80 });
  for (let i = 1; i <= 8; i++) printer.print({ code: 'a/b', severity: 'warning', message: `m${i}`, line: i }, 'f.xml');
  printer.print({ severity: 'error', message: 'no code: never counted' }, 'f.xml');
  printer.finish();
  assert.deepEqual(text.trimEnd().split('\n'), ['f.xml:1: warning a/b m1', 'f.xml:2: warning a/b m2', 'f.xml:3: warning a/b m3', 'f.xml:4: warning a/b m4', 'f.xml:5: warning a/b m5', 'f.xml: error no code: never counted', 'f.xml: \u2026 and 3 more: a/b']);
  text = '';
  const all = new ProblemPrinter(out, { terminal: true, capped: false });
  for (let i = 1; i <= 8; i++) all.print({ code: 'a/b', severity: 'warning', message: `m${i}` }, 'f.xml');
  all.finish();
  assert.equal(text.trimEnd().split('\n').length, 8);
});

test('validate stylish on a terminal: each row fits the width; a hint that does not fit is left out, with a note', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'bad.xml'), BAD_SITEMAP);
  const tty = await runCli(['validate', 'bad.xml'], { cwd: dir, tty: true, columns: 80, env: { NO_COLOR: '1' } });
  assert.equal(tty.code, 1);
  const lines = screenLines(tty.stdout);
  for (const line of lines) assert.ok(width(line) <= 80, `${width(line)} columns: ${line}`);
  assert.ok(lines.some((line) => /\u2026 +loc\/not-absolute$/.test(line)), tty.stdout);
  assert.ok(lines.includes('(1 hint did not fit the terminal; --format json has them)'), tty.stdout);
  // Not on a terminal: the rows whole, every hint.
  const pipe = await runCli(['validate', 'bad.xml'], { cwd: dir });
  assert.ok(pipe.stdout.split('\n').some((line) => width(line) > 80), pipe.stdout);
  assert.ok(pipe.stdout.includes('write the full URL, with scheme and host (https://example.com/page)'), pipe.stdout);
  assert.ok(!pipe.stdout.includes('did not fit'), pipe.stdout);
});

test('validate stylish colours a terminal unless NO_COLOR is set and not empty (no-color.org), whatever its value, or TERM=dumb', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'bad.xml'), BAD_SITEMAP);
  const coloured = async (env: Record<string, string>): Promise<boolean> => (await runCli(['validate', 'bad.xml'], { cwd: dir, tty: true, columns: 80, env })).stdout.includes('\x1b[');
  assert.equal(await coloured({}), true);
  assert.equal(await coloured({ NO_COLOR: '' }), true);
  assert.equal(await coloured({ NO_COLOR: '0' }), false);
  // terminfo's "dumb" terminal understands no escapes.
  assert.equal(await coloured({ TERM: 'dumb' }), false);
  assert.equal((await runCli(['validate', 'bad.xml'], { cwd: dir })).stdout.includes('\x1b['), false, 'never into a pipe');
});

test('validate stylish: FORCE_COLOR colours a pipe too, before NO_COLOR, unless it is 0 or false (as Node reads it)', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'bad.xml'), BAD_SITEMAP);
  const coloured = async (env: Record<string, string>, tty = false): Promise<boolean> => (await runCli(['validate', 'bad.xml'], { cwd: dir, tty, columns: 80, env })).stdout.includes('\x1b[');
  assert.equal(await coloured({ FORCE_COLOR: '1' }), true);
  assert.equal(await coloured({ FORCE_COLOR: '' }), true);
  assert.equal(await coloured({ FORCE_COLOR: '1', NO_COLOR: '1' }), true);
  assert.equal(await coloured({ FORCE_COLOR: '0' }, true), false);
  assert.equal(await coloured({ FORCE_COLOR: 'false' }, true), false);
});

/** A sitemap of `n` entries, each with a priority that is not a number (priority/invalid). */
function badPriorities(n: number): string {
  const urls = Array.from({ length: n }, (_, i) => `<url><loc>https://www.example.com/p${i}</loc><priority>high</priority></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

test('validate stylish on a terminal: 5 rows of a code per file, then a count; a pipe gets every row; -v shows every row and hint', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'a.xml'), badPriorities(12));
  writeFileSync(join(dir, 'b.xml'), badPriorities(3));
  const HINT = 'write a number from 0.0 to 1.0, such as 0.5';
  const rows = (text: string): string[] => screenLines(text).filter((line) => /^ +\d+:\d+ +error .*priority\/invalid$/.test(line));
  const options = { cwd: dir, tty: true, columns: 56, env: { NO_COLOR: '1' } };
  const tty = await runCli(['validate', 'a.xml', 'b.xml'], options);
  assert.equal(tty.code, 1);
  const lines = screenLines(tty.stdout);
  assert.equal(rows(tty.stdout).length, 5 + 3, tty.stdout);
  // The count closes a.xml's block, before b.xml's name; b.xml has no more than 5.
  const more = lines.findIndex((line) => line.startsWith('  \u2026 and 7 more: priority not a number (priority/invalid)'));
  assert.ok(more > 0 && more < lines.findIndex((line) => line.startsWith('b.xml')), tty.stdout);
  assert.equal(lines.filter((line) => line.includes('\u2026 and')).length, 1, tty.stdout);
  for (const line of lines.filter((line) => line.startsWith('  '))) assert.ok(width(line) <= 56, `${width(line)} columns: ${line}`);
  // The summary counts every problem, shown or not.
  assert.ok(lines.some((line) => line.startsWith('\u2716 15 problems (15 errors, 0 warnings, 0 infos)')), tty.stdout);
  // Not on a terminal: every row, every hint.
  const pipe = await runCli(['validate', 'a.xml', 'b.xml'], { cwd: dir });
  assert.equal(rows(pipe.stdout).length, 15, pipe.stdout);
  assert.equal(pipe.stdout.split(HINT).length - 1, 15, pipe.stdout);
  assert.ok(!pipe.stdout.includes('\u2026 and'), pipe.stdout);
  // -v on a terminal: every row, and every hint even where it is wider than the terminal.
  const verbose = await runCli(['validate', 'a.xml', 'b.xml', '-v'], options);
  assert.equal(verbose.code, 1);
  assert.equal(rows(verbose.stdout).length, 15, verbose.stdout);
  assert.equal(verbose.stdout.split(HINT).length - 1, 15, verbose.stdout);
  assert.ok(!verbose.stdout.includes('\u2026 and') && !verbose.stdout.includes('did not fit'), verbose.stdout);
});

/** A sitemap of `n` entries. */
function bigSitemap(n: number): string {
  const urls: string[] = [];
  for (let i = 0; i < n; i++) urls.push(`<url><loc>https://www.example.com/page/${i}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

test('validate over a large input shows a progress line on a terminal, cleared at the end; none in a pipe', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'big.xml'), bigSitemap(40_000));
  const tty = await runCli(['validate', 'big.xml'], { cwd: dir, tty: true });
  assert.equal(tty.code, 0, tty.stdout);
  assert.match(tty.stderr, /\r\x1b\[Kvalidating big\.xml: [\d,]+ entries, 0 files done, [\d,]+ entries\/s/);
  assert.ok(tty.stderr.endsWith('\r\x1b[K'), JSON.stringify(tty.stderr.slice(-80)));
  const pipe = await runCli(['validate', 'big.xml'], { cwd: dir });
  assert.equal(pipe.stderr, '');
  const quiet = await runCli(['validate', 'big.xml', '--quiet'], { cwd: dir, tty: true });
  assert.equal(quiet.stderr, '');
});

test('read over a large input shows a progress line when its output goes elsewhere than the terminal', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'big.xml'), bigSitemap(40_000));
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: true },
    cwd: dir,
    env: {},
  };
  assert.equal(await run(['read', 'big.xml', '--format', 'urls'], io), 0);
  assert.equal(stdout.split('\n').length, 40_001);
  assert.match(stderr, /\r\x1b\[Kreading big\.xml: [\d,]+ entries, 0 files done, [\d,]+ entries\/s/);
  assert.ok(stderr.endsWith('\r\x1b[K'), JSON.stringify(stderr.slice(-80)));
});

// Issue 23: "in line order within a file". generate printed the reader's rejections of a chunk before
// the writer's problems with the lines above them (and a JSON Lines unknown field before the warnings
// of earlier lines).
test('generate prints the problems of a file in line order: the reader\'s and the writer\'s interleaved', async () => {
  const dir = tempDir();
  const base = 'https://www.example.com/';
  writeFileSync(join(dir, 'urls.txt'), [`${base}a#one`, 'not a url', 'http://www.example.com/b', `${base}c#two`, 'www.example.com/d', `${base}e`].join('\n') + '\n');
  writeFileSync(
    join(dir, 'pages.jsonl'),
    [
      JSON.stringify({ loc: `${base}f`, lastmod: '2999-01-01' }),
      JSON.stringify({ loc: `${base}g`, lastMod: '2020-01-01' }),
      '{not json',
      JSON.stringify({ loc: `${base}h#three` }),
    ].join('\n') + '\n',
  );
  const result = await runCli(['generate', 'urls.txt', 'pages.jsonl', '--base-url', base, '--out', 'out', '--format', 'json'], { cwd: dir });
  assert.equal(result.code, 1);
  const places = result.stderr
    .trim()
    .split('\n')
    .map((line) => /^([^:]+):(\d+): (\w+) (\S+)/.exec(line)?.slice(1, 5).join(' '));
  assert.deepEqual(places, [
    'urls.txt 1 warning loc/fragment',
    'urls.txt 2 error input/text',
    'urls.txt 3 error loc/out-of-scope',
    'urls.txt 4 warning loc/fragment',
    'urls.txt 5 error input/text',
    'pages.jsonl 1 warning lastmod/future',
    'pages.jsonl 2 warning input/unknown-field',
    'pages.jsonl 3 error input/jsonl',
    'pages.jsonl 4 warning loc/fragment',
  ]);
  // --format json lists them in the same order.
  const listed = (JSON.parse(result.stdout) as { problems: { file: string; line: number; code: string }[] }).problems;
  assert.deepEqual(
    listed.map((p) => `${p.file} ${p.line} ${p.code}`),
    places.map((p) => (p ?? '').replace(/ (error|warning) /, ' ')),
  );
});
