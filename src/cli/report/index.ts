// The report formats of `sitemapkit validate --format`: pure functions from FileReports to text.

export { StylishWriter, STYLISH_BLOCK_ROWS, type StylishOutcome } from './stylish.js';
export { formatJson, type JsonReport } from './json.js';
export { githubLine } from './github.js';
export { formatSarif, type SarifOptions } from './sarif.js';
export { formatJunit } from './junit.js';

export type ReportFormat = 'stylish' | 'json' | 'github' | 'sarif' | 'junit';

/** In the order of the help text; the first is the default. */
export const REPORT_FORMATS: readonly ReportFormat[] = ['stylish', 'json', 'github', 'sarif', 'junit'];
