// `sitemapkit validate --format github`: GitHub Actions workflow commands, which the runner turns
// into annotations: ::error file=F,line=L,col=C,title=CODE::MESSAGE (`warning`, `notice` for infos).

import type { Diagnostic, Severity } from '../../core/diagnostics.js';
import { printable } from '../format.js';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** One diagnostic of `file` as a workflow command line (`\n` included): the report can stream. */
export function githubLine(file: string, d: Diagnostic): string {
  const properties: Array<[string, string]> = [];
  if (file !== '-' && file !== '<stdin>') properties.push(['file', file]);
  if (d.line !== undefined) {
    properties.push(['line', String(d.line)]);
    if (d.column !== undefined) properties.push(['col', String(d.column)]);
  }
  properties.push(['title', d.code]);
  const propertyList = properties.map(([key, value]) => `${key}=${escapeProperty(value)}`).join(',');
  const message = d.hint === undefined ? d.message : `${d.message}\nFix: ${d.hint}`;
  return `::${COMMAND[d.severity]} ${propertyList}::${escapeData(message)}\n`;
}

// The runner's escaping (as in @actions/core): data ends at the line end, properties also at `,`
// and the `::` that starts the data. Other control characters (an ESC) would reach the log raw.
function escapeData(text: string): string {
  return printable(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
