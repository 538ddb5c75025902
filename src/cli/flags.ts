import { settingsSchema, type SettingKey } from '../config/settings.js';
import { assertPackageVersion } from '../emit/package-version.js';
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
 * The flag of a setting: `--max-bytes` for `maxBytes`. Its value type and choices are the settings
 * schema's (a number setting is a number flag, an enum's values its choices); `extra` adds how
 * it shows in `--help`.
 */
export function settingFlag(setting: SettingKey, describe: string, extra: Omit<FlagSpec, 'flag' | 'setting' | 'describe'> = {}): FlagSpec {
  const inner = settingsSchema.shape[setting].unwrap();
  const fromSchema: Pick<FlagSpec, 'type' | 'choices'> =
    inner.type === 'number' || inner.type === 'boolean' ? { type: inner.type } : inner.type === 'enum' ? { choices: Object.values(inner.def.entries) } : { type: 'string' };
  return { flag: kebab(setting), setting, describe, ...fromSchema, ...extra };
}

const SOURCE_GROUP = 'Source:';
const OUTPUT_GROUP = 'Output:';

/** Where the listing comes from: `pull` and `check`. */
export const SOURCE_FLAGS: readonly FlagSpec[] = [
  settingFlag('baseUrl', 'Service base URL (env SCHEMA_SYNC_BASE_URL); /rest/proto is appended', { group: SOURCE_GROUP }),
  settingFlag('input', 'Read a saved /rest/proto response (file, or - for stdin) instead of the network', { group: SOURCE_GROUP, path: true }),
  settingFlag('apiKey', 'API key (prefer env SCHEMA_SYNC_API_KEY); never printed or stored', { group: SOURCE_GROUP }),
  settingFlag('secret', 'Secret (prefer env SCHEMA_SYNC_SECRET); never printed or stored', { group: SOURCE_GROUP }),
  settingFlag('cmd', 'Query parameter cmd, e.g. getmsgtypes', { group: SOURCE_GROUP }),
  settingFlag('msgType', 'Query parameter msgType (name or number)', { group: SOURCE_GROUP }),
  settingFlag('pkey', 'Query parameter pkey', { group: SOURCE_GROUP }),
  settingFlag('limit', 'Query parameter limit (1..10000)', { group: SOURCE_GROUP }),
  settingFlag('view', 'Query parameter view', { group: SOURCE_GROUP }),
  settingFlag('where', 'Query parameter where, e.g. mToken:ne:SystemData', { group: SOURCE_GROUP }),
  settingFlag('order', 'Query parameter order', { group: SOURCE_GROUP }),
  settingFlag('timeout', 'Milliseconds for one request (default 30000)', { group: SOURCE_GROUP }),
  settingFlag('retries', 'Retries on connection errors, 429, 502-504 (default 3)', { group: SOURCE_GROUP }),
  settingFlag('maxBytes', 'Most bytes of answer (decompressed) or --input read (default 33554432, 32 MiB)', { group: SOURCE_GROUP }),
  settingFlag('allowTruncated', 'Accept a listing that fills --limit', { group: SOURCE_GROUP }),
];

/** The output folder, the lockfile and the generated code: `pull`, `check` and `generate`. */
export const OUTPUT_FLAGS: readonly FlagSpec[] = [
  settingFlag('out', 'Output folder (default src/generated/schema)', { group: OUTPUT_GROUP, path: true }),
  settingFlag('lockfile', 'Lockfile (default schema-sync.lock.json)', { group: OUTPUT_GROUP, path: true }),
  settingFlag('templates', 'Folder overriding the built-in templates', { group: OUTPUT_GROUP, path: true }),
  settingFlag('package', 'Also write package.json, README.md and CHANGELOG.md for this package name', { group: OUTPUT_GROUP }),
  settingFlag('packageVersion', "The package's version x.y.z (default: as recorded, bumped by each pull that changes the listing)", { group: OUTPUT_GROUP, check: assertPackageVersion }),
  settingFlag('target', 'Write TypeScript (ts), or ES modules with declarations (js+dts; default for a package)', { group: OUTPUT_GROUP, type: 'string' }),
  settingFlag('lockWait', 'Milliseconds to wait for another run on the same output folder (default 30000)', { group: OUTPUT_GROUP }),
  settingFlag('prettier', 'Format the generated code with prettier (or --no-prettier)', { group: OUTPUT_GROUP }),
  settingFlag('fields', 'Fetch field descriptors (getschema) of new or changed types and generate record types (or --no-fields)', { group: OUTPUT_GROUP }),
  settingFlag('int64', 'How record types type Long and ULong fields: number (default; loses precision beyond 2^53), bigint or string', { group: OUTPUT_GROUP, type: 'string' }),
  settingFlag('moduleFormat', 'Module format of the generated TypeScript in your build: esm (default), commonjs (tsc compiles it to require/exports) or mts (.mts ES modules)', { group: OUTPUT_GROUP, type: 'string' }),
];

/**
 * `--format`, the report format (setting `report`). It takes one value (an array flag would take
 * the positionals after it too: `diff --format markdown <base> <head>`); typed more than once,
 * yargs gives every value, to be refused with a clear message. `hidden` for a command that takes
 * it only to say it does not apply.
 */
export function reportFlag(hidden = false): FlagSpec {
  return { flag: 'format', type: 'string', hidden, describe: 'Report format: text (default), json, markdown or github' };
}

/** `--impact <tsconfig>` (repeatable): `check`, `diff` and `pull --dry-run`. */
export function impactFlag(): FlagSpec {
  return settingFlag('impact', 'Type-check this TypeScript project (tsconfig) against the new generated output and report which changes break it (repeatable; nothing is written)', {
    type: 'string',
    repeatable: true,
    path: true,
  });
}

/** Flags of every command: they say how the CLI behaves, not what a run does. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { flag: 'config', type: 'string', describe: 'Config file (default: schema-sync.config.json, .mjs or .js, searched from here up to the repository root)' },
  { flag: 'quiet', type: 'boolean', describe: 'Print only errors' },
  { flag: 'verbose', type: 'boolean', describe: 'Print request details and timings' },
  { flag: 'color', type: 'boolean', describe: 'Colour output (--no-color to disable)' },
];
