import type { DriftChange, DriftReport, FieldChange } from './types.js';

/**
 * The report as exactly one JSON object of the SPEC's shape, `inSync`, `summary`, `changes`,
 * `staleFiles` in that order, two-space indented, no trailing newline. Rebuilt field by field so
 * that nothing but the contract reaches scripts, whatever else a caller's object carries.
 * Absent field values (`before`/`after` of an unknown field added or removed) are omitted.
 */
export function renderJson(report: DriftReport): string {
  const { added, removed, changed, renamed, breaking, dangerous, safe } = report.summary;
  return JSON.stringify(
    {
      inSync: report.inSync,
      summary: { added, removed, changed, renamed, breaking, dangerous, safe },
      changes: report.changes.map(contractChange),
      staleFiles: report.staleFiles.map(({ path, reason }) => ({ path, reason })),
    },
    null,
    2,
  );
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
        fields: contractFields(change.fields),
      };
    case 'changed':
      return { kind: change.kind, name: change.name, severity: change.severity, fields: contractFields(change.fields) };
  }
}

function contractFields(fields: readonly FieldChange[]): FieldChange[] {
  return fields.map(({ field, before, after, severity }) => ({ field, before, after, severity }));
}
