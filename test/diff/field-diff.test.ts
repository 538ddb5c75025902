import { describe, expect, it } from 'vitest';
import { diffDescriptors, recordChanges, renderReport, buildReport, RECORD_RULES } from '../../src/diff/index.js';
import { makeField, type FieldDescriptor } from '../../src/model/field.js';
import { defaultSeverity } from '../../src/diff/rules.js';
import { descriptor } from './descriptor-fixture.js';

const field = (name: string, more: Partial<FieldDescriptor> = {}, extra: Record<string, unknown> = {}): FieldDescriptor =>
  makeField({ name, fType: 'Int', ...more }, extra);

const BASE: FieldDescriptor[] = [
  field('ticker', { pos: 1, fNum: 10, fType: 'TickerKey', isPkey: true, desc: 'The stock.' }),
  field('bidExch', { pos: 2, fNum: 11, fType: 'Enum', eSet: ['None', 'NYSE', 'NSDQ'] }),
  field('legRatio', { pos: 3, fNum: 12, inRepeater: 'legs' }, { sLen: 4 }),
];

/** The record changes from BASE to `after` (the hash changed alongside). */
const changesTo = (after: FieldDescriptor[]) =>
  recordChanges({ before: descriptor('Quote', { fields: BASE }), after: descriptor('Quote', { schemaHash: 'BBBB', fields: after }) });

const replaced = (index: number, next: FieldDescriptor) => BASE.map((f, i) => (i === index ? next : f));

