// The XML sitemap reader (issue #3): tokens from XmlTokenizer → entries of the one model (model.ts) and
// diagnostics, for urlset, sitemapindex, RSS 2.0, Atom 1.0 and Atom 0.3.
//
// Push-based and synchronous: feed it to an XmlTokenizer (it is the tokenizer's handler), then call
// `end()` after `tokenizer.end()`. Entries go to the sink as soon as their element closes.
//
// What it does:
// - The root decides the format (by namespace URI and local name, so a sitemap namespace bound to a
//   prefix works). urlset / sitemapindex in a legacy, missing or wrong namespace are read anyway, with
//   the diagnostic `sitemapNamespaceProblem` gives; children are then matched in the root's namespace
//   (also in the sitemaps.org namespace, a legacy one, or none). An HTML root is "sitemap is HTML"
//   (`format/html`) and no URL is taken from it; any other root is `format/unknown-root`.
// - Values are trimmed (XML whitespace). An invalid value is kept as its raw text with a diagnostic
//   (priority, changefreq, lastmod, string-typed extension values); an invalid NUMBER of an extension
//   (video:duration `2459.1`) is omitted from the entry and its raw text is in the diagnostic's message,
//   because the model types it as a number.
// - A `loc` is reported as written (not normalised) but checked: missing or empty → `loc/missing`,
//   not an absolute http(s) URL → `loc/not-absolute`; and it must be TRUSTED: when the tokenizer
//   reported a problem inside its text (raw `&` or `<`, undefined entity, value cut at the length
//   budget, end of input), when it contains markup, or when its entry element (`url`, `sitemap`,
//   `item`, `entry`) was closed by recovery (mismatched or unclosed tag, truncated input), the entry is
//   dropped with `loc/untrusted`, which names the reason. Other text values keep their text (the
//   tokenizer's own diagnostic says what is odd). URLs inside extensions follow the same rule: an image
//   whose image:loc is untrusted, a video with any untrusted URL, an hreflang alternate whose href is
//   untrusted are dropped with `url/untrusted`; an untrusted image:license is omitted.
// - Unknown elements in the sitemap, image, video or news namespace, and known ones out of place, are
//   skipped with `element/unexpected` (warning): they are typos more often than not. Elements of any
//   other namespace (mobile, pagemap, geo, ... and news:geo_locations, which Google dropped) are skipped
//   silently: the protocol allows any extension. In feeds, everything the reader does not need is
//   skipped silently.
// - Required sub-elements of an extension that are missing (video:title, news:name, ...) are read as ''
//   with `video/invalid` / `news/invalid`; an image without image:loc and an alternate without hreflang
//   or href are dropped with `image/invalid` / `alternate/invalid`.
// - A single-valued element given twice: the first is kept (`element/duplicate`). Non-blank text directly
//   inside urlset / url / sitemap / image:image ...: `element/stray-text`, once per entry.
// - RSS 2.0: `<item>` → loc from `<link>`, else from a `<guid>` that is a permalink (no isPermaLink, or
//   "true"); lastmod from `<pubDate>` (RFC 822, converted to W3C Datetime; `lastmod/weekday` for a
//   wrong weekday, `lastmod/lenient` for a two-digit year, a missing or military zone...), else
//   `<dc:date>`. Atom 1.0 / 0.3: `<entry>` → loc from the first `<link rel="alternate">`, else the first
//   link without rel (other rels are ignored); relative hrefs are resolved against xml:base (feed, entry,
//   link), else against the feed's own alternate link (`loc/relative`, info), else `loc/not-absolute`;
//   lastmod from `<updated>` / `<modified>`, else `<published>` / `<issued>` / `<created>` (a date
//   without a time: `lastmod/date-only`, warning, accepted).
// - Budgets: past `maxEntries` delivered entries, `budget/entries` once and the rest is skipped unread.
//
// Speed: element names are classified once per qualified name (a Map cache, invalidated when namespace
// bindings change); contexts are small integers on a stack; text is concatenated only inside the field
// being read; the only per-entry allocations are the entry object itself and its position.

import { DiagnosticCollector, type Diagnostic, type Severity } from '../diagnostics.js';
import { SitemapError } from '../errors.js';
import { CHANGEFREQS, NS, type AlternateLink, type Changefreq, type ImageEntry, type NewsEntry, type SitemapRef, type UrlEntry, type VideoEntry, type VideoTvShow } from '../model.js';
import { parseW3cDatetime, w3cDatetimeProblem } from '../datetime.js';
import { XmlTokenizer, type XmlAttribute, type XmlLane, type XmlTokenHandler } from '../xml/tokenizer.js';
import { NamespaceScope } from '../xml/namespaces.js';
import { LEGACY_SITEMAP_NS, SITEMAP_NS, formatOfRoot, sitemapNamespaceProblem } from './sniff.js';
import { hasScheme, isAbsoluteHttpUrl, resolveBase, resolveReference, rfc822ToW3c } from './feeds.js';
import type { ReaderBudgets, ReaderSink, SitemapFormat } from './types.js';
import { LANE_FIELDS, Lane, R_COLUMN, R_HASH_1, R_HASH_2, R_LINE, laneSitemapRef, laneUrlEntry, type LaneReading } from './lane.js';
import { isBlank, isStrictW3c, isXmlSpace, priorityTenths, xmlTrim } from './values.js';
import { IMAGE, NEWS, VIDEO, isChangefreq, prefixOf, type AttributeDecl, type ElementDecl, type ModelValue, type Particle } from '../vocabulary.js';
import { anyUri } from '../validate/xsd-types.js';

/** The diagnostic codes the XML reader itself reports, with their severity (the tokenizer's are in XML_TOKENIZER_CODES). */
export const XML_READER_CODES: Readonly<Record<string, Severity>> = Object.freeze({
  'format/html': 'error',
  'format/unknown-root': 'error',
  'namespace/legacy': 'warning',
  'namespace/missing': 'warning',
  'namespace/wrong': 'error',
  'urlset/empty': 'warning',
  'sitemapindex/empty': 'warning',
  'feed/empty': 'warning',
  'loc/missing': 'error',
  'loc/not-absolute': 'error',
  'loc/untrusted': 'error',
  'loc/relative': 'info',
  'lastmod/invalid': 'error',
  'lastmod/lenient': 'warning',
  'lastmod/date-only': 'warning',
  'lastmod/weekday': 'warning',
  'changefreq/invalid': 'error',
  'changefreq/case': 'warning',
  'priority/invalid': 'error',
  'priority/out-of-range': 'error',
  'image/invalid': 'error',
  'video/invalid': 'error',
  'news/invalid': 'error',
  'alternate/invalid': 'error',
  'url/untrusted': 'error',
  'element/unexpected': 'warning',
  'element/duplicate': 'warning',
  'element/stray-text': 'warning',
  'budget/entries': 'error',
});

const DEFAULT_MAX_ENTRIES = 1_000_000;
const DEFAULT_MAX_DEPTH = 256;
const DEFAULT_MAX_VALUE_LENGTH = 1024 * 1024;

// ---- contexts (what the innermost open element is) -------------------------------------------------
const C_SKIP = 0;
const C_TOP = 1;
const C_URLSET = 2;
const C_INDEX = 3;
const C_URL = 4;
const C_SITEMAP = 5;
const C_IMAGE = 6;
const C_VIDEO = 7;
const C_TVSHOW = 8;
const C_NEWS = 9;
const C_PUBLICATION = 10;
const C_FIELD = 11;
const C_RSS = 12;
const C_CHANNEL = 13;
const C_ITEM = 14;
const C_FEED = 15;
const C_ENTRY = 16;
/** Names shorter than this are cached in per-length buckets (compared with ===, no hashing). */
const NAME_BUCKETS = 48;
/** Flag on a context-stack slot: the element declared namespaces (the name cache is cleared at its end). */
const NS_DECLARED = 0x100;

const CONTEXT_NAMES: readonly string[] = ['', '', 'urlset', 'sitemapindex', 'url', 'sitemap', 'image:image', 'video:video', 'video:tvshow', 'news:news', 'news:publication', '', 'rss', 'channel', 'item', 'feed', 'entry'];

// ---- element ids -------------------------------------------------------------------------------------
const E_URLSET = 1;
const E_SITEMAPINDEX = 2;
const E_URL = 3;
const E_SITEMAP = 4;
const E_LOC = 5;
const E_LASTMOD = 6;
const E_CHANGEFREQ = 7;
const E_PRIORITY = 8;

const E_IMAGE = 10;
const E_IMAGE_LOC = 11;
const E_IMAGE_CAPTION = 12;
const E_IMAGE_GEO = 13;
const E_IMAGE_TITLE = 14;
const E_IMAGE_LICENSE = 15;

