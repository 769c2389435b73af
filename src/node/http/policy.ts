// Where the fetcher may go (DESIGN.md "Hostile input is normal input"): only http and https, and never
// to a loopback, private, link-local or other non-public address unless allowed: a sitemap index is a
// stranger's input, and a child on 169.254.169.254 (cloud metadata) must not be fetched. The address is
// checked before the request and again at connect time (`guardedLookup`), against DNS rebinding.

import type { LookupAddress } from 'node:dns';
import { addressKind, cidrContains, hostAddressLiteral, isPublicAddress, parseCidr, type Cidr } from '../../core/net/address.js';
import { SitemapError } from '../../core/errors.js';

/** `dns.lookup` with `{ all: true }`, injectable for tests. */
export type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

// node:dns is loaded at the first lookup, not with the package (see node-fetch.ts).
const systemLookupAll: LookupAll = async (hostname) => {
  const { lookup } = await import('node:dns');
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });
};

export interface AddressPolicyOptions {
  /** Allow every non-public address (the tests' 127.0.0.1). */
  allowPrivate?: boolean;
  /** Allow non-public addresses in these ranges only (`127.0.0.1/32`, `10.0.0.0/8`, `::1/128`). */
  allowAddresses?: readonly string[];
  lookup?: LookupAll;
}

/** Why a request was refused: `code` is the diagnostic code. */
export interface Refusal {
  code: 'fetch/scheme-refused' | 'fetch/address-refused' | 'fetch/dns';
  message: string;
}

/** The `code` of guardedLookup's error for a refused address (client.ts: `fetch/address-refused`). */
export const ADDRESS_REFUSED = 'SITEMAPKIT_ADDRESS_REFUSED';

export class AddressPolicy {
  private readonly allowPrivate: boolean;
  private readonly allowed: Cidr[];
  private readonly lookup: LookupAll;
  /** Name → refusal (or undefined when fine), so a host is resolved once per run before requests. */
  private readonly checked = new Map<string, Promise<Refusal | undefined>>();

  constructor(options: AddressPolicyOptions = {}) {
    this.allowPrivate = options.allowPrivate === true;
    this.allowed = (options.allowAddresses ?? []).map((text) => {
      const cidr = parseCidr(text);
      if (cidr === undefined) throw new SitemapError('ERR_SITEMAP_OPTION', `not an address range: ${JSON.stringify(text)} (e.g. 127.0.0.1/32 or ::1/128)`);
      return cidr;
    });
    this.lookup = options.lookup ?? systemLookupAll;
  }

  /** Undefined when `ip` may be connected to, else why not. */
  addressRefusal(ip: string, hostname?: string): string | undefined {
    if (this.allowPrivate || isPublicAddress(ip)) return undefined;
    if (this.allowed.some((cidr) => cidrContains(cidr, ip))) return undefined;
    const kind = addressKind(ip) ?? 'invalid';
    const aKind = `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address`;
    const what = hostname === undefined ? `${ip} is ${aKind}` : `${hostname} resolves to ${ip}, ${aKind}`;
    return `${what} (use --allow-private to fetch from private networks)`;
  }

  /** Checks a URL before it is requested: its scheme, and the addresses its host stands for. */
  async check(url: URL): Promise<Refusal | undefined> {
    // sitemaps.org protocol and issue #5: sitemaps are fetched over http and https only.
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { code: 'fetch/scheme-refused', message: `${url.protocol.slice(0, -1)}: URLs are not fetched (only http and https)` };
    }
    const literal = hostAddressLiteral(url.hostname);
    if (literal !== undefined) {
      const why = this.addressRefusal(literal);
      return why === undefined ? undefined : { code: 'fetch/address-refused', message: why };
    }
    if (this.allowPrivate) return undefined;
    if (!this.checked.has(url.hostname)) this.checked.set(url.hostname, this.resolveAndCheck(url.hostname));
    return this.checked.get(url.hostname);
  }

  private async resolveAndCheck(hostname: string): Promise<Refusal | undefined> {
    let addresses: LookupAddress[];
    try {
      addresses = await this.lookup(hostname);
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'error';
      return { code: 'fetch/dns', message: `${hostname} could not be resolved (${code})` };
    }
    const why = this.refusalOf(hostname, addresses);
    return why === undefined ? undefined : { code: 'fetch/address-refused', message: why };
  }

  /** Why `hostname` may not be connected to, when one of the addresses it resolves to is refused. */
  private refusalOf(hostname: string, addresses: readonly LookupAddress[]): string | undefined {
    return addresses.map(({ address }) => this.addressRefusal(address, hostname)).find((why) => why !== undefined);
  }

  /** A `lookup` for the transport's agents: `dns.lookup`, failing with code ADDRESS_REFUSED for a refused address. */
  guardedLookup(): (hostname: string, options: object, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => void {
    return (hostname, options, callback) => {
      const all = (options as { all?: boolean }).all === true;
      this.lookup(hostname).then(
        (addresses) => {
          const why = this.refusalOf(hostname, addresses);
          if (why !== undefined) {
            callback(Object.assign(new Error(why), { code: ADDRESS_REFUSED }), []);
            return;
          }
          const first = addresses[0];
          if (all) callback(null, addresses);
          else if (first === undefined) callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), []);
          else callback(null, first.address, first.family);
        },
        (error: Error) => callback(error, []),
      );
    };
  }
}
