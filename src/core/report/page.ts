// The report's HTML page around its data (issue 26). A plain page for now, replaced by the full one;
// what stays is the frame: `head` ends inside the rows' script element and `tail` starts with its
// end tag, so that the writer streams the rows (base64 of their gzip) between the two; the model is
// embedded as JSON. No request of any kind: the Content-Security-Policy forbids them.

import type { ReportModel } from './model.js';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/** Text as HTML character data. */
function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The page before and after the rows (base64 of the gzipped TSV lines). */
export function reportPageParts(model: ReportModel): { head: string; tail: string } {
  // `<` escaped, so that no value can end the script element (`</script>`) or open a comment.
  const json = JSON.stringify(model).replace(/</g, '\\u003c');
  const { summary } = model;
  const head = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sitemap report: ${html(model.source)}</title>
</head>
<body>
<h1>Sitemap report: ${html(model.source)}</h1>
<p>${summary.files} files, ${summary.urls} URLs, ${summary.errors} errors, ${summary.warnings} warnings.</p>
<script type="application/json" id="sitemapkit-model">${json}</script>
<script type="application/gzip" id="sitemapkit-rows">`;
  return { head, tail: '</script>\n</body>\n</html>\n' };
}
