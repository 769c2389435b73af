// What the commands that fetch a sitemap share: the HTTP client of the network options, and what an
// address without a scheme means. Such an address is tried over https, never silently over http: a
// plain request to an address the user did not write could be changed on the way. An argument is a
// file first: only one that names no file and starts with a host name is taken for an address.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { HttpClient, HttpClientOptions } from '../node/http/client.js';
import type { SitemapInput } from '../node/parse-sitemap.js';
import type { SitemapSource } from '../node/sitemap-source.js';
import { UsageError } from './args.js';
import { definedOnly, type ParsedArgs } from './command.js';
import { SitemapError } from '../core/errors.js';
import { commandMessage, fatal, type CliIo } from './io.js';
import { userAgent } from './version.js';

/** The client options the network options say; a command that declares only some has defaults for the others. */
export async function httpClientOptions(args: ParsedArgs): Promise<HttpClientOptions> {
  const number = (name: string): number | undefined => (args.declares(name) ? args.number(name) : undefined);
  const ranges = args.declares('allow-address') ? args.list('allow-address') : [];
  const { parseCidr } = ranges.length > 0 ? await import('../core/net/address.js') : { parseCidr: undefined };
  for (const range of ranges) {
    if (parseCidr?.(range) === undefined) throw new UsageError(`--allow-address needs an address or range such as 127.0.0.1/32 or ::1/128, got ${JSON.stringify(range)}`);
  }
  return {
    userAgent: (args.declares('user-agent') ? args.text('user-agent') : undefined) ?? userAgent(),
    allowPrivate: args.flag('allow-private'),
    allowAddresses: ranges,
    ...definedOnly({ timeoutMs: number('timeout'), retries: number('retries'), maxRedirects: number('max-redirects') }),
  };
}

/** At least one input, and standard input at most once, when there is one. */
export function checkSitemapInputs(positionals: readonly string[], io: CliIo): void {
  if (positionals.length === 0) throw new UsageError('no input: give one or more sitemap files or URLs, or - for standard input');
  if (positionals.filter((p) => p === '-').length > 1) throw new UsageError('standard input (-) can be read only once');
  if (positionals.includes('-') && io.stdin === undefined) throw new UsageError('standard input is not available');
}

/** One client for a run, made at its first URL: a run over files does not load the network modules. */
export class LazyHttpClient {
  private client: HttpClient | undefined;
  constructor(private readonly options: HttpClientOptions) {}

  async get(): Promise<HttpClient> {
    this.client ??= new (await import('../node/http/client.js')).HttpClient(this.options);
    return this.client;
  }

  async close(): Promise<void> {
    await this.client?.close();
  }
}

export function isHttpUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

/** Endings that name a file, not a top-level domain (`sitemap.xml`, `urls.txt`). */
const FILE_ENDINGS = new Set(['xml', 'gz', 'txt', 'rss', 'atom', 'json', 'jsonl', 'csv', 'tsv', 'html', 'htm', 'xhtml']);

/** A host name with a top-level domain, `localhost`, an IPv4 address, or an IPv6 one in brackets. */
function isHostName(host: string): boolean {
  if (/^localhost$/i.test(host) || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || /^\[[0-9a-f:.]+\]$/i.test(host)) return true;
  const m = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+(\p{L}[\p{L}\p{N}-]*[\p{L}\p{N}])\.?$/u.exec(host);
  return m !== null && !FILE_ENDINGS.has((m[1] as string).toLowerCase());
}

/** `example.com` → `https://example.com/`; undefined when `text` has a scheme or starts with no host name. */
export function assumedHttpsUrl(text: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return undefined;
  const m = /^([^/?#\s]+)(?:[/?#]\S*)?$/.exec(text.trim());
  if (m === null) return undefined;
  const hostPort = /^(\[[^\]]+\]|[^:]+)(?::\d{1,5})?$/.exec(m[1] as string);
  if (hostPort === null || !isHostName(hostPort[1] as string)) return undefined;
  const url = `https://${text.trim()}`;
  return URL.canParse(url) ? new URL(url).href : undefined;
}

/**
 * The URL an input stands for, or undefined for a file (or `-`). `assumed` when written without a
 * scheme: the command then says so on standard error (unless `quiet`).
 */
export function inputUrl(input: string, io: CliIo, command: string, quiet: boolean, progress?: { clear(): void }): { url: string; assumed: boolean } | undefined {
  if (isHttpUrl(input)) return { url: input, assumed: false };
  if (input === '-' || existsSync(resolve(io.cwd, input))) return undefined;
  const url = assumedHttpsUrl(input);
  if (url === undefined) return undefined;
  if (!quiet) {
    progress?.clear();
    io.stderr.write(schemeNotice(command, url, input));
  }
  return { url, assumed: true };
}

/** What an argument names: a URL (inputUrl), or the input read locally (standard input or a file); `file` names it in messages. */
export function sitemapInput(path: string, io: CliIo, command: string, quiet: boolean, progress: { clear(): void }): { remote?: { url: string; assumed: boolean }; file: string; local?: SitemapInput } {
  const remote = inputUrl(path, io, command, quiet, progress);
  if (remote !== undefined) return { remote, file: remote.url };
  return path === '-' ? { file: '<stdin>', local: io.stdin as NodeJS.ReadableStream as AsyncIterable<Uint8Array | string> } : { file: path, local: path };
}

/** A source of `diff` or `report`: a URL (inputUrl, `assumed` when given without a scheme) or a path. */
export function sitemapSource(text: string, io: CliIo, command: string, quiet: boolean): SitemapSource & { assumed?: boolean } {
  return inputUrl(text, io, command, quiet) ?? { path: text };
}

export function schemeNotice(command: string, url: string, missingFile?: string): string {
  const file = missingFile !== undefined ? ` (there is no file ${missingFile})` : '';
  return commandMessage(command, `no scheme given: trying ${url}${file}`);
}

/** The hint when nothing answered over https at an address given without a scheme. */
export function noHttpsHint(command: string, url: string): string {
  const http = new URL(url);
  http.protocol = 'http:';
  return commandMessage(command, `${new URL(url).host} did not answer over https; use ${http.href} if the site has no https (there is no fallback to plain http)`);
}

/** A name that does not resolve, or an address the policy refuses, would fail over http alike: no hint. */
export function httpsUnreachable(reason: string, responded: boolean): boolean {
  return !responded && (reason === 'fetch/connection' || reason === 'fetch/timeout');
}

/** An input that cannot be read (a SitemapError of one of `codes`): `fatal`'s line, then noHttpsHint if it calls for one; the exit code. Any other error is rethrown. */
export async function inputFailure(io: CliIo, command: string, error: unknown, assumed: boolean, codes = ['ERR_SITEMAP_INPUT']): Promise<number> {
  if (!(error instanceof SitemapError) || !codes.includes(error.code)) throw error;
  const { SitemapFetchError } = assumed ? await import('../node/fetch-sitemap.js') : { SitemapFetchError: undefined };
  const code = fatal(io, command, error.message);
  if (SitemapFetchError !== undefined && error instanceof SitemapFetchError && httpsUnreachable(error.rule, error.responded)) io.stderr.write(noHttpsHint(command, error.url));
  return code;
}
