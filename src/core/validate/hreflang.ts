// The hreflang rules (Google Search Central, "Tell Google about localized versions of your page",
// "Sitemap"): a <url> with alternates lists itself, links go both ways (return links), x-default at
// most once, each value a language tag Google understands.
//
// Per-url rules are decided in `add`; return links need the whole sitemap and are decided in `finish`
// from compact records: the loc's and hrefs' fingerprints (as write/fingerprint-set.ts), the position,
// and the loc copied into our own UTF-8 bytes (a substring would keep the whole decoded document alive).
// URLs are compared in the form equivalent URLs share (url.ts comparableUrl, RFC 3986 §6.2): a host or
// scheme in another case is the same page, but `/en` and `/en/` are two, as Google matches them.

import type { Diagnostic } from '../diagnostics.js';
import { plural, positiveInteger, quoteValue } from '../errors.js';
import type { UrlEntry } from '../model.js';
import { addLaneExtensions, EXTRA_FIELDS, extraValue, laneLoc, R_COLUMN, R_END, R_EXTRA_COUNT, R_EXTRA_FROM, R_FLAGS, R_HASH_1, R_HASH_2, R_LINE, R_LOC_LENGTH, R_LOC_START, R_START, F_LOC_REFERENCES, F_LOC_UNUSUAL, X_FLAGS, X_HREF_HASH_1, X_HREF_HASH_2, X_HREFLANG_HASH_1, X_HREFLANG_HASH_2, X_HREFLANG_LENGTH, X_HREFLANG_START, X_IMAGE, X_KIND, X_VALUE_LENGTH, X_VALUE_START } from '../read/lane.js';
import { comparableUrl, locFingerprint, MAX_URL_LENGTH } from '../url.js';
import type { EntryPosition } from '../read/types.js';
import { escapeXmlAttribute } from '../xml/escape.js';
import { languageTagProblem, type LanguageTagProblem } from './language-tag.js';
import { FINGERPRINT, fingerprint } from '../fingerprint.js';
import { doubled, FingerprintTable, type FingerprintSet } from '../fingerprint-table.js';
import type { RuleInfo } from './types.js';

/** The hreflang rules by code: default severity and title (types.ts RuleInfo; docs/rules.md has the long form). */
export const HREFLANG_RULES = {
  'hreflang/invalid-language': { severity: 'error', title: 'hreflang is x-default or a language tag Google understands (ISO 639-1 language, optional script and ISO 3166-1 region)' },
  'hreflang/duplicate-x-default': { severity: 'error', title: 'a <url> gives x-default at most once' },
  'hreflang/duplicate-language': { severity: 'error', title: 'a <url> gives each hreflang value for one URL only' },
  'hreflang/missing-self': { severity: 'warning', title: 'a <url> with alternates lists itself among them' },
  'hreflang/missing-return-link': { severity: 'warning', title: 'a <url> listed as an alternate lists the <url> that lists it (return link)' },
  'hreflang/not-checked': { severity: 'info', title: 'return links are checked for sitemaps of up to maxUrls urls' },
} as const satisfies Readonly<Record<string, Omit<RuleInfo, 'code'>>>;

export interface HreflangCheckerOptions {
  /** Most urls remembered for the return-link check; past it, the check stops with `hreflang/not-checked`. Default 1,000,000. */
  maxUrls?: number;
}

const DEFAULT_MAX_URLS = 1_000_000;

/** Shared by every url without alternates, so that most urls allocate nothing here. */
const NONE: readonly never[] = Object.freeze([]);

const GENERIC_LANGUAGE_HINT = 'use a language such as "en", a language and region such as "en-GB", or "x-default"';

/** The hreflang rules over one sitemap: every `<url>` to `add` in document order, then `finish` (which empties it). */
export class HreflangChecker {
  private readonly maxUrls: number;
  /** Created at the first url; dropped at the cap and by `finish`. */
  private graph: AlternateGraph | undefined;
  private notChecked: Diagnostic | undefined;
  private readonly laneHash = new Int32Array(2);

  constructor(options: HreflangCheckerOptions = {}) {
    this.maxUrls = positiveInteger(options.maxUrls, DEFAULT_MAX_URLS, 'maxUrls');
  }

