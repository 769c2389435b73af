// `sitemapkit queue generate|apply|status`: the coordinator of runs done by `sitemapkit worker` processes.

import { resolve } from 'node:path';
import { SitemapError } from '../../core/errors.js';
import { parseColumnMapping } from '../../core/input/csv.js';
import { detectInputFormat, type InputFormat } from '../../node/input.js';
import { DEFAULT_QUEUE, type SetOptions } from '../../node/scale/queue-jobs.js';
import { pingRedis, shownRedis } from '../../node/scale/queue-redis.js';
import { enqueueApply, enqueueGenerate, queueStatus, waitForRun, type EnqueuedRun, type RunStatus } from '../../node/scale/queue.js';
import { asUsage, setOutputOptions, UsageError, usageFailure } from '../args.js';
import { commandLine, definedOnly, type ParsedArgs } from '../command.js';
import { httpClientOptions, isHttpUrl, LazyHttpClient } from '../fetch-input.js';
import { requireRedis } from '../queue-args.js';
import { QUEUE } from '../declarations.js';
import { formatDuration, plural } from '../format.js';
import { formatCount } from '../../core/count-text.js';
import { EXIT_FATAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_PROBLEMS, type CliIo } from '../io.js';

const DEFAULT_SHARDS = 16;
const DEFAULT_ATTEMPTS = 3;
/** The options `queue apply` takes. */
const APPLY_OPTIONS = new Set(['redis', 'queue', 'out', 'name', 'attempts', 'run', 'no-wait', 'format', 'quiet', 'help']);

export async function runQueue(argv: string[], io: CliIo): Promise<number> {
  const line = await commandLine(QUEUE, argv, io, requireRedis);
  if ('exit' in line) return line.exit;
  const { args } = line;
  const [action, ...inputs] = args.positionals;
  try {
    switch (action) {
      case 'generate':
      case 'apply':
        if (!args.has('out')) throw new UsageError('--out DIR is required (the set\'s folder, at the same path on every worker)');
        return await (action === 'generate' ? generate : apply)(args, inputs, io);
      case 'status':
        if (inputs.length > 0) throw new UsageError(`queue status takes no input, got ${JSON.stringify(inputs[0])}`);
        return await status(args, io);
      default:
        throw new UsageError(action === undefined ? 'say what to do: queue generate, queue apply or queue status' : `unknown action ${JSON.stringify(action)}: queue generate, queue apply or queue status`);
    }
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, 'queue', error.message);
    if (error instanceof SitemapError || (error as { code?: string }).code?.startsWith('ERR_SITEMAP_') === true) {
      io.stderr.write(`sitemapkit queue: ${(error as Error).message}\n`);
      return EXIT_FATAL;
    }
    throw error;
  }
}

function setOptions(args: ParsedArgs): SetOptions {
  if (!args.has('base-url')) throw new UsageError('--base-url URL is required (where the sitemaps will be served, e.g. https://www.example.com/)');
  return { baseUrl: args.text('base-url') as string, enforceScope: !args.flag('no-scope'), ...setOutputOptions(args), ...definedOnly({ xslUrl: args.text('xsl') }) };
}

