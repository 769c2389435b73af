// Problems as every command prints them (issue 23): one line each, in the compiler convention
//   FILE:LINE:COL: severity code message (hint)
// (positions 1-based; what is not known is left out, never printed as 0). A pipe or a file gets every
// line, whole, for tools that read them. A terminal gets each line cut to its width (`--format json`
// has the detail) and, per file, the first few problems of each code, then a count of the others:
// 200,000 identical problems are a count, not a scroll.

import type { Diagnostic } from '../core/diagnostics.js';
import type { OutputStream } from './io.js';
import { fit, formatCount, printable } from './format.js';

/** A diagnostic, or a problem of a command that has no stable code for it. */
export type Problem = Omit<Diagnostic, 'code'> & { code?: string };

/** `FILE:LINE:COL: severity code message (hint)`, without the line feed; `file` when `p` names none. */
export function formatProblem(p: Problem, file = '<input>'): string {
  const line = p.line !== undefined && p.line >= 1 ? `:${p.line}` : '';
  const column = line !== '' && p.column !== undefined && p.column >= 1 ? `:${p.column}` : '';
  const code = p.code !== undefined ? ` ${printable(p.code)}` : '';
  const hint = p.hint !== undefined ? ` (${printable(p.hint)})` : '';
  return `${printable(p.file ?? file)}${line}${column}: ${p.severity}${code} ${printable(p.message)}${hint}`;
}

/** Columns of a terminal when the stream does not say (not a TTY's `columns`, or a test's stream). */
const DEFAULT_COLUMNS = 100;

/** The width of the terminal `stream` writes to. */
export function terminalColumns(stream: OutputStream): number {
  const columns = stream.columns;
  return columns !== undefined && Number.isInteger(columns) && columns > 0 ? columns : DEFAULT_COLUMNS;
}

/** Problems shown per code and file on a terminal before they are only counted. */
const SHOWN_PER_CODE = 5;

/** What a code's problems have in common, for "… and N more: REASON (CODE)" (the code alone otherwise). */
const REPEATED: Readonly<Record<string, string>> = {
  'input/text': 'lines that are not URLs',
  'input/csv': 'CSV or TSV records that cannot be read',
  'input/jsonl': 'JSON Lines lines that cannot be read',
  'input/encoding': 'lines with invalid UTF-8',
  'loc/out-of-scope': 'URLs outside --base-url',
  'loc/fragment': 'URLs written without their #fragment',
  'lastmod/future': 'lastmod in the future',
  'lastmod/invalid': 'lastmod not a W3C Datetime',
  'changefreq/invalid': 'changefreq not one of the seven values',
  'priority/invalid': 'priority not a number',
  'priority/out-of-range': 'priority outside 0.0 to 1.0',
  'hreflang/invalid-language': 'hreflang not a BCP 47 language tag',
  'hreflang/invalid': 'hreflang not a language code',
};

/** "… and N more: REASON (CODE)" (the code alone when REPEATED has no reason for it). */
export function moreText(code: string, hidden: number): string {
  const reason = REPEATED[code];
  return `\u2026 and ${formatCount(hidden)} more: ${reason !== undefined ? `${reason} (${printable(code)})` : printable(code)}`;
}

/**
 * The terminal's cap over one file (or run): counts the problems of each code, and admits the first
 * SHOWN_PER_CODE of each; the others are only counted (ProblemPrinter, and validate's stylish rows).
 */
export class CodeCap {
  /** code → problems seen: one entry per code, never per problem. */
  private readonly seen = new Map<string, number>();

  /** Counts a problem of `code`; whether it is among the first SHOWN_PER_CODE (to be shown). */
  admit(code: string): boolean {
    const seen = (this.seen.get(code) ?? 0) + 1;
    this.seen.set(code, seen);
    return seen <= SHOWN_PER_CODE;
  }

  /** [code, problems not shown] for each code that had more than SHOWN_PER_CODE, in the order first seen. */
  *hidden(): IterableIterator<[string, number]> {
    for (const [code, seen] of this.seen) if (seen > SHOWN_PER_CODE) yield [code, seen - SHOWN_PER_CODE];
  }
}

export interface ProblemPrinterOptions {
  /** A person watches: lines cut to `columns`, SHOWN_PER_CODE per code and file, then counted. */
  terminal: boolean;
  /** The terminal's width (default DEFAULT_COLUMNS). */
  columns?: number;
  /** Cleared before a problem is printed (the line it shares the screen with). */
  progress?: { clear(): void };
  /** File of the problems that name none. */
  file?: string;
  /**
   * What the terminal's cap counts: each code per file (default), or over the whole run (a command
   * whose every problem is in a file of its own: build's pages).
   */
  capPer?: 'file' | 'run';
  /** Whether a terminal gets only the first few of each code (default: when `terminal`); -v says no. */
  capped?: boolean;
}

/**
 * Prints problems, one line each, to `out` (a stream, or an Output that gathers them). On a terminal
 * it counts, per file and code, what it does not show, and `finish` says how many.
 */
export class ProblemPrinter {
  /** file → its codes' counts (on a terminal only): one entry per code, never per problem. */
  private readonly seen = new Map<string, CodeCap>();
  private finished = false;

  constructor(
    private readonly out: { write(text: string): unknown },
    private readonly options: ProblemPrinterOptions,
  ) {}

  private get columns(): number {
    return this.options.columns ?? DEFAULT_COLUMNS;
  }

  /** For a command's stream: a terminal when it is a TTY, of its width. */
  static for(stream: OutputStream, options: Omit<ProblemPrinterOptions, 'terminal' | 'columns'> = {}, out: { write(text: string): unknown } = stream): ProblemPrinter {
    return new ProblemPrinter(out, { ...options, terminal: stream.isTTY === true, columns: terminalColumns(stream) });
  }

  print(p: Problem, file = this.options.file ?? '<input>'): void {
    const line = formatProblem(p, file);
    const { terminal, capped = terminal } = this.options;
    if (!terminal) {
      this.out.write(`${line}\n`);
      return;
    }
    if (capped && p.code !== undefined) {
      const where = this.options.capPer === 'run' ? '' : (p.file ?? file);
      let codes = this.seen.get(where);
      if (codes === undefined) this.seen.set(where, (codes = new CodeCap()));
      if (!codes.admit(p.code)) return;
    }
    this.options.progress?.clear();
    this.out.write(`${fit(line, this.columns)}\n`);
  }

  /**
   * On a terminal, per file and code, "FILE: … and N more: REASON (CODE)" for the problems not shown
   * (without FILE when counted over the run); `note` says where to see them all.
   */
  finish(note?: string): void {
    if (this.finished) return;
    this.finished = true;
    for (const [file, codes] of this.seen) {
      for (const [code, hidden] of codes.hidden()) {
        this.options.progress?.clear();
        const where = file === '' ? '' : `${printable(file)}: `;
        this.out.write(`${fit(`${where}${moreText(code, hidden)}${note !== undefined ? `; ${note}` : ''}`, this.columns)}\n`);
      }
    }
  }
}
