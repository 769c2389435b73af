import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SitemapError } from '../../../src/core/errors.js';
import { isAllowed } from '../../../src/core/robots/match.js';
import { MAX_ROBOTS_BYTES, parseRobotsTxt, type RobotsTxt } from '../../../src/core/robots/robots-txt.js';
import { CORPUS, filesUnder } from '../../helpers/files.js';

const ROBOTS_URL = 'https://example.com/robots.txt';

const parse = (text: string, url = ROBOTS_URL): RobotsTxt => parseRobotsTxt(text, url);

/** Groups as `[userAgents, [allow?, pattern][]]`, for compact comparisons. */
function shape(robots: RobotsTxt): [string[], [boolean, string][]][] {
  return robots.groups.map((g) => [g.userAgents, g.rules.map((r): [boolean, string] => [r.allow, r.pattern])]);
}

describe('parseRobotsTxt: lines and keys', () => {
  const text = 'User-agent: a\nDisallow: /x\n\nSitemap: https://example.com/s.xml\nUser-agent: b\nAllow: /y\n';

  it('reads LF, CRLF and lone CR line ends alike, with the same line numbers', () => {
    const lf = parse(text);
    assert.deepEqual(parse(text.replace(/\n/g, '\r\n')), lf);
    assert.deepEqual(parse(text.replace(/\n/g, '\r')), lf);
    assert.deepEqual(parse('User-agent: a\r\nDisallow: /x\r\rSitemap: https://example.com/s.xml\nUser-agent: b\r\nAllow: /y'), lf);
    assert.deepEqual(lf.groups.map((g) => [g.line, g.rules.map((r) => r.line)]), [[1, [2]], [5, [6]]]);
    assert.equal(lf.sitemaps[0]?.line, 4);
  });

  it('skips a UTF-8 BOM at the start', () => {
    assert.deepEqual(parse(`\ufeff${text}`), parse(text));
    assert.deepEqual(parse('\ufeffSitemap: /s.xml').sitemaps.map((s) => s.url), ['https://example.com/s.xml']);
  });

  it('reads the last line without a line end', () => {
    assert.deepEqual(parse('User-agent: *\nDisallow: /x').groups[0]?.rules.map((r) => r.pattern), ['/x']);
  });

  it('drops comments anywhere on a line (RFC 9309 §2.2)', () => {
    const robots = parse('# header\nUser-agent: * # everyone\nDisallow: /private # not this\n  # indented\nSitemap: https://example.com/s.xml#part\n');
    assert.deepEqual(shape(robots), [[['*'], [[false, '/private']]]]);
    assert.deepEqual(robots.sitemaps, [{ url: 'https://example.com/s.xml', line: 5, raw: 'https://example.com/s.xml' }]);
  });

  it('takes keys in any case, trims whitespace, needs no space after the colon', () => {
    const robots = parse('USER-AGENT:Foo\n  disallow :   /a  \n\tALLOW:\t/b\t\nSiteMap:https://example.com/1.xml\nSITEMAP:   https://example.com/2.xml   \n');
    assert.deepEqual(shape(robots), [[['foo'], [[false, '/a'], [true, '/b']]]]);
    assert.deepEqual(robots.sitemaps.map((s) => s.url), ['https://example.com/1.xml', 'https://example.com/2.xml']);
  });

  it('accepts the key typos Google accepts', () => {
    const robots = parse('useragent: a\nuser agent: b\ndisalow: /1\ndissallow: /2\ndissalow: /3\ndiasllow: /4\ndisallaw: /5\nsite-map: /s.xml\n');
    assert.deepEqual(shape(robots), [[['a', 'b'], ['/1', '/2', '/3', '/4', '/5'].map((p): [boolean, string] => [false, p])]]);
    assert.equal(robots.sitemaps.length, 1);
  });

  it('reads `key value` without a colon only when the line is two words (as Google does)', () => {
    assert.deepEqual(shape(parse('User-agent *\nDisallow /x\nDisallow /y z\n')), [[['*'], [[false, '/x']]]]);
  });

  it('ignores unknown keys and lines that are not `key: value`', () => {
    const robots = parse('User-agent: *\nCrawl-delay: 10\nHost: example.com\nClean-param: ref /\n//comment line\nnonsense\nDisallow: /x\n');
    assert.deepEqual(shape(robots), [[['*'], [[false, '/x']]]]);
    assert.deepEqual(robots.problems, []);
  });

  it('handles empty input and blank lines', () => {
    assert.deepEqual(parse(''), { groups: [], sitemaps: [], problems: [] });
    assert.deepEqual(parse('\n\r\n \t \n# only a comment'), { groups: [], sitemaps: [], problems: [] });
  });

  it('throws ERR_SITEMAP_OPTION when the robots.txt URL is not absolute', () => {
    assert.throws(() => parseRobotsTxt('', '/robots.txt'), (err: unknown) => err instanceof SitemapError && err.code === 'ERR_SITEMAP_OPTION');
  });

  it('MAX_ROBOTS_BYTES is the RFC 9309 §2.5 minimum of 500 KiB', () => {
    assert.equal(MAX_ROBOTS_BYTES, 512_000);
  });
});

