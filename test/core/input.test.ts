import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SitemapError } from '../../src/core/errors.js';
import { locProblem, parseTextLine, sniffInputFormat } from '../../src/core/input/text.js';
import { splitTsvLine, unescapeTsvField } from '../../src/core/input/tsv.js';
import { CsvParser, csvHeader, csvRecordToEntry, httpDateToW3c, knownColumnOf, parseColumnMapping } from '../../src/core/input/csv.js';
import { parseJsonLine } from '../../src/core/input/jsonl.js';
import { EntryPolicy, filterPath } from '../../src/core/input/entry-policy.js';
import { InvalidValueError } from '../../src/core/errors.js';
import { LIMITS_PROFILES, type UrlEntry } from '../../src/core/model.js';
import { ALL_EXTENSIONS, UrlEntrySerializer } from '../../src/core/write/url-entry.js';

type Event = ['record', string[], number] | ['error', string, number];

function parseCsv(chunks: readonly string[], maxRecordLength?: number): Event[] {
  const events: Event[] = [];
  const parser = new CsvParser({
    onRecord: (fields, line) => events.push(['record', fields, line]),
    onError: (message, line) => events.push(['error', message, line]),
  }, maxRecordLength);
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return events;
}

function records(text: string): [string[], number][] {
  return parseCsv([text]).map((e) => {
    assert.equal(e[0], 'record', `unexpected ${JSON.stringify(e)}`);
    return [e[1] as string[], e[2]];
  });
}

