// --dry-run with --format json (issue 23): every command that has both says in its JSON that it was a
// dry run, truthfully (nothing committed, nothing written or sent), and puts there what the dry run
// would otherwise print, so that standard output stays one JSON document.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { page, writeSite } from '../helpers/site.js';

const BASE = 'https://www.example.com/';
const KEY = '5f2b8c1d9e7a4b3c';

test('build --dry-run --format json: committed false, dryRun true; a real build then commits', async () => {
  const site = tempDir('sitemapkit-dry-');
  writeSite(site, { 'index.html': page({ title: 'Home' }), 'a.html': page({ title: 'A' }) });
  const env = { SOURCE_DATE_EPOCH: '1790000000' };
  const dry = await runCli(['build', site, '--base-url', BASE, '--dry-run', '--format', 'json'], { cwd: site, env });
  assert.equal(dry.code, 0, dry.stderr);
  const summary = JSON.parse(dry.stdout) as { committed: boolean; dryRun?: boolean; listed: number; ok: boolean };
  assert.deepEqual([summary.committed, summary.dryRun, summary.listed, summary.ok], [false, true, 2, true]);
  assert.deepEqual(readdirSync(site).sort(), ['a.html', 'index.html'], 'nothing written');
  const real = JSON.parse((await runCli(['build', site, '--base-url', BASE, '--format', 'json'], { cwd: site, env })).stdout) as { committed: boolean; dryRun?: boolean };
  assert.deepEqual([real.committed, real.dryRun], [true, undefined]);
});

test('robots --dry-run --format json: one JSON document with the resulting file as "text"; nothing written', async () => {
  const dir = tempDir('sitemapkit-dry-');
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
  const result = await runCli(['robots', '--sitemap', `${BASE}sitemap.xml`, '--dry-run', '--format', 'json'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const summary = JSON.parse(result.stdout) as { dryRun?: boolean; written: boolean; changed: boolean; text?: string; added: string[] };
  assert.deepEqual([summary.dryRun, summary.written, summary.changed], [true, false, true]);
  assert.equal(summary.text, `User-agent: *\nDisallow: /private/\n\nSitemap: ${BASE}sitemap.xml\n`);
  assert.deepEqual(summary.added, [`${BASE}sitemap.xml`]);
  assert.equal(readFileSync(join(dir, 'robots.txt'), 'utf8'), 'User-agent: *\nDisallow: /private/\n');
  // --json is the same, and a run that is not dry has no "text".
  const alias = await runCli(['robots', '--sitemap', `${BASE}sitemap.xml`, '--dry-run', '--json'], { cwd: dir });
  assert.equal(alias.stdout, result.stdout);
  assert.equal('text' in (JSON.parse((await runCli(['robots', '--sitemap', `${BASE}sitemap.xml`, '--check', '--format', 'json'], { cwd: dir })).stdout) as object), false);
});

test('indexnow --dry-run --format json: one JSON document; each payload its "body"; nothing sent', async () => {
  const dir = tempDir('sitemapkit-dry-');
  writeSite(dir, { 'index.html': page({ title: 'Home' }), 'a.html': page({ title: 'A' }) });
  assert.equal((await runCli(['build', dir, '--base-url', BASE, '--format', 'json'], { cwd: dir, env: { SOURCE_DATE_EPOCH: '1790000000' } })).code, 0);
  // Nothing listens there: a payload sent would fail, and the run exit 1.
  const result = await runCli(['indexnow', '--key', KEY, '--out', dir, '--dry-run', '--format', 'json', '--endpoint', 'https://127.0.0.1:9/indexnow'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const summary = JSON.parse(result.stdout) as { dryRun: boolean; ok: boolean; payloads: { code: string; accepted: boolean; body?: { host: string; key: string; urlList: string[] } }[] };
  assert.deepEqual([summary.dryRun, summary.ok], [true, true]);
  assert.deepEqual(
    summary.payloads.map((p) => [p.code, p.accepted, p.body]),
    [['indexnow/dry-run', false, { host: 'www.example.com', key: KEY, urlList: [`${BASE}a.html`, BASE] }]],
  );
});
