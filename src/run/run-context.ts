import { dirname, relative, resolve, sep } from 'node:path';
import type { SettingDrift } from '../diff/index.js';
import { openIncremental, type Incremental } from '../incremental/index.js';
import { cacheDir } from '../incremental/cache-dir.js';
import { canonicalJson } from '../util/canonical-json.js';
import { ConfigError } from '../model/errors.js';
import { SETTING_ROWS, type RecordedKey, type Settings } from '../config/settings.js';
import type { GenerationSettings } from '../model/lockfile.js';
import { assertPackageVersion, INITIAL_PACKAGE_VERSION } from '../emit/package-version.js';
import type { PlanSettings } from '../emit/index.js';
import { resolvePaths, type BaseOptions, type RunHooks, type RunPaths } from './options.js';
import { messageText, msg, type Message } from '../model/message.js';

/**
 * What every command works with: where things are, the settings it was given, and where its
 * warnings go. A command opens what else it uses itself (the cache, {@link openRunCache}; the
 * stage timer, `stageTimer`) and passes it where it is needed.
 */
export interface RunContext {
  paths: RunPaths;
  /** The generation settings this run was given (flags, environment, config); the rest come from the lockfile. */
  given: GivenSettings;
  /** Reports a warning. */
  warn(text: Message): void;
  /** The run's one redactor, over outside text the run reads itself (templates). */
  redact: (text: string) => string;
}

/** The generation settings a run is given (flags, environment, config; `templates` relative to the lockfile's folder): the settings table's recorded rows. */
export type GivenSettings = Pick<Settings, RecordedKey>;

/** The rows the lockfile records, in the table's order. */
const RECORDED_ROWS = SETTING_ROWS.filter((row) => row.recorded !== undefined);

/** Opens a run: resolves its paths and the settings it was given. */
export function openRun(options: BaseOptions): RunContext {
  const paths = resolvePaths(options);
  if (options.packageVersion !== undefined) assertPackageVersion(options.packageVersion);
  const given: Record<string, unknown> = {};
  for (const row of RECORDED_ROWS) {
    const value = options[row.key as keyof BaseOptions];
    // A path the lockfile records is relative to its folder, so that it means the same folder wherever a run is started.
    given[row.key] = row.recorded!.path && typeof value === 'string' ? relative(dirname(paths.lockfilePath), resolve(paths.cwd, value)).split(sep).join('/') || '.' : value;
  }
  return {
    paths,
    given: given as GivenSettings,
    // Warnings quote what the server sent: their values are masked where they leave the library.
    warn: (text) => options.onWarning?.(messageText(text, options.redact)),
    redact: options.redact ?? ((text) => text),
  };
}

/**
 * The cache of the run's output folder, in the cache folder given (`cacheDir`), else the one
 * `SCHEMA_SYNC_CACHE_DIR` or the project names; the plain path, which knows nothing, when
 * `cacheDir` is false or the environment turns caching off.
 */
export function openRunCache(run: RunContext, options: Pick<RunHooks, 'cacheDir' | 'clock'>): Incremental {
  const folder = options.cacheDir === false ? undefined : (options.cacheDir ?? cacheDir(process.env, run.paths.cwd));
  return openIncremental(run.paths.outDir, folder, options.clock);
}

/**
 * The settings a run generates with: each one given, else as recorded, a loop over the settings
 * table's recorded rows; a value that is its row's `unrecorded` (the default it is generated with
 * anyway) is not recorded, so the record holds one spelling of each (an empty `include` /
 * `exclude` given clears the recorded one). A package always has a version (1.0.0 when none is
 * recorded) and keeps its changelog; a version without a package is refused.
 *
 * @throws ConfigError for a package version without a package.
 */
export function settingsOver(recorded: GenerationSettings, given: GivenSettings): GenerationSettings {
  const over: Record<string, unknown> = {};
  for (const row of RECORDED_ROWS) {
    const value = given[row.key as RecordedKey] ?? recorded[row.key as RecordedKey];
    if (value !== undefined && (row.recorded!.unrecorded === undefined || canonicalJson(value) !== canonicalJson(unrecordedValue(row, over)))) over[row.key] = value;
  }
  const settings = over as GenerationSettings;
  if (settings.package === undefined) {
    if (given.packageVersion !== undefined) {
      throw new ConfigError(msg`A package version (${given.packageVersion}) was given, but the output is no package.`, {
        hint: msg`Pass --package <name> (config "package") as well, or drop --package-version.`,
      });
    }
    delete settings.packageVersion;
    return settings;
  }
  settings.packageVersion ??= INITIAL_PACKAGE_VERSION;
  return recorded.changelog === undefined ? settings : { ...settings, changelog: recorded.changelog };
}

/** Whether two records of the settings are the same. */
export function sameSettings(a: GenerationSettings, b: GenerationSettings): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * The settings given (flags, config) that differ from the recorded ones, by name (compared as
 * JSON): what `check` reports as "settings differ". Settings not given are never reported.
 */
export function settingsDiffer(recorded: GenerationSettings, given: GivenSettings): SettingDrift[] {
  const wanted = settingsOver(recorded, given) as Record<string, unknown>;
  const was = recorded as Record<string, unknown>;
  return Object.keys(given)
    .filter((key) => (given as Record<string, unknown>)[key] !== undefined && canonicalJson(was[key]) !== canonicalJson(wanted[key]))
    .map((setting) => ({ setting, recorded: was[setting], given: wanted[setting] }));
}

/**
 * Everything besides the lockfile's descriptors that decides the generated bytes: the recorded
 * generation settings as the plan takes them (templates and prettier's config found, the scope),
 * and where prettier's config is resolved from when the output is formatted.
 */
export type OutputSettings = PlanSettings & {
  /** Where prettier's config is resolved from, when the output is formatted. */
  prettierOutDir: string | undefined;
};

/**
 * The output settings of recorded generation settings: templates and prettier's folder resolved,
 * the scope as recorded, and every other setting as recorded or, where none is, its default (the
 * value its row does not record: `target` by the package, `int64` `number`, `moduleFormat` `esm` …).
 */
export function outputSettings(paths: RunPaths, settings: GenerationSettings): OutputSettings {
  const { templates, prettier, include, exclude, ...recorded } = settings;
  const planned: Record<string, unknown> = { ...recorded };
  for (const row of RECORDED_ROWS) {
    if (!(row.key in PLAIN_KEYS) && planned[row.key] === undefined) planned[row.key] = unrecordedValue(row, planned);
  }
  const templatesDir = templates === undefined ? undefined : resolve(dirname(paths.lockfilePath), templates);
  return { ...(planned as PlanSettings), templatesDir, prettierOutDir: prettier ? paths.outDir : undefined, scope: { include, exclude } };
}

/** The recorded settings the plan takes in another form than recorded: the templates' folder, prettier's, the scope. */
const PLAIN_KEYS = { templates: true, prettier: true, include: true, exclude: true } as const satisfies Partial<Record<RecordedKey, true>>;

/** The value a recorded row does not record (its default), given the settings resolved so far in the table's order. */
function unrecordedValue(row: (typeof RECORDED_ROWS)[number], settings: Record<string, unknown>): unknown {
  const { unrecorded } = row.recorded!;
  return typeof unrecorded === 'function' ? (unrecorded as (settings: Record<string, unknown>) => unknown)(settings) : unrecorded;
}
