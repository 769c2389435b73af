// FileReports for the report formatter tests: several files, every severity, a diagnostic without a
// position, one with a line only, and messages full of characters each format must escape.

import type { FileReport, RuleInfo } from '../../../src/core/validate/types.js';

/** `%`, `:`, `,`, a line end, `<`, `&`, both quotes, non-ASCII (BMP and beyond). */
export const MESSY_MESSAGE = 'bad "lastmod" <a & b> it\'s 100% off: 2024-13-01, 2024-14-01\nsecond line — café 日本 😀';
/** An ESC (a terminal escape copied from a hostile sitemap), a BEL and a lone surrogate. */
export const CONTROL_MESSAGE = 'raw \u001b[31mred\u001b[0m text, bell \u0007, lone \uD800 surrogate';
/** A file name that needs property escaping in GitHub commands. */
export const ODD_FILE = 'out/a,b:c%.xml';

export const REPORTS: readonly FileReport[] = [
  {
    file: 'public/sitemap.xml',
    format: 'urlset',
    entries: 3,
    diagnostics: [
      { code: 'loc/not-absolute', severity: 'error', message: 'relative URL "/a"', line: 12, column: 5, hint: 'write the full URL, with https://' },
      { code: 'lastmod/invalid', severity: 'warning', message: MESSY_MESSAGE, line: 7, column: 123 },
      { code: 'xml/control-char', severity: 'error', message: CONTROL_MESSAGE, line: 1040, column: 1 },
    ],
  },
  { file: 'clean.xml', format: 'urlset', entries: 100_000, diagnostics: [] },
  {
    file: 'https://example.com/sitemap_index.xml',
    format: 'sitemapindex',
    entries: 2,
    diagnostics: [
      { code: 'sitemap/not-listed', severity: 'info', message: 'not listed in robots.txt', hint: 'add a Sitemap: line' },
      { code: 'index/too-many', severity: 'warning', message: 'over 50,000 children', line: 9 },
    ],
  },
  { file: ODD_FILE, format: 'urlset', entries: 1, diagnostics: [{ code: 'lastmod/invalid', severity: 'warning', message: 'x', line: 2, column: 3 }] },
  { file: '-', format: undefined, entries: 0, diagnostics: [{ code: 'input/empty', severity: 'error', message: 'the input is empty' }] },
];

export const REPORT_COUNTS = { files: 5, entries: 100_006, errors: 3, warnings: 3, infos: 1 };

export const CLEAN_REPORTS: readonly FileReport[] = [
  { file: 'a.xml', format: 'urlset', entries: 99_999, diagnostics: [] },
  { file: 'b.xml', format: 'sitemapindex', entries: 1, diagnostics: [] },
];

/** A catalogue that knows some of the codes above (not `xml/control-char`, `input/empty`). */
export const RULES: ReadonlyMap<string, RuleInfo> = new Map<string, RuleInfo>([
  ['loc/not-absolute', { code: 'loc/not-absolute', severity: 'error', title: 'loc is an absolute URL', searchConsole: 'Invalid URL' }],
  // Documented as a warning, so its defaultConfiguration says warning whatever the diagnostics say.
  ['lastmod/invalid', { code: 'lastmod/invalid', severity: 'warning', title: 'lastmod is a W3C datetime', searchConsole: 'Invalid date' }],
  ['sitemap/not-listed', { code: 'sitemap/not-listed', severity: 'info', title: 'robots.txt lists the sitemap' }],
  ['index/too-many', { code: 'index/too-many', severity: 'error', title: 'at most 50,000 children' }],
]);
