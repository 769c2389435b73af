// The HTTP client of `discover`, `validate URL` and `read URL`: a fetch (node-fetch.ts, or an injected
// one) with the address policy checked at every redirect hop (followed here, so that the caller's
// visited set is asked too), per-host and overall concurrency, retries with backoff (connection errors
// but a failed TLS handshake or an answer that is no HTTP, 408, 429, 5xx; never once the body has
// started), and a byte cap while the body streams (after Content-Encoding is undone: a gzip bomb stops
// there). The deadline covers the whole body in event-loop idle time (deadline.ts), so a server
// dripping a byte a second is cut off. A host found unreachable is not asked again during the client's life.

import { isUtf8 } from 'node:buffer';
import { parseHttpDate } from '../../core/datetime.js';
import { SitemapError, checkCount, plural } from '../../core/errors.js';
import { notAUrl } from '../../core/url.js';
import { IdleDeadline } from './deadline.js';
import { ADDRESS_REFUSED, AddressPolicy, type AddressPolicyOptions } from './policy.js';
import { HostSlots, type Release } from './slots.js';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createNodeFetch, ENCODED_TOO_LARGE, NO_FINAL_STATUS, NODE_BODY, type NodeFetch, type NodeFetchInit } from './node-fetch.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;
const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_MAX_BODY_BYTES = 100 * 1024 * 1024;
const DEFAULT_CONCURRENCY = 16;
const DEFAULT_PER_HOST_CONCURRENCY = 4;
export const DEFAULT_RETRY_BASE_DELAY_MS = 1_000;
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

export type FetchFunction = typeof globalThis.fetch;

export interface HttpClientOptions extends AddressPolicyOptions {
  /** Injectable for tests; default Node's fetch with a dispatcher that checks addresses at connect time. */
  fetch?: FetchFunction;
  userAgent?: string;
  timeoutMs?: number;
  retries?: number;
  /** First backoff delay; doubled per retry, with jitter. */
  retryBaseDelayMs?: number;
  /** Longest wait before a retry, `Retry-After` included; a longer `Retry-After` is not waited for. */
  maxRetryDelayMs?: number;
  maxRedirects?: number;
  maxBodyBytes?: number;
  concurrency?: number;
  perHostConcurrency?: number;
  /** Aborts every request (a run deadline, Ctrl-C). */
  signal?: AbortSignal;
}

export interface HttpRequest {
  /** The headers of each hop, by its URL (its wait not charged to the deadline): e.g. the validators of that URL's stored copy. */
  headers?: (url: string) => Promise<Record<string, string> | undefined>;
  /** Asked before each redirect hop the address policy allows is followed (its wait not charged to the deadline): a reason not to follow it (e.g. its target was read already). */
  checkRedirect?: (from: string, to: string) => Promise<{ code: string; message: string } | undefined>;
  maxBodyBytes?: number;
}

interface Chain {
  /** The URLs requested after the first, in order (the last one answered). */
  redirects: string[];
  attempts: number;
}

export interface HttpResponse extends Chain {
  ok: true;
  status: number;
  /** The URL that answered (after redirects). */
  url: string;
  headers: Headers;
  body: HttpBody;
}

export interface HttpFailure extends Chain {
  ok: false;
  /** A diagnostic code: `fetch/timeout`, `fetch/connection`, `fetch/address-refused`, ... */
  code: string;
  message: string;
  /** The system error under a network failure (`ECONNREFUSED`, `ENOTFOUND`, …), when there is one. */
  cause?: string;
  /** The URL that failed (the last hop). */
  url: string;
}

export type HttpOutcome = HttpResponse | HttpFailure;

/** A failure while the body streams: `ERR_SITEMAP_INPUT`, its `rule` the diagnostic code (`fetch/truncated`, …). */
export class FetchFailure extends SitemapError {
  declare readonly rule: `fetch/${string}`;
  constructor(rule: `fetch/${string}`, message: string) {
    super('ERR_SITEMAP_INPUT', message, rule);
  }
}

