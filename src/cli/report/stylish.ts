// The human report of `sitemapkit validate`, in ESLint's "stylish" look: per file with diagnostics,
// its name, then one aligned row per diagnostic (`LINE:COL  severity  message  code`), its hint below;
// then one summary line.

import type { Diagnostic, Severity } from '../../core/diagnostics.js';
import { summarize, type FileReport, type ValidationSummary } from '../../core/validate/types.js';
import { fit, formatCount, plural, positionText, printable, width } from '../format.js';
import { CodeCap, moreText } from '../problems.js';

export interface StylishOptions {
  /** ANSI colours (SGR escapes). */
  readonly color: boolean;
  /**
   * A terminal's width: the message column is cut with `…` to fit, and a hint that does not fit is
   * left out (a note says `--format json` has it). Undefined (a file, a pipe): rows whole.
   */
  readonly columns?: number;
  /** Every hint, even where `columns` is too narrow for it (-v on a terminal). */
  readonly allHints?: boolean;
  /** Sort each block's rows by position. */
  readonly sort?: boolean;
  /** A terminal's cap (problems.ts CodeCap): the first rows of each code per file, then a count. */
  readonly capped?: boolean;
}

/** What the summary line must agree with: a ✔ only where the run succeeds. */
export interface StylishOutcome {
  /** Inputs that could not be read or fetched (the command exits 2). */
  readonly unreadable?: number;
  readonly maxWarnings?: number;
  /** Counts over all diagnostics, rows hidden by -q included. */
  readonly summary?: ValidationSummary;
}

const SGR = { bold: 1, dim: 2, underline: 4, red: 31, green: 32, yellow: 33, cyan: 36 } as const;
type Style = keyof typeof SGR;

const SEVERITY_STYLE: Record<Severity, Style> = { error: 'red', warning: 'yellow', info: 'cyan' };

/** Rows aligned (and sorted) together at most, so that memory does not grow with the problems. */
export const STYLISH_BLOCK_ROWS = 10_000;

/** The stylish report written as the diagnostics come, in blocks of STYLISH_BLOCK_ROWS. */
export class StylishWriter {
  private readonly paint: Paint;
  private readonly sort: boolean;
  private readonly columns: number | undefined;
  private readonly allHints: boolean;
  private cap: CodeCap | undefined;
  /** Hints left out because they did not fit the terminal. */
  private hintsLeftOut = 0;
  private file: string | undefined;
  private block: Diagnostic[] = [];
  /** Whether the current file's name is written. */
  private headed = false;
  private schemaValid: boolean | null | undefined;

  constructor(
    private readonly out: { write(text: string): unknown },
    options: StylishOptions,
  ) {
    this.sort = options.sort === true;
    this.columns = options.columns;
    this.allHints = options.allHints === true;
    this.cap = options.capped === true ? new CodeCap() : undefined;
    this.paint = (text: string, ...styles: Style[]): string =>
      options.color && text.length > 0 ? `\x1b[${styles.map((s) => SGR[s]).join(';')}m${text}\x1b[0m` : text;
  }

  startFile(file: string): void {
    this.endFile();
    this.file = file;
    this.headed = false;
    this.schemaValid = undefined;
  }

  diagnostic(d: Diagnostic): void {
    this.block.push(d);
    if (this.block.length >= STYLISH_BLOCK_ROWS) this.flush();
  }

  /** `schemaValid`: the file's verdict, stated beside its name. */
  endFile(schemaValid?: boolean | null): void {
    const headedBefore = this.headed;
    this.schemaValid = schemaValid;
    this.flush();
    if (this.cap !== undefined) {
      for (const [code, hidden] of this.cap.hidden()) {
        const row = moreText(code, hidden);
        this.out.write(`\n  ${this.paint(this.columns !== undefined ? fit(row, Math.max(1, this.columns - 2)) : row, 'dim')}`);
      }
      this.cap = new CodeCap();
    }
    // A file long enough to be written in blocks had its name out before its verdict was known.
    if (headedBefore && schemaValid === false) this.out.write(`\n${this.paint('  (the file above is not valid against the sitemap schemas)', 'dim')}`);
    if (this.headed) this.out.write('\n\n');
    this.headed = false;
  }

  end(reports: readonly FileReport[], outcome: StylishOutcome = {}): void {
    this.endFile();
    this.out.write(summaryLine(reports, outcome, this.paint) + '\n');
    if (this.hintsLeftOut > 0) {
      this.out.write(this.paint(`(${plural(this.hintsLeftOut, 'hint')} did not fit the terminal; --format json has them)`, 'dim') + '\n');
    }
  }

  private flush(): void {
    if (this.block.length === 0) return;
    let block = this.block;
    this.block = [];
    // Diagnostics without a position last.
    if (this.sort) block.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0));
    const cap = this.cap;
    if (cap !== undefined) block = block.filter((d) => cap.admit(d.code));
    if (block.length === 0) return;
    const { lines, hintsLeftOut } = diagnosticRows(block, this.paint, this.columns, this.allHints);
    this.hintsLeftOut += hintsLeftOut;
    const rows = lines.join('\n');
    if (this.headed) this.out.write(`\n${rows}`);
    else {
      const name = printable(this.file ?? '<input>');
      this.out.write(`${this.paint(this.columns !== undefined ? fit(name, this.columns) : name, 'underline')}${verdict(this.schemaValid, this.paint)}\n${rows}`);
    }
    this.headed = true;
  }
}

