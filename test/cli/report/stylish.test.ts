import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StylishWriter } from '../../../src/cli/report/index.js';
import type { StylishOptions } from '../../../src/cli/report/stylish.js';
import { CLEAN_REPORTS, REPORTS } from './fixtures.js';
import type { FileReport } from '../../../src/core/validate/types.js';

/** The whole report of `reports` as one string, written as validate writes it. */
function formatStylish(reports: readonly FileReport[], options: StylishOptions): string {
  let text = '';
  const writer = new StylishWriter({ write: (chunk) => (text += chunk) }, options);
  for (const report of reports) {
    writer.startFile(report.file);
    for (const d of report.diagnostics) writer.diagnostic(d);
    writer.endFile(report.schemaValid);
  }
  writer.end(reports);
  return text;
}

const ESC = '\u001b';
const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');
/** Column in code points (the messy message has three wide characters, 日本😀, which take two each). */
const column = (line: string, part: string): number => {
  const at = line.indexOf(part);
  assert.ok(at >= 0, `${JSON.stringify(part)} not in ${JSON.stringify(line)}`);
  return [...line.slice(0, at)].length;
};

describe('formatStylish', () => {
  const plain = formatStylish(REPORTS, { color: false });
  const blocks = plain.trimEnd().split('\n\n');

  it('lists the files with diagnostics only, then the summary', () => {
    assert.deepEqual(blocks.map((b) => b.split('\n')[0]), [
      'public/sitemap.xml',
      'https://example.com/sitemap_index.xml',
      'out/a,b:c%.xml',
      '-',
      '✖ 7 problems (3 errors, 3 warnings, 1 info)',
    ]);
  });

  it('off a terminal, one long message does not pad every row of the file to its length', () => {
    const long = 'x'.repeat(300);
    const report: FileReport = {
      file: 'a.xml', format: 'urlset', entries: 2,
      diagnostics: [
        { code: 'loc/not-absolute', severity: 'error', message: 'relative URL "/a"', line: 1, column: 1 },
        { code: 'lastmod/invalid', severity: 'error', message: long, line: 2, column: 1 },
      ],
    };
    const [short, longRow] = formatStylish([report], { color: false }).split('\n').slice(1, 3) as [string, string];
    assert.ok(short.length < 140, `the short message's row is ${short.length} columns`);
    assert.ok(longRow.includes(`${long}  lastmod/invalid`), 'the long message is kept whole, its code after it');
  });

  it('aligns position (right), severity, message and code in columns', () => {
    const rows = blocks[0]?.split('\n').slice(1) ?? [];
    assert.equal(rows.length, 4, 'three diagnostics and one hint');
    const [absolute, hint, messy, control] = rows as [string, string, string, string];
    assert.match(absolute, /^ {2} {2}12:5 {2}error {4}relative URL "\/a" +loc\/not-absolute$/);
    // Right-aligned positions end at the same column.
    assert.equal(column(absolute, '12:5') + 4, column(messy, '7:123') + 5);
    assert.equal(column(messy, '7:123') + 5, column(control, '1040:1') + 6);
    for (const [part, others] of [['error', ['warning', 'error']], ['relative', ['bad', 'raw']]] as const) {
      assert.equal(column(messy, others[0]), column(absolute, part), part);
      assert.equal(column(control, others[1]), column(absolute, part), part);
    }
    assert.equal(column(messy, 'lastmod/') + 3, column(absolute, 'loc/'), 'code column, wide characters counted twice');
    assert.equal(column(control, 'xml/'), column(absolute, 'loc/'));
    // The hint sits under the message.
    assert.equal(column(hint, 'write the full URL'), column(absolute, 'relative'));
    assert.match(hint, /^ +write the full URL, with https:\/\/$/);
  });

  it('leaves the position blank without a line, and shows the line alone without a column', () => {
    const [, notListed, notListedHint, tooMany] = blocks[1]?.split('\n') ?? [];
    assert.match(notListed ?? '', /^ {2} {1} {2}info {5}not listed in robots\.txt {2}sitemap\/not-listed$/);
    assert.match(tooMany ?? '', /^ {2}9 {2}warning {2}over 50,000 children {6}index\/too-many$/);
    assert.equal(column(notListedHint ?? '', 'add a'), column(notListed ?? '', 'not listed'));
    assert.equal(blocks[3], '-\n    error  the input is empty  input/empty');
  });

  it('writes line ends and control characters as escapes', () => {
    assert.ok(!plain.includes(ESC), 'no ANSI escape without color, even from a message');
    assert.ok(plain.includes('off: 2024-13-01, 2024-14-01\\nsecond line — café 日本 😀'));
    assert.ok(plain.includes('raw \\u001b[31mred\\u001b[0m text, bell \\u0007'));
  });

  it('writes noncharacters (U+FFFE, U+FDD0, U+1FFFF) and lone surrogates as escapes: an input may hold them, a terminal shows garbage', () => {
    const report: FileReport = { file: 'f.xml', format: 'urlset', entries: 0, diagnostics: [{ code: 'x/y', severity: 'error', message: 'changefreq "d\ufffe\ufdd0\u{1ffff}\ud800x"', line: 1, column: 1 }] };
    assert.match(formatStylish([report], { color: false }), /changefreq "d\\ufffe\\ufdd0\\u\{1ffff\}\\ud800x"/);
  });

  it('colours severities, the file, the code and the hint only when asked', () => {
    const colored = formatStylish(REPORTS, { color: true });
    assert.equal(stripAnsi(colored), plain);
    assert.ok(colored.includes(`${ESC}[4mpublic/sitemap.xml${ESC}[0m`), 'underlined file');
    assert.ok(colored.includes(`${ESC}[31merror${ESC}[0m    relative`), 'red error');
    assert.ok(colored.includes(`${ESC}[33mwarning${ESC}[0m`), 'yellow warning');
    assert.ok(colored.includes(`${ESC}[36minfo${ESC}[0m     not listed`), 'cyan info');
    assert.ok(colored.includes(`${ESC}[2mloc/not-absolute${ESC}[0m`), 'dim code');
    assert.ok(colored.includes(`${ESC}[2mwrite the full URL, with https://${ESC}[0m`), 'dim hint');
    assert.ok(colored.includes(`${ESC}[31;1m✖ 7 problems`), 'red summary when there are errors');
  });

  it('says how much was checked when clean', () => {
    assert.equal(formatStylish(CLEAN_REPORTS, { color: false }), '✔ 2 files, 100,000 entries, no problems\n');
    assert.equal(formatStylish(CLEAN_REPORTS, { color: true }), `${ESC}[32;1m✔ 2 files, 100,000 entries, no problems${ESC}[0m\n`);
  });

  it('counts infos as problems, in the colour of the worst severity', () => {
    const infoOnly = [{ file: 'a.xml', format: 'urlset' as const, entries: 1, diagnostics: [{ code: 'x/y', severity: 'info' as const, message: 'm' }] }];
    assert.ok(formatStylish(infoOnly, { color: false }).endsWith('\n\n✖ 1 problem (0 errors, 0 warnings, 1 info)\n'));
    assert.ok(formatStylish(infoOnly, { color: true }).includes(`${ESC}[36;1m✖ 1 problem`));
  });
});
