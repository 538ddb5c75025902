/**
 * Drift impact in a report: each change (and accepted change) gets what it does to the projects
 * checked (`--impact`), found by name (a rename by both its names), and the report a summary with
 * the new errors no change explains. Pure.
 */
import type { ImpactResult, MessageImpact } from '../model/impact.js';
import type { DriftReport } from './types.js';

/** The impact of the message types a change is about (a rename: the old name's and the new one's together). */
function impactOf(result: ImpactResult, names: readonly string[]): MessageImpact {
  const parts = names.flatMap((name) => (Object.hasOwn(result.messages, name) ? [result.messages[name]!] : []));
  return { broken: parts.flatMap((part) => part.broken), referenced: parts.flatMap((part) => part.referenced) };
}

/** `report` with each change's impact and the impact summary. */
export function withImpact(report: DriftReport, result: ImpactResult): DriftReport {
  const changes = report.changes.map((change) => ({ ...change, impact: impactOf(result, change.kind === 'renamed' ? [change.before.name, change.name] : [change.name]) }));
  const accepted = report.accepted.map((change) => ({ ...change, impact: impactOf(result, [change.name]) }));
  const count = (key: 'broken' | 'referenced') => changes.reduce((sum, change) => sum + change.impact[key].length, 0);
  return { ...report, changes, accepted, impact: { projects: result.projects, broken: count('broken'), referenced: count('referenced'), unattributed: result.unattributed } };
}

/**
 * True when `--fail-on broken` must fail: a change breaks the compile of a project checked (of
 * any severity, accepted or not: an acceptance says the change is fine for the service, not for
 * this code), a new error no change explains, or, as for `breaking`, a stale file or a setting
 * that differs (the repository's own output does not match its lockfile).
 */
export function hasBroken(report: DriftReport): boolean {
  const broken = [...report.changes, ...report.accepted].some((change) => (change.impact?.broken.length ?? 0) > 0);
  return broken || (report.impact?.unattributed.length ?? 0) > 0 || report.staleFiles.length > 0 || report.settings.length > 0;
}
