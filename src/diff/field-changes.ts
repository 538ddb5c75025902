import { KNOWN_FIELDS, type Descriptor } from '../model/descriptor.js';
import { extraChanges, recordChanges } from './field-diff.js';
import { ruleOfField } from './rules.js';
import type { FieldFact } from './types.js';

/** Two descriptors of one message type, as locked and as fetched. */
interface Pair {
  before: Descriptor;
  after: Descriptor;
}

/**
 * Every field that differs between two descriptors of one message type, each named by its rule
 * (`ruleOfField`; the rating step gives it its severity, SPEC "Drift report"), in the order of
 * `KNOWN_FIELDS`, then the unknown fields' keys sorted (compared as JSON regardless of key
 * order), then the record type's fields when both record them (`recordChanges`). Empty when the
 * two are the same.
 */
export function fieldChanges(pair: Pair): FieldFact[] {
  const changes: FieldFact[] = [];
  const changed = (field: string, before: unknown, after: unknown) => {
    changes.push({ field, before: copy(before), after: copy(after), rule: ruleOfField({ field, before, after }) });
  };
  for (const field of KNOWN_FIELDS) {
    if (!sameValue(pair.before[field], pair.after[field])) changed(field, pair.before[field], pair.after[field]);
  }
  for (const { key, before, after } of extraChanges(pair.before.extra, pair.after.extra)) changed(key, before, after);
  changes.push(...recordChanges(pair));
  return changes;
}

/** A known field's values: the same primitive, or lists of the same items in the same order. */
function sameValue(before: unknown, after: unknown): boolean {
  if (before === after) return true;
  return Array.isArray(before) && Array.isArray(after) && before.length === after.length && before.every((item, i) => item === after[i]);
}

/** Copies arrays, so a report never shares (and lets callers mutate) a descriptor's lists. */
function copy<T>(value: T): T {
  return (Array.isArray(value) ? [...value] : value) as T;
}
