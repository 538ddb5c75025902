import fc from 'fast-check';
import { isUtf8 } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { blocksAreUtf8 } from '../../src/fetch/utf8.js';

describe('blocksAreUtf8', () => {
  it('says what isUtf8 says of the bytes joined, however they are cut into blocks (inside a character too)', () => {
    const bytes = fc.oneof(
      fc.string({ unit: 'binary' }).map((text) => Buffer.from(text)),
      fc.uint8Array({ maxLength: 40 }).map((array) => Buffer.from(array)),
      fc.tuple(fc.string({ unit: 'binary' }), fc.uint8Array({ minLength: 1, maxLength: 3 })).map(([text, junk]) => Buffer.concat([Buffer.from(text), Buffer.from(junk)])),
    );
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 6 }), (body, cuts) => {
        const at = [...new Set(cuts.map((cut) => cut % (body.length + 1)))].sort((a, b) => a - b);
        const blocks = [0, ...at].map((from, i) => body.subarray(from, [...at, body.length][i]));
        expect(blocksAreUtf8(blocks)).toBe(isUtf8(body));
      }),
      { numRuns: 500, seed: 8 },
    );
  });
});
