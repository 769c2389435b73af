// IndexNow submission: POSTs the payloads of src/core/indexnow.ts to one endpoint as
// https://www.indexnow.org/documentation shows, and says per payload whether it was accepted. Retries
// on 429, 5xx and connection errors with the GET client's backoff and `Retry-After` reading; never on
// other 4xx (the same body gets the same answer), a timeout or an unknown host. A plain timer as
// deadline (nothing parses meanwhile). Redirects are not followed: a 301/302 would turn the POST into
// a GET. No address policy: the endpoint is the user's explicit choice.

import { setTimeout as delay } from 'node:timers/promises';
import { explainIndexNowStatus, indexNowEndpoint, type IndexNowPayload } from '../core/indexnow.js';
import { backoffMs, DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_RETRIES, DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_TIMEOUT_MS, retryAfterMs, type FetchFunction } from './http/client.js';

/** Enough of an error body to show what the endpoint said (Bing and Yandex answer a short JSON or text). */
const RESPONSE_EXCERPT_BYTES = 2_048;
const RESPONSE_EXCERPT_CHARS = 300;

export interface IndexNowSubmitOptions {
  /** Any form `indexNowEndpoint` takes; default https://api.indexnow.org/indexnow. */
  endpoint?: string | undefined;
  /** Injectable for tests; default Node's fetch. */
  fetch?: FetchFunction | undefined;
  /** Retries after the first attempt, for 429, 5xx and connection errors. */
  retries?: number | undefined;
  /** First backoff delay; doubled per retry, with jitter. */
  retryBaseDelayMs?: number | undefined;
  /** Longest wait before a retry, `Retry-After` included; a longer `Retry-After` is not waited for. */
  maxRetryDelayMs?: number | undefined;
  /** Deadline of one request. */
  timeoutMs?: number | undefined;
  /** The CLI passes `userAgent()` of src/cli/version.ts. */
  userAgent?: string | undefined;
  /** Stops the run: the request under way is aborted, the payloads not sent yet are reported as not sent. */
  signal?: AbortSignal | undefined;
  /** Called with each payload's result once final; a promise it returns is awaited before the next payload. */
  onResult?: ((result: IndexNowResult) => unknown) | undefined;
  /** Injectable for tests; resolves early when `signal` aborts. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

export interface IndexNowResult {
  payload: IndexNowPayload;
  /** The submission URL, after `indexNowEndpoint`. */
  endpoint: string;
  /** The last HTTP status, if the endpoint answered at all. */
  status?: number;
  /** 200 or 202: the URLs were received and can be recorded as submitted. */
  accepted: boolean;
  /** `indexnow/accepted`, `indexnow/forbidden`, ..., `indexnow/connection`, `indexnow/timeout`, `indexnow/aborted`. */
  code: string;
  message: string;
  hint?: string;
  /** Requests sent for this payload (0 when the run stopped before it). */
  attempts: number;
  /** The network error, when there was no answer. */
  error?: string;
  /** The start of the endpoint's answer when it refused (whitespace collapsed, shortened). */
  response?: string;
}

interface Attempt {
  result: Omit<IndexNowResult, 'payload' | 'endpoint' | 'attempts'>;
  retry: boolean;
  /** From `Retry-After`, in milliseconds. */
  retryAfter?: number | undefined;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => {});
}

/**
 * POSTs each payload to the endpoint, in order, one at a time: one result per payload, whatever the
 * endpoint answered or the network did. Throws `SitemapError` for a bad endpoint.
 */
