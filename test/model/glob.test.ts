/**
 * Name globs (include / exclude / accept): the matcher agrees with the regular expression it
 * replaced on every small case, and stays linear on a long name a server may send.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatcher } from '../../src/model/scope.js';

/** The old matcher: a regular expression of `.*` and `.` runs (correct, but backtracking). */
function regexMatcher(glob: string): (text: string) => boolean {
  const source = glob.replace(/[.*+?^${}()|[\]\\]/g, (char) => (char === '*' ? '.*' : char === '?' ? '.' : `\\${char}`));
  const pattern = new RegExp(`^${source}$`, 'su');
  return (text) => pattern.test(text);
}

describe('globMatcher', () => {
  it.each([
    ['Order*', 'OrderBook', true],
    ['Order*', 'Orde', false],
    ['*Debug', 'OrderDebug', true],
    ['*Order*Debug*', 'xxOrderyyDebugzz', true],
    ['*Order*Debug*', 'DebugOrder', false],
    ['Ord?r', 'Order', true],
    ['Ord?r', 'Ordr', false],
    ['?', '😀', true],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['', '', true],
    ['*', '', true],
    ['**', 'x', true],
    ['a.b', 'axb', false],
  ])('%s ~ %s → %s', (glob, name, want) => {
    expect(globMatcher(glob)(name)).toBe(want);
  });

  it('agrees with the regular expression on small globs and names', () => {
    const chars = fc.constantFrom('a', 'b', '*', '?', '.', '😀');
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 6 }), fc.string({ unit: fc.constantFrom('a', 'b', '.', '😀', '*', '?'), maxLength: 8 }), (glob, name) => {
        expect(globMatcher(glob)(name)).toBe(regexMatcher(glob)(name));
      }),
      { numRuns: 2000 },
    );
  });

  it('matches a 300 KB name against several stars without backtracking (issue 30, item 6)', () => {
    const name = 'Order'.repeat(60_000);
    expect(globMatcher('*Order*Debug*')(name)).toBe(false);
    expect(globMatcher('*Order*Order*r')(name)).toBe(true);
  });
});
