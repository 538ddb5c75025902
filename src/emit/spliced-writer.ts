/**
 * A file written through one ts-morph `CodeBlockWriter` whose long runs of lines (the index's
 * lines, one a message type) are kept out of the writer and spliced into its text at the end.
 *
 * The writer keeps every piece it is given (each line, its indentation and its line end) until
 * its text is taken, and scans each character for strings and comments; over a listing of many
 * message types that costs several times the text itself. A run's lines are instead joined into
 * chunks as they come, so rendering holds little beyond the text it makes.
 */
import type { CodeBlockWriter } from 'ts-morph';

import { writeInterfaceBlock, type InterfaceDeclaration } from './type-declarations.js';
import { arrayOpen, type ConstForm, constHead, fileText, indentWidth, inlineArray, MAX_LINE_LENGTH, newWriterAfterBanner, writeLines } from './writers.js';

/** Writes one line (without its line end). */
export type LineSink = (line: string) => void;

/** Lines joined into one chunk: the garbage of a chunk dies young, and the chunks add up to the text. */
const CHUNK_LINES = 1024;

/** Where a run of lines goes in the writer's text: in place of the placeholder line `[start, end)`. */
interface Splice {
  start: number;
  end: number;
  chunks: string[];
}

/** Stands in the writer for a run of lines: any character the writer does not track. */
const PLACEHOLDER = '#';

/** A file's writer, and the runs of lines spliced into its text. */
export class SplicedWriter {
  /** The writer of everything but the runs: write to it as to any file's writer. */
  readonly writer: CodeBlockWriter;
  readonly #splices: Splice[] = [];

  /** A writer that holds the banner and a blank line (`newWriterAfterBanner`). */
  constructor(banner: string) {
    this.writer = newWriterAfterBanner(banner);
  }

  /**
   * Writes the lines `run` gives to its sink, at the writer's indentation, where the writer
   * stands: the same text as `writeLines` writes. The lines must not change what the writer
   * tracks (a string or comment left open): each quote they open they close on the same line.
   * Inside a string the writer indents no line, so there (a banner that leaves one open) the
   * lines go through the writer.
   */
  writeRun(run: (line: LineSink) => void): void {
    const { writer } = this;
    if (writer.isInString()) {
      const lines: string[] = [];
      run((line) => lines.push(line));
      writeLines(writer, lines);
      return;
    }
    const indentation = ' '.repeat(indentWidth(writer));
    const chunks: string[] = [];
    let pieces: string[] = [];
    run((line) => {
      pieces.push(indentation, line, '\n');
      if (pieces.length === 3 * CHUNK_LINES) {
        chunks.push(pieces.join(''));
        pieces = [];
      }
    });
    if (pieces.length > 0) chunks.push(pieces.join(''));
    if (chunks.length === 0) return;
    // As writeLine starts a line, then the placeholder line the run takes the place of.
    if (writer.getLength() > 0) writer.newLineIfLastNot();
    const start = writer.getLength();
    writer.writeLine(PLACEHOLDER);
    this.#splices.push({ start, end: writer.getLength(), chunks });
  }

  /** The file's text: the writer's, ending with one newline, with the runs in their places. */
  text(): string {
    return this.pieces().join('');
  }

  /**
   * {@link SplicedWriter.text} as pieces that run together to it (whole lines each): a large
   * file's bytes are made from them without one text of it, which a two-byte banner (its dash)
   * would make two bytes a character throughout.
   */
  pieces(): string[] {
    const text = fileText('', this.writer);
    if (this.#splices.length === 0) return [text];
    const parts: string[] = [];
    let at = 0;
    for (const { start, end, chunks } of this.#splices) {
      parts.push(text.slice(at, start), ...chunks);
      at = end;
    }
    parts.push(text.slice(at));
    return parts;
  }
}

/** The lines of `items`, one an item, as a run (see {@link SplicedWriter.writeRun}). */
function runOf<T>(items: ArrayLike<T>, lineOf: (item: T) => string): (line: LineSink) => void {
  return (line) => {
    for (let i = 0; i < items.length; i++) line(lineOf(items[i]!));
  };
}

/**
 * Writes `export const <name> = { … }<suffix>;` (or, as a `type`, its declaration) as a block
 * holding one line an item, `property` (e.g. `propertyLine` of `writers.ts`): `{}` for none.
 */
export function writeExportedRegistry<T>(out: SplicedWriter, name: string, items: ArrayLike<T>, property: (item: T) => string, suffix: string, form: ConstForm): void {
  const { writer } = out;
  writer.write(constHead(name, form));
  if (items.length === 0) writer.write('{}');
  else writer.inlineBlock(() => out.writeRun(runOf(items, property)));
  writer.write(`${suffix};`).newLine();
}

/**
 * Writes `export const <name> = [ … ]<suffix>;` (or, as a `type`, its declaration as a readonly
 * tuple) of one element an item: inline when it fits `MAX_LINE_LENGTH`, one element per line
 * otherwise.
 */
export function writeExportedList<T>(out: SplicedWriter, name: string, items: ArrayLike<T>, element: (item: T) => string, suffix: string, form: ConstForm): void {
  const { writer } = out;
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
  else writer.write(arrayOpen(form)).indent(() => out.writeRun(runOf(items, (item) => `${element(item)},`))).write(']');
  writer.write(`${suffix};`).newLine();
}

/**
 * Writes an exported interface after its TSDoc with one member an item, each one line `member`
 * gives (e.g. `memberLine` of `type-declarations.ts`): `{}` for none.
 */
export function writeInterfaceOf<T>(out: SplicedWriter, declaration: Omit<InterfaceDeclaration, 'properties'>, items: ArrayLike<T>, member: (item: T) => string): void {
  writeInterfaceBlock(out.writer, declaration, items.length === 0 ? undefined : () => out.writeRun(runOf(items, member)));
}
