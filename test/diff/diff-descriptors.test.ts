import { describe, expect, it } from 'vitest';
import { diffDescriptors, type ReportedChange, type RuleId, type Severity } from '../../src/diff/index.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { descriptor } from './descriptor-fixture.js';

/** One changed field on a message type called `M`. */
interface FieldCase {
  name: string;
  before: Partial<Omit<Descriptor, 'name'>>;
  after: Partial<Omit<Descriptor, 'name'>>;
  want: { field: string; before: unknown; after: unknown; severity: Severity; rule: RuleId }[];
}

const fieldCases: FieldCase[] = [
  {
    name: 'mNum changed',
    before: { mNum: 1 },
    after: { mNum: 2 },
    want: [{ field: 'mNum', before: 1, after: 2, severity: 'breaking', rule: 'MNUM_CHANGED' }],
  },
  {
    name: 'schemaHash changed',
    before: { schemaHash: 'AAAA' },
    after: { schemaHash: 'BBBB' },
    want: [{ field: 'schemaHash', before: 'AAAA', after: 'BBBB', severity: 'dangerous', rule: 'SCHEMA_HASH_CHANGED' }],
  },
  {
    name: 'an action removed',
    before: { actions: ['select', 'insert'] },
    after: { actions: ['select'] },
    want: [{ field: 'actions', before: ['select', 'insert'], after: ['select'], severity: 'breaking', rule: 'ACTION_REMOVED' }],
  },
  {
    name: 'an action added',
    before: { actions: ['select'] },
    after: { actions: ['select', 'delete'] },
    want: [{ field: 'actions', before: ['select'], after: ['select', 'delete'], severity: 'safe', rule: 'ACTION_ADDED' }],
  },
  {
    name: 'one action removed and one added: one field, breaking',
    before: { actions: ['select', 'insert'] },
    after: { actions: ['select', 'update'] },
    want: [{ field: 'actions', before: ['select', 'insert'], after: ['select', 'update'], severity: 'breaking', rule: 'ACTION_REMOVED' }],
  },
  {
    name: 'actions reordered only',
    before: { actions: ['select', 'insert'] },
    after: { actions: ['insert', 'select'] },
    want: [{ field: 'actions', before: ['select', 'insert'], after: ['insert', 'select'], severity: 'safe', rule: 'ACTIONS_REORDERED' }],
  },
  {
    name: 'an unknown action letter removed',
    before: { actions: ['select', 'X'] },
    after: { actions: ['select'] },
    want: [{ field: 'actions', before: ['select', 'X'], after: ['select'], severity: 'breaking', rule: 'ACTION_REMOVED' }],
  },
  ...(['hasTKey', 'hasEKey', 'hasOKey'] as const).flatMap((flag): FieldCase[] => [
    {
      name: `${flag} true → false`,
      before: { [flag]: true },
      after: { [flag]: false },
      want: [{ field: flag, before: true, after: false, severity: 'breaking', rule: 'KEY_FLAG_REMOVED' }],
    },
    {
      name: `${flag} false → true`,
      before: { [flag]: false },
      after: { [flag]: true },
      want: [{ field: flag, before: false, after: true, severity: 'safe', rule: 'KEY_FLAG_ADDED' }],
    },
  ]),
  {
    name: 'hasCF false → true',
    before: { hasCF: false },
    after: { hasCF: true },
    want: [{ field: 'hasCF', before: false, after: true, severity: 'dangerous', rule: 'CLIENT_FIRM_CHANGED' }],
  },
  {
    name: 'hasCF true → false',
    before: { hasCF: true },
    after: { hasCF: false },
    want: [{ field: 'hasCF', before: true, after: false, severity: 'dangerous', rule: 'CLIENT_FIRM_CHANGED' }],
  },
  {
    name: 'token moved',
    before: { mToken: 'Core' },
    after: { mToken: 'SystemData' },
    want: [{ field: 'mToken', before: 'Core', after: 'SystemData', severity: 'breaking', rule: 'TOKEN_CHANGED' }],
  },
  {
    name: 'filter field added',
    before: { staticFilterFields: ['region'] },
    after: { staticFilterFields: ['region', 'site'] },
    want: [{ field: 'staticFilterFields', before: ['region'], after: ['region', 'site'], severity: 'dangerous', rule: 'FILTER_FIELDS_CHANGED' }],
  },
  {
    name: 'filter fields emptied',
    before: { staticFilterFields: ['region'] },
    after: { staticFilterFields: [] },
    want: [{ field: 'staticFilterFields', before: ['region'], after: [], severity: 'dangerous', rule: 'FILTER_FIELDS_CHANGED' }],
  },
  {
    name: 'description only',
    before: { extra: { desc: 'Old text' } },
    after: { extra: { desc: 'New text' } },
    want: [{ field: 'desc', before: 'Old text', after: 'New text', severity: 'safe', rule: 'DESCRIPTION_CHANGED' }],
  },
  {
    name: 'unknown field changed',
    before: { extra: { topic: 'a/b' } },
    after: { extra: { topic: 'a/c' } },
    want: [{ field: 'topic', before: 'a/b', after: 'a/c', severity: 'safe', rule: 'OTHER_FIELD_CHANGED' }],
  },
  {
    name: 'unknown field added',
    before: { extra: {} },
    after: { extra: { pkey: ['id'] } },
    want: [{ field: 'pkey', before: undefined, after: ['id'], severity: 'safe', rule: 'OTHER_FIELD_CHANGED' }],
  },
  {
    name: 'unknown field removed',
    before: { extra: { dataProducts: { a: 1 } } },
    after: { extra: {} },
    want: [{ field: 'dataProducts', before: { a: 1 }, after: undefined, severity: 'safe', rule: 'OTHER_FIELD_CHANGED' }],
  },
  {
    name: 'unknown field changed deep inside',
    before: { extra: { nested: { list: [1, { x: 'y' }] } } },
    after: { extra: { nested: { list: [1, { x: 'z' }] } } },
    want: [{ field: 'nested', before: { list: [1, { x: 'y' }] }, after: { list: [1, { x: 'z' }] }, severity: 'safe', rule: 'OTHER_FIELD_CHANGED' }],
  },
  {
    name: 'unknown field null vs absent',
    before: { extra: { topic: null } },
    after: { extra: {} },
    want: [{ field: 'topic', before: null, after: undefined, severity: 'safe', rule: 'OTHER_FIELD_CHANGED' }],
  },
  {
    name: 'unknown field named like an Object.prototype member',
    before: { extra: {} },
    after: { extra: JSON.parse('{"constructor":"c","__proto__":"p"}') as Record<string, unknown> },
    want: [
      { field: '__proto__', before: undefined, after: 'p', severity: 'safe', rule: 'OTHER_FIELD_CHANGED' },
      { field: 'constructor', before: undefined, after: 'c', severity: 'safe', rule: 'OTHER_FIELD_CHANGED' },
    ],
  },
  // Deployments differ in which fields they send: absent is not empty.
  ...(['actions', 'hasTKey', 'hasCF', 'mToken', 'staticFilterFields'] as const).flatMap((field): FieldCase[] => [
    {
      name: `${field} appears: safe`,
      before: { [field]: undefined },
      after: {},
      want: [{ field, before: undefined, after: descriptor('M')[field], severity: 'safe', rule: 'FIELD_APPEARED' }],
    },
    {
      name: `${field} disappears: dangerous`,
      before: {},
      after: { [field]: undefined },
      want: [{ field, before: descriptor('M')[field], after: undefined, severity: 'dangerous', rule: 'FIELD_DISAPPEARED' }],
    },
  ]),
  {
    name: 'an empty list that becomes absent disappears (empty is not absent)',
    before: { actions: [] },
    after: { actions: undefined },
    want: [{ field: 'actions', before: [], after: undefined, severity: 'dangerous', rule: 'FIELD_DISAPPEARED' }],
  },
  {
    name: 'several fields: KNOWN_FIELDS order, then unknown keys sorted',
    before: { extra: { zeta: 1, desc: 'a' }, mToken: 'Core', hasCF: false, schemaHash: 'AAAA', actions: ['select'] },
    after: {
      extra: { zeta: 2, desc: 'b' },
      mToken: 'Other',
      hasCF: true,
      schemaHash: 'BBBB',
      actions: ['select', 'insert'],
    },
    want: [
      { field: 'schemaHash', before: 'AAAA', after: 'BBBB', severity: 'dangerous', rule: 'SCHEMA_HASH_CHANGED' },
      { field: 'actions', before: ['select'], after: ['select', 'insert'], severity: 'safe', rule: 'ACTION_ADDED' },
      { field: 'hasCF', before: false, after: true, severity: 'dangerous', rule: 'CLIENT_FIRM_CHANGED' },
      { field: 'mToken', before: 'Core', after: 'Other', severity: 'breaking', rule: 'TOKEN_CHANGED' },
      { field: 'desc', before: 'a', after: 'b', severity: 'safe', rule: 'DESCRIPTION_CHANGED' },
      { field: 'zeta', before: 1, after: 2, severity: 'safe', rule: 'OTHER_FIELD_CHANGED' },
    ],
  },
];

