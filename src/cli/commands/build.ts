// `sitemapkit build`: a built site's folder → sitemaps with a truthful lastmod and stable files.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseSourceRule, type SourceRule } from '../../core/build/source-rules.js';
import { SitemapError } from '../../core/errors.js';
import { comparableUrl } from '../../core/url.js';
import { buildSite, readSourceMap, type BuildProgress, type BuildSiteResult, type ExcludedPage } from '../../node/build-site.js';
import { commandMessage, EXIT_OK, EXIT_PROBLEMS, printSummary, type CliIo } from '../io.js';
import { formatBytes, formatCount, formatDuration, plural, printable } from '../format.js';
import { UsageError, setOutputOptions, writeSet } from '../args.js';
import { commandLine, definedOnly, type ParsedArgs } from '../command.js';
import { BUILD } from '../declarations.js';
import { ProblemPrinter, type Problem } from '../problems.js';
import { Progress } from '../progress.js';
import { indexNowSettings, submitPending } from './indexnow.js';

export async function runBuild(argv: string[], io: CliIo): Promise<number> {
  const line = await commandLine(BUILD, argv, io, (args) => buildSettings(args, io));
  if ('exit' in line) return line.exit;
  const { args, checked: { settings, indexNow } } = line;

  const siteDir = resolve(io.cwd, args.positionals[0] as string);
  const quiet = args.flag('quiet');
  const json = args.choice('format') === 'json';
  const verbose = args.flag('verbose');
  let lastProgress: BuildProgress | undefined;
  const progress = Progress.onTerminal(io, !quiet && !json, () => (lastProgress !== undefined ? progressLine(lastProgress) : 'building…'));
  const result = await writeSet(io, 'build', progress, async (signal) => {
    const { sourceMap, sourceRules } = await sourceMapping(args.list('source-map'), io.cwd);
    return buildSite({
      siteDir,
      outDir: resolve(io.cwd, args.text('out') ?? siteDir),
      baseUrl: args.text('base-url') as string,
      ...(args.has('state') ? { statePath: resolve(io.cwd, args.text('state') as string) } : {}),
      cleanUrls: args.flag('clean-urls'),
      exclude: args.list('exclude'),
      images: args.flag('images'),
      ...(sourceMap !== undefined ? { sourceMap } : {}),
      ...(sourceRules.length > 0 ? { sourceRules, sourceRoot: io.cwd } : {}),
      ...definedOnly(settings),
      force: args.flag('force'),
      dryRun: args.flag('dry-run'),
      signal,
      ...progress.onProgress((p: BuildProgress) => (lastProgress = p)),
    });
  });
  if (typeof result === 'number') return result;
  const problems = printProblems(result, io, quiet, verbose);

  if (indexNow !== undefined && result.dryRun === true && !quiet) io.stderr.write('sitemapkit build: dry run: nothing submitted to IndexNow\n');
  // The key file goes where the pages are served, not into an --out folder below them.
  const announced = indexNow !== undefined && result.committed ? await submitPending(indexNow, { statePath: result.statePath, siteDir, io, quiet: quiet || json }) : undefined;
  const announceFailed = announced?.ok === false;

  printSummary(io, args, { ...result, ...(announced !== undefined ? { indexnow: announced.summary } : {}), ok: problems === 0 && !announceFailed }, () => humanSummary(result, verbose));
  return problems > 0 || announceFailed ? EXIT_PROBLEMS : EXIT_OK;
}

