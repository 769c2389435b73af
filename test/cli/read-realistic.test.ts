// `sitemapkit read` prints, byte for byte, JSON.stringify of each entry the reader gives, on a sitemap
// of realistic shape (bench/lib/realistic.js: queries with &amp;, both lastmod forms, priorities
// written three ways, images, alternates), plain and gzipped: the built command in a child, whose
// standard output is a pipe (the bytes path: core/model-json.ts, core/read/lane-json.ts).

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readSitemap } from '../../src/node/parse-sitemap.js';
import { runBuiltCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
// @ts-expect-error: a plain ES module of the benchmarks, untyped
import { realisticSitemap } from '../../bench/lib/realistic.js';

it('prints the JSON lines of a realistic sitemap, plain and gzipped, as JSON.stringify writes its entries', async () => {
  const dir = tempDir();
  // About 1.2 MB: several input chunks (256 KiB), several output buffers.
  const xml = (realisticSitemap(6000) as string).replace('<url>', '<url><loc>https://example.com/espa\u00f1a?q=&quot;x&quot;</loc></url>\n  <url>');
  writeFileSync(join(dir, 'real.xml'), xml);
  writeFileSync(join(dir, 'real.xml.gz'), gzipSync(xml));
  const lines: string[] = [];
  await readSitemap(join(dir, 'real.xml'), { onUrl: (entry) => lines.push(`${JSON.stringify(entry)}\n`) });
  assert.equal(lines.length, 6001);
  const expected = lines.join('');
  for (const file of ['real.xml', 'real.xml.gz']) {
    const r = await runBuiltCli(['read', file], dir);
    assert.equal(r.stderr, '', file);
    assert.equal(r.code, 0, file);
    assert.ok(r.stdout === expected, `${file}: not the same bytes (${r.stdout.length} characters against ${expected.length})`);
  }
});
