/**
 * `index.ts` (re-exports, registries, derived types) and `types.ts` (the shared
 * `MessageDescriptor` interface, imported type-only by every message file, so there is no import
 * cycle between the index and the message modules). The `js+dts` target writes the index as
 * `index.js` (the re-exports and registries) and `index.d.ts` (their declarations and the
 * types), and `types.ts` as `types.d.ts`, its text unchanged (it declares types only).
 */
import type { CodeBlockWriter } from 'ts-morph';

import type { Descriptor } from '../model/descriptor.js';
import { DESCRIPTOR_FIELDS, EMITTED_TYPES } from '../model/descriptor-fields.js';
import { ImportTracker, writeDeclarations } from './import-tracker.js';
import { stringLiteral } from '../text/safe-text.js';
import type { PlannedName } from './naming.js';
import { writeElementGuard, writeKeyInterfaces, writeQueryResultTypes } from './record-declarations.js';
import { KEY_TYPES } from './record-field-types.js';
import { hasPrimaryKey, recordNames } from './record-types.js';
import { isTypeScript, moduleSpecifier, type ModuleKind } from './targets.js';
import { writeInterface, writeTypeAlias, type TypeAlias } from './type-declarations.js';
import { fileText, newWriterAfterBanner, type PropertyText, writeDocs, writeExportedArray, writeExportedObject } from './writers.js';

/**
 * The registry key of a name: a string literal, computed (`['__proto__']`) for `__proto__`,
 * because a plain `'__proto__': x` in an object literal sets the prototype instead of defining a
 * property.
 */
export function registryKey(name: string): string {
  const literal = stringLiteral(name);
  return name === '__proto__' ? `[${literal}]` : literal;
}

/** Inputs of {@link indexFileText}. */
export interface IndexInput {
  /** All descriptors, sorted by name. */
  descriptors: readonly Descriptor[];
  plan: ReadonlyMap<string, PlannedName>;
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
  const { descriptors, plan, banner, kind, fields = false } = input;
  // Plain JavaScript (`index.js`) has no types: it re-exports and imports values only.
  const types = kind !== 'js';
  const imports = new ImportTracker();
  const typesModule = moduleSpecifier('types', 'root', kind);
  if (types) {
    for (const name of ['KnownMessageAction', 'MessageDescriptor', ...(fields ? [...KEY_TYPES, 'QueryResultMessage', 'QueryResultElement'] : [])]) imports.reexport(name, typesModule, { type: true });
  }
  const entries = descriptors.map((descriptor) => {
    const planned = plan.get(descriptor.name)!;
    const names = recordNames(planned.identifier);
    const specifier = moduleSpecifier(`messages/${planned.fileStem}`, 'root', kind);
    // Each module's constant is re-exported with its record types (fields on) beside it.
    imports.reexport(planned.identifier, specifier);
    if (fields && types) for (const name of hasPrimaryKey(descriptor) ? [names.record, names.pkey] : [names.record]) imports.reexport(name, specifier, { type: true });
    const record = fields && types ? imports.use(names.record, specifier, { type: true }) : names.record;
    return { descriptor, identifier: imports.use(planned.identifier, specifier), record };
  });
  // Used by `RecordsResponse`, recorded before the imports are written (after the message
  // modules, which keeps the order of the import lines).
  const queryResultElement = fields && types ? imports.use('QueryResultElement', typesModule, { type: true }) : undefined;
  const byNumber = [...entries].sort((a, b) => a.descriptor.mNum - b.descriptor.mNum);

  // A declaration names each constant's type; the `as const` of a value gives the same.
  const form = kind === 'dts' ? 'type' : 'value';
  const valueOf = (identifier: string) => (form === 'type' ? `typeof ${identifier}` : identifier);
  const asConst = isTypeScript(kind) ? ' as const' : '';
  const registry: PropertyText[] = entries.map((e) => [registryKey(e.descriptor.name), valueOf(e.identifier)]);
  const numberRegistry: PropertyText[] = byNumber.map((e) => [String(e.descriptor.mNum), valueOf(e.identifier)]);
  const names = entries.map((e) => stringLiteral(e.descriptor.name));

  const writer = newWriterAfterBanner(banner);
  // A blank line before each part, never two: an empty part (no imports) leaves one.
  writeDeclarations(writer, 'import', imports.imports(), { types });
  writer.blankLineIfLastNot();
  writeDeclarations(writer, 'export', imports.reexports(), { types });
  writer.blankLineIfLastNot();
  writeDocs(writer, ['Every message type, keyed by its name as the service sends it.']);
  writeExportedObject(writer, 'messages', registry, asConst, form);
  writer.blankLine();
  writeDocs(writer, ['Every message type, keyed by its message number (`mNum`).']);
  writeExportedObject(writer, 'messagesByNumber', numberRegistry, asConst, form);
  writer.blankLine();
  writeDocs(writer, ['The names of all message types, sorted.']);
  writeExportedArray(writer, 'messageNames', names, asConst, form);
  if (fields) {
    writer.blankLineIfLastNot();
    writeElementGuard(writer, kind);
  }
  if (types) writeIndexTypes(writer, fields ? entries : undefined, queryResultElement);
  return fileText('', writer);
}

/**
 * Writes the types the index derives from its registries (`MessageName` …) and, with fields on
 * (`records` given), `MessageRecords` and the types built on it.
 */
function writeIndexTypes(writer: CodeBlockWriter, records: readonly { descriptor: Descriptor; record: string }[] | undefined, queryResultElement: string | undefined): void {
  const aliases: TypeAlias[] = [
    { name: 'MessageName', docs: ['The name of a message type.'], type: 'keyof typeof messages' },
    { name: 'MessageNumber', docs: ['The message number (`mNum`) of a message type.'], type: 'keyof typeof messagesByNumber' },
    // Extract: only the types that have the field (a deployment may send it for none).
    {
      name: 'MessageToken',
      docs: ['A token group (`mToken`) some message type belongs to; `never` when the service sends no tokens.'],
      type: "Extract<(typeof messages)[MessageName], { readonly mToken: string }>['mToken']",
    },
    {
      name: 'MessageAction',
      docs: ['An action some message type supports; `never` when the service sends no actions.'],
      type: "Extract<(typeof messages)[MessageName], { readonly actions: readonly string[] }>['actions'][number]",
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
  writeInterface(writer, {
    name: 'MessageRecords',
    docs: ['The record type of every message type, keyed by its name as the service sends it.'],
    properties: records.map((e) => ({ name: registryKey(e.descriptor.name), type: e.record })),
  });
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
      type: '{ [K in N]: { header: { mTyp: K }; message: MessageRecords[K] } }[N]',
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
}

/**
 * The text of `types.ts` (`types.d.ts`); with `fields`, also the key interfaces of the record
 * types and the `QueryResult` element's types. Written by one `CodeBlockWriter`, as the index.
 */
export function typesFileText(banner: string, options: { fields?: boolean } = {}): string {
  const writer = newWriterAfterBanner(banner);
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
