import { displayName } from '../text/safe-text.js';
import { fitToBudget, REPORT_LIMITS, type LeftOut, type ReportSection } from './fit-budget.js';
import type { DriftReport, RenderOptions, ReportedChange } from './types.js';
import { brokenPlace, impactGroups, impactLines, impactSummaryLine, notUsedLine, projectNames, type ImpactedChange } from './impact-wording.js';
import { ACCEPTED_HEADING, acceptedLine, byVoice, changeLine, fieldSection, leftOutLine, leftOutList, ruleTag, SETTINGS_HINT, settingLine, staleHint, STALE_REASONS, summaryLine, type Voice } from './wording.js';

/**
 * The report as a PR comment, job summary or changelog: a heading, the summary line, a table
 * `| Severity | Change | Message | Details |` with one row per change (rule ids in the details),
 * the accepted changes as a list with their reasons, then stale files and settings that differ.
 * With `--impact`, what the change does to the projects checked comes first, after the summary:
 * what breaks them, what they use that still compiles, one line naming the changes they do not use.
 * Server strings only ever appear inside code spans, so they cannot add markup, links, mentions
 * or table cells. No trailing newline.
 *
 * It fits where it goes ({@link fitToBudget}): at most `maxLength` characters, by default under
 * GitHub's limit of a pull-request body and a step summary. When cut, the heading and summary stay,
 * then the rows worst first, then the other sections, and a last line says what was left out and
 * that `--format json` has it all; a cell shows at most {@link REPORT_LIMITS}`.cell` characters of
 * a change's details.
 */
export function renderMarkdown(report: DriftReport, options: Voice & Pick<RenderOptions, 'maxLength'>): string {
  const heading = byVoice(options, {
    check: 'Schema drift',
    dryRun: 'Schema changes (dry run)',
    pull: 'Schema changes',
  });
  const sections: ReportSection[] = [{ head: `### ${heading}` }, { head: summaryLine(report, options) }];
  // What breaks the projects checked leads (and is the last to be cut), then the table of every change.
  if (report.impact !== undefined) sections.push(...impactSections(report));

  if (report.changes.length > 0) {
    const rows = report.changes.map(
      (change) =>
        `| ${change.severity} | ${change.kind} | ${escapeCell(codeSpan(displayName(change.name)))} | ${details(change)} |`,
    );
    sections.push({ head: '| Severity | Change | Message | Details |\n| --- | --- | --- | --- |', items: rows, noun: 'change' });
  }

  if (report.accepted.length > 0) {
    // The reason is the project's own text (its config), shown as written, one line.
    const items = report.accepted.map((change) => `- ${acceptedLine(change, codeSpan)} — ${change.reason.replace(/\s+/g, ' ')}`);
    sections.push({ head: `**${ACCEPTED_HEADING}**\n`, items, noun: 'accepted change' });
  }

  if (report.staleFiles.length > 0) {
    const items = report.staleFiles.map(
      (file) => `- ${codeSpan(displayName(file.path))} — ${STALE_REASONS[file.reason]}`,
    );
    sections.push({ head: '**Stale files**\n', items, tail: `\n${staleHint(report.staleFiles)}`, noun: 'stale file' });
  }

  if (report.settings.length > 0) {
    const items = report.settings.map((drift) => `- ${settingLine(drift, codeSpan)} (lockfile → given)`);
    sections.push({ head: '**Settings differ**\n', items, tail: `\n${SETTINGS_HINT}`, noun: 'setting' });
  }

  const limit = options.maxLength ?? REPORT_LIMITS.markdown;
  return fitToBudget(sections, { limit, separator: '\n\n', leftOut: (left) => cutLine(left, limit) });
}

/** The last line of a markdown report cut to fit: what was left out, and where the whole report is. */
function cutLine(left: readonly LeftOut[], limit: number): string {
  return `**… and ${leftOutList(left)}, left out to keep this report under ${thousands(limit)} characters.** The full report: \`--format json\` (between two lockfiles: \`schema-sync diff --format json <base> <head>\`).`;
}

/** `60000` as `60,000`, the same on every machine (no locale data). */
function thousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * "Impact on this repository": the summary, the changes that break the projects checked (each with
 * its places) and the new errors no change explains, then the changes they use that still compile,
 * then one line naming the changes they do not use (the table below has their details).
 */
function impactSections(report: DriftReport): ReportSection[] {
  const impact = report.impact!;
  const groups = impactGroups(report);
  const sections: ReportSection[] = [{ head: `#### Impact on this repository\n\n${impactSummaryLine(impact)}` }];
  const broken = [...groups.broken.map(impactItem), ...impact.unattributed.map((use) => `- new error, no change explains it: ${brokenPlace(use, codeSpan)}`)];
  if (broken.length > 0) sections.push({ head: `**Breaks ${projectNames(impact, codeSpan)}**\n`, items: broken, noun: 'impact note' });
  if (groups.referenced.length > 0) sections.push({ head: `**Used by ${projectNames(impact, codeSpan)}, still compiles**\n`, items: groups.referenced.map(impactItem), noun: 'impact note' });
  if (groups.unused.length > 0) sections.push({ head: notUsedLine(impact, groups.unused, codeSpan) });
  return sections;
}

/** One change as a list item: `- removed \`OldType\`: breaks \`src/old.ts:1:10\` (TS2305 …)`, further places below it. */
function impactItem({ change, accepted }: ImpactedChange): string {
  const { kind, name, impact } = change ?? accepted;
  const [first, ...rest] = impactLines(impact!, codeSpan);
  return [`- ${kind} ${codeSpan(displayName(name))}${accepted === undefined ? '' : ' (accepted)'}: ${first}`, ...rest.map((line) => `  - ${line}`)].join('\n');
}

/**
 * The Details cell, escaped: the rest of the head line, then each field; `<br>` between lines.
 * At most {@link REPORT_LIMITS}`.cell` characters: the fields that do not fit (the mildest) are
 * counted instead.
 */
function details(change: ReportedChange): string {
  const head: string[] = [];
  if (change.kind === 'added') head.push(`mNum ${change.after.mNum} ${ruleTag(change.rule)}`);
  if (change.kind === 'removed') head.push(`mNum ${change.before.mNum} ${ruleTag(change.rule)}`);
  if (change.kind === 'renamed') head.push(changeLine(change, codeSpan).slice(change.kind.length + 1));
  const sections: ReportSection[] = [...head.map((line) => ({ head: line })), fieldSection(change, codeSpan)];
  return escapeCell(fitToBudget(sections, { limit: REPORT_LIMITS.cell, separator: '\n', leftOut: leftOutLine, size: (text) => escapeCell(text).length }));
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
