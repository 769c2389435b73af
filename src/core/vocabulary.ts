// The vocabulary of sitemaps, declared once: the content models of sitemap.xsd, siteindex.xsd, Google's
// image, video and news schemas and xhtml:link (schemas/), each element and attribute with the model
// property it fills. `other` is the strict ##other wildcard. The structure checks, the JSON Lines input,
// the reader's extensions and the writer's enumerations and bounds all come from here.

import { CHANGEFREQS, NS, type Changefreq, type VideoEntry } from './model.js';
import { comparableUrl, MAX_URL_LENGTH, MIN_URL_LENGTH } from './url.js';
import { formatCount } from './count-text.js';
import {
  anyString, anyUri, both, collapsedLengthIn, dateOrDateTime, decimalIn, integerIn, matching, maxLength, oneOf, XSD_BUILTIN_BASES, XSD_NAMESPACE, type SimpleTypeCheck,
} from './validate/xsd-types.js';

/** How a value is held in the model; `numeric`: a number or its decimal text (priority, price). */
export type ModelValue = 'string' | 'integer' | 'decimal' | 'numeric' | 'date' | 'commaList' | 'spaceList';

/** What the reader and the writer check of a value beyond its simple type (`check`, the schema's). */
export interface ValueFacets {
  /** The closed set it is one of (each item, for a list), as the schema writes it. */
  readonly values?: readonly string[];
  /** The bounds of a number (the writer's FIELD/out-of-range). */
  readonly range?: readonly [min: number, max: number];
  /** At most this many characters, as JavaScript counts them (the writer's FIELD/too-long). */
  readonly maxLength?: number;
  /** At most this many items of a list (the writer's FIELD/too-many). */
  readonly maxItems?: number;
}

export interface AttributeDecl extends ValueFacets {
  readonly required: boolean;
  readonly check: SimpleTypeCheck;
  /** The model property it fills (absent: not in the model, as xhtml:link's rel). */
  readonly prop?: string;
  readonly as?: ModelValue;
  /** The model requires it though the schema does not (a price's currency, an alternate's hreflang). */
  readonly modelRequired?: true;
  /** A value to suggest where it is missing (else the first of `values`). */
  readonly example?: string;
}

export interface ElementDecl {
  readonly ns: string;
  readonly name: string;
  readonly type: TypeDecl;
  /**
   * The property of its parent's model object it fills, with its text (`as`) or an object of its own;
   * its attributes fill that object's, or siblings (player_loc@allow_embed → playerLocAllowEmbed).
   */
  readonly prop?: string;
  readonly as?: ModelValue;
  /** Text content held in an object of its own, under this property (video:price → { value, currency }). */
  readonly textProp?: string;
}

/** One place in a sequence: an element or the ##other wildcard, with its occurrence bounds. */
export interface Particle {
  readonly element?: ElementDecl;
  readonly other?: true;
  readonly min: number;
  readonly max: number;
}

/** Element-only content (a sequence), or simple content (text); both may have attributes. */
export interface TypeDecl extends ValueFacets {
  readonly sequence?: readonly Particle[];
  readonly text?: SimpleTypeCheck;
  /** What the text must be, for messages ("an xsd:date or xsd:dateTime"). */
  readonly textWhat?: string;
  readonly attributes?: Readonly<Record<string, AttributeDecl>>;
  /** Its name, `{namespace}local`, where the schema names it: what an xsi:type can name. */
  readonly name?: string;
  /** The name of the type it is derived from (tPriority: xsd:decimal). */
  readonly base?: string;
}

const UNBOUNDED = Number.POSITIVE_INFINITY;

// ---- the protocol's values and bounds ---------------------------------------------------------------

const CHANGEFREQ_SET: ReadonlySet<string> = new Set(CHANGEFREQS);

/** One of the seven changefreq values (model.ts CHANGEFREQS), as written: they are lower case. */
export function isChangefreq(value: string): value is Changefreq {
  return CHANGEFREQ_SET.has(value);
}