const E_VIDEO = 20;
const E_V_TVSHOW = 21;
const E_V_THUMB = 22;
const E_V_TITLE = 23;
const E_V_DESCRIPTION = 24;
const E_V_CONTENT_LOC = 25;
const E_V_PLAYER_LOC = 26;
const E_V_DURATION = 27;
const E_V_EXPIRATION = 28;
const E_V_RATING = 29;
const E_V_SEGMENT = 30;
const E_V_VIEWS = 31;
const E_V_PUBDATE = 32;
const E_V_TAG = 33;
const E_V_CATEGORY = 34;
const E_V_FAMILY = 35;
const E_V_RESTRICTION = 36;
const E_V_GALLERY = 37;
const E_V_PRICE = 38;
const E_V_SUBSCRIPTION = 39;
const E_V_UPLOADER = 40;
const E_V_PLATFORM = 41;
const E_V_LIVE = 42;
const E_V_ID = 43;
const E_V_SHOW_TITLE = 50;
const E_V_VIDEO_TYPE = 51;
const E_V_EPISODE_TITLE = 52;
const E_V_SEASON = 53;
const E_V_EPISODE = 54;
const E_V_PREMIER = 55;

const E_NEWS = 60;
const E_N_PUBLICATION = 61;
const E_N_NAME = 62;
const E_N_LANGUAGE = 63;
const E_N_ACCESS = 64;
const E_N_GENRES = 65;
const E_N_PUBDATE = 66;
const E_N_TITLE = 67;
const E_N_KEYWORDS = 68;
const E_N_TICKERS = 69;

const E_XHTML_LINK = 70;

const E_RSS = 80;
const E_CHANNEL = 81;
const E_ITEM = 82;
const E_R_LINK = 83;
const E_R_GUID = 84;
const E_R_PUBDATE = 85;
const E_R_DC_DATE = 86;

const E_FEED = 90;
const E_ENTRY = 91;
const E_A_LINK = 92;
const E_A_UPDATED = 93;
const E_A_PUBLISHED = 94;
const E_A_MODIFIED = 95;
const E_A_ISSUED = 96;
const E_A_CREATED = 97;

/** An element of a known namespace with an unknown name: skipped with `element/unexpected`. */
const E_UNKNOWN = 254;
/** An element of another namespace: skipped silently. */
const E_OTHER = 255;

const SITEMAP_ELEMENTS = new Map<string, number>([
  ['urlset', E_URLSET], ['sitemapindex', E_SITEMAPINDEX], ['url', E_URL], ['sitemap', E_SITEMAP],
  ['loc', E_LOC], ['lastmod', E_LASTMOD], ['changefreq', E_CHANGEFREQ], ['priority', E_PRIORITY],
]);
const IMAGE_ELEMENTS = new Map<string, number>([
  ['image', E_IMAGE], ['loc', E_IMAGE_LOC], ['caption', E_IMAGE_CAPTION], ['geo_location', E_IMAGE_GEO], ['title', E_IMAGE_TITLE], ['license', E_IMAGE_LICENSE],
]);
const VIDEO_ELEMENTS = new Map<string, number>([
  ['video', E_VIDEO], ['tvshow', E_V_TVSHOW], ['thumbnail_loc', E_V_THUMB], ['title', E_V_TITLE], ['description', E_V_DESCRIPTION],
  ['content_loc', E_V_CONTENT_LOC], ['player_loc', E_V_PLAYER_LOC], ['duration', E_V_DURATION], ['expiration_date', E_V_EXPIRATION],
  ['rating', E_V_RATING], ['content_segment_loc', E_V_SEGMENT], ['view_count', E_V_VIEWS], ['publication_date', E_V_PUBDATE],
  ['tag', E_V_TAG], ['category', E_V_CATEGORY], ['family_friendly', E_V_FAMILY], ['restriction', E_V_RESTRICTION],
  ['gallery_loc', E_V_GALLERY], ['price', E_V_PRICE], ['requires_subscription', E_V_SUBSCRIPTION], ['uploader', E_V_UPLOADER],
  ['platform', E_V_PLATFORM], ['live', E_V_LIVE], ['id', E_V_ID], ['show_title', E_V_SHOW_TITLE], ['video_type', E_V_VIDEO_TYPE],
  ['episode_title', E_V_EPISODE_TITLE], ['season_number', E_V_SEASON], ['episode_number', E_V_EPISODE], ['premier_date', E_V_PREMIER],
]);
const NEWS_ELEMENTS = new Map<string, number>([
  ['news', E_NEWS], ['publication', E_N_PUBLICATION], ['name', E_N_NAME], ['language', E_N_LANGUAGE], ['access', E_N_ACCESS],
  ['genres', E_N_GENRES], ['publication_date', E_N_PUBDATE], ['title', E_N_TITLE], ['keywords', E_N_KEYWORDS], ['stock_tickers', E_N_TICKERS],
  ['geo_locations', E_OTHER],
]);
/** Dublin Core: RSS feeds without pubDate often carry `<dc:date>` (W3C Datetime), read as a fallback. */
const DC_NS = 'http://purl.org/dc/elements/1.1/';
const RSS_ELEMENTS = new Map<string, number>([
  ['rss', E_RSS], ['channel', E_CHANNEL], ['item', E_ITEM], ['link', E_R_LINK], ['guid', E_R_GUID], ['pubDate', E_R_PUBDATE],
]);
const ATOM_ELEMENTS = new Map<string, number>([
  ['feed', E_FEED], ['entry', E_ENTRY], ['link', E_A_LINK], ['updated', E_A_UPDATED], ['published', E_A_PUBLISHED],
]);
const ATOM03_ELEMENTS = new Map<string, number>([
  ['feed', E_FEED], ['entry', E_ENTRY], ['link', E_A_LINK], ['modified', E_A_MODIFIED], ['issued', E_A_ISSUED], ['created', E_A_CREATED],
]);

/** Names of fields as written in the XML, for messages. */
const FIELD_NAMES: string[] = [];
for (const [prefix, table] of [['', SITEMAP_ELEMENTS], ['image:', IMAGE_ELEMENTS], ['video:', VIDEO_ELEMENTS], ['news:', NEWS_ELEMENTS], ['', RSS_ELEMENTS], ['', ATOM_ELEMENTS], ['', ATOM03_ELEMENTS]] as const) {
  for (const [local, id] of table) if (id !== E_OTHER) FIELD_NAMES[id] = prefix + local;
}
FIELD_NAMES[E_R_DC_DATE] = 'dc:date';

/** Each image, video and news element's declaration (vocabulary.ts) by its id, and whether it may repeat. */
interface ExtensionField {
  readonly decl: ElementDecl;
  readonly repeated: boolean;
  /** Its attributes that fill a model property. */
  readonly attributes: readonly (readonly [string, AttributeDecl])[];
}
const EXTENSION_FIELDS: ExtensionField[] = [];
function declareFields(parent: ElementDecl, ids: ReadonlyMap<string, number>): void {
  for (const p of parent.type.sequence ?? []) {
    const decl = p.element as ElementDecl;
    const id = ids.get(decl.name);
    if (id === undefined) throw new Error(`xml-reader: the vocabulary's <${decl.name}> in ${decl.ns} has no element id`);
    EXTENSION_FIELDS[id] = { decl, repeated: p.max > 1, attributes: Object.entries(decl.type.attributes ?? {}).filter(([, a]) => a.prop !== undefined) };
    declareFields(decl, ids);
  }
}
declareFields(IMAGE, IMAGE_ELEMENTS);
declareFields(VIDEO, VIDEO_ELEMENTS);
declareFields(NEWS, NEWS_ELEMENTS);
const TVSHOW = (EXTENSION_FIELDS[E_V_TVSHOW] as ExtensionField).decl;
const PUBLICATION = (EXTENSION_FIELDS[E_N_PUBLICATION] as ExtensionField).decl;

