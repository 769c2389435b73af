// Chunkings for tests of push parsers: the same text cut at given places.

/** `text` cut at the given offsets (in any order, clamped to the text): the pieces, in order. */
export function splitAt(text: string, offsets: readonly number[]): string[] {
  const chunks: string[] = [];
  let at = 0;
  for (const p of [...offsets].sort((a, b) => a - b)) {
    const cut = Math.min(Math.max(p, at), text.length);
    chunks.push(text.slice(at, cut));
    at = cut;
  }
  chunks.push(text.slice(at));
  return chunks;
}
