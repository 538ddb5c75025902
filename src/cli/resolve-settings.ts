import { dirname, resolve } from 'node:path';
import { noConfigFound } from '../config/find-config.js';
import { loadConfig, type LoadedConfig } from '../config/load-config.js';
import { environmentLayer, mergeSettings, readLayer, SETTING_VARIABLES } from '../config/merge-settings.js';
import type { SchemaSyncConfig } from '../config/schema.js';
import type { MergedSettings, Settings } from '../config/settings.js';
import type { ReportFormat } from '../diff/index.js';
import { cacheDir } from '../incremental/cache-dir.js';
import { ConfigError, LockError, type SchemaSyncError } from '../model/errors.js';
import type { FlagSpec } from './flags.js';
import type { CliIo } from './io.js';
import type { ParsedArgs } from './parsed-args.js';
import { msg, own as ownText, type Message } from '../model/message.js';
import type { z } from 'zod';
import { SETTINGS } from '../config/settings-table.js';
import { valueOfText } from '../config/setting-values.js';

/** The settings of a run, and what the CLI adds for the library: the project root, the cache folder. */
export interface ResolvedSettings {
  settings: MergedSettings;
  /** The project root: the config file's folder, else the working directory; the library's `cwd`. */
  cwd: string;
  /** From the CLI's environment (`SCHEMA_SYNC_CACHE_DIR`), not the process's: an in-process run (tests) gets the one it was given. */
  cacheDir: string | false;
  /** Config-discovery notes and deprecations, for the CLI to print as warnings. */
  warnings: Message[];
  /** The config file the run used, or where the search found none. */
  config: ConfigUsed;
}

/** The config file a run used (`path`), and where the upward search looked (none with `--config`). */
export type ConfigUsed = Pick<LoadedConfig, 'path' | 'searched'>;

/** The `--verbose` line that says which config file a command used: `config: /abs/schema-sync.config.json`. */
export function configLine(config: ConfigUsed): string {
  if (config.path !== undefined) return `config: ${config.path}`;
  return config.searched === undefined ? 'config: none' : `config: none found (searched ${config.searched.from} up to ${config.searched.to})`;
}

/**
 * A run that lacks a needed setting (a {@link ConfigError} naming it) or finds no lockfile, and
 * found no config file, says where it looked: the user may well have one, in a folder the search
 * does not reach (e.g. a command run in a subfolder of the project).
 */
export function withConfigSearch(error: unknown, config: ConfigUsed | undefined): unknown {
  if (config?.path !== undefined || config?.searched === undefined) return error;
  const searched = config.searched;
  const noted = (said: SchemaSyncError['said']) => msg`${said.message}\n  ${noConfigFound(searched)}.`;
  if (error instanceof ConfigError && error.setting !== undefined) return new ConfigError(noted(error.said), { hint: error.said.hint, cause: error, setting: error.setting });
  if (error instanceof LockError && error.missing) return new LockError(noted(error.said), { hint: error.said.hint, cause: error, missing: true });
  return error;
}

/**
 * The settings of a run, merged once: the command's flags over the environment over the config
 * file over the defaults, each validated by the settings schema (a flag is refused as its config
 * key is). `report` is what `--format` gave. The config file's folder is the project root:
 * relative paths in the file and the default paths resolve against it; paths given as flags
 * resolve against the working directory.
 */
export async function resolveSettings(flags: readonly FlagSpec[], args: ParsedArgs, report: ReportFormat | undefined, io: CliIo): Promise<ResolvedSettings> {
  const loaded = await loadConfig({ cwd: io.cwd, explicit: args.string('config') });
  const root = loaded.path === undefined ? io.cwd : dirname(loaded.path);
  const file = fileSettings(loaded.config, loaded.path);
  const help = `Run schema-sync ${args.command} --help.`;
  const own = new Set<string>(flags.flatMap((flag) => (flag.setting === undefined ? [] : [flag.setting])));
  const environment = readLayer(environmentLayer(io.env, own), ownText(`Set ${Object.values(SETTING_VARIABLES).join(', ')} to valid values, or unset them.`));
  const given = readLayer(flagLayer(flags, args, io.cwd, report), ownText(help));
  const settings = mergeSettings(file.settings, environment, given);
  return { settings, cwd: root, cacheDir: cacheDir(io.env, root) ?? false, warnings: [...loaded.warnings, ...file.warnings], config: { path: loaded.path, searched: loaded.searched } };
}

/**
 * What the flags give: each flag of a setting that was typed, read as its setting takes text (a
 * whole number's digits as the number) and checked by the library's own check first, if it has
 * one; a path resolved against the working directory.
 */
function flagLayer(flags: readonly FlagSpec[], args: ParsedArgs, cwd: string, report: ReportFormat | undefined) {
  const given: Record<string, unknown> = { report };
  const names: Record<string, string> = { report: '--format' };
  for (const spec of flags) {
    if (spec.setting === undefined) continue;
    const schema: z.ZodType = SETTINGS[spec.setting].schema;
    const read = (value: unknown) => (typeof value !== 'string' ? value : spec.path && value !== '-' ? resolve(cwd, value) : valueOfText(schema, value));
    const value = args.value(spec.flag);
    if (typeof value === 'string') spec.check?.(value);
    // A flag that may be given more than once is a list of what was given (none: unset).
    const list = spec.repeatable ? args.strings(spec.flag) : undefined;
    given[spec.setting] = list !== undefined ? (list.length === 0 ? undefined : list.map(read)) : read(value);
    names[spec.setting] = `--${spec.flag}`;
  }
  return { given, name: (key: string) => names[key] ?? key, title: 'invalid flags' };
}

/** The settings a config file gives, and what its deprecated `format` says (with a warning to move). */
function fileSettings(config: SchemaSyncConfig, path: string | undefined): { settings: Partial<Settings>; warnings: Message[] } {
  const { $schema, format, ...settings } = config;
  if (format === undefined) return { settings, warnings: [] };
  const replacement = format === 'prettier';
  if (config.prettier !== undefined && config.prettier !== replacement) {
    throw new ConfigError(msg`config file ${path ?? ''} says "format": "${format}" and "prettier": ${config.prettier}, which contradict each other.`, {
      hint: msg`Remove "format"; "prettier" replaces it.`,
    });
  }
  return {
    settings: { ...settings, prettier: replacement },
    warnings: [msg`"format": "${format}" in ${path ?? ''} is deprecated and will be removed in the next release: use "prettier": ${replacement}.`],
  };
}

/** The secrets given by flag or environment (a config file never holds one): known before anything else is read, so even a usage error is redacted. */
export function secretsOf(args: ParsedArgs, env: NodeJS.ProcessEnv): string[] {
  return [args.string('api-key'), args.string('secret'), ...[SETTING_VARIABLES.apiKey, SETTING_VARIABLES.secret].map((name) => (name === undefined ? undefined : env[name]))].filter(
    (secret): secret is string => typeof secret === 'string' && secret.length > 0,
  );
}
