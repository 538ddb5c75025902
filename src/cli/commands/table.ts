import { REPORT_FORMATS } from '../../diff/index.js';
import { impactFlag, OUTPUT_FLAGS, PULL_FLAGS, reportFlag, settingFlag, SOURCE_FLAGS } from '../flags.js';
import { checkCommand, diffCommand } from './check.js';
import type { CommandSpec } from './context.js';
import { generateCommand } from './generate.js';
import { initCommand } from './init.js';
import { pullCommand } from './pull.js';
import { rulesCommand } from './rules.js';
import { HEADER_KEYS } from '../../server/header-keys.js';


/** `generate --fields`: generate fetches nothing, so it reads the fields `pull --fields` recorded. */
const GENERATE_FIELDS = 'Generate record types from the field descriptors the lockfile records (or --no-fields; pull --fields fetches them)';

/**
 * Every command of the CLI, in the order `--help` lists them (the SPEC's order): yargs' definitions, the help, the
 * suggestions for a mistyped command or flag, and the dispatch all come from here.
 */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'pull',
    describe: 'Fetch the listing, update the lockfile and the generated code',
    flags: [
      ...SOURCE_FLAGS,
      ...OUTPUT_FLAGS,
      reportFlag(),
      ...PULL_FLAGS,
      impactFlag(),
    ],
    examples: [
      ['$0 pull --base-url https://schemas.example.com --out src/generated/schema', 'Fetch and generate'],
      ['$0 pull --dry-run --format markdown', 'Show the changes as a PR comment, write nothing'],
    ],
    reports: REPORT_FORMATS,
    stepSummary: true,
    progress: true,
    settings: true,
    run: pullCommand,
  },
  {
    name: 'check',
    describe: 'Exit 1 when the service or the output folder drifted from the lockfile (writes nothing)',
    flags: [...SOURCE_FLAGS, ...OUTPUT_FLAGS, reportFlag(), settingFlag('failOn'), impactFlag()],
    examples: [
      ['$0 check --format github', 'Annotate a GitHub Actions run'],
      ['$0 check --fail-on breaking', 'Fail only on breaking drift'],
      ['$0 check --impact tsconfig.json --fail-on broken', 'Fail only when a change breaks your compile'],
    ],
    reports: REPORT_FORMATS,
    stepSummary: true,
    progress: true,
    settings: true,
    run: checkCommand,
  },
  {
    name: 'diff',
    describe: 'Compare two lockfiles (paths, - for stdin, or <git-rev>:<path>); exit 1 on changes (no network)',
    positionals: [
      { name: 'base', describe: 'The lockfile before: a path, - (stdin), or <rev>:<path>' },
      { name: 'head', describe: "The lockfile after (default: the project's lockfile)" },
    ],
    flags: [
      reportFlag(),
      { flag: 'against', type: 'string', describe: "Compare with the project's lockfile at this git revision, e.g. origin/main" },
      settingFlag('lockfile', { describe: 'The project lockfile (default schema-sync.lock.json)', group: undefined }),
      settingFlag('failOn', { describe: 'Which changes exit 1 (default any)' }),
      settingFlag('out', { describe: 'Output folder, where --impact projects see the generated code (default src/generated/schema)', group: undefined }),
      impactFlag(),
    ],
    examples: [
      ['$0 diff --against origin/main --format github', 'Annotate the lockfile changes of a pull request'],
      ['$0 diff --against origin/main --impact tsconfig.json', 'Which lines of your code the changes break'],
      ['$0 diff --format markdown v1.2.0:schema-sync.lock.json v1.3.0:schema-sync.lock.json', 'A changelog between two tags'],
    ],
    reports: REPORT_FORMATS,
    stepSummary: true,
    progress: false,
    settings: true,
    run: diffCommand,
  },
  {
    name: 'generate',
    describe: 'Rebuild the output folder from the lockfile alone (no network)',
    flags: [...OUTPUT_FLAGS.map((flag) => (flag.flag === 'fields' ? { ...flag, describe: GENERATE_FIELDS } : flag)), reportFlag(true)],
    examples: [
      ['$0 generate', 'Regenerate before a build'],
      ['$0 generate --prettier --package @acme/schema-types', 'Formatted, as a package other repositories import'],
    ],
    reports: [],
    stepSummary: false,
    progress: true,
    settings: true,
    run: generateCommand,
  },
  {
    name: 'rules',
    describe: 'List the drift rule ids with their default and configured severity',
    flags: [reportFlag()],
    examples: [['$0 rules --format json', 'The rules as JSON']],
    reports: ['text', 'json'],
    stepSummary: false,
    progress: false,
    settings: true,
    run: rulesCommand,
  },
  {
    name: 'serve',
    describe: 'Serve a descriptor file with the bundled reference server on loopback',
    flags: [
      { flag: 'file', type: 'string', demandOption: true, describe: 'Descriptor listing file (JSON array)' },
      { flag: 'schemas', type: 'string', describe: 'Field descriptors for cmd=getschema (JSON object: type name → FieldDesc array); default: <file>.schemas.json beside the listing, when there is one' },
      { flag: 'records', type: 'string', repeatable: true, describe: 'Saved records answers (rest/json arrays) that cmd=getmsgs answers from on /rest/json and /rest/jsonf, honouring msgType, pkey, view, where, order and limit; repeatable' },
      { flag: 'port', type: 'number', default: 0, describe: 'Port (0 = any free port)' },
      { flag: 'host', type: 'string', describe: 'Loopback address to bind (default 127.0.0.1)' },
      { flag: 'api-key', type: 'string', describe: 'Require this apikey' },
      { flag: 'secret', type: 'string', describe: 'Require this secret' },
      { flag: 'trailer', type: 'boolean', describe: 'Append the QueryResult trailer' },
      { flag: 'header-key', choices: HEADER_KEYS, describe: 'Header type key to use' },
    ],
    examples: [
      ['$0 serve --file examples/descriptors.json --port 0', 'Serve the example listing'],
      ['$0 serve --file examples/descriptors.json --api-key test-key --trailer', 'Require a key, append a QueryResult'],
      ['$0 serve --file listing.json --schemas fields.json', 'Answer getschema from fields.json'],
      ['$0 serve --file examples/descriptors.json --records examples/descriptors.records.json', 'Answer records queries (cmd=getmsgs) from saved records'],
    ],
    stepSummary: false,
    progress: false,
    settings: false,
    // Loaded only for `serve`: the reference server is not part of a pull's start-up.
    run: async (context) => (await import('./serve.js')).serveCommand(context),
  },
  {
    name: 'init',
    describe: 'Write a starter schema-sync.config.json and suggest npm scripts',
    flags: [
      { flag: 'force', type: 'boolean', describe: 'Overwrite an existing config file' },
      { flag: 'base-url', type: 'string', describe: 'Service base URL to write (default: a placeholder to edit)' },
      { flag: 'out', type: 'string', describe: 'Output folder to write (default src/generated/schema)' },
    ],
    examples: [
      ['$0 init', 'Create schema-sync.config.json in this folder'],
      ['$0 init --base-url https://schemas.example.com', 'Start with the real service URL'],
      ['$0 init --force', 'Replace an existing config with a starter one'],
    ],
    stepSummary: false,
    progress: false,
    settings: false,
    run: initCommand,
  },
];
