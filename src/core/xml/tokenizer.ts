// A streaming XML tokenizer for sitemaps: push-based (`write(chunk)`, `end()`), no DTD processing and
// no entity expansion, a position on every token and diagnostic: 1-based line and column, 0-based
// offset, in UTF-16 code units of the decoded text (LF, CRLF and a lone CR each end a line).
//
// The htmlparser2 model: a state machine over the current chunk that jumps with `indexOf` and slices
// lazily. Only the incomplete token is kept between chunks, capped at its budget, so a 100 MB text node
// streams in constant memory; characters whose meaning depends on what follows (a `<`, a partial
// `&ref`, a trailing CR or high surrogate, a `]` or `-`) are carried and re-read with the next chunk.
// Characters XML 1.0 forbids are reported (`xml/invalid-char`) and kept. Delivered strings may be
// slices of a chunk, which they keep alive.

import { diagnosticAt, type Diagnostic, type Severity } from '../diagnostics.js';
import { SitemapError, plural, positiveInteger, show } from '../errors.js';
import { NON_XML_CHAR_CANDIDATE, codePointName, indexOfNonXmlChar, isHighSurrogate, isLowSurrogate, isNonXmlCharAt } from './escape.js';
import { LaneOffer, type XmlLane } from './lane-offer.js';
import { LineCounter } from './lines.js';
import { isXmlSpace, xmlTrim } from './whitespace.js';
import { isDroppedDeclaration } from './namespaces.js';

export type { XmlLane } from './lane-offer.js';

/** An attribute of a start tag, entities decoded and whitespace normalised (XML 1.0 §3.3.3). */
export interface XmlAttribute {
  readonly name: string;
  readonly value: string;
  /** Where the name starts. */
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  /** The value was cut at `maxValueLength` (and `budget/value-length` reported). */
  readonly truncated?: true;
}

/** The pseudo-attributes of `<?xml ...?>`, as written. */
interface XmlDeclaration {
  version?: string;
  encoding?: string;
  standalone?: string;
}

/**
 * Receives the tokens, each at the position where it starts. The events are the same however the
 * input is split into chunks:
 * - every `startTag` gets exactly one `endTag`: its own, one right after it when self-closing, or one
 *   synthesised for recovery after a diagnostic. The `attributes` array is the handler's to keep
 *   (elements without attributes share one frozen array).
 * - `text`, whitespace between elements included, has references decoded and line ends made LF (CDATA
 *   content as is). One run may come in several calls (split at chunks, comments, PIs, CDATA, and
 *   before a diagnostic about it): concatenate until the next tag. Text outside the root or deeper
 *   than `maxDepth` is not delivered, nor the rest of a run cut at `maxValueLength`.
 */
export interface XmlTokenHandler {
  startTag(name: string, attributes: readonly XmlAttribute[], selfClosing: boolean, line: number, column: number, offset: number): void;
  endTag(name: string, line: number, column: number, offset: number): void;
  text(text: string, line: number, column: number, offset: number): void;
  /** A CDATA section starts inside an element (its content comes as text). */
  cdata?(line: number, column: number, offset: number): void;
  xmlDeclaration?(declaration: XmlDeclaration, line: number, column: number, offset: number): void;
  /** A PI other than the XML declaration (`xml-stylesheet`); `data` without its leading whitespace. */
  processingInstruction?(target: string, data: string, line: number, column: number, offset: number): void;
  /** The `<!DOCTYPE ...>` markup as written, never processed. */
  doctype?(text: string, line: number, column: number, offset: number): void;
  diagnostic(diagnostic: Diagnostic): void;
  /** Read at each `<` that starts an element, so a handler can install or drop it at any time. */
  readonly lane?: XmlLane | null;
}

export interface XmlTokenizerOptions {
  /** Deeper elements and their content are not delivered. Default 256. */
  maxDepth?: number;
  /** Of one run of text, attribute value, PI data or DOCTYPE, in UTF-16 code units. Default 10 MiB. */
  maxValueLength?: number;
  /** Of an element, attribute or PI target name. Default 1024. */
  maxNameLength?: number;
}

export const XML_TOKENIZER_CODES: Readonly<Record<string, Severity>> = Object.freeze({
  'xml/doctype': 'warning',
  'xml/declaration-not-at-start': 'warning',
  'xml/bad-declaration': 'warning',
  'xml/version': 'warning',
  'xml/misplaced-declaration': 'error',
  'xml/undefined-entity': 'error',
  'xml/invalid-char-ref': 'error',
  'xml/invalid-char': 'error',
  'xml/raw-ampersand': 'error',
  'xml/raw-less-than': 'error',
  'xml/malformed-tag': 'error',
  'xml/malformed-attribute': 'error',
  'xml/duplicate-attribute': 'error',
  'xml/mismatched-tag': 'error',
  'xml/unclosed-element': 'error',
  'xml/truncated': 'error',
  'xml/content-before-root': 'error',
  'xml/content-after-root': 'error',
  'xml/no-root-element': 'error',
  'budget/depth': 'error',
  'budget/value-length': 'error',
  'budget/name-length': 'error',
  'budget/attributes': 'error',
});

const EMPTY_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);

const DEFAULT_MAX_DEPTH = 256;
/** `nextAmp` when the buffer has no `&` left (not Infinity: see LineCounter.nextNL). */
const NO_AMP = -2;
const DEFAULT_MAX_VALUE_LENGTH = 10 * 1024 * 1024;
const DEFAULT_MAX_NAME_LENGTH = 1024;
/** Attributes kept of one start tag: a sitemap's elements have under ten, libxml2 takes any number. */
const MAX_ATTRIBUTES = 256;
/** Longest `&...;` reference considered; anything longer is a raw `&`. */
const MAX_REF = 64;
/** How much of a new chunk is read with the characters carried from the previous one. */
const HEAD = 256;

// States of the machine.
const S_TEXT = 0;
const S_TAG_NAME = 1;
const S_BEFORE_ATTR = 2;
const S_ATTR_NAME = 3;
const S_AFTER_ATTR_NAME = 4;
const S_BEFORE_VALUE = 5;
const S_VALUE_QUOTED = 6;
const S_VALUE_UNQUOTED = 7;
const S_SELF_CLOSE = 8;
const S_END_NAME = 9;
const S_AFTER_END_NAME = 10;
const S_COMMENT = 11;
const S_CDATA = 12;
const S_PI_TARGET = 13;
const S_PI_DATA = 14;
const S_DOCTYPE = 15;

// What a `<` starts.
const K_MORE = 0;
const K_RAW = 1;
const K_START = 2;
const K_END = 3;
const K_PI = 4;
const K_COMMENT = 5;
const K_CDATA = 6;
const K_DOCTYPE = 7;

// Outcomes of reading a reference at `&`.
const R_OK = 0;
const R_RAW = 1;
const R_UNDEFINED = 2;
const R_INVALID = 3;
const R_MORE = 4;

// Rolling windows of the last ASCII characters, for terminators inside a DOCTYPE.
const W_COMMENT_OPEN = (0x3c << 24) | (0x21 << 16) | (0x2d << 8) | 0x2d; // <!--
const W_COMMENT_CLOSE = (0x2d << 16) | (0x2d << 8) | 0x3e; // -->
const W_PI_OPEN = (0x3c << 8) | 0x3f; // <?
const W_PI_CLOSE = (0x3f << 8) | 0x3e; // ?>

// XML 1.0 [28] doctypedecl, its internal subset [28b] a run of [29] markupdecl, PE references and whitespace,
// each declaration in its own form ([45]-[60], [70]-[76], [82]-[83]; a children content model by its
// tokens' order here, by its groups in groupsNest). Every alternative is told by its first characters: linear.
const S = '[\\x20\\t\\r\\n]';
const NAME = '[A-Za-z_:\\u00c0-\\uffff][\\w.:\\u00b7\\u00c0-\\uffff-]*';
const NMTOKEN = '[\\w.:\\u00b7\\u00c0-\\uffff-]+';
const LITERAL = `(?:"[^"]*"|'[^']*')`;
const PUBID = `(?:"[\\x20\\r\\na-zA-Z0-9'()+,./:=?;!*#@$_%-]*"|'[\\x20\\r\\na-zA-Z0-9()+,./:=?;!*#@$_%-]*')`;
const EXTERNAL_ID = `(?:SYSTEM${S}+${LITERAL}|PUBLIC${S}+${PUBID}${S}+${LITERAL})`;
// An entity's system identifier has no fragment (XML 1.0 §4.2.2; libxml2: "Fragment not allowed").
const ENTITY_ID = EXTERNAL_ID.replaceAll('[^"]', '[^"#]').replaceAll("[^']", "[^'#]");
const REFERENCE = `&(?:${NAME}|#[0-9]+|#x[0-9A-Fa-f]+);`;
// Literals without a PE reference (forbidden in the internal subset) or a '<' (in an attribute value).
const ENTITY_VALUE = `(?:"(?:[^%&"]|${REFERENCE})*"|'(?:[^%&']|${REFERENCE})*')`;
const ATT_VALUE = `(?:"(?:[^<&"]|${REFERENCE})*"|'(?:[^<&']|${REFERENCE})*')`;
const CP = `(?:\\(${S}*)*${NAME}[?*+]?(?:${S}*\\)[?*+]?)*`;
const CONTENT_SPEC = `(?:EMPTY|ANY|\\(${S}*#PCDATA(?:(?:${S}*\\|${S}*${NAME})*${S}*\\)\\*|${S}*\\))|\\(${S}*${CP}(?:${S}*[|,]${S}*${CP})*(?<=\\)[?*+]?))`;
const ATT_TYPE = `(?:CDATA|ID|IDREF|IDREFS|ENTITY|ENTITIES|NMTOKEN|NMTOKENS|NOTATION${S}+\\(${S}*${NAME}(?:${S}*\\|${S}*${NAME})*${S}*\\)|\\(${S}*${NMTOKEN}(?:${S}*\\|${S}*${NMTOKEN})*${S}*\\))`;
const DOCTYPE_HEAD = new RegExp(`^<!DOCTYPE${S}+${NAME}(${S}+${EXTERNAL_ID})?${S}*(?:\\[|>$)`);
// Groups: a PE reference's name, an element's content model, a PE's name and value.
const SUBSET_ITEM = new RegExp(
  `${S}+|%(${NAME});` +
  `|<!ELEMENT${S}+${NAME}${S}+(${CONTENT_SPEC})${S}*>` +
  `|<!ATTLIST${S}+${NAME}(?:${S}+${NAME}${S}+${ATT_TYPE}${S}+(?:#REQUIRED|#IMPLIED|(?:#FIXED${S}+)?${ATT_VALUE}))*${S}*>` +
  `|<!ENTITY${S}+(?:%${S}+(${NAME})${S}+(?:(${ENTITY_VALUE})|${ENTITY_ID})|(${NAME})${S}+(?:(${ENTITY_VALUE})|${ENTITY_ID}(?:${S}+NDATA${S}+${NAME})?))${S}*>` +
  `|<!NOTATION${S}+${NAME}${S}+(?:${EXTERNAL_ID}|PUBLIC${S}+${PUBID})${S}*>` +
  `|<!--(?:[^-]|-[^-])*-->|<\\?(?![Xx][Mm][Ll](?:${S}|\\?>))${NAME}(?:${S}(?:[^?]|\\?(?!>))*)?\\?>`,
  'y',
);
// Text read as an attribute value: no '<', every '&' a reference; the general entities it names.
const ATT_TEXT = new RegExp(`^(?:[^<&]|${REFERENCE})*$`);
const GENERAL_REF = new RegExp(`&(${NAME});`, 'g');
/** libxml2's bound on nested entities (2.13: "Maximum entity nesting depth exceeded" past it). */
const MAX_PE_DEPTH = 20;
const MAX_GROUP_DEPTH = 256;

