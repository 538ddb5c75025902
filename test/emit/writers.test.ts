/** The writer functions every generated module is written with, on ts-morph's CodeBlockWriter. */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

import { fileText, newWriter, type PropertyText, writeDocs, writeExportedObject } from '../../src/emit/writers.js';

describe('newWriter', () => {
  it("is ts-morph's CodeBlockWriter with the fixed options (2 spaces, LF, single quotes)", () => {
    const writer = newWriter();
    expect(writer).toBeInstanceOf((createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph')).CodeBlockWriter);
    expect(writer.getOptions()).toEqual({ indentNumberOfSpaces: 2, newLine: '\n', useTabs: false, useSingleQuote: true });
  });
});

describe('writeExportedObject', () => {
  const long = Array.from({ length: 8 }, (_, i) => `'element${i}'`);
  const properties: PropertyText[] = [['name', "'Order'"], ['short', ["'a'", "'b'"]], ['long', long]];
  const cases: Array<{ name: string; write: (writer: ReturnType<typeof newWriter>) => void; want: string }> = [
    {
      name: 'a value: one property a line, a long array one element a line',
      write: (w) => writeExportedObject(w, 'X', properties, ' as const'),
      want: ['export const X = {', "  name: 'Order',", "  short: ['a', 'b'],", '  long: [', ...long.map((e) => `    ${e},`), '  ],', '} as const;', ''].join('\n'),
    },
    {
      name: 'a type: readonly members and tuples',
      write: (w) => writeExportedObject(w, 'X', properties.slice(0, 2), '', 'type'),
      want: ['export declare const X: {', "  readonly name: 'Order';", "  readonly short: readonly ['a', 'b'];", '};', ''].join('\n'),
    },
    { name: 'no properties', write: (w) => writeExportedObject(w, 'X', [], ' as const'), want: 'export const X = {} as const;\n' },
  ];
  it.each(cases)('$name', ({ write, want }) => {
    const writer = newWriter();
    write(writer);
    expect(writer.toString()).toBe(want);
  });
});

describe('writeDocs and fileText', () => {
  it('writes TSDoc at the indentation of the block it is in, and puts the banner before the text', () => {
    const writer = newWriter();
    writer.write('export interface X ').inlineBlock(() => {
      writeDocs(writer, ['One line.']);
      writer.writeLine('a: string;');
      writeDocs(writer, ['First.', '', 'Second.']);
      writer.writeLine('b: number;');
    });
    expect(fileText('// banner\n', writer)).toBe(
      ['// banner', '', 'export interface X {', '  /** One line. */', '  a: string;', '  /**', '   * First.', '   *', '   * Second.', '   */', '  b: number;', '}', ''].join('\n'),
    );
  });
});
