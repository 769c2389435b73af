// A set generated on request from a live source (issue 25): child k (`NAME-0000k.xml.gz`) holds
// entries (k-1)·maxUrls … k·maxUrls-1 and is made when asked for, streamed from its first gzip bytes
// (without ETag or Content-Length, which later cached answers have). Made files are fresh for `ttlMs`,
// then served stale for `staleMs` while one new generation runs. A failed generation leaves the cache
// as it was (stale copy, else 503); one failing mid-stream cuts the body, never a complete-looking wrong one.

import { LIMITS_PROFILES, type Limits, type UrlEntry } from '../model.js';
import { InvalidValueError, SitemapError, checkCount, plural } from '../errors.js';
import { SitemapSetWriter, type SitemapFileInfo } from '../write/sitemap-set-writer.js';
import { serializeSitemapIndex } from '../write/sitemap-index.js';
import { numberedStem } from '../write/child-names.js';
import { scopeOf } from '../url.js';
import { SAFE_NAME, streamOf, strongEtag, type Representation, type SitemapFile, type SitemapSource } from './handler.js';
import { viewOfFiles, type SetView } from './set-page.js';

/**
 * `limit` entries from position `offset` of a stable order. `after`, once the previous child was made
 * in this process, is its last entry: a keyset cursor (`WHERE key > $after`) instead of an OFFSET.
 * `until`, once this child was made full, is the last entry it had then (`AND key <= $until`): rows
 * deleted below it leave it short rather than pull the next child's first rows in (a URL in two children).
 */
export interface LivePage {
  readonly offset: number;
  readonly limit: number;
  readonly after?: UrlEntry;
  readonly until?: UrlEntry;
}

/** A made file as the cache keeps it: its bytes at hand. */
export interface CachedFile extends SitemapFile {
  readonly identity?: Representation;
  readonly gzip?: Representation;
  /** When it was made (epoch milliseconds): its age decides fresh, stale or expired. */
  readonly madeAt: number;
  /** The newest lastmod of a child's entries, for the index. */
  readonly lastmod?: string;
  /** How many URLs a child holds, for the page for people. */
  readonly urls?: number;
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
  /** The entries of a page, `limit` at most (a child): from `offset`, or (a keyset cursor) after `after` when it is given. */
  range?: (page: LivePage) => Iterable<UrlEntry> | AsyncIterable<UrlEntry> | Promise<Iterable<UrlEntry>>;
  /** Or every entry in a stable order: a child skips to its first entry. */
  entries?: () => Iterable<UrlEntry> | AsyncIterable<UrlEntry>;
  /** File names: NAME.xml, NAME-00001.xml.gz… (default `sitemap`). */
  name?: string;
  /** Entries per child (default and most: 50,000). */
  maxUrls?: number;
  /** Bytes per child, uncompressed (default and most: 52,428,800). A child over it fails (503); lower maxUrls. */
  maxBytes?: number;
  /** How long a made file is fresh, in milliseconds (default 10 minutes). */
  ttlMs?: number;
  /** How long after that it is still served while a new one is made (default one hour). */
  staleMs?: number;
  /** How long a request waits in all, then the stale copy or 503. Needs `sleep` (the core has no timers). */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<unknown>;
  /** The cache (default: memoryStore with 64 MiB). */
  store?: CacheStore;
  /** An entry the writer refuses is left out of its child and reported here; else onError hears a count per child. */
  onInvalid?: (error: InvalidValueError, entry: UrlEntry) => void;
  /** A generation that failed (the request got the stale copy or a failure), or entries left out of a child (see onInvalid). */
  onError?: (error: unknown, name: string) => void;
  /** URLs listed on the page for people (default 10,000; every URL is counted). */
  pageUrls?: number;
  /** The clock (tests). */
  now?: () => number;
}

type Settled = LiveSourceOptions & Required<Pick<LiveSourceOptions, 'now' | 'ttlMs'>>;