/** How the end of a response's body is known (RFC 9112 §6.3; item 8: else "close-delimited"). */
export type BodyDelimitation = 'chunked' | 'content-length' | 'close';

function delimitationOf(headers: Pick<Headers, 'get'>): BodyDelimitation {
  const codings = headers.get('transfer-encoding');
  // §6.3 item 4: a Transfer-Encoding whose final coding is not chunked is read until the close.
  if (codings !== null) return /(?:^|,)[ \t]*chunked[ \t]*$/i.test(codings) ? 'chunked' : 'close';
  return headers.get('content-length') !== null ? 'content-length' : 'close';
}

/** System errors that say the host cannot be reached at all (not a hiccup of one connection). */
const HOST_DOWN_CAUSES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Whether a system error is a failed TLS handshake (`EPROTO`, `ERR_SSL_*`, a refused certificate): it
 * would fail the same way again, so it is not retried, and the origin is not asked again.
 */
function isTlsFailure(cause: string | undefined): boolean {
  return cause !== undefined && (cause === 'EPROTO' || /^ERR_(SSL|TLS)_|CERT|^UNABLE_TO_(GET|VERIFY)_/.test(cause));
}

/** A header's bytes (given as Latin-1 by node:http and fetch) as UTF-8 when they are, as browsers read a raw UTF-8 Location. */
function utf8(value: string | null): string | null {
  if (value === null || !/[\x80-\xff]/.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : value;
}

/** Whether a failure says the host cannot be reached: its other URLs would fail the same way. */
export function hostUnreachable(failure: Pick<HttpFailure, 'code' | 'cause'>): boolean {
  return failure.code === 'fetch/dns' || (failure.cause !== undefined && (HOST_DOWN_CAUSES.has(failure.cause) || isTlsFailure(failure.cause)));
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function isRetryStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** `Retry-After` in milliseconds (RFC 9110 §10.2.3: delay-seconds or an HTTP-date), if readable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = parseHttpDate(text, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

/** The wait after failed attempt `attempt`: exponential backoff with "equal jitter" (half fixed, half random). */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  const backoff = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return backoff / 2 + Math.random() * (backoff / 2);
}

interface Attempt {
  outcome: HttpOutcome;
  /** Worth another try (connection error, retry status), and after how long at least. */
  retry: boolean;
  retryAfter?: number | undefined;
}

/** A failed TLS connection to `host` in one line a person can act on, instead of OpenSSL's text. */
export function tlsFailureMessage(code: string, host: string, reason: string): string {
  const failure = code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? `is for other names than ${host.replace(/:\d+$/, '')}; use one that names it` : CERTIFICATE_FAILURES[code];
  if (failure !== undefined || code.includes('CERT')) return `TLS: the certificate of ${host} ${failure ?? `is not trusted (${code})`}`;
  // EPROTO, ERR_SSL_*: no TLS session at all. OpenSSL says why after "SSL routines:FUNCTION:".
  const why = /SSL routines:[^:]*:([^:]+)/.exec(reason)?.[1] ?? code;
  const plain = why === 'wrong version number' ? '; the port may speak plain http, not https' : '';
  return `TLS handshake failed: no TLS session with ${host} (${why})${plain}`;
}

const ISSUER_UNKNOWN = 'cannot be verified: its issuer is unknown (the server may not send its intermediate certificates; serve the full chain)';

/** What is wrong with a certificate Node refuses, by its code: "TLS: the certificate of HOST …". */
const CERTIFICATE_FAILURES: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: "is self-signed; crawlers do not trust it (use one from a public certificate authority, such as Let's Encrypt)",
  SELF_SIGNED_CERT_IN_CHAIN: 'chains to a self-signed root no crawler trusts (a private authority, or a proxy that intercepts TLS)',
  CERT_HAS_EXPIRED: 'has expired; renew it',
  CERT_NOT_YET_VALID: "is not valid yet; check its dates and the server's clock",
  CERT_REVOKED: 'has been revoked; replace it',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: ISSUER_UNKNOWN,
  UNABLE_TO_GET_ISSUER_CERT: ISSUER_UNKNOWN,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: ISSUER_UNKNOWN,
};

/** The fetch error (or abort reason) as a diagnostic code and message; `url` names the host that failed. */
function describeError(error: unknown, url?: string): { code: string; message: string; retry: boolean; cause?: string } {
  if (error instanceof FetchFailure) return { code: error.rule, message: error.message, retry: false };
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code;
  // OpenSSL's messages end in a newline: a report line must stay one line.
  const message = (cause?.message ?? (error as Error).message ?? String(error)).trim();
  if (code === ADDRESS_REFUSED) return { code: 'fetch/address-refused', message, retry: false };
  if (code === ENCODED_TOO_LARGE) return { code: 'fetch/too-large', message, retry: false };
  if (code === NO_FINAL_STATUS) return { code: 'fetch/http-status', message, retry: false };
  if (code === 'ENOTFOUND') {
    // Named, as the policy's lookup names it: after a redirect, the URL reported is not the one that failed.
    const host = url !== undefined ? new URL(url).hostname : 'the host';
    return { code: 'fetch/dns', message: `${host} could not be resolved (${code})`, retry: false, cause: code };
  }
  const name = (error as Error).name;
  if (name === 'AbortError' || name === 'TimeoutError') return { code: 'fetch/aborted', message: 'the run was stopped (its deadline, or an interrupt)', retry: false };
  if (isTlsFailure(code)) {
    const host = url !== undefined ? new URL(url).host : 'the server';
    return { code: 'fetch/connection', message: tlsFailureMessage(code as string, host, message), retry: false, cause: code as string };
  }
  // llhttp's HPE_* (headers over its limit, no HTTP at all): the server answers so every time.
  return { code: 'fetch/connection', message: code !== undefined ? `${code}: ${message}` : message, retry: !code?.startsWith('HPE_'), ...(code !== undefined ? { cause: code } : {}) };
}

/** Why an aborted request stopped: our deadline's failure, else the run was stopped (whatever the reason). */
function stopReason(signal: AbortSignal): unknown {
  return signal.reason instanceof FetchFailure ? signal.reason : new DOMException('stopped', 'AbortError');
}

export class HttpClient {
  readonly policy: AddressPolicy;
  private readonly fetchFn: FetchFunction;
  private readonly transport: NodeFetch | undefined;
  readonly slots: HostSlots;
  /** Requests sent (every attempt and hop). */
  requests = 0;
  /** Origins found unreachable, with the failure that showed it. */
  private readonly unreachable = new Map<string, HttpFailure>();

  constructor(private readonly options: HttpClientOptions = {}) {
    // No slot at all would wait for ever.
    checkCount('concurrency', options.concurrency, 1);
    checkCount('perHostConcurrency', options.perHostConcurrency, 1);
    checkCount('retries', options.retries, 0);
    checkCount('maxRedirects', options.maxRedirects, 0);
    this.policy = new AddressPolicy(options);
    if (options.fetch !== undefined) {
      this.fetchFn = options.fetch;
    } else {
      this.transport = createNodeFetch({ lookup: this.policy.guardedLookup() as never });
      this.fetchFn = this.transport.fetch;
    }
    this.slots = new HostSlots(options.concurrency ?? DEFAULT_CONCURRENCY, options.perHostConcurrency ?? DEFAULT_PER_HOST_CONCURRENCY);
  }

  async close(): Promise<void> {
    this.transport?.close();
  }

  /**
   * GET `url`: the final response (any status but a redirect), or why there is none. A response's
   * body must be read to the end or cancelled: it holds a connection slot until then.
   */
  async get(url: string, request: HttpRequest = {}): Promise<HttpOutcome> {
    const retries = this.options.retries ?? DEFAULT_RETRIES;
    const base = this.options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
    const maxDelay = this.options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
    for (let attempt = 1; ; attempt++) {
      const { outcome, retry, retryAfter } = await this.attempt(url, request, attempt);
      if (!outcome.ok && hostUnreachable(outcome) && (!retry || attempt > retries)) {
        const origin = new URL(outcome.url).origin;
        if (!this.unreachable.has(origin)) this.unreachable.set(origin, outcome);
      }
      if (!retry || attempt > retries || this.options.signal?.aborted === true) return outcome;
      const delay = retryAfter ?? backoffMs(attempt, base, maxDelay);
      if (delay > maxDelay) return outcome;
      if (outcome.ok) await outcome.body.cancel();
      // An abort ends the wait at once (the delay rejects).
      await sleep(delay, undefined, { signal: this.options.signal }).catch(() => {});
    }
  }

  /** For the message of a non-2xx final response: the URL that answered after a redirect, a redirect with no Location, the attempts made, and a Retry-After too long to wait for. */
  answerSaid(response: HttpResponse): string {
    const nowhere = REDIRECT_STATUSES.has(response.status) ? ', a redirect without a Location header: nowhere to follow (RFC 9110 §10.2.2)' : '';
    const attempts = `${response.redirects.length > 0 ? ` from ${response.url} (redirected)` : ''}${nowhere}${response.attempts > 1 ? ` after ${response.attempts} attempts` : ''}`;
    const asked = isRetryStatus(response.status) ? retryAfterMs(response.headers.get('retry-after')) : undefined;
    const longest = this.options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
    return asked !== undefined && asked > longest ? `${attempts}; not retried: its Retry-After asks for ${Math.ceil(asked / 1000)} s, more than the ${longest / 1000} s waited at most` : attempts;
  }

  // eslint-disable-next-line max-lines-per-function -- the redirects of one attempt share its deadline, signal and slot, released on every way out
  private async attempt(url: string, request: HttpRequest, attempts: number): Promise<Attempt> {
    // The first hop's slot is waited for before the request's signal, deadline and closures are made:
    // an index's 50,000 children wait at the cost of a promise each (~7 KB each with them).
    let firstSlot = URL.canParse(url) ? await this.slots.acquire(new URL(url).host) : undefined;
    const redirects: string[] = [];
    const controller = new AbortController();
    const runSignal = this.options.signal;
    const signal = runSignal === undefined ? controller.signal : AbortSignal.any([controller.signal, runSignal]);
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBody = request.maxBodyBytes ?? this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    let current = url;
    // The URL asked for is the caller's to name; a redirect's target that did not answer is said here.
    const deadline = new IdleDeadline(timeoutMs, () =>
      controller.abort(new FetchFailure('fetch/timeout', `no complete response${current !== url ? ` from ${current} (redirected)` : ''} within ${timeoutMs / 1000} s (the deadline covers the whole body)`)),
    );
    const failed = (code: string, message: string, at: string, retry = false, cause?: string): Attempt => {
      deadline.clear();
      return { outcome: { ok: false, code, message, url: at, redirects, attempts, ...(cause !== undefined ? { cause } : {}) }, retry };
    };
    for (;;) {
      if (!URL.canParse(current)) return failed('fetch/bad-url', notAUrl(current), current);
      const target = new URL(current);
      const refusal = await this.policy.check(target);
      if (refusal !== undefined) {
        firstSlot?.();
        // A refused hop is named: the URL asked for is not the one refused.
        return failed(refusal.code, current === url ? refusal.message : `not followed: redirects to ${current}, and ${refusal.message}`, current);
      }
      // The caller is asked about a redirect's target once the policy allows it (a file: URL has no robots.txt).
      const from = redirects.at(-2) ?? url;
      const stop = redirects.length > 0 && request.checkRedirect ? await deadline.held(request.checkRedirect(from, current)) : undefined;
      if (stop !== undefined) {
        redirects.pop();
        return failed(stop.code, stop.message, from);
      }
      // Waiting for a slot is our queue, not the server's slowness: not charged to the deadline.
      const release = firstSlot ?? (await deadline.held(this.slots.acquire(target.host)));
      firstSlot = undefined;
      const down = this.unreachable.get(target.origin);
      if (down !== undefined) {
        release();
        return failed(down.code, `${down.message} (found for ${down.url}; not requested again)`, current, false, down.cause);
      }
      let response: Response;
      try {
        const headers = await deadline.held(request.headers?.(current) ?? Promise.resolve(undefined));
        this.requests++;
        const init: NodeFetchInit = {
          redirect: 'manual',
          signal,
          maxEncodedBytes: maxBody,
          headers: { 'user-agent': this.options.userAgent ?? 'sitemapkit', ...headers },
        };
        response = await this.fetchFn(current, init);
      } catch (error) {
        release();
        const { code, message, retry, cause } = describeError(signal.aborted ? stopReason(signal) : error, current);
        return failed(code, message, current, retry, cause);
      }
      const location = utf8(response.headers.get('location'));
      if (REDIRECT_STATUSES.has(response.status) && location !== null) {
        await cancelBody(response);
        release();
        if (!URL.canParse(location, current)) {
          return failed('fetch/bad-redirect', `${response.status} redirect to an unusable Location: ${JSON.stringify(location)}`, current);
        }
        const resolved = new URL(location, current);
        resolved.hash = '';
        const next = resolved.href;
        if (next === url || redirects.includes(next)) {
          return failed('fetch/redirect-loop', `redirect loop: ${[url, ...redirects, next].join(' → ')}`, current);
        }
        if (redirects.length >= (this.options.maxRedirects ?? DEFAULT_MAX_REDIRECTS)) {
          return failed('fetch/too-many-redirects', `more than ${plural(redirects.length, 'redirect')} (last: ${next})`, current);
        }
        redirects.push(next);
        current = next;
        continue;
      }
      const length = Number(response.headers.get('content-length') ?? Number.NaN);
      // No Range is ever sent: a 206's body is a part of the document, not the document.
      const partial = response.status === 206;
      if (partial || length > maxBody) {
        await cancelBody(response);
        release();
        const range = response.headers.get('content-range');
        return partial
          ? failed('fetch/http-status', `HTTP 206 Partial Content${range !== null ? ` (${range})` : ''} to a request for the whole document: a 206 answers a Range request only, and none was sent (RFC 9110 §15.3.7)`, current)
          : failed('fetch/too-large', `Content-Length ${length} is over the ${maxBody}-byte cap`, current);
      }
      const body = new HttpBody(response, maxBody, deadline, release, signal);
      const outcome: HttpResponse = { ok: true, status: response.status, url: current, headers: response.headers, body, redirects, attempts };
      const retry = isRetryStatus(response.status);
      return { outcome, retry, retryAfter: retry ? retryAfterMs(response.headers.get('retry-after')) : undefined };
    }
  }
}

/**
 * A response body as an async iterable of chunks, read once; it ends the request when it ends, read,
 * cancelled or failed (`FetchFailure`: `fetch/too-large`, `fetch/timeout`, `fetch/truncated`, `fetch/body`).
 */
export class HttpBody implements AsyncIterable<Uint8Array> {
  /** Bytes handed over so far (after any Content-Encoding was undone). */
  bytes = 0;
  /** How the end of this body is known (RFC 9112 §6.3). */
  readonly delimitation: BodyDelimitation;
  private finished = false;

  constructor(
    private readonly response: Response,
    private readonly maxBytes: number,
    private readonly deadline: IdleDeadline,
    private readonly release: Release,
    private readonly signal: AbortSignal,
  ) {
    this.delimitation = delimitationOf(response.headers);
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.deadline.clear();
    this.release();
  }

  async cancel(): Promise<void> {
    if (this.finished) return;
    this.finish();
    await cancelBody(this.response);
  }

  /** Waits for `wait` without charging the deadline: the reader holds the body back, the server is not slow. */
  held(wait: Promise<void>): Promise<void> {
    return this.deadline.held(wait);
  }

  /** A reader's `backpressure` whose waits are held so. */
  holding(backpressure: () => Promise<void> | undefined): () => Promise<void> | undefined {
    return () => {
      const wait = backpressure();
      return wait === undefined ? undefined : this.held(wait);
    };
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    // Either kind of body, Node stream or web stream, is let go of when the loop is left early. Our
    // transport's responses have no web `body`: one without a Node stream has none at all.
    const source: AsyncIterable<Uint8Array> | null | undefined = nodeBodyOf(this.response) ?? (this.response.body as AsyncIterable<Uint8Array> | null);
    if (source == null || this.finished) {
      this.finish();
      return;
    }
    try {
      for await (const chunk of source) {
        this.bytes += chunk.byteLength;
        if (this.bytes > this.maxBytes) {
          throw new FetchFailure('fetch/too-large', `the body is over the ${this.maxBytes}-byte cap (after any Content-Encoding was undone)`);
        }
        yield chunk;
      }
    } catch (error) {
      throw this.broken(error);
    } finally {
      this.finish();
    }
  }

  /** What a failed read of the body is reported as. */
  private broken(error: unknown): unknown {
    const reason = this.signal.aborted ? stopReason(this.signal) : error;
    if (reason instanceof FetchFailure) return reason;
    const { code, message: said } = describeError(reason);
    if (code === 'fetch/aborted') return new FetchFailure(code, `${said} after ${plural(this.bytes, 'byte')} of the body`);
    if (code !== 'fetch/connection') return new FetchFailure(code as `fetch/${string}`, said);
    const zlibCode = (reason as { code?: string }).code;
    // zlib refusing the data (brotli says ERR__ERROR_…; gzip, undone by decompress.ts, gzip/corrupt) is a bad body; its input
    // ending early is a cut one, unless the response came whole by its Content-Length or last chunk: the server sent it unfinished.
    const gzip = reason instanceof SitemapError && reason.rule === 'gzip/corrupt';
    const message = gzip ? reason.message : said;
    if ((gzip || /^(?:Z_|ERR__ERROR_)/.test(zlibCode ?? '')) && (!message.includes('unexpected end of file') || this.delimitation !== 'close')) {
      return new FetchFailure('fetch/body', `the Content-Encoding could not be undone after ${plural(this.bytes, 'byte')}: ${message}`);
    }
    // What the body lacked, by how its end was to be known.
    const missing = this.delimitation === 'chunked' ? 'the connection ended before the last chunk of its chunked transfer coding'
      : this.delimitation === 'content-length' ? `the connection ended before the ${this.response.headers.get('content-length') ?? ''} bytes its Content-Length announced`
      : 'the connection broke instead of closing';
    return new FetchFailure('fetch/truncated', `the body was cut short after ${plural(this.bytes, 'byte')}: ${missing} (${message})`);
  }
}

/** The Node stream under a response of our own transport (node-fetch.ts NODE_BODY): undefined for any other fetch's. */
function nodeBodyOf(response: Response): Readable | null | undefined {
  return NODE_BODY in response ? (response as unknown as Record<typeof NODE_BODY, Readable | null>)[NODE_BODY] : undefined;
}

async function cancelBody(response: Response): Promise<void> {
  const nodeStream = nodeBodyOf(response);
  if (nodeStream !== undefined) nodeStream?.destroy();
  else await response.body?.cancel().catch(() => {});
}
