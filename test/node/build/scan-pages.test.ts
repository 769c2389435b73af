import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scanBatch } from '../../../src/node/build/scan-pages.js';
import { tempDir } from '../../helpers/tmp.js';

/** Scans pages given as bytes, each at `https://www.example.com/NAME`. */
function scanBytes(pages: Record<string, Buffer>) {
  const dir = tempDir('sitemapkit-scan-');
  const targets = Object.entries(pages).map(([name, bytes]) => {
    writeFileSync(join(dir, name), bytes);
    return { path: join(dir, name), url: `https://www.example.com/${name}`, size: bytes.length };
  });
  return scanBatch({ id: 0, targets, images: false }).scans;
}

describe('scanPages: encodings', () => {
  it('reads a page that declares no encoding and is not UTF-8 as windows-1252 (HTML standard §13.2.3.2: the default of most locales): a changed letter changes its hash', () => {
    const body = (letter: number) => Buffer.concat([Buffer.from('<html><head><link rel="canonical" href="/caf'), Buffer.from([letter]), Buffer.from('.html"></head><body><p>caf'), Buffer.from([letter]), Buffer.from('</p></body></html>')]);
    const [e, f, utf8] = scanBytes({ 'e.html': body(0xe9), 'f.html': body(0xe8), 'u.html': Buffer.from('<html><head><link rel="canonical" href="/café.html"></head><body>x</body></html>') });
    assert.ok(e !== undefined && f !== undefined && utf8 !== undefined && 'hash' in e && 'hash' in f && 'hash' in utf8);
    assert.notEqual(e.hash, f.hash);
    assert.equal(e.facts.canonical, 'https://www.example.com/caf%C3%A9.html');
    assert.equal(utf8.facts.canonical, 'https://www.example.com/caf%C3%A9.html');
  });
});
