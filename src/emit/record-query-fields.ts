/**
 * The field table of a message type's records queries (fields on): `<Name>QueryFields`, each
 * field, key field and key part a `where` or `order` can name, as `[how it compares, the value it
 * takes]`. The grammar itself (which operators each kind takes, how a query is written and
 * encoded) is the records runtime's (`runtime/records-runtime.ts`, `QueryOperators` and
 * `queryParams`); only what is particular to a type is generated:
 *
 * ```ts
 * export interface OptionNbboQuoteQueryFields {
 *   okey: ['key', OptionKey];
 *   'okey.tk': ['text', string];
 *   'okey.dt': ['date', string];
 *   'okey.xx': ['number', number];
 *   'okey.cp': ['enum', 'Call' | 'Put'];
 *   bidPrice: ['number', number];
 *   bidExch: ['enum', OptionNbboQuoteRecord['bidExch']];
 * }
 * ```
 *
 * An enum's or flag's names are the record type's (one list, written once). Repeating groups and
 * fields whose type is not known are not in the table: what the service takes of them is not
 * known.
 */
import type { Descriptor } from '../model/descriptor.js';
import { sortFields, type FieldDescriptor } from '../model/field.js';
import { docLines, stringLiteral } from '../text/safe-text.js';
import type { ImportTracker } from './import-tracker.js';
import type { PlannedName } from './naming.js';
import { isKeyType, KEY_TYPES, type KeyType } from './record-field-types.js';
import { keyFieldsOf, propertyKey, QUERY_RESULT, recordNames, type RecordInterface, type RecordProperty } from './record-types.js';
import { moduleSpecifier, type ModuleKind } from './targets.js';

/** The kind of each field type in a query (`QueryFieldKind` of the runtime), and the value it takes; `undefined`: not in queries. */
const KINDS: Readonly<Record<string, readonly [string, string] | undefined>> = {
  String: ['text', 'string'],
  Text1: ['text', 'string'],
  Text2: ['text', 'string'],
  Byte: ['number', 'number'],
  Short: ['number', 'number'],
  UShort: ['number', 'number'],
  Int: ['number', 'number'],
  UInt: ['number', 'number'],
  Float: ['number', 'number'],
  Double: ['number', 'number'],
  // Whatever the int64 setting types records with: a number, a bigint or the digits.
  Long: ['number', 'number | bigint | `${bigint}`'],
  ULong: ['number', 'number | bigint | `${bigint}`'],
  DateKey: ['date', 'string'],
  DateTime: ['date', 'string'],
  TimeSpan: ['span', 'string | number'],
};

/** The parts of each key type, as a query names them after a dot (`okey.tk`), with their kind and value. */
const KEY_PARTS: Readonly<Record<KeyType, readonly (readonly [string, string, string])[]>> = {
  TickerKey: [
    ['at', 'text', 'string'],
    ['ts', 'text', 'string'],
    ['tk', 'text', 'string'],
  ],
  ExpiryKey: [
    ['at', 'text', 'string'],
    ['ts', 'text', 'string'],
    ['tk', 'text', 'string'],
    ['dt', 'date', 'string'],
  ],
  OptionKey: [
    ['at', 'text', 'string'],
    ['ts', 'text', 'string'],
    ['tk', 'text', 'string'],
    ['dt', 'date', 'string'],
    ['xx', 'number', 'number'],
    ['cp', 'enum', "'Call' | 'Put'"],
  ],
};

/** The `[kind, value]` entries of one field: itself, and a key's parts; none for a field queries cannot name. */
function fieldEntries(field: FieldDescriptor, owner: string): [name: string, type: string][] {
  const type = field.fType ?? '';
  if (isKeyType(type)) {
    return [[field.name, `['key', ${type}]`], ...KEY_PARTS[type].map(([part, kind, value]): [string, string] => [`${field.name}.${part}`, `['${kind}', ${value}]`])];
  }
  if ((type === 'Enum' || type === 'Flag') && (field.eSet ?? []).length > 0) return [[field.name, `['${type === 'Enum' ? 'enum' : 'flag'}', ${owner}[${stringLiteral(field.name)}]]`]];
  if (type === 'Enum' || type === 'Flag') return [[field.name, `['${type === 'Enum' ? 'enum' : 'flag'}', string]`]];
  const kind = KINDS[type];
  return kind === undefined ? [] : [[field.name, `['${kind[0]}', ${kind[1]}]`]];
}

/** The fields of a type a query can name, in record order (key fields first, as records list them under `pkey`). */
function queryProperties(descriptor: Descriptor, identifier: string): { properties: RecordProperty[]; keyTypes: KeyType[] } {
  if (descriptor.name === QUERY_RESULT) return { properties: [], keyTypes: [] };
  const fields = sortFields(descriptor.fields ?? []).filter((field) => field.inRepeater === undefined);
  const names = recordNames(identifier);
  const keys = keyFieldsOf(fields);
  const rest = fields.filter((field) => field.isPkey !== true);
  const entries = [...keys.flatMap((field) => fieldEntries(field, names.pkey)), ...rest.flatMap((field) => fieldEntries(field, names.record))];
  const properties = entries.map(([name, type]) => ({ key: name.includes('.') ? stringLiteral(name) : propertyKey(name), optional: false, docs: [], members: [type] }));
  const keyTypes = KEY_TYPES.filter((key) => fields.some((field) => field.fType === key));
  return { properties, keyTypes };
}

/** Whether a message type has a query field table (a listed `QueryResult`, or a type with no field a query can name, has none). */
export function hasQueryFields(descriptor: Descriptor, planned: PlannedName): boolean {
  return queryProperties(descriptor, planned.identifier).properties.length > 0;
}

/**
 * The `<Name>QueryFields` interface of a message type, or none (see {@link hasQueryFields}); the
 * key interfaces it names are recorded in `imports`.
 */
export function queryFieldsInterfaces(descriptor: Descriptor, planned: PlannedName, imports: ImportTracker, kind: ModuleKind): RecordInterface[] {
  const { properties, keyTypes } = queryProperties(descriptor, planned.identifier);
  if (properties.length === 0) return [];
  for (const key of keyTypes) imports.use(key, moduleSpecifier('types', 'messages', kind), { type: true });
  const shown = descriptor.name === planned.identifier ? descriptor.name : stringLiteral(descriptor.name);
  return [
    {
      name: recordNames(planned.identifier).query,
      docs: docLines(
        `What a records query of ${shown} can name (\`recordsQuery\`, \`fetchRecords\`): each field, key field\nand key part (\`okey.tk\`) as \`[how it compares, the value it takes]\`; the operators of each kind\nare \`QueryOperators\`'.`,
      ),
      properties,
    },
  ];
}

/** The key fields of a message type in record order, when it has several (a `pkey` object's parts are joined in this order). */
export function keyFieldOrder(descriptor: Descriptor): string[] | undefined {
  const keys = keyFieldsOf(sortFields(descriptor.fields ?? [])).map((field) => field.name);
  return keys.length > 1 && descriptor.name !== QUERY_RESULT ? keys : undefined;
}
