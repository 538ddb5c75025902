/**
 * `index.ts` (re-exports, registries, derived types) and `types.ts` (the shared
 * `MessageDescriptor` interface, imported type-only by every message file, so there is no import
 * cycle between the index and the message modules). The `js+dts` target writes the index as
 * `index.js` (the re-exports and registries) and `index.d.ts` (their declarations and the
 * types), and `types.ts` as `types.d.ts`, its text unchanged (it declares types only).
 */
import type { SourceFileStructure } from 'ts-morph';

import type { Descriptor } from '../model/descriptor.js';
import { DESCRIPTOR_FIELDS, EMITTED_TYPES } from '../model/descriptor-fields.js';
import { ImportTracker, writeDeclarations } from './import-tracker.js';
import { stringLiteral } from '../text/safe-text.js';
import type { PlannedName } from './naming.js';
import { elementGuard, keyInterfaces, queryResultTypes } from './record-declarations.js';
import { KEY_TYPES } from './record-field-types.js';
import { hasPrimaryKey, recordNames } from './record-types.js';
import { isTypeScript, moduleSpecifier, type ModuleKind } from './targets.js';
import {
  blankLine,
  type PropertyText,
  type Statement,
  writeDocs,
  writeExportedArray,
  writeExportedObject,
  loadTsMorph,
  printFile,
  type TsMorph,
  writeLines,
} from './writers.js';

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

/** The text of `index.ts`, `index.js` or `index.d.ts`. */
export function indexFileText(input: IndexInput): string {
  const tsMorph = loadTsMorph();
  return printFile(tsMorph, indexFileStructure(tsMorph, input));
}

/** The text of `types.ts` (`types.d.ts`); with `fields`, also the key interfaces of the record types and the `QueryResult` element's types. */
export function typesFileText(banner: string, options: { fields?: boolean } = {}): string {
  const tsMorph = loadTsMorph();
  return printFile(tsMorph, typesFileStructure(tsMorph, banner, options.fields === true));
}

