import { compareStrings } from '../model/descriptor.js';
import { rate } from './rate.js';
import { hasBroken } from './impact-report.js';
import type { ChangeFact, DriftChange, DriftReport, DriftSummary, RatingPolicy, ReportedChange, SettingDrift, StaleFile } from './types.js';

/**
 * Assembles the report of a `check`, `pull` or `diff`: the changes rated by {@link rate} as
 * `policy` configures them (scope, rules, acceptances), the stale files and settings sorted (so the
 * report does not depend on how the caller collected it), and counts.
 *
 * @param input.changes from `compareDescriptors` (or `diffDescriptors`: their severities are rated anew)
 * @param input.staleFiles generated files that differ from what the lockfile generates
 *   (`check` only). @default []
 * @param input.settings generation settings given that differ from the recorded ones (`check` only). @default []
 * @param input.policy config `rules`, `accept` and scope. @default {} (every rule at its default, nothing accepted, all in scope)
 */
export function buildReport(input: {
  changes: readonly (ChangeFact | DriftChange)[];
  staleFiles?: readonly StaleFile[];
  settings?: readonly SettingDrift[];
  policy?: RatingPolicy;
}): DriftReport {
  const { changes, accepted } = rate(input.changes, input.policy);
  const staleFiles = [...(input.staleFiles ?? [])].sort(
    (a, b) => compareStrings(a.path, b.path) || compareStrings(a.reason, b.reason),
  );
  const settings = [...(input.settings ?? [])].sort((a, b) => compareStrings(a.setting, b.setting));
  return {
    inSync: changes.length === 0 && staleFiles.length === 0 && settings.length === 0,
    summary: summarize(changes, accepted.length),
    changes,
    accepted,
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
 * Whether `check`/`diff` exit 1: any difference, with `failOn: 'breaking'` only
 * {@link hasBreaking}, with `failOn: 'broken'` only what breaks the projects checked ({@link hasBroken}).
 */
export function isFailing(report: DriftReport, failOn: 'any' | 'breaking' | 'broken'): boolean {
  if (failOn === 'broken') return hasBroken(report);
  return failOn === 'breaking' ? hasBreaking(report) : !report.inSync;
}
