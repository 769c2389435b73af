// What a command may touch of the outside world. The bin passes the process's; tests pass their own.

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
  /** Installs a handler for Ctrl-C / SIGTERM; returns a function that removes it. */
  onInterrupt?: (handler: () => void) => () => void;
}

export function processIo(): CliIo {
  // A closed pipe (`sitemapkit … | head`) fails a write with EPIPE in an 'error' event, often after
  // the command stopped listening (Output's listener) or where it never did (--help, a summary):
  // unheard, Node prints a stack trace and exits 1. The command ends as it would, its output unread.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreClosedPipe);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Made when a command reads it: Node builds the stream on first use (1-1.5 ms of every start).
    get stdin() {
      return process.stdin;
    },
    cwd: process.cwd(),
    env: process.env,
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
  };
}

function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
}

/** Exit codes of every command (ESLint's convention). */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_FATAL = 2;
export const EXIT_INTERRUPTED = 130;
