import { describe, expect, it } from 'vitest';
import { ANNOTATIONS_SHOWN, fitAnnotations, fitToBudget, type Annotation, type LeftOut, type ReportSection } from '../../src/diff/fit-budget.js';

const leftOut = (left: readonly LeftOut[]) => `cut: ${left.map(({ noun, count }) => `${count} ${noun}`).join(', ')}`;
const fit = (sections: ReportSection[], limit: number, size?: (text: string) => number) => fitToBudget(sections, { limit, separator: '\n\n', leftOut, size });

describe('fitToBudget', () => {
  const sections: ReportSection[] = [
    { head: '# T' },
    { head: 'rows:', items: ['aaaa', 'bbbb', 'cccc'], noun: 'row' },
    { head: 'files:', items: ['x', 'y'], tail: 'hint', noun: 'file' },
  ];
  const full = '# T\n\nrows:\naaaa\nbbbb\ncccc\n\nfiles:\nx\ny\nhint';

  it.each<[string, number, string]>([
    ['everything when it fits', full.length, full],
    ['a prefix of the items, then what was left out', 40, '# T\n\nrows:\naaaa\nbbbb\n\ncut: 1 row, 2 file'],
    ['a section goes whole when not even its first item fits', 25, '# T\n\ncut: 3 row, 2 file'],
    ['the fixed sections and the line, whatever the limit', 1, '# T\n\ncut: 3 row, 2 file'],
  ])('%s', (_label, limit, want) => {
    const text = fit(sections, limit);
    expect(text).toBe(want);
    if (limit > 20) expect(text.length).toBeLessThanOrEqual(limit);
  });

  it('keeps a head and tail with the first item of their section', () => {
    const [x, y] = ['x'.repeat(30), 'y'.repeat(30)];
    expect(fit([{ head: 'files:', items: [x, y], tail: 'hint', noun: 'file' }], 60)).toBe(`files:\n${x}\nhint\n\ncut: 1 file`);
  });

  it('keeps the lowest ranks when cutting, in the order given', () => {
    const ranked: ReportSection[] = [{ items: ['safe-one-line', 'bad', 'safe-two-line', 'worse'], ranks: [2, 1, 2, 0], noun: 'line' }];
    expect(fit(ranked, 100)).toBe('safe-one-line\nbad\nsafe-two-line\nworse');
    expect(fit(ranked, 30)).toBe('bad\nworse\n\ncut: 2 line');
  });

  it('measures as the destination does', () => {
    const escaped = (text: string) => text.replace(/\n/g, '%0A').length;
    // Measured by length, `h\naaaa\nbbbb\ncut: 1 x` would fit; escaped, it does not.
    const text = fitToBudget([{ head: 'h' }, { items: ['aaaa', 'bbbb', 'cccc'], noun: 'x' }], { limit: 21, separator: '\n', leftOut, size: escaped });
    expect(text).toBe('h\naaaa\ncut: 2 x');
    expect(escaped(text)).toBeLessThanOrEqual(21);
  });
});

describe('fitAnnotations', () => {
  const many = (kind: Annotation['kind'], count: number): Annotation[] => Array.from({ length: count }, (_, i) => ({ kind, line: `${kind} ${i}` }));
  const summary = (left: readonly LeftOut[]): Annotation => ({ kind: 'notice', line: leftOut(left) });

  it('keeps them all when GitHub shows them all', () => {
    const all = [...many('error', ANNOTATIONS_SHOWN), ...many('warning', 3), ...many('notice', ANNOTATIONS_SHOWN)];
    expect(fitAnnotations(all, summary)).toEqual(all);
  });

  it('keeps the first of each kind and ends with one notice of the rest', () => {
    const fitted = fitAnnotations([...many('error', 12), ...many('warning', 2), ...many('notice', 15)], summary);
    const count = (kind: string) => fitted.filter((annotation) => annotation.kind === kind).length;
    expect([count('error'), count('warning'), count('notice')]).toEqual([ANNOTATIONS_SHOWN, 2, ANNOTATIONS_SHOWN]);
    expect(fitted.at(-1)).toEqual({ kind: 'notice', line: 'cut: 2 error, 6 notice' });
    expect(fitted.slice(0, 2).map((annotation) => annotation.line)).toEqual(['error 0', 'error 1']);
  });

  it('keeps the lowest ranks of a kind, shown in the order given', () => {
    const ranked = [...many('error', 11), { kind: 'error' as const, line: 'on your code', rank: -1 }];
    expect(fitAnnotations(ranked, summary).map((annotation) => annotation.line)).toEqual([...many('error', 9).map((a) => a.line), 'on your code', 'cut: 2 error']);
  });
});
