// robots.txt parsing (RFC 9309): the Sitemap lines discovery starts from, and the groups of rules
// (matched in ./match.ts). Tolerant like the big crawlers: LF, CRLF or a lone CR; a UTF-8 BOM skipped;
// keys in any case and with Google's typos; `key value` without a colon when exactly two words. Never
// throws on content: what cannot be used goes to `problems`.
//
// Groups (§2.1): consecutive user-agent lines start one, and a user-agent line after a rule (an empty
// `Disallow:` counts) starts the next; other lines (Sitemap, Crawl-delay, …) end nothing, as in Google's
// robots.cc.

import { SitemapError, quoteValue } from '../errors.js';
import { productToken } from './match.js';

/** An `Allow` or `Disallow` line of a group. */
export interface RobotsRule {
  allow: boolean;
  /** The path pattern as written (trimmed, comment removed); never empty. `*` and a final `$` are special. */
  pattern: string;
  /** 1-based line number. */
  line: number;
}

/** One group: the user-agents it is for and its rules (RFC 9309 §2.1). */
export interface RobotsGroup {
  /** Lowercased product tokens (`googlebot` for `Googlebot/2.1`, `mediapartners-google` for `Mediapartners-Google*`); `'*'` for any crawler. */
  userAgents: string[];
  rules: RobotsRule[];
  /** 1-based line number of the group's first user-agent line. */
  line: number;
}

/** A `Sitemap:` line that resolved to an http(s) URL. */
export interface RobotsSitemapLine {
  /** Absolute http(s) URL, resolved against the robots.txt URL (WHATWG `href`); no fragment: a `#` starts a comment. */
  url: string;
  /** 1-based line number. */
  line: number;
  /** The value as written (trimmed, comment removed). */
  raw: string;
}

/** The stable codes of robots.txt problems (docs/rules.md, "robots.txt"). */
export type RobotsTxtCode =
  | 'robots/user-agent-no-token'
  | 'robots/rule-before-user-agent'
  | 'robots/rule-pattern'
  | 'robots/sitemap-no-colon'
  | 'robots/sitemap-empty'
  | 'robots/sitemap-placeholder'
  | 'robots/sitemap-invalid'
  | 'robots/sitemap-scheme'
  | 'robots/sitemap-duplicate'
  | 'robots/sitemap-relative';

/** Something in the file that was skipped or deserves a look; `line` is 1-based. */
export interface RobotsTxtProblem {
  line: number;
  /** The kind of line it is about (a `Sitemap https://…` without its colon counts as `sitemap`). */
  directive: Directive;
  code: RobotsTxtCode;
  message: string;
  value: string;
}

export interface RobotsTxt {
  groups: RobotsGroup[];
  /** In file order, each URL once (the first line that names it). */
  sitemaps: RobotsSitemapLine[];
  problems: RobotsTxtProblem[];
}

/** RFC 9309 §2.5: the bytes a fetcher should read (at least 500 KiB); `parseRobotsTxt` parses whatever it is given. */
export const MAX_ROBOTS_BYTES = 500 * 1024;

export type Directive = 'user-agent' | 'allow' | 'disallow' | 'sitemap';

// Keys are compared lowercased. The misspellings are the ones Google's open-source parser accepts.
const SPELLINGS: Readonly<Record<Directive, readonly string[]>> = {
  'user-agent': ['user-agent', 'useragent', 'user agent'],
  allow: ['allow'],
  disallow: ['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'],
  sitemap: ['sitemap', 'site-map'],
};
const DIRECTIVES: ReadonlyMap<string, Directive> = new Map(Object.entries(SPELLINGS).flatMap(([directive, keys]) => keys.map((key) => [key, directive as Directive])));

/** The key of a Sitemap line written without its colon: `Sitemap https` (the URL's scheme follows). */
const MISSING_SITEMAP_COLON = /^(?:sitemap|site-map)[ \t\v\f]+[a-z][a-z0-9+.-]*$/;

/** A colon-less line whose first word is Sitemap. */
const SITEMAP_WORD_FIRST = /^(?:sitemap|site-map)[ \t\v\f]/i;

/** RFC 9309 §2.2: whitespace is SP and HTAB; VT and FF are trimmed too, they are never meaningful. */
function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c;
}