/** The enumerations as the schemas write them (tYesNo takes yes, Yes, YES…); the model holds the lower-case form. */
export const YES_NO = ['yes', 'Yes', 'YES', 'no', 'No', 'NO'] as const;
export const RELATIONSHIPS = ['allow', 'deny'] as const;
export const PLATFORMS = ['web', 'mobile', 'tv'] as const;
export const PRICE_TYPES = ['purchase', 'PURCHASE', 'rent', 'RENT'] as const;
export const RESOLUTIONS = ['sd', 'SD', 'hd', 'HD'] as const;
export const TV_VIDEO_TYPES = ['full', 'preview', 'clip', 'interview', 'news', 'other'] as const;
export const VIDEO_ID_TYPES = ['tms:series', 'tms:program', 'rovi:series', 'rovi:program', 'freebase', 'url'] as const;
export const NEWS_ACCESS = ['Subscription', 'Registration'] as const;
const NEWS_GENRES = ['PressRelease', 'Satire', 'Blog', 'OpEd', 'Opinion', 'UserGenerated'] as const;

/** The length and count bounds of sitemap-video.xsd and sitemap-news.xsd. */
const BOUNDS = {
  videoTitle: 100,
  videoDescription: 2048,
  videoCategory: 256,
  videoTags: 32,
  /** Seconds. */
  videoDuration: 28_800,
  stockTickers: 5,
} as const;

// ---- building blocks ------------------------------------------------------------------------------

type Fill = Pick<ElementDecl, 'prop' | 'as' | 'textProp'>;

const simple = (text: SimpleTypeCheck, textWhat: string, attributes?: Record<string, AttributeDecl>): TypeDecl =>
  attributes === undefined ? { text, textWhat } : { text, textWhat, attributes };
const el = (ns: string, name: string, type: TypeDecl, fill: Fill = {}): ElementDecl => ({ ns, name, type, ...fill });
const one = (element: ElementDecl): Particle => ({ element, min: 1, max: 1 });
const optional = (element: ElementDecl, max = 1): Particle => ({ element, min: 0, max });
const OTHER: Particle = { other: true, min: 0, max: UNBOUNDED };
const attr = (check: SimpleTypeCheck, required = false, prop?: string): AttributeDecl =>
  (prop === undefined ? { required, check } : { required, check, prop, as: 'string' });
const enumerated = (values: readonly string[], required: boolean, prop: string): AttributeDecl => ({ ...attr(oneOf(values), required, prop), values });
const enumeration = (values: readonly string[], what = `one of ${values.join(', ')}`): TypeDecl => ({ ...simple(oneOf(values), what), values });
const text = (prop: string, as: ModelValue = 'string'): Fill => ({ prop, as });
const atMost = (n: number): TypeDecl => ({ ...simple(maxLength(n), `text of at most ${formatCount(n)} characters`), maxLength: n });
const integer = (min: number, max: number, what: string): TypeDecl => ({ ...simple(integerIn(min, max), what), range: [min, max] });
const decimal = (min: number, max: number, what: string): TypeDecl => ({ ...simple(decimalIn(min, max), what), range: [min, max] });
/** An integer of at least `min`, unbounded in the schema; the model's (the writer's) stop at MAX_SAFE_INTEGER. */
const atLeast = (min: number, what: string): TypeDecl => ({ ...simple(integerIn(min, Number.POSITIVE_INFINITY), what), range: [min, Number.MAX_SAFE_INTEGER] });
/** The `{namespace}local` name of a type, as TypeDecl.name and xsi:type resolution write it. */
export const typeName = (ns: string, local: string): string => `{${ns}}${local}`;
const xsd = (local: string): string => typeName(XSD_NAMESPACE, local);
/** A type the schema names, `local` in `ns`, derived from `base`. */
const named = (ns: string, local: string, base: string, type: TypeDecl): TypeDecl => ({ ...type, name: typeName(ns, local), base });
/** XSD's built-in type `local`, where an element has it. */
const builtin = (local: string, type: TypeDecl): TypeDecl => named(XSD_NAMESPACE, local, xsd(XSD_BUILTIN_BASES[local] as string), type);

const URI = builtin('anyURI', simple(anyUri, 'a URI'));
const STRING = builtin('string', simple(anyString, 'text'));
const DATE = simple(dateOrDateTime, 'an xsd:date or xsd:dateTime');
const YES_OR_NO = named(NS.video, 'tYesNo', xsd('string'), enumeration(YES_NO, 'yes or no'));
const COUNT = atLeast(1, 'an integer of at least 1');
const DURATION = integer(0, BOUNDS.videoDuration, `whole seconds from 0 to ${formatCount(BOUNDS.videoDuration)}`);

// ---- sitemap.xsd and siteindex.xsd ------------------------------------------------------------------

