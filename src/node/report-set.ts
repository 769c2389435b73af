// writeReport: `sitemapkit report` without the command line (issue 26). The sources are read once,
// validated as `validate` does in that same reading, into the aggregator (core/report/aggregate.ts),
// whose URL rows are gzipped on a worker thread; the page is written around them, base64, and renamed
// into place (staged-output.ts): a run that fails or is killed leaves no half report.

import { closeSync, openSync, readSync, statSync, type BigIntStats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { DiagnosticCollector, READING_STOPPED } from '../core/diagnostics.js';
import { visitKey } from '../core/discover/inputs.js';
import { definedOnly } from '../core/defined-only.js';
import { SitemapError } from '../core/errors.js';
import type { LimitsProfileName } from '../core/model.js';
import { ReportAggregator } from '../core/report/aggregate.js';
import { own } from '../core/report/counts.js';
import { REPORT_SAMPLES, type ReportModel } from '../core/report/model.js';
import { reportPageParts } from '../core/report/page.js';
import { isFeed, notASitemap, showsSitemap, type SitemapFormat } from '../core/read/types.js';
import { isGzip } from '../core/read/sniff.js';
import { reportCounts, schemaVerdict } from '../core/validate/types.js';
import type { RuleSetting } from '../core/validate/validator.js';
import { diffSitemaps } from './diff-sitemaps.js';
import { whereLooked, type SiteSitemaps } from './discover.js';
import type { SitemapInput } from './parse-sitemap.js';
import { fetchDocument, readSource, sourceName, type DocumentReader, type FetchedDocument, type SitemapSource, type SourceDocument, type SourceOptions } from './sitemap-source.js';
import { StagedOutput } from './staged-output.js';
import { stopIfAborted } from './io-errors.js';
import { validateSitemap, type ValidateSitemapOptions } from './validate-sitemap.js';

/** A site as findSiteSitemaps found it: the sitemaps its robots.txt names, else its well-known paths that hold one. */
interface SiteSource {
  site: string;
  found: SiteSitemaps;
}

export type ReportSource = SitemapSource | SiteSource;

export interface WriteReportOptions extends Omit<SourceOptions, 'onDiagnostic' | 'onUnreadable' | 'fetched'> {
  /** The report file (default `report.html` in `cwd`). */
  out?: string;
  /** A previous version of the source: the changes go into the report (`compare`). */
  compare?: SitemapSource;
  /** Epoch milliseconds taken as now (future lastmods, news age); default the clock. */
  now?: number;
  /** Entries read per document at most (the reader's budget). */
  maxEntries?: number;
  rules?: Readonly<Record<string, RuleSetting>>;
  limits?: LimitsProfileName;
  /** Where the source's own document is served (validate's --base-url): every URL must sit under it. */
  baseUrl?: string;
  sitemapkitVersion: string;
  /** Stops the run before the report is written (ERR_SITEMAP_ABORTED): a fetch it ended is no unreadable child. */
  signal?: AbortSignal;
  /** Called before each chunk of input with what is being done and the URLs read so far; may throw to stop. */
  onProgress?: (stage: 'reading' | 'comparing', urls: number, file: string) => void;
}

export interface WrittenReport {
  /** The report's path. */
  path: string;
  /** Its size in bytes. */
  bytes: number;
  model: ReportModel;
}

/** Rows handed to the compressor at a time (its pooled block size). */
const BLOCK = 256 * 1024;
/** Blocks (16 MiB) the compressor may hold: with the default 4, reading sat idle a third of the time. */
const PENDING_BLOCKS = 64;
/** Bytes of the gzipped rows read at a time for base64: a multiple of 3, so that the pieces join. */
const BASE64_STEP = 3 * 256 * 1024;
const ROWS_FILE = 'rows.gz';

/**
 * Reads, validates and reports `sources` into one HTML file. Throws `ERR_SITEMAP_INPUT` when a source
 * cannot be read or a site has no sitemap (an unreadable child is reported in the page instead), and
 * `ERR_SITEMAP_WRITE` when the report cannot be written; nothing is left at `out` then.
 */
export async function writeReport(sources: readonly ReportSource[], options: WriteReportOptions): Promise<WrittenReport> {
  const cwd = options.cwd ?? process.cwd();
  const path = resolve(cwd, options.out ?? 'report.html');
  // Refused now, not at the rename once every source is read.
  const existing = await stat(path, { bigint: true }).catch(() => undefined);
  if (existing?.isDirectory() === true) throw new SitemapError('ERR_SITEMAP_WRITE', `cannot write the report to ${path}: it is a directory`);
  // A file read (of the set or of --compare's) that is the report's by any name: a hard link, a linked folder.
  const guard = (input: SitemapInput, document: SourceDocument): void => {
    let read: BigIntStats | undefined;
    try {
      if (existing !== undefined && typeof input === 'string') read = statSync(input, { bigint: true });
    } catch {
      // Missing or not to be read: the reading says why.
    }
    if (read !== undefined && read.dev === existing?.dev && read.ino === existing.ino) throw new SitemapError('ERR_SITEMAP_WRITE', `the report would replace ${document.name}, which it reports on: give another --out`);
  };
  const output = await StagedOutput.create(dirname(path), { name: basename(path).replace(/\.html?$/i, ''), gzipLevel: 6, maxPendingBlocks: PENDING_BLOCKS });
  try {
    const rows = output.files.open(output.path(ROWS_FILE));
    const now = options.now ?? Date.now();
    const aggregator = new ReportAggregator({
      source: sources.map((s) => ('site' in s ? s.site : sourceName(s, cwd))).join(', '),
      now,
      sitemapkitVersion: options.sitemapkitVersion,
      ...definedOnly({ limits: options.limits }),
      onRows: (lines) => {
        for (let at = 0; at < lines.length; at += BLOCK) output.files.write(rows, lines.subarray(at, at + BLOCK));
      },
    });
    const backpressure = (): Promise<void> | undefined => {
      const outside = options.backpressure?.();
      const compressor = output.files.full ? output.files.whenWritable() : undefined;
      return outside === undefined ? compressor : compressor === undefined ? outside : Promise.all([outside, compressor]).then(() => {});
    };
    const reading = { ...options, cwd, now, backpressure, guard, formats: new Map<string, SitemapFormat>() };
    const read: SitemapSource[] = [];
    for (const source of sources) {
      if (!('site' in source)) {
        await reportSource(source, 'given', aggregator, reading);
        read.push(source);
        continue;
      }
      const { sitemaps, wellKnown } = source.found;
      const several = (n: number): SitemapError => new SitemapError('ERR_SITEMAP_INPUT', `a comparison takes one source, and ${source.site} has ${n} sitemaps: give one of them`);
      if (options.compare !== undefined && sitemaps.length > 1) throw several(sitemaps.length);
      const before = read.length;
      // A sitemap read already, or redirecting to another the site lists, is read once (discover's visited set).
      const listed = new Set((sitemaps.length > 0 ? sitemaps : wellKnown).map(visitKey));
      const answered = new Set<string | undefined>();
      const readElsewhere = (url: string, finalUrl: string): boolean => {
        const key = visitKey(finalUrl);
        if (answered.has(key) || (key !== visitKey(url) && listed.has(key))) return true;
        answered.add(key);
        return false;
      };
      if (sitemaps.length > 0) {
        for (const url of sitemaps) if (await reportSource({ url }, 'listed', aggregator, { ...reading, readElsewhere })) read.push({ url });
      } else {
        await readProbes(wellKnown, options, async (url, fetched) => {
          if (await reportSource({ url }, 'probed', aggregator, { ...reading, fetched, readElsewhere })) read.push({ url });
        });
      }
      const found = read.length - before;
      if (found === 0) throw new SitemapError('ERR_SITEMAP_INPUT', `no sitemap found for ${source.site}: ${whereLooked(source.found)}`);
      if (options.compare !== undefined && found > 1) throw several(found);
    }
    if (options.compare !== undefined) aggregator.setCompare(await compare(options.compare, read[0] as SitemapSource, aggregator, { ...options, cwd, guard }));
    stopIfAborted(options.signal);
    const model = aggregator.finish(new Date(now).toISOString());
    await output.files.close(rows);
    const bytes = await writePage(output, model, basename(path));
    await output.commit({ children: [], entry: { staged: basename(path), name: basename(path) } });
    return { path, bytes, model };
  } finally {
    await output.abort();
  }
}

interface Reading extends WriteReportOptions, Pick<SourceOptions, 'fetched'> {
  cwd: string;
  /** Throws when the document's file is the report's. */
  guard: (input: SitemapInput, document: SourceDocument) => void;
  /** The files read so far, by path, with their formats. */
  formats: Map<string, SitemapFormat>;
  now: number;
  backpressure: () => Promise<void> | undefined;
  /** Whether the source, answered from `finalUrl`, is read as another source: then it is left out. */
  readElsewhere?: (url: string, finalUrl: string) => boolean;
}

/**
 * One source into the aggregator, each document validated as read: `given` (unreadable ends the run),
 * `listed` by robots.txt or `probed` at a well-known path. False when left out (no sitemap, read elsewhere).
 */
async function reportSource(source: SitemapSource, how: 'given' | 'listed' | 'probed', aggregator: ReportAggregator, options: Reading): Promise<boolean> {
  const probe = how === 'probed';
  let base = -1;
  let urls = 0;
  /** The document whose file is started and not ended. */
  let open: SourceDocument | undefined;
  /** Where an index's validation found it listing itself (its URL known): the walk finds that entry too. */
  const selfListed = new Set<string>();
  const fileNumber = (number: number): number => (number === 0 ? -1 : base);
  const read: DocumentReader = async (input, document, hooks) => {
    options.guard(input, document);
    // A file given twice, or given beside the index that lists it (report out/*), is read once, as within a set.
    const known = typeof input === 'string' ? options.formats.get(input) : undefined;
    if (known !== undefined) return known;
    const start = (): void => {
      const index = aggregator.startFile({ name: document.name, parent: fileNumber(document.number), ...lastmodOf(document.listedAs?.lastmod), ...(document.http !== undefined ? { http: httpFacts(document.http) } : {}) });
      if (document.number === 0) base = index;
      open = document;
    };
    if (document.number === 0 && document.http !== undefined && options.readElsewhere?.(document.name, document.http.finalUrl) === true) return 'unknown';
    // A probed document's problems wait (capped) until it shows a sitemap, as for discover; dropped if not.
    let held = probe && document.number === 0 ? new DiagnosticCollector() : undefined;
    let format: SitemapFormat | undefined;
    const shown = (): void => {
      if (held === undefined) return;
      start();
      const truncated = held.truncation(document.name);
      for (const d of truncated === undefined ? held.retained : [...held.retained, truncated]) aggregator.diagnostic(d);
      held = undefined;
    };
    if (held === undefined) start();
    const [counted, gzipped] = sniffGzip(input, options.cwd);
    const validating: ValidateSitemapOptions = {
      file: document.name, cwd: options.cwd, now: options.now, maxDiagnosticsPerCode: 0,
      onFormat: (told) => {
        format = told;
        if (showsSitemap(told)) shown();
      },
      // The rest of a probed page that is no sitemap is not read.
      stop: () => held !== undefined && notASitemap(format),
      onUrl: (entry, at, locHash) => {
        shown();
        aggregator.url(entry, at, locHash);
      },
      onSitemap: (ref, at) => {
        aggregator.sitemap(ref, at);
        hooks.onSitemap(ref, at);
      },
      onDiagnostic: (d) => {
        if (d.code === 'index/nested') selfListed.add(`${d.code} ${d.file}:${d.line}:${d.column}`);
        if (held === undefined) aggregator.diagnostic(d);
        else held.add(d);
      },
      onProgress: (entries) => options.onProgress?.('reading', urls + entries, document.name),
    };
    // As validate takes it: --base-url, else where it answered, else where its index says it is served.
    const baseUrl = document.number === 0 && options.baseUrl !== undefined ? options.baseUrl : document.http?.finalUrl ?? document.listedAs?.loc;
    const { maxBytes, maxEntries, rules, limits } = options;
    const result = await validateSitemap(counted, { ...validating, ...definedOnly({ backpressure: hooks.backpressure, baseUrl, maxBytes, maxEntries, rules, limits }) });
    if (held !== undefined) return 'unknown';
    urls += result.format === 'sitemapindex' ? 0 : result.entries;
    const counts = reportCounts(result);
    aggregator.endFile({ kind: kindOf(result.format), bytes: result.bytesRead, plainBytes: result.bytes, gzipped: gzipped(), errors: counts.errors, warnings: counts.warnings, schemaValid: schemaVerdict(result.format, result.schemaValid) });
    open = undefined;
    if (typeof input === 'string') options.formats.set(input, result.format ?? 'unknown');
    return result.format ?? 'unknown';
  };
  try {
    await readSource(source, {
      ...options,
      onDiagnostic: (d) => selfListed.has(`${d.code} ${d.file}:${d.line}:${d.column}`) || aggregator.diagnostic(d),
      onUnreadable: (document, error) => {
        // Not read at all, or cut short in its middle (its file is open then): one file either way.
        if (document !== open) aggregator.startFile({ name: document.name, parent: fileNumber(document.number), ...lastmodOf(document.listedAs?.lastmod) });
        aggregator.unreadable(error.message);
        open = undefined;
      },
    }, read);
  } catch (error) {
    if (how === 'given' || !(error instanceof SitemapError) || error.code !== 'ERR_SITEMAP_INPUT') throw error;
    // A probe that failed (not found, refused, cut) before it showed a sitemap holds none.
    if (probe && base === -1) return false;
    // A site's sitemap that cannot be read is a problem of the report, as an index's child is.
    if (open === undefined) base = aggregator.startFile({ name: sourceName(source, options.cwd), parent: -1 });
    aggregator.unreadable(error.message);
  }
  return base !== -1;
}

/**
 * A site's well-known paths through `each` in order, fetched ahead as many as a host's connection slots
 * allow: slow paths cost the slowest wait, not the sum. Those waiting their turn have their deadline held.
 */
async function readProbes(urls: readonly string[], options: WriteReportOptions, each: (url: string, fetched: Promise<FetchedDocument>) => Promise<void>): Promise<void> {
  if (options.client === undefined) throw new SitemapError('ERR_SITEMAP_INPUT', `cannot fetch ${urls[0]}: no HTTP client given`);
  const client = await options.client();
  const turns: (() => void)[] = [];
  const ahead: Promise<FetchedDocument>[] = [];
  const fetchAhead = (i: number): void => {
    const url = urls[i];
    if (url === undefined) return;
    const turn = new Promise<void>((resolve) => (turns[i] = resolve));
    ahead[i] = fetchDocument(url, client).then((document) => {
      void document.fetched.held(turn);
      return document;
    });
    // A path that did not answer is left out in its turn (reportSource), not an unhandled rejection before.
    ahead[i]?.catch(() => {});
  };
  const window = Math.min(client.slots.perHost, client.slots.total);
  for (let i = 0; i < window; i++) fetchAhead(i);
  let next = 0;
  try {
    for (; next < urls.length; next++) {
      turns[next]?.();
      await each(urls[next] as string, ahead[next] as Promise<FetchedDocument>);
      fetchAhead(next + window);
    }
  } finally {
    // Stopped before the end (an error, an interrupt): the answers waiting their turn are let go.
    for (let i = next + 1; i < ahead.length; i++) {
      turns[i]?.();
      void ahead[i]?.then((document) => document.fetched.cancel(), () => {});
    }
  }
}

function lastmodOf(lastmod: unknown): { indexLastmod?: string } {
  return typeof lastmod === 'string' ? { indexLastmod: lastmod } : {};
}

function httpFacts(http: NonNullable<Parameters<DocumentReader>[1]['http']>): NonNullable<ReportModel['files'][number]['http']> {
  const { finalUrl: _finalUrl, ...facts } = http;
  return facts;
}

function kindOf(format: SitemapFormat | undefined): ReportModel['files'][number]['kind'] {
  if (format === 'urlset' || format === 'sitemapindex' || format === 'text') return format;
  return isFeed(format) ? 'feed' : 'unknown';
}

/** Whether the input starts with gzip's magic bytes (RFC 1952: 1f 8b): a file's first two, or a stream's, which may come in two chunks. */
function sniffGzip(input: SitemapInput, cwd: string): [SitemapInput, () => boolean] {
  const head = new Uint8Array(2);
  let filled = 0;
  const gzipped = (): boolean => isGzip(head.subarray(0, filled));
  if (typeof input === 'string') {
    try {
      const fd = openSync(resolve(cwd, input), 'r');
      try {
        filled = readSync(fd, head, 0, 2, 0);
      } finally {
        closeSync(fd);
      }
    } catch {
      // The reading says why the file cannot be read.
    }
    return [input, gzipped];
  }
  async function* sniffed(): AsyncGenerator<Uint8Array> {
    for await (const chunk of input as AsyncIterable<Uint8Array>) {
      const taken = chunk.subarray(0, 2 - filled);
      head.set(taken, filled);
      filled += taken.length;
      yield chunk;
    }
  }
  return [sniffed(), gzipped];
}

/**
 * The changes from `previous` to `current`: counts per file of the new set (a removed URL's by its place in it), and
 * examples. A document of `previous` not read whole is a problem of the report (the set's own are already).
 */
async function compare(previous: SitemapSource, current: SitemapSource, aggregator: ReportAggregator, options: WriteReportOptions & Pick<Reading, 'cwd' | 'guard'>): Promise<NonNullable<ReportModel['compare']>> {
  const perFile = new Map<string, { file: string; added: number; removed: number; changed: number }>();
  const count = (kind: 'added' | 'removed' | 'changed', file: string): void => {
    let row = perFile.get(file);
    if (row === undefined) perFile.set(file, (row = { file, added: 0, removed: 0, changed: 0 }));
    row[kind]++;
  };
  const examples: NonNullable<ReportModel['compare']>['examples'] = [];
  const removedExamples: typeof examples = [];
  // NEW is read first: a removed URL goes to the new set's file at its place under the set's folder, a .gz twin's too (en/sitemap.xml.gz, en/sitemap.xml).
  const folders = { old: '', new: '' };
  const twin = (file: string, side: 'old' | 'new'): string => (file.startsWith(folders[side]) ? file.slice(folders[side].length) : file).replace(/\.gz$/i, '');
  const newFiles = new Map<string, string>();
  let added = 0;
  let changed = 0;
  const summary = await diffSitemaps(previous, current, {
    removed: (loc, oldFile) => {
      const file = newFiles.get(twin(oldFile, 'old')) ?? oldFile;
      count('removed', file);
      if (removedExamples.length < REPORT_SAMPLES) removedExamples.push({ kind: 'removed', loc: own(loc), file });
    },
    added: (loc, file) => {
      count('added', file);
      if (added++ < REPORT_SAMPLES) examples.push({ kind: 'added', loc: own(loc), file });
    },
    changed: (loc, changes, file) => {
      count('changed', file);
      if (changed++ < REPORT_SAMPLES) examples.push({ kind: 'changed', loc: own(loc), file, fields: changes.map((c) => c.field) });
    },
  }, {
    cwd: options.cwd,
    onDocument: (input, document, side) => {
      options.guard(input, document);
      if (side !== undefined && document.number === 0) folders[side] = document.name.replace(/[^/\\]*$/, '');
      if (side === 'new') newFiles.set(twin(document.name, side), document.name);
    },
    ...definedOnly({ client: options.client, maxBytes: options.maxBytes, maxEntries: options.maxEntries }),
    onProgress: (_pass, urls) => options.onProgress?.('comparing', urls, ''),
    // The previous version's problems are not the set's, but one that left it unread makes the changes partial.
    onDiagnostic: (d, side) => {
      if (side === 'old' && READING_STOPPED.has(d.code)) aggregator.diagnostic(d, false);
    },
    onUnreadable: (document, error, side) => {
      // A previous version that is no sitemap at all leaves nothing to compare with (exit 2).
      if (side === 'old' && document.number === 0) throw error;
      if (side === 'old') aggregator.diagnostic({ code: 'input/unreadable', severity: 'error', message: error.message, file: document.name }, false);
    },
  });
  return { previous: sourceName(previous, options.cwd), added: summary.added, removed: summary.removed, changed: summary.changed, examples: [...examples, ...removedExamples], perFile: [...perFile.values()] };
}

/** The page: head, the rows' gzip as base64, tail; staged as `name`. Its size in bytes. */
async function writePage(output: StagedOutput, model: ReportModel, name: string): Promise<number> {
  const { head, tail } = reportPageParts(model);
  const page = await open(output.path(name), 'w');
  const rows = await open(output.path(ROWS_FILE), 'r');
  try {
    let bytes = 0;
    const write = async (text: string): Promise<void> => {
      await page.writeFile(text);
      bytes += Buffer.byteLength(text);
    };
    await write(head);
    const buffer = Buffer.allocUnsafe(BASE64_STEP);
    for (;;) {
      let filled = 0;
      while (filled < BASE64_STEP) {
        const { bytesRead } = await rows.read(buffer, filled, BASE64_STEP - filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled === 0) break;
      await write(buffer.subarray(0, filled).toString('base64'));
      if (filled < BASE64_STEP) break;
    }
    await write(tail);
    return bytes;
  } finally {
    await Promise.all([page.close(), rows.close()]);
  }
}
