/**
 * How generated files are written: one ts-morph `CodeBlockWriter` per file, with fixed options,
 * and the writer functions the files share (TSDoc, exported constants as blocks).
 *
 * Every file, the index and `types.ts` included, is written through a writer rather than printed
 * from ts-morph structures: printing structures needs ts-morph's main module, which loads the
 * whole TypeScript compiler (bench/README.md, "Tried and left out").
 */
import { createRequire } from 'node:module';
import type { CodeBlockWriter } from 'ts-morph';
import { isTypeScript, type ModuleKind } from './targets.js';

/** How every generated file is written: 2-space indent, LF, single quotes. */
const WRITER_OPTIONS = {
  indentNumberOfSpaces: 2,
  newLine: '\n',
  useSingleQuote: true,
} as const;

/**
 * Requires modules as ts-morph does, from its own folder. ts-morph's `CodeBlockWriter` is the
 * class of its dependency code-block-writer (the very object ts-morph exports), and taken from
 * there it comes without the TypeScript compiler that loading ts-morph brings, which no file the
 * CLI writes has any use for (bench/README.md, "Tried and left out").
 */
const requireAsTsMorph = createRequire(createRequire(import.meta.url).resolve('ts-morph'));

/** A new ts-morph `CodeBlockWriter` with the fixed options: one per file. */
export function newWriter(): CodeBlockWriter {
  const { default: Writer } = requireAsTsMorph('code-block-writer') as { default: typeof CodeBlockWriter };
  return new Writer(WRITER_OPTIONS);
}

/**
 * A file's text: the banner (the template's comment lines, ending with a newline) and a blank
 * line, then what the writer holds, ending with one newline. The banner is put before the
 * writer's text rather than written through it: it is the user's template, not code the writer
 * builds, and the writer would track any quote or comment start in it as if it were.
 */
export function fileText(banner: string, writer: CodeBlockWriter): string {
  const text = writer.newLineIfLastNot().toString();
  return banner === '' ? text : `${banner}${commentClosing(banner)}\n${text}`;
}

/**
 * What closes a block comment the banner leaves open (`/* …` with a line dropped, say), as
 * {@link newWriterAfterBanner} closes it: without it the code after the banner, and the
 * `@ts-nocheck` before it, would be inside the comment. Only a banner holding `/*` is scanned.
 */
function commentClosing(banner: string): string {
  if (!banner.includes('/*')) return '';
  const closed = newWriter().write(banner).closeComment().newLineIfLastNot().toString();
  return closed.startsWith(banner) ? closed.slice(banner.length) : '';
}

/**
 * A new writer that holds the banner and a blank line, for the index and `types.ts`: unlike
 * {@link fileText}, the banner goes through the writer, as when these files were printed from
 * structures (the banner was their leading trivia), so their bytes stay what they were for any
 * template. A comment the banner leaves open is closed, as ts-morph's printer closed it.
 */
export function newWriterAfterBanner(banner: string): CodeBlockWriter {
  const writer = newWriter();
  if (banner === '') return writer;
  return writer.write(banner).closeComment().blankLineIfLastNot();
}

/**
 * The head of every TypeScript module schema-sync generates (`.ts`, `.mts`; not `.js` or `.d.ts`):
 * a project's compiler reads the module's types wherever the project uses them, but does not
 * check the generated code again, as it does not check a `.d.ts` under `skipLibCheck` (the
 * `js+dts` target). With record types on, checking the generated folder in every build cost
 * 1.4–1.7 × the check of the folder without them (bench/README.md, "Type-check of the generated
 * folder"), and a generated module's correctness is schema-sync's to prove, not the build's:
 * its tests check the generated code with this line made a plain comment, under the strictest
 * options (test/helpers/tsc.ts). protobuf-ts and connect-es offer the same line (`ts_nocheck`).
 */
export const NO_CHECK_LINES: readonly string[] = ["// Generated code, type-checked by schema-sync's own tests: a project's compiler reads its types and need not check it again.", '// @ts-nocheck'];

/** Writes {@link NO_CHECK_LINES} and a blank line when `kind` is TypeScript source. */
export function writeNoCheck(writer: CodeBlockWriter, kind: ModuleKind): CodeBlockWriter {
  if (isTypeScript(kind)) {
    writeLines(writer, NO_CHECK_LINES);
    writer.blankLine();
  }
  return writer;
}

/** Lines longer than this put each array element (or union member) on a line of its own. */
export const MAX_LINE_LENGTH = 100;

/** How many columns the writer's current line is indented by. */
export function indentWidth(writer: CodeBlockWriter): number {
  return writer.getOptions().indentNumberOfSpaces * writer.getIndentationLevel();
}

/**
 * The lines of a TSDoc comment from already comment-safe lines (`docLines` of
 * `text/safe-text.ts`): one line for one, a block of them for more, none for none.
 */
export function docComment(lines: readonly string[]): string[] {
  if (lines.length <= 1) return lines.map((line) => `/** ${line} */`);
  return ['/**', ...lines.map((line) => (line === '' ? ' *' : ` * ${line}`)), ' */'];
}

