// One `<url>` element: validates every value of a UrlEntry and serialises it in the element order of
// sitemap.xsd and Google's extension schemas (vocabulary.ts; test/core/vocabulary.test.ts holds the
// two equal). Invalid values are refused with the value named, never silently replaced.

import { CHANGEFREQS, NS, isChangefreq, type Changefreq, type DateInput, type ImageEntry, type Limits, type NewsEntry, type UrlEntry, type VideoEntry } from '../model.js';
import { InvalidValueError, quoteValue } from '../errors.js';
import { escapeXml, escapeXmlAttribute, indexOfNonXmlChar } from '../xml/escape.js';
import { normalizeUrl, scopeViolation, type UrlScope } from '../url.js';
import { toSitemapDate } from '../datetime.js';
import { BOUNDS, NEWS_ACCESS, NEWS_GENRES, PLATFORMS, PRICE_TYPES, RELATIONSHIPS, RESOLUTIONS, TV_VIDEO_TYPES, VIDEO_ID_TYPES } from '../vocabulary.js';

/** Bit flags of the extension namespaces a piece of XML uses. */
export const NS_IMAGE = 1;
export const NS_VIDEO = 2;
export const NS_NEWS = 4;
export const NS_XHTML = 8;
export const ALL_EXTENSIONS = NS_IMAGE | NS_VIDEO | NS_NEWS | NS_XHTML;

const NS_PREFIXES: readonly [number, string, string][] = [
  [NS_IMAGE, 'image', NS.image],
  [NS_VIDEO, 'video', NS.video],
  [NS_NEWS, 'news', NS.news],
  [NS_XHTML, 'xhtml', NS.xhtml],
];

/** `xmlns:p="..."` declarations (each with a leading space) for the namespaces in `mask`. */
export function namespaceDeclarations(mask: number): string {
  let out = '';
  for (const [bit, prefix, uri] of NS_PREFIXES) if ((mask & bit) !== 0) out += ` xmlns:${prefix}="${uri}"`;
  return out;
}

// xsd:decimal lexical space, without a minus sign (priority is 0.0 to 1.0).
const DECIMAL = /^\+?(?:\d+(?:\.\d*)?|\.\d+)$/;
// hreflang: x-default, or an ISO 639 language, optionally with an ISO 15924 script and an ISO 3166-1 / UN M.49 region.
const HREFLANG = /^(?:x-default|[A-Za-z]{2,3}(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|\d{3}))?)$/;
// sitemap-news.xsd: language is zh-cn, zh-tw or an ISO 639 code of two or three letters.
const NEWS_LANGUAGE = /^(?:zh-cn|zh-tw|[a-z]{2,3})$/;
const STOCK_TICKER = /^\w+:\w+$/;
const COUNTRY = /^[A-Z]{2}$/;
const CURRENCY = /^[A-Z]{3}$/;
/** The forms of an enumeration the model holds: the lower-case ones, where the schema takes other cases too. */
const lowerCase = (values: readonly string[]): readonly string[] => values.filter((v) => v === v.toLowerCase());

export interface UrlEntrySerializerOptions {
  limits: Readonly<Limits>;
  /**
   * Relative URLs are resolved against it (RFC 3986 §5.2): the page's loc and, the same way, the URLs
   * of its images, videos and alternates.
   */
  baseUrl?: string;
  /** When set, every page loc must lie inside it (sitemaps.org protocol: location). */
  scope?: UrlScope;
}

/**
 * Serialises entries one at a time. After `serialize`, the fields `loc`, `lastmodText`, `lastmodMs`,
 * `usedNamespaces` and `hasNews` describe the entry just serialised (kept as fields to avoid an
 * allocation per entry on the hot path).
 */
export class UrlEntrySerializer {
  loc = '';
  lastmodText: string | undefined;
  lastmodMs = Number.NaN;
  usedNamespaces = 0;
  hasNews = false;
  private readonly limits: Readonly<Limits>;
  private readonly baseUrl: string | undefined;
  private readonly scope: UrlScope | undefined;
  private declared = 0;

  constructor(options: UrlEntrySerializerOptions) {
    this.limits = options.limits;
    this.baseUrl = options.baseUrl;
    this.scope = options.scope;
  }

