import { didYouMean } from '../util/did-you-mean.js';
import { KNOWN_FIELDS } from '../model/descriptor.js';
import { RECORD_RULES } from './record-rules.js';
import type { ChangeFact, FieldFact, Severity } from './types.js';
import { quoteString } from '../text/safe-text.js';

/**
 * The drift rules: every change and every field change of a report is named by one of these
 * stable ids (UPPER_SNAKE, as buf's `FIELD_NO_DELETE`), which config `rules` overrides and
 * config `accept` refers to. Released ids are never renamed: add new ones instead.
 *
 * The ids are derived here from the change data alone (kind, field name, presence and values on
 * each side), so how the diff computes its changes and how they are named stay separate; only
 * the field-level changes of record types (fields on) come named by the field diff, whose rules
 * (`record-rules.ts`) join this table.
 */
export const RULES = [
  { id: 'MESSAGE_REMOVED', severity: 'breaking', description: 'A message type is gone.' },
  { id: 'MESSAGE_RENAMED', severity: 'breaking', description: 'A message type has a new name (same mNum).' },
  { id: 'MNUM_CHANGED', severity: 'breaking', description: 'A message type has a new mNum.' },
  { id: 'ACTION_REMOVED', severity: 'breaking', description: 'An action is gone (even if others were added).' },
  { id: 'KEY_FLAG_REMOVED', severity: 'breaking', description: 'A key flag (hasTKey, hasEKey, hasOKey) went Yes → No.' },
  { id: 'TOKEN_CHANGED', severity: 'breaking', description: 'mToken changed: the message is routed to another group.' },
  { id: 'SCHEMA_HASH_CHANGED', severity: 'dangerous', description: "schemaHash changed: the message's own schema changed." },
  { id: 'CLIENT_FIRM_CHANGED', severity: 'dangerous', description: 'hasCF changed, either way.' },
  { id: 'FILTER_FIELDS_CHANGED', severity: 'dangerous', description: 'staticFilterFields changed.' },
  { id: 'FIELD_DISAPPEARED', severity: 'dangerous', description: 'A descriptor field (actions, a key flag, mToken, …) is no longer sent.' },
  { id: 'MESSAGE_ADDED', severity: 'safe', description: 'A message type is new.' },
  { id: 'ACTION_ADDED', severity: 'safe', description: 'Actions were added, none removed.' },
  { id: 'ACTIONS_REORDERED', severity: 'safe', description: 'The same actions in another order.' },
  { id: 'KEY_FLAG_ADDED', severity: 'safe', description: 'A key flag (hasTKey, hasEKey, hasOKey) went No → Yes.' },
  { id: 'DESCRIPTION_CHANGED', severity: 'safe', description: 'desc (the TSDoc of the constant) changed, appeared or disappeared.' },
  { id: 'FIELD_APPEARED', severity: 'safe', description: 'A descriptor field (actions, a key flag, mToken, …) is sent now.' },
  { id: 'OTHER_FIELD_CHANGED', severity: 'safe', description: 'Any other field (topic, mCat, …) changed, appeared or disappeared.' },
  // Field-level changes of the record types (fields on), named by the field diff itself.
  ...RECORD_RULES,
] as const satisfies readonly Rule[];

/** One drift rule: its id, the severity it has unless config `rules` says otherwise, what it detects. */
export interface Rule {
  id: string;
  severity: Severity;
  description: string;
}

/** A rule id, e.g. `MESSAGE_REMOVED`. */
export type RuleId = (typeof RULES)[number]['id'];

/** All severities, worst first: the order of report groups and of sorted changes. */
export const SEVERITIES = ['breaking', 'dangerous', 'safe'] as const;

/** What config `rules` may set a rule to: a severity, or `off` (dropped from reports and failing). */
export const RULE_LEVELS = [...SEVERITIES, 'off'] as const;

/** A severity, or `off`. */
export type RuleLevel = (typeof RULE_LEVELS)[number];

