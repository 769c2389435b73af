// validateSitemap's options under the names the rest of the package uses.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateSitemap } from '../../src/node/validate-sitemap.js';

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://other.example.org/a</loc></url>\n</urlset>\n';

test('baseUrl bounds every URL, as writeSitemaps and --base-url say it; location is still read', async () => {
  for (const options of [{ baseUrl: 'https://www.example.com/sitemap.xml' }, { location: 'https://www.example.com/sitemap.xml' }]) {
    const r = await validateSitemap({ text: XML }, options);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['loc/out-of-scope'], JSON.stringify(options));
  }
  const none = await validateSitemap({ text: XML });
  assert.deepEqual(none.diagnostics.map((d) => d.code), []);
});