describe('recordChanges', () => {
  it.each<[string, FieldDescriptor[], Array<[string, string, unknown, unknown, string]>]>([
    ['a field removed', BASE.slice(0, 2), [['RECORD_FIELD_REMOVED', 'fields.legs.legRatio', 'Int', undefined, 'breaking']]],
    ['a field added', [...BASE, field('bidSize', { pos: 4 })], [['RECORD_FIELD_ADDED', 'fields.bidSize', undefined, 'Int', 'safe']]],
    ['a field moved to another group', replaced(2, field('legRatio', { pos: 3, fNum: 12 }, { sLen: 4 })), [
      ['RECORD_FIELD_ADDED', 'fields.legRatio', undefined, 'Int', 'safe'],
      ['RECORD_FIELD_REMOVED', 'fields.legs.legRatio', 'Int', undefined, 'breaking'],
    ]],
    ['a type changed', replaced(2, field('legRatio', { pos: 3, fNum: 12, inRepeater: 'legs', fType: 'Long' }, { sLen: 4 })), [['RECORD_FIELD_TYPE_CHANGED', 'fields.legs.legRatio.fType', 'Int', 'Long', 'breaking']]],
    ['an enum value removed and one added', replaced(1, field('bidExch', { pos: 2, fNum: 11, fType: 'Enum', eSet: ['None', 'NYSE', 'ARCA'] })), [
      ['RECORD_ENUM_VALUE_REMOVED', 'fields.bidExch.eSet', 'NSDQ', undefined, 'breaking'],
      ['RECORD_ENUM_VALUE_ADDED', 'fields.bidExch.eSet', undefined, 'ARCA', 'safe'],
    ]],
    ['enum values reordered', replaced(1, field('bidExch', { pos: 2, fNum: 11, fType: 'Enum', eSet: ['None', 'NSDQ', 'NYSE'] })), [['RECORD_FIELD_DETAIL_CHANGED', 'fields.bidExch.eSet', ['None', 'NYSE', 'NSDQ'], ['None', 'NSDQ', 'NYSE'], 'safe']]],
    ['isPkey changed', replaced(0, field('ticker', { pos: 1, fNum: 10, fType: 'TickerKey', desc: 'The stock.' })), [['RECORD_PKEY_CHANGED', 'fields.ticker.isPkey', true, undefined, 'breaking']]],
    ['a field number changed', replaced(1, field('bidExch', { pos: 2, fNum: 99, fType: 'Enum', eSet: ['None', 'NYSE', 'NSDQ'] })), [['RECORD_FIELD_NUMBER_CHANGED', 'fields.bidExch.fNum', 11, 99, 'dangerous']]],
    ['a description changed', replaced(0, field('ticker', { pos: 1, fNum: 10, fType: 'TickerKey', isPkey: true, desc: 'The symbol.' })), [['RECORD_FIELD_DESCRIPTION_CHANGED', 'fields.ticker.desc', 'The stock.', 'The symbol.', 'safe']]],
    ['another detail changed', replaced(2, field('legRatio', { pos: 7, fNum: 12, inRepeater: 'legs' }, { sLen: 8 })), [
      ['RECORD_FIELD_DETAIL_CHANGED', 'fields.legs.legRatio.pos', 3, 7, 'safe'],
      ['RECORD_FIELD_DETAIL_CHANGED', 'fields.legs.legRatio.sLen', 4, 8, 'safe'],
    ]],
    ['nothing but the hash', BASE, [['RECORD_FIELDS_UNCHANGED', 'fields', undefined, undefined, 'safe']]],
    // One inserted field shifts every later one: one change of the type for each shifted key, its
    // before and after mapping each field to its value in record order.
    ['a field inserted first: one renumbering and one move', [field('venue', { pos: 1, fNum: 10 }), ...BASE.map((f) => ({ ...f, pos: f.pos! + 1, fNum: f.fNum! + 1 }))], [
      ['RECORD_FIELD_ADDED', 'fields.venue', undefined, 'Int', 'safe'],
      ['RECORD_FIELDS_RENUMBERED', 'fields.*.fNum', { ticker: 10, bidExch: 11, 'legs.legRatio': 12 }, { ticker: 11, bidExch: 12, 'legs.legRatio': 13 }, 'dangerous'],
      ['RECORD_FIELDS_MOVED', 'fields.*.pos', { ticker: 1, bidExch: 2, 'legs.legRatio': 3 }, { ticker: 2, bidExch: 3, 'legs.legRatio': 4 }, 'safe'],
    ]],
    ['the first field removed: the others move, their numbers kept', BASE.slice(1).map((f) => ({ ...f, pos: f.pos! - 1 })), [
      ['RECORD_FIELD_REMOVED', 'fields.ticker', 'TickerKey', undefined, 'breaking'],
      ['RECORD_FIELDS_MOVED', 'fields.*.pos', { bidExch: 2, 'legs.legRatio': 3 }, { bidExch: 1, 'legs.legRatio': 2 }, 'safe'],
    ]],
  ])('%s', (_label, after, want) => {
    // recordChanges gives facts; the rating step gives each its rule's default severity.
    expect(changesTo(after).map((c) => [c.rule, c.field, c.before, c.after, defaultSeverity(c.rule)])).toEqual(want);
  });

  it('compares nothing when a side records no fields, and reports nothing when nothing changed', () => {
    expect(recordChanges({ before: descriptor('Q'), after: descriptor('Q', { schemaHash: 'BBBB', fields: BASE }) })).toEqual([]);
    expect(recordChanges({ before: descriptor('Q', { fields: BASE }), after: descriptor('Q', { fields: [...BASE].reverse() }) })).toEqual([]);
  });

  it('has a rule with a default severity for every change, UPPER_SNAKE and unique', () => {
    const ids = RECORD_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^RECORD_[A-Z]+(?:_[A-Z]+)*$/);
  });
});

describe('field-level drift in the report', () => {
  const before = descriptor('Quote', { fields: BASE });
  const report = buildReport({
    changes: diffDescriptors({
      locked: [before, descriptor('Same', { mNum: 2, fields: BASE })],
      fetched: [
        descriptor('Quote', { schemaHash: 'BBBB', fields: [...replaced(1, field('bidExch', { pos: 2, fNum: 11, fType: 'Enum', eSet: ['None', 'NYSE', 'NSDQ', 'ARCA'] })).slice(0, 2)] }),
        descriptor('Same', { mNum: 2, schemaHash: 'CCCC', fields: BASE }),
      ],
    }),
  });

  it('lists the field changes after the hash, each with its rule, in every format', () => {
    expect(renderReport(report, { format: 'text', command: 'check' })).toBe(
      [
        'Breaking',
        '  changed Quote',
        '    schemaHash: "AAAA" → "BBBB" [SCHEMA_HASH_CHANGED] (dangerous)',
        '    fields.bidExch.eSet: (absent) → "ARCA" [RECORD_ENUM_VALUE_ADDED] (safe)',
        '    fields.legs.legRatio: "Int" → (absent) [RECORD_FIELD_REMOVED]',
        '',
        'Dangerous',
        '  changed Same',
        '    schemaHash: "AAAA" → "CCCC" [SCHEMA_HASH_CHANGED]',
        '    fields: hash changed, fields unchanged (no field, type, key or visible enum value differs; an enum or flag may have gained a value this key does not see) [RECORD_FIELDS_UNCHANGED] (safe)',
        '',
        'Drift: 2 message types (1 breaking, 1 dangerous, 0 safe)',
      ].join('\n'),
    );
    const json = JSON.parse(renderReport(report, { format: 'json', command: 'check' }));
    expect(json.changes[0].fields.slice(1)).toEqual([
      { field: 'fields.bidExch.eSet', after: 'ARCA', severity: 'safe', rule: 'RECORD_ENUM_VALUE_ADDED' },
      { field: 'fields.legs.legRatio', before: 'Int', severity: 'breaking', rule: 'RECORD_FIELD_REMOVED' },
    ]);
    expect(json.changes[1].fields[1]).toEqual({ field: 'fields', severity: 'safe', rule: 'RECORD_FIELDS_UNCHANGED' });
    expect(renderReport(report, { format: 'markdown', command: 'check' })).toContain('`fields.legs.legRatio`: `"Int"` → `(absent)` [RECORD_FIELD_REMOVED]');
    expect(renderReport(report, { format: 'github', command: 'check' })).toContain('%0Afields.legs.legRatio: "Int" → (absent) [RECORD_FIELD_REMOVED]');
  });
});

