import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { Diagnostic } from '../../../src/core/diagnostics.js';
import { SitemapError } from '../../../src/core/errors.js';
import { MAX_INVALID_BYTES_REPORTED, StreamDecoder } from '../../../src/core/read/decode.js';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../fixtures/read/encoding/', import.meta.url));

interface Decoded {
  text: string;
  encoding: string;
  diagnostics: Diagnostic[];
  invalid: number;
}

/** A platform's ASCII fast path, in plain script (parse-sitemap.ts passes Node's isAscii + latin1). */
const asciiText = (bytes: Uint8Array): string | undefined => (bytes.every((b) => b < 0x80) ? String.fromCharCode(...bytes) : undefined);

function decode(chunks: Uint8Array[], window?: number, fast?: (bytes: Uint8Array) => string | undefined): Decoded {
  const d = new StreamDecoder(window, fast);
  let text = '';
  for (const c of chunks) text += d.write(c);
  text += d.end();
  return { text, encoding: d.encoding, diagnostics: [...d.diagnostics], invalid: invalidSequences(d.diagnostics) };
}

/** The invalid byte sequences the diagnostics count: one each, or past the first ones, the total they end with. */
function invalidSequences(diagnostics: readonly Diagnostic[]): number {
  const reported = diagnostics.filter((d) => d.code === 'encoding/invalid-bytes');
  const total = /^(\d+) invalid .* in all/.exec(reported.at(-1)?.message ?? '');
  return total === null ? reported.length : Number(total[1]);
}

const whole = (bytes: Uint8Array, window?: number): Decoded => decode([bytes], window);

/** The bytes cut at the given positions (any order, duplicates allowed). */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => Math.min(c, bytes.length)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  return out;
}

const oneByOne = (bytes: Uint8Array): Uint8Array[] => Array.from(bytes, (b) => Uint8Array.of(b));
const cat = (...parts: Array<Uint8Array | readonly number[]>): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
function utf16(s: string, le: boolean): Uint8Array {
  const out = new Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    out[2 * i] = le ? u & 0xff : u >> 8;
    out[2 * i + 1] = le ? u >> 8 : u & 0xff;
  }
  return out;
}
const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const codes = (d: Decoded): string[] => d.diagnostics.map((x) => x.code);

const URLSET = (decl: string): string =>
  `${decl}\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>http://www.ejemplo.com/café</loc></url>\n  <url><loc>http://www.ejemplo.com/日本/😀</loc></url>\n</urlset>\n`;

/** WHATWG index-windows-1252, bytes 80–9F. */
const W1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

