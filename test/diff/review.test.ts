/**
 * Severity overrides, accepted changes and scope, alone and together: one row per combination,
 * each a listing change, a policy and what the report must say.
 */
import { describe, expect, it } from 'vitest';
import { buildReport, changesInScope, diffDescriptors, isFailing, unusedAcceptanceWarnings, type ReviewPolicy } from '../../src/diff/index.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import type { Scope } from '../../src/model/scope.js';
import { checkPolicy } from '../../src/run/report.js';
import { descriptor } from './descriptor-fixture.js';
import { messageText } from '../../src/model/message.js';

const locked: Descriptor[] = [
  descriptor('OrderNew', { mNum: 1, mToken: 'Trading' }),
  descriptor('OrderCancel', { mNum: 2, mToken: 'Trading' }),
  descriptor('RiskLimit', { mNum: 3, mToken: 'Risk' }),
  descriptor('Gone', { mNum: 4, mToken: 'Risk' }),
];
const fetched: Descriptor[] = [
  descriptor('OrderNew', { mNum: 1, mToken: 'Trading', schemaHash: 'BBBB' }),
  descriptor('OrderCancel', { mNum: 2, mToken: 'Risk' }),
  descriptor('RiskLimit', { mNum: 3, mToken: 'Risk', schemaHash: 'CCCC', hasTKey: false }),
  descriptor('Fresh', { mNum: 5, mToken: 'Trading' }),
];
const changes = diffDescriptors({ locked, fetched });

/** What a report says, in brief: `name rule severity` per change and per accepted change. */
function brief(policy: ReviewPolicy = {}, scope: Scope = {}) {
  const report = buildReport({ changes: changesInScope(changes, { locked, fetched }, scope), policy });
  const fields = (change: (typeof report.changes)[number]) =>
    change.kind === 'changed' || change.kind === 'renamed' ? change.fields.map((field) => `${field.rule}:${field.severity}`) : [];
  return {
    changes: report.changes.map((change) => [change.name, change.rule, change.severity, ...fields(change)].join(' ')),
    accepted: report.accepted.map((change) => `${change.name} ${change.rule} ${change.severity} (${change.reason})`),
    unused: unusedAcceptanceWarnings(policy, report).map((warning) => /^accept\[(\d+)\]/.exec(messageText(warning))![1]),
    failsAny: isFailing(report, 'any'),
    failsBreaking: isFailing(report, 'breaking'),
  };
}

const DEFAULT_CHANGES = [
  'Gone MESSAGE_REMOVED breaking',
  'OrderCancel TOKEN_CHANGED breaking TOKEN_CHANGED:breaking',
  'RiskLimit KEY_FLAG_REMOVED breaking SCHEMA_HASH_CHANGED:dangerous KEY_FLAG_REMOVED:breaking',
  'OrderNew SCHEMA_HASH_CHANGED dangerous SCHEMA_HASH_CHANGED:dangerous',
  'Fresh MESSAGE_ADDED safe',
];

