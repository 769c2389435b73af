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

import type { Diagnostic } from '../../core/diagnostics.js';
import { summarize, type FileReport } from '../../core/validate/types.js';

const JSON_REPORT_VERSION = 1;

/** The document's type, as the header above draws it. */
export type JsonReport = ReturnType<typeof jsonReport>;

export function formatJson(reports: readonly FileReport[]): string {
  return JSON.stringify(jsonReport(reports), null, 2) + '\n';
}

function jsonReport(reports: readonly FileReport[]) {
  return { version: JSON_REPORT_VERSION as typeof JSON_REPORT_VERSION, summary: summarize(reports), files: reports.map(fileReport) };
}

function fileReport(report: FileReport) {
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

function diagnostic(d: Diagnostic) {
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
