// A urlset or sitemapindex checked against the schemas' content models (vocabulary.ts): elements,
// order, occurrences, attributes and simple types, from the tokenizer's events (validator.ts).
// Sequences are matched greedily, as XSD's Unique Particle Attribution allows; an element that fits
// nowhere is reported and its content skipped.

import { diagnosticAt, type Diagnostic, type Severity } from '../diagnostics.js';
import { show } from '../errors.js';
import type { XmlAttribute } from '../xml/tokenizer.js';
import { NamespaceScope } from '../xml/namespaces.js';
import { NS } from '../model.js';
import { parseW3cDatetime, w3cDatetimeProblem } from '../datetime.js';
import { SCHEMA_NAMESPACES, SCHEMA_TYPES, URLSET, SITEMAPINDEX, globalElement, prefixOf, typeName, type ElementDecl, type Particle, type TypeDecl } from '../vocabulary.js';
import { isBlank, xmlTrim } from '../xml/whitespace.js';
import { isQName, XSD_BUILTIN_BASES, XSD_DERIVED_CHECKS, XSD_NAMESPACE } from './xsd-types.js';
import type { RuleInfo } from './types.js';

const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';
/** The xsi: attributes any element may carry (XSD 1.1 §2.7); not nil, as no element here is nillable (cvc-elt.3.1). */
const XSI_ATTRIBUTES: ReadonlySet<string> = new Set(['type', 'schemaLocation', 'noNamespaceSchemaLocation']);

/** The rules of this checker (types.ts RuleInfo). */
export const STRUCTURE_RULES: readonly RuleInfo[] = [
  { code: 'xsd/unexpected-element', severity: 'error', title: 'an element the schema does not allow there (or out of order)', searchConsole: 'Invalid XML tag' },
  { code: 'xsd/missing-element', severity: 'error', title: 'a required element is missing', searchConsole: 'Missing XML tag' },
  { code: 'xsd/unknown-namespace', severity: 'error', title: 'an element of a namespace no sitemap schema declares' },
  { code: 'xsd/unexpected-attribute', severity: 'error', title: 'an attribute the schema does not allow', searchConsole: 'Invalid attribute value' },
  { code: 'xsd/missing-attribute', severity: 'error', title: 'a required attribute is missing', searchConsole: 'Missing XML attribute' },
  { code: 'xsd/invalid-attribute', severity: 'error', title: 'an attribute value of the wrong form', searchConsole: 'Invalid attribute value' },
  { code: 'xsd/invalid-value', severity: 'error', title: 'a value of the wrong form for the schema', searchConsole: 'Invalid tag value' },
  { code: 'xsd/text-not-allowed', severity: 'error', title: 'text inside an element that holds elements only', searchConsole: 'Invalid XML tag' },
  { code: 'xsd/root', severity: 'error', title: 'a root element neither schema declares', searchConsole: 'Unsupported file format' },
  { code: 'value/whitespace', severity: 'warning', title: 'whitespace around a value' },
  { code: 'lastmod/not-xsd', severity: 'error', title: 'a W3C Datetime form sitemap.xsd rejects (year, month, no seconds)', searchConsole: 'Invalid date' },
];
const SEVERITIES: Readonly<Record<string, Severity>> = Object.fromEntries(STRUCTURE_RULES.map((r) => [r.code, r.severity]));

interface Frame {
  /** undefined: content not checked (an element reported as unexpected). */
  decl: ElementDecl | undefined;
  qname: string;
  line: number;
  column: number;
  offset: number;
  /** Sequence position and the count of the current particle. */
  particle: number;
  count: number;
  text: string;
  /** Text seen in element-only content (reported once). */
  strayText: boolean;
}

function describe(p: Particle): string {
  if (p.other === true) return 'an element of another namespace';
  const e = p.element as ElementDecl;
  const prefix = prefixOf(e.ns);
  return `<${prefix === undefined ? '' : `${prefix}:`}${e.name}>`;
}

