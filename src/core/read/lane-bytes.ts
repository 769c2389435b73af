// An ASCII chunk of XML read partly from its bytes (issue #4): the lane's runs are read from the bytes,
// never made into a string; the rest of the chunk goes to the tokenizer as text, in order. Decoding,
// line counting and copying the bulk cost about a fifth of a cold validation (bench:validate).

import type { XmlTokenizer } from '../xml/tokenizer.js';

/** What readAsciiChunk needs of its caller, which owns the decoding and the positions. */
interface AsciiChunkSink {
  /** Decode `bytes[from, to)` and give the text to the tokenizer (through whatever else reads it). */
  text(from: number, to: number): void;
  /** `bytes[from, to)` were read from the bytes: they hold `lines` line breaks and end at `column`. */
  skipped(from: number, to: number, lines: number, column: number): void;
  /** False once reading has stopped (a budget): then nothing more is given. */
  wantsMore(): boolean;
}

/** Stops of the lane in one chunk before the rest of the chunk goes as text (urls with extensions, say). */
const MAX_LANE_STOPS = 8;

/**
 * Reads the input's next chunk, all-ASCII `bytes` in an array of this call's own (the lane knows its
 * loaded bytes by their array): what `tokenizer`'s lane takes from the bytes, the rest as text through
 * `sink`. Returns whether the lane read any bytes.
 */
export function readAsciiChunk(tokenizer: XmlTokenizer, bytes: Uint8Array, sink: AsciiChunkSink): boolean {
  const length = bytes.length;
  let pos = 0;
  const held = tokenizer.heldEndTag;
  if (held !== undefined) {
    // An element cut by the last chunk goes as text to its end tag; anything else held, the whole chunk.
    const end = held === '' ? -1 : indexOfAscii(bytes, held, 0);
    pos = end === -1 ? length : end + held.length;
    sink.text(0, pos);
  }
  let read = false;
  for (let stops = 0; pos < length && sink.wantsMore(); ) {
    const line = tokenizer.readLine;
    const end = tokenizer.writeLaneBytes(bytes, pos);
    if (end > pos) {
      sink.skipped(pos, end, tokenizer.readLine - line, tokenizer.readColumn);
      pos = end;
      read = true;
      if (pos === length) break;
    }
    // Where the lane stops, the next element goes as text, then the lane is offered again.
    const endTag = tokenizer.laneEndTag;
    if (endTag === undefined || ++stops > MAX_LANE_STOPS) break;
    const next = indexOfAscii(bytes, endTag, pos);
    if (next === -1) break;
    sink.text(pos, next + endTag.length);
    pos = next + endTag.length;
  }
  if (pos < length && sink.wantsMore()) sink.text(pos, length);
  return read;
}

/** The index of ASCII `needle` (starting with `<`) in `bytes` from `from`, or -1. */
function indexOfAscii(bytes: Uint8Array, needle: string, from: number): number {
  const first = needle.charCodeAt(0);
  const last = bytes.length - needle.length;
  for (let i = bytes.indexOf(first, from); i !== -1 && i <= last; i = bytes.indexOf(first, i + 1)) {
    let k = 1;
    while (k < needle.length && bytes[i + k] === needle.charCodeAt(k)) k++;
    if (k === needle.length) return i;
  }
  return -1;
}
