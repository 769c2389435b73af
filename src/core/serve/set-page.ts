// The set as a page for people (issue 25) at its own address (`sitemap.html`): browsers are dropping
// XSLT (Chromium turns it off from 158), and the sitemaps' own addresses stay XML for the engines.

import { escapeXmlAttribute } from '../xml/escape.js';
import { formatCount } from '../count-text.js';
import { plural } from '../errors.js';
import { newestLastmod, NewestLastmod } from '../datetime.js';
import { SitemapDocument } from '../read/document.js';
import type { Representation, SitemapFile, StreamedRepresentation } from './handler.js';

/** What the page shows; a source that can say it offers `view()`. */
export interface SetView {
  /** When the set's newest file last changed (epoch milliseconds). */
  readonly lastModified: number;
  readonly files: readonly { readonly name: string; readonly urls: number; readonly lastmod?: string }[];
  /** The URLs listed: the first ones of the set, `totalUrls` at most. */
  readonly urls: readonly { readonly loc: string; readonly lastmod?: string }[];
  readonly totalUrls: number;
}

/**
 * The view of a set's files, the first `listed` URLs read back; counts and lastmods read unless given.
 * `pause` gives the caller's event loop a turn between chunks read (the core has no timers): a
 * 50,000-URL child read in one call held a server's other requests for a quarter of a second.
 */
export async function viewOfFiles(lastModified: number, files: readonly { name: string; file: SitemapFile; urls?: number; lastmod?: string }[], listed: number, pause?: () => Promise<void>): Promise<SetView> {
  const urls: SetView['urls'][number][] = [];
  const shown: SetView['files'][number][] = [];
  for (const { name, file, urls: count, lastmod } of files) {
    const read = count === undefined || urls.length < listed ? await pageEntries(file, listed - urls.length, pause) : undefined;
    urls.push(...(read?.entries ?? []));
    const newest = count === undefined ? read?.newest : lastmod;
    shown.push({ name, urls: count ?? read?.count ?? 0, ...(newest !== undefined ? { lastmod: newest } : {}) });
  }
  return { lastModified, files: shown, urls, totalUrls: shown.reduce((sum, f) => sum + f.urls, 0) };
}

/** A file's content as a stream: its identity bytes, else its gzip ones decompressed. */
function bytesOf(file: SitemapFile): ReadableStream<Uint8Array> {
  const stored = (file.identity ?? file.gzip) as Representation | StreamedRepresentation;
  const bytes = (new Response('stream' in stored ? stored.stream() : stored.body).body as ReadableStream<Uint8Array>);
  return file.identity !== undefined ? bytes : bytes.pipeThrough(new DecompressionStream('gzip'));
}

/** A file's content as text. */
export async function textOf(file: SitemapFile): Promise<string> {
  return new TextDecoder().decode(await new Response(bytesOf(file)).arrayBuffer());
}

/** How much is read between two pauses. */
const PAGE_CHUNK = 1 << 20;

/** A sitemap's (XML, or text) URL count, newest lastmod and first `keep` URLs as the page lists them, read a chunk at a time. */
async function pageEntries(file: SitemapFile, keep: number, pause?: () => Promise<void>): Promise<{ entries: SetView['urls'][number][]; count: number; newest?: string }> {
  const entries: SetView['urls'][number][] = [];
  let count = 0;
  const newest = new NewestLastmod();
  const ignore = (): void => {};
  const document = new SitemapDocument({}, {
    format: ignore,
    sitemap: ignore,
    diagnostic: ignore,
    url(entry) {
      count++;
      const lastmod = typeof entry.lastmod === 'string' ? entry.lastmod : undefined;
      newest.add(lastmod);
      if (entries.length < keep) entries.push({ loc: entry.loc, ...(lastmod !== undefined ? { lastmod } : {}) });
    },
  });
  const reader = bytesOf(file).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    for (let at = 0; at < chunk.length; at += PAGE_CHUNK) {
      document.push(chunk.subarray(at, at + PAGE_CHUNK));
      await pause?.();
    }
  }
  document.end();
  return { entries, count, ...(newest.text !== undefined ? { newest: newest.text } : {}) };
}

/** The one script of the page: it filters the list as the reader types. */
const SCRIPT = `const q=document.getElementById('q'),items=[...document.querySelectorAll('#urls li')],n=document.getElementById('n');
q.addEventListener('input',()=>{const t=q.value.toLowerCase();let shown=0;for(const li of items){const on=li.textContent.toLowerCase().includes(t);li.hidden=!on;if(on)shown++}n.textContent=shown});`;

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#222}
table{border-collapse:collapse}td,th{padding:.2rem .8rem;border-bottom:1px solid #ddd;text-align:left}td.n{text-align:right}
input{font:inherit;padding:.3rem;width:100%;max-width:30rem}ol{padding-left:3rem}li{word-break:break-all}time{color:#666;margin-left:.5rem}`;

let scriptHash: Promise<string> | undefined;

/** The page's Content-Security-Policy: nothing from elsewhere; the one script by its hash. */
export async function setPagePolicy(): Promise<string> {
  scriptHash ??= crypto.subtle.digest('SHA-256', new TextEncoder().encode(SCRIPT)).then((digest) => btoa(String.fromCharCode(...new Uint8Array(digest))));
  return `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${await scriptHash}'; base-uri 'none'; form-action 'none'`;
}

export function renderSetPage(view: SetView, title: string): string {
  const e = escapeXmlAttribute;
  const newest = newestLastmod(view.files);
  const rows = view.files.map((f) => `<tr><td><a href="${e(f.name)}">${e(f.name)}</a></td><td class="n">${formatCount(f.urls)}</td><td>${e(f.lastmod ?? '')}</td></tr>`);
  const items = view.urls.map((u) => `<li><a href="${e(u.loc)}" rel="nofollow">${e(u.loc)}</a>${u.lastmod !== undefined ? `<time>${e(u.lastmod)}</time>` : ''}</li>`);
  const listed = view.urls.length < view.totalUrls ? ` (the first ${formatCount(view.urls.length)} listed)` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(title)}</title><style>${STYLE}</style></head><body>
<h1>${e(title)}</h1>
<p>${plural(view.totalUrls, 'URL')} in ${plural(view.files.length, 'file')}${newest !== undefined ? `; newest lastmod ${e(newest)}` : ''}.</p>
<table><thead><tr><th>File</th><th>URLs</th><th>Newest lastmod</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<h2>URLs${listed}</h2>
<p><input id="q" type="search" placeholder="Filter URLs" aria-label="Filter URLs"> <span id="n">${view.urls.length}</span> shown</p>
<ol id="urls">
${items.join('\n')}
</ol>
<script>${SCRIPT}</script>
</body></html>
`;
}
