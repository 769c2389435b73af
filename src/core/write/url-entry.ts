// One `<url>` element: validates every value of a UrlEntry and serialises it in the element order of
// sitemap.xsd and Google's extension schemas (vocabulary.ts; test/core/vocabulary.test.ts holds the
// two equal). Invalid values are refused with the value named, never silently replaced.

import { CHANGEFREQS, NS, type Changefreq, type DateInput, type Limits, type NewsEntry, type UrlEntry, type VideoEntry } from '../model.js';
import { InvalidValueError, quoteValue } from '../errors.js';
import { codePointName, escapeXml, escapeXmlAttribute, indexOfNonXmlChar } from '../xml/escape.js';
import { MIN_URL_LENGTH, normalizeUrl, scopeViolation, type UrlScope } from '../url.js';
import { toSitemapDate } from '../datetime.js';
import { trimAsciiWhitespace } from '../ascii-whitespace.js';
import { IMAGE, LINK, NEWS, URL_EXTENSIONS, VIDEO, YES_NO, isChangefreq, prefixOf, videoContentProblems, type ElementDecl, type ModelValue, type ValueFacets } from '../vocabulary.js';
import { DECIMAL, anyString, anyUri, decimalWithin, integerValue, type SimpleTypeCheck } from '../validate/xsd-types.js';

/** The extension namespaces, in model.ts NS order: a piece of XML says which it uses by a bit each (image 1, video 2, news 4, xhtml 8). */
const EXTENSION_NAMESPACES: readonly string[] = Object.values(NS).filter((uri) => uri !== NS.sitemap);
const namespaceBit = (ns: string): number => 1 << EXTENSION_NAMESPACES.indexOf(ns);
export const NS_NEWS = namespaceBit(NS.news);
export const NS_XHTML = namespaceBit(NS.xhtml);
export const ALL_EXTENSIONS = (1 << EXTENSION_NAMESPACES.length) - 1;

/** `xmlns:p="..."` declarations (each with a leading space) for the namespaces in `mask`. */
export function namespaceDeclarations(mask: number): string {
  let out = '';
  EXTENSION_NAMESPACES.forEach((uri, i) => {
    if ((mask & (1 << i)) !== 0) out += ` xmlns:${prefixOf(uri) as string}="${uri}"`;
  });
  return out;
}

/** A page's or a sitemap's `<loc>`, normalised; at least the 12 characters of sitemap.xsd's and siteindex.xsd's tLoc. */
export function normalizeLoc(value: string, base: string | undefined, limits: Readonly<Limits>): string {
  const url = normalizeUrl(value, 'loc', base, limits.maxLocLength);
  if (url.length < MIN_URL_LENGTH) throw new InvalidValueError('loc/too-short', 'loc', value, `${quoteValue(url)} has ${url.length} characters; sitemap.xsd wants at least ${MIN_URL_LENGTH}`);
  return url;
}

/** Google's rules for an extension entry beyond its schema, checked before it is written. */
const GOOGLE_RULES: ReadonlyMap<ElementDecl, (value: unknown, loc: string, base: string | undefined) => void> = new Map([
  [VIDEO, (v: unknown, loc: string, base: string | undefined): void => {
    if (v === null || typeof v !== 'object') throw new InvalidValueError('video/invalid', 'video:video', v, 'a video must be an object');
    const video = v as VideoEntry;
    // The URLs as written (resolved), as validate reads them; one it refuses is refused as the element's.
    const written = (url: string | undefined): string | undefined => {
      try {
        return url && normalizeUrl(url, 'loc', base);
      } catch {
        return url;
      }
    };
    const problems = videoContentProblems({ ...video, contentLoc: written(video.contentLoc), playerLoc: written(video.playerLoc) }, loc);
    const problem = problems[0];
    if (problem === undefined) return;
    if (problem.url === undefined) throw new InvalidValueError(problem.code, problem.field, v, 'a video needs content_loc or player_loc (Google video sitemaps)');
    const error = new InvalidValueError(problem.code, problem.field, problem.url, `${problem.field} ${quoteValue(problem.url)} is the page's own loc: give the URL of the video file or of its player`);
    // Google video sitemaps want content_loc or player_loc: beside the other, only this one goes.
    throw problems.length === 1 && video.contentLoc && video.playerLoc ? mark(error, video as unknown as Record<string, unknown>, problem.field === 'video:content_loc' ? 'contentLoc' : 'playerLoc', problem.field) : error;
  }],
  [NEWS, (v: unknown): void => {
    const n = v as NewsEntry | null;
    if (typeof n !== 'object' || n?.publication == null) throw new InvalidValueError('news/invalid', 'news:news', n, 'news needs a publication with a name and a language');
  }],
]);

