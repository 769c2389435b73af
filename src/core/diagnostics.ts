// Diagnostics are data (DESIGN.md); rendering is the CLI's concern.

import { SitemapError, plural } from './errors.js';
import { formatCount } from './count-text.js';

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  /** Stable rule id, e.g. `xml/not-well-formed`, `loc/not-absolute`; listed in docs/rules.md. */
  code: string;
  severity: Severity;
  message: string;
  file?: string;
  /** 1-based line of the decoded text (LF, CRLF and CR each end a line). */
  line?: number;
  /** 1-based column: UTF-16 code units from the start of the line, as editors count them. */
  column?: number;
  /** 0-based offset in UTF-16 code units of the decoded text. */
  offset?: number;
  /** How to fix it, when that helps. */
  hint?: string;
}

/** A diagnostic at a position (1-based line and column, 0-based offset), with `hint` only when there is one. */
export function diagnosticAt(code: string, severity: Severity, message: string, line: number, column: number, offset: number, hint?: string): Diagnostic {
  const d: Diagnostic = { code, severity, message, line, column, offset };
  if (hint !== undefined) d.hint = hint;
  return d;
}

// ---------------------------------------------------------------------------------------------------
// Bounded retention: a hostile input can hold a problem per line. What is kept is capped per code; the
// counts stay exact, and the callback sees every one.

/** Default of `maxDiagnosticsPerCode`. */
export const DEFAULT_MAX_DIAGNOSTICS_PER_CODE = 1_000;

/** The code of the entry that says what was not kept. */
export const TRUNCATED_CODE = 'diagnostics/truncated';

/** The rules of decompression's refusals (node/decompress.ts), reported as diagnostics where the reading stops. */
export const BYTE_BUDGET_CODES: ReadonlySet<string> = new Set(['budget/decompressed-size', 'budget/compressed-size', 'budget/gzip-depth', 'gzip/corrupt']);
/** Codes after which a reading stops: diff's "equal" or "removed" would then be a guess; report's last row is where it stopped. */
export const READING_STOPPED: ReadonlySet<string> = new Set([...BYTE_BUDGET_CODES, 'budget/entries']);

/** Exact numbers of diagnostics by severity (the `diagnostics/truncated` entry is not counted). */
export interface DiagnosticCounts {
  errors: number;
  warnings: number;
  infos: number;
}

interface DiagnosticCollectorOptions {
  /** Diagnostics of one code kept; default 1,000. 0 keeps none (they are still counted and passed on); Infinity keeps all. */
  maxPerCode?: number;
  /** Receives every diagnostic, kept or not, as it is added. */
  onDiagnostic?: (d: Diagnostic) => void;
}

/** Throws `ERR_SITEMAP_OPTION` unless `cap` is undefined or a valid `maxDiagnosticsPerCode`: a whole number ≥ 0, or Infinity. */
export function checkDiagnosticCap(cap: number | undefined): void {
  if (cap !== undefined && cap !== Infinity && !(Number.isInteger(cap) && cap >= 0)) throw new SitemapError('ERR_SITEMAP_OPTION', `maxDiagnosticsPerCode must be a whole number ≥ 0 or Infinity, got ${String(cap)}`);
}

/** One document's diagnostics: the first `maxPerCode` of each code and exact counts; memory grows with codes only. */
export class DiagnosticCollector {
  /** The diagnostics kept, in the order added. */
  readonly retained: Diagnostic[] = [];
  errors = 0;
  warnings = 0;
  infos = 0;
  /** Diagnostics not kept. */
  dropped = 0;
  private readonly maxPerCode: number;
  private readonly onDiagnostic: ((d: Diagnostic) => void) | undefined;
  /** Every code seen → [added, not kept]. */
  private readonly byCode = new Map<string, [number, number]>();

  constructor(options: DiagnosticCollectorOptions = {}) {
    const cap = options.maxPerCode ?? DEFAULT_MAX_DIAGNOSTICS_PER_CODE;
    checkDiagnosticCap(cap);
    this.maxPerCode = cap;
    this.onDiagnostic = options.onDiagnostic;
  }

  /** Counts `d`, keeps it if its code is under the cap, passes it on. True when kept. */
  add(d: Diagnostic): boolean {
    if (d.severity === 'error') this.errors++;
    else if (d.severity === 'warning') this.warnings++;
    else this.infos++;
    let seen = this.byCode.get(d.code);
    if (seen === undefined) {
      seen = [0, 0];
      this.byCode.set(d.code, seen);
    }
    const kept = seen[0] < this.maxPerCode;
    seen[0]++;
    if (kept) this.retained.push(d);
    else {
      seen[1]++;
      this.dropped++;
    }
    this.onDiagnostic?.(d);
    return kept;
  }

  /** Exact counts by severity. */
  get counts(): DiagnosticCounts {
    return { errors: this.errors, warnings: this.warnings, infos: this.infos };
  }

  /** Diagnostics added in all, kept or not. */
  get total(): number {
    return this.errors + this.warnings + this.infos;
  }

  /** The codes some of whose diagnostics were not kept → how many were not, most first. */
  droppedByCode(): Array<[string, number]> {
    const out: Array<[string, number]> = [];
    for (const [code, [, dropped]] of this.byCode) if (dropped > 0) out.push([code, dropped]);
    return out.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  }

  /** The `diagnostics/truncated` entry when some were not kept, else undefined. */
  truncation(file?: string): Diagnostic | undefined {
    if (this.dropped === 0) return undefined;
    const byCode = this.droppedByCode().map(([code, n]) => `${code} ${formatCount(n)}`).join(', ');
    const cap = formatCount(this.maxPerCode);
    const d: Diagnostic = {
      code: TRUNCATED_CODE,
      severity: 'info',
      message: `${plural(this.dropped, 'more diagnostic')} not listed (only the first ${this.maxPerCode === 1 ? 'of each code is' : `${cap} of each code are`} kept; the counts include them all): ${byCode}`,
      hint: 'fix the first ones: the others usually have the same cause',
    };
    if (file !== undefined) d.file = file;
    return d;
  }

  /** What a report lists: the kept diagnostics, then the `diagnostics/truncated` entry if any. */
  list(file?: string): Diagnostic[] {
    const out = this.retained.slice();
    const truncated = this.truncation(file);
    if (truncated !== undefined) out.push(truncated);
    return out;
  }
}

/** Exact counts by severity of a report's list: the `diagnostics/truncated` entry is not counted. */
export function countDiagnostics(diagnostics: readonly Diagnostic[]): DiagnosticCounts {
  const collector = new DiagnosticCollector({ maxPerCode: 0 });
  for (const d of diagnostics) if (d.code !== TRUNCATED_CODE) collector.add(d);
  return collector.counts;
}
