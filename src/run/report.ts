import { buildReport, changesInScope, unknownRuleProblem, unusedAcceptanceWarnings, type DriftChange, type DriftReport, type SettingDrift, type StaleFile } from '../diff/index.js';
import { ConfigError } from '../model/errors.js';
import type { Descriptor } from '../model/descriptor.js';
import type { GenerationSettings } from '../model/lockfile.js';
import type { ReviewOptions } from './options.js';
import type { RunContext } from './run-context.js';

/**
 * The report of a run's changes: only those about message types in the scope of `settings`
 * (when the descriptors were compared at all), rated and accepted as `policy` says; each
 * acceptance that accepted nothing is warned about.
 */
export function reportFor(
  warn: RunContext['warn'],
  policy: ReviewOptions,
  input: {
    changes: readonly DriftChange[];
    compared: { locked: readonly Descriptor[]; fetched: readonly Descriptor[] } | undefined;
    settings: GenerationSettings;
    staleFiles?: readonly StaleFile[];
    settingsDiffer?: readonly SettingDrift[];
  },
): DriftReport {
  const scope = { include: input.settings.include, exclude: input.settings.exclude };
  const changes = input.compared === undefined ? input.changes : changesInScope(input.changes, input.compared, scope);
  const report = buildReport({ changes, staleFiles: input.staleFiles, settings: input.settingsDiffer, policy: { rules: policy.rules, accept: policy.accept } });
  for (const warning of unusedAcceptanceWarnings(policy, report)) warn(warning);
  return report;
}

const LEVELS: readonly string[] = ['breaking', 'dangerous', 'safe', 'off'];

/**
 * Refuses a policy a library caller got wrong (the CLI's config schema refuses these first): an
 * unknown rule id in `rules` or `accept`, an acceptance without a message glob or a reason.
 */
export function checkPolicy(policy: ReviewOptions): void {
  const problems = [
    ...Object.entries(policy.rules ?? {}).map(([id, level]) => [`rules.${id}`, unknownRuleProblem(id) ?? (LEVELS.includes(String(level)) ? undefined : 'expected breaking, dangerous, safe or off')]),
    ...(policy.accept ?? []).flatMap((acceptance, index) => [
      [`accept[${index}].rule`, unknownRuleProblem(String(acceptance.rule))],
      [`accept[${index}].message`, typeof acceptance.message === 'string' && acceptance.message !== '' ? undefined : 'a message-name glob is required'],
      [`accept[${index}].reason`, typeof acceptance.reason === 'string' && acceptance.reason.trim() !== '' ? undefined : 'a reason is required: say why the change is fine'],
    ]),
  ].filter(([, problem]) => problem !== undefined);
  if (problems.length === 0) return;
  throw new ConfigError(`invalid review options:\n  ${problems.map(([where, problem]) => `${where}: ${problem}`).join('\n  ')}`, {
    hint: 'Run `schema-sync rules` for the rule ids; every acceptance needs a rule, a message glob and a reason.',
  });
}
