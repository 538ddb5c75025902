import { z } from 'zod';
import { flagValue, integerValue, listValue, readFieldType, readFlag, readList } from './wire-encodings.js';
import { FIELD_TYPES } from './field-types.js';
import { jsonText } from '../text/safe-text.js';
import { msg, own, type Message } from './message.js';
import { namedOnce } from './named-once.js';

/**
 * The known keys of a `FieldDesc` element (`cmd=getschema`), one row each: the one place they
 * are written down. The `FieldDescriptor` type, the wire schema and its decoding
 * (`fetch/schema-answer.ts`), and the lockfile's schema and key order (`lock/fields.ts`) come
 * from this table. Nothing is known of the real answer beyond the vendor's data dictionary, so
 * the wire is read tolerantly: only `name` is required, an absent or `null` key is not sent, and
 * every key no row names is kept in `extra`. Nothing is derived in this module, only where it
 * is used, so a test can replace the table alone.
 */

/** One known key of a field descriptor. */
export interface FieldColumn<N extends string = string, W = unknown, V = unknown, Required extends boolean = boolean> {
  /** Its name on the wire, in the model and in the lockfile. */
  readonly name: N;
  /** Whether every element must have it. */
  readonly required: Required;
  /** What the wire schema lets through (checks only; `null` is let through too, as not sent, unless required). */
  readonly wire: z.ZodType<W>;
  /** Reads a wire value into the model's (undefined: not recorded); without it the wire value is the model's. */
  decode?(value: W, warn: (text: Message) => void): V | undefined;
  /** What to warn about when it is not sent. */
  readonly absent?: string;
  /** The model's form, as the lockfile stores it. */
  readonly stored: z.ZodType<V>;
}

/** A column, its types inferred and kept literal. */
function column<const N extends string, W, V, const Required extends boolean>(row: FieldColumn<N, W, V, Required>): FieldColumn<N, W, V, Required> {
  return row;
}

const nonNegative = z.number().int().nonnegative();

/** The known keys of a field descriptor, in the order the lockfile writes them; each named once. */
export const FIELD_COLUMNS = namedOnce('FieldDesc key', [
  // The field's JSON name, exactly as the service sent it.
  column({ name: 'name', required: true, wire: z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' }), stored: z.string().min(1) }),
  // Position in the record.
  column({ name: 'pos', required: false, wire: integerValue, decode: Number, stored: nonNegative }),
  // Field number.
  column({ name: 'fNum', required: false, wire: integerValue, decode: Number, stored: nonNegative }),
  // A FieldType; a type this build does not know is kept as the text received (the field is typed unknown).
  column({
    name: 'fType',
    required: false,
    wire: z.union([z.string(), z.number()], { error: 'expected a field type name (e.g. "Double") or number 1..21' }),
    decode(value, warn) {
      const type = readFieldType(value);
      if (type !== undefined) return type;
      warn(msg`unknown fType ${jsonText(value)} kept as is; the field is typed unknown (known: ${own(FIELD_TYPES.join(', '))}).`);
      return String(value);
    },
    absent: 'no fType; the field is typed unknown.',
    stored: z.string(),
  }),
  // Whether the field is part of the primary key.
  column({ name: 'isPkey', required: false, wire: flagValue, decode: readFlag, stored: z.boolean() }),
  // The repeating group (the Repeater field's name) the field belongs to; an empty one is none.
  column({
    name: 'inRepeater',
    required: false,
    wire: z.string({ error: "expected a string (the repeating group's name)" }),
    decode: (value: string) => value || undefined,
    stored: z.string().min(1),
  }),
  // Enum or flag values, split from the service's comma list (may depend on the key's entitlements).
  column({ name: 'eSet', required: false, wire: listValue, decode: readList, stored: z.array(z.string()) }),
  // Description, the TSDoc of the generated property.
  column({ name: 'desc', required: false, wire: z.string({ error: 'expected a string' }), stored: z.string() }),
] as const);

/** A row of {@link FIELD_COLUMNS}. */
export type FieldColumnRow = (typeof FIELD_COLUMNS)[number];

/** A known key of a field descriptor. */
export type KnownFieldKey = FieldColumnRow['name'];

/** The known keys' values of a field descriptor: `name`, and every other key the service sent. */
export type KnownFieldValues = {
  [R in FieldColumnRow as R['required'] extends true ? R['name'] : never]: z.output<R['stored']>;
} & {
  [R in FieldColumnRow as R['required'] extends true ? never : R['name']]?: z.output<R['stored']>;
};
