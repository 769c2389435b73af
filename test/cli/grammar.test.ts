// One command-line grammar (issue 23): every command is declared, a shared option is spelled, parsed
// and documented the same everywhere, each --help fits one screen, usage errors are one line with
// the closest option, and docs/cli.md is generated from the declarations.

import { test } from 'node:test';
import { execFile } from 'node:child_process';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_BIN, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { commandHelp, optionSynopsis, parseCommand, type OptionSpec } from '../../src/cli/command.js';
import { COMMAND_SPECS, READ } from '../../src/cli/declarations.js';
import { cliReference } from '../../src/cli/cli-docs.js';
import { REPORT_FORMATS } from '../../src/cli/report/index.js';
import { DEFAULT_STATE_PATH } from '../../src/node/build-site.js';

/**
 * Names two commands use for different things, on purpose; every other name used by two commands
 * must be one declaration.
 */
const DIFFERENT_BY_DESIGN: Readonly<Record<string, string>> = {
  out: 'a folder for the commands that write a set (generate, build, indexnow), a file for the list discover writes',
  exclude: "generate matches a URL's path, build a page's path in the site folder",
  concurrency: 'requests at once for discover, jobs at once for worker',
};

/**
 * A declaration without what may differ from one command to the next: the note, and --format's
 * choices (with them its --json alias, there wherever json is a choice).
 */
function comparable(option: OptionSpec): OptionSpec {
  const { note: _note, choices, aliases, ...rest } = option;
  if (option.name === 'format') {
    assert.equal(aliases?.some((a) => a.name === 'json' && a.value === 'json') ?? false, choices?.includes('json') ?? false);
    return rest;
  }
  return { ...rest, ...(choices !== undefined ? { choices } : {}), ...(aliases !== undefined ? { aliases } : {}) };
}


/** Each command line of `cases` is a usage error (exit 2) that says its message and where --help is. */
async function usageErrors(cases: readonly [string[], string][], cwd: string): Promise<void> {
  for (const [argv, message] of cases) {
    const r = await runCli(argv, { cwd });
    assert.equal(r.stderr, `sitemapkit ${argv[0]}: ${message}\nRun "sitemapkit ${argv[0]} --help" for usage.\n`, argv.join(' '));
    assert.equal(r.code, 2, argv.join(' '));
  }
}

test('a name used by two commands is one declaration: same spelling, aliases, value syntax and words', () => {
  const seen = new Map<string, { command: string; option: OptionSpec }>();
  for (const spec of COMMAND_SPECS) {
    const names = new Set<string>();
    for (const option of spec.options) {
      for (const name of [option.name, ...(option.aliases ?? []).map((a) => a.name)]) {
        assert.ok(!names.has(name), `${spec.name}: --${name} declared twice`);
        names.add(name);
      }
      if (option.short !== undefined) assert.equal(spec.options.filter((o) => o.short === option.short).length, 1, `${spec.name}: -${option.short} twice`);
      const first = seen.get(option.name);
      if (first === undefined) {
        seen.set(option.name, { command: spec.name, option });
        continue;
      }
      if (DIFFERENT_BY_DESIGN[option.name] !== undefined) continue;
      assert.deepEqual(comparable(option), comparable(first.option), `--${option.name} differs between ${first.command} and ${spec.name}`);
    }
  }
  // An alias is never another command's option name: one spelling, one meaning.
  for (const spec of COMMAND_SPECS) {
    for (const alias of spec.options.flatMap((o) => o.aliases ?? [])) {
      assert.ok(!seen.has(alias.name) || alias.value !== undefined, `--${alias.name} is an alias in ${spec.name} and an option elsewhere`);
    }
  }
});

test('the concepts the issue names have one flag each, the old spellings kept as aliases', () => {
  const option = (command: string, name: string): OptionSpec | undefined => COMMAND_SPECS.find((s) => s.name === command)?.options.find((o) => o.name === name);
  for (const command of ['generate', 'build', 'validate']) {
    assert.deepEqual(option(command, 'limits')?.aliases, [{ name: 'profile' }], command);
    assert.deepEqual(option(command, 'base-url')?.aliases, [{ name: 'location' }], command);
  }
  for (const command of ['generate', 'build', 'read', 'discover']) assert.equal(option(command, 'max-bytes')?.kind, 'size', command);
  assert.equal(option('read', 'max-nesting')?.kind, 'count');
  assert.equal(option('read', 'max-entries')?.kind, 'count');
  for (const command of ['generate', 'build', 'robots', 'indexnow']) {
    assert.deepEqual(option(command, 'format')?.aliases, [{ name: 'json', value: 'json' }], command);
  }
  assert.deepEqual(option('validate', 'format')?.choices, REPORT_FORMATS);
  assert.ok(option('build', 'state')?.help.includes(DEFAULT_STATE_PATH.replace(/\\/g, '/')));
});

