// Sniffing by content, never by Content-Type or file name (DESIGN.md "Sniff, don't trust"): gzip by
// its magic bytes, the encoding by BOM, byte pattern and XML declaration, the format by the first
// characters and then by the root element and its namespace. Encoding names are the WHATWG Encoding
// Standard's, where `iso-8859-1` and `latin1` are labels of windows-1252, as in browsers; a declared
// ASCII label is `us-ascii`, which takes ASCII bytes only (libxml2 refuses the file at any other).

import { isAsciiWhitespace } from '../ascii-whitespace.js';
import { diagnosticAt, type Diagnostic, type Severity } from '../diagnostics.js';
import { NS } from '../model.js';
import { LineCounter } from '../xml/lines.js';

/** How many bytes `sniffEncoding` looks at (BOM, byte pattern, XML declaration). */
export const ENCODING_SNIFF_BYTES = 1024;
/** How many characters after leading whitespace `sniffFormat` looks at. */
export const FORMAT_SNIFF_CHARS = 1024;

/** The sitemaps.org 0.9 namespace, the only one the protocol defines. */
export const SITEMAP_NS: string = NS.sitemap;
/** Google's namespaces from before sitemaps.org (2005–2006); still found in the wild and still read. */
export const LEGACY_SITEMAP_NS: readonly string[] = ['http://www.google.com/schemas/sitemap/0.84', 'http://www.google.com/schemas/sitemap/0.9'];
const ATOM_NS = 'http://www.w3.org/2005/Atom';
const ATOM03_NS = 'http://purl.org/atom/ns#';

/** True when the bytes start with the gzip magic number 1f 8b (RFC 1952). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Compressions the protocol does not take (only gzip, sitemaps.org), by their magic bytes as Latin-1. */
const OTHER_COMPRESSIONS: readonly (readonly [name: string, magic: RegExp])[] = [
  ['zip', /^PK(?:\x03\x04|\x05\x06|\x07\x08)/],
  ['bzip2', /^BZh[1-9](?:1AY&SY|\x17rE8P\x90)/],
  ['xz', /^\xfd7zXZ\x00/],
  ['zstd', /^\x28\xb5\x2f\xfd/],
  // RFC 1950 (PHP's gzcompress() where gzencode() was meant): deflate, window 32K, at levels 1, 6 or 9.
  ['zlib', /^x[\x01\x9c\xda]/],
];

type EncodingSource = 'bom' | 'pattern' | 'declaration' | 'default';

export interface EncodingSniff {
  /** The WHATWG name of the encoding to decode with (never `iso-8859-1`: that label decodes as `windows-1252`), or `us-ascii`. */
  encoding: string;
  /** Bytes of byte order mark to skip before decoding (0, 2 or 3). */
  bomLength: number;
  /** What decided: a BOM, the UTF-16 byte pattern of two characters below U+0100 (`<?` in XML 1.0 appendix F), the declaration, or nothing (UTF-8). */
  source: EncodingSource;
  /** The `encoding` pseudo-attribute of the XML declaration as written, when there is one. */
  declared?: string;
  /** `encoding/*`, `xml/declaration-not-at-start`; offsets in UTF-16 code units of the decoded text, BOM excluded. */
  diagnostics: Diagnostic[];
}

/** Labels seen in the wild that are not WHATWG labels, mapped to one that is. */
const EXTRA_LABELS: Readonly<Record<string, string>> = {
  'latin-1': 'windows-1252',
  'iso-latin-1': 'windows-1252',
  iso8859_1: 'windows-1252',
  iso_8859_1: 'windows-1252',
  'iso-8859_1': 'windows-1252',
  'cp-1252': 'windows-1252',
  'win-1252': 'windows-1252',
  windows1252: 'windows-1252',
  utf_8: 'utf-8',
  'utf-8n': 'utf-8',
  utf_16: 'utf-16le',
  utf16: 'utf-16le',
};

/** Of those, the ones libxml2 calls "Unsupported encoding" (iconv has no such name): unknown in an XML declaration. */
const NOT_XML_LABELS = new Set(['utf-8n', 'win-1252']);

const canonicalCache = new Map<string, string | null>();

/**
 * The WHATWG encoding name for a label (case and surrounding whitespace ignored), or undefined when
 * this runtime's TextDecoder cannot decode it (unknown, "replacement", UTF-32, a Node without full ICU)
 * or, for an XML declaration (`xml`), when libxml2 cannot either.
 */