describe('a shift in the report', () => {
  const inserted = [field('venue', { pos: 1, fNum: 10 }), ...BASE.map((f) => ({ ...f, pos: f.pos! + 1, fNum: f.fNum! + 1 }))];
  const report = buildReport({
    changes: diffDescriptors({ locked: [descriptor('Quote', { fields: BASE })], fetched: [descriptor('Quote', { schemaHash: 'BBBB', fields: inserted })] }),
  });

  it('is one line per shifted key, with the count and the first and last field, in every format', () => {
    expect(renderReport(report, { format: 'text', command: 'check' }).split('\n').slice(0, 6)).toEqual([
      'Dangerous',
      '  changed Quote',
      '    schemaHash: "AAAA" → "BBBB" [SCHEMA_HASH_CHANGED]',
      '    fields.venue: (absent) → "Int" [RECORD_FIELD_ADDED] (safe)',
      '    fields.*.fNum: 3 fields renumbered, from ticker (10 → 11) to legs.legRatio (12 → 13) [RECORD_FIELDS_RENUMBERED]',
      '    fields.*.pos: 3 fields moved, from ticker (1 → 2) to legs.legRatio (3 → 4) [RECORD_FIELDS_MOVED] (safe)',
    ]);
    expect(renderReport(report, { format: 'markdown', command: 'check' })).toContain(
      '`fields.*.fNum`: 3 fields renumbered, from `ticker` (`10` → `11`) to `legs.legRatio` (`12` → `13`) [RECORD_FIELDS_RENUMBERED]',
    );
    expect(renderReport(report, { format: 'github', command: 'check' })).toContain('%0Afields.*.pos: 3 fields moved, from ticker (1 → 2) to legs.legRatio (3 → 4) [RECORD_FIELDS_MOVED] (safe)');
    const json = JSON.parse(renderReport(report, { format: 'json', command: 'check' }));
    expect(json.changes[0].fields.at(-1)).toEqual({ field: 'fields.*.pos', rule: 'RECORD_FIELDS_MOVED', before: { ticker: 1, bidExch: 2, 'legs.legRatio': 3 }, after: { ticker: 2, bidExch: 3, 'legs.legRatio': 4 }, severity: 'safe' });
  });

  it('is accepted, or turned off, as one change', () => {
    const rated = (policy: Parameters<typeof buildReport>[0]['policy']) => buildReport({ changes: report.changes, policy });
    const accepted = rated({ accept: [{ rule: 'RECORD_FIELDS_MOVED', message: 'Quote', reason: 'order does not matter here' }] });
    expect(accepted.accepted.map((change) => [change.rule, change.field])).toEqual([['RECORD_FIELDS_MOVED', 'fields.*.pos']]);
    const off = rated({ rules: { RECORD_FIELDS_RENUMBERED: 'off' } });
    expect(off.changes[0]!.kind === 'changed' && off.changes[0]!.fields.map((f) => f.rule)).toEqual(['SCHEMA_HASH_CHANGED', 'RECORD_FIELD_ADDED', 'RECORD_FIELDS_MOVED']);
  });
});
