// buildSite: a built site's folder → its sitemap set, with a lastmod that changes only when a page's
// content does and children that are rewritten only when the pages they hold change.
//
// 1. walk the folder; leave out error pages and --exclude globs without reading them;
// 2. scan each page (noindex, redirect stub, canonical, hreflang, images, content hash);
// 3. decide what is listed; give each page its lastmod from the state (unchanged hash → same
//    lastmod; changed → the build time; first seen → git / mtime / now / none);
// 4. lay the entries out in stable children (core/build/stable-set.ts); a child whose bytes did not
//    change is not rewritten and keeps its index lastmod;
// 5. commit: the changed children go in under new names (each carries a token of its content:
//    `sitemap-blog.TOKEN.xml.gz`, see core/write/child-names.ts), never over a file the old index
//    names; then the index is renamed over the old one, the commit point; then the children no longer
//    named are removed and the state is saved.
// Nothing to list (every page left out) writes and removes nothing: the previous set stays whole.

import { crc32, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { readFile, readdir, realpath, rm, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InvalidValueError, SitemapError } from '../core/errors.js';
import type { AlternateLink, LimitsProfileName, SitemapRef, UrlEntry } from '../core/model.js';
import { normalizeUrl, scopeOf } from '../core/url.js';
import { formatSitemapDate } from '../core/datetime.js';
import { serializeSitemapIndex } from '../core/write/sitemap-index.js';
import { pageUrlPath, type TrailingSlash } from '../core/build/page-path.js';
import { isErrorPage, selectPages, type ExclusionReason, type PageCandidate } from '../core/build/select-pages.js';
import { sectionOf } from '../core/build/partition.js';
import { buildStableSet, type StableEntry } from '../core/build/stable-set.js';
import { dominantExclusion, type DominantExclusion } from '../core/build/exclusions.js';
import { contentTokens, withContentToken } from '../core/write/child-names.js';
import { fileHolds, firstFreeName } from './staged-output.js';
import { walkSite, type SitePage } from './build/walk-site.js';
import type { PageScan } from './build/scan-pages.js';
import { gitLastCommitTimes, gitTopLevel } from './build/git-dates.js';
import { FileBatch } from './build/file-batch.js';
import { loadState, saveState, type BuildState, type FileState, type PageState } from './build/state-store.js';
import { resolveLimits } from './write-sitemaps.js';
import { ioErrorReason } from './io-errors.js';

export type InitialLastmod = 'git' | 'mtime' | 'now' | 'none';

export interface BuildSiteOptions {
  /** The built site's folder. */
  siteDir: string;
  /** Where the site is served, e.g. `https://www.example.com/`. */
  baseUrl: string;
  /** Where the sitemaps go (default: `siteDir`, next to the pages). */
  outDir?: string;
  /** The state file (default `OUT/.sitemapkit/state`). */
  statePath?: string;
  trailingSlash?: TrailingSlash;
  cleanUrls?: boolean;
  /** Globs (picomatch) on page paths inside the folder (`drafts/**`, `**\/print.html`). */
  exclude?: readonly string[];
  /** List `<img src>` of each page's main content as image entries. */
  images?: boolean;
  /** lastmod of a page seen for the first time (default `git`). */
  initialLastmod?: InitialLastmod;
  /** Page path inside the folder → the source file it was built from (for `git`). */
  sourceMap?: ReadonlyMap<string, string>;
  /** File name prefix: the index is `NAME.xml`, children `NAME-SECTION.TOKEN.xml.gz` (default `sitemap`). */
  name?: string;
  gzip?: boolean;
  gzipLevel?: number;
  profile?: LimitsProfileName;
  maxUrls?: number;
  maxBytes?: number;
  /** Threads that scan pages (default: one per core for a large site, none for a small one). */
  threads?: number;
  /** The build time: lastmod of changed pages and files (default: now). */
  now?: Date;
  onProgress?: (progress: BuildProgress) => void;
}

export interface BuildProgress {
  phase: 'walk' | 'scan' | 'write';
  done: number;
  total: number;
}

export interface ExcludedPage {
  relPath: string;
  url?: string;
  reason: ExclusionReason | 'duplicate-url' | 'unreadable';
  detail?: string;
}

export interface PageProblem {
  relPath: string;
  url: string;
  code: string;
  message: string;
}

/**
 * `written`, `unchanged` (on disk with these bytes already), `removed`; for the index of a build that
 * had nothing to list and wrote nothing: `kept` (the previous index is on disk, as it was) or `absent`.
 */
export type FileStatus = 'written' | 'unchanged' | 'removed' | 'kept' | 'absent';

export interface BuiltFile {
  name: string;
  status: FileStatus;
  urls: number;
  /** Uncompressed size (0 for a removed file). */
  bytes: number;
  lastmod?: string;
}

export interface BuildSiteResult {
  outDir: string;
  statePath: string;
  /** The base URL, normalised, ending in `/`. */
  baseUrl: string;
  /**
   * False when the build listed no URL: nothing was written or removed (the previous set, if any, is
   * as it was) and the state was not saved. A site with pages and nothing to list is a problem.
   */
  committed: boolean;
  indexFile: BuiltFile;
  /** Where the index will be served: the URL for robots.txt and search consoles. */
  indexUrl: string;
  /** The children, by name, then those removed. */
  files: BuiltFile[];
  pages: number;
  listed: number;
  excluded: ExcludedPage[];
  /** The reason more than half of the pages are left out for, when there is one (often a wrong base URL). */
  dominantExclusion?: DominantExclusion<ExcludedPage['reason']>;
  problems: PageProblem[];
  /** Listed or not: pages seen for the first time, pages whose content changed, pages gone since the last build. */
  newPages: number;
  changedPages: number;
  removedPages: number;
  /** Where first-seen pages got their lastmod from, when `git` found no repository. */
  initialLastmodNote?: string;
  /** Set when the sitemaps are written into a sub-folder of the site, which limits what they may list. */
  locationNote?: string;
  durationMs: number;
}

export const DEFAULT_STATE_PATH = join('.sitemapkit', 'state');

export async function buildSite(options: BuildSiteOptions): Promise<BuildSiteResult> {
  const started = Date.now();
  const now = options.now ?? new Date();
  const nowText = formatSitemapDate(new Date(Math.floor(now.getTime() / 1000) * 1000));
  const siteDir = options.siteDir;
  const outDir = options.outDir ?? siteDir;
  const statePath = options.statePath ?? join(outDir, DEFAULT_STATE_PATH);
  const name = options.name ?? 'sitemap';
  const gzip = options.gzip ?? true;
  const limits = resolveLimits(options.profile, options.maxUrls, options.maxBytes);
  const baseUrl = directoryUrl(options.baseUrl);
  const progress = options.onProgress;
  // Where the sitemaps are served: a sub-folder of the site is served under the base URL; any other
  // folder is taken to be published at the base URL itself.
  const outInSite = relative(resolve(siteDir), resolve(outDir));
  const sitemapsUrl =
    outInSite === '' || outInSite.startsWith('..') || isAbsolute(outInSite)
      ? baseUrl
      : baseUrl + outInSite.split(sep).map((segment) => encodeURIComponent(segment)).join('/') + '/';

  await requireDirectory(siteDir);
  const state = await loadState(statePath);
  const sameBase = state.baseUrl === undefined || state.baseUrl === baseUrl;

  progress?.({ phase: 'walk', done: 0, total: 0 });
  const all = await walkSite(siteDir);
  const globs = options.exclude ?? [];
  // picomatch is loaded only for globs: a CommonJS package, its import is Node's CommonJS loader's
  // first use too (~0.5 MB of heap, kept by every program that imports sitemapkit otherwise).
  const picomatch = globs.length > 0 ? (await import('picomatch')).default : undefined;
  const excludeMatchers = picomatch === undefined ? [] : globs.map((glob) => picomatch(glob, { dot: true }));
  const excluded: ExcludedPage[] = [];
  const kept: SitePage[] = [];
  for (const page of all) {
    if (excludeMatchers.some((match) => match(page.relPath))) excluded.push({ relPath: page.relPath, reason: 'excluded' });
    else if (isErrorPage(page.relPath)) excluded.push({ relPath: page.relPath, reason: 'error-page' });
    else kept.push(page);
  }

  // Two files served at one URL (`a.html` and `a/index.html` with clean URLs and no trailing slash):
  // the first in path order is the page, the other is reported.
  const pathOptions = { trailingSlash: options.trailingSlash ?? 'preserve', cleanUrls: options.cleanUrls ?? false };
  const pages: (SitePage & { url: string })[] = [];
  const seenUrls = new Map<string, string>();
  const problems: PageProblem[] = [];
  for (const page of kept) {
    let url: string;
    try {
      url = normalizeUrl(baseUrl + pageUrlPath(page.relPath, pathOptions), 'loc');
    } catch (error) {
      // A path that makes no valid URL (2,048 characters or more): this page only.
      if (!(error instanceof InvalidValueError)) throw error;
      problems.push({ relPath: page.relPath, url: '', code: error.code, message: `left out: ${error.message}` });
      continue;
    }
    const first = seenUrls.get(url);
    if (first !== undefined) {
      excluded.push({ relPath: page.relPath, url, reason: 'duplicate-url', detail: first });
      continue;
    }
    seenUrls.set(url, page.relPath);
    // Written out, not `{ ...page, url }`: that spread gave every page a hidden class of its own
    // (100,000 maps and descriptor arrays: ~26 MB of heap at 100,000 pages, by heap snapshot).
    pages.push({ relPath: page.relPath, path: page.path, mtimeMs: page.mtimeMs, size: page.size, url });
  }

  const total = pages.length;
  // The scanner (htmlparser2 in it) is loaded by the build that needs it, not with the package.
  const { scanPages } = await import('./build/scan-pages.js');
  const scans = await scanPages(pages, {
    images: options.images ?? false,
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    onScanned: progress === undefined ? undefined : (done) => progress({ phase: 'scan', done, total }),
  });

  const candidates: PageCandidate[] = [];
  const scanned: { page: (typeof pages)[number]; scan: Extract<PageScan, { hash: string }> }[] = [];
  pages.forEach((page, i) => {
    const scan = scans[i] as PageScan;
    if ('error' in scan) {
      excluded.push({ relPath: page.relPath, url: page.url, reason: 'unreadable', detail: scan.error });
      return;
    }
    scanned.push({ page, scan });
    candidates.push({
      relPath: page.relPath,
      url: page.url,
      noindex: scan.facts.noindex,
      ...(scan.facts.refresh !== undefined ? { refresh: scan.facts.refresh } : {}),
      // Several canonical links that disagree: Google ignores them all, and so does the build.
      ...(scan.facts.canonical !== undefined && scan.facts.canonicalConflict !== true ? { canonical: scan.facts.canonical } : {}),
    });
  });
  const decisions = selectPages(candidates, baseUrl);

  // lastmod: kept while the content hash is unchanged (Google uses lastmod only when it is
  // "consistently and verifiably accurate").
  const firstSeen = scanned.filter(({ page }) => !sameBase || !state.pages.has(page.url)).map(({ page }) => page);
  const initial = await initialLastmods(firstSeen, options.initialLastmod ?? 'git', siteDir, options.sourceMap, nowText);
  const nextPages = new Map<string, PageState>();
  let newPages = 0;
  let changedPages = 0;
  for (const { page, scan } of scanned) {
    const previous = sameBase ? state.pages.get(page.url) : undefined;
    let lastmod: string | undefined;
    if (previous === undefined) {
      newPages++;
      lastmod = initial.dates.get(page.relPath);
    } else if (previous.hash === scan.hash) {
      lastmod = previous.lastmod;
    } else {
      changedPages++;
      lastmod = nowText;
    }
    nextPages.set(page.url, lastmod === undefined ? { hash: scan.hash, listed: false } : { hash: scan.hash, lastmod, listed: false });
  }
  let removedPages = 0;
  if (sameBase) for (const url of state.pages.keys()) if (!nextPages.has(url)) removedPages++;

  const entries: StableEntry[] = [];
  const byLoc = new Map<string, string>();
  scanned.forEach(({ page, scan }, i) => {
    const decision = decisions[i] as (typeof decisions)[number];
    if (!decision.listed) {
      excluded.push({ relPath: page.relPath, url: page.url, reason: decision.reason as ExclusionReason, ...(decision.detail !== undefined ? { detail: decision.detail } : {}) });
      return;
    }
    const lastmod = nextPages.get(page.url)?.lastmod;
    const entry: UrlEntry = { loc: page.url };
    if (lastmod !== undefined) entry.lastmod = lastmod;
    if (scan.facts.alternates.length > 0) entry.alternates = scan.facts.alternates.map((link: AlternateLink): AlternateLink => ({ hreflang: link.hreflang, href: link.href }));
    if (scan.facts.images.length > 0) entry.images = scan.facts.images.map((loc: string) => ({ loc }));
    entries.push({ entry, section: sectionOf(page.relPath) });
    byLoc.set(page.url, page.relPath);
    (nextPages.get(page.url) as PageState).listed = true;
  });

  const set = buildStableSet(entries, {
    baseUrl,
    limits,
    name,
    gzip,
    previousBuckets: sameBase ? state.buckets : undefined,
  });
  for (const { entry, error, keptWithout } of set.refused) {
    problems.push({
      relPath: byLoc.get(entry.loc) ?? '',
      url: entry.loc,
      code: error.code,
      message: keptWithout === undefined ? `left out: ${error.message}` : `listed without its ${keptWithout}: ${error.message}`,
    });
  }
  let listed = entries.length;
  for (const refusal of set.refused) {
    if (refusal.keptWithout !== undefined) continue;
    listed--;
    const page = nextPages.get(refusal.entry.loc);
    if (page !== undefined) page.listed = false;
  }

  const common = {
    outDir,
    statePath,
    baseUrl,
    indexUrl: sitemapsUrl + `${name}.xml`,
    pages: all.length,
    excluded,
    ...withDominant(dominantExclusion(excluded, all.length, baseUrl)),
    problems,
    newPages,
    changedPages,
    removedPages,
    ...(initial.note !== undefined ? { initialLastmodNote: initial.note } : {}),
    ...(sitemapsUrl !== baseUrl
      ? {
          locationNote: `the sitemaps are served from ${sitemapsUrl}, so by the protocol they may list only URLs under it (sitemaps.org: "Sitemap file location"); write them to the site's top folder (--out ${siteDir}) or submit them in robots.txt`,
        }
      : {}),
  };
  const indexName = `${name}.xml`;
  if (set.children.length === 0) {
    // Nothing to list: an index must name at least one sitemap (siteindex.xsd), and an empty set
    // replacing a full one is far likelier a mistake (a wrong --base-url, an empty folder) than a
    // wish. Nothing is written or removed and the state is not saved.
    const onDisk = await exists(join(outDir, indexName));
    return { ...common, committed: false, indexFile: { name: indexName, status: onDisk ? 'kept' : 'absent', urls: 0, bytes: 0 }, files: [], listed, durationMs: Date.now() - started };
  }

  // The commit (see the top of this file). Every changed file is staged (compressed, written beside
  // its target, flushed) before the first rename; the children go in under names no file has, the
  // index last. A failure or a kill before the index's rename leaves the previous set as it was.
  progress?.({ phase: 'write', done: 0, total: set.children.length + 1 });
  const batch = new FileBatch();
  // Temporary files of a run killed between staging and renaming (the previous set stayed whole).
  await FileBatch.removeStale(outDir, (target) => target === indexName || (target.startsWith(`${name}-`) && /\.xml(?:\.gz)?$/.test(target)));
  try {
    const nextFiles = new Map<string, FileState>();
    const files: BuiltFile[] = [];
    for (const child of set.children) {
      const hash = sha256(child.text);
      const bytes = Buffer.byteLength(child.text);
      let data: Buffer | undefined;
      const content = (): Buffer => (data ??= gzip ? gzipSync(child.text, { level: options.gzipLevel ?? 6 }) : Buffer.from(child.text));
      // A file of the name already there holds these bytes when the state says this build wrote
      // them, or when they compare equal (a run killed after its renames, a state removed by hand).
      const known = (fileName: string): boolean => sameBase && state.files.get(fileName)?.hash === hash;
      let placed;
      try {
        placed = await firstFreeName(
          outDir,
          mapNames(contentTokens(crc32(child.text)), (token) => withContentToken(child.name, token)),
          async (path) => known(basename(path)) || fileHolds(path, content()),
        );
      } catch (error) {
        if (error instanceof SitemapError) throw error;
        throw new SitemapError('ERR_SITEMAP_WRITE', `cannot write to ${outDir}: ${ioErrorReason(error)}`);
      }
      // Never the index's name: a child's name has a token between its stem and `.xml`.
      const fileName = placed.name;
      const previous = sameBase ? state.files.get(fileName) : undefined;
      // A file rewritten with the same content (it was deleted by hand) keeps its lastmod.
      const lastmod = previous !== undefined && previous.hash === hash ? previous.lastmod : nowText;
      nextFiles.set(fileName, { hash, lastmod, urls: child.urls });
      if (placed.inPlace) {
        files.push({ name: fileName, status: 'unchanged', urls: child.urls, bytes, lastmod });
        continue;
      }
      await batch.stage(join(outDir, fileName), content());
      files.push({ name: fileName, status: 'written', urls: child.urls, bytes, lastmod });
    }
    const refs: SitemapRef[] = [...nextFiles].map(([fileName, file]) => ({ loc: sitemapsUrl + fileName, lastmod: file.lastmod }));
    const indexText = serializeSitemapIndex(refs, { limits });
    const indexHash = sha256(indexText);
    const previousIndex = state.indexName === indexName ? state.files.get(indexName) : undefined;
    const unchanged = sameBase && previousIndex?.hash === indexHash && (await exists(join(outDir, indexName)));
    // Staged last: its rename is the commit point.
    if (!unchanged) await batch.stage(join(outDir, indexName), indexText);
    const indexLastmod = unchanged ? (previousIndex as FileState).lastmod : nowText;
    nextFiles.set(indexName, { hash: indexHash, lastmod: indexLastmod, urls: refs.length });
    const indexFile: BuiltFile = { name: indexName, status: unchanged ? 'unchanged' : 'written', urls: refs.length, bytes: Buffer.byteLength(indexText), lastmod: indexLastmod };

    await batch.commit();

    // After the commit: the files of this set that the new index does not name. Those the state says
    // the last build wrote, and children of runs killed after their renames (named like ours, with a
    // content token, and named by no index since).
    const stale = new Set<string>();
    for (const old of state.files.keys()) if (!nextFiles.has(old) && old !== state.indexName) stale.add(old);
    const tokenChild = tokenChildPattern(name);
    for (const file of await readdir(outDir).catch(() => [] as string[])) if (tokenChild.test(file) && !nextFiles.has(file)) stale.add(file);
    for (const old of [...stale].sort()) {
      await rm(join(outDir, old), { force: true }).catch((error: unknown) => {
        throw new SitemapError('ERR_SITEMAP_WRITE', `the new sitemaps are in place, but ${join(outDir, old)}, no longer part of them, cannot be removed: ${ioErrorReason(error)}`);
      });
      files.push({ name: old, status: 'removed', urls: 0, bytes: 0 });
    }
    if (state.indexName !== undefined && state.indexName !== indexName) {
      await rm(join(outDir, state.indexName), { force: true });
    }

    const next: BuildState = {
      baseUrl,
      indexName,
      pages: nextPages,
      files: nextFiles,
      buckets: set.buckets,
      // IndexNow's memory is about URLs, not builds: kept as it was (a URL gone since is submitted as gone).
      announced: state.announced,
      ...(state.lastSubmission !== undefined ? { lastSubmission: state.lastSubmission } : {}),
    };
    await saveState(statePath, next);

    return { ...common, committed: true, indexFile, files, listed, durationMs: Date.now() - started };
  } finally {
    // After a commit there is nothing left to remove; before it (an error), the staged files go.
    await batch.discard();
  }
}

function withDominant(dominant: DominantExclusion<ExcludedPage['reason']> | undefined): { dominantExclusion?: DominantExclusion<ExcludedPage['reason']> } {
  return dominant === undefined ? {} : { dominantExclusion: dominant };
}

/** Children with a content token of a set named `name`: `NAME-….TOKEN.xml[.gz]`. */
function tokenChildPattern(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}-.+\\.[0-9a-f]{8}\\.xml(?:\\.gz)?$`);
}

function* mapNames(tokens: Iterable<string>, name: (token: string) => string): Generator<string> {
  for (const token of tokens) yield name(token);
}

/** The base URL as a directory: normalised, ending in `/`. */
function directoryUrl(input: string): string {
  const scope = scopeOf(input);
  const url = scope.href;
  return url.endsWith('/') ? url : scope.prefix;
}

async function requireDirectory(dir: string): Promise<void> {
  let info;
  try {
    info = await stat(dir);
  } catch (error) {
    throw new SitemapError('ERR_SITEMAP_INPUT', `cannot read the site folder ${dir}: ${ioErrorReason(error)}`);
  }
  if (!info.isDirectory()) throw new SitemapError('ERR_SITEMAP_INPUT', `${dir} is not a folder; give the built site's output folder`);
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

interface InitialDates {
  dates: Map<string, string>;
  note?: string;
}

async function initialLastmods(
  pages: readonly SitePage[],
  mode: InitialLastmod,
  siteDir: string,
  sourceMap: ReadonlyMap<string, string> | undefined,
  nowText: string,
): Promise<InitialDates> {
  const dates = new Map<string, string>();
  if (pages.length === 0 || mode === 'none') return { dates };
  if (mode === 'now') {
    for (const page of pages) dates.set(page.relPath, nowText);
    return { dates };
  }
  if (mode === 'mtime') {
    for (const page of pages) dates.set(page.relPath, formatSitemapDate(Math.floor(page.mtimeMs / 1000) * 1000));
    return { dates };
  }
  const top = await gitTopLevel(siteDir);
  if (top === undefined) return { dates, note: `${siteDir} is not in a git repository: pages seen for the first time have no lastmod` };
  // git reports real paths; resolve the folder once rather than every page.
  const realSite = await realpath(siteDir);
  const sourceOf = new Map<string, string>();
  for (const page of pages) sourceOf.set(page.relPath, sourceMap?.get(page.relPath) ?? join(realSite, page.relPath));
  const times = await gitLastCommitTimes(top, new Set(sourceOf.values()));
  let missing = 0;
  for (const page of pages) {
    const time = times.get(sourceOf.get(page.relPath) as string);
    if (time === undefined) missing++;
    else dates.set(page.relPath, formatSitemapDate(time));
  }
  return missing === 0 ? { dates } : { dates, note: `${missing} page(s) seen for the first time have no git history (untracked or never committed): no lastmod` };
}

/** Reads a source map: a JSON object `{ "page path in the folder": "source file", … }`, sources relative to the map file. */
export async function readSourceMap(path: string): Promise<Map<string, string>> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const why = error instanceof SyntaxError ? `not valid JSON (${error.message})` : ioErrorReason(error);
    throw new SitemapError('ERR_SITEMAP_INPUT', `cannot read the source map ${path}: ${why}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new SitemapError('ERR_SITEMAP_INPUT', `the source map ${path} must be a JSON object mapping page paths to source files`);
  }
  const base = resolve(path, '..');
  const realBase = await realpath(base).catch(() => base);
  const map = new Map<string, string>();
  for (const [page, source] of Object.entries(data)) {
    if (typeof source !== 'string') throw new SitemapError('ERR_SITEMAP_INPUT', `the source map ${path}: the source of ${JSON.stringify(page)} must be a string`);
    map.set(page.replace(/^\.?\//, ''), resolve(realBase, source));
  }
  return map;
}
