// What `sitemapkit build` needs to know about one built HTML page: may it be listed (robots noindex,
// a meta refresh stub, a canonical elsewhere), its hreflang alternates, the images of its main
// content, and its content normalised so that its hash changes only when the page does. Pure: the
// caller decodes the bytes (`sniffHtmlEncoding`) and hashes.
//
// htmlparser2's Tokenizer with a tree builder of our own: its Parser searches open elements with
// `unshift` and `indexOf`, quadratic on unclosed elements (1 MB of `<div>`: 19 s).
//
// `content` leaves out build noise (whitespace, comments, scripts, styles, cache-busting queries,
// hashed asset names, nonces, build stamps) and keeps what Google counts as a change worth a lastmod:
// "the main content, the structured data, or links on the page"
// (developers.google.com/search/docs/crawling-indexing/sitemaps/build-sitemap).

import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { InvalidValueError, SitemapError, quoteValue } from '../errors.js';
import { resolveEncodingLabel, sniffEncoding } from '../read/sniff.js';
import { normalizeUrl } from '../url.js';
import { isAsciiWhitespace, trimAsciiWhitespace } from '../ascii-whitespace.js';

/** A `<link rel="alternate" hreflang="…" href="…">` of the page's head. */
export interface PageAlternate {
  /** As written, trimmed; checking it is the validator's job. */
  hreflang: string;
  href: string;
}

/** What `scanHtmlPage` found. Every URL is absolute and normalised (`normalizeUrl`), without fragment. */
export interface PageFacts {
  /** A robots meta (`robots`, `googlebot`, `bingbot`, or `http-equiv="X-Robots-Tag"`) says `noindex` or `none`. */
  noindex: boolean;
  /**
   * The target of the first valid `<meta http-equiv="refresh">` (a redirect stub), resolved against the
   * base URL; as written when it is no http(s) URL; `''` when the refresh has no URL (a reload).
   */
  refresh?: string;
  /** The refresh delay in whole seconds (Google reads 0 as a permanent redirect, more as a temporary one). */
  refreshSeconds?: number;
  /** The first `<link rel="canonical">` of the head that resolves to an http(s) URL. */
  canonical?: string;
  /** The head's canonical links disagree; Google then ignores them all. */
  canonicalConflict?: boolean;
  /** hreflang alternates of the head, in document order, each distinct pair once. */
  alternates: PageAlternate[];
  /** With `images: true`: `<img src>` of the main content, http(s) only, each once, in document order. */
  images: string[];
  /** The page normalised for change detection: equal strings mean no change worth a lastmod. */
  content: string;
}

export interface ScanHtmlPageOptions {
  /** Collect `images` (off by default: it costs a URL normalisation per image). */
  images?: boolean;
}