export function resolveEncodingLabel(label: string, xml = false): string | undefined {
  const key = label.trim().toLowerCase();
  if (xml && NOT_XML_LABELS.has(key)) return undefined;
  let name = canonicalCache.get(key);
  if (name === undefined) {
    name = null;
    try {
      // `encoding` is standard but not in the minimal declaration of src/core/globals.d.ts.
      name = (new TextDecoder(EXTRA_LABELS[key] ?? key) as unknown as { readonly encoding: string }).encoding;
    } catch {
      // RangeError: unknown label or unsupported encoding.
    }
    if (canonicalCache.size < 256) canonicalCache.set(key, name);
  }
  return name ?? undefined;
}

/** Labels that name UTF-16 without saying which byte order: fine with either BOM. */
const UTF16_ANY_ORDER = new Set(['utf-16', 'utf16', 'utf_16', 'ucs-2', 'unicode', 'iso-10646-ucs-2', 'csunicode']);
/** Labels of the WHATWG windows-1252 encoding that only promise ASCII, which UTF-8 is a superset of. */
const ASCII_LABELS = new Set(['us-ascii', 'ascii', 'ansi_x3.4-1968', 'iso-ir-6', 'iso646-us', 'us']);

export function isUtf16(encoding: string): boolean {
  return encoding === 'utf-16le' || encoding === 'utf-16be';
}

/** Does a declared label agree with what the BOM or the byte pattern says? */
function declarationAgrees(detected: string, label: string, resolved: string | undefined): boolean {
  const key = label.trim().toLowerCase();
  if (resolved === detected) return true;
  if (isUtf16(detected)) return UTF16_ANY_ORDER.has(key);
  if (detected === 'utf-8') return ASCII_LABELS.has(key);
  return false;
}

/** An encoding's name for messages: the Unicode ones (utf-8, utf-16le, utf-16be) in upper case. */
export function encodingName(encoding: string): string {
  return encoding.startsWith('utf-') ? encoding.toUpperCase() : encoding;
}

type Unicode = 'utf-8' | 'utf-16le' | 'utf-16be';

/** The head after the BOM as characters (bytes, or UTF-16 code units): ASCII as is, the rest U+FFFF (matches nothing). */
function asciiView(bytes: Uint8Array, start: number, encoding: Unicode): string {
  const end = Math.min(bytes.length, start + ENCODING_SNIFF_BYTES);
  const width = encoding === 'utf-8' ? 1 : 2;
  let text = '';
  for (let i = start; i + width <= end; i += width) {
    const [b, next] = [bytes[i] as number, bytes[i + 1] as number];
    const unit = width === 1 ? b : encoding === 'utf-16le' ? b | (next << 8) : (b << 8) | next;
    text += unit < 0x80 ? String.fromCharCode(unit) : '\uffff';
  }
  return text;
}

const XML_SPACE = /^[\x20\x09\x0d\x0a]*/;
const XML_DECL = /^<\?xml(?:[\x20\x09\x0d\x0a][^<>]*?)?\?>/;
const ENCODING_ATTR = /[\x20\x09\x0d\x0a]encoding[\x20\x09\x0d\x0a]*=[\x20\x09\x0d\x0a]*(?:"([^"]*)"|'([^']*)')/;

type Where = { line: number; column: number; offset: number };

function diag(code: string, severity: Severity, message: string, where: Where, hint?: string): Diagnostic {
  return diagnosticAt(code, severity, message, where.line, where.column, where.offset, hint);
}

const START: Where = { line: 1, column: 1, offset: 0 };
const SAVE_AS_UTF8 = 'save the file as UTF-8 and declare encoding="UTF-8"';
const UTF8_HINT = `${SAVE_AS_UTF8} (the Sitemap protocol requires UTF-8)`;

/** A file no encoding can read, by its first bytes: another compression than gzip, or UTF-32 by its BOM. */
function unreadable(head: Uint8Array): EncodingSniff | undefined {
  const magic = String.fromCharCode(...head.subarray(0, 10));
  const compression = OTHER_COMPRESSIONS.find(([, re]) => re.test(magic))?.[0];
  let d: Diagnostic | undefined;
  if (compression !== undefined) {
    // Not text at all: one diagnostic, which stops reading (document.ts), rather than a flood of invalid bytes.
    d = diag('format/compressed', 'error', `the file is ${compression}-compressed: only gzip is supported, as the Sitemap protocol says; nothing was read`, START, 'decompress it, or compress it with gzip (sitemap.xml.gz)');
  } else if (/^(?:\0\0\xfe\xff|\xff\xfe\0\0)/.test(magic)) {
    // A UTF-32 BOM (FF FE 00 00 could also be UTF-16LE followed by U+0000, which XML forbids anyway).
    d = diag('encoding/unsupported', 'error', 'the document is UTF-32 (by its byte order mark), which is not supported; reading it as UTF-8', START, UTF8_HINT);
  }
  return d && { encoding: 'utf-8', bomLength: 0, source: 'default', diagnostics: [d] };
}

