// The pure core: no I/O, usable in browsers, workers and edge runtimes.
export * from './model.js';
export { formatDiagnostic, type Diagnostic, type Severity } from './diagnostics.js';
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