export class StructureChecker {
  private readonly scope = new NamespaceScope();
  private readonly frames: Frame[] = [];
  private readonly scoped: boolean[] = [];
  private readonly out: (d: Diagnostic) => void;
  /** Once anything the schemas reject was seen (xmllint's verdict). */
  invalid = false;
  /** Where the text since the last tag began: its problem is placed there, as the reader's, however cut. */
  private inText = false;
  private textLine = 0;
  private textColumn = 0;
  private textOffset = 0;

  constructor(out: (d: Diagnostic) => void) {
    this.out = out;
  }

  startTag(qname: string, attributes: readonly XmlAttribute[], line: number, column: number, offset: number): void {
    this.inText = false;
    const declares = attributes.some((a) => a.name === 'xmlns' || a.name.startsWith('xmlns:'));
    if (declares) this.scope.push(attributes);
    this.scoped.push(declares);
    const { uri, local } = this.scope.resolve(qname);
    const parent = this.frames[this.frames.length - 1];
    const frame: Frame = { decl: undefined, qname, line, column, offset, particle: 0, count: 0, text: '', strayText: false };
    if (parent === undefined) {
      frame.decl = [URLSET, SITEMAPINDEX].find((e) => e.ns === uri && e.name === local);
      if (frame.decl === undefined) this.report('xsd/root', `the root element <${qname}>${uri === '' ? '' : ` in "${uri}"`} is not declared by sitemap.xsd or siteindex.xsd`, line, column, offset, `a sitemap's root is <urlset xmlns="${NS.sitemap}">`);
    } else if (parent.decl !== undefined) {
      frame.decl = this.child(parent, uri, local, qname, line, column, offset);
    }
    if (frame.decl !== undefined) frame.decl = this.checkAttributes(frame.decl, qname, attributes, line, column, offset);
    this.frames.push(frame);
  }

  text(text: string, line: number, column: number, offset: number): void {
    if (!this.inText) {
      this.inText = true;
      this.textLine = line;
      this.textColumn = column;
      this.textOffset = offset;
    }
    const frame = this.frames[this.frames.length - 1];
    if (frame === undefined || frame.decl === undefined) return;
    const sequence = frame.decl.type.sequence;
    if (sequence !== undefined) {
      // Element-only content may hold whitespace; an empty content type (xhtml:link's) not even that (cvc-complex-type.2.1).
      if (!frame.strayText && (!isBlank(text) || sequence.length === 0)) {
        frame.strayText = true;
        this.report('xsd/text-not-allowed', `<${frame.qname}> ${sequence.length === 0 ? 'must be empty' : 'holds elements only'}, not text`, this.textLine, this.textColumn, this.textOffset);
      }
      return;
    }
    if (frame.text.length < 1_048_576) frame.text += text;
  }

  /** A CDATA section, even an empty or blank one, is character content to libxml2, which element-only content refuses. */
  cdata(line: number, column: number, offset: number): void {
    const frame = this.frames[this.frames.length - 1];
    if (frame?.decl?.type.sequence === undefined || frame.strayText) return;
    frame.strayText = true;
    this.report('xsd/text-not-allowed', `<${frame.qname}> holds elements only, not a CDATA section`, line, column, offset);
  }

  endTag(): void {
    this.inText = false;
    const frame = this.frames.pop();
    if (this.scoped.pop() === true) this.scope.pop();
    if (frame === undefined || frame.decl === undefined) return;
    const type = frame.decl.type;
    if (type.sequence !== undefined) {
      const missing: string[] = [];
      const seq = type.sequence;
      for (let i = frame.particle; i < seq.length; i++) {
        const p = seq[i] as Particle;
        const have = i === frame.particle ? frame.count : 0;
        if (have < p.min) missing.push(describe(p));
      }
      if (missing.length > 0) {
        this.report('xsd/missing-element', `<${frame.qname}> lacks ${missing.join(', ')}`, frame.line, frame.column, frame.offset, `add ${missing.join(', ')}`);
      }
      return;
    }
    const check = type.text;
    if (check === undefined) return;
    const value = frame.text;
    const problem = check(value);
    const trimmed = xmlTrim(value);
    if (problem !== undefined && frame.decl.ns === NS.sitemap && frame.decl.name === 'lastmod' && w3cDatetimeProblem(trimmed) === undefined) {
      // A W3C Datetime form the XSD does not take (a year, a month, minutes without seconds).
      this.report('lastmod/not-xsd', `lastmod ${JSON.stringify(trimmed)} is a W3C Datetime, but sitemap.xsd accepts only a full date or a date-time with seconds`,
        frame.line, frame.column, frame.offset, `write ${parseW3cDatetime(trimmed)?.text ?? 'YYYY-MM-DD'}`);
    } else if (problem !== undefined) {
      const spaced = trimmed !== value && check(trimmed) === undefined;
      this.report('xsd/invalid-value', `<${frame.qname}> ${show(value)} is ${problem}`,
        frame.line, frame.column, frame.offset, spaced ? `remove the whitespace around the value: ${JSON.stringify(trimmed)}` : `write ${type.textWhat ?? 'a valid value'}`);
    } else if (trimmed !== value && trimmed !== '') {
      this.report('value/whitespace', `<${frame.qname}> has whitespace around its value ${JSON.stringify(trimmed)}`, frame.line, frame.column, frame.offset, 'write the value alone, without spaces or line breaks around it');
    }
  }

