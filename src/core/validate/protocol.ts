// The protocol's rules no XSD expresses (sitemaps.org, Google's extension documentation), checked on
// the entries of every format: loc's encoding, length and scope, duplicates, future lastmods, limits.

import type { Diagnostic } from '../diagnostics.js';
import { plural, positiveInteger, SitemapError } from '../errors.js';
import type { Limits, SitemapRef, UrlEntry } from '../model.js';
import { videoContentProblems } from '../vocabulary.js';
import type { EntryPosition } from '../read/types.js';
import { isFutureLastmod, parseW3cDatetime, surelyPastBefore } from '../datetime.js';
import { comparableUrl, locFingerprint, MAX_URL_LENGTH, normalizeUrl, scopeOf, scopeViolation, type UrlScope } from '../url.js';
import { FINGERPRINT, fingerprint } from '../fingerprint.js';
import { FingerprintTable, type FingerprintSet } from '../fingerprint-table.js';
import type { EntryRule, EntryRuleContext, RuleInfo } from './types.js';
import { F_LOC_UNUSUAL, LANE_FIELDS, laneLoc, laneUrlEntry, R_FLAGS, R_HASH_1, R_HASH_2, R_IMAGES, R_LASTMOD_DAY, R_LASTMOD_LENGTH, R_LASTMOD_START, R_LOC_LENGTH, recordPosition, type Lane, type RunText } from '../read/lane.js';

// ---- the rules ------------------------------------------------------------------------------------
// One unit each (types.ts RuleInfo); a rule of one entry carries its check, the others need the whole
// sitemap or its location and are checked by ProtocolChecker below.

const LOC_TOO_LONG: EntryRule = {
  code: 'loc/too-long', severity: 'error', title: 'a URL of 2,048 characters or more', searchConsole: 'URL too long', reads: ['loc'],
  check({ loc }, at, { limits, report }) {
    // UTF-16 code units as written: a non-ASCII character must be encoded anyway.
    if (loc.length > limits.maxLocLength) report(LOC_TOO_LONG, `the URL is ${loc.length} characters long; at most ${limits.maxLocLength} are allowed`, at, 'use a shorter URL');
  },
};

const LASTMOD_FUTURE: EntryRule = {
  code: 'lastmod/future', severity: 'warning', title: 'a lastmod in the future', searchConsole: 'Invalid date', reads: ['lastmod'],
  check({ lastmod }, at, { now, pastBefore, report }) {
    // A W3C Datetime that sorts before pastBefore is in the past: the common case, without parsing.
    if (typeof lastmod !== 'string' || (lastmod < pastBefore && lastmod.length >= 4)) return;
    const parsed = parseW3cDatetime(lastmod);
    if (parsed === undefined) return; // the reader reports the form
    if (isFutureLastmod(parsed.epochMs, now)) {
      report(LASTMOD_FUTURE, `lastmod ${JSON.stringify(lastmod)} is in the future`, at, 'write the date its content last changed; Google ignores lastmod values it cannot trust');
    }
  },
};

const IMAGE_TOO_MANY: EntryRule = {
  code: 'image/too-many', severity: 'error', title: 'more than 1,000 images in one <url>', searchConsole: 'Too many images', reads: ['images'],
  check({ images }, at, { limits, report }) {
    const n = images?.length ?? 0;
    if (n > limits.maxImagesPerUrl) report(IMAGE_TOO_MANY, `${n} images in one <url>; at most ${limits.maxImagesPerUrl} are allowed`, at, 'split the images over fewer, or list the most important ones');
  },
};

// Both found by vocabulary.ts videoContentProblems, by which the writer refuses such a video.
const VIDEO_NO_CONTENT: EntryRule = {
  code: 'video/no-content', severity: 'error', title: 'a video with neither content_loc nor player_loc', reads: ['loc', 'videos'],
  check: (entry, at, context) => reportVideos(VIDEO_NO_CONTENT, entry, at, context),
};
const VIDEO_SAME_AS_LOC: EntryRule = {
  code: 'video/same-as-loc', severity: 'error', title: "a video whose content_loc or player_loc is the page's own loc", reads: ['loc', 'videos'],
  check: (entry, at, context) => reportVideos(VIDEO_SAME_AS_LOC, entry, at, context),
};

