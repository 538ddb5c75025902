/**
 * How the text, markdown and github reports word drift impact (`--impact`): the changes grouped by
 * what they do to the projects checked (break them, are used and still compile, are not used), a
 * new error as one readable line, the summary line. Every server string passes through
 * `displayName`; a compiler message through `inlineText`, cut to one line.
 */
import { impactKind, type BrokenUse, type MessageImpact } from '../model/impact.js';
import { displayName, inlineText } from '../text/safe-text.js';
import type { AcceptedChange, DriftReport, ImpactSummary, ReportedChange } from './types.js';

/** Wraps an already escaped fragment, e.g. in a markdown code span; identity for plain text. */
type Wrap = (fragment: string) => string;

const plain: Wrap = (fragment) => fragment;

/** Broken places listed under one change before "… and N more" (the JSON report lists them all). */
export const BROKEN_LISTED = 5;

/** The most characters of a compiler message a report quotes (the JSON report has it whole). */
export const MESSAGE_CHARS = 200;

/** The most characters of one type a quoted compiler message prints (`'{ readonly Quote: … }'`). */
const TYPE_CHARS = 60;

/** Names listed on the line of changes not used, before "… and N more". */
const UNUSED_LISTED = 20;

/**
 * A compiler message as one readable line: its first line (the chain's head), each type it quotes
 * cut to its beginning, the whole cut to {@link MESSAGE_CHARS} characters, the beginning kept.
 *
 * @example
 * shortMessage("Property 'Quote' does not exist on type '{ readonly OldType: { readonly name: \"OldType\"; … 261 more …; }'.\n  …")
 * // "Property 'Quote' does not exist on type '{ readonly OldType: { readonly name: \"OldType\"; readonly…'."
 */
export function shortMessage(message: string): string {
  const first = message.split('\n')[0]!.trim();
  const types = first.replace(/'([^'\n]{61,})'/g, (_, type: string) => `'${type.slice(0, TYPE_CHARS - 1).trimEnd()}…'`);
  return types.length <= MESSAGE_CHARS ? types : `${types.slice(0, MESSAGE_CHARS - 1).trimEnd()}…`;
}

/** A new error as one line: `src/quotes.ts:42:7 (TS2339 Property … does not exist …)`, its message cut by {@link shortMessage}. */
export function brokenPlace(use: BrokenUse, wrap: Wrap = plain): string {
  return `${wrap(displayName(`${use.file}:${use.line}:${use.column}`))} (TS${use.code} ${inlineText(shortMessage(use.message))})`;
}

/**
 * What a change does to the projects checked (`--impact`), as lines under it: `breaks <place>`
 * for each new error it causes, else `used in N places, still compiles`, else `not used`.
 */
export function impactLines(impact: MessageImpact, wrap: Wrap = plain): string[] {
  const kind = impactKind(impact);
  if (kind === 'broken') {
    const lines = impact.broken.slice(0, BROKEN_LISTED).map((use) => `breaks ${brokenPlace(use, wrap)}`);
    if (impact.broken.length > BROKEN_LISTED) lines.push(`… and ${impact.broken.length - BROKEN_LISTED} more (--format json lists them all)`);
    return lines;
  }
  const uses = impact.referenced.length;
  return [kind === 'unused' ? 'not used' : `used in ${uses} ${uses === 1 ? 'place' : 'places'}, still compiles`];
}

/** The projects checked, as a report names them: `tsconfig.json, packages/app/tsconfig.json`. */
export function projectNames(summary: ImpactSummary, wrap: Wrap = plain): string {
  return summary.projects.map((project) => wrap(displayName(project))).join(', ');
}

/** The impact summary line: projects checked, places broken and used, new errors no change explains. */
export function impactSummaryLine(summary: ImpactSummary): string {
  const unattributed = summary.unattributed.length === 0 ? '' : `, ${summary.unattributed.length} new ${summary.unattributed.length === 1 ? 'error' : 'errors'} no change explains`;
  return `Impact on ${projectNames(summary)}: ${summary.broken} broken, ${summary.referenced} used and still compiling${unattributed}`;
}

/** A change or an accepted change, with its impact on the projects checked. */
export type ImpactedChange = { change: ReportedChange; accepted?: undefined } | { change?: undefined; accepted: AcceptedChange };

/**
 * The report's changes and accepted changes by what they do to the projects checked, each group in
 * the report's order (worst first): those that break them, those they use that still compile, and
 * those they do not use.
 */
export function impactGroups(report: DriftReport): Record<'broken' | 'referenced' | 'unused', ImpactedChange[]> {
  const groups: Record<'broken' | 'referenced' | 'unused', ImpactedChange[]> = { broken: [], referenced: [], unused: [] };
  for (const change of report.changes) groups[impactKind(change.impact)].push({ change });
  for (const accepted of report.accepted) groups[impactKind(accepted.impact)].push({ accepted });
  return groups;
}

/** The one line that lists the changes the projects do not use: `Not used by tsconfig.json: changed Unused, removed OldType`. */
export function notUsedLine(summary: ImpactSummary, unused: readonly ImpactedChange[], wrap: Wrap = plain): string {
  const names = unused.map(({ change, accepted }) => (change !== undefined ? `${change.kind} ${wrap(displayName(change.name))}` : `${accepted.kind} ${wrap(displayName(accepted.name))} (accepted)`));
  const listed = names.slice(0, UNUSED_LISTED).join(', ');
  const more = names.length > UNUSED_LISTED ? `, … and ${names.length - UNUSED_LISTED} more` : '';
  return `Not used by ${projectNames(summary, wrap)} (${names.length}): ${listed}${more}`;
}
