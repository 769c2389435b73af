import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { InvalidValueError } from '../../src/core/errors.js';
import { _fastPath, _normalizeUrlSlow, comparableUrl, normalizeUrl, scopeOf, scopeViolation, unusableUrl } from '../../src/core/url.js';

// Output of normalizeUrl: RFC 3986 characters only (§2), an http(s) scheme, a host (reg-name or IP
// literal), an optional port, a path starting with "/", then an optional query and fragment.
const PCHAR = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})";
const RFC3986_RE = new RegExp(
  `^https?://(?:[a-z0-9\\-._~!$&'()*+,;=]+|\\[[0-9a-f:.]+\\])(?::[0-9]+)?` +
    `(?:/${PCHAR}*)+(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`,
);

function throwsCode(fn: () => unknown, rule: string, field?: string): InvalidValueError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof InvalidValueError, `expected InvalidValueError ${rule}, got ${String(caught)}`);
  assert.equal(caught.code, 'ERR_SITEMAP_INVALID_VALUE');
  assert.equal(caught.rule, rule);
  if (field !== undefined) assert.equal(caught.field, field);
  return caught;
}

// ---------------------------------------------------------------------------------------------------
// Generators

const lowerAlnum = 'abcdefghijklmnopqrstuvwxyz0123456789';
const label = (chars: string, min = 1, max = 8) =>
  fc.array(fc.constantFrom(...chars), { minLength: min, maxLength: max }).map((a) => a.join(''));

/** Mostly `clean`, now and then `odd`. */
const mostly = <T>(clean: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) => fc.oneof({ weight: 12, arbitrary: clean }, { weight: 1, arbitrary: odd });

/** ASCII URLs, many of them eligible for the fast path, with the odd part that is not. */
const asciiUrl = fc
  .tuple(
    mostly(fc.constantFrom('http', 'https'), fc.constantFrom('HTTP', 'Https')),
    fc.array(mostly(label(`${lowerAlnum}-`), label('ABCxn-0_.')), { minLength: 1, maxLength: 4 }),
    mostly(label('abcz'), fc.oneof(label('0123456789x'), fc.constantFrom('xn--espaa-rta', 'xn--zz', '0x1f', 'a-'))),
    fc.option(mostly(label('0123456789', 1, 5), fc.constantFrom('80', '443', '0', '080', '8080', '65535', '65536', '99999', '')), {
      nil: undefined,
    }),
    fc.option(
      fc.array(
        mostly(
          label("abcXYZ019-._~!$&'()*+,;=:@", 0, 8),
          fc.constantFrom('.', '..', '%2e', '%2E%2e', '%', '%4', '%41', '%zz', 'a b', 'a\\b', '|', '^', '[', ']', '`', '{', '}', '"', '<', '>'),
        ),
        { maxLength: 5 },
      ),
      { nil: undefined },
    ),
    fc.option(mostly(label("abc=&/?:@'!$()*+,;-._~", 0, 12), label("abc=&%20|^[]{}`#./", 0, 12)), { nil: undefined }),
    fc.option(mostly(label("abc/?:@'!$-._~", 0, 8), label('abc#%/.', 0, 8)), { nil: undefined }),
    mostly(fc.constant(false), fc.constant(true)),
  )
  .map(([scheme, labels, tld, port, segments, query, fragment, trailingDot]) => {
    let url = `${scheme}://${labels.join('.')}.${tld}${trailingDot ? '.' : ''}`;
    if (port !== undefined) url += `:${port}`;
    if (segments !== undefined) url += `/${segments.join('/')}`;
    if (query !== undefined) url += `?${query}`;
    if (fragment !== undefined) url += `#${fragment}`;
    return url;
  });

/** Characters of IRIs: ASCII, Latin-1, CJK, astral (emoji), the odd lone surrogate and controls. */
const iriChar = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...`abcXYZ019-._~!$&'()*+,;=:@/%`.split('')) },
  { weight: 3, arbitrary: fc.constantFrom('ü', 'ñ', 'é', 'ß', '中', '文', 'Ω', '😀', '\u00a0', '\u200b') },
  { weight: 2, arbitrary: fc.constantFrom(' ', '"', '<', '>', '\\', '^', '`', '{', '|', '}', '[', ']', '#', '?', '\t', '\n', '\x7f', '\x01') },
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udc00', '%C3', '%c3%bc', '%2e', '%G0') },
);
const iriText = (max: number) => fc.array(iriChar, { maxLength: max }).map((a) => a.join(''));

