// Where the child sitemaps an index lists sit on disk, relative to the index's file (`validate
// --follow`, `diff` of a set on disk).

import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The local file of a child URL listed by the index at `indexPath`, served at `indexUrl` or else at the
 * site's root (`https://example.com/en/sitemap.xml` listed by public/sitemap.xml is public/en/sitemap.xml).
 * Undefined for a child outside the index's directory; `unnamable` when its path cannot name a file.
 */
export function localChildPath(indexPath: string, indexUrl: string | undefined, loc: string): { path: string } | { unnamable: string } | undefined {
  let url: URL;
  let base: URL;
  try {
    url = new URL(loc);
    base = indexUrl !== undefined ? new URL(indexUrl) : new URL('/', url);
  } catch {
    return undefined;
  }
  if (url.origin !== base.origin) return undefined;
  const directory = base.pathname.slice(0, base.pathname.lastIndexOf('/') + 1);
  if (!url.pathname.startsWith(directory)) return undefined;
  if (url.pathname.endsWith('/')) return { unnamable: 'its path names a directory' };
  const segments: string[] = [];
  // The URL parser has already resolved dot segments (`%2e%2e` included): what is left stays below the directory.
  for (const raw of url.pathname.slice(directory.length).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { unnamable: `its path segment ${JSON.stringify(raw)} is not valid percent-encoding` };
    }
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) return { unnamable: `its path segment ${JSON.stringify(raw)} cannot be a file name` };
    segments.push(segment);
  }
  return { path: resolve(dirname(indexPath), ...segments) };
}

/** Whether `path` is a regular file (false when it is missing or cannot be read). */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
