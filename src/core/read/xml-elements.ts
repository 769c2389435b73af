// The elements the XML reader knows (xml-reader.ts), as small integers: the contexts it reads in, the
// ids of the elements of each namespace, their names as written (for messages), and the extension
// elements' declarations in the vocabulary (vocabulary.ts) by id. ElementNames gives a qualified
// name's id under the current namespace bindings, classified once per name.

import { NS } from '../model.js';
import { IMAGE, NEWS, VIDEO, type AttributeDecl, type ElementDecl } from '../vocabulary.js';
import type { NamespaceScope } from '../xml/namespaces.js';
import { LEGACY_SITEMAP_NS, SITEMAP_NS } from './sniff.js';
import type { SitemapFormat } from './types.js';

// ---- contexts (what the innermost open element is) -------------------------------------------------
export const C_SKIP = 0;
export const C_TOP = 1;
export const C_URLSET = 2;
export const C_INDEX = 3;
export const C_URL = 4;
export const C_SITEMAP = 5;
export const C_IMAGE = 6;
export const C_VIDEO = 7;
export const C_TVSHOW = 8;
export const C_NEWS = 9;
export const C_PUBLICATION = 10;
export const C_FIELD = 11;
export const C_RSS = 12;
export const C_CHANNEL = 13;
export const C_ITEM = 14;
export const C_FEED = 15;
export const C_ENTRY = 16;
/** Names shorter than this are cached in per-length buckets (compared with ===, no hashing). */
const NAME_BUCKETS = 48;

export const CONTEXT_NAMES: readonly string[] = ['', '', 'urlset', 'sitemapindex', 'url', 'sitemap', 'image:image', 'video:video', 'video:tvshow', 'news:news', 'news:publication', '', 'rss', 'channel', 'item', 'feed', 'entry'];

// ---- element ids -------------------------------------------------------------------------------------
export const E_URLSET = 1;
export const E_SITEMAPINDEX = 2;
export const E_URL = 3;
export const E_SITEMAP = 4;
export const E_LOC = 5;
export const E_LASTMOD = 6;
export const E_CHANGEFREQ = 7;
export const E_PRIORITY = 8;

export const E_IMAGE = 10;
export const E_IMAGE_LOC = 11;
export const E_IMAGE_CAPTION = 12;
export const E_IMAGE_GEO = 13;
export const E_IMAGE_TITLE = 14;
export const E_IMAGE_LICENSE = 15;

export const E_VIDEO = 20;
export const E_V_TVSHOW = 21;
export const E_V_THUMB = 22;
export const E_V_TITLE = 23;
export const E_V_DESCRIPTION = 24;
export const E_V_CONTENT_LOC = 25;
export const E_V_PLAYER_LOC = 26;
export const E_V_DURATION = 27;
export const E_V_EXPIRATION = 28;
export const E_V_RATING = 29;
export const E_V_SEGMENT = 30;
export const E_V_VIEWS = 31;
export const E_V_PUBDATE = 32;
export const E_V_TAG = 33;
export const E_V_CATEGORY = 34;
export const E_V_FAMILY = 35;
export const E_V_RESTRICTION = 36;
export const E_V_GALLERY = 37;
export const E_V_PRICE = 38;
export const E_V_SUBSCRIPTION = 39;
export const E_V_UPLOADER = 40;
export const E_V_PLATFORM = 41;
export const E_V_LIVE = 42;
export const E_V_ID = 43;
export const E_V_SHOW_TITLE = 50;
export const E_V_VIDEO_TYPE = 51;
export const E_V_EPISODE_TITLE = 52;
export const E_V_SEASON = 53;
export const E_V_EPISODE = 54;
export const E_V_PREMIER = 55;

export const E_NEWS = 60;
export const E_N_PUBLICATION = 61;
export const E_N_NAME = 62;
export const E_N_LANGUAGE = 63;
export const E_N_ACCESS = 64;
export const E_N_GENRES = 65;
export const E_N_PUBDATE = 66;
export const E_N_TITLE = 67;
export const E_N_KEYWORDS = 68;
export const E_N_TICKERS = 69;

export const E_XHTML_LINK = 70;

export const E_RSS = 80;
export const E_CHANNEL = 81;
export const E_ITEM = 82;
export const E_R_LINK = 83;
export const E_R_GUID = 84;
export const E_R_PUBDATE = 85;
export const E_R_DC_DATE = 86;

export const E_FEED = 90;
export const E_ENTRY = 91;
export const E_A_LINK = 92;
export const E_A_UPDATED = 93;
export const E_A_PUBLISHED = 94;
export const E_A_MODIFIED = 95;
export const E_A_ISSUED = 96;
export const E_A_CREATED = 97;

