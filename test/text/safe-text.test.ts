/**
 * The safe-text module: one set of unsafe characters, one encoder per destination. Each row is a
 * character of the set, and what every destination makes of it; the code destinations keep their
 * own tests (test/emit/literals.test.ts), the report ones theirs (test/diff/format-value.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { commentText, displayName, hasUnsafe, inlineText, jsonText, lineText, quoteString, safeJson, stringLiteral, terminalText } from '../../src/text/safe-text.js';

const ROWS = [
  { name: 'ESC', char: '\u001b', json: '\\u001b', code: '\\u001B' },
  { name: 'DEL', char: '\u007f', json: '\\u007f', code: '\\u007F' },
  { name: 'C1 CSI', char: '\u009b', json: '\\u009b', code: '\\u009B' },
  { name: 'right-to-left override', char: '\u202E', json: '\\u202e', code: '\\u202E' },
  { name: 'first strong isolate', char: '\u2068', json: '\\u2068', code: '\\u2068' },
  { name: 'zero-width space', char: '\u200B', json: '\\u200b', code: '\\u200B' },
  { name: 'word joiner', char: '\u2060', json: '\\u2060', code: '\\u2060' },
  { name: 'invisible plus', char: '\u2064', json: '\\u2064', code: '\\u2064' },
  { name: 'BOM', char: '\uFEFF', json: '\\ufeff', code: '\\uFEFF' },
  { name: 'line separator', char: '\u2028', json: '\\u2028', code: '\\u2028' },
  { name: 'paragraph separator', char: '\u2029', json: '\\u2029', code: '\\u2029' },
  { name: 'lone high surrogate', char: '\uD800', json: '\\ud800', code: '\\uD800' },
  { name: 'lone low surrogate', char: '\uDC00', json: '\\udc00', code: '\\uDC00' },
];

describe.each(ROWS)('$name', ({ char, json, code }) => {
  const text = `a${char}b`;
  it.each([
    ['jsonText', jsonText(text), `"a${json}b"`],
    ['jsonText (indented object)', jsonText({ k: text }, 2), `{\n  "k": "a${json}b"\n}`],
    ['quoteString', quoteString(text), `"a${json}b"`],
    ['displayName', displayName(text), `"a${json}b"`],
    ['inlineText', inlineText(text), `a${json}b`],
    ['terminalText', terminalText(text), `a${json}b`],
    ['stringLiteral', stringLiteral(text), `'a${code}b'`],
    ['commentText', commentText(text), `a${code}b`],
    ['lineText', lineText(text), `a${code}b`],
  ])('%s', (_encoder, got, want) => {
    expect(got).toBe(want);
  });

  it('is in the set', () => {
    expect(hasUnsafe(text)).toBe(true);
  });
});

describe('what is safe stays as it is', () => {
  it.each(['plain', 'été', 'a\u{1F600}b', '日本語', '', 'x y'])('%j', (text) => {
    expect(hasUnsafe(text)).toBe(false);
    expect(inlineText(text)).toBe(text);
    expect(jsonText(text)).toBe(JSON.stringify(text));
  });

  it('terminal text and JSON keep their own line feeds (lines and indentation)', () => {
    expect(terminalText('one\ntwo\u202e')).toBe('one\ntwo\\u202e');
    expect(safeJson('{\n  "a": "\u2028"\n}')).toBe('{\n  "a": "\\u2028"\n}');
  });

  it('JSON text parses back to the same value', () => {
    const value = { name: 'Ord\u202Eer\u200B\u2028\u001b\uD800', list: ['\u2066x\u2069'] };
    expect(JSON.parse(jsonText(value, 2))).toEqual(value);
  });
});
