import { compareStrings } from '../model/descriptor.js';
import type { DriftChange, DriftReport, DriftSummary, Severity, StaleFile } from './types.js';

/** All severities, worst first: the order of report groups and of sorted changes. */
export const SEVERITIES: readonly Severity[] = ['breaking', 'dangerous', 'safe'];

/** The order of kinds among changes of equal severity and name (cannot happen from one diff). */
const KIND_ORDER: readonly DriftChange['kind'][] = ['removed', 'renamed', 'changed', 'added'];

/**
 * Assembles the report of a `check` or `pull`: sorts the changes and stale files (so the
 * report does not depend on how the caller collected them) and counts them.
 *
 * @param input.changes from `diffDescriptors`
 * @param input.staleFiles generated files that differ from what the lockfile generates
 *   (`check` only). @default []
 */
export function buildReport(input: {
  changes: readonly DriftChange[];
  staleFiles?: readonly StaleFile[];
}): DriftReport {
  const changes = sortChanges(input.changes);
  const staleFiles = [...(input.staleFiles ?? [])].sort(
    (a, b) => compareStrings(a.path, b.path) || compareStrings(a.reason, b.reason),
  );
  return {
    inSync: changes.length === 0 && staleFiles.length === 0,
    summary: summarize(changes),
    changes,
    staleFiles,
  };
}

/** Counts changes per kind and per severity. */
function summarize(changes: readonly DriftChange[]): DriftSummary {
  const summary: DriftSummary = { added: 0, removed: 0, changed: 0, renamed: 0, breaking: 0, dangerous: 0, safe: 0 };
  for (const change of changes) {
    summary[change.kind] += 1;
    summary[change.severity] += 1;
  }
  return summary;
}

/**
 * True when `check --fail-on breaking` must fail: a breaking change, or any stale file. Stale
 * files count because they mean the committed output does not match the committed lockfile,
 * a fault in the repository itself rather than drift of the server that one may tolerate.
 */
export function hasBreaking(report: DriftReport): boolean {
  return report.changes.some((change) => change.severity === 'breaking') || report.staleFiles.length > 0;
}

/**
 * Changes in report order: worst severity first, then by name (UTF-16 code units, so the same
 * on every machine and locale), so nothing depends on the server's order.
 */
export function sortChanges(changes: readonly DriftChange[]): DriftChange[] {
  return [...changes].sort(
    (a, b) =>
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      compareStrings(a.name, b.name) ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind),
  );
}

/** The worst severity of some field changes; `safe` for none (nothing differs, nothing can break). */
export function mostSevere(fields: readonly { severity: Severity }[]): Severity {
  return SEVERITIES.find((severity) => fields.some((field) => field.severity === severity)) ?? 'safe';
}
