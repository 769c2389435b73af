import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NamespaceScope, XML_NAMESPACE, XMLNS_NAMESPACE } from '../../../src/core/xml/namespaces.js';
import { XmlTokenizer, type XmlAttribute } from '../../../src/core/xml/tokenizer.js';

const SM = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const IMAGE = 'http://www.google.com/schemas/sitemap-image/1.1';

function attrs(...pairs: [string, string][]): XmlAttribute[] {
  return pairs.map(([name, value]) => ({ name, value, line: 1, column: 1, offset: 0 }));
}

/** Resolve every element and attribute name of a document: "uri|local" strings in document order. */
function resolveAll(xml: string): string[] {
  const scope = new NamespaceScope();
  const out: string[] = [];
  let open = 0;
  const t = new XmlTokenizer({
    startTag(name, attributes) {
      open++;
      scope.push(attributes);
      const r = scope.resolve(name);
      out.push(`${r.uri}|${r.local}`);
      for (const a of attributes) {
        const ra = scope.resolve(a.name, true);
        out.push(`@${ra.uri}|${ra.local}`);
      }
    },
    endTag() {
      open--;
      scope.pop();
    },
    text() {},
    diagnostic() {},
  });
  t.write(xml);
  t.end();
  assert.equal(open, 0);
  return out;
}