/** What the options of `build` make (a UsageError when they cannot): the site's settings, and IndexNow's when asked for. */
function buildSettings(args: ParsedArgs, io: CliIo) {
  const count = args.positionals.length;
  if (count !== 1) throw new UsageError(count === 0 ? "give the built site's folder: sitemapkit build DIR --base-url URL" : 'give one site folder');
  if (!args.has('base-url')) throw new UsageError('--base-url URL is required (where the site is served, e.g. https://www.example.com/)');
  // A repeatable option's values are the command's to check (command.ts): '' is no glob and no file.
  for (const [name, value] of [['exclude', 'GLOB'], ['source-map', 'FILE|RULE']]) if (args.list(name as string).some((v) => v.trim() === '')) throw new UsageError(`--${name} needs a value: ${value}`);
  const settings = {
    ...setOutputOptions(args),
    trailingSlash: args.choice<'always' | 'never' | 'preserve'>('trailing-slash'),
    initialLastmod: args.choice<'git' | 'mtime' | 'now' | 'none'>('initial-lastmod'),
    threads: args.number('threads'),
    now: buildTime(io.env.SOURCE_DATE_EPOCH),
  };
  if (args.has('indexnow-key')) return { settings, indexNow: indexNowSettings(args, args.text('indexnow-key')) };
  if (args.has('key-location') || args.has('endpoint') || args.flag('write-key-file') || args.has('user-agent') || args.has('retries')) {
    throw new UsageError('--key-location, --endpoint, --write-key-file, --retries and --user-agent go with --indexnow-key');
  }
  return { settings, indexNow: undefined };
}

/** Prints the problems of the pages by page, in path order, and what left the set empty; the errors among them (warnings do not change the exit status). */
function printProblems(result: BuildSiteResult, io: CliIo, quiet: boolean, verbose: boolean): number {
  const printer = ProblemPrinter.for(io.stderr, { capPer: 'run', capped: !verbose });
  const pageProblems: Array<Problem & { file: string }> = [
    ...result.excluded.filter((page) => page.reason === 'unreadable' || page.reason === 'duplicate-url').map((page) => ({ file: page.relPath, severity: 'error' as const, message: `${page.reason === 'duplicate-url' ? 'left out: ' : ''}${exclusionText(page, result.baseUrl)}` })),
    ...result.problems.map((problem) => ({ file: problem.relPath, severity: problem.severity, code: problem.code, message: problem.message })),
  ].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  let problems = pageProblems.filter((problem) => problem.severity === 'error').length;
  for (const problem of pageProblems) if (!quiet || problem.severity === 'error') printer.print(problem);
  printer.finish('-v or --json lists them');
  if (result.initialLastmodNote !== undefined && !quiet) io.stderr.write(commandMessage('build', `note: ${result.initialLastmodNote}`));
  if (result.locationNote !== undefined && !quiet) io.stderr.write(commandMessage('build', `warning: ${result.locationNote}`));
  if (result.listed === 0) {
    // The previous set is left whole, and the likeliest cause said.
    problems++;
    io.stderr.write(commandMessage('build', `${nothingListedText(result)}`));
  }
  return problems;
}

/** `--source-map` values: JSON files (merged, the later winning), or rules `PAGES=SOURCES` with one `*` each. */
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

const NO_PAGE = 'its canonical is no page of the site';

/** Why `page` was left out; a canonical under the base URL that no file answers (`/a.html?x=1`) is no page of the site, not outside it. */
function reasonText(page: ExcludedPage, baseUrl: string): string {
  return page.reason === 'canonical-outside' && comparableUrl(page.detail ?? '').startsWith(comparableUrl(baseUrl)) ? NO_PAGE : REASONS[page.reason];
}

function exclusionText(page: ExcludedPage, baseUrl: string): string {
  if (page.reason === 'duplicate-url') return `${page.url ?? ''} is also the URL of ${page.detail ?? ''}; one file per URL`;
  if (page.reason === 'unreadable') return page.detail ?? 'unreadable';
  return reasonText(page, baseUrl) + (page.detail !== undefined ? ` (${page.detail})` : '');
}

/** "1,204 of 1,210 pages excluded: canonical outside https://www.example.com/ — the pages use https://example.org/; check --base-url" */
function dominantText(r: BuildSiteResult): string | undefined {
  const d = r.dominantExclusion;
  if (d === undefined) return undefined;
  const noPage = d.reason === 'canonical-outside' && d.canonicalOrigin === undefined && r.excluded.filter((page) => reasonText(page, r.baseUrl) === NO_PAGE).length * 2 > d.count;
  const why = noPage ? NO_PAGE : d.reason === 'canonical-outside' ? `canonical outside ${r.baseUrl}` : REASONS[d.reason];
  const hint = d.canonicalOrigin !== undefined ? ` — the pages use ${d.canonicalOrigin}; check --base-url` : '';
  return `${formatCount(d.count)} of ${plural(d.pages, 'page')} excluded: ${why}${hint}`;
}

