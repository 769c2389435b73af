// The package's version and the User-Agent sent with every request.

import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function version(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cached;
}

/** The default User-Agent: product and version (RFC 9110 §10.1.5); the project has no contact address. */
export function userAgent(): string {
  return `sitemapkit/${version()}`;
}
