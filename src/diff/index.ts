/**
 * The diff stage: pure functions from (locked, fetched) descriptors to changes, their rules,
 * severities and acceptances, the report `check`, `pull` and `diff` print, and its renderers. No
 * I/O anywhere in this folder.
 */
export { buildReport, hasBreaking, isFailing } from './build-report.js';
export { compareDescriptors, diffDescriptors } from './diff-descriptors.js';
export { renderReport } from './render-report.js';
export { ANNOTATIONS_SHOWN, fitToBudget, REPORT_LIMITS, type LeftOut, type ReportSection } from './fit-budget.js';
export { escapeData, workflowCommand } from './render-github.js';
export { leftOutList } from './wording.js';
export { codeBlock } from './render-markdown.js';
export { recordChanges } from './field-diff.js';
export { RECORD_RULES, type RecordRuleId } from './record-rules.js';
export { rate, unusedAcceptanceWarnings, type Rated } from './rate.js';
export { ruleRows, rulesTableLines, type RuleRow } from './rules-listing.js';
export { RULES, RULE_IDS, RULE_LEVELS, unknownRuleProblem, type Rule, type RuleId, type RuleLevel } from './rules.js';
export { changesInScope } from './scope.js';
export { hasBroken, withImpact } from './impact-report.js';
export { REPORT_FORMATS } from './types.js';
export type { AcceptedChange, Acceptance, ChangeFact, DriftChange, FieldFact, FileNote, ImpactSummary, RatingPolicy, DriftReport, ReportedChange, ReportFormat, ReportLocations, ReviewPolicy, SettingDrift, Severity, StaleFile } from './types.js';
