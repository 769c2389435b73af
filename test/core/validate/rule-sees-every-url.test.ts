// A rule added to the rule set applies to every URL, whichever path read it (issue 24, "Rules as
// units"): here a fixture rule, added to the rules of one entry (ENTRY_RULES) with no batch form, must see
// each of the 50,000 URLs of a sitemap of real shapes that the bulk lane reads, with the values the
// events would have given it. Before, the lane's runs went to laneUrls, which ran only the
// protocol's own checks: a rule added the obvious way silently skipped every URL the lane read.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { UrlEntry } from '../../../src/core/model.js';
import { Lane } from '../../../src/core/read/lane.js';
import { ENTRY_RULES } from '../../../src/core/validate/protocol.js';
import type { EntryRule } from '../../../src/core/validate/types.js';
import { validateXmlSitemapText } from '../../../src/core/validate/validator.js';

const URLS = 50_000;

/**
 * A urlset of `n` valid, distinct URLs in the shapes of real files: `&amp;` in queries, both date
 * forms (fractions of a second too), priorities 1 / 0.5 / 1.0, indentation, comments, an image on
 * some urls and a pair of alternates on others.
 */
function realisticUrlset(n: number): { text: string; locs: string[] } {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'];
  const locs: string[] = [];
  const priorities = ['1', '0.5', '1.0', '0.80'];
  for (let i = 0; i < n; i++) {
    if (i % 1000 === 0) parts.push(`  <!-- section ${i / 1000} -->\n`);
    const loc = i % 3 === 0 ? `https://www.example.com/p/${i}?id=${i}&ref=x` : `https://www.example.com/p/${i}/`;
    locs.push(loc);
    const day = String(1 + (i % 28)).padStart(2, '0');
    const lastmod = i % 2 === 0 ? `2024-03-${day}` : `2024-03-${day}T10:20:30${i % 5 === 0 ? '.25' : ''}+01:00`;
    let extensions = '';
    if (i % 10 === 3) extensions = `    <image:image>\n      <image:loc>https://www.example.com/i/${i}.jpg</image:loc>\n    </image:image>\n`;
    if (i % 10 === 7) extensions = `    <xhtml:link rel="alternate" hreflang="en" href="${loc.replace(/&/g, '&amp;')}"/>\n    <xhtml:link rel="alternate" hreflang="de" href="${loc.replace(/&/g, '&amp;')}"/>\n`;
    parts.push(`  <url>\n    <loc>${loc.replace(/&/g, '&amp;')}</loc>\n    <lastmod>${lastmod}</lastmod>\n    <priority>${priorities[i % 4]}</priority>\n${extensions}  </url>\n`);
  }
  parts.push('</urlset>\n');
  return { text: parts.join(''), locs };
}

/** Runs `work` with a fixture rule in the rule set; the urls it saw. */
function withFixtureRule(work: () => void): { locs: string[]; lastmods: number; images: number; alternates: number } {
  const seen = { locs: [] as string[], lastmods: 0, images: 0, alternates: 0 };
  const rule: EntryRule = {
    code: 'fixture/sees-every-url', severity: 'info', title: 'a fixture rule', reads: ['loc', 'lastmod', 'images', 'alternates'],
    check(entry: UrlEntry) {
      seen.locs.push(entry.loc);
      if (typeof entry.lastmod === 'string') seen.lastmods++;
      seen.images += entry.images?.length ?? 0;
      seen.alternates += entry.alternates?.length ?? 0;
    },
  };
  ENTRY_RULES.push(rule);
  try {
    work();
  } finally {
    ENTRY_RULES.splice(ENTRY_RULES.indexOf(rule), 1);
  }
  return seen;
}

/** Runs `work` counting the urls the bulk lane reads. */
function countingLaneReads(work: () => void): number {
  let read = 0;
  const scan = Lane.prototype.scan;
  Lane.prototype.scan = function (this: Lane, ...args: Parameters<Lane['scan']>): number {
    const count = scan.apply(this, args);
    read += count;
    return count;
  };
  try {
    work();
  } finally {
    Lane.prototype.scan = scan;
  }
  return read;
}

describe('a rule added to the rule set', () => {
  it(`sees every one of ${URLS} URLs the bulk lane reads, with the values the events give`, () => {
    const { text, locs } = realisticUrlset(URLS);
    let fast: ReturnType<typeof withFixtureRule> | undefined;
    let report: ReturnType<typeof validateXmlSitemapText> | undefined;
    const read = countingLaneReads(() => {
      fast = withFixtureRule(() => {
        report = validateXmlSitemapText(text, { now: Date.UTC(2026, 0, 1) });
      });
    });
    assert.equal(read, URLS, 'the lane read every entry');
    assert.deepEqual(report?.diagnostics, []);
    assert.equal(fast?.locs.length, URLS);
    assert.deepStrictEqual(fast?.locs, locs, 'each loc, decoded, in order');
    assert.equal(fast?.lastmods, URLS);
    assert.equal(fast?.images, URLS / 10);
    assert.equal(fast?.alternates, (URLS / 10) * 2);
    const events = withFixtureRule(() => validateXmlSitemapText(text, { now: Date.UTC(2026, 0, 1), fastPath: false }));
    assert.deepStrictEqual(events, fast, 'the same as through the events');
  });
});
