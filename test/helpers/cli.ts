import { run } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output. */
export async function runCli(argv: string[], options: { cwd: string; stdin?: NodeJS.ReadableStream; tty?: boolean; columns?: number; env?: Record<string, string | undefined> }): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text), isTTY: options.tty ?? false, ...(options.columns !== undefined ? { columns: options.columns } : {}) },
    stderr: { write: (text: string) => (stderr += text), isTTY: options.tty ?? false, ...(options.columns !== undefined ? { columns: options.columns } : {}) },
    cwd: options.cwd,
    env: options.env ?? {},
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
  };
  const code = await run(argv, io);
  return { code, stdout, stderr };
}