function trimBlank(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isBlank(s.charCodeAt(start))) start++;
  while (end > start && isBlank(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Split a comment-free, trimmed line into a lowercased key and its value, or undefined. */
function keyAndValue(line: string): [key: string, value: string] | undefined {
  const colon = line.indexOf(':');
  if (colon >= 0) return [trimBlank(line.slice(0, colon)).toLowerCase(), trimBlank(line.slice(colon + 1))];
  // No colon: Google accepts `Disallow /x`, but only when the line is exactly two words.
  const words = line.split(/[ \t\v\f]+/);
  if (words.length !== 2) return undefined;
  return [(words[0] as string).toLowerCase(), words[1] as string];
}

/** A user-agent value as a group member: `'*'` (also `* something`, as Google reads it), else its product token. */
function userAgentToken(value: string): string {
  if (value.charCodeAt(0) === 0x2a /* * */ && (value.length === 1 || isBlank(value.charCodeAt(1)))) return '*';
  return productToken(value);
}

/**
 * Parses robots.txt text. `robotsUrl`, the absolute URL it was fetched from, resolves relative Sitemap
 * values; anything else throws `ERR_SITEMAP_OPTION`.
 */
// eslint-disable-next-line max-lines-per-function -- mostly the line handler, a closure over the groups (RFC 9309 §2.1) and result it builds
export function parseRobotsTxt(text: string, robotsUrl: string): RobotsTxt {
  if (!URL.canParse(robotsUrl)) {
    throw new SitemapError('ERR_SITEMAP_OPTION', `parseRobotsTxt() needs the absolute URL of the robots.txt, got ${quoteValue(robotsUrl)}`);
  }
  const base = new URL(robotsUrl).href;

  const groups: RobotsGroup[] = [];
  const sitemaps: RobotsSitemapLine[] = [];
  const problems: RobotsTxtProblem[] = [];
  const sitemapLineByUrl = new Map<string, number>();

  let group: RobotsGroup | undefined;
  // The current group's tokens, looked up in one step (a hostile file names thousands).
  let groupAgents = new Set<string>();
  // Whether the current group has had an allow/disallow line: the next user-agent line then starts a new group.
  let groupHasRule = false;

  const handleLine = (rawLine: string, lineNo: number): void => {
    const hash = rawLine.indexOf('#'); // RFC 9309 §2.2: a comment may start anywhere on a line
    const line = trimBlank(hash >= 0 ? rawLine.slice(0, hash) : rawLine);
    if (line === '') return;
    const kv = keyAndValue(line);
    if (kv === undefined) {
      // `Sitemap {{ url }}`: no colon and more than two words, so crawlers skip the line. It was meant.
      if (SITEMAP_WORD_FIRST.test(line)) {
        const value = line.replace(/^\S+[ \t\v\f]+/, '');
        problems.push({ line: lineNo, directive: 'sitemap', code: 'robots/sitemap-no-colon', message: `no ":" after Sitemap and more than one word after it, so crawlers ignore the line; write "Sitemap: URL"`, value });
      }
      return;
    }
    const [key, value] = kv;
    const directive = DIRECTIVES.get(key);
    switch (directive) {
      case 'user-agent': {
        if (group === undefined || groupHasRule) {
          group = { userAgents: [], rules: [], line: lineNo };
          groups.push(group);
          groupAgents = new Set();
          groupHasRule = false;
        }
        const token = userAgentToken(value);
        if (token === '') {
          problems.push({ line: lineNo, directive: 'user-agent', code: 'robots/user-agent-no-token', message: 'user-agent value does not start with a product token (letters, digits, "_" and "-"); it matches no crawler', value });
        } else if (!groupAgents.has(token)) {
          groupAgents.add(token);
          group.userAgents.push(token);
        }
        return;
      }
      case 'allow':
      case 'disallow': {
        if (group === undefined) {
          // RFC 9309 §2.1: rules belong to the group of the user-agent lines before them; there is none.
          problems.push({ line: lineNo, directive, code: 'robots/rule-before-user-agent', message: `${directive} line before any user-agent line; ignored`, value });
          return;
        }
        groupHasRule = true;
        // RFC 9309 §2.2.2: an empty disallow allows everything, the same as no rule; an empty allow
        // matches with length 0 and can never beat another rule, so neither is kept.
        if (value === '') return;
        const first = value.charCodeAt(0);
        if (first !== 0x2f /* / */ && first !== 0x2a /* * */) {
          // RFC 9309 §2.2.2: paths start with "/"; such a pattern never matches (kept, as written).
          problems.push({ line: lineNo, directive, code: 'robots/rule-pattern', message: `${directive} pattern does not start with "/" or "*"; it matches no URL`, value });
        }
        group.rules.push({ allow: directive === 'allow', pattern: value, line: lineNo });
        return;
      }
      case 'sitemap':
        handleSitemap(value, lineNo);
        return;
      default:
        // `Sitemap https://…`: the URL's colon makes "sitemap https" the key, unknown to crawlers. Said.
        if (MISSING_SITEMAP_COLON.test(key)) {
          const url = line.replace(/^\S+[ \t\v\f]+/, ''); // the line without its first word: the URL as written
          problems.push({ line: lineNo, directive: 'sitemap', code: 'robots/sitemap-no-colon', message: `no ":" after Sitemap, so crawlers read the key as ${quoteValue(key)} and ignore the line; write "Sitemap: ${url}"`, value: url });
        }
        // Host, Crawl-delay, Clean-param, unknown keys: not ours, and they do not end a group.
        return;
    }
  };

  // RFC 9309 §2.2.4 and sitemaps.org: Sitemap lines are independent of groups, anywhere in the file.
  const handleSitemap = (value: string, lineNo: number): void => {
    const report = (code: RobotsTxtCode, message: string): void => {
      problems.push({ line: lineNo, directive: 'sitemap', code, message, value });
    };
    if (value === '') return report('robots/sitemap-empty', 'empty Sitemap value; ignored');
    // Past the blanks trimmed (§2.2), white space at an end (a pasted no-break space) is part of the URL crawlers request.
    if (/^\s|\s$/.test(value)) return report('robots/sitemap-invalid', 'Sitemap value starts or ends with a white space that is not a space or tab (a no-break space?), which crawlers request as part of the URL; ignored');
    // A CMS template shipped unrendered (Ghost's `{{blog-url}}/sitemap.xml`) would resolve to a path
    // under the robots.txt host that is certainly not the sitemap meant.
    if (TEMPLATE_RE.test(value)) return report('robots/sitemap-placeholder', 'Sitemap value contains an unrendered template placeholder; ignored');
    // RFC 3986 §4.2: a relative reference has no ":" before its first "/" (`<https://…>`, a URL in quotes).
    if (!URL.canParse(value, base) || (/^[^/?#]*:/.test(value) && !URL.canParse(value))) return report('robots/sitemap-invalid', 'Sitemap value is not a valid URL; ignored');
    const url = new URL(value, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return report('robots/sitemap-scheme', `Sitemap URL scheme ${url.protocol.slice(0, -1)} is not http or https; ignored`);
    }
    const href = url.href;
    const firstLine = sitemapLineByUrl.get(href);
    if (firstLine !== undefined) return report('robots/sitemap-duplicate', `duplicate Sitemap URL ${href}, first on line ${firstLine}; ignored`);
    // Relative: sitemaps.org asks for a full URL and Google ignores it, but many sites rely on it.
    if (!URL.canParse(value)) report('robots/sitemap-relative', `relative Sitemap URL (a full URL is expected); kept, resolved to ${href}`);
    sitemapLineByUrl.set(href, lineNo);
    sitemaps.push({ url: href, line: lineNo, raw: value });
  };

  // A leading BOM is not content.
  splitLines(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).forEach((line, k) => handleLine(line.content, k + 1));

  return { groups, sitemaps, problems };
}

/** A line without its line end, and the line end (`''` for a last line that has none). */
export interface Line {
  content: string;
  eol: string;
}

/** Split at LF, CRLF or a lone CR (RFC 9309 §2.2: EOL); edit.ts keeps each line end as it was. */
export function splitLines(body: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c !== 0x0a && c !== 0x0d) continue;
    const crlf = c === 0x0d && body.charCodeAt(i + 1) === 0x0a;
    lines.push({ content: body.slice(start, i), eol: crlf ? '\r\n' : c === 0x0d ? '\r' : '\n' });
    if (crlf) i++;
    start = i + 1;
  }
  if (start < body.length) lines.push({ content: body.slice(start), eol: '' });
  return lines;
}

// `{{ }}` (Handlebars, Mustache, Liquid, Jinja, Go), `{% %}` (Liquid, Jinja), `<% %>` (ERB, EJS, ASP).
const TEMPLATE_RE = /\{\{|\}\}|\{%|%\}|<%|%>/;
