// Whether a crawler may fetch a URL under a parsed robots.txt (RFC 9309 §2.2).
//
// Group choice (§2.2.1): every group naming our product token (case-insensitively) counts, merged;
// failing that, every `*` group, merged; failing that, everything is allowed. A matching group with
// no rules allows everything: it does not fall back to `*`.
//
// Rule choice (§2.2.2): the matching rule with the most octets in its pattern wins; on a tie, allow.
// No matching rule: allowed. `/robots.txt` itself is always allowed.
//
// Percent-encoding: both the pattern and the URL's path+query are brought to one form before
// comparing (RFC 3986 §6.2.2 normalisation, which is what RFC 9309 §2.2.2 asks for): `%xx` of an
// unreserved character is decoded, other `%xx` get uppercase hex, octets that may not appear in a URI
// (non-ASCII as UTF-8, space, controls, `"<>\^`{|}`) are encoded, and a stray `%` becomes `%25`.
// Reserved characters (`/`, `?`, `=`, …) stay as they are on both sides: encoding them would make
// `%2F` and `/` equal, which RFC 3986 §2.2 says they are not. The two exceptions are `*` and `$`,
// which are operators in patterns: in the path they are always compared as `%2A` and `%24`, and a
// `$` that does not end a pattern is literal (`%24`). So `Disallow: /file-%2A.html` matches the path
// `/file-*.html`, as in RFC 9309 §2.2.3.
//
// Wildcards are matched without backtracking: the pattern is split at `*` and each piece is found at
// its leftmost position after the previous one (greedy leftmost is exact for prefix matching), so a
// pattern like `/a*a*a*a*b` costs O(path length × pattern length) at worst, never exponential time.

import { SitemapError, quoteValue } from '../errors.js';
import type { RobotsTxt } from './robots-txt.js';

/**
 * The product token of a User-Agent string, lowercased: its leading letters, digits, `_` and `-`.
 * `'sitemapkit/0.1.0 (+https://…)'` → `'sitemapkit'`; `'Mozilla/5.0'` → `'mozilla'`; `''` when the
 * string does not start with one. RFC 9309 §2.2.1 allows only letters, `_` and `-` in a crawler's
 * token; digits are accepted too so that robots.txt lines such as `User-agent: AI2Bot` or
 * `360Spider` keep their whole name instead of matching a crawler called `ai` (as Google's does).
 */
export function productToken(userAgent: string): string {
  let start = 0;
  while (start < userAgent.length && (userAgent.charCodeAt(start) === 0x20 || userAgent.charCodeAt(start) === 0x09)) start++;
  let end = start;
  while (end < userAgent.length && isProductTokenChar(userAgent.charCodeAt(end))) end++;
  return userAgent.slice(start, end).toLowerCase();
}

function isProductTokenChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
}

/** Whether `userAgent` may fetch `url` (an absolute URL, or a path starting with `/`; else `ERR_SITEMAP_OPTION`). */
export function isAllowed(robots: RobotsTxt, userAgent: string, url: string): boolean {
  return robotsMatcher(robots, userAgent)(url);
}

/**
 * A checker for one crawler: picks the groups and normalises their patterns once, for checking many
 * URLs. The returned function takes an absolute URL or a path starting with `/` and throws
 * `ERR_SITEMAP_OPTION` for anything that is neither.
 */
export function robotsMatcher(robots: RobotsTxt, userAgent: string): (url: string) => boolean {
  const rules = compileRules(robots, productToken(userAgent));
  return (url) => {
    const target = pathAndQuery(url);
    if (target.path === '/robots.txt') return true; // RFC 9309 §2.2.2: implicitly allowed
    if (rules.length === 0) return true;
    return decide(rules, normalizeRobotsPath(target.pathAndQuery, false));
  };
}

/**
 * Whether a robots.txt path pattern matches the start of `pathAndQuery`, both taken as written and
 * normalised as described at the top of this file. The pattern's priority is not considered.
 */
export function robotsPatternMatches(pattern: string, pathAndQuery: string): boolean {
  return matchesCompiled(compilePattern(pattern), normalizeRobotsPath(pathAndQuery, false));
}

interface CompiledRule {
  allow: boolean;
  /** Octets of the normalised pattern (RFC 9309 §2.2.2 "most octets"): the rule's priority. */
  length: number;
  /** The pattern split at `*`; the first piece must start the path. */
  pieces: string[];
  /** The pattern ended in `$`: the last piece must end the path. */
  anchored: boolean;
}

function compileRules(robots: RobotsTxt, token: string): CompiledRule[] {
  let chosen = token === '' || token === '*' ? [] : robots.groups.filter((g) => g.userAgents.includes(token));
  if (chosen.length === 0) chosen = robots.groups.filter((g) => g.userAgents.includes('*'));
  const out: CompiledRule[] = [];
  for (const group of chosen) {
    for (const rule of group.rules) out.push({ allow: rule.allow, ...compilePattern(rule.pattern) });
  }
  return out;
}

