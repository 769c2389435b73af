import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { InvalidValueError, SitemapError } from '../../../src/core/errors.js';
import { setSitemapLines, sitemapLineUrl, type SitemapLinesOptions } from '../../../src/core/robots/edit.js';
import { parseRobotsTxt } from '../../../src/core/robots/robots-txt.js';

const S = 'https://example.com/sitemap.xml';
const NEWS = 'https://example.com/news.xml';

const edit = (text: string, urls: readonly string[], options?: SitemapLinesOptions) => setSitemapLines(text, urls, options);

describe('setSitemapLines: adding', () => {
  it('writes one line into an empty file', () => {
    const result = edit('', [S]);
    assert.equal(result.text, `Sitemap: ${S}\n`);
    assert.deepEqual(result.added, [S]);
    assert.equal(result.changed, true);
  });

  it('keeps a BOM-only file a BOM, then the line', () => {
    assert.equal(edit('\ufeff', [S]).text, `\ufeffSitemap: ${S}\n`);
  });

  it('appends after one blank line when there is no Sitemap line', () => {
    assert.equal(edit('User-agent: *\nDisallow: /x\n', [S]).text, `User-agent: *\nDisallow: /x\n\nSitemap: ${S}\n`);
  });

  it('ends an unterminated last line before the blank line', () => {
    assert.equal(edit('User-agent: *\nDisallow: /x', [S]).text, `User-agent: *\nDisallow: /x\n\nSitemap: ${S}\n`);
  });

  it('adds no second blank line when the file already ends with one (blanks and tabs count as blank)', () => {
    assert.equal(edit('User-agent: *\nDisallow: /x\n\n', [S]).text, `User-agent: *\nDisallow: /x\n\nSitemap: ${S}\n`);
    assert.equal(edit('User-agent: *\n \t\n', [S]).text, `User-agent: *\n \t\nSitemap: ${S}\n`);
  });

  it('puts new lines right after the last Sitemap line, in the order given, leaving what follows alone', () => {
    const text = `# top\nSitemap: https://example.com/a.xml\nUser-agent: *\nSitemap: https://example.com/b.xml # b\nDisallow: /private\n\n# end`;
    const result = edit(text, [NEWS, S]);
    assert.equal(
      result.text,
      `# top\nSitemap: https://example.com/a.xml\nUser-agent: *\nSitemap: https://example.com/b.xml # b\nSitemap: ${NEWS}\nSitemap: ${S}\nDisallow: /private\n\n# end`,
    );
    assert.deepEqual(result.kept, ['https://example.com/a.xml', 'https://example.com/b.xml']);
  });

  it('ends an unterminated last Sitemap line before the new ones', () => {
    assert.equal(edit('User-agent: *\nSitemap: https://example.com/a.xml', [S]).text, `User-agent: *\nSitemap: https://example.com/a.xml\nSitemap: ${S}\n`);
  });

  it("uses the file's dominant line end: CRLF, lone CR; LF on a tie or with none", () => {
    assert.equal(edit('User-agent: *\r\nDisallow: /x\r\n', [S]).text, `User-agent: *\r\nDisallow: /x\r\n\r\nSitemap: ${S}\r\n`);
    assert.equal(edit('User-agent: *\rDisallow: /x\r', [S]).text, `User-agent: *\rDisallow: /x\r\rSitemap: ${S}\r`);
    assert.equal(edit('a: 1\r\nb: 2\n', [S]).text, `a: 1\r\nb: 2\n\nSitemap: ${S}\n`);
    assert.equal(edit('a: 1\r\nb: 2\r\nc: 3\n', [S]).text, `a: 1\r\nb: 2\r\nc: 3\n\r\nSitemap: ${S}\r\n`);
    assert.equal(edit('User-agent: *', [S]).text, `User-agent: *\n\nSitemap: ${S}\n`);
  });

  it('takes lineEnding from the options over the file', () => {
    assert.equal(edit('User-agent: *\n', [S], { lineEnding: '\r\n' }).text, `User-agent: *\n\r\nSitemap: ${S}\r\n`);
  });

  it('keeps a UTF-8 BOM', () => {
    assert.equal(edit('\ufeffUser-agent: *\r\n', [S]).text, `\ufeffUser-agent: *\r\n\r\nSitemap: ${S}\r\n`);
  });

  it('normalises the requested URLs and adds each once', () => {
    const result = edit('', ['https://例え.jp/ü.xml', 'HTTPS://EXAMPLE.com:443/sitemap.xml', ` ${S} `]);
    assert.equal(result.text, `Sitemap: https://xn--r8jz45g.jp/%C3%BC.xml\nSitemap: ${S}\n`);
    assert.deepEqual(result.added, ['https://xn--r8jz45g.jp/%C3%BC.xml', S]);
  });
});

