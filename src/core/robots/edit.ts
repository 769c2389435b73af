// Editing the Sitemap lines of a robots.txt: add the sitemaps asked for, rewrite a line naming one in
// another spelling, drop repeats, and leave every other byte as it was. A line is a Sitemap line
// exactly when parseRobotsTxt reads a sitemap URL from it, or reports it as a repeat of one (so the two
// never disagree); lines it ignores announce nothing to a crawler and are left alone, even by `replace`.

import { InvalidValueError, SitemapError, quoteValue } from '../errors.js';
import { comparableUrl, normalizeUrl } from '../url.js';
import { parseRobotsTxt, splitLines, type Line, type RobotsTxtProblem } from './robots-txt.js';

export type LineEnding = '\n' | '\r\n' | '\r';

export interface SitemapLinesOptions {
  /** Also remove the Sitemap lines whose URL is not among the requested ones. */
  replace?: boolean;
  /** Line end of added lines. Default: the file's most frequent one; LF when it has none. */
  lineEnding?: LineEnding;
  /** The absolute URL the file is served from: relative Sitemap values resolve against it (else match nothing). */
  robotsUrl?: string;
}

export interface SitemapLinesEdit {
  /** The new file; identical to the input when `changed` is false. */
  text: string;
  /** Requested URLs (normalised) that got a new line, in the order requested. */
  added: string[];
  /** Requested URLs (normalised) whose line spelled them differently and was rewritten in place. */
  updated: string[];
  /** Requested URLs (normalised) already listed as such; their lines are untouched. */
  present: string[];
  /** Values of the removed lines, as written: repeats of a requested URL and, with `replace`, the others. */
  removed: string[];
  /** Values, as written, of the Sitemap lines for other URLs that were left in place (never with `replace`). */
  kept: string[];
  /** The input's lines that were rewritten or removed, in file order. */
  touched: TouchedLine[];
  /**
   * What crawlers will skip or misread in the new file's Sitemap lines (no colon, empty, a template,
   * ftp:, relative when `robotsUrl` is given), each on its `newLine` and, if it was there, `oldLine`.
   */
  problems: SitemapLineProblem[];
  changed: boolean;
}

/** A line of the input that was rewritten or removed. */
export interface TouchedLine {
  /** 1-based line number in the input. */
  oldLine: number;
  /** 1-based line number of the rewritten line in the new file; absent for a removed line. */
  newLine?: number;
  /** The Sitemap value as written. */
  value: string;
  /** `rewritten` to the normalised URL; `repeat` of an earlier line for the same URL; `unrequested` (removed by `replace`). */
  change: 'rewritten' | 'repeat' | 'unrequested';
}

/** A problem of a Sitemap line of the new file (see {@link SitemapLinesEdit.problems}). */
export interface SitemapLineProblem extends Omit<RobotsTxtProblem, 'line'> {
  /** 1-based line number in the new file (`text`). */
  newLine: number;
  /** 1-based line number of the same line in the input; absent for a line the edit added. */
  oldLine?: number;
}

/**
 * The URL a `Sitemap:` line should carry for `url`, normalised by {@link normalizeUrl}. sitemaps.org asks
 * for the complete URL, and `#` starts a comment in robots.txt (RFC 9309 §2.2): a relative URL or a
 * fragment throws {@link InvalidValueError} (`loc/not-absolute`, `loc/invalid`), as normalizeUrl's codes do.
 */
export function sitemapLineUrl(url: string): string {
  const trimmed = url.trim();
  if (trimmed !== '' && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(trimmed)) {
    throw new InvalidValueError(
      'loc/not-absolute',
      'Sitemap',
      url,
      `${quoteValue(url)} is not an absolute URL; robots.txt needs the full URL of a sitemap, such as https://example.com/sitemap.xml`,
    );
  }
  if (trimmed.includes('#')) {
    throw new InvalidValueError('loc/invalid', 'Sitemap', url, `${quoteValue(url)} has a fragment (#…); in robots.txt "#" starts a comment, so crawlers would read a different URL`);
  }
  return normalizeUrl(url, 'Sitemap');
}

