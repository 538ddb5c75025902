import { describe, expect, it } from 'vitest';
import {
  buildReport,
  diffDescriptors,
  hasBreaking,
  type DriftChange,
  type DriftReport,
  type ReportedChange,
  type RuleId,
  type StaleFile,
} from '../../src/diff/index.js';
import { descriptor } from './descriptor-fixture.js';

const removed: DriftChange = { kind: 'removed', name: 'Old', severity: 'breaking', before: { mNum: 1 } };
const added: DriftChange = { kind: 'added', name: 'New', severity: 'safe', after: { mNum: 2 } };
const changed: DriftChange = {
  kind: 'changed',
  name: 'Hash',
  severity: 'dangerous',
  fields: [{ field: 'schemaHash', before: 'A', after: 'B', severity: 'dangerous', rule: 'SCHEMA_HASH_CHANGED' }],
};
const safeChange: DriftChange = {
  kind: 'changed',
  name: 'Doc',
  severity: 'safe',
  fields: [{ field: 'desc', before: 'a', after: 'b', severity: 'safe', rule: 'DESCRIPTION_CHANGED' }],
};
const renamed: DriftChange = {
  kind: 'renamed',
  name: 'Moved',
  severity: 'breaking',
  before: { name: 'Was', mNum: 3 },
  after: { name: 'Moved', mNum: 3 },
  fields: [{ field: 'name', before: 'Was', after: 'Moved', severity: 'breaking', rule: 'MESSAGE_RENAMED' }],
};
const stale: StaleFile = { path: 'messages/Old.ts', reason: 'extra' };

/** A change as reported: named by `rule`, its fields by `fieldRules` in order. */
function ruled(change: DriftChange, rule: RuleId, ...fieldRules: RuleId[]): ReportedChange {
  if (change.kind === 'added' || change.kind === 'removed') return { ...change, rule };
  return { ...change, rule, fields: change.fields.map((field, i) => ({ ...field, rule: fieldRules[i]! })) };
}
const none = { accepted: [], settings: [] };

describe('buildReport', () => {
  const cases: { name: string; changes: DriftChange[]; staleFiles?: StaleFile[]; want: DriftReport }[] = [
    {
      name: 'nothing: in sync',
      changes: [],
      want: {
        inSync: true,
        summary: { added: 0, removed: 0, changed: 0, renamed: 0, breaking: 0, dangerous: 0, safe: 0, accepted: 0 },
        changes: [],
        staleFiles: [],
        ...none,
      },
    },
    {
      name: 'stale files alone are drift',
      changes: [],
      staleFiles: [stale],
      want: {
        inSync: false,
        summary: { added: 0, removed: 0, changed: 0, renamed: 0, breaking: 0, dangerous: 0, safe: 0, accepted: 0 },
        changes: [],
        staleFiles: [stale],
        ...none,
      },
    },
    {
      name: 'counts per kind and per severity; sorts changes and stale files',
      changes: [safeChange, added, changed, renamed, removed],
      staleFiles: [stale, { path: 'index.ts', reason: 'modified' }],
      want: {
        inSync: false,
        summary: { added: 1, removed: 1, changed: 2, renamed: 1, breaking: 2, dangerous: 1, safe: 2, accepted: 0 },
        changes: [
          ruled(renamed, 'MESSAGE_RENAMED', 'MESSAGE_RENAMED'),
          ruled(removed, 'MESSAGE_REMOVED'),
          ruled(changed, 'SCHEMA_HASH_CHANGED', 'SCHEMA_HASH_CHANGED'),
          ruled(safeChange, 'DESCRIPTION_CHANGED', 'DESCRIPTION_CHANGED'),
          ruled(added, 'MESSAGE_ADDED'),
        ],
        staleFiles: [{ path: 'index.ts', reason: 'modified' }, stale],
        ...none,
      },
    },
  ];

  it.each(cases)('$name', ({ changes, staleFiles, want }) => {
    expect(buildReport(staleFiles ? { changes, staleFiles } : { changes })).toEqual(want);
  });

  it('matches the SPEC example shape end to end', () => {
    const report = buildReport({
      changes: diffDescriptors({
        locked: [
          descriptor('OldType', { mNum: 1 }),
          descriptor('SomeType', { mNum: 2, schemaHash: '6F89DED149E6399C' }),
        ],
        fetched: [descriptor('SomeType', { mNum: 2, schemaHash: '0A1B2C3D4E5F6071' })],
      }),
    });
    expect(report).toEqual({
      inSync: false,
      summary: { added: 0, removed: 1, changed: 1, renamed: 0, breaking: 1, dangerous: 1, safe: 0, accepted: 0 },
      changes: [
        { kind: 'removed', name: 'OldType', severity: 'breaking', before: { mNum: 1 }, rule: 'MESSAGE_REMOVED' },
        {
          kind: 'changed',
          name: 'SomeType',
          rule: 'SCHEMA_HASH_CHANGED',
          severity: 'dangerous',
          fields: [
            { field: 'schemaHash', rule: 'SCHEMA_HASH_CHANGED', before: '6F89DED149E6399C', after: '0A1B2C3D4E5F6071', severity: 'dangerous' },
          ],
        },
      ],
      accepted: [],
      staleFiles: [],
      settings: [],
    });
  });
});

describe('hasBreaking', () => {
  const cases: { name: string; changes: DriftChange[]; staleFiles?: StaleFile[]; want: boolean }[] = [
    { name: 'in sync', changes: [], want: false },
    { name: 'only safe and dangerous', changes: [added, changed, safeChange], want: false },
    { name: 'a removal', changes: [added, removed], want: true },
    { name: 'a rename', changes: [renamed], want: true },
    { name: 'a stale file: the repository disagrees with itself', changes: [added], staleFiles: [stale], want: true },
  ];
  it.each(cases)('$name → $want', ({ changes, staleFiles, want }) => {
    expect(hasBreaking(buildReport(staleFiles ? { changes, staleFiles } : { changes }))).toBe(want);
  });
});
