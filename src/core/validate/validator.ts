// One sitemap's validation: the reader's diagnostics, the schemas' structure (structure.ts, on the same
// XML events) and the protocol's rules on the entries (protocol.ts, hreflang.ts). Push-based like the
// reader; node/validate-sitemap.ts feeds it from files, stdin and gzip.

import { DiagnosticCollector, TRUNCATED_CODE, type Diagnostic, type Severity } from '../diagnostics.js';
import { SitemapError, quoteValue } from '../errors.js';
import { LIMITS_PROFILES, NS, type LimitsProfileName, type SitemapRef, type UrlEntry } from '../model.js';
import { isFeed, type EntryPosition, type ReaderSink, type SitemapFormat } from '../read/types.js';
import { XmlTokenizer, type XmlAttribute, type XmlLane, type XmlTokenHandler } from '../xml/tokenizer.js';
import { laneEntries } from './lane-entries.js';
import { FINGERPRINT, fingerprint } from '../fingerprint.js';
import { XmlSitemapReader } from '../read/xml-reader.js';
import { LANE_FIELDS, laneUrlEntry, Lane, R_EXTRA_COUNT, R_HASH_1, R_HASH_2, R_IMAGES, recordPosition, type LaneReading, type RunText } from '../read/lane.js';
import { resolveEncodingLabel } from '../read/sniff.js';
import { textAfterBom } from '../read/decode.js';
import { HreflangChecker } from './hreflang.js';
import { ProtocolChecker, SEEN_CAPACITY } from './protocol.js';
import { StructureChecker } from './structure.js';
import type { FileReport } from './types.js';
import { FEED_NO_SCHEMA, TEXT_XML_NAME, VALIDATION_RULES } from './rules.js';

/** A rule's severity as configured: a severity, or `off`. */
export type RuleSetting = Severity | 'off';

export interface ValidationOptions {
  /** Limits profile: `current` (50,000 URLs, 50 MB) or `legacy` (the seed documents' 10 MB and 1,000 sitemaps per index). */
  limits?: LimitsProfileName;
  /** The URL the sitemap is served at: its directory bounds every URL (sitemaps.org: "Sitemap file location"). */
  baseUrl?: string;
  /** The older name of `baseUrl`, still read when `baseUrl` is not given. */
  location?: string;
  /** Epoch milliseconds taken as now, for lastmod in the future. Default: the clock. */
  now?: number;
  /** Severity overrides by code (`off` drops the rule). */
  rules?: Readonly<Record<string, RuleSetting>>;
  /** Read runs of valid entries with the WebAssembly lane where it runs (default true); the report is the same. */
  fastPath?: boolean;
  /** Most distinct URLs remembered for the duplicate check, default 1,000,000 (then `duplicates/not-checked`). */
  maxTrackedUrls?: number;
  /** Diagnostics of one code kept (default 1,000); the rest are counted, in `diagnostics/truncated`. */
  maxDiagnosticsPerCode?: number;
  /** Receives every diagnostic of the report as it is found (rule settings applied, `file` set), kept or not. */
  onDiagnostic?: (d: Diagnostic) => void;
  /** Receives every `<url>` read, in document order; `locHash` (core/fingerprint.ts) is reused: read it at once. */
  onUrl?: (entry: UrlEntry, at: EntryPosition, locHash: Int32Array) => void;
}

/** Most diagnostics held back while an entry is read (see `settle`): a bound no real entry reaches. */
const SETTLE_WINDOW = 4_096;

/** What a schema validator cannot read: the tokenizer's codes but a DOCTYPE or a version, bad bytes, a budget, bad gzip. */
function NOT_WELL_FORMED(code: string): boolean {
  return (code.startsWith('xml/') && code !== 'xml/doctype' && code !== 'xml/version') || code.startsWith('budget/') || code === 'encoding/invalid-bytes' || code === 'encoding/unsupported' || code === 'encoding/refused' || code === 'gzip/corrupt';
}