/** The most frequent line end of `lines`; LF on a tie with LF or when there is none. */
function dominantLineEnding(lines: readonly Line[]): LineEnding {
  const count = (eol: string): number => lines.filter((line) => line.eol === eol).length;
  const lf = count('\n');
  const crlf = count('\r\n');
  const cr = count('\r');
  if (crlf > lf && crlf >= cr) return '\r\n';
  if (cr > lf && cr > crlf) return '\r';
  return '\n';
}

const BLANK_RE = /^[ \t\v\f]*$/;
// The key as sitemaps.org writes it; the parser's lenient forms (`site-map:`, no colon) are rewritten to it.
const PLAIN_KEY_RE = /^[ \t\v\f]*sitemap[ \t\v\f]*:/i;
// Relative values need a base to be parsed; this one is never reported, its results are not used.
const PLACEHOLDER_BASE = 'https://robots-txt.invalid/robots.txt';

/** The normalised URL a Sitemap value (the parser's `raw`) names, or undefined when it names none we can compare. */
function namedUrl(raw: string, base: string | undefined): string | undefined {
  try {
    return normalizeUrl(raw, 'Sitemap', base);
  } catch {
    // Relative without a base, or refused by the normaliser (credentials, over-long): matches nothing.
    return undefined;
  }
}

/** `Sitemap: URL`, keeping a trailing comment of the line it replaces (with the blanks before it). */
function canonicalLine(url: string, oldContent: string): string {
  const hash = oldContent.indexOf('#');
  // The value ends in no white space (the parser refuses one), so trimEnd takes the blanks only, in linear time.
  const comment = hash < 0 ? '' : oldContent.slice(oldContent.slice(0, hash).trimEnd().length);
  return `Sitemap: ${url}${comment}`;
}

/**
 * Make `robotsText` list each of `sitemapUrls` on exactly one `Sitemap:` line, changing nothing else.
 * A URL listed already (equivalent once normalised: comparableUrl) is not added; a first line spelling
 * it differently is rewritten in place (line end and comment kept), later ones removed; with `replace`, lines for other
 * URLs are removed. New lines follow the last Sitemap line, else end the file after a blank line.
 * Every other byte stays, a BOM too. Throws what {@link sitemapLineUrl} throws, and
 * `ERR_SITEMAP_OPTION` for a `robotsUrl` that is not an absolute http(s) URL.
 */