/** An element of a known namespace with an unknown name: skipped with `element/unexpected`. */
export const E_UNKNOWN = 254;
/** An element of another namespace: skipped silently. */
export const E_OTHER = 255;

export const SITEMAP_ELEMENTS = new Map<string, number>([
  ['urlset', E_URLSET], ['sitemapindex', E_SITEMAPINDEX], ['url', E_URL], ['sitemap', E_SITEMAP],
  ['loc', E_LOC], ['lastmod', E_LASTMOD], ['changefreq', E_CHANGEFREQ], ['priority', E_PRIORITY],
]);
export const IMAGE_ELEMENTS = new Map<string, number>([
  ['image', E_IMAGE], ['loc', E_IMAGE_LOC], ['caption', E_IMAGE_CAPTION], ['geo_location', E_IMAGE_GEO], ['title', E_IMAGE_TITLE], ['license', E_IMAGE_LICENSE],
]);
export const VIDEO_ELEMENTS = new Map<string, number>([
  ['video', E_VIDEO], ['tvshow', E_V_TVSHOW], ['thumbnail_loc', E_V_THUMB], ['title', E_V_TITLE], ['description', E_V_DESCRIPTION],
  ['content_loc', E_V_CONTENT_LOC], ['player_loc', E_V_PLAYER_LOC], ['duration', E_V_DURATION], ['expiration_date', E_V_EXPIRATION],
  ['rating', E_V_RATING], ['content_segment_loc', E_V_SEGMENT], ['view_count', E_V_VIEWS], ['publication_date', E_V_PUBDATE],
  ['tag', E_V_TAG], ['category', E_V_CATEGORY], ['family_friendly', E_V_FAMILY], ['restriction', E_V_RESTRICTION],
  ['gallery_loc', E_V_GALLERY], ['price', E_V_PRICE], ['requires_subscription', E_V_SUBSCRIPTION], ['uploader', E_V_UPLOADER],
  ['platform', E_V_PLATFORM], ['live', E_V_LIVE], ['id', E_V_ID], ['show_title', E_V_SHOW_TITLE], ['video_type', E_V_VIDEO_TYPE],
  ['episode_title', E_V_EPISODE_TITLE], ['season_number', E_V_SEASON], ['episode_number', E_V_EPISODE], ['premier_date', E_V_PREMIER],
]);
export const NEWS_ELEMENTS = new Map<string, number>([
  ['news', E_NEWS], ['publication', E_N_PUBLICATION], ['name', E_N_NAME], ['language', E_N_LANGUAGE], ['access', E_N_ACCESS],
  ['genres', E_N_GENRES], ['publication_date', E_N_PUBDATE], ['title', E_N_TITLE], ['keywords', E_N_KEYWORDS], ['stock_tickers', E_N_TICKERS],
  ['geo_locations', E_OTHER],
]);
/** Dublin Core: RSS feeds without pubDate often carry `<dc:date>` (W3C Datetime), read as a fallback. */
const DC_NS = 'http://purl.org/dc/elements/1.1/';
export const RSS_ELEMENTS = new Map<string, number>([
  ['rss', E_RSS], ['channel', E_CHANNEL], ['item', E_ITEM], ['link', E_R_LINK], ['guid', E_R_GUID], ['pubDate', E_R_PUBDATE],
]);
export const ATOM_ELEMENTS = new Map<string, number>([
  ['feed', E_FEED], ['entry', E_ENTRY], ['link', E_A_LINK], ['updated', E_A_UPDATED], ['published', E_A_PUBLISHED],
]);
export const ATOM03_ELEMENTS = new Map<string, number>([
  ['feed', E_FEED], ['entry', E_ENTRY], ['link', E_A_LINK], ['modified', E_A_MODIFIED], ['issued', E_A_ISSUED], ['created', E_A_CREATED],
]);

/** Names of fields as written in the XML, for messages. */
export const FIELD_NAMES: string[] = [];
for (const [prefix, table] of [['', SITEMAP_ELEMENTS], ['image:', IMAGE_ELEMENTS], ['video:', VIDEO_ELEMENTS], ['news:', NEWS_ELEMENTS], ['', RSS_ELEMENTS], ['', ATOM_ELEMENTS], ['', ATOM03_ELEMENTS]] as const) {
  for (const [local, id] of table) if (id !== E_OTHER) FIELD_NAMES[id] = prefix + local;
}
FIELD_NAMES[E_R_DC_DATE] = 'dc:date';

/**
 * Each image, video and news element's declaration (vocabulary.ts) by its id, the reader's context of
 * the element it is declared in, and whether it may repeat: the reader takes an element inside an
 * extension only where the vocabulary declares it.
 */
