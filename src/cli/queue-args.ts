// The command line of `queue` and `worker`: their declaration, with --redis required by both.

import { UsageError } from './args.js';
import type { ParsedArgs } from './command.js';

/** commandLine's check for `queue` and `worker`: --redis is given, and is a Redis URL. */
export function requireRedis(args: ParsedArgs): void {
  if (!args.has('redis')) throw new UsageError('--redis URL is required (the Redis server of the queue, e.g. redis://127.0.0.1:6379)');
  if (!/^rediss?:\/\//i.test(args.text('redis') as string)) throw new UsageError(`--redis ${args.text('redis')}: not a Redis URL (redis://host:port, or rediss:// for TLS)`);
}

/** The Redis URL as messages show it: without its password, which logs would keep (CWE-532). */
export function shownRedis(url: string): string {
  if (!URL.canParse(url)) return url;
  const shown = new URL(url);
  if (shown.password !== '') shown.password = '***';
  return shown.href;
}
