// The report page in a real browser (issue 26): Debian's chromium through playwright-core, one launch
// for the file. Reports are built from a model and rows made here (report-fixture.ts), opened from
// file://, and read as a person would: what the page shows, what the controls do.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { tempDir } from '../helpers/tmp.js';
import { launchChromium, syntheticModel, syntheticRows, writeReport } from './report-fixture.js';
import type { ReportModel } from '../../src/core/report/model.js';

// What the tests read of the page inside page.evaluate (the project's types have no DOM library).
interface PageElement { tagName: string; id: string; textContent: string | null; scrollWidth: number; getAttribute(name: string): string | null }
declare const document: { activeElement: PageElement | null; documentElement: PageElement; body: PageElement; querySelector(selector: string): PageElement | null; querySelectorAll(selector: string): ArrayLike<PageElement> };
declare function getComputedStyle(element: PageElement): { backgroundColor: string };
declare function dispatchEvent(event: unknown): boolean;
declare class Event { constructor(type: string) }

let browser: Browser;
const dir = tempDir('sitemapkit-report-page-');
const BIG = 100_000;
const bigRows = syntheticRows(BIG);
const bigReport = join(dir, 'big.html');
const smallRows = syntheticRows(1000);

before(async () => {
  browser = await launchChromium();
  writeReport(bigReport, syntheticModel(BIG), bigRows);
});
after(() => browser?.close());

/** Opens a report; every request but the file itself fails and is recorded, as are console errors. */
async function open(path: string, viewport = { width: 1280, height: 900 }): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport, acceptDownloads: true });
  const requests: string[] = [];
  const errors: string[] = [];
  const documentUrl = pathToFileURL(path).href;
  page.on('request', (request) => { if (request.url() !== documentUrl) requests.push(request.url()); });
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.route('**', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  await page.goto(documentUrl);
  await page.waitForSelector('html[data-rows]');
  assert.equal(await page.getAttribute('html', 'data-rows'), 'ready', await page.textContent('#url-status') ?? '');
  return { page, requests, errors };
}

function small(name: string, model: ReportModel, rows = smallRows): string {
  const path = join(dir, name);
  writeReport(path, model, rows);
  return path;
}

/** The figure a summary card shows, by its label. */
async function figure(page: Page, label: string): Promise<string> {
  return (await page.locator('#summary .figures div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd').first().evaluate((dd) => dd.firstChild?.textContent ?? '')).trim();
}

/** The loc column of the rows drawn. */
function shownLocs(page: Page): Promise<string[]> {
  return page.locator('#url-rows th.loc').allTextContents();
}

