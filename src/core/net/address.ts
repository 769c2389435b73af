// IP address literals: parsing, the special-purpose range an address falls in (IANA registries, RFC
// 6890), and CIDR ranges, by hand (the core has no node:net), for refusing non-public destinations.
// IPv4 is canonical dotted decimal only: `01.2.3.4` is refused, as readers disagree whether `01` is
// octal (WHATWG URL hostnames are canonical already). IPv6 is RFC 4291 §2.2 text, a zone id (RFC 4007
// §11) stripped. An IPv6 address embedding an IPv4 one (mapped, compatible, NAT64, 6to4) takes the
// kind of the embedded address, since that is where packets end up.

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved' | 'shared' | 'documentation';

/** A parsed address: 4 octets for IPv4, 16 for IPv6, network byte order. */
export interface IpAddress {
  version: 4 | 6;
  bytes: Uint8Array;
}

/** An address range: `bytes` is the network address (host bits cleared), `prefixLength` 0–32 or 0–128. */
export interface Cidr extends IpAddress {
  prefixLength: number;
}

/** IPv4 as an unsigned 32-bit number, or -1. */
function parseIpv4Number(text: string): number {
  const parts = text.split('.');
  if (parts.length !== 4) return -1;
  let value = 0;
  for (const part of parts) {
    if (!/^(?:0|[1-9][0-9]{0,2})$/.test(part)) return -1;
    const octet = Number(part);
    if (octet > 255) return -1;
    value = value * 256 + octet;
  }
  return value;
}

const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

/** The 16-bit groups of some `:`-separated parts of an IPv6 text; `endsAddress`: the last may be a dotted quad. */
function hexGroups(text: string, endsAddress: boolean): number[] | undefined {
  const out: number[] = [];
  const parts = text === '' ? [] : text.split(':');
  for (const [i, part] of parts.entries()) {
    if (endsAddress && i === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4Number(part); // RFC 4291 §2.2 form 3: x:x:x:x:x:x:d.d.d.d
      if (v4 < 0) return undefined;
      out.push(v4 >>> 16, v4 & 0xffff);
    } else if (HEX_GROUP.test(part)) {
      out.push(parseInt(part, 16));
    } else {
      return undefined; // empty (a lone leading or trailing `:`, or `:::`), too long, or not hex
    }
  }
  return out;
}

/** The 16-bit groups of an IPv6 text (zone already removed), or undefined. */
function parseIpv6Groups(text: string): number[] | undefined {
  const [headText, tailText, ...more] = text.split('::') as [string, string | undefined];
  if (more.length > 0) return undefined; // `::` twice
  const head = hexGroups(headText, tailText === undefined);
  const tail = hexGroups(tailText ?? '', true);
  if (head === undefined || tail === undefined) return undefined;
  if (tailText === undefined) return head.length === 8 ? head : undefined;
  // RFC 4291 §2.2: `::` stands for one or more groups of zeros (WHATWG URL agrees).
  const missing = 8 - head.length - tail.length;
  return missing < 1 ? undefined : [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/** Parses an address literal (see the top of this file); `allowZone` false refuses a `%zone` instead of stripping it. */
export function parseIpAddress(text: string, allowZone = true): IpAddress | undefined {
  if (text.includes(':')) {
    let address = text;
    const percent = text.indexOf('%');
    if (percent >= 0) {
      if (!allowZone || percent === text.length - 1) return undefined;
      address = text.slice(0, percent);
    }
    const groups = parseIpv6Groups(address);
    if (groups === undefined) return undefined;
    return { version: 6, bytes: Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 255])) };
  }
  const v4 = parseIpv4Number(text);
  return v4 < 0 ? undefined : { version: 4, bytes: Uint8Array.of(v4 >>> 24, (v4 >>> 16) & 255, (v4 >>> 8) & 255, v4 & 255) };
}

type Range = [network: Uint8Array, prefixLength: number, kind: AddressKind];

