// The command line of `queue` and `worker`: their declaration, with --redis required by both.

import { UsageError } from './args.js';
import type { ParsedArgs } from './command.js';
import { shownRedis } from '../node/scale/queue-redis.js';

/** commandLine's check for `queue` and `worker`: --redis is given, and is a Redis URL. */
export function requireRedis(args: ParsedArgs): void {
  if (!args.has('redis')) throw new UsageError('--redis URL is required (the Redis server of the queue, e.g. redis://127.0.0.1:6379)');
  const url = args.text('redis') as string;
  if (!/^rediss?:\/\//i.test(url) || !URL.canParse(url)) throw new UsageError(`--redis ${shownRedis(url)}: not a Redis URL (redis://host:port, or rediss:// for TLS)`);
}
