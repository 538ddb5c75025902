import { describe, expect, it } from 'vitest';

import { commentText, docLines, lineText, stringLiteral } from '../../src/text/safe-text.js';

/** Evaluates a literal the way the generated module will. */
function evaluate(literal: string): unknown {
  return new Function(`'use strict'; return ${literal};`)();
}

const HOSTILE = [
  '',
  'plain',
  "it's",
  '"double"',
  '`back${"tick"}`',
  '${process.exit(1)}',
  "'); globalThis.pwned=1; ('",
  'back\\slash\\',
  '\\',
  'line\nbreak\r\n',
  'ls\u2028ps\u2029',
  'nul\u0000esc\u001b[31m',
  'bidi \u202Eevil\u202C \u2066x\u2069',
  'zero\u200Bwidth\uFEFF',
  'lone \uD800 surrogate \uDC00',
  'pair 😀 ok',
  'Ünïcødé 名前',
  '*/ /* //',
];

describe('stringLiteral', () => {
  it.each(HOSTILE.map((s) => [s]))('round-trips %j', (value) => {
    const literal = stringLiteral(value);
    expect(evaluate(literal)).toBe(value);
    // One line, single-quoted, nothing invisible.
    expect(literal).not.toMatch(/[\n\r\u2028\u2029\u202A-\u202E\u2066-\u2069\u200B\uFEFF]/);
    expect(literal.startsWith("'") && literal.endsWith("'")).toBe(true);
  });

  it('leaves ordinary text readable', () => {
    expect(stringLiteral('AccountRiskRecordV5')).toBe("'AccountRiskRecordV5'");
    expect(stringLiteral("it's")).toBe("'it\\'s'");
    expect(stringLiteral('Ünïcødé')).toBe("'Ünïcødé'");
    expect(stringLiteral('a\u2028b')).toBe("'a\\u2028b'");
  });

  it('never writes two backslashes in a row, which would hide the closing quote from a writer', () => {
    expect(stringLiteral('a\\')).toBe("'a\\u005C'");
    for (const value of HOSTILE) expect(stringLiteral(value)).not.toContain('\\\\');
  });
});

describe('commentText', () => {
  it.each(HOSTILE.map((s) => [s]))('cannot end a comment or a line: %j', (value) => {
    const text = commentText(value);
    expect(text).not.toContain('*/');
    expect(text).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
    // Still a comment: a line comment and a block comment around it parse as nothing.
    expect(evaluate(`(/* ${text} */ 1)`)).toBe(1);
    expect(evaluate(`(// ${text}\n1)`)).toBe(1);
  });
});

describe('docLines', () => {
  it('splits at every line terminator and neutralises comment ends and tags', () => {
    expect(docLines('\n first */ line\r\nsecond\u2028@deprecated\u2029  @see x  \n\n')).toEqual([
      ' first *\\/ line',
      'second',
      '\\@deprecated',
      '  \\@see x',
    ]);
  });

  it('gives no lines for blank text', () => {
    expect(docLines(' \n\t\n')).toEqual([]);
  });
});

describe('lineText', () => {
  it('escapes line breaks only', () => {
    expect(lineText('a\nb */ c')).toBe('a\\nb */ c');
  });
});
