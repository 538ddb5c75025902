/** A listing parsed an element at a time from its bytes: the same value as JSON.parse of the whole text, or no answer (then the whole text is parsed). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArrayElements as parseInBatches } from '../../src/fetch/array-elements.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

/**
 * The elements handed over, or undefined when the bytes were found to be no plain array; each
 * batch must come in order, `first` being the count of those before it.
 */
function parseArrayElements(body: Buffer, options: { batchBytes?: number | undefined }): unknown[] | undefined {
  const elements: unknown[] = [];
  const array = parseInBatches(
    body,
    (batch, first) => {
      expect(first).toBe(elements.length);
      expect(batch.length).toBeGreaterThan(0);
      elements.push(...batch);
    },
    options.batchBytes === undefined ? {} : { batchBytes: options.batchBytes },
  );
  return array ? elements : undefined;
}

/** JSON.parse of the text as the whole-text path reads it (byte order mark and leading white space left out), or undefined when it throws. */
function wholeParse(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '').trimStart());
  } catch {
    return undefined;
  }
}

describe('parseArrayElements', () => {
  it.each([
    ['[]', []],
    ['  \r\n\t[ \n ]  \n', []],
    ['\uFEFF[1]', [1]],
    ['[{"a":"]}\\"\\\\"},[1,[2,{"b":"{"}]],"x,y",null,true,-1.5e3]', [{ a: ']}"\\' }, [1, [2, { b: '{' }]], 'x,y', null, true, -1500]],
    ['[{"__proto__":{"x":1}}]', JSON.parse('[{"__proto__":{"x":1}}]')],
    ['["\\u2028 é 😀 \\ud83d\\ude00"]', ['\u2028 é 😀 😀']],
  ])('%s parses as JSON.parse does, in batches of any size', (text, value) => {
    for (const batchBytes of [undefined, 1, 3]) {
      expect(parseArrayElements(bytes(text), { batchBytes })).toEqual(value);
      expect(parseArrayElements(bytes(text), { batchBytes })).toEqual(wholeParse(text));
    }
  });

  it.each([
    '{"a":1}',
    '1',
    '',
    '[1,]',
    '[,1]',
    '[1,,2]',
    '[1 2]',
    '[1]x',
    '[1][2]',
    '[1',
    '["abc]',
    '["a\\"]',
    '[}',
    '[{]',
    '[{"a":1}}]',
    '[[1]',
    '[ , ]',
    '\u00a0[1]',
    '[1, ]',
    '[1,2, ]',
    '[[1], ]',
  ])('%j: no answer, left to the whole-text parse, in batches of any size', (text) => {
    for (const batchBytes of [undefined, 1, 3]) expect(parseArrayElements(bytes(text), { batchBytes })).toBeUndefined();
  });

  it('any JSON array, as text in any layout: the same value; any cut or damaged one: the same value or no answer', () => {
    const value = fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 });
    fc.assert(
      fc.property(value, fc.boolean(), fc.nat(), fc.constantFrom('', ']', '"', '\\', ',', '{', '}', '['), fc.integer({ min: 1, max: 40 }), (array, pretty, at, junk, batchBytes) => {
        const text = JSON.stringify(array, null, pretty ? 2 : undefined);
        expect(parseArrayElements(bytes(text), { batchBytes })).toEqual(JSON.parse(text));
        // Damaged: a character removed or one inserted; when parsed, it is what JSON.parse says.
        const cut = at % (text.length + 1);
        for (const damaged of [text.slice(0, cut) + text.slice(cut + 1), text.slice(0, cut) + junk + text.slice(cut)]) {
          const parsed = parseArrayElements(bytes(damaged), { batchBytes });
          if (parsed !== undefined) expect(parsed).toEqual(wholeParse(damaged));
        }
      }),
      { numRuns: 400 },
    );
  });
});