describe('setSitemapLines: lines already there', () => {
  it('returns the very same text when every URL is listed, however the key is written', () => {
    const text = `User-agent: *\n  sitemap:${S}   # main\nSITEMAP :\t${NEWS}\nDisallow: /x\n`;
    const result = edit(text, [S, NEWS]);
    assert.equal(result.changed, false);
    assert.equal(result.text, text);
    assert.deepEqual(result.present, [S, NEWS]);
    assert.deepEqual([result.added, result.updated, result.removed, result.touched], [[], [], [], []]);
  });

  it('finds Sitemap lines anywhere, between the lines of a group too (RFC 9309 §2.2.4)', () => {
    const text = `User-agent: a\nSitemap: ${S}\nDisallow: /x\n`;
    assert.equal(edit(text, [S]).changed, false);
  });

  it('rewrites a line that spells the URL differently, in place, keeping its line end and comment', () => {
    const text = 'User-agent: *\r\nsitemap:http://EXAMPLE.com:80/s.xml  # the main one\r\nDisallow: /x\r\n';
    const result = edit(text, ['http://example.com/s.xml']);
    assert.equal(result.text, 'User-agent: *\r\nSitemap: http://example.com/s.xml  # the main one\r\nDisallow: /x\r\n');
    assert.deepEqual(result.updated, ['http://example.com/s.xml']);
    assert.deepEqual(result.touched, [{ oldLine: 2, newLine: 2, value: 'http://EXAMPLE.com:80/s.xml', change: 'rewritten' }]);
    assert.deepEqual(result.added, []);
  });

  it('takes a line with an equivalent escape (%7E for ~, %2f for %2F: RFC 3986 §6.2.2) for the URL, rewritten in place, not a second line', () => {
    const text = 'Sitemap: https://example.com/%7Ejo/a%2fb.xml\nSitemap: https://example.com/z.xml\n';
    const result = edit(text, ['https://example.com/~jo/a%2Fb.xml', 'https://example.com/%7Ejo/a%2Fb.xml'], { replace: true });
    assert.equal(result.text, 'Sitemap: https://example.com/~jo/a%2Fb.xml\n');
    assert.deepEqual([result.added, result.updated], [[], ['https://example.com/~jo/a%2Fb.xml']]);
  });

  it("keeps the rewritten line's own line end, not the file's", () => {
    assert.equal(edit(`a: 1\nSitemap: HTTPS://example.com/sitemap.xml\r\nb: 2\n`, [S]).text, `a: 1\nSitemap: ${S}\r\nb: 2\n`);
  });

  it('rewrites an IRI line to its URI form', () => {
    assert.equal(edit('Sitemap: https://例え.jp/ü.xml\n', ['https://xn--r8jz45g.jp/%C3%BC.xml']).text, 'Sitemap: https://xn--r8jz45g.jp/%C3%BC.xml\n');
  });

  it('rewrites the key forms only Google reads (site-map:, no colon) to "Sitemap:"', () => {
    assert.equal(edit(`site-map: ${S}\n`, [S]).text, `Sitemap: ${S}\n`);
    assert.equal(edit('Sitemap /sitemap.xml\n', [S], { robotsUrl: 'https://example.com/robots.txt' }).text, `Sitemap: ${S}\n`);
  });

  it('a line for the URL with a no-break space after it is not taken for it (crawlers request the space too): the line is added, the other reported', () => {
    const result = edit(`Sitemap: ${S}\u00a0\n`, [S]);
    assert.equal(result.text, `Sitemap: ${S}\u00a0\n\nSitemap: ${S}\n`);
    assert.deepEqual(result.problems.map((p) => [p.oldLine, p.newLine, p.code]), [[1, 1, 'robots/sitemap-invalid']]);
  });

  it('does not take `Sitemap https://…` without a colon for a Sitemap line: the parser splits at "https:" too', () => {
    assert.equal(edit(`Sitemap ${S}\n`, [S]).text, `Sitemap ${S}\n\nSitemap: ${S}\n`);
  });

  it('keeps the first of repeated lines for a URL and removes the others', () => {
    const text = `Sitemap: ${S}\nUser-agent: *\nsitemap: https://EXAMPLE.COM/sitemap.xml\nDisallow: /x\nSitemap: ${S}\n`;
    const result = edit(text, [S]);
    assert.equal(result.text, `Sitemap: ${S}\nUser-agent: *\nDisallow: /x\n`);
    assert.deepEqual(result.removed, ['https://EXAMPLE.COM/sitemap.xml', S]);
    assert.deepEqual(
      result.touched.map((t) => [t.oldLine, t.newLine, t.change]),
      [
        [3, undefined, 'repeat'],
        [5, undefined, 'repeat'],
      ],
    );
    assert.deepEqual(result.present, [S]);
  });

  it('rewrites the first of repeated lines when it is the one spelled differently', () => {
    const result = edit(`Sitemap: HTTPS://example.com/sitemap.xml\nSitemap: ${S}\n`, [S]);
    assert.equal(result.text, `Sitemap: ${S}\n`);
    assert.deepEqual([result.updated, result.removed], [[S], [S]]);
  });

  it('leaves repeated lines of URLs not asked for alone (they are not ours to touch)', () => {
    const text = 'Sitemap: https://example.com/a.xml\nSitemap: https://example.com/a.xml\n';
    assert.equal(edit(text, [S]).text, `${text}Sitemap: ${S}\n`);
  });
});

