// The report's aggregator (core/report/aggregate.ts): counts equal the entries fed, samples stay
// bounded, rows carry the flags of problems found after their entry; and the validating reading it
// is fed by hands out every entry the plain reader gives (ValidationOptions.onUrl).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from '../../../src/core/diagnostics.js';
import type { UrlEntry } from '../../../src/core/model.js';
import { ReportAggregator, type FileEnd } from '../../../src/core/report/aggregate.js';
import { REPORT_SAMPLES, ROW_FIELDS, type ReportModel } from '../../../src/core/report/model.js';
import { reportPageParts } from '../../../src/core/report/page.js';
import { ruleInfo } from '../../../src/core/validate/rules.js';
import { readSitemap } from '../../../src/node/parse-sitemap.js';
import { validateSitemap } from '../../../src/node/validate-sitemap.js';
import { xmlFixturesAndCorpus } from '../../helpers/files.js';

const NOW = Date.parse('2025-06-15T12:00:00Z');
const END: FileEnd = { kind: 'urlset', bytes: 100, plainBytes: 200, gzipped: false, errors: 0, warnings: 0, schemaValid: true };

/** An aggregator whose rows are collected as lines (split into fields). */
function aggregator(): { agg: ReportAggregator; rows: string[][] } {
  const rows: string[][] = [];
  const decoder = new TextDecoder();
  let rest = '';
  const agg = new ReportAggregator({
    source: 'test', now: NOW, sitemapkitVersion: '0.0.0',
    onRows: (bytes) => {
      const text = rest + decoder.decode(bytes);
      const lines = text.split('\n');
      rest = lines.pop() as string;
      for (const line of lines) rows.push(line.split('\t'));
    },
  });
  return { agg, rows };
}

function feed(agg: ReportAggregator, name: string, entries: readonly UrlEntry[], end: Partial<FileEnd> = {}): void {
  agg.startFile({ name, parent: -1 });
  entries.forEach((entry, i) => agg.url(entry, { line: 2 + i * 3, column: 3 }));
  agg.endFile({ ...END, ...end });
}

test('counts equal the entries fed: URLs, distinct URLs, duplicates within and across files, lastmod by month, future, missing', () => {
  const { agg, rows } = aggregator();
  feed(agg, 'a.xml', [
    { loc: 'https://example.com/blog/2024/one', lastmod: '2024-03-01', changefreq: 'daily', priority: 0.5 },
    { loc: 'https://example.com/blog/2024/two', lastmod: '2024-03-20T10:00:00+01:00' },
    { loc: 'https://example.com/about' },
    { loc: 'https://example.com/blog/2024/one', lastmod: '2030-01-01' },
  ]);
  feed(agg, 'b.xml', [
    { loc: 'https://example.com/about', lastmod: '2024-04-02', images: [{ loc: 'https://example.com/a.jpg' }, { loc: 'https://example.com/b.jpg' }] },
    { loc: 'https://example.com/shop/x?id=1', lastmod: '2025-06-16T00:00:00Z' },
  ]);
  const model = agg.finish(new Date(NOW).toISOString());
  assert.equal(model.summary.urls, 6);
  assert.equal(model.summary.distinctUrls, 4);
  assert.equal(model.summary.files, 2);
  assert.equal(model.summary.largestFileUrls, 4);
  assert.deepEqual(model.duplicates.count, 2, 'two URLs are listed more than once');
  assert.equal(model.duplicates.inSeveralFiles, 1, '/about is in a.xml and b.xml');
  assert.deepEqual(model.duplicates.examples.map((e) => [e.loc, e.files]), [['https://example.com/blog/2024/one', ['a.xml']], ['https://example.com/about', ['a.xml', 'b.xml']]]);
  assert.deepEqual(model.freshness.byMonth, [{ month: '2024-03', urls: 2 }, { month: '2024-04', urls: 1 }, { month: '2025-06', urls: 1 }, { month: '2030-01', urls: 1 }]);
  // 2030 is in the future; 2025-06-16T00:00Z is within a day of now, which lastmod/future allows too.
  assert.equal(model.freshness.future, 1);
  assert.equal(model.freshness.missing, 1);
  assert.equal(model.freshness.allSame, undefined);
  assert.deepEqual(model.freshness.changefreq, [{ value: '(none)', urls: 5 }, { value: 'daily', urls: 1 }]);
  assert.deepEqual(model.extensions.imagesPerUrl.slice(0, 3), [0, 1, 0]);
  assert.equal(model.extensions.images, 2);
  assert.deepEqual(model.directories.slice(0, 3), [{ prefix: '/blog/2024/', urls: 3 }, { prefix: '/', urls: 2 }, { prefix: '/shop/', urls: 1 }]);
  assert.equal(model.files[0]?.newestLastmod, '2030-01-01');
  assert.equal(model.files[1]?.newestLastmod, '2025-06-16T00:00:00Z');
  // The rows, in set order, in ROW_FIELDS' order.
  assert.equal(rows.length, 6);
  assert.ok(rows.every((r) => r.length === ROW_FIELDS.length));
  assert.deepEqual(rows[0], ['https://example.com/blog/2024/one', '2024-03-01', '0', 'daily', '0.5', '0', '0', '']);
  assert.deepEqual(rows[3], ['https://example.com/blog/2024/one', '2030-01-01', '0', '', '', '0', '0', 'df']);
  assert.deepEqual(rows[4], ['https://example.com/about', '2024-04-02', '1', '', '', '2', '0', 'd']);
});

