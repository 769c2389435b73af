// validateSitemapUrl: validate a sitemap where it is served (issue #5: "`sitemapkit validate URL` uses
// this fetcher, so the location scope is checked against the real URL"). The document is fetched with
// the discover client (address policy, deadline, retries, redirects, byte caps) and streamed through
// validateSitemap; the location is the URL that answered, after redirects, unless one is given.

import { SitemapError } from '../core/errors.js';
import { FetchFailure, HttpClient, type HttpClientOptions } from './http/client.js';
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
 * Fetch `url` and validate it. Throws `ERR_SITEMAP_INPUT` when it cannot be fetched (refused by the
 * policy, a network error, a status other than 2xx, the deadline): there is nothing to validate.
 */
export async function validateSitemapUrl(url: string, options: ValidateSitemapUrlOptions = {}): Promise<SitemapUrlValidationResult> {
  const client = options.client ?? new HttpClient(options);
  try {
    const outcome = await client.get(url, options.maxBytes !== undefined ? { maxBodyBytes: options.maxBytes } : {});
    if (!outcome.ok) throw new SitemapError('ERR_SITEMAP_INPUT', `cannot fetch ${url}: ${outcome.message} (${outcome.code})`);
    if (outcome.status < 200 || outcome.status > 299) {
      await outcome.body.cancel();
      throw new SitemapError('ERR_SITEMAP_INPUT', `cannot fetch ${url}: HTTP ${outcome.status}${outcome.attempts > 1 ? ` after ${outcome.attempts} attempts` : ''}`);
    }
    const location = options.location ?? outcome.url;
    try {
      const result = await validateSitemap(outcome.body, { ...options, file: options.file ?? url, location });
      return { ...result, finalUrl: outcome.url, status: outcome.status };
    } catch (error) {
      if (error instanceof FetchFailure) throw new SitemapError('ERR_SITEMAP_INPUT', `cannot fetch ${url}: ${error.message} (${error.code})`);
      throw error;
    }
  } finally {
    if (options.client === undefined) await client.close();
  }
}
