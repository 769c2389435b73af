// The report as one HTML file (issue 26): `head + base64(gzip(rows)) + tail`. The head holds every
// section (readable without the script) and the model as JSON; the tail carries the one script, which
// unpacks the rows into the URL table (client.ts). Nothing makes a request (CSP default-src 'none'),
// and every model string is hostile: escaped where written.

import { escapeXml, escapeXmlAttribute } from '../xml/escape.js';
import { formatCount } from '../count-text.js';
import { BIDI_CONTROLS, plural } from '../errors.js';
import { LIMITS_PROFILES } from '../model.js';
import type { ReportFile, ReportModel } from './model.js';
import { reportClient } from './client.js';
import { REPORT_STYLE } from './page-style.js';
import { sha256 } from './sha256.js';

// tsx (the tests' loader) compiles with esbuild's keepNames, which wraps the client's inner functions
// in `__name(fn, "name")`: the page defines it as the identity so that the source runs as compiled.
const SCRIPT = `var __name=function(f){return f};(${reportClient.toString()})(${BIDI_CONTROLS});`;
const POLICY = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${btoa(String.fromCharCode(...sha256(new TextEncoder().encode(SCRIPT))))}'; base-uri 'none'; form-action 'none'`;

const text = (value: string): string => escapeXml(value).replace(BIDI_CONTROLS, encodeURIComponent);
const attr = escapeXmlAttribute;
const count = formatCount;

function bytes(value: number): string {
  // The unit goes up where the figure would round to 1024.0 of the one below.
  const [unit, size] = value >= 1023.95 * 1024 ? ['MB', 1_048_576] : value >= 1024 ? ['KB', 1024] : ['bytes', 1];
  return size === 1 ? plural(value, 'byte') : `${(value / size).toFixed(1)} ${unit}`;
}

function share(part: number, whole: number): string {
  if (whole === 0 || part === 0) return '0%';
  // Written into HTML: a bare '<' before a space is a parse error there.
  return part / whole < 0.0005 ? '&lt; 0.1%' : `${((part / whole) * 100).toFixed(part / whole < 0.1 ? 1 : 0)}%`;
}

function figure(label: string, value: string, note = '', className = ''): string {
  return `<div><dt>${label}</dt><dd${className === '' ? '' : ` class="${className}"`}>${value}${note === '' ? '' : `<small>${note}</small>`}</dd></div>`;
}

function section(id: string, title: string, content: string): string {
  return `<section id="${id}" aria-labelledby="${id}-h"><h2 id="${id}-h">${title}</h2>\n${content}\n</section>\n`;
}

/** A table: `head` cells are column headers; the first cell of each row is its row header. */
function dataTable(caption: string, head: string[], rows: string[][], numeric: number[] = []): string {
  const cls = (i: number): string => (numeric.includes(i) ? ' class="n"' : '');
  const headRow = head.map((h, i) => `<th scope="col"${cls(i)}>${h}</th>`).join('');
  const bodyRows = rows.map((row) => `<tr>${row.map((c, i) => (i === 0 ? `<th scope="row">${c}</th>` : `<td${cls(i)}>${c}</td>`)).join('')}</tr>`);
  return `<div class="table-wrap"><table><caption>${caption}</caption><thead><tr>${headRow}</tr></thead><tbody>\n${bodyRows.join('\n')}\n</tbody></table></div>`;
}

/** Horizontal bars, one row each: the label above, the bar scaled to the largest value, the value after it. */
function barChart(label: string, rows: { name: string; value: number }[]): string {
  const largest = Math.max(1, ...rows.map((r) => r.value));
  const rowHeight = 34;
  const bars = rows.map((r, i) => {
    const y = i * rowHeight;
    const width = (r.value / largest) * 80;
    return `<g><title>${text(r.name)}: ${count(r.value)}</title><text x="0" y="${y + 12}">${text(r.name)}</text>`
      + `<rect class="bar" x="0" y="${y + 16}" width="${width.toFixed(2)}%" height="12" rx="2"/>`
      + `<text x="${(width + 1).toFixed(2)}%" y="${y + 27}">${count(r.value)}</text></g>`;
  });
  return `<svg class="chart bars" role="img" aria-label="${attr(label)}" height="${rows.length * rowHeight}">${bars.join('')}</svg>`;
}