/** HTML standard §13.1.2: void elements have no end tag and no content. */
const VOID_ELEMENTS = new Set([
  'area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen',
  'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

/**
 * Start tags that close the current element first (HTML standard §13.2.6.4.7 "in body"), so that
 * omitted optional end tags (`<p>a<p>b`, a minifier's choice) give the same content as written ones.
 */
const IMPLIED_CLOSE = new Map<string, ReadonlySet<string>>(
  (
    [
      ['address article aside blockquote details dialog div dl fieldset figcaption figure footer form', 'p'],
      ['header hgroup hr main menu nav ol p pre section table ul', 'p'],
      ['h1 h2 h3 h4 h5 h6', 'p h1 h2 h3 h4 h5 h6'],
      ['li', 'li p'],
      ['dd dt', 'dd dt p'],
      ['option', 'option'],
      ['optgroup', 'optgroup option'],
      ['tr', 'tr td th'],
      ['td th', 'td th'],
      ['thead tbody tfoot', 'thead tbody tfoot tr td th'],
      ['rt rp', 'rt rp'],
    ] as [opening: string, closed: string][]
  ).flatMap(([opening, closed]) => opening.split(' ').map((name) => [name, new Set(closed.split(' '))] as const)),
);

/**
 * HTML standard §13.2.6.4.4 "in head": start tags that stay in the head; any other (or non-blank text)
 * ends it. Google reads canonical and hreflang links only in the head
 * (developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls).
 */
const HEAD_ELEMENTS = new Set([
  'html', 'head', 'base', 'basefont', 'bgsound', 'link', 'meta', 'noframes', 'noscript', 'script', 'style',
  'template', 'title',
]);

/**
 * Elements whose text does not end the head. Nothing inside a head's `noscript` or `template` ends it
 * either: Google's renderer runs scripts, and a template's content is an inert fragment (§4.12.3).
 */
const HEAD_TEXT_CONTAINERS = new Set(['title', 'noframes']);

/** `<meta name>` values whose robots directives bind the crawlers a sitemap is for (not `googlebot-news`, …). */
const ROBOTS_META_NAMES = new Set(['robots', 'googlebot', 'bingbot']);

/**
 * `noindex` or `none` after a comma, a space or any crawler's name (`googlebot: noindex`), but not the
 * `none` of `max-image-preview: none`: a false positive only leaves a page out.
 * developers.google.com/search/docs/crawling-indexing/robots-meta-tag
 */
const NOINDEX_RE = /(?:^|[\s,:])(?<!max-image-preview\s*:\s*)(?:noindex|none)(?=$|[\s,;])/i;

/**
 * `<meta name|property>` values (lowercased, `_` `:` `.` read as `-`) that stamp the build, not the
 * page: the generator and its version, build ids and times, commits. Content dates stay.
 */
const BUILD_META_NAMES = new Set([
  'generator', 'generated', 'generated-at', 'generated-on', 'generation-time', 'build', 'buildid', 'buildtime',
  'builddate', 'commit', 'commit-sha', 'git-commit', 'git-sha', 'version',
]);

function isBuildMetaName(name: string): boolean {
  let key = name.trim().toLowerCase();
  if (key.includes('_') || key.includes(':') || key.includes('.')) key = key.replace(/[_:.]/g, '-');
  // `build-id`, `build-time`, … and `<generator>-version` (`docusaurus-version`, `app-version`).
  return BUILD_META_NAMES.has(key) || key.startsWith('build-') || key.endsWith('-version');
}

/**
 * Attributes that are build noise wherever they appear (names lowercased): CSP nonces and SRI hashes;
 * `class` and `style`, presentation that also carries generated names (`css-1n7v3ny`, `sc-bdVaJa`);
 * scoped-style markers (Vue `data-v-<hash>`, Astro `data-astro-cid-`, Angular `_ngcontent-`); framework
 * stamps (`ng-version`, React's `data-reactroot`, `data-reactid`); `data-build*` and `data-generated*`.
 */
function isNoiseAttribute(name: string): boolean {
  return NOISE_ATTRIBUTES.has(name) || NOISE_ATTRIBUTE_PREFIX.test(name);
}

const NOISE_ATTRIBUTES = new Set([
  'nonce', 'integrity', 'data-n-css', 'class', 'style', 'ng-version', 'data-reactroot', 'data-reactid', 'data-react-checksum',
  'data-svelte-h',
]);

/** The prefixes, and Vue's scoped-style marker: `data-v-` and a hex hash (names are lowercased). */
const NOISE_ATTRIBUTE_PREFIX = /^(?:data-build|data-generated|data-astro-cid-|_ngcontent-|_nghost-|data-v-[0-9a-f]+$)/;

/** How an element's src/href/srcset enter the content. */
const enum AssetUrls {
  /** Links, canonical, iframes…: changing them is a change of the page. */
  Keep,
  /** Without query and fragment: `?v=123` busts caches, it does not change the page. */
  DropQuery,
  /** Also with content hashes of the path masked (scripts, stylesheets, preloads). */
  DropQueryAndHashes,
}

/** `<link rel>` tokens of build artefacts whose file names carry content hashes. */
const HASHED_LINK_RELS = new Set(['stylesheet', 'preload', 'modulepreload', 'prefetch']);
/** Other `<link rel>` tokens of assets, cache-busted by query strings at most. */
const ASSET_LINK_RELS = new Set(['icon', 'shortcut', 'apple-touch-icon', 'apple-touch-icon-precomposed', 'mask-icon', 'manifest']);

const HASH_PLACEHOLDER = '[hash]';

const WHITESPACE_RUN_RE = /[\t\n\f\r ]+/g;

/** ASCII whitespace runs as one space, ends trimmed (attribute values; text is done in `addText`). */
function collapseWhitespace(s: string): string {
  const trimmed = trimAsciiWhitespace(s);
  // Most values hold no whitespace but lone spaces: no new string for them.
  return /[\t\n\f\r]| {2}/.test(trimmed) ? trimmed.replace(WHITESPACE_RUN_RE, ' ') : trimmed;
}

const ESCAPE_RE = /[&<>"]/g;

function escapeChar(c: string): string {
  return c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;';
}

// Text and attribute values arrive decoded: escaping keeps the text `<b>` apart from a `<b>` element.
function escapeText(s: string): string {
  return s.includes('&') || s.includes('<') || s.includes('>') ? s.replace(ESCAPE_RE, escapeChar) : s;
}

function escapeAttribute(s: string): string {
  return s.includes('&') || s.includes('"') || s.includes('<') || s.includes('>') ? s.replace(ESCAPE_RE, escapeChar) : s;
}

/**
 * Looks like a content hash or build id: 8+ characters of [A-Za-z0-9_-] with a digit, or with a
 * capital after the first character and lower case (a base64url hash without a digit, `DyUkeFpz`).
 * `HeaderNav` is masked too, harmlessly: renaming a script is not a change of the page.
 */
function isHashLike(s: string): boolean {
  if (s.length < 8) return false;
  let digit = false;
  let lower = false;
  let innerUpper = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digit = true;
    else if (c >= 0x61 && c <= 0x7a) lower = true;
    else if (c >= 0x41 && c <= 0x5a) innerUpper ||= i > 0;
    else if (c !== 0x2d && c !== 0x5f) return false;
  }
  return digit || (lower && innerUpper);
}

/**
 * One `.`-separated piece of a path segment with its hash masked: `app-5f3e2c1d8a` → `app-[hash]`
 * (the hash after the last qualifying `-`: base64url may hold `-`), or the whole piece (`main.3f2a1b9c.js`).
 */
function maskHashedPiece(piece: string): string {
  if (piece.length < 8) return piece;
  // A few dashes at most: each try slices, and a name may be all dashes.
  let dash = piece.lastIndexOf('-');
  for (let tries = 0; dash > 0 && tries < 4; tries++) {
    if (piece.length - dash - 1 >= 8 && isHashLike(piece.slice(dash + 1))) return piece.slice(0, dash + 1) + HASH_PLACEHOLDER;
    dash = piece.lastIndexOf('-', dash - 1);
  }
  return isHashLike(piece) ? HASH_PLACEHOLDER : piece;
}

function maskHashedPath(path: string): string {
  return path.split('/').map((segment) => (segment.length < 8 ? segment : segment.split('.').map(maskHashedPiece).join('.'))).join('/');
}

/** An asset URL without query and fragment, optionally with its content hashes masked. */
function normalizeAssetUrl(url: string, urls: AssetUrls): string {
  const path = url.split(/[?#]/, 1)[0] as string;
  return urls === AssetUrls.DropQueryAndHashes ? maskHashedPath(path) : path;
}

/**
 * One srcset candidate (HTML standard §4.8.4.3.10, simplified: descriptors end at the next comma): the
 * URL, then its descriptors. Sticky, so a srcset of spaces costs one pass, not one per start.
 */
const SRCSET_CANDIDATE = /[\t\n\f\r ,]*([^\t\n\f\r ]*[^\t\n\f\r ,])(?:,+|([^,]*))/y;

/** A srcset with each candidate's URL normalised, descriptors kept. */
function normalizeSrcset(srcset: string, urls: AssetUrls): string {
  const out: string[] = [];
  SRCSET_CANDIDATE.lastIndex = 0;
  for (let candidate = SRCSET_CANDIDATE.exec(srcset); candidate !== null; candidate = SRCSET_CANDIDATE.exec(srcset)) {
    const url = normalizeAssetUrl(candidate[1] as string, urls);
    const descriptors = trimAsciiWhitespace(candidate[2] ?? '');
    out.push(descriptors === '' ? url : `${url} ${descriptors}`);
  }
  return out.join(', ');
}

/** A refresh's delay (digits, then any digits and dots) and the separator before its URL. */
const REFRESH_DELAY = /^[\t\n\f\r ]*([\d.]*)(?:$|(?=[;,\t\n\f\r ]))[\t\n\f\r ]*[;,]?[\t\n\f\r ]*/;
const REFRESH_URL_PREFIX = /^url[\t\n\f\r ]*=[\t\n\f\r ]*/i;

/**
 * A `<meta http-equiv="refresh">` content (HTML standard §4.2.5.3): the delay and the URL as written
 * (`''` for none); undefined when it does not start with a number.
 */
function parseRefresh(input: string): { seconds: number; url: string } | undefined {
  const delay = REFRESH_DELAY.exec(input);
  if (delay === null || delay[1] === '') return undefined;
  // The digits before the first dot; none (`.5`) is 0.
  const seconds = Math.min(Number((delay[1] as string).split('.', 1)[0]), Number.MAX_SAFE_INTEGER);
  const rest = input.slice(delay[0].length);
  if (rest === '') return { seconds, url: '' };
  // Without the optional "URL =", a URL starting with "u" is the whole rest, quotes and all (the standard's "parse").
  const prefix = REFRESH_URL_PREFIX.exec(rest);
  if (prefix === null && (rest.charCodeAt(0) | 0x20) === 0x75 /* u */) return { seconds, url: trimAsciiWhitespace(rest) };
  let url = prefix === null ? rest : rest.slice(prefix[0].length);
  const quote = url.charAt(0);
  if (quote === '"' || quote === "'") {
    const close = url.indexOf(quote, 1);
    url = url.slice(1, close === -1 ? url.length : close);
  }
  return { seconds, url: trimAsciiWhitespace(url) };
}

/** `ref` resolved against `base`, normalised as the writer does, without fragment; undefined unless http(s). */
function resolveUrl(ref: string, base: string, field: string): string | undefined {
  // WHATWG URL parsing removes every tab and line break from the input (a template's wrapped href).
  let s = trimAsciiWhitespace(ref).replace(/[\t\n\r]/g, '');
  const hash = s.indexOf('#');
  if (hash !== -1) s = s.slice(0, hash);
  if (s === '') return base;
  try {
    return normalizeUrl(s, field, base);
  } catch (err) {
    if (err instanceof InvalidValueError) return undefined;
    throw err;
  }
}

/**
 * Tokenizer callbacks that gather each start tag's name and attributes (names lowercased) for
 * `startTag`; comments, the doctype and processing instructions are ignored.
 */
abstract class TagReader {
  protected tagName = '';
  /** The tag's attributes, in document order. */
  protected readonly attrs = new Map<string, string>();
  private attrName = '';
  private attrValue = '';

  constructor(protected html: string) {}

  protected abstract startTag(selfClosing: boolean): void;

  // Comments (build ids, "generated by" banners), the doctype and PIs are not content.
  oncomment(): void {}

  ondeclaration(): void {}

  onprocessinginstruction(): void {}

  onopentagname(start: number, end: number): void {
    this.tagName = this.html.slice(start, end).toLowerCase();
    this.attrs.clear();
  }

  onattribname(start: number, end: number): void {
    this.attrName = this.html.slice(start, end).toLowerCase();
    this.attrValue = '';
  }

  onattribdata(start: number, end: number): void {
    this.attrValue += this.html.slice(start, end);
  }

  onattribentity(codepoint: number): void {
    this.attrValue += String.fromCodePoint(codepoint);
  }

  onattribend(): void {
    // HTML standard §13.2.5.33: a repeated attribute is dropped; the first one counts.
    if (!this.attrs.has(this.attrName)) this.attrs.set(this.attrName, this.attrValue);
    this.attrValue = '';
  }

  onopentagend(): void {
    this.startTag(false);
  }

  onselfclosingtag(): void {
    this.startTag(true);
  }
}

class PageScanner extends TagReader implements TokenizerCallbacks {
  // Content, joined once at the end.
  private readonly parts: string[] = [];
  private pendingSpace = false;
  private atTag = true;

  // Open elements (html, head, body, scripts and styles excepted) and how many of each name are open.
  private readonly stack: string[] = [];
  private readonly openCount = new Map<string, number>();
  // Open svg and math elements, asked at every tag by the tokenizer.
  private foreignDepth = 0;
  private inHead = true;
  private inScriptOrStyle = false;

  // Facts, resolved in `facts()` once the base URL is known.
  private noindex = false;
  private refresh: { seconds: number; url: string } | undefined;
  private baseHref: string | undefined;
  private readonly canonicals: string[] = [];
  private readonly alternates: { hreflang: string; href: string }[] = [];
  // `<img src>` in <main>, in <article>, and outside the chrome: which is the main content is known at the end.
  private readonly images = { main: [] as string[], article: [] as string[], body: [] as string[] };

  constructor(
    html: string,
    private readonly wantImages: boolean,
  ) {
    super(html);
  }

  ontext(start: number, end: number): void {
    if (!this.inScriptOrStyle) this.addText(this.html.slice(start, end));
  }

  ontextentity(codepoint: number): void {
    if (!this.inScriptOrStyle) this.addText(String.fromCodePoint(codepoint));
  }

  oncdata(start: number, end: number, endOffset: number): void {
    // CDATA sections are text in SVG and MathML only; in HTML they are bogus comments.
    if (this.foreignDepth > 0 && !this.inScriptOrStyle) this.addText(this.html.slice(start, end - endOffset));
  }

  onclosetag(start: number, end: number): void {
    this.endTag(this.html.slice(start, end).toLowerCase());
  }

  onend(): void {
    while (this.stack.length > 0) this.pop();
  }

  isInForeignContext(): boolean {
    // Inside SVG and MathML, `<title>` and `<style>` hold markup, not raw text.
    return this.foreignDepth > 0;
  }

  /**
   * Text with ASCII whitespace runs as one space (as CSS renders it; Unicode spaces are content), trimmed
   * where it meets a tag. A space is written only once the next text shows it is inside a sentence, so
   * removed comments and scripts leave no trace. `<pre>` too: re-indented code is not worth a lastmod.
   */
  private addText(text: string): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (isAsciiWhitespace(text.charCodeAt(i))) {
        do i++;
        while (i < n && isAsciiWhitespace(text.charCodeAt(i)));
        if (!this.atTag) this.pendingSpace = true;
        if (i === n) return;
      }
      // Up to whitespace that is not a lone space between two other characters.
      const start = i;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c <= 0x20 && isAsciiWhitespace(c) && (c !== 0x20 || i + 1 === n || isAsciiWhitespace(text.charCodeAt(i + 1)))) break;
      }
      // Non-blank text ends the head (HTML standard "in head", "anything else"), outside a title, …
      if (this.inHead && !this.inert && !HEAD_TEXT_CONTAINERS.has(this.stack[this.stack.length - 1] ?? '')) this.inHead = false;
      if (this.pendingSpace) this.parts.push(' ');
      this.parts.push(escapeText(start === 0 && i === n ? text : text.slice(start, i)));
      this.pendingSpace = false;
      this.atTag = false;
    }
  }

  /** A tag was written or left out as noise: no space carries across it (comments and scripts do vanish). */
  private tagWritten(): void {
    this.pendingSpace = false;
    this.atTag = true;
  }

  /** Whether an element of `name` is open. */
  private isOpen(name: string): boolean {
    return (this.openCount.get(name) ?? 0) > 0;
  }

  /** Inside a noscript or template element: no part of the document a crawler reads. */
  private get inert(): boolean {
    return this.isOpen('noscript') || this.isOpen('template');
  }

  protected startTag(selfClosing: boolean): void {
    const name = this.tagName;
    if (this.inHead && !HEAD_ELEMENTS.has(name) && !this.inert) this.inHead = false;
    let urls = AssetUrls.Keep;
    switch (name) {
      case 'html':
      case 'head':
      case 'body':
        // Optional tags (HTML standard §13.1.2.4): never on the stack, in the content only with attributes.
        if ([...this.attrs.keys()].some((attr) => !isNoiseAttribute(attr))) this.writeStartTag(name, AssetUrls.Keep);
        else this.tagWritten();
        return;
      case 'script':
      case 'style':
        // Script text (JSON-LD, `__NEXT_DATA__`) repeats the page or stamps the build, and styles are
        // presentation: dropped. An external script stays, its src normalised.
        if (!(selfClosing && this.foreignDepth > 0)) this.inScriptOrStyle = true;
        if (name === 'script' && this.attrs.get('src') !== undefined) this.writeStartTag(name, AssetUrls.DropQueryAndHashes);
        return;
      case 'meta':
        if (!this.meta()) {
          this.tagWritten();
          return;
        }
        break;
      case 'link':
        urls = this.link();
        break;
      case 'base':
        // HTML standard §4.2.3: the first base element with an href sets the document base URL; one in
        // a <template> is no part of the document, one in a <noscript> no element once scripts run.
        if (this.baseHref === undefined && !this.inert) this.baseHref = this.attrs.get('href');
        break;
      case 'img':
        urls = AssetUrls.DropQuery;
        if (this.wantImages) this.image();
        break;
      case 'source':
      case 'video':
      case 'audio':
        urls = AssetUrls.DropQuery;
        break;
      case 'astro-island':
        // Its `*-url` attributes name hashed chunks, like a script's src.
        urls = AssetUrls.DropQueryAndHashes;
        break;
    }

    const closes = IMPLIED_CLOSE.get(name);
    if (closes !== undefined) {
      while (this.stack.length > 0 && closes.has(this.stack[this.stack.length - 1] as string)) this.pop();
    }
    this.writeStartTag(name, urls);
    if (VOID_ELEMENTS.has(name) && this.foreignDepth === 0) return;
    this.push(name);
    // Self-closing is only honoured in SVG and MathML (HTML standard §13.2.6.5); `<div/>` opens a div.
    if (selfClosing && this.foreignDepth > 0) this.endTag(name);
  }

  /** Write the start tag with its kept attributes, sorted (their order is not content). */
  private writeStartTag(name: string, urls: AssetUrls): void {
    let kept: string[] | undefined;
    for (const [attr, raw] of this.attrs) {
      if (isNoiseAttribute(attr)) continue;
      let value = collapseWhitespace(raw);
      if (urls !== AssetUrls.Keep) {
        if (attr === 'src' || attr === 'href' || attr.endsWith('-url')) value = normalizeAssetUrl(value, urls);
        else if (attr === 'srcset' || attr === 'imagesrcset') value = normalizeSrcset(value, urls);
      }
      (kept ??= []).push(` ${attr}="${escapeAttribute(value)}"`);
    }
    this.tagWritten();
    // Names are unique here, so sorting the serialised pairs orders by name.
    this.parts.push(kept === undefined ? `<${name}>` : `<${name}${kept.sort().join('')}>`);
  }

  private push(name: string): void {
    this.stack.push(name);
    this.openCount.set(name, (this.openCount.get(name) ?? 0) + 1);
    if (name === 'svg' || name === 'math') this.foreignDepth++;
  }

  /** Pop the current element and write its end tag: implied or explicit, the tree is the same. */
  private pop(): void {
    const name = this.stack.pop() as string;
    this.openCount.set(name, (this.openCount.get(name) as number) - 1);
    if (name === 'svg' || name === 'math') this.foreignDepth--;
    this.tagWritten();
    this.parts.push(`</${name}>`);
  }

  private endTag(name: string): void {
    if (name === 'script' || name === 'style') {
      this.inScriptOrStyle = false;
      return;
    }
    // An end tag with nothing of its name open closes nothing, but still separates two texts.
    if (!this.isOpen(name)) {
      this.tagWritten();
      return;
    }
    // Elements left open inside it close with it (each write costs one pop: linear overall).
    while ((this.stack[this.stack.length - 1] as string) !== name) this.pop();
    this.pop();
  }

  /** Robots and refresh facts of a `<meta>`; false when the element is build noise. */
  private meta(): boolean {
    const content = this.attrs.get('content') ?? '';
    const name = this.attrs.get('name');
    // One in a <template> is inert (HTML standard §4.12.3: its content is no part of the document).
    const robots = NOINDEX_RE.test(content) && !this.isOpen('template');
    if (name !== undefined) {
      if (robots && ROBOTS_META_NAMES.has(trimAsciiWhitespace(name).toLowerCase())) this.noindex = true;
      if (isBuildMetaName(name)) return false;
    }
    const property = this.attrs.get('property');
    if (property !== undefined && isBuildMetaName(property)) return false;
    const httpEquiv = this.attrs.get('http-equiv');
    if (httpEquiv !== undefined) {
      const pragma = trimAsciiWhitespace(httpEquiv).toLowerCase();
      if (pragma === 'x-robots-tag') {
        if (robots) this.noindex = true;
      } else if (pragma === 'refresh' && this.refresh === undefined && !this.inert) {
        // The first refresh that parses counts (HTML standard §4.2.5.3); one in a <noscript> is a
        // fallback of a page that is no stub, one in a <template> is inert.
        this.refresh = parseRefresh(content);
      }
    }
    return true;
  }

  /** Canonical and hreflang facts of a `<link>`, and how its href enters the content. */
  private link(): AssetUrls {
    const rel = this.attrs.get('rel');
    if (rel === undefined) return AssetUrls.Keep;
    const rels = trimAsciiWhitespace(rel).toLowerCase().split(WHITESPACE_RUN_RE);
    const href = this.attrs.get('href');
    // Google reads canonical and hreflang links in the <head> only, and not in a <noscript> or <template>.
    if (this.inHead && !this.inert && href !== undefined && trimAsciiWhitespace(href) !== '') {
      if (rels.includes('canonical')) this.canonicals.push(href);
      const hreflang = this.attrs.get('hreflang');
      const type = this.attrs.get('type');
      // An alternate with a type other than HTML is a feed or a format, not a language version.
      const isHtml = type === undefined || trimAsciiWhitespace(type).toLowerCase() === 'text/html';
      if (hreflang !== undefined && isHtml && rels.includes('alternate')) {
        const lang = trimAsciiWhitespace(hreflang);
        if (lang !== '') this.alternates.push({ hreflang: lang, href });
      }
    }
    let urls = AssetUrls.Keep;
    for (const token of rels) {
      if (HASHED_LINK_RELS.has(token)) return AssetUrls.DropQueryAndHashes;
      if (ASSET_LINK_RELS.has(token)) urls = AssetUrls.DropQuery;
    }
    return urls;
  }

  private image(): void {
    const src = trimAsciiWhitespace(this.attrs.get('src') ?? '');
    if (src === '' || /^data:/i.test(src)) return;
    if (this.isOpen('main')) this.images.main.push(src);
    if (this.isOpen('article')) this.images.article.push(src);
    if (!(this.isOpen('header') || this.isOpen('nav') || this.isOpen('footer') || this.isOpen('aside'))) this.images.body.push(src);
  }

  facts(pageUrl: string): PageFacts {
    // HTML standard §4.2.3: the base element's href, resolved against the document URL; a bad one is ignored.
    const base = (this.baseHref !== undefined ? resolveUrl(this.baseHref, pageUrl, 'base') : undefined) ?? pageUrl;
    const facts: PageFacts = { noindex: this.noindex, alternates: [], images: [], content: this.parts.join('') };

    if (this.refresh !== undefined) {
      const { seconds, url } = this.refresh;
      facts.refresh = url === '' ? '' : (resolveUrl(url, base, 'refresh') ?? url);
      facts.refreshSeconds = seconds;
    }

    for (const href of this.canonicals) {
      const url = resolveUrl(href, base, 'canonical');
      if (url === undefined) continue;
      if (facts.canonical === undefined) facts.canonical = url;
      else if (url !== facts.canonical) facts.canonicalConflict = true;
    }

    // Each pair once, where it first appears.
    const alternates = new Map<string, PageAlternate>();
    for (const { hreflang, href } of this.alternates) {
      const url = resolveUrl(href, base, 'hreflang');
      if (url !== undefined) alternates.set(`${hreflang}\n${url}`, { hreflang, href: url });
    }
    facts.alternates = [...alternates.values()];

    // The main content: <main> if the page has one, else <article>, else the body without its chrome
    // (every element but html, head, body, script and style has a count once it was open).
    const { main, article, body } = this.images;
    const images = this.openCount.has('main') ? main : this.openCount.has('article') ? article : body;
    if (this.wantImages) facts.images = [...new Set(images.map((src) => resolveUrl(src, base, 'image:loc')).filter((url) => url !== undefined))];
    return facts;
  }
}

