// Argument checks shared by the commands: a bad value is a UsageError, reported in one line (exit 2).

import { EXIT_FATAL, type CliIo } from './io.js';

export class UsageError extends Error {}

/** Reports a usage problem of `command` and returns the exit code for it. */
export function usageFailure(io: CliIo, command: string, message: string): number {
  io.stderr.write(`sitemapkit ${command}: ${message}\nRun "sitemapkit ${command} --help" for usage.\n`);
  return EXIT_FATAL;
}

/** A whole number above 0, or undefined when the option was not given. */
export function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} needs a whole number above 0, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** One of `allowed`, or undefined when the option was not given. */
export function choice<T extends string>(value: string | undefined, flag: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return value as T;
}

const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A whole number above 0, optionally with a K, M or G suffix (powers of 1024; `KiB`, `MB` read alike). */
export function byteSize(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)(?:([kmg])(?:i?b)?)?$/i.exec(value.trim());
  const n = m === null ? NaN : Number(m[1]) * (UNITS[(m[2] ?? '').toLowerCase()] as number);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} needs a whole number above 0 (K, M, G allowed), got ${JSON.stringify(value)}`);
  return n;
}

/** Milliseconds from seconds written as a number (`30`, `0.5`), or undefined when the option was not given. */
export function seconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || Number(value) <= 0) throw new UsageError(`${flag} needs a number of seconds above 0, got ${JSON.stringify(value)}`);
  return Math.round(Number(value) * 1000);
}
