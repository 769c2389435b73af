#!/usr/bin/env node
// Screenshots of the report page (issue 26), for the README and docs: the report of the bundled
// example, light and dark, at a desktop's width (1280) and a phone's (390), into docs/img/.
//
//   node scripts/report-screenshots.js               the example: the set `generate` makes of examples/urls.txt
//                                                    (8 URLs a file, so an index and children) and the
//                                                    problems example beside it, reported together
//   node scripts/report-screenshots.js FILE.html     an existing report instead
//
// Runs the built CLI (`npm run build` first) and Debian's chromium (CHROMIUM to name another) through
// playwright-core. Each image is the top of the page (the summary, the set, the first problems), not
// the whole page: the images ship in the package (docs/), so they are kept small.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'img');
const NOW = '2026-11-26T12:00:00Z';
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
    // Run in the temporary directory, so that the page names the files set/… and problems/….
    mkdirSync(join(temp, 'problems'));
    copyFileSync(join(ROOT, 'examples', 'problems', 'sitemap.xml'), join(temp, 'problems', 'sitemap.xml'));
    const cli = (args, exits) => {
      const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'bin.cjs'), ...args, '--quiet'], { cwd: temp, encoding: 'utf8' });
      if (!exits.includes(run.status)) throw new Error(`sitemapkit ${args[0]} failed (exit ${run.status}): ${run.stderr}`);
    };
    cli(['generate', join(ROOT, 'examples', 'urls.txt'), '--base-url', 'http://www.ejemplo.com/', '--max-urls', '8', '--lastmod', '2026-10-01', '--out', 'set'], [0]);
    // Exit 1: the problems example has errors on purpose.
    cli(['report', 'set', 'problems/sitemap.xml', '--now', NOW, '--out', report], [1]);
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
