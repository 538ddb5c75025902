import { describe, expect, it } from 'vitest';
import { RefusedError } from '../../src/model/errors.js';
import { checkSafetyRails } from '../../src/run/safety-rails.js';
import { descriptor } from '../diff/descriptor-fixture.js';

const locked = ['A', 'B', 'C', 'D'].map((name, i) => descriptor(name, { mNum: i + 1 }));

describe('checkSafetyRails', () => {
  it('names fewer entitlements as the likely cause of a mass removal, and what to do', () => {
    const refuse = () => checkSafetyRails({ locked, fetched: locked.slice(0, 1) });
    expect(refuse).toThrow(RefusedError);
    expect(refuse).toThrow(/remove 3 of 4 locked message types; nothing was changed\. A likely cause: .* entitled to, and this key has fewer entitlements/);
    try {
      refuse();
    } catch (error) {
      expect((error as RefusedError).hint).toMatch(/API key the lockfile was made with .*--where.*--force/);
    }
    expect(() => checkSafetyRails({ locked, fetched: locked.slice(0, 1), force: true })).not.toThrow();
  });

  it('says the same for an empty listing', () => {
    expect(() => checkSafetyRails({ locked, fetched: [] })).toThrow(/no message types.*fewer entitlements/);
  });

  it('counts a rename (same mNum, new name) as no removal, but not a number a surviving type moved to', () => {
    const renamed = [descriptor('A2', { mNum: 1 }), descriptor('B2', { mNum: 2 }), descriptor('C2', { mNum: 3 }), locked[3]!];
    expect(() => checkSafetyRails({ locked, fetched: renamed })).not.toThrow();
    // D and E survive and move to the numbers of A and B, which are gone with C: 3 of 5 removed.
    const five = [...locked, descriptor('E', { mNum: 5 })];
    const moved = [descriptor('D', { mNum: 2 }), descriptor('E', { mNum: 1 })];
    expect(() => checkSafetyRails({ locked: five, fetched: moved })).toThrow(/remove 3 of 5/);
  });
});
