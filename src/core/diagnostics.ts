// Diagnostics are data (DESIGN.md): a stable code, a severity, a message, where, and a hint.
// Rendering (FILE:LINE:COL code message, JSON, SARIF) is a separate concern.

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

/** `FILE:LINE:COL: severity code message` (the compiler convention), for terminals and CI logs. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = [d.file ?? '<input>', d.line, d.column].filter((part) => part !== undefined).join(':');
  return `${where}: ${d.severity} ${d.code} ${d.message}${d.hint !== undefined ? ` (${d.hint})` : ''}`;
}