describe('StreamDecoder: encodings', () => {
  it('decodes UTF-8 without a BOM', () => {
    const src = URLSET('<?xml version="1.0" encoding="UTF-8"?>');
    const r = whole(utf8(src));
    assert.equal(r.text, src);
    assert.equal(r.encoding, 'utf-8');
    assert.deepEqual(r.diagnostics, []);
  });

  it('strips the UTF-8 BOM', () => {
    const r = whole(readFileSync(`${FIXTURES}utf8-bom.xml`));
    assert.equal(r.text, URLSET('<?xml version="1.0" encoding="UTF-8"?>'));
    assert.deepEqual(r.diagnostics, []);
  });

  it('decodes UTF-16 LE and BE, with and without a BOM', () => {
    const cases: Array<[string, string, string]> = [
      ['utf16le-bom.xml', 'utf-16le', 'UTF-16'],
      ['utf16be-bom.xml', 'utf-16be', 'UTF-16'],
      ['utf16le-no-bom.xml', 'utf-16le', 'UTF-16LE'],
      ['utf16be-no-bom.xml', 'utf-16be', 'UTF-16BE'],
    ];
    for (const [file, encoding, label] of cases) {
      const r = whole(readFileSync(FIXTURES + file));
      assert.equal(r.encoding, encoding, file);
      assert.equal(r.text, URLSET(`<?xml version="1.0" encoding="${label}"?>`), file);
      assert.deepEqual(codes(r), ['encoding/declared-not-utf8'], file);
    }
  });

  it('decodes café in an ISO-8859-1 file (é is the byte E9)', () => {
    const bytes = readFileSync(`${FIXTURES}iso-8859-1-cafe.xml`);
    assert.ok(bytes.includes(0xe9));
    const r = whole(bytes);
    assert.equal(r.encoding, 'windows-1252');
    assert.ok(r.text.includes('<loc>http://www.ejemplo.com/café</loc>'));
    assert.deepEqual(codes(r), ['encoding/declared-not-utf8']);
  });

  it('decodes windows-1252 exactly, € (80) included, whatever TextDecoder does on this runtime', () => {
    const r = whole(readFileSync(`${FIXTURES}windows-1252-euro.xml`));
    assert.ok(r.text.includes('<loc>http://www.ejemplo.com/precio-€-café</loc>'));
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const expected = Array.from({ length: 256 }, (_, i) => (i >= 0x80 && i < 0xa0 ? W1252_HIGH[i - 0x80] : String.fromCharCode(i))).join('');
    for (const label of ['ISO-8859-1', 'latin1', 'x-cp1252']) {
      const decl = latin1(`<?xml version="1.0" encoding="${label}"?>`);
      const got = whole(cat(decl, all));
      assert.equal(got.text.slice(decl.length), expected, label);
      assert.equal(got.invalid, 0);
    }
  });

  it('refuses 81, 8D, 8F, 90 and 9D under the labels windows-1252 and cp1252, as libxml2 (iconv CP1252) does', () => {
    const undefinedBytes = [0x81, 0x8d, 0x8f, 0x90, 0x9d];
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const expected = Array.from({ length: 256 }, (_, i) => (undefinedBytes.includes(i) ? '\ufffd' : i >= 0x80 && i < 0xa0 ? W1252_HIGH[i - 0x80] : String.fromCharCode(i))).join('');
    for (const label of ['windows-1252', 'CP1252']) {
      const decl = latin1(`<?xml version="1.0" encoding="${label}"?>`);
      for (const chunks of [[cat(decl, all)], oneByOne(cat(decl, all))]) {
        const got = decode(chunks, undefined, asciiText);
        assert.equal(got.encoding, 'windows-1252', label);
        assert.equal(got.text.slice(decl.length), expected, label);
        assert.equal(got.invalid, 5, label);
        const invalid = got.diagnostics.filter((d) => d.code === 'encoding/invalid-bytes');
        assert.deepEqual(invalid.map((d) => d.offset), undefinedBytes.map((b) => decl.length + b), label);
        assert.match(invalid[0]?.message ?? '', new RegExp(`invalid windows-1252 byte sequence at byte ${decl.length + 0x81},`));
      }
    }
  });

  it('takes only ASCII under an ASCII label: a byte past 7F is invalid, as libxml2 refuses it', () => {
    for (const label of ['US-ASCII', 'ascii']) {
      const decl = latin1(`<?xml version="1.0" encoding="${label}"?>\n<loc>caf`);
      for (const chunks of [[cat(decl, [0xe9, 0x2f, 0xc3, 0xa9], latin1('</loc>'))], oneByOne(cat(decl, [0xe9, 0x2f, 0xc3, 0xa9], latin1('</loc>')))]) {
        const got = decode(chunks, undefined, asciiText);
        assert.equal(got.encoding, 'us-ascii', label);
        assert.equal(got.text.slice(decl.length), '\ufffd/\ufffd\ufffd</loc>', label);
        assert.equal(got.invalid, 3, label);
        assert.deepEqual(codes(got), ['encoding/declared-not-utf8', 'encoding/invalid-bytes', 'encoding/invalid-bytes', 'encoding/invalid-bytes'], label);
        assert.match(got.diagnostics[0]?.message ?? '', /encoded as us-ascii \(declared\)/);
        assert.equal(got.diagnostics[1]?.offset, decl.length);
        assert.match(got.diagnostics[1]?.message ?? '', new RegExp(`at byte ${decl.length},`));
      }
    }
  });

  it('decodes other declared encodings with TextDecoder', () => {
    const r = whole(cat(latin1('<?xml version="1.0" encoding="ISO-8859-2"?><loc>'), [0xa3, 0xf3, 0x64, 0xbc]));
    assert.equal(r.encoding, 'iso-8859-2');
    assert.ok(r.text.endsWith('<loc>Łódź'));
    const sjis = whole(cat(latin1('<?xml version="1.0" encoding="Shift_JIS"?>'), [0x93, 0xfa, 0x96, 0x7b]));
    assert.ok(sjis.text.endsWith('日本'));
  });

  it('decodes a BOM that contradicts the declaration by the BOM', () => {
    const bytes = cat([0xef, 0xbb, 0xbf], utf8('<?xml version="1.0" encoding="ISO-8859-1"?><loc>café</loc>'));
    const r = whole(bytes);
    assert.equal(r.text, '<?xml version="1.0" encoding="ISO-8859-1"?><loc>café</loc>');
    assert.deepEqual(codes(r), ['encoding/bom-conflict']);
  });

  it('decodes whitespace before the declaration as is, with a warning', () => {
    const r = whole(readFileSync(`${FIXTURES}whitespace-before-declaration.xml`));
    assert.equal(r.text, `\n  ${URLSET('<?xml version="1.0" encoding="UTF-8"?>')}`);
    assert.deepEqual(codes(r), ['xml/declaration-not-at-start']);
  });

  it('reads an unknown label as UTF-8, with an error', () => {
    const r = whole(readFileSync(`${FIXTURES}unknown-label.xml`));
    assert.equal(r.text, URLSET('<?xml version="1.0" encoding="x-klingon"?>'));
    assert.deepEqual(codes(r), ['encoding/unsupported']);
  });

  it('decodes the corpus encoding files', { skip: !existsSync(CORPUS) && 'no ../shared/corpus' }, () => {
    for (const file of readdirSync(`${CORPUS}encoding`)) {
      const bytes = readFileSync(`${CORPUS}encoding/${file}`);
      const r = whole(bytes);
      assert.ok(r.text.startsWith('<?xml version="1.0" encoding="ISO-8859-1"?>\n<urlset'), file);
      assert.ok(r.text.includes('<loc>https://example.com/page1</loc>'), file);
      assert.deepEqual(decode(oneByOne(bytes)), r, file);
    }
  });

  it('handles empty and tiny inputs', () => {
    assert.deepEqual(whole(new Uint8Array(0)), { text: '', encoding: 'utf-8', diagnostics: [], invalid: 0 });
    assert.equal(whole(latin1('<a/>')).text, '<a/>');
    assert.equal(whole(new Uint8Array([0xef, 0xbb, 0xbf])).text, '');
    assert.equal(whole(new Uint8Array([0xff, 0xfe])).text, '');
    const half = whole(new Uint8Array([0xef, 0xbb]));
    assert.equal(half.text, '\ufffd');
    assert.deepEqual(codes(half), ['encoding/invalid-bytes']);
  });

  it('refuses misuse', () => {
    assert.throws(() => new StreamDecoder(3), (e: unknown) => e instanceof SitemapError && e.code === 'ERR_SITEMAP_OPTION');
    const d = new StreamDecoder();
    d.end();
    assert.throws(() => d.write(Uint8Array.of(1)), (e: unknown) => e instanceof SitemapError && e.code === 'ERR_SITEMAP_API');
    assert.equal(d.end(), '');
  });
});

