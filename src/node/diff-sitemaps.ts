// diffSitemaps: the URLs added, removed and changed between two sources (issue 26), each a sitemap
// file (plain or gzipped), a set on disk (an index and the children beside it, or a directory
// holding one: its sitemap.xml) or a URL (fetched as `read URL` fetches: fetch-sitemap.ts; an index's
// children fetched too). It compares URLs, not files: a set and one file listing the same URLs are
// equal.
//
// Memory: no URL string is kept. The sources are read as streams, three times in all: NEW, then OLD,
// then NEW again, into a table of fingerprints (core/url-diff.ts, about 20 bytes a URL), so that
// removed URLs come out in OLD's order and added and changed ones in NEW's. The old entries of
// changed candidates (only they) are spilled to a temporary file, read back by offset when NEW's
// second pass reaches them; there they are compared field by field, exactly.

import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { SitemapError } from '../core/errors.js';
import type { UrlEntry } from '../core/model.js';
import type { EntryPosition } from '../core/read/types.js';
import { FINGERPRINT } from '../core/fingerprint.js';
import { ADDED, REMOVED, REPEATED, UNCHANGED_URL, UNKNOWN, UrlDiffTable, changedFields, fingerprintFields, locFingerprint, type FieldChange } from '../core/url-diff.js';
import { fetchSitemap, type FetchedSitemap } from './fetch-sitemap.js';
import type { HttpClient } from './http/client.js';
import { isFile, localChildPath } from './local-child.js';
import { readSitemap, type ReadSitemapOptions, type SitemapInput } from './parse-sitemap.js';

/** A sitemap file, a set's index file or a directory holding a set; or an http(s) URL. */
export type DiffSource = { path: string } | { url: string };

export interface DiffSitemapsOptions {
  /** Base of relative paths (default `process.cwd()`). */
  cwd?: string;
  /** The client URL sources are fetched with (its address policy, deadline, retries, byte caps). */
  client?: () => HttpClient | Promise<HttpClient>;
  /** Per document, after decompression (the reader's budget). */
  maxBytes?: number;
  /** Entries read per document at most (the reader's budget). */
  maxEntries?: number;
  /** Every problem of the sources, once (NEW's second reading reports none). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** Called before each chunk of input; reading waits for a promise (a slow consumer of the output). */
  backpressure?: () => Promise<void> | undefined;
  /** Called before each chunk of input with the pass (1 NEW, 2 OLD, 3 NEW again) and its URLs so far; may throw to stop. */
  onProgress?: (pass: 1 | 2 | 3, urls: number) => void;
  /** Where the temporary file of the changed candidates' old entries goes (default: the system's). */
  tmpDir?: string;
}

/** Receives the differences: removed URLs in OLD's order, then added and changed ones in NEW's. */
export interface DiffListener {
  removed(loc: string): void;
  added(loc: string): void;
  changed(loc: string, changes: readonly FieldChange[]): void;
}

export interface DiffSummary {
  /** Distinct URLs of each source. */
  oldUrls: number;
  newUrls: number;
  added: number;
  removed: number;
  changed: number;
}

type OnUrl = (entry: UrlEntry, at: EntryPosition, locHash?: Int32Array) => void;

/** The name a source goes by in messages and problems. */
export function sourceName(source: DiffSource, cwd: string): string {
  return 'url' in source ? source.url : relative(cwd, resolve(cwd, source.path)) || source.path;
}

/**
 * Compares two sources. Throws `ERR_SITEMAP_INPUT` when one cannot be read (a missing file or child,
 * a failed fetch, a document that is no sitemap, NEW changing between its two readings).
 */
export async function diffSitemaps(oldSource: DiffSource, newSource: DiffSource, listener: DiffListener, options: DiffSitemapsOptions = {}): Promise<DiffSummary> {
  const spill = new ChangedEntries(options.tmpDir ?? tmpdir());
  const passes = new Passes(listener, spill, sourceName(newSource, options.cwd ?? process.cwd()));
  let pass: 1 | 2 | 3 = 1;
  let urls = 0;
  const { onProgress, backpressure } = options;
  const reading: DiffSitemapsOptions = onProgress === undefined ? options : {
    ...options,
    backpressure: () => {
      onProgress(pass, urls);
      return backpressure?.();
    },
  };
  const counted = (onUrl: OnUrl): OnUrl => (entry, at, locHash) => {
    urls++;
    onUrl(entry, at, locHash);
  };
  try {
    await readSource(newSource, reading, true, counted(passes.addNew));
    [pass, urls] = [2, 0];
    await readSource(oldSource, reading, true, counted(passes.matchOld));
    spill.flush();
    [pass, urls] = [3, 0];
    await readSource(newSource, reading, false, counted(passes.matchNew));
  } finally {
    spill.close();
  }
  return { ...passes.summary, oldUrls: passes.table.oldUrls, newUrls: passes.table.newUrls };
}

