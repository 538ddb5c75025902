/** A listing parsed an element at a time from its bytes: the same value as JSON.parse of the whole text, or no answer (then the whole text is parsed). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArrayElements as parseInBatches } from '../../src/fetch/array-elements.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** JSON.parse of the text as the whole-text path reads it (byte order mark and leading white space left out), or undefined when it throws. */
function wholeParse(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '').trimStart());
  } catch {
    return undefined;
  }
}

/** `body` cut into blocks of `size` bytes (any cut: inside a character, a string, an escape). */
const blocksOf = (body: Buffer, size: number) => Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.subarray(i * size, (i + 1) * size));

/**
 * The elements handed over, or undefined when the bytes were found to be no plain array; each
 * batch must come in order, `first` being the count of those before it. When incomplete, what is
 * left says where: the text before it as many characters as `skipped` says, JSON.parse fails
 * there as it fails on the whole text.
 */
function parseArrayElements(body: Buffer, options: { batchBytes?: number | undefined; blockBytes?: number | undefined }): unknown[] | undefined {
  const elements: unknown[] = [];
  const blocks = blocksOf(body, options.blockBytes ?? Math.max(1, body.length));
  const read = parseInBatches(
    blocks,
    (batch, first) => {
      expect(first).toBe(elements.length);
      expect(batch.length).toBeGreaterThan(0);
      elements.push(...batch);
    },
    options.batchBytes === undefined ? {} : { batchBytes: options.batchBytes },
  );
  expect(blocks).toEqual([]);
  if (read.complete) return elements;
  if (read.skipped === 0) {
    expect(read.rest).toEqual(body);
  } else {
    const text = body.toString('utf8').replace(/^\uFEFF/, '').trimStart();
    expect(text.slice(text.length - read.rest.toString('utf8').length)).toBe(read.rest.toString('utf8'));
    expect(text.length - read.rest.toString('utf8').length).toBe(read.skipped);
  }
  return undefined;
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
      for (const blockBytes of [undefined, 1, 2, 5]) {
        expect(parseArrayElements(bytes(text), { batchBytes, blockBytes })).toEqual(value);
        expect(parseArrayElements(bytes(text), { batchBytes, blockBytes })).toEqual(wholeParse(text));
      }
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
    for (const batchBytes of [undefined, 1, 3]) {
      for (const blockBytes of [undefined, 1, 4]) expect(parseArrayElements(bytes(text), { batchBytes, blockBytes })).toBeUndefined();
    }
  });

  it('any JSON array, as text in any layout: the same value; any cut or damaged one: the same value or no answer', () => {
    const value = fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 });
    fc.assert(
      fc.property(value, fc.boolean(), fc.nat(), fc.constantFrom('', ']', '"', '\\', ',', '{', '}', '['), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), (array, pretty, at, junk, batchBytes, blockBytes) => {
        const text = JSON.stringify(array, null, pretty ? 2 : undefined);
        expect(parseArrayElements(bytes(text), { batchBytes, blockBytes })).toEqual(JSON.parse(text));
        // Damaged: a character removed or one inserted; when parsed, it is what JSON.parse says.
        const cut = at % (text.length + 1);
        for (const damaged of [text.slice(0, cut) + text.slice(cut + 1), text.slice(0, cut) + junk + text.slice(cut)]) {
          const parsed = parseArrayElements(bytes(damaged), { batchBytes, blockBytes });
          if (parsed !== undefined) expect(parsed).toEqual(wholeParse(damaged));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reads the blocks only as far as it needs, and lets go of each once its bytes are copied on', () => {
    const text = JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ name: `T${i}`, desc: 'x'.repeat(i * 7) })));
    const blocks = blocksOf(bytes(text), 64);
    const count = blocks.length;
    const released: Buffer[] = [];
    const unread: number[] = [];
    const read = parseInBatches(blocks, () => unread.push(blocks.length), { batchBytes: 200, release: (block) => released.push(block) });
    expect(read.complete).toBe(true);
    // Each batch came as soon as its bytes were read, not after all of them.
    expect(unread.length).toBeGreaterThan(5);
    expect(unread).toEqual([...unread].sort((a, b) => b - a));
    expect(unread[0]).toBeGreaterThan(count / 2);
    // Every block was let go (the first as the first window), each once.
    expect(new Set(released).size).toBe(released.length);
    expect(released.filter((block) => block.length === 64).length).toBeGreaterThanOrEqual(count - 1);
  });

  it('skips the batches `skip` accepts: not handed over, counted all the same', () => {
    const text = JSON.stringify(Array.from({ length: 30 }, (_, i) => ({ i, keep: i % 3 === 0 })));
    const seen: Array<{ first: number; elements: unknown[] }> = [];
    const read = parseInBatches(blocksOf(bytes(text), 16), (elements, first) => seen.push({ first, elements }), { batchBytes: 1, skip: (batch) => !batch.includes('true') });
    expect(read.complete).toBe(true);
    expect(seen).toEqual(Array.from({ length: 10 }, (_, k) => ({ first: 3 * k, elements: [{ i: 3 * k, keep: true }] })));
  });
});

