// The image, video and news items of an entry as the XML reader reads them, each field held where and
// as its declaration in vocabulary.ts says. FieldBeingRead is the element whose text is being read.

import { parseW3cDatetime, w3cDatetimeProblem } from '../datetime.js';
import { show } from '../errors.js';
import { formatCount } from '../count-text.js';
import { NS, type ImageEntry, type NewsEntry, type VideoEntry } from '../model.js';
import { NEWS, VIDEO, prefixOf, type AttributeDecl, type ElementDecl, type ModelValue, type Particle } from '../vocabulary.js';
import { anyUri, DECIMAL, integerValue } from '../validate/xsd-types.js';
import type { XmlAttribute } from '../xml/tokenizer.js';
import { EXTENSION_FIELDS, E_IMAGE, E_IMAGE_LOC, FIELD_NAMES, extensionId, type ExtensionField } from './xml-elements.js';
import { isStrictW3c } from './values.js';
import { unusableUrl } from '../url.js';
import { xmlTrim } from '../xml/whitespace.js';

// The elements that hold others, and the reader's contexts of them.
const E_VIDEO = extensionId(NS.video, 'video');
const E_V_TVSHOW = extensionId(NS.video, 'tvshow');
const E_NEWS = extensionId(NS.news, 'news');
const E_N_PUBLICATION = extensionId(NS.news, 'publication');
const fieldOf = (id: number): ExtensionField => EXTENSION_FIELDS[id] as ExtensionField;
const C_IMAGE = fieldOf(E_IMAGE).opens;
const C_VIDEO = fieldOf(E_VIDEO).opens;
const C_TVSHOW = fieldOf(E_V_TVSHOW).opens;
const C_NEWS = fieldOf(E_NEWS).opens;
const C_PUBLICATION = fieldOf(E_N_PUBLICATION).opens;
const TVSHOW = fieldOf(E_V_TVSHOW).decl;
const PUBLICATION = fieldOf(E_N_PUBLICATION).decl;

/** Where an element starts: 1-based line and column, 0-based offset. */
export interface At {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** A diagnostic of the reader at a position. */
export type Report = (code: string, message: string, at: At, hint?: string) => void;

export function attrValue(attributes: readonly XmlAttribute[], name: string): string | undefined {
  for (let i = 0; i < attributes.length; i++) {
    const a = attributes[i] as XmlAttribute;
    if (a.name === name) return xmlTrim(a.value);
  }
  return undefined;
}

/**
 * The required text children of `decl` that `owner` lacks, each set to '' (the model requires them). An
 * empty one lacks too where its type takes '' (Google needs a title); elsewhere its own check said so.
 */
function lacking(decl: ElementDecl, owner: Record<string, unknown>): string[] {
  const missing: string[] = [];
  for (const p of decl.type.sequence as readonly Particle[]) {
    const e = p.element as ElementDecl;
    const value = owner[e.prop as string];
    if (p.min === 0 || e.type.sequence !== undefined || (value !== undefined && (value !== '' || e.type.text?.('') !== undefined))) continue;
    const name = `${prefixOf(e.ns) as string}:${e.name}`;
    missing.push(value === '' ? `${name} (only an empty one)` : name);
    owner[e.prop as string] = '';
  }
  return missing;
}

const FTP_URL = /^ftp:\/\//i;

type Mutable<T> = { -readonly [K in keyof T]?: T[K] };

/** An item being read: its fields, where it starts, why a URL of it cannot be trusted ('' when all can). */
interface Item {
  fields: Record<string, unknown>;
  at: At;
  problem: string;
}

export class FieldBeingRead {
  id = 0;
  value = '';
  /** Why the text cannot be trusted ('' when it can). */
  problem = '';
  problemHint: string | undefined = undefined;
  attrs: readonly XmlAttribute[] = [];
  /** Why the `info` attribute of a video:uploader cannot be trusted ('' when it can). */
  infoProblem = '';
  line = 0;
  column = 0;
  offset = 0;

  constructor(private readonly reportAt: Report) {}

