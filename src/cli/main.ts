import { messageText, msg, own } from '../model/message.js';
import { createRedactor, type Redactor } from '../model/redact.js';
import type { FetchEvent } from '../fetch/index.js';
import { terminalText } from '../text/safe-text.js';
import { Interrupted } from '../write/index.js';
import { cacheDirRefusal } from '../incremental/cache-dir.js';
import type { SettingsContext } from './commands/context.js';
import { seconds } from './commands/report-output.js';
import { COMMANDS } from './commands/table.js';
import { EXIT, interruptedLine, SIGNAL_EXIT } from './exit-codes.js';
import { appendStepSummary, failureAnnotation, failureSummary } from './github-actions.js';
import type { CliIo } from './io.js';
import { createLogger, errorParts, maskedParts, renderError, sgr, useColor, type ErrorParts, type Logger, type SaidParts } from './logger.js';
import { ParsedArgs } from './parsed-args.js';
import { buildParser, helpText, parseFailure } from './parser.js';
import { startProgress, type Progress } from './progress.js';
import { readReportFlag, UsageError } from './report-flag.js';
import { configLine, resolveSettings, secretsOf, withConfigSearch, type ConfigUsed } from './resolve-settings.js';
import { plural } from '../util/plural.js';

/** The commands that print a report, for the message that `--format` does not apply. */
const REPORTING = COMMANDS.filter((command) => (command.reports?.length ?? 0) > 0).map((command) => command.name);

/**
 * Runs the CLI and returns its exit code. The only place that reads argv, prints, and decides
 * exit codes; everything else is the library API. Each command's behaviour is its entry in the
 * command table: this parses, finds the command, gives it what it runs with, and tells a failure.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed: Record<string, unknown> = {};
  let parseError: Error | undefined;
  let yargsText = '';
  // yargs reads a lone `-` as a positional; `--input -` means standard input.
  argv = argv.map((arg, i) => (arg === '-' && argv[i - 1] === '--input' ? '--input=-' : arg)).filter((arg, i, all) => !(arg === '--input' && all[i + 1] === '--input=-'));
  buildParser(argv, io.stdout.columns).parse(argv, {}, (err, args, output) => {
    parseError = err ?? undefined;
    parsed = args;
    yargsText = output;
  });
  const args = new ParsedArgs(parsed);
  const command = args.command;
  const spec = COMMANDS.find((candidate) => candidate.name === command);
  // How a failure is told: as a GitHub workflow command when github is the one report format
  // typed (even on a command line that is wrong otherwise) or, once the config is read, the report
  // format. The run's one redactor, built here alone and handed to the library: its secrets (flags
  // and environment) are known before anything else is read, so that even a usage error is redacted.
  const color = useColor(io, args.boolean('color'));
  const failure: Failure = { command, stepSummary: spec?.stepSummary ?? false, github: typedReportIsGithub(args), redact: createRedactor(secretsOf(args, io.env)), color };
  if (parseError) {
    const { message, hint } = parseFailure(parseError.message, yargsText, argv, command);
    return fail(io, failure, { code: 'USAGE', message, hint });
  }
  // The help (with its examples), or the version.
  if (yargsText) {
    io.stdout.write(`${args.boolean('help') ? helpText(yargsText, command, io.stdout.columns) : yargsText}\n`);
    return EXIT.ok;
  }
  if (spec === undefined) return fail(io, failure, { code: 'USAGE', message: msg`unknown command ${JSON.stringify(command)}`, hint: msg`run schema-sync --help` });
  let typedReport;
  try {
    typedReport = spec.flags.some((flag) => flag.flag === 'format') ? readReportFlag(spec, REPORTING, args.strings('format')) : undefined;
  } catch (error) {
    if (error instanceof UsageError) return fail(io, failure, { code: 'USAGE', message: error.said, hint: msg`${error.hint} Run schema-sync ${own(command)} --help.` });
    throw error;
  }
  const verbose = Boolean(args.boolean('verbose'));
  const quiet = Boolean(args.boolean('quiet'));
  // The report goes to stdout: coloured when stdout is a terminal (or colour is forced).
  const reportColor = useColor(io, args.boolean('color'), io.stdout);
  const progress = startProgress(io, { label: `schema-sync ${command}`, enabled: !quiet && spec.progress });
  io = progress.io;
  const log = createLogger(io, { quiet, verbose, color });
  let config: ConfigUsed | undefined;
  try {
    if (!spec.settings) return await spec.run({ args, io, log });
    const resolved = await resolveSettings(spec.flags, args, typedReport, io);
    const { settings } = resolved;
    config = resolved.config;
    log.verbose(configLine(config));
    const cacheRefused = resolved.cacheDir === false ? undefined : cacheDirRefusal(resolved.cacheDir);
    if (cacheRefused !== undefined) log.verbose(`cache: not used (neither the code cache nor the run records): ${cacheRefused}`);
    failure.github = settings.report === 'github';
    for (const warning of resolved.warnings) log.warn(messageText(warning, failure.redact));
    const context: SettingsContext = {
      args,
      io,
      log,
      settings,
      configPath: config.path,
      library: { ...settings, cwd: resolved.cwd, cacheDir: cacheRefused === undefined ? resolved.cacheDir : false, redact: failure.redact, timers: io.timers, ...libraryHooks(log, progress) },
      typedReport,
      reportColor,
      stepSummary: (markdown) => (spec.stepSummary ? appendStepSummary(io, markdown, (text) => log.warn(messageText(text, failure.redact))) : Promise.resolve()),
    };
    return await spec.run(context);
  } catch (error) {
    // A run stopped by a signal, having rolled back or finished its commit (see bin.ts).
    if (error instanceof Interrupted && (error.signal === 'SIGINT' || error.signal === 'SIGTERM')) {
      io.stderr.write(interruptedLine(error.signal, error.completed ? 'completed' : 'untouched'));
      return SIGNAL_EXIT[error.signal];
    }
    return await fail(io, failure, errorParts(withConfigSearch(error, config), verbose));
  } finally {
    progress.stop();
  }
}

/**
 * The library's callbacks: warnings and `--verbose` lines to the log, the stage to the progress
 * line; while getschema answers come in (fields on), it counts them: "fields 12/259".
 */
