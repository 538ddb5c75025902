import { dirname, relative, resolve, sep } from 'node:path';
import type { SettingDrift } from '../diff/index.js';
import { openIncremental, type Incremental } from '../incremental/index.js';
import { cacheDir } from '../incremental/cache-dir.js';
import { canonicalJson } from '../util/canonical-json.js';
import { ConfigError } from '../model/errors.js';
import type { Settings } from '../config/settings.js';
import { defaultTarget, type GenerationSettings, type Int64Type, type ModuleFormat, type OutputTarget } from '../model/lockfile.js';
import { assertPackageVersion, INITIAL_PACKAGE_VERSION } from '../emit/package-version.js';
import type { Scope } from '../model/scope.js';
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

/** The generation settings a run is given, named as the lockfile records them (`package` as `packageName`, `templates` from the lockfile's folder). */
export type GivenSettings = Omit<GenerationSettings, 'prettier' | 'fields' | 'changelog'> & Pick<Settings, 'prettier' | 'fields'>;

/** Opens a run: resolves its paths and the settings it was given. */
export function openRun(options: BaseOptions): RunContext {
  const paths = resolvePaths(options);
  const templates = options.templates === undefined ? undefined : relative(dirname(paths.lockfilePath), resolve(paths.cwd, options.templates)).split(sep).join('/');
  if (options.packageVersion !== undefined) assertPackageVersion(options.packageVersion);
  const { packageVersion, target, prettier, fields, int64, moduleFormat, include, exclude } = options;
  return {
    paths,
    given: { packageName: options.package, packageVersion, target, prettier, templates: templates === '' ? '.' : templates, fields, int64, moduleFormat, include, exclude },
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
 * The settings a run generates with: each one given, else as recorded. A package always has a
 * version (1.0.0 when none is recorded) and keeps its changelog; a target is recorded only when
 * it is not the default of a package or a plain folder, `int64` only when it is not `number` and
 * `moduleFormat` only when it is not `esm`,
 * so the record holds one spelling of each.
 * An empty `include` / `exclude` given clears the recorded one.
 *
 * @throws ConfigError for a package version without a package.
 */
export function settingsOver(recorded: GenerationSettings, given: GivenSettings): GenerationSettings {
  const packageName = given.packageName ?? recorded.packageName;
  if (packageName === undefined && given.packageVersion !== undefined) {
    throw new ConfigError(msg`A package version (${given.packageVersion}) was given, but the output is no package.`, {
      hint: msg`Pass --package <name> (config "package") as well, or drop --package-version.`,
    });
  }
  const packageVersion = packageName === undefined ? undefined : (given.packageVersion ?? recorded.packageVersion ?? INITIAL_PACKAGE_VERSION);
  const changelog = packageName === undefined ? undefined : recorded.changelog;
  const target = given.target ?? recorded.target;
  const templates = given.templates ?? recorded.templates;
  const int64 = given.int64 ?? recorded.int64;
  const moduleFormat = given.moduleFormat ?? recorded.moduleFormat;
  const include = given.include ?? recorded.include;
  const exclude = given.exclude ?? recorded.exclude;
  return {
    ...(packageName === undefined ? {} : { packageName, packageVersion }),
    ...(changelog === undefined ? {} : { changelog }),
    ...(target === undefined || target === defaultTarget(packageName) ? {} : { target }),
    ...((given.prettier ?? recorded.prettier) === true ? { prettier: true as const } : {}),
    ...(templates === undefined ? {} : { templates }),
    ...((given.fields ?? recorded.fields) === true ? { fields: true as const } : {}),
    ...(int64 === undefined || int64 === 'number' ? {} : { int64 }),
    ...(moduleFormat === undefined || moduleFormat === 'esm' ? {} : { moduleFormat }),
    ...(include === undefined || include.length === 0 ? {} : { include: [...include] }),
    ...(exclude === undefined || exclude.length === 0 ? {} : { exclude: [...exclude] }),
  };
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
 * generation settings resolved for rendering (each one present, the target defaulted, templates
 * and prettier's config found), and a key of them.
 */
export type OutputSettings = { [K in 'packageName' | 'packageVersion' | 'changelog']: GenerationSettings[K] | undefined } & {
  templatesDir: string | undefined;
  target: OutputTarget;
  /** Where prettier's config is resolved from, when the output is formatted. */
  prettierOutDir: string | undefined;
  /** Whether each message type's record interfaces are generated (from its recorded fields). */
  fields: boolean;
  /** How the record types type `Long` and `ULong` fields. */
  int64: Int64Type;
  /** What the project makes of the generated `.ts` files: ES modules or CommonJS. */
  moduleFormat: ModuleFormat;
  /** Which message types are generated. */
  scope: Scope;
};

/** The output settings of recorded generation settings: templates and prettier's folder resolved. */
export function outputSettings(paths: RunPaths, settings: GenerationSettings): OutputSettings {
  const templatesDir = settings.templates === undefined ? undefined : resolve(dirname(paths.lockfilePath), settings.templates);
  const prettierOutDir = settings.prettier ? paths.outDir : undefined;
  const { packageName, packageVersion, changelog } = settings;
  const target = settings.target ?? defaultTarget(packageName);
  const fields = settings.fields === true;
  const int64 = settings.int64 ?? 'number';
  const moduleFormat = settings.moduleFormat ?? 'esm';
  const scope = { include: settings.include, exclude: settings.exclude };
  return { templatesDir, packageName, packageVersion, changelog, target, prettierOutDir, fields, int64, moduleFormat, scope };
}
