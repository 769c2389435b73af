// The pure core, usable in browsers, workers and edge runtimes: the API the README and docs/ document,
// and the types their signatures use. test/api-exports.test.ts lists what is here.
export * from './model.js';
export type { Diagnostic, DiagnosticCounts, Severity } from './diagnostics.js';
export { SitemapError, InvalidValueError } from './errors.js';
export { escapeXml } from './xml/escape.js';
export { normalizeUrl } from './url.js';
export { toSitemapDate, type SitemapDate } from './datetime.js';
// Writing.
export { SitemapSetWriter, type SitemapFileInfo, type SitemapSetSink, type SitemapSetWriterOptions, type AddResult } from './write/sitemap-set-writer.js';
export { serializeSitemapIndex, type SitemapIndexOptions } from './write/sitemap-index.js';
export { serializeSitemap, type SerializeSitemapOptions } from './write/serialize.js';
// Reading: bytes pushed in chunks to a ReaderSink (gzip inflated by the caller), or a whole text.
export type { ReaderBudgets, ReaderSink, SitemapFormat, EntryPosition } from './read/types.js';
export { SitemapDocument, type SitemapDocumentOptions, type SitemapSummary } from './read/document.js';
export { readXmlSitemapText, type XmlSitemapReadResult } from './read/xml-reader.js';
export { validateXmlSitemapText, type ValidationOptions, type RuleSetting } from './validate/validator.js';
export type { FileReport } from './validate/types.js';
// robots.txt (RFC 9309) and IndexNow payloads. The HTML page scanner is its own entry
// (`sitemapkit/html-page`): htmlparser2's ~1.2 MB of heap would burden every other use.
export { setSitemapLines, type SitemapLinesOptions, type SitemapLinesEdit, type SitemapLineProblem, type TouchedLine, type LineEnding } from './robots/edit.js';
export { parseRobotsTxt, type RobotsTxt, type RobotsGroup, type RobotsRule, type RobotsSitemapLine, type RobotsTxtProblem, type Directive as RobotsDirective } from './robots/robots-txt.js';
export { isAllowed } from './robots/match.js';
export { indexNowPayloads, type IndexNowPayload, type IndexNowPayloadOptions } from './indexnow.js';
// Serving a set over HTTP (fetch types; the Node adapter and the directory source are in the package entry).
export { createSitemapHandler, type SitemapHandler, type SitemapHandlerOptions, type SitemapSource, type SitemapFile, type Representation, type StreamedRepresentation, type SitemapAnswer } from './serve/handler.js';
export type { SetView } from './serve/set-page.js';
export { liveSource, memoryStore, type LiveSourceOptions, type CacheStore, type CachedFile } from './serve/live-source.js';
