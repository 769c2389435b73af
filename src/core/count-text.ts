// Whole numbers as people read them (50,000), without toLocaleString: its first call loads ICU,
// which costs a command's start 12-18 ms (measured, bench/startup.js).

/** `n` with a comma between thousands; a number that is not a safe integer as toLocaleString writes it. */
export function formatCount(n: number): string {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US');
}
