// The HTML pages of a built site's folder, in a stable order; hidden entries are not pages. A symbolic
// link is followed as nginx does, unless its folder is walked already or holds the site (a loop).

import { readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { SitemapError } from '../../core/errors.js';
import { isHtmlFile } from '../../core/build/page-path.js';
import { ioErrorReason } from '../io-errors.js';

export interface SitePage {
  /** `/`-separated path inside the site folder, e.g. `blog/post/index.html`. */
  relPath: string;
  /** Absolute (or cwd-relative) path on disk. */
  path: string;
  mtimeMs: number;
  size: number;
}

export interface SiteWalk {
  /** Every `.html` / `.htm` file, sorted by relPath (code-unit order). */
  pages: SitePage[];
  /** Pages and folders (`d\xFF/`) whose name is not UTF-8 (so their URL is unknown), bytes escaped; not walked. */
  notUtf8: string[];
}

export async function walkSite(root: string): Promise<SiteWalk> {
  const found: SiteWalk = { pages: [], notUtf8: [] };
  const walked = new Set<string>();
  const links: [string, string][] = [];
  await walk(root, '', found, walked, links);
  // Links last, so that a folder reached both ways is listed where it is; a linked folder may add more.
  const site = await realpath(root);
  for (let i = 0; i < links.length; i++) {
    const [path, relPath] = links[i] as [string, string];
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined || walked.has(real) || `${site}${sep}`.startsWith(`${real}${sep}`)) continue;
    if ((await stat(real)).isDirectory()) await walk(path, relPath, found, walked, links);
  }
  found.pages.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
  return found;
}

async function walk(dir: string, relDir: string, found: SiteWalk, walked: Set<string>, links: [string, string][]): Promise<void> {
  const real = await realpath(dir).catch(() => dir);
  if (walked.has(real)) return;
  walked.add(real);
  // A folder that cannot be read stops the build: its pages would otherwise count as gone.
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    throw new SitemapError('ERR_SITEMAP_INPUT', `cannot read the folder ${dir}: ${ioErrorReason(error)}`);
  });
  const subdirs: [string, string][] = [];
  const files: [string, string][] = [];
  const relPathOf = (name: string): string => (relDir === '' ? name : `${relDir}/${name}`);
  // Node decodes a name that is not UTF-8 with U+FFFD in place of its bad bytes: such a name opens nothing.
  const notUtf8 = entries.some((entry) => entry.name.includes('\uFFFD')) ? await namesNotUtf8(dir) : new Map<string, string[]>();
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const escaped = notUtf8.get(entry.name)?.shift();
    const page = isHtmlFile(entry.name) && (entry.isFile() || entry.isSymbolicLink());
    if (escaped !== undefined) {
      if (entry.isDirectory()) found.notUtf8.push(`${relPathOf(escaped)}/`);
      else if (page) found.notUtf8.push(relPathOf(escaped));
    } else if (entry.isDirectory()) subdirs.push([join(dir, entry.name), relPathOf(entry.name)]);
    else if (page) files.push([join(dir, entry.name), relPathOf(entry.name)]);
    else if (entry.isSymbolicLink()) links.push([join(dir, entry.name), relPathOf(entry.name)]);
  }
  // stat in parallel within a directory: 100,000 pages one at a time would wait on each call.
  const stats = await Promise.all(files.map(([path]) => stat(path).catch(() => undefined)));
  files.forEach(([path, relPath], i) => {
    const info = stats[i];
    // A link to nothing (or to a link loop) is a page that cannot be read: reading it says why.
    if (info === undefined) found.pages.push({ relPath, path, mtimeMs: 0, size: 0 });
    else if (info.isFile()) found.pages.push({ relPath, path, mtimeMs: info.mtimeMs, size: info.size });
  });
  for (const [path, relPath] of subdirs) await walk(path, relPath, found, walked, links);
}

/** The names in `dir` that are not UTF-8: by the name Node decodes them to, each with its bytes escaped, `\xE9`. */
async function namesNotUtf8(dir: string): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  for (const raw of await readdir(dir, { encoding: 'buffer' })) {
    const decoded = raw.toString('utf8');
    if (Buffer.from(decoded).equals(raw)) continue;
    const escaped = [...raw].map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
    names.set(decoded, [...(names.get(decoded) ?? []), escaped]);
  }
  return names;
}
