// From a built site's files to the URLs they are served at (`a/index.html` at `a/`, `a/b.html` also at
// `a/b`). The form listed is the owner's choice (`--trailing-slash`, `--clean-urls`) and must be the
// one the site links to and declares canonical, or search engines see a redirect or a duplicate.

export type TrailingSlash = 'always' | 'never' | 'preserve';

export interface PagePathOptions {
  /**
   * `preserve` (default): a directory page (`a/index.html`) ends in `/`, a file page keeps its name.
   * `always`: every URL that names no file extension ends in `/` (`a/`, and `a/b/` with clean URLs).
   * `never`: no URL ends in `/` except the site root (`a`, `a/b`).
   */
  trailingSlash?: TrailingSlash;
  /** Drop `.html` / `.htm` from file pages (`a/b.html` → `a/b`). */
  cleanUrls?: boolean;
}

const HTML_EXTENSION = /\.html?$/i;
// Apache's DirectoryIndex and nginx's index match the name as written: `a/` serves no `a/INDEX.HTM`.
const INDEX_FILE = /^index\.html?$/;

/** Whether a file name is a page (`.html` or `.htm`, any case). */
export function isHtmlFile(name: string): boolean {
  return HTML_EXTENSION.test(name);
}

/**
 * The URL path, relative to the site's base URL and percent-encoded, of the page at `relPath`
 * (a `/`-separated path inside the built folder, such as `blog/post/index.html`). The site root is ''.
 */
export function pageUrlPath(relPath: string, options: PagePathOptions = {}): string {
  const mode = options.trailingSlash ?? 'preserve';
  const [listed, bare, folder] = pageUrlPathVariants(relPath);
  // A directory page is listed at its folder (the root at ''); `never` drops the slash, except the root's.
  if (listed === '' || listed.endsWith('/')) return mode === 'never' ? (folder ?? listed) : listed;
  if (options.cleanUrls !== true) return listed;
  return mode === 'always' ? `${bare}/` : bare;
}

/**
 * Every URL path (relative to the base, percent-encoded) a static host may serve the page at `relPath`
 * under, whatever the settings: does a canonical point at the page itself or at another page? A
 * directory page's are `a/`, `a/index.html`, `a` (the root's '', `index.html`); a file page's `a.html`, `a`, `a/`.
 */
export function pageUrlPathVariants(relPath: string): [string, string, string?] {
  const segments = relPath.split('/');
  const file = segments.pop() ?? '';
  const dir = segments.map(encodeSegment).join('/');
  const prefix = dir === '' ? '' : `${dir}/`;
  if (INDEX_FILE.test(file)) {
    return dir === '' ? [prefix, encodeSegment(file)] : [prefix, prefix + encodeSegment(file), dir];
  }
  const bare = prefix + encodeSegment(file.replace(HTML_EXTENSION, ''));
  return [prefix + encodeSegment(file), bare, `${bare}/`];
}

// A file name becomes one path segment: characters with a meaning in URLs (`?`, `#`, `%`, space)
// are escaped; RFC 3986 sub-delimiters and `:` / `@` may stand in a segment as they are.
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%(?:21|24|26|27|28|29|2A|2B|2C|3A|3B|3D|40)/g, (escape) =>
    String.fromCharCode(Number.parseInt(escape.slice(1), 16)),
  );
}
