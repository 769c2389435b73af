// `sitemapkit robots`: announce sitemaps in a robots.txt. The edit itself is core/robots/edit.ts.

import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../node/staged-output.js';
import { dirname, resolve } from 'node:path';
import { SitemapError, quoteValue } from '../../core/errors.js';
import { setSitemapLines, sitemapLineUrl, type SitemapLinesEdit, type TouchedLine } from '../../core/robots/edit.js';
import { MAX_ROBOTS_BYTES } from '../../core/robots/robots-txt.js';
import { ioErrorReason } from '../../node/io-errors.js';
import { asUsage, UsageError } from '../args.js';
import { commandLine } from '../command.js';
import { ROBOTS } from '../declarations.js';
import { formatBytes, formatCount } from '../format.js';
import { EXIT_OK, EXIT_PROBLEMS, fatal, type CliIo } from '../io.js';
import { ProblemPrinter } from '../problems.js';

export async function runRobots(argv: string[], io: CliIo): Promise<number> {
  const line = await commandLine(ROBOTS, argv, io, (args) => {
    const sitemaps = args.list('sitemap');
    if (sitemaps.length === 0) throw new UsageError('--sitemap URL is required (the full URL of a sitemap, e.g. https://www.example.com/sitemap.xml)');
    // Checked before the file is touched, so that a typo changes nothing.
    for (const url of sitemaps) asUsage(() => sitemapLineUrl(url), '--sitemap ');
    const robotsUrlText = args.text('robots-url');
    return asUsage(() => (robotsUrlText !== undefined ? robotsUrlOption(robotsUrlText) : sharedRobotsUrl(sitemaps)));
  });
  if ('exit' in line) return line.exit;
  const { args, checked: robotsUrl } = line;
  const sitemaps = args.list('sitemap');
  const dryRun = args.flag('dry-run');
  const json = args.choice('format') === 'json';

  const name = args.text('file') ?? 'robots.txt';
  const path = resolve(io.cwd, name);

  let bytes: Buffer | undefined;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') return fatal(io, 'robots', `cannot read ${name}: ${ioErrorReason(error)}`);
  }
  if (bytes !== undefined && !isUtf8(bytes)) {
    return fatal(io, 'robots', `cannot edit ${name}: it is not UTF-8 text (RFC 9309 §2.3 asks for UTF-8); nothing was changed`);
  }
  // Buffer's decoding keeps a BOM in the text, so it is written back.
  const original = bytes?.toString('utf8') ?? '';

  const edit = setSitemapLines(original, sitemaps, { replace: args.flag('replace'), ...(robotsUrl !== undefined ? { robotsUrl } : {}) });
  const created = bytes === undefined;
  const changed = edit.changed || created;
  const write = changed && !args.flag('check') && !dryRun;
  if (write) {
    try {
      await writeFileAtomic(path, edit.text, { makeFolder: false });
    } catch (error) {
      const cause = (error as Error).cause ?? error;
      const reason = created && (cause as { code?: string }).code === 'ENOENT' ? `the directory ${dirname(name)} does not exist` : ioErrorReason(cause);
      return fatal(io, 'robots', `cannot ${created ? 'create' : 'write'} ${name}: ${reason}`);
    }
  }

  const quiet = args.flag('quiet');
  const size = Buffer.byteLength(edit.text);
  // RFC 9309 §2.5: crawlers may stop reading at 500 KiB.
  const tooLarge =
    changed && size > MAX_ROBOTS_BYTES
      ? { code: 'robots/too-large', message: `the file is ${formatBytes(size)}; crawlers may read only the first ${formatBytes(MAX_ROBOTS_BYTES)} (RFC 9309 §2.5)` }
      : undefined;
  if (json) {
    const { text, changed: _changed, problems, ...lists } = edit;
    const all = tooLarge !== undefined ? [...problems, tooLarge] : problems;
    io.stdout.write(`${JSON.stringify({ file: name, created, changed, written: write, ...(dryRun ? { dryRun, text } : {}), ...lists, problems: all }, null, 2)}\n`);
  } else {
    if (dryRun) io.stdout.write(edit.text);
    if (!quiet) (dryRun ? io.stderr : io.stdout).write(`${summaryLine(name, edit, created, write || !changed)}\n`);
  }
  const printer = ProblemPrinter.for(io.stderr, { file: name });
  if (!quiet) {
    // Lines crawlers skip are said, not fixed (they may be meant for something). FILE:LINE counts in
    // the file on disk now: the old one with --check and --dry-run.
    const onDisk = write || !changed ? 'new' : 'old';
    const lines = edit.problems.map((problem) => ({ problem, line: onDisk === 'new' ? problem.newLine : problem.oldLine }));
    // In line order; a line the edit added (no line in the old file) after the others.
    lines.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || a.problem.newLine - b.problem.newLine);
    for (const { problem, line } of lines) {
      const { code, message } = problem;
      printer.print(line !== undefined ? { severity: 'warning', code, message, line } : { severity: 'warning', code, message, hint: `line ${problem.newLine} of the new file` });
    }
  }
  if (!quiet && tooLarge !== undefined) printer.print({ severity: 'warning', ...tooLarge });
  printer.finish();
  return args.flag('check') && changed ? EXIT_PROBLEMS : EXIT_OK;
}

