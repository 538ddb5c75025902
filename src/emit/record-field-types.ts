/**
 * What each field type of a record becomes: the TypeScript type of a field's JSON value and what
 * its TSDoc says of it, as real deployments write records (`record-types.ts` builds the record
 * interfaces from these). Where the service's JSON is not known (a flag with several bits set,
 * `TimeSpan`, repeating groups), the type lets it through and the TSDoc says so; `Long` and
 * `ULong` are typed as the `int64` setting says.
 */
import type { Descriptor } from '../model/descriptor.js';
import { ConfigError } from '../model/errors.js';
import { isFieldType, type FieldDescriptor, type FieldType } from '../model/field.js';
import { INT64_TYPES, type Int64Type } from '../model/lockfile.js';
import { commentText, docLines, stringLiteral } from '../text/safe-text.js';
import { msg, own } from '../model/message.js';

/** The shared key interfaces of `types.ts`, in the order they are declared. */
export const KEY_TYPES = ['TickerKey', 'ExpiryKey', 'OptionKey'] as const;

/** A shared key interface. */
export type KeyType = (typeof KEY_TYPES)[number];

/** The TypeScript type of a field's JSON value, as the members of a union. */
export function fieldTypeMembers(field: FieldDescriptor, groups: ReadonlyMap<string, string>, int64: Int64Type): string[] {
  if (!isFieldType(field.fType)) return ['unknown'];
  switch (field.fType) {
    case 'Enum':
    case 'Flag': {
      const values = [...new Set(field.eSet ?? [])];
      if (values.length === 0) return ['string'];
      // How a flag with several bits set is written is not known: any other text is let through.
      // An enum name outside the set is what a service sends after a change the lockfile has not
      // pulled: the parser keeps it (and reports it), so the type has that case too.
      return field.fType === 'Flag' ? [...values.map(stringLiteral), '(string & {})'] : [...values.map(stringLiteral), 'UnknownEnumName'];
    }
    case 'Repeater':
      return [`readonly ${groups.get(field.name)!}[]`];
    case 'TimeSpan':
      return ['string', 'number'];
    case 'Long':
    case 'ULong':
      return [int64];
    default:
      return [isKeyType(field.fType) ? field.fType : NUMERIC.has(field.fType) ? 'number' : 'string'];
  }
}

const NUMERIC: ReadonlySet<FieldType> = new Set(['Byte', 'Short', 'UShort', 'Int', 'UInt', 'Float', 'Double']);

/** Whether a message type's record types have a `Long` or `ULong` field: only then do they read the `int64` setting. */
export function hasInt64Field(descriptor: Descriptor): boolean {
  return (descriptor.fields ?? []).some((field) => field.fType === 'Long' || field.fType === 'ULong');
}

/**
 * The `int64` setting of emit options: as given, else `number`.
 * @throws ConfigError for a value that is none of {@link INT64_TYPES} (from JavaScript callers).
 */
export function int64Of(options: { int64?: Int64Type | undefined }): Int64Type {
  const { int64 = 'number' } = options;
  if (INT64_TYPES.includes(int64)) return int64;
  throw new ConfigError(msg`The int64 setting ${JSON.stringify(int64)} is not one schema-sync knows.`, { hint: msg`Use one of ${own(INT64_TYPES.join(', '))}.` });
}

/** What the TSDoc of a `Long` or `ULong` field says of its type, by the `int64` setting. */
function int64Note(fType: 'Long' | 'ULong', int64: Int64Type): string {
  const head = `\`${fType}\`: a 64-bit integer`;
  switch (int64) {
    case 'number':
      return `${head}. Values beyond 2^53 (nanosecond timestamps, for one) lose\nprecision as a JavaScript \`number\`: read them with a JSON parser that keeps big integers.`;
    case 'bigint':
      return `${head}, typed \`bigint\` (setting int64): read records with a JSON parser\nthat gives big integers as \`bigint\`. \`JSON.parse\` gives a \`number\`, which loses precision\nbeyond 2^53.`;
    case 'string':
      return `${head}, typed \`string\` (setting int64): read records with a JSON parser\nthat keeps big integers as their digits. \`JSON.parse\` gives a \`number\`, which loses precision\nbeyond 2^53.`;
  }
}

export function isKeyType(fType: string | undefined): fType is KeyType {
  return (KEY_TYPES as readonly (string | undefined)[]).includes(fType);
}

/** What the TSDoc says of a field's type, beyond its description. */
function typeNote(field: FieldDescriptor, int64: Int64Type): string | undefined {
  if (field.fType === undefined) return 'The service sent no field type: typed `unknown`.';
  if (field.fType === 'None') return 'Field type `None`: typed `unknown`.';
  if (!isFieldType(field.fType)) return `Field type ${commentText(stringLiteral(field.fType))} is unknown to this schema-sync: typed \`unknown\`.`;
  switch (field.fType) {
    case 'Long':
    case 'ULong':
      return int64Note(field.fType, int64);
    case 'DateKey':
      return 'A date, `YYYY-MM-DD`.';
    case 'DateTime':
      return 'A date and time, `YYYY-MM-DD HH:MM:SS.ffffff`, without a time zone.';
    case 'TimeSpan':
      return 'A time span: how the service writes it is not known, so text and numbers are let through.';
    case 'Flag':
      return 'A flag field: a single flag as its name. How a value with several flags set is written is\nnot known, so any other text is let through.';
    case 'Repeater':
      return 'A repeating group: how records write it is not known for certain; typed as an array of its\nentries, each field optional.';
    default:
      return undefined;
  }
}

/** The TSDoc lines of a field: its description, then what its type is. */
export function propertyDocs(field: FieldDescriptor, int64: Int64Type): string[] {
  const docs = field.desc === undefined ? [] : docLines(field.desc);
  const note = typeNote(field, int64);
  if (note !== undefined) docs.push(...(docs.length > 0 ? [''] : []), ...note.split('\n'));
  return docs;
}
