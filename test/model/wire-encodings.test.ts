import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readActions, readFlag, readList, type ActionsValue } from '../../src/model/wire-encodings.js';
import { KNOWN_ACTIONS } from '../../src/model/descriptor.js';
import { messageText, type Message } from '../../src/model/message.js';

const ALL = ['select', 'insert', 'update', 'replace', 'delete'];

describe('readActions: every encoding real servers use', () => {
  it.each<[label: string, value: ActionsValue, actions: string[]]>([
    ['letters', 'SIURD', ALL],
    ['letters in any order', 'DURIS', ALL],
    ['some letters', 'SD', ['select', 'delete']],
    ['lower-case letters', 'siu', ['select', 'insert', 'update']],
    ['letters separated', 'S, I | D', ['select', 'insert', 'delete']],
    ['flag names with commas', 'Select,Insert', ['select', 'insert']],
    ['flag names with pipes, upper case', 'SELECT|UPDATE', ['select', 'update']],
    ['flag names with spaces, lower case', 'delete insert', ['insert', 'delete']],
    ['flag names with comma and space', 'Replace, Select', ['select', 'replace']],
    ['prefixed enum names', 'MLINKACTIONS_SELECT|MLINKACTIONS_DELETE', ['select', 'delete']],
    ['prefixed enum names, lower case', 'mlinkactions_update', ['update']],
    ['a bit mask', 31, ALL],
    ['a bit mask of one', 1, ['select']],
    ['a bit mask as a string', '3', ['select', 'insert']],
    ['a bit mask with spaces around', ' 24 ', ['replace', 'delete']],
    ['bit masks in a list', '1|16', ['select', 'delete']],
    ['an array of names', ['Select', 'Insert'], ['select', 'insert']],
    ['an array of enum names', ['MLINKACTIONS_SELECT', 'MLINKACTIONS_REPLACE'], ['select', 'replace']],
    ['an array of masks', [1, 4], ['select', 'update']],
    ['an array mixing encodings', ['S', 'Insert', 4, '8'], ['select', 'insert', 'update', 'replace']],
    ['an array of letter strings', ['SI', 'UD'], ['select', 'insert', 'update', 'delete']],
    ['repeats, once each', 'SS,Select,1', ['select']],
    ['the normalised names themselves', ['select', 'delete'], ['select', 'delete']],
    ['an empty string', '', []],
    ['white space only', '  ', []],
    ['separators only', ' , | ', []],
    ['an empty array', [], []],
    ['a zero mask', 0, []],
    ['a zero mask as a string', '0', []],
  ])('%s: %j', (_label, value, actions) => {
    expect(readActions(value)).toEqual({ actions, unknownLetters: [] });
  });

  it.each<[label: string, value: ActionsValue, actions: string[], unknown: string[]]>([
    ['an unknown letter among known ones', 'SXD', ['select', 'delete', 'X'], ['X']],
    ['an unknown letter alone', 'X', ['X'], ['X']],
    ['an unknown lower-case letter', 'sq', ['select', 'q'], ['q']],
    ['the same unknown letter twice', 'XSX', ['select', 'X'], ['X']],
    ['unknown letters in separate tokens, sorted', 'Z,SX', ['select', 'X', 'Z'], ['X', 'Z']],
    ['an unknown letter in an array', ['S', 'Q'], ['select', 'Q'], ['Q']],
  ])('keeps %s: %j', (_label, value, actions, unknownLetters) => {
    expect(readActions(value)).toEqual({ actions, unknownLetters });
  });

  it.each<[label: string, value: ActionsValue, part?: string | number]>([
    ['a misspelt name', 'Selct', undefined],
    ['a misspelt name among good ones', 'Select,Insrt', 'Insrt'],
    ['an upper-case word of unknown letters', 'SELCT', undefined],
    ['mixed-case letters', 'Ides', undefined],
    ['a mask beyond the enum', 32, undefined],
    ['a mask string beyond the enum', '42', undefined],
    ['a negative mask', -1, undefined],
    ['a fractional mask', 1.5, undefined],
    ['a huge mask string', '99999999999999999999', undefined],
    ['a mask inside a list', 'Select|64', '64'],
    ['punctuation', 'S;I', undefined],
    ['an unknown enum prefix', 'ACTIONS_SELECT', undefined],
    ['a bad item in an array', ['Select', 'Nope'], 'Nope'],
    ['a bad number in an array', ['S', 99], 99],
  ])('refuses %s: %j', (_label, value, part) => {
    const read = readActions(value);
    expect(read).toHaveProperty('problem');
    const problem = messageText((read as { problem: Message }).problem);
    expect(problem).toMatch(/^expected action letters \("SIURD"\), flag names .* a bit mask 0\.\.31, or an array of these/);
    if (part !== undefined) expect(problem).toContain(`${JSON.stringify(part)} is none of these`);
  });

  it('never splits a word into letters: any string reads as the grammar says, or is refused', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: fc.constantFrom('S', 'I', 'x', 'e', 'l', 'c', 't', ',', '|', ' ', '1', '3'), maxLength: 10 })), (value) => {
        const read = readActions(value);
        if ('problem' in read) return;
        // Known actions once each, in bit order; every unknown action is a single letter, and
        // no token held two different unknown letters.
        const known = read.actions.filter((a) => (KNOWN_ACTIONS as readonly string[]).includes(a));
        expect(known).toEqual(KNOWN_ACTIONS.filter((a) => known.includes(a)));
        expect(read.actions.slice(known.length)).toEqual(read.unknownLetters);
        for (const letter of read.unknownLetters) expect(letter).toMatch(/^[A-Za-z]$/);
        for (const token of value.split(/[\s,|]+/)) {
          const unknown = new Set([...token].filter((c) => /[A-Za-z]/.test(c) && !'SIURD'.includes(c.toUpperCase())));
          if (!/^(mlinkactions_)?(select|insert|update|replace|delete)$/i.test(token)) expect(unknown.size).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 500, seed: 17 },
    );
  });
});

describe('readFlag: every encoding of a yes/no flag', () => {
  it.each<[value: string | boolean | number, expected: boolean]>([
    ['Yes', true],
    ['No', false],
    ['YES', true],
    ['no', false],
    [' yEs ', true],
    [true, true],
    [false, false],
    ['YESNO_YES', true],
    ['YESNO_NO', false],
    ['yesno_yes', true],
    [1, true],
    [2, false],
    ['1', true],
    ['2', false],
  ])('%j is %s', (value, expected) => {
    expect(readFlag(value)).toBe(expected);
  });
});

describe('readList: staticFilterFields and eSet, as a comma list or an array', () => {
  it.each<[value: string | string[], expected: string[]]>([
    ['accnt,clientFirm', ['accnt', 'clientFirm']],
    [' accnt , clientFirm ,', ['accnt', 'clientFirm']],
    ['', []],
    [['Buy', 'Sell'], ['Buy', 'Sell']],
    [[' Buy', '', 'Sell '], ['Buy', 'Sell']],
    [[], []],
  ])('%j is %j', (value, expected) => {
    expect(readList(value)).toEqual(expected);
  });
});