/** What the first bytes say without the declaration: a BOM, else the UTF-16 pattern, else nothing. */
function byteMarks(head: Uint8Array): { detected?: Unicode; bomLength: number; source: EncodingSource } {
  const [b0, b1, b2, b3] = head;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { detected: 'utf-8', bomLength: 3, source: 'bom' };
  if (b0 === 0xff && b1 === 0xfe) return { detected: 'utf-16le', bomLength: 2, source: 'bom' };
  if (b0 === 0xfe && b1 === 0xff) return { detected: 'utf-16be', bomLength: 2, source: 'bom' };
  // Two characters U+0001–U+00FF as UTF-16 (not one stray NUL, not UTF-32): `<\0?\0`, `h\0t\0` (a text sitemap),
  // `\xdc\0b\0` (a CSV header)... (LE), `\0<\0?`... (BE).
  if (b0 && b1 === 0x00 && b2 && b3 === 0x00) return { detected: 'utf-16le', bomLength: 0, source: 'pattern' };
  if (b0 === 0x00 && b1 && b2 === 0x00 && b3) return { detected: 'utf-16be', bomLength: 0, source: 'pattern' };
  return { bomLength: 0, source: 'default' };
}

/** The XML declaration's `encoding` as written and where it starts, read in the byte layout the BOM or pattern implies; is the first non-space `<`? */
function readDeclaration(head: Uint8Array, bomLength: number, detected: Unicode | undefined, diagnostics: Diagnostic[]): { declared?: string; at?: Where; markup: boolean } {
  const view = asciiView(head, bomLength, detected ?? 'utf-8');
  const leading = (XML_SPACE.exec(view) as RegExpExecArray)[0].length;
  const decl = XML_DECL.exec(view.slice(leading));
  const markup = view.charCodeAt(leading) === 0x3c /* < */;
  if (decl === null) return { markup };
  const counter = new LineCounter();
  counter.advance(view, 0, leading);
  const at = { line: counter.line, column: counter.column, offset: leading };
  if (leading > 0) {
    const what = bomLength > 0 ? 'a byte order mark and whitespace' : 'whitespace';
    diagnostics.push(
      diag('xml/declaration-not-at-start', 'warning', `${what} before the XML declaration (it must be the very first thing in the file); accepted`, at, 'remove everything before "<?xml"'),
    );
  }
  const attr = ENCODING_ATTR.exec(decl[0]);
  return { declared: attr === null ? undefined : (attr[1] ?? attr[2] ?? ''), at, markup };
}

function notUtf8(diagnostics: Diagnostic[], encoding: string, how: string, at: Where): void {
  diagnostics.push(diag('encoding/declared-not-utf8', 'warning', `the sitemap is encoded as ${encodingName(encoding)} (${how}); the Sitemap protocol requires UTF-8`, at, SAVE_AS_UTF8));
}

/** A BOM or the UTF-16 pattern decides; the declaration (`declared`, at `at`) can only agree or be overruled. */
function checkAgainstByteMarks(detected: Unicode, source: EncodingSource, { declared, at, markup }: ReturnType<typeof readDeclaration>, diagnostics: Diagnostic[]): void {
  if (declared !== undefined) {
    const resolved = resolveEncodingLabel(declared, true);
    if (!declarationAgrees(detected, declared, resolved)) {
      const by = source === 'bom' ? 'byte order mark' : 'byte pattern';
      // libxml2 overlooks only a single-byte label over UTF-8 and a UTF-8 label over UTF-16; else it is fatal (XML 1.0 §4.3.3).
      const refused = resolved === undefined || (detected === 'utf-8' ? isUtf16(resolved) : resolved !== 'utf-8');
      const code = refused ? 'encoding/refused' : source === 'bom' ? 'encoding/bom-conflict' : 'encoding/declaration-mismatch';
      diagnostics.push(
        diag(code, refused ? 'error' : 'warning', `the XML declaration says encoding="${declared}" but the ${by} says ${encodingName(detected)}; ${refused ? 'XML parsers refuse the file; ' : ''}reading it as ${encodingName(detected)}`, at ?? START, `declare encoding="${encodingName(detected)}" or, better, save the file as UTF-8`),
      );
    }
  } else if (at === undefined && source === 'pattern' && markup) {
    // Without a BOM, XML in UTF-16 is recognisable only by its "<?xml" (XML 1.0 appendix F): parsers read this as UTF-8.
    diagnostics.push(diag('encoding/refused', 'error', `UTF-16 without a byte order mark or an XML declaration, which XML parsers refuse; reading it as ${encodingName(detected)}`, START, UTF8_HINT));
  }
  if (detected !== 'utf-8') notUtf8(diagnostics, detected, source === 'bom' ? 'by its byte order mark' : 'by its byte pattern, without a byte order mark', START);
}

