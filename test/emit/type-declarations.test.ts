/** Type aliases and interfaces written through the writer, laid out as ts-morph's printer laid them out. */
import { describe, expect, it } from 'vitest';

import { writeInterface, writeTypeAlias } from '../../src/emit/type-declarations.js';
import { newWriter, newWriterAfterBanner } from '../../src/emit/writers.js';

type Writer = ReturnType<typeof newWriter>;

describe('writeTypeAlias and writeInterface', () => {
  const cases: Array<{ name: string; write: (writer: Writer) => void; want: string[] }> = [
    {
      name: 'an alias after its one-line TSDoc',
      write: (w) => writeTypeAlias(w, { name: 'MessageName', docs: ['The name.'], type: 'keyof typeof messages' }),
      want: ['/** The name. */', 'export type MessageName = keyof typeof messages;'],
    },
    {
      name: 'a generic alias after a block TSDoc',
      write: (w) => writeTypeAlias(w, { name: 'R', docs: ['First,', 'second.'], typeParameters: ['N extends A = A', 'M'], type: 'X[N]' }),
      want: ['/**', ' * First,', ' * second.', ' */', 'export type R<N extends A = A, M> = X[N];'],
    },
    {
      name: 'an interface: extends, members after their TSDoc, readonly and optional',
      write: (w) =>
        writeInterface(w, {
          name: 'K',
          docs: ['A key.'],
          extends: 'Base',
          properties: [
            { name: 'a', type: 'string', docs: ['One.'], readonly: true },
            { name: "'b'", type: 'number', docs: ['Two,', '', 'lines.'], optional: true },
            { name: 'c', type: 'C' },
          ],
        }),
      want: ['/** A key. */', 'export interface K extends Base {', '  /** One. */', '  readonly a: string;', '  /**', '   * Two,', '   *', '   * lines.', '   */', "  'b'?: number;", '  c: C;', '}'],
    },
    {
      name: 'an interface without members',
      write: (w) => writeInterface(w, { name: 'Empty', docs: ['None.'], properties: [] }),
      want: ['/** None. */', 'export interface Empty {}'],
    },
  ];
  it.each(cases)('$name', ({ write, want }) => {
    const writer = newWriter();
    write(writer);
    expect(writer.toString()).toBe([...want, ''].join('\n'));
  });
});

describe('newWriterAfterBanner', () => {
  it.each([
    { name: 'no banner: an empty writer', banner: '', want: '' },
    { name: 'a banner, then a blank line', banner: '// a\n// b\n', want: '// a\n// b\n\n' },
    { name: 'a block comment the banner leaves open is closed', banner: '/* open\n', want: '/* open\n*/\n\n' },
  ])('$name', ({ banner, want }) => {
    expect(newWriterAfterBanner(banner).toString()).toBe(want);
  });
});
