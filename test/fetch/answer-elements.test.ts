/** The scan that finds an answer's elements finds exactly those JSON.parse finds, or gives up. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrayElementSpans } from '../../src/fetch/answer-elements.js';

const texts = (text: string) => {
  const bytes = Buffer.from(text);
  return arrayElementSpans(bytes)?.map(([start, end]) => bytes.toString('utf8', start, end));
};

describe('the elements of an answer', () => {
  it('are the texts of the array JSON.parse reads, however it is laid out', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 4 })), fc.constantFrom(undefined, 1, '\t', ' \r\n'), (elements, indent) => {
        const found = texts(JSON.stringify(elements, null, indent));
        expect(found?.map((text) => JSON.parse(text))).toEqual(JSON.parse(JSON.stringify(elements)));
      }),
      { numRuns: 200, seed: 41 },
    );
  });

  it.each([
    ['[{"a":"]},{\\"\\\\"}, "é€😀"]', ['{"a":"]},{\\"\\\\"}', '"é€😀"']],
    [' [ 1 , true,null ,"x" ] \n', ['1', 'true', 'null', '"x"']],
    ['[]', []],
  ])('of %j', (text, want) => expect(texts(text)).toEqual(want));

  it.each(['', '{}', '[1,,2]', '[1 2]', '[1]x', '[{"a":1}', '["a]', '[1,]', '\u00a0[1]'])('are not told apart in %j', (text) => {
    expect(texts(text)).toBeUndefined();
  });
});
