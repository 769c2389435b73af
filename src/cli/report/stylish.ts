// The human report of `sitemapkit validate`, in ESLint's "stylish" look: per file with diagnostics,
// the file name, then one aligned row per diagnostic (`LINE:COL  severity  message  code`) and its
// hint below the message; then one summary line. Files without diagnostics are only counted.
//
// A diagnostic without a position (e.g. "the file is empty") leaves the position column blank rather
// than printing a made-up `0:0`; one with a line but no column shows the line alone.

import type { Diagnostic, Severity } from '../../core/diagnostics.js';
import { summarize, type FileReport } from '../../core/validate/types.js';
import { plural } from '../format.js';

export interface StylishOptions {
  /** ANSI colours (SGR escapes); the caller decides from the TTY, NO_COLOR and --color. */
  readonly color: boolean;
}

export interface StylishWriterOptions extends StylishOptions {
  /** Sort each block's rows by position (diagnostics given as found rather than in document order). */
  readonly sort?: boolean;
}

const SGR = { bold: 1, dim: 2, underline: 4, red: 31, green: 32, yellow: 33, cyan: 36 } as const;
type Style = keyof typeof SGR;

const SEVERITY_STYLE: Record<Severity, Style> = { error: 'red', warning: 'yellow', info: 'cyan' };

export function formatStylish(reports: readonly FileReport[], options: StylishOptions): string {
  let text = '';
  const writer = new StylishWriter({ write: (chunk) => (text += chunk) }, options);
  for (const report of reports) {
    writer.startFile(report.file);
    for (const d of report.diagnostics) writer.diagnostic(d);
    writer.endFile();
  }
  writer.end(reports);
  return text;
}

/**
 * Rows aligned (and sorted by position) together, at most: a file with more diagnostics is written in
 * blocks of this many rows, so that memory does not grow with the number of problems (issue 22).
 */
export const STYLISH_BLOCK_ROWS = 10_000;

/**
 * The stylish report written as the diagnostics come: per file, its name and its rows, aligned (and,
 * with `sort`, in document order) within blocks of STYLISH_BLOCK_ROWS; after the last file, the
 * summary line. For a file of fewer diagnostics than a block, the text is formatStylish's for the
 * same diagnostics in document order.
 */
export class StylishWriter {
  private readonly paint: Paint;
  private readonly sort: boolean;
  private file: string | undefined;
  private block: Diagnostic[] = [];
  /** Whether the current file's name is written (it is, before its first row). */
  private headed = false;

  constructor(
    private readonly out: { write(text: string): unknown },
    options: StylishWriterOptions,
  ) {
    this.sort = options.sort === true;
    this.paint = (text: string, ...styles: Style[]): string =>
      options.color && text.length > 0 ? `\x1b[${styles.map((s) => SGR[s]).join(';')}m${text}\x1b[0m` : text;
  }

  startFile(file: string): void {
    this.endFile();
    this.file = file;
    this.headed = false;
  }

  diagnostic(d: Diagnostic): void {
    this.block.push(d);
    if (this.block.length >= STYLISH_BLOCK_ROWS) this.flush();
  }

  endFile(): void {
    this.flush();
    if (this.headed) this.out.write('\n\n');
    this.headed = false;
  }

  /** The summary line, from the exact counts of the reports. */
  end(reports: readonly FileReport[]): void {
    this.endFile();
    this.out.write(summaryLine(reports, this.paint) + '\n');
  }

  private flush(): void {
    if (this.block.length === 0) return;
    const block = this.block;
    this.block = [];
    // Document order; diagnostics without a position last. The sort is stable.
    if (this.sort) block.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0));
    const rows = diagnosticRows(block, this.paint).join('\n');
    if (this.headed) this.out.write(`\n${rows}`);
    else this.out.write(`${this.paint(printable(this.file ?? '<input>'), 'underline')}\n${rows}`);
    this.headed = true;
  }
}

type Paint = (text: string, ...styles: Style[]) => string;

function diagnosticRows(diagnostics: readonly Diagnostic[], paint: Paint): string[] {
  const rows = diagnostics.map((d) => ({
    position: d.line === undefined ? '' : d.column === undefined ? String(d.line) : `${d.line}:${d.column}`,
    severity: d.severity,
    message: printable(d.message),
    code: printable(d.code),
    hint: d.hint === undefined ? undefined : printable(d.hint),
  }));
  // A loop, not Math.max(...rows): a spread puts every row on the stack (issue 22: past ~150,000 rows
  // it overflowed).
  let positionWidth = 0;
  let severityWidth = 0;
  let messageWidth = 0;
  for (const r of rows) {
    positionWidth = Math.max(positionWidth, width(r.position));
    severityWidth = Math.max(severityWidth, width(r.severity));
    messageWidth = Math.max(messageWidth, width(r.message));
  }
  // The hint sits under the message column.
  const hintIndent = ' '.repeat(2 + positionWidth + 2 + severityWidth + 2);

  const lines: string[] = [];
  for (const r of rows) {
    lines.push(
      `  ${padStart(r.position, positionWidth)}  ${padEnd(paint(r.severity, SEVERITY_STYLE[r.severity]), severityWidth, r.severity)}` +
        `  ${padEnd(r.message, messageWidth)}  ${paint(r.code, 'dim')}`,
    );
    if (r.hint !== undefined) lines.push(hintIndent + paint(r.hint, 'dim'));
  }
  return lines;
}

function summaryLine(reports: readonly FileReport[], paint: Paint): string {
  const s = summarize(reports);
  const problems = s.errors + s.warnings + s.infos;
  if (problems === 0) {
    return paint(`✔ ${plural(s.files, 'file')}, ${plural(s.entries, 'entry', 'entries')}, no problems`, 'green', 'bold');
  }
  const style: Style = s.errors > 0 ? 'red' : s.warnings > 0 ? 'yellow' : 'cyan';
  const counts = `${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')}`;
  return paint(`✖ ${plural(problems, 'problem')} (${counts})`, style, 'bold');
}

/**
 * Control characters (a newline in a message, an ESC copied from a hostile sitemap) written as
 * escapes: they would break the columns or drive the terminal.
 */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/**
 * Terminal columns: East Asian wide characters and emoji take two, combining marks and joiners none,
 * so that a message in Japanese or with an emoji keeps the code column in place.
 */
function width(text: string): number {
  // Printable ASCII, the usual case: one column each (a report of a million rows measures four million strings).
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let columns = 0;
  for (const char of text) {
    if (ZERO_WIDTH.test(char)) continue;
    columns += WIDE.test(char) ? 2 : 1;
  }
  return columns;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200f]$/u; // Mn includes the variation selectors
const WIDE =
  /^[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]$/u;

/** Pads to `to` columns; `measured` is the text without its colour escapes. */
function padEnd(text: string, to: number, measured = text): string {
  return text + ' '.repeat(Math.max(0, to - width(measured)));
}

function padStart(text: string, to: number): string {
  return ' '.repeat(Math.max(0, to - width(text))) + text;
}
