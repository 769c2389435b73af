// The lower-level serializer: entries → one urlset document, as chunks of UTF-8 bytes.
// For a set split across files, use writeSitemaps (Node) or SitemapSetWriter directly.

import { LIMITS_PROFILES, type Limits, type UrlEntry } from '../model.js';
import { SitemapError, plural } from '../errors.js';
import type { UrlScope } from '../url.js';
import { FOOTER, SitemapSetWriter, rootStart, xmlDeclaration } from './sitemap-set-writer.js';

export interface SerializeSitemapOptions {
  /** Default: the `current` profile. */
  limits?: Readonly<Limits>;
  baseUrl?: string;
  scope?: UrlScope;
  xslUrl?: string;
  dedupe?: boolean;
}

/**
 * One urlset document for `entries`. Throws InvalidValueError for a refused entry, and
 * `ERR_SITEMAP_LIMIT` (rule `limits/document-full`) when the entries do not fit in one document.
 * With no entries it yields an empty `<urlset>` (which sitemap.xsd does not accept).
 */
export async function* serializeSitemap(entries: Iterable<UrlEntry> | AsyncIterable<UrlEntry>, options: SerializeSitemapOptions = {}): AsyncGenerator<Uint8Array> {
  const limits = options.limits ?? LIMITS_PROFILES.current;
  let ready: Uint8Array[] = [];
  const writer = new SitemapSetWriter(
    { open() {}, write: (bytes) => ready.push(bytes.slice()), close() {} },
    { limits, baseUrl: options.baseUrl, scope: options.scope, xslUrl: options.xslUrl, dedupe: options.dedupe, maxFiles: 1 },
  );
  for await (const entry of entries) {
    try {
      writer.add(entry);
    } catch (error) {
      if (error instanceof SitemapError && error.rule === 'limits/too-many-sitemaps') {
        throw new SitemapError('ERR_SITEMAP_LIMIT', `the entries do not fit in one sitemap (at most ${plural(limits.maxUrlsPerSitemap, 'URL')} and ${plural(limits.maxBytesPerSitemap, 'byte')}); use writeSitemaps to split them`, 'limits/document-full');
      }
      throw error;
    }
    if (ready.length > 0) {
      const out = ready;
      ready = [];
      yield* out;
    }
  }
  if (writer.end().length === 0) {
    yield new TextEncoder().encode(xmlDeclaration(options.xslUrl) + rootStart(0) + FOOTER);
  }
  yield* ready;
}