describe('parseRobotsTxt: groups (RFC 9309 §2.1)', () => {
  it('groups consecutive user-agent lines and the rules after them', () => {
    const robots = parse('User-agent: a\nUser-agent: B\nDisallow: /x\nAllow: /y\n\nUser-agent: c\nDisallow: /z\n');
    assert.deepEqual(shape(robots), [
      [['a', 'b'], [[false, '/x'], [true, '/y']]],
      [['c'], [[false, '/z']]],
    ]);
  });

  it('starts a new group at a user-agent line after a rule, blank line or not', () => {
    assert.deepEqual(shape(parse('User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n')), [
      [['a'], [[false, '/x']]],
      [['b'], [[false, '/y']]],
    ]);
  });

  it('keeps one group when a non-rule line sits between user-agent lines', () => {
    const robots = parse('User-agent: a\nCrawl-delay: 5\nSitemap: /s.xml\nUser-agent: b\nDisallow: /x\n');
    assert.deepEqual(shape(robots), [[['a', 'b'], [[false, '/x']]]]);
  });

  it('keeps a group going across blank lines and Sitemap lines between its rules', () => {
    const robots = parse('User-agent: *\nDisallow: /a\n\nSitemap: /s.xml\n\nDisallow: /b\n');
    assert.deepEqual(shape(robots), [[['*'], [[false, '/a'], [false, '/b']]]]);
  });

  it('drops an empty Disallow (it allows everything), which still ends the user-agent run', () => {
    const robots = parse('User-agent: a\nDisallow:\nUser-agent: b\nDisallow: /x\nAllow:\n');
    assert.deepEqual(shape(robots), [
      [['a'], []],
      [['b'], [[false, '/x']]],
    ]);
  });

  it('keeps a last group without rules', () => {
    assert.deepEqual(shape(parse('User-agent: a\nDisallow: /\nUser-agent: quxbot\n')), [
      [['a'], [[false, '/']]],
      [['quxbot'], []],
    ]);
  });

  it('ignores rules before any user-agent line, and says so', () => {
    const robots = parse('Disallow: /x\nAllow: /y\nUser-agent: *\nDisallow: /z\n');
    assert.deepEqual(shape(robots), [[['*'], [[false, '/z']]]]);
    assert.deepEqual(
      robots.problems.map((p) => [p.line, p.value]),
      [
        [1, '/x'],
        [2, '/y'],
      ],
    );
  });

  it('stores product tokens: lowercased, version and comments cut; `*` for the global agent', () => {
    const robots = parse(
      'User-agent: Googlebot/2.1\nUser-agent: Mediapartners-Google*\nUser-agent: ACQUIRE MEDIA\nUser-agent: AI2Bot\nUser-agent: googlebot\nDisallow: /\nUser-agent: * (all)\nDisallow: /x\n',
    );
    assert.deepEqual(
      robots.groups.map((g) => g.userAgents),
      [['googlebot', 'mediapartners-google', 'acquire', 'ai2bot'], ['*']],
    );
  });

  it('a group of 40,000 user-agent lines (800 KB, a hostile file) parses in linear time, each token once', () => {
    const text = `${Array.from({ length: 40_000 }, (_, i) => `User-agent: bot${i % 39_999}`).join('\n')}\nDisallow: /x\n`;
    // CPU time, not wall time: a loaded machine makes the wall clock long, not the work. Each token
    // was looked for among the group's earlier ones: 7 s.
    const started = process.cpuUsage();
    const robots = parse(text);
    const { user, system } = process.cpuUsage(started);
    assert.equal(robots.groups[0]?.userAgents.length, 39_999);
    assert.ok(user + system < 2_500_000, `took ${Math.round((user + system) / 1000)} ms of CPU`);
  });

  it('reports a user-agent value without a product token', () => {
    const robots = parse('User-agent: /weird\nUser-agent:\nDisallow: /\n');
    assert.deepEqual(robots.groups.map((g) => g.userAgents), [[]]);
    assert.deepEqual(robots.problems.map((p) => p.line), [1, 2]);
  });

  it('reports a pattern that does not start with "/" or "*", and keeps it', () => {
    const robots = parse('User-agent: *\nDisallow: private/\nDisallow: *.gif$\n');
    assert.deepEqual(shape(robots), [[['*'], [[false, 'private/'], [false, '*.gif$']]]]);
    assert.deepEqual(robots.problems.map((p) => [p.line, p.value]), [[2, 'private/']]);
  });
});

