/** The spliced writer: runs of lines kept out of the writer, the same text as written through it. */
import type { CodeBlockWriter } from 'ts-morph';
import { describe, expect, it } from 'vitest';

import { utf8Of } from '../../src/util/utf8-of.js';
import { SplicedWriter, writeExportedList, writeExportedRegistry, writeInterfaceOf } from '../../src/emit/spliced-writer.js';
import { memberLine } from '../../src/emit/type-declarations.js';
import { fileText, newWriterAfterBanner, propertyLine, writeLines } from '../../src/emit/writers.js';

/** A file of parts: writer calls, and runs of lines (spliced, or through the writer by writeLines). */
type Part = { write: (writer: CodeBlockWriter) => void } | { lines: string[] };

function spliced(banner: string, parts: readonly Part[]): string {
  const out = new SplicedWriter(banner);
  for (const part of parts) {
    if ('write' in part) part.write(out.writer);
    else out.writeRun((line) => part.lines.forEach(line));
  }
  // Its pieces run together to its text, and their bytes to its bytes (no character cut in two).
  const pieces = out.pieces();
  const text = out.text();
  expect(pieces.join('')).toBe(text);
  expect(utf8Of(pieces).equals(Buffer.from(text, 'utf8'))).toBe(true);
  return text;
}

function throughWriter(banner: string, parts: readonly Part[]): string {
  const writer = newWriterAfterBanner(banner);
  for (const part of parts) {
    if ('write' in part) part.write(writer);
    else writeLines(writer, part.lines);
  }
  return fileText('', writer);
}

describe('SplicedWriter', () => {
  const many = Array.from({ length: 2500 }, (_, i) => `'Type${i}': Type${i},`);
  const block = (lines: string[]): Part => ({ write: (w) => w.write('export const x = ').inlineBlock(() => writeLines(w, lines)) });
  const cases: Array<{ name: string; banner?: string; parts: Part[] }> = [
    { name: 'nothing: an empty file', parts: [] },
    { name: 'an empty run writes nothing, not even a blank line', banner: '// a\n', parts: [{ lines: [] }, { write: (w) => w.blankLineIfLastNot() }, { lines: ['x;'] }] },
    { name: 'runs at the start, after text on the same line and after a blank line', parts: [{ lines: ["import { A } from './a.js';"] }, { write: (w) => w.write('const a = 1;') }, { lines: ['b;'] }, { write: (w) => w.blankLineIfLastNot() }, { lines: ['c;'] }] },
    {
      name: 'a run after a block, over many chunks',
      banner: '// Generated — do not edit.\n',
      parts: [{ write: (w) => w.write('const a = ').inlineBlock(() => w.writeLine('b: 1,')) }, { lines: many }, { write: (w) => w.write('} as const;') }],
    },
    {
      name: 'a banner that leaves a string open: the run goes through the writer, which indents nothing there',
      banner: 'const x = `\n',
      parts: [{ lines: ["'a',"] }, { write: (w) => w.write('export const y = ').inlineBlock(() => w.writeLine('`;')) }, { lines: ["'b',"] }],
    },
  ];
  it.each(cases)('$name', ({ banner = '', parts }) => {
    expect(spliced(banner, parts)).toBe(throughWriter(banner, parts));
  });

  it.each([
    { name: 'a run in a block is indented as the writer indents, across chunks', banner: '' },
    { name: 'a run in a block after a banner that leaves a string open is not', banner: 'const x = `\n' },
  ])('$name', ({ banner }) => {
    const out = new SplicedWriter(banner);
    out.writer.write('export const x = ').inlineBlock(() => out.writeRun((line) => many.forEach(line)));
    expect(out.text()).toBe(throughWriter(banner, [block(many)]));
  });
});

describe('writeExportedRegistry, writeExportedList and writeInterfaceOf', () => {
  const long = Array.from({ length: 8 }, (_, i) => `'element${i}'`);
  const cases: Array<{ name: string; write: (out: SplicedWriter) => void; want: string[] }> = [
    {
      name: 'a registry, one property a line',
      write: (out) => writeExportedRegistry(out, 'X', ['a', 'b'], (item) => propertyLine(`'${item}'`, item.toUpperCase(), 'value'), ' as const', 'value'),
      want: ['export const X = {', "  'a': A,", "  'b': B,", '} as const;'],
    },
    {
      name: 'a registry as a type: readonly members',
      write: (out) => writeExportedRegistry(out, 'X', [1], (item) => propertyLine(String(item), 'typeof A', 'type'), '', 'type'),
      want: ['export declare const X: {', '  readonly 1: typeof A;', '};'],
    },
    { name: 'an empty registry', write: (out) => writeExportedRegistry(out, 'X', [], String, ' as const', 'value'), want: ['export const X = {} as const;'] },
    { name: 'a list that fits', write: (out) => writeExportedList(out, 'names', ["'a'"], (e) => e, ' as const', 'value'), want: ["export const names = ['a'] as const;"] },
    { name: 'an empty list', write: (out) => writeExportedList(out, 'names', [], (e) => e, '', 'type'), want: ['export declare const names: readonly [];'] },
    {
      name: 'a list that does not fit, as a type',
      write: (out) => writeExportedList(out, 'names', long, (e) => e, '', 'type'),
      want: ['export declare const names: readonly [', ...long.map((e) => `  ${e},`), '];'],
    },
    { name: 'a list that just fits its line', write: (out) => writeExportedList(out, 'n', ['x'.repeat(66), "'b'"], (e) => e, ' as const', 'value'), want: [`export const n = [${'x'.repeat(66)}, 'b'] as const;`] },
    {
      name: 'a list one character too long for its line',
      write: (out) => writeExportedList(out, 'n', ['x'.repeat(67), "'b'"], (e) => e, ' as const', 'value'),
      want: ['export const n = [', `  ${'x'.repeat(67)},`, "  'b',", '] as const;'],
    },
    {
      name: 'an interface, one member an item',
      write: (out) => writeInterfaceOf(out, { name: 'R', docs: ['Records.'] }, ['A', 'B'], (item) => memberLine({ name: `'${item}'`, type: `${item}Record` })),
      want: ['/** Records. */', 'export interface R {', "  'A': ARecord;", "  'B': BRecord;", '}'],
    },
    { name: 'an interface without members', write: (out) => writeInterfaceOf(out, { name: 'R', docs: ['None.'] }, [], String), want: ['/** None. */', 'export interface R {}'] },
  ];
  it.each(cases)('$name', ({ write, want }) => {
    const out = new SplicedWriter('');
    write(out);
    expect(out.text()).toBe([...want, ''].join('\n'));
  });
});
