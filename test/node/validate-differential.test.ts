// Differential test against libxml2 (xmllint-wasm): our schema verdict (`schemaValid`) must match
// `xmllint --noout --schema` for every XML file of ../shared/corpus/ and of test/fixtures/, and for
// fast-check mutations of valid sitemaps. The schema is schemas/all.xsd (sitemap.xsd with the image,
// video, news and xhtml:link schemas, so that the strict ##other wildcards find them) or
// schemas/all-index.xsd for an index.
//
// Deliberate differences, left out of the comparison:
// - files not in UTF-8, or with invalid bytes: the xmllint-wasm build has no iconv (no windows-1252),
//   and the helper hands it text (invalid bytes already replaced); we decode every encoding the
//   WHATWG standard names and report invalid bytes ourselves.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { validateSitemap } from '../../src/node/validate-sitemap.js';
import { validateXmlSitemapText } from '../../src/core/validate/validator.js';
import { xmllint } from '../helpers/xmllint.js';

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const NOW = Date.UTC(2026, 0, 1);

function xmlFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) xmlFiles(p, out);
    else if (e.name.endsWith('.xml')) out.push(p);
  }
  return out;
}

describe('schema verdict = xmllint --schema', () => {
  it('on every XML file of the corpus and the fixtures', async () => {
    const files = [...xmlFiles(CORPUS), ...xmlFiles(FIXTURES)];
    assert.ok(files.length > 20);
    const mismatches: string[] = [];
    let compared = 0;
    for (const file of files) {
      const ours = await validateSitemap(file, { now: NOW });
      if (ours.diagnostics.some((d) => d.code.startsWith('encoding/'))) continue;
      const theirs = await xmllint(readFileSync(file), ours.format === 'sitemapindex' ? 'all-index' : 'all');
      compared++;
      if (theirs.valid !== ours.schemaValid) mismatches.push(`${file}: ours ${ours.schemaValid}, xmllint ${theirs.valid} (${theirs.errors[0] ?? ''})`);
    }
    assert.ok(compared > 20, `compared ${compared}`);
    assert.deepStrictEqual(mismatches, []);
  });

  // Valid sitemaps with one small change at a random place: whatever the change, both agree.
  const base = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>https://example.com/a</loc><lastmod>2024-01-02T03:04:05+00:00</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>
<url><loc>https://example.com/b</loc><image:image><image:loc>https://example.com/b.jpg</image:loc><image:title>B</image:title></image:image><xhtml:link rel="alternate" hreflang="en" href="https://example.com/b"/></url>
</urlset>
`;
  const edits = fc.oneof(
    fc.tuple(fc.constant('insert' as const), fc.nat(base.length), fc.constantFrom(' ', 'x', '<x/>', '<loc>https://e.com/</loc>', '<priority>0.5</priority>', '<lastmod>2024</lastmod>', ' id="1"', '%zz', '&amp;', '<foo:bar xmlns:foo="http://f.example/"/>', '<image:caption>c</image:caption>')),
    fc.tuple(fc.constant('delete' as const), fc.nat(base.length), fc.integer({ min: 1, max: 12 })),
    fc.tuple(fc.constant('replace' as const), fc.constantFrom('daily', '0.5', '2024-01-02T03:04:05+00:00', 'https://example.com/a', 'alternate'), fc.constantFrom('Daily', '1.5', '2024-02-30', '2024-01-02T03:04:05', 'https://example.com/ a', '', '0', 'amphtml')),
  );
  it('on mutated sitemaps (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(edits, async (edit) => {
        let doc = base;
        if (edit[0] === 'insert') doc = doc.slice(0, edit[1]) + edit[2] + doc.slice(edit[1]);
        else if (edit[0] === 'delete') doc = doc.slice(0, edit[1]) + doc.slice(edit[1] + edit[2]);
        else doc = doc.replace(edit[1], edit[2]);
        const ours = validateXmlSitemapText(doc, { now: NOW });
        const theirs = await xmllint(doc, 'all');
        assert.equal(ours.schemaValid, theirs.valid, `${JSON.stringify(edit)}: xmllint says ${theirs.errors.join(' | ')}`);
      }),
      { numRuns: 150 },
    );
  });
});
