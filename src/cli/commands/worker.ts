// `sitemapkit worker --redis URL`: runs the jobs of queued runs until SIGINT or SIGTERM.

import { holdHeapGrowth } from '../../node/heap-growth.js';
import { DEFAULT_QUEUE } from '../../node/scale/queue-jobs.js';
import { pingRedis, shownRedis } from '../../node/scale/queue-redis.js';
import { startWorker } from '../../node/scale/worker.js';
import { fatalFailure } from '../args.js';
import { commandLine, definedOnly } from '../command.js';
import { requireRedis } from '../queue-args.js';
import { WORKER } from '../declarations.js';
import { EXIT_INTERRUPTED, EXIT_OK, type CliIo } from '../io.js';

export async function runWorker(argv: string[], io: CliIo): Promise<number> {
  const line = await commandLine(WORKER, argv, io, requireRedis);
  if ('exit' in line) return line.exit;
  const { args } = line;
  const redis = args.text('redis') as string;
  try {
    await pingRedis(redis);
  } catch (error) {
    return fatalFailure(io, 'worker', error);
  }
  // One of several workers a machine: the heap grows to 1.3 times what is live, not 4 (docs/scale.md).
  holdHeapGrowth(30);
  const queue = args.text('queue') ?? DEFAULT_QUEUE;
  const quiet = args.flag('quiet');
  const worker = await startWorker({
    redis,
    queue,
    concurrency: args.number('concurrency') ?? 1,
    ...definedOnly({ lockDurationMs: args.number('lock-duration') }),
    ...(quiet ? {} : { log: (line: string) => io.stderr.write(`sitemapkit worker ${process.pid}: ${line}\n`) }),
  });
  // The first signal lets the jobs at hand finish; a second releases them (another worker takes them).
  let signals = 0;
  await new Promise<void>((stopped) => {
    const remove = io.onInterrupt?.(() => {
      signals++;
      if (!quiet) io.stderr.write(`sitemapkit worker ${process.pid}: ${signals === 1 ? 'stopping once the jobs at hand are done' : 'stopping now; the jobs at hand go back to the queue'}\n`);
      void worker.close(signals > 1).then(() => {
        remove?.();
        stopped();
      });
    });
    // Said once the signals are heard: a SIGTERM sent on reading it killed a worker descheduled in between.
    if (!quiet) io.stderr.write(`sitemapkit worker ${process.pid}: waiting for jobs on ${queue} at ${shownRedis(redis)}\n`);
  });
  // Forced: the released jobs' code may still be running; bin.ts exits at once on this code.
  return signals > 1 ? EXIT_INTERRUPTED : EXIT_OK;
}