function nothingListedText(r: BuildSiteResult): string {
  const kept = r.indexFile.status === 'kept' ? `the previous sitemaps in ${r.outDir} were left as they were` : 'no sitemap was written';
  if (r.pages === 0) return `no page to list: the site folder has no .html page; ${kept}`;
  return `no URL to list of ${plural(r.pages, 'page')}: ${dominantText(r) ?? 'every page was left out (see the summary, or -v)'}; ${kept}`;
}

function humanSummary(r: BuildSiteResult, verbose: boolean): string {
  const children = r.files.filter((f) => f.status !== 'removed');
  const written = children.filter((f) => f.status === 'written');
  const dominant = dominantText(r);
  // The pages left out, counted by reason; with `verbose`, each one.
  const counts = new Map<string, number>();
  for (const reason of r.excluded.map((page) => reasonText(page, r.baseUrl))) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const leftOut = counts.size === 0 ? [] : [`  left out: ${[...counts].map(([reason, n]) => `${formatCount(n)} ${reason}`).join(', ')}`];
  const eachLeftOut = verbose ? r.excluded.map((page) => `    left out ${page.relPath}: ${exclusionText(page, r.baseUrl)}`) : [];
  if (r.listed === 0) {
    const head = `Listed 0 URLs of ${plural(r.pages, 'page')}: nothing written or removed in ${r.outDir} (${formatDuration(r.durationMs)}).`;
    return [head, ...(dominant !== undefined ? [`  ${dominant}`] : []), ...leftOut, ...eachLeftOut].map(printable).join('\n') + '\n';
  }
  const lines = [
    `${r.dryRun === true ? 'Dry run, nothing written: would list' : 'Listed'} ${plural(r.listed, 'URL')} of ${plural(r.pages, 'page')} in ${plural(children.length, 'sitemap')} and the index ${r.indexFile.name} (${r.outDir}) in ${formatDuration(r.durationMs)}.`,
  ];
  if (dominant !== undefined) lines.push(`  note: ${dominant}`);
  lines.push(`  pages: ${formatCount(r.newPages)} new, ${formatCount(r.changedPages)} changed, ${formatCount(r.removedPages)} gone since the last build`, ...leftOut);
  const warnings = new Map<string, number>();
  for (const problem of r.problems) if (problem.severity === 'warning') warnings.set(problem.code, (warnings.get(problem.code) ?? 0) + 1);
  if (warnings.size > 0) lines.push(`  warnings: ${[...warnings].map(([code, n]) => `${formatCount(n)} ${code}`).join(', ')} (on standard error; docs/rules.md says what to do)`);
  const changed = [...written.map((f) => f.name), ...r.files.filter((f) => f.status === 'removed').map((f) => `${f.name} (removed)`)];
  if (r.indexFile.status === 'written') changed.push(r.indexFile.name);
  lines.push(changed.length === 0 ? '  files: none changed' : `  files ${r.dryRun === true ? 'that would change' : 'changed'}: ${changed.join(', ')}`);
  if (written.length < children.length) lines.push(`  files unchanged: ${formatCount(children.length - written.length)}`);
  if (verbose) for (const f of children) lines.push(`    ${f.name}: ${plural(f.urls, 'URL')}, ${formatBytes(f.bytes)}, lastmod ${f.lastmod ?? '-'} (${f.status})`);
  lines.push(...eachLeftOut, `  entry file: ${r.indexUrl} (for robots.txt: sitemapkit robots --sitemap ${r.indexUrl})`);
  // Page names come from the folder, whatever bytes they hold: one line each, no escape to the terminal.
  return lines.map(printable).join('\n') + '\n';
}