test('one URL spelt two ways is one URL, as diff has it (RFC 3986 §6.2, url.ts comparableUrl): duplicates, distinct URLs, directories', () => {
  const { agg, rows } = aggregator();
  feed(agg, 'a.xml', [
    { loc: 'http://Example.com/a%7e' },
    { loc: 'http://example.com/a~' },
    { loc: 'HTTP://example.com:80/a%7E' },
    { loc: 'http://example.com/shop/caf%c3%a9' },
    { loc: 'http://example.com/A~', lastmod: '2024-01-01' },
  ]);
  feed(agg, 'b.xml', [{ loc: 'http://example.com/shop/caf%C3%A9' }]);
  const model = agg.finish('');
  assert.equal(model.summary.distinctUrls, 3, '/a~ (three spellings), /shop/café (two) and /A~ (a path is case-sensitive)');
  assert.equal(model.duplicates.count, 2);
  assert.equal(model.duplicates.inSeveralFiles, 1);
  assert.deepEqual(model.duplicates.examples.map((e) => [e.loc, e.files]), [['http://example.com/a~', ['a.xml']], ['http://example.com/shop/caf%C3%A9', ['a.xml', 'b.xml']]]);
  assert.deepEqual(rows.map((r) => [r[0], r.at(-1)]), [
    ['http://Example.com/a%7e', ''], ['http://example.com/a~', 'd'], ['HTTP://example.com:80/a%7E', 'd'], ['http://example.com/shop/caf%c3%a9', ''], ['http://example.com/A~', ''], ['http://example.com/shop/caf%C3%A9', 'd'],
  ], 'each row keeps its spelling');
  assert.deepEqual(model.directories, [{ prefix: '/', urls: 4 }, { prefix: '/shop/', urls: 2 }], 'one host, not Example.com beside example.com');
});

test('an hreflang group is the set of its alternates compared as URLs: two pages listing one group spelt two ways make one group', () => {
  const { agg } = aggregator();
  const group = (host: string, escape: string): UrlEntry['alternates'] => [
    { hreflang: 'en', href: `https://${host}/en/caf${escape}` }, { hreflang: 'fr', href: `https://${host}/fr/caf${escape}` },
  ];
  feed(agg, 'a.xml', [
    { loc: 'https://e.com/en/caf%C3%A9', alternates: group('e.com', '%C3%A9') },
    { loc: 'https://e.com/fr/caf%C3%A9', alternates: group('E.com:443', '%c3%a9') },
    { loc: 'https://e.com/de/x', alternates: group('e.com', '-de') },
  ]);
  const model = agg.finish('');
  assert.equal(model.extensions.hreflangUrls, 3);
  assert.equal(model.extensions.hreflangGroups, 2);
});

test('an index that lists 200,000 children (past the limit, each unreadable) makes a model: the largest file is found without spreading the files into a call', () => {
  const { agg } = aggregator();
  agg.startFile({ name: 'index.xml', parent: -1 });
  agg.endFile({ ...END, kind: 'sitemapindex' });
  for (let i = 0; i < 200_000; i++) {
    agg.startFile({ name: `s${i}.xml`, parent: 0 });
    if (i === 7) agg.url({ loc: 'https://e.com/a' }, { line: 3, column: 3 });
    agg.endFile({ ...END, kind: i === 7 ? 'urlset' : 'unknown', plainBytes: i === 9 ? 5_000 : 0 });
  }
  const model = agg.finish('');
  assert.equal(model.summary.files, 200_001);
  assert.equal(model.summary.largestFileUrls, 1);
  assert.equal(model.summary.largestFilePlainBytes, 5_000);
});