/** Every rule id, in table order (worst default first). */
export const RULE_IDS: readonly RuleId[] = RULES.map((rule) => rule.id);

const DEFAULTS = new Map<string, Severity>(RULES.map((rule) => [rule.id, rule.severity]));

/** The default severity of a rule. */
export function defaultSeverity(id: RuleId): Severity {
  return DEFAULTS.get(id)!;
}

/** Whether `id` names a rule. */
function isRuleId(id: string): id is RuleId {
  return DEFAULTS.has(id);
}

/** Why `id` is not a rule id, with the closest one when it looks like a typo; undefined when it is one. */
export function unknownRuleProblem(id: string): string | undefined {
  if (isRuleId(id)) return undefined;
  const suggestion = didYouMean(id, RULE_IDS);
  return `unknown rule id ${quoteString(id)}${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; \`schema-sync rules\` lists them`;
}

/** The worst severity of some field changes; `safe` for none (nothing differs, nothing can break). */
export function mostSevere(fields: readonly { severity: Severity }[]): Severity {
  return SEVERITIES.find((severity) => fields.some((field) => field.severity === severity)) ?? 'safe';
}

/** The descriptor fields the service defines: only these can appear or disappear as such. */
const KNOWN = new Set<string>(KNOWN_FIELDS);

/** Key flags: losing one breaks lookups by that key. */
const KEY_FLAGS = new Set(['hasTKey', 'hasEKey', 'hasOKey']);

/** The rules of known fields whose one rule does not depend on the values. */
const FIELD_RULES: Readonly<Record<string, RuleId>> = {
  name: 'MESSAGE_RENAMED',
  mNum: 'MNUM_CHANGED',
  schemaHash: 'SCHEMA_HASH_CHANGED',
  hasCF: 'CLIENT_FIRM_CHANGED',
  mToken: 'TOKEN_CHANGED',
  staticFilterFields: 'FILTER_FIELDS_CHANGED',
  desc: 'DESCRIPTION_CHANGED',
};

/**
 * The rule of one field change. Presence comes first: a descriptor field the service defines
 * (`actions`, a key flag, `mToken`, …) absent on one side is `FIELD_APPEARED` /
 * `FIELD_DISAPPEARED`; any other field (`desc`, `topic`, …) only documents the message, so its
 * appearing or disappearing is a change like any other of it. An `actions` change that both
 * removes and adds actions is ONE field change named `ACTION_REMOVED`, the worse of the two: the
 * reader sees both lists at once, and an acceptance pinned to its before/after values accepts
 * exactly that change.
 */
export function ruleOfField(field: Pick<FieldFact, 'field' | 'before' | 'after'>): RuleId {
  const { before, after } = field;
  if (KNOWN.has(field.field) && before === undefined) return 'FIELD_APPEARED';
  if (KNOWN.has(field.field) && after === undefined) return 'FIELD_DISAPPEARED';
  if (field.field === 'actions') return actionsRule(before, after);
  if (KEY_FLAGS.has(field.field)) return after === true ? 'KEY_FLAG_ADDED' : 'KEY_FLAG_REMOVED';
  return (Object.hasOwn(FIELD_RULES, field.field) ? FIELD_RULES[field.field] : undefined) ?? 'OTHER_FIELD_CHANGED';
}

/** An actions change: removed when any is gone, added when only new ones came, else reordered. */
function actionsRule(before: unknown, after: unknown): RuleId {
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
  const remaining = new Set(list(after));
  if (list(before).some((action) => !remaining.has(action))) return 'ACTION_REMOVED';
  return list(after).length > list(before).length ? 'ACTION_ADDED' : 'ACTIONS_REORDERED';
}

/** The rule of a whole added or removed message type (a changed or renamed one is named by its fields): the one place kind → rule is written. */
export function ruleOfKind(kind: Extract<ChangeFact['kind'], 'added' | 'removed'>): RuleId {
  return kind === 'added' ? 'MESSAGE_ADDED' : 'MESSAGE_REMOVED';
}
