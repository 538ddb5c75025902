/**
 * The field descriptors of one message type, as `cmd=getschema&msgType=<name>` describes them
 * (one `FieldDesc` element per field), normalised. Fetched only with fields on (`--fields`),
 * stored per message in the lockfile, compared field by field by the diff stage and turned into
 * record interfaces by the emitter.
 */
import { compareStrings } from './descriptor.js';

/**
 * The service's field types, in the order of its `FieldType` enum (numbers 1–21), so
 * `FIELD_TYPES[n - 1]` is the type numbered `n`.
 */
export const FIELD_TYPES = [
  'String',
  'Text1',
  'Text2',
  'Byte',
  'Short',
  'UShort',
  'Int',
  'UInt',
  'Long',
  'ULong',
  'Float',
  'Double',
  'Enum',
  'Flag',
  'DateTime',
  'TimeSpan',
  'DateKey',
  'TickerKey',
  'ExpiryKey',
  'OptionKey',
  'Repeater',
] as const;

/** A field type the service defines. */
export type FieldType = (typeof FIELD_TYPES)[number];

const KNOWN_TYPES: ReadonlySet<string> = new Set(FIELD_TYPES);

/** Whether `fType` is one of {@link FIELD_TYPES} (a normalised one, as the lockfile stores it). */
export function isFieldType(fType: string | undefined): fType is FieldType {
  return fType !== undefined && KNOWN_TYPES.has(fType);
}

/** One field of a message type, normalised. Absent keys were not sent. */
export interface FieldDescriptor {
  /** The field's JSON name, exactly as the service sent it. */
  name: string;
  /** Position in the record. */
  pos?: number;
  /** Field number. */
  fNum?: number;
  /** A {@link FieldType}; a type this build does not know is kept as the text received. */
  fType?: string;
  /** Whether the field is part of the primary key. */
  isPkey?: boolean;
  /** The repeating group (the `Repeater` field's name) the field belongs to. */
  inRepeater?: string;
  /** Enum or flag values, split from the service's comma list (may depend on the key's entitlements). */
  eSet?: string[];
  /** Description, the TSDoc of the generated property. */
  desc?: string;
  /** Every other key as received (`jsonEncType`, `sLen`, `label`, …), keys sorted. */
  extra: Record<string, unknown>;
}

/**
 * The key of a lockfile entry that holds its field descriptors. A service never sends it: its
 * JSON names come from protobuf field names, which cannot hold a `$` (a listing that does is
 * refused).
 */
export const FIELDS_KEY = '$fields';

/** The known keys of a field descriptor, in the order the lockfile writes them. */
export const KNOWN_FIELD_KEYS = ['name', 'pos', 'fNum', 'fType', 'isPkey', 'inRepeater', 'eSet', 'desc'] as const;

/** A known key of {@link FieldDescriptor}. */
type KnownFieldKey = (typeof KNOWN_FIELD_KEYS)[number];

/**
 * A field descriptor with its keys in one fixed order (known ones as {@link KNOWN_FIELD_KEYS},
 * absent ones left out, then `extra`): fetched and locked descriptors then have the same JSON,
 * which the emitter's input fingerprints rely on.
 */
export function makeField(known: Omit<FieldDescriptor, 'extra'>, extra: Record<string, unknown>): FieldDescriptor {
  const field: Record<string, unknown> = {};
  for (const key of KNOWN_FIELD_KEYS) if (known[key] !== undefined) field[key] = known[key];
  field['extra'] = extra;
  return field as unknown as FieldDescriptor;
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
