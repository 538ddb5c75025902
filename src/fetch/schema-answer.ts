import { z } from 'zod';
import { compareStrings, sortedEntries } from '../model/descriptor.js';
import { ResponseError } from '../model/errors.js';
import { FIELD_COLUMNS, type FieldColumn, type FieldColumnRow, type KnownFieldValues } from '../model/field-columns.js';
import { fieldPath, KNOWN_FIELD_KEYS, makeField, sortFields, type FieldDescriptor } from '../model/field.js';
import { readAnswer } from './parse-listing.js';
import { sortKeysDeep } from './wire-message.js';
import { quoteString } from '../text/safe-text.js';
import { msg, own, type Message } from '../model/message.js';

/**
 * The answer to `cmd=getschema&msgType=<name>`: one `FieldDesc` element per field, possibly
 * closed by a `QueryResult` status element, as for the listing. Nothing is known of the real
 * answer beyond the vendor's data dictionary, so the reading is tolerant: only `name` is required,
 * absent or `null` keys are not recorded, unknown keys are kept, and an `fType` this build does
 * not know is kept (the field is typed `unknown`) with a warning.
 */

/** The header type of a field descriptor element. */
const FIELD_DESC_TYPE = 'FieldDesc';

/** Known keys of a `FieldDesc` message, as the field columns let them through; checks only, normaliseField decodes. */
const fieldDescSchema = z.object(
  Object.fromEntries(FIELD_COLUMNS.map((row) => [row.name, row.required ? row.wire : row.wire.nullish()])) as FieldDescShape,
);

/** The wire schema's shape: each column's wire schema, absent or `null` allowed unless required. */
type FieldDescShape = {
  [R in FieldColumnRow as R['name']]: R['required'] extends true ? R['wire'] : z.ZodOptional<z.ZodNullable<R['wire']>>;
};

/** What a `getschema` answer holds once validated. */
export interface ParsedSchema {
  /** The fields in record order. */
  fields: FieldDescriptor[];
  /** Things kept but worth telling (unknown field types …). */
  warnings: Message[];
}

/**
 * Validates and normalises the body of a `getschema` answer for `msgType`. Every invalid field of
 * every element is reported at once (index, name, field); two elements describing the same field
 * are an error naming both.
 */
export function parseSchemaAnswer(body: unknown, options: { origin: string; msgType: string }): ParsedSchema {
  const { origin, msgType } = options;
  const warnings: Message[] = [];
  const fields: FieldDescriptor[] = [];
  const firstAt = new Map<string, number>();
  const frame = {
    origin,
    arrayOf: msg`FieldDesc elements`,
    invalidIn: msg`the field descriptors of ${quoteString(msgType)}`,
    duplicates: msg`the field descriptors of ${quoteString(msgType)} have duplicates`,
    hints: {
      notArray: msg`The service answers cmd=getschema&msgType=<name> with an array; check --base-url, or pull without --fields.`,
      invalid: msg`The service sent field descriptors schema-sync cannot use; nothing was written. Fix the service data, or pull without --fields.`,
      duplicates: msg`Each field needs a unique name within its repeating group; nothing was written. Fix the service data, or pull without --fields.`,
    },
  };

  readAnswer(body, frame, fieldDescSchema, ({ data, message, type, index }, { duplicates }) => {
    if (type !== undefined && type !== FIELD_DESC_TYPE) {
      throw new ResponseError(msg`${origin}: element ${index} is a ${quoteString(type)}, not a ${own(FIELD_DESC_TYPE)}: the service did not answer getschema for ${quoteString(msgType)}.`, {
        hint: msg`This deployment may not support cmd=getschema: pull without --fields (or "fields": false in the config).`,
      });
    }
    const where = msg`getschema ${quoteString(msgType)}, element ${index} (${quoteString(data.name)})`;
    const field = normaliseField(data, message, (text) => warnings.push(msg`${where}: ${text}`));
    const path = fieldPath(field);
    const first = firstAt.get(path);
    if (first === undefined) firstAt.set(path, index);
    else duplicates.push(msg`field ${quoteString(path)} is described by elements ${first} and ${index}`);
    fields.push(field);
  });
  warnings.push(...orphanWarnings(fields, msgType));
  return { fields: sortFields(fields), warnings };
}

type FieldDescMessage = z.output<typeof fieldDescSchema>;

const KNOWN_KEYS: ReadonlySet<string> = new Set(KNOWN_FIELD_KEYS);

/** The columns as the decoding loop reads them: any column's value as received, its model value out. */
const COLUMNS: readonly FieldColumn[] = FIELD_COLUMNS;

/** A validated `FieldDesc` message in the model, each known key decoded as its column says; `null` values count as not sent. */
function normaliseField(message: FieldDescMessage, raw: Record<string, unknown>, warn: (text: Message) => void): FieldDescriptor {
  const known: Record<string, unknown> = {};
  for (const column of COLUMNS) {
    // The wire schema checked the value against this very column.
    const value: unknown = message[column.name as keyof FieldDescMessage];
    if (value === undefined || value === null) {
      if (column.absent !== undefined) warn(own(column.absent));
      continue;
    }
    const read = column.decode === undefined ? value : column.decode(value, warn);
    if (read !== undefined) known[column.name] = read;
  }
  return makeField(known as KnownFieldValues, sortedEntries(raw, KNOWN_KEYS, sortKeysDeep));
}

/** Fields inside a repeating group that no `Repeater` field names: kept, the group is typed from them. */
function orphanWarnings(fields: readonly FieldDescriptor[], msgType: string): Message[] {
  const repeaters = new Set(fields.filter((field) => field.fType === 'Repeater').map((field) => field.name));
  const groups = new Set(fields.flatMap((field) => (field.inRepeater === undefined || repeaters.has(field.inRepeater) ? [] : [field.inRepeater])));
  return [...groups]
    .sort(compareStrings)
    .map((group) => msg`getschema ${quoteString(msgType)}: fields are in repeating group ${quoteString(group)}, which no Repeater field describes; typed as a repeating group of those fields.`);
}
