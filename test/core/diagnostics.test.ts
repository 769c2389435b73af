import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { countDiagnostics, DiagnosticCollector, DEFAULT_MAX_DIAGNOSTICS_PER_CODE, TRUNCATED_CODE, type Diagnostic, type Severity } from '../../src/core/diagnostics.js';
import { readXmlSitemapText } from '../../src/core/read/xml-reader.js';
import { validateXmlSitemapText } from '../../src/core/validate/validator.js';
import { summarize } from '../../src/core/validate/types.js';

function diag(code: string, severity: Severity, line: number): Diagnostic {
  return { code, severity, message: `${code} at ${line}`, line, column: 1 };
}

describe('DiagnosticCollector', () => {
  it('keeps the first N of each code, counts every one, and says what it left out', () => {
    const seen: Diagnostic[] = [];
    const c = new DiagnosticCollector({ maxPerCode: 3, onDiagnostic: (d) => seen.push(d) });
    for (let i = 1; i <= 10; i++) c.add(diag('text/not-a-url', 'error', i));
    for (let i = 1; i <= 5; i++) c.add(diag('loc/duplicate', 'warning', 100 + i));
    c.add(diag('lastmod/future', 'info', 200));

    assert.deepEqual(c.retained.map((d) => `${d.code}:${d.line}`), [
      'text/not-a-url:1', 'text/not-a-url:2', 'text/not-a-url:3',
      'loc/duplicate:101', 'loc/duplicate:102', 'loc/duplicate:103',
      'lastmod/future:200',
    ]);
    assert.deepEqual(c.counts, { errors: 10, warnings: 5, infos: 1 });
    assert.equal(c.total, 16);
    assert.equal(c.dropped, 9);
    assert.deepEqual(c.droppedByCode(), [['text/not-a-url', 7], ['loc/duplicate', 2]]);
    assert.equal(seen.length, 16, 'the callback sees every diagnostic, kept or not');
    assert.deepEqual(seen.map((d) => d.line), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 101, 102, 103, 104, 105, 200]);

    const list = c.list('big.xml');
    assert.equal(list.length, 8);
    const last = list[7] as Diagnostic;
    assert.equal(last.code, TRUNCATED_CODE);
    assert.equal(last.severity, 'info');
    assert.equal(last.file, 'big.xml');
    assert.match(last.message, /^9 more diagnostics not listed \(only the first 3 of each code are kept/);
    assert.match(last.message, /text\/not-a-url 7, loc\/duplicate 2$/);
    // The entry stands for the others: lists are counted without it.
    assert.deepEqual(countDiagnostics(list), { errors: 3, warnings: 3, infos: 1 });
  });

  it('says a cap of one in the singular: "only the first of each code is kept", not "the first 1 of each code are kept"', () => {
    const c = new DiagnosticCollector({ maxPerCode: 1 });
    for (const line of [1, 2]) c.add(diag('loc/duplicate', 'warning', line));
    assert.match((c.list().at(-1) as Diagnostic).message, /^1 more diagnostic not listed \(only the first of each code is kept; the counts include them all\): loc\/duplicate 1$/);
  });

  it('adds no truncated entry when nothing was left out', () => {
    const c = new DiagnosticCollector({ maxPerCode: 2 });
    c.add(diag('a/b', 'error', 1));
    c.add(diag('a/b', 'error', 2));
    c.add(diag('c/d', 'error', 3));
    assert.equal(c.truncation(), undefined);
    assert.equal(c.list().length, 3);
  });

  it('defaults to 1,000 per code; 0 keeps none and Infinity keeps all, counting every one', () => {
    const byDefault = new DiagnosticCollector();
    const none = new DiagnosticCollector({ maxPerCode: 0 });
    const all = new DiagnosticCollector({ maxPerCode: Infinity });
    for (let i = 0; i < 2_500; i++) {
      for (const c of [byDefault, none, all]) c.add(diag('xml/raw-ampersand', 'error', i + 1));
    }
    assert.equal(DEFAULT_MAX_DIAGNOSTICS_PER_CODE, 1_000);
    assert.equal(byDefault.retained.length, 1_000);
    assert.equal(none.retained.length, 0);
    assert.equal(all.retained.length, 2_500);
    for (const c of [byDefault, none, all]) assert.equal(c.errors, 2_500);
    assert.match((none.truncation() as Diagnostic).message, /^2,500 more diagnostics/);
  });

  it('refuses a cap that is not a whole number ≥ 0', () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      assert.throws(() => new DiagnosticCollector({ maxPerCode: bad }), { code: 'ERR_SITEMAP_OPTION' });
    }
  });

  it('property: retained ≤ cap per code, counts exact, kept + left out = added', () => {
    const codes = ['a/x', 'b/y', 'c/z'];
    const severities: Severity[] = ['error', 'warning', 'info'];
    fc.assert(
      fc.property(fc.nat(20), fc.array(fc.tuple(fc.nat(2), fc.nat(2)), { maxLength: 200 }), (cap, items) => {
        const c = new DiagnosticCollector({ maxPerCode: cap });
        let callbacks = 0;
        const counted = new DiagnosticCollector({ maxPerCode: cap, onDiagnostic: () => callbacks++ });
        items.forEach(([code, severity], i) => {
          c.add(diag(codes[code] as string, severities[severity] as Severity, i + 1));
          counted.add(diag(codes[code] as string, severities[severity] as Severity, i + 1));
        });
        assert.equal(callbacks, items.length);
        for (const code of codes) {
          const added = items.filter(([k]) => codes[k] === code).length;
          assert.equal(c.retained.filter((d) => d.code === code).length, Math.min(cap, added));
          assert.equal(c.retained.filter((d) => d.code === code).length + (new Map(c.droppedByCode()).get(code) ?? 0), added);
        }
        for (const [s, name] of [[0, 'errors'], [1, 'warnings'], [2, 'infos']] as const) {
          assert.equal(c.counts[name], items.filter(([, k]) => k === s).length);
        }
        assert.equal(c.retained.length + c.dropped, items.length);
        assert.equal(c.truncation() === undefined, c.dropped === 0);
      }),
    );
  });
});

