// buildSite: a built site's folder → its sitemap set. A page's lastmod changes only when its content
// does (the state remembers content hashes), and a child is rewritten only when its pages change.
// Steps: refuse an index another generator wrote (unless forced); walk; scan pages; decide what is
// listed; date the pages; lay them out in stable children (core/build/stable-set.ts); commit through
// StagedOutput: changed children under new content-token names (core/write/child-names.ts), the index
// renamed last (the commit point), then the children no longer named are removed and the state saved.
// Nothing to list writes and removes nothing: the previous set stays whole.

import { crc32 } from 'node:zlib';
import { createHash } from 'node:crypto';
import { readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { definedOnly } from '../core/defined-only.js';
import { InvalidValueError, SitemapError, plural } from '../core/errors.js';
import type { LimitsProfileName, SitemapRef, UrlEntry } from '../core/model.js';
import { normalizeUrl, scopeOf } from '../core/url.js';
import { formatSitemapDate } from '../core/datetime.js';
import { serializeSitemapIndex } from '../core/write/sitemap-index.js';
import { isHtmlFile, pageUrlPath, type TrailingSlash } from '../core/build/page-path.js';
import { isErrorPage, selectPages, siteUrlIndex, siteUrlKey, type ExclusionReason, type PageCandidate, type PageDecision } from '../core/build/select-pages.js';
import { siteAlternates, type AlternateTarget } from '../core/build/site-alternates.js';
import { sectionOf } from '../core/build/partition.js';
import { buildStableSet, type StableEntry, type StableSet } from '../core/build/stable-set.js';
import { dominantExclusion, type DominantExclusion } from '../core/build/exclusions.js';
import { tokenChildPattern, withContentToken } from '../core/write/child-names.js';
import { ruleSource, type SourceRule } from '../core/build/source-rules.js';
import { StagedOutput, type StagedFile } from './staged-output.js';
import { walkSite, type SitePage } from './build/walk-site.js';
import type { PageScan } from './build/scan-pages.js';
import { gitLastCommitTimes, gitTopLevel } from './build/git-dates.js';
import { loadState, saveState, type BuildState, type FileState, type PageState } from './build/state-store.js';
import { resolveLimits, setName } from './write-sitemaps.js';
import { ioErrorReason, parseJsonFile, pathInside, stopIfAborted } from './io-errors.js';
import { isFile } from './local-child.js';

export type InitialLastmod = 'git' | 'mtime' | 'now' | 'none';

export interface BuildSiteOptions {
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
  /** Rules for pages `sourceMap` does not name (`posts/*\/index.html=content/posts/*.md`); the first with a file wins. */
  sourceRules?: readonly SourceRule[];
  /** What the sources of `sourceRules` are relative to (default: the current directory). */
  sourceRoot?: string;
  /** File name prefix: the index is `NAME.xml`, children `NAME-SECTION.TOKEN.xml.gz` (default `sitemap`). */
  name?: string;
  gzip?: boolean;
  gzipLevel?: number;
  profile?: LimitsProfileName;
  maxUrls?: number;
  maxBytes?: number;
  /** Threads that scan pages (default: one per core for a large site, none for a small one). */
  threads?: number;
  /** Replace an index at `OUT/NAME.xml` this build did not write; without it: `ERR_SITEMAP_FOREIGN_FILE`. */
  force?: boolean;
  /** Compute everything (files, names, lastmods, removals) but write, remove and save nothing. */
  dryRun?: boolean;
  /** Stops the run (ERR_SITEMAP_ABORTED) between batches of pages and before the commit; nothing is left behind. */
  signal?: AbortSignal;
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
  /** An error leaves out something that belongs (exit 1); a warning reports a contradiction, or a value dropped. */
  severity: 'error' | 'warning';
  message: string;
}

/** `unchanged`: on disk with these bytes already; `kept` / `absent`: the index of a build with nothing to list. */
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
  /** Whether the new set was put in place and the state saved: false on a dry run or when nothing was listed. */
  committed: boolean;
  /** Present on a dry run: `files` say what a real build would do. */
  dryRun?: true;
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
  /** Listed or not: pages first seen, changed, and gone since the last build. */
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

type BuildContext = Awaited<ReturnType<typeof startBuild>>;
type UrlPage = SitePage & { url: string };
type ScannedPage = { page: UrlPage; scan: Extract<PageScan, { hash: string }>; decision: PageDecision };

export async function buildSite(options: BuildSiteOptions): Promise<BuildSiteResult> {
  const run = await startBuild(options);
  const { baseUrl, progress } = run;
  progress?.({ phase: 'walk', done: 0, total: 0 });
  const { pages: all, notUtf8 } = await walkSite(run.siteDir);
  stopIfAborted(options.signal);
  const { pages, excluded, problems } = await pagesToScan(all, run);
  for (const relPath of notUtf8) {
    const what = relPath.endsWith('/') ? 'left out with all it holds' : 'left out';
    problems.push({ relPath, url: '', code: 'build/name-not-utf8', severity: 'warning', message: `${what}: its name is not UTF-8, so its URL is unknown; rename it` });
  }
  const scanned = await scanSite(pages, excluded, run);
  const dates = await datePages(scanned, excluded, run);
  stopIfAborted(options.signal);
  // An hreflang alternate may name only a listed page, in its listed form (core/build/site-alternates.ts);
  // the table of fates is built at the first alternate, so a site without hreflang does not pay for it.
  let fates: ((url: string) => AlternateTarget | undefined) | undefined;
  const pageAt = (url: string): AlternateTarget | undefined => (fates ??= siteFates(all, excluded, problems, scanned, baseUrl))(url);
  const { entries, byLoc } = listEntries(scanned, dates.nextPages, pageAt, excluded, problems, baseUrl);

  const set = buildStableSet(entries, { baseUrl, limits: run.limits, name: run.name, gzip: run.gzip, previousBuckets: run.sameBase ? run.state.buckets : undefined });
  let listed = entries.length;
  for (const { entry, error, keptWithout } of set.refused) {
    problems.push({
      relPath: byLoc.get(entry.loc) ?? '',
      url: entry.loc,
      code: error.rule,
      severity: 'error',
      message: keptWithout === undefined ? `left out: ${error.message}` : `listed without its ${keptWithout}: ${error.message}`,
    });
    if (keptWithout !== undefined) continue;
    listed--;
    (dates.nextPages.get(entry.loc) as PageState).listed = false;
  }

  // An index must name at least one sitemap (siteindex.xsd), and an empty set replacing a full one
  // is likelier a mistake (a wrong --base-url) than a wish: nothing is written, removed or saved.
  const written: { indexFile: BuiltFile; files: BuiltFile[] } =
    set.children.length === 0
      ? { indexFile: { name: run.indexName, status: isFile(join(run.outDir, run.indexName)) ? 'kept' : 'absent', urls: 0, bytes: 0 }, files: [] }
      : await writeSet(set, dates.nextPages, run);
  return {
    outDir: run.outDir,
    statePath: run.statePath,
    baseUrl,
    indexUrl: run.sitemapsUrl + run.indexName,
    pages: all.length,
    ...(options.dryRun === true ? { dryRun: true as const } : {}),
    excluded,
    ...definedOnly({ dominantExclusion: dominantExclusion(excluded, all.length, baseUrl) }),
    problems,
    newPages: dates.newPages,
    changedPages: dates.changedPages,
    removedPages: dates.removedPages,
    ...definedOnly({
      initialLastmodNote: dates.note,
      locationNote:
        run.sitemapsUrl === baseUrl
          ? undefined
          : `the sitemaps are served from ${run.sitemapsUrl}, so by the protocol they may list only URLs under it (sitemaps.org: "Sitemap file location"); write them to the site's top folder (--out ${run.siteDir}) or submit them in robots.txt`,
    }),
    committed: set.children.length > 0 && options.dryRun !== true,
    ...written,
    listed,
    durationMs: Date.now() - run.started,
  };
}

/** The options resolved, the site folder checked, the state loaded, and an index another program wrote refused. */
async function startBuild(options: BuildSiteOptions) {
  const started = Date.now();
  const now = options.now ?? new Date();
  const nowText = formatSitemapDate(new Date(Math.floor(now.getTime() / 1000) * 1000));
  const siteDir = options.siteDir;
  const outDir = options.outDir ?? siteDir;
  const statePath = options.statePath ?? join(outDir, DEFAULT_STATE_PATH);
  const name = setName(options.name);
  const indexName = `${name}.xml`;
  // Saved by a rename after the index's, a state at its path would be published as the sitemap.
  if (resolve(statePath) === resolve(outDir, indexName)) throw new SitemapError('ERR_SITEMAP_OPTION', `--state ${statePath} is the index this build writes; keep the state in another file (default ${join(outDir, DEFAULT_STATE_PATH)})`);
  const limits = resolveLimits(options.profile, options.maxUrls, options.maxBytes);
  const baseUrl = directoryUrl(options.baseUrl);
  // A sub-folder of the site is served under the base URL; any other folder at the base URL itself.
  const outInSite = pathInside(siteDir, resolve(outDir));
  const sitemapsUrl =
    outInSite === undefined || outInSite === '' ? baseUrl : baseUrl + outInSite.split(sep).map((segment) => encodeURIComponent(segment)).join('/') + '/';

  await requireDirectory(siteDir);
  const state = await loadState(statePath);
  // A sitemap another generator wrote (Hugo's `sitemap.xml`) is not ours to replace unasked.
  const foreign = options.force === true ? undefined : await foreignSitemap(outDir, state, indexName);
  if (foreign !== undefined) {
    throw new SitemapError(
      'ERR_SITEMAP_FOREIGN_FILE',
      `${join(outDir, indexName)} was not written by sitemapkit build (${foreign}); nothing was written. Keep it and write ours under another name (--name) or folder (--out), or replace it with --force`,
    );
  }
  return {
    options,
    started,
    nowText,
    // Never after the build: a wrong clock or a copied future mtime would write a distrusted lastmod (lastmod/future).
    dated: (ms: number): string => (ms > now.getTime() ? nowText : formatSitemapDate(Math.floor(ms / 1000) * 1000)),
    siteDir,
    outDir,
    statePath,
    name,
    indexName,
    gzip: options.gzip ?? true,
    limits,
    baseUrl,
    sitemapsUrl,
    state,
    // Only under the same base URL do the state's pages, files and lastmods carry over.
    sameBase: state.baseUrl === undefined || state.baseUrl === baseUrl,
    progress: options.onProgress,
  };
}

/** The pages of the folder not left out by name (--exclude, error pages), each with its URL. */
async function pagesToScan(all: readonly SitePage[], run: BuildContext): Promise<{ pages: UrlPage[]; excluded: ExcludedPage[]; problems: PageProblem[] }> {
  const options = run.options;
  const globs = options.exclude ?? [];
  // Loaded only for globs: a CommonJS package, whose import starts Node's CommonJS loader (~0.5 MB of heap).
  const picomatch = globs.length > 0 ? (await import('picomatch')).default : undefined;
  const excludeMatchers = picomatch === undefined ? [] : globs.map((glob) => picomatch(glob, { dot: true }));
  const excluded: ExcludedPage[] = [];
  const problems: PageProblem[] = [];
  const pages: UrlPage[] = [];
  // Two files served at one URL (`a.html` and `a/index.html` with clean URLs): the first in path order wins.
  const seenUrls = new Map<string, string>();
  const pathOptions = { trailingSlash: options.trailingSlash ?? 'preserve', cleanUrls: options.cleanUrls ?? false };
  const kept: SitePage[] = [];
  for (const page of all) {
    if (excludeMatchers.some((match) => match(page.relPath))) excluded.push({ relPath: page.relPath, reason: 'excluded' });
    else if (isErrorPage(page.relPath)) excluded.push({ relPath: page.relPath, reason: 'error-page' });
    else kept.push(page);
  }
  for (const page of kept) {
    const url = pageUrl(run.baseUrl, page.relPath, pathOptions);
    if (url instanceof InvalidValueError) {
      // A path that makes no valid URL (2,048 characters or more) leaves out this page only.
      problems.push({ relPath: page.relPath, url: '', code: url.rule, severity: 'error', message: `left out: ${url.message}` });
      continue;
    }
    const first = seenUrls.get(url);
    if (first !== undefined) {
      excluded.push({ relPath: page.relPath, url, reason: 'duplicate-url', detail: first });
      continue;
    }
    seenUrls.set(url, page.relPath);
    // Not `{ ...page, url }`: that spread gave every page its own hidden class (~26 MB at 100,000 pages).
    pages.push({ relPath: page.relPath, path: page.path, mtimeMs: page.mtimeMs, size: page.size, url });
  }
  return { pages, excluded, problems };
}

/** Scans each page at its file's location; an unreadable page is left out. Decides what is listed. */
async function scanSite(pages: readonly UrlPage[], excluded: ExcludedPage[], run: BuildContext): Promise<ScannedPage[]> {
  const { options, baseUrl, progress } = run;
  const total = pages.length;
  // htmlparser2 is loaded by the build that needs it, not with the package.
  const { scanPages } = await import('./build/scan-pages.js');
  // Relative links are written for the folder the file sits in, whatever form the sitemap lists the
  // page in (`posts/a` with --trailing-slash never): scanned at its file's location (`a/index.html` → `BASE/a/`,
  // `a/b.html` → `BASE/a/b.html`), mapped to listed URLs after.
  const atOwnLocation = (options.trailingSlash ?? 'preserve') === 'preserve' && options.cleanUrls !== true;
  const scanTargets = atOwnLocation ? pages : pages.map((page) => {
    const url = pageUrl(baseUrl, page.relPath);
    return { path: page.path, size: page.size, url: typeof url === 'string' ? url : page.url };
  });
  const scans = await scanPages(scanTargets, {
    images: options.images ?? false,
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    onScanned: progress === undefined ? undefined : (done) => progress({ phase: 'scan', done, total }),
  });
  const read: Omit<ScannedPage, 'decision'>[] = [];
  pages.forEach((page, i) => {
    const scan = scans[i] as PageScan;
    if ('error' in scan) excluded.push({ relPath: page.relPath, url: page.url, reason: 'unreadable', detail: scan.error });
    else read.push({ page, scan });
  });
  const candidates = read.map(({ page, scan: { facts } }): PageCandidate => ({
    relPath: page.relPath,
    url: page.url,
    noindex: facts.noindex,
    ...(facts.refresh !== undefined ? { refresh: facts.refresh } : {}),
    // Several canonical links that disagree: Google ignores them all, and so does the build.
    ...(facts.canonical !== undefined && facts.canonicalConflict !== true ? { canonical: facts.canonical } : {}),
  }));
  const decisions = selectPages(candidates, baseUrl);
  return read.map(({ page, scan }, i) => ({ page, scan, decision: decisions[i] as PageDecision }));
}

/** What became of each page of the folder, looked up by a URL it is served at (for hreflang alternates). */
function siteFates(
  all: readonly SitePage[],
  excluded: readonly ExcludedPage[],
  problems: readonly PageProblem[],
  scanned: readonly ScannedPage[],
  baseUrl: string,
): (url: string) => AlternateTarget | undefined {
  const siteUrls = siteUrlIndex(all, baseUrl);
  const fates = new Map<string, AlternateTarget>();
  for (const page of excluded) fates.set(page.relPath, { relPath: page.relPath, reason: page.reason });
  for (const problem of problems) if (!fates.has(problem.relPath)) fates.set(problem.relPath, { relPath: problem.relPath, reason: 'invalid-url' });
  for (const { page, decision } of scanned) {
    fates.set(page.relPath, decision.listed ? { relPath: page.relPath, listedUrl: page.url } : { relPath: page.relPath, reason: decision.reason as string });
  }
  return (url) => {
    const at = siteUrls.get(siteUrlKey(url));
    return at === undefined ? undefined : fates.get((all[at] as SitePage).relPath);
  };
}

/**
 * Each page's lastmod: kept while its content hash is (Google uses lastmod only when "consistently and
 * verifiably accurate"); a changed page's from its source's last commit, else the build; a new one's by `initialLastmod`.
 */
async function datePages(
  scanned: readonly ScannedPage[],
  excluded: readonly ExcludedPage[],
  run: BuildContext,
): Promise<{ nextPages: Map<string, PageState>; newPages: number; changedPages: number; removedPages: number; note?: string }> {
  const { state, sameBase, options } = run;
  const previousOf = (url: string): PageState | undefined => (sameBase ? state.pages.get(url) : undefined);
  // A page the state has no lastmod for is dated again only once the note's way out is taken
  // (--initial-lastmod, a source map or rules): otherwise git is asked every run for what it cannot say.
  const redate = options.initialLastmod !== undefined || options.sourceMap !== undefined || (options.sourceRules?.length ?? 0) > 0;
  const undated: UrlPage[] = [];
  const changed: string[] = [];
  let newPages = 0;
  for (const { page, scan } of scanned) {
    const previous = previousOf(page.url);
    if (previous === undefined) newPages++;
    if (previous === undefined || (redate && previous.lastmod === undefined)) undated.push(page);
    if (previous !== undefined && previous.hash !== scan.hash) changed.push(page.relPath);
  }
  const sources = await pageSources([...((options.initialLastmod ?? 'git') === 'git' ? undated.map((page) => page.relPath) : []), ...changed], options);
  const initial = await initialLastmods(undated, sources, run);
  const changedSources = new Map(changed.filter((relPath) => sources.has(relPath)).map((relPath) => [relPath, sources.get(relPath) as string]));
  const sourceTimes = changedSources.size === 0 ? undefined : await sourceCommitTimes(changedSources, [firstSourceDir(changedSources), run.siteDir]);
  const nextPages = new Map<string, PageState>();
  for (const { page, scan } of scanned) {
    const previous = previousOf(page.url);
    const lastmod =
      previous !== undefined && previous.hash !== scan.hash
        ? changedLastmod(sourceTimes?.get(page.relPath), previous.lastmod, run)
        : (previous?.lastmod ?? initial.dates.get(page.relPath));
    nextPages.set(page.url, lastmod === undefined ? { hash: scan.hash, listed: false } : { hash: scan.hash, lastmod, listed: false });
  }
  // A page unreadable this time is not gone: it keeps its hash and lastmod until it is read again.
  for (const { reason, url } of excluded) {
    const previous = reason === 'unreadable' && url !== undefined ? previousOf(url) : undefined;
    if (previous !== undefined) nextPages.set(url as string, previous);
  }
  let removedPages = 0;
  if (sameBase) for (const url of state.pages.keys()) if (!nextPages.has(url)) removedPages++;
  return { nextPages, newPages, changedPages: changed.length, removedPages, ...definedOnly({ note: initial.note }) };
}

/** The entries of the listed pages (the others go to `excluded`), with their lastmods, alternates and images. */
function listEntries(
  scanned: readonly ScannedPage[],
  nextPages: Map<string, PageState>,
  pageAt: (url: string) => AlternateTarget | undefined,
  excluded: ExcludedPage[],
  problems: PageProblem[],
  baseUrl: string,
): { entries: StableEntry[]; byLoc: Map<string, string> } {
  const entries: StableEntry[] = [];
  const byLoc = new Map<string, string>();
  for (const { page, scan, decision } of scanned) {
    if (!decision.listed) {
      excluded.push({ relPath: page.relPath, url: page.url, reason: decision.reason as ExclusionReason, ...definedOnly({ detail: decision.detail }) });
      // Neither URL is then listed: a canonical loop or chain, or one naming a noindex page.
      const target = decision.reason === 'canonical-elsewhere' ? pageAt(decision.detail as string) : undefined;
      if (target?.reason !== undefined) {
        problems.push({ relPath: page.relPath, url: page.url, code: 'build/canonical-left-out', severity: 'warning', message: `left out for its canonical ${decision.detail as string}, but ${target.relPath} is not listed either (${target.reason}): neither URL is in a sitemap` });
      }
      continue;
    }
    const lastmod = nextPages.get(page.url)?.lastmod;
    const entry: UrlEntry = { loc: page.url };
    if (lastmod !== undefined) entry.lastmod = lastmod;
    const problem = (code: string, message: string): void => void problems.push({ relPath: page.relPath, url: page.url, code, severity: 'warning', message });
    if (decision.canonicalForm !== undefined) {
      // Search engines index the canonical and report the listed form as a duplicate.
      problem('build/loc-not-canonical', `listed as ${page.url}, but the page's canonical is ${decision.canonicalForm}; make --trailing-slash and --clean-urls match the site's canonical URLs`);
    }
    if (scan.facts.alternates.length > 0) {
      const decided = siteAlternates(scan.facts.alternates, pageAt, baseUrl);
      if (decided.alternates.length > 0) entry.alternates = decided.alternates;
      for (const { target, hreflang, href, language } of decided.dropped) {
        const dropped = `hreflang="${hreflang}" alternate ${href} dropped`;
        if (language !== undefined) {
          const fix = language.fix !== undefined ? `: write ${language.fix}` : '';
          problem('hreflang/invalid-language', `${dropped}: not a BCP 47 language tag Google reads (${language.message})${fix}`);
        } else if (target !== undefined) {
          problem('build/alternate-left-out', `${dropped}: ${target.relPath} is not listed (${target.reason ?? 'left out'})`);
        } else {
          problem('build/alternate-not-built', `${dropped}: no page of the site folder is served at it`);
        }
      }
    }
    if (scan.facts.images.length > 0) entry.images = scan.facts.images.map((loc: string) => ({ loc }));
    entries.push({ entry, section: sectionOf(page.relPath) });
    byLoc.set(page.url, page.relPath);
    (nextPages.get(page.url) as PageState).listed = true;
  }
  return { entries, byLoc };
}

/** The commit (see the top of this file), through the output stage shared with `generate`. */
async function writeSet({ children, buckets }: StableSet, pages: Map<string, PageState>, run: BuildContext): Promise<{ indexFile: BuiltFile; files: BuiltFile[] }> {
  const { outDir, indexName, name, state, sameBase, nowText, options } = run;
  run.progress?.({ phase: 'write', done: 0, total: children.length + 1 });
  const output = await StagedOutput.create(outDir, { dryRun: options.dryRun === true, name, gzipLevel: run.gzip ? (options.gzipLevel ?? 6) : 0, exclusive: true });
  try {
    const nextFiles = new Map<string, FileState>();
    const files: BuiltFile[] = [];
    const staged: StagedFile[] = [];
    const writes: Promise<number>[] = [];
    for (const child of children) {
      const hash = sha256(child.text);
      let written: Promise<number> | undefined;
      const write = (): Promise<number> => {
        // Awaited before the commit; until then its failure must not be unhandled.
        if (written === undefined) (written = output.write(child.name, child.text)).catch(() => undefined);
        return written;
      };
      // A file of the name holds these bytes when the state says so, or when they compare equal.
      const placed = await output.place(
        child.name,
        crc32(child.text),
        (token) => withContentToken(child.name, token),
        { known: (fileName) => sameBase && state.files.get(fileName)?.hash === hash, written: write },
      );
      // Never the index's name: a child's name has a token between its stem and `.xml`.
      const previous = sameBase ? state.files.get(placed.name) : undefined;
      // A file rewritten with the same content (it was deleted by hand) keeps its lastmod.
      const lastmod = previous !== undefined && previous.hash === hash ? previous.lastmod : nowText;
      nextFiles.set(placed.name, { hash, lastmod, urls: child.urls });
      files.push({ name: placed.name, status: placed.inPlace ? 'unchanged' : 'written', urls: child.urls, bytes: Buffer.byteLength(child.text), lastmod });
      staged.push(placed);
      if (!placed.inPlace) writes.push(write());
    }
    const refs: SitemapRef[] = [...nextFiles].map(([fileName, file]) => ({ loc: run.sitemapsUrl + fileName, lastmod: file.lastmod }));
    const indexText = serializeSitemapIndex(refs, { limits: run.limits });
    const indexHash = sha256(indexText);
    const previousIndex = state.indexName === indexName ? state.files.get(indexName) : undefined;
    // Compared as it is on disk: an index edited or replaced since is written again.
    const unchanged = sameBase && previousIndex?.hash === indexHash && (await readFile(join(outDir, indexName), 'utf8').catch(() => undefined)) === indexText;
    if (!unchanged) await writeFile(output.path(indexName), indexText);
    await Promise.all(writes);
    const indexLastmod = unchanged ? (previousIndex as FileState).lastmod : nowText;
    nextFiles.set(indexName, { hash: indexHash, lastmod: indexLastmod, urls: refs.length });
    const indexFile: BuiltFile = { name: indexName, status: unchanged ? 'unchanged' : 'written', urls: refs.length, bytes: Buffer.byteLength(indexText), lastmod: indexLastmod };
    // Removed after the commit: the files the last build wrote, token-named children of killed runs,
    // and the previous index under its old name unless another program has written there since.
    const tokenChild = tokenChildPattern(name);
    const oldName = state.indexName;
    const oldIndex =
      oldName !== undefined && oldName !== indexName && (await foreignSitemap(outDir, state, oldName)) === undefined ? oldName : undefined;
    stopIfAborted(run.options.signal);
    let removed: string[] = [];
    const commit = async (): Promise<void> => {
      removed = await output.commit({
        children: staged,
        ...(unchanged ? {} : { entry: { staged: indexName, name: indexName } }),
        isOwned: (file) => tokenChild.test(file) || file === oldIndex || (state.files.has(file) && file !== state.indexName),
      });
    };
    // The new state is written before the set is committed and put in place after: both go in, or neither.
    // IndexNow's memory (announced, lastSubmission) is of URLs, not builds: kept as it was.
    const next = { ...state, baseUrl: run.baseUrl, indexName, pages, files: nextFiles, buckets };
    await (options.dryRun === true ? commit() : saveState(run.statePath, next, commit));
    for (const old of removed) if (old !== oldIndex) files.push({ name: old, status: 'removed', urls: 0, bytes: 0 });
    return { indexFile, files };
  } finally {
    await output.abort();
  }
}

/** The URL a page path is served at, or why it makes none. */
function pageUrl(baseUrl: string, relPath: string, options?: Parameters<typeof pageUrlPath>[1]): string | InvalidValueError {
  try {
    return normalizeUrl(baseUrl + pageUrlPath(relPath, options), 'loc');
  } catch (error) {
    if (error instanceof InvalidValueError) return error;
    throw error;
  }
}

/** Larger than any index the build writes (50,000 refs of 2,048 characters): not ours. */
const MAX_OWN_INDEX_BYTES = 120 * 1024 * 1024;

/**
 * Why `OUT/indexName` is not an index this build wrote; undefined when it is ours or absent. Ours is the
 * file the state records, with its hash, or (state gone or elsewhere) an index whose every `<loc>` names
 * a child `NAME-SECTION.TOKEN.xml[.gz]` (core/write/child-names.ts): a shape no other generator writes.
 */
async function foreignSitemap(outDir: string, state: BuildState, indexName: string): Promise<string | undefined> {
  const path = join(outDir, indexName);
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return undefined;
  if (!info.isFile()) return 'it is not a file';
  if (info.size > MAX_OWN_INDEX_BYTES) return `a file of ${info.size} bytes`;
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw new SitemapError('ERR_SITEMAP_WRITE', `cannot read ${path} to tell whether sitemapkit wrote it: ${ioErrorReason(error)}`);
  });
  const recorded = state.indexName === indexName ? state.files.get(indexName) : undefined;
  if (recorded !== undefined && recorded.hash === sha256(text)) return undefined;
  // Trimmed after the match: `\s*([^<]*?)\s*` re-read a white-space run for each length tried (quadratic).
  const locs = [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => (match[1] as string).trim());
  if (!/<sitemapindex[\s>]/.test(text)) return /<urlset[\s>]/.test(text) ? `a sitemap of ${plural(locs.length, 'URL')}` : 'not a sitemap index';
  const ownChild = tokenChildPattern(indexName.replace(/\.xml$/, ''));
  if (locs.length > 0 && locs.every((loc) => ownChild.test(loc.slice(loc.lastIndexOf('/') + 1)))) return undefined;
  const shown = locs.slice(0, 2).join(', ');
  return locs.length === 0 ? 'an empty sitemap index' : `a sitemap index of ${shown}${locs.length > 2 ? ` and ${locs.length - 2} more` : ''}`;
}

