import yargs, { type Argv, type Options } from 'yargs';
import { didYouMean } from '../util/did-you-mean.js';
import { VERSION } from '../util/version.js';
import { COMMANDS } from './commands/table.js';
import { camel } from '../util/case.js';
import { GLOBAL_FLAGS, type FlagSpec } from './flags.js';
import { joinMessages, msg, own, type Message } from '../model/message.js';

/** A flag as yargs defines it. */
function yargsOption(spec: FlagSpec): Options {
  const { type, describe, group, choices, hidden, demandOption } = spec;
  return { type, describe, group, choices, hidden, demandOption, default: spec.default };
}

/**
 * Builds the parser from the command table: each command with its positionals, flags and
 * examples, the global flags, and what yargs says when none or an unknown one is named. The
 * commands have no handlers: {@link runCli} dispatches after parsing.
 */
export function buildParser(argv: string[]): Argv {
  const names = COMMANDS.map((command) => command.name);
  let parser = yargs(argv)
    .scriptName('schema-sync')
    .usage('$0 <command> [options]\n\nKeeps TypeScript code in step with a schema listing service.')
    .example('$0 init', 'Write a starter schema-sync.config.json')
    .example('$0 pull', 'Fetch, update the lockfile, regenerate the code')
    .example('$0 check --format github', 'Exit 1 on drift, with GitHub annotations')
    .epilogue('Run schema-sync <command> --help for its options. Exit codes: 0 done / in sync, 1 drift (check, diff), 2 error.');
  for (const command of COMMANDS) {
    const usage = [command.name, ...(command.positionals ?? []).map((positional) => `[${positional.name}]`)].join(' ');
    parser = parser.command(usage, command.describe, (y) => {
      for (const positional of command.positionals ?? []) y = y.positional(positional.name, { type: 'string', describe: positional.describe });
      for (const flag of command.flags) y = y.option(flag.flag, yargsOption(flag));
      for (const [example, meaning] of command.examples) y = y.example(example, meaning);
      return y;
    });
  }
  for (const flag of GLOBAL_FLAGS) parser = parser.option(flag.flag, { ...yargsOption(flag), global: true });
  return parser
    .demandCommand(1, `Name a command: ${names.slice(0, -1).join(', ')} or ${names.at(-1)}.`)
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
export function parseFailure(message: string, helpText: string, argv: readonly string[], command: string): { message: Message; hint: Message } {
  const topic = COMMANDS.some((spec) => spec.name === command) ? `${command} ` : '';
  const suggestion = /Did you mean [^\n]*/.exec(helpText)?.[0] ?? suggestFlag(message);
  // The hint names schema-sync's own commands and flags; the message what was typed.
  return { message: tidyUnknown(message, argv), hint: own(`${suggestion ? `${suggestion} ` : ''}Run schema-sync ${topic}--help.`) };
}

/** Every flag any command takes (with its `--no-` form where it is a switch), for "did you mean". */
const FLAGS = [...new Set([...COMMANDS.flatMap((command) => command.flags), ...GLOBAL_FLAGS].flatMap((spec) => (spec.type === 'boolean' ? [spec.flag, `no-${spec.flag}`] : [spec.flag])))].concat('help', 'version');

/**
 * yargs says "Unknown arguments: bsae-url, bsaeUrl" (its camel-case copy included); say
 * "Unknown argument: --bsae-url", as the user typed it.
 */
function tidyUnknown(message: string, argv: readonly string[]): Message {
  const match = /^Unknown arguments?: (.*)$/s.exec(message);
  // Any other complaint of yargs quotes the command line in wording of its own: outside text whole.
  if (!match?.[1]) return msg`${message}`;
  const names = match[1].split(', ');
  const distinct = names.filter((name) => !names.some((other) => other !== name && other.includes('-') && camel(other) === name));
  const shown = distinct.map((name) => {
    const typed = argv.find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`) || arg === `-${name}`);
    return typed ? typed.split('=')[0]! : name;
  });
  return msg`Unknown ${own(shown.length === 1 ? 'argument' : 'arguments')}: ${joinMessages(shown.map((name) => msg`${name}`), ', ')}`;
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
