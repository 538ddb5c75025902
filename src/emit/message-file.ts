/**
 * `messages/<Stem>.ts`: one message type's constant and type.
 *
 * ```ts
 * import type { MessageDescriptor } from '../types.js';
 *
 * /** <desc> *\/
 * export const AccountRiskRecordV5 = {
 *     name: 'AccountRiskRecordV5',
 *     mNum: 1000,
 *     …
 *   } as const satisfies MessageDescriptor;
 *
 * export type AccountRiskRecordV5 = typeof AccountRiskRecordV5;
 * ```
 *
 * The object is indented as ts-morph prints every multi-line initializer: one level deeper than
 * the statement, until the statement ends.
 */
import type { SourceFileStructure, WriterFunction } from 'ts-morph';

import { type Descriptor, descriptionOf } from '../model/descriptor.js';
import { docLines, stringLiteral } from './literals.js';
import type { PlannedName } from './naming.js';
import type { TsMorph } from './print-files.js';
import { arrayLiteral, blankLine, satisfiesType, withBanner } from './writers.js';

/** The TSDoc lines of a message constant: its description, and its original name if mapped. */
export function messageDocLines(descriptor: Descriptor, planned: PlannedName): string[] {
  const description = descriptionOf(descriptor);
  const lines = description === undefined ? [] : docLines(description);
  if (planned.identifier !== descriptor.name) {
    if (lines.length > 0) lines.push('');
    // The literal escapes line breaks; docLines then makes it comment-safe.
    lines.push(...docLines(`Message type ${stringLiteral(descriptor.name)} (renamed to a safe identifier).`));
  }
  return lines;
}

/** The properties of a message constant, in the order of `KNOWN_FIELDS`, as expressions. */
export function messageProperties(descriptor: Descriptor): Record<string, string | WriterFunction> {
  return {
    name: stringLiteral(descriptor.name),
    mNum: String(descriptor.mNum),
    schemaHash: stringLiteral(descriptor.schemaHash),
    actions: arrayLiteral(descriptor.actions.map(stringLiteral)),
    hasTKey: String(descriptor.hasTKey),
    hasEKey: String(descriptor.hasEKey),
    hasOKey: String(descriptor.hasOKey),
    hasCF: String(descriptor.hasCF),
    mToken: stringLiteral(descriptor.mToken),
    staticFilterFields: arrayLiteral(descriptor.staticFilterFields.map(stringLiteral)),
  };
}

/** Inputs of {@link messageFile}. */
export interface MessageFileInput {
  descriptor: Descriptor;
  planned: PlannedName;
  /** The rendered banner comment; empty for none. */
  banner: string;
}

/** The structure of one message module. */
export function messageFile({ StructureKind, VariableDeclarationKind, Writers }: TsMorph, { descriptor, planned, banner }: MessageFileInput): SourceFileStructure {
  const { identifier } = planned;
  const docs = messageDocLines(descriptor, planned);
  return {
    kind: StructureKind.SourceFile,
    statements: withBanner(banner, [
      { kind: StructureKind.ImportDeclaration, isTypeOnly: true, namedImports: ['MessageDescriptor'], moduleSpecifier: '../types.js' },
      {
        kind: StructureKind.VariableStatement,
        leadingTrivia: blankLine,
        docs: docs.length === 0 ? [] : [docs.join('\n')],
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        declarations: [
          {
            name: identifier,
            initializer: satisfiesType(Writers.assertion(Writers.object(messageProperties(descriptor)), 'const'), 'MessageDescriptor'),
          },
        ],
      },
      { kind: StructureKind.TypeAlias, leadingTrivia: blankLine, isExported: true, name: identifier, type: `typeof ${identifier}` },
    ]),
  };
}
