import type { Severity } from './types.js';

/**
 * The drift rules of field-level changes (fields on): each field change `recordChanges` reports
 * carries one of these stable ids (UPPER_SNAKE, never renamed once released) as its `rule`, with
 * the rule's default severity. They join the table of every rule (`rules.ts`), so config `rules`
 * and `accept` and `schema-sync rules` know them too.
 */
export const RECORD_RULES = [
  { id: 'RECORD_FIELD_REMOVED', severity: 'breaking', description: 'A field of the record type is gone (or moved to another repeating group).' },
  { id: 'RECORD_FIELD_TYPE_CHANGED', severity: 'breaking', description: "A field's type (fType) changed." },
  { id: 'RECORD_ENUM_VALUE_REMOVED', severity: 'breaking', description: 'An enum or flag value of a field (eSet) is gone.' },
  { id: 'RECORD_PKEY_CHANGED', severity: 'breaking', description: 'A field joined or left the primary key (isPkey).' },
  { id: 'RECORD_FIELD_NUMBER_CHANGED', severity: 'dangerous', description: 'A field has another field number (fNum).' },
  { id: 'RECORD_FIELD_ADDED', severity: 'safe', description: 'The record type has a new field.' },
  { id: 'RECORD_ENUM_VALUE_ADDED', severity: 'safe', description: 'A field has a new enum or flag value (eSet).' },
  { id: 'RECORD_FIELD_DESCRIPTION_CHANGED', severity: 'safe', description: "A field's description (desc, its TSDoc) changed." },
  { id: 'RECORD_FIELD_DETAIL_CHANGED', severity: 'safe', description: 'Another detail of a field changed (pos, sLen, label, … or the order of its enum values).' },
  {
    id: 'RECORD_FIELDS_UNCHANGED',
    severity: 'safe',
    description: 'schemaHash changed, but every field is as locked: e.g. a shared enum or flag gained a value this key does not see.',
  },
  // A shift: one inserted or removed field moves every later one, so a change that several fields
  // of a type share is one change of the type (listing them), not one per field. Added after the
  // released rules, so that earlier listings stay in order. Renumbering is dangerous as
  // RECORD_FIELD_NUMBER_CHANGED is: the names and types a consumer uses are the same, but whatever
  // reads or writes the binary encoding by field number is not. Moving is safe as `pos` always was
  // (RECORD_FIELD_DETAIL_CHANGED): records are read by name, and an interface means the same in any order of its properties.
  {
    id: 'RECORD_FIELDS_RENUMBERED',
    severity: 'dangerous',
    description: 'Several fields have other field numbers (fNum), e.g. after an inserted field: one change per type, listing them.',
  },
  {
    id: 'RECORD_FIELDS_MOVED',
    severity: 'safe',
    description: 'Several fields have another position (pos), e.g. after an inserted field: one change per type, listing them.',
  },
] as const satisfies ReadonlyArray<{ id: string; severity: Severity; description: string }>;

/** The id of a field-level rule. */
export type RecordRuleId = (typeof RECORD_RULES)[number]['id'];

/** What a report says for `RECORD_FIELDS_UNCHANGED`, instead of before → after. */
export const FIELDS_UNCHANGED_TEXT =
  'fields: hash changed, fields unchanged (no field, type, key or visible enum value differs; an enum or flag may have gained a value this key does not see)';
