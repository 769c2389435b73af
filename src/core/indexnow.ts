// IndexNow as values: the endpoint, the payloads, what a status code means (the HTTP side is
// src/node/indexnow.ts). From https://www.indexnow.org/documentation: `POST /indexnow` with the JSON
// body `{host, key, keyLocation?, urlList}`, "up to 10,000 URLs per post"; a key of 8 to 128 characters
// of a-z, A-Z, 0-9 and "-" (any letter, though the page also says "hexadecimal"); ownership proved by a
// text file holding the key, `/KEY.txt` or `keyLocation` on the same host, one in a directory covering
// only the URLs under it (https://yandex.com/support/webmaster/en/indexnow/key). The status codes are
// those of https://yandex.com/support/webmaster/en/indexnow/reference.

import { SitemapError, plural } from './errors.js';

export const DEFAULT_INDEXNOW_ENDPOINT = 'https://api.indexnow.org/indexnow';
/** The protocol's ceiling: "up to 10,000 URLs per post". */
const INDEXNOW_MAX_URLS_PER_POST = 10_000;
const INDEXNOW_KEY_MIN_LENGTH = 8;
const INDEXNOW_KEY_MAX_LENGTH = 128;

/** One POST body, with the fields in the order the protocol's example shows. */
export interface IndexNowPayload {
  /** The URLs' host as `URL.host` gives it: lower case, punycode, with a port only if not the default. */
  host: string;
  key: string;
  /** Present only when the key file is not at `/KEY.txt` on this payload's host. */
  keyLocation?: string;
  urlList: string[];
}

export interface IndexNowPayloadOptions {
  key: string;
  /** The key file's URL when it is not `/KEY.txt` at the root of the host. */
  keyLocation?: string | undefined;
  /** At most 10,000 (the protocol's limit); smaller batches are allowed. */
  maxUrlsPerPost?: number | undefined;
}

interface IndexNowStatusExplanation {
  /** The URLs were received (200, 202): the submission can be recorded. */
  accepted: boolean;
  /** Worth another try after a wait (429, 5xx). */
  retry: boolean;
  /** Stable code: `indexnow/accepted`, `indexnow/forbidden`, ... */
  code: string;
  message: string;
  hint?: string;
}

const KEY_CHARACTER = /^[a-zA-Z0-9-]$/;

/** Why `key` is not an IndexNow key, or undefined if it is one. */
export function indexNowKeyProblem(key: string): string | undefined {
  if (key.length === 0) return 'the IndexNow key is empty';
  // Code points, so that one emoji is reported as one character, not two halves of a surrogate pair.
  const characters = [...key];
  const badAt = characters.findIndex((c) => !KEY_CHARACTER.test(c));
  if (badAt >= 0) {
    return `the IndexNow key has ${JSON.stringify(characters[badAt])} at position ${badAt + 1}; a key uses only a-z, A-Z, 0-9 and "-"`;
  }
  if (key.length < INDEXNOW_KEY_MIN_LENGTH || key.length > INDEXNOW_KEY_MAX_LENGTH) {
    return `the IndexNow key has ${plural(key.length, 'character')}; a key has ${INDEXNOW_KEY_MIN_LENGTH} to ${INDEXNOW_KEY_MAX_LENGTH}`;
  }
  return undefined;
}

const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/**
 * The submission URL for `--endpoint`: `https://api.indexnow.org/indexnow` by default; a bare host is
 * taken as https; a URL without a path gets `/indexnow`. Throws `ERR_SITEMAP_OPTION` unless http(s).
 */

export function indexNowEndpoint(input?: string): string {
  const text = input?.trim() ?? '';
  if (text === '') return DEFAULT_INDEXNOW_ENDPOINT;
  const absolute = HAS_SCHEME.test(text) ? text : `https://${text}`;
  if (!URL.canParse(absolute)) {
    throw new SitemapError('ERR_SITEMAP_OPTION', `the IndexNow endpoint ${JSON.stringify(input)} is not a URL or a host name`);
  }
  const url = new URL(absolute);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SitemapError('ERR_SITEMAP_OPTION', `the IndexNow endpoint must be http or https, got ${JSON.stringify(input)}`);
  }
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/indexnow';
  url.hash = '';
  return url.href;
}

function httpUrl(text: string, what: string): URL {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.host === '') {
    throw new SitemapError('ERR_SITEMAP_OPTION', `${what} ${JSON.stringify(text)} is not an absolute http(s) URL`);
  }
  return url;
}

/**
 * The POST bodies for `urls`: one group per host, in the order first seen, cut into batches of at most
 * `maxUrlsPerPost`, each URL once (compared as written). `keyLocation` goes only into its own host's
 * payloads: a key file proves ownership of its host alone, and only of the URLs under its folder. Throws
 * `SitemapError` for misuse: an invalid key (check `indexNowKeyProblem` first), a URL or keyLocation
 * not absolute http(s), a keyLocation on none of the URLs' hosts, a URL of keyLocation's host outside its
 * folder, a batch size outside 1 to 10,000.
 */
