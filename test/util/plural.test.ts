import { describe, expect, it } from 'vitest';
import { plural } from '../../src/util/plural.js';

describe('plural', () => {
  it.each([
    { count: 0, noun: 'file', want: '0 files' },
    { count: 1, noun: 'file', want: '1 file' },
    { count: 2, noun: 'file', want: '2 files' },
    { count: 1, noun: 'try', nouns: 'tries', want: '1 try' },
    { count: 4, noun: 'try', nouns: 'tries', want: '4 tries' },
  ])('$count $noun → $want', ({ count, noun, nouns, want }) => {
    expect(plural(count, noun, nouns)).toBe(want);
  });
});