/**
 * A DOCTYPE of the form XML 1.0 [28], its internal subset a run of items. A PE reference names a PE
 * declared before it (first declaration wins); an internal one's replacement text (its character
 * references read, §4.5) must be such a run too (WFC: PE Between Declarations): read once, never
 * expanded into the document. `standalone`: the XML declaration says so (an undeclared PE is then refused).
 */
function isDoctypeForm(text: string, standalone: boolean): boolean {
  const head = DOCTYPE_HEAD.exec(text);
  if (head === null) return false;
  let end = text.length - 2;
  if (end < head[0].length - 1) return true; // no internal subset
  while (isXmlSpace(text.charCodeAt(end))) end--;
  const pes = new Map<string, string | null>(); // null: external
  const entities = new Map<string, string | null>(); // general ones; null: external or unparsed
  // WFC: Entity Declared binds a general entity's reference, after a PE reference or with an external subset only when
  // standalone (libxml2 2.13 too); a PE reference only when standalone in libxml2 2.13.
  let bound = standalone || head[1] === undefined;
  // An attribute value's references (WFCs of XML 1.0 §3.1, §4.1): each to an internal entity declared before it, whose
  // text read as an attribute value is one too; each entity's text read once (a loop meets the '<' it is marked with).
  const isAttValue = (s: string, depth: number): boolean => {
    if (!ATT_TEXT.test(s) || readCharRefs(s) === undefined) return false;
    for (const [, name] of s.matchAll(GENERAL_REF)) {
      if (predefined(name as string) !== undefined) continue;
      const text = entities.get(name as string);
      if (text === null || (text === undefined && bound)) return false;
      if (text === undefined || text === '') continue;
      // libxml2 2.13 takes 19 entities nested in an attribute value, where it takes 20 PEs.
      if (depth === MAX_PE_DEPTH - 1) return false;
      entities.set(name as string, '<');
      if (!isAttValue(text, depth + 1)) return false;
      entities.set(name as string, '');
    }
    return true;
  };
  const isSubset = (s: string, depth: number): boolean => {
    for (let at = 0; at < s.length; ) {
      SUBSET_ITEM.lastIndex = at;
      const m = SUBSET_ITEM.exec(s);
      if (m === null) return false;
      at = SUBSET_ITEM.lastIndex;
      const [item, ref, model, pe, value, entity, entityValue] = m;
      if (model !== undefined && !groupsNest(model)) return false;
      if ((item.startsWith('<!ENTITY') || item.startsWith('<!ATTLIST')) && readCharRefs(item) === undefined) return false;
      // Its names and types have no '<' or '&': the defaults' references are the item's.
      if (item.startsWith('<!ATTLIST') && !isAttValue(item.slice(2), 0)) return false;
      if (pe !== undefined && !pes.has(pe)) pes.set(pe, value === undefined ? null : (readCharRefs(value.slice(1, -1)) as string));
      if (entity !== undefined && !entities.has(entity)) entities.set(entity, entityValue === undefined ? null : (readCharRefs(entityValue.slice(1, -1)) as string));
      const replacement = ref === undefined ? null : pes.get(ref);
      if (replacement === undefined && standalone) return false;
      if (ref !== undefined) bound = standalone;
      if (typeof replacement !== 'string' || replacement === '') continue;
      if (depth === MAX_PE_DEPTH) return false;
      pes.set(ref as string, '<'); // a reference to it from its own text is a loop: refused
      if (!isSubset(replacement, depth + 1)) return false;
      pes.set(ref as string, ''); // read: its next references need no second reading
    }
    return true;
  };
  try {
    return text.charCodeAt(end) === 0x5d && isSubset(text.slice(head[0].length, end), 0);
  } catch (error) {
    // A declaration of millions of tokens can overflow a RegExp's backtracking stack: refused, not thrown.
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/** A children content model's groups pair, each with one kind of separator ([49] choice, [50] seq), 256 deep at most as in libxml2 2.13. */
function groupsNest(model: string): boolean {
  const separators: number[] = []; // per open group: 0 none yet, ',' or '|'
  for (let k = 0; k < model.length; k++) {
    const c = model.charCodeAt(k);
    const top = separators.length - 1;
    if (c === 0x28 && separators.push(0) > MAX_GROUP_DEPTH) return false;
    else if (c === 0x2c || c === 0x7c) {
      if (separators[top] !== 0 && separators[top] !== c) return false;
      separators[top] = c;
    } else if (c === 0x29) {
      separators.pop();
      // The outer group closes last, before its quantifier (the model ends with ')' or one).
      if (top === 0) return k === model.length - 1 || (k === model.length - 2 && model.charCodeAt(k + 1) !== 0x29);
    }
  }
  return separators.length === 0; // EMPTY, ANY
}

/** `s` with its character references read, or undefined when one names no Char (XML 1.0 [66] WFC: Legal Character). */
function readCharRefs(s: string): string | undefined {
  let legal = true;
  const read = s.replace(/&#(?:x([0-9A-Fa-f]+)|([0-9]+));/g, (_, hex?: string, dec?: string) => {
    const cp = hex !== undefined ? parseInt(hex, 16) : parseInt(dec as string, 10);
    legal &&= isXmlChar(cp);
    return legal ? String.fromCodePoint(cp) : '';
  });
  return legal ? read : undefined;
}

/** ASCII NameChars (1) by code: a-z A-Z 0-9 _ : - . */
const ASCII_NAME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
  ASCII_NAME_CHAR[c] = letter || (c >= 0x30 && c <= 0x3a) || c === 0x5f || c === 0x2d || c === 0x2e ? 1 : 0;
}

/**
 * XML 1.0 §2.3 NameChar, as libxml2 reads names. ASCII by a table: a branch first taken late (the first
 * digit in a name) would deoptimize the tokenizer loop that inlines this.
 */
function isNameChar(c: number): boolean {
  return c >= 0x80 ? isNonAsciiNameChar(c) : c >= 0 && ASCII_NAME_CHAR[c] === 1; // NaN (read past the end): false
}

/** XML NameStartChar. */
function isNameStart(c: number): boolean {
  if (c >= 0x61) return c <= 0x7a || (c >= 0x80 && isNonAsciiNameStart(c));
  if (c >= 0x41) return c <= 0x5a || c === 0x5f;
  return c === 0x3a;
}

/** NameStartChar beyond ASCII (XML 1.0 §2.3 [4]); a surrogate code unit counts, but the lead of U+F0000 and past ([#x10000-#xEFFFF]). */
function isNonAsciiNameStart(c: number): boolean {
  if (c < 0x2000) return c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && (c < 0x300 || c >= 0x370) && c !== 0x37e;
  if (c < 0xd800) return c === 0x200c || c === 0x200d || (c >= 0x2070 && c <= 0x218f) || (c >= 0x2c00 && c <= 0x2fef) || c >= 0x3001;
  if (c < 0xe000) return c < 0xdb80 || c >= 0xdc00;
  return (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xfffd);
}

/** NameChar beyond ASCII: NameStartChar, #xB7, [#x0300-#x036F], [#x203F-#x2040]. */
function isNonAsciiNameChar(c: number): boolean {
  return isNonAsciiNameStart(c) || c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040;
}

/** The index of the first non-NameChar from `i`, or -1 when the buffer ends first. */
function nameEnd(buf: string, i: number, len: number): number {
  while (i < len && isNameChar(buf.charCodeAt(i))) i++;
  return i === len ? -1 : i;
}

/** Whether `name` is at `at` in `buf` (shorter than startsWith for the short names of a sitemap). */
function sameAt(buf: string, at: number, name: string): boolean {
  for (let k = name.length - 1; k >= 0; k--) if (buf.charCodeAt(at + k) !== name.charCodeAt(k)) return false;
  return true;
}

/** A character XML may forbid (escape.ts), tested natively over a piece of text. */
const HAS_FORBIDDEN_CANDIDATE = new RegExp(NON_XML_CHAR_CANDIDATE.source);
/** Up to this length (the indentation between two elements) a loop beats a RegExp call. */
const SHORT_TEXT = 16;

/** HAS_FORBIDDEN_CANDIDATE.test(buf.slice(a, b)), for a short piece. */
function hasForbiddenCandidate(buf: string, a: number, b: number): boolean {
  for (let k = a; k < b; k++) {
    const c = buf.charCodeAt(k);
    if (c < 0x20 ? c !== 0x0a && c !== 0x09 && c !== 0x0d : c >= 0xd800 && (c <= 0xdfff || c >= 0xfffe)) return true;
  }
  return false;
}

