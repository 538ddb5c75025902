import { isUtf8 } from 'node:buffer';
import { ResponseError } from '../model/errors.js';
import { quoteString } from '../text/safe-text.js';
import { msg } from '../model/message.js';

/** How much more than it shows the context before a bad byte reads, so that no secret is cut where the redactor cannot see it. */
const REDACT_MARGIN = 1024;

/**
 * The error for a body that is not valid UTF-8 (JSON's encoding), naming the byte offset: decoding
 * it anyway would turn the bad bytes into U+FFFD, even inside names, and store them in the lockfile
 * and the generated code. (Checking is one native pass, `isUtf8`; the offset is looked for here,
 * only on failure.)
 */
export function notUtf8Error(body: Buffer, origin: string, redact: (text: string) => string): ResponseError {
  const offset = firstInvalidUtf8(body);
  const bytes = [...body.subarray(offset, offset + 4)].map((byte) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(' ');
  // Redacted before it is cut to its last 40 characters: a secret the cut split would be out of
  // the redactor's sight (one longer than the margin is not a credential).
  const window = body.subarray(Math.max(0, offset - 40 - REDACT_MARGIN), offset).toString('utf8');
  const before = redact(window).replace(/\s+/g, ' ').slice(-40);
  return new ResponseError(msg`${origin}: the answer is not valid UTF-8: at byte ${offset} (${bytes}), after ${quoteString(before)}.`, {
    hint: msg`JSON must be UTF-8. The service, or a proxy that re-encodes its answers, sent another encoding there; nothing was written.`,
  });
}

/**
 * The offset of the first byte that does not start or continue a well-formed UTF-8 sequence
 * (the rules of the Unicode standard, table 3-7, as a fatal TextDecoder applies them): the start
 * of a sequence that is cut short or malformed. Assumes there is one.
 */
function firstInvalidUtf8(bytes: Uint8Array): number {
  const within = (at: number, low: number, high: number) => at < bytes.length && bytes[at]! >= low && bytes[at]! <= high;
  let at = 0;
  while (at < bytes.length) {
    const lead = bytes[at]!;
    let length: number;
    let secondLow = 0x80;
    let secondHigh = 0xbf;
    if (lead <= 0x7f) length = 1;
    else if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) secondLow = 0xa0;
      if (lead === 0xed) secondHigh = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) secondLow = 0x90;
      if (lead === 0xf4) secondHigh = 0x8f;
    } else return at;
    if (length > 1 && !within(at + 1, secondLow, secondHigh)) return at;
    for (let next = at + 2; next < at + length; next++) if (!within(next, 0x80, 0xbf)) return at;
    at += length;
  }
  return at;
}
