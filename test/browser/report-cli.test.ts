// End to end (issue 26): the built `sitemapkit report` (dist/cli/bin.cjs, the bundle that inlines the
// page's script: `npm run build` first, as `npm test` does) on the examples, opened in chromium: the
// page shows what `read` and `validate` say of the same files.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { launchChromium } from './report-fixture.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let browser: Browser;
before(async () => { browser = await launchChromium(); });
after(() => browser?.close());

test('sitemapkit report on the examples: the page counts what read and validate count', async () => {
  const dir = tempDir('sitemapkit-report-cli-');
  const set = join(dir, 'set');
  const generated = await runCli(['generate', 'examples/urls.txt', '--base-url', 'http://www.ejemplo.com/', '--max-urls', '8', '--out', set, '--quiet'], { cwd: ROOT });
  assert.equal(generated.code, 0, generated.stderr);
  const report = join(dir, 'report.html');
  const problems = join(ROOT, 'examples/problems/sitemap.xml');
  const made = spawnSync(process.execPath, [join(ROOT, 'dist/cli/bin.cjs'), 'report', set, problems, '--out', report, '--quiet'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(made.status, 1, `the problems example has errors: exit 1 (${made.stderr})`);

  const files = [join(set, 'sitemap.xml'), ...readdirSync(set).filter((name) => name.endsWith('.xml.gz')).sort().map((name) => join(set, name)), problems];
  const children = files.filter((file) => file.endsWith('.gz'));
  const read = await runCli(['read', ...children, problems, '--format', 'jsonl', '--quiet'], { cwd: ROOT });
  const urls = read.stdout.split('\n').filter((line) => line.startsWith('{"loc"')).length;
  const validated = await runCli(['validate', ...files, '--format', 'json'], { cwd: ROOT });
  const summary = (JSON.parse(validated.stdout) as { summary: { files: number; errors: number; warnings: number } }).summary;
  assert.ok(urls > 10 && summary.errors > 0, `read found ${urls} URLs, validate ${summary.errors} errors`);

  const page = await browser.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => { if (!request.url().startsWith('file:')) requests.push(request.url()); });
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  await page.route('**', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  await page.goto(pathToFileURL(report).href);
  await page.waitForSelector('html[data-rows="ready"]');
  const figure = async (label: string): Promise<string> => (await page.locator('#summary .figures div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd').first().evaluate((dd) => dd.firstChild?.textContent ?? '')).trim();
  assert.equal(await figure('Files'), String(files.length));
  assert.equal(await figure('URLs'), String(urls));
  assert.equal(await figure('Errors'), String(summary.errors));
  assert.equal(await figure('Warnings'), String(summary.warnings));
  assert.equal(await page.locator('#files tbody tr').count(), files.length);
  assert.equal(await page.textContent('#url-status'), `URLs 1–${urls} of ${urls}.`);
  const codes = new Set((JSON.parse(validated.stdout) as { files: { diagnostics: { code: string }[] }[] }).files.flatMap((f) => f.diagnostics.map((d) => d.code)));
  assert.deepEqual(new Set(await page.locator('#problems h3 code').allTextContents()), codes);
  assert.deepEqual(requests, []);
  assert.deepEqual(errors, []);
  await page.close();
});
