// A real PostgreSQL 15 server (Debian's package) for the tests of the PostgreSQL examples (the queue's
// source module, serve-postgres.js): a fresh cluster in a temporary directory, 127.0.0.1 and a free
// port, its unix socket in that directory, no fsync.
// PostgreSQL refuses to run as root and CI runs as root: then initdb and postgres run as `nobody`
// (setpriv, else runuser), the directory handed to that user. Stopped when the test file ends,
// killed if the test process exits first.

import { spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './redis-server.js';

export const POSTGRES_BIN = process.env['POSTGRES_BIN'] ?? '/usr/lib/postgresql/15/bin';

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication, local only). */
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

interface RunAs {
  /** The command line that runs `argv` as the unprivileged user. */
  wrap(argv: string[]): string[];
  uid: number;
  gid: number;
}

/** How to run the server as a user other than root, or why it cannot run here. */
function runAs(): RunAs | string {
  if (process.getuid?.() !== 0) return { wrap: (argv) => argv, uid: -1, gid: -1 };
  const ids = (flag: string): number => Number(spawnSync('id', [flag, 'nobody'], { encoding: 'utf8' }).stdout.trim());
  const uid = ids('-u');
  const gid = ids('-g');
  if (!Number.isInteger(uid) || uid <= 0) return 'running as root and there is no user "nobody" to run PostgreSQL as';
  for (const [tool, wrap] of [
    ['/usr/bin/setpriv', (argv: string[]) => ['/usr/bin/setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', ...argv]],
    ['/usr/sbin/runuser', (argv: string[]) => ['/usr/sbin/runuser', '-u', 'nobody', '--', ...argv]],
  ] as const) {
    if (existsSync(tool) && spawnSync(wrap(['/bin/true'])[0] as string, wrap(['/bin/true']).slice(1)).status === 0) return { wrap, uid, gid };
  }
  return 'running as root, and neither setpriv nor runuser can switch to "nobody"';
}

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresUnavailable(): string | undefined {
  if (!existsSync(join(POSTGRES_BIN, 'postgres'))) return `${POSTGRES_BIN}/postgres is not installed (apt-get install postgresql; .ci/run does it)`;
  const user = runAs();
  return typeof user === 'string' ? user : undefined;
}

export async function startPostgres(timeoutMs = 30_000): Promise<PostgresServer> {
  const user = runAs();
  if (typeof user === 'string') throw new Error(user);
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-pg-'));
  if (user.uid >= 0) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', HOME: dir };
  const init = user.wrap([join(POSTGRES_BIN, 'initdb'), '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  const initdb = spawnSync(init[0] as string, init.slice(1), { env, encoding: 'utf8', timeout: timeoutMs, cwd: dir });
  if (initdb.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${initdb.status ?? initdb.signal}): ${initdb.stderr}${initdb.error?.message ?? ''}`);
  }
  const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${dir}`, 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=20', 'shared_buffers=16MB', 'logging_collector=off'];
  const { child, port, stop } = await startServer({
    what: 'postgres',
    argv: (port) => user.wrap([join(POSTGRES_BIN, 'postgres'), '-D', data, '-p', String(port), ...settings.flatMap((s) => ['-c', s])]),
    ready: 'database system is ready to accept connections',
    // Fast shutdown: sessions ended, no checkpoint wait.
    stopSignal: 'SIGINT',
    dir,
    env,
    timeoutMs,
  });
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, child, stop };
}