/**
 * Scan one built HTML page: robots noindex, meta refresh, canonical and hreflang links (head only, as
 * Google reads them), optionally the images of the main content, and the content normalised for change
 * detection. Never throws on content; time is linear in the page's length.
 *
 * @param pageUrl The page's absolute http(s) URL, the base of relative URLs (with its `<base href>`);
 *   anything else throws `ERR_SITEMAP_OPTION`.
 */
export function scanHtmlPage(html: string, pageUrl: string, options: ScanHtmlPageOptions = {}): PageFacts {
  let url: string;
  try {
    url = normalizeUrl(pageUrl, 'pageUrl');
  } catch (err) {
    if (!(err instanceof InvalidValueError)) throw err;
    throw new SitemapError('ERR_SITEMAP_OPTION', `scanHtmlPage() needs the page's absolute http(s) URL, got ${quoteValue(pageUrl)}: ${err.message}`);
  }
  const scanner = new PageScanner(html, options.images === true);
  const tokenizer = new Tokenizer({}, scanner);
  tokenizer.write(html);
  tokenizer.end();
  return scanner.facts(url);
}

/** How many bytes the prescan reads (HTML standard §13.2.3.2). */
export const HTML_PRESCAN_BYTES = 1024;

/**
 * The encoding of an HTML page's bytes, as a WHATWG name `TextDecoder` accepts: a BOM; else the first
 * usable `<meta charset>` or `http-equiv="Content-Type"` in the first `prescanBytes` bytes (the HTML
 * standard's prescan, §13.2.3.2; a longer reach finds a declaration the parser meets later, §13.2.6.4.4);
 * else `fallback` (UTF-8: what site generators write). ISO-8859-1 labels give `windows-1252`, as in browsers (Node
 * 20.18.3+ decodes its bytes 80–9F wrongly through `TextDecoder` without options: see read/sniff.ts).
 */
