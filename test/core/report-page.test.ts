// The report page's frame, without a browser (test/browser/report-page.test.ts opens it in one):
// where the rows go, the model as JSON that cannot close its script, and a policy that names the
// page's one script by its real hash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { reportPageParts } from '../../src/core/report/page.js';
import type { ReportFile } from '../../src/core/report/model.js';
import { sha256 } from '../../src/core/report/sha256.js';
import { syntheticModel } from '../browser/report-fixture.js';

test('head ends inside the rows script and tail closes it; the model is JSON that no string can end early', () => {
  const model = syntheticModel(10);
  model.source = '</script><script>alert(1)</script><!--';
  const { head, tail } = reportPageParts(model);
  assert.ok(head.endsWith('<script type="application/gzip" id="sitemapkit-rows">'));
  assert.ok(tail.startsWith('</script>'));
  const json = /<script type="application\/json" id="sitemapkit-model">(.*?)<\/script>/s.exec(head)?.[1] ?? '';
  assert.ok(!json.includes('<'), 'every < is written \\u003c');
  assert.deepEqual(JSON.parse(json), model);
  assert.equal(head.split('</script>').length, 2, 'one </script> in the head: the end of the model');
});

test('the Content-Security-Policy forbids every load and names the one script by its SHA-256', () => {
  const { head, tail } = reportPageParts(syntheticModel(10));
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(head)?.[1] ?? '';
  assert.match(policy, /^default-src 'none';/);
  const script = /<script>(.*)<\/script>/s.exec(tail)?.[1] ?? '';
  assert.ok(script.length > 1000);
  assert.ok(policy.includes(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`));
});

test('sha256 agrees with node:crypto across block boundaries', () => {
  for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
    const data = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 255);
    assert.equal(Buffer.from(sha256(data)).toString('hex'), createHash('sha256').update(data).digest('hex'), `${length} bytes`);
  }
});

test('the lastmod histogram: every month of a span, by year past ten years, a stray year folded before or after', () => {
  const bars = (byMonth: { month: string; urls: number }[]): string[] => {
    const model = syntheticModel(10);
    model.freshness.byMonth = byMonth;
    const svg = /<section id="freshness".*?<svg[^>]*>(.*?)<\/svg>/s.exec(reportPageParts(model).head)?.[1] ?? '';
    return [...svg.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1] as string);
  };
  assert.deepEqual(bars([{ month: '2026-03', urls: 5 }, { month: '2025-12', urls: 2 }]), ['2025-12: 2 URLs', '2026-01: 0 URLs', '2026-02: 0 URLs', '2026-03: 5 URLs']);
  const years = bars([{ month: '0001-01', urls: 1 }, { month: '2010-05', urls: 50 }, { month: '2024-05', urls: 100 }, { month: '9999-12', urls: 3 }]);
  assert.equal(years.length, 2 + 15);
  assert.deepEqual([years[0], years[1], years[15], years[16]], ['before 2010: 1 URL', '2010: 50 URLs', '2024: 100 URLs', 'after 2024: 3 URLs']);
});

test('the freshness callouts count one URL as one: "1 URL has", not "1 URLs have"', () => {
  for (const [future, missing, said] of [[1, 1, ['1 URL</strong> has a lastmod in the future', '1 URL</strong> (']], [2, 3, ['2 URLs</strong> have a lastmod in the future', '3 URLs</strong> (']]] as const) {
    const model = syntheticModel(10);
    model.freshness.future = future;
    model.freshness.missing = missing;
    const { head } = reportPageParts(model);
    for (const s of said) assert.ok(head.includes(s), s);
    assert.ok(head.includes(`) ${missing === 1 ? 'has' : 'have'} no lastmod`));
  }
});

test('an index of 50,000 children (the most the protocol allows) is laid out in linear time: under 5 s, where copying each sibling list took 31 s', () => {
  const model = syntheticModel(10);
  const files = [model.files[0] as ReportFile];
  for (let i = 0; i < 50_000; i++) files.push({ ...(model.files[1] as ReportFile), name: `sitemap-${i}.xml.gz` });
  const started = process.cpuUsage();
  const { head } = reportPageParts({ ...model, files, summary: { ...model.summary, files: files.length } });
  const { user, system } = process.cpuUsage(started);
  // CPU time, not wall time: a loaded machine makes the wall clock long, not the work.
  assert.ok(user + system < 5_000_000, `${Math.round((user + system) / 1000)} ms of CPU`);
  assert.ok(head.includes('sitemap-49999.xml.gz'));
});

test('a share under 0.1% is written "&lt; 0.1%": a bare "<" before a space is an HTML parse error (every "<" of the page opens a tag)', () => {
  const { head, tail } = reportPageParts(syntheticModel(10));
  assert.ok(head.includes('of 50,000: &lt; 0.1% used'));
  const outsideScripts = (head + tail).replace(/<script\b[^>]*>.*?<\/script>/gs, '').replace(/<script\b[^>]*>[^<]*$/s, '');
  assert.deepEqual(outsideScripts.match(/<(?![A-Za-z/!])../g) ?? [], []);
});

test('the "Changed" figure of --compare names every field a change is found in: a changefreq or priority change was said to be "lastmod or extension data"', () => {
  const compare = { previous: 'old.xml', added: 0, removed: 0, changed: 1, examples: [{ kind: 'changed' as const, loc: 'https://e.com/x', fields: ['changefreq', 'priority'] }], perFile: [] };
  const { head } = reportPageParts(syntheticModel(10, { compare }));
  assert.ok(head.includes('<dt>Changed</dt><dd>1<small>lastmod, changefreq, priority or extension data</small>'), /<dt>Changed<\/dt>.{0,80}/.exec(head)?.[0]);
});

test('a set under one prefix says so: not "All 1 prefix" nor "the 1 largest" (a chart of every prefix says no "largest")', () => {
  const { head } = reportPageParts(syntheticModel(10, { directories: [{ prefix: '/', urls: 10 }] }));
  assert.ok(head.includes('aria-label="URLs per path prefix" '), /aria-label="URLs per path prefix[^"]*"/.exec(head)?.[0]);
  assert.ok(head.includes('<summary>The prefix as a table</summary>'), /<summary>[^<]*prefix[^<]*<\/summary>/.exec(head)?.[0]);
  const three = reportPageParts(syntheticModel(10, { directories: ['/a/', '/b/', '/c/'].map((prefix) => ({ prefix, urls: 3 })) })).head;
  assert.ok(three.includes('aria-label="URLs per path prefix" ') && three.includes('<summary>All 3 prefixes as a table</summary>'));
});