describe('setSitemapLines: replace', () => {
  it('removes the Sitemap lines of other URLs; new lines take the place of the last one', () => {
    const text = 'User-agent: *\nDisallow: /x\n\nSitemap: https://old.example.com/a.xml\nSitemap: /relative.xml\n# end\n';
    const result = edit(text, [S], { replace: true });
    assert.equal(result.text, `User-agent: *\nDisallow: /x\n\nSitemap: ${S}\n# end\n`);
    assert.deepEqual(result.removed, ['https://old.example.com/a.xml', '/relative.xml']);
    assert.deepEqual(
      result.touched.map((t) => t.change),
      ['unrequested', 'unrequested'],
    );
  });

  it('keeps a requested line where it is and removes the rest', () => {
    const text = `Sitemap: https://example.com/a.xml\nUser-agent: *\nSitemap: ${S}\n`;
    const result = edit(text, [S], { replace: true });
    assert.equal(result.text, `User-agent: *\nSitemap: ${S}\n`);
    assert.deepEqual(result.present, [S]);
  });

  it('leaves lines the parser does not read as a sitemap (empty, template, ftp:) as they are', () => {
    const text = 'Sitemap:\nSitemap: {{blog-url}}/sitemap.xml\nSitemap: ftp://example.com/s.xml\n';
    assert.equal(edit(text, [S], { replace: true }).text, `${text}\nSitemap: ${S}\n`);
  });

  it('does not let a lone CR and a following empty LF line merge when a line between them goes', () => {
    const result = edit(`A: 1\rSitemap: https://example.com/old.xml\n\nSitemap: ${S}\n`, [S], { replace: true });
    assert.equal(result.text, `A: 1\r\n\nSitemap: ${S}\n`);
    assert.deepEqual(
      parseRobotsTxt(result.text, 'https://example.com/robots.txt').sitemaps.map((s) => s.line),
      [3],
    );
  });
});