describe('NamespaceScope', () => {
  it('resolves the default namespace, and none for unprefixed attributes', () => {
    const scope = new NamespaceScope();
    scope.push(attrs(['xmlns', SM], ['version', '1']));
    assert.deepEqual(scope.resolve('urlset'), { uri: SM, local: 'urlset', prefix: '' });
    assert.deepEqual(scope.resolve('version', true), { uri: '', local: 'version', prefix: '' });
    assert.deepEqual(scope.resolve('xmlns', true), { uri: XMLNS_NAMESPACE, local: 'xmlns', prefix: '' });
  });

  it('resolves prefixes, also a sitemap namespace bound to a prefix', () => {
    const scope = new NamespaceScope();
    scope.push(attrs(['xmlns:sm', SM], ['xmlns:image', IMAGE]));
    assert.deepEqual(scope.resolve('sm:url'), { uri: SM, local: 'url', prefix: 'sm' });
    assert.deepEqual(scope.resolve('image:loc'), { uri: IMAGE, local: 'loc', prefix: 'image' });
    assert.deepEqual(scope.resolve('url'), { uri: '', local: 'url', prefix: '' });
    assert.deepEqual(scope.resolve('sm:a', true), { uri: SM, local: 'a', prefix: 'sm' });
  });

  it('binds xml: and xmlns: by definition', () => {
    const scope = new NamespaceScope();
    assert.deepEqual(scope.resolve('xml:lang', true), { uri: XML_NAMESPACE, local: 'lang', prefix: 'xml' });
    assert.deepEqual(scope.resolve('xmlns:a', true), { uri: XMLNS_NAMESPACE, local: 'a', prefix: 'xmlns' });
    assert.equal(scope.lookup('xml'), XML_NAMESPACE);
  });

  it('gives uri "" for an undeclared prefix and lets the caller tell', () => {
    const scope = new NamespaceScope();
    scope.push([]);
    assert.deepEqual(scope.resolve('video:title'), { uri: '', local: 'title', prefix: 'video' });
    assert.equal(scope.lookup('video'), undefined);
  });

  it('scopes declarations to the element and restores them on pop, caches included', () => {
    const scope = new NamespaceScope();
    scope.push(attrs(['xmlns', SM], ['xmlns:p', 'urn:one']));
    assert.equal(scope.resolve('a').uri, SM);
    assert.equal(scope.resolve('p:a').uri, 'urn:one');
    scope.push(attrs(['xmlns', ''], ['xmlns:p', 'urn:two'], ['xmlns:q', 'urn:q']));
    assert.equal(scope.resolve('a').uri, '');
    assert.equal(scope.resolve('p:a').uri, 'urn:two');
    assert.equal(scope.resolve('q:a').uri, 'urn:q');
    scope.push([]);
    assert.equal(scope.resolve('p:a').uri, 'urn:two');
    scope.pop();
    scope.pop();
    assert.equal(scope.resolve('a').uri, SM);
    assert.equal(scope.resolve('p:a').uri, 'urn:one');
    assert.equal(scope.resolve('q:a').uri, '');
    assert.equal(scope.lookup('q'), undefined);
    scope.pop();
    assert.equal(scope.resolve('a').uri, '');
    scope.pop(); // no open frame: no-op
    scope.push(attrs(['xmlns', SM]));
    assert.equal(scope.resolve('a').uri, SM);
    scope.pop();
    assert.equal(scope.resolve('a').uri, '');
  });

  it('ignores an empty prefix binding (xmlns:p="", an error in XML 1.0) as libxml2 does, and takes odd names as unprefixed', () => {
    const scope = new NamespaceScope();
    scope.push(attrs(['xmlns:q', '']));
    assert.equal(scope.lookup('q'), undefined);
    scope.push(attrs(['xmlns:p', 'urn:p']));
    scope.push(attrs(['xmlns:p', '']));
    assert.equal(scope.resolve('p:a').uri, 'urn:p');
    assert.equal(scope.lookup('p'), 'urn:p');
    assert.deepEqual(scope.resolve(':a'), { uri: '', local: ':a', prefix: '' });
    assert.deepEqual(scope.resolve('a:'), { uri: '', local: 'a:', prefix: '' });
    assert.deepEqual(scope.resolve('p:a:b'), { uri: 'urn:p', local: 'a:b', prefix: 'p' });
  });

  it('returns shared frozen results for repeated element names', () => {
    const scope = new NamespaceScope();
    scope.push(attrs(['xmlns', SM]));
    const a = scope.resolve('url');
    assert.equal(scope.resolve('url'), a);
    assert.ok(Object.isFrozen(a));
  });

  it('resolves documents through the tokenizer', () => {
    assert.deepEqual(resolveAll(`<sm:urlset xmlns:sm="${SM}" xmlns:image="${IMAGE}"><sm:url><image:image xml:lang="en"/></sm:url></sm:urlset>`), [
      `${SM}|urlset`, `@${XMLNS_NAMESPACE}|sm`, `@${XMLNS_NAMESPACE}|image`, `${SM}|url`, `${IMAGE}|image`, `@${XML_NAMESPACE}|lang`,
    ]);
    const corpus = fileURLToPath(new URL('../../../../shared/corpus/feed-atom/io7m__jnull__releases.atom', import.meta.url));
    const atom = readFileSync(corpus, 'utf8');
    const names = resolveAll(atom).filter((n) => !n.startsWith('@'));
    assert.ok(names.length > 5);
    for (const n of names) assert.ok(n.startsWith('http://www.w3.org/2005/Atom|'), n);
  });

  it('resolves the pagemap extension declared as a default namespace on a nested element', () => {
    const xml = readFileSync(fileURLToPath(new URL('../../../../shared/corpus/ext-other/crawler-commons__crawler-commons__src__test__resources__sitemaps__extension__pagemaps-sitemap.xml', import.meta.url)), 'utf8');
    const names = resolveAll(xml).filter((n) => !n.startsWith('@'));
    const PAGEMAP = 'http://www.google.com/schemas/sitemap-pagemap/1.0';
    const count = (n: string) => names.filter((x) => x === n).length;
    assert.deepEqual([count(`${SM}|url`), count(`${SM}|loc`), count(`${PAGEMAP}|PageMap`), count(`${PAGEMAP}|DataObject`), count(`${PAGEMAP}|Attribute`)], [2, 2, 2, 3, 5]);
    assert.equal(names.length, 1 + 2 + 2 + 2 + 3 + 5);
  });
});
