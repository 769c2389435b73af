import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import fc from 'fast-check';
import { formatSitemapDate, newestLastmod, parseHttpDate, parseW3cDatetime, toSitemapDate, w3cDatetimeProblem } from '../../src/core/datetime.js';
import { InvalidValueError } from '../../src/core/errors.js';
import type { DateInput } from '../../src/core/model.js';

// Lexical spaces of xsd:date and xsd:dateTime (XML Schema 1.1 Part 2, §3.3.9 and §3.3.7), limited to
// the four-digit years 0001–9999 that sitemap.xsd (libxml2, XML Schema 1.0) accepts. 24:00:00 is
// lexically allowed by XSD, but never emitted.
const TZ = '(?:Z|[+-](?:(?:0\\d|1[0-3]):[0-5]\\d|14:00))';
const DATE = '(?:(?!0000)\\d{4})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])';
const XSD_DATE_OR_DATETIME = new RegExp(`^(?:${DATE}${TZ}?|${DATE}T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?${TZ}?)$`);

const MIN = -62_135_596_800_000; // 0001-01-01T00:00:00Z
const END = 253_402_300_800_000; // 10000-01-01T00:00:00Z

describe('toSitemapDate: strings', () => {
  const cases: [input: string, text: string, epochMs: number][] = [
    // Forms sitemap.xsd accepts are kept as written.
    ['2005-01-01', '2005-01-01', Date.UTC(2005, 0, 1)],
    ['2004-12-23T18:00:15+00:00', '2004-12-23T18:00:15+00:00', Date.UTC(2004, 11, 23, 18, 0, 15)],
    ['2005-05-10T17:33:30+08:00', '2005-05-10T17:33:30+08:00', Date.UTC(2005, 4, 10, 9, 33, 30)],
    ['2024-01-01T10:00:00+02:00', '2024-01-01T10:00:00+02:00', Date.UTC(2024, 0, 1, 8)],
    ['2024-01-01T10:00:00-05:00', '2024-01-01T10:00:00-05:00', Date.UTC(2024, 0, 1, 15)],
    ['2024-01-01T10:00:00-00:00', '2024-01-01T10:00:00-00:00', Date.UTC(2024, 0, 1, 10)],
    ['2024-01-01T10:00:00Z', '2024-01-01T10:00:00Z', Date.UTC(2024, 0, 1, 10)],
    ['2024-01-01T00:30:00+05:30', '2024-01-01T00:30:00+05:30', Date.UTC(2023, 11, 31, 19)],
    ['2024-01-01T10:00:00+14:00', '2024-01-01T10:00:00+14:00', Date.UTC(2023, 11, 31, 20)],
    ['2024-01-01T10:00:00-14:00', '2024-01-01T10:00:00-14:00', Date.UTC(2025 - 1, 0, 2, 0)],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z', END - 1],
    ['0001-01-01', '0001-01-01', MIN],
    // Fraction digits are kept as written; the instant keeps milliseconds (truncated).
    ['2024-01-01T10:00:00.5Z', '2024-01-01T10:00:00.5Z', Date.UTC(2024, 0, 1, 10, 0, 0, 500)],
    ['2024-01-01T10:00:00.50Z', '2024-01-01T10:00:00.50Z', Date.UTC(2024, 0, 1, 10, 0, 0, 500)],
    ['2024-01-01T10:00:00.123Z', '2024-01-01T10:00:00.123Z', Date.UTC(2024, 0, 1, 10, 0, 0, 123)],
    ['2024-01-01T10:00:00.1239999+01:00', '2024-01-01T10:00:00.1239999+01:00', Date.UTC(2024, 0, 1, 9, 0, 0, 123)],
    ['2024-01-01T10:00:00.000Z', '2024-01-01T10:00:00.000Z', Date.UTC(2024, 0, 1, 10)],
    // W3C forms sitemap.xsd refuses are completed: the start of the period, seconds :00.
    ['2024', '2024-01-01', Date.UTC(2024, 0, 1)],
    ['2024-05', '2024-05-01', Date.UTC(2024, 4, 1)],
    ['2024-01-01T10:00+02:00', '2024-01-01T10:00:00+02:00', Date.UTC(2024, 0, 1, 8)],
    ['2024-01-01T10:00Z', '2024-01-01T10:00:00Z', Date.UTC(2024, 0, 1, 10)],
    // ISO 8601 variants: lowercase t/z, space, +hhmm, +hh, surrounding whitespace.
    ['2024-01-01t10:00:00z', '2024-01-01T10:00:00Z', Date.UTC(2024, 0, 1, 10)],
    ['2024-01-01 10:00:00Z', '2024-01-01T10:00:00Z', Date.UTC(2024, 0, 1, 10)],
    ['2024-01-01T10:00:00+0200', '2024-01-01T10:00:00+02:00', Date.UTC(2024, 0, 1, 8)],
    ['2024-01-01T10:00:00+02', '2024-01-01T10:00:00+02:00', Date.UTC(2024, 0, 1, 8)],
    ['2024-01-01T10:00:00-0530', '2024-01-01T10:00:00-05:30', Date.UTC(2024, 0, 1, 15, 30)],
    ['2024-01-01T10:00:00-05', '2024-01-01T10:00:00-05:00', Date.UTC(2024, 0, 1, 15)],
    ['2024-01-01T10:00:00+1400', '2024-01-01T10:00:00+14:00', Date.UTC(2023, 11, 31, 20)],
    ['2024-01-01 10:00+0100', '2024-01-01T10:00:00+01:00', Date.UTC(2024, 0, 1, 9)],
    ['2024-01-01T10:00:00.25+02', '2024-01-01T10:00:00.25+02:00', Date.UTC(2024, 0, 1, 8, 0, 0, 250)],
    ['  2024-01-01  ', '2024-01-01', Date.UTC(2024, 0, 1)],
    ['\n\t2024-01-01T10:00:00Z\r\n', '2024-01-01T10:00:00Z', Date.UTC(2024, 0, 1, 10)],
    ['\u00a02024\u00a0', '2024-01-01', Date.UTC(2024, 0, 1)],
    // Leap years.
    ['2024-02-29', '2024-02-29', Date.UTC(2024, 1, 29)],
    ['2000-02-29', '2000-02-29', Date.UTC(2000, 1, 29)],
    ['2023-02-28', '2023-02-28', Date.UTC(2023, 1, 28)],
    ['2023-12-31', '2023-12-31', Date.UTC(2023, 11, 31)],
    ['2023-04-30', '2023-04-30', Date.UTC(2023, 3, 30)],
    ['2024-01-01T23:59:59Z', '2024-01-01T23:59:59Z', Date.UTC(2024, 0, 1, 23, 59, 59)],
  ];
  for (const [input, text, epochMs] of cases) {
    it(`${JSON.stringify(input)} → ${text}`, () => {
      assert.deepEqual(toSitemapDate(input), { text, epochMs });
      assert.equal(formatSitemapDate(input), text);
      assert.match(text, XSD_DATE_OR_DATETIME);
    });
  }

  it('keeps the seed examples unchanged', () => {
    assert.equal(formatSitemapDate('2005-01-01'), '2005-01-01');
    assert.equal(formatSitemapDate('2004-12-23T18:00:15+00:00'), '2004-12-23T18:00:15+00:00');
  });

  it('returns the very string when it is already in the emitted form', () => {
    const s = '2024-01-01T10:00:00+02:00';
    assert.equal(toSitemapDate(s).text, s);
  });
});