function range(text: string, kind: AddressKind): Range {
  const [address, prefix] = text.split('/') as [string, string];
  return [(parseIpAddress(address) as IpAddress).bytes, Number(prefix), kind];
}

// IANA IPv4 Special-Purpose Address Registry (RFC 6890 §2.2.2 and later additions). 255.255.255.255
// (limited broadcast) lies in 240.0.0.0/4 and is reserved with it.
const IPV4_RANGES: readonly Range[] = [
  range('0.0.0.0/8', 'unspecified'), // RFC 791 "this network"; 0.0.0.0 reaches the local host on many systems
  range('10.0.0.0/8', 'private'), // RFC 1918
  range('100.64.0.0/10', 'shared'), // RFC 6598, carrier-grade NAT
  range('127.0.0.0/8', 'loopback'), // RFC 1122 §3.2.1.3
  range('169.254.0.0/16', 'link-local'), // RFC 3927; holds 169.254.169.254, the cloud metadata service
  range('172.16.0.0/12', 'private'), // RFC 1918
  range('192.0.0.0/24', 'reserved'), // RFC 6890, IETF protocol assignments
  range('192.0.2.0/24', 'documentation'), // RFC 5737 TEST-NET-1
  range('192.168.0.0/16', 'private'), // RFC 1918
  range('198.18.0.0/15', 'reserved'), // RFC 2544, benchmarking
  range('198.51.100.0/24', 'documentation'), // RFC 5737 TEST-NET-2
  range('203.0.113.0/24', 'documentation'), // RFC 5737 TEST-NET-3
  range('224.0.0.0/4', 'multicast'), // RFC 5771
  range('240.0.0.0/4', 'reserved'), // RFC 1112 §4, and 255.255.255.255 (RFC 919)
];

// IANA IPv6 Special-Purpose Address Registry. The ranges that embed an IPv4 address are handled in
// `ipv6Kind` before this table; what is outside 2000::/3 and not listed here is reserved.
const IPV6_RANGES: readonly Range[] = [
  range('64:ff9b:1::/48', 'reserved'), // RFC 8215, local-use NAT64: not globally reachable
  range('100::/64', 'reserved'), // RFC 6666, discard-only
  range('2001:db8::/32', 'documentation'), // RFC 3849
  range('2001::/23', 'reserved'), // RFC 2928 IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHID
  range('3fff::/20', 'documentation'), // RFC 9637
  range('fc00::/7', 'private'), // RFC 4193 unique local
  range('fe80::/10', 'link-local'), // RFC 4291 §2.5.6
  range('fec0::/10', 'private'), // RFC 3879, deprecated site-local
  range('ff00::/8', 'multicast'), // RFC 4291 §2.7
];

function inPrefix(bytes: Uint8Array, network: Uint8Array, prefixLength: number): boolean {
  const whole = prefixLength >> 3;
  for (let i = 0; i < whole; i++) if (bytes[i] !== network[i]) return false;
  const rest = prefixLength & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[whole] as number) & mask) === ((network[whole] as number) & mask);
}

function kindFromTable(bytes: Uint8Array, ranges: readonly Range[]): AddressKind | undefined {
  for (const [network, prefixLength, kind] of ranges) if (inPrefix(bytes, network, prefixLength)) return kind;
  return undefined;
}

function ipv4Kind(bytes: Uint8Array): AddressKind {
  return kindFromTable(bytes, IPV4_RANGES) ?? 'public';
}

const V4_MAPPED = range('::ffff:0:0/96', 'public');
const V4_COMPATIBLE = range('::/96', 'public');
const NAT64 = range('64:ff9b::/96', 'public');
const SIX_TO_FOUR = range('2002::/16', 'public');