/** Without a BOM or the pattern, the declared label decides the encoding of `sniff` (UTF-8 when it cannot). */
function useDeclaration(sniff: EncodingSniff, declared: string, at: Where): void {
  const resolved = ASCII_LABELS.has(declared.trim().toLowerCase()) ? 'us-ascii' : resolveEncodingLabel(declared, true);
  if (resolved === undefined) {
    sniff.diagnostics.push(diag('encoding/unsupported', 'error', `unknown or unsupported encoding "${declared}" in the XML declaration; reading it as UTF-8`, at, UTF8_HINT));
  } else if (isUtf16(resolved)) {
    // The declaration was readable as single bytes, so the document is not UTF-16: a fatal error (XML 1.0 4.3.3).
    sniff.diagnostics.push(
      diag('encoding/refused', 'error', `the XML declaration says encoding="${declared}" but the bytes are not UTF-16 (no byte order mark, one byte per character); XML parsers refuse the file; reading it as UTF-8`, at, 'declare encoding="UTF-8"'),
    );
  } else {
    if (resolved !== 'utf-8') notUtf8(sniff.diagnostics, resolved, 'declared', at);
    sniff.encoding = resolved;
    sniff.source = 'declaration';
  }
}

/**
 * The encoding of a document by its first `ENCODING_SNIFF_BYTES` bytes (or all there are). In the order
 * of XML 1.0 appendix F: a BOM; UTF-16 by the byte pattern of two characters below U+0100 (`<?`, a URL); the XML declaration's
 * `encoding` (also after whitespace, with a warning); else UTF-8, also for an unknown label (an error).
 */
export function sniffEncoding(head: Uint8Array): EncodingSniff {
  const refused = unreadable(head);
  if (refused !== undefined) return refused;
  const { detected, bomLength, source } = byteMarks(head);
  const diagnostics: Diagnostic[] = [];
  const decl = readDeclaration(head, bomLength, detected, diagnostics);
  const sniff: EncodingSniff = { encoding: detected ?? 'utf-8', bomLength, source, diagnostics };
  if (decl.declared !== undefined) sniff.declared = decl.declared;
  if (detected !== undefined) checkAgainstByteMarks(detected, source, decl, diagnostics);
  else if (decl.declared !== undefined) useDeclaration(sniff, decl.declared, decl.at ?? START);
  return sniff;
}

export type SniffedFormat = 'xml' | 'html' | 'text' | 'empty';

function skipLeading(text: string): number {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (isAsciiWhitespace(text.charCodeAt(i))) i++;
  return i;
}

const HTML_START = /^<(?:html|head|body)(?=[\s>/]|$)/i;
const HTML_DOCTYPE = /^<!doctype\s+html(?=[\s>]|$)/i;
const DOCTYPE = /^<!doctype(?=[\s>]|$)/i;
const NAME_START = /^<[A-Za-z_:\u00c0-\uffff]/;
const XML_INSIDE = /<\?xml[\s?]|<(?:[A-Za-z_][\w.-]*:)?(?:urlset|sitemapindex)[\s>/]/;

/**
 * The format of a document by its first `FORMAT_SNIFF_CHARS` characters after leading whitespace (or all):
 * `empty` (only whitespace); `html` (`<!DOCTYPE html`, `<html`, `<head`, `<body`, also after
 * declarations, PIs and comments); `xml` (`<?xml`, a comment, another DOCTYPE, `<` and a name, or text
 * with an XML declaration or a `urlset` / `sitemapindex` tag further on: a template's front matter, a
 * stray line); else `text`, one URL per line.
 */
