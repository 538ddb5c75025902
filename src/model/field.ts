/**
 * The field descriptors of one message type, as `cmd=getschema&msgType=<name>` describes them
 * (one `FieldDesc` element per field), normalised. Fetched only with fields on (`--fields`),
 * stored per message in the lockfile, compared field by field by the diff stage and turned into
 * record interfaces by the emitter.
 */
import { compareStrings } from './descriptor.js';
import { FIELD_COLUMNS, type KnownFieldKey, type KnownFieldValues } from './field-columns.js';

export { FIELD_TYPES, isFieldType, type FieldType } from './field-types.js';

/** The known keys of a field descriptor, in the field columns' order (the lockfile's). */
export const KNOWN_FIELD_KEYS: readonly KnownFieldKey[] = FIELD_COLUMNS.map((row) => row.name);

/**
 * One field of a message type, normalised: its known keys (`field-columns.ts`, one row each),
 * absent ones not sent, and every other key as received (`jsonEncType`, `sLen`, `label`, …),
 * keys sorted, in `extra`.
 */
export type FieldDescriptor = KnownFieldValues & { extra: Record<string, unknown> };

/**
 * The key of a lockfile entry that holds its field descriptors. A service never sends it: its
 * JSON names come from protobuf field names, which cannot hold a `$` (a listing that does is
 * refused).
 */
export const FIELDS_KEY = '$fields';

/**
 * A field descriptor with its keys in one fixed order (known ones as {@link KNOWN_FIELD_KEYS},
 * absent ones left out, then `extra`): fetched and locked descriptors then have the same JSON,
 * which the emitter's input fingerprints rely on.
 */
export function makeField(known: KnownFieldValues, extra: Record<string, unknown>): FieldDescriptor {
  const field: Record<string, unknown> = {};
  for (const key of KNOWN_FIELD_KEYS) if (known[key] !== undefined) field[key] = known[key];
  field['extra'] = extra;
  return field as FieldDescriptor;
}

/** Where a field is in the record: `name`, or `group.name` inside a repeating group. Identifies it. */
export function fieldPath(field: Pick<FieldDescriptor, 'name' | 'inRepeater'>): string {
  return field.inRepeater === undefined ? field.name : `${field.inRepeater}.${field.name}`;
}

/** Fields in record order: by `pos` (fields without one last), then by path. Deterministic for any input order. */
export function sortFields(fields: readonly FieldDescriptor[]): FieldDescriptor[] {
  const position = (field: FieldDescriptor) => field.pos ?? Number.POSITIVE_INFINITY;
  return [...fields].sort((a, b) => position(a) - position(b) || compareStrings(fieldPath(a), fieldPath(b)));
}
