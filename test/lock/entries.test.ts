/** A lockfile's text counts its message types as a full parse does; entryLine finds an entry's line. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryLine, lockfileEntries, lockfileHeadText, recordedFileStems } from '../../src/lock/entries.js';
import { LockfileText } from '../../src/lock/lockfile-text.js';
import { parseLaidOutLockfile, parseLockfile } from '../../src/lock/parse.js';
import { serializeLockfileEntries } from '../../src/lock/serialize.js';
import { compareStrings, type Descriptor } from '../../src/model/descriptor.js';
import { LOCKFILE_VERSION } from '../../src/model/lockfile.js';
import { hashOf } from '../../src/util/hash.js';
import { lockfile } from './arbitraries.js';

describe('LockfileText', () => {
  it('counts its message types as a full parse does, laid out by schema-sync or by hand', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        const text = serializeLockfileEntries(lock).pieces.join('');
        const count = parseLockfile(text, 'lock').messages.length;
        expect(new LockfileText(text, 'lock').messageCount()).toBe(count);
        const byHand = JSON.stringify(JSON.parse(text), null, 3);
        expect(new LockfileText(byHand, 'lock').messageCount()).toBe(count);
      }),
      { numRuns: 200 },
    );
  });

  it('held as pieces, it is the text they make run together: its hash, head, text and count', () => {
    fc.assert(
      fc.property(lockfile, fc.integer({ min: 1, max: 2000 }), (lock, pieceChars) => {
        const { pieces } = serializeLockfileEntries(lock, { pieceChars });
        const text = pieces.join('');
        const held = new LockfileText(pieces, 'lock');
        expect(held.hash).toBe(hashOf(text));
        expect(held.hash).toBe(new LockfileText(text, 'lock').hash);
        expect(held.text).toBe(text);
        expect(held.pieces()).toEqual(pieces);
        expect(held.headText()).toBe(lockfileHeadText(text));
        expect(held.messageCount()).toBe(lock.messages.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('parseLaidOutLockfile', () => {
  it('parses a lockfile entry by entry as parseLockfile parses it whole, or gives up where the whole parse is needed', () => {
    const edits: Array<(text: string) => string> = [
      (text) => text,
      (text) => text.replace('"mNum": ', '"mNum": "x", "y": '),
      (text) => text.replace('"lockfileVersion": 1', '"lockfileVersion": 2'),
      (text) => text.replace('"schemaHash": ', '"schemaHash": 7, "z": '),
      (text) => text.replace('\n  "messages": {', '\n  "extra": true,\n  "messages": {'),
      // Not JSON, or not one lockfile, in ways a scan of the layout could miss (review findings).
      (text) => text.replace(',\n  "messages": {', '\n  "messages": {'),
      (text) => text.replace(/\n {4}"([^"\\]*)": \{\n/, '\n    "$1\tx": {\n'),
      (text) => text.replace(/\n {4}"([^"\\]*)": \{\n/, '\n    "$1"x": {\n'),
      (text) => text.replace('\n  "messages": {', '\n  "messages": {},\n  "lockfileVersion": 9,\n  "messages": {'),
      (text) => text.replace('\n  "messages": {}\n}\n', '\n  "messages": {}\n}\n{}'),
      (text) => text.replace('{\n      ', '{\n      "deep": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],\n      '),
    ];
    fc.assert(
      fc.property(lockfile, fc.constantFrom(...edits), (lock, edit) => {
        const text = edit(serializeLockfileEntries(lock).pieces.join(''));
        const entries = lockfileEntries(text);
        const whole = (() => {
          try {
            return parseLockfile(text, 'lock');
          } catch (error) {
            return error;
          }
        })();
        const laidOut = entries === undefined ? undefined : parseLaidOutLockfile(lockfileHeadText(text), entries, 'lock');
        if (laidOut !== undefined) expect(laidOut).toEqual(whole);
        if (edit === edits[0]) expect(laidOut).toBeDefined();
      }),
      { numRuns: 300 },
    );
  });
});

describe('lockfileEntries', () => {
  it('scanning a serialised lockfile finds exactly the entries the serialiser wrote', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        const { pieces, entries } = serializeLockfileEntries(lock);
        const serialised = pieces.join('');
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
        const text = serializeLockfileEntries(lock).pieces.join('');
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
    const good = serializeLockfileEntries({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages: [sample('A'), sample('B')] }).pieces.join('');
    expect(lockfileEntries(good)?.size).toBe(2);
    expect(lockfileEntries(JSON.stringify(JSON.parse(good)))).toBeUndefined();
    expect(lockfileEntries(good.replace('\n    },\n', '\n    }, \n'))).toBeUndefined();
    expect(lockfileEntries(`${good}\n`)).toBeUndefined();
    expect(lockfileEntries(good.replace('"B"', '"A"'))).toBeUndefined();
    expect(lockfileEntries(serializeLockfileEntries({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages: [] }).pieces.join(''))?.size).toBe(0);
  });
});

function sample(name: string): Descriptor {
  return { name, mNum: 1, schemaHash: 'h', actions: ['select'], hasTKey: true, hasEKey: false, hasOKey: false, hasCF: false, mToken: 'T', staticFilterFields: [], extra: { desc: 'x' } };
}

describe('entryLine', () => {
  it('gives the line of a message entry, none for a name without one', () => {
    const text = serializeLockfileEntries({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages: [sample('A'), sample('B"x')] }).pieces.join('');
    const lines = text.split('\n');
    expect(lines[entryLine(text, 'A')! - 1]).toBe('    "A": {');
    expect(lines[entryLine(text, 'B"x')! - 1]).toBe('    "B\\"x": {');
    expect(entryLine(text, 'C')).toBeUndefined();
  });
});
