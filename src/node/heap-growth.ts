// V8's heap growth held low for a run that passes much through the old space but keeps little alive
// (`apply`, a queue worker): V8 otherwise grows it to ~4× what is live (docs/scale.md). The flag is the
// process's: a value the user gave is kept, and the last run to finish puts V8's default back.

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
