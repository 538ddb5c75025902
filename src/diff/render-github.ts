import { displayName } from './format-value.js';
import type { DriftReport, Severity } from './types.js';
import { fieldLines, SEVERITY_NAMES, STALE_HINT, STALE_REASONS, subject, summaryLine, type Voice } from './wording.js';

/** The workflow command per severity: breaking fails loudest. */
const COMMANDS: Record<Severity, string> = { breaking: 'error', dangerous: 'warning', safe: 'notice' };

/**
 * GitHub Actions workflow commands: one annotation per change (`::error` breaking, `::warning`
 * dangerous, `::notice` safe; the fields on further lines of the message) and one `::error`
 * per stale file (with `file=` so it shows on that file), then the summary line as plain log
 * text. Messages and properties are escaped as the runner expects, so a value can neither end
 * the command early nor start a command of its own. No trailing newline.
 */
export function renderGithub(report: DriftReport, options: Voice): string {
  const lines: string[] = [];
  for (const change of report.changes) {
    const message = [`${change.kind} ${subject(change)}`, ...fieldLines(change)].join('\n');
    const title = `${SEVERITY_NAMES[change.severity]} schema change`;
    lines.push(workflowCommand(COMMANDS[change.severity], { title }, message));
  }
  for (const file of report.staleFiles) {
    const message = `${displayName(file.path)} is ${STALE_REASONS[file.reason]}\n${STALE_HINT}`;
    // A path that needs quoting to print safely is not given to the runner raw, even escaped.
    const properties: Record<string, string> = { title: 'Stale generated file' };
    if (displayName(file.path) === file.path) properties['file'] = file.path;
    lines.push(workflowCommand('error', properties, message));
  }
  lines.push(summaryLine(report, options));
  return lines.join('\n');
}

/**
 * One workflow command line, `::name key=value,…::message`, escaped per the runner's rules
 * (actions/toolkit `command.ts`): `%`, CR and LF in the message; those and `:` and `,` in
 * property values, which would otherwise end the value.
 */
export function workflowCommand(name: string, properties: Readonly<Record<string, string>>, message: string): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(',');
  return `::${name}${props === '' ? '' : ` ${props}`}::${escapeData(message)}`;
}

/** Escapes a workflow command's message. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