describe('toSitemapDate: Date and epoch milliseconds', () => {
  const cases: [input: Date | number, text: string][] = [
    [new Date(Date.UTC(2024, 0, 1, 10)), '2024-01-01T10:00:00Z'],
    [new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 7)), '2024-02-29T23:59:59.007Z'],
    [new Date(Date.UTC(2024, 5, 1, 0, 0, 0, 120)), '2024-06-01T00:00:00.120Z'],
    [new Date(Date.UTC(2024, 5, 1, 0, 0, 0, 999)), '2024-06-01T00:00:00.999Z'],
    [0, '1970-01-01T00:00:00Z'],
    [-0, '1970-01-01T00:00:00Z'],
    [1, '1970-01-01T00:00:00.001Z'],
    [-1, '1969-12-31T23:59:59.999Z'],
    [1_704_103_200_000, '2024-01-01T10:00:00Z'],
    [Date.UTC(1900, 1, 28, 12), '1900-02-28T12:00:00Z'],
    [Date.UTC(2000, 1, 29), '2000-02-29T00:00:00Z'],
    [MIN, '0001-01-01T00:00:00Z'],
    [END - 1, '9999-12-31T23:59:59.999Z'],
  ];
  for (const [input, text] of cases) {
    it(`${typeof input === 'number' ? input : input.toISOString()} → ${text}`, () => {
      const epochMs = typeof input === 'number' ? input : input.getTime();
      const out = toSitemapDate(input);
      assert.equal(out.text, text);
      assert.ok(Object.is(out.epochMs, epochMs) || out.epochMs === epochMs);
      assert.equal(formatSitemapDate(input), text);
    });
  }

  it('accepts a Date from another realm or a subclass', () => {
    class MyDate extends Date {}
    assert.equal(formatSitemapDate(new MyDate(Date.UTC(2024, 0, 1))), '2024-01-01T00:00:00Z');
  });

  it('agrees with toISOString for every millisecond pattern and across the range', () => {
    for (const t of [MIN, MIN + 1, -86_400_001, -86_400_000, 951_782_400_000, 4_107_542_399_999, END - 86_400_000, END - 1]) {
      assert.equal(formatSitemapDate(t), new Date(t).toISOString().replace('.000Z', 'Z'));
    }
    for (let ms = 0; ms < 1000; ms++) {
      const t = Date.UTC(2024, 6, 15, 12, 34, 56, ms);
      assert.equal(formatSitemapDate(t), new Date(t).toISOString().replace('.000Z', 'Z'));
    }
  });
});