type Paint = (text: string, ...styles: Style[]) => string;

/** The message column is never cut narrower than this: a row then overflows rather than say nothing. */
const MIN_MESSAGE_COLUMNS = 20;
/** Off a terminal, the message column is padded to this width at most. */
const PIPED_MESSAGE_COLUMNS = 100;

function diagnosticRows(diagnostics: readonly Diagnostic[], paint: Paint, columns?: number, allHints = false): { lines: string[]; hintsLeftOut: number } {
  const rows = diagnostics.map((d) => ({
    position: positionText(d),
    severity: d.severity,
    message: printable(d.message),
    code: printable(d.code),
    hint: d.hint === undefined ? undefined : printable(d.hint),
  }));
  // A loop, not Math.max(...rows): a spread of ~150,000 rows overflows the stack.
  let positionWidth = 0;
  let severityWidth = 0;
  let messageWidth = 0;
  let codeWidth = 0;
  for (const r of rows) {
    positionWidth = Math.max(positionWidth, width(r.position));
    severityWidth = Math.max(severityWidth, width(r.severity));
    messageWidth = Math.max(messageWidth, width(r.message));
    codeWidth = Math.max(codeWidth, width(r.code));
  }
  const messageStart = 2 + positionWidth + 2 + severityWidth + 2;
  const hintIndent = ' '.repeat(messageStart);
  // On a terminal, the message column takes what the others leave. Elsewhere no message is cut, and
  // one long message must not pad every row to its length.
  if (columns !== undefined) messageWidth = Math.min(messageWidth, Math.max(MIN_MESSAGE_COLUMNS, columns - messageStart - 2 - codeWidth));
  else messageWidth = Math.min(messageWidth, PIPED_MESSAGE_COLUMNS);

  const lines: string[] = [];
  let hintsLeftOut = 0;
  for (const r of rows) {
    const message = columns !== undefined ? fit(r.message, messageWidth) : r.message;
    lines.push(
      `  ${padStart(r.position, positionWidth)}  ${padEnd(paint(r.severity, SEVERITY_STYLE[r.severity]), severityWidth, r.severity)}` +
        `  ${padEnd(message, messageWidth)}  ${paint(r.code, 'dim')}`,
    );
    if (r.hint === undefined) continue;
    if (columns !== undefined && !allHints && messageStart + width(r.hint) > columns) hintsLeftOut++;
    else lines.push(hintIndent + paint(r.hint, 'dim'));
  }
  return { lines, hintsLeftOut };
}

/** After a file's name, when it fails the schemas. */
function verdict(schemaValid: boolean | null | undefined, paint: Paint): string {
  return schemaValid === false ? `  ${paint('(not valid against the sitemap schemas)', 'dim')}` : '';
}

/** The last line: a ✔ only when the run succeeds, else a ✖ that says what failed; the counts. */
function summaryLine(reports: readonly FileReport[], outcome: StylishOutcome, paint: Paint): string {
  const s = outcome.summary ?? summarize(reports);
  const problems = s.errors + s.warnings + s.infos;
  const unreadable = outcome.unreadable ?? 0;
  const tooManyWarnings = outcome.maxWarnings !== undefined && s.warnings > outcome.maxWarnings;
  const counts = `${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')}`;
  const failures: string[] = [];
  if (unreadable > 0) failures.push(`${plural(unreadable, 'input')} could not be read`);
  if (tooManyWarnings) failures.push(`more than --max-warnings ${outcome.maxWarnings}`);
  const schema = schemaVerdicts(reports);
  if (problems === 0 && failures.length === 0) {
    return paint(`✔ ${plural(s.files, 'file')}, ${plural(s.entries, 'entry', 'entries')}, no problems${schema}`, 'green', 'bold');
  }
  const style: Style = s.errors > 0 || failures.length > 0 ? 'red' : s.warnings > 0 ? 'yellow' : 'cyan';
  return paint(`✖ ${[...failures, `${plural(problems, 'problem')} (${counts})`].join('; ')}${schema}`, style, 'bold');
}

/** `; schemas: 2 valid, 1 invalid`, or empty when no file carries a verdict. */
function schemaVerdicts(reports: readonly FileReport[]): string {
  let valid = 0;
  let invalid = 0;
  for (const r of reports) {
    if (r.schemaValid === true) valid++;
    else if (r.schemaValid === false) invalid++;
  }
  return valid + invalid === 0 ? '' : `; schemas: ${formatCount(valid)} valid, ${formatCount(invalid)} invalid`;
}

/** Pads to `to` columns; `measured` is the text without its colour escapes. */
function padEnd(text: string, to: number, measured = text): string {
  return text + ' '.repeat(Math.max(0, to - width(measured)));
}

function padStart(text: string, to: number): string {
  return ' '.repeat(Math.max(0, to - width(text))) + text;
}
