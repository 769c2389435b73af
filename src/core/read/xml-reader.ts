// The XML sitemap reader: the tokenizer's handler, turning its events into entries of the one model
// (model.ts) and diagnostics, for urlset, sitemapindex, RSS 2.0 and Atom 1.0 / 0.3 (feed-entries.ts).
// Call `end()` after `tokenizer.end()`; an entry goes to the sink when its element closes.
//
// - The root decides the format by namespace URI and local name; a urlset in a legacy, missing or wrong
//   namespace is read anyway, with a diagnostic, its children matched in the root's namespace too.
// - An invalid value is kept as written, with a diagnostic; an invalid number of an extension is
//   omitted (the model types it as a number).
// - A loc must be TRUSTED: a tokenizer problem inside its text, markup in it, or its entry closed by
//   recovery drops the entry (`loc/untrusted`, with the reason); extension URLs likewise (`url/untrusted`).
// - Unknown or misplaced elements of the sitemap, image, video and news namespaces are skipped with
//   `element/unexpected` (typos, most often); those of other namespaces silently (the protocol allows any).
//
// Speed: names are classified once per qualified name (xml-elements.ts), contexts are small integers on
// a stack, and runs of plain entries are read in one step by the lane (lane.ts).

import { DiagnosticCollector, diagnosticAt, type Diagnostic, type Severity } from '../diagnostics.js';
import { plural, positiveInteger, show } from '../errors.js';
import { CHANGEFREQS, NS, type AlternateLink, type Changefreq, type SitemapRef, type UrlEntry } from '../model.js';
import { XmlTokenizer, type XmlAttribute, type XmlLane, type XmlTokenHandler } from '../xml/tokenizer.js';
import { NamespaceScope } from '../xml/namespaces.js';
import { SITEMAP_NS, formatOfRoot, sitemapNamespaceProblem } from './sniff.js';
import { hasScheme, isAbsoluteHttpUrl, resolveBase } from './feeds.js';
import type { EntryPosition, ReaderBudgets, ReaderSink, SitemapFormat } from './types.js';
import { writeLaneUrlLines } from './lane-json.js';
import { LANE_FIELDS, Lane, asciiTextOf, R_COLUMN, R_HASH_1, R_HASH_2, R_LINE, laneSitemapRef, laneUrlEntry, type LaneReading } from './lane.js';
import { C_CHANNEL, C_ENTRY, C_EXTENSION, C_FEED, C_FIELD, C_INDEX, C_ITEM, C_RSS, C_SITEMAP, C_SKIP, C_TOP, C_URL, C_URLSET, CONTEXT_NAMES, E_A_CREATED, E_A_LINK, E_A_UPDATED, E_CHANGEFREQ, E_CHANNEL, E_ENTRY, E_EXTENSION, E_IMAGE, E_IMAGE_LOC, E_ITEM, E_LASTMOD, E_LOC, E_OTHER, E_PRIORITY, E_R_DC_DATE, E_R_GUID, E_R_LINK, E_SITEMAP, E_UNKNOWN, E_URL, E_XHTML_LINK, EXTENSION_FIELDS, ElementNames, FIELD_NAMES } from './xml-elements.js';
import { FeedEntryReader } from './feed-entries.js';
import { DEFAULT_MAX_ENTRIES, DEFAULT_MAX_VALUE_LENGTH } from './text.js';
import { ExtensionReader, FieldBeingRead, attrValue, type At, type Report } from './xml-extensions.js';
import { priorityTenths } from './values.js';
import { textAfterBom } from './decode.js';
import { isBlank, isXmlSpace, xmlTrim } from '../xml/whitespace.js';
import { isChangefreq } from '../vocabulary.js';
import { anyUri, DECIMAL, decimalWithin } from '../validate/xsd-types.js';
import { unusableUrl } from '../url.js';

/** The codes the reader itself reports (the tokenizer's are XML_TOKENIZER_CODES). */
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
  'loc/invalid': 'error',
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

/** Flag on a context-stack slot: the element declared namespaces. */
const NS_DECLARED = 0x100;

