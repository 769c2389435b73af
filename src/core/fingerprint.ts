// A 64-bit fingerprint of a string as two 32-bit halves (MurmurHash3's block mixing, and a
// multiply-xorshift with another seed), to remember millions of URLs without keeping the strings. On
// the hot path of validation: hashing two UTF-16 code units a step halves the work.

/** Where `fingerprint` leaves its two halves, so that hashing allocates nothing. */
export const FINGERPRINT = new Int32Array(2);

/** Fingerprint `text` into FINGERPRINT[0] and FINGERPRINT[1]. */
export function fingerprint(text: string): void {
  const n = text.length;
  let h1 = 0x811c9dc5 ^ n;
  let h2 = 0x9747b28c;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const word = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
    let k = Math.imul(word, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h1 ^= k;
    h1 = (Math.imul((h1 << 13) | (h1 >>> 19), 5) + 0xe6546b64) | 0;
    h2 = Math.imul(h2 ^ word, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  if (i < n) {
    const c = text.charCodeAt(i);
    h1 ^= Math.imul((Math.imul(c, 0xcc9e2d51) << 15) | (Math.imul(c, 0xcc9e2d51) >>> 17), 0x1b873593);
    h2 = Math.imul(h2 ^ c ^ 0x10000, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  // Avalanche (MurmurHash3's fmix32 for both, after different states).
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  h2 ^= n;
  h2 ^= h2 >>> 13;
  h2 = Math.imul(h2, 0xc2b2ae35);
  h2 ^= h2 >>> 16;
  FINGERPRINT[0] = h1;
  FINGERPRINT[1] = h2;
}