/** A bounded cache in memory: the least recently used files go first once `maxBytes` is exceeded. */
export function memoryStore(maxBytes = 64 * 1024 * 1024): CacheStore & { readonly bytes: number } {
  checkCount('maxBytes', maxBytes, 0);
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

// eslint-disable-next-line max-lines-per-function -- a closure factory: children, index and page share the cache, the cursors and the children found
export function liveSource(options: LiveSourceOptions): SitemapSource {
  const name = options.name ?? 'sitemap';
  if (!SAFE_NAME.test(name)) throw new SitemapError('ERR_SITEMAP_OPTION', `name ${JSON.stringify(name)} must be a plain file name such as "sitemap"`);
  if (options.range === undefined && options.entries === undefined) throw new SitemapError('ERR_SITEMAP_OPTION', 'a live source needs range or entries');
  for (const [option, least] of [['ttlMs', 1], ['staleMs', 0], ['timeoutMs', 1], ['pageUrls', 0], ['maxUrls', 1], ['maxBytes', 1]] as const) checkCount(option, options[option], least);
  if (options.timeoutMs !== undefined && options.sleep === undefined) throw new SitemapError('ERR_SITEMAP_OPTION', "timeoutMs needs sleep, the core having no timers: import { setTimeout as sleep } from 'node:timers/promises'");
  // A child's limits: the protocol's, or the lower maxUrls and maxBytes given (a higher one is the protocol's).
  const { current } = LIMITS_PROFILES;
  const limits: Limits = { ...current, maxUrlsPerSitemap: Math.min(options.maxUrls ?? Infinity, current.maxUrlsPerSitemap), maxBytesPerSitemap: Math.min(options.maxBytes ?? Infinity, current.maxBytesPerSitemap) };
  const perChild = limits.maxUrlsPerSitemap;
  const scope = scopeOf(options.baseUrl);
  // Every failure reaches onError once, however many parts it passes.
  const reported = new WeakSet<object>();
  const onError = (error: unknown, key: string): void => {
    if (error instanceof Object && reported.has(error)) return;
    if (error instanceof Object) reported.add(error);
    try {
      options.onError?.(error, key);
    } catch {
      // A logger that throws changes no answer.
    }
  };
  const settled: Settled = { ...options, onError, now: options.now ?? Date.now, ttlMs: options.ttlMs ?? 600_000 };
  const { now, ttlMs: ttl } = settled;
  const cached = fileCache(options.store ?? memoryStore(), settled);
  const childCount = childCounter(settled, perChild, `${name}.xml`);
  // Where each child made ends (the next one's LivePage.after, its own until once it was full), and how many it was given.
  const lastEntries = new Map<number, { entry: UrlEntry; given: number }>();
  // Children the index found beyond the count (an estimate too low).
  let found = 0;
  const childName = (k: number): string => `${numberedStem(name, k - 1)}.xml.gz`;

  /** Child k: whole, or (`streamed`, for a request) as soon as its first bytes are made. */
  const child = (k: number, wait = waiter(settled), streamed = false): Promise<SitemapFile | undefined> =>
    cached(
      childName(k),
      wait,
      async (out, givenUp) => {
        // Taken before reading, so no streamed response claims a later Last-Modified than the cached copy.
        const started = now();
        let leftOut = 0;
        let first: InvalidValueError | undefined;
        const onInvalid = options.onInvalid ?? ((error: InvalidValueError): void => {
          first ??= error;
          leftOut++;
        });
        const [before, cut] = [lastEntries.get(k - 1), lastEntries.get(k)];
        const page = { offset: (k - 1) * perChild, limit: perChild, ...(before !== undefined ? { after: before.entry } : {}), ...(cut?.given === perChild ? { until: cut.entry } : {}) };
        let last: { entry: UrlEntry; given: number } | undefined;
        const info = await writeChild(entriesOf(options, page, (entry) => (last = { entry, given: (last?.given ?? 0) + 1 })), { limits, baseUrl: scope.href, scope }, onInvalid, out);
        if (first !== undefined) {
          const message = `${plural(leftOut, 'entry', 'entries')} left out of ${childName(k)} (give onInvalid to have each); the first: ${first.message}`;
          onError(new InvalidValueError(first.rule, first.field, first.value, message), childName(k));
        }
        // A generation given up is older than the one after it: its cursor is not the next child's. A child full is
        // cut where it ends; cut anew when full again (rows inserted below its end, or a source that ignores until).
        if (last !== undefined && !givenUp() && (last.given === perChild || cut?.given !== perChild)) lastEntries.set(k, last);
        if (info === undefined) return undefined;
        const gzip = new Uint8Array(await new Response(out.stream()).arrayBuffer());
        return { madeAt: now(), lastModified: started, gzip: { body: gzip, etag: await strongEtag(gzip) }, urls: info.urls, lastmod: info.lastmod };
      },
      streamed,
    );

  /**
   * Every child with entries, in order: as many as the count says, and more while the last is full (a
   * low estimate loses no entry). A failed child within the count is listed without a file.
   */
  const children = async (wait?: Wait): Promise<{ made: { name: string; file?: CachedFile }[]; failures: unknown[] }> => {
    const made: { name: string; file?: CachedFile }[] = [];
    const failures: unknown[] = [];
    let full = false;
    for (let k = 1, n = await childCount(); (k <= n || full) && k <= limits.maxSitemapsPerIndex; k++) {
      let file: CachedFile | undefined;
      try {
        file = (await child(k, wait)) as CachedFile | undefined;
      } catch (error) {
        failures.push(error);
        if (k <= n) made.push({ name: childName(k) });
        full = false;
        continue;
      }
      full = file !== undefined && (lastEntries.get(k)?.given ?? file.urls) === perChild;
      if (file === undefined) continue;
      made.push({ name: childName(k), file });
      found = Math.max(found, k);
    }
    return { made, failures };
  };

  // A failed child stays listed without a lastmod and answers 503 itself: leaving it out would tell a
  // crawler those URLs are gone. Such an index is made stale at once, to be made again next request.
  const index = (wait = waiter(settled)): Promise<SitemapFile | undefined> =>
    cached(`${name}.xml`, wait, async () => {
      const { made, failures } = await children();
      // No entry at all: a 404 (an index lists one sitemap at least), not a 503.
      if (made.length === 0) return undefined;
      const refs = made.map(({ name, file }) => ({ loc: scope.prefix + name, lastmod: file?.lastmod }));
      const xml = new TextEncoder().encode(serializeSitemapIndex(refs, { limits }));
      const gzip = new Uint8Array(await new Response(streamOf(xml).pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
      const madeAt = failures.length > 0 ? now() - ttl : now();
      return { madeAt, lastModified: now(), identity: { body: xml, etag: await strongEtag(xml) }, gzip: { body: gzip, etag: await strongEtag(gzip) } };
    });

  // The page for people (set-page.ts), made once per version of the index.
  let shown: { etag: string; view: Promise<SetView> } | undefined;
  return {
    async view() {
      // One wait for the request: the index, and the children it lists when the page is made.
      const wait = waiter(settled);
      const made = (await index(wait)) as CachedFile | undefined;
      const etag = made?.identity?.etag;
      if (made === undefined || etag === undefined) return undefined;
      if (shown?.etag !== etag) {
        // With a child failing the page is not shown (503), and made again next time.
        const view = children(wait).then(({ made: list, failures }) => {
          if (failures.length > 0) throw failures[0];
          const files = (list as { name: string; file: CachedFile }[]).map(({ name, file }) => ({ name, file, urls: file.urls ?? 0, lastmod: file.lastmod }));
          return viewOfFiles(made.lastModified, files, options.pageUrls ?? 10_000);
        });
        view.catch(() => shown?.view === view && (shown = undefined));
        shown = { etag, view };
      }
      return shown.view;
    },
    async file(requested) {
      if (requested === `${name}.xml`) return index();
      // Child k by its own name only (NAME-00001.xml.gz), no other spelling of k.
      const k = Number(requested.slice(name.length + 1, -'.xml.gz'.length));
      if (requested !== childName(k)) return undefined;
      const wait = waiter(settled);
      // A count known is no wait (no timer left running for each request).
      const count = childCount();
      if (k < 1 || k > Math.max(found, typeof count === 'number' ? count : await wait(count, requested))) return undefined;
      return child(k, wait, true);
    },
  };
}

/** The child count, asked at most once a TTL; meanwhile, and when a count fails, the last one known. */
function childCounter(options: Settled, perChild: number, indexName: string): () => number | Promise<number> {
  const { now, ttlMs: ttl } = options;
  let known: { children: number; at: number } | undefined;
  const counting = oneAtATime<{ result: Promise<number> }>(options, 'count');
  const ask = async (): Promise<number> => {
    try {
      // A database count may come as a string or BigInt; a row instead of its value, or Infinity, is refused.
      const given: unknown = await options.count();
      const count = Number(given);
      if (!(count >= 0 && count < Infinity)) throw new SitemapError('ERR_SITEMAP_OPTION', `count() gave ${given instanceof Object ? 'an object' : JSON.stringify(String(given))}, not a number of entries`);
      known = { children: Math.max(1, Math.ceil(count / perChild)), at: now() };
    } catch (error) {
      // Reported here: a child asked for while none is known fails on it (503), and no generation reports that.
      options.onError?.(error, indexName);
      if (known === undefined) throw error;
      known = { ...known, at: now() };
    }
    return known.children;
  };
  return () => {
    if (known !== undefined && now() - known.at < ttl) return known.children;
    const asking = counting(indexName, () => ({ result: ask() })).result;
    // A slow `count(*)` holds no request while a count is known.
    return known === undefined ? asking : known.children;
  };
}

/** Makes a file, its gzip bytes (if any) pushed to `out` as they come; `givenUp()` once it took more than a TTL. */
type Make = (out: Growing, givenUp: () => boolean) => Promise<CachedFile | undefined>;

/**
 * `cached(key, wait, make, streamed)`: the stored file while fresh or stale (remade in the background),
 * else made now within `wait`, whole or (`streamed`) up to its first bytes. One `make` per key at a time.
 */
function fileCache(store: CacheStore, options: Settled): (key: string, wait: Wait, make: Make, streamed?: boolean) => Promise<SitemapFile | undefined> {
  const { now, ttlMs: ttl } = options;
  const stale = options.staleMs ?? 3_600_000;
  type Run = { result: Promise<CachedFile | undefined>; out: Growing; abandon: (error: unknown) => void };
  const generations = oneAtATime<Run>(options, 'make it');

  const generate = (key: string, make: Make): Run =>
    generations(key, (givenUp) => {
      const out = new Growing();
      const result = (async () => {
        try {
          let made = await make(out, givenUp);
          try {
            // The request that made it is answered with the kept time too, not only the later ones.
            if (made !== undefined && !givenUp()) await store.set(key, (made = keepLastModified(made, await store.get(key))));
          } catch (error) {
            // The cache is not the content: a store that fails (a full disk) is reported, the file still served.
            options.onError?.(error, key);
          }
          out.end();
          return made;
        } catch (error) {
          // Reported here, once, whoever waits for it (maybe nobody).
          options.onError?.(error, key);
          out.fail(error);
          throw error;
        }
      })();
      return { result, out, abandon: (error) => out.fail(error) };
    });

  /** The file being made, sent from its first bytes; the whole file when it was made at once. */
  const whenStarted = async (run: Run): Promise<SitemapFile | undefined> => {
    await run.out.started;
    if (run.out.ended) return run.result;
    return { lastModified: now(), gzip: { stream: () => run.out.stream() } };
  };

  return async (key, wait, make, streamed = false) => {
    let copy: CachedFile | undefined;
    try {
      copy = await store.get(key);
    } catch (error) {
      // A store that cannot be read (a cache server down) is a miss, reported: the file is made.
      options.onError?.(error, key);
    }
    const age = copy === undefined ? Infinity : now() - copy.madeAt;
    if (age < ttl) return copy;
    const run = generate(key, make);
    // Stale while revalidating: this request does not wait.
    if (age < ttl + stale) return copy;
    try {
      return await wait(streamed ? whenStarted(run) : run.result, key);
    } catch (error) {
      if (copy !== undefined) return copy;
      throw error;
    }
  };
}

/** The entries of one child: a page of `range`, or `entries` from its offset; each one given told to `given`. */
async function* entriesOf(options: LiveSourceOptions, page: LivePage, given: (entry: UrlEntry) => void): AsyncGenerator<UrlEntry> {
  const { offset, limit } = page;
  const entries = options.range !== undefined ? await options.range(page) : (options.entries as () => Iterable<UrlEntry> | AsyncIterable<UrlEntry>)();
  let position = options.range !== undefined ? offset : 0;
  for await (const entry of entries) {
    if (position >= offset + limit) break;
    if (position++ >= offset) {
      given(entry);
      yield entry;
    }
  }
}

/** One urlset, its gzip bytes pushed to `out` as written; undefined (nothing pushed) when it has no entry. */
async function writeChild(
  entries: AsyncIterable<UrlEntry>,
  options: { limits: Limits; baseUrl: string; scope: ReturnType<typeof scopeOf> },
  onInvalid: NonNullable<LiveSourceOptions['onInvalid']>,
  out: Growing,
): Promise<SitemapFileInfo | undefined> {
  const gzip = new CompressionStream('gzip');
  const input = gzip.writable.getWriter();
  const reader = gzip.readable.getReader();
  const output = (async () => {
    for (let read = await reader.read(); !read.done; read = await reader.read()) out.push(read.value);
  })();
  let info: SitemapFileInfo | undefined;
  // The XML goes on while the chunk before is compressed, then waits for it.
  let previous: Promise<void> = Promise.resolve();
  let written: Promise<void> = Promise.resolve();
  const write = (bytes: Uint8Array): void => {
    previous = written;
    written = input.write(bytes.slice());
    written.catch(() => {});
  };
  const writer = new SitemapSetWriter({ open() {}, write, close: (done) => (info = done) }, { ...options, maxFiles: 1 });
  try {
    for await (const entry of entries) {
      try {
        writer.add(entry);
      } catch (error) {
        // One bad row does not take its child's other URLs down with it.
        if (error instanceof InvalidValueError) onInvalid(error, entry);
        // The writer would start a second file: the layout by count cannot hold these entries.
        else if (error instanceof SitemapError && error.rule === 'limits/too-many-sitemaps') {
          throw new SitemapError('ERR_SITEMAP_SERVE', `its ${options.limits.maxUrlsPerSitemap} entries take more than ${options.limits.maxBytesPerSitemap} bytes; lower maxUrls`);
        } else throw error;
      }
      // Compression runs as the XML comes: waiting for it lets the first bytes out early and bounds what is held.
      await previous;
    }
    writer.end();
    await written;
    if (info === undefined || info.urls === 0) {
      // Nothing to send (not even a gzip header): the compressor dropped, its reader's rejection with it.
      output.catch(() => {});
      await input.abort().catch(() => {});
      return undefined;
    }
    // What is left comes at once: a request waiting for the first bytes may as well have the whole file.
    out.finishing = true;
    await input.close();
    await output;
    // Every byte is out: the responses sending them end whole even if storing the file fails.
    out.end();
    return info;
  } catch (error) {
    input.abort(error).catch(() => {});
    output.catch(() => {});
    throw error;
  }
}

/** Bytes being made, read from the start by any number of streams; `started` settles at the first bytes. */
class Growing {
  readonly chunks: Uint8Array[] = [];
  readonly started: Promise<void>;
  finishing = false;
  private state: 'open' | 'ended' | 'failed' = 'open';
  private error: unknown;
  private waiting: (() => void)[] = [];
  private settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;

  constructor() {
    this.started = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.started.catch(() => {});
  }

  get ended(): boolean {
    return this.state === 'ended';
  }

  push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    if (!this.finishing) this.settle?.resolve();
    this.wake();
  }

  end(): void {
    if (this.state === 'open') this.state = 'ended';
    this.settle?.resolve();
    this.wake();
  }

  fail(error: unknown): void {
    if (this.state !== 'open') return;
    this.state = 'failed';
    this.error = error;
    this.settle?.reject(error);
    this.wake();
  }

  stream(): ReadableStream<Uint8Array> {
    let next = 0;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        while (next === this.chunks.length && this.state === 'open') await new Promise<void>((resolve) => this.waiting.push(resolve));
        if (next < this.chunks.length) controller.enqueue(this.chunks[next++] as Uint8Array);
        else if (this.state === 'failed') controller.error(this.error);
        else controller.close();
      },
    });
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/** Last-Modified is when the bytes changed: a file made again alike keeps the earlier time. */
function keepLastModified(file: CachedFile, previous: CachedFile | undefined): CachedFile {
  const tag = (f: CachedFile): string | undefined => (f.identity ?? f.gzip)?.etag;
  return previous !== undefined && tag(previous) === tag(file) ? { ...file, lastModified: previous.lastModified } : file;
}

/** `wait(ready, key)`: what a request waits for, each thing it waits for in turn within one `timeoutMs`. */
type Wait = <T>(ready: Promise<T>, key: string) => Promise<T>;

const LATE = Symbol('late');

/** The wait of one request: `timeoutMs` at most from its first wait, however many things it waits for. */
function waiter(options: Settled): Wait {
  const { timeoutMs, sleep } = options;
  let late: Promise<typeof LATE> | undefined;
  return async (ready, key) => {
    if (timeoutMs === undefined || sleep === undefined) return ready;
    late ??= sleep(timeoutMs).then(() => LATE);
    const first = await Promise.race([ready, late]);
    if (first !== LATE) return first;
    const error = new SitemapError('ERR_SITEMAP_TIMEOUT', `the live source took more than ${timeoutMs} ms`);
    options.onError?.(error, key);
    throw error;
  };
}

/**
 * `run(key, start)`: what `start` began for `key`, shared by whoever asks while it runs. One still
 * running after `ttlMs` is given up (a query that never returns would hold its key for good): its
 * waiters get the error and the next call starts anew; `givenUp()` keeps the late one from overwriting.
 */
function oneAtATime<R extends { readonly result: Promise<unknown>; abandon?: (error: unknown) => void }>(options: Settled, doing: string): (key: string, start: (givenUp: () => boolean) => R) => R {
  const { now, ttlMs: ttl } = options;
  const running = new Map<string, { run: R; since: number; giveUp: (error: unknown) => void }>();
  return (key, start) => {
    let held = running.get(key);
    if (held !== undefined && now() - held.since > ttl) {
      const error = new SitemapError('ERR_SITEMAP_TIMEOUT', `the live source took more than ${ttl} ms (ttlMs) to ${doing}; given up`);
      options.onError?.(error, key);
      held.giveUp(error);
      held.run.abandon?.(error);
      held = undefined;
    }
    if (held === undefined) {
      let givenUp = false;
      let reject: (error: unknown) => void = () => {};
      const abandoned = new Promise<never>((_resolve, rejectIt) => (reject = rejectIt));
      const started = start(() => givenUp);
      const result = Promise.race([started.result, abandoned]);
      // Handled where it is awaited; a file sent as it was made may have nobody awaiting it whole.
      result.catch(() => {});
      const giveUp = (error: unknown): void => {
        givenUp = true;
        reject(error);
      };
      const entry = { run: { ...started, result }, since: now(), giveUp };
      running.set(key, (held = entry));
      const done = (): boolean => running.get(key) === entry && running.delete(key);
      started.result.then(done, done);
    }
    return held.run;
  };
}
