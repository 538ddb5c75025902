import { canonicalJson } from '../util/canonical-json.js';
import { compareStrings, type Descriptor } from '../model/descriptor.js';
import { fieldPath, sortFields, type FieldDescriptor } from '../model/field.js';
import type { RecordRuleId } from './record-rules.js';
import type { FieldFact } from './types.js';

/**
 * The field-level changes of one message type whose fields both sides record (fields on), each
 * named by its rule (`record-rules.ts`); the rating step gives it its severity. Pure. A field is identified by
 * its path (`name`, or `group.name` inside a repeating group); every change names it as
 * `fields.<path>`, and one of its attributes as `fields.<path>.<key>`:
 *
 * - a field gone: `fields.<path>`, its fType → absent; a new one: absent → its fType;
 * - `fType`, `isPkey` (absent counts as false), `fNum`, `desc`: before → after;
 * - each enum or flag value gone or new (`eSet`): `fields.<path>.eSet`, the value → absent, or
 *   absent → the value; the same values in another order: the two lists;
 * - every other key (`pos`, `sLen`, `label`, …): before → after;
 * - a shift: when {@link SHIFT_FROM} or more fields have another `fNum` (or `pos`), as one inserted
 *   or removed field makes every later one have, their changes are one change of the type,
 *   `fields.*.fNum` (`RECORD_FIELDS_RENUMBERED`) or `fields.*.pos` (`RECORD_FIELDS_MOVED`), whose
 *   before and after map each such field's path to its value, in record order: a report then
 *   shows one line per type, and the JSON still holds every value.
 *
 * When `schemaHash` changed and no field did, the one change says so (`RECORD_FIELDS_UNCHANGED`):
 * a changed hash is never "no change". Empty when a side records no fields (the first pull with
 * fields on compares nothing).
 */
export function recordChanges(pair: { before: Descriptor; after: Descriptor }): FieldFact[] {
  const { before, after } = pair;
  if (before.fields === undefined || after.fields === undefined) return [];
  const locked = byPath(before.fields);
  const fetched = byPath(after.fields);
  const changes: FieldFact[] = [];
  const change = (rule: RecordRuleId, field: string, from: unknown, to: unknown) => changes.push({ field: `fields.${field}`, before: from, after: to, rule });
  const renumbered = shifted(before.fields, fetched, 'fNum');
  const moved = shifted(before.fields, fetched, 'pos');
  const individually = { fNum: renumbered.length < SHIFT_FROM, pos: moved.length < SHIFT_FROM };
  for (const path of [...new Set([...locked.keys(), ...fetched.keys()])].sort(compareStrings)) {
    const old = locked.get(path);
    const now = fetched.get(path);
    if (now === undefined) change('RECORD_FIELD_REMOVED', path, old!.fType, undefined);
    else if (old === undefined) change('RECORD_FIELD_ADDED', path, undefined, now.fType);
    else attributeChanges(old, now, individually, (rule, key, from, to) => change(rule, `${path}.${key}`, from, to));
  }
  if (!individually.fNum) changes.push(shift('RECORD_FIELDS_RENUMBERED', 'fNum', renumbered));
  if (!individually.pos) changes.push(shift('RECORD_FIELDS_MOVED', 'pos', moved));
  if (changes.length === 0 && before.schemaHash !== after.schemaHash) {
    changes.push({ field: 'fields', before: undefined, after: undefined, rule: 'RECORD_FIELDS_UNCHANGED' });
  }
  return changes;
}

/**
 * How many fields of a type must share a change of `fNum` (or `pos`) for it to be one change of the
 * type: two already make a shift (a field inserted before the last two moves both), and a lone
 * change stays the field's own (`RECORD_FIELD_NUMBER_CHANGED`, `RECORD_FIELD_DETAIL_CHANGED`).
 */
const SHIFT_FROM = 2;

/** One field's value of a shifting key on both sides. */
interface Shifted {
  path: string;
  before: unknown;
  after: unknown;
}

