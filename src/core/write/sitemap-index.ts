// A `<sitemapindex>` document. sitemaps.org protocol, "Using Sitemap index files": one `<sitemap>`
// per child with its `<loc>` and optional `<lastmod>`; at most 50,000 children (1,000 in the
// legacy profile) and the same byte limit as a sitemap.

import { NS, type Limits, type SitemapRef } from '../model.js';
import { SitemapError, plural } from '../errors.js';
import { escapeXml } from '../xml/escape.js';
import { toSitemapDate } from '../datetime.js';
import { xmlDeclaration } from './sitemap-set-writer.js';
import { normalizeLoc } from './url-entry.js';
import { utf8Length } from './utf8.js';

export interface SitemapIndexOptions {
  limits: Readonly<Limits>;
  xslUrl?: string;
}

/** The whole index document as text. Throws SitemapError `limits/...` when it exceeds the limits. */
export function serializeSitemapIndex(refs: Iterable<SitemapRef>, options: SitemapIndexOptions): string {
  const parts: string[] = [xmlDeclaration(options.xslUrl), `<sitemapindex xmlns="${NS.sitemap}">\n`];
  let count = 0;
  for (const ref of refs) {
    count++;
    if (count > options.limits.maxSitemapsPerIndex) {
      throw new SitemapError('ERR_SITEMAP_LIMIT', `a sitemap index may list at most ${plural(options.limits.maxSitemapsPerIndex, 'sitemap')}`, 'limits/too-many-sitemaps');
    }
    let xml = '<sitemap><loc>' + escapeXml(normalizeLoc(ref.loc, undefined, options.limits)) + '</loc>';
    if (ref.lastmod !== undefined && ref.lastmod !== null) xml += '<lastmod>' + toSitemapDate(ref.lastmod, 'lastmod').text + '</lastmod>';
    parts.push(xml + '</sitemap>\n');
  }
  if (count === 0) throw new SitemapError('ERR_SITEMAP_EMPTY', 'a sitemap index needs at least one sitemap (siteindex.xsd)');
  parts.push('</sitemapindex>\n');
  const text = parts.join('');
  const bytes = utf8Length(text);
  if (bytes > options.limits.maxBytesPerIndex) {
    throw new SitemapError('ERR_SITEMAP_LIMIT', `the sitemap index would take ${bytes} bytes; at most ${options.limits.maxBytesPerIndex}`, 'limits/index-too-large');
  }
  return text;
}
