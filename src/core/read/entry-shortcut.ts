// The XML reader's fast path for the bulk of real sitemaps (issue #3, bench:read): a `<url>` or
// `<sitemap>` element in its plain shape, matched whole by one sticky RegExp (V8 compiles it to
// machine code) that also checks the common forms of the values, so that a plain entry costs next to
// no script. The shape:
//
//   <url><loc>…</loc>[<lastmod>…</lastmod>][<changefreq>…</changefreq>][<priority>…</priority>]
//        then any number of <image:image><image:loc>…</image:loc></image:image>
//        and <xhtml:link rel="alternate" hreflang="…" href="…"/>, in any order</url>
//
// with whitespace between elements, no attributes on the sitemap elements, and values without `&`,
// `<` or CR. Anything else (entities, comments, CDATA, other extensions, other child orders, a value
// the reader would report) makes the shortcut decline, and the element is tokenized the long way,
// diagnostics and all. The entries are the same either way: test/core/read/entry-shortcut.test.ts
// reads every fixture and corpus file both ways, and fast-check mutations of them, and compares.

import type { AlternateLink, Changefreq, ImageEntry, SitemapRef, UrlEntry } from '../model.js';
import { w3cDatetimeProblem } from '../datetime.js';
import { isStrictW3c, xmlTrim } from './values.js';

/** Namespace prefixes bound (on the root) to the extensions the shortcut reads; absent: not read. */
export interface ShortcutPrefixes {
  image?: string;
  xhtml?: string;
}

const WS = '[ \\t\\n\\r]*';
/**
 * What XML 1.0 forbids in a document, and surrogates (a pair is allowed, but is left to the long
 * way, which tells it from a lone one): a value holding one is read by the tokenizer, which reports
 * `xml/invalid-char`. Excluded from every value class below.
 */
const NOT_CHAR = '\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\ud800-\\udfff\\ufffe\\uffff';
const VALUE = `([^<&\\r${NOT_CHAR}]*)`;
const ATTRIBUTE_VALUE = `([^<&"\\t\\n\\r${NOT_CHAR}]*)`;
const ATTRIBUTES = `((?:[ \\t\\n\\r]+[A-Za-z]+="[^<&"\\t\\n\\r${NOT_CHAR}]*")*)`;
const ATTRIBUTE = /[ \t\n\r]+([A-Za-z]+)="([^"]*)"/y;

// Values checked by the pattern itself, so that the common entry costs next to no script. Each
// accepts a subset of what the reader takes without a diagnostic (anything else goes the slower way).
/** An absolute http(s) URL (feeds.ts isAbsoluteHttpUrl), leading whitespace skipped; trailing whitespace still in. */
const LOC = `${WS}((?:[hH][tT][tT][pP][sS]?)://[^\\x00-\\x20/?#<&\\ud800-\\udfff\\ufffe\\uffff][^<&\\r${NOT_CHAR}]*)`;
/** `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ss` + `Z` or `±hh:mm` (at most ±14:00), every field in range except day 29–31 of a month. */
const CANONICAL_DATE = '((?!0000)\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])(?:T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:Z|[+-](?:(?:0\\d|1[0-3]):[0-5]\\d|14:00)))?)';
const CHANGEFREQ = '(always|hourly|daily|weekly|monthly|yearly|never)';
/** Decimals from 0 to 1 (the reader's DECIMAL within range). */
const PRIORITY = '(0(?:\\.\\d*)?|1(?:\\.0*)?|\\.\\d+)';
/**
 * After an entry's end tag, the whitespace before the next entry's start tag: a blank run, which the
 * reader ignores, so it may be skipped. Only before a plain start tag, which is sure to end the run
 * (a malformed tag would not, and the run's position would show in a stray-text diagnostic).
 */
const after = (element: string): string => `(?:[ \\t\\n\\r]+(?=<${element}>))?`;

// Groups of the url pattern.
const G_LOC = 1;
const G_LASTMOD = 2;
const G_LASTMOD_OTHER = 3;
const G_CHANGEFREQ = 4;
const G_PRIORITY = 5;
const G_END = 6;

