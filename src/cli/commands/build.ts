// `sitemapkit build`: a built site's folder → sitemaps with a truthful lastmod and stable files.

import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseSourceRule, type SourceRule } from '../../core/build/source-rules.js';
import { SitemapError } from '../../core/errors.js';
import { buildSite, readSourceMap, DEFAULT_STATE_PATH, type BuildProgress, type BuildSiteResult, type ExcludedPage } from '../../node/build-site.js';
import { EXIT_FATAL, EXIT_OK, EXIT_PROBLEMS, type CliIo } from '../io.js';
import { formatBytes, formatCount, formatDuration, plural } from '../format.js';
import { UsageError, choice, positiveInteger, usageFailure } from '../args.js';
import { ProblemPrinter, type Problem } from '../problems.js';
import { Progress } from '../progress.js';
import { INDEXNOW_OPTIONS, indexNowSettings, submitPending, type IndexNowSettings } from './indexnow.js';

export const BUILD_HELP = `Usage: sitemapkit build DIR --base-url URL [options]

Write the sitemaps of a built site (the output folder of a static site
generator or framework: Hugo, Jekyll, Eleventy, Astro, Next export…). Every
.html page becomes a URL, except pages that should not be listed: noindex
(<meta name="robots">, googlebot, X-Robots-Tag), redirect stubs (<meta
http-equiv="refresh">), pages whose <link rel="canonical"> names another URL
(that one is listed instead when it is a page of the site), 404.html, 500.html
and --exclude globs. hreflang alternates come from <link rel="alternate"
hreflang>: one naming a page of DIR is written as that page's listed URL, or
dropped with a warning when the page is left out or missing.

lastmod tells the truth: a state file remembers a hash of each page's content
(without build noise: whitespace, comments, inline scripts and styles, build
ids, cache-busting query strings, hashed asset names), and a page's lastmod
changes only when that hash does. Children are split by section (the first
path segment; hash buckets inside a section too large for one file), so
adding a page rewrites only the file that holds it: the others keep their
bytes and their lastmod in the index. The run reports which files changed.

URLs:
  --base-url URL            where DIR is served, e.g. https://www.example.com/ (required)
  --trailing-slash MODE     preserve: a/index.html → a/, a/b.html → a/b.html (default)
                            always: every URL without a file extension ends in /
                            never: a/index.html → a (the root stays /)
  --clean-urls              drop .html: a/b.html → a/b
                            (a page whose canonical is another form of its URL
                            is listed as these say, with a warning)
  --exclude GLOB            leave out pages whose path in DIR matches (repeatable),
                            e.g. --exclude 'drafts/**' --exclude '**/print.html'
  --images                  add <image:image> for each <img src> of the page's main
                            content (<main>, else <article>, else the body without
                            header, nav, footer and aside)

lastmod:
  --state FILE              the state file (default OUT/${DEFAULT_STATE_PATH.replace(/\\/g, '/')})
  --initial-lastmod MODE    for a page seen for the first time:
                            git: the last commit of its source file (default;
                                 none when DIR is not in a git repository)
                            mtime: the file's modification time
                            now: this build's time;  none: no lastmod
  --source-map FILE|RULE    where pages come from: JSON {"posts/a/index.html":
                            "content/posts/a.md", …} (relative to FILE), or a rule
                            'posts/*/index.html=content/posts/*.md' (repeatable; the
                            first whose source exists); a new or changed page takes
                            its source's last commit (a change with no newer commit:
                            the build time)
  The build time is now, or SOURCE_DATE_EPOCH (seconds) when set.

Output:
  --out DIR                 where the sitemaps go (default: DIR, next to the pages);
                            a folder inside DIR is served below --base-url, and the
                            protocol then limits them to URLs under that folder
  --force                   replace OUT/NAME.xml even when this build did not write
                            it (another generator's sitemap: exit 2 without it)
  --name NAME               index NAME.xml, children NAME-SECTION.TOKEN.xml.gz
                            (default: sitemap)
  --profile NAME            limits: current (default) or legacy
  --max-urls N              fewer URLs per file than the profile allows
  --max-bytes N             fewer uncompressed bytes per file than the profile allows
  --no-gzip                 plain .xml children (default: .xml.gz)
  --gzip-level N            1 to 9 (default 6)
  --threads N               threads scanning pages (default: one per core on sites of
                            2,000 pages or more; 0: none)
  --json                    print the result as JSON on standard output
  -v, --verbose             list every page left out and why
  -q, --quiet               no progress and no summary; problems still go to stderr

IndexNow, right after the build (see "sitemapkit indexnow --help"):
  --indexnow-key KEY        submit the URLs added, updated or removed since the
                            last accepted submission
  --key-location URL, --endpoint URL, --write-key-file, --dry-run, --user-agent UA:
                            as for indexnow

The new set replaces the old one at one instant: changed children are written
under new names (NAME-SECTION.TOKEN.xml.gz, TOKEN a hash of the content) beside
the old ones, then the index is renamed over the old index, then the files it
no longer names are removed. A build that lists no URL (every page left out,
often a wrong --base-url) writes and removes nothing.

Exit status: 0 built (pages left out on purpose and warnings are not
problems), 1 some pages could not be read or listed, two files share a URL, no
URL at all could be listed (the previous sitemaps are kept as they were), or
an IndexNow submission was refused, 2 usage or fatal error, or OUT/NAME.xml is
a sitemap this build did not write (nothing written; --force).

Examples:
  sitemapkit build public --base-url https://www.example.com/
  sitemapkit build _site --base-url https://example.com/ --clean-urls --exclude 'drafts/**'
  sitemapkit build dist --base-url https://example.com/ --indexnow-key 5f2b8c1d9e7a4b3c
`;

