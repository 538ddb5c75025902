import { renderReport, type DriftReport } from '../../diff/index.js';
import { pull, type PullResult } from '../../run/pull.js';
import { plural } from '../../util/plural.js';
import { EXIT } from '../exit-codes.js';
import type { SettingsContext } from './context.js';
import { assertNotPlaceholder } from './init.js';
import { withDecidedFormat } from './pull-format.js';
import { emitReport, reportLocations, seconds } from './report-output.js';

/**
 * `schema-sync pull`: the report of what changed (stdout and the step summary), then a one-line
 * summary. Exit 0. The text report is left out where the summary line says it all: a first pull
 * (every type added) and a pull that rewrote files without a schema change.
 */
export async function pullCommand({ io, log, settings, configPath, library, reportColor, stepSummary }: SettingsContext): Promise<number> {
  if (settings.input === undefined) assertNotPlaceholder(settings.baseUrl);
  const started = Date.now();
  const result = await pull(configPath === undefined ? await withDecidedFormat(library, log, io.cwd) : library);
  const locations = settings.report === 'github' ? reportLocations(io, result) : undefined;
  const voice = { command: 'pull', dryRun: Boolean(settings.dryRun), filesWritten: filesChanged(result) } as const;
  if (settings.report !== 'text' || !summaryTellsAll(result)) {
    emitReport(log, settings.report, renderReport(result.report, { format: settings.report, color: reportColor, locations, ...voice }));
  }
  await stepSummary(renderReport(result.report, { format: 'markdown', ...voice }));
  log.info(pullSummary(result, Date.now() - started));
  return EXIT.ok;
}

/** Whether the report says more than its one summary line: accepted changes or an impact section. */
function reportHasSections(report: DriftReport): boolean {
  return report.accepted.length > 0 || report.impact !== undefined;
}

/**
 * Whether the text report would only repeat the summary line, or mislead: a first pull lists
 * every type as added ("locked 264 types" says it), and an in-sync pull that wrote files would
 * say "Up to date: nothing changed" above "266 files written".
 */
function summaryTellsAll(result: PullResult): boolean {
  if (reportHasSections(result.report)) return false;
  return result.firstLock || (result.report.inSync && filesChanged(result) > 0);
}

/** Files written and deleted. */
function filesChanged(result: PullResult): number {
  return result.write === undefined ? 0 : result.write.written.length + result.write.deleted.length;
}

/**
 * The one-line end of a pull: "264 types · 3 changed, 1 added · 5 files written in 0.4 s", with
 * "· @acme/schema 1.2.0 → 1.3.0" when it bumped the package's version. A first pull says
 * "Locked 264 types (no lockfile before)"; a pull that changed output but no schema says why:
 * "264 types · no schema changes · 266 files written (settings changed)".
 */
function pullSummary(result: PullResult, ms: number): string {
  const { summary } = result.report;
  const parts = (['changed', 'added', 'removed', 'renamed'] as const).filter((kind) => summary[kind]).map((kind) => `${summary[kind]} ${kind}`);
  const outputOnly = parts.length === 0 && filesChanged(result) > 0;
  const pkg = result.package;
  const version = pkg?.previousVersion === undefined ? '' : ` · ${pkg.name} ${pkg.previousVersion} → ${pkg.version}`;
  const types = plural(result.messageCount, 'type');
  const what = result.firstLock
    ? `${result.write ? 'Locked' : 'Would lock'} ${types} (no lockfile before)`
    : `${types} · ${parts.length > 0 ? parts.join(', ') : outputOnly ? 'no schema changes' : 'no changes'}${version}`;
  if (!result.write) return `${what} · dry run, nothing written (${seconds(ms)})`;
  const { written, deleted, lockfileWritten } = result.write;
  // Without a schema change, files change because the settings the lockfile records did, or because the folder was not what the lockfile makes.
  const why = outputOnly && !result.firstLock ? (lockfileWritten ? ' (settings changed)' : ' (the output folder was out of date)') : '';
  return `${what} · ${plural(written.length, 'file')} written${deleted.length ? `, ${deleted.length} deleted` : ''}${why} in ${seconds(ms)}`;
}