describe('parseRobotsTxt: Sitemap lines (RFC 9309 §2.2.4, sitemaps.org)', () => {
  it('collects Sitemap lines before, inside and after groups, in file order', () => {
    const robots = parse('Sitemap: https://example.com/1.xml\nUser-agent: *\nSitemap: https://example.com/2.xml\nDisallow: /\n\nSitemap: https://example.com/3.xml');
    assert.deepEqual(
      robots.sitemaps.map((s) => [s.url, s.line]),
      [
        ['https://example.com/1.xml', 1],
        ['https://example.com/2.xml', 3],
        ['https://example.com/3.xml', 6],
      ],
    );
    assert.deepEqual(shape(robots), [[['*'], [[false, '/']]]]);
  });

  it('resolves relative values against the robots.txt URL, keeps them, and notes it', () => {
    const robots = parse('Sitemap: /a.xml\nSitemap: b.xml\nSitemap: ../../../../c.xml\nSitemap: //cdn.example.net/d.xml\n', 'https://example.com/sub/robots.txt');
    assert.deepEqual(
      robots.sitemaps.map((s) => [s.url, s.raw]),
      [
        ['https://example.com/a.xml', '/a.xml'],
        ['https://example.com/sub/b.xml', 'b.xml'],
        ['https://example.com/c.xml', '../../../../c.xml'],
        ['https://cdn.example.net/d.xml', '//cdn.example.net/d.xml'],
      ],
    );
    assert.deepEqual(robots.problems.map((p) => p.line), [1, 2, 3, 4]);
    assert.ok(robots.problems.every((p) => p.message.includes('kept')));
  });

  it('keeps the href WHATWG URL gives: host lowercased, path case kept, spaces encoded', () => {
    const robots = parse('Sitemap: HTTP://Example.COM:80/Site Map.XML\n');
    assert.deepEqual(robots.sitemaps.map((s) => s.url), ['http://example.com/Site%20Map.XML']);
  });

  it('keeps each URL once, the first line winning, and reports the duplicate', () => {
    const robots = parse('Sitemap: https://example.com/s.xml\nSitemap: /s.xml\nSitemap: https://EXAMPLE.com/s.xml\nSitemap: https://example.com/S.xml\n');
    assert.deepEqual(
      robots.sitemaps.map((s) => [s.url, s.line]),
      [
        ['https://example.com/s.xml', 1],
        ['https://example.com/S.xml', 4],
      ],
    );
    assert.deepEqual(robots.problems.map((p) => p.line), [2, 3]);
    assert.match(robots.problems[0]?.message ?? '', /duplicate.*line 1/);
  });

  it('refuses values that are not http(s) URLs, with the line and the value', () => {
    const robots = parse(
      [
        'Sitemap:',
        'Sitemap: ftp://example.com/s.xml',
        'Sitemap: mailto:webmaster@example.com',
        'Sitemap: http://invalid server name.com/sitemap.xml',
        'Sitemap: http://[::1/s.xml',
        'Sitemap: https://',
        'Sitemap: {{blog-url}}/sitemap.xml',
        'Sitemap: <%= root_url %>sitemap.xml',
        'Sitemap: https://example.com/ok.xml',
      ].join('\n'),
    );
    assert.deepEqual(robots.sitemaps.map((s) => s.url), ['https://example.com/ok.xml']);
    assert.deepEqual(
      robots.problems.map((p) => [p.line, p.value]),
      [
        [1, ''],
        [2, 'ftp://example.com/s.xml'],
        [3, 'mailto:webmaster@example.com'],
        [4, 'http://invalid server name.com/sitemap.xml'],
        [5, 'http://[::1/s.xml'],
        [6, 'https://'],
        [7, '{{blog-url}}/sitemap.xml'],
        [8, '<%= root_url %>sitemap.xml'],
      ],
    );
    assert.ok(robots.problems.every((p) => p.message.includes('ignored')));
  });

  it('reports a Sitemap line without its colon, which crawlers ignore, and takes no URL from it', () => {
    // The URL's own colon makes `Sitemap https` the key (Google's parser reads it so, and skips the line).
    const robots = parse('User-agent: *\nSitemap https://example.com/a.xml\nsite-map\thttp://example.com/b.xml # old\n');
    assert.deepEqual(robots.sitemaps, []);
    assert.deepEqual(
      robots.problems.map((p) => [p.line, p.value]),
      [
        [2, 'https://example.com/a.xml'],
        [3, 'http://example.com/b.xml'],
      ],
    );
    assert.match(robots.problems[0]?.message ?? '', /no ":" after Sitemap.*"Sitemap: https:\/\/example\.com\/a\.xml"/);
    // Two words without any colon are a Sitemap line (as Google reads them): a relative one here.
    assert.deepEqual(parse('Sitemap /c.xml\n').sitemaps.map((s) => s.url), ['https://example.com/c.xml']);
  });

  it('reports a colon-less Sitemap line of more than two words (a template left unrendered), which crawlers skip', () => {
    const robots = parse('User-agent: *\nSitemap {{ url }}\nsitemaps are listed below\n');
    assert.deepEqual(robots.sitemaps, []);
    assert.deepEqual(robots.problems.map((p) => [p.line, p.code, p.value]), [[2, 'robots/sitemap-no-colon', '{{ url }}']]);
    assert.match(robots.problems[0]?.message ?? '', /crawlers ignore the line/);
  });
});

