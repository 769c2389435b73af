// Small checks on sitemap values of the XML reader: the common, diagnostic-free forms of changefreq,
// priority and lastmod.

/** `0.0` … `0.9`, `1.0` (and `0`, `1`, `1.00`…) as tenths, the common case; -1 for anything else. */
export function priorityTenths(v: string): number {
  const n = v.length;
  const c0 = v.charCodeAt(0);
  if (n === 1) return c0 === 0x30 ? 0 : c0 === 0x31 ? 10 : -1;
  if (n < 3 || v.charCodeAt(1) !== 0x2e) return -1;
  const c2 = v.charCodeAt(2) - 0x30;
  if (c2 < 0 || c2 > 9) return -1;
  for (let i = 3; i < n; i++) if (v.charCodeAt(i) !== 0x30) return -1;
  if (c0 === 0x30) return c2;
  return c0 === 0x31 && c2 === 0 ? 10 : -1;
}

/** A string `w3cDatetimeProblem` accepts is in a W3C Datetime form as written (`T`, `Z`, `±hh:mm`), not a lenient ISO 8601 one. */
export function isStrictW3c(v: string): boolean {
  const n = v.length;
  if (n <= 10) return true;
  if (v.charCodeAt(10) !== 0x54 /* T */) return false;
  if (v.charCodeAt(n - 1) === 0x5a /* Z */) return true;
  const sign = v.charCodeAt(n - 6);
  return v.charCodeAt(n - 3) === 0x3a && (sign === 0x2b || sign === 0x2d);
}
