/** utf8Of: the bytes of pieces run together are the bytes of their text, whatever the characters. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Of } from '../../src/util/utf8-of.js';

describe('utf8Of', () => {
  it('gives the UTF-8 of the text the pieces make, one-byte and two-byte pieces mixed', () => {
    const piece = fc.string({ unit: fc.constantFrom('a', 'é', '—', '😀', '\n', '"', '\u0000') });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        expect(utf8Of(pieces).equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
      }),
    );
  });
});
