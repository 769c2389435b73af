// Plain-text input: one URL per line; blank lines and `#` comments are skipped. A line is taken as
// written (an absolute http(s) URL or a path from the site root) or refused, with what to do where it
// looks like something known: repairing it into a URL would publish one nobody asked for.

import { show } from '../errors.js';
import { knownColumnOf } from './csv.js';

/** A text line that was read: the URL or path to write, or why the line was refused. */
export type TextLine = { loc: string; error?: undefined } | { error: string; loc?: undefined };

/** The format of an input, as `sniffInputFormat` recognises it. */
export type SniffedFormat = 'text' | 'csv' | 'tsv' | 'jsonl';

const HTTP_URL_RE = /^https?:\/\//i;
const SCHEME_RE = /^([A-Za-z][A-Za-z0-9+.-]*):/;
// What is left of a URL once its scheme is dropped: a host name with a dot, a port, then a path or the end.
const BARE_HOST_RE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+([A-Za-z]{2,63})\.?(?::\d{1,5})?(?:[/?#]|$)/;
// `page.html` has the shape of a host name too, but its last label is a file name's extension.
const FILE_EXTENSION_RE = /^(?:html?|xhtml|php\d?|aspx?|jsp|cgi|xml|txt|pdf|jpe?g|png|gif|svg|webp|css|js|json|gz)$/i;
// Whitespace as String.prototype.trim knows it, and C0/C1 controls: none stands in a URL (RFC 3986 §2).
const NOT_IN_URL_RE = /[\s\uFEFF\x00-\x1f\x7f-\x9f]/;
// Printable ASCII without the space: most lines are all of it, and this test is several times faster.
const NOT_PRINTABLE_ASCII_RE = /[^!-~]/;

const CHARACTER_NAMES: Readonly<Record<string, string>> = {
  ' ': 'a space',
  '\t': 'a tab',
  '\u00a0': 'a no-break space',
  '\u3000': 'an ideographic space',
  '\u2028': 'a line separator',
  '\u2029': 'a paragraph separator',
  '\ufeff': 'a byte order mark',
};

function characterName(c: string): string {
  const known = CHARACTER_NAMES[c];
  if (known !== undefined) return known;
  const code = (c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
  return /\s/.test(c) ? `a white space (U+${code})` : `a control character (U+${code})`;
}

const quote = (s: string): string => show(s, 200);

/** What a line that is another input format's first is said to look like. */
const LOOKS_LIKE = { jsonl: 'looks like JSON Lines: use --input-format jsonl', csv: 'looks like a CSV header: use --input-format csv', tsv: 'looks like a TSV header: use --input-format tsv' } as const;

/** The fields of a header line split at `separator`, unquoted and trimmed, lower case. */
function headerNames(line: string, separator: string): string[] {
  return line.split(separator).map((f) => {
    const t = f.trim();
    return (t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t).trim().toLowerCase();
  });
}

/** Whether a header names the loc column: by `locName` (from `--columns loc=NAME`), or by a common name. */
function namesLoc(names: readonly string[], locName: string | undefined): boolean {
  const wanted = locName?.trim().toLowerCase();
  return names.some((name) => (wanted !== undefined ? name === wanted : knownColumnOf(name) === 'loc'));
}

/**
 * What the first non-blank line of an input looks like: `jsonl` for a JSON object, `tsv` or `csv` for a
 * header naming the loc column (`locName`, from `--columns loc=NAME`, or a common name; `csv` also
 * separated by semicolons), else `text`.
 */
export function sniffInputFormat(line: string, locName?: string): SniffedFormat {
  const s = line.trim();
  if (s.startsWith('{')) return 'jsonl';
  // A URL is no header, even one whose path is /url (a single-column text input).
  if (HTTP_URL_RE.test(s) || s.charCodeAt(0) === 0x2f /* / */) return 'text';
  if (s.includes('\t') && namesLoc(headerNames(s, '\t'), locName)) return 'tsv';
  // Excel's first line naming the separator (`sep=;`; a tab or space is trimmed off) precedes a CSV header.
  if (/^sep=[^"]?$/.test(s)) return 'csv';
  // Separated by semicolons, it is CSV too, which csvHeader refuses saying so: read as text, its records
  // would be URLs (`https://e.com/a;2024-01-01`).
  if (namesLoc(headerNames(s, ','), locName) || namesLoc(headerNames(s, ';'), locName)) return 'csv';
  return 'text';
}

/**
 * Why a line that is no URL was refused, with what it looks like when that is known; a `field` (of CSV,
 * TSV, JSON Lines) is not told of another input format: its input was read as one already.
 */
function refusal(s: string, field = false): string {
  const what = `${quote(s)} is neither an absolute http(s) URL nor a path starting with /`;
  const format = field ? 'text' : sniffInputFormat(s);
  if (format !== 'text') return `${what}: ${LOOKS_LIKE[format]}`;
  if (s.startsWith('//')) return `${what}: a protocol-relative URL (no scheme): https:${s}?`;
  const host = BARE_HOST_RE.exec(s);
  if (host !== null && !FILE_EXTENSION_RE.test(host[1] as string)) return `${what}: looks like a URL without its scheme: https://${s}?`;
  const scheme = SCHEME_RE.exec(s)?.[1];
  if (scheme !== undefined) {
    if (/^https?$/i.test(scheme)) return `${what}: write it as ${scheme.toLowerCase()}://host/path`;
    return `${what}: the scheme is "${scheme}"; a sitemap lists only http and https URLs`;
  }
  // A URL in quotes alone is no CSV: a JSON Lines field or a text line carries them as written.
  if (/^"(?:https?:\/\/|\/)[^"]*"$/i.test(s)) return `${what}: it is in double quotes; write the URL without them`;
  if (!field && (s.startsWith('"') || s.includes(','))) return `${what}: looks like CSV: use --input-format csv`;
  return `${what}: write the full URL (https://host/path) or a path from the site's root (/path)`;
}

/**
 * Why `loc` from a field (CSV, TSV, JSON Lines) cannot be written as it is, or undefined: the rule of a
 * text line, so that every input says the same of one URL.
 */
export function locProblem(loc: string): string | undefined {
  const bad = NOT_PRINTABLE_ASCII_RE.test(loc) ? NOT_IN_URL_RE.exec(loc) : null;
  if (bad !== null) return `loc ${quote(loc)} contains ${characterName(bad[0])} at column ${bad.index + 1}; a URL has none (percent-encode it, e.g. %20 for a space, if it belongs to the URL)`;
  if (loc.charCodeAt(0) === 0x2f /* / */ ? loc.charCodeAt(1) !== 0x2f : HTTP_URL_RE.test(loc)) return undefined;
  return `loc ${refusal(loc, true)}`;
}

/**
 * One line of a text input: `undefined` for a blank line or a `#` comment (a `#` inside a URL is its
 * fragment); the trimmed line as `loc` when it is an absolute http(s) URL or a path starting with a
 * single `/`; else `error`. Whitespace or a control character inside the line is refused.
 */
export function parseTextLine(line: string): TextLine | undefined {
  const s = line.trim();
  if (s.length === 0 || s.charCodeAt(0) === 0x23 /* # */) return undefined;
  const bad = NOT_PRINTABLE_ASCII_RE.test(s) ? NOT_IN_URL_RE.exec(s) : null;
  if (bad !== null) {
    const column = line.indexOf(s) + bad.index + 1;
    const format = sniffInputFormat(s);
    const hint =
      format === 'tsv' || (bad[0] === '\t' && (HTTP_URL_RE.test(s) || s.startsWith('/'))) ? ': looks like tab-separated values: use --input-format tsv'
      : format !== 'text' ? `: ${LOOKS_LIKE[format]}`
      : '; a URL has none (percent-encode it, e.g. %20 for a space, if it belongs to the URL)';
    return { error: `${quote(s)} contains ${characterName(bad[0])} at column ${column}${hint}` };
  }
  if (s.charCodeAt(0) === 0x2f /* / */ ? s.charCodeAt(1) !== 0x2f : HTTP_URL_RE.test(s)) return { loc: s };
  return { error: refusal(s) };
}
