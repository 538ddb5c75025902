import { withImpact, type DriftReport } from '../diff/index.js';
import { lockfileMovedWarning, lockfileStamp, openFolderView, openStaging, withRunLock, type FolderView, type WriteResult } from '../write/index.js';
import { acquireListing, type Answer } from './acquire-listing.js';
import { answerDrift, answerFacts, elementFacts } from './diff-answer.js';
import type { Incremental } from '../incremental/index.js';
import { redactingSecrets, stageTimer, type PullOptions } from './options.js';
import { projectImpact } from './impact.js';
import { lockfileFacts, readLockfile } from './read-lockfile.js';
import { packageSummary, releasePackage, type PackageRelease } from './release.js';
import { checkPolicy, reportFor } from './report.js';
import { outputChanges, outputFacts, writeOutput } from './output.js';
import { openRun, openRunCache, settingsOver, type RunContext } from './run-context.js';
import { msg } from '../model/message.js';

export type { PullOptions } from './options.js';

/** What {@link pull} did. */
export interface PullResult {
  /** What changed against the lockfile (staleFiles lists nothing for pull). */
  report: DriftReport;
  /** Number of message types in the new listing. */
  messageCount: number;
  /** Whether no lockfile was found: this pull locks every type for the first time. */
  firstLock: boolean;
  /** What was written; undefined for a dry run. */
  write: WriteResult | undefined;
  outDir: string;
  lockfilePath: string;
  /**
   * The lockfile's text as the pull leaves the file (its entries' lines are where annotations
   * point); undefined when there is none.
   */
  readonly lockfileText: string | undefined;
  /** The package the output folder is (its version after this pull, and before when it changed); undefined for a plain folder. */
  package?: PackageRelease | undefined;
}

/**
 * fetch → diff → plan and render what is stale → write the files and the lockfile. The listing is
 * fetched and validated before anything is touched, and the folder and lockfile change together
 * in one transaction, so a failed or interrupted pull leaves them as they were (or, past its
 * commit point, as it would have).
 */
export async function pull(options: PullOptions): Promise<PullResult> {
  return redactingSecrets(options, async (options) => {
    checkPolicy(options);
    const run = openRun(options);
    const tools = { cache: openRunCache(run, options), mark: stageTimer(options.onStage) };
    const answer = await acquireListing(run, options);
    if (options.dryRun) return previewPull(run, tools, await openFolderView(run.paths.outDir), answer, options);
    return withRunLock(run.paths.outDir, (view, interrupt) => writePull(run, tools, view, answer, options, interrupt), { lockfilePath: run.paths.lockfilePath, waitMs: options.lockWait, warn: run.warn });
  });
}

/** What a pull opens besides its run: the cache, and the stage timer (`--verbose`). */
interface PullTools {
  cache: Incremental;
  mark: (stage: string) => void;
}

/** What a pull would change (`dryRun`), in a read-only view of the folder: nothing is written. */
async function previewPull(run: RunContext, tools: PullTools, view: FolderView, answer: Answer, options: PullOptions): Promise<PullResult> {
  const { found, fetched, result } = await diffPull(run, tools, view, answer, options);
  const impact = await projectImpact(run.paths, options.impact, { before: found?.lockfile, after: fetched });
  if (impact !== undefined) tools.mark('impact');
  return { ...result, ...(impact !== undefined && { report: withImpact(result.report, impact) }), lockfileText: found?.text, write: undefined };
}

/** The pull, under the run lock: the stale files and the lockfile written in one transaction. */
async function writePull(run: RunContext, tools: PullTools, view: FolderView, answer: Answer, options: PullOptions, interrupt: AbortSignal): Promise<PullResult> {
  const { cache, mark } = tools;
  const { found, after, answered, lockfileUnchanged, result } = await diffPull(run, tools, view, answer, options);
  const staging = openStaging(run.paths.outDir);
  const output = await outputChanges(run, cache, view, { before: found?.lockfile, after }, staging);
  // The folder was generated from another lockfile than the one found: another run (most likely
  // one for another output folder sharing it) rewrote it since, and this pull builds on that.
  const generatedFrom = output.found?.lockfile();
  // A pull that keeps the lockfile found (the same text) has its stamp already: a hash of all of it.
  if (found !== undefined && found.conflictAt === undefined && generatedFrom !== undefined && generatedFrom !== (found.lockfile.hash === after.hash ? output.lockfileStamp : lockfileStamp(found.lockfile))) {
    run.warn(lockfileMovedWarning(run.paths.lockfilePath, run.paths.outDir));
  }
  mark('emit');
  const { write, manifest } = await writeOutput(run, view, { output, staging, writeLockfile: lockfileUnchanged ? undefined : after, interrupt });
  mark('write');
  // The answer makes the released lockfile: that is the one the next run finds.
  cache.remember({ answer: answerFacts(answer, after, answered), elements: elementFacts(answer, after, answered), lockfile: lockfileFacts(after), ...outputFacts(output, manifest) });
  return { ...result, lockfileText: after.text, write };
}

/**
 * What both kinds of pull do first: read the lockfile, fetch the schemas (fields on), diff the
 * answer against it (with the safety rails), report, and release the package.
 */
async function diffPull(run: RunContext, tools: PullTools, view: FolderView, answer: Answer, options: PullOptions) {
  const found = await readLockfile(run, tools.cache, view);
  if (found?.conflictAt !== undefined) {
    run.warn(msg`${run.paths.lockfilePath} has git merge conflict markers (line ${found.conflictAt}): your branch's side is the baseline, and this pull writes a clean lockfile.`);
  }
  const before = found?.lockfile;
  const settings = settingsOver(before?.settings() ?? {}, run.given);
  const drift = await answerDrift(run, tools, answer, before, settings, { ...options, rails: { allowEmpty: options.allowEmpty, force: options.force } });
  // The report as the project rates it (scope, rules, acceptances) is what the package release carries.
  const report = reportFor(run.warn, options, { changes: drift.changes });
  const after = releasePackage(drift.after, before, run.given.packageVersion, report);
  tools.mark('diff');
  return {
    found,
    after,
    fetched: drift.after,
    // A lockfile with conflict markers is rewritten clean even when its entries do not change.
    lockfileUnchanged: after.hash === before?.hash && found?.conflictAt === undefined,
    answered: { messageCount: drift.messageCount, warnings: drift.warnings, elementNames: drift.elementNames },
    result: { report, messageCount: drift.messageCount, firstLock: found === undefined, outDir: run.paths.outDir, lockfilePath: run.paths.lockfilePath, package: packageSummary(before, after) },
  };
}