/** The base URL as a directory ending in `/`: `https://example.com/docs` and `…/docs/index.html` → `…/docs/`. */
function directoryUrl(input: string): string {
  const scope = scopeOf(input);
  const url = scope.href;
  if (/[?#]/.test(url)) throw new InvalidValueError('base-url/invalid', '--base-url', input, `--base-url ${url}: a site is served under a path, without a query or fragment`);
  return url.endsWith('/') ? url : isHtmlFile(url) ? scope.prefix : `${url}/`;
}

async function requireDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: unknown) => {
    throw new SitemapError('ERR_SITEMAP_INPUT', `cannot read the site folder ${dir}: ${ioErrorReason(error)}`);
  });
  if (!info.isDirectory()) throw new SitemapError('ERR_SITEMAP_INPUT', `${dir} is not a folder; give the built site's output folder`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** The lastmod of pages seen for the first time, by `--initial-lastmod`; `sources`: the source files of pages that have one. */
async function initialLastmods(pages: readonly SitePage[], sources: ReadonlyMap<string, string>, run: BuildContext): Promise<{ dates: Map<string, string>; note?: string }> {
  const { siteDir, nowText, dated } = run;
  const mode = run.options.initialLastmod ?? 'git';
  const dates = new Map<string, string>();
  if (pages.length === 0 || mode === 'none') return { dates };
  if (mode !== 'git') {
    for (const page of pages) dates.set(page.relPath, mode === 'now' ? nowText : dated(page.mtimeMs));
    return { dates };
  }
  // git reports real paths: the folder is resolved once rather than every page.
  const realSite = await realpath(siteDir);
  const sourceOf = new Map(pages.map((page) => [page.relPath, sources.get(page.relPath) ?? join(realSite, page.relPath)]));
  const times = await sourceCommitTimes(sourceOf, sources.size > 0 ? [siteDir, firstSourceDir(sources)] : [siteDir]);
  if (times === undefined) return { dates, note: `${siteDir} is not in a git repository: pages seen for the first time have no lastmod; ${WAYS_OUT}` };
  for (const [relPath, time] of times) dates.set(relPath, dated(time));
  const missing = pages.length - dates.size;
  return missing === 0
    ? { dates }
    : { dates, note: `${plural(missing, 'page')} seen for the first time ${missing === 1 ? 'has' : 'have'} no git history (untracked, never committed, or older than a shallow clone's history; a generator's output folder is usually git-ignored): no lastmod; ${WAYS_OUT}` };
}

const WAYS_OUT = 'map the pages to their sources in the repository with --source-map FILE, or date them with --initial-lastmod mtime or now';

/** The source file of each page that has one: by the source map, else the first rule whose file exists. */
async function pageSources(relPaths: readonly string[], options: BuildSiteOptions): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const rules = options.sourceRules ?? [];
  if (options.sourceMap === undefined && rules.length === 0) return found;
  const root = rules.length === 0 ? '' : await realpath(resolve(options.sourceRoot ?? '.')).catch(() => resolve(options.sourceRoot ?? '.'));
  for (const relPath of relPaths) {
    const source = options.sourceMap?.get(relPath) ?? rules.flatMap((rule) => ruleSource(rule, relPath) ?? []).map((path) => resolve(root, path)).find(isFile);
    if (source !== undefined) found.set(relPath, source);
  }
  return found;
}

