import { appendFile } from 'node:fs/promises';
import yargs, { type Argv } from 'yargs';
import { didYouMean } from '../config/did-you-mean.js';
import { hasBreaking, renderReport } from '../diff/index.js';
import { createRedactor } from '../model/redact.js';
import { check } from '../run/check.js';
import { generate } from '../run/generate.js';
import { pull } from '../run/pull.js';
import { assertNotPlaceholder, initCommand, type InitArgs } from './commands/init.js';
import type { ServeArgs } from './commands/serve.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { createLogger, useColor, type Logger } from './logger.js';
import { startProgress } from './progress.js';
import { withoutEagerHelp } from './start-up.js';
import { renderError } from './render-error.js';
import { earlySecrets, readFormatFlags, resolveOptions, UsageError, type CliArgs, type FormatFlags } from './resolve-options.js';
import { pullSummary } from './summary.js';
import { VERSION } from '../model/version.js';

const COMMANDS = ['pull', 'check', 'generate', 'serve', 'init'];
const SOURCE_GROUP = 'Source:';
const OUTPUT_GROUP = 'Output:';

function sourceOptions(y: Argv): Argv {
  return y
    .option('base-url', { type: 'string', group: SOURCE_GROUP, describe: 'Service base URL (env SCHEMA_SYNC_BASE_URL); /rest/proto is appended' })
    .option('input', { type: 'string', group: SOURCE_GROUP, describe: 'Read a saved /rest/proto response (file, or - for stdin) instead of the network' })
    .option('api-key', { type: 'string', group: SOURCE_GROUP, describe: 'API key (prefer env SCHEMA_SYNC_API_KEY); never printed or stored' })
    .option('secret', { type: 'string', group: SOURCE_GROUP, describe: 'Secret (prefer env SCHEMA_SYNC_SECRET); never printed or stored' })
    .option('cmd', { type: 'string', group: SOURCE_GROUP, describe: 'Query parameter cmd, e.g. getmsgtypes' })
    .option('msg-type', { type: 'string', group: SOURCE_GROUP, describe: 'Query parameter msgType (name or number)' })
    .option('pkey', { type: 'string', group: SOURCE_GROUP, describe: 'Query parameter pkey' })
    .option('limit', { type: 'number', group: SOURCE_GROUP, describe: 'Query parameter limit (1..10000)' })
    .option('view', { type: 'string', group: SOURCE_GROUP, describe: 'Query parameter view' })
    .option('where', { type: 'string', group: SOURCE_GROUP, describe: 'Query parameter where, e.g. mToken:ne:SystemData' })
    .option('order', { type: 'string', group: SOURCE_GROUP, describe: 'Query parameter order' })
    .option('timeout', { type: 'number', group: SOURCE_GROUP, describe: 'Milliseconds for one request (default 30000)' })
    .option('retries', { type: 'number', group: SOURCE_GROUP, describe: 'Retries on connection errors, 429, 502-504 (default 3)' })
    .option('allow-truncated', { type: 'boolean', group: SOURCE_GROUP, describe: 'Accept a listing that fills --limit' });
}

function outputOptions(y: Argv): Argv {
  return y
    .option('out', { type: 'string', group: OUTPUT_GROUP, describe: 'Output folder (default src/generated/schema)' })
    .option('lockfile', { type: 'string', group: OUTPUT_GROUP, describe: 'Lockfile (default schema-sync.lock.json)' })
    .option('templates', { type: 'string', group: OUTPUT_GROUP, describe: 'Folder overriding the built-in templates' })
    .option('package', { type: 'string', group: OUTPUT_GROUP, describe: 'Also write package.json and README.md for this package name' })
    .option('lock-wait', { type: 'number', group: OUTPUT_GROUP, describe: 'Milliseconds to wait for another run on the same output folder (default 30000)' })
    .option('prettier', { type: 'boolean', group: OUTPUT_GROUP, describe: 'Format the generated code with prettier (or --no-prettier)' });
}

/** `--format` of the commands that print a report; `generate` takes it only to say it does not apply. */
function reportOption(y: Argv, hidden = false): Argv {
  return y.option('format', { type: 'string', array: true, hidden, describe: 'Report format: text (default), json, markdown or github' });
}

