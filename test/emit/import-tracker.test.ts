/** The import tracker: declarations derived from the symbols a module uses, written through ts-morph's writer. */
import { describe, expect, it } from 'vitest';

import { ImportTracker, writeDeclarations } from '../../src/emit/import-tracker.js';
import { newWriter } from '../../src/emit/writers.js';

function written(tracker: ImportTracker, keyword: 'import' | 'export', types: boolean): string {
  const writer = newWriter();
  writeDeclarations(writer, keyword, keyword === 'import' ? tracker.imports() : tracker.reexports(), { types });
  return writer.toString();
}

describe('ImportTracker', () => {
  const cases: Array<{ name: string; uses: Array<[name: string, from: string, type?: boolean]>; types?: boolean; want: string }> = [
    { name: 'nothing used, nothing imported', uses: [], want: '' },
    {
      name: 'types only: one import type, names sorted, each once',
      uses: [['TickerKey', '../types.js', true], ['MessageDescriptor', '../types.js', true], ['TickerKey', '../types.js', true]],
      want: "import type { MessageDescriptor, TickerKey } from '../types.js';\n",
    },
    {
      name: 'values and types: type-only names marked, modules in the order first used',
      uses: [['Order', './messages/Order.js'], ['OrderRecord', './messages/Order.js', true], ['Alpha', './messages/Alpha.js']],
      want: "import { Order, type OrderRecord } from './messages/Order.js';\nimport { Alpha } from './messages/Alpha.js';\n",
    },
    { name: 'a name used as a value once is a value', uses: [['X', './x.js', true], ['X', './x.js'], ['X', './x.js', true]], want: "import { X } from './x.js';\n" },
    {
      name: 'plain JavaScript leaves type-only names and emptied declarations out',
      uses: [['Order', './messages/Order.js'], ['OrderRecord', './messages/Order.js', true], ['MessageDescriptor', '../types.js', true]],
      types: false,
      want: "import { Order } from './messages/Order.js';\n",
    },
  ];
  it.each(cases)('$name', ({ uses, types = true, want }) => {
    const tracker = new ImportTracker();
    for (const [name, from, type] of uses) expect(tracker.use(name, from, { type })).toBe(name);
    expect(written(tracker, 'import', types)).toBe(want);
  });

  it('derives re-exports apart from imports', () => {
    const tracker = new ImportTracker();
    tracker.use('Order', './messages/Order.js');
    tracker.reexport('KnownMessageAction', './types.js', { type: true });
    tracker.reexport('Order', './messages/Order.js');
    tracker.reexport('OrderRecord', './messages/Order.js', { type: true });
    expect(written(tracker, 'export', true)).toBe("export type { KnownMessageAction } from './types.js';\nexport { Order, type OrderRecord } from './messages/Order.js';\n");
    expect(written(tracker, 'import', true)).toBe("import { Order } from './messages/Order.js';\n");
  });
});
