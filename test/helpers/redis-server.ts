// A real redis-server (Debian's package) for the queue tests: 127.0.0.1, a free port, no persistence,
// its files in a temporary directory; stopped when the test file ends, and killed if the test
// process exits first, so that no server outlives a run.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = process.env['REDIS_SERVER'] ?? '/usr/bin/redis-server';

export interface RedisServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** Stops the server (SIGTERM, then SIGKILL after 3 s) and removes its directory. */
  stop(): Promise<void>;
}

/** Why the tests that need Redis cannot run here, or undefined when they can. */
export function redisUnavailable(): string | undefined {
  return existsSync(REDIS_SERVER) ? undefined : `${REDIS_SERVER} is not installed (apt-get install redis-server; .ci/run does it)`;
}

/** A port that was free a moment ago (the server is retried on another one if it was taken since). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Kills `child` when this process exits, whatever the way (a failed assertion, a timeout). */
export function killOnExit(child: ChildProcess): () => void {
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', kill);
  return () => process.off('exit', kill);
}

export async function startRedis(timeoutMs = 10_000): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-redis-'));
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      const child = await launch(dir, port, timeoutMs);
      const forget = killOnExit(child);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        child,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
            await exited;
            clearTimeout(timer);
          }
          forget();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      if (attempt >= 3) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

function launch(dir: string, port: number, timeoutMs: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'yes', '--loglevel', 'notice', '--logfile', ''];
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      reject(new Error(`redis-server on port ${port}: ${why}\n${log}`));
    };
    const timer = setTimeout(() => fail(`not ready within ${timeoutMs} ms`), timeoutMs);
    const onData = (chunk: Buffer): void => {
      log += chunk.toString();
      if (log.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code) => fail(`exited with ${code}`));
  });
}