/** XML 1.0 §2.2 Char. */
function isXmlChar(cp: number): boolean {
  return cp >= 0x20 ? cp <= 0xd7ff || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff) : cp === 0x09 || cp === 0x0a || cp === 0x0d;
}

/** Cut `s` to at most `max` code units without splitting a surrogate pair. */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  return max > 0 && isHighSurrogate(s.charCodeAt(max - 1)) && isLowSurrogate(s.charCodeAt(max)) ? s.slice(0, max - 1) : s.slice(0, max);
}

/** 1 when ASCII `literal` (upper case when `fold`) is at `at`, 0 when the buffer ends first, else -1. */
function prefixAt(buf: string, at: number, len: number, literal: string, fold: boolean): number {
  for (let k = 0; k < literal.length; k++) {
    if (at + k >= len) return 0;
    let c = buf.charCodeAt(at + k);
    if (fold && c >= 0x61 && c <= 0x7a) c -= 0x20;
    if (c !== literal.charCodeAt(k)) return -1;
  }
  return 1;
}

/** Where text or CDATA at the end of the buffer stops for now: before a CR, high surrogate, or ']' of a ']]>'. */
function heldTail(buf: string, start: number, len: number): number {
  const last = buf.charCodeAt(len - 1);
  let end = len;
  if (last === 0x0d || isHighSurrogate(last)) end = len - 1;
  else if (last === 0x5d) end = len >= 2 && buf.charCodeAt(len - 2) === 0x5d ? len - 2 : len - 1;
  return Math.max(start, end);
}

/** What the `<` at `lt` starts; K_MORE when the buffer ends before that is known. */
function classify(buf: string, lt: number, len: number): number {
  if (lt + 1 >= len) return K_MORE;
  const c1 = buf.charCodeAt(lt + 1);
  if (isNameStart(c1)) return K_START;
  if (c1 === 0x2f || c1 === 0x3f) {
    if (lt + 2 >= len) return K_MORE;
    if (!isNameStart(buf.charCodeAt(lt + 2))) return K_RAW;
    return c1 === 0x2f ? K_END : K_PI;
  }
  if (c1 !== 0x21) return K_RAW;
  const comment = prefixAt(buf, lt + 2, len, '--', false);
  if (comment === 1) return K_COMMENT;
  const cdata = prefixAt(buf, lt + 2, len, '[CDATA[', false);
  if (cdata === 1) return K_CDATA;
  const doctype = prefixAt(buf, lt + 2, len, 'DOCTYPE', true);
  if (doctype === 1) return K_DOCTYPE;
  return comment === 0 || cdata === 0 || doctype === 0 ? K_MORE : K_RAW;
}

/** The five predefined entities (a switch: a record would also answer `constructor`). */
function predefined(name: string): string | undefined {
  switch (name) {
    case 'amp': return '&';
    case 'lt': return '<';
    case 'gt': return '>';
    case 'quot': return '"';
    case 'apos': return "'";
    default: return undefined;
  }
}

export class XmlTokenizer {
  private readonly h: XmlTokenHandler;
  private readonly maxDepth: number;
  private readonly maxValue: number;
  private readonly maxName: number;

  // The current buffer (carry + chunk) and its offset in the whole input.
  private buf = '';
  private bufBase = 0;
  private carry = '';
  private state = S_TEXT;
  private ended = false;
  private busy = false;
  private broken = false;

  private readonly lines = new LineCounter();
  /** Where the carry starts when a state used the buffer up (`usedUp`); the buffer's length otherwise. */
  private stepCarry = 0;
  /** False while a write reads a lane element longer than its chunk the long way. */
  private carryLaneElements = true;
  /** The next `&` (absolute offset): -1 not looked for yet in this buffer, NO_AMP none left in it. */
  private nextAmp = -1;
  /** The next `]]>` (absolute offset), as nextAmp: XML 1.0 [14] forbids it in text. */
  private nextCdataEnd = -1;

  // The token being read: where it starts, its section and accumulator.
  private tokLine = 1;
  private tokCol = 1;
  private tokOffset = 0;
  private sectionStart = 0;
  private acc = '';
  private accFull = false;
  private sectionCut = false;
  private tagName = '';
  private attrs: XmlAttribute[] | null = null;
  private attrNames: Set<string> | null = null;
  private attrName = '';
  private attrLine = 0;
  private attrCol = 0;
  private attrOffset = 0;
  private valueLine = 0;
  private valueCol = 0;
  private valueOffset = 0;
  /** Positions within the attribute value `vpRaw` (valuePosition). */
  private vpRaw = '';
  private readonly vpLines = new LineCounter();
  private quote = '"';
  private wsRequired = false;
  private junkReported = false;
  private piTarget = '';
  private declAllowed = false;
  private dtQuote = 0;
  private dtBracket = 0;
  private dtMode = 0;
  private dtWindow = 0;

  private readonly offer = new LaneOffer();

  // Open elements.
  private readonly names: string[] = [];
  private readonly openLine: number[] = [];
  private readonly openCol: number[] = [];
  private overDepth = 0;
  private depthReported = false;

  // The run of text since the last tag.
  private textLen = 0;
  private textOverflow = false;
  private runLine = 0;
  private runCol = 0;
  private runOffset = 0;

  // Document-level facts.
  private prologOnlyWs = true;
  private rootSeen = false;
  private rootClosed = false;
  private doctypeSeen = false;
  /** The DOCTYPE being read is the document's, in place: its form is checked at its end. */
  private doctypeForm = false;
  /** The XML declaration said standalone="yes" (isDoctypeForm). */
  private standalone = false;
  private beforeRootReported = false;
  private afterRootReported = false;
  private attributesReported = false;

  constructor(handler: XmlTokenHandler, options: XmlTokenizerOptions = {}) {
    this.h = handler;
    this.maxDepth = positiveInteger(options.maxDepth, DEFAULT_MAX_DEPTH, 'XmlTokenizer option maxDepth');
    this.maxValue = positiveInteger(options.maxValueLength, DEFAULT_MAX_VALUE_LENGTH, 'XmlTokenizer option maxValueLength');
    this.maxName = positiveInteger(options.maxNameLength, DEFAULT_MAX_NAME_LENGTH, 'XmlTokenizer option maxNameLength');
  }

  /** Push the next piece of decoded text, split anywhere. */
  write(chunk: string): void {
    if (typeof chunk !== 'string') {
      throw new SitemapError('ERR_SITEMAP_API', `XmlTokenizer.write() takes a string, got ${typeof chunk}`);
    }
    this.guarded('write', () => {
      this.carryLaneElements = true;
      // The carry is joined with only a little of the chunk: V8 scans a flat string (join makes one)
      // markedly faster than a concatenation.
      let from = 0;
      const endTag = this.offer.cutEndTag;
      if (endTag !== '' && this.carry !== '') {
        // A lane element cut by the last chunk: read it with the part of this one where it ends.
        this.offer.cutEndTag = '';
        const end = chunk.indexOf(endTag);
        if (end !== -1) {
          from = end + endTag.length;
          this.install([this.carry, chunk.slice(0, from)].join(''), 0);
          this.run(0);
        } else {
          // Longer than this chunk too: read the long way, not re-read at each step below.
          this.carryLaneElements = false;
        }
      }
      while (this.carry !== '' && from < chunk.length) {
        const to = Math.min(chunk.length, from + HEAD);
        this.install([this.carry, chunk.slice(from, to)].join(''), 0);
        this.run(0);
        from = to;
      }
      if (from < chunk.length) {
        this.bufBase -= from;
        this.sectionStart = from;
        this.install(chunk, from);
        this.run(from);
      }
    });
  }

  /** The line after everything read so far (when nothing is held: heldEndTag). */
  get readLine(): number {
    return this.lines.line;
  }

  /** The column after everything read so far (when nothing is held). */
  get readColumn(): number {
    return this.bufBase - this.lines.lineStart + 1;
  }

  /** The end tag of the handler's lane element (`</url>`) while that lane reads from bytes, else undefined. */
  get laneEndTag(): string | undefined {
    return this.offer.bytesEndTag(this.h.lane);
  }

  /** Undefined when no unread input is held; the end tag of a held lane element; '' for anything else held. */
  get heldEndTag(): string | undefined {
    return this.carry === '' ? undefined : this.offer.cutEndTag;
  }

  /**
   * Read whitespace and a run of lane elements from ASCII `bytes[from..]` (not given to `write`) through
   * XmlLane.readRunBytes, with no events: so the bulk of a plain sitemap never becomes a string. Returns
   * the index after what was read (give the rest to `write`), or `from` when the lane did not apply.
   */
  writeLaneBytes(bytes: Uint8Array, from: number): number {
    return this.guarded('writeLaneBytes', () => {
      if (this.state !== S_TEXT || this.carry !== '' || this.overDepth !== 0) return from;
      const sc = this.h.lane;
      if (!this.offer.offered(sc, this.names.length, 0) || sc.readRunBytes === undefined || sc.depth + sc.nesting > this.maxDepth) return from;
      // Nothing is held: everything written so far has been read.
      const base = this.bufBase - from;
      let at = from;
      while (at < bytes.length && isXmlSpace(bytes[at] as number)) at++;
      if (at >= bytes.length || bytes[at] !== 0x3c) return from;
      const end = this.offer.readBytes(sc, bytes, from, at, base, this.lines, this.maxValue);
      if (end === -1) return from;
      this.textLen = 0;
      this.textOverflow = false;
      this.bufBase = base + end;
      this.buf = '';
      this.lines.load('', this.bufBase, 0);
      this.nextAmp = this.nextCdataEnd = -1;
      return end;
    });
  }

  /** Flushes what was carried, reports truncation and closes open elements. */
  end(): void {
    this.guarded('end', () => {
      this.ended = true;
      this.install(this.carry, 0);
      this.run(0);
      this.finish();
    });
  }

