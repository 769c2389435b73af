// Bytes → text, pushed chunk by chunk, in constant memory. StreamDecoder gathers the first `sniffBytes`
// bytes, sniffs the encoding there (sniff.ts), then decodes each chunk with a streaming TextDecoder; the
// text and the diagnostics do not depend on where the chunks split the bytes.
//
// Invalid bytes become U+FFFD, as in browsers, and are reported as `encoding/invalid-bytes` with an
// offset in the text (the caller places it on a line). Only a chunk whose text holds U+FFFD is looked at
// again, by a replay of the WHATWG UTF-8 / UTF-16 decoder that tells a literal U+FFFD from a replaced one.
// A UTF-16 file that ends inside a character is the exception: reported, but those bytes are dropped.
//
// windows-1252 (and so ISO-8859-1) is decoded by a table here: Node 20.18.3+ decodes bytes 80–9F as C1
// controls when `decode()` has no options argument (nodejs/node#60888). A declared US-ASCII (sniff.ts
// `us-ascii`) takes only bytes 00–7F, as libxml2 does; any other is invalid. So are 81, 8D, 8F, 90 and
// 9D under the labels windows-1252 and cp1252, which libxml2 decodes with iconv's CP1252 (they are
// undefined there; WHATWG, and libxml2 under x-cp1252 or ISO-8859-1, make them C1 controls).

import type { Diagnostic } from '../diagnostics.js';
import { SitemapError } from '../errors.js';
import { ENCODING_SNIFF_BYTES, encodingName, isUtf16, sniffEncoding, type EncodingSniff } from './sniff.js';

/** At most this many invalid byte sequences are reported one by one; the rest are counted in one summary. */
export const MAX_INVALID_BYTES_REPORTED = 10;

interface Decoder {
  decode(bytes: Uint8Array, stream: boolean): string;
}

/** Code points of bytes 80–FF in iconv's CP1252: 80–9F as WHATWG index-windows-1252 but U+FFFD where it is undefined, A0–FF the same. */
const CP1252_HIGH = Uint16Array.from([
  0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0xfffd, 0x017d, 0xfffd,
  0xfffd, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178,
  ...Array.from({ length: 0x60 }, (_, i) => 0xa0 + i),
]);
/** WHATWG windows-1252: the undefined bytes are the C1 controls of the same number. */
const WINDOWS_1252_HIGH = CP1252_HIGH.map((c, i) => (c === 0xfffd ? 0x80 + i : c));
const ASCII_HIGH = new Uint16Array(0x80).fill(0xfffd);

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

class Windows1252Decoder implements Decoder {
  private readonly units = LITTLE_ENDIAN ? new TextDecoder('utf-16le', { ignoreBOM: true }) : undefined;
  /** @param high the code points of bytes 80–FF */
  constructor(private readonly high: Uint16Array) {}

  decode(bytes: Uint8Array, _stream: boolean): string {
    const n = bytes.length;
    if (n === 0) return '';
    const codes = new Uint16Array(n);
    const high = this.high;
    for (let i = 0; i < n; i++) {
      const b = bytes[i] as number;
      codes[i] = b < 0x80 ? b : (high[b - 0x80] as number);
    }
    if (this.units !== undefined) return this.units.decode(new Uint8Array(codes.buffer, 0, n * 2), { stream: false });
    let text = '';
    for (let i = 0; i < n; i += 8192) text += String.fromCharCode(...codes.subarray(i, i + 8192));
    return text;
  }
}

class NativeDecoder implements Decoder {
  private readonly decoder: { decode(input: Uint8Array, options: { stream: boolean }): string };
  constructor(encoding: string) {
    this.decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: true });
  }
  decode(bytes: Uint8Array, stream: boolean): string {
    // Always with an options argument: see the note on windows-1252 above.
    return this.decoder.decode(bytes, { stream });
  }
}

/** The decoder of `encoding`; `label`, the declaration's, says which windows-1252 (see the note above). */
function decoderFor(encoding: string, label?: string): Decoder {
  if (encoding === 'us-ascii') return new Windows1252Decoder(ASCII_HIGH);
  if (encoding !== 'windows-1252') return new NativeDecoder(encoding);
  return new Windows1252Decoder(/^(?:windows-1252|cp1252)$/i.test(label ?? '') ? CP1252_HIGH : WINDOWS_1252_HIGH);
}

/** A whole document's bytes as text in `encoding` (a WHATWG label), without its BOM; invalid bytes become U+FFFD. */
export function decodeText(bytes: Uint8Array, encoding: string): string {
  return textAfterBom(decoderFor(encoding).decode(bytes, false));
}

