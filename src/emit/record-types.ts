/**
 * The record types of a message type, generated from its field descriptors with fields on
 * (`--fields`): `<Name>Record`, the `message` of a record as the service sends it, with the
 * primary key's fields under `pkey` (typed `<Name>PKey`, each key field required there) and
 * every other field beside it, each optional (fields at their default value are left out of a
 * record); and an interface per repeating group, `<Name><Group>Item`.
 *
 * ```ts
 * /** A record of OptionNbboQuote, as the service writes it in JSON (the `message` of …). *\/
 * export interface OptionNbboQuoteRecord {
 *   /** The primary key: … *\/
 *   pkey?: OptionNbboQuotePKey;
 *   bidExch?: 'None' | 'CBOE' | 'ISE';
 *   /**
 *    * Exchange timestamp.
 *    *
 *    * `Long`: …
 *    *\/
 *   srcTimestamp?: number;
 * }
 *
 * export interface OptionNbboQuotePKey {
 *   /** The option. *\/
 *   okey: OptionKey;
 * }
 * ```
 *
 * Types follow the JSON real deployments write (`record-field-types.ts`): text as strings,
 * numbers as numbers (`Long` and `ULong`, which may exceed 2^53, as the `int64` setting says:
 * `number`, `bigint` or `string`), enums and flags as their short names, dates as text, the key
 * fields as the shared `TickerKey` / `ExpiryKey` / `OptionKey` of `types.ts`, a repeating group
 * as an array of objects under the group's name. Where the service's JSON is not known (a flag
 * with several bits set, `TimeSpan`, repeating groups), the types are tolerant and their TSDoc
 * says so. Server text reaches the file only through `stringLiteral` and `docLines`.
 */
import type { CodeBlockWriter } from 'ts-morph';
import { joinMessages, msg, own, type Message } from '../model/message.js';

import { compareStrings, type Descriptor } from '../model/descriptor.js';
import { EmitError, LockError } from '../model/errors.js';
import type { Int64Type } from '../model/lockfile.js';
import { sortFields, type FieldDescriptor } from '../model/field.js';
import type { ImportTracker } from './import-tracker.js';
import { docLines, stringLiteral } from '../text/safe-text.js';
import { GENERATED_EXPORTS, showName, toIdentifier, type PlannedName } from './naming.js';
import { fieldTypeMembers, isKeyType, propertyDocs } from './record-field-types.js';
import { moduleSpecifier, type ModuleKind } from './targets.js';
import { indentWidth, MAX_LINE_LENGTH, writeDocs, writeLines } from './writers.js';

/** The record type names of a message type's identifier: its record, its key and its query field table (`record-query-fields.ts`). */
export function recordNames(identifier: string): { record: string; pkey: string; query: string } {
  return { record: `${identifier}Record`, pkey: `${identifier}PKey`, query: `${identifier}QueryFields` };
}

/** The message type whose records are the status that ends every answer: its record type is `QueryResultMessage`. */
export const QUERY_RESULT = 'QueryResult';

/** The property of a record that holds its key fields, as the service names it. */
export const PKEY_PROPERTY = 'pkey';

/** The key fields of a message type: those with `isPkey`, outside repeating groups. */
export function keyFieldsOf(fields: readonly FieldDescriptor[]): FieldDescriptor[] {
  return fields.filter((field) => field.isPkey === true && field.inRepeater === undefined);
}

/** Whether a message type has primary key fields (then it has a `<Name>PKey`). */
export function hasPrimaryKey(descriptor: Descriptor): boolean {
  return keyFieldsOf(descriptor.fields ?? []).length > 0;
}

/** What the checks of output with fields on read of a message type (a plan reads each descriptor once for them): {@link recordFacts}. */
export interface RecordFacts {
  name: string;
  /** Whether the lockfile records its field descriptors. */
  hasFields: boolean;
  /** Whether it has primary key fields (then it has a `<Name>PKey`). */
  hasKey: boolean;
  /** Whether a top-level field or repeating group is named `pkey` besides its key fields. */
  pkeyClash: boolean;
}

/** The {@link RecordFacts} of a descriptor. */
export function recordFacts(descriptor: Descriptor): RecordFacts {
  const fields = descriptor.fields ?? [];
  const hasKey = hasPrimaryKey(descriptor);
  const pkeyClash = hasKey && fields.some((field) => (field.name === PKEY_PROPERTY && field.isPkey !== true && field.inRepeater === undefined) || field.inRepeater === PKEY_PROPERTY);
  return { name: descriptor.name, hasFields: descriptor.fields !== undefined, hasKey, pkeyClash };
}

/**
 * The checks of output with fields on: {@link assertFieldsRecorded}, then
 * {@link checkRecordNames} and {@link checkPkeyProperty}.
 * @param types - sorted by name
 */
