// Every rule validate can report (types.ts RuleInfo). Those of protocol.ts, hreflang.ts and
// structure.ts are declared with their checks; those of the input and the whole document are below,
// and the tokenizer's and readers' codes get their titles here. test/core/validate/rules.test.ts keeps
// docs/rules.md equal to them.

import type { Severity } from '../diagnostics.js';
import { XML_TOKENIZER_CODES } from '../xml/tokenizer.js';
import { XML_READER_CODES } from '../read/xml-reader.js';
import { TEXT_READER_CODES } from '../read/text.js';
import { STRUCTURE_RULES } from './structure.js';
import { PROTOCOL_RULES } from './protocol.js';
import { HREFLANG_RULES } from './hreflang.js';
import type { RuleInfo } from './types.js';

/** Exit 0 means `xmllint --schema` accepts the file, which no feed passes; `--rule feed/no-schema=warning` relents. */
export const FEED_NO_SCHEMA: RuleInfo = { code: 'feed/no-schema', severity: 'error', title: 'an RSS or Atom feed: accepted by engines, but no sitemap schema can vouch for it' };

/** Google takes a text sitemap only as a `.txt` file. */
export const TEXT_XML_NAME: RuleInfo = { code: 'text/xml-name', severity: 'error', title: 'a text sitemap named .xml', searchConsole: 'Unsupported file format' };

const DOCUMENT_RULES: readonly RuleInfo[] = [FEED_NO_SCHEMA, TEXT_XML_NAME];

/** Sniffing, decoding and decompression, and validate's own findings about its inputs. */
const INPUT_RULES: readonly RuleInfo[] = [
  { code: 'encoding/declared-not-utf8', severity: 'warning', title: 'the file is not UTF-8', searchConsole: 'Unsupported file format' },
  { code: 'encoding/bom-conflict', severity: 'warning', title: 'a byte-order mark that contradicts the declared encoding' },
  { code: 'encoding/declaration-mismatch', severity: 'warning', title: 'an encoding declaration the bytes contradict' },
  { code: 'encoding/unsupported', severity: 'error', title: 'an encoding no reader knows' },
  { code: 'encoding/refused', severity: 'error', title: 'UTF-16 without a byte order mark or declaration, or an encoding declaration the bytes rule out' },
  { code: 'encoding/invalid-bytes', severity: 'error', title: 'bytes that are not valid in the encoding', searchConsole: 'Unsupported file format' },
  { code: 'format/empty', severity: 'error', title: 'an empty file', searchConsole: 'Sitemap is empty' },
  { code: 'format/compressed', severity: 'error', title: 'a zip, bzip2, xz, zstd or zlib file: only gzip is a sitemap compression', searchConsole: 'Unsupported file format' },
  { code: 'budget/decompressed-size', severity: 'error', title: 'more bytes after decompression than allowed (gzip bomb guard)', searchConsole: 'Sitemap file size error' },
  { code: 'budget/compressed-size', severity: 'error', title: 'more compressed bytes than allowed' },
  { code: 'budget/gzip-depth', severity: 'error', title: 'gzip inside gzip, deeper than allowed' },
  { code: 'gzip/corrupt', severity: 'error', title: 'a corrupt or truncated gzip file', searchConsole: 'Compression error' },
  { code: 'gzip/trailing-garbage', severity: 'warning', title: 'bytes after the gzip data that are not another gzip member (ignored)' },
  { code: 'index/child-missing', severity: 'error', title: 'with --follow, a child sitemap the index lists that is not on disk', searchConsole: "Couldn't fetch" },
  // Exit 2.
  { code: 'input/unreadable', severity: 'error', title: 'an input that could not be read or fetched at all', searchConsole: "Couldn't fetch" },
  { code: 'diagnostics/truncated', severity: 'info', title: 'more diagnostics of one code than a report lists (1,000 by default); the counts include them' },
];

