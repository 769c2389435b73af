// sitemaps.org protocol, "Entity escaping": & ' " > < must be escaped in every data value.
// Nothing else is altered; characters XML 1.0 forbids are refused rather than dropped.

// A CR is also written as a reference: a parser turns a raw CR (or CRLF) into LF (XML 1.0 §2.11), so
// the reference is what keeps the value as it was. In attribute values, tab and LF are references too,
// since attribute-value normalisation (§3.3.3) would turn them into spaces.
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

// XML 1.0 §2.2 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
// A lone surrogate, a C0 control other than tab/LF/CR, U+FFFE and U+FFFF make a document not well-formed.
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The index of the first character XML 1.0 cannot carry, or -1. */
export function indexOfNonXmlChar(value: string): number {
  const match = NOT_XML_CHAR.exec(value);
  return match === null ? -1 : match.index;
}
