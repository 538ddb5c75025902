import type { ReportFormat } from '../../diff/index.js';
import type { PullOptions } from '../../run/options.js';
import type { FlagSpec } from '../flags.js';
import type { CliIo } from '../io.js';
import type { Logger } from '../logger.js';
import type { ParsedArgs } from '../parsed-args.js';
import type { ResolvedSettings } from '../resolve-settings.js';

/** What every command runs with: its command line, the process's streams, and the run's logger. */
export interface CommandContext {
  args: ParsedArgs;
  io: CliIo;
  log: Logger;
}

/** What a command that runs on the project's settings runs with, besides its {@link CommandContext}. */
export interface SettingsContext extends CommandContext {
  /** The run's settings, merged from flags, environment, config file and defaults. */
  settings: ResolvedSettings['settings'];
  /** The config file the settings came from; undefined when none was found. */
  configPath: string | undefined;
  /** The library's options: the settings, the project root, the cache folder, and the hooks that log and show progress. */
  library: PullOptions;
  /** `--format` as typed (`rules` lists in it, never in the config's report format). */
  typedReport: ReportFormat | undefined;
  /** Whether the report on stdout is coloured. */
  reportColor: boolean;
  /** Appends a report to the GitHub step summary, when the command's report goes there and the run is under Actions. */
  stepSummary(markdown: string): Promise<void>;
}

/** How a command shows in `--help` and what it takes on the command line. */
interface CommandInfo {
  name: string;
  describe: string;
  /** Positionals, in yargs' notation after the name: `[base] [head]`. */
  positionals?: readonly { name: string; describe: string }[];
  flags: readonly FlagSpec[];
  examples: readonly (readonly [command: string, meaning: string])[];
  /** The report formats `--format` takes; none (but `--format` hidden) for a command that takes it only to refuse it. */
  reports?: readonly ReportFormat[];
  /** Whether its report (or its failure) is appended to the GitHub step summary. */
  stepSummary: boolean;
  /** Whether a progress line shows while it runs (on a terminal, without `--quiet`). */
  progress: boolean;
}

/** One command of the CLI: everything `--help`, the parser, suggestions and dispatch know of it. */
export type CommandSpec = CommandInfo &
  (
    | { settings: false; run(context: CommandContext): Promise<number> }
    | { settings: true; run(context: SettingsContext): Promise<number> }
  );