interface Bucket { name: string; value: number; future: boolean }

const YEARS_SHOWN = 40;

/**
 * The months from the first to the last with a lastmod, each with its URLs; by year past ten years,
 * at most 40 of them (the 40 that hold the most URLs: a stray 0001 or 9999 falls into "before"/"after").
 */
function freshnessBuckets(byMonth: { month: string; urls: number }[], today: string): Bucket[] {
  const months = byMonth.filter((m) => /^\d{4}-\d{2}$/.test(m.month)).sort((a, b) => (a.month < b.month ? -1 : 1));
  const first = months[0];
  const last = months[months.length - 1];
  if (first === undefined || last === undefined) return [];
  const index = (month: string): number => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
  if (index(last.month) - index(first.month) < 120) {
    const buckets = new Map<string, number>();
    for (let i = index(first.month); i <= index(last.month); i++) buckets.set(`${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`, 0);
    for (const m of months) buckets.set(m.month, (buckets.get(m.month) ?? 0) + m.urls);
    return [...buckets].map(([name, value]) => ({ name, value, future: name > today }));
  }
  const years = new Map<number, number>();
  for (const m of months) years.set(Number(m.month.slice(0, 4)), (years.get(Number(m.month.slice(0, 4))) ?? 0) + m.urls);
  const inWindow = (from: number): number => [...years].reduce((sum, [year, urls]) => sum + (year >= from && year < from + YEARS_SHOWN ? urls : 0), 0);
  const from = [...years.keys()].reduce((best, year) => (inWindow(year) > inWindow(best) ? year : best), Number(first.month.slice(0, 4)));
  const to = Math.max(...[...years.keys()].filter((year) => year < from + YEARS_SHOWN));
  const outside = (test: (year: number) => boolean): number => [...years].reduce((sum, [year, urls]) => sum + (test(year) ? urls : 0), 0);
  const buckets: Bucket[] = [];
  if (from > Number(first.month.slice(0, 4))) buckets.push({ name: `before ${from}`, value: outside((year) => year < from), future: false });
  for (let year = from; year <= to; year++) buckets.push({ name: String(year), value: years.get(year) ?? 0, future: String(year) > today });
  if (to < Number(last.month.slice(0, 4))) buckets.push({ name: `after ${to}`, value: outside((year) => year > to), future: String(to + 1) > today });
  return buckets;
}

/** Vertical bars over time: x in percent of the width (the page's width), y in pixels. */
function histogram(label: string, buckets: Bucket[]): string {
  const largest = Math.max(1, ...buckets.map((b) => b.value));
  const height = 150;
  const step = 100 / buckets.length;
  const bars = buckets.map((b, i) => {
    const barHeight = Math.max(b.value > 0 ? 1 : 0, (b.value / largest) * height);
    const x = (i * step).toFixed(3);
    // Every bucket named up to 12; else each year where it starts, and the first month when no January is near.
    const named = buckets.length <= 12 || !/^\d{4}-\d{2}$/.test(b.name) || b.name.endsWith('-01') || (i === 0 && !buckets.slice(1, 4).some((n) => n.name.endsWith('-01')));
    const tick = named ? `<text x="${x}%" y="${height + 16}">${text(buckets.length > 12 && b.name.endsWith('-01') ? b.name.slice(0, 4) : b.name)}</text>` : '';
    return `<g><title>${text(b.name)}: ${plural(b.value, 'URL')}</title><rect class="${b.future ? 'future' : 'bar'}" x="${x}%" y="${(height - barHeight).toFixed(1)}" width="${(step * 0.8).toFixed(3)}%" height="${barHeight.toFixed(1)}"/>${tick}</g>`;
  });
  return `<svg class="chart" role="img" aria-label="${attr(label)}" height="${height + 22}"><line class="axis" x1="0" x2="100%" y1="${height + 0.5}" y2="${height + 0.5}"/>${bars.join('')}</svg>`;
}