/** Builds the parser; commands have no handlers: {@link runCli} dispatches after parsing. */
function buildParser(argv: string[]): Argv {
  const parser = yargs(argv)
    .scriptName('schema-sync')
    .usage('$0 <command> [options]\n\nKeeps TypeScript code in step with a schema listing service.')
    .example('$0 init', 'Write a starter schema-sync.config.json')
    .example('$0 pull', 'Fetch, update the lockfile, regenerate the code')
    .example('$0 check --format github', 'Exit 1 on drift, with GitHub annotations')
    .epilogue('Run schema-sync <command> --help for its options. Exit codes: 0 done / in sync, 1 drift (check), 2 error.')
    .command('pull', 'Fetch the listing, update the lockfile and the generated code', (y) =>
      reportOption(outputOptions(sourceOptions(y)))
        .option('dry-run', { type: 'boolean', describe: 'Show what would change; write nothing' })
        .option('allow-empty', { type: 'boolean', describe: 'Accept an empty listing while types are locked' })
        .option('force', { type: 'boolean', describe: 'Accept a pull that removes more than half of the locked types' })
        .example('$0 pull --base-url https://schemas.example.com --out src/generated/schema', 'Fetch and generate')
        .example('$0 pull --dry-run --format markdown', 'Show the changes as a PR comment, write nothing'),
    )
    .command('check', 'Exit 1 when the service or the output folder drifted from the lockfile (writes nothing)', (y) =>
      reportOption(outputOptions(sourceOptions(y)))
        .option('fail-on', { choices: ['any', 'breaking'] as const, describe: 'Which drift exits 1 (default any)' })
        .example('$0 check --format github', 'Annotate a GitHub Actions run')
        .example('$0 check --fail-on breaking', 'Fail only on breaking drift'),
    )
    .command('generate', 'Rebuild the output folder from the lockfile alone (no network)', (y) =>
      reportOption(outputOptions(y), true)
        .example('$0 generate', 'Regenerate before a build')
        .example('$0 generate --prettier --package @acme/schema-types', 'Formatted, as a package other repositories import'),
    )
    .command('serve', 'Serve a descriptor file with the bundled reference server on loopback', (y) =>
      y
        .option('file', { type: 'string', demandOption: true, describe: 'Descriptor listing file (JSON array)' })
        .option('port', { type: 'number', default: 0, describe: 'Port (0 = any free port)' })
        .option('host', { type: 'string', describe: 'Loopback address to bind (default 127.0.0.1)' })
        .option('api-key', { type: 'string', describe: 'Require this apikey' })
        .option('secret', { type: 'string', describe: 'Require this secret' })
        .option('trailer', { type: 'boolean', describe: 'Append the QueryResult trailer' })
        .option('header-key', { choices: ['msgType', 'mTyp'] as const, describe: 'Header type key to use' })
        .example('$0 serve --file examples/descriptors.json --port 0', 'Serve the example listing')
        .example('$0 serve --file examples/descriptors.json --api-key test-key --trailer', 'Require a key, append a QueryResult'),
    )
    .command('init', 'Write a starter schema-sync.config.json and suggest npm scripts', (y) =>
      y
        .option('force', { type: 'boolean', describe: 'Overwrite an existing config file' })
        .option('base-url', { type: 'string', describe: 'Service base URL to write (default: a placeholder to edit)' })
        .option('out', { type: 'string', describe: 'Output folder to write (default src/generated/schema)' })
        .example('$0 init', 'Create schema-sync.config.json in this folder')
        .example('$0 init --base-url https://schemas.example.com', 'Start with the real service URL')
        .example('$0 init --force', 'Replace an existing config with a starter one'),
    )
    .option('config', { type: 'string', global: true, describe: 'Config file (default: schema-sync.config.json, .mjs or .js, searched from here up to the repository root)' })
    .option('quiet', { type: 'boolean', global: true, describe: 'Print only errors' })
    .option('verbose', { type: 'boolean', global: true, describe: 'Print request details and timings' })
    .option('color', { type: 'boolean', global: true, describe: 'Colour output (--no-color to disable)' })
    .demandCommand(1, 'Name a command: pull, check, generate, serve or init.')
    .recommendCommands()
    .strict()
    .version(VERSION)
    .help()
    .alias('h', 'help')
    .wrap(Math.min(100, process.stdout.columns || 100))
    .exitProcess(false);
  return withoutEagerHelp(parser);
}

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
  const redactArgs = createRedactor(earlySecrets((parsed ?? {}) as Partial<CliArgs>, io.env));
  if (parseError) {
    const first = String((parsed?.['_'] as unknown[] | undefined)?.[0] ?? '');
    const topic = COMMANDS.includes(first) ? `${first} ` : '';
    const suggestion = /Did you mean [^\n]*/.exec(helpText)?.[0] ?? suggestFlag(parseError.message);
    return usageError(io, redactArgs, tidyUnknown(parseError.message, argv), `${suggestion ? `${suggestion} ` : ''}Run schema-sync ${topic}--help.`);
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
      onFetchEvent: (event: import('../fetch/index.js').FetchEvent) => {
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
      const text = renderReport(result.report, { format: resolved.report, color: reportColor, command: 'pull', dryRun: Boolean(library.dryRun) });
      emitReport(log, resolved.report, text);
      log.info(pullSummary(result, Date.now() - started));
      return EXIT.ok;
    }
    if (command === 'check') {
      const result = await check(library);
      emitReport(log, resolved.report, renderReport(result.report, { format: resolved.report, color: reportColor, command: 'check' }));
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
    log.error(`error [USAGE]: unknown command ${JSON.stringify(command)}\nhint: run schema-sync --help`);
    return EXIT.error;
  } catch (error) {
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

const FLAGS = [
  'base-url', 'input', 'api-key', 'secret', 'cmd', 'msg-type', 'pkey', 'limit', 'view', 'where', 'order', 'timeout',
  'retries', 'allow-truncated', 'out', 'lockfile', 'templates', 'package', 'lock-wait', 'format', 'prettier', 'no-prettier', 'dry-run', 'allow-empty', 'force',
  'fail-on', 'file', 'port', 'host', 'trailer', 'header-key', 'config', 'quiet', 'verbose', 'color', 'no-color', 'help', 'version',
];

/**
 * yargs says "Unknown arguments: bsae-url, bsaeUrl" (its camel-case copy included); say
 * "Unknown argument: --bsae-url", as the user typed it.
 */
function tidyUnknown(message: string, argv: readonly string[]): string {
  const match = /^Unknown arguments?: (.*)$/s.exec(message);
  if (!match?.[1]) return message;
  const names = match[1].split(', ');
  const distinct = names.filter((name) => !names.some((other) => other !== name && other.includes('-') && camel(other) === name));
  const shown = distinct.map((name) => {
    const typed = argv.find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`) || arg === `-${name}`);
    return typed ? typed.split('=')[0]! : name;
  });
  return `Unknown argument${shown.length === 1 ? '' : 's'}: ${shown.join(', ')}`;
}

function camel(name: string): string {
  return name.replace(/-+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** "Did you mean --base-url?" for yargs' "Unknown argument: bsae-url". */
function suggestFlag(message: string): string | undefined {
  const unknown = /^Unknown arguments?: ([^,\s]+)/.exec(message)?.[1];
  if (!unknown || unknown.length < 2) return undefined;
  const match = didYouMean(unknown, FLAGS);
  // A real flag of another command (`generate --base-url`): say so rather than suggest itself.
  if (match === unknown) return `--${unknown} is not an option of this command.`;
  return match ? `Did you mean --${match}?` : undefined;
}

/** Under GitHub Actions, the markdown report also goes to the job summary page. */
async function appendStepSummary(io: CliIo, markdown: string): Promise<void> {
  const file = io.env['GITHUB_STEP_SUMMARY'];
  if (io.env['GITHUB_ACTIONS'] !== 'true' || !file) return;
  await appendFile(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}

function describeEvent(event: import('../fetch/index.js').FetchEvent): string {
  if (event.type === 'request') return `GET ${event.url} (try ${event.attempt})`;
  if (event.type === 'response') return `HTTP ${event.status}, ${event.bytes} bytes in ${event.ms} ms`;
  return `retrying in ${event.delayMs} ms after ${event.reason}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