  /**
   * The `<url>...</url>` element for `entry`, ending in a newline. `declaredNamespaces` are the
   * extension namespaces declared on the root; others used here are declared on the element itself.
   * Throws InvalidValueError when a value is refused.
   */
  serialize(entry: UrlEntry, declaredNamespaces: number): string {
    if (entry === null || typeof entry !== 'object') {
      throw new InvalidValueError('entry/invalid', 'url', entry, `an entry must be an object with a loc, got ${quoteValue(entry)}`);
    }
    this.declared = declaredNamespaces;
    this.usedNamespaces = 0;
    this.hasNews = false;
    const loc = this.url(entry.loc, 'loc', true);
    this.loc = loc;
    let xml = '<url><loc>' + escapeXml(loc) + '</loc>';
    if (entry.lastmod !== undefined && entry.lastmod !== null) {
      const date = toSitemapDate(entry.lastmod, 'lastmod');
      this.lastmodText = date.text;
      this.lastmodMs = date.epochMs;
      xml += '<lastmod>' + date.text + '</lastmod>';
    } else {
      this.lastmodText = undefined;
      this.lastmodMs = Number.NaN;
    }
    if (entry.changefreq !== undefined && entry.changefreq !== null) xml += '<changefreq>' + changefreq(entry.changefreq) + '</changefreq>';
    if (entry.priority !== undefined && entry.priority !== null) xml += '<priority>' + priority(entry.priority) + '</priority>';
    if (entry.news !== undefined && entry.news !== null) {
      xml += this.news(entry.news);
      this.hasNews = true;
    }
    if (entry.images !== undefined && entry.images !== null) xml += this.images(entry.images);
    if (entry.videos !== undefined && entry.videos !== null) xml += this.videos(entry.videos);
    if (entry.alternates !== undefined && entry.alternates !== null) xml += this.alternates(entry.alternates);
    return xml + '</url>\n';
  }

  /** `page`: the URL is the page's loc, which must lie inside the scope (extension URLs may be anywhere). */
  private url(value: unknown, field: string, page: boolean): string {
    if (typeof value !== 'string') {
      throw new InvalidValueError(`${field}/invalid`, field, value, `${field} must be a string URL, got ${quoteValue(value)}`);
    }
    const url = normalizeUrl(value, field, this.baseUrl, this.limits.maxLocLength);
    if (page && this.scope !== undefined) {
      const reason = scopeViolation(url, this.scope);
      if (reason !== undefined) {
        throw new InvalidValueError('loc/out-of-scope', field, value, `${quoteValue(url)} is outside the sitemap's location ${this.scope.href}: ${reason}`);
      }
    }
    return url;
  }

  /** Extension element start: declares its namespace locally when the root does not. */
  private open(bit: number, tag: string): string {
    this.usedNamespaces |= bit;
    return (this.declared & bit) !== 0 ? '<' + tag : '<' + tag + namespaceDeclarations(bit);
  }

  private images(images: readonly ImageEntry[]): string {
    if (!Array.isArray(images)) throw new InvalidValueError('image/invalid', 'image:image', images, 'images must be an array');
    if (images.length > this.limits.maxImagesPerUrl) {
      throw new InvalidValueError('image/too-many', 'image:image', images.length, `${images.length} images in one <url>; Google accepts at most ${this.limits.maxImagesPerUrl}`);
    }
    let xml = '';
    for (const image of images) {
      xml += this.open(NS_IMAGE, 'image:image') + '><image:loc>' + escapeXml(this.url(image?.loc, 'image:loc', false)) + '</image:loc>';
      // sitemap-image.xsd order: loc, caption, geo_location, title, license
      if (image.caption != null) xml += '<image:caption>' + text(image.caption, 'image:caption') + '</image:caption>';
      if (image.geoLocation != null) xml += '<image:geo_location>' + text(image.geoLocation, 'image:geo_location') + '</image:geo_location>';
      if (image.title != null) xml += '<image:title>' + text(image.title, 'image:title') + '</image:title>';
      if (image.license != null) xml += '<image:license>' + escapeXml(this.url(image.license, 'image:license', false)) + '</image:license>';
      xml += '</image:image>';
    }
    return xml;
  }

