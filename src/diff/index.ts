/**
 * The diff stage: pure functions from (locked, fetched) descriptors to severity-rated changes,
 * the report `check` and `pull` print, and its renderers. No I/O anywhere in this folder.
 */
export { buildReport, hasBreaking } from './build-report.js';
export { diffDescriptors } from './diff-descriptors.js';
export { renderReport } from './render-report.js';
export { workflowCommand } from './render-github.js';
export { codeBlock } from './render-markdown.js';
export type { DriftChange, DriftReport, ReportLocations, Severity, StaleFile } from './types.js';
export { recordChanges } from './field-diff.js';
export { RECORD_RULES, type RecordRuleId } from './record-rules.js';