  /** One url, in document order: its own diagnostics. `again`: its page is counted already (addLaneUrl). */
  add(entry: UrlEntry, at: EntryPosition, locHash?: Int32Array, again = false): readonly Diagnostic[] {
    const alternates = entry.alternates ?? NONE;
    for (const link of alternates) {
      hrefs.push(link.href);
      hreflangs.push(link.hreflang);
    }
    return this.check(entry.loc, at.line, at.column, locHash, again);
  }

  /** `add` for a lane url with alternates (record `r`, page added by `addPages`, its loc's hash comparable): strings only where needed. */
  addLaneUrl(source: string | Uint8Array, records: Int32Array, r: number, extras: Int32Array): readonly Diagnostic[] {
    this.laneHash[0] = records[r + R_HASH_1] as number;
    this.laneHash[1] = records[r + R_HASH_2] as number;
    const line = records[r + R_LINE] as number;
    const column = records[r + R_COLUMN] as number;
    const count = knownLinks(source, records, r, extras);
    const start = records[r + (count === -1 ? R_START : R_LOC_START)] as number;
    const end = count === -1 ? (records[r + R_END] as number) : start + (records[r + R_LOC_LENGTH] as number);
    if (count !== -1 && this.graph !== undefined) {
      const record = this.graph.addPage(line, column, this.laneHash, true);
      // The loc's bytes are its UTF-8 unless it holds references.
      if (typeof source !== 'string' && ((records[r + R_FLAGS] as number) & F_LOC_REFERENCES) === 0) this.graph.addLinks(record, count, source, start, end - start);
      else this.graph.addLinks(record, count, typeof source === 'string' ? laneLoc(source, records, r) : laneLoc(utf8Decoder.decode(source.subarray(start, end)), records, r, start));
    }
    hreflangs.length = 0;
    if (count !== -1) return NONE;
    // Made an entry (of only this url's own bytes, when read from bytes).
    const text = typeof source === 'string' ? source : utf8Decoder.decode(source.subarray(start, end));
    const base = typeof source === 'string' ? 0 : start;
    const entry: UrlEntry = { loc: laneLoc(text, records, r, base) };
    addLaneExtensions(text, records, r, extras, entry, base);
    return this.add(entry, { line, column }, this.laneHash, true);
  }

  /** The rules on the alternates in `hrefs` and `hreflangs` (emptied here); the url remembered. `locHash`: of the loc as written. */
  private check(loc: string, line: number, column: number, locHash: Int32Array | undefined, again: boolean): readonly Diagnostic[] {
    const count = hrefs.length;
    const page = comparableUrl(loc);
    for (let i = 0; i < count; i++) pages[i] = comparableUrl(hrefs[i] as string);
    const diagnostics = count === 0 ? NONE : entryDiagnostics(loc, page, { line, column });
    const graph = again ? this.graph : this.graphFor(line, column);
    if (graph !== undefined) {
      const record = graph.addPage(line, column, locFingerprint(loc, locHash, page), again);
      for (let i = 0; i < count; i++) {
        fingerprint(pages[i] as string);
        linkHashes[i * 2] = FINGERPRINT[0] as number;
        linkHashes[i * 2 + 1] = FINGERPRINT[1] as number;
      }
      if (count > 0) graph.addLinks(record, count, loc);
    }
    hrefs.length = 0;
    hreflangs.length = 0;
    pages.length = 0;
    return diagnostics;
  }

  /** Missing return links in document order, or `hreflang/not-checked`; `locs`: every loc's fingerprint, if known. */
  finish(locs?: FingerprintSet): Diagnostic[] {
    const diagnostics = this.notChecked !== undefined ? [this.notChecked] : (this.graph?.missingReturnLinks(locs) ?? []);
    this.graph?.release();
    this.graph = undefined;
    this.notChecked = undefined;
    return diagnostics;
  }