test('sizes take K, M, G and counts never do, in every command', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'u.txt'), 'https://e.com/a\n');
  for (const spec of COMMAND_SPECS) {
    for (const option of spec.options) {
      if (option.kind === 'size') {
        assert.equal(parseCommand(spec, [`--${option.name}`, '2K']).number(option.name), 2048, `${spec.name} --${option.name}`);
        assert.equal(parseCommand(spec, [`--${option.name}=1m`]).number(option.name), 1024 ** 2, `${spec.name} --${option.name}`);
      }
      if (option.kind === 'count') {
        assert.throws(() => parseCommand(spec, [`--${option.name}`, '2K']), /needs a whole number/, `${spec.name} --${option.name}`);
        assert.equal(parseCommand(spec, [`--${option.name}`, '9']).number(option.name), 9, `${spec.name} --${option.name}`);
      }
    }
  }
  assert.equal(parseCommand(READ, ['--max-entries', '50_000']).number('max-entries'), 50_000);
  assert.equal(parseCommand(READ, ['--max-entries', '1,000,000']).number('max-entries'), 1_000_000);
  // A size groups its digits as a count does: the protocol's 52,428,800 bytes, as the docs write it.
  assert.equal(parseCommand(READ, ['--max-bytes', '52,428,800']).number('max-bytes'), 52_428_800);
  assert.equal(parseCommand(READ, ['--max-bytes', '50_000K']).number('max-bytes'), 50_000 * 1024);
  // A comma groups thousands: a decimal comma is no number, not 15M or 15 entries.
  assert.throws(() => parseCommand(READ, ['--max-bytes', '1,5M']), /needs a whole number above 0/);
  assert.throws(() => parseCommand(READ, ['--max-entries', '1,5']), /needs a whole number above 0/);
});

test('read --max-nesting 2K and --max-entries 2K are refused; generate --max-bytes 1M and validate --location still work', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'u.txt'), 'https://e.com/a\nhttps://e.com/b\n');
  for (const flag of ['--max-nesting', '--max-entries']) {
    const r = await runCli(['read', 'u.txt', flag, '2K'], { cwd: dir });
    assert.equal(r.code, 2, flag);
    assert.match(r.stderr, new RegExp(`^sitemapkit read: ${flag} needs a whole number above 0, got "2K"\\n`), flag);
  }
  const generated = await runCli(['generate', 'u.txt', '--base-url', 'https://e.com/', '--out', 'out', '--max-bytes', '1M', '--profile', 'legacy', '--json'], { cwd: dir });
  assert.equal(generated.code, 0, generated.stderr);
  assert.equal(JSON.parse(generated.stdout).urls, 2);
  const sitemap = join(dir, 'out', 'sitemap.xml');
  const viaLocation = await runCli(['validate', sitemap, '--location', 'https://other.example/'], { cwd: dir });
  const viaBaseUrl = await runCli(['validate', sitemap, '--base-url', 'https://other.example/'], { cwd: dir });
  assert.equal(viaLocation.code, 1);
  assert.equal(viaBaseUrl.stdout, viaLocation.stdout);
  assert.match(viaBaseUrl.stdout, /loc\/out-of-scope/);
  // The settings file spells it as the option does ("location", the old spelling, still read).
  writeFileSync(join(dir, 'settings.json'), JSON.stringify({ baseUrl: 'https://other.example/' }));
  const viaConfig = await runCli(['validate', sitemap, '--config', 'settings.json'], { cwd: dir });
  assert.equal(viaConfig.stdout, viaLocation.stdout);
});