/** A name (a path or a URL) that promises XML: `.xml` or `.xml.gz`, a query string aside. */
const XML_NAME = /\.xml(?:\.gz)?(?:[?#].*)?$/i;

/** The document rule this document breaks, as a diagnostic, if any. */
function documentProblem(format: SitemapFormat | undefined, file: string): Diagnostic | undefined {
  if (isFeed(format)) {
    const kind = format === 'rss' ? 'an RSS feed' : 'an Atom feed';
    return { code: FEED_NO_SCHEMA.code, severity: FEED_NO_SCHEMA.severity, message: `${kind}: engines accept it as a sitemap, but no sitemap schema does`, hint: 'submit a urlset, or accept feeds: --rule feed/no-schema=warning' };
  }
  if (format === 'text' && XML_NAME.test(file)) {
    return { code: TEXT_XML_NAME.code, severity: TEXT_XML_NAME.severity, message: 'a list of URLs named .xml: a text sitemap must be a .txt file', hint: 'rename it to .txt, or make it a urlset with sitemapkit generate' };
  }
  return undefined;
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { info: 0, warning: 1, error: 2 };

function moreSevere(a: Severity | undefined, b: Severity): Severity {
  return a !== undefined && SEVERITY_RANK[a] > SEVERITY_RANK[b] ? a : b;
}

/** Where an `xsd/*` diagnostic would only repeat another one at the same element. */
function key(d: Diagnostic): string {
  return `${d.line ?? ''}:${d.column ?? ''}`;
}

/** The prefixes the root binds to the image and XHTML namespaces. */
function extensionPrefixes(attributes: readonly XmlAttribute[], structure: StructureChecker): LaneReading {
  const prefixes: LaneReading = {};
  for (const { name, value } of attributes) {
    if (!name.startsWith('xmlns:')) continue;
    const prefix = name.slice(6);
    if (value === NS.image && structure.resolves(`${prefix}:image`, NS.image)) prefixes.image ??= prefix;
    else if (value === NS.xhtml && structure.resolves(`${prefix}:link`, NS.xhtml)) prefixes.xhtml ??= prefix;
  }
  return prefixes;
}

/** The levels a rule may be set to. */
export const RULE_SETTINGS: readonly RuleSetting[] = ['error', 'warning', 'info', 'off'];

/** Refuses options the checks would misread (a level spelt wrong made an error an info). */
function checkValidationOptions(options: ValidationOptions): void {
  const refuse = (message: string): never => {
    throw new SitemapError('ERR_SITEMAP_OPTION', message);
  };
  if (options.limits !== undefined && !Object.hasOwn(LIMITS_PROFILES, options.limits)) refuse(`limits must be one of ${Object.keys(LIMITS_PROFILES).join(', ')}, got ${quoteValue(options.limits)}`);
  const location = options.baseUrl ?? options.location;
  if (location !== undefined && !(URL.canParse(location) && /^https?:$/.test(new URL(location).protocol))) refuse(`baseUrl must be an absolute http(s) URL, got ${quoteValue(location)}`);
  if (options.now !== undefined && Number.isNaN(new Date(options.now).getTime())) refuse(`now must be epoch milliseconds of a valid date, got ${quoteValue(options.now)}`);
  for (const [code, level] of Object.entries(options.rules ?? {})) {
    if (!VALIDATION_RULES.has(code)) refuse(`unknown rule ${quoteValue(code)} in rules (the codes are listed in docs/rules.md)`);
    if (!RULE_SETTINGS.includes(level)) refuse(`the level of rule ${code} must be one of ${RULE_SETTINGS.join(', ')}, got ${quoteValue(level)}`);
  }
}

export class SitemapValidation implements ReaderSink {
  private readonly collector: DiagnosticCollector;
  /** Whether a diagnostic made the document unreadable for a schema validator. */
  private notWellFormed = false;
  /** The diagnostics of the entry being read, held until it ends (settle). */
  private readonly pendingXsd: Diagnostic[] = [];
  private readonly pendingOthers: Diagnostic[] = [];
  /** Scratch of settle: the positions of the others, and the schema severity each stands for. */
  private readonly recentKeys = new Set<string>();
  private readonly standIn = new Map<string, Severity>();
  /** Open elements (to settle at the end of each entry). */
  private depth = 0;
  private readonly structure: StructureChecker;
  private readonly protocol: ProtocolChecker;
  private readonly hreflang = new HreflangChecker();
  private readonly rules: Readonly<Record<string, RuleSetting>>;
  private format_: SitemapFormat | undefined;
  private xsdActive = false;
  private entries = 0;
  /** Entries read so far (a progress line's count). */
  get entriesRead(): number {
    return this.entries;
  }
  private readonly locHash = new Int32Array(2);
  /** The entry the fast path is delivering: its loc is known to be encoded. */
  private laneEntry: UrlEntry | SitemapRef | undefined;
  /** Whether locHash holds laneEntry's loc's fingerprint already (the lane's). */
  private laneHashed = false;
  /** With the duplicate check's table; undefined without WebAssembly or with `fastPath: false`. */
  private readonly lane: Lane | undefined;
  private readonly onUrl: ValidationOptions['onUrl'];
  private reader: XmlSitemapReader | undefined;

  constructor(private readonly file: string, options: ValidationOptions = {}) {
    checkValidationOptions(options);
    this.onUrl = options.onUrl;
    this.collector = new DiagnosticCollector({ maxPerCode: options.maxDiagnosticsPerCode, onDiagnostic: options.onDiagnostic });
    const collect = (d: Diagnostic): void => this.diagnostic(d);
    this.structure = new StructureChecker(collect);
    this.rules = options.rules ?? {};
    this.lane = (options.fastPath ?? true) ? Lane.createWithTable(SEEN_CAPACITY) : undefined;
    this.protocol = new ProtocolChecker({ limits: LIMITS_PROFILES[options.limits ?? 'current'], location: options.baseUrl ?? options.location, now: options.now ?? Date.now(), maxTracked: options.maxTrackedUrls, lane: this.lane, locAt: () => this.reader?.locAt }, collect);
  }

  /** Whether the document passes the schemas (what `xmllint --schema` would say), once finished. */
  get schemaValid(): boolean {
    return this.xsdActive && !this.structure.invalid && !this.notWellFormed;
  }

  /** The reader's XML handler, feeding the structure checker too; offers entries to the lane once the root allows. */
  xmlHandler(reader: XmlSitemapReader): XmlTokenHandler {
    this.reader = reader;
    const structure = this.structure;
    let plain: XmlLane | null = null;
    return {
      startTag: (name: string, attributes: readonly XmlAttribute[], selfClosing: boolean, line: number, column: number, offset: number): void => {
        reader.startTag(name, attributes, selfClosing, line, column, offset);
        // Every start tag has its end tag, self-closing or synthesised by recovery (tokenizer.ts).
        this.depth++;
        if (!this.xsdActive) return;
        structure.startTag(name, attributes, line, column, offset);
        if (this.lane !== undefined && plain === null && !selfClosing) {
          const entryName = structure.laneEntryName();
          if (entryName !== undefined) {
            plain = laneEntries(entryName, reader, structure, (entry, hash1, hash2) => {
              this.laneEntry = entry;
              this.laneHashed = hash1 !== undefined;
              if (hash1 !== undefined) {
                this.locHash[0] = hash1;
                this.locHash[1] = hash2 as number;
              }
            }, extensionPrefixes(attributes, structure), this.lane, (text, count, bytes) => this.checkRun(text, count, bytes));
          }
        }
      },
      endTag: (name: string, line: number, column: number, offset: number): void => {
        reader.endTag(name, line, column, offset);
        if (this.xsdActive) structure.endTag();
        // An entry (or the root) is over: what the reader and the structure said of it is all known.
        if (--this.depth <= 1) this.settle();
      },
      text: (text: string, line: number, column: number, offset: number): void => {
        reader.text(text, line, column, offset);
        if (this.xsdActive) structure.text(text, line, column, offset);
      },
      cdata: (line: number, column: number, offset: number): void => {
        if (this.xsdActive) structure.cdata(line, column, offset);
      },
      diagnostic: (d: Diagnostic): void => reader.diagnostic(d),
      // Only while the reader offers its own: it knows when entries may be read in one step.
      get lane(): XmlLane | null {
        return reader.lane === null ? null : plain;
      },
    };
  }

  // ---- ReaderSink ------------------------------------------------------------------------------------

  format(format: SitemapFormat): void {
    if (this.format_ === undefined && (format === 'urlset' || format === 'sitemapindex')) this.xsdActive = true;
    this.format_ ??= format;
  }

  url(entry: UrlEntry, at: EntryPosition): void {
    this.entries++;
    // Hashed once for both checkers (by the lane already, for the urls it read).
    const locHash = this.locHash;
    if (entry !== this.laneEntry || !this.laneHashed) {
      fingerprint(entry.loc);
      locHash[0] = FINGERPRINT[0] as number;
      locHash[1] = FINGERPRINT[1] as number;
    }
    this.protocol.url(entry, at, locHash, entry === this.laneEntry);
    // Every url, with alternates or not: a page without them may be the one that lacks a return link.
    const found = this.hreflang.add(entry, at, locHash);
    for (let i = 0; i < found.length; i++) this.diagnostic(found[i] as Diagnostic);
    this.onUrl?.(entry, at, locHash);
  }

  /** As a reader's own sink (tests): a run of urls the lane read is checked by checkRun. */
  urlRun(count: number): number {
    return count;
  }

  /** The checks of `url` for a run of the lane's urls (lane-entries.ts CheckRun), made into entries only for onUrl. */
  private checkRun(text: RunText, count: number, bytes: Uint8Array | undefined): void {
    this.entries += count;
    const lane = this.lane as Lane;
    if (this.onUrl !== undefined) {
      if (typeof text !== 'string') text = text();
      const { records, extras } = lane;
      for (let r = 0; r < count * LANE_FIELDS; r += LANE_FIELDS) {
        this.locHash[0] = records[r + R_HASH_1] as number;
        this.locHash[1] = records[r + R_HASH_2] as number;
        this.onUrl(laneUrlEntry(text, records, r, extras), recordPosition(records, r), this.locHash);
      }
    }
    this.protocol.laneUrls(text, count);
    // Made after laneUrls, whose duplicate check may grow the lane's memory; nothing below calls into it.
    this.hreflang.addPages(lane.pages(0, count), 0, count);
    if (lane.linkedCount === 0) return;
    // The module lists the urls with extensions (images or alternates): no script loop over every url.
    const withExtras = lane.pick(count, R_EXTRA_COUNT, 1);
    const picked = lane.attention;
    const records = lane.records;
    const extras = lane.extras;
    for (let p = 0; p < withExtras; p++) {
      const r = (picked[p * 2] as number) * LANE_FIELDS;
      if ((records[r + R_EXTRA_COUNT] as number) === (records[r + R_IMAGES] as number)) continue;
      const found = this.hreflang.addLaneUrl(bytes ?? (typeof text === 'string' ? text : (text = text())), records, r, extras);
      for (let i = 0; i < found.length; i++) this.diagnostic(found[i] as Diagnostic);
    }
  }

  sitemap(ref: SitemapRef, at: EntryPosition): void {
    this.entries++;
    this.protocol.sitemap(ref, at, ref === this.laneEntry);
  }

  /**
   * Every diagnostic. An `xsd/*` one at the element of another (`lastmod/invalid`) only lends it its
   * severity; as they come in either order, an entry's diagnostics wait until it ends (settle).
   */
  diagnostic(d: Diagnostic): void {
    if (NOT_WELL_FORMED(d.code)) this.notWellFormed = true;
    if (d.line === undefined) {
      this.keep(d, undefined);
      return;
    }
    if (d.code.startsWith('xsd/')) this.pendingXsd.push(d);
    else this.pendingOthers.push(d);
    if (this.pendingXsd.length + this.pendingOthers.length >= SETTLE_WINDOW) this.settle();
  }

  /** Keeps the held diagnostics: the others, as severe as an `xsd/*` one at their element at least; then lone `xsd/*`. */
  private settle(): void {
    const others = this.pendingOthers;
    const schema = this.pendingXsd;
    if (others.length === 0 && schema.length === 0) return;
    const keys = this.recentKeys;
    for (let i = 0; i < others.length; i++) keys.add(key(others[i] as Diagnostic));
    const standIn = this.standIn;
    for (let i = 0; i < schema.length; i++) {
      const d = schema[i] as Diagnostic;
      const at = key(d);
      if (!keys.has(at)) continue;
      const setting = this.rules[d.code] ?? d.severity;
      if (setting !== 'off') standIn.set(at, moreSevere(standIn.get(at), setting));
    }
    for (let i = 0; i < others.length; i++) {
      const d = others[i] as Diagnostic;
      this.keep(d, standIn.get(key(d)));
    }
    for (let i = 0; i < schema.length; i++) {
      const d = schema[i] as Diagnostic;
      if (!keys.has(key(d))) this.keep(d, undefined);
    }
    others.length = 0;
    schema.length = 0;
    keys.clear();
    standIn.clear();
  }

  /** Into the report, rule settings applied; unset, what libxml2 cannot parse is an error; `standIn` may raise it. */
  private keep(d: Diagnostic, standIn: Severity | undefined): void {
    const setting = this.rules[d.code];
    if (setting === 'off') return;
    const out: Diagnostic = { ...d, file: this.file };
    if (setting !== undefined) out.severity = setting;
    else if (NOT_WELL_FORMED(d.code)) out.severity = 'error';
    else out.severity = moreSevere(standIn, d.severity);
    this.collector.add(out);
  }

  /** The report, given the document's size in bytes after decompression. */
  finish(bytes: number): FileReport {
    this.settle();
    this.protocol.finish(bytes, this.format_ === 'sitemapindex');
    // The lane's table holds every loc's comparableUrl fingerprint, as hreflang's checks, unless tracking stopped.
    const seen = this.lane?.seen;
    const late = this.hreflang.finish(seen !== undefined && seen.size < this.protocol.maxTracked ? seen : undefined);
    // Nothing reads the lane after this: its instance serves the next validation.
    this.lane?.release();
    for (let i = 0; i < late.length; i++) this.diagnostic(late[i] as Diagnostic);
    this.settle();
    const problem = documentProblem(this.format_, this.file);
    if (problem !== undefined) this.keep(problem, undefined);
    const kept = this.collector.retained.slice();
    // Document order; diagnostics without a position (limits) last. The sort is stable.
    kept.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0));
    const truncated = this.collector.truncation(this.file);
    const setting = this.rules[TRUNCATED_CODE];
    if (truncated !== undefined && setting !== 'off') kept.push(setting === undefined ? truncated : { ...truncated, severity: setting });
    return { file: this.file, format: this.format_, entries: this.entries, diagnostics: kept, counts: this.collector.counts };
  }
}

/** Validate an XML sitemap given as text (no decoding, no gzip: node/validate-sitemap.ts reads files and bytes). */
export function validateXmlSitemapText(text: string, options: ValidationOptions & { file?: string } = {}): FileReport & { schemaValid: boolean } {
  const validation = new SitemapValidation(options.file ?? '<input>', options);
  const reader = new XmlSitemapReader(validation, {});
  const handler = validation.xmlHandler(reader);
  // The declared encoding is not used, but one no reader knows makes the file unreadable from its bytes (sniff.ts).
  handler.xmlDeclaration = (d, line, column, offset): void => {
    if (d.encoding !== undefined && resolveEncodingLabel(d.encoding, true) === undefined) {
      validation.diagnostic({ code: 'encoding/unsupported', severity: 'error', message: `unknown or unsupported encoding "${d.encoding}" in the XML declaration`, line, column, offset, hint: 'declare encoding="UTF-8" and save the file as UTF-8' });
    }
  };
  const tokenizer = new XmlTokenizer(handler, { maxValueLength: 1024 * 1024 });
  tokenizer.write(textAfterBom(text));
  tokenizer.end();
  reader.end();
  const report = validation.finish(new TextEncoder().encode(text).length);
  return { ...report, schemaValid: validation.schemaValid };
}
