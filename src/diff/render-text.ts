import { SEVERITIES } from './rules.js';
import { displayName } from '../text/safe-text.js';
import type { DriftReport, RenderOptions, Severity } from './types.js';
import { ACCEPTED_HEADING, acceptedLine, brokenPlace, changeLine, fieldLines, impactLines, impactSummaryLine, SETTINGS_HINT, settingLine, SEVERITY_NAMES, staleHint, summaryLine } from './wording.js';

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
 * changes with their reasons, stale files, settings that differ, and the summary line.
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
      if (change.impact !== undefined) for (const line of impactLines(change.impact)) lines.push(`    → ${line}`);
    }
    if (addedShown > ADDED_LISTED.show) lines.push(`  … and ${added - ADDED_LISTED.show} more added (--format json lists them all)`);
    blocks.push(lines.join('\n'));
  }

  if (report.accepted.length > 0) {
    const lines = [paint(COLORS.accepted, ACCEPTED_HEADING)];
    for (const change of report.accepted) {
      lines.push(`  ${acceptedLine(change)}`, `    reason: ${displayName(change.reason)}`);
      if (change.impact !== undefined) for (const line of impactLines(change.impact)) lines.push(`    → ${line}`);
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

  if (report.impact !== undefined) {
    const lines = [impactSummaryLine(report.impact)];
    for (const use of report.impact.unattributed) lines.push(`  new error, no change explains it: ${brokenPlace(use)}`);
    blocks.push(lines.join('\n'));
  }

  blocks.push(summaryLine(report, options));
  return blocks.join('\n\n');
}
