// RSS 2.0 and Atom entries as the XML reader reads them: the URL from the first alternate link (RSS:
// or a permalink guid), resolved against xml:base or else the feed's own link (`loc/relative`); the
// lastmod from pubDate / updated / modified, else dc:date / published / issued / created.

import { parseW3cDatetime, w3cDatetimeProblem } from '../datetime.js';
import type { UrlEntry } from '../model.js';
import type { XmlAttribute } from '../xml/tokenizer.js';
import { hasScheme, isAbsoluteHttpUrl, resolveBase, resolveReference, rfc822ToW3c } from './feeds.js';
import { C_ENTRY, C_ITEM, E_A_CREATED, E_A_ISSUED, E_A_MODIFIED, E_A_PUBLISHED, E_A_UPDATED, E_R_DC_DATE, E_R_GUID, E_R_LINK, E_R_PUBDATE, FIELD_NAMES } from './xml-elements.js';
import { show } from '../errors.js';
import { unusableUrl } from '../url.js';
import { attrValue, type At, type FieldBeingRead, type Report } from './xml-extensions.js';

export class FeedEntryReader {
  /** The feed's xml:base (Atom). */
  base: string | undefined;
  /** The feed's own alternate link (Atom): relative entry links resolve against it when nothing else is there. */
  private feedLink: string | undefined;
  private entryBaseUrl: string | undefined;
  private href: string | undefined;
  /** The Atom link in `href` has rel="alternate" written out (it wins over a link without rel). */
  private hrefExplicit = false;
  private hrefProblem = '';
  private guid: string | undefined;
  private guidProblem = '';
  private guidPermaLink = true;
  /** Where the RSS item's link (or guid) is; an Atom link is placed at its entry. */
  private locAt: At | undefined;
  private date1: string | undefined;
  private date1Id = 0;
  private date1At: At | undefined;
  private date2: string | undefined;
  private date2Id = 0;
  private date2At: At | undefined;

  constructor(
    private readonly field: FieldBeingRead,
    private readonly report: Report,
  ) {}

  /** An item or entry starts. */
  beginEntry(): void {
    this.href = undefined;
    this.hrefExplicit = false;
    this.hrefProblem = '';
    this.guid = undefined;
    this.guidPermaLink = true;
    this.locAt = undefined;
    this.date1 = undefined;
    this.date2 = undefined;
    this.entryBaseUrl = this.base;
  }

  /** The xml:base of an Atom entry that starts. */
  entryBase(attributes: readonly XmlAttribute[]): void {
    this.entryBaseUrl = resolveBase(attrValue(attributes, 'xml:base'), this.base);
  }

  /** A `<link>` of the Atom feed itself: the first alternate one is the feed's link. */
  feedLinkElement(attributes: readonly XmlAttribute[]): void {
    if (this.feedLink !== undefined) return;
    const href = alternateHref(attributes);
    if (href === undefined) return;
    const base = resolveBase(attrValue(attributes, 'xml:base'), this.base);
    this.feedLink = isAbsoluteHttpUrl(href) ? href : base !== undefined && !hasScheme(href) ? resolveReference(href, base) : undefined;
  }

  /**
   * A `<link>` of an Atom entry: the first with rel="alternate", else the first without rel (which
   * means alternate too). `problem`: why its href cannot be trusted ('' when it can).
   */
  entryLinkElement(attributes: readonly XmlAttribute[], problem: string): void {
    if (this.hrefExplicit) return;
    const explicit = attrValue(attributes, 'rel') !== undefined;
    if (this.href !== undefined && !explicit) return;
    const href = alternateHref(attributes);
    if (href === undefined) return;
    const base = resolveBase(attrValue(attributes, 'xml:base'), this.entryBaseUrl);
    this.href = href;
    this.hrefExplicit = explicit;
    this.hrefProblem = problem;
    if (!isAbsoluteHttpUrl(href) && !hasScheme(href) && base !== undefined) {
      const resolved = resolveReference(href, base);
      if (resolved !== undefined) this.href = resolved;
    }
  }

  /** A field of the entry read: link, guid or a date. */
  fieldRead(id: number, v: string): void {
    switch (id) {
      case E_R_LINK:
        if (this.href !== undefined) return this.field.duplicate();
        this.href = v;
        this.hrefProblem = this.field.problem;
        this.locAt = this.field.at();
        return;
      case E_R_GUID: {
        if (this.guid !== undefined) return this.field.duplicate();
        this.guid = v;
        this.guidProblem = this.field.problem;
        const permaLink = attrValue(this.field.attrs, 'isPermaLink');
        this.guidPermaLink = permaLink === undefined || permaLink.toLowerCase() === 'true';
        if (this.href === undefined) this.locAt = this.field.at();
        return;
      }
      case E_R_PUBDATE:
      case E_R_DC_DATE:
      case E_A_UPDATED:
      case E_A_MODIFIED:
      case E_A_PUBLISHED:
      case E_A_ISSUED:
      case E_A_CREATED: {
        const primary = id === E_R_PUBDATE || id === E_A_UPDATED || id === E_A_MODIFIED;
        if (primary) {
          if (this.date1 !== undefined) return this.field.duplicate();
          this.date1 = v;
          this.date1Id = id;
          this.date1At = this.field.at();
        } else if (this.date2 === undefined) {
          this.date2 = v;
          this.date2Id = id;
          this.date2At = this.field.at();
        }
        return;
      }
      default:
        return;
    }
  }

