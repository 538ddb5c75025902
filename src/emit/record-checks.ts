/**
 * The generated check of a message type's records, written into its message module beside the
 * record types (fields on): `<Name>RecordSchema`, the Standard Schema of one record, made by the
 * records runtime (`runtime/records-runtime.ts`, written into the output folder as
 * `records-runtime`) from the type's check table, JSON text that names each field and its kind:
 *
 * ```ts
 * export const OptionNbboQuoteRecordSchema: RecordSchema<OptionNbboQuoteRecord> = /* @__PURE__ *\/ recordSchema<OptionNbboQuoteRecord>(
 *   'OptionNbboQuote', '{"f":[["pkey",15],["bidPrice",2],["bidExch",9,0],…],"k":[["okey",13,3]],"e":[["None","AMEX",…]]}');
 * ```
 *
 * A table rather than code a field: every consumer's compiler checks the generated folder, and
 * code costs it a flow analysis per name per statement (some 3 × the folder's check time at the
 * real listing's size, bench/README.md, "Type-check of the generated folder"), a string nothing.
 * The runtime reads a table once, at the type's first record, into a loop over the record's own
 * fields with a `switch` on the kind (`tableCheck`): a value of the right type costs one lookup
 * and one `typeof` (or one look-up in its enum set); anything else goes to the checker, which
 * converts what the text kept exact (64-bit integers) and records issues and drift.
 */
import type { Descriptor } from '../model/descriptor.js';
import type { Int64Type } from '../model/lockfile.js';
import { sortFields, type FieldDescriptor } from '../model/field.js';
import { compareStrings } from '../model/descriptor.js';
import { commentText, stringLiteral } from '../text/safe-text.js';
import type { ImportTracker } from './import-tracker.js';
import type { PlannedName } from './naming.js';
import { keyFieldsOf, PKEY_PROPERTY, QUERY_RESULT, recordNames } from './record-types.js';
import { hasInt64Field } from './record-field-types.js';
import { isTypeScript, type ModuleKind } from './targets.js';
import { FIELD, type CheckField, type CheckTable } from './check-table.js';

/** The runtime module every check imports from, as a stem of the output folder. */
export const RECORDS_RUNTIME = 'records-runtime';

/** The name of a message type's record schema. */
export function recordSchemaName(identifier: string): string {
  return `${identifier}RecordSchema`;
}

/** Integer ranges of the integer field types. */
const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  Byte: [-128, 255],
  Short: [-32768, 32767],
  UShort: [0, 65535],
  Int: [-2147483648, 2147483647],
  UInt: [0, 4294967295],
};

const TEXT_TYPES: ReadonlySet<string> = new Set(['String', 'Text1', 'Text2', 'DateKey', 'DateTime']);

/** A part of a message type's check table: the record's fields, its key's, or a repeating group item's. */
interface TablePart {
  fields: readonly FieldDescriptor[];
  /** Whether the fields are key fields (required; a scalar one left out at its default value is given it). */
  key: boolean;
  /** The group name. */
  group?: string;
}

/**
 * The lines of the checks of one message type and its `<Name>RecordSchema` (a declaration only
 * in a `.d.ts`), blank lines between them. The names it uses of the runtime are recorded in
 * `imports`.
 * @param runtime - the runtime's module specifier from the message module
 */
export function recordCheckLines(descriptor: Descriptor, planned: PlannedName, imports: ImportTracker, options: { int64: Int64Type; kind: ModuleKind; runtime: string }): string[] {
  const { kind, runtime } = options;
  const ts = isTypeScript(kind);
  const { record } = recordNames(planned.identifier);
  const schema = recordSchemaName(planned.identifier);
  const typed = kind === 'js' ? '' : `: ${imports.use('RecordSchema', runtime, { type: true })}<${record}>`;
  const doc = `/** The validator of one record of ${commentText(stringLiteral(descriptor.name))}: Standard Schema v1, \`parse\` and \`safeParse\`. */`;
  if (kind === 'dts') return [doc, `export declare const ${schema}${typed};`];
  const exact = hasInt64Field(descriptor) && options.int64 !== 'number' ? ', true' : '';
  const make = imports.use('recordSchema', runtime);
  if (descriptor.name === QUERY_RESULT) {
    const check = imports.use('checkQueryResult', runtime);
    return [doc, `export const ${schema}${typed} = /* @__PURE__ */ ${make}${ts ? `<${record}>` : ''}(${stringLiteral(descriptor.name)}, ${check});`];
  }
  const table = checkTable(descriptor, options.int64);
  return [doc, `export const ${schema}${typed} = /* @__PURE__ */ ${make}${ts ? `<${record}>` : ''}(${stringLiteral(descriptor.name)}, ${stringLiteral(JSON.stringify(table))}${exact});`];
}

