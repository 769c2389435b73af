// A source of sitemaps for `diff` and `report`: a sitemap file, a set on disk (an index and its children,
// or a directory holding its sitemap.xml) or a URL (fetch-sitemap.ts). readSource walks the document and
// an index's children; what is done with each is the caller's `DocumentReader`.

import { statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { visitKey } from '../core/discover/inputs.js';
import { SitemapError } from '../core/errors.js';
import { LIMITS_PROFILES, type SitemapRef } from '../core/model.js';
import type { EntryPosition, SitemapFormat } from '../core/read/types.js';
import { fetchSitemap, type FetchedSitemap } from './fetch-sitemap.js';
import type { HttpClient } from './http/client.js';
import { shownPath } from './io-errors.js';
import { isFile, localChildPath } from './local-child.js';
import type { SitemapInput } from './parse-sitemap.js';

/** A sitemap file, a set's index file or a directory holding a set; or an http(s) URL. */
export type SitemapSource = { path: string } | { url: string };

export interface SourceOptions {
  /** Base of relative paths (default `process.cwd()`). */
  cwd?: string;
  /** The client URL sources are fetched with (its address policy, deadline, retries, byte caps). */
  client?: () => HttpClient | Promise<HttpClient>;
  /** Per document, after decompression: the reader's budget, for a fetched body as for a file. */
  maxBytes?: number;
  /** Called before each chunk of input; reading waits for a promise (a slow consumer of the output). */
  backpressure?: () => Promise<void> | undefined;
  /** The walk's own findings (`index/nested`). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** A child that cannot be read is reported here and the walk goes on; without it, the walk throws. */
  onUnreadable?: (document: SourceDocument, error: SitemapError) => void;
  /** A URL source's own document, fetched ahead of its reading (fetchDocument): read from this answer, not fetched again. */
  fetched?: Promise<FetchedDocument>;
}

/** One document of the source, as the walk reaches it. */
export interface SourceDocument {
  /** Its name in messages: a path (shownPath), or its URL. */
  name: string;
  /** 0 for the source's own document, then 1, 2, … for the children of an index, in its order. */
  number: number;
  /** The number of the index that lists it; -1 for the source's own document. */
  parent: number;
  /** The `<sitemap>` of the index that lists it, with its position there. */
  listedAs?: SitemapRef & EntryPosition;
  /** For a fetched document: the HTTP answer (`milliseconds`: until the headers). */
  http?: { status: number; etag?: string; lastModified?: string; milliseconds: number; finalUrl: string };
}

/** Reads one document of the source (a path, or a fetched body); resolves with its format. */
export type DocumentReader = (
  input: SitemapInput,
  document: SourceDocument,
  hooks: { onSitemap: (ref: SitemapRef, at: EntryPosition) => void; backpressure?: () => Promise<void> | undefined },
) => Promise<SitemapFormat>;

/** The name a source goes by in messages and problems. */
export function sourceName(source: SitemapSource, cwd: string): string {
  return 'url' in source ? source.url : shownPath(source.path, cwd);
}

/** Children of an index read at most: what one index may list (sitemaps.org); a hostile one may list a million. */
const MAX_CHILDREN = LIMITS_PROFILES.current.maxSitemapsPerIndex;

/** The file a directory source stands for: the set's entry file, as `generate` and `build` name it. */
const SET_ENTRY = 'sitemap.xml';

/**
 * Reads the document of `source` and, for an index, each child it lists once (a nested index is reported,
 * not followed, as Google does). Throws `ERR_SITEMAP_INPUT` when the source (or a child) cannot be read.
 */
export async function readSource(source: SitemapSource, options: SourceOptions, readDocument: DocumentReader): Promise<void> {
  const cwd = options.cwd ?? process.cwd();
  const name = sourceName(source, cwd);
  const children: (SitemapRef & EntryPosition)[] = [];
  const path = 'path' in source ? resolve(cwd, source.path) : undefined;
  const indexPath = path !== undefined ? entryFile(path, name) : undefined;
  // A directory's document goes by its entry file's name.
  const root: SourceDocument = { name: indexPath !== path ? join(name, SET_ENTRY) : name, number: 0, parent: -1 };
  const rootWhere = indexPath ?? (source as { url: string }).url;
  let notRead = 0;
  let firstNotRead: EntryPosition | undefined;
  const listed = (ref: SitemapRef, at: EntryPosition): void => {
    if (children.length < MAX_CHILDREN) children.push({ ...ref, ...at });
    else if (notRead++ === 0) firstNotRead = at;
  };
  const format = await readOne(rootWhere, root, options, readDocument, listed, options.fetched);
  if (format !== 'sitemapindex') return;
  if (firstNotRead !== undefined) {
    options.onDiagnostic?.({ code: 'discover/too-many-sitemaps', severity: 'error', message: `more than ${MAX_CHILDREN} sitemaps; the rest (${notRead}) are not read`, file: root.name, line: firstNotRead.line, column: firstNotRead.column, hint: 'split it into several indexes' });
  }
  // Each document once, as validate --follow reads a set (the index's validation reports a repeat).
  const formats = new Map<string, SitemapFormat>([[documentKey(rootWhere), format]]);
  let number = 0;
  for (const child of children) {
    const document: SourceDocument = { name: child.loc, number: number + 1, parent: 0, listedAs: child };
    let childFormat: SitemapFormat | undefined;
    try {
      const where = indexPath !== undefined ? childFile(indexPath, root.name, child.loc, cwd) : child.loc;
      if (indexPath !== undefined) document.name = shownPath(where, cwd);
      const key = documentKey(where);
      childFormat = formats.get(key);
      if (childFormat === undefined) {
        number++;
        childFormat = await readOne(where, document, options, readDocument, () => {});
        formats.set(key, childFormat);
      }
    } catch (error) {
      if (options.onUnreadable === undefined || !(error instanceof SitemapError) || error.code !== 'ERR_SITEMAP_INPUT') throw error;
      options.onUnreadable(document, error);
      continue;
    }
    if (childFormat === 'sitemapindex') {
      options.onDiagnostic?.({ code: 'index/nested', severity: 'warning', message: `${JSON.stringify(child.loc)} is itself a sitemap index; its children are not read (Google does not follow nested indexes)`, file: root.name, line: child.line, column: child.column, hint: 'list its children in this index instead' });
    }
  }
}

/** A document's identity: its path, or its URL as discover's visited set keys it. */
function documentKey(where: string): string {
  return /^https?:\/\//i.test(where) ? visitKey(where) ?? where : where;
}

/** A document of a source being fetched: the answer, and its HTTP facts. */
export interface FetchedDocument {
  fetched: FetchedSitemap;
  http: NonNullable<SourceDocument['http']>;
}

/** GET `url` for reading as a document of a source (fetchSitemap); throws as fetchSitemap does. */
export async function fetchDocument(url: string, client: HttpClient): Promise<FetchedDocument> {
  const started = performance.now();
  const fetched = await fetchSitemap(url, client);
  const { headers } = fetched;
  const http: FetchedDocument['http'] = { status: fetched.status, milliseconds: Math.round(performance.now() - started), finalUrl: fetched.finalUrl };
  if (headers.get('etag') !== null) http.etag = headers.get('etag') as string;
  if (headers.get('last-modified') !== null) http.lastModified = headers.get('last-modified') as string;
  return { fetched, http };
}

/** One document (a path, or a URL fetched, or `ahead` when it was fetched already) through `readDocument`; its format. */
async function readOne(where: string, document: SourceDocument, options: SourceOptions, readDocument: DocumentReader, onSitemap: (ref: SitemapRef, at: EntryPosition) => void, ahead?: Promise<FetchedDocument>): Promise<SitemapFormat> {
  let fetched: FetchedSitemap | undefined;
  try {
    let input: SitemapInput = where;
    let backpressure = options.backpressure;
    if (/^https?:\/\//i.test(where)) {
      if (ahead === undefined) {
        if (options.client === undefined) throw new SitemapError('ERR_SITEMAP_INPUT', `cannot fetch ${where}: no HTTP client given`);
        ahead = fetchDocument(where, await options.client());
      }
      const answer = await ahead;
      fetched = answer.fetched;
      document.http = answer.http;
      input = fetched.body;
      // Waiting for the output is not the server's time: not charged to the request's deadline.
      backpressure = fetched.holding(options.backpressure);
    }
    return await readDocument(input, document, backpressure !== undefined ? { onSitemap, backpressure } : { onSitemap });
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
 * A child of the index on disk: where its URL's path puts it relative to the index (localChildPath), else
 * beside the index under its file name (a set served below a path), unless that is the index itself: a
 * Hugo index's missing en/sitemap.xml is no repeat of the index.
 */
function childFile(indexPath: string, indexName: string, loc: string, cwd: string): string {
  const local = localChildPath(indexPath, undefined, loc);
  const looked = local !== undefined && 'path' in local ? [local.path] : [];
  if (looked[0] !== undefined && isFile(looked[0])) return looked[0];
  let name = '';
  try {
    name = decodeURIComponent(basename(new URL(loc).pathname));
  } catch {
    // Not a URL, or not valid percent-encoding: no file name.
  }
  const beside = join(dirname(indexPath), name);
  const itself = beside === indexPath;
  const named = !itself && name !== '' && !/[/\\\0]/.test(name);
  if (named && isFile(beside)) return beside;
  if (named && beside !== looked[0]) looked.push(beside);
  const why = [looked.length > 0 ? `no file ${looked.map((path) => shownPath(path, cwd)).join(', nor ')}` : local !== undefined && 'unnamable' in local ? local.unnamable : 'its URL names no file'];
  if (itself) why.push(`${shownPath(beside, cwd)} is the index itself`);
  throw new SitemapError('ERR_SITEMAP_INPUT', `the child sitemap ${JSON.stringify(loc)} listed by ${indexName} is not on disk (${why.join('; ')})`);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
