import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatJson, type JsonReport } from '../../../src/cli/report/index.js';
import { CLEAN_REPORTS, MESSY_MESSAGE, REPORT_COUNTS, REPORTS } from './fixtures.js';

describe('formatJson', () => {
  const text = formatJson(REPORTS);
  const json = JSON.parse(text) as JsonReport;

  it('is version 1, pretty-printed with 2 spaces, with a trailing newline', () => {
    assert.equal(json.version, 1);
    assert.ok(text.startsWith('{\n  "version": 1,\n  "summary": {\n    "files": 5,'), text.slice(0, 60));
    assert.ok(text.endsWith('}\n') && !text.endsWith('\n\n'));
  });

  it('summarizes all files and lists every one, clean ones included, in input order', () => {
    assert.deepEqual(json.summary, REPORT_COUNTS);
    assert.deepEqual(json.files.map((f) => f.file), REPORTS.map((r) => r.file));
    assert.deepEqual(
      json.files.map((f) => [f.format, f.entries, f.errors, f.warnings, f.infos, f.diagnostics.length]),
      [
        ['urlset', 3, 2, 1, 0, 3],
        ['urlset', 100_000, 0, 0, 0, 0],
        ['sitemapindex', 2, 0, 1, 1, 2],
        ['urlset', 1, 0, 1, 0, 1],
        [null, 0, 1, 0, 0, 1],
      ],
    );
  });

  it('gives every diagnostic the same keys (null positions), plus hint when there is one', () => {
    const [first, second] = json.files[0]?.diagnostics ?? [];
    assert.deepEqual(first, { code: 'loc/not-absolute', severity: 'error', message: 'relative URL "/a"', line: 12, column: 5, hint: 'write the full URL, with https://' });
    assert.deepEqual(second, { code: 'lastmod/invalid', severity: 'warning', message: MESSY_MESSAGE, line: 7, column: 123 });
    assert.equal(second !== undefined && 'hint' in second, false);
    assert.deepEqual(json.files[2]?.diagnostics.map((d) => [d.code, d.line, d.column]), [
      ['sitemap/not-listed', null, null],
      ['index/too-many', 9, null],
    ]);
  });

  it('has an empty diagnostics list and zero counts when clean', () => {
    const clean = JSON.parse(formatJson(CLEAN_REPORTS)) as JsonReport;
    assert.deepEqual(clean.summary, { files: 2, entries: 100_000, errors: 0, warnings: 0, infos: 0 });
    assert.deepEqual(clean.files.map((f) => f.diagnostics), [[], []]);
  });
});
