import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseW3cDatetime } from '../../../src/core/datetime.js';
import { hasScheme, isAbsoluteHttpUrl, resolveBase, resolveReference, rfc822ToW3c } from '../../../src/core/read/feeds.js';

describe('rfc822ToW3c', () => {
  it('converts RSS 2.0 dates, zone names and numeric zones', () => {
    const cases: [string, string][] = [
      ['Sat, 07 Sep 2002 09:42:31 GMT', '2002-09-07T09:42:31Z'],
      ['Sat, 07 Sep 2002 09:42:31 UT', '2002-09-07T09:42:31Z'],
      ['Sat, 07 Sep 2002 09:42:31 Z', '2002-09-07T09:42:31Z'],
      ['Wed, 28 Nov 2018 13:55:01 MST', '2018-11-28T13:55:01-07:00'],
      ['Wed, 28 Nov 2018 13:55:01 MDT', '2018-11-28T13:55:01-06:00'],
      ['Tue, 10 Jun 2003 04:00:00 EST', '2003-06-10T04:00:00-05:00'],
      ['Tue, 10 Jun 2003 04:00:00 EDT', '2003-06-10T04:00:00-04:00'],
      ['Tue, 10 Jun 2003 04:00:00 CST', '2003-06-10T04:00:00-06:00'],
      ['Tue, 10 Jun 2003 04:00:00 PST', '2003-06-10T04:00:00-08:00'],
      ['Tue, 10 Jun 2003 04:00:00 PDT', '2003-06-10T04:00:00-07:00'],
      ['Wed, 02 Oct 2002 15:00:00 +0200', '2002-10-02T15:00:00+02:00'],
      ['Wed, 02 Oct 2002 15:00:00 -0430', '2002-10-02T15:00:00-04:30'],
      ['Wed, 02 Oct 2002 15:00:00 -0000', '2002-10-02T15:00:00+00:00'],
      ['2 Oct 2002 15:00 GMT', '2002-10-02T15:00:00Z'],
      ['  Wed,  02 oct 2002 15:00:00 gmt  ', '2002-10-02T15:00:00Z'],
      ['Thu, 29 Feb 2024 23:59:59 +1400', '2024-02-29T23:59:59+14:00'],
      // RFC 2822 §3.3: date-time = [day-of-week ","] date FWS time [CFWS]: a comment may follow the zone.
      ['Sat, 02 Jan 1999 10:00:00 +0000 (UTC)', '1999-01-02T10:00:00+00:00'],
      ['Sat, 02 Jan 1999 10:00:00 -0500 (Eastern Standard Time)', '1999-01-02T10:00:00-05:00'],
      ['Sat, 02 Jan 1999 10:00:00 GMT(x)  ', '1999-01-02T10:00:00Z'],
    ];
    for (const [input, expected] of cases) {
      const r = rfc822ToW3c(input);
      assert.deepEqual(r, { text: expected }, input);
      assert.ok(parseW3cDatetime(r.text)?.w3c, r.text);
    }
  });

  it('notes a wrong weekday, and leniencies', () => {
    assert.deepEqual(rfc822ToW3c('Mon, 06 Sep 2009 16:45:00 +0000'), { text: '2009-09-06T16:45:00+00:00', weekday: { written: 'Mon', actual: 'Sun' } });
    assert.deepEqual(rfc822ToW3c('07 Sep 02 09:42 GMT'), { text: '2002-09-07T09:42:00Z', lenient: 'a two-digit year' });
    assert.deepEqual(rfc822ToW3c('07 Sep 99 09:42 GMT').text, '1999-09-07T09:42:00Z');
    assert.equal(rfc822ToW3c('Sat, 07 Sep 2002 09:42:31').lenient, 'no time zone (read as UTC)');
    assert.match(rfc822ToW3c('Sat, 07 Sep 2002 09:42:31 A').lenient ?? '', /military zone/);
    assert.equal(rfc822ToW3c('Sat, 07 Sep 2002 09:42:31 +02:00').text, '2002-09-07T09:42:31+02:00');
    assert.equal(rfc822ToW3c('Saturday, 07 September 2002 09:42:31 GMT').lenient, 'a full month name, a full weekday name');
    // RFC 2822 §3.3: the time of day runs to 23:59:60 (a leap second), which W3C Datetime and xsd:dateTime do not take.
    assert.deepEqual(rfc822ToW3c('Sat, 31 Dec 2016 23:59:60 +0000'), { text: '2016-12-31T23:59:59+00:00', lenient: 'a leap second (second 60) read as 59' });
  });

  it('refuses what is not a date, and says why', () => {
    for (const [input, why] of [
      ['', /empty/],
      ['03:24PM on May 05, 2018', /grammar/],
      ['2002-09-07T09:42:31Z', /grammar/],
      ['Sat, 07 Foo 2002 09:42:31 GMT', /not a month/],
      ['Fri, 30 Feb 2024 09:42:31 GMT', /day 30 is out of range/],
      ['Sat, 07 Sep 2002 24:00:00 GMT', /hour/],
      ['Sat, 07 Sep 2002 09:60:00 GMT', /minute/],
      ['Sat, 07 Sep 2002 09:42:61 GMT', /second/],
      ['Sat, 07 Sep 2002 09:42:31 CEST', /not an RFC 822 zone/],
      ['Sat, 07 Sep 2002 09:42:31 J', /not an RFC 822 zone/],
    ] as const) {
      const r = rfc822ToW3c(input);
      assert.equal(r.text, '', input);
      assert.match(r.problem ?? '', why, input);
    }
  });

  it('agrees with Date on the instant of any UTC date it writes (property)', () => {
    const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    fc.assert(
      fc.property(fc.date({ min: new Date('1000-01-02T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }), fc.integer({ min: -720, max: 840 }), (date, offset) => {
        const t = Math.floor(date.getTime() / 1000) * 1000;
        const local = new Date(t + offset * 60_000);
        const p2 = (n: number): string => String(n).padStart(2, '0');
        const zone = `${offset < 0 ? '-' : '+'}${p2(Math.floor(Math.abs(offset) / 60))}${p2(Math.abs(offset) % 60)}`;
        const text = `${days[local.getUTCDay()]}, ${p2(local.getUTCDate())} ${months[local.getUTCMonth()]} ${local.getUTCFullYear()} ${p2(local.getUTCHours())}:${p2(local.getUTCMinutes())}:${p2(local.getUTCSeconds())} ${zone}`;
        const r = rfc822ToW3c(text);
        assert.equal(r.problem, undefined, text);
        assert.equal(r.weekday, undefined, text);
        assert.equal(parseW3cDatetime(r.text)?.epochMs, t, `${text} → ${r.text}`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('URL helpers', () => {
  it('isAbsoluteHttpUrl: http(s) in any case, with a host', () => {
    for (const yes of ['http://a', 'HTTPS://e.com/x', 'hTtP://x/', 'http://é.example/']) assert.equal(isAbsoluteHttpUrl(yes), true, yes);
    for (const no of ['', 'http', 'https://', 'https:///x', 'http:/a', 'httpx://a', 'ftp://a', 'http://?q', 'http://#f', 'http:// a', '/path', '//e.com/']) assert.equal(isAbsoluteHttpUrl(no), false, no);
  });

  it('hasScheme, resolveReference, resolveBase', () => {
    assert.equal(hasScheme('urn:uuid:1'), true);
    assert.equal(hasScheme('/a:b'), false);
    assert.equal(resolveReference('../c', 'https://e.com/a/b/'), 'https://e.com/a/c');
    assert.equal(resolveReference('x', 'not a base'), undefined);
    assert.equal(resolveBase(undefined, 'https://e.com/'), 'https://e.com/');
    assert.equal(resolveBase(' https://b.example/x/ ', 'https://e.com/'), 'https://b.example/x/');
    assert.equal(resolveBase('sub/', 'https://e.com/a/'), 'https://e.com/a/sub/');
    assert.equal(resolveBase('sub/', undefined), undefined);
    assert.equal(resolveBase('mailto:x', 'https://e.com/'), 'https://e.com/');
  });
});
