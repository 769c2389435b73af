// `sitemapkit validate --format sarif`: a SARIF 2.1.0 log, for GitHub code scanning. One run; the rules
// are the codes that fired; columns in UTF-16 code units, as the run declares.

import type { Diagnostic, Severity } from '../../core/diagnostics.js';
import type { FileReport, RuleInfo } from '../../core/validate/types.js';

export interface SarifOptions {
  readonly toolVersion: string;
  /** The documentation of a code; undefined for a code the catalogue does not know. */
  readonly rules: (code: string) => RuleInfo | undefined;
}

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

type SarifLevel = 'error' | 'warning' | 'note';
const LEVEL: Record<Severity, SarifLevel> = { error: 'error', warning: 'warning', info: 'note' };

export function formatSarif(reports: readonly FileReport[], options: SarifOptions): string {
  const located = reports.flatMap((report) => report.diagnostics.map((d) => ({ d, uri: artifactUri(report.file) })));
  const codes = [...new Set(located.map(({ d }) => d.code))].sort();
  const ruleIndex = new Map(codes.map((code, i) => [code, i]));
  const rules = codes.map((code) => sarifRule(code, located.find(({ d }) => d.code === code)?.d.severity ?? 'error', options));
  const verdicts = reports
    .filter((report) => report.schemaValid !== undefined)
    .map((report) => ({ location: { uri: artifactUri(report.file) }, properties: { schemaValid: report.schemaValid } }));

  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        // No informationUri (§3.19.17) nor helpUri (§3.49.12): the project publishes no documentation address.
        tool: { driver: { name: 'sitemapkit', version: options.toolVersion, rules } },
        columnKind: 'utf16CodeUnits',
        ...(verdicts.length > 0 ? { artifacts: verdicts } : {}),
        results: located.map(({ d, uri }) => sarifResult(d, uri, ruleIndex.get(d.code) as number)),
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

/** The rule's documented severity is its default level; an unknown code takes that of its first diagnostic. */
function sarifRule(code: string, firstSeverity: Severity, options: SarifOptions) {
  const info = options.rules(code);
  return {
    id: code,
    shortDescription: { text: info?.title ?? code },
    defaultConfiguration: { level: LEVEL[info?.severity ?? firstSeverity] },
    ...(info?.searchConsole !== undefined ? { properties: { searchConsole: info.searchConsole } } : {}),
  };
}

function sarifResult(d: Diagnostic, uri: string, ruleIndex: number): object {
  // SARIF lines and columns start at 1; anything else is no position.
  const region =
    d.line !== undefined && d.line >= 1
      ? { startLine: d.line, ...(d.column !== undefined && d.column >= 1 ? { startColumn: d.column } : {}) }
      : undefined;
  return {
    ruleId: d.code,
    ruleIndex,
    level: LEVEL[d.severity],
    message: { text: d.hint === undefined ? d.message : `${d.message} Fix: ${d.hint}` },
    locations: [{ physicalLocation: { artifactLocation: { uri }, ...(region !== undefined ? { region } : {}) } }],
  };
}

/** A URL serialised (a URI: no space, no raw non-ASCII); a path as a URI reference, relative (code scanning resolves it) or a `file:` URI. */
export function artifactUri(file: string): string {
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(file) && URL.canParse(file)) return new URL(file).href;
  const path = file.replace(/\\/g, '/');
  const encoded = (p: string): string => p.split('/').map(encodeURIComponent).join('/');
  if (/^[a-z]:\//i.test(path)) return `file:///${path.slice(0, 2)}${encoded(path.slice(2))}`;
  if (path.startsWith('/')) return `file://${encoded(path)}`;
  return encoded(path.replace(/^(\.\/)+/, ''));
}
