#!/usr/bin/env node
import { run } from './main.js';
import { EXIT_INTERRUPTED, processIo } from './io.js';

const code = await run(process.argv.slice(2), processIo());
process.exitCode = code;
// Interrupted: an input read (stdin) may still be pending and would keep the process alive.
if (code === EXIT_INTERRUPTED) process.exit(code);
