import { canonicalJson } from '../model/canonical-json.js';
import { compareStrings, KNOWN_FIELDS, type Descriptor, type KnownField } from '../model/descriptor.js';
import type { FieldChange, Severity } from './types.js';

/** Two descriptors of one message type, as locked and as fetched. */
interface Pair {
  before: Descriptor;
  after: Descriptor;
}

/**
 * The severity of a known field's change, or `undefined` when the field did not change. A
 * `Record` over `KnownField`, so a field added to the model cannot be forgotten here.
 */
const RULES: Record<KnownField, (pair: Pair) => Severity | undefined> = {
  // Consumers look message types up by name and number: moving either breaks them.
  name: ({ before, after }) => (before.name === after.name ? undefined : 'breaking'),
  mNum: ({ before, after }) => (before.mNum === after.mNum ? undefined : 'breaking'),
  // A new hash means the message's own schema changed; we cannot see how, so it may break.
  schemaHash: ({ before, after }) => (before.schemaHash === after.schemaHash ? undefined : 'dangerous'),
  actions: ({ before, after }) => actionsSeverity({ before: before.actions, after: after.actions }),
  // Losing a key breaks lookups by it; gaining one only offers more.
  hasTKey: ({ before, after }) => flagSeverity({ before: before.hasTKey, after: after.hasTKey }),
  hasEKey: ({ before, after }) => flagSeverity({ before: before.hasEKey, after: after.hasEKey }),
  hasOKey: ({ before, after }) => flagSeverity({ before: before.hasOKey, after: after.hasOKey }),
  // Either direction changes how the message is filtered, which may or may not matter.
  hasCF: ({ before, after }) => (before.hasCF === after.hasCF ? undefined : 'dangerous'),
  // The token routes messages: a message in another group is not where code expects it.
  mToken: ({ before, after }) => (before.mToken === after.mToken ? undefined : 'breaking'),
  staticFilterFields: ({ before, after }) =>
    sameList({ before: before.staticFilterFields, after: after.staticFilterFields }) ? undefined : 'dangerous',
};

/**
 * Every field that differs between two descriptors of one message type, each with its severity
 * (SPEC "Drift report"), in the order of `KNOWN_FIELDS` and then the unknown fields' keys
 * sorted. Empty when the two are the same.
 */
export function fieldChanges(pair: Pair): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of KNOWN_FIELDS) {
    const severity = RULES[field](pair);
    if (severity !== undefined) {
      changes.push({ field, before: copy(pair.before[field]), after: copy(pair.after[field]), severity });
    }
  }
  changes.push(...extraChanges({ before: pair.before.extra, after: pair.after.extra }));
  return changes;
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
