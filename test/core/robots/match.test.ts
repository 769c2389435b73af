import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SitemapError } from '../../../src/core/errors.js';
import { crawlerToken, isAllowed, normalizeRobotsPath, productToken, robotsMatcher } from '../../../src/core/robots/match.js';
import { parseRobotsTxt, type RobotsTxt } from '../../../src/core/robots/robots-txt.js';

const parse = (text: string): RobotsTxt => parseRobotsTxt(text, 'https://www.example.com/robots.txt');
const url = (path: string) => `https://www.example.com${path}`;

/** Whether `pattern` matches `path`, through the public matcher: a lone Disallow rule disallows exactly what it matches. */
function robotsPatternMatches(pattern: string, path: string): boolean {
  return !isAllowed({ groups: [{ userAgents: ['*'], rules: [{ allow: false, pattern, line: 1 }], line: 1 }], sitemaps: [], problems: [] }, 'x', path);
}

/** Assert `allowed` for each path under `text`, for `agent`. */
function expectPaths(text: string, agent: string, cases: [path: string, allowed: boolean][]): void {
  const robots = parse(text);
  for (const [path, allowed] of cases) assert.equal(isAllowed(robots, agent, url(path)), allowed, `${agent} ${path}`);
}

describe('productToken', () => {
  const cases: [string, string][] = [
    ['sitemapkit/0.1.0 (+https://github.com/example/sitemapkit)', 'sitemapkit'],
    ['Googlebot/2.1 (+http://www.google.com/bot.html)', 'googlebot'],
    ['Mozilla/5.0 (compatible; bingbot/2.0)', 'mozilla'],
    ['Mediapartners-Google', 'mediapartners-google'],
    ['my_bot', 'my_bot'],
    ['  FooBot', 'foobot'],
    ['AI2Bot', 'ai2bot'],
    ['', ''],
    ['/1.0', ''],
    ['*', ''],
  ];
  for (const [ua, token] of cases) it(`${JSON.stringify(ua)} → ${JSON.stringify(token)}`, () => assert.equal(productToken(ua), token));
});

describe('crawlerToken: the product token a User-Agent obeys', () => {
  it('the NAME of a browser-style "(compatible; NAME/1.0)", wherever the comment stands; else the first token', () => {
    const agents = [
      'sitemapkit/0.1.0 (+https://github.com/example/sitemapkit)',
      'Mozilla/5.0 (compatible; MyBot/1.0)',
      'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0 Safari/537.36',
      'Mozilla/5.0 (Linux; Android 6.0.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0',
    ];
    assert.deepEqual(agents.map(crawlerToken), ['sitemapkit', 'mybot', 'yandexbot', 'bingbot', 'googlebot', 'mozilla']);
  });

  it('isAllowed picks the group of that token', () => {
    const robots = parse('User-agent: MyBot\nDisallow: /\n\nUser-agent: Mozilla\nUser-agent: *\nAllow: /\n');
    assert.equal(isAllowed(robots, 'Mozilla/5.0 (compatible; MyBot/1.0)', '/page'), false);
    assert.equal(isAllowed(robots, 'Mozilla/5.0 (X11; rv:120.0) Gecko/20100101 Firefox/120.0', '/page'), true);
  });
});

