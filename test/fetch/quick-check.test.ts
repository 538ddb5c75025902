/**
 * The plain checks of quick-check.ts stand in for zod on the hot path, so they must never accept
 * what zod rejects, and what they accept must normalise exactly as zod's output does. Checked
 * over elements whose every field is either a valid value or arbitrary JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseMessage } from '../../src/fetch/normalise.js';
import { parseListing } from '../../src/fetch/parse-listing.js';
import { isPlainElement, isPlainMessage } from '../../src/fetch/quick-check.js';
import { wireElementSchema, wireMessageSchema } from '../../src/fetch/wire-schema.js';

const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, null, -0, -1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, '', ' ', 'Yes', 'yes ', 'no\n', 'Y', 'true', true, false, [], ['a', 1], {}, ['S']),
);
const validFlag = fc.oneof(fc.boolean(), fc.constantFrom('Yes', 'No', 'YES', 'no', ' yEs ', 'No\t', '\nno'));
const validList = fc.oneof(fc.string({ maxLength: 8 }), fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }));
const validMessage = {
  name: fc.string({ minLength: 1, maxLength: 6 }),
  mNum: fc.oneof(fc.nat(), fc.constantFrom(0, Number.MAX_SAFE_INTEGER)),
  schemaHash: fc.string({ maxLength: 6 }),
  actions: validList,
  hasTKey: validFlag,
  hasEKey: validFlag,
  hasOKey: validFlag,
  hasCF: validFlag,
  mToken: fc.string({ maxLength: 6 }),
  staticFilterFields: validList,
};

/** Each known field valid, arbitrary, or absent; plus some unknown fields. */
const message = fc
  .record({
    ...Object.fromEntries(Object.entries(validMessage).map(([key, valid]) => [key, fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: junk })])),
    desc: fc.option(fc.string({ maxLength: 5 }), { nil: undefined }),
    pkey: fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }),
  }, { requiredKeys: Object.keys(validMessage).filter((k) => k !== 'mToken') as never[] })
  .map((record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)));

const element = fc.record(
  {
    header: fc.oneof(fc.record({ msgType: fc.oneof(fc.string({ maxLength: 4 }), junk) }, { requiredKeys: [] }), fc.record({ mTyp: fc.oneof(fc.string({ maxLength: 4 }), junk) }), junk),
    message: fc.oneof({ weight: 8, arbitrary: message }, { weight: 1, arbitrary: junk }),
  },
  { requiredKeys: ['message'] },
);

describe('quick checks', () => {
  it('accept an element only when zod accepts it', () => {
    fc.assert(
      fc.property(fc.oneof(element, junk), (value) => {
        if (isPlainElement(value)) expect(wireElementSchema.safeParse(value).success).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('accept a message only when zod accepts it, and normalise it as zod’s output', () => {
    let accepted = 0;
    fc.assert(
      fc.property(message, (raw) => {
        if (!isPlainMessage(raw)) return;
        accepted++;
        const zod = wireMessageSchema.safeParse(raw);
        expect(zod.success).toBe(true);
        const warnings: string[][] = [[], []];
        const quick = normaliseMessage(raw, raw, (w) => warnings[0]!.push(w));
        const viaZod = normaliseMessage(zod.data!, raw, (w) => warnings[1]!.push(w));
        expect(quick).toEqual(viaZod);
        expect(warnings[0]).toEqual(warnings[1]);
      }),
      { numRuns: 3000 },
    );
    // The generator must reach the accepting side often, or the property says little.
    expect(accepted).toBeGreaterThan(300);
  });

  it('leave the wording of errors to zod', () => {
    const listing = [{ header: { msgType: 'MsgDesc' }, message: { ...baseMessage(), hasCF: 'maybe', mNum: -1 } }];
    expect(() => parseListing(listing, { origin: 'test' })).toThrow(/field message\.mNum: expected a non-negative integer, got -1[\s\S]*field message\.hasCF: expected "Yes" or "No"/);
  });
});

function baseMessage() {
  return { name: 'Order', mNum: 1, schemaHash: 'A', actions: 'SI', hasTKey: 'Yes', hasEKey: 'No', hasOKey: false, hasCF: true, mToken: 'T', staticFilterFields: 'a,b' };
}
