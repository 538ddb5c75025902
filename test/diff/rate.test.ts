/**
 * The one rating step: facts from the diff engine in, changes rated as the policy says out.
 * One row per aspect the step owns: defaults, configured severities, `off`, acceptances, scope,
 * and the one sort.
 */
import { describe, expect, it } from 'vitest';
import { compareDescriptors, rate, type ChangeFact, type RatingPolicy } from '../../src/diff/index.js';
import { descriptor } from './descriptor-fixture.js';

const FACTS: ChangeFact[] = [
  { kind: 'added', name: 'Fresh', after: { mNum: 9 } },
  { kind: 'changed', name: 'Quote', fields: [{ field: 'schemaHash', before: 'A', after: 'B', rule: 'SCHEMA_HASH_CHANGED' }, { field: 'desc', before: 'x', after: 'y', rule: 'DESCRIPTION_CHANGED' }] },
  { kind: 'removed', name: 'Gone', before: { mNum: 1 } },
  {
    kind: 'renamed',
    name: 'New',
    before: { name: 'Old', mNum: 5 },
    after: { name: 'New', mNum: 5 },
    fields: [{ field: 'name', before: 'Old', after: 'New', rule: 'MESSAGE_RENAMED' }],
  },
];

/** `severity kind name rule` per change, and `name rule severity` per accepted one. */
function brief(policy?: RatingPolicy, facts: readonly ChangeFact[] = FACTS): { changes: string[]; accepted: string[] } {
  const rated = rate(facts, policy);
  return {
    changes: rated.changes.map((change) => `${change.severity} ${change.kind} ${change.name} ${change.rule}`),
    accepted: rated.accepted.map((change) => `${change.name} ${change.rule} ${change.severity}`),
  };
}

describe('rate', () => {
  const rows: { name: string; policy?: RatingPolicy; changes: string[]; accepted?: string[] }[] = [
    {
      name: 'default policy: each rule at its default severity, sorted by severity then name; kinds name added and removed types',
      changes: ['breaking removed Gone MESSAGE_REMOVED', 'breaking renamed New MESSAGE_RENAMED', 'dangerous changed Quote SCHEMA_HASH_CHANGED', 'safe added Fresh MESSAGE_ADDED'],
    },
    {
      name: 'a configured severity rates the change and moves it in the order',
      policy: { rules: { MESSAGE_ADDED: 'breaking', SCHEMA_HASH_CHANGED: 'safe' } },
      changes: ['breaking added Fresh MESSAGE_ADDED', 'breaking removed Gone MESSAGE_REMOVED', 'breaking renamed New MESSAGE_RENAMED', 'safe changed Quote SCHEMA_HASH_CHANGED'],
    },
    {
      name: 'off drops a type, or a field (the change is then named by its worst remaining field)',
      policy: { rules: { MESSAGE_REMOVED: 'off', SCHEMA_HASH_CHANGED: 'off' } },
      changes: ['breaking renamed New MESSAGE_RENAMED', 'safe added Fresh MESSAGE_ADDED', 'safe changed Quote DESCRIPTION_CHANGED'],
    },
    {
      name: 'an acceptance moves the change it names to the accepted list',
      policy: { accept: [{ rule: 'MESSAGE_REMOVED', message: 'Gone', reason: 'r' }, { rule: 'MESSAGE_RENAMED', message: 'Old', reason: 'r' }] },
      changes: ['dangerous changed Quote SCHEMA_HASH_CHANGED', 'safe added Fresh MESSAGE_ADDED'],
      accepted: ['Gone MESSAGE_REMOVED breaking', 'New MESSAGE_RENAMED breaking'],
    },
    {
      name: 'an acceptance whose pinned value differs accepts nothing',
      policy: { accept: [{ rule: 'MESSAGE_ADDED', message: 'Fresh', reason: 'r', after: { mNum: 8 } }] },
      changes: ['breaking removed Gone MESSAGE_REMOVED', 'breaking renamed New MESSAGE_RENAMED', 'dangerous changed Quote SCHEMA_HASH_CHANGED', 'safe added Fresh MESSAGE_ADDED'],
    },
  ];

  it.each(rows)('$name', ({ policy, changes, accepted = [] }) => {
    expect(brief(policy)).toEqual({ changes, accepted });
  });

  it('keeps only the changes in scope on either side', () => {
    const locked = [descriptor('OrderOld', { mNum: 1 }), descriptor('Quote', { mNum: 2, mToken: 'Core' })];
    const fetched = [descriptor('Quote', { mNum: 2, mToken: 'Other' }), descriptor('Trade', { mNum: 3 })];
    const facts = compareDescriptors({ locked, fetched });
    const scope = (include: string[]): RatingPolicy => ({ scope: { scope: { include }, compared: { locked, fetched } } });
    expect(brief(scope(['Order*']), facts).changes).toEqual(['breaking removed OrderOld MESSAGE_REMOVED']);
    expect(brief(scope(['Quote']), facts).changes).toEqual(['breaking changed Quote TOKEN_CHANGED']);
    expect(brief({}, facts).changes).toHaveLength(3);
  });

  it('rates anew whatever severity the input carries, and leaves the input untouched', () => {
    const given = [{ kind: 'removed' as const, name: 'Gone', severity: 'safe' as const, before: { mNum: 1 } }];
    const snapshot = structuredClone(given);
    expect(rate(given).changes).toEqual([{ kind: 'removed', name: 'Gone', rule: 'MESSAGE_REMOVED', severity: 'breaking', before: { mNum: 1 } }]);
    expect(given).toEqual(snapshot);
  });

  it('the diff engine gives facts: rules, no severities, in no report order', () => {
    const facts = compareDescriptors({ locked: [descriptor('B', { mNum: 1 })], fetched: [descriptor('A', { mNum: 2 }), descriptor('B', { mNum: 1, hasCF: true })] });
    expect(facts).toEqual([
      { kind: 'changed', name: 'B', fields: [{ field: 'hasCF', before: false, after: true, rule: 'CLIENT_FIRM_CHANGED' }] },
      { kind: 'added', name: 'A', after: { mNum: 2 } },
    ]);
  });
});
