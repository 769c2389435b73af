import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { Diagnostic } from '../../../src/core/diagnostics.js';
import { SitemapError } from '../../../src/core/errors.js';
import { escapeXml } from '../../../src/core/xml/escape.js';
import { XML_TOKENIZER_CODES, XmlTokenizer, type XmlTokenHandler, type XmlTokenizerOptions } from '../../../src/core/xml/tokenizer.js';

// ---- helpers ------------------------------------------------------------------------------------

type Event =
  | ['start', string, [string, string, number, number, number, boolean][], boolean, number, number, number]
  | ['end', string, number, number, number]
  | ['text', string, number, number, number]
  | ['decl', Record<string, string | undefined>, number, number, number]
  | ['pi', string, string, number, number, number]
  | ['doctype', string, number, number, number]
  | ['diag', string, string, number | undefined, number | undefined, number | undefined];

function recorder(events: Event[], diagnostics?: Diagnostic[]): XmlTokenHandler {
  return {
    startTag: (name, attributes, selfClosing, line, column, offset) =>
      events.push(['start', name, attributes.map((a) => [a.name, a.value, a.line, a.column, a.offset, a.truncated === true]), selfClosing, line, column, offset]),
    endTag: (name, line, column, offset) => events.push(['end', name, line, column, offset]),
    text: (text, line, column, offset) => events.push(['text', text, line, column, offset]),
    xmlDeclaration: (d, line, column, offset) => events.push(['decl', { ...d }, line, column, offset]),
    processingInstruction: (target, data, line, column, offset) => events.push(['pi', target, data, line, column, offset]),
    doctype: (text, line, column, offset) => events.push(['doctype', text, line, column, offset]),
    diagnostic: (d) => {
      diagnostics?.push(d);
      events.push(['diag', d.code, d.severity, d.line, d.column, d.offset]);
    },
  };
}

/** Tokenize the chunks; events with adjacent text merged (the first piece's position is kept). */
function tokenize(chunks: readonly string[], options?: XmlTokenizerOptions, diagnostics?: Diagnostic[]): Event[] {
  const raw: Event[] = [];
  const t = new XmlTokenizer(recorder(raw, diagnostics), options);
  for (const chunk of chunks) t.write(chunk);
  t.end();
  return mergeText(raw);
}

function mergeText(events: readonly Event[]): Event[] {
  const out: Event[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (e[0] === 'text' && last !== undefined && last[0] === 'text') last[1] += e[1];
    else out.push(e[0] === 'text' ? [...e] : e);
  }
  return out;
}

function codes(events: readonly Event[]): string[] {
  return events.filter((e) => e[0] === 'diag').map((e) => e[1]);
}

/** The text content of every element called `name`, in order. */
function textsOf(events: readonly Event[], name: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const e of events) {
    if (e[0] === 'start' && e[1] === name) {
      depth++;
      current = '';
    } else if (e[0] === 'end' && e[1] === name) {
      depth--;
      out.push(current);
    } else if (e[0] === 'text' && depth > 0) current += e[1];
  }
  return out;
}

function split(text: string, points: readonly number[]): string[] {
  const cuts = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let last = 0;
  for (const c of cuts) {
    chunks.push(text.slice(last, c));
    last = c;
  }
  chunks.push(text.slice(last));
  return chunks;
}

const fixtureDir = fileURLToPath(new URL('../../fixtures/xml/', import.meta.url));
const corpusDir = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Fixture and corpus files as text (UTF-8, a BOM kept as U+FEFF), gzip files skipped. */
function documents(): { name: string; text: string }[] {
  return [...filesUnder(fixtureDir), ...filesUnder(corpusDir)].flatMap((path) => {
    const bytes = readFileSync(path);
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) return [];
    return [{ name: path, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) }];
  });
}

const fixture = (name: string): string => readFileSync(join(fixtureDir, name), 'utf8');

// ---- event streams ------------------------------------------------------------------------------