/** The folder of the source map's first source: where to look for the repository when the site folder is in none. */
function firstSourceDir(sourceMap: ReadonlyMap<string, string>): string {
  return dirname(sourceMap.values().next().value ?? '.');
}

/** Page → its source's last commit time, in the repository of the first of `dirs` in one (undefined: none is). */
async function sourceCommitTimes(sources: ReadonlyMap<string, string>, dirs: readonly string[]): Promise<Map<string, number> | undefined> {
  let top: string | undefined;
  for (const dir of dirs) if ((top ??= await gitTopLevel(dir)) !== undefined) break;
  if (top === undefined) return undefined;
  const byPage = new Map<string, number>();
  const times = await gitLastCommitTimes(top, new Set(sources.values()));
  for (const [page, source] of sources) {
    const time = times.get(source);
    if (time !== undefined) byPage.set(page, time);
  }
  return byPage;
}

/**
 * A changed page's lastmod: its source's last commit when after the lastmod it had, else the build time
 * (the change came from a template, a partial, an uncommitted edit). Never later than the build.
 */
function changedLastmod(sourceTime: number | undefined, previous: string | undefined, { dated, nowText }: BuildContext): string {
  const before = previous === undefined ? Number.NEGATIVE_INFINITY : Date.parse(previous);
  return sourceTime !== undefined && sourceTime > before ? dated(sourceTime) : nowText;
}

/** Reads a source map: a JSON object `{ "page path in the folder": "source file", … }`, sources relative to the map file. */
export async function readSourceMap(path: string): Promise<Map<string, string>> {
  const data: unknown = await readFile(path, 'utf8').then((text) => parseJsonFile(path, text)).catch((error: unknown) => {
    throw new SitemapError('ERR_SITEMAP_INPUT', `cannot read the source map ${error instanceof SyntaxError ? error.message : `${path}: ${ioErrorReason(error)}`}`);
  });
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
