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
import { docLines, stringLiteral } from './literals.js';
import type { PlannedName } from './naming.js';
import { recordLines } from './record-types.js';
import type { ModuleKind } from './targets.js';
import { docCommentLines, exportedObjectLines, fileText, type PropertyText } from './writers.js';

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

/** A property as the lines are written: strings as literals, each element of a list one. */
function propertyText({ name, value }: MessageProperty): PropertyText {
  if (typeof value === 'string') return [name, stringLiteral(value)];
  if (typeof value === 'object') return [name, value.map(stringLiteral)];
  return [name, String(value)];
}

/**
 * The text of a message file of kind `ts` (the constant `as const satisfies MessageDescriptor`
 * and its type), `js` (the ES module holding the constant) or `dts` (its declaration with the
 * literal types that `as const` gives the `ts` file), from the same lines.
 *
 * Written as text, not printed through ts-morph: ts-morph's printers make a new writer for each
 * structure and list item, which over every message module would cost more than the rest of a
 * cold pull (bench/README.md, "Tried and left out"), and a writer function that only writes
 * these lines would use ts-morph in name only. The registries (`index-file.ts`) are printed from
 * structures.
 */
export function messageFileText(descriptor: Descriptor, planned: PlannedName, banner: string, kind: ModuleKind, options: { fields?: boolean } = {}): string {
  const { identifier } = planned;
  const docs = docCommentLines(messageDocLines(descriptor, planned));
  const properties = messageProperties(descriptor).map(propertyText);
  if (kind === 'js') return fileText(banner, [...docs, ...exportedObjectLines(identifier, properties, '')]);
  const records = options.fields ? recordLines(descriptor, planned) : undefined;
  // Identifiers of types.ts only: safe names, no escaping needed.
  const typeImports = [...(kind === 'ts' ? ['MessageDescriptor'] : []), ...(records?.keyTypes ?? [])].sort();
  const imports = typeImports.length === 0 ? [] : [`import type { ${typeImports.join(', ')} } from '../types.js';`, ''];
  const constant = kind === 'ts' ? exportedObjectLines(identifier, properties, ' as const satisfies MessageDescriptor') : exportedObjectLines(identifier, properties, '', 'type');
  return fileText(banner, [...imports, ...docs, ...constant, '', `export type ${identifier} = typeof ${identifier};`, ...(records?.lines ?? [])]);
}