test('a loc kept as written with a TAB or a line break in it (loc/not-encoded) is one row of the table, its fields in place', () => {
  const { agg, rows } = aggregator();
  feed(agg, 'a.xml', [{ loc: 'https://e.com/a\tb', lastmod: '2024-01-01' }, { loc: 'https://e.com/c\nd' }, { loc: 'https://e.com/e\r\nf' }, { loc: 'https://e.com/ok' }]);
  agg.finish('');
  assert.deepEqual(rows.map((r) => [r[0], r[1], r.length]), [
    ['https://e.com/a b', '2024-01-01', ROW_FIELDS.length], ['https://e.com/c d', '', ROW_FIELDS.length], ['https://e.com/e  f', '', ROW_FIELDS.length], ['https://e.com/ok', '', ROW_FIELDS.length],
  ]);
});

test('a lastmod that is no date counts in no month and is never the newest', () => {
  const { agg } = aggregator();
  feed(agg, 'a.xml', [{ loc: 'https://e.com/1', lastmod: '2024-13-01' }, { loc: 'https://e.com/2', lastmod: '2024-05-01' }, { loc: 'https://e.com/3', lastmod: '2099-99-99' }]);
  const model = agg.finish('');
  assert.deepEqual(model.freshness.byMonth, [{ month: '2024-05', urls: 1 }]);
  assert.equal(model.files[0]?.newestLastmod, '2024-05-01');
});

test('a file\'s newest lastmod is the latest instant, across time zones (datetime.ts newestLastmod), not the latest day as written', () => {
  const { agg } = aggregator();
  feed(agg, 'a.xml', [{ loc: 'https://e.com/1', lastmod: '2024-05-02T00:00:00+14:00' }, { loc: 'https://e.com/2', lastmod: '2024-05-01T23:00:00Z' }]);
  feed(agg, 'b.xml', [{ loc: 'https://e.com/3', lastmod: '2024-05-01T23:00:00-05:00' }, { loc: 'https://e.com/4', lastmod: '2024-05-02T01:00:00Z' }, { loc: 'https://e.com/5', lastmod: '2024-04-01' }]);
  const model = agg.finish('');
  assert.deepEqual(model.files.map((f) => f.newestLastmod), ['2024-05-01T23:00:00Z', '2024-05-01T23:00:00-05:00']);
});

test('allSame is set when every URL with a lastmod has the same one', () => {
  const { agg } = aggregator();
  feed(agg, 'a.xml', [{ loc: 'https://e.com/1', lastmod: '2024-01-01' }, { loc: 'https://e.com/2' }, { loc: 'https://e.com/3', lastmod: '2024-01-01' }]);
  assert.equal(agg.finish('').freshness.allSame, '2024-01-01');
});

test('samples stay bounded while the counts stay exact: duplicates, problems, directories', () => {
  const { agg } = aggregator();
  agg.startFile({ name: 'big.xml', parent: -1 });
  for (let i = 0; i < 10_000; i++) agg.url({ loc: `https://e.com/d${i}/s${i % 7}/page` }, { line: i + 1, column: 1 });
  for (let i = 0; i < 500; i++) agg.url({ loc: `https://e.com/d${i}/s${i % 7}/page` }, { line: 10_001 + i, column: 1 });
  for (let i = 0; i < 300; i++) agg.diagnostic({ code: 'loc/duplicate', severity: 'warning', message: `m${i}`, file: 'big.xml', line: 10_001 + i, column: 1 });
  agg.endFile({ ...END, warnings: 300 });
  const model = agg.finish('');
  assert.equal(model.duplicates.count, 500);
  assert.equal(model.duplicates.examples.length, REPORT_SAMPLES);
  const problem = model.problems.find((p) => p.code === 'loc/duplicate') as ReportModel['problems'][number];
  assert.equal(problem.count, 300);
  assert.equal(problem.examples.length, REPORT_SAMPLES);
  assert.deepEqual(problem.examples[0], { file: 'big.xml', line: 10_001, column: 1, message: 'm0' });
  assert.ok(model.directories.length <= 200);
  assert.equal(model.directories.reduce((sum, d) => sum + d.urls, 0), 10_500, 'every URL counted under some prefix');
  assert.equal(model.directories.at(-1)?.prefix, '(other)');
});

