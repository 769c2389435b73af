// Options given only when set: with exactOptionalPropertyTypes, an optional property may be absent
// but not undefined, so a value that may be undefined is passed through definedOnly.

/** The properties of `values` that are not undefined (`...definedOnly({ maxUrls, profile })`). */
export function definedOnly<T extends object>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
