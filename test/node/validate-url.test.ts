// validateSitemapUrl's thrown errors: a URL that cannot be fetched is ERR_SITEMAP_INPUT with the
// `fetch/…` rule of docs/rules.md in `rule`, as every refusal of that page carries it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SitemapError } from '../../src/core/errors.js';
import { validateSitemapUrl } from '../../src/node/validate-url.js';
import { startSiteServer, urlset } from '../helpers/site-server.js';

async function refusal(url: string, options: Parameters<typeof validateSitemapUrl>[1]): Promise<{ code: string; rule: string | undefined }> {
  try {
    await validateSitemapUrl(url, options);
  } catch (error) {
    assert.ok(error instanceof SitemapError, String(error));
    return { code: error.code, rule: error.rule };
  }
  assert.fail(`${url} was validated`);
}

test('a sitemap URL that cannot be fetched throws ERR_SITEMAP_INPUT with its fetch/… rule', async () => {
  const s = await startSiteServer({
    '/gone.xml': { status: 404, body: 'not here' },
    '/cut.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml', 'content-length': '4096' });
      res.write(urlset(['https://www.example.com/a']).slice(0, 120));
      setTimeout(() => res.socket?.destroy(), 20);
    },
  });
  try {
    const cases: [string, Parameters<typeof validateSitemapUrl>[1], string][] = [
      [s.url('/gone.xml'), { allowPrivate: true, retries: 0 }, 'fetch/http-status'],
      [s.url('/cut.xml'), { allowPrivate: true, retries: 0 }, 'fetch/truncated'],
      [s.url('/gone.xml'), {}, 'fetch/address-refused'],
      ['ftp://www.example.com/sitemap.xml', {}, 'fetch/scheme-refused'],
    ];
    for (const [url, options, rule] of cases) {
      assert.deepEqual(await refusal(url, options), { code: 'ERR_SITEMAP_INPUT', rule }, url);
    }
  } finally {
    await s.close();
  }
});