describe('XmlTokenizer: event streams', () => {
  it('tokenizes a sitemap with positions', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>https://example.com/?a=1&amp;b=2</loc><lastmod>2024-01-01</lastmod></url>\n</urlset>\n';
    assert.deepEqual(tokenize([xml]), [
      ['decl', { version: '1.0', encoding: 'UTF-8' }, 1, 1, 0],
      ['start', 'urlset', [['xmlns', 'http://www.sitemaps.org/schemas/sitemap/0.9', 2, 9, 47, false]], false, 2, 1, 39],
      ['text', '\n  ', 2, 61, 99],
      ['start', 'url', [], false, 3, 3, 102],
      ['start', 'loc', [], false, 3, 8, 107],
      ['text', 'https://example.com/?a=1&b=2', 3, 13, 112],
      ['end', 'loc', 3, 45, 144],
      ['start', 'lastmod', [], false, 3, 51, 150],
      ['text', '2024-01-01', 3, 60, 159],
      ['end', 'lastmod', 3, 70, 169],
      ['end', 'url', 3, 80, 179],
      ['text', '\n', 3, 86, 185],
      ['end', 'urlset', 4, 1, 186],
    ]);
  });

  it('shares one frozen empty attribute array and reports self-closing elements with an end tag', () => {
    const seen: (readonly unknown[])[] = [];
    const events: Event[] = [];
    const handler = recorder(events);
    const t = new XmlTokenizer({ ...handler, startTag: (n, a, s, l, c, o) => (seen.push(a), handler.startTag(n, a, s, l, c, o)) });
    t.write('<a><b/><c></c><d x="1"/></a>');
    t.end();
    assert.equal(seen[0], seen[1]);
    assert.equal(seen[1], seen[2]);
    assert.ok(Object.isFrozen(seen[0]));
    assert.notEqual(seen[3], seen[0]);
    assert.deepEqual(events.map((e) => e.slice(0, 2).join(' ')), ['start a', 'start b', 'end b', 'start c', 'end c', 'start d', 'end d', 'end a']);
    assert.deepEqual(events[1], ['start', 'b', [], true, 1, 4, 3]);
    assert.deepEqual(events[2], ['end', 'b', 1, 4, 3]);
  });

  it('counts lines at LF, CRLF and lone CR, columns in UTF-16 code units, and normalises line ends in text', () => {
    const xml = '<r>\r\n<a>x\ry</a>\r<b>😀é</b><c/>\n</r>';
    const events = tokenize([xml]);
    assert.deepEqual(events, [
      ['start', 'r', [], false, 1, 1, 0],
      ['text', '\n', 1, 4, 3],
      ['start', 'a', [], false, 2, 1, 5],
      ['text', 'x\ny', 2, 4, 8],
      ['end', 'a', 3, 2, 11],
      ['text', '\n', 3, 6, 15],
      ['start', 'b', [], false, 4, 1, 16],
      ['text', '😀é', 4, 4, 19],
      ['end', 'b', 4, 7, 22],
      ['start', 'c', [], true, 4, 11, 26],
      ['end', 'c', 4, 11, 26],
      ['text', '\n', 4, 15, 30],
      ['end', 'r', 5, 1, 31],
    ]);
  });

  it('decodes the predefined entities and character references in text and attributes', () => {
    const events = tokenize(['<r a="&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x1F600;" b=\'"\' c="x&#10;y\nz\r\nw\tv">&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x1f600;&#0065;</r>']);
    assert.deepEqual(codes(events), []);
    const start = events[0] as Extract<Event, ['start', ...unknown[]]>;
    assert.deepEqual(start[2].map((a) => [a[0], a[1]]), [['a', '<>&"\'AB😀'], ['b', '"'], ['c', 'x\ny z w v']]);
    assert.deepEqual(textsOf(events, 'r'), ['<>&"\'AB😀A']);
  });

  it('keeps undefined entities and invalid character references as written, with a diagnostic each', () => {
    const diagnostics: Diagnostic[] = [];
    const events = tokenize(['<r>caf&eacute; &#0;&#xD800;&#x110000;&#xFFFE;&#99999999999; &nbsp;</r>'], undefined, diagnostics);
    assert.deepEqual(textsOf(events, 'r'), ['caf&eacute; &#0;&#xD800;&#x110000;&#xFFFE;&#99999999999; &nbsp;']);
    assert.deepEqual(codes(events), ['xml/undefined-entity', 'xml/invalid-char-ref', 'xml/invalid-char-ref', 'xml/invalid-char-ref', 'xml/invalid-char-ref', 'xml/invalid-char-ref', 'xml/undefined-entity']);
    assert.deepEqual(diagnostics.map((d) => d.column), [7, 16, 20, 28, 38, 46, 61]);
    for (const d of diagnostics) {
      assert.equal(d.severity, 'error');
      assert.ok(d.message.length > 0 && d.hint !== undefined, d.code);
      assert.equal(d.line, 1);
      assert.equal(d.offset, (d.column as number) - 1);
    }
  });

  it('keeps a raw & literally (text and attributes), with positions inside multi-line attribute values', () => {
    const diagnostics: Diagnostic[] = [];
    const events = tokenize(['<r h="a\n b&c" i="&#;&#x;&#12a;&#X41;&amp">x & y &amp z</r>'], undefined, diagnostics);
    const start = events.find((e) => e[0] === 'start') as Extract<Event, ['start', ...unknown[]]>;
    assert.deepEqual(start[2].map((a) => a[1]), ['a  b&c', '&#;&#x;&#12a;&#X41;&amp']);
    assert.deepEqual(textsOf(events, 'r'), ['x & y &amp z']);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.line, d.column, d.offset]), [
      ['xml/raw-ampersand', 2, 3, 10],
      ['xml/raw-ampersand', 2, 10, 17],
      ['xml/raw-ampersand', 2, 13, 20],
      ['xml/raw-ampersand', 2, 17, 24],
      ['xml/raw-ampersand', 2, 23, 30],
      ['xml/raw-ampersand', 2, 29, 36],
      ['xml/raw-ampersand', 2, 37, 44],
      ['xml/raw-ampersand', 2, 41, 48],
    ]);
  });

  it('delivers the text before a diagnostic first, so events keep document order', () => {
    const events = tokenize(['<r>a & b</r>']);
    assert.deepEqual(events.slice(1, 4), [
      ['text', 'a ', 1, 4, 3],
      ['diag', 'xml/raw-ampersand', 'error', 1, 6, 5],
      ['text', '& b', 1, 6, 5],
    ]);
  });

  it('reads CDATA as text, including ]] and ]]] before the terminator and line ends inside', () => {
    const events = tokenize(['<r><loc><![CDATA[http://a/?x=1&y=<2>]]></loc><c><![CDATA[a]]b]]]]><![CDATA[]]><![CDATA[x\r\ny\rz]]></c></r>']);
    assert.deepEqual(codes(events), []);
    assert.deepEqual(textsOf(events, 'loc'), ['http://a/?x=1&y=<2>']);
    assert.deepEqual(textsOf(events, 'c'), ['a]]b]]x\ny\nz']);
    assert.deepEqual(events[2], ['text', 'http://a/?x=1&y=<2>', 1, 18, 17]);
  });

  it('skips comments (also ones holding markup) and reports processing instructions', () => {
    const events = tokenize(['<?xml-stylesheet type="text/xsl" href="/s.xsl"?><!-- <a> & --><r>a<!---->b<!-- - x - -->c<?php echo "?"; ?>d</r><!-- end -->']);
    assert.deepEqual(codes(events), []);
    assert.deepEqual(textsOf(events, 'r'), ['abcd']);
    assert.deepEqual(events[0], ['pi', 'xml-stylesheet', 'type="text/xsl" href="/s.xsl"', 1, 1, 0]);
    assert.deepEqual(events.find((e) => e[0] === 'pi' && e[1] === 'php'), ['pi', 'php', 'echo "?"; ', 1, 90, 89]);
  });

  it("reports '--' inside a comment, '--->' included, once a comment, however the input is split (XML 1.0 [15])", () => {
    const doc = '<r>a<!-- x -- y ---- -->b<!-- z --->c<!--->--></r>';
    const expected = [['diag', 'xml/malformed-tag', 'error', 1, 12, 11], ['diag', 'xml/malformed-tag', 'error', 1, 33, 32]];
    for (let cut = 0; cut <= doc.length; cut++) {
      const events = tokenize([doc.slice(0, cut), doc.slice(cut)]);
      assert.deepEqual(events.filter((e) => e[0] === 'diag'), expected, `cut at ${cut}`);
      assert.deepEqual(textsOf(events, 'r'), ['abc']);
    }
  });

  it("reports ']]>' in text (XML 1.0 [14]), each one, however the input is split, and keeps the text", () => {
    const doc = '<r>a]]>b]]]>c]]&gt;<![CDATA[]]>]]></r>';
    for (let cut = 0; cut <= doc.length; cut++) {
      const events = tokenize([doc.slice(0, cut), doc.slice(cut)]);
      assert.deepEqual(events.filter((e) => e[0] === 'diag').map((e) => `${e[1]}@${e[4]}`), ['xml/malformed-tag@5', 'xml/malformed-tag@10', 'xml/malformed-tag@32'], `cut at ${cut}`);
      assert.deepEqual(textsOf(events, 'r'), ['a]]>b]]]>c]]>]]>']);
    }
  });

  it('takes U+FEFF outside the root as text, at the start too: its input comes after the byte order mark (textAfterBom)', () => {
    assert.deepEqual(codes(tokenize(['\uFEFF<r/>'])), ['xml/content-before-root']);
    assert.deepEqual(codes(tokenize(['\uFEFF<?xml version="1.0"?><r/>'])), ['xml/content-before-root', 'xml/misplaced-declaration']);
    assert.deepEqual(codes(tokenize(['<?xml version="1.0"?>', '\uFEFF<r/>'])), ['xml/content-before-root']);
    assert.deepEqual(codes(tokenize(['<r/>\uFEFF'])), ['xml/content-after-root']);
  });

  it('refuses a character XML forbids after the root, NUL included, as libxml2 2.13 does (2.9 took a NUL there for the end of the input)', () => {
    for (const doc of ['<r/>\u0000', '<r/>\n<!-- c -->\u0000', '<r/><?pi?> \u0000<r/>', '<r/>\u0001']) assert.deepEqual(codes(tokenize([doc])), ['xml/content-after-root'], JSON.stringify(doc));
  });

  it('parses the XML declaration', () => {
    assert.deepEqual(tokenize(["<?xml version='1.0' encoding='ISO-8859-1' standalone='yes' ?><r/>"])[0], ['decl', { version: '1.0', encoding: 'ISO-8859-1', standalone: 'yes' }, 1, 1, 0]);
    const bad = tokenize(['<?xml encoding="UTF-8" foo="1"?><r/>']);
    assert.deepEqual(codes(bad), ['xml/bad-declaration']);
    assert.deepEqual(bad[1], ['decl', { encoding: 'UTF-8' }, 1, 1, 0]);
    assert.deepEqual(codes(tokenize(['<?xml encoding="UTF-8"?><r/>'])), ['xml/bad-declaration']);
    // Well-formedness, not the handler's business: one without xmlDeclaration gets the check too.
    const diagnostics: Diagnostic[] = [];
    const plain = new XmlTokenizer({ startTag() {}, endTag() {}, text() {}, diagnostic: (d) => diagnostics.push(d) });
    plain.write('<?xml version="2.0"?><r/>');
    plain.end();
    assert.deepEqual(diagnostics.map((d) => d.code), ['xml/bad-declaration']);
    // Only space, tab, CR and LF are whitespace in it (libxml2: "expected '='").
    for (const odd of ['\uFEFF', '\u00A0']) {
      assert.deepEqual(codes(tokenize([`<?xml version="1.0" encoding${odd}="UTF-8"?><r/>`])), ['xml/bad-declaration'], JSON.stringify(odd));
      assert.deepEqual(codes(tokenize([`<?xml version="1.0"${odd}?><r/>`])), ['xml/bad-declaration'], JSON.stringify(odd));
    }
  });

  it('takes no upper-case <?XML as the declaration: a PI target [Xx][Mm][Ll] other than xml is reserved, and libxml2 refuses it', () => {
    for (const target of ['XML', 'Xml', 'xML']) {
      const events = tokenize([`<?${target} version="1.0" encoding="UTF-8"?><r/>`]);
      assert.deepEqual(events.map((e) => e[0] === 'diag' ? e.slice(0, 3) : e[0]), [['diag', 'xml/malformed-tag', 'error'], 'start', 'end'], target);
    }
  });

  it('accepts whitespace before <?xml with a warning, and ignores a declaration elsewhere', () => {
    for (const prefix of ['\n', '  \r\n']) {
      const events = tokenize([`${prefix}<?xml version="1.0"?><r/>`]);
      assert.deepEqual(events.slice(0, 2).map((e) => e[0] === 'diag' ? e.slice(0, 3) : e[0]), [['diag', 'xml/declaration-not-at-start', 'warning'], 'decl'], JSON.stringify(prefix));
    }
    const late = tokenize(['<!-- c --><?xml version="1.0"?><r/>']);
    assert.deepEqual(late.map((e) => e[0] === 'diag' ? e[1] : e[0]), ['xml/misplaced-declaration', 'start', 'end']);
    assert.deepEqual(codes(tokenize(['<r/>\n<?xml version="1.0"?><r/>'])), ['xml/misplaced-declaration', 'xml/content-after-root']);
  });

  it('reports a DOCTYPE and skips it, internal subset, quotes, comments and PIs included', () => {
    const events = tokenize([fixture('doctype-subset.xml')]);
    const doctype = events.find((e) => e[0] === 'doctype');
    assert.ok(doctype !== undefined && doctype[1].startsWith('<!DOCTYPE lolz [') && doctype[1].endsWith(']>'));
    assert.deepEqual(events[1], ['diag', 'xml/doctype', 'warning', 2, 1, 22]);
    assert.deepEqual(textsOf(events, 'lolz'), ['&lol2;&xxe;&gt2;']);
    assert.deepEqual(codes(events), ['xml/doctype', 'xml/undefined-entity', 'xml/undefined-entity', 'xml/undefined-entity', 'xml/undefined-entity']);
    for (const dt of ['<!doctype html>', '<!DOCTYPE r SYSTEM "a>b">', "<!DOCTYPE r PUBLIC '-//x' 'y]z'>", '<!DOCTYPE r [<!ENTITY a "]>">]>']) {
      // XML spells it in capitals (XML 1.0 [28]): libxml2 refuses <!doctype html>.
      const code = dt.startsWith('<!doctype') ? 'xml/malformed-tag' : 'xml/doctype';
      assert.deepEqual(tokenize([`${dt}<r>x</r>`]).map((e) => e[0] === 'diag' ? e[1] : e[0] === 'doctype' ? e[1] : e[0]), [code, dt, 'start', 'text', 'end'], dt);
    }
  });

  it('refuses a DOCTYPE that is not of the form XML 1.0 [28] gives it, as libxml2 does, and still skips it', () => {
    const form = (dt: string): string[] => codes(tokenize([`${dt}<r/>`]));
    for (const dt of ['<!DOCTYPE>', '<!DOCTYPE r SYSTEM>', '<!DOCTYPE r SYSTEM"a">', '<!DOCTYPE r PUBLIC "a">', '<!DOCTYPE r foo>', '<!DOCTYPE r [ junk ]>', '<!DOCTYPE r [ <!ENTITY a "b"> ] x>', '<!DOCTYPE r [<!-- a -- b -->]>']) {
      assert.deepEqual(form(dt), ['xml/doctype', 'xml/malformed-tag'], dt);
    }
    for (const dt of ['<!DOCTYPE r>', '<!DOCTYPE r[]>', '<!DOCTYPE r \n SYSTEM \'a"\' >', '<!DOCTYPE r PUBLIC "-//x" "y" [\n]\n>', '<!DOCTYPE r [ <!ENTITY % pe SYSTEM "x.dtd"> %pe; <?pi ? > ?> <!ATTLIST r a CDATA "&gt;"> ]>']) {
      assert.deepEqual(form(dt), ['xml/doctype'], dt);
    }
  });

  it('refuses a declaration of the internal subset not in its own form, as libxml2 does, and expands nothing', () => {
    const form = (dt: string): string[] => codes(tokenize([`${dt}<r/>`]));
    // Each refused by xmllint --noout as not well-formed.
    for (const dt of [
      '<!DOCTYPE r [ <!ENTITY x> ]>', '<!DOCTYPE r [ <!ENTITY x y> ]>', '<!DOCTYPE r [ <!ENTITY x SYSTEM> ]>', '<!DOCTYPE r [ <!ENTITY x SYSTEM "a" NDATA> ]>',
      '<!DOCTYPE r [ <!ENTITY x "%y;"> ]>', '<!DOCTYPE r [ <!ENTITY 1x "y"> ]>', '<!DOCTYPE r [ <!ENTITY x "y" junk> ]>', '<!DOCTYPE r [ <!ELEMENT r> ]>',
      '<!DOCTYPE r [ <!ELEMENT r FOO> ]>', '<!DOCTYPE r [ <!ELEMENT r (a> ]>', '<!DOCTYPE r [ <!ELEMENT r (a,)> ]>', '<!DOCTYPE r [ <!ELEMENT r (#PCDATA|a)> ]>',
      '<!DOCTYPE r [ <!ATTLIST r a CDATA> ]>', '<!DOCTYPE r [ <!ATTLIST r a FOO #IMPLIED> ]>', '<!DOCTYPE r [ <!ATTLIST r a CDATA "<"> ]>', '<!DOCTYPE r [ <!NOTATION n> ]>',
      '<!DOCTYPE r PUBLIC "-//x{" "x.dtd">', '<!DOCTYPE 1r>', '<!DOCTYPE r [ <?xml version="1.0"?> ]>',
    ]) {
      assert.deepEqual(form(dt), ['xml/doctype', 'xml/malformed-tag'], dt);
    }
    // Each accepted by it.
    for (const dt of [
      `<!DOCTYPE r [ <!ENTITY x SYSTEM "a" NDATA n> <!ENTITY % p PUBLIC '-//a//EN' 'b'> <!NOTATION n PUBLIC "p"> ]>`,
      '<!DOCTYPE r [ <!ELEMENT r ((a|b)+,(c?,d*))> <!ELEMENT a ( #PCDATA | b )* > <!ELEMENT b EMPTY> <!ELEMENT x:y ANY> ]>',
      `<!DOCTYPE r [ <!ATTLIST r xmlns:x CDATA #FIXED 'u' a ID #IMPLIED b (x|y) "x" c NOTATION (n) #REQUIRED d CDATA "&amp; &#65;"> ]>`,
      '<!DOCTYPE r [ <!ENTITY \u00e9 "a<b &#38; &c;"> <?xml-stylesheet href="x"?> ]>',
    ]) {
      assert.deepEqual(form(dt), ['xml/doctype'], dt);
    }
  });

  it('checks the internal subset as libxml2 does: PE references, nested content models, character references, PIs (expanding nothing into the document)', () => {
    const form = (dt: string): string[] => codes(tokenize([`${dt}<r/>`]));
    const nested = (n: number): string => Array.from({ length: n }, (_, i) => `<!ENTITY e${i} "${i === 0 ? 'x' : `&e${i - 1};`}">`).join('') + `<!ATTLIST r a CDATA "&e${n - 1};">`;
    const chain = (n: number): string => Array.from({ length: n }, (_, i) => `<!ENTITY % a${i} '&#37;a${i + 1};'>`).join('') + `<!ENTITY % a${n} '<!ELEMENT r ANY>'>`;
    // Each refused as not well-formed by libxml2 2.13 (xmllint-wasm, as in validate-differential) and 2.9.14 (xmllint) alike, but where told.
    for (const dt of [
      // A PE reference to no PE declared before it in a standalone document (2.9 refused it without an external subset too).
      "<?xml version='1.0' standalone='yes'?><!DOCTYPE r [ <!ENTITY % p '&#37;q;'> %p; ]>", '<?xml version="1.0" standalone="yes"?><!DOCTYPE r SYSTEM "x.dtd" [ %p; ]>',
      // Its replacement text is no run of declarations, the first declaration of the name being the one read.
      "<!DOCTYPE r [ <!ENTITY % p 'x'> %p; ]>", "<!DOCTYPE r [ <!ENTITY % p 'x'> <!ENTITY % p '<!ELEMENT r ANY>'> %p; ]>",
      "<!DOCTYPE r [ <!ENTITY % p '<!ELEMENT r ANY> <!ELEMENT'> %p; ]>", "<!DOCTYPE r [ <!ENTITY % p '<!ELEMENT r (a,(b|c)|d)>'> %p; ]>",
      "<!DOCTYPE r [ <!ENTITY % p '&#37;'> %p; ]>", "<!DOCTYPE r [ <!ENTITY % p '&#38;'> %p; ]>", "<!DOCTYPE r [ <!ENTITY % p '<![INCLUDE[ ]]>'> %p; ]>",
      `<!DOCTYPE r [ <!ENTITY % p '<!ENTITY a "&#38;#0;">'> %p; ]>`, "<!DOCTYPE r [ <!ENTITY % p '&#37;p;'> %p; ]>", `<!DOCTYPE r [ ${chain(20)} %a0; ]>` /* 2.13's depth; 2.9's 40 */,
      // A children content model whose brackets do not pair, or a group with both ',' and '|'.
      '<!DOCTYPE r [ <!ELEMENT r (a,(b|c)|d)> ]>', '<!DOCTYPE r [ <!ELEMENT r (a|b,c)> ]>', '<!DOCTYPE r [ <!ELEMENT r (a)) > ]>', '<!DOCTYPE r [ <!ELEMENT r ((a) > ]>', '<!DOCTYPE r [ <!ELEMENT r (a,(b)> ]>',
      '<!DOCTYPE r [ <!ELEMENT r (a,(b,(c,(d|e)+)?)*> ]>', '<!DOCTYPE r [ <!ELEMENT r (a,(b,(c,(d|e,f)+)?)*)> ]>',
      // A character reference to no XML Char, in an entity value or an attribute default.
      "<!DOCTYPE r [ <!ENTITY a '&#0;'> ]>", "<!DOCTYPE r [ <!ENTITY % a 'x&#x1;'> ]>", "<!DOCTYPE r [ <!ENTITY a '&#xD800;'> ]>", "<!DOCTYPE r [ <!ENTITY a '&#x110000;'> ]>",
      "<!DOCTYPE r [ <!ATTLIST r a CDATA '&#xFFFE;'> ]>",
      // An entity's system identifier with a fragment.
      "<!DOCTYPE r [ <!ENTITY a SYSTEM 'x#y'> ]>", "<!DOCTYPE r [ <!ENTITY % a PUBLIC 'p' 'x#y'> ]>",
      // A PI whose target is no name, is xml, or is not followed by whitespace.
      '<!DOCTYPE r [ <? pi?> ]>', '<!DOCTYPE r [ <?1pi x?> ]>', '<!DOCTYPE r [ <?xml?> ]>', '<!DOCTYPE r [ <?XML?> ]>', '<!DOCTYPE r [ <?pi@x?> ]>',
      // An attribute default's entity reference (WFCs of XML 1.0 §3.1 and §4.1): to no entity declared before it (bound as a
      // PE reference is, where no PE reference came before and there is no external subset, or standalone), to an external or
      // unparsed one, to one whose text has a '<', a bare '&', a reference to no Char or to such an entity, or refers back to itself.
      '<!DOCTYPE r [ <!ATTLIST a b CDATA "&undeclared;"> ]>', '<!DOCTYPE r [ <!ATTLIST r b CDATA "&u;"> <!ENTITY u "x"> ]>', '<!DOCTYPE r [ <!ATTLIST r b CDATA "&u;"> %p; ]>',
      '<?xml version="1.0" standalone="yes"?><!DOCTYPE r SYSTEM "x.dtd" [ <!ATTLIST r b CDATA "&u;"> ]>', '<!DOCTYPE r [ <!ATTLIST r b CDATA #FIXED "x&u;"> ]>',
      '<!DOCTYPE r [ <!ENTITY u SYSTEM "x"> <!ATTLIST r b CDATA "&u;"> ]>', '<!DOCTYPE r [ <!ENTITY u SYSTEM "x" NDATA n> <!ATTLIST r b CDATA "&u;"> ]>',
      '<!DOCTYPE r [ <!ENTITY u "&#60;"> <!ATTLIST r b CDATA "&u;"> ]>', '<!DOCTYPE r [ <!ENTITY u "&v;"> <!ATTLIST r b CDATA "&u;"> ]>',
      '<!DOCTYPE r [ <!ENTITY u "&v;"> <!ENTITY v "&u;"> <!ATTLIST r b CDATA "&u;"> ]>', '<!DOCTYPE r [ <!ENTITY u "a&#38;b"> <!ATTLIST r b CDATA "&u;"> ]>',
      '<!DOCTYPE r [ <!ENTITY u "&#38;#0;"> <!ATTLIST r b CDATA "&u;"> ]>', '<!DOCTYPE r [ <!ENTITY v SYSTEM "x"> <!ENTITY u "&v;"> <!ATTLIST r b CDATA "&u;"> ]>',
      `<!DOCTYPE r [ ${nested(20)} ]>` /* 2.13's depth */,
    ]) {
      assert.deepEqual(form(dt).filter((c) => c !== 'xml/doctype'), ['xml/malformed-tag'], dt);
    }
    // Each accepted by both, but where told.
    for (const dt of [
      '<!DOCTYPE r SYSTEM "x.dtd" [ %p; ]>', '<!DOCTYPE r [ %p; <!ENTITY % p "<!ELEMENT r ANY>"> ]>', '<!DOCTYPE r [ <!ENTITY p "x"> %p; ]>', '<!DOCTYPE r [ <!ENTITY % e SYSTEM "x.dtd"> %e; %p; ]>' /* 2.13; 2.9 refused these three */,
      "<!DOCTYPE r [ <!ENTITY % p '&#37;q;'> %p; %r; ]>", "<!DOCTYPE r [ <!ENTITY % p '<!ELEMENT r ANY>'>%p;<!ELEMENT a ANY> ]>", "<!DOCTYPE r [ <!ENTITY % p ' <!-- c --><?pi x?>'> %p; %p; ]>",
      "<!DOCTYPE r [ <!ENTITY % p '&#60;!ELEMENT r ANY>'> %p; ]>", `<!DOCTYPE r [ <!ENTITY % p '<!ENTITY &#37; q "<!ELEMENT r ANY>">'> %p; %q; ]>`,
      "<!DOCTYPE r [ <!ENTITY % q '<!ELEMENT r ANY>'> <!ENTITY % p '&#37;q;'> %p; ]>", "<!DOCTYPE r [ <!ENTITY % p 'x'> ]>", "<!DOCTYPE r [ <!ENTITY % p SYSTEM 'y'> %p; %p; ]>",
      `<!DOCTYPE r [ ${chain(19)} %a0; ]>`, '<!DOCTYPE r SYSTEM "x#y">',
      '<!DOCTYPE r [ <!ELEMENT r (a,(b|c)*)+> <!ELEMENT a ((a|b)|(c|d))> <!ELEMENT b (a,(b,(c,(d|e)+)?)*)> <!ELEMENT c ((a),(b))> ]>',
      "<!DOCTYPE r [ <!ENTITY a '&#x10FFFF;&#xFFFD;&#xE000;&#xD7FF;&#9;&#0000065;'> <!ATTLIST r a CDATA '&#x10FFFF;'> ]>",
      '<!DOCTYPE r [ <?pi?> <?pix?> <?xml-x y?> <?xmlfoo?> <?pi ]> ?> ]>',
      '<!DOCTYPE r SYSTEM "x.dtd" [ <!ATTLIST r b CDATA "&u;"> ]>', '<!DOCTYPE r [ %p; <!ATTLIST r b CDATA "&u;"> ]>' /* 2.13; 2.9 refused it */,
      `<!DOCTYPE r [ <!ENTITY % p '<!ENTITY u "x">'> %p; <!ATTLIST r b CDATA "&u;"> ]>`, '<!DOCTYPE r [ <!ENTITY u "&v;"> <!ENTITY v "y"> <!ATTLIST r b CDATA "&u;&amp;&#65;" c CDATA "&u;"> ]>',
      '<!DOCTYPE r [ <!ENTITY u "&#38;#38;v;"> <!ATTLIST r b CDATA "&u;"> ]>', '<!DOCTYPE r [ <!ENTITY u "x"> <!ENTITY u "&#60;"> <!ATTLIST r b CDATA "&u;"> ]>',
      '<!DOCTYPE r [ <!ENTITY lt "&#38;#60;"> <!ATTLIST r b CDATA "&lt;"> ]>', '<!DOCTYPE r [ <!ENTITY u "<"> <!ENTITY v "&w;"> <!ATTLIST r b CDATA "x"> ]>',
      `<!DOCTYPE r [ ${nested(19)} ]>` /* 2.13; 2.9 refused 9 nested ("entity reference loop") */,
      // Each entity's text is read once: not 10^18 references.
      `<!DOCTYPE r [ <!ENTITY e0 "x"> ${Array.from({ length: 18 }, (_, i) => `<!ENTITY e${i + 1} "${`&e${i};`.repeat(10)}">`).join(' ')} <!ATTLIST r b CDATA "&e18;"> ]>`,
    ]) {
      assert.deepEqual(form(dt).filter((c) => c !== 'xml/doctype'), [], dt);
    }
  });

  it('refuses, never throws, an internal subset whose check would overflow the stack, and nests groups 256 deep as libxml2 2.13', () => {
    const form = (dt: string): string[] => codes(tokenize([`${dt}<r/>`]));
    // A RegExp's backtracking ran out of stack on these (RangeError out of write()).
    for (const dt of [`<!DOCTYPE r [ <!ATTLIST r a (${'x|'.repeat(4_000_000)}y) #IMPLIED> ]>`, `<!DOCTYPE r [ <!ELEMENT r ${'('.repeat(300_000)}a${')'.repeat(300_000)}> ]>`]) {
      assert.deepEqual(form(dt), ['xml/doctype', 'xml/malformed-tag']);
    }
    assert.deepEqual(form(`<!DOCTYPE r [ <!ELEMENT r ${'('.repeat(256)}a${')'.repeat(256)}> ]>`), ['xml/doctype']);
    assert.deepEqual(form(`<!DOCTYPE r [ <!ELEMENT r (a,${'('.repeat(256)}a${')'.repeat(256)})> ]>`), ['xml/doctype', 'xml/malformed-tag']);
  });

  it('refuses a DOCTYPE after the root element started or after another one, and CDATA outside the root (XML 1.0 [22], [28])', () => {
    const diags = (doc: string): string[] => tokenize([doc]).filter((e) => e[0] === 'diag').map((e) => `${e[1]}@${e[4]}`);
    assert.deepEqual(diags('<!DOCTYPE r><!DOCTYPE r><r/>'), ['xml/doctype@1', 'xml/misplaced-declaration@13']);
    assert.deepEqual(diags('<r><!DOCTYPE r></r>'), ['xml/misplaced-declaration@4']);
    assert.deepEqual(diags('<r/><!DOCTYPE r>'), ['xml/misplaced-declaration@5']);
    assert.deepEqual(diags('<![CDATA[]]><r/>'), ['xml/content-before-root@1']);
    assert.deepEqual(diags('<r/><![CDATA[ ]]><![CDATA[x]]>'), ['xml/content-after-root@5']);
    assert.deepEqual(diags('<r><![CDATA[]]></r>'), []);
  });
});