  private videos(videos: readonly VideoEntry[]): string {
    if (!Array.isArray(videos)) throw new InvalidValueError('video/invalid', 'video:video', videos, 'videos must be an array');
    let xml = '';
    for (const video of videos) xml += this.video(video);
    return xml;
  }

  private video(v: VideoEntry): string {
    if (v === null || typeof v !== 'object') throw new InvalidValueError('video/invalid', 'video:video', v, 'a video must be an object');
    if (v.contentLoc == null && v.playerLoc == null) {
      throw new InvalidValueError('video/no-content', 'video:video', v, 'a video needs content_loc or player_loc (Google video sitemaps)');
    }
    // sitemap-video.xsd sequence order.
    let xml = this.open(NS_VIDEO, 'video:video') + '>';
    xml += '<video:thumbnail_loc>' + escapeXml(this.url(v.thumbnailLoc, 'video:thumbnail_loc', false)) + '</video:thumbnail_loc>';
    xml += '<video:title>' + text(v.title, 'video:title', BOUNDS.videoTitle) + '</video:title>';
    xml += '<video:description>' + text(v.description, 'video:description', BOUNDS.videoDescription) + '</video:description>';
    if (v.contentLoc != null) xml += '<video:content_loc>' + escapeXml(this.url(v.contentLoc, 'video:content_loc', false)) + '</video:content_loc>';
    if (v.playerLoc != null) {
      xml += '<video:player_loc';
      if (v.playerLocAllowEmbed != null) xml += ' allow_embed="' + yesNo(v.playerLocAllowEmbed, 'video:player_loc@allow_embed') + '"';
      if (v.playerLocAutoplay != null) xml += ' autoplay="' + attribute(v.playerLocAutoplay, 'video:player_loc@autoplay') + '"';
      xml += '>' + escapeXml(this.url(v.playerLoc, 'video:player_loc', false)) + '</video:player_loc>';
    }
    if (v.duration != null) xml += '<video:duration>' + integer(v.duration, 'video:duration', 0, BOUNDS.videoDuration) + '</video:duration>';
    if (v.expirationDate != null) xml += '<video:expiration_date>' + date(v.expirationDate, 'video:expiration_date') + '</video:expiration_date>';
    if (v.rating != null) xml += '<video:rating>' + decimal(v.rating, 'video:rating', 0, 5) + '</video:rating>';
    if (v.contentSegmentLocs != null) {
      for (const segment of list(v.contentSegmentLocs, 'video:content_segment_loc')) {
        xml += '<video:content_segment_loc';
        if (segment.duration != null) xml += ' duration="' + integer(segment.duration, 'video:content_segment_loc@duration', 0, BOUNDS.videoDuration) + '"';
        xml += '>' + escapeXml(this.url(segment.loc, 'video:content_segment_loc', false)) + '</video:content_segment_loc>';
      }
    }
    if (v.viewCount != null) xml += '<video:view_count>' + integer(v.viewCount, 'video:view_count', 0, Number.MAX_SAFE_INTEGER) + '</video:view_count>';
    if (v.publicationDate != null) xml += '<video:publication_date>' + date(v.publicationDate, 'video:publication_date') + '</video:publication_date>';
    if (v.tags != null) {
      const tags = list(v.tags, 'video:tag');
      if (tags.length > BOUNDS.videoTags) throw new InvalidValueError('video:tag/too-many', 'video:tag', tags.length, `${tags.length} tags; a video has at most ${BOUNDS.videoTags}`);
      for (const tag of tags) xml += '<video:tag>' + text(tag, 'video:tag') + '</video:tag>';
    }
    if (v.category != null) xml += '<video:category>' + text(v.category, 'video:category', BOUNDS.videoCategory) + '</video:category>';
    if (v.familyFriendly != null) xml += '<video:family_friendly>' + yesNo(v.familyFriendly, 'video:family_friendly') + '</video:family_friendly>';
    if (v.restriction != null) {
      const countries = list(v.restriction.countries, 'video:restriction');
      for (const country of countries) {
        if (typeof country !== 'string' || !COUNTRY.test(country)) {
          throw new InvalidValueError('video:restriction/invalid', 'video:restriction', country, `country ${quoteValue(country)} is not an ISO 3166 code of two capital letters`);
        }
      }
      xml += '<video:restriction relationship="' + relationship(v.restriction.relationship, 'video:restriction') + '">' + countries.join(' ') + '</video:restriction>';
    }
    if (v.galleryLoc != null) {
      xml += '<video:gallery_loc';
      if (v.galleryLocTitle != null) xml += ' title="' + attribute(v.galleryLocTitle, 'video:gallery_loc@title') + '"';
      xml += '>' + escapeXml(this.url(v.galleryLoc, 'video:gallery_loc', false)) + '</video:gallery_loc>';
    }
    if (v.prices != null) {
      for (const price of list(v.prices, 'video:price')) {
        if (typeof price.currency !== 'string' || !CURRENCY.test(price.currency)) {
          throw new InvalidValueError('video:price/invalid', 'video:price@currency', price.currency, `currency ${quoteValue(price.currency)} is not an ISO 4217 code of three capital letters`);
        }
        xml += '<video:price currency="' + price.currency + '"';
        if (price.type != null) xml += ' type="' + oneOf(price.type, lowerCase(PRICE_TYPES), 'video:price@type') + '"';
        if (price.resolution != null) xml += ' resolution="' + oneOf(price.resolution, lowerCase(RESOLUTIONS), 'video:price@resolution') + '"';
        xml += '>' + decimal(price.value, 'video:price', 0, Number.MAX_SAFE_INTEGER) + '</video:price>';
      }
    }
    if (v.requiresSubscription != null) xml += '<video:requires_subscription>' + yesNo(v.requiresSubscription, 'video:requires_subscription') + '</video:requires_subscription>';
    if (v.uploader != null) {
      xml += '<video:uploader';
      if (v.uploaderInfo != null) xml += ' info="' + escapeXml(this.url(v.uploaderInfo, 'video:uploader@info', false)) + '"';
      xml += '>' + text(v.uploader, 'video:uploader', 255) + '</video:uploader>';
    }
    if (v.tvshow != null) {
      const tv = v.tvshow;
      xml += '<video:tvshow><video:show_title>' + text(tv.showTitle, 'video:show_title') + '</video:show_title>';
      xml += '<video:video_type>' + oneOf(tv.videoType, TV_VIDEO_TYPES, 'video:video_type') + '</video:video_type>';
      if (tv.episodeTitle != null) xml += '<video:episode_title>' + text(tv.episodeTitle, 'video:episode_title') + '</video:episode_title>';
      if (tv.seasonNumber != null) xml += '<video:season_number>' + integer(tv.seasonNumber, 'video:season_number', 1, Number.MAX_SAFE_INTEGER) + '</video:season_number>';
      if (tv.episodeNumber != null) xml += '<video:episode_number>' + integer(tv.episodeNumber, 'video:episode_number', 1, Number.MAX_SAFE_INTEGER) + '</video:episode_number>';
      if (tv.premierDate != null) xml += '<video:premier_date>' + date(tv.premierDate, 'video:premier_date') + '</video:premier_date>';
      xml += '</video:tvshow>';
    }
    if (v.platform != null) {
      const platforms = list(v.platform.platforms, 'video:platform');
      for (const p of platforms) oneOf(p, PLATFORMS, 'video:platform');
      xml += '<video:platform relationship="' + relationship(v.platform.relationship, 'video:platform') + '">' + platforms.join(' ') + '</video:platform>';
    }
    if (v.live != null) xml += '<video:live>' + yesNo(v.live, 'video:live') + '</video:live>';
    if (v.ids != null) {
      for (const id of list(v.ids, 'video:id')) {
        if (!(VIDEO_ID_TYPES as readonly string[]).includes(id.type)) {
          throw new InvalidValueError('video:id/invalid', 'video:id@type', id.type, `video:id type ${quoteValue(id.type)} is not one of ${VIDEO_ID_TYPES.join(', ')}`);
        }
        xml += '<video:id type="' + id.type + '">' + text(id.value, 'video:id') + '</video:id>';
      }
    }
    return xml + '</video:video>';
  }