export async function submitIndexNow(payloads: Iterable<IndexNowPayload>, options: IndexNowSubmitOptions = {}): Promise<IndexNowResult[]> {
  const endpoint = indexNowEndpoint(options.endpoint);
  const retries = options.retries ?? DEFAULT_RETRIES;
  const base = options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  const maxDelay = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const sleep = options.sleep ?? defaultSleep;
  const signal = options.signal;
  // A function, not a narrowed property: the signal can abort during any await below.
  const stopped = (): boolean => signal?.aborted === true;
  const results: IndexNowResult[] = [];

  for (const payload of payloads) {
    let result: IndexNowResult;
    if (stopped()) {
      result = { payload, endpoint, accepted: false, code: 'indexnow/aborted', message: 'not submitted: the run was stopped first', attempts: 0 };
    } else {
      const body = JSON.stringify(payload);
      for (let attempt = 1; ; attempt++) {
        const { result: outcome, retry, retryAfter } = await post(endpoint, body, payload, options);
        result = { payload, endpoint, ...outcome, attempts: attempt };
        if (!retry || stopped()) break;
        if (attempt > retries) {
          // Whether it was retried is said here, where it is known (--retries 0 sends once).
          result.message += attempt === 1 ? ' (not retried)' : ` (gave up after ${attempt} attempts)`;
          break;
        }
        const wait = retryAfter ?? backoffMs(attempt, base, maxDelay);
        if (wait > maxDelay) {
          result.message += ` (the endpoint asked to wait ${Math.ceil(wait / 1000)} s before a retry, more than the ${maxDelay / 1000} s this waits; not retried)`;
          break;
        }
        await sleep(wait, signal);
        if (stopped()) break;
      }
    }
    results.push(result);
    await options.onResult?.(result);
  }
  return results;
}

/** One request: the endpoint's answer explained, or why there was none. */
async function post(endpoint: string, body: string, payload: IndexNowPayload, options: IndexNowSubmitOptions): Promise<Attempt> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const runSignal = options.signal;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const signal = runSignal === undefined ? deadline.signal : AbortSignal.any([deadline.signal, runSignal]);
  try {
    const response = await fetchFn(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': options.userAgent ?? 'sitemapkit' },
      body,
      redirect: 'manual',
      signal,
    });
    const explained = explainIndexNowStatus(response.status, payload);
    // An accepted answer's body says nothing the status does not; a refusal's may say which rule failed.
    let excerpt: string | undefined;
    if (explained.accepted) await response.body?.cancel().catch(() => {});
    else excerpt = await readExcerpt(response);
    const location = response.headers.get('location');
    const message = response.status >= 300 && response.status <= 399 && location !== null ? `${explained.message} (Location: ${location})` : explained.message;
    const result: Attempt['result'] = { status: response.status, accepted: explained.accepted, code: explained.code, message };
    if (explained.hint !== undefined) result.hint = explained.hint;
    if (excerpt !== undefined && excerpt !== '') result.response = excerpt;
    return { result, retry: explained.retry, retryAfter: explained.retry ? retryAfterMs(response.headers.get('retry-after')) : undefined };
  } catch (error) {
    const failed = (code: string, message: string, retry = false, hint?: string): Attempt => ({
      result: { accepted: false, code, message, ...(hint !== undefined ? { hint } : {}), error: describe(error) },
      retry,
    });
    if (runSignal?.aborted === true) return failed('indexnow/aborted', 'the run was stopped during the request; the URLs count as not submitted');
    if (deadline.signal.aborted) return failed('indexnow/timeout', `no answer from the endpoint within ${timeoutMs / 1000} s`);
    const cause = (error as { cause?: { code?: unknown } }).cause;
    if (cause?.code === 'ENOTFOUND') {
      return failed('indexnow/dns', `the endpoint's host could not be resolved: ${new URL(endpoint).hostname}`, false, 'check --endpoint');
    }
    return failed('indexnow/connection', 'could not reach the endpoint', true);
  } finally {
    clearTimeout(timer);
  }
}

/** The error and its cause, as `fetch failed: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9`. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause === undefined) return message;
  const code = typeof cause.code === 'string' ? `${cause.code} ` : '';
  const causeMessage = typeof cause.message === 'string' && cause.message !== '' ? cause.message : '';
  return `${message}: ${code}${causeMessage}`.trimEnd();
}

/** The start of the body as one line of text; the rest is not read. */
async function readExcerpt(response: Response): Promise<string | undefined> {
  const stream = response.body;
  if (stream === null) return undefined;
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    while (bytes < RESPONSE_EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
    }
  } catch {
    // The body broke off: what arrived is still worth showing; the status is the answer.
  } finally {
    await reader.cancel().catch(() => {});
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES)).replace(/\s+/g, ' ').trim();
  return text.length > RESPONSE_EXCERPT_CHARS ? `${text.slice(0, RESPONSE_EXCERPT_CHARS - 3)}...` : text;
}