// ---- recovery -----------------------------------------------------------------------------------

describe('XmlTokenizer: recovery', () => {
  it('keeps a raw < that does not start a tag', () => {
    const events = tokenize(['<r>a < b <3 <= </ x <!x <?</r>']);
    assert.deepEqual(textsOf(events, 'r'), ['a < b <3 <= </ x <!x <?']);
    assert.deepEqual(codes(events), Array(6).fill('xml/raw-less-than'));
  });

  it('closes up to the matching open element on a mismatched end tag, and ignores a stray one', () => {
    const events = tokenize(['<r><url><loc>a</url><url><loc>b</lo></loc></url></x></r>']);
    assert.deepEqual(events.map((e) => (e[0] === 'diag' ? e[1] : `${e[0]} ${e[1]}`)), [
      'start r', 'start url', 'start loc', 'text a',
      'xml/mismatched-tag', 'end loc', 'end url',
      'start url', 'start loc', 'text b',
      'xml/mismatched-tag', 'end loc', 'end url',
      'xml/mismatched-tag', 'end r',
    ]);
    assert.deepEqual(codes(tokenize(['<r/></r>'])), ['xml/mismatched-tag']);
  });

  it('closes unclosed elements at the end of input, innermost first', () => {
    const events = tokenize(['<r>\n<a><b>text']);
    assert.deepEqual(events.slice(-6), [
      ['diag', 'xml/unclosed-element', 'error', 2, 11, 14],
      ['end', 'b', 2, 11, 14],
      ['diag', 'xml/unclosed-element', 'error', 2, 11, 14],
      ['end', 'a', 2, 11, 14],
      ['diag', 'xml/unclosed-element', 'error', 2, 11, 14],
      ['end', 'r', 2, 11, 14],
    ]);
  });

  it('reports truncation inside a tag, an attribute, a comment, CDATA, a PI, a DOCTYPE, and an unfinished <', () => {
    const cases: [string, string][] = [
      ['<r><a', 'a start tag'], ['<r><a x="1', 'a start tag'], ['<r></r', 'an end tag'], ['<r><!-- x', 'a comment'],
      ['<r><![CDATA[x]', 'a CDATA section'], ['<r><?pi x?', 'a processing instruction'], ['<!DOCTYPE r [ <!ENTITY a "b">', 'the DOCTYPE declaration'],
      ['<r><', 'markup'], ['<r><!-', 'markup'], ['<r><![CDA', 'markup'],
    ];
    for (const [xml, where] of cases) {
      const diagnostics: Diagnostic[] = [];
      tokenize([xml], undefined, diagnostics);
      const truncated = diagnostics.find((d) => d.code === 'xml/truncated');
      assert.ok(truncated !== undefined && truncated.message.endsWith(where), `${xml}: ${JSON.stringify(diagnostics)}`);
    }
    const cdata = tokenize(['<r><![CDATA[abc]]']);
    assert.deepEqual(textsOf(cdata, 'r'), ['abc]]']);
    const truncatedFile = tokenize([fixture('truncated.xml')]);
    assert.deepEqual(textsOf(truncatedFile, 'loc'), ['http://example.com/1', 'http://exa']);
    assert.deepEqual(codes(truncatedFile), ['xml/truncated', 'xml/unclosed-element', 'xml/unclosed-element', 'xml/unclosed-element']);
  });

  it('reports content before and after the root element once each, still delivering later elements', () => {
    const events = tokenize(['  hello <r/> tail <x>y</x> more']);
    assert.deepEqual(events.map((e) => (e[0] === 'diag' ? `${e[1]} ${e[4]}` : `${e[0]} ${e[1]}`)), [
      'xml/content-before-root 3', 'start r', 'end r', 'xml/content-after-root 14', 'start x', 'text y', 'end x',
    ]);
    assert.deepEqual(codes(tokenize(['<r/><r/>'])), ['xml/content-after-root']);
    assert.deepEqual(codes(tokenize(['   '])), ['xml/no-root-element']);
    assert.deepEqual(codes(tokenize([''])), ['xml/no-root-element']);
    assert.deepEqual(codes(tokenize(['https://example.com/a\nhttps://example.com/b\n'])), ['xml/content-before-root', 'xml/no-root-element']);
  });

  it('recovers from malformed attributes and tags', () => {
    const events = tokenize(['<r a=1 b c = "2" d="3"e="4" f="5" f="6" "junk" g=\'x<y\' h=>x</r x><s/ ><t<u>']);
    const start = events.find((e) => e[0] === 'start') as Extract<Event, ['start', ...unknown[]]>;
    assert.deepEqual(start[2].map((a) => [a[0], a[1]]), [['a', '1'], ['b', ''], ['c', '2'], ['d', '3'], ['e', '4'], ['f', '5'], ['junk', ''], ['g', 'x<y'], ['h', '']]);
    assert.deepEqual(codes(events), [
      'xml/malformed-attribute', // a=1 unquoted
      'xml/malformed-attribute', // b without value
      'xml/malformed-attribute', // no whitespace before e
      'xml/duplicate-attribute', // f twice
      'xml/malformed-attribute', // a stray quote (reported once per tag)
      'xml/malformed-attribute', // junk without value
      'xml/malformed-attribute', // < in g
      'xml/malformed-attribute', // h without value
      'xml/malformed-tag', // </r x>
      'xml/malformed-tag', // <s/ > (read as self-closing)
      'xml/content-after-root',
      'xml/malformed-tag', // <t<u>
      'xml/unclosed-element', 'xml/unclosed-element',
    ]);
    assert.deepEqual(events.filter((e) => e[0] === 'start').map((e) => e[1]), ['r', 's', 't', 'u']);
  });

  it('finds a duplicate among many attributes', () => {
    const attributes = Array.from({ length: 12 }, (_, k) => ` a${k}="${k}"`).join('');
    const events = tokenize([`<r${attributes} a10="x" a0="y" b="z"/>`]);
    assert.deepEqual(codes(events), ['xml/duplicate-attribute', 'xml/duplicate-attribute']);
    const start = events.find((e) => e[0] === 'start') as Extract<Event, ['start', ...unknown[]]>;
    assert.deepEqual(start[2].map((a) => a[1]), [...Array.from({ length: 12 }, (_, k) => String(k)), 'z']);
  });

  it('keeps 256 attributes of a start tag at most (budget/attributes, reported once): memory does not grow with a hostile tag', () => {
    const attributes = Array.from({ length: 1000 }, (_, k) => ` a${k}=""`).join('');
    const events = tokenize([`<r${attributes} a0="again"><s${attributes}/></r>`]);
    assert.deepEqual(codes(events), ['budget/attributes']);
    const starts = events.filter((e) => e[0] === 'start') as Extract<Event, ['start', ...unknown[]]>[];
    for (const start of starts) assert.deepEqual(start[2].map((a) => a[0]), Array.from({ length: 256 }, (_, k) => `a${k}`));
    // At the first attribute not kept, a256.
    const at = '<r'.length + attributes.indexOf(' a256=') + 1;
    assert.deepEqual(events.find((e) => e[0] === 'diag')?.slice(3), [1, at + 1, at]);
  });

  it('recovers from everything in the recovery fixture, keeping the good URLs', () => {
    const events = tokenize([fixture('recovery.xml')]);
    assert.deepEqual(textsOf(events, 'loc'), ['http://example.com/a?x=1&y=2', 'http://example.com/b &eacute; ', 'http://example.com/c', 'http://example.com/d', 'http://example.com/after']);
    assert.deepEqual(new Set(codes(events)), new Set([
      'xml/raw-ampersand', 'xml/malformed-tag', 'xml/undefined-entity', 'xml/mismatched-tag', 'xml/malformed-attribute',
      'xml/duplicate-attribute', 'xml/content-after-root', 'xml/misplaced-declaration',
    ]));
  });

  it('gives every diagnostic a registered code and severity, a message and a position', () => {
    for (const { text } of documents().filter((d) => d.name.includes('fixtures'))) {
      const diagnostics: Diagnostic[] = [];
      tokenize([text], undefined, diagnostics);
      for (const d of diagnostics) {
        assert.equal(XML_TOKENIZER_CODES[d.code], d.severity, d.code);
        assert.ok(d.message.length > 0);
        assert.ok(Number.isInteger(d.line) && (d.line as number) >= 1 && Number.isInteger(d.column) && (d.column as number) >= 1 && Number.isInteger(d.offset));
      }
    }
  });
});

