/**
 * An answer's top-level elements, found by a scan rather than a parse: a pull whose answer
 * differs from the last one in a few elements recognises the others by their bytes' hashes and
 * validates only the new ones (`listing-response.ts`).
 */

/**
 * Where each element of `bytes`, a JSON array in UTF-8 (JSON white space only around it and
 * between its elements), starts and ends, in order; undefined when the body is not laid out as
 * one (then it is parsed the usual way, which says what is wrong). The scan reads bytes: every
 * character it looks for is ASCII, and no byte of a multi-byte UTF-8 character is ASCII. It only
 * finds where each element starts and ends, and does not check an element's own syntax: each
 * element is either one seen valid before (recognised by its hash) or parsed on its own.
 */
export function arrayElementSpans(bytes: Uint8Array): Array<[start: number, end: number]> | undefined {
  let at = skipWhiteSpace(bytes, 0);
  if (bytes[at] !== OPEN_ARRAY) return undefined;
  at = skipWhiteSpace(bytes, at + 1);
  const spans: Array<[number, number]> = [];
  if (bytes[at] === CLOSE_ARRAY) return skipWhiteSpace(bytes, at + 1) === bytes.length ? spans : undefined;
  for (;;) {
    const end = valueEnd(bytes, at);
    if (end < 0) return undefined;
    spans.push([at, end]);
    at = skipWhiteSpace(bytes, end);
    const next = bytes[at];
    if (next === COMMA) {
      at = skipWhiteSpace(bytes, at + 1);
    } else if (next === CLOSE_ARRAY) {
      return skipWhiteSpace(bytes, at + 1) === bytes.length ? spans : undefined;
    } else {
      return undefined;
    }
  }
}

const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where the value starting at `start` ends (the index after it); -1 when it does not end. */
function valueEnd(bytes: Uint8Array, start: number): number {
  const first = bytes[start];
  if (first === QUOTE) return stringEnd(bytes, start);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    // A number, true, false or null: up to the next separator.
    let at = start;
    while (at < bytes.length && !isSeparator(bytes[at]!)) at++;
    return at === start ? -1 : at;
  }
  let depth = 0;
  for (let at = start; at < bytes.length; at++) {
    const c = bytes[at];
    if (c === QUOTE) {
      at = stringEnd(bytes, at) - 1;
      if (at < 0) return -1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
    } else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) {
      return at + 1;
    }
  }
  return -1;
}

/** The index after the string literal opening at `start`; -1 when it does not close. */
function stringEnd(bytes: Uint8Array, start: number): number {
  for (let at = start + 1; at < bytes.length; at++) {
    const c = bytes[at];
    if (c === BACKSLASH) at++;
    else if (c === QUOTE) return at + 1;
  }
  return -1;
}

/** JSON's white space: space, tab, line feed, carriage return. */
function isWhiteSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isSeparator(c: number): boolean {
  return c === COMMA || c === CLOSE_ARRAY || isWhiteSpace(c);
}

function skipWhiteSpace(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && isWhiteSpace(bytes[at])) at++;
  return at;
}
