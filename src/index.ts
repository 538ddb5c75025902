/**
 * schema-sync's library API: the CLI is a thin layer over these.
 * @packageDocumentation
 */
export { pull, type PullOptions, type PullResult } from './run/pull.js';
export { check, type CheckResult } from './run/check.js';
export { generate, type GenerateResult } from './run/generate.js';
export { diffLockfiles, type DiffOptions, type DiffResult } from './run/diff.js';
export type { BaseOptions, ReviewOptions, RunHooks, SourceOptions } from './run/options.js';
export type { Settings } from './config/settings.js';
export { fetchDescriptors, fetchSchemas, readInputListing, type FetchOptions, type FetchResult, type FetchSchemasOptions, type FetchedSchemas, type ListingQuery, type RetryTimers } from './fetch/index.js';
export { diffDescriptors, buildReport, renderReport, recordChanges, RECORD_RULES, RULES, type DriftReport, type DriftChange, type FileNote, type ReportedChange, type AcceptedChange, type Acceptance, type Rule, type RuleId, type RuleLevel, type Severity } from './diff/index.js';
export type { Scope, ScopeRule } from './model/scope.js';
export { emitFiles as emit, type EmitOptions, type EmittedFile } from './emit/index.js';
export type { Descriptor } from './model/descriptor.js';
export type { FieldDescriptor, FieldType } from './model/field.js';
export type { Lockfile } from './model/lockfile.js';
export * from './model/errors.js';
export { defineConfig } from './config/schema.js';
export type { SchemaSyncConfig } from './config/schema.js';
export { impact, type BrokenUse, type GeneratedOutput, type ImpactOptions, type ImpactResult, type MessageImpact, type ReferencedUse, type SourceLocation } from './impact/index.js';
