import { canonicalJson } from '../util/canonical-json.js';
import { globMatcher } from '../model/scope.js';
import { defaultSeverity, mostSevere, ruleOfKind, type RuleId } from './rules.js';
import type { AcceptedChange, Acceptance, DriftChange, DriftReport, FieldChange, ReportedChange, ReviewPolicy, Severity } from './types.js';

/** What {@link reviewChanges} made of some changes. */
export interface Reviewed {
  /** The changes to report and fail on: named, rated as configured, `off` rules and accepted parts left out. */
  changes: ReportedChange[];
  /** What `accept` accepted, in the order of the changes. */
  accepted: AcceptedChange[];
}

/**
 * Names every change and field change by its rule, rates it as config `rules` says (or by the
 * rule's default), drops what a rule set to `off` names, and moves what an `accept` entry
 * matches (rule id AND message glob, and the pinned before/after values when given) to the
 * accepted list. A changed or renamed type keeps its other fields; one left with no field is no
 * longer reported. Pure; the input is untouched.
 */
export function reviewChanges(changes: readonly DriftChange[], policy: ReviewPolicy = {}): Reviewed {
  const levels = policy.rules ?? {};
  const severityOf = (rule: RuleId): Severity | undefined => {
    const level = levels[rule] ?? defaultSeverity(rule);
    return level === 'off' ? undefined : level;
  };
  const acceptances = (policy.accept ?? []).map((acceptance, index) => ({ acceptance, index, names: globMatcher(acceptance.message) }));
  const reported: ReportedChange[] = [];
  const accepted: AcceptedChange[] = [];

  for (const change of changes) {
    const names = change.kind === 'renamed' ? [change.name, change.before.name] : [change.name];
    /** The first acceptance of one rule and pair of values on this change, if any. */
    const acceptanceOf = (rule: RuleId, values: { before: unknown; after: unknown }) =>
      acceptances.find(({ acceptance, names: matches }) => acceptance.rule === rule && names.some(matches) && pinned(acceptance, values));

    if (change.kind === 'added' || change.kind === 'removed') {
      const rule = ruleOfKind(change.kind);
      const severity = severityOf(rule);
      if (severity === undefined) continue;
      const values = change.kind === 'added' ? { before: undefined, after: change.after } : { before: change.before, after: undefined };
      const found = acceptanceOf(rule, values);
      if (found === undefined) reported.push({ ...change, rule, severity });
      else accepted.push({ kind: change.kind, name: change.name, rule, severity, ...values, reason: found.acceptance.reason, acceptance: found.index });
      continue;
    }

    const fields: FieldChange[] = [];
    for (const field of change.fields) {
      const { rule } = field;
      const severity = severityOf(rule);
      if (severity === undefined) continue;
      const found = acceptanceOf(rule, field);
      if (found === undefined) fields.push({ ...field, rule, severity });
      else accepted.push({ kind: change.kind, name: change.name, rule, severity, field: field.field, before: field.before, after: field.after, reason: found.acceptance.reason, acceptance: found.index });
    }
    if (fields.length === 0) continue;
    const severity = mostSevere(fields);
    const rule = fields.find((field) => field.severity === severity)!.rule;
    reported.push({ ...change, rule, severity, fields });
  }

  return { changes: reported, accepted };
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
export function unusedAcceptanceWarnings(policy: ReviewPolicy, report: Pick<DriftReport, 'accepted'>): string[] {
  const used = new Set(report.accepted.map((change) => change.acceptance));
  return (policy.accept ?? []).flatMap((acceptance, index) => (used.has(index) ? [] : [unusedWarning(acceptance, index)]));
}

function unusedWarning(acceptance: Acceptance, index: number): string {
  return `accept[${index}] (rule ${acceptance.rule}, message ${JSON.stringify(acceptance.message)}) matched no change: remove it once the change it was for is in the lockfile, or fix its rule, message or pinned values.`;
}
