// Issue 22: the library's entry points keep at most `maxDiagnosticsPerCode` diagnostics of each code
// per document, with exact counts and a closing `diagnostics/truncated` entry, and hand every one to
// `onDiagnostic`.

import { describe, it, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { parseSitemap, readSitemap } from '../../src/node/parse-sitemap.js';
import { validateSitemap } from '../../src/node/validate-sitemap.js';
import { discoverSitemaps } from '../../src/node/discover.js';
import { startSiteServer, type SiteServer } from '../helpers/site-server.js';

const TRUNCATED_CODE = 'diagnostics/truncated';
const BAD_LINES = 2_500;
const badText = (): { text: string } => ({ text: 'not a url\n'.repeat(BAD_LINES) });
const badBytes = (): Uint8Array => new TextEncoder().encode('not a url\n'.repeat(BAD_LINES));

function assertCapped(list: readonly Diagnostic[], code: string, kept: number, left: number): void {
  assert.equal(list.filter((d) => d.code === code).length, kept);
  const last = list.at(-1) as Diagnostic;
  assert.equal(last.code, TRUNCATED_CODE);
  assert.match(last.message, new RegExp(`${code} ${left.toLocaleString('en-US')}$`));
}

describe('maxDiagnosticsPerCode and onDiagnostic', () => {
  it('readSitemap: 1,000 kept by default, the counts and the callback see all', async () => {
    let seen = 0;
    const summary = await readSitemap(badBytes(), { onDiagnostic: () => seen++ });
    assert.equal(seen, BAD_LINES);
    assert.equal(summary.errors, BAD_LINES);
    assertCapped(summary.diagnostics, 'text/not-a-url', 1_000, BAD_LINES - 1_000);
  });

  it('parseSitemap: the cap is an option, refused when it is not a whole number', async () => {
    let seen = 0;
    const reading = parseSitemap(badText(), { maxDiagnosticsPerCode: 10, onDiagnostic: () => seen++ });
    const summary = await reading.summary();
    assert.equal(seen, BAD_LINES);
    assert.equal(reading.diagnostics.length, 10);
    assertCapped(summary.diagnostics, 'text/not-a-url', 10, BAD_LINES - 10);
    assert.throws(() => parseSitemap(badText(), { maxDiagnosticsPerCode: -1 }), { code: 'ERR_SITEMAP_OPTION' });
  });

  it('validateSitemap: a capped report with exact counts; onDiagnostic gets every one with its file', async () => {
    const seen: Diagnostic[] = [];
    const report = await validateSitemap(badBytes(), { file: 'urls.txt', maxDiagnosticsPerCode: 20, onDiagnostic: (d) => seen.push(d) });
    assert.equal(seen.length, BAD_LINES);
    assert.ok(seen.every((d) => d.file === 'urls.txt'));
    assert.deepEqual(report.counts, { errors: BAD_LINES, warnings: 0, infos: 0 });
    assertCapped(report.diagnostics, 'text/not-a-url', 20, BAD_LINES - 20);
  });

  describe('discoverSitemaps', () => {
    let server: SiteServer;
    before(async () => {
      server = await startSiteServer({ '/urls.txt': { type: 'text/plain', body: 'not a url\n'.repeat(BAD_LINES) } });
    });
    after(() => server.close());

    it("caps the document's list, keeps its counts exact, and calls back for each", async () => {
      let seen = 0;
      const run = discoverSitemaps(server.url('/urls.txt'), { allowPrivate: true, retries: 0, maxDiagnosticsPerCode: 5, onDiagnostic: () => seen++ });
      let events = 0;
      for await (const event of run) if (event.type === 'diagnostic') events++;
      const tree = await run.tree();
      const node = tree.inputs[0]?.sitemaps[0];
      assert.ok(node !== undefined);
      assert.equal(node.errors, BAD_LINES);
      assert.equal(tree.totals.errors, BAD_LINES);
      assert.equal(seen, BAD_LINES);
      assert.equal(events, BAD_LINES, 'every diagnostic is still an event');
      assertCapped(node.diagnostics, 'text/not-a-url', 5, BAD_LINES - 5);
      assert.throws(() => discoverSitemaps(server.url('/urls.txt'), { maxDiagnosticsPerCode: 0.5 }), { code: 'ERR_SITEMAP_OPTION' });
    });
  });
});
