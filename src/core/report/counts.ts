// Bounded counters of the report (aggregate.ts): values past a cap are summed under one key, so a
// hostile set (a million distinct priorities, a path per URL) costs the cap, not a key per URL.

/** Counts by key, at most `cap` keys; the rest under `(other)`. */
export class CountMap {
  private readonly counts = new Map<string, number>();

  constructor(private readonly cap: number) {}

  add(key: string): void {
    const count = this.counts.get(key);
    if (count !== undefined) this.counts.set(key, count + 1);
    else if (this.counts.size < this.cap) this.counts.set(ownKey(key), 1);
    else this.counts.set(OTHER, (this.counts.get(OTHER) ?? 0) + 1);
  }

  has(key: string): boolean {
    return this.counts.has(key);
  }

  /** Whether a new key would go under `(other)`. */
  get full(): boolean {
    return this.counts.size >= this.cap;
  }

  entries(): [string, number][] {
    return [...this.counts];
  }
}

const OTHER = '(other)';
/** Distinct two-level prefixes counted; past it, a URL is counted under its first level. */
const MAX_PREFIXES = 4_096;

/** A key that holds nothing of the reader's text (a slice may keep a whole chunk alive in V8). */
function ownKey(key: string): string {
  return key.length > 0 ? (JSON.parse(JSON.stringify(key)) as string) : key;
}

/**
 * URLs per directory: the first one or two path segments of the directory a URL is in (`/` for
 * `/about`, `/blog/` for `/blog/post`, `/blog/2024/` for `/blog/2024/05/post`), with the host when
 * the set spans several. Past MAX_PREFIXES two-level prefixes a URL counts under its first level
 * (`/blog/…`), past as many of those under `(other)`.
 */
export class DirectoryCounts {
  private readonly twoLevels = new CountMap(MAX_PREFIXES);
  private readonly oneLevel = new CountMap(MAX_PREFIXES);
  private readonly hosts = new CountMap(2);

  add(loc: string): void {
    const scheme = loc.indexOf('://');
    const pathStart = scheme === -1 ? -1 : loc.indexOf('/', scheme + 3);
    const host = scheme === -1 ? '' : loc.slice(scheme + 3, pathStart === -1 ? loc.length : pathStart);
    this.hosts.add(host);
    const directory = directoryPrefix(loc, pathStart);
    const key = `${host}${directory}`;
    if (this.twoLevels.has(key) || !this.twoLevels.full) this.twoLevels.add(key);
    else this.oneLevel.add(`${host}${directory.slice(0, directory.indexOf('/', 1) + 1)}\u2026`);
  }

  /** The largest `rows` prefixes, largest first; the rest summed in a last `(other)` row. */
  top(rows: number): { prefix: string; urls: number }[] {
    const hosts = this.hosts.entries();
    const single = hosts.length === 1 ? (hosts[0] as [string, number])[0] : undefined;
    // One host: the path alone; several: `//host/path/`.
    const shown = (key: string): string => (key === OTHER ? key : single !== undefined ? key.slice(single.length) : `//${key}`);
    const all = [...this.twoLevels.entries(), ...this.oneLevel.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const top = all.slice(0, all.length > rows ? rows - 1 : rows).map(([key, urls]) => ({ prefix: shown(key), urls }));
    const rest = all.slice(top.length).reduce((total, [, urls]) => total + urls, 0);
    if (rest > 0) top.push({ prefix: OTHER, urls: rest });
    return top;
  }
}

/** The first one or two segments of the directory of the URL whose path starts at `pathStart`. */
function directoryPrefix(loc: string, pathStart: number): string {
  if (pathStart === -1) return '/';
  let end = loc.length;
  for (let i = pathStart; i < loc.length; i++) {
    const c = loc.charCodeAt(i);
    if (c === 0x3f || c === 0x23) {
      end = i;
      break;
    }
  }
  const first = loc.indexOf('/', pathStart + 1);
  if (first === -1 || first >= end) return '/';
  const second = loc.indexOf('/', first + 1);
  return loc.slice(pathStart, second === -1 || second >= end ? first + 1 : second + 1);
}