  /** A lane run's urls as pages without alternates: quads `from` to `from + count - 1` of Lane.pages. */
  addPages(pages: Int32Array, from: number, count: number): void {
    let k = from;
    const end = from + count;
    while (k < end) {
      const graph = this.graphFor(pages[k * 4] as number, pages[k * 4 + 1] as number);
      if (graph === undefined) return;
      // As many as the graph takes before its cap, in one step.
      const n = Math.min(end - k, this.maxUrls - graph.urls);
      graph.addPages(pages, k, n);
      k += n;
    }
  }

  /** The graph that takes the url at this position, or undefined past the cap (reported once, here). */
  private graphFor(line: number, column: number): AlternateGraph | undefined {
    if (this.notChecked !== undefined) return undefined;
    this.graph ??= new AlternateGraph();
    if (this.graph.urls >= this.maxUrls) {
      this.graph = undefined; // frees the memory: nothing more can be concluded
      this.notChecked = problemAt({ line, column }, 'hreflang/not-checked', `hreflang return links were not checked: the sitemap has more than ${plural(this.maxUrls, 'url')}`,
        'check smaller sitemaps (at most 50,000 urls each, as sitemaps.org requires), or raise maxUrls');
      return undefined;
    }
    return this.graph;
  }
}

/** The alternates of the url being checked: `hrefs[i]` with `hreflangs[i]`, its page `pages[i]` (comparableUrl); emptied by `check`. */
const hrefs: string[] = [];
const hreflangs: string[] = [];
const pages: string[] = [];
/** Their hrefs' fingerprints, as pairs (a double array: int32s unboxed). */
const linkHashes: number[] = [];

/** An hreflang value, its problem, and the language it counts as (lowercased, RFC 5646 §2.1.1). */
interface KnownTag {
  readonly text: string;
  readonly hash1: number;
  readonly hash2: number;
  readonly problem: LanguageTagProblem | undefined;
  readonly language: string;
}

// A sitemap uses a few dozen distinct hreflang values millions of times: each is decided once and
// kept in a slot by its fingerprint (an array read: a Map's look-up boxed the 32-bit key).
const TAG_SLOTS = 1_024;
const knownTagSlots: (KnownTag | undefined)[] = new Array<KnownTag | undefined>(TAG_SLOTS).fill(undefined);
/** The tags of the url knownLinks looks at. */
const knownTags: KnownTag[] = [];

/** The tag of this fingerprint; its text is made only at its first sight. */
function tagOf(hash1: number, hash2: number, source: string | Uint8Array, start = 0, end = source.length): KnownTag {
  const slot = hash1 & (TAG_SLOTS - 1);
  const known = knownTagSlots[slot];
  if (known !== undefined && known.hash1 === hash1 && known.hash2 === hash2) return known;
  const text = typeof source === 'string' ? source.slice(start, end) : utf8Decoder.decode(source.subarray(start, end));
  return (knownTagSlots[slot] = { text, hash1, hash2, problem: languageTagProblem(text), language: text.toLowerCase() });
}

/** How many alternates lane url `r` has when the fingerprints show no rule fires (left in linkHashes); else -1. */
function knownLinks(source: string | Uint8Array, records: Int32Array, r: number, extras: Int32Array): number {
  const from = (records[r + R_EXTRA_FROM] as number) * EXTRA_FIELDS;
  const end = from + (records[r + R_EXTRA_COUNT] as number) * EXTRA_FIELDS;
  const loc1 = records[r + R_HASH_1] as number;
  const loc2 = records[r + R_HASH_2] as number;
  let count = 0;
  let xDefaults = 0;
  let self = false;
  for (let x = from; x < end; x += EXTRA_FIELDS) {
    if (extras[x + X_KIND] === X_IMAGE) continue;
    const tag = tagOf(extras[x + X_HREFLANG_HASH_1] as number, extras[x + X_HREFLANG_HASH_2] as number, source, extras[x + X_HREFLANG_START], (extras[x + X_HREFLANG_START] as number) + (extras[x + X_HREFLANG_LENGTH] as number));
    let hash1 = extras[x + X_HREF_HASH_1] as number;
    let hash2 = extras[x + X_HREF_HASH_2] as number;
    // The module's fingerprint is of the href as written: right unless it may differ from its comparableUrl.
    if (((extras[x + X_FLAGS] as number) & F_LOC_UNUSUAL) !== 0) {
      const start = extras[x + X_VALUE_START] as number;
      fingerprint(comparableUrl(typeof source === 'string' ? extraValue(source, extras, x) : extraValue(utf8Decoder.decode(source.subarray(start, start + (extras[x + X_VALUE_LENGTH] as number))), extras, x, start)));
      hash1 = FINGERPRINT[0] as number;
      hash2 = FINGERPRINT[1] as number;
    }
    let fits = count < MAX_LINKS_SCANNED && tag.problem === undefined && (tag.language !== 'x-default' || ++xDefaults === 1);
    for (let k = 0; fits && k < count && tag.language !== 'x-default'; k++) fits = (knownTags[k] as KnownTag).language !== tag.language || (linkHashes[k * 2] === hash1 && linkHashes[k * 2 + 1] === hash2);
    if (!fits) {
      hreflangs.length = 0;
      return -1;
    }
    self ||= hash1 === loc1 && hash2 === loc2;
    knownTags[count] = tag;
    hreflangs.push(tag.text);
    linkHashes[count * 2] = hash1;
    linkHashes[count++ * 2 + 1] = hash2;
  }
  if (!self) hreflangs.length = 0;
  return self ? count : -1;
}

