import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Diagnostic } from '../../../src/core/diagnostics.js';
import type { SitemapRef, UrlEntry } from '../../../src/core/model.js';
import { TextSitemapReader } from '../../../src/core/read/text.js';
import type { EntryPosition, ReaderBudgets, ReaderSink, SitemapFormat } from '../../../src/core/read/types.js';

type Event = ['format', SitemapFormat] | ['url', UrlEntry, EntryPosition] | ['sitemap', SitemapRef, EntryPosition] | ['diagnostic', Diagnostic];

function collector(): { sink: ReaderSink; events: Event[] } {
  const events: Event[] = [];
  return {
    events,
    sink: {
      format: (f) => events.push(['format', f]),
      url: (e, at) => events.push(['url', e, at]),
      sitemap: (r, at) => events.push(['sitemap', r, at]),
      diagnostic: (d) => events.push(['diagnostic', d]),
    },
  };
}

function read(chunks: string[], budgets?: ReaderBudgets): Event[] {
  const { sink, events } = collector();
  const reader = new TextSitemapReader(sink, budgets);
  for (const c of chunks) reader.write(c);
  reader.end();
  return events;
}

const whole = (text: string, budgets?: ReaderBudgets): Event[] => read([text], budgets);
const urls = (events: Event[]): string[] => events.flatMap((e) => (e[0] === 'url' ? [e[1].loc] : []));
const codes = (events: Event[]): string[] => events.flatMap((e) => (e[0] === 'diagnostic' ? [e[1].code] : []));

function splitAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort((a, b) => a - b);
  const out: string[] = [];
  let at = 0;
  for (const p of [...points, text.length]) {
    out.push(text.slice(at, p));
    at = p;
  }
  return out;
}