describe('StreamDecoder: invalid bytes', () => {
  it('the hint names the XML declaration for markup only: a text sitemap or URL list has none (sitemaps.org: text files must be UTF-8)', () => {
    const hint = (text: string): string | undefined => whole(Buffer.concat([Buffer.from(text), Buffer.from([0xe9, 0x0a])])).diagnostics[0]?.hint;
    assert.match(hint(' <urlset><loc>https://a.example/caf') ?? '', /declare its real encoding in the XML declaration/);
    for (const text of ['https://a.example/caf', '\n\nhttps://a.example/caf']) {
      assert.equal(hint(text), 'the file is not valid UTF-8: save it as UTF-8 (a text sitemap must be UTF-8, sitemaps.org)');
    }
  });

  it('reports an invalid byte, not a literal U+FFFD (EF BF BD), with its byte offset and text offset', () => {
    const bytes = readFileSync(`${FIXTURES}invalid-utf8.xml`);
    const bad = bytes.indexOf(Buffer.from([0xe9, 0x2d, 0x2d]));
    const r = whole(bytes);
    assert.equal(r.invalid, 1);
    assert.deepEqual(codes(r), ['encoding/invalid-bytes']);
    const d = r.diagnostics[0] as Diagnostic;
    assert.equal(d.severity, 'error');
    assert.match(d.message, new RegExp(`invalid UTF-8 byte sequence at byte ${bad}\\b`));
    assert.ok(r.text.includes('café-\ufffd--\ufffd</loc>'));
    assert.equal(d.offset, r.text.indexOf('\ufffd'));
    assert.deepEqual(decode(oneByOne(bytes)), r);
  });

  it('reports maximal subparts like TextDecoder: a truncated sequence, an overlong, a surrogate, the end of input', () => {
    // "a" E0 80 "b" ED A0 80 "c" F0 9F 98 "d" C0 AF "e" E2 82 <end>
    const bytes = cat(latin1('a'), [0xe0, 0x80], latin1('b'), [0xed, 0xa0, 0x80], latin1('c'), [0xf0, 0x9f, 0x98], latin1('d'), [0xc0, 0xaf], latin1('e'), [0xe2, 0x82]);
    const r = whole(bytes);
    const reference = new TextDecoder('utf-8').decode(bytes, { stream: false });
    assert.equal(r.text, reference);
    const fffd = [...r.text].flatMap((c, i) => (c === '\ufffd' ? [i] : []));
    assert.equal(r.invalid, fffd.length);
    assert.deepEqual(
      r.diagnostics.map((d) => d.offset),
      fffd,
    );
    assert.deepEqual(
      r.diagnostics.map((d) => Number(/at byte (\d+)/.exec(d.message)?.[1])),
      [1, 2, 4, 5, 6, 8, 12, 13, 15],
    );
    for (const window of [4, 5, 16]) assert.deepEqual(decode(oneByOne(bytes), window), whole(bytes, window));
  });

  it('reports lone surrogates and an odd last byte in UTF-16', () => {
    // BOM, "A", lone high D800, "B", lone low DC00, a pair (U+1F600), literal FFFD, then one odd byte.
    const units = [0x41, 0xd800, 0x42, 0xdc00, 0xd83d, 0xde00, 0xfffd];
    const le = cat([0xff, 0xfe], units.flatMap((u) => [u & 0xff, u >> 8]), [0x43]);
    const r = whole(le);
    // The odd last byte is reported at the end of the text, without a U+FFFD of its own (see below).
    assert.equal(r.text, 'A\ufffdB\ufffd😀\ufffd');
    assert.equal(r.invalid, 3);
    assert.deepEqual(
      r.diagnostics.filter((d) => d.code === 'encoding/invalid-bytes').map((d) => [d.offset, Number(/at byte (\d+)/.exec(d.message)?.[1])]),
      [
        [1, 4],
        [3, 8],
        [7, 16],
      ],
    );
    assert.deepEqual(decode(oneByOne(le)), r);
    const be = cat([0xfe, 0xff], units.flatMap((u) => [u >> 8, u & 0xff]));
    assert.equal(whole(be).text, 'A\ufffdB\ufffd😀\ufffd');
    assert.equal(whole(be).invalid, 2);
  });

  it('says a UTF-16 file ends inside a character (an odd last byte, a lead surrogate) and drops those bytes, as libxml2 does', () => {
    const units = (text: string, le: boolean): number[] => [...Buffer.from(text, 'utf16le')].map((_, i, b) => b[le ? i : i ^ 1] as number);
    for (const le of [true, false]) {
      const bom = le ? [0xff, 0xfe] : [0xfe, 0xff];
      for (const cut of [[0x0a], le ? [0x3d, 0xd8] : [0xd8, 0x3d], le ? [0x3d, 0xd8, 0x0a] : [0xd8, 0x3d, 0x00]]) {
        const bytes = cat(bom, units('<a/>\n', le), cut);
        const r = whole(bytes);
        assert.equal(r.text, '<a/>\n', `${le} ${cut}`);
        assert.deepEqual([r.invalid, codes(r)], [1, ['encoding/declared-not-utf8', 'encoding/invalid-bytes']]);
        const name = le ? 'UTF-16LE' : 'UTF-16BE';
        assert.equal(r.diagnostics[1]?.message, `the file ends inside a ${name} character (an odd number of bytes, or half a surrogate pair) at byte 12; dropped, as libxml2 drops it, but XML 1.0 (4.3.3) makes it a fatal error`);
        assert.deepEqual(decode(oneByOne(bytes)), r);
      }
    }
  });

  it(`reports the first ${MAX_INVALID_BYTES_REPORTED} one by one and the total once`, () => {
    const bytes = cat(...Array.from({ length: 25 }, () => [0x61, 0xff]));
    const r = whole(bytes);
    assert.equal(r.invalid, 25);
    assert.equal(r.diagnostics.length, MAX_INVALID_BYTES_REPORTED + 1);
    assert.ok(r.diagnostics.every((d) => d.code === 'encoding/invalid-bytes'));
    assert.match(r.diagnostics.at(-1)?.message ?? '', /^25 invalid UTF-8 byte sequences in all/);
    assert.deepEqual(decode(split(bytes, [7, 8, 30])), r);
  });

  it('locates invalid bytes of a single-byte encoding exactly', () => {
    // A5 is unassigned in ISO-8859-3.
    const decl = latin1('<?xml version="1.0" encoding="ISO-8859-3"?>');
    const r = whole(cat(decl, latin1('ab'), [0xa5], latin1('c')));
    assert.equal(r.text.slice(decl.length), 'ab\ufffdc');
    assert.deepEqual(codes(r), ['encoding/declared-not-utf8', 'encoding/invalid-bytes']);
    assert.match(r.diagnostics[1]?.message ?? '', new RegExp(`at byte ${decl.length + 2}\\b`));
  });
});

