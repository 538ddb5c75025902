/**
 * Reading schema-sync's own lockfile entry by entry must give exactly what a full parse gives,
 * for any names and unknown fields; anything not in its layout must be refused (undefined).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { descriptorsSharing, entryLine, lockfileEntries } from '../../src/lock/entries.js';
import { LockfileText } from '../../src/lock/lockfile-text.js';
import { parseLockfile } from '../../src/lock/parse.js';
import { serializeLockfileEntries } from '../../src/lock/serialize.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { LOCKFILE_VERSION, type Lockfile } from '../../src/model/lockfile.js';
import { lockfile } from './arbitraries.js';

/** A descriptor as a parse gives it back (JSON drops -0 and undefined): the form the lockfile stores. */
const roundTrip = (lock: Lockfile) => parseLockfile(serializeLockfileEntries(lock).text, 'lock');

describe('lockfile entries', () => {
  it('a lockfile edited by hand out of the layout gives the errors of a full parse, not a misread or a raw error', () => {
    const lock = roundTrip({ lockfileVersion: LOCKFILE_VERSION, source: { baseUrl: 'https://x.test', query: {} }, settings: {}, messages: [] });
    const descriptor = (name: string, mNum: number): Descriptor => ({ name, mNum, schemaHash: `H${mNum}`, extra: {} });
    const next = LockfileText.of({ ...lock, messages: [descriptor('A', 1), descriptor('B', 2)] }, 'lock');
    const edits: Array<(text: string) => string> = [
      // An entry emptied to {} on its own line, as a hand edit leaves it.
      (text) => text.replace(/"A": \{\n[^]*?\n {4}\},/, '"A": {},'),
      // A trailing comma inside an entry.
      (text) => text.replace('"schemaHash": "H1"', '"schemaHash": "H1",'),
    ];
    for (const edit of edits) {
      const edited = edit(next.text);
      expect(edited).not.toBe(next.text);
      const full = (() => {
        try {
          parseLockfile(edited, 'lock');
        } catch (error) {
          return error as Error;
        }
        throw new Error('expected the full parse to fail');
      })();
      expect(() => new LockfileText(edited, 'lock').descriptorsSharedWith(next)).toThrow(full.message);
    }
  });

  it('a lockfile text counts its message types as a full parse does, laid out by schema-sync or by hand', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        const { text } = serializeLockfileEntries(lock);
        const count = parseLockfile(text, 'lock').messages.length;
        expect(new LockfileText(text, 'lock').messageCount()).toBe(count);
        const byHand = JSON.stringify(JSON.parse(text), null, 3);
        expect(lockfileEntries(byHand)).toBeUndefined();
        expect(new LockfileText(byHand, 'lock').messageCount()).toBe(count);
      }),
      { numRuns: 200 },
    );
  });

  it('scanning a serialised lockfile finds exactly the entries the serialiser wrote', () => {
    fc.assert(
      fc.property(lockfile, (lock) => {
        const { text: serialised, entries } = serializeLockfileEntries(lock);
        expect(lockfileEntries(serialised)).toEqual(entries);
      }),
      { numRuns: 500 },
    );
  });

  it('the descriptors read entry by entry equal a full parse, whatever changed', () => {
    fc.assert(
      fc.property(lockfile, lockfile, fc.nat(), (before, other, seed) => {
        const old = roundTrip(before);
        // The next listing: some of the old descriptors kept, some replaced, some new ones.
        const kept = old.messages.filter((_, i) => (seed >> i) % 2 === 0);
        const next = roundTrip({ ...before, messages: [...kept, ...other.messages.filter((d) => !kept.some((k) => k.name === d.name))] });
        const current = new LockfileText(serializeLockfileEntries(old).text, 'lock');
        const after = LockfileText.of(next, 'lock');
        const shared = current.descriptorsSharedWith(after);
        expect(shared).toEqual(parseLockfile(current.text, 'lock').messages);
        // Unchanged entries are the fetched objects themselves (what lets the diff skip them).
        for (const d of shared) if (kept.some((k) => k.name === d.name)) expect(next.messages).toContain(d);
      }),
      { numRuns: 300 },
    );
  });

  it('reports an invalid changed entry as a full parse does, and leaves another header to the full parse', () => {
    const good = { lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages: [sample('A'), sample('B')] } as Lockfile;
    const text = serializeLockfileEntries(good).text.replace('"mNum": 1', '"mNum": "one"');
    const next = serializeLockfileEntries(good);
    const fullError = (() => {
      try {
        parseLockfile(text, 'lock');
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(fullError).toMatch(/invalid entries:\n {2}messages\["A"\]\.mNum/);
    expect(() => descriptorsSharing({ text, path: 'lock' }, { ...next, descriptors: good.messages })).toThrow(fullError);
    const otherSource = serializeLockfileEntries({ ...good, source: { baseUrl: 'https://x', query: {} } });
    expect(descriptorsSharing({ text, path: 'lock' }, { ...otherSource, descriptors: good.messages })).toBeUndefined();
  });

  it('refuses text in any other layout', () => {
    const { text: good } = serializeLockfileEntries({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages: [sample('A'), sample('B')] });
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
