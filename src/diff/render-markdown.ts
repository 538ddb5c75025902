import { displayName } from './format-value.js';
import type { DriftChange, DriftReport } from './types.js';
import { byVoice, fieldLines, STALE_HINT, STALE_REASONS, subject, summaryLine, type Voice } from './wording.js';

/**
 * The report as a PR comment or job summary: a heading, the summary line, a table
 * `| Severity | Change | Message | Details |` with one row per change, and the stale files as a
 * list. Server strings only ever appear inside code spans, so they cannot add markup, links,
 * mentions or table cells. No trailing newline.
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

  if (report.staleFiles.length > 0) {
    const items = report.staleFiles.map(
      (file) => `- ${codeSpan(displayName(file.path))} — ${STALE_REASONS[file.reason]}`,
    );
    blocks.push(['**Stale files**', '', ...items, '', STALE_HINT].join('\n'));
  }
  return blocks.join('\n\n');
}

/** The Details cell: the rest of the subject, then each field; `<br>` between lines. */
function details(change: DriftChange): string {
  const lines: string[] = [];
  if (change.kind === 'added') lines.push(`mNum ${change.after.mNum}`);
  if (change.kind === 'removed') lines.push(`mNum ${change.before.mNum}`);
  if (change.kind === 'renamed') lines.push(subject(change, codeSpan));
  lines.push(...fieldLines(change, codeSpan));
  return lines.join('<br>');
}

/**
 * An inline code span holding `text` literally: a fence longer than any backtick run inside,
 * and padding when the text starts or ends with a backtick or space (CommonMark strips one
 * space on each side). Inside a code span nothing is markup: no links, mentions or HTML.
 */
export function codeSpan(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
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
  const longestRun = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  return `${fence}text\n${text}\n${fence}`;
}
