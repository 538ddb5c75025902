import { SEVERITIES } from './rules.js';
import { displayName } from '../text/safe-text.js';
import type { DriftReport, RenderOptions, Severity } from './types.js';
import { brokenPlace, impactGroups, impactLines, impactSummaryLine, notUsedLine, projectNames, type ImpactedChange } from './impact-wording.js';
import { ACCEPTED_HEADING, acceptedLine, changeLine, fieldLines, SETTINGS_HINT, settingLine, SEVERITY_NAMES, staleHint, summaryLine } from './wording.js';

/** SGR colour codes per severity; stale files and settings that differ count as errors, like breaking changes; accepted changes are blue. */
const COLORS: Record<Severity | 'stale' | 'accepted', string> = { breaking: '31', dangerous: '33', safe: '32', stale: '31', accepted: '34' };

/**
 * A first pull adds every type: past this many additions only the first few are listed (the
 * JSON and markdown reports keep them all), so the report stays readable in a terminal.
 */
const ADDED_LISTED = { above: 50, show: 20 };

/**
 * The report for people: one group per severity (worst first), each change as
 * `kind subject` with its fields indented below, each tagged with its rule id; then the accepted
 * changes with their reasons, stale files, settings that differ, and the summary line. With
 * `--impact` the changes are grouped by what they do to the projects checked instead: what breaks
 * them first, then what they use that still compiles, then one line naming the changes they do not
 * use; the impact summary line goes before the drift summary.
 * ANSI colours only with `color: true`; every server string is escaped, so the output holds
 * no escape sequence or line break that we did not put there. No trailing newline.
 *
 * @example
 * Breaking
 *   removed OldType (mNum 1) [MESSAGE_REMOVED]
 *
 * Dangerous
 *   changed SomeType
 *     schemaHash: "6F89DED149E6399C" → "0A1B2C3D4E5F6071" [SCHEMA_HASH_CHANGED]
 *
 * Drift: 2 message types (1 breaking, 1 dangerous, 0 safe)
 */
export function renderText(report: DriftReport, options: Pick<RenderOptions, 'color' | 'command' | 'dryRun'>): string {
  const paint = (code: string, text: string): string => (options.color ? `\u001b[1;${code}m${text}\u001b[0m` : text);
  const blocks: string[] = [];

  if (report.impact === undefined) blocks.push(...severityBlocks(report, paint));
  else blocks.push(...impactBlocks(report, paint));

  if (report.accepted.length > 0) {
    const lines = [paint(COLORS.accepted, ACCEPTED_HEADING)];
    for (const change of report.accepted) {
      lines.push(`  ${acceptedLine(change)}`, `    reason: ${displayName(change.reason)}`);
    }
    blocks.push(lines.join('\n'));
  }

  if (report.staleFiles.length > 0) {
    const lines = [paint(COLORS.stale, 'Stale files')];
    for (const file of report.staleFiles) lines.push(`  ${file.reason} ${displayName(file.path)}`);
    lines.push(`  ${staleHint(report.staleFiles)}`);
    blocks.push(lines.join('\n'));
  }

  if (report.settings.length > 0) {
    const lines = [paint(COLORS.stale, 'Settings differ (lockfile → given)')];
    for (const drift of report.settings) lines.push(`  ${settingLine(drift)}`);
    lines.push(`  ${SETTINGS_HINT}`);
    blocks.push(lines.join('\n'));
  }

  if (report.impact !== undefined) blocks.push(impactSummaryLine(report.impact));

  blocks.push(summaryLine(report, options));
  return blocks.join('\n\n');
}

type Paint = (code: string, text: string) => string;

/** Without `--impact`: one group per severity, worst first, each change with its fields. */
function severityBlocks(report: DriftReport, paint: Paint): string[] {
  const blocks: string[] = [];
  for (const severity of SEVERITIES) {
    const changes = report.changes.filter((change) => change.severity === severity);
    if (changes.length === 0) continue;
    const lines = [paint(COLORS[severity], SEVERITY_NAMES[severity])];
    const added = changes.filter((change) => change.kind === 'added').length;
    let addedShown = 0;
    for (const change of changes) {
      if (change.kind === 'added' && added > ADDED_LISTED.above && addedShown++ >= ADDED_LISTED.show) continue;
      lines.push(`  ${changeLine(change)}`);
      for (const line of fieldLines(change)) lines.push(`    ${line}`);
    }
    if (addedShown > ADDED_LISTED.show) lines.push(`  … and ${added - ADDED_LISTED.show} more added (--format json lists them all)`);
    blocks.push(lines.join('\n'));
  }
  return blocks;
}

/**
 * With `--impact`: first what breaks the projects checked (the changes that do, worst first, each
 * with the places, then the new errors no change explains), then what they use that still
 * compiles, then one line naming the changes they do not use.
 */
function impactBlocks(report: DriftReport, paint: Paint): string[] {
  const impact = report.impact!;
  const groups = impactGroups(report);
  const blocks: string[] = [];
  if (groups.broken.length > 0 || impact.unattributed.length > 0) {
    const lines = [paint(COLORS.breaking, `Breaks ${projectNames(impact)}`), ...groups.broken.flatMap(impactedLines)];
    for (const use of impact.unattributed) lines.push(`  new error, no change explains it: ${brokenPlace(use)}`);
    blocks.push(lines.join('\n'));
  }
  if (groups.referenced.length > 0) blocks.push([paint(COLORS.dangerous, `Used by ${projectNames(impact)}, still compiles`), ...groups.referenced.flatMap(impactedLines)].join('\n'));
  if (groups.unused.length > 0) blocks.push(notUsedLine(impact, groups.unused));
  return blocks;
}

/** A change under an impact heading: its severity and head line, its fields, what it does to the projects. */
function impactedLines({ change, accepted }: ImpactedChange): string[] {
  if (accepted !== undefined) return [`  accepted · ${acceptedLine(accepted)}`, ...impactLines(accepted.impact!).map((line) => `    → ${line}`)];
  return [`  ${change.severity} · ${changeLine(change)}`, ...fieldLines(change).map((line) => `    ${line}`), ...impactLines(change.impact!).map((line) => `    → ${line}`)];
}
