// -q means one thing in every command (issue 23): print less; report errors only (not warnings and
// notes). Each command is run on input with both, with and without -q: the errors stay, the warnings
// and notes go, and the exit status does not change.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { page, writeSite } from '../helpers/site.js';
import { startSiteServer } from '../helpers/site-server.js';
import { COMMAND_SPECS } from '../../src/cli/declarations.js';

const BASE = 'https://www.example.com/';
/** A raw "&" (an error) in a sitemap of Google's old namespace (a warning). */
const MIXED = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.google.com/schemas/sitemap/0.84">\n<url><loc>https://www.example.com/a?x=1&y=2</loc></url>\n</urlset>\n';
/** For validate, where the old namespace is an error: a raw "&" (an error) and a URL listed twice (a warning). */
const REPEATED = MIXED.replace('http://www.google.com/schemas/sitemap/0.84', 'http://www.sitemaps.org/schemas/sitemap/0.9').replace('</urlset>', '<url><loc>https://www.example.com/b</loc></url>\n<url><loc>https://www.example.com/b</loc></url>\n</urlset>');

/** The severities of the problem lines (FILE:LINE:COL: severity code …, or validate's rows `  L:C  severity  …`). */
function severities(text: string): string[] {
  return [...text.matchAll(/: (error|warning|info) [a-z-]+\/|^ +\d+:\d+ +(error|warning|info) /gm)].map((m) => (m[1] ?? m[2]) as string);
}

/** Runs `argv` with and without -q: the same exit status, errors kept, warnings and notes gone. */
async function quietKeepsErrorsOnly(argv: string[], cwd: string, stream: 'stdout' | 'stderr' = 'stderr'): Promise<{ loud: string; quiet: string }> {
  const loud = await runCli(argv, { cwd });
  const quiet = await runCli([...argv, '-q'], { cwd });
  assert.equal(quiet.code, loud.code, argv.join(' '));
  const loudSeverities = severities(loud[stream]);
  assert.ok(loudSeverities.includes('warning'), `${argv.join(' ')} should warn without -q: ${loud[stream]}`);
  assert.deepEqual(severities(quiet[stream]), loudSeverities.filter((s) => s === 'error'), `${argv.join(' ')} -q: ${quiet[stream]}`);
  assert.doesNotMatch(quiet.stderr, /warning|note/, `${argv.join(' ')} -q`);
  return { loud: loud[stream], quiet: quiet[stream] };
}

test('every command has -q, with the same words', () => {
  for (const spec of COMMAND_SPECS) {
    const quiet = spec.options.find((o) => o.name === 'quiet');
    assert.equal(quiet?.short, 'q', spec.name);
    assert.equal(quiet?.help, 'print less; report errors only (not warnings and notes)', spec.name);
  }
});

test('generate -q: the rejected lines, not the warnings', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'urls.txt'), `${BASE}a#section\nnot a url\n${BASE}b\n`);
  const { quiet } = await quietKeepsErrorsOnly(['generate', 'urls.txt', '--base-url', BASE, '--out', 'out'], dir);
  assert.match(quiet, /^urls\.txt:2: error input\/text /);
});

test('build -q: no warning about a dropped alternate, nor the note on where the sitemaps are served', async () => {
  const site = tempDir('sitemapkit-quiet-');
  writeSite(site, {
    'index.html': page({ title: 'Home', head: `<link rel="alternate" hreflang="es" href="${BASE}es/missing.html">` }),
    'blog/a.html': page({ title: 'A' }),
  });
  const argv = ['build', site, '--base-url', BASE, '--out', join(site, 'blog'), '--initial-lastmod', 'now'];
  const loud = await runCli(argv, { cwd: site });
  assert.match(loud.stderr, /warning/);
  const quiet = await runCli([...argv, '-q'], { cwd: site });
  assert.equal(quiet.code, loud.code);
  assert.equal(quiet.stderr, '');
  assert.equal(quiet.stdout, '');
});

test('read -q and validate -q: the error, not the warning', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'mixed.xml'), MIXED);
  await quietKeepsErrorsOnly(['read', 'mixed.xml'], dir);
  writeFileSync(join(dir, 'repeated.xml'), REPEATED);
  await quietKeepsErrorsOnly(['validate', 'repeated.xml', '--now', '2026-01-01'], dir, 'stdout');
});

test('discover -q: the error, not the warning', async () => {
  const server = await startSiteServer({ '/sitemap.xml': { body: MIXED } });
  after(() => server.close());
  await quietKeepsErrorsOnly(['discover', server.url('/sitemap.xml'), '--format', 'urls', '--allow-private', '--retries', '0'], tempDir());
});

test('robots -q: no warning about the lines crawlers skip', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'robots.txt'), 'Sitemap: ftp://example.com/s.xml\n');
  const loud = await runCli(['robots', '--sitemap', `${BASE}sitemap.xml`], { cwd: dir });
  assert.match(loud.stderr, /warning robots\/sitemap-scheme/);
  const quiet = await runCli(['robots', '--sitemap', `${BASE}sitemap.xml`, '-q'], { cwd: dir });
  assert.deepEqual([quiet.code, quiet.stdout, quiet.stderr], [0, '', '']);
});