test('usage errors are one line: the closest option, a missing value, a bad value', async () => {
  const dir = tempDir();
  const cases: [string[], string][] = [
    [['generate', 'u.txt', '--max-byte', '1M'], 'unknown option --max-byte; did you mean --max-bytes?'],
    [['validate', 'u.txt', '--folow'], 'unknown option --folow; did you mean --follow?'],
    [['discover', 'https://e.com/', '--alow-private'], 'unknown option --alow-private; did you mean --allow-private?'],
    // Options are lower case: one typed in capitals is still suggested.
    [['build', 'site', '--BASE-URL', 'https://e.com/'], 'unknown option --BASE-URL; did you mean --base-url?'],
    [['read', 'u.txt', '--frobnicate'], 'unknown option --frobnicate'],
    [['read', 'u.txt', '-x'], 'unknown option -x'],
    // A long option with one dash (as Go and find spell them) is named whole, with its spelling.
    [['generate', 'u.txt', '-base-url', 'https://e.com/'], 'unknown option -base-url; did you mean --base-url?'],
    [['read', 'u.txt', '-qx'], 'unknown option -x'],
    // The start of one option's name only is no typo by edit distance, but plainly that option.
    [['build', 'site', '--base-url', 'https://e.com/', '--dry'], 'unknown option --dry; did you mean --dry-run?'],
    [['read', 'u.txt', '--format'], '--format needs a value: one of jsonl, csv, tsv, urls'],
    [['read', 'u.txt', '--max-bytes', '--summary'], '--max-bytes needs a value: a whole number above 0 (K, M, G allowed)'],
    [['validate', 'u.txt', '--timeout', 'soon'], '--timeout needs a number of seconds above 0, got "soon"'],
    // Under a millisecond: no time at all once in milliseconds.
    [['validate', 'u.txt', '--timeout', '0.0001'], '--timeout needs a number of seconds above 0, got "0.0001"'],
    [['worker', '--redis', 'redis://127.0.0.1:1', '--lock-duration', '0.5'], '--lock-duration needs a number of seconds, at least 1, got "0.5"'],
    [['build', 'site', '--base-url', 'https://e.com/', '--gzip-level', '10'], '--gzip-level needs a whole number from 1 to 9, got "10"'],
    // A negative number is the value given, not a missing one.
    [['validate', 'u.txt', '--max-warnings', '-1'], '--max-warnings needs a whole number (0 or more), got "-1"'],
    [['robots', '--sitemap', 'https://e.com/s.xml', '--check=yes'], '--check takes no value'],
    [['robots', 'robots.txt'], 'unexpected argument "robots.txt"'],
    // After --, an argument is still one the command must take: -- only ends the options.
    [['robots', '--sitemap', 'https://e.com/s.xml', '--', 'robots.txt'], 'unexpected argument "robots.txt"'],
    [['worker', '--redis', 'redis://127.0.0.1:1', '--', '2'], 'unexpected argument "2"'],
  ];
  await usageErrors(cases, dir);
});

test('a fatal error is one line that names its command, as a usage error does: sitemapkit COMMAND: message', async () => {
  const dir = tempDir();
  const cases: string[][] = [
    ['generate', 'missing.txt', '--base-url', 'https://e.com/', '--out', 'out'],
    ['build', 'missing', '--base-url', 'https://e.com/'],
    ['indexnow', '--key', 'abcdefgh12', '--out', 'missing'],
    ['read', 'missing.xml'],
    ['diff', 'missing.xml', 'missing.xml'],
    ['report', 'missing.xml'],
    ['index', 'missing.json', '--out', 'out'],
  ];
  for (const argv of cases) {
    const r = await runCli(argv, { cwd: dir });
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.stderr, new RegExp(`^sitemapkit ${argv[0]}: [^\\n]*missing[^\\n]*\\n$`), argv.join(' '));
  }
});

test('a fatal or usage error stays one line: control characters of a name given are written as escapes', async () => {
  const dir = tempDir();
  const missing = await runCli(['read', 'a\nb\u001b[31m.xml'], { cwd: dir });
  assert.equal(missing.stderr, 'sitemapkit read: cannot read a\\nb\\u001b[31m.xml: no such file\n');
  const option = await runCli(['diff', '--frob\nx', 'a.xml', 'b.xml'], { cwd: dir });
  assert.equal(option.stderr, 'sitemapkit diff: unknown option --frob\\nx\nRun "sitemapkit diff --help" for usage.\n');
});

test('a --config that cannot be read is said as every file that cannot be read is: cannot read FILE: no such file', async () => {
  const dir = tempDir();
  const missing = await runCli(['validate', 'a.xml', '--config', 'nope.json'], { cwd: dir });
  assert.equal(missing.stderr, `sitemapkit validate: cannot read ${join(dir, 'nope.json')}: no such file\nRun "sitemapkit validate --help" for usage.\n`);
  const folder = await runCli(['report', 'a.xml', '--config', '.'], { cwd: dir });
  assert.match(folder.stderr, /^sitemapkit report: cannot read .*: is a directory\n/);
});

