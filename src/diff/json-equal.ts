import { compareStrings } from '../model/descriptor.js';

/**
 * A canonical JSON text of a value: object keys sorted at every depth, so two values that are
 * the same JSON with keys in another order give the same text. Unknown fields come from parsed
 * JSON, so there are no cycles, functions or class instances to worry about.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const pairs = Object.keys(record)
      .sort(compareStrings)
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${pairs.join(',')}}`;
  }
  // `undefined` (an absent field) must not equal `null` (a field sent as null).
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/** True when two values are the same JSON, whatever the order of object keys. */
export function jsonEqual(input: { before: unknown; after: unknown }): boolean {
  return canonicalJson(input.before) === canonicalJson(input.after);
}

/**
 * Reads an own property only: `extra['constructor']` or `extra['__proto__']` must not find
 * `Object.prototype`'s members when the server did not send such a field.
 */
export function ownValue(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