describe('isAllowed: RFC 9309 examples', () => {
  // RFC 9309 §5.1, "Simple Example".
  const simple = [
    'User-Agent: *',
    'Disallow: *.gif$',
    'Disallow: /example/',
    'Allow: /publications/',
    '',
    'User-Agent: foobot',
    'Disallow:/',
    'Allow:/example/page.html',
    'Allow:/example/allowed.gif',
    '',
    'User-Agent: barbot',
    'User-Agent: bazbot',
    'Disallow: /example/page.html',
    '',
    'User-Agent: quxbot',
    '',
    'EOF',
  ].join('\n');

  it('§5.1: foobot may fetch only page.html and allowed.gif', () => {
    expectPaths(simple, 'foobot', [
      ['/example/page.html', true],
      ['/example/allowed.gif', true],
      ['/example/other.html', false],
      ['/', false],
      ['/publications/', false],
    ]);
  });

  it('§5.1: barbot and bazbot share a group', () => {
    for (const agent of ['barbot', 'bazbot', 'BazBot/1.0']) {
      expectPaths(simple, agent, [
        ['/example/page.html', false],
        ['/example/other.html', true],
        ['/image.gif', true],
      ]);
    }
  });

  it('§5.1: quxbot has an empty group and may fetch everything', () => {
    expectPaths(simple, 'quxbot', [
      ['/example/page.html', true],
      ['/image.gif', true],
    ]);
  });

  it('§5.1: any other crawler follows the * group', () => {
    expectPaths(simple, 'otherbot', [
      ['/image.gif', false],
      ['/a/b/c.gif', false],
      ['/a/b/c.gif?x', true], // `$` anchors at the end of path+query
      ['/example/', false],
      ['/example/x.html', false],
      ['/publications/', true],
      ['/publications/2024.gif', true], // `/publications/` (14 octets) beats `*.gif$` (6)
    ]);
  });

  it('§5.2: the longest match wins', () => {
    expectPaths('User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n', 'foobot', [
      ['/example/page/', true],
      ['/example/page/other.gif', true],
      ['/example/page/disallowed.gif', false],
    ]);
  });

  it('§2.2.2: /robots.txt is always allowed', () => {
    expectPaths('User-agent: *\nDisallow: /\n', 'sitemapkit', [
      ['/robots.txt', true],
      ['/robots.txt?x=1', true],
      ['/robots.txtx', false],
      ['/', false],
    ]);
  });
});

describe("isAllowed: Google's documented precedence examples", () => {
  const cases: [rules: string, path: string, allowed: boolean][] = [
    ['allow: /p\ndisallow: /', '/page', true],
    ['allow: /folder\ndisallow: /folder', '/folder/page', true],
    ['allow: /page\ndisallow: /*.htm', '/page.htm', false],
    ['allow: /$\ndisallow: /', '/', true],
    ['allow: /$\ndisallow: /', '/page.htm', false],
  ];
  for (const [rules, path, allowed] of cases) {
    it(`${rules.replace('\n', ' + ')} on ${path} → ${allowed ? 'allowed' : 'disallowed'}`, () => {
      expectPaths(`user-agent: *\n${rules}\n`, 'sitemapkit', [[path, allowed]]);
      // The order of the lines does not matter.
      expectPaths(`user-agent: *\n${rules.split('\n').reverse().join('\n')}\n`, 'sitemapkit', [[path, allowed]]);
    });
  }
});

