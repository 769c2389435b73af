import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addressKind, cidrContains, hostAddressLiteral, isPublicAddress, parseCidr, parseIpAddress, type AddressKind, type Cidr } from '../../../src/core/net/address.js';

const dotted = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  assert.ok(parsed, `parseCidr(${JSON.stringify(text)})`);
  return parsed;
}

function checkKinds(cases: [ip: string, kind: AddressKind][]): void {
  for (const [ip, kind] of cases) assert.equal(addressKind(ip), kind, ip);
}

describe('addressKind: IPv4 range boundaries', () => {
  // For each range: the address just before, the first, the last, the one just after.
  const cases: [string, AddressKind][] = [
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['1.0.0.0', 'public'],
    ['9.255.255.255', 'public'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['11.0.0.0', 'public'],
    ['100.63.255.255', 'public'],
    ['100.64.0.0', 'shared'],
    ['100.127.255.255', 'shared'],
    ['100.128.0.0', 'public'],
    ['126.255.255.255', 'public'],
    ['127.0.0.0', 'loopback'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.255', 'loopback'],
    ['128.0.0.0', 'public'],
    ['169.253.255.255', 'public'],
    ['169.254.0.0', 'link-local'],
    ['169.254.169.254', 'link-local'],
    ['169.254.255.255', 'link-local'],
    ['169.255.0.0', 'public'],
    ['172.15.255.255', 'public'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', 'public'],
    ['191.255.255.255', 'public'],
    ['192.0.0.0', 'reserved'],
    ['192.0.0.255', 'reserved'],
    ['192.0.1.0', 'public'],
    ['192.0.1.255', 'public'],
    ['192.0.2.0', 'documentation'],
    ['192.0.2.255', 'documentation'],
    ['192.0.3.0', 'public'],
    ['192.167.255.255', 'public'],
    ['192.168.0.0', 'private'],
    ['192.168.255.255', 'private'],
    ['192.169.0.0', 'public'],
    ['198.17.255.255', 'public'],
    ['198.18.0.0', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.20.0.0', 'public'],
    ['198.51.99.255', 'public'],
    ['198.51.100.0', 'documentation'],
    ['198.51.100.255', 'documentation'],
    ['198.51.101.0', 'public'],
    ['203.0.112.255', 'public'],
    ['203.0.113.0', 'documentation'],
    ['203.0.113.255', 'documentation'],
    ['203.0.114.0', 'public'],
    ['223.255.255.255', 'public'],
    ['224.0.0.0', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.0', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
  ];
  it('classifies the first and last address of every range and their neighbours', () => checkKinds(cases));
});

describe('addressKind: IPv6', () => {
  it('unspecified and loopback', () => {
    checkKinds([
      ['::', 'unspecified'],
      ['0:0:0:0:0:0:0:0', 'unspecified'],
      ['::1', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['::1:0:0:0', 'reserved'], // the rest of ::/8
      ['::1:0:0', 'reserved'],
    ]);
  });

  it('IPv4-mapped ::ffff:0:0/96 and IPv4-compatible ::/96 take the embedded address kind', () => {
    checkKinds([
      ['::ffff:0.0.0.0', 'unspecified'],
      ['::ffff:0:0', 'unspecified'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'], // how WHATWG URL writes it
      ['::FFFF:10.1.2.3', 'private'],
      ['::ffff:169.254.169.254', 'link-local'],
      ['::ffff:8.8.8.8', 'public'],
      ['::ffff:ffff:ffff', 'reserved'],
      ['::fffe:ffff:ffff', 'reserved'], // just below the mapped range: ::/8
      ['::1:0:0:0:0', 'reserved'],
      ['::8.8.8.8', 'public'],
      ['::127.0.0.2', 'loopback'],
      ['::2', 'unspecified'], // 0.0.0.2, "this network"
    ]);
  });

  it('NAT64 64:ff9b::/96 takes the embedded address kind; 64:ff9b:1::/48 is reserved', () => {
    checkKinds([
      ['64:ff9b::8.8.8.8', 'public'],
      ['64:ff9b::127.0.0.1', 'loopback'],
      ['64:ff9b::a9fe:a9fe', 'link-local'],
      ['64:ff9b::ffff:ffff', 'reserved'],
      ['64:ff9b::1:0:0', 'reserved'], // outside the /96
      ['64:ff9b:1::', 'reserved'],
      ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'reserved'],
    ]);
  });

  it('6to4 2002::/16 takes the kind of the IPv4 address in bits 16–47', () => {
    checkKinds([
      ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
      ['2002::', 'unspecified'],
      ['2002:808:808::1', 'public'],
      ['2002:7f00:1::', 'loopback'],
      ['2002:a00:1::', 'private'],
      ['2002:c0a8:101::1', 'private'],
      ['2002:a9fe:a9fe:ffff:ffff:ffff:ffff:ffff', 'link-local'],
      ['2002:ffff:ffff::', 'reserved'],
      ['2003::', 'public'],
    ]);
  });

  it('Teredo and the other IETF protocol assignments in 2001::/23 are reserved', () => {
    checkKinds([
      ['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
      ['2001::', 'reserved'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
      ['2001:2::1', 'reserved'],
      ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
      ['2001:200::', 'public'],
    ]);
  });

  it('documentation ranges 2001:db8::/32 and 3fff::/20', () => {
    checkKinds([
      ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
      ['2001:db8::', 'documentation'],
      ['2001:DB8::1', 'documentation'],
      ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
      ['2001:db9::', 'public'],
      ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
      ['3fff::', 'documentation'],
      ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
      ['3fff:1000::', 'public'],
    ]);
  });

  it('discard 100::/64, unique local, site-local, link-local, multicast', () => {
    checkKinds([
      ['100::', 'reserved'],
      ['100::ffff:ffff:ffff:ffff', 'reserved'],
      ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
      ['fc00::', 'private'],
      ['fd12:3456:789a::1', 'private'],
      ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
      ['fe00::', 'reserved'],
      ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
      ['fe80::', 'link-local'],
      ['FE80::1', 'link-local'],
      ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
      ['fec0::', 'private'],
      ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
      ['ff00::', 'multicast'],
      ['ff02::1', 'multicast'],
      ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
    ]);
  });

  it('global unicast 2000::/3 is public; the unassigned rest is reserved', () => {
    checkKinds([
      ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
      ['2000::', 'public'],
      ['2606:4700:4700::1111', 'public'],
      ['2a00:1450:4001:82b::200e', 'public'],
      ['4000::', 'reserved'],
      ['1::', 'reserved'],
      ['5f00::1', 'reserved'],
    ]);
  });

  it('strips a zone id (RFC 4007 §11)', () => {
    checkKinds([
      ['fe80::1%eth0', 'link-local'],
      ['fe80::1%25', 'link-local'],
      ['ff02::1%1', 'multicast'],
    ]);
  });
});

describe('addressKind: malformed input is not an address', () => {
  const malformed = [
    '',
    'example.com',
    'localhost',
    '1.2.3',
    '1.2.3.4.5',
    '1.2.3.256',
    '1.2.3.4.',
    '.1.2.3.4',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '1..2.3',
    '1.2.3.-1',
    '1.2.3.+4',
    '1.2.3.1e1',
    '01.2.3.4', // leading zero: octal to inet_aton and WHATWG URL, so refused
    '1.2.3.04',
    '1.2.3.0000',
    '0x7f.0.0.1',
    '2130706433',
    '١.٢.٣.٤',
    '::1::',
    ':::',
    ':',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1::2:3:4:5:6:7:8', // `::` must stand for at least one group (RFC 4291 §2.2)
    '1:2:3:4:5:6:7:8::',
    ':1::',
    '1::2:',
    ':1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8:',
    '12345::',
    'g::',
    '::ffff:1.2.3',
    '::ffff:01.2.3.4',
    '::ffff:1.2.3.4:5',
    '1.2.3.4::',
    '1:2:3:4:5:6:7:1.2.3.4',
    '::1%',
    '[::1]',
    '1.2.3.4%eth0',
  ];
  for (const text of malformed) {
    it(JSON.stringify(text), () => {
      assert.equal(addressKind(text), undefined);
      assert.equal(parseIpAddress(text), undefined);
      assert.equal(isPublicAddress(text), false);
    });
  }

  it('accepts the edge forms RFC 4291 §2.2 allows', () => {
    checkKinds([
      ['1:2:3:4:5:6:7::', 'reserved'],
      ['::2:3:4:5:6:7:8', 'reserved'],
      ['2001:db8:0:0:0:0:2:1', 'documentation'],
      ['2001:db8::0:1', 'documentation'],
      ['2001:0db8:0000:0000:0000:0000:0000:0001', 'documentation'],
      ['1:2:3:4:5:6:1.2.3.4', 'reserved'],
    ]);
    assert.deepEqual(parseIpAddress('::ffff:1.2.3.4')?.bytes, Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4));
    assert.deepEqual(parseIpAddress('1.2.3.4'), { version: 4, bytes: Uint8Array.of(1, 2, 3, 4) });
  });

  it('parseIpAddress refuses a zone id when asked', () => {
    assert.equal(parseIpAddress('fe80::1%eth0', false), undefined);
    assert.equal(parseIpAddress('fe80::1', false)?.version, 6);
  });
});

describe('isPublicAddress', () => {
  it('is true only for public addresses; documentation ranges are not public', () => {
    assert.equal(isPublicAddress('8.8.8.8'), true);
    assert.equal(isPublicAddress('2606:4700:4700::1111'), true);
    assert.equal(isPublicAddress('::ffff:8.8.8.8'), true);
    for (const ip of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '192.0.2.1', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', '2001:db8::1', '::ffff:127.0.0.1', '2002:7f00:1::', 'not an ip']) {
      assert.equal(isPublicAddress(ip), false, ip);
    }
  });
});

describe('hostAddressLiteral', () => {
  it('finds the address in WHATWG URL hostnames', () => {
    const cases: [url: string, literal: string | undefined, kind: AddressKind | undefined][] = [
      ['http://127.0.0.1/', '127.0.0.1', 'loopback'],
      ['http://0x7f.1/', '127.0.0.1', 'loopback'],
      ['http://2130706433/', '127.0.0.1', 'loopback'],
      ['http://0177.0.0.1/', '127.0.0.1', 'loopback'],
      ['http://[::1]:8080/', '::1', 'loopback'],
      ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1', 'loopback'],
      ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', '::ffff:a9fe:a9fe', 'link-local'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254', 'link-local'],
      ['https://[2606:4700:4700::1111]/', '2606:4700:4700::1111', 'public'],
      ['https://example.com/', undefined, undefined],
      ['https://localhost/', undefined, undefined],
      ['https://1.2.3.4.example/', undefined, undefined],
    ];
    for (const [url, literal, kind] of cases) {
      const found = hostAddressLiteral(new URL(url).hostname);
      assert.equal(found, literal, url);
      assert.equal(found === undefined ? undefined : addressKind(found), kind, url);
    }
  });

  it('returns undefined for brackets around something that is not IPv6', () => {
    assert.equal(hostAddressLiteral('[1.2.3.4]'), undefined);
    assert.equal(hostAddressLiteral('[example]'), undefined);
    assert.equal(hostAddressLiteral('[]'), undefined);
    assert.equal(hostAddressLiteral(''), undefined);
    assert.equal(hostAddressLiteral('::1'), '::1'); // a bare IPv6 literal is fine too
  });
});

describe('parseCidr and cidrContains', () => {
  it('parses v4 and v6 ranges, a bare address as a range of one, clearing host bits', () => {
    assert.deepEqual(parseCidr('10.0.0.0/8'), { version: 4, bytes: Uint8Array.of(10, 0, 0, 0), prefixLength: 8 });
    assert.deepEqual(parseCidr('10.1.2.3/8'), { version: 4, bytes: Uint8Array.of(10, 0, 0, 0), prefixLength: 8 });
    assert.deepEqual(parseCidr('172.31.255.255/12'), { version: 4, bytes: Uint8Array.of(172, 16, 0, 0), prefixLength: 12 });
    assert.deepEqual(parseCidr('127.0.0.1'), { version: 4, bytes: Uint8Array.of(127, 0, 0, 1), prefixLength: 32 });
    assert.deepEqual(parseCidr(' 0.0.0.0/0 '), { version: 4, bytes: Uint8Array.of(0, 0, 0, 0), prefixLength: 0 });
    assert.equal(parseCidr('::1')?.prefixLength, 128);
    assert.deepEqual(parseCidr('fe80::1/10')?.bytes, parseIpAddress('fe80::')?.bytes);
    assert.equal(parseCidr('::/0')?.prefixLength, 0);
  });

  it('refuses what is not a range', () => {
    for (const text of ['', '/8', '10.0.0.0/', '10.0.0.0/33', '10.0.0.0/08', '10.0.0.0/-1', '10.0.0.0/+8', '10.0.0.0/ 8', '10.0.0.0/8/8', '10.0.0/8', '::/129', 'fe80::1%eth0/64', 'fe80::1%eth0', 'example.com/8', '[::1]/128']) {
      assert.equal(parseCidr(text), undefined, JSON.stringify(text));
    }
  });

  it('IPv4 containment at the edges', () => {
    const ten = cidr('10.0.0.0/8');
    assert.equal(cidrContains(ten, '10.0.0.0'), true);
    assert.equal(cidrContains(ten, '10.255.255.255'), true);
    assert.equal(cidrContains(ten, '9.255.255.255'), false);
    assert.equal(cidrContains(ten, '11.0.0.0'), false);
    const twelve = cidr('172.16.0.0/12');
    assert.equal(cidrContains(twelve, '172.31.255.255'), true);
    assert.equal(cidrContains(twelve, '172.32.0.0'), false);
    assert.equal(cidrContains(twelve, '172.15.255.255'), false);
    const host = cidr('127.0.0.1/32');
    assert.equal(cidrContains(host, '127.0.0.1'), true);
    assert.equal(cidrContains(host, '127.0.0.2'), false);
    assert.equal(cidrContains(cidr('0.0.0.0/0'), '255.255.255.255'), true);
    assert.equal(cidrContains(cidr('0.0.0.0/0'), '::1'), false);
    assert.equal(cidrContains(ten, 'not an ip'), false);
  });

  it('IPv6 containment at the edges', () => {
    const linkLocal = cidr('fe80::/10');
    assert.equal(cidrContains(linkLocal, 'fe80::'), true);
    assert.equal(cidrContains(linkLocal, 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'), true);
    assert.equal(cidrContains(linkLocal, 'fec0::'), false);
    assert.equal(cidrContains(linkLocal, 'fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff'), false);
    assert.equal(cidrContains(linkLocal, 'fe80::1%eth0'), true);
    const doc = cidr('2001:db8::/32');
    assert.equal(cidrContains(doc, '2001:db8:ffff::1'), true);
    assert.equal(cidrContains(doc, '2001:db9::'), false);
    assert.equal(cidrContains(cidr('::1/128'), '::1'), true);
    assert.equal(cidrContains(cidr('::1/128'), '::2'), false);
    assert.equal(cidrContains(cidr('::/0'), 'ffff::'), true);
    assert.equal(cidrContains(cidr('2001:db8::/127'), '2001:db8::1'), true);
    assert.equal(cidrContains(cidr('2001:db8::/127'), '2001:db8::2'), false);
  });

  it('matches an IPv4-mapped IPv6 address against IPv4 ranges and the other way round', () => {
    assert.equal(cidrContains(cidr('127.0.0.1/32'), '::ffff:127.0.0.1'), true);
    assert.equal(cidrContains(cidr('127.0.0.1/32'), '::ffff:7f00:1'), true);
    assert.equal(cidrContains(cidr('10.0.0.0/8'), '::ffff:11.0.0.0'), false);
    assert.equal(cidrContains(cidr('10.0.0.0/8'), '::a00:1'), false); // IPv4-compatible is not the same host
    assert.equal(cidrContains(cidr('::ffff:0:0/96'), '1.2.3.4'), true);
    assert.equal(cidrContains(cidr('::ffff:10.0.0.0/104'), '10.9.9.9'), true);
    assert.equal(cidrContains(cidr('::ffff:10.0.0.0/104'), '11.0.0.0'), false);
    assert.equal(cidrContains(cidr('::1/128'), '0.0.0.1'), false);
  });
});

describe('properties', () => {
  const uint32 = fc.integer({ min: 0, max: 0xffff_ffff });

  it('an IPv4 address and its ::ffff: mapped form have the same kind', () => {
    fc.assert(
      fc.property(uint32, (n) => {
        const v4 = dotted(n);
        const kind = addressKind(v4);
        assert.ok(kind !== undefined, v4);
        assert.equal(addressKind(`::ffff:${v4}`), kind, v4);
        assert.equal(addressKind(`::ffff:${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`), kind, v4);
        assert.equal(addressKind(`64:ff9b::${v4}`), kind, v4);
      }),
      { numRuns: 5000 },
    );
  });

  it('an IPv4 range contains exactly the addresses that share its prefix bits', () => {
    fc.assert(
      fc.property(uint32, uint32, fc.integer({ min: 0, max: 32 }), (network, ip, prefix) => {
        const mask = prefix === 0 ? 0 : (0xffff_ffff << (32 - prefix)) >>> 0;
        const expected = ((network & mask) >>> 0) === ((ip & mask) >>> 0);
        assert.equal(cidrContains(cidr(`${dotted(network)}/${prefix}`), dotted(ip)), expected);
        assert.equal(cidrContains(cidr(`${dotted(network)}/${prefix}`), `::ffff:${dotted(ip)}`), expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('IPv6 text with and without `::` compression parses to the same address', () => {
    const groups = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(groups, fc.boolean(), (g, upper) => {
        const hex = g.map((x) => (upper ? x.toString(16).toUpperCase() : x.toString(16)));
        const full = hex.join(':');
        const padded = hex.map((h) => h.padStart(4, '0')).join(':');
        // Compress the longest run of zero groups, if there is one (RFC 5952 §4.2).
        let bestStart = -1;
        let bestLength = 0;
        for (let i = 0; i < 8; ) {
          if (g[i] !== 0) {
            i++;
            continue;
          }
          let j = i;
          while (j < 8 && g[j] === 0) j++;
          if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
          i = j;
        }
        const expected = parseIpAddress(full);
        assert.ok(expected, full);
        assert.deepEqual(parseIpAddress(padded), expected);
        if (bestStart >= 0) {
          const compressed = `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
          assert.deepEqual(parseIpAddress(compressed), expected, compressed);
          assert.equal(addressKind(compressed), addressKind(full));
        }
      }),
      { numRuns: 3000 },
    );
  });
});
