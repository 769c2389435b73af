// Preloaded (node --import) into a `sitemapkit worker` by test/cli/queue.test.ts, with HOLD_SHARD set
// to a path: the first output stage the worker makes beside a set (a shard job's, before it writes
// anything) waits until HOLD_SHARD.release exists, having written HOLD_SHARD.held. The test then knows
// the worker is inside its shard whatever the machine's load, without an input large enough to keep it
// there. The run's own stages, in its scratch folder (.sitemapkit-queue), are not held.
import fsp from 'node:fs/promises';
import { existsSync, writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const marker = process.env.HOLD_SHARD;
if (isMainThread && marker) {
  const mkdtemp = fsp.mkdtemp;
  let held = false;
  fsp.mkdtemp = async (prefix, ...rest) => {
    if (!held && !String(prefix).includes('.sitemapkit-queue')) {
      held = true;
      writeFileSync(`${marker}.held`, String(process.pid));
      while (!existsSync(`${marker}.release`)) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return mkdtemp(prefix, ...rest);
  };
}