/** A document given as text without its byte order mark, what the readers take (a U+FEFF after it is text). */
export function textAfterBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** WHATWG single-byte encodings: one byte, one UTF-16 code unit, so offsets map exactly. */
const SINGLE_BYTE = new Set([
  'ibm866', 'iso-8859-2', 'iso-8859-3', 'iso-8859-4', 'iso-8859-5', 'iso-8859-6', 'iso-8859-7', 'iso-8859-8', 'iso-8859-8-i',
  'iso-8859-10', 'iso-8859-13', 'iso-8859-14', 'iso-8859-15', 'iso-8859-16', 'koi8-r', 'koi8-u', 'macintosh', 'windows-874',
  'windows-1250', 'windows-1251', 'windows-1252', 'windows-1253', 'windows-1254', 'windows-1255', 'windows-1256', 'windows-1257',
  'windows-1258', 'x-mac-cyrillic', 'us-ascii',
]);

type ErrorSink = (outOffset: number, byteOffset: number) => void;

/** A replay of the WHATWG UTF-8 decoder: counts output code units and reports each U+FFFD it emits for an error. */
class Utf8Replay {
  private needed = 0;
  private seen = 0;
  private lower = 0x80;
  private upper = 0xbf;
  private start = 0;
  out = 0;

  /** Feed bytes whose first one is at absolute byte offset `at`; `sink` undefined replays silently. */
  feed(bytes: Uint8Array, at: number, sink: ErrorSink | undefined): void {
    let i = 0;
    const n = bytes.length;
    while (i < n) {
      const b = bytes[i] as number;
      if (this.needed === 0) {
        if (b < 0x80) {
          // Skip an ASCII run quickly.
          this.out++;
          i++;
          while (i < n && (bytes[i] as number) < 0x80) {
            this.out++;
            i++;
          }
          continue;
        }
        this.start = at + i;
        if (b >= 0xc2 && b <= 0xdf) this.needed = 1;
        else if (b >= 0xe0 && b <= 0xef) {
          if (b === 0xe0) this.lower = 0xa0;
          if (b === 0xed) this.upper = 0x9f;
          this.needed = 2;
        } else if (b >= 0xf0 && b <= 0xf4) {
          if (b === 0xf0) this.lower = 0x90;
          if (b === 0xf4) this.upper = 0x8f;
          this.needed = 3;
        } else {
          sink?.(this.out, at + i);
          this.out++;
        }
        i++;
        continue;
      }
      if (b < this.lower || b > this.upper) {
        // The sequence so far is one error; the byte is processed again as a new start.
        this.reset();
        sink?.(this.out, this.start);
        this.out++;
        continue;
      }
      this.lower = 0x80;
      this.upper = 0xbf;
      this.seen++;
      i++;
      if (this.seen === this.needed) {
        this.out += this.needed === 3 ? 2 : 1;
        this.reset();
      }
    }
  }

  flush(sink: ErrorSink | undefined): void {
    if (this.needed !== 0) {
      this.reset();
      sink?.(this.out, this.start);
      this.out++;
    }
  }

  private reset(): void {
    this.needed = 0;
    this.seen = 0;
    this.lower = 0x80;
    this.upper = 0xbf;
  }
}

/** A replay of the WHATWG UTF-16 decoder: lone surrogates and an odd last byte are errors. */
class Utf16Replay {
  private byte = -1;
  private bytePos = 0;
  private lead = false;
  private leadPos = 0;
  out = 0;
  constructor(private readonly littleEndian: boolean) {}

  feed(bytes: Uint8Array, at: number, sink: ErrorSink | undefined): void {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i] as number;
      if (this.byte < 0) {
        this.byte = b;
        this.bytePos = at + i;
        continue;
      }
      const unit = this.littleEndian ? this.byte | (b << 8) : (this.byte << 8) | b;
      const pos = this.bytePos;
      this.byte = -1;
      if (this.lead) {
        this.lead = false;
        if (unit >= 0xdc00 && unit <= 0xdfff) {
          this.out += 2;
          continue;
        }
        sink?.(this.out, this.leadPos);
        this.out++;
      }
      if (unit >= 0xd800 && unit <= 0xdbff) {
        this.lead = true;
        this.leadPos = pos;
      } else {
        if (unit >= 0xdc00 && unit <= 0xdfff) sink?.(this.out, pos);
        this.out++;
      }
    }
  }

  flush(sink: ErrorSink | undefined): void {
    if (this.byte >= 0 || this.lead) {
      sink?.(this.out, this.lead ? this.leadPos : this.bytePos);
      this.out++;
      this.byte = -1;
      this.lead = false;
    }
  }
}

const TAIL = 3;

/**
 * Decodes a byte stream: `write(chunk)` returns the text decoded so far (none while the sniff window
 * fills), `end()` the rest. `encoding` is known from the first text returned.
 */