describe('the report page in chromium', () => {
  test('makes no request but its own file, logs no error, and escapes what the model holds', async () => {
    const model = syntheticModel(1000);
    model.source = '"><img src="https://tracker.example/x.gif"><script>alert(1)</script>';
    model.duplicates.examples = [{ loc: 'https://www.example.com/<iframe src=https://evil.example/>', files: ['<b>a</b>.xml'] }];
    // 'İ' lower-cases to two characters: a lower-cased copy of the text would no longer line up with it.
    const rows = [`https://www.example.com/${'İ'.repeat(500)}\t\t1\t\t\t0\t0\t`, ...smallRows, 'https://www.example.com/"><img src=https://tracker.example/y.gif>\t\t1\t\t\t0\t0\t'];
    const { page, requests, errors } = await open(small('hostile.html', model, rows));
    assert.deepEqual(requests, []);
    assert.deepEqual(errors, []);
    assert.equal(await page.locator('img, iframe').count(), 0, 'no element from the model was parsed as HTML');
    assert.equal(await page.locator('script').count(), 3, 'the model, the rows and the page script, nothing else');
    assert.equal(await page.locator('header code').textContent(), model.source);
    assert.match(await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content') ?? '', /default-src 'none'.*script-src 'sha256-/);
    await page.fill('#url-filter', 'tracker');
    assert.deepEqual(await shownLocs(page), ['https://www.example.com/"><img src=https://tracker.example/y.gif>']);
    assert.equal(await page.locator('img').count(), 0);
    await page.close();
  });

  test('shows a bidi control as its escape, in the model\'s text and in the URL table: U+202E would draw …/(U+202E)gnp.exe as …/exe.png', async () => {
    const spoof = 'https://www.example.com/\u202egnp.exe';
    const model = syntheticModel(1000);
    model.files[1] = { ...(model.files[1] as ReportModel['files'][number]), name: 'https://www.example.com/\u2067s.xml' };
    model.duplicates.examples = [{ loc: spoof, files: ['sitemap-2.xml.gz'] }];
    const { page } = await open(small('bidi.html', model, [`${spoof}\t\t1\t\t\t0\t0\t`, ...smallRows]));
    const shown = 'https://www.example.com/%E2%80%AEgnp.exe';
    assert.equal(await page.locator('#duplicates tbody code').first().textContent(), shown);
    assert.equal((await shownLocs(page))[0], shown);
    assert.equal(await page.locator('#url-rows a').first().getAttribute('href'), spoof, 'the link goes where the sitemap says');
    assert.equal(await page.locator('#url-rows td').nth(1).textContent(), 'https://www.example.com/%E2%81%A7s.xml', 'a file name too');
    assert.ok(!(await page.locator('body').innerText()).includes('\u202e'));
    await page.close();
  });

  test('a very long URL takes a few lines of its row, scrolled within them, not a page of its own', async () => {
    const long = `https://www.example.com/${'a'.repeat(100_000)}`;
    const { page } = await open(small('long.html', syntheticModel(1000), [`${long}\t\t1\t\t\t0\t0\t`, ...smallRows]));
    const height = await page.locator('#url-rows tr').first().evaluate((tr) => (tr as unknown as { offsetHeight: number }).offsetHeight);
    assert.ok(height < 200, `${height} px`);
    assert.equal(await page.locator('#url-rows a').first().textContent(), long, 'the whole URL is there');
    await page.close();
  });

  test('unpacks the rows in a browser without Uint8Array.fromBase64 too (atob)', async () => {
    const page = await browser.newPage();
    await page.addInitScript('delete Uint8Array.fromBase64');
    await page.goto(pathToFileURL(small('atob.html', syntheticModel(1000))).href);
    await page.waitForSelector('html[data-rows]');
    assert.equal(await page.evaluate('typeof Uint8Array.fromBase64'), 'undefined');
    assert.equal(await page.textContent('#url-status'), 'URLs 1–100 of 1,000.');
    assert.equal((await shownLocs(page))[99], smallRows[99]?.split('\t')[0]);
    await page.close();
  });

  test('shows the counts of the model: summary, files, problems, URL rows', async () => {
    const model = syntheticModel(BIG);
    const { page } = await open(bigReport);
    assert.equal(await figure(page, 'Files'), String(model.summary.files));
    assert.equal(await figure(page, 'URLs'), '100,000');
    assert.equal(await figure(page, 'Errors'), String(model.summary.errors));
    assert.equal(await figure(page, 'Warnings'), String(model.summary.warnings));
    assert.equal(await figure(page, 'Schema \\(XSD\\)'), 'invalid');
    const fileRows = page.locator('#files tbody tr');
    assert.equal(await fileRows.count(), model.files.length);
    for (const [i, file] of model.files.entries()) {
      const row = fileRows.nth(i);
      assert.equal(await row.locator('th code').textContent(), file.name);
      assert.equal(await row.locator('td').nth(1).textContent(), file.entries.toLocaleString('en-US'));
    }
    assert.equal(await fileRows.nth(0).locator('td').nth(8).textContent(), '200', 'the HTTP status of a fetched file');
    assert.deepEqual(await page.locator('#problems h3 code').allTextContents(), model.problems.map((p) => p.code));
    assert.equal(await page.locator('#problems li code').first().textContent(), 'sitemap-1.xml.gz:12:5');
    assert.match(await page.textContent('#url-status') ?? '', /URLs 1–100 of 100,000\./);
    assert.equal(await page.locator('#url-rows tr').count(), 100, 'only the page shown is drawn');
    assert.deepEqual(await shownLocs(page), bigRows.slice(0, 100).map((row) => row.split('\t')[0]));
    await page.click('#url-next');
    assert.equal(await page.textContent('#url-page'), 'Page 2 of 1,000');
    assert.equal((await shownLocs(page))[0], bigRows[100]?.split('\t')[0]);
    await page.close();
  });

  test('the filter finds one URL among 100,000, quickly (measured in the page)', async () => {
    const { page } = await open(bigReport);
    await page.fill('#url-filter', 'docs/item-77778');
    assert.deepEqual(await shownLocs(page), ['https://www.example.com/docs/item-77778']);
    const milliseconds = Number(await page.getAttribute('#url-table', 'data-filter-milliseconds'));
    assert.ok(milliseconds >= 0 && milliseconds < 200, `the filter took ${milliseconds} ms`);
    await page.fill('#url-filter', '2025-04-03');
    const expected = bigRows.filter((row) => row.split('\t')[1]?.includes('2025-04-03')).length;
    assert.ok(expected > 0);
    assert.match(await page.textContent('#url-status') ?? '', new RegExp(`of ${expected.toLocaleString('en-US')} matching`), 'a lastmod is searched too');
    await page.fill('#url-filter', 'sitemap-1');
    assert.match(await page.textContent('#url-status') ?? '', /^No URL matching/, 'the file column is not searched');
    await page.fill('#url-filter', 'DOCS/ITEM-77778');
    assert.deepEqual(await shownLocs(page), [], 'capitals in the query make it case-sensitive');
    await page.fill('#url-filter', '');
    assert.match(await page.textContent('#url-status') ?? '', /of 100,000\./);
    await page.click('#directories summary');
    await page.click('#directories a[data-filter="/docs/"]');
    assert.equal(await page.inputValue('#url-filter'), '/docs/', 'a directory link fills the filter');
    assert.match(await page.textContent('#url-status') ?? '', /of 25,000 matching “\/docs\/”/);
    assert.ok(page.url().endsWith('#urls'));
    await page.close();
  });

  test('"Show" keeps the rows with an error (their flags), with or without a filter', async () => {
    const { page } = await open(bigReport);
    const withError = bigRows.filter((row) => row.endsWith('\te')).map((row) => row.split('\t')[0] as string);
    assert.equal(withError.length, 100);
    await page.selectOption('#url-only', 'e');
    assert.equal(await page.textContent('#url-status'), 'URLs 1–100 of 100 with an error (100,000 in all).');
    assert.deepEqual(await shownLocs(page), withError);
    await page.fill('#url-filter', 'item-1001');
    assert.deepEqual(await shownLocs(page), withError.filter((loc) => loc.includes('item-1001')));
    await page.fill('#url-filter', 'docs/');
    assert.equal(await page.textContent('#url-status'), 'No URL with an error matching “docs/” (100,000 in all).');
    await page.selectOption('#url-only', '');
    assert.match(await page.textContent('#url-status') ?? '', /of 25,000 matching “docs\/”/);
    await page.close();
  });

  test('the column buttons sort, both ways, and say so with aria-sort', async () => {
    const { page } = await open(small('sort.html', syntheticModel(1000)));
    const locs = smallRows.map((row) => row.split('\t')[0] as string);
    const header = page.locator('#url-table thead th').first();
    await page.click('#url-table thead button >> text=URL');
    await page.waitForFunction(() => document.querySelector('#url-table thead th')?.getAttribute('aria-sort') === 'ascending' && !document.querySelector('#url-status')?.textContent?.startsWith('Sorting'));
    assert.deepEqual(await shownLocs(page), [...locs].sort().slice(0, 100));
    await page.click('#url-table thead button >> text=URL');
    await page.waitForFunction(() => document.querySelector('#url-table thead th')?.getAttribute('aria-sort') === 'descending' && !document.querySelector('#url-status')?.textContent?.startsWith('Sorting'));
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
    assert.deepEqual(await shownLocs(page), [...locs].sort().reverse().slice(0, 100));
    await page.click('#url-table thead button >> text=lastmod');
    await page.waitForFunction(() => document.querySelectorAll('#url-table thead th')[1]?.getAttribute('aria-sort') === 'ascending' && !document.querySelector('#url-status')?.textContent?.startsWith('Sorting'));
    assert.equal(await header.getAttribute('aria-sort'), 'none');
    const lastmods = await page.locator('#url-rows tr td:nth-of-type(1)').allTextContents();
    const earliest = smallRows.map((row) => row.split('\t')[1] as string).filter((d) => d !== '').sort((a, b) => Date.parse(a) - Date.parse(b))[0];
    assert.equal(lastmods[0], earliest);
    assert.deepEqual(lastmods, [...lastmods].sort((a, b) => Date.parse(a) - Date.parse(b)));
    for (const click of [1, 2]) await page.click('#url-table thead button >> text=Images', { delay: click });
    await page.waitForFunction(() => document.querySelectorAll('#url-table thead th')[5]?.getAttribute('aria-sort') === 'descending' && !document.querySelector('#url-status')?.textContent?.startsWith('Sorting'));
    const byImages = smallRows.map((row, i) => ({ loc: row.split('\t')[0], images: Number(row.split('\t')[5]), i }))
      .sort((a, b) => a.images - b.images || a.i - b.i).reverse().map((r) => r.loc);
    assert.deepEqual(await shownLocs(page), byImages.slice(0, 100), 'descending by images: the 91 URLs with 2 first');
    await page.fill('#url-filter', 'shop/');
    assert.ok((await shownLocs(page)).every((loc) => loc.includes('shop/')), 'the filter keeps the sort');
    await page.close();
  });

  test('a host\'s root link shows its URLs, one written without a path too; the row where reading stopped says so and "Show" finds it', async () => {
    const rows = ['https://a.example\t\t1\t\t\t0\t0\t', 'https://a.example/about\t\t1\t\t\t0\t0\ts', 'https://b.example/x/y\t\t2\t\t\t0\t0\t'];
    const directories = [{ prefix: '//a.example/', urls: 2 }, { prefix: '//b.example/x/', urls: 1 }];
    const { page } = await open(small('hosts.html', syntheticModel(rows.length, { directories }), rows));
    await page.click('#directories summary');
    await page.click('#directories a[data-filter="//a.example"]');
    assert.deepEqual(await shownLocs(page), ['https://a.example', 'https://a.example/about']);
    assert.deepEqual(await page.locator('#url-rows td:last-child').allTextContents(), ['', 'reading stopped after it']);
    await page.fill('#url-filter', '');
    await page.selectOption('#url-only', 's');
    assert.deepEqual(await shownLocs(page), ['https://a.example/about']);
    await page.close();
  });

  test('sorting by lastmod puts a date before 1970 first, not with the rows that have none', async () => {
    const rows = ['2024-01-01', '', '1969-07-20', '1900-01-01T00:00:00Z'].map((lastmod, i) => `https://www.example.com/${i}\t${lastmod}\t1\t\t\t0\t0\t`);
    const { page } = await open(small('old-dates.html', syntheticModel(rows.length), rows));
    await page.click('#url-table thead button >> text=lastmod');
    await page.waitForFunction(() => document.querySelectorAll('#url-table thead th')[1]?.getAttribute('aria-sort') === 'ascending' && !document.querySelector('#url-status')?.textContent?.startsWith('Sorting'));
    assert.deepEqual(await page.locator('#url-rows tr td:nth-of-type(1)').allTextContents(), ['1900-01-01T00:00:00Z', '1969-07-20', '2024-01-01', '']);
    await page.close();
  });

  test('the CSV export holds exactly the rows the filter shows, quoted per RFC 4180, formulas as text', async () => {
    const rows = [...smallRows, 'https://www.example.com/item-1,"quoted"\t2026-01-01\t2\t\t\t0\t0\tw', '=HYPERLINK("http://evil.example/item-1")\t\t1\t\t\t0\t0\te'];
    const { page, requests } = await open(small('csv.html', syntheticModel(1001), rows));
    await page.fill('#url-filter', 'item-1');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#url-csv')]);
    const csv = readFileSync(await download.path(), 'utf8');
    const files = ['sitemap_index.xml', 'sitemap-1.xml.gz', 'sitemap-2.xml.gz'];
    const expected = rows.filter((row) => (row.split('\t')[0] as string).includes('item-1')).map((row) => {
      const fields = row.split('\t');
      fields[2] = files[Number(fields[2])] as string;
      return fields.map((f) => (f.startsWith('=') ? `"'${f.replace(/"/g, '""')}"` : /[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',');
    });
    assert.ok(expected.length > 100, 'more rows than one page: the export is not only the page shown');
    assert.equal(csv, ['loc,lastmod,file,changefreq,priority,images,alternates,flags', ...expected, ''].join('\r\n'));
    assert.ok(csv.includes('"https://www.example.com/item-1,""quoted"""'));
    assert.ok(csv.includes('"\'=HYPERLINK(""http://evil.example/item-1"")"'), 'a formula is exported as text');
    assert.deepEqual(requests.filter((url) => !url.startsWith('blob:')), [], 'the download is of a blob made in the page');
    await page.close();
  });

  test('the compare section lists the changes the model holds', async () => {
    const compare: NonNullable<ReportModel['compare']> = {
      previous: 'old/sitemap_index.xml', added: 2, removed: 1, changed: 1,
      examples: [
        { kind: 'added', loc: 'https://www.example.com/new-1', file: 'sitemap-2.xml.gz' },
        { kind: 'added', loc: 'https://www.example.com/new-2', file: 'sitemap-2.xml.gz' },
        { kind: 'removed', loc: 'https://www.example.com/gone' },
        { kind: 'changed', loc: 'https://www.example.com/blog/item-0', file: 'sitemap-1.xml.gz', fields: ['lastmod', 'image'] },
      ],
      perFile: [{ file: 'sitemap-1.xml.gz', added: 0, removed: 1, changed: 1 }, { file: 'sitemap-2.xml.gz', added: 2, removed: 0, changed: 0 }],
    };
    const { page } = await open(small('compare.html', syntheticModel(1000, { compare })));
    const section = page.locator('#compare');
    assert.deepEqual(await section.locator('.compare-added code').allTextContents(), ['https://www.example.com/new-1', 'https://www.example.com/new-2']);
    assert.deepEqual(await section.locator('.compare-removed code').allTextContents(), ['https://www.example.com/gone']);
    assert.match(await section.locator('.compare-changed li').textContent() ?? '', /blog\/item-0 in sitemap-1\.xml\.gz: lastmod, image/);
    assert.deepEqual(await section.locator('tbody tr').allInnerTexts(), ['sitemap-1.xml.gz\t0\t1\t1', 'sitemap-2.xml.gz\t2\t0\t0']);
    assert.deepEqual(await section.locator('.figures dd').allInnerTexts(), ['2', '1', '1\nlastmod, changefreq, priority or extension data']);
    const { page: without } = await open(small('no-compare.html', syntheticModel(1000)));
    assert.equal(await without.locator('#compare').count(), 0);
    await Promise.all([page.close(), without.close()]);
  });

  test('keyboard: the filter and the sort buttons are reachable by Tab, labelled, and work with Enter', async () => {
    const { page } = await open(small('keys.html', syntheticModel(1000)));
    assert.equal(await page.getByLabel('Filter URLs').getAttribute('id'), 'url-filter');
    assert.equal(await page.getByLabel('Show').getAttribute('id'), 'url-only');
    assert.equal(await page.getByLabel('Rows per page').getAttribute('id'), 'url-page-size');
    assert.equal(await page.locator('table:not(:has(thead th[scope="col"]))').count(), 0, 'every table has column headers');
    assert.deepEqual(await page.locator('h1, h2').allTextContents(), ['Sitemap report', 'Summary', 'The set', 'Problems', 'URLs per directory', 'Freshness', 'Extensions', 'Duplicates', 'Every URL']);
    await page.keyboard.press('Tab');
    const reached: string[] = [];
    for (let i = 0; i < 60 && !reached.includes('button:URL'); i++) {
      reached.push(await page.evaluate(() => { const el = document.activeElement; return `${el?.tagName.toLowerCase()}:${el?.id || el?.textContent?.trim()}`; }));
      await page.keyboard.press('Tab');
    }
    assert.ok(reached.includes('input:url-filter'), `Tab never reached the filter: ${reached.join(' ')}`);
    assert.ok(reached.includes('button:URL'), 'Tab reaches the first sort button after the filter');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#url-table thead th')?.getAttribute('aria-sort') === 'ascending');
    for (const name of ['URL', 'lastmod', 'File', 'changefreq', 'priority', 'Images', 'Alternates', 'Notes']) {
      assert.equal(await page.getByRole('columnheader', { name }).getByRole('button', { name }).count(), 1, `a sort button named ${name}`);
    }
    await page.close();
  });

  test('reads on a phone, in dark mode (no horizontal scroll of the page itself), and prints light without controls', async () => {
    const { page } = await open(bigReport, { width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const [scrollWidth, background] = await page.evaluate(() => [document.documentElement.scrollWidth, getComputedStyle(document.body).backgroundColor]);
    assert.ok(Number(scrollWidth) <= 390, `the page is ${scrollWidth} px wide`);
    assert.equal(background, 'rgb(21, 24, 27)');
    await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)', 'printed light, whatever the scheme');
    assert.equal(await page.isVisible('#url-filter'), false, 'no controls on paper');
    assert.equal(await page.isVisible('#summary .figures'), true);
    const openDetails = (): Promise<number> => page.locator('details[open]').count();
    assert.equal(await openDetails(), 0);
    await page.evaluate(() => dispatchEvent(new Event('beforeprint')));
    assert.equal(await openDetails(), await page.locator('details').count(), 'the folded tables unfold for print');
    await page.evaluate(() => dispatchEvent(new Event('afterprint')));
    assert.equal(await openDetails(), 0);
    await page.close();
  });
});