const S = NS.sitemap;
// sitemap.xsd's tLoc: minLength 12, maxLength 2048 (one more than the protocol's "less than 2,048");
// siteindex.xsd has the same types under other names (tLocSitemap, tLastmodSitemap).
const LOC_TYPE = simple(both(anyUri, collapsedLengthIn(MIN_URL_LENGTH, MAX_URL_LENGTH + 1)), 'a URI of 12 to 2,048 characters');
// A union (of xsd:date and xsd:dateTime) is derived from anySimpleType.
const LASTMOD_BASE = xsd('anySimpleType');
const LOC = el(S, 'loc', named(S, 'tLoc', xsd('anyURI'), LOC_TYPE), text('loc'));
const LASTMOD = el(S, 'lastmod', named(S, 'tLastmod', LASTMOD_BASE, DATE), text('lastmod', 'date'));
const CHANGEFREQ = el(S, 'changefreq', named(S, 'tChangeFreq', xsd('string'), enumeration(CHANGEFREQS)), text('changefreq'));
const PRIORITY = el(S, 'priority', named(S, 'tPriority', xsd('decimal'), decimal(0, 1, 'a decimal from 0.0 to 1.0')), text('priority', 'numeric'));

export const URL_ELEMENT = el(S, 'url', named(S, 'tUrl', xsd('anyType'), { sequence: [one(LOC), optional(LASTMOD), optional(CHANGEFREQ), optional(PRIORITY), OTHER] }));
export const URLSET = el(S, 'urlset', { sequence: [OTHER, { element: URL_ELEMENT, min: 1, max: UNBOUNDED }] });

const SITEMAP = el(S, 'sitemap', named(S, 'tSitemap', xsd('anyType'), {
  sequence: [one({ ...LOC, type: named(S, 'tLocSitemap', xsd('anyURI'), LOC_TYPE) }), optional({ ...LASTMOD, type: named(S, 'tLastmodSitemap', LASTMOD_BASE, DATE) }), OTHER],
}));
export const SITEMAPINDEX = el(S, 'sitemapindex', { sequence: [OTHER, { element: SITEMAP, min: 1, max: UNBOUNDED }] });

// ---- sitemap-image.xsd ----------------------------------------------------------------------------

const I = NS.image;
export const IMAGE = el(I, 'image', {
  sequence: [
    one(el(I, 'loc', URI, text('loc'))),
    optional(el(I, 'caption', STRING, text('caption'))),
    optional(el(I, 'geo_location', STRING, text('geoLocation'))),
    optional(el(I, 'title', STRING, text('title'))),
    optional(el(I, 'license', URI, text('license'))),
  ],
}, { prop: 'images' });

// ---- sitemap-video.xsd ----------------------------------------------------------------------------

