// Stops a run at one step of its commit, as a kill would, or makes that step fail. A step is a rename
// onto, or a removal of, a visible file directly inside the output folder (what a reader of the set
// can see change); the temporary files and folders of a run (names starting with '.') are not steps.
//
// No hook in the code under test: the test replaces `rename`, `rm` and `unlink` of node:fs/promises for
// its duration, and `syncBuiltinESMExports` makes every ESM `import { rename } from 'node:fs/promises'`
// see the replacement. So a rename the code makes by any path is counted, on today's code as on the
// code before it.

import { createRequire, syncBuiltinESMExports } from 'node:module';
import { basename, dirname, resolve } from 'node:path';

type Fsp = typeof import('node:fs/promises');
const fsp = createRequire(import.meta.url)('node:fs/promises') as Fsp;

export interface StepInterceptor {
  /** Steps seen so far, as `rename NAME` or `remove NAME`. */
  readonly steps: string[];
  /** Resolves when step `at` is reached (never when the run makes fewer steps). */
  readonly reached: Promise<void>;
  /** Puts the real functions back. */
  restore(): void;
}

/**
 * Counts the steps made in `dir`. At step `at` (1-based), `freeze` never returns (nothing after it
 * runs: what a kill -9 leaves), `fail` rejects with EIO before doing anything, `kill` sends SIGKILL to
 * this process. Without `at`, only counts.
 */
export function interceptSteps(dir: string, at?: number, action: 'freeze' | 'fail' | 'kill' = 'freeze'): StepInterceptor {
  const folder = resolve(dir);
  const original = { rename: fsp.rename, rm: fsp.rm, unlink: fsp.unlink };
  const steps: string[] = [];
  let onReached!: () => void;
  const reached = new Promise<void>((done) => (onReached = done));
  const visible = (path: string): boolean => dirname(resolve(String(path))) === folder && !basename(String(path)).startsWith('.');
  const step = async (description: string): Promise<void> => {
    steps.push(description);
    if (steps.length !== at) return;
    onReached();
    if (action === 'kill') process.kill(process.pid, 'SIGKILL');
    if (action === 'fail') throw Object.assign(new Error(`injected failure at step ${at}: ${description}`), { code: 'EIO' });
    await new Promise<never>(() => {});
  };
  const patched: Partial<Fsp> = {
    rename: (async (from, to) => {
      if (visible(String(to))) await step(`rename ${basename(String(to))}`);
      return original.rename(from, to);
    }) as Fsp['rename'],
    rm: (async (path, options) => {
      if (visible(String(path))) await step(`remove ${basename(String(path))}`);
      return original.rm(path, options);
    }) as Fsp['rm'],
    unlink: (async (path) => {
      if (visible(String(path))) await step(`remove ${basename(String(path))}`);
      return original.unlink(path);
    }) as Fsp['unlink'],
  };
  Object.assign(fsp, patched);
  syncBuiltinESMExports();
  return {
    steps,
    reached,
    restore() {
      Object.assign(fsp, original);
      syncBuiltinESMExports();
    },
  };
}
