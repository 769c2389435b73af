// `sitemapkit serve` as a process of its own (dist/cli/bin.cjs, built by npm run build), on 127.0.0.1 and a free port.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  origin: string;
  port: number;
  /** Standard output so far (the access log). */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Sends `signal` (unless it has exited) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServe(dir: string, args: string[] = []): Promise<ServeProcess> {
  if (!existsSync(BIN)) throw new Error('dist/ is missing: run npm run build');
  const child = spawn(process.execPath, [BIN, 'serve', dir, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /at http:\/\/127\.0\.0\.1:(\d+)\//.exec(err);
      if (match !== null) resolve(Number(match[1]));
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${err}`)));
    setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 10_000).unref();
  });
  return {
    child,
    port,
    origin: `http://127.0.0.1:${port}`,
    exited,
    stdout: () => out,
    stderr: () => err,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
