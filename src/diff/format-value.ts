import { compareStrings } from '../model/descriptor.js';

/**
 * Code units that must never reach a terminal, log or annotation raw: C0 controls (ESC starts
 * ANSI sequences, CR/LF forge lines), DEL, C1 controls (U+009B is a one-byte CSI on some
 * terminals), line/paragraph separators, invisible and bidi-reordering format characters
 * (which make a name look like another), and lone surrogates.
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\ufeff\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A string as a double-quoted literal that is safe to print anywhere: JSON escapes, plus
 * `\uXXXX` for every unsafe character JSON leaves raw. Never contains a line break.
 */
export function quoteString(text: string): string {
  return JSON.stringify(text).replace(UNSAFE, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A name or path as it reads best: bare when it is plain printable text, quoted with
 * {@link quoteString} otherwise, so a server-chosen name can neither inject escape sequences
 * or lines nor pass for something else (empty, padded, or with quotes/backslashes).
 */
export function displayName(text: string): string {
  const bare = text !== '' && text.trim() === text && !/["\\]/.test(text) && text.search(UNSAFE) === -1;
  return bare ? text : quoteString(text);
}

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
