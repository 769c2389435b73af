// discoverSitemaps: from a site's address to every sitemap it publishes and every URL in them, as a
// search engine finds them (robots.txt Sitemap lines, else well-known paths; indexes followed),
// without being fooled or harmed by what the servers send. Every document goes through `read`'s
// reader; a global visited set (visitKey) is checked when a sitemap is listed, at every redirect hop
// and on the final URL, so loops of any length stop at once. Entries stream out as events, and a
// consumer that falls behind holds the bodies back (backpressure): memory stays bounded.

import { isUtf8 } from 'node:buffer';
import { DiagnosticCollector, checkDiagnosticCap, type Diagnostic, type Severity } from '../core/diagnostics.js';
import { classifyInput, otherHost, robotsUrlOf, visitKey, WELL_KNOWN_SITEMAP_PATHS, type ClassifiedInput } from '../core/discover/inputs.js';
import { SitemapError, checkCount, plural } from '../core/errors.js';
import type { UrlEntry } from '../core/model.js';
import { urlLine } from '../core/model-json.js';
import { sniffFormat } from '../core/read/sniff.js';
import { showsSitemap, type SitemapFormat } from '../core/read/types.js';
import { crawlerToken, robotsMatcher } from '../core/robots/match.js';
import { MAX_ROBOTS_BYTES, parseRobotsTxt } from '../core/robots/robots-txt.js';
import { notAUrl } from '../core/url.js';
import { HttpCache } from './http/cache.js';
import { HostQueues } from './http/slots.js';
import { DEFAULT_MAX_BODY_BYTES, FetchFailure, HttpClient, hostUnreachable, type HttpClientOptions, type HttpFailure, type HttpOutcome, type HttpResponse } from './http/client.js';
import { readDocument, type DocumentSettings, type DocumentSink } from './discover-document.js';
import { DocumentReaders, type TextSink } from './discover-readers.js';

const DEFAULT_MAX_SITEMAP_DEPTH = 5;
const DEFAULT_MAX_SITEMAPS = 50_000;
/** Bodies whose Content-Length is below this are read on the main thread all the same (see read()). */
const MAIN_THREAD_BYTES = 64 * 1024;
/** Events buffered for a slow consumer before bodies are held back. */
const EVENT_HIGH_WATER = 4_096;
/** Bytes of `urls` events' lines buffered, likewise (4 MiB: about 40,000 URLs). */
const LINES_HIGH_WATER = 4 * 1024 * 1024;

export interface DiscoverOptions extends HttpClientOptions {
  /** Levels of indexes followed below the first sitemap (default 5). */
  maxDepth?: number;
  /** Sitemaps listed by indexes fetched at most (default 50,000); those given or in robots.txt do not count. */
  maxSitemaps?: number;
  /** Probe the well-known paths even when robots.txt names sitemaps. */
  probe?: boolean;
  /** Do not fetch sitemaps that robots.txt disallows for our user agent. */
  respectRobots?: boolean;
  /** A child on another host than its index: followed with a warning (default) or refused. */
  crossHost?: 'warn' | 'deny';
  /** Directory for conditional requests (ETag, Last-Modified). */
  cacheDir?: string;
  /** Milliseconds for the whole run; what is not fetched by then fails with `fetch/aborted`. */
  runTimeoutMs?: number;
  /** Most entries read per document (the reader's budget, default 1,000,000). */
  maxEntries?: number;
  /** Distinct URLs tracked per document for `loc/duplicate` (default 1,000,000); past it `duplicates/not-checked`. */
  maxTrackedUrls?: number;
  /**
   * Diagnostics of one code kept on a document's node (default 1,000); past it they are still counted
   * and delivered, and the list ends with a `diagnostics/truncated` entry.
   */
  maxDiagnosticsPerCode?: number;
  /** Receives every diagnostic, robots.txt's included, as it is found; its `file` names the document. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /**
   * Page URLs as `urls` events (UTF-8 lines of locs) instead of a `url` event per entry; documents are
   * then read on a worker thread, beside the fetching. For a consumer of locs only (`--format urls`).
   */
  urlsAsText?: boolean;
}

export type SitemapVia = 'input' | 'robots' | 'probe' | 'index';
/**
 * `ok` read (maybe with problems), `failed` not fetched, unreadable or `cut`, `skipped` not fetched on
 * purpose (visited, limits, policy, host unreachable), `absent` a probed path holding no sitemap.
 */
export type DocumentOutcome = 'pending' | 'ok' | 'failed' | 'skipped' | 'absent';

export interface SitemapNode {
  url: string;
  via: SitemapVia;
  /** 0 for a sitemap named by the input, robots.txt or a probe; +1 per index level. */
  depth: number;
  outcome: DocumentOutcome;
  /** The URL that answered, when redirected. */
  finalUrl?: string;
  status?: number;
  format?: SitemapFormat;
  /** Pages read (urlset, feed, text). */
  urls: number;
  /** Children listed (sitemap index). */
  sitemaps: number;
  /** Bytes received (after any Content-Encoding was undone; a gzip file counts compressed). */
  bytes: number;
  /** Bytes of the document after gunzipping. */
  bytesDecompressed: number;
  /** From the request to the end of reading. */
  timeMs: number;
  attempts: number;
  redirects: string[];
  /** Read from the cache after a 304. */
  fromCache: boolean;
  /** The code (`fetch/truncated`, …) when the body was cut short: failed, its `urls` from a partial document. */
  cut?: string;
  /** At most `maxDiagnosticsPerCode` of each code, then a `diagnostics/truncated` entry if some were left out. */
  diagnostics: Diagnostic[];
  /** Exact counts, those left out of `diagnostics` included. */
  errors: number;
  warnings: number;
  infos: number;
  children: SitemapNode[];
}

