// Serialised entries set aside by a key (a child): a pass over any input holds at most `maxPending`
// characters (the rest appended to a file per key), later one group at a time, in the order given.

import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import type { SerializedEntry } from '../../core/build/stable-set.js';

const FIELD = '\x01';
// Neither can appear in a serialised entry: XML 1.0 forbids both characters (escape.ts refuses them).
const RECORD = '\x00';

/** A spilled record: the child stem it belongs to, and its entry (null: the URL `loc` is deleted). */
export interface SpilledEntry {
  stem: string;
  loc: string;
  item: SerializedEntry | null;
}

/** A record as a spill holds it: its fields, then its end (RECORD). */
export function encodeRecord(stem: string, loc: string, item: SerializedEntry | null): string {
  return (item === null ? [stem, '-1', '', '', '', loc, ''] : [stem, item.namespaces, item.lastmodMs, item.lastmodText ?? '', item.hash ?? '', loc, item.xml]).join(FIELD) + RECORD;
}

export class Spill {
  // Encoded: flat strings cost the collector less than entry objects.
  private readonly pending = new Map<string, string[]>();
  private pendingLength = 0;
  /** Keys with a file. */
  private readonly written = new Set<string>();

  /** `pathOf(key)`: the file of a group, in a temporary folder the caller removes. */
  constructor(
    private readonly pathOf: (key: string) => string,
    private readonly maxPending = 16 * 1024 * 1024,
  ) {}

  /** Sets an entry (or the deletion of `loc`) aside under its child `stem`, the key it is taken by. */
  add(stem: string, loc: string, item: SerializedEntry | null): void {
    const record = encodeRecord(stem, loc, item);
    const list = this.pending.get(stem);
    if (list === undefined) this.pending.set(stem, [record]);
    else list.push(record);
    this.pendingLength += record.length;
    if (this.pendingLength >= this.maxPending) this.flush();
  }

  /** The keys that have records. */
  keys(): string[] {
    return [...new Set([...this.written, ...this.pending.keys()])].sort();
  }

  /** Writes every waiting record to its key's file: memory holds none of them afterwards. */
  flush(): void {
    for (const [key, records] of this.pending) {
      appendFileSync(this.pathOf(key), records.join(''));
      this.written.add(key);
    }
    this.pending.clear();
    this.pendingLength = 0;
  }

  /** The records of `key` as bytes, in the order they were added (stem-records.ts lays them out), then forgotten (its file removed). */
  takeBytes(key: string): Buffer {
    let bytes = Buffer.alloc(0);
    if (this.written.has(key)) {
      bytes = readFileSync(this.pathOf(key));
      rmSync(this.pathOf(key));
      this.written.delete(key);
    }
    const waiting = this.pending.get(key);
    if (waiting !== undefined) {
      bytes = Buffer.concat([bytes, Buffer.from(waiting.join(''))]);
      this.pending.delete(key);
      for (const record of waiting) this.pendingLength -= record.length;
    }
    return bytes;
  }

  /** The records of `key` in the order they were added, then forgotten (its file removed). */
  take(key: string): SpilledEntry[] {
    const text = this.takeBytes(key).toString('utf8');
    const records: SpilledEntry[] = [];
    for (let at = 0; at < text.length; ) {
      // Six fields, then the XML up to the record's end (indexOf rather than split: no arrays).
      const fields: string[] = [];
      for (let k = 0; k < 6; k++) {
        const end = text.indexOf(FIELD, at);
        fields.push(text.slice(at, end));
        at = end + 1;
      }
      const end = text.indexOf(RECORD, at);
      const [stem, namespaces, lastmodMs, lastmodText, hash, loc] = fields as [string, string, string, string, string, string];
      const xml = text.slice(at, end);
      at = end + 1;
      if (namespaces === '-1') {
        records.push({ stem, loc, item: null });
        continue;
      }
      const item: SerializedEntry = { loc, xml, bytes: Buffer.byteLength(xml), namespaces: Number(namespaces), lastmodMs: Number(lastmodMs) };
      if (lastmodText !== '') item.lastmodText = lastmodText;
      if (hash !== '') item.hash = Number(hash);
      records.push({ stem, loc, item });
    }
    return records;
  }
}
