// What `sitemapkit generate` does to an entry between reading and writing it: the --include/--exclude
// filters, defaults for missing fields, warnings where the sitemap would not mean what the input meant
// (a #fragment, a future lastmod, an hreflang that is no BCP 47 tag), and after a refusal, the entry
// without the refused optional field (none with `strict`).
//
// Once per entry: the common one costs an indexOf for `#` and `&` and a string comparison for lastmod.

import { InvalidValueError, quoteValue } from '../errors.js';
import type { Changefreq, UrlEntry } from '../model.js';
import { isFutureLastmod, parseW3cDatetime, surelyPastBefore, toSitemapDate } from '../datetime.js';
import { languageTagProblem } from '../validate/language-tag.js';
import { normalizeUrl } from '../url.js';

/** Values for entries that lack the field (`--lastmod`, `--changefreq`, `--priority`), already validated. */
export interface EntryDefaults {
  lastmod?: string;
  changefreq?: Changefreq;
  priority?: string;
}

export interface EntryPolicyOptions {
  defaults?: EntryDefaults;
  /** Reject an entry rather than drop or change any part of it (`--strict`). */
  strict?: boolean;
  /** The run's start, epoch milliseconds: "now" for lastmod in the future. */
  now: number;
  /** Whether to write an entry with this URL path (`--include` / `--exclude`), as `filterPath` gives it. */
  keepPath?: (path: string) => boolean;
}

/** A warning about one entry, printed at the entry's FILE:LINE. Codes are in docs/rules.md. */
export type EntryWarningHandler = (code: string, message: string) => void;

/** Fields the writer may refuse and that an entry can do without. */
const OPTIONAL_FIELDS: ReadonlySet<string> = new Set(['lastmod', 'changefreq', 'priority']);
const HREFLANG_FIELD = 'xhtml:link@hreflang';

// XML's escapes of the characters a URL may hold (a URL copied from a sitemap): `&amp;` in a URL is `&amp;amp;` in ours.
const XML_ESCAPE = /&(?:amp|apos|quot|lt|gt);/;

/** Distinct hreflang values whose verdict is remembered (a site has a few dozen). */
const MAX_CACHED_TAGS = 1000;