// ---- budgets ------------------------------------------------------------------------------------

describe('XmlTokenizer: budgets', () => {
  it('skips elements deeper than maxDepth and keeps its state consistent', () => {
    const events = tokenize(['<a><b><c><d>deep<e/></d></c>x</b><b>y</b></a>'], { maxDepth: 2 });
    assert.deepEqual(events.map((e) => (e[0] === 'diag' ? e[1] : `${e[0]} ${e[1]}`)), [
      'start a', 'start b', 'budget/depth', 'text x', 'end b', 'start b', 'text y', 'end b', 'end a',
    ]);
    const unclosed = tokenize(['<a><b><c><d>'], { maxDepth: 2 });
    assert.deepEqual(codes(unclosed), ['budget/depth', 'xml/unclosed-element', 'xml/unclosed-element', 'xml/unclosed-element']);
  });

  it('cuts a long text run or attribute value at maxValueLength and says so', () => {
    const events = tokenize(['<r><a>12345', '67<!-- -->89</a><b x="abcdefghij" y="abc&amp;&amp;&amp;">ok</b><c><![CDATA[1234]]>5678</c></r>'], { maxValueLength: 6 });
    assert.deepEqual(textsOf(events, 'a'), ['123456']);
    assert.deepEqual(textsOf(events, 'b'), ['ok']);
    assert.deepEqual(textsOf(events, 'c'), ['123456']);
    const b = events.find((e) => e[0] === 'start' && e[1] === 'b') as Extract<Event, ['start', ...unknown[]]>;
    assert.deepEqual(b[2].map((a) => [a[0], a[1], a[5]]), [['x', 'abcdef', true], ['y', 'abc&&&', false]]);
    assert.deepEqual(codes(events), ['budget/value-length', 'budget/value-length', 'budget/value-length']);
    assert.deepEqual(events.slice(2, 4), [['text', '123456', 1, 7, 6], ['diag', 'budget/value-length', 'error', 1, 7, 6]]);
  });

  it('bounds a comment as a value, whole or in chunks, as libxml2 refuses one of over 10,000,000 characters', () => {
    const doc = '<r><!--123456--><!--1234567--></r>';
    for (const chunks of [[doc], doc.match(/.{1,3}/g) as string[]]) {
      const diagnostics = tokenize(chunks, { maxValueLength: 6 }).filter((e) => e[0] === 'diag');
      assert.deepEqual(diagnostics.map((e) => `${e[1]}@${e[5]}`), ['budget/value-length@16'], chunks.join('|'));
    }
  });

  it('an XML declaration longer than maxValueLength is budget/value-length, not read cut short as a malformed one', () => {
    const events = tokenize(['<?xml version="1.0" encoding="UTF-8"?><r/>'], { maxValueLength: 8 });
    assert.deepEqual(codes(events), ['budget/value-length']);
    assert.equal(events.some((e) => e[0] === 'decl'), false);
  });

  it('does not split a surrogate pair when cutting', () => {
    const events = tokenize(['<r>ab😀</r>'], { maxValueLength: 3 });
    assert.deepEqual(textsOf(events, 'r'), ['ab']);
  });

  it('cuts names longer than maxNameLength', () => {
    const long = 'n'.repeat(20);
    const events = tokenize([`<${long} ${long}="1"><?${long}?></${long}>`], { maxNameLength: 8 });
    assert.deepEqual(events.filter((e) => e[0] !== 'diag').map((e) => e.slice(0, 2)), [['start', 'nnnnnnnn'], ['pi', 'nnnnnnnn'], ['end', 'nnnnnnnn']]);
    assert.deepEqual(codes(events), ['budget/name-length', 'budget/name-length', 'budget/name-length', 'budget/name-length']);
  });
});