/** The required text children of `decl` that `owner` lacks, by name, each read as '' (the model requires them). */
function lacking(decl: ElementDecl, owner: Record<string, unknown>): string[] {
  const missing: string[] = [];
  for (const p of decl.type.sequence as readonly Particle[]) {
    const e = p.element as ElementDecl;
    if (p.min === 0 || e.type.sequence !== undefined || owner[e.prop as string] !== undefined) continue;
    missing.push(`${prefixOf(e.ns) as string}:${e.name}`);
    owner[e.prop as string] = '';
  }
  return missing;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const INTEGER = /^\+?\d+$/;
/** Codes of tokenizer diagnostics that close elements by recovery (each is followed by its synthesised end tag). */
const RECOVERY_CLOSE = new Set(['xml/mismatched-tag', 'xml/unclosed-element']);

/** Split on commas, trim, drop empty items. */
function commaList(s: string): string[] {
  const out: string[] = [];
  for (const part of s.split(',')) {
    const t = xmlTrim(part);
    if (t !== '') out.push(t);
  }
  return out;
}

/** Split on XML whitespace, drop empty items. */
function spaceList(s: string): string[] {
  const out: string[] = [];
  for (const part of s.split(/[\x20\x09\x0a\x0d]+/)) if (part !== '') out.push(part);
  return out;
}

/** A short, quoted rendering of a value for a message. */
function show(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}...` : s);
}

function attr(attributes: readonly XmlAttribute[], name: string): XmlAttribute | undefined {
  for (let i = 0; i < attributes.length; i++) {
    const a = attributes[i] as XmlAttribute;
    if (a.name === name) return a;
  }
  return undefined;
}

function attrValue(attributes: readonly XmlAttribute[], name: string): string | undefined {
  const a = attr(attributes, name);
  return a === undefined ? undefined : xmlTrim(a.value);
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new SitemapError('ERR_SITEMAP_INVALID_OPTION', `reader budget ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

type Mutable<T> = { -readonly [K in keyof T]?: T[K] };

/** Characters of stray text kept for its report, from the first that is not blank (a loc is shorter than 2,048). */
const RUN_KEPT = 4096;

/** Tokenizer diagnostics held for the next tag's attributes, at most (see diagOffsets). */
const HELD_DIAGNOSTICS = 1024;

/**
 * Reads a sitemap from XML tokens. Pass it as the handler of an `XmlTokenizer`; call `end()` after
 * the tokenizer's `end()`. Tokenizer diagnostics are forwarded to the sink, in order, interleaved with
 * the reader's own (which come when the element they concern closes).
 */
export class XmlSitemapReader implements XmlTokenHandler {
  private readonly sink: ReaderSink;
  private readonly maxEntries: number;
  private readonly scope = new NamespaceScope();
  /** Element ids of qualified names seen, by name length (short names), and in a Map (long ones). */
  private readonly byLength: ({ names: string[]; ids: number[] } | undefined)[] = [];
  private readonly names = new Map<string, number>();

  // Document.
  private format: SitemapFormat | undefined;
  private rootId = 0;
  private rootUri = '';
  private rootLine = 0;
  private rootCol = 0;
  private rootOffset = 0;
  private contentBeforeRoot = false;
  private ended = false;

  // Element stack: the context of each open element's parent (| NS_DECLARED).
  private ctx = C_TOP;
  private readonly stack: number[] = [];

  // Entries.
  private delivered = 0;
  private entriesSeen = 0;
  private budgetReported = false;
  private eLine = 0;
  private eCol = 0;
  private eOffset = 0;
  private loc: string | undefined;
  private locProblem = '';
  private locHint: string | undefined;
  private locLine = 0;
  private locCol = 0;
  private locOffset = 0;
  private lastmod: string | undefined;
  private changefreq: string | undefined;
  private priority: number | string | undefined;
  private images: ImageEntry[] | undefined;
  private videos: VideoEntry[] | undefined;
  private news: NewsEntry | undefined;
  private alternates: AlternateLink[] | undefined;
  private strayReported = false;
  private strayText = '';
  /**
   * Character data directly inside a container element, since the last tag (checked at the next tag):
   * its start, and no more of it than a report needs (RUN_KEPT characters from the first that is not
   * blank). Text between two tags can be megabytes of pieces (a run of raw `<`), kept whole it was a
   * chain of a million string pieces (issue 22).
   */
  private runStarted = false;
  private run = '';
  private runLine = 0;
  private runCol = 0;
  private runOffset = 0;

  // Extension items being read.
  private img: Mutable<ImageEntry> = {};
  private imgProblem = '';
  private imgLine = 0;
  private imgCol = 0;
  private imgOffset = 0;
  private vid: Mutable<VideoEntry> = {};
  private vidProblem = '';
  private vidLine = 0;
  private vidCol = 0;
  private vidOffset = 0;
  private tv: Mutable<VideoTvShow> = {};
  private tvLine = 0;
  private tvCol = 0;
  private tvOffset = 0;
  private nws: Mutable<NewsEntry> = {};
  private pub: { name?: string; language?: string } = {};
  private nwsLine = 0;
  private nwsCol = 0;
  private nwsOffset = 0;

  // Feeds.
  private feedBase: string | undefined;
  private feedLink: string | undefined;
  private entryBase: string | undefined;
  private href: string | undefined;
  /** The Atom link in `href` has rel="alternate" written out (it wins over a link without rel). */
  private hrefExplicit = false;
  private hrefProblem = '';
  private guid: string | undefined;
  private guidProblem = '';
  private guidPermaLink = true;
  private date1: string | undefined;
  private date1Id = 0;
  private date1Line = 0;
  private date1Col = 0;
  private date1Offset = 0;
  private date2: string | undefined;
  private date2Id = 0;
  private date2Line = 0;
  private date2Col = 0;
  private date2Offset = 0;

  // The field being read.
  private field = 0;
  private value = '';
  private fieldProblem = '';
  private fieldProblemHint: string | undefined;
  private fieldAttrs: readonly XmlAttribute[] = [];
  /** Why the `info` attribute of the current video:uploader cannot be trusted ('' when it can). */
  private infoProblem = '';
  private fLine = 0;
  private fCol = 0;
  private fOffset = 0;

  // Tokenizer diagnostics since the last tag (their offsets), and the offset of the last recovery close.
  // Only attributeProblem reads them, for the tag that comes next; text full of problems between two
  // tags (a run of raw `<`) must not make them grow (issue 22): past HELD_DIAGNOSTICS the oldest half
  // is let go, and an attribute that starts before `diagDroppedBefore` is not trusted.
  private readonly diagOffsets: number[] = [];
  private readonly diagCodes: string[] = [];
  private diagDroppedBefore = -1;
  private synthAt = -1;
  private synthCode = '';

  /** Set while inside a urlset or sitemapindex: runs of entries are read by the lane (lane.ts). */
  lane: XmlLane | null = null;
  /** takeRun's copy of the lane's records. */
  private laneRecords = new Int32Array(0);
  /** The fingerprint of a lane url's loc, handed to the sink (ReaderSink.wantsLocHashes). */
  private readonly locHash = new Int32Array(2);

  constructor(sink: ReaderSink, budgets: ReaderBudgets = {}) {
    this.sink = sink;
    this.maxEntries = positiveInteger(budgets.maxEntries, DEFAULT_MAX_ENTRIES, 'maxEntries');
  }

  // ---- tokenizer events ----------------------------------------------------------------------------

  startTag(name: string, attributes: readonly XmlAttribute[], _selfClosing: boolean, line: number, column: number, offset: number): void {
    const parent = this.ctx;
    if (parent === C_SKIP) {
      this.stack.push(C_SKIP);
      return;
    }
    if (this.runStarted) this.flushRun();
    let slot = parent;
    // Only elements that declare namespaces get a scope frame (bindings do not change elsewhere).
    for (let i = 0; i < attributes.length; i++) {
      const n = (attributes[i] as XmlAttribute).name;
      if (n.charCodeAt(0) === 0x78 && n.startsWith('xmlns')) {
        slot |= NS_DECLARED;
        this.scope.push(attributes);
        this.clearNames();
        break;
      }
    }
    this.stack.push(slot);
    const id = this.lookupName(name);
    const ctx = this.enter(parent, id, name, attributes, line, column, offset);
    this.ctx = ctx;
    if (parent === C_TOP && (ctx === C_URLSET || ctx === C_INDEX)) this.installLane(ctx, attributes);
    if (this.diagOffsets.length !== 0) this.forgetDiagnostics();
  }

  endTag(_name: string, _line: number, _column: number, offset: number): void {
    const synth = offset === this.synthAt;
    this.synthAt = -1;
    if (this.diagOffsets.length !== 0) this.forgetDiagnostics();
    if (this.runStarted) this.flushRun();
    const ctx = this.ctx;
    const slot = this.stack.pop() as number;
    const parent = slot & 0xff;
    if (ctx !== C_SKIP) this.leave(ctx, synth);
    if (parent === C_TOP) this.lane = null;
    if ((slot & NS_DECLARED) !== 0) {
      this.scope.pop();
      this.clearNames();
    }
    this.ctx = parent;
  }

  text(text: string, line: number, column: number, offset: number): void {
    const ctx = this.ctx;
    if (ctx === C_FIELD) {
      this.value += text;
      return;
    }
    if (ctx === C_SKIP || ctx >= C_RSS || this.strayReported) return;
    if (!this.runStarted) {
      this.runStarted = true;
      this.runLine = line;
      this.runCol = column;
      this.runOffset = offset;
    }
    const room = RUN_KEPT - this.run.length;
    if (room <= 0) return;
    // Leading blanks are not kept: a run that is only blanks is no stray text.
    let from = 0;
    if (this.run === '') while (from < text.length && isXmlSpace(text.charCodeAt(from))) from++;
    if (from < text.length) this.run += text.length - from > room ? text.slice(from, from + room) : from === 0 ? text : text.slice(from);
  }

  /** Text directly inside a container (a run that may have come in pieces): reported once per entry when not blank. */
  private flushRun(): void {
    const run = this.run;
    this.run = '';
    this.runStarted = false;
    if (isBlank(run)) return;
    const ctx = this.ctx;
    const text = xmlTrim(run);
    this.strayReported = true;
    if (ctx === C_URL || ctx === C_SITEMAP) this.strayText = text;
    this.report('element/stray-text', `text ${show(text)} directly inside <${CONTEXT_NAMES[ctx] as string}> is ignored`, this.runLine, this.runCol, this.runOffset, 'only elements belong here');
  }

  diagnostic(diagnostic: Diagnostic): void {
    this.sink.diagnostic(diagnostic);
    const code = diagnostic.code;
    const offset = diagnostic.offset ?? -1;
    if (RECOVERY_CLOSE.has(code)) {
      this.synthAt = offset;
      this.synthCode = code;
    } else if (code === 'xml/content-before-root') {
      this.contentBeforeRoot = true;
    }
    if (this.ctx === C_FIELD && this.fieldProblem === '') {
      this.fieldProblem = `${code}: ${diagnostic.message}`;
      this.fieldProblemHint = diagnostic.hint;
    }
    this.diagOffsets.push(offset);
    this.diagCodes.push(code);
    if (this.diagOffsets.length > HELD_DIAGNOSTICS) {
      const drop = HELD_DIAGNOSTICS / 2;
      this.diagDroppedBefore = Math.max(this.diagDroppedBefore, (this.diagOffsets[drop - 1] as number) + 1);
      this.diagOffsets.splice(0, drop);
      this.diagCodes.splice(0, drop);
    }
  }

  private forgetDiagnostics(): void {
    this.diagOffsets.length = 0;
    this.diagCodes.length = 0;
    this.diagDroppedBefore = -1;
  }

  /** Call after the tokenizer's `end()`: reports the format if no root was seen. Idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.format === undefined) this.setFormat(this.contentBeforeRoot ? 'unknown' : 'empty');
  }

  // ---- the lane ----------------------------------------------------------------------------------

  /** Offer the tokenizer the lane for the root's entries, when the root's names are the plain ones and WebAssembly runs. */
  private installLane(ctx: number, attributes: readonly XmlAttribute[]): void {
    const plain = (names: string[], ids: number[]): boolean => names.every((n, i) => this.lookupName(n) === ids[i]);
    if (!plain(['url', 'sitemap', 'loc', 'lastmod', 'changefreq', 'priority'], [E_URL, E_SITEMAP, E_LOC, E_LASTMOD, E_CHANGEFREQ, E_PRIORITY])) return;
    const lane = Lane.create();
    if (lane === undefined) return;
    const reading: LaneReading = { sitemap: ctx !== C_URLSET, readerForms: true };
    for (let i = 0; i < attributes.length; i++) {
      const { name, value } = attributes[i] as XmlAttribute;
      if (!name.startsWith('xmlns:')) continue;
      const prefix = name.slice(6);
      if (value === NS.image && plain([`${prefix}:image`, `${prefix}:loc`], [E_IMAGE, E_IMAGE_LOC])) reading.image = prefix;
      else if (value === NS.xhtml && plain([`${prefix}:link`], [E_XHTML_LINK])) reading.xhtml = prefix;
    }
    lane.configure(reading);
    // A url holds up to image:image > image:loc (three levels).
    this.lane = reading.sitemap === true
      ? { depth: 1, nesting: 2, endTag: '</sitemap>', readRun: (buf, at, lines, maxLength) => this.takeRun(lane, true, buf, at, lines, maxLength) }
      : { depth: 1, nesting: 3, endTag: '</url>', readRun: (buf, at, lines, maxLength) => this.takeRun(lane, false, buf, at, lines, maxLength) };
  }

  /**
   * A run of `<url>` (or `<sitemap>`) elements read by the lane from `at`, delivered as the events
   * deliver each: the index after the last, with the line state there in `lines` (XmlLane.readRun),
   * or -1 when it read none.
   */
  private takeRun(lane: Lane, sitemap: boolean, buf: string, at: number, lines: Int32Array, maxLength: number): number {
    const budget = this.maxEntries - this.delivered;
    if (budget <= 0) return -1;
    const hashed = !sitemap && this.sink.wantsLocHashes === true;
    const count = lane.scan(buf, at, lines[0] as number, lines[1] as number, maxLength, budget, hashed);
    if (count === 0) return -1;
    // The records are copied (into this reader's own array, kept from run to run): a sink may read
    // another document meanwhile, and that reading would write over the lane's.
    const size = count * LANE_FIELDS;
    let records = this.laneRecords;
    if (records.length < size) records = this.laneRecords = new Int32Array(Math.max(size, 2 * records.length));
    records.set(lane.records.subarray(0, size));
    const extras = lane.extras.slice();
    const end = lane.stopAfter(count, lines);
    const locHash = this.locHash;
    for (let r = 0; r < size; r += LANE_FIELDS) {
      this.beforeLaneEntry();
      const position = { line: records[r + R_LINE] as number, column: records[r + R_COLUMN] as number };
      if (sitemap) this.sink.sitemap(laneSitemapRef(buf, records, r), position);
      else if (hashed) {
        locHash[0] = records[r + R_HASH_1] as number;
        locHash[1] = records[r + R_HASH_2] as number;
        this.sink.url(laneUrlEntry(buf, records, r, extras), position, locHash);
      } else this.sink.url(laneUrlEntry(buf, records, r, extras), position);
    }
    return end;
  }

  /** How many such entries may be delivered now (acceptsPlainEntry for a run of them): 0 when none. */
  laneBudget(): number {
    return this.lane === null ? 0 : Math.max(0, this.maxEntries - this.delivered);
  }

  /** Deliver such a `<url>` as the events would have, once acceptsPlainEntry() said yes. */
  deliverLaneUrl(entry: UrlEntry, line: number, column: number): void {
    this.beforeLaneEntry();
    this.sink.url(entry, { line, column });
  }

  /**
   * Deliver a run of `count` such `<url>` elements at once, when the sink counts runs (ReaderSink.urlRun):
   * how many the sink took, or -1 when it does not count runs (then deliver them one by one).
   */
  deliverLaneRun(count: number): number {
    const sink = this.sink;
    if (sink.urlRun === undefined) return -1;
    this.beforeLaneEntry();
    this.entriesSeen += count - 1;
    this.delivered += count - 1;
    return sink.urlRun(count);
  }

  /** deliverLaneUrl for a `<sitemap>` of an index. */
  deliverLaneSitemap(ref: SitemapRef, line: number, column: number): void {
    this.beforeLaneEntry();
    this.sink.sitemap(ref, { line, column });
  }

  /** What startTag, beginEntry and finishEntry do around an entry that has no diagnostics. */
  private beforeLaneEntry(): void {
    if (this.runStarted) this.flushRun();
    if (this.diagOffsets.length !== 0) this.forgetDiagnostics();
    this.entriesSeen++;
    this.delivered++;
    this.strayReported = false;
    this.strayText = '';
  }

  // ---- classification ------------------------------------------------------------------------------

  private classify(qname: string): number {
    const { uri, local } = this.scope.resolve(qname);
    let id = E_OTHER;
    const root = this.rootId;
    if (root === E_URLSET || root === E_SITEMAPINDEX) {
      if (uri === this.rootUri || uri === SITEMAP_NS || uri === '' || LEGACY_SITEMAP_NS.includes(uri)) id = SITEMAP_ELEMENTS.get(local) ?? E_UNKNOWN;
      else if (uri === NS.image) id = IMAGE_ELEMENTS.get(local) ?? E_UNKNOWN;
      else if (uri === NS.video) id = VIDEO_ELEMENTS.get(local) ?? E_UNKNOWN;
      else if (uri === NS.news) id = NEWS_ELEMENTS.get(local) ?? E_UNKNOWN;
      else if (uri === NS.xhtml) id = local === 'link' ? E_XHTML_LINK : E_OTHER;
    } else if (root === E_RSS) {
      if (uri === '') id = RSS_ELEMENTS.get(local) ?? E_OTHER;
      else if (uri === DC_NS && local === 'date') id = E_R_DC_DATE;
    } else if (root === E_FEED) {
      if (uri === this.rootUri) id = (this.format === 'atom' ? ATOM_ELEMENTS : ATOM03_ELEMENTS).get(local) ?? E_OTHER;
    } else {
      return E_OTHER; // before the root: not cached
    }
    const n = qname.length;
    if (n < NAME_BUCKETS) {
      const bucket = (this.byLength[n] ??= { names: [], ids: [] });
      if (bucket.names.length < 16) {
        bucket.names.push(qname);
        bucket.ids.push(id);
      }
    } else {
      if (this.names.size >= 4096) this.names.clear();
      this.names.set(qname, id);
    }
    return id;
  }

  /** The element id of a qualified name: compared with the names seen before (by length, then ===), classified once. */
  private lookupName(qname: string): number {
    const n = qname.length;
    if (n < NAME_BUCKETS) {
      const bucket = this.byLength[n];
      if (bucket !== undefined) {
        const names = bucket.names;
        for (let i = 0; i < names.length; i++) if (names[i] === qname) return bucket.ids[i] as number;
      }
    } else {
      const id = this.names.get(qname);
      if (id !== undefined) return id;
    }
    return this.classify(qname);
  }

  private clearNames(): void {
    this.byLength.length = 0;
    this.names.clear();
  }

  // ---- entering an element -------------------------------------------------------------------------

  /** The context of a new element `id` under `parent`. */
  private enter(parent: number, id: number, name: string, attributes: readonly XmlAttribute[], line: number, column: number, offset: number): number {
    switch (parent) {
      case C_URLSET:
        if (id === E_URL) return this.beginEntry(C_URL, line, column, offset);
        return this.unexpected(id, name, parent, line, column, offset);
      case C_INDEX:
        if (id === E_SITEMAP) return this.beginEntry(C_SITEMAP, line, column, offset);
        return this.unexpected(id, name, parent, line, column, offset);
      case C_URL:
        if (id >= E_LOC && id <= E_PRIORITY) return this.beginField(id, attributes, line, column, offset);
        switch (id) {
          case E_IMAGE:
            this.img = {};
            this.imgProblem = '';
            this.imgLine = line;
            this.imgCol = column;
            this.imgOffset = offset;
            return C_IMAGE;
          case E_VIDEO:
            this.vid = {};
            this.vidProblem = '';
            this.vidLine = line;
            this.vidCol = column;
            this.vidOffset = offset;
            return C_VIDEO;
          case E_NEWS:
            this.nws = {};
            this.pub = {};
            this.nwsLine = line;
            this.nwsCol = column;
            this.nwsOffset = offset;
            return C_NEWS;
          case E_XHTML_LINK:
            this.alternate(attributes, line, column, offset);
            return C_SKIP;
        }
        return this.unexpected(id, name, parent, line, column, offset);
      case C_SITEMAP:
        if (id === E_LOC || id === E_LASTMOD) return this.beginField(id, attributes, line, column, offset);
        return this.unexpected(id, name, parent, line, column, offset);
      case C_IMAGE:
        if (id > E_IMAGE && id <= E_IMAGE_LICENSE) return this.beginField(id, attributes, line, column, offset);
        return this.unexpected(id, name, parent, line, column, offset);
      case C_VIDEO:
        if (id > E_V_TVSHOW && id <= E_V_ID) return this.beginField(id, attributes, line, column, offset);
        if (id === E_V_TVSHOW) {
          this.tv = {};
          this.tvLine = line;
          this.tvCol = column;
          this.tvOffset = offset;
          return C_TVSHOW;
        }
        return this.unexpected(id, name, parent, line, column, offset);
      case C_TVSHOW:
        if (id >= E_V_SHOW_TITLE && id <= E_V_PREMIER) return this.beginField(id, attributes, line, column, offset);
        return this.unexpected(id, name, parent, line, column, offset);
      case C_NEWS:
        if (id === E_N_PUBLICATION) return C_PUBLICATION;
        if (id >= E_N_ACCESS && id <= E_N_TICKERS) return this.beginField(id, attributes, line, column, offset);
        return this.unexpected(id, name, parent, line, column, offset);
      case C_PUBLICATION:
        if (id === E_N_NAME || id === E_N_LANGUAGE) return this.beginField(id, attributes, line, column, offset);
        return this.unexpected(id, name, parent, line, column, offset);
      case C_FIELD:
        if (this.fieldProblem === '') this.fieldProblem = `it contains the element <${name}>`;
        if (!this.isUrlField(this.field)) {
          this.report('element/unexpected', `element <${name}> inside <${FIELD_NAMES[this.field] as string}> is ignored, and so is its text`, line, column, offset, 'a value is text only');
        }
        return C_SKIP;
      case C_RSS:
        return id === E_CHANNEL ? C_CHANNEL : C_SKIP;
      case C_CHANNEL:
        if (id === E_ITEM) return this.beginEntry(C_ITEM, line, column, offset);
        return C_SKIP;
      case C_ITEM:
        if (id >= E_R_LINK && id <= E_R_DC_DATE) return this.beginField(id, attributes, line, column, offset);
        return C_SKIP;
      case C_FEED:
        if (id === E_ENTRY) {
          const ctx = this.beginEntry(C_ENTRY, line, column, offset);
          if (ctx === C_ENTRY) this.entryBase = resolveBase(attrValue(attributes, 'xml:base'), this.feedBase);
          return ctx;
        }
        if (id === E_A_LINK && this.feedLink === undefined) {
          const href = this.alternateHref(attributes);
          if (href !== undefined) {
            const base = resolveBase(attrValue(attributes, 'xml:base'), this.feedBase);
            this.feedLink = isAbsoluteHttpUrl(href) ? href : base !== undefined && !hasScheme(href) ? resolveReference(href, base) : undefined;
          }
        }
        return C_SKIP;
      case C_ENTRY:
        if (id === E_A_LINK && !this.hrefExplicit) {
          // The first link with rel="alternate", else the first without rel (which means alternate too).
          const explicit = attrValue(attributes, 'rel') !== undefined;
          if (this.href === undefined || explicit) {
            const href = this.alternateHref(attributes);
            if (href !== undefined) {
              const base = resolveBase(attrValue(attributes, 'xml:base'), this.entryBase);
              this.href = href;
              this.hrefExplicit = explicit;
              this.hrefProblem = this.attributeProblem(attributes, 'href');
              if (!isAbsoluteHttpUrl(href) && !hasScheme(href) && base !== undefined) {
                const resolved = resolveReference(href, base);
                if (resolved !== undefined) this.href = resolved;
              }
            }
          }
        }
        if (id === E_A_LINK) return C_SKIP;
        if (id >= E_A_UPDATED && id <= E_A_CREATED) return this.beginField(id, attributes, line, column, offset);
        return C_SKIP;
      case C_TOP:
        return this.root(name, attributes, line, column, offset);
      default:
        return C_SKIP;
    }
  }

  private root(name: string, attributes: readonly XmlAttribute[], line: number, column: number, offset: number): number {
    const { uri, local } = this.scope.resolve(name);
    const format = formatOfRoot(uri, local);
    if (this.format !== undefined) {
      // A second root (two documents joined; the tokenizer said so): read it too when it is the same kind.
      if (format === this.format && uri === this.rootUri) return this.rootContext();
      return C_SKIP;
    }
    this.rootUri = uri;
    this.rootLine = line;
    this.rootCol = column;
    this.rootOffset = offset;
    this.setFormat(format);
    switch (format) {
      case 'urlset':
      case 'sitemapindex': {
        this.rootId = format === 'urlset' ? E_URLSET : E_SITEMAPINDEX;
        const problem = sitemapNamespaceProblem(uri, local);
        if (problem !== undefined) this.report(problem.code, problem.message, line, column, offset, problem.hint);
        break;
      }
      case 'rss':
        this.rootId = E_RSS;
        break;
      case 'atom':
      case 'atom03':
        this.rootId = E_FEED;
        this.feedBase = resolveBase(attrValue(attributes, 'xml:base'), undefined);
        break;
      case 'html':
        this.report('format/html', 'sitemap is HTML: the document is an HTML page, not a sitemap; no URLs are taken from it', line, column, offset, 'serve the XML (or text) sitemap itself; check the URL and that no template wraps it');
        return C_SKIP;
      default:
        this.report(
          'format/unknown-root',
          `unknown root element <${name}>${uri !== '' ? ` in the namespace "${uri}"` : ''}; a sitemap's root is <urlset>, <sitemapindex>, <rss> or <feed>`,
          line, column, offset, `a urlset needs xmlns="${SITEMAP_NS}"`,
        );
        return C_SKIP;
    }
    this.clearNames();
    return this.rootContext();
  }

  private rootContext(): number {
    switch (this.rootId) {
      case E_URLSET: return C_URLSET;
      case E_SITEMAPINDEX: return C_INDEX;
      case E_RSS: return C_RSS;
      default: return C_FEED;
    }
  }

  private setFormat(format: SitemapFormat): void {
    this.format = format;
    this.sink.format(format);
  }

  private unexpected(id: number, name: string, parent: number, line: number, column: number, offset: number): number {
    if (id !== E_OTHER) {
      const why = id === E_UNKNOWN ? 'unknown element' : 'element';
      this.report('element/unexpected', `${why} <${name}> is not expected inside <${CONTEXT_NAMES[parent] as string}>; skipped`, line, column, offset);
    }
    return C_SKIP;
  }

  private beginEntry(ctx: number, line: number, column: number, offset: number): number {
    this.entriesSeen++;
    if (this.delivered >= this.maxEntries) {
      if (!this.budgetReported) {
        this.budgetReported = true;
        this.report('budget/entries', `more than ${this.maxEntries} entries; the rest are not read`, line, column, offset, 'raise the entry budget (--max-entries, maxEntries) if this is legitimate');
      }
      return C_SKIP;
    }
    this.eLine = line;
    this.eCol = column;
    this.eOffset = offset;
    this.loc = undefined;
    this.locProblem = '';
    this.locHint = undefined;
    this.lastmod = undefined;
    this.changefreq = undefined;
    this.priority = undefined;
    this.images = undefined;
    this.videos = undefined;
    this.news = undefined;
    this.alternates = undefined;
    this.strayReported = false;
    this.strayText = '';
    if (ctx === C_ITEM || ctx === C_ENTRY) {
      this.href = undefined;
      this.hrefExplicit = false;
      this.hrefProblem = '';
      this.guid = undefined;
      this.guidPermaLink = true;
      this.date1 = undefined;
      this.date2 = undefined;
      this.entryBase = this.feedBase;
    }
    return ctx;
  }

  private beginField(id: number, attributes: readonly XmlAttribute[], line: number, column: number, offset: number): number {
    this.field = id;
    this.value = '';
    this.fieldProblem = '';
    this.fieldProblemHint = undefined;
    this.fieldAttrs = attributes;
    this.infoProblem = id === E_V_UPLOADER ? this.attributeProblem(attributes, 'info') : '';
    this.fLine = line;
    this.fCol = column;
    this.fOffset = offset;
    return C_FIELD;
  }

  private isUrlField(id: number): boolean {
    return id === E_LOC || id === E_IMAGE_LOC || id === E_IMAGE_LICENSE || id === E_V_THUMB || id === E_V_CONTENT_LOC || id === E_V_PLAYER_LOC ||
      id === E_V_SEGMENT || id === E_V_GALLERY || id === E_R_LINK || id === E_R_GUID;
  }

  /** Why an attribute's value cannot be trusted ('' when it can): cut at the budget, or a tokenizer diagnostic inside it. */
  private attributeProblem(attributes: readonly XmlAttribute[], name: string): string {
    for (let i = 0; i < attributes.length; i++) {
      const a = attributes[i] as XmlAttribute;
      if (a.name !== name) continue;
      if (a.truncated === true) return 'budget/value-length: the value is cut at the length budget';
      const from = a.offset;
      const to = i + 1 < attributes.length ? (attributes[i + 1] as XmlAttribute).offset : Infinity;
      if (from < this.diagDroppedBefore) return 'the tokenizer reported more problems around it than are kept';
      const offsets = this.diagOffsets;
      for (let k = 0; k < offsets.length; k++) {
        const at = offsets[k] as number;
        if (at >= from && at < to) return `${this.diagCodes[k] as string}: the tokenizer reported a problem in it`;
      }
      return '';
    }
    return '';
  }

  /** The href of an Atom link that is an alternate (rel absent or "alternate"), else undefined. */
  private alternateHref(attributes: readonly XmlAttribute[]): string | undefined {
    const rel = attrValue(attributes, 'rel');
    if (rel !== undefined && rel !== 'alternate' && rel !== 'http://www.iana.org/assignments/relation/alternate') return undefined;
    return attrValue(attributes, 'href');
  }

  // ---- hreflang alternates -------------------------------------------------------------------------

  private alternate(attributes: readonly XmlAttribute[], line: number, column: number, offset: number): void {
    const rel = attrValue(attributes, 'rel');
    if (rel === undefined || rel.toLowerCase() !== 'alternate') return; // amphtml, canonical...: not an hreflang alternate
    const hreflang = attrValue(attributes, 'hreflang');
    const href = attrValue(attributes, 'href');
    if (href === undefined || href === '') {
      this.report('alternate/invalid', `<xhtml:link rel="alternate"> without href is skipped`, line, column, offset, 'write <xhtml:link rel="alternate" hreflang="en" href="https://..."/>');
      return;
    }
    if (hreflang === undefined || hreflang === '') {
      this.report('alternate/invalid', `<xhtml:link rel="alternate" href=${show(href)}> without hreflang is skipped`, line, column, offset, 'add hreflang="…" (a language such as "en", "en-GB", or "x-default")');
      return;
    }
    const problem = this.attributeProblem(attributes, 'href');
    if (problem !== '') {
      this.report('url/untrusted', `the href of <xhtml:link hreflang=${show(hreflang)}> cannot be trusted (${problem}); the alternate is dropped`, line, column, offset);
      return;
    }
    (this.alternates ??= []).push({ hreflang, href });
  }

  // ---- leaving an element --------------------------------------------------------------------------

  private leave(ctx: number, synth: boolean): void {
    switch (ctx) {
      case C_FIELD:
        this.finishField(this.field, xmlTrim(this.value));
        this.value = '';
        return;
      case C_URL:
      case C_SITEMAP:
        this.finishEntry(ctx, synth);
        return;
      case C_ITEM:
      case C_ENTRY:
        this.finishFeedEntry(ctx, synth);
        return;
      case C_IMAGE:
        this.finishImage();
        return;
      case C_VIDEO:
        this.finishVideo();
        return;
      case C_TVSHOW:
        this.finishTvShow();
        return;
      case C_NEWS:
        this.finishNews();
        return;
      case C_URLSET:
      case C_INDEX:
      case C_RSS:
      case C_FEED:
        if (this.entriesSeen === 0) {
          const [code, what] = ctx === C_URLSET ? ['urlset/empty', 'the urlset has no <url> entries'] : ctx === C_INDEX ? ['sitemapindex/empty', 'the sitemap index has no <sitemap> entries'] : ['feed/empty', `the feed has no ${ctx === C_RSS ? '<item>' : '<entry>'} entries`];
          this.report(code, what, this.rootLine, this.rootCol, this.rootOffset);
        }
        return;
      default:
        return;
    }
  }

  private dup(id: number): void {
    this.report('element/duplicate', `<${FIELD_NAMES[id] as string}> given twice; the first is kept`, this.fLine, this.fCol, this.fOffset);
  }

  private fieldReport(code: string, message: string, hint?: string): void {
    this.report(code, message, this.fLine, this.fCol, this.fOffset, hint);
  }

  private finishField(id: number, v: string): void {
    switch (id) {
      // -- sitemap
      case E_LOC:
        if (this.loc !== undefined) return this.dup(id);
        this.loc = v;
        this.locProblem = this.fieldProblem;
        this.locHint = this.fieldProblemHint;
        this.locLine = this.fLine;
        this.locCol = this.fCol;
        this.locOffset = this.fOffset;
        return;
      case E_LASTMOD:
        if (this.lastmod !== undefined) return this.dup(id);
        this.lastmod = v;
        this.checkW3cDate(v, 'lastmod', 'lastmod/invalid', 'lastmod/lenient');
        return;
      case E_CHANGEFREQ:
        if (this.changefreq !== undefined) return this.dup(id);
        this.changefreq = v;
        if (!isChangefreq(v)) {
          const lower = v.toLowerCase();
          if (isChangefreq(lower)) this.fieldReport('changefreq/case', `changefreq ${show(v)} is not one of ${CHANGEFREQS.join(', ')}: they are lower case`, `write "${lower}"`);
          else this.fieldReport('changefreq/invalid', `changefreq ${show(v)} is not one of ${CHANGEFREQS.join(', ')}; kept as written`);
        }
        return;
      case E_PRIORITY: {
        if (this.priority !== undefined) return this.dup(id);
        const tenths = priorityTenths(v);
        if (tenths >= 0) {
          this.priority = tenths / 10;
          return;
        }
        if (!DECIMAL.test(v)) {
          this.priority = v;
          this.fieldReport('priority/invalid', `priority ${show(v)} is not a decimal number; kept as written`, 'write a number from 0.0 to 1.0, such as 0.5');
          return;
        }
        const n = Number(v);
        if (n < 0 || n > 1) {
          this.priority = v;
          this.fieldReport('priority/out-of-range', `priority ${show(v)} is outside 0.0–1.0; kept as written`, 'write a number from 0.0 to 1.0');
          return;
        }
        this.priority = n;
        return;
      }
      default:
        if (id >= E_IMAGE && id <= E_N_TICKERS) return this.extensionField(id, v);
        return this.feedField(id, v);
    }
  }

  /** lastmod-like: kept as written; a diagnostic when it is not a W3C Datetime. */
  private checkW3cDate(v: string, field: string, invalidCode: string, lenientCode: string | undefined): void {
    const problem = w3cDatetimeProblem(v);
    if (problem !== undefined) {
      this.fieldReport(invalidCode, `${field} ${show(v)} is not a W3C Datetime (${problem}); kept as written`, 'write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm');
    } else if (lenientCode !== undefined && !isStrictW3c(v)) {
      const parsed = parseW3cDatetime(v);
      this.fieldReport(lenientCode, `${field} ${show(v)} is ISO 8601 but not a W3C Datetime form; kept as written`, parsed === undefined ? undefined : `write ${parsed.text}`);
    }
  }

  // ---- video ---------------------------------------------------------------------------------------

  private videoInvalid(message: string, hint?: string): void {
    this.fieldReport('video/invalid', message, hint);
  }

  /** A whole number, or undefined (with a diagnostic) when `v` is not one. */
  private videoInteger(v: string, field: string): number | undefined {
    if (INTEGER.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
    this.videoInvalid(`${field} ${show(v)} is not a whole number; omitted`);
    return undefined;
  }

  private videoDecimal(v: string, field: string): number | undefined {
    if (DECIMAL.test(v)) return Number(v);
    this.videoInvalid(`${field} ${show(v)} is not a decimal number; omitted`);
    return undefined;
  }

  /**
   * A value of a closed set as the model holds it (lower case where the schema takes other cases
   * too: `YES` is `yes`), else kept as written with a diagnostic.
   */
  private oneOf(v: string, values: readonly string[], field: string, code: string): string {
    const lower = v.toLowerCase();
    if (values.includes(v)) return values.includes(lower) ? lower : v;
    this.fieldReport(code, `${field} ${show(v)} is not one of ${values.join(', ')}; kept as written`, values.includes(lower) ? `write "${lower}"` : undefined);
    return v;
  }

  /** An image, video or news field, held where and as its declaration says (vocabulary.ts). */
  private extensionField(id: number, v: string): void {
    const { decl, repeated, attributes } = EXTENSION_FIELDS[id] as ExtensionField;
    const field = FIELD_NAMES[id] as string;
    const owner: Record<string, unknown> = id <= E_IMAGE_LICENSE ? this.img : id <= E_V_ID ? this.vid : id <= E_V_PREMIER ? this.tv : id <= E_N_LANGUAGE ? this.pub : this.nws;
    const prop = decl.prop as string;
    if (!repeated && owner[prop] !== undefined) return this.dup(id);
    if (this.fieldProblem !== '' && decl.type.text === anyUri && !this.untrustedUrl(id, v, field)) return;
    // Attributes fill the element's own object (video:price → { value, currency }), the required ones
    // before its text as the model writes them, or properties beside its own (playerLocAllowEmbed).
    const own: Record<string, unknown> | undefined = decl.textProp === undefined ? undefined : {};
    if (attributes.length !== 0 && !this.fillAttributes(attributes, true, own ?? owner, v, field)) return;
    const value = this.modelValue(v, decl.as, decl.type.values, field, decl.ns === NS.news ? 'news/invalid' : 'video/invalid');
    if (value === undefined) return;
    if (own !== undefined) own[decl.textProp as string] = value;
    if (repeated) ((owner[prop] ??= []) as unknown[]).push(own ?? value);
    else owner[prop] = own ?? value;
    if (attributes.length !== 0) this.fillAttributes(attributes, false, own ?? owner, v, field);
  }

  /** The `required` (or the optional) attributes of the field into `target`; false when a required one is missing. */
  private fillAttributes(attributes: readonly (readonly [string, AttributeDecl])[], required: boolean, target: Record<string, unknown>, v: string, field: string): boolean {
    for (const [name, a] of attributes) {
      if (a.required !== required) continue;
      const value = this.attributeValue(name, a, v, field);
      if (value === null) return false;
      if (value !== undefined) target[a.prop as string] = value;
    }
    return true;
  }

  /**
   * A URL field the tokenizer damaged (fieldProblem): a video is dropped whole and so is an image
   * without its loc (finishVideo, finishImage say so); an image's license is omitted. True: read on.
   */
  private untrustedUrl(id: number, v: string, field: string): boolean {
    if (id >= E_VIDEO) {
      if (this.vidProblem === '') this.vidProblem = `${field}: ${this.fieldProblem}`;
    } else if (id === E_IMAGE_LOC) {
      this.imgProblem = this.fieldProblem;
    } else {
      this.fieldReport('url/untrusted', `${field} ${show(v)} cannot be trusted (${this.fieldProblem}); it is omitted`);
      return false;
    }
    return true;
  }

  /** `v` as the model holds it; undefined, with a diagnostic, where it is omitted (a number that is not one). */
  private modelValue(v: string, as: ModelValue | undefined, values: readonly string[] | undefined, field: string, code: string): unknown {
    switch (as) {
      case 'integer':
        return this.videoInteger(v, field);
      case 'decimal':
        return this.videoDecimal(v, field);
      case 'numeric':
        if (!DECIMAL.test(v)) this.videoInvalid(`${field} ${show(v)} is not a decimal number; kept as written`, v.includes(',') ? 'use a dot as the decimal separator' : undefined);
        return v;
      case 'date':
        this.checkW3cDate(v, field, code, undefined);
        return v;
      case 'commaList':
        return commaList(v);
      case 'spaceList': {
        const list = spaceList(v);
        if (values !== undefined) for (const item of list) this.oneOf(item, values, field, code);
        return list;
      }
      default:
        return values === undefined ? v : this.oneOf(v, values, field, code);
    }
  }

  /** An attribute's value as the model holds it; undefined: absent or omitted; null: the element is omitted for want of it. */
  private attributeValue(name: string, a: AttributeDecl, v: string, field: string): unknown {
    const raw = attrValue(this.fieldAttrs, name);
    const at = `${field}@${name}`;
    if (raw === undefined) {
      const hint = `add ${name}="${a.example ?? a.values?.[0] ?? '…'}"${a.values === undefined ? '' : ` (one of ${a.values.join(', ')})`}`;
      if (a.required) this.videoInvalid(`${field} ${show(v)} has no ${name} attribute; omitted`, hint);
      else if (a.modelRequired === true) this.videoInvalid(`${field} ${show(v)} has no ${name} attribute; read as ''`, hint);
      return a.required ? null : a.modelRequired === true ? '' : undefined;
    }
    if (a.check === anyUri && this.infoProblem !== '') {
      this.fieldReport('url/untrusted', `${at} ${show(raw)} cannot be trusted (${this.infoProblem}); it is omitted`);
      return undefined;
    }
    return this.modelValue(raw, a.as, a.values, at, 'video/invalid');
  }

  private finishTvShow(): void {
    const tv = this.tv;
    const missing = lacking(TVSHOW, tv);
    if (missing.length > 0) this.report('video/invalid', `video:tvshow has no ${missing.join(' or ')}; read as ''`, this.tvLine, this.tvCol, this.tvOffset);
    if (this.vid.tvshow !== undefined) {
      this.report('element/duplicate', '<video:tvshow> given twice; the first is kept', this.tvLine, this.tvCol, this.tvOffset);
      return;
    }
    this.vid.tvshow = tv as VideoTvShow;
  }

  private finishVideo(): void {
    const vid = this.vid;
    if (this.vidProblem !== '') {
      this.report('url/untrusted', `a URL of this video cannot be trusted (${this.vidProblem}); the video is dropped`, this.vidLine, this.vidCol, this.vidOffset);
      return;
    }
    const missing = lacking(VIDEO, vid);
    if (missing.length > 0) this.report('video/invalid', `the video has no ${missing.join(', ')}; read as ''`, this.vidLine, this.vidCol, this.vidOffset, 'a video needs a thumbnail_loc, a title and a description');
    (this.videos ??= []).push(vid as VideoEntry);
  }

  private finishImage(): void {
    const img = this.img;
    if (img.loc === undefined || img.loc === '') {
      this.report('image/invalid', `<image:image> without ${img.loc === undefined ? 'image:loc' : 'a URL in image:loc'} is skipped`, this.imgLine, this.imgCol, this.imgOffset, 'every image:image needs an image:loc');
      return;
    }
    if (this.imgProblem !== '') {
      this.report('url/untrusted', `image:loc ${show(img.loc)} cannot be trusted (${this.imgProblem}); the image is dropped`, this.imgLine, this.imgCol, this.imgOffset);
      return;
    }
    (this.images ??= []).push(img as ImageEntry);
  }

  // ---- news ----------------------------------------------------------------------------------------

  private finishNews(): void {
    const n = this.nws;
    const missing = [...lacking(PUBLICATION, this.pub), ...lacking(NEWS, n)];
    n.publication = { name: this.pub.name as string, language: this.pub.language as string };
    if (missing.length > 0) this.report('news/invalid', `news:news has no ${missing.join(', ')}; read as ''`, this.nwsLine, this.nwsCol, this.nwsOffset, 'news:news needs a publication (name, language), a publication_date and a title');
    if (this.news !== undefined) {
      this.report('element/duplicate', '<news:news> given twice in one <url>; the first is kept', this.nwsLine, this.nwsCol, this.nwsOffset);
      return;
    }
    // Put the fields in the model's order.
    const entry: NewsEntry = { publication: n.publication, publicationDate: n.publicationDate as NewsEntry['publicationDate'], title: n.title as string };
    if (n.access !== undefined) entry.access = n.access;
    if (n.genres !== undefined) entry.genres = n.genres;
    if (n.keywords !== undefined) entry.keywords = n.keywords;
    if (n.stockTickers !== undefined) entry.stockTickers = n.stockTickers;
    this.news = entry;
  }

  // ---- entries -------------------------------------------------------------------------------------

  /** Whether the current entry's loc can be delivered; reports why not. */
  private checkLoc(ctx: number, synth: boolean): string | undefined {
    const element = CONTEXT_NAMES[ctx] as string;
    if (synth) {
      this.report('loc/untrusted', `the <${element}> element is not closed properly (${this.synthCode}); its entry is dropped`, this.eLine, this.eCol, this.eOffset, 'the file is damaged or cut short');
      return undefined;
    }
    const loc = this.loc;
    if (loc === undefined || loc === '') {
      const bare = this.strayText !== '' && isAbsoluteHttpUrl(this.strayText);
      this.report(
        'loc/missing',
        `<${element}> ${loc === undefined ? 'without <loc>' : 'with an empty <loc>'}; the entry is skipped`,
        this.eLine, this.eCol, this.eOffset,
        bare ? `the URL is written directly inside <${element}>: wrap it in <loc>…</loc>` : `every <${element}> needs a <loc>`,
      );
      return undefined;
    }
    if (this.locProblem !== '') {
      this.report('loc/untrusted', `loc ${show(loc)} cannot be trusted (${this.locProblem}); the entry is dropped`, this.locLine, this.locCol, this.locOffset, this.locHint);
      return undefined;
    }
    if (!isAbsoluteHttpUrl(loc)) {
      this.report('loc/not-absolute', `loc ${show(loc)} is not an absolute http(s) URL; the entry is skipped`, this.locLine, this.locCol, this.locOffset,
        hasScheme(loc) ? 'a sitemap lists http: and https: URLs only' : 'write the full URL, with scheme and host (https://example.com/page)');
      return undefined;
    }
    return loc;
  }

  private finishEntry(ctx: number, synth: boolean): void {
    const loc = this.checkLoc(ctx, synth);
    if (loc === undefined) return;
    const at = { line: this.eLine, column: this.eCol };
    this.delivered++;
    if (ctx === C_SITEMAP) {
      const ref: SitemapRef = { loc };
      if (this.lastmod !== undefined) ref.lastmod = this.lastmod;
      this.sink.sitemap(ref, at);
      return;
    }
    const entry: UrlEntry = { loc };
    if (this.lastmod !== undefined) entry.lastmod = this.lastmod;
    // An invalid changefreq is kept as written (the model's type names the valid ones).
    if (this.changefreq !== undefined) entry.changefreq = this.changefreq as Changefreq;
    if (this.priority !== undefined) entry.priority = this.priority;
    if (this.images !== undefined) entry.images = this.images;
    if (this.videos !== undefined) entry.videos = this.videos;
    if (this.news !== undefined) entry.news = this.news;
    if (this.alternates !== undefined) entry.alternates = this.alternates;
    this.sink.url(entry, at);
  }

  // ---- feeds ---------------------------------------------------------------------------------------

  private feedField(id: number, v: string): void {
    switch (id) {
      case E_R_LINK:
        if (this.href !== undefined) return this.dup(id);
        this.href = v;
        this.hrefProblem = this.fieldProblem;
        this.locLine = this.fLine;
        this.locCol = this.fCol;
        this.locOffset = this.fOffset;
        return;
      case E_R_GUID: {
        if (this.guid !== undefined) return this.dup(id);
        this.guid = v;
        this.guidProblem = this.fieldProblem;
        const permaLink = attrValue(this.fieldAttrs, 'isPermaLink');
        this.guidPermaLink = permaLink === undefined || permaLink.toLowerCase() === 'true';
        if (this.href === undefined) {
          this.locLine = this.fLine;
          this.locCol = this.fCol;
          this.locOffset = this.fOffset;
        }
        return;
      }
      case E_R_PUBDATE:
      case E_R_DC_DATE:
      case E_A_UPDATED:
      case E_A_MODIFIED:
      case E_A_PUBLISHED:
      case E_A_ISSUED:
      case E_A_CREATED: {
        // The entry's date: pubDate, updated (1.0) or modified (0.3); else dc:date, published / issued / created.
        const primary = id === E_R_PUBDATE || id === E_A_UPDATED || id === E_A_MODIFIED;
        if (primary) {
          if (this.date1 !== undefined) return this.dup(id);
          this.date1 = v;
          this.date1Id = id;
          this.date1Line = this.fLine;
          this.date1Col = this.fCol;
          this.date1Offset = this.fOffset;
        } else if (this.date2 === undefined) {
          this.date2 = v;
          this.date2Id = id;
          this.date2Line = this.fLine;
          this.date2Col = this.fCol;
          this.date2Offset = this.fOffset;
        }
        return;
      }
      default:
        return;
    }
  }

  private finishFeedEntry(ctx: number, synth: boolean): void {
    const element = ctx === C_ITEM ? 'item' : 'entry';
    if (synth) {
      this.report('loc/untrusted', `the <${element}> element is not closed properly (${this.synthCode}); its entry is dropped`, this.eLine, this.eCol, this.eOffset, 'the file is damaged or cut short');
      return;
    }
    let loc = this.href;
    let problem = this.hrefProblem;
    if (ctx === C_ITEM && (loc === undefined || loc === '') && this.guid !== undefined && this.guidPermaLink) {
      loc = this.guid;
      problem = this.guidProblem;
    }
    if (loc === undefined || loc === '') {
      this.report('loc/missing', ctx === C_ITEM ? '<item> without <link> (or a permalink <guid>); the entry is skipped' : '<entry> without <link rel="alternate" href="…">; the entry is skipped', this.eLine, this.eCol, this.eOffset);
      return;
    }
    if (problem !== '') {
      this.report('loc/untrusted', `link ${show(loc)} cannot be trusted (${problem}); the entry is dropped`, this.locLine, this.locCol, this.locOffset);
      return;
    }
    if (!isAbsoluteHttpUrl(loc)) {
      const resolved = ctx === C_ENTRY && !hasScheme(loc) && this.feedLink !== undefined ? resolveReference(loc, this.feedLink) : undefined;
      if (resolved === undefined) {
        this.report('loc/not-absolute', `link ${show(loc)} is not an absolute http(s) URL${ctx === C_ENTRY && !hasScheme(loc) ? ', and there is no xml:base or feed link to resolve it against' : ''}; the entry is skipped`, this.eLine, this.eCol, this.eOffset);
        return;
      }
      this.report('loc/relative', `relative link ${show(loc)} resolved against the feed's link: ${resolved}`, this.eLine, this.eCol, this.eOffset, 'write absolute links, or set xml:base');
      loc = resolved;
    }
    const entry: UrlEntry = { loc };
    const lastmod = this.feedDate();
    if (lastmod !== undefined) entry.lastmod = lastmod;
    this.delivered++;
    this.sink.url(entry, { line: this.eLine, column: this.eCol });
  }

  /** The entry's lastmod from its date elements, with diagnostics; undefined when there is none. */
  private feedDate(): string | undefined {
    let v = this.date1;
    let id = this.date1Id;
    let line = this.date1Line;
    let column = this.date1Col;
    let offset = this.date1Offset;
    if (v === undefined) {
      v = this.date2;
      if (v === undefined) return undefined;
      id = this.date2Id;
      line = this.date2Line;
      column = this.date2Col;
      offset = this.date2Offset;
    }
    const field = FIELD_NAMES[id] as string;
    if (id === E_R_PUBDATE) {
      const r = rfc822ToW3c(v);
      if (r.problem === undefined) {
        if (r.weekday !== undefined) this.report('lastmod/weekday', `pubDate ${show(v)}: the date is a ${r.weekday.actual}, not a ${r.weekday.written}; the date is kept`, line, column, offset, `write ${r.weekday.actual}`);
        if (r.lenient !== undefined) this.report('lastmod/lenient', `pubDate ${show(v)} read leniently (${r.lenient}) as ${r.text}`, line, column, offset, 'write an RFC 822 date such as "Sat, 07 Sep 2002 09:42:31 GMT"');
        return r.text;
      }
      const w3c = parseW3cDatetime(v);
      if (w3c !== undefined) {
        this.report('lastmod/lenient', `pubDate ${show(v)} is a W3C Datetime, not an RFC 822 date; kept as written`, line, column, offset, 'RSS 2.0 dates are written like "Sat, 07 Sep 2002 09:42:31 GMT"');
        return v;
      }
      this.report('lastmod/invalid', `pubDate ${show(v)} is not an RFC 822 date (${r.problem}); kept as written`, line, column, offset, 'write a date such as "Sat, 07 Sep 2002 09:42:31 GMT"');
      return v;
    }
    const parsed = parseW3cDatetime(v);
    if (parsed === undefined) {
      this.report('lastmod/invalid', `${field} ${show(v)} is not a date-time (${w3cDatetimeProblem(v) ?? 'invalid'}); kept as written`, line, column, offset, 'write an RFC 3339 date-time such as 2003-12-13T18:30:02Z');
    } else if (id !== E_R_DC_DATE && (parsed.precision === 'year' || parsed.precision === 'month' || parsed.precision === 'day')) {
      this.report('lastmod/date-only', `${field} ${show(v)} has no time (RFC 3339 wants a full date-time); accepted`, line, column, offset, `write ${parsed.text}T00:00:00Z`);
    } else if (!parsed.w3c) {
      this.report('lastmod/lenient', `${field} ${show(v)} is not in RFC 3339 form; kept as written`, line, column, offset, `write ${parsed.text}`);
    }
    return v;
  }

  // ---- diagnostics ---------------------------------------------------------------------------------

  private report(code: string, message: string, line: number, column: number, offset: number, hint?: string): void {
    const d: Diagnostic = { code, severity: XML_READER_CODES[code] as Severity, message, line, column, offset };
    if (hint !== undefined) d.hint = hint;
    this.sink.diagnostic(d);
  }
}

/** What `readXmlSitemapText` returns. */
export interface XmlSitemapReadResult {
  format: SitemapFormat;
  urls: UrlEntry[];
  sitemaps: SitemapRef[];
  /** In order; at most 1,000 of each code, then a `diagnostics/truncated` entry when some were left out. */
  diagnostics: Diagnostic[];
}

/**
 * Convenience for tests and small inputs: the whole text → format, entries and diagnostics (the
 * tokenizer's and the reader's, in order). The tokenizer gets `maxDepth` (default 256) and
 * `maxValueLength` (default 1 MiB) from the budgets.
 */
export function readXmlSitemapText(text: string, budgets: ReaderBudgets = {}): XmlSitemapReadResult {
  const result: XmlSitemapReadResult = { format: 'unknown', urls: [], sitemaps: [], diagnostics: [] };
  const diagnostics = new DiagnosticCollector();
  const reader = new XmlSitemapReader(
    {
      format: (format) => {
        result.format = format;
      },
      url: (entry) => {
        result.urls.push(entry);
      },
      sitemap: (ref) => {
        result.sitemaps.push(ref);
      },
      diagnostic: (d) => {
        diagnostics.add(d);
      },
    },
    budgets,
  );
  const tokenizer = new XmlTokenizer(reader, {
    maxDepth: budgets.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxValueLength: budgets.maxValueLength ?? DEFAULT_MAX_VALUE_LENGTH,
  });
  tokenizer.write(text);
  tokenizer.end();
  reader.end();
  result.diagnostics = diagnostics.list();
  return result;
}
