// A child stem laid out from its records as they sit on disk (spill.ts encodeRecord): one Buffer and
// a few typed-array numbers per record, not ~2.5 KB of objects per URL (a 25,000-URL stem took a worker
// past 250 MB). The same bytes as layOutStems with `byHash` (core/build/stable-set.ts).

import { setImmediate as pause } from 'node:timers/promises';
import { childFileName, childParts } from '../../core/build/partition.js';
import { childFrame, FOOTER, rootStart, urlHash } from '../../core/build/stable-set.js';
import { NS_NEWS } from '../../core/write/url-entry.js';
import { dedupeKey } from '../../core/url.js';
import type { Limits } from '../../core/model.js';
import { crc32 } from 'node:zlib';

const FIELD = 0x01;
const RECORD = 0x00;

/** A child laid out: its document as UTF-8 bytes, handed over a block at a time (never whole in memory), its size and CRC-32. */
export interface RecordChild {
  name: string;
  text: Iterable<Uint8Array>;
  bytes: number;
  crc: number;
  urls: number;
  lastmod?: string;
}

/** The records' fields each record's numbers point into (offsets into the stem's Buffer). */
interface Fields {
  count: number;
  hash: Float64Array;
  lastmodMs: Float64Array;
  namespaces: Uint32Array;
  /** Per record: lastmod text start and end, loc start and end, XML start and end. */
  at: Uint32Array;
}

/**
 * Lays out the children of `stem` from `records` (whole records, in the order given). It lets the event
 * loop run every PAUSE_EVERY records (a queue job's lock is renewed by a timer): a 50,000-URL stem held
 * it for 0.6-1.3 s on a busy machine. The loops between pauses are sync functions: an await inside the
 * loop cost 1.6× the CPU.
 */
export async function layOutRecords(stem: string, records: Buffer, options: { limits: Readonly<Limits>; gzip: boolean; xslUrl?: string }): Promise<{ children: RecordChild[]; duplicates: number }> {
  const fields = await parseRecords(records);
  const loc = (i: number): string => records.toString('utf8', fields.at[i * 6 + 2], fields.at[i * 6 + 3]);
  const order = sortedRecords(fields, loc);
  await pause();
  // Kept: the first of each run of one URL (equal URLs sort next to each other, first given first).
  const kept: number[] = [];
  let bytes = 0;
  let used = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k] as number;
    if (k > 0 && sameUrl(fields, loc, i, order[k - 1] as number)) continue;
    kept.push(i);
    bytes += xmlBytes(fields, i);
    used |= fields.namespaces[i] as number;
  }
  await pause();
  const { declaration, sizing } = childFrame(options, used);
  const news = kept.map((i) => ((fields.namespaces[i] as number) & NS_NEWS) !== 0);
  const fitsOne = kept.length <= sizing.maxUrls && bytes + sizing.overheadBytes <= sizing.maxBytes && news.filter(Boolean).length <= (sizing.maxNews as number);
  const groups = fitsOne ? [kept] : childParts(kept.map(loc), kept.map((i) => xmlBytes(fields, i)), sizing, 1, news, true).map((part) => part.map((k) => kept[k] as number));
  const count = groups.length;
  const children: RecordChild[] = [];
  for (const [bucket, group] of groups.entries()) {
    if (group.length === 0) continue;
    let namespaces = 0;
    let newest = -1;
    for (const i of group) {
      namespaces |= fields.namespaces[i] as number;
      if ((fields.lastmodMs[i] as number) > (newest === -1 ? Number.NEGATIVE_INFINITY : (fields.lastmodMs[newest] as number))) newest = i;
    }
    const head = Buffer.from(declaration + rootStart(namespaces));
    const pieces = function* (): Generator<Uint8Array> {
      yield head;
      for (const i of group) yield records.subarray(fields.at[i * 6 + 4], fields.at[i * 6 + 5]);
      yield FOOTER_BYTES;
    };
    let crc = crc32(head);
    let bytes = head.length + FOOTER_BYTES.length;
    for (let from = 0; from < group.length; from += PAUSE_EVERY) {
      [crc, bytes] = crcOf(records, fields, group.slice(from, from + PAUSE_EVERY), crc, bytes);
      await pause();
    }
    crc = crc32(FOOTER_BYTES, crc);
    const child: RecordChild = { name: childFileName(stem, bucket, count, options.gzip), text: { [Symbol.iterator]: () => inBlocks(pieces()) }, bytes, crc, urls: group.length };
    if (newest !== -1 && (fields.at[newest * 6] as number) < (fields.at[newest * 6 + 1] as number)) child.lastmod = records.toString('utf8', fields.at[newest * 6], fields.at[newest * 6 + 1]);
    children.push(child);
  }
  return { children, duplicates: order.length - kept.length };
}

const PAUSE_EVERY = 8192;