describe('severity overrides', () => {
  const rows: { name: string; policy: ReviewPolicy; changes: string[]; failsBreaking: boolean }[] = [
    { name: 'defaults', policy: {}, changes: DEFAULT_CHANGES, failsBreaking: true },
    {
      name: 'a rule raised: the change is as severe as its worst field after the override',
      policy: { rules: { SCHEMA_HASH_CHANGED: 'breaking' } },
      changes: [
        'Gone MESSAGE_REMOVED breaking',
        'OrderCancel TOKEN_CHANGED breaking TOKEN_CHANGED:breaking',
        'OrderNew SCHEMA_HASH_CHANGED breaking SCHEMA_HASH_CHANGED:breaking',
        'RiskLimit SCHEMA_HASH_CHANGED breaking SCHEMA_HASH_CHANGED:breaking KEY_FLAG_REMOVED:breaking',
        'Fresh MESSAGE_ADDED safe',
      ],
      failsBreaking: true,
    },
    {
      name: 'rules lowered: the order follows the new severities; nothing breaking is left',
      policy: { rules: { MESSAGE_REMOVED: 'dangerous', TOKEN_CHANGED: 'safe', KEY_FLAG_REMOVED: 'safe' } },
      changes: [
        'Gone MESSAGE_REMOVED dangerous',
        'OrderNew SCHEMA_HASH_CHANGED dangerous SCHEMA_HASH_CHANGED:dangerous',
        'RiskLimit SCHEMA_HASH_CHANGED dangerous SCHEMA_HASH_CHANGED:dangerous KEY_FLAG_REMOVED:safe',
        'Fresh MESSAGE_ADDED safe',
        'OrderCancel TOKEN_CHANGED safe TOKEN_CHANGED:safe',
      ],
      failsBreaking: false,
    },
    {
      name: 'off drops a field, a type left with no field, and a whole added type',
      policy: { rules: { SCHEMA_HASH_CHANGED: 'off', MESSAGE_ADDED: 'off' } },
      changes: ['Gone MESSAGE_REMOVED breaking', 'OrderCancel TOKEN_CHANGED breaking TOKEN_CHANGED:breaking', 'RiskLimit KEY_FLAG_REMOVED breaking KEY_FLAG_REMOVED:breaking'],
      failsBreaking: true,
    },
  ];
  it.each(rows)('$name', ({ policy, changes: want, failsBreaking }) => {
    const got = brief(policy);
    expect(got.changes).toEqual(want);
    expect(got.failsBreaking).toBe(failsBreaking);
  });

  it('everything off: in sync', () => {
    const rules = Object.fromEntries(['MESSAGE_REMOVED', 'TOKEN_CHANGED', 'SCHEMA_HASH_CHANGED', 'KEY_FLAG_REMOVED', 'MESSAGE_ADDED'].map((id) => [id, 'off']));
    expect(brief({ rules })).toMatchObject({ changes: [], failsAny: false });
  });
});

