import yargs, { type Argv } from 'yargs';
import { didYouMean } from '../util/did-you-mean.js';
import { VERSION } from '../util/version.js';

const COMMANDS = ['pull', 'check', 'diff', 'generate', 'rules', 'serve', 'init'];
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
    .option('max-bytes', { type: 'number', group: SOURCE_GROUP, describe: 'Most bytes of answer (decompressed) or --input read (default 268435456, 256 MiB)' })
    .option('allow-truncated', { type: 'boolean', group: SOURCE_GROUP, describe: 'Accept a listing that fills --limit' });
}

function outputOptions(y: Argv): Argv {
  return y
    .option('out', { type: 'string', group: OUTPUT_GROUP, describe: 'Output folder (default src/generated/schema)' })
    .option('lockfile', { type: 'string', group: OUTPUT_GROUP, describe: 'Lockfile (default schema-sync.lock.json)' })
    .option('templates', { type: 'string', group: OUTPUT_GROUP, describe: 'Folder overriding the built-in templates' })
    .option('package', { type: 'string', group: OUTPUT_GROUP, describe: 'Also write package.json, README.md and CHANGELOG.md for this package name' })
    .option('package-version', { type: 'string', group: OUTPUT_GROUP, describe: "The package's version x.y.z (default: as recorded, bumped by each pull that changes the listing)" })
    .option('target', { type: 'string', choices: ['ts', 'js+dts'], group: OUTPUT_GROUP, describe: 'Write TypeScript (ts), or ES modules with declarations (js+dts; default for a package)' })
    .option('lock-wait', { type: 'number', group: OUTPUT_GROUP, describe: 'Milliseconds to wait for another run on the same output folder (default 30000)' })
    .option('prettier', { type: 'boolean', group: OUTPUT_GROUP, describe: 'Format the generated code with prettier (or --no-prettier)' })
    .option('fields', { type: 'boolean', group: OUTPUT_GROUP, describe: 'Fetch field descriptors (getschema) of new or changed types and generate record types (or --no-fields)' });
}

/** `--format` of the commands that print a report; `generate` takes it only to say it does not apply. */
function reportOption(y: Argv, hidden = false): Argv {
  return y.option('format', { type: 'string', array: true, hidden, describe: 'Report format: text (default), json, markdown or github' });
}

/** Builds the parser; commands have no handlers: {@link runCli} dispatches after parsing. */
export function buildParser(argv: string[]): Argv {
  return yargs(argv)
    .scriptName('schema-sync')
    .usage('$0 <command> [options]\n\nKeeps TypeScript code in step with a schema listing service.')
    .example('$0 init', 'Write a starter schema-sync.config.json')
    .example('$0 pull', 'Fetch, update the lockfile, regenerate the code')
    .example('$0 check --format github', 'Exit 1 on drift, with GitHub annotations')
    .epilogue('Run schema-sync <command> --help for its options. Exit codes: 0 done / in sync, 1 drift (check, diff), 2 error.')
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
    .command('diff [base] [head]', 'Compare two lockfiles (paths, - for stdin, or <git-rev>:<path>); exit 1 on changes (no network)', (y) =>
      reportOption(y)
        .positional('base', { type: 'string', describe: 'The lockfile before: a path, - (stdin), or <rev>:<path>' })
        .positional('head', { type: 'string', describe: "The lockfile after (default: the project's lockfile)" })
        .option('against', { type: 'string', describe: "Compare with the project's lockfile at this git revision, e.g. origin/main" })
        .option('lockfile', { type: 'string', describe: 'The project lockfile (default schema-sync.lock.json)' })
        .option('fail-on', { choices: ['any', 'breaking'] as const, describe: 'Which changes exit 1 (default any)' })
        .example('$0 diff --against origin/main --format github', 'Annotate the lockfile changes of a pull request')
        .example('$0 diff --format markdown v1.2.0:schema-sync.lock.json v1.3.0:schema-sync.lock.json', 'A changelog between two tags'),
    )
    .command('rules', 'List the drift rule ids with their default and configured severity', (y) =>
      reportOption(y).example('$0 rules --format json', 'The rules as JSON'),
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
    .demandCommand(1, 'Name a command: pull, check, diff, generate, rules, serve or init.')
    .recommendCommands()
    .strict()
    .version(VERSION)
    .help()
    .alias('h', 'help')
    .wrap(Math.min(100, process.stdout.columns || 100))
    .exitProcess(false);
}

/**
 * The message and hint of a command line yargs refused: its own "Did you mean" when it has one,
 * else the closest flag, and where to read the options.
 */
export function parseFailure(message: string, helpText: string, argv: readonly string[], command: string): { message: string; hint: string } {
  const topic = COMMANDS.includes(command) ? `${command} ` : '';
  const suggestion = /Did you mean [^\n]*/.exec(helpText)?.[0] ?? suggestFlag(message);
  return { message: tidyUnknown(message, argv), hint: `${suggestion ? `${suggestion} ` : ''}Run schema-sync ${topic}--help.` };
}

const FLAGS = [
  'base-url', 'input', 'api-key', 'secret', 'cmd', 'msg-type', 'pkey', 'limit', 'view', 'where', 'order', 'timeout',
  'retries', 'max-bytes', 'allow-truncated', 'out', 'lockfile', 'templates', 'package', 'package-version', 'target', 'lock-wait', 'format', 'prettier', 'no-prettier', 'fields', 'no-fields', 'dry-run', 'allow-empty', 'force',
  'fail-on', 'against', 'file', 'port', 'host', 'trailer', 'header-key', 'config', 'quiet', 'verbose', 'color', 'no-color', 'help', 'version',
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
