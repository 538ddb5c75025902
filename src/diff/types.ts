/**
 * The shapes the diff stage produces. `DriftReport` is, field for field, the object that
 * `--format json` prints (see SPEC "Drift report" and `report.schema.json`), so scripts can rely on it.
 */
import type { BrokenUse, MessageImpact } from '../model/impact.js';
import type { Descriptor } from '../model/descriptor.js';
import type { Scope } from '../model/scope.js';
import type { Settings } from '../config/settings.js';
import type { RuleId, RuleLevel, SEVERITIES } from './rules.js';

/** How much a change can hurt code built against the locked schema, worst first. */
export type Severity = (typeof SEVERITIES)[number];

/** The report formats, as `--format` and config `report` name them. */
export const REPORT_FORMATS = ['text', 'json', 'markdown', 'github'] as const;

/** A report format. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * One field of a message type that differs, as the diff finds it: a fact, not yet rated. `field`
 * is a known descriptor field (`mNum`, `actions`, …), the key of an unknown field (`desc`,
 * `topic`, …), or with fields on a field of the record type (`fields.<path>`,
 * `fields.<path>.<key>`, see `field-diff.ts`). `before`/`after` are the locked and fetched
 * values; `undefined` means the field was absent on that side (JSON output then omits the
 * property).
 */
export interface FieldFact {
  field: string;
  before: unknown;
  after: unknown;
  /** The rule that names the change (`rules.ts`); the rating step gives it its severity. */
  rule: RuleId;
}

/** A field that differs, rated: with the severity its rule has as configured. */
export interface FieldChange extends FieldFact {
  severity: Severity;
}

/**
 * A message type that exists on one side only, or differs between the two, as the diff finds it.
 * An added or removed type is named by its kind (`ruleOfKind`), a changed or renamed one by its fields.
 */
export type ChangeFact =
  | { kind: 'added'; name: string; after: { mNum: number }; note?: FileNote }
  | { kind: 'removed'; name: string; before: { mNum: number } }
  | {
      kind: 'renamed';
      /** The new (fetched) name. */
      name: string;
      before: { name: string; mNum: number };
      after: { name: string; mNum: number };
      /** `{ field: 'name', … }` first, then every other field that differs. */
      fields: FieldFact[];
    }
  | { kind: 'changed'; name: string; fields: FieldFact[] };

/**
 * Why an added type's module is not at `messages/<its name>`: its name and another's differ only
 * by case, so their files could not both exist on a case-insensitive file system (macOS,
 * Windows), and the newcomer's file name got a hash suffix (the other type keeps its file).
 */
export interface FileNote {
  /** The module's path in the output folder, without its extension: `messages/FOO__1a2b3c4d`. */
  module: string;
  /** The other type's name. */
  caseClashWith: string;
}

/** A change rated: the change and each of its fields with the severity their rules have. */
export type DriftChange =
  | { kind: 'added'; name: string; severity: Severity; after: { mNum: number }; note?: FileNote }
  | { kind: 'removed'; name: string; severity: Severity; before: { mNum: number } }
  | {
      kind: 'renamed';
      /** The new (fetched) name. */
      name: string;
      severity: Severity;
      before: { name: string; mNum: number };
      after: { name: string; mNum: number };
      /** `{ field: 'name', … }` first, then every other field that differs. */
      fields: FieldChange[];
    }
  | { kind: 'changed'; name: string; severity: Severity; fields: FieldChange[] };

/**
 * A change as reported: named by its rule, with the severity its rules give it as configured. An
 * added or removed type is named `MESSAGE_ADDED` / `MESSAGE_REMOVED`; a changed or renamed one
 * by the rule of its worst field (the first of them), each field by its own.
 */
export type ReportedChange = DriftChange & { rule: RuleId; impact?: MessageImpact };

/**
 * A change, or one field change, that config `accept` accepts: it never fails a check, and is
 * listed in the report's own accepted section with the reason given.
 */
export interface AcceptedChange {
  kind: DriftChange['kind'];
  /** The message type (its new name, for a rename). */
  name: string;
  rule: RuleId;
  severity: Severity;
  /** The field, for a field change; absent for an added or removed type. */
  field?: string;
  /** The field's values (a type's `{ mNum }` when added or removed); undefined when absent on that side. */
  before?: unknown;
  after?: unknown;
  reason: string;
  /** What the change does to the projects named by `--impact`, when they were checked. */
  impact?: MessageImpact;
  /** Which entry of `accept` (0-based) accepted it; not part of the JSON report. */
  acceptance: number;
}

