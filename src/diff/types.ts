/**
 * The shapes the diff stage produces. `DriftReport` is, field for field, the object that
 * `--format json` prints (see SPEC "Drift report"), so scripts can rely on it.
 */

/** How much a change can hurt code built against the locked schema, worst first. */
export type Severity = 'breaking' | 'dangerous' | 'safe';

/**
 * One field of a message type that differs. `field` is a known descriptor field (`mNum`,
 * `actions`, …), the key of an unknown field (`desc`, `topic`, …), or with fields on a field of
 * the record type (`fields.<path>`, `fields.<path>.<key>`, see `field-diff.ts`). `before`/`after` are the
 * locked and fetched values; `undefined` means the field was absent on that side (JSON output
 * then omits the property).
 */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
  severity: Severity;
  /** The rule that names the change, for field-level changes (`fields.…`, see `record-rules.ts`). */
  rule?: string;
}

/** A message type that exists on one side only, or differs between the two. */
export type DriftChange =
  | { kind: 'added'; name: string; severity: 'safe'; after: { mNum: number } }
  | { kind: 'removed'; name: string; severity: 'breaking'; before: { mNum: number } }
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

/** Counts of changes per kind and per severity. */
export type DriftSummary = Record<DriftChange['kind'] | Severity, number>;

/**
 * A generated file that is not what the lockfile generates: `missing` (should exist),
 * `extra` (a generated file that should not exist) or `modified` (hand-edited or stale).
 */
export interface StaleFile {
  path: string;
  reason: 'missing' | 'extra' | 'modified';
}

/** Everything `check` and `pull` report, in the SPEC's JSON shape. */
export interface DriftReport {
  /** True when there are no changes and no stale files. */
  inSync: boolean;
  summary: DriftSummary;
  /** Sorted by severity (breaking first), then by name. */
  changes: DriftChange[];
  /** Sorted by path, then reason. */
  staleFiles: StaleFile[];
}

/** How to render a report. */
export interface RenderOptions {
  /** The `--format`. */
  format: 'text' | 'json' | 'markdown' | 'github';
  /** ANSI colours in `text` output; ignored by the other formats. @default false */
  color?: boolean;
  /** Which command reports: `check` speaks of drift, `pull` of what it changed. */
  command: 'check' | 'pull';
  /** For `pull --dry-run`: say what *would* change. @default false */
  dryRun?: boolean;
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
