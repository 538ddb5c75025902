import { displayName, inlineText } from '../text/safe-text.js';
import type { DriftReport, ReportLocations, Severity } from './types.js';
import { ANNOTATIONS_SHOWN, fitAnnotations, fitToBudget, REPORT_LIMITS, type Annotation, type LeftOut } from './fit-budget.js';
import { impactLines, impactSummaryLine, shortMessage } from './impact-wording.js';
import { acceptedLine, changeLine, fieldSection, leftOutLine, leftOutList, SETTINGS_HINT, settingLine, SEVERITY_NAMES, staleHint, STALE_REASONS, summaryLine, type Voice } from './wording.js';
import type { BrokenUse } from '../model/impact.js';

/** The workflow command per severity: breaking fails loudest. */
const COMMANDS: Record<Severity, Annotation['kind']> = { breaking: 'error', dangerous: 'warning', safe: 'notice' };

/**
 * GitHub Actions workflow commands: one annotation per change (`::error` breaking, `::warning`
 * dangerous, `::notice` safe; the fields on further lines of the message), on the message's
 * entry in the lockfile where `locations` give it, a `::notice` per accepted change (with its
 * reason), one `::error` per stale file, on that file, and one per setting that differs; then
 * the summary line as plain log text. Files are relative to the repository root, as
 * the runner needs them. Messages and properties are escaped as the runner expects, so a value
 * can neither end the command early nor start a command of its own. No trailing newline.
 *
 * Only what GitHub shows ({@link fitAnnotations}): the first {@link ANNOTATIONS_SHOWN} of each
 * kind (the consumer's broken lines before the changes' errors, the worst changes first), then one
 * notice saying how many more the step summary lists; each
 * message at most {@link REPORT_LIMITS}`.annotation` characters as the runner reads it, the
 * mildest of its further lines counted instead.
 */
export function renderGithub(report: DriftReport, options: Voice & { locations?: ReportLocations }): string {
  const { locations } = options;
  const annotations: Annotation[] = [];
  const annotate = (kind: Annotation['kind'], properties: Record<string, string>, message: string) => annotations.push({ kind, line: workflowCommand(kind, properties, message) });
  /** On the lockfile entry of a message type (by the first of its names that has one), where `locations` give it. */
  const placed = (properties: Record<string, string>, names: readonly string[]): Record<string, string> => {
    if (locations !== undefined && safePath(locations.lockfile)) {
      properties['file'] = locations.lockfile;
      const line = names.map((name) => locations.lineOf(name)).find((found) => found !== undefined);
      if (line !== undefined) properties['line'] = String(line);
    }
    return properties;
  };
  for (const change of report.changes) {
    const message = fitToBudget(
      [{ head: changeLine(change) }, fieldSection(change), { items: change.impact === undefined ? [] : impactLines(change.impact), noun: 'impact line' }],
      { limit: REPORT_LIMITS.annotation, separator: '\n', leftOut: leftOutLine, size: (text) => escapeData(text).length },
    );
    const properties = placed({ title: `${SEVERITY_NAMES[change.severity]} schema change` }, change.kind === 'renamed' ? [change.before.name, change.name] : [change.name]);
    annotate(COMMANDS[change.severity], properties, message);
  }
  for (const change of report.accepted) {
    const message = `${acceptedLine(change)}\nreason: ${displayName(change.reason)}`;
    annotate('notice', placed({ title: 'Accepted schema change' }, [change.name]), message);
  }
  for (const file of report.staleFiles) {
    const message = `${displayName(file.path)} is ${STALE_REASONS[file.reason]}\n${staleHint([file])}`;
    const properties: Record<string, string> = { title: 'Stale generated file' };
    const path = locations === undefined ? file.path : posixJoin(locations.outDir, file.path);
    if (safePath(path)) properties['file'] = path;
    annotate('error', properties, message);
  }
  for (const drift of report.settings) {
    annotate('error', { title: 'Settings differ from the lockfile' }, `${settingLine(drift)} (lockfile → given)\n${SETTINGS_HINT}`);
  }
  // The consumer's own lines that a change breaks, each annotated where it is (`--impact`).
  for (const change of [...report.changes, ...report.accepted]) {
    for (const use of change.impact?.broken ?? []) {
      annotations.push(brokenAnnotation(use, `Schema change breaks this line: ${change.kind} ${displayName(change.name)}`));
    }
  }
  for (const use of report.impact?.unattributed ?? []) annotations.push(brokenAnnotation(use, 'New error with the new generated code'));
  const lines = fitAnnotations(annotations, moreAnnotations).map((annotation) => annotation.line);
  if (report.impact !== undefined) lines.push(impactSummaryLine(report.impact));
  lines.push(summaryLine(report, options));
  return lines.join('\n');
}

/** The last notice when GitHub would not show them all: how many of each kind are left out, and where they are. */
function moreAnnotations(left: readonly LeftOut[]): Annotation {
  const message = `${leftOutList(left)} left out here: GitHub shows ${ANNOTATIONS_SHOWN} of each kind per step. The step summary lists the changes; --format json reports everything.`;
  return { kind: 'notice', line: workflowCommand('notice', { title: 'More schema changes' }, message) };
}

/**
 * An `::error` on the consumer's own line (paths from the repository root, as the runner needs
 * them). Shown before the changes' own errors when not all are: it is on the code to fix, and
 * nothing but the annotations puts it there.
 */
function brokenAnnotation(use: BrokenUse, title: string): Annotation {
  const properties: Record<string, string> = { title };
  if (safePath(use.file)) Object.assign(properties, { file: use.file, line: String(use.line), col: String(use.column) });
  return { kind: 'error', line: workflowCommand('error', properties, `TS${use.code}: ${inlineText(shortMessage(use.message))}`), rank: -1 };
}

/** A path that needs quoting to print safely is not given to the runner raw, even escaped. */
function safePath(path: string): boolean {
  return displayName(path) === path;
}

function posixJoin(folder: string, path: string): string {
  return folder === '' || folder === '.' ? path : `${folder.replace(/\/$/, '')}/${path}`;
}

/**
 * One workflow command line, `::name key=value,…::message`, escaped per the runner's rules
 * (actions/toolkit `command.ts`): `%`, CR and LF in the message; those and `:` and `,` in
 * property values, which would otherwise end the value.
 */
export function workflowCommand(name: string, properties: Readonly<Record<string, string>>, message: string): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(',');
  return `::${name}${props === '' ? '' : ` ${props}`}::${escapeData(message)}`;
}

/** Escapes a workflow command's message. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