  private news(n: NewsEntry): string {
    if (typeof n !== 'object' || n.publication == null) {
      throw new InvalidValueError('news/invalid', 'news:news', n, 'news needs a publication with a name and a language');
    }
    const language = n.publication.language;
    if (typeof language !== 'string' || !NEWS_LANGUAGE.test(language)) {
      throw new InvalidValueError('news:language/invalid', 'news:language', language, `news language ${quoteValue(language)} is not an ISO 639 code (two or three lower-case letters, or zh-cn / zh-tw)`);
    }
    const name = text(n.publication.name, 'news:name');
    if (name.trim() === '') throw new InvalidValueError('news:name/empty', 'news:name', name, 'news publication name is empty');
    // sitemap-news.xsd order: publication, access, genres, publication_date, title, keywords, stock_tickers
    // (geo_locations is not in the schema: Google dropped it)
    let xml = this.open(NS_NEWS, 'news:news') + '><news:publication><news:name>' + name + '</news:name><news:language>' + language + '</news:language></news:publication>';
    if (n.access != null) xml += '<news:access>' + oneOf(n.access, NEWS_ACCESS, 'news:access') + '</news:access>';
    if (n.genres != null) {
      const genres = list(n.genres, 'news:genres');
      for (const genre of genres) {
        if (!(NEWS_GENRES as readonly string[]).includes(genre)) {
          throw new InvalidValueError('news:genres/invalid', 'news:genres', genre, `news genre ${quoteValue(genre)} is not one of ${NEWS_GENRES.join(', ')}`);
        }
      }
      xml += '<news:genres>' + genres.join(', ') + '</news:genres>';
    }
    xml += '<news:publication_date>' + date(n.publicationDate, 'news:publication_date') + '</news:publication_date>';
    xml += '<news:title>' + text(n.title, 'news:title') + '</news:title>';
    if (n.keywords != null) xml += '<news:keywords>' + list(n.keywords, 'news:keywords').map((k) => text(k, 'news:keywords')).join(', ') + '</news:keywords>';
    if (n.stockTickers != null) {
      const tickers = list(n.stockTickers, 'news:stock_tickers');
      if (tickers.length > BOUNDS.stockTickers) throw new InvalidValueError('news:stock_tickers/too-many', 'news:stock_tickers', tickers.length, `${tickers.length} stock tickers; at most ${BOUNDS.stockTickers}`);
      for (const t of tickers) {
        if (typeof t !== 'string' || !STOCK_TICKER.test(t)) {
          throw new InvalidValueError('news:stock_tickers/invalid', 'news:stock_tickers', t, `stock ticker ${quoteValue(t)} is not of the form EXCHANGE:SYMBOL`);
        }
      }
      xml += '<news:stock_tickers>' + tickers.join(', ') + '</news:stock_tickers>';
    }
    return xml + '</news:news>';
  }

