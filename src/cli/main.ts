import { relative, sep } from 'node:path';
import { isFailing, renderReport, type ReportLocations } from '../diff/index.js';
import { entryLine } from '../lock/index.js';
import type { FetchEvent } from '../fetch/index.js';
import { createRedactor, type Redactor } from '../model/redact.js';
import { terminalText } from '../text/safe-text.js';
import { check } from '../run/check.js';
import { diffLockfiles } from '../run/diff.js';
import { generate } from '../run/generate.js';
import { pull, type PullResult } from '../run/pull.js';
import { diffOptions, type DiffArgs } from './commands/diff.js';
import { assertNotPlaceholder, initCommand, type InitArgs } from './commands/init.js';
import { rulesCommand } from './commands/rules.js';
import type { ServeArgs } from './commands/serve.js';
import { EXIT, interruptedLine, SIGNAL_EXIT } from './exit-codes.js';
import { appendStepSummary, failureAnnotation, failureSummary } from './github-actions.js';
import type { CliIo } from './io.js';
import { createLogger, errorParts, renderError, useColor, type ErrorParts, type Logger } from './logger.js';
import { startProgress } from './progress.js';
import { buildParser, parseFailure } from './parser.js';
import { secretsFromArgsAndEnv, readFormatFlags, resolveOptions, UsageError, type CliArgs, type FormatFlags } from './resolve-options.js';
import { Interrupted } from '../write/index.js';

/**
 * Runs the CLI and returns its exit code. The only place that reads argv, prints, and decides
 * exit codes; everything else is the library API.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed: Record<string, unknown> | undefined;
  let parseError: Error | undefined;
  let helpText = '';
  // yargs reads a lone `-` as a positional; `--input -` means standard input.
  argv = argv.map((arg, i) => (arg === '-' && argv[i - 1] === '--input' ? '--input=-' : arg)).filter((arg, i, all) => !(arg === '--input' && all[i + 1] === '--input=-'));
  buildParser(argv).parse(argv, {}, (err, args, output) => {
    parseError = err ?? undefined;
    parsed = args as Record<string, unknown>;
    helpText = output;
  });
  const args = parsed ?? {};
  const command = String((args['_'] as unknown[] | undefined)?.[0] ?? '');
  // How a failure is told: as a GitHub workflow command when github is the one report format
  // typed (even on a command line that is wrong otherwise) or, once the config is read, the report format.
  const failure: Failure = { command, github: typedReportIsGithub(args), redact: createRedactor(secretsFromArgsAndEnv(args as Partial<CliArgs>, io.env)) };
  if (parseError) {
    const { message, hint } = parseFailure(parseError.message, helpText, argv, command);
    return fail(io, failure, { code: 'USAGE', message, hint });
  }
  if (helpText) {
    io.stdout.write(`${helpText}\n`);
    return EXIT.ok;
  }
  let formatFlags: FormatFlags;
  try {
    formatFlags = readFormatFlags(command, args as CliArgs);
  } catch (error) {
    if (error instanceof UsageError) return fail(io, failure, { code: 'USAGE', message: error.message, hint: `${error.hint} Run schema-sync ${command} --help.` });
    throw error;
  }
  const color = useColor(io, args['color'] as boolean | undefined);
  const verbose = Boolean(args['verbose']);
  // The report goes to stdout: colour it only when stdout is a terminal too (or --color forces it).
  const reportColor = color && (args['color'] === true || Boolean(io.stdout.isTTY));
  const progress = startProgress(io, { label: `schema-sync ${command}`, enabled: !args['quiet'] && ['pull', 'check', 'generate'].includes(command) });
  io = progress.io;
  let log = createLogger(io, { quiet: Boolean(args['quiet']), verbose, color, redact: failure.redact });
  try {
    if (command === 'serve') {
      // Loaded only for `serve`: the reference server is not part of a pull's start-up.
      const { serveCommand } = await import('./commands/serve.js');
      return await serveCommand(args as unknown as ServeArgs, io, log);
    }
    if (command === 'init') return await initCommand(args as unknown as InitArgs, io, log);
    const resolved = await resolveOptions(args as CliArgs, io, formatFlags);
    failure.github = resolved.report === 'github';
    failure.redact = createRedactor(resolved.secrets);
    if ((command === 'pull' || command === 'check') && resolved.library.input === undefined) assertNotPlaceholder(resolved.library.baseUrl);
    log = createLogger(io, { quiet: Boolean(args['quiet']), verbose, color, redact: failure.redact });
    for (const warning of resolved.warnings) log.warn(warning);
    const library = {
      ...resolved.library,
      onWarning: (text: string) => log.warn(text),
      onFetchEvent: (event: FetchEvent) => {
        progress.stage(event.type === 'retry' ? `retrying in ${seconds(event.delayMs)}` : 'fetching');
        log.verbose(describeEvent(event));
      },
      onStage: (stage: string, ms: number) => {
        progress.stage(NEXT_STAGE[stage] ?? stage);
        log.verbose(`${stage}: ${ms} ms`);
      },
    };
    if (command === 'rules') return rulesCommand(formatFlags.report, resolved.library.rules, log);
    const started = Date.now();
    if (command === 'pull') {
      const result = await pull(library);
      const locations = resolved.report === 'github' ? reportLocations(io, result) : undefined;
      const voice = { command: 'pull', dryRun: Boolean(library.dryRun) } as const;
      emitReport(log, resolved.report, renderReport(result.report, { format: resolved.report, color: reportColor, locations, ...voice }));
      await appendStepSummary(io, command, renderReport(result.report, { format: 'markdown', ...voice }), log.warn);
      log.info(pullSummary(result, Date.now() - started));
      return EXIT.ok;
    }
    if (command === 'check' || command === 'diff') {
      const result = command === 'check' ? await check(library) : await diffLockfiles(diffOptions(args as DiffArgs, library, io));
      const { lockfilePath } = result;
      const locations = resolved.report === 'github' && lockfilePath !== undefined ? reportLocations(io, { ...result, lockfilePath }) : undefined;
      emitReport(log, resolved.report, renderReport(result.report, { format: resolved.report, color: reportColor, command, locations }));
      await appendStepSummary(io, command, renderReport(result.report, { format: 'markdown', command }), log.warn);
      return isFailing(result.report, resolved.failOn) ? EXIT.drift : EXIT.ok;
    }
    if (command === 'generate') {
      const result = await generate(library);
      const { written, deleted } = result.write;
      log.info(`${result.messageCount} types · ${written.length} files written, ${deleted.length} deleted in ${seconds(Date.now() - started)}`);
      return EXIT.ok;
    }
    return await fail(io, failure, { code: 'USAGE', message: `unknown command ${JSON.stringify(command)}`, hint: 'run schema-sync --help' });
  } catch (error) {
    // A run stopped by a signal, having rolled back or finished its commit (see bin.ts).
    if (error instanceof Interrupted && (error.signal === 'SIGINT' || error.signal === 'SIGTERM')) {
      io.stderr.write(interruptedLine(error.signal));
      return SIGNAL_EXIT[error.signal];
    }
    return await fail(io, failure, errorParts(error, verbose));
  } finally {
    progress.stop();
  }
}

/** How {@link fail} tells a failure: which command, whether as GitHub wants it, and the secrets to mask. */
interface Failure {
  command: string;
  github: boolean;
  redact: Redactor;
}

