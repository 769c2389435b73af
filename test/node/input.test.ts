import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { SitemapError } from '../../src/core/errors.js';
import { detectInputFormat, readInput, type InputFormat, type InputRecord, type InputWarning } from '../../src/node/input.js';
import type { ColumnMapping } from '../../src/core/input/csv.js';
import { sniffEncoding } from '../../src/core/read/sniff.js';

let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sitemapkit-input-'));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect(
  name: string,
  content: string | Uint8Array,
  format: InputFormat | 'auto',
  onWarning?: (warning: InputWarning) => void,
  columns?: ColumnMapping,
): Promise<{ records: InputRecord[]; batches: number }> {
  await writeFile(join(dir, name), content);
  const records: InputRecord[] = [];
  let batches = 0;
  for await (const batch of readInput(name, format, { cwd: dir, ...(onWarning ? { onWarning } : {}), ...(columns ? { columns } : {}) })) {
    assert.ok(batch.length > 0, 'no empty batches');
    batches++;
    records.push(...batch);
  }
  return { records, batches };
}

async function rejectsWith(promise: Promise<unknown>, code: string, message: string | RegExp, rule?: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof SitemapError);
    assert.equal(error.code, code);
    assert.equal(error.rule, rule);
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

async function drain(iterable: AsyncIterable<InputRecord[]>): Promise<InputRecord[]> {
  const out: InputRecord[] = [];
  for await (const batch of iterable) out.push(...batch);
  return out;
}

describe('detectInputFormat', () => {
  it('chooses by extension, ignoring .gz; no extension is text; stdin is recognised by its content (auto)', () => {
    const cases: [string, InputFormat | 'auto'][] = [
      ['-', 'auto'],
      ['urls', 'text'],
      ['dir.d/urls', 'text'],
      ['urls.txt', 'text'],
      ['URLS.LST', 'text'],
      ['urls.gz', 'text'],
      ['a/b.csv', 'csv'],
      ['b.CSV.gz', 'csv'],
      ['c.jsonl', 'jsonl'],
      ['c.ndjson.gz', 'jsonl'],
      ['d.tsv', 'tsv'],
      ['d.TAB.gz', 'tsv'],
    ];
    for (const [path, format] of cases) assert.equal(detectInputFormat(path), format, path);
  });

  it('refuses an unknown extension', () => {
    assert.throws(() => detectInputFormat('urls.json'), (e: unknown) => e instanceof SitemapError && e.code === 'ERR_SITEMAP_INPUT_FORMAT' && /--input-format/.test(e.message));
  });

  it('for a sitemap (.xml, .xml.gz) says how to take its URLs, not only --input-format, which would read its lines as URLs', () => {
    for (const path of ['old/sitemap.xml', 'sitemap-1.XML.gz']) {
      assert.throws(() => detectInputFormat(path), (e: unknown) => e instanceof SitemapError && e.message.includes(`sitemapkit read ${path} | sitemapkit generate -`));
    }
  });
});