// ---- API ----------------------------------------------------------------------------------------

describe('XmlTokenizer: API misuse throws with a code', () => {
  const noop: XmlTokenHandler = { startTag() {}, endTag() {}, text() {}, diagnostic() {} };
  const code = (c: string) => (error: unknown) => error instanceof SitemapError && error.code === c;

  it('refuses bad options, non-string chunks, writes after end and re-entrant calls', () => {
    assert.throws(() => new XmlTokenizer(noop, { maxDepth: 0 }), code('ERR_SITEMAP_OPTION'));
    assert.throws(() => new XmlTokenizer(noop, { maxValueLength: 1.5 }), code('ERR_SITEMAP_OPTION'));
    const t = new XmlTokenizer(noop);
    assert.throws(() => t.write(new Uint8Array(1) as unknown as string), { code: 'ERR_SITEMAP_API', message: /takes a string/ });
    t.write('<r/>');
    t.end();
    assert.throws(() => t.write('x'), { code: 'ERR_SITEMAP_API', message: /after end\(\)/ });
    assert.throws(() => t.end(), { code: 'ERR_SITEMAP_API', message: /after end\(\)/ });
    const inner = new XmlTokenizer({ ...noop, startTag: () => inner.write('x') });
    assert.throws(() => inner.write('<r>'), { code: 'ERR_SITEMAP_API', message: /from inside a handler/ });
    assert.throws(() => inner.write('<r>'), { code: 'ERR_SITEMAP_API', message: /after a handler threw/ });
  });
});