const OPTIONS = {
  'base-url': { type: 'string' },
  out: { type: 'string' },
  state: { type: 'string' },
  'trailing-slash': { type: 'string' },
  'clean-urls': { type: 'boolean' },
  exclude: { type: 'string', multiple: true },
  images: { type: 'boolean' },
  'initial-lastmod': { type: 'string' },
  'source-map': { type: 'string', multiple: true },
  name: { type: 'string' },
  profile: { type: 'string' },
  'max-urls': { type: 'string' },
  'max-bytes': { type: 'string' },
  'no-gzip': { type: 'boolean' },
  'gzip-level': { type: 'string' },
  threads: { type: 'string' },
  force: { type: 'boolean' },
  'indexnow-key': { type: 'string' },
  ...INDEXNOW_OPTIONS,
  json: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Warnings of one code printed before the rest are counted. */
export async function runBuild(argv: string[], io: CliIo): Promise<number> {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (error) {
    return usageFailure(io, 'build', (error as Error).message);
  }
  if (values.help === true) {
    io.stdout.write(BUILD_HELP);
    return EXIT_OK;
  }
  let settings;
  let indexNow: IndexNowSettings | undefined;
  try {
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? "give the built site's folder: sitemapkit build DIR --base-url URL" : 'give one site folder');
    if (values['base-url'] === undefined) throw new UsageError('--base-url URL is required (where the site is served, e.g. https://www.example.com/)');
    if (values.name !== undefined && !NAME.test(values.name)) throw new UsageError(`--name ${JSON.stringify(values.name)}: use letters, digits, '.', '_' and '-'`);
    const gzipLevel = positiveInteger(values['gzip-level'], '--gzip-level');
    if (gzipLevel !== undefined && gzipLevel > 9) throw new UsageError('--gzip-level must be 1 to 9');
    if (gzipLevel !== undefined && values['no-gzip'] === true) throw new UsageError('--gzip-level and --no-gzip contradict each other');
    settings = {
      trailingSlash: choice(values['trailing-slash'], '--trailing-slash', ['always', 'never', 'preserve'] as const),
      initialLastmod: choice(values['initial-lastmod'], '--initial-lastmod', ['git', 'mtime', 'now', 'none'] as const),
      profile: choice(values.profile, '--profile', ['current', 'legacy'] as const),
      maxUrls: positiveInteger(values['max-urls'], '--max-urls'),
      maxBytes: positiveInteger(values['max-bytes'], '--max-bytes'),
      gzipLevel,
      threads: values.threads === undefined ? undefined : wholeNumber(values.threads, '--threads', 64),
      now: buildTime(io.env.SOURCE_DATE_EPOCH),
    };
    if (values['indexnow-key'] !== undefined) indexNow = indexNowSettings({ ...values, key: values['indexnow-key'] });
    else if (values['key-location'] !== undefined || values.endpoint !== undefined || values['write-key-file'] === true || values['dry-run'] === true || values['user-agent'] !== undefined) {
      throw new UsageError('--key-location, --endpoint, --write-key-file, --dry-run and --user-agent go with --indexnow-key');
    }
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, 'build', error.message);
    throw error;
  }

  const siteDir = resolve(io.cwd, positionals[0] as string);
  const outDir = values.out !== undefined ? resolve(io.cwd, values.out) : siteDir;
  const quiet = values.quiet === true;
  const json = values.json === true;
  const verbose = values.verbose === true;
  let lastProgress: BuildProgress | undefined;
  const progress = Progress.onTerminal(io.stderr, !quiet && !json, () => (lastProgress !== undefined ? progressLine(lastProgress) : 'building…'));
  let result: BuildSiteResult;
  try {
    const { sourceMap, sourceRules } = await sourceMapping(values['source-map'] ?? [], io.cwd);
    result = await buildSite({
      siteDir,
      outDir,
      baseUrl: values['base-url'] as string,
      ...(values.state !== undefined ? { statePath: resolve(io.cwd, values.state) } : {}),
      ...(settings.trailingSlash !== undefined ? { trailingSlash: settings.trailingSlash } : {}),
      cleanUrls: values['clean-urls'] === true,
      exclude: values.exclude ?? [],
      images: values.images === true,
      ...(settings.initialLastmod !== undefined ? { initialLastmod: settings.initialLastmod } : {}),
      ...(sourceMap !== undefined ? { sourceMap } : {}),
      ...(sourceRules.length > 0 ? { sourceRules, sourceRoot: io.cwd } : {}),
      ...(values.name !== undefined ? { name: values.name } : {}),
      gzip: values['no-gzip'] !== true,
      ...(settings.gzipLevel !== undefined ? { gzipLevel: settings.gzipLevel } : {}),
      ...(settings.profile !== undefined ? { profile: settings.profile } : {}),
      ...(settings.maxUrls !== undefined ? { maxUrls: settings.maxUrls } : {}),
      ...(settings.maxBytes !== undefined ? { maxBytes: settings.maxBytes } : {}),
      ...(settings.now !== undefined ? { now: settings.now } : {}),
      ...(settings.threads !== undefined ? { threads: settings.threads } : {}),
      force: values.force === true,
      ...(progress.active
        ? {
            onProgress: (p: BuildProgress) => {
              lastProgress = p;
              progress.tick();
            },
          }
        : {}),
    });
  } catch (error) {
    progress.clear();
    if (error instanceof SitemapError) {
      io.stderr.write(`sitemapkit: ${error.message}\n`);
      return EXIT_FATAL;
    }
    throw error;
  }
  progress.clear();

  let problems = 0;
  // Problems by page, pages in path order (a page has no line: its path is its place). Warnings (a
  // listed URL that contradicts its page's canonical, an alternate dropped) do not change the exit
  // status. A terminal gets the first few of each code over the whole site (-v: every one), a pipe
  // every one.
  const printer = ProblemPrinter.for(io.stderr, { capPer: 'run', ...(verbose ? { capped: false } : {}) });
  const pageProblems: Array<Problem & { file: string }> = [];
  for (const page of result.excluded) {
    if (page.reason === 'unreadable' || page.reason === 'duplicate-url') pageProblems.push({ file: page.relPath, severity: 'error', message: exclusionText(page) });
  }
  for (const problem of result.problems) pageProblems.push({ file: problem.relPath, severity: problem.severity, code: problem.code, message: problem.message });
  pageProblems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const problem of pageProblems) {
    if (problem.severity === 'error') problems++;
    printer.print(problem);
  }
  printer.finish('-v or --json lists them');
  if (result.initialLastmodNote !== undefined && !quiet) io.stderr.write(`sitemapkit: note: ${result.initialLastmodNote}\n`);
  if (result.locationNote !== undefined) io.stderr.write(`sitemapkit: warning: ${result.locationNote}\n`);
  if (!result.committed) {
    // Listing nothing from a site is a problem: the previous set is left whole, and the likeliest cause said.
    problems++;
    io.stderr.write(`sitemapkit: ${nothingListedText(result)}\n`);
  }

  let announceFailed = false;
  let announcement: unknown;
  // Nothing to announce from a build that wrote nothing.
  if (indexNow !== undefined && result.committed) {
    const outcome = await submitPending(indexNow, { statePath: result.statePath, outDir, io, quiet: quiet || json });
    announceFailed = !outcome.ok;
    announcement = outcome.summary;
  }

  if (json) {
    io.stdout.write(JSON.stringify({ ...result, ...(announcement !== undefined ? { indexnow: announcement } : {}), ok: problems === 0 && !announceFailed }, null, 2) + '\n');
  } else if (!quiet) {
    io.stdout.write(humanSummary(result, verbose));
  }
  return problems > 0 || announceFailed ? EXIT_PROBLEMS : EXIT_OK;
}

