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
  const { child, port, stop } = await startServer({
    what: 'redis-server',
    argv: (port) => [REDIS_SERVER, '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'yes', '--loglevel', 'notice', '--logfile', ''],
    ready: 'Ready to accept connections',
    stopSignal: 'SIGTERM',
    dir,
    timeoutMs,
  });
  return { url: `redis://127.0.0.1:${port}`, port, child, stop };
}

export interface ServerOptions {
  what: string;
  /** The command line for a port. */
  argv: (port: number) => string[];
  /** What the server prints (standard output or error) once it accepts connections. */
  ready: string;
  stopSignal: NodeJS.Signals;
  /** Its folder, removed when it stops (or fails to start). */
  dir: string;
  env?: Record<string, string>;
  timeoutMs: number;
}

/**
 * A server process on a free port (tried again on another port if that one was taken meanwhile),
 * killed if this process exits first; `stop` sends `stopSignal`, then SIGKILL after 5 s, and removes its folder.
 */
export async function startServer(options: ServerOptions): Promise<{ child: ChildProcess; port: number; stop: () => Promise<void> }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      const child = await launch(options, port);
      const forget = killOnExit(child);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const stop = async (): Promise<void> => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill(options.stopSignal);
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          await exited;
          clearTimeout(timer);
        }
        forget();
        rmSync(options.dir, { recursive: true, force: true });
      };
      return { child, port, stop };
    } catch (error) {
      if (attempt >= 3) {
        rmSync(options.dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

function launch(options: ServerOptions, port: number): Promise<ChildProcess> {
  const argv = options.argv(port);
  const child = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], cwd: options.dir, ...(options.env !== undefined ? { env: options.env } : {}) });
  let log = '';
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      reject(new Error(`${options.what} on port ${port}: ${why}\n${log}`));
    };
    const timer = setTimeout(() => fail(`not ready within ${options.timeoutMs} ms`), options.timeoutMs);
    const onData = (chunk: Buffer): void => {
      log += chunk.toString();
      if (!log.includes(options.ready)) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      // Read on, unheeded, so that a full pipe never blocks the server.
      for (const stream of [child.stdout, child.stderr]) stream?.removeAllListeners('data').resume();
      resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code) => fail(`exited with ${code}`));
  });
}
