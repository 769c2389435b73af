// Every rule `sitemapkit validate` can report: its code, default severity, a one-line title and the
// Search Console message it corresponds to. docs/rules.md has the long form (what triggers it, why it
// matters, how to fix it); test/core/validate/rules.test.ts keeps the two in step.

import type { Severity } from '../diagnostics.js';
import { XML_TOKENIZER_CODES } from '../xml/tokenizer.js';
import { XML_READER_CODES } from '../read/xml-reader.js';
import { TEXT_READER_CODES } from '../read/text.js';
import { STRUCTURE_CODES } from './structure.js';
import { PROTOCOL_CODES } from './protocol.js';
import { HREFLANG_RULES } from './hreflang.js';
import type { RuleInfo } from './types.js';

/** Codes reported outside the readers' tables: sniffing, decoding and decompression. */
const INPUT_CODES: Readonly<Record<string, Severity>> = {
  'encoding/declared-not-utf8': 'warning',
  'encoding/bom-conflict': 'warning',
  'encoding/declaration-mismatch': 'warning',
  'encoding/unsupported': 'error',
  'encoding/invalid-bytes': 'error',
  'format/empty': 'error',
  'budget/decompressed-size': 'error',
  'budget/compressed-size': 'error',
  'budget/gzip-depth': 'error',
  'gzip/corrupt': 'error',
  'index/nested': 'warning',
  'index/child-missing': 'error',
  // An RSS or Atom feed in validate: engines take it as a sitemap, but no sitemap schema covers it.
  'feed/no-schema': 'error',
  'text/xml-name': 'error',
  // An input validate could not read or fetch at all (a missing file, a refused URL): exit 2.
  'input/unreadable': 'error',
  // The last entry of a list capped per code (core/diagnostics.ts, DiagnosticCollector).
  'diagnostics/truncated': 'info',
};

