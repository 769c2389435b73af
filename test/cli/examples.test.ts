// The README's first command runs `npm start` on the bundled examples: keep them clean and valid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { xmllint } from '../helpers/xmllint.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

test('npm start generates the sitemaps of examples/urls.txt, valid and complete', async () => {
  const argv = (pkg.scripts.start as string).replace(/^node dist\/cli\/bin\.cjs /, '').split(' ');
  const out = tempDir();
  argv[argv.indexOf('--out') + 1] = out;
  const result = await runCli(argv, { cwd: ROOT });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^Wrote 19 URLs in 1 sitemap/);
  const xml = readFileSync(join(out, 'sitemap.xml'), 'utf8');
  assert.ok(xml.includes('<loc>http://www.ejemplo.com/espa%C3%B1a.html&amp;q=nombre</loc>'));
  assert.deepEqual((await xmllint(xml, 'sitemap')).errors, []);
});

test('the JSON Lines and CSV examples generate a valid sitemap with extensions', async () => {
  const out = tempDir();
  const result = await runCli(['generate', 'examples/entries.jsonl', 'examples/pages.csv', '--base-url', 'https://www.example.com/', '--out', out, '--quiet'], { cwd: ROOT });
  assert.equal(result.code, 0, result.stderr);
  const xml = readFileSync(join(out, 'sitemap.xml'), 'utf8');
  assert.ok(xml.includes('<loc>https://www.example.com/search?q=a,b&amp;page=2</loc>'));
  assert.deepEqual((await xmllint(xml, 'all')).errors, []);
});