/**
 * Ends a run with exit 2. The error goes to stderr: `error [CODE]: …` and its hint, or under
 * `--format github` instead one `::error` workflow command carrying both (the runner shows it
 * as an annotation, and the plain line would only repeat it in the log). Under GitHub Actions,
 * `pull` and `check` also append it to the step summary. Secrets are masked before escaping.
 */
async function fail(io: CliIo, failure: Failure, parts: ErrorParts): Promise<number> {
  const { command, redact } = failure;
  const safe: ErrorParts = { code: parts.code, message: redact(terminalText(parts.message)), ...(parts.hint === undefined ? {} : { hint: redact(terminalText(parts.hint)) }) };
  io.stderr.write(`${redact(failure.github ? failureAnnotation(command, safe) : renderError(safe))}\n`);
  await appendStepSummary(io, command, failureSummary(command, safe), (text) => io.stderr.write(redact(`warning: ${text}\n`)));
  return EXIT.error;
}

/** Whether `--format github` is the one report format typed (`prettier`/`none`, the deprecated code formats, aside). */
function typedReportIsGithub(args: Record<string, unknown>): boolean {
  const format = args['format'];
  const reports = new Set((Array.isArray(format) ? format : [format]).filter((value) => value !== undefined && value !== 'prettier' && value !== 'none'));
  return reports.size === 1 && reports.has('github');
}

/** What the progress line says once a stage (reported by the library's `onStage`) is done. */
const NEXT_STAGE: Record<string, string> = { fetch: 'comparing', diff: 'generating', verify: 'fetching', emit: 'writing', write: 'finishing' };

/** Reports go to stdout; JSON and GitHub annotations are machine output and print even with --quiet. */
function emitReport(log: Logger, format: string, text: string): void {
  if (text.trim() === '') return;
  if (format === 'json' || format === 'github' || !log.quiet) log.out(text);
}

function describeEvent(event: FetchEvent): string {
  if (event.type === 'request') return `GET ${event.url} (try ${event.attempt})`;
  if (event.type === 'response') return `HTTP ${event.status}, ${event.bytes} bytes in ${event.ms} ms`;
  return `retrying in ${event.delayMs} ms after ${event.reason}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The one-line end of a pull: "264 types · 3 changed, 1 added · 5 files written in 0.4 s", with
 * "· @acme/schema 1.2.0 → 1.3.0" when it bumped the package's version.
 */
function pullSummary(result: PullResult, ms: number): string {
  const { summary } = result.report;
  const parts = (['changed', 'added', 'removed', 'renamed'] as const).filter((kind) => summary[kind]).map((kind) => `${summary[kind]} ${kind}`);
  const changes = parts.length > 0 ? parts.join(', ') : 'no changes';
  const pkg = result.package;
  const version = pkg?.previousVersion === undefined ? '' : ` · ${pkg.name} ${pkg.previousVersion} → ${pkg.version}`;
  if (!result.write) return `${result.messageCount} types · ${changes}${version} · dry run, nothing written (${seconds(ms)})`;
  const files = result.write.written.length;
  const deleted = result.write.deleted.length ? `, ${result.write.deleted.length} deleted` : '';
  return `${result.messageCount} types · ${changes}${version} · ${files} ${files === 1 ? 'file' : 'files'} written${deleted} in ${seconds(ms)}`;
}

/**
 * Where GitHub annotations point: paths from the repository root (`GITHUB_WORKSPACE` under
 * Actions, else the working directory), and each message's entry line in the lockfile.
 */
function reportLocations(io: CliIo, paths: { outDir: string; lockfilePath: string; lockfileText: string | undefined }): ReportLocations {
  const root = io.env['GITHUB_WORKSPACE'] || io.cwd;
  const fromRoot = (path: string) => relative(root, path).split(sep).join('/');
  const text = paths.lockfileText ?? '';
  return { lockfile: fromRoot(paths.lockfilePath), outDir: fromRoot(paths.outDir), lineOf: (name) => entryLine(text, name) };
}