  private alternates(links: readonly { hreflang: string; href: string }[]): string {
    let xml = '';
    for (const link of list(links, 'xhtml:link')) {
      if (link === null || typeof link !== 'object' || typeof link.hreflang !== 'string' || !HREFLANG.test(link.hreflang)) {
        throw new InvalidValueError('hreflang/invalid', 'xhtml:link@hreflang', link?.hreflang, `hreflang ${quoteValue(link?.hreflang)} is not a language code such as "en", "en-GB" or "x-default"`);
      }
      xml += this.open(NS_XHTML, 'xhtml:link') + ' rel="alternate" hreflang="' + link.hreflang + '" href="' + escapeXml(this.url(link.href, 'xhtml:link@href', false)) + '"/>';
    }
    return xml;
  }
}

function list<T>(value: readonly T[] | undefined, field: string): readonly T[] {
  if (!Array.isArray(value)) throw new InvalidValueError(`${field}/invalid`, field, value, `${field} must be a list, got ${quoteValue(value)}`);
  return value;
}

/** A text value: checked for characters XML cannot carry and for length, then escaped. */
function text(value: unknown, field: string, maxLength?: number): string {
  return escapeXml(unescapedText(value, field, maxLength));
}

function unescapedText(value: unknown, field: string, maxLength?: number): string {
  if (typeof value !== 'string') throw new InvalidValueError(`${field}/invalid`, field, value, `${field} must be text, got ${quoteValue(value)}`);
  const bad = indexOfNonXmlChar(value);
  if (bad >= 0) {
    const code = value.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0');
    throw new InvalidValueError(`${field}/invalid-char`, field, value, `${field} ${quoteValue(value)} contains U+${code}, which XML 1.0 cannot carry`);
  }
  if (maxLength !== undefined && value.length > maxLength) {
    throw new InvalidValueError(`${field}/too-long`, field, value, `${field} has ${value.length} characters; at most ${maxLength}`);
  }
  return value;
}

