// One wording for files in one-line messages: their names (shownPath) and operating-system errors
// ("cannot read FILE: no such file"), the source whose failures are rethrown so, and a run stopped by
// its signal (ERR_SITEMAP_ABORTED). Light on purpose: the page-scanning threads load it.

import { isAbsolute, relative, resolve, sep } from 'node:path';
import { SitemapError } from '../core/errors.js';

/** `path` relative to the folder `dir` when inside it (`''` for `dir` itself), else undefined. A name such as `..maps` is inside. */
export function pathInside(dir: string, path: string): string | undefined {
  const inside = relative(resolve(dir), resolve(dir, path));
  return inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside) ? undefined : inside;
}

/**
 * `text`, the file `path`, as JSON, a byte order mark skipped (RFC 8259 §8.1); a syntax error is thrown as
 * `PATH:LINE:COL: reason`. Node 20 gives the place as "at position N" (UTF-16 units), or for a token it did
 * not expect quotes the text up to 10 characters each side of it (V8's JsonParser), `...` where cut.
 */
export function parseJsonFile(path: string, text: string): unknown {
  const json = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(json);
  } catch (error) {
    const reason = (error as Error).message;
    const quoted = /^Unexpected token '(.+?)', (\.{3})?"([^]*)"(\.{3})? is not valid JSON$/.exec(reason);
    const [, token = '', cutBefore, context = '', cutAfter] = quoted ?? [];
    const at = quoted === null ? Number(/at position (\d+)/.exec(reason)?.[1] ?? -1) : cutBefore !== undefined ? json.indexOf(context) + 10 : cutAfter !== undefined ? context.length - 10 : json.indexOf(token);
    const lines = json.slice(0, at).split('\n');
    throw new SyntaxError(`${path}${at < 0 ? '' : `:${lines.length}:${(lines.at(-1) as string).length + 1}`}: ${reason}`, { cause: error });
  }
}

/** A path as messages show it: relative to `cwd` when inside it, else as given (never `../../dev/null`). */
export function shownPath(path: string, cwd: string): string {
  const inside = pathInside(cwd, path);
  return inside === undefined || inside === '' ? path : inside;
}

const IO_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'a loop of symbolic links',
};

export function ioErrorReason(error: unknown): string {
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown };
  // Node decodes argv as UTF-8, with U+FFFD for bytes that are not: the file of such a name is never found.
  if (code === 'ENOENT' && typeof path === 'string' && path.includes('\uFFFD')) return 'its name is not valid UTF-8 (Node reads U+FFFD in its place); rename the file';
  if (typeof code === 'string' && Object.hasOwn(IO_REASONS, code)) return IO_REASONS[code] as string;
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0] ?? '';
}

/** The items of `source`, its own failures rethrown as `wrap(error)`; the source is closed on every way out. */
export async function* rethrowing<T>(source: AsyncIterable<T>, wrap: (error: unknown) => unknown): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let r: IteratorResult<T>;
      try {
        r = await it.next();
      } catch (error) {
        throw wrap(error);
      }
      if (r.done === true) return;
      yield r.value;
    }
  } finally {
    await it.return?.();
  }
}

/** What a run stopped by `signal` rejects with: `ERR_SITEMAP_ABORTED`, the signal's reason as its `cause`. */
export function abortedError(signal: AbortSignal): SitemapError {
  const reason: unknown = signal.reason;
  if (reason instanceof SitemapError && reason.code === 'ERR_SITEMAP_ABORTED') return reason;
  const error = new SitemapError('ERR_SITEMAP_ABORTED', `the run was stopped${reason instanceof Error ? `: ${reason.message}` : ''}`);
  error.cause = reason;
  return error;
}

/** Throws abortedError once `signal` is aborted: a long run's check between its steps. */
export function stopIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw abortedError(signal);
}

/** `error` as `ERR_SITEMAP_WRITE` "cannot write WHAT: reason" (its `cause`); a SitemapError passes as it is. */
export function writeError(error: unknown, what: string): SitemapError {
  if (error instanceof SitemapError) return error;
  const wrapped = new SitemapError('ERR_SITEMAP_WRITE', `cannot write ${what}: ${ioErrorReason(error)}`);
  wrapped.cause = error;
  return wrapped;
}