export function checkRecords(types: readonly RecordFacts[], plan: ReadonlyMap<string, PlannedName>): void {
  assertFieldsRecorded(types.filter((type) => !type.hasFields).map((type) => type.name));
  checkRecordNames(types, plan);
  for (const type of types) checkPkeyProperty(type);
}

/**
 * Checks that no top-level property of a record with key fields is named `pkey` besides the key
 * object: a record cannot hold both under one name.
 * @throws EmitError naming the message type
 */
function checkPkeyProperty(type: RecordFacts): void {
  if (!type.pkeyClash) return;
  throw new EmitError(msg`Message type ${showName(type.name)} has a field or repeating group named "${own(PKEY_PROPERTY)}" besides its key fields, which records hold under "${own(PKEY_PROPERTY)}".`, {
    hint: msg`Rename the field on the server, narrow the listing (--where) to leave the type out, or pull with --no-fields.`,
  });
}

/**
 * Checks that every message type has its fields recorded, for output with fields on: the
 * lockfile of a pull without fields has none, and `generate` cannot fetch them.
 * @param missing - the names of the types without field descriptors, in name order
 * @throws LockError naming the types without fields
 */
function assertFieldsRecorded(missing: readonly string[]): void {
  if (missing.length === 0) return;
  const listed = msg`${joinMessages(missing.slice(0, 5).map((name) => msg`${showName(name)}`), ', ')}${own(missing.length > 5 ? ' …' : '')}`;
  throw new LockError(msg`fields are on, but the lockfile records no field descriptors for ${missing.length} message ${own(missing.length === 1 ? 'type' : 'types')} (${listed}).`, {
    hint: msg`Run \`schema-sync pull --fields\` to fetch them (generate never touches the network), or turn fields off (--no-fields).`,
  });
}

/**
 * Checks that the record types the index exports clash with no message constant, no generated
 * export and no other record type.
 * @param types - sorted by name
 * @throws EmitError naming both owners of a clashing identifier
 */
function checkRecordNames(types: readonly RecordFacts[], plan: ReadonlyMap<string, PlannedName>): void {
  const owners = new Map<string, Message>(GENERATED_EXPORTS.map((name) => [name, msg`the generated export ${own(name)}`]));
  for (const [name, planned] of plan) owners.set(planned.identifier, msg`the constant of message type ${showName(name)}`);
  for (const type of types) {
    const names = recordNames(plan.get(type.name)!.identifier);
    // The query field table's name is taken whether or not the type has one: a name never depends on the fields.
    for (const identifier of type.hasKey ? [names.record, names.pkey, names.query] : [names.record, names.query]) {
      const other = owners.get(identifier);
      if (other !== undefined) {
        throw new EmitError(msg`The record type ${identifier} of message type ${showName(type.name)} clashes with ${other}.`, {
          hint: msg`Rename one of them on the server, narrow the listing (--where) to leave one out, or pull with --no-fields.`,
        });
      }
      owners.set(identifier, msg`the record type ${identifier} of message type ${showName(type.name)}`);
    }
  }
}

/** One property of a record interface. */
export interface RecordProperty {
  /** A valid property name: bare or a string literal. */
  key: string;
  optional: boolean;
  /** Comment-safe TSDoc lines. */
  docs: string[];
  /** The members of its type's union, as code. */
  members: string[];
}

/** A record interface of a message module, before it is written (or, with `alias`, a type alias of a shared type). */
export interface RecordInterface {
  name: string;
  docs: string[];
  properties: RecordProperty[];
  /** The shared type it names instead of declaring its properties. */
  alias?: string;
}

/** The name of the enum fields' unknown-value case (`types.ts`). */
export const UNKNOWN_ENUM_NAME = 'UnknownEnumName';

/**
 * The record types of one message type (see the module comment); its `fields` are in record
 * order. The key interfaces they use are recorded in `imports`.
 */