function sourceOptions(args: ParsedArgs): Record<string, string> {
  const options: Record<string, string> = {};
  for (const pair of args.list('source-option')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--source-option needs KEY=VALUE, got ${JSON.stringify(pair)}`);
    options[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return options;
}

async function generate(args: ParsedArgs, inputs: string[], io: CliIo): Promise<number> {
  const set = setOptions(args);
  const source = args.text('source');
  if (source === undefined && inputs.length === 0) throw new UsageError('no input: give files or URLs (or --source MODULE)');
  if (source !== undefined && inputs.length > 0) throw new UsageError('give input files or URLs, or --source MODULE, not both');
  if (source === undefined && args.has('parts')) throw new UsageError('--parts is the number of parts of a --source');
  if (inputs.includes('-')) throw new UsageError('standard input (-) cannot be queued: the coordinator splits files it can read');
  const inputFormat = args.choice<InputFormat>('input-format');
  const columnsText = args.text('columns');
  const columns = columnsText === undefined ? undefined : asUsage(() => parseColumnMapping(columnsText));
  // A URL's format is told by its path's extension, as a file's by its name.
  const files = inputs.map((input) =>
    isHttpUrl(input) ? { path: input, url: true, format: inputFormat ?? detectInputFormat(new URL(input).pathname) } : { path: resolve(io.cwd, input), format: inputFormat ?? detectInputFormat(input) },
  );
  const shards = args.number('shards') ?? DEFAULT_SHARDS;
  const run = await runOptions(args, io);
  const client = new LazyHttpClient(await httpClientOptions(args));
  let enqueued: EnqueuedRun;
  try {
    enqueued = await enqueueGenerate({
      ...run,
      shards,
      set,
      ...(source !== undefined ? { source: { path: resolve(io.cwd, source), parts: args.number('parts') ?? shards, options: sourceOptions(args) } } : { inputs: files, client: () => client.get() }),
      ...(columns !== undefined ? { columns } : {}),
      cwd: io.cwd,
    });
  } finally {
    await client.close();
  }
  const what = source !== undefined ? `${plural(args.number('parts') ?? shards, 'part')} of ${source}` : `${plural(enqueued.entries, 'URL')}`;
  return queued(enqueued, `${what} in ${plural(shards, 'shard')}`, run, args, io);
}

async function apply(args: ParsedArgs, changes: string[], io: CliIo): Promise<number> {
  if (changes.length === 0) throw new UsageError('no change feed: give one or more JSON Lines files of changes');
  // Any other option is generate's (--no-gzip, --max-urls, --xsl… were taken and ignored).
  const other = QUEUE.options.find((option) => !APPLY_OPTIONS.has(option.name) && args.has(option.name));
  if (other !== undefined) throw new UsageError(`--${other.name} is for queue generate: apply takes the set's settings from its manifests`);
  const run = await runOptions(args, io);
  const enqueued = await enqueueApply({ ...run, changes: changes.map((path) => resolve(io.cwd, path)), ...(args.has('name') ? { name: args.text('name') as string } : {}) });
  return queued(enqueued, `${plural(enqueued.entries, 'change')} in ${plural(enqueued.touched, 'child', 'children')}`, run, args, io);
}

/** What a run of queue generate or apply is queued with, once its Redis answers: the queue, --out, --attempts, --run; its problems on standard error. */
async function runOptions(args: ParsedArgs, io: CliIo) {
  const redis = args.text('redis') as string;
  await pingRedis(redis);
  return {
    redis,
    queue: args.text('queue') ?? DEFAULT_QUEUE,
    out: resolve(io.cwd, args.text('out') as string),
    attempts: args.number('attempts') ?? DEFAULT_ATTEMPTS,
    ...(args.has('run') ? { run: args.text('run') as string } : {}),
    onProblem: (problem: string) => io.stderr.write(`${problem}\n`),
  };
}

/** Says that the run is queued (`what` it holds); then its id (--no-wait), or its outcome once done. */
async function queued(enqueued: EnqueuedRun, what: string, { redis, queue }: { redis: string; queue: string }, args: ParsedArgs, io: CliIo): Promise<number> {
  const json = args.choice('format') === 'json';
  const announce = (): void => {
    if (!args.flag('quiet') && !json) io.stderr.write(`sitemapkit queue: run ${enqueued.run} queued: ${what} on ${queue}\n`);
  };
  if (args.flag('no-wait')) {
    announce();
    io.stdout.write(json ? JSON.stringify(enqueued, null, 2) + '\n' : `${enqueued.run}\n`);
    return enqueued.rejected + enqueued.warnings > 0 ? EXIT_PROBLEMS : EXIT_OK;
  }
  return report(await waitOrInterrupt(redis, queue, enqueued.run, io, announce), enqueued, args, io);
}

/** Waits for the run; Ctrl-C stops the waiting, not the run. `announce` runs once Ctrl-C is heard. */
async function waitOrInterrupt(redis: string, queue: string, run: string, io: CliIo, announce: () => void): Promise<RunStatus | undefined> {
  const controller = new AbortController();
  const remove = io.onInterrupt?.(() => controller.abort(new Error('interrupted')));
  // A Ctrl-C sent on reading the line before the handler was in place killed the coordinator (under load).
  announce();
  try {
    let lost = false;
    const onError = (error: Error): void => {
      if (!lost) io.stderr.write(`sitemapkit queue: lost Redis at ${shownRedis(redis)} (${(error as NodeJS.ErrnoException).code ?? error.message}); waiting for it to come back\n`);
      lost = true;
    };
    return await waitForRun(redis, queue, run, { signal: controller.signal, onError });
  } catch (error) {
    if (controller.signal.aborted) {
      io.stderr.write(`sitemapkit queue: stopped waiting; run ${run} goes on on the workers (sitemapkit queue status --run ${run})\n`);
      return undefined;
    }
    throw error;
  } finally {
    remove?.();
  }
}

function report(status: RunStatus | undefined, enqueued: EnqueuedRun, args: ParsedArgs, io: CliIo): number {
  if (status === undefined) return EXIT_INTERRUPTED;
  const json = args.choice('format') === 'json';
  const allRejected = enqueued.rejected + (status.outcome?.rejected ?? 0);
  const warnings = enqueued.warnings + (status.outcome?.warnings ?? 0);
  if (json) io.stdout.write(JSON.stringify({ ...status, rejected: allRejected, warnings, ok: status.state === 'completed' && allRejected + warnings === 0 }, null, 2) + '\n');
  if (status.state !== 'completed') {
    io.stderr.write(`sitemapkit queue: run ${status.run} failed; nothing of it is published in ${status.out} (a set there before stays as it was)\n${failedLines(status)}`);
    return EXIT_FATAL;
  }
  for (const problem of status.outcome?.problems ?? []) io.stderr.write(`${problem}\n`);
  if (!json && !args.flag('quiet')) io.stdout.write(`${runLine(status)}\n`);
  return allRejected + warnings > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

function failedLines(status: RunStatus): string {
  const lines = status.failed.map((f) => `  ${f.what} failed after ${plural(f.attempts, 'attempt')}: ${f.reason}\n`);
  if (lines.length === 0 && status.reason !== undefined) lines.push(`  index: ${status.reason}\n`);
  return lines.join('');
}

function runLine(status: RunStatus): string {
  const took = status.finishedAt !== undefined ? ` in ${formatDuration(status.finishedAt - status.startedAt)}` : '';
  const o = status.outcome;
  if (status.state === 'completed' && o !== undefined) {
    const removed = o.removed > 0 ? `; removed ${plural(o.removed, 'file')} of the previous set` : '';
    if (status.mode === 'apply') return `Applied ${plural(o.entries, 'change')} to ${status.out}${took}: ${plural(o.files, 'sitemap')} in the set, ${plural(o.urls, 'URL')} in those rewritten; ${o.indexFiles.join(', ')}${removed}.`;
    return `Published ${plural(o.urls, 'URL')} in ${plural(o.files, 'sitemap')} (${plural(status.shards, 'shard')}) to ${status.out}${took}: ${o.indexFiles.join(', ')}${removed}.`;
  }
  const counts = Object.entries(status.jobs).map(([state, n]) => `${formatCount(n)} ${state}`).join(', ');
  return `run ${status.run}: ${status.state}${took}; jobs: ${counts === '' ? 'none yet' : counts}; ${status.out}`;
}

async function status(args: ParsedArgs, io: CliIo): Promise<number> {
  const redis = args.text('redis') as string;
  await pingRedis(redis);
  const runs = await queueStatus(redis, args.text('queue') ?? DEFAULT_QUEUE, args.text('run'));
  if (args.choice('format') === 'json') io.stdout.write(JSON.stringify(runs, null, 2) + '\n');
  else if (runs.length === 0) io.stdout.write(args.has('run') ? `no run ${args.text('run') as string} on the queue\n` : 'no runs on the queue\n');
  else for (const run of runs) io.stdout.write(`${runLine(run)}\n${run.state === 'failed' ? failedLines(run) : ''}`);
  if (args.has('run') && runs.length === 0) return EXIT_FATAL;
  return runs.some((run) => run.state === 'failed') ? EXIT_PROBLEMS : EXIT_OK;
}