test('an empty value or argument, or a header value on two lines, is a usage error: never the current folder, nor every interface', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'u.txt'), 'https://e.com/a\n');
  const cases: [string[], string][] = [
    // `--out "$DIST"` with DIST unset wrote the set into the working folder.
    [['generate', 'u.txt', '--base-url', 'https://e.com/', '--out', ''], '--out needs a value: DIR'],
    [['generate', 'u.txt', '--base-url', 'https://e.com/', '--out='], '--out needs a value: DIR'],
    // An empty host listened on every interface, where the default is 127.0.0.1.
    [['serve', '.', '--host', '', '--port', '0'], '--host needs a value: ADDR'],
    [['robots', '--sitemap', 'https://e.com/s.xml', '--file', ' '], '--file needs a value: PATH'],
    [['validate', 'u.txt', '--config', ''], '--config needs a value: FILE'],
    [['build', '', '--base-url', 'https://e.com/'], 'an argument is empty (an unset variable?)'],
    [['read', '--', ''], 'an argument is empty (an unset variable?)'],
    // A header value with a line break failed every request as a connection error, retried with backoff.
    [['read', 'https://e.com/s.xml', '--user-agent', 'a\r\nX-Injected: 1'], '--user-agent "a\\r\\nX-Injected: 1" is not a header value: printable ASCII on one line (RFC 9110 §5.5)'],
    [['indexnow', '--key', 'abcdefgh12345678', '--user-agent', 'a\nb'], '--user-agent "a\\nb" is not a header value: printable ASCII on one line (RFC 9110 §5.5)'],
  ];
  await usageErrors(cases, dir);
  assert.deepEqual(readdirSync(dir), ['u.txt'], 'nothing written into the working folder');
});

test('"-" for a FILE, DIR or PATH option is a usage error, not a file or folder named "-" (as curl -o - or tar -f - would read it)', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 's.xml'), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/a</loc></url></urlset>\n');
  const cases: [string[], string][] = [
    [['report', 's.xml', '--out', '-'], '--out needs a path, got "-" (standard input or output cannot stand for a FILE here; ./- is a file named -)'],
    [['discover', 'https://e.com/', '--out=-'], '--out needs a path, got "-" (standard input or output cannot stand for a FILE here; ./- is a file named -)'],
    [['robots', '--sitemap', 'https://e.com/s.xml', '--file', '-'], '--file needs a path, got "-" (standard input or output cannot stand for a PATH here; ./- is a file named -)'],
    [['generate', 's.xml', '--input-format', 'text', '--base-url', 'https://e.com/', '--out', '-'], '--out needs a path, got "-" (standard input or output cannot stand for a DIR here; ./- is a file named -)'],
    // Not "cannot read the change feed …/-: no such file".
    [['apply', '-', '--out', 'o'], 'standard input (-) cannot be applied: save the change feed to a file'],
  ];
  await usageErrors(cases, dir);
  assert.deepEqual(readdirSync(dir), ['s.xml'], 'no "-" written');
});

test('a FILE, DIR or PATH option whose name is not UTF-8 is a usage error, not a file or folder written under another name', async () => {
  // Node reads argv as UTF-8, U+FFFD for a byte that is not (`--out $'g\\xff'`): "g\uFFFD" is another name.
  const dir = tempDir();
  writeFileSync(join(dir, 'u.txt'), 'https://e.com/a\n');
  const said = (option: string, value: string): string => `--${option} ${JSON.stringify(value)}: the name is not valid UTF-8 (Node reads U+FFFD in its place), so it would name another file; use a UTF-8 name`;
  const cases: [string[], string][] = [
    [['generate', 'u.txt', '--base-url', 'https://e.com/', '--out', 'g\uFFFD'], said('out', 'g\uFFFD')],
    [['robots', '--sitemap', 'https://e.com/s.xml', '--file', 'r\uFFFD.txt'], said('file', 'r\uFFFD.txt')],
    [['discover', 'https://e.com/', '--out=d\uFFFD.jsonl'], said('out', 'd\uFFFD.jsonl')],
  ];
  await usageErrors(cases, dir);
  assert.deepEqual(readdirSync(dir), ['u.txt'], 'nothing written');
});

