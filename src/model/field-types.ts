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