describe('setSitemapLines: time linear in the input', () => {
  const cpuMs = (work: () => void): number => {
    const started = process.cpuUsage();
    work();
    const { user, system } = process.cpuUsage(started);
    return (user + system) / 1000; // CPU time, not wall time: a loaded machine makes the wall clock long, not the work
  };

  it('lines rewritten after many others: under 2 s of CPU, where finding each one\'s new line number scanned the file (3.5 s)', () => {
    const urls = Array.from({ length: 12_000 }, (_, i) => `https://example.com/s${i}.xml`);
    const text = `${'# a comment\n'.repeat(120_000)}${urls.map((url) => `Site-map: ${url}\n`).join('')}`;
    let result: ReturnType<typeof edit> | undefined;
    const ms = cpuMs(() => (result = edit(text, urls)));
    assert.ok(ms < 2000, `${Math.round(ms)} ms of CPU`);
    assert.deepEqual([result?.updated.length, result?.touched.at(-1)], [12_000, { oldLine: 132_000, newLine: 132_000, value: urls.at(-1), change: 'rewritten' }]);
  });

  it('20,000 empty lines: under 800 ms of CPU, where looking at the end of the new text copied it at each one (4 s)', () => {
    const text = `Sitemap: ${NEWS}\n${'User-agent: *\n\n'.repeat(20_000)}`;
    let result: ReturnType<typeof edit> | undefined;
    const ms = cpuMs(() => (result = edit(text, [S])));
    assert.ok(ms < 800, `${Math.round(ms)} ms of CPU`);
    assert.equal(result?.text, `Sitemap: ${NEWS}\nSitemap: ${S}\n${'User-agent: *\n\n'.repeat(20_000)}`);
  });

  it('a long run of blanks before a rewritten line\'s comment: under 200 ms of CPU, where trimming it took 1.6 s', () => {
    const text = `Site-map${' '.repeat(30_000)}: ${S} # main\n`;
    let result: ReturnType<typeof edit> | undefined;
    const ms = cpuMs(() => (result = edit(text, [S])));
    assert.ok(ms < 200, `${Math.round(ms)} ms of CPU`);
    assert.equal(result?.text, `Sitemap: ${S} # main\n`);
  });
});