/**
 * `--source-map` values: a JSON file (`{"page": "source", …}`), or a rule `PAGES=SOURCES` with one `*`
 * on each side (sources relative to the current directory). JSON files are merged, the later winning.
 */
async function sourceMapping(values: readonly string[], cwd: string): Promise<{ sourceMap?: Map<string, string>; sourceRules: SourceRule[] }> {
  let sourceMap: Map<string, string> | undefined;
  const sourceRules: SourceRule[] = [];
  for (const value of values) {
    if (value.includes('=') && !existsSync(resolve(cwd, value))) {
      const rule = parseSourceRule(value);
      if ('problem' in rule) throw new SitemapError('ERR_SITEMAP_OPTION', `--source-map ${JSON.stringify(value)}: ${rule.problem}`);
      sourceRules.push(rule);
      continue;
    }
    const map = await readSourceMap(resolve(cwd, value));
    sourceMap = sourceMap === undefined ? map : new Map([...sourceMap, ...map]);
  }
  return { ...(sourceMap !== undefined ? { sourceMap } : {}), sourceRules };
}

function wholeNumber(value: string, flag: string, max: number): number {
  if (!/^\d{1,3}$/.test(value) || Number(value) > max) throw new UsageError(`${flag} must be a whole number from 0 to ${max}, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** The build time from SOURCE_DATE_EPOCH (reproducible builds), else undefined (now). */
function buildTime(epoch: string | undefined): Date | undefined {
  if (epoch === undefined || epoch === '') return undefined;
  if (!/^\d{1,12}$/.test(epoch)) throw new UsageError(`SOURCE_DATE_EPOCH must be whole seconds since 1970, got ${JSON.stringify(epoch)}`);
  return new Date(Number(epoch) * 1000);
}

function progressLine(p: BuildProgress): string {
  if (p.phase === 'walk') return 'building: finding pages…';
  if (p.phase === 'scan') return `building: scanned ${formatCount(p.done)} of ${formatCount(p.total)} pages`;
  return 'building: writing sitemaps…';
}

const REASONS: Record<ExcludedPage['reason'], string> = {
  excluded: 'matches --exclude',
  'error-page': 'an error page',
  noindex: 'noindex',
  redirect: 'a redirect stub',
  'canonical-elsewhere': 'its canonical is another page of the site',
  'canonical-outside': 'its canonical is outside the site',
  'duplicate-url': 'served at the same URL as another file',
  unreadable: 'unreadable',
};

function exclusionText(page: ExcludedPage): string {
  if (page.reason === 'duplicate-url') return `left out: ${page.url ?? ''} is also the URL of ${page.detail ?? ''}; one file per URL`;
  if (page.reason === 'unreadable') return page.detail ?? 'unreadable';
  return REASONS[page.reason] + (page.detail !== undefined ? ` (${page.detail})` : '');
}

/** "1,204 of 1,210 pages excluded: canonical outside https://www.example.com/ — the pages use https://example.org/; check --base-url" */
function dominantText(r: BuildSiteResult): string | undefined {
  const d = r.dominantExclusion;
  if (d === undefined) return undefined;
  const why = d.reason === 'canonical-outside' ? `canonical outside ${r.baseUrl}` : REASONS[d.reason];
  const hint = d.canonicalOrigin !== undefined ? ` — the pages use ${d.canonicalOrigin}; check --base-url` : '';
  return `${formatCount(d.count)} of ${plural(d.pages, 'page')} excluded: ${why}${hint}`;
}

function nothingListedText(r: BuildSiteResult): string {
  const kept = r.indexFile.status === 'kept' ? `the previous sitemaps in ${r.outDir} were left as they were` : 'no sitemap was written';
  if (r.pages === 0) return `no page to list: the site folder has no .html page; ${kept}`;
  return `no URL to list of ${plural(r.pages, 'page')}: ${dominantText(r) ?? 'every page was left out (see the summary, or -v)'}; ${kept}`;
}

function humanSummary(r: BuildSiteResult, verbose: boolean): string {
  const lines: string[] = [];
  const children = r.files.filter((f) => f.status !== 'removed');
  const written = children.filter((f) => f.status === 'written');
  const removed = r.files.filter((f) => f.status === 'removed');
  const dominant = dominantText(r);
  if (!r.committed) {
    lines.push(`Listed 0 URLs of ${plural(r.pages, 'page')}: nothing written or removed in ${r.outDir} (${formatDuration(r.durationMs)}).`);
    if (dominant !== undefined) lines.push(`  ${dominant}`);
    lines.push(...leftOutLines(r, verbose));
    return lines.join('\n') + '\n';
  }
  lines.push(
    `Listed ${plural(r.listed, 'URL')} of ${plural(r.pages, 'page')} in ${plural(children.length, 'sitemap')} and the index ${r.indexFile.name} (${r.outDir}) in ${formatDuration(r.durationMs)}.`,
  );
  if (dominant !== undefined) lines.push(`  note: ${dominant}`);
  lines.push(`  pages: ${formatCount(r.newPages)} new, ${formatCount(r.changedPages)} changed, ${formatCount(r.removedPages)} gone since the last build`);
  lines.push(...leftOutLines(r, false));
  const warnings = new Map<string, number>();
  for (const problem of r.problems) if (problem.severity === 'warning') warnings.set(problem.code, (warnings.get(problem.code) ?? 0) + 1);
  if (warnings.size > 0) lines.push(`  warnings: ${[...warnings].map(([code, n]) => `${formatCount(n)} ${code}`).join(', ')} (on standard error; docs/rules.md says what to do)`);
  const changed = [...written.map((f) => f.name), ...removed.map((f) => `${f.name} (removed)`)];
  if (r.indexFile.status === 'written') changed.push(r.indexFile.name);
  lines.push(changed.length === 0 ? '  files: none changed' : `  files changed: ${changed.join(', ')}`);
  if (written.length < children.length) lines.push(`  files unchanged: ${formatCount(children.length - written.length)}`);
  if (verbose) {
    for (const f of children) lines.push(`    ${f.name}: ${plural(f.urls, 'URL')}, ${formatBytes(f.bytes)}, lastmod ${f.lastmod ?? '-'} (${f.status})`);
    for (const page of r.excluded) lines.push(`    left out ${page.relPath}: ${exclusionText(page)}`);
  }
  if (r.listed > 0) lines.push(`  entry file: ${r.indexUrl} (for robots.txt: sitemapkit robots --sitemap ${r.indexUrl})`);
  return lines.join('\n') + '\n';
}

/** The pages left out, counted by reason; with `verbose`, each one. */
function leftOutLines(r: BuildSiteResult, verbose: boolean): string[] {
  const lines: string[] = [];
  if (r.excluded.length > 0) {
    const counts = new Map<string, number>();
    for (const page of r.excluded) counts.set(page.reason, (counts.get(page.reason) ?? 0) + 1);
    lines.push(`  left out: ${[...counts].map(([reason, n]) => `${formatCount(n)} ${REASONS[reason as ExcludedPage['reason']]}`).join(', ')}`);
  }
  if (verbose) for (const page of r.excluded) lines.push(`    left out ${page.relPath}: ${exclusionText(page)}`);
  return lines;
}
