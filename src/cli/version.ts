// The package's version and the User-Agent sent with every request.

import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function version(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cached;
}

/**
 * The User-Agent of every request when `--user-agent` is not given: the product token and version
 * (RFC 9110 §10.1.5), and no contact address, since the project has no public one to name.
 */
export function userAgent(): string {
  return `sitemapkit/${version()}`;
}