describe('setSitemapLines: relative Sitemap values', () => {
  it('without robotsUrl: a relative line matches nothing and is kept', () => {
    const result = edit('Sitemap: /sitemap.xml\n', [S]);
    assert.equal(result.text, `Sitemap: /sitemap.xml\nSitemap: ${S}\n`);
    assert.deepEqual(result.kept, ['/sitemap.xml']);
  });

  it('with robotsUrl: a relative line resolves and is rewritten to the full URL', () => {
    const result = edit('Sitemap: /sitemap.xml\n', [S], { robotsUrl: 'https://example.com/robots.txt' });
    assert.equal(result.text, `Sitemap: ${S}\n`);
    assert.deepEqual(result.updated, [S]);
  });

  it('problems: the Sitemap lines of the new file crawlers skip; a relative one only with robotsUrl', () => {
    const text = 'User-agent: *\nDisallow /a b\nSitemap https://example.com/old.xml\nSitemap: ftp://example.com/s.xml\nSitemap: /other.xml\n';
    // Without robotsUrl: the relative line points nowhere known, so it is not reported; the group line never is.
    assert.deepEqual(
      edit(text, [S]).problems.map((p) => [p.newLine, p.oldLine, p.value]),
      [
        [3, 3, 'https://example.com/old.xml'],
        [4, 4, 'ftp://example.com/s.xml'],
      ],
    );
    // With it, the relative line is reported too; line numbers are those of the new file.
    const based = edit(`\n${text}`, [S], { robotsUrl: 'https://example.com/robots.txt' });
    assert.deepEqual(
      based.problems.map((p) => [p.newLine, p.oldLine, p.value]),
      [
        [4, 4, 'https://example.com/old.xml'],
        [5, 5, 'ftp://example.com/s.xml'],
        [6, 6, '/other.xml'],
      ],
    );
    assert.ok(based.problems.every((p) => p.directive === 'sitemap'));
    assert.deepEqual(edit(`Sitemap: ${S}\n`, [S]).problems, []);
  });

  // Issue 22: `touched` counted in the input and `problems` in the new file, both as a bare `line`, so
  // "line 5" named two different lines once a line above was removed.
  it('names the file each line number counts in: oldLine in the input, newLine in the new file', () => {
    const text = [
      'User-agent: *', //                               1
      'Sitemap: https://example.com/old.xml', //        2  removed (--replace)
      'Sitemap: https://example.com/old2.xml', //       3  removed (--replace)
      'sitemap: HTTPS://EXAMPLE.COM/sitemap.xml', //    4  rewritten, now line 2; news.xml added after it
      'Sitemap ftp://example.com/x.xml', //             5  kept (a crawler skips it), now line 4
      'Sitemap: {{url}}/s.xml', //                      6  kept, now line 5
      '',
    ].join('\n');
    const result = edit(text, [S, 'https://example.com/news.xml'], { replace: true });
    const written = result.text.split('\n');
    assert.deepEqual(
      result.touched.map((t) => [t.oldLine, t.newLine, t.change]),
      [
        [2, undefined, 'unrequested'],
        [3, undefined, 'unrequested'],
        [4, 2, 'rewritten'],
      ],
    );
    // Each number points at the line it claims, in the file it claims.
    const input = text.split('\n');
    for (const t of result.touched) {
      assert.ok((input[t.oldLine - 1] as string).includes(t.value), `old line ${t.oldLine}`);
      if (t.newLine !== undefined) assert.equal(written[t.newLine - 1], `Sitemap: ${S}`);
    }
    assert.ok(result.problems.length >= 2, JSON.stringify(result.problems));
    for (const p of result.problems) {
      assert.ok((written[p.newLine - 1] as string).includes(p.value), `new line ${p.newLine}: ${JSON.stringify(p)}`);
      assert.equal(input[(p.oldLine as number) - 1], written[p.newLine - 1], `old line ${String(p.oldLine)}`);
      assert.ok(!('line' in p), 'no bare line number');
    }
    assert.deepEqual(result.problems.map((p) => [p.oldLine, p.newLine]).slice(0, 2), [
      [5, 4],
      [6, 5],
    ]);
  });

  it('a line number inside a problem message says which file it counts in when the edit moved the line', () => {
    const D = 'https://example.com/d.xml';
    // Nothing removed: the duplicate's message counts as both files do.
    const same = edit(`Sitemap: ${D}\nSitemap: ${D}\nSitemap: ${S}\n`, [S]);
    assert.deepEqual(same.problems.map((p) => [p.oldLine, p.newLine, p.message.replace(/^.*first/, 'first')]), [[2, 2, 'first on line 1; ignored']]);
    // The repeat of S on line 2 is removed, so D's lines move up by one.
    const moved = edit(`Sitemap: ${S}\nSitemap: ${S}\nSitemap: ${D}\nSitemap: ${D}\n`, [S]);
    assert.equal(moved.text, `Sitemap: ${S}\nSitemap: ${D}\nSitemap: ${D}\n`);
    assert.deepEqual(moved.problems.map((p) => [p.oldLine, p.newLine]), [[4, 3]]);
    assert.match(moved.problems[0]?.message ?? '', /first on line 2 of the new file \(line 3 before the edit\); ignored$/);
  });

  it('lines the edit adds shift the numbers after them: problems keep both', () => {
    const result = edit('User-agent: *\nSitemap ftp://example.com/x.xml\n', [S]);
    assert.equal(result.text, `User-agent: *\nSitemap ftp://example.com/x.xml\n\nSitemap: ${S}\n`);
    assert.deepEqual(result.problems.map((p) => [p.oldLine, p.newLine]), [[2, 2]]);
    const anchored = edit(`Sitemap: https://example.com/a.xml\nSitemap: {{x}}\n`, [S]);
    // The new line goes after the last Sitemap line a crawler reads, so the template line moves down.
    assert.equal(anchored.text, `Sitemap: https://example.com/a.xml\nSitemap: ${S}\nSitemap: {{x}}\n`);
    assert.deepEqual(anchored.problems.map((p) => [p.oldLine, p.newLine]), [[2, 3]]);
  });

  it('refuses a robotsUrl that is not an absolute http(s) URL', () => {
    for (const robotsUrl of ['/robots.txt', 'ftp://example.com/robots.txt']) {
      assert.throws(
        () => edit('', [S], { robotsUrl }),
        (err: unknown) => err instanceof SitemapError && err.code === 'ERR_SITEMAP_OPTION',
        robotsUrl,
      );
    }
  });
});

