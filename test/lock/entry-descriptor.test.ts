/** A descriptor read from an entry schema-sync wrote, on first use, reads as the entry's full parse. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryDescriptor } from '../../src/lock/entry-descriptor.js';
import { descriptorOfOwnEntry } from '../../src/lock/parse.js';
import { serializeLockfileEntries } from '../../src/lock/serialize.js';
import { KNOWN_FIELDS, type Descriptor } from '../../src/model/descriptor.js';
import { LockError } from '../../src/model/errors.js';
import { lockfile } from './arbitraries.js';

const sample: Descriptor = { name: 'Quote', mNum: 42, schemaHash: 'H', actions: ['select'], hasTKey: true, mToken: 'T', staticFilterFields: [], extra: { desc: 'A quote.' } };

/** The entry text the serialiser writes for `descriptor`. */
function entryOf(descriptor: Descriptor): string {
  return serializeLockfileEntries({ lockfileVersion: 1, source: { query: {} }, settings: {}, messages: [descriptor] }).entries.get(descriptor.name)!;
}

describe('entryDescriptor', () => {
  it('reads as the full parse of the entry: every known field, extra and its JSON', () => {
    let deferred = 0;
    fc.assert(
      fc.property(lockfile, (lock) => {
        const { entries } = serializeLockfileEntries(lock);
        for (const [name, text] of entries) {
          const full = descriptorOfOwnEntry(name, text);
          const read = entryDescriptor(name, text, 'schema-sync.lock.json');
          if (full === undefined) {
            // An entry with field descriptors is not taken this way (nor text that is not JSON).
            expect(read).toBeUndefined();
            continue;
          }
          for (const field of KNOWN_FIELDS) expect(read![field]).toEqual(full[field]);
          expect(read!.extra).toEqual(full.extra);
          expect(read!.fields).toBeUndefined();
          expect(JSON.stringify(read)).toBe(JSON.stringify(full));
          // Read on first use: its own keys are only its name and number.
          if (Object.keys(read!).length === 2) deferred++;
        }
      }),
      { numRuns: 150 },
    );
    expect(deferred).toBeGreaterThan(50);
  });

  it('parses the entry only when a field other than its name and number is read', () => {
    // The head as the serialiser writes it, and a tail that is no JSON: nothing reads it until schemaHash is asked for.
    const text = entryOf(sample).replace('"schemaHash": "H"', '"schemaHash": H');
    const read = entryDescriptor('Quote', text, 'schema-sync.lock.json')!;
    expect([read.name, read.mNum]).toEqual(['Quote', 42]);
    const error = (() => {
      try {
        return read.schemaHash;
      } catch (thrown) {
        return thrown;
      }
    })() as LockError;
    expect(error).toBeInstanceOf(LockError);
    expect(error.message).toContain('schema-sync.lock.json: the entry "Quote" is not as schema-sync wrote it');
    expect(error.hint).toContain('SCHEMA_SYNC_CACHE_DIR=off');
  });

  it('takes an entry in another layout as the full parse gives it', () => {
    const text = entryOf(sample).replace('{\n      "mNum": 42,', '{"mNum": 42,');
    expect(entryDescriptor('Quote', text, 'schema-sync.lock.json')).toEqual(descriptorOfOwnEntry('Quote', text));
    expect(entryDescriptor('Quote', text, 'schema-sync.lock.json')).toEqual(sample);
  });
});
