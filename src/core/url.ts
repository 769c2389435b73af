// IRI (RFC 3987) → URI (RFC 3986) normalisation for every URL the writer emits, and the sitemap
// location scope (scheme, host, port, path prefix). Pure: only the global `URL` class is used.
//
// Split of work: this module splits the input itself (scheme, authority, rest) and percent-encodes the
// path, query and fragment itself; `new URL()` normalises the host (lower case, IDNA → punycode,
// IPv4/IPv6 forms, default port; cached per authority) and removes dot segments from paths that may
// have some. The query and fragment never go through WHATWG URL, which turns `'` into `%27` in the
// query of http(s) URLs: RFC 3986 allows `'` there and `%27` is not equivalent to it (§2.2).
// A plainly normal ASCII URL takes a fast path that returns it unchanged.

import { InvalidValueError, quoteValue } from './errors.js';

/** sitemaps.org protocol: `<loc>` must be less than 2,048 characters. */
export const MAX_URL_LENGTH = 2_047;

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
}

// ---------------------------------------------------------------------------------------------------
// Character tables

// RFC 3986 §2.3 unreserved, §2.2 sub-delims, and the gen-delims allowed after the authority:
// pchar = unreserved / pct-encoded / sub-delims / ":" / "@" (§3.3); query and fragment add "/" and "?"
// (§3.4, §3.5). `[` and `]` are allowed only in the host (§3.2.2); `#` only as the fragment delimiter.
const ALLOWED_AFTER_AUTHORITY = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?") {
  ALLOWED_AFTER_AUTHORITY[ch.charCodeAt(0)] = 1;
}

// RFC 3986 §2.1: uppercase hexadecimal digits for the escapes we produce.
const PCT: string[] = [];
for (let i = 0; i < 256; i++) PCT.push(`%${i.toString(16).toUpperCase().padStart(2, '0')}`);

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isAsciiWhitespace(c: number): boolean {
  // WHATWG Infra "ASCII whitespace": TAB, LF, FF, CR, SPACE.
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

function trimAsciiWhitespace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isAsciiWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isAsciiWhitespace(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}

/** UTF-8 bytes of one code point, percent-encoded (RFC 3987 §3.1 step 2). */
function pctUtf8(cp: number): string {
  if (cp < 0x80) return PCT[cp] as string;
  if (cp < 0x800) return (PCT[0xc0 | (cp >> 6)] as string) + PCT[0x80 | (cp & 0x3f)];
  if (cp < 0x10000) {
    return (PCT[0xe0 | (cp >> 12)] as string) + PCT[0x80 | ((cp >> 6) & 0x3f)] + PCT[0x80 | (cp & 0x3f)];
  }
  return (
    (PCT[0xf0 | (cp >> 18)] as string) +
    PCT[0x80 | ((cp >> 12) & 0x3f)] +
    PCT[0x80 | ((cp >> 6) & 0x3f)] +
    PCT[0x80 | (cp & 0x3f)]
  );
}

/**
 * Make everything after the authority (path, query, fragment) strictly RFC 3986: keep unreserved,
 * sub-delims, `:@/?`, the first `#` and valid `%XX` escapes as written; percent-encode everything
 * else as UTF-8 with uppercase hex. A `%` not followed by two hex digits becomes `%25`. A lone
 * surrogate becomes U+FFFD, as WHATWG URL does. A backslash is data here (`%5C`), not a `/`.
 */
function encodeAfterAuthority(s: string): string {
  let out = '';
  let last = 0;
  let seenHash = false;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (ALLOWED_AFTER_AUTHORITY[c] === 1) continue;
      // RFC 3986 §2.1: a percent-encoded octet is "%" HEXDIG HEXDIG; keep it as written.
      if (c === 0x25 && isHexDigit(s.charCodeAt(i + 1)) && isHexDigit(s.charCodeAt(i + 2))) {
        i += 2;
        continue;
      }
      // RFC 3986 §3.5: the first "#" starts the fragment; any later one is data.
      if (c === 0x23 && !seenHash) {
        seenHash = true;
        continue;
      }
      out += s.slice(last, i) + (PCT[c] as string);
      last = i + 1;
      continue;
    }
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        width = 2;
      } else {
        cp = 0xfffd;
      }
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      cp = 0xfffd;
    }
    out += s.slice(last, i) + pctUtf8(cp);
    i += width - 1;
    last = i + 1;
  }
  return last === 0 ? s : out + s.slice(last);
}

// ---------------------------------------------------------------------------------------------------
// Fast path

// Lower-case http(s); a host of non-empty lower-case labels of [a-z0-9-], an optional trailing dot,
// the last label starting with a letter (WHATWG parses a host "ending in a number" as IPv4); an
// optional port; then nothing, or a path of RFC 3986 characters without `%`, an optional query and
// fragment. No whitespace, no backslash, no non-ASCII, no uppercase in the host. (One regular
// expression measured faster than a hand-written charCodeAt scanner on Node 20.)
const FAST_RE =
  /^https?:\/\/((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*\.?)(?::(\d{1,5}))?(\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)?(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)?)?$/;

