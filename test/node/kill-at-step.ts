// Child process of atomic-kill.test.ts: runs the CLI (argv after `--`) in the working directory and
// kills itself with SIGKILL at step K of the commit in folder OUT (see test/helpers/commit-steps.ts).
// Usage: kill-at-step.ts OUT K -- sitemapkit-arguments...

import { interceptSteps } from '../helpers/commit-steps.js';
import { run } from '../../src/cli/main.js';
import { processIo } from '../../src/cli/io.js';

const [out, at, separator, ...argv] = process.argv.slice(2);
if (out === undefined || at === undefined || separator !== '--') throw new Error('usage: kill-at-step.ts OUT K -- ARGS...');
interceptSteps(out, Number(at), 'kill');
process.exitCode = await run(argv, processIo());