describe('TextSitemapReader', () => {
  it('reads one URL per line with positions, LF, CRLF and CR', () => {
    const events = whole('https://a.example/\r\n  http://b.example/x?y=1#z  \rHTTPS://c.example\n');
    assert.deepEqual(events, [
      ['format', 'text'],
      ['url', { loc: 'https://a.example/' }, { line: 1, column: 1 }],
      ['url', { loc: 'http://b.example/x?y=1#z' }, { line: 2, column: 3 }],
      ['url', { loc: 'HTTPS://c.example' }, { line: 3, column: 1 }],
    ]);
  });

  it('reports format text once, even for empty input', () => {
    assert.deepEqual(whole(''), [['format', 'text']]);
    assert.deepEqual(read([]), [['format', 'text']]);
  });

  it('ignores blank lines silently and reads a last line without a terminator', () => {
    const events = whole('\n\n  \t\nhttps://a.example/1\n\r\n\nhttps://a.example/2');
    assert.deepEqual(urls(events), ['https://a.example/1', 'https://a.example/2']);
    assert.deepEqual(codes(events), []);
    const last = events.at(-1) as Event;
    assert.deepEqual(last[2], { line: 7, column: 1 });
  });

  it('trims a BOM and Unicode spaces', () => {
    assert.deepEqual(urls(whole('\ufeffhttps://a.example/\u00a0\n\u3000https://b.example/')), ['https://a.example/', 'https://b.example/']);
  });

  it('reports a line that is not an absolute http(s) URL and does not deliver it', () => {
    const text = [
      'This is my sitemap:',
      'https://ok.example/1',
      '/relative/path',
      '# a comment',
      'ftp://files.example/x',
      'www.example.com/page',
      'https://ok.example/a page',
      'http://',
      'https://ok.example/2',
      'https://ok.example:70000/3',
      'https://256.1.1.1/4',
    ].join('\n');
    const events = whole(text);
    assert.deepEqual(urls(events), ['https://ok.example/1', 'https://ok.example/2']);
    const diags = events.filter((e) => e[0] === 'diagnostic').map((e) => e[1] as Diagnostic);
    assert.deepEqual(
      diags.map((d) => [d.code, d.severity, d.line, d.column]),
      [1, 3, 4, 5, 6, 7, 8, 10, 11].map((line) => ['text/not-a-url', 'error', line, 1]),
    );
    assert.match(diags[7]?.message ?? '', /port 70000 is past 65535/);
    assert.match(diags[8]?.message ?? '', /host "256\.1\.1\.1" ends in a number/);
    assert.match(diags[1]?.message ?? '', /relative/);
    assert.match(diags[2]?.message ?? '', /comment/);
    assert.match(diags[4]?.message ?? '', /scheme is missing/);
    assert.match(diags[5]?.message ?? '', /whitespace/);
    for (const d of diags) assert.ok(d.hint !== undefined && d.hint.length > 0);
  });

  it('stops at maxEntries with budget/entries', () => {
    const text = Array.from({ length: 10 }, (_, i) => `https://a.example/${i}`).join('\n');
    const events = whole(text, { maxEntries: 3 });
    assert.equal(urls(events).length, 3);
    assert.deepEqual(codes(events), ['budget/entries']);
    const d = events.at(-1)?.[1] as Diagnostic;
    assert.equal(d.line, 4);
    assert.equal(d.severity, 'error');
  });

  it('skips a line longer than maxValueLength without buffering it', () => {
    const { sink, events } = collector();
    const reader = new TextSitemapReader(sink, { maxValueLength: 100 });
    reader.write('https://a.example/1\n  https://a.example/');
    for (let i = 0; i < 200; i++) {
      reader.write('x'.repeat(1000));
      assert.ok((reader as unknown as { buf: string }).buf.length <= 100);
    }
    reader.write('\nhttps://a.example/3');
    reader.end();
    assert.deepEqual(urls(events), ['https://a.example/1', 'https://a.example/3']);
    const d = events.find((e) => e[0] === 'diagnostic')?.[1] as Diagnostic;
    assert.equal(d.code, 'budget/value-length');
    assert.deepEqual([d.line, d.column, d.offset], [2, 3, 22]);
  });

  it('measures the trimmed line: surrounding spaces do not count against maxValueLength', () => {
    const url = `https://a.example/${'p'.repeat(30)}`;
    const spaces = ' '.repeat(500);
    assert.deepEqual(urls(whole(`${spaces}${url}${spaces}\n`, { maxValueLength: url.length })), [url]);
    assert.deepEqual(codes(whole(`${url}x\n`, { maxValueLength: url.length })), ['budget/value-length']);
    assert.deepEqual(codes(whole(`${url}${spaces}x\n`, { maxValueLength: url.length + 10 })), ['budget/value-length']);
  });

  it('refuses bad budgets and write() after end()', () => {
    assert.throws(() => new TextSitemapReader(collector().sink, { maxEntries: 0 }), { code: 'ERR_SITEMAP_OPTION' });
    const reader = new TextSitemapReader(collector().sink);
    reader.end();
    assert.throws(() => reader.write('x'), { code: 'ERR_SITEMAP_API' });
  });

  it('gives the same events however the text is split (fast-check)', () => {
    const line = fc.oneof(
      fc.constantFrom('https://a.example/', 'http://b.example/x?q=1', 'not a url', '/rel', '', '  ', '\ufeff', 'https://c.example/é😀'),
      fc.string({ maxLength: 12 }),
    );
    const eol = fc.constantFrom('\n', '\r\n', '\r', ' \n', '\t\r\n');
    const doc = fc.array(fc.tuple(line, eol), { maxLength: 12 }).map((parts) => parts.map(([l, e]) => l + e).join(''));
    const budgets = fc.record({ maxEntries: fc.integer({ min: 1, max: 6 }), maxValueLength: fc.integer({ min: 1, max: 30 }) });
    fc.assert(
      fc.property(doc, fc.array(fc.nat({ max: 200 }), { maxLength: 10 }), budgets, (text, cuts, b) => {
        const expected = whole(text, b);
        assert.deepEqual(read(splitAt(text, cuts), b), expected);
        assert.deepEqual(read([...text], b), expected);
      }),
      { numRuns: 300 },
    );
  });
});
