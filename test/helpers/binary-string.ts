/**
 * `fc.string({ unit: 'binary' })` without its start-up cost: the same arbitrary (any code point
 * but a lone surrogate), drawing the same strings from the same seed, but it knows the index of
 * a character by arithmetic. fast-check's own unit looks the characters of its dangerous strings
 * up in a table of all 1,112,064 code points, built on first use in each test worker: seconds of
 * CPU per worker for what two comparisons say.
 */
import fc from 'fast-check';

/** Code points below the surrogates, and how far the rest are shifted past them. */
const SURROGATES_START = 0xd800;
const SURROGATES = 0x800;
const UNITS = 0x10ffff + 1 - SURROGATES;

/**
 * One code point, as fast-check's `binary` unit draws it: an index in [0, 1,112,064) mapped past
 * the surrogates (its `mapToConstant` over the ranges [0, 0xd7ff] and [0xe000, 0x10ffff]).
 */
const binaryUnit = fc.nat({ max: UNITS - 1 }).map(
  (index) => String.fromCodePoint(index < SURROGATES_START ? index : index + SURROGATES),
  (value) => {
    const code = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (code === undefined || String.fromCodePoint(code) !== value || (code >= SURROGATES_START && code < SURROGATES_START + SURROGATES)) {
      throw new Error('not one code point of the binary unit');
    }
    return code < SURROGATES_START ? code : code - SURROGATES;
  },
);

/** `fc.string({ unit: 'binary', ...constraints })`, the same strings from the same seed. */
export function binaryString(constraints: Omit<fc.StringConstraints, 'unit'> = {}): fc.Arbitrary<string> {
  return fc.string({ ...constraints, unit: binaryUnit });
}