/** Titles and Search Console messages; a code missing here gets its code as title. */
const DESCRIPTIONS: Readonly<Record<string, readonly [title: string, searchConsole?: string]>> = {
  'xml/raw-ampersand': ['a raw & in text: values must be entity-escaped', 'Parsing error'],
  'xml/raw-less-than': ['a raw < in text: values must be entity-escaped', 'Parsing error'],
  'xml/undefined-entity': ['an entity XML does not define (such as &eacute;)', 'Parsing error'],
  'xml/invalid-char': ['a character XML 1.0 forbids (a NUL, a control character, U+FFFF)', 'Parsing error'],
  'xml/mismatched-tag': ['an end tag that does not match', 'Parsing error'],
  'xml/unclosed-element': ['elements left open at the end', 'Parsing error'],
  'xml/truncated': ['the file ends in the middle', 'Parsing error'],
  'xml/malformed-tag': ['broken markup', 'Parsing error'],
  'xml/doctype': ['a DOCTYPE (ignored, never processed)'],
  'encoding/declared-not-utf8': ['the file is not UTF-8', 'Unsupported file format'],
  'encoding/invalid-bytes': ['bytes that are not valid in the encoding', 'Unsupported file format'],
  'format/html': ['the sitemap is an HTML page', 'Sitemap is HTML'],
  'format/unknown-root': ['an unknown root element', 'Unsupported file format'],
  'format/empty': ['an empty file', 'Sitemap is empty'],
  'gzip/corrupt': ['a corrupt or truncated gzip file', 'Compression error'],
  'budget/decompressed-size': ['more bytes after decompression than allowed (gzip bomb guard)', 'Sitemap file size error'],
  'namespace/wrong': ['the wrong namespace', 'Incorrect namespace'],
  'namespace/missing': ['no namespace', 'Missing XML namespace'],
  'namespace/legacy': ["Google's old sitemap namespace", 'Incorrect namespace'],
  'urlset/empty': ['a urlset without URLs', 'Sitemap is empty'],
  'sitemapindex/empty': ['an index without sitemaps', 'Sitemap is empty'],
  'loc/missing': ['an entry without <loc>', 'Missing XML tag'],
  'loc/not-absolute': ['a URL without scheme and host', 'Invalid URL'],
  'loc/untrusted': ['a URL that cannot be read reliably (damaged markup around it)', 'Invalid URL'],
  'loc/not-encoded': ['a URL with spaces or characters that must be percent-encoded', 'Invalid URL'],
  'loc/too-long': ['a URL of 2,048 characters or more', 'URL too long'],
  'loc/out-of-scope': ["a URL outside the sitemap's location (scheme, host, port, directory)", 'URL not allowed'],
  'loc/duplicate': ['a URL listed twice'],
  'lastmod/invalid': ['a lastmod that is not a W3C Datetime', 'Invalid date'],
  'lastmod/lenient': ['a lastmod in an ISO 8601 form that is not W3C Datetime', 'Invalid date'],
  'lastmod/not-xsd': ['a W3C Datetime form sitemap.xsd rejects (year, month, no seconds)', 'Invalid date'],
  'lastmod/future': ['a lastmod in the future', 'Invalid date'],
  'changefreq/invalid': ['a changefreq outside the seven values', 'Invalid tag value'],
  'changefreq/case': ['a changefreq in the wrong case', 'Invalid tag value'],
  'priority/invalid': ['a priority that is not a number', 'Invalid tag value'],
  'priority/out-of-range': ['a priority outside 0.0–1.0', 'Invalid tag value'],
  'value/whitespace': ['whitespace around a value'],
  'element/unexpected': ['an element the reader does not expect there', 'Invalid XML tag'],
  'element/duplicate': ['a field given twice', 'Invalid XML tag'],
  'element/stray-text': ['text where only elements belong', 'Invalid XML tag'],
  'xsd/unexpected-element': ['an element the schema does not allow there (or out of order)', 'Invalid XML tag'],
  'xsd/missing-element': ['a required element is missing', 'Missing XML tag'],
  'xsd/unknown-namespace': ['an element of a namespace no sitemap schema declares'],
  'xsd/unexpected-attribute': ['an attribute the schema does not allow', 'Invalid attribute value'],
  'xsd/missing-attribute': ['a required attribute is missing', 'Missing XML attribute'],
  'xsd/invalid-attribute': ['an attribute value of the wrong form', 'Invalid attribute value'],
  'xsd/invalid-value': ['a value of the wrong form for the schema', 'Invalid tag value'],
  'xsd/text-not-allowed': ['text inside an element that holds elements only', 'Invalid XML tag'],
  'xsd/root': ['a root element neither schema declares', 'Unsupported file format'],
  'limits/too-many-urls': ['more than 50,000 URLs in one sitemap', 'Too many URLs'],
  'limits/file-too-large': ['more than 50 MB (10 MB legacy) uncompressed', 'Sitemap file size error'],
  'limits/too-many-sitemaps': ['more than 50,000 (1,000 legacy) sitemaps in one index', 'Too many Sitemaps'],
  'index/nested': ['an index that lists another index', 'Nested indexes'],
  'text/xml-name': ['a text sitemap named .xml', 'Unsupported file format'],
  'feed/no-schema': ['an RSS or Atom feed: accepted by engines, but no sitemap schema can vouch for it'],
  'index/child-missing': ['with --follow, a child sitemap the index lists that is not on disk', "Couldn't fetch"],
  'image/too-many': ['more than 1,000 images in one <url>', 'Too many images'],
  'news/too-many': ['more than 1,000 news entries in one sitemap', 'Too many news URLs'],
  'video/invalid': ['a video entry with a missing or wrong field', 'Invalid video'],
  'news/invalid': ['a news entry with a missing or wrong field', 'Invalid news'],
  'text/not-a-url': ['a line of a text sitemap that is not a URL', 'Invalid URL'],
  'diagnostics/truncated': ['more diagnostics of one code than a report lists (1,000 by default); the counts include them'],
};

function build(): ReadonlyMap<string, RuleInfo> {
  const severities: Record<string, Severity> = {
    ...XML_TOKENIZER_CODES,
    ...INPUT_CODES,
    ...XML_READER_CODES,
    ...TEXT_READER_CODES,
    ...STRUCTURE_CODES,
    ...PROTOCOL_CODES,
    ...Object.fromEntries(Object.entries(HREFLANG_RULES).map(([code, r]) => [code, r.severity])),
    // What makes the XML unreadable for libxml2 is an error in validation (validator.ts), though the
    // reader reads on after a misplaced or malformed declaration.
    'xml/declaration-not-at-start': 'error',
    'xml/bad-declaration': 'error',
  };
  const hreflangTitles: Record<string, string> = Object.fromEntries(Object.entries(HREFLANG_RULES).map(([code, r]) => [code, r.title]));
  const rules = new Map<string, RuleInfo>();
  for (const code of Object.keys(severities).sort()) {
    const [title, searchConsole] = DESCRIPTIONS[code] ?? [hreflangTitles[code] ?? code];
    rules.set(code, searchConsole === undefined ? { code, severity: severities[code] as Severity, title } : { code, severity: severities[code] as Severity, title, searchConsole });
  }
  return rules;
}

/** Every rule, by code. */
export const VALIDATION_RULES: ReadonlyMap<string, RuleInfo> = build();

export function ruleInfo(code: string): RuleInfo | undefined {
  return VALIDATION_RULES.get(code);
}