  /** The entry name for lane-entries.ts, where the root and its entries' unprefixed names are the sitemap's. */
  laneEntryName(): 'url' | 'sitemap' | undefined {
    const root = this.frames[0];
    if (this.frames.length !== 1 || root === undefined || root.decl === undefined) return undefined;
    const name = root.decl === URLSET ? 'url' : root.decl === SITEMAPINDEX ? 'sitemap' : undefined;
    if (name === undefined) return undefined;
    for (const n of [name, 'loc', 'lastmod', 'changefreq', 'priority']) {
      if (this.scope.resolve(n).uri !== NS.sitemap) return undefined;
    }
    return name;
  }

  /** Whether `qname` resolves to the namespace `uri` where the checker stands. */
  resolves(qname: string, uri: string): boolean {
    return this.scope.resolve(qname).uri === uri;
  }

  /** Counts a run of up to `wanted` valid entries of the root (the lane's), as startTag and endTag would. */
  takeLaneEntries(local: string, wanted: number): number {
    this.inText = false;
    const root = this.frames[0];
    if (this.frames.length !== 1 || root === undefined || root.decl === undefined) return 0;
    const seq = root.decl.type.sequence;
    if (seq === undefined) return 0;
    // The greedy matching of child(), for elements that are sure to be in the root's namespace.
    let taken = 0;
    let count = root.count;
    for (let i = root.particle; i < seq.length && taken < wanted; i++, count = 0) {
      const p = seq[i] as Particle;
      if (p.element !== undefined && p.element.name === local && p.element.ns === root.decl.ns && count < p.max) {
        const more = Math.min(wanted - taken, p.max - count);
        root.particle = i;
        root.count = count + more;
        taken += more;
      } else if (count < p.min) break;
    }
    return taken;
  }

  /** The declaration for a child element of `parent`, advancing the parent's sequence; undefined when it does not fit. */
  private child(parent: Frame, uri: string, local: string, qname: string, line: number, column: number, offset: number): ElementDecl | undefined {
    const decl = parent.decl as ElementDecl;
    const seq = decl.type.sequence;
    if (seq === undefined) {
      this.report('xsd/unexpected-element', `<${qname}> is not allowed inside <${parent.qname}>, which holds text only`, line, column, offset);
      return undefined;
    }
    // Greedy matching from the current particle.
    let i = parent.particle;
    let count = parent.count;
    while (i < seq.length) {
      const p = seq[i] as Particle;
      if (this.fits(p, decl.ns, uri, local) && count < p.max) {
        parent.particle = i;
        parent.count = count + 1;
        return this.declFor(p, uri, local, qname, line, column, offset);
      }
      if (count < p.min) break;
      i++;
      count = 0;
    }
    // Does not fit here: out of order, too many, or not in this content model at all.
    const expected: string[] = [];
    for (let k = parent.particle; k < seq.length; k++) {
      const p = seq[k] as Particle;
      if ((k === parent.particle ? parent.count : 0) < p.max) expected.push(describe(p));
      if ((k === parent.particle ? parent.count : 0) < p.min) break;
    }
    const known = seq.find((p) => this.fits(p, decl.ns, uri, local));
    // A <loc> in no namespace (or another) under a prefixed <sm:url>: "expected <loc>" alone would puzzle.
    const namesake = seq.find((p) => p.element !== undefined && p.element.name === local && p.element.ns !== uri)?.element;
    let why: string;
    if (namesake !== undefined) why = `<${qname}> is in ${uri === '' ? 'no namespace' : `the namespace "${uri}"`}, but the <${local}> of <${parent.qname}> is in "${namesake.ns}"`;
    else if (known !== undefined) why = `<${qname}> is out of order or repeated inside <${parent.qname}>`;
    else if (uri === decl.ns) why = `unknown element <${qname}> inside <${parent.qname}>`;
    else why = `<${qname}> is not allowed inside <${parent.qname}>`;
    this.report('xsd/unexpected-element', `${why}${expected.length > 0 ? `; expected ${expected.join(' or ')}` : ''}`, line, column, offset);
    // Resynchronise on a later particle (what was skipped is not reported again at the end).
    const later = known === undefined ? -1 : seq.indexOf(known, parent.particle + 1);
    if (later !== -1) {
      parent.particle = later;
      parent.count = 1;
    }
    return known?.element;
  }