test('on Linux, a genuine U+FFFD in a path (its bytes UTF-8, /proc/self/cmdline) is that name; a byte that is not UTF-8 stays refused', { skip: process.platform !== 'linux' }, async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'u.txt'), 'https://e.com/a\n');
  // A shell passes the bytes (Node's spawn takes strings only): EF BF BD is U+FFFD itself, FF no UTF-8 at all.
  const generate = (bytes: string): Promise<{ code: number | null; stderr: string }> =>
    new Promise((resolve) => {
      const script = `exec "$0" "$1" generate u.txt --base-url https://e.com/ --out "$(printf 'g${bytes}')"`;
      execFile('/bin/sh', ['-c', script, process.execPath, BUILT_BIN], { cwd: dir }, (error, _stdout, stderr) => resolve({ code: error === null ? 0 : (error.code as number), stderr }));
    });
  const genuine = await generate('\\357\\277\\275');
  assert.equal(genuine.code, 0, genuine.stderr);
  assert.ok(readdirSync(dir).includes('g\uFFFD'));
  const invalid = await generate('\\377');
  assert.equal(invalid.code, 2);
  assert.match(invalid.stderr, /--out "g\uFFFD": the name is not valid UTF-8/);
  assert.deepEqual(readdirSync(dir).sort(), ['g\uFFFD', 'u.txt']);
});

test('--name that is no plain file name is the same usage error in every command that writes a set', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'u.txt'), 'https://e.com/a\n');
  for (const argv of [['generate', 'u.txt', '--base-url', 'https://e.com/', '--out', 'o'], ['build', '.', '--base-url', 'https://e.com/']]) {
    const r = await runCli([...argv, '--name', '../evil'], { cwd: dir });
    assert.equal(r.stderr, `sitemapkit ${argv[0]}: --name "../evil": use letters, digits, '.', '_' and '-'\nRun "sitemapkit ${argv[0]} --help" for usage.\n`);
    assert.equal(r.code, 2);
  }
  assert.deepEqual(readdirSync(dir), ['u.txt']);
});

test('a --redis that is no Redis URL is a usage error naming it without its password', async () => {
  for (const [redis, shown] of [['redis://u:s3cret@bad host:1', 'redis://***@bad host:1'], ['http://u:s3cret@host:1', 'http://u:***@host:1/']] as const) {
    const r = await runCli(['worker', '--redis', redis], { cwd: tempDir() });
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `sitemapkit worker: --redis ${shown}: not a Redis URL (redis://host:port, or rediss:// for TLS)\nRun "sitemapkit worker --help" for usage.\n`);
  }
});

test('every --help is generated from the declaration and fits one screen of 100 columns', async () => {
  const dir = tempDir();
  const top = await runCli(['--help'], { cwd: dir });
  for (const line of top.stdout.split('\n')) assert.ok(line.length <= 100, `--help: ${line.length} columns: ${line}`);
  for (const spec of COMMAND_SPECS) {
    assert.match(top.stdout, new RegExp(`\\n {2}${spec.name} +${spec.summary.slice(0, 20).replace(/[()]/g, '\\$&')}`), spec.name);
    const r = await runCli([spec.name, '--help'], { cwd: dir });
    assert.equal(r.code, 0, spec.name);
    assert.equal(r.stdout, commandHelp(spec), spec.name);
    const lines = r.stdout.trimEnd().split('\n');
    assert.ok(lines.length <= 50, `${spec.name} --help has ${lines.length} lines`);
    for (const line of lines) assert.ok(line.length <= 100, `${spec.name} --help: ${line.length} columns: ${line}`);
    // The shared options in the same words: each help line, its continuation joined, holds them.
    const text = r.stdout.replace(/\n {4,}/g, ' ');
    for (const option of spec.options.filter((o) => o.group !== undefined)) {
      assert.ok(text.includes(`${optionSynopsis(option)} `), `${spec.name}: ${optionSynopsis(option)}`);
      assert.ok(text.includes(option.help), `${spec.name} --${option.name}: "${option.help}"`);
    }
  }
});

test('docs/cli.md is generated from the declarations (npm run docs:cli) and up to date', () => {
  const file = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
  assert.equal(file, cliReference(), 'docs/cli.md is out of date: run npm run docs:cli');
  for (const spec of COMMAND_SPECS) assert.ok(file.includes(commandHelp(spec).trimEnd()), spec.name);
});