  /** `work` for a public method, refused from inside a handler, after end() or after a handler threw. */
  private guarded<T>(method: string, work: () => T): T {
    if (this.busy) throw new SitemapError('ERR_SITEMAP_API', `XmlTokenizer.${method}() called from inside a handler`);
    if (this.ended) throw new SitemapError('ERR_SITEMAP_API', `XmlTokenizer.${method}() called after end()`);
    if (this.broken) throw new SitemapError('ERR_SITEMAP_API', `XmlTokenizer.${method}() called after a handler threw`);
    this.busy = true;
    try {
      return work();
    } catch (error) {
      this.broken = true;
      throw error;
    } finally {
      this.busy = false;
    }
  }

  /** Make `buf` the current buffer (`bufBase` is the offset of its index 0); reading starts at `from`. */
  private install(buf: string, from: number): void {
    this.buf = buf;
    this.carry = '';
    this.lines.load(buf, this.bufBase, from);
    this.nextAmp = this.nextCdataEnd = -1;
  }

  // ---- positions ------------------------------------------------------------------------------

  /** Record where the current token starts (`i` is an index in the buffer). */
  private mark(i: number): void {
    const at = this.bufBase + i;
    const lines = this.lines;
    lines.countTo(at);
    this.tokOffset = at;
    this.tokLine = lines.line;
    this.tokCol = at - lines.lineStart + 1;
  }

  private report(code: string, message: string, line: number, column: number, offset: number, hint?: string): void {
    this.h.diagnostic(diagnosticAt(code, XML_TOKENIZER_CODES[code] as Severity, message, line, column, offset, hint));
  }

  /** A diagnostic at index `i` of the buffer (not before anything already positioned). */
  private reportAt(i: number, code: string, message: string, hint?: string): void {
    const at = this.bufBase + i;
    this.lines.countTo(at);
    this.report(code, message, this.lines.line, at - this.lines.lineStart + 1, at, hint);
  }

  private reportTok(code: string, message: string, hint?: string): void {
    this.report(code, message, this.tokLine, this.tokCol, this.tokOffset, hint);
  }

  // ---- the machine ------------------------------------------------------------------------------

  /** Run the machine over the current buffer from index `begin`; at its end, keep what the next chunk needs. */
  private run(begin: number): void {
    const buf = this.buf;
    const len = buf.length;
    this.stepCarry = len;
    for (let i = begin; i < len; ) i = this.state === S_TEXT ? this.inText(buf, i, len) : this.step(buf, i, len);
    this.keepRest(buf, this.stepCarry, len);
  }

  /**
   * The text state from `i`: the index of the markup it entered, or the buffer's length (`usedUp`). The
   * tags a sitemap is made of (the lane, `<name>`, the open element's end tag) are read inline here,
   * one call less each than through `step`.
   */
  private inText(buf: string, i: number, len: number): number {
    let start = i;
    let from = i;
    for (;;) {
      const lt = buf.indexOf('<', from);
      if (lt === -1) {
        const end = this.ended ? len : this.textCut(buf, start, len);
        if (end > start) this.textSegment(buf, start, end, len);
        return this.usedUp(len, end);
      }
      if (lt > start) this.textSegment(buf, start, lt, len);
      // -1, not charCodeAt's NaN past the end: that would deoptimize this loop the first time.
      const c1 = lt + 1 < len ? buf.charCodeAt(lt + 1) : -1;
      if (isNameStart(c1)) {
        const sc = this.h.lane;
        if (this.offer.offered(sc, this.names.length, this.overDepth)) {
          const end = this.tryLane(sc, buf, lt);
          if (end !== -1) {
            start = from = end;
            continue;
          }
          if (this.offer.keepsCut(sc, buf, lt, this.maxValue, this.carryLaneElements && !this.ended)) return this.usedUp(len, lt);
        }
        let j = lt + 2;
        while (j < len && isNameChar(buf.charCodeAt(j))) j++;
        if (j < len && buf.charCodeAt(j) === 0x3e && j - lt - 1 <= this.maxName) {
          this.mark(lt);
          this.prologOnlyWs = false;
          this.tagName = buf.slice(lt + 1, j);
          this.finishStartTag(false);
          start = from = j + 1;
          continue;
        }
      } else if (c1 === 0x2f && this.overDepth === 0) {
        const names = this.names;
        const n = names.length;
        if (n > 0) {
          const top = names[n - 1] as string;
          const e = lt + 2 + top.length;
          if (e < len && buf.charCodeAt(e) === 0x3e && sameAt(buf, lt + 2, top)) {
            this.mark(lt);
            this.closeTop(top);
            start = from = e + 1;
            continue;
          }
        }
      }
      const kind = classify(buf, lt, len);
      if (kind === K_MORE) {
        if (!this.ended) return this.usedUp(len, lt);
        this.reportAt(lt, 'xml/truncated', 'the input ends inside markup', 'the file looks cut short');
        return this.usedUp(len);
      }
      if (kind === K_RAW) {
        this.reportAt(lt, 'xml/raw-less-than', "'<' that does not start a tag is kept as text", 'escape < as &lt; in values');
        start = lt;
        from = lt + 1;
        continue;
      }
      return this.openMarkup(buf, kind, lt);
    }
  }

  /** End of the buffer: keep the open section (bounded) and the characters from `carryFrom` on. */
  private keepRest(buf: string, carryFrom: number, len: number): void {
    const state = this.state;
    if (
      state === S_TAG_NAME || state === S_ATTR_NAME || state === S_VALUE_QUOTED || state === S_VALUE_UNQUOTED ||
      state === S_END_NAME || state === S_PI_TARGET || state === S_PI_DATA || state === S_DOCTYPE
    ) {
      const max = state === S_VALUE_QUOTED || state === S_VALUE_UNQUOTED ? this.maxValue + MAX_REF
        : state === S_PI_DATA || state === S_DOCTYPE ? this.maxValue : this.maxName;
      this.append(buf, this.sectionStart, carryFrom, max);
      this.sectionStart = 0;
    }
    this.lines.countTo(this.bufBase + carryFrom);
    if (carryFrom < len) this.carry = buf.slice(carryFrom);
    this.bufBase += carryFrom;
    this.buf = '';
  }

  /**
   * One step in a state other than text: the index to go on from (the buffer's length: `usedUp`). Each
   * state is a method of its own so that one met late (an RSS feed's attributes, a cut tag) does not
   * deoptimize the text loop (bench:discover: 40 ms of TurboFan per recompile when they shared one).
   */
  private step(buf: string, i: number, len: number): number {
    switch (this.state) {
      case S_TAG_NAME:
      case S_END_NAME: return this.inTagName(buf, i, len);
      case S_BEFORE_ATTR: return this.inBeforeAttribute(buf, i, len);
      case S_ATTR_NAME: return this.inAttributeName(buf, i, len);
      case S_AFTER_ATTR_NAME: return this.inAfterAttributeName(buf, i, len);
      case S_BEFORE_VALUE: return this.inBeforeValue(buf, i, len);
      case S_VALUE_QUOTED: return this.inQuotedValue(buf, i, len);
      case S_VALUE_UNQUOTED: return this.inUnquotedValue(buf, i, len);
      case S_SELF_CLOSE: return this.inSelfClose(buf, i);
      case S_AFTER_END_NAME: return this.inAfterEndName(buf, i, len);
      case S_COMMENT: return this.inComment(buf, i, len);
      case S_CDATA: return this.inCdata(buf, i, len);
      case S_PI_TARGET: return this.inPiTarget(buf, i, len);
      case S_PI_DATA: return this.inPiData(buf, i, len);
      default: return this.inDoctype(buf, i, len); // S_DOCTYPE
    }
  }

  /** The name of a start tag (S_TAG_NAME) or of an end tag (S_END_NAME). */
  private inTagName(buf: string, i: number, len: number): number {
    const j = nameEnd(buf, i, len);
    if (j === -1) return this.usedUp(len);
    const start = this.state === S_TAG_NAME;
    this.tagName = this.takeName(buf, j, 'element', this.tokLine, this.tokCol, this.tokOffset);
    this.wsRequired = false;
    this.junkReported = false;
    if (buf.charCodeAt(j) !== 0x3e) {
      this.state = start ? S_BEFORE_ATTR : S_AFTER_END_NAME;
      return j;
    }
    if (start) this.finishStartTag(false);
    else this.finishEndTag();
    this.state = S_TEXT;
    return j + 1;
  }

  private inBeforeAttribute(buf: string, i: number, len: number): number {
    const from = i;
    while (i < len && isXmlSpace(buf.charCodeAt(i))) i++;
    if (i > from) this.wsRequired = false;
    if (i === len) return this.usedUp(len);
    const c = buf.charCodeAt(i);
    if (c === 0x3e) {
      i++;
      this.finishStartTag(false);
      this.state = S_TEXT;
    } else if (c === 0x2f) {
      i++;
      this.state = S_SELF_CLOSE;
    } else if (isNameStart(c)) {
      const at = this.bufBase + i;
      this.lines.countTo(at);
      this.attrLine = this.lines.line;
      this.attrCol = at - this.lines.lineStart + 1;
      this.attrOffset = at;
      if (this.wsRequired) {
        this.report('xml/malformed-attribute', `no whitespace before an attribute of <${this.tagName}>`, this.attrLine, this.attrCol, at, 'separate attributes with a space');
      }
      this.sectionStart = i;
      this.state = S_ATTR_NAME;
    } else if (c === 0x3c) {
      this.reportAt(i, 'xml/malformed-tag', `start tag <${this.tagName}> is not closed with '>'`);
      this.finishStartTag(false);
      this.state = S_TEXT;
    } else {
      this.junk(i, c);
      i++;
    }
    return i;
  }

  private inAttributeName(buf: string, i: number, len: number): number {
    const j = nameEnd(buf, i, len);
    if (j === -1) return this.usedUp(len);
    this.attrName = this.takeName(buf, j, 'attribute', this.attrLine, this.attrCol, this.attrOffset);
    this.state = S_AFTER_ATTR_NAME;
    return j;
  }

  private inAfterAttributeName(buf: string, i: number, len: number): number {
    while (i < len && isXmlSpace(buf.charCodeAt(i))) i++;
    if (i === len) return this.usedUp(len);
    if (buf.charCodeAt(i) === 0x3d) {
      i++;
      this.state = S_BEFORE_VALUE;
    } else {
      this.missingValue();
      this.state = S_BEFORE_ATTR;
    }
    return i;
  }