describe('sitemapLineUrl', () => {
  const cases: [input: string, code: string][] = [
    ['/sitemap.xml', 'loc/not-absolute'],
    ['example.com/sitemap.xml', 'loc/not-absolute'],
    ['//example.com/sitemap.xml', 'loc/not-absolute'],
    ['ftp://example.com/sitemap.xml', 'loc/unsupported-scheme'],
    ['https://example.com/sitemap.xml#top', 'loc/invalid'],
    ['', 'loc/empty'],
    ['https://user:secret@example.com/s.xml', 'loc/credentials'],
  ];
  for (const [input, code] of cases) {
    it(`refuses ${JSON.stringify(input)} with ${code}, and setSitemapLines too`, () => {
      const check = (err: unknown): boolean => err instanceof InvalidValueError && err.code === 'ERR_SITEMAP_INVALID_VALUE' && err.rule === code && err.field === 'Sitemap';
      assert.throws(() => sitemapLineUrl(input), check);
      assert.throws(() => edit('User-agent: *\n', [S, input]), check);
    });
  }

  it('returns the normalised URL', () => {
    assert.equal(sitemapLineUrl('http://Example.COM:80/a b/ü.xml?x=1'), 'http://example.com/a%20b/%C3%BC.xml?x=1');
  });
});

// ---------------------------------------------------------------------------------------------------
// Properties over generated files

const ROBOTS_URL = 'https://example.com/robots.txt';

interface UrlSpec {
  scheme: 'http' | 'https';
  host: string;
  /** Path as an IRI may write it, and its URI form. */
  path: [iri: string, uri: string];
}

const urlSpec: fc.Arbitrary<UrlSpec> = fc.record({
  scheme: fc.constantFrom('http' as const, 'https' as const),
  host: fc.constantFrom('example.com', 'www.example.com', 'cdn.example.org'),
  path: fc.constantFrom<[string, string]>(['/sitemap.xml', '/sitemap.xml'], ['/news/sitemap.xml.gz', '/news/sitemap.xml.gz'], ['/ü.xml', '/%C3%BC.xml'], ['/a b.xml', '/a%20b.xml']),
});

const canonical = (u: UrlSpec): string => `${u.scheme}://${u.host}${u.path[1]}`;

/** One of the many ways a file may write the URL. */
const spelling = (u: UrlSpec): fc.Arbitrary<string> =>
  fc.record({ upperScheme: fc.boolean(), upperHost: fc.boolean(), port: fc.boolean(), iri: fc.boolean() }).map(({ upperScheme, upperHost, port, iri }) => {
    const scheme = upperScheme ? u.scheme.toUpperCase() : u.scheme;
    const host = upperHost ? u.host.toUpperCase() : u.host;
    const defaultPort = port ? (u.scheme === 'https' ? ':443' : ':80') : '';
    // A raw space would split the value; only the IRI characters that survive in a line are kept raw.
    const path = iri && !u.path[0].includes(' ') ? u.path[0] : u.path[1];
    return `${scheme}://${host}${defaultPort}${path}`;
  });

