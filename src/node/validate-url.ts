// validateSitemapUrl: validate a sitemap where it is served (issue #5: "`sitemapkit validate URL` uses
// this fetcher, so the location scope is checked against the real URL"). The document is fetched with
// the discover client (address policy, deadline, retries, redirects, byte caps) and streamed through
// validateSitemap; the location is the URL that answered, after redirects, unless one is given.

import { HttpClient, type HttpClientOptions } from './http/client.js';
import { fetchSitemap } from './fetch-sitemap.js';
import { validateSitemap, type SitemapValidationResult, type ValidateSitemapOptions } from './validate-sitemap.js';

export interface ValidateSitemapUrlOptions extends ValidateSitemapOptions, HttpClientOptions {
  /** A client to share between calls (its concurrency limits and address checks); else one per call. */
  client?: HttpClient;
}

export interface SitemapUrlValidationResult extends SitemapValidationResult {
  /** The URL that answered (after redirects). */
  readonly finalUrl: string;
  readonly status: number;
}

/**
 * Fetch `url` and validate it. Throws `ERR_SITEMAP_INPUT` (a `SitemapFetchError`) when it cannot be
 * fetched (refused by the policy, a network error, a status other than 2xx, the deadline, a body cut
 * short): there is nothing, or only part, to validate.
 */
export async function validateSitemapUrl(url: string, options: ValidateSitemapUrlOptions = {}): Promise<SitemapUrlValidationResult> {
  const client = options.client ?? new HttpClient(options);
  try {
    const fetched = await fetchSitemap(url, client, options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {});
    const location = options.baseUrl ?? options.location ?? fetched.finalUrl;
    // Time spent waiting for the reader of the report is not the server's: it is not charged to the deadline.
    const validating: ValidateSitemapOptions = { ...options, file: options.file ?? url, baseUrl: location, backpressure: fetched.holding(options.backpressure) };
    const result = await validateSitemap(fetched.body, validating);
    return { ...result, finalUrl: fetched.finalUrl, status: fetched.status };
  } finally {
    if (options.client === undefined) await client.close();
  }
}