function ipv6Kind(bytes: Uint8Array): AddressKind {
  let zeroPrefix = 0;
  while (zeroPrefix < 16 && bytes[zeroPrefix] === 0) zeroPrefix++;
  if (zeroPrefix === 16) return 'unspecified'; // ::/128
  if (zeroPrefix === 15 && bytes[15] === 1) return 'loopback'; // ::1/128
  // The kinds of the IPv4 address inside: RFC 4291 §2.5.5.2 (mapped), §2.5.5.1 (compatible,
  // deprecated), RFC 6052 (NAT64 well-known prefix), RFC 3056 §2 (6to4: bits 16–47).
  if (inPrefix(bytes, V4_MAPPED[0], 96) || inPrefix(bytes, V4_COMPATIBLE[0], 96) || inPrefix(bytes, NAT64[0], 96)) return ipv4Kind(bytes.subarray(12));
  if (inPrefix(bytes, SIX_TO_FOUR[0], 16)) return ipv4Kind(bytes.subarray(2, 6));
  const listed = kindFromTable(bytes, IPV6_RANGES);
  if (listed !== undefined) return listed;
  // RFC 4291 §2.4 and the IANA IPv6 Address Space registry: only 2000::/3 is global unicast; the rest
  // not named above is reserved by the IETF.
  return ((bytes[0] as number) & 0xe0) === 0x20 ? 'public' : 'reserved';
}

/** The special-purpose range `ip` falls in, `'public'` for none; undefined when `ip` is not an address literal. */
export function addressKind(ip: string): AddressKind | undefined {
  const address = parseIpAddress(ip);
  if (address === undefined) return undefined;
  return address.version === 4 ? ipv4Kind(address.bytes) : ipv6Kind(address.bytes);
}

/**
 * Whether `ip` is an address literal in no special-purpose range. Documentation ranges are not
 * public: they are never routed (RFC 5737, RFC 3849), so a URL naming one is bogus or a trick.
 */
export function isPublicAddress(ip: string): boolean {
  return addressKind(ip) === 'public';
}

/** The address in a WHATWG URL `hostname` that is an IP literal (`[::1]` → `::1`); undefined for a domain name. */
export function hostAddressLiteral(hostname: string): string | undefined {
  if (hostname.startsWith('[') && hostname.endsWith(']')) {
    const inner = hostname.slice(1, -1);
    return parseIpAddress(inner)?.version === 6 ? inner : undefined;
  }
  return parseIpAddress(hostname) === undefined ? undefined : hostname;
}

/**
 * Parses `address/prefix` (`10.0.0.0/8`, `::1/128`); a bare address is a range of one, and bits after
 * the prefix are cleared. Surrounding whitespace is ignored; a zone id is refused.
 */
export function parseCidr(text: string): Cidr | undefined {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const address = parseIpAddress(slash >= 0 ? trimmed.slice(0, slash) : trimmed, false);
  if (address === undefined) return undefined;
  const maxLength = address.version === 4 ? 32 : 128;
  let prefixLength = maxLength;
  if (slash >= 0) {
    const prefixText = trimmed.slice(slash + 1);
    if (!/^(?:0|[1-9][0-9]{0,2})$/.test(prefixText)) return undefined;
    prefixLength = Number(prefixText);
    if (prefixLength > maxLength) return undefined;
  }
  const bytes = address.bytes;
  for (let bit = prefixLength; bit < maxLength; bit++) bytes[bit >> 3] = (bytes[bit >> 3] as number) & ~(0x80 >> (bit & 7));
  return { version: address.version, bytes, prefixLength };
}

/**
 * Whether `ip` lies in `cidr`. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is the same host as the
 * IPv4 address to a dual-stack socket, so each is matched against ranges of the other family too.
 */
export function cidrContains(cidr: Cidr, ip: string): boolean {
  const address = parseIpAddress(ip);
  if (address === undefined) return false;
  let bytes = address.bytes;
  if (address.version !== cidr.version) {
    if (address.version === 6) {
      if (!inPrefix(bytes, V4_MAPPED[0], 96)) return false;
      bytes = bytes.subarray(12);
    } else {
      bytes = new Uint8Array(16);
      bytes.set(V4_MAPPED[0].subarray(0, 12));
      bytes.set(address.bytes, 12);
    }
  }
  return inPrefix(bytes, cidr.bytes, cidr.prefixLength);
}
