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

/** The examples of `schema-sync --help`. */
const EXAMPLES: readonly (readonly [command: string, meaning: string])[] = [
  ['$0 init', 'Write a starter schema-sync.config.json'],
  ['$0 pull', 'Fetch, update the lockfile, regenerate the code'],
  ['$0 check --format github', 'Exit 1 on drift, with GitHub annotations'],
];

/** The end of `schema-sync --help`. */
const EPILOGUE = 'Run schema-sync <command> --help for its options.\nExit codes: 0 done / in sync, 1 drift (check, diff), 2 error.';

/** The widest help yargs lays out, and where it wraps on a narrower terminal. */
function helpWidth(columns: number | undefined): number {
  return Math.min(100, columns || 100);
}

/**
 * Builds the parser from the command table: each command with its positionals and flags, the
 * global flags, and what yargs says when none or an unknown one is named. The commands have no
 * handlers: {@link runCli} dispatches after parsing. The examples are not yargs': see
 * {@link helpText}. `columns`: the terminal's width, where yargs wraps the help.
 */
export function buildParser(argv: string[], columns?: number): Argv {
  const names = COMMANDS.map((command) => command.name);
  let parser = yargs(argv).scriptName('schema-sync').usage('$0 <command> [options]\n\nKeeps TypeScript code in step with a schema listing service.');
  for (const command of COMMANDS) {
    const usage = [command.name, ...(command.positionals ?? []).map((positional) => `[${positional.name}]`)].join(' ');
    parser = parser.command(usage, command.describe, (y) => {
      for (const positional of command.positionals ?? []) y = y.positional(positional.name, { type: 'string', describe: positional.describe });
      for (const flag of command.flags) y = y.option(flag.flag, yargsOption(flag));
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
    .wrap(helpWidth(columns))
    .exitProcess(false);
}

/**
 * The whole `--help` of `command` ('' for schema-sync's own): yargs' text, then the examples,
 * then (schema-sync's own) the epilogue. yargs lays examples out in two columns wrapped at the
 * terminal's width, which breaks a long command mid-way; here every command stays whole on its
 * line: beside its meaning when every example fits `columns`, else above it.
 */
export function helpText(yargsText: string, command: string, columns?: number): string {
  const spec = COMMANDS.find((candidate) => candidate.name === command);
  const examples = (spec?.examples ?? EXAMPLES).map(([line, meaning]) => [line.replace(/\$0/g, 'schema-sync'), meaning] as const);
  const column = Math.max(...examples.map(([line]) => line.length)) + 2;
  const beside = examples.every(([, meaning]) => 2 + column + meaning.length <= helpWidth(columns));
  const rows = examples.map(([line, meaning]) => (beside ? `  ${line.padEnd(column)}${meaning}` : `  ${line}\n      ${meaning}`));
  return [yargsText, ['Examples:', ...rows].join('\n'), ...(spec ? [] : [EPILOGUE])].join('\n\n');
}

/**
 * The message and hint of a command line yargs refused: its own "Did you mean" when it has one,
 * else the closest flag, and where to read the options.
 */
export function parseFailure(message: string, yargsText: string, argv: readonly string[], command: string): { message: Message; hint: Message } {
  const topic = COMMANDS.some((spec) => spec.name === command) ? `${command} ` : '';
  const suggestion = /Did you mean [^\n]*/.exec(yargsText)?.[0] ?? suggestFlag(message);
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