const iri = fc
  .tuple(
    fc.constantFrom('http', 'https', 'HTTPS'),
    fc.array(fc.oneof(label(`${lowerAlnum}-`), label('abcABCüñ中ß'), fc.constantFrom('españa', 'MÜNCHEN', 'bücher')), {
      minLength: 1,
      maxLength: 3,
    }),
    fc.constantFrom('com', 'de', 'xn--p1ai', 'рф', 'COM'),
    fc.option(fc.constantFrom('80', '443', '8080'), { nil: undefined }),
    iriText(30),
  )
  .map(([scheme, labels, tld, port, rest]) => `${scheme}://${labels.join('.')}.${tld}${port ? `:${port}` : ''}/${rest}`);

/** normalizeUrl, or the rule of the error it threw. */
function attempt(fn: (s: string) => string, s: string): { ok: string } | { rule: string } {
  try {
    return { ok: fn(s) };
  } catch (err) {
    assert.ok(err instanceof InvalidValueError, `${JSON.stringify(s)} threw ${String(err)}`);
    return { rule: err.rule };
  }
}

// ---------------------------------------------------------------------------------------------------

describe('normalizeUrl: seed examples', () => {
  const cases: [string, string][] = [
    ['http://www.ejemplo.com/españa.html&q=nombre', 'http://www.ejemplo.com/espa%C3%B1a.html&q=nombre'],
    ['http://www.ejemplo.com/catalogo?objeto=12&desc=madrid', 'http://www.ejemplo.com/catalogo?objeto=12&desc=madrid'],
    ['HTTP://WWW.Example.COM:80/a', 'http://www.example.com/a'],
    ['https://example.com:443', 'https://example.com/'],
    ['https://example.com:8443/x', 'https://example.com:8443/x'],
    ['http://example.com/a%2Fb%zz', 'http://example.com/a%2Fb%25zz'],
    ['http://example.com/ü?q=ü#ü', 'http://example.com/%C3%BC?q=%C3%BC#%C3%BC'],
    ['http://example.com/a b', 'http://example.com/a%20b'],
    ['http://www.españa.com/', 'http://www.xn--espaa-rta.com/'],
  ];
  for (const [input, expected] of cases) {
    it(`${input} → ${expected}`, () => {
      assert.equal(normalizeUrl(input), expected);
      assert.equal(_normalizeUrlSlow(input), expected);
    });
  }
});

