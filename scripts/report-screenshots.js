#!/usr/bin/env node
// Screenshots of the report page (issue 26), for the README and docs: the report of the bundled
// example, light and dark, at a desktop's width (1280) and a phone's (390), into docs/img/.
//
//   node scripts/report-screenshots.js               the example: `sitemapkit report examples/problems/sitemap.xml`
//   node scripts/report-screenshots.js FILE.html     an existing report instead
//
// Runs the built CLI (`npm run build` first) and Debian's chromium (CHROMIUM to name another) through
// playwright-core. Each image is the top of the page (the summary, the set, the first problems), not
// the whole page: the images ship in the package (docs/), so they are kept small.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'img');
const EXAMPLE = ['examples/problems/sitemap.xml'];
const SHOTS = [
  { name: 'report-desktop-light', width: 1280, height: 1100, colorScheme: 'light' },
  { name: 'report-desktop-dark', width: 1280, height: 1100, colorScheme: 'dark' },
  { name: 'report-phone-light', width: 390, height: 844, colorScheme: 'light' },
  { name: 'report-phone-dark', width: 390, height: 844, colorScheme: 'dark' },
];

const temp = mkdtempSync(join(tmpdir(), 'sitemapkit-report-shots-'));
try {
  let report = process.argv[2] === undefined ? undefined : resolve(process.argv[2]);
  if (report === undefined) {
    report = join(temp, 'report.html');
    // Exit 1 means problems were found: the example has some on purpose.
    const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'bin.js'), 'report', ...EXAMPLE, '--out', report], { cwd: ROOT, encoding: 'utf8' });
    if (run.status !== 0 && run.status !== 1) throw new Error(`sitemapkit report failed (exit ${run.status}): ${run.stderr}`);
  }
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    for (const shot of SHOTS) {
      const page = await browser.newPage({ viewport: { width: shot.width, height: shot.height }, colorScheme: shot.colorScheme });
      await page.route('**', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
      await page.goto(pathToFileURL(report).href);
      await page.waitForSelector('html[data-rows]');
      const path = join(OUT, `${shot.name}.png`);
      await page.screenshot({ path });
      console.log(`written: ${path.slice(ROOT.length + 1)}`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
