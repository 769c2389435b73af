import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FileReport } from '../../../src/core/validate/types.js';
import { githubLine } from '../../../src/cli/report/index.js';
import { CLEAN_REPORTS, REPORTS } from './fixtures.js';

/** The lines of every report, as validate --format github streams them. */
const formatGithub = (reports: readonly FileReport[]): string => reports.flatMap((r) => r.diagnostics.map((d) => githubLine(r.file, d))).join('');

describe('formatGithub', () => {
  const lines = formatGithub(REPORTS).split('\n');

  it('writes one workflow command per diagnostic, each on its own line', () => {
    assert.equal(lines.pop(), '', 'ends with a newline');
    assert.equal(lines.length, 7);
    assert.deepEqual(lines.map((l) => /^::(\w+) /.exec(l)?.[1]), ['error', 'warning', 'error', 'notice', 'warning', 'warning', 'error']);
  });

  it('appends the hint on a line of its own', () => {
    assert.equal(
      lines[0],
      '::error file=public/sitemap.xml,line=12,col=5,title=loc/not-absolute::relative URL "/a"%0AFix: write the full URL, with https://',
    );
  });

  it('escapes % and line ends in the message, and leaves : and , alone there', () => {
    assert.equal(
      lines[1],
      '::warning file=public/sitemap.xml,line=7,col=123,title=lastmod/invalid::' +
        'bad "lastmod" <a & b> it\'s 100%25 off: 2024-13-01, 2024-14-01%0Asecond line — café 日本 😀',
    );
  });

  it('escapes %, : and , in properties', () => {
    assert.equal(lines[5], '::warning file=out/a%2Cb%3Ac%25.xml,line=2,col=3,title=lastmod/invalid::x');
    assert.equal(lines[3], '::notice file=https%3A//example.com/sitemap_index.xml,title=sitemap/not-listed::not listed in robots.txt%0AFix: add a Sitemap: line');
  });

  it('omits col without a column, line and col without a line, and file for standard input', () => {
    assert.equal(lines[4], '::warning file=https%3A//example.com/sitemap_index.xml,line=9,title=index/too-many::over 50,000 children');
    assert.equal(lines[6], '::error title=input/empty::the input is empty');
  });

  it('writes the other control characters (an ESC) as escapes, in properties and data: none reaches the log raw', () => {
    const line = githubLine('a\x1b[31m,b.xml', { code: 'x/y', severity: 'error', message: 'm\x1b]0;t\x07 100%\r\n', line: 1 });
    assert.equal(line, '::error file=a\\u001b[31m%2Cb.xml,line=1,title=x/y::m\\u001b]0;t\\u0007 100%25%0D%0A\n');
  });

  it('writes nothing for clean files', () => {
    assert.equal(formatGithub(CLEAN_REPORTS), '');
  });
});
