// Whether a crawler may fetch a URL under a parsed robots.txt (RFC 9309 §2.2). Groups (§2.2.1): those
// naming our product token, merged, else the `*` ones; a matching group without rules allows all.
// Rules (§2.2.2): the longest matching pattern wins, allow on a tie; none: allowed; `/robots.txt` always.
//
// Pattern and path+query are compared in one form (RFC 3986 §6.2.2): `%xx` of an unreserved character
// decoded, other `%xx` upper-case, octets not allowed in a URI (non-ASCII as UTF-8, space, controls,
// `"<>\^`{|}`) encoded, a stray `%` as `%25`. Reserved characters stay (`%2F` is not `/`). A path's `*`
// and `$`, and a pattern's `$` that does not end it, are `%2A` and `%24`: `Disallow: /file-%2A.html`
// matches `/file-*.html` (§2.2.3). Wildcards match without backtracking: each piece at its leftmost
// place after the previous one (exact for prefix matching), so `/a*a*a*b` is O(path × pattern).

import { SitemapError, quoteValue } from '../errors.js';
import type { RobotsTxt } from './robots-txt.js';

/**
 * The product token of a User-Agent string, lowercased: its leading letters, digits, `_` and `-`
 * (`'sitemapkit/0.1.0 (+https://…)'` → `'sitemapkit'`). RFC 9309 §2.2.1 has no digits; they are
 * accepted so that `AI2Bot` or `360Spider` keep their whole name (as Google's parser does).
 */
export function productToken(userAgent: string): string {
  return (/^[ \t]*([A-Za-z0-9_-]*)/.exec(userAgent)?.[1] ?? '').toLowerCase();
}

/**
 * The product token a crawler sending `userAgent` obeys (RFC 9309 §2.2.1): the NAME of a browser-style
 * `(compatible; NAME/1.0)`, as Googlebot obeys `Googlebot` (never `Mozilla`) in Google's parser; else its first.
 */
export function crawlerToken(userAgent: string): string {
  return productToken(/\bcompatible;([^;)]*)/i.exec(userAgent)?.[1] ?? userAgent);
}

/** Whether `userAgent` may fetch `url` (an absolute URL, or a path starting with `/`; else `ERR_SITEMAP_OPTION`). */
export function isAllowed(robots: RobotsTxt, userAgent: string, url: string): boolean {
  return robotsMatcher(robots, userAgent)(url);
}

/** A checker for one crawler, its groups picked and patterns normalised once; takes what `isAllowed` takes. */
export function robotsMatcher(robots: RobotsTxt, userAgent: string): (url: string) => boolean {
  const rules = compileRules(robots, crawlerToken(userAgent));
  return (url) => {
    const target = pathAndQuery(url);
    if (target.path === '/robots.txt') return true; // RFC 9309 §2.2.2: implicitly allowed
    if (rules.length === 0) return true;
    return decide(rules, normalizeRobotsPath(target.pathAndQuery, false));
  };
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
  return chosen.flatMap((group) => group.rules.map((rule) => ({ allow: rule.allow, ...compilePattern(rule.pattern) })));
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

/** Prefix match with `*` and an optional end anchor, each piece at its leftmost place (see the top of this file). */
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
  // An absolute URL, or a path; not a relative reference (`a.html` would be matched as a path it does
  // not name), nor a URL without a path (`mailto:`).
  const absoluteOrPath = typeof url === 'string' && (url.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(url));
  const parsed = absoluteOrPath && URL.canParse(url, DUMMY_BASE) ? new URL(url, DUMMY_BASE) : undefined;
  if (parsed === undefined || !parsed.pathname.startsWith('/')) {
    throw new SitemapError('ERR_SITEMAP_OPTION', `robots.txt matching needs an absolute URL or a path, got ${quoteValue(url)}`);
  }
  return { path: parsed.pathname, pathAndQuery: parsed.pathname + writtenQuery(url) };
}

/**
 * The query of `url` as written, a bare `?` too: WHATWG URL writes an http(s) query's `'` as `%27`, another
 * URL (RFC 3986 §2.2). Tabs and newlines are dropped and the end is trimmed of controls and spaces, as there.
 */
function writtenQuery(url: string): string {
  const start = url.indexOf('?');
  const hash = url.indexOf('#');
  if (start === -1 || (hash !== -1 && hash < start)) return '';
  let end = hash === -1 ? url.length : hash;
  if (hash === -1) while (url.charCodeAt(end - 1) <= 0x20) end--;
  return url.slice(start, end).replace(/[\t\n\r]/g, '');
}

const HEX = '0123456789ABCDEF';

// Printable ASCII allowed as is in a URI (RFC 3986 §2.2 reserved and §2.3 unreserved), except `%`
// (handled apart) and `*` `$` (operators in patterns).
const KEEP = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!&'()+,;=") KEEP[ch.charCodeAt(0)] = 1;

function pct(octet: number): string {
  return `%${HEX[octet >> 4]}${HEX[octet & 15]}`;
}

/** The comparison form of a path+query or of a rule pattern (see the top of this file); ASCII, so length = octets. */
export function normalizeRobotsPath(text: string, isPattern: boolean): string {
  let out = '';
  /** Where the characters not yet copied to `out` start: those kept as they are are copied in runs. */
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A pattern's `*`, and its `$` at the end (the end anchor), are operators: kept.
    if (c < 128 && (KEEP[c] === 1 || (isPattern && (c === 0x2a || (c === 0x24 && i === text.length - 1))))) continue;
    out += text.slice(from, i);
    if (c === 0x25 /* % */) {
      const hex = text.slice(i + 1, i + 3);
      const octet = /^[0-9A-Fa-f]{2}$/.test(hex) ? parseInt(hex, 16) : -1;
      // An unreserved character (RFC 3986 §2.3) decoded; a stray `%` escaped itself.
      out += octet < 0 ? '%25' : /[\w.~-]/.test(String.fromCharCode(octet)) ? String.fromCharCode(octet) : pct(octet);
      if (octet >= 0) i += 2;
    } else if (c < 128) {
      out += pct(c);
    } else {
      // Non-ASCII: its UTF-8 octets escaped (encodeURIComponent: upper-case hex); a lone surrogate
      // becomes U+FFFD as in WHATWG URL.
      const cp = text.codePointAt(i) as number;
      if (cp > 0xffff) i++;
      out += encodeURIComponent(cp >= 0xd800 && cp <= 0xdfff ? '\uFFFD' : String.fromCodePoint(cp));
    }
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