function summarySection(model: ReportModel): string {
  const s = model.summary;
  const schema = s.schema === 'valid' ? ['valid', 'good'] : s.schema === 'invalid' ? ['invalid', 'bad'] : ['not checked', ''];
  const { maxUrlsPerSitemap: urls, maxBytesPerSitemap: size } = LIMITS_PROFILES[s.limits ?? 'current'];
  const headroom = (used: number, limit: number, shown: string): string => `of ${shown}: ${used > limit ? 'over the limit' : `${share(used, limit)} used`}`;
  return section('summary', 'Summary', `<dl class="figures">
${figure('Files', count(s.files))}
${figure('URLs', count(s.urls), s.distinctUrls === s.urls ? 'all distinct' : `${count(s.distinctUrls)} distinct`)}
${figure('Bytes', bytes(s.bytes), s.bytes === s.plainBytes ? 'not compressed' : `${bytes(s.plainBytes)} uncompressed`)}
${figure('Errors', count(s.errors), '', s.errors > 0 ? 'bad' : 'good')}
${figure('Warnings', count(s.warnings), '', s.warnings > 0 ? 'warn' : '')}
${figure('Schema (XSD)', schema[0] as string, '', schema[1])}
${figure('Largest file, URLs', count(s.largestFileUrls), headroom(s.largestFileUrls, urls, count(urls)), s.largestFileUrls > urls ? 'bad' : '')}
${figure('Largest file, size', bytes(s.largestFilePlainBytes), headroom(s.largestFilePlainBytes, size, bytes(size)), s.largestFilePlainBytes > size ? 'bad' : '')}
</dl>`);
}

/** The files depth first from each root, with their depth (children of an index under it). */
function fileTree(files: ReportFile[]): { file: ReportFile; depth: number }[] {
  const children = new Map<number, number[]>();
  files.forEach((file, i) => {
    const siblings = children.get(file.parent);
    if (siblings === undefined) children.set(file.parent, [i]);
    else siblings.push(i);
  });
  const ordered: { file: ReportFile; depth: number }[] = [];
  const seen = new Set<number>();
  const visit = (i: number, depth: number): void => {
    if (seen.has(i)) return;
    seen.add(i);
    ordered.push({ file: files[i] as ReportFile, depth });
    for (const child of children.get(i) ?? []) visit(child, depth + 1);
  };
  files.forEach((file, i) => { if (file.parent < 0 || file.parent >= files.length) visit(i, 0); });
  files.forEach((_, i) => visit(i, 0));
  return ordered;
}

function treeSection(model: ReportModel): string {
  const http = model.files.some((f) => f.http !== undefined);
  const head = ['File', 'Kind', 'Entries', 'Stored', 'Uncompressed', 'Index lastmod', 'Newest lastmod', 'Errors', 'Warnings', ...(http ? ['HTTP', 'ETag', 'Last-Modified', 'Time'] : [])];
  const rows = fileTree(model.files).map(({ file, depth }) => {
    const cells = [
      `<th scope="row" class="depth${Math.min(depth, 2)}">${depth > 0 ? '<span aria-hidden="true">└ </span>' : ''}<code>${text(file.name)}</code></th>`,
      `<td>${text(file.kind)}${file.gzipped ? ', gzipped' : ''}</td>`,
      `<td class="n">${count(file.entries)}</td>`, `<td class="n">${bytes(file.bytes)}</td>`, `<td class="n">${bytes(file.plainBytes)}</td>`,
      `<td>${text(file.indexLastmod ?? '')}</td>`, `<td>${text(file.newestLastmod ?? '')}</td>`,
      `<td class="n${file.errors > 0 ? ' bad' : ''}">${count(file.errors)}</td>`, `<td class="n${file.warnings > 0 ? ' warn' : ''}">${count(file.warnings)}</td>`,
    ];
    if (http) {
      const h = file.http;
      cells.push(`<td class="n${h !== undefined && h.status >= 400 ? ' bad' : ''}">${h?.status ?? ''}</td>`, `<td><code>${text(h?.etag ?? '')}</code></td>`,
        `<td>${text(h?.lastModified ?? '')}</td>`, `<td class="n">${h === undefined ? '' : `${count(Math.round(h.milliseconds))} ms`}</td>`);
    }
    return `<tr>${cells.join('')}</tr>`;
  });
  const headRow = head.map((h, i) => `<th scope="col"${i >= 2 && i <= 4 || i >= 7 && i !== 10 && i !== 11 ? ' class="n"' : ''}>${h}</th>`).join('');
  return section('files', 'The set', `<p>Each index with the files it lists under it. Entries are URLs, or sitemaps for an index.</p>
<div class="table-wrap"><table class="tree"><caption class="visually-hidden">The files of the set</caption>
<thead><tr>${headRow}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`);
}