describe('toSitemapDate: rejections', () => {
  const strings: [input: string, reason: RegExp][] = [
    ['', /empty/],
    ['   ', /empty/],
    ['yesterday', /grammar/],
    ['2024-1-01', /grammar/],
    ['24-01-01', /grammar/],
    ['10000-01-01', /grammar/],
    ['-2024-01-01', /grammar/],
    ['+2024-01-01', /grammar/],
    ['2024/01/01', /grammar/],
    ['20240101', /grammar/],
    ['2024-01-01T', /grammar/],
    ['2024-01-01T10', /grammar/],
    ['2024-01-01T10Z', /grammar/],
    ['2024-01-01T10:00:00.Z', /grammar/],
    ['2024-01-01T10:00:00+2', /grammar/],
    ['2024-01-01T10:00:00+02:0', /grammar/],
    ['2024-01-01T10:00:00 Z', /grammar/],
    ['2024-01-01Z', /grammar/],
    ['2024-01-01+02:00', /grammar/],
    ['2024-01-01x10:00:00Z', /grammar/],
    ['2024-01-01T10:00:00Z extra', /grammar/],
    ['0000-01-01', /year 0000/],
    ['0000', /year 0000/],
    ['2024-00-01', /month 00 is out of range/],
    ['2024-13-01', /month 13 is out of range/],
    ['2024-13', /month 13 is out of range/],
    ['2024-01-00', /day 00 is out of range/],
    ['2024-01-32', /day 32 is out of range/],
    ['2024-04-31', /day 31 is out of range \(01–30/],
    ['2023-02-29', /2023 is not a leap year/],
    ['1900-02-29', /1900 is not a leap year/],
    ['2024-02-30', /day 30 is out of range \(01–29/],
    ['2024-01-01T24:00:00Z', /hour 24 is out of range/],
    ['2024-01-01T25:00Z', /hour 25 is out of range/],
    ['2024-01-01T10:60:00Z', /minute 60 is out of range/],
    ['2024-01-01T10:00:60Z', /second 60 is out of range/],
    ['2024-01-01T10:00:00+14:01', /offset \+14:01 is out of range/],
    ['2024-01-01T10:00:00-15:00', /offset -15:00 is out of range/],
    ['2024-01-01T10:00:00+1500', /offset \+1500 is out of range/],
    ['2024-01-01T10:00:00+15', /offset \+15 is out of range/],
    ['2024-01-01T10:00:00+05:60', /minutes 60 are out of range/],
    ['2024-01-01T10:00:00', /needs a time zone; add "Z"/],
    ['2024-01-01T10:00', /needs a time zone; add "Z"/],
    ['2024-01-01 10:00:00.123', /needs a time zone; add "Z"/],
  ];
  for (const [input, reason] of strings) {
    it(`${JSON.stringify(input)}: ${reason.source}`, () => {
      assert.throws(() => toSitemapDate(input), (e: unknown) => {
        assert.ok(e instanceof InvalidValueError);
        assert.equal(e.code, 'ERR_SITEMAP_INVALID_VALUE');
        assert.equal(e.rule, 'lastmod/invalid');
        assert.equal(e.field, 'lastmod');
        assert.equal(e.value, input);
        assert.ok(e.message.startsWith(`lastmod ${JSON.stringify(input)} is not a W3C Datetime: `), e.message);
        assert.match(e.message, reason);
        assert.match(e.message, /expected YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm$/);
        return true;
      });
      assert.throws(() => formatSitemapDate(input), InvalidValueError);
      assert.equal(parseW3cDatetime(input), undefined);
      assert.match(w3cDatetimeProblem(input) ?? '', reason);
    });
  }

  it('gives the example message from the brief', () => {
    assert.throws(() => toSitemapDate('2024-13-01'), {
      message: 'lastmod "2024-13-01" is not a W3C Datetime: month 13 is out of range (01–12); expected YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm',
    });
  });

  const others: [input: unknown, shown: string, reason: RegExp][] = [
    [new Date(Number.NaN), '"Invalid Date"', /is not a valid Date: its time value is NaN/],
    [new Date(8.64e15), '+275760-09-13T00:00:00.000Z', /out of range: the year must be 0001–9999/],
    [new Date(MIN - 1), '0000-12-31T23:59:59.999Z', /out of range/],
    [new Date(END), '+010000-01-01T00:00:00.000Z', /out of range/],
    [Number.NaN, 'NaN', /not a finite number/],
    [Infinity, 'Infinity', /not a finite number/],
    [-Infinity, '-Infinity', /not a finite number/],
    [1.5, '1.5', /must be an integer/],
    [MIN - 1, String(MIN - 1), /out of range/],
    [END, String(END), /out of range/],
    [-1e15, '-1000000000000000', /out of range/],
    [true, 'true', /is not a date: got boolean/],
    [null, 'null', /got null/],
    [undefined, 'undefined', /got undefined/],
    [{ a: 1 }, '{"a":1}', /got object/],
    [[2024, 1, 1], '[2024,1,1]', /got object/],
    [10n, '10n', /got bigint/],
  ];
  for (const [input, shown, reason] of others) {
    it(`${shown}: ${reason.source}`, () => {
      assert.throws(() => toSitemapDate(input as DateInput), (e: unknown) => {
        assert.ok(e instanceof InvalidValueError);
        assert.equal(e.code, 'ERR_SITEMAP_INVALID_VALUE');
        assert.equal(e.rule, 'lastmod/invalid');
        assert.equal(e.value, input);
        assert.ok(e.message.startsWith(`lastmod ${shown} `), e.message);
        assert.match(e.message, reason);
        assert.match(e.message, /expected a Date, epoch milliseconds or a W3C Datetime string/);
        return true;
      });
    });
  }

  it('uses the field in the rule and the message', () => {
    assert.throws(() => toSitemapDate('2024-13-01', 'news:publication_date'), (e: unknown) => {
      assert.ok(e instanceof InvalidValueError);
      assert.equal(e.code, 'ERR_SITEMAP_INVALID_VALUE');
      assert.equal(e.rule, 'news:publication_date/invalid');
      assert.equal(e.field, 'news:publication_date');
      assert.ok(e.message.startsWith('news:publication_date "2024-13-01" is not a W3C Datetime'));
      return true;
    });
    assert.throws(() => toSitemapDate(Number.NaN, 'video:expiration_date'), { code: 'ERR_SITEMAP_INVALID_VALUE', rule: 'video:expiration_date/invalid' });
    assert.equal(toSitemapDate('2024', 'news:publication_date').text, '2024-01-01');
  });

  it('shortens a huge value in the message', () => {
    const huge = 'x'.repeat(10_000);
    assert.throws(() => toSitemapDate(huge), (e: unknown) => e instanceof Error && e.message.length < 400);
  });
});

describe('parseW3cDatetime', () => {
  it('reads a date-time', () => {
    assert.deepEqual(parseW3cDatetime('2024-01-01T10:00:00.123456+05:30'), {
      precision: 'second', text: '2024-01-01T10:00:00.123456+05:30', epochMs: Date.UTC(2024, 0, 1, 4, 30, 0, 123), w3c: true,
    });
  });

  it('trims XML whitespace only, where toSitemapDate also trims a no-break space', () => {
    assert.equal(parseW3cDatetime(' 2024-01-01\n')?.text, '2024-01-01');
    assert.equal(parseW3cDatetime('2024-01-01\u00a0'), undefined);
  });

  it('reads the short forms', () => {
    assert.deepEqual(parseW3cDatetime('2024'), { precision: 'year', text: '2024-01-01', epochMs: Date.UTC(2024, 0, 1), w3c: true });
    assert.equal(parseW3cDatetime('2024-07')?.precision, 'month');
    assert.equal(parseW3cDatetime('2024-07-02')?.precision, 'day');
    assert.equal(parseW3cDatetime('2024-07-02')?.text, '2024-07-02');
    const minute = parseW3cDatetime('2024-07-02T10:20-03:00');
    assert.equal(minute?.precision, 'minute');
    assert.equal(minute?.epochMs, Date.UTC(2024, 6, 2, 13, 20));
    assert.equal(minute?.w3c, true);
    assert.equal(minute?.text, '2024-07-02T10:20:00-03:00');
  });

  it('flags lenient ISO 8601 variants as not W3C', () => {
    for (const s of ['2024-01-01t10:00:00Z', '2024-01-01T10:00:00z', '2024-01-01 10:00:00Z', '2024-01-01T10:00:00+0200', '2024-01-01T10:00:00+02']) {
      const p = parseW3cDatetime(s);
      assert.equal(p?.w3c, false, s);
      assert.notEqual(p?.text, s, s);
    }
    const padded = parseW3cDatetime(' 2024-01-01T10:00:00Z ');
    assert.equal(padded?.w3c, true);
    assert.equal(padded?.text, '2024-01-01T10:00:00Z');
  });

  it('returns undefined, never throws, for non-strings', () => {
    assert.equal(parseW3cDatetime(42 as unknown as string), undefined);
    assert.equal(parseW3cDatetime(undefined as unknown as string), undefined);
  });

  it('never throws and agrees with toSitemapDate on any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\d{4}(-\d\d(-\d\d([Tt ]\d\d:\d\d(:\d\d(\.\d{1,4})?)?([Zz]|[+-]\d\d(:?\d\d)?)?)?)?)?$/)), (s) => {
        const p = parseW3cDatetime(s);
        if (p === undefined) {
          assert.throws(() => toSitemapDate(s), InvalidValueError);
          assert.equal(typeof w3cDatetimeProblem(s), 'string');
        } else {
          assert.deepEqual(toSitemapDate(s), { text: p.text, epochMs: p.epochMs });
          assert.equal(w3cDatetimeProblem(s), undefined);
          assert.match(p.text, XSD_DATE_OR_DATETIME);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('properties', () => {
  const validDate = fc.date({ min: new Date(MIN), max: new Date(END - 1), noInvalidDate: true });

  it('a Date keeps its instant, and its text parses back to it', () => {
    fc.assert(
      fc.property(validDate, (d) => {
        const out = toSitemapDate(d);
        assert.equal(out.epochMs, d.getTime());
        assert.equal(out.text, d.toISOString().replace('.000Z', 'Z'));
        const back = parseW3cDatetime(out.text);
        assert.equal(back?.epochMs, d.getTime());
        assert.equal(back?.text, out.text);
        assert.equal(back?.w3c, true);
        assert.deepEqual(toSitemapDate(d.getTime()), out);
      }),
      { numRuns: 5000 },
    );
  });

  it('a string written in any zone denotes the instant Date.parse gives, and is idempotent', () => {
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    const arb = fc.record({
      d: validDate,
      offset: fc.integer({ min: -840, max: 840 }),
      frac: fc.constantFrom('', '.5', '.25', '.123'),
      sep: fc.constantFrom('T', 't', ' '),
      tzForm: fc.constantFrom('colon', 'compact', 'Z'),
    });
    fc.assert(
      fc.property(arb, ({ d, offset, frac, sep, tzForm }) => {
        const o = tzForm === 'Z' ? 0 : offset;
        const local = new Date(d.getTime() - (d.getTime() % 1000) + o * 60_000);
        const y = local.getUTCFullYear();
        fc.pre(y >= 1 && y <= 9999);
        const sign = o < 0 ? '-' : '+';
        const abs = Math.abs(o);
        const tz = tzForm === 'Z' ? 'Z' : `${sign}${pad(Math.floor(abs / 60))}${tzForm === 'colon' ? ':' : ''}${pad(abs % 60)}`;
        const text = `${pad(y, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}${sep}${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${frac}${tz}`;
        const out = toSitemapDate(text);
        const fracMs = frac === '' ? 0 : Number(`0${frac}`) * 1000;
        assert.equal(out.epochMs, d.getTime() - (d.getTime() % 1000) + Math.round(fracMs));
        assert.match(out.text, XSD_DATE_OR_DATETIME);
        assert.deepEqual(toSitemapDate(out.text), out);
        if (y >= 1000) assert.equal(out.epochMs, Date.parse(out.text));
      }),
      { numRuns: 5000 },
    );
  });

  it('every date of 0001–9999 written YYYY-MM-DD is accepted iff the calendar has it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, m, day) => {
        const text = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
        const probe = new Date(0);
        probe.setUTCFullYear(y, m - 1, day);
        const exists = probe.getUTCDate() === day;
        const p = parseW3cDatetime(text);
        assert.equal(p !== undefined, exists, text);
        if (p) assert.equal(p.epochMs, probe.getTime());
      }),
      { numRuns: 5000 },
    );
  });
});

// The real schema, through libxml2: every form emitted must validate as a sitemap lastmod.
const XSD_PATH = new URL('../../node_modules/sitemap/schema/sitemap.xsd', import.meta.url);
describe('sitemap.xsd (xmllint-wasm)', { skip: !existsSync(XSD_PATH) && 'sitemap.xsd not available' }, () => {
  it('accepts every emitted text', async () => {
    const { validateXML } = await import('xmllint-wasm');
    const inputs: DateInput[] = [
      '2024', '2024-05', '2024-05-10', '2024-05-10T10:00+02:00', '2024-05-10T10:00:00.123456z', '2024-05-10 10:00:00+0530',
      '2024-05-10T10:00:00-08', '0001-01-01', '9999-12-31T23:59:59.999+14:00', '2004-12-23T18:00:15+00:00',
      new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 1)), 0, MIN, END - 1,
      ...fc.sample(fc.date({ min: new Date(MIN), max: new Date(END - 1), noInvalidDate: true }), { numRuns: 200, seed: 7 }),
    ];
    const urls = inputs.map((v) => `<url><loc>https://www.example.com/</loc><lastmod>${formatSitemapDate(v)}</lastmod></url>`).join('');
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`;
    const result = await validateXML({
      xml: [{ fileName: 'sitemap.xml', contents: xml }],
      schema: [{ fileName: 'sitemap.xsd', contents: readFileSync(XSD_PATH, 'utf8') }],
    });
    assert.deepEqual(result.errors.map((e) => e.rawMessage), []);
    assert.equal(result.valid, true);
  });
});

describe('parseHttpDate (RFC 9110 §5.6.7)', () => {
  const now = Date.UTC(2026, 10, 27, 10, 0, 0);
  const instant = Date.UTC(1994, 10, 6, 8, 49, 37);

  it('reads the three forms as one instant', () => {
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', now), instant);
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', now), instant);
    assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994', now), instant);
  });

  it('places a two-digit year no more than 50 years ahead, else in the past century', () => {
    assert.equal(parseHttpDate('Tuesday, 27-Nov-76 10:00:00 GMT', now), Date.UTC(2076, 10, 27, 10, 0, 0));
    assert.equal(parseHttpDate('Tuesday, 28-Nov-76 10:00:00 GMT', now), Date.UTC(1976, 10, 28, 10, 0, 0));
  });

  it('refuses days and hours that do not exist, other formats, and the obsolete forms when asked', () => {
    for (const text of ['Thu, 31 Feb 1994 08:49:37 GMT', 'Sun, 06 Nov 1994 24:00:00 GMT', '1994-11-06T08:49:37Z', 'Sun, 06 Nov 1994 08:49:37 CET', '']) {
      assert.equal(parseHttpDate(text, now), undefined, text);
    }
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', now, false), undefined);
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', now, false), instant);
  });
});

describe('newestLastmod', () => {
  it('is the latest instant (the first of equal ones), whatever the order, the time zones and the spaces around (fuzzed)', () => {
    // Instants a few days apart in zones from -14:00 to +14:00, as a date or a date-time, some with a leading space.
    const lastmod = fc.tuple(fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2024, 0, 6) }), fc.integer({ min: -56, max: 56 }), fc.boolean(), fc.boolean()).map(([ms, quarters, dateOnly, spaced]) => {
      const local = new Date(ms + quarters * 15 * 60_000).toISOString();
      const offset = `${quarters < 0 ? '-' : '+'}${String(Math.floor(Math.abs(quarters) / 4)).padStart(2, '0')}:${String((Math.abs(quarters) % 4) * 15).padStart(2, '0')}`;
      return `${spaced ? ' ' : ''}${dateOnly ? local.slice(0, 10) : `${local.slice(0, 19)}${offset}`}`;
    });
    fc.assert(fc.property(fc.array(lastmod, { maxLength: 12 }), (values) => {
      let expected: string | undefined;
      for (const value of values) if (expected === undefined || (parseW3cDatetime(value)?.epochMs as number) > (parseW3cDatetime(expected)?.epochMs as number)) expected = value;
      assert.equal(newestLastmod(values.map((value) => ({ lastmod: value }))), expected);
    }), { numRuns: 2000 });
  });
});
