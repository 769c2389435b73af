// XML whitespace (XML 1.0 [3] S: space, tab, CR, LF), and nothing else: not String#trim's or \s's,
// which take U+00A0, U+FEFF and others that XML parsers read as content.

export function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** `s` without the XML whitespace around it. */
export function xmlTrim(s: string): string {
  const n = s.length;
  if (n === 0 || (!isXmlSpace(s.charCodeAt(0)) && !isXmlSpace(s.charCodeAt(n - 1)))) return s;
  let a = 0;
  let b = n;
  while (a < b && isXmlSpace(s.charCodeAt(a))) a++;
  while (b > a && isXmlSpace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/** Whether `s` is XML whitespace only. */
export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isXmlSpace(s.charCodeAt(i))) return false;
  return true;
}