describe('StreamDecoder: chunk invariance (fast-check)', () => {
  const windows = fc.constantFrom(4, 7, 64, 1024);

  /** Documents in several encodings, with and without BOM / declaration / leading whitespace. */
  const documents = fc
    .record({
      kind: fc.constantFrom('utf-8', 'utf-8-bom', 'utf-16le-bom', 'utf-16be-bom', 'utf-16le', 'utf-16be', 'windows-1252', 'iso-8859-1'),
      leading: fc.constantFrom('', ' ', '\r\n  '),
      decl: fc.boolean(),
      content: fc.string({ unit: 'binary', maxLength: 700 }),
      raw: fc.uint8Array({ maxLength: 700 }),
    })
    .map(({ kind, leading, decl, content, raw }) => {
      const label = kind.replace(/-bom$/, '');
      const head = `${leading}${decl || kind.startsWith('utf-16') && !kind.endsWith('bom') ? `<?xml version="1.0" encoding="${label}"?>` : ''}<urlset>`;
      switch (kind) {
        case 'utf-8':
          return cat(utf8(head + content));
        case 'utf-8-bom':
          return cat([0xef, 0xbb, 0xbf], utf8(head + content));
        case 'utf-16le-bom':
          return cat([0xff, 0xfe], utf16(head + content, true));
        case 'utf-16be-bom':
          return cat([0xfe, 0xff], utf16(head + content, false));
        case 'utf-16le':
          return utf16(`<?xml version="1.0" encoding="utf-16le"?>${content}`, true);
        case 'utf-16be':
          return utf16(`<?xml version="1.0" encoding="utf-16be"?>${content}`, false);
        default:
          // Without the five bytes the label windows-1252 leaves undefined (libxml2 refuses them).
          return cat(latin1(`<?xml version="1.0" encoding="${label}"?>`), label === 'windows-1252' ? raw.map((b) => ([0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(b) ? 0x20 : b)) : raw);
      }
    });

  /** Valid documents with bytes injected at random places (and maybe cut short). */
  const damaged = fc
    .tuple(documents, fc.array(fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 3 })), { maxLength: 6 }), fc.option(fc.nat()))
    .map(([doc, injections, cut]) => {
      let bytes = doc;
      for (const [at, junk] of injections) {
        const p = at % (bytes.length + 1);
        bytes = cat(bytes.subarray(0, p), junk, bytes.subarray(p));
      }
      return cut === null ? bytes : bytes.subarray(0, cut % (bytes.length + 1));
    });

  const cuts = fc.array(fc.nat({ max: 3000 }), { maxLength: 40 });

  it('gives the same text and diagnostics for any split of valid documents', () => {
    fc.assert(
      fc.property(documents, cuts, windows, (bytes, points, window) => {
        const reference = whole(bytes, window);
        assert.deepEqual(decode(split(bytes, points), window), reference);
        assert.deepEqual(decode(split(bytes, points), window, asciiText), reference);
        // (A window of a few bytes does not reach the declaration: 8-bit bytes are then invalid UTF-8.)
        if (window === 1024) assert.equal(reference.invalid, 0);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same text and diagnostics for any split of damaged documents and random bytes, and counts every U+FFFD', () => {
    const input = fc.oneof(damaged, fc.uint8Array({ maxLength: 1500 }), fc.tuple(fc.constantFrom([0xff, 0xfe], [0xfe, 0xff], [0xef, 0xbb, 0xbf]), fc.uint8Array({ maxLength: 800 })).map(([bom, rest]) => cat(bom, rest)));
    fc.assert(
      fc.property(input, cuts, windows, (bytes, points, window) => {
        const reference = whole(bytes, window);
        assert.deepEqual(decode(split(bytes, points), window), reference);
        // The ASCII fast path takes whole ASCII chunks only between characters (a multi-byte
        // sequence cut by a chunk boundary, then an ASCII chunk, still gives one U+FFFD).
        assert.deepEqual(decode(split(bytes, points), window, asciiText), reference);
        // Every U+FFFD in the text is either an invalid sequence or a literal one in the input.
        // But UTF-16 cut inside a character, whose U+FFFD is dropped and reported at the end of the text.
        const utf16 = reference.encoding.startsWith('utf-16') ? new TextDecoder(reference.encoding) : undefined;
        utf16?.decode(bytes, { stream: true });
        const dropped = utf16?.decode() === '\ufffd' ? 1 : 0;
        const fffd = reference.text.split('\ufffd').length - 1;
        assert.equal(reference.invalid, fffd + dropped - literals(bytes, reference));
        const located = reference.diagnostics.filter((d) => d.code === 'encoding/invalid-bytes' && d.offset !== undefined);
        assert.equal(located.length, Math.min(reference.invalid, MAX_INVALID_BYTES_REPORTED));
        for (const d of located) assert.ok(reference.text[d.offset as number] === '\ufffd' || (dropped === 1 && d.offset === reference.text.length));
      }),
      { numRuns: 400 },
    );
  });

  it('gives the same result one byte at a time for every fixture, with and without the ASCII fast path', () => {
    for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.xml'))) {
      const bytes = readFileSync(FIXTURES + file);
      assert.deepEqual(decode(oneByOne(bytes)), whole(bytes), file);
      assert.deepEqual(decode(oneByOne(bytes), undefined, asciiText), whole(bytes), file);
    }
  });

  it('uses the ASCII fast path only where the text cannot differ', () => {
    let calls = 0;
    const counting = (bytes: Uint8Array): string | undefined => {
      calls++;
      return asciiText(bytes);
    };
    // A UTF-8 sequence cut after its lead byte: the next chunk, though ASCII, must go to the decoder.
    const cut = [utf8('<urlset>caf'), Uint8Array.of(0xc3), utf8('<x/>')];
    assert.deepEqual(decode(cut, 4, counting), decode(cut, 4));
    assert.equal(decode(cut, 4, counting).text, '<urlset>caf\ufffd<x/>');
    // UTF-16 never takes it.
    calls = 0;
    decode([cat([0xff, 0xfe], utf16('<urlset>', true)), utf16('abc', true)], 4, counting);
    assert.equal(calls, 0);
  });
});

/** Literal U+FFFD in the input: EF BF BD in UTF-8, the aligned unit FFFD in UTF-16, none elsewhere. */
function literals(bytes: Uint8Array, decoded: Decoded): number {
  let n = 0;
  if (decoded.encoding === 'utf-8') {
    for (let i = 0; i + 2 < bytes.length; i++) if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) n++;
  } else if (decoded.encoding.startsWith('utf-16')) {
    const le = decoded.encoding === 'utf-16le';
    const bom = (le && bytes[0] === 0xff && bytes[1] === 0xfe) || (!le && bytes[0] === 0xfe && bytes[1] === 0xff) ? 2 : 0;
    for (let i = bom; i + 1 < bytes.length; i += 2) if ((le ? bytes[i + 1] : bytes[i]) === 0xff && (le ? bytes[i] : bytes[i + 1]) === 0xfd) n++;
  }
  return n;
}
