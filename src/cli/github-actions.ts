/**
 * What the CLI does for GitHub Actions beyond the `github` report: the job's step summary, and
 * a run that ends with exit 2 under `--format github` as one `::error` workflow command.
 */
import { appendFile } from 'node:fs/promises';
import { codeBlock, workflowCommand } from '../diff/index.js';
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
 * (newlines as `%0A`), so that GitHub shows it as one annotation. No trailing newline.
 */
export function failureAnnotation(command: string, parts: ErrorParts): string {
  const title = `schema-sync${command === '' ? '' : ` ${command}`} failed (${parts.code})`;
  return workflowCommand('error', { title }, errorText(parts));
}

/** The step summary of a run that failed (exit 2): a heading, what it means, and the error verbatim. */
export function failureSummary(command: string, parts: ErrorParts): string {
  return [
    `### schema-sync ${command} failed`,
    `Exit code 2 (${parts.code}): \`${command}\` did not finish; the lockfile and the output folder are as they were.`,
    codeBlock(errorText(parts)),
  ].join('\n\n');
}
