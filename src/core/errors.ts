// Exceptions are for misuse of the API and for values the writer refuses; each carries a stable code
// (DESIGN.md "Diagnostics are data").

export class SitemapError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'SitemapError';
    this.code = code;
  }
}

/**
 * A value the model refuses (a loc that is not http(s), a priority of 1.5, a lastmod that is not a
 * W3C Datetime). `code` is a stable rule id such as `loc/not-absolute`; `field` names the field as
 * written in the XML (`loc`, `image:loc`, `video:duration`, ...).
 */
export class InvalidValueError extends SitemapError {
  readonly field: string;
  readonly value: unknown;
  constructor(code: string, field: string, value: unknown, message: string) {
    super(code, message);
    this.name = 'InvalidValueError';
    this.field = field;
    this.value = value;
  }
}

/** Quote a value for an error message, shortened so a 10 kB value does not flood the terminal. */
export function quoteValue(value: unknown): string {
  const text = typeof value === 'string' ? value : value instanceof Date ? String(value) : JSON.stringify(value) ?? String(value);
  const short = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return JSON.stringify(short);
}
