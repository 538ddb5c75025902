import { compareStrings } from './compare-strings.js';

/**
 * A canonical JSON text of a value: object keys sorted at every depth, so two values that are
 * the same JSON with keys in another order give the same text. Values come from parsed JSON, so
 * there are no cycles, functions or class instances to worry about.
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