test('every directory link of the page finds the URLs counted under it in the URL table: prefixes as the set spells them (an IRI, lower-case escapes), none for "(other)"', () => {
  const { agg, rows } = aggregator();
  feed(agg, 'a.xml', [
    // The corpus' coronavirus-bulgaria.org image sitemap writes its paths as IRIs; WordPress escapes in lower case.
    { loc: 'https://e.com/\u0437\u0430-\u043f\u0440\u043e\u0435\u043a\u0442\u0430/' }, { loc: 'https://e.com/caf%c3%a9/menu' }, { loc: 'https://e.com/caf%C3%A9/menu2' },
    // Past 4,096 two-level prefixes, one-level ones ("/s/\u2026"); past 200 rows, "(other)".
    ...Array.from({ length: 5_000 }, (_, i) => ({ loc: `https://e.com/s/${i}/p` })),
  ]);
  const model = agg.finish('');
  assert.deepEqual(model.directories.slice(0, 2), [{ prefix: '/s/\u2026', urls: 906 }, { prefix: '/caf%c3%a9/', urls: 2 }]);
  assert.equal(model.directories.at(-1)?.prefix, '(other)');
  const locs = rows.map((row) => row[0] as string);
  const { head } = reportPageParts(model);
  assert.ok(head.includes('<summary>The 199 largest prefixes and the rest as a table</summary>'), 'not "All 200 prefixes": there are 5,003');
  const filters = [...head.matchAll(/data-filter="([^"]*)"/g)].map((m) => m[1] as string);
  assert.equal(filters.length, model.directories.length - 1, 'a link for every row but "(other)"');
  // As the page's filter matches (client.ts matchingRows): ASCII case ignored unless the query has capitals.
  const found = (query: string): boolean => locs.some((loc) => (/[A-Z]/.test(query) ? loc : loc.toLowerCase()).includes(query));
  assert.deepEqual(filters.filter((query) => !found(query)), []);
});

test('a host\'s root folder is its host, whatever follows it (no path, a query, a fragment), and its link finds its URLs in a set of several hosts', () => {
  const { agg, rows } = aggregator();
  feed(agg, 'a.xml', [{ loc: 'https://a.example' }, { loc: 'https://b.example?page=2' }, { loc: 'https://b.example/#top' }, { loc: 'https://c.example/x/y' }]);
  const model = agg.finish('');
  assert.deepEqual(model.directories, [{ prefix: '//b.example/', urls: 2 }, { prefix: '//a.example/', urls: 1 }, { prefix: '//c.example/x/', urls: 1 }]);
  const filters = [...reportPageParts(model).head.matchAll(/data-filter="([^"]*)"/g)].map((m) => m[1] as string);
  for (const query of filters) assert.ok(rows.some((row) => (row[0] as string).includes(query)), `the link ${query} finds no URL`);
});

test('the headroom to the limits is to the profile the files were held to: --limits legacy takes 10 MB a file, not 50 MB', () => {
  const summary = (limits?: 'legacy'): string => {
    const agg = new ReportAggregator({ source: 'test', now: NOW, sitemapkitVersion: '0.0.0', onRows: () => {}, ...(limits === undefined ? {} : { limits }) });
    feed(agg, 'a.xml', [{ loc: 'https://example.com/' }], { plainBytes: 12_169_000 });
    return /<section id="summary".*?<\/section>/s.exec(reportPageParts(agg.finish('')).head)?.[0] ?? '';
  };
  assert.match(summary(), /<dd>11\.6 MB<small>of 50\.0 MB: 23% used<\/small>/);
  assert.match(summary('legacy'), /<dd class="bad">11\.6 MB<small>of 10\.0 MB: over the limit<\/small>/);
});

test('a size just under 1 MiB is "1.0 MB", not "1024.0 KB": the unit follows the rounded figure', () => {
  const summary = (plainBytes: number): string => {
    const agg = new ReportAggregator({ source: 'test', now: NOW, sitemapkitVersion: '0.0.0', onRows: () => {} });
    feed(agg, 'a.xml', [{ loc: 'https://example.com/' }], { plainBytes });
    return /<section id="summary".*?<\/section>/s.exec(reportPageParts(agg.finish('')).head)?.[0] ?? '';
  };
  assert.match(summary(1_048_575), /<dd>1\.0 MB<small>/);
  assert.match(summary(1_048_524), /<dd>1023\.9 KB<small>/);
  assert.match(summary(1_023), /<dd>1,023 bytes<small>/);
});

