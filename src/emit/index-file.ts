/**
 * `index.ts` (re-exports, registries, derived types) and `types.ts` (the shared
 * `MessageDescriptor` interface, imported type-only by every message file, so there is no import
 * cycle between the index and the message modules).
 */
import type { SourceFileStructure, StatementStructures, TypeAliasDeclarationStructure, VariableStatementStructure, WriterFunction } from 'ts-morph';

import type { Descriptor } from '../model/descriptor.js';
import { stringLiteral } from './literals.js';
import type { PlannedName } from './naming.js';
import type { TsMorph } from './print-files.js';
import { arrayLiteral, blankLine, withBanner } from './writers.js';

/**
 * The registry key of a name: a string literal, computed (`['__proto__']`) for `__proto__`,
 * because a plain `'__proto__': x` in an object literal sets the prototype instead of defining a
 * property.
 */
export function registryKey(name: string): string {
  const literal = stringLiteral(name);
  return name === '__proto__' ? `[${literal}]` : literal;
}

/** Inputs of {@link indexFile}. */
export interface IndexInput {
  /** All descriptors, sorted by name. */
  descriptors: readonly Descriptor[];
  plan: ReadonlyMap<string, PlannedName>;
  banner: string;
}

/** An exported `const` with a doc comment and a blank line before it. */
function exportedConst({ StructureKind, VariableDeclarationKind }: TsMorph, name: string, doc: string, initializer: WriterFunction): VariableStatementStructure {
  return { kind: StructureKind.VariableStatement, leadingTrivia: blankLine, docs: [doc], isExported: true, declarationKind: VariableDeclarationKind.Const, declarations: [{ name, initializer }] };
}

/** An exported type alias with a doc comment and a blank line before it. */
function exportedType({ StructureKind }: TsMorph, name: string, doc: string, type: string, typeParameters: string[] = []): TypeAliasDeclarationStructure {
  return { kind: StructureKind.TypeAlias, leadingTrivia: blankLine, docs: [doc], isExported: true, name, type, typeParameters };
}

/** The structure of `index.ts`. */
export function indexFile(tsMorph: TsMorph, { descriptors, plan, banner }: IndexInput): SourceFileStructure {
  const { StructureKind, Writers } = tsMorph;
  const entries = descriptors.map((descriptor) => {
    const { identifier, fileStem } = plan.get(descriptor.name)!;
    return { descriptor, identifier, specifier: `./messages/${fileStem}.js` };
  });
  const byNumber = [...entries].sort((a, b) => a.descriptor.mNum - b.descriptor.mNum);
  // Object.fromEntries defines keys as own properties, `['__proto__']` included. Number keys
  // come out in ascending order whatever the insertion order, which is the order wanted.
  const registry = Object.fromEntries(entries.map((e) => [registryKey(e.descriptor.name), e.identifier]));
  const numberRegistry = Object.fromEntries(byNumber.map((e) => [String(e.descriptor.mNum), e.identifier]));

  const statements: StatementStructures[] = [
    ...entries.map((e): StatementStructures => ({ kind: StructureKind.ImportDeclaration, namedImports: [e.identifier], moduleSpecifier: e.specifier })),
    {
      kind: StructureKind.ExportDeclaration,
      leadingTrivia: entries.length > 0 ? blankLine : undefined,
      isTypeOnly: true,
      namedExports: ['KnownMessageAction', 'MessageDescriptor'],
      moduleSpecifier: './types.js',
    },
    ...entries.map((e): StatementStructures => ({ kind: StructureKind.ExportDeclaration, moduleSpecifier: e.specifier })),
    exportedConst(tsMorph, 'messages', 'Every message type, keyed by its name as the service sends it.', Writers.assertion(Writers.object(registry), 'const')),
    exportedConst(tsMorph, 'messagesByNumber', 'Every message type, keyed by its message number (`mNum`).', Writers.assertion(Writers.object(numberRegistry), 'const')),
    exportedConst(tsMorph, 'messageNames', 'The names of all message types, sorted.', Writers.assertion(arrayLiteral(entries.map((e) => stringLiteral(e.descriptor.name))), 'const')),
    exportedType(tsMorph, 'MessageName', 'The name of a message type.', 'keyof typeof messages'),
    exportedType(tsMorph, 'MessageNumber', 'The message number (`mNum`) of a message type.', 'keyof typeof messagesByNumber'),
    exportedType(tsMorph, 'MessageToken', 'A token group (`mToken`) some message type belongs to.', "(typeof messages)[MessageName]['mToken']"),
    exportedType(tsMorph, 'MessageAction', 'An action some message type supports.', "(typeof messages)[MessageName]['actions'][number]"),
    exportedType(tsMorph, 'MessageByName', 'The descriptor of the message type named `N`.', '(typeof messages)[N]', ['N extends MessageName']),
    exportedType(tsMorph, 'MessageByNumber', 'The descriptor of the message type numbered `N`.', '(typeof messagesByNumber)[N]', ['N extends MessageNumber']),
  ];
  return { kind: StructureKind.SourceFile, statements: withBanner(banner, statements) };
}

/** The structure of `types.ts`. */
export function typesFile({ StructureKind }: TsMorph, banner: string): SourceFileStructure {
  const property = (name: string, type: string, doc: string) => ({ name, type, isReadonly: true, docs: [doc] });
  return {
    kind: StructureKind.SourceFile,
    statements: withBanner(banner, [
      {
        kind: StructureKind.TypeAlias,
        isExported: true,
        name: 'KnownMessageAction',
        type: "'select' | 'insert' | 'update' | 'replace' | 'delete'",
        docs: ['The actions the service encodes as the letters `SIURD`.'],
      },
      {
        kind: StructureKind.Interface,
        leadingTrivia: blankLine,
        isExported: true,
        name: 'MessageDescriptor',
        docs: ['The descriptor of one message type, as the schema listing service describes it.'],
        properties: [
          property('name', 'string', 'The name, exactly as the service sends it.'),
          property('mNum', 'number', 'The message number.'),
          property('schemaHash', 'string', "Hash of the message's schema; changes whenever the schema changes."),
          property(
            'actions',
            'readonly string[]',
            'Supported actions in the order the service lists them: a {@link KnownMessageAction},\nor an unknown action letter kept as itself.',
          ),
          property('hasTKey', 'boolean', 'Whether the message has a T key.'),
          property('hasEKey', 'boolean', 'Whether the message has an E key.'),
          property('hasOKey', 'boolean', 'Whether the message has an O key.'),
          property('hasCF', 'boolean', 'Whether the message has CF.'),
          property('mToken', 'string', 'The token group the message belongs to.'),
          property('staticFilterFields', 'readonly string[]', 'The static filter fields.'),
        ],
      },
    ]),
  };
}
