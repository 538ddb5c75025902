/**
 * The diff stage: pure functions from (locked, fetched) descriptors to severity-rated changes,
 * the report `check` and `pull` print, and its renderers. No I/O anywhere in this folder.
 */
export { buildReport, hasBreaking, summarize } from './build-report.js';
export { diffDescriptors } from './diff-descriptors.js';
export { fieldChanges } from './field-changes.js';
export { renderReport } from './render-report.js';
export { compareSeverity, mostSevere, SEVERITIES } from './severity.js';
export { sortChanges, sortStaleFiles } from './sort-changes.js';
export type {
  ChangeKind,
  DriftChange,
  DriftReport,
  DriftSummary,
  FieldChange,
  RenderOptions,
  ReportFormat,
  Severity,
  StaleFile,
} from './types.js';
