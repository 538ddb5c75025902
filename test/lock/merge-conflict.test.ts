/**
 * The current branch's side of a lockfile git left with conflict markers, with LF or CRLF line
 * ends (a checkout with core.autocrlf), in merge and diff3 style.
 */
import { describe, expect, it } from 'vitest';
import { findMergeConflict } from '../../src/lock/merge-conflict.js';

const conflicted = (style: 'merge' | 'diff3') =>
  [
    '{',
    '  "messages": {',
    '<<<<<<< HEAD',
    '    "A": { "mNum": 1 }',
    ...(style === 'diff3' ? ['||||||| base', '    "A": { "mNum": 0 }'] : []),
    '=======',
    '    "A": { "mNum": 2 }',
    '>>>>>>> theirs',
    '  }',
    '}',
    '',
  ].join('\n');

describe('a lockfile with merge conflict markers', () => {
  for (const style of ['merge', 'diff3'] as const) {
    it(`gives our side, with LF and with CRLF line ends (${style} style)`, () => {
      const lf = findMergeConflict(conflicted(style));
      expect(lf?.line).toBe(3);
      expect(JSON.parse(lf!.ours)).toEqual({ messages: { A: { mNum: 1 } } });
      const crlf = findMergeConflict(conflicted(style).replaceAll('\n', '\r\n'));
      expect(crlf?.line).toBe(3);
      expect(crlf?.ours).toBe(lf!.ours.replaceAll('\n', '\r\n'));
      expect(JSON.parse(crlf!.ours)).toEqual({ messages: { A: { mNum: 1 } } });
    });
  }

  it('a text without markers has no conflict', () => {
    expect(findMergeConflict('{\r\n  "messages": {}\r\n}\r\n')).toBeUndefined();
  });
});