/** An attribute value: checked like text, escaped so that tab, LF and CR survive attribute-value normalisation. */
function attribute(value: unknown, field: string): string {
  return escapeXmlAttribute(unescapedText(value, field));
}

function changefreq(value: unknown): Changefreq {
  if (typeof value === 'string' && isChangefreq(value)) return value;
  const hint = typeof value === 'string' && isChangefreq(value.trim().toLowerCase()) ? ` (write it as "${value.trim().toLowerCase()}")` : '';
  throw new InvalidValueError('changefreq/invalid', 'changefreq', value, `changefreq ${quoteValue(value)} is not one of ${CHANGEFREQS.join(', ')}${hint}`);
}

const PRIORITY_TENTHS = Array.from({ length: 11 }, (_, i) => (i === 10 ? '1.0' : `0.${i}`));

// sitemaps.org protocol: priority is 0.0 to 1.0.
function priority(value: unknown): string {
  // Most priorities are whole tenths: a table lookup instead of number formatting.
  if (typeof value === 'number') {
    const tenths = value * 10;
    if (tenths >= 0 && tenths <= 10 && tenths === Math.round(tenths) && Math.round(tenths) / 10 === value) return PRIORITY_TENTHS[tenths] as string;
  }
  return decimal(value, 'priority', 0, 1);
}

function decimal(value: unknown, field: string, min: number, max: number): string {
  let textValue: string;
  let n: number;
  if (typeof value === 'number') {
    n = value;
    textValue = Number.isInteger(n) ? n + '.0' : String(n);
    if (textValue.includes('e')) textValue = n.toFixed(20).replace(/0+$/, '');
  } else if (typeof value === 'string' && DECIMAL.test(value.trim())) {
    textValue = value.trim();
    n = Number(textValue);
  } else {
    throw new InvalidValueError(`${field}/invalid`, field, value, `${field} ${quoteValue(value)} is not a decimal number`);
  }
  if (!(n >= min && n <= max)) {
    throw new InvalidValueError(`${field}/out-of-range`, field, value, `${field} ${quoteValue(value)} is outside ${min.toFixed(1)}–${max === Number.MAX_SAFE_INTEGER ? 'any' : max.toFixed(1)}`);
  }
  return textValue;
}

function integer(value: unknown, field: string, min: number, max: number): string {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new InvalidValueError(`${field}/invalid`, field, value, `${field} ${quoteValue(value)} is not a whole number`);
  }
  if (n < min || n > max) {
    throw new InvalidValueError(`${field}/out-of-range`, field, value, `${field} ${quoteValue(value)} is outside ${min}–${max}`);
  }
  return String(n);
}

function yesNo(value: unknown, field: string): string {
  if (value === true || value === 'yes') return 'yes';
  if (value === false || value === 'no') return 'no';
  throw new InvalidValueError(`${field}/invalid`, field, value, `${field} ${quoteValue(value)} must be "yes" or "no"`);
}

function relationship(value: unknown, field: string): string {
  return oneOf(value, RELATIONSHIPS, `${field}@relationship`);
}

function oneOf(value: unknown, allowed: readonly string[], field: string): string {
  if (typeof value === 'string' && allowed.includes(value)) return value;
  throw new InvalidValueError(`${field}/invalid`, field, value, `${field} ${quoteValue(value)} is not one of ${allowed.join(', ')}`);
}

function date(value: DateInput, field: string): string {
  return toSitemapDate(value, field).text;
}
