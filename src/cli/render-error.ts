import { isSchemaSyncError } from '../model/errors.js';
import type { Redactor } from '../model/redact.js';

/**
 * The one place errors become text: `error: what … (where)` then `hint: what to do`, redacted.
 * Unexpected errors (bugs) keep their stack only with `--verbose`.
 */
export function renderError(error: unknown, options: { redact: Redactor; verbose: boolean }): string {
  if (isSchemaSyncError(error)) {
    const lines = [`error [${error.code}]: ${error.message}`];
    if (error.hint) lines.push(`hint: ${error.hint}`);
    return options.redact(lines.join('\n'));
  }
  const err = error instanceof Error ? error : new Error(String(error));
  const text = options.verbose && err.stack ? err.stack : `${err.name}: ${err.message}`;
  return options.redact(`error [INTERNAL]: ${text}\nhint: this is a bug in schema-sync; run with --verbose and report it.`);
}
