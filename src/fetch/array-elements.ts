/**
 * A JSON array read a few elements at a time from its bytes. `JSON.parse` of a whole answer
 * needs its bytes, its text and its value at once: three copies of a listing that may be
 * hundreds of MB. Cut at the array's top-level commas, each batch of elements is decoded and
 * parsed on its own, so beside the bytes only the value being built is held, and no text of the
 * whole answer.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** JSON's white space: the only characters `JSON.parse` lets stand between tokens. */
function isJsonSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * How many bytes of elements are parsed at a time: parsed one by one, a listing of many small
 * elements takes several times as long as parsed whole (a call and a text each).
 */
const BATCH_BYTES = 1 << 20;

/**
 * The elements of the JSON array that `bytes` (valid UTF-8) hold, after an optional byte order
 * mark and white space, parsed a batch of whole elements at a time: the same value `JSON.parse`
 * gives for the whole text. Undefined whenever that is not plainly so (not an array, a syntax
 * error anywhere, an unterminated string …): the caller then parses the whole text, which also
 * says what is wrong. `afterBatch` runs after each batch (a large answer's run collects the
 * batch's texts there); `batchBytes` (tests) sets where a batch may end.
 */
export function parseArrayElements(bytes: Buffer, options: { afterBatch?: () => void; batchBytes?: number } = {}): unknown[] | undefined {
  const { afterBatch, batchBytes = BATCH_BYTES } = options;
  let at = UTF8_BOM.every((byte, i) => bytes[i] === byte) ? UTF8_BOM.length : 0;
  while (isJsonSpace(bytes[at])) at++;
  if (bytes[at] !== OPEN_ARRAY) return undefined;
  const elements: unknown[] = [];
  // The batch: from `start`, elements separated by `commas` top-level commas.
  let start = at + 1;
  let commas = 0;
  let depth = 0;
  for (let i = start; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      i = closingQuote(bytes, i + 1);
      if (i < 0) return undefined;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth > 0) {
        depth--;
        continue;
      }
      if (byte !== CLOSE_ARRAY) return undefined;
      // `[]` (white space inside allowed), else the last batch.
      if ((elements.length > 0 || !onlySpace(bytes, start, i)) && !parseBatch(bytes, start, i, commas + 1, elements)) return undefined;
      return onlySpace(bytes, i + 1, bytes.length) ? elements : undefined;
    } else if (byte === COMMA && depth === 0) {
      if (i - start < batchBytes) {
        commas++;
      } else {
        if (!parseBatch(bytes, start, i, commas + 1, elements)) return undefined;
        afterBatch?.();
        start = i + 1;
        commas = 0;
      }
    }
  }
  return undefined;
}

/** The index of the quote that ends the string whose contents start at `from`; -1 when there is none. */
function closingQuote(bytes: Buffer, from: number): number {
  for (let quote = bytes.indexOf(QUOTE, from); quote >= 0; quote = bytes.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

function onlySpace(bytes: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isJsonSpace(bytes[i])) return false;
  return true;
}

/**
 * Parses the bytes `from`–`to` as `count` elements separated by commas (as the inside of an
 * array) onto `elements`; false when they are not exactly that.
 */
function parseBatch(bytes: Buffer, from: number, to: number, count: number, elements: unknown[]): boolean {
  let batch: unknown;
  try {
    batch = JSON.parse(`[${bytes.toString('utf8', from, to)}]`);
  } catch {
    return false;
  }
  if (!Array.isArray(batch) || batch.length !== count) return false;
  for (const element of batch) elements.push(element);
  return true;
}
