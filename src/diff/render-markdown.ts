import { displayName } from '../text/safe-text.js';
import { impactKind } from '../model/impact.js';
import type { DriftReport, ReportedChange } from './types.js';
import { ACCEPTED_HEADING, acceptedLine, brokenPlace, byVoice, changeLine, fieldLines, impactLines, impactSummaryLine, ruleTag, SETTINGS_HINT, settingLine, STALE_HINT, STALE_REASONS, summaryLine, type Voice } from './wording.js';

/**
 * The report as a PR comment, job summary or changelog: a heading, the summary line, a table
 * `| Severity | Change | Message | Details |` with one row per change (rule ids in the details),
 * the accepted changes as a list with their reasons, then stale files and settings that differ.
 * Server strings only ever appear inside code spans, so they cannot add markup, links, mentions
 * or table cells. No trailing newline.
 */
export function renderMarkdown(report: DriftReport, options: Voice): string {
  const heading = byVoice(options, {
    check: 'Schema drift',
    dryRun: 'Schema changes (dry run)',
    pull: 'Schema changes',
  });
  const blocks = [`### ${heading}`, summaryLine(report, options)];

  if (report.changes.length > 0) {
    const rows = report.changes.map(
      (change) =>
        `| ${change.severity} | ${change.kind} | ${escapeCell(codeSpan(displayName(change.name)))} | ${escapeCell(details(change))} |`,
    );
    blocks.push(['| Severity | Change | Message | Details |', '| --- | --- | --- | --- |', ...rows].join('\n'));
  }

  if (report.accepted.length > 0) {
    // The reason is the project's own text (its config), shown as written, one line.
    const items = report.accepted.map((change) => `- ${acceptedLine(change, codeSpan)} — ${change.reason.replace(/\s+/g, ' ')}`);
    blocks.push([`**${ACCEPTED_HEADING}**`, '', ...items].join('\n'));
  }

  if (report.staleFiles.length > 0) {
    const items = report.staleFiles.map(
      (file) => `- ${codeSpan(displayName(file.path))} — ${STALE_REASONS[file.reason]}`,
    );
    blocks.push(['**Stale files**', '', ...items, '', STALE_HINT].join('\n'));
  }

  if (report.settings.length > 0) {
    const items = report.settings.map((drift) => `- ${settingLine(drift, codeSpan)} (lockfile → given)`);
    blocks.push(['**Settings differ**', '', ...items, '', SETTINGS_HINT].join('\n'));
  }

  if (report.impact !== undefined) blocks.push(impactSection(report));
  return blocks.join('\n\n');
}

/**
 * "Impact on this repository": the summary, then each change that breaks or uses the projects'
 * code with its places (a change nothing uses is left out: the table lists it), then the new
 * errors no change explains.
 */
function impactSection(report: DriftReport): string {
  const lines = ['#### Impact on this repository', '', impactSummaryLine(report.impact!)];
  const items: string[] = [];
  for (const change of [...report.changes, ...report.accepted]) {
    if (change.impact === undefined || impactKind(change.impact) === 'unused') continue;
    const [first, ...rest] = impactLines(change.impact, codeSpan);
    items.push(`- ${change.kind} ${codeSpan(displayName(change.name))}: ${first}`, ...rest.map((line) => `  - ${line}`));
  }
  for (const use of report.impact!.unattributed) items.push(`- new error, no change explains it: ${brokenPlace(use, codeSpan)}`);
  if (items.length > 0) lines.push('', ...items);
  return lines.join('\n');
}

/** The Details cell: the rest of the head line, then each field; `<br>` between lines. */
function details(change: ReportedChange): string {
  const lines: string[] = [];
  if (change.kind === 'added') lines.push(`mNum ${change.after.mNum} ${ruleTag(change.rule)}`);
  if (change.kind === 'removed') lines.push(`mNum ${change.before.mNum} ${ruleTag(change.rule)}`);
  if (change.kind === 'renamed') lines.push(changeLine(change, codeSpan).slice(change.kind.length + 1));
  lines.push(...fieldLines(change, codeSpan));
  return lines.join('<br>');
}

/**
 * An inline code span holding `text` literally: a fence longer than any backtick run inside,
 * and padding when the text starts or ends with a backtick or space (CommonMark strips one
 * space on each side). Inside a code span nothing is markup: no links, mentions or HTML.
 */
export function codeSpan(text: string): string {
  const fence = fenceFor(text, 1);
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Makes text safe as a table cell: GitHub splits cells on `|` even inside code spans (and
 * renders `\|` there as `|`), and a line break would end the row.
 */
export function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r\n|\r|\n/g, '<br>');
}

/**
 * A fenced code block holding `text` literally: its fence is longer than any backtick run
 * inside, so no line of the text can close it, and nothing inside is markup.
 */
export function codeBlock(text: string): string {
  const fence = fenceFor(text, 3);
  return `${fence}text\n${text}\n${fence}`;
}

/** A run of backticks longer than any inside `text`, and at least `shortest` long. */
function fenceFor(text: string, shortest: number): string {
  return '`'.repeat(Math.max(shortest - 1, ...(text.match(/`+/g) ?? []).map((run) => run.length)) + 1);
}
