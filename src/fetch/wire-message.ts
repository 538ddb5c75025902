import { z } from 'zod';
import { DESCRIPTOR_FIELDS, Unreadable, type DecodeContext, type DescriptorField } from '../model/descriptor-fields.js';
import { KNOWN_FIELDS, sortedEntries, type Descriptor } from '../model/descriptor.js';
import type { Message } from '../model/message.js';

/**
 * The wire shape of one listing element, validated at the edge: each known field as its row in
 * the field table (`model/descriptor-fields.ts`) lets it through. Only `name`, `mNum` and
 * `schemaHash` must be there; every other known field may be absent (deployments differ). The
 * encodings of `actions` and the key flags are in `model/wire-encodings.ts`, beside the tables that name them.
 */

/**
 * Known descriptor fields of a `message`. Checks only, no transforms: zod's refine/transform
 * machinery costs several times more per element, and a listing has up to 10,000 of them;
 * normaliseMessage decodes the values. A plain (stripping) object: zod's compiled fast path then
 * skips every other key; normaliseMessage takes the unknown fields from the raw message.
 */
export const wireMessageSchema = z.object(
  Object.fromEntries(DESCRIPTOR_FIELDS.map((row) => [row.name, row.required ? row.wire : row.wire.optional()])) as WireShape,
);

/** The wire schema's shape: each row's wire schema, optional unless the row is required. */
type WireShape = {
  [R in Row as R['name']]: R['required'] extends true ? R['wire'] : z.ZodOptional<R['wire']>;
};

type Row = (typeof DESCRIPTOR_FIELDS)[number];

/** A validated wire message: its known fields as received. */
type WireMessage = z.output<typeof wireMessageSchema>;

/** The rows as the decoding loop reads them: any row's value as received, its model value out. */
const ROWS: readonly DescriptorField[] = DESCRIPTOR_FIELDS;

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


/** A field whose value validated but cannot be read (only `actions` has a grammar of its own). */
export interface FieldProblem {
  field: string;
  message: Message;
  /** The value as received. */
  input: unknown;
}

/**
 * Turns a validated wire message into the internal model, each known field decoded as its row
 * says: `actions` in any encoding become names (an unknown letter is kept as itself and reported
 * through `warn`, never dropped), flags booleans, comma lists arrays. A field the service left
 * out stays out. Every field the service sent beyond the known ones is kept, as received, in
 * `extra`.
 * @returns the descriptor, or the problems of values that cannot be read
 */
export function normaliseMessage(
  message: WireMessage,
  raw: Record<string, unknown>,
  warn: (text: Message) => void,
): Descriptor | { problems: FieldProblem[] } {
  const context: DecodeContext = { name: message.name, warn };
  // The descriptor itself, built in one pass: its known fields in table order, then `extra`, as
  // makeDescriptor builds one (a second copy would cost more than the decoding, per element).
  const descriptor: Record<string, unknown> = {};
  let problems: FieldProblem[] | undefined;
  for (const row of ROWS) {
    // The wire schema checked the value against this very row.
    const value: unknown = message[row.name as keyof WireMessage];
    if (value === undefined) continue;
    const read = row.decode === undefined ? value : row.decode(value, context);
    if (read instanceof Unreadable) (problems ??= []).push({ field: row.name, message: read.problem, input: value });
    else descriptor[row.name] = read;
  }
  if (problems !== undefined) return { problems };
  descriptor['extra'] = sortedEntries(raw, KNOWN, sortKeysDeep);
  return descriptor as Descriptor;
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