function compilePattern(pattern: string): Omit<CompiledRule, 'allow'> {
  const normalized = normalizeRobotsPath(pattern, true);
  const anchored = normalized.endsWith('$');
  const body = anchored ? normalized.slice(0, -1) : normalized;
  // Priority counts the pattern's octets as written: a literal `$` is one octet, though it is
  // compared as `%24` (every `$` but a final one became exactly that).
  let literalDollars = 0;
  for (let i = pattern.indexOf('$'); i >= 0 && i < pattern.length - 1; i = pattern.indexOf('$', i + 1)) literalDollars++;
  return { length: normalized.length - 2 * literalDollars, pieces: body.split('*'), anchored };
}

/** RFC 9309 §2.2.2: the longest matching pattern wins, allow on a tie; nothing matching: allowed. */
function decide(rules: readonly CompiledRule[], path: string): boolean {
  let bestLength = -1;
  let allowed = true;
  for (const rule of rules) {
    if (rule.length < bestLength || (rule.length === bestLength && (allowed || !rule.allow))) continue;
    if (!matchesCompiled(rule, path)) continue;
    bestLength = rule.length;
    allowed = rule.allow;
  }
  return allowed;
}

/**
 * Prefix match with `*` (any run of characters) and an optional end anchor. Each piece is taken at
 * its leftmost occurrence after the previous piece: if any placement matches, the leftmost one does,
 * since it leaves the most room for the pieces after it.
 */
function matchesCompiled(rule: Pick<CompiledRule, 'pieces' | 'anchored'>, path: string): boolean {
  const { pieces, anchored } = rule;
  const first = pieces[0] as string;
  if (!path.startsWith(first)) return false;
  const lastIndex = pieces.length - 1;
  if (lastIndex === 0) return !anchored || path.length === first.length;
  let pos = first.length;
  for (let i = 1; i < lastIndex; i++) {
    const piece = pieces[i] as string;
    const found = path.indexOf(piece, pos);
    if (found < 0) return false;
    pos = found + piece.length;
  }
  const last = pieces[lastIndex] as string;
  if (anchored) return path.length - last.length >= pos && path.endsWith(last);
  return path.indexOf(last, pos) >= 0;
}

const DUMMY_BASE = 'http://robots.invalid/';

/** The path (for the `/robots.txt` check) and the path+query the rules are matched against. */
function pathAndQuery(url: string): { path: string; pathAndQuery: string } {
  // An absolute URL, or a path (resolved against a dummy origin). Not a relative reference such as
  // `a.html` or `www.example.com/a` (resolved, it would be matched as a path it does not name), nor
  // a URL without a path (`mailto:`).
  const absoluteOrPath = typeof url === 'string' && (url.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(url));
  const parsed = absoluteOrPath && URL.canParse(url, DUMMY_BASE) ? new URL(url, DUMMY_BASE) : undefined;
  if (parsed === undefined || !parsed.pathname.startsWith('/')) {
    throw new SitemapError('ERR_SITEMAP_OPTION', `robots.txt matching needs an absolute URL or a path, got ${quoteValue(url)}`);
  }
  parsed.hash = '';
  // `search` is '' both for no query and for a bare `?`; the href tells them apart.
  const query = parsed.search === '' && parsed.href.endsWith('?') ? '?' : parsed.search;
  return { path: parsed.pathname, pathAndQuery: parsed.pathname + query };
}

const HEX = '0123456789ABCDEF';

// Printable ASCII allowed as is in a URI (RFC 3986 §2.2 reserved and §2.3 unreserved), except `%`
// (handled apart) and `*` `$` (operators in patterns).
const KEEP = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!&'()+,;=") KEEP[ch.charCodeAt(0)] = 1;

function isUnreserved(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

function pct(octet: number): string {
  return `%${HEX[octet >> 4]}${HEX[octet & 15]}`;
}

/**
 * The comparison form of a path+query (`isPattern` false) or of a rule pattern (`isPattern` true),
 * as described at the top of this file. The result is ASCII, so its length is its length in octets.
 */
export function normalizeRobotsPath(text: string, isPattern: boolean): string {
  // Fast path: nothing to change.
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if ((c >= 128 || KEEP[c] !== 1) && !(isPattern && c === 0x2a)) break;
    i++;
  }
  if (i === n) return text;

  let out = text.slice(0, i);
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (KEEP[c] === 1) {
        out += text[i];
      } else if (c === 0x25 /* % */) {
        const hi = hexValue(text.charCodeAt(i + 1));
        const lo = hexValue(text.charCodeAt(i + 2));
        if (hi < 0 || lo < 0) {
          out += '%25';
          continue;
        }
        const octet = hi * 16 + lo;
        out += isUnreserved(octet) ? String.fromCharCode(octet) : pct(octet);
        i += 2;
      } else if (isPattern && c === 0x2a) {
        out += '*';
      } else if (isPattern && c === 0x24 && i === n - 1) {
        out += '$'; // the end anchor
      } else {
        out += pct(c);
      }
      continue;
    }
    // Non-ASCII: its UTF-8 octets escaped (encodeURIComponent: upper-case hex); a lone surrogate
    // becomes U+FFFD as in WHATWG URL.
    const cp = text.codePointAt(i) as number;
    if (cp > 0xffff) i++;
    out += encodeURIComponent(cp >= 0xd800 && cp <= 0xdfff ? '\uFFFD' : String.fromCodePoint(cp));
  }
  return out;
}