  begin(id: number, attrs: readonly XmlAttribute[], infoProblem: string, line: number, column: number, offset: number): void {
    this.id = id;
    this.value = '';
    this.problem = '';
    this.problemHint = undefined;
    this.attrs = attrs;
    this.infoProblem = infoProblem;
    this.line = line;
    this.column = column;
    this.offset = offset;
  }

  report(code: string, message: string, hint?: string): void {
    this.reportAt(code, message, this, hint);
  }

  /** Where the field starts (a copy). */
  at(): At {
    return { line: this.line, column: this.column, offset: this.offset };
  }

  duplicate(): void {
    this.report('element/duplicate', `<${FIELD_NAMES[this.id] as string}> given twice; the first is kept`);
  }

  /** lastmod-like: kept as written; a diagnostic when it is not a W3C Datetime. */
  checkW3cDate(v: string, field: string, invalidCode: string, lenientCode: string | undefined): void {
    const problem = w3cDatetimeProblem(v);
    if (problem !== undefined) {
      this.report(invalidCode, `${field} ${show(v)} is not a W3C Datetime (${problem}); kept as written`, 'write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm');
    } else if (lenientCode !== undefined && !isStrictW3c(v)) {
      const parsed = parseW3cDatetime(v);
      this.report(lenientCode, `${field} ${show(v)} is ISO 8601 but not a W3C Datetime form; kept as written`, parsed === undefined ? undefined : `write ${parsed.text}`);
    }
  }
}

export class ExtensionReader {
  images: ImageEntry[] | undefined;
  videos: VideoEntry[] | undefined;
  news: NewsEntry | undefined;

  /** The items being read, by the context each opens. */
  private readonly items: Item[] = [];

  constructor(
    private readonly field: FieldBeingRead,
    private readonly report: Report,
  ) {}

  /** A new entry: no items yet. */
  beginEntry(): void {
    this.images = undefined;
    this.videos = undefined;
    this.news = undefined;
  }

  /** An image:image, video:video, video:tvshow, news:news or news:publication starts: the reader's context for it. */
  begin(id: number, at: At): number {
    const ctx = fieldOf(id).opens;
    // A news:publication's fields are its news:news's (a second publication adds to the first).
    if (ctx !== C_PUBLICATION) this.items[ctx] = { fields: {}, at, problem: '' };
    if (ctx === C_NEWS) this.items[C_PUBLICATION] = { fields: {}, at, problem: '' };
    return ctx;
  }

  /** The item of context `ctx` (begin's) ends. */
  finish(ctx: number): void {
    const item = this.items[ctx] as Item;
    if (ctx === C_IMAGE) this.finishImage(item);
    else if (ctx === C_VIDEO) this.finishVideo(item);
    else if (ctx === C_TVSHOW) this.finishTvShow(item);
    else if (ctx === C_NEWS) this.finishNews(item);
  }

  private videoInvalid(message: string, hint?: string): void {
    this.field.report('video/invalid', message, hint);
  }

  /** A value of a closed set, lower case where the schema takes other cases (`YES`); else kept, diagnosed. */
  private oneOf(v: string, values: readonly string[], field: string, code: string): string {
    const lower = v.toLowerCase();
    if (values.includes(v)) return values.includes(lower) ? lower : v;
    this.field.report(code, `${field} ${show(v)} is not one of ${values.join(', ')}; kept as written`, values.includes(lower) ? `write "${lower}"` : undefined);
    return v;
  }

  /** An image, video or news field, held where and as its declaration says (vocabulary.ts). */
  fieldRead(id: number, v: string): void {
    const { decl, context, repeated, attributes } = fieldOf(id);
    const field = FIELD_NAMES[id] as string;
    const owner = (this.items[context] as Item).fields;
    const prop = decl.prop as string;
    if (!repeated && owner[prop] !== undefined) return this.field.duplicate();
    if (this.field.problem !== '' && decl.type.text === anyUri && !this.untrustedUrl(id, v, field)) return;
    // Attributes fill the element's own object (video:price → { value, currency }; required ones before
    // its text, the model's order), or properties beside it (playerLocAllowEmbed).
    const own: Record<string, unknown> | undefined = decl.textProp === undefined ? undefined : {};
    if (attributes.length !== 0 && !this.fillAttributes(attributes, true, own ?? owner, v, field)) return;
    const value = this.modelValue(v, decl.as, decl.type.values, field, decl.ns === NS.news ? 'news/invalid' : 'video/invalid');
    if (value === undefined) return;
    if (own !== undefined) own[decl.textProp as string] = value;
    if (repeated) ((owner[prop] ??= []) as unknown[]).push(own ?? value);
    else owner[prop] = own ?? value;
    if (attributes.length !== 0) this.fillAttributes(attributes, false, own ?? owner, v, field);
  }

