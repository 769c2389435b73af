// A set generated on request from a live source (issue 25): the caller says how many entries there
// are and gives them by range (a database page); the set is laid out in children of `maxUrls` entries
// (`NAME-00001.xml.gz`, child k holding entries (k-1)·maxUrls … k·maxUrls-1), a child is made when it
// is asked for, and the index lists each child with its newest <lastmod>.
//
// Made files go to a cache: fresh for `ttlMs`, then served stale for `staleMs` more while one new
// generation runs; one generation per file at a time however many requests wait for it. A generation
// that fails leaves the cache as it was: the stale copy is served if there is one, else the request
// fails (the handler answers 503 with Retry-After); so does one slower than `timeoutMs` (the
// generation goes on and fills the cache).

import { LIMITS_PROFILES, type Limits, type UrlEntry } from '../model.js';
import { InvalidValueError, SitemapError } from '../errors.js';
import { SitemapSetWriter, type SitemapFileInfo } from '../write/sitemap-set-writer.js';
import { serializeSitemapIndex } from '../write/sitemap-index.js';
import { numberedStem } from '../write/child-names.js';
import { scopeOf } from '../url.js';
import { streamOf, strongEtag, type SitemapFile, type SitemapSource } from './handler.js';

/** A made file as the cache keeps it. */
export interface CachedFile extends SitemapFile {
  /** When it was made (epoch milliseconds): its age decides fresh, stale or expired. */
  readonly madeAt: number;
  /** The newest lastmod of a child's entries, for the index. */
  readonly lastmod?: string;
}

/** Where made files are kept between requests: memoryStore here, a directory store in the Node entry. */
export interface CacheStore {
  get(key: string): CachedFile | undefined | Promise<CachedFile | undefined>;
  set(key: string, file: CachedFile): void | Promise<void>;
}

export interface LiveSourceOptions {
  /** Where the set is served (`https://www.example.com/`): the index lists its children under it. */
  baseUrl: string;
  /** How many entries there are, or an estimate: the index lists ceil(count / maxUrls) children. */
  count: () => number | Promise<number>;
  /** The entries from `offset`, `limit` at most (a database page). */
  range?: (page: { offset: number; limit: number }) => Iterable<UrlEntry> | AsyncIterable<UrlEntry> | Promise<Iterable<UrlEntry>>;
  /** Or every entry in a stable order: a child skips to its first entry. */
  entries?: () => Iterable<UrlEntry> | AsyncIterable<UrlEntry>;
  /** File names: NAME.xml, NAME-00001.xml.gz… (default `sitemap`). */
  name?: string;
  /** Entries per child (default and most: 50,000). A child over the byte limit fails: lower this. */
  maxUrls?: number;
  /** How long a made file is fresh, in milliseconds (default 10 minutes). */
  ttlMs?: number;
  /** How long after that it is still served while a new one is made (default one hour). */
  staleMs?: number;
  /**
   * How long a request waits for a generation: then the stale copy, or a failure (503). Needs `sleep`,
   * the core having no timers: `import { setTimeout as sleep } from 'node:timers/promises'`.
   */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<unknown>;
  /** The cache (default: memoryStore with 64 MiB). */
  store?: CacheStore;
  /** An entry the writer refuses is left out and reported here. */
  onInvalid?: (error: InvalidValueError, entry: UrlEntry) => void;
  /** A generation that failed (the request got the stale copy or a failure). */
  onError?: (error: unknown, name: string) => void;
  /** The clock (tests). */
  now?: () => number;
}

