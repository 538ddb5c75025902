import { renderReport } from '../../diff/index.js';
import { pull, type PullResult } from '../../run/pull.js';
import { EXIT } from '../exit-codes.js';
import type { SettingsContext } from './context.js';
import { assertNotPlaceholder } from './init.js';
import { emitReport, reportLocations, seconds } from './report-output.js';

/** `schema-sync pull`: the report of what changed (stdout and the step summary), then a one-line summary. Exit 0. */
export async function pullCommand({ io, log, settings, library, reportColor, stepSummary }: SettingsContext): Promise<number> {
  if (settings.input === undefined) assertNotPlaceholder(settings.baseUrl);
  const started = Date.now();
  const result = await pull(library);
  const locations = settings.report === 'github' ? reportLocations(io, result) : undefined;
  const voice = { command: 'pull', dryRun: Boolean(settings.dryRun) } as const;
  emitReport(log, settings.report, renderReport(result.report, { format: settings.report, color: reportColor, locations, ...voice }));
  await stepSummary(renderReport(result.report, { format: 'markdown', ...voice }));
  log.info(pullSummary(result, Date.now() - started));
  return EXIT.ok;
}

/**
 * The one-line end of a pull: "264 types · 3 changed, 1 added · 5 files written in 0.4 s", with
 * "· @acme/schema 1.2.0 → 1.3.0" when it bumped the package's version.
 */
function pullSummary(result: PullResult, ms: number): string {
  const { summary } = result.report;
  const parts = (['changed', 'added', 'removed', 'renamed'] as const).filter((kind) => summary[kind]).map((kind) => `${summary[kind]} ${kind}`);
  const changes = parts.length > 0 ? parts.join(', ') : 'no changes';
  const pkg = result.package;
  const version = pkg?.previousVersion === undefined ? '' : ` · ${pkg.name} ${pkg.previousVersion} → ${pkg.version}`;
  if (!result.write) return `${result.messageCount} types · ${changes}${version} · dry run, nothing written (${seconds(ms)})`;
  const files = result.write.written.length;
  const deleted = result.write.deleted.length ? `, ${result.write.deleted.length} deleted` : '';
  return `${result.messageCount} types · ${changes}${version} · ${files} ${files === 1 ? 'file' : 'files'} written${deleted} in ${seconds(ms)}`;
}
