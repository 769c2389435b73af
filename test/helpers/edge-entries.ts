// Documents made of fast-check's edge-value entries, for the lane's equivalence tests (read and validate).

/** An entry's fields as the arbitraries give them; null: the element is left out. */
export interface EdgeEntry {
  loc: string;
  lastmod: string | null;
  changefreq: string | null;
  priority: string | null;
}

/** The entries as a sitemap index (`index`) or as the body of a urlset given to `urlset`. */
export function edgeDocument(entries: readonly EdgeEntry[], index: boolean, urlset: (body: string) => string): string {
  const body = entries
    .map((e) => {
      const lastmod = e.lastmod === null ? '' : `<lastmod>${e.lastmod}</lastmod>`;
      if (index) return `<sitemap><loc>${e.loc}</loc>${lastmod}</sitemap>`;
      return `<url><loc>${e.loc}</loc>${lastmod}${e.changefreq === null ? '' : `<changefreq>${e.changefreq}</changefreq>`}${e.priority === null ? '' : `<priority>${e.priority}</priority>`}</url>`;
    })
    .join('\n');
  return index ? `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>` : urlset(body);
}
