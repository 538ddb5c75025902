/**
 * `messages/<Stem>.ts` (target `ts`), or `messages/<Stem>.js` and `messages/<Stem>.d.ts` (target
 * `js+dts`): one message type's constant and type, and with fields on its record types
 * (`record-types.ts`; in the declaration file only, as they are types).
 *
 * ```ts
 * import type { MessageDescriptor } from '../types.js';
 *
 * /** <desc> *\/
 * export const AccountRiskRecordV5 = {
 *   name: 'AccountRiskRecordV5',
 *   mNum: 1000,
 *   …
 * } as const satisfies MessageDescriptor;
 *
 * export type AccountRiskRecordV5 = typeof AccountRiskRecordV5;
 * ```
 *
 * The `.js` file holds the same object literal without its types; the `.d.ts` file declares the
 * type that `as const` gives it (`export declare const X: { readonly mNum: 1000; … }`), so a
 * consumer of either target sees the same literal types.
 */
import type { SourceFileStructure } from 'ts-morph';

import { type Descriptor, descriptionOf } from '../model/descriptor.js';
import { docLines, stringLiteral } from './literals.js';
import type { PlannedName } from './naming.js';
import { recordLines } from './record-types.js';
import { docCommentLines, exportedObjectLines, fileText, PRINT_OPTIONS, type PropertyText, writeLines } from './writers.js';

/** The ts-morph module, loaded lazily by the caller. */
export type TsMorph = typeof import('ts-morph');

/** The TSDoc lines of a message constant: its description, and its original name if mapped. */
function messageDocLines(descriptor: Descriptor, planned: PlannedName): string[] {
  const description = descriptionOf(descriptor);
  const lines = description === undefined ? [] : docLines(description);
  if (planned.identifier !== descriptor.name) {
    if (lines.length > 0) lines.push('');
    // The literal escapes line breaks; docLines then makes it comment-safe.
    lines.push(...docLines(`Message type ${stringLiteral(descriptor.name)} (renamed to a safe identifier).`));
  }
  return lines;
}

/** The properties of a message constant, in the order of `KNOWN_FIELDS`; a field the service did not send is left out. */
function messageProperties(descriptor: Descriptor): PropertyText[] {
  const d = descriptor;
  const properties: PropertyText[] = [
    ['name', stringLiteral(d.name)],
    ['mNum', String(d.mNum)],
    ['schemaHash', stringLiteral(d.schemaHash)],
  ];
  if (d.actions !== undefined) properties.push(['actions', d.actions.map(stringLiteral)]);
  if (d.hasTKey !== undefined) properties.push(['hasTKey', String(d.hasTKey)]);
  if (d.hasEKey !== undefined) properties.push(['hasEKey', String(d.hasEKey)]);
  if (d.hasOKey !== undefined) properties.push(['hasOKey', String(d.hasOKey)]);
  if (d.hasCF !== undefined) properties.push(['hasCF', String(d.hasCF)]);
  if (d.mToken !== undefined) properties.push(['mToken', stringLiteral(d.mToken)]);
  if (d.staticFilterFields !== undefined) properties.push(['staticFilterFields', d.staticFilterFields.map(stringLiteral)]);
  return properties;
}

/**
 * Builds message files. Created once per run: what every file shares (the type import, the blank
 * line) is built once and reused.
 *
 * The constant and its type are one writer statement: ts-morph prints a variable initializer with
 * a hanging indent (see `writers.ts`), and `printStructure` creates its printers anew for every
 * call, so a `TypeAlias` structure per file would cost more than the rest of the file for one
 * line of text (bench/README.md).
 */
export function createMessageFileBuilder(tsMorph: TsMorph, options: { fields?: boolean } = {}) {
  const { StructureKind, printStructure } = tsMorph;
  // The same in every file: printed once per run, then reused as text (printing it per file
  // costs two extra CodeBlockWriters per file).
  const importDescriptorType = printStructure(
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namedImports: ['MessageDescriptor'],
      moduleSpecifier: '../types.js',
    },
    PRINT_OPTIONS,
  ).trimEnd();

  /** The structure of one message file; `banner` is the rendered banner comment. */
  return function messageFileStructure(
    descriptor: Descriptor,
    planned: PlannedName,
    banner: string,
  ): SourceFileStructure {
    const { identifier } = planned;
    const docs = messageDocLines(descriptor, planned);
    const properties = messageProperties(descriptor);
    const records = options.fields ? recordLines(descriptor, planned) : undefined;
    // Identifiers of types.ts only: safe names, no escaping needed.
    const imports = records === undefined || records.keyTypes.length === 0 ? importDescriptorType : `import type { ${['MessageDescriptor', ...records.keyTypes].sort().join(', ')} } from '../types.js';`;
    return {
      kind: StructureKind.SourceFile,
      leadingTrivia: banner,
      // One statement: each statement costs ts-morph's printers a round of separator checks.
      statements: [
        (writer) => {
          if (banner !== '') writer.blankLineIfLastNot();
          writeLines(writer, [
            imports,
            '',
            ...docCommentLines(docs),
            ...exportedObjectLines(identifier, properties, ' as const satisfies MessageDescriptor'),
            '',
            `export type ${identifier} = typeof ${identifier};`,
            ...(records?.lines ?? []),
          ]);
        },
      ],
    };
  };
}

/**
 * The text of a message file of the `js+dts` target: `js`, the ES module holding the constant;
 * `dts`, its declaration with the literal types of the `ts` target's `as const`. Written as text:
 * the lines are the writers' (the same as in the `.ts` file), and ts-morph would only add its cost.
 */
export function messageFileText(descriptor: Descriptor, planned: PlannedName, banner: string, kind: 'js' | 'dts', options: { fields?: boolean } = {}): string {
  const { identifier } = planned;
  const docs = docCommentLines(messageDocLines(descriptor, planned));
  const properties = messageProperties(descriptor);
  if (kind === 'js') return fileText(banner, [...docs, ...exportedObjectLines(identifier, properties, '')]);
  const records = options.fields ? recordLines(descriptor, planned) : undefined;
  // Identifiers of types.d.ts only: safe names, no escaping needed.
  const imports = records === undefined || records.keyTypes.length === 0 ? [] : [`import type { ${[...records.keyTypes].sort().join(', ')} } from '../types.js';`, ''];
  return fileText(banner, [
    ...imports,
    ...docs,
    ...exportedObjectLines(identifier, properties, '', 'type'),
    '',
    `export type ${identifier} = typeof ${identifier};`,
    ...(records?.lines ?? []),
  ]);
}
