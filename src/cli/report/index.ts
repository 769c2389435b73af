// The report formats of `sitemapkit validate --format`: pure functions from FileReports to text.

export { formatStylish, StylishWriter, STYLISH_BLOCK_ROWS, type StylishOptions, type StylishOutcome, type StylishWriterOptions } from './stylish.js';
export { formatJson, JSON_REPORT_VERSION, type JsonReport, type JsonFileReport, type JsonDiagnostic } from './json.js';
export { formatGithub, githubLine } from './github.js';
export { formatSarif, SARIF_SCHEMA, type SarifOptions } from './sarif.js';
export { formatJunit } from './junit.js';

export type ReportFormat = 'stylish' | 'json' | 'github' | 'sarif' | 'junit';

/** In the order of the help text; the first is the default. */
export const REPORT_FORMATS: readonly ReportFormat[] = ['stylish', 'json', 'github', 'sarif', 'junit'];
