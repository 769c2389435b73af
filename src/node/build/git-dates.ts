// When a file last changed according to git. One `git log` walk answers for every file (newest first, so a
// path's first appearance is its last change) and stops once all are answered: one `git log -1` per page
// would take minutes at 100,000 pages.

import { resolve, sep } from 'node:path';
import { pathInside } from '../io-errors.js';

/** The top of the git work tree holding `dir`, or undefined when there is none (or no git). */
export async function gitTopLevel(dir: string): Promise<string | undefined> {
  const { execFile } = await import('node:child_process');
  return new Promise((done) => execFile('git', ['-C', dir, 'rev-parse', '--show-toplevel'], (error, out) => done(error === null && out.trim() !== '' ? out.trim() : undefined)));
}

/** For each of `paths` git has a commit for in the work tree at `top`: the commit time in epoch milliseconds. */
export async function gitLastCommitTimes(top: string, paths: Iterable<string>): Promise<Map<string, number>> {
  const wanted = new Map<string, string>(); // repo-relative → as given
  for (const path of paths) {
    const rel = pathInside(top, resolve(path));
    if (rel === undefined || rel === '') continue;
    wanted.set(sep === '/' ? rel : rel.split(sep).join('/'), path);
  }
  const found = new Map<string, number>();
  if (wanted.size === 0) return found;
  // node:child_process is loaded when git is asked, not with the package.
  const { spawn } = await import('node:child_process');
  await new Promise<void>((done) => {
    // %D with no ref decorated is `grafted` only at a shallow clone's cut (CI's default checkout): that commit
    // shows every file as added, so its time, NaN then, dates none.
    const child = spawn('git', ['-C', top, '-c', 'core.quotePath=false', 'log', '--format=%x01%ct %D', '--decorate-refs=refs/-/', '--name-only', '-z', '--no-renames'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    // -z output: "\x01<time> \0\n<path>\0<path>\0\x01<time> grafted\0\n<path>\0…"
    let pending = '';
    let time = Number.NaN;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const parts = (pending + chunk).split('\0');
      pending = parts.pop() ?? '';
      for (let part of parts) {
        if (part.startsWith('\x01')) {
          time = Number(part.slice(1)) * 1000;
          continue;
        }
        if (part.startsWith('\n')) part = part.slice(1);
        const original = wanted.get(part);
        if (original !== undefined && !found.has(original) && Number.isFinite(time)) {
          found.set(original, time);
          if (found.size === wanted.size) child.kill();
        }
      }
    });
    child.on('error', () => done());
    child.on('close', () => done());
  });
  return found;
}
