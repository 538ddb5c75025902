import { sortChanges, sortStaleFiles } from './sort-changes.js';
import type { DriftChange, DriftReport, DriftSummary, StaleFile } from './types.js';

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
  const staleFiles = sortStaleFiles(input.staleFiles ?? []);
  return {
    inSync: changes.length === 0 && staleFiles.length === 0,
    summary: summarize(changes),
    changes,
    staleFiles,
  };
}

/** Counts changes per kind and per severity. */
export function summarize(changes: readonly DriftChange[]): DriftSummary {
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