  private fits(p: Particle, targetNs: string, uri: string, local: string): boolean {
    if (p.other === true) return uri !== targetNs && uri !== '';
    const e = p.element as ElementDecl;
    return e.ns === uri && e.name === local;
  }

  private declFor(p: Particle, uri: string, local: string, qname: string, line: number, column: number, offset: number): ElementDecl | undefined {
    if (p.element !== undefined) return p.element;
    // processContents="strict": the element needs a global declaration in a loaded schema.
    const global = globalElement(uri, local);
    if (global !== undefined) return global;
    if (SCHEMA_NAMESPACES.has(uri)) {
      this.report('xsd/unexpected-element', `<${qname}> cannot appear here: its schema declares it only inside another element`, line, column, offset);
    } else {
      this.report('xsd/unknown-namespace', `<${qname}> is in the namespace "${uri}", which no sitemap schema declares; search engines ignore it and schema validators reject it`, line, column, offset,
        'remove it, or keep it knowing that xmllint --schema will call the file invalid');
    }
    return undefined;
  }

  /** Checks the attributes of an element of `decl`; returns its declaration, with the type an xsi:type gives it in place of its own. */
  private checkAttributes(decl: ElementDecl, qname: string, attributes: readonly XmlAttribute[], line: number, column: number, offset: number): ElementDecl {
    const declared = decl.type.attributes ?? {};
    const seen = new Set<string>();
    let typed = decl;
    for (const a of attributes) {
      const { uri, local, prefix } = this.scope.resolve(a.name, true);
      if (uri === XSI_NAMESPACE && local === 'type') typed = this.xsiType(decl, qname, a);
      // `xmlns:1a` or `xmlns:` declares nothing (its name is no QName) and is an attribute like any other to libxml2.
      if (a.name === 'xmlns' || (a.name.startsWith('xmlns:') && isQName(a.name.slice(6))) || (uri === XSI_NAMESPACE && XSI_ATTRIBUTES.has(local))) continue;
      const d = uri === '' && prefix === '' ? declared[local] : undefined;
      if (d === undefined) {
        const undeclared = prefix !== '' && uri === ''; // a namespace error for libxml2 (Namespaces in XML 1.0, constraint "Prefix Declared")
        this.report('xsd/unexpected-attribute', undeclared ? `the prefix of attribute ${a.name} on <${qname}> is not declared` : `<${qname}> has no attribute ${a.name}`, a.line, a.column, a.offset, 'remove the attribute');
        continue;
      }
      seen.add(local);
      const problem = d.check(a.value);
      // At the element, where the reader says the same of its value (video/invalid): one problem, said once.
      if (problem !== undefined) this.report('xsd/invalid-attribute', `${a.name}=${JSON.stringify(a.value)} on <${qname}> is ${problem}`, line, column, offset);
      // The reader trims every attribute value (xml-extensions.ts attrValue): say so where the type does not.
      else if (xmlTrim(a.value) !== a.value) this.report('value/whitespace', `${a.name}=${JSON.stringify(a.value)} on <${qname}> has whitespace around its value`, a.line, a.column, a.offset, 'write the value alone, without spaces around it');
    }
    for (const [name, d] of Object.entries(declared)) {
      if (d.required && !seen.has(name)) this.report('xsd/missing-attribute', `<${qname}> lacks the attribute ${name}`, line, column, offset, `add ${name}="…"`);
    }
    return typed;
  }

