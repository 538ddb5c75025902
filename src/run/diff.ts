import { changesInScope, compareDescriptors, withImpact, type DriftReport } from '../diff/index.js';
import { ConfigError } from '../model/errors.js';
import { projectImpact } from './impact.js';
import { resolvePaths, type BaseOptions, type ImpactSettings, type ReviewOptions } from './options.js';
import { lockfileAtRevision, readLockfileSource } from './lockfile-source.js';
import { headSharedCase, withFileNotes } from './file-stems.js';
import { checkPolicy, reportFor } from './report.js';
import { settingsOver } from './run-context.js';
import { messageText, msg } from '../model/message.js';

/** Options of {@link diffLockfiles}. */
export interface DiffOptions extends BaseOptions, ReviewOptions, ImpactSettings {
  /**
   * The base lockfile (the "before"): a path, `-` for standard input, or `<rev>:<path>` (read with
   * `git show`; the path from the repository root). Required unless `against` is given.
   */
  base?: string;
  /** The head lockfile (the "after"), named as `base`. @default the project's lockfile (`lockfile`) */
  head?: string;
  /** The base is the project's own lockfile at this git revision, e.g. `origin/main`. */
  against?: string;
  /** Standard input, for `-`. @default process.stdin */
  stdin?: NodeJS.ReadableStream;
}

/** What {@link diffLockfiles} found. */
export interface DiffResult {
  report: DriftReport;
  /** How the base and head were named (`main:schema-sync.lock.json`, a path, `standard input`). */
  base: string;
  head: string;
  /** The head's absolute path when it is a file (annotations point into it). */
  lockfilePath: string | undefined;
  /** The head's text. */
  lockfileText: string;
  outDir: string;
}

/**
 * Compares two lockfiles with the same rules, acceptances and scope as `check`: the pull-request
 * check "does this lockfile change break anything compared with main?", and between two tags, a
 * changelog. Never touches the network or the output folder. The scope is the given
 * `include`/`exclude`, else the one the head records.
 *
 * @example
 * const { report } = await diffLockfiles({ against: 'origin/main' });
 */
export async function diffLockfiles(options: DiffOptions): Promise<DiffResult> {
  checkPolicy(options);
  const paths = resolvePaths(options);
  if ((options.base === undefined) === (options.against === undefined)) {
    throw new ConfigError(options.base === undefined ? msg`diff needs a base lockfile to compare with.` : msg`diff takes a base lockfile or --against, not both.`, {
      hint: msg`Name the base (a path, - for standard input, or <rev>:<path>), or pass --against <rev> for the project lockfile at that revision.`,
    });
  }
  const headSpec = options.head ?? paths.lockfilePath;
  if (options.base === '-' && headSpec === '-') {
    throw new ConfigError(msg`diff reads standard input once: base and head cannot both be -.`, { hint: msg`Name one of them as a path or <rev>:<path>.` });
  }
  const io = { cwd: paths.cwd, stdin: options.stdin };
  const baseSpec = options.base ?? (await lockfileAtRevision(options.against!, paths.lockfilePath));
  const base = await readLockfileSource(baseSpec, 'base', io);
  const head = await readLockfileSource(headSpec, 'head', io);
  const locked = base.lockfile.parse().messages;
  const fetched = head.lockfile.parse().messages;
  const settings = settingsOver(head.lockfile.settings(), { include: options.include, exclude: options.exclude });
  const changes = withFileNotes(changesInScope(compareDescriptors({ locked, fetched }), { locked, fetched }, { include: settings.include, exclude: settings.exclude }), headSharedCase(base.lockfile, head.lockfile.parse(), settings));
  const rated = reportFor((text) => options.onWarning?.(messageText(text, options.redact)), options, { changes });
  const impact = await projectImpact(paths, options.impact, { before: base.lockfile, after: head.lockfile });
  const report = impact === undefined ? rated : withImpact(rated, impact);
  return { report, base: base.label, head: head.label, lockfilePath: head.path, lockfileText: head.lockfile.text, outDir: paths.outDir };
}
