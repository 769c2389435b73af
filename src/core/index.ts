// The pure core: no I/O, usable in browsers, workers and edge runtimes.
export * from './model.js';
export {
  formatDiagnostic,
  countDiagnostics,
  DiagnosticCollector,
  DEFAULT_MAX_DIAGNOSTICS_PER_CODE,
  TRUNCATED_CODE,
  type Diagnostic,
  type DiagnosticCounts,
  type DiagnosticCollectorOptions,
  type Severity,
} from './diagnostics.js';
export { SitemapError, InvalidValueError } from './errors.js';
export { escapeXml, escapeXmlAttribute } from './xml/escape.js';
export { normalizeUrl, scopeOf, scopeViolation, type UrlScope } from './url.js';
export { toSitemapDate, formatSitemapDate, parseW3cDatetime, type SitemapDate } from './datetime.js';
export { UrlEntrySerializer } from './write/url-entry.js';
export { SitemapSetWriter, type SitemapFileInfo, type SitemapSetSink, type SitemapSetWriterOptions } from './write/sitemap-set-writer.js';
export { serializeSitemapIndex, type SitemapIndexOptions } from './write/sitemap-index.js';
export { serializeSitemap, type SerializeSitemapOptions } from './write/serialize.js';
export { TextSitemapReader, TEXT_READER_CODES } from './read/text.js';
export type { ReaderSink, ReaderBudgets, SitemapFormat, EntryPosition } from './read/types.js';
export { XmlTokenizer, XML_TOKENIZER_CODES, type XmlTokenHandler, type XmlTokenizerOptions, type XmlAttribute } from './xml/tokenizer.js';
export { XmlSitemapReader, readXmlSitemapText, XML_READER_CODES } from './read/xml-reader.js';
// Validation (issue #4): the rules one by one, and a whole sitemap.
export { SitemapValidation, validateXmlSitemapText, type ValidationOptions, type RuleSetting } from './validate/validator.js';
export { VALIDATION_RULES, ruleInfo } from './validate/rules.js';
export { summarize, type FileReport, type RuleInfo, type ValidationSummary } from './validate/types.js';
export { StructureChecker, STRUCTURE_CODES } from './validate/structure.js';
export { ProtocolChecker, PROTOCOL_CODES, type ProtocolOptions } from './validate/protocol.js';
export { HreflangChecker, HREFLANG_RULES } from './validate/hreflang.js';
export { languageTagProblem } from './validate/language-tag.js';
// Building from a site, robots.txt and IndexNow (issue #6).
// The HTML page scanner (scanHtmlPage, sniffHtmlEncoding) is its own entry, `sitemapkit/html-page`: it
// brings htmlparser2, whose import alone is ~1.2 MB of heap that every other use of the package would
// carry (enough to cost a cold 50,000-URL validation a full garbage collection).
export { pageUrlPath, pageUrlPathVariants, isHtmlFile, type PagePathOptions, type TrailingSlash } from './build/page-path.js';
export { selectPages, isErrorPage, type PageCandidate, type PageDecision, type ExclusionReason } from './build/select-pages.js';
export { sectionOf, sectionFileStem, bucketOf, bucketCount } from './build/partition.js';
export { buildStableSet, type StableEntry, type StableSet, type StableChild, type StableSetOptions } from './build/stable-set.js';
export { pendingAnnouncements, recordAnnounced, type Announcement, type AnnouncedPage } from './build/announce.js';
export { setSitemapLines, sitemapLineUrl, type SitemapLinesOptions, type SitemapLinesEdit, type TouchedLine, type LineEnding } from './robots/edit.js';
export { parseRobotsTxt, MAX_ROBOTS_BYTES, type RobotsTxt, type RobotsGroup, type RobotsRule, type RobotsSitemapLine, type RobotsTxtProblem, type Directive as RobotsDirective } from './robots/robots-txt.js';
export { isAllowed, robotsMatcher, productToken } from './robots/match.js';
export {
  indexNowPayloads,
  indexNowKeyProblem,
  indexNowEndpoint,
  indexNowKeyFileUrl,
  explainIndexNowStatus,
  DEFAULT_INDEXNOW_ENDPOINT,
  INDEXNOW_MAX_URLS_PER_POST,
  type IndexNowPayload,
} from './indexnow.js';
