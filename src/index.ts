// sitemapkit's library entry.
export * from './core/index.js';
export { writeSitemaps, resolveLimits, type WriteSitemapsOptions, type WriteSummary, type WrittenFile, type WriteProgress, type IndexMode } from './node/write-sitemaps.js';
export { readInput, detectInputFormat, type InputFormat, type InputRecord } from './node/input.js';
export {
  parseSitemap,
  readSitemap,
  PARSE_SITEMAP_CODES,
  SitemapReading,
  type SitemapInput,
  type SitemapItem,
  type SitemapSummary,
  type ParseSitemapOptions,
  type ReadSitemapOptions,
} from './node/parse-sitemap.js';
export { validateSitemap, type ValidateSitemapOptions, type SitemapValidationResult } from './node/validate-sitemap.js';
export { buildSite, readSourceMap, type BuildSiteOptions, type BuildSiteResult, type BuiltFile, type ExcludedPage, type InitialLastmod } from './node/build-site.js';
export { submitIndexNow, type IndexNowSubmitOptions, type IndexNowResult } from './node/indexnow.js';
export { run } from './cli/main.js';
export type { CliIo } from './cli/io.js';