  private inBeforeValue(buf: string, i: number, len: number): number {
    while (i < len && isXmlSpace(buf.charCodeAt(i))) i++;
    if (i === len) return this.usedUp(len);
    const c = buf.charCodeAt(i);
    if (c === 0x22 || c === 0x27) {
      this.quote = c === 0x22 ? '"' : "'";
      i++;
      this.markValue(i);
      this.state = S_VALUE_QUOTED;
    } else if (c === 0x3e || c === 0x3c) {
      this.missingValue();
      this.state = S_BEFORE_ATTR;
    } else {
      this.report('xml/malformed-attribute', `the value of attribute ${this.attrName} is not quoted`, this.attrLine, this.attrCol, this.attrOffset, 'put attribute values in double quotes');
      this.markValue(i);
      this.state = S_VALUE_UNQUOTED;
    }
    return i;
  }

  private inQuotedValue(buf: string, i: number, len: number): number {
    const j = buf.indexOf(this.quote, i);
    if (j === -1) return this.usedUp(len);
    this.finishValue(buf, j);
    this.wsRequired = true;
    this.state = S_BEFORE_ATTR;
    return j + 1;
  }

  private inUnquotedValue(buf: string, i: number, len: number): number {
    let j = i;
    while (j < len) {
      const c = buf.charCodeAt(j);
      if (isXmlSpace(c) || c === 0x3e || c === 0x3c) break;
      j++;
    }
    if (j === len) return this.usedUp(len);
    this.finishValue(buf, j);
    this.state = S_BEFORE_ATTR;
    return j;
  }

  private inSelfClose(buf: string, i: number): number {
    // `/>`; `/ >` is read as self-closing too, with a diagnostic.
    const c = buf.charCodeAt(i);
    if (isXmlSpace(c)) {
      if (!this.junkReported) {
        this.junkReported = true;
        this.reportAt(i, 'xml/malformed-tag', `whitespace between '/' and '>' in start tag <${this.tagName}>`, "write '/>'");
      }
      i++;
    } else if (c === 0x3e) {
      i++;
      this.finishStartTag(true);
      this.state = S_TEXT;
    } else {
      this.reportAt(i, 'xml/malformed-tag', `'/' not followed by '>' in start tag <${this.tagName}>`);
      this.state = S_BEFORE_ATTR;
    }
    return i;
  }

  private inAfterEndName(buf: string, i: number, len: number): number {
    while (i < len && isXmlSpace(buf.charCodeAt(i))) i++;
    if (i === len) return this.usedUp(len);
    const c = buf.charCodeAt(i);
    if (c === 0x3e) {
      i++;
      this.finishEndTag();
      this.state = S_TEXT;
    } else if (c === 0x3c) {
      this.reportAt(i, 'xml/malformed-tag', `end tag </${this.tagName}> is not closed with '>'`);
      this.finishEndTag();
      this.state = S_TEXT;
    } else {
      if (!this.junkReported) {
        this.junkReported = true;
        this.reportAt(i, 'xml/malformed-tag', `unexpected ${show(buf[i] as string)} in end tag </${this.tagName}>`, 'an end tag has no attributes');
      }
      i++;
    }
    return i;
  }

  private inComment(buf: string, i: number, len: number): number {
    // XML 1.0 [15]: '--' may appear in a comment only as the start of the closing '-->' ('--->' too is refused).
    let j = buf.indexOf('--', i);
    while (j !== -1 && j + 2 < len && buf.charCodeAt(j + 2) !== 0x3e) {
      if (!this.junkReported) {
        this.forbiddenIn(buf, i, j); // in document order
        i = j;
        this.reportAt(j, 'xml/malformed-tag', "'--' inside a comment", "a comment cannot hold '--'; libxml2 stops there");
        this.junkReported = true;
      }
      j = buf.indexOf('--', j + 1);
    }
    if (j === -1 || j + 2 >= len) {
      let carryFrom = len;
      if (!this.ended) {
        carryFrom = j === -1 ? Math.max(i, len - 1) : j;
        // Not between the halves of a pair: the low half alone would read as a lone surrogate.
        if (carryFrom > i && isHighSurrogate(buf.charCodeAt(carryFrom - 1))) carryFrom--;
      }
      this.forbiddenIn(buf, i, carryFrom);
      return this.usedUp(len, carryFrom);
    }
    this.forbiddenIn(buf, i, j);
    // Never kept, but bounded as a value is (libxml2 refuses a comment of over 10,000,000 characters).
    if (this.bufBase + j - this.tokOffset - 4 > this.maxValue) {
      this.reportTok('budget/value-length', `a comment longer than ${plural(this.maxValue, 'character')}`, 'raise maxValueLength if this is legitimate');
    }
    this.state = S_TEXT;
    return j + 3;
  }

  private inCdata(buf: string, i: number, len: number): number {
    const j = buf.indexOf(']]>', i);
    if (j !== -1) {
      if (j > i) this.cdataSegment(buf, i, j);
      this.state = S_TEXT;
      return j + 3;
    }
    const end = this.ended ? len : heldTail(buf, i, len);
    if (end > i) this.cdataSegment(buf, i, end);
    return this.usedUp(len, end);
  }

  private inPiTarget(buf: string, i: number, len: number): number {
    const j = nameEnd(buf, i, len);
    if (j === -1) return this.usedUp(len);
    this.piTarget = this.takeName(buf, j, 'processing instruction', this.tokLine, this.tokCol, this.tokOffset);
    this.sectionStart = j;
    this.state = S_PI_DATA;
    return j;
  }

  private inPiData(buf: string, i: number, len: number): number {
    const j = buf.indexOf('?>', i);
    if (j === -1) {
      let carryFrom = len;
      if (!this.ended && buf.charCodeAt(len - 1) === 0x3f) carryFrom = Math.max(i, len - 1);
      return this.usedUp(len, carryFrom);
    }
    this.state = S_TEXT;
    this.finishPI(buf, j);
    return j + 2;
  }

  private inDoctype(buf: string, i: number, len: number): number {
    let q = this.dtQuote;
    let b = this.dtBracket;
    let mode = this.dtMode;
    let w = this.dtWindow;
    let done = -1;
    for (; i < len; i++) {
      const c = buf.charCodeAt(i);
      w = (w << 8) | (c < 0x80 ? c : 0);
      if (mode === 1) {
        if ((w & 0xffffff) === W_COMMENT_CLOSE) mode = 0;
      } else if (mode === 2) {
        if ((w & 0xffff) === W_PI_CLOSE) mode = 0;
      } else if (q !== 0) {
        if (c === q) q = 0;
      } else if (c === 0x22 || c === 0x27) {
        q = c;
      } else if (b > 0) {
        if (c === 0x5d) b--;
        else if (w === W_COMMENT_OPEN) {
          mode = 1;
          w = 0;
        } else if ((w & 0xffff) === W_PI_OPEN) {
          mode = 2;
          w = 0;
        }
      } else if (c === 0x5b) {
        b = 1;
      } else if (c === 0x3e) {
        done = i;
        break;
      }
    }
    this.dtQuote = q;
    this.dtBracket = b;
    this.dtMode = mode;
    this.dtWindow = w;
    if (done === -1) return this.usedUp(len);
    i = done + 1;
    const text = this.takeSection(buf, i, this.maxValue);
    if (this.sectionCut) this.valueTooLong('DOCTYPE declaration', this.tokLine, this.tokCol, this.tokOffset);
    // A character XML forbids, else a form not XML's: one problem of the two.
    if (!this.forbiddenInToken(text, 'the DOCTYPE declaration') && !this.sectionCut && this.doctypeForm && !isDoctypeForm(text, this.standalone)) {
      this.reportTok('xml/malformed-tag', 'a DOCTYPE declaration not of the form <!DOCTYPE name [SYSTEM "uri" | PUBLIC "id" "uri"] [[declarations]]>, or with a malformed declaration; ignored', 'sitemaps need no DOCTYPE; remove it');
    }
    this.state = S_TEXT;
    this.h.doctype?.(text, this.tokLine, this.tokCol, this.tokOffset);
    return i;
  }

  /**
   * A state used the buffer up: carry from `carryFrom` on. Said through a field, with `len` returned, so
   * that `run` ends its loop the usual way: a path of its own would deoptimize it at the first cut tag.
   */
  private usedUp(len: number, carryFrom = len): number {
    this.stepCarry = carryFrom;
    return len;
  }

  /** Enter the markup of `kind` (classify's, not K_MORE or K_RAW) at `lt`: the index after its opening. */
  private openMarkup(buf: string, kind: number, lt: number): number {
    let next: number;
    this.mark(lt);
    // An XML declaration may follow nothing but whitespace.
    this.declAllowed = this.prologOnlyWs;
    this.prologOnlyWs = false;
    switch (kind) {
      case K_START:
      case K_END:
      case K_PI:
        next = kind === K_START ? lt + 1 : lt + 2;
        this.sectionStart = next;
        this.state = kind === K_START ? S_TAG_NAME : kind === K_END ? S_END_NAME : S_PI_TARGET;
        break;
      case K_COMMENT:
        next = lt + 4;
        this.junkReported = false;
        this.state = S_COMMENT;
        break;
      case K_CDATA:
        next = lt + 9;
        this.state = S_CDATA;
        if (this.names.length === 0) this.topLevelText(buf, lt, lt + 1); // even an empty one is character data outside the root
        else this.h.cdata?.(this.tokLine, this.tokCol, this.tokOffset);
        break;
      default:
        next = lt + 9;
        this.sectionStart = lt;
        this.dtQuote = 0;
        this.dtBracket = 0;
        this.dtMode = 0;
        this.dtWindow = 0;
        this.state = S_DOCTYPE;
        // XML 1.0 [28]: one DOCTYPE, in the prolog, spelled in capitals.
        this.doctypeForm = false;
        if (this.rootSeen || this.doctypeSeen) this.reportTok('xml/misplaced-declaration', `DOCTYPE declaration ${this.rootSeen ? 'after the root element started' : 'after another one'}; ignored`, 'a document has at most one DOCTYPE, before its root element');
        else if (!buf.startsWith('DOCTYPE', lt + 2)) this.reportTok('xml/malformed-tag', 'a DOCTYPE declaration is written <!DOCTYPE, in capitals; ignored', 'sitemaps need no DOCTYPE; remove it');
        else {
          this.doctypeForm = true;
          this.reportTok('xml/doctype', 'DOCTYPE declaration ignored: no DTD is processed and the entities it declares are never expanded', 'sitemaps need no DOCTYPE; remove it');
        }
        this.doctypeSeen = true;
    }
    return next;
  }

