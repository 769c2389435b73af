// Namespaces in XML 1.0 over the tokenizer's events: names resolved to (namespace URI, local name), so
// a sitemap namespace bound to a prefix (`<sm:urlset xmlns:sm="...">`) reads as the default one.

import type { XmlAttribute } from './tokenizer.js';
import { XSD_DERIVED_CHECKS } from '../validate/xsd-types.js';

export const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

/**
 * Whether `name="value"` is a namespace declaration libxml2 drops (a namespace error, not a fatal one):
 * `xmlns:p=""` (Namespaces in XML 1.0 §3 forbids it) or one of the prefixes `xml` and `xmlns`. It keeps
 * no attribute either, so a second one of its name is no duplicate. `xmlns:1a` is an ordinary attribute.
 */
export function isDroppedDeclaration(name: string, value: string): boolean {
  if (name.charCodeAt(0) !== 0x78 || !name.startsWith('xmlns:')) return false;
  const prefix = name.slice(6);
  return prefix === 'xml' || prefix === 'xmlns' || (value === '' && XSD_DERIVED_CHECKS.NCName?.(prefix) === undefined);
}

/** A resolved name. `uri` is '' for no namespace, and also for an undeclared prefix (check with `lookup`). */
interface ResolvedName {
  readonly uri: string;
  readonly local: string;
  readonly prefix: string;
}

/**
 * The in-scope bindings: `push` a start tag's attributes, `pop` at its end tag, in the tokenizer's order.
 * Element names resolve through a cache while the bindings do not change (in a sitemap, all on the root).
 */
export class NamespaceScope {
  private readonly bindings = new Map<string, string>();
  /** Undo log: prefix, previous URI (undefined when there was none). */
  private readonly undoPrefix: string[] = [];
  private readonly undoUri: (string | undefined)[] = [];
  /** Undo-log length at each open frame. */
  private readonly frames: number[] = [];
  private readonly cache = new Map<string, ResolvedName>();

  /** Open a frame for an element and apply its `xmlns` / `xmlns:p` attributes. */
  push(attributes: readonly XmlAttribute[]): void {
    this.frames.push(this.undoPrefix.length);
    for (let k = 0; k < attributes.length; k++) {
      const { name, value } = attributes[k] as XmlAttribute;
      if (name.charCodeAt(0) !== 0x78 || !name.startsWith('xmlns')) continue;
      if (name.length === 5) this.bind('', value);
      // A declaration libxml2 drops leaves the binding in scope as it was.
      else if (name.charCodeAt(5) === 0x3a && name.length > 6 && !isDroppedDeclaration(name, value)) this.bind(name.slice(6), value);
    }
  }

  /** Close the innermost frame, restoring the bindings it changed. Popping with no open frame is a no-op. */
  pop(): void {
    const mark = this.frames.pop();
    if (mark === undefined || mark === this.undoPrefix.length) return;
    for (let k = this.undoPrefix.length - 1; k >= mark; k--) {
      const prefix = this.undoPrefix[k] as string;
      const previous = this.undoUri[k];
      if (previous === undefined) this.bindings.delete(prefix);
      else this.bindings.set(prefix, previous);
    }
    this.undoPrefix.length = mark;
    this.undoUri.length = mark;
    this.cache.clear();
  }

  /**
   * Unprefixed element names take the default namespace, attribute names none. An undeclared prefix gives
   * `uri: ''` (see `lookup`); `:a` and `a:` are unprefixed names.
   */
  resolve(qname: string, isAttribute = false): ResolvedName {
    if (!isAttribute) {
      const hit = this.cache.get(qname);
      if (hit !== undefined) return hit;
    }
    const colon = qname.indexOf(':');
    let resolved: ResolvedName;
    if (colon <= 0 || colon === qname.length - 1) {
      const uri = isAttribute ? (qname === 'xmlns' ? XMLNS_NAMESPACE : '') : (this.bindings.get('') ?? '');
      resolved = Object.freeze({ uri, local: qname, prefix: '' });
    } else {
      const prefix = qname.slice(0, colon);
      resolved = Object.freeze({ uri: this.lookup(prefix) ?? '', local: qname.slice(colon + 1), prefix });
    }
    if (!isAttribute) {
      if (this.cache.size >= 1024) this.cache.clear(); // bounded, whatever names a hostile input uses
      this.cache.set(qname, resolved);
    }
    return resolved;
  }

  /** The URI bound to `prefix` ('' for the default namespace), or undefined. */
  lookup(prefix: string): string | undefined {
    if (prefix === 'xml') return XML_NAMESPACE;
    if (prefix === 'xmlns') return XMLNS_NAMESPACE;
    return this.bindings.get(prefix);
  }

  private bind(prefix: string, uri: string): void {
    this.undoPrefix.push(prefix);
    this.undoUri.push(this.bindings.get(prefix));
    this.bindings.set(prefix, uri);
    this.cache.clear();
  }
}
