// A finished validation gives its lane instance and its hreflang graph's arrays to the next one
// (making them was most of a one-url validation's time). Validations that run at the same time must
// never share them, and a reused one must not remember what the last one read.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readAsciiChunk } from '../../../src/core/read/lane-bytes.js';
import { XmlSitemapReader } from '../../../src/core/read/xml-reader.js';
import { XmlTokenizer } from '../../../src/core/xml/tokenizer.js';
import { SitemapValidation } from '../../../src/core/validate/validator.js';
import type { FileReport } from '../../../src/core/validate/types.js';

const NOW = Date.UTC(2026, 0, 1);
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n';

/** `count` urls of `site`; every `linkEvery`th lists the next as an alternate, which does not list it back. */
function sitemap(site: string, count: number, linkEvery: number, lastmod = '2024-01-01'): string {
  let text = HEAD;
  for (let i = 0; i < count; i++) {
    const loc = `https://${site}/p${String(i).padStart(4, '0')}`;
    const links = i % linkEvery === 0 ? `<xhtml:link rel="alternate" hreflang="en" href="${loc}"/><xhtml:link rel="alternate" hreflang="de" href="https://${site}/p${String(i + 1).padStart(4, '0')}"/>` : '';
    text += `<url><loc>${loc}</loc><lastmod>${lastmod}</lastmod>${links}</url>\n`;
  }
  return `${text}</urlset>\n`;
}

/**
 * A validation fed piece by piece: each `next()` reads one more chunk (the root's start tag as text,
 * then 2,000 bytes at a time from the bytes, as node/parse-sitemap.ts reads files, or all of `body`,
 * the bytes after HEAD); the last gives the report.
 */
function* validation(text: string, body?: Uint8Array): Generator<undefined, FileReport> {
  const bytes = new TextEncoder().encode(text);
  const validation = new SitemapValidation('<test>', { now: NOW });
  const reader = new XmlSitemapReader(validation, {});
  const tokenizer = new XmlTokenizer(validation.xmlHandler(reader), { maxValueLength: 1024 * 1024 });
  tokenizer.write(HEAD);
  const chunks: Uint8Array[] = body !== undefined ? [body] : [];
  // Each chunk in an array of its own, as readAsciiChunk asks.
  for (let at = HEAD.length; body === undefined && at < bytes.length; at += 2_000) chunks.push(bytes.slice(at, at + 2_000));
  for (const chunk of chunks) {
    yield;
    const decoder = new TextDecoder();
    readAsciiChunk(tokenizer, chunk, { text: (from, to) => tokenizer.write(decoder.decode(chunk.subarray(from, to))), skipped: () => {}, wantsMore: () => true });
  }
  tokenizer.end();
  reader.end();
  return validation.finish(bytes.length);
}

function count(report: FileReport | undefined, code: string): number {
  return report?.diagnostics.filter((d) => d.code === code).length ?? 0;
}

function run(steps: Generator<undefined, FileReport>): FileReport {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

describe('validations reuse what a finished one gave back', () => {
  it('interleaved validations each get the report they get alone', () => {
    const texts = [sitemap('a.example', 200, 3), sitemap('a.example', 400, 5), sitemap('a.example', 300, 4, '2030-05-05')];
    const alone = texts.map((text) => run(validation(text)));
    assert.equal(count(alone[0], 'hreflang/missing-return-link'), 67);
    assert.equal(count(alone[1], 'hreflang/missing-return-link'), 80);
    assert.equal(count(alone[2], 'lastmod/future'), 300);
    // Of the same site: a table of locs or a graph shared by two would find duplicates or links between them.
    assert.equal(count(alone[1], 'loc/duplicate'), 0);
    // a and b run together; c starts when a ends (taking what a gave back) while b still runs.
    const [a, b, c] = texts.map((text) => validation(text)) as [Generator<undefined, FileReport>, Generator<undefined, FileReport>, Generator<undefined, FileReport>];
    const reports: (FileReport | undefined)[] = [];
    const running = [a, b];
    for (let turn = 0; running.length > 0; turn++) {
      const steps = running[turn % running.length] as Generator<undefined, FileReport>;
      const step = steps.next();
      if (step.done !== true) continue;
      running.splice(running.indexOf(steps), 1);
      reports[steps === a ? 0 : steps === b ? 1 : 2] = step.value;
      if (steps !== a) continue;
      assert.ok(running.includes(b), 'b still runs when c starts');
      running.push(c);
    }
    assert.equal(reports[2]?.entries, 300);
    assert.deepStrictEqual(reports, alone);
  });

  it('a reused lane reads a changed buffer afresh, not the window it loaded before', () => {
    const before = sitemap('d.example', 30, 100);
    const after = sitemap('d.example', 30, 100, '2030-05-05');
    assert.equal(before.length, after.length);
    const buffer = new TextEncoder().encode(before.slice(HEAD.length));
    assert.equal(count(run(validation(before, buffer)), 'lastmod/future'), 0);
    // The caller's array, changed in place: the lane knows its loaded window by the array.
    buffer.set(new TextEncoder().encode(after.slice(HEAD.length)));
    assert.equal(count(run(validation(after, buffer)), 'lastmod/future'), 30);
  });

  it('one after another, validations make one lane instance and one graph between them', () => {
    const Instance = WebAssembly.Instance;
    const NativeInt32Array = globalThis.Int32Array;
    let instances = 0;
    let graphs = 0;
    // Counted as the code makes them: a module instance, and a graph's table of records (the largest of its arrays).
    WebAssembly.Instance = class extends Instance {
      constructor(module: WebAssembly.Module, imports?: Record<string, Record<string, unknown>>) {
        super(module, imports);
        instances++;
      }
    };
    globalThis.Int32Array = class extends NativeInt32Array {
      constructor(...args: unknown[]) {
        super(...(args as [number]));
        if (typeof args[0] === 'number' && args[0] >= 62_500 * 11) graphs++;
      }
    } as Int32ArrayConstructor;
    try {
      for (let i = 0; i < 4; i++) run(validation(sitemap('e.example', 3, 1)));
    } finally {
      WebAssembly.Instance = Instance;
      globalThis.Int32Array = NativeInt32Array;
    }
    // None when an earlier test left them.
    assert.ok(instances <= 1, `${instances} lane instances`);
    assert.ok(graphs <= 1, `${graphs} graphs`);
  });
});
