/** The memo that parses only a lockfile's changed entries gives what the plain path (a full parse) gives. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lockedDescriptors } from '../../src/lock/locked-descriptors.js';
import { LockfileText } from '../../src/lock/lockfile-text.js';
import { parseLockfile } from '../../src/lock/parse.js';
import { serializeLockfileEntries } from '../../src/lock/serialize.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { LOCKFILE_VERSION, type Lockfile } from '../../src/model/lockfile.js';
import { lockfile } from './arbitraries.js';

/** A descriptor as a parse gives it back (JSON drops -0 and undefined): the form the lockfile stores. */
const roundTrip = (lock: Lockfile) => parseLockfile(serializeLockfileEntries(lock).text, 'lock');

/** The error a full parse of `text` gives. */
function fullParseError(text: string): string {
  try {
    parseLockfile(text, 'lock');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the full parse to fail');
}

function sample(name: string, mNum = 1): Descriptor {
  return { name, mNum, schemaHash: `H${mNum}`, actions: ['select'], hasTKey: true, hasEKey: false, hasOKey: false, hasCF: false, mToken: 'T', staticFilterFields: [], extra: { desc: 'x' } };
}

describe('lockedDescriptors', () => {
  it('equals a full parse, whatever changed, and gives unchanged entries as the fetched objects', () => {
    fc.assert(
      fc.property(lockfile, lockfile, fc.nat(), (before, other, seed) => {
        const old = roundTrip(before);
        // The next listing: some of the old descriptors kept, some replaced, some new ones.
        const kept = old.messages.filter((_, i) => (seed >> i) % 2 === 0);
        const next = roundTrip({ ...before, messages: [...kept, ...other.messages.filter((d) => !kept.some((k) => k.name === d.name))] });
        const current = new LockfileText(serializeLockfileEntries(old).text, 'lock');
        const after = LockfileText.of(next, 'lock');
        const locked = lockedDescriptors(current, after, next.messages);
        expect(locked).toEqual(parseLockfile(current.text, 'lock').messages);
        // Known to be schema-sync's own (its entries parsed, not validated again): the same.
        expect(lockedDescriptors(current, after, next.messages, true)).toEqual(locked);
        // Unchanged entries are the fetched objects themselves (what lets the diff skip them).
        for (const d of locked) if (kept.some((k) => k.name === d.name)) expect(next.messages).toContain(d);
      }),
      { numRuns: 150 },
    );
  });

  it('a lockfile edited by hand out of the layout gives the errors of a full parse, not a misread or a raw error', () => {
    const lock = roundTrip({ lockfileVersion: LOCKFILE_VERSION, source: { baseUrl: 'https://x.test', query: {} }, settings: {}, messages: [] });
    const descriptor = (name: string, mNum: number): Descriptor => ({ name, mNum, schemaHash: `H${mNum}`, extra: {} });
    const messages = [descriptor('A', 1), descriptor('B', 2)];
    const next = LockfileText.of({ ...lock, messages }, 'lock');
    const edits: Array<(text: string) => string> = [
      // An entry emptied to {} on its own line, as a hand edit leaves it.
      (text) => text.replace(/"A": \{\n[^]*?\n {4}\},/, '"A": {},'),
      // A trailing comma inside an entry.
      (text) => text.replace('"schemaHash": "H1"', '"schemaHash": "H1",'),
    ];
    for (const edit of edits) {
      const edited = edit(next.text);
      expect(edited).not.toBe(next.text);
      expect(() => lockedDescriptors(new LockfileText(edited, 'lock'), next, messages)).toThrow(fullParseError(edited));
    }
  });

  it('reports an invalid changed entry as a full parse does, also under another head', () => {
    const good: Lockfile = { lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages: [sample('A'), sample('B', 2)] };
    const text = serializeLockfileEntries(good).text.replace('"mNum": 1', '"mNum": "one"');
    const fullError = fullParseError(text);
    expect(fullError).toMatch(/invalid entries:\n {2}messages\["A"\]\.mNum/);
    expect(() => lockedDescriptors(new LockfileText(text, 'lock'), LockfileText.of(good, 'lock'), good.messages)).toThrow(fullError);
    const otherSource = LockfileText.of({ ...good, source: { baseUrl: 'https://x', query: {} } }, 'lock');
    expect(() => lockedDescriptors(new LockfileText(text, 'lock'), otherSource, good.messages)).toThrow(fullError);
  });
});
