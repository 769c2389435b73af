// What `sitemapkit diff` compares, without I/O: the fields of two entries of one URL, and a table that
// tells added, removed, changed and unchanged URLs apart without keeping URL strings: a loc's 64-bit
// fingerprint (url.ts locFingerprint) maps to an ordinal into two typed columns, the other fields'
// fingerprint and a state. Two 10,000,000-URL sets fit in a few hundred MB; the strings take gigabytes.
//
// Three passes (node/diff-sitemaps.ts reads the sources): NEW (addNew), OLD (matchOld: removed,
// unchanged, or a numbered changed candidate), NEW again (matchNew: added, or a candidate's number).

import { dateText } from './datetime.js';
import { fingerprint } from './fingerprint.js';
import { doubled, FingerprintTable } from './fingerprint-table.js';
import type { DateInput, UrlEntry } from './model.js';

/** The fields compared, in the order a change lists them. */
export const DIFF_FIELDS = ['lastmod', 'changefreq', 'priority', 'images', 'videos', 'news', 'alternates'] as const;
export type DiffField = (typeof DIFF_FIELDS)[number];

/** One field that differs: its value in OLD and in NEW (undefined where the entry has none). */
export interface FieldChange {
  field: DiffField;
  old: unknown;
  new: unknown;
}

/** JSON with the keys of every object sorted: the same value is the same text, whatever built it. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    if (value instanceof Date) return JSON.stringify(value.toISOString());
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A field's value as compared: values as written (lastmod text, priority as the reader read it). */
function fieldText(entry: UrlEntry, field: DiffField): string | undefined {
  const value = entry[field];
  if (value === undefined) return undefined;
  if (field === 'lastmod') return dateText(value as DateInput);
  if (field === 'changefreq' || field === 'priority') return String(value);
  return canonicalJson(value);
}

/** The fields of `entry` but its loc as one text (a separator no value holds between them). */
function fieldsText(entry: UrlEntry): string {
  // The common entry (no extension) costs three field reads and one concatenation.
  let text = `${entry.lastmod === undefined ? '' : dateText(entry.lastmod)}\u0000${entry.changefreq ?? ''}\u0000${entry.priority === undefined ? '' : String(entry.priority)}`;
  for (let i = 3; i < DIFF_FIELDS.length; i++) {
    const value = fieldText(entry, DIFF_FIELDS[i] as DiffField);
    if (value !== undefined) text += `\u0001${i}${value}`;
  }
  return text;
}

/** Fingerprint of every field of `entry` but its loc, into FINGERPRINT (fingerprint.ts). */
export function fingerprintFields(entry: UrlEntry): void {
  fingerprint(fieldsText(entry));
}

/** The fields that differ between two entries of one URL, compared exactly (values as written). */
export function changedFields(before: UrlEntry, after: UrlEntry): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of DIFF_FIELDS) {
    if (fieldText(before, field) !== fieldText(after, field)) changes.push({ field, old: before[field], new: after[field] });
  }
  return changes;
}

// States of a URL in the table.
const NEW_ONLY = 1;
const UNCHANGED = 2;
const CHANGED = 3;
const OLD_ONLY = 4;
/** Seen again in NEW's second pass: a later occurrence is a repeat. */
const DONE = 5;

/** What matchOld and matchNew answer, when not the number (≥ 0) of a changed candidate. */
export const REMOVED = -1;
export const ADDED = -1;
export const UNCHANGED_URL = -2;
/** The URL was listed before in the same source: its first occurrence counts. */
export const REPEATED = -3;
/** NEW's second reading holds a URL its first did not: it changed while it was compared. */
export const UNKNOWN = -4;

/**
 * URLs by their loc's fingerprint (`hash1`, `hash2`), with their other fields' (`fields1`, `fields2`:
 * after fingerprintFields). Two locs of one fingerprint are one URL: a chance of about n² / 2^65 (1 in
 * 90,000 for 2 × 10^7); the caller confirms a changed candidate exactly, not an unchanged one.
 */
export class UrlDiffTable {
  private readonly locs = new FingerprintTable(1 << 16);
  /** Per ordinal: the fields' fingerprint (two int32), or, once a changed candidate, its number. */
  private fields = new Int32Array(1 << 17);
  private states = new Uint8Array(1 << 16);
  private count = 0;
  /** Changed candidates numbered so far (matchOld's numbers are 0 to this, exclusive). */
  changed = 0;
  /** Distinct URLs of each source. */
  newUrls = 0;
  oldUrls = 0;
  /** Distinct URLs of NEW's second reading: fewer than newUrls when NEW lost one in between. */
  newSeen = 0;

  /** First pass: a URL of NEW. False when NEW listed it before (the first occurrence counts). */
  addNew(hash1: number, hash2: number, fields1: number, fields2: number): boolean {
    if (this.locs.add(hash1, hash2, this.count) !== -1) return false;
    this.append(NEW_ONLY, fields1, fields2);
    this.newUrls++;
    return true;
  }

  /** Second pass: a URL of OLD. REMOVED, UNCHANGED_URL, REPEATED, or the number of a changed candidate. */
  matchOld(hash1: number, hash2: number, fields1: number, fields2: number): number {
    const ordinal = this.locs.add(hash1, hash2, this.count);
    if (ordinal === -1) {
      this.append(OLD_ONLY, 0, 0);
      this.oldUrls++;
      return REMOVED;
    }
    const states = this.states;
    if (states[ordinal] !== NEW_ONLY) return REPEATED;
    this.oldUrls++;
    const fields = this.fields;
    if (fields[ordinal * 2] === fields1 && fields[ordinal * 2 + 1] === fields2) {
      states[ordinal] = UNCHANGED;
      return UNCHANGED_URL;
    }
    states[ordinal] = CHANGED;
    fields[ordinal * 2] = this.changed;
    return this.changed++;
  }

  /** Third pass: NEW again. ADDED, UNCHANGED_URL, REPEATED, UNKNOWN, or the number of a changed candidate. */
  matchNew(hash1: number, hash2: number): number {
    const ordinal = this.locs.get(hash1, hash2);
    if (ordinal === -1) return UNKNOWN;
    const state = this.states[ordinal];
    if (state === DONE) return REPEATED;
    if (state === OLD_ONLY) return UNKNOWN;
    this.states[ordinal] = DONE;
    this.newSeen++;
    if (state === NEW_ONLY) return ADDED;
    if (state === CHANGED) return this.fields[ordinal * 2] as number;
    return UNCHANGED_URL;
  }

  private append(state: number, fields1: number, fields2: number): void {
    const ordinal = this.count++;
    if (ordinal === this.states.length) {
      this.states = doubled(this.states);
      this.fields = doubled(this.fields);
    }
    this.states[ordinal] = state;
    this.fields[ordinal * 2] = fields1;
    this.fields[ordinal * 2 + 1] = fields2;
  }
}
