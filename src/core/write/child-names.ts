// Names of the children of an indexed set: `NAME-PART.TOKEN.xml.gz`, PART `00001…` (generate) or the
// section and bucket (build), TOKEN the CRC-32 of the child's XML in 8 hex digits. A changed child gets
// a new name, so the new set is put beside the old one, never over a file the old index names, and the
// index rename is the one commit point; an unchanged child keeps its name and its file.

/** Characters of a token: 8 lower-case hex digits. */
export const TOKEN_LENGTH = 8;

/** A CRC-32 (or any 32-bit value) as a token. */
export function contentToken(crc: number): string {
  return (crc >>> 0).toString(16).padStart(TOKEN_LENGTH, '0');
}

/**
 * The tokens to try for a child whose content has this CRC-32: the CRC itself, then others for when a
 * file of other bytes holds the name (a CRC collision, or other compression): no file is renamed over.
 */
export function* contentTokens(crc: number): Generator<string> {
  yield contentToken(crc);
  for (let attempt = 1; ; attempt++) yield contentToken(crc ^ Math.imul(attempt, 0x9e3779b9));
}

/** `NAME-blog.xml.gz` → `NAME-blog.TOKEN.xml.gz`: the token goes before the `.xml` suffix. */
export function withContentToken(name: string, token: string): string {
  const suffix = /\.xml(?:\.gz)?$/.exec(name);
  if (suffix === null) throw new RangeError(`a sitemap's name ends in .xml or .xml.gz, got ${JSON.stringify(name)}`);
  return `${name.slice(0, suffix.index)}.${token}${suffix[0]}`;
}

/** A child of a set written by generate: `NAME-00001` for the first. */
export function numberedStem(name: string, index: number): string {
  return `${name}-${String(index + 1).padStart(5, '0')}`;
}

/** `name` as a literal piece of a regular expression. */
function literal(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Children with a content token of a set named `name`, whatever their part: `NAME-….TOKEN.xml[.gz]` (build's). */
export function tokenChildPattern(name: string): RegExp {
  return new RegExp(`^${literal(name)}-.+\\.[0-9a-f]{${TOKEN_LENGTH}}\\.xml(?:\\.gz)?$`);
}

/**
 * Files a generate run with this name may have written: `NAME.xml`, `NAME-00001.TOKEN.xml[.gz]` and
 * `NAME-00001.xml[.gz]` (sets without an index, and sets of versions before children had tokens).
 */
export function numberedSetPattern(name: string): RegExp {
  return new RegExp(`^${literal(name)}(?:-\\d{5,}(?:\\.[0-9a-f]{${TOKEN_LENGTH}})?\\.xml(?:\\.gz)?|\\.xml)$`);
}