// ---- characters XML forbids ----------------------------------------------------------------------

describe('XmlTokenizer: characters XML 1.0 forbids (§2.2 Char)', () => {
  // Not Char: #x0-#x8, #xB, #xC, #xE-#x1F, #xFFFE, #xFFFF, and surrogates that are not a pair.
  const FORBIDDEN = ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u000e', '\u001f', '\ufffe', '\uffff', '\ud800', '\udbff', '\udc00', '\udfff'];
  // Char's edges, and a pair: none of them is reported.
  const ALLOWED = ['\t', '\n', ' ', '\u007f', '\u0085', '\ud7ff', '\ue000', '\ufffd', '\ud800\udc00', '\udbff\udfff'];

  it('reports each one, wherever it is: text, CDATA, an attribute value, a comment, a PI, a DOCTYPE', () => {
    for (const bad of FORBIDDEN) {
      const shown = JSON.stringify(bad);
      const diagnostics: Diagnostic[] = [];
      const events = tokenize([`<!DOCTYPE r${bad} []><r a="x${bad}y"><!-- ${bad} --><?pi ${bad}?><l>https://e.com/${bad}</l><c><![CDATA[${bad}]]></c></r>`], undefined, diagnostics);
      assert.deepEqual(codes(events).filter((c) => c !== 'xml/doctype'), Array(6).fill('xml/invalid-char'), shown);
      // The character is kept, and the text before it is delivered first.
      assert.deepEqual(textsOf(events, 'l'), [`https://e.com/${bad}`], shown);
      const inText = events.findIndex((e) => e[0] === 'diag' && e[4] === 63);
      assert.deepEqual(events[inText - 1]?.[1], 'https://e.com/', shown);
      assert.deepEqual(diagnostics.filter((d) => d.code === 'xml/invalid-char').map((d) => d.column), [1, 24, 33, 38, 63, 80], shown);
      assert.ok(diagnostics.every((d) => d.code !== 'xml/invalid-char' || (d.severity === 'error' && d.message.includes('U+'))), shown);
    }
  });

  it('reports none of the allowed characters at the edges of Char', () => {
    for (const ok of ALLOWED) {
      const events = tokenize([`<r a="x${ok}y"><!-- ${ok} --><l>https://e.com/${ok}</l><c><![CDATA[${ok}]]></c></r>`]);
      assert.deepEqual(codes(events), [], JSON.stringify(ok));
    }
  });

  it('gives the same events however the input is split, a pair split between chunks included', () => {
    for (const c of [...FORBIDDEN, ...ALLOWED]) {
      const text = `<r a="${c}${c}"><l>a${c}b&amp;${c}\r\n${c}</l><!--${c}--><c><![CDATA[${c}]]>${c}</c>${c}</r>`;
      const whole = tokenize([text]);
      assert.deepEqual(tokenize(text.split('')), whole, JSON.stringify(c));
      for (let k = 1; k < text.length; k++) assert.deepEqual(tokenize([text.slice(0, k), text.slice(k)]), whole, `${JSON.stringify(c)} at ${k}`);
    }
  });

  it('starts a name with what XML 1.0 (fifth edition) NameStartChar allows, as libxml2 does: U+FEFF and U+10000–U+EFFFF, not U+F0000 on', () => {
    for (const [c, ok] of [['\ufeff', true], ['\ud800\udc00', true], ['\udb7f\udfff', true], ['\udb80\udc00', false], ['\udbff\udffd', false]] as const) {
      for (const name of [`${c}x`, `x${c}`]) {
        const events = tokenize([`<?${name} d?><${name} ${name}="v"/>`]);
        assert.deepEqual(codes(events).length === 0, ok, `${JSON.stringify(name)}: ${codes(events).join(', ')}`);
        if (ok) assert.deepEqual(events.map((e) => e[0] === 'start' ? e[1] : e[0]), ['pi', name, 'end'], JSON.stringify(name));
      }
    }
  });

  it('finds them in a long text run in one scan per chunk (no quadratic work)', () => {
    const text = `<r>${'\u0001a'.repeat(50_000)}</r>`;
    const started = performance.now();
    const events = tokenize([text]);
    assert.equal(codes(events).length, 50_000);
    assert.ok(performance.now() - started < 2_000);
  });
});

// ---- chunk invariance ---------------------------------------------------------------------------

describe('XmlTokenizer: chunk invariance (events compared after merging adjacent text)', () => {
  const docs = documents();

  it('finds the fixtures and the corpus', () => {
    assert.ok(docs.filter((d) => d.name.includes('fixtures')).length >= 6);
    assert.ok(docs.length > 50, `only ${docs.length} documents`);
  });

  it('gives the same events whole and one character at a time', () => {
    for (const { name, text } of docs) {
      assert.deepEqual(tokenize(text.split('')), tokenize([text]), name);
    }
  });

  it('gives the same events in random splits (fast-check)', () => {
    for (const { name, text } of docs) {
      const whole = tokenize([text]);
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 40 }), (points) => {
          assert.deepEqual(tokenize(split(text, points)), whole, name);
        }),
        { numRuns: 15 },
      );
    }
  });

  it('gives the same events in splits of two at every position (fixtures)', () => {
    for (const { name, text } of docs.filter((d) => d.name.includes('fixtures'))) {
      const whole = tokenize([text]);
      for (let k = 1; k < text.length; k++) assert.deepEqual(tokenize([text.slice(0, k), text.slice(k)]), whole, `${name} at ${k}`);
    }
  });

  it('keeps budgets chunk-invariant', () => {
    const text = `<r><a>${'x&amp;'.repeat(20)}&bogus;</a><b v="${'y'.repeat(30)}"/></r>`;
    const whole = tokenize([text], { maxValueLength: 17 });
    for (let k = 1; k < text.length; k++) assert.deepEqual(tokenize([text.slice(0, k), text.slice(k)], { maxValueLength: 17 }), whole, `at ${k}`);
    assert.deepEqual(tokenize(text.split(''), { maxValueLength: 17 }), whole);
  });
});

