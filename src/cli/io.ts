// What a command may touch of the outside world. The bin passes the process's; tests pass their own.

import { createReadStream, fstatSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { ioErrorReason } from '../node/io-errors.js';
import { printable } from './format.js';
import type { ParsedArgs } from './command.js';

export interface OutputStream {
  write(text: string): unknown;
  /** True when a person is watching (progress lines, colour). */
  isTTY?: boolean;
  /** A terminal's width, when it is one (process.stdout.columns); problem lines are cut to it. */
  columns?: number;
}

export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  stdin?: NodeJS.ReadableStream;
  cwd: string;
  env: Record<string, string | undefined>;
  /** The HTTP client of commands that submit (indexnow); default Node's fetch. Tests pass their own. */
  fetch?: typeof globalThis.fetch;
  /** True when a U+FFFD in the arguments is that character, not Node's stand-in for a byte that is not UTF-8. */
  argvUtf8?: boolean;
  /** Installs a handler for Ctrl-C / SIGTERM; returns a function that removes it. */
  onInterrupt?: (handler: () => void) => () => void;
}

export function processIo(): CliIo {
  // An unheard 'error' of a write would be a stack trace. A closed pipe (`… | head`) is ignored; any
  // other failure (a full disk) is one line and exit 2.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => outputFailed(error, 'standard output'));
  process.stderr.on('error', (error: NodeJS.ErrnoException) => outputFailed(error, 'standard error'));
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Made when a command reads it: Node builds the stream on first use (1-1.5 ms of every start).
    // A folder (`< dir`) is an empty stream to Node; read, it fails with EISDIR, as `cat < dir` does.
    get stdin() {
      return fstatSync(0).isDirectory() ? createReadStream('', { fd: 0 }) : process.stdin;
    },
    cwd: process.cwd(),
    env: process.env,
    argvUtf8: argvIsUtf8(),
    onInterrupt(handler) {
      const listener = (signal: NodeJS.Signals): void => {
        stoppedBy = signal;
        handler();
      };
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
  };
}

/**
 * Node decodes argv as UTF-8 with U+FFFD for a byte that is not, and keeps no bytes; Linux does
 * (/proc/self/cmdline, proc(5)). Whether the arguments' bytes are UTF-8; false where not known.
 */
function argvIsUtf8(): boolean {
  const args = process.argv.slice(2);
  if (!args.some((arg) => arg.includes('\uFFFD'))) return true;
  try {
    // Its last arguments, as many as Node's, must be Node's: a process title (--title) overwrites them.
    const cmdline = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync('/proc/self/cmdline'));
    return cmdline.split('\0').slice(-1 - args.length, -1).join('\0') === args.join('\0');
  } catch {
    return false;
  }
}

/** The last signal processIo's handlers received. */
let stoppedBy: NodeJS.Signals = 'SIGINT';

/** The process's exit code for EXIT_INTERRUPTED: 128 + the signal's number, as a shell reports it (SIGTERM: 143). */
export function interruptedExitCode(): number {
  return 128 + constants.signals[stoppedBy];
}

function outputFailed(error: NodeJS.ErrnoException, output: string): void {
  if (error.code === 'EPIPE') return;
  process.stderr.write(`sitemapkit: cannot write ${output}: ${ioErrorReason(error)}\n`);
  process.exit(EXIT_FATAL);
}

/** Whether `stream` takes escapes (colour, a line redrawn in place): a terminal, but not terminfo's "dumb", which has none. */
export function takesEscapes(io: CliIo, stream: OutputStream): boolean {
  return stream.isTTY === true && io.env.TERM !== 'dumb';
}

/**
 * Whether to colour `stream`: FORCE_COLOR set and not `0` or `false` colours even a pipe, before NO_COLOR
 * (as Node itself reads them); NO_COLOR set and not empty, whatever its value, turns colour off (no-color.org).
 */
export function wantsColor(io: CliIo, stream: OutputStream): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return takesEscapes(io, stream) && (io.env.NO_COLOR ?? '') === '';
}

/** A line of `command`'s own on standard error, control characters escaped so that it stays one line. */
export function commandMessage(command: string, text: string): string {
  return `sitemapkit ${command}: ${printable(text)}\n`;
}

/** Prints a fatal error of `command`; returns the exit code for it. */
export function fatal(io: CliIo, command: string, message: string): number {
  io.stderr.write(commandMessage(command, message));
  return EXIT_FATAL;
}

/** A command's summary on standard output: `value` as JSON with --format json, else `human()` unless --quiet. */
export function printSummary(io: CliIo, args: ParsedArgs, value: object, human: () => string): void {
  if (args.choice('format') === 'json') io.stdout.write(JSON.stringify(value, null, 2) + '\n');
  else if (!args.flag('quiet')) io.stdout.write(human());
}

/** Exit codes of every command (ESLint's convention). */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_FATAL = 2;
/** Stopped by a signal; the bin exits interruptedExitCode(), SIGINT's 130 or SIGTERM's 143. */
export const EXIT_INTERRUPTED = 130;
