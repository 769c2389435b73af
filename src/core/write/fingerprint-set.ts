// A compact set of URL fingerprints for de-duplication: two 32-bit hashes per URL in an open-addressing
// table of Int32 pairs, ~128 MB for ten million URLs where a Set<string> takes ~1 GB. Two URLs share
// both hashes with probability ~n²/2⁶⁵ (about 3 in a million for ten million URLs).

import { FINGERPRINT, fingerprint } from '../fingerprint.js';

export class FingerprintSet {
  private table: Int32Array;
  private mask: number;
  private count = 0;

  constructor(initialCapacity = 1 << 16) {
    let capacity = 16;
    while (capacity < initialCapacity) capacity *= 2;
    this.table = new Int32Array(capacity * 2);
    this.mask = capacity - 1;
  }

  /** Adds `text`; returns false when it (or a string with the same fingerprint) was already there. */
  add(text: string): boolean {
    fingerprint(text);
    const h1 = FINGERPRINT[0] as number;
    let h2 = FINGERPRINT[1] as number;
    // 0,0 marks an empty slot.
    if (h1 === 0 && h2 === 0) h2 = 1;
    if (this.insert(h1, h2)) {
      this.count++;
      if (this.count * 4 > (this.mask + 1) * 3) this.grow();
      return true;
    }
    return false;
  }

  private insert(h1: number, h2: number): boolean {
    const table = this.table;
    let slot = (h1 ^ Math.imul(h2, 0x27d4eb2d)) & this.mask;
    for (;;) {
      const a = table[slot * 2] as number;
      const b = table[slot * 2 + 1] as number;
      if (a === 0 && b === 0) {
        table[slot * 2] = h1;
        table[slot * 2 + 1] = h2;
        return true;
      }
      if (a === h1 && b === h2) return false;
      slot = (slot + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.table;
    this.table = new Int32Array(old.length * 2);
    this.mask = old.length - 1;
    for (let i = 0; i < old.length; i += 2) {
      const a = old[i] as number;
      const b = old[i + 1] as number;
      if (a !== 0 || b !== 0) this.insert(a, b);
    }
  }
}
