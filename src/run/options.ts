import { createRedactor, redactError, type Redactor } from '../model/redact.js';
import { resolve } from 'node:path';
import type { KeysTaking, Settings } from '../config/settings.js';
import type { ReviewPolicy } from '../diff/index.js';
import type { FetchEvent, RetryTimers } from '../fetch/index.js';

/** What a run is given besides its settings: where it is, its caches, and whom to tell what happens. */
export interface RunHooks {
  /** Working directory for relative paths. @default process.cwd() */
  cwd?: string;
  /**
   * Folder for machine-local caches that make repeated runs faster (never committed, safe to
   * delete); `false` turns them off. @default `SCHEMA_SYNC_CACHE_DIR`, else the project's
   * `node_modules/.cache/schema-sync`, else a per-user folder in the OS temp folder
   */
  cacheDir?: string | false;
  /** The time, for the caches' record of when a file was verified (tests inject one). @default Date.now */
  clock?: () => number;
  /** Called with warnings (unknown action letters …). */
  onWarning?: (text: string) => void;
  /**
   * The run's one redactor, when the caller has built it already (the CLI, from the same key and
   * secret, so that its own errors and the library's are masked alike).
   * @default built from `apiKey` and `secret`
   */
  redact?: Redactor;
  /** Called as each stage ends (`fetch`, `diff`, `emit`, `write`; `check` first inspects its folder, `verify`) with its wall time, for `--verbose`. */
  onStage?: (stage: string, ms: number) => void;
}

/**
 * Options of `generate`, and what every library entry point shares: the output settings (the
 * settings table's rows that `output` takes, as the config file and the flags name them) and the
 * run's hooks.
 * Paths are resolved against `cwd`.
 */
export type BaseOptions = Pick<Settings, KeysTaking<'output'>> & RunHooks;

/** Reports the time since the previous mark to `onStage`. */
export function stageTimer(onStage: BaseOptions['onStage']): (stage: string) => void {
  let last = performance.now();
  return (stage) => {
    const now = performance.now();
    onStage?.(stage, Math.round(now - last));
    last = now;
  };
}

/**
 * How a report rates and accepts changes (config `rules` and `accept`): a severity or `off` per
 * rule id, and accepted changes keyed on rule id and message glob, with a reason.
 */
export type ReviewOptions = ReviewPolicy;

/**
 * The TypeScript projects whose compile a report checks against the new output (`impact`): `check`,
 * `diff` and `pull` with `dryRun`.
 */
export type ImpactSettings = Pick<Settings, KeysTaking<'impact'>>;

/** Options of the entry points that get a listing (`check`): from the service, or from a saved response (`input`). */
export type SourceOptions = BaseOptions &
  ReviewOptions &
  ImpactSettings &
  Pick<Settings, KeysTaking<'source'>> & {
    /** Network events, for `--verbose`. */
    onFetchEvent?: (event: FetchEvent) => void;
    /** The waits between a request's tries and the clock a `Retry-After` date is read against (tests pass their own). @default real time */
    timers?: RetryTimers;
  };

/** Options of `pull`. */
export type PullOptions = SourceOptions & Pick<Settings, KeysTaking<'pull'>>;

/** Defaults of the output folder and lockfile. */
export const DEFAULT_OUT = 'src/generated/schema';
export const DEFAULT_LOCKFILE = 'schema-sync.lock.json';

/** Absolute paths of a run. */
export interface RunPaths {
  cwd: string;
  outDir: string;
  lockfilePath: string;
}

/** Absolute paths of the output folder and lockfile. */
export function resolvePaths(options: BaseOptions): RunPaths {
  const cwd = options.cwd ?? process.cwd();
  return {
    cwd,
    outDir: resolve(cwd, options.out ?? DEFAULT_OUT),
    lockfilePath: resolve(cwd, options.lockfile ?? DEFAULT_LOCKFILE),
  };
}

/**
 * Runs a library entry point with the run's one redactor (given, or built here from the key and
 * secret) in its options, which pass it on to every stage that meets outside text; whatever stage fails,
 * the key and secret leave in no error message, hint or stack (library callers print them as
 * they are).
 */
export async function redactingSecrets<O extends SourceOptions, T>(options: O, work: (options: O & { redact: Redactor }) => Promise<T>): Promise<T> {
  const redact = options.redact ?? createRedactor([options.apiKey, options.secret]);
  try {
    return await work({ ...options, redact });
  } catch (error) {
    throw redactError(error, redact);
  }
}
