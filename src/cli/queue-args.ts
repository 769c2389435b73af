// The command line of `queue` and `worker`: their declaration, with --redis required by both.

import { UsageError, usageFailure } from './args.js';
import { parseOrHelp, type CommandSpec, type ParsedArgs } from './command.js';
import { EXIT_OK, type CliIo } from './io.js';

/** The parsed arguments, or the exit code once help or a usage error has been printed. */
export function parseQueueArgs(spec: CommandSpec, argv: readonly string[], io: CliIo): ParsedArgs | number {
  try {
    const parsed = parseOrHelp(spec, argv);
    if ('help' in parsed) {
      io.stdout.write(parsed.help);
      return EXIT_OK;
    }
    if (!parsed.has('redis')) throw new UsageError('--redis URL is required (the Redis server of the queue, e.g. redis://127.0.0.1:6379)');
    if (!/^rediss?:\/\//i.test(parsed.text('redis') as string)) throw new UsageError(`--redis ${parsed.text('redis')}: not a Redis URL (redis://host:port, or rediss:// for TLS)`);
    return parsed;
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, spec.name, error.message);
    throw error;
  }
}
