import { z } from 'zod';
import { compareStrings, sortedEntries } from '../model/descriptor.js';
import { ResponseError } from '../model/errors.js';
import { FIELD_TYPES, fieldPath, KNOWN_FIELD_KEYS, makeField, sortFields, type FieldDescriptor } from '../model/field.js';
import { flagValue, listValue, readFlag, readList } from './encodings.js';
import { readAnswer } from './parse-listing.js';
import { sortKeysDeep } from './wire-message.js';

/**
 * The answer to `cmd=getschema&msgType=<name>`: one `FieldDesc` element per field, possibly
 * closed by a `QueryResult` status element, as for the listing. Nothing is known of the real
 * answer beyond the vendor's data dictionary, so the reading is tolerant: only `name` is required,
 * absent or `null` keys are not recorded, unknown keys are kept, and an `fType` this build does
 * not know is kept (the field is typed `unknown`) with a warning.
 */

/** The header type of a field descriptor element. */
const FIELD_DESC_TYPE = 'FieldDesc';

const INTEGER_MESSAGE = 'expected a non-negative integer';
const integer = z.union(
  [
    z.number().int({ error: INTEGER_MESSAGE }).nonnegative({ error: INTEGER_MESSAGE }).max(Number.MAX_SAFE_INTEGER, { error: INTEGER_MESSAGE }),
    z.string().regex(/^\s*\d{1,15}\s*$/, { error: INTEGER_MESSAGE }),
  ],
  { error: INTEGER_MESSAGE },
);

/** Known keys of a `FieldDesc` message; checks only, normaliseField converts. */
const fieldDescSchema = z.object({
  name: z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' }),
  pos: integer.nullish(),
  fNum: integer.nullish(),
  isPkey: flagValue.nullish(),
  inRepeater: z.string({ error: "expected a string (the repeating group's name)" }).nullish(),
  fType: z.union([z.string(), z.number()], { error: 'expected a field type name (e.g. "Double") or number 1..21' }).nullish(),
  eSet: listValue.nullish(),
  desc: z.string({ error: 'expected a string' }).nullish(),
});

/** What a `getschema` answer holds once validated. */
export interface ParsedSchema {
  /** The fields in record order. */
  fields: FieldDescriptor[];
  /** Things kept but worth telling (unknown field types …). */
  warnings: string[];
}

/** Lower-case name, without the `FIELDTYPE_` prefix → field type. */
const TYPE_BY_NAME: ReadonlyMap<string, string> = new Map(FIELD_TYPES.map((type) => [type.toLowerCase(), type]));

/**
 * A field type from the ways a server may write it: a name in any case (`Double`, `DOUBLE`), the
 * enum's prefixed name (`FIELDTYPE_DOUBLE`), or its number 1–21 (also as text).
 * @returns the type's name, or undefined when it is none of these
 */
export function readFieldType(value: string | number): string | undefined {
  const text = String(value).trim();
  if (/^\d+$/.test(text)) return FIELD_TYPES[Number(text) - 1];
  return TYPE_BY_NAME.get(text.toLowerCase().replace(/^fieldtype_/, ''));
}

/**
 * Validates and normalises the body of a `getschema` answer for `msgType`. Every invalid field of
 * every element is reported at once (index, name, field); two elements describing the same field
 * are an error naming both.
 */
export function parseSchemaAnswer(body: unknown, options: { origin: string; msgType: string }): ParsedSchema {
  const { origin, msgType } = options;
  const warnings: string[] = [];
  const fields: FieldDescriptor[] = [];
  const firstAt = new Map<string, number>();
  const frame = {
    origin,
    arrayOf: 'FieldDesc elements',
    invalidIn: `the field descriptors of ${JSON.stringify(msgType)}`,
    duplicates: `the field descriptors of ${JSON.stringify(msgType)} have duplicates`,
    hints: {
      notArray: 'The service answers cmd=getschema&msgType=<name> with an array; check --base-url, or pull without --fields.',
      invalid: 'The service sent field descriptors schema-sync cannot use; nothing was written. Fix the service data, or pull without --fields.',
      duplicates: 'Each field needs a unique name within its repeating group; nothing was written. Fix the service data, or pull without --fields.',
    },
  };

  readAnswer(body, frame, fieldDescSchema, ({ data, message, type, index }, { duplicates }) => {
    if (type !== undefined && type !== FIELD_DESC_TYPE) {
      throw new ResponseError(`${origin}: element ${index} is a ${JSON.stringify(type)}, not a ${FIELD_DESC_TYPE}: the service did not answer getschema for ${JSON.stringify(msgType)}.`, {
        hint: 'This deployment may not support cmd=getschema: pull without --fields (or "fields": false in the config).',
      });
    }
    const where = `getschema ${JSON.stringify(msgType)}, element ${index} (${JSON.stringify(data.name)})`;
    const field = normaliseField(data, message, (text) => warnings.push(`${where}: ${text}`));
    const path = fieldPath(field);
    const first = firstAt.get(path);
    if (first === undefined) firstAt.set(path, index);
    else duplicates.push(`field ${JSON.stringify(path)} is described by elements ${first} and ${index}`);
    fields.push(field);
  });
  warnings.push(...orphanWarnings(fields, msgType));
  return { fields: sortFields(fields), warnings };
}

type FieldDescMessage = z.output<typeof fieldDescSchema>;

const KNOWN_KEYS: ReadonlySet<string> = new Set(KNOWN_FIELD_KEYS);

/** A validated `FieldDesc` message in the model: `null` values of known keys, and an empty `inRepeater`, count as not sent. */
function normaliseField(message: FieldDescMessage, raw: Record<string, unknown>, warn: (text: string) => void): FieldDescriptor {
  let fType: string | undefined;
  if (message.fType === undefined || message.fType === null) {
    warn('no fType; the field is typed unknown.');
  } else {
    fType = readFieldType(message.fType);
    if (fType === undefined) {
      fType = String(message.fType);
      warn(`unknown fType ${JSON.stringify(message.fType)} kept as is; the field is typed unknown (known: ${FIELD_TYPES.join(', ')}).`);
    }
  }
  return makeField(
    {
      name: message.name,
      pos: integerValue(message.pos),
      fNum: integerValue(message.fNum),
      fType,
      isPkey: message.isPkey === undefined || message.isPkey === null ? undefined : readFlag(message.isPkey),
      inRepeater: message.inRepeater || undefined,
      eSet: message.eSet === undefined || message.eSet === null ? undefined : readList(message.eSet),
      desc: message.desc ?? undefined,
    },
    sortedEntries(raw, KNOWN_KEYS, sortKeysDeep),
  );
}

function integerValue(value: number | string | null | undefined): number | undefined {
  return value === undefined || value === null ? undefined : Number(value);
}

/** Fields inside a repeating group that no `Repeater` field names: kept, the group is typed from them. */
function orphanWarnings(fields: readonly FieldDescriptor[], msgType: string): string[] {
  const repeaters = new Set(fields.filter((field) => field.fType === 'Repeater').map((field) => field.name));
  const groups = new Set(fields.flatMap((field) => (field.inRepeater === undefined || repeaters.has(field.inRepeater) ? [] : [field.inRepeater])));
  return [...groups]
    .sort(compareStrings)
    .map((group) => `getschema ${JSON.stringify(msgType)}: fields are in repeating group ${JSON.stringify(group)}, which no Repeater field describes; typed as a repeating group of those fields.`);
}
