import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueMessage } from '../../src/model/issue-message.js';
import { isMessage, joinMessages, messageText, msg, own, type Message } from '../../src/model/message.js';

/** Values shown in brackets: what the redactor would see. */
const shown = (message: Message) => messageText(message, (value) => `<${value}>`);

describe('msg', () => {
  it.each([
    ['a string is a value', msg`cannot read ${'types.json'}: ${'EACCES'}`, 'cannot read <types.json>: <EACCES>'],
    ['numbers and booleans are the program’s own', msg`${3} message types, fields ${true}`, '3 message types, fields true'],
    ['own text is not a value', msg`${own('message types')} of ${'types'}`, 'message types of <types>'],
    ['a nested message keeps its values apart', msg`${msg`element ${0} (${'"Order"'})`}: ${own('unknown')}`, 'element 0 (<"Order">): unknown'],
    ['values side by side', msg`${'a'}${'b'}`, '<a><b>'],
  ])('%s', (_label, message, want) => {
    expect(shown(message)).toBe(want);
    expect(message.template).toHaveLength(message.values.length + 1);
  });

  it('joins messages with a separator of the program’s own', () => {
    expect(shown(joinMessages([msg`a ${'x'}`, own('b'), msg`${'y'} c`], '\n  '))).toBe('a <x>\n  b\n  <y> c');
    expect(joinMessages([], ', ')).toEqual(own(''));
  });

  it.each([
    [msg`x ${'y'}`, true],
    [{ template: ['a', 'b'], values: [] }, false],
    [{ template: ['a'], values: [1] }, false],
    ['text', false],
  ])('isMessage(%j) is %s (a cache file may hold anything)', (value, want) => {
    expect(isMessage(value)).toBe(want);
  });
});

describe('issueMessage', () => {
  const schema = z
    .object({
      format: z.enum(['text', 'json']),
      rule: z.string().refine((id) => id === 'KNOWN', { error: (issue) => `unknown rule id "${String(issue.input)}"; run schema-sync rules` }),
    })
    .strict();

  it('keeps the input an issue quotes apart, and the keys it does not know', () => {
    const result = schema.safeParse({ format: 'text', rule: 'types', types: 1, error: 2 }, { reportInput: true });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => shown(issueMessage(issue)))).toEqual(['unknown rule id "<types>"; run schema-sync rules', 'Unrecognized keys: "<types>", "<error>"']);
  });

  it('is the program’s own wording when it quotes nothing', () => {
    const result = schema.safeParse({ format: 'types', rule: 'KNOWN' }, { reportInput: true });
    expect(result.error!.issues.map((issue) => shown(issueMessage(issue)))).toEqual(['Invalid option: expected one of "text"|"json"']);
  });
});
