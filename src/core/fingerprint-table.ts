// A map from 64-bit fingerprints (fingerprint.ts) to non-negative int32s: open addressing over
// (hash 1, hash 2, value + 1) triples in one Int32Array, 12 bytes a slot, so that a validator can
// remember a million URLs without their strings. read/lane.ts keeps the same table in WebAssembly memory.

/** A map from 64-bit fingerprints to non-negative int32 values. */
export interface FingerprintSet {
  readonly size: number;
  /** The value stored for these hashes, or -1. */
  get(hash1: number, hash2: number): number;
  /** Stores `value` (≥ 0) for these hashes unless they have one: returns the value already there, or -1 when added. */
  add(hash1: number, hash2: number, value: number): number;
  /** The index of the first of the `count` (hash 1, hash 2) pairs of `pairs` stored here, or -1. */
  firstOf(pairs: Int32Array, count: number): number;
}

/** `a` copied into an array twice as long: a column of values beside a table, by ordinal. */
export function doubled<T extends Int32Array | Uint8Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  return b;
}

export class FingerprintTable implements FingerprintSet {
  private slots: Int32Array<ArrayBuffer>;
  private mask: number;
  private count = 0;

  constructor(initialCapacity = 2048) {
    let capacity = 16;
    while (capacity < initialCapacity) capacity *= 2;
    this.slots = writtenSlots(capacity * 3);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  get(hash1: number, hash2: number): number {
    const slots = this.slots;
    const mask = this.mask;
    for (let slot = slotOf(hash1, hash2, mask); ; slot = (slot + 1) & mask) {
      const entry = slots[slot * 3 + 2] as number;
      if (entry === 0) return -1;
      if (slots[slot * 3] === hash1 && slots[slot * 3 + 1] === hash2) return entry - 1;
    }
  }

  add(hash1: number, hash2: number, value: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let slot = slotOf(hash1, hash2, mask);
    for (;;) {
      const entry = slots[slot * 3 + 2] as number;
      if (entry === 0) break;
      if (slots[slot * 3] === hash1 && slots[slot * 3 + 1] === hash2) return entry - 1;
      slot = (slot + 1) & mask;
    }
    slots[slot * 3] = hash1;
    slots[slot * 3 + 1] = hash2;
    slots[slot * 3 + 2] = value + 1;
    // Keep the load factor under 3/4 so that probes stay short.
    if (++this.count * 4 > (mask + 1) * 3) this.grow();
    return -1;
  }

  firstOf(pairs: Int32Array, count: number): number {
    for (let k = 0; k < count; k++) if (this.get(pairs[k * 2] as number, pairs[k * 2 + 1] as number) !== -1) return k;
    return -1;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = writtenSlots(old.length * 2);
    this.mask = this.mask * 2 + 1;
    const slots = this.slots;
    const mask = this.mask;
    for (let i = 0; i < old.length; i += 3) {
      const entry = old[i + 2] as number;
      if (entry === 0) continue;
      let slot = slotOf(old[i] as number, old[i + 1] as number, mask);
      while ((slots[slot * 3 + 2] as number) !== 0) slot = (slot + 1) & mask;
      slots[slot * 3] = old[i] as number;
      slots[slot * 3 + 1] = old[i + 1] as number;
      slots[slot * 3 + 2] = entry;
    }
  }
}

/**
 * A zeroed array whose pages are written once: in untouched memory a probe's read maps the shared zero
 * page and the write after it copies it, flushing every core's TLB (~15 ms of 600 in discover; perf).
 */
function writtenSlots(length: number): Int32Array<ArrayBuffer> {
  return new Int32Array(length).fill(0);
}

function slotOf(hash1: number, hash2: number, mask: number): number {
  return (hash1 ^ Math.imul(hash2, 0x27d4eb2d)) & mask;
}
