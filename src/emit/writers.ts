/**
 * Small writer functions shared by the generated files. ts-morph is only referenced as types
 * here; the module itself is loaded lazily by the caller (see `emit-files.ts`).
 *
 * Multi-line object literals are written by writer functions as whole statements rather than as
 * variable initializers, because ts-morph prints initializers with a hanging indent
 * (`{` … 4 spaces … `  }`), which would not match the 2-space style of the rest of the file.
 */
import type { CodeBlockWriter, PrintStructureOptions, StatementStructures, WriterFunction } from 'ts-morph';

/** How every generated file is printed: 2-space indent, LF, single quotes. */
export const PRINT_OPTIONS: PrintStructureOptions = {
  indentNumberOfSpaces: 2,
  newLine: '\n',
  useSingleQuote: true,
};

/** A statement of a source file structure: a structure, raw text or a writer function. */
export type Statement = StatementStructures | WriterFunction | string;

/** Lines longer than this put each array element on a line of its own. */
export const MAX_LINE_LENGTH = 100;

/** Writes a blank line unless there is one already. */
export const blankLine: WriterFunction = (writer) => {
  writer.blankLineIfLastNot();
};

/** Writes a TSDoc comment from already sanitised lines; nothing when there are none. */
export function writeDocs(writer: CodeBlockWriter, lines: readonly string[]): void {
  if (lines.length === 0) return;
  if (lines.length === 1) {
    writer.writeLine(`/** ${lines[0]} */`);
    return;
  }
  writer.writeLine('/**');
  for (const line of lines) writer.writeLine(line === '' ? ' *' : ` * ${line}`);
  writer.writeLine(' */');
}

/** One property of an object literal: a key (already a valid property name) and a value. */
export type PropertyText = readonly [key: string, value: string | readonly string[]];

/**
 * Writes `export const <name> = { … }<suffix>;` with one property per line; an array value is
 * written inline when its line fits {@link MAX_LINE_LENGTH}, one element per line otherwise.
 */
export function writeExportedObject(
  writer: CodeBlockWriter,
  name: string,
  properties: readonly PropertyText[],
  suffix: string,
): void {
  writer.write(`export const ${name} = `);
  if (properties.length === 0) {
    writer.write(`{}${suffix};`).newLine();
    return;
  }
  writer.write('{').newLine();
  writer.indent(() => {
    for (const [key, value] of properties) {
      if (typeof value === 'string') {
        writer.writeLine(`${key}: ${value},`);
        continue;
      }
      const inline = `${key}: [${value.join(', ')}],`;
      if (inline.length + 2 <= MAX_LINE_LENGTH) {
        writer.writeLine(inline);
        continue;
      }
      writer.writeLine(`${key}: [`);
      writer.indent(() => {
        for (const element of value) writer.writeLine(`${element},`);
      });
      writer.writeLine('],');
    }
  });
  writer.write(`}${suffix};`).newLine();
}

/**
 * Writes `export const <name> = [ … ]<suffix>;`: inline when it fits {@link MAX_LINE_LENGTH},
 * one element per line otherwise.
 */
export function writeExportedArray(
  writer: CodeBlockWriter,
  name: string,
  elements: readonly string[],
  suffix: string,
): void {
  const inline = `export const ${name} = [${elements.join(', ')}]${suffix};`;
  if (inline.length <= MAX_LINE_LENGTH) {
    writer.writeLine(inline);
    return;
  }
  writer.writeLine(`export const ${name} = [`);
  writer.indent(() => {
    for (const element of elements) writer.writeLine(`${element},`);
  });
  writer.write(`]${suffix};`).newLine();
}