/** Invalid values, duplicates and the missing self link of one `<url>` (its alternates in `hrefs`, `hreflangs`, `pages`; `page`: the loc's). */
function entryDiagnostics(loc: string, page: string, where: EntryPosition): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const firstLinkByLanguage = new Map<string, number>();
  const reportedLanguages = new Set<string>();
  const xDefaultHrefs: string[] = [];
  let listsItself = false;

  for (let i = 0; i < hrefs.length; i++) {
    const href = hrefs[i] as string;
    const hreflang = hreflangs[i] as string;
    if (pages[i] === page) listsItself = true;
    fingerprint(hreflang);
    const problem = tagOf(FINGERPRINT[0] as number, FINGERPRINT[1] as number, hreflang).problem;
    if (problem !== undefined) {
      diagnostics.push(problemAt(where, 'hreflang/invalid-language', `hreflang ${quoteValue(hreflang)} (for ${quoteValue(href)}) is not a valid language: ${problem.message}`,
        problem.fix !== undefined ? `write hreflang="${problem.fix}"` : GENERIC_LANGUAGE_HINT));
    }
    // RFC 5646 §2.1.1: case carries no meaning; `en_US` counts as the value it was meant to be.
    const language = (problem?.fix ?? hreflang).toLowerCase();
    if (language === 'x-default') {
      xDefaultHrefs.push(href);
      continue;
    }
    const first = firstLinkByLanguage.get(language);
    if (first === undefined) {
      firstLinkByLanguage.set(language, i);
    } else if (pages[first] !== pages[i] && !reportedLanguages.has(language)) {
      reportedLanguages.add(language);
      diagnostics.push(problemAt(where, 'hreflang/duplicate-language', `hreflang ${quoteValue(hreflang)} is given for two URLs: ${quoteValue(hrefs[first] as string)} and ${quoteValue(href)}`,
        'keep one URL per language; a language with several regional versions gives each its region, as in "en-GB" and "en-US"'));
    }
  }

  if (xDefaultHrefs.length > 1) {
    const distinct = [...new Set(xDefaultHrefs)];
    diagnostics.push(problemAt(where, 'hreflang/duplicate-x-default', `x-default is given ${xDefaultHrefs.length} times in one <url>, for ${distinct.map((href) => quoteValue(href)).join(', ')}`,
      'keep one x-default: the page for users whose language matches none of the others'));
  }

  if (!listsItself) {
    diagnostics.push(problemAt(where, 'hreflang/missing-self', `${quoteValue(loc)} has hreflang alternates but does not list itself among them`,
      `add ${linkMarkup(undefined, loc)} with this page's own language`));
  }
  return diagnostics;
}

/** A diagnostic of one of these rules at `where`. */
function problemAt(where: EntryPosition, code: keyof typeof HREFLANG_RULES, message: string, hint: string): Diagnostic {
  return { code, severity: HREFLANG_RULES[code].severity, message, ...where, hint };
}