/** Titles and Search Console messages of the tokenizer's and readers' codes (else the code is the title). */
const READER_DESCRIPTIONS: Readonly<Record<string, readonly [title: string, searchConsole?: string]>> = {
  'xml/raw-ampersand': ['a raw & in text: values must be entity-escaped', 'Parsing error'],
  'xml/raw-less-than': ['a raw < in text: values must be entity-escaped', 'Parsing error'],
  'xml/undefined-entity': ['an entity XML does not define (such as &eacute;)', 'Parsing error'],
  'xml/invalid-char': ['a character XML 1.0 forbids (a NUL, a control character, U+FFFF)', 'Parsing error'],
  'xml/mismatched-tag': ['an end tag that does not match', 'Parsing error'],
  'xml/unclosed-element': ['elements left open at the end', 'Parsing error'],
  'xml/truncated': ['the file ends in the middle', 'Parsing error'],
  'xml/malformed-tag': ['broken markup', 'Parsing error'],
  'xml/doctype': ['a DOCTYPE (ignored, never processed)'],
  'xml/version': ['an XML version other than 1.0 declared'],
  'format/html': ['the sitemap is an HTML page', 'Sitemap is HTML'],
  'format/unknown-root': ['an unknown root element', 'Unsupported file format'],
  'namespace/wrong': ['the wrong namespace', 'Incorrect namespace'],
  'namespace/missing': ['no namespace', 'Missing XML namespace'],
  'namespace/legacy': ["Google's old sitemap namespace", 'Incorrect namespace'],
  'urlset/empty': ['a urlset without URLs', 'Sitemap is empty'],
  'sitemapindex/empty': ['an index without sitemaps', 'Sitemap is empty'],
  'loc/missing': ['an entry without <loc>', 'Missing XML tag'],
  'loc/not-absolute': ['a URL without scheme and host', 'Invalid URL'],
  'loc/invalid': ['a URL nothing can fetch (WHATWG URL refuses its port or host)', 'Invalid URL'],
  'loc/untrusted': ['a URL that cannot be read reliably (damaged markup around it)', 'Invalid URL'],
  'lastmod/invalid': ['a lastmod that is not a W3C Datetime', 'Invalid date'],
  'lastmod/lenient': ['a lastmod in an ISO 8601 form that is not W3C Datetime', 'Invalid date'],
  'changefreq/invalid': ['a changefreq outside the seven values', 'Invalid tag value'],
  'changefreq/case': ['a changefreq in the wrong case', 'Invalid tag value'],
  'priority/invalid': ['a priority that is not a number', 'Invalid tag value'],
  'priority/out-of-range': ['a priority outside 0.0–1.0', 'Invalid tag value'],
  'element/unexpected': ['an element the reader does not expect there', 'Invalid XML tag'],
  'element/duplicate': ['a field given twice', 'Invalid XML tag'],
  'element/stray-text': ['text where only elements belong', 'Invalid XML tag'],
  'video/invalid': ['a video entry with a missing or wrong field', 'Invalid video'],
  'news/invalid': ['a news entry with a missing or wrong field', 'Invalid news'],
  'text/not-a-url': ['a line of a text sitemap that is not a URL', 'Invalid URL'],
};

function build(): ReadonlyMap<string, RuleInfo> {
  const readers: Record<string, Severity> = {
    ...XML_TOKENIZER_CODES,
    ...XML_READER_CODES,
    ...TEXT_READER_CODES,
    // Unreadable for libxml2, so errors here, though the reader reads on.
    'xml/declaration-not-at-start': 'error',
    'xml/bad-declaration': 'error',
  };
  const rules: RuleInfo[] = Object.entries(readers).map(([code, severity]) => {
    const [title, searchConsole] = READER_DESCRIPTIONS[code] ?? [code];
    return { code, severity, title, searchConsole };
  });
  rules.push(...INPUT_RULES, ...DOCUMENT_RULES, ...STRUCTURE_RULES, ...PROTOCOL_RULES, ...Object.entries(HREFLANG_RULES).map(([code, r]) => ({ code, ...r })));
  // Only what the documentation says (an entry rule's check stays with it).
  const info = ({ code, severity, title, searchConsole }: RuleInfo): RuleInfo => (searchConsole === undefined ? { code, severity, title } : { code, severity, title, searchConsole });
  return new Map(rules.sort((a, b) => (a.code < b.code ? -1 : 1)).map((r) => [r.code, info(r)]));
}

/** Every rule, by code. */
export const VALIDATION_RULES: ReadonlyMap<string, RuleInfo> = build();

export function ruleInfo(code: string): RuleInfo | undefined {
  return VALIDATION_RULES.get(code);
}
