import { canonicalJson } from '../model/canonical-json.js';

export { canonicalJson };

/** True when two values are the same JSON, whatever the order of object keys. */
export function jsonEqual(input: { before: unknown; after: unknown }): boolean {
  const { before, after } = input;
  // Most unknown fields are strings: compare scalars directly, objects canonically.
  if (before === null || typeof before !== 'object' || after === null || typeof after !== 'object') return before === after;
  return canonicalJson(before) === canonicalJson(after);
}

/**
 * Reads an own property only: `extra['constructor']` or `extra['__proto__']` must not find
 * `Object.prototype`'s members when the server did not send such a field.
 */
export function ownValue(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