export interface RobotsNode {
  url: string;
  /** `absent`: a 4xx or endless redirects, no rules (RFC 9309 §2.3.1.3, §2.3.1.2); `failed`: 5xx, network. */
  outcome: 'pending' | 'ok' | 'absent' | 'failed';
  status?: number;
  /** Why there was no response, when there was none: the fetch's code (`fetch/connection`, `fetch/dns`, …). */
  failure?: string;
  sitemaps: string[];
  bytes: number;
  timeMs: number;
  /** At most `maxDiagnosticsPerCode` of each code, then a `diagnostics/truncated` entry if some were left out. */
  diagnostics: Diagnostic[];
}

export interface DiscoveryInput {
  input: string;
  kind: ClassifiedInput['kind'];
  robots?: RobotsNode;
  sitemaps: SitemapNode[];
}

export interface DiscoveryTotals {
  /** Sitemap documents listed or found: always `ok + failed + skipped` (absent probes are not counted). */
  documents: number;
  ok: number;
  /** Failed documents, those cut short included. */
  failed: number;
  skipped: number;
  /** Failed documents whose body was cut short after it had started (a part of `failed`). */
  cut: number;
  /** robots.txt files that could not be fetched or read (not documents: a site's, not a sitemap). */
  robotsFailed: number;
  urls: number;
  /** URLs handed out from documents cut short (a part of `urls`). */
  urlsFromCut: number;
  bytes: number;
  errors: number;
  warnings: number;
  requests: number;
  timeMs: number;
}

export interface DiscoveryTree {
  inputs: DiscoveryInput[];
  totals: DiscoveryTotals;
}

export type DiscoverEvent =
  | { type: 'robots'; robots: RobotsNode }
  | { type: 'queued'; sitemap: SitemapNode; parent: string | undefined }
  | { type: 'sitemap'; sitemap: SitemapNode }
  | { type: 'url'; entry: UrlEntry; sitemap: string }
  /** With `urlsAsText`: `count` page URLs of `sitemap`, in its order, as UTF-8, each followed by a line feed. */
  | { type: 'urls'; lines: Uint8Array; count: number; sitemap: string }
  | { type: 'diagnostic'; diagnostic: Diagnostic; sitemap: string }
  | { type: 'end'; tree: DiscoveryTree };

/** Severity of the diagnostics `discover` reports itself that are no error (the rest are; all in docs/rules.md). */
const NOT_ERRORS: Readonly<Record<string, Severity>> = {
  'discover/loop': 'warning',
  'discover/duplicate': 'info',
  'discover/cross-host': 'warning',
  'discover/cross-host-submitted': 'info',
  'discover/cross-host-refused': 'warning',
  'discover/robots-disallowed': 'warning',
  'discover/robots-sitemap': 'warning',
  'discover/host-unreachable': 'info',
  'index/nested': 'warning',
};

const UTF8 = new TextEncoder();

/** Reader codes saying the input stopped mid-document: on a close-delimited body, a cut (see `read`). */
const UNFINISHED_CODES = new Set(['xml/unclosed-element', 'xml/truncated']);

function unfinished(d: Diagnostic): boolean {
  return UNFINISHED_CODES.has(d.code) || (d.code === 'gzip/corrupt' && d.message.includes('unexpected end of file'));
}

function diagnostic(code: string, message: string, file: string, hint?: string): Diagnostic {
  const d: Diagnostic = { code, severity: NOT_ERRORS[code] ?? 'error', message, file };
  if (hint !== undefined) d.hint = hint;
  return d;
}

function newNode(url: string, via: SitemapVia, depth: number): SitemapNode {
  return {
    url,
    via,
    depth,
    outcome: 'pending',
    urls: 0,
    sitemaps: 0,
    bytes: 0,
    bytesDecompressed: 0,
    timeMs: 0,
    attempts: 0,
    redirects: [],
    fromCache: false,
    diagnostics: [],
    errors: 0,
    warnings: 0,
    infos: 0,
    children: [],
  };
}

const STATUS_TEXT: Readonly<Record<number, string>> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 410: 'Gone', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

/** What robots.txt says for one origin. One that `failed` disallows everything (RFC 9309 §2.3.1.4). */
interface RobotsState {
  node: RobotsNode;
  /** Its rules for our user agent, with respectRobots: whether they allow a URL. */
  allows?: (url: string) => boolean;
  /** Why no response came, when none did. */
  failure?: HttpFailure;
  /** The visit keys of its Sitemap lines, made at the first cross-host child asking (an index may have 50,000). */
  listed?: Set<string | undefined>;
}

/** The events: a queue with a high-water mark, read as an async iterable. */
class EventChannel {
  private queue: DiscoverEvent[] = [];
  private linesBytes = 0;
  private ended = false;
  private failure: unknown;
  private wake: (() => void) | undefined;
  private drainWaiters: (() => void)[] = [];

  push(event: DiscoverEvent): void {
    this.queue.push(event);
    if (event.type === 'urls') this.linesBytes += event.lines.length;
    this.wake?.();
    this.wake = undefined;
  }

  end(failure?: unknown): void {
    this.ended = true;
    this.failure = failure;
    this.wake?.();
    this.wake = undefined;
  }

