import { reviewSchema } from '../config/settings.js';
import { buildReport, unusedAcceptanceWarnings, type ChangeFact, type DriftReport, type ReportedChange, type SettingDrift, type StaleFile } from '../diff/index.js';
import { ConfigError, keyPath } from '../model/errors.js';
import { redactDeep, type Redactor } from '../model/redact.js';
import type { ReviewOptions, RunHooks } from './options.js';
import type { RunContext } from './run-context.js';
import { joinMessages, msg, own } from '../model/message.js';
import { issueMessage } from '../model/issue-message.js';

/**
 * The report of a run's changes (those of the message types in scope), rated and accepted as
 * `policy` says; each acceptance that accepted nothing is warned about. With the run's redactor,
 * what the report quotes from outside is masked ({@link maskedReport}).
 */
export function reportFor(
  warn: RunContext['warn'],
  policy: ReviewOptions & Pick<RunHooks, 'redact'>,
  input: {
    changes: readonly ChangeFact[];
    staleFiles?: readonly StaleFile[];
    settingsDiffer?: readonly SettingDrift[];
  },
): DriftReport {
  const report = buildReport({ changes: input.changes, staleFiles: input.staleFiles, settings: input.settingsDiffer, policy: { rules: policy.rules, accept: policy.accept } });
  for (const warning of unusedAcceptanceWarnings(policy, report)) warn(warning);
  return policy.redact ? maskedReport(report, policy.redact) : report;
}

/**
 * The report with the run's secrets masked where it quotes outside text (names, fields, their
 * values, file paths, settings), never in its own words (kinds, severities, rule ids, the
 * summary): a key that is an ordinary word must not show itself by masking the program's text.
 */
function maskedReport(report: DriftReport, redact: Redactor): DriftReport {
  const value = <T>(item: T): T => redactDeep(item, redact) as T;
  const fields = (list: Extract<ReportedChange, { kind: 'changed' }>['fields']) => list.map((field) => ({ ...field, field: redact(field.field), before: value(field.before), after: value(field.after) }));
  const change = (item: ReportedChange): ReportedChange => {
    const name = redact(item.name);
    if (item.kind === 'renamed') {
      return { ...item, name, before: { ...item.before, name: redact(item.before.name) }, after: { ...item.after, name: redact(item.after.name) }, fields: fields(item.fields) };
    }
    if (item.kind === 'added' && item.note !== undefined) return { ...item, name, note: { module: redact(item.note.module), caseClashWith: redact(item.note.caseClashWith) } };
    return item.kind === 'changed' ? { ...item, name, fields: fields(item.fields) } : { ...item, name };
  };
  return {
    ...report,
    changes: report.changes.map(change),
    accepted: report.accepted.map((item) => ({
      ...item,
      name: redact(item.name),
      ...(item.field === undefined ? {} : { field: redact(item.field) }),
      ...('before' in item ? { before: value(item.before) } : {}),
      ...('after' in item ? { after: value(item.after) } : {}),
    })),
    staleFiles: report.staleFiles.map((file) => ({ ...file, path: redact(file.path) })),
    settings: report.settings.map((setting) => ({ ...setting, recorded: value(setting.recorded), given: value(setting.given) })),
  };
}


/**
 * Refuses a policy a library caller got wrong (the CLI's config refuses these first, through the
 * same schema): an unknown rule id in `rules` or `accept`, an acceptance without a message glob
 * or a reason.
 */
export function checkPolicy(policy: ReviewOptions): void {
  const result = reviewSchema.safeParse(policy, { reportInput: true });
  if (result.success) return;
  const problems = result.error.issues.map((issue) => msg`${own(keyPath(issue.path))}: ${issueMessage(issue)}`);
  throw new ConfigError(msg`invalid review options:\n  ${joinMessages(problems, '\n  ')}`, {
    hint: msg`Run \`schema-sync rules\` for the rule ids; every acceptance needs a rule, a message glob and a reason.`,
  });
}