describe('accepted changes', () => {
  const reason = 'reviewed in #12';
  const rows: { name: string; policy: ReviewPolicy; changes?: string[]; accepted: string[]; unused: string[]; failsBreaking: boolean }[] = [
    {
      name: 'rule and exact name: the change leaves the changes, listed as accepted',
      policy: { accept: [{ rule: 'MESSAGE_REMOVED', message: 'Gone', reason }] },
      accepted: ['Gone MESSAGE_REMOVED breaking (reviewed in #12)'],
      unused: [],
      failsBreaking: true,
    },
    {
      name: 'a glob over names',
      policy: { accept: [{ rule: 'SCHEMA_HASH_CHANGED', message: 'Order*', reason }] },
      changes: DEFAULT_CHANGES.filter((line) => !line.startsWith('OrderNew')),
      accepted: ['OrderNew SCHEMA_HASH_CHANGED dangerous (reviewed in #12)'],
      unused: [],
      failsBreaking: true,
    },
    {
      name: 'one field of a change: the change keeps its other fields',
      policy: { accept: [{ rule: 'KEY_FLAG_REMOVED', message: 'RiskLimit', reason }] },
      changes: [
        'Gone MESSAGE_REMOVED breaking',
        'OrderCancel TOKEN_CHANGED breaking TOKEN_CHANGED:breaking',
        'OrderNew SCHEMA_HASH_CHANGED dangerous SCHEMA_HASH_CHANGED:dangerous',
        'RiskLimit SCHEMA_HASH_CHANGED dangerous SCHEMA_HASH_CHANGED:dangerous',
        'Fresh MESSAGE_ADDED safe',
      ],
      accepted: ['RiskLimit KEY_FLAG_REMOVED breaking (reviewed in #12)'],
      unused: [],
      failsBreaking: true,
    },
    {
      name: 'pinned to the values reviewed: applies while they are the same',
      policy: { accept: [{ rule: 'TOKEN_CHANGED', message: 'OrderCancel', before: 'Trading', after: 'Risk', reason }] },
      accepted: ['OrderCancel TOKEN_CHANGED breaking (reviewed in #12)'],
      unused: [],
      failsBreaking: true,
    },
    {
      name: 'pinned to other values: stops matching, the change fails, the acceptance is unused',
      policy: { accept: [{ rule: 'TOKEN_CHANGED', message: 'OrderCancel', before: 'Trading', after: 'Pricing', reason }] },
      changes: DEFAULT_CHANGES,
      accepted: [],
      unused: ['0'],
      failsBreaking: true,
    },
    {
      name: 'pinned to a removed type: its { mNum }',
      policy: { accept: [{ rule: 'MESSAGE_REMOVED', message: 'Gone', before: { mNum: 4 }, reason }, { rule: 'MESSAGE_REMOVED', message: 'Gone', before: { mNum: 9 }, reason: 'other' }] },
      accepted: ['Gone MESSAGE_REMOVED breaking (reviewed in #12)'],
      unused: ['1'],
      failsBreaking: true,
    },
    {
      name: 'keyed by rule alone on another message: does not apply',
      policy: { accept: [{ rule: 'TOKEN_CHANGED', message: 'RiskLimit', reason }] },
      changes: DEFAULT_CHANGES,
      accepted: [],
      unused: ['0'],
      failsBreaking: true,
    },
    {
      name: 'the right message under another rule: does not apply',
      policy: { accept: [{ rule: 'MESSAGE_RENAMED', message: 'Gone', reason }] },
      changes: DEFAULT_CHANGES,
      accepted: [],
      unused: ['0'],
      failsBreaking: true,
    },
    {
      name: 'every breaking change accepted: --fail-on breaking passes, --fail-on any still sees the rest',
      policy: {
        accept: [
          { rule: 'MESSAGE_REMOVED', message: 'Gone', reason },
          { rule: 'TOKEN_CHANGED', message: 'OrderCancel', reason },
          { rule: 'KEY_FLAG_REMOVED', message: 'Risk*', reason },
        ],
      },
      accepted: ['Gone MESSAGE_REMOVED breaking (reviewed in #12)', 'OrderCancel TOKEN_CHANGED breaking (reviewed in #12)', 'RiskLimit KEY_FLAG_REMOVED breaking (reviewed in #12)'],
      unused: [],
      failsBreaking: false,
    },
    {
      name: 'with an override: the accepted change shows its configured severity',
      policy: { rules: { SCHEMA_HASH_CHANGED: 'breaking' }, accept: [{ rule: 'SCHEMA_HASH_CHANGED', message: 'OrderNew', reason }] },
      accepted: ['OrderNew SCHEMA_HASH_CHANGED breaking (reviewed in #12)'],
      unused: [],
      failsBreaking: true,
    },
    {
      name: 'a rule that is off accepts nothing: the acceptance is unused',
      policy: { rules: { MESSAGE_ADDED: 'off' }, accept: [{ rule: 'MESSAGE_ADDED', message: '*', reason }] },
      changes: DEFAULT_CHANGES.slice(0, -1),
      accepted: [],
      unused: ['0'],
      failsBreaking: true,
    },
  ];
  it.each(rows)('$name', ({ policy, changes: want, accepted, unused, failsBreaking }) => {
    const got = brief(policy);
    if (want !== undefined) expect(got.changes).toEqual(want);
    expect(got.accepted).toEqual(accepted);
    expect(got.unused).toEqual(unused);
    expect(got.failsBreaking).toBe(failsBreaking);
  });

  it('accepted changes alone never fail, and the report is in sync', () => {
    const accept = (['MESSAGE_REMOVED', 'TOKEN_CHANGED', 'SCHEMA_HASH_CHANGED', 'KEY_FLAG_REMOVED', 'MESSAGE_ADDED'] as const).map((rule) => ({ rule, message: '*', reason }));
    const got = brief({ accept });
    expect(got).toMatchObject({ changes: [], failsAny: false, failsBreaking: false, unused: [] });
    expect(got.accepted).toHaveLength(6);
  });

  it('a rename is accepted by either name', () => {
    const renames = diffDescriptors({ locked: [descriptor('Old', { mNum: 9 })], fetched: [descriptor('New', { mNum: 9 })] });
    for (const message of ['Old', 'New']) {
      const report = buildReport({ changes: renames, policy: { accept: [{ rule: 'MESSAGE_RENAMED', message, reason }] } });
      expect([report.changes.length, report.accepted.map((change) => [change.kind, change.name, change.field])]).toEqual([0, [['renamed', 'New', 'name']]]);
    }
  });
});