function robotsUrlOption(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new SitemapError('ERR_SITEMAP_OPTION', `--robots-url ${quoteValue(value)} is not an absolute http(s) URL, such as https://example.com/robots.txt`);
  }
  return url.href;
}

/** The robots.txt of the sitemaps' one site (RFC 9309 §2.3); undefined when they span several. */
function sharedRobotsUrl(sitemaps: readonly string[]): string | undefined {
  const origins = new Set(sitemaps.map((url) => new URL(sitemapLineUrl(url)).origin));
  return origins.size === 1 ? `${[...origins][0] as string}/robots.txt` : undefined;
}

/** `robots.txt: added Sitemap: https://…; 1 already present`, in the conditional when nothing is written. */
function summaryLine(name: string, edit: SitemapLinesEdit, created: boolean, done: boolean): string {
  const verb = (past: string, future: string): string => (done ? past : `would ${future}`);
  const parts: string[] = [];
  /** Lines of the file as it was; a rewritten line that moved (a line above it removed) says where it is now. */
  const said = (change: TouchedLine['change'], what: (lines: string) => string): void => {
    const touched = edit.touched.filter((t) => t.change === change);
    // At most 10 numbers: a file of 40,000 repeats would make a line of 270 KB (--format json lists them all).
    const lines = touched.slice(0, 10).map((t) => (t.newLine !== undefined && t.newLine !== t.oldLine ? `${t.oldLine} (now ${t.newLine})` : String(t.oldLine)));
    if (lines.length > 0) parts.push(what(`${lines.length === 1 ? 'line' : 'lines'} ${lines.join(', ')}${touched.length > 10 ? ` and ${formatCount(touched.length - 10)} more` : ''}`));
  };
  if (created) parts.push(verb('created', 'create'));
  const { added, updated } = edit;
  if (added.length > 0) parts.push(`${verb('added', 'add')} ${added.length <= 3 ? added.map((u) => `Sitemap: ${u}`).join(', ') : `${added.length} Sitemap lines`}`);
  said('rewritten', (lines) => `${verb('rewrote', 'rewrite')} ${lines} to ${updated.length === 1 ? `Sitemap: ${updated[0]}` : 'the normalised URLs'}`);
  said('repeat', (lines) => `${verb('removed', 'remove')} repeated ${lines}`);
  said('unrequested', (lines) => `${verb('removed', 'remove')} ${lines} (not given with --sitemap)`);
  if (parts.length === 0) parts.push('up to date');
  if (edit.present.length > 0) parts.push(`${edit.present.length} already present`);
  return `${name}: ${parts.join('; ')}`;
}