/** The `<xhtml:link>` to add, with the URL in full unless it is too long to be a loc anyway. */
function linkMarkup(hreflang: string | undefined, href: string): string {
  const shownHref = href.length <= MAX_URL_LENGTH ? href : `${href.slice(0, 77)}...`;
  const shownLanguage = hreflang === undefined ? '…' : escapeXmlAttribute(hreflang);
  return `<xhtml:link rel="alternate" hreflang="${shownLanguage}" href="${escapeXmlAttribute(shownHref)}"/>`;
}

// ---------------------------------------------------------------------------------------------------
// The memory of the urls seen: a table of records, each FIELDS int32s.

const LINE = 0;
const COLUMN = 1;
const HASH_1 = 2;
const HASH_2 = 3;
/** The loc as UTF-8: page, start and length in the text pages. */
const TEXT_PAGE = 4;
const TEXT_START = 5;
const TEXT_BYTES = 6;
/** Links to other pages: start (in hash pairs) and count in `links`. */
const LINKS_START = 7;
const LINKS_COUNT = 8;
/** The hreflang of the link to itself, an index into `languages`, or -1. */
const OWN_LANGUAGE = 9;
/** The next record with the same loc (a loc given twice), or -1. */
const NEXT_SAME_LOC = 10;
const FIELDS = 11;

const TEXT_PAGE_BYTES = 1 << 20;
/** Up to this many alternates, repeated hrefs are found by a scan; past it, with a table. */
const MAX_LINKS_SCANNED = 32;
/** Distinct hreflang values kept for hints; in a real sitemap there are a few dozen. */
const MAX_LANGUAGES = 4_096;

// The lengths of records, links and lanePages: room for 50,000 urls and a quarter more, and for four
// alternates per url (only what is written is touched). Growing is rare, and V8 recompiles (deoptimizes)
// a loop when it first takes a path it has not seen: starting small cost a cold validation ~10%.
const FIRST_LENGTHS = [62_500 * FIELDS, 50_000 * 4 * 2, 50_000 * 4];
/** A finished graph's arrays, for the next (HreflangChecker.finish): allocating them was most of a one-url validation's time. */
let spareArrays: GraphArrays | undefined;
type GraphArrays = [records: Int32Array<ArrayBuffer>, links: Int32Array<ArrayBuffer>, lanePages: Int32Array<ArrayBuffer>];

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

class AlternateGraph {
  /** Records: one per url, and a second one for a lane url with alternates (addLaneUrl). */
  size = 0;
  /** Urls remembered (the cap's count). */
  urls = 0;
  // Set by the constructor (FIRST_LENGTHS); `declare`: no undefined first, which would widen V8's type of the field.
  declare private records: Int32Array<ArrayBuffer>;
  /** Pairs of hashes of alternate hrefs. */
  declare private links: Int32Array<ArrayBuffer>;
  private linkCount = 0;
  /** The records with links to other pages, in document order. */
  private readonly linking: number[] = [];
  /** The first record of each loc, by its hashes: made in `finish`, sized for every record. */
  private firstRecord = new FingerprintTable(0);
  private readonly pages: Uint8Array[] = [];
  private pageUsed = 0;
  private readonly languageIndex = new Map<string, number>();
  private readonly languages: string[] = [];
  /** Lane pages (line, column, hash 1, hash 2), made records only if some page links to another (rare). */
  declare private lanePages: Int32Array<ArrayBuffer>;
  private lanePageCount = 0;
  /** (first record, first lane page, count) of each run. */
  private readonly laneRuns: number[] = [];

  constructor() {
    [this.records, this.links, this.lanePages] = spareArrays ?? (FIRST_LENGTHS.map((length) => new Int32Array(length)) as GraphArrays);
    spareArrays = undefined;
  }

  /** Gives the arrays, unless grown, to the next graph: this one must not be used after. */
  release(): void {
    const arrays: GraphArrays = [this.records, this.links, this.lanePages];
    if (arrays.every((array, k) => array.length === FIRST_LENGTHS[k])) spareArrays = arrays;
  }

