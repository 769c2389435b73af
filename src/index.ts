// sitemapkit's library entry: the pure core (sitemapkit/core) and the Node functions of each command.
//
// The public API is what the README and docs/ document, and the types their signatures use; the
// command line's `run`, the code tables and the helpers of the commands stay internal.
// test/api-exports.test.ts lists what is here.
export * from './core/index.js';
export { writeSitemaps, type WriteSitemapsOptions, type WriteSummary, type WrittenFile, type WriteProgress, type IndexMode } from './node/write-sitemaps.js';
export { readInput, type InputFormat, type InputRecord, type InputErrorCode, type ReadInputOptions } from './node/input.js';
export {
  parseSitemap,
  readSitemap,
  type SitemapReading,
  type SitemapInput,
  type SitemapItem,
  type ParseSitemapOptions,
  type ReadSitemapOptions,
} from './node/parse-sitemap.js';
export { validateSitemap, type ValidateSitemapOptions, type SitemapValidationResult } from './node/validate-sitemap.js';
export { validateSitemapUrl, type ValidateSitemapUrlOptions, type SitemapUrlValidationResult } from './node/validate-url.js';
export {
  discoverSitemaps,
  type DiscoveryRun,
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
export type { HttpClientOptions, FetchFunction } from './node/http/client.js';
export type { AddressPolicyOptions, LookupAll } from './node/http/policy.js';
export {
  buildSite,
  type BuildSiteOptions,
  type BuildSiteResult,
  type BuildProgress,
  type BuiltFile,
  type FileStatus,
  type ExcludedPage,
  type PageProblem,
  type InitialLastmod,
} from './node/build-site.js';
export type { TrailingSlash } from './core/build/page-path.js';
export type { ExclusionReason } from './core/build/select-pages.js';
export { submitIndexNow, type IndexNowSubmitOptions, type IndexNowResult } from './node/indexnow.js';
export { openDirectorySource, type DirectorySource, type DirectorySourceOptions } from './node/serve/directory-source.js';
export { toNodeListener, type NodeListener, type NodeListenerOptions, type ResponseDone } from './node/serve/node-listener.js';
export { directoryStore } from './node/serve/directory-store.js';
