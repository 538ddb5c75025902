/**
 * A JSON array read a few elements at a time from its bytes. `JSON.parse` of a whole answer
 * needs its bytes, its text and its value at once: three copies of a listing that may be
 * hundreds of MB. Cut at the array's top-level commas, each batch of elements is decoded and
 * parsed on its own and handed on, so beside the bytes only one batch's text and value are held
 * (and what the caller makes of them), and no text of the whole answer.
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
 * elements takes several times as long as parsed whole (a call and a text each); parsed from a
 * text past ~100 KB, V8 allocates the values in its old generation, where the elements, garbage
 * as soon as their batch is read, stay until a full collection.
 */
const BATCH_BYTES = 1 << 16;

/**
 * The elements of the JSON array that `bytes` (valid UTF-8) hold, after an optional byte order
 * mark and white space, parsed a batch of whole elements at a time and handed to `onBatch` in
 * order (`first`: the index of the batch's first element) as soon as each is parsed, so only one
 * batch's values need be alive at a time: together the same value `JSON.parse` gives for the
 * whole text. False whenever that is not plainly so (not an array, a syntax error anywhere, an
 * unterminated string …), possibly after some batches were handed over: the caller then drops
 * what it made of them and parses the whole text, which also says what is wrong. `afterBatch`
 * runs after each batch but the last, once the batch is garbage (a large answer's run collects
 * it there); `batchBytes` (tests) sets where a batch may end.
 */
export function parseArrayElements(
  bytes: Buffer,
  onBatch: (elements: unknown[], first: number) => void,
  options: { afterBatch?: () => void; batchBytes?: number } = {},
): boolean {
  const { afterBatch, batchBytes = BATCH_BYTES } = options;
  let at = UTF8_BOM.every((byte, i) => bytes[i] === byte) ? UTF8_BOM.length : 0;
  while (isJsonSpace(bytes[at])) at++;
  if (bytes[at] !== OPEN_ARRAY) return false;
  let parsed = 0;
  /** Parses the batch `from`–`to` of `count` elements and hands it over; false when it is not that. */
  const batch = (from: number, to: number, count: number): boolean => {
    const elements = parseBatch(bytes, from, to, count);
    if (elements === undefined) return false;
    onBatch(elements, parsed);
    parsed += count;
    return true;
  };
  // The batch: from `start`, elements separated by `commas` top-level commas.
  let start = at + 1;
  let commas = 0;
  let depth = 0;
  for (let i = start; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      i = closingQuote(bytes, i + 1);
      if (i < 0) return false;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth > 0) {
        depth--;
        continue;
      }
      if (byte !== CLOSE_ARRAY) return false;
      // `[]` (white space inside allowed), else the last batch.
      if ((parsed > 0 || !onlySpace(bytes, start, i)) && !batch(start, i, commas + 1)) return false;
      return onlySpace(bytes, i + 1, bytes.length);
    } else if (byte === COMMA && depth === 0) {
      if (i - start < batchBytes) {
        commas++;
      } else {
        if (!batch(start, i, commas + 1)) return false;
        afterBatch?.();
        start = i + 1;
        commas = 0;
      }
    }
  }
  return false;
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
 * The bytes `from`–`to` parsed as `count` elements separated by commas (as the inside of an
 * array); undefined when they are not exactly that.
 */
function parseBatch(bytes: Buffer, from: number, to: number, count: number): unknown[] | undefined {
  let batch: unknown;
  try {
    batch = JSON.parse(`[${bytes.toString('utf8', from, to)}]`);
  } catch {
    return undefined;
  }
  return Array.isArray(batch) && batch.length === count ? batch : undefined;
}
