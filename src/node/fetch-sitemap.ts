// fetchSitemap: one sitemap fetched for reading, by `validate URL`, `read URL` and the like. The client
// brings the address policy, deadline, retries and byte caps (http/client.ts); here a status other than
// 2xx is refused and any failure becomes one `ERR_SITEMAP_INPUT` error naming its `fetch/…` code. The
// body is left as sent: the reader finds gzip by its magic bytes.

import { SitemapError } from '../core/errors.js';
import { FetchFailure, type HttpClient } from './http/client.js';
import { rethrowing } from './io-errors.js';

/**
 * Why a sitemap URL could not be read: there is nothing (or only part) to read. `rule` is the `fetch/…`
 * diagnostic code (docs/rules.md), `fetch/http-status` for a response other than 2xx.
 */
export class SitemapFetchError extends SitemapError {
  declare readonly rule: `fetch/${string}`;
  /** The URL asked for. */
  readonly url: string;
  /** The HTTP status when the server answered with one other than 2xx. */
  readonly status: number | undefined;
  /** Whether a response had started: false for a failure to connect, resolve or be allowed. */
  readonly responded: boolean;

  constructor(url: string, rule: `fetch/${string}`, message: string, responded: boolean, status?: number) {
    super('ERR_SITEMAP_INPUT', `cannot fetch ${url}: ${message}`, rule);
    this.name = 'SitemapFetchError';
    this.url = url;
    this.status = status;
    this.responded = responded;
  }
}

export interface FetchedSitemap {
  /** The URL asked for. */
  readonly url: string;
  /** The URL that answered (after redirects). */
  readonly finalUrl: string;
  readonly status: number;
  readonly headers: Headers;
  /** The body's bytes, read once; a failure while it streams throws a `SitemapFetchError`. */
  readonly body: AsyncIterable<Uint8Array>;
  /** Waits for `wait` (a slow reader of the output) without charging the time to the request's deadline. */
  held(wait: Promise<void>): Promise<void>;
  /** A reader's `backpressure` whose waits are held so (undefined stays undefined). */
  holding(backpressure: (() => Promise<void> | undefined) | undefined): (() => Promise<void> | undefined) | undefined;
  /** Lets go of the body unread (or of what is left of it). */
  cancel(): Promise<void>;
}

/**
 * GET `url` for reading as a sitemap; throws a `SitemapFetchError` when there is nothing to read. The
 * body is not capped here: its reader stops at its own budget (--max-bytes, budget/…), as for a file.
 */
export async function fetchSitemap(url: string, client: HttpClient): Promise<FetchedSitemap> {
  const outcome = await client.get(url, { maxBodyBytes: Number.MAX_SAFE_INTEGER });
  if (!outcome.ok) throw new SitemapFetchError(url, outcome.code as `fetch/${string}`, `${outcome.message} (${outcome.code})`, false);
  if (outcome.status < 200 || outcome.status > 299) {
    await outcome.body.cancel();
    throw new SitemapFetchError(url, 'fetch/http-status', `HTTP ${outcome.status}${client.answerSaid(outcome)}`, true, outcome.status);
  }
  const response = outcome.body;
  return {
    url,
    finalUrl: outcome.url,
    status: outcome.status,
    headers: outcome.headers,
    body: rethrowing(response, (error) => (error instanceof FetchFailure ? new SitemapFetchError(url, error.rule, `${error.message} (${error.rule})`, true) : error)),
    held: (wait) => response.held(wait),
    holding: (backpressure) => backpressure && response.holding(backpressure),
    cancel: () => response.cancel(),
  };
}