test('an unknown command gets the closest one, as an unknown option does', async () => {
  const r = await runCli(['generat', 'x.txt'], { cwd: tempDir() });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^sitemapkit: unknown command "generat"; did you mean generate\?$/m);
  assert.match((await runCli(['val', 'x.xml'], { cwd: tempDir() })).stderr, /^sitemapkit: unknown command "val"; did you mean validate\?$/m);
  const far = await runCli(['frobnicate'], { cwd: tempDir() });
  assert.match(far.stderr, /unknown command "frobnicate"; commands: generate, read, validate/);
  // help of a command that does not exist is the same usage error, not the general help and exit 0.
  const help = await runCli(['help', 'validat'], { cwd: tempDir() });
  assert.equal(help.code, 2);
  assert.equal(help.stdout, '');
  assert.match(help.stderr, /^sitemapkit: unknown command "validat"; did you mean validate\?$/m);
  // An option before the command is not taken for a command's name.
  const before = await runCli(['-q', 'validate', 'x.xml'], { cwd: tempDir() });
  assert.equal(before.code, 2);
  assert.equal(before.stderr, 'sitemapkit: unknown option "-q"; options follow the command: sitemapkit <command> [options]\nRun "sitemapkit --help" for usage.\n');
});

test('--json where the command prints JSON Lines points to --format jsonl', async () => {
  for (const command of ['read', 'discover']) {
    const r = await runCli([command, '--json', 'x'], { cwd: tempDir() });
    assert.equal(r.code, 2, command);
    assert.match(r.stderr, /^sitemapkit [a-z]+: unknown option --json; did you mean --format jsonl\?$/m, command);
  }
});

// Issue 23: --max-depth was the XML nesting in read and the index nesting in discover, a difference
// written down only in this file. One name, one meaning: read's is --max-nesting now.
test('--max-depth is the depth of index nesting wherever it is declared; read says its XML nesting is --max-nesting', async () => {
  for (const spec of COMMAND_SPECS) {
    const depth = spec.options.find((o) => o.name === 'max-depth');
    if (depth !== undefined) assert.match(depth.help, /index/, spec.name);
  }
  const dir = tempDir();
  writeFileSync(join(dir, 'deep.xml'), `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/a</loc><x><y><z/></y></x></url></urlset>`);
  const old = await runCli(['read', 'deep.xml', '--max-depth', '3'], { cwd: dir });
  assert.equal(old.code, 2);
  assert.match(old.stderr, /^sitemapkit read: unknown option --max-depth; did you mean --max-nesting\? \(renamed: --max-depth is the depth of nested sitemap indexes, in discover\)\n/);
  const nesting = await runCli(['read', 'deep.xml', '--max-nesting', '3'], { cwd: dir });
  assert.equal(nesting.code, 1);
  assert.match(nesting.stderr, /error budget\/depth /);
  assert.match(commandHelp(READ), /--max-nesting N +skip XML elements nested deeper than N; default 256 \(formerly\s+--max-depth\)/);
});

test('a number of seconds past what a Node timer holds (2^31 - 1 ms, 24.8 days) is that much: a longer timer fires at once', () => {
  for (const spec of COMMAND_SPECS) {
    for (const option of spec.options.filter((o) => o.kind === 'seconds')) {
      assert.equal(parseCommand(spec, [`--${option.name}`, '3000000']).number(option.name), 2 ** 31 - 1, `${spec.name} --${option.name}`);
      assert.equal(parseCommand(spec, [`--${option.name}`, '2000000']).number(option.name), 2_000_000_000, `${spec.name} --${option.name}`);
    }
  }
});

test('a number of seconds may be written without its leading or trailing zero (.5, 5.), as a number above 0 is', () => {
  assert.equal(parseCommand(READ, ['--timeout', '.5']).number('timeout'), 500);
  assert.equal(parseCommand(READ, ['--timeout=5.']).number('timeout'), 5000);
  assert.throws(() => parseCommand(READ, ['--timeout', '.']), /--timeout needs a number of seconds above 0, got "\."/);
});

test('a name every object has (constructor, toString, __proto__) is an unknown command, not a crash', async () => {
  for (const argv of [['constructor'], ['toString', '--help'], ['__proto__', 'x.xml'], ['hasOwnProperty', '--version']]) {
    const r = await runCli(argv, { cwd: tempDir() });
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.stdout, '', argv.join(' '));
    assert.match(r.stderr, new RegExp(`^sitemapkit: unknown command "${argv[0]}"; commands: generate, `), argv.join(' '));
  }
});