// ---- hostile input ------------------------------------------------------------------------------

describe('XmlTokenizer: hostile input', () => {
  it('never expands a billion-laughs DOCTYPE', () => {
    const entities = ['<!ENTITY lol "lol">'];
    for (let k = 1; k <= 9; k++) entities.push(`<!ENTITY lol${k} "${`&lol${k === 1 ? '' : k - 1};`.repeat(10)}">`);
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n ${entities.join('\n ')}\n]>\n<lolz>&lol9;</lolz>`;
    const events = tokenize([xml]);
    assert.deepEqual(textsOf(events, 'lolz'), ['&lol9;']);
    assert.deepEqual(codes(events), ['xml/doctype', 'xml/undefined-entity']);
    assert.ok(JSON.stringify(events).length < 2 * xml.length);
  });

  it('never resolves an external entity (XXE)', () => {
    const xml = '<?xml version="1.0"?><!DOCTYPE foo [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> <!ENTITY % p SYSTEM "http://127.0.0.1/x.dtd"> %p; ]><foo a="&xxe;">&xxe;</foo>';
    const events = tokenize([xml]);
    assert.deepEqual(textsOf(events, 'foo'), ['&xxe;']);
    const foo = events.find((e) => e[0] === 'start') as Extract<Event, ['start', ...unknown[]]>;
    assert.equal(foo[2][0]?.[1], '&xxe;');
    assert.ok(!JSON.stringify(events).includes('root:'));
  });

  it('survives 10,000 nested elements with one budget/depth diagnostic', () => {
    const xml = '<a>'.repeat(10_000) + 'x' + '</a>'.repeat(10_000);
    const events = tokenize([xml]);
    assert.deepEqual(codes(events), ['budget/depth']);
    assert.equal(events.filter((e) => e[0] === 'start').length, 256);
    assert.equal(events.filter((e) => e[0] === 'end').length, 256);
    const unclosed = tokenize(['<a>'.repeat(10_000)]);
    assert.deepEqual(new Set(codes(unclosed)), new Set(['budget/depth', 'xml/unclosed-element']));
    assert.equal(unclosed.filter((e) => e[0] === 'end').length, 256);
  });

  it('streams a 100 MB text node in 64 KiB chunks in small memory', () => {
    const chunk = 'x'.repeat(64 * 1024);
    let delivered = 0;
    let pieces = 0;
    const diagnostics: Diagnostic[] = [];
    const t = new XmlTokenizer({ startTag() {}, endTag() {}, text: (s) => ((delivered += s.length), pieces++), diagnostic: (d) => diagnostics.push(d) });
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    t.write('<urlset><url><loc>');
    for (let k = 0; k < 1600; k++) {
      t.write(chunk);
      if (k % 32 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    t.write('</loc></url></urlset>');
    t.end();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    assert.equal(delivered, 10 * 1024 * 1024);
    assert.ok(pieces <= 161);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.line, d.column]), [['budget/value-length', 1, 19]]);
    assert.ok(peak - before < 30 * 1024 * 1024, `heap grew by ${((peak - before) / 1048576).toFixed(1)} MB`);
  });

  it('streams a 100 MB attribute value in 64 KiB chunks in small memory', () => {
    const chunk = 'y'.repeat(64 * 1024);
    let value = '';
    const diagnostics: Diagnostic[] = [];
    const t = new XmlTokenizer({ startTag: (_n, a) => (value = a[0]?.value ?? ''), endTag() {}, text() {}, diagnostic: (d) => diagnostics.push(d) }, { maxValueLength: 1024 * 1024 });
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    t.write('<r><x href="');
    for (let k = 0; k < 1600; k++) {
      t.write(chunk);
      if (k % 32 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    t.write('"/></r>');
    t.end();
    assert.equal(value.length, 1024 * 1024);
    assert.deepEqual(diagnostics.map((d) => d.code), ['budget/value-length']);
    assert.ok(peak - before < 30 * 1024 * 1024, `heap grew by ${((peak - before) / 1048576).toFixed(1)} MB`);
  });

  it('keeps the other nine URLs intact when the 5th <loc> has a raw &', () => {
    const locs = Array.from({ length: 10 }, (_, k) => `https://example.com/page/${k + 1}?a=1${k === 4 ? '&' : '&amp;'}b=2`);
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `  <url><loc>${l}</loc></url>\n`).join('')}</urlset>\n`;
    const diagnostics: Diagnostic[] = [];
    const events = tokenize([xml], undefined, diagnostics);
    const expected = Array.from({ length: 10 }, (_, k) => `https://example.com/page/${k + 1}?a=1&b=2`);
    assert.deepEqual(textsOf(events, 'loc'), expected);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.line, d.column]), [['xml/raw-ampersand', 7, 43]]);
    for (let k = 1; k < xml.length; k += 7) assert.deepEqual(tokenize([xml.slice(0, k), xml.slice(k)]), events);
  });

  it('keeps &eacute; literally', () => {
    const events = tokenize(['<urlset><url><loc>https://example.com/caf&eacute;</loc></url></urlset>']);
    assert.deepEqual(textsOf(events, 'loc'), ['https://example.com/caf&eacute;']);
    assert.deepEqual(codes(events), ['xml/undefined-entity']);
  });

  it('does not go quadratic or blow up on pathological runs', () => {
    const started = performance.now();
    const inputs = [
      '<r>' + '&'.repeat(200_000) + '</r>',
      '<r>' + '<'.repeat(200_000) + '</r>',
      '<r a' + ' b'.repeat(100_000) + '>',
      '<r a="' + '&\n'.repeat(100_000) + '"/>',
      '<r' + Array.from({ length: 100_000 }, (_, k) => ` a${k}="${k}"`).join('') + ' a7="dup"/>',
      '<r>' + '<!--'.repeat(100_000),
      '<r>' + '</x>'.repeat(100_000) + '</r>',
      '<!DOCTYPE r [' + '"'.repeat(100_001) + '[]<!--'.repeat(10_000),
    ];
    for (const xml of inputs) {
      const t = new XmlTokenizer({ startTag() {}, endTag() {}, text() {}, diagnostic() {} });
      for (let k = 0; k < xml.length; k += 4096) t.write(xml.slice(k, k + 4096));
      t.end();
    }
    assert.ok(performance.now() - started < 5000);
  });
});

// ---- property: round trip -----------------------------------------------------------------------

interface Element {
  name: string;
  attributes: [string, string][];
  children: (Element | string)[];
}

const XML_CHAR = fc.oneof(
  fc.constantFrom('&', '<', '>', '"', "'", '\r', '\n', '\r\n', '\t', ' ', ']]>', ']', ';', '#', 'a', 'é', '😀', '\uFEFF', '&amp;'),
  fc.integer({ min: 0x20, max: 0x10ffff }).filter((cp) => (cp < 0xd800 || cp > 0xdfff) && cp !== 0xfffe && cp !== 0xffff).map((cp) => String.fromCodePoint(cp)),
);
const xmlString = fc.string({ unit: XML_CHAR, maxLength: 12 });
const xmlName = fc.tuple(fc.constantFrom('', 'p:', 'image:'), fc.stringMatching(/^[A-Za-z_][\w.-]{0,6}$/)).map(([p, n]) => p + n);

const elementArb: fc.Arbitrary<Element> = fc.letrec<{ element: Element }>((tie) => ({
  element: fc.record({
    name: xmlName,
    attributes: fc.uniqueArray(fc.tuple(xmlName, xmlString), { maxLength: 3, selector: (a) => a[0] }),
    children: fc.array(fc.oneof({ depthSize: 'small', withCrossShrink: true }, xmlString, tie('element')), { maxLength: 4 }),
  }),
})).element;

function escapeText(s: string): string {
  return escapeXml(s).replace(/\r/g, '&#13;');
}