/** The fields on both sides whose `key` differs, in the locked record order. */
function shifted(lockedFields: readonly FieldDescriptor[], fetched: ReadonlyMap<string, FieldDescriptor>, key: 'fNum' | 'pos'): Shifted[] {
  return sortFields(lockedFields).flatMap((old) => {
    const path = fieldPath(old);
    const now = fetched.get(path);
    return now === undefined || now[key] === old[key] ? [] : [{ path, before: old[key], after: now[key] }];
  });
}

/**
 * The one change of a shift, `fields.*.<key>` (no field's path has a `*`: the service's field
 * names are protobuf names): before and after map each field's path to its value, in record order.
 * `fromEntries` defines own properties, so a field named `__proto__` is a key like any other.
 */
function shift(rule: RecordRuleId, key: 'fNum' | 'pos', fields: readonly Shifted[]): FieldFact {
  return {
    field: `fields.*.${key}`,
    before: Object.fromEntries(fields.map((field) => [field.path, field.before])),
    after: Object.fromEntries(fields.map((field) => [field.path, field.after])),
    rule,
  };
}

/**
 * The changes of one field present on both sides, in a fixed order of its keys; `fNum` and `pos`
 * only where they are reported `individually` (else the type's shift holds them).
 */
function attributeChanges(
  old: FieldDescriptor,
  now: FieldDescriptor,
  individually: { fNum: boolean; pos: boolean },
  change: (rule: RecordRuleId, key: string, before: unknown, after: unknown) => void,
): void {
  if (old.fType !== now.fType) change('RECORD_FIELD_TYPE_CHANGED', 'fType', old.fType, now.fType);
  if ((old.isPkey === true) !== (now.isPkey === true)) change('RECORD_PKEY_CHANGED', 'isPkey', old.isPkey, now.isPkey);
  if (individually.fNum && old.fNum !== now.fNum) change('RECORD_FIELD_NUMBER_CHANGED', 'fNum', old.fNum, now.fNum);
  const values = { before: old.eSet ?? [], after: now.eSet ?? [] };
  const gone = values.before.filter((value) => !values.after.includes(value));
  const added = values.after.filter((value) => !values.before.includes(value));
  for (const value of gone) change('RECORD_ENUM_VALUE_REMOVED', 'eSet', value, undefined);
  for (const value of added) change('RECORD_ENUM_VALUE_ADDED', 'eSet', undefined, value);
  if (gone.length === 0 && added.length === 0 && canonicalJson(old.eSet) !== canonicalJson(now.eSet)) change('RECORD_FIELD_DETAIL_CHANGED', 'eSet', old.eSet, now.eSet);
  if (old.desc !== now.desc) change('RECORD_FIELD_DESCRIPTION_CHANGED', 'desc', old.desc, now.desc);
  if (individually.pos && old.pos !== now.pos) change('RECORD_FIELD_DETAIL_CHANGED', 'pos', old.pos, now.pos);
  for (const { key, before, after } of extraChanges(old.extra, now.extra)) change('RECORD_FIELD_DETAIL_CHANGED', key, before, after);
}

/**
 * The keys of two `extra` records (a descriptor's or a field's unknown keys) whose values differ,
 * compared as JSON regardless of key order, sorted, each with its values (undefined when absent).
 */
export function extraChanges(before: Record<string, unknown>, after: Record<string, unknown>): { key: string; before: unknown; after: unknown }[] {
  // Own properties only: a key like `constructor` must not find `Object.prototype`'s member.
  const value = (record: Record<string, unknown>, key: string) => (Object.hasOwn(record, key) ? record[key] : undefined);
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .sort(compareStrings)
    .map((key) => ({ key, before: value(before, key), after: value(after, key) }))
    .filter((change) => canonicalJson(change.before) !== canonicalJson(change.after));
}

function byPath(fields: readonly FieldDescriptor[]): Map<string, FieldDescriptor> {
  return new Map(fields.map((field) => [fieldPath(field), field]));
}