export function sniffFormat(text: string): SniffedFormat {
  const start = skipLeading(text);
  if (start >= text.length) return 'empty';
  const w = text.slice(start, start + FORMAT_SNIFF_CHARS);
  if (w.charCodeAt(0) !== 0x3c /* < */) return XML_INSIDE.test(w) ? 'xml' : 'text';
  let i = 0;
  for (;;) {
    const rest = w.slice(i);
    if (rest.length === 0) return 'xml';
    if (rest.startsWith('<?')) {
      const end = rest.indexOf('?>');
      if (end < 0) return 'xml';
      i += end + 2;
    } else if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->', 4);
      if (end < 0) return 'xml';
      i += end + 3;
    } else if (HTML_DOCTYPE.test(rest) || HTML_START.test(rest)) {
      return 'html';
    } else if (DOCTYPE.test(rest) || NAME_START.test(rest)) {
      return 'xml';
    } else if (rest.charCodeAt(0) === 0x3c) {
      return 'xml'; // `<` and something odd: let the tokenizer say what is wrong.
    } else {
      return i === 0 ? 'text' : 'xml';
    }
    while (i < w.length && /\s/.test(w.charAt(i))) i++;
  }
}

type RootFormat = 'urlset' | 'sitemapindex' | 'rss' | 'atom' | 'atom03' | 'html' | 'unknown';

/**
 * The format a root element decides: `urlset` and `sitemapindex` in any namespace (sitemapNamespaceProblem
 * checks it), `rss`, `feed` in an Atom 1.0 or 0.3 namespace, `html` in any case or namespace (XHTML).
 */
export function formatOfRoot(uri: string, local: string): RootFormat {
  if (local === 'urlset' || local === 'sitemapindex' || local === 'rss') return local;
  if (local === 'feed') return uri === ATOM_NS ? 'atom' : uri === ATOM03_NS ? 'atom03' : 'unknown';
  return local.toLowerCase() === 'html' ? 'html' : 'unknown';
}

interface NamespaceProblem {
  code: 'namespace/legacy' | 'namespace/missing' | 'namespace/wrong';
  severity: Severity;
  message: string;
  hint: string;
}

/** Scheme, `www.`, case, surrounding whitespace and trailing slashes removed; `sitemap.org` → `sitemaps.org`. */
function looseNamespace(uri: string): string {
  return uri
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/*/, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '')
    .replace(/^sitemap\.org\//, 'sitemaps.org/');
}

/**
 * What is wrong with the namespace of a `urlset` / `sitemapindex` root (a diagnostic without its
 * position), or undefined when it is exactly SITEMAP_NS: `namespace/legacy` (warning) for Google's
 * older ones, `namespace/missing` (warning), else `namespace/wrong` (error), which says what a near miss
 * (https, a trailing slash, no `www.`, `sitemap.org`, upper case) gets wrong.
 */
export function sitemapNamespaceProblem(uri: string, local = 'urlset'): NamespaceProblem | undefined {
  if (uri === SITEMAP_NS) return undefined;
  const right = `xmlns="${SITEMAP_NS}"`;
  if (LEGACY_SITEMAP_NS.includes(uri)) {
    const message = `<${local}> uses Google's legacy namespace "${uri}"; the sitemaps.org namespace is "${SITEMAP_NS}"`;
    return { code: 'namespace/legacy', severity: 'warning', message, hint: `use ${right}` };
  }
  if (uri === '') {
    const message = `<${local}> has no namespace; it must be in "${SITEMAP_NS}"`;
    return { code: 'namespace/missing', severity: 'warning', message, hint: `add ${right} to <${local}>` };
  }
  const loose = looseNamespace(uri);
  let why = '';
  if (loose === 'sitemaps.org/schemas/sitemap/0.9' || loose === 'google.com/schemas/sitemap/0.9' || loose === 'google.com/schemas/sitemap/0.84') {
    why = ' (a near miss: the namespace is compared character by character, so the scheme, "www.", the case and a trailing slash all matter)';
  } else if (loose === 'sitemaps.org/schemas/sitemap/0.84') {
    why = ' (0.84 only ever existed under google.com)';
  }
  const message = `<${local}> is in the namespace "${uri}", which is not the sitemap namespace "${SITEMAP_NS}"${why}`;
  return { code: 'namespace/wrong', severity: 'error', message, hint: `use exactly ${right}` };
}
