import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  FORMAT_SNIFF_CHARS,
  SITEMAP_NS,
  formatOfRoot,
  isGzip,
  resolveEncodingLabel,
  sitemapNamespaceProblem,
  sniffEncoding,
  sniffFormat,
  type EncodingSniff,
} from '../../../src/core/read/sniff.js';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../fixtures/read/encoding/', import.meta.url));
const hasCorpus = existsSync(CORPUS);

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const bytes = (...parts: Array<string | number[]>): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...ascii(p)] : p)));
const utf16 = (s: string, le: boolean): number[] => [...s].flatMap((c) => (le ? [c.charCodeAt(0), 0] : [0, c.charCodeAt(0)]));
const codes = (r: EncodingSniff): string[] => r.diagnostics.map((d) => d.code);
const DECL = (enc: string): string => `<?xml version="1.0" encoding="${enc}"?>\n<urlset/>`;

describe('isGzip', () => {
  it('is the magic bytes 1f 8b and nothing else', () => {
    assert.equal(isGzip(new Uint8Array([0x1f, 0x8b, 0x08])), true);
    assert.equal(isGzip(new Uint8Array([0x1f, 0x8b])), true);
    assert.equal(isGzip(new Uint8Array([0x1f])), false);
    assert.equal(isGzip(new Uint8Array([])), false);
    assert.equal(isGzip(ascii('<?xml')), false);
    assert.equal(isGzip(new Uint8Array([0x8b, 0x1f])), false);
  });
});

