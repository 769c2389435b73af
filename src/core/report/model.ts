// The report's data (issue 26): aggregates and bounded samples from one streaming pass. The URL rows
// travel apart, as gzipped lines: a 1,000,000-URL set would not fit in a model within the memory budget.

import type { LimitsProfileName } from '../model.js';

/** One file of the set: the index or a child (or the only sitemap). */
export interface ReportFile {
  /** Index into ReportModel.files of the index that lists this file, or -1 for a root. */
  parent: number;
  /** Path relative to the report's source, or the URL it was fetched from. */
  name: string;
  kind: 'urlset' | 'sitemapindex' | 'text' | 'feed' | 'unknown';
  /** URLs (urlset, text, feed) or children (sitemapindex) it lists. */
  entries: number;
  /** Bytes as stored (gzipped when the file is) and after decompression. */
  bytes: number;
  plainBytes: number;
  gzipped: boolean;
  /** The `<lastmod>` its index gives it, if any (W3C datetime as written). */
  indexLastmod?: string;
  /** The newest `<lastmod>` among its entries, if any. */
  newestLastmod?: string;
  errors: number;
  warnings: number;
  /** For a URL source: the HTTP answer. */
  http?: { status: number; etag?: string; lastModified?: string; milliseconds: number };
}

/** One diagnostic code, with the first examples (bounded: at most REPORT_SAMPLES). */
export interface ReportProblem {
  code: string;
  severity: 'error' | 'warning' | 'info';
  count: number;
  /** The rule's title and Search Console wording, and how to fix it (docs/rules.md). */
  title: string;
  searchConsole?: string;
  fix?: string;
  examples: { file: string; line?: number; column?: number; message: string }[];
}

export interface ReportModel {
  /** What was reported on, as the user named it, and when (ISO 8601). */
  source: string;
  generatedAt: string;
  sitemapkitVersion: string;
  files: ReportFile[];
  summary: {
    files: number;
    urls: number;
    /** Distinct URLs (the rest are duplicates). */
    distinctUrls: number;
    bytes: number;
    plainBytes: number;
    errors: number;
    warnings: number;
    /** 'valid' when every file passes the XSDs, 'invalid' when one does not, 'not-checked' for text/feeds. */
    schema: 'valid' | 'invalid' | 'not-checked';
    /** Headroom to the protocol's limits: the largest file against 50,000 URLs and 50 MB (52,428,800 bytes), or the `limits` profile's. */
    largestFileUrls: number;
    largestFilePlainBytes: number;
    /** The limits profile the files were held to (--limits); absent: current. */
    limits?: LimitsProfileName;
  };
  problems: ReportProblem[];
  /** URLs per path prefix (first one or two path segments), largest first, at most 200 rows. */
  directories: { prefix: string; urls: number }[];
  freshness: {
    /** 'YYYY-MM' → URLs whose lastmod falls in that month. */
    byMonth: { month: string; urls: number }[];
    future: number;
    missing: number;
    /** Set when every URL that has a lastmod has the same one. */
    allSame?: string;
    changefreq: { value: string; urls: number }[];
    priority: { value: string; urls: number }[];
  };
  extensions: {
    urlsWithImages: number;
    images: number;
    /** Images per URL: count of URLs with 1, 2, …, 9 and 10 or more images (index 0 = 1 image). */
    imagesPerUrl: number[];
    videos: number;
    news: number;
    /** Age of news publication dates in days: ≤ 2 (what Google News takes), ≤ 30, older. */
    newsAge: { recent: number; month: number; older: number };
    hreflangUrls: number;
    hreflangGroups: number;
    /** Reciprocity problems (a page names an alternate that does not name it back), first examples. */
    hreflangProblems: { count: number; examples: { loc: string; alternate: string }[] };
  };
  duplicates: {
    /** URLs listed more than once in all. */
    count: number;
    /** URLs listed in more than one file. */
    inSeveralFiles: number;
    examples: { loc: string; files: string[] }[];
  };
  /** With --compare: the changes against the previous version, per file of the new set. */
  compare?: {
    previous: string;
    added: number;
    removed: number;
    changed: number;
    /** First examples of each kind (bounded), with the fields that changed. */
    examples: { kind: 'added' | 'removed' | 'changed'; loc: string; file?: string; fields?: string[] }[];
    perFile: { file: string; added: number; removed: number; changed: number }[];
  };
}

/** Examples kept per problem code, per duplicate list and per compare kind. */
export const REPORT_SAMPLES = 20;

/**
 * The URL table's rows: one TAB-separated line each, in set order; `file` indexes ReportModel.files,
 * `flags` are letters (d duplicate, e error, w warning, f future lastmod, s the last row read of a file
 * whose reading stopped: a budget, a corrupt gzip). A loc never holds TAB or a line break, so nothing
 * is quoted. The page holds them gzipped, base64, in `#sitemapkit-rows`.
 */
export const ROW_FIELDS = ['loc', 'lastmod', 'file', 'changefreq', 'priority', 'images', 'alternates', 'flags'] as const;
