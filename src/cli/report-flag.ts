import { REPORT_FORMATS, type ReportFormat } from '../diff/index.js';
import { messageText, msg, own, type Message } from '../model/message.js';

/** A mistake in the command line itself: the CLI prints it as `error [USAGE]` and exits 2. */
export class UsageError extends Error {
  constructor(
    /** What is wrong; what the user typed is a value of it, masked when told. */
    readonly said: Message,
    /** What to type instead. */
    readonly hint: Message,
  ) {
    super(messageText(said));
    this.name = 'UsageError';
  }
}

/** The switch that replaced each value `--format` took before `--prettier` existed. */
const CODE_FORMATS: Readonly<Record<string, string>> = { prettier: '--prettier', none: '--no-prettier' };

/** What a command's `--format` takes: its name, and the report formats it prints (none: it prints no report). */
export interface ReportingCommand {
  name: string;
  reports?: readonly ReportFormat[];
}

/**
 * Reads `--format`, the report format: one per run, only for commands that print a report
 * (`reporting` names them, for the message), one of those the command prints. `--format
 * prettier|none`, which once formatted the generated code, names the switch that does.
 *
 * @throws UsageError for a value that is no report format, two report formats, or a report format the command does not print.
 */
export function readReportFlag(command: ReportingCommand, reporting: readonly string[], typed: readonly string[]): ReportFormat | undefined {
  const values = [...new Set(typed)];
  const code = values.find((value) => value in CODE_FORMATS);
  if (code !== undefined) {
    throw new UsageError(own(`--format ${code} no longer formats the generated code: --format is the report format.`), own(`Use ${CODE_FORMATS[code]} instead.`));
  }
  const unknown = values.find((value) => !(REPORT_FORMATS as readonly string[]).includes(value));
  if (unknown !== undefined) {
    throw new UsageError(msg`--format ${JSON.stringify(unknown)} is not a report format.`, own(`Use one of ${REPORT_FORMATS.join(', ')}; --prettier formats the generated code.`));
  }
  const reports = values.filter((value): value is ReportFormat => (REPORT_FORMATS as readonly string[]).includes(value));
  const prints = command.reports ?? [];
  if (reports.length > 0 && prints.length === 0) {
    throw new UsageError(own(`${command.name} prints no report; --format ${reports[0]} does not apply to it.`), own(`Drop --format: it chooses the report of ${reporting.join(', ')} (--prettier formats the generated code).`));
  }
  const refused = reports.find((report) => !prints.includes(report));
  if (refused !== undefined) {
    throw new UsageError(own(`${command.name} prints a list as ${prints.join(' or ')}, not ${refused}.`), own(`Use ${prints.map((format) => `--format ${format}`).join(' or ')}.`));
  }
  if (reports.length > 1) {
    throw new UsageError(own(`${command.name} prints one report, but --format names ${reports.length}: ${reports.join(', ')}.`), own(`Keep one --format; run ${command.name} again for another format.`));
  }
  return reports[0];
}