describe('bounded diagnostics in the pure readers and the validation', () => {
  // 3,000 urls with a relative loc each: 3,000 `loc/not-absolute` (or the reader's own code) errors.
  const manyBad = (n: number): string =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${'<url><loc>/page</loc></url>\n'.repeat(n)}</urlset>\n`;

  it('validateXmlSitemapText lists 1,000 of a code, counts them all, and calls back for each', () => {
    const seen: Diagnostic[] = [];
    const report = validateXmlSitemapText(manyBad(3_000), { file: 'bad.xml', onDiagnostic: (d) => seen.push(d) });
    const codes = new Set(seen.map((d) => d.code));
    assert.equal(seen.length, 3_000 * codes.size);
    const listed = report.diagnostics.filter((d) => d.code !== TRUNCATED_CODE);
    assert.equal(listed.length, 1_000 * codes.size);
    const truncated = report.diagnostics.at(-1) as Diagnostic;
    assert.equal(truncated.code, TRUNCATED_CODE);
    assert.match(truncated.message, new RegExp(`^${(2_000 * codes.size).toLocaleString('en-US')} more`));
    assert.equal(summarize([report]).errors, seen.filter((d) => d.severity === 'error').length);
    assert.ok(seen.every((d) => d.file === 'bad.xml'));
  });

  it('maxDiagnosticsPerCode changes the cap; rule settings apply before counting', () => {
    const report = validateXmlSitemapText(manyBad(50), { maxDiagnosticsPerCode: 10 });
    const listed = report.diagnostics.filter((d) => d.code !== TRUNCATED_CODE);
    const codes = new Set(listed.map((d) => d.code));
    assert.equal(listed.length, 10 * codes.size);
    const code = [...codes][0] as string;
    const off = validateXmlSitemapText(manyBad(50), { maxDiagnosticsPerCode: 10, rules: { [code]: 'off' } });
    assert.ok(!off.diagnostics.some((d) => d.code === code));
    assert.equal(summarize([off]).errors, summarize([report]).errors - 50);
  });

  it('readXmlSitemapText caps its list too', () => {
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'<url><loc>https://a.example/?a=1&b=2</loc></url>'.repeat(1_500)}</urlset>`;
    const result = readXmlSitemapText(text);
    const raw = result.diagnostics.filter((d) => d.code === 'xml/raw-ampersand');
    assert.equal(raw.length, 1_000);
    assert.equal((result.diagnostics.at(-1) as Diagnostic).code, TRUNCATED_CODE);
  });
});
