// The XML reader's fast path for the bulk of real sitemaps (issue #3, bench:read): a `<url>` or
// `<sitemap>` element in its plain shape, matched whole by one sticky RegExp (V8 compiles it to
// machine code), then checked with the same rules the full reader applies. The shape:
//
//   <url><loc>…</loc>[<lastmod>…</lastmod>][<changefreq>…</changefreq>][<priority>…</priority>]
//        then any number of <image:image><image:loc>…</image:loc></image:image>
//        and <xhtml:link rel="alternate" hreflang="…" href="…"/>, in any order</url>
//
// with whitespace between elements, no attributes on the sitemap elements, and values without `&`,
// `<` or CR. Anything else (entities, comments, CDATA, other extensions, other child orders, a value
// the reader would report) makes the shortcut decline, and the element is tokenized the long way,
// diagnostics and all. The entries are the same either way: test/read/entry-shortcut.test.ts reads
// every fixture and corpus file both ways and compares.

import type { AlternateLink, Changefreq, ImageEntry, SitemapRef, UrlEntry } from '../model.js';
import { w3cDatetimeProblem } from '../datetime.js';
import { isAbsoluteHttpUrl } from './feeds.js';
import { isChangefreq, isStrictW3c, priorityTenths, xmlTrim } from './values.js';

/** Namespace prefixes bound (on the root) to the extensions the shortcut reads; absent: not read. */
export interface ShortcutPrefixes {
  image?: string;
  xhtml?: string;
}

const WS = '[ \\t\\n\\r]*';
const VALUE = '([^<&\\r]*)';
const ATTRIBUTE_VALUE = '([^<&"\\t\\n\\r]*)';
const ATTRIBUTES = '((?:[ \\t\\n\\r]+[A-Za-z]+="[^<&"\\t\\n\\r]*")*)';
const ATTRIBUTE = /[ \t\n\r]+([A-Za-z]+)="([^"]*)"/y;

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
    const fields = `<loc>${VALUE}</loc>${WS}(?:<lastmod>${VALUE}</lastmod>${WS})?(?:<changefreq>${VALUE}</changefreq>${WS})?(?:<priority>${VALUE}</priority>${WS})?`;
    this.url = new RegExp(`<url>${WS}${fields}(</url>)?`, 'y');
    this.sitemap = new RegExp(`<sitemap>${WS}<loc>${VALUE}</loc>${WS}(?:<lastmod>${VALUE}</lastmod>${WS})?</sitemap>`, 'y');
    this.extension = new RegExp(`(?:${image}|${links})${WS}|(</url>)`, 'y');
  }

  /**
   * The entry of a `url` match, or undefined when the full reader would report something or the
   * element is not all plain (or longer than `maxLength`).
   */
  urlEntry(m: RegExpExecArray, maxLength: number): UrlEntry | undefined {
    if (m[0].length > maxLength) return undefined;
    const loc = trustedLoc(m[1] as string);
    if (loc === undefined) return undefined;
    const entry: UrlEntry = { loc };
    const lastmod = m[2];
    if (lastmod !== undefined) {
      const v = xmlTrim(lastmod);
      if (!isCleanDate(v)) return undefined;
      entry.lastmod = v;
    }
    const changefreq = m[3];
    if (changefreq !== undefined) {
      const v = xmlTrim(changefreq);
      if (!isChangefreq(v)) return undefined;
      entry.changefreq = v as Changefreq;
    }
    const priority = m[4];
    if (priority !== undefined) {
      const tenths = priorityTenths(xmlTrim(priority));
      if (tenths < 0) return undefined;
      entry.priority = tenths / 10;
    }
    const end = m.index + m[0].length;
    if (m[5] !== undefined) {
      this.end = end;
    } else if (!this.readExtensions(m.input, end, m.index + maxLength, entry)) {
      return undefined;
    }
    return entry;
  }

  /** The index entry of a `sitemap` match, or undefined when the full reader would report something. */
  sitemapRef(m: RegExpExecArray): SitemapRef | undefined {
    const loc = trustedLoc(m[1] as string);
    if (loc === undefined) return undefined;
    const ref: SitemapRef = { loc };
    const lastmod = m[2];
    if (lastmod !== undefined) {
      const v = xmlTrim(lastmod);
      if (!isCleanDate(v)) return undefined;
      ref.lastmod = v;
    }
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

/** A loc the reader would deliver as is: trimmed, absolute http(s). */
function trustedLoc(raw: string): string | undefined {
  const loc = xmlTrim(raw);
  return loc !== '' && isAbsoluteHttpUrl(loc) ? loc : undefined;
}

/** A lastmod the reader takes without a diagnostic: a W3C Datetime written in one of its own forms. */
function isCleanDate(v: string): boolean {
  return w3cDatetimeProblem(v) === undefined && isStrictW3c(v);
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