function quoteField(field: string): string {
  return /[",\r\n]/.test(field) || field.charCodeAt(0) === 0xfeff ? `"${field.replace(/"/g, '""')}"` : field;
}

function serialise(rows: readonly string[][], eol: string, trailing: boolean): string {
  const lines = rows.map((row) => (row.length === 1 && row[0] === '' ? '""' : row.map(quoteField).join(',')));
  return lines.join(eol) + (trailing ? eol : '');
}

function throwsCode(fn: () => unknown, code: string, message: RegExp, rule?: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof SitemapError);
    assert.equal(error.code, code);
    assert.equal(error.rule, rule);
    assert.match(error.message, message);
    return true;
  });
}

describe('parseTextLine', () => {
  it('trims, skips blanks and comments, keeps fragments', () => {
    assert.deepEqual(parseTextLine('  https://example.com/a  '), { loc: 'https://example.com/a' });
    assert.deepEqual(parseTextLine('\t/a?b=1\t '), { loc: '/a?b=1' }); // around, as documented; inside a line it is refused
    assert.deepEqual(parseTextLine('https://example.com/a\r'), { loc: 'https://example.com/a' });
    assert.deepEqual(parseTextLine('\uFEFFhttps://example.com/'), { loc: 'https://example.com/' });
    assert.equal(parseTextLine(''), undefined);
    assert.equal(parseTextLine(' \t '), undefined);
    assert.equal(parseTextLine('# a comment'), undefined);
    assert.equal(parseTextLine('   # indented comment'), undefined);
    assert.deepEqual(parseTextLine('https://example.com/#top'), { loc: 'https://example.com/#top' });
  });
});

describe('parseTextLine: a line is an absolute http(s) URL or a /path, nothing else', () => {
  it('takes absolute http(s) URLs (any case of the scheme) and paths from the root as written', () => {
    for (const line of ['https://www.example.com/a,b?x=1&y=2', 'HTTP://Example.com', '/a/b', '/ciudades/málaga', '/', '/a?q=1#f']) {
      assert.deepEqual(parseTextLine(line), { loc: line }, line);
    }
  });

  // [line, what the reason must say] — each of these was turned into a URL before (issue 22).
  const refused: [string, RegExp][] = [
    ['loc,lastmod', /looks like a CSV header: use --input-format csv/],
    ['"loc","lastmod"', /looks like a CSV header: use --input-format csv/],
    ['{"loc":"/a","lastmod":"2024-01-01"}', /looks like JSON Lines: use --input-format jsonl/],
    ['{"loc": "/a"}', /looks like JSON Lines: use --input-format jsonl/],
    ['loc\tlastmod', /looks like tab-separated values|TSV/],
    ['www.example.com/page', /looks like a URL without its scheme: https:\/\/www\.example\.com\/page\?$/],
    ['example.co.uk', /looks like a URL without its scheme: https:\/\/example\.co\.uk\?$/],
    ['www.example.com:8080/a?b', /looks like a URL without its scheme: https:\/\/www\.example\.com:8080\/a\?b\?$/],
    ['//cdn.example.com/a', /protocol-relative URL \(no scheme\): https:\/\/cdn\.example\.com\/a\?$/],
    ['not a url at all', /contains a space at column 4/],
    ['https://www.example.com/a\tb', /contains a tab at column 26/],
    ['/a b', /contains a space at column 3/],
    ['/a\u00a0b', /contains a no-break space/],
    ['/a\u0000b', /contains a control character \(U\+0000\)/],
    ['page.html', /neither an absolute http\(s\) URL nor a path starting with \/: write the full URL/],
    ['a/b', /neither an absolute http\(s\) URL nor a path starting with \//],
    ['ftp://example.com/a', /the scheme is "ftp"; a sitemap lists only http and https URLs/],
    ['mailto:a@example.com', /the scheme is "mailto"/],
    ['https:/www.example.com/a', /write it as https:\/\/host\/path/],
    ['"https://www.example.com/a",2024-01-01', /looks like CSV: use --input-format csv/],
    ['"https://www.example.com/a"', /it is in double quotes; write the URL without them$/],
    ['"/a"', /it is in double quotes; write the URL without them$/],
  ];
  for (const [line, reason] of refused) {
    it(`refuses ${JSON.stringify(line)}`, () => {
      const read = parseTextLine(line);
      assert.equal(read?.loc, undefined);
      assert.match(read?.error ?? '', reason);
    });
  }

  it('a loc from a field (CSV, TSV, JSON Lines) is never told to use another input format: a header row repeated where CSV files were joined is not "use --input-format csv"', () => {
    for (const loc of ['loc', 'URL', '{"loc":"/a"}', 'a,b', '"a']) {
      assert.match(locProblem(loc) ?? '', /: write the full URL \(https:\/\/host\/path\) or a path from the site's root \(\/path\)$/, loc);
    }
    assert.match(locProblem('www.example.com/a') ?? '', /looks like a URL without its scheme/);
    assert.match(locProblem('"https://e.com/a"') ?? '', /it is in double quotes; write the URL without them$/);
  });

  it('columns count from the start of the line as given (leading blanks included)', () => {
    assert.match(parseTextLine('  /a b')?.error ?? '', /at column 5/);
  });

  it('never yields a loc with whitespace or a control character, nor one that is not http(s) or /path', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (line) => {
        const read = parseTextLine(line);
        if (read?.loc === undefined) return;
        assert.ok(!/[\s\x00-\x1f\x7f-\x9f]/.test(read.loc), JSON.stringify(read.loc));
        assert.ok(/^https?:\/\//i.test(read.loc) || (read.loc.startsWith('/') && !read.loc.startsWith('//')), JSON.stringify(read.loc));
      }),
    );
  });
});

describe('sniffInputFormat', () => {
  it('a JSON object is JSON Lines; a header naming loc is CSV or TSV; anything else is text', () => {
    const cases: [string, string][] = [
      ['{"loc":"https://e.com/"}', 'jsonl'],
      ['  {', 'jsonl'],
      ['loc,lastmod,changefreq,priority', 'csv'],
      ['LOC', 'csv'],
      ['"loc" , lastmod', 'csv'],
      ['lastmod,loc', 'csv'],
      ['loc\tlastmod\tchangefreq\tpriority', 'tsv'],
      ['\uFEFFloc\tlastmod', 'tsv'],
      ['https://e.com/loc', 'text'],
      ['/loc', 'text'],
      ['location,lastmod', 'text'],
      ['', 'text'],
      // Excel's line that names the separator, before a CSV header (it was text, refused whole from stdin).
      ['sep=,', 'csv'],
      ['sep=;\r', 'csv'],
      ['sep=\t', 'csv'],
      ['sep=ab', 'text'],
    ];
    for (const [line, format] of cases) assert.equal(sniffInputFormat(line), format, JSON.stringify(line));
  });

  it('a header naming loc by a common name (url, Address) or by --columns is CSV or TSV too', () => {
    assert.equal(sniffInputFormat('"Address","Content Type","Last Modified"'), 'csv');
    assert.equal(sniffInputFormat('URL\tLast-Modified'), 'tsv');
    assert.equal(sniffInputFormat('Seite,Datum'), 'text');
    assert.equal(sniffInputFormat('Seite,Datum', 'seite'), 'csv');
    assert.equal(sniffInputFormat('https://e.com/url'), 'text');
  });
});

describe('TSV fields', () => {
  it('reads the escapes "sitemapkit read --format tsv" writes, and keeps other backslashes', () => {
    assert.equal(unescapeTsvField('a\\tb\\nc\\rd\\\\e'), 'a\tb\nc\rd\\e');
    assert.equal(unescapeTsvField('a\\x'), 'a\\x');
    assert.deepEqual(splitTsvLine('https://e.com/a\t2024-01-01\t\t0.5'), ['https://e.com/a', '2024-01-01', '', '0.5']);
  });

  it('a field that is \\N alone is empty: NULL in PostgreSQL COPY and MySQL exports (it was a lastmod "\\N", a warning and exit 1)', () => {
    assert.deepEqual(splitTsvLine('https://e.com/a\t\\N\t\\Nx'), ['https://e.com/a', '', '\\Nx']);
  });
});

describe('CsvParser', () => {
  it('parses plain records with LF and CRLF and reports start lines', () => {
    assert.deepEqual(records('a,b,c\r\n1,2,3\n\n4,,6'), [
      [['a', 'b', 'c'], 1],
      [['1', '2', '3'], 2],
      [['4', '', '6'], 4],
    ]);
  });

  it('handles quoted commas, doubled quotes and line breaks inside quotes', () => {
    assert.deepEqual(records('loc,note\r\n"https://e.com/a,b","say ""hi"""\r\n"x","line1\r\nline2\nline3"\r\ny,z\r\n'), [
      [['loc', 'note'], 1],
      [['https://e.com/a,b', 'say "hi"'], 2],
      [['x', 'line1\r\nline2\nline3'], 3],
      [['y', 'z'], 6],
    ]);
  });

  it('keeps empty fields, trailing empty field and a quoted empty record', () => {
    assert.deepEqual(records('a,\n""\n,\n'), [
      [['a', ''], 1],
      [[''], 2],
      [['', ''], 3],
    ]);
  });

  it('ends a record at a lone CR outside quotes (old Mac exports), and keeps one inside quotes, where it ends a line too', () => {
    assert.deepEqual(records('loc,lastmod\rhttps://e.com/a,2024-01-01\r\r"x\ry",1\rz'), [
      [['loc', 'lastmod'], 1],
      [['https://e.com/a', '2024-01-01'], 2],
      [['x\ry', '1'], 4],
      [['z'], 6],
    ]);
    // A CRLF inside quotes cut between two chunks is one line end.
    assert.deepEqual(parseCsv(['"x\r', '\ny"\rz']).map((e) => e[2]), [1, 3]);
    assert.deepEqual(parseCsv(['a"b\rc\r"d"\re']), [
      ['error', 'stray quote in an unquoted field (quote the whole field and double the quote)', 1],
      ['record', ['c'], 2],
      ['record', ['d'], 3],
      ['record', ['e'], 4],
    ]);
  });

  it('drops a leading BOM and a final CR without LF', () => {
    assert.deepEqual(records('\uFEFFloc\r\nx\r'), [
      [['loc'], 1],
      [['x'], 2],
    ]);
  });

  it('reports a stray quote, skips that record only', () => {
    assert.deepEqual(parseCsv(['a,b"c,d\ne,f\n']), [
      ['error', 'stray quote in an unquoted field (quote the whole field and double the quote)', 1],
      ['record', ['e', 'f'], 2],
    ]);
  });

  it('reports text after a closing quote', () => {
    const events = parseCsv(['"a"b,c\n"x\ny"z\nok\n']);
    assert.equal(events.length, 3);
    assert.deepEqual(events[0]?.[0], 'error');
    assert.equal(events[0]?.[2], 1);
    assert.deepEqual(events[1]?.slice(0, 1), ['error']);
    assert.equal(events[1]?.[2], 3, 'line of the bad character, inside a multi-line record');
    assert.deepEqual(events[2], ['record', ['ok'], 4]);
  });

  it('reports an unterminated quote at EOF on the line the record starts', () => {
    assert.deepEqual(parseCsv(['a\n"b\nc\nd']), [
      ['record', ['a'], 1],
      ['error', 'unterminated quoted field at the end of the input', 2],
    ]);
  });

  it('skips a record longer than the limit, quoted or not, without holding its text, and reads on', () => {
    const tooLong = 'record longer than 20 characters; it was skipped';
    const chunks = ['loc\n"https://e.com/', 'x'.repeat(15), '\n', 'y'.repeat(15), '",b\nok\n', 'a,'.repeat(20), 'a\nz,', 'w'.repeat(30)];
    assert.deepEqual(parseCsv(chunks, 20), [
      ['record', ['loc'], 1],
      ['error', tooLong, 2],
      ['record', ['ok'], 4],
      ['error', tooLong, 5],
      ['error', tooLong, 6],
    ]);
    // Within one chunk, a record is read whole (the chunk is in memory anyway).
    assert.deepEqual(parseCsv(['a,'.repeat(20) + 'a\n'], 20)[0]?.[0], 'record');
  });

  it("takes the separator an Excel `sep=X` first line names, and skips that line (it was the header: \"found \"sep=\", \"\"\")", () => {
    assert.deepEqual(records('sep=,\r\nloc,lastmod\r\nx,1\r\n'), [
      [['loc', 'lastmod'], 2],
      [['x', '1'], 3],
    ]);
    assert.deepEqual(records('\uFEFFsep=;\nloc;lastmod\n"a;b";c,d\n'), [
      [['loc', 'lastmod'], 2],
      [['a;b', 'c,d'], 3],
    ]);
    assert.deepEqual(records('sep=\t\nloc\tlastmod\nx\t1'), [
      [['loc', 'lastmod'], 2],
      [['x', '1'], 3],
    ]);
    // Only as the first line, and never a quote: elsewhere it is a record like any other.
    assert.deepEqual(records('loc\nsep=;\n'), [
      [['loc'], 1],
      [['sep=;'], 2],
    ]);
    assert.deepEqual(records('sep=ab\n'), [[['sep=ab'], 1]]);
    assert.equal(parseCsv(['sep="\n'])[0]?.[0], 'error');
  });

  it('refuses push after end', () => {
    const parser = new CsvParser({ onRecord() {}, onError() {} });
    parser.end();
    assert.throws(() => parser.push('x'), SitemapError);
  });

  it('property: properly quoted fields parse back identically', () => {
    const unit = fc.constantFrom('a', 'b', ' ', ',', '"', '\n', '\r', 'é', '😀', '\uFEFF', '#');
    const field = fc.oneof(fc.string({ unit, maxLength: 8 }), fc.string({ maxLength: 8 }));
    const rows = fc.array(fc.array(field, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(rows, fc.constantFrom('\n', '\r\n'), fc.boolean(), (data, eol, trailing) => {
        const parsed = records(serialise(data, eol, trailing)).map(([fields]) => fields);
        assert.deepEqual(parsed, data);
      }),
      { numRuns: 500 },
    );
  });

  const samples = [
    'loc,lastmod\r\n"https://e.com/a,b",2024-01-01\r\n"x\r\ny",\r\n\r\nz,"q""q"\r\n',
    '\uFEFFa,b\n"multi\nline\nfield",x\nlast,"one"',
    'a,b"c\n"open\nnever closed',
    '"a"b\r\n"c"\rd\n"e"\r\n',
    'a,b\rc\r\r\nd\n"e\rf"\rg"h\ri',
    '\n\r\n,\n""\n"",""\r\n',
    'sep=;\r\na;b,c\r\n"x;\ny";z\rq;"r"\n',
    'sep=,\na,b\n',
  ];

  it('chunk invariance: whole text vs. split at every position and one character at a time', () => {
    for (const text of samples) {
      const whole = parseCsv([text]);
      for (let i = 0; i <= text.length; i++) {
        assert.deepEqual(parseCsv([text.slice(0, i), text.slice(i)]), whole, `split at ${i} of ${JSON.stringify(text)}`);
      }
      assert.deepEqual(parseCsv([...text]), whole, `char by char ${JSON.stringify(text)}`);
      assert.deepEqual(parseCsv(text.split('')), whole);
    }
  });

  it('property: chunk invariance on generated CSV', () => {
    const unit = fc.constantFrom('a', ',', '"', '\n', '\r', 'é');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), fc.array(fc.nat(), { maxLength: 5 }), (text, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((x, y) => x - y);
        const chunks: string[] = [];
        let prev = 0;
        for (const p of points) {
          chunks.push(text.slice(prev, p));
          prev = p;
        }
        chunks.push(text.slice(prev));
        assert.deepEqual(parseCsv(chunks), parseCsv([text]));
      }),
      { numRuns: 500 },
    );
  });
});

describe('csvHeader / csvRecordToEntry', () => {
  it('a header separated by semicolons (a spreadsheet of a comma-decimal locale) is named so', () => {
    assert.throws(() => csvHeader(['URL;Last Modified']), /header is separated by semicolons: save the file as CSV with commas/);
    assert.throws(() => csvHeader(['Page', 'Date']), /expected loc \(or url, address\)/);
  });

  it('a header separated by tabs read as CSV (an Ahrefs export: UTF-16 TSV named .csv), or by commas read as TSV, is told to use the other format', () => {
    assert.throws(() => csvHeader(['URL\tTitle\tLast modified']), /header is separated by tabs: use --input-format tsv$/);
    assert.throws(() => csvHeader(['loc,lastmod'], 'TSV'), /header is separated by commas: use --input-format csv$/);
  });

  it('maps columns in any order, case-insensitively, and lists unknown ones', () => {
    const columns = csvHeader([' Priority ', 'LOC', 'extra', 'lastmod']);
    assert.deepEqual(columns, { loc: 1, priority: 0, lastmod: 3, count: 4, unknown: ['extra'] });
    assert.deepEqual(csvRecordToEntry(['0.8', ' https://e.com/ ', 'ignored', ''], columns), {
      loc: 'https://e.com/',
      priority: '0.8',
    });
  });

  it('keeps values as written (validation is the writer’s)', () => {
    const columns = csvHeader(['loc', 'lastmod', 'changefreq', 'priority']);
    assert.deepEqual(csvRecordToEntry(['https://e.com/', 'yesterday', 'sometimes', '1.5'], columns), {
      loc: 'https://e.com/',
      lastmod: 'yesterday',
      changefreq: 'sometimes',
      priority: '1.5',
    });
  });

  it('throws input/csv-header without loc or with a duplicate column', () => {
    throwsCode(() => csvHeader(['page', 'lastmod']), 'ERR_SITEMAP_INPUT_FORMAT', /no "loc" column.*"page", "lastmod"/, 'input/csv-header');
    throwsCode(() => csvHeader(['loc', 'LOC']), 'ERR_SITEMAP_INPUT_FORMAT', /"loc" twice/, 'input/csv-header');
  });

  it('finds columns by their common names, any case, spaces, - or _ (Screaming Frog, HTTP header names)', () => {
    assert.deepEqual(csvHeader(['Address', 'Status Code', 'Last Modified', 'Change Frequency', 'PRIORITY']), {
      loc: 0,
      lastmod: 2,
      changefreq: 3,
      priority: 4,
      count: 5,
      unknown: ['Status Code'],
    });
    assert.deepEqual(csvHeader(['url', 'last-modified']).lastmod, 1);
    for (const [name, key] of [['URL', 'loc'], ['lastModified', 'lastmod'], ['LastMod', 'lastmod'], ['change_frequency', 'changefreq'], ['URL Encoded Address', undefined], ['Redirect URL', undefined]] as const) {
      assert.equal(knownColumnOf(name), key, name);
    }
    throwsCode(() => csvHeader(['URL', 'Address']), 'ERR_SITEMAP_INPUT_FORMAT', /"loc" twice \("URL", column 1, and "Address", column 2\); choose one with --columns loc=NAME/, 'input/csv-header');
  });

  it('--columns maps columns by header name; a mapped column wins over a common name, which becomes unknown', () => {
    const columns = csvHeader(['URL', 'Canonical', 'Changed'], 'CSV', { loc: 'canonical', lastmod: 'Changed' });
    assert.deepEqual(columns, { loc: 1, lastmod: 2, count: 3, unknown: ['URL'] });
    throwsCode(() => csvHeader(['URL'], 'TSV', { lastmod: 'Changed' }), 'ERR_SITEMAP_INPUT_FORMAT', /^TSV header has no column "Changed" for --columns lastmod=/, 'input/csv-header');
  });

  it('parseColumnMapping reads COLUMN=NAME pairs, quoted names with commas and quotes', () => {
    assert.deepEqual(parseColumnMapping('loc=Address,lastmod=Last Modified'), { loc: 'Address', lastmod: 'Last Modified' });
    assert.deepEqual(parseColumnMapping('LOC = "A, ""b""' + '" , priority=P'), { loc: 'A, "b"', priority: 'P' });
    throwsCode(() => parseColumnMapping('url=Address'), 'ERR_SITEMAP_OPTION', /"url" is not one of loc, lastmod, changefreq, priority/);
    throwsCode(() => parseColumnMapping('loc'), 'ERR_SITEMAP_OPTION', /has no "="/);
    throwsCode(() => parseColumnMapping('loc=a,loc=b'), 'ERR_SITEMAP_OPTION', /loc is mapped twice/);
    throwsCode(() => parseColumnMapping('loc="a'), 'ERR_SITEMAP_OPTION', /no closing quote/);
    throwsCode(() => parseColumnMapping('loc='), 'ERR_SITEMAP_OPTION', /no header name for loc/);
  });

  it('a lastmod written as an HTTP date (a Last-Modified header copied) becomes the same instant in W3C Datetime', () => {
    const columns = csvHeader(['Address', 'Last-Modified']);
    assert.deepEqual(csvRecordToEntry(['https://e.com/', 'Sun, 06 Nov 1994 08:49:37 GMT'], columns), { loc: 'https://e.com/', lastmod: '1994-11-06T08:49:37Z' });
    assert.deepEqual(csvRecordToEntry(['https://e.com/', 'Sunday, 06-Nov-94 08:49:37 GMT'], columns).lastmod, 'Sunday, 06-Nov-94 08:49:37 GMT');
    assert.equal(httpDateToW3c('Sun, 06 Nov 1994 08:49:37 CET'), undefined);
    assert.equal(httpDateToW3c('2024-01-01'), undefined);
  });

  it('a TSV NULL (mysql -B writes SQL NULL so) in lastmod, changefreq or priority is empty, as \\N is (it was three warnings); not in CSV, not in loc', () => {
    const columns = csvHeader(['loc', 'lastmod', 'changefreq', 'priority'], 'TSV');
    assert.deepEqual(csvRecordToEntry(['https://e.com/a', 'NULL', ' NULL', 'NULL'], columns, 'TSV'), { loc: 'https://e.com/a' });
    assert.deepEqual(csvRecordToEntry(['https://e.com/a', 'NULL', 'null', 'NULL'], columns, 'CSV'), { loc: 'https://e.com/a', lastmod: 'NULL', changefreq: 'null', priority: 'NULL' });
    assert.deepEqual(csvRecordToEntry(['https://e.com/a', 'null', 'NULLx', '0.5'], columns, 'TSV'), { loc: 'https://e.com/a', lastmod: 'null', changefreq: 'NULLx', priority: '0.5' });
    assert.equal(csvRecordToEntry(['NULL', '', '', ''], columns, 'TSV').loc, 'NULL');
  });

  it('throws input/csv for a wrong field count or an empty loc', () => {
    const columns = csvHeader(['loc', 'lastmod']);
    throwsCode(() => csvRecordToEntry(['https://e.com/a', 'b', '2024'], columns), 'ERR_SITEMAP_INPUT', /3 fields, the header has 2/);
    throwsCode(() => csvRecordToEntry(['  ', '2024'], columns), 'ERR_SITEMAP_INPUT', /empty "loc"/);
  });
});

describe('parseJsonLine', () => {
  it('with a handler, an unknown field is reported (path and suggestion) and removed, not an error', () => {
    const seen: [string, string | undefined][] = [];
    const entry = parseJsonLine('{"loc":"https://e.com/","lastMod":"2024","images":[{"loc":"https://e.com/i","foo":1}],"x":null}', (path, hint) => seen.push([path, hint]));
    assert.deepEqual(entry, { loc: 'https://e.com/', images: [{ loc: 'https://e.com/i' }] });
    assert.deepEqual(seen, [['lastMod', 'lastmod'], ['images[0].foo', undefined], ['x', undefined]]);
    throwsCode(() => parseJsonLine('{"loc":"https://e.com/","lastMod":"2024"}'), 'ERR_SITEMAP_INPUT', /unknown field "lastMod" \(did you mean "lastmod"\?\)/);
  });

  it('says what a sitemap index child printed by "sitemapkit read" is, rather than "unknown field"', () => {
    throwsCode(() => parseJsonLine('{"sitemap":{"loc":"https://e.com/s1.xml"}}'), 'ERR_SITEMAP_INPUT', /^a sitemap index child .*generate lists pages/);
  });

  it('refuses a date number that as epoch milliseconds is before 1973 (epoch seconds, or 20240101): it was written as a 1970 date', () => {
    throwsCode(() => parseJsonLine('{"loc":"https://e.com/","lastmod":1704067200}'), 'ERR_SITEMAP_INPUT', /^field "lastmod" is 1704067200, as epoch milliseconds a date before 1973: write a W3C Datetime string \("2024-01-01"\) or epoch milliseconds \(seconds × 1000\)$/);
    throwsCode(() => parseJsonLine('{"loc":"https://e.com/","videos":[{"thumbnailLoc":"https://e.com/t","title":"t","description":"d","contentLoc":"https://e.com/v","publicationDate":20240101}]}'), 'ERR_SITEMAP_INPUT', /^field "videos\[0\]\.publicationDate" is 20240101, as epoch milliseconds a date before 1973/);
    assert.equal(parseJsonLine('{"loc":"https://e.com/","lastmod":1704067200000}').lastmod, 1704067200000);
  });

  it('accepts the full model', () => {
    const entry = {
      loc: 'https://e.com/',
      lastmod: 1700000000000,
      changefreq: 'daily',
      priority: '0.5',
      images: [{ loc: 'https://e.com/i.png', caption: 'c', geoLocation: 'g', title: 't', license: 'l' }],
      videos: [
        {
          thumbnailLoc: 'https://e.com/t.jpg',
          title: 't',
          description: 'd',
          contentLoc: 'https://e.com/v.mp4',
          playerLoc: 'https://e.com/p',
          playerLocAllowEmbed: 'yes',
          playerLocAutoplay: 'ap=1',
          duration: 60,
          expirationDate: '2030-01-01',
          rating: 4.5,
          contentSegmentLocs: [{ loc: 'https://e.com/s1', duration: 30 }],
          viewCount: 10,
          publicationDate: '2024-01-01',
          tags: ['a', 'b'],
          category: 'c',
          familyFriendly: 'yes',
          restriction: { relationship: 'allow', countries: ['GB', 'US'] },
          galleryLoc: 'https://e.com/g',
          galleryLocTitle: 'g',
          prices: [{ value: '1.99', currency: 'EUR', type: 'rent', resolution: 'hd' }, { value: 2, currency: 'USD' }],
          requiresSubscription: 'no',
          uploader: 'u',
          uploaderInfo: 'https://e.com/u',
          tvshow: { showTitle: 's', videoType: 'full', episodeTitle: 'e', seasonNumber: 1, episodeNumber: 2, premierDate: '2020-01-01' },
          platform: { relationship: 'deny', platforms: ['tv'] },
          live: 'no',
          ids: [{ type: 'url', value: 'https://e.com/id' }],
        },
      ],
      news: {
        publication: { name: 'N', language: 'en' },
        publicationDate: '2024-01-01T00:00:00Z',
        title: 'T',
        access: 'Subscription',
        genres: ['Blog'],
        keywords: ['k'],
        stockTickers: ['NASDAQ:AMAT'],
      },
      alternates: [{ hreflang: 'en', href: 'https://e.com/' }],
    };
    assert.deepEqual(parseJsonLine(JSON.stringify(entry)), entry);
    assert.deepEqual(parseJsonLine('\uFEFF{"loc":"https://e.com/"}'), { loc: 'https://e.com/' });
  });

  it('treats null as absent for optional fields', () => {
    assert.deepEqual(parseJsonLine('{"loc":"x","lastmod":null,"images":[{"loc":"i","caption":null}]}'), {
      loc: 'x',
      images: [{ loc: 'i' }],
    });
  });

  it('reports shape problems with the field path', () => {
    const cases: [string, RegExp][] = [
      ['{"loc":"x","lastMod":"2024"}', /^unknown field "lastMod" \(did you mean "lastmod"\?\)$/],
      ['{"loc":"x","bogus":1}', /^unknown field "bogus"$/],
      ['{"lastmod":"2024"}', /^field "loc" is required$/],
      ['{"loc":null}', /^field "loc" must be a string, got null$/],
      ['{"loc":1}', /^field "loc" must be a string, got a number$/],
      ['{"loc":"x","priority":true}', /^field "priority" must be a string or a number, got a boolean$/],
      ['{"loc":"x","images":[{"loc":"a"},{"loc":"b"},{"loc":3}]}', /^field "images\[2\]\.loc" must be a string, got a number$/],
      ['{"loc":"x","images":{"loc":"a"}}', /^field "images" must be an array, got an object$/],
      ['{"loc":"x","images":["a"]}', /^field "images\[0\]" must be an object, got a string$/],
      ['{"loc":"x","videos":[{"thumbnailLoc":"t","title":"t"}]}', /^field "videos\[0\]\.description" is required$/],
      ['{"loc":"x","videos":[{"thumbnailLoc":"t","title":"t","description":"d","thumbnail_loc":"t"}]}', /^unknown field "videos\[0\]\.thumbnail_loc" \(did you mean "thumbnailLoc"\?\)$/],
      ['{"loc":"x","videos":[{"thumbnailLoc":"t","title":"t","description":"d","tags":["a",1]}]}', /^field "videos\[0\]\.tags\[1\]" must be a string, got a number$/],
      ['{"loc":"x","news":{"publication":{"name":"n"},"publicationDate":"d","title":"t"}}', /^field "news\.publication\.language" is required$/],
      ['{"loc":"x","alternates":[{"hreflang":"en","href":5}]}', /^field "alternates\[0\]\.href" must be a string, got a number$/],
      ['{"loc":"x","__proto__":{"a":1}}', /^unknown field "__proto__"$/],
      ['{"loc":"x","toString":"y"}', /^unknown field "toString"$/],
      ['["x"]', /^expected a JSON object, got an array$/],
      ['"x"', /^expected a JSON object, got a string$/],
      ['{"loc":', /^invalid JSON: /],
    ];
    for (const [line, message] of cases) throwsCode(() => parseJsonLine(line), 'ERR_SITEMAP_INPUT', message);
  });
});

describe('filterPath', () => {
  it('is the path from the host root without the leading /, the query and the fragment', () => {
    const cases: [string, string][] = [
      ['https://e.com/blog/a?x=1#f', 'blog/a'],
      ['https://e.com', ''],
      ['https://e.com/', ''],
      ['https://e.com?q', ''],
      ['https://user@e.com:8080/a/b/', 'a/b/'],
      ['/docs/x#y', 'docs/x'],
      ['/', ''],
      ['/caf\u00e9', 'caf\u00e9'],
    ];
    for (const [loc, path] of cases) assert.equal(filterPath(loc), path, loc);
  });

  it('takes `://` for a scheme only at the start (RFC 3986 §3.1), not inside a path or query', () => {
    assert.equal(filterPath('/redirect?to=https://x.com/y'), 'redirect');
    assert.equal(filterPath('/go/https://x.com/y'), 'go/https://x.com/y');
    assert.equal(filterPath('HTTP+x.y-z://e.com/a'), 'a');
  });
});

