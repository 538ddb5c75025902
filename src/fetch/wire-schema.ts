import { z } from 'zod';

/**
 * The wire shape of one listing element, validated at the edge. Flags accept `"Yes"`/`"No"` in
 * any case and real booleans; lists accept the service's comma string or an array.
 */

// Checks only, no transforms: zod's refine/transform machinery costs several times more per
// element, and a listing has up to 10,000 of them. normalise.ts converts the values.
const FLAG_MESSAGE = 'expected "Yes" or "No" (any case) or a boolean';
// String first: services send "Yes"/"No", and a union tries its options in order.
const flag = z.union([z.string().regex(/^\s*(yes|no)\s*$/i, { error: FLAG_MESSAGE }), z.boolean()], { error: FLAG_MESSAGE });

const commaList = z.union([z.string(), z.array(z.string())], {
  error: 'expected a comma-separated string or an array of strings',
});

/**
 * Known descriptor fields of a `message`. A plain (stripping) object: zod's compiled fast path
 * then skips every other key; normalise.ts takes the unknown fields from the raw message.
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

/** The header: the type key may be `msgType` or the short `mTyp`. */
export const wireHeaderSchema = z.looseObject({
  msgType: z.string().optional(),
  mTyp: z.string().optional(),
});

/** One element of the response array (other keys are ignored). */
export const wireElementSchema = z.object({
  header: wireHeaderSchema.optional(),
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

export type WireMessage = z.output<typeof wireMessageSchema>;
export type { TrailerMessage } from '../model/trailer.js';
