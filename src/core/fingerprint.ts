// A 64-bit fingerprint of a string as two 32-bit halves: FNV-1a and a multiplicative hash with a
// different seed, both over UTF-16 code units. Used to remember millions of URLs without keeping
// the strings (write/fingerprint-set.ts for dedupe, validate/hreflang.ts for return links).

/** Where `fingerprint` leaves its two halves, so that hashing allocates nothing. */
export const FINGERPRINT = new Int32Array(2);

/** Fingerprint `text` into FINGERPRINT[0] and FINGERPRINT[1]. */
export function fingerprint(text: string): void {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  h1 ^= h1 >>> 16;
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  h2 ^= h2 >>> 16;
  FINGERPRINT[0] = h1;
  FINGERPRINT[1] = h2;
}