  // ---- sections ---------------------------------------------------------------------------------

  /** Offer the element at `lt` to the handler's lane: the index after the run it read, or -1. */
  private tryLane(sc: XmlLane, buf: string, lt: number): number {
    if (sc.depth + sc.nesting > this.maxDepth) return -1;
    this.mark(lt);
    const end = this.offer.read(sc, buf, lt, this.bufBase, this.tokLine, this.lines, this.maxValue);
    if (end !== -1) {
      this.textLen = 0;
      this.textOverflow = false;
    }
    return end;
  }

  /** Add buf[a, b) to the accumulator, keeping at most `max` characters plus one to detect the overflow. */
  private append(buf: string, a: number, b: number, max: number): void {
    if (b <= a || this.accFull) return;
    const room = max + 1 - this.acc.length;
    if (b - a >= room) {
      this.acc += buf.slice(a, a + room);
      this.accFull = true;
    } else {
      this.acc += buf.slice(a, b);
    }
  }

  /** The section that ends at `end`, at most `max` characters; `sectionCut` tells whether it was cut. */
  private takeSection(buf: string, end: number, max: number): string {
    let s: string;
    if (this.acc === '') {
      s = buf.slice(this.sectionStart, end);
    } else {
      this.append(buf, this.sectionStart, end, max);
      s = this.acc;
      this.acc = '';
      this.accFull = false;
    }
    this.sectionCut = s.length > max;
    return this.sectionCut ? cut(s, max) : s;
  }

  private markValue(i: number): void {
    const at = this.bufBase + i;
    this.lines.countTo(at);
    this.valueLine = this.lines.line;
    this.valueCol = at - this.lines.lineStart + 1;
    this.valueOffset = at;
    this.sectionStart = i;
  }

  /** The name from the section's start to `end`, cut at maxName with a diagnostic at (line, column, offset). */
  private takeName(buf: string, end: number, kind: string, line: number, column: number, offset: number): string {
    const name = this.takeSection(buf, end, this.maxName);
    if (this.sectionCut) {
      this.report('budget/name-length', `${kind} name longer than ${plural(this.maxName, 'character')}, cut: ${show(name, 60)}`, line, column, offset, 'raise maxNameLength if this is legitimate');
    }
    return name;
  }

  private valueTooLong(what: string, line: number, column: number, offset: number): void {
    this.report('budget/value-length', `${what} longer than ${plural(this.maxValue, 'character')}; only the first ${this.maxValue} are kept`, line, column, offset, 'raise maxValueLength if this is legitimate');
  }

  private junk(i: number, c: number): void {
    if (this.junkReported) return;
    this.junkReported = true;
    const ch = c === 0x22 || c === 0x27 ? 'quote' : show(String.fromCharCode(c));
    this.reportAt(i, 'xml/malformed-attribute', `unexpected ${ch} in start tag <${this.tagName}>`, 'attributes are written name="value"');
  }

  private missingValue(): void {
    this.report('xml/malformed-attribute', `attribute ${this.attrName} of <${this.tagName}> has no value`, this.attrLine, this.attrCol, this.attrOffset, 'write name="value"');
    this.addAttribute(this.attrName, '', false);
  }

  // ---- tags -------------------------------------------------------------------------------------

  /** The attribute value that ends at `end`. */
  private finishValue(buf: string, end: number): void {
    const raw = this.takeSection(buf, end, this.maxValue + MAX_REF);
    const rawCut = this.sectionCut;
    let value = raw;
    for (let k = 0; k < raw.length; k++) {
      const c = raw.charCodeAt(k);
      // `&`, a line break or tab, or what may be a character XML forbids (a control, U+FFFE,
      // U+FFFF, a surrogate): decodeValue looks closer.
      if (c === 0x26 || c < 0x20 || c >= 0xd800) {
        value = this.decodeValue(raw, k);
        break;
      }
    }
    const lt = raw.indexOf('<');
    if (lt !== -1) {
      const [line, column] = this.valuePosition(raw, lt);
      this.report('xml/malformed-attribute', `'<' in the value of attribute ${this.attrName}`, line, column, this.valueOffset + lt, 'escape < as &lt;, or close the previous value with its quote');
    }
    const truncated = rawCut || value.length > this.maxValue;
    if (truncated) {
      value = cut(value, this.maxValue);
      this.valueTooLong(`the value of attribute ${this.attrName}`, this.attrLine, this.attrCol, this.attrOffset);
    }
    this.addAttribute(this.attrName, value, truncated);
    this.vpRaw = '';
  }

  private addAttribute(name: string, value: string, truncated: boolean): void {
    const attrs = this.attrs ?? (this.attrs = []);
    if (attrs.length === MAX_ATTRIBUTES) {
      if (!this.attributesReported) this.report('budget/attributes', `more than ${MAX_ATTRIBUTES} attributes on <${this.tagName}>; the rest are not read (reported once)`, this.attrLine, this.attrCol, this.attrOffset, 'repair the markup');
      this.attributesReported = true;
      return;
    }
    let duplicate = false;
    if (attrs.length < 8) {
      for (const a of attrs) if (a.name === name) duplicate = true;
    } else {
      // Many attributes (hostile input): a set keeps the duplicate check linear.
      let names = this.attrNames;
      if (names === null) names = this.attrNames = new Set(attrs.map((a) => a.name));
      duplicate = names.has(name);
      if (!duplicate) names.add(name);
    }
    if (duplicate) {
      // libxml2 drops a declaration such as xmlns:p="" before it looks for duplicates (namespaces.ts):
      // one of those and a declaration of the same name are no duplicates, and the other one stands.
      if (isDroppedDeclaration(name, value)) return;
      const first = attrs.findIndex((a) => a.name === name);
      if (!isDroppedDeclaration(name, (attrs[first] as XmlAttribute).value)) {
        this.report('xml/duplicate-attribute', `duplicate attribute ${name} on <${this.tagName}>; the first is kept, ${show(value, 60)} is ignored`, this.attrLine, this.attrCol, this.attrOffset);
        return;
      }
      attrs.splice(first, 1);
    }
    const attribute: { -readonly [K in keyof XmlAttribute]: XmlAttribute[K] } = { name, value, line: this.attrLine, column: this.attrCol, offset: this.attrOffset };
    if (truncated) attribute.truncated = true;
    attrs.push(attribute);
  }

  private finishStartTag(selfClosing: boolean): void {
    const name = this.tagName;
    const attributes = this.attrs ?? EMPTY_ATTRIBUTES;
    this.attrs = null;
    this.attrNames = null;
    this.textLen = 0;
    this.textOverflow = false;
    const names = this.names;
    if (names.length === 0 && this.overDepth === 0) {
      if (this.rootClosed && !this.afterRootReported) {
        this.afterRootReported = true;
        this.reportTok('xml/content-after-root', `element <${name}> after the root element closed`, 'a document has exactly one root element; were two files joined?');
      }
      this.rootSeen = true;
    }
    if (this.overDepth > 0 || names.length >= this.maxDepth) {
      if (!this.depthReported) {
        this.depthReported = true;
        this.reportTok('budget/depth', `elements nested deeper than ${plural(this.maxDepth, 'level')} are skipped (reported once)`, 'raise maxDepth if this is legitimate');
      }
      if (!selfClosing) this.overDepth++;
      return;
    }
    this.h.startTag(name, attributes, selfClosing, this.tokLine, this.tokCol, this.tokOffset);
    if (selfClosing) {
      this.h.endTag(name, this.tokLine, this.tokCol, this.tokOffset);
      if (names.length === 0) this.rootClosed = true;
    } else {
      names.push(name);
      this.openLine.push(this.tokLine);
      this.openCol.push(this.tokCol);
    }
  }

  private finishEndTag(): void {
    const name = this.tagName;
    this.textLen = 0;
    this.textOverflow = false;
    if (this.overDepth > 0) {
      this.overDepth--;
      return;
    }
    const names = this.names;
    const n = names.length;
    let k = n - 1;
    while (k >= 0 && names[k] !== name) k--;
    if (k < 0) {
      this.reportTok(
        'xml/mismatched-tag',
        n > 0 ? `end tag </${name}> does not match the open element <${names[n - 1] as string}>; ignored` : `end tag </${name}> with no open element; ignored`,
        n > 0 ? `expected </${names[n - 1] as string}>` : undefined,
      );
      return;
    }
    for (let m = n - 1; m > k; m--) {
      const open = names[m] as string;
      this.reportTok('xml/mismatched-tag', `element <${open}> opened at ${this.openLine[m] as number}:${this.openCol[m] as number} is not closed before </${name}>; closed here`, `add </${open}>`);
      this.pop();
      this.h.endTag(open, this.tokLine, this.tokCol, this.tokOffset);
    }
    this.closeTop(name);
  }

  /** The end tag of the innermost open element. */
  private closeTop(name: string): void {
    this.textLen = 0;
    this.textOverflow = false;
    this.pop();
    this.h.endTag(name, this.tokLine, this.tokCol, this.tokOffset);
    if (this.names.length === 0) this.rootClosed = true;
  }

  private pop(): void {
    this.names.pop();
    this.openLine.pop();
    this.openCol.pop();
  }

