import { didYouMean } from '../util/did-you-mean.js';
import { quoteString } from '../text/safe-text.js';
import { DESCRIPTOR_FIELDS, type DescriptorRuleId, type RuleDefinition } from '../model/descriptor-fields.js';
import { RECORD_RULES, type RecordRuleId } from './record-rules.js';
import type { ChangeFact, FieldFact, Severity } from './types.js';

/** All severities, worst first: the order of report groups and of sorted changes. */
export const SEVERITIES = ['breaking', 'dangerous', 'safe'] as const;

/** One drift rule: its id, the severity it has unless config `rules` says otherwise, what it detects. */
export interface Rule {
  id: string;
  severity: Severity;
  description: string;
}

/** The rules of whole message types. */
const MESSAGE_RULES = [
  { id: 'MESSAGE_REMOVED', severity: 'breaking', description: 'A message type is gone.' },
  { id: 'MESSAGE_ADDED', severity: 'safe', description: 'A message type is new.' },
] as const satisfies readonly Rule[];

/** The rules of descriptor fields beyond each known field's own: presence, `desc` and the rest. */
const OTHER_FIELD_RULES = [
  { id: 'DESCRIPTION_CHANGED', severity: 'safe', description: 'desc (the TSDoc of the constant) changed, appeared or disappeared.' },
  { id: 'FIELD_DISAPPEARED', severity: 'dangerous', description: 'A descriptor field (actions, a key flag, mToken, …) is no longer sent.' },
  { id: 'FIELD_APPEARED', severity: 'safe', description: 'A descriptor field (actions, a key flag, mToken, …) is sent now.' },
  { id: 'OTHER_FIELD_CHANGED', severity: 'safe', description: 'Any other field (topic, mCat, …) changed, appeared or disappeared.' },
] as const satisfies readonly Rule[];

/** A rule id, e.g. `MESSAGE_REMOVED`. */
export type RuleId = (typeof MESSAGE_RULES)[number]['id'] | DescriptorRuleId | (typeof OTHER_FIELD_RULES)[number]['id'] | RecordRuleId;

/** The rules of the known descriptor fields' changes (each field's row names its own), each once, in table order. */
const DESCRIPTOR_FIELD_RULES: ReadonlyArray<RuleDefinition<DescriptorRuleId>> = [
  ...new Map(DESCRIPTOR_FIELDS.flatMap((row): RuleDefinition<DescriptorRuleId>[] => Object.values(row.rules)).map((rule) => [rule.id, rule])).values(),
];

/** Rules worst default severity first, in their given order within a severity. */
function worstFirst<R extends Rule>(rules: readonly R[]): R[] {
  return SEVERITIES.flatMap((severity) => rules.filter((rule) => rule.severity === severity));
}

/**
 * The drift rules: every change and every field change of a report is named by one of these
 * stable ids (UPPER_SNAKE, as buf's `FIELD_NO_DELETE`), which config `rules` overrides and
 * config `accept` refers to. Released ids are never renamed: add new ones instead.
 *
 * The ids are derived here from the change data alone (kind, field name, presence and values on
 * each side), so how the diff computes its changes and how they are named stay separate; only
 * the field-level changes of record types (fields on) come named by the field diff, whose rules
 * (`record-rules.ts`) join this table. A known descriptor field's own rules are in its row of the
 * field table (`model/descriptor-fields.ts`).
 */
export const RULES: ReadonlyArray<Rule & { id: RuleId }> = [
  ...worstFirst<Rule & { id: RuleId }>([...MESSAGE_RULES, ...DESCRIPTOR_FIELD_RULES, ...OTHER_FIELD_RULES]),
  // Field-level changes of the record types (fields on), named by the field diff itself.
  ...RECORD_RULES,
];

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

/** The known descriptor fields by name: each carries the rules of its changes. */
const KNOWN = new Map<string, DescriptorFieldRow>(DESCRIPTOR_FIELDS.map((row) => [row.name, row]));

type DescriptorFieldRow = (typeof DESCRIPTOR_FIELDS)[number];

/**
 * The rule of one field change. Presence comes first: a descriptor field the service defines
 * (`actions`, a key flag, `mToken`, …) absent on one side is `FIELD_APPEARED` /
 * `FIELD_DISAPPEARED`; any other field (`desc`, `topic`, …) only documents the message, so its
 * appearing or disappearing is a change like any other of it. Then the rules of the field's row
 * (`model/descriptor-fields.ts`). An `actions` change that both removes and adds actions is ONE
 * field change named `ACTION_REMOVED`, the worse of the two: the reader sees both lists at once,
 * and an acceptance pinned to its before/after values accepts exactly that change.
 */
export function ruleOfField(field: Pick<FieldFact, 'field' | 'before' | 'after'>): RuleId {
  const { before, after } = field;
  const row = KNOWN.get(field.field);
  if (row === undefined) return field.field === 'desc' ? 'DESCRIPTION_CHANGED' : 'OTHER_FIELD_CHANGED';
  if (before === undefined) return 'FIELD_APPEARED';
  if (after === undefined) return 'FIELD_DISAPPEARED';
  const { rules } = row;
  if ('changed' in rules) return rules.changed.id;
  if ('becameTrue' in rules) return after === true ? rules.becameTrue.id : rules.becameFalse.id;
  return setRule(rules, before, after);
}

/** A set's change (`actions`): removed when any is gone, added when only new ones came, else reordered. */
function setRule<Id extends string>(rules: { removed: { id: Id }; added: { id: Id }; reordered: { id: Id } }, before: unknown, after: unknown): Id {
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
  const remaining = new Set(list(after));
  if (list(before).some((item) => !remaining.has(item))) return rules.removed.id;
  return list(after).length > list(before).length ? rules.added.id : rules.reordered.id;
}

/** The rule of a whole added or removed message type (a changed or renamed one is named by its fields). */
export function ruleOfKind(kind: Extract<ChangeFact['kind'], 'added' | 'removed'>): RuleId {
  return kind === 'added' ? 'MESSAGE_ADDED' : 'MESSAGE_REMOVED';
}