const worst = (fields: FieldCase['want']): Severity =>
  fields.some((f) => f.severity === 'breaking')
    ? 'breaking'
    : fields.some((f) => f.severity === 'dangerous')
      ? 'dangerous'
      : 'safe';

describe('diffDescriptors: field rules', () => {
  it.each(fieldCases)('$name', ({ before, after, want }) => {
    const got = diffDescriptors({ locked: [descriptor('M', before)], fetched: [descriptor('M', after)] });
    // A changed type is named by the rule of its worst field (the first of them).
    const rule = want.find((field) => field.severity === worst(want))!.rule;
    expect(got).toEqual([{ kind: 'changed', name: 'M', rule, severity: worst(want), fields: want }]);
  });
});

describe('diffDescriptors: kinds', () => {
  const cases: { name: string; locked: Descriptor[]; fetched: Descriptor[]; want: ReportedChange[] }[] = [
    { name: 'both empty', locked: [], fetched: [], want: [] },
    {
      name: 'identical lists, in another order',
      locked: [descriptor('A', { mNum: 1 }), descriptor('B', { mNum: 2, extra: { desc: 'x', o: { a: 1, b: 2 } } })],
      fetched: [descriptor('B', { mNum: 2, extra: { o: { b: 2, a: 1 }, desc: 'x' } }), descriptor('A', { mNum: 1 })],
      want: [],
    },
    {
      name: 'added',
      locked: [],
      fetched: [descriptor('New', { mNum: 9 })],
      want: [{ kind: 'added', name: 'New', rule: 'MESSAGE_ADDED', severity: 'safe', after: { mNum: 9 } }],
    },
    {
      name: 'removed',
      locked: [descriptor('Old', { mNum: 1 })],
      fetched: [],
      want: [{ kind: 'removed', name: 'Old', rule: 'MESSAGE_REMOVED', severity: 'breaking', before: { mNum: 1 } }],
    },
    {
      name: 'renamed: same mNum under a new name',
      locked: [descriptor('Old', { mNum: 5 })],
      fetched: [descriptor('New', { mNum: 5 })],
      want: [
        {
          kind: 'renamed',
          name: 'New',
          rule: 'MESSAGE_RENAMED',
          severity: 'breaking',
          before: { name: 'Old', mNum: 5 },
          after: { name: 'New', mNum: 5 },
          fields: [{ field: 'name', before: 'Old', after: 'New', severity: 'breaking', rule: 'MESSAGE_RENAMED' }],
        },
      ],
    },
    {
      name: 'renamed with another field changed',
      locked: [descriptor('Old', { mNum: 5, schemaHash: 'AAAA', extra: { desc: 'd' } })],
      fetched: [descriptor('New', { mNum: 5, schemaHash: 'BBBB', extra: { desc: 'd' } })],
      want: [
        {
          kind: 'renamed',
          name: 'New',
          rule: 'MESSAGE_RENAMED',
          severity: 'breaking',
          before: { name: 'Old', mNum: 5 },
          after: { name: 'New', mNum: 5 },
          fields: [
            { field: 'name', before: 'Old', after: 'New', severity: 'breaking', rule: 'MESSAGE_RENAMED' },
            { field: 'schemaHash', before: 'AAAA', after: 'BBBB', severity: 'dangerous', rule: 'SCHEMA_HASH_CHANGED' },
          ],
        },
      ],
    },
    {
      name: 'not a rename when the mNum moved to a name the lockfile already has',
      locked: [descriptor('A', { mNum: 1 }), descriptor('B', { mNum: 2 })],
      fetched: [descriptor('B', { mNum: 1 })],
      want: [
        { kind: 'removed', name: 'A', rule: 'MESSAGE_REMOVED', severity: 'breaking', before: { mNum: 1 } },
        {
          kind: 'changed',
          name: 'B',
          rule: 'MNUM_CHANGED',
          severity: 'breaking',
          fields: [{ field: 'mNum', before: 2, after: 1, severity: 'breaking', rule: 'MNUM_CHANGED' }],
        },
      ],
    },
    {
      name: 'removed and added with different mNums stay removed + added',
      locked: [descriptor('Old', { mNum: 1 })],
      fetched: [descriptor('New', { mNum: 2 })],
      want: [
        { kind: 'removed', name: 'Old', rule: 'MESSAGE_REMOVED', severity: 'breaking', before: { mNum: 1 } },
        { kind: 'added', name: 'New', rule: 'MESSAGE_ADDED', severity: 'safe', after: { mNum: 2 } },
      ],
    },
    {
      name: 'two locked names with one mNum: the first by name takes the rename',
      locked: [descriptor('Y', { mNum: 3 }), descriptor('X', { mNum: 3 })],
      fetched: [descriptor('Z', { mNum: 3 })],
      want: [
        { kind: 'removed', name: 'Y', rule: 'MESSAGE_REMOVED', severity: 'breaking', before: { mNum: 3 } },
        {
          kind: 'renamed',
          name: 'Z',
          rule: 'MESSAGE_RENAMED',
          severity: 'breaking',
          before: { name: 'X', mNum: 3 },
          after: { name: 'Z', mNum: 3 },
          fields: [{ field: 'name', before: 'X', after: 'Z', severity: 'breaking', rule: 'MESSAGE_RENAMED' }],
        },
      ],
    },
  ];

  it.each(cases)('$name', ({ locked, fetched, want }) => {
    expect(diffDescriptors({ locked, fetched })).toEqual(want);
  });

  it('a field absent on both sides is no change', () => {
    const bare = (): Descriptor => ({ name: 'M', mNum: 1, schemaHash: 'H', extra: {} });
    expect(diffDescriptors({ locked: [bare()], fetched: [bare()] })).toEqual([]);
  });
});

