// Usage errors: a bad value is a UsageError, reported in one line (exit 2). The options themselves are
// parsed by their declaration (command.ts).

import { definedOnly } from '../core/defined-only.js';
import { SitemapError } from '../core/errors.js';
import { LIMITS_PROFILES } from '../core/model.js';
import type { ParsedArgs } from './command.js';
import { EXIT_FATAL, EXIT_INTERRUPTED, fatal, type CliIo } from './io.js';
import type { Progress } from './progress.js';

export class UsageError extends Error {}

/** Reports a usage problem of `command` and returns the exit code for it. */
export function usageFailure(io: CliIo, command: string, message: string): number {
  fatal(io, command, message);
  io.stderr.write(`Run "sitemapkit ${command} --help" for usage.\n`);
  return EXIT_FATAL;
}

/** A SitemapError (a refused input or option, a failed write) reported by `fatal`, with `before` and `after` its message; anything else rethrown. */
export function fatalFailure(io: CliIo, command: string, error: unknown, before = '', after = ''): number {
  if (!(error instanceof SitemapError)) throw error;
  return fatal(io, command, `${before}${error.message}${after}`);
}

/**
 * Writes a set (generate, build) with a signal that Ctrl-C aborts; the exit status instead of its result
 * when it was interrupted (the previous set is left whole) or failed (`failed` says it and gives the status).
 */
export async function writeSet<T extends object>(io: CliIo, command: string, progress: Progress, write: (signal: AbortSignal) => Promise<T>, failed = (error: unknown): number => fatalFailure(io, command, error)): Promise<T | number> {
  const controller = new AbortController();
  const removeHandler = io.onInterrupt?.(() => controller.abort());
  const outcome = await write(controller.signal).then((value) => ({ value }), (error: unknown) => ({ error }));
  // Done either way: the progress line goes before anything is said.
  removeHandler?.();
  progress.clear();
  if ('value' in outcome) return outcome.value;
  if (!controller.signal.aborted) return failed(outcome.error);
  io.stderr.write(`sitemapkit ${command}: interrupted; the previous sitemaps were left as they were\n`);
  return EXIT_INTERRUPTED;
}

/** `make()`, with a SitemapError it throws (a value the library refuses) turned into a UsageError saying `prefix` first. */
export function asUsage<T>(make: () => T, prefix = ''): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof SitemapError) throw new UsageError(`${prefix}${error.message}`);
    throw error;
  }
}

/** How a set is written, as the options of declarations.ts SET_OUTPUT say (generate, build, queue). */
export function setOutputOptions(args: ParsedArgs) {
  if (args.has('gzip-level') && args.flag('no-gzip')) throw new UsageError('--gzip-level and --no-gzip contradict each other');
  const name = args.text('name');
  if (name !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new UsageError(`--name ${JSON.stringify(name)}: use letters, digits, '.', '_' and '-'`);
  const profile = args.choice<'current' | 'legacy'>('limits');
  const [maxUrls, maxBytes] = [args.number('max-urls'), args.number('max-bytes')];
  // Above the protocol's limits: the library refuses them too, but only the option's name says what to change.
  const most = LIMITS_PROFILES[profile ?? 'current'];
  const whose = profile === 'legacy' ? "the 2008 protocol's limit (--limits legacy)" : "the protocol's limit";
  if (maxUrls !== undefined && maxUrls > most.maxUrlsPerSitemap) throw new UsageError(`--max-urls ${maxUrls}: max URLs must be a whole number from 1 to ${most.maxUrlsPerSitemap}, ${whose}`);
  if (maxBytes !== undefined && maxBytes > most.maxBytesPerSitemap) throw new UsageError(`--max-bytes ${maxBytes}: max bytes must be a whole number up to ${most.maxBytesPerSitemap}, ${whose}`);
  return {
    gzip: !args.flag('no-gzip'),
    ...definedOnly({ name, gzipLevel: args.number('gzip-level'), profile }),
    ...definedOnly({ maxUrls, maxBytes }),
  };
}