describe('readInput', () => {
  it('text: BOM, CRLF, comments and blank lines, 1-based lines', async () => {
    const { records } = await collect('urls.txt', '\uFEFFhttps://e.com/a\r\n# comment\r\n\r\n  https://e.com/b  \r\nhttps://e.com/c', 'text');
    assert.deepEqual(records, [
      { entry: { loc: 'https://e.com/a' }, file: 'urls.txt', line: 1 },
      { entry: { loc: 'https://e.com/b' }, file: 'urls.txt', line: 4 },
      { entry: { loc: 'https://e.com/c' }, file: 'urls.txt', line: 5 },
    ]);
  });

  it('text: invalid UTF-8 is an error record, not a corrupted URL', async () => {
    const bytes = Buffer.concat([Buffer.from('https://e.com/ok\nhttps://e.com/'), Buffer.from([0xff, 0xfe]), Buffer.from('\nhttps://e.com/é\n')]);
    const { records } = await collect('bad-utf8.txt', bytes, 'text');
    assert.deepEqual(records.map((r) => [r.line, r.entry?.loc ?? r.error]), [
      [1, 'https://e.com/ok'],
      [2, 'invalid UTF-8 (or U+FFFD) in the line; it was skipped'],
      [3, 'https://e.com/é'],
    ]);
  });

  it('text: large files arrive in several batches, lines counted across chunk boundaries', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `https://example.com/page/${i}?q=${'x'.repeat(i % 17)}`);
    const { records, batches } = await collect('big.txt', lines.join('\r\n') + '\r\n', 'text');
    assert.ok(batches > 1, `batches: ${batches}`);
    assert.equal(records.length, lines.length);
    records.forEach((r, i) => {
      assert.equal(r.line, i + 1);
      assert.equal(r.entry?.loc, lines[i]);
    });
  });

  it('UTF-16 after its BOM (Excel\'s "Unicode Text" is UTF-16LE TSV), little and big endian', async () => {
    const tsv = 'loc\tpriority\r\nhttps://e.com/é\t0.5\r\nhttps://e.com/b\t1\r\n';
    const le = await collect('excel.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(tsv, 'utf16le')]), 'tsv');
    assert.deepEqual(le.records.map((r) => [r.line, r.entry?.loc, r.entry?.priority]), [[2, 'https://e.com/é', '0.5'], [3, 'https://e.com/b', '1']]);
    const be = Buffer.from(`\uFEFFhttps://e.com/a\nhttps://e.com/ü\n`, 'utf16le').swap16();
    const text = await collect('be.txt', be, 'auto');
    assert.deepEqual(text.records.map((r) => [r.line, r.entry?.loc ?? r.error]), [[1, 'https://e.com/a'], [2, 'https://e.com/ü']]);
  });

  it('UTF-16 without a BOM is recognised by the NUL byte beside its first character, in every format; with or without, read three bytes at a time (code units split)', async () => {
    const inputs: Array<[InputFormat | 'auto', string]> = [
      ['text', '# pages\r\nhttps://e.com/a\r\nhttps://e.com/ü\r\n'],
      ['auto', 'loc,lastmod\r\nhttps://e.com/a,2024-01-01\r\nhttps://e.com/ü,\r\n'],
      ['tsv', 'loc\tlastmod\r\nhttps://e.com/a\t2024-01-01\r\nhttps://e.com/ü\t\r\n'],
      ['jsonl', '{"loc":"https://e.com/a","lastmod":"2024-01-01"}\n{"loc":"https://e.com/ü"}\n'],
    ];
    for (const [format, text] of inputs) {
      for (const bom of ['', '\uFEFF']) {
        const le = Buffer.from(bom + text, 'utf16le');
        for (const bytes of [le, Buffer.from(le).swap16()]) {
          const records = await drain(readInput('-', format, { stdin: Readable.from(Array.from({ length: Math.ceil(bytes.length / 3) }, (_, i) => bytes.subarray(i * 3, i * 3 + 3))) }));
          assert.deepEqual(records.map((r) => r.entry?.loc ?? r.error), ['https://e.com/a', 'https://e.com/ü'], `${format} ${JSON.stringify(bom)} ${bytes[0]}`);
        }
      }
    }
  });

  it('decodes as the core encoding sniff says: BOM-less UTF-16 whose first two characters are Latin-1 but not both ASCII, one byte at a time', async () => {
    // Where the sniff once wanted two ASCII characters and this reader looked at the first only.
    const inputs: Array<[InputFormat, string]> = [
      ['text', '\u00e9\nhttps://e.com/a\n'],
      ['csv', '\u00dcbersicht,loc\nx,https://e.com/a\n'],
    ];
    for (const [format, text] of inputs) {
      for (const bytes of [Buffer.from(text, 'utf16le'), Buffer.from(text, 'utf16le').swap16()]) {
        assert.equal(sniffEncoding(bytes).encoding, bytes[0] === 0 ? 'utf-16be' : 'utf-16le');
        const records = await drain(readInput('-', format, { stdin: Readable.from([...bytes].map((b) => Buffer.from([b]))) }));
        assert.deepEqual(records.map((r) => r.entry?.loc ?? r.code).slice(-1), ['https://e.com/a'], `${format} ${bytes[0]}`);
      }
    }
  });

  it('UTF-16 CRLF read a byte at a time (the LF cut in half, one chunk decoding to nothing) ends one line: the line numbers stay right', async () => {
    const bytes = Buffer.from('\uFEFFhttps://e.com/a\r\nhttps://e.com/b\r\nnot a url\r\n', 'utf16le');
    const records = await drain(readInput('-', 'text', { stdin: Readable.from([...bytes].map((b) => Buffer.from([b]))) }));
    assert.deepEqual(records.map((r) => [r.line, r.entry?.loc ?? r.code]), [[1, 'https://e.com/a'], [2, 'https://e.com/b'], [3, 'input/text']]);
  });

  it('text and TSV: a lone CR ends a line (old Mac files), across chunks; JSON Lines keeps a CR inside a line as JSON whitespace', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `https://example.com/page/${i}?q=${'x'.repeat(i % 17)}`);
    for (const eol of ['\r', '\r\n']) {
      const { records } = await collect('mac.txt', lines.join(eol) + eol, 'text');
      assert.equal(records.length, lines.length);
      records.forEach((r, i) => assert.deepEqual([r.line, r.entry?.loc], [i + 1, lines[i]]));
    }
    const tsv = await collect('mac.tsv', 'loc\tpriority\rhttps://e.com/a\t0.5\rhttps://e.com/b\t1\r', 'tsv');
    assert.deepEqual(tsv.records.map((r) => [r.line, r.entry?.loc]), [[2, 'https://e.com/a'], [3, 'https://e.com/b']]);
    const jsonl = await collect('c.jsonl', '{"loc":"https://e.com/a",\r"lastmod":"2024-01-01"}\r\n{"loc":"https://e.com/b"}\n', 'jsonl');
    assert.deepEqual(jsonl.records.map((r) => [r.line, r.entry?.loc, r.entry?.lastmod]), [[1, 'https://e.com/a', '2024-01-01'], [2, 'https://e.com/b', undefined]]);
  });

  it('csv: quoted newline keeps later line numbers right; header in any order; unknown column warned', async () => {
    const warnings: InputWarning[] = [];
    const csv = 'priority,loc,note\r\n0.5,"https://e.com/a,b","two\r\nlines"\r\n,https://e.com/c,x\r\nbad"quote,https://e.com/d,y\r\n1,https://e.com/e\r\n0.1,https://e.com/f,"z"\r\n';
    const { records } = await collect('in.csv', csv, 'csv', (m) => warnings.push(m));
    assert.deepEqual(warnings, [
      { code: 'input/unknown-column', file: 'in.csv', line: 1, message: 'unknown CSV column "note" ignored (known: loc, lastmod, changefreq, priority; name one with --columns lastmod=NAME)' },
    ]);
    assert.deepEqual(records, [
      { entry: { loc: 'https://e.com/a,b', priority: '0.5' }, file: 'in.csv', line: 2 },
      { entry: { loc: 'https://e.com/c' }, file: 'in.csv', line: 4 },
      { error: 'stray quote in an unquoted field (quote the whole field and double the quote)', code: 'input/csv', file: 'in.csv', line: 5 },
      { error: 'record has 2 fields, the header has 3 (an unquoted comma in a value?)', code: 'input/csv', file: 'in.csv', line: 6 },
      { entry: { loc: 'https://e.com/f', priority: '0.1' }, file: 'in.csv', line: 7 },
    ]);
  });

  it('a CSV record longer than 8 Mi characters is input/line-too-long, as a text (TSV, JSON Lines) line is, and the reading goes on', async () => {
    const mib = Buffer.alloc(1024 * 1024, 'x');
    for (const [format, header, quote] of [['text', '', ''], ['csv', 'loc\n', '"']] as const) {
      const chunks = [Buffer.from(header + quote), ...Array.from({ length: 9 }, () => mib), Buffer.from(`${quote}\nhttps://e.com/b\n`)];
      const records = await drain(readInput('-', format, { stdin: Readable.from(chunks) }));
      const line = header === '' ? 1 : 2;
      assert.deepEqual(records.map((r) => [r.line, r.code ?? r.entry?.loc]), [[line, 'input/line-too-long'], [line + 1, 'https://e.com/b']], format);
    }
  });

  it('a text line just over 8 Mi characters is input/line-too-long however the chunks fall: whole in one, or crossing the limit in its last', async () => {
    const long = `https://e.com/${'x'.repeat(8 * 1024 * 1024)}`;
    for (const chunks of [[`${long}\nhttps://e.com/b\n`], [long.slice(0, -100), `${long.slice(-100)}\nhttps://e.com/b\n`]]) {
      for (const format of ['text', 'auto'] as const) {
        const records = await drain(readInput('-', format, { stdin: Readable.from(chunks.map((text) => Buffer.from(text))) }));
        assert.deepEqual(records.map((r) => [r.line, r.code ?? r.entry?.loc]), [[1, 'input/line-too-long'], [2, 'https://e.com/b']], `${format}, ${chunks.length} chunks`);
      }
    }
  });

  it('csv: a header without loc is fatal and names the file', async () => {
    await rejectsWith(collect('nohead.csv', 'page,lastmod\nhttps://e.com/,2024\n', 'csv'), 'ERR_SITEMAP_INPUT_FORMAT', /^nohead\.csv:1: CSV header has no "loc" column/, 'input/csv-header');
    await rejectsWith(collect('empty.csv', '', 'csv'), 'ERR_SITEMAP_INPUT_FORMAT', /^empty\.csv: empty CSV input/, 'input/csv-header');
  });

  it('jsonl: a loc in double quotes is told to lose them, not to be read as CSV', async () => {
    const { records } = await collect('in.jsonl', '{"loc":"\\"https://e.com/a\\""}\n', 'jsonl');
    assert.match(records[0]?.error ?? '', /it is in double quotes; write the URL without them$/);
  });

  it('jsonl: a bad line is an error record with its line number; the others come through', async () => {
    const text = [
      '{"loc":"https://e.com/a","lastmod":"2024-01-01","images":[{"loc":"https://e.com/i.png"}]}',
      '',
      '{"loc":"https://e.com/b","lastMod":"2024-01-01"}',
      '{"loc":"https://e.com/c"',
      '{"loc":"https://e.com/d","images":[{"loc":1}]}',
      '{"loc":"https://e.com/e","priority":0.3}',
    ].join('\n');
    const { records } = await collect('in.jsonl', text, 'jsonl');
    assert.deepEqual(
      records.map((r) => [r.line, r.entry?.loc ?? r.error]),
      [
        [1, 'https://e.com/a'],
        [3, 'https://e.com/b'],
        [4, records[2]?.error],
        [5, 'field "images[0].loc" must be a string, got a number'],
        [6, 'https://e.com/e'],
      ],
    );
    assert.match(records[2]?.error ?? '', /^invalid JSON: /);
    assert.deepEqual(records[0]?.entry, { loc: 'https://e.com/a', lastmod: '2024-01-01', images: [{ loc: 'https://e.com/i.png' }] });
    assert.equal(records[4]?.entry?.priority, 0.3);
  });

  it('gzip is detected by magic bytes, whatever the name', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `https://example.com/${i}`);
    const gz = gzipSync(Buffer.from(`\uFEFF${lines.join('\n')}\n`));
    const { records } = await collect('urls-no-suffix', gz, 'text');
    assert.equal(records.length, 50_000);
    assert.deepEqual(records.at(-1), { entry: { loc: 'https://example.com/49999' }, file: 'urls-no-suffix', line: 50_000 });
    assert.equal(records[0]?.entry?.loc, 'https://example.com/0');

    // A .gz name holding plain text is read as plain text.
    const plain = await collect('plain.csv.gz', 'loc\nhttps://e.com/\n', 'csv');
    assert.deepEqual(plain.records, [{ entry: { loc: 'https://e.com/' }, file: 'plain.csv.gz', line: 2 }]);
  });

  it('truncated gzip, or bytes appended after it, is an ERR_SITEMAP_INPUT failure', async () => {
    const gz = gzipSync(Buffer.from('https://e.com/\n'.repeat(1000)));
    await rejectsWith(collect('trunc.gz', gz.subarray(0, gz.length - 10), 'text'), 'ERR_SITEMAP_INPUT', /^cannot read trunc\.gz: invalid gzip data/);
    // Lines appended to a compressed list are not gzip: the list fails rather than leave them unread.
    const appended = Buffer.concat([gz, Buffer.from('https://e.com/appended\n')]);
    await rejectsWith(collect('appended.gz', appended, 'text'), 'ERR_SITEMAP_INPUT', /^cannot read appended\.gz: bytes after the end of the gzip data that are not gzip/);
  });

  it('stdin via a Readable, in tiny chunks, is <stdin>; gzip on stdin too', async () => {
    const text = 'loc,lastmod\r\n"https://e.com/\r\nx",2024\r\nhttps://e.com/y,\r\n';
    const chunks = [...Buffer.from(text)].map((b) => Buffer.from([b]));
    const records = await drain(readInput('-', 'csv', { stdin: Readable.from(chunks) }));
    assert.deepEqual(records, [
      // The quoted field is read whole, CRLF and all; a URL with a line break in it is then refused, as in text.
      { error: 'loc "https://e.com/\\r\\nx" contains a white space (U+000D) at column 15; a URL has none (percent-encode it, e.g. %20 for a space, if it belongs to the URL)', code: 'input/csv', file: '<stdin>', line: 2 },
      { entry: { loc: 'https://e.com/y' }, file: '<stdin>', line: 4 },
    ]);

    const gz = gzipSync(Buffer.from('https://e.com/é\n'));
    const gzChunks = [...gz].map((b) => Buffer.from([b]));
    assert.deepEqual(await drain(readInput('-', 'text', { stdin: Readable.from(gzChunks) })), [
      { entry: { loc: 'https://e.com/é' }, file: '<stdin>', line: 1 },
    ]);

    assert.deepEqual(await drain(readInput('-', 'text', { stdin: Readable.from(['/a\n', 'https://e.com/b']) })), [
      { entry: { loc: '/a' }, file: '<stdin>', line: 1 },
      { entry: { loc: 'https://e.com/b' }, file: '<stdin>', line: 2 },
    ]);
    assert.deepEqual(await drain(readInput('-', 'text', { stdin: Readable.from([]) })), []);
  });

  it('text: a line that is no URL is an error record with its line, never an entry', async () => {
    const { records } = await collect('mixed.txt', 'https://e.com/a\nwww.e.com/b\n/c\nnot a url\n', 'text');
    assert.deepEqual(records.map((r) => [r.line, r.entry?.loc ?? r.error?.replace(/^.*(looks like a URL without its scheme|contains a space).*$/, '$1'), r.code]), [
      [1, 'https://e.com/a', undefined],
      [2, 'looks like a URL without its scheme', 'input/text'],
      [3, '/c', undefined],
      [4, 'contains a space', 'input/text'],
    ]);
  });

  it('text: a first line that is a CSV/TSV header or a JSON object stops the input (nothing of it is read as URLs)', async () => {
    await rejectsWith(collect('pages.txt', '# pages\nloc,lastmod\n/a,2024-01-01\n', 'text'), 'ERR_SITEMAP_INPUT_FORMAT', 'pages.txt:2: this text input looks like CSV (a header naming a loc column): use --input-format csv');
    await rejectsWith(collect('pages2.txt', '{"loc":"/a"}\n', 'text'), 'ERR_SITEMAP_INPUT_FORMAT', /^pages2\.txt:1: .*use --input-format jsonl$/);
    await rejectsWith(collect('pages3.txt', 'loc\tlastmod\n/a\t2024\n', 'text'), 'ERR_SITEMAP_INPUT_FORMAT', /^pages3\.txt:1: .*use --input-format tsv$/);
  });

  it('tsv: header, escapes, empty cells, wrong field count', async () => {
    const { records } = await collect('pages.tsv', 'loc\tlastmod\tchangefreq\tpriority\nhttps://e.com/a\\\\b\t2024-01-01\t\t0.5\nhttps://e.com/a\\tb\t\t\t\nhttps://e.com/c\t\n', 'tsv');
    assert.deepEqual(records, [
      { entry: { loc: 'https://e.com/a\\b', lastmod: '2024-01-01', priority: '0.5' }, file: 'pages.tsv', line: 2 },
      // \t is read as a tab, which no URL holds: refused, as in a text line.
      { error: 'loc "https://e.com/a\\tb" contains a tab at column 16; a URL has none (percent-encode it, e.g. %20 for a space, if it belongs to the URL)', code: 'input/csv', file: 'pages.tsv', line: 3 },
      { error: 'record has 2 fields, the header has 4 (a tab not written as \\t in a value?)', code: 'input/csv', file: 'pages.tsv', line: 4 },
    ]);
    await rejectsWith(collect('nohead.tsv', 'page\tlastmod\n', 'tsv'), 'ERR_SITEMAP_INPUT_FORMAT', /^nohead\.tsv:1: TSV header has no "loc" column/, 'input/csv-header');
  });

  it('csv and tsv: an empty row (a line of spaces, a spreadsheet\'s ",,," or tabs) is a blank line, skipped as in text, before the header too', async () => {
    const rows: [InputFormat, string][] = [
      ['csv', ' \nloc,lastmod\nhttps://e.com/a,2024-01-01\n   \n,,\n , \nhttps://e.com/b,\n  '],
      ['tsv', ' \nloc\tlastmod\nhttps://e.com/a\t2024-01-01\n   \n\t\t\n \t \nhttps://e.com/b\t\n  '],
    ];
    for (const [format, text] of rows) {
      const { records } = await collect(`rows.${format}`, text, format);
      assert.deepEqual(records.map((r) => [r.line, r.entry?.loc ?? r.error]), [[3, 'https://e.com/a'], [7, 'https://e.com/b']], format);
    }
  });

  it('tsv: a header in double quotes (CSV quoting, which TSV has not) is refused as such, from a .tsv file and from stdin alike', async () => {
    const quoted = '"loc"\t"lastmod"\n"https://e.com/a"\t"2024-01-01"\n';
    const why = /^(?:q\.tsv|<stdin>):1: TSV header field "\\"loc\\"" is in double quotes, which TSV has not .*save the file as CSV/;
    await rejectsWith(collect('q.tsv', quoted, 'tsv'), 'ERR_SITEMAP_INPUT_FORMAT', why, 'input/csv-header');
    await rejectsWith(drain(readInput('-', 'auto', { stdin: Readable.from([quoted]) })), 'ERR_SITEMAP_INPUT_FORMAT', why, 'input/csv-header');
    await rejectsWith(collect('q2.tsv', 'loc\t"Last, Modified"\n', 'tsv', undefined, { lastmod: 'Last, Modified' }), 'ERR_SITEMAP_INPUT_FORMAT', /TSV header field "\\"Last, Modified\\"" is in double quotes/, 'input/csv-header');
  });

  it('tsv: a data row whose loc is in double quotes is refused as the quoted header is (save as CSV, or without quotes), not sent to --input-format csv', async () => {
    const { records } = await collect('qrow.tsv', 'loc\tlastmod\n"https://e.com/a"\t2024-01-01\nhttps://e.com/b\t2024-01-01\n', 'tsv');
    assert.deepEqual(records.map((r) => [r.line, r.code, r.entry?.loc ?? r.error]), [
      [2, 'input/csv', 'TSV field "\\"https://e.com/a\\"" is in double quotes, which TSV has not (a tab, newline or backslash in a value is written \\t, \\n, \\\\): save the file as CSV, or without quotes'],
      [3, undefined, 'https://e.com/b'],
    ]);
  });

  describe('auto (standard input): the first line that is not blank decides, however the input is cut', () => {
    const inputs: [string, string, InputRecord['entry'][]][] = [
      ['jsonl', '\n  \n{"loc":"/a","images":[{"loc":"/i.jpg"}]}\n{"loc":"/b"}\n', [{ loc: '/a', images: [{ loc: '/i.jpg' }] }, { loc: '/b' }]],
      ['csv', 'loc,lastmod,changefreq,priority\n"https://e.com/a,b",2024-01-01,,\n', [{ loc: 'https://e.com/a,b', lastmod: '2024-01-01' }]],
      ['tsv', 'loc\tlastmod\tchangefreq\tpriority\nhttps://e.com/a\t2024-01-01\tdaily\t\n', [{ loc: 'https://e.com/a', lastmod: '2024-01-01', changefreq: 'daily' }]],
      ['text', '# comment\nhttps://e.com/loc\n/b', [{ loc: 'https://e.com/loc' }, { loc: '/b' }]],
      ['text', '/only-line-without-newline', [{ loc: '/only-line-without-newline' }]],
    ];
    for (const [format, text, entries] of inputs) {
      it(`${format}: ${JSON.stringify(text.slice(0, 30))}`, async () => {
        for (const size of [1, 3, text.length]) {
          const chunks: Buffer[] = [];
          for (let i = 0; i < text.length; i += size) chunks.push(Buffer.from(text.slice(i, i + size)));
          const seen: string[] = [];
          const records = await drain(readInput('-', 'auto', { stdin: Readable.from(chunks), onFormat: (f) => seen.push(f) }));
          assert.deepEqual(seen, [format], `chunks of ${size}`);
          assert.deepEqual(records.map((r) => r.entry ?? r.error), entries, `chunks of ${size}`);
        }
      });
    }
    it('empty standard input is text with no records', async () => {
      assert.deepEqual(await drain(readInput('-', 'auto', { stdin: Readable.from([]) })), []);
    });
  });

  it('a missing file or a directory is a one-line ERR_SITEMAP_INPUT error', async () => {
    await rejectsWith(drain(readInput('nope.txt', 'text', { cwd: dir })), 'ERR_SITEMAP_INPUT', 'cannot read nope.txt: no such file');
    await rejectsWith(drain(readInput('.', 'text', { cwd: dir })), 'ERR_SITEMAP_INPUT', 'cannot read .: is a directory');
  });

  it('stopping early closes the file', async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `https://example.com/${i}`);
    await writeFile(join(dir, 'early.txt'), lines.join('\n'));
    for await (const batch of readInput('early.txt', 'text', { cwd: dir })) {
      assert.ok(batch.length > 0);
      break;
    }
    await writeFile(join(dir, 'early.gz'), gzipSync(lines.join('\n')));
    for await (const batch of readInput('early.gz', 'text', { cwd: dir })) {
      assert.ok(batch.length > 0);
      break;
    }
  });

  it('tsv and csv: --columns maps the header names; other columns are one input/unknown-column warning', async () => {
    const warnings: InputWarning[] = [];
    const { records } = await collect('map.tsv', 'Seite\tStand\tNotiz\nhttps://e.com/a\t2024-01-01\tx\n', 'tsv', (w) => warnings.push(w), { loc: 'seite', lastmod: 'Stand' });
    assert.deepEqual(records.map((r) => r.entry), [{ loc: 'https://e.com/a', lastmod: '2024-01-01' }]);
    assert.deepEqual(warnings.map((w) => [w.code, w.file, w.line]), [['input/unknown-column', 'map.tsv', 1]]);
    const many = await collect('sf.csv', 'Address,' + Array.from({ length: 10 }, (_, i) => `c${i}`).join(',') + '\n', 'csv', (w) => warnings.push(w));
    assert.equal(many.records.length, 0);
    assert.match(warnings[1]?.message ?? '', /^unknown CSV columns "c0", .*"c7" and 2 more ignored/);
  });

  it('csv and tsv: a header and no records is one input/no-records warning at the header (the input is not empty)', async () => {
    for (const [file, text, format] of [['h.csv', 'loc,lastmod\r\n\r\n,\r\n', 'csv'], ['h.tsv', '\nloc\tlastmod\n', 'tsv']] as const) {
      const warnings: InputWarning[] = [];
      const { records } = await collect(file, text, format, (w) => warnings.push(w));
      assert.equal(records.length, 0);
      const line = format === 'csv' ? 1 : 2;
      assert.deepEqual(warnings, [{ code: 'input/no-records', file, line, message: `the ${format.toUpperCase()} has a header and no records` }]);
    }
    const warnings: InputWarning[] = [];
    await collect('one.csv', 'loc\nhttps://e.com/a\n', 'csv', (w) => warnings.push(w));
    assert.deepEqual(warnings, []);
  });

  it('jsonl: an unknown field is ignored, with one input/unknown-field warning per file and field (array indexes aside)', async () => {
    const text = [
      '{"loc":"https://e.com/a","lastMod":"2024-01-01","images":[{"loc":"https://e.com/1","alt":"x"}]}',
      '{"loc":"https://e.com/b","lastMod":"2024-01-02","images":[{"loc":"https://e.com/2"},{"loc":"https://e.com/3","alt":"y"}]}',
      '{"loc":"https://e.com/c","note":1}',
    ].join('\n');
    const warnings: InputWarning[] = [];
    const { records } = await collect('u.jsonl', text, 'jsonl', (w) => warnings.push(w));
    assert.deepEqual(records.map((r) => r.entry?.loc), ['https://e.com/a', 'https://e.com/b', 'https://e.com/c']);
    assert.deepEqual(records[1]?.entry, { loc: 'https://e.com/b', images: [{ loc: 'https://e.com/2' }, { loc: 'https://e.com/3' }] });
    assert.deepEqual(
      warnings.map((w) => [w.code, w.line, w.message.replace(/;.*/, '')]),
      [
        ['input/unknown-field', 1, 'unknown field "lastMod" ignored (did you mean "lastmod"?)'],
        ['input/unknown-field', 1, 'unknown field "images[].alt" ignored'],
        ['input/unknown-field', 3, 'unknown field "note" ignored'],
      ],
    );
  });

  it('a header separated by semicolons (a spreadsheet\'s CSV where the decimal mark is the comma) stops the input: its records are never read as URLs ("https://e.com/a;2024-01-01")', async () => {
    const text = 'loc;lastmod\nhttps://e.com/a;2024-01-01\n';
    const why = /the header is separated by semicolons/;
    await rejectsWith(drain(readInput('-', 'auto', { stdin: Readable.from([text]) })), 'ERR_SITEMAP_INPUT_FORMAT', why, 'input/csv-header');
    await rejectsWith(collect('semi.csv', text, 'csv'), 'ERR_SITEMAP_INPUT_FORMAT', why, 'input/csv-header');
    await rejectsWith(collect('semi.txt', text, 'text'), 'ERR_SITEMAP_INPUT_FORMAT', /^semi\.txt:1: this text input looks like CSV/);
  });

  it('a text input whose first line is no URL but has the separators of a CSV or TSV header (page,date) stops: its records would be URLs ("https://e.com/a,2024-01-01")', async () => {
    const why = /^<stdin>:1: this text input starts with a line that is no URL but has the commas, semicolons or tabs of a CSV or TSV header: use --input-format csv or tsv/;
    for (const text of ['page,date\nhttps://e.com/a,2024-01-01\n', '# pages\nPage;Date\nhttps://e.com/a;2024-01-01\n', 'page\tdate\nhttps://e.com/a\t2024\n']) {
      await rejectsWith(drain(readInput('-', 'auto', { stdin: Readable.from([text]) })), 'ERR_SITEMAP_INPUT_FORMAT', text.startsWith('#') ? /^<stdin>:2: / : why);
    }
    // A first line that is no URL for another reason, or a URL with a tab after it, is one refused line, as any other.
    for (const first of ['www.e.com/a', 'https://e.com/a\t2024']) {
      assert.deepEqual((await drain(readInput('-', 'text', { stdin: Readable.from([`${first}\nhttps://e.com/b\n`]) }))).map((r) => r.entry?.loc ?? r.code), ['input/text', 'https://e.com/b']);
    }
  });

  it('a text input that starts as XML (a sitemap piped in) stops: its lines that are URLs (a pretty-printed loc, an index\'s children) were written as pages', async () => {
    const sitemap = '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>\nhttps://e.com/a\n</loc></url>\n</urlset>\n';
    for (const text of [sitemap, `\uFEFF${sitemap}`, '\n<!-- made by hand -->\n<sitemapindex>\n']) {
      await rejectsWith(drain(readInput('-', 'auto', { stdin: Readable.from([text]) })), 'ERR_SITEMAP_INPUT_FORMAT', /^<stdin>:\d: this text input looks like XML .*sitemapkit read FILE \| sitemapkit generate -/);
    }
    // A URL in angle brackets (as plain text delimits one, RFC 3986 appendix C) is one refused line, as before.
    assert.deepEqual((await drain(readInput('-', 'text', { stdin: Readable.from(['<https://e.com/a>\nhttps://e.com/b\n']) }))).map((r) => r.entry?.loc ?? r.code), ['input/text', 'https://e.com/b']);
  });

  it('stdin: a header naming loc as Address (or as --columns names it) is recognised as CSV', async () => {
    const sf = await drain(readInput('-', 'auto', { stdin: Readable.from(['"Address","Last Modified"\n"https://e.com/a","2024-01-01"\n']) }));
    assert.deepEqual(sf.map((r) => r.entry), [{ loc: 'https://e.com/a', lastmod: '2024-01-01' }]);
    const mapped = await drain(readInput('-', 'auto', { stdin: Readable.from(['Seite\tStand\nhttps://e.com/b\t2024\n']), columns: { loc: 'Seite' } }));
    assert.deepEqual(mapped.map((r) => r.entry?.loc), ['https://e.com/b']);
  });
});
