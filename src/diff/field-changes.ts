import { canonicalJson } from '../model/canonical-json.js';
import { compareStrings, KNOWN_FIELDS, type Descriptor, type KnownField } from '../model/descriptor.js';
import { recordChanges } from './field-diff.js';
import type { FieldChange, Severity } from './types.js';

/** Two descriptors of one message type, as locked and as fetched. */
interface Pair {
  before: Descriptor;
  after: Descriptor;
}

/** A known field's value on both sides, each present. */
type Present<F extends KnownField> = NonNullable<Descriptor[F]>;

/**
 * The severity of a change of a known field present on both sides, or `undefined` when it did
 * not change. A mapped type over `KnownField`, so a field added to the model cannot be forgotten.
 */
const RULES: { [F in KnownField]: (before: Present<F>, after: Present<F>) => Severity | undefined } = {
  // Consumers look message types up by name and number: moving either breaks them.
  name: (before, after) => (before === after ? undefined : 'breaking'),
  mNum: (before, after) => (before === after ? undefined : 'breaking'),
  // A new hash means the message's own schema changed; we cannot see how, so it may break.
  schemaHash: (before, after) => (before === after ? undefined : 'dangerous'),
  actions: (before, after) => actionsSeverity({ before, after }),
  // Losing a key breaks lookups by it; gaining one only offers more.
  hasTKey: (before, after) => flagSeverity({ before, after }),
  hasEKey: (before, after) => flagSeverity({ before, after }),
  hasOKey: (before, after) => flagSeverity({ before, after }),
  // Either direction changes how the message is filtered, which may or may not matter.
  hasCF: (before, after) => (before === after ? undefined : 'dangerous'),
  // The token routes messages: a message in another group is not where code expects it.
  mToken: (before, after) => (before === after ? undefined : 'breaking'),
  staticFilterFields: (before, after) => (sameList({ before, after }) ? undefined : 'dangerous'),
};

/**
 * Every field that differs between two descriptors of one message type, each with its severity
 * (SPEC "Drift report"), in the order of `KNOWN_FIELDS`, then the unknown fields' keys sorted,
 * then the record type's fields when both record them (`recordChanges`). Empty when the two are
 * the same.
 */
export function fieldChanges(pair: Pair): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of KNOWN_FIELDS) {
    const change = knownFieldChange(pair, field);
    if (change !== undefined) changes.push(change);
  }
  changes.push(...extraChanges({ before: pair.before.extra, after: pair.after.extra }), ...recordChanges(pair));
  return changes;
}

/**
 * The change of one known field. A field that appears only offers more (safe); one that
 * disappears takes away what code may read (dangerous); absent on both sides is no change.
 */
function knownFieldChange<F extends KnownField>(pair: Pair, field: F): FieldChange | undefined {
  const before = pair.before[field];
  const after = pair.after[field];
  if (before === undefined || after === undefined) {
    if (before === after) return undefined;
    return { field, before: copy(before), after: copy(after), severity: before === undefined ? 'safe' : 'dangerous' };
  }
  const severity = RULES[field](before as Present<F>, after as Present<F>);
  return severity === undefined ? undefined : { field, before: copy(before), after: copy(after), severity };
}

/**
 * `actions` changes as ONE field even when some were removed and others added (the reader sees
 * both lists at once): breaking when any action is gone, safe when actions were only added or
 * merely reordered.
 */
function actionsSeverity(input: { before: readonly string[]; after: readonly string[] }): Severity | undefined {
  if (sameList(input)) return undefined;
  const remaining = new Set(input.after);
  return input.before.some((action) => !remaining.has(action)) ? 'breaking' : 'safe';
}

/** A key flag: true → false is breaking, false → true safe. */
function flagSeverity(input: { before: boolean; after: boolean }): Severity | undefined {
  if (input.before === input.after) return undefined;
  return input.before ? 'breaking' : 'safe';
}

/**
 * Changes of unknown fields (`desc`, `topic`, …), compared as JSON regardless of key order.
 * They only document the message, so every change, addition or removal is safe.
 */
function extraChanges(input: { before: Descriptor['extra']; after: Descriptor['extra'] }): FieldChange[] {
  const keys = [...new Set([...Object.keys(input.before), ...Object.keys(input.after)])].sort(compareStrings);
  const changes: FieldChange[] = [];
  for (const key of keys) {
    // Own properties only: a key like `constructor` must not find `Object.prototype`'s member.
    const before = Object.hasOwn(input.before, key) ? input.before[key] : undefined;
    const after = Object.hasOwn(input.after, key) ? input.after[key] : undefined;
    if (canonicalJson(before) !== canonicalJson(after)) changes.push({ field: key, before, after, severity: 'safe' });
  }
  return changes;
}

/** Same items in the same order. */
function sameList(input: { before: readonly string[]; after: readonly string[] }): boolean {
  return input.before.length === input.after.length && input.before.every((item, i) => item === input.after[i]);
}

/** Copies arrays, so a report never shares (and lets callers mutate) a descriptor's lists. */
function copy<T>(value: T): T {
  return (Array.isArray(value) ? [...value] : value) as T;
}