describe('scope', () => {
  const rows: { name: string; scope: Scope; policy?: ReviewPolicy; changes: string[] }[] = [
    { name: 'no scope: everything', scope: {}, changes: DEFAULT_CHANGES },
    {
      name: 'include by name glob',
      scope: { include: ['Order*'] },
      changes: ['OrderCancel TOKEN_CHANGED breaking TOKEN_CHANGED:breaking', 'OrderNew SCHEMA_HASH_CHANGED dangerous SCHEMA_HASH_CHANGED:dangerous'],
    },
    {
      name: 'include by token: a type that moves out of the token is still reported (the project loses it)',
      scope: { include: [{ mToken: 'Trading' }] },
      changes: ['OrderCancel TOKEN_CHANGED breaking TOKEN_CHANGED:breaking', 'OrderNew SCHEMA_HASH_CHANGED dangerous SCHEMA_HASH_CHANGED:dangerous', 'Fresh MESSAGE_ADDED safe'],
    },
    {
      name: 'exclude by name and by token glob (OrderCancel moves into an excluded token: reported)',
      scope: { exclude: ['Fresh', { mToken: 'R*' }] },
      changes: ['OrderCancel TOKEN_CHANGED breaking TOKEN_CHANGED:breaking', 'OrderNew SCHEMA_HASH_CHANGED dangerous SCHEMA_HASH_CHANGED:dangerous'],
    },
    {
      name: 'exclude wins over include',
      scope: { include: ['Order*', 'Gone'], exclude: ['OrderNew'] },
      changes: ['Gone MESSAGE_REMOVED breaking', 'OrderCancel TOKEN_CHANGED breaking TOKEN_CHANGED:breaking'],
    },
    {
      name: 'scope with an override and an acceptance',
      scope: { include: [{ mToken: 'Trading' }] },
      policy: { rules: { MESSAGE_ADDED: 'dangerous' }, accept: [{ rule: 'TOKEN_CHANGED', message: 'OrderCancel', reason: 'moved on purpose' }] },
      changes: ['Fresh MESSAGE_ADDED dangerous', 'OrderNew SCHEMA_HASH_CHANGED dangerous SCHEMA_HASH_CHANGED:dangerous'],
    },
  ];
  it.each(rows)('$name', ({ scope, policy, changes: want }) => {
    expect(brief(policy, scope).changes).toEqual(want);
  });

  it('an acceptance for a type out of scope is unused', () => {
    expect(brief({ accept: [{ rule: 'MESSAGE_REMOVED', message: 'Gone', reason: 'r' }] }, { include: ['Order*'] }).unused).toEqual(['0']);
  });
});

describe('checkPolicy (library callers)', () => {
  it('refuses unknown rule ids with the closest one, bad levels, and acceptances without a reason', () => {
    const policy = {
      rules: { MESAGE_REMOVED: 'off', TOKEN_CHANGED: 'fatal' },
      accept: [{ rule: 'SCHEMA_HASH_CHANGE', message: 'X', reason: ' ' }],
    } as unknown as ReviewPolicy;
    expect(() => checkPolicy(policy)).toThrowError(
      [
        'invalid review options:',
        '  rules.MESAGE_REMOVED: unknown rule id "MESAGE_REMOVED" (did you mean "MESSAGE_REMOVED"?); `schema-sync rules` lists them',
        '  rules.TOKEN_CHANGED: expected breaking, dangerous, safe or off',
        '  accept[0].rule: unknown rule id "SCHEMA_HASH_CHANGE" (did you mean "SCHEMA_HASH_CHANGED"?); `schema-sync rules` lists them',
        '  accept[0].reason: a reason is required: say why the change is fine',
      ].join('\n'),
    );
    expect(() => checkPolicy({ rules: { TOKEN_CHANGED: 'safe' }, accept: [{ rule: 'TOKEN_CHANGED', message: '*', reason: 'ok' }] })).not.toThrow();
  });
});