/** Writes a TSDoc comment ({@link docComment}) at the writer's indentation; nothing when there are no lines. */
export function writeDocs(writer: CodeBlockWriter, lines: readonly string[]): void {
  // One call for the whole comment: the writer indents each of its lines.
  writeLines(writer, docComment(lines));
}

/**
 * Writes lines at the writer's indentation, in one call: CodeBlockWriter scans every character
 * it is given, and each call costs as much again in bookkeeping.
 */
export function writeLines(writer: CodeBlockWriter, lines: readonly string[]): void {
  if (lines.length > 0) writer.writeLine(lines.join('\n'));
}

/** One property of an object literal: a key (already a valid property name) and a value, code. */
export type PropertyText = readonly [key: string, value: string | readonly string[]];

/**
 * How an exported constant is written: `value` as JavaScript or TypeScript (`export const <name> =
 * { key: value, … }`), `type` as its declaration (`export declare const <name>: { readonly key:
 * value; … }`, each array a readonly tuple). Both give a consumer the same literal types.
 */
export type ConstForm = 'value' | 'type';

/** `export const <name> = ` or `export declare const <name>: `. */
export function constHead(name: string, form: ConstForm): string {
  return form === 'value' ? `export const ${name} = ` : `export declare const ${name}: `;
}

/**
 * Writes {@link constHead}; for a `value` with `writeType` (TypeScript, whose consumers may compile
 * with `isolatedDeclarations`), `export const <name>: <type> = `, the type written by `writeType`.
 */
export function writeConstHead(writer: CodeBlockWriter, name: string, form: ConstForm, writeType?: () => void): void {
  if (writeType === undefined || form !== 'value') {
    writer.write(constHead(name, form));
    return;
  }
  writer.write(`export const ${name}: `);
  writeType();
  writer.write(' = ');
}

/**
 * An array of already encoded elements on one line (`[a, b]`, or as a `type` a readonly tuple)
 * when it fits {@link MAX_LINE_LENGTH} after `used` characters; else `undefined`.
 */
export function inlineArray(elements: readonly string[], form: ConstForm, used: number): string | undefined {
  const inline = `${arrayOpen(form)}${elements.join(', ')}]`;
  return used + inline.length <= MAX_LINE_LENGTH ? inline : undefined;
}

/** How an array opens: `[`, or as a `type` a readonly tuple's `readonly [`. */
export function arrayOpen(form: ConstForm): string {
  return form === 'value' ? '[' : 'readonly [';
}

/**
 * Writes an array of already encoded elements (or, as a `type`, a readonly tuple): inline when
 * its line fits {@link MAX_LINE_LENGTH} after `used` characters, one element per line otherwise.
 */
function writeArray(writer: CodeBlockWriter, elements: readonly string[], form: ConstForm, used: number): void {
  const inline = inlineArray(elements, form, used);
  if (inline !== undefined) {
    writer.write(inline);
    return;
  }
  writer.write(arrayOpen(form)).indent(() => writeLines(writer, elements.map((element) => `${element},`)));
  writer.write(']');
}

/** One property of an object literal on one line: `key: value,`, or as a `type` the member `readonly key: value;`. */
export function propertyLine(key: string, value: string, form: ConstForm): string {
  return form === 'value' ? `${key}: ${value},` : `readonly ${key}: ${value};`;
}

/**
 * Writes an object literal as a block, one property per line (or, as a `type`, its type literal
 * with readonly members); an array value inline when its line fits {@link MAX_LINE_LENGTH}.
 */
function writeObject(writer: CodeBlockWriter, properties: readonly PropertyText[], form: ConstForm): void {
  if (properties.length === 0) {
    writer.write('{}');
    return;
  }
  const [readonly, end] = form === 'value' ? ['', ','] : ['readonly ', ';'];
  writer.inlineBlock(() => {
    const indent = indentWidth(writer);
    // Consecutive one-line properties are written in one call (see writeLines).
    let lines: string[] = [];
    for (const [key, value] of properties) {
      if (typeof value === 'string') {
        lines.push(propertyLine(key, value, form));
        continue;
      }
      const head = `${readonly}${key}: `;
      const inline = inlineArray(value, form, indent + head.length + end.length);
      if (inline !== undefined) {
        lines.push(`${head}${inline}${end}`);
        continue;
      }
      writeLines(writer, lines);
      lines = [];
      writer.write(head);
      writeArray(writer, value, form, MAX_LINE_LENGTH);
      writer.write(end).newLine();
    }
    writeLines(writer, lines);
  });
}

/**
 * Writes `export const <name> = { … }<suffix>;` (or, as a `type`, its declaration) as a block,
 * one property per line; an array value inline when its line fits {@link MAX_LINE_LENGTH}, one
 * element per line otherwise. `annotated` (a `value` in TypeScript) writes the type too, as
 * `export const <name>: { readonly … } = { … }<suffix>;`: a consumer compiling with
 * `isolatedDeclarations` needs every exported constant's type written out, which
 * `as const satisfies` does not give it.
 */
export function writeExportedObject(writer: CodeBlockWriter, name: string, properties: readonly PropertyText[], suffix: string, form: ConstForm = 'value', annotated = false): void {
  writeConstHead(writer, name, form, annotated ? () => writeObject(writer, properties, 'type') : undefined);
  writeObject(writer, properties, form);
  writer.write(`${suffix};`).newLine();
}
