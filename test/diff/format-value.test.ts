import { describe, expect, it } from 'vitest';
import { formatValue } from '../../src/diff/format-value.js';
import { displayName, quoteString } from '../../src/text/safe-text.js';

describe('formatValue', () => {
  const cases: { name: string; given: unknown; want: string }[] = [
    { name: 'absent', given: undefined, want: '(absent)' },
    { name: 'null', given: null, want: 'null' },
    { name: 'number', given: 42, want: '42' },
    { name: 'boolean', given: false, want: 'false' },
    { name: 'string', given: 'SystemData', want: '"SystemData"' },
    { name: 'empty string', given: '', want: '""' },
    { name: 'array', given: ['select', 'insert'], want: '["select", "insert"]' },
    { name: 'object, keys sorted', given: { b: [1], a: { c: null } }, want: '{"a": {"c": null}, "b": [1]}' },
    { name: 'newline and ESC escaped', given: 'a\nb\u001b[31m', want: '"a\\nb\\u001b[31m"' },
    {
      name: 'C1 CSI, DEL, line separator, bidi override',
      given: '\u009b\u007f\u2028\u202e',
      want: '"\\u009b\\u007f\\u2028\\u202e"',
    },
    { name: 'lone surrogate', given: 'x\ud800y', want: '"x\\ud800y"' },
    { name: 'astral character kept', given: 'a😀', want: '"a😀"' },
    { name: 'unsafe object key', given: { 'k\r': 1 }, want: '{"k\\r": 1}' },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    expect(formatValue(given)).toBe(want);
  });
});

describe('displayName', () => {
  const cases: { name: string; given: string; want: string }[] = [
    { name: 'plain name stays bare', given: 'Order Line', want: 'Order Line' },
    { name: 'non-ASCII letters stay bare', given: 'Größe', want: 'Größe' },
    { name: 'empty is quoted', given: '', want: '""' },
    { name: 'padded is quoted', given: ' A', want: '" A"' },
    { name: 'quote is quoted', given: 'a"b', want: '"a\\"b"' },
    { name: 'backslash is quoted', given: 'a\\nb', want: '"a\\\\nb"' },
    { name: 'line break is escaped', given: 'A\nB', want: '"A\\nB"' },
    { name: 'ANSI escape is escaped', given: '\u001b[2JA', want: '"\\u001b[2JA"' },
    { name: 'zero-width space is escaped', given: 'A\u200bB', want: '"A\\u200bB"' },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    expect(displayName(given)).toBe(want);
  });

  it('quoteString never yields a control character or line break', () => {
    let all = '';
    for (let code = 0; code < 0x3000; code++) all += String.fromCharCode(code);
    expect(quoteString(all)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202e]/);
  });
});
