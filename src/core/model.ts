// The one entry model shared by the writer, the reader and the validator (DESIGN.md "What flows").
// Field names follow the XML element names of sitemaps.org 0.9 and Google's extensions, in camelCase.

import { MAX_URL_LENGTH } from './url.js';
import type { NEWS_ACCESS, PLATFORMS, PRICE_TYPES, RELATIONSHIPS, RESOLUTIONS, TV_VIDEO_TYPES, VIDEO_ID_TYPES, YES_NO } from './vocabulary.js';

/** A `<url>` of a urlset. */
export interface UrlEntry {
  /** Absolute http(s) URL of the page. sitemaps.org protocol: `<loc>`, required, < 2,048 characters. */
  loc: string;
  /** When the page last changed. A `Date`, epoch milliseconds or a W3C Datetime string. */
  lastmod?: DateInput;
  changefreq?: Changefreq;
  /** 0.0 to 1.0. A string is accepted as written ("0.8"). */
  priority?: number | string;
  images?: ImageEntry[];
  videos?: VideoEntry[];
  news?: NewsEntry;
  /** hreflang alternates: `<xhtml:link rel="alternate" hreflang href>`; Google wants the page itself listed too. */
  alternates?: AlternateLink[];
}

/** A `<sitemap>` of a sitemap index. */
export interface SitemapRef {
  loc: string;
  lastmod?: DateInput;
}

export type DateInput = Date | number | string;

export const CHANGEFREQS = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'] as const;
export type Changefreq = (typeof CHANGEFREQS)[number];

/** Google image sitemap 1.1. Only `loc` is still used by Google; the rest are deprecated but valid. */
export interface ImageEntry {
  loc: string;
  caption?: string;
  geoLocation?: string;
  title?: string;
  license?: string;
}

// The enumerations are the vocabulary's (vocabulary.ts); the model holds their lower-case forms.
export type YesNo = Lowercase<(typeof YES_NO)[number]>;
export type Relationship = (typeof RELATIONSHIPS)[number];

/** Google video sitemap 1.1, every field of sitemap-video.xsd. */
export interface VideoEntry {
  thumbnailLoc: string;
  title: string;
  description: string;
  /** At least one of contentLoc and playerLoc is required. */
  contentLoc?: string;
  playerLoc?: string;
  playerLocAllowEmbed?: YesNo;
  playerLocAutoplay?: string;
  /** Seconds, 0 to 28,800. */
  duration?: number;
  expirationDate?: DateInput;
  /** 0.0 to 5.0. */
  rating?: number;
  contentSegmentLocs?: { loc: string; duration?: number }[];
  viewCount?: number;
  publicationDate?: DateInput;
  /** At most 32. */
  tags?: string[];
  /** At most 256 characters. */
  category?: string;
  familyFriendly?: YesNo;
  /** ISO 3166 country codes, space-separated in the XML. */
  restriction?: { relationship: Relationship; countries: string[] };
  galleryLoc?: string;
  galleryLocTitle?: string;
  prices?: VideoPrice[];
  requiresSubscription?: YesNo;
  uploader?: string;
  uploaderInfo?: string;
  tvshow?: VideoTvShow;
  platform?: { relationship: Relationship; platforms: (typeof PLATFORMS)[number][] };
  live?: YesNo;
  ids?: { type: (typeof VIDEO_ID_TYPES)[number]; value: string }[];
}

export interface VideoPrice {
  value: string | number;
  /** ISO 4217, three capital letters. */
  currency: string;
  type?: Lowercase<(typeof PRICE_TYPES)[number]>;
  resolution?: Lowercase<(typeof RESOLUTIONS)[number]>;
}

export interface VideoTvShow {
  showTitle: string;
  videoType: (typeof TV_VIDEO_TYPES)[number];
  episodeTitle?: string;
  seasonNumber?: number;
  episodeNumber?: number;
  premierDate?: DateInput;
}

/** Google News sitemap 0.9. */
export interface NewsEntry {
  publication: { name: string; language: string };
  publicationDate: DateInput;
  title: string;
  access?: (typeof NEWS_ACCESS)[number];
  /** Comma-separated list in the XML: PressRelease, Satire, Blog, OpEd, Opinion, UserGenerated. */
  genres?: string[];
  keywords?: string[];
  /** At most 5, such as `NASDAQ:AMAT`. */
  stockTickers?: string[];
}

export interface AlternateLink {
  /** A language (`en`), language-region (`en-GB`), or `x-default`. */
  hreflang: string;
  href: string;
}

export const NS = {
  sitemap: 'http://www.sitemaps.org/schemas/sitemap/0.9',
  image: 'http://www.google.com/schemas/sitemap-image/1.1',
  video: 'http://www.google.com/schemas/sitemap-video/1.1',
  news: 'http://www.google.com/schemas/sitemap-news/0.9',
  xhtml: 'http://www.w3.org/1999/xhtml',
} as const;

export type ExtensionNamespace = 'image' | 'video' | 'news' | 'xhtml';

/** Limits of one sitemap set (sitemaps.org); byte limits are of the uncompressed file. */
export interface Limits {
  maxUrlsPerSitemap: number;
  maxBytesPerSitemap: number;
  maxSitemapsPerIndex: number;
  maxBytesPerIndex: number;
  /** Google News: at most 1,000 `<news:news>` per sitemap. */
  maxNewsPerSitemap: number;
  /** Google images: at most 1,000 `<image:image>` per `<url>`. */
  maxImagesPerUrl: number;
  /** sitemaps.org protocol: `<loc>` must be less than 2,048 characters. */
  maxLocLength: number;
}

export type LimitsProfileName = 'current' | 'legacy';

// Since November 2016: 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed.
const CURRENT_LIMITS: Readonly<Limits> = {
  maxUrlsPerSitemap: 50_000,
  maxBytesPerSitemap: 52_428_800,
  maxSitemapsPerIndex: 50_000,
  maxBytesPerIndex: 52_428_800,
  maxNewsPerSitemap: 1_000,
  maxImagesPerUrl: 1_000,
  maxLocLength: MAX_URL_LENGTH,
};

export const LIMITS_PROFILES: Readonly<Record<LimitsProfileName, Readonly<Limits>>> = {
  current: CURRENT_LIMITS,
  // The seed documents' (2008) wording: 10 MB (10,485,760 bytes), at most 1,000 sitemaps per index; the rest as now.
  legacy: { ...CURRENT_LIMITS, maxBytesPerSitemap: 10_485_760, maxSitemapsPerIndex: 1_000, maxBytesPerIndex: 10_485_760 },
};