  /** A promise while the consumer is behind, else undefined. */
  backpressure(): Promise<void> | undefined {
    if (this.queue.length < EVENT_HIGH_WATER && this.linesBytes < LINES_HIGH_WATER) return undefined;
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** The events in arrays of what was queued at once: one promise per batch, not per event. */
  async *batches(): AsyncGenerator<DiscoverEvent[]> {
    for (;;) {
      if (this.queue.length > 0) {
        // Every event queued so far, as one array; producers waiting for room go on.
        const batch = this.queue;
        this.release();
        yield batch;
        continue;
      }
      if (this.ended) {
        if (this.failure !== undefined) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Empties the queue and releases producers waiting for room (the consumer took it all, or went away). */
  release(): void {
    this.queue = [];
    this.linesBytes = 0;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

class Discovery {
  readonly channel = new EventChannel();
  readonly client: HttpClient;
  private readonly cache: HttpCache | undefined;
  /** The reading thread (`urlsAsText`), started with the run. */
  private readers: DocumentReaders | undefined;
  private readonly visited = new Map<string, SitemapNode>();
  private readonly robotsByUrl = new Map<string, Promise<RobotsState>>();
  /** Every robots.txt fetched, once each: the sites' and those read for the rules or cross-host check of another host. */
  private readonly robotsNodes: RobotsNode[] = [];
  private readonly tasks = new Set<Promise<void>>();
  /**
   * Sitemaps waiting to be fetched, as bare nodes per host, up to twice the connection slots in tasks:
   * an index's 50,000 children cost no promise, closure or signal each while they wait.
   */
  private readonly fetching: HostQueues<SitemapNode>;
  private readonly inputs: DiscoveryInput[] = [];
  private readonly controller = new AbortController();
  private readonly started = performance.now();
  /** Children of indexes listed (maxSitemaps): those queued, then one more for each past the limit. */
  private queuedSitemaps = 0;
  private readonly agentToken: string;
  /** Parents of each node (for telling a loop from a sitemap listed twice). */
  private readonly parentOf = new Map<SitemapNode, SitemapNode | undefined>();
  /** Origins found unreachable, with the URL that showed it: not requested again (one error, not one per path). */
  private readonly unreachable = new Map<string, { url: string; code: string }>();
  /** The diagnostics of each document (and robots.txt): capped lists, exact counts. */
  private readonly collectors = new WeakMap<SitemapNode | RobotsNode, DiagnosticCollector>();
  stopped = false;

  constructor(private readonly options: DiscoverOptions) {
    const signals = [this.controller.signal];
    if (options.signal !== undefined) signals.push(options.signal);
    this.client = new HttpClient({ ...options, signal: AbortSignal.any(signals) });
    this.fetching = new HostQueues(this.client.slots.total * 2, this.client.slots.perHost * 2, (node, release) => this.spawn(this.fetchSitemap(node).finally(release)));
    this.cache = options.cacheDir !== undefined ? new HttpCache(options.cacheDir) : undefined;
    this.agentToken = crawlerToken(options.userAgent ?? 'sitemapkit');
    checkCount('maxTrackedUrls', options.maxTrackedUrls, 1);
    checkDiagnosticCap(options.maxDiagnosticsPerCode);
  }

  /** Counts `d` on `node`, lists it there unless its code is past the cap, and hands it to `onDiagnostic`. */
  private collect(node: SitemapNode | RobotsNode, d: Diagnostic): void {
    let collector = this.collectors.get(node);
    if (collector === undefined) {
      collector = new DiagnosticCollector({ maxPerCode: this.options.maxDiagnosticsPerCode, onDiagnostic: this.options.onDiagnostic });
      this.collectors.set(node, collector);
    }
    if (collector.add(d)) node.diagnostics.push(d);
  }

  /** The document is over: its list gets the `diagnostics/truncated` entry when some were left out. */
  private closeDiagnostics(node: SitemapNode | RobotsNode): void {
    const truncated = this.collectors.get(node)?.truncation(node.url);
    if (truncated !== undefined) node.diagnostics.push(truncated);
  }

  stop(): void {
    this.stopped = true;
    this.controller.abort();
    this.channel.release();
  }

  private emit(event: DiscoverEvent): void {
    if (!this.stopped) this.channel.push(event);
  }

  private spawn(work: Promise<void>): void {
    const task = work.catch((error: unknown) => this.channel.end(error)).finally(() => this.tasks.delete(task));
    this.tasks.add(task);
  }

  async run(urls: readonly string[]): Promise<void> {
    // A timer of our own, not AbortSignal.timeout(): a signal only AbortSignal.any() holds can be
    // garbage-collected before it fires, and the run would have no deadline.
    const runTimeout = this.options.runTimeoutMs;
    const runTimer = runTimeout === undefined ? undefined : setTimeout(() => this.controller.abort(new DOMException(`the run took more than ${runTimeout / 1000} s`, 'TimeoutError')), runTimeout);
    try {
      for (const text of urls) {
        const input = classifyInput(text);
        const entry: DiscoveryInput = { input: text, kind: input?.kind ?? 'sitemap', sitemaps: [] };
        this.inputs.push(entry);
        if (input === undefined) {
          const node = newNode(text, 'input', 0);
          this.fail(node, diagnostic('discover/bad-input', `not an http(s) URL: ${JSON.stringify(text)}`, text));
          entry.sitemaps.push(node);
          continue;
        }
        if (input.kind === 'sitemap') this.enqueue(input.url, 'input', undefined, entry.sitemaps);
        else this.spawn(this.startSite(input, entry));
      }
      while (this.tasks.size > 0) await Promise.all([...this.tasks]);
      const tree = { inputs: this.inputs, totals: this.totals() };
      this.emit({ type: 'end', tree });
      this.channel.end();
    } finally {
      clearTimeout(runTimer);
      await Promise.all([this.client.close(), this.readers?.close()]);
    }
  }

  private async startSite(input: ClassifiedInput, entry: DiscoveryInput): Promise<void> {
    const { robots, wellKnown } = await this.searchSite(input);
    entry.robots = robots.node;
    for (const url of robots.node.sitemaps) this.enqueue(url, 'robots', undefined, entry.sitemaps);
    if (robots.node.sitemaps.length > 0 && this.options.probe !== true) return;
    for (const url of wellKnown) this.enqueue(url, 'probe', undefined, entry.sitemaps);
  }

  /** A site's robots.txt, and its well-known sitemap URLs worth probing: none when its host is known unreachable or refused. */
  async searchSite(input: ClassifiedInput): Promise<{ robots: RobotsState; wellKnown: string[] }> {
    const robotsUrl = input.kind === 'robots' ? input.url : robotsUrlOf(input.url);
    const robots = await this.robots(robotsUrl);
    // A host that cannot be reached has no well-known paths to probe: robots.txt (or the host it redirects to) said so once.
    if (robots.failure !== undefined) this.markUnreachable(robots.failure.url, robots.failure);
    // Refused by the address policy at the origin itself, or no answer in time: each well-known path would be too.
    const refused = (robots.failure?.code === 'fetch/address-refused' || robots.failure?.code === 'fetch/timeout') && new URL(robots.failure.url).origin === input.origin;
    const wellKnown = this.unreachable.has(input.origin) || refused ? [] : WELL_KNOWN_SITEMAP_PATHS.map((path) => new URL(path, `${input.origin}/`).href);
    return { robots, wellKnown };
  }

  /** A robots.txt, fetched once per run; one given below its origin's root is read for its Sitemap lines only. */
  private robots(robotsUrl: string): Promise<RobotsState> {
    if (!this.robotsByUrl.has(robotsUrl)) this.robotsByUrl.set(robotsUrl, this.fetchRobots(robotsUrl));
    return this.robotsByUrl.get(robotsUrl) as Promise<RobotsState>;
  }

  private async fetchRobots(url: string): Promise<RobotsState> {
    const node: RobotsNode = { url, outcome: 'pending', sitemaps: [], bytes: 0, timeMs: 0, diagnostics: [] };
    this.robotsNodes.push(node);
    const state: RobotsState = { node };
    const start = performance.now();
    const say = (code: string, message: string, line?: number): void => this.collect(node, line === undefined ? diagnostic(code, message, url) : { ...diagnostic(code, message, url), line });
    if (url !== robotsUrlOf(url)) {
      say('discover/robots-sitemap', `not at /robots.txt of its origin: crawlers do not read it (RFC 9309 §2.3); its Sitemap lines are followed as asked, the rules of ${robotsUrlOf(url)} are used`);
    }
    const outcome = await this.client.get(url, { maxBodyBytes: Number.MAX_SAFE_INTEGER });
    if (!outcome.ok) {
      node.failure = outcome.code;
      state.failure = outcome;
      // RFC 9309 §2.3.1.2: endless redirects may be read as unavailable (as a 4xx; Google does), not as
      // unreachable (§2.3.1.4), which would disallow all.
      const endless = outcome.code === 'fetch/redirect-loop' || outcome.code === 'fetch/too-many-redirects';
      node.outcome = endless ? 'absent' : 'failed';
      if (endless) say('discover/robots-sitemap', `${outcome.message}: read as unavailable, no rules and no Sitemap lines (RFC 9309 §2.3.1.2)`);
      else say('discover/robots-unreachable', `robots.txt could not be fetched: ${outcome.message}`);
    } else if (outcome.status < 200 || outcome.status >= 300) {
      node.status = outcome.status;
      await outcome.body.cancel();
      // RFC 9309 §2.3.1.3-4: a 4xx is no file, and so is a 3xx not followed (§2.3.1.2); a 5xx is unreachable,
      // and so is 429, a busy server (Google: "4xx, except 429").
      node.outcome = outcome.status >= 500 || outcome.status === 429 ? 'failed' : 'absent';
      if (node.outcome === 'failed') say('discover/robots-unreachable', `robots.txt answered ${outcome.status}${this.client.answerSaid(outcome)}`);
    } else {
      node.status = outcome.status;
      try {
        // RFC 9309 §2.5: the first 500 KiB are parsed; the rest is ignored but said (crawlers may ignore it too).
        const parts: Uint8Array[] = [];
        for await (const chunk of outcome.body) {
          parts.push(chunk);
          node.bytes += chunk.byteLength;
          if (node.bytes > MAX_ROBOTS_BYTES) break;
        }
        const cut = node.bytes > MAX_ROBOTS_BYTES;
        if (cut) {
          say('discover/robots-sitemap', `robots.txt is larger than ${MAX_ROBOTS_BYTES / 1024} KiB; what follows is not read (nor the line the limit cuts), and crawlers may not read it either (RFC 9309 §2.5)`);
        }
        const head = Buffer.concat(parts).subarray(0, MAX_ROBOTS_BYTES);
        // The line the limit cuts is left out: a Sitemap URL cut short names another document, even another host.
        const bytes = cut ? head.subarray(0, Math.max(head.lastIndexOf(0x0a), head.lastIndexOf(0x0d)) + 1) : head;
        const utf8 = isUtf8(bytes);
        // Not UTF-8 (Latin-1, most often): bytes above 0x7f percent-encoded as they are, as Google's parser
        // escapes them, so that `caf\xe9` names /caf%E9 (UTF-8 sequences come out as UTF-8 would).
        const text = utf8 ? new TextDecoder().decode(bytes) : bytes.toString('latin1').replace(/[\x80-\xff]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
        // RFC 9309 §2.3: UTF-8. A UTF-16 or binary file reads as empty, to us and to crawlers: said.
        if (!utf8 || text.includes('\0')) {
          say('discover/robots-sitemap', 'robots.txt is not UTF-8 text (RFC 9309 §2.3): crawlers may misread it, or (UTF-16, binary) read no rules and no Sitemap lines in it');
        } else if (sniffFormat(text) === 'html') {
          // An SPA or a soft 404 answers with its page: crawlers read no rules and no Sitemap lines in it.
          say('discover/robots-sitemap', 'robots.txt is an HTML page (a soft 404, or the site answering every path with its page?): crawlers find no rules and no Sitemap lines in it');
        }
        const parsed = parseRobotsTxt(text, outcome.url);
        node.outcome = 'ok';
        node.sitemaps = parsed.sitemaps.map((s) => s.url);
        for (const problem of parsed.problems) say('discover/robots-sitemap', `${problem.message}: ${JSON.stringify(problem.value)}`, problem.line);
        if (this.options.respectRobots === true) state.allows = robotsMatcher(parsed, this.agentToken);
      } catch (error) {
        node.outcome = 'failed';
        say('discover/robots-unreachable', `robots.txt could not be read: ${(error as Error).message}`);
      }
    }
    node.timeMs = performance.now() - start;
    this.closeDiagnostics(node);
    this.emit({ type: 'robots', robots: node });
    return state;
  }

  /** Lists `url` under `siblings` and fetches it, unless it was seen or a limit says no. */
  private enqueue(url: string, via: SitemapVia, parent: SitemapNode | undefined, siblings: SitemapNode[]): void {
    // Started with the first sitemap to fetch: a run that finds none does not pay for it (~10 ms).
    if (this.options.urlsAsText === true) this.readers ??= new DocumentReaders();
    const depth = parent === undefined ? 0 : parent.depth + 1;
    const maxDepth = this.options.maxDepth ?? DEFAULT_MAX_SITEMAP_DEPTH;
    const maxSitemaps = this.options.maxSitemaps ?? DEFAULT_MAX_SITEMAPS;
    const node = newNode(url, via, depth);
    const key = visitKey(url);
    if (key === undefined) {
      siblings.push(node);
      return this.fail(node, diagnostic('fetch/bad-url', notAUrl(url), url));
    }
    const seen = this.visited.get(key);
    if (seen !== undefined) {
      if (via === 'probe') return;
      siblings.push(node);
      return this.skipAsSeen(node, seen, parent);
    }
    if (depth > maxDepth) {
      siblings.push(node);
      const hint = 'a sitemap index should list sitemaps, not other indexes';
      return this.fail(node, diagnostic('discover/depth-limit', `not fetched: index nesting deeper than ${plural(maxDepth, 'level')}`, url, hint), 'skipped');
    }
    // An index's children only: a full index (sitemaps.org: 50,000) is read whole under the default.
    if (via === 'index' && this.queuedSitemaps >= maxSitemaps) {
      // Said once, on the index where the limit was reached.
      if (this.queuedSitemaps++ === maxSitemaps && parent !== undefined) {
        this.note(parent, diagnostic('discover/too-many-sitemaps', `more than ${plural(maxSitemaps, 'sitemap')}; the rest are not fetched`, parent.url));
      }
      return;
    }
    if (via === 'index') this.queuedSitemaps++;
    this.visited.set(key, node);
    this.parentOf.set(node, parent);
    siblings.push(node);
    this.emit({ type: 'queued', sitemap: node, parent: parent?.url });
    this.fetching.add(new URL(url).host, node);
  }

  private isAncestor(candidate: SitemapNode, of: SitemapNode | undefined): boolean {
    for (let n = of; n !== undefined; n = this.parentOf.get(n)) if (n === candidate) return true;
    return false;
  }

  private skipAsSeen(node: SitemapNode, seen: SitemapNode, parent: SitemapNode | undefined): void {
    if (this.isAncestor(seen, parent)) {
      this.fail(node, diagnostic('discover/loop', `not fetched again: ${seen.url} lists itself${seen === parent ? '' : ` through ${parent?.url ?? ''}`}`, node.url, 'an index must not list itself or an index above it'), 'skipped');
    } else {
      const by = seen.via !== 'index' ? `via ${seen.via}` : this.parentOf.get(seen) === parent ? 'by this index' : 'by another index';
      this.fail(node, diagnostic('discover/duplicate', `not fetched again: already listed (${by})`, node.url), 'skipped');
    }
  }

  private note(node: SitemapNode, d: Diagnostic): void {
    this.collect(node, d);
    if (d.severity === 'error') node.errors++;
    else if (d.severity === 'warning') node.warnings++;
    else node.infos++;
    this.emit({ type: 'diagnostic', diagnostic: d, sitemap: node.url });
  }

  private fail(node: SitemapNode, d: Diagnostic, outcome: DocumentOutcome = 'failed'): void {
    node.outcome = outcome;
    this.note(node, d);
    this.emit({ type: 'sitemap', sitemap: node });
  }

  /** Checks done before a sitemap is requested: robots.txt rules, cross-host (`index`: where its index was served). False: not fetched. */
  private async admitted(node: SitemapNode, index: string | undefined): Promise<boolean> {
    // The policy first: a refused URL costs no request, not even for another host's robots.txt.
    const refusal = await this.client.policy.check(new URL(node.url));
    if (refusal !== undefined) {
      // A name that does not resolve is reported once per host, like a refused connection.
      if (this.markUnreachable(node.url, refusal, node)) return false;
      this.fail(node, diagnostic(refusal.code, refusal.message, node.url));
      return false;
    }
    if (index !== undefined && otherHost(node.url, index)) {
      const refused = await this.crossHost(node, node.url, index);
      if (refused !== undefined) {
        this.fail(node, diagnostic('discover/cross-host-refused', `not fetched: ${refused}`, node.url), 'skipped');
        return false;
      }
    }
    const why = await this.robotsRefusal(node.url);
    if (why !== undefined) this.fail(node, diagnostic('discover/robots-disallowed', `not fetched: ${why}`, node.url), 'skipped');
    return why === undefined;
  }

  /**
   * `url`, the child `node` or where it redirects, is on another host than its `index`: with deny, the
   * refusal's words; else said on `node` (a warning, or an info when that host's robots.txt lists it).
   */
  private async crossHost(node: SitemapNode, url: string, index: string): Promise<string | undefined> {
    const where = `${url === node.url ? '' : `redirects to ${url}, `}on another host than its index`;
    if (this.options.crossHost === 'deny') return `${where} ${index} (--cross-host deny)`;
    const their = await this.robots(robotsUrlOf(url));
    // A host that cannot be reached: the fetch says so, once (no cross-host guess about it).
    if (their.failure !== undefined && hostUnreachable(their.failure)) return undefined;
    their.listed ??= new Set(their.node.sitemaps.map(visitKey));
    if (their.listed.has(visitKey(url)) || their.listed.has(visitKey(index))) {
      this.note(node, diagnostic('discover/cross-host-submitted', `${where}; ${their.node.url} lists it, so the cross-submission is valid`, node.url));
    } else {
      const hint = "search engines accept a sitemap from another host only when that host's robots.txt names it (sitemaps.org: cross submits)";
      const unread = their.node.outcome === 'failed' ? ` (it could not be read: ${their.node.diagnostics[0]?.message ?? their.node.failure})` : '';
      this.note(node, diagnostic('discover/cross-host', `${where} ${index}, and ${their.node.url} does not list it${unread}`, node.url, hint));
    }
    return undefined;
  }

  /** With respectRobots, why `url` may not be fetched: its robots.txt disallows it, or failed (which disallows everything). */
  private async robotsRefusal(url: string): Promise<string | undefined> {
    if (this.options.respectRobots !== true) return undefined;
    const state = await this.robots(robotsUrlOf(url));
    if (state.node.outcome === 'failed') return `${state.node.url} could not be fetched, which disallows everything (RFC 9309 §2.3.1.4)`;
    return state.allows === undefined || state.allows(url) ? undefined : `${state.node.url} disallows it for ${this.agentToken}`;
  }

  /** Records that `failure` (of `url`) showed its host unreachable, if it says so; true if another had (`node` is then skipped). */
  private markUnreachable(url: string, failure: Pick<HttpFailure, 'code' | 'cause'>, node?: SitemapNode, attempted = false): boolean {
    if (!hostUnreachable(failure)) return false;
    if (node !== undefined && this.skipUnreachable(node, url, attempted)) return true;
    const origin = new URL(url).origin;
    if (!this.unreachable.has(origin)) this.unreachable.set(origin, { url, code: failure.code });
    return false;
  }

  /** Skips `node` (true) when the host of `url`, its own or a failed hop's, is known unreachable. */
  private skipUnreachable(node: SitemapNode, url = node.url, attempted = false): boolean {
    const known = this.unreachable.get(new URL(url).origin);
    if (known === undefined) return false;
    if (node.via === 'probe') {
      this.absent(node);
    } else {
      const what = attempted ? 'not read' : 'not fetched';
      this.fail(node, diagnostic('discover/host-unreachable', `${what}: ${new URL(url).host} could not be reached for ${known.url} (${known.code})`, node.url), 'skipped');
    }
    return true;
  }

  /** A probe that found nothing new is quiet (issue #5): no document, no diagnostic. */
  private absent(node: SitemapNode): void {
    node.outcome = 'absent';
    this.emit({ type: 'sitemap', sitemap: node });
  }

  private async fetchSitemap(node: SitemapNode): Promise<void> {
    // The index is on the host that served it, after any redirect.
    const index = this.parentOf.get(node)?.finalUrl ?? this.parentOf.get(node)?.url;
    if (this.skipUnreachable(node)) return;
    if (!(await this.admitted(node, index))) return;
    if (this.skipUnreachable(node)) return;
    const start = performance.now();
    // Each hop asks with its own stored copy's validators (those of the last hop asked are kept): a
    // copy is of the URL that answered, so a changed redirect is not served its old target.
    let conditional: Record<string, string> | undefined;
    const ownKey = visitKey(node.url);
    // Said once per child: on its own URL (admitted), else on the first hop that leaves its index's host.
    let crossed = index !== undefined && otherHost(node.url, index);
    const outcome: HttpOutcome = await this.client.get(node.url, {
      headers: async (url) => (conditional = await this.cache?.conditionalHeaders(url)),
      checkRedirect: async (_from, to) => {
        // A child may not leave its index's host by a redirect either: refused with deny, said with warn.
        if (!crossed && index !== undefined && otherHost(to, index)) {
          crossed = true;
          const refused = await this.crossHost(node, to, index);
          if (refused !== undefined) return { code: 'discover/cross-host-refused', message: `not followed: ${refused}` };
        }
        const key = visitKey(to);
        const seen = key === undefined ? undefined : this.visited.get(key);
        if (seen === undefined || key === ownKey) {
          // RFC 9309 §2: the rules are for every URI fetched, a redirect's target too.
          const why = await this.robotsRefusal(to);
          return why === undefined ? undefined : { code: 'discover/robots-disallowed', message: `not followed: redirects to ${to}, and ${why}` };
        }
        return this.isAncestor(seen, node)
          ? { code: 'discover/loop', message: `redirects to ${to}, which lists it (a loop)` }
          : { code: 'discover/duplicate', message: `redirects to ${to}, which is read already` };
      },
    });
    node.attempts = outcome.attempts;
    node.redirects = outcome.redirects;
    if (!outcome.ok) {
      node.timeMs = performance.now() - start;
      // A host found unreachable by a request sent meanwhile: the failure is reported once, where first seen.
      if (this.markUnreachable(outcome.url, outcome, node, true)) return;
      const refusedHop = outcome.code.startsWith('discover/');
      // A probe redirected to a page read already (a site that sends every unknown path home) is a miss.
      if (refusedHop && node.via === 'probe') return this.absent(node);
      return this.fail(node, diagnostic(outcome.code, outcome.message, node.url), refusedHop ? 'skipped' : 'failed');
    }
    node.status = outcome.status;
    if (outcome.redirects.length > 0) {
      node.finalUrl = outcome.url;
      const key = visitKey(outcome.url) as string;
      const seen = this.visited.get(key);
      if (seen !== undefined && seen !== node) {
        await outcome.body.cancel();
        return node.via === 'probe' ? this.absent(node) : this.skipAsSeen(node, seen, node);
      }
      this.visited.set(key, node);
    }
    let body: AsyncIterable<Uint8Array>;
    if (outcome.status === 304 && conditional !== undefined && this.cache !== undefined) {
      await outcome.body.cancel();
      node.fromCache = true;
      body = this.cache.body(outcome.url);
    } else if (outcome.status >= 200 && outcome.status < 300) {
      body = this.cache !== undefined ? this.cache.recording(outcome.url, outcome.headers, outcome.body) : outcome.body;
    } else {
      await outcome.body.cancel();
      node.timeMs = performance.now() - start;
      if (node.via === 'probe' && outcome.status >= 400 && outcome.status < 500) return this.absent(node);
      const text = STATUS_TEXT[outcome.status];
      return this.fail(node, diagnostic('fetch/http-status', `HTTP ${outcome.status}${text !== undefined ? ` ${text}` : ''}${this.client.answerSaid(outcome)}`, node.url));
    }
    await this.read(node, body, outcome);
    node.timeMs = performance.now() - start;
  }

  private async read(node: SitemapNode, body: AsyncIterable<Uint8Array>, response: HttpResponse): Promise<void> {
    const file = node.finalUrl ?? node.url;
    // A probe's diagnostics wait until it shows a sitemap (an XML one, or a URL line): a soft-404 page,
    // or a catch-all's "OK" or JSON, is no news. Capped too: such a page may send a flood of problems.
    let held = node.via === 'probe' ? new DiagnosticCollector() : undefined;
    const shown = (): void => {
      if (held === undefined) return;
      const truncated = held.truncation(file);
      for (const d of held.retained) this.note(node, d);
      if (truncated !== undefined) this.note(node, truncated);
      held = undefined;
    };
    /** The reader's first word that the document stopped in its middle. */
    let unfinishedAt: Diagnostic | undefined;
    // A URL (or child) listed again in this document is reported and handed out once (readDocument).
    const sink: TextSink & DocumentSink = {
      format: (format) => {
        node.format = format;
        if (showsSitemap(format)) shown();
      },
      diagnostic: (d) => {
        if (unfinishedAt === undefined && unfinished(d)) unfinishedAt = d;
        if (held !== undefined) held.add(d);
        else this.note(node, d);
      },
      url: (entry) => {
        // With urlsAsText, a document read here (a small one) hands its URLs out as the thread does: as lines.
        if (this.readers !== undefined) return sink.urls(UTF8.encode(`${urlLine(entry.loc)}\n`), 1);
        shown();
        node.urls++;
        this.emit({ type: 'url', entry, sitemap: file });
      },
      urls: (lines, count) => {
        shown();
        node.urls += count;
        this.emit({ type: 'urls', lines, count, sitemap: file });
      },
      sitemap: (ref) => {
        shown();
        node.sitemaps++;
        this.enqueue(ref.loc, 'index', node, node.children);
      },
    };
    const settings: DocumentSettings = { file, maxBytes: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, maxEntries: this.options.maxEntries, maxTrackedUrls: this.options.maxTrackedUrls };
    // A body read from the cache was let go of (its deadline cleared): holding it only waits.
    const hold = (wait: Promise<void>): Promise<void> => response.body.held(wait);
    const backpressure = response.body.holding(() => this.channel.backpressure());
    try {
      // A small body (most often an index) is read here: cheaper than the thread, which takes 35-90 ms to start.
      const small = Number(response.headers.get('content-length') ?? Number.NaN) < MAIN_THREAD_BYTES;
      const summary = this.readers !== undefined && !small ? await this.readers.read(body, settings, sink, { backpressure, hold }) : await readDocument(body, settings, sink, backpressure);
      node.format ??= summary.format;
      node.bytesDecompressed = summary.bytesDecompressed;
      if (node.format === 'sitemapindex' && node.via === 'index') {
        // sitemaps.org: an index lists sitemaps, not other indexes; Google does not follow nested ones.
        this.note(node, diagnostic('index/nested', 'a sitemap index listed by another sitemap index; search engines may not follow it', node.url, 'list its children in the parent index instead'));
      }
    } catch (error) {
      // The body stopped early (connection, deadline, cap, the run's end): failed, whatever was read.
      if (!(error instanceof FetchFailure)) throw error;
      node.cut = error.rule;
      this.note(node, diagnostic(error.rule, error.message, node.url));
    }
    node.bytes = node.fromCache ? node.bytes : response.body.bytes;
    if (node.cut === undefined && unfinishedAt !== undefined && !node.fromCache && response.body.delimitation === 'close') {
      // RFC 9112 §6.3 item 8: a close-delimited body cannot tell complete from cut; a document that
      // also stops in its middle was cut (a text sitemap, which has no end to miss, cannot be told).
      node.cut = 'fetch/truncated';
      this.note(node, diagnostic('fetch/truncated', `the body ended when the server closed the connection (no Content-Length, not chunked) with the document unfinished (${unfinishedAt.code}): it was cut short after ${plural(node.bytes, 'byte')}`, node.url));
      await this.cache?.forget(file);
    }
    if (node.cut === undefined && held !== undefined) {
      node.outcome = 'absent';
    } else {
      shown();
      node.outcome = node.cut !== undefined || (node.errors > 0 && node.urls === 0 && node.sitemaps === 0) ? 'failed' : 'ok';
    }
    this.closeDiagnostics(node);
    this.emit({ type: 'sitemap', sitemap: node });
  }

  private totals(): DiscoveryTotals {
    const totals: DiscoveryTotals = {
      documents: 0, ok: 0, failed: 0, skipped: 0, cut: 0, robotsFailed: 0, urls: 0, urlsFromCut: 0, bytes: 0, errors: 0, warnings: 0, requests: this.client.requests, timeMs: performance.now() - this.started,
    };
    const visit = (node: SitemapNode): void => {
      // Every outcome but `absent` (a probe that found nothing) is a document, counted once.
      if (node.outcome !== 'absent' && node.outcome !== 'pending') totals[node.outcome]++;
      if (node.cut !== undefined) {
        totals.cut++;
        totals.urlsFromCut += node.urls;
      }
      totals.urls += node.urls;
      totals.bytes += node.bytes;
      totals.errors += node.errors;
      totals.warnings += node.warnings;
      for (const child of node.children) visit(child);
    };
    // Each robots.txt once, though two inputs share it; its errors printed are counted, whoever asked for it.
    for (const robots of this.robotsNodes) {
      totals.bytes += robots.bytes;
      // Exact, those left out of the list included.
      const counts = this.collectors.get(robots);
      totals.errors += counts?.errors ?? 0;
      totals.warnings += counts?.warnings ?? 0;
      if (robots.outcome === 'failed') totals.robotsFailed++;
    }
    for (const input of this.inputs) for (const node of input.sitemaps) visit(node);
    totals.documents = totals.ok + totals.failed + totals.skipped;
    return totals;
  }
}

/** The run of `discoverSitemaps`: iterate it for the events; `tree()` waits for the end. */
export class DiscoveryRun implements AsyncIterable<DiscoverEvent> {
  private iterated = false;
  private finalTree: DiscoveryTree | undefined;
  private done: Promise<void> | undefined;

  /** @internal */
  constructor(
    private readonly discovery: Discovery,
    private readonly urls: readonly string[],
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<DiscoverEvent> {
    for await (const batch of this.batches()) yield* batch;
  }

  /** The events in arrays, one promise per batch instead of per event. Iterate this or the run itself, once. */
  async *batches(): AsyncGenerator<DiscoverEvent[]> {
    if (this.iterated) throw new SitemapError('ERR_SITEMAP_API', 'a discovery can be iterated only once');
    this.iterated = true;
    const discovery = this.discovery;
    this.done = discovery.run(this.urls).catch((error: unknown) => discovery.channel.end(error));
    let finished = false;
    try {
      for await (const batch of discovery.channel.batches()) {
        const last = batch[batch.length - 1];
        if (last?.type === 'end') this.finalTree = last.tree;
        yield batch;
      }
      finished = true;
    } finally {
      if (!finished) discovery.stop();
      await this.done;
    }
  }

  /** Stops fetching; the iteration ends after the events already queued. */
  stop(): void {
    this.discovery.stop();
  }

  /** The tree once the run is over (reads the events if nobody iterates). */
  async tree(): Promise<DiscoveryTree> {
    if (!this.iterated) for await (const _ of this.batches()) void _;
    await this.done;
    if (this.finalTree === undefined) throw new SitemapError('ERR_SITEMAP_API', 'the discovery was stopped before its end');
    return this.finalTree;
  }
}

/**
 * Find every sitemap a site publishes and every URL in them. `urls`: a site (`https://example.com/`),
 * a robots.txt URL or sitemap URLs. Nothing is fetched until the result is iterated (or `tree()` is
 * awaited). Problems are diagnostics on the tree's nodes, never exceptions.
 *
 * ```ts
 * const run = discoverSitemaps('https://example.com/');
 * for await (const event of run) if (event.type === 'url') console.log(event.entry.loc);
 * ```
 */
export function discoverSitemaps(urls: string | readonly string[], options: DiscoverOptions = {}): DiscoveryRun {
  return new DiscoveryRun(new Discovery(options), typeof urls === 'string' ? [urls] : urls);
}

/** What `findSiteSitemaps` found, and where it looked (for a message when it found nothing). */
export interface SiteSitemaps {
  /** The sitemaps robots.txt names. */
  sitemaps: string[];
  robots: RobotsNode | undefined;
  /** When robots.txt names none: the well-known paths to probe (not fetched here); none if the host failed. */
  wellKnown: string[];
}

/**
 * Where a site (or robots.txt URL) says its sitemaps are, as `discoverSitemaps` finds them: its
 * robots.txt's Sitemap lines, else the well-known paths to probe. No sitemap is fetched.
 */
export async function findSiteSitemaps(site: string, options: HttpClientOptions = {}): Promise<SiteSitemaps> {
  const input = classifyInput(site);
  if (input === undefined || input.kind === 'sitemap') return { sitemaps: [], robots: undefined, wellKnown: [] };
  const discovery = new Discovery(options);
  try {
    const { robots, wellKnown } = await discovery.searchSite(input);
    const sitemaps = [...new Set(robots.node.sitemaps)];
    return { sitemaps, robots: robots.node, wellKnown: sitemaps.length > 0 ? [] : wellKnown };
  } finally {
    await discovery.client.close();
  }
}

/** Where a site was searched for sitemaps, in one line: its robots.txt's answer, the paths probed. */
export function whereLooked({ robots, wellKnown }: SiteSitemaps): string {
  const said = robots === undefined ? 'robots.txt was not fetched'
    : robots.outcome === 'ok' ? `${robots.url} names none`
    : robots.outcome === 'absent' ? `${robots.url} answered ${robots.status ?? robots.failure ?? 'nothing'}`
    : `${robots.url} failed (${robots.diagnostics[0]?.message ?? robots.failure ?? 'no answer'})`;
  return wellKnown.length === 0 ? said : `${said}, and none of ${wellKnown.length} well-known paths holds one (${wellKnown.map((url) => new URL(url).pathname).join(', ')})`;
}
