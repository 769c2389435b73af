// The build state: what `sitemapkit build` remembers between runs so that `lastmod` tells the truth and
// IndexNow submits only what changed. One JSON file, replaced atomically (writeFileAtomic).

import { readFile } from 'node:fs/promises';
import { SitemapError } from '../../core/errors.js';
import { isSpecialFile, writeFileAtomic } from '../staged-output.js';
import { ioErrorReason } from '../io-errors.js';

const FORMAT = 'sitemapkit-state';
const VERSION = 1;

/** What is remembered of one page, keyed by its URL. */
export interface PageState {
  /** Hash of the page's normalised content (see core/build/html-page.ts). */
  hash: string;
  /** The lastmod last written for it (W3C Datetime), or undefined when none was known. */
  lastmod?: string;
  /** Whether the page was in the sitemap (not noindex, a redirect, canonicalised elsewhere…). */
  listed: boolean;
}

/** What is remembered of one child file of the set. */
export interface FileState {
  /** Hash of its uncompressed bytes. */
  hash: string;
  /** When its content last changed: the lastmod the index gives it. */
  lastmod: string;
  urls: number;
}

export interface BuildState {
  /** Base URL of the last build: URLs are only comparable under the same one. */
  baseUrl?: string;
  /** Name of the entry file (the index) of the last build. */
  indexName?: string;
  pages: Map<string, PageState>;
  files: Map<string, FileState>;
  /** Buckets per file stem (1 unless split): every section with files of its own, and the top level. */
  buckets: Map<string, number>;
  /** IndexNow: per URL, the content hash it had at its last accepted submission. */
  announced: Map<string, string>;
  /** When an IndexNow submission was last accepted (ISO 8601). */
  lastSubmission?: string;
}

export function emptyState(): BuildState {
  return { pages: new Map(), files: new Map(), buckets: new Map(), announced: new Map() };
}

interface StateFile {
  format: typeof FORMAT;
  version: number;
  baseUrl?: string;
  indexName?: string;
  /** [url, hash, lastmod or null, listed 1/0] */
  pages: [string, string, string | null, number][];
  /** [name, hash, lastmod, urls] */
  files: [string, string, string, number][];
  buckets: [string, number][];
  announced: [string, string][];
  lastSubmission?: string;
}

/** Reads the state at `path`; an empty state when the file does not exist. */
export async function loadState(path: string): Promise<BuildState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState();
    throw new SitemapError('ERR_SITEMAP_STATE', `cannot read the build state ${path}: ${ioErrorReason(error)}`);
  }
  // `--state /dev/null`: a build that remembers nothing (its state is written into the device).
  if (text === '' && (await isSpecialFile(path))) return emptyState();
  let data: StateFile;
  try {
    data = JSON.parse(text) as StateFile;
  } catch {
    throw corrupt(path, 'it is not valid JSON');
  }
  if (data === null || typeof data !== 'object' || data.format !== FORMAT) throw corrupt(path, `it is not a ${FORMAT} file`);
  if (data.version !== VERSION) {
    throw new SitemapError('ERR_SITEMAP_STATE', `the build state ${path} has version ${String(data.version)}; this sitemapkit reads version ${VERSION}`);
  }
  if (!Array.isArray(data.pages) || !Array.isArray(data.files) || !Array.isArray(data.buckets) || !Array.isArray(data.announced)) {
    throw corrupt(path, 'a table is missing');
  }
  const state = emptyState();
  if (typeof data.baseUrl === 'string') state.baseUrl = data.baseUrl;
  if (typeof data.indexName === 'string') state.indexName = data.indexName;
  if (typeof data.lastSubmission === 'string') state.lastSubmission = data.lastSubmission;
  for (const [url, hash, lastmod, listed] of data.pages) {
    if (typeof url !== 'string' || typeof hash !== 'string') throw corrupt(path, 'a page row is malformed');
    state.pages.set(url, typeof lastmod === 'string' ? { hash, lastmod, listed: listed === 1 } : { hash, listed: listed === 1 });
  }
  for (const [name, hash, lastmod, urls] of data.files) {
    if (typeof name !== 'string' || typeof hash !== 'string' || typeof lastmod !== 'string' || typeof urls !== 'number') {
      throw corrupt(path, 'a file row is malformed');
    }
    state.files.set(name, { hash, lastmod, urls });
  }
  for (const [stem, count] of data.buckets) if (typeof stem === 'string' && Number.isInteger(count) && count >= 1) state.buckets.set(stem, count);
  for (const [url, hash] of data.announced) if (typeof url === 'string' && typeof hash === 'string') state.announced.set(url, hash);
  return state;
}

function corrupt(path: string, why: string): SitemapError {
  return new SitemapError(
    'ERR_SITEMAP_STATE',
    `the build state ${path} cannot be read: ${why}. Remove it to start afresh (every page then counts as new)`,
  );
}

/** Replaces the state at `path` atomically and durably; `commit` runs when the new state is written but not yet in place. */
export async function saveState(path: string, state: BuildState, commit?: () => Promise<void>): Promise<void> {
  // The fields that are undefined are left out by JSON.stringify.
  const head = JSON.stringify({ format: FORMAT, version: VERSION, baseUrl: state.baseUrl, indexName: state.indexName, lastSubmission: state.lastSubmission });
  const pages = [...state.pages].map(([url, page]) => [url, page.hash, page.lastmod ?? null, page.listed ? 1 : 0]);
  const files = [...state.files].map(([name, file]) => [name, file.hash, file.lastmod, file.urls]);
  // One row per line: a diff of two states stays readable.
  const text =
    `${head.slice(0, -1)},\n"pages":${rows(pages)},\n"files":${rows(files)},\n` +
    `"buckets":${rows([...state.buckets])},\n"announced":${rows([...state.announced])}}\n`;
  await writeFileAtomic(path, text, { beforeRename: commit });
}

function rows(table: readonly unknown[]): string {
  return table.length === 0 ? '[]' : `[\n${table.map((row) => JSON.stringify(row)).join(',\n')}\n]`;
}
