// `sitemapkit report SOURCE...`: one self-contained HTML page that shows a set (node/report-set.ts).

import { spawn } from 'node:child_process';
import { delimiter } from 'node:path';
import { classifyInput } from '../../core/discover/inputs.js';
import { findSiteSitemaps } from '../../node/discover.js';
import { writeReport, type ReportSource, type WriteReportOptions, type WrittenReport } from '../../node/report-set.js';
import { commandMessage, EXIT_INTERRUPTED, EXIT_OK, EXIT_PROBLEMS, type CliIo } from '../io.js';
import { formatBytes, plural, shownPath } from '../format.js';
import { UsageError } from '../args.js';
import { commandLine, definedOnly } from '../command.js';
import { REPORT } from '../declarations.js';
import { validationSettings } from '../validation-settings.js';
import { Progress } from '../progress.js';
import { version } from '../version.js';
import { httpClientOptions, inputFailure, LazyHttpClient, sitemapSource } from '../fetch-input.js';

export async function runReport(argv: string[], io: CliIo): Promise<number> {
  // Ctrl-C also ends a request in flight: a stalled body would otherwise hold it until --timeout.
  const stop = new AbortController();
  const line = await commandLine(REPORT, argv, io, async (args) => {
    if (args.positionals.length === 0) throw new UsageError('no source: give a sitemap file, a set (its index or directory) or a URL');
    if (args.positionals.includes('-') || args.text('compare') === '-') throw new UsageError('standard input (-) cannot be reported on: save it to a file');
    if (args.text('compare') !== undefined && args.positionals.length > 1) throw new UsageError('--compare compares one source with its previous version: give one SOURCE');
    return { settings: validationSettings(args, io.cwd), clientOptions: { ...(await httpClientOptions(args)), signal: stop.signal } };
  });
  if ('exit' in line) return line.exit;
  const { args, checked: { settings, clientOptions } } = line;
  const client = new LazyHttpClient(clientOptions);
  const quiet = args.flag('quiet');
  const source = (text: string) => sitemapSource(text, io, 'report', quiet);
  const given = args.positionals.map(source);
  const compare = args.has('compare') ? source(args.text('compare') as string) : undefined;
  const sources: ReportSource[] = [];
  // A site or robots.txt URL stands for the sitemaps discover finds there.
  for (const each of given) {
    const site = 'url' in each && (classifyInput(each.url)?.kind ?? 'sitemap') !== 'sitemap';
    sources.push(site ? { site: each.url, found: await findSiteSitemaps(each.url, clientOptions) } : each);
  }
  let stage = 'reading';
  let urls = 0;
  let file = '';
  const progress = Progress.ofEntries(io, !quiet, () => `report: ${stage} ${file}: ${plural(urls, 'URL')}`, () => urls);
  const removeInterrupt = io.onInterrupt?.(() => stop.abort());
  const options: WriteReportOptions = {
    cwd: io.cwd,
    signal: stop.signal,
    client: () => client.get(),
    sitemapkitVersion: version(),
    onProgress: (at, count, name) => {
      // Ctrl-C: reading stops at the next chunk, and nothing is written.
      stop.signal.throwIfAborted();
      [stage, urls, file] = [at, count, name];
      progress.tick();
    },
    rules: settings.rules,
    ...definedOnly({ now: settings.now, limits: settings.limits, baseUrl: settings.location }),
    ...definedOnly({ out: args.text('out'), maxBytes: args.number('max-bytes'), maxEntries: args.number('max-entries') }),
  };
  if (compare !== undefined) options.compare = compare;
  let written: WrittenReport;
  try {
    written = await writeReport(sources, options);
  } catch (error) {
    if (stop.signal.aborted) return EXIT_INTERRUPTED;
    progress.clear();
    return inputFailure(io, 'report', error, [...given, compare].some((s) => s?.assumed === true), ['ERR_SITEMAP_INPUT', 'ERR_SITEMAP_WRITE']);
  } finally {
    removeInterrupt?.();
    progress.clear();
    await client.close();
  }
  const { summary } = written.model;
  if (!quiet) {
    io.stdout.write(`Wrote ${shownPath(written.path, io.cwd)}: ${plural(summary.files, 'file')}, ${plural(summary.urls, 'URL')}, ${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')} (${formatBytes(written.bytes)})\n`);
  }
  if (args.flag('open')) openInBrowser(written.path, io);
  return summary.errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

/**
 * Opens `path` with `$BROWSER` if set, read as xdg-open reads it (commands separated by ':', `%s` the
 * file; no shell runs), else the desktop's opener. Detached: the command does not wait for the browser.
 */
function openInBrowser(path: string, io: CliIo): void {
  const commands = browserCommands(io.env.BROWSER ?? '', path);
  if (commands.length === 0) commands.push(process.platform === 'darwin' ? ['open', path] : process.platform === 'win32' ? ['cmd', '/c', 'start', '', path] : ['xdg-open', path]);
  const start = (at: number): void => {
    const [command, ...args] = commands[at] as string[];
    const failed = (error: Error): void => {
      if (at + 1 < commands.length) start(at + 1);
      else io.stderr.write(commandMessage('report', `cannot open ${path} with ${command}: ${error.message}`));
    };
    try {
      const child = spawn(command as string, args, { detached: true, stdio: 'ignore', env: { ...process.env, ...io.env } });
      child.on('error', failed);
      child.unref();
    } catch (error) {
      failed(error as Error);
    }
  };
  start(0);
}

/** The command lines of `$BROWSER` (see openInBrowser) for `target`, as argument vectors. */
export function browserCommands(browser: string, target: string): string[][] {
  return browser.split(delimiter).flatMap((line) => {
    const words = [...line.matchAll(/(?:[^\s'"\\]+|'[^']*'|"(?:[^"\\]|\\.)*"|\\.)+/g)].map(([word]) =>
      word.replace(/'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)/g, (_, single?: string, double?: string, escaped?: string) => single ?? double?.replace(/\\([\\"$`])/g, '$1') ?? escaped ?? ''),
    );
    if (words.length === 0) return [];
    return [words.some((w) => w.includes('%s')) ? words.map((w) => w.replaceAll('%s', () => target)) : [...words, target]];
  });
}
