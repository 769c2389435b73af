// crc32Combine: the CRC-32 of A‖B from crc(A), crc(B) and len(B), as zlib's crc32_combine does it.
// Appending n zero bytes to a message is a linear map on its CRC register, a 32×32 matrix over GF(2);
// the matrix for 2^k bytes is the square of the one for 2^(k-1). zlib squares from scratch on every
// call; the matrices do not depend on the data, so they are built once per power of two and cached.
// Pure arithmetic, but it lives in node/ because only the parallel gzip writer needs it.

const POLY = 0xedb88320; // CRC-32 (IEEE 802.3), reflected

/** `mat` × `vec` over GF(2); `mat` is 32 columns, column n is the image of bit n. */
function gf2MatrixTimes(mat: Uint32Array, vec: number): number {
  let sum = 0;
  let i = 0;
  let v = vec >>> 0;
  while (v !== 0) {
    if ((v & 1) !== 0) sum ^= mat[i] as number;
    v >>>= 1;
    i++;
  }
  return sum >>> 0;
}

function gf2MatrixSquare(mat: Uint32Array): Uint32Array {
  const square = new Uint32Array(32);
  for (let n = 0; n < 32; n++) square[n] = gf2MatrixTimes(mat, mat[n] as number);
  return square;
}

/** ZEROS[k]: the operator that appends 2^k zero bytes. Grown on demand (at most 53 entries). */
const ZEROS: Uint32Array[] = [];

function zerosOperator(k: number): Uint32Array {
  if (ZEROS.length === 0) {
    // One zero bit: shift right, and xor in the polynomial when the low bit falls out.
    let op: Uint32Array = new Uint32Array(32);
    op[0] = POLY;
    for (let n = 1; n < 32; n++) op[n] = (1 << (n - 1)) >>> 0;
    for (let bits = 1; bits < 8; bits *= 2) op = gf2MatrixSquare(op); // 2, 4, 8 bits = one byte
    ZEROS.push(op);
  }
  while (ZEROS.length <= k) ZEROS.push(gf2MatrixSquare(ZEROS[ZEROS.length - 1] as Uint32Array));
  return ZEROS[k] as Uint32Array;
}

/**
 * The CRC-32 of the concatenation A‖B, given `crcA` = crc32(A), `crcB` = crc32(B) and `lengthB` = the
 * byte length of B (a non-negative safe integer; A's length is not needed).
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (!Number.isSafeInteger(lengthB) || lengthB < 0) throw new RangeError(`crc32Combine: length must be a non-negative integer, got ${lengthB}`);
  let crc = crcA >>> 0;
  let n = lengthB;
  for (let k = 0; n > 0; k++) {
    if (n % 2 === 1) crc = gf2MatrixTimes(zerosOperator(k), crc);
    n = Math.floor(n / 2);
  }
  return (crc ^ crcB) >>> 0;
}
