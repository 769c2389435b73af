// sitemapkit's library entry.
export * from './core/index.js';
export { writeSitemaps, resolveLimits, type WriteSitemapsOptions, type WriteSummary, type WrittenFile, type WriteProgress, type IndexMode } from './node/write-sitemaps.js';
export { readInput, detectInputFormat, type InputFormat, type InputRecord } from './node/input.js';
export { run } from './cli/main.js';
export type { CliIo } from './cli/io.js';