// Google's video sitemaps: a duration "from 1 to 28800 (8 hours)"; sitemap-video.xsd takes 0 too.
const VIDEO_ZERO_DURATION: EntryRule = {
  code: 'video/zero-duration', severity: 'warning', title: 'a video:duration of 0 seconds', reads: ['videos'],
  check({ videos }, at, { report }) {
    for (const video of videos ?? []) {
      if (video.duration === 0) report(VIDEO_ZERO_DURATION, 'video:duration is 0 seconds; Google takes 1 to 28,800', at, 'give the length of the video in whole seconds, or leave video:duration out');
    }
  },
};

/** The problems of `rule` among the entry's videos. */
function reportVideos(rule: EntryRule, { loc, videos }: UrlEntry, at: EntryPosition, { report }: EntryRuleContext): void {
  for (const video of videos ?? []) {
    for (const problem of videoContentProblems(video, loc)) {
      if (problem.code !== rule.code) continue;
      if (problem.url === undefined) report(rule, 'a video with neither video:content_loc nor video:player_loc', at, 'give the URL of the video file (content_loc) or of its player (player_loc); Google cannot index the video without one');
      else report(rule, `${problem.field} ${JSON.stringify(problem.url)} is the page's own loc`, at, 'give the URL of the video file (content_loc) or of its player (player_loc), not of the page that shows it');
    }
  }
}

/** The rules of one entry, run on every `<url>` and `<sitemap>`; a rule module may add itself. */
export const ENTRY_RULES: EntryRule[] = [LOC_TOO_LONG, LASTMOD_FUTURE, IMAGE_TOO_MANY, VIDEO_NO_CONTENT, VIDEO_SAME_AS_LOC, VIDEO_ZERO_DURATION];

