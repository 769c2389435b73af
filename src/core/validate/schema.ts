// The content models of sitemap.xsd, siteindex.xsd and Google's image 1.1, video 1.1 and news 0.9
// schemas (../shared/spec/xsd/), plus the xhtml:link of hreflang alternates (schemas/xhtml-link.xsd),
// as data for the structure checker (structure.ts). Each complex type is a sequence of particles, as
// in the schemas; `other` is the `<xsd:any namespace="##other" processContents="strict">` wildcard.

import { CHANGEFREQS, MAX_LOC_LENGTH, NS } from '../model.js';
import {
  anyString, anyUri, both, collapsedLengthIn, dateOrDateTime, decimalIn, integerIn, matching, maxLength, oneOf, type SimpleTypeCheck,
} from './xsd-types.js';

export interface AttributeDecl {
  readonly required: boolean;
  readonly check: SimpleTypeCheck;
}

export interface ElementDecl {
  readonly ns: string;
  readonly name: string;
  readonly type: TypeDecl;
}

/** One place in a sequence: an element or the ##other wildcard, with its occurrence bounds. */
export interface Particle {
  readonly element?: ElementDecl;
  readonly other?: true;
  readonly min: number;
  readonly max: number;
}

/** Element-only content (a sequence), or simple content (text of a simple type); both may have attributes. */
export interface TypeDecl {
  readonly sequence?: readonly Particle[];
  readonly text?: SimpleTypeCheck;
  /** What the text must be, for messages ("an xsd:date or xsd:dateTime"). */
  readonly textWhat?: string;
  readonly attributes?: Readonly<Record<string, AttributeDecl>>;
}

const UNBOUNDED = Number.POSITIVE_INFINITY;

const simple = (text: SimpleTypeCheck, textWhat: string, attributes?: Record<string, AttributeDecl>): TypeDecl =>
  attributes === undefined ? { text, textWhat } : { text, textWhat, attributes };
const el = (ns: string, name: string, type: TypeDecl): ElementDecl => ({ ns, name, type });
const one = (element: ElementDecl): Particle => ({ element, min: 1, max: 1 });
const optional = (element: ElementDecl, max = 1): Particle => ({ element, min: 0, max });
const OTHER: Particle = { other: true, min: 0, max: UNBOUNDED };
const attr = (check: SimpleTypeCheck, required = false): AttributeDecl => ({ required, check });

const URI = simple(anyUri, 'a URI');
const STRING = simple(anyString, 'text');
const DATE = simple(dateOrDateTime, 'an xsd:date or xsd:dateTime');
const YES_NO = oneOf(['yes', 'Yes', 'YES', 'no', 'No', 'NO']);
const ALLOW_DENY = oneOf(['allow', 'deny']);

// ---- sitemap.xsd and siteindex.xsd ------------------------------------------------------------------

const S = NS.sitemap;
// sitemap.xsd's tLoc: minLength 12, maxLength 2048 (one more than the protocol's "less than 2,048").
const LOC = el(S, 'loc', simple(both(anyUri, collapsedLengthIn(12, MAX_LOC_LENGTH + 1)), 'a URI of 12 to 2,048 characters'));
const LASTMOD = el(S, 'lastmod', DATE);
const CHANGEFREQ = el(S, 'changefreq', simple(oneOf(CHANGEFREQS), `one of ${CHANGEFREQS.join(', ')}`));
const PRIORITY = el(S, 'priority', simple(decimalIn(0, 1), 'a decimal from 0.0 to 1.0'));

const URL = el(S, 'url', { sequence: [one(LOC), optional(LASTMOD), optional(CHANGEFREQ), optional(PRIORITY), OTHER] });
export const URLSET = el(S, 'urlset', { sequence: [OTHER, { element: URL, min: 1, max: UNBOUNDED }] });

const SITEMAP = el(S, 'sitemap', { sequence: [one(LOC), optional(LASTMOD), OTHER] });
export const SITEMAPINDEX = el(S, 'sitemapindex', { sequence: [OTHER, { element: SITEMAP, min: 1, max: UNBOUNDED }] });

// ---- sitemap-image.xsd ----------------------------------------------------------------------------

const I = NS.image;
const IMAGE = el(I, 'image', {
  sequence: [one(el(I, 'loc', URI)), optional(el(I, 'caption', STRING)), optional(el(I, 'geo_location', STRING)), optional(el(I, 'title', STRING)), optional(el(I, 'license', URI))],
});

// ---- sitemap-video.xsd ----------------------------------------------------------------------------

