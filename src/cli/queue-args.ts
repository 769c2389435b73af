// The command line of `queue` and `worker`: their declaration, with --redis required by both.

import { UsageError } from './args.js';
import type { ParsedArgs } from './command.js';

/** commandLine's check for `queue` and `worker`: --redis is given, and is a Redis URL. */
export function requireRedis(args: ParsedArgs): void {
  if (!args.has('redis')) throw new UsageError('--redis URL is required (the Redis server of the queue, e.g. redis://127.0.0.1:6379)');
  const url = args.text('redis') as string;
  if (!/^rediss?:\/\//i.test(url) || !URL.canParse(url)) throw new UsageError(`--redis ${shownRedis(url)}: not a Redis URL (redis://host:port, or rediss:// for TLS)`);
}

/** The Redis URL as messages show it: without its password, which logs would keep (CWE-532). */
export function shownRedis(url: string): string {
  // Unparsed: whatever stands between "//" and the last "@" may hold the password.
  if (!URL.canParse(url)) return url.replace(/\/\/.*@/, '//***@');
  const shown = new URL(url);
  if (shown.password !== '') shown.password = '***';
  return shown.href;
}