interface GenLine {
  content: string;
  /** The URL a crawler reads from it (resolved against ROBOTS_URL), for Sitemap lines. */
  sitemap: boolean;
}

const sitemapLine: fc.Arbitrary<GenLine> = urlSpec
  .chain((u) =>
    fc.tuple(
      fc.constantFrom('', '  ', '\t'),
      fc.constantFrom('Sitemap: ', 'sitemap:', 'SITEMAP : ', 'Site-map: ', 'sitemap\t:\t'),
      spelling(u),
      fc.constantFrom('', '  ', ' # main', '#x'),
    ),
  )
  .map(([lead, key, url, tail]) => ({ content: `${lead}${key}${url}${tail}`, sitemap: true }));

const otherSitemapLine: fc.Arbitrary<GenLine> = fc
  .constantFrom('Sitemap: /relative-sitemap.xml', 'Sitemap /relative-sitemap.xml', 'Sitemap: https://elsewhere.example.net/s.xml')
  .map((content) => ({ content, sitemap: true }));

const otherLine: fc.Arbitrary<GenLine> = fc
  .constantFrom(
    'User-agent: *',
    'User-agent: Googlebot',
    'Disallow: /private',
    'Allow: /',
    'Crawl-delay: 5',
    'Host: example.com',
    '# a comment with Sitemap: https://example.com/sitemap.xml',
    '',
    '   ',
    'Sitemap:',
    'Sitemap: {{blog-url}}/sitemap.xml',
    'sitemaps: https://example.com/not-a-key.xml',
    'Sitemap https://example.com/sitemap.xml',
  )
  .map((content) => ({ content, sitemap: false }));

interface GenFile {
  text: string;
  lines: { content: string; eol: string; sitemap: boolean }[];
  bom: string;
}

// Line ends: one for the file, some lines with the other usual one (a CRLF file with stray LFs). A
// lone CR is never mixed with LF here: that case is a unit test above.
const genFile: fc.Arbitrary<GenFile> = fc
  .record({
    bom: fc.boolean(),
    eol: fc.constantFrom('\n', '\r\n', '\r'),
    lines: fc.array(fc.tuple(fc.oneof({ weight: 3, arbitrary: otherLine }, { weight: 2, arbitrary: sitemapLine }, { weight: 1, arbitrary: otherSitemapLine }), fc.nat(9)), { maxLength: 14 }),
    lastEol: fc.boolean(),
  })
  .map(({ bom, eol, lines, lastEol }) => {
    const out = lines.map(([line, n], i) => {
      const stray = eol === '\r' ? eol : n === 0 ? (eol === '\n' ? '\r\n' : '\n') : eol;
      return { ...line, eol: i === lines.length - 1 && !lastEol ? '' : stray };
    });
    // An empty last line without a line end is no line at all.
    if (out.length > 0 && out[out.length - 1]?.eol === '' && out[out.length - 1]?.content === '') out.pop();
    const b = bom ? '\ufeff' : '';
    return { bom: b, lines: out, text: b + out.map((l) => l.content + l.eol).join('') };
  });

const requestArb = fc.record({
  urls: fc.array(urlSpec, { minLength: 1, maxLength: 4 }).chain((specs) => fc.tuple(...specs.map((s) => spelling(s)))),
  replace: fc.boolean(),
  withBase: fc.boolean(),
});

/** The output split into lines with their line ends (the parser's splitting rules). */
function splitLines(text: string): { content: string; eol: string }[] {
  return [...text.matchAll(/([^\r\n]*)(\r\n|\r|\n|$)/g)].filter((m) => m[0] !== '').map((m) => ({ content: m[1] as string, eol: m[2] as string }));
}

