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
import { type Descriptor, descriptionOf, KNOWN_FIELDS, type KnownField } from '../model/descriptor.js';
import type { EmittedValue } from '../model/descriptor-fields.js';
import type { Int64Type } from '../model/lockfile.js';
import { ImportTracker, writeDeclarations } from './import-tracker.js';
import { docLines, stringLiteral } from '../text/safe-text.js';
import type { PlannedName } from './naming.js';
import { RECORDS_RUNTIME, recordCheckLines } from './record-checks.js';
import { recordTypes, writeRecordTypes } from './record-types.js';
import { queryFieldsInterfaces } from './record-query-fields.js';
import { isTypeScript, moduleSpecifier, type ModuleKind } from './targets.js';
import { fileText, newWriter, type PropertyText, writeDocs, writeExportedObject, writeLines, writeNoCheck } from './writers.js';

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

/** One property of a message constant: a known field's name and its value. */
export interface MessageProperty {
  name: KnownField;
  value: EmittedValue;
}

/** The properties of a message constant, in the field table's order; a field the service did not send is left out. */
export function messageProperties(descriptor: Descriptor): MessageProperty[] {
  const properties: MessageProperty[] = [];
  for (const name of KNOWN_FIELDS) {
    const value = descriptor[name];
    if (value !== undefined) properties.push({ name, value });
  }
  return properties;
}

/** A property as the writer writes it: strings as literals, each element of a list one. */
function propertyText({ name, value }: MessageProperty): PropertyText {
  if (typeof value === 'string') return [name, stringLiteral(value)];
  if (typeof value === 'object') return [name, value.map(stringLiteral)];
  return [name, String(value)];
}

/**
 * The text of a message file of kind `ts` (the constant `as const satisfies MessageDescriptor`
 * and its type), `js` (the ES module holding the constant) or `dts` (its declaration with the
 * literal types that `as const` gives the `ts` file), written by one ts-morph `CodeBlockWriter`
 * from one model: the constant's TSDoc and properties, and with `fields` the record types (their
 * `Long` and `ULong` fields typed as `int64` says, `number` by default). The
 * imports are those the written kind uses (an {@link ImportTracker}).
 *
 * A writer, not structures: ts-morph's printers make a new writer for each structure and list
 * item, which over every message module would cost more than the rest of a cold pull
 * (bench/README.md, "Tried and left out").
 */
export function messageFileText(descriptor: Descriptor, planned: PlannedName, banner: string, kind: ModuleKind, options: { fields?: boolean; int64?: Int64Type } = {}): string {
  const { identifier } = planned;
  const imports = new ImportTracker();
  const records = options.fields && kind !== 'js' ? [...recordTypes(descriptor, planned, imports, { int64: options.int64, kind }), ...queryFieldsInterfaces(descriptor, planned, imports, kind)] : [];
  const checks = options.fields === true ? recordCheckLines(descriptor, planned, imports, { int64: options.int64 ?? 'number', kind, runtime: moduleSpecifier(RECORDS_RUNTIME, 'messages', kind) }) : [];
  const suffix = isTypeScript(kind) ? ` as const satisfies ${imports.use('MessageDescriptor', moduleSpecifier('types', 'messages', kind), { type: true })}` : '';
  const writer = writeNoCheck(newWriter(), kind);
  writeDeclarations(writer, 'import', imports.imports(), { types: kind !== 'js' });
  if (writer.getLength() > 0) writer.blankLine();
  writeDocs(writer, messageDocLines(descriptor, planned));
  // TypeScript names the constant's type too, as `isolatedDeclarations` needs (writeExportedObject).
  writeExportedObject(writer, identifier, messageProperties(descriptor).map(propertyText), suffix, kind === 'dts' ? 'type' : 'value', isTypeScript(kind));
  if (kind !== 'js') writer.blankLine().writeLine(`export type ${identifier} = typeof ${identifier};`);
  writeRecordTypes(writer, records);
  if (checks.length > 0) writeLines(writer.blankLine(), checks);
  return fileText(banner, writer);
}
