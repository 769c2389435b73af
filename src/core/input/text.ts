// Plain-text input: one URL per line. Blank lines and lines starting with `#` are skipped.

/**
 * Parses one line of a text input (without its line terminator). Returns the trimmed URL, or
 * `undefined` for a blank line or a `#` comment. Leading/trailing whitespace, a trailing CR and a
 * UTF-8 BOM (U+FEFF, whitespace to `String.prototype.trim`) are removed. Only whole-line comments
 * exist: a `#` inside a URL is its fragment.
 */
export function parseTextLine(line: string): string | undefined {
  const s = line.trim();
  if (s.length === 0 || s.charCodeAt(0) === 0x23 /* # */) return undefined;
  return s;
}