export interface ExtensionField {
  readonly decl: ElementDecl;
  readonly context: number;
  readonly repeated: boolean;
  /** Its attributes that fill a model property. */
  readonly attributes: readonly (readonly [string, AttributeDecl])[];
}
export const EXTENSION_FIELDS: ExtensionField[] = [];
/** The contexts of the extension elements that hold others, by id. */
const CONTAINERS = new Map([[E_V_TVSHOW, C_TVSHOW], [E_N_PUBLICATION, C_PUBLICATION]]);
function declareFields(parent: ElementDecl, ids: ReadonlyMap<string, number>, context: number): void {
  for (const p of parent.type.sequence ?? []) {
    const decl = p.element as ElementDecl;
    const id = ids.get(decl.name);
    if (id === undefined) throw new Error(`xml-reader: the vocabulary's <${decl.name}> in ${decl.ns} has no element id`);
    EXTENSION_FIELDS[id] = { decl, context, repeated: p.max > 1, attributes: Object.entries(decl.type.attributes ?? {}).filter(([, a]) => a.prop !== undefined) };
    if (decl.type.sequence !== undefined) declareFields(decl, ids, CONTAINERS.get(id) as number);
  }
}
declareFields(IMAGE, IMAGE_ELEMENTS, C_IMAGE);
declareFields(VIDEO, VIDEO_ELEMENTS, C_VIDEO);
declareFields(NEWS, NEWS_ELEMENTS, C_NEWS);
export const TVSHOW = (EXTENSION_FIELDS[E_V_TVSHOW] as ExtensionField).decl;
export const PUBLICATION = (EXTENSION_FIELDS[E_N_PUBLICATION] as ExtensionField).decl;

/** The element id of a qualified name under the scope's bindings and the document's root: classified once per name, then looked up. */
export class ElementNames {
  /** Element ids of qualified names seen, by name length (short names), and in a Map (long ones). */
  private readonly byLength: ({ names: string[]; ids: number[] } | undefined)[] = [];
  private readonly names = new Map<string, number>();
  private rootId = 0;
  private rootUri = '';
  private format: SitemapFormat | undefined;

  constructor(private readonly scope: NamespaceScope) {}

  /** The root is known (E_URLSET, E_SITEMAPINDEX, E_RSS or E_FEED, in namespace `uri`): names are classified against it. */
  setRoot(rootId: number, uri: string, format: SitemapFormat): void {
    this.rootId = rootId;
    this.rootUri = uri;
    this.format = format;
    this.clear();
  }

  /** The element id of a qualified name: compared with the names seen before (by length, then ===), classified once. */
  id(qname: string): number {
    const n = qname.length;
    if (n < NAME_BUCKETS) {
      const bucket = this.byLength[n];
      if (bucket !== undefined) {
        const names = bucket.names;
        for (let i = 0; i < names.length; i++) if (names[i] === qname) return bucket.ids[i] as number;
      }
    } else {
      const id = this.names.get(qname);
      if (id !== undefined) return id;
    }
    return this.classify(qname);
  }

  /** Forget the names seen (the namespace bindings changed). */
  clear(): void {
    this.byLength.length = 0;
    this.names.clear();
  }

  private classify(qname: string): number {
    const { uri, local } = this.scope.resolve(qname);
    let id = E_OTHER;
    const root = this.rootId;
    if (root === E_URLSET || root === E_SITEMAPINDEX) {
      if (uri === this.rootUri || uri === SITEMAP_NS || uri === '' || LEGACY_SITEMAP_NS.includes(uri)) id = SITEMAP_ELEMENTS.get(local) ?? E_UNKNOWN;
      else if (uri === NS.image) id = IMAGE_ELEMENTS.get(local) ?? E_UNKNOWN;
      else if (uri === NS.video) id = VIDEO_ELEMENTS.get(local) ?? E_UNKNOWN;
      else if (uri === NS.news) id = NEWS_ELEMENTS.get(local) ?? E_UNKNOWN;
      else if (uri === NS.xhtml) id = local === 'link' ? E_XHTML_LINK : E_OTHER;
    } else if (root === E_RSS) {
      if (uri === '') id = RSS_ELEMENTS.get(local) ?? E_OTHER;
      else if (uri === DC_NS && local === 'date') id = E_R_DC_DATE;
    } else if (root === E_FEED) {
      if (uri === this.rootUri) id = (this.format === 'atom' ? ATOM_ELEMENTS : ATOM03_ELEMENTS).get(local) ?? E_OTHER;
    } else {
      return E_OTHER; // before the root: not cached
    }
    const n = qname.length;
    if (n < NAME_BUCKETS) {
      const bucket = (this.byLength[n] ??= { names: [], ids: [] });
      if (bucket.names.length < 16) {
        bucket.names.push(qname);
        bucket.ids.push(id);
      }
    } else {
      if (this.names.size >= 4096) this.names.clear();
      this.names.set(qname, id);
    }
    return id;
  }
}
