// IRI (RFC 3987) → URI (RFC 3986) normalisation for every URL the writer emits, and the sitemap
// location scope. The path, query and fragment are encoded here, not by WHATWG URL, which turns `'`
// into `%27` in an http(s) query (not equivalent, RFC 3986 §2.2); `new URL()` only normalises the
// host (cached) and removes dot segments. A plainly normal ASCII URL takes a fast path, unchanged.

import { InvalidValueError, quoteValue } from './errors.js';
import { FINGERPRINT, fingerprint } from './fingerprint.js';
import { isAsciiWhitespace, trimAsciiWhitespace } from './ascii-whitespace.js';

/** sitemaps.org protocol: a `<loc>` "must be less than 2,048 characters" (Limits.maxLocLength). */
export const MAX_URL_LENGTH = 2_047;
/** sitemap.xsd's tLoc: minLength 12 (the shortest `http://a.bc/`). */
export const MIN_URL_LENGTH = 12;

/** Scheme, host, port and path prefix of a sitemap's location; what URLs it may list. */
export interface UrlScope {
  /** `http` or `https`. */
  scheme: string;
  /** Normalised host without the port (punycode, lower case; IPv6 in brackets). */
  host: string;
  /** The port as written in the normalised URL; `''` for the scheme's default port. */
  port: string;
  /** The base URL's path up to and including its last `/`. */
  pathPrefix: string;
  /** The normalised base URL. */
  href: string;
  /** `scheme://host[:port]pathPrefix`: a normalised URL that starts with it is in scope. */
  prefix: string;
}

// Plainly fine after the authority: RFC 3986 unreserved (§2.3), sub-delims (§2.2), ":@/?" (§3.3-3.5).
const NOT_PLAIN_RE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?]/;

/**
 * Path, query and fragment made strictly RFC 3986: unreserved, sub-delims, `:@/?`, the first `#` and
 * valid `%XX` kept; the rest percent-encoded as UTF-8, upper-case hex (RFC 3987 §3.1, RFC 3986 §2.1),
 * a stray `%` as `%25`, a backslash as `%5C`. Throws URIError for a lone surrogate.
 */
function encodeAfterAuthority(s: string): string {
  if (!NOT_PLAIN_RE.test(s)) return s;
  // encodeURI keeps exactly unreserved, sub-delims, ":@/?" and "#", and encodes "[", "]" and every "%".
  let out = encodeURI(s);
  // RFC 3986 §2.1: keep the valid escapes "%" HEXDIG HEXDIG as written.
  if (s.includes('%')) out = out.replace(/%25([0-9A-Fa-f]{2})/g, '%$1');
  // RFC 3986 §3.5: the first "#" starts the fragment; a later one is data.
  const hash = out.indexOf('#');
  if (hash !== -1 && out.indexOf('#', hash + 1) !== -1) {
    out = out.slice(0, hash + 1) + out.slice(hash + 1).replaceAll('#', '%23');
  }
  return out;
}

// Lower-case http(s); a host of lower-case [a-z0-9-] labels whose last starts with a letter (WHATWG
// reads a host "ending in a number" as IPv4), or an IPv4 address as WHATWG writes it; an optional
// port; then a path, query and fragment of RFC 3986 characters without "%". One `test` without
// captures, then indexOf checks: measured fastest on Node 20 (a charCodeAt scanner was slower).
const FAST_AFTER_HOST = String.raw`(?::\d{1,5})?(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)?(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)?)?$`;
const FAST_RE = new RegExp(String.raw`^https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*\.?` + FAST_AFTER_HOST);
// Tried only when FAST_RE fails: a host name costs no more for it.
const FAST_IPV4_RE = new RegExp(String.raw`^https?:\/\/(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)` + FAST_AFTER_HOST);

