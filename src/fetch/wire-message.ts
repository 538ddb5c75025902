import { z } from 'zod';
import { ACTION_LETTERS, compareStrings, KNOWN_FIELDS, setOwn, type Descriptor } from '../model/descriptor.js';

/**
 * The wire shape of one listing element, validated at the edge. Flags accept `"Yes"`/`"No"` in
 * any case and real booleans; lists accept the service's comma string or an array.
 */

// Checks only, no transforms: zod's refine/transform machinery costs several times more per
// element, and a listing has up to 10,000 of them. normaliseMessage converts the values.
const FLAG_MESSAGE = 'expected "Yes" or "No" (any case) or a boolean';
// String first: services send "Yes"/"No", and a union tries its options in order.
const flag = z.union([z.string().regex(/^\s*(yes|no)\s*$/i, { error: FLAG_MESSAGE }), z.boolean()], { error: FLAG_MESSAGE });

const commaList = z.union([z.string(), z.array(z.string())], {
  error: 'expected a comma-separated string or an array of strings',
});

/**
 * Known descriptor fields of a `message`. A plain (stripping) object: zod's compiled fast path
 * then skips every other key; normaliseMessage takes the unknown fields from the raw message.
 */
export const wireMessageSchema = z.object({
  name: z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' }),
  mNum: z
    .number({ error: 'expected a non-negative integer' })
    .int({ error: 'expected a non-negative integer' })
    .nonnegative({ error: 'expected a non-negative integer' })
    .max(Number.MAX_SAFE_INTEGER),
  schemaHash: z.string({ error: 'expected a string' }),
  actions: z.union([z.string(), z.array(z.string())], { error: 'expected a string of action letters such as "SIURD"' }),
  hasTKey: flag,
  hasEKey: flag,
  hasOKey: flag,
  hasCF: flag,
  mToken: z.string({ error: 'expected a string' }),
  staticFilterFields: commaList,
});

/** One element of the response array (other keys are ignored). */
export const wireElementSchema = z.object({
  // The type key may be `msgType` or the short `mTyp`.
  header: z.looseObject({ msgType: z.string().optional(), mTyp: z.string().optional() }).optional(),
  // Not z.record: it copies by assignment, and an unknown field named `__proto__` would vanish.
  message: z.custom<Record<string, unknown>>((value) => value !== null && typeof value === 'object' && !Array.isArray(value), {
    error: 'expected an object',
  }),
});

/** The `QueryResult` status element that may close the array. */
export const trailerMessageSchema = z.looseObject({
  numMessagesSent: z.number().optional(),
  queryElapsed: z.unknown().optional(),
  result: z.string(),
  detail: z.unknown().optional(),
});

type WireMessage = z.output<typeof wireMessageSchema>;

const ACTION_NAMES: readonly string[] = Object.values(ACTION_LETTERS);

/**
 * Turns a validated wire message into the internal model. Known action letters become names;
 * an unknown letter is kept as itself (and reported through `warn`), never dropped. Every field
 * the service sent beyond the known ones is kept, as received, in `extra`.
 */
export function normaliseMessage(
  message: WireMessage,
  raw: Record<string, unknown>,
  warn: (text: string) => void,
): Descriptor {
  const letters = Array.isArray(message.actions) ? message.actions : [...message.actions.replace(/[\s,]/g, '')];
  const actions = letters.map((letter) => {
    const known = ACTION_LETTERS[letter.toUpperCase() as keyof typeof ACTION_LETTERS];
    if (known) return known;
    if (!ACTION_NAMES.includes(letter)) {
      warn(`message ${JSON.stringify(message.name)}: unknown action letter ${JSON.stringify(letter)} kept as is (known: SIURD).`);
    }
    return letter;
  });
  return {
    name: message.name,
    mNum: message.mNum,
    schemaHash: message.schemaHash,
    actions,
    hasTKey: flagValue(message.hasTKey),
    hasEKey: flagValue(message.hasEKey),
    hasOKey: flagValue(message.hasOKey),
    hasCF: flagValue(message.hasCF),
    mToken: message.mToken,
    staticFilterFields: listValue(message.staticFilterFields),
    extra: unknownFields(raw),
  };
}


/** `"Yes"`/`"No"` in any case (already validated), or a real boolean. */
function flagValue(value: boolean | string): boolean {
  return typeof value === 'boolean' ? value : value.trim().toLowerCase() === 'yes';
}

/** The service's comma list (may be empty), or an array as is. */
function listValue(value: string | string[]): string[] {
  if (Array.isArray(value)) return [...value];
  return value.split(',').map((part) => part.trim()).filter((part) => part.length > 0);
}

const KNOWN = new Set<string>(KNOWN_FIELDS);

/** The fields of a raw message that the model does not define, keys sorted. */
function unknownFields(raw: Record<string, unknown>): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  // Only the few unknown keys are sorted, not all of a message's keys.
  for (const key of Object.keys(raw).filter((k) => !KNOWN.has(k)).sort(compareStrings)) {
    setOwn(extra, key, sortKeysDeep(raw[key]));
  }
  return extra;
}

/**
 * Nested objects with their keys sorted, as the lockfile stores them: a descriptor then has the
 * same shape whether it was fetched or read back, so its JSON is a stable fingerprint.
 */
function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(compareStrings)) {
    setOwn(out, key, sortKeysDeep((value as Record<string, unknown>)[key]));
  }
  return out;
}
