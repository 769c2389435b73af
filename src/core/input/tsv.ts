// TSV input: what `sitemapkit read --format tsv` prints. One record per line, fields separated by
// tabs, a header naming the columns (as for CSV: loc, lastmod, changefreq, priority); a tab, line
// break or backslash inside a value is written \t, \n, \r or \\ (the IANA text/tab-separated-values
// type allows no tab in a field, so the escapes are the common convention, as in PostgreSQL's COPY).

const ESCAPES: Readonly<Record<string, string>> = { t: '\t', n: '\n', r: '\r', '\\': '\\' };

/** A field with its escapes read: `\t`, `\n`, `\r`, `\\`; any other backslash is kept as written. */
export function unescapeTsvField(field: string): string {
  if (field.indexOf('\\') === -1) return field;
  return field.replace(/\\([tnr\\])/g, (_, c: string) => ESCAPES[c] as string);
}

/** The fields of one TSV line (without its line terminator), unescaped. */
export function splitTsvLine(line: string): string[] {
  return line.split('\t').map(unescapeTsvField);
}
