// Problems as every command prints them, one line each: FILE:LINE:COL: severity code message (hint).
// A pipe or a file gets every line, whole. A terminal gets lines cut to its width and, per file, the
// first few problems of each code, then a count: 200,000 identical problems are a count, not a scroll.

import type { Diagnostic } from '../core/diagnostics.js';
import type { OutputStream } from './io.js';
import { fit, formatCount, printable } from './format.js';

/** A diagnostic, or a problem of a command that has no stable code for it. */
export type Problem = Omit<Diagnostic, 'code'> & { code?: string };

/** Without the line feed; `file` when `p` names none. A position not known is left out, never 0. */
export function formatProblem(p: Problem, file = '<input>'): string {
  const line = p.line !== undefined && p.line >= 1 ? `:${p.line}` : '';
  const column = line !== '' && p.column !== undefined && p.column >= 1 ? `:${p.column}` : '';
  const code = p.code !== undefined ? ` ${printable(p.code)}` : '';
  const hint = p.hint !== undefined ? ` (${printable(p.hint)})` : '';
  return `${printable(p.file ?? file)}${line}${column}: ${p.severity}${code} ${printable(p.message)}${hint}`;
}

/** Columns of a terminal when the stream does not say. */
const DEFAULT_COLUMNS = 100;

export function terminalColumns(stream: OutputStream): number {
  const columns = stream.columns;
  return columns !== undefined && Number.isInteger(columns) && columns > 0 ? columns : DEFAULT_COLUMNS;
}

/** Problems shown per code and file on a terminal before they are only counted. */
const SHOWN_PER_CODE = 5;

/** What a code's problems have in common, for "… and N more: REASON (CODE)". */
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

/** "… and N more: REASON (CODE)", or the code alone when REPEATED has no reason for it. */
export function moreText(code: string, hidden: number): string {
  const reason = REPEATED[code];
  return `\u2026 and ${formatCount(hidden)} more: ${reason !== undefined ? `${reason} (${printable(code)})` : printable(code)}`;
}

/** The terminal's cap over one file (or run): admits the first SHOWN_PER_CODE problems of each code. */
export class CodeCap {
  /** One entry per code, never per problem. */
  private readonly seen = new Map<string, number>();

  /** Counts a problem of `code`; whether it is to be shown. */
  admit(code: string): boolean {
    const seen = (this.seen.get(code) ?? 0) + 1;
    this.seen.set(code, seen);
    return seen <= SHOWN_PER_CODE;
  }

  /** [code, problems not shown], in the order first seen. */
  *hidden(): IterableIterator<[string, number]> {
    for (const [code, seen] of this.seen) if (seen > SHOWN_PER_CODE) yield [code, seen - SHOWN_PER_CODE];
  }
}

export interface ProblemPrinterOptions {
  /** A person watches: lines cut to `columns`, SHOWN_PER_CODE per code and file, then counted. */
  terminal: boolean;
  columns?: number;
  /** Cleared before a problem is printed (the line it shares the screen with). */
  progress?: { clear(): void };
  /** File of the problems that name none. */
  file?: string;
  /** Where the cap counts: per file (default), or over the run (build: every page is a file of its own). */
  capPer?: 'file' | 'run';
  /** Default: when `terminal`; -v says no. */
  capped?: boolean;
}

/** Prints problems, one line each, to `out`; on a terminal, `finish` counts what it did not show. */
export class ProblemPrinter {
  /** file → its codes' counts (on a terminal only). */
  private readonly seen = new Map<string, CodeCap>();
  private finished = false;

  constructor(
    private readonly out: { write(text: string): unknown },
    private readonly options: ProblemPrinterOptions,
  ) {}

  private get columns(): number {
    return this.options.columns ?? DEFAULT_COLUMNS;
  }

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

  /** On a terminal, "FILE: … and N more: REASON (CODE)" per file and code; `note` says where to see them all. */
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