// Groups of the extension pattern.
const G_IMAGE_LOC = 1;
const G_HREFLANG = 2;
const G_HREF = 3;
const G_LINK_ATTRIBUTES = 4;
const G_URL_END = 5;

function escapeName(name: string): string {
  return name.replace(/[.-]/g, '\\$&');
}

/**
 * Reads plain `<url>` and `<sitemap>` elements from their text; undefined where the full reader must.
 * `url` and `sitemap` are sticky patterns tried at the element's `<`; after a successful read, `end`
 * is the index just after the element's end tag.
 */
export class EntryShortcut {
  /** A `<url>` up to its priority (group 5 is its end tag when no extension follows). */
  readonly url: RegExp;
  /** A whole `<sitemap>`. */
  readonly sitemap: RegExp;
  /** One image or hreflang link, or the `</url>` end tag: tried in a loop after `url`. */
  private readonly extension: RegExp;
  end = 0;

  constructor(prefixes: ShortcutPrefixes) {
    const never = '(?!)()';
    let image = `${never}`;
    if (prefixes.image !== undefined) {
      const p = escapeName(prefixes.image);
      image = `<${p}:image>${WS}<${p}:loc>${VALUE}</${p}:loc>${WS}</${p}:image>`;
    }
    // The form writers use, read without parsing attributes; then any order of plain attributes.
    let links = `${never}()()`;
    if (prefixes.xhtml !== undefined) {
      const link = `<${escapeName(prefixes.xhtml)}:link`;
      links = `${link} rel="alternate" hreflang="${ATTRIBUTE_VALUE}" href="${ATTRIBUTE_VALUE}"${WS}/>|${link}${ATTRIBUTES}${WS}/>`;
    }
    const lastmod = `<lastmod>${WS}(?:${CANONICAL_DATE}${WS}|${VALUE})</lastmod>${WS}`;
    const fields = `<loc>${LOC}</loc>${WS}(?:${lastmod})?(?:<changefreq>${WS}${CHANGEFREQ}${WS}</changefreq>${WS})?(?:<priority>${WS}${PRIORITY}${WS}</priority>${WS})?`;
    this.url = new RegExp(`<url>${WS}${fields}(</url>${after('url')})?`, 'y');
    this.sitemap = new RegExp(`<sitemap>${WS}<loc>${LOC}</loc>${WS}(?:${lastmod})?</sitemap>${after('sitemap')}`, 'y');
    this.extension = new RegExp(`(?:${image}|${links})${WS}|(</url>${after('url')})`, 'y');
  }

  /**
   * The entry of a `url` match, or undefined when the full reader would report something or the
   * element is not all plain (or longer than `maxLength`).
   */
  urlEntry(m: RegExpExecArray, maxLength: number): UrlEntry | undefined {
    if (m[0].length > maxLength) return undefined;
    const loc = xmlTrim(m[G_LOC] as string);
    const lastmod = lastmodOf(m);
    if (lastmod === '') return undefined;
    const changefreq = m[G_CHANGEFREQ] as Changefreq | undefined;
    const priority = m[G_PRIORITY];
    // Number() gives the reader's value: tenths / 10 for 0.0 … 1.0 (both correctly rounded), Number(v) otherwise.
    let entry: UrlEntry;
    if (lastmod !== undefined && changefreq !== undefined && priority !== undefined) {
      // The usual entry, made whole: fields added one by one after `{ loc }` go to a separate
      // property array (one more allocation per entry, and slower to read). Same key order.
      entry = { loc, lastmod, changefreq, priority: Number(priority) };
    } else {
      entry = { loc };
      if (lastmod !== undefined) entry.lastmod = lastmod;
      if (changefreq !== undefined) entry.changefreq = changefreq;
      if (priority !== undefined) entry.priority = Number(priority);
    }
    const end = m.index + m[0].length;
    if (m[G_END] !== undefined) {
      this.end = end;
    } else if (!this.readExtensions(m.input, end, m.index + maxLength, entry)) {
      return undefined;
    }
    return entry;
  }

