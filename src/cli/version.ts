// The package's version and the User-Agent sent with every request (issue #5: `sitemapkit/VERSION (+project URL)`).

import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function version(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cached;
}

export const PROJECT_URL = 'https://github.com/sitemapkit/sitemapkit';

export function userAgent(): string {
  return `sitemapkit/${version()} (+${PROJECT_URL})`;
}