export function sniffHtmlEncoding(bytes: Uint8Array, prescanBytes = HTML_PRESCAN_BYTES, fallback = 'utf-8'): string {
  // The XML reader's BOM rule on three bytes: a fourth would take FF FE 00 00 for UTF-32, which HTML reads as UTF-16LE.
  const head = sniffEncoding(bytes.subarray(0, 3));
  if (head.source === 'bom') return head.encoding;
  return new EncodingPrescan(bytes, Math.min(prescanBytes, bytes.length)).encoding ?? fallback;
}

const SINGLE_BYTE = new TextDecoder('latin1');

/**
 * HTML standard §13.2.3.2 "prescan a byte stream to determine its encoding": the tokenizer, with the
 * content of script, style and title read as markup as the prescan reads it, finds the first `<meta>`
 * that declares a usable encoding (an unfinished tag at the end declares none).
 */
class EncodingPrescan extends TagReader implements TokenizerCallbacks {
  encoding: string | undefined;
  // Entities stay as written: the prescan reads bytes.
  private readonly tokenizer = new Tokenizer({ decodeEntities: false }, this);

  constructor(bytes: Uint8Array, end: number) {
    super('');
    // In growing steps, as decoding costs per byte and a declaration usually comes first. One
    // character per byte, lowercased: the prescan compares bytes ASCII-lowercased, and labels are ASCII.
    for (let at = 0, step = 256; at < end && this.encoding === undefined; at += step, step *= 2) {
      const chunk = SINGLE_BYTE.decode(bytes.subarray(at, Math.min(end, at + step))).toLowerCase();
      this.html += chunk;
      this.tokenizer.write(chunk);
    }
    this.tokenizer.end();
  }