export class StreamDecoder {
  /** Encoding sniff diagnostics (sniff.ts), then `encoding/invalid-bytes` (error). Append-only. */
  readonly diagnostics: Diagnostic[] = [];
  private readonly sniffBytes: number;
  private head: Uint8Array[] | undefined = [];
  private headLength = 0;
  private sniff: EncodingSniff | undefined;
  private decoder: Decoder | undefined;
  private ended = false;
  /** Absolute offset (BOM included) of the next byte handed to the decoder. */
  private bytePos = 0;
  /** Code units of decoded text returned so far. */
  private textPos = 0;
  /** The last bytes handed to the decoder: enough to rebuild a replay's state. */
  private tail = new Uint8Array(0);
  private invalid = 0;
  /** The encoding maps ASCII bytes to the same characters, one for one, and keeps no state across them. */
  private asciiSafe = false;
  /** Whether the native decoder may hold the start of a sequence (its last byte was not ASCII). */
  private pending = false;
  /** The first byte past whitespace is "<": markup, which an XML declaration can give an encoding; a text sitemap cannot. */
  private markup = false;

  /**
   * @param maxBytes how many bytes at most are gathered before sniffing (default 1 KiB, at least 4).
   * @param asciiText a platform's faster decoding of all-ASCII bytes (else undefined), for UTF-8 and
   *   single-byte encodings (Node: isAscii + latin1, about twice TextDecoder's speed).
   */
  constructor(
    maxBytes: number = ENCODING_SNIFF_BYTES,
    private readonly asciiText?: (bytes: Uint8Array) => string | undefined,
  ) {
    if (!Number.isInteger(maxBytes) || maxBytes < 4) throw new SitemapError('ERR_SITEMAP_OPTION', `the sniff window must be a whole number of at least 4 bytes, got ${maxBytes}`);
    this.sniffBytes = maxBytes;
  }

  /** The WHATWG name of the encoding in use (`utf-8` until sniffed). */
  get encoding(): string {
    return this.sniff?.encoding ?? 'utf-8';
  }

  /** The full sniff result (source, BOM length, declared label), once sniffed. */
  get sniffed(): EncodingSniff | undefined {
    return this.sniff;
  }

  /** Whether ASCII bytes written now would come out as themselves: sniffed, ASCII-safe, no partial sequence. */
  get takesAsciiAsIs(): boolean {
    return this.head === undefined && !this.ended && this.asciiSafe && !this.pending;
  }

  /** Counts ASCII `bytes` as decoded without making their text (the caller reads them), when `takesAsciiAsIs`. */
  skipAscii(bytes: Uint8Array): void {
    if (!this.takesAsciiAsIs) throw new SitemapError('ERR_SITEMAP_API', 'StreamDecoder.skipAscii() before the encoding is sniffed, for an encoding that does not take ASCII as is, or inside a sequence');
    this.bytePos += bytes.length;
    this.textPos += bytes.length;
    this.keepTail(bytes);
  }

  write(bytes: Uint8Array): string {
    if (this.ended) throw new SitemapError('ERR_SITEMAP_API', 'StreamDecoder.write() after end()');
    if (bytes.length === 0) return '';
    if (this.head !== undefined) {
      this.head.push(bytes);
      this.headLength += bytes.length;
      return this.headLength < this.sniffBytes ? '' : this.start();
    }
    return this.decodeChunk(bytes, false);
  }

  end(): string {
    if (this.ended) return '';
    let text = this.head !== undefined ? this.start() : '';
    this.ended = true;
    const rest = this.decodeChunk(new Uint8Array(0), true);
    // UTF-16 cut inside a character flushes one U+FFFD (WHATWG), which would stand after the root: dropped, as libxml2 does.
    if (!isUtf16(this.encoding)) text += rest;
    if (this.invalid > MAX_INVALID_BYTES_REPORTED) {
      this.diagnostics.push({
        code: 'encoding/invalid-bytes',
        severity: 'error',
        message: `${this.invalid} invalid ${encodingName(this.encoding)} byte sequences in all, replaced by U+FFFD (only the first ${MAX_INVALID_BYTES_REPORTED} are reported one by one)`,
        hint: this.hint(),
      });
    }
    return text;
  }