// hreflang: x-default, or an ISO 639 language, optionally with an ISO 15924 script and an ISO 3166-1 / UN M.49
// region; in any case (RFC 5646 §2.1.1), as validate reads it.
const HREFLANG = /^(?:x-default|[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?)$/i;
/**
 * An element or attribute as the writer takes it, prepared once from its vocabulary declaration: its
 * name as written, the model property, its value's form and checks.
 */
interface Part {
  /** `video:title`, or `video:price@currency` for an attribute. */
  readonly field: string;
  /** The element's field, under whose code a value its pattern rejects is refused. */
  readonly element: string;
  readonly prop: string;
  readonly min: number;
  readonly max: number;
  readonly as: ModelValue | undefined;
  readonly facets: ValueFacets;
  readonly isUrl: boolean;
  /** The schema's check, where it says more than "text" or "a URI" (a pattern, a length). */
  readonly check: SimpleTypeCheck | undefined;
  /** For an enumeration, the forms the model holds: the lower-case ones where the schema takes other cases too. */
  readonly values: readonly string[] | undefined;
  readonly children: readonly Part[] | undefined;
  readonly textProp: string | undefined;
  readonly attributes: readonly (Part & { readonly name: string; readonly needed: boolean })[];
}

function modelForms(values: readonly string[] | undefined): readonly string[] | undefined {
  if (values === undefined || values === YES_NO) return values;
  const lower = values.filter((v) => v === v.toLowerCase());
  return lower.length > 0 ? lower : values;
}

function valuePart(field: string, element: string, prop: string, as: ModelValue | undefined, facets: ValueFacets, check: SimpleTypeCheck | undefined): Omit<Part, 'min' | 'max' | 'children' | 'textProp' | 'attributes'> {
  const isUrl = check === anyUri;
  return { field, element, prop, as, facets, isUrl, check: isUrl || check === anyString ? undefined : check, values: modelForms(facets.values) };
}

function partOf(decl: ElementDecl, min = 1, max = 1): Part {
  const field = `${prefixOf(decl.ns) as string}:${decl.name}`;
  const attributes = Object.entries(decl.type.attributes ?? {}).filter(([, a]) => a.prop !== undefined).map(([name, a]) => ({
    ...valuePart(`${field}@${name}`, field, a.prop as string, a.as, a, a.check), min: 0, max: 1, children: undefined, textProp: undefined, attributes: [],
    name, needed: a.required || a.modelRequired === true,
  }));
  const children = decl.type.sequence?.map((p) => partOf(p.element as ElementDecl, p.min, p.max));
  return { ...valuePart(field, field, decl.prop as string, decl.as, decl.type, decl.type.text), min, max, children, textProp: decl.textProp, attributes };
}

const PARTS = new Map([IMAGE, VIDEO, NEWS].map((decl) => [decl, partOf(decl)]));

function objectOf(value: unknown, field: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidValueError(`${field}/invalid`, field, value, `${field} must be an object, got ${quoteValue(value)}`);
  return value as Record<string, unknown>;
}

export interface UrlEntrySerializerOptions {
  limits: Readonly<Limits>;
  /** The base of relative URLs, the loc's and its extensions' alike (RFC 3986 §5.2). */
  baseUrl?: string;
  /** When set, every page loc must lie inside it (sitemaps.org protocol: location). */
  scope?: UrlScope;
}

/**
 * Serialises entries one at a time. After `serialize`, the public fields describe the entry just
 * serialised (fields, not a result object: no allocation per entry on the hot path).
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
    for (const p of URL_EXTENSIONS) {
      const decl = p.element as ElementDecl;
      if ((entry as unknown as Record<string, unknown>)[decl.prop as string] != null && decl !== LINK) xml += this.extensions(decl, p.max, entry as unknown as Record<string, unknown>, loc);
    }
    this.hasNews = entry.news != null;
    if (entry.alternates !== undefined && entry.alternates !== null) xml += this.alternates(entry.alternates);
    return xml + '</url>\n';
  }

  /** `page`: the URL is the page's loc, which must lie inside the scope (extension URLs may be anywhere). */
  private url(value: unknown, field: string, page: boolean): string {
    if (typeof value !== 'string') {
      throw new InvalidValueError(`${field}/invalid`, field, value, `${field} must be a string URL, got ${quoteValue(value)}`);
    }
    let url: string;
    try {
      url = page ? normalizeLoc(value, this.baseUrl, this.limits) : normalizeUrl(value, field, this.baseUrl, this.limits.maxLocLength);
    } catch (error) {
      // url.ts names the value; beside a page's loc, the field says which URL it is (image:loc "…" is not a valid URL).
      if (!page && error instanceof InvalidValueError && !error.message.startsWith(field)) error.message = `${field} ${error.message}`;
      throw error;
    }
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

  /** The extension elements of a <url> (whose loc, as written, is `loc`) for the entry's value: one entry, or a list of at most `max` (Limits may say less). */
  private extensions(decl: ElementDecl, max: number, entry: Record<string, unknown>, loc: string): string {
    const part = PARTS.get(decl) as Part;
    const value = entry[decl.prop as string];
    const field = part.field;
    if (max > 1 && !Array.isArray(value)) throw new InvalidValueError(`${prefixOf(decl.ns) as string}/invalid`, field, value, `${part.prop} must be an array`);
    const most = decl === IMAGE ? Math.min(max, this.limits.maxImagesPerUrl) : max;
    let xml = '';
    const items = max > 1 ? (value as unknown[]) : [value];
    let refused: InvalidValueError | undefined;
    let i = 0;
    for (let written = 0; i < items.length && written < most; i++) {
      try {
        GOOGLE_RULES.get(decl)?.(items[i], loc, this.baseUrl);
        xml += this.element(part, items[i], this.open(namespaceBit(decl.ns), field));
        written++;
      } catch (error) {
        refused = collect(refused, max > 1 ? mark(error, items, i, decl.name) : mark(error, entry, decl.prop as string, decl.name));
      }
    }
    if (i < items.length) {
      // Those past the limit go together, unchecked; last in the list of refusals, so removed first.
      const tooMany = new InvalidValueError(`${prefixOf(decl.ns) as string}/too-many`, field, items.length, `${items.length} ${field} in one <url>; Google accepts at most ${most}`);
      tooMany.at = { owner: items, key: i, field, count: items.length - i };
      refused = collect(refused, tooMany);
    }
    if (refused !== undefined) throw refused;
    return xml;
  }

  /**
   * An element of element content for the model object `value` (an image, a video, …), its children in
   * the vocabulary's order, each checked as declared. `start`: the start tag so far.
   */
  private element(part: Part, value: unknown, start: string): string {
    const object = objectOf(value, part.field);
    let xml = start + '>';
    for (const child of part.children as readonly Part[]) {
      const v = object[child.prop];
      if (v == null && child.min === 0) {
        // An attribute kept beside its element's value in the model (a video's galleryLocTitle) has no place without it.
        const orphan = child.textProp === undefined ? child.attributes.find((a) => object[a.prop] != null) : undefined;
        if (orphan !== undefined) throw mark(new InvalidValueError(`${child.field}/missing`, orphan.field, object[orphan.prop], `${orphan.field} ${quoteValue(object[orphan.prop])} is given without ${child.field}`), object, orphan.prop, orphan.field);
        continue;
      }
      let at = -1;
      try {
        if (child.max === 1) xml += this.child(child, v, object);
        else {
          const items = list(v as unknown[], child.field);
          if (items.length > child.max) throw new InvalidValueError(`${child.field}/too-many`, child.field, items.length, `${items.length} ${child.field} elements; at most ${child.max}`);
          for (at = 0; at < items.length; at++) xml += this.child(child, items[at], object);
        }
      } catch (error) {
        throw child.min > 0 ? error : at >= 0 ? mark(error, v as unknown[], at, child.field) : mark(error, object, child.prop, child.field);
      }
    }
    return xml + '</' + part.field + '>';
  }

  /** One child element: element content, or a value with its attributes (in its own object, or beside it in `owner`). */
  private child(part: Part, v: unknown, owner: Record<string, unknown>): string {
    if (part.children !== undefined) return this.element(part, v, '<' + part.field);
    const own = part.textProp === undefined ? undefined : objectOf(v, part.field);
    let xml = '<' + part.field;
    for (const a of part.attributes) {
      const holder = own ?? owner;
      if (holder[a.prop] == null && !a.needed) continue;
      let text: string;
      try {
        text = this.value(a, holder[a.prop]);
      } catch (error) {
        throw a.needed ? error : mark(error, holder, a.prop, a.field);
      }
      xml += ' ' + a.name + '="' + escapeXmlAttribute(text) + '"';
    }
    return xml + '>' + escapeXml(this.value(part, own === undefined ? v : own[part.textProp as string])) + '</' + part.field + '>';
  }

  /**
   * A value as the XML writes it (unescaped), refused (InvalidValueError) where it is not of its type:
   * `FIELD/invalid`, `/out-of-range`, `/too-long`, `/too-many`; a value the schema's pattern rejects is
   * reported under its element's code (`video:price/invalid` for a currency).
   */
  private value(part: Part, value: unknown): string {
    const { field, facets } = part;
    let written: string;
    switch (part.as) {
      case 'integer':
        return integer(value, field, facets.range?.[0] ?? 0, facets.range?.[1] ?? Number.MAX_SAFE_INTEGER);
      case 'decimal':
      case 'numeric':
        return decimal(value, field, facets.range?.[0] ?? 0, facets.range?.[1] ?? Number.MAX_SAFE_INTEGER);
      case 'date':
        return toSitemapDate(value as DateInput, field).text;
      case 'commaList':
      case 'spaceList': {
        const items = list(value as unknown[], field);
        if (facets.maxItems !== undefined && items.length > facets.maxItems) {
          throw new InvalidValueError(`${field}/too-many`, field, items.length, `${items.length} items in ${field}; at most ${facets.maxItems}`);
        }
        // News sitemaps: keywords (genres, tickers) are a comma-separated list, so no item holds a comma.
        const comma = part.as === 'commaList';
        written = items.map((item, i) => {
          try {
            const text = unescapedText(item, field);
            if (text === '' || (comma && text.includes(','))) throw new InvalidValueError(`${part.element}/invalid`, field, item, text === '' ? `${field} has an empty item` : `${field} item ${quoteValue(text)} holds a comma, which separates the items of the list`);
            return text;
          } catch (error) {
            // One of several items goes; the only one takes its list with it (an empty element says nothing).
            throw items.length > 1 ? mark(error, items as unknown[], i, `${field} item`) : error;
          }
        }).join(comma ? ', ' : ' ');
        break;
      }
      default:
        if (part.values === YES_NO) return yesNo(value, field);
        if (part.values !== undefined) return oneOf(value, part.values, field);
        if (part.isUrl) return this.url(value, field, false);
        written = unescapedText(value, field, facets.maxLength);
        // A required text (a title, a description, a name) that is blank is missing, as validate reads it.
        if (part.min > 0 && trimAsciiWhitespace(written) === '') throw new InvalidValueError(`${field}/empty`, field, value, `${field} is empty`);
    }
    const problem = part.check?.(written);
    if (problem !== undefined) throw new InvalidValueError(`${part.element}/invalid`, field, value, `${field} ${quoteValue(written)} is ${problem}`);
    return written;
  }

  private alternates(links: readonly { hreflang: string; href: string }[]): string {
    let xml = '';
    // hreflang (any case: RFC 5646 §2.1.1) → its URL: one URL per language, as validate's hreflang rules want.
    const hrefs = links.length > 1 ? new Map<string, string>() : undefined;
    const items = list(links, 'xhtml:link');
    let refused: InvalidValueError | undefined;
    for (let i = 0; i < items.length; i++) {
      const link = items[i] as { hreflang: string; href: string };
      try {
        if (link === null || typeof link !== 'object' || typeof link.hreflang !== 'string' || !HREFLANG.test(link.hreflang)) {
          throw new InvalidValueError('hreflang/invalid', 'xhtml:link@hreflang', link?.hreflang, `hreflang ${quoteValue(link?.hreflang)} is not a language code such as "en", "en-GB" or "x-default"`);
        }
        const href = this.url(link.href, 'xhtml:link@href', false);
        const language = link.hreflang.toLowerCase();
        const first = hrefs?.get(language);
        if (first !== undefined && (first !== href || language === 'x-default')) {
          throw new InvalidValueError(`hreflang/duplicate-${language === 'x-default' ? 'x-default' : 'language'}`, 'xhtml:link@hreflang', link.hreflang, `hreflang ${quoteValue(link.hreflang)} is given twice, for ${quoteValue(first)} and ${quoteValue(href)}`);
        }
        hrefs?.set(language, href);
        xml += this.open(NS_XHTML, 'xhtml:link') + ' rel="alternate" hreflang="' + link.hreflang + '" href="' + escapeXml(href) + '"/>';
      } catch (error) {
        // A duplicate is refused at its later link: that one goes, the language's first stays.
        refused = collect(refused, mark(error, items as unknown[], i, 'alternate'));
      }
    }
    if (refused !== undefined) throw refused;
    return xml;
  }
}

/** `error`, when the writer's refusal and not marked by an inner part, marked as held by `owner[key]`, which the entry can do without (`field` names it). */
function mark(error: unknown, owner: Record<string, unknown> | unknown[], key: string | number, field: string): unknown {
  if (error instanceof InvalidValueError) error.at ??= { owner, key, field };
  return error;
}

/** The first refusal of a list's items, the others `also` on it: the caller drops them all in one retry, however many they are. */
function collect(first: InvalidValueError | undefined, error: unknown): InvalidValueError {
  if (!(error instanceof InvalidValueError)) throw error;
  if (first === undefined) return error;
  (first.also ??= []).push(error);
  return first;
}

function list<T>(value: readonly T[] | undefined, field: string): readonly T[] {
  if (!Array.isArray(value)) throw new InvalidValueError(`${field}/invalid`, field, value, `${field} must be a list, got ${quoteValue(value)}`);
  return value;
}

function unescapedText(value: unknown, field: string, maxLength?: number): string {
  if (typeof value !== 'string') throw new InvalidValueError(`${field}/invalid`, field, value, `${field} must be text, got ${quoteValue(value)}`);
  const bad = indexOfNonXmlChar(value);
  if (bad >= 0) {
    throw new InvalidValueError(`${field}/invalid-char`, field, value, `${field} ${quoteValue(value)} contains ${codePointName(value, bad)}, which XML 1.0 cannot carry`);
  }
  // As XSD counts them: characters (code points), one past U+FFFF being two UTF-16 units.
  const length = maxLength !== undefined && value.length > maxLength ? [...value].length : 0;
  if (maxLength !== undefined && length > maxLength) {
    throw new InvalidValueError(`${field}/too-long`, field, value, `${field} has ${length} characters; at most ${maxLength}`);
  }
  return value;
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
    if (textValue.includes('e')) textValue = n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '.0');
  } else if (typeof value === 'string' && DECIMAL.test(value.trim())) {
    textValue = value.trim();
    n = Number(textValue);
  } else {
    throw new InvalidValueError(`${field}/invalid`, field, value, `${field} ${quoteValue(value)} is not a decimal number`);
  }
  if (!(n >= min && n <= max) || (typeof value === 'string' && !decimalWithin(textValue, min, max))) {
    throw new InvalidValueError(`${field}/out-of-range`, field, value, `${field} ${quoteValue(value)} is outside ${min.toFixed(1)}–${max === Number.MAX_SAFE_INTEGER ? 'any' : max.toFixed(1)}`);
  }
  return textValue;
}

function integer(value: unknown, field: string, min: number, max: number): string {
  const n = typeof value === 'string' ? integerValue(value.trim()) : value;
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

function oneOf(value: unknown, allowed: readonly string[], field: string): string {
  if (typeof value === 'string' && allowed.includes(value)) return value;
  throw new InvalidValueError(`${field}/invalid`, field, value, `${field} ${quoteValue(value)} is not one of ${allowed.join(', ')}`);
}
