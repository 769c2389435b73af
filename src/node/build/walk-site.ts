// The HTML pages of a built site's folder, in a stable order. Hidden entries (`.git`, `.sitemapkit`,
// `.well-known`) are not pages, and symbolic links to directories are not followed (a link back up
// the tree would never end); a symbolic link to a file is read like the file.

import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isHtmlFile } from '../../core/build/page-path.js';

export interface SitePage {
  /** `/`-separated path inside the site folder, e.g. `blog/post/index.html`. */
  relPath: string;
  /** Absolute (or cwd-relative) path on disk. */
  path: string;
  mtimeMs: number;
  size: number;
}

/** Every `.html` / `.htm` file under `root`, sorted by relPath (code-unit order). */
export async function walkSite(root: string): Promise<SitePage[]> {
  const pages: SitePage[] = [];
  await walk(root, '', pages);
  pages.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
  return pages;
}

async function walk(dir: string, relDir: string, pages: SitePage[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  const subdirs: [string, string][] = [];
  const files: [string, string][] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    const relPath = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
    if (entry.isDirectory()) subdirs.push([path, relPath]);
    else if (isHtmlFile(entry.name) && (entry.isFile() || entry.isSymbolicLink())) files.push([path, relPath]);
  }
  // stat in parallel within a directory: 100,000 pages one at a time would wait on each call.
  const stats = await Promise.all(files.map(([path]) => stat(path).catch(() => undefined)));
  files.forEach(([path, relPath], i) => {
    const info = stats[i];
    if (info?.isFile() === true) pages.push({ relPath, path, mtimeMs: info.mtimeMs, size: info.size });
  });
  for (const [path, relPath] of subdirs) await walk(path, relPath, pages);
}
