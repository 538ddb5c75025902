/**
 * `index.ts` (re-exports, registries, derived types) and `types.ts` (the shared
 * `MessageDescriptor` interface, imported type-only by every message file, so there is no import
 * cycle between the index and the message modules). The `js+dts` target writes the index as
 * `index.js` (the re-exports and registries) and `index.d.ts` (their declarations and the
 * types), and `types.ts` as `types.d.ts`, its text unchanged (it declares types only).
 */
import type { Descriptor } from '../model/descriptor.js';
import { DESCRIPTOR_FIELDS, EMITTED_TYPES } from '../model/descriptor-fields.js';
import { declarationLine, ImportTracker, type ModuleDeclaration } from './import-tracker.js';
import { stringLiteral } from '../text/safe-text.js';
import type { PlannedName } from './naming.js';
import { RECORDS_RUNTIME } from './record-checks.js';
import { schemaName, trackRecordsApi, writeRecordsApi, writeRecordsApiTypes } from './records-api.js';
import { queryFieldsName, trackQueryApi, writeQueryApi, writeQueryApiTypes } from './records-query-api.js';
import { writeElementGuard, writeKeyInterfaces, writeQueryResultTypes } from './record-declarations.js';
import { KEY_TYPES } from './record-field-types.js';
import { hasPrimaryKey, QUERY_RESULT, recordNames } from './record-types.js';
import { writeExportedList, writeExportedRegistry, writeInterfaceOf } from './line-blocks.js';
import { isTypeScript, moduleSpecifier, type ModuleKind } from './targets.js';
import { memberLine, writeInterface, writeTypeAlias, type TypeAlias } from './type-declarations.js';
import type { CodeBlockWriter } from 'ts-morph';
import { type ConstForm, fileText, newWriterAfterBanner, propertyLine, writeDocs, writeLines, writeNoCheck } from './writers.js';

/**
 * The registry key of a name: a string literal, computed (`['__proto__']`) for `__proto__`,
 * because a plain `'__proto__': x` in an object literal sets the prototype instead of defining a
 * property.
 */
export function registryKey(name: string): string {
  const literal = stringLiteral(name);
  return name === '__proto__' ? `[${literal}]` : literal;
}

/** One message type of the index: its descriptor and planned names. */
export interface IndexEntry {
  descriptor: Descriptor;
  name: PlannedName;
  /** With fields on: whether the type has a query field table (`<Name>QueryFields`, record-query-fields.ts). */
  queryFields?: boolean;
}

/** Inputs of {@link indexFileText}. */
export interface IndexInput {
  /** Every message type, sorted by name. */
  entries: readonly IndexEntry[];
  banner: string;
  /** Whether the message modules have record types (then the index exports them, `MessageRecords`, `RecordByName`, `RecordElement` and `RecordsResponse`). */
  fields?: boolean;
  /** Which file: `index.ts`, `index.js` or `index.d.ts`. */
  kind: ModuleKind;
}

/**
 * The text of `index.ts`, `index.js` or `index.d.ts`, written by one `CodeBlockWriter` (not
 * printed from structures, which would load the TypeScript compiler for one file).
 */