// RFC 3986 §5.2.4: "." and ".." segments (a hit inside the query only sends the URL to the slow path).
const DOT_SEGMENT_RE = /\/\.\.?(?:[/?#]|$)/;

/** The normalised URL when `s` (already trimmed) is plainly normal, else undefined. */
function fastPath(s: string): string | undefined {
  if (!FAST_RE.test(s) && !FAST_IPV4_RE.test(s)) return undefined;
  // IDNA decodes and checks "xn--" labels (a hit in the path only costs time).
  if (s.includes('xn--')) return undefined;
  const https = s.charCodeAt(4) === 0x73;
  // FAST_RE: the authority runs up to the first "/" after "scheme://", or to the end.
  const slash = s.indexOf('/', https ? 8 : 7);
  const colon = s.indexOf(':', https ? 8 : 7);
  if (colon !== -1 && (slash === -1 || colon < slash)) {
    const port = s.slice(colon + 1, slash === -1 ? s.length : slash);
    if (port.length > 1 && port.charCodeAt(0) === 0x30) return undefined; // a leading zero: WHATWG drops it
    const p = Number(port);
    if (p > 65535) return undefined;
    // RFC 3986 §6.2.3: the scheme's default port is omitted.
    if (p === (https ? 443 : 80)) return undefined;
  }
  if (slash === -1) return `${s}/`; // WHATWG: the empty path of an http(s) URL is "/"
  if (s.indexOf('/.', slash) !== -1 && DOT_SEGMENT_RE.test(s)) return undefined;
  return s;
}

// RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
const SCHEME_RE = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const AUTHORITY_RE = /[^/?#]*/y;

// A normalised host RFC 3986 allows: a reg-name (§3.2.2; WHATWG leaves no `%` in a domain) or an IP
// literal. WHATWG URL also takes `"`, `` ` ``, `{` and `}`.
const HOST_RE = /^(?:[a-z0-9\-._~!$&'()*+,;=]+|\[[0-9a-f:.]+\])$/;

function hideCredentials(s: string): string {
  // Show the user name, not the password, in messages.
  return s.replace(/^([^:]*:\/\/[^:@/?#]*):[^@/?#]*@/, '$1:***@');
}

function invalid(field: string, input: string, reason: string): InvalidValueError {
  return new InvalidValueError('loc/invalid', field, input, `${quoteValue(input)} is not a valid URL: ${reason}`);
}

/**
 * RFC 3986 §5.2.2 (strict): the target of relative reference `ref` (no scheme) against the normalised
 * absolute URL `base`. Dot segments are left for WHATWG URL to remove, as for absolute input.
 */
function resolveReference(ref: string, base: string): string {
  // Both match: `base` is a normalised http(s) URL, and every part of the reference is optional.
  const [, scheme, authority, basePath = '', baseQuery = ''] = /^(https?:)(\/\/[^/?#]*)([^?#]*)(\?[^#]*)?/.exec(base) as RegExpExecArray;
  const [, refAuthority, path = '', query, fragment = ''] = /^(\/\/[^/?#]*)?([^?#]*)(\?[^#]*)?(#[\s\S]*)?$/.exec(ref) as RegExpExecArray;
  if (refAuthority !== undefined) return `${scheme}${refAuthority}${path}${query ?? ''}${fragment}`;
  if (path === '') return `${scheme}${authority}${basePath}${query ?? baseQuery}${fragment}`;
  if (path.charCodeAt(0) === 0x2f) return `${scheme}${authority}${path}${query ?? ''}${fragment}`;
  // §5.2.3 merge: the base path up to and including its last "/", then the reference's path.
  const dir = basePath.slice(0, basePath.lastIndexOf('/') + 1) || '/';
  return `${scheme}${authority}${dir}${path}${query ?? ''}${fragment}`;
}

// Base URLs repeat for every entry of a run; remember the last one normalised.
let lastBaseInput: string | undefined;
let lastBaseHref = '';

function normalizeBase(base: string): string {
  if (base === lastBaseInput) return lastBaseHref;
  let href: string;
  try {
    href = normalize(base, '--base-url', undefined, MAX_URL_LENGTH, true);
  } catch (err) {
    // The base has no base to resolve against: "not absolute" is the reason, without loc's hint.
    const reason = !(err instanceof InvalidValueError) ? String(err) : err.rule === 'loc/not-absolute' ? 'it has no scheme: write https://…' : err.message;
    const message = `--base-url ${quoteValue(hideCredentials(base))} is not a valid http(s) URL (${reason})`;
    throw new InvalidValueError('base-url/invalid', '--base-url', base, message);
  }
  lastBaseInput = base;
  lastBaseHref = href;
  return href;
}

function slowPath(s: string, input: string, field: string, base: string | undefined): string {
  let m = SCHEME_RE.exec(s);
  if (m === null) {
    if (base === undefined) {
      const message = `${quoteValue(s)} is not an absolute URL; give --base-url or write the full URL`;
      throw new InvalidValueError('loc/not-absolute', field, input, message);
    }
    s = resolveReference(s, normalizeBase(base)); // cached: normalize() checked the base already
    m = SCHEME_RE.exec(s) as RegExpExecArray; // the base's http(s)
  }
  // RFC 3986 §3.1: schemes are case-insensitive; the canonical form is lower case.
  const scheme = (m[1] as string).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    // sitemaps.org protocol: URLs in a sitemap are http or https.
    const message = `${quoteValue(hideCredentials(s))} uses the scheme "${scheme}"; a sitemap lists only http and https URLs`;
    throw new InvalidValueError('loc/unsupported-scheme', field, input, message);
  }
  let i = m[0].length;
  if (s.charCodeAt(i) !== 0x2f || s.charCodeAt(i + 1) !== 0x2f) {
    throw invalid(field, input, `write it as ${scheme}://host/path`);
  }
  i += 2;
  // RFC 3986 §3.2: the authority ends at the next "/", "?" or "#".
  AUTHORITY_RE.lastIndex = i;
  AUTHORITY_RE.test(s);
  const end = AUTHORITY_RE.lastIndex;
  const authority = s.slice(i, end);
  if (authority === '') throw invalid(field, input, 'it has no host');
  if (authority.includes('@')) {
    // RFC 3986 §3.2.1 userinfo; RFC 3986 §7.5 discourages passwords in URIs.
    const message = `${quoteValue(hideCredentials(s))} contains a user name or password; URLs with credentials do not belong in a sitemap`;
    throw new InvalidValueError('loc/credentials', field, input, message);
  }
  // WHATWG URL would drop tabs and newlines and read "\" as "/"; either would change the host.
  if (/[\x00-\x20\x7f\\]/.test(authority)) {
    throw invalid(field, input, 'the host contains a space, a control character or a backslash');
  }
  const origin = originOf(scheme, authority, field, input);
  let rest: string;
  try {
    rest = encodeAfterAuthority(s.slice(end));
  } catch {
    // WHATWG URL would write U+FFFD for it: another URL than the one meant, with nothing said.
    throw invalid(field, input, 'it contains half of a UTF-16 surrogate pair, which is no character');
  }
  // The path ends at the first "?" or "#" (RFC 3986 §3.3).
  let q = rest.indexOf('?');
  const hash = rest.indexOf('#');
  if (q === -1 || (hash !== -1 && hash < q)) q = hash;
  if (q === -1) q = rest.length;
  let path = rest.slice(0, q);
  if (path === '') {
    path = '/'; // WHATWG: the empty path of an http(s) URL is "/"
  } else if (MAYBE_DOT_SEGMENT_RE.test(path)) {
    // RFC 3986 §5.2.4 remove_dot_segments by WHATWG URL ("%2e" too); nothing else in the clean path changes,
    // and a path cannot fail to parse after an origin that parsed (the WHATWG path state has no failure).
    path = new URL(origin + path).pathname;
  }
  return origin + path + rest.slice(q);
}

// Any segment starting with "." or "%2e" may be a dot segment.
const MAYBE_DOT_SEGMENT_RE = /\/(?:\.|%2e)/i;

// Normalised `scheme://host[:port]` by `scheme://authority` as written; the last one is checked first
// (comparing two short strings is cheaper than hashing a new key).
const originCache = new Map<string, string>();
const ORIGIN_CACHE_SIZE = 1_000;
let lastScheme = '';
let lastAuthority = '';
let lastOrigin = '';

function originOf(scheme: string, authority: string, field: string, input: string): string {
  if (authority === lastAuthority && scheme === lastScheme) return lastOrigin;
  const key = `${scheme}://${authority}`;
  const origin = originCache.get(key) ?? newOrigin(key, scheme, authority, field, input);
  lastScheme = scheme;
  lastAuthority = authority;
  lastOrigin = origin;
  return origin;
}

function newOrigin(key: string, scheme: string, authority: string, field: string, input: string): string {
  let url: URL;
  try {
    url = new URL(`${key}/`);
  } catch {
    throw invalid(field, input, `the host or port ${quoteValue(authority)} is not valid`);
  }
  if (!HOST_RE.test(url.hostname)) {
    throw invalid(field, input, `the host ${quoteValue(url.hostname)} has characters RFC 3986 does not allow`);
  }
  // url.host: lower case, IDNA → punycode, IPv4/IPv6 canonical, no default port (RFC 3986 §6.2.2, §6.2.3).
  const origin = `${scheme}://${url.host}`;
  if (originCache.size >= ORIGIN_CACHE_SIZE) originCache.clear();
  originCache.set(key, origin);
  return origin;
}

function normalize(input: string, field: string, base: string | undefined, maxLength: number, allowFast: boolean): string {
  if (typeof input !== 'string') throw invalid(field, input, 'it is not a string');
  // The base is checked even when the input is absolute, so a bad --base-url fails on the first entry.
  if (base !== undefined) normalizeBase(base);
  let s = input;
  const n = s.length;
  if (n === 0 || isAsciiWhitespace(s.charCodeAt(0)) || isAsciiWhitespace(s.charCodeAt(n - 1))) {
    s = trimAsciiWhitespace(s);
  }
  if (s === '') {
    throw new InvalidValueError('loc/empty', field, input, `${field} is empty; give an absolute http(s) URL`);
  }
  const out = (allowFast ? fastPath(s) : undefined) ?? slowPath(s, input, field, base);
  if (out.length > maxLength) {
    // sitemaps.org protocol: `<loc>` must be less than 2,048 characters.
    const message = `${quoteValue(out)} is ${out.length} characters long once normalised; at most ${maxLength} are allowed`;
    throw new InvalidValueError('loc/too-long', field, input, message);
  }
  return out;
}

/**
 * Normalise an IRI (RFC 3987) to the URI (RFC 3986) a sitemap carries: trims ASCII whitespace, resolves
 * a relative reference against `base`, lower-cases scheme and host, punycode for IDN hosts, no default
 * port or dot segments, and percent-encodes (UTF-8, upper-case hex) what RFC 3986 does not allow after
 * the host. Valid `%XX` escapes and everything else are kept as written.
 *
 * Throws {@link InvalidValueError}: `loc/empty`, `loc/not-absolute`, `loc/unsupported-scheme`,
 * `loc/credentials`, `loc/invalid`, `loc/too-long`, or `base-url/invalid`.
 * @param field The field the value came from, for errors (`loc`, `image:loc`, ...).
 * @param base An absolute http(s) URL against which relative input is resolved.
 * @param maxLength The longest result accepted (sitemaps.org protocol: less than 2,048 characters).
 */
export function normalizeUrl(input: string, field = 'loc', base?: string, maxLength: number = MAX_URL_LENGTH): string {
  return normalize(input, field, base, maxLength, true);
}

// The scheme and authority of the last URL unusableUrl found usable: a sitemap's URLs mostly share one.
let usableOrigin = '\0';

/**
 * Why no browser or crawler can fetch `url` as written, with a hint, or undefined: anything but an
 * absolute http(s) URL, and what WHATWG URL refuses though RFC 3986 and the schemas take it (a port past
 * 65535, a host ending in a number that is no IPv4 address, an `xn--` label that is not punycode).
 */
export function unusableUrl(url: string): { why: string; hint: string } | undefined {
  // The same authority (it ends where RFC 3986 §3.2 ends it): http(s) paths never fail to parse.
  // lastIndexOf(…, 0), not startsWith: measured ~3× faster on Node 20.
  const c = url.charCodeAt(usableOrigin.length);
  if ((c !== c || c === 0x2f || c === 0x3f || c === 0x23) && url.lastIndexOf(usableOrigin, 0) === 0) return undefined;
  const origin = /^https?:\/\/([^/?#]*)/i.exec(url);
  if (origin === null) return { why: 'it is not an absolute http(s) URL', hint: 'write the full URL, with scheme and host (https://example.com/…)' };
  if (URL.canParse(url)) {
    usableOrigin = origin[0];
    return undefined;
  }
  const hostPort = (origin[1] as string).replace(/^.*@/, '');
  // The port follows the host (user information comes before '@'); an IPv6 address sits in brackets, its ':'s no port's.
  const [, host = hostPort, port] = /^(\[[^\]]*\]|[^:]*)(?::([0-9]*))?$/.exec(hostPort) ?? [];
  if (Number(port) > 65_535) return { why: `its port ${port} is past 65535`, hint: 'a port is a number from 0 to 65535' };
  if (host.startsWith('[')) {
    return { why: `its host ${quoteValue(host)} is not an IPv6 address in brackets`, hint: "an IPv6 address is hex groups split by ':' (eight, or fewer with one ::), closed by ']'; URL parsers take no zone (%eth0) or other form in brackets" };
  }
  // WHATWG URL: a host whose last label (a final dot aside) is a number (digits, or 0x and hex) is parsed as an IPv4 address.
  if (/(?:^|\.)(?:[0-9]+|0x[0-9a-f]*)\.?$/i.test(host)) {
    return { why: `its host ${quoteValue(host)} ends in a number, so it is read as an IPv4 address, and it is not one`, hint: 'an IPv4 address is four numbers from 0 to 255; a host name cannot end in a number' };
  }
  return { why: `URL parsers refuse its host ${quoteValue(host)}`, hint: 'write the host as registered: an xn-- label must be valid punycode (IDNA), and a host holds no space or escape of a character a host cannot have' };
}

/** `not a URL: "…"`, with why URL parsers refuse it where unusableUrl can say. */
export function notAUrl(text: string): string {
  const why = unusableUrl(text)?.why;
  return `not a URL: ${JSON.stringify(text)}${why === undefined ? '' : ` (${why})`}`;
}

/** @internal normalizeUrl without the fast path, for tests that compare the two. */
export function _normalizeUrlSlow(input: string, field = 'loc', base?: string, maxLength: number = MAX_URL_LENGTH): string {
  return normalize(input, field, base, maxLength, false);
}

/** @internal The fast path alone, for tests. */
export { fastPath as _fastPath };

// A normalised http(s) URL: scheme, host (reg-name or IP literal), port, path.
const NORMALISED_RE = /^(https?):\/\/(\[[^\]/?#]*\]|[^:/?#]*)(?::(\d*))?(\/[^?#]*)?/;

function partsOf(m: RegExpExecArray): { scheme: string; host: string; port: string; path: string } {
  return { scheme: m[1] as string, host: m[2] as string, port: m[3] ?? '', path: m[4] ?? '/' };
}

/**
 * The scope of a sitemap located at `baseUrl` (sitemaps.org, "Sitemap file location": same scheme, host
 * and port, under the same directory). Throws {@link InvalidValueError} `base-url/invalid` if `baseUrl`
 * is not a valid absolute http(s) URL.
 */
export function scopeOf(baseUrl: string): UrlScope {
  const href = normalizeBase(baseUrl);
  const { scheme, host, port, path } = partsOf(NORMALISED_RE.exec(href) as RegExpExecArray); // a normalised http(s) URL always matches
  const pathPrefix = path.slice(0, path.lastIndexOf('/') + 1);
  return { scheme, host, port, pathPrefix, href, prefix: `${scheme}://${host}${port === '' ? '' : `:${port}`}${pathPrefix}` };
}

/**
 * Why the normalised URL `url` lies outside `scope`, or undefined when it is inside.
 * Host comparison is exact: `www.example.com` and `example.com` are different hosts.
 */
export function scopeViolation(url: string, scope: UrlScope): string | undefined {
  // Normalised URLs spell scheme, host and port one way only, so a prefix match settles the usual case.
  if (url.startsWith(scope.prefix)) return undefined;
  const m = NORMALISED_RE.exec(url);
  if (m === null) return `${quoteValue(url)} is not an absolute http(s) URL`;
  const { scheme, host, port, path } = partsOf(m);
  if (scheme !== scope.scheme) return `scheme ${quoteValue(scheme)} differs from the base URL's ${quoteValue(scope.scheme)}`;
  if (host !== scope.host) return `host ${quoteValue(host)} differs from the base URL's ${quoteValue(scope.host)}`;
  if (port !== scope.port) return `port ${port || '(default)'} differs from the base URL's ${scope.port || '(default)'}`;
  if (!normalizeEscapes(path).startsWith(normalizeEscapes(scope.pathPrefix))) return `path ${quoteValue(path)} is outside ${quoteValue(scope.pathPrefix)}`;
  return undefined;
}

/**
 * The form two equivalent URLs share (RFC 3986 §6.2.2, §6.2.3), for comparing URLs kept as written:
 * escapes normalised, then normalizeUrl's form (or as written, when normalizeUrl refuses it).
 */
export function comparableUrl(url: string): string {
  const escaped = normalizeEscapes(url);
  // The fast path takes no "%": it judges the URL with each (normalised) escape as "~", which is to it
  // as any unreserved character; "%2E" is decoded already, so no dot segment hides behind one.
  const probe = escaped.includes('%') ? escaped.replace(/%[0-9A-F]{2}/g, '~') : escaped;
  const fast = fastPath(probe);
  if (fast !== undefined) return fast.length === probe.length ? escaped : `${escaped}/`;
  try {
    return normalize(escaped, 'loc', undefined, Infinity, false);
  } catch {
    return escaped;
  }
}

/** The form a set's dedupe compares a normalised loc in: comparableUrl's, or the loc itself without a "%" (nothing to normalise). */
export function dedupeKey(loc: string): string {
  return loc.includes('%') ? comparableUrl(loc) : loc;
}

// Escapes that normalizeEscapes changes: a lower-case hex digit, or an unreserved character
// (RFC 3986 §2.3: A-Z 41-5A, a-z 61-7A, 0-9 30-39, "-" 2D, "." 2E, "_" 5F, "~" 7E).
const NON_NORMAL_ESCAPE_RE = /%(?:[0-9A-Fa-f][a-f]|[a-f][0-9A-F]|[46][1-9A-F]|[57][0-9A]|3[0-9]|2[DE]|5F|7E)/;
const ESCAPE_RE = /%[0-9A-Fa-f]{2}/g;
const UNRESERVED_RE = /[A-Za-z0-9\-._~]/;

/** Escapes in upper case (RFC 3986 §6.2.2.1: `%c3%a9` is `%C3%A9`), unreserved ones decoded (§6.2.2.2: `%7E` is `~`). */
function normalizeEscapes(s: string): string {
  if (!s.includes('%') || !NON_NORMAL_ESCAPE_RE.test(s)) return s;
  return s.replace(ESCAPE_RE, (escape) => {
    const char = String.fromCharCode(parseInt(escape.slice(1), 16));
    return UNRESERVED_RE.test(char) ? char : escape.toUpperCase();
  });
}

/**
 * The fingerprint of the loc's comparableUrl (`url`, when the caller has it; RFC 3986 §6.2): `locHash`
 * when the reader had it and the loc is in that form already, else computed into FINGERPRINT.
 */
export function locFingerprint(loc: string, locHash?: Int32Array, url = comparableUrl(loc)): Int32Array {
  if (locHash !== undefined && url === loc) return locHash;
  fingerprint(url);
  return FINGERPRINT;
}