const V = NS.video;
// tCountryList and tPlatformList, which the types of video:restriction and video:platform extend with an attribute.
const COUNTRIES = matching('([A-Z]{2}( +[A-Z]{2})*)?', 'a list of ISO 3166 country codes');
const PLATFORM_NAMES = matching(`((${PLATFORMS.join('|')})( (${PLATFORMS.join('|')}))*)?`, `a list of ${PLATFORMS.join(', ')}`);
const COUNTRY_LIST = named(V, 'tCountryList', xsd('string'), simple(COUNTRIES, 'country codes'));
const PLATFORM_LIST = named(V, 'tPlatformList', xsd('string'), simple(PLATFORM_NAMES, 'platforms'));
const TVSHOW = el(V, 'tvshow', {
  sequence: [
    one(el(V, 'show_title', STRING, text('showTitle'))),
    one(el(V, 'video_type', enumeration(TV_VIDEO_TYPES), text('videoType'))),
    optional(el(V, 'episode_title', STRING, text('episodeTitle'))),
    optional(el(V, 'season_number', COUNT, text('seasonNumber', 'integer'))),
    optional(el(V, 'episode_number', COUNT, text('episodeNumber', 'integer'))),
    optional(el(V, 'premier_date', DATE, text('premierDate', 'date'))),
  ],
}, { prop: 'tvshow' });
export const VIDEO = el(V, 'video', {
  sequence: [
    one(el(V, 'thumbnail_loc', URI, text('thumbnailLoc'))),
    one(el(V, 'title', atMost(BOUNDS.videoTitle), text('title'))),
    one(el(V, 'description', atMost(BOUNDS.videoDescription), text('description'))),
    optional(el(V, 'content_loc', URI, text('contentLoc'))),
    optional(el(V, 'player_loc', simple(anyUri, 'a URI', {
      allow_embed: enumerated(YES_NO, false, 'playerLocAllowEmbed'), autoplay: attr(anyString, false, 'playerLocAutoplay'),
    }), text('playerLoc'))),
    optional(el(V, 'duration', DURATION, text('duration', 'integer'))),
    optional(el(V, 'expiration_date', DATE, text('expirationDate', 'date'))),
    optional(el(V, 'rating', decimal(0, 5, 'a decimal from 0.0 to 5.0'), text('rating', 'decimal'))),
    optional(el(V, 'content_segment_loc', simple(anyUri, 'a URI', { duration: { required: false, check: integerIn(0, BOUNDS.videoDuration), range: [0, BOUNDS.videoDuration], prop: 'duration', as: 'integer' } }),
      { prop: 'contentSegmentLocs', textProp: 'loc', as: 'string' }), UNBOUNDED),
    optional(el(V, 'view_count', builtin('nonNegativeInteger', atLeast(0, 'a whole number, 0 or more')), text('viewCount', 'integer'))),
    optional(el(V, 'publication_date', DATE, text('publicationDate', 'date'))),
    optional(el(V, 'tag', STRING, text('tags')), BOUNDS.videoTags),
    optional(el(V, 'category', atMost(BOUNDS.videoCategory), text('category'))),
    optional(el(V, 'family_friendly', YES_OR_NO, text('familyFriendly'))),
    optional(el(V, 'restriction', simple(COUNTRIES, 'country codes', {
      relationship: enumerated(RELATIONSHIPS, true, 'relationship'),
    }), { prop: 'restriction', textProp: 'countries', as: 'spaceList' })),
    optional(el(V, 'gallery_loc', simple(anyUri, 'a URI', { title: attr(anyString, false, 'galleryLocTitle') }), text('galleryLoc'))),
    // xsd:string in the schema; the writer takes a decimal number.
    optional(el(V, 'price', { ...simple(anyString, 'text', {
      currency: { ...attr(matching('[A-Z]{3}', 'an ISO 4217 currency code'), false, 'currency'), modelRequired: true, example: 'USD' },
      type: enumerated(PRICE_TYPES, false, 'type'),
      resolution: enumerated(RESOLUTIONS, false, 'resolution'),
    }), range: [0, Number.MAX_SAFE_INTEGER] }, { prop: 'prices', textProp: 'value', as: 'numeric' }), UNBOUNDED),
    optional(el(V, 'requires_subscription', YES_OR_NO, text('requiresSubscription'))),
    // Google's video sitemap documentation: at most 255 characters (the schema says xsd:string).
    optional(el(V, 'uploader', { ...simple(anyString, 'text', { info: attr(anyUri, false, 'uploaderInfo') }), maxLength: 255 }, text('uploader'))),
    optional(TVSHOW),
    optional(el(V, 'platform', {
      ...simple(PLATFORM_NAMES, 'platforms', { relationship: enumerated(RELATIONSHIPS, true, 'relationship') }),
      values: PLATFORMS,
    }, { prop: 'platform', textProp: 'platforms', as: 'spaceList' })),
    optional(el(V, 'live', YES_OR_NO, text('live'))),
    optional(el(V, 'id', simple(anyString, 'text', { type: { ...enumerated(VIDEO_ID_TYPES, true, 'type'), example: 'url' } }), { prop: 'ids', textProp: 'value', as: 'string' }), UNBOUNDED),
  ],
}, { prop: 'videos' });

/** Google's video rules beyond the schema (video/no-content, video/same-as-loc), for the writer and validate. */
export function videoContentProblems(video: VideoEntry, loc: string): { code: 'video/no-content' | 'video/same-as-loc'; field: string; url?: string }[] {
  if (!video.contentLoc && !video.playerLoc) return [{ code: 'video/no-content', field: 'video:video' }];
  const page = comparableUrl(loc);
  const same = [['video:content_loc', video.contentLoc], ['video:player_loc', video.playerLoc]] as const;
  return same.filter(([, url]) => url && comparableUrl(url) === page).map(([field, url]) => ({ code: 'video/same-as-loc', field, url: url as string }));
}

// ---- sitemap-news.xsd -----------------------------------------------------------------------------

