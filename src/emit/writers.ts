/**
 * Small writer functions shared by the generated files, and how ts-morph is loaded and prints.
 *
 * Multi-line object literals are written by writer functions as whole statements rather than as
 * variable initializers, because ts-morph prints initializers with a hanging indent
 * (`{` … 4 spaces … `  }`), which would not match the 2-space style of the rest of the file.
 */
import { createRequire } from 'node:module';
import type { CodeBlockWriter, PrintStructureOptions, SourceFileStructure, StatementStructures, WriterFunction } from 'ts-morph';

/** The ts-morph module. */
export type TsMorph = typeof import('ts-morph');

/**
 * ts-morph (the whole TypeScript compiler), loaded when a file printed through it is rendered:
 * message modules and package files are text, so a pull that changes only those never loads
 * it. Through `require`, not `import()`: it is CommonJS, and Node's ESM loader would scan all of
 * it for export names and bypass the CLI's code cache.
 */
export function loadTsMorph(): TsMorph {
  return createRequire(import.meta.url)('ts-morph') as TsMorph;
}

/** Prints a source file structure as every generated file is printed ({@link PRINT_OPTIONS}). */
export function printFile(tsMorph: TsMorph, structure: SourceFileStructure): string {
  return tsMorph.printStructure(structure, PRINT_OPTIONS);
}

/** A new ts-morph `CodeBlockWriter` with the options every generated file is printed with: one per file. */
export function newWriter(): CodeBlockWriter {
  return new (loadTsMorph().CodeBlockWriter)(PRINT_OPTIONS);
}

/** How every generated file is printed: 2-space indent, LF, single quotes. */
const PRINT_OPTIONS: PrintStructureOptions = {
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

/** The lines of a TSDoc comment from already sanitised lines; none when there are none. */
export function docCommentLines(lines: readonly string[]): string[] {
  if (lines.length === 0) return [];
  if (lines.length === 1) return [`/** ${lines[0]} */`];
  return ['/**', ...lines.map((line) => (line === '' ? ' *' : ` * ${line}`)), ' */'];
}

/** Writes a TSDoc comment from already sanitised lines; nothing when there are none. */
export function writeDocs(writer: CodeBlockWriter, lines: readonly string[]): void {
  writeLines(writer, docCommentLines(lines));
}

/** One property of an object literal: a key (already a valid property name) and a value. */
export type PropertyText = readonly [key: string, value: string | readonly string[]];

/** One level of the generated files' indentation (see {@link PRINT_OPTIONS}). */
const INDENT = '  ';

/**
 * How an exported constant is written: `value` as JavaScript or TypeScript (`export const <name> =
 * { key: value, … }`), `type` as its declaration (`export declare const <name>: { readonly key:
 * value; … }`, each array a readonly tuple).
 */
export type ConstForm = 'value' | 'type';

/** The first line of an exported constant, up to its opening bracket. */
function constHead(name: string, form: ConstForm, bracket: '{' | '['): string {
  return form === 'value' ? `export const ${name} = ${bracket}` : `export declare const ${name}: ${bracket === '[' ? 'readonly [' : '{'}`;
}

/**
 * The lines of `export const <name> = { … }<suffix>;` (or, as a `type`, its declaration), one
 * property per line; an array value inline when its line fits {@link MAX_LINE_LENGTH}, one
 * element per line otherwise.
 */
export function exportedObjectLines(name: string, properties: readonly PropertyText[], suffix: string, form: ConstForm = 'value'): string[] {
  const head = constHead(name, form, '{');
  if (properties.length === 0) return [`${head}}${suffix};`];
  const [readonly, tuple, end] = form === 'value' ? ['', '[', ','] : ['readonly ', 'readonly [', ';'];
  const lines = [head];
  for (const [key, value] of properties) {
    if (typeof value === 'string') {
      lines.push(`${INDENT}${readonly}${key}: ${value}${end}`);
      continue;
    }
    const inline = `${readonly}${key}: ${tuple}${value.join(', ')}]${end}`;
    if (inline.length + INDENT.length <= MAX_LINE_LENGTH) {
      lines.push(INDENT + inline);
      continue;
    }
    lines.push(`${INDENT}${readonly}${key}: ${tuple}`, ...value.map((element) => `${INDENT}${INDENT}${element},`), `${INDENT}]${end}`);
  }
  lines.push(`}${suffix};`);
  return lines;
}

/** Writes {@link exportedObjectLines}. */
export function writeExportedObject(writer: CodeBlockWriter, name: string, properties: readonly PropertyText[], suffix: string, form: ConstForm = 'value'): void {
  writeLines(writer, exportedObjectLines(name, properties, suffix, form));
}

/**
 * Writes `export const <name> = [ … ]<suffix>;` (or, as a `type`, its declaration as a readonly
 * tuple): inline when it fits {@link MAX_LINE_LENGTH}, one element per line otherwise.
 */
export function writeExportedArray(writer: CodeBlockWriter, name: string, elements: readonly string[], suffix: string, form: ConstForm = 'value'): void {
  const head = constHead(name, form, '[');
  const inline = `${head}${elements.join(', ')}]${suffix};`;
  if (inline.length <= MAX_LINE_LENGTH) return writeLines(writer, [inline]);
  writeLines(writer, [head, ...elements.map((element) => `${INDENT}${element},`), `]${suffix};`]);
}

/** The text of a file written without ts-morph: the banner, a blank line, the lines, a final newline. */
export function fileText(banner: string, lines: readonly string[]): string {
  return `${banner === '' ? '' : `${banner}\n`}${lines.join('\n')}\n`;
}

/**
 * Writes whole lines in one call: CodeBlockWriter scans every character it is given, and each
 * call costs as much again in bookkeeping (a fifth of printing 10,000 files). Called at the
 * statement level, where the writer adds no indentation of its own.
 */
export function writeLines(writer: CodeBlockWriter, lines: readonly string[]): void {
  if (lines.length > 0) writer.writeLine(lines.join('\n'));
}