const readsAsSitemap = (content: string): boolean => parseRobotsTxt(content, ROBOTS_URL).sitemaps.length === 1;
const sitemapUrls = (text: string): string[] => parseRobotsTxt(text, ROBOTS_URL).sitemaps.map((s) => s.url);

describe('setSitemapLines: properties', () => {
  it('the generated files mean what the generator says (a check of the test itself)', () => {
    fc.assert(
      fc.property(genFile, (file) => {
        for (const line of file.lines) assert.equal(readsAsSitemap(line.content), line.sitemap, line.content);
      }),
    );
  });

  it('a second edit changes nothing', () => {
    fc.assert(
      fc.property(genFile, requestArb, (file, { urls, replace, withBase }) => {
        const options = { replace, ...(withBase ? { robotsUrl: ROBOTS_URL } : {}) };
        const once = setSitemapLines(file.text, urls, options);
        const twice = setSitemapLines(once.text, urls, options);
        assert.equal(twice.changed, false);
        assert.equal(twice.text, once.text);
        assert.deepEqual([twice.added, twice.updated, twice.removed, twice.touched], [[], [], [], []]);
        assert.equal(once.changed, once.text !== file.text);
      }),
    );
  });

  it('every other line survives byte for byte, in order; only a line end and one blank line may be added', () => {
    fc.assert(
      fc.property(genFile, requestArb, (file, { urls, replace, withBase }) => {
        const result = setSitemapLines(file.text, urls, { replace, ...(withBase ? { robotsUrl: ROBOTS_URL } : {}) });
        assert.equal(result.text.startsWith(file.bom), true);
        assert.equal(result.text.charCodeAt(file.bom.length) === 0xfeff, false);
        const before = file.bom + file.lines.filter((l) => !l.sitemap).map((l) => l.content + l.eol).join('');
        const after = file.bom + splitLines(result.text.slice(file.bom.length)).filter((l) => !readsAsSitemap(l.content)).map((l) => l.content + l.eol).join('');
        const hadSitemapLines = file.lines.some((l) => l.sitemap);
        if (hadSitemapLines) {
          assert.equal(after, before);
        } else {
          // Appended at the end: the unterminated last line may get its line end, then one blank line.
          assert.ok(after.startsWith(before), JSON.stringify([before, after]));
          assert.match(after.slice(before.length), /^(\r\n|\r|\n){0,2}$/);
        }
      }),
    );
  });

  it('the parser reads back the requested URLs, each on one line, plus the kept ones unless replace', () => {
    fc.assert(
      fc.property(genFile, requestArb, (file, { urls, replace, withBase }) => {
        const result = setSitemapLines(file.text, urls, { replace, ...(withBase ? { robotsUrl: ROBOTS_URL } : {}) });
        const requested = new Set(urls.map((u) => new URL(u).href));
        const expected = new Set(requested);
        if (!replace) for (const url of sitemapUrls(file.text)) expected.add(url);
        assert.deepEqual(new Set(sitemapUrls(result.text)), expected);
        // Without duplicates: each requested URL on exactly one line.
        const perLine = splitLines(result.text).flatMap((l) => parseRobotsTxt(l.content, ROBOTS_URL).sitemaps.map((s) => s.url));
        for (const url of requested) assert.equal(perLine.filter((u) => u === url).length, 1, url);
        // The report agrees with the text.
        const canonicalRequested = new Set(urls.map((u) => sitemapLineUrl(u)));
        assert.deepEqual(new Set([...result.added, ...result.updated, ...result.present]), canonicalRequested);
        for (const url of result.added) assert.ok(result.text.includes(`Sitemap: ${url}`));
      }),
    );
  });

  it('spellings from the generator normalise to the canonical URL (a check of the test itself)', () => {
    fc.assert(fc.property(urlSpec.chain((u) => fc.tuple(fc.constant(u), spelling(u))), ([u, spelled]) => assert.equal(sitemapLineUrl(spelled), canonical(u))));
  });
});