  /** The `required` (or the optional) attributes of the field into `target`; false when a required one is missing. */
  private fillAttributes(attributes: readonly (readonly [string, AttributeDecl])[], required: boolean, target: Record<string, unknown>, v: string, field: string): boolean {
    for (const [name, a] of attributes) {
      if (a.required !== required) continue;
      const value = this.attributeValue(name, a, v, field);
      if (value === null) return false;
      if (value !== undefined) target[a.prop as string] = value;
    }
    return true;
  }

  /** A damaged URL field: its video or image is dropped (when finished), anything else omitted (false). */
  private untrustedUrl(id: number, v: string, field: string): boolean {
    const video = fieldOf(id).root === E_VIDEO;
    if (!video && id !== E_IMAGE_LOC) {
      this.field.report('url/untrusted', `${field} ${show(v)} cannot be trusted (${this.field.problem}); it is omitted`);
      return false;
    }
    const item = this.items[video ? C_VIDEO : C_IMAGE] as Item;
    if (item.problem === '') item.problem = video ? `${field}: ${this.field.problem}` : this.field.problem;
    return true;
  }

  /** `v` as the model holds it; undefined, with a diagnostic, where it is omitted (a number that is not one). */
  private modelValue(v: string, as: ModelValue | undefined, values: readonly string[] | undefined, field: string, code: string): unknown {
    switch (as) {
      case 'integer': {
        // Any form the schema type takes (`-0`, `+5`, `007`); its range is the type's check.
        const n = integerValue(v);
        if (n === undefined) this.videoInvalid(`${field} ${show(v)} is not a whole number; omitted`);
        // A double holds every whole number up to 2^53 - 1 exactly, and not all past it: 2^53 + 1 reads as 2^53.
        else if (!Number.isSafeInteger(n)) this.videoInvalid(`${field} ${show(v)} is past ${formatCount(Number.MAX_SAFE_INTEGER)}, beyond which the model's numbers do not hold every whole number exactly; omitted`);
        else return n;
        return undefined;
      }
      case 'decimal':
        if (DECIMAL.test(v)) return Number(v);
        this.videoInvalid(`${field} ${show(v)} is not a decimal number; omitted`);
        return undefined;
      case 'numeric':
        if (!DECIMAL.test(v)) this.videoInvalid(`${field} ${show(v)} is not a decimal number; kept as written`, v.includes(',') ? 'use a dot as the decimal separator' : undefined);
        return v;
      case 'date':
        this.field.checkW3cDate(v, field, code, undefined);
        return v;
      case 'commaList':
        return v.split(',').map(xmlTrim).filter((item) => item !== '');
      case 'spaceList': {
        const list = v.split(/[\x20\x09\x0a\x0d]+/).filter((item) => item !== '');
        if (values !== undefined) for (const item of list) this.oneOf(item, values, field, code);
        return list;
      }
      default:
        return values === undefined ? v : this.oneOf(v, values, field, code);
    }
  }

  /** An attribute's value as the model holds it; undefined: absent or omitted; null: the element is omitted. */
  private attributeValue(name: string, a: AttributeDecl, v: string, field: string): unknown {
    const raw = attrValue(this.field.attrs, name);
    const at = `${field}@${name}`;
    if (raw === undefined) {
      const hint = `add ${name}="${a.example ?? a.values?.[0] ?? '…'}"${a.values === undefined ? '' : ` (one of ${a.values.join(', ')})`}`;
      if (a.required) this.videoInvalid(`${field} ${show(v)} has no ${name} attribute; omitted`, hint);
      else if (a.modelRequired === true) this.videoInvalid(`${field} ${show(v)} has no ${name} attribute; read as ''`, hint);
      return a.required ? null : a.modelRequired === true ? '' : undefined;
    }
    if (a.check === anyUri && this.field.infoProblem !== '') {
      this.field.report('url/untrusted', `${at} ${show(raw)} cannot be trusted (${this.field.infoProblem}); it is omitted`);
      return undefined;
    }
    return this.modelValue(raw, a.as, a.values, at, 'video/invalid');
  }