describe('sniffEncoding', () => {
  it('defaults to UTF-8 with nothing to go by', () => {
    const r = sniffEncoding(ascii('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>'));
    assert.deepEqual({ ...r }, { encoding: 'utf-8', bomLength: 0, source: 'default', diagnostics: [] });
    assert.deepEqual(sniffEncoding(new Uint8Array(0)), { encoding: 'utf-8', bomLength: 0, source: 'default', diagnostics: [] });
  });

  it('reads a UTF-8 declaration, in any case and quote style, without a diagnostic', () => {
    for (const decl of ['<?xml version="1.0" encoding="UTF-8"?>', "<?xml version='1.0' encoding='utf-8'?>", '<?xml version="1.0" encoding = "utf8" standalone="yes" ?>']) {
      const r = sniffEncoding(ascii(`${decl}<urlset/>`));
      assert.equal(r.encoding, 'utf-8', decl);
      assert.equal(r.source, 'declaration', decl);
      assert.deepEqual(r.diagnostics, [], decl);
    }
    const none = sniffEncoding(ascii('<?xml version="1.0"?><urlset/>'));
    assert.equal(none.source, 'default');
    assert.equal(none.declared, undefined);
  });

  it('takes the UTF-8 BOM', () => {
    const r = sniffEncoding(bytes([0xef, 0xbb, 0xbf], DECL('UTF-8')));
    assert.deepEqual({ ...r }, { encoding: 'utf-8', bomLength: 3, source: 'bom', declared: 'UTF-8', diagnostics: [] });
    assert.deepEqual(codes(sniffEncoding(bytes([0xef, 0xbb, 0xbf], '<urlset/>'))), []);
  });

  it('takes the UTF-16 BOMs, with a warning that the protocol wants UTF-8', () => {
    const le = sniffEncoding(bytes([0xff, 0xfe], utf16(DECL('UTF-16'), true)));
    assert.equal(le.encoding, 'utf-16le');
    assert.equal(le.bomLength, 2);
    assert.equal(le.source, 'bom');
    assert.equal(le.declared, 'UTF-16');
    assert.deepEqual(codes(le), ['encoding/declared-not-utf8']);
    assert.equal(le.diagnostics[0]?.severity, 'warning');
    assert.match(le.diagnostics[0]?.message ?? '', /UTF-16LE.*requires UTF-8/);
    // The hint says what to do without saying the message's reason again.
    assert.equal(le.diagnostics[0]?.hint, 'save the file as UTF-8 and declare encoding="UTF-8"');

    const be = sniffEncoding(bytes([0xfe, 0xff], utf16(DECL('utf-16'), false)));
    assert.equal(be.encoding, 'utf-16be');
    assert.equal(be.source, 'bom');
    assert.deepEqual(codes(be), ['encoding/declared-not-utf8']);

    // No declaration at all: still UTF-16, still a warning.
    assert.deepEqual(codes(sniffEncoding(bytes([0xff, 0xfe], utf16('<urlset/>', true)))), ['encoding/declared-not-utf8']);
  });

  it('recognises UTF-16 without a BOM by the byte pattern of "<?" (XML 1.0 appendix F)', () => {
    const le = sniffEncoding(bytes(utf16(DECL('UTF-16LE'), true)));
    assert.equal(le.encoding, 'utf-16le');
    assert.equal(le.source, 'pattern');
    assert.equal(le.bomLength, 0);
    assert.deepEqual(codes(le), ['encoding/declared-not-utf8']);
    const be = sniffEncoding(bytes(utf16(DECL('UTF-16BE'), false)));
    assert.equal(be.encoding, 'utf-16be');
    assert.equal(be.source, 'pattern');
    // Without a declaration, and after whitespace: read, but refused (only "<?xml" tells UTF-16 without a BOM).
    const bare = sniffEncoding(bytes(utf16('<urlset/>', true)));
    assert.equal(bare.encoding, 'utf-16le');
    assert.deepEqual(codes(bare), ['encoding/refused', 'encoding/declared-not-utf8']);
    assert.equal(sniffEncoding(bytes(utf16('\n<urlset/>', false))).encoding, 'utf-16be');
    // A declaration that contradicts the pattern loses to it.
    const wrong = sniffEncoding(bytes(utf16(DECL('UTF-8'), true)));
    assert.equal(wrong.encoding, 'utf-16le');
    assert.deepEqual(codes(wrong), ['encoding/declaration-mismatch', 'encoding/declared-not-utf8']);
  });

  it('takes two characters U+0001–U+00FF as the UTF-16 pattern (a Latin-1 letter first, as a generate input may start), not a stray NUL or UTF-32', () => {
    assert.equal(sniffEncoding(bytes(utf16('\u00e9\nhttps://e.com/', true))).encoding, 'utf-16le');
    assert.equal(sniffEncoding(bytes(utf16('h\u00e9', false))).encoding, 'utf-16be');
    assert.equal(sniffEncoding(bytes([0], '<?xml version="1.0"?>')).encoding, 'utf-8');
    assert.equal(sniffEncoding(bytes('<', [0], '?xml version="1.0"?>')).encoding, 'utf-8');
    assert.equal(sniffEncoding(bytes([0x68, 0, 0, 0, 0x74, 0, 0, 0])).encoding, 'utf-8');
    assert.equal(sniffEncoding(bytes([0, 0, 0, 0x68, 0, 0, 0, 0x74])).encoding, 'utf-8');
  });

  it('reads ISO-8859-1 and its aliases as windows-1252 (the WHATWG mapping)', () => {
    for (const label of ['ISO-8859-1', 'iso-8859-1', 'ISO_8859-1', 'latin1', 'Latin-1', 'iso8859_1', 'l1', 'cp1252', 'windows-1252', 'WINDOWS-1252', 'us-ascii', 'ASCII']) {
      const r = sniffEncoding(ascii(DECL(label)));
      // An ASCII label promises ASCII only (libxml2 refuses any other byte), not windows-1252.
      assert.equal(r.encoding, /ascii/i.test(label) ? 'us-ascii' : 'windows-1252', label);
      assert.equal(r.source, 'declaration', label);
      assert.equal(r.declared, label);
      assert.deepEqual(codes(r), ['encoding/declared-not-utf8'], label);
      assert.equal(r.diagnostics[0]?.line, 1);
      assert.equal(r.diagnostics[0]?.column, 1);
    }
    assert.equal(sniffEncoding(ascii(DECL('ISO-8859-2'))).encoding, 'iso-8859-2');
    assert.equal(sniffEncoding(ascii(DECL('Shift_JIS'))).encoding, 'shift_jis');
    assert.equal(resolveEncodingLabel(' UTF-8 '), 'utf-8');
    assert.equal(resolveEncodingLabel('x-klingon'), undefined);
  });

  it('takes in an XML declaration only the labels libxml2 knows too: utf-8n and win-1252 are unsupported there', () => {
    for (const label of ['utf-8n', 'WIN-1252']) {
      const r = sniffEncoding(ascii(DECL(label)));
      assert.equal(r.encoding, 'utf-8', label);
      assert.deepEqual(codes(r), ['encoding/unsupported'], label);
    }
    // An HTML page's charset (build) keeps them.
    assert.equal(resolveEncodingLabel('utf-8n'), 'utf-8');
    assert.equal(resolveEncodingLabel('win-1252'), 'windows-1252');
    assert.equal(sniffEncoding(ascii(DECL('latin-1'))).encoding, 'windows-1252');
  });

  it('lets a BOM win over a contradicting declaration, with encoding/bom-conflict', () => {
    const r = sniffEncoding(bytes([0xef, 0xbb, 0xbf], DECL('ISO-8859-1')));
    assert.equal(r.encoding, 'utf-8');
    assert.equal(r.source, 'bom');
    assert.equal(r.declared, 'ISO-8859-1');
    assert.deepEqual(codes(r), ['encoding/bom-conflict']);
    assert.equal(r.diagnostics[0]?.severity, 'warning');
    assert.match(r.diagnostics[0]?.message ?? '', /ISO-8859-1.*UTF-8/);

    assert.deepEqual(codes(sniffEncoding(bytes([0xff, 0xfe], utf16(DECL('UTF-8'), true)))), ['encoding/bom-conflict', 'encoding/declared-not-utf8']);
    // What libxml2 refuses (XML 1.0 4.3.3): another UTF-16 byte order, a UTF-16 label over UTF-8, any
    // other label over UTF-16, an unknown label. Still read as the BOM says.
    assert.deepEqual(codes(sniffEncoding(bytes([0xfe, 0xff], utf16(DECL('UTF-16LE'), false)))), ['encoding/refused', 'encoding/declared-not-utf8']);
    assert.deepEqual(codes(sniffEncoding(bytes([0xef, 0xbb, 0xbf], DECL('UTF-16')))), ['encoding/refused']);
    assert.deepEqual(codes(sniffEncoding(bytes([0xef, 0xbb, 0xbf], DECL('x-klingon')))), ['encoding/refused']);
    const latin1 = sniffEncoding(bytes([0xff, 0xfe], utf16(DECL('ISO-8859-1'), true)));
    assert.equal(latin1.encoding, 'utf-16le');
    assert.deepEqual(codes(latin1), ['encoding/refused', 'encoding/declared-not-utf8']);
    assert.equal(latin1.diagnostics[0]?.severity, 'error');
    assert.deepEqual(codes(sniffEncoding(bytes(utf16(DECL('windows-1252'), true)))), ['encoding/refused', 'encoding/declared-not-utf8']);
    // US-ASCII is a subset of UTF-8: no conflict.
    assert.deepEqual(codes(sniffEncoding(bytes([0xef, 0xbb, 0xbf], DECL('US-ASCII')))), []);
  });

  it('accepts whitespace (and a BOM) before the declaration, with a positioned warning', () => {
    const r = sniffEncoding(ascii(`\n\n  ${DECL('ISO-8859-1')}`));
    assert.equal(r.encoding, 'windows-1252');
    assert.deepEqual(codes(r), ['xml/declaration-not-at-start', 'encoding/declared-not-utf8']);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.line, d.column, d.offset]),
      [
        [3, 3, 4],
        [3, 3, 4],
      ],
    );
    const bom = sniffEncoding(bytes([0xef, 0xbb, 0xbf], `\r\n ${DECL('UTF-8')}`));
    assert.equal(bom.encoding, 'utf-8');
    assert.deepEqual(codes(bom), ['xml/declaration-not-at-start']);
    assert.match(bom.diagnostics[0]?.message ?? '', /byte order mark and whitespace/);
    assert.deepEqual([bom.diagnostics[0]?.line, bom.diagnostics[0]?.column], [2, 2]);
    // Whitespace before the root without a declaration is fine; so is an xml-stylesheet PI.
    assert.deepEqual(codes(sniffEncoding(ascii('\n  <urlset/>'))), []);
    assert.deepEqual(codes(sniffEncoding(ascii('\n<?xml-stylesheet href="a.xsl"?><urlset/>'))), []);
  });

  it('falls back to UTF-8 with an error for an unknown label', () => {
    const r = sniffEncoding(ascii(DECL('x-klingon')));
    assert.equal(r.encoding, 'utf-8');
    assert.equal(r.source, 'default');
    assert.equal(r.declared, 'x-klingon');
    assert.deepEqual(codes(r), ['encoding/unsupported']);
    assert.equal(r.diagnostics[0]?.severity, 'error');
    assert.match(r.diagnostics[0]?.message ?? '', /"x-klingon"/);
    // The "replacement" encodings of the Encoding Standard cannot be decoded either.
    assert.deepEqual(codes(sniffEncoding(ascii(DECL('ISO-2022-KR')))), ['encoding/unsupported']);
    // UTF-32 by its BOM.
    const u32 = sniffEncoding(new Uint8Array([0x00, 0x00, 0xfe, 0xff, 0, 0, 0, 0x3c]));
    assert.equal(u32.encoding, 'utf-8');
    assert.deepEqual(codes(u32), ['encoding/unsupported']);
  });

  it('reads single-byte text declared UTF-16 as UTF-8, refused (XML 1.0 4.3.3)', () => {
    const r = sniffEncoding(ascii(DECL('UTF-16')));
    assert.equal(r.encoding, 'utf-8');
    assert.equal(r.source, 'default');
    assert.deepEqual(codes(r), ['encoding/refused']);
  });

  it('only reads the declaration within the first bytes and only at the start', () => {
    assert.equal(sniffEncoding(ascii(`<!-- c -->${DECL('ISO-8859-1')}`)).encoding, 'utf-8');
    assert.equal(sniffEncoding(ascii(`${' '.repeat(2000)}${DECL('ISO-8859-1')}`)).encoding, 'utf-8');
    assert.equal(sniffEncoding(ascii('<?xml version="1.0" encoding="ISO-8859-1"')).encoding, 'utf-8'); // unclosed
  });

  it('sniffs the fixtures under test/fixtures/read/encoding', () => {
    const expected: Record<string, [string, string, string[]]> = {
      'utf8-bom.xml': ['utf-8', 'bom', []],
      'utf16le-bom.xml': ['utf-16le', 'bom', ['encoding/declared-not-utf8']],
      'utf16be-bom.xml': ['utf-16be', 'bom', ['encoding/declared-not-utf8']],
      'utf16le-no-bom.xml': ['utf-16le', 'pattern', ['encoding/declared-not-utf8']],
      'utf16be-no-bom.xml': ['utf-16be', 'pattern', ['encoding/declared-not-utf8']],
      'iso-8859-1-cafe.xml': ['windows-1252', 'declaration', ['encoding/declared-not-utf8']],
      'windows-1252-euro.xml': ['windows-1252', 'declaration', ['encoding/declared-not-utf8']],
      'whitespace-before-declaration.xml': ['utf-8', 'bom', ['xml/declaration-not-at-start']],
      'unknown-label.xml': ['utf-8', 'default', ['encoding/unsupported']],
      'invalid-utf8.xml': ['utf-8', 'declaration', []],
    };
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.xml'));
    assert.deepEqual(files.sort(), Object.keys(expected).sort());
    for (const [file, [encoding, source, diagnostics]] of Object.entries(expected)) {
      const r = sniffEncoding(readFileSync(FIXTURES + file));
      assert.deepEqual([r.encoding, r.source, codes(r)], [encoding, source, diagnostics], file);
    }
  });

  it('sniffs the corpus encoding files', { skip: !hasCorpus && 'no ../shared/corpus' }, () => {
    const conflict = sniffEncoding(readFileSync(`${CORPUS}encoding/bart-turczynski__sitemapr__tests__testthat__fixtures__corpus__encoding__bom-conflict.xml`));
    assert.equal(conflict.encoding, 'utf-8');
    assert.equal(conflict.bomLength, 3);
    assert.equal(conflict.declared, 'ISO-8859-1');
    assert.deepEqual(codes(conflict), ['encoding/bom-conflict']);
    const iso = sniffEncoding(readFileSync(`${CORPUS}encoding/bart-turczynski__sitemapr__tests__testthat__fixtures__corpus__encoding__declared-iso8859-no-bom.xml`));
    assert.equal(iso.encoding, 'windows-1252');
    assert.equal(iso.source, 'declaration');
    assert.deepEqual(codes(iso), ['encoding/declared-not-utf8']);
  });
});

