// WHATWG Infra "ASCII whitespace" (TAB, LF, FF, CR, SPACE): what URLs and HTML attribute values are
// trimmed of, unlike String.prototype.trim, which also strips NBSP and other Unicode spaces.

/** Whether `c` is ASCII whitespace; false for undefined (a byte read past the end). */
export function isAsciiWhitespace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

export function trimAsciiWhitespace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isAsciiWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isAsciiWhitespace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}
