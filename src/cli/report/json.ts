// The machine-readable report of `sitemapkit validate --format json`. The shape is a contract
// (version 1): fields are only ever added, and a change of meaning bumps `version`.
//
//   {
//     "version": 1,
//     "summary": { "files", "entries", "errors", "warnings", "infos" },
//     "files": [                                  every file, clean ones included, in input order
//       { "file", "format" (null when unreadable), "entries", "errors", "warnings", "infos",
//         "schemaValid" (libxml2's verdict against the sitemap schemas; null where none applies:
//                        RSS, Atom, text, or not computed),
//         "diagnostics": [ { "code", "severity", "message",
//                            "line", "column" (1-based; null when the diagnostic has no position),
//                            "hint" (only when there is one) } ] }
//     ]
//   }
//
// "diagnostics" hold at most 1,000 of each code, then a `diagnostics/truncated` entry; counts are exact.

import type { Diagnostic, Severity } from '../../core/diagnostics.js';
import type { SitemapFormat } from '../../core/read/types.js';
import { summarize, type FileReport, type ValidationSummary } from '../../core/validate/types.js';

const JSON_REPORT_VERSION = 1;

export interface JsonReport {
  readonly version: typeof JSON_REPORT_VERSION;
  readonly summary: ValidationSummary;
  readonly files: readonly JsonFileReport[];
}

interface JsonFileReport {
  readonly file: string;
  readonly format: SitemapFormat | null;
  readonly entries: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** Whether the sitemap schemas accept the file; null where none applies. */
  readonly schemaValid: boolean | null;
  readonly diagnostics: readonly JsonDiagnostic[];
}

interface JsonDiagnostic {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly line: number | null;
  readonly column: number | null;
  readonly hint?: string;
}

export function formatJson(reports: readonly FileReport[]): string {
  const document: JsonReport = {
    version: JSON_REPORT_VERSION,
    summary: summarize(reports),
    files: reports.map(fileReport),
  };
  return JSON.stringify(document, null, 2) + '\n';
}

function fileReport(report: FileReport): JsonFileReport {
  const { errors, warnings, infos } = summarize([report]);
  return {
    file: report.file,
    format: report.format ?? null,
    entries: report.entries,
    errors,
    warnings,
    infos,
    schemaValid: report.schemaValid ?? null,
    diagnostics: report.diagnostics.map(diagnostic),
  };
}

function diagnostic(d: Diagnostic): JsonDiagnostic {
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    // null rather than absent: every diagnostic has the same keys.
    line: d.line ?? null,
    column: d.column ?? null,
    ...(d.hint !== undefined ? { hint: d.hint } : {}),
  };
}
