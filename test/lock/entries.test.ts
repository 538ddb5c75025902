/** A lockfile's text counts its message types as a full parse does; entryLine finds an entry's line. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryLine, lockfileEntries, recordedFileStems } from '../../src/lock/entries.js';
import { LockfileText } from '../../src/lock/lockfile-text.js';
import { parseLockfile } from '../../src/lock/parse.js';
import { serializeLockfileEntries } from '../../src/lock/serialize.js';
import { compareStrings, type Descriptor } from '../../src/model/descriptor.js';
import { LOCKFILE_VERSION } from '../../src/model/lockfile.js';
import { lockfile } from './arbitraries.js';

describe('LockfileText', () => {
  it('counts its message types as a full parse does, laid out by schema-sync or by hand', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        const text = serializeLockfileEntries(lock).text;
        const count = parseLockfile(text, 'lock').messages.length;
        expect(new LockfileText(text, 'lock').messageCount()).toBe(count);
        const byHand = JSON.stringify(JSON.parse(text), null, 3);
        expect(new LockfileText(byHand, 'lock').messageCount()).toBe(count);
      }),
      { numRuns: 200 },
    );
  });
});

describe('lockfileEntries', () => {
  it('scanning a serialised lockfile finds exactly the entries the serialiser wrote', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        const { text: serialised, entries } = serializeLockfileEntries(lock);
        expect(lockfileEntries(serialised)).toEqual(entries);
        expect(new LockfileText(serialised, 'lock').entryTexts()).toEqual(entries);
        expect(lockfileEntries(JSON.stringify(JSON.parse(serialised), null, 3))).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('the file stems found by a scan of the entries are those a full parse reads', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        const text = serializeLockfileEntries(lock).text;
        const full = parseLockfile(text, 'lock');
        const want = { names: full.messages.map((d) => d.name), fileStems: full.fileStems ?? new Map() };
        const layout = new LockfileText(text, 'lock').fileLayout();
        expect({ names: [...layout.names].sort(compareStrings), fileStems: layout.fileStems }).toEqual(want);
        expect(recordedFileStems(lockfileEntries(text)!)).toEqual(want.fileStems);
        const byHand = new LockfileText(JSON.stringify(JSON.parse(text), null, 3), 'lock').fileLayout();
        expect({ names: byHand.names, fileStems: byHand.fileStems }).toEqual(want);
      }),
      { numRuns: 50 },
    );
  });

  it('refuses text in any other layout', () => {
    const good = serializeLockfileEntries({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages: [sample('A'), sample('B')] }).text;
    expect(lockfileEntries(good)?.size).toBe(2);
    expect(lockfileEntries(JSON.stringify(JSON.parse(good)))).toBeUndefined();
    expect(lockfileEntries(good.replace('\n    },\n', '\n    }, \n'))).toBeUndefined();
    expect(lockfileEntries(`${good}\n`)).toBeUndefined();
    expect(lockfileEntries(good.replace('"B"', '"A"'))).toBeUndefined();
    expect(lockfileEntries(serializeLockfileEntries({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages: [] }).text)?.size).toBe(0);
  });
});

function sample(name: string): Descriptor {
  return { name, mNum: 1, schemaHash: 'h', actions: ['select'], hasTKey: true, hasEKey: false, hasOKey: false, hasCF: false, mToken: 'T', staticFilterFields: [], extra: { desc: 'x' } };
}

describe('entryLine', () => {
  it('gives the line of a message entry, none for a name without one', () => {
    const text = serializeLockfileEntries({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages: [sample('A'), sample('B"x')] }).text;
    const lines = text.split('\n');
    expect(lines[entryLine(text, 'A')! - 1]).toBe('    "A": {');
    expect(lines[entryLine(text, 'B"x')! - 1]).toBe('    "B\\"x": {');
    expect(entryLine(text, 'C')).toBeUndefined();
  });
});