/** What each pass does with a URL: its `onUrl`. */
class Passes {
  readonly table = new UrlDiffTable();
  readonly summary = { added: 0, removed: 0, changed: 0 };

  constructor(
    private readonly listener: DiffListener,
    private readonly spill: ChangedEntries,
    private readonly newName: string,
  ) {}

  /** 1: NEW into the table. */
  readonly addNew: OnUrl = (entry, _at, locHash) => {
    const loc = locFingerprint(entry.loc, locHash);
    const hash1 = loc[0] as number;
    const hash2 = loc[1] as number;
    fingerprintFields(entry);
    this.table.addNew(hash1, hash2, FINGERPRINT[0] as number, FINGERPRINT[1] as number);
  };

  /** 2: OLD against it: removed URLs out, the old entries of changed candidates kept. */
  readonly matchOld: OnUrl = (entry, _at, locHash) => {
    const loc = locFingerprint(entry.loc, locHash);
    const hash1 = loc[0] as number;
    const hash2 = loc[1] as number;
    fingerprintFields(entry);
    const match = this.table.matchOld(hash1, hash2, FINGERPRINT[0] as number, FINGERPRINT[1] as number);
    if (match === REMOVED) {
      this.summary.removed++;
      this.listener.removed(entry.loc);
    } else if (match >= 0) this.spill.add(entry);
  };

  /** 3: NEW again: added URLs out, changed candidates compared exactly. */
  readonly matchNew: OnUrl = (entry, _at, locHash) => {
    const loc = locFingerprint(entry.loc, locHash);
    const match = this.table.matchNew(loc[0] as number, loc[1] as number);
    if (match === UNCHANGED_URL || match === REPEATED) return;
    if (match === UNKNOWN) throw new SitemapError('ERR_SITEMAP_INPUT', `${this.newName} changed while it was compared (${entry.loc} was not there when first read); run the diff again`);
    if (match === ADDED) {
      this.summary.added++;
      this.listener.added(entry.loc);
      return;
    }
    const before = this.spill.get(match);
    if (before.loc !== entry.loc) {
      // Two URLs with one fingerprint (about 1 in 10^5 runs over 2 × 10^7 URLs): told apart here.
      this.summary.removed++;
      this.listener.removed(before.loc);
      this.summary.added++;
      this.listener.added(entry.loc);
      return;
    }
    const changes = changedFields(before, entry);
    if (changes.length === 0) return;
    this.summary.changed++;
    this.listener.changed(entry.loc, changes);
  };
}

// ---------------------------------------------------------------------------------------------------
// Sources

/** The file a directory source stands for: the set's entry file, as `generate` and `build` name it. */
const SET_ENTRY = 'sitemap.xml';

/** Formats that hold no URLs to compare: the document is not a sitemap (or could not be told). */
const NOT_A_SITEMAP = new Set(['html', 'unknown', 'empty']);

/**
 * Reads every URL of `source`, in order: a document, and for an index, each child it lists (a nested
 * index is reported, `index/nested`, and not followed, as Google does not). `report`: diagnostics
 * go to `onDiagnostic` (the first reading of a source).
 */
async function readSource(source: DiffSource, options: DiffSitemapsOptions, report: boolean, onUrl: OnUrl): Promise<void> {
  const cwd = options.cwd ?? process.cwd();
  const name = sourceName(source, cwd);
  const children: { loc: string; line: number; column: number }[] = [];
  const indexPath = 'path' in source ? entryFile(resolve(cwd, source.path), name) : undefined;
  const format = await readDocument(indexPath ?? (source as { url: string }).url, name, options, report, onUrl, (ref, at) => children.push({ loc: ref.loc, ...at }));
  if (format !== 'sitemapindex') return;
  for (const child of children) {
    const where = indexPath !== undefined ? childFile(indexPath, name, child.loc, cwd) : child.loc;
    const shown = indexPath !== undefined ? relative(cwd, where) || where : where;
    const childFormat = await readDocument(where, shown, options, report, onUrl, () => {});
    if (childFormat === 'sitemapindex' && report) {
      options.onDiagnostic?.({ code: 'index/nested', severity: 'warning', message: `${JSON.stringify(child.loc)} is itself a sitemap index; its children are not compared (Google does not follow nested indexes)`, file: name, line: child.line, column: child.column, hint: 'list its children in this index instead' });
    }
  }
}

