import { z } from 'zod';
import { KNOWN_FIELDS, makeDescriptor, sortedEntries, type Descriptor } from '../model/descriptor.js';
import { ACTIONS_EXPECTED, FLAG_TEXT, listValue, readActions, readFlag, readList, type FlagValue } from './encodings.js';
import { quoteString } from '../text/safe-text.js';

/**
 * The wire shape of one listing element, validated at the edge. Only `name`, `mNum` and
 * `schemaHash` must be there; every other known field may be absent (deployments differ). The
 * encodings of `actions` and the key flags are in `encodings.ts`.
 */

// Checks only, no transforms: zod's refine/transform machinery costs several times more per
// element, and a listing has up to 10,000 of them. normaliseMessage converts the values and
// reads the text of `actions`, whose grammar no plain check expresses.
const FLAG_MESSAGE = 'expected "Yes" or "No" (any case), a boolean, YESNO_YES or YESNO_NO, or 1 (yes) or 2 (no)';
// String first: services send "Yes"/"No", and a union tries its options in order.
export const flag = z
  .union([z.string().regex(FLAG_TEXT, { error: FLAG_MESSAGE }), z.boolean(), z.literal([1, 2])], { error: FLAG_MESSAGE })
  .optional();

const actionItem = z.union([z.string(), z.number()]);

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
  schemaHash: z.string({ error: 'expected a string (schema-sync needs the schema hash to detect drift)' }),
  actions: z.union([actionItem, z.array(actionItem)], { error: ACTIONS_EXPECTED }).optional(),
  hasTKey: flag,
  hasEKey: flag,
  hasOKey: flag,
  hasCF: flag,
  mToken: z.string({ error: 'expected a string' }).optional(),
  staticFilterFields: listValue.optional(),
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

/** A field whose value validated but cannot be read (only `actions` has a grammar of its own). */
export interface FieldProblem {
  field: string;
  message: string;
  /** The value as received. */
  input: unknown;
}

/**
 * Turns a validated wire message into the internal model: `actions` in any encoding become
 * names (an unknown letter is kept as itself and reported through `warn`, never dropped), flags
 * booleans, comma lists arrays. A field the service left out stays out. Every field the service
 * sent beyond the known ones is kept, as received, in `extra`.
 * @returns the descriptor, or the problems of a value that cannot be read
 */
export function normaliseMessage(
  message: WireMessage,
  raw: Record<string, unknown>,
  warn: (text: string) => void,
): Descriptor | { problems: FieldProblem[] } {
  let actions: string[] | undefined;
  if (message.actions !== undefined) {
    const read = readActions(message.actions);
    if ('problem' in read) return { problems: [{ field: 'actions', message: read.problem, input: message.actions }] };
    for (const letter of read.unknownLetters) {
      warn(`message ${quoteString(message.name)}: unknown action letter ${quoteString(letter)} kept as is (known: SIURD).`);
    }
    actions = read.actions;
  }
  return makeDescriptor(
    {
      name: message.name,
      mNum: message.mNum,
      schemaHash: message.schemaHash,
      actions,
      hasTKey: flagValue(message.hasTKey),
      hasEKey: flagValue(message.hasEKey),
      hasOKey: flagValue(message.hasOKey),
      hasCF: flagValue(message.hasCF),
      mToken: message.mToken,
      staticFilterFields: message.staticFilterFields === undefined ? undefined : readList(message.staticFilterFields),
    },
    sortedEntries(raw, KNOWN, sortKeysDeep),
  );
}

function flagValue(value: FlagValue | undefined): boolean | undefined {
  return value === undefined ? undefined : readFlag(value);
}

const KNOWN = new Set<string>(KNOWN_FIELDS);

/**
 * Nested objects with their keys sorted, as the lockfile stores them: a descriptor then has the
 * same shape whether it was fetched or read back, so its JSON is a stable fingerprint.
 */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  return sortedEntries(value as Record<string, unknown>, NO_KEYS, sortKeysDeep);
}

const NO_KEYS: ReadonlySet<string> = new Set();