  /** The index entry of a `sitemap` match, or undefined when the full reader would report something. */
  sitemapRef(m: RegExpExecArray, maxLength: number): SitemapRef | undefined {
    if (m[0].length > maxLength) return undefined;
    const ref: SitemapRef = { loc: xmlTrim(m[G_LOC] as string) };
    const lastmod = lastmodOf(m);
    if (lastmod === '') return undefined;
    if (lastmod !== undefined) ref.lastmod = lastmod;
    this.end = m.index + m[0].length;
    return ref;
  }

  /** Images and hreflang alternates from `text` at `from` up to `</url>` (ending by `limit`); false to decline. */
  private readExtensions(text: string, from: number, limit: number, entry: UrlEntry): boolean {
    const pattern = this.extension;
    let images: ImageEntry[] | undefined;
    let alternates: AlternateLink[] | undefined;
    pattern.lastIndex = from;
    for (;;) {
      const m = pattern.exec(text);
      if (m === null || pattern.lastIndex > limit) return false;
      if (m[G_URL_END] !== undefined) break;
      const imageLoc = m[G_IMAGE_LOC];
      if (imageLoc !== undefined) {
        // The reader takes any non-empty image:loc (validation judges it).
        const loc = xmlTrim(imageLoc);
        if (loc === '') return false;
        (images ??= []).push({ loc });
        continue;
      }
      const hreflang = m[G_HREFLANG];
      const alternate = hreflang !== undefined ? plainAlternate(hreflang, m[G_HREF] as string) : alternateOf(m[G_LINK_ATTRIBUTES] as string);
      if (alternate === false) return false;
      if (alternate !== undefined) (alternates ??= []).push(alternate);
    }
    this.end = pattern.lastIndex;
    if (images !== undefined) entry.images = images;
    if (alternates !== undefined) entry.alternates = alternates;
    return true;
  }
}

function plainAlternate(hreflang: string, href: string): AlternateLink | false {
  const lang = xmlTrim(hreflang);
  const target = xmlTrim(href);
  return lang === '' || target === '' ? false : { hreflang: lang, href: target };
}

/** The lastmod of a url or sitemap match: undefined when absent, '' when the reader would report it. */
function lastmodOf(m: RegExpExecArray): string | undefined {
  const canonical = m[G_LASTMOD];
  if (canonical !== undefined) {
    // The pattern leaves the days 29 to 31 to the calendar.
    const d = canonical.charCodeAt(8);
    return d === 0x33 || (d === 0x32 && canonical.charCodeAt(9) === 0x39) ? (isCleanDate(canonical) ? canonical : '') : canonical;
  }
  const other = m[G_LASTMOD_OTHER];
  if (other === undefined) return undefined;
  const v = xmlTrim(other);
  return isCleanDate(v) ? v : '';
}

/** A lastmod the reader takes without a diagnostic: a W3C Datetime written in one of its own forms. */
function isCleanDate(v: string): boolean {
  return v !== '' && w3cDatetimeProblem(v) === undefined && isStrictW3c(v);
}

/**
 * An `<xhtml:link>` as the reader reads it: the alternate, undefined when it is silently not one
 * (another rel), false to decline (duplicate or unknown attributes, a missing href or hreflang: the
 * full reader reports those).
 */
function alternateOf(attributes: string): AlternateLink | undefined | false {
  let rel: string | undefined;
  let hreflang: string | undefined;
  let href: string | undefined;
  ATTRIBUTE.lastIndex = 0;
  while (ATTRIBUTE.lastIndex < attributes.length) {
    const m = ATTRIBUTE.exec(attributes);
    if (m === null) return false;
    const value = xmlTrim(m[2] as string);
    switch (m[1]) {
      case 'rel':
        if (rel !== undefined) return false;
        rel = value;
        break;
      case 'hreflang':
        if (hreflang !== undefined) return false;
        hreflang = value;
        break;
      case 'href':
        if (href !== undefined) return false;
        href = value;
        break;
      default:
        return false;
    }
  }
  if (rel === undefined || rel.toLowerCase() !== 'alternate') return undefined; // amphtml, canonical...: skipped quietly
  if (href === undefined || href === '' || hreflang === undefined || hreflang === '') return false;
  return { hreflang, href };
}