const FOOTER_BYTES = Buffer.from(FOOTER);
/** The one block every child is handed over in: its reader copies each block before it asks for the next. */
const BLOCK = Buffer.allocUnsafe(256 * 1024);

/** `pieces` in blocks of BLOCK (each yielded block is overwritten by the next). */
function* inBlocks(pieces: Iterable<Uint8Array>): Generator<Uint8Array> {
  let used = 0;
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; ) {
      const n = Math.min(piece.length - at, BLOCK.length - used);
      BLOCK.set(piece.subarray(at, at + n), used);
      used += n;
      at += n;
      if (used === BLOCK.length) {
        yield BLOCK;
        used = 0;
      }
    }
  }
  if (used > 0) yield BLOCK.subarray(0, used);
}

/** The CRC-32 and size of `crc` and `bytes` followed by the XML of records `group`. */
function crcOf(records: Buffer, fields: Fields, group: readonly number[], crc: number, bytes: number): [number, number] {
  for (const i of group) {
    crc = crc32(records.subarray(fields.at[i * 6 + 4], fields.at[i * 6 + 5]), crc);
    bytes += xmlBytes(fields, i);
  }
  return [crc, bytes];
}

function xmlBytes(fields: Fields, i: number): number {
  return (fields.at[i * 6 + 5] as number) - (fields.at[i * 6 + 4] as number);
}

/** Whether two records hold one URL, as the dedupe compares it (layOutStems: `%c3%bc` is `%C3%BC`). */
function sameUrl(fields: Fields, loc: (i: number) => string, a: number, b: number): boolean {
  return fields.hash[a] === fields.hash[b] && dedupeKey(loc(a)) === dedupeKey(loc(b));
}

/** Record indices by hash, then URL (as the dedupe compares it, as layOutStems does), then the order given. */
function sortedRecords(fields: Fields, loc: (i: number) => string): Uint32Array {
  const order = new Uint32Array(fields.count);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const { hash } = fields;
  return order.sort((a, b) => {
    const byHash = (hash[a] as number) - (hash[b] as number);
    if (byHash !== 0) return byHash;
    const [la, lb] = [dedupeKey(loc(a)), dedupeKey(loc(b))];
    return la < lb ? -1 : la > lb ? 1 : a - b;
  });
}

/** The fields `stem ns lastmodMs lastmodText hash loc xml` (spill.ts encodeRecord) of each record, PAUSE_EVERY records at a time. */
async function parseRecords(records: Buffer): Promise<Fields> {
  let count = 0;
  for (let end = records.indexOf(RECORD); end !== -1; end = records.indexOf(RECORD, end + 1)) count++;
  const fields: Fields = { count, hash: new Float64Array(count), lastmodMs: new Float64Array(count), namespaces: new Uint32Array(count), at: new Uint32Array(count * 6) };
  for (let i = 0, at = 0; i < count; i += PAUSE_EVERY) {
    at = parseRange(records, fields, i, Math.min(count, i + PAUSE_EVERY), at);
    await pause();
  }
  return fields;
}

/** Parses records `from` to `to` (excluded), the first at byte `at`; returns where the next starts. */
function parseRange(records: Buffer, fields: Fields, from: number, to: number, at: number): number {
  for (let i = from; i < to; i++) {
    at = records.indexOf(FIELD, at) + 1; // past the stem
    const ns = numberAt(records, at);
    const ms = numberAt(records, ns.next);
    const textStart = ms.next;
    const textEnd = records.indexOf(FIELD, textStart);
    const hash = numberAt(records, textEnd + 1);
    const locEnd = records.indexOf(FIELD, hash.next);
    const end = records.indexOf(RECORD, locEnd + 1);
    fields.namespaces[i] = ns.value;
    fields.lastmodMs[i] = ms.value;
    fields.at.set([textStart, textEnd, hash.next, locEnd, locEnd + 1, end], i * 6);
    fields.hash[i] = Number.isNaN(hash.value) ? urlHash(records.toString('utf8', hash.next, locEnd)) : hash.value;
    at = end + 1;
  }
  return at;
}

/** The decimal integer (or NaN: empty, `NaN`) from `at` up to the next FIELD, and where the field after it starts. */
function numberAt(records: Buffer, at: number): { value: number; next: number } {
  let value = 0;
  let sign = 1;
  let digits = 0;
  let valid = true;
  let i = at;
  for (let byte = records[i] as number; byte !== FIELD && i < records.length; byte = records[++i] as number) {
    if (byte >= 0x30 && byte <= 0x39) {
      value = value * 10 + (byte - 0x30);
      digits++;
    } else if (byte === 0x2d && i === at) sign = -1;
    else valid = false;
  }
  return { value: valid && digits > 0 ? sign * value : Number.NaN, next: i + 1 };
}
