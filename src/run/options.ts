import { createRedactor, redactError } from '../model/redact.js';
import { resolve } from 'node:path';
import type { FetchEvent, ListingQuery } from '../fetch/index.js';
import type { OutputTarget } from '../model/lockfile.js';
import type { ReviewPolicy } from '../diff/index.js';
import type { ScopeRule } from '../model/scope.js';

/** Options every library entry point shares. Paths are resolved against `cwd`. */
export interface BaseOptions {
  /** Working directory for relative paths. @default process.cwd() */
  cwd?: string;
  /** Output folder of the generated TypeScript. @default "src/generated/schema" */
  out?: string;
  /** Lockfile path. @default "schema-sync.lock.json" */
  lockfile?: string;
  /** Folder whose templates override the built-in ones. */
  templates?: string;
  /** Also write package.json, README.md and CHANGELOG.md under this package name. */
  packageName?: string;
  /**
   * The package's version (`x.y.z`), instead of the recorded one, and instead of the bump a pull
   * that changes the listing would make. @default as recorded, else 1.0.0
   */
  packageVersion?: string;
  /**
   * What the output is written as: `ts` (TypeScript modules) or `js+dts` (ES modules with
   * declaration files that keep every literal type). @default as recorded, else "js+dts" for a package and "ts" otherwise
   */
  target?: OutputTarget;
  /** Format generated files with prettier (config resolved from the output folder). @default false */
  prettier?: boolean;
  /**
   * Fetch each message type's field descriptors (`cmd=getschema`, only for types whose
   * `schemaHash` is new or changed), record them in the lockfile and generate record types.
   * @default as the lockfile records, else false
   */
  fields?: boolean;
  /**
   * Generate (and watch for drift) only the message types that match one of these: name globs
   * (`*`, `?`) or `{ mToken }` (a glob of the token). Recorded in the lockfile; `[]` clears a
   * recorded list. Excluded types stay in the lockfile. @default as recorded, else every type
   */
  include?: ScopeRule[];
  /** Leave out the message types that match one of these (same entries as `include`). @default as recorded, else none */
  exclude?: ScopeRule[];
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
  /** Called as each stage ends (`fetch`, `diff`, `emit`, `write`; `check` first inspects its folder, `verify`) with its wall time, for `--verbose`. */
  onStage?: (stage: string, ms: number) => void;
}

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

/** Options of the entry points that get a listing: from the service, or from a saved response. */
export interface SourceOptions extends BaseOptions, ReviewOptions {
  /** Service base URL; required unless `input` is given. */
  baseUrl?: string;
  /** A saved `/rest/proto` response to read instead of the network (`-` = standard input). */
  input?: string;
  /** Query parameters, each sent only when set. */
  query?: ListingQuery;
  /** API key (never recorded, always redacted). */
  apiKey?: string;
  /** Secret (never recorded, always redacted). */
  secret?: string;
  /** Milliseconds for one request. @default 30000 */
  timeoutMs?: number;
  /** Retries on connection errors, 429, 502, 503, 504. @default 3 */
  retries?: number;
  /** Most bytes of the answer (once decompressed) or of `input` read before the run fails. @default 268435456 (256 MiB) */
  maxBytes?: number;
  /** Accept a listing that fills `limit`. @default false */
  allowTruncated?: boolean;
  /** Network events, for `--verbose`. */
  onFetchEvent?: (event: FetchEvent) => void;
}

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
 * Runs a library entry point so that whatever stage fails, the key and secret leave in no
 * error message, hint or stack (library callers print them as they are).
 */
export async function redactingSecrets<T>(options: SourceOptions, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw redactError(error, createRedactor([options.apiKey, options.secret]));
  }
}