export function libraryHooks(log: Logger, progress: Pick<Progress, 'stage'>) {
  let fields: string | undefined;
  return {
    onWarning: (text: string) => log.warn(text),
    onFetchEvent: (event: FetchEvent) => {
      if (event.type === 'schemas') fields = `fields ${event.done}/${event.total}`;
      const doing = fields ?? 'fetching';
      progress.stage(event.type === 'retry' ? `${fields === undefined ? '' : `${fields}, `}retrying in ${seconds(event.delayMs)}` : doing);
      const line = describeEvent(event);
      if (line !== undefined) log.verbose(line);
    },
    onStage: (stage: string, ms: number) => {
      fields = undefined;
      progress.stage(NEXT_STAGE[stage] ?? stage);
      log.verbose(`${stage}: ${ms} ms`);
    },
  };
}

/** How {@link fail} tells a failure: which command, whether as GitHub wants it, and the run's redactor. */
interface Failure {
  command: string;
  /** Whether the command's failure goes to the GitHub step summary. */
  stepSummary: boolean;
  github: boolean;
  redact: Redactor;
  /** Whether stderr takes colour: the `error [CODE]` of the plain line is red. */
  color: boolean;
}

/**
 * Ends a run with exit 2. The error goes to stderr: `error [CODE]: …` and its hint, or under
 * `--format github` instead one `::error` workflow command carrying both (the runner shows it
 * as an annotation, and the plain line would only repeat it in the log). Under GitHub Actions,
 * `pull` and `check` also append it to the step summary. Secrets are masked in what the message
 * and hint quote from outside (the command line, the config, the server); the words around them
 * are the program's own and are not.
 */
async function fail(io: CliIo, failure: Failure, said: SaidParts): Promise<number> {
  const { command, redact } = failure;
  const parts = maskedParts(said, redact);
  const safe: ErrorParts = { code: parts.code, message: terminalText(parts.message), ...(parts.hint === undefined ? {} : { hint: terminalText(parts.hint) }) };
  io.stderr.write(`${failure.github ? failureAnnotation(command, safe) : renderError(safe, failure.color)}\n`);
  if (failure.stepSummary) {
    await appendStepSummary(io, failureSummary(command, safe), (text) => io.stderr.write(`${sgr(failure.color, '33', 'warning')}: ${terminalText(messageText(text, redact))}\n`));
  }
  return EXIT.error;
}

/** Whether `--format github` is the one report format typed. */
function typedReportIsGithub(args: ParsedArgs): boolean {
  const reports = new Set(args.strings('format'));
  return reports.size === 1 && reports.has('github');
}

/** What the progress line says once a stage (reported by the library's `onStage`) is done. */
const NEXT_STAGE: Record<string, string> = { fetch: 'comparing', diff: 'generating', verify: 'fetching', emit: 'writing', write: 'finishing' };

/** The `--verbose` line of a fetch event; a count of getschema answers has one only at its start. */
function describeEvent(event: FetchEvent): string | undefined {
  if (event.type === 'request') return `GET ${event.url} (try ${event.attempt})`;
  if (event.type === 'response') return `HTTP ${event.status}, ${event.bytes} bytes in ${event.ms} ms`;
  if (event.type === 'schemas') return event.done === 0 ? `getschema: the fields of ${plural(event.total, 'type')} to fetch` : undefined;
  return `retrying in ${event.delayMs} ms after ${event.reason}`;
}