export function indexFileText(input: IndexInput): string {
  const { entries, banner, kind, fields = false } = input;
  // Plain JavaScript (`index.js`) has no types: it re-exports and imports values only.
  const types = kind !== 'js';
  const records = fields && types;
  // What the index uses of the shared types module; each message module's uses are its entry's
  // (messageModule), one module a message type.
  const shared = new ImportTracker();
  const typesModule = moduleSpecifier('types', 'root', kind);
  if (types) {
    for (const name of ['KnownMessageAction', 'MessageDescriptor', ...(fields ? [...KEY_TYPES, 'QueryResultMessage', 'QueryResultElement', 'UnknownEnumName'] : [])]) shared.reexport(name, typesModule, { type: true });
  }
  if (fields) {
    trackRecordsApi(shared, kind);
    trackQueryApi(shared, kind);
  }
  // Used by `RecordsResponse`, written last: its import follows the message modules'.
  const queryResultElement = records ? shared.use('QueryResultElement', typesModule, { type: true }) : undefined;
  // Modules in the order first used: the shared types' re-exports before the message modules',
  // their import (QueryResultElement) after.
  const declarations = (keyword: 'import' | 'export', own: readonly ModuleDeclaration[]): string[] => {
    const lines: string[] = [];
    const write = (declaration: ModuleDeclaration) => {
      const text = declarationLine(keyword, declaration, { types });
      if (text !== undefined) lines.push(text);
    };
    if (keyword === 'export') own.forEach(write);
    for (const entry of entries) write(messageModule(entry, keyword, { fields, records, kind }));
    if (keyword === 'import') own.forEach(write);
    return lines;
  };
  // The message numbers' order, as positions in `entries`.
  const byNumber = Uint32Array.from(entries, (_, i) => i).sort((a, b) => entries[a]!.descriptor.mNum - entries[b]!.descriptor.mNum);

  // A declaration names each constant's type; the `as const` of a value gives the same.
  const form = kind === 'dts' ? 'type' : 'value';
  const valueOf = (entry: IndexEntry, of: ConstForm) => (of === 'type' ? `typeof ${entry.name.identifier}` : entry.name.identifier);
  const asConst = isTypeScript(kind) ? ' as const' : '';
  // TypeScript's registries name their types too: `isolatedDeclarations` infers no type from a reference.
  const annotated = isTypeScript(kind);

  const writer = writeNoCheck(newWriterAfterBanner(banner), kind);
  // A blank line before each part, never two: an empty part (no imports) leaves one.
  writeLines(writer, declarations('import', shared.imports()));
  writer.blankLineIfLastNot();
  writeLines(writer, declarations('export', shared.reexports()));
  writer.blankLineIfLastNot();
  writeDocs(writer, ['Every message type, keyed by its name as the service sends it.']);
  writeExportedRegistry(writer, 'messages', entries, (e, of) => propertyLine(registryKey(e.descriptor.name), valueOf(e, of), of), asConst, form, annotated);
  writer.blankLine();
  writeDocs(writer, ['Every message type, keyed by its message number (`mNum`).']);
  writeExportedRegistry(writer, 'messagesByNumber', byNumber, (i, of) => propertyLine(String(entries[i]!.descriptor.mNum), valueOf(entries[i]!, of), of), asConst, form, annotated);
  writer.blankLine();
  writeDocs(writer, ['The names of all message types, sorted.']);
  writeExportedList(writer, 'messageNames', entries, (e) => stringLiteral(e.descriptor.name), asConst, form);
  if (fields) {
    writer.blankLineIfLastNot();
    writeElementGuard(writer, kind);
    writeRecordsApi(writer, entries, kind, (e) => registryKey(e.descriptor.name));
    writeQueryApi(writer, entries, kind, (e) => registryKey(e.descriptor.name));
  }
  if (types) writeIndexTypes(writer, fields ? entries : undefined, queryResultElement);
  return fileText('', writer);
}

/**
 * What the index imports from a message module (its constant, and with record types its record
 * type, which `MessageRecords` names) or re-exports of it (its constant, and with record types
 * its record type and key type if it has one, and its query field table if it has one), names
 * sorted: a name before its suffixed forms, `PKey` before `QueryFields` before `Record`.
 */
function messageModule(entry: IndexEntry, keyword: 'import' | 'export', options: { fields: boolean; records: boolean; kind: ModuleKind }): ModuleDeclaration {
  const { identifier } = entry.name;
  const names = [{ name: identifier, isTypeOnly: false }];
  if (options.records) {
    const { record, pkey } = recordNames(identifier);
    // A listed QueryResult's record type is the status type, which has no key type.
    if (keyword === 'export' && hasPrimaryKey(entry.descriptor) && entry.descriptor.name !== QUERY_RESULT) names.push({ name: pkey, isTypeOnly: true });
    const query = queryFieldsName(entry);
    if (query !== undefined) names.push({ name: query, isTypeOnly: true });
    names.push({ name: record, isTypeOnly: true });
  }
  if (options.fields) names.push({ name: schemaName(entry), isTypeOnly: false });
  return { moduleSpecifier: moduleSpecifier(`messages/${entry.name.fileStem}`, 'root', options.kind), names };
}

/**
 * Writes the types the index derives from its registries (`MessageName` …) and, with fields on
 * (`records` given), `MessageRecords` and the types built on it.
 */
