/**
 * Every rule id, one table row each: a pair of descriptors (or a field change) that the rule
 * names, the id the report gives it and its default severity (SPEC "Drift report").
 */
import { describe, expect, it } from 'vitest';
import { buildReport, diffDescriptors, RECORD_RULES, RULE_IDS, RULES, type RuleId, type Severity } from '../../src/diff/index.js';
import { ruleOfField } from '../../src/diff/rules.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { descriptor } from './descriptor-fixture.js';

const base = descriptor('Order', { mNum: 7, extra: { desc: 'An order', topic: 'orders' } });
const as = (overrides: Partial<Omit<Descriptor, 'name'>>): Descriptor => ({ ...base, ...overrides });

interface Row {
  rule: RuleId;
  severity: Severity;
  locked: Descriptor[];
  fetched: Descriptor[];
}

const rows: Row[] = [
  { rule: 'MESSAGE_ADDED', severity: 'safe', locked: [], fetched: [base] },
  { rule: 'MESSAGE_REMOVED', severity: 'breaking', locked: [base], fetched: [] },
  { rule: 'MESSAGE_RENAMED', severity: 'breaking', locked: [base], fetched: [{ ...base, name: 'PurchaseOrder' }] },
  { rule: 'MNUM_CHANGED', severity: 'breaking', locked: [base], fetched: [as({ mNum: 8 })] },
  { rule: 'ACTION_REMOVED', severity: 'breaking', locked: [base], fetched: [as({ actions: ['select'] })] },
  { rule: 'ACTION_ADDED', severity: 'safe', locked: [base], fetched: [as({ actions: ['select', 'insert', 'delete'] })] },
  { rule: 'ACTIONS_REORDERED', severity: 'safe', locked: [base], fetched: [as({ actions: ['insert', 'select'] })] },
  { rule: 'KEY_FLAG_REMOVED', severity: 'breaking', locked: [base], fetched: [as({ hasTKey: false })] },
  { rule: 'KEY_FLAG_ADDED', severity: 'safe', locked: [base], fetched: [as({ hasEKey: true })] },
  { rule: 'TOKEN_CHANGED', severity: 'breaking', locked: [base], fetched: [as({ mToken: 'Risk' })] },
  { rule: 'SCHEMA_HASH_CHANGED', severity: 'dangerous', locked: [base], fetched: [as({ schemaHash: 'BBBB' })] },
  { rule: 'CLIENT_FIRM_CHANGED', severity: 'dangerous', locked: [base], fetched: [as({ hasCF: true })] },
  { rule: 'FILTER_FIELDS_CHANGED', severity: 'dangerous', locked: [base], fetched: [as({ staticFilterFields: ['region', 'desk'] })] },
  { rule: 'DESCRIPTION_CHANGED', severity: 'safe', locked: [base], fetched: [as({ extra: { desc: 'A buy or sell order', topic: 'orders' } })] },
  { rule: 'FIELD_APPEARED', severity: 'safe', locked: [as({ mToken: undefined })], fetched: [base] },
  { rule: 'FIELD_DISAPPEARED', severity: 'dangerous', locked: [base], fetched: [as({ actions: undefined })] },
  { rule: 'OTHER_FIELD_CHANGED', severity: 'safe', locked: [base], fetched: [as({ extra: { desc: 'An order', topic: 'orders/v2' } })] },
];

describe('rule ids', () => {
  it('the table covers every rule id, and every id is UPPER_SNAKE and unique', () => {
    // Field-level rules of the record types are the field diff's own (test/diff/field-diff.test.ts).
    expect([...rows.map((row) => row.rule), ...RECORD_RULES.map((rule) => rule.id)].sort()).toEqual([...RULE_IDS].sort());
    expect(new Set(RULE_IDS).size).toBe(RULE_IDS.length);
    for (const id of RULE_IDS) expect(id).toMatch(/^[A-Z]+(?:_[A-Z]+)*$/);
  });

  it.each(rows)('$rule ($severity)', ({ rule, severity, locked, fetched }) => {
    const report = buildReport({ changes: diffDescriptors({ locked, fetched }) });
    expect(report.changes).toHaveLength(1);
    const change = report.changes[0]!;
    expect(change.rule).toBe(rule);
    expect(change.severity).toBe(severity);
    if (change.kind === 'changed' || change.kind === 'renamed') {
      expect(change.fields.map((field) => [field.rule, field.severity])).toEqual([[rule, severity]]);
    }
    expect(RULES.find((row) => row.id === rule)?.severity).toBe(severity);
  });

  it.each(rows)('the diff itself rates a $rule change as the rule table does', ({ locked, fetched }) => {
    const [change] = diffDescriptors({ locked, fetched });
    const report = buildReport({ changes: [change!] }).changes[0]!;
    expect(report.severity).toBe(change!.severity);
    if (change!.kind === 'changed' || change!.kind === 'renamed') expect(change!.fields.map((field) => field.severity)).toEqual([report.severity]);
  });

  it('a changed type is named by its worst field, each field by its own', () => {
    const report = buildReport({ changes: diffDescriptors({ locked: [base], fetched: [as({ schemaHash: 'BBBB', hasOKey: false, hasCF: undefined, extra: {} })] }) });
    const change = report.changes[0]!;
    expect(change.kind === 'changed' && change.fields.map((field) => `${field.field} ${field.rule}`)).toEqual([
      'schemaHash SCHEMA_HASH_CHANGED',
      'hasOKey KEY_FLAG_REMOVED',
      'hasCF FIELD_DISAPPEARED',
      'desc DESCRIPTION_CHANGED',
      'topic OTHER_FIELD_CHANGED',
    ]);
    expect([change.rule, change.severity]).toEqual(['KEY_FLAG_REMOVED', 'breaking']);
  });

  const fields: { name: string; field: string; before: unknown; after: unknown; want: RuleId }[] = [
    { name: 'actions both removed and added: one field, the worse rule', field: 'actions', before: ['select', 'insert'], after: ['select', 'delete'], want: 'ACTION_REMOVED' },
    { name: 'presence first: a known field absent before', field: 'mToken', before: undefined, after: 'Risk', want: 'FIELD_APPEARED' },
    { name: 'presence first: a known field absent after', field: 'hasCF', before: false, after: undefined, want: 'FIELD_DISAPPEARED' },
    { name: 'desc that appears: a description change', field: 'desc', before: undefined, after: 'x', want: 'DESCRIPTION_CHANGED' },
    { name: 'another unknown field that disappears', field: 'mCat', before: 'Trading', after: undefined, want: 'OTHER_FIELD_CHANGED' },
    { name: 'a field named like an Object member', field: 'constructor', before: 1, after: 2, want: 'OTHER_FIELD_CHANGED' },
    { name: 'a key flag going No → Yes', field: 'hasOKey', before: false, after: true, want: 'KEY_FLAG_ADDED' },
  ];
  it.each(fields)('$name → $want', ({ field, before, after, want }) => {
    expect(ruleOfField({ field, before, after })).toBe(want);
  });

  it('a record field change keeps the rule the field diff named it by', () => {
    const fields = [{ field: 'fields.qty', before: 'Int', after: undefined, severity: 'breaking' as const, rule: 'RECORD_FIELD_REMOVED' as const }];
    const report = buildReport({ changes: [{ kind: 'changed', name: 'Order', severity: 'breaking', fields }] });
    expect(report.changes[0]).toMatchObject({ rule: 'RECORD_FIELD_REMOVED', fields: [{ field: 'fields.qty', rule: 'RECORD_FIELD_REMOVED' }] });
  });
});