describe('EntryPolicy', () => {
  const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
  const warnings = (): { list: [string, string][]; warn: (code: string, message: string) => void } => {
    const list: [string, string][] = [];
    return { list, warn: (code, message) => list.push([code, message]) };
  };

  it('fills in defaults only where the entry lacks the field (null counts as absent)', () => {
    const policy = new EntryPolicy({ now: NOW, defaults: { lastmod: '2024-01-01', changefreq: 'weekly', priority: '0.4' } });
    const { list, warn } = warnings();
    const bare: UrlEntry = { loc: '/a', priority: null as unknown as string };
    const given: UrlEntry = { loc: '/b', lastmod: '2023-05-05', changefreq: 'daily', priority: 1 };
    assert.equal(policy.prepare(bare, warn), true);
    assert.equal(policy.prepare(given, warn), true);
    assert.deepEqual(bare, { loc: '/a', lastmod: '2024-01-01', changefreq: 'weekly', priority: '0.4' });
    assert.deepEqual(given, { loc: '/b', lastmod: '2023-05-05', changefreq: 'daily', priority: 1 });
    assert.deepEqual(list, []);
  });

  it('lastmod in the future: more than a day after now, by the instant (zones count), strings and numbers', () => {
    const policy = new EntryPolicy({ now: NOW });
    const { list, warn } = warnings();
    for (const lastmod of ['2026-11-27', '2026-11-27T11:59:00Z', '2026-11-27T13:59:00+02:00', '2020-01-01', NOW + 86_400_000]) policy.prepare({ loc: '/a', lastmod }, warn);
    assert.equal(list.length, 0, JSON.stringify(list));
    for (const lastmod of ['2026-11-28', '2026-11-27T12:01:00Z', '2027', NOW + 86_400_001]) policy.prepare({ loc: '/a', lastmod }, warn);
    assert.deepEqual(list.map(([code]) => code), ['lastmod/future', 'lastmod/future', 'lastmod/future', 'lastmod/future']);
    assert.match(list[0]?.[1] ?? '', /^lastmod "2026-11-28" is in the future; it is written as given/);
  });

  it('a lastmod the writer refuses (Infinity, a fraction of a millisecond, past the year 9999) is not said to be written as given', () => {
    const policy = new EntryPolicy({ now: NOW });
    const { list, warn } = warnings();
    for (const lastmod of [Infinity, NOW + 86_400_001.5, 1e20, new Date(1e15)]) policy.prepare({ loc: '/a', lastmod }, warn);
    assert.deepEqual(list, []);
  });

  it('a #fragment is cut from loc with a warning; --strict throws loc/fragment instead', () => {
    const { list, warn } = warnings();
    const entry: UrlEntry = { loc: 'https://e.com/a?q=1#top#2' };
    new EntryPolicy({ now: NOW }).prepare(entry, warn);
    assert.equal(entry.loc, 'https://e.com/a?q=1');
    assert.equal(list[0]?.[0], 'loc/fragment');
    assert.throws(() => new EntryPolicy({ now: NOW, strict: true }).prepare({ loc: '/a#b' }, warn), (e: unknown) => e instanceof InvalidValueError && e.code === 'ERR_SITEMAP_INVALID_VALUE' && e.rule === 'loc/fragment');
  });

  it('keepPath sees the filter path; entries it refuses are left out without a warning', () => {
    const seen: string[] = [];
    const policy = new EntryPolicy({ now: NOW, keepPath: (path) => (seen.push(path), path !== 'drafts/x') });
    const { list, warn } = warnings();
    assert.equal(policy.prepare({ loc: 'https://e.com/drafts/x#y' }, warn), false);
    assert.equal(policy.prepare({ loc: '/ok' }, warn), true);
    assert.deepEqual(seen, ['drafts/x', 'ok']);
    assert.deepEqual(list, []);
  });

  it('keepPath sees the path as written to the sitemap, escapes read: a dot segment does not slip past an exclude', () => {
    const seen: string[] = [];
    const policy = new EntryPolicy({ now: NOW, keepPath: (path) => (seen.push(path), true) });
    const { warn } = warnings();
    for (const loc of ['https://e.com/./drafts/a', '/x/../drafts/b', 'https://e.com/%64rafts/c', '/caf%C3%A9/d', '/café/e', '/100%25/f', '/%zz/g']) policy.prepare({ loc }, warn);
    assert.deepEqual(seen, ['drafts/a', 'drafts/b', 'drafts/c', 'café/d', 'café/e', '100%/f', '%zz/g']);
  });

  it('an hreflang the language-tag validator refuses drops its alternate with the fix; others stay', () => {
    const policy = new EntryPolicy({ now: NOW });
    const { list, warn } = warnings();
    const entry: UrlEntry = { loc: '/p', alternates: [{ hreflang: 'de', href: '/de' }, { hreflang: 'en_US', href: '/us' }, { hreflang: 'x-default', href: '/' }, { hreflang: 'iw', href: '/he' }] };
    policy.prepare(entry, warn);
    assert.deepEqual(entry.alternates, [{ hreflang: 'de', href: '/de' }, { hreflang: 'x-default', href: '/' }]);
    assert.deepEqual(list.map(([code]) => code), ['hreflang/invalid-language', 'hreflang/invalid-language']);
    assert.match(list[0]?.[1] ?? '', /: write en-US; the URL is written without the alternate "\/us"$/);
    assert.match(list[1]?.[1] ?? '', /: write he;/);
  });

  it('a loc holding an XML escape (pasted from a sitemap: &amp; for &) is written as given with loc/xml-escaped', () => {
    const { list, warn } = warnings();
    const policy = new EntryPolicy({ now: NOW });
    for (const loc of ['https://e.com/c?x=1&amp;y=2', '/e?a=1&amp;amp;b=2', "/it&apos;s", '/a?b=1&c=2', '/R&D;x', '/a?amp;b']) {
      const entry: UrlEntry = { loc };
      policy.prepare(entry, warn);
      assert.equal(entry.loc, loc);
    }
    assert.deepEqual(list.map(([code, message]) => `${code} ${/the XML escape (\S+);/.exec(message)?.[1]}`), ['loc/xml-escaped "&amp;"', 'loc/xml-escaped "&amp;"', 'loc/xml-escaped "&apos;"']);
  });

  it('a video:duration of 0 (Google takes 1 to 28,800; the XSD 0 too) is written as given with validate\'s warning video/zero-duration', () => {
    const video = { thumbnailLoc: '/t.jpg', title: 't', description: 'd', contentLoc: '/v.mp4' };
    const { list, warn } = warnings();
    // JSON Lines, the one input with videos, gives numbers only; -0 too.
    for (const duration of [0, -0, 1, 28_800, undefined]) new EntryPolicy({ now: NOW }).prepare({ loc: '/v', videos: [null, { ...video, duration }] } as UrlEntry, warn);
    assert.deepEqual(list.map(([code]) => code), ['video/zero-duration', 'video/zero-duration']);
  });

  it('replace: drops a refused optional field (or puts the default), keeps required ones refused, and does nothing with --strict', () => {
    const policy = new EntryPolicy({ now: NOW, defaults: { priority: '0.5' } });
    const { list, warn } = warnings();
    const entry: UrlEntry = { loc: '/a', lastmod: 'yesterday', priority: '2' };
    assert.equal(policy.replace(new InvalidValueError('lastmod/invalid', 'lastmod', 'yesterday', 'lastmod "yesterday" is bad'), entry, warn), entry);
    assert.equal(policy.replace(new InvalidValueError('priority/out-of-range', 'priority', '2', 'priority "2" is outside'), entry, warn), entry);
    assert.deepEqual(entry, { loc: '/a', priority: '0.5' });
    assert.deepEqual(list, [
      ['lastmod/invalid', 'lastmod "yesterday" is bad; the URL is written without lastmod'],
      ['priority/out-of-range', 'priority "2" is outside; --priority 0.5 is written instead'],
    ]);
    assert.equal(policy.replace(new InvalidValueError('loc/invalid', 'loc', 'x', 'bad loc'), entry, warn), undefined);
    const strict = new EntryPolicy({ now: NOW, strict: true });
    assert.equal(strict.replace(new InvalidValueError('lastmod/invalid', 'lastmod', 'y', 'bad'), { loc: '/a', lastmod: 'y' }, warn), undefined);
  });

  it('replace: an hreflang given twice drops the link the writer refused, not the language\'s first', () => {
    const policy = new EntryPolicy({ now: NOW });
    const { list, warn } = warnings();
    const serializer = new UrlEntrySerializer({ limits: LIMITS_PROFILES.current, baseUrl: 'https://example.com/' });
    let entry: UrlEntry = { loc: '/p', alternates: [{ hreflang: 'en', href: '/a' }, { hreflang: 'de', href: '/de' }, { hreflang: 'en', href: '/b' }, { hreflang: 'EN', href: '/c' }, { hreflang: 'x-default', href: '/' }, { hreflang: 'x-default', href: '/' }] };
    for (let attempt = 0; ; attempt++) {
      try {
        serializer.serialize(entry, ALL_EXTENSIONS);
        break;
      } catch (error) {
        assert.ok(error instanceof InvalidValueError && attempt < 5, String(error));
        entry = policy.replace(error, entry, warn) as UrlEntry;
      }
    }
    assert.deepEqual(entry.alternates, [{ hreflang: 'en', href: '/a' }, { hreflang: 'de', href: '/de' }, { hreflang: 'x-default', href: '/' }]);
    assert.deepEqual(list.map(([code, message]) => `${code} ${/and "([^"]*)"/.exec(message)?.[1]}`), [
      'hreflang/duplicate-language https://example.com/b',
      'hreflang/duplicate-language https://example.com/c',
      'hreflang/duplicate-x-default https://example.com/',
    ]);
  });

  /** What generate writes for `entry`: the serializer refuses, the policy replaces, until it is written or rejected (null). */
  const written = (entry: UrlEntry, policy = new EntryPolicy({ now: NOW })): { xml: string | null; list: [string, string][] } => {
    const { list, warn } = warnings();
    const serializer = new UrlEntrySerializer({ limits: LIMITS_PROFILES.current, baseUrl: 'https://example.com/' });
    for (let attempt = 0, current: UrlEntry | undefined = entry; attempt < 16 && current !== undefined; attempt++) {
      try {
        return { xml: serializer.serialize(current, ALL_EXTENSIONS), list };
      } catch (error) {
        assert.ok(error instanceof InvalidValueError, String(error));
        current = policy.replace(error, current, warn);
      }
    }
    return { xml: null, list };
  };
  const news = (extra: object): object => ({ publication: { name: 'Diario', language: 'en' }, publicationDate: '2024-03-01', title: 'T', ...extra });

  it('replace: an extension value the writer refuses drops the innermost optional part holding it, with a warning naming it; the page stays', () => {
    const badNews = written({ loc: '/a', news: news({ publication: { name: 'Diario', language: 'en-US' } }) } as UrlEntry);
    assert.equal(badNews.xml, '<url><loc>https://example.com/a</loc></url>\n');
    assert.deepEqual(badNews.list, [['news:language/invalid', 'news:language "en-US" is not an ISO 639 language code (or zh-cn, zh-tw); the URL is written without this news']]);

    const images = written({ loc: '/b', images: [{ loc: 'http://exa mple.com/x.jpg' }, { loc: '/ok.jpg', caption: 'c\u0001' }, { loc: '/kept.jpg' }] });
    assert.equal(images.xml, '<url><loc>https://example.com/b</loc><image:image><image:loc>https://example.com/ok.jpg</image:loc></image:image><image:image><image:loc>https://example.com/kept.jpg</image:loc></image:image></url>\n');
    assert.deepEqual(images.list, [
      ['loc/invalid', 'image:loc "http://exa mple.com/x.jpg" is not a valid URL: the host contains a space, a control character or a backslash; the URL is written without this image'],
      ['image:caption/invalid-char', 'image:caption "c\\u0001" contains U+0001, which XML 1.0 cannot carry; the URL is written without this image:caption'],
    ]);

    const video = { thumbnailLoc: '/t.jpg', title: 't', description: 'd', contentLoc: '/v.mp4' };
    const videos = written({ loc: '/c', videos: [{ ...video, duration: -5, tvshow: { showTitle: ' ', videoType: 'full' }, prices: [{ value: 1, currency: 'usd' }, { value: 2, currency: 'EUR', type: 'lease' }] }] } as UrlEntry);
    assert.equal(videos.xml, '<url><loc>https://example.com/c</loc><video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>t</video:title><video:description>d</video:description><video:content_loc>https://example.com/v.mp4</video:content_loc><video:price currency="EUR">2.0</video:price></video:video></url>\n');
    assert.deepEqual(videos.list.map(([code, message]) => `${code} ${/without this (.*)$/.exec(message)?.[1]}`), [
      'video:duration/out-of-range video:duration',
      'video:price/invalid video:price',
      'video:price@type/invalid video:price@type',
      'video:show_title/empty video:tvshow',
    ]);
    // Required parts refused as before: the page itself, a video without content.
    assert.equal(written({ loc: 'ftp://e.com/a', images: [{ loc: '/i.jpg' }] }).xml, null);
    assert.equal(written({ loc: '/d', videos: [{ thumbnailLoc: '/t.jpg', title: 't', description: 'd' }] } as UrlEntry).xml, '<url><loc>https://example.com/d</loc></url>\n');
    // --strict: the entry is rejected.
    assert.equal(written({ loc: '/a', news: news({ publication: { name: 'D', language: 'en-US' } }) } as UrlEntry, new EntryPolicy({ now: NOW, strict: true })).xml, null);
  });

  it('many refused images or alternates of one URL go in one replacement, not one each (the writer tries an entry at most 16 times)', () => {
    const images = Array.from({ length: 20 }, (_, i) => ({ loc: `data:image/png;base64,${i}` }));
    const alternates = Array.from({ length: 20 }, (_, i) => ({ hreflang: `e${i}_X`, href: `/${i}` }));
    const result = written({ loc: '/m', images: [...images, { loc: '/ok.jpg' }], alternates: [{ hreflang: 'en', href: '/m' }, ...alternates] });
    assert.equal(result.xml, '<url><loc>https://example.com/m</loc><image:image><image:loc>https://example.com/ok.jpg</image:loc></image:image><xhtml:link rel="alternate" hreflang="en" href="https://example.com/m"/></url>\n');
    assert.equal(result.list.filter(([code]) => code === 'loc/unsupported-scheme').length, 20);
    assert.equal(result.list.filter(([code]) => code === 'hreflang/invalid').length, 20);
  });

  it('more than 1,000 images: those past the limit go with one warning, the URL and its first 1,000 (that are written) stay (--strict rejects it)', () => {
    const images = (): { loc: string }[] => Array.from({ length: 1003 }, (_, i) => ({ loc: i === 5 ? 'data:x' : `/${i}.jpg` }));
    const result = written({ loc: '/many', images: images() });
    const kept = [...(result.xml ?? '').matchAll(/<image:loc>https:\/\/example\.com\/(\d+)\.jpg</g)].map((m) => Number(m[1]));
    assert.deepEqual(kept, [...Array.from({ length: 5 }, (_, i) => i), ...Array.from({ length: 995 }, (_, i) => i + 6)]);
    assert.deepEqual(result.list.map(([code, message]) => `${code} ${/without (.*)$/.exec(message)?.[1]}`), ['loc/unsupported-scheme this image', 'image/too-many the last 2 image:image']);
    assert.match(result.list[1]?.[1] ?? '', /^1003 image:image in one <url>; Google accepts at most 1000; /);
    assert.equal(written({ loc: '/many', images: images() }, new EntryPolicy({ now: NOW, strict: true })).xml, null);
  });

  it("a video's content_loc (or player_loc) that is the page's loc, relative or not: only that URL goes when the video has the other, else the video", () => {
    const video = { thumbnailLoc: '/t.jpg', title: 't', description: 'd' };
    const content = written({ loc: '/v', videos: [{ ...video, contentLoc: 'https://example.com/v', playerLoc: '/player' }] } as UrlEntry);
    assert.match(content.xml ?? '', /<video:description>d<\/video:description><video:player_loc>https:\/\/example\.com\/player<\/video:player_loc><\/video:video>/);
    assert.deepEqual(content.list, [['video/same-as-loc', 'video:content_loc "https://example.com/v" is the page\'s own loc: give the URL of the video file or of its player; the URL is written without this video:content_loc']]);
    const player = written({ loc: '/w', videos: [{ ...video, contentLoc: '/w.mp4', playerLoc: '/w' }] } as UrlEntry);
    assert.ok(player.xml?.includes('<video:content_loc>https://example.com/w.mp4</video:content_loc></video:video>') && !player.xml.includes('player_loc'), player.xml ?? '');
    assert.deepEqual(player.list.map(([code, message]) => `${code} ${/without (.*)$/.exec(message)?.[1]}`), ['video/same-as-loc this video:player_loc']);
    // Alone, or with the other one the page too: the video goes.
    for (const urls of [{ contentLoc: '/x' }, { contentLoc: '/x', playerLoc: 'https://example.com/x' }]) {
      const gone = written({ loc: '/x', videos: [{ ...video, ...urls }] } as UrlEntry);
      assert.equal(gone.xml, '<url><loc>https://example.com/x</loc></url>\n');
      assert.match(gone.list[0]?.[1] ?? '', /^video:content_loc "https:\/\/example\.com\/x" is the page's own loc: .*; the URL is written without this video$/);
    }
  });

  it('a news keyword (an item of any comma-separated list) holding a comma is refused: read back, the list would split it', () => {
    const one = written({ loc: '/k', news: news({ keywords: ['a, b', 'c'] }) } as UrlEntry);
    assert.match(one.xml ?? '', /<news:keywords>c<\/news:keywords>/);
    assert.deepEqual(one.list, [['news:keywords/invalid', 'news:keywords item "a, b" holds a comma, which separates the items of the list; the URL is written without this news:keywords item']]);
    // The only keyword: the list goes, not an empty element.
    const only = written({ loc: '/k', news: news({ keywords: ['a,b'], genres: ['Blog,OpEd'] }) } as UrlEntry);
    assert.ok(only.xml !== null && !only.xml.includes('keywords') && !only.xml.includes('genres'), only.xml ?? '');
    assert.deepEqual(only.list.map(([code]) => code), ['news:genres/invalid', 'news:keywords/invalid']);
  });

  it('a video attribute given without its element (gallery_loc@title, player_loc@allow_embed, uploader@info) is dropped with a warning, not silently', () => {
    const video = (): object => ({ thumbnailLoc: '/t.jpg', title: 't', description: 'd', contentLoc: '/v.mp4', galleryLocTitle: 'More', playerLocAllowEmbed: 'yes', uploaderInfo: '/u' });
    const result = written({ loc: '/g', videos: [video()] } as UrlEntry);
    assert.ok(result.xml !== null && !result.xml.includes('More'), result.xml ?? '');
    assert.deepEqual(result.list, [
      ['video:player_loc/missing', 'video:player_loc@allow_embed "yes" is given without video:player_loc; the URL is written without this video:player_loc@allow_embed'],
      ['video:gallery_loc/missing', 'video:gallery_loc@title "More" is given without video:gallery_loc; the URL is written without this video:gallery_loc@title'],
      ['video:uploader/missing', 'video:uploader@info "/u" is given without video:uploader; the URL is written without this video:uploader@info'],
    ]);
    // With their element, they are written.
    assert.match(written({ loc: '/g', videos: [{ ...video(), galleryLoc: '/gal', playerLoc: '/p', uploader: 'U' }] } as UrlEntry).xml ?? '', /<video:gallery_loc title="More">/);
  });
});
