/**
 * What the CLI does for GitHub Actions beyond the `github` report: the job's step summary, and
 * a run that ends with exit 2 under `--format github` as one `::error` workflow command.
 */
import { appendFile } from 'node:fs/promises';
import { codeBlock, escapeData, fitToBudget, leftOutList, REPORT_LIMITS, workflowCommand, type LeftOut } from '../diff/index.js';
import type { CliIo } from './io.js';
import { msg, type Message } from '../model/message.js';
import { errorText, type ErrorParts } from './logger.js';

/**
 * Appends `markdown` to the job's step summary when the run is under GitHub Actions
 * (`GITHUB_ACTIONS=true` and `GITHUB_STEP_SUMMARY` names the file the runner shows on the run's
 * page); which commands' reports go there is the command table's `stepSummary`. A summary that
 * cannot be written is only a warning: the run's own result stands.
 */
export async function appendStepSummary(io: CliIo, markdown: string, warn: (text: Message) => void): Promise<void> {
  const file = io.env['GITHUB_STEP_SUMMARY'];
  if (io.env['GITHUB_ACTIONS'] !== 'true' || !file) return;
  try {
    await appendFile(file, `${markdown.replace(/\n*$/, '')}\n\n`);
  } catch (error) {
    warn(msg`could not append the report to the step summary ${file}: ${(error as Error).message}`);
  }
}

/**
 * A failed run (exit 2) as one `::error` workflow command: the title names the command and the
 * error code, the message what happened, where, and the hint, escaped as the runner needs it
 * (newlines as `%0A`), so that GitHub shows it as one annotation. At most what the runner shows of
 * a message (an error that lists every invalid element can be longer): its first line, then the
 * lines that fit, then how many more the log has. No trailing newline.
 */
export function failureAnnotation(command: string, parts: ErrorParts): string {
  const title = `schema-sync${command === '' ? '' : ` ${command}`} failed (${parts.code})`;
  const [first, ...rest] = errorText(parts).split('\n');
  const message = fitToBudget([{ head: first }, { items: rest, noun: 'line' }], { limit: REPORT_LIMITS.annotation, separator: '\n', leftOut: inTheLog, size: (text) => escapeData(text).length });
  return workflowCommand('error', { title }, message);
}

/**
 * The step summary of a run that failed (exit 2): a heading, what it means, and the error verbatim,
 * within what a step summary takes (the lines that do not fit counted after the block).
 */
export function failureSummary(command: string, parts: ErrorParts): string {
  const [open, ...lines] = codeBlock(errorText(parts)).split('\n');
  const close = lines.pop();
  return fitToBudget(
    [
      { head: `### schema-sync ${command} failed` },
      { head: `Exit code 2 (${parts.code}): \`${command}\` did not finish; the lockfile and the output folder are as they were.` },
      { head: open, items: lines, tail: close, noun: 'line' },
    ],
    { limit: REPORT_LIMITS.markdown, separator: '\n\n', leftOut: inTheLog },
  );
}

/** What a cut error leaves out: the job's log has it whole (stderr). */
function inTheLog(left: readonly LeftOut[]): string {
  return `… and ${leftOutList(left)} (the job's log has the whole error)`;
}
