import { displayName } from '../text/safe-text.js';
import { formatValue } from './format-value.js';
import type { LeftOut, ReportSection } from './fit-budget.js';
import { SEVERITIES } from './rules.js';
import { FIELDS_UNCHANGED_TEXT } from './record-rules.js';
import type { AcceptedChange, DriftChange, DriftReport, FieldChange, FileNote, RenderOptions, ReportedChange, SettingDrift, Severity, StaleFile } from './types.js';
import { plural } from '../util/plural.js';

/**
 * Phrases shared by the text, markdown and github renderers, so the three say the same thing.
 * Every server-supplied string passes through `displayName`/`formatValue` here: nothing raw.
 */

/** Wraps an already escaped fragment, e.g. in a markdown code span; identity for plain text. */
type Wrap = (fragment: string) => string;

const plain: Wrap = (fragment) => fragment;

/** What the report is about: `check` reports drift, `pull` what it changed (or would). */
export type Voice = Pick<RenderOptions, 'command' | 'dryRun' | 'filesWritten'>;

/** A severity as a heading or title word. */
export const SEVERITY_NAMES: Record<Severity, string> = { breaking: 'Breaking', dangerous: 'Dangerous', safe: 'Safe' };

/**
 * Advice printed with stale files: the output folder is regenerated from the lockfile alone, once
 * any symbolic link among them is gone (generate refuses to write through one).
 */
export function staleHint(files: readonly StaleFile[]): string {
  const regenerate = 'Run `schema-sync generate` to rewrite the output folder from the lockfile.';
  return files.some((file) => file.reason === 'symlink') ? `Remove the symbolic links first (schema-sync never writes through one). ${regenerate}` : regenerate;
}

/** Advice printed with settings that differ from the recorded ones. */
export const SETTINGS_HINT = 'Run `schema-sync generate` (or `pull`) to apply them and record them in the lockfile, or change them back.';

/** Heading of the accepted section. */
export const ACCEPTED_HEADING = 'Accepted (never fails)';

/**
 * The one-line summary, e.g. `Drift: 3 message types (1 breaking, 2 dangerous, 0 safe) · 1 stale
 * file`, or `In sync: no drift.`.
 */
export function summaryLine(report: DriftReport, voice: Voice): string {
  if (report.inSync && report.accepted.length === 0) {
    const written = voice.command === 'pull' && !voice.dryRun ? (voice.filesWritten ?? 0) : 0;
    if (written > 0) return `No schema changes: ${plural(written, 'file')} rewritten from the lockfile.`;
    return byVoice(voice, {
      check: 'In sync: no drift.',
      dryRun: 'Up to date: nothing would change.',
      pull: 'Up to date: nothing changed.',
      diff: 'No changes.',
    });
  }
  const parts: string[] = [];
  const count = report.changes.length;
  if (count > 0) {
    const { breaking, dangerous, safe } = report.summary;
    parts.push(`${plural(count, 'message type')} (${breaking} breaking, ${dangerous} dangerous, ${safe} safe)`);
  }
  if (report.staleFiles.length > 0) parts.push(plural(report.staleFiles.length, 'stale file'));
  if (report.settings.length > 0) parts.push(`${plural(report.settings.length, 'setting')} given ${report.settings.length === 1 ? 'differs' : 'differ'} from the lockfile's`);
  if (report.accepted.length > 0) parts.push(plural(report.accepted.length, 'accepted change'));
  const lead = report.inSync
    ? byVoice(voice, { check: 'In sync', dryRun: 'Would change', pull: 'Changed', diff: 'Changes' })
    : byVoice(voice, { check: 'Drift', dryRun: 'Would change', pull: 'Changed', diff: 'Changes' });
  return `${lead}: ${parts.join(' · ')}`;
}

/** The phrase for who reports: `check`, `pull --dry-run`, `pull`, or `diff` (as `pull` unless given). */
export function byVoice(voice: Voice, phrases: { check: string; dryRun: string; pull: string; diff?: string }): string {
  if (voice.command === 'check') return phrases.check;
  if (voice.command === 'diff') return phrases.diff ?? phrases.pull;
  return voice.dryRun ? phrases.dryRun : phrases.pull;
}

/**
 * Which message type a change is about, e.g. `OldType (mNum 1)` or `Old → New (mNum 5)`;
 * just the name for `changed`, whose fields say the rest.
 */
export function subject(change: DriftChange, wrap: Wrap = plain): string {
  switch (change.kind) {
    case 'added':
      return `${wrap(displayName(change.name))} (mNum ${change.after.mNum})`;
    case 'removed':
      return `${wrap(displayName(change.name))} (mNum ${change.before.mNum})`;
    case 'renamed':
      return `${wrap(displayName(change.before.name))} → ${wrap(displayName(change.after.name))} (mNum ${change.after.mNum})`;
    case 'changed':
      return wrap(displayName(change.name));
  }
}

/** A rule id as it follows a change or field: `[MESSAGE_REMOVED]`. */
export function ruleTag(rule: string): string {
  return `[${rule}]`;
}

/**
 * The head line of a change, `kind subject`, tagged with the rule of the type as a whole: an added
 * or removed type's own, a rename's `name` field's (its other fields follow in {@link fieldLines}).
 */
export function changeLine(change: ReportedChange, wrap: Wrap = plain): string {
  const rule = change.kind === 'changed' ? undefined : change.kind === 'renamed' ? change.fields.find((field) => field.field === 'name')?.rule : change.rule;
  return `${change.kind} ${subject(change, wrap)}${rule === undefined ? '' : ` ${ruleTag(rule)}`}`;
}