describe('normalizeUrl: behaviour', () => {
  const cases: [string, string][] = [
    ['  \t https://example.com/a \n', 'https://example.com/a'],
    ['https://example.com', 'https://example.com/'],
    ['http://example.com?q=1', 'http://example.com/?q=1'],
    ['http://example.com#top', 'http://example.com/#top'],
    ['http://example.com:0080/a', 'http://example.com/a'],
    ['https://example.com:80/a', 'https://example.com:80/a'],
    ['http://example.com:443/a', 'http://example.com:443/a'],
    ['http://example.com:/a', 'http://example.com/a'],
    ['http://[::FFFF:1.2.3.4]:8080/', 'http://[::ffff:102:304]:8080/'],
    ['http://MÜNCHEN.de/Straße', 'http://xn--mnchen-3ya.de/Stra%C3%9Fe'],
    ['https://example.com/%c3%bc', 'https://example.com/%c3%bc'], // existing escapes kept as written
    ['https://example.com/a%', 'https://example.com/a%25'],
    ['https://example.com/a%4', 'https://example.com/a%254'],
    ['https://example.com/a|b^c[d]e`f{g}h', 'https://example.com/a%7Cb%5Ec%5Bd%5De%60f%7Bg%7Dh'],
    ['https://example.com/q?a=[1]&b={2}|^`', 'https://example.com/q?a=%5B1%5D&b=%7B2%7D%7C%5E%60'],
    ['https://example.com/f#a#b|', 'https://example.com/f#a%23b%7C'],
    ["https://example.com/p?a='b'&c=d/e?f", "https://example.com/p?a='b'&c=d/e?f"],
    ['https://example.com/a"<>b', 'https://example.com/a%22%3C%3Eb'],
    ['https://example.com/a\\b', 'https://example.com/a%5Cb'],
    ['https://example.com/a\tb\nc', 'https://example.com/a%09b%0Ac'],
    ['https://example.com/😀', 'https://example.com/%F0%9F%98%80'],
    ['https://example.com/a/./b/../c', 'https://example.com/a/c'],
    ['https://example.com/a/%2e%2E/c', 'https://example.com/c'],
    ['https://example.com/a/..', 'https://example.com/'],
    ['https://example.com/a/b/.', 'https://example.com/a/b/'],
    ['https://example.com/..a/.b/a./', 'https://example.com/..a/.b/a./'],
    ['https://example.com//a//b/', 'https://example.com//a//b/'],
    ['https://example.com/catalogo?z=1&a=2', 'https://example.com/catalogo?z=1&a=2'],
    ["https://example.com/!$&'()*+,;=:@-._~", "https://example.com/!$&'()*+,;=:@-._~"],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${expected}`, () => {
      assert.equal(normalizeUrl(input), expected);
      assert.equal(_normalizeUrlSlow(input), expected);
    });
  }

  it('resolves relative references against base (RFC 3986 §5.2)', () => {
    const base = 'https://www.example.com/dir/sub/page.html?x=1';
    assert.equal(normalizeUrl('/a/b', 'loc', base), 'https://www.example.com/a/b');
    assert.equal(normalizeUrl('c.html', 'loc', base), 'https://www.example.com/dir/sub/c.html');
    assert.equal(normalizeUrl('../c?q=ü', 'loc', base), 'https://www.example.com/dir/c?q=%C3%BC');
    assert.equal(normalizeUrl('../../../../c', 'loc', base), 'https://www.example.com/c');
    assert.equal(normalizeUrl('?y=2', 'loc', base), 'https://www.example.com/dir/sub/page.html?y=2');
    assert.equal(normalizeUrl('#f', 'loc', base), 'https://www.example.com/dir/sub/page.html?x=1#f');
    assert.equal(normalizeUrl('//cdn.example.com/i.png', 'loc', base), 'https://cdn.example.com/i.png');
    assert.equal(normalizeUrl('/españa', 'loc', 'HTTP://WWW.EXAMPLE.COM:80'), 'http://www.example.com/espa%C3%B1a');
    assert.equal(normalizeUrl('  página  ', 'loc', 'https://example.com/'), 'https://example.com/p%C3%A1gina');
    // An absolute input ignores the base.
    assert.equal(normalizeUrl('http://other.example/x', 'loc', base), 'http://other.example/x');
  });

  it('honours maxLength (sitemaps.org protocol: less than 2,048 characters)', () => {
    const prefix = 'https://example.com/';
    const ok = prefix + 'a'.repeat(2047 - prefix.length);
    assert.equal(normalizeUrl(ok), ok);
    throwsCode(() => normalizeUrl(`${ok}a`), 'loc/too-long');
    // The limit applies to the normalised form: "ü" takes 6 characters as %C3%BC.
    throwsCode(() => normalizeUrl(prefix + 'ü'.repeat(400)), 'loc/too-long');
    throwsCode(() => normalizeUrl('https://example.com/abcdef', 'loc', undefined, 20), 'loc/too-long');
    assert.equal(normalizeUrl('https://example.com/abcdef', 'loc', undefined, 26), 'https://example.com/abcdef');
  });
});

describe('normalizeUrl: errors', () => {
  it('loc/empty', () => {
    throwsCode(() => normalizeUrl(''), 'loc/empty', 'loc');
    throwsCode(() => normalizeUrl(' \t\r\n ', 'image:loc'), 'loc/empty', 'image:loc');
  });

  it('loc/not-absolute', () => {
    const err = throwsCode(() => normalizeUrl('/a/b'), 'loc/not-absolute', 'loc');
    assert.equal(err.message, '"/a/b" is not an absolute URL; give --base-url or write the full URL');
    assert.equal(err.value, '/a/b');
    throwsCode(() => normalizeUrl('www.example.com/a'), 'loc/not-absolute');
    throwsCode(() => normalizeUrl('//www.example.com/a'), 'loc/not-absolute');
  });

  it('loc/unsupported-scheme', () => {
    for (const s of ['ftp://example.com/f', 'mailto:someone@example.com', 'javascript:alert(1)', 'file:///etc/passwd', 'HTTPX://a/']) {
      const err = throwsCode(() => normalizeUrl(s, 'loc', 'https://example.com/'), 'loc/unsupported-scheme');
      assert.match(err.message, /http and https/);
    }
  });

  it('loc/credentials, without repeating the password', () => {
    const err = throwsCode(() => normalizeUrl('https://user:s3cret@example.com/'), 'loc/credentials');
    assert.doesNotMatch(err.message, /s3cret/);
    assert.match(err.message, /user:\*\*\*@example\.com/);
    throwsCode(() => normalizeUrl('https://user@example.com/'), 'loc/credentials');
    throwsCode(() => normalizeUrl('https://@example.com/'), 'loc/credentials');
  });

  it('loc/invalid', () => {
    for (const s of [
      'http:example.com', // WHATWG would accept it
      'http:/example.com',
      'http://',
      'http:///example.com',
      'http://?q',
      'http://exa mple.com/',
      'http://example.com\\a', // WHATWG reads "\" as "/"
      'http://exam\tple.com/', // WHATWG drops the tab
      'http://example.com:99999/',
      'http://example.com:8o/',
      'http://:80/',
      'http://a{b}.com/',
      'http://a"b.com/',
      'http://1.2.3.4.5/',
      'http://xn--zz.com/',
      'http://[::1/',
      'http://ex%00ample.com/',
      // Half a surrogate pair (JSON "\ud800") is no character: U+FFFD in its place would be another URL.
      'http://example.com/\ud800',
      'http://example.com/?q=\udc00',
      'http://example.com/a#\ud83d',
    ]) {
      const err = throwsCode(() => normalizeUrl(s), 'loc/invalid');
      assert.ok(err.message.startsWith(JSON.stringify(s)), err.message);
    }
    throwsCode(() => normalizeUrl(42 as unknown as string), 'loc/invalid');
  });

  it('loc/too-long', () => {
    const err = throwsCode(() => normalizeUrl(`https://example.com/${'x'.repeat(3000)}`, 'video:player_loc'), 'loc/too-long', 'video:player_loc');
    assert.match(err.message, /3020 characters/);
    assert.ok(err.message.length < 300, 'the value is shortened in the message');
  });

  it('base-url/invalid', () => {
    for (const base of ['ftp://example.com/', '/relative/', 'https://u:p@example.com/', 'http://', '']) {
      throwsCode(() => normalizeUrl('/a', 'loc', base), 'base-url/invalid', '--base-url');
      throwsCode(() => normalizeUrl('https://example.com/a', 'loc', base), 'base-url/invalid', '--base-url');
    }
    const err = throwsCode(() => normalizeUrl('/a', 'loc', 'https://u:s3cret@example.com/'), 'base-url/invalid');
    assert.doesNotMatch(err.message, /s3cret/);
    // A base without a scheme is told so, not told to give --base-url.
    const bare = throwsCode(() => normalizeUrl('/a', 'loc', 'example.com'), 'base-url/invalid');
    assert.match(bare.message, /"example\.com" is not a valid http\(s\) URL \(it has no scheme: write https:\/\/…\)$/);
  });
});

