// The elements the XML reader knows, as small integers: its contexts, the element ids, their names for
// messages. The extensions' ids and contexts are numbered from vocabulary.ts at load, so a new namespace
// adds nothing here. ElementNames classifies each qualified name once under the current bindings.

import { NS } from '../model.js';
import { LINK, URL_EXTENSIONS, prefixOf, type AttributeDecl, type ElementDecl, type Particle } from '../vocabulary.js';
import { anyUri } from '../validate/xsd-types.js';
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
export const C_FIELD = 11;
export const C_RSS = 12;
export const C_CHANNEL = 13;
export const C_ITEM = 14;
export const C_FEED = 15;
export const C_ENTRY = 16;
/** Names shorter than this are cached in per-length buckets (compared with ===, no hashing). */
const NAME_BUCKETS = 48;

/** The contexts of the extension elements that hold others follow (numbered at load). */
export const C_EXTENSION = 17;

/** The elements the contexts are, for messages (the extensions' appended at load). */
export const CONTEXT_NAMES: string[] = ['', '', 'urlset', 'sitemapindex', 'url', 'sitemap', '', '', '', '', '', '', 'rss', 'channel', 'item', 'feed', 'entry'];

// ---- element ids -------------------------------------------------------------------------------------
const E_URLSET = 1;
const E_SITEMAPINDEX = 2;
export const E_URL = 3;
export const E_SITEMAP = 4;
export const E_LOC = 5;
export const E_LASTMOD = 6;
export const E_CHANGEFREQ = 7;
export const E_PRIORITY = 8;

export const E_XHTML_LINK = 70;

const E_RSS = 80;
export const E_CHANNEL = 81;
export const E_ITEM = 82;
export const E_R_LINK = 83;
export const E_R_GUID = 84;
export const E_R_PUBDATE = 85;
export const E_R_DC_DATE = 86;

const E_FEED = 90;
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

const SITEMAP_ELEMENTS = new Map<string, number>([
  ['urlset', E_URLSET], ['sitemapindex', E_SITEMAPINDEX], ['url', E_URL], ['sitemap', E_SITEMAP],
  ['loc', E_LOC], ['lastmod', E_LASTMOD], ['changefreq', E_CHANGEFREQ], ['priority', E_PRIORITY],
]);
/** Dublin Core: RSS feeds without pubDate often carry `<dc:date>` (W3C Datetime), read as a fallback. */
const DC_NS = 'http://purl.org/dc/elements/1.1/';
const RSS_ELEMENTS = new Map<string, number>([
  ['rss', E_RSS], ['channel', E_CHANNEL], ['item', E_ITEM], ['link', E_R_LINK], ['guid', E_R_GUID], ['pubDate', E_R_PUBDATE],
]);
const ATOM_ELEMENTS = new Map<string, number>([
  ['feed', E_FEED], ['entry', E_ENTRY], ['link', E_A_LINK], ['updated', E_A_UPDATED], ['published', E_A_PUBLISHED],
]);
const ATOM03_ELEMENTS = new Map<string, number>([
  ['feed', E_FEED], ['entry', E_ENTRY], ['link', E_A_LINK], ['modified', E_A_MODIFIED], ['issued', E_A_ISSUED], ['created', E_A_CREATED],
]);

/** Names of fields as written in the XML, for messages. */
export const FIELD_NAMES: string[] = [];
for (const table of [SITEMAP_ELEMENTS, RSS_ELEMENTS, ATOM_ELEMENTS, ATOM03_ELEMENTS]) for (const [local, id] of table) FIELD_NAMES[id] = local;
FIELD_NAMES[E_R_DC_DATE] = 'dc:date';

// ---- the extensions (image, video, news), numbered from the vocabulary's declarations at load ------

/** The first extension element id: each element under URL_EXTENSIONS (but xhtml:link) gets one, depth first. */
export const E_EXTENSION = 100;

