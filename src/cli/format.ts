// Small helpers for human output.

import { formatCount } from '../core/count-text.js';
import { BIDI_CONTROLS, plural } from '../core/errors.js';
import { shownPath } from '../node/io-errors.js';

export { formatCount, plural, shownPath };

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** `LINE:COL`, or `LINE`, or '' where the position is not known: never a made-up `0:0`. */
export function positionText(d: { readonly line?: number | undefined; readonly column?: number | undefined }): string {
  return d.line === undefined ? '' : d.column === undefined ? String(d.line) : `${d.line}:${d.column}`;
}

// Noncharacters (Unicode §23.7) and lone surrogates (Cs) too: an input may hold them, a terminal shows garbage.
const UNPRINTABLE = new RegExp(`[\\x00-\\x1f\\x7f-\\x9f\\p{Noncharacter_Code_Point}\\p{Cs}]|${BIDI_CONTROLS.source}`, 'gu');

/** Control characters written as escapes: they would break the columns, drive the terminal or reorder the line. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = (c.codePointAt(0) as number).toString(16);
    return c.length > 1 ? `\\u{${code}}` : `\\u${code.padStart(4, '0')}`;
  });
}

/** Terminal columns: East Asian wide characters and emoji take two, combining marks and joiners none. */
export function width(text: string): number {
  // Printable ASCII, the usual case: one column each (a report of a million rows measures four million strings).
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let columns = 0;
  for (const char of text) columns += charWidth(char);
  return columns;
}

function charWidth(char: string): number {
  return ZERO_WIDTH.test(char) ? 0 : WIDE.test(char) ? 2 : 1;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200f]$/u; // Mn includes the variation selectors
const WIDE =
  /^[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]$/u;

/** `text` in at most `columns` terminal columns: cut, with `…` as the last column, when longer. */
export function fit(text: string, columns: number): string {
  if (width(text) <= columns) return text;
  if (columns <= 0) return '';
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (used + w > columns - 1) break;
    out += char;
    used += w;
  }
  return `${out}\u2026`;
}