/** A bounded cache in memory: the least recently used files go first once `maxBytes` is exceeded. */
export function memoryStore(maxBytes = 64 * 1024 * 1024): CacheStore & { readonly bytes: number } {
  const files = new Map<string, CachedFile>();
  let bytes = 0;
  const sizeOf = (file: CachedFile): number => (file.identity?.body.byteLength ?? 0) + (file.gzip?.body.byteLength ?? 0);
  return {
    get bytes() {
      return bytes;
    },
    get(key) {
      const file = files.get(key);
      if (file !== undefined) {
        files.delete(key);
        files.set(key, file);
      }
      return file;
    },
    set(key, file) {
      const old = files.get(key);
      if (old !== undefined) bytes -= sizeOf(old);
      files.delete(key);
      if (sizeOf(file) > maxBytes) return;
      files.set(key, file);
      bytes += sizeOf(file);
      for (const [oldest, value] of files) {
        if (bytes <= maxBytes) break;
        files.delete(oldest);
        bytes -= sizeOf(value);
      }
    },
  };
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function liveSource(options: LiveSourceOptions): SitemapSource {
  const name = options.name ?? 'sitemap';
  if (!SAFE_NAME.test(name)) throw new SitemapError('ERR_SITEMAP_OPTION', `name ${JSON.stringify(name)} must be a plain file name such as "sitemap"`);
  if (options.range === undefined && options.entries === undefined) throw new SitemapError('ERR_SITEMAP_OPTION', 'a live source needs range or entries');
  const limits: Limits = { ...LIMITS_PROFILES.current };
  const perChild = Math.min(options.maxUrls ?? limits.maxUrlsPerSitemap, limits.maxUrlsPerSitemap);
  if (!Number.isInteger(perChild) || perChild < 1) throw new SitemapError('ERR_SITEMAP_OPTION', `maxUrls must be a whole number from 1 to ${limits.maxUrlsPerSitemap}`);
  limits.maxUrlsPerSitemap = perChild;
  const scope = scopeOf(options.baseUrl);
  const cached = fileCache(options.store ?? memoryStore(), options);
  const now = options.now ?? Date.now;
  const childPattern = new RegExp(`^${name.replace(/[.]/g, '\\.')}-(\\d{5,})\\.xml\\.gz$`);

  const childCount = async (): Promise<number> => {
    const count = await options.count();
    return Math.max(1, Math.ceil(count / perChild));
  };

  const child = (k: number): Promise<CachedFile | undefined> =>
    cached(childName(k), async () => {
      const made = await writeChild(entriesOf(options, (k - 1) * perChild, perChild), { limits, baseUrl: scope.href, scope }, options.onInvalid);
      if (made === undefined) return undefined;
      const gzip = await gzipped(made.xml);
      return { madeAt: now(), lastModified: now(), gzip: { body: gzip, etag: await strongEtag(gzip) }, ...(made.info.lastmod !== undefined ? { lastmod: made.info.lastmod } : {}) };
    });

  const childName = (k: number): string => `${numberedStem(name, k - 1)}.xml.gz`;

  const index = (): Promise<CachedFile | undefined> =>
    cached(`${name}.xml`, async () => {
      const refs = [];
      const n = await childCount();
      for (let k = 1; k <= n; k++) {
        const file = await child(k);
        if (file === undefined) continue;
        refs.push({ loc: scope.prefix + childName(k), ...(file.lastmod !== undefined ? { lastmod: file.lastmod } : {}) });
      }
      const xml = new TextEncoder().encode(serializeSitemapIndex(refs, { limits }));
      const gzip = await gzipped(xml);
      return { madeAt: now(), lastModified: now(), identity: { body: xml, etag: await strongEtag(xml) }, gzip: { body: gzip, etag: await strongEtag(gzip) } };
    });

  return {
    async file(requested) {
      if (requested === `${name}.xml`) return index();
      const match = childPattern.exec(requested);
      if (match === null || requested !== childName(Number(match[1]))) return undefined;
      const k = Number(match[1]);
      if (k < 1 || k > (await childCount())) return undefined;
      return child(k);
    },
  };
}

type Make = () => Promise<CachedFile | undefined>;

/**
 * `cached(key, make)`: the file from `store` while fresh or stale (then made again in the background),
 * else made now, waiting `timeoutMs` at most (when a `sleep` is given). One `make` per key at a time;
 * a file made is stored, a failure stores nothing.
 */
function fileCache(store: CacheStore, options: LiveSourceOptions): (key: string, make: Make) => Promise<CachedFile | undefined> {
  const ttl = options.ttlMs ?? 600_000;
  const stale = options.staleMs ?? 3_600_000;
  const { timeoutMs, sleep } = options;
  const now = options.now ?? Date.now;
  const running = new Map<string, Promise<CachedFile | undefined>>();

  const generate = (key: string, make: Make): Promise<CachedFile | undefined> => {
    let run = running.get(key);
    if (run === undefined) {
      run = (async () => {
        try {
          const file = await make();
          if (file !== undefined) await store.set(key, keepLastModified(file, await store.get(key)));
          return file;
        } finally {
          running.delete(key);
        }
      })();
      running.set(key, run);
    }
    return run;
  };

  return async (key, make) => {
    const copy = await store.get(key);
    const age = copy === undefined ? Infinity : now() - copy.madeAt;
    if (copy !== undefined && age < ttl) return copy;
    const run = generate(key, make);
    if (copy !== undefined && age < ttl + stale) {
      // Stale while revalidating: this request does not wait.
      run.catch((error: unknown) => options.onError?.(error, key));
      return copy;
    }
    try {
      return await (timeoutMs === undefined || sleep === undefined ? run : withTimeout(run, timeoutMs, sleep));
    } catch (error) {
      options.onError?.(error, key);
      if (copy !== undefined) return copy;
      throw error;
    }
  };
}

/** The entries of one child: a page of `range`, or `entries` from `offset`. */
async function* entriesOf(options: LiveSourceOptions, offset: number, limit: number): AsyncGenerator<UrlEntry> {
  if (options.range !== undefined) {
    let taken = 0;
    // A database page is naturally `async ({ offset, limit }) => rows`: a promise of the entries.
    for await (const entry of await options.range({ offset, limit })) {
      if (taken++ >= limit) break;
      yield entry;
    }
    return;
  }
  let position = 0;
  for await (const entry of (options.entries as () => Iterable<UrlEntry> | AsyncIterable<UrlEntry>)()) {
    if (position >= offset + limit) break;
    if (position++ >= offset) yield entry;
  }
}

/** One urlset of the entries; undefined when none was written (no such child: 404). */
async function writeChild(
  entries: AsyncIterable<UrlEntry>,
  options: { limits: Limits; baseUrl: string; scope: ReturnType<typeof scopeOf> },
  onInvalid: LiveSourceOptions['onInvalid'],
): Promise<{ xml: Uint8Array; info: SitemapFileInfo } | undefined> {
  const chunks: Uint8Array[] = [];
  let info: SitemapFileInfo | undefined;
  const writer = new SitemapSetWriter({ open() {}, write: (bytes) => chunks.push(bytes.slice()), close: (done) => (info = done) }, { ...options, maxFiles: 1 });
  for await (const entry of entries) {
    try {
      writer.add(entry);
    } catch (error) {
      if (!(error instanceof InvalidValueError) || onInvalid === undefined) throw error;
      onInvalid(error, entry);
    }
  }
  writer.end();
  if (info === undefined || info.urls === 0) return undefined;
  const xml = new Uint8Array(info.bytes);
  let at = 0;
  for (const chunk of chunks) {
    xml.set(chunk, at);
    at += chunk.byteLength;
  }
  return { xml, info };
}

/** Last-Modified is when the bytes changed: a file made again alike keeps the earlier time. */
function keepLastModified(file: CachedFile, previous: CachedFile | undefined): CachedFile {
  const tag = (f: CachedFile): string | undefined => (f.identity ?? f.gzip)?.etag;
  return previous !== undefined && tag(previous) === tag(file) ? { ...file, lastModified: previous.lastModified } : file;
}

async function gzipped(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(streamOf(bytes).pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
}

/** `promise`, or a rejection once `sleep(ms)` has resolved first. */
function withTimeout<T>(promise: Promise<T>, ms: number, sleep: (ms: number) => Promise<unknown>): Promise<T> {
  const late = sleep(ms).then(() => {
    throw new SitemapError('ERR_SITEMAP_TIMEOUT', `the live source took more than ${ms} ms`);
  });
  return Promise.race([promise, late]);
}
