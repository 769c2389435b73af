// Redis for BullMQ, through ioredis (BullMQ 6 installs no driver). Both are loaded only when a queue
// command runs, not by the package entry (test/package-weight.test.ts).

import { SitemapError } from '../../core/errors.js';

export type BullMQ = typeof import('bullmq');

/**
 * BullMQ, its connections ioredis clients of `connection: { url }` with BullMQ's options. BullMQ's own
 * require() finds ioredis only where the package manager hoisted it; this import resolves from ours.
 */
export async function loadBullMQ(): Promise<BullMQ> {
  const [bull, { Redis }] = await Promise.all([import('bullmq'), import('ioredis')]);
  bull.RedisConnection.clientFactory = ({ url, ...options }) => bull.createIORedisClient(url === undefined ? new Redis(options) : new Redis(url, options));
  return bull;
}

/** Whether Redis answers at `url` within `timeoutMs`: a PING, so that a command fails at once, not after BullMQ's endless reconnects. */
export async function pingRedis(url: string, timeoutMs = 5000): Promise<void> {
  const { Redis } = await import('ioredis');
  // One connection attempt and no queue of commands waiting for a reconnect.
  const client = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  // connect() rejects with "Connection is closed"; the reason (ECONNREFUSED, WRONGPASS…) comes as an event.
  let cause: Error | undefined;
  client.on('error', (error: Error) => (cause ??= error));
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect().then(() => client.ping()),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    const reason = cause ?? (error as Error);
    throw new SitemapError('ERR_SITEMAP_REDIS', `cannot reach Redis at ${shownRedis(url)}: ${(reason as NodeJS.ErrnoException).code ?? reason.message}`);
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

/** The Redis URL as messages show it: without its password, which logs would keep (CWE-532). */
export function shownRedis(url: string): string {
  // Unparsed: whatever stands between "//" and the last "@" may hold the password.
  if (!URL.canParse(url)) return url.replace(/\/\/.*@/, '//***@');
  const shown = new URL(url);
  if (shown.password === '') return url;
  shown.password = '***';
  return shown.href;
}