// RFC 3986 §5.2.4: "." and ".." segments (a hit inside the query only sends the URL to the slow path).
const DOT_SEGMENT_RE = /\/\.\.?(?:[/?#]|$)/;

/** The normalised URL when `s` (already trimmed) is plainly normal, else undefined. */
function fastPath(s: string): string | undefined {
  const m = FAST_RE.exec(s);
  if (m === null) return undefined;
  // IDNA decodes and checks `xn--` labels.
  if ((m[1] as string).includes('xn--')) return undefined;
  const port = m[2];
  if (port !== undefined) {
    if (port.length > 1 && port.charCodeAt(0) === 0x30) return undefined; // a leading zero: WHATWG drops it
    const p = Number(port);
    if (p > 65535) return undefined;
    // RFC 3986 §6.2.3: the scheme's default port is omitted.
    if (p === (s.charCodeAt(4) === 0x73 ? 443 : 80)) return undefined;
  }
  const path = m[3];
  if (path === undefined) return `${s}/`; // WHATWG: the empty path of an http(s) URL is "/"
  if (DOT_SEGMENT_RE.test(path)) return undefined;
  return s;
}

// ---------------------------------------------------------------------------------------------------
// Slow path

// RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
const SCHEME_RE = /^([A-Za-z][A-Za-z0-9+.-]*):/;

// What RFC 3986 allows in a host after normalisation: a reg-name (§3.2.2: unreserved / sub-delims;
// WHATWG never leaves a `%` in a domain) or an IP literal in brackets. WHATWG URL accepts `"`, `` ` ``,
// `{` and `}` in hosts; RFC 3986 does not.
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
  const b = /^(https?:)(\/\/[^/?#]*)([^?#]*)(\?[^#]*)?/.exec(base);
  const r = /^(\/\/[^/?#]*)?([^?#]*)(\?[^#]*)?(#[\s\S]*)?$/.exec(ref);
  if (b === null || r === null) return ref;
  const [, scheme, authority, basePath = '', baseQuery = ''] = b;
  const [, refAuthority, path = '', query, fragment = ''] = r;
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
    const reason = err instanceof InvalidValueError ? err.message : String(err);
    throw new InvalidValueError(
      'base-url/invalid',
      '--base-url',
      base,
      `--base-url ${quoteValue(base)} is not a valid http(s) URL (${reason})`,
    );
  }
  lastBaseInput = base;
  lastBaseHref = href;
  return href;
}

function slowPath(s: string, input: string, field: string, base: string | undefined): string {
  let m = SCHEME_RE.exec(s);
  if (m === null) {
    if (base === undefined) {
      throw new InvalidValueError(
        'loc/not-absolute',
        field,
        input,
        `${quoteValue(s)} is not an absolute URL; give --base-url or write the full URL`,
      );
    }
    s = resolveReference(s, normalizeBase(base));
    m = SCHEME_RE.exec(s);
    if (m === null) throw invalid(field, input, 'it cannot be resolved against the base URL');
  }
  // RFC 3986 §3.1: schemes are case-insensitive; the canonical form is lower case.
  const scheme = (m[1] as string).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    // sitemaps.org protocol: URLs in a sitemap are http or https.
    throw new InvalidValueError(
      'loc/unsupported-scheme',
      field,
      input,
      `${quoteValue(hideCredentials(s))} uses the scheme "${scheme}"; a sitemap lists only http and https URLs`,
    );
  }
  let i = m[0].length;
  if (s.charCodeAt(i) !== 0x2f || s.charCodeAt(i + 1) !== 0x2f) {
    throw invalid(field, input, `write it as ${scheme}://host/path`);
  }
  i += 2;
  // RFC 3986 §3.2: the authority ends at the next "/", "?" or "#".
  let end = i;
  while (end < s.length) {
    const c = s.charCodeAt(end);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    end++;
  }
  const authority = s.slice(i, end);
  if (authority === '') throw invalid(field, input, 'it has no host');
  if (authority.includes('@')) {
    // RFC 3986 §3.2.1 userinfo; RFC 3986 §7.5 discourages passwords in URIs.
    throw new InvalidValueError(
      'loc/credentials',
      field,
      input,
      `${quoteValue(hideCredentials(s))} contains a user name or password; URLs with credentials do not belong in a sitemap`,
    );
  }
  // WHATWG URL would drop tabs and newlines and read "\" as "/"; either would change the host.
  if (/[\x00-\x20\x7f\\]/.test(authority)) {
    throw invalid(field, input, 'the host contains a space, a control character or a backslash');
  }
  const origin = originOf(scheme, authority, field, input);
  const rest = encodeAfterAuthority(s.slice(end));
  let q = 0;
  while (q < rest.length) {
    const c = rest.charCodeAt(q);
    if (c === 0x3f || c === 0x23) break;
    q++;
  }
  let path = rest.slice(0, q);
  if (path === '') {
    path = '/'; // WHATWG: the empty path of an http(s) URL is "/"
  } else if (MAYBE_DOT_SEGMENT_RE.test(path)) {
    // RFC 3986 §5.2.4 remove_dot_segments, as WHATWG URL does it (it also reads "%2e" as "."). The path
    // is already RFC 3986 clean, so URL changes nothing else in it.
    try {
      path = new URL(origin + path).pathname;
    } catch {
      throw invalid(field, input, 'its path cannot be parsed');
    }
  }
  return origin + path + rest.slice(q);
}

// Any segment starting with "." or "%2e" may be a dot segment.
const MAYBE_DOT_SEGMENT_RE = /\/(?:\.|%2e)/i;

// Normalised `scheme://host[:port]` by `scheme://authority` as written; hosts repeat across entries.
const originCache = new Map<string, string>();
const ORIGIN_CACHE_SIZE = 1_000;

function originOf(scheme: string, authority: string, field: string, input: string): string {
  const key = `${scheme}://${authority}`;
  const cached = originCache.get(key);
  if (cached !== undefined) return cached;
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
  if (typeof input !== 'string') {
    throw new InvalidValueError('loc/invalid', field, input, `${quoteValue(input)} is not a valid URL: it is not a string`);
  }
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
    throw new InvalidValueError(
      'loc/too-long',
      field,
      input,
      `${quoteValue(out)} is ${out.length} characters long once normalised; at most ${maxLength} are allowed`,
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Public API

/**
 * Normalise an IRI (RFC 3987) to the URI (RFC 3986) a sitemap carries: trims ASCII whitespace,
 * resolves a relative reference against `base`, lower-cases scheme and host, converts IDN hosts to
 * punycode, drops the default port, removes dot segments, and percent-encodes (UTF-8, uppercase hex)
 * every character RFC 3986 does not allow in the path, query and fragment. Valid `%XX` escapes are
 * kept as written; nothing else changes (query parameters keep their order).
 *
 * Throws {@link InvalidValueError} with code `loc/empty`, `loc/not-absolute`, `loc/unsupported-scheme`,
 * `loc/credentials`, `loc/invalid` or `loc/too-long`; `base-url/invalid` when `base` is not usable.
 *
 * @param field The field the value came from, for errors (`loc`, `image:loc`, ...).
 * @param base An absolute http(s) URL against which relative input is resolved.
 * @param maxLength The longest result accepted (sitemaps.org protocol: less than 2,048 characters).
 */
export function normalizeUrl(input: string, field = 'loc', base?: string, maxLength: number = MAX_URL_LENGTH): string {
  return normalize(input, field, base, maxLength, true);
}

/** @internal normalizeUrl without the fast path, for tests that compare the two. */
export function _normalizeUrlSlow(input: string, field = 'loc', base?: string, maxLength: number = MAX_URL_LENGTH): string {
  return normalize(input, field, base, maxLength, false);
}

/** @internal The fast path alone: the result for plainly normal URLs, else undefined. */
export function _fastPath(input: string): string | undefined {
  return fastPath(input);
}

// A normalised http(s) URL: scheme, host (reg-name or IP literal), port, path.
const NORMALISED_RE = /^(https?):\/\/(\[[^\]/?#]*\]|[^:/?#]*)(?::(\d*))?(\/[^?#]*)?/;

/**
 * The scope of a sitemap located at `baseUrl`. sitemaps.org protocol, "Sitemap file location": a
 * sitemap at http://example.com/catalog/sitemap.xml may include URLs starting with
 * http://example.com/catalog/ only — same scheme, host and port, under the same directory.
 *
 * Throws {@link InvalidValueError} `base-url/invalid` (field `--base-url`) if `baseUrl` is not a
 * valid absolute http(s) URL.
 */
export function scopeOf(baseUrl: string): UrlScope {
  const href = normalizeBase(baseUrl);
  const m = NORMALISED_RE.exec(href);
  if (m === null) {
    throw new InvalidValueError('base-url/invalid', '--base-url', baseUrl, `--base-url ${quoteValue(baseUrl)} is not a valid http(s) URL`);
  }
  const path = m[4] ?? '/';
  return {
    scheme: m[1] as string,
    host: m[2] as string,
    port: m[3] ?? '',
    pathPrefix: path.slice(0, path.lastIndexOf('/') + 1),
    href,
  };
}

/**
 * Why the normalised URL `url` lies outside `scope`, or undefined when it is inside.
 * Host comparison is exact: `www.example.com` and `example.com` are different hosts.
 */
export function scopeViolation(url: string, scope: UrlScope): string | undefined {
  const m = NORMALISED_RE.exec(url);
  if (m === null) return `${quoteValue(url)} is not an absolute http(s) URL`;
  const scheme = m[1] as string;
  const host = m[2] as string;
  const port = m[3] ?? '';
  const path = m[4] ?? '/';
  if (scheme !== scope.scheme) return `scheme ${quoteValue(scheme)} differs from the base URL's ${quoteValue(scope.scheme)}`;
  if (host !== scope.host) return `host ${quoteValue(host)} differs from the base URL's ${quoteValue(scope.host)}`;
  if (port !== scope.port) return `port ${port || '(default)'} differs from the base URL's ${scope.port || '(default)'}`;
  if (!path.startsWith(scope.pathPrefix)) return `path ${quoteValue(path)} is outside ${quoteValue(scope.pathPrefix)}`;
  return undefined;
}