function escapeAttribute(s: string): string {
  return escapeXml(s).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** Serialise, choosing quotes, spacing, self-closing and CDATA from `choices`. */
function serialise(e: Element, choices: () => number): string {
  const attrs = e.attributes.map(([n, v]) => {
    const quote = choices() % 2 === 0 ? '"' : "'";
    const eq = ['=', ' = ', '\n=\t'][choices() % 3];
    return ` ${n}${eq}${quote}${escapeAttribute(v)}${quote}`;
  }).join('');
  const space = ['', ' ', '\n'][choices() % 3];
  if (e.children.length === 0 && choices() % 2 === 0) return `<${e.name}${attrs}${space}/>`;
  const body = e.children.map((c) => {
    if (typeof c !== 'string') return serialise(c, choices);
    // CDATA keeps no CR (it normalises line ends), so text with a CR is always escaped.
    if (choices() % 3 === 0 && c !== '' && !c.includes('\r')) return `<![CDATA[${c.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
    return escapeText(c) + (choices() % 4 === 0 ? '<!-- c -->' : '');
  }).join('');
  return `<${e.name}${attrs}${space}>${body}</${e.name}${space}>`;
}

/** The element with adjacent text merged and empty text dropped. */
function expected(e: Element): Element {
  const children: (Element | string)[] = [];
  for (const c of e.children) {
    if (typeof c === 'string') {
      const text = c;
      if (text === '') continue;
      const last = children[children.length - 1];
      if (typeof last === 'string') children[children.length - 1] = last + text;
      else children.push(text);
    } else children.push(expected(c));
  }
  return { name: e.name, attributes: e.attributes, children };
}

function rebuild(events: readonly Event[]): Element | undefined {
  const stack: Element[] = [];
  let root: Element | undefined;
  for (const e of events) {
    if (e[0] === 'start') {
      const el: Element = { name: e[1], attributes: e[2].map((a) => [a[0], a[1]]), children: [] };
      stack[stack.length - 1]?.children.push(el);
      if (stack.length === 0) root = el;
      stack.push(el);
    } else if (e[0] === 'end') {
      stack.pop();
    } else if (e[0] === 'text') {
      stack[stack.length - 1]?.children.push(e[1]);
    }
  }
  return root;
}

describe('XmlTokenizer: round trip (fast-check)', () => {
  it('reproduces the names, attribute values and text of any generated document', () => {
    fc.assert(
      fc.property(elementArb, fc.array(fc.nat(), { maxLength: 64 }), fc.array(fc.nat(), { maxLength: 20 }), (root, picks, points) => {
        let n = 0;
        const choices = () => picks.length === 0 ? 1 : (picks[n++ % picks.length] as number);
        const xml = `<?xml version="1.0"?>\n${serialise(root, choices)}\n`;
        const events = tokenize(split(xml, points));
        assert.deepEqual(codes(events), [], xml);
        assert.deepEqual(rebuild(events), expected(root), xml);
      }),
      { numRuns: 400 },
    );
  });
});

// ---- property: arbitrary input ------------------------------------------------------------------

/** Line and column of `offset`, counted independently of the tokenizer. */
function positionOf(text: string, offset: number): [number, number] {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x0d || (c === 0x0a && text.charCodeAt(k - 1) !== 0x0d)) line++;
    if (c === 0x0d || c === 0x0a) lineStart = k + 1;
  }
  return [line, offset - lineStart + 1];
}

const PIECE = fc.constantFrom(
  '<', '>', '/', '&', ';', '"', "'", '=', '!', '-', '--', '[', ']', ']]>', '?', '<![CDATA[', '<!DOCTYPE', '<!--', '-->', '<?', '?>',
  '<?xml version="1.0"?>', 'a', 'b', 'x:y', ' ', '\t', '\r', '\n', '\r\n', '#', 'x', '&amp;', '&#65;', '&#x;', '&lt', '\uD83D', '\uDE00', 'é', '\uFEFF',
  '<a>', '</a>', '<b x="1">', '</b>', '<c/>',
);

describe('XmlTokenizer: the value budget and a lone surrogate', () => {
  it('keeps a lone high surrogate that fits the budget, whole or cut after it (found by fast-check)', () => {
    const text = '<<<a><&lt<?>\uD83D\r\n<';
    const options = { maxDepth: 4, maxValueLength: 8, maxNameLength: 4 };
    const whole = tokenize([text], options);
    for (let i = 1; i < text.length; i++) assert.deepEqual(tokenize([text.slice(0, i), text.slice(i)], options), whole, `cut at ${i}`);
    assert.ok(whole.some((e) => e[0] === 'text' && e[1] === '\uD83D'), JSON.stringify(whole));
  });
});

describe('XmlTokenizer: arbitrary input (fast-check)', () => {
  it('never throws, balances start and end tags, stays chunk-invariant, and positions agree with offsets', () => {
    fc.assert(
      fc.property(fc.array(PIECE, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 12 }), (pieces, points) => {
        const text = pieces.join('');
        const whole = tokenize([text], { maxDepth: 4, maxValueLength: 8, maxNameLength: 4 });
        assert.deepEqual(tokenize(split(text, points), { maxDepth: 4, maxValueLength: 8, maxNameLength: 4 }), whole);
        const open: string[] = [];
        let lastOffset = 0;
        for (const e of whole) {
          if (e[0] === 'start') open.push(e[1]);
          if (e[0] === 'end') assert.equal(open.pop(), e[1]);
          const [line, column, offset] = e[0] === 'start' ? [e[4], e[5], e[6]] : e[0] === 'diag' ? [e[3], e[4], e[5]] : e[0] === 'pi' ? [e[3], e[4], e[5]] : e[0] === 'decl' ? [e[2], e[3], e[4]] : [e[2], e[3], e[4]];
          assert.ok(typeof offset === 'number' && offset >= 0 && offset <= text.length);
          assert.deepEqual([line, column], positionOf(text, offset), JSON.stringify(e));
          if (e[0] !== 'diag') {
            assert.ok(offset >= lastOffset || e[0] === 'end', 'tokens in document order');
            lastOffset = Math.max(lastOffset, offset);
          }
          if (e[0] === 'start') for (const a of e[2]) assert.deepEqual([a[2], a[3]], positionOf(text, a[4]));
        }
        assert.equal(open.length, 0);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('writeLaneBytes: the bulk of the input read from its bytes', () => {
  const ITEM = '<i>x</i>';
  /** A handler that reads runs of `<i>x</i>` elements at depth 1 itself, from text and from bytes. */
  function bulkHandler(events: Event[], runs: Array<[number, number, number, number]>): XmlTokenHandler {
    const base = recorder(events);
    return {
      ...base,
      lane: {
        depth: 1,
        nesting: 1,
        endTag: '</i>',
        readRun: (buf, at) => {
          let end = at;
          while (buf.startsWith(ITEM, end)) end += ITEM.length;
          return end === at ? -1 : end;
        },
        readRunBytes: (bytes, at, lines) => {
          let end = at;
          const text = new TextDecoder().decode(bytes);
          while (text.startsWith(ITEM, end)) end += ITEM.length;
          if (end === at) return -1;
          runs.push([at, end, lines[0] as number, lines[1] as number]);
          return end;
        },
      },
    };
  }
  const bytesOf = (s: string): Uint8Array => new TextEncoder().encode(s);

  it('reads a run from the bytes after the whitespace, then the text that follows where it stopped', () => {
    const events: Event[] = [];
    const runs: Array<[number, number, number, number]> = [];
    const t = new XmlTokenizer(bulkHandler(events, runs));
    t.write('<r>');
    const bytes = bytesOf(`\r\n  ${ITEM}${ITEM}<b/>`);
    const end = t.writeLaneBytes(bytes, 0);
    assert.equal(end, 4 + 2 * ITEM.length);
    // The run starts on line 2 (the CRLF counts once), which starts at index 2 of the bytes.
    assert.deepEqual(runs, [[4, end, 2, 2]]);
    assert.equal(t.readLine, 2);
    assert.equal(t.readColumn, 2 + 2 * ITEM.length + 1);
    t.write('<b/></r>');
    t.end();
    // No event for the whitespace or the run; the element after it is where the bytes put it.
    assert.deepEqual(events.filter((e) => e[0] === 'start').map((e) => [e[1], e[4], e[5], e[6]]), [['r', 1, 1, 0], ['b', 2, 19, 23]]);
    assert.deepEqual(codes(events), []);
  });

  it('reads nothing where it does not apply: something held, outside the lane\'s depth, no run there, no readRunBytes', () => {
    const runs: Array<[number, number, number, number]> = [];
    const held = new XmlTokenizer(bulkHandler([], runs));
    held.write('<r><i>x</');
    assert.equal(held.heldEndTag, '</i>');
    assert.equal(held.writeLaneBytes(bytesOf(`i>${ITEM}`), 0), 0);
    const top = new XmlTokenizer(bulkHandler([], runs));
    assert.equal(top.writeLaneBytes(bytesOf(ITEM), 0), 0, 'no element open yet');
    top.write('<r><a>');
    assert.equal(top.writeLaneBytes(bytesOf(ITEM), 0), 0, 'two elements open');
    const other = new XmlTokenizer(bulkHandler([], runs));
    other.write('<r>');
    assert.equal(other.heldEndTag, undefined);
    assert.equal(other.writeLaneBytes(bytesOf(' <b/>'), 0), 0, 'not a run');
    assert.equal(other.writeLaneBytes(bytesOf('   '), 0), 0, 'only whitespace');
    assert.deepEqual(runs, []);
    const plain = new XmlTokenizer(recorder([]));
    plain.write('<r>');
    assert.equal(plain.laneEndTag, undefined);
    assert.equal(plain.writeLaneBytes(bytesOf(ITEM), 0), 0);
    plain.end();
    assert.throws(() => plain.writeLaneBytes(bytesOf(ITEM), 0), (e: unknown) => e instanceof SitemapError && e.code === 'ERR_SITEMAP_API' && /after end\(\)/.test(e.message));
  });
});