// eslint-disable-next-line max-lines-per-function -- one pass over the lines applying the rules above in order (keep, rewrite, remove, insert)
export function setSitemapLines(robotsText: string, sitemapUrls: readonly string[], options: SitemapLinesOptions = {}): SitemapLinesEdit {
  // Keyed by comparableUrl: %7E and ~ name one sitemap (RFC 3986 §6.2.2), as discover and validate compare URLs.
  const wanted = new Map<string, string>();
  for (const url of sitemapUrls.map(sitemapLineUrl)) if (!wanted.has(comparableUrl(url))) wanted.set(comparableUrl(url), url);
  const requested = [...wanted.values()];
  const replace = options.replace === true;
  const hasBase = options.robotsUrl !== undefined;
  const base = options.robotsUrl ?? PLACEHOLDER_BASE;
  if (hasBase) {
    try {
      normalizeUrl(base, 'robotsUrl');
    } catch {
      throw new SitemapError('ERR_SITEMAP_OPTION', `robotsUrl must be the absolute http(s) URL of the robots.txt, got ${quoteValue(base)}`);
    }
  }

  const bom = robotsText.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const lines = splitLines(bom === '' ? robotsText : robotsText.slice(1));
  const eol = options.lineEnding ?? dominantLineEnding(lines);
  // The Sitemap values by line number, from one parse of the whole file: its URLs, and their repeats.
  const parsed = parseRobotsTxt(robotsText, base);
  const values = new Map(parsed.sitemaps.map((s) => [s.line, s.raw]));
  for (const p of parsed.problems) if (p.code === 'robots/sitemap-duplicate') values.set(p.line, p.value);

  const updated: string[] = [];
  const present: string[] = [];
  const removed: string[] = [];
  const kept: string[] = [];
  const touched: TouchedLine[] = [];
  const seen = new Set<string>();
  // The output lines; `undefined` for a removed line. `anchor`: the last Sitemap line, where new lines go.
  const out: (Line | undefined)[] = [];
  let anchor = -1;
  for (const [index, line] of lines.entries()) {
    const raw = values.get(index + 1);
    if (raw === undefined) {
      out.push(line);
      continue;
    }
    anchor = out.length;
    const named = namedUrl(raw, hasBase ? base : undefined);
    const url = named === undefined ? undefined : wanted.get(comparableUrl(named));
    if (url !== undefined) {
      if (seen.has(url)) {
        removed.push(raw);
        touched.push({ oldLine: index + 1, value: raw, change: 'repeat' });
        out.push(undefined);
      } else if (raw === url && PLAIN_KEY_RE.test(line.content)) {
        seen.add(url);
        present.push(url);
        out.push(line);
      } else {
        seen.add(url);
        updated.push(url);
        touched.push({ oldLine: index + 1, value: raw, change: 'rewritten' });
        out.push({ content: canonicalLine(url, line.content), eol: line.eol });
      }
    } else if (replace) {
      removed.push(raw);
      touched.push({ oldLine: index + 1, value: raw, change: 'unrequested' });
      out.push(undefined);
    } else {
      kept.push(raw);
      out.push(line);
    }
  }

  const added = requested.filter((url) => !seen.has(url));
  let text = bom;
  // For each line of the new file, in order, the 1-based input line it comes from (undefined: added).
  const origins: (number | undefined)[] = [];
  const append = (from: number, to: number): void => {
    let cr = text.endsWith('\r'); // once: on a string built by +=, each endsWith would copy it whole
    for (let i = from; i < to; i++) {
      const line = out[i];
      if (line === undefined) continue;
      // A lone-CR line end followed, once a line between them is gone, by an empty line ending in LF
      // would read as one CRLF: the empty line would vanish. The lone CR becomes CRLF instead.
      if (line.content === '' && line.eol.charCodeAt(0) === 0x0a && cr) text += '\n';
      text += line.content + line.eol;
      cr = line.eol === '\r';
      origins.push(i + 1);
    }
  };
  const at = anchor >= 0 ? anchor + 1 : out.length;
  append(0, at);
  if (added.length > 0 && text.length > bom.length) {
    if (!text.endsWith('\n') && !text.endsWith('\r')) text += eol;
    if (anchor < 0 && !BLANK_RE.test((lines[lines.length - 1] as Line).content)) {
      text += eol;
      origins.push(undefined); // the blank line before the new ones
    }
  }
  for (const url of added) {
    text += `Sitemap: ${url}${eol}`;
    origins.push(undefined);
  }
  append(at, out.length);
  // A rewritten line is in the new file, once: at most one per requested URL.
  const newLineOf = new Map(origins.map((oldLine, k) => [oldLine, k + 1]));
  for (const t of touched) if (t.change === 'rewritten') t.newLine = newLineOf.get(t.oldLine) as number;
  const oldLineOf = (newLine: number): number | undefined => origins[newLine - 1];
  return { text, added, updated, present, removed, kept, touched, problems: sitemapProblems(text, base, hasBase, oldLineOf), changed: text !== robotsText };
}

/**
 * The parser's problems with the Sitemap lines of `text`, numbered in `text` and (`oldLineOf`) in the
 * input. Without a real base, those naming the placeholder are left out: where they point is unknown.
 */
function sitemapProblems(text: string, base: string, hasBase: boolean, oldLineOf: (newLine: number) => number | undefined): SitemapLineProblem[] {
  const placeholder = new URL(PLACEHOLDER_BASE).host;
  const problems: SitemapLineProblem[] = [];
  for (const { line, ...problem } of parseRobotsTxt(text, base).problems) {
    if (problem.directive !== 'sitemap' || (!hasBase && problem.message.includes(placeholder))) continue;
    // A line number inside the message ("duplicate …, first on line N") counts in the new file too;
    // where the edit moved that line, the message says both.
    problem.message = problem.message.replace(/\bon line (\d+)/, (whole, n: string) => {
      const before = oldLineOf(Number(n));
      return before === undefined || before === Number(n) ? whole : `on line ${n} of the new file (line ${before} before the edit)`;
    });
    const oldLine = oldLineOf(line);
    problems.push(oldLine === undefined ? { newLine: line, ...problem } : { newLine: line, oldLine, ...problem });
  }
  return problems;
}