  /** Sniff the gathered head, set up the decoder and decode the head. */
  private start(): string {
    const parts = this.head as Uint8Array[];
    this.head = undefined;
    let all: Uint8Array;
    if (parts.length === 1) all = parts[0] as Uint8Array;
    else {
      all = new Uint8Array(this.headLength);
      let at = 0;
      for (const p of parts) {
        all.set(p, at);
        at += p.length;
      }
    }
    const sniff = sniffEncoding(all.subarray(0, this.sniffBytes));
    this.sniff = sniff;
    this.markup = all.find((b) => b > 0x20) === 0x3c;
    this.diagnostics.push(...sniff.diagnostics);
    this.decoder = decoderFor(sniff.encoding, sniff.declared);
    this.asciiSafe = sniff.encoding === 'utf-8' || SINGLE_BYTE.has(sniff.encoding);
    this.bytePos = sniff.bomLength;
    return this.decodeChunk(all.subarray(sniff.bomLength), false);
  }

  private decodeChunk(bytes: Uint8Array, flush: boolean): string {
    let text: string | undefined;
    if (this.asciiSafe && !this.pending && bytes.length > 0 && this.asciiText !== undefined) text = this.asciiText(bytes);
    if (text === undefined) {
      const decoder = this.decoder as Decoder;
      text = flush ? decoder.decode(bytes, false) : decoder.decode(bytes, true);
      if (text.indexOf('\ufffd') !== -1) this.locateInvalid(bytes, text, flush);
      // After an ASCII byte, UTF-8 and the single-byte decoders hold nothing back.
      if (bytes.length > 0) this.pending = (bytes[bytes.length - 1] as number) >= 0x80;
    }
    this.bytePos += bytes.length;
    this.textPos += text.length;
    this.keepTail(bytes);
    return text;
  }

  /** Keep the last TAIL bytes handed to the decoder, these `bytes` being the latest. */
  private keepTail(bytes: Uint8Array): void {
    if (bytes.length >= TAIL) this.tail = bytes.slice(bytes.length - TAIL);
    else if (bytes.length > 0) {
      const joined = new Uint8Array(this.tail.length + bytes.length);
      joined.set(this.tail);
      joined.set(bytes, this.tail.length);
      this.tail = joined.slice(Math.max(0, joined.length - TAIL));
    }
  }

  /** `text` (decoded from `bytes`) contains U+FFFD: find which ones replaced invalid bytes. */
  private locateInvalid(bytes: Uint8Array, text: string, flush: boolean): void {
    const encoding = this.encoding;
    const found: Array<[number, number | undefined]> = [];
    const sink: ErrorSink = (out, byte) => found.push([out, byte]);
    let exact = false;
    if (encoding === 'utf-8' || isUtf16(encoding)) {
      const replay = encoding === 'utf-8' ? new Utf8Replay() : new Utf16Replay(encoding === 'utf-16le');
      // Rebuild the decoder's state from the last bytes it saw (a pending sequence is at most 3 bytes
      // long and starts afresh at its lead byte or unit, whatever came before).
      let tail = this.tail;
      let tailAt = this.bytePos - tail.length;
      if (encoding !== 'utf-8' && (tailAt - (this.sniff as EncodingSniff).bomLength) % 2 !== 0) {
        tail = tail.subarray(1);
        tailAt++;
      }
      replay.feed(tail, tailAt, undefined);
      replay.out = 0;
      replay.feed(bytes, this.bytePos, sink);
      if (flush) replay.flush(sink);
      exact = replay.out === text.length;
      if (!exact) found.length = 0;
    }
    if (!exact) {
      // One U+FFFD per error; positions in bytes are exact for single-byte encodings only.
      const single = SINGLE_BYTE.has(encoding);
      for (let i = text.indexOf('\ufffd'); i !== -1; i = text.indexOf('\ufffd', i + 1)) found.push([i, single ? this.bytePos + i : undefined]);
    }
    for (const [out, byte] of found) {
      this.invalid++;
      if (this.invalid > MAX_INVALID_BYTES_REPORTED) continue;
      const where = byte !== undefined ? `at byte ${byte}` : `in bytes ${this.bytePos}–${this.bytePos + bytes.length}`;
      const name = encodingName(encoding);
      this.diagnostics.push({
        code: 'encoding/invalid-bytes',
        severity: 'error',
        message: flush && isUtf16(encoding)
          ? `the file ends inside a ${name} character (an odd number of bytes, or half a surrogate pair) ${where}; dropped, as libxml2 drops it, but XML 1.0 (4.3.3) makes it a fatal error`
          : `invalid ${name} byte sequence ${where}, replaced by U+FFFD`,
        offset: this.textPos + out,
        hint: this.hint(),
      });
    }
  }

  private hint(): string {
    const s = this.sniff;
    return s !== undefined && s.source === 'default' && s.encoding === 'utf-8'
      ? `the file is not valid UTF-8: save it as UTF-8${this.markup ? ', or declare its real encoding in the XML declaration' : ' (a text sitemap must be UTF-8, sitemaps.org)'}`
      : `the file is not valid ${encodingName(this.encoding)}: check the encoding it is saved in`;
  }
}
