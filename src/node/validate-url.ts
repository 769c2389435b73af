// validateSitemapUrl: validate a sitemap where it is served, fetched with discover's client and streamed
// through validateSitemap; the location scope is checked against the URL that answered, after redirects.

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

/** Fetch `url` and validate it. Throws a `SitemapFetchError` (`ERR_SITEMAP_INPUT`) when it cannot be fetched whole. */
export async function validateSitemapUrl(url: string, options: ValidateSitemapUrlOptions = {}): Promise<SitemapUrlValidationResult> {
  const client = options.client ?? new HttpClient(options);
  try {
    const fetched = await fetchSitemap(url, client);
    const location = options.baseUrl ?? options.location ?? fetched.finalUrl;
    // Waiting for the report's reader is not charged to the server's deadline.
    const validating: ValidateSitemapOptions = { ...options, file: options.file ?? url, baseUrl: location, backpressure: fetched.holding(options.backpressure) };
    const result = await validateSitemap(fetched.body, validating);
    return { ...result, finalUrl: fetched.finalUrl, status: fetched.status };
  } finally {
    if (options.client === undefined) await client.close();
  }
}