const LOC_NOT_ENCODED: RuleInfo = { code: 'loc/not-encoded', severity: 'error', title: 'a URL with spaces or characters that must be percent-encoded', searchConsole: 'Invalid URL' };
// As the writer refuses them (url.ts normalizeUrl); the scope, where it is checked, is of the URL without them.
// RFC 3986 §3.2.1: the user information ends at the authority's last "@"; §7.5 discourages passwords in URIs.
const USERINFO = /^(https?:\/\/)[^/?#]*@/i;
const LOC_CREDENTIALS: RuleInfo = { code: 'loc/credentials', severity: 'error', title: 'a URL with a user name or password' };
const LOC_OUT_OF_SCOPE: RuleInfo = { code: 'loc/out-of-scope', severity: 'error', title: "a URL outside the sitemap's location (scheme, host, port, directory)", searchConsole: 'URL not allowed' };
const LOC_DUPLICATE: RuleInfo = { code: 'loc/duplicate', severity: 'warning', title: 'a URL listed twice' };
const DUPLICATES_NOT_CHECKED: RuleInfo = { code: 'duplicates/not-checked', severity: 'info', title: 'duplicates are checked among the first maxTrackedUrls distinct URLs' };
const TOO_MANY_URLS: RuleInfo = { code: 'limits/too-many-urls', severity: 'error', title: 'more than 50,000 URLs in one sitemap', searchConsole: 'Too many URLs' };
const FILE_TOO_LARGE: RuleInfo = { code: 'limits/file-too-large', severity: 'error', title: 'more than 50 MB (10 MB legacy) uncompressed', searchConsole: 'Sitemap file size error' };
const TOO_MANY_SITEMAPS: RuleInfo = { code: 'limits/too-many-sitemaps', severity: 'error', title: 'more than 50,000 (1,000 legacy) sitemaps in one index', searchConsole: 'Too many Sitemaps' };
const NEWS_TOO_MANY: RuleInfo = { code: 'news/too-many', severity: 'error', title: 'more than 1,000 news entries in one sitemap', searchConsole: 'Too many news URLs' };
/** Found here for an index that lists itself; `validate --follow` finds the others. */
const INDEX_NESTED: RuleInfo = { code: 'index/nested', severity: 'warning', title: 'an index that lists another index', searchConsole: 'Nested indexes' };

export const PROTOCOL_RULES: readonly RuleInfo[] = [
  ...ENTRY_RULES, LOC_NOT_ENCODED, LOC_CREDENTIALS, LOC_OUT_OF_SCOPE, LOC_DUPLICATE, DUPLICATES_NOT_CHECKED, TOO_MANY_URLS, FILE_TOO_LARGE, TOO_MANY_SITEMAPS, NEWS_TOO_MANY, INDEX_NESTED,
];

interface ProtocolOptions {
  limits: Limits;
  /** The sitemap's URL: every URL must be within its directory (sitemaps.org: location). */
  location?: string;
  /** "Now", in epoch milliseconds. */
  now: number;
  /** Most distinct URLs remembered for the duplicate check. Default 1,000,000. */
  maxTracked?: number;
  /** The validator's lane (Lane.createWithTable): its table is the duplicate check's, for laneUrls. */
  lane?: Lane;
  /** Where the loc of the entry being checked starts, when the reader knows it (loc/not-encoded points there). */
  locAt?: () => EntryPosition | undefined;
}

/** `loc` normalised (without user information), or why it cannot be (a port past 65535, a host such as 256.1.1.1 or xn--zz). */
function normalizedOrProblem(loc: string): { url?: string; problem?: string } {
  try {
    return { url: normalizeUrl(loc.replace(USERINFO, '$1'), 'loc', undefined, Number.MAX_SAFE_INTEGER) };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

export const DEFAULT_MAX_TRACKED_URLS = 1_000_000;

/**
 * Slots of the duplicate check's table at first (48 KB), doubled as it fills. Not room for 50,000: each
 * probed page of untouched memory is mapped, then copied, and the TLB flushes cost a cold run ~6 ms.
 */
export const SEEN_CAPACITY = 1 << 12;

// sitemaps.org protocol: URLs are RFC 3986, entity-escaped, "less than 2,048 characters".
const NOT_URI_CHAR = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;

/** Whether an encoded loc is surely in scope as written: the prefix, then nothing normalising could move. */
function surelyInScope(loc: string, scope: UrlScope): boolean {
  if (!loc.startsWith(scope.prefix)) return false;
  const rest = loc.slice(scope.prefix.length);
  return rest.charCodeAt(0) !== 0x2e && !rest.includes('/.') && !rest.includes('%') && !rest.includes('\\');
}

/** markSeen's answers besides a line: the loc is new, or the table is full and it is not checked. */
export const SEEN_NEW = -1;
export const SEEN_FULL = -2;

/** The duplicate check (discover's too): the line this loc was first seen on, or SEEN_NEW, or SEEN_FULL. */
export function markSeen(seen: FingerprintSet, maxTracked: number, hash1: number, hash2: number, line: number): number {
  if (seen.size >= maxTracked && seen.get(hash1, hash2) === -1) return SEEN_FULL;
  const first = seen.add(hash1, hash2, line);
  return first === -1 ? SEEN_NEW : first;
}

export function duplicateDiagnostic(loc: string, firstLine: number, at: EntryPosition): Diagnostic {
  return { code: LOC_DUPLICATE.code, severity: LOC_DUPLICATE.severity, message: `${JSON.stringify(loc)} is listed again (first on line ${firstLine})`, line: at.line, column: at.column, hint: 'list each URL once' };
}

export function notCheckedDiagnostic(maxTracked: number, at: EntryPosition): Diagnostic {
  return { code: DUPLICATES_NOT_CHECKED.code, severity: DUPLICATES_NOT_CHECKED.severity, message: `more than ${plural(maxTracked, 'URL')}: duplicates after this one are not checked`, line: at.line, column: at.column };
}

/** The rules laneUrls checks from the lane's records; any other gets every record made an entry. */
const BATCHED: ReadonlySet<EntryRule> = new Set([LOC_TOO_LONG, LASTMOD_FUTURE, IMAGE_TOO_MANY, VIDEO_NO_CONTENT, VIDEO_SAME_AS_LOC, VIDEO_ZERO_DURATION]);

/**
 * For Lane.addSeen and the hreflang checks: each F_LOC_UNUSUAL record gets its loc's comparableUrl
 * fingerprint. `each` sees each of those locs: the lane marks a loc with user information so too.
 */
export function comparableRecordHashes(lane: Lane, text: () => string, count: number, each?: (loc: string, at: EntryPosition) => void): void {
  if (lane.pick(count, R_FLAGS, F_LOC_UNUSUAL) === 0) return;
  const unusual = lane.attention;
  const records = lane.records;
  for (let a = 0; a < unusual.length; a += 2) {
    const r = (unusual[a] as number) * LANE_FIELDS;
    const loc = laneLoc(text(), records, r);
    each?.(loc, recordPosition(records, r));
    const url = comparableUrl(loc);
    if (url === loc) continue;
    fingerprint(url);
    records[r + R_HASH_1] = FINGERPRINT[0] as number;
    records[r + R_HASH_2] = FINGERPRINT[1] as number;
  }
}

export class ProtocolChecker {
  private readonly options: ProtocolOptions;
  private readonly scope: UrlScope | undefined;
  /** The comparableUrl of the location, for an index that lists itself. */
  private readonly self: string | undefined;
  /** The line of each loc's first sight, by its comparableUrl's fingerprint (RFC 3986 §6.2); no strings kept. */
  private readonly seen: FingerprintSet;
  private readonly lane: Lane | undefined;
  /** What the rules of one entry read besides it. */
  private readonly context: EntryRuleContext;
  /** context.pastBefore as YYYYMMDD, the form of R_LASTMOD_DAY. */
  private readonly pastBeforeDay: number;
  readonly maxTracked: number;
  private trackingStopped = false;
  /** plainUrlTheLongWay's scratch fingerprint. */
  private readonly plainHash = new Int32Array(2);
  private urls = 0;
  private sitemaps = 0;
  private news = 0;
  private newsReported = false;
  private readonly out: (d: Diagnostic) => void;

  constructor(options: ProtocolOptions, out: (d: Diagnostic) => void) {
    this.options = options;
    this.out = out;
    this.maxTracked = positiveInteger(options.maxTracked, DEFAULT_MAX_TRACKED_URLS, 'maxTrackedUrls');
    this.lane = options.lane?.seen !== undefined ? options.lane : undefined;
    this.seen = this.lane?.seen ?? new FingerprintTable(SEEN_CAPACITY);
    this.scope = options.location === undefined ? undefined : scopeOf(new URL('.', options.location).href);
    this.self = options.location === undefined ? undefined : comparableUrl(options.location);
    this.context = { limits: options.limits, now: options.now, pastBefore: surelyPastBefore(options.now), report: (rule, message, at, hint) => this.report(rule, message, at, hint) };
    this.pastBeforeDay = Number(this.context.pastBefore.replace(/-/g, ''));
  }

  /** One url. `encoded`: the loc is known to hold only characters a URL may (the lane read it). */
  url(entry: UrlEntry, at: EntryPosition, locHash?: Int32Array, encoded = false): void {
    this.urls++;
    this.credentials(entry.loc, at);
    this.loc(entry.loc, at, 'loc', locHash, encoded);
    // The lane reads no URL that is not encoded, its extensions' too.
    if (!encoded) this.extensionUrls(entry, at);
    for (let i = 0; i < ENTRY_RULES.length; i++) (ENTRY_RULES[i] as EntryRule).check(entry, at, this.context);
    if (entry.news !== undefined && ++this.news > this.options.limits.maxNewsPerSitemap && !this.newsReported) {
      this.newsReported = true;
      this.report(NEWS_TOO_MANY, `more than ${plural(this.options.limits.maxNewsPerSitemap, 'news entry', 'news entries')} in one sitemap`, at, 'put the rest in another news sitemap');
    }
  }

  /**
   * The lane's last `count` records, as `url` checks them, in batch: loc/duplicate adds the run to the
   * lane's table (addSeen), lastmod/future picks the recent lastmods, image/too-many the records past
   * the limit (the lane reads no video, no unencoded or overlong loc). Strings are made only for a
   * message; a location scope or the tracking cap goes the way of `url`. `runText` may be a function.
   * Leaves each record's loc fingerprint in its comparableUrl form, which hreflang's checks read too.
   */
  laneUrls(runText: RunText, count: number): void {
    const lane = this.lane;
    if (lane === undefined) throw new SitemapError('ERR_SITEMAP_API', 'laneUrls needs the lane of the options, made with a fingerprint table');
    let made = typeof runText === 'string' ? runText : undefined;
    const text = (): string => (made ??= (runText as () => string)());
    comparableRecordHashes(lane, text, count, (loc, at) => this.credentials(loc, at));
    let k = 0;
    if (this.scope === undefined && !this.trackingStopped) {
      k = lane.addSeen(count, Math.min(this.maxTracked, 0x7fffffff));
      this.urls += k;
      // Taken after addSeen: the table may have grown the lane's memory.
      const records = lane.records;
      const seenBefore = lane.attention;
      for (let a = 0; a < seenBefore.length; a += 2) this.plainDuplicate(text(), records, (seenBefore[a] as number) * LANE_FIELDS, seenBefore[a + 1] as number);
      lane.pick(k, R_LASTMOD_DAY, this.pastBeforeDay);
      const recent = lane.attention;
      for (let a = 0; a < recent.length; a += 2) this.plainLastmod(text(), records, (recent[a] as number) * LANE_FIELDS);
    }
    // The table's memory may grow on the way: the records are taken afresh for each.
    for (; k < count; k++) {
      this.urls++;
      this.plainUrlTheLongWay(text(), lane.records, k * LANE_FIELDS);
    }
    const records = lane.records;
    const limits = this.options.limits;
    // The lane reads no loc over MAX_URL_LENGTH: only a lower limit needs the records' lengths. A loc
    // as written is never shorter than decoded, so only a long one is decoded and measured.
    for (let r = 0; limits.maxLocLength < MAX_URL_LENGTH && r < count * LANE_FIELDS; r += LANE_FIELDS) {
      if ((records[r + R_LOC_LENGTH] as number) > limits.maxLocLength) LOC_TOO_LONG.check({ loc: laneLoc(text(), records, r) }, recordPosition(records, r), this.context);
    }
    if (lane.mostImages > limits.maxImagesPerUrl) {
      for (let r = 0; r < count * LANE_FIELDS; r += LANE_FIELDS) {
        const images = records[r + R_IMAGES] as number;
        if (images > limits.maxImagesPerUrl) IMAGE_TOO_MANY.check({ loc: '', images: new Array(images) }, recordPosition(records, r), this.context);
      }
    }
    const unbatched = ENTRY_RULES.filter((rule) => !BATCHED.has(rule));
    if (unbatched.length === 0) return;
    const extras = lane.extras;
    for (let r = 0; r < count * LANE_FIELDS; r += LANE_FIELDS) {
      const entry = laneUrlEntry(text(), records, r, extras);
      const at = recordPosition(records, r);
      for (let i = 0; i < unbatched.length; i++) (unbatched[i] as EntryRule).check(entry, at, this.context);
    }
  }

  private plainUrlTheLongWay(text: string, records: Int32Array, r: number): void {
    const hash = this.plainHash;
    hash[0] = records[r + R_HASH_1] as number;
    hash[1] = records[r + R_HASH_2] as number;
    const loc = laneLoc(text, records, r);
    const lastmodStart = records[r + R_LASTMOD_START] as number;
    const lastmodEnd = lastmodStart + (records[r + R_LASTMOD_LENGTH] as number);
    const at = recordPosition(records, r);
    const comparable = ((records[r + R_FLAGS] as number) & F_LOC_UNUSUAL) === 0;
    // Nothing is read from `records` after loc(): adding to the lane's table may detach them.
    this.loc(loc, at, 'loc', hash, true, comparable);
    if (lastmodStart >= 0) this.lastmod(text.slice(lastmodStart, lastmodEnd), at);
  }

  private plainDuplicate(text: string, records: Int32Array, r: number, firstLine: number): void {
    this.out(duplicateDiagnostic(laneLoc(text, records, r), firstLine, recordPosition(records, r)));
  }

  private plainLastmod(text: string, records: Int32Array, r: number): void {
    const start = records[r + R_LASTMOD_START] as number;
    this.lastmod(text.slice(start, start + (records[r + R_LASTMOD_LENGTH] as number)), recordPosition(records, r));
  }

  sitemap(ref: SitemapRef, at: EntryPosition, encoded = false): void {
    this.sitemaps++;
    this.credentials(ref.loc, at);
    this.loc(ref.loc, at, 'sitemap', undefined, encoded);
    if (this.self !== undefined && comparableUrl(ref.loc) === this.self) this.report(INDEX_NESTED, `the index lists its own URL ${JSON.stringify(ref.loc)}: an index inside an index, and a loop`, at, 'remove it: an index lists sitemaps, not itself');
    for (const rule of ENTRY_RULES) rule.check(ref, at, this.context);
  }

  /** After the last entry: the limits, given the size of the document in bytes (uncompressed). */
  finish(bytes: number, isIndex: boolean): void {
    const limits = this.options.limits;
    if (isIndex && this.sitemaps > limits.maxSitemapsPerIndex) {
      this.report(TOO_MANY_SITEMAPS, `${this.sitemaps} sitemaps in one index; at most ${limits.maxSitemapsPerIndex} are allowed`, undefined, 'split it into several indexes');
    } else if (!isIndex && this.urls > limits.maxUrlsPerSitemap) {
      this.report(TOO_MANY_URLS, `${this.urls} URLs in one sitemap; at most ${limits.maxUrlsPerSitemap} are allowed`, undefined, 'split the sitemap and list the parts in a sitemap index');
    }
    const maxBytes = isIndex ? limits.maxBytesPerIndex : limits.maxBytesPerSitemap;
    if (bytes > maxBytes) {
      this.report(FILE_TOO_LARGE, `${bytes} bytes uncompressed; at most ${maxBytes} are allowed`, undefined, 'split the file; gzip does not help, the limit is on the uncompressed size');
    }
  }

  /** The checks of a loc; `comparable`: it is its own comparableUrl (the lane said so). */
  private loc(loc: string, at: EntryPosition, what: 'loc' | 'sitemap', locHash: Int32Array | undefined, encoded: boolean, comparable = false): void {
    // Normalised once: the fix for an unencoded URL, and the form the scope is compared in.
    const unencoded = !encoded && NOT_URI_CHAR.test(loc);
    const scope = this.scope;
    const checkScope = scope !== undefined && !(encoded && surelyInScope(loc, scope));
    const { url: normalized, problem } = unencoded || checkScope ? normalizedOrProblem(loc) : {};
    if (unencoded) {
      this.notEncoded('', loc, normalized, this.options.locAt?.() ?? at);
    }
    if (checkScope) {
      // A URL that cannot be parsed is in no scope (it was skipped here, and reported by nothing).
      const why = normalized === undefined ? problem : scopeViolation(normalized, scope);
      if (why !== undefined) {
        const [whose, file] = what === 'sitemap' ? ['a sitemap listed by an index', 'index'] : ['a URL in a sitemap', 'sitemap'];
        this.report(LOC_OUT_OF_SCOPE, `${JSON.stringify(loc)} is outside the ${file}'s location ${scope.prefix}: ${why}`, at,
          `${whose} must share the scheme, host and port of the ${file} and sit under its directory; move the ${file} up, or submit it through robots.txt of that host`);
      }
    }
    if (this.trackingStopped) return;
    const url = comparable ? loc : comparableUrl(loc);
    const hash = locFingerprint(loc, locHash, url);
    const first = markSeen(this.seen, this.maxTracked, hash[0] as number, hash[1] as number, at.line);
    if (first === SEEN_FULL) {
      this.trackingStopped = true;
      this.out(notCheckedDiagnostic(this.maxTracked, at));
    } else if (first !== SEEN_NEW) this.out(duplicateDiagnostic(loc, first, at));
  }

  /** loc/credentials, before the other checks of the loc on every path (laneUrls: comparableRecordHashes). */
  private credentials(loc: string, at: EntryPosition): void {
    if (loc.includes('@') && USERINFO.test(loc)) this.report(LOC_CREDENTIALS, 'the URL holds a user name or password (user:password@); URLs with credentials do not belong in a sitemap', at, 'remove them: a crawler fetches the URL as anyone would');
  }

  /** loc/not-encoded for an entry's other URLs: sitemaps.org asks every URL to be escaped. */
  private extensionUrls({ images, videos, alternates }: UrlEntry, at: EntryPosition): void {
    const check = (field: string, url: string | undefined): void => {
      if (url !== undefined && NOT_URI_CHAR.test(url)) this.notEncoded(`${field} `, url, normalizedOrProblem(url).url, at);
    };
    for (const image of images ?? []) check('image:loc', image.loc);
    for (const video of videos ?? []) {
      check('video:thumbnail_loc', video.thumbnailLoc);
      check('video:content_loc', video.contentLoc);
      check('video:player_loc', video.playerLoc);
    }
    for (const alternate of alternates ?? []) check('xhtml:link href', alternate.href);
  }

  /** loc/not-encoded of `url` (`what` names the field, '' for the loc), with its encoded form as the fix. */
  private notEncoded(what: string, url: string, normalized: string | undefined, at: EntryPosition): void {
    this.report(LOC_NOT_ENCODED, `${what}${JSON.stringify(url)} has characters a URL must percent-encode (spaces, non-ASCII, ${'<>"{}|\\^`'})`, at, normalized !== undefined ? `write ${normalized}` : 'percent-encode them as UTF-8');
  }

  /** lastmod/future for a lastmod the lane gave (laneUrls). */
  private lastmod(lastmod: string, at: EntryPosition): void {
    LASTMOD_FUTURE.check({ loc: '', lastmod }, at, this.context);
  }

  private report(rule: RuleInfo, message: string, at: EntryPosition | undefined, hint?: string): void {
    const d: Diagnostic = { code: rule.code, severity: rule.severity, message };
    if (at !== undefined) {
      d.line = at.line;
      d.column = at.column;
    }
    if (hint !== undefined) d.hint = hint;
    this.out(d);
  }
}