  /** The entry that ends (closed by its end tag, not by recovery), or undefined (reported). */
  finish(ctx: number, at: At): UrlEntry | undefined {
    let loc = this.href;
    let problem = this.hrefProblem;
    if (ctx === C_ITEM && (loc === undefined || loc === '') && this.guid !== undefined && this.guidPermaLink) {
      loc = this.guid;
      problem = this.guidProblem;
    }
    if (loc === undefined || loc === '') {
      this.report('loc/missing', ctx === C_ITEM ? '<item> without <link> (or a permalink <guid>); the entry is skipped' : '<entry> without <link rel="alternate" href="…">; the entry is skipped', at);
      return undefined;
    }
    if (problem !== '') {
      this.report('loc/untrusted', `link ${show(loc)} cannot be trusted (${problem}); the entry is dropped`, this.locAt ?? at);
      return undefined;
    }
    if (!isAbsoluteHttpUrl(loc)) {
      const resolved = ctx === C_ENTRY && !hasScheme(loc) && this.feedLink !== undefined ? resolveReference(loc, this.feedLink) : undefined;
      if (resolved === undefined) {
        this.report('loc/not-absolute', `link ${show(loc)} is not an absolute http(s) URL${ctx === C_ENTRY && !hasScheme(loc) ? ', and there is no xml:base or feed link to resolve it against' : ''}; the entry is skipped`, at);
        return undefined;
      }
      this.report('loc/relative', `relative link ${show(loc)} resolved against the feed's link: ${resolved}`, at, 'write absolute links, or set xml:base');
      loc = resolved;
    }
    const unusable = unusableUrl(loc);
    if (unusable !== undefined) {
      this.report('loc/invalid', `link ${show(loc)} is not a URL anything can fetch: ${unusable.why}; the entry is skipped`, at, unusable.hint);
      return undefined;
    }
    const entry: UrlEntry = { loc };
    const lastmod = this.date();
    if (lastmod !== undefined) entry.lastmod = lastmod;
    return entry;
  }

  /** The entry's lastmod from its date elements, with diagnostics; undefined when there is none. */
  private date(): string | undefined {
    let v = this.date1;
    let id = this.date1Id;
    let at = this.date1At as At;
    if (v === undefined) {
      v = this.date2;
      if (v === undefined) return undefined;
      id = this.date2Id;
      at = this.date2At as At;
    }
    const field = FIELD_NAMES[id] as string;
    const rfc822 = id === E_R_PUBDATE ? rfc822ToW3c(v) : undefined;
    if (rfc822 !== undefined && rfc822.problem === undefined) {
      if (rfc822.weekday !== undefined) this.report('lastmod/weekday', `pubDate ${show(v)}: the date is a ${rfc822.weekday.actual}, not a ${rfc822.weekday.written}; the date is kept`, at, `write ${rfc822.weekday.actual}`);
      if (rfc822.lenient !== undefined) this.report('lastmod/lenient', `pubDate ${show(v)} read leniently (${rfc822.lenient}) as ${rfc822.text}`, at, 'write an RFC 822 date such as "Sat, 07 Sep 2002 09:42:31 GMT"');
      return rfc822.text;
    }
    const parsed = parseW3cDatetime(v);
    // RFC 3339 §5.6 (Atom's dates) allows a leap second, 23:59:60, as RFC 2822 §3.3 does; W3C Datetime and xsd:dateTime stop at 59.
    const leap = parsed === undefined ? parseW3cDatetime(v.replace(/([Tt ]\d\d:\d\d:)60(?!\d)/, '$159')) : undefined;
    if (rfc822 !== undefined) {
      if (parsed === undefined && leap === undefined) {
        this.report('lastmod/invalid', `pubDate ${show(v)} is not an RFC 822 date (${rfc822.problem}); kept as written`, at, 'write a date such as "Sat, 07 Sep 2002 09:42:31 GMT"');
        return v;
      }
      const how = leap === undefined ? 'kept as written' : `read leniently (a leap second (second 60) read as 59) as ${leap.text}`;
      this.report('lastmod/lenient', `pubDate ${show(v)} is a W3C Datetime, not an RFC 822 date; ${how}`, at, 'RSS 2.0 dates are written like "Sat, 07 Sep 2002 09:42:31 GMT"');
      return leap?.text ?? v;
    }
    if (leap !== undefined) {
      this.report('lastmod/lenient', `${field} ${show(v)} read leniently (a leap second (second 60) read as 59) as ${leap.text}`, at);
      return leap.text;
    }
    if (parsed === undefined) {
      this.report('lastmod/invalid', `${field} ${show(v)} is not a date-time (${w3cDatetimeProblem(v) ?? 'invalid'}); kept as written`, at, 'write an RFC 3339 date-time such as 2003-12-13T18:30:02Z');
    } else if (id !== E_R_DC_DATE && (parsed.precision === 'year' || parsed.precision === 'month' || parsed.precision === 'day')) {
      this.report('lastmod/date-only', `${field} ${show(v)} has no time (RFC 3339 wants a full date-time); accepted`, at, `write ${parsed.text}T00:00:00Z`);
    } else if (!parsed.w3c) {
      this.report('lastmod/lenient', `${field} ${show(v)} is not in RFC 3339 form; kept as written`, at, `write ${parsed.text}`);
    }
    return v;
  }
}

/** The href of an Atom link that is an alternate (rel absent or "alternate"), else undefined. */
function alternateHref(attributes: readonly XmlAttribute[]): string | undefined {
  const rel = attrValue(attributes, 'rel');
  if (rel !== undefined && rel !== 'alternate' && rel !== 'http://www.iana.org/assignments/relation/alternate') return undefined;
  return attrValue(attributes, 'href');
}