function problemsSection(model: ReportModel): string {
  if (model.problems.length === 0) return section('problems', 'Problems', '<p class="good">No problems found.</p>');
  const items = model.problems.map((p) => {
    const examples = p.examples.map((e) => {
      const at = `${e.file}${e.line === undefined ? '' : `:${e.line}${e.column === undefined ? '' : `:${e.column}`}`}`;
      return `<li><code>${text(at)}</code> ${text(e.message)}</li>`;
    });
    const more = p.count > p.examples.length ? `<p class="muted">${count(p.count - p.examples.length)} more not listed.</p>` : '';
    return `<article class="problem ${attr(p.severity)}"><h3><code>${text(p.code)}</code> ${text(p.title)}</h3>
<p><strong class="${p.severity === 'error' ? 'bad' : 'warn'}">${plural(p.count, p.severity === 'info' ? 'note' : text(p.severity))}</strong></p>
${p.searchConsole === undefined ? '' : `<p>Search Console: “${text(p.searchConsole)}”</p>`}
${p.fix === undefined ? '' : `<p><strong>Fix:</strong> ${text(p.fix)}</p>`}
${examples.length > 0 ? `<ol>${examples.join('')}</ol>` : ''}${more}</article>`;
  });
  return section('problems', 'Problems', `<p>${plural(model.problems.length, 'kind')} of problem, grouped by code.</p>\n${items.join('\n')}`);
}

function directoriesSection(model: ReportModel): string {
  const rows = model.directories.map((d) => ({ name: d.prefix, value: d.urls }));
  if (rows.length === 0) return section('directories', 'URLs per directory', '<p>No URLs.</p>');
  const top = rows.slice(0, 25);
  // A link fills the table's filter: `/blog/…` (the rest of /blog/) with /blog/, a host's root `//e.com/` with //e.com (`https://e.com` has no path); `(other)` is no prefix.
  const link = (name: string): string => (name === '(other)' ? name : `<a href="#urls" data-filter="${attr(name.replace(/\u2026$|^(\/\/[^/]*)\/$/, '$1'))}" title="Show these URLs in the table"><code>${text(name)}</code></a>`);
  const all = dataTable('URLs per path prefix', ['Prefix', 'URLs', 'Share'], rows.map((r) => [link(r.name), count(r.value), share(r.value, model.summary.urls)]), [1, 2]);
  return section('directories', 'URLs per directory', `${barChart(`URLs per path prefix${top.length < rows.length ? `, the ${top.length} largest` : ''}`, top)}
<details><summary>${rows.at(-1)?.name === '(other)' ? `The ${count(rows.length - 1)} largest prefixes and the rest` : rows.length === 1 ? 'The prefix' : `All ${count(rows.length)} prefixes`} as a table</summary>${all}</details>`);
}

function sharesTable(caption: string, values: { value: string; urls: number }[], total: number): string {
  return dataTable(caption, ['Value', 'URLs', 'Share'], values.map((v) => [v.value === '' ? '<span class="muted">(none)</span>' : text(v.value), count(v.urls), share(v.urls, total)]), [1, 2]);
}