describe('sniffFormat', () => {
  it('says xml for a declaration, a comment, a non-HTML DOCTYPE or a start tag', () => {
    for (const text of [
      '<?xml version="1.0"?><urlset/>',
      '\uFEFF\n  <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      '<!-- generator --><urlset/>',
      '<!DOCTYPE urlset [<!ENTITY a "b">]><urlset/>',
      '<rss version="2.0">',
      '<sit:urlset xmlns:sit="http://www.sitemaps.org/schemas/sitemap/0.9">',
      '<?xml-stylesheet href="s.xsl"?>\n<urlset/>',
      '<!-- a comment longer than the window ' + 'x'.repeat(2000),
      '<?xml version="1.0"?>', // truncated after the declaration
    ]) {
      assert.equal(sniffFormat(text), 'xml', text.slice(0, 60));
    }
  });

  it('says html for HTML pages, also behind comments or an XML declaration (XHTML)', () => {
    for (const text of [
      '<!DOCTYPE html>\n<html lang="en">',
      '<!doctype HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">',
      '<html><head><title>404</title>',
      '  <HTML>',
      '<head><meta charset="utf-8">',
      '<body>Not found</body>',
      '<!-- served by nginx -->\n<!DOCTYPE html>',
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x">\n<html xmlns="http://www.w3.org/1999/xhtml">',
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">',
    ]) {
      assert.equal(sniffFormat(text), 'html', text.slice(0, 60));
    }
    // Names that only start like HTML ones are XML.
    assert.equal(sniffFormat('<header/>'), 'xml');
    assert.equal(sniffFormat('<htmlish/>'), 'xml');
  });

  it('says text for one URL per line, and empty for nothing but whitespace', () => {
    assert.equal(sniffFormat('http://www.example.com/\nhttp://www.example.com/a\n'), 'text');
    assert.equal(sniffFormat('\uFEFFhttps://example.com/'), 'text');
    assert.equal(sniffFormat('{"urls": []}'), 'text');
    assert.equal(sniffFormat(''), 'empty');
    assert.equal(sniffFormat(' \r\n\t '), 'empty');
    assert.equal(sniffFormat('\uFEFF'), 'empty');
  });

  it('says xml for text before an XML declaration or a sitemap root (front matter, a stray line)', () => {
    assert.equal(sniffFormat('---\nlayout: null\n---\n<?xml version="1.0" encoding="UTF-8"?>\n<urlset>'), 'xml');
    assert.equal(sniffFormat('Warning: something in file.php on line 3\n<urlset xmlns="x">'), 'xml');
    assert.equal(sniffFormat('http://a.example/\nhttp://b.example/<x>'), 'text');
  });

  it('looks only at the window', () => {
    assert.equal(sniffFormat(`${'\n'.repeat(5000)}<!DOCTYPE html>`), 'html');
    assert.equal(sniffFormat(`http://a.example/${'a'.repeat(FORMAT_SNIFF_CHARS)}<urlset>`), 'text');
  });

  it('classifies every corpus file: text and robots are text, one HTML page, the rest XML', { skip: !hasCorpus && 'no ../shared/corpus' }, () => {
    const exceptions: Record<string, string> = {
      'malformed/13protons__13protons___site__sitemap.xml': 'html',
      'malformed/TurnerSoftware__SitemapTools__tests__TurnerSoftware.SitemapTools.Tests__Resources__basic-sitemap-WrongFormat.xml': 'text',
    };
    let n = 0;
    for (const category of readdirSync(CORPUS)) {
      if (category.includes('.')) continue;
      for (const file of readdirSync(CORPUS + category)) {
        const key = `${category}/${file}`;
        const text = new TextDecoder().decode(readFileSync(CORPUS + key));
        const expected = exceptions[key] ?? (category === 'text' || category === 'robots' ? 'text' : 'xml');
        assert.equal(sniffFormat(text), expected, key);
        n++;
      }
    }
    assert.ok(n >= 100, `${n} corpus files`);
  });
});

