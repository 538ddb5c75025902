import { compareStrings } from '../model/descriptor.js';
import { quoteString } from '../text/safe-text.js';

/**
 * A field value for people: strings quoted and escaped, arrays and objects inline (object keys
 * sorted, so the text is stable), `(absent)` for a field one side does not have. One line.
 */
export function formatValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  if (typeof value === 'string') return quoteString(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatValue(item ?? null)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const pairs = Object.keys(record)
      .sort(compareStrings)
      .map((key) => `${quoteString(key)}: ${formatValue(record[key])}`);
    return `{${pairs.join(', ')}}`;
  }
  // Numbers, booleans, null.
  return String(value);
}