const ROOT_CONTEXT: Partial<Record<SitemapFormat, number>> = { urlset: C_URLSET, sitemapindex: C_INDEX, rss: C_RSS, atom: C_FEED, atom03: C_FEED };

/** Tokenizer diagnostics followed by a synthesised end tag. */
const RECOVERY_CLOSE = new Set(['xml/mismatched-tag', 'xml/unclosed-element']);

/** Characters of stray text kept for its report (a loc is shorter than 2,048). */
const RUN_KEPT = 4096;

/** Tokenizer diagnostics held for the next tag's attributes, at most. */
const HELD_DIAGNOSTICS = 1024;

/** Tokenizer diagnostics go to the sink in order, with the reader's own (when their element closes). */
export class XmlSitemapReader implements XmlTokenHandler {
  private readonly sink: ReaderSink;
  private readonly maxEntries: number;
  private readonly scope = new NamespaceScope();
  private readonly elements = new ElementNames(this.scope);

  // Document.
  private format: SitemapFormat | undefined;
  private rootUri = '';
  private rootAt: At = { line: 0, column: 0, offset: 0 };
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
  private alternates: AlternateLink[] | undefined;
  private strayReported = false;
  private strayText = '';
  /**
   * Text directly inside a container since the last tag (checked at the next one): only as much as a
   * report needs, since text between two tags can be megabytes of pieces (a run of raw `<`).
   */
  private runStarted = false;
  private run = '';
  private runLine = 0;
  private runCol = 0;
  private runOffset = 0;

  private readonly reportAt: Report = (code, message, at, hint) => this.report(code, message, at.line, at.column, at.offset, hint);

  // The field being read, and the extension items of the entry.
  private readonly field = new FieldBeingRead(this.reportAt);
  private readonly extensions = new ExtensionReader(this.field, this.reportAt);
  private readonly feed = new FeedEntryReader(this.field, this.reportAt);

