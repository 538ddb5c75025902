import { describe, expect, it } from 'vitest';

import { planNames } from '../../src/emit/index.js';
import { fileStemsOf, keptStems, MAX_STEM_LENGTH, shareFileByCase, toIdentifier } from '../../src/emit/naming.js';
import { EmitError } from '../../src/model/errors.js';

describe('toIdentifier', () => {
  const cases: [given: string, want: string][] = [
    ['AccountRiskRecordV5', 'AccountRiskRecordV5'],
    ['$dollar_ok', '$dollar_ok'],
    ['constructor', 'constructor'],
    ['toString', 'toString'],
    ['class', '_class'],
    ['default', '_default'],
    ['await', '_await'],
    ['yield', '_yield'],
    ['let', '_let'],
    ['static', '_static'],
    ['implements', '_implements'],
    ['eval', '_eval'],
    ['arguments', '_arguments'],
    ['undefined', '_undefined'],
    ['NaN', '_NaN'],
    ['string', '_string'],
    ['as', '_as'],
    ['__proto__', '___proto__'],
    ['messages', '_messages'],
    ['MessageDescriptor', '_MessageDescriptor'],
    ['CON', '_CON'],
    ['nul', '_nul'],
    ['Com1', '_Com1'],
    ['LPT9', '_LPT9'],
    ['CONSOLE', 'CONSOLE'],
    ['my-type', 'my_type'],
    ['v1.2', 'v1_2'],
    ['a/b', 'a_b'],
    ['..', '__'],
    ['.hidden', '_hidden'],
    ['../../etc/passwd', '______etc_passwd'],
    ['C:\\x', 'C__x'],
    ['123abc', '_123abc'],
    ['Ünïcødé', '_u00DCn_u00EFc_u00F8d_u00E9'],
    ['名前', '_u540D_u524D'],
    ['😀', '_u1F600'],
    ['', '_'],
  ];
  it.each(cases)('%j → %s', (given, want) => {
    expect(toIdentifier(given)).toBe(want);
  });
});