describe('formatOfRoot', () => {
  it('names the format of a root element', () => {
    assert.equal(formatOfRoot(SITEMAP_NS, 'urlset'), 'urlset');
    assert.equal(formatOfRoot(SITEMAP_NS, 'sitemapindex'), 'sitemapindex');
    assert.equal(formatOfRoot('', 'urlset'), 'urlset');
    assert.equal(formatOfRoot('http://www.google.com/schemas/sitemap/0.9', 'sitemapindex'), 'sitemapindex');
    assert.equal(formatOfRoot('', 'rss'), 'rss');
    assert.equal(formatOfRoot('http://www.w3.org/2005/Atom', 'feed'), 'atom');
    assert.equal(formatOfRoot('http://purl.org/atom/ns#', 'feed'), 'atom03');
    assert.equal(formatOfRoot('', 'feed'), 'unknown');
    assert.equal(formatOfRoot('http://www.w3.org/1999/xhtml', 'html'), 'html');
    assert.equal(formatOfRoot('', 'HTML'), 'html');
    assert.equal(formatOfRoot('http://purl.org/rss/1.0/', 'RDF'), 'unknown');
    assert.equal(formatOfRoot(SITEMAP_NS, 'url'), 'unknown');
  });
});

describe('sitemapNamespaceProblem', () => {
  it('has nothing to say about the sitemaps.org namespace', () => {
    assert.equal(sitemapNamespaceProblem('http://www.sitemaps.org/schemas/sitemap/0.9'), undefined);
  });

  it('accepts Google\'s legacy namespaces with a warning', () => {
    for (const uri of ['http://www.google.com/schemas/sitemap/0.84', 'http://www.google.com/schemas/sitemap/0.9']) {
      const p = sitemapNamespaceProblem(uri, 'sitemapindex');
      assert.equal(p?.code, 'namespace/legacy');
      assert.equal(p?.severity, 'warning');
      assert.ok(p?.message.includes(uri));
      assert.ok(p?.message.includes(SITEMAP_NS));
      assert.ok(p?.message.startsWith('<sitemapindex>'));
    }
  });

  it('accepts a missing namespace with a warning', () => {
    const p = sitemapNamespaceProblem('');
    assert.equal(p?.code, 'namespace/missing');
    assert.equal(p?.severity, 'warning');
    assert.ok(p?.hint.includes(`xmlns="${SITEMAP_NS}"`));
  });

  it('reports the Spanish seed\'s namespace as wrong, naming the right one', () => {
    const p = sitemapNamespaceProblem('http://www.sobjetoaps.org/schemas/sobjetoap/0.9');
    assert.equal(p?.code, 'namespace/wrong');
    assert.equal(p?.severity, 'error');
    assert.ok(p?.message.includes('"http://www.sobjetoaps.org/schemas/sobjetoap/0.9"'));
    assert.ok(p?.message.includes(`"${SITEMAP_NS}"`));
    assert.ok(p?.hint.includes(SITEMAP_NS));
  });

  it('calls near misses wrong and says they are near misses', () => {
    for (const uri of [
      'https://www.sitemaps.org/schemas/sitemap/0.9',
      'http://www.sitemaps.org/schemas/sitemap/0.9/',
      'http://sitemaps.org/schemas/sitemap/0.9',
      'http://www.sitemap.org/schemas/sitemap/0.9',
      'HTTP://WWW.SITEMAPS.ORG/schemas/sitemap/0.9',
      ' http://www.sitemaps.org/schemas/sitemap/0.9',
      'https://www.google.com/schemas/sitemap/0.9',
    ]) {
      const p = sitemapNamespaceProblem(uri);
      assert.equal(p?.code, 'namespace/wrong', uri);
      assert.equal(p?.severity, 'error');
      assert.match(p?.message ?? '', /near miss/, uri);
      assert.ok(p?.message.includes(`"${SITEMAP_NS}"`));
    }
    assert.match(sitemapNamespaceProblem('http://www.sitemaps.org/schemas/sitemap/0.84')?.message ?? '', /0\.84 only ever existed under google\.com/);
    assert.doesNotMatch(sitemapNamespaceProblem('http://www.w3.org/2005/Atom')?.message ?? '', /near miss/);
  });
});