function writeIndexTypes(writer: CodeBlockWriter, records: readonly IndexEntry[] | undefined, queryResultElement: string | undefined): void {
  const aliases: TypeAlias[] = [
    { name: 'MessageName', docs: ['The name of a message type.'], type: 'keyof typeof messages' },
    { name: 'MessageNumber', docs: ['The message number (`mNum`) of a message type.'], type: 'keyof typeof messagesByNumber' },
    // Only the types that have the field (a deployment may send it for none), picked by a
    // distributive conditional type rather than the global `Extract`: the index imports every
    // message type by name, and one named `Extract` would stand for the global here.
    {
      name: 'MessageToken',
      docs: ['A token group (`mToken`) some message type belongs to; `never` when the service sends no tokens.'],
      type: '(typeof messages)[MessageName] extends infer D ? (D extends { readonly mToken: infer T extends string } ? T : never) : never',
    },
    {
      name: 'MessageAction',
      docs: ['An action some message type supports; `never` when the service sends no actions.'],
      type: '(typeof messages)[MessageName] extends infer D ? (D extends { readonly actions: readonly (infer A extends string)[] } ? A : never) : never',
    },
    { name: 'MessageByName', docs: ['The descriptor of the message type named `N`.'], typeParameters: ['N extends MessageName'], type: '(typeof messages)[N]' },
    { name: 'MessageByNumber', docs: ['The descriptor of the message type numbered `N`.'], typeParameters: ['N extends MessageNumber'], type: '(typeof messagesByNumber)[N]' },
  ];
  for (const alias of aliases) {
    writer.blankLineIfLastNot();
    writeTypeAlias(writer, alias);
  }
  if (records === undefined) return;
  writer.blankLineIfLastNot();
  writeInterfaceOf(writer, { name: 'MessageRecords', docs: ['The record type of every message type, keyed by its name as the service sends it.'] }, records, (e) =>
    memberLine({ name: registryKey(e.descriptor.name), type: recordNames(e.name.identifier).record }),
  );
  const recordAliases: TypeAlias[] = [
    { name: 'RecordByName', docs: ['The record type of the message type named `N`.'], typeParameters: ['N extends MessageName'], type: 'MessageRecords[N]' },
    {
      name: 'RecordElement',
      docs: [
        'One element of an answer holding a record of the message type named `N`: its type in',
        '`header.mTyp`, the record in `message`. Of several names, the union of their elements, which',
        '`header.mTyp` narrows.',
      ],
      typeParameters: ['N extends MessageName = MessageName'],
      // A listed type named QueryResult is the status element: one type (QueryResultMessage).
      type: `{ [K in N]: K extends 'QueryResult' ? ${queryResultElement} : { header: { mTyp: K }; message: MessageRecords[K] } }[N]`,
    },
    {
      name: 'RecordsResponse',
      docs: [
        'The whole answer of a records query: records of the message types `N` (any listed type by',
        'default), then the `QueryResult` that ends it.',
      ],
      typeParameters: ['N extends MessageName = MessageName'],
      type: `readonly [...RecordElement<N>[], ${queryResultElement}]`,
    },
  ];
  for (const alias of recordAliases) {
    writer.blankLineIfLastNot();
    writeTypeAlias(writer, alias);
  }
  writeRecordsApiTypes(writer);
  writeQueryApiTypes(writer, records, (e) => registryKey(e.descriptor.name));
}

/**
 * The text of `types.ts` (`types.d.ts`); with `fields`, also the key interfaces of the record
 * types and the `QueryResult` element's types. Written by one `CodeBlockWriter`, as the index.
 */
export function typesFileText(banner: string, options: { fields?: boolean; kind?: ModuleKind } = {}): string {
  const writer = writeNoCheck(newWriterAfterBanner(banner), options.kind ?? 'dts');
  if (options.fields === true) {
    // The QueryResult status is the records runtime's type: one type, re-exported here.
    writer.writeLine(`import type { QueryResultMessage } from ${stringLiteral(moduleSpecifier(RECORDS_RUNTIME, 'root', options.kind ?? 'dts'))};`).blankLine();
    writer.writeLine('export type { QueryResultMessage };').blankLine();
  }
  writeTypeAlias(writer, {
    name: 'KnownMessageAction',
    docs: ["The actions of the service's flag enum (Select = 1, Insert = 2, Update = 4, Replace = 8, Delete = 16)."],
    type: "'select' | 'insert' | 'update' | 'replace' | 'delete'",
  });
  writer.blankLineIfLastNot();
  // Only name, mNum and schemaHash are always sent; deployments differ in the rest.
  writeInterface(writer, {
    name: 'MessageDescriptor',
    docs: [
      'The descriptor of one message type, as the schema listing service describes it. Only `name`,',
      '`mNum` and `schemaHash` are always there: deployments differ, and a field the service does',
      'not send is absent from the constant.',
    ],
    properties: DESCRIPTOR_FIELDS.map((row) => ({ name: row.name, type: EMITTED_TYPES[row.emit], docs: row.doc.split('\n'), readonly: true, optional: !row.required })),
  });
  if (options.fields === true) {
    writeKeyInterfaces(writer);
    writeQueryResultTypes(writer);
  }
  return fileText('', writer);
}
