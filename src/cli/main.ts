import { appendFile, readFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { hasBreaking, renderReport, type ReportLocations } from '../diff/index.js';
import { entryLine } from '../lock/index.js';
import type { FetchEvent } from '../fetch/index.js';
import { createRedactor } from '../model/redact.js';
import { check } from '../run/check.js';
import { generate } from '../run/generate.js';
import { pull, type PullResult } from '../run/pull.js';
import { assertNotPlaceholder, initCommand, type InitArgs } from './commands/init.js';
import type { ServeArgs } from './commands/serve.js';
import { EXIT, interruptedLine, SIGNAL_EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { createLogger, renderError, useColor, type Logger } from './logger.js';
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
  const redactArgs = createRedactor(secretsFromArgsAndEnv((parsed ?? {}) as Partial<CliArgs>, io.env));
  if (parseError) {
    const failure = parseFailure(parseError.message, helpText, argv, String((parsed?.['_'] as unknown[] | undefined)?.[0] ?? ''));
    return usageError(io, redactArgs, failure.message, failure.hint);
  }
  if (helpText) {
    io.stdout.write(`${helpText}\n`);
    return EXIT.ok;
  }
  const args = parsed ?? {};
  const command = String((args['_'] as unknown[] | undefined)?.[0] ?? '');
  let formatFlags: FormatFlags;
  try {
    formatFlags = readFormatFlags(command, args as CliArgs);
  } catch (error) {
    if (error instanceof UsageError) return usageError(io, redactArgs, error.message, `${error.hint} Run schema-sync ${command} --help.`);
    throw error;
  }
  const color = useColor(io, args['color'] as boolean | undefined);
  const verbose = Boolean(args['verbose']);
  // The report goes to stdout: colour it only when stdout is a terminal too (or --color forces it).
  const reportColor = color && (args['color'] === true || Boolean(io.stdout.isTTY));
  const progress = startProgress(io, { label: `schema-sync ${command}`, enabled: !args['quiet'] && ['pull', 'check', 'generate'].includes(command) });
  io = progress.io;
  let log = createLogger(io, { quiet: Boolean(args['quiet']), verbose, color, redact: redactArgs });
  try {
    if (command === 'serve') {
      // Loaded only for `serve`: the reference server is not part of a pull's start-up.
      const { serveCommand } = await import('./commands/serve.js');
      return await serveCommand(args as unknown as ServeArgs, io, log);
    }
    if (command === 'init') return await initCommand(args as unknown as InitArgs, io, log);
    const resolved = await resolveOptions(args as CliArgs, io, formatFlags);
    if (command !== 'generate' && resolved.library.input === undefined) assertNotPlaceholder(resolved.library.baseUrl);
    const redact = createRedactor(resolved.secrets);
    log = createLogger(io, { quiet: Boolean(args['quiet']), verbose, color, redact });
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
    const started = Date.now();
    if (command === 'pull') {
      const result = await pull(library);
      const locations = resolved.report === 'github' ? await reportLocations(io, result) : undefined;
      const text = renderReport(result.report, { format: resolved.report, color: reportColor, command: 'pull', dryRun: Boolean(library.dryRun), locations });
      emitReport(log, resolved.report, text);
      log.info(pullSummary(result, Date.now() - started));
      return EXIT.ok;
    }
    if (command === 'check') {
      const result = await check(library);
      const locations = resolved.report === 'github' ? await reportLocations(io, result) : undefined;
      emitReport(log, resolved.report, renderReport(result.report, { format: resolved.report, color: reportColor, command: 'check', locations }));
      await appendStepSummary(io, renderReport(result.report, { format: 'markdown', command: 'check' }));
      const failing = resolved.failOn === 'breaking' ? hasBreaking(result.report) : !result.report.inSync;
      return failing ? EXIT.drift : EXIT.ok;
    }
    if (command === 'generate') {
      const result = await generate(library);
      const { written, deleted } = result.write;
      log.info(`${result.messageCount} types · ${written.length} files written, ${deleted.length} deleted in ${seconds(Date.now() - started)}`);
      return EXIT.ok;
    }
    return usageError(io, redactArgs, `unknown command ${JSON.stringify(command)}`, 'run schema-sync --help');
  } catch (error) {
    // A run stopped by a signal, having rolled back or finished its commit (see bin.ts).
    if (error instanceof Interrupted && (error.signal === 'SIGINT' || error.signal === 'SIGTERM')) {
      io.stderr.write(interruptedLine(error.signal));
      return SIGNAL_EXIT[error.signal];
    }
    log.error(renderError(error, { redact: redactArgs, verbose }));
    return EXIT.error;
  } finally {
    progress.stop();
  }
}

/** A mistake in the command line: `error [USAGE]` and a hint on stderr, exit 2. */
function usageError(io: CliIo, redact: (text: string) => string, message: string, hint: string): number {
  io.stderr.write(redact(`error [USAGE]: ${message}\nhint: ${hint}\n`));
  return EXIT.error;
}

/** What the progress line says once a stage (reported by the library's `onStage`) is done. */
const NEXT_STAGE: Record<string, string> = { fetch: 'comparing', diff: 'generating', verify: 'finishing', emit: 'writing', write: 'finishing' };

/** Reports go to stdout; JSON and GitHub annotations are machine output and print even with --quiet. */
function emitReport(log: Logger, format: string, text: string): void {
  if (text.trim() === '') return;
  if (format === 'json' || format === 'github' || !log.quiet) log.out(text);
}

/** Under GitHub Actions, the markdown report also goes to the job summary page. */
async function appendStepSummary(io: CliIo, markdown: string): Promise<void> {
  const file = io.env['GITHUB_STEP_SUMMARY'];
  if (io.env['GITHUB_ACTIONS'] !== 'true' || !file) return;
  await appendFile(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}

function describeEvent(event: FetchEvent): string {
  if (event.type === 'request') return `GET ${event.url} (try ${event.attempt})`;
  if (event.type === 'response') return `HTTP ${event.status}, ${event.bytes} bytes in ${event.ms} ms`;
  return `retrying in ${event.delayMs} ms after ${event.reason}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The one-line end of a pull: "264 types · 3 changed, 1 added · 5 files written in 0.4 s". */
function pullSummary(result: PullResult, ms: number): string {
  const { summary } = result.report;
  const parts = (['changed', 'added', 'removed', 'renamed'] as const).filter((kind) => summary[kind]).map((kind) => `${summary[kind]} ${kind}`);
  const changes = parts.length > 0 ? parts.join(', ') : 'no changes';
  if (!result.write) return `${result.messageCount} types · ${changes} · dry run, nothing written (${seconds(ms)})`;
  const files = result.write.written.length;
  const deleted = result.write.deleted.length ? `, ${result.write.deleted.length} deleted` : '';
  return `${result.messageCount} types · ${changes} · ${files} ${files === 1 ? 'file' : 'files'} written${deleted} in ${seconds(ms)}`;
}

/**
 * Where GitHub annotations point: paths from the repository root (`GITHUB_WORKSPACE` under
 * Actions, else the working directory), and each message's entry line in the lockfile.
 */
async function reportLocations(io: CliIo, paths: { outDir: string; lockfilePath: string }): Promise<ReportLocations> {
  const root = io.env['GITHUB_WORKSPACE'] || io.cwd;
  const fromRoot = (path: string) => relative(root, path).split(sep).join('/');
  const text = await readFile(paths.lockfilePath, 'utf8').catch(() => '');
  return { lockfile: fromRoot(paths.lockfilePath), outDir: fromRoot(paths.outDir), lineOf: (name) => entryLine(text, name) };
}
