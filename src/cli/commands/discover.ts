// `sitemapkit discover`: a site's address → its robots.txt, indexes, sitemaps and every URL in them.

import type { WriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { TRUNCATED_CODE, type Diagnostic } from '../../core/diagnostics.js';
import type { UrlEntry } from '../../core/model.js';
import { notAUrl } from '../../core/url.js';
import { discoverSitemaps, type DiscoverEvent, type DiscoverOptions, type DiscoveryInput, type DiscoveryTotals, type DiscoveryTree, type RobotsNode, type SitemapNode } from '../../node/discover.js';
import { UsageError } from '../args.js';
import { commandLine, definedOnly, type ParsedArgs } from '../command.js';
import { DISCOVER } from '../declarations.js';
import { formatBytes, formatCount, formatDuration, plural, positionText, printable } from '../format.js';
import { commandMessage, EXIT_INTERRUPTED, EXIT_OK, EXIT_PROBLEMS, fatal, type CliIo } from '../io.js';
import { csvField, lastmodText, Output } from '../output.js';
import { ProblemPrinter } from '../problems.js';
import { Progress, ratePerSecond } from '../progress.js';
import { ioErrorReason } from '../../node/io-errors.js';
import { assumedHttpsUrl, httpClientOptions, httpsUnreachable, isHttpUrl, noHttpsHint, schemeNotice } from '../fetch-input.js';

type UrlEvent = Extract<DiscoverEvent, { type: 'url' }>;

type OutputFormat = 'tree' | 'jsonl' | 'urls' | 'csv';

// ---------------------------------------------------------------------------------------------------
// Rendering

function csvRow(entry: UrlEntry, sitemap: string): string {
  return `${[entry.loc, lastmodText(entry.lastmod), entry.changefreq ?? '', entry.priority === undefined ? '' : String(entry.priority), sitemap].map(csvField).join(',')}\n`;
}

const SHOWN_PER_DOCUMENT = 5;

function describe(node: SitemapNode): string {
  if (node.outcome === 'skipped') return 'skipped';
  const parts: string[] = [];
  if (node.status !== undefined) parts.push(String(node.status));
  if (node.fromCache) parts.push('(cached)');
  if (node.format !== undefined) parts.push(node.format);
  if (node.outcome === 'ok' || node.urls > 0 || node.sitemaps > 0) {
    parts.push(node.format === 'sitemapindex' ? plural(node.sitemaps, 'sitemap') : plural(node.urls, 'URL'));
  }
  if (node.bytes > 0) parts.push(formatBytes(node.bytes));
  if (node.timeMs > 0) parts.push(formatDuration(node.timeMs));
  if (node.outcome === 'failed') parts.push(node.cut !== undefined ? 'FAILED (cut short)' : 'FAILED');
  const problems = node.errors + node.warnings;
  if (problems > 0) parts.push(`${plural(node.errors, 'error')}, ${plural(node.warnings, 'warning')}`);
  return parts.join('  ');
}

function renderTree(tree: DiscoveryTree, quiet: boolean): string {
  const lines: string[] = [];
  /** `total`: how many there are in all (the list may be capped). */
  const problems = (diagnostics: readonly Diagnostic[], prefix: string, total?: number): void => {
    let shown = 0;
    let listed = 0;
    for (const d of diagnostics) {
      if (d.code === TRUNCATED_CODE || (quiet && d.severity !== 'error')) continue;
      listed++;
      if (shown === SHOWN_PER_DOCUMENT) continue;
      shown++;
      const at = positionText(d);
      lines.push(`${prefix}  ${at === '' ? '' : `${at} `}${d.severity} ${d.code} ${d.message}`);
    }
    const more = Math.max(total ?? listed, listed) - shown;
    if (more > 0) lines.push(`${prefix}  … and ${formatCount(more)} more`);
  };
  const walk = (nodes: readonly SitemapNode[], prefix: string): void => {
    const visible = nodes.filter((n) => n.outcome !== 'absent');
    visible.forEach((node, i) => {
      const last = i === visible.length - 1;
      lines.push(`${prefix}${last ? '└─ ' : '├─ '}${node.url}  ${describe(node)}`);
      const inner = `${prefix}${last ? '   ' : '│  '}`;
      // Where it was redirected: the URL that answered, or the hop whose request failed.
      const redirectedTo = node.finalUrl ?? node.redirects.at(-1);
      if (redirectedTo !== undefined) lines.push(`${inner}  → ${redirectedTo}`);
      problems(node.diagnostics, inner, quiet ? node.errors : node.errors + node.warnings + node.infos);
      walk(node.children, inner);
    });
  };
  for (const input of tree.inputs) {
    if (input.robots !== undefined) {
      const r = input.robots;
      const state = r.outcome === 'ok' ? `${r.status ?? ''}  ${plural(r.sitemaps.length, 'Sitemap line')}` : r.outcome === 'absent' ? `${r.status ?? ''}  (none)` : 'FAILED';
      lines.push(`${r.url}  ${state}`);
      problems(r.diagnostics, '');
      const probes = input.sitemaps.filter((n) => n.via === 'probe');
      if (probes.length > 0) {
        const found = probes.filter((n) => n.outcome !== 'absent').length;
        // A catch-all or soft-404 site: its probes are quiet misses, said here once.
        const answered = probes.filter((n) => n.outcome === 'absent' && n.status !== undefined && n.status < 300).length;
        lines.push(`  probed ${plural(probes.length, 'well-known path')}: ${formatCount(found)} found${answered > 0 ? `, ${formatCount(answered)} answered with something that is no sitemap` : ''}`);
      }
    }
    walk(input.sitemaps, '');
  }
  lines.push('', summary(tree.totals, true));
  // A robots.txt or sitemap is anyone's to write: what it quotes must not drive the terminal.
  return `${lines.map(printable).join('\n')}\n`;
}

/** The totals in one line: ok, failed and skipped always shown, so that the sum can be checked. */
function summary(t: DiscoveryTotals, requests: boolean): string {
  const cut = t.cut > 0 ? `; ${formatCount(t.cut)} cut short` : '';
  const robots = t.robotsFailed > 0 ? `, ${formatCount(t.robotsFailed)} robots.txt failed` : '';
  const fromCut = t.urlsFromCut > 0 ? ` (${formatCount(t.urlsFromCut)} from documents cut short)` : '';
  return (
    `${plural(t.documents, 'document')} (${formatCount(t.ok)} ok, ${formatCount(t.failed)} failed, ${formatCount(t.skipped)} skipped${cut})${robots}, ` +
    `${plural(t.urls, 'URL')}${fromCut}, ${formatBytes(t.bytes)}, ${requests ? `${plural(t.requests, 'request')}, ` : ''}${formatDuration(t.timeMs)}; ${plural(t.errors, 'error')}, ${plural(t.warnings, 'warning')}`
  );
}

/** Whether https answered at an input, or its failures would be the same over http (noHttpsHint). */
function answered(input: DiscoveryInput): boolean {
  const nodes = (list: readonly SitemapNode[]): SitemapNode[] => list.flatMap((n) => [n, ...nodes(n.children)]);
  const all = nodes(input.sitemaps);
  if (input.robots?.status !== undefined || all.some((n) => n.status !== undefined)) return true;
  const failures = [input.robots?.failure, ...all.flatMap((n) => n.diagnostics.map((d) => d.code))];
  return !failures.some((code) => code !== undefined && httpsUnreachable(code, false));
}

/** What the options of `discover` make (a UsageError when they cannot); `assumed`: the inputs given without a scheme. */
async function discoverSettings(args: ParsedArgs, io: CliIo, assumed: Set<string>) {
  if (args.positionals.length === 0) throw new UsageError('no URL: give a site (https://example.com/), a robots.txt URL or a sitemap URL');
  const inputs = args.positionals.map((text) => {
    if (isHttpUrl(text)) {
      if (!URL.canParse(text)) throw new UsageError(notAUrl(text));
      return text;
    }
    const url = assumedHttpsUrl(text);
    if (url === undefined) throw new UsageError(`not an http(s) URL nor a host name: ${JSON.stringify(text)}`);
    assumed.add(url);
    return url;
  });
  const format = args.choice<OutputFormat>('format') ?? (io.stdout.isTTY === true && !args.has('out') ? 'tree' : 'jsonl');
  const cache = args.text('cache');
  // With `urls`, only the locs are printed: they come as text, read on worker threads.
  const flags = { probe: args.flag('probe'), respectRobots: args.flag('respect-robots'), urlsAsText: format === 'urls' };
  const options: DiscoverOptions = Object.assign(await httpClientOptions(args), flags, definedOnly({
    crossHost: args.choice<'warn' | 'deny'>('cross-host'), concurrency: args.number('concurrency'), perHostConcurrency: args.number('per-host'),
    runTimeoutMs: args.number('run-timeout'), maxBodyBytes: args.number('max-bytes'), maxDepth: args.number('max-depth'),
    maxSitemaps: args.number('max-sitemaps'), cacheDir: cache !== undefined ? resolve(io.cwd, cache) : undefined,
  }));
  return { inputs, format, options };
}

/** What the events of a crawl make: the lines of `format` on `out`, problems by `report`, the progress's figures. */
function discoverEvents(format: OutputFormat, out: Output, report: (d: Diagnostic) => void) {
  // The summary's figures as they grow (fetched: ok + failed); queued: sitemaps whose outcome has not come yet.
  const counts = { fetched: 0, urls: 0, bytes: 0 };
  const queued = new Set<SitemapNode>();
  // The tree shows the inputs' robots.txt; another host's (read for a cross-host child) is printed apart.
  const robotsRead: RobotsNode[] = [];
  let tree: DiscoveryTree | undefined;
  // With `urls`, the URLs come as lines (urlsAsText), never as url events.
  const writeUrl: ((event: UrlEvent) => void) | undefined =
    format === 'jsonl' ? (event) => out.writeLine(JSON.stringify({ type: 'url', sitemap: event.sitemap, ...event.entry }))
    : format === 'csv' ? (event) => out.write(csvRow(event.entry, event.sitemap))
    : undefined;
  const other = (event: DiscoverEvent): void => {
    switch (event.type) {
      case 'queued':
        queued.add(event.sitemap);
        break;
      case 'sitemap':
        queued.delete(event.sitemap);
        if (event.sitemap.outcome === 'ok' || event.sitemap.outcome === 'failed') counts.fetched++;
        counts.bytes += event.sitemap.bytes;
        // Its children are in their own lines (an undefined value is left out, in place).
        if (format === 'jsonl' && event.sitemap.outcome !== 'absent') out.writeLine(JSON.stringify({ type: 'sitemap', ...event.sitemap, children: undefined }));
        break;
      case 'robots':
        counts.bytes += event.robots.bytes;
        if (format === 'jsonl') out.writeLine(JSON.stringify({ type: 'robots', ...event.robots }));
        if (format === 'tree') robotsRead.push(event.robots);
        for (const d of event.robots.diagnostics) report(d);
        break;
      case 'diagnostic':
        report(event.diagnostic);
        break;
      case 'end':
        tree = event.tree;
        break;
    }
  };
  // The hot loop, small and apart: V8 recompiles it for each new event shape, and with the other
  // cases inline that cost ~89 ms of TurboFan in bench:discover.
  const handle = (batch: readonly DiscoverEvent[]): void => {
    for (let k = 0; k < batch.length; k++) {
      const event = batch[k] as DiscoverEvent;
      if (event.type === 'url') {
        counts.urls++;
        writeUrl?.(event);
      } else if (event.type === 'urls') {
        counts.urls += event.count;
        out.writeBytes(event.lines);
      } else {
        other(event);
      }
    }
  };
  return { counts, queued, robotsRead, tree: () => tree, handle };
}

/**
 * Opens --out FILE (nothing without it), or says why it cannot (the exit status). A file is written as
 * `temp` beside it, renamed over it once whole. A device or a FIFO (`--out /dev/null`) is written into,
 * not renamed over; a directory is opened too, to fail now (EISDIR) rather than after the whole crawl.
 */
async function openOutFile(outFile: string | undefined, io: CliIo): Promise<{ target?: string; temp?: string | undefined; file?: WriteStream } | number> {
  if (outFile === undefined) return {};
  const target = resolve(io.cwd, outFile);
  const existing = await stat(target).catch(() => undefined);
  const temp = existing === undefined || existing.isFile() ? `${target}.${process.pid}.tmp` : undefined;
  try {
    return { target, temp, file: (await open(temp ?? target, 'w')).createWriteStream() };
  } catch (error) {
    return fatal(io, 'discover', `cannot write ${outFile}: ${ioErrorReason(error)}`);
  }
}

export async function runDiscover(argv: string[], io: CliIo): Promise<number> {
  const assumed = new Set<string>();
  const line = await commandLine(DISCOVER, argv, io, (args) => discoverSettings(args, io, assumed));
  if ('exit' in line) return line.exit;
  const { args, checked: { inputs, format, options } } = line;
  const quiet = args.flag('quiet');
  if (!quiet) for (const url of assumed) io.stderr.write(schemeNotice('discover', url));

  // Made before the output file, so that nothing is left behind if the options are refused.
  const run = discoverSitemaps(inputs, options);
  const outFile = args.text('out');
  const opened = await openOutFile(outFile, io);
  if (typeof opened === 'number') return opened;
  const { target, temp, file } = opened;
  // A write that failed (a full disk) ends the crawl: nothing more of it could be kept.
  let writeFailed: unknown;
  file?.once('error', (error) => {
    writeFailed = error;
    run.stop();
  });
  const out = new Output(file ?? io.stdout);
  const { counts, queued, handle, ...crawl } = discoverEvents(format, out, (d) => {
    if (format === 'tree' || (quiet && d.severity !== 'error')) return;
    printer.print(d);
  });
  const progress = Progress.onTerminal(io, !quiet, (ms) =>
    `${plural(counts.fetched, 'document')} fetched, ${formatCount(queued.size)} queued · ${plural(counts.urls, 'URL')} · ${formatBytes(counts.bytes)} · ${formatCount(ratePerSecond(counts.urls, ms))} URLs/s`);
  // The next batch of events waits for standard error to drain (backpressure).
  const problemsOut = new Output(io.stderr);
  const printer = ProblemPrinter.for(io.stderr, { progress, file: '<discover>', ...(args.flag('verbose') ? { capped: false } : {}) }, problemsOut);

  let interrupted = false;
  let readerGone = false;
  const removeInterrupt = io.onInterrupt?.(() => {
    interrupted = true;
    run.stop();
  });
  if (format === 'csv') out.write('loc,lastmod,changefreq,priority,sitemap\n');
  try {
    for await (const batch of run.batches()) {
      handle(batch);
      await problemsOut.flush();
      progress.tick();
      await out.flush();
      // The reader went away (`| head`): nothing more will be printed, so nothing more is fetched.
      if (out.closed && file === undefined && !readerGone) {
        readerGone = true;
        run.stop();
      }
    }
    progress.clear();
    const tree = crawl.tree();
    if (tree !== undefined) {
      const inTree = new Set(tree.inputs.map((input) => input.robots?.url));
      for (const robots of crawl.robotsRead) if (!inTree.has(robots.url)) for (const d of robots.diagnostics) if (!quiet || d.severity === 'error') printer.print(d);
    }
    printer.finish();
    await problemsOut.flush();
    if (tree !== undefined) {
      if (format === 'tree') out.write(renderTree(tree, quiet));
      else if (format === 'jsonl') out.write(`${JSON.stringify({ type: 'totals', ...tree.totals })}\n`);
    }
    await out.flush();
    if (file !== undefined && writeFailed === undefined) {
      await new Promise<void>((done, fail) => file.end((error?: Error | null) => (error ? fail(error) : done())));
      if (temp !== undefined && !interrupted && tree !== undefined) await rename(temp, target as string);
    }
  } finally {
    out.close();
    problemsOut.close();
    removeInterrupt?.();
    file?.destroy();
    // Interrupted, failed, or the rename refused: the previous file stays as it was (renamed: nothing left).
    if (temp !== undefined) await rm(temp, { force: true });
  }
  if (writeFailed !== undefined) return fatal(io, 'discover', `cannot write ${outFile}: ${ioErrorReason(writeFailed)}`);
  // Stopping once the reader has what it wanted (`| head -1`) is the reader's choice, not a failure.
  if (readerGone && !interrupted) return EXIT_OK;
  const tree = crawl.tree();
  if (interrupted || tree === undefined) return EXIT_INTERRUPTED;
  return outcome(io, tree, assumed, !quiet && format !== 'tree');
}

/** Says the crawl's totals (with `summarize`) and what went wrong as a whole; the exit status. */
function outcome(io: CliIo, tree: DiscoveryTree, assumed: ReadonlySet<string>, summarize: boolean): number {
  const t = tree.totals;
  if (summarize) io.stderr.write(`${summary(t, false)}\n`);
  for (const input of tree.inputs) {
    if (assumed.has(input.input) && !answered(input)) io.stderr.write(noHttpsHint('discover', input.input));
  }
  if (t.ok + t.failed === 0) {
    io.stderr.write(commandMessage('discover', `no sitemap ${t.skipped > 0 ? 'read (every one was skipped)' : 'found'}`));
    return EXIT_PROBLEMS;
  }
  return t.errors > 0 || t.failed > 0 || t.robotsFailed > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