describe('normalizeUrl: properties', () => {
  it('is idempotent on IRIs', () => {
    fc.assert(
      fc.property(fc.oneof(iri, asciiUrl), (s) => {
        const first = attempt(normalizeUrl, s);
        if ('ok' in first) assert.equal(normalizeUrl(first.ok), first.ok);
      }),
      { numRuns: 3000 },
    );
  });

  it('emits pure ASCII in the RFC 3986 character set', () => {
    fc.assert(
      fc.property(fc.oneof(iri, asciiUrl), (s) => {
        const r = attempt(normalizeUrl, s);
        if ('ok' in r) assert.match(r.ok, RFC3986_RE);
      }),
      { numRuns: 3000 },
    );
  });

  it('emits URLs that WHATWG URL leaves as they are (but for \' in the query)', () => {
    fc.assert(
      fc.property(fc.oneof(iri, asciiUrl), (s) => {
        const r = attempt(normalizeUrl, s);
        if (!('ok' in r)) return;
        const u = new URL(r.ok);
        const split = /^([^?#]*)(\?[^#]*)?(#.*)?$/s.exec(r.ok);
        assert.ok(split);
        assert.equal(`${u.protocol}//${u.host}${u.pathname}`, split[1]);
        assert.equal(u.search, (split[2] ?? '').replaceAll("'", '%27').replace(/^\?$/, ''));
        assert.equal(u.hash, (split[3] ?? '').replace(/^#$/, ''));
      }),
      { numRuns: 3000 },
    );
  });

  it('percent-encodes non-ASCII as UTF-8 with uppercase hex, like encodeURIComponent', () => {
    const segment = fc.array(fc.oneof(fc.constantFrom('a', 'Z', '0', '-', '_'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), {
      maxLength: 10,
    });
    fc.assert(
      fc.property(segment, (chars) => {
        const seg = chars.filter((c) => !/[\x00-\x7f]/.test(c) || /[A-Za-z0-9_-]/.test(c)).join('');
        assert.equal(normalizeUrl(`https://example.com/${seg}`), `https://example.com/${encodeURIComponent(seg)}`);
      }),
    );
  });

  it('fast path and slow path agree', () => {
    let fast = 0;
    let total = 0;
    fc.assert(
      fc.property(asciiUrl, (s) => {
        total++;
        const f = _fastPath(s);
        const slow = attempt(_normalizeUrlSlow, s);
        if (f !== undefined) {
          fast++;
          assert.deepEqual(slow, { ok: f }, s);
        }
        assert.deepEqual(attempt(normalizeUrl, s), slow, s);
      }),
      { numRuns: 5000 },
    );
    assert.ok(fast > total / 5, `the fast path took only ${fast} of ${total} URLs`);
    assert.ok(fast < total * 0.9, `the fast path took ${fast} of ${total} URLs; the slow path needs exercise too`);
  });

  it('fast path and slow path agree on IPv4 hosts (a loopback server), and the fast path takes those WHATWG writes as they are', () => {
    const part = fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.constantFrom('00', '01', '099', '0x1', '1e', ''));
    let fast = 0;
    fc.assert(
      fc.property(fc.constantFrom('http', 'https'), fc.oneof({ arbitrary: fc.array(fc.integer({ min: 0, max: 255 }).map(String), { minLength: 4, maxLength: 4 }), weight: 2 }, { arbitrary: fc.array(part, { minLength: 1, maxLength: 5 }), weight: 1 }), fc.option(fc.constantFrom('80', '443', '8080', '080', '0', '65535', '65536'), { nil: undefined }), fc.constantFrom('', '/', '/a?b=1', '/./x'), (scheme, parts, port, path) => {
        const s = `${scheme}://${parts.join('.')}${port !== undefined ? `:${port}` : ''}${path}`;
        const f = _fastPath(s);
        if (f !== undefined) {
          fast++;
          assert.deepEqual(attempt(_normalizeUrlSlow, s), { ok: f }, s);
        }
        assert.deepEqual(attempt(normalizeUrl, s), attempt(_normalizeUrlSlow, s), s);
      }),
      { numRuns: 3000 },
    );
    assert.ok(fast > 500, `the fast path took only ${fast} IPv4 URLs`);
    assert.equal(_fastPath('http://127.0.0.1:8080/a'), 'http://127.0.0.1:8080/a');
    assert.equal(comparableUrl('http://127.0.0.1:8080/a'), 'http://127.0.0.1:8080/a');
  });

  it('fast path and slow path agree on fc.webUrl()', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (s) => {
        const f = _fastPath(s);
        if (f !== undefined) assert.equal(_normalizeUrlSlow(s), f);
        assert.deepEqual(attempt(normalizeUrl, s), attempt(_normalizeUrlSlow, s));
      }),
      { numRuns: 2000 },
    );
  });

  it('throws only InvalidValueError on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }).map((s) => `http://${s}`)), (s) => {
        attempt(normalizeUrl, s);
        attempt((x) => normalizeUrl(x, 'loc', 'https://example.com/a/'), s);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('unusableUrl', () => {
  it('finds a port past 65535 where WHATWG URL (normalizeUrl) refuses it, and only there', () => {
    const urls = ['http://e.com:65535/a', 'http://e.com:65536/a', 'https://e.com:0000065535', 'https://e.com:99999999999?q', 'http://u:99999@e.com/a',
      'http://e.com/a:99999', 'http://e.com?a:99999', 'http://e.com#:99999', 'http://[::1]:70000/', 'http://[::1]/', 'http://e.com:/a', 'http://e.com'];
    for (const url of urls) {
      let refused = false;
      try {
        normalizeUrl(url);
      } catch (error) {
        refused = (error as InvalidValueError).rule === 'loc/invalid';
      }
      if (url.includes('@')) continue; // normalizeUrl refuses credentials (loc/credentials) before it looks at the port
      assert.equal(unusableUrl(url) !== undefined, refused, url);
    }
    assert.equal(unusableUrl('http://u:99999@e.com/a'), undefined);
    assert.equal(unusableUrl('https://e.com:70000/a')?.why, 'its port 70000 is past 65535');
  });

  it('finds a host WHATWG URL refuses (a number that is no IPv4 address, bad punycode), whatever URL came before', () => {
    const hosts = ['256.1.1.1', '1.2.3.4', '1.2.3.4.', 'a.1', 'a.0x', 'a.0x1g', '0x7f.1', 'a.09', '1a.b', '4294967296', 'xn--zz', 'XN--zz.com', 'a.xn--p1ai',
      'xn--80ak6aa92e.com', 'a%41.com', 'a%2f.com', 'e.com', 'ab--c.d'];
    for (const host of hosts) {
      for (const url of [`http://${host}/a`, `https://u@${host}:8080?q`, `HTTP://${host}`]) {
        unusableUrl('http://e.com/'); // the last origin found usable is remembered: it must not stand for another
        assert.equal(unusableUrl(url) !== undefined, !URL.canParse(url), url);
        assert.equal(unusableUrl(url) !== undefined, !URL.canParse(url), `${url} a second time`);
      }
    }
    assert.match(unusableUrl('http://256.1.1.1/')?.why ?? '', /"256\.1\.1\.1" ends in a number/);
    assert.match(unusableUrl('http://xn--zz/')?.why ?? '', /refuse its host "xn--zz"/);
    // A last label that starts with a digit and is no number (WHATWG's "ends in a number": digits, or 0x and hex) is a name: the host fails for another reason.
    for (const host of ['a%20b.1a', 'ex%zz.9x', 'a b.2b.']) assert.match(unusableUrl(`http://${host}/`)?.why ?? '', /^URL parsers refuse its host/, host);
    for (const host of ['example.0x', 'a.0X1f', 'a.08.']) assert.match(unusableUrl(`http://${host}/`)?.why ?? '', /ends in a number/, host);
    // A bracketed host is an IPv6 address to a URL parser: said whole, with a hint about IPv6, not IDN (nor its digits read as a port).
    for (const [url, host] of [['http://[::1/', '[::1'], ['http://[fe80::1%eth0]/', '[fe80::1%eth0]'], ['http://[1:2:3]/', '[1:2:3]'], ['http://[::99999/', '[::99999'], ['http://u@[v1.x]:80/', '[v1.x]']]) {
      const unusable = unusableUrl(url as string);
      assert.equal(unusable?.why, `its host "${host}" is not an IPv6 address in brackets`, url);
      assert.match(unusable?.hint ?? '', /IPv6/, url);
    }
    assert.equal(unusableUrl('http://[::1]:70000/')?.why, 'its port 70000 is past 65535');
    // Nothing but an absolute http(s) URL is usable.
    for (const url of ['/a.jpg', 'a.jpg', '//e.com/a.jpg', 'ftp://e.com/a.jpg', 'data:image/png;base64,AAAA']) assert.equal(unusableUrl(url)?.why, 'it is not an absolute http(s) URL', url);
  });
});

describe('scopeOf', () => {
  it('takes the path prefix up to the last "/"', () => {
    assert.deepEqual(scopeOf('https://www.example.com/'), {
      scheme: 'https',
      host: 'www.example.com',
      port: '',
      pathPrefix: '/',
      href: 'https://www.example.com/',
      prefix: 'https://www.example.com/',
    });
    assert.equal(scopeOf('https://www.example.com').pathPrefix, '/');
    assert.equal(scopeOf('https://www.example.com/catalog/').pathPrefix, '/catalog/');
    assert.equal(scopeOf('https://www.example.com/catalog/sitemap.xml').pathPrefix, '/catalog/');
    assert.equal(scopeOf('https://www.example.com/catalog').pathPrefix, '/');
    assert.equal(scopeOf('https://www.example.com/catalog/sitemap.xml?x=/a/b/').pathPrefix, '/catalog/');
  });

  it('normalises the base', () => {
    const s = scopeOf('HTTP://WWW.España.COM:80/Catálogo/');
    assert.deepEqual(s, {
      scheme: 'http',
      host: 'www.xn--espaa-rta.com',
      port: '',
      pathPrefix: '/Cat%C3%A1logo/',
      href: 'http://www.xn--espaa-rta.com/Cat%C3%A1logo/',
      prefix: 'http://www.xn--espaa-rta.com/Cat%C3%A1logo/',
    });
    assert.equal(scopeOf('http://www.ejemplo.com:100/').port, '100');
    assert.equal(scopeOf('http://www.ejemplo.com:100/a/b.xml').prefix, 'http://www.ejemplo.com:100/a/');
    assert.equal(scopeOf('http://[::1]:8080/a/').host, '[::1]');
  });

  it('throws base-url/invalid', () => {
    for (const base of ['ftp://example.com/', 'example.com', '/catalog/', 'http://', 'https://u:p@example.com/', '']) {
      throwsCode(() => scopeOf(base), 'base-url/invalid', '--base-url');
    }
  });
});

describe('scopeViolation', () => {
  it('follows the seed examples (sitemaps.org protocol "Sitemap file location")', () => {
    const scope = scopeOf('http://ejemplo.com/catalogo/sitemap.xml');
    assert.equal(scopeViolation('http://ejemplo.com/catalogo/mostrar?objeto=23', scope), undefined);
    assert.equal(scopeViolation('http://ejemplo.com/catalogo/', scope), undefined);
    assert.equal(
      scopeViolation('http://ejemplo.com/imagenes/mostrar?objeto=23', scope),
      'path "/imagenes/mostrar" is outside "/catalogo/"',
    );
    assert.equal(
      scopeViolation('https://ejemplo.com/catalogo/pagina1.html', scope),
      'scheme "https" differs from the base URL\'s "http"',
    );
    assert.equal(scopeViolation('http://ejemplo.com/catalogo', scope), 'path "/catalogo" is outside "/catalogo/"');
  });

  it('checks the port', () => {
    const scope = scopeOf('http://www.ejemplo.com:100/');
    assert.equal(scopeViolation('http://www.ejemplo.com:100/catalogo', scope), undefined);
    assert.equal(scopeViolation('http://www.ejemplo.com/catalogo', scope), "port (default) differs from the base URL's 100");
    assert.equal(
      scopeViolation('https://www.example.com:8080/x', scopeOf('https://www.example.com/')),
      "port 8080 differs from the base URL's (default)",
    );
    // A default port written out is the same port once normalised.
    assert.equal(scopeViolation(normalizeUrl('https://www.example.com:443/x'), scopeOf('https://www.example.com/')), undefined);
  });

  it('compares percent-escapes in either case (RFC 3986 §6.2.2.1), as the URLs are written', () => {
    const scope = scopeOf('https://example.com/caf%c3%a9/');
    assert.equal(scopeViolation(normalizeUrl('https://example.com/café/x'), scope), undefined);
    assert.equal(scopeViolation('https://example.com/caf%C3%A9/y', scope), undefined);
    assert.equal(scopeViolation('https://example.com/caf%c3%a9/z', scopeOf('https://example.com/caf%C3%A9/')), undefined);
    assert.equal(scopeViolation('https://example.com/caf%C3%A8/y', scope), 'path "/caf%C3%A8/y" is outside "/caf%c3%a9/"');
    // An unreserved character escaped is the character (§6.2.2.2).
    assert.equal(scopeViolation('https://example.com/%7Euser/x', scopeOf('https://example.com/~user/')), undefined);
  });

  it('compares hosts exactly', () => {
    const scope = scopeOf('https://www.example.com/');
    assert.equal(scopeViolation('https://a.example.com/x', scope), 'host "a.example.com" differs from the base URL\'s "www.example.com"');
    assert.equal(scopeViolation('https://example.com/x', scope), 'host "example.com" differs from the base URL\'s "www.example.com"');
    assert.equal(scopeViolation(normalizeUrl('https://WWW.EXAMPLE.COM/x'), scope), undefined);
  });

  it('reports a value that is not a normalised http(s) URL', () => {
    assert.match(scopeViolation('/relative', scopeOf('https://www.example.com/')) ?? '', /not an absolute http\(s\) URL/);
  });

  it('agrees with a prefix check on generated URLs', () => {
    const scope = scopeOf('https://www.example.com/catalog/');
    const url = fc
      .tuple(
        fc.constantFrom('https://www.example.com', 'HTTPS://WWW.EXAMPLE.COM:443', 'http://www.example.com', 'https://example.com', 'https://www.example.com:8443'),
        fc.constantFrom('/', '/catalog/', '/catalog', '/catalog/../', '/catalog/./', '/Catalog/', '/catalogue/'),
        iriText(12),
      )
      .map(([origin, dir, rest]) => origin + dir + rest);
    fc.assert(
      fc.property(url, (s) => {
        const r = attempt(normalizeUrl, s);
        if (!('ok' in r)) return;
        const inside = r.ok.startsWith('https://www.example.com/catalog/');
        assert.equal(scopeViolation(r.ok, scope) === undefined, inside);
      }),
    );
  });
});

describe('scopeViolation prefix shortcut', () => {
  it('agrees with comparing scheme, host, port and path one by one', () => {
    const hosts = ['example.com', 'www.example.com', 'example.com.evil.net', 'xn--espaa-rta.com'];
    const arbUrl = fc.record({
      scheme: fc.constantFrom('http', 'https'),
      host: fc.constantFrom(...hosts),
      port: fc.constantFrom('', '8080', '100'),
      path: fc.constantFrom('/', '/a/', '/a/b', '/ab', '/a', '/catalog/x?y=/a/'),
    });
    fc.assert(
      fc.property(arbUrl, arbUrl, (u, b) => {
        const url = normalizeUrl(`${u.scheme}://${u.host}${u.port ? `:${u.port}` : ''}${u.path}`);
        const scope = scopeOf(`${b.scheme}://${b.host}${b.port ? `:${b.port}` : ''}${b.path}`);
        const inScope = u.scheme === scope.scheme && u.host === scope.host && u.port === scope.port && new URL(url).pathname.startsWith(scope.pathPrefix);
        assert.equal(scopeViolation(url, scope) === undefined, inScope, `${url} in ${scope.href}`);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('comparableUrl', () => {
  it('gives equivalent URLs one form (RFC 3986 §6.2.2, §6.2.3), and different ones different forms', () => {
    const same = [
      ['https://a.example/caf%C3%A9', 'https://a.example/caf%c3%a9', 'https://a.example/café', 'https://a.example/caf%C3%a9'],
      ['https://a.example/~user/%41b', 'https://a.example/%7Euser/Ab', 'https://a.example/%7euser/%41%62'],
      ['https://a.example/x?q=a-b', 'https://A.Example/x?q=a%2Db', 'HTTPS://a.example:443/x?q=a%2db'],
      ['http://a.example/', 'http://a.example', 'http://a.example:80', 'http://a.example/b/..', 'http://a.example/b/%2E%2E/'],
      ['https://a.example/a%2Fb', 'https://a.example/a%2fb'],
      ['not a url%7e%c3', 'not a url~%C3'],
    ];
    for (const group of same) {
      for (const url of group) assert.equal(comparableUrl(url), comparableUrl(group[0] as string), `${url} ~ ${group[0]}`);
    }
    const forms = same.map((group) => comparableUrl(group[0] as string));
    assert.equal(new Set(forms).size, forms.length);
    // A reserved character escaped is not the character (§6.2.2.2 decodes unreserved ones only).
    assert.notEqual(comparableUrl('https://a.example/a%2Fb'), comparableUrl('https://a.example/a/b'));
    assert.notEqual(comparableUrl('https://a.example/a?b%3Dc'), comparableUrl('https://a.example/a?b=c'));
    assert.notEqual(comparableUrl('https://a.example/A'), comparableUrl('https://a.example/a'));
    // Already in that form: the same string.
    assert.equal(comparableUrl('https://a.example/caf%C3%A9?x=1'), 'https://a.example/caf%C3%A9?x=1');
  });

  it('its shortcut for escaped URLs agrees with normalising them the long way', () => {
    const escapes = fc.constantFrom('%41', '%7e', '%7E', '%2e', '%2E', '%2f', '%C3%A9', '%c3%a9', '%zz', '%', '%4');
    const url = fc
      .tuple(fc.oneof(asciiUrl, iri), fc.array(fc.tuple(fc.nat(60), escapes), { maxLength: 4 }))
      .map(([base, inserts]) => {
        let s = base;
        for (const [at, escape] of inserts) {
          const i = Math.min(s.length, s.indexOf('/', 8) === -1 ? s.length : s.indexOf('/', 8) + (at % 20));
          s = s.slice(0, i) + escape + s.slice(i);
        }
        return s;
      });
    const longWay = (s: string): string => {
      const escaped = s.replace(/%[0-9A-Fa-f]{2}/g, (e) => {
        const c = String.fromCharCode(parseInt(e.slice(1), 16));
        return /[A-Za-z0-9\-._~]/.test(c) ? c : e.toUpperCase();
      });
      const r = attempt((x) => _normalizeUrlSlow(x, 'loc', undefined, Infinity), escaped);
      return 'ok' in r ? r.ok : escaped;
    };
    fc.assert(
      fc.property(url, (s) => {
        assert.equal(comparableUrl(s), longWay(s), s);
      }),
      { numRuns: 3000 },
    );
  });
});
