// A fetch handler over a sitemap set (issue 25). The Node adapter calls `answer`, the same answer as
// plain data: building a Request and a Response per request cost ~6× the throughput of node:http.
// Files are looked up by their path below the base, plain segments only, never reaching a file system,
// so path tricks (`..`, `%2e%2e`, `%2f`, NUL…) can only miss or name a file of the set.

import { parseHttpDate } from '../datetime.js';
import { comparableUrl, scopeOf } from '../url.js';
import { renderSetPage, setPagePolicy, type SetView } from './set-page.js';

/** One stored form of a file's content. */
export interface Representation {
  readonly body: Uint8Array;
  /** A strong entity tag, quoted (RFC 9110 §8.8.3): `"…"`. */
  readonly etag: string;
}

/** A form of a file's content read when it is sent: from a file on disk, or as it is being made (a live child). */
export interface StreamedRepresentation {
  /** A new stream of the bytes from the start. */
  stream(): ReadableStream<Uint8Array>;
  /** The strong entity tag and the length, when the bytes are known (not while they are being made: sent without). */
  readonly etag?: string;
  readonly length?: number;
}

/** A file of a set: its content plain, gzipped, or both. */
export interface SitemapFile {
  /** When the file's bytes last changed, in milliseconds since the epoch (never earlier). */
  readonly lastModified: number;
  /** The content itself (XML or text). */
  readonly identity?: Representation | StreamedRepresentation;
  /** The content gzipped: a `.xml.gz` file's bytes, or a precompressed copy of a `.xml` file. */
  readonly gzip?: Representation | StreamedRepresentation;
}

/** Where the handler finds files: only the names of a set. */
export interface SitemapSource {
  /** The file named `name` (`sitemap.xml`, `sitemap-00001.1a2b3c4d.xml.gz`), or undefined when the set has none. */
  file(name: string): SitemapFile | undefined | Promise<SitemapFile | undefined>;
  /** What the page for people shows (set-page.ts); a source without it has no page. */
  view?(): SetView | undefined | Promise<SetView | undefined>;
}

export interface SitemapHandlerOptions {
  source: SitemapSource;
  /** Where the set is served (`https://www.example.com/sitemaps/`), never taken from the Host header. Default: `/`. */
  baseUrl?: string;
  /** `Cache-Control` of sitemap responses (default `public, max-age=300`). */
  cacheControl?: string;
  /** `X-Robots-Tag: noindex` on sitemap responses (default true): sitemaps need not be in search results. */
  robotsHeader?: boolean;
  /** The name of the page showing the set to people (default `sitemap.html`), when the source offers a view; false: none. */
  page?: string | false;
}

/** An answer as plain data: what `toNodeListener` writes as it is. */
export interface SitemapAnswer {
  readonly status: number;
  /** Header names and values in one flat list: name, value, name, value… (shared between answers: do not change). */
  readonly headers: readonly string[];
  /** The body; absent for HEAD, 304 and errors without one. */
  readonly body?: Uint8Array | ReadableStream<Uint8Array>;
}

export interface SitemapHandler {
  (request: Request): Promise<Response>;
  /** The answer to `method` on `target` (a request-target); synchronous when the source is. */
  answer(method: string, target: string, header: (name: string) => string | string[] | undefined): SitemapAnswer | Promise<SitemapAnswer>;
}

const DEFAULT_CACHE_CONTROL = 'public, max-age=300';

/** The strong ETag of some bytes: the first 128 bits of their SHA-256, in hex. */
export async function strongEtag(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes), 0, 16);
  return `"${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}"`;
}

// How a file is answered: which bytes, under which headers.
const enum Variant {
  /** `.xml` or `.txt`, the identity bytes. */
  Plain,
  /** `.xml` to a client that accepts gzip: the gzip bytes with Content-Encoding. */
  Encoded,
  /** `.xml` to a client that does not, from gzip bytes only: decompressed as a stream. */
  Decoded,
  /** `.xml.gz`: the gzip file itself. */
  GzipFile,
}