describe('diffDescriptors: message numbers that move between deployments', () => {
  it('reports a surviving type’s new number as an mNum change, and never renames by the number it now uses', () => {
    // The vendor's files of one month give OptionNbboQuote 2745 and 2785.
    const locked = [descriptor('OptionNbboQuote', { mNum: 2745 }), descriptor('OldType', { mNum: 2785 })];
    const fetched = [descriptor('OptionNbboQuote', { mNum: 2785 }), descriptor('NewType', { mNum: 2745 })];
    expect(diffDescriptors({ locked, fetched })).toEqual([
      { kind: 'removed', name: 'OldType', rule: 'MESSAGE_REMOVED', severity: 'breaking', before: { mNum: 2785 } },
      { kind: 'changed', name: 'OptionNbboQuote', rule: 'MNUM_CHANGED', severity: 'breaking', fields: [{ field: 'mNum', before: 2745, after: 2785, severity: 'breaking', rule: 'MNUM_CHANGED' }] },
      { kind: 'added', name: 'NewType', rule: 'MESSAGE_ADDED', severity: 'safe', after: { mNum: 2745 } },
    ]);
  });

  it('does not pair a removed and an added type by a number a surviving type uses, even when a caller passes it twice', () => {
    const locked = [descriptor('Gone', { mNum: 5 }), descriptor('Stays', { mNum: 6 })];
    const fetched = [descriptor('Stays', { mNum: 5 }), descriptor('Fresh', { mNum: 5 })];
    const changes = diffDescriptors({ locked, fetched });
    expect(changes.map((c) => `${c.kind} ${c.name}`)).toEqual(['removed Gone', 'changed Stays', 'added Fresh']);
  });
});

