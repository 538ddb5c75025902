import { renderGithub } from './render-github.js';
import { renderMarkdown } from './render-markdown.js';
import { renderText } from './render-text.js';
import type { DriftChange, DriftReport, FieldChange, RenderOptions } from './types.js';

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
 * The report as exactly one JSON object of the SPEC's shape, `inSync`, `summary`, `changes`,
 * `staleFiles` in that order, two-space indented, no trailing newline. Rebuilt field by field so
 * that nothing but the contract reaches scripts, whatever else a caller's object carries.
 * Absent field values (`before`/`after` of an unknown field added or removed) are omitted.
 */
function renderJson(report: DriftReport): string {
  const { added, removed, changed, renamed, breaking, dangerous, safe } = report.summary;
  const contract = {
    inSync: report.inSync,
    summary: { added, removed, changed, renamed, breaking, dangerous, safe },
    changes: report.changes.map(contractChange),
    staleFiles: report.staleFiles.map(({ path, reason }) => ({ path, reason })),
  };
  return JSON.stringify(contract, null, 2);
}

/** One change with exactly the contract's properties, in the contract's order. */
function contractChange(change: DriftChange): DriftChange {
  switch (change.kind) {
    case 'added':
      return { kind: change.kind, name: change.name, severity: change.severity, after: { mNum: change.after.mNum } };
    case 'removed':
      return { kind: change.kind, name: change.name, severity: change.severity, before: { mNum: change.before.mNum } };
    case 'renamed':
      return {
        kind: change.kind,
        name: change.name,
        severity: change.severity,
        before: { name: change.before.name, mNum: change.before.mNum },
        after: { name: change.after.name, mNum: change.after.mNum },
        fields: change.fields.map(contractField),
      };
    case 'changed':
      return {
        kind: change.kind,
        name: change.name,
        severity: change.severity,
        fields: change.fields.map(contractField),
      };
  }
}

function contractField({ field, before, after, severity, rule }: FieldChange): FieldChange {
  return { field, before, after, severity, ...(rule === undefined ? {} : { rule }) };
}