/** A message type's check table (`CheckTable` of the runtime): its record's, key's and groups' fields, and its enum sets. */
function checkTable(descriptor: Descriptor, int64: Int64Type): CheckTable {
  const parts = tableParts(descriptor);
  const enums = new Map<string, number>();
  const enumOf = (values: readonly string[]): number => {
    const id = JSON.stringify(values);
    let index = enums.get(id);
    if (index === undefined) enums.set(id, (index = enums.size));
    return index;
  };
  const groups = parts.filter((part) => part.group !== undefined);
  const groupIndex = new Map(groups.map((part, i) => [part.group!, i]));
  const fieldsOf = (part: TablePart): CheckField[] => part.fields.map((field) => checkField(field, part.key, { int64, enumOf, groups: groupIndex }));
  const key = parts.find((part) => part.key);
  return {
    f: fieldsOf(parts[0]!),
    ...(key === undefined ? {} : { k: fieldsOf(key) }),
    ...(groups.length === 0 ? {} : { g: groups.map((part) => [part.group!, fieldsOf(part)] as const) }),
    ...(enums.size === 0 ? {} : { e: [...enums.keys()].map((id) => JSON.parse(id) as string[]) }),
  };
}

/** The parts of a message type's check table: the record's first, then its key's, then each group item's. */
function tableParts(descriptor: Descriptor): TablePart[] {
  const fields = sortFields(descriptor.fields ?? []);
  const keyFields = keyFieldsOf(fields);
  const top = fields.filter((field) => field.inRepeater === undefined && field.isPkey !== true);
  const described = new Set(fields.filter((field) => field.fType === 'Repeater').map((field) => field.name));
  const groups = [...new Set(fields.flatMap((field) => [field.fType === 'Repeater' ? field.name : undefined, field.inRepeater]).filter((group): group is string => group !== undefined))];
  // A group that fields name but no Repeater field describes is a top-level array of its items too.
  const orphans = groups.filter((group) => !described.has(group)).sort(compareStrings);
  const record: TablePart = {
    fields: [...(keyFields.length > 0 ? [{ name: PKEY_PROPERTY, fType: '$pkey', extra: {} } as FieldDescriptor] : []), ...top, ...orphans.map((group) => ({ name: group, fType: 'Repeater', extra: {} }) as FieldDescriptor)],
    key: false,
  };
  const parts = [record];
  if (keyFields.length > 0) parts.push({ fields: keyFields, key: true });
  for (const group of groups) parts.push({ fields: fields.filter((field) => field.inRepeater === group), key: false, group });
  return parts;
}

/** A field's entry in its check table: its name, kind and what the kind needs; a key field's default. */
function checkField(field: FieldDescriptor, key: boolean, context: { int64: Int64Type; enumOf: (values: readonly string[]) => number; groups: ReadonlyMap<string, number> }): CheckField {
  const [kind, arg] = fieldKind(field, context);
  const fallback = key ? keyDefault(field, context.int64) : undefined;
  if (fallback !== undefined) return [field.name, kind, arg ?? null, fallback];
  return arg === undefined ? [field.name, kind] : [field.name, kind, arg];
}

/**
 * The value a scalar key field has when the service leaves it out: its default (the service
 * leaves out key fields at their default value as it does any other); a key object has none. A
 * `Long` is 0 as `int64` types it: `"0"` as a string, 0 as a number, and 0 too as a `bigint`,
 * which JSON cannot hold and the runtime makes `0n` by the field's kind.
 */
function keyDefault(field: FieldDescriptor, int64: Int64Type): unknown {
  const type = field.fType ?? '';
  if (TEXT_TYPES.has(type)) return '';
  if (type === 'Long' || type === 'ULong') return int64 === 'string' ? '0' : 0;
  if (type in INTEGER_RANGES || type === 'Double' || type === 'Float') return 0;
  if ((type === 'Enum' || type === 'Flag') && field.eSet !== undefined && field.eSet.length > 0) return field.eSet[0]!;
  return undefined;
}

/** A field's kind in the check table (`FIELD` of the runtime) and what it needs. */
function fieldKind(field: FieldDescriptor, context: { int64: Int64Type; enumOf: (values: readonly string[]) => number; groups: ReadonlyMap<string, number> }): [number, unknown?] {
  const type = field.fType;
  if (type === '$pkey') return [FIELD.PKEY];
  if (type !== undefined && TEXT_TYPES.has(type)) return [FIELD.TEXT];
  if (type === 'Double' || type === 'Float') return [FIELD.DOUBLE];
  if (type === 'Int') return [FIELD.INT];
  if (type === 'UInt') return [FIELD.UINT];
  if (type !== undefined && type in INTEGER_RANGES) return [FIELD.RANGE, INTEGER_RANGES[type]!];
  if (type === 'Long' || type === 'ULong') return [context.int64 === 'bigint' ? FIELD.LONG_BIGINT : context.int64 === 'string' ? FIELD.LONG_STRING : FIELD.LONG_NUMBER];
  if (type === 'Enum') {
    const values = [...new Set(field.eSet ?? [])];
    return values.length === 0 ? [FIELD.ENUM_ANY] : [FIELD.ENUM, context.enumOf(values)];
  }
  if (type === 'Flag') return [FIELD.FLAG];
  if (type === 'TimeSpan') return [FIELD.SPAN];
  if (type === 'TickerKey') return [FIELD.KEY, 1];
  if (type === 'ExpiryKey') return [FIELD.KEY, 2];
  if (type === 'OptionKey') return [FIELD.KEY, 3];
  if (type === 'Repeater') return [FIELD.GROUP, context.groups.get(field.name)!];
  // None, no fType, or a type this version does not know: typed unknown, let through.
  return [FIELD.ANY];
}
