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

/** How {@link parseArrayElements} ended. */
export type ArrayRead =
  /** Every element was handed over. */
  | { complete: true }
  /**
   * Not plainly an array: `rest` holds the bytes not yet handed over, from the start of the batch
   * that failed (the whole body when no batch was handed over: then `skipped` is 0), and `skipped`
   * how many characters of the text (from its `[`) came before them.
   */
  | { complete: false; skipped: number; rest: Buffer };

/**
 * The elements of the JSON array whose bytes (valid UTF-8) are `blocks`, after an optional byte
 * order mark and white space, parsed a batch of whole elements at a time and handed to `onBatch`
 * in order (`first`: the index of the batch's first element) as soon as each is parsed, so only
 * one batch's values need be alive at a time: together the same value `JSON.parse` gives for the
 * whole text. The blocks are taken from `blocks` as they are read, and once a batch is handed over
 * the bytes before the next are let go. Incomplete whenever that is not plainly so (not an array,
 * a syntax error anywhere, an unterminated string …), possibly after some batches were handed
 * over: the caller then drops what it made of them and parses the text, which also says what is
 * wrong. `afterBatch` runs after each batch but the last, once the batch is garbage (a large
 * answer's run collects it there); `release` is given each block (and each buffer made of
 * blocks) once its bytes are copied on; a batch whose text `skip` accepts is neither parsed nor
 * handed over (nor known to be JSON); `batchBytes` (tests) sets where a batch may end.
 */
export function parseArrayElements(
  blocks: Buffer[],
  onBatch: (elements: unknown[], first: number) => void,
  options: { afterBatch?: () => void; release?: (bytes: Buffer) => void; skip?: (text: string) => boolean; batchBytes?: number } = {},
): ArrayRead {
  const { afterBatch, release, skip, batchBytes = BATCH_BYTES } = options;
  // The bytes from `start` (from the first, until a batch was handed over), as far as read.
  let window = blocks.shift() ?? Buffer.alloc(0);
  let start = 0;
  let parsed = 0;
  let skipped = 1;
  /** Reads the next block onto the window: undefined at the end, else how far the window's indexes moved. */
  const more = (): number | undefined => {
    const block = blocks.shift();
    if (block === undefined) return undefined;
    const keep = parsed === 0 ? 0 : start;
    const read = window;
    window = Buffer.concat([window.subarray(keep), block]);
    release?.(read);
    release?.(block);
    start -= keep;
    return keep;
  };
  const incomplete = (): ArrayRead => {
    const from = parsed === 0 ? 0 : start;
    const rest = Buffer.concat([window.subarray(from), ...blocks.splice(0)]);
    return { complete: false, skipped: parsed === 0 ? 0 : skipped, rest };
  };
  /** Whether there is a byte at `i`; only before the first batch, while the window's indexes do not move. */
  const has = (i: number): boolean => {
    while (i >= window.length) if (more() === undefined) return false;
    return true;
  };
  let at = has(UTF8_BOM.length - 1) && UTF8_BOM.every((byte, i) => window[i] === byte) ? UTF8_BOM.length : 0;
  while (has(at) && isJsonSpace(window[at])) at++;
  if (!has(at) || window[at] !== OPEN_ARRAY) return incomplete();
  /** Parses the batch `from`–`to` of `count` elements and hands it over: its length in characters, undefined when it is not that. */
  const batch = (from: number, to: number, count: number): number | undefined => {
    const text = window.toString('utf8', from, to);
    if (skip?.(text) !== true) {
      const elements = parseBatch(text, count);
      if (elements === undefined) return undefined;
      onBatch(elements, parsed);
    }
    parsed += count;
    return text.length;
  };
  /** The index of the quote that ends the string whose contents start at `from`, reading on as needed; -1 when there is none. */
  const quoteFrom = (from: number): number => {
    for (let searched = from; ; ) {
      const quote = closingQuote(window, searched);
      if (quote >= 0) return quote;
      const end = window.length;
      const moved = more();
      if (moved === undefined) return -1;
      searched = end - moved;
    }
  };
  /** Whether only white space follows `from`, to the end of the bytes. */
  const onlySpaceAfter = (from: number): boolean => {
    for (let i = from; ; i++) {
      if (i >= window.length) {
        const moved = more();
        if (moved === undefined) return true;
        i -= moved;
      }
      if (!isJsonSpace(window[i])) return false;
    }
  };
  // The batch: from `start`, elements separated by `commas` top-level commas.
  start = at + 1;
  let commas = 0;
  let depth = 0;
  for (let i = start; ; i++) {
    if (i >= window.length) {
      const moved = more();
      if (moved === undefined) return incomplete();
      i -= moved;
    }
    const byte = window[i];
    if (byte === QUOTE) {
      i = quoteFrom(i + 1);
      if (i < 0) return incomplete();
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth > 0) {
        depth--;
        continue;
      }
      if (byte !== CLOSE_ARRAY) return incomplete();
      // `[]` (white space inside allowed), else the last batch.
      if ((parsed > 0 || !onlySpace(window, start, i)) && batch(start, i, commas + 1) === undefined) return incomplete();
      return onlySpaceAfter(i + 1) ? { complete: true } : incomplete();
    } else if (byte === COMMA && depth === 0) {
      if (i - start < batchBytes) {
        commas++;
      } else {
        const chars = batch(start, i, commas + 1);
        if (chars === undefined) return incomplete();
        // The batch and the comma after it.
        skipped += chars + 1;
        afterBatch?.();
        start = i + 1;
        commas = 0;
      }
    }
  }
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

/** `text` parsed as `count` elements separated by commas (as the inside of an array); undefined when it is not exactly that. */
function parseBatch(text: string, count: number): unknown[] | undefined {
  let batch: unknown;
  try {
    batch = JSON.parse(`[${text}]`);
  } catch {
    return undefined;
  }
  return Array.isArray(batch) && batch.length === count ? batch : undefined;
}