/** One document (a path, or a URL fetched): its URLs to `onUrl`, its children to `onSitemap`; its format. */
async function readDocument(where: string, shown: string, options: DiffSitemapsOptions, report: boolean, onUrl: OnUrl, onSitemap: NonNullable<ReadSitemapOptions['onSitemap']>): Promise<string> {
  const reading: ReadSitemapOptions = { file: shown, onUrl, onSitemap, locHashes: true, maxDiagnosticsPerCode: 0 };
  if (options.cwd !== undefined) reading.cwd = options.cwd;
  if (options.maxBytes !== undefined) reading.maxBytes = options.maxBytes;
  if (options.maxEntries !== undefined) reading.maxEntries = options.maxEntries;
  if (report && options.onDiagnostic !== undefined) reading.onDiagnostic = options.onDiagnostic;
  let fetched: FetchedSitemap | undefined;
  try {
    let input: SitemapInput = where;
    if (/^https?:\/\//i.test(where)) {
      if (options.client === undefined) throw new SitemapError('ERR_SITEMAP_INPUT', `cannot fetch ${where}: no HTTP client given`);
      fetched = await fetchSitemap(where, await options.client(), options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {});
      input = fetched.body;
      // Waiting for the output is not the server's time: not charged to the request's deadline.
      const backpressure = options.backpressure;
      const held = fetched.held;
      if (backpressure !== undefined) reading.backpressure = () => {
        const wait = backpressure();
        return wait === undefined ? undefined : held(wait);
      };
    } else if (options.backpressure !== undefined) reading.backpressure = options.backpressure;
    const summary = await readSitemap(input, reading);
    if (NOT_A_SITEMAP.has(summary.format)) throw new SitemapError('ERR_SITEMAP_INPUT', `${shown} is not a sitemap (${summary.format === 'unknown' ? 'its format could not be told' : summary.format})`);
    return summary.format;
  } finally {
    await fetched?.cancel();
  }
}

/** A source path's file: the path, or a directory's set entry file. */
function entryFile(path: string, name: string): string {
  if (!isDirectory(path)) return path;
  const entry = join(path, SET_ENTRY);
  if (!isFile(entry)) throw new SitemapError('ERR_SITEMAP_INPUT', `${name} is a directory without a ${SET_ENTRY}: give the set's index file`);
  return entry;
}

/**
 * A child of the index at `indexPath` on disk: where its URL's path puts it relative to the index
 * (localChildPath, as `validate --follow` reads it), else beside the index under its file name (a set
 * served below a path, as `generate --base-url https://example.com/sitemaps/` writes it).
 */
function childFile(indexPath: string, indexName: string, loc: string, cwd: string): string {
  const local = localChildPath(indexPath, undefined, loc);
  if (local !== undefined && 'path' in local && isFile(local.path)) return local.path;
  let name = '';
  try {
    name = decodeURIComponent(basename(new URL(loc).pathname));
  } catch {
    // Not a URL, or not valid percent-encoding: no file name.
  }
  const beside = join(dirname(indexPath), name);
  if (name !== '' && !/[/\\\0]/.test(name) && isFile(beside)) return beside;
  throw new SitemapError('ERR_SITEMAP_INPUT', `the child sitemap ${JSON.stringify(loc)} listed by ${indexName} is not on disk (no file ${relative(cwd, beside) || beside})`);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// The old entries of changed candidates, on disk

const SPILL_CHUNK = 1 << 20;

/** JSON texts appended to a temporary file, read back by number; the file exists only once needed. */
class ChangedEntries {
  private dir: string | undefined;
  private fd = -1;
  /** offsets[k] is where entry k starts; offsets[k + 1] where it ends. */
  private offsets = new Float64Array(1024);
  private count = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly parent: string) {}

  add(entry: UrlEntry): void {
    if (this.fd === -1) {
      this.dir = mkdtempSync(join(this.parent, 'sitemapkit-diff-'));
      this.fd = openSync(join(this.dir, 'changed.jsonl'), 'w+');
    }
    const bytes = Buffer.from(JSON.stringify(entry));
    if (this.count + 2 > this.offsets.length) {
      const offsets = new Float64Array(this.offsets.length * 2);
      offsets.set(this.offsets);
      this.offsets = offsets;
    }
    this.offsets[this.count + 1] = (this.offsets[this.count] as number) + bytes.length;
    this.count++;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= SPILL_CHUNK) this.flush();
  }

  flush(): void {
    if (this.pendingBytes === 0) return;
    const bytes = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    for (let written = 0; written < bytes.length; ) written += writeSync(this.fd, bytes, written);
  }

  get(k: number): UrlEntry {
    const start = this.offsets[k] as number;
    const bytes = Buffer.allocUnsafe((this.offsets[k + 1] as number) - start);
    for (let read = 0; read < bytes.length; ) {
      const n = readSync(this.fd, bytes, read, bytes.length - read, start + read);
      if (n === 0) throw new SitemapError('ERR_SITEMAP_INPUT', 'the temporary file of changed entries was cut short');
      read += n;
    }
    return JSON.parse(bytes.toString('utf8')) as UrlEntry;
  }

  close(): void {
    if (this.fd !== -1) closeSync(this.fd);
    this.fd = -1;
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}