/** A scheme (RFC 3986 §3.1), `//` and the authority at the start (`://` later in a path or query is none), one `/`, then the path. */
const PATH_OF = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*)?\/?([^?#]*)/;

/**
 * The URL path of `loc` as written, as the filters see it: without the leading `/`, query and fragment.
 * `https://example.com/blog/a?x=1` and `/blog/a#top` are both `blog/a`.
 */
export function filterPath(loc: string): string {
  return (PATH_OF.exec(loc) as RegExpExecArray)[1] as string;
}

/**
 * `loc` as the filters see it: as the writer will write it, dot segments resolved (`/./drafts/a` and
 * `/x/../drafts/a` are `/drafts/a`), then its escapes read (`caf%C3%A9` is `café`, as build's file
 * paths are); as written when it is no URL, which the writer refuses.
 */
function filterForm(loc: string): string {
  let url = loc;
  try {
    url = normalizeUrl(loc, 'loc', 'http://filter.invalid/');
    return decodeURI(url);
  } catch {
    return url;
  }
}

export class EntryPolicy {
  private readonly defaults: EntryDefaults;
  private readonly strict: boolean;
  private readonly now: number;
  private readonly keepPath: ((path: string) => boolean) | undefined;
  /** A date that sorts before this (YYYY-MM-DD, two days back) is in the past: decided without parsing. */
  private readonly pastBefore: string;
  /** hreflang value → what is wrong with it (null: nothing). */
  private readonly tags = new Map<string, { message: string; fix?: string } | null>();

  constructor(options: EntryPolicyOptions) {
    this.defaults = options.defaults ?? {};
    this.strict = options.strict === true;
    this.now = options.now;
    this.keepPath = options.keepPath;
    this.pastBefore = surelyPastBefore(options.now);
  }

  /**
   * Prepares `entry` (changed in place) for the writer. Returns false when the filters leave it out.
   * Warns through `warn`; with `strict`, throws InvalidValueError where it would drop or change a value.
   */
  prepare(entry: UrlEntry, warn: EntryWarningHandler): boolean {
    const loc = entry.loc;
    if (typeof loc !== 'string') return true; // the writer refuses it
    if (this.keepPath !== undefined && !this.keepPath(filterPath(filterForm(loc)))) return false;
    const hash = loc.indexOf('#');
    if (hash !== -1) this.dropFragment(entry, loc, hash, warn);
    const escape = entry.loc.includes('&') ? XML_ESCAPE.exec(entry.loc) : null;
    if (escape !== null) warn('loc/xml-escaped', `${quoteValue(entry.loc)} holds the XML escape ${quoteValue(escape[0])}; it is written as given, so the URL has those characters: if it was copied from XML, write the character it stands for`);
    const lastmod = entry.lastmod;
    if (lastmod === undefined || lastmod === null) {
      if (this.defaults.lastmod !== undefined) entry.lastmod = this.defaults.lastmod;
    } else if (typeof lastmod === 'string' ? !(lastmod < this.pastBefore && lastmod.length >= 4) : true) {
      this.checkFuture(lastmod, warn);
    }
    if ((entry.changefreq === undefined || entry.changefreq === null) && this.defaults.changefreq !== undefined) entry.changefreq = this.defaults.changefreq;
    if ((entry.priority === undefined || entry.priority === null) && this.defaults.priority !== undefined) entry.priority = this.defaults.priority;
    const alternates = entry.alternates;
    if (Array.isArray(alternates) && alternates.length > 0) this.checkHreflang(entry, alternates, warn);
    // Google's video sitemaps: a duration "from 1 to 28800"; the writer, as sitemap-video.xsd, takes 0 (validate: video/zero-duration).
    if (Array.isArray(entry.videos) && entry.videos.some((video) => video?.duration === 0)) {
      warn('video/zero-duration', 'video:duration is 0 seconds; Google takes 1 to 28,800: it is written as given, give the length of the video or leave it out');
    }
    return true;
  }

  /**
   * After the writer refused `entry` with `error`: the entry without the refused optional value (the
   * default in its place when there is one) or without the optional part the writer marked as holding
   * it (an image, a video's tvshow, an alternate), with a warning; or undefined to reject the entry (a
   * required value, or `strict`).
   */
  replace(error: InvalidValueError, entry: UrlEntry, warn: EntryWarningHandler): UrlEntry | undefined {
    if (this.strict) return undefined;
    if (OPTIONAL_FIELDS.has(error.field)) {
      const field = error.field as 'lastmod' | 'changefreq' | 'priority';
      if (entry[field] === undefined || entry[field] === null) return undefined;
      const fallback = this.defaults[field];
      if (fallback !== undefined && entry[field] !== fallback) {
        entry[field] = fallback as never;
        warn(error.rule, `${error.message}; --${field} ${fallback} is written instead`);
      } else {
        delete entry[field];
        warn(error.rule, `${error.message}; the URL is written without ${field}`);
      }
      return entry;
    }
    if (error.at === undefined) return undefined;
    const refused = [error, ...(error.also ?? [])];
    // From the last: the items of one list are refused in order, and each removal moves those after it.
    for (const { at } of refused.slice().reverse()) {
      const { owner, key, count = 1 } = at as NonNullable<InvalidValueError['at']>;
      if (Array.isArray(owner)) owner.splice(key as number, count);
      else delete owner[key];
    }
    for (const { at, field, rule, message, value } of refused) {
      const fix = field === HREFLANG_FIELD && typeof value === 'string' ? languageTagProblem(value)?.fix : undefined;
      warn(rule, `${message}${fix !== undefined ? `: write ${fix}` : ''}; the URL is written without ${at?.count === undefined ? 'this' : `the last ${at.count}`} ${at?.field}`);
    }
    return entry;
  }

  // RFC 3986 §3.5: the fragment is not sent to the server, so engines index the URL without it; written
  // without it, two URLs that differ only in their fragment are also one page listed once.
  private dropFragment(entry: UrlEntry, loc: string, hash: number, warn: EntryWarningHandler): void {
    const written = loc.slice(0, hash);
    const message = `${quoteValue(loc)} has the fragment ${quoteValue(loc.slice(hash))}; search engines drop it (it is not sent to the server, RFC 3986 §3.5)`;
    if (this.strict) throw new InvalidValueError('loc/fragment', 'loc', loc, `${message}; remove it from the input (--strict)`);
    entry.loc = written;
    warn('loc/fragment', `${message}, so ${quoteValue(written)} is written`);
  }

  private checkFuture(lastmod: unknown, warn: EntryWarningHandler): void {
    let instant: number;
    if (typeof lastmod === 'number') instant = lastmod;
    else if (lastmod instanceof Date) instant = lastmod.getTime();
    else if (typeof lastmod === 'string') {
      const parsed = parseW3cDatetime(lastmod.trim());
      if (parsed === undefined) return; // the writer refuses it
      instant = parsed.epochMs;
    } else return;
    // Only a value the writer takes is "written as given": it refuses Infinity, 1.5 and years past 9999.
    if (isFutureLastmod(instant, this.now) && (typeof lastmod === 'string' || isWritableDate(lastmod))) {
      warn('lastmod/future', `lastmod ${quoteValue(lastmod)} is in the future; it is written as given, but a page cannot have changed after today, and Google ignores lastmod values it cannot trust`);
    }
  }

  private checkHreflang(entry: UrlEntry, alternates: readonly { hreflang: string; href: string }[], warn: EntryWarningHandler): void {
    let kept: { hreflang: string; href: string }[] | undefined;
    for (let i = 0; i < alternates.length; i++) {
      const link = alternates[i] as { hreflang: string; href: string };
      const tag = link !== null && typeof link === 'object' ? link.hreflang : undefined;
      const problem = typeof tag === 'string' ? this.tagProblem(tag) : null;
      if (problem === null) {
        kept?.push(link);
        continue;
      }
      const fix = problem.fix !== undefined ? `: write ${problem.fix}` : '';
      const message = `hreflang ${quoteValue(tag)} is not a BCP 47 language tag Google reads (${problem.message})${fix}`;
      if (this.strict) throw new InvalidValueError('hreflang/invalid-language', HREFLANG_FIELD, tag, `${message} (--strict)`);
      warn('hreflang/invalid-language', `${message}; the URL is written without the alternate ${quoteValue(link.href)}`);
      kept ??= alternates.slice(0, i);
    }
    if (kept !== undefined) entry.alternates = kept;
  }

  private tagProblem(tag: string): { message: string; fix?: string } | null {
    let problem = this.tags.get(tag);
    if (problem === undefined) {
      problem = languageTagProblem(tag) ?? null;
      if (this.tags.size < MAX_CACHED_TAGS) this.tags.set(tag, problem);
    }
    return problem;
  }
}

/** Whether the writer takes `value` as a lastmod (asked only of one in the future, which is rare). */
function isWritableDate(value: number | Date): boolean {
  try {
    toSitemapDate(value);
    return true;
  } catch {
    return false;
  }
}
