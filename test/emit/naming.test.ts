import { describe, expect, it } from 'vitest';

import { planNames } from '../../src/emit/index.js';
import { MAX_STEM_LENGTH, toIdentifier } from '../../src/emit/naming.js';
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