export function recordTypes(descriptor: Descriptor, planned: PlannedName, imports: ImportTracker, options: { int64?: Int64Type | undefined; kind: ModuleKind }): RecordInterface[] {
  const { int64 = 'number', kind } = options;
  const fields = sortFields(descriptor.fields ?? []);
  const { record, pkey } = recordNames(planned.identifier);
  const typesModule = moduleSpecifier('types', 'messages', kind);
  if (descriptor.name === QUERY_RESULT) {
    // The status that ends every answer: one type, whatever its fields say (issue 41).
    const alias = imports.use('QueryResultMessage', typesModule, { type: true });
    return [{ name: record, docs: ['A record of `QueryResult`: the status that ends every answer (`QueryResultMessage`), whatever', 'its field descriptors say.'], properties: [], alias }];
  }
  const groups = groupInterfaces(fields, planned.identifier);
  const property = (field: FieldDescriptor, optional: boolean): RecordProperty => {
    const members = fieldTypeMembers(field, groups, int64);
    if (isKeyType(field.fType)) imports.use(field.fType, typesModule, { type: true });
    if (members.includes(UNKNOWN_ENUM_NAME)) imports.use(UNKNOWN_ENUM_NAME, typesModule, { type: true });
    return { key: propertyKey(field.name), optional, docs: propertyDocs(field, int64), members };
  };
  const shown = descriptor.name === planned.identifier ? descriptor.name : stringLiteral(descriptor.name);
  const keyFields = keyFieldsOf(fields);
  const keyProperty: RecordProperty[] =
    keyFields.length === 0
      ? []
      : [{ key: PKEY_PROPERTY, optional: true, docs: ['The primary key: its fields, each always there when the key is.'], members: [pkey] }];
  const interfaces: RecordInterface[] = [
    {
      name: record,
      docs: [
        ...docLines(`A record of ${shown}, as the service writes it in JSON (the \`message\` of a record element).`),
        ...(keyFields.length === 0
          ? ['Any field may be absent: fields at their default value are left out.']
          : ['The key fields are under `pkey`; any other field may be absent: fields at their default value', 'are left out.']),
      ],
      properties: [
        ...keyProperty,
        ...fields.filter((field) => field.inRepeater === undefined && field.isPkey !== true).map((field) => property(field, true)),
        ...orphanProperties(fields, groups),
      ],
    },
  ];
  if (keyFields.length > 0) {
    interfaces.push({ name: pkey, docs: docLines(`The primary key of a record of ${shown}: its \`pkey\`.`), properties: keyFields.map((field) => property(field, false)) });
  }
  for (const [group, name] of groups) {
    interfaces.push({
      name,
      docs: docLines(`One entry of the repeating group ${stringLiteral(group)} of a record of ${shown}.`),
      properties: fields.filter((field) => field.inRepeater === group).map((field) => property(field, true)),
    });
  }
  return interfaces;
}

/**
 * Writes record interfaces, each after a blank line, as `export interface <name> { … }` blocks
 * (one with no properties takes none: its index signature's type is `never`, where `{}` would
 * take any object), or an alias as `export type <name> = <alias>;`.
 */
export function writeRecordTypes(writer: CodeBlockWriter, interfaces: readonly RecordInterface[]): void {
  for (const { name, docs, properties, alias } of interfaces) {
    writer.blankLine();
    writeDocs(writer, docs);
    if (alias !== undefined) writer.writeLine(`export type ${name} = ${alias};`);
    else if (properties.length === 0) writer.writeLine(`export interface ${name} {`).indent().write('readonly [field: string]: never;').newLine().write('}').newLine();
    else writer.write(`export interface ${name} `).inlineBlock(() => properties.forEach((property) => writeProperty(writer, property))).newLine();
  }
}

/** One property of an interface: its TSDoc, then `key?: type;`, a long union one member per line. */
function writeProperty(writer: CodeBlockWriter, { key, optional, docs, members }: RecordProperty): void {
  writeDocs(writer, docs);
  const head = `${key}${optional ? '?' : ''}:`;
  const inline = `${head} ${members.join(' | ')};`;
  if (indentWidth(writer) + inline.length <= MAX_LINE_LENGTH || members.length === 1) {
    writer.writeLine(inline);
    return;
  }
  writer.writeLine(head).indent(() => writeLines(writer, members.map((member, i) => `| ${member}${i === members.length - 1 ? ';' : ''}`)));
}

/**
 * The interface name of every repeating group, by group name, in record order: the groups that
 * `Repeater` fields describe and those that fields name in `inRepeater`. Names that would clash
 * within the module get `_2`, `_3` … in that order.
 */
function groupInterfaces(fields: readonly FieldDescriptor[], identifier: string): Map<string, string> {
  const groups = new Map<string, string>();
  const taken = new Set([identifier, ...Object.values(recordNames(identifier))]);
  for (const field of fields) {
    for (const group of [field.fType === 'Repeater' ? field.name : undefined, field.inRepeater]) {
      if (group === undefined || groups.has(group)) continue;
      const part = toIdentifier(group);
      const base = `${identifier}${part.charAt(0).toUpperCase()}${part.slice(1)}Item`;
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
      taken.add(name);
      groups.set(group, name);
    }
  }
  return groups;
}

/** Top-level properties for groups that fields name but no `Repeater` field describes. */
function orphanProperties(fields: readonly FieldDescriptor[], groups: ReadonlyMap<string, string>): RecordProperty[] {
  const described = new Set(fields.filter((field) => field.fType === 'Repeater').map((field) => field.name));
  return [...groups]
    .filter(([group]) => !described.has(group))
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([group, name]) => ({
      key: propertyKey(group),
      optional: true,
      docs: docLines(`Repeating group ${stringLiteral(group)} (its fields name it; no Repeater field describes it).`),
      members: [`readonly ${name}[]`],
    }));
}

/** A field name as a property name: bare when it is an identifier, else a string literal. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && name !== '__proto__' ? name : stringLiteral(name);
}
