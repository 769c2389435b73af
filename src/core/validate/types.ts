// What validation produces: per file, the diagnostics of every rule that fired, and a summary.

import { countDiagnostics, type DiagnosticCounts, type Diagnostic, type Severity } from '../diagnostics.js';
import { isFeed, type EntryPosition, type SitemapFormat } from '../read/types.js';
import type { Limits, UrlEntry } from '../model.js';

/** What the documentation says of one rule (docs/rules.md has the long form). */
export interface RuleInfo {
  /** Stable code, e.g. `loc/not-encoded`. */
  readonly code: string;
  /** Default severity; the command line and the config file may change it or turn the rule off. */
  readonly severity: Severity;
  /** One line: what the rule checks. */
  readonly title: string;
  /** The Search Console message it corresponds to, when there is one (e.g. "Invalid date"). */
  readonly searchConsole?: string;
}

/** A rule that checks one entry (a `<url>` or an index's `<sitemap>`), whatever path read it. */
export interface EntryRule extends RuleInfo {
  /** The entry fields it reads. */
  readonly reads: readonly (keyof UrlEntry)[];
  check(entry: UrlEntry, at: EntryPosition, context: EntryRuleContext): void;
}

export interface EntryRuleContext {
  readonly limits: Readonly<Limits>;
  /** "Now", in epoch milliseconds. */
  readonly now: number;
  /** A `YYYY-MM-DD` before which every W3C Datetime is surely past (datetime.ts surelyPastBefore). */
  readonly pastBefore: string;
  report(rule: RuleInfo, message: string, at: EntryPosition | undefined, hint?: string): void;
}

/** The validation of one file (or stdin, or a URL). */
export interface FileReport {
  /** As the user named it (a path, `-` for stdin, or a URL). */
  readonly file: string;
  /** The detected format; undefined when the file could not be read at all. */
  readonly format: SitemapFormat | undefined;
  /** Entries read (urls or sitemaps). */
  readonly entries: number;
  /** In document order; at most `maxDiagnosticsPerCode` of each code, then a `diagnostics/truncated` entry. */
  readonly diagnostics: readonly Diagnostic[];
  /** Whether `xmllint --schema` accepts the file; null for a feed or a text sitemap; absent if not computed. */
  readonly schemaValid?: boolean | null;
  /** Exact counts by severity, those left out of `diagnostics` included; when absent, `diagnostics` holds them all. */
  readonly counts?: DiagnosticCounts;
}

/** The verdict a report states: null for the formats no schema declares (a feed, a list of URLs). */
export function schemaVerdict(format: SitemapFormat | undefined, schemaValid: boolean): boolean | null {
  return isFeed(format) || format === 'text' ? null : schemaValid;
}

/** Counts over a set of reports. */
export interface ValidationSummary {
  readonly files: number;
  readonly entries: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

export function summarize(reports: readonly FileReport[]): ValidationSummary {
  const summary = { files: reports.length, entries: 0, errors: 0, warnings: 0, infos: 0 };
  for (const r of reports) {
    const counts = reportCounts(r);
    summary.entries += r.entries;
    summary.errors += counts.errors;
    summary.warnings += counts.warnings;
    summary.infos += counts.infos;
  }
  return summary;
}

/** A report's exact counts by severity: its `counts`, or those of its list. */
export function reportCounts(report: FileReport): DiagnosticCounts {
  return report.counts ?? countDiagnostics(report.diagnostics);
}
