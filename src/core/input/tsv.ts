// TSV input, as `sitemapkit read --format tsv` prints it: a header as for CSV, then one record per
// line; text/tab-separated-values allows no tab in a field, so `\t`, `\n`, `\r`, `\\`, and `\N` for NULL (as PostgreSQL's COPY).

const ESCAPES: Readonly<Record<string, string>> = { t: '\t', n: '\n', r: '\r', '\\': '\\' };

/** A field with its escapes read: `\t`, `\n`, `\r`, `\\`; any other backslash is kept as written; `\N` alone (NULL) is empty. */
export function unescapeTsvField(field: string): string {
  if (field.indexOf('\\') === -1) return field;
  if (field === '\\N') return '';
  return field.replace(/\\([tnr\\])/g, (_, c: string) => ESCAPES[c] as string);
}

/** The fields of one TSV line (without its line terminator), unescaped. */
export function splitTsvLine(line: string): string[] {
  return line.split('\t').map(unescapeTsvField);
}
