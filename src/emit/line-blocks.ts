/**
 * The index's blocks of one line an item (a registry, the names list, `MessageRecords`), written
 * through the file's one `CodeBlockWriter`, each run of lines in one call (`writeLines`).
 */
import type { CodeBlockWriter } from 'ts-morph';

import { writeInterfaceBlock, type InterfaceDeclaration } from './type-declarations.js';
import { arrayOpen, type ConstForm, constHead, inlineArray, MAX_LINE_LENGTH, writeConstHead, writeLines } from './writers.js';

/** The lines of `items`, one an item. */
function linesOf<T>(items: ArrayLike<T>, lineOf: (item: T) => string): string[] {
  return Array.from(items, lineOf);
}

/**
 * Writes `export const <name> = { … }<suffix>;` (or, as a `type`, its declaration) as a block
 * holding one line an item, `property` of the form (e.g. `propertyLine` of `writers.ts`): `{}` for
 * none. `annotated` (a `value` in TypeScript) writes the type block first, `export const <name>: {
 * … } = { … }<suffix>;`, as `isolatedDeclarations` needs (writeExportedObject).
 */
export function writeExportedRegistry<T>(writer: CodeBlockWriter, name: string, items: ArrayLike<T>, property: (item: T, form: ConstForm) => string, suffix: string, form: ConstForm, annotated = false): void {
  const block = (of: ConstForm) => {
    if (items.length === 0) writer.write('{}');
    else writer.inlineBlock(() => writeLines(writer, linesOf(items, (item) => property(item, of))));
  };
  writeConstHead(writer, name, form, annotated ? () => block('type') : undefined);
  block(form);
  writer.write(`${suffix};`).newLine();
}

/**
 * Writes `export const <name> = [ … ]<suffix>;` (or, as a `type`, its declaration as a readonly
 * tuple) of one element an item: inline when it fits `MAX_LINE_LENGTH`, one element per line
 * otherwise.
 */
export function writeExportedList<T>(writer: CodeBlockWriter, name: string, items: ArrayLike<T>, element: (item: T) => string, suffix: string, form: ConstForm): void {
  const head = constHead(name, form);
  writer.write(head);
  const used = head.length + suffix.length + 1;
  // Only the first elements can fit on a line: those are all a long list's inline test needs.
  const first: string[] = [];
  let length = used;
  for (let i = 0; i < items.length && length <= MAX_LINE_LENGTH; i++) {
    const text = element(items[i]!);
    first.push(text);
    length += text.length + 2;
  }
  const inline = first.length === items.length ? inlineArray(first, form, used) : undefined;
  if (inline !== undefined) writer.write(inline);
  else writer.write(arrayOpen(form)).indent(() => writeLines(writer, linesOf(items, (item) => `${element(item)},`))).write(']');
  writer.write(`${suffix};`).newLine();
}

/**
 * Writes an exported interface after its TSDoc with one member an item, each one line `member`
 * gives (e.g. `memberLine` of `type-declarations.ts`): `{}` for none.
 */
export function writeInterfaceOf<T>(writer: CodeBlockWriter, declaration: Omit<InterfaceDeclaration, 'properties'>, items: ArrayLike<T>, member: (item: T) => string): void {
  writeInterfaceBlock(writer, declaration, items.length === 0 ? undefined : () => writeLines(writer, linesOf(items, member)));
}
