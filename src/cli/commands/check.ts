import { isFailing, renderReport, type DriftReport } from '../../diff/index.js';
import { check } from '../../run/check.js';
import { diffLockfiles } from '../../run/diff.js';
import { ConfigError } from '../../model/errors.js';
import { EXIT } from '../exit-codes.js';
import type { SettingsContext } from './context.js';
import { diffOptions } from './diff.js';
import { assertNotPlaceholder } from './init.js';
import { emitReport, reportLocations } from './report-output.js';
import { msg } from '../../model/message.js';

/** `--fail-on broken` judges what breaks the projects `--impact` names: without one it could never fail. */
function assertImpactForBroken(settings: SettingsContext['settings']): void {
  if (settings.failOn === 'broken' && (settings.impact ?? []).length === 0) {
    throw new ConfigError(msg`--fail-on broken needs a TypeScript project to check: none was named.`, {
      hint: msg`Pass --impact tsconfig.json (repeatable), or set "impact": ["tsconfig.json"] in the config file.`,
    });
  }
}

/** `schema-sync check`: the drift report; exit 1 on drift (as `--fail-on` says), else 0. */
export async function checkCommand(context: SettingsContext): Promise<number> {
  assertImpactForBroken(context.settings);
  if (context.settings.input === undefined) assertNotPlaceholder(context.settings.baseUrl);
  return reportDrift(context, 'check', await check(context.library));
}

/** `schema-sync diff`: the report of two lockfiles' changes; exit 1 on changes (as `--fail-on` says), else 0. */
export async function diffCommand(context: SettingsContext): Promise<number> {
  assertImpactForBroken(context.settings);
  return reportDrift(context, 'diff', await diffLockfiles(diffOptions(context.args, context.library, context.io)));
}

/** Prints a drift report (stdout and the step summary) and gives the exit code it calls for. */
async function reportDrift(
  { io, log, settings, reportColor, stepSummary }: SettingsContext,
  command: 'check' | 'diff',
  result: { report: DriftReport; outDir: string; lockfilePath?: string | undefined; lockfileText: string | undefined },
): Promise<number> {
  const { lockfilePath } = result;
  const locations = settings.report === 'github' && lockfilePath !== undefined ? reportLocations(io, { ...result, lockfilePath }) : undefined;
  emitReport(log, settings.report, renderReport(result.report, { format: settings.report, color: reportColor, command, locations }));
  await stepSummary(renderReport(result.report, { format: 'markdown', command }));
  return isFailing(result.report, settings.failOn) ? EXIT.drift : EXIT.ok;
}