/** An extension element's declaration by its id, with the reader's contexts of it. */
export interface ExtensionField {
  readonly decl: ElementDecl;
  /** The context of the element it is declared in (C_URL for a root). */
  readonly context: number;
  /** The context it opens (an element holding others), else C_SKIP. */
  readonly opens: number;
  /** The id of its extension's root (image:image, video:video, news:news). */
  readonly root: number;
  readonly repeated: boolean;
  /** Its attributes that fill a model property. */
  readonly attributes: readonly (readonly [string, AttributeDecl])[];
  /** Its URL attribute, whose value the reader checks for damage (video:uploader@info). */
  readonly urlAttribute: string | undefined;
}
/** Indexed by any element id: packed (no holes, no out-of-bounds reads) for the reader's dispatch. */
export const EXTENSION_FIELDS: (ExtensionField | undefined)[] = Array.from({ length: E_OTHER + 1 }, () => undefined);
/** Each extension namespace's element ids by local name. */
const EXTENSION_ELEMENTS = new Map<string, Map<string, number>>();
let nextId = E_EXTENSION;
let nextContext = C_EXTENSION;
function declare(p: Particle, context: number, root: number): void {
  const decl = p.element as ElementDecl;
  const id = nextId++;
  if (id >= E_UNKNOWN) throw new Error('xml-elements: more extension elements than element ids');
  const names = EXTENSION_ELEMENTS.get(decl.ns) ?? new Map<string, number>();
  if (names.has(decl.name)) throw new Error(`xml-elements: <${decl.name}> declared twice in ${decl.ns}`);
  EXTENSION_ELEMENTS.set(decl.ns, names.set(decl.name, id));
  FIELD_NAMES[id] = `${prefixOf(decl.ns) as string}:${decl.name}`;
  const opens = decl.type.sequence === undefined ? C_SKIP : nextContext++;
  if (opens !== C_SKIP) CONTEXT_NAMES[opens] = FIELD_NAMES[id];
  const attributes = Object.entries(decl.type.attributes ?? {}).filter(([, a]) => a.prop !== undefined);
  const urlAttribute = attributes.find(([, a]) => a.check === anyUri)?.[0];
  EXTENSION_FIELDS[id] = { decl, context, opens, root: root === 0 ? id : root, repeated: p.max > 1, attributes, urlAttribute };
  for (const child of decl.type.sequence ?? []) declare(child, opens, root === 0 ? id : root);
}
for (const p of URL_EXTENSIONS) if (p.element !== LINK) declare(p, C_URL, 0);
// Declared by news 0.9 (geo_locations, deprecated) but not in the model: skipped silently.
EXTENSION_ELEMENTS.get(NS.news)?.set('geo_locations', E_OTHER);

/** The id of the extension element `local` of namespace `ns`. */
export function extensionId(ns: string, local: string): number {
  const id = EXTENSION_ELEMENTS.get(ns)?.get(local);
  if (id === undefined) throw new Error(`xml-elements: no extension element <${local}> in ${ns}`);
  return id;
}
export const E_IMAGE = extensionId(NS.image, 'image');
export const E_IMAGE_LOC = extensionId(NS.image, 'loc');

export class ElementNames {
  /** Ids of names seen: short ones by length (compared with ===), long ones in a Map. */
  private readonly byLength: ({ names: string[]; ids: number[] } | undefined)[] = [];
  private readonly names = new Map<string, number>();
  private rootUri = '';
  private format: SitemapFormat | undefined;

  constructor(private readonly scope: NamespaceScope) {}

  /** Names are classified against the root's namespace and format. */
  setRoot(uri: string, format: SitemapFormat): void {
    this.rootUri = uri;
    this.format = format;
    this.clear();
  }

  /** The element id of a qualified name. */
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
    const format = this.format;
    if (format === 'urlset' || format === 'sitemapindex') {
      if (uri === this.rootUri || uri === SITEMAP_NS || uri === '' || LEGACY_SITEMAP_NS.includes(uri)) id = SITEMAP_ELEMENTS.get(local) ?? E_UNKNOWN;
      else if (EXTENSION_ELEMENTS.has(uri)) id = (EXTENSION_ELEMENTS.get(uri) as Map<string, number>).get(local) ?? E_UNKNOWN;
      else if (uri === NS.xhtml) id = local === 'link' ? E_XHTML_LINK : E_OTHER;
    } else if (format === 'rss') {
      if (uri === '') id = RSS_ELEMENTS.get(local) ?? E_OTHER;
      else if (uri === DC_NS && local === 'date') id = E_R_DC_DATE;
    } else if (format === 'atom' || format === 'atom03') {
      if (uri === this.rootUri) id = (format === 'atom' ? ATOM_ELEMENTS : ATOM03_ELEMENTS).get(local) ?? E_OTHER;
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