  /** Room for `more` records (grown here, before the loops that fill them). */
  private reserve(more: number): void {
    while ((this.size + more) * FIELDS > this.records.length) this.records = doubled(this.records);
  }

  /** A url's record (`again`: its page is counted already); the index of its first field. */
  addPage(line: number, column: number, locHash: Int32Array, again: boolean): number {
    if (!again) this.urls++;
    this.reserve(1);
    const base = this.size++ * FIELDS;
    this.writePage(base, line, column, locHash[0] as number, locHash[1] as number);
    return base;
  }

  private writePage(base: number, line: number, column: number, hash1: number, hash2: number): void {
    const records = this.records;
    records[base + LINE] = line;
    records[base + COLUMN] = column;
    records[base + HASH_1] = hash1;
    records[base + HASH_2] = hash2;
    records[base + TEXT_PAGE] = -1;
    records[base + LINKS_START] = 0;
    records[base + LINKS_COUNT] = 0;
    records[base + OWN_LANGUAGE] = -1;
    records[base + NEXT_SAME_LOC] = -1;
  }

  /** Pages without alternates (Lane.pages quads), kept as they are: records later. */
  addPages(pages: Int32Array, from: number, count: number): void {
    while ((this.lanePageCount + count) * 4 > this.lanePages.length) this.lanePages = doubled(this.lanePages);
    this.lanePages.set(pages.subarray(from * 4, (from + count) * 4), this.lanePageCount * 4);
    const runs = this.laneRuns;
    const last = runs.length - 3;
    // A run that goes on from the last one (no other page between) makes it longer.
    if (last >= 0 && (runs[last] as number) + (runs[last + 2] as number) === this.size) runs[last + 2] = (runs[last + 2] as number) + count;
    else runs.push(this.size, this.lanePageCount, count);
    this.size += count;
    this.urls += count;
    this.lanePageCount += count;
  }

  /** Indexes, in order, only the records whose loc has links or is linked to (indexing all cost ~25 ms per 50,000). */
  private indexLinkedPages(): number[] {
    const records = this.records;
    // 1: a link's target; 0: a loc with links only.
    const wanted = new FingerprintTable(Math.ceil(((this.linkCount + this.linking.length) * 4) / 3) + 1);
    for (let l = 0; l < this.linkCount; l++) wanted.add(this.links[l * 2] as number, this.links[l * 2 + 1] as number, 1);
    for (const a of this.linking) wanted.add(records[a * FIELDS + HASH_1] as number, records[a * FIELDS + HASH_2] as number, 0);
    this.reserve(0);
    const indexed: number[] = [];
    let linkedTo = 0;
    const runs = this.laneRuns;
    const pages = this.lanePages;
    let r = 0;
    // The records `add` made and the runs of lane pages, in turn.
    for (let i = 0; i <= runs.length; i += 3) {
      const runStart = i < runs.length ? (runs[i] as number) : this.size;
      for (; r < runStart; r++) {
        const found = wanted.get(this.records[r * FIELDS + HASH_1] as number, this.records[r * FIELDS + HASH_2] as number);
        if (found === -1) continue;
        linkedTo += found;
        indexed.push(r);
      }
      if (i === runs.length) break;
      const page = runs[i + 1] as number;
      const count = runs[i + 2] as number;
      for (let k = 0; k < count; k++, r++) {
        const q = (page + k) * 4;
        const found = wanted.get(pages[q + 2] as number, pages[q + 3] as number);
        if (found === -1) continue;
        linkedTo += found;
        this.writePage(r * FIELDS, pages[q] as number, pages[q + 1] as number, pages[q + 2] as number, pages[q + 3] as number);
        indexed.push(r);
      }
    }
    runs.length = 0;
    if (linkedTo === 0) return [];
    this.firstRecord = new FingerprintTable(Math.ceil((wanted.size * 4) / 3) + 1);
    for (const record of indexed) this.index(record);
    return indexed;
  }

