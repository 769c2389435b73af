// A count before a noun takes the noun's form for that count: "more than 1 entry", "more than 2 entries".

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticCollector } from '../../src/core/diagnostics.js';
import { LIMITS_PROFILES, NS } from '../../src/core/model.js';
import { TextSitemapReader } from '../../src/core/read/text.js';
import { readXmlSitemapText } from '../../src/core/read/xml-reader.js';
import { serializeSitemap } from '../../src/core/write/serialize.js';
import { SitemapSetWriter } from '../../src/core/write/sitemap-set-writer.js';
import { plural } from '../../src/core/errors.js';

const xml = (n: number): string => `<urlset xmlns="${NS.sitemap}">${Array.from({ length: n + 1 }, (_, i) => `<url><loc>https://a.example/${i}</loc></url>`).join('')}</urlset>`;
const message = (r: { diagnostics: readonly { code: string; message: string }[] }, code: string): string => r.diagnostics.find((d) => d.code === code)?.message ?? '';

function textMessages(text: string, maxEntries: number): string[] {
  const messages: string[] = [];
  const reader = new TextSitemapReader({ url() {}, sitemap() {}, format() {}, diagnostic: (d: { message: string }) => messages.push(d.message) } as never, { maxEntries });
  reader.write(text);
  reader.end();
  return messages;
}

describe('counts in messages', () => {
  it('plural: one, many, and the thousands written as people read them', () => {
    assert.equal(plural(1, 'entry', 'entries'), '1 entry');
    assert.equal(plural(2, 'entry', 'entries'), '2 entries');
    assert.equal(plural(50_000, 'URL'), '50,000 URLs');
  });

  it('reader budgets: entries and nesting levels', () => {
    assert.match(message(readXmlSitemapText(xml(1), { maxEntries: 1 }), 'budget/entries'), /^more than 1 entry;/);
    assert.match(message(readXmlSitemapText(xml(2), { maxEntries: 2 }), 'budget/entries'), /^more than 2 entries;/);
    const deep = `<urlset xmlns="${NS.sitemap}"><url><loc>https://a.example/</loc></url></urlset>`;
    assert.match(message(readXmlSitemapText(deep, { maxDepth: 1 }), 'budget/depth'), /deeper than 1 level /);
    assert.match(message(readXmlSitemapText(deep, { maxDepth: 2 }), 'budget/depth'), /deeper than 2 levels /);
    assert.match(textMessages('https://a.example/\nhttps://a.example/b\n', 1).join('\n'), /more than 1 URL \(the limit\)/);
  });

  it('one diagnostic left out is one diagnostic', () => {
    const c = new DiagnosticCollector({ maxPerCode: 1 });
    for (let line = 1; line <= 2; line++) c.add({ code: 'text/not-a-url', severity: 'error', message: 'x', line, column: 1 });
    assert.match(c.list().at(-1)?.message ?? '', /^1 more diagnostic not listed \(/);
  });

  it('a limit of one URL a document', async () => {
    const entries = [{ loc: 'https://a.example/' }, { loc: 'https://a.example/b' }];
    const drain = async (maxUrlsPerSitemap: number): Promise<void> => {
      for await (const _ of serializeSitemap(entries, { limits: { ...LIMITS_PROFILES.current, maxUrlsPerSitemap } }));
    };
    await assert.rejects(drain(1), /at most 1 URL and 52,428,800 bytes/);
  });

  it('more sitemap files than an index may list: the legacy 1,000, and one', () => {
    const overflow = (maxFiles: number): string => {
      const writer = new SitemapSetWriter({ open() {}, write() {}, close() {} }, { limits: { ...LIMITS_PROFILES.legacy, maxUrlsPerSitemap: 1 }, maxFiles });
      try {
        for (let i = 0; i <= maxFiles; i++) writer.add({ loc: `https://a.example/${i}` });
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    };
    assert.match(overflow(1000), /^the URLs need more than 1,000 sitemap files,/);
    assert.match(overflow(1), /^the URLs need more than 1 sitemap file,/);
  });
});