const N = NS.news;
const GENRE = `(${NEWS_GENRES.join('|')})`;
export const NEWS = el(N, 'news', {
  sequence: [
    one(el(N, 'publication', {
      sequence: [
        one(el(N, 'name', STRING, text('name'))),
        one(el(N, 'language', simple(matching('zh-cn|zh-tw|([a-z]{2,3})', 'an ISO 639 language code (or zh-cn, zh-tw)'), 'a language code'), text('language'))),
      ],
    }, { prop: 'publication' })),
    optional(el(N, 'access', enumeration(NEWS_ACCESS, NEWS_ACCESS.join(' or ')), text('access'))),
    optional(el(N, 'genres', simple(matching(`${GENRE}(, *${GENRE})*`, `a comma-separated list of ${NEWS_GENRES.join(', ')}`), 'genres'), text('genres', 'commaList'))),
    one(el(N, 'publication_date', DATE, text('publicationDate', 'date'))),
    one(el(N, 'title', STRING, text('title'))),
    optional(el(N, 'keywords', STRING, text('keywords', 'commaList'))),
    optional(el(N, 'stock_tickers', {
      ...simple(matching(`(\\w+:\\w+(, *\\w+:\\w+){0,${BOUNDS.stockTickers - 1}})?`, `up to ${BOUNDS.stockTickers} tickers such as NASDAQ:AMAT`), 'tickers'),
      maxItems: BOUNDS.stockTickers,
    }, text('stockTickers', 'commaList'))),
  ],
}, { prop: 'news' });

// ---- xhtml:link (hreflang alternates) -------------------------------------------------------------

export const LINK = el(NS.xhtml, 'link', {
  sequence: [],
  attributes: {
    rel: attr(anyString, true),
    hreflang: { ...attr(anyString, false, 'hreflang'), modelRequired: true },
    href: attr(anyUri, true, 'href'),
    media: attr(anyString),
    type: attr(anyString),
  },
}, { prop: 'alternates' });

/** What a `<url>`'s ##other wildcard holds in the model, in the order the writer writes them. */
export const URL_EXTENSIONS: readonly Particle[] = [optional(NEWS), optional(IMAGE, UNBOUNDED), optional(VIDEO, UNBOUNDED), optional(LINK, UNBOUNDED)];

/** Global element declarations: the roots, and what the strict ##other wildcards can find. */
export const GLOBAL_ELEMENTS: readonly ElementDecl[] = [URLSET, SITEMAPINDEX, IMAGE, VIDEO, NEWS, LINK];

/** The namespaces the loaded schemas declare (a wildcard element in another one has no declaration). */
export const SCHEMA_NAMESPACES: ReadonlySet<string> = new Set([S, I, V, N, NS.xhtml]);

export function globalElement(ns: string, name: string): ElementDecl | undefined {
  return GLOBAL_ELEMENTS.find((e) => e.ns === ns && e.name === name);
}

const PREFIXES: ReadonlyMap<string, string> = new Map(Object.entries(NS).filter(([prefix]) => prefix !== 'sitemap').map(([prefix, uri]) => [uri, prefix]));

/** The prefix an extension namespace is written with: its name in model.ts NS (`video`). */
export function prefixOf(ns: string): string | undefined {
  return PREFIXES.get(ns);
}

/** Every element declared under `root` (itself included), depth first in document order. */
export function elementsOf(root: ElementDecl): ElementDecl[] {
  const out = [root];
  for (const p of root.type.sequence ?? []) if (p.element !== undefined) out.push(...elementsOf(p.element));
  return out;
}

/** The named types of the schemas that declare `roots`, by name, with `more` that no element has (bases only). */
function namedTypes(roots: readonly ElementDecl[], more: readonly TypeDecl[]): ReadonlyMap<string, TypeDecl> {
  const types = new Map<string, TypeDecl>();
  for (const type of [...roots.flatMap(elementsOf).map((e) => e.type), ...more]) if (type.name !== undefined) types.set(type.name, type);
  return types;
}

/** What an xsi:type can name besides XSD's built-ins: the named types of all.xsd, or all-index.xsd for an index. */
export const SCHEMA_TYPES: ReadonlyMap<ElementDecl, ReadonlyMap<string, TypeDecl>> = new Map([URLSET, SITEMAPINDEX].map((root) => [root, namedTypes([root, IMAGE, VIDEO, NEWS, LINK], [COUNTRY_LIST, PLATFORM_LIST])]));
