// V8's heap growth held low for a run that keeps little alive but passes much through the old space
// (`apply`, a queue worker): V8 otherwise lets the old space grow to about four times what a
// collection finds live (docs/scale.md has the figures). `--heap-growing-percent` is a setting of the
// process, so a value the user started node with (`node --heap-growing-percent=N`, NODE_OPTIONS) is
// kept; runs at once count, and the last to finish puts V8's default (0) back.

import { setFlagsFromString } from 'node:v8';

let holders = 0;

/** Holds the old space to (100 + `percent`)% of the live size until the returned function is called. */
export function holdHeapGrowth(percent: number): () => void {
  if (/--heap[-_]growing[-_]percent/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`)) return () => {};
  if (holders++ === 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) setFlagsFromString('--heap-growing-percent=0');
  };
}
