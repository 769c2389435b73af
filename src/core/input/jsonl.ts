// JSON Lines input: one UrlEntry per line, its shape derived from vocabulary.ts. Only the shape is
// checked here (field names, JSON types, required fields); values are the writer's to validate.

import { SitemapError } from '../errors.js';
import { aliasKey } from './csv.js';
import type { UrlEntry } from '../model.js';
import { URL_ELEMENT, URL_EXTENSIONS, type ElementDecl, type ModelValue, type Particle } from '../vocabulary.js';

type Shape =
  | { kind: 'string' }
  | { kind: 'number' }
  | { kind: 'stringOrNumber'; date?: true }
  | { kind: 'array'; of: Shape }
  | { kind: 'object'; fields: ReadonlyMap<string, Field> };

interface Field {
  shape: Shape;
  required: boolean;
}

const str: Shape = { kind: 'string' };
/** 1973-03-03: a date number below it is taken for epoch seconds or YYYYMMDD, not milliseconds. */
const EARLIEST_EPOCH_MS = 1e11;
const arrayOf = (of: Shape): Shape => ({ kind: 'array', of });
/** A DateInput, a priority or a price: JSON has no Date, so a string or epoch milliseconds. */
const VALUE_SHAPES: Readonly<Record<ModelValue, Shape>> = {
  string: str, integer: { kind: 'number' }, decimal: { kind: 'number' }, numeric: { kind: 'stringOrNumber' }, date: { kind: 'stringOrNumber', date: true },
  commaList: arrayOf(str), spaceList: arrayOf(str),
};

function addAttributes(fields: Map<string, Field>, decl: ElementDecl): void {
  for (const a of Object.values(decl.type.attributes ?? {})) {
    if (a.prop !== undefined) fields.set(a.prop, { shape: VALUE_SHAPES[a.as ?? 'string'], required: a.required || a.modelRequired === true });
  }
}

/** The shape of the model object an element fills (vocabulary.ts): its text property, attributes and children. */
function objectOf(decl: ElementDecl, extensions: readonly Particle[] = []): Shape & { kind: 'object' } {
  const fields = new Map<string, Field>();
  if (decl.textProp !== undefined) fields.set(decl.textProp, { shape: VALUE_SHAPES[decl.as ?? 'string'], required: true });
  addAttributes(fields, decl);
  for (const p of [...(decl.type.sequence ?? []), ...extensions]) {
    const e = p.element;
    if (e?.prop === undefined) continue;
    const own = e.type.sequence !== undefined || e.textProp !== undefined ? objectOf(e) : VALUE_SHAPES[e.as ?? 'string'];
    fields.set(e.prop, { shape: p.max > 1 ? arrayOf(own) : own, required: p.min > 0 });
    if (own.kind !== 'object') addAttributes(fields, e);
  }
  return { kind: 'object', fields };
}

const URL_ENTRY = objectOf(URL_ELEMENT, URL_EXTENSIONS);

function fail(message: string): never {
  throw new SitemapError('ERR_SITEMAP_INPUT', message);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' ? `a ${type}` : 'an object';
}

/** Each shape's JSON type: what a message calls it, and whether a value has it (items and fields are checked apart). */
const JSON_TYPES: Readonly<Record<Shape['kind'], [what: string, is: (value: unknown) => boolean]>> = {
  string: ['a string', (value) => typeof value === 'string'],
  number: ['a number', (value) => typeof value === 'number'],
  stringOrNumber: ['a string or a number', (value) => typeof value === 'string' || typeof value === 'number'],
  array: ['an array', Array.isArray],
  object: ['an object', (value) => typeof value === 'object' && value !== null && !Array.isArray(value)],
};

/**
 * Told of a field the model does not have, which is then ignored (as an unknown CSV column is).
 * `path` is where it is, with array indexes (`images[2].foo`); `suggestion` a model field whose name
 * differs only in case or in `-`, `_` and spaces (`lastMod` → `lastmod`).
 */
export type UnknownFieldHandler = (path: string, suggestion: string | undefined) => void;

function checkObject(value: Record<string, unknown>, shape: Shape & { kind: 'object' }, path: string, onUnknown: UnknownFieldHandler | undefined): void {
  for (const key of Object.keys(value)) {
    const field = shape.fields.get(key);
    const at = path === '' ? key : `${path}.${key}`;
    if (field === undefined) {
      const wanted = aliasKey(key);
      const hint = [...shape.fields.keys()].find((k) => aliasKey(k) === wanted);
      if (onUnknown === undefined) fail(`unknown field "${at}"${hint === undefined ? '' : ` (did you mean "${hint}"?)`}`);
      onUnknown(at, hint);
      delete value[key];
      continue;
    }
    if (value[key] === null && !field.required) {
      // null stands for "absent", as many JSON producers write it.
      delete value[key];
      continue;
    }
    check(value[key], field.shape, at, onUnknown);
  }
  for (const [key, field] of shape.fields) {
    if (field.required && !Object.hasOwn(value, key)) fail(`field "${path === '' ? key : `${path}.${key}`}" is required`);
  }
}

function check(value: unknown, shape: Shape, path: string, onUnknown: UnknownFieldHandler | undefined): void {
  const [what, is] = JSON_TYPES[shape.kind];
  if (!is(value)) fail(`field "${path}" must be ${what}, got ${typeName(value)}`);
  if (shape.kind === 'array') (value as unknown[]).forEach((item, i) => check(item, shape.of, `${path}[${i}]`, onUnknown));
  else if (shape.kind === 'object') checkObject(value as Record<string, unknown>, shape, path, onUnknown);
  else if (shape.kind === 'stringOrNumber' && shape.date === true && typeof value === 'number' && value < EARLIEST_EPOCH_MS) {
    // JSON often carries epoch seconds (or 20240101): as milliseconds, a 1970 date nobody meant.
    fail(`field "${path}" is ${value}, as epoch milliseconds a date before 1973: write a W3C Datetime string ("2024-01-01") or epoch milliseconds (seconds × 1000)`);
  }
}

/**
 * One JSON Lines line as an entry, its shape checked against the `UrlEntry` model (field names exactly,
 * JSON types, required fields; `null` is absent; dates and priority a string or a number). Throws
 * `ERR_SITEMAP_INPUT` with the field's path (`field "images[2].loc" must be a string, got a number`).
 * An unknown field is removed and reported to `onUnknownField`, or without it is an error.
 */
export function parseJsonLine(line: string, onUnknownField?: UnknownFieldHandler): UrlEntry {
  let value: unknown;
  try {
    value = JSON.parse(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
  } catch (error) {
    fail(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return jsonLineEntry(value, onUnknownField);
}

/** A JSON Lines value already parsed, checked as parseJsonLine checks it (a change feed parses its lines once). */
export function jsonLineEntry(value: unknown, onUnknownField?: UnknownFieldHandler): UrlEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(`expected a JSON object, got ${typeName(value)}`);
  }
  if (Object.hasOwn(value, 'sitemap') && !Object.hasOwn(value, 'loc')) {
    // What `sitemapkit read` prints for a child of a sitemap index.
    fail('a sitemap index child ({"sitemap":…}), not a page; generate lists pages: read the child sitemaps for their pages');
  }
  checkObject(value as Record<string, unknown>, URL_ENTRY, '', onUnknownField);
  return value as UrlEntry;
}
