import { canonicalJson } from '../util/canonical-json.js';
import { compareStrings } from '../model/descriptor.js';
import { globMatcher } from '../model/scope.js';
import { defaultSeverity, mostSevere, ruleOfKind, SEVERITIES, type RuleId } from './rules.js';
import { changesInScope } from './scope.js';
import type { AcceptedChange, Acceptance, ChangeFact, DriftChange, DriftReport, FieldChange, RatingPolicy, ReportedChange, ReviewPolicy, Severity } from './types.js';
import { quoteString } from '../text/safe-text.js';
import { msg, type Message } from '../model/message.js';

/** What {@link rate} made of some changes. */
export interface Rated {
  /** The changes to report and fail on: named, rated as configured, `off` rules and accepted parts left out, in report order. */
  changes: ReportedChange[];
  /** What `accept` accepted, in the order of the changes (each rated over all its parts, accepted ones too). */
  accepted: AcceptedChange[];
}

/** The order of kinds among changes of equal severity and name (cannot happen from one diff). */
const KIND_ORDER: readonly ChangeFact['kind'][] = ['removed', 'renamed', 'changed', 'added'];

/**
 * The one rating step: keeps the changes about message types in scope (`policy.scope`), names
 * an added or removed type by its kind, rates every change and field change as config `rules`
 * says (or by the rule's default), drops what a rule set to `off` names, and moves what an
 * `accept` entry matches (rule id AND message glob, and the pinned before/after values when given)
 * to the accepted list. A changed or renamed type is rated by its worst remaining field and named
 * by that field's rule; one left with no field is no longer reported. Both lists come out in report
 * order (worst severity first, then by name). Pure; the input is untouched, and any severity it
 * carries is ignored.
 *
 * @param policy @default {} (every rule at its default, nothing accepted, every change in scope)
 */
export function rate(facts: readonly (ChangeFact | DriftChange)[], policy: RatingPolicy = {}): Rated {
  const levels = policy.rules ?? {};
  const severityOf = (rule: RuleId): Severity | undefined => {
    const level = levels[rule] ?? defaultSeverity(rule);
    return level === 'off' ? undefined : level;
  };
  const acceptances = (policy.accept ?? []).map((acceptance, index) => ({ acceptance, index, names: globMatcher(acceptance.message) }));
  const inScope = policy.scope === undefined ? facts : changesInScope(facts, policy.scope.compared, policy.scope.scope);
  const reported: ReportedChange[] = [];
  /** The accepted parts per change, with the change's severity over all its parts, for their order. */
  const acceptedBy: { kind: ChangeFact['kind']; name: string; severity: Severity; parts: AcceptedChange[] }[] = [];

  for (const change of inScope) {
    const accepted: AcceptedChange[] = [];
    const names = change.kind === 'renamed' ? [change.name, change.before.name] : [change.name];
    /** The first acceptance of one rule and pair of values on this change, if any. */
    const acceptanceOf = (rule: RuleId, values: { before: unknown; after: unknown }) =>
      acceptances.find(({ acceptance, names: matches }) => acceptance.rule === rule && names.some(matches) && pinned(acceptance, values));

    if (change.kind === 'added' || change.kind === 'removed') {
      const rule = ruleOfKind(change.kind);
      const severity = severityOf(rule);
      if (severity === undefined) continue;
      const values = change.kind === 'added' ? { before: undefined, after: { mNum: change.after.mNum } } : { before: { mNum: change.before.mNum }, after: undefined };
      const found = acceptanceOf(rule, values);
      if (found !== undefined) acceptedBy.push({ kind: change.kind, name: change.name, severity, parts: [{ kind: change.kind, name: change.name, rule, severity, ...values, reason: found.acceptance.reason, acceptance: found.index }] });
      else if (change.kind === 'added') reported.push({ kind: change.kind, name: change.name, rule, severity, after: values.after!, ...(change.note !== undefined && { note: change.note }) });
      else reported.push({ kind: change.kind, name: change.name, rule, severity, before: values.before! });
      continue;
    }

    const fields: FieldChange[] = [];
    for (const field of change.fields) {
      const { rule } = field;
      const severity = severityOf(rule);
      if (severity === undefined) continue;
      const found = acceptanceOf(rule, field);
      if (found === undefined) fields.push({ field: field.field, before: field.before, after: field.after, rule, severity });
      else accepted.push({ kind: change.kind, name: change.name, rule, severity, field: field.field, before: field.before, after: field.after, reason: found.acceptance.reason, acceptance: found.index });
    }
    if (accepted.length > 0) acceptedBy.push({ kind: change.kind, name: change.name, severity: mostSevere([...fields, ...accepted]), parts: accepted });
    if (fields.length === 0) continue;
    const severity = mostSevere(fields);
    const rule = fields.find((field) => field.severity === severity)!.rule;
    reported.push(change.kind === 'renamed' ? { kind: change.kind, name: change.name, rule, severity, before: { ...change.before }, after: { ...change.after }, fields } : { kind: change.kind, name: change.name, rule, severity, fields });
  }

  return { changes: sortChanges(reported), accepted: sortChanges(acceptedBy).flatMap((change) => change.parts) };
}

/**
 * Changes in report order: worst severity first, then by name (UTF-16 code units, so the same
 * on every machine and locale), so nothing depends on the server's order.
 */
function sortChanges<C extends { kind: ChangeFact['kind']; name: string; severity: Severity }>(changes: C[]): C[] {
  return changes.sort(
    (a, b) =>
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      compareStrings(a.name, b.name) ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind),
  );
}

/** Whether the values an acceptance pins (if any) are exactly the change's. */
function pinned(acceptance: Acceptance, values: { before: unknown; after: unknown }): boolean {
  const same = (expected: unknown, actual: unknown) => expected === undefined || canonicalJson(expected) === canonicalJson(actual);
  return same(acceptance.before, values.before) && same(acceptance.after, values.after);
}

/**
 * A warning for each `accept` entry that accepted nothing in `report`, so the list does not rot:
 * once the change it was for is in the lockfile, the entry has done its job.
 */
export function unusedAcceptanceWarnings(policy: ReviewPolicy, report: Pick<DriftReport, 'accepted'>): Message[] {
  const used = new Set(report.accepted.map((change) => change.acceptance));
  return (policy.accept ?? []).flatMap((acceptance, index) => (used.has(index) ? [] : [unusedWarning(acceptance, index)]));
}

function unusedWarning(acceptance: Acceptance, index: number): Message {
  return msg`accept[${index}] (rule ${acceptance.rule}, message ${quoteString(acceptance.message)}) matched no change: remove it once the change it was for is in the lockfile, or fix its rule, message or pinned values.`;
}