function freshnessSection(model: ReportModel): string {
  const f = model.freshness;
  const today = model.generatedAt.slice(0, 7);
  const buckets = freshnessBuckets(f.byMonth, today);
  const callouts = [
    f.future > 0 ? `<p class="callout"><strong class="bad">${plural(f.future, 'URL')}</strong> ${f.future === 1 ? 'has' : 'have'} a lastmod in the future; Google ignores a lastmod it cannot trust.</p>` : '',
    f.missing > 0 ? `<p class="callout"><strong>${plural(f.missing, 'URL')}</strong> (${share(f.missing, model.summary.urls)}) ${f.missing === 1 ? 'has' : 'have'} no lastmod.</p>` : '',
    f.allSame !== undefined ? `<p class="callout">Every URL with a lastmod has the same one, <code>${text(f.allSame)}</code>: it looks like the time the sitemap was generated, not when pages changed, and Google then ignores it.</p>` : '',
  ].join('');
  const chart = buckets.length === 0 ? '<p>No URL has a lastmod.</p>'
    : `${histogram('URLs by month of their lastmod', buckets)}${buckets.some((b) => b.future) ? '<p class="muted">Periods after the report was made are drawn in red.</p>' : ''}
<details><summary>The months as a table</summary>${dataTable('URLs by lastmod', ['Period', 'URLs'], buckets.map((b) => [text(b.name), count(b.value)]), [1])}</details>`;
  const total = model.summary.urls;
  return section('freshness', 'Freshness', `${callouts}<h3>lastmod by ${buckets.some((b) => b.name.includes('-')) ? 'month' : 'year'}</h3>
${chart}
<h3>changefreq and priority</h3>
<p class="muted">Google ignores both <code>changefreq</code> and <code>priority</code>; it uses <code>lastmod</code> when it is consistently accurate.</p>
<div class="pair">${sharesTable('changefreq', model.freshness.changefreq, total)}
${sharesTable('priority', model.freshness.priority, total)}</div>`);
}

function extensionsSection(model: ReportModel): string {
  const x = model.extensions;
  const perUrl = x.imagesPerUrl.map((urls, i) => [i === 9 ? '10 or more' : String(i + 1), count(urls)]).filter((row) => row[1] !== '0');
  const reciprocity = x.hreflangProblems.examples.map((e) => [`<code>${text(e.loc)}</code>`, `<code>${text(e.alternate)}</code>`]);
  return section('extensions', 'Extensions', `<dl class="figures">
${figure('URLs with images', count(x.urlsWithImages), plural(x.images, 'image'))}
${figure('Videos', count(x.videos))}
${figure('News articles', count(x.news), x.news > 0 ? `${count(x.newsAge.recent)} within 2 days, ${count(x.newsAge.month)} within 30, ${count(x.newsAge.older)} older` : '')}
${figure('URLs with hreflang', count(x.hreflangUrls), plural(x.hreflangGroups, 'group'))}
${figure('hreflang not reciprocal', count(x.hreflangProblems.count), '', x.hreflangProblems.count > 0 ? 'bad' : '')}
</dl>
${perUrl.length > 0 ? dataTable('Images per URL', ['Images', 'URLs'], perUrl, [1]) : ''}
${x.news > 0 ? '<p class="muted">Google News takes articles published in the last two days.</p>' : ''}
${reciprocity.length > 0 ? dataTable('hreflang alternates that do not name the page back (first examples)', ['Page', 'Alternate'], reciprocity) : ''}`);
}

function duplicatesSection(model: ReportModel): string {
  const d = model.duplicates;
  const examples = d.examples.map((e) => [`<code>${text(e.loc)}</code>`, e.files.map((f) => `<code>${text(f)}</code>`).join(', ')]);
  return section('duplicates', 'Duplicates', `<dl class="figures">
${figure('URLs listed more than once', count(d.count), '', d.count > 0 ? 'warn' : 'good')}
${figure('URLs in several files', count(d.inSeveralFiles), '', d.inSeveralFiles > 0 ? 'warn' : '')}
</dl>
${examples.length > 0 ? dataTable('First duplicates', ['URL', 'Listed in'], examples) : ''}`);
}

function compareSection(compare: NonNullable<ReportModel['compare']>): string {
  const perFile = compare.perFile.map((f) => [`<code>${text(f.file)}</code>`, count(f.added), count(f.removed), count(f.changed)]);
  const kinds = (['added', 'removed', 'changed'] as const).map((kind) => {
    const items = compare.examples.filter((e) => e.kind === kind).map((e) => `<li><code>${text(e.loc)}</code>${e.file === undefined ? '' : ` <span class="muted">in ${text(e.file)}</span>`}${e.fields === undefined || e.fields.length === 0 ? '' : `: ${e.fields.map(text).join(', ')}`}</li>`);
    const total = compare[kind];
    const heading = `${kind[0]?.toUpperCase()}${kind.slice(1)}${items.length < total ? ` (the first ${count(items.length)} of ${count(total)})` : ''}`;
    return items.length === 0 ? '' : `<h3>${heading}</h3><ul class="compare-${kind}">${items.join('')}</ul>`;
  });
  return section('compare', 'Changes since the previous version', `<p>Against <code>${text(compare.previous)}</code>.</p>
<dl class="figures">
${figure('Added', count(compare.added))}
${figure('Removed', count(compare.removed))}
${figure('Changed', count(compare.changed), 'lastmod, changefreq, priority or extension data')}
</dl>
${perFile.length > 0 ? dataTable('Changes per file', ['File', 'Added', 'Removed', 'Changed'], perFile, [1, 2, 3]) : ''}
${kinds.join('\n')}`);
}