export function indexNowPayloads(urls: Iterable<string>, options: IndexNowPayloadOptions): IndexNowPayload[] {
  const { key, keyLocation } = options;
  const maxUrls = options.maxUrlsPerPost ?? INDEXNOW_MAX_URLS_PER_POST;
  const keyProblem = indexNowKeyProblem(key);
  if (keyProblem !== undefined) throw new SitemapError('ERR_SITEMAP_OPTION', keyProblem);
  if (!Number.isInteger(maxUrls) || maxUrls < 1 || maxUrls > INDEXNOW_MAX_URLS_PER_POST) {
    throw new SitemapError('ERR_SITEMAP_OPTION', `URLs per IndexNow post must be a whole number from 1 to ${INDEXNOW_MAX_URLS_PER_POST}, got ${maxUrls}`);
  }
  const keyUrl = keyLocation === undefined ? undefined : httpUrl(keyLocation, 'the IndexNow keyLocation');
  // "A request with the key can contain only pages located in the same directory as the key" (Yandex's
  // key page; indexnow.org/documentation: a key file in a folder submits only the URLs under it).
  const keyFolder = keyUrl?.pathname.slice(0, keyUrl.pathname.lastIndexOf('/') + 1);
  const outside: string[] = [];

  const byHost = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const url of urls) {
    if (seen.has(url)) continue;
    seen.add(url);
    const parsed = httpUrl(url, 'the URL');
    const host = parsed.host;
    if (host === keyUrl?.host && !parsed.pathname.startsWith(keyFolder as string)) outside.push(url);
    const list = byHost.get(host);
    if (list === undefined) byHost.set(host, [url]);
    else list.push(url);
  }
  if (keyUrl !== undefined && seen.size > 0 && !byHost.has(keyUrl.host)) {
    throw new SitemapError(
      'ERR_SITEMAP_OPTION',
      `the key file ${keyLocation} (keyLocation) is on ${keyUrl.host}, and no URL is (e.g. ${seen.values().next().value}): it would go unused, since a key file proves ownership of its own host only; put it on the URLs' host`,
    );
  }
  if (keyUrl !== undefined && outside.length > 0) {
    const total = (byHost.get(keyUrl.host) as string[]).length;
    throw new SitemapError(
      'ERR_SITEMAP_OPTION',
      `${outside.length} of the ${total} URLs on ${keyUrl.host} are outside ${keyFolder}, the folder of the key file ${keyLocation} (keyLocation), e.g. ${outside[0]}: a key file authorises only the URLs under its folder; put it at the root of the host (${keyUrl.protocol}//${keyUrl.host}/${key}.txt) or in a folder above them all`,
    );
  }

  const payloads: IndexNowPayload[] = [];
  for (const [host, list] of byHost) {
    for (let start = 0; start < list.length; start += maxUrls) {
      const urlList = list.slice(start, start + maxUrls);
      payloads.push(host === keyUrl?.host ? { host, key, keyLocation: keyLocation as string, urlList } : { host, key, urlList });
    }
  }
  return payloads;
}

/** Where the engine looks for the key file: the payload's keyLocation, or `/KEY.txt` at its host's root. */
export function indexNowKeyFileUrl(payload: Pick<IndexNowPayload, 'host' | 'key' | 'keyLocation' | 'urlList'>): string {
  if (payload.keyLocation !== undefined) return payload.keyLocation;
  const scheme = payload.urlList[0]?.startsWith('http://') === true ? 'http' : 'https';
  return `${scheme}://${payload.host}/${payload.key}.txt`;
}

/** What an endpoint's status code means, with a stable code; hints name the payload's host and key file. */
export function explainIndexNowStatus(status: number, payload?: IndexNowPayload): IndexNowStatusExplanation {
  const keyFile = payload === undefined ? 'https://HOST/KEY.txt (or at --key-location)' : indexNowKeyFileUrl(payload);
  const host = payload?.host ?? 'the host named in the payload';
  // The protocol's answers: [code, message, hint].
  const defined: Record<number, [string, string, string?]> = {
    200: ['indexnow/accepted', '200 OK: the URLs were received (not a promise that they will be crawled)'],
    202: [
      'indexnow/accepted',
      '202 Accepted: the URLs were received; the key is not validated yet',
      `the engine will fetch ${keyFile} to validate the key: keep it there`,
    ],
    400: [
      'indexnow/bad-request',
      '400 Bad Request: the endpoint found the request malformed',
      'check that --endpoint is an IndexNow submission URL (such as https://api.indexnow.org/indexnow)',
    ],
    403: [
      'indexnow/forbidden',
      '403 Forbidden: the key is not valid: its key file is missing, or does not contain the key',
      `serve a UTF-8 text file holding only the key at ${keyFile} (--write-key-file writes KEY.txt into the output)`,
    ],
    422: [
      'indexnow/unprocessable',
      '422 Unprocessable Entity: some URLs do not belong to the host, or the key (or keyLocation) does not fit the protocol',
      `every URL must be on ${host}; a key file in a directory covers only the URLs under that directory; the key has 8 to 128 characters of a-z, A-Z, 0-9 and "-"`,
    ],
    429: [
      'indexnow/too-many-requests',
      '429 Too Many Requests: the endpoint is limiting this client (it may take the rate for spam)',
      'if it persists, submit less often and only URLs that changed',
    ],
  };
  const server = status >= 500 && status <= 599;
  const [code, message, hint] = defined[status] ?? (
    server ? ['indexnow/server-error', `${status}: the endpoint failed (a server error)`]
    // Not followed: a redirected POST may turn into a GET without its body (RFC 9110 §15.4).
    : status >= 300 && status <= 399 ? ['indexnow/unexpected-status', `${status}: the endpoint redirects; the submission was not followed there`, 'give the final submission URL with --endpoint']
    : ['indexnow/unexpected-status', `${status}: a status the IndexNow protocol does not define; the URLs were not accepted`]
  );
  return { accepted: status === 200 || status === 202, retry: status === 429 || server, code, message, ...(hint !== undefined ? { hint } : {}) };
}
