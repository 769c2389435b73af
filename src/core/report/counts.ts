// Bounded counters of the report (aggregate.ts): values past a cap are summed under one key, so a
// hostile set (a million distinct priorities, a path per URL) costs the cap, not a key per URL.

/** Counts by key, at most `cap` keys; the rest under `(other)`. */
export class CountMap<K extends string | number = string> {
  private readonly counts = new Map<K | typeof OTHER, number>();

  constructor(private readonly cap: number) {}

  /** Counts `key`, under `(other)` once `cap` keys are taken. */
  add(key: K): void {
    if (!this.addIfRoom(key)) this.counts.set(OTHER, (this.counts.get(OTHER) ?? 0) + 1);
  }

  /** Counts `key` when it has a count or there is room for one; false (nothing counted) else. */
  addIfRoom(key: K): boolean {
    const count = this.counts.get(key);
    if (count !== undefined) this.counts.set(key, count + 1);
    else if (this.counts.size < this.cap) this.counts.set(typeof key === 'string' ? (own(key) as K) : key, 1);
    else return false;
    return true;
  }

  entries(): [K | typeof OTHER, number][] {
    return [...this.counts];
  }
}

const OTHER = '(other)' as const;
/** Distinct two-level prefixes counted; past it, a URL is counted under its first level. */
const MAX_PREFIXES = 4_096;

/** A copy that holds nothing of the reader's text (a slice may keep a whole chunk alive in V8). */
export function own(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/**
 * URLs per directory (its first one or two path segments, with the host when the set spans several).
 * Past MAX_PREFIXES two-level prefixes a URL counts under its first level, then under `(other)`.
 */
export class DirectoryCounts {
  /** Keys: host and directory of the comparable URL (`www.example.com/blog/`), one slice of it. */
  private readonly twoLevels = new CountMap(MAX_PREFIXES);
  private readonly oneLevel = new CountMap(MAX_PREFIXES);
  /** Each key as the first URL counted under it spells it: the text of its rows, which the page's filter finds. */
  private readonly spellings = new Map<string, string>();
  private readonly hosts = new Set<string>();

  /** Counts `url` (a loc's comparableUrl: one URL spelt two ways is one) under its prefix; `loc` as written. */
  add(url: string, loc: string): void {
    const two = prefix(url, true);
    const key = this.twoLevels.addIfRoom(two) ? two : prefix(url, false);
    if (key !== two && !this.oneLevel.addIfRoom(key)) return this.oneLevel.add(OTHER);
    if (this.spellings.has(key)) return;
    // A key counted for the first time; a new host comes with one.
    this.spellings.set(own(key), own(prefix(loc, key === two)));
    if (this.hosts.size < 2) this.hosts.add(own(key.slice(0, key.search(/[/\u2026]/))));
  }

  /** The largest `rows` prefixes, largest first; the rest summed in a last `(other)` row. */
  top(rows: number): { prefix: string; urls: number }[] {
    const single = this.hosts.size === 1;
    // One host: the path alone; several: `//host/path/`.
    const shown = (spelt: string): string => (single ? spelt.slice(spelt.search(/[/\u2026]/)) : `//${spelt}`);
    const all = [...this.twoLevels.entries(), ...this.oneLevel.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const named = all.filter(([key]) => key !== OTHER);
    const top = named.slice(0, all.length > rows ? rows - 1 : rows).map(([key, urls]) => ({ prefix: shown(this.spellings.get(key) as string), urls }));
    // What is not shown, and what was counted under no prefix, is one last row.
    const rest = all.reduce((total, [, urls]) => total + urls, 0) - top.reduce((total, row) => total + row.urls, 0);
    if (rest > 0) top.push({ prefix: OTHER, urls: rest });
    return top;
  }
}

/**
 * The host and directory of `loc`, to its path's second segment (`host/` for `/about`, `host/blog/` for
 * `/blog/post`, `host/blog/2024/` for `/blog/2024/05/post`) or its first (`host/blog/…`); the query and
 * fragment are not path, nor host (RFC 3986 §3.2: `https://e.com?x` is in e.com's root).
 */
function prefix(loc: string, twoLevels: boolean): string {
  const scheme = loc.indexOf('://');
  const hostStart = scheme === -1 ? 0 : scheme + 3;
  let end = scheme === -1 ? loc.length : hostStart;
  while (end < loc.length && loc.charCodeAt(end) !== 0x3f && loc.charCodeAt(end) !== 0x23) end++;
  const pathStart = loc.indexOf('/', hostStart);
  if (scheme === -1 || pathStart === -1 || pathStart >= end) return `${loc.slice(hostStart, end)}${twoLevels ? '/' : '\u2026'}`;
  const first = loc.indexOf('/', pathStart + 1);
  const firstEnd = first === -1 || first >= end ? pathStart + 1 : first + 1;
  if (!twoLevels) return `${loc.slice(hostStart, firstEnd)}\u2026`;
  const second = firstEnd === pathStart + 1 ? -1 : loc.indexOf('/', firstEnd);
  return loc.slice(hostStart, second === -1 || second >= end ? firstEnd : second + 1);
}
