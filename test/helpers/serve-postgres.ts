// A throwaway PostgreSQL 15 server for the live-source example: initdb into a temporary folder, a Unix
// socket only (no TCP port), fsync off. PostgreSQL refuses to run as root: then as `nobody` (uid 65534).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';
/** nobody:nogroup, for the server's processes when we are root (spawned so directly, signals reach them). */
const NOBODY = { uid: 65534, gid: 65534 };

export interface Postgres {
  /** The environment libpq and `pg` read: PGHOST (the socket's folder), PGPORT, PGUSER, PGDATABASE. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Why a PostgreSQL server cannot be started here, or undefined when it can. */
export function postgresMissing(): string | undefined {
  if (!existsSync(join(BIN, 'postgres'))) return `no PostgreSQL 15 in ${BIN}`;
  if (userInfo().uid === 0 && spawnSync('true', [], NOBODY).status !== 0) return 'running as root and cannot run as nobody';
  return undefined;
}

export async function startPostgres(): Promise<Postgres> {
  const root = userInfo().uid === 0;
  const as = root ? NOBODY : {};
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-pg-'));
  if (root) chownSync(dir, 65534, 65534);
  const data = join(dir, 'data');
  const init = spawnSync(join(BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'], { ...as, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = String(20_000 + Math.floor(Math.random() * 20_000));
  const server: ChildProcess = spawn(join(BIN, 'postgres'), ['-D', data, '-k', dir, '-p', port, '-c', 'listen_addresses=', '-F'], { ...as, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const env = { PGHOST: dir, PGPORT: port, PGUSER: 'postgres', PGDATABASE: 'postgres' };
  const stop = async (): Promise<void> => {
    // SIGINT: PostgreSQL's fast shutdown.
    if (server.exitCode === null) server.kill('SIGINT');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let tries = 0; ; tries++) {
    if (spawnSync(join(BIN, 'pg_isready'), ['-h', dir, '-p', port, '-q']).status === 0) return { env, stop };
    if (server.exitCode !== null || tries > 100) {
      await stop();
      throw new Error(`PostgreSQL did not start: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