  private finishTvShow({ fields: tv, at }: Item): void {
    const missing = lacking(TVSHOW, tv);
    if (missing.length > 0) this.report('video/invalid', `video:tvshow has no ${missing.join(' or ')}; read as ''`, at);
    const vid = (this.items[C_VIDEO] as Item).fields;
    if (vid.tvshow !== undefined) {
      this.report('element/duplicate', '<video:tvshow> given twice; the first is kept', at);
      return;
    }
    vid.tvshow = tv;
  }

  private finishVideo({ fields, at, problem }: Item): void {
    const vid = fields as Mutable<VideoEntry>;
    if (problem !== '') {
      this.report('url/untrusted', `a URL of this video cannot be trusted (${problem}); the video is dropped`, at);
      return;
    }
    for (const [field, url] of [['thumbnail_loc', vid.thumbnailLoc], ['content_loc', vid.contentLoc], ['player_loc', vid.playerLoc]] as const) {
      // An empty content_loc or player_loc is video/no-content's (validate), an empty thumbnail_loc lacking's.
      // Google's video sitemaps take FTP besides HTTP for the files (no streaming protocol).
      const unusable = url === undefined || url === '' || FTP_URL.test(url) ? undefined : unusableUrl(url);
      if (unusable !== undefined) {
        this.report('video/invalid', `video:${field} ${show(url as string)} is not a URL anything can fetch: ${unusable.why}; the video is dropped`, at, unusable.hint);
        return;
      }
    }
    const missing = lacking(VIDEO, vid);
    if (missing.length > 0) this.report('video/invalid', `the video has no ${missing.join(', ')}; read as ''`, at, 'a video needs a thumbnail_loc, a title and a description');
    (this.videos ??= []).push(vid as VideoEntry);
  }

  private finishImage({ fields, at, problem }: Item): void {
    const img = fields as Mutable<ImageEntry>;
    if (img.loc === undefined || img.loc === '') {
      this.report('image/invalid', `<image:image> without ${img.loc === undefined ? 'image:loc' : 'a URL in image:loc'} is skipped`, at, 'every image:image needs an image:loc');
      return;
    }
    if (problem !== '') {
      this.report('url/untrusted', `image:loc ${show(img.loc)} cannot be trusted (${problem}); the image is dropped`, at);
      return;
    }
    const unusable = unusableUrl(img.loc);
    if (unusable !== undefined) {
      this.report('image/invalid', `image:loc ${show(img.loc)} is not a URL anything can fetch: ${unusable.why}; the image is skipped`, at, unusable.hint);
      return;
    }
    (this.images ??= []).push(img as ImageEntry);
  }

  private finishNews({ fields, at }: Item): void {
    const n = fields as Mutable<NewsEntry>;
    const pub = (this.items[C_PUBLICATION] as Item).fields as { name: string; language: string };
    const missing = [...lacking(PUBLICATION, pub), ...lacking(NEWS, n)];
    n.publication = { name: pub.name, language: pub.language };
    if (missing.length > 0) this.report('news/invalid', `news:news has no ${missing.join(', ')}; read as ''`, at, 'news:news needs a publication (name, language), a publication_date and a title');
    if (this.news !== undefined) {
      this.report('element/duplicate', '<news:news> given twice in one <url>; the first is kept', at);
      return;
    }
    // Put the fields in the model's order.
    const entry: NewsEntry = { publication: n.publication, publicationDate: n.publicationDate as NewsEntry['publicationDate'], title: n.title as string };
    if (n.access !== undefined) entry.access = n.access;
    if (n.genres !== undefined) entry.genres = n.genres;
    if (n.keywords !== undefined) entry.keywords = n.keywords;
    if (n.stockTickers !== undefined) entry.stockTickers = n.stockTickers;
    this.news = entry;
  }
}