function indexFileStructure(tsMorph: TsMorph, input: IndexInput): SourceFileStructure {
  const { StructureKind } = tsMorph;
  const { descriptors, plan, banner, kind, fields = false } = input;
  // Plain JavaScript (`index.js`) has no types: it re-exports and imports values only.
  const types = kind !== 'js';
  const imports = new ImportTracker();
  if (types) {
    for (const name of ['KnownMessageAction', 'MessageDescriptor', ...(fields ? [...KEY_TYPES, 'QueryResultMessage', 'QueryResultElement'] : [])]) imports.reexport(name, moduleSpecifier('types', 'root', kind), { type: true });
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
  const byNumber = [...entries].sort((a, b) => a.descriptor.mNum - b.descriptor.mNum);

  // A declaration names each constant's type; the `as const` of a value gives the same.
  const form = kind === 'dts' ? 'type' : 'value';
  const valueOf = (identifier: string) => (form === 'type' ? `typeof ${identifier}` : identifier);
  const asConst = isTypeScript(kind) ? ' as const' : '';
  const registry: PropertyText[] = entries.map((e) => [registryKey(e.descriptor.name), valueOf(e.identifier)]);
  const numberRegistry: PropertyText[] = byNumber.map((e) => [String(e.descriptor.mNum), valueOf(e.identifier)]);
  const names = entries.map((e) => stringLiteral(e.descriptor.name));

  const typeAlias = (name: string, docs: string, type: string, typeParameters?: string[]): Statement => ({
    kind: StructureKind.TypeAlias,
    isExported: true,
    name,
    type,
    docs: [docs],
    ...(typeParameters === undefined ? {} : { typeParameters }),
  });

  const statements: Statement[] = [];
  if (banner !== '') statements.push(blankLine);
  // The declarations derived from the tracked uses, written by a writer function rather than
  // as one ImportDeclaration structure each, which ts-morph prints slowly by the thousand
  // (bench/README.md, "Tried and left out").
  statements.push(
    (writer) => writeDeclarations(writer, 'import', imports.imports(), { types }),
    blankLine,
    (writer) => writeDeclarations(writer, 'export', imports.reexports(), { types }),
  );
  statements.push(blankLine, (writer) => {
    writeDocs(writer, ['Every message type, keyed by its name as the service sends it.']);
    writeExportedObject(writer, 'messages', registry, asConst, form);
    writer.blankLine();
    writeDocs(writer, ['Every message type, keyed by its message number (`mNum`).']);
    writeExportedObject(writer, 'messagesByNumber', numberRegistry, asConst, form);
    writer.blankLine();
    writeDocs(writer, ['The names of all message types, sorted.']);
    writeExportedArray(writer, 'messageNames', names, asConst, form);
  });
  if (fields) statements.push(blankLine, elementGuard(tsMorph, kind));
  if (kind === 'js') return { kind: StructureKind.SourceFile, leadingTrivia: banner, statements };
  statements.push(
    blankLine,
    typeAlias('MessageName', 'The name of a message type.', 'keyof typeof messages'),
    blankLine,
    typeAlias('MessageNumber', 'The message number (`mNum`) of a message type.', 'keyof typeof messagesByNumber'),
    blankLine,
    // Extract: only the types that have the field (a deployment may send it for none).
    typeAlias(
      'MessageToken',
      'A token group (`mToken`) some message type belongs to; `never` when the service sends no tokens.',
      "Extract<(typeof messages)[MessageName], { readonly mToken: string }>['mToken']",
    ),
    blankLine,
    typeAlias(
      'MessageAction',
      'An action some message type supports; `never` when the service sends no actions.',
      "Extract<(typeof messages)[MessageName], { readonly actions: readonly string[] }>['actions'][number]",
    ),
    blankLine,
    typeAlias('MessageByName', 'The descriptor of the message type named `N`.', '(typeof messages)[N]', ['N extends MessageName']),
    blankLine,
    typeAlias('MessageByNumber', 'The descriptor of the message type numbered `N`.', '(typeof messagesByNumber)[N]', ['N extends MessageNumber']),
  );
  if (fields) {
    const records = entries.map((e) => `${registryKey(e.descriptor.name)}: ${e.record};`);
    statements.push(
      blankLine,
      (writer) => {
        writeDocs(writer, ['The record type of every message type, keyed by its name as the service sends it.']);
        writer.write('export interface MessageRecords ');
        if (records.length === 0) writer.write('{}');
        else writer.inlineBlock(() => writeLines(writer, records));
      },
      blankLine,
      typeAlias('RecordByName', 'The record type of the message type named `N`.', 'MessageRecords[N]', ['N extends MessageName']),
      blankLine,
      typeAlias(
        'RecordElement',
        'One element of an answer holding a record of the message type named `N`: its type in\n`header.mTyp`, the record in `message`. Of several names, the union of their elements, which\n`header.mTyp` narrows.',
        '{ [K in N]: { header: { mTyp: K }; message: MessageRecords[K] } }[N]',
        ['N extends MessageName = MessageName'],
      ),
      blankLine,
      typeAlias(
        'RecordsResponse',
        'The whole answer of a records query: records of the message types `N` (any listed type by\ndefault), then the `QueryResult` that ends it.',
        `readonly [...RecordElement<N>[], ${imports.use('QueryResultElement', moduleSpecifier('types', 'root', kind), { type: true })}]`,
        ['N extends MessageName = MessageName'],
      ),
    );
  }
  return { kind: StructureKind.SourceFile, leadingTrivia: banner, statements };
}

function typesFileStructure(tsMorph: TsMorph, banner: string, fields: boolean): SourceFileStructure {
  const { StructureKind } = tsMorph;
  // Only name, mNum and schemaHash are always sent; deployments differ in the rest.
  const property = (name: string, type: string, doc: string, optional = true) => ({
    name,
    type,
    isReadonly: true,
    hasQuestionToken: optional,
    docs: [doc],
  });
  const statements: Statement[] = [];
  if (banner !== '') statements.push(blankLine);
  statements.push(
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'KnownMessageAction',
      type: "'select' | 'insert' | 'update' | 'replace' | 'delete'",
      docs: ["The actions of the service's flag enum (Select = 1, Insert = 2, Update = 4, Replace = 8, Delete = 16)."],
    },
    blankLine,
    {
      kind: StructureKind.Interface,
      isExported: true,
      name: 'MessageDescriptor',
      docs: [
        'The descriptor of one message type, as the schema listing service describes it. Only `name`,\n`mNum` and `schemaHash` are always there: deployments differ, and a field the service does\nnot send is absent from the constant.',
      ],
      properties: [
        ...DESCRIPTOR_FIELDS.map((row) => property(row.name, EMITTED_TYPES[row.emit], row.doc, !row.required)),
      ],
    },
  );
  if (fields) statements.push(...keyInterfaces(tsMorph), ...queryResultTypes(tsMorph));
  return { kind: StructureKind.SourceFile, leadingTrivia: banner, statements };
}
