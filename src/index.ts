// sitemapkit's library entry.
export * from './core/index.js';
export { writeSitemaps, resolveLimits, type WriteSitemapsOptions, type WriteSummary, type WrittenFile, type WriteProgress, type IndexMode } from './node/write-sitemaps.js';
export { readInput, detectInputFormat, type InputFormat, type InputRecord, type InputErrorCode } from './node/input.js';
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
export {
  discoverSitemaps,
  DiscoveryRun,
  DISCOVER_CODES,
  DEFAULT_MAX_SITEMAP_DEPTH,
  DEFAULT_MAX_SITEMAPS,
  type DiscoverOptions,
  type DiscoverEvent,
  type DiscoveryTree,
  type DiscoveryInput,
  type DiscoveryTotals,
  type SitemapNode,
  type RobotsNode,
  type SitemapVia,
  type DocumentOutcome,
} from './node/discover.js';
export { validateSitemapUrl, type ValidateSitemapUrlOptions, type SitemapUrlValidationResult } from './node/validate-url.js';
export type { HttpClientOptions, FetchFunction } from './node/http/client.js';
export type { AddressPolicyOptions, LookupAll } from './node/http/policy.js';
export { run } from './cli/main.js';
export type { CliIo } from './cli/io.js';