/** An added type's note: `note: module messages/FOO__1a2b3c4d, as its name and Foo's would share a file on case-insensitive file systems`. */
export function noteLine(note: FileNote, wrap: Wrap = plain): string {
  return `note: module ${wrap(displayName(note.module))}, as its name and ${wrap(displayName(note.caseClashWith))}'s would share a file on case-insensitive file systems`;
}

/**
 * One line per differing field, `field: before → after [RULE]`, with the field's own severity
 * when it is milder than the change's (the group heading already says the change's). A rename's
 * `name` field is left out: {@link changeLine} shows it. An added type has no fields, only its
 * note when it has one ({@link noteLine}).
 */
export function fieldLines(change: ReportedChange, wrap: Wrap = plain): string[] {
  if (change.kind === 'added') return change.note === undefined ? [] : [noteLine(change.note, wrap)];
  return shownFields(change).map((field) => {
    const text = `${fieldText(field, wrap)} ${ruleTag(field.rule)}`;
    return field.severity === change.severity ? text : `${text} (${field.severity})`;
  });
}

/**
 * {@link fieldLines} as a section of a report that may be cut, the worst fields kept first (each
 * ranked by its severity), so that a cut cell or annotation still shows a removal among many
 * milder changes.
 */
export function fieldSection(change: ReportedChange, wrap: Wrap = plain): ReportSection {
  return { items: fieldLines(change, wrap), ranks: shownFields(change).map((field) => SEVERITIES.indexOf(field.severity)), noun: 'field change' };
}

/** The fields a change's lines show: none of an added or removed type, a rename's but its `name`. */
function shownFields(change: ReportedChange): FieldChange[] {
  if (change.kind === 'added' || change.kind === 'removed') return [];
  return change.fields.filter((field) => !(change.kind === 'renamed' && field.field === 'name'));
}

/**
 * `field: before → after`, or what a field-level "hash changed, fields unchanged" says instead, or
 * a shift as one line (`fields.*.pos: 47 fields moved, from bidSize (4 → 5) to zeta (99 → 100)`).
 */
function fieldText(field: { field: string; before: unknown; after: unknown; rule?: string }, wrap: Wrap): string {
  if (field.rule === 'RECORD_FIELDS_UNCHANGED') return FIELDS_UNCHANGED_TEXT;
  const verb = field.rule === 'RECORD_FIELDS_RENUMBERED' ? 'renumbered' : field.rule === 'RECORD_FIELDS_MOVED' ? 'moved' : undefined;
  const shifted = verb === undefined ? undefined : shiftText({ ...field, verb }, wrap);
  return `${wrap(displayName(field.field))}: ${shifted ?? `${wrap(formatValue(field.before))} → ${wrap(formatValue(field.after))}`}`;
}

/**
 * A shift's fields (before and after map each field's path to its value, in record order) as a
 * count and the first and last of them; undefined when the values are not such maps (a caller's own
 * change), which then read as any other values.
 */
function shiftText(shift: { before: unknown; after: unknown; verb: string }, wrap: Wrap): string | undefined {
  const before = plainRecord(shift.before);
  const after = plainRecord(shift.after);
  if (before === undefined || after === undefined) return undefined;
  const paths = Object.keys(before);
  if (paths.length === 0) return undefined;
  const one = (path: string) => `${wrap(displayName(path))} (${wrap(formatValue(before[path]))} → ${wrap(formatValue(Object.hasOwn(after, path) ? after[path] : undefined))})`;
  if (paths.length === 1) return `1 field ${shift.verb}: ${one(paths[0]!)}`;
  return `${paths.length} fields ${shift.verb}, from ${one(paths[0]!)} to ${one(paths.at(-1)!)}`;
}

function plainRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * An accepted change on one line, with its rule and severity: `removed OldType (mNum 1)
 * [MESSAGE_REMOVED] breaking` or `changed SomeType · schemaHash: "6F89" → "0A1B"
 * [SCHEMA_HASH_CHANGED] dangerous`. The reason is the caller's to add.
 */
export function acceptedLine(change: AcceptedChange, wrap: Wrap = plain): string {
  const what =
    change.field === undefined
      ? `${wrap(displayName(change.name))} (mNum ${formatValue(mNumOf(change.before ?? change.after))})`
      : `${wrap(displayName(change.name))} · ${fieldText({ field: change.field, before: change.before, after: change.after, rule: change.rule }, wrap)}`;
  return `${change.kind} ${what} ${ruleTag(change.rule)} ${change.severity}`;
}

/** The `mNum` of an added or removed type's `{ mNum }`. */
function mNumOf(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? (value as { mNum?: unknown }).mNum : value;
}

/** A setting that differs, `include: (absent) → ["Order*"]` (recorded → given). */
export function settingLine(drift: SettingDrift, wrap: Wrap = plain): string {
  return fieldText({ field: drift.setting, before: drift.recorded, after: drift.given }, wrap);
}

/** Why a stale file counts as drift, per reason. */
export const STALE_REASONS: Record<StaleFile['reason'], string> = {
  missing: 'missing: the lockfile generates it, but it is not there',
  extra: 'extra: generated by schema-sync, but the lockfile no longer generates it',
  modified: 'modified: differs from what the lockfile generates',
  symlink: 'symlink: a symbolic link, not what schema-sync wrote (never read through)',
};

/** What a cut report left out, e.g. `812 more changes, 2 more accepted changes and 1 more stale file`. */
export function leftOutList(left: readonly LeftOut[]): string {
  const parts = left.map(({ noun, count }) => plural(count, `more ${noun}`));
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

/** The last line of a part of a report cut to fit (a table cell, an annotation), as `impactLines` says it. */
export function leftOutLine(left: readonly LeftOut[]): string {
  return `… and ${leftOutList(left)} (--format json lists them all)`;
}