// ---------------------------------------------------------------------------------------------------
// The corpus: what /work/shared/corpus/MANIFEST.tsv says about each robots.txt, checked.

const ROBOTS_DIR = join(CORPUS, 'robots');

interface CorpusCase {
  /** The URL the file is taken to be served from. */
  robotsUrl: string;
  check(robots: RobotsTxt, text: string): void;
}

const sitemapUrls = (robots: RobotsTxt): string[] => robots.sitemaps.map((s) => s.url);

const CORPUS_CASES: Record<string, CorpusCase> = {
  '000Admin000__pro-motors.ua__robots.txt': {
    robotsUrl: 'http://pro-motors.ua/robots.txt',
    check(robots, text) {
      // 'User-Agent' casing, CRLF, empty Disallow, Sitemap to a bare root URL on another host, no final newline.
      assert.match(text, /^User-Agent: \*\r\n/);
      assert.ok(!text.endsWith('\n'));
      assert.deepEqual(shape(robots), [[['*'], []]]);
      assert.deepEqual(robots.sitemaps, [{ url: 'http://s346098.smrtp.ru/', line: 3, raw: 'http://s346098.smrtp.ru/' }]);
      assert.equal(isAllowed(robots, 'sitemapkit', 'http://pro-motors.ua/anything'), true);
    },
  },
  '0xIntuition__intuition-docs__static__robots.txt': {
    robotsUrl: 'https://docs.intuition.systems/robots.txt',
    check(robots) {
      // Two Sitemap lines on different hosts, inside the UA group.
      assert.deepEqual(sitemapUrls(robots), ['https://intuition.systems/sitemap.xml', 'https://docs.intuition.systems/sitemap.xml']);
      assert.deepEqual(shape(robots), [[['*'], [[false, '/tags/']]]]);
    },
  },
  '112books__awpcp.org__static__robots.txt': {
    robotsUrl: 'https://awpcp.org/robots.txt',
    check(robots) {
      assert.deepEqual(shape(robots), [[['*'], [[true, '/']]]]);
      assert.deepEqual(sitemapUrls(robots), ['https://awpcp.org/sitemap.xml']);
    },
  },
  'Erick-Booth__healthintransportation.com__public__robots.txt': {
    robotsUrl: 'https://www.healthintransportation.com/robots.txt',
    check(robots, text) {
      // Wildcard Disallow /*.pdf, Sitemap as the last line without a newline.
      assert.ok(!text.endsWith('\n'));
      assert.deepEqual(robots.sitemaps.map((s) => [s.url, s.line]), [['https://www.healthintransportation.com/sitemap.xml', 7]]);
      const allowed = (path: string) => isAllowed(robots, 'sitemapkit', `https://www.healthintransportation.com${path}`);
      assert.equal(allowed('/files/guide.pdf'), false);
      assert.equal(allowed('/thanks'), false);
      assert.equal(allowed('/thanksgiving'), false); // a prefix
      assert.equal(allowed('/about'), true);
    },
  },
  'TryGhost__Ghost__ghost__core__core__frontend__public__robots.txt': {
    robotsUrl: 'https://blog.example.com/robots.txt',
    check(robots) {
      // Sitemap line between User-agent and the Disallows, with an unrendered '{{blog-url}}'.
      assert.deepEqual(robots.sitemaps, []);
      assert.deepEqual(robots.problems.map((p) => [p.line, p.value]), [[2, '{{blog-url}}/sitemap.xml']]);
      assert.deepEqual(shape(robots), [[['*'], ['/ghost/', '/p/', '/email/', '/r/', '/webmentions/'].map((p): [boolean, string] => [false, p])]]);
    },
  },
  'TurnerSoftware__SitemapTools__tests__TurnerSoftware.SitemapTools.Tests__Resources__robots.txt': {
    robotsUrl: 'http://localhost/robots.txt',
    check(robots, text) {
      // Only three Sitemap lines, no group, no final newline.
      assert.ok(!text.endsWith('\n'));
      assert.deepEqual(robots.groups, []);
      assert.deepEqual(sitemapUrls(robots), ['http://localhost/basic-sitemap.xml', 'http://localhost/not-a-real-sitemap.xml', 'http://localhost/text-sitemap.txt']);
      assert.deepEqual(robots.problems, []);
    },
  },
  'aafeher__go-sitemap-parser__test__robots-with-sitemapindex-2__robots.txt': {
    robotsUrl: 'http://HOST/robots.txt',
    check(robots) {
      // Two sitemap index URLs after a `Disallow: /` group; WHATWG URL lowercases the template host.
      assert.deepEqual(shape(robots), [[['*'], [[false, '/']]]]);
      assert.deepEqual(sitemapUrls(robots), ['http://host/sitemapindex-1.xml', 'http://host/sitemapindex-2.xml']);
      assert.equal(isAllowed(robots, 'sitemapkit', 'http://host/sitemapindex-1.xml'), false);
    },
  },
  'dankito__SitemapParser__src__test__resources__testFiles__robots_txt__heise_robots.txt': {
    robotsUrl: 'https://www.heise.de/robots.txt',
    check(robots, text) {
      // Seven Sitemap lines with comments inside the `*` group: an index and six .xml.gz under /bestenlisten/.
      assert.deepEqual(robots.sitemaps.map((s) => s.line), [35, 38, 39, 40, 41, 42, 43]);
      assert.equal(robots.sitemaps[0]?.url, 'https://www.heise.de/sitemapindex.xml');
      assert.ok(robots.sitemaps.slice(1).every((s) => /^https:\/\/www\.heise\.de\/bestenlisten\/sitemap-[a-z-]+\.xml\.gz$/.test(s.url)));
      // The Sitemap lines did not split the `*` group: its rules go on after them.
      const star = robots.groups[0];
      assert.deepEqual(star?.userAgents, ['*']);
      assert.equal(star?.rules.at(-1)?.line, 32);
      // ~300 UA groups, mixed 'User-Agent'/'User-agent', one user-agent line each.
      assert.equal((text.match(/^user-agent:/gim) ?? []).length, 333);
      assert.ok(/^User-Agent:/m.test(text) && /^User-agent:/m.test(text));
      assert.equal(robots.groups.length, 333);
      // The last group has no rules; a crawler it names may fetch everything.
      assert.deepEqual(robots.groups.at(-1), { userAgents: ['zite'], rules: [], line: 711 });
      assert.equal(isAllowed(robots, 'Zite/1.0', 'https://www.heise.de/api/'), true);
      // Non-ASCII (a section sign) in a comment reads as a comment.
      assert.ok(text.includes('§'));
      assert.deepEqual(robots.problems, []);
      // Groups for the same crawler are merged: GPTBot's `Allow: /download/` and `Disallow: /`.
      const h = (path: string) => `https://www.heise.de${path}`;
      assert.equal(isAllowed(robots, 'GPTBot', h('/download/file.zip')), true);
      assert.equal(isAllowed(robots, 'GPTBot', h('/newsticker/')), false);
      assert.equal(isAllowed(robots, 'sitemapkit/0.1.0', h('/newsticker/')), true);
      assert.equal(isAllowed(robots, 'sitemapkit/0.1.0', h('/api/x')), false);
      assert.equal(isAllowed(robots, 'sitemapkit/0.1.0', h('/sitemapindex.xml')), true);
      assert.equal(isAllowed(robots, 'Mediapartners-Google', h('/api/x')), true);
    },
  },
  'johnridesabike__bikewalklife__robots.txt': {
    robotsUrl: 'https://bikewalk.life/robots.txt',
    check(robots) {
      // Sitemap inside the group, then a Host: line.
      assert.deepEqual(shape(robots), [[['*'], [[false, '/tags/']]]]);
      assert.deepEqual(sitemapUrls(robots), ['https://bikewalk.life/sitemap.xml']);
    },
  },
  'johnsmithm__chatheap.com__robots.txt': {
    robotsUrl: 'https://chatheap.com/robots.txt',
    check(robots) {
      // Tilda: 'User-Agent', wildcard Disallows, a trailing empty Disallow, two blank lines, Sitemap then Host.
      assert.equal(robots.groups.length, 1);
      assert.equal(robots.groups[0]?.rules.length, 9);
      assert.deepEqual(robots.sitemaps.map((s) => [s.url, s.line]), [['https://chatheap.com/sitemap.xml', 14]]);
      const allowed = (path: string) => isAllowed(robots, 'sitemapkit', `https://chatheap.com${path}`);
      assert.equal(allowed('/tilda/form1/'), false);
      assert.equal(allowed('/page?_escaped_fragment_=x'), false);
      assert.equal(allowed('/'), true);
      assert.equal(allowed('/tilda'), true);
    },
  },
  'louislouw__Louw.SitemapParser__test__Louw.SitemapParser.UnitTests__testdata__Robots.txt': {
    robotsUrl: 'http://example.com/robots.txt',
    check(robots) {
      // SITEMAP:/SiteMap: casing, a trailing space, no space after the colon, relative paths, '../'
      // above the root, a host with spaces, '//' comment lines, cross-host sitemaps.
      assert.deepEqual(
        robots.sitemaps.map((s) => [s.line, s.url]),
        [
          [6, 'http://example.com/testmap.xml'],
          [7, 'http://anothersite.com/CaseSenSitive.Xml'],
          [8, 'http://blog.example.com/another-subdomain.xml'],
          [13, 'http://example.com/CaseSenSitive.Xml'],
          [14, 'http://example.com/nospace.xml'],
          [17, 'http://example.com/map.xml'],
        ],
      );
      assert.equal(robots.sitemaps[1]?.raw, 'http://anothersite.com/CaseSenSitive.Xml');
      const problems = robots.problems.map((p) => [p.line, p.message.split(/[ ;(]/)[0]]);
      assert.deepEqual(problems, [
        [12, 'duplicate'],
        [13, 'relative'],
        [14, 'relative'],
        [17, 'relative'],
        [20, 'Sitemap'],
      ]);
      assert.equal(robots.problems.at(-1)?.value, 'http://invalid server name.com/sitemap.xml');
      assert.deepEqual(shape(robots), [[['*'], [[false, '/wp-admin/'], [true, '/wp-admin/admin-ajax.php']]]]);
    },
  },
  'openstreetmap__openstreetmap-website__public__robots.txt': {
    robotsUrl: 'https://www.openstreetmap.org/robots.txt',
    check(robots) {
      // The Sitemap line comes first, before any group; an http .xml.gz.
      assert.deepEqual(robots.sitemaps, [{ url: 'http://www.openstreetmap.org/sitemap.xml.gz', line: 1, raw: 'http://www.openstreetmap.org/sitemap.xml.gz' }]);
      assert.deepEqual(robots.groups.map((g) => [g.userAgents, g.line, g.rules.length]), [
        [['*'], 3, 18],
        [['slurp'], 23, 24],
        [['googlebot'], 49, 24],
      ]);
      const osm = (path: string) => `https://www.openstreetmap.org${path}`;
      assert.equal(isAllowed(robots, 'sitemapkit', osm('/user/alice')), false);
      assert.equal(isAllowed(robots, 'Googlebot/2.1', osm('/user/alice')), true);
      assert.equal(isAllowed(robots, 'Googlebot/2.1', osm('/user/alice/traces/12')), false);
      assert.equal(isAllowed(robots, 'Googlebot/2.1', osm('/browse/node/1')), true);
      assert.equal(isAllowed(robots, 'Googlebot/2.1', osm('/browse/node/1/history')), false);
      assert.equal(isAllowed(robots, 'sitemapkit', osm('/browse/node/1')), true);
      assert.equal(isAllowed(robots, 'sitemapkit', osm('/browse/changeset/1')), false);
      assert.equal(isAllowed(robots, 'sitemapkit', osm('/search?query=x&lat=1')), false);
      assert.equal(isAllowed(robots, 'sitemapkit', osm('/sitemap.xml.gz')), true);
    },
  },
};

describe('parseRobotsTxt: corpus', () => {
  const files = filesUnder([ROBOTS_DIR], /\.txt$/i);
  const manifest = readFileSync(join(CORPUS, 'MANIFEST.tsv'), 'utf8')
    .split('\n')
    .map((line) => line.split('\t')[0] ?? '')
    .filter((name) => name.startsWith('robots/'))
    .map((name) => name.slice('robots/'.length))
    .sort();

  it('has a checked case for every robots.txt the manifest lists', () => {
    assert.ok(manifest.length >= 12, `expected the corpus at ${ROBOTS_DIR}`);
    assert.deepEqual(files.map((f) => basename(f)), manifest);
    assert.deepEqual(Object.keys(CORPUS_CASES).sort(), manifest);
  });

  for (const file of files) {
    const name = basename(file);
    it(name, () => {
      const c = CORPUS_CASES[name];
      assert.ok(c, `no case for ${name}`);
      const text = readFileSync(file, 'utf8');
      c.check(parseRobotsTxt(text, c.robotsUrl), text);
    });
  }
});

describe('parseRobotsTxt: problem codes (issue 23)', () => {
  it('refuses a URL in <> or quotes, which is no relative reference (a ":" before the first "/", RFC 3986 §4.2), instead of resolving it to a path', () => {
    const robots = parse('Sitemap: <https://example.com/a.xml>\nSitemap: "https://example.com/b.xml"\nSitemap: /go?to=https://example.com/c.xml\nSitemap: d.xml#x:y\n', 'https://example.com/robots.txt');
    assert.deepEqual(robots.sitemaps.map((s) => s.url), ['https://example.com/go?to=https://example.com/c.xml', 'https://example.com/d.xml']);
    assert.deepEqual(robots.problems.map((p) => [p.line, p.code]), [
      [1, 'robots/sitemap-invalid'],
      [2, 'robots/sitemap-invalid'],
      [3, 'robots/sitemap-relative'],
      [4, 'robots/sitemap-relative'],
    ]);
  });

  it('gives each kind of problem its stable code, each documented in docs/rules.md', () => {
    const text = [
      'Disallow: /early',
      'User-agent: /bad',
      'Disallow: private/',
      'Sitemap https://example.com/a.xml',
      'Sitemap:',
      'Sitemap: {{blog-url}}/sitemap.xml',
      'Sitemap: http://[bad/s.xml',
      'Sitemap: ftp://example.com/s.xml',
      'Sitemap: https://example.com/s.xml',
      'Sitemap: https://example.com/s.xml',
      'Sitemap: /rel.xml',
    ].join('\n');
    const codes = parse(text).problems.map((p) => [p.line, p.code]);
    assert.deepEqual(codes, [
      [1, 'robots/rule-before-user-agent'],
      [2, 'robots/user-agent-no-token'],
      [3, 'robots/rule-pattern'],
      [4, 'robots/sitemap-no-colon'],
      [5, 'robots/sitemap-empty'],
      [6, 'robots/sitemap-placeholder'],
      [7, 'robots/sitemap-invalid'],
      [8, 'robots/sitemap-scheme'],
      [10, 'robots/sitemap-duplicate'],
      [11, 'robots/sitemap-relative'],
    ]);
    const rules = readFileSync(new URL('../../../docs/rules.md', import.meta.url), 'utf8');
    for (const [, code] of codes) assert.ok(rules.includes(`| \`${code as string}\` |`), code as string);
  });
  it('a Sitemap value with other white space at an end (a pasted no-break space) is refused: crawlers request it as part of the URL', () => {
    const parsed = parse('Sitemap: https://example.com/s.xml\u00a0\nSitemap: \u3000https://example.com/t.xml\nSitemap: https://example.com/a b.xml\n');
    assert.deepEqual(parsed.problems.map((p) => [p.line, p.code]), [[1, 'robots/sitemap-invalid'], [2, 'robots/sitemap-invalid']]);
    assert.match(parsed.problems[0]?.message ?? '', /no-break space/);
    assert.deepEqual(parsed.sitemaps.map((s) => s.url), ['https://example.com/a%20b.xml']);
  });
});