  /** The processing instruction whose data ends at `end`. */
  private finishPI(buf: string, end: number): void {
    const data = this.takeSection(buf, end, this.maxValue);
    const dataCut = this.sectionCut;
    this.forbiddenInToken(data, 'a processing instruction');
    const target = this.piTarget;
    let start = 0;
    while (start < data.length && isXmlSpace(data.charCodeAt(start))) start++;
    const body = start > 0 ? data.slice(start) : data;
    // XML 1.0 §2.6: PI ::= '<?' PITarget (S (Char* - (Char* '?>' Char*)))? '?>'
    if (start === 0 && data.length > 0) {
      this.reportTok('xml/malformed-tag', `processing instruction <?${target} is not followed by a space before its data`, 'write <?target data?>, or escape < as &lt; if this was text');
    }
    if (target.length === 3 && target.toLowerCase() === 'xml') {
      if (target !== 'xml') {
        this.reportTok('xml/malformed-tag', `processing instruction <?${target}: the target ${target} is reserved (XML 1.0 §2.6); ignored`, 'write the XML declaration <?xml …?> in lower case');
        return;
      }
      if (!this.declAllowed) {
        this.reportTok('xml/misplaced-declaration', 'XML declaration not at the start of the document; ignored', this.rootSeen ? 'were two documents joined?' : 'the declaration must come first');
        return;
      }
      if (this.tokOffset > 0) {
        this.reportTok('xml/declaration-not-at-start', 'whitespace or a byte order mark before the XML declaration', 'the declaration must be the very first thing in the file');
      }
      if (dataCut) {
        this.valueTooLong('XML declaration', this.tokLine, this.tokCol, this.tokOffset);
        return;
      }
      const declaration = this.parseDeclaration(body);
      this.standalone = declaration.standalone === 'yes';
      this.h.xmlDeclaration?.(declaration, this.tokLine, this.tokCol, this.tokOffset);
      return;
    }
    if (this.overDepth > 0) return;
    if (dataCut) this.valueTooLong(`processing instruction ${target}`, this.tokLine, this.tokCol, this.tokOffset);
    this.h.processingInstruction?.(target, body, this.tokLine, this.tokCol, this.tokOffset);
  }

  private parseDeclaration(body: string): XmlDeclaration {
    const declaration: XmlDeclaration = {};
    // XML whitespace only (not \s, which takes U+FEFF or U+00A0 too).
    const pseudo = /[\x20\t\r\n]*([A-Za-z_:][\w.:-]*)[\x20\t\r\n]*=[\x20\t\r\n]*(?:"([^"]*)"|'([^']*)')/y;
    let at = 0;
    let problem = '';
    while (at < body.length) {
      pseudo.lastIndex = at;
      const m = pseudo.exec(body);
      if (m === null) {
        const rest = xmlTrim(body.slice(at));
        if (rest !== '') problem = `cannot read ${show(rest, 60)}`;
        break;
      }
      // XML 1.0 §2.8: version, then encoding, then standalone, each after whitespace.
      if (at > 0 && !isXmlSpace(body.charCodeAt(at)) && problem === '') problem = 'no space between pseudo-attributes';
      at = pseudo.lastIndex;
      const name = m[1] as string;
      const value = m[2] ?? m[3] ?? '';
      if (name === 'version' || name === 'encoding' || name === 'standalone') {
        if (declaration[name] !== undefined) problem = `${name} given twice`;
        else if (name !== 'version' && declaration.version === undefined) problem ||= 'version must come first';
        else if (name === 'encoding' && declaration.standalone !== undefined) problem ||= 'encoding must come before standalone';
        declaration[name] ??= value;
        // XML 1.0 §2.8 VersionNum is '1.' [0-9]+; libxml2 reads '1.' alone as 1.x too (a warning, the
        // document still parses and validates), and validate's verdict is libxml2's.
        if (name === 'version' && !/^1\.[0-9]*$/.test(value)) problem ||= `version ${show(value, 60)} is not 1.x`;
        if (name === 'encoding' && !/^[A-Za-z][A-Za-z0-9._-]*$/.test(value)) problem ||= `encoding name ${show(value, 60)} is malformed`;
        if (name === 'standalone' && value !== 'yes' && value !== 'no') problem ||= `standalone ${show(value, 60)} is not yes or no`;
      } else {
        problem ||= `unknown pseudo-attribute ${name}`;
      }
    }
    if (problem === '' && declaration.version === undefined) problem = 'no version';
    if (problem !== '') this.reportTok('xml/bad-declaration', `malformed XML declaration: ${problem}`, 'write <?xml version="1.0" encoding="UTF-8"?>');
    // XML 1.0 §2.8: a 1.0 processor reads a 1.x document as 1.0; libxml2 warns ("Unsupported version").
    else if (declaration.version !== '1.0') this.reportTok('xml/version', `XML version ${show(declaration.version as string, 60)} declared; sitemaps are XML 1.0, and some parsers refuse another version`, 'write <?xml version="1.0" encoding="UTF-8"?>');
    return declaration;
  }

  // ---- text -------------------------------------------------------------------------------------

  /** Where text that reaches the end of the buffer stops for now: before a partial reference, a trailing CR or high surrogate. */
  private textCut(buf: string, start: number, len: number): number {
    let end = heldTail(buf, start, len);
    const floor = Math.max(start, len - MAX_REF - 1);
    for (let k = len - 1; k >= floor; k--) {
      if (buf.charCodeAt(k) === 0x26) {
        if (scanRef(buf, k, len) === R_MORE) end = Math.min(end, k);
        break;
      }
    }
    return end;
  }

  /** Text buf[a, b) that ends at a tag or at the cut; `len` bounds reference scanning. */
  private textSegment(buf: string, a: number, b: number, len: number): void {
    if (this.overDepth !== 0) return;
    if (this.names.length === 0) {
      this.topLevelText(buf, a, b);
      return;
    }
    const base = this.bufBase;
    if (this.nextCdataEnd !== NO_AMP && this.nextCdataEnd < base + a) {
      const k = buf.indexOf(']]>', a);
      this.nextCdataEnd = k === -1 ? NO_AMP : k + base;
    }
    // XML 1.0 [14]: no ']]>' in text. Reported where it is, between the text before and after it.
    while (this.nextCdataEnd >= 0 && this.nextCdataEnd < base + b) {
      const k = this.nextCdataEnd - base;
      const next = buf.indexOf(']]>', k + 1);
      this.nextCdataEnd = next === -1 ? NO_AMP : next + base;
      if (k > a) this.textRun(buf, a, k, len);
      this.reportAt(k, 'xml/malformed-tag', "']]>' outside a CDATA section", 'escape > as &gt;');
      a = k;
    }
    this.textRun(buf, a, b, len);
  }

  /** Text buf[a, b) without a ']]>' (textSegment). */
  private textRun(buf: string, a: number, b: number, len: number): void {
    if (this.textOverflow) return;
    const base = this.bufBase;
    const absA = base + a;
    const absB = base + b;
    this.lines.countTo(absA);
    if (this.nextAmp !== NO_AMP && this.nextAmp < absA) {
      const k = buf.indexOf('&', a);
      this.nextAmp = k === -1 ? NO_AMP : k + base;
    }
    if ((this.nextAmp >= 0 && this.nextAmp < absB) || (this.lines.nextCR !== -1 && this.lines.nextCR < absB)) {
      this.decodeText(buf, a, b, len);
      return;
    }
    const s = buf.slice(a, b);
    if (b - a <= SHORT_TEXT ? hasForbiddenCandidate(buf, a, b) : HAS_FORBIDDEN_CANDIDATE.test(s)) {
      this.decodeText(buf, a, b, len);
    } else {
      this.emitText(s, absA);
    }
  }

  /**
   * The index of the first character XML forbids in buf[a, b) from `from`, or -1. A high surrogate that
   * ends the range is lone: one that ends a chunk is carried, so a range never ends inside a pair.
   */
  private forbiddenWithin(buf: string, a: number, b: number, from: number): number {
    if (from >= b) return -1;
    const k = indexOfNonXmlChar(a === 0 && b === buf.length ? buf : buf.slice(a, b), from - a);
    return k === -1 ? -1 : k + a;
  }

  /** Text with references, CRs or forbidden characters (kept): decoded, delivered up to each diagnostic. */
  private decodeText(buf: string, a: number, b: number, len: number): void {
    const base = this.bufBase;
    // The caches are at or after `a` here (textSegment refreshed them).
    let amp = this.nextAmp === NO_AMP ? Infinity : this.nextAmp - base;
    let cr = this.lines.nextCR === -1 ? Infinity : this.lines.nextCR - base;
    const firstBad = this.forbiddenWithin(buf, a, b, a);
    let bad = firstBad === -1 ? Infinity : firstBad;
    let out = '';
    let last = a;
    let pieceStart = a;
    for (;;) {
      const j = Math.min(amp, cr, bad);
      if (j >= b) break;
      if (j === cr) {
        out += buf.slice(last, j) + '\n';
        last = buf.charCodeAt(j + 1) === 0x0a ? j + 2 : j + 1;
        const k = buf.indexOf('\r', last);
        cr = k === -1 ? Infinity : k;
        continue;
      }
      const r = j === amp ? scanRef(buf, j, len) : R_RAW;
      const end = refEnd; // before any handler runs (another tokenizer would overwrite it)
      if (r === R_OK) {
        out += buf.slice(last, j) + refValue;
        last = end;
      } else {
        // A forbidden character or a reference not decoded: the text so far, then its diagnostic.
        out += buf.slice(last, j);
        if (out !== '') this.emitText(out, base + pieceStart);
        out = '';
        last = pieceStart = j;
        if (this.textOverflow) return;
        if (j === bad) {
          this.forbiddenAt(buf, j);
          const k = this.forbiddenWithin(buf, a, b, j + 1);
          bad = k === -1 ? Infinity : k;
          continue;
        }
        this.referenceProblem(r, buf, j, end, 0, 0);
      }
      const k = buf.indexOf('&', r === R_OK || r === R_UNDEFINED || r === R_INVALID ? end : j + 1);
      amp = k === -1 ? Infinity : k;
      this.nextAmp = amp === Infinity ? NO_AMP : amp + base;
    }
    out += buf.slice(last, b);
    if (out !== '') this.emitText(out, base + pieceStart);
  }

  /** `xml/invalid-char` for each character XML forbids in buf[a, b) (a comment's). */
  private forbiddenIn(buf: string, a: number, b: number): void {
    for (let k = this.forbiddenWithin(buf, a, b, a); k !== -1; k = this.forbiddenWithin(buf, a, b, k + 1)) this.forbiddenAt(buf, k);
  }

  /** `xml/invalid-char` at the current token for the first character XML forbids in `s` (PI data, a DOCTYPE). */
  private forbiddenInToken(s: string, what: string): boolean {
    const k = indexOfNonXmlChar(s, 0);
    if (k !== -1) this.reportTok('xml/invalid-char', `${codePointName(s, k)} in ${what} is a character XML 1.0 does not allow in a document`, 'remove the character');
    return k !== -1;
  }

  /** `xml/invalid-char` at index k of the buffer. */
  private forbiddenAt(buf: string, k: number): void {
    this.reportAt(k, 'xml/invalid-char', `${codePointName(buf, k)} is a character XML 1.0 does not allow in a document; kept, but the file is not well-formed`, 'remove the character (a control character copied from another program, most often)');
  }

  /**
   * Diagnose a reference that is not decoded; the text keeps it as written. `line` 0 means "at
   * index k of the buffer"; otherwise (line, column) is the position of `s[k]` in an attribute value.
   */
  private referenceProblem(r: number, s: string, k: number, end: number, line: number, column: number): void {
    let code: string;
    let message: string;
    let hint: string;
    if (r === R_UNDEFINED) {
      const name = s.slice(k + 1, end - 1);
      code = 'xml/undefined-entity';
      message = `undefined entity &${name}; kept as written`;
      hint = 'XML without a DTD defines only &amp; &lt; &gt; &quot; &apos;; write the character itself or a numeric reference such as &#233;';
    } else if (r === R_INVALID) {
      code = 'xml/invalid-char-ref';
      message = `${s.slice(k, end)} is not a character XML allows; kept as written`;
      hint = 'remove the reference';
    } else {
      code = 'xml/raw-ampersand';
      message = "'&' that does not start a reference is kept as written";
      hint = 'escape & as &amp;';
    }
    if (line === 0) this.reportAt(k, code, message, hint);
    else this.report(code, message, line, column, this.valueOffset + k, hint);
  }

  private emitText(s: string, at: number): void {
    if (this.textOverflow) return;
    this.lines.countTo(at);
    const line = this.lines.line;
    const column = at - this.lines.lineStart + 1;
    if (this.textLen === 0) {
      this.runLine = line;
      this.runCol = column;
      this.runOffset = at;
    }
    const room = this.maxValue - this.textLen;
    if (s.length > room) {
      const kept = cut(s, room);
      this.textLen = this.maxValue;
      this.textOverflow = true;
      if (kept !== '') this.h.text(kept, line, column, at);
      const element = this.names[this.names.length - 1] as string;
      this.valueTooLong(`the text of <${element}>`, this.runLine, this.runCol, this.runOffset);
      return;
    }
    this.textLen += s.length;
    this.h.text(s, line, column, at);
  }

  private cdataSegment(buf: string, a: number, b: number): void {
    if (this.overDepth !== 0) return;
    if (this.names.length === 0) {
      this.topLevelText(buf, a, b);
      return;
    }
    if (this.textOverflow) return;
    // A forbidden character splits the section: the text before it, its diagnostic, the rest with it.
    let from = a;
    for (let bad = this.forbiddenWithin(buf, a, b, a); bad !== -1; bad = this.forbiddenWithin(buf, a, b, bad + 1)) {
      if (bad > from) this.cdataPiece(buf, from, bad);
      if (this.textOverflow) return;
      this.forbiddenAt(buf, bad);
      from = bad;
    }
    this.cdataPiece(buf, from, b);
  }

  private cdataPiece(buf: string, a: number, b: number): void {
    const absA = this.bufBase + a;
    this.lines.countTo(absA);
    let s = buf.slice(a, b);
    if (this.lines.nextCR !== -1 && this.lines.nextCR < this.bufBase + b) s = s.replace(/\r\n?/g, '\n');
    this.emitText(s, absA);
  }

  /** Text outside the root element: whitespace is skipped, anything else is diagnosed once. */
  private topLevelText(buf: string, a: number, b: number): void {
    const after = this.rootSeen;
    if (after ? this.afterRootReported : this.beforeRootReported) return;
    for (let k = a; k < b; k++) {
      const c = buf.charCodeAt(k);
      // U+FEFF is no whitespace: the text comes after the byte order mark (decode.ts, textAfterBom).
      if (isXmlSpace(c)) continue;
      this.prologOnlyWs = false;
      if (after) {
        this.afterRootReported = true;
        this.reportAt(k, 'xml/content-after-root', 'text after the root element closed', 'a document has exactly one root element; were two files joined?');
      } else {
        this.beforeRootReported = true;
        this.reportAt(k, 'xml/content-before-root', 'text before the root element', 'is this an XML file?');
      }
      return;
    }
  }

  // ---- attribute values -------------------------------------------------------------------------

  /** Decode references and normalise whitespace in an attribute value (from index `from`, the first special). */
  private decodeValue(raw: string, from: number): string {
    let out = raw.slice(0, from);
    let last = from;
    const n = raw.length;
    for (let j = from; j < n; j++) {
      const c = raw.charCodeAt(j);
      if (c === 0x26) {
        const r = scanRef(raw, j, n);
        const end = refEnd; // before any handler runs (another tokenizer would overwrite it)
        if (r === R_OK) {
          out += raw.slice(last, j) + refValue;
          last = end;
          j = end - 1;
        } else {
          const [line, column] = this.valuePosition(raw, j);
          this.referenceProblem(r === R_MORE ? R_RAW : r, raw, j, end, line, column);
          if (r === R_UNDEFINED || r === R_INVALID) j = end - 1;
        }
      } else if (c === 0x0a || c === 0x09 || c === 0x0d) {
        out += raw.slice(last, j) + ' ';
        if (c === 0x0d && raw.charCodeAt(j + 1) === 0x0a) j++;
        last = j + 1;
      } else if ((c < 0x20 || c >= 0xd800) && isNonXmlCharAt(raw, j)) {
        const [line, column] = this.valuePosition(raw, j);
        this.report('xml/invalid-char', `${codePointName(raw, j)} in the value of attribute ${this.attrName} is a character XML 1.0 does not allow in a document; kept, but the file is not well-formed`, line, column, this.valueOffset + j, 'remove the character');
      }
    }
    return out + raw.slice(last);
  }

  /** Line and column of `raw[k]` in the value being read; incremental, so many diagnostics stay linear. */
  private valuePosition(raw: string, k: number): [number, number] {
    const lines = this.vpLines;
    if (raw !== this.vpRaw || k < lines.offset) {
      this.vpRaw = raw;
      lines.reset(this.valueLine, 1 - this.valueCol);
    }
    lines.advance(raw, lines.offset, k);
    return [lines.line, lines.column];
  }

  // ---- end of input -----------------------------------------------------------------------------

  private finish(): void {
    const state = this.state;
    const eof = this.bufBase;
    this.lines.countTo(eof);
    if (state !== S_TEXT) {
      const inside =
        state === S_COMMENT ? 'a comment'
        : state === S_CDATA ? 'a CDATA section'
        : state === S_PI_TARGET || state === S_PI_DATA ? 'a processing instruction'
        : state === S_DOCTYPE ? 'the DOCTYPE declaration'
        : state === S_END_NAME || state === S_AFTER_END_NAME ? 'an end tag'
        : 'a start tag';
      this.reportTok('xml/truncated', `the input ends inside ${inside}`, 'the file looks cut short');
      this.state = S_TEXT;
      this.acc = '';
      this.attrs = null;
      this.attrNames = null;
    }
    const line = this.lines.line;
    const column = eof - this.lines.lineStart + 1;
    if (this.overDepth > 0) {
      this.report('xml/unclosed-element', `${plural(this.overDepth, 'element')} nested beyond maxDepth not closed`, line, column, eof);
      this.overDepth = 0;
    }
    const names = this.names;
    for (let k = names.length - 1; k >= 0; k--) {
      const name = names[k] as string;
      this.report('xml/unclosed-element', `element <${name}> opened at ${this.openLine[k] as number}:${this.openCol[k] as number} is not closed`, line, column, eof, `add </${name}>`);
      this.pop();
      this.h.endTag(name, line, column, eof);
    }
    if (!this.rootSeen) this.report('xml/no-root-element', 'no root element', line, column, eof, 'is this an XML file?');
  }
}