describe('diffDescriptors: order', () => {
  it('sorts by severity (breaking, dangerous, safe), then by name in code-unit order', () => {
    const locked = [
      descriptor('b', { mNum: 1 }),
      descriptor('a', { mNum: 2 }),
      descriptor('Z', { mNum: 3 }),
      descriptor('ä', { mNum: 4 }),
      descriptor('B', { mNum: 5 }),
    ];
    const fetched = [
      descriptor('new', { mNum: 10 }),
      descriptor('b', { mNum: 1, hasCF: true }),
      descriptor('a', { mNum: 2, extra: { desc: 'x' } }),
      descriptor('Z', { mNum: 3, mToken: 'Other' }),
      descriptor('ä', { mNum: 4, schemaHash: 'CCCC' }),
      descriptor('B', { mNum: 5, hasOKey: false }),
      descriptor('A', { mNum: 11 }),
    ];
    const got = diffDescriptors({ locked, fetched }).map((c) => `${c.severity} ${c.kind} ${c.name}`);
    expect(got).toEqual([
      'breaking changed B',
      'breaking changed Z',
      'dangerous changed b',
      'dangerous changed ä',
      'safe added A',
      'safe changed a',
      'safe added new',
    ]);
  });

  it('does not depend on the order of either input', () => {
    const locked = [descriptor('A', { mNum: 1 }), descriptor('B', { mNum: 2 }), descriptor('C', { mNum: 3 })];
    const fetched = [
      descriptor('C', { mNum: 3, hasCF: true }),
      descriptor('D', { mNum: 2 }),
      descriptor('E', { mNum: 4 }),
    ];
    const want = diffDescriptors({ locked, fetched });
    expect(diffDescriptors({ locked: [...locked].reverse(), fetched: [...fetched].reverse() })).toEqual(want);
  });

  it('leaves its inputs untouched and shares no arrays with them', () => {
    const locked = [descriptor('M', { actions: ['select'] })];
    const fetched = [descriptor('M', { actions: ['select', 'insert'] })];
    const snapshot = structuredClone({ locked, fetched });
    const [change] = diffDescriptors({ locked, fetched });
    expect({ locked, fetched }).toEqual(snapshot);
    if (change?.kind !== 'changed') throw new Error('expected a changed entry');
    (change.fields[0]?.after as string[]).push('mutated');
    expect(fetched[0]?.actions).toEqual(['select', 'insert']);
  });
});