  // Tokenizer diagnostics since the last tag, for attributeProblem, and the offset of the last recovery
  // close. Bounded: past HELD_DIAGNOSTICS the oldest half goes, and an attribute that starts before
  // `diagDroppedBefore` is not trusted.
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
    this.maxEntries = positiveInteger(budgets.maxEntries, DEFAULT_MAX_ENTRIES, 'reader budget maxEntries');
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
        this.elements.clear();
        break;
      }
    }
    this.stack.push(slot);
    const id = this.elements.id(name);
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
      this.elements.clear();
    }
    this.ctx = parent;
  }

  text(text: string, line: number, column: number, offset: number): void {
    const ctx = this.ctx;
    if (ctx === C_FIELD) {
      this.field.value += text;
      return;
    }
    if (ctx === C_SKIP || (ctx >= C_RSS && ctx < C_EXTENSION) || this.strayReported) return;
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
    if (this.ctx === C_FIELD && this.field.problem === '') {
      this.field.problem = `${code}: ${diagnostic.message}`;
      this.field.problemHint = diagnostic.hint;
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

  /** Offer the tokenizer the lane for the root's entries, when their names are the plain ones and WebAssembly runs. */
  private installLane(ctx: number, attributes: readonly XmlAttribute[]): void {
    const plain = (names: string[], ids: number[]): boolean => names.every((n, i) => this.elements.id(n) === ids[i]);
    if (!plain(['url', 'sitemap', 'loc', 'lastmod', 'changefreq', 'priority'], [E_URL, E_SITEMAP, E_LOC, E_LASTMOD, E_CHANGEFREQ, E_PRIORITY])) return;
    // A sink that takes runs by their locs reads with its own lane (its fingerprint table in it).
    const lane = this.sink.urlLocs?.lane ?? Lane.create();
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
    const sitemap = reading.sitemap === true;
    const textOf = asciiTextOf();
    const take = (source: string | Uint8Array, at: number, lines: Int32Array, maxLength: number): number => this.takeRun(lane, sitemap, source, at, lines, maxLength, textOf);
    // A url holds up to image:image > image:loc (three levels). From bytes too: an ASCII chunk is then
    // not decoded piece by piece (document.ts); its text is made once, for the entries' values.
    this.lane = { depth: 1, nesting: sitemap ? 2 : 3, endTag: sitemap ? '</sitemap>' : '</url>', readRun: take, readRunBytes: take };
  }

  /**
   * XmlLane.readRun: the lane's run of `<url>` (or `<sitemap>`) from `at` in text or ASCII bytes, delivered
   * as the events would deliver each.
   */
  private takeRun(lane: Lane, sitemap: boolean, source: string | Uint8Array, at: number, lines: Int32Array, maxLength: number, textOf: (bytes: Uint8Array) => string): number {
    const budget = this.maxEntries - this.delivered;
    if (budget <= 0) return -1;
    const hashed = !sitemap && this.sink.wantsLocHashes === true;
    const runs = !sitemap && typeof source !== 'string' && this.sink.urlRun !== undefined;
    const jsonLines = runs && !hashed ? this.sink.urlLines : undefined;
    const locs = runs && hashed && this.sink.urlLocs?.lane === lane ? this.sink.urlLocs : undefined;
    const count = typeof source === 'string'
      ? lane.scan(source, at, lines[0] as number, lines[1] as number, maxLength, budget, hashed)
      : lane.scanBytes(source, at, lines[0] as number, lines[1] as number, maxLength, budget, hashed);
    if (count === 0) return -1;
    if (jsonLines !== undefined) {
      // Printed from the records and the bytes, no entries (lane-json.ts): the lane's own records serve.
      if (this.deliverLaneRun(count) === count) writeLaneUrlLines(jsonLines, source as Uint8Array, () => textOf(source as Uint8Array), lane.records, count * LANE_FIELDS, lane.extras);
      return lane.stopAfter(count, lines);
    }
    if (locs !== undefined) {
      if (this.deliverLaneRun(count) === count) locs.take(count, () => textOf(source as Uint8Array));
      return lane.stopAfter(count, lines);
    }
    // Copied: a sink may read another document meanwhile, which would write over the lane's records.
    const size = count * LANE_FIELDS;
    let records = this.laneRecords;
    if (records.length < size) records = this.laneRecords = new Int32Array(Math.max(size, 2 * records.length));
    records.set(lane.records.subarray(0, size));
    const extras = lane.extras.slice();
    const end = lane.stopAfter(count, lines);
    const buf = typeof source === 'string' ? source : textOf(source);
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

  /** Where the loc of the entry being delivered starts, for the rules of its value (not kept for the lane's). */
  get locAt(): EntryPosition | undefined {
    return this.loc === undefined ? undefined : { line: this.locLine, column: this.locCol };
  }

  /** How many lane entries may be delivered now (validate's lane, lane-entries.ts). */
  laneBudget(): number {
    return this.lane === null ? 0 : Math.max(0, this.maxEntries - this.delivered);
  }

  /** Deliver a lane `<url>` (or, `sitemap`, a `<sitemap>` of an index) as the events would have. */
  deliverLaneEntry(entry: UrlEntry | SitemapRef, line: number, column: number, sitemap: boolean): void {
    this.beforeLaneEntry();
    if (sitemap) this.sink.sitemap(entry, { line, column });
    else this.sink.url(entry, { line, column });
  }

  /** Deliver `count` lane `<url>`s at once (ReaderSink.urlRun): how many the sink took, -1 when it has no urlRun. */
  deliverLaneRun(count: number): number {
    const sink = this.sink;
    if (sink.urlRun === undefined) return -1;
    this.beforeLaneEntry();
    this.entriesSeen += count - 1;
    this.delivered += count - 1;
    return sink.urlRun(count);
  }

  /** What startTag, beginEntry and finishEntry do around an entry without diagnostics. */
  private beforeLaneEntry(): void {
    if (this.runStarted) this.flushRun();
    if (this.diagOffsets.length !== 0) this.forgetDiagnostics();
    this.entriesSeen++;
    this.delivered++;
    this.strayReported = false;
    this.strayText = '';
  }

  // ---- entering an element -------------------------------------------------------------------------

  /** The context of a new element `id` under `parent`. */
  private enter(parent: number, id: number, name: string, attributes: readonly XmlAttribute[], line: number, column: number, offset: number): number {
    switch (parent) {
      case C_URLSET:
      case C_INDEX:
        if (id === (parent === C_URLSET ? E_URL : E_SITEMAP)) return this.beginEntry(parent === C_URLSET ? C_URL : C_SITEMAP, line, column, offset);
        return this.unexpected(id, name, parent, line, column, offset);
      case C_URL:
        if (id >= E_LOC && id <= E_PRIORITY) return this.beginField(id, attributes, line, column, offset);
        if (EXTENSION_FIELDS[id]?.context === C_URL) return this.extensions.begin(id, { line, column, offset });
        if (id === E_XHTML_LINK) {
          this.alternate(attributes, line, column, offset);
          return C_SKIP;
        }
        return this.unexpected(id, name, parent, line, column, offset);
      case C_SITEMAP:
        if (id === E_LOC || id === E_LASTMOD) return this.beginField(id, attributes, line, column, offset);
        return this.unexpected(id, name, parent, line, column, offset);
      case C_FIELD:
        if (this.field.problem === '') this.field.problem = `it contains the element <${name}>`;
        if (!this.isUrlField(this.field.id)) {
          this.report('element/unexpected', `element <${name}> inside <${FIELD_NAMES[this.field.id] as string}> is ignored, and so is its text`, line, column, offset, 'a value is text only');
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
          if (ctx === C_ENTRY) this.feed.entryBase(attributes);
          return ctx;
        }
        if (id === E_A_LINK) this.feed.feedLinkElement(attributes);
        return C_SKIP;
      case C_ENTRY:
        if (id === E_A_LINK) {
          this.feed.entryLinkElement(attributes, this.attributeProblem(attributes, 'href'));
          return C_SKIP;
        }
        if (id >= E_A_UPDATED && id <= E_A_CREATED) return this.beginField(id, attributes, line, column, offset);
        return C_SKIP;
      case C_TOP:
        return this.root(name, attributes, line, column, offset);
      default: {
        // Inside an extension element: what the vocabulary declares in it, in any order.
        const field = EXTENSION_FIELDS[id];
        if (field === undefined || field.context !== parent) return this.unexpected(id, name, parent, line, column, offset);
        return field.opens === C_SKIP ? this.beginField(id, attributes, line, column, offset) : this.extensions.begin(id, { line, column, offset });
      }
    }
  }

  private root(name: string, attributes: readonly XmlAttribute[], line: number, column: number, offset: number): number {
    const { uri, local } = this.scope.resolve(name);
    const format = formatOfRoot(uri, local);
    if (this.format !== undefined) {
      // A second root (two documents joined; the tokenizer said so): read it too when it is the same kind.
      return (format === this.format && uri === this.rootUri ? ROOT_CONTEXT[format] : undefined) ?? C_SKIP;
    }
    this.rootUri = uri;
    this.rootAt = { line, column, offset };
    this.setFormat(format);
    switch (format) {
      case 'urlset':
      case 'sitemapindex': {
        const problem = sitemapNamespaceProblem(uri, local);
        if (problem !== undefined) this.report(problem.code, problem.message, line, column, offset, problem.hint);
        break;
      }
      case 'rss':
        break;
      case 'atom':
      case 'atom03':
        this.feed.base = resolveBase(attrValue(attributes, 'xml:base'), undefined);
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
    this.elements.setRoot(uri, format);
    return ROOT_CONTEXT[format] as number;
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
        this.report('budget/entries', `more than ${plural(this.maxEntries, 'entry', 'entries')}; the rest are not read`, line, column, offset, 'raise the entry budget (--max-entries, maxEntries) if this is legitimate');
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
    this.extensions.beginEntry();
    this.alternates = undefined;
    this.strayReported = false;
    this.strayText = '';
    if (ctx === C_ITEM || ctx === C_ENTRY) this.feed.beginEntry();
    return ctx;
  }

  private beginField(id: number, attributes: readonly XmlAttribute[], line: number, column: number, offset: number): number {
    const urlAttribute = EXTENSION_FIELDS[id]?.urlAttribute;
    this.field.begin(id, attributes, urlAttribute === undefined ? '' : this.attributeProblem(attributes, urlAttribute), line, column, offset);
    return C_FIELD;
  }

  /** Whether the field's text is a URL: loc, an RSS link or guid, an extension element the vocabulary types as anyURI. */
  private isUrlField(id: number): boolean {
    return id === E_LOC || id === E_R_LINK || id === E_R_GUID || EXTENSION_FIELDS[id]?.decl.type.text === anyUri;
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
      // With media="…", Google's annotation of a separate mobile URL: no hreflang alternate, and nothing wrong.
      if (attrValue(attributes, 'media') !== undefined) return;
      this.report('alternate/invalid', `<xhtml:link rel="alternate" href=${show(href)}> without hreflang is skipped`, line, column, offset, 'add hreflang="…" (a language such as "en", "en-GB", or "x-default")');
      return;
    }
    const problem = this.attributeProblem(attributes, 'href');
    if (problem !== '') {
      this.report('url/untrusted', `the href of <xhtml:link hreflang=${show(hreflang)}> cannot be trusted (${problem}); the alternate is dropped`, line, column, offset);
      return;
    }
    const unusable = unusableUrl(href);
    if (unusable !== undefined) {
      this.report('alternate/invalid', `the href ${show(href)} of <xhtml:link hreflang=${show(hreflang)}> is not a URL anything can fetch: ${unusable.why}; the alternate is skipped`, line, column, offset, unusable.hint);
      return;
    }
    (this.alternates ??= []).push({ hreflang, href });
  }

  // ---- leaving an element --------------------------------------------------------------------------

  private leave(ctx: number, synth: boolean): void {
    switch (ctx) {
      case C_FIELD:
        this.finishField(this.field.id, xmlTrim(this.field.value));
        this.field.value = '';
        return;
      case C_URL:
      case C_SITEMAP:
      case C_ITEM:
      case C_ENTRY: {
        if (synth) {
          this.report('loc/untrusted', `the <${CONTEXT_NAMES[ctx] as string}> element is not closed properly (${this.synthCode}); its entry is dropped`, this.eLine, this.eCol, this.eOffset, 'the file is damaged or cut short');
          return;
        }
        if (ctx === C_URL || ctx === C_SITEMAP) return this.finishEntry(ctx);
        const entry = this.feed.finish(ctx, { line: this.eLine, column: this.eCol, offset: this.eOffset });
        if (entry === undefined) return;
        this.delivered++;
        this.sink.url(entry, { line: this.eLine, column: this.eCol });
        return;
      }
      case C_URLSET:
      case C_INDEX:
      case C_RSS:
      case C_FEED:
        if (this.entriesSeen === 0) {
          const [code, what] = ctx === C_URLSET ? ['urlset/empty', 'the urlset has no <url> entries'] : ctx === C_INDEX ? ['sitemapindex/empty', 'the sitemap index has no <sitemap> entries'] : ['feed/empty', `the feed has no ${ctx === C_RSS ? '<item>' : '<entry>'} entries`];
          this.reportAt(code, what, this.rootAt);
        }
        return;
      default:
        if (ctx >= C_EXTENSION) this.extensions.finish(ctx);
    }
  }

  private finishField(id: number, v: string): void {
    switch (id) {
      // -- sitemap
      case E_LOC:
        if (this.loc !== undefined) return this.field.duplicate();
        this.loc = v;
        this.locProblem = this.field.problem;
        this.locHint = this.field.problemHint;
        this.locLine = this.field.line;
        this.locCol = this.field.column;
        this.locOffset = this.field.offset;
        return;
      case E_LASTMOD:
        if (this.lastmod !== undefined) return this.field.duplicate();
        this.lastmod = v;
        this.field.checkW3cDate(v, 'lastmod', 'lastmod/invalid', 'lastmod/lenient');
        return;
      case E_CHANGEFREQ:
        if (this.changefreq !== undefined) return this.field.duplicate();
        this.changefreq = v;
        if (!isChangefreq(v)) {
          const lower = v.toLowerCase();
          if (isChangefreq(lower)) this.field.report('changefreq/case', `changefreq ${show(v)} is not one of ${CHANGEFREQS.join(', ')}: they are lower case`, `write "${lower}"`);
          else this.field.report('changefreq/invalid', `changefreq ${show(v)} is not one of ${CHANGEFREQS.join(', ')}; kept as written`);
        }
        return;
      case E_PRIORITY: {
        if (this.priority !== undefined) return this.field.duplicate();
        const tenths = priorityTenths(v);
        if (tenths >= 0) {
          this.priority = tenths / 10;
          return;
        }
        if (!DECIMAL.test(v)) {
          this.priority = v;
          this.field.report('priority/invalid', `priority ${show(v)} is not a decimal number; kept as written`, 'write a number from 0.0 to 1.0, such as 0.5');
          return;
        }
        if (!decimalWithin(v, 0, 1)) {
          this.priority = v;
          this.field.report('priority/out-of-range', `priority ${show(v)} is outside 0.0–1.0; kept as written`, 'write a number from 0.0 to 1.0');
          return;
        }
        this.priority = Number(v);
        return;
      }
      default:
        if (id >= E_EXTENSION) return this.extensions.fieldRead(id, v);
        return this.feed.fieldRead(id, v);
    }
  }

  // ---- entries -------------------------------------------------------------------------------------

  /** Whether the current entry's loc can be delivered; reports why not. */
  private checkLoc(ctx: number): string | undefined {
    const element = CONTEXT_NAMES[ctx] as string;
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
    const unusable = unusableUrl(loc);
    if (unusable !== undefined) {
      this.report('loc/invalid', `loc ${show(loc)} is not a URL anything can fetch: ${unusable.why}; the entry is skipped`, this.locLine, this.locCol, this.locOffset, unusable.hint);
      return undefined;
    }
    return loc;
  }

  private finishEntry(ctx: number): void {
    const loc = this.checkLoc(ctx);
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
    const { images, videos, news } = this.extensions;
    if (images !== undefined) entry.images = images;
    if (videos !== undefined) entry.videos = videos;
    if (news !== undefined) entry.news = news;
    if (this.alternates !== undefined) entry.alternates = this.alternates;
    this.sink.url(entry, at);
  }

  // ---- diagnostics ---------------------------------------------------------------------------------

  private report(code: string, message: string, line: number, column: number, offset: number, hint?: string): void {
    this.sink.diagnostic(diagnosticAt(code, XML_READER_CODES[code] as Severity, message, line, column, offset, hint));
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

/** For tests and small inputs: the whole text → format, entries and diagnostics, in order. */
export function readXmlSitemapText(text: string, budgets: ReaderBudgets = {}): XmlSitemapReadResult {
  const result: XmlSitemapReadResult = { format: 'unknown', urls: [], sitemaps: [], diagnostics: [] };
  const diagnostics = new DiagnosticCollector();
  const reader = new XmlSitemapReader(
    {
      format: (format) => {
        result.format = format;
      },
      url: (entry) => result.urls.push(entry),
      sitemap: (ref) => result.sitemaps.push(ref),
      diagnostic: (d) => diagnostics.add(d),
    },
    budgets,
  );
  const tokenizer = new XmlTokenizer(reader, {
    // The tokenizer's default depth is the reader's; its default value length is ten times longer.
    maxDepth: budgets.maxDepth,
    maxValueLength: budgets.maxValueLength ?? DEFAULT_MAX_VALUE_LENGTH,
  });
  tokenizer.write(textAfterBom(text));
  tokenizer.end();
  reader.end();
  result.diagnostics = diagnostics.list();
  return result;
}

