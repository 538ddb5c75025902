/**
 * A writing run plans from `LockfileText.planInput(true)`: the plan keeps no descriptor and gets
 * each again from its lockfile entry when a module renders (a spilled lockfile also gives its
 * messages from the entries). Its files must be exactly the plan of the descriptors themselves:
 * same paths, inputs and texts (or the same error).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plan, type PlanInput } from '../../src/emit/plan.js';
import { LockfileText } from '../../src/lock/lockfile-text.js';
import { sortDescriptors } from '../../src/model/descriptor.js';
import { lockfile } from './arbitraries.js';

/** Every planned file as path, input and text, or the error the plan or a render throws. */
async function planned(input: PlanInput, fields: boolean): Promise<unknown> {
  try {
    const files = await plan(input, { fields, int64: 'bigint' });
    // A file whose bytes are made without its whole text (the index) has the bytes of its text.
    return files.map((file) => [file.path, file.input, file.render(), file.renderBytes?.().equals(Buffer.from(file.render(), 'utf8')) ?? true]);
  } catch (error) {
    return { error: String(error) };
  }
}

describe('LockfileText.planInput', () => {
  it('a plan that gets each descriptor again from its entry gives the files of the descriptors themselves', async () => {
    await fc.assert(
      fc.asyncProperty(lockfile, fc.boolean(), fc.boolean(), async (lock, fields, spill) => {
        const expected = await planned(structuredClone(lock), fields);
        // Held, or spilled to a file (a large listing): spilled, the plan reads the messages from the entries.
        const text = LockfileText.of(structuredClone(lock), 'lock', { spillChars: spill ? 0 : Infinity });
        const input = text.planInput(true);
        expect(input.descriptorOf).toBeDefined();
        const got = await planned(input, fields);
        expect(got).toEqual(expected);
        if (Array.isArray(got)) expect(got.every((file) => file[3] === true)).toBe(true);
        // Let go, the parse is made again from the text, equal to the first.
        expect(text.parse().messages).toEqual(sortDescriptors(lock.messages));
      }),
      { numRuns: 150 },
    );
  });

  it('without letGo, or for a lockfile not in schema-sync layout, the plan reads the parsed descriptors', () => {
    const lock = { lockfileVersion: 1 as const, source: { query: {} }, settings: {}, messages: [{ name: 'A', mNum: 1, schemaHash: 'AB', extra: {} }] };
    const text = LockfileText.of(structuredClone(lock), 'lock');
    expect(text.planInput(false).descriptorOf).toBeUndefined();
    const byHand = new LockfileText(JSON.stringify(JSON.parse(text.text), null, 3), 'lock');
    expect(byHand.planInput(true).descriptorOf).toBeUndefined();
  });
});
