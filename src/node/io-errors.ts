// One wording for files in one-line messages: their names (shownPath) and operating-system errors
// ("cannot read FILE: no such file").

import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * A path as messages show it: relative to `cwd` when inside it, else as given. A path outside is
 * never climbed to (/dev/null seen from /home/me is not ../../dev/null).
 */
export function shownPath(path: string, cwd: string): string {
  const inside = relative(cwd, resolve(cwd, path));
  return inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside) ? path : inside;
}

export function ioErrorReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'not a directory';
    case 'ENOSPC':
      return 'no space left on device';
    case 'EROFS':
      return 'read-only file system';
    case 'ENAMETOOLONG':
      return 'file name too long';
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0] ?? '';
}
