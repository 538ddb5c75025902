import type { LockfileText } from '../lock/index.js';
import { compareStrings } from '../model/descriptor.js';
import { WriteError } from '../model/errors.js';
import { withImpact, type DriftReport, type StaleFile } from '../diff/index.js';
import { folderStamp, openFolderView, waitForLiveRun, type FolderView } from '../write/index.js';
import { acquireListing } from './acquire-listing.js';
import { outputChanges, outputFacts, userFilesWarning, type OutputChanges } from './output.js';
import { answerDrift, answerFacts } from './diff-answer.js';
import type { Incremental } from '../incremental/index.js';
import { projectImpact } from './impact.js';
import { redactingSecrets, stageTimer, type SourceOptions } from './options.js';
import { lockfileFacts, requireLockfile } from './read-lockfile.js';
import { checkPolicy, reportFor } from './report.js';
import { openRun, openRunCache, settingsDiffer, type RunContext } from './run-context.js';
import { msg } from '../model/message.js';

/** What {@link check} found. */
export interface CheckResult {
  report: DriftReport;
  messageCount: number;
  outDir: string;
  lockfilePath: string;
  /** The lockfile's text, as checked. */
  lockfileText: string;
}

/**
 * Compares the output folder with what the lockfile generates, then fetches and diffs the
 * listing against the lockfile; generation settings given that differ from the recorded ones
 * are drift too ("settings differ"). Only the message types in the recorded scope are reported. Writes nothing, ever: a
 * folder with a pending interrupted run is an error (finish it with `generate`), never reported
 * as in sync.
 */
export async function check(options: SourceOptions): Promise<CheckResult> {
  return redactingSecrets(options, async (options) => {
    checkPolicy(options);
    const run = openRun(options);
    const cache = openRunCache(run, options);
    const mark = stageTimer(options.onStage);
    const folder = await inspectFolder(run, cache);
    mark('verify');
    const answer = await acquireListing(run, options);
    const settings = folder.lockfile.settings();
    const drift = await answerDrift(run, { cache, mark }, answer, folder.lockfile, settings, options);
    mark('diff');
    cache.remember({
      answer: answerFacts(answer, drift.after, drift),
      lockfile: lockfileFacts(folder.lockfile),
      ...(folder.staleFiles.length === 0 ? outputFacts(folder.output, folder.output.found) : {}),
    });
    // Settings given (flags, config) that differ from the recorded ones are drift of their own.
    const report = reportFor(run.warn, options, { changes: drift.changes, staleFiles: folder.staleFiles, settingsDiffer: settingsDiffer(settings, run.given) });
    const impact = await projectImpact(run.paths, options.impact, { before: folder.lockfile, after: drift.after });
    if (impact !== undefined) mark('impact');
    return { report: impact === undefined ? report : withImpact(report, impact), messageCount: drift.messageCount, outDir: run.paths.outDir, lockfilePath: run.paths.lockfilePath, lockfileText: folder.lockfile.text };
  });
}

/** How often {@link inspectFolder} reads a folder that changes under it before it gives up. */
const INSPECTIONS = 5;

/**
 * The lockfile, and the files that are not what it generates, as one state of the folder: a run
 * that writes the folder meanwhile (it always creates its transaction folder there, and renames the
 * lockfile) changes the folder's or the lockfile's stat, and then the folder is read again.
 * `openView` is `openFolderView`; a test passes one whose reads let another run commit between them.
 */
export async function inspectFolder(
  run: RunContext,
  cache: Incremental,
  openView: (outDir: string) => Promise<FolderView> = openFolderView,
): Promise<{ lockfile: LockfileText; output: OutputChanges; staleFiles: StaleFile[] }> {
  for (let inspection = 1; ; inspection++) {
    const stamp = folderStamp(run.paths.outDir, run.paths.lockfilePath);
    const view = await openView(run.paths.outDir);
    if (view.pending) {
      // A live run past its commit point finishes in moments: read the folder it leaves. Only a
      // journal no live run holds the lock for is an interrupted run.
      const other = await waitForLiveRun(run.paths.outDir);
      if (other === 'released' && inspection < INSPECTIONS) continue;
      if (other === 'free') {
        throw new WriteError(msg`an interrupted run is pending in ${run.paths.outDir}: the folder is neither as before it nor as after it yet.`, {
          hint: msg`Run \`schema-sync generate\` to finish it, then check again.`,
        });
      }
      throw folderBusyError(run.paths.outDir);
    }
    const lockfile = await requireLockfile(run, cache, view, {
      detail: msg`: there is nothing to check against.`,
      hint: msg`Run \`schema-sync pull\` and commit the lockfile, or pass --lockfile.`,
    });
    // A damaged lockfile is reported before the request is made: its head is read (parsed,
    // unless recorded for this very text) before anything else.
    lockfile.head();
    const output = await outputChanges(run, cache, view, { after: lockfile });
    const staleFiles = driftOf(output);
    if (folderStamp(run.paths.outDir, run.paths.lockfilePath) === stamp) {
      if (output.strays.user.length > 0) run.warn(userFilesWarning(output.strays.user, run.paths.outDir));
      return { lockfile, output, staleFiles };
    }
    if (inspection === INSPECTIONS) throw folderBusyError(run.paths.outDir);
  }
}

function folderBusyError(outDir: string): WriteError {
  return new WriteError(msg`${outDir} kept changing while check read it: another schema-sync run is writing it.`, {
    hint: msg`Run check again once the other run is done.`,
  });
}

/**
 * The files that are not what the lockfile generates, by path: missing, other bytes, no longer
 * generated (also stale output no manifest names, told by its banner), or a symbolic link (a
 * file's or a folder's) in the place of the output.
 */
function driftOf({ changes, strays }: OutputChanges): StaleFile[] {
  const drift: StaleFile[] = [
    ...changes.write.map((file) => ({ path: file.path, reason: file.found ? ('modified' as const) : ('missing' as const) })),
    ...[...changes.delete, ...changes.edited, ...changes.unmarked, ...strays.stale.map((file) => file.path)].map((path) => ({ path, reason: 'extra' as const })),
    ...changes.linked.map((path) => ({ path, reason: 'symlink' as const })),
  ];
  return drift.sort((a, b) => compareStrings(a.path, b.path));
}
