import { compareStrings } from '../model/descriptor.js';
import { compareSeverity } from './severity.js';
import type { DriftChange, StaleFile } from './types.js';

/** The order of kinds among changes of equal severity and name (cannot happen from one diff). */
const KIND_ORDER: readonly DriftChange['kind'][] = ['removed', 'renamed', 'changed', 'added'];

/**
 * Changes in report order: worst severity first, then by name (UTF-16 code units, so the same
 * on every machine and locale), so nothing depends on the server's order.
 */
export function sortChanges(changes: readonly DriftChange[]): DriftChange[] {
  return [...changes].sort(
    (a, b) =>
      compareSeverity(a.severity, b.severity) ||
      compareStrings(a.name, b.name) ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind),
  );
}

/** Stale files in report order: by path, then reason. */
export function sortStaleFiles(files: readonly StaleFile[]): StaleFile[] {
  return [...files].sort((a, b) => compareStrings(a.path, b.path) || compareStrings(a.reason, b.reason));
}