/** A plain file name: no folder, no dotfile, nothing to decode. */
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function createSitemapHandler(options: SitemapHandlerOptions): SitemapHandler {
  const { source } = options;
  // A base URL that is no absolute http(s) URL is refused as liveSource refuses it (base-url/invalid).
  if (options.baseUrl !== undefined) scopeOf(options.baseUrl);
  const basePath = options.baseUrl === undefined ? '/' : new URL(options.baseUrl).pathname.replace(/[^/]*$/, '');
  const common = ['cache-control', options.cacheControl ?? DEFAULT_CACHE_CONTROL, 'x-content-type-options', 'nosniff'];
  if (options.robotsHeader ?? true) common.push('x-robots-tag', 'noindex');
  // Headers made once per file and variant, with the Last-Modified they send (the date compared is the date sent).
  const made = new WeakMap<SitemapFile, { lastModified: number; headers: (readonly string[] | undefined)[] }>();
  const madeFor = (file: SitemapFile): { lastModified: number; headers: (readonly string[] | undefined)[] } => {
    let kept = made.get(file);
    if (kept === undefined) made.set(file, (kept = { lastModified: lastModifiedOf(file), headers: [] }));
    return kept;
  };
  const pageName = options.page === false ? undefined : (options.page ?? 'sitemap.html');

  const headersOf = (file: SitemapFile, variant: Variant, name: string, notModified: boolean): readonly string[] => {
    const { lastModified, headers: list } = madeFor(file);
    const slot = variant * 2 + (notModified ? 1 : 0);
    const cached = list[slot];
    if (cached !== undefined) return cached;
    const etag = etagOf(file, variant);
    // A 304 carries only what updates a stored copy (RFC 9110 §15.4.5): Cache-Control, ETag, Vary, and
    // Last-Modified when there is no ETag. Fewer bytes, too: revalidations are most of a crawler's requests.
    const headers = notModified ? common.slice(0, 2) : [...common];
    if (etag !== undefined) headers.push('etag', etag);
    if (!notModified || etag === undefined) headers.push('last-modified', new Date(lastModified).toUTCString());
    if (variant !== Variant.GzipFile && file.gzip !== undefined) headers.push('vary', 'accept-encoding');
    if (!notModified) {
      if (name.endsWith('.html')) headers.push('content-security-policy', pagePolicy);
      headers.push('content-type', contentType(variant, name));
      if (variant === Variant.Encoded) headers.push('content-encoding', 'gzip');
      // Ranges of bytes in memory only; Content-Length last, as rangeAnswer replaces it.
      const sent = variant === Variant.Decoded ? undefined : sentOf(file, variant);
      if (sent !== undefined && 'body' in sent) headers.push('accept-ranges', 'bytes', 'content-length', String(sent.body.byteLength));
      else if (sent?.length !== undefined) headers.push('content-length', String(sent.length));
    }
    return (list[slot] = Object.freeze(headers));
  };

  const answerFile = (file: SitemapFile | undefined, name: string, method: string, header: HeaderGetter): SitemapAnswer => {
    if (file === undefined) return NOT_FOUND;
    if (method !== 'GET' && method !== 'HEAD') return METHOD_NOT_ALLOWED;
    const variant = variantOf(file, name, header);
    if (variant === undefined) return NOT_FOUND;
    const etag = etagOf(file, variant);
    const { lastModified } = madeFor(file);
    const precondition = evaluatePreconditions(etag, lastModified, header);
    if (precondition === 412) return PRECONDITION_FAILED;
    if (precondition === 304) return { status: 304, headers: headersOf(file, variant, name, true) };
    const headers = headersOf(file, variant, name, false);
    if (method === 'HEAD') return { status: 200, headers };
    const body = bodyOf(file, variant);
    const range = joined(header('range'));
    const ifRange = joined(header('if-range'));
    // Range on GET only (RFC 9110 §14.2), while If-Range, if any, is the strong tag of these bytes (§13.1.5). A date
    // never holds: it is strong only if the file cannot have changed twice within its second (§8.8.2.2), unknowable here.
    if (range === undefined || !(body instanceof Uint8Array) || (ifRange !== undefined && ifRange !== etag)) return { status: 200, headers, body };
    return rangeAnswer(range, body, headers) ?? { status: 200, headers, body };
  };

  const answerOf = (method: string, target: string, header: HeaderGetter): SitemapAnswer | Promise<SitemapAnswer> => {
    // Paths that name no file are 404 whatever the method, so that as middleware they go on to the app.
    const name = nameIn(target, basePath);
    if (name === undefined) return NOT_FOUND;
    // A `.xml` name may be served from the `.xml.gz` file of the same name (gzip negotiation).
    const lookup = (found: SitemapFile | undefined): SitemapAnswer | Promise<SitemapAnswer> => {
      if (found !== undefined || !name.endsWith('.xml')) return answerFile(found, name, method, header);
      return then(source.file(`${name}.gz`), (gz) => answerFile(gz?.gzip !== undefined ? gz : undefined, name, method, header));
    };
    try {
      const result =
        name === pageName && source.view !== undefined
          ? then(source.view(), async (view) => answerFile(view === undefined ? undefined : await pageOf(view), name, method, header))
          : then(source.file(name), lookup);
      // A source that failed: 503 with Retry-After (the error stays with the source, which may report it).
      return result instanceof Promise ? result.catch(() => SERVICE_UNAVAILABLE) : result;
    } catch {
      return SERVICE_UNAVAILABLE;
    }
  };
  // HEAD is answered as GET without the body (RFC 9110 §9.3.2), errors included.
  const answer = (method: string, target: string, header: HeaderGetter): SitemapAnswer | Promise<SitemapAnswer> => {
    const result = answerOf(method, target, header);
    return method === 'HEAD' ? then(result, ({ status, headers }) => ({ status, headers })) : result;
  };

  const handler = async (request: Request): Promise<Response> => responseOf(await answer(request.method, request.url, (name) => request.headers.get(name) ?? undefined));
  return Object.assign(handler, { answer });
}

