import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
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

/** The built CLI, for the tests that measure a real process. */
export const BUILT_BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));

/** A `node` option that makes the child write its peak RSS (bytes) to fd 3 as it exits. */
export const REPORT_RSS = `--import=data:text/javascript,import{writeSync}from'node:fs';process.on('exit',()=>writeSync(3,String(process.resourceUsage().maxRSS*1024)))`;

/** Runs the built CLI in a child process: its exit code, output and peak RSS (bytes). */
export function runBuiltCli(args: string[], cwd: string): Promise<{ code: number | null; maxRss: number; stdout: string; stderr: string }> {
  assert.ok(existsSync(BUILT_BIN), `${BUILT_BIN} is missing: run npm run build first`);
  return runNode([BUILT_BIN, ...args], cwd);
}

/** Runs `node ARGS` in a child process: its exit code, output and peak RSS (bytes). */
export function runNode(args: string[], cwd?: string): Promise<{ code: number | null; maxRss: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [REPORT_RSS, ...args], { ...(cwd !== undefined ? { cwd } : {}), stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let rss = '';
  (child.stdout as NodeJS.ReadableStream).on('data', (d: Buffer) => (stdout += d.toString()));
  (child.stderr as NodeJS.ReadableStream).on('data', (d: Buffer) => (stderr += d.toString()));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (rss += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, maxRss: Number(rss), stdout, stderr }));
  });
}
