// Reports for the browser tests and the page benchmark, built without the reader: a ReportModel and
// the rows written here, assembled as `sitemapkit report` assembles its file (page.ts).
import { existsSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { reportPageParts } from '../../src/core/report/page.js';
import type { ReportModel } from '../../src/core/report/model.js';

/** The report file: head + base64(gzip(rows, one line each)) + tail. */
export function writeReport(path: string, model: ReportModel, rows: string[]): void {
  const { head, tail } = reportPageParts(model);
  const packed = gzipSync(rows.length === 0 ? '' : `${rows.join('\n')}\n`, { level: 6 }).toString('base64');
  writeFileSync(path, head + packed + tail);
}

/** Debian's chromium, headless, with nothing that would reach the network on its own. */
export function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no browser at ${executablePath}: install Debian's chromium (.ci/run does) or name one with CHROMIUM=/path`);
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** `count` rows of a two-file set (files 1 and 2 under the index, file 0): loc, lastmod, file, … flags. */
export function syntheticRows(count: number): string[] {
  const rows: string[] = [];
  for (let i = 0; i < count; i++) {
    const section = ['blog', 'shop', 'docs', 'news'][i % 4] as string;
    const loc = `https://www.example.com/${section}/item-${i}${i % 7 === 0 ? `?page=${i % 13}&sort=asc` : ''}`;
    const lastmod = i % 10 === 9 ? '' : i % 2 === 0 ? `2026-${String((i % 12) + 1).padStart(2, '0')}-15` : `2025-${String((i % 12) + 1).padStart(2, '0')}-03T10:00:00+00:00`;
    const file = i < count / 2 ? 1 : 2;
    const changefreq = i % 3 === 0 ? 'weekly' : '';
    const priority = i % 5 === 0 ? '0.8' : '';
    rows.push([loc, lastmod, file, changefreq, priority, i % 11 === 0 ? 2 : 0, i % 17 === 0 ? 3 : 0, i % 1000 === 1 ? 'e' : ''].join('\t'));
  }
  return rows;
}

/** A model that agrees with `syntheticRows(urls)` on the counts the page shows. */
export function syntheticModel(urls: number, extra: Partial<ReportModel> = {}): ReportModel {
  const half = Math.ceil(urls / 2);
  return {
    source: 'https://www.example.com/sitemap_index.xml',
    generatedAt: '2026-11-26T20:00:00Z',
    sitemapkitVersion: '0.1.0',
    files: [
      { parent: -1, name: 'sitemap_index.xml', kind: 'sitemapindex', entries: 2, bytes: 400, plainBytes: 400, gzipped: false, errors: 0, warnings: 0, http: { status: 200, etag: '"abc"', lastModified: 'Wed, 25 Nov 2026 10:00:00 GMT', milliseconds: 42 } },
      { parent: 0, name: 'sitemap-1.xml.gz', kind: 'urlset', entries: half, bytes: half * 20, plainBytes: half * 90, gzipped: true, indexLastmod: '2026-11-01', newestLastmod: '2026-12-15', errors: 1, warnings: 0 },
      { parent: 0, name: 'sitemap-2.xml.gz', kind: 'urlset', entries: urls - half, bytes: (urls - half) * 20, plainBytes: (urls - half) * 90, gzipped: true, newestLastmod: '2026-12-15', errors: 0, warnings: 2 },
    ],
    summary: { files: 3, urls, distinctUrls: urls, bytes: 400 + urls * 20, plainBytes: 400 + urls * 90, errors: 1, warnings: 2, schema: 'invalid', largestFileUrls: half, largestFilePlainBytes: half * 90 },
    problems: [
      { code: 'loc/not-absolute', severity: 'error', count: 1, title: 'URL is not absolute', searchConsole: 'Invalid URL', fix: 'Write the full URL, with scheme and host.', examples: [{ file: 'sitemap-1.xml.gz', line: 12, column: 5, message: 'loc "/<script>alert(1)</script>" is relative' }] },
      { code: 'lastmod/future', severity: 'warning', count: 2, title: 'lastmod in the future', fix: 'Write the date the page last changed.', examples: [{ file: 'sitemap-2.xml.gz', line: 40, column: 3, message: 'lastmod 2030-01-01 is in the future' }] },
    ],
    directories: [{ prefix: '/blog/', urls: Math.ceil(urls / 4) }, { prefix: '/shop/', urls: Math.ceil((urls - 1) / 4) }, { prefix: '/docs/', urls: Math.ceil((urls - 2) / 4) }, { prefix: '/news/', urls: Math.ceil((urls - 3) / 4) }],
    freshness: {
      byMonth: [{ month: '2025-01', urls: Math.floor(urls * 0.4) }, { month: '2026-06', urls: Math.floor(urls * 0.5) }],
      future: 2, missing: Math.floor(urls / 10),
      changefreq: [{ value: 'weekly', urls: Math.ceil(urls / 3) }, { value: '', urls: urls - Math.ceil(urls / 3) }],
      priority: [{ value: '0.8', urls: Math.ceil(urls / 5) }, { value: '', urls: urls - Math.ceil(urls / 5) }],
    },
    extensions: {
      urlsWithImages: Math.ceil(urls / 11), images: 2 * Math.ceil(urls / 11), imagesPerUrl: [0, Math.ceil(urls / 11), 0, 0, 0, 0, 0, 0, 0, 0],
      videos: 0, news: 0, newsAge: { recent: 0, month: 0, older: 0 },
      hreflangUrls: Math.ceil(urls / 17), hreflangGroups: Math.ceil(urls / 17), hreflangProblems: { count: 1, examples: [{ loc: 'https://www.example.com/blog/item-0', alternate: 'https://www.example.com/es/blog/item-0' }] },
    },
    duplicates: { count: 0, inSeveralFiles: 0, examples: [] },
    ...extra,
  };
}