describe('planNames', () => {
  it('keeps safe names and maps unsafe ones, file stem = identifier', () => {
    const plan = planNames(['Order', 'my-type', 'class']);
    expect([...plan]).toEqual([
      ['Order', { identifier: 'Order', fileStem: 'Order' }],
      ['class', { identifier: '_class', fileStem: '_class' }],
      ['my-type', { identifier: 'my_type', fileStem: 'my_type' }],
    ]);
  });

  it('does not depend on the order of the names', () => {
    const names = ['b', 'a-b', 'Zeta', 'zeta', '名前', 'class'];
    expect([...planNames(names)]).toEqual([...planNames([...names].reverse())]);
  });

  it('throws an EmitError naming both names when two map to one identifier', () => {
    expect(() => planNames(['a-b', 'Other', 'a.b'])).toThrow(EmitError);
    expect(() => planNames(['a-b', 'Other', 'a.b'])).toThrow(
      'Message types "a-b" and "a.b" both map to the identifier a_b, so their generated constants would clash.',
    );
    expect(() => planNames(['class', '_class'])).toThrow(
      'Message types "_class" and "class" both map to the identifier _class',
    );
  });

  it('shows hostile names escaped in the error', () => {
    expect(() => planNames(['a\nb', 'a\rb'])).toThrow('Message types "a\\nb" and "a\\rb" both map');
  });

  it('throws on a name listed twice', () => {
    expect(() => planNames(['A', 'B', 'A'])).toThrow('Message type "A" occurs twice in the listing.');
  });

  it('suffixes every stem of a case-insensitive clash with a hash of the original name', () => {
    const plan = planNames(['Order', 'order', 'ORDER', 'Other']);
    const stems = ['Order', 'order', 'ORDER'].map((n) => plan.get(n)!.fileStem);
    for (const [i, stem] of stems.entries()) {
      expect(stem).toMatch(/^(Order|order|ORDER)__[0-9a-f]{8}$/);
      expect(stem.startsWith(['Order', 'order', 'ORDER'][i]!)).toBe(true);
    }
    expect(new Set(stems.map((s) => s.toLowerCase())).size).toBe(3);
    expect(plan.get('Order')!.identifier).toBe('Order');
    expect(plan.get('Other')!.fileStem).toBe('Other');
    // Stable: the same name always gets the same suffix.
    expect(planNames(['order', 'Order']).get('Order')).toEqual(plan.get('Order'));
  });

  it('cuts very long stems and keeps them unique', () => {
    const long = 'X'.repeat(300);
    const plan = planNames([long + 'a', long + 'b']);
    const a = plan.get(long + 'a')!;
    const b = plan.get(long + 'b')!;
    expect(a.identifier).toBe(long + 'a');
    expect(a.fileStem.length).toBe(MAX_STEM_LENGTH + 10);
    expect(a.fileStem).not.toBe(b.fileStem);
  });

  it('only ever produces ASCII identifier characters in stems', () => {
    const hostile = ['../../etc/passwd', 'C:\\Windows', '/abs', 'a\u0000b', '\u202Eevil', '.git', 'NUL'];
    for (const { fileStem } of planNames(hostile).values()) {
      expect(fileStem).toMatch(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
    }
  });
});

describe('recorded stems (a type keeps its file)', () => {
  const suffixed = (name: string) => planNames([name, name.toLowerCase() === name ? name.toUpperCase() : name.toLowerCase()]).get(name)!.fileStem;

  it('planNames takes a recorded stem that is one of the name\'s own, and refuses any other', () => {
    const plan = planNames(['Foo', 'FOO'], new Map([['Foo', 'Foo']]));
    expect(plan.get('Foo')).toEqual({ identifier: 'Foo', fileStem: 'Foo' });
    expect(plan.get('FOO')!.fileStem).toBe(suffixed('FOO'));
    expect(planNames(['FOO'], new Map([['FOO', suffixed('FOO')]])).get('FOO')!.fileStem).toBe(suffixed('FOO'));
    // Recorded stems of names not planned (out of scope) are ignored.
    expect(planNames(['Other'], new Map([['Foo', 'Foo']])).get('Other')!.fileStem).toBe('Other');
    expect(() => planNames(['Foo'], new Map([['Foo', 'Bar']]))).toThrow(
      `The lockfile gives message type "Foo" the file stem "Bar", which is not one of its own (Foo or ${suffixed('Foo')}).`,
    );
    expect(() => planNames(['Foo', 'FOO'], new Map([['Foo', 'Foo'], ['FOO', 'FOO']]))).toThrow(
      'Message types "FOO" and "Foo" both map to the file messages/Foo.ts (file names are compared ignoring case).',
    );
  });

  const rows: { name: string; names: string[]; before: [string, string][]; want: [string, string][]; notes: [string, string][] }[] = [
    { name: 'no clash: nothing recorded', names: ['Foo', 'Bar'], before: [['Foo', 'Foo']], want: [], notes: [] },
    { name: 'a newcomer differs only by case: the old type keeps its plain stem', names: ['Foo', 'FOO'], before: [['Foo', 'Foo']], want: [['Foo', 'Foo']], notes: [['FOO', 'Foo']] },
    { name: 'two newcomers alone: the rule (both suffixed), nothing recorded', names: ['Foo', 'FOO'], before: [], want: [], notes: [['FOO', 'Foo'], ['Foo', 'FOO']] },
    { name: 'two newcomers beside an old type: the old one is named', names: ['Foo', 'FOO', 'foo'], before: [['foo', 'foo']], want: [['foo', 'foo']], notes: [['FOO', 'foo'], ['Foo', 'foo']] },
    { name: 'the older type gone: the newcomer keeps its suffix', names: ['FOO'], before: [['Foo', 'Foo'], ['FOO', 'suffixed:FOO']], want: [['FOO', 'suffixed:FOO']], notes: [] },
    { name: 'both old and suffixed (a lockfile from before stems were recorded): both kept as they are', names: ['Foo', 'FOO'], before: [['Foo', 'suffixed:Foo'], ['FOO', 'suffixed:FOO']], want: [], notes: [] },
  ];
  it.each(rows)('keptStems: $name', ({ names, before, want, notes }) => {
    const stem = (value: string) => (value.startsWith('suffixed:') ? suffixed(value.slice('suffixed:'.length)) : value);
    const kept = keptStems(names, new Map(before.map(([name, value]) => [name, stem(value)])));
    expect([...kept.fileStems]).toEqual(want.map(([name, value]) => [name, stem(value)]));
    expect([...kept.sharedCase].map(([name, { fileStem, other }]) => [name, other, fileStem])).toEqual(notes.map(([name, other]) => [name, other, suffixed(name)]));
    // What is recorded is what planNames gives the old names.
    const plan = planNames(names, kept.fileStems);
    for (const [name, value] of before) if (plan.has(name)) expect(plan.get(name)!.fileStem).toBe(stem(value));
  });

  it('fileStemsOf gives planNames\' stems, leaving out a recorded stem that is not the name\'s', () => {
    expect([...fileStemsOf(['Foo', 'FOO', 'Bar'], new Map([['Foo', 'Foo'], ['Bar', '../x']]))]).toEqual([
      ['Bar', 'Bar'],
      ['FOO', suffixed('FOO')],
      ['Foo', 'Foo'],
    ]);
  });

  it('shareFileByCase', () => {
    expect(shareFileByCase(['Foo', 'Bar'])).toBe(false);
    expect(shareFileByCase(['Foo', 'Bar', 'FOO'])).toBe(true);
    expect(shareFileByCase(['a-b', 'A_B'])).toBe(true);
  });
});
