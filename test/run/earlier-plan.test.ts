/**
 * A pull's plan that takes the inputs of unchanged types from the plan of the lockfile it found
 * (`earlier-plan.ts`) is the plan made anew: the same paths with the same inputs, whatever
 * changed, with fields on and off, for each target.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plan, type PlanSettings } from '../../src/emit/plan.js';
import { openIncremental } from '../../src/incremental/index.js';
import { LockfileText } from '../../src/lock/lockfile-text.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { LOCKFILE_VERSION, type Lockfile } from '../../src/model/lockfile.js';
import { earlierPlan } from '../../src/run/earlier-plan.js';
import { hashOfParts } from '../../src/util/hash.js';
import { ManifestText } from '../../src/write/manifest.js';

// Names that differ only by case share a folded stem (their stems get the suffix).
const NAMES = ['Order', 'ORDER', 'Trade', 'Quote', 'quote', 'Risk', 'LiveRisk', 'Spot'];

/** A descriptor of name `name`, number `mNum`; `variant` picks the values a change may touch. */
function descriptor(name: string, mNum: number, variant: number, fields: boolean): Descriptor {
  return {
    name,
    mNum: variant % 5 === 4 ? mNum + 100 : mNum,
    schemaHash: `H${variant}`,
    actions: variant % 2 === 0 ? ['select'] : ['select', 'insert'],
    hasTKey: variant % 3 === 0,
    hasEKey: false,
    hasOKey: false,
    hasCF: false,
    mToken: 'T',
    staticFilterFields: [],
    extra: { desc: `d${variant % 4}` },
    ...(fields && { fields: [{ name: 'okey', fType: variant % 2 === 0 ? 'Long' : 'Text', isPkey: variant % 3 !== 1, extra: {} }] }),
  };
}

const case_ = fc.record({
  count: fc.integer({ min: 1, max: NAMES.length }),
  before: fc.array(fc.nat(9), { minLength: NAMES.length, maxLength: NAMES.length }),
  after: fc.array(fc.nat(9), { minLength: NAMES.length, maxLength: NAMES.length }),
  // Which types change (bit i: the i-th), and whether one is added (the layout changes).
  changed: fc.nat(255),
  added: fc.boolean(),
  target: fc.constantFrom('ts' as const, 'js+dts' as const),
  fields: fc.boolean(),
});

const lockfileOf = (messages: Descriptor[], settings: Lockfile['settings']) => LockfileText.of({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings, messages }, 'lock');
const inputs = (files: ReadonlyArray<{ path: string; input: string }>) => files.map(({ path, input }) => [path, input]);

describe('earlierPlan', () => {
  it('gives the plan made anew: the same paths and inputs', async () => {
    await fc.assert(
      fc.asyncProperty(case_, async ({ count, before, after, changed, added, target, fields }) => {
        const names = NAMES.slice(0, count);
        const settings: PlanSettings = { target, fields };
        const was = names.map((name, i) => descriptor(name, i, before[i]!, fields));
        const now = names.map((name, i) => ((changed >> i) & 1 ? descriptor(name, i, after[i]!, fields) : was[i]!));
        if (added) now.push(descriptor('Added', 99, 0, fields));
        // The lockfile found is read from disk; the pull's is made of its descriptors.
        const found = new LockfileText(lockfileOf(was, settings).text, 'lock');
        const made = lockfileOf(now, settings);
        const manifest = new Map((await plan(found.parse(), settings)).map(({ path, input }) => [path, { input, sha: '' }]));
        const cache = { ...openIncremental('out', undefined), outputPlan: () => hashOfParts([found.hash, 'settings']) };
        const earlier = earlierPlan(cache, new ManifestText('{}', 'out', manifest), { before: found, after: made }, 'settings', false);
        expect(earlier === undefined).toBe(added);
        expect(inputs(await plan(made.parse(), settings, earlier))).toEqual(inputs(await plan(made.parse(), settings)));
      }),
      { numRuns: 60 },
    );
  });

  it('takes nothing when the manifest lists another plan, or with prettier', () => {
    const settings = { target: 'ts' as const };
    const lockfile = lockfileOf([descriptor('Order', 1, 0, false)], settings);
    const manifest = new ManifestText('{}', 'out', new Map());
    const recorded = (key: string) => ({ ...openIncremental('out', undefined), outputPlan: () => key });
    const lockfiles = { before: lockfile, after: lockfile };
    expect(earlierPlan(recorded(hashOfParts([lockfile.hash, 'settings'])), manifest, lockfiles, 'settings', false)).toBeDefined();
    expect(earlierPlan(recorded(hashOfParts([lockfile.hash, 'other settings'])), manifest, lockfiles, 'settings', false)).toBeUndefined();
    expect(earlierPlan(recorded(hashOfParts([lockfile.hash, 'settings'])), manifest, lockfiles, 'settings', true)).toBeUndefined();
    expect(earlierPlan(recorded(hashOfParts([lockfile.hash, 'settings'])), undefined, lockfiles, 'settings', false)).toBeUndefined();
  });
});
