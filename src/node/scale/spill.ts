// Serialised entries set aside in files, grouped by a key (a shard for generate --shards, a child for
// apply), so that a pass over an input of any size holds in memory only what is waiting to be
// appended (at most `maxPending` characters) and, later, one group at a time. Each record keeps the
// order it came in: of two records of one URL, the later one is read last.

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

export class Spill {
  private readonly pending = new Map<string, string>();
  private pendingLength = 0;
  private readonly written = new Set<string>();

  /** `pathOf(key)`: the file of a group, in a temporary folder the caller removes. */
  constructor(
    private readonly pathOf: (key: string) => string,
    private readonly maxPending = 16 * 1024 * 1024,
  ) {}

  /** Sets an entry (or the deletion of `loc`) aside under `key`. */
  add(key: string, stem: string, loc: string, item: SerializedEntry | null): void {
    const record = item === null ? [stem, '-1', '', '', loc, ''].join(FIELD) + RECORD : [stem, item.namespaces, item.lastmodMs, item.lastmodText ?? '', loc, item.xml].join(FIELD) + RECORD;
    this.pending.set(key, (this.pending.get(key) ?? '') + record);
    this.pendingLength += record.length;
    if (this.pendingLength >= this.maxPending) this.flush();
  }

  /** The keys that have records. */
  keys(): string[] {
    this.flush();
    return [...this.written].sort();
  }

  private flush(): void {
    for (const [key, text] of this.pending) {
      appendFileSync(this.pathOf(key), text);
      this.written.add(key);
    }
    this.pending.clear();
    this.pendingLength = 0;
  }

  /** The records of `key` in the order they were added; its file is removed. Call after every `add`. */
  take(key: string): SpilledEntry[] {
    this.flush();
    const records: SpilledEntry[] = [];
    if (!this.written.has(key)) return records;
    const text = readFileSync(this.pathOf(key), 'utf8');
    rmSync(this.pathOf(key));
    this.written.delete(key);
    for (let at = 0; at < text.length; ) {
      // Five fields, then the XML up to the record's end (indexOf rather than split: no arrays).
      const fields: string[] = [];
      for (let k = 0; k < 5; k++) {
        const end = text.indexOf(FIELD, at);
        fields.push(text.slice(at, end));
        at = end + 1;
      }
      const end = text.indexOf(RECORD, at);
      const [stem, namespaces, lastmodMs, lastmodText, loc] = fields as [string, string, string, string, string];
      const xml = text.slice(at, end);
      at = end + 1;
      if (namespaces === '-1') {
        records.push({ stem, loc, item: null });
        continue;
      }
      const item: SerializedEntry = { loc, xml, bytes: Buffer.byteLength(xml), namespaces: Number(namespaces), lastmodMs: Number(lastmodMs) };
      if (lastmodText !== '') item.lastmodText = lastmodText;
      records.push({ stem, loc, item });
    }
    return records;
  }
}