  /**
   * An xsi:type (XSD 1.0 Structures §3.3.4 clause 4) must name, as libxml2 resolves it, a loaded or
   * built-in type derived from the element's: returns the declaration to check the content with.
   */
  private xsiType(decl: ElementDecl, qname: string, a: XmlAttribute): ElementDecl {
    const root = (this.frames[0]?.decl ?? decl) === SITEMAPINDEX ? SITEMAPINDEX : URLSET;
    const types = SCHEMA_TYPES.get(root) as ReadonlyMap<string, TypeDecl>;
    const xsd = typeName(XSD_NAMESPACE, '');
    /** The name of the type `name` is derived from: '' for anyType, undefined where no type has that name. */
    const baseOf = (name: string): string | undefined => {
      const type = types.get(name);
      if (type !== undefined) return type.base;
      const base = name.startsWith(xsd) ? XSD_BUILTIN_BASES[name.slice(xsd.length)] : undefined;
      return base === undefined || base === '' ? base : xsd + base;
    };
    const own = decl.type.name;
    const hint = own === undefined ? 'remove the attribute: the type of this element has no name, so no xsi:type can name it' : `remove the attribute (the element's type is ${this.label(own)})`;
    const value = a.value;
    const colon = value.indexOf(':');
    const prefix = colon === -1 ? '' : value.slice(0, colon);
    // libxml2 checks the collapsed value's form, then resolves the value as written: ' xsd:string' has
    // the prefix ' xsd'. No declaration binds `xmlns`; an unprefixed name is in the default namespace, if any.
    const form = isQName(value);
    const ns = !form || prefix === 'xmlns' ? undefined : prefix === '' ? this.scope.lookup('') ?? '' : this.scope.lookup(prefix);
    const attribute = `xsi:type=${JSON.stringify(value)} on <${qname}>`;
    if (ns === undefined) {
      const why = form ? `the prefix "${prefix}" of ${attribute} is not declared` : `${attribute} is not a type name (a QName such as xsd:string)`;
      this.report('xsd/invalid-attribute', why, a.line, a.column, a.offset, hint);
      return decl;
    }
    const name = typeName(ns, value.slice(colon + 1));
    if (baseOf(name) === undefined) {
      this.report('xsd/invalid-attribute', `${attribute} names no type of the sitemap schemas or XML Schema`, a.line, a.column, a.offset, hint);
      return decl;
    }
    let at: string | undefined = name;
    while (at !== undefined && at !== '' && at !== own) at = baseOf(at);
    if (own === undefined || at !== own) {
      this.report('xsd/invalid-attribute', `${attribute} names ${this.label(name)}, which is not ${own === undefined ? "the element's type" : `derived from the element's type ${this.label(own)}`}`, a.line, a.column, a.offset, hint);
      return decl;
    }
    if (name === own) return decl;
    const type = types.get(name) ?? { text: XSD_DERIVED_CHECKS[name.slice(xsd.length)] ?? decl.type.text, textWhat: `a value of ${this.label(name)}` };
    return { ...decl, type };
  }

  /** A type's name as a schema would write it: tUrl, video:tYesNo, xsd:string. */
  private label(name: string): string {
    const end = name.indexOf('}');
    const ns = name.slice(1, end);
    const prefix = ns === XSD_NAMESPACE ? 'xsd' : prefixOf(ns);
    return prefix === undefined ? name.slice(end + 1) : `${prefix}:${name.slice(end + 1)}`;
  }

  private report(code: string, message: string, line: number, column: number, offset: number, hint?: string): void {
    if (code !== 'value/whitespace') this.invalid = true;
    this.out(diagnosticAt(code, SEVERITIES[code] as Severity, message, line, column, offset, hint));
  }
}