  ontext(): void {}

  ontextentity(): void {}

  oncdata(): void {}

  onclosetag(): void {}

  onend(): void {}

  isInForeignContext(): boolean {
    return true;
  }

  protected startTag(): void {
    if (this.tagName !== 'meta') return;
    // `charset`, or a `content` naming a charset with `http-equiv="content-type"`: whichever comes first.
    const fromContent = charsetFromContentType(this.attrs.get('content') ?? '');
    const charset = this.attrs.get('charset');
    const names = [...this.attrs.keys()];
    let label: string | undefined;
    if (charset !== undefined && (fromContent === undefined || names.indexOf('charset') < names.indexOf('content'))) label = charset;
    else if (fromContent !== undefined && this.attrs.get('http-equiv') === 'content-type') label = fromContent;
    const encoding = label === undefined ? undefined : resolveEncodingLabel(label);
    // A meta tag is ASCII: a document it can be read from is not UTF-16 (the standard says so too).
    if (encoding === undefined) return;
    this.encoding = encoding === 'utf-16le' || encoding === 'utf-16be' ? 'utf-8' : encoding;
    this.tokenizer.pause();
  }
}

const CHARSET_PARAM = /charset[\t\n\f\r ]*=[\t\n\f\r ]*/;
const UNQUOTED_VALUE = /^[^\t\n\f\r ;]+/;

/** HTML standard §2.6.4 "extracting a character encoding from a meta element" (`value` is lowercased). */
function charsetFromContentType(value: string): string | undefined {
  // The first "charset" followed by "=" (whitespace around it allowed); then the value, quoted or not.
  const param = CHARSET_PARAM.exec(value);
  if (param === null) return undefined;
  const i = param.index + param[0].length;
  const quote = value.charAt(i);
  if (quote === '"' || quote === "'") {
    const close = value.indexOf(quote, i + 1);
    return close === -1 ? undefined : value.slice(i + 1, close);
  }
  return UNQUOTED_VALUE.exec(value.slice(i))?.[0];
}