// scanRef's results beyond its return value (module-level to avoid allocating per reference).
let refEnd = 0;
let refValue = '';

/** Read the reference at `s[k] === '&'`, looking no further than `end`. Sets refEnd (after ';') and refValue. */
function scanRef(s: string, k: number, end: number): number {
  let j = k + 1;
  if (j >= end) return R_MORE;
  let c = s.charCodeAt(j);
  if (c === 0x23) {
    j++;
    if (j >= end) return R_MORE;
    let hex = false;
    if (s.charCodeAt(j) === 0x78) {
      hex = true;
      j++;
    }
    const digits = j;
    let cp = 0;
    for (; j < end && j - k < MAX_REF; j++) {
      c = s.charCodeAt(j);
      let d: number;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (hex && c >= 0x61 && c <= 0x66) d = c - 0x57;
      else if (hex && c >= 0x41 && c <= 0x46) d = c - 0x37;
      else break;
      cp = cp * (hex ? 16 : 10) + d;
      if (cp > 0x10ffff) cp = 0x110000;
    }
    if (j - k >= MAX_REF) return R_RAW;
    if (j >= end) return R_MORE;
    if (c !== 0x3b || j === digits) return R_RAW;
    refEnd = j + 1;
    if (!isXmlChar(cp)) return R_INVALID;
    refValue = String.fromCodePoint(cp);
    return R_OK;
  }
  if (!isNameStart(c)) return R_RAW;
  j++;
  while (j < end && j - k < MAX_REF && isNameChar(s.charCodeAt(j))) j++;
  if (j - k >= MAX_REF) return R_RAW;
  if (j >= end) return R_MORE;
  if (s.charCodeAt(j) !== 0x3b) return R_RAW;
  refEnd = j + 1;
  const value = predefined(s.slice(k + 1, j));
  if (value === undefined) return R_UNDEFINED;
  refValue = value;
  return R_OK;
}
