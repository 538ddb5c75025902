import { z } from 'zod';
import { SETTING_ROWS, type SettingKey } from '../config/settings.js';
import { SETTINGS, type SettingRow, type Stage } from '../config/settings-table.js';
import { kebab } from '../util/case.js';

/** One flag of a command, as yargs defines it and `--help` shows it. */
export interface FlagSpec {
  /** The flag as typed, without the dashes: `base-url`. yargs also gives it camel-cased (`baseUrl`). */
  flag: string;
  /** The setting the flag gives (flag > environment > file > default); its bounds and messages are the settings schema's. */
  setting?: SettingKey;
  /** What yargs parses the value as; none for a flag that only has `choices`. */
  type?: 'string' | 'number' | 'boolean';
  describe: string;
  group?: string;
  choices?: readonly string[];
  /**
   * A setting that takes a list, one value each time the flag is typed (`--impact a --impact b`).
   * Not a yargs array flag: that would take the positionals after it too.
   */
  repeatable?: boolean;
  /** Left out of `--help` (a flag a command takes only to say it does not apply). */
  hidden?: boolean;
  default?: number;
  demandOption?: boolean;
  /** A path: given as a flag, it resolves against the working directory (`-` stays standard input). */
  path?: boolean;
  /**
   * The library's own check of the option, run before the settings schema's: a flag whose
   * problem the library already words (naming the value) is told in those words.
   */
  check?: (value: string) => void;
}

/**
 * The flag of a setting, from its row of the settings table: `--max-bytes` for `maxBytes`, its
 * description, its group (`Source:` or `Output:`, the part of a run that takes it). A boolean
 * setting is a boolean flag and an enum's values its choices (typed as text where its row says);
 * every other flag is text, read as its setting takes it (`--limit 2.5` is refused in the
 * setting's words, not as the number yargs would make of it). `extra` overrides how it shows in
 * `--help` (a command that says more of it).
 */
export function settingFlag(setting: SettingKey, extra: Partial<Pick<FlagSpec, 'describe' | 'hidden' | 'group'>> = {}): FlagSpec {
  const row: SettingRow = SETTINGS[setting];
  const flag = row.flag;
  if (flag === undefined) throw new Error(`the setting ${setting} has no flag`);
  const schema = row.schema;
  const fromSchema: Pick<FlagSpec, 'type' | 'choices'> =
    schema instanceof z.ZodBoolean
      ? { type: 'boolean' }
      : schema instanceof z.ZodEnum
        ? { ...(flag.text ? { type: 'string' as const } : {}), choices: schema.options.map(String) }
        : { type: 'string' };
  const group = row.takes.includes('source') ? SOURCE_GROUP : row.takes.includes('output') ? OUTPUT_GROUP : undefined;
  return {
    flag: flag.name ?? kebab(setting),
    setting,
    describe: flag.describe,
    ...fromSchema,
    ...(group === undefined ? {} : { group }),
    ...(flag.repeatable ? { repeatable: true } : {}),
    ...(flag.path ? { path: true } : {}),
    ...(flag.check === undefined ? {} : { check: flag.check }),
    ...extra,
  };
}

const SOURCE_GROUP = 'Source:';
const OUTPUT_GROUP = 'Output:';

/** The flags of the settings a part of a run takes, in the table's order. */
function flagsTaking(stage: Stage): FlagSpec[] {
  return SETTING_ROWS.filter((row) => row.flag !== undefined && row.takes.includes(stage)).map((row) => settingFlag(row.key));
}

/** Where the listing comes from: `pull` and `check`. */
export const SOURCE_FLAGS: readonly FlagSpec[] = flagsTaking('source');

/** The output folder, the lockfile and the generated code: `pull`, `check` and `generate`. */
export const OUTPUT_FLAGS: readonly FlagSpec[] = flagsTaking('output');

/** What only `pull` takes: `--dry-run`, `--allow-empty`, `--force`. */
export const PULL_FLAGS: readonly FlagSpec[] = flagsTaking('pull');

/**
 * `--format`, the report format (setting `report`, which the CLI reads apart: it decides how even
 * a usage error is told). It takes one value (an array flag would take the positionals after it
 * too: `diff --format markdown <base> <head>`); typed more than once, yargs gives every value, to
 * be refused with a clear message. `hidden` for a command that takes it only to say it does not
 * apply.
 */
export function reportFlag(hidden = false): FlagSpec {
  const { setting: _report, ...flag } = settingFlag('report');
  return { ...flag, type: 'string', choices: undefined, hidden };
}

/** `--impact <tsconfig>` (repeatable): `check`, `diff` and `pull --dry-run`. */
export function impactFlag(): FlagSpec {
  return settingFlag('impact');
}

/** Flags of every command: they say how the CLI behaves, not what a run does. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { flag: 'config', type: 'string', describe: 'Config file (default: schema-sync.config.json, .mjs or .js, searched from here up to the repository root)' },
  { flag: 'quiet', type: 'boolean', describe: 'Print only errors' },
  { flag: 'verbose', type: 'boolean', describe: 'Print request details and timings' },
  { flag: 'color', type: 'boolean', describe: 'Colour output (--no-color to disable)' },
];