const V = NS.video;
const TVSHOW = el(V, 'tvshow', {
  sequence: [
    one(el(V, 'show_title', STRING)),
    one(el(V, 'video_type', simple(oneOf(['full', 'preview', 'clip', 'interview', 'news', 'other']), 'one of full, preview, clip, interview, news, other'))),
    optional(el(V, 'episode_title', STRING)),
    optional(el(V, 'season_number', simple(integerIn(1, Number.MAX_SAFE_INTEGER), 'an integer of at least 1'))),
    optional(el(V, 'episode_number', simple(integerIn(1, Number.MAX_SAFE_INTEGER), 'an integer of at least 1'))),
    optional(el(V, 'premier_date', DATE)),
  ],
});
const VIDEO = el(V, 'video', {
  sequence: [
    one(el(V, 'thumbnail_loc', URI)),
    one(el(V, 'title', simple(maxLength(100), 'text of at most 100 characters'))),
    one(el(V, 'description', simple(maxLength(2048), 'text of at most 2,048 characters'))),
    optional(el(V, 'content_loc', URI)),
    optional(el(V, 'player_loc', simple(anyUri, 'a URI', { allow_embed: attr(YES_NO), autoplay: attr(anyString) }))),
    optional(el(V, 'duration', simple(integerIn(0, 28800), 'whole seconds from 0 to 28,800'))),
    optional(el(V, 'expiration_date', DATE)),
    optional(el(V, 'rating', simple(decimalIn(0, 5), 'a decimal from 0.0 to 5.0'))),
    optional(el(V, 'content_segment_loc', simple(anyUri, 'a URI', { duration: attr(integerIn(0, 28800)) })), UNBOUNDED),
    optional(el(V, 'view_count', simple(integerIn(0, Number.MAX_SAFE_INTEGER), 'a whole number'))),
    optional(el(V, 'publication_date', DATE)),
    optional(el(V, 'tag', STRING), 32),
    optional(el(V, 'category', simple(maxLength(256), 'text of at most 256 characters'))),
    optional(el(V, 'family_friendly', simple(YES_NO, 'yes or no'))),
    optional(el(V, 'restriction', simple(matching('([A-Z]{2}( +[A-Z]{2})*)?', 'a list of ISO 3166 country codes'), 'country codes', { relationship: attr(ALLOW_DENY, true) }))),
    optional(el(V, 'gallery_loc', simple(anyUri, 'a URI', { title: attr(anyString) }))),
    optional(el(V, 'price', simple(anyString, 'text', {
      currency: attr(matching('[A-Z]{3}', 'an ISO 4217 currency code')),
      type: attr(oneOf(['purchase', 'PURCHASE', 'rent', 'RENT'])),
      resolution: attr(oneOf(['sd', 'SD', 'hd', 'HD'])),
    })), UNBOUNDED),
    optional(el(V, 'requires_subscription', simple(YES_NO, 'yes or no'))),
    optional(el(V, 'uploader', simple(anyString, 'text', { info: attr(anyUri) }))),
    optional(TVSHOW),
    optional(el(V, 'platform', simple(matching('((web|mobile|tv)( (web|mobile|tv))*)?', 'a list of web, mobile, tv'), 'platforms', { relationship: attr(ALLOW_DENY, true) }))),
    optional(el(V, 'live', simple(YES_NO, 'yes or no'))),
    optional(el(V, 'id', simple(anyString, 'text', { type: attr(oneOf(['tms:series', 'tms:program', 'rovi:series', 'rovi:program', 'freebase', 'url']), true) })), UNBOUNDED),
  ],
});

// ---- sitemap-news.xsd -----------------------------------------------------------------------------

const N = NS.news;
const GENRE = '(PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated)';
const NEWS = el(N, 'news', {
  sequence: [
    one(el(N, 'publication', {
      sequence: [one(el(N, 'name', STRING)), one(el(N, 'language', simple(matching('zh-cn|zh-tw|([a-z]{2,3})', 'an ISO 639 language code (or zh-cn, zh-tw)'), 'a language code')))],
    })),
    optional(el(N, 'access', simple(oneOf(['Subscription', 'Registration']), 'Subscription or Registration'))),
    optional(el(N, 'genres', simple(matching(`${GENRE}(, *${GENRE})*`, 'a comma-separated list of PressRelease, Satire, Blog, OpEd, Opinion, UserGenerated'), 'genres'))),
    one(el(N, 'publication_date', DATE)),
    one(el(N, 'title', STRING)),
    optional(el(N, 'keywords', STRING)),
    optional(el(N, 'stock_tickers', simple(matching('(\\w+:\\w+(, *\\w+:\\w+){0,4})?', 'up to 5 tickers such as NASDAQ:AMAT'), 'tickers'))),
  ],
});

// ---- xhtml:link (hreflang alternates) -------------------------------------------------------------

const LINK = el(NS.xhtml, 'link', {
  sequence: [],
  attributes: { rel: attr(anyString, true), hreflang: attr(anyString), href: attr(anyUri, true), media: attr(anyString), type: attr(anyString) },
});

/** Global element declarations: the roots, and what the strict ##other wildcards can find. */
export const GLOBAL_ELEMENTS: readonly ElementDecl[] = [URLSET, SITEMAPINDEX, IMAGE, VIDEO, NEWS, LINK];

/** The namespaces the loaded schemas declare (a wildcard element in another one has no declaration). */
export const SCHEMA_NAMESPACES: ReadonlySet<string> = new Set([S, I, V, N, NS.xhtml]);

export function globalElement(ns: string, name: string): ElementDecl | undefined {
  return GLOBAL_ELEMENTS.find((e) => e.ns === ns && e.name === name);
}
