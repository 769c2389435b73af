#!/usr/bin/env node
import { run } from './main.js';
import { EXIT_INTERRUPTED, interruptedExitCode, processIo } from './io.js';

// A promise chain, not a top-level await: the bin is bundled as CommonJS (scripts/bundle-cli.js).
void run(process.argv.slice(2), processIo()).then((code) => {
  // Interrupted: an input read (stdin) may still be pending and would keep the process alive.
  if (code === EXIT_INTERRUPTED) process.exit(interruptedExitCode());
  process.exitCode = code;
});