describe("robotsPatternMatches: Google's documented path examples", () => {
  const table: [pattern: string, matches: string[], notMatches: string[]][] = [
    ['/', ['/', '/anything'], []],
    ['/*', ['/', '/anything'], []],
    ['/fish', ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.php?id=anything'], ['/Fish.asp', '/catfish', '/?id=fish', '/desert/fish']],
    ['/fish*', ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fish.php?id=anything'], ['/Fish.asp', '/catfish', '/?id=fish', '/desert/fish']],
    ['/fish/', ['/fish/', '/fish/?id=anything', '/fish/salmon.htm'], ['/fish', '/fish.html', '/animals/fish/', '/Fish/Salmon.asp']],
    ['/*.php', ['/index.php', '/filename.php', '/folder/filename.php', '/folder/filename.php?parameters', '/folder/any.php.file.html', '/filename.php/'], ['/', '/windows.PHP']],
    ['/*.php$', ['/filename.php', '/folder/filename.php'], ['/filename.php?parameters', '/filename.php/', '/filename.php5', '/windows.PHP']],
    ['/fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters'], ['/Fish.PHP']],
  ];
  for (const [pattern, yes, no] of table) {
    it(pattern, () => {
      for (const path of yes) assert.equal(robotsPatternMatches(pattern, path), true, `${pattern} should match ${path}`);
      for (const path of no) assert.equal(robotsPatternMatches(pattern, path), false, `${pattern} should not match ${path}`);
    });
  }

  it('a `$` that does not end the pattern is a literal character', () => {
    assert.equal(robotsPatternMatches('/a$b', '/a$b'), true);
    assert.equal(robotsPatternMatches('/a$b', '/a'), false);
    assert.equal(robotsPatternMatches('/price$', '/price$'), false);
    assert.equal(robotsPatternMatches('/price$$', '/price$'), true);
  });
});

describe('percent-encoding (RFC 9309 §2.2.2, §2.2.3)', () => {
  const matching: [pattern: string, path: string][] = [
    // §2.2.2 table: the pattern and the URL may each be encoded or not.
    ['/foo/bar?baz=quz', '/foo/bar?baz=quz'],
    ['/foo/bar/ツ', '/foo/bar/%E3%83%84'],
    ['/foo/bar/%E3%83%84', '/foo/bar/ツ'],
    ['/foo/bar/%e3%83%84', '/foo/bar/%E3%83%84'],
    ['/foo/bar/%62%61%7A', '/foo/bar/baz'],
    ['/foo/bar/baz', '/foo/bar/%62%61%7a'],
    // §2.2.3: special characters matched verbatim are written percent-encoded in the pattern.
    ['/path/file-with-a-%2A.html', '/path/file-with-a-*.html'],
    ['/path/foo-%24', '/path/foo-$'],
    ['/a b', '/a%20b'],
    ['/100%', '/100%25'],
    ['/%zz', '/%25zz'],
  ];
  for (const [pattern, path] of matching) it(`${pattern} matches ${path}`, () => assert.equal(robotsPatternMatches(pattern, path), true));

  const notMatching: [pattern: string, path: string][] = [
    ['/a%2Fb', '/a/b'], // a reserved character encoded is a different character (RFC 3986 §2.2)
    ['/a/b', '/a%2Fb'],
    ['/a%3Fb', '/a?b'],
    ['/path/file-%2A.html', '/path/file-x.html'], // an encoded `*` is not a wildcard
  ];
  for (const [pattern, path] of notMatching) it(`${pattern} does not match ${path}`, () => assert.equal(robotsPatternMatches(pattern, path), false));

  it('normalizeRobotsPath gives ASCII with uppercase hex; patterns keep their operators', () => {
    assert.equal(normalizeRobotsPath('/a%7e%2fb c/ü?q=%zz', false), '/a~%2Fb%20c/%C3%BC?q=%25zz');
    assert.equal(normalizeRobotsPath('/a*b$c$', false), '/a%2Ab%24c%24');
    assert.equal(normalizeRobotsPath('/a*b$c$', true), '/a*b%24c$');
    assert.equal(normalizeRobotsPath('/😀\ud800', false), '/%F0%9F%98%80%EF%BF%BD');
    assert.equal(normalizeRobotsPath('/plain/path?x=1&y=2', false), '/plain/path?x=1&y=2');
  });

  it('a URL with non-ASCII characters matches a pattern written either way', () => {
    const robots = parse('User-agent: *\nDisallow: /café\nDisallow: /%E2%82%AC\n');
    assert.equal(isAllowed(robots, 'x', 'https://www.example.com/café/menu'), false);
    assert.equal(isAllowed(robots, 'x', 'https://www.example.com/caf%C3%A9'), false);
    assert.equal(isAllowed(robots, 'x', 'https://www.example.com/€uro'), false);
    assert.equal(isAllowed(robots, 'x', 'https://www.example.com/cafe'), true);
  });

  it('priority counts the octets of the pattern as written', () => {
    // `/a$b` is 4 octets and `/a*bx` 5: the longer disallow wins though `$` is compared as `%24`.
    expectPaths('User-agent: *\nAllow: /a$b\nDisallow: /a*bx\n', 'x', [['/a$bx', false]]);
    expectPaths('User-agent: *\nAllow: /a$bx\nDisallow: /a*bx\n', 'x', [['/a$bx', true]]);
  });
});

describe('isAllowed: group choice (RFC 9309 §2.2.1)', () => {
  const text = [
    'User-agent: *',
    'Disallow: /star',
    '',
    'User-agent: SitemapKit',
    'Disallow: /mine',
    '',
    'User-agent: other',
    'Disallow: /other',
    '',
    'User-agent: sitemapkit',
    'Allow: /mine/open',
    '',
  ].join('\n');

  it('matches our product token case-insensitively and merges every group naming it', () => {
    expectPaths(text, 'sitemapkit/0.1.0 (+https://example.com/bot)', [
      ['/star', true], // the `*` group does not apply when a specific one does
      ['/mine', false],
      ['/mine/open', true],
      ['/other', true],
    ]);
    expectPaths(text, 'SITEMAPKIT', [['/mine', false]]);
  });

  it('falls back to the merged * groups', () => {
    expectPaths(`${text}\nUser-agent: *\nDisallow: /second-star\n`, 'unknownbot', [
      ['/star', false],
      ['/second-star', false],
      ['/mine', true],
    ]);
  });

  it('allows everything without a matching group or a * group', () => {
    expectPaths('User-agent: other\nDisallow: /\n', 'sitemapkit', [['/', true]]);
    expectPaths('', 'sitemapkit', [['/', true]]);
  });

  it('a product token that is a prefix of a group name does not match it', () => {
    expectPaths('User-agent: sitemapkit-images\nDisallow: /\n', 'sitemapkit', [['/', true]]);
    expectPaths('User-agent: sitemap\nDisallow: /\n', 'sitemapkit', [['/', true]]);
  });

  it('a user-agent string without a product token gets the * group', () => {
    expectPaths('User-agent: *\nDisallow: /\nUser-agent: x\nAllow: /\n', '', [['/a', false]]);
  });
});

describe('isAllowed: URLs', () => {
  const robots = parse('User-agent: *\nDisallow: /*?\nDisallow: /search\nAllow: /search/about\n');

  it('matches the path and query; host, port, credentials and fragment do not matter', () => {
    assert.equal(isAllowed(robots, 'x', 'https://user:pw@other.example:8443/search#frag'), false);
    assert.equal(isAllowed(robots, 'x', 'https://www.example.com/search/about#x'), true);
    assert.equal(isAllowed(robots, 'x', 'https://www.example.com/page?'), false); // a bare `?` is kept
    assert.equal(isAllowed(robots, 'x', 'https://www.example.com/page'), true);
    assert.equal(isAllowed(robots, 'x', 'https://www.example.com'), true); // path `/`
  });

  it("matches a query's ' as written: WHATWG URL writes it %27, another URL (RFC 3986 §2.2)", () => {
    const quotes = parse("User-agent: *\nDisallow: /?q='\nDisallow: /?r=%27\n");
    for (const [path, allowed] of [["/?q='", false], ['/?q=%27', true], ['/?r=%27', false], ["/?r='", true], ["/?q=' #x", false], ["/?q='\t", false]] as const) {
      assert.equal(isAllowed(quotes, 'x', url(path)), allowed, path);
      assert.equal(isAllowed(quotes, 'x', path), allowed, path);
    }
  });

  it('takes a path alone as well', () => {
    assert.equal(isAllowed(robots, 'x', '/search'), false);
    assert.equal(isAllowed(robots, 'x', '/page?x=1'), false);
  });

  it('throws ERR_SITEMAP_OPTION for something that is not a URL', () => {
    assert.throws(() => isAllowed(robots, 'x', 'http://[bad'), (err: unknown) => err instanceof SitemapError && err.code === 'ERR_SITEMAP_OPTION');
  });

  it('throws ERR_SITEMAP_OPTION for a string that is neither an absolute URL nor a path: it names no path to match', () => {
    // Each was matched as if it were a path (`/not%20a%20url`, `/www.example.com/search`) or had none.
    for (const bad of ['not a url', '', 'search', 'www.example.com/search', 'mailto:someone@example.com', 42 as unknown as string]) {
      assert.throws(() => isAllowed(robots, 'x', bad), (err: unknown) => err instanceof SitemapError && err.code === 'ERR_SITEMAP_OPTION' && err.message.includes('absolute URL or a path'), String(bad));
    }
    assert.throws(() => robotsMatcher(robots, 'x')('search'), (err: unknown) => err instanceof SitemapError && err.code === 'ERR_SITEMAP_OPTION');
  });

  it('robotsMatcher checks many URLs against one choice of groups', () => {
    const allowed = robotsMatcher(robots, 'sitemapkit');
    assert.deepEqual(['/a', '/search', '/search/about/x', '/a?b'].map((p) => allowed(url(p))), [true, false, true, false]);
  });
});

describe('matching without catastrophic backtracking', () => {
  it('a pathological pattern against a long path finishes fast', () => {
    const pattern = `/${'a*'.repeat(40)}b`;
    const path = `/${'a'.repeat(100_000)}`;
    const robots = parse(`User-agent: *\nDisallow: ${pattern}\nDisallow: /*a*a*a*a*a*a*a*a*a*b$\n`);
    // CPU time, not wall time: a loaded machine makes the wall clock long, not the work.
    const started = process.cpuUsage();
    assert.equal(robotsPatternMatches(pattern, path), false);
    assert.equal(robotsPatternMatches(`${pattern}$`, path), false);
    assert.equal(isAllowed(robots, 'x', url(path)), true);
    assert.equal(isAllowed(robots, 'x', url(`${path}b`)), false);
    const { user, system } = process.cpuUsage(started);
    assert.ok(user + system < 500_000, `took ${Math.round((user + system) / 1000)} ms of CPU`);
  });
});

// ---------------------------------------------------------------------------------------------------
// Properties against a reference built from a regular expression (fine here, for short strings).

const ALPHABET = ['/', 'a', 'b', '.', '?', '=', '*', '$'];
const text = (alphabet: string[], min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
// Paths a URL holds as written: WHATWG URL removes `/./` and `/../` segments, and `//` starts a host.
const pathArb = text(ALPHABET, 0, 12).map((s) => `/${s}`).filter((path) => URL.canParse(path, 'http://x') && new URL(path, 'http://x').href === `http://x${path}`);
const patternArb = fc.oneof(text(ALPHABET, 1, 8), text(ALPHABET, 0, 7).map((s) => `/${s}`));
// Without `.`: WHATWG URL would remove `/./` and `/../` segments from a URL's path.
const URL_ALPHABET = ALPHABET.filter((c) => c !== '.');
const urlPathArb = text(URL_ALPHABET, 0, 12).map((s) => `/${s}`);

function referenceRegExp(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((piece) => piece.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`);
}

function referenceAllowed(rules: { allow: boolean; pattern: string }[], path: string): boolean {
  let best = -1;
  let allowed = true;
  for (const rule of rules) {
    if (!referenceRegExp(rule.pattern).test(path)) continue;
    if (rule.pattern.length > best || (rule.pattern.length === best && rule.allow)) {
      best = rule.pattern.length;
      allowed = rule.allow;
    }
  }
  return allowed;
}

describe('properties', () => {
  it('robotsPatternMatches agrees with a regular expression built from the pattern', () => {
    fc.assert(
      fc.property(patternArb, pathArb, (pattern, path) => {
        assert.equal(robotsPatternMatches(pattern, path), referenceRegExp(pattern).test(path), `${pattern} on ${path}`);
      }),
      { numRuns: 5000 },
    );
  });

  it('isAllowed agrees with a brute-force longest-match reference', () => {
    const ruleArb = fc.record({ allow: fc.boolean(), pattern: patternArb });
    fc.assert(
      fc.property(fc.array(ruleArb, { maxLength: 6 }), urlPathArb, (rules, path) => {
        const robots = parse(`User-agent: *\n${rules.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.pattern}`).join('\n')}\n`);
        assert.equal(isAllowed(robots, 'sitemapkit', url(path)), referenceAllowed(rules, path), `${JSON.stringify(rules)} on ${path}`);
      }),
      { numRuns: 2000 },
    );
  });
});
