// fetchSitemap: one sitemap document fetched for reading, as `validate URL` and `read URL` both do
// (issue 23: "`read URL` reads a URL with the same fetch, policy and budgets as `validate URL`").
// The client brings the address policy (checked at every redirect hop), the deadline over the whole
// body, retries and the byte caps (http/client.ts); here a status other than 2xx is refused, and any
// failure, before the response or while its body streams, becomes one `ERR_SITEMAP_INPUT` error that
// names the fetch code (`fetch/truncated`, `fetch/timeout`, …) or the HTTP status. The body is left
// as sent: a gzip file is recognised by its magic bytes by the reader (parse-sitemap.ts), not by a
// header or the URL's name.

import { SitemapError } from '../core/errors.js';
import { FetchFailure, type HttpClient } from './http/client.js';

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

export interface FetchSitemapOptions {
  /** Caps the body (after any Content-Encoding was undone); else the client's cap. */
  maxBytes?: number;
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
  /**
   * Waits for `wait` (a slow reader of the output: backpressure) without charging the time to the
   * request's deadline; the server is not the slow one.
   */
  held(wait: Promise<void>): Promise<void>;
  /** A reader's `backpressure` whose waits are held so (undefined stays undefined). */
  holding(backpressure: (() => Promise<void> | undefined) | undefined): (() => Promise<void> | undefined) | undefined;
  /** Lets go of the body unread (or of what is left of it). */
  cancel(): Promise<void>;
}

/**
 * GET `url` with `client` for reading as a sitemap. Throws a `SitemapFetchError` (code
 * `ERR_SITEMAP_INPUT`) when there is nothing to read: refused by the policy, a network failure, the
 * deadline, a status other than 2xx.
 */
export async function fetchSitemap(url: string, client: HttpClient, options: FetchSitemapOptions = {}): Promise<FetchedSitemap> {
  const outcome = await client.get(url, options.maxBytes !== undefined ? { maxBodyBytes: options.maxBytes } : {});
  if (!outcome.ok) throw new SitemapFetchError(url, outcome.code as `fetch/${string}`, `${outcome.message} (${outcome.code})`, false);
  if (outcome.status < 200 || outcome.status > 299) {
    await outcome.body.cancel();
    throw new SitemapFetchError(url, 'fetch/http-status', `HTTP ${outcome.status}${client.retriesSaid(outcome)}`, true, outcome.status);
  }
  const response = outcome.body;
  async function* body(): AsyncGenerator<Uint8Array> {
    try {
      yield* response;
    } catch (error) {
      if (error instanceof FetchFailure) throw new SitemapFetchError(url, error.rule, `${error.message} (${error.rule})`, true);
      throw error;
    }
  }
  return {
    url,
    finalUrl: outcome.url,
    status: outcome.status,
    headers: outcome.headers,
    body: body(),
    held: (wait) => response.held(wait),
    holding: (backpressure) =>
      backpressure &&
      (() => {
        const wait = backpressure();
        return wait === undefined ? undefined : response.held(wait);
      }),
    cancel: () => response.cancel(),
  };
}
