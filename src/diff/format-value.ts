import { compareStrings } from '../model/descriptor.js';
import { ownValue } from './json-equal.js';

/**
 * Code units that must never reach a terminal, log or annotation raw: C0 controls (ESC starts
 * ANSI sequences, CR/LF forge lines), DEL, C1 controls (U+009B is a one-byte CSI on some
 * terminals), line/paragraph separators, invisible and bidi-reordering format characters
 * (which make a name look like another), and lone surrogates.
 */
function isUnsafe(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return true;
  if (code === 0xad || code === 0x61c || code === 0x180e || code === 0xfeff) return true;
  if ((code >= 0x200b && code <= 0x200f) || (code >= 0x2028 && code <= 0x202e)) return true;
  if ((code >= 0x2060 && code <= 0x206f) || (code >= 0xfff9 && code <= 0xfffb)) return true;
  if (code >= 0xd800 && code <= 0xdbff) return !isLowSurrogate(text.charCodeAt(index + 1));
  if (isLowSurrogate(code)) return !(index > 0 && isHighSurrogate(text.charCodeAt(index - 1)));
  return false;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Replaces every unsafe code unit with its `\uXXXX` escape. */
function escapeUnsafe(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    out += isUnsafe(text, i) ? `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}` : text.charAt(i);
  }
  return out;
}

/**
 * A string as a double-quoted literal that is safe to print anywhere: JSON escapes, plus
 * `\uXXXX` for every unsafe character JSON leaves raw. Never contains a line break.
 */
export function quoteString(text: string): string {
  return escapeUnsafe(JSON.stringify(text));
}

/**
 * A name or path as it reads best: bare when it is plain printable text, quoted with
 * {@link quoteString} otherwise, so a server-chosen name can neither inject escape sequences
 * or lines nor pass for something else (empty, padded, or with quotes/backslashes).
 */
export function displayName(text: string): string {
  let plain = text !== '' && text.trim() === text && !/["\\]/.test(text);
  for (let i = 0; plain && i < text.length; i++) plain = !isUnsafe(text, i);
  return plain ? text : quoteString(text);
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
      .map((key) => `${quoteString(key)}: ${formatValue(ownValue(record, key))}`);
    return `{${pairs.join(', ')}}`;
  }
  // Numbers, booleans, null.
  return String(value);
}
