import type { WireMessage } from './wire-schema.js';

/**
 * Plain-JavaScript checks that accept only what the zod schemas of `wire-schema.ts` accept, at a
 * tenth of their cost: a listing of 10,000 valid elements is checked here and never reaches zod.
 * Anything these reject goes to zod, which decides and words the error, so they may be stricter
 * than zod but never looser (a property test holds them to that).
 */

const FLAG = /^\s*(yes|no)\s*$/i;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isStringList(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'string') return false;
  return true;
}

function isFlag(value: unknown): boolean {
  return typeof value === 'boolean' || (typeof value === 'string' && FLAG.test(value));
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/**
 * Whether `element` passes `wireElementSchema` for sure: an object whose `message` is an object
 * and whose `header`, if any, is an object with string `msgType`/`mTyp` when present.
 */
export function isPlainElement(element: unknown): element is { header?: { msgType?: string; mTyp?: string }; message: Record<string, unknown> } {
  if (!isRecord(element) || !isRecord(element['message'])) return false;
  const header = element['header'];
  return header === undefined || (isRecord(header) && isOptionalString(header['msgType']) && isOptionalString(header['mTyp']));
}

/**
 * Whether `message` passes `wireMessageSchema` for sure. The message itself then serves as the
 * parsed value: normalise.ts reads only the known fields, which zod would have copied unchanged.
 */
export function isPlainMessage(message: Record<string, unknown>): message is Record<string, unknown> & WireMessage {
  const { name, mNum } = message;
  return (
    typeof name === 'string' &&
    name.length > 0 &&
    typeof mNum === 'number' &&
    Number.isSafeInteger(mNum) &&
    mNum >= 0 &&
    typeof message['schemaHash'] === 'string' &&
    isStringList(message['actions']) &&
    isFlag(message['hasTKey']) &&
    isFlag(message['hasEKey']) &&
    isFlag(message['hasOKey']) &&
    isFlag(message['hasCF']) &&
    typeof message['mToken'] === 'string' &&
    isStringList(message['staticFilterFields'])
  );
}