test('problems carry the rule\'s title, Search Console wording and a fix; rows the flags of problems found after them', () => {
  const { agg, rows } = aggregator();
  agg.startFile({ name: 's.xml', parent: -1 });
  agg.url({ loc: 'https://e.com/a', lastmod: 'yesterday' }, { line: 3, column: 3 });
  agg.url({ loc: 'https://e.com/b' }, { line: 8, column: 3 });
  agg.url({ loc: 'https://e.com/c' }, { line: 12, column: 3 });
  const late: Diagnostic[] = [
    { code: 'lastmod/invalid', severity: 'error', message: 'not a date', file: 's.xml', line: 5, column: 14, hint: 'write a W3C Datetime' },
    // Reported once the file is read (validate's return-link check): the row is still marked.
    { code: 'hreflang/missing-return-link', severity: 'warning', message: '"https://e.com/x" lists "https://e.com/c" as an hreflang alternate, but "https://e.com/c" does not list "https://e.com/x"', file: 's.xml', line: 12, column: 3 },
    { code: 'urlset/empty', severity: 'info', message: 'info only', file: 's.xml', line: 9, column: 1 },
  ];
  for (const d of late) agg.diagnostic(d);
  agg.endFile({ ...END, errors: 1, warnings: 1 });
  const model = agg.finish('');
  const invalid = model.problems.find((p) => p.code === 'lastmod/invalid');
  assert.equal(invalid?.title, ruleInfo('lastmod/invalid')?.title);
  assert.equal(invalid?.searchConsole, 'Invalid date');
  assert.equal(invalid?.fix, 'write a W3C Datetime');
  assert.deepEqual(model.problems.map((p) => p.severity), ['error', 'warning', 'info'], 'errors first');
  assert.deepEqual(rows.map((r) => r[7]), ['e', '', 'w']);
  assert.deepEqual(model.extensions.hreflangProblems, { count: 1, examples: [{ loc: 'https://e.com/x', alternate: 'https://e.com/c' }] });
  assert.equal(model.summary.errors, 1);
  assert.equal(model.summary.warnings, 1);
});

test('a reading stopped by a budget (--max-entries, --max-bytes) marks the last row read "reading stopped after it", not as an error of that URL', async () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from({ length: 10 }, (_, i) => `<url>\n<loc>https://e.com/${i}</loc>\n</url>\n`).join('')}</urlset>\n`;
  for (const budget of [{ maxEntries: 5 }, { maxBytes: 300 }]) {
    const { agg, rows } = aggregator();
    agg.startFile({ name: 's.xml', parent: -1 });
    await validateSitemap(new TextEncoder().encode(xml), { file: 's.xml', ...budget, onUrl: (entry, at) => agg.url(entry, at), onDiagnostic: (d) => agg.diagnostic(d) });
    agg.endFile(END);
    const model = agg.finish('');
    const stopped = model.problems[0]?.examples[0];
    assert.ok(stopped?.line !== undefined && /^budget\//.test(model.problems[0]?.code ?? ''), JSON.stringify(model.problems));
    const flags = rows.map((r) => r[7]);
    assert.deepEqual(flags, [...flags.slice(0, -1).map(() => ''), 's'], `${JSON.stringify(budget)}: the problem lists the file and line (${stopped.file}:${stopped.line}), the table the row it follows`);
  }
});

test('the schema verdict: invalid when one file fails, not-checked when none has a schema', () => {
  const one = aggregator().agg;
  feed(one, 'a.xml', [], { schemaValid: true });
  feed(one, 'b.xml', [], { schemaValid: false });
  assert.equal(one.finish('').summary.schema, 'invalid');
  const text = aggregator().agg;
  feed(text, 'a.txt', [], { kind: 'text', schemaValid: null });
  assert.equal(text.finish('').summary.schema, 'not-checked');
});

test('the validating reading hands out every entry the plain reader gives, with and without the lane (fixtures and corpus)', async () => {
  const files = xmlFixturesAndCorpus();
  assert.ok(files.length > 50, 'the corpus is there');
  for (const file of files) {
    const read: unknown[] = [];
    await readSitemap(file, { onUrl: (entry, at) => read.push([entry, at.line, at.column]) });
    for (const fastPath of [true, false]) {
      const validated: unknown[] = [];
      await validateSitemap(file, { fastPath, onUrl: (entry, at) => validated.push([entry, at.line, at.column]) });
      assert.deepEqual(validated, read, `${file} (fastPath ${fastPath})`);
    }
  }
});