function responseOf(answer: SitemapAnswer): Response {
  const pairs: [string, string][] = [];
  for (let i = 0; i < answer.headers.length; i += 2) pairs.push([answer.headers[i] as string, answer.headers[i + 1] as string]);
  return new Response(answer.body ?? null, { status: answer.status, headers: pairs });
}

// The page for people, made once per view (whichever handler asks), with the policy its script needs.
const pages = new WeakMap<SetView, Promise<SitemapFile>>();
let pagePolicy = '';

function pageOf(view: SetView): Promise<SitemapFile> {
  let page = pages.get(view);
  if (page !== undefined) return page;
  page = (async () => {
    pagePolicy = await setPagePolicy();
    const body = encoder.encode(renderSetPage(view, 'Sitemap'));
    return { lastModified: view.lastModified, identity: { body, etag: await strongEtag(body) } };
  })();
  pages.set(view, page);
  return page;
}

type HeaderGetter = (name: string) => string | string[] | undefined;

/** `value` passed to `f`, synchronously when it is not a promise. */
export function then<T, U>(value: T | Promise<T>, f: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** The file a request-target asks for: plain segments (a child in a subfolder) under `basePath`. */
function nameIn(target: string, basePath: string): string | undefined {
  const name = target.startsWith(basePath) ? target.slice(basePath.length) : '';
  if (/^(?:[A-Za-z0-9][A-Za-z0-9._-]*\/)*[A-Za-z0-9][A-Za-z0-9._-]*\.(?:xml|xml\.gz|txt|html)$/.test(name)) return name;
  // Else as a client's URL parser reads it (WHATWG; absolute-form too, RFC 9112 §3.2.2), so other spellings of a path answer
  // the same bytes, as with nginx (RFC 3986 §6.2.2): dot segments (`%2e` too) removed, unreserved characters decoded (§2.3);
  // `%2F`, `%5C`, `//` stay and miss. Controls and spaces, which it would drop, are no part of a request-target (§3.2).
  const absolute = /[\0- \x7f]/.test(target) ? '' : target.startsWith('/') ? `http://h${target}` : target;
  const path = URL.canParse(absolute) ? new URL(comparableUrl(absolute)).pathname : undefined;
  return path !== undefined && path !== target ? nameIn(path, basePath) : undefined;
}

function variantOf(file: SitemapFile, name: string, header: HeaderGetter): Variant | undefined {
  if (name.endsWith('.gz')) return file.gzip !== undefined ? Variant.GzipFile : undefined;
  if (file.gzip !== undefined && acceptsGzip(header('accept-encoding'))) return Variant.Encoded;
  if (file.identity !== undefined) return Variant.Plain;
  return file.gzip !== undefined ? Variant.Decoded : undefined;
}

/** The representation a variant sends bytes of: the identity one for Plain, else the gzip one. */
function sentOf(file: SitemapFile, variant: Variant): Representation | StreamedRepresentation {
  return (variant === Variant.Plain ? file.identity : file.gzip) as Representation | StreamedRepresentation;
}

function bodyOf(file: SitemapFile, variant: Variant): Uint8Array | ReadableStream<Uint8Array> {
  const sent = sentOf(file, variant);
  const body = 'stream' in sent ? sent.stream() : sent.body;
  if (variant !== Variant.Decoded) return body;
  return (body instanceof Uint8Array ? streamOf(body) : body).pipeThrough(new DecompressionStream('gzip'));
}

/** The strong tag of the bytes sent, or none while they are being made. */
function etagOf(file: SitemapFile, variant: Variant): string | undefined {
  if (variant === Variant.Plain) return file.identity?.etag;
  const gzip = file.gzip?.etag;
  // The decompressed bytes are a function of the gzip bytes: their tag is derived from it, and differs.
  return variant === Variant.Decoded && gzip !== undefined ? `${gzip.slice(0, -1)}-identity"` : gzip;
}

/** Last-Modified is never later than now (RFC 9110 §8.8.2.1), at whole seconds as the header carries it. */
function lastModifiedOf(file: SitemapFile): number {
  return Math.floor(Math.min(file.lastModified, Date.now()) / 1000) * 1000;
}

function contentType(variant: Variant, name: string): string {
  if (variant === Variant.GzipFile) return 'application/gzip';
  if (name.endsWith('.html')) return 'text/html; charset=utf-8';
  return name.endsWith('.txt') ? 'text/plain; charset=utf-8' : 'application/xml; charset=utf-8';
}

/**
 * Whether Accept-Encoding accepts gzip (RFC 9110 §12.5.3): the q above 0 of `gzip`, else of its alias
 * `x-gzip` (§8.4.1.3), else of `*`. A client refusing gzip and identity is sent identity, as nginx does.
 */
export function acceptsGzip(value: string | string[] | undefined): boolean {
  if (value === undefined) return false;
  let alias: number | undefined;
  let star: number | undefined;
  for (const item of (Array.isArray(value) ? value.join(',') : value).split(',')) {
    const [coding = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    // `q=` is 0 and `q=abc` NaN: neither above 0, refused as nginx does. A coding listed twice: its first entry.
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (coding === 'gzip') return weight > 0;
    if (coding === 'x-gzip') alias ??= weight;
    else if (coding === '*') star ??= weight;
  }
  return (alias ?? star ?? 0) > 0;
}

/** RFC 9110 §13.2.2: If-Match, else If-Unmodified-Since (412); then If-None-Match, else If-Modified-Since (304). */
function evaluatePreconditions(etag: string | undefined, lastModified: number, header: HeaderGetter): 200 | 304 | 412 {
  const ifMatch = joined(header('if-match'));
  if (ifMatch !== undefined) {
    if (!tagListMatches(ifMatch, etag, false)) return 412;
  } else {
    const since = parseHttpDate(joined(header('if-unmodified-since')));
    if (since !== undefined && lastModified > since) return 412;
  }
  const ifNoneMatch = joined(header('if-none-match'));
  if (ifNoneMatch !== undefined) return tagListMatches(ifNoneMatch, etag, true) ? 304 : 200;
  const since = parseHttpDate(joined(header('if-modified-since')));
  return since !== undefined && lastModified <= since ? 304 : 200;
}

/**
 * One byte range of `body` (RFC 9110 §14.1.2): 206, or 416 past the end; undefined (200) for what a
 * server may ignore (§14.2): another unit, a bad or backwards range, several ranges.
 */
function rangeAnswer(value: string, body: Uint8Array, headers: readonly string[]): SitemapAnswer | undefined {
  // Empty list elements around the one range are allowed (§5.6.1.2).
  const match = /^bytes=[\t ,]*(\d*)-(\d*)[\t ,]*$/i.exec(value);
  const [, from = '', to = ''] = match ?? [];
  if (match === null || (from === '' && to === '') || (from !== '' && to !== '' && Number(to) < Number(from))) return undefined;
  const size = body.byteLength;
  // A suffix (`-N`): the last N bytes; a last position past the end: the end.
  const first = from === '' ? Math.max(0, size - Number(to)) : Number(from);
  const last = from === '' || to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (first > last) return plainAnswer(416, 'range not satisfiable\n', ['content-range', `bytes */${size}`]);
  const partial = [...headers.slice(0, -2), 'content-range', `bytes ${first}-${last}/${size}`, 'content-length', String(last - first + 1)];
  return { status: 206, headers: partial, body: body.subarray(first, last + 1) };
}

function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Whether a list of entity tags (or `*`) matches `etag`: weak comparison for If-None-Match, strong for If-Match. */
function tagListMatches(list: string, etag: string | undefined, weak: boolean): boolean {
  if (list.trim() === '*') return true;
  for (const raw of list.split(',')) {
    const tag = raw.trim();
    if (tag === etag) return true;
    if (weak && tag.startsWith('W/') && tag.slice(2) === etag) return true;
  }
  return false;
}

/** Bytes as a stream. */
export function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new Response(bytes).body as ReadableStream<Uint8Array>;
}

const TEXT = ['content-type', 'text/plain; charset=utf-8', 'cache-control', 'no-store'];
const encoder = new TextEncoder();
const NOT_FOUND: SitemapAnswer = plainAnswer(404, 'not found\n', []);
const PRECONDITION_FAILED: SitemapAnswer = plainAnswer(412, 'precondition failed\n', []);
const METHOD_NOT_ALLOWED: SitemapAnswer = plainAnswer(405, 'method not allowed\n', ['allow', 'GET, HEAD']);
const SERVICE_UNAVAILABLE: SitemapAnswer = plainAnswer(503, 'the sitemap source failed; try again later\n', ['retry-after', '30']);

function plainAnswer(status: number, text: string, extra: string[]): SitemapAnswer {
  const body = encoder.encode(text);
  return { status, headers: Object.freeze([...TEXT, ...extra, 'content-length', String(body.byteLength)]), body };
}
