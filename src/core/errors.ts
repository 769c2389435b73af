// Exceptions are for misuse of the API and I/O failures; a problem in the input is a diagnostic.

import { formatCount } from './count-text.js';

/** The codes of thrown errors, each explained in docs/rules.md ("Thrown errors"). */
export const SITEMAP_ERROR_CODES = [
  'ERR_SITEMAP_OPTION', 'ERR_SITEMAP_API', 'ERR_SITEMAP_INVALID_VALUE', 'ERR_SITEMAP_LIMIT', 'ERR_SITEMAP_INPUT', 'ERR_SITEMAP_INPUT_FORMAT', 'ERR_SITEMAP_WRITE',
  'ERR_SITEMAP_EMPTY', 'ERR_SITEMAP_FOREIGN_FILE', 'ERR_SITEMAP_STATE', 'ERR_SITEMAP_ABORTED',
  // Serving: a folder's set that cannot be served, a live source slower than its timeout.
  'ERR_SITEMAP_SERVE', 'ERR_SITEMAP_TIMEOUT',
  // Queued runs (BullMQ): Redis unreachable or refusing; a run that is unknown or failed.
  'ERR_SITEMAP_REDIS', 'ERR_SITEMAP_QUEUE',
] as const;
export type SitemapErrorCode = (typeof SITEMAP_ERROR_CODES)[number];

/** The id of a rule in docs/rules.md (`loc/not-absolute`, `limits/too-many-sitemaps`, `gzip/corrupt`). */
export type RefusalCode = `${string}/${string}`;

export class SitemapError extends Error {
  readonly code: SitemapErrorCode;
  /** The rule refused, where the error is one: a caller tells such errors apart by it. */
  declare readonly rule?: RefusalCode;
  constructor(code: SitemapErrorCode, message: string, rule?: RefusalCode) {
    super(message);
    this.name = 'SitemapError';
    this.code = code;
    if (rule !== undefined) this.rule = rule;
  }
}

/** A value the model refuses: `rule` is a rule id (`loc/not-absolute`), `field` as in the XML (`image:loc`). */
export class InvalidValueError extends SitemapError {
  declare readonly rule: RefusalCode;
  readonly field: string;
  readonly value: unknown;
  /** The writer's mark: the innermost part of the entry holding the value that it can do without, `owner[key]` (`field` in the XML), or `count` items of a list from `key`. */
  at?: { owner: Record<string, unknown> | unknown[]; key: string | number; field: string; count?: number };
  /** Values of other items of the same list (images, videos, alternates) the writer refused in the same pass, each marked. */
  also?: InvalidValueError[];
  constructor(rule: RefusalCode, field: string, value: unknown, message: string) {
    super('ERR_SITEMAP_INVALID_VALUE', message, rule);
    this.name = 'InvalidValueError';
    this.field = field;
    this.value = value;
  }
}

/** Throws `ERR_SITEMAP_OPTION` unless `value` is undefined or a whole number of at least `min` (`name` says which option). */
export function checkCount(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < min)) throw new SitemapError('ERR_SITEMAP_OPTION', `${name} must be a whole number of at least ${min}, got ${value}`);
}

/** `value`, checked (a whole number of at least 1), or `fallback` when it is undefined. */
export function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  checkCount(name, value, 1);
  return value ?? fallback;
}

/** `s` cut to at most `max` UTF-16 units, `...` where it is cut, never inside a surrogate pair. */
export function shortened(s: string, max: number): string {
  if (s.length <= max) return s;
  const end = max - 3;
  const high = s.charCodeAt(end - 1);
  return `${s.slice(0, high >= 0xd800 && high <= 0xdbff ? end - 1 : end)}...`;
}

/** A count and the noun in the form that fits it, for every message: "1 entry", "2 entries", "50,000 URLs". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Bidi controls (UAX #9), shown as escapes wherever hostile text is shown: U+202E would draw …/\u202Egnp.exe as …/exe.png. */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A short, quoted rendering of a value for a message: at most `max` characters, `...` where it is cut. */
export function show(s: string, max = 80): string {
  return JSON.stringify(shortened(s, max));
}

/** Quote a value for an error message, shortened so a 10 kB value does not flood the terminal. */
export function quoteValue(value: unknown): string {
  return show(typeof value === 'string' ? value : valueText(value), 120);
}

/** A value that is not a string as a message writes it: `12n`, `true`, `{"a":1}`, unquoted and whole. */
export function valueText(value: unknown): string {
  try {
    return typeof value === 'bigint' ? `${value}n` : typeof value === 'number' || value instanceof Date ? String(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    // A cycle, or a toJSON that throws: the message of a refused value must not throw itself.
    return Object.prototype.toString.call(value);
  }
}