  /** The `count` alternates of `record` (fingerprints in linkHashes, `hreflangs`); its loc kept for messages. */
  addLinks(record: number, count: number, loc: string | Uint8Array, locStart?: number, locLength?: number): void {
    this.storeText(record, loc, locStart, locLength);
    const records = this.records;
    const start = this.linkCount;
    records[record + LINKS_START] = start;
    // The same page under two hreflang values is one link to check.
    const seen = count > MAX_LINKS_SCANNED ? new FingerprintTable(count) : undefined;
    for (let i = 0; i < count; i++) {
      const hash1 = linkHashes[i * 2] as number;
      const hash2 = linkHashes[i * 2 + 1] as number;
      if (hash1 === records[record + HASH_1] && hash2 === records[record + HASH_2]) {
        // Its own language: the hreflang of its first link to itself.
        if (records[record + OWN_LANGUAGE] === -1) records[record + OWN_LANGUAGE] = this.languageNumber(hreflangs[i] as string);
        continue;
      }
      if (seen !== undefined ? seen.add(hash1, hash2, 0) !== -1 : this.hasLink(start, this.linkCount, hash1, hash2)) continue;
      if ((this.linkCount + 1) * 2 > this.links.length) this.links = doubled(this.links);
      this.links[this.linkCount * 2] = hash1;
      this.links[this.linkCount * 2 + 1] = hash2;
      this.linkCount++;
    }
    records[record + LINKS_COUNT] = this.linkCount - start;
    if (this.linkCount > start) this.linking.push(record / FIELDS);
  }

  /** For every A that lists B, where B is a url here that does not list A: a diagnostic at B. */
  missingReturnLinks(locs: FingerprintSet | undefined): Diagnostic[] {
    const found: Diagnostic[] = [];
    // Most sitemaps have no link to a page of their own: one call to `locs` says so.
    if (this.linkCount === 0 || (locs !== undefined && locs.firstOf(this.links, this.linkCount) === -1)) return found;
    const indexed = this.indexLinkedPages();
    const records = this.records;
    const checked = new Set<number>();
    for (const a of indexed) {
      // A page with no links of its own (most, in a file of one language) has nothing to check from.
      if (records[a * FIELDS + LINKS_COUNT] === 0 && records[a * FIELDS + NEXT_SAME_LOC] === -1) continue;
      const aHash1 = records[a * FIELDS + HASH_1] as number;
      const aHash2 = records[a * FIELDS + HASH_2] as number;
      // A loc given twice is one page: its links are those of all its records, checked from the first.
      if (this.firstRecord.get(aHash1, aHash2) !== a) continue;
      checked.clear();
      for (let from = a; from !== -1; from = records[from * FIELDS + NEXT_SAME_LOC] as number) {
        const start = records[from * FIELDS + LINKS_START] as number;
        const end = start + (records[from * FIELDS + LINKS_COUNT] as number);
        for (let l = start; l < end; l++) {
          const b = this.firstRecord.get(this.links[l * 2] as number, this.links[l * 2 + 1] as number);
          if (b === -1 || b === a || checked.has(b)) continue; // not in this sitemap: cannot be checked
          checked.add(b);
          if (!this.lists(b, aHash1, aHash2)) found.push(this.missingReturnLink(a, b));
        }
      }
    }
    // Reported at B, found in the order of A: put them in document order.
    return found.sort((x, y) => (x.line as number) - (y.line as number) || (x.column as number) - (y.column as number));
  }

  private missingReturnLink(a: number, b: number): Diagnostic {
    // A loc given twice is one page: its text is kept with the record that has alternates.
    const aLoc = this.pageText(a) as string;
    const bLoc = this.pageText(b);
    let ownLanguageNumber = -1;
    for (let r = a; r !== -1 && ownLanguageNumber === -1; r = this.records[r * FIELDS + NEXT_SAME_LOC] as number) ownLanguageNumber = this.records[r * FIELDS + OWN_LANGUAGE] as number;
    const ownLanguage = ownLanguageNumber === -1 ? undefined : (this.languages[ownLanguageNumber] as string);
    const at = { line: this.records[b * FIELDS + LINE] as number, column: this.records[b * FIELDS + COLUMN] as number };
    const message = bLoc === undefined
      ? `${quoteValue(aLoc)} lists this <url> as an hreflang alternate, but this <url> has no alternates, so it does not list ${quoteValue(aLoc)}`
      : `${quoteValue(aLoc)} lists ${quoteValue(bLoc)} as an hreflang alternate, but ${quoteValue(bLoc)} does not list ${quoteValue(aLoc)}`;
    // A's own hreflang, corrected if it is a known mistake (`en_US`), so that the hint is right as written.
    return problemAt(at, 'hreflang/missing-return-link', message,
      `add ${linkMarkup(ownLanguage === undefined ? undefined : (languageTagProblem(ownLanguage)?.fix ?? ownLanguage), aLoc)} to this <url>; Google may ignore alternates that do not link back`);
  }