/**
 * A generation setting given to `check` (flags, config) that differs from the one the lockfile
 * records: the output folder is not what the project asks for, so it counts as drift.
 */
export interface SettingDrift {
  setting: string;
  /** As the lockfile records it; undefined when it records none. */
  recorded: unknown;
  /** As given; undefined when the given settings leave it unset. */
  given: unknown;
}

/** One entry of config `accept`: which change is accepted, and why (the settings table's `accept` row). */
export type Acceptance = NonNullable<Settings['accept']>[number];

/** Config `rules` and `accept`: how a report rates and accepts changes (the settings table's rows). */
export type ReviewPolicy = Pick<Settings, 'rules' | 'accept'>;

/** Everything the rating step applies: config `rules` and `accept`, and the project's scope. */
export interface RatingPolicy extends ReviewPolicy {
  /**
   * Config `include`/`exclude` and the descriptors compared: only changes about message types in
   * scope on either side are rated, the others go unreported. @default every change
   */
  scope?: { scope: Scope; compared: { locked: readonly Descriptor[]; fetched: readonly Descriptor[] } };
}

/** Counts of changes per kind and per severity, and of accepted changes. */
export type DriftSummary = Record<DriftChange['kind'] | Severity | 'accepted', number>;

/**
 * A generated file that is not what the lockfile generates: `missing` (should exist),
 * `extra` (a generated file that should not exist), `modified` (hand-edited or stale) or
 * `symlink` (a symbolic link in its place, or in the place of a folder of them: never read through).
 */
export interface StaleFile {
  path: string;
  reason: 'missing' | 'extra' | 'modified' | 'symlink';
}

/** Everything `check`, `pull` and `diff` report, in the SPEC's JSON shape. */
export interface DriftReport {
  /** True when there are no changes (accepted ones aside), no stale files and no settings that differ. */
  inSync: boolean;
  summary: DriftSummary;
  /** Sorted by severity (breaking first), then by name. */
  changes: ReportedChange[];
  /** Accepted changes, in the order of `changes`; they never fail a check. */
  accepted: AcceptedChange[];
  /** Sorted by path, then reason. */
  staleFiles: StaleFile[];
  /** Generation settings given to `check` that differ from the recorded ones, by setting. */
  settings: SettingDrift[];
  /** With `--impact`: the projects checked, how many places each kind of impact has, and the new errors no change explains. */
  impact?: ImpactSummary;
}

/** The impact part of a report (`--impact`). */
export interface ImpactSummary {
  /** The tsconfig files checked, relative to the project root. */
  projects: string[];
  /** New errors of the projects' compile tied to a change. */
  broken: number;
  /** Places that use a changed message type and still compile. */
  referenced: number;
  /** New errors no change explains: listed, never dropped. */
  unattributed: BrokenUse[];
}

/** How to render a report. */
export interface RenderOptions {
  /** The `--format`. */
  format: ReportFormat;
  /** ANSI colours in `text` output; ignored by the other formats. @default false */
  color?: boolean;
  /** Which command reports: `check` speaks of drift, `pull` of what it changed, `diff` of changes between two lockfiles. */
  command: 'check' | 'pull' | 'diff';
  /** For `pull --dry-run`: say what *would* change. @default false */
  dryRun?: boolean;
  /**
   * For `pull`: how many files the run wrote or deleted. A pull without schema changes that wrote
   * files (its settings changed, or the folder was out of date) says so instead of "Up to date".
   * @default 0
   */
  filesWritten?: number;
  /**
   * `markdown` only: the most characters the report may take; a longer one is cut to fit, and says
   * so. @default 60,000 (`REPORT_LIMITS.markdown`: under GitHub's 65,536 of a pull-request body or step summary)
   */
  maxLength?: number;
  /**
   * Where the `github` annotations point, relative to the repository root: the lockfile (and the
   * line of a message's entry in it, when it has one) and the output folder.
   */
  locations?: ReportLocations;
}

/** Paths of a report's files relative to the repository root, for annotations. */
export interface ReportLocations {
  lockfile: string;
  outDir: string;
  /** The line of the message's entry in the lockfile, when it has one. */
  lineOf(name: string): number | undefined;
}
