import { compareStrings } from '../model/descriptor.js';
import { reviewChanges } from './review.js';
import { SEVERITIES } from './rules.js';
import type { DriftChange, DriftReport, DriftSummary, ReportedChange, ReviewPolicy, SettingDrift, StaleFile } from './types.js';

export { mostSevere, SEVERITIES } from './rules.js';

/** The order of kinds among changes of equal severity and name (cannot happen from one diff). */
const KIND_ORDER: readonly DriftChange['kind'][] = ['removed', 'renamed', 'changed', 'added'];

/**
 * Assembles the report of a `check`, `pull` or `diff`: names and rates the changes by their
 * rules as `policy` configures them, sets the accepted ones apart, sorts everything (so the
 * report does not depend on how the caller collected it) and counts it.
 *
 * @param input.changes from `diffDescriptors`
 * @param input.staleFiles generated files that differ from what the lockfile generates
 *   (`check` only). @default []
 * @param input.settings generation settings given that differ from the recorded ones (`check` only). @default []
 * @param input.policy config `rules` and `accept`. @default {} (every rule at its default, nothing accepted)
 */
export function buildReport(input: {
  changes: readonly DriftChange[];
  staleFiles?: readonly StaleFile[];
  settings?: readonly SettingDrift[];
  policy?: ReviewPolicy;
}): DriftReport {
  const reviewed = reviewChanges(sortChanges(input.changes), input.policy);
  const changes = sortChanges(reviewed.changes);
  const staleFiles = [...(input.staleFiles ?? [])].sort(
    (a, b) => compareStrings(a.path, b.path) || compareStrings(a.reason, b.reason),
  );
  const settings = [...(input.settings ?? [])].sort((a, b) => compareStrings(a.setting, b.setting));
  return {
    inSync: changes.length === 0 && staleFiles.length === 0 && settings.length === 0,
    summary: summarize(changes, reviewed.accepted.length),
    changes,
    accepted: reviewed.accepted,
    staleFiles,
    settings,
  };
}

/** Counts changes per kind and per severity. */
function summarize(changes: readonly ReportedChange[], accepted: number): DriftSummary {
  const summary: DriftSummary = { added: 0, removed: 0, changed: 0, renamed: 0, breaking: 0, dangerous: 0, safe: 0, accepted };
  for (const change of changes) {
    summary[change.kind] += 1;
    summary[change.severity] += 1;
  }
  return summary;
}

/**
 * True when `--fail-on breaking` must fail: a breaking change, a stale file or a setting that
 * differs. Those two count because they mean the committed output does not match the committed
 * lockfile and config, a fault in the repository itself rather than drift of the server that one
 * may tolerate. Accepted changes never count.
 */
export function hasBreaking(report: DriftReport): boolean {
  return report.changes.some((change) => change.severity === 'breaking') || report.staleFiles.length > 0 || report.settings.length > 0;
}

/**
 * Changes in report order: worst severity first, then by name (UTF-16 code units, so the same
 * on every machine and locale), so nothing depends on the server's order.
 */
export function sortChanges<C extends Pick<DriftChange, 'kind' | 'name' | 'severity'>>(changes: readonly C[]): C[] {
  return [...changes].sort(
    (a, b) =>
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      compareStrings(a.name, b.name) ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind),
  );
}

/** Whether `check`/`diff` exit 1: any difference, or with `failOn: 'breaking'` only {@link hasBreaking}. */
export function isFailing(report: DriftReport, failOn: 'any' | 'breaking'): boolean {
  return failOn === 'breaking' ? hasBreaking(report) : !report.inSync;
}