  /** Whether the links from `start` to `end` include these hashes. */
  private hasLink(start: number, end: number, hash1: number, hash2: number): boolean {
    for (let l = start; l < end; l++) {
      if (this.links[l * 2] === hash1 && this.links[l * 2 + 1] === hash2) return true;
    }
    return false;
  }

  /** Whether any record of the loc of record `b` lists the URL with these hashes. */
  private lists(b: number, hash1: number, hash2: number): boolean {
    const records = this.records;
    for (let r = b; r !== -1; r = records[r * FIELDS + NEXT_SAME_LOC] as number) {
      const start = records[r * FIELDS + LINKS_START] as number;
      if (this.hasLink(start, start + (records[r * FIELDS + LINKS_COUNT] as number), hash1, hash2)) return true;
    }
    return false;
  }

  /** Makes `record` findable by its loc; a loc seen before is chained after its last record. */
  private index(record: number): void {
    const records = this.records;
    const first = this.firstRecord.add(records[record * FIELDS + HASH_1] as number, records[record * FIELDS + HASH_2] as number, record);
    if (first === -1) return;
    let last = first;
    while ((records[last * FIELDS + NEXT_SAME_LOC] as number) !== -1) last = records[last * FIELDS + NEXT_SAME_LOC] as number;
    records[last * FIELDS + NEXT_SAME_LOC] = record;
  }

  /** The loc of the record at `base`, kept as UTF-8: `text`, or `length` ASCII bytes of it from `start`. */
  private storeText(base: number, text: string | Uint8Array, start = 0, length = text.length): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    const room = typeof text === 'string' ? length * 3 : length;
    let page = this.pages[this.pages.length - 1];
    if (page === undefined || this.pageUsed + room > page.length) {
      page = new Uint8Array(Math.max(TEXT_PAGE_BYTES, room));
      this.pages.push(page);
      this.pageUsed = 0;
    }
    let written = length;
    if (typeof text === 'string') written = utf8Encoder.encodeInto(text, page.subarray(this.pageUsed)).written;
    // A view rather than a loop of script, which ran mostly unoptimized: 3 ms more of a cold validation (5,000 locs).
    else page.set(text.subarray(start, start + length), this.pageUsed);
    this.records[base + TEXT_PAGE] = this.pages.length - 1;
    this.records[base + TEXT_START] = this.pageUsed;
    this.records[base + TEXT_BYTES] = written;
    this.pageUsed += written;
  }

  /** The loc of the page whose first record is `first`; undefined when none of its records has alternates. */
  private pageText(first: number): string | undefined {
    for (let r = first; r !== -1; r = this.records[r * FIELDS + NEXT_SAME_LOC] as number) {
      const text = this.text(r);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /** The loc of a record; undefined for a page without alternates (not stored). */
  private text(record: number): string | undefined {
    const base = record * FIELDS;
    const pageNumber = this.records[base + TEXT_PAGE] as number;
    if (pageNumber === -1) return undefined;
    const page = this.pages[pageNumber] as Uint8Array;
    const start = this.records[base + TEXT_START] as number;
    return utf8Decoder.decode(page.subarray(start, start + (this.records[base + TEXT_BYTES] as number)));
  }

  private languageNumber(hreflang: string): number {
    const known = this.languageIndex.get(hreflang);
    if (known !== undefined) return known;
    if (this.languages.length >= MAX_LANGUAGES) return -1;
    this.languages.push(hreflang);
    this.languageIndex.set(hreflang, this.languages.length - 1);
    return this.languages.length - 1;
  }
}

