import { jsonText } from '../text/safe-text.js';
import { renderGithub } from './render-github.js';
import { renderMarkdown } from './render-markdown.js';
import { renderText } from './render-text.js';
import type { BrokenUse, MessageImpact } from '../model/impact.js';
import type { AcceptedChange, DriftReport, ImpactSummary, RenderOptions, ReportedChange, FieldChange } from './types.js';

const RENDERERS: Record<RenderOptions['format'], (report: DriftReport, options: RenderOptions) => string> = {
  text: renderText,
  json: renderJson,
  markdown: renderMarkdown,
  github: renderGithub,
};

/**
 * Renders a report in the `--format` the user chose: `text` for people, `json` for scripts
 * (exactly one object), `markdown` for a PR comment or job summary, `github` for workflow
 * annotations. `command` picks the wording: `check` reports drift, `pull` what it changed
 * (with `dryRun`, what it would change). The result has no trailing newline; the caller prints
 * it as one line or block.
 *
 * @example
 * process.stdout.write(renderReport(report, { format: 'text', color: true, command: 'check' }) + '\n');
 */
export function renderReport(report: DriftReport, options: RenderOptions): string {
  return RENDERERS[options.format](report, options);
}

/**
 * The report as exactly one JSON object of the SPEC's shape (published as `report.schema.json`):
 * `inSync`, `summary`, `changes`, `accepted`, `staleFiles`, `settings` in that order, two-space
 * indented, no trailing newline, invisible and line-breaking characters as `\uXXXX` (`jsonText`).
 * Rebuilt field by field so that nothing but the contract reaches
 * scripts, whatever else a caller's object carries. Absent values (`before`/`after` of a field
 * absent on one side) are omitted.
 */
function renderJson(report: DriftReport): string {
  const { added, removed, changed, renamed, breaking, dangerous, safe, accepted } = report.summary;
  const contract = {
    inSync: report.inSync,
    summary: { added, removed, changed, renamed, breaking, dangerous, safe, accepted },
    changes: report.changes.map((change) => withContractImpact(contractChange(change), change.impact)),
    accepted: report.accepted.map((change) => withContractImpact(contractAccepted(change), change.impact)),
    staleFiles: report.staleFiles.map(({ path, reason }) => ({ path, reason })),
    settings: report.settings.map(({ setting, recorded, given }) => ({ setting, recorded, given })),
    ...(report.impact !== undefined && { impact: contractImpactSummary(report.impact) }),
  };
  return jsonText(contract, 2);
}

/** One change with exactly the contract's properties, in the contract's order. */
function contractChange(change: ReportedChange): ReportedChange {
  const { kind, name, rule, severity } = change;
  switch (change.kind) {
    case 'added':
      return { kind: change.kind, name, rule, severity, after: { mNum: change.after.mNum }, ...(change.note !== undefined && { note: { module: change.note.module, caseClashWith: change.note.caseClashWith } }) };
    case 'removed':
      return { kind: change.kind, name, rule, severity, before: { mNum: change.before.mNum } };
    case 'renamed':
      return {
        kind: change.kind,
        name,
        rule,
        severity,
        before: { name: change.before.name, mNum: change.before.mNum },
        after: { name: change.after.name, mNum: change.after.mNum },
        fields: change.fields.map(contractField),
      };
    case 'changed':
      return { kind, name, rule, severity, fields: change.fields.map(contractField) } as ReportedChange;
  }
}

function contractField({ field, rule, before, after, severity }: FieldChange): FieldChange {
  return { field, rule, before, after, severity };
}

/** An accepted change without the index of its acceptance (the reason says why). */
function contractAccepted({ kind, name, rule, severity, field, before, after, reason }: AcceptedChange): Omit<AcceptedChange, 'acceptance'> {
  return { kind, name, rule, severity, field, before, after, reason };
}

/** A change's `impact` (`--impact`), with exactly the contract's properties, after the change's own. */
function withContractImpact<C extends object>(change: C, impact: MessageImpact | undefined): C {
  if (impact === undefined) return change;
  return {
    ...change,
    impact: {
      broken: impact.broken.map(contractBroken),
      referenced: impact.referenced.map(({ file, line, column, field }) => ({ file, line, column, ...(field !== undefined && { field }) })),
    },
  };
}

function contractBroken({ file, line, column, code, message, field }: BrokenUse): BrokenUse {
  return { file, line, column, code, message, ...(field !== undefined && { field }) };
}

function contractImpactSummary({ projects, broken, referenced, unattributed }: ImpactSummary): ImpactSummary {
  return { projects, broken, referenced, unattributed: unattributed.map(contractBroken) };
}
