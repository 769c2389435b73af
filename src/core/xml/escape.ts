// sitemaps.org protocol, "Entity escaping": & ' " > < must be escaped in every data value.
// Nothing else is altered; characters XML 1.0 forbids are refused rather than dropped.

// A CR is written as a reference too, since a parser turns a raw one into LF (XML 1.0 §2.11); in
// attribute values tab and LF as well, which normalisation (§3.3.3) would turn into spaces.
const SPECIAL = /[&<>"'\r]/;
const SPECIAL_ALL = /[&<>"'\r]/g;
const ATTRIBUTE_SPECIAL = /[&<>"'\r\n\t]/;
const ATTRIBUTE_SPECIAL_ALL = /[&<>"'\r\n\t]/g;
const ENTITY: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
  '\n': '&#10;',
  '\t': '&#9;',
};

function entityOf(ch: string): string {
  return ENTITY[ch] as string;
}

/** Escape the five XML special characters of a text value (and CR); everything else is kept as it is. */
export function escapeXml(value: string): string {
  return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, entityOf) : value;
}

/** Escape an attribute value so that a parser reads back exactly `value` (tab, LF and CR included). */
export function escapeXmlAttribute(value: string): string {
  return ATTRIBUTE_SPECIAL.test(value) ? value.replace(ATTRIBUTE_SPECIAL_ALL, entityOf) : value;
}

/**
 * Candidates for a character XML 1.0 §2.2 forbids: C0 controls but tab, LF and CR, U+FFFE, U+FFFF, and
 * every surrogate (indexOfNonXmlChar tells a pair from a lone one). A class alone, no look-arounds:
 * V8 scans it natively.
 */
export const NON_XML_CHAR_CANDIDATE = /[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]/g;

/** The index of the first character XML 1.0 cannot carry in `s` from `from`, or -1; surrogates at its ends are lone. */
export function indexOfNonXmlChar(s: string, from = 0): number {
  const re = NON_XML_CHAR_CANDIDATE;
  re.lastIndex = from;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) if (isNonXmlCharAt(s, m.index)) return m.index;
  return -1;
}

/** Whether `s[k]` is a character XML 1.0 cannot carry (`s` a whole piece, as for indexOfNonXmlChar). */
export function isNonXmlCharAt(s: string, k: number): boolean {
  const c = s.charCodeAt(k);
  if (c >= 0xd800 && c <= 0xdbff) return !isLowSurrogate(s.charCodeAt(k + 1));
  if (c >= 0xdc00 && c <= 0xdfff) return !isHighSurrogate(s.charCodeAt(k - 1));
  return c < 0x20 ? c !== 0x09 && c !== 0x0a && c !== 0x0d : c === 0xfffe || c === 0xffff;
}

export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** How a character is named in a message: U+0000, U+FFFF, U+D800 (the code unit at `k`). */
export function codePointName(s: string, k: number): string {
  return `U+${s.charCodeAt(k).toString(16).toUpperCase().padStart(4, '0')}`;
}
