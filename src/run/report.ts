import { issueMessage, reviewSchema } from '../config/settings.js';
import { buildReport, unusedAcceptanceWarnings, type ChangeFact, type DriftReport, type SettingDrift, type StaleFile } from '../diff/index.js';
import { ConfigError, keyPath } from '../model/errors.js';
import type { ReviewOptions } from './options.js';
import type { RunContext } from './run-context.js';

/**
 * The report of a run's changes (those of the message types in scope), rated and accepted as
 * `policy` says; each acceptance that accepted nothing is warned about.
 */
export function reportFor(
  warn: RunContext['warn'],
  policy: ReviewOptions,
  input: {
    changes: readonly ChangeFact[];
    staleFiles?: readonly StaleFile[];
    settingsDiffer?: readonly SettingDrift[];
  },
): DriftReport {
  const report = buildReport({ changes: input.changes, staleFiles: input.staleFiles, settings: input.settingsDiffer, policy: { rules: policy.rules, accept: policy.accept } });
  for (const warning of unusedAcceptanceWarnings(policy, report)) warn(warning);
  return report;
}

/**
 * Refuses a policy a library caller got wrong (the CLI's config refuses these first, through the
 * same schema): an unknown rule id in `rules` or `accept`, an acceptance without a message glob
 * or a reason.
 */
export function checkPolicy(policy: ReviewOptions): void {
  const result = reviewSchema.safeParse(policy);
  if (result.success) return;
  const problems = result.error.issues.map((issue) => `${keyPath(issue.path)}: ${issueMessage(issue)}`);
  throw new ConfigError(`invalid review options:\n  ${problems.join('\n  ')}`, {
    hint: 'Run `schema-sync rules` for the rule ids; every acceptance needs a rule, a message glob and a reason.',
  });
}