function urlTableSection(model: ReportModel): string {
  const columns = ['URL', 'lastmod', 'File', 'changefreq', 'priority', 'Images', 'Alternates', 'Notes'];
  const head = columns.map((c, i) => `<th scope="col" aria-sort="none"${i >= 4 && i <= 6 ? ' class="n"' : ''}><button type="button">${c}</button></th>`).join('');
  return section('urls', 'Every URL', `<div class="controls">
<label for="url-filter">Filter URLs</label>
<input id="url-filter" type="search" autocomplete="off" spellcheck="false" placeholder="part of a URL or a lastmod" aria-describedby="url-status" disabled>
<label for="url-only">Show</label>
<select id="url-only" disabled><option value="">every URL</option><option value="e">with an error</option><option value="w">with a warning</option><option value="d">listed more than once</option><option value="f">with a lastmod in the future</option><option value="s">where reading stopped</option></select>
<a id="url-csv" href="#urls" download="sitemapkit-urls.csv" hidden>Download the rows shown as CSV</a>
</div>
<p id="url-status" role="status">Unpacking ${plural(model.summary.urls, 'URL')}…</p>
<div class="table-wrap"><table id="url-table"><caption class="visually-hidden">Every URL of the set; the column buttons sort it.</caption>
<thead><tr>${head}</tr></thead><tbody id="url-rows"></tbody></table></div>
<nav class="pager" aria-label="Pages of the URL table"><button type="button" id="url-previous" disabled>Previous page</button><span id="url-page">Page 1 of 1</span><button type="button" id="url-next" disabled>Next page</button>
<label>Rows per page <select id="url-page-size"><option>50</option><option selected>100</option><option>500</option><option>1000</option></select></label></nav>
<noscript><p>The table of every URL needs JavaScript; the sections above do not.</p></noscript>`);
}

/** The page around the rows: `head + base64(gzip(rows))  + tail` is the report file. */
export function reportPageParts(model: ReportModel): { head: string; tail: string } {
  const sections: [string, string, string][] = [
    ['summary', 'Summary', summarySection(model)], ['files', 'The set', treeSection(model)], ['problems', 'Problems', problemsSection(model)],
    ['directories', 'Directories', directoriesSection(model)], ['freshness', 'Freshness', freshnessSection(model)],
    ['extensions', 'Extensions', extensionsSection(model)], ['duplicates', 'Duplicates', duplicatesSection(model)],
    ...(model.compare === undefined ? [] : [['compare', 'Changes', compareSection(model.compare)] as [string, string, string]]),
    ['urls', 'Every URL', urlTableSection(model)],
  ];
  const toc = sections.map(([id, title]) => `<li><a href="#${id}">${title}</a></li>`).join('');
  const json = JSON.stringify(model).replace(/</g, '\\u003c');
  const head = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><meta name="robots" content="noindex">
<title>Sitemap report: ${text(model.source)}</title><style>${REPORT_STYLE}</style></head>
<body><header><h1>Sitemap report</h1><p><code>${text(model.source)}</code></p>
<p class="muted">Made by sitemapkit ${text(model.sitemapkitVersion)} on <time datetime="${attr(model.generatedAt)}">${text(model.generatedAt)}</time>.</p>
<nav class="toc" aria-label="Sections"><ul>${toc}</ul></nav></header>
<main>
${sections.map((s) => s[2]).join('')}</main>
<script type="application/json" id="sitemapkit-model">${json}</script>
<script type="application/gzip" id="sitemapkit-rows">`;
  const tail = `</script>
<script>${SCRIPT}</script>
</body></html>
`;
  return { head, tail };
}
